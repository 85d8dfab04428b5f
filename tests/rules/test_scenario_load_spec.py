"""What ``load_scenario`` accepts, what it refuses and in which words (docs/scenarios.md).

Every problem of a scenario file is reported at once, each as ``file:line: message``; these tests
pin, with small inline scenarios, each refusal word for word with the line it names, the shapes
that are accepted, the defaults a file may leave out, and the labels of its steps.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.cards.yamlsrc import DataError
from fate_royal.rules.scenario import ScenarioError, Step, load_scenario

PLAYERS = "players:\n  - name: A\n  - name: B\n"
DO_NEEDS = ("do needs {action: …} (pass, raid, encounter_target, attack, play, discard, use, "
            "spell, choose, resolve, advance)")
STEP_KINDS = "a step must be one of: do, expect, expect_illegal, resolve, advance, say"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def problems(tmp_path: Path, text: str) -> list[str]:
    """The refusals of a scenario text, each as "line: message" (all in the file itself)."""
    path = write(tmp_path, text)
    with pytest.raises(DataError) as info:
        load_scenario(path)
    errors = getattr(info.value, "errors", [info.value])
    assert all(e.file == str(path) for e in errors), [e.file for e in errors]
    return [f"{e.line}: {e.message}" for e in errors]


def load(tmp_path: Path, text: str):
    return load_scenario(write(tmp_path, text))


# --- steps -------------------------------------------------------------------------------------


def test_a_step_that_is_not_a_mapping_or_resolve_is_refused_at_its_line(tmp_path):
    assert problems(tmp_path, PLAYERS + "steps:\n  - resolve\n  - 3\n  - {}\n  - [do]\n  - pass\n") \
        == [f"6: {STEP_KINDS}", f"7: {STEP_KINDS}", f"8: {STEP_KINDS}", f"9: {STEP_KINDS}"]


def test_one_step_does_one_thing_and_the_second_kind_is_named(tmp_path):
    text = PLAYERS + "steps:\n  - say: hi\n    do: {action: pass, player: A}\n    expect:\n      mana: 1\n"
    assert problems(tmp_path, text) == [
        "7: one step does one thing (do, expect, expect_illegal, resolve or advance)"]


def test_an_unknown_step_key_is_refused_with_a_hint(tmp_path):
    text = PLAYERS + "steps:\n  - say: hi\n    exepct: {mana: 1}\n  - say: x\n    zzz: 1\n"
    assert problems(tmp_path, text) == ["6: unknown step key 'exepct' (did you mean 'expect'?)",
                                        "8: unknown step key 'zzz'"]


def test_do_needs_an_action_mapping(tmp_path):
    text = (PLAYERS + "steps:\n  - say: a\n    do: pass\n  - say: b\n    do:\n      player: A\n"
            "  - say: c\n    do:\n      player: A\n      action: [1]\n"
            "  - say: d\n    do:\n      player: A\n      action: attak\n"
            "  - say: e\n    do:\n      action: pass\n      card: x\n"
            "  - say: f\n    do:\n      player: A\n      action: " + "x" * 120 + "\n")
    assert problems(tmp_path, text) == [
        f"6: {DO_NEEDS}",
        f"8: {DO_NEEDS}",
        "13: unknown action '[1]'",
        "17: unknown action 'attak' (did you mean 'attack'?)",
        "21: unknown key 'card' in action pass",
        "25: unknown action '" + "x" * 97 + "…'",
    ]


@pytest.mark.parametrize("action, keys", [
    ("pass", "player: A"),
    ("raid", "player: A\n      target: B"),
    ("encounter_target", "player: A\n      target: B"),
    ("attack", "player: A\n      type: magic"),
    ("play", "player: A\n      card: S-001"),
    ("discard", "player: A\n      card: S-001"),
    ("use", "player: A\n      card: S-001\n      effect: e\n      targets: [B]"),
    ("spell", "player: A\n      kind: k\n      target: B\n      coin: assassination"),
    ("choose", "player: A\n      card: S-001\n      option: 1"),
    ("resolve", "say: x"),
    ("advance", "step: ritual"),
])
def test_each_action_takes_its_own_keys(tmp_path, action, keys):
    if keys == "say: x":
        text = PLAYERS + f"steps:\n  - say: a\n    do:\n      action: {action}\n"
    else:
        text = PLAYERS + f"steps:\n  - say: a\n    do:\n      action: {action}\n      {keys}\n"
    scenario = load(tmp_path, text)
    assert [s.kind for s in scenario.steps] == ["do"]
    bad = PLAYERS + f"steps:\n  - say: a\n    do:\n      action: {action}\n      bogus: 1\n"
    assert problems(tmp_path, bad) == [f"8: unknown key 'bogus' in action {action}"]


def test_expect_illegal_needs_a_do_and_takes_rule_and_reason(tmp_path):
    text = (PLAYERS + "steps:\n"
            "  - say: a\n    expect_illegal:\n      rule: E1\n"
            "  - say: b\n    expect_illegal: 3\n"
            "  - say: c\n    expect_illegal:\n      do: {action: pass, player: A}\n      rul: E1\n"
            "  - say: d\n    expect_illegal:\n      rule: E1\n      do:\n        action: pas\n"
            "  - say: e\n    expect_illegal:\n      rule: E1\n      do: 5\n"
            "  - say: f\n    expect_illegal:\n      rule: E1\n      reason: r\n"
            "      do:\n        action: pass\n        player: A\n")
    assert problems(tmp_path, text) == [
        "6: expect_illegal needs {do: {...}, rule: ID}",
        "9: expect_illegal needs {do: {...}, rule: ID}",
        "13: unknown key 'rul' in expect_illegal (did you mean 'rule'?)",
        "18: unknown action 'pas' (did you mean 'pass'?)",
        f"22: {DO_NEEDS}",
    ]


def test_expect_needs_a_mapping_of_known_checks(tmp_path):
    text = (PLAYERS + "steps:\n  - say: a\n    expect: 3\n"
            "  - say: b\n    expect:\n      player: A\n      manna: 1\n")
    assert problems(tmp_path, text) == ["6: expect needs a mapping of checks",
                                        "10: unknown key 'manna' in expect (did you mean 'mana'?)"]


def test_every_expect_key_is_accepted(tmp_path):
    from fate_royal.rules.scenario import EXPECT_KEYS

    body = "".join(f"      {k}: 1\n" for k in EXPECT_KEYS)
    scenario = load(tmp_path, PLAYERS + "steps:\n  - say: a\n    expect:\n" + body)
    assert scenario.steps[0].kind == "expect"
    assert sorted(scenario.steps[0].body) == sorted(EXPECT_KEYS)


def test_advance_names_a_step_or_a_combat_process(tmp_path):
    text = (PLAYERS + "steps:\n"
            "  - say: a\n    advance: intercept\n"
            "  - say: b\n    advance:\n      step: nope\n"
            "  - say: c\n    advance: 3\n"
            "  - say: d\n    advance:\n      stp: ritual\n"
            "  - say: e\n    advance:\n      step: raid\n"
            "  - say: f\n    advance: combat\n")
    assert problems(tmp_path, text) == [
        "6: advance to a step or combat process; got 'intercept' (did you mean 'interception'?)",
        "8: advance to a step or combat process; got 'nope'",
        "11: advance to a step or combat process; got 3",
        "13: advance to a step or combat process; got None",
    ]


def test_advance_accepts_every_step_and_process(tmp_path):
    from fate_royal.rules.state import PROCESSES, STEPS

    text = PLAYERS + "steps:\n" + "".join(f"  - advance: {s}\n" for s in STEPS + PROCESSES) \
        + "  - advance:\n      step: raid\n"
    scenario = load(tmp_path, text)
    assert [s.body for s in scenario.steps][:-1] == list(STEPS + PROCESSES)
    assert scenario.steps[-1].body == {"step": "raid"}


def test_steps_are_read_with_kind_body_line_and_words(tmp_path):
    text = (PLAYERS + "steps:\n"
            "  - resolve\n"
            "  - say: 始め\n    say_en: Start\n    note: n\n"
            "  - do: {action: pass, player: A}\n"
            "  - expect: {mana: 1}\n    say_en: only en\n"
            "  - resolve: {}\n"
            "  - advance: ritual\n")
    steps = load(tmp_path, text).steps
    assert [(s.kind, s.line, s.say, s.say_en) for s in steps] == [
        ("resolve", 5, "", ""), ("say", 6, "始め", "Start"), ("do", 9, "", ""),
        ("expect", 10, "", "only en"), ("resolve", 12, "", ""), ("advance", 13, "", "")]
    assert steps[0].body == {} and steps[1].body is None
    assert steps[2].body == {"action": "pass", "player": "A"}
    assert steps[5].body == "ritual"


def test_step_labels_name_the_kind_and_a_short_body():
    assert Step("say", None, 1, "x").label() == "say"
    assert Step("do", {"action": "pass", "player": "A"}, 1).label() == \
        "do: {'action': 'pass', 'player': 'A'}"
    assert Step("advance", "ritual", 1).label() == "advance: ritual"
    assert Step("resolve", {}, 1).label() == "resolve: {}"
    assert Step("expect", "x" * 99, 1).label() == "expect: " + "x" * 99
    assert Step("expect", "x" * 100, 1).label() == "expect: " + "x" * 97 + "…"


def test_step_labels_of_a_loaded_file_are_plain_data(tmp_path):
    steps = load(tmp_path, PLAYERS + "steps:\n  - say: hi\n  - do: {action: pass, player: A}\n"
                                     "  - resolve\n").steps
    assert [s.label() for s in steps] == ["say", "do: {'action': 'pass', 'player': 'A'}",
                                          "resolve: {}"]


def test_steps_must_be_a_list_and_may_be_left_out(tmp_path):
    assert problems(tmp_path, PLAYERS + "steps: 3\n") == ["4: steps must be a list"]
    assert load(tmp_path, PLAYERS).steps == []
    assert load(tmp_path, PLAYERS + "steps:\n").steps == []


# --- the top of the file -----------------------------------------------------------------------


def test_a_scenario_must_be_a_mapping(tmp_path):
    assert problems(tmp_path, "- a\n- b\n") == [
        "1: a scenario must be a mapping (title, players, steps…)"]


def test_an_unreadable_file_is_a_load_error(tmp_path):
    path = tmp_path / "missing.yaml"
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}:0: cannot read file: No such file or directory"


def test_text_given_directly_is_read_instead_of_the_file(tmp_path):
    scenario = load_scenario(tmp_path / "nowhere.yaml", "title: given\n" + PLAYERS)
    assert scenario.title == "given" and scenario.path == str(tmp_path / "nowhere.yaml")


def test_top_level_fields_are_checked_each_at_its_line(tmp_path):
    text = (PLAYERS + "title: 3\ndescription: [x]\ntitle_en: {a: 1}\ndescription_en: 4\nerrata: 2\n"
            "seed: -1\ndice: [0, 7]\nfoo: 1\ntitel: x\n")
    assert problems(tmp_path, text) == [
        "11: unknown key 'foo' in scenario",
        "12: unknown key 'titel' in scenario (did you mean 'title'?)",
        "4: title must be text",
        "5: description must be text",
        "6: title_en must be text",
        "7: description_en must be text",
        "8: errata must be true or false",
        "9: seed must be a whole number from 0 to 2^63 - 1",
        "10: a die result 0 is below the minimum 1",
        "10: a die result 7 is above the maximum 6",
    ]


@pytest.mark.parametrize("seed, ok", [(0, True), (2 ** 63 - 1, True), (2 ** 63, False),
                                      (-1, False), ("true", False), ("1.5", False), ("x", False)])
def test_the_seed_is_a_whole_number_below_two_to_the_63(tmp_path, seed, ok):
    text = PLAYERS + f"seed: {seed}\n"
    if ok:
        assert load(tmp_path, text).seed == seed
    else:
        assert problems(tmp_path, text) == ["4: seed must be a whole number from 0 to 2^63 - 1"]


@pytest.mark.parametrize("dice, message", [
    ("[1, 6]", None), ("[]", None), ("", None), ("[" + ", ".join(["3"] * 200) + "]", None),
    ("[" + ", ".join(["3"] * 201) + "]", "dice holds 201 results, above the maximum 200"),
    ("[0]", "a die result 0 is below the minimum 1"), ("[7]", "a die result 7 is above the maximum 6"),
    ("[true]", "a die result must be a whole number from 1 to 6, got True"),
    ("3", "dice must be a list of die results 1..6, got 3"),
    ("[1.0]", "a die result must be a whole number from 1 to 6, got 1.0")])
def test_dice_are_at_most_200_results_from_1_to_6(tmp_path, dice, message):
    """The same words as a save's setup (``setup.py`` checks both), at the dice's line."""
    text = PLAYERS + f"dice: {dice}\n"
    if message is None:
        expected = [] if dice in ("", "[]") else [int(d) for d in dice.strip("[]").split(",")]
        assert load(tmp_path, text).setup["dice"] == expected
    else:
        assert problems(tmp_path, text) == [f"4: {message}"]


def test_defaults_of_a_minimal_scenario(tmp_path):
    scenario = load(tmp_path, PLAYERS)
    assert scenario.title == "s"  # the file's name
    assert scenario.description == "" and scenario.title_en == "" and scenario.description_en == ""
    assert scenario.seed == 0 and scenario.options == {} and scenario.cards == []
    assert scenario.profile_overrides == {} and scenario.steps == []
    assert scenario.errata is True
    assert scenario.rules.name == "house"
    assert scenario.setup == {"scenario": True, "dice": [],
                              "players": [{"name": "A"}, {"name": "B"}], "start": None}


def test_the_texts_and_setup_are_read_as_written(tmp_path):
    text = ("title: タイトル\ntitle_en: Title\ndescription: 説明\ndescription_en: Text\nseed: 7\n"
            "errata: false\ndice: [2, 5]\noptions: {auto_pass: false}\n"
            "players:\n  - name: A\n    servant: {hero: H-001, class: セイバー, state: rise}\n"
            "    hand: [S-003]\n    mana: 2\n    mana_limit: 3\n  - name: B\n"
            "deck: [S-001]\ndiscard: []\ngrail: [S-002]\n"
            "start: {player: B, step: ritual, turn: 3}\n")
    s = load(tmp_path, text)
    assert (s.title, s.title_en, s.description, s.description_en) == \
        ("タイトル", "Title", "説明", "Text")
    assert s.seed == 7 and s.errata is False and s.rules.name == "base"
    assert s.options == {"auto_pass": False}
    assert s.setup == {
        "scenario": True, "dice": [2, 5],
        "players": [{"name": "A", "servant": {"hero": "H-001", "class": "セイバー", "state": "rise"},
                     "hand": ["S-003"], "mana": 2, "mana_limit": 3}, {"name": "B"}],
        "start": {"player": "B", "step": "ritual", "turn": 3},
        "deck": ["S-001"], "discard": [], "grail": ["S-002"]}
    assert type(s.setup["players"][0]["servant"]) is dict


def test_empty_texts_are_refused_but_empty_english_ones_are_nothing(tmp_path):
    assert problems(tmp_path, PLAYERS + "title:\ndescription:\n") == [
        "4: title must be text", "5: description must be text"]
    s = load(tmp_path, PLAYERS + "title: t\ndescription: ''\ntitle_en: ''\n")
    assert (s.title, s.description, s.title_en, s.description_en) == ("t", "", "", "")


def test_errata_and_a_named_rule_set_cannot_both_be_given(tmp_path):
    assert problems(tmp_path, PLAYERS + "errata: false\nrules: house\n") == [
        "4: give either errata: or a rule set in rules:, not both (a list in rules: such as "
        "[errata, -E8] may follow errata:)"]


def test_a_list_of_rule_switches_may_follow_errata(tmp_path):
    s = load(tmp_path, PLAYERS + "errata: false\nrules: [errata, -E8]\n")
    assert s.errata is False
    assert s.rules.all_errata is False


def test_a_named_rule_set_in_rules(tmp_path):
    assert load(tmp_path, PLAYERS + "rules: base\n").rules.all_errata is False
    assert load(tmp_path, PLAYERS + "rules: house\n").rules.all_errata is True


def test_an_unknown_rule_set_is_refused_at_the_rules_line(tmp_path):
    msgs = problems(tmp_path, PLAYERS + "title: t\nrules: nosuchset\n")
    assert len(msgs) == 1 and msgs[0].startswith("5: "), msgs
    assert "nosuchset" in msgs[0]


# --- options, profile, cards -------------------------------------------------------------------


def test_options_and_profile_are_checked_value_by_value(tmp_path):
    text = PLAYERS + "options:\n  seats: {}\n  auto_pass: 3\n  bogus: 1\nprofile:\n  x: 1\n  bogus: 1\n"
    assert problems(tmp_path, text) == [
        "9: unknown rules-profile parameter 'x'",
        "10: unknown rules-profile parameter 'bogus'",
        "6: auto_pass must be true or false",
        "7: unknown option 'bogus' (options: auto_pass, stops, seats)",
    ]


def test_options_profile_cards_and_steps_of_the_wrong_shape(tmp_path):
    text = PLAYERS + "title: t\noptions: [1]\nprofile: [1]\ncards: 3\nsteps: 3\n"
    assert problems(tmp_path, text) == [
        "6: profile must be a mapping of rules-profile parameters",
        "5: options must be a mapping such as {auto_pass: false}",
        "7: cards must be a list of card definitions",
        "8: steps must be a list",
    ]


def test_empty_options_profile_and_cards_are_nothing(tmp_path):
    s = load(tmp_path, PLAYERS + "options:\nprofile:\ncards:\n")
    assert s.options == {} and s.profile_overrides == {} and s.cards == []


def test_a_valid_profile_change_is_applied(tmp_path):
    from fate_royal.cards.profile import PARAMETERS

    key, spec = next((k, p) for k, p in PARAMETERS.items() if p.type == "bool")
    value = not spec.default
    s = load(tmp_path, PLAYERS + f"profile:\n  {key}: {str(value).lower()}\n")
    assert s.profile_overrides == {key: value}
    assert getattr(s.rules.profile, key) == value


# --- players -----------------------------------------------------------------------------------


@pytest.mark.parametrize("players, message", [
    ("", "a game needs 2 to 7 players, got 0"),
    ("players: 3\n", "players must be a list of 2 to 7 players, got 3"),
    ("players: [{name: A}]\n", "a game needs 2 to 7 players, got 1"),
    ("players: [" + ", ".join(f"{{name: P{i}}}" for i in range(8)) + "]\n",
     "a game needs 2 to 7 players, got 8")])
def test_two_to_seven_players(tmp_path, players, message):
    msgs = problems(tmp_path, "title: t\n" + players)
    line = 2 if players else 1
    assert msgs == [f"{line}: {message}"]


def test_seven_players_are_accepted(tmp_path):
    text = "players: [" + ", ".join(f"{{name: P{i}}}" for i in range(7)) + "]\n"
    assert len(load(tmp_path, text).setup["players"]) == 7


def test_each_player_is_checked(tmp_path):
    text = ("title: t\nplayers:\n"
            "  - 3\n"
            "  - nam: A\n"
            "  - mana: 1\n    name: ''\n"
            "  - name: A\n    servant: 3\n"
            "  - mana: 0\n    name: A\n    servant:\n      hero: ''\n      class: 3\n      state: up\n"
            "      class_state: x\n      foo: 1\n")
    assert problems(tmp_path, text) == [  # in the file's order
        "3: a player must be a mapping with a name, got 3",
        "4: each player needs a name",
        "4: unknown key 'nam' in a player (did you mean 'name'?)",
        "6: a player name is empty",
        "8: servant must be a mapping {hero, class, state}, got 3",
        "10: two players are called 'A'",
        "12: servant hero must be a card id such as M-006, got ''",
        "13: servant class must be a card id such as M-006, got 3",
        "14: servant state must be reverse, rise, down or danger, got 'up'",
        "15: servant class_state must be reverse, rise, down or danger, got 'x'",
        "16: unknown key 'foo' in a servant (keys: hero, class, state, class_state)",
    ]


def test_an_unnamed_player_is_counted_by_place(tmp_path):
    # two unnamed players at places 1 and 2 are P1 and P2, so they do not clash with each other,
    # but a player really called P2 does
    text = "players:\n  - mana: 1\n  - mana: 1\n  - name: P1\n"
    assert problems(tmp_path, text) == ["2: each player needs a name", "3: each player needs a name",
                                        "4: two players are called 'P1'"]


@pytest.mark.parametrize("state", ["reverse", "rise", "down", "danger"])
def test_the_servant_states(tmp_path, state):
    text = ("players:\n  - name: A\n    servant:\n      hero: H-001\n      class: セイバー\n"
            f"      state: {state}\n      class_state: {state}\n  - name: B\n")
    assert load(tmp_path, text).setup["players"][0]["servant"]["state"] == state


@pytest.mark.parametrize("key", ["mana", "mana_limit", "command_spells"])
def test_player_numbers_are_whole_numbers_from_0_to_99(tmp_path, key):
    for good in (0, 99):
        text = f"players:\n  - name: A\n    {key}: {good}\n    mana_limit: 99\n  - name: B\n" \
            if key == "mana" else f"players:\n  - name: A\n    {key}: {good}\n  - name: B\n"
        assert load(tmp_path, text).setup["players"][0][key] == good
    for bad in ("100", "-1", "true", "1.5", "x"):
        text = f"players:\n  - name: A\n    out: false\n    {key}: {bad}\n  - name: B\n"
        value = {"100": "100", "-1": "-1", "true": "True", "1.5": "1.5", "x": "'x'"}[bad]
        message = f"{key} {value} is above the maximum 99" if bad == "100" else \
            f"{key} {value} is below the minimum 0" if bad == "-1" else \
            f"{key} must be a whole number from 0 to 99, got {value}"
        assert problems(tmp_path, text) == [f"4: {message}"]


def test_mana_may_not_be_above_the_mana_limit(tmp_path):
    text = "players:\n  - name: A\n    mana_limit: 3\n    mana: 5\n  - name: B\n"
    assert problems(tmp_path, text) == ["4: mana 5 is above the mana limit 3"]
    ok = "players:\n  - name: A\n    mana_limit: 3\n    mana: 3\n  - name: B\n    mana: 9\n"
    assert load(tmp_path, ok).setup["players"][0]["mana"] == 3
    bad = "players:\n  - name: A\n    mana_limit: 3\n    mana: 5\n    command_spells: 100\n  - name: B\n"
    assert problems(tmp_path, bad) == ["4: mana 5 is above the mana limit 3",
                                       "5: command_spells 100 is above the maximum 99"]


def test_out_is_true_or_false(tmp_path):
    assert problems(tmp_path, "players:\n  - name: A\n    out: 1\n  - name: B\n") == [
        "3: out must be true or false, got 1"]
    assert load(tmp_path, "players:\n  - name: A\n    out: true\n  - name: B\n") \
        .setup["players"][0]["out"] is True


def test_hand_is_a_list_of_card_ids(tmp_path):
    text = ("players:\n  - name: A\n    out: false\n    hand: M-006\n"
            "  - name: B\n    hand:\n      - M-006\n      - ''\n      - 3\n      - '  '\n")
    assert problems(tmp_path, text) == [
        "4: hand must be a list of card ids such as [M-006, S-001], got 'M-006'",
        "8: each card of hand must be a card id such as M-006, got ''",
        "9: each card of hand must be a card id such as M-006, got 3",
        "10: each card of hand must be a card id such as M-006, got '  '",
    ]


def test_a_seat_is_a_list_of_cards_or_card_and_state(tmp_path):
    text = ("players:\n  - name: A\n    out: false\n    seat:\n"
            "      - M-006\n"
            "      - state: down\n"
            "      - card: S-001\n        state: danger\n        x: 1\n"
            "      - 3\n"
            "      - card: ''\n"
            "  - name: B\n    out: false\n    seat: M-006\n")
    assert problems(tmp_path, text) == [
        "6: a seat card needs card: (an id such as M-006)",
        "8: a seat card is reverse, rise or down, got 'danger'",
        "9: unknown key 'x' in a seat card (keys: card, state)",
        "10: each seat card must be a card id such as M-006, got 3",
        "11: a seat card must be a card id such as M-006, got ''",
        "14: seat must be a list of cards (M-006 or {card: M-006, state: down}), got 'M-006'",
    ]


def test_a_seat_holds_at_most_20_cards(tmp_path):
    seat = lambda n: "[" + ", ".join(["M-006"] * n) + "]"  # noqa: E731
    ok = f"players:\n  - name: A\n    seat: {seat(20)}\n  - name: B\n"
    assert len(load(tmp_path, ok).setup["players"][0]["seat"]) == 20
    bad = f"players:\n  - name: A\n    out: false\n    seat: {seat(21)}\n  - name: B\n"
    assert problems(tmp_path, bad) == ["4: seat holds 21 cards, above the maximum 20"]


@pytest.mark.parametrize("state", ["reverse", "rise", "down"])
def test_seat_card_states(tmp_path, state):
    text = f"players:\n  - name: A\n    seat:\n      - {{card: M-006, state: {state}}}\n  - name: B\n"
    assert load(tmp_path, text).setup["players"][0]["seat"] == [{"card": "M-006", "state": state}]


def test_coins_are_a_mapping_of_known_coins_to_counts(tmp_path):
    text = ("players:\n  - name: A\n    out: false\n    coins:\n      assassination: -1\n"
            "      gold: 1\n  - name: B\n    out: false\n    coins: 3\n")
    assert problems(tmp_path, text) == [
        "5: coins.assassination -1 is below the minimum 0",
        "6: unknown coin 'gold' (coins: assassination)",
        "9: coins must be a mapping like {assassination: 1}, got 3",
    ]
    ok = "players:\n  - name: A\n    coins: {assassination: 0}\n  - name: B\n    coins: {}\n"
    assert load(tmp_path, ok).setup["players"][0]["coins"] == {"assassination": 0}


# --- start and piles ---------------------------------------------------------------------------


def test_start_names_a_player_a_step_and_a_turn(tmp_path):
    text = PLAYERS + "start:\n  turn: 0\n  player: AA\n  step: ritul\n  foo: 1\n"
    assert problems(tmp_path, text) == [
        "5: start turn 0 is below the minimum 1",
        "6: unknown start player 'AA' (did you mean 'A'?)",
        "7: unknown start step 'ritul' (did you mean 'ritual'?)",
        "8: unknown key 'foo' in start (keys: player, step, turn)",
    ]
    assert problems(tmp_path, PLAYERS + "start:\n  step: lunch\n") == [
        "5: unknown start step 'lunch' (steps: rise, draw, ritual, encounter, combat, end)"]


def test_the_start_player_may_be_a_seat_number_from_0(tmp_path):
    """As in a save's setup: 0 is the first player listed."""
    assert load(tmp_path, PLAYERS + "start:\n  player: 1\n").build_game().state.turn_player == 1
    assert problems(tmp_path, PLAYERS + "start:\n  player: 2\n") == [
        "5: start player 2 is above the maximum 1"]


