"""Actions read back from plain data (saves, recorded games): every malformed field is refused with
a message naming it, and a well-formed action round-trips exactly. Pinned by mutation testing."""

from __future__ import annotations

import pytest

from fate_royal.rules.actions import (
    ACTION_TYPES, Action, ChooseAttack, Choose, CommandSpell, DeclareRaid, Pass, UseEffect)


@pytest.mark.parametrize("action", [
    Pass(0), DeclareRaid(1, target=2), ChooseAttack(0, type="magic"),
    UseEffect(2, card=17, effect=2, targets=(0, 3)), CommandSpell(1, spell="remove_coin", target=0,
                                                                  coin="assassination"),
    Choose(0, option=5), Choose(1, option="keep"),
])
def test_round_trip(action):
    data = action.to_dict()
    assert Action.from_dict(data) == action
    assert type(Action.from_dict(data)) is type(action)


def test_fields_left_out_take_their_defaults():
    assert Action.from_dict({"kind": "use", "player": 1, "card": 4}) == UseEffect(1, card=4)
    assert Action.from_dict({"kind": "raid", "player": 0}) == DeclareRaid(0)


@pytest.mark.parametrize("data, message", [
    ({"kind": "fly", "player": 0}, "unknown action kind 'fly'"),
    ({"player": 0}, "unknown action kind None"),
    ({"kind": "pass", "player": 0, "speed": 3}, "unknown field(s) ['speed'] for action pass"),
    ({"kind": "pass"}, "action pass has no player"),
    ({"kind": "pass", "player": True}, "pass.player must be a whole number, got True"),
    ({"kind": "raid", "player": 0, "target": "1"}, "raid.target must be a whole number, got '1'"),
    ({"kind": "raid", "player": 0, "target": 1.0}, "raid.target must be a whole number, got 1.0"),
    ({"kind": "attack", "player": 0, "type": 1}, "attack.type must be text, got 1"),
    ({"kind": "use", "player": 0, "card": 1, "targets": [1, "2"]},
     "use.targets must be a list of whole numbers, got (1, '2')"),
    ({"kind": "use", "player": 0, "card": 1, "targets": [False]},
     "use.targets must be a list of whole numbers, got (False,)"),
    ({"kind": "use", "player": 0, "card": 1, "targets": 3},
     "use.targets must be a list of whole numbers, got 3"),
    ({"kind": "choose", "player": 0, "option": True}, "choose.option must be a number or text, got True"),
    ({"kind": "choose", "player": 0, "option": [1]}, "choose.option must be a number or text, got (1,)"),
])
def test_malformed_data_is_refused_by_name(data, message):
    with pytest.raises(ValueError) as exc:
        Action.from_dict(data)
    assert str(exc.value) == message


def test_every_kind_is_registered_under_its_own_name():
    assert sorted(ACTION_TYPES) == sorted(c.kind for c in ACTION_TYPES.values())
    assert {"pass", "raid", "encounter_target", "attack", "play", "discard", "use", "spell",
            "choose"} == set(ACTION_TYPES)
