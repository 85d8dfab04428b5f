"""Start the table: ``run_app(args)`` is what ``fate-royal`` (no sub-command) calls.

Creates the QApplication, installs the bundled font, picks the UI language, builds the main window
and starts a game (``--players``/``--seed``/``--no-errata``, a ``--scenario`` or a ``--load``ed save).
With ``--screenshot OUT.png`` it renders the window once at ``--size`` (default 1600x900), writes
the image (PNG, JPEG or BMP by the name's ending) and returns 0 without entering the event loop. Bad
files give a message, never a traceback; a scenario or save named on the command line that cannot be
opened ends the program with status 1 instead of opening the table anyway.

Desktop conventions: application, organisation and desktop-file names and the window icon are set
on the QApplication. No display is a one-line message and status 1, never Qt's abort:
``display_problem`` sees the hopeless cases before Qt starts, and the Qt message handler turns a
fatal platform-plugin failure into the same kind of line (see ``_qt_fatal``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, Mapping

DEFAULT_SIZE = (1600, 900)
#: ``--screenshot`` file endings and the image format each writes.
SCREENSHOT_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".bmp": "BMP"}
APP_NAME = "fate-royal"
APP_DISPLAY_NAME = "Fate/Ace Royal"
ORGANIZATION = "fate_royal"
DESKTOP_FILE = "fate-royal"  # packaging/fate-royal.desktop, fate_royal.desktop.DESKTOP_ID

# Qt platforms that draw on a display, and the variable naming that display.
_DISPLAY_VARIABLES = {"xcb": "DISPLAY", "wayland": "WAYLAND_DISPLAY", "wayland-egl": "WAYLAND_DISPLAY",
                      "wayland-brcm": "WAYLAND_DISPLAY"}
_OFFSCREEN = "or set QT_QPA_PLATFORM=offscreen to render --screenshot without a display"
_WHAT_TO_DO = (f"install Qt's system libraries listed in README.md (\"On a bare Debian machine\"), "
               f"{_OFFSCREEN}")


def display_problem(environ: Mapping[str, str] | None = None, platform: str | None = None) -> str | None:
    """A one-line reason why no window can open here, or None (checked before Qt starts).

    Only on Linux and the other X11/Wayland systems, and only when every platform Qt would try
    needs a display whose variable is unset (``QT_QPA_PLATFORM`` unset means xcb or wayland; set to
    offscreen, vnc, eglfs… needs none). Whatever this cannot see, Qt's own failure is caught too."""
    environ = os.environ if environ is None else environ
    platform = sys.platform if platform is None else platform
    if platform.startswith(("win", "cygwin", "darwin")):
        return None
    requested = environ.get("QT_QPA_PLATFORM", "").strip()
    names = [p.split(":", 1)[0].strip() for p in requested.split(";") if p.strip()] if requested \
        else ["xcb", "wayland"]
    for name in names:
        variable = _DISPLAY_VARIABLES.get(name)
        if variable is None or environ.get(variable, "").strip():
            return None
    wanted = " nor ".join(sorted({_DISPLAY_VARIABLES[n] for n in names}))
    which = "neither " + wanted if " nor " in wanted else wanted
    return (f"no display to open the window on ({which} {'is' if ' nor ' in wanted else 'is not'} "
            f"set); start it from a desktop session, {_OFFSCREEN}")


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


def refusal_line(reason: str) -> str:
    """The command line's one line for a save or autosave the table refused (``last_refusal``:
    the loader's reason, which names the file, in English as every command-line message); of a
    reason of several lines (the card data's problems), the first and how many more there are."""
    lines = [line.strip() for line in reason.splitlines() if line.strip()]
    if len(lines) > 1:
        return f"{lines[0]} (and {len(lines) - 1} more)"
    return lines[0] if lines else ""


def log_path() -> Path:
    """The log file, in the platform's log folder (``~/.local/state/fate_royal/log/fate_royal.log``
    on Linux, ``%LOCALAPPDATA%\\fate_royal\\Logs`` on Windows)."""
    from fate_royal.paths import user_log_dir

    return user_log_dir() / "fate_royal.log"