@pytest.mark.parametrize("turn, ok", [(1, True), (10000, True), (10001, False), (0, False)])
def test_the_start_turn_is_from_1_to_10000(tmp_path, turn, ok):
    text = PLAYERS + f"start:\n  step: ritual\n  turn: {turn}\n"
    if ok:
        assert load(tmp_path, text).setup["start"] == {"step": "ritual", "turn": turn}
    else:
        assert problems(tmp_path, text) == [
            f"6: start turn {turn} is {'above the maximum 10000' if turn else 'below the minimum 1'}"]


def test_start_must_be_a_mapping(tmp_path):
    assert problems(tmp_path, PLAYERS + "title: t\nstart: ritual\n") == [
        "5: start must be a mapping {player, step, turn}, got 'ritual'"]
    assert load(tmp_path, PLAYERS + "start:\n").setup["start"] is None


def test_an_unknown_start_player_with_no_near_name_is_told_the_names(tmp_path):
    assert problems(tmp_path, PLAYERS + "start:\n  step: ritual\n  player: Zorro\n") == [
        "6: unknown start player 'Zorro' (players: A, B)"]


def test_the_piles_are_lists_of_card_ids(tmp_path):
    text = (PLAYERS + "title: t\ndeck: M-006\ndiscard:\n  - M-006\n  - ''\n  - 3\n"
            "grail: [" + ", ".join(["M-006"] * 201) + "]\n")
    assert problems(tmp_path, text) == [
        "5: deck must be a list of card ids such as [M-006, S-001], got 'M-006'",
        "8: each card of discard must be a card id such as M-006, got ''",
        "9: each card of discard must be a card id such as M-006, got 3",
        "10: grail holds 201 cards, above the maximum 200",
    ]
    ok = PLAYERS + "deck: [" + ", ".join(["M-006"] * 200) + "]\ngrail:\n"
    s = load(tmp_path, ok)
    assert len(s.setup["deck"]) == 200 and "grail" not in s.setup and "discard" not in s.setup


