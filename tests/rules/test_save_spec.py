"""Saved games, specified: what a save file holds, how a format-1 save is read, and the exact
``file[:line]: message`` of every refusal (a damaged, foreign, hostile or incompatible file).

A format-1 save is built here by hand from what the old format held: the setup (with the seed in
it), the actions, the rules profile, errata as one switch, the card fingerprint and a digest of
the old engine's position.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import random

import pytest

import fate_royal
from fate_royal.cards import RuleSet, load_card_db
from fate_royal.cards.profile import RulesProfile
from fate_royal.cards.ruleset import ERRATA_RULES
from fate_royal.paths import user_data_dir
from fate_royal.rules.actions import Action, Pass
from fate_royal.rules.game import Game
from fate_royal.rules.save import (
    SaveError, action_line, action_list, autosave_path, load_game, missing_personal_cards, read_save, read_text,
    problem_line, save_game, state_digest,
)
from fate_royal.rules.simulate import choose_action

NAMES = ["あかね", "B", "C"]

#: a scenario's own card (scenarios/rulings/D11-...): a game may carry card definitions of its own
SCENARIO_CARD = {
    "id": "S-952", "kind": "scene", "name": "小さな呪い", "name_en": "Small Curse (scenario card)",
    "provenance": "provisional",
    "effects": [{"name": "小さな呪い", "name_en": "Small Curse", "timing": "activated",
                 "window": "any", "target": {"kind": "servant", "side": "opponent"},
                 "ops": [{"op": "damage", "subject": "target", "amount": 1}]}],
}


def play(game, n, seed=3):
    chooser = random.Random(seed)
    for _ in range(n):
        if game.outcome():
            break
        game.apply(choose_action(chooser, game.legal_actions()))
    return game


@pytest.fixture
def game(db, rules):
    return play(Game.new(db, rules, NAMES, seed=3), 40)


def saved(tmp_path, game, name="a.json"):
    path = save_game(game, tmp_path / name)
    return path, json.loads(path.read_text(encoding="utf-8"))


def rewrite(path, rec):
    path.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")


def refusal(call, *args, **kw):
    with pytest.raises(SaveError) as err:
        call(*args, **kw)
    return err.value


# ---------------------------------------------------------------- SaveError


def test_a_save_error_without_a_line_reads_file_colon_message():
    err = SaveError("games/a.json", "the file is empty")
    assert str(err) == "games/a.json: the file is empty"
    assert (err.file, err.line, err.message) == ("games/a.json", 0, "the file is empty")


def test_a_save_error_with_a_line_reads_file_line_message():
    err = SaveError("a.json", "damaged save: Expecting value", 7)
    assert str(err) == "a.json:7: damaged save: Expecting value"
    assert (err.file, err.line) == ("a.json", 7)


# ---------------------------------------------------------------- what a save holds


def test_the_state_digest_is_the_sha256_of_the_positions_canonical_json(game):
    """Saves of earlier versions carry this digest: its definition is part of the file format
    (keys sorted, text as UTF-8, not escaped to ASCII)."""
    canonical = json.dumps(game.state.to_dict(), sort_keys=True, ensure_ascii=False)
    assert state_digest(game) == hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    assert "あかね" in canonical


def test_the_state_digest_tells_positions_apart(db, rules):
    a = Game.new(db, rules, NAMES, seed=3)
    digest = state_digest(a)
    a.apply(a.legal_actions()[0])
    assert state_digest(a) != digest
    assert state_digest(Game.new(db, rules, NAMES, seed=3)) == digest


def test_a_save_names_the_app_rules_players_turn_and_end(tmp_path, game, rules):
    _, rec = saved(tmp_path, game)
    assert rec["app_version"] == fate_royal.__version__
    assert rec["rules_fingerprint"] == rules.fingerprint
    assert rec["rules_title"] == "house"  # an untitled rule set is named by its name
    assert rec["names"] == NAMES
    assert rec["turn"] == game.state.turn and rec["turn"] > 0
    assert rec["over"] is False
    assert rec["state_digest"] == state_digest(game)
    assert rec["personal_cards"] == []


def test_a_save_prefers_the_rule_sets_title_to_its_name(tmp_path, db, rules):
    titled = rules.with_(title="Our table's errata")
    _, rec = saved(tmp_path, Game.new(db, titled, NAMES, seed=3))
    assert rec["rules_title"] == "Our table's errata"


def test_a_finished_game_is_saved_as_over(tmp_path, db, rules):
    game = play(Game.new(db, rules, ["A", "B"], seed=3), 1000, seed=1)
    assert game.outcome() is not None
    _, rec = saved(tmp_path, game)
    assert rec["over"] is True


def test_a_save_is_readable_json_sorted_indented_and_not_escaped(tmp_path, game):
    path, rec = saved(tmp_path, game)
    text = path.read_text(encoding="utf-8")
    assert text == json.dumps(rec, ensure_ascii=False, indent=1, sort_keys=True)
    assert '"あかね"' in text
    assert text.startswith('{\n "app_version": ')


def test_saving_creates_the_missing_folders(tmp_path, game, db_loader):
    target = tmp_path / "saves" / "2026" / "a.json"
    assert save_game(game, target) == target
    assert load_game(target, db_loader).state.to_dict() == game.state.to_dict()


def test_saving_into_a_file_as_folder_names_the_save_and_the_systems_reason(tmp_path, game):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    target = blocker / "sub" / "a.json"
    err = refusal(save_game, game, target)
    reason = err.__cause__.strerror
    assert reason
    assert err.file == str(target)
    assert str(err) == f"{target}: cannot write the save: {reason}"


def test_the_autosave_lives_in_the_user_data_folder():
    assert autosave_path() == user_data_dir() / "autosave.jsonl"


def test_action_list_gives_the_recorded_entries(tmp_path, game):
    path, _ = saved(tmp_path, game)
    assert action_list(path) == list(game.record.actions)
    assert len(action_list(path)) == 40


# ---------------------------------------------------------------- reading the text


def test_read_text_accepts_a_file_of_exactly_the_size_limit(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"12345")
    assert read_text(path, 5, "save") == "12345"


def test_read_text_refuses_a_file_over_the_limit_naming_its_size(tmp_path):
    path = tmp_path / "autosave.jsonl"
    path.write_bytes(b"123456")
    err = refusal(read_text, path, 5, "autosave")
    assert str(err) == f"{path}: too large to be a fate_royal autosave (6 bytes)"


def test_read_text_drops_a_byte_order_mark(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"\xef\xbb\xbf{}")
    assert read_text(path, 100, "save") == "{}"


def test_a_byte_that_is_not_utf8_is_refused_naming_its_line(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b'{\n "a": 1,\n "b": "\xff"\n}')
    err = refusal(read_save, path)
    assert err.line == 3
    assert str(err) == f"{path}:3: not a fate_royal save (not UTF-8 text)"


def test_a_bad_byte_on_the_first_line_is_line_1(tmp_path):
    path = tmp_path / "a.json"
    path.write_bytes(b"\xff\n\n")
    assert refusal(read_text, path, 100, "autosave").line == 1


def test_a_missing_file_cannot_be_opened(tmp_path):
    path = tmp_path / "nowhere.json"
    err = refusal(read_save, path)
    assert str(err) == f"{path}: cannot open: {os.strerror(errno.ENOENT)}"


def test_a_folder_cannot_be_read_as_a_save(tmp_path):
    err = refusal(read_save, tmp_path)
    assert str(err) == f"{tmp_path}: cannot read: not a regular file (a folder)"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_in_place_of_the_autosave_is_refused_unread(tmp_path):
    """It blocked the reader (and the table's start, which looks for the autosave) for ever."""
    from intime import in_time

    pipe = tmp_path / "autosave.jsonl"
    os.mkfifo(pipe)
    with pytest.raises(SaveError) as err:
        in_time(lambda: read_text(pipe, 100, "autosave"))
    assert str(err.value) == f"{pipe}: cannot read: not a regular file (a named pipe)"


# ---------------------------------------------------------------- checking the file


@pytest.mark.parametrize("content, message", [
    ("  \n\n", "the file is empty"),
    ("[" * 100_000, "damaged save: nested too deeply"),
    ('{"format": "something-else", "version": 2}',
     "not a fate_royal save (no 'format: fate_royal-save' field)"),
    ('{"format": "fate_royal-save"}', "damaged save: no format version"),
    ('{"format": "fate_royal-save", "version": "2"}', "damaged save: no format version"),
    ('{"format": "fate_royal-save", "version": true}', "damaged save: no format version"),
    ('{"format": "fate_royal-save", "version": 3}',
     "saved by a newer fate_royal (format 3; this one reads up to 2); update fate_royal to open it"),
    ('{"format": "fate_royal-save", "version": 0}', "unknown save format version 0"),
    ('{"format": "fate_royal-save", "version": -4}', "unknown save format version -4"),
])
def test_foreign_or_damaged_files_are_refused_with_a_clear_message(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    err = refusal(read_save, path)
    assert str(err) == f"{path}: {message}"
    assert err.file == str(path)


@pytest.mark.parametrize("key, value", [
    ("record", None), ("record", []), ("cards_fingerprint", None), ("cards_fingerprint", 5),
    ("state_digest", None), ("state_digest", ["x"]),
])
def test_a_missing_or_mistyped_top_field_is_named(tmp_path, game, key, value):
    path, rec = saved(tmp_path, game)
    if value is None:
        del rec[key]
    else:
        rec[key] = value
    rewrite(path, rec)
    err = refusal(read_save, path)
    assert str(err) == f"{path}: damaged save: '{key}' is missing or has the wrong type"


def test_a_damaged_record_is_refused_with_the_records_own_words(tmp_path, game):
    path, rec = saved(tmp_path, game)
    rec["record"]["seed"] = "three"
    rewrite(path, rec)
    err = refusal(read_save, path)
    assert str(err) == f"{path}: damaged save: 'seed' must be a whole number"


def test_read_save_says_whether_the_card_data_changed(tmp_path, game, db, db_off):
    path, _ = saved(tmp_path, game)
    assert read_save(path, db).cards_changed is False
    assert read_save(path, db_off).cards_changed is True
    assert read_save(path).cards_changed is False  # no card data to compare with


def test_read_save_names_the_file_and_the_players(tmp_path, game):
    path, _ = saved(tmp_path, game)
    info = read_save(path)
    assert info.path == str(path)
    assert info.names == NAMES
    assert info.record.seed == 3 and len(info.record.actions) == 40


# ---------------------------------------------------------------- replaying


def test_the_loader_is_asked_for_the_saves_rules_and_scenario_cards(tmp_path, rules):
    db = load_card_db(extra=[SCENARIO_CARD], rules=rules)
    game = play(Game(db, rules, {"players": [{"name": n} for n in NAMES]}, seed=4,
                     cards=[SCENARIO_CARD]), 12)
    path, _ = saved(tmp_path, game)
    asked = []

    def loader(r, extra):
        asked.append((r, extra))
        return db

    loaded = load_game(path, loader)
    assert asked == [(game.rules, [SCENARIO_CARD])]
    assert loaded.cards == (SCENARIO_CARD,)
    assert loaded.record.cards == (SCENARIO_CARD,)
    assert state_digest(loaded) == state_digest(game)


def test_card_data_that_cannot_be_loaded_is_named(tmp_path, game):
    path, _ = saved(tmp_path, game)

    def broken(rules, extra):
        raise ValueError("cards/heroes/x.yaml:3: bad cost")

    err = refusal(load_game, path, broken)
    assert str(err) == (f"{path}: cannot load the card data to replay this save: "
                        "cards/heroes/x.yaml:3: bad cost")


def test_changed_card_data_is_refused_with_the_way_out(tmp_path, game, db_loader):
    path, rec = saved(tmp_path, game)
    rec["cards_fingerprint"] = "0" * 64
    rewrite(path, rec)
    err = refusal(load_game, path, db_loader)
    assert str(err) == (f"{path}: incompatible: the card data changed since this game was saved "
                        "(open it anyway to replay it with the current cards)")


def test_missing_personal_cards_are_listed_with_the_way_out(tmp_path, game, db_loader):
    path, rec = saved(tmp_path, game)
    rec["personal_cards"] = [{"id": "M-900", "name": "甲"}, {"id": "M-901"}]
    rewrite(path, rec)
    err = refusal(load_game, path, db_loader)
    assert str(err) == (f"{path}: this game used personal cards that your card pack does not "
                        "have: M-900 甲, M-901 (import the card pack it was played with, then "
                        "open it again)")


def test_missing_personal_cards_skips_entries_that_are_not_cards(db):
    data = {"personal_cards": ["junk", {"name": "no id"}, {"id": 5}, None,
                               {"id": "M-777", "name": "試作"}, {"id": "H-001", "name": "shipped"},
                               {"id": "M-778", "name": ""}]}
    assert missing_personal_cards(data, db) == ["M-777 試作", "H-001 shipped", "M-778"]


@pytest.mark.parametrize("saved_list", [None, "M-002", {"id": "M-002"}, []])
def test_missing_personal_cards_is_empty_without_a_list(db, saved_list):
    assert missing_personal_cards({"personal_cards": saved_list}, db) == []


def test_a_setup_that_cannot_be_played_is_refused(tmp_path, game, db_loader):
    path, rec = saved(tmp_path, game)
    rec["record"]["setup"]["players"] = [{"name": "alone"}]
    rewrite(path, rec)
    err = refusal(load_game, path, db_loader)
    assert str(err) == (f"{path}: damaged save: its setup cannot be played "
                        "(a game needs 2 to 7 players, got 1)")


@pytest.mark.parametrize("bad, words, code", [
    ({"kind": "use", "player": 2, "card": 9999, "effect": 1}, "no such card", "no_such_card"),
    ({"kind": "raid", "player": 0, "target": 1}, "it is seat 2's decision, not seat 0's [D6]", "not_your_turn"),
])
def test_an_illegal_action_names_its_number_reason_and_rule(tmp_path, game, db_loader, bad, words, code):
    path, rec = saved(tmp_path, game)
    rec["record"]["actions"][0] = bad
    rewrite(path, rec)
    err = refusal(load_game, path, db_loader)
    assert str(err) == f"{path}:1: replay failed at action 1: {words}"  # (a save on one line)
    assert err.reason == code  # the engine's code, which the table words in its language


def test_a_refused_action_is_named_by_its_line_in_the_save(tmp_path, game, db_loader):
    """A friend's hand-edited save: the refused action is named by the line where it begins, as
    the program writes saves (one value a line) and as a person may write them."""
    path, rec = saved(tmp_path, game)
    rec["record"]["actions"][3] = {"kind": "raid", "player": 0, "target": 9}
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=1), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")
    begins = [n for n, text in enumerate(lines, 1) if text == "   {"]  # each action's first line
    err = refusal(load_game, path, db_loader)
    assert err.line == begins[3] and str(err).startswith(f"{path}:{begins[3]}: replay failed at action 4: ")


@pytest.mark.parametrize("text, index, count, line", [
    ('{"actions": [\n{"k": 1},{"k": 2},\n{"k": 3}]}', 0, 3, 2),  # no space after a comma
    ('{"actions": [\n{"k": 1},{"k": 2},\n{"k": 3}]}', 1, 3, 2),
    ('{"actions": [\n{"k": 1},{"k": 2},\n{"k": 3}]}', 2, 3, 3),
    ('{"actions":[1,\n\n2 ,\n  3\n]}', 2, 3, 4),  # spaces before a comma, a value on its own line
    ('{"a": {"actions": [\n1]},\n "record": {"actions": [\n5,\n6]}}', 1, 2, 5),  # another list first
    ('"actions": [oops],\n"actions": [\n7]', 0, 1, 3),  # a first list that is not JSON
    ('{"actions": [\n1,\n2]}', 1, 3, 0),  # not the record's list (its length differs): unknown
    ('{"kind": "use"}\n{"kind": "pass"}', 1, 2, 0),  # an autosave journal: no such list
])
def test_the_line_of_an_action_is_read_from_the_text(text, index, count, line):
    assert action_line(text, index, count) == line


@pytest.mark.parametrize("bad, message", [
    ({"kind": "use", "player": "x", "card": 1, "effect": 1, "targets": []},
     "use.player must be a whole number, got 'x'"),
    ({"kind": "explode", "player": 0}, "unknown action kind 'explode'"),
    ([1, 2], "not an action: [1, 2]"),
    ({"kind": "pass", "player": 0, "zzz": 1}, "unknown field(s) ['zzz'] for action pass"),
    ({"kind": "pass"}, "action pass has no player"),
    ({"kind": ["pass"], "player": 0}, "its kind must be text, got a list"),
])
def test_an_action_the_record_reader_refuses_is_named_by_its_line(tmp_path, game, bad, message):
    """An action of the wrong shape (not one the replay refuses, one that is not an action at
    all) is named by the line where it begins, as a refused one is."""
    path, rec = saved(tmp_path, game)
    rec["record"]["actions"][2] = bad
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=1), encoding="utf-8")
    lines = path.read_text(encoding="utf-8").split("\n")
    begins = [n for n, text in enumerate(lines, 1) if text in ("   {", "   [")]  # each action's first
    err = refusal(read_save, path)
    assert str(err) == f"{path}:{begins[2]}: damaged save: action 3: {message}"


