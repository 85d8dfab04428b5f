"""Hostile saves and autosaves (fate_royal/rules/save.py, journal.py): every broken or hostile file
is one clear ``file[:line]: message`` — a number Python will not read, a setup out of bounds, an
option or rule switch that does not exist, a start position the rules could never reach — never a
Python error text, and never a number of hundreds of digits in the message."""

from __future__ import annotations

import copy
import json
import random

import pytest

from fate_royal.cards.ruleset import ERRATA_RULES
from fate_royal.rules.game import Game
from fate_royal.rules.hotseat import STOPS
from fate_royal.rules.journal import JournalWriter, journal_summary, read_journal
from fate_royal.rules.record import SEAT_KINDS
from fate_royal.rules.save import (
    SaveError, load_game, long_number_line, option_problem, read_save, record_problem,
    rules_problem, too_long_number,
)
from fate_royal.rules.simulate import choose_action

BIG = "9" * 5000  # more digits than Python reads (its limit is 4300)


def _refusal(path) -> str:
    """The message ``read_save`` refuses ``path`` with."""
    with pytest.raises(SaveError) as err:
        read_save(path)
    return str(err.value)


@pytest.fixture
def base(three_player_save):
    """A 3-player save (A, B, C) after a few actions, as plain data (tests/conftest.py)."""
    return copy.deepcopy(three_player_save)


def write(tmp_path, data, name="x.json"):
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data, indent=1, ensure_ascii=False),
                    encoding="utf-8")
    return path


def fresh(base):
    """The save with no actions and no digest: only its setup, options and rules are tried."""
    d = copy.deepcopy(base)
    d["record"]["actions"] = []
    d["state_digest"] = ""
    return d


def refusal(path, db_loader) -> str:
    with pytest.raises(SaveError) as err:
        load_game(path, db_loader)
    return str(err.value)


# --- numbers Python will not read, numbers too long to show


def test_a_number_of_more_than_4300_digits_is_a_damaged_save_at_its_line(tmp_path, base, db_loader):
    text = json.dumps(base, indent=1).replace('"seed": 3', f'"seed": {BIG}')
    path = write(tmp_path, text)
    line = text[: text.index(BIG)].count("\n") + 1
    assert line > 1
    assert refusal(path, db_loader) == f"{path}:{line}: damaged save: a number has more than 4300 digits"
    assert too_long_number() == "a number has more than 4300 digits"


def test_the_limit_named_is_pythons_own(monkeypatch):
    import sys

    old = sys.get_int_max_str_digits()
    try:
        sys.set_int_max_str_digits(5000)
        assert too_long_number() == "a number has more than 5000 digits"
        assert long_number_line("1\n" + "9" * 5000 + "\n" + "9" * 5001) == 3
        sys.set_int_max_str_digits(0)  # no limit set: Python's default is named
        assert too_long_number() == "a number has more than 4300 digits"
    finally:
        sys.set_int_max_str_digits(old)


def test_the_line_of_a_long_number_is_the_first_one_of_more_than_4300_digits():
    assert long_number_line("1\n" + "9" * 4300 + "\n" + "9" * 4301) == 3
    assert long_number_line("9" * 4301) == 1
    assert long_number_line("1\n" + "9" * 4300) == 0
    assert long_number_line("\n\n" + "9" * 4301) == 3  # lines counted from the very first character


def test_a_newer_or_unknown_format_version_is_shown_cut(tmp_path, base, db_loader):
    path = write(tmp_path, {**base, "version": 10 ** 400})
    assert refusal(path, db_loader) == (f"{path}: saved by a newer fate_royal (format "
                                        "10000000000000000000…; this one reads up to 2); update "
                                        "fate_royal to open it")
    path = write(tmp_path, {**base, "version": -10 ** 400})
    assert refusal(path, db_loader) == f"{path}: unknown save format version -1000000000000000000…"


def test_a_save_error_cuts_every_number_of_more_than_20_digits_but_not_the_file_name():
    assert str(SaveError("f", "seat " + "1" * 20 + " and " + "2" * 21)) == \
        "f: seat " + "1" * 20 + " and " + "2" * 20 + "…"
    assert SaveError("a" + "3" * 30, "x", 2).file == "a" + "3" * 30
    assert str(SaveError("a" + "3" * 30, "x", 2)) == "a" + "3" * 30 + ":2: x"
    assert SaveError("f", "9" * 25).message == "9" * 20 + "…"


def test_an_action_for_a_seat_of_400_digits_names_it_cut(tmp_path, base, db_loader):
    d = copy.deepcopy(base)
    d["record"]["actions"][0]["player"] = 10 ** 400
    message = refusal(write(tmp_path, d), db_loader)
    assert "10000000000000000000…" in message and "0" * 21 not in message