# --- building the game -------------------------------------------------------------------------


def test_a_start_position_that_cannot_be_set_up_names_the_players_line(tmp_path):
    text = ("title: t\nseed: 1\nplayers:\n  - name: A\n"
            "    servant: {hero: H-001, class: 剣士, state: rise}\n  - name: B\n")
    scenario = load(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        scenario.build_game()
    assert info.value.file == scenario.path and info.value.line == 3
    assert info.value.message.startswith("cannot set up: ")
    assert "剣士" in info.value.message


# --- rules: ------------------------------------------------------------------------------------


def test_errata_names_the_starting_rule_set(tmp_path):
    house = load(tmp_path, PLAYERS + "errata: true\n").rules
    assert (house.name, house.title, house.all_errata) == ("house", "house", True)
    base = load(tmp_path, PLAYERS + "errata: false\n").rules
    assert (base.name, base.title, base.no_errata) == ("base", "base", True)


def test_a_list_of_switches_applies_to_the_errata_set(tmp_path):
    rules = load(tmp_path, PLAYERS + "errata: false\nrules: [errata, -E8]\n").rules
    assert (rules.name, rules.title, sorted(rules.off)) == ("base", "base", ["E8"])
    rules = load(tmp_path, PLAYERS + "rules: [-E8, -E3]\n").rules
    assert (rules.name, sorted(rules.off)) == ("house", ["E3", "E8"])


def test_a_rule_set_file_beside_the_scenario(tmp_path):
    (tmp_path / "good.yaml").write_text("title: good\nfrom: house\nwithout: [E8]\n", encoding="utf-8")
    rules = load(tmp_path, PLAYERS + "rules: good.yaml\n").rules
    assert (rules.name, rules.title, sorted(rules.off)) == ("good", "good", ["E8"])


def test_an_error_in_a_rule_set_file_names_that_file(tmp_path):
    rule_file = tmp_path / "mine.yaml"
    rule_file.write_text("title: mine\nfrom: base\nbogus: 1\n", encoding="utf-8")
    path = write(tmp_path, PLAYERS + "title: t\nrules: mine.yaml\n")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value) == f"{rule_file}:3: unknown key 'bogus' in a rule set"