def _setup_logging() -> None:
    """Details of unexpected errors go to the log file (``log_path``), not to the user's screen;
    the window shows a one-line message instead."""
    import logging

    root = logging.getLogger("fate_royal")
    if not root.handlers:
        try:
            path = log_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            handler: logging.Handler = logging.FileHandler(path, encoding="utf-8")
        except OSError:
            handler = logging.NullHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
        root.setLevel(logging.INFO)
        root.propagate = False
    _install_qt_message_handler()


_qt_handler_installed = False
_recent_qt_messages: list[str] = []


def _install_qt_message_handler() -> None:
    """Qt's own notes go to the log; a fatal one (Qt would abort) becomes one line and status 1."""
    global _qt_handler_installed
    if _qt_handler_installed:
        return
    import logging

    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    qt_log = logging.getLogger("fate_royal.qt.messages")
    levels = {QtMsgType.QtDebugMsg: logging.DEBUG, QtMsgType.QtInfoMsg: logging.INFO,
              QtMsgType.QtWarningMsg: logging.WARNING, QtMsgType.QtCriticalMsg: logging.ERROR,
              QtMsgType.QtFatalMsg: logging.CRITICAL}

    def qt_message(kind: Any, context: Any, message: str) -> None:
        qt_log.log(levels.get(kind, logging.WARNING), "%s", message)
        _recent_qt_messages.append(message)
        del _recent_qt_messages[:-20]
        if kind == QtMsgType.QtFatalMsg:
            _qt_fatal(message)

    qInstallMessageHandler(qt_message)
    _qt_handler_installed = True


def fatal_qt_line(message: str, recent: list[str]) -> str:
    """The one line shown for a fatal Qt message (``recent``: Qt's messages before it)."""
    import re

    if "platform plugin" not in message:
        first = message.strip().splitlines()[0] if message.strip() else "unknown error"
        return f"Qt stopped: {first}"
    names = re.findall(r'platform plugin "([^"]*)"', " ".join(recent + [message]))
    plugin = f' "{names[0]}"' if names else ""
    why = ""
    for note in reversed(recent):
        if "could not connect to display" in note or "is needed to load" in note \
                or "Failed to create wl_display" in note:
            why = f" ({note.strip().splitlines()[0].rstrip('.')})"
            break
    return f"cannot open a window: Qt's platform plugin{plugin} could not be loaded{why}; {_WHAT_TO_DO}"


def _qt_fatal(message: str) -> None:
    """Qt is about to abort (``qFatal``): say what happened in one line and leave with status 1."""
    import logging

    line = fatal_qt_line(message, _recent_qt_messages[:-1])
    try:
        where = log_path()
        details = f" (details: {where})" if where.is_file() else ""
    except Exception:  # pragma: no cover - no save module, no home
        details = ""
    try:
        sys.stderr.write(f"fate-royal: {line}{details}\n")
        sys.stderr.flush()
    except Exception:  # pragma: no cover - no console (Windows GUI script)
        pass
    logging.shutdown()
    os._exit(1)


def error_dialog(message: str) -> None:
    """Show ``message`` in a message box when a window can open here (for the GUI entry point,
    which may have no console); otherwise do nothing (the caller printed it)."""
    if display_problem():
        return
    _setup_logging()
    from PySide6.QtWidgets import QApplication, QMessageBox

    app = QApplication.instance() or QApplication(sys.argv[:1])
    _set_identity(app)
    QMessageBox.critical(None, APP_DISPLAY_NAME, message)


def _set_identity(app: Any) -> None:
    """Names (for the window manager, the desktop entry and Qt's per-user folders) and the icon."""
    app.setApplicationName(APP_NAME)
    # (no applicationDisplayName: Qt would append it to every window title, and the main window's
    # title already starts with it)
    app.setOrganizationName(ORGANIZATION)
    app.setDesktopFileName(DESKTOP_FILE)
    app.setWindowIcon(app_icon())