@pytest.mark.parametrize("problem, line", [
    ("action 2: x", 3), ("action 1: x", 2), ("action 3: x", 4), ("action 4: x", 0), ("action 0: x", 0),
    ("seats: seat '7' is not a seat", 0), ("the action 2: x", 0),
])
def test_only_a_problem_that_names_an_action_of_the_record_has_its_line(problem, line):
    text = '{"actions": [\n1,\n2,\n3]}'
    assert problem_line(text, {"actions": [1, 2, 3]}, problem) == line
    assert problem_line(text, {"actions": "123"}, problem) == 0


def test_a_save_error_has_no_reason_code_unless_an_action_was_refused():
    assert SaveError("a.json", "the file is empty").reason == ""


def test_an_action_after_the_end_is_a_damaged_save(tmp_path, db, rules, db_loader):
    game = play(Game.new(db, rules, ["A", "B"], seed=3), 1000, seed=1)
    n = len(game.record.actions)
    path, rec = saved(tmp_path, game)
    rec["record"]["actions"].append(Pass(player=0).to_dict())
    path.write_text(json.dumps(rec, ensure_ascii=False, indent=1), encoding="utf-8")
    last = [k for k, text in enumerate(path.read_text(encoding="utf-8").split("\n"), 1) if text == "   {"][-1]
    err = refusal(load_game, path, db_loader)
    assert str(err) == f"{path}:{last}: damaged save: action {n + 1} is not valid (the game is over)"