@pytest.mark.parametrize("rules, message", [
    ("nosuchset", "no rule set 'nosuchset': not a shipped set (base, house) nor a file"),
    ("3", "rules must name a rule set (house, base, a file) or list switches like [errata, -E9.3]"),
    ("\n  - errata\n  - -ZZ9", "unknown errata rule or patch 'ZZ9' (errata rules are E1.1 … E9.7; "
                              "patches as in cards/errata/)"),
])
def test_a_bad_rule_set_is_refused_at_the_rules_line(tmp_path, rules, message):
    assert problems(tmp_path, PLAYERS + f"title: t\nrules: {rules}\n") == [f"5: {message}"]


def test_a_bad_rule_set_is_only_checked_once_the_rest_is_sound(tmp_path):
    assert problems(tmp_path, PLAYERS + "title: 3\nrules: nosuchset\n") == ["4: title must be text"]


@pytest.mark.parametrize("rules", ["", "rules: base\n", "rules: house\n", "rules: [-E8]\n",
                                   "errata: false\n"])
def test_the_profile_changes_apply_on_top_of_any_rule_set(tmp_path, rules):
    s = load(tmp_path, PLAYERS + rules + "profile:\n  start_mana: 3\n  hand_limit: 9\n")
    assert s.profile_overrides == {"start_mana": 3, "hand_limit": 9}
    assert (s.rules.profile.start_mana, s.rules.profile.hand_limit) == (3, 9)
    assert s.rules.profile.mana_limit == 5  # the rest as shipped