def app_icon() -> Any:
    """The application icon (``assets/svg/app.svg``): Qt's SVG icon engine draws it at whatever
    size a desktop asks for, when it asks; without that plugin, pixmaps drawn at the usual sizes."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QIcon

    from fate_royal.paths import assets_dir
    from fate_royal.qt import art

    icon = QIcon(str(assets_dir() / "svg" / "app.svg"))
    if not icon.isNull() and not icon.pixmap(16, 16).isNull():
        return icon
    icon = QIcon()
    for side in (16, 24, 32, 48, 64, 128, 256):
        try:
            icon.addPixmap(art.svg_pixmap("app", QSize(side, side)))
        except Exception:  # pragma: no cover - a damaged asset folder: no icon rather than no app
            break
    return icon


_QT_TRANSLATORS: list[Any] = []


def install_qt_translations(lang: str) -> bool:
    """Qt's own words (standard buttons, dialogs, context menus) in ``lang``, from the translations
    the PySide6 wheel ships (``qtbase_ja.qm``); English needs none. True if loaded."""
    from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTranslator

    app = QCoreApplication.instance()
    for old in _QT_TRANSLATORS:
        if app is not None:
            app.removeTranslator(old)
    _QT_TRANSLATORS.clear()
    if lang == "en" or app is None:
        return lang == "en"
    folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    translator = QTranslator(app)
    if not translator.load(f"qtbase_{lang}", folder):
        import logging

        logging.getLogger(__name__).debug("no Qt translation qtbase_%s in %s", lang, folder)
        return False
    app.installTranslator(translator)
    _QT_TRANSLATORS.append(translator)
    return True


def run_app(args: argparse.Namespace, *, first_paint_only: bool = False) -> int:
    """Start the table as the command line asks; ``first_paint_only`` (with ``--screenshot``) stops
    at the first painted frame without writing it (the start-up benchmark)."""
    # The engine and the words first: once PySide6 is imported, its import hook reads the source of
    # every module imported after it (to look for ``from __feature__ import``), which the Qt-free
    # layers never use; imported before it they skip that (a few ms of start-up).
    import fate_royal.rules.game  # noqa: F401
    import fate_royal.text  # noqa: F401
    from PySide6.QtCore import QTimer
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
    problem = display_problem()
    if problem:
        _error(problem)
        return 1
    _setup_logging()
    app = QApplication.instance() or QApplication(sys.argv[:1])
    _set_identity(app)
    fonts.install_fonts()
    from fate_royal.qt.settings import settings

    remembered = settings()
    i18n.set_language(getattr(args, "lang", None) or (None if screenshot else remembered.language())
                      or i18n.default_language())
    install_qt_translations(i18n.current_language())

    controller = GameController()
    controller.auto_handoff = bool(screenshot)
    window = MainWindow(controller)
    interactive = not screenshot
    # the remembered size and place before the window is first shown (it must not jump); --size
    # or a screenshot (which shows the defaults) sets the size instead
    fit = interactive and not getattr(args, "size", None)  # (within the screen, as every window)
    if not (fit and remembered.restore_geometry(window)):
        if fit:
            from fate_royal.qt.screen import resize_on_screen

            resize_on_screen(window, *size)
        else:
            window.resize(*size)

    def finish_startup() -> Any:
        """What the first frame of a dealt table does not need: the rulings features (menus,
        demo, saves, autosave keeper, inspector, comparison, export), the names for screen readers
        and the user's dock layout and keys. Built at once where they decide what is shown first
        (a scenario, a save, the offer of the autosave), else right after the table's first paint."""
        features = getattr(window, "rulings", None)
        if features is not None:
            return features
        from fate_royal.qt import access, rulings

        features = rulings.install(window, controller)
        features.show_dialogs = interactive
        features.keeper.enabled = interactive  # a screenshot never touches the autosave
        access.install(window)  # screen readers: names for controls, the cards as words
        if interactive:  # the user's dock layout and keys (a screenshot shows the defaults)
            remembered.restore_layout(window)
            window.act_animations.setChecked(remembered.animations())
            from fate_royal.qt.shortcuts import apply_saved

            apply_saved(window)
        return features

    window.finish_startup = finish_startup
    errata = not getattr(args, "no_errata", False)
    seed = getattr(args, "seed", None)
    players = getattr(args, "players", None)

    error = None
    if getattr(args, "scenario", None):
        features = finish_startup()
        error = features.open_scenario(args.scenario, False if getattr(args, "no_errata", False) else None,
                                       show_errors=False)
    elif getattr(args, "load", None):
        features = finish_startup()
        if not Path(args.load).is_file():
            error = f"no such saved game: {args.load}"
        elif not features.open_save(args.load, allow_changed_cards=False):
            error = refusal_line(features.last_refusal) or f"cannot open saved game {args.load}"
    if error:  # a file named on the command line that cannot be opened: say so and stop
        _error(error, window, interactive)
        window.close()
        return 1
    if controller.game is None:
        seats = None
        if getattr(args, "seats", None):
            from fate_royal.ai import parse_seats

            seats = {int(k): v for k, v in parse_seats(args.seats, players or 4).items()}
        if players or screenshot or seats:
            ok = controller.new_game(default_names(players or 4, remembered=interactive),
                                     seed if seed is not None else 1, errata, seats=seats)
            if not ok:
                _error("cannot start a game:\n" + (controller.setup_error or "unknown error"),
                       window, interactive)
                return 1
            # the rest of the window is built as soon as the table has been painted once
            window.table.first_painted.connect(lambda: QTimer.singleShot(0, window, finish_startup))
            # ... or after a second at the latest (a window started minimised paints nothing)
            QTimer.singleShot(1000, window, finish_startup)
        else:
            features = finish_startup()
            window.show()
            if features.keeper.offer_resume():
                pass  # the unfinished game is back on the table
            elif not window.new_game_dialog():
                controller.new_game(default_names(4), seed, errata)
            window.raise_()
            window.activateWindow()  # the dialog had the keyboard: hand it back to the table

    if screenshot:
        return _screenshot(app, window, screenshot, size, write=not first_paint_only)
    window.show()
    return app.exec()