def test_a_replay_that_misses_the_saved_position_is_refused(tmp_path, game, db_loader):
    path, rec = saved(tmp_path, game)
    rec["state_digest"] = "0" * 64
    rewrite(path, rec)
    err = refusal(load_game, path, db_loader)
    assert str(err) == f"{path}: damaged save: the replay does not reach the saved position"


@pytest.mark.parametrize("upto, played", [(0, 0), (-3, 0), (1, 1), (39, 39), (500, 40)])
def test_a_partial_replay_plays_the_first_entries_only(tmp_path, game, db_loader, upto, played):
    path, _ = saved(tmp_path, game)
    assert len(load_game(path, db_loader, upto=upto).entries) == played


def test_a_partial_replay_does_not_check_the_digest(tmp_path, game, db_loader):
    path, rec = saved(tmp_path, game)
    rec["state_digest"] = "0" * 64
    rewrite(path, rec)
    assert len(load_game(path, db_loader, upto=40).entries) == 40


def test_an_already_read_save_is_replayed_without_reading_the_file_again(tmp_path, game,
                                                                         db_loader):
    path, _ = saved(tmp_path, game)
    info = read_save(path)
    path.unlink()
    assert load_game(path, db_loader, info=info).state.to_dict() == game.state.to_dict()


# ---------------------------------------------------------------- format 1


