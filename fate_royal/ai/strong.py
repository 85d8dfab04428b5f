"""The ``strong`` computer player: determinized Monte Carlo search with the basic player as rollout.

For a decision with more than one sensible answer it imagines a few possible worlds consistent with
what it may see (``determinize``), and spends a fixed number of playouts — the number, never the
clock, so the same record and seed give the same move on any machine. Every legal move is played in
the same worlds with the same dice (common random numbers: the comparison between moves is not lost
in the luck of the draw; one shared table of averages over all worlds, as in information-set MCTS
with one level), then every seat continues as the basic player (a little random) until the end of
the next turn or of the game; the position reached is scored by ``evaluate``, an estimate of each
seat's chance of winning fitted on games between basic players (mana, command spells, hand,
servant strength, and how many fights each side needs to destroy the other). The basic player's
move stands unless another scores better by a margin; a command spell is a candidate only where
the basic player sees a reason for it. The other seats are imagined as what they are recorded to be
(``random`` seats play at random in the playouts), and the servant of a ``random`` seat is not
raided while it is still face down.
"""

from __future__ import annotations

import random
from typing import Any

from fate_royal.ai.basic import basic_action, long_game, spell_score
from fate_royal.ai.determinize import determinize
from fate_royal.rules import zones
from fate_royal.rules.actions import Action, DeclareRaid, UseEffect

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


#: Weights of the evaluation, per player (a softmax over the alive players gives each one's chance
#: of winning). Fitted (conditional logit) on the positions at each turn's start of games between
#: basic players (426 of 2 players, 704 of 4; 300 basic-vs-random games in one 2-player fit)
#: against who won, then rounded, with signs kept sensible where the data was thin (fewer than two
#: command spells is rare). Log-loss of these
#: weights (lower predicts better) against the former mana share: basic-vs-basic positions 0.37
#: against 0.60 (2 players), 0.64 against 0.96 (4 players); positions of basic-vs-random games
#: 0.75 against 0.63 — there the outcome depends on who plays, which the features do not see.
#: ``threat``: 1 / fights this seat needs to destroy its easiest opponent; ``vuln``: 1 / fights
#: its most dangerous opponent needs to destroy it (both as the position stands, each side using
#: its better attack type; 10 when it deals no damage).
WEIGHTS_2P = {"mana": 0.40, "coins": -0.15, "sp2": 1.0, "sp3": 1.0, "hand": 0.15, "power": 0.30,
              "threat": 1.5, "vuln": -1.5}
WEIGHTS_MANY = {"mana": 0.40, "coins": -0.95, "sp2": 1.0, "sp3": 0.55, "hand": 0.05, "power": 0.6,
                "threat": 0.6, "vuln": -1.5}
_NO_KILL = 10


