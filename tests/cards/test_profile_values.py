"""Which values the rules profile (the D parameters, ``cards/profile.yaml``) accepts and refuses,
and the exact message a refusal gives: ``profile.check_value`` is what ``fate-royal check``, a rule
set's ``profile:`` and a scenario's ``profile:`` all report, after ``file:line:``."""

from __future__ import annotations

import pytest

from fate_royal.cards import DataErrors, load_profile
from fate_royal.cards.profile import PARAMETERS, ParamSpec, RulesProfile, check_value


# --- names ----------------------------------------------------------------------------------------


def test_a_misspelt_parameter_is_refused_with_the_nearest_name():
    assert check_value("hand_limt", 6) == \
        "unknown rules-profile parameter 'hand_limt' (did you mean 'hand_limit'?)"


def test_an_unknown_parameter_with_no_near_name_gets_no_hint():
    """Nothing close to the name: the message ends at the name (no empty or made-up hint)."""
    assert check_value("qqqq", 1) == "unknown rules-profile parameter 'qqqq'"


# --- int (every number is bounded) ---------------------------------------------------------------


@pytest.mark.parametrize("key, lowest, highest", [
    ("deck_min_size", 0, 400), ("start_command_spells", 0, 9), ("mana_limit", 1, 99),
    ("start_hand", 0, 40), ("draw_per_turn", 0, 10), ("mana_per_damage", 1, 99),
])
def test_an_int_parameter_takes_its_bounds_and_nothing_beyond(key, lowest, highest):
    rule = PARAMETERS[key].rule
    assert check_value(key, lowest) is None
    assert check_value(key, highest) is None
    assert check_value(key, lowest - 1) == f"{key} ({rule}) must be at least {lowest}, got {lowest - 1}"
    assert check_value(key, highest + 1) == \
        f"{key} ({rule}): value {highest + 1} above the maximum {highest}"


@pytest.mark.parametrize("value, shown", [
    ("six", "str 'six'"), (True, "bool True"), (6.0, "float 6.0"), (None, "NoneType None"),
    ([6], "list [6]"),
])
def test_an_int_parameter_refuses_other_types_naming_what_it_got(value, shown):
    """D5 hand_limit: true is not the number 1, 6.0 is not 6; the message names the type and value."""
    assert check_value("hand_limit", value) == f"hand_limit (D5) must be int, got {shown}"


# --- bool -----------------------------------------------------------------------------------------


def test_a_bool_parameter_takes_true_and_false_only():
    """D9 interception: 0/1 or the text 'yes' are refused, not read as true/false."""
    assert check_value("interception", True) is None
    assert check_value("interception", False) is None
    assert check_value("interception", 1) == "interception (D9) must be bool, got int 1"
    assert check_value("interception", "yes") == "interception (D9) must be bool, got str 'yes'"


# --- enum -----------------------------------------------------------------------------------------


def test_an_enum_parameter_lists_its_choices_when_refusing():
    assert check_value("first_player", "first_seat") is None
    assert check_value("first_player", "last_seat") == \
        "first_player (D4) must be one of random, first_seat; got 'last_seat'"
    assert check_value("unqualified_class", 2) == ("unqualified_class (D8) must be one of "
                                                   "effects_unusable, none, stat_penalty; got 2")


def test_a_one_choice_enum_names_its_only_choice():
    """D16 same_name has a single reading so far."""
    assert check_value("same_name", "later_ignored") is None
    assert check_value("same_name", "earlier_ignored") == \
        "same_name (D16) must be one of later_ignored; got 'earlier_ignored'"


# --- list[int] ------------------------------------------------------------------------------------


@pytest.mark.parametrize("faces", [[1], [1, 2], [6, 3, 1], []])
def test_encounter_faces_take_distinct_die_faces(faces):
    """D5 encounter_on: any set of faces 1..6 (none: encounters never happen)."""
    assert check_value("encounter_on", faces) is None


@pytest.mark.parametrize("value, message", [
    ([0], "encounter_on (D5) must be at least 1, got 0"),
    ([1, 7], "encounter_on (D5): value 7 above the maximum 6"),
    ([2, 2], "encounter_on (D5) names a value twice: [2, 2]"),
    ([1, "two"], "encounter_on (D5) must be list[int], got list [1, 'two']"),
    ([1, True], "encounter_on (D5) must be list[int], got list [1, True]"),
    (1, "encounter_on (D5) must be list[int], got int 1"),
    ("1,2", "encounter_on (D5) must be list[int], got str '1,2'"),
])
def test_encounter_faces_refused(value, message):
    """Each item is bounded like an int parameter; a bare number or text is not a list."""
    assert check_value("encounter_on", value) == message


def test_a_parameter_of_a_type_the_checker_does_not_know_accepts_nothing(monkeypatch):
    """A table entry with a type check_value has no rule for fails closed: every value is refused
    rather than waved through unchecked."""
    monkeypatch.setitem(PARAMETERS, "odd_param", ParamSpec("D0", "float", 1.5, "test only"))
    assert check_value("odd_param", 1.5) == "odd_param (D0) must be float, got float 1.5"


# --- as the profile and the profile file use it ----------------------------------------------------


def test_from_mapping_refuses_with_the_same_message_and_keeps_good_values():
    with pytest.raises(ValueError) as info:
        RulesProfile.from_mapping({"hand_limit": 6, "encounter_on": [1, 1]})
    assert str(info.value) == "encounter_on (D5) names a value twice: [1, 1]"
    prof = RulesProfile.from_mapping({"hand_limit": 6, "encounter_on": [1, 2]})
    assert (prof.hand_limit, prof.encounter_on, prof.start_mana) == (6, [1, 2], 5)


def test_a_profile_file_names_the_line_of_each_bad_value(tmp_path):
    path = tmp_path / "profile.yaml"
    path.write_text("hand_limit: 6\nmana_limit: 0\nfirst_player: me\nencounter_on: [1, 1]\n",
                    encoding="utf-8")
    with pytest.raises(DataErrors) as info:
        load_profile(path)
    label = path.as_posix()
    assert [str(e) for e in info.value.errors] == [
        f"{label}:2: mana_limit (D3) must be at least 1, got 0",
        f"{label}:3: first_player (D4) must be one of random, first_seat; got 'me'",
        f"{label}:4: encounter_on (D5) names a value twice: [1, 1]",
    ]
