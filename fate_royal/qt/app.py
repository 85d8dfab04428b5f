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


def _open_scenario(controller: Any, path: str, errata: bool | None = None) -> str | None:
    """Open a scenario file; returns an error text, or None on success."""
    try:
        from fate_royal.rules import scenario as scenario_mod
    except ImportError:
        return "scenarios cannot be opened yet (fate_royal.rules.scenario is not available)"
    loader = getattr(scenario_mod, "load_scenario", None)
    if loader is None:
        return "scenarios cannot be opened yet (no load_scenario in fate_royal.rules.scenario)"
    if not Path(path).is_file():
        return f"no such scenario file: {path}"
    try:
        sc = loader(path)
        game = sc.build_game(errata=errata) if hasattr(sc, "build_game") else None
    except Exception as exc:  # a bad file: say what is wrong, no traceback
        return f"cannot open scenario {path}: {exc}"
    if game is None:
        return f"cannot open scenario {path}: the scenario has no start position"
    controller.set_game(game)
    title = getattr(sc, "title", "")
    if title:
        from fate_royal.qt.compat import emit

        emit(controller.message, title, "info", "")
    return None


def _open_save(controller: Any, path: str) -> str | None:
    try:
        from fate_royal.rules import save as save_mod
    except ImportError:
        return "saved games cannot be opened yet (fate_royal.rules.save is not available)"
    loader = getattr(save_mod, "load_game", None)
    if loader is None:
        return "saved games cannot be opened yet (no loader in fate_royal.rules.save)"
    if not Path(path).is_file():
        return f"no such saved game: {path}"
    try:
        from fate_royal.cards import load_card_db

        game = loader(path, lambda errata, extra: load_card_db(errata=errata, extra=extra or None))
    except Exception as exc:
        return f"cannot open saved game {path}: {exc}"
    controller.set_game(game)
    return None


def run_app(args: argparse.Namespace) -> int:
    from PySide6.QtWidgets import QApplication

    from fate_royal.qt import fonts, i18n
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
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("fate-royal")
    fonts.install_fonts()
    i18n.set_language(getattr(args, "lang", None) or i18n.default_language())

    controller = GameController()
    controller.auto_handoff = bool(screenshot)
    window = MainWindow(controller)
    window.resize(*size)
    interactive = not screenshot
    errata = not getattr(args, "no_errata", False)
    seed = getattr(args, "seed", None)
    players = getattr(args, "players", None)

    error = None
    if getattr(args, "scenario", None):
        error = _open_scenario(controller, args.scenario, False if getattr(args, "no_errata", False) else None)
    elif getattr(args, "load", None):
        error = _open_save(controller, args.load)
    if error:
        _error(error, window, interactive)
        if screenshot:
            return 1
    if controller.game is None:
        if players or screenshot:
            ok = controller.new_game(default_names(players or 4), seed if seed is not None else 1, errata)
            if not ok:
                _error("cannot start a game", window, interactive)
                return 1
        else:
            window.show()
            if not window.new_game_dialog():
                controller.new_game(default_names(4), seed, errata)

    if screenshot:
        return _screenshot(app, window, screenshot, size)
    window.show()
    return app.exec()


def _screenshot(app: Any, window: Any, out: str, size: tuple[int, int]) -> int:
    window.resize(*size)
    window.show()
    for _ in range(3):
        app.processEvents()
    pixmap = window.grab()
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