# --- the rules to play with, and the game ------------------------------------------------------

SETUP = ("title: t\nseed: 1\nplayers:\n  - name: A\n    servant: {hero: H-001, class: セイバー, state: rise}\n"
         "    hand: [S-003]\n  - name: B\n    servant: {hero: H-015, class: セイバー, state: rise}\n"
         "deck: [S-001]\nstart: {player: A, step: ritual}\n")


def test_the_file_s_rules_unless_told_otherwise(tmp_path):
    s = load(tmp_path, PLAYERS + "errata: false\nprofile: {start_mana: 3}\n")
    assert s.ruleset() is s.rules
    house = s.ruleset(True)
    assert (house.name, house.title, house.all_errata) == ("house", "house", True)
    assert house.profile.start_mana == 3
    base = s.ruleset(False)
    assert (base.name, base.title, base.no_errata) == ("base", "base", True)
    assert base.profile.start_mana == 3


def test_an_explicit_rule_set_brings_its_profile_under_the_scenario_s_changes(tmp_path):
    from fate_royal.cards.ruleset import RuleSet

    s = load(tmp_path, PLAYERS + "profile: {start_mana: 3}\n")
    mine = RuleSet.base(s.rules.profile.with_(hand_limit=9, start_mana=4), name="mine", title="Mine")
    rules = s.ruleset(mine)
    assert (rules.name, rules.no_errata) == ("mine", True)
    assert (rules.profile.hand_limit, rules.profile.start_mana) == (9, 3)
    plain_scenario = load(tmp_path, PLAYERS)
    assert plain_scenario.ruleset(mine).profile == mine.profile


