"""The one entry point, ``fate-royal`` (and ``python -m fate_royal``).

Sub-commands are dispatched to ``fate_royal.commands``, each module imported only when used, so
that the headless commands (check, run, simulate, bench) never import Qt.
"""

from __future__ import annotations

import argparse
import sys

from fate_royal.commands import SUBCOMMANDS


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in SUBCOMMANDS:
        from fate_royal.commands import dispatch

        return dispatch(argv[0], argv[1:])
    return _gui(argv)


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fate-royal",
        description="A desktop table for Fate/Ace Royal under the house errata. "
        f"Sub-commands: {', '.join(SUBCOMMANDS)} (fate-royal COMMAND --help).",
    )
    parser.add_argument("--scenario", metavar="FILE", help="open a scenario in demo mode")
    parser.add_argument("--players", type=int, metavar="N", help="start a new game with N players (2-7)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for the new game")
    parser.add_argument("--no-errata", action="store_true", help="base rules only")
    parser.add_argument("--lang", choices=("ja", "en"), help="UI language (default: system, else ja)")
    parser.add_argument("--screenshot", metavar="OUT.png", help="render the window once, save, exit")
    parser.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x720 (with --screenshot)")
    parser.add_argument("--load", metavar="SAVE", help="open a saved game")
    return parser


def _gui(argv: list[str]) -> int:
    args = gui_parser().parse_args(argv)
    if args.players is not None and not 2 <= args.players <= 7:
        print("fate-royal: --players must be between 2 and 7", file=sys.stderr)
        return 2
    try:
        from fate_royal.qt.compat import binding_problem

        problem = binding_problem()
    except ImportError as exc:  # Qt or one of its system libraries is missing
        problem = f"cannot load Qt: {exc}"
    if problem:
        print(f"fate-royal: {problem}", file=sys.stderr)
        return 2
    from fate_royal.qt.app import run_app

    return run_app(args)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