def _screenshot(app: Any, window: Any, out: str, size: tuple[int, int], write: bool = True) -> int:
    """Render the window once and write it to ``out`` (format by its ending; the folder must
    exist), atomically: a failed write leaves no half image and no temporary file. ``write`` False
    stops at the first painted frame (the start-up benchmark)."""
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QImageWriter

    from fate_royal.fsutil import atomic_write

    path = Path(out)
    fmt = SCREENSHOT_FORMATS.get(path.suffix.lower())
    supported = {bytes(f).decode().upper() for f in QImageWriter.supportedImageFormats()}
    if fmt is None or fmt not in supported:
        _error(f"cannot write {out}: the image format of {path.suffix or 'a name without an ending'}"
               f" is not one of {', '.join(SCREENSHOT_FORMATS)}")
        return 1
    window.resize(*size)
    window.show()
    table = getattr(window, "table", None)
    for _ in range(3):
        app.processEvents()
        if not write and getattr(table, "_painted_once", False):
            break  # the start-up benchmark stops at the first painted table
    if not write:
        window.grab()
        window.close()
        return 0
    finish = getattr(window, "finish_startup", None)
    if finish is not None:  # the whole window, menus included, as a moment after start-up
        finish()
        for _ in range(2):
            app.processEvents()
    pixmap = window.grab()
    window.close()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = pixmap.save(buffer, fmt, 92 if fmt == "JPEG" else -1)
    buffer.close()
    if not ok or data.isEmpty():
        _error(f"cannot write {out}: Qt could not encode the image as {fmt}")
        return 1
    try:
        atomic_write(path, bytes(data.data()))
    except OSError as exc:
        _error(f"cannot write {out}: {exc.strerror or exc}")
        return 1
    return 0