def test_a_data_folder_brings_its_own_profile(tmp_path):
    root = tmp_path / "data"
    root.mkdir()
    (root / "profile.yaml").write_text("hand_limit: 8\nstart_mana: 4\n", encoding="utf-8")
    s = load(tmp_path, PLAYERS + "errata: false\nprofile: {start_mana: 3}\n")
    rules = s.ruleset(root=root)
    assert (rules.name, rules.no_errata) == ("base", True)
    assert (rules.profile.hand_limit, rules.profile.start_mana) == (8, 3)
    house = s.ruleset(True, root=root)
    assert (house.name, house.profile.hand_limit, house.profile.start_mana) == ("house", 8, 3)
    plain_scenario = load(tmp_path, PLAYERS)
    assert plain_scenario.ruleset(root=root).profile.start_mana == 4


def test_the_game_starts_at_the_scenario_s_position(tmp_path):
    s = load(tmp_path, SETUP + "options: {auto_pass: false}\nprofile: {start_mana: 3}\n")
    game = s.build_game()
    state = game.ctx.s
    assert [p.name for p in state.players] == ["A", "B"]
    assert [p.mana for p in state.players] == [3, 3]
    assert state.step == "ritual"


def test_a_scenario_card_definition_is_read_with_its_lines(tmp_path):
    text = ("title: t\ncards:\n  - id: M-960\n    kind: mystic_code\n    name: x\n"
            "    effects:\n      - name: e\n        timing: activated\n        ops:\n"
            "          - {op: teleport}\n" + PLAYERS)
    s = load(tmp_path, text)
    assert s.cards[0]["id"] == "M-960" and type(s.cards[0]) is dict
    with pytest.raises(DataError) as info:
        s.load_db()
    assert str(info.value).startswith(f"{s.path}:10: unknown operation 'teleport'")


