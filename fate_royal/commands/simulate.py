"""``fate-royal simulate``: random legal games to the end, checking invariants after every action.

Prints one line per game (or only failures with ``--quiet``); a failure prints the seed and the
history that reproduce it. The last line is ``N games, K failed, X actions/s``; exit 1 if K > 0.

With ``--seats strong,random`` the seats are computer players of those levels (``fate_royal.ai``)
instead of random play, rotated from game to game so that no level always sits first; before the
last line one line per level says ``strong: 191/200 wins (95.5 %)``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path


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


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {n}")
    return n


def main(argv: list[str]) -> int:
    from fate_royal.cards import DataError, load_card_db
    from fate_royal.cards.rulesets import resolve_ruleset
    from fate_royal.rules.simulate import random_game

    parser = argparse.ArgumentParser(prog="fate-royal simulate",
                                     description="Random legal play with invariant checks.")
    parser.add_argument("--games", type=_positive, default=100)
    parser.add_argument("--players", type=_players_range, default=(2, 7), metavar="A-B")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rules", metavar="SET", help="rule set: house (default), base, or a file")
    parser.add_argument("--no-errata", action="store_true", help="the same as --rules base")
    parser.add_argument("--no-check", action="store_true", help="skip the invariant checks (speed)")
    parser.add_argument("--quiet", action="store_true", help="print failures and the summary only")
    parser.add_argument("--seats", metavar="L1,L2,...",
                        help="computer levels per seat (random, basic, strong), rotated each game")
    args = parser.parse_args(argv)
    if args.rules and args.no_errata:
        parser.error("--no-errata and --rules are the same thing; give one")
    from fate_royal.paths import data_root

    data_root()  # a FATE_ROYAL_DATA that points nowhere stops here, with its message
    spec = args.rules or ("base" if args.no_errata else "house")
    try:
        rules = resolve_ruleset(spec, relative_to=Path.cwd(), source="--rules")
        db = load_card_db(rules=rules)
    except DataError as exc:
        from fate_royal.commands import option_error_lines

        for line in option_error_lines(exc, "--rules"):  # (a card file's problem keeps its file:line)
            print(f"fate-royal simulate: {line}", file=sys.stderr)
        return 2
    label = rules.name or spec
    if args.seats:
        return _seat_games(args, db, rules, label, spec, parser)
    lo, hi = args.players
    failed = 0
    total_actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        n = lo + i % (hi - lo + 1)
        seed = args.seed + i
        res = random_game(db, rules, n, seed, check=not args.no_check)
        total_actions += res.actions
        if res.error:
            failed += 1
            print(f"FAILED game seed={seed} players={n} rules={label} "
                  f"after {res.actions} actions: {res.error}")
            print(f"  reproduce: fate-royal simulate --games 1 --players {n} --seed {seed} "
                  f"--rules {spec}")
            print(f"  history: {res.history}")
        elif not args.quiet:
            who = "no winner" if res.winner is None else f"P{res.winner + 1} wins"
            print(f"game seed={seed} players={n}: {res.actions} actions, {who}")
    elapsed = time.perf_counter() - start
    rate = total_actions / elapsed if elapsed > 0 else 0.0
    print(f"{args.games} games, {failed} failed, {rate:.0f} actions/s")
    return 1 if failed else 0


def _seat_games(args, db, rules, label: str, spec: str, parser) -> int:
    """Computer seats against each other; one line per level before the summary line."""
    from fate_royal.ai import parse_seats
    from fate_royal.ai.tournament import play_game, seating

    lo, hi = args.players
    if lo != hi:
        parser.error("--seats needs one player count (e.g. --players 2)")
    try:
        seats = parse_seats(args.seats, lo)
    except ValueError as exc:
        parser.error(str(exc))
    levels = [seats[str(i)] for i in range(lo)]
    if "human" in levels:
        parser.error("simulate plays computer seats only (random, basic, strong)")
    order = list(dict.fromkeys(levels))  # as given: "strong,random" prints strong first
    wins = dict.fromkeys(order, 0)
    draws = failed = total_actions = 0
    start = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        seated = seating(levels, i)
        res = play_game(db, rules, seated, seed)
        total_actions += res.actions
        if res.error:
            failed += 1
            print(f"FAILED game seed={seed} players={lo} seats={','.join(seated)} rules={label} "
                  f"after {res.actions} actions: {res.error}")
            continue
        if res.winner is None:
            draws += 1
        else:
            wins[seated[res.winner]] += 1
        if not args.quiet:
            who = "no winner" if res.winner is None else \
                f"P{res.winner + 1} ({seated[res.winner]}) wins"
            print(f"game seed={seed} players={lo} seats={','.join(seated)}: "
                  f"{res.actions} actions, {who}")
    elapsed = time.perf_counter() - start
    for lv in order:
        print(f"{lv}: {wins[lv]}/{args.games} wins ({100.0 * wins[lv] / args.games:.1f} %)")
    if draws:
        print(f"no winner: {draws}/{args.games}")
    rate = total_actions / elapsed if elapsed > 0 else 0.0
    print(f"{args.games} games, {failed} failed, {rate:.0f} actions/s")
    return 1 if failed else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
