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
    if argv[:2] == ["cards", "edit"]:
        return _card_editor(argv[2:])
    if argv and argv[0] in SUBCOMMANDS:
        from fate_royal.commands import dispatch
        from fate_royal.paths import DataFolderError

        try:
            return dispatch(argv[0], argv[1:])
        except DataFolderError as exc:  # FATE_ROYAL_DATA points nowhere useful: say so, once
            print(f"fate-royal {argv[0]}: {exc}", file=sys.stderr)
            return 2
    return _gui(argv)


def gui_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fate-royal",
        description="A desktop table for Fate/Ace Royal under the house errata. "
        f"Sub-commands: {', '.join(SUBCOMMANDS)} (fate-royal COMMAND --help).",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--scenario", metavar="FILE", help="open a scenario in demo mode")
    start.add_argument("--load", metavar="SAVE", help="open a saved game")
    parser.add_argument("--players", type=int, metavar="N", help="start a new game with N players (2-7)")
    parser.add_argument("--seats", metavar="K1,K2,...",
                        help="who plays each seat of the new game: human, random, basic or strong "
                        "(e.g. human,basic,basic,strong; the last repeats)")
    parser.add_argument("--seed", type=int, metavar="S", help="seed for the new game")
    parser.add_argument("--no-errata", action="store_true", help="base rules only")
    parser.add_argument("--lang", choices=("ja", "en"), help="UI language (default: system, else ja)")
    parser.add_argument("--screenshot", metavar="OUT.png",
                        help="render the window once, save it (.png, .jpg or .bmp), exit")
    parser.add_argument("--size", metavar="WxH", help="window size, e.g. 1280x720 (with --screenshot)")
    desktop = parser.add_mutually_exclusive_group()
    desktop.add_argument("--install-desktop-entry", action="store_true",
                         help="add the table to this user's desktop menu (Linux: a .desktop file "
                         "and its icon under ~/.local/share), then exit")
    desktop.add_argument("--uninstall-desktop-entry", action="store_true",
                         help="remove what --install-desktop-entry added, then exit")
    return parser


#: Image formats --screenshot writes, by file-name ending (Qt's image writers for them are built in).


def gui_arguments_problem(args: argparse.Namespace) -> str | None:
    """What is wrong with the GUI options, checked before Qt starts (files that must exist, the
    screenshot's folder and format, the window size), or None."""
    from pathlib import Path

    if args.players is not None and not 2 <= args.players <= 7:
        return "--players must be between 2 and 7"
    if getattr(args, "seats", None):
        from fate_royal.ai import parse_seats

        try:
            parse_seats(args.seats, args.players or 4)
        except ValueError as exc:
            return f"--seats: {exc}"
    for option, value, what in (("--scenario", args.scenario, "scenario file"),
                                ("--load", args.load, "saved game")):
        if value is None:
            continue
        path = Path(value)
        if not path.exists():
            return f"no such {what}: {value}"
        if not path.is_file():
            return f"{option} {value}: not a file"
    if args.screenshot is not None:
        from fate_royal.qt.app import SCREENSHOT_FORMATS  # no Qt import at module level

        out = Path(args.screenshot)
        if out.suffix.lower() not in SCREENSHOT_FORMATS:
            return (f"--screenshot {args.screenshot}: the file name must end in "
                    f"{', '.join(SCREENSHOT_FORMATS)} (that is the image format written)")
        folder = out.parent
        if not folder.is_dir():
            return (f"--screenshot {args.screenshot}: the folder {folder} does not exist "
                    "(it is not created)")
        if out.is_dir():
            return f"--screenshot {args.screenshot}: is a folder"
    if args.size is not None:
        from fate_royal.qt.app import parse_size  # no Qt import at module level

        try:
            parse_size(args.size)
        except ValueError as exc:
            return str(exc)
    return None


def _gui(argv: list[str], dialogs: bool = False) -> int:
    args = gui_parser().parse_args(argv)
    if args.install_desktop_entry or args.uninstall_desktop_entry:
        return _desktop_entry(args.install_desktop_entry)
    problem = gui_arguments_problem(args)
    if problem:
        return _fail(problem, 2 if problem.startswith(("--players", "--seats")) else 1, dialogs)
    from fate_royal.paths import data_root

    try:
        data_root()
    except FileNotFoundError as exc:
        return _fail(str(exc), 1, dialogs)
    from fate_royal.qt.app import display_problem

    problem = display_problem()
    if problem:  # no window can open: say so instead of letting Qt abort
        return _fail(problem, 1, False)
    try:
        from fate_royal.qt.compat import binding_problem

        problem = binding_problem()
    except ImportError as exc:  # Qt or one of its system libraries is missing
        problem = (f"cannot load Qt ({exc}); install Qt's system libraries listed in README.md "
                   "(\"On a bare Debian machine\")")
        return _fail(problem, 1, False)
    if problem:
        return _fail(problem, 2, dialogs)
    from fate_royal.qt.app import run_app

    return run_app(args)


def _card_editor(argv: list[str]) -> int:
    """``fate-royal cards edit [CARD] [--kind K] [--lang L]``: the card editor window."""
    from fate_royal.commands.cards import edit_arguments

    args = edit_arguments(argv)
    from fate_royal.qt.app import display_problem

    problem = display_problem()
    if problem:
        return _fail(problem, 1, False)
    from fate_royal.qt.card_editor import run_editor

    return run_editor(args.card, kind=args.kind, lang=args.lang)


def _fail(message: str, status: int, dialogs: bool) -> int:
    """Print ``fate-royal: message`` on stderr (one line); from the GUI entry point, which may have
    no console (Windows), also show it in a message box."""
    print(f"fate-royal: {message}", file=sys.stderr)
    if dialogs:
        try:
            from fate_royal.qt.app import error_dialog

            error_dialog(message)
        except Exception:  # pragma: no cover - no way left to tell the user; stderr has it
            pass
    return status


def _desktop_entry(install: bool) -> int:
    from fate_royal import desktop

    try:
        paths = desktop.install() if install else desktop.uninstall()
    except OSError as exc:
        print(f"fate-royal: cannot {'install' if install else 'remove'} the desktop entry: {exc}",
              file=sys.stderr)
        return 1
    if install:
        print(f"installed {paths[0]} (starts {desktop.launcher()[0]}) and {paths[1]}")
    else:
        print("removed " + " and ".join(map(str, paths)) if paths else "no desktop entry was installed")
    return 0


def gui_main() -> int:
    """The ``fate-royal-gui`` entry point (a GUI script: no console window on Windows). Opens the
    table like ``fate-royal``; problems are shown in a message box as well."""
    return _gui(sys.argv[1:], dialogs=True)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
