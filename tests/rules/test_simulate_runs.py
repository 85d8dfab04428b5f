"""What the random-play harness returns (``fate_royal.rules.simulate``): a few short seeded games
that pin ``random_game``'s result (winner, action count, history, the error it reports and when),
``long_game``'s choice of game, and the random player's weights. Fast: the long sweeps live in
test_sweeps.py and on the command line."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fate_royal.rules import simulate
from fate_royal.rules.actions import Action, CommandSpell, DeclareRaid, Pass
from fate_royal.rules.game import Game
from fate_royal.rules.simulate import SimResult, choose_action, long_game, random_game

#: The whole of the two-player game of seed 5: every action the random player took, in order.
SEED5_HISTORY = [
    {"kind": "use", "player": 1, "card": 46, "effect": 1, "targets": []},
    {"kind": "use", "player": 1, "card": 7, "effect": 1, "targets": []},
    {"kind": "use", "player": 1, "card": 63, "effect": 1, "targets": [0]},
    {"kind": "spell", "player": 1, "spell": "negate", "target": 1, "coin": ""},
    {"kind": "pass", "player": 1},
    {"kind": "use", "player": 0, "card": 14, "effect": 1, "targets": []},
    {"kind": "pass", "player": 1},
    {"kind": "use", "player": 0, "card": 49, "effect": 1, "targets": [1]},
    {"kind": "spell", "player": 1, "spell": "negate", "target": 3, "coin": ""},
    {"kind": "pass", "player": 1},
    {"kind": "use", "player": 0, "card": 47, "effect": 1, "targets": [1]},
    {"kind": "pass", "player": 1},
    {"kind": "use", "player": 0, "card": 22, "effect": 1, "targets": [1]},
    {"kind": "pass", "player": 1},
    {"kind": "pass", "player": 0},
    {"kind": "pass", "player": 1},
    {"kind": "pass", "player": 0},
    {"kind": "pass", "player": 1},
    {"kind": "pass", "player": 0},
    {"kind": "spell", "player": 1, "spell": "negate", "target": 0, "coin": ""},
    {"kind": "pass", "player": 0},
    {"kind": "pass", "player": 0},
]


# --------------------------------------------------------------------------- choose_action


class _Recorder:
    """A stand-in for ``random.Random`` that remembers the weights it was asked to draw with."""

    def __init__(self, pick: int = 0):
        self.calls = []
        self.pick = pick

    def choices(self, population, weights=None, **kw):
        self.calls.append((list(population), list(weights)))
        return [population[self.pick]]


def test_the_random_player_weighs_a_command_spell_a_twentieth_of_any_other_action():
    acts = [Pass(0), CommandSpell(0, "negate", 0), DeclareRaid(0, 1)]
    rec = _Recorder(pick=2)
    assert choose_action(rec, acts) == DeclareRaid(0, 1)
    assert rec.calls == [(acts, [1.0, 0.05, 1.0])]


def test_the_random_player_draws_from_the_generator_it_is_given():
    acts = [Pass(0), CommandSpell(0, "negate", 0), DeclareRaid(0, 1), Pass(1)]
    a = [choose_action(random.Random(3), acts) for _ in range(3)]
    assert a == [a[0]] * 3  # the same generator state, the same choice
    kinds = Counter(choose_action(random.Random(s), acts).kind for s in range(1000))
    # weights 1, 0.05, 1, 1: a spell about once in sixty-one draws
    assert kinds == Counter({"pass": 645, "raid": 341, "spell": 14})


# --------------------------------------------------------------------------- random_game


def test_a_seeded_random_game_is_played_to_its_end_and_reported(db, rules):
    res = random_game(db, rules, 2, 5)
    assert isinstance(res, SimResult)
    assert (res.seed, res.players, res.actions, res.finished, res.winner, res.error) == \
        (5, 2, 22, True, 0, "")
    assert res.history == SEED5_HISTORY


def test_the_same_seed_plays_the_same_game_with_or_without_the_checks(db, rules):
    a = random_game(db, rules, 2, 5)
    b = random_game(db, rules, 2, 5, check=False)
    assert a == b
    assert random_game(db, rules, 2, 5) == a


def test_another_seed_plays_another_game(db, rules):
    res = random_game(db, rules, 2, 0)
    assert (res.seed, res.players, res.actions, res.finished, res.winner, res.error) == \
        (0, 2, 84, True, 0, "")
    assert len(res.history) == 84 and res.history != SEED5_HISTORY[:84]
    other = random_game(db, rules, 3, 0)
    assert (other.seed, other.players, other.actions, other.winner, other.error) == \
        (0, 3, 95, 2, "")
    won_by_second = random_game(db, rules, 2, 3, check=False)
    assert (won_by_second.actions, won_by_second.finished, won_by_second.winner) == (191, True, 1)


def test_a_game_cut_off_by_the_action_limit_says_so(db, rules):
    res = random_game(db, rules, 2, 5, max_actions=5)
    assert (res.actions, res.finished, res.winner) == (5, False, None)
    assert res.error == "no outcome after 5 actions"
    assert res.history == SEED5_HISTORY[:5]
    full = random_game(db, rules, 2, 5, max_actions=22)  # exactly enough: no error
    assert (full.actions, full.finished, full.error) == (22, True, "")


@pytest.mark.parametrize("n", [0, 1, 8])
def test_a_bad_player_count_is_reported_not_raised(db, rules, n):
    res = random_game(db, rules, n, 3)
    assert res == SimResult(3, n, error=f"SetupError: a game needs 2 to 7 players, got {n}")


def test_a_broken_invariant_stops_the_game_with_every_problem_listed(db, rules, monkeypatch):
    monkeypatch.setattr(simulate, "check_state", lambda s: ["mana 9 > limit 5", "card 3 twice"])
    res = random_game(db, rules, 2, 5)
    assert res.error == "mana 9 > limit 5; card 3 twice"
    assert (res.actions, res.finished, res.winner) == (1, False, None)
    assert res.history == SEED5_HISTORY[:1]
    # with the checks off nothing looks at the invariants: the game runs to its end
    unchecked = random_game(db, rules, 2, 5, check=False)
    assert (unchecked.error, unchecked.actions, unchecked.winner) == ("", 22, 0)


def test_an_invariant_failure_names_the_seat_as_p1_p2(db, rules, monkeypatch):
    """The seats of a simulated game are P1, P2, …: the invariant checker's words name them."""
    real = simulate.check_state

    def with_p2_overspent(state):
        bad = state.clone()
        bad.players[1].mana = 99
        return real(bad)

    monkeypatch.setattr(simulate, "check_state", with_p2_overspent)
    res = random_game(db, rules, 2, 5)
    assert res.error == "P2: mana 99 outside 0..5"
    assert res.actions == 1