@pytest.mark.parametrize("kind, shown", [([1], "a list"), (5, "5"), (None, "None"),
                                         ({"a": 1}, "a mapping")])
def test_an_action_whose_kind_is_not_text_is_named_by_its_number(tmp_path, base, kind, shown):
    d = copy.deepcopy(base)
    d["record"]["actions"].insert(1, {"kind": kind, "player": 0})
    with pytest.raises(SaveError) as err:
        read_save(write(tmp_path, d))
    assert err.value.message == f"damaged save: action 2: its kind must be text, got {shown}"


# --- the setup


@pytest.mark.parametrize("change, message", [
    ({"mana": 10_000_000}, "player 'A': mana 10000000 is above the maximum 99"),
    ({"mana": 10 ** 400}, "player 'A': mana 10000000000000000000… is above the maximum 99"),
    ({"command_spells": 10 ** 100}, "player 'A': command_spells 10000000000000000000… is above the "
                                    "maximum 99"),
    ({"servant": {"hero": "H-001", "class": "セイバー", "state": [1]}},
     "player 'A': servant state must be reverse, rise, down or danger, got a list"),
])
def test_a_setup_out_of_bounds_cannot_be_played(tmp_path, base, db_loader, change, message):
    d = fresh(base)
    d["record"]["setup"]["players"][0].update(change)
    path = write(tmp_path, d)
    assert refusal(path, db_loader) == f"{path}: damaged save: its setup cannot be played ({message})"


def test_a_start_position_the_rules_could_never_reach_is_refused(tmp_path, base, db_loader):
    """Mana above the profile's limit of 5: within the setup's bounds, but no game gets there."""
    d = fresh(base)
    d["record"]["setup"]["players"][0]["mana"] = 50
    path = write(tmp_path, d)
    assert refusal(path, db_loader) == f"{path}: damaged save: impossible start position: A: mana 50 outside 0..5"
    d["record"]["setup"]["players"][0]["mana"] = 5
    assert load_game(write(tmp_path, d), db_loader).state.players[0].mana == 5
    for player in d["record"]["setup"]["players"][:2]:  # every broken invariant, each once
        player["mana"] = 50
    path = write(tmp_path, d)
    assert refusal(path, db_loader) == (f"{path}: damaged save: impossible start position: "
                                        "A: mana 50 outside 0..5; B: mana 50 outside 0..5")


# --- options and rules


@pytest.mark.parametrize("options, message", [
    ({"seats": {"0": "wizard"}}, "seat 0 is 'wizard', not a person or a computer level (human, random, "
                                 "basic, strong)"),
    ({"seats": {"0": ["x"]}}, "seat 0 is a list, not a person or a computer level (human, random, "
                              "basic, strong)"),
    ({"seats": {"99": "basic"}}, "seats: seat '99' is not a seat of this game (seats 0 to 2)"),
    ({"seats": {"3": "basic"}}, "seats: seat '3' is not a seat of this game (seats 0 to 2)"),
    ({"seats": {"9" * 5000: "basic"}}, "seats: seat '99999999999999999999…' is not a seat of this game "
                                       "(seats 0 to 2)"),
    ({"stops": {"0": ["nonsense"]}}, "stops of seat 0: unknown stop 'nonsense' (stops: my_turn, "
                                     "my_combat, every_window)"),
    ({"stops": {"3": []}}, "stops: seat '3' is not a seat of this game (seats 0 to 2)"),
])
def test_options_naming_a_seat_level_or_stop_that_does_not_exist_are_refused(tmp_path, base, options,
                                                                            message):
    d = copy.deepcopy(base)
    d["record"]["options"].update(options)
    path = write(tmp_path, d)
    assert _refusal(path) == f"{path}: damaged save: {message}"


def test_every_seat_level_and_stop_that_exists_is_taken(tmp_path, base):
    d = copy.deepcopy(base)
    d["record"]["options"].update(seats={"0": "human", "1": "random", "2": "strong"},
                                  stops={"0": list(STOPS), "2": []})
    assert read_save(write(tmp_path, d)).record.options["seats"]["2"] == "strong"
    d["record"]["options"]["seats"]["1"] = "basic"
    assert read_save(write(tmp_path, d)).record.options["seats"]["1"] == "basic"


def test_the_seat_kinds_are_the_computer_players_own():
    from fate_royal.ai import LEVELS, SEAT_KINDS as AI_SEAT_KINDS

    assert SEAT_KINDS == AI_SEAT_KINDS == ("human", *LEVELS) == ("human", "random", "basic", "strong")


