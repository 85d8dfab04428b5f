"""The position's dict form (``GameState.to_dict`` / ``from_dict``: clones and undo checkpoints)
keeps every field, and ``zone_of`` says where a card is."""

from __future__ import annotations

import pytest

from fate_royal.rules.game import Game
from fate_royal.rules.state import GameState, Modifier, _to_plain


@pytest.fixture
def state(db, rules):
    return Game.new(db, rules, ["A", "B", "C"], seed=5).state.clone()


def test_every_field_survives_the_round_trip(state):
    state.setup_phase = True
    state.lost = [[3, 1]]
    state.revealed = [state.players[0].hero]
    condition = {"attack_type": "magic", "not": {"servant_state": ["down"]}}
    state.modifiers.append(Modifier(player=1, name="高速神言", source=7, source_kind="hero",
                                    effect=2, part=0, duration="turn", condition=condition))
    back = GameState.from_dict(state.to_dict())
    assert back.setup_phase is True and back.lost == [[3, 1]]
    assert back.revealed == [state.players[0].hero]
    assert back.modifiers[0].condition == condition
    assert back.modifiers[0].condition is not condition  # a copy: editing one leaves the other
    assert back.to_dict() == state.to_dict()
    assert state.to_dict()["modifiers"][0]["condition"] == condition


def test_zone_of_each_place(state):
    a = state.players[0]
    assert state.zone_of(a.hero) == ("seat", 0)
    assert state.zone_of(a.klass) == ("seat", 0)
    assert state.zone_of(state.players[2].hand[0]) == ("hand", 2)
    assert state.zone_of(state.deck[0]) == ("deck", None)
    assert state.zone_of(9999) == ("nowhere", None)


def test_only_plain_data_has_a_plain_form():
    assert _to_plain({1: (2, 3), "k": [None, True]}) == {"1": [2, 3], "k": [None, True]}
    with pytest.raises(TypeError, match=r"^not plain data: set$"):
        _to_plain({1: {2}})