def test_the_checks_are_on_by_default(db, rules, monkeypatch):
    seen = []
    monkeypatch.setattr(simulate, "check_state", lambda s: seen.append(s.turn) or [])
    res = random_game(db, rules, 2, 5)
    assert res.error == "" and res.actions == 22 and len(seen) == 22


def test_an_undo_that_does_not_restore_the_state_is_reported_with_the_action(db, rules,
                                                                            monkeypatch):
    monkeypatch.setattr(Game, "undo", lambda self: None)
    res = random_game(db, rules, 2, 5)
    first = Action.from_dict(SEED5_HISTORY[0])
    assert res.error == f"undo did not restore the state after {first}"
    assert (res.actions, res.finished) == (1, False)
    assert res.history == SEED5_HISTORY[:1]


def test_undo_is_checked_only_with_the_checks_on(db, rules, monkeypatch):
    monkeypatch.setattr(Game, "undo", lambda self: None)
    monkeypatch.setattr(Game, "redo", lambda self: [])
    res = random_game(db, rules, 2, 5, check=False)
    assert res.error == "" and res.actions == 22


def test_a_position_without_legal_action_or_outcome_is_reported(db, rules, monkeypatch):
    monkeypatch.setattr(Game, "legal_actions", lambda self: [])
    res = random_game(db, rules, 2, 5)
    assert res.error == ("no legal action but no outcome (pending Pending(player=1, "
                         "kind='priority', window='step', step='rise', process=''))")
    assert (res.actions, res.finished, res.history) == (0, False, [])