def test_a_start_position_built_without_its_file_names_line_0(tmp_path):
    from dataclasses import replace

    text = ("title: t\nseed: 1\nplayers:\n  - name: A\n"
            "    servant: {hero: H-001, class: 剣士, state: rise}\n  - name: B\n")
    s = load(tmp_path, text)
    for raw in (None, {"players": []}):
        with pytest.raises(ScenarioError) as info:
            replace(s, raw=raw).build_game()
        assert info.value.line == 0 and info.value.file == s.path


def test_every_error_of_a_rule_set_file_is_reported_in_that_file(tmp_path):
    rule_file = tmp_path / "mine.yaml"
    rule_file.write_text("title: mine\nfrom: base\nbogus: 1\nzzz: 2\n", encoding="utf-8")
    path = write(tmp_path, PLAYERS + "title: t\nrules: mine.yaml\n")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value) == (f"{rule_file}:3: unknown key 'bogus' in a rule set\n"
                               f"{rule_file}:4: unknown key 'zzz' in a rule set")
    assert [(e.file, e.line) for e in info.value.errors] == [(str(rule_file), 3), (str(rule_file), 4)]


def test_a_rule_set_file_that_is_not_a_mapping_is_reported_at_its_first_line(tmp_path):
    rule_file = tmp_path / "mine.yaml"
    rule_file.write_text("- a\n", encoding="utf-8")
    path = write(tmp_path, PLAYERS + "title: t\nrules: mine.yaml\n")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value).startswith(f"{rule_file}:1: a rule set must be a mapping")