PROFILE_V1 = {"errata_e3": True, "start_mana": 4}  # a parameter this version dropped, then one it knows


def v1_game(errata: bool, seed: int = 7):
    """The game a format-1 save describes, played under this engine with sequential card numbers."""
    rules = RuleSet.from_errata(errata, RulesProfile.from_mapping({"start_mana": 4}))
    db = load_card_db(rules=rules)
    setup = {"players": [{"name": n} for n in NAMES], "uid_order": "sequential"}
    return play(Game(db, rules, setup, seed=seed), 25)


def v1_save(tmp_path, game, **changes):
    data = {
        "format": "fate_royal-save", "version": 1, "app_version": "0.3.0",
        "setup": {"players": [{"name": n} for n in NAMES], "seed": game.seed},
        "actions": [a.to_dict() for a in game.record.actions],
        "profile": dict(PROFILE_V1), "errata": game.rules.on(next(iter(ERRATA_RULES))),
        "cards_fingerprint": game.db.fingerprint,
        "state_digest": "f" * 64,  # a position of the old engine
        "names": NAMES,
    }
    data.update(changes)
    for key in [k for k, v in data.items() if v is None]:
        del data[key]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


@pytest.mark.parametrize("errata", [True, False])
def test_a_format_1_save_replays_to_the_same_position(tmp_path, db_loader, errata):
    game = v1_game(errata)
    path = v1_save(tmp_path, game)
    loaded = load_game(path, db_loader)
    assert loaded.state.to_dict() == game.state.to_dict()
    assert loaded.seed == 7
    assert loaded.rules.off == (frozenset() if errata else frozenset(ERRATA_RULES))
    assert loaded.rules.profile.to_dict()["start_mana"] == 4