def test_an_exception_during_play_is_reported_with_the_actions_that_led_to_it(db, rules,
                                                                              monkeypatch):
    def boom(state):
        raise RuntimeError("invariant checker broke")

    monkeypatch.setattr(simulate, "check_state", boom)
    res = random_game(db, rules, 2, 5)
    assert res.error == "RuntimeError: invariant checker broke"
    assert res.actions == 1 and not res.finished and res.winner is None
    assert res.history == SEED5_HISTORY[:1]


# --------------------------------------------------------------------------- long_game


class _ShortGame:
    """A stand-in for ``Game`` whose every game ends after three actions."""

    made: list = []

    def __init__(self, names, seed):
        self.names, self.seed, self.done = names, seed, 0

    @classmethod
    def new(cls, db, rules, names, seed=0):
        g = cls(names, seed)
        cls.made.append((db, rules, names, seed))
        return g

    def outcome(self):
        return "over" if self.done >= 3 else None

    def legal_actions(self):
        return [Pass(0)]

    def apply(self, action):
        assert action == Pass(0)
        self.done += 1


def test_long_game_gives_up_after_a_thousand_seeds(db, rules, monkeypatch):
    _ShortGame.made = []
    monkeypatch.setattr(simulate, "Game", _ShortGame)
    with pytest.raises(RuntimeError) as err:
        long_game(db, rules, 4, players=2)
    assert str(err.value) == "no random game reached 4 actions"
    assert [m[3] for m in _ShortGame.made] == list(range(1000))
    assert all(m[:3] == (db, rules, ["P1", "P2"]) for m in _ShortGame.made)


def test_long_game_stops_as_soon_as_a_game_reaches_the_count(db, rules, monkeypatch):
    _ShortGame.made = []
    monkeypatch.setattr(simulate, "Game", _ShortGame)
    g = long_game(db, rules, 3, players=3)
    assert g.seed == 0 and g.done == 3 and g.names == ["P1", "P2", "P3"]
    assert len(_ShortGame.made) == 1


def _cautious_replay(db, rules, seed, n_actions, players):
    """The reference cautious table: spells weigh 0.01, raids 0.05, anything else 1."""
    chooser = random.Random(seed)
    game = Game.new(db, rules, [f"P{i + 1}" for i in range(players)], seed=seed)
    weights = {"spell": 0.01, "raid": 0.05}
    while game.outcome() is None and len(game.history) < n_actions:
        acts = game.legal_actions()
        game.apply(chooser.choices(acts, [weights.get(a.kind, 1.0) for a in acts])[0])
    return game


def test_long_game_returns_the_first_seed_whose_cautious_play_lasts_long_enough(db, rules):
    # two-player seeds 0 and 1 end after 140 and 126 cautious actions; seed 2 goes on
    game = long_game(db, rules, 200, players=2)
    assert game.seed == 2
    assert game.outcome() is None
    assert len(game.history) == 200
    assert [p.name for p in game.state.players] == ["P1", "P2"]
    ref = _cautious_replay(db, rules, 2, 200, 2)
    assert [a.to_dict() for a in game.history] == [a.to_dict() for a in ref.history]
    for seed, length in ((0, 140), (1, 126)):
        short = _cautious_replay(db, rules, seed, 10_000, 2)
        assert short.outcome() is not None and len(short.history) == length


def test_long_game_seats_seven_players_by_default(db, rules):
    game = long_game(db, rules, 100)
    assert game.seed == 0 and len(game.history) == 100
    assert [p.name for p in game.state.players] == [f"P{i}" for i in range(1, 8)]
    ref = _cautious_replay(db, rules, 0, 100, 7)  # long enough for the weights to matter
    assert [a.to_dict() for a in game.history] == [a.to_dict() for a in ref.history]