def _fights_to_destroy(mana: int, damage: int) -> int:
    """Fights dealing ``damage`` each that destroy a servant with ``mana`` (D11: damage above the
    mana left destroys it)."""
    return _NO_KILL if damage <= 0 else min(_NO_KILL, mana // damage + 1)


def features(game: Any, p: int, alive: list[int]) -> dict[str, float]:
    """The evaluation's reading of seat ``p`` among the ``alive`` seats."""
    from fate_royal.ai.basic import fight
    from fate_royal.rules import stats

    s = game.ctx.s
    pl = s.players[p]
    st = stats.fighter_stats(game.ctx, p)
    threat = vuln = 0.0
    for q in alive:
        if q == p:
            continue
        mq = s.players[q].mana
        threat = max(threat, 1.0 / _fights_to_destroy(mq, fight(game, p, q)[0]))
        vuln = max(vuln, 1.0 / _fights_to_destroy(pl.mana, fight(game, q, p)[0]))
    return {"mana": pl.mana, "coins": sum(pl.coins.values()), "sp2": pl.command_spells >= 2,
            "sp3": pl.command_spells >= 3, "hand": len(pl.hand),
            "power": max(st["pa"], st["ma"]) + (st["pd"] + st["md"]) / 2,
            "threat": threat, "vuln": vuln}


def evaluate(game: Any, seat: int) -> float:
    """How good the position is for ``seat``: its estimated chance of winning, 0..1 (1: it has
    won)."""
    import math

    s = game.ctx.s
    if s.over:
        return 1.0 if s.winner == seat else 0.0
    if s.players[seat].out:
        return 0.0
    alive = list(s.alive())
    w = WEIGHTS_2P if len(alive) == 2 else WEIGHTS_MANY
    score = {p: sum(w[k] * float(v) for k, v in features(game, p, alive).items()) for p in alive}
    top = max(score.values())
    z = sum(math.exp(v - top) for v in score.values())
    return math.exp(score[seat] - top) / z


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


def does_nothing(game: Any, a: Action) -> bool:
    """Whether ``a`` uses an effect whose every outcome turns its target servant Down or Danger (or
    costs its user a card), aimed at a Reverse servant: E1.3 ignores the change (Gandr on a servant
    still face down), so the effect can only lose a card."""
    if not isinstance(a, UseEffect) or len(a.targets) != 1 or not game.rule_on("E1.3"):
        return False
    effect = game.ctx.card_of(a.card).effects[a.effect - 1]
    ops = effect.ops
    if effect.target.kind != "servant" or not ops:
        return False
    if zones.servant_state(game.ctx, a.targets[0]) != "reverse":
        return False
    for op in ops:
        if op.op != "roll_die":
            return False
        for outcome in op.params.get("outcomes", ()):
            for inner in outcome.get("ops", ()):
                if inner.op == "set_state" and inner.params.get("subject") == "target" \
                        and inner.params.get("state") in ("down", "danger"):
                    continue
                if inner.op == "discard" and inner.params.get("subject") == "self":
                    continue
                return False
    return True


def holds_back(game: Any, a: Action, random_seats: frozenset[int]) -> bool:
    """Whether ``a`` is a raid on a Reverse (face-down) servant of a seat in ``random_seats``."""
    return isinstance(a, DeclareRaid) and a.target in random_seats \
        and zones.servant_state(game.ctx, a.target) == "reverse"


def strong_action(game: Any, seat: int, legal: list[Action], rng: random.Random,
                  pv: Any = None) -> Action:
    """The strong player's choice among ``legal`` (the seat's legal actions, from its view
    ``pv``)."""
    if len(legal) == 1:
        return legal[0]
    if pv is None:
        from fate_royal.rules.view import view

        pv = view(game, seat)
    # never the last command spell (E4.1: spending it drops the player; the playouts end too soon
    # to see it coming)
    if pv.players[seat].command_spells <= 1:
        legal = [a for a in legal if getattr(a, "kind", "") != "spell"] or legal
        if len(legal) == 1:
            return legal[0]
    worlds = [determinize(game, seat, rng, pv) for _ in range(WORLDS)]
    # a command spell is the seat's life (E4.1): spent only where the basic player sees a reason
    # (saving its servant, a proxy worth negating, coins; the second-last one only to stay alive),
    # never on what a noisy playout favours
    legal = [a for a in legal if getattr(a, "kind", "") != "spell"
             or spell_score(worlds[0], seat, a) > 0] or legal
    if len(legal) == 1:
        return legal[0]
    # an effect the rules would ignore is no candidate: the playouts' noise (its die roll shifts
    # every later roll) could otherwise pick it over passing, and it can only cost a card
    legal = [a for a in legal if not does_nothing(worlds[0], a)] or legal
    if len(legal) == 1:
        return legal[0]
    # the other seats are imagined as what they are recorded to be (the seats option is public:
    # everyone at the table sees which seats are computers of which level); people as basic
    from fate_royal.ai import seat_levels

    random_seats = frozenset(q for q, lv in seat_levels(game).items()
                             if lv == "random" and q != seat)
    # a servant still face down at a seat that plays at random is left alone (its card is a guess,
    # and that seat raids blindly and spends its command spells at random: waiting costs nothing);
    # the encounter's forced raid and long games are not held back
    if random_seats and not long_game(game):
        legal = [a for a in legal if not holds_back(game, a, random_seats)] or legal
        if len(legal) == 1:
            return legal[0]
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


__all__ = ["does_nothing", "evaluate", "features", "holds_back", "rollout", "strong_action"]
