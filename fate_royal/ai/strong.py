"""The ``strong`` computer player: determinized Monte Carlo search with the basic player as rollout.

For a decision with more than one sensible answer it imagines a few possible worlds consistent with
what it may see (``determinize``), and spends a fixed number of playouts — the number, never the
clock, so the same record and seed give the same move on any machine. Every legal move is played in
the same worlds with the same dice (common random numbers: the comparison between moves is not lost
in the luck of the draw; one shared table of averages over all worlds, as in information-set MCTS
with one level), then every seat continues as the basic player (a little random) until the end of
the next turn or of the game; the position reached is scored by ``evaluate``. The basic player's
move stands unless another scores better by a margin.
"""

from __future__ import annotations

import random
from typing import Any

from fate_royal.ai.basic import basic_action, spells_kept
from fate_royal.ai.determinize import determinize
from fate_royal.rules.actions import Action

#: Playouts per decision: per root action, and the bounds for the whole decision.
PLAYOUTS_PER_ACTION = 12
MIN_PLAYOUTS, MAX_PLAYOUTS = 24, 72
#: Different worlds imagined per decision (playouts cycle through them).
WORLDS = 8
#: A playout stops this many turns after the current one (or at the end of the game) ...
HORIZON_TURNS = 1
#: ... or after this many actions.
MAX_ROLLOUT_ACTIONS = 400
#: How often a rollout player moves at random instead of as the basic player.
EPSILON = 0.1
#: How much better (in evaluation points, 0..1) a move must look than the basic player's move.
MARGIN = 0.02


def evaluate(game: Any, seat: int) -> float:
    """How good the position is for ``seat``, in 0..1 (1: it has won; 1/players: even)."""
    s = game.ctx.s
    if s.over:
        return 1.0 if s.winner == seat else 0.0
    if s.players[seat].out:
        return 0.0
    from fate_royal.rules import stats

    def strength(i: int) -> float:
        pl = s.players[i]
        st = stats.fighter_stats(game.ctx, i)
        coins = sum(pl.coins.values())
        power = max(st["pa"], st["ma"]) + (st["pd"] + st["md"]) / 2
        spells = {0: 0.0, 1: 0.5, 2: 3.0}.get(pl.command_spells, 4.0)
        return max(0.1, pl.mana * 2.0 - coins + spells + 0.3 * len(pl.hand) + 0.25 * power)

    total = {i: strength(i) for i in s.alive()}
    return total[seat] / sum(total.values())


def rollout(game: Any, rng: random.Random, horizon: int,
            random_seats: frozenset[int] = frozenset()) -> None:
    """Play on with every seat as the basic player (random now and then) up to the horizon turn;
    the seats in ``random_seats`` (recorded as ``random`` computers) play as the random player."""
    from fate_royal.rules.simulate import choose_action

    s = game.ctx.s
    for _ in range(MAX_ROLLOUT_ACTIONS):
        if s.over or s.turn > horizon:
            return
        acts = game.legal_actions()
        if not acts:
            return
        p = acts[0].player
        if p in random_seats:
            a = choose_action(rng, acts)
        elif rng.random() < EPSILON:
            a = acts[rng.randrange(len(acts))]
            if getattr(a, "kind", "") == "spell":  # a random command spell ends too many games
                a = acts[0]
        else:
            a = basic_action(game, p, rng)
        game.play(a)
        s = game.ctx.s


def strong_action(game: Any, seat: int, legal: list[Action], rng: random.Random,
                  pv: Any = None) -> Action:
    """The strong player's choice among ``legal`` (the seat's legal actions, from its view
    ``pv``)."""
    if len(legal) == 1:
        return legal[0]
    if pv is None:
        from fate_royal.rules.view import view

        pv = view(game, seat)
    # never the last two command spells (E4.1: spending the last one drops the player; the
    # playouts end too soon to see it coming), as the basic player (in a long game, the last one)
    if pv.players[seat].command_spells <= spells_kept(game):
        legal = [a for a in legal if getattr(a, "kind", "") != "spell"] or legal
        if len(legal) == 1:
            return legal[0]
    worlds = [determinize(game, seat, rng, pv) for _ in range(WORLDS)]
    # the basic player's choice first: ties (no information) go to the readable move
    hint = basic_action(worlds[0], seat, rng)
    cands = sorted(legal, key=lambda a: 0 if a == hint else 1)
    n = len(cands)
    budget = max(MIN_PLAYOUTS, min(MAX_PLAYOUTS, PLAYOUTS_PER_ACTION * n))
    # common random numbers: every move is tried in the same worlds with the same playout dice,
    # so that the comparison between moves is not drowned in the luck of the draw
    pairs = max(2, budget // n)
    seeds = [rng.getrandbits(32) for _ in range(pairs)]
    horizon = game.ctx.s.turn + HORIZON_TURNS
    # the other seats are imagined as what they are recorded to be (the seats option is public:
    # everyone at the table sees which seats are computers of which level); people as basic
    from fate_royal.ai import seat_levels

    random_seats = frozenset(q for q, lv in seat_levels(game).items()
                             if lv == "random" and q != seat)
    value = [0.0] * n
    for j in range(pairs):
        base = worlds[j % len(worlds)]
        for k, a in enumerate(cands):
            world = base.fork()
            world.ctx.s.rng = seeds[j] or 1
            if a not in world.legal_actions():  # pragma: no cover - own options never differ
                value[k] -= 1.0
                continue
            world.play(a)
            rollout(world, random.Random(seeds[j]), horizon, random_seats)
            value[k] += evaluate(world, seat)
    mean = [v / pairs for v in value]
    best = max(range(n), key=lambda j: (mean[j], -j))
    # the basic player's move stands unless another is better by a margin: search that cannot
    # tell moves apart should not play worse than the heuristic
    if best != 0 and mean[best] - mean[0] < MARGIN:
        return cands[0]
    return cands[best]


__all__ = ["evaluate", "rollout", "strong_action"]
