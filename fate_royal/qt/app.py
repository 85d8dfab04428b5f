"""Start the table: ``run_app(args)`` is what ``fate-royal`` (no sub-command) calls.

Creates the QApplication, installs the bundled font, picks the UI language, builds the main window
and starts a game (``--players``/``--seed``/``--no-errata``, a ``--scenario`` or a ``--load``ed save).
With ``--screenshot OUT.png`` it renders the window once at ``--size`` (default 1600x900), writes
the PNG and returns 0 without entering the event loop. Bad files give a message, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

DEFAULT_SIZE = (1600, 900)


def parse_size(text: str | None) -> tuple[int, int]:
    if not text:
        return DEFAULT_SIZE
    try:
        w, h = text.lower().replace("×", "x").split("x")
        size = int(w), int(h)
    except ValueError:
        raise ValueError(f"--size must look like 1600x900, not {text!r}") from None
    if not (320 <= size[0] <= 10000 and 240 <= size[1] <= 10000):
        raise ValueError(f"--size {text} is out of range")
    return size


def _error(text: str, parent: Any = None, interactive: bool = False) -> None:
    print(f"fate-royal: {text}", file=sys.stderr)
    if interactive:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(parent, "fate-royal", text)


def _setup_logging() -> None:
    """Details of unexpected errors go to a log file beside the autosave, not to the user's screen;
    the window shows a one-line message instead."""
    import logging

    from fate_royal.rules.save import autosave_path

    root = logging.getLogger("fate_royal")
    if root.handlers:
        return
    try:
        path = autosave_path().with_name("fate_royal.log")
        path.parent.mkdir(parents=True, exist_ok=True)
        handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
    except OSError:
        handler = logging.NullHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    root.propagate = False

    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    qt_log = logging.getLogger("fate_royal.qt.messages")
    levels = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
              QtMsgType.QtWarningMsg: logging.WARNING, QtMsgType.QtCriticalMsg: logging.ERROR,
              QtMsgType.QtFatalMsg: logging.CRITICAL}

    def qt_message(kind: Any, context: Any, message: str) -> None:  # Qt's own notes go to the log
        qt_log.log(levels.get(kind, logging.WARNING), "%s", message)

    qInstallMessageHandler(qt_message)


def run_app(args: argparse.Namespace, *, first_paint_only: bool = False) -> int:
    """Start the table as the command line asks; ``first_paint_only`` (with ``--screenshot``) stops
    at the first painted frame without writing it (the start-up benchmark)."""
    from PySide6.QtWidgets import QApplication

    from fate_royal.qt import fonts, i18n, rulings
    from fate_royal.qt.controller import GameController
    from fate_royal.qt.dialogs import default_names
    from fate_royal.qt.window import MainWindow

    try:
        from fate_royal.qt.compat import binding_problem
    except ImportError:  # pragma: no cover - an older compat module
        binding_problem = None  # type: ignore[assignment]
    problem = binding_problem() if binding_problem is not None else None
    if problem:
        _error(problem)
        return 1
    screenshot = getattr(args, "screenshot", None)
    try:
        size = parse_size(getattr(args, "size", None))
    except ValueError as exc:
        _error(str(exc))
        return 2
    _setup_logging()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("fate-royal")
    fonts.install_fonts()
    i18n.set_language(getattr(args, "lang", None) or i18n.default_language())

    controller = GameController()
    controller.auto_handoff = bool(screenshot)
    window = MainWindow(controller)
    interactive = not screenshot
    features = rulings.install(window, controller)  # demo mode, saves, inspector, comparison, export
    features.show_dialogs = interactive
    window.resize(*size)
    errata = not getattr(args, "no_errata", False)
    seed = getattr(args, "seed", None)
    players = getattr(args, "players", None)

    error = None
    if getattr(args, "scenario", None):
        error = features.open_scenario(args.scenario, False if getattr(args, "no_errata", False) else None,
                                       show_errors=False)
    elif getattr(args, "load", None):
        if not Path(args.load).is_file():
            error = f"no such saved game: {args.load}"
        elif not features.open_save(args.load, allow_changed_cards=False):
            error = features.last_message[1] or f"cannot open saved game {args.load}"
    if error:
        _error(error, window, interactive)
        if screenshot:
            return 1
    if controller.game is None:
        if players or screenshot:
            ok = controller.new_game(default_names(players or 4), seed if seed is not None else 1, errata)
            if not ok:
                _error("cannot start a game:\n" + (controller.setup_error or "unknown error"),
                       window, interactive)
                return 1
        else:
            window.show()
            if not window.new_game_dialog():
                controller.new_game(default_names(4), seed, errata)
            window.raise_()
            window.activateWindow()  # the dialog had the keyboard: hand it back to the table

    if screenshot:
        return _screenshot(app, window, screenshot, size, write=not first_paint_only)
    window.show()
    return app.exec()


def _screenshot(app: Any, window: Any, out: str, size: tuple[int, int], write: bool = True) -> int:
    window.resize(*size)
    window.show()
    for _ in range(3):
        app.processEvents()
    pixmap = window.grab()
    if not write:
        window.close()
        return 0
    path = Path(out)
    try:
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
        ok = pixmap.save(str(path), "PNG")
    except OSError as exc:
        _error(f"cannot write {out}: {exc}")
        return 1
    window.close()
    if not ok:
        _error(f"cannot write {out}")
        return 1
    return 0
