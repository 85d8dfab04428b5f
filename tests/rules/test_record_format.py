"""The game record's plain form (issue 9): what ``GameRecord.from_dict`` accepts and the message
naming what it refuses (the loader adds the file name), the defaults of a sparse record, the option
checks (``check_option``: the messages a player sees when a save or a table setting is wrong), the
entries' plain form, and that every plain form handed in or out is a copy."""

from __future__ import annotations

from types import MappingProxyType

import pytest

from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.actions import Pass, UseEffect
from fate_royal.rules.record import (GameRecord, OptionChange, check_option, default_options,
                                     entry_from_dict)

SETUP = {"players": [{"name": "A"}, {"name": "B"}]}


def plain(**changes):
    data = {"setup": {"players": [{"name": "A"}, {"name": "B"}]}, "options": {"auto_pass": False},
            "rules": RuleSet.from_dict({}).to_dict(), "seed": 3,
            "actions": [{"kind": "pass", "player": 1}, {"kind": "option", "key": "auto_pass",
                                                        "value": True}],
            "cards": [{"id": "S-968", "kind": "scene", "skills": ["a"]}]}
    data.update(changes)
    return data


def refusal(data) -> str:
    with pytest.raises(ValueError) as err:
        GameRecord.from_dict(data)
    return str(err.value)


# ------------------------------------------------------------------ check_option


@pytest.mark.parametrize("key, value", [
    ("auto_pass", True), ("auto_pass", False),
    ("stops", {}), ("stops", {"0": []}), ("stops", {"0": ["my_turn", "my_combat"], 1: ["every_window"]}),
    ("seats", {}), ("seats", {"0": "human", "1": "strong", 2: "basic", "3": "random"}),
])
def test_valid_option_values_pass_the_check(key, value):
    assert check_option(key, value) is None


@pytest.mark.parametrize("key, value, message", [
    ("colour", 1, "unknown option 'colour' (options: auto_pass, stops, seats)"),
    ("Auto_pass", True, "unknown option 'Auto_pass' (options: auto_pass, stops, seats)"),
    ("auto_pass", 1, "auto_pass must be true or false"),
    ("auto_pass", "true", "auto_pass must be true or false"),
    ("auto_pass", None, "auto_pass must be true or false"),
    ("stops", 5, "stops must map seats to settings"),
    ("stops", ["0"], "stops must map seats to settings"),
    ("seats", "human", "seats must map seats to settings"),
    ("seats", None, "seats must map seats to settings"),
    ("stops", {"x": []}, "stops: 'x' is not a seat number"),
    ("seats", {"-1": "human"}, "seats: '-1' is not a seat number"),
    ("stops", {"0": "rise"}, "stops of seat 0 must be a list of stop names"),
    ("stops", {"0": ("rise",)}, "stops of seat 0 must be a list of stop names"),
    ("stops", {"1": [1]}, "stops of seat 1 must be a list of stop names"),
    ("stops", {"1": ["rise", None]}, "stops of seat 1 must be a list of stop names"),
    ("seats", {"0": 3}, "seat 0 is 3, not a person or a computer level (human, random, basic, strong)"),
    ("seats", {"2": ["human"]}, "seat 2 is a list, not a person or a computer level (human, random, basic, "
                               "strong)"),
    ("stops", {"0": ["my_turn", "rise"]}, "stops of seat 0: unknown stop 'rise' (stops: my_turn, my_combat, "
                                          "every_window)"),
    ("stops", {"1": ["戦闘"]}, "stops of seat 1: unknown stop '戦闘' (stops: my_turn, my_combat, every_window)"),
    ("stops", {"1": ["x" * 30]}, "stops of seat 1: unknown stop 'xxxxxxxxxxxxxxxxxxxx…' (stops: my_turn, "
                                 "my_combat, every_window)"),
    ("seats", {"1": "wizard"}, "seat 1 is 'wizard', not a person or a computer level (human, random, basic, "
                               "strong)"),
    ("seats", {"0": "human", "1": "Strong"}, "seat 1 is 'Strong', not a person or a computer level (human, "
                                             "random, basic, strong)"),
    ("stops", MappingProxyType({"0": ["my_turn"]}), "stops must be plain data"),
    ("seats", MappingProxyType({"0": "human"}), "seats must be plain data"),
])
def test_an_invalid_option_value_is_named_in_the_message(key, value, message):
    assert check_option(key, value) == message


