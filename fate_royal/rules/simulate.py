"""``fate-royal simulate``: random legal play to the end, checking invariants after every action.

After every action: every card in exactly one place, mana within 0..limit, command spells ≥ 0,
dropped-out players hold nothing, and apply + undo restores the state exactly (then the action is
redone). A failure prints the seed and the action history that reproduce it.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

from fate_royal.cards import load_card_db, load_profile
from fate_royal.cards.model import CardDB
from fate_royal.cards.profile import RulesProfile
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


def random_game(db: CardDB, profile: RulesProfile, n_players: int, seed: int, *,
                check: bool = True, max_actions: int = MAX_ACTIONS) -> SimResult:
    """Play one seeded random game. The same seed always plays the same game."""
    result = SimResult(seed, n_players)
    chooser = random.Random(seed)
    try:
        game = Game.new(db, profile, [f"P{i + 1}" for i in range(n_players)], seed=seed)
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
            before = game.state.to_dict() if check else None
            game.apply(action)
            result.actions += 1
            if check:
                problems = check_state(game.state)
                if problems:
                    result.error = "; ".join(problems)
                    break
                game.undo()
                if game.state.to_dict() != before:
                    result.error = f"undo did not restore the state after {game.describe(action)}"
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


def _players_range(text: str) -> tuple[int, int]:
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-", 1))
        else:
            a = b = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected A-B (e.g. 2-7), got {text!r}") from None
    if not 2 <= a <= b <= 7:
        raise argparse.ArgumentTypeError("player counts must satisfy 2 <= A <= B <= 7")
    return a, b


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fate-royal simulate",
                                     description="Random legal play with invariant checks.")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=_players_range, default=(2, 7), metavar="A-B")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-errata", action="store_true")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed)")
    parser.add_argument("--quiet", action="store_true", help="print failures and the summary only")
    args = parser.parse_args(argv)
    db = load_card_db(errata=not args.no_errata)
    profile = load_profile().with_(errata=not args.no_errata)
    lo, hi = args.players
    failed = 0
    total_actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        n = lo + i % (hi - lo + 1)
        seed = args.seed + i
        res = random_game(db, profile, n, seed, check=not args.no_check)
        total_actions += res.actions
        if res.error:
            failed += 1
            print(f"FAILED game seed={seed} players={n} errata={'off' if args.no_errata else 'on'} "
                  f"after {res.actions} actions: {res.error}")
            print(f"  reproduce: fate-royal simulate --games 1 --players {n} --seed {seed}"
                  f"{' --no-errata' if args.no_errata else ''}")
            print(f"  history: {res.history}")
        elif not args.quiet:
            who = "no winner" if res.winner is None else f"P{res.winner + 1} wins"
            print(f"game seed={seed} players={n}: {res.actions} actions, {who}")
    elapsed = time.perf_counter() - start
    rate = total_actions / elapsed if elapsed > 0 else 0.0
    print(f"{args.games} games, {failed} failed, {rate:.0f} actions/s")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