def test_a_format_1_save_resaved_is_a_format_2_save_with_sequential_cards(tmp_path, db_loader):
    game = v1_game(True)
    loaded = load_game(v1_save(tmp_path, game), db_loader)
    path, rec = saved(tmp_path, loaded, "new.json")
    assert rec["version"] == 2
    assert rec["record"]["setup"] == {"players": [{"name": n} for n in NAMES],
                                      "uid_order": "sequential"}
    assert rec["record"]["seed"] == 7
    assert load_game(path, db_loader).state.to_dict() == game.state.to_dict()


def test_read_save_presents_a_format_1_save_as_format_2(tmp_path):
    game = v1_game(False)
    path = v1_save(tmp_path, game, scenario_cards=[SCENARIO_CARD])
    info = read_save(path)
    rules = RuleSet.base(RulesProfile.from_mapping({"start_mana": 4}))
    assert info.data["record"] == {
        "setup": {"players": [{"name": n} for n in NAMES], "uid_order": "sequential"},
        "options": {}, "rules": rules.to_dict(), "seed": 7,
        "actions": [a.to_dict() for a in game.record.actions], "cards": [SCENARIO_CARD],
    }
    assert info.data["state_digest"] == ""  # the old engine's digest is not comparable
    assert info.data["version"] == 1 and info.names == NAMES
    assert info.record.cards == (SCENARIO_CARD,)
    assert info.record.rules == rules


