"""Random legal play to the end, checking invariants after every action (``fate-royal simulate``,
the test sweeps and the bench).

After every action: every card in exactly one place, mana within 0..limit, command spells ≥ 0,
dropped-out players hold nothing, and apply + undo restores the state exactly (then the action is
redone). A failure keeps the seed and the action history that reproduce it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from fate_royal.cards.model import CardDB
from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.game import Game
from fate_royal.rules.invariants import check_state

MAX_ACTIONS = 20000

#: Relative weight of each action kind for the random player. Every legal action can be chosen, but
#: command spells are rare, as at a real table: spent freely they end most games by E4.1 in a few
#: turns, and the sweep would never reach late-game positions.
WEIGHTS = {"spell": 0.05}


def choose_action(chooser: random.Random, actions: list):
    weights = [WEIGHTS.get(a.kind, 1.0) for a in actions]
    return chooser.choices(actions, weights)[0]


@dataclass
class SimResult:
    seed: int
    players: int
    actions: int = 0
    finished: bool = False
    winner: int | None = None
    error: str = ""
    history: list = field(default_factory=list)


def random_game(db: CardDB, rules: RuleSet, n_players: int, seed: int, *,
                check: bool = True, max_actions: int = MAX_ACTIONS) -> SimResult:
    """Play one seeded random game. The same seed always plays the same game."""
    result = SimResult(seed, n_players)
    chooser = random.Random(seed)
    try:
        game = Game.new(db, rules, [f"P{i + 1}" for i in range(n_players)], seed=seed)
        game.record_undo = check
        while game.outcome() is None:
            if result.actions >= max_actions:
                result.error = f"no outcome after {max_actions} actions"
                break
            actions = game.legal_actions()
            if not actions:
                result.error = f"no legal action but no outcome (pending {game.pending})"
                break
            action = choose_action(chooser, actions)
            before = game.ctx.s.to_dict() if check else None
            game.apply(action)
            result.actions += 1
            if check:
                problems = check_state(game.ctx.s)
                if problems:
                    result.error = "; ".join(problems)
                    break
                game.undo()
                if game.ctx.s.to_dict() != before:
                    result.error = f"undo did not restore the state after {action}"
                    break
                game.redo()
        result.finished = game.outcome() is not None
        if result.finished:
            result.winner = game.outcome().winner
        result.history = [a.to_dict() for a in game.history]
    except Exception as exc:  # a failure to report with its reproduction, not to hide
        result.error = f"{type(exc).__name__}: {exc}"
        try:
            result.history = [a.to_dict() for a in game.history]
        except NameError:
            pass
    return result


def long_game(db: CardDB, rules: RuleSet, n_actions: int, players: int = 7) -> Game:
    """A random game with at least ``n_actions`` actions (the first seed that reaches it). The
    random player here raids rarely, like a cautious table, so that games last long enough."""
    weights = {"spell": 0.01, "raid": 0.05}
    for seed in range(1000):
        chooser = random.Random(seed)
        game = Game.new(db, rules, [f"P{i + 1}" for i in range(players)], seed=seed)
        n = 0
        while game.outcome() is None and n < n_actions:
            acts = game.legal_actions()
            game.apply(chooser.choices(acts, [weights.get(a.kind, 1.0) for a in acts])[0])
            n += 1
        if n >= n_actions:
            return game
    raise RuntimeError(f"no random game reached {n_actions} actions")