def test_an_option_change_is_checked_like_the_options(tmp_path, base):
    d = copy.deepcopy(base)
    d["record"]["actions"].insert(2, {"kind": "option", "key": "seats", "value": {"0": "wizard"}})
    with pytest.raises(SaveError) as err:
        read_save(write(tmp_path, d))
    assert err.value.message == ("damaged save: action 3: seat 0 is 'wizard', not a person or a "
                                 "computer level (human, random, basic, strong)")
    d["record"]["actions"][2] = {"kind": "option", "key": "stops", "value": {"5": []}}
    with pytest.raises(SaveError) as err:
        read_save(write(tmp_path, d))
    assert err.value.message == "damaged save: action 3: stops: seat '5' is not a seat of this game (seats 0 to 2)"
    # a stop the table does not have: Game.set_option refuses it, so no game records it
    d["record"]["actions"][2] = {"kind": "option", "key": "stops", "value": {"0": ["戦闘"]}}
    with pytest.raises(SaveError) as err:
        read_save(write(tmp_path, d))
    assert err.value.message == ("damaged save: action 3: stops of seat 0: unknown stop '戦闘' "
                                 "(stops: my_turn, my_combat, every_window)")
    d["record"]["actions"][2] = {"kind": "option", "key": "stops", "value": {"0": ["my_combat"]}}
    assert read_save(write(tmp_path, d)).record.actions[2].value == {"0": ["my_combat"]}


@pytest.mark.parametrize("change, message", [
    ({"off": ["bogus"]}, "unknown rule switch 'bogus' in the rule set (errata rules are E1.1 … E9.7; "
                         "patches as in cards/errata/)"),
    ({"off": ["E1.3", "X9-a"]}, "unknown rule switch 'X9-a' in the rule set (errata rules are E1.1 … "
                                "E9.7; patches as in cards/errata/)"),
    ({"title": [1, 2]}, "rule set title must be text, got a list"),
    ({"name": 5}, "rule set name must be text, got 5"),
])
def test_a_rule_set_with_a_switch_that_does_not_exist_or_a_title_that_is_not_text_is_refused(
        tmp_path, base, change, message):
    d = copy.deepcopy(base)
    d["record"]["rules"].update(change)
    path = write(tmp_path, d)
    assert _refusal(path) == f"{path}: damaged save: {message}"


@pytest.mark.parametrize("off", [list(ERRATA_RULES), ["E9.1-a", "E9.6-b"], ["E9.6-zz"], []])
def test_errata_rules_installed_patches_and_patches_named_after_their_rule_are_switches(off):
    assert record_problem({"rules": {"off": off, "title": "t", "name": "n"}}) is None


def test_a_patch_of_the_installed_packs_is_a_switch_whatever_its_name(monkeypatch):
    import fate_royal.cards.rulesets as rulesets

    monkeypatch.setattr(rulesets, "known_switches", lambda root=None: [*ERRATA_RULES, "my-fix"])
    assert record_problem({"rules": {"off": ["my-fix"]}}) is None
    assert record_problem({"rules": {"off": ["my-fox"]}}).startswith("unknown rule switch 'my-fox'")


def test_when_the_installed_packs_cannot_be_read_only_errata_rules_and_their_patches_are_switches(
        monkeypatch):
    import fate_royal.cards.rulesets as rulesets
    from fate_royal.cards.yamlsrc import DataError

    def broken(root=None):
        raise DataError("errata/mine.yaml", 3, "broken")

    monkeypatch.setattr(rulesets, "known_switches", broken)
    assert record_problem({"rules": {"off": ["E9.1-a", "E8"]}}) is None
    assert record_problem({"rules": {"off": ["my-fix"]}}).startswith("unknown rule switch 'my-fix'")


def test_what_the_record_reader_refuses_itself_is_left_to_it():
    """A setup, options or switches of the wrong shape: the record reader's message, never a crash
    of these checks."""
    assert record_problem({"setup": [1], "options": {"seats": {"0": "basic"}}}) is None
    assert option_problem("seats", [1], 3) is None and option_problem("stops", "x", 3) is None
    assert option_problem("other", {"9": "x"}, 3) is None
    assert option_problem("seats", {"x": "basic"}, 3) is None and option_problem("seats", {5: "basic"}, 3) is None
    assert rules_problem({"off": "E1.1"}) is None


def test_a_seat_option_is_checked_against_7_seats_when_the_players_are_not_a_list():
    record = {"setup": {"players": "ABC"}, "options": {"seats": {"6": "basic"}}}
    assert record_problem(record) is None
    record["options"]["seats"] = {"7": "basic"}
    assert record_problem(record) == "seats: seat '7' is not a seat of this game (seats 0 to 6)"


def test_a_seat_number_is_written_as_the_game_writes_it():
    assert option_problem("seats", {"01": "basic"}, 3) == \
        "seats: seat '01' is not a seat of this game (seats 0 to 2)"