def test_a_format_1_save_without_scenario_cards_has_none(tmp_path):
    info = read_save(v1_save(tmp_path, v1_game(True)))
    assert info.data["record"]["cards"] == [] and info.record.cards == ()


@pytest.mark.parametrize("seed, expected", [(None, 0), ("seven", 0), (True, 0), (2.5, 0), (12, 12)])
def test_a_format_1_seed_that_is_not_a_whole_number_becomes_0(tmp_path, seed, expected):
    game = v1_game(True)
    setup = {"players": [{"name": n} for n in NAMES]}
    if seed is not None:
        setup["seed"] = seed
    info = read_save(v1_save(tmp_path, game, setup=setup))
    assert info.record.seed == expected
    assert "seed" not in info.record.setup


@pytest.mark.parametrize("key, value", [
    ("setup", None), ("setup", []), ("actions", None), ("actions", {}), ("profile", None),
    ("profile", []), ("errata", None), ("errata", 1), ("cards_fingerprint", None),
    ("cards_fingerprint", 1), ("state_digest", None), ("state_digest", 0),
])
def test_a_format_1_save_missing_a_field_names_it(tmp_path, key, value):
    game = v1_game(True)
    path = v1_save(tmp_path, game, **{key: value})  # None: the field is left out
    err = refusal(read_save, path)
    assert str(err) == f"{path}: damaged save: '{key}' is missing or has the wrong type"


def test_a_format_1_profile_value_out_of_range_is_named(tmp_path):
    path = v1_save(tmp_path, v1_game(True), profile={"errata_e3": True, "start_mana": -1})
    err = refusal(read_save, path)
    assert str(err) == f"{path}: damaged save: profile start_mana (D3) must be at least 0, got -1"


def test_a_format_1_profile_with_only_dropped_parameters_is_the_default(tmp_path):
    path = v1_save(tmp_path, v1_game(True), profile={"errata_e3": False})
    assert read_save(path).record.rules.profile == RulesProfile.defaults()