def test_a_seat_kind_is_no_stop_and_a_stop_no_seat_kind():
    assert check_option("seats", {"0": "human"}) is None  # a text, not a list of stops
    assert check_option("stops", {"0": ["human"]}).startswith("stops of seat 0: unknown stop 'human'")
    assert check_option("seats", {"0": "my_turn"}).startswith("seat 0 is 'my_turn', not a person")


def test_default_options_are_the_engines_with_the_changes_given():
    assert default_options() == {"auto_pass": True}
    assert default_options(auto_pass=False, stops={"0": []}) == {"auto_pass": False, "stops": {"0": []}}
    first, second = default_options(), default_options()
    first["auto_pass"] = False
    assert second == {"auto_pass": True} and default_options() == {"auto_pass": True}


# ------------------------------------------------------------------ entries


def test_an_option_change_and_an_action_come_back_from_their_plain_form():
    assert entry_from_dict({"kind": "option", "key": "auto_pass", "value": False}) == \
        OptionChange("auto_pass", False)
    assert entry_from_dict({"kind": "pass", "player": 1}) == Pass(1)
    assert entry_from_dict({"kind": "use", "player": 0, "card": 16, "effect": 1,
                            "targets": [1]}) == UseEffect(0, 16, 1, (1,))
    change = OptionChange("stops", {"0": ["my_turn"]})
    assert change.to_dict() == {"kind": "option", "key": "stops", "value": {"0": ["my_turn"]}}
    assert entry_from_dict(change.to_dict()) == change


@pytest.mark.parametrize("data, message", [
    (5, "not an action: 5"),
    ("pass", "not an action: 'pass'"),
    ([{"kind": "pass"}], "not an action: [{'kind': 'pass'}]"),
    ({"kind": "option", "key": "auto_pass", "value": True, "seat": 1},
     "unknown field(s) ['seat'] of an option change"),
    ({"kind": "option", "key": "auto_pass", "value": True, "when": 3, "by": 0},
     "unknown field(s) ['by', 'when'] of an option change"),
    ({"kind": "option", "key": "auto_pass", "value": "on"}, "auto_pass must be true or false"),
    ({"kind": "option", "key": "auto_pass"}, "auto_pass must be true or false"),
    ({"kind": "option", "value": True}, "unknown option 'None' (options: auto_pass, stops, seats)"),
    ({"kind": "option", "key": "seats", "value": {"0": 1}},
     "seat 0 is 1, not a person or a computer level (human, random, basic, strong)"),
    ({"kind": "fly", "player": 0}, "unknown action kind 'fly'"),
])
def test_a_bad_entry_is_refused_naming_what_is_wrong(data, message):
    with pytest.raises(ValueError) as err:
        entry_from_dict(data)
    assert str(err.value) == message


def test_plain_forms_of_option_changes_are_copies_both_ways():
    data = {"kind": "option", "key": "stops", "value": {"0": ["my_turn"]}}
    change = entry_from_dict(data)
    data["value"]["0"].append("my_combat")
    assert change.value == {"0": ["my_turn"]}
    out = change.to_dict()
    out["value"]["0"].append("end")
    assert change.value == {"0": ["my_turn"]} and change.to_dict()["value"] == {"0": ["my_turn"]}


# ------------------------------------------------------------------ GameRecord.from_dict / to_dict