def test_every_action_is_looked_at_past_one_that_is_not_a_mapping():
    assert record_problem({"actions": [5, {"kind": "pass"}, {"kind": [1]}]}) == \
        "action 3: its kind must be text, got a list"


def test_a_record_that_is_not_a_mapping_is_left_to_the_record_reader():
    assert record_problem([1]) is None
    assert record_problem({"actions": ["pass", {"kind": "pass", "player": 0}], "options": [],
                           "rules": []}) is None


# --- the autosave journal


def _journal(tmp_path, db, rules):
    g = Game.new(db, rules, ["A", "B", "C"], seed=3)
    chooser = random.Random(3)
    for _ in range(4):
        g.apply(choose_action(chooser, g.legal_actions()))
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    w.update(g)
    assert w.close()
    return path


@pytest.mark.parametrize("where", [0, 2, 4])
def test_a_journal_line_with_a_number_python_will_not_read_is_a_damaged_autosave(tmp_path, db, rules,
                                                                                  where):
    """In the header, in the middle and in the last line (a whole line: not cut off by a crash)."""
    path = _journal(tmp_path, db, rules)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[where] = lines[where].replace('"turn": 1', f'"turn": {BIG}', 1) if where else \
        lines[0].replace('"version": 1', f'"version": 1, "x": {BIG}')
    assert BIG in lines[where] and len(lines) == 5
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for read in (journal_summary, read_journal):
        with pytest.raises(SaveError) as err:
            read(path)
        assert str(err.value) == f"{path}:{where + 1}: damaged autosave: a number has more than 4300 digits"


@pytest.mark.parametrize("seats, message", [
    ({"0": "wizard"}, "seat 0 is 'wizard', not a person or a computer level (human, random, basic, strong)"),
    # (the record's own reading lets this through: the game's seats are checked beside it)
    ({"3": "basic"}, "seats: seat '3' is not a seat of this game (seats 0 to 2)"),
])
def test_a_journal_with_an_unknown_seat_level_or_seat_is_a_damaged_autosave(tmp_path, db, rules, seats,
                                                                             message):
    path = _journal(tmp_path, db, rules)
    lines = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(lines[0])
    head["record"]["options"]["seats"] = seats
    path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n", encoding="utf-8")
    with pytest.raises(SaveError) as err:
        read_journal(path)
    assert str(err.value) == f"{path}: damaged autosave: {message}"


@pytest.mark.parametrize("turn, shown", [(1, 1), (999_999, 999_999), (1_000_000, 1), (0, 1),
                                         (10 ** 400, 1), (True, 1)])
def test_the_resume_question_shows_a_turn_from_1_to_999999(tmp_path, db, rules, turn, shown):
    path = _journal(tmp_path, db, rules)
    lines = path.read_text(encoding="utf-8").splitlines()
    last = json.loads(lines[-1])
    last["turn"] = turn
    path.write_text("\n".join(lines[:-1] + [json.dumps(last)]) + "\n", encoding="utf-8")
    got = journal_summary(path).turn
    assert (got, type(got)) == (shown, int)


def test_a_save_of_more_actions_than_a_record_holds_is_refused(tmp_path, base, monkeypatch):
    """640,000 option changes in a 31 MB save opened after seconds and 436 MB; a record holds at
    most record.MAX_ACTIONS (a seven-player game takes a few hundred) and a save at most 8 MB."""
    import fate_royal.rules.record as record
    from fate_royal.rules.save import MAX_SAVE_BYTES

    assert (record.MAX_ACTIONS, MAX_SAVE_BYTES) == (100_000, 8 * 1024 * 1024)
    monkeypatch.setattr(record, "MAX_ACTIONS", 3)  # (the same check, on a small file)
    d = fresh(base)
    d["record"]["actions"] = [{"kind": "option", "key": "auto_pass", "value": True}] * 4
    assert _refusal(write(tmp_path, d)) == (
        f"{tmp_path / 'x.json'}: damaged save: the record holds 4 actions, above the maximum 3")
    d["record"]["actions"] = d["record"]["actions"][:3]
    assert len(read_save(write(tmp_path, d)).record.actions) == 3


def test_an_autosave_of_more_actions_than_a_record_holds_is_refused_at_the_first_too_many(
        tmp_path, db, rules, monkeypatch):
    import fate_royal.rules.journal as journal

    path = _journal(tmp_path, db, rules)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 5  # the header and four actions
    monkeypatch.setattr(journal, "MAX_ACTIONS", 3)
    for read in (journal_summary, read_journal):
        with pytest.raises(SaveError) as err:
            read(path)
        assert str(err.value) == f"{path}:5: damaged autosave: 4 actions, above the maximum 3"
    monkeypatch.setattr(journal, "MAX_ACTIONS", 4)
    assert len(read_journal(path).record.actions) == 4
