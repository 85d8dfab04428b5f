"""The invariant check (``check_state``, run after every action by ``simulate`` and the sweeps):
each kind of broken position is named in its own sentence, and a sound one has none."""

from __future__ import annotations

import pytest

from fate_royal.rules.game import Game
from fate_royal.rules.invariants import check_state


@pytest.fixture
def state(db, rules):
    s = Game.new(db, rules, ["A", "B", "C"], seed=5).state.clone()
    assert check_state(s) == []
    return s


def test_a_card_in_two_places(state):
    uid = state.players[0].hand[0]
    state.deck.append(uid)
    assert check_state(state) == [f"card #{uid} ({state.cards[uid]}) is in 2 places"]


def test_the_same_card_as_one_players_hand_and_anothers_servant_or_seat(state):
    a, b = state.players[0], state.players[1]
    uid = a.hand[0]
    hero = b.hero
    b.hero = uid  # counted once in A's hand, once as B's hero
    state.card_states[uid] = state.card_states.pop(hero)
    state.box.append(hero)
    assert check_state(state) == [f"card #{uid} ({state.cards[uid]}) is in 2 places"]
    b.hero, state.card_states[hero] = hero, state.card_states.pop(uid)
    state.box.remove(hero)
    b.seat.append(uid)  # in A's hand and on B's seat
    state.card_states[uid] = "rise"
    assert check_state(state) == [f"card #{uid} ({state.cards[uid]}) is in 2 places"]


def test_a_card_in_no_place(state):
    uid = state.deck.pop()
    assert check_state(state) == [f"card #{uid} ({state.cards[uid]}) is in 0 places"]


def test_an_unknown_card(state):
    state.discard.append(9999)
    assert check_state(state) == ["unknown card #9999 in a zone"]


def test_card_states_of_cards_not_in_play_or_missing(state):
    hero = state.players[1].hero
    del state.card_states[hero]
    uid = state.deck[0]
    state.card_states[uid] = "rise"
    assert check_state(state) == [
        f"card states recorded for cards not in play, or missing: {sorted([hero, uid])}"]


def test_mana_command_spells_and_coins(state):
    a, b, c = state.players
    a.mana, b.command_spells = 0, 0  # none left is sound (E4: running out does nothing)
    assert check_state(state) == []
    a.mana = a.mana_limit + 1
    b.command_spells = -1
    c.coins = {"assassination": 0}
    assert check_state(state) == [f"A: mana {a.mana} outside 0..{a.mana_limit}",
                                  "B: command spells -1 < 0",
                                  "C: a coin count is not positive: {'assassination': 0}"]
    a.mana = -1
    assert check_state(state)[0] == f"A: mana -1 outside 0..{a.mana_limit}"


def _drop_out(state, p):
    """Player ``p`` out with nothing left: the cards go to the discard pile, the states away."""
    q = state.players[p]
    for uid in (q.hero, q.klass, *q.seat):
        del state.card_states[uid]
    state.discard.extend([q.hero, q.klass, *q.seat, *q.hand])
    q.hero = q.klass = None
    q.seat, q.hand, q.coins, q.mana, q.out = [], [], {}, 0, True
    return q


@pytest.mark.parametrize("holds", ["hand", "seat", "hero", "klass", "coins", "mana"])
def test_a_dropped_out_player_holds_nothing(state, holds):
    q = _drop_out(state, 2)
    assert check_state(state) == []
    if holds == "hand":
        q.hand = [state.discard.pop()]
    elif holds == "seat":
        q.seat = [state.discard.pop()]
        state.card_states[q.seat[0]] = "rise"
    elif holds in ("hero", "klass"):
        uid = state.discard.pop()
        setattr(q, holds, uid)
        state.card_states[uid] = "rise"
    elif holds == "coins":
        q.coins = {"assassination": 1}
    else:
        q.mana = 1
    assert check_state(state) == ["C dropped out but still holds something"]


def test_the_winner_has_not_dropped_out(state):
    _drop_out(state, 2)
    state.over, state.winner = True, 2
    assert check_state(state) == ["the winner has dropped out"]
    state.winner = 0
    assert check_state(state) == []