def test_a_record_comes_back_from_its_plain_form_with_every_part():
    record = GameRecord.from_dict(plain())
    assert dict(record.setup) == SETUP
    assert dict(record.options) == {"auto_pass": False}
    assert record.rules == RuleSet.from_dict({})
    assert record.seed == 3
    assert record.actions == (Pass(1), OptionChange("auto_pass", True))
    assert record.moves == (Pass(1),)
    assert record.cards == ({"id": "S-968", "kind": "scene", "skills": ["a"]},)
    assert record.to_dict() == plain()


def test_a_sparse_record_takes_the_defaults():
    """Nothing but a mapping is required: an empty setup, no options, the default rules, seed 0,
    no actions, no cards."""
    record = GameRecord.from_dict({})
    assert record == GameRecord({}, {}, RuleSet.from_dict({}), 0, (), ())
    assert record.to_dict() == {"setup": {}, "options": {}, "rules": RuleSet.from_dict({}).to_dict(),
                                "seed": 0, "actions": [], "cards": []}
    only_setup = GameRecord.from_dict({"setup": SETUP})
    assert dict(only_setup.setup) == SETUP and only_setup.seed == 0 and only_setup.actions == ()


def test_the_plain_form_names_its_cards():
    record = GameRecord({}, {}, RuleSet.from_dict({}), 0, (), ({"id": "S-968"},))
    assert record.to_dict()["cards"] == [{"id": "S-968"}]
    assert list(record.to_dict()) == ["setup", "options", "rules", "seed", "actions", "cards"]


def test_a_record_that_is_not_a_mapping_is_refused():
    for data in (None, [], "record", 3):
        assert refusal(data) == "a game record must be a mapping"


@pytest.mark.parametrize("key, value", [
    ("setup", []), ("setup", "A,B"), ("options", []), ("options", "auto_pass"),
    ("rules", []), ("rules", "house"), ("actions", {}), ("actions", "pass"),
    ("cards", {}), ("cards", "S-968"),
])
def test_a_part_of_the_wrong_type_is_named(key, value):
    assert refusal(plain(**{key: value})) == f"'{key}' has the wrong type"


@pytest.mark.parametrize("seed", [True, False, "3", 3.0, None, [3]])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed):
    assert refusal(plain(seed=seed)) == "'seed' must be a whole number"


@pytest.mark.parametrize("options, message", [
    ({"auto_pass": "yes"}, "auto_pass must be true or false"),
    ({"speed": 2}, "unknown option 'speed' (options: auto_pass, stops, seats)"),
    ({"stops": {"0": "rise"}}, "stops of seat 0 must be a list of stop names"),
])
def test_a_bad_starting_option_is_refused_with_its_message(options, message):
    assert refusal(plain(options=options)) == message


def test_a_bad_action_is_refused_with_its_number():
    actions = [{"kind": "pass", "player": 1}, {"kind": "pass", "player": 0},
               {"kind": "pass", "player": "A"}, {"kind": "pass", "player": 0}]
    assert refusal(plain(actions=actions)) == "action 3: pass.player must be a whole number, got 'A'"
    assert refusal(plain(actions=[{"kind": "option", "key": "auto_pass", "value": 0}])) == \
        "action 1: auto_pass must be true or false"
    assert refusal(plain(actions=[{"kind": "pass", "player": 0}, 7])) == "action 2: not an action: 7"


def test_plain_forms_of_a_record_are_copies_both_ways():
    data = plain()
    record = GameRecord.from_dict(data)
    data["setup"]["players"][0]["name"] = "Z"
    data["cards"][0]["skills"].append("b")
    assert record.setup["players"][0]["name"] == "A"
    assert record.cards[0]["skills"] == ["a"]
    out = record.to_dict()
    out["setup"]["players"][1]["name"] = "Y"
    out["cards"][0]["skills"].append("c")
    stops = GameRecord({}, {"stops": {"0": ["my_turn"]}}, RuleSet.from_dict({}), 0)
    stops.to_dict()["options"]["stops"]["0"].append("every_window")
    assert record.to_dict() == plain() and stops.options["stops"] == {"0": ["my_turn"]}
