"""The Linux desktop entry: ``fate-royal --install-desktop-entry`` puts the table in the menu.

Writes ``fate-royal.desktop`` into the XDG applications folder (``$XDG_DATA_HOME/applications``,
default ``~/.local/share/applications``) and the icon into the hicolor theme
(``$XDG_DATA_HOME/icons/hicolor/scalable/apps/fate-royal.svg``), for the current user; no root, no
extra tools. ``Exec`` is the absolute path of the program that was run (the venv's ``fate-royal``,
or the standalone app), so the menu finds it without the venv on ``PATH``.
``--uninstall-desktop-entry`` removes both files. ``packaging/fate-royal.desktop`` is the same
entry with a plain ``Exec=fate-royal`` for distribution packagers (a test keeps the two equal).

No Qt here.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

DESKTOP_ID = "fate-royal"  # the desktop file's name, the icon's name, Qt's desktopFileName

#: The entry's keys, in order; ``Exec``/``TryExec`` are filled in by ``desktop_entry``.
ENTRY = (
    ("Type", "Application"),
    ("Version", "1.0"),
    ("Name", "Fate/Ace Royal"),
    ("GenericName", "Card game table"),
    ("GenericName[ja]", "カードゲームのテーブル"),
    ("Comment", "Hot-seat table for the card game Fate/Ace Royal under the house errata"),
    ("Comment[ja]", "ハウスルールで遊ぶ Fate/Ace Royal のホットシート用テーブル"),
    ("Exec", None),
    ("TryExec", None),
    ("Icon", DESKTOP_ID),
    ("Terminal", "false"),
    ("Categories", "Game;CardGame;"),
    ("Keywords", "card;game;Fate;hot-seat;"),
)


def _exec_quote(arg: str) -> str:
    """Quote one Exec argument (Desktop Entry Specification, "The Exec key")."""
    if arg and not any(c in arg for c in ' \t\n"\'\\><~|&;$*?#()`='):
        return arg
    escaped = "".join("\\" + c if c in '"`$\\' else c for c in arg)
    return f'"{escaped}"'


def launcher() -> list[str]:
    """The command that starts the table, as absolute as can be found."""
    if getattr(sys, "frozen", False):
        return [str(Path(sys.executable).resolve())]
    argv0 = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if argv0 is not None and argv0.name in ("fate-royal", "fate-royal-gui") and argv0.exists():
        return [str(argv0.absolute())]
    found = shutil.which("fate-royal")
    if found:
        return [str(Path(found).absolute())]
    return [str(Path(sys.executable).absolute()), "-m", "fate_royal"]


def desktop_entry(command: list[str] | None = None) -> str:
    """The text of the desktop file, starting ``command`` (default: ``launcher()``)."""
    command = launcher() if command is None else command
    lines = ["[Desktop Entry]"]
    for key, value in ENTRY:
        if key == "Exec":
            value = " ".join(_exec_quote(a) for a in command)
        elif key == "TryExec":
            value = command[0]
        lines.append(f"{key}={value}")
    return "\n".join(lines) + "\n"


def _data_home() -> Path:
    base = os.environ.get("XDG_DATA_HOME", "").strip()
    return Path(base) if base and Path(base).is_absolute() else Path.home() / ".local" / "share"


def entry_paths(data_home: Path | None = None) -> tuple[Path, Path]:
    """(desktop file, icon file) for the current user."""
    home = _data_home() if data_home is None else Path(data_home)
    return (home / "applications" / f"{DESKTOP_ID}.desktop",
            home / "icons" / "hicolor" / "scalable" / "apps" / f"{DESKTOP_ID}.svg")


def install(data_home: Path | None = None, command: list[str] | None = None) -> list[Path]:
    """Write the desktop file and the icon; returns their paths. Raises OSError."""
    from fate_royal.fsutil import atomic_write
    from fate_royal.paths import assets_dir

    desktop, icon = entry_paths(data_home)
    icon_svg = (assets_dir() / "svg" / "app.svg").read_bytes()
    for path, data in ((icon, icon_svg), (desktop, desktop_entry(command).encode("utf-8"))):
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    desktop.chmod(0o755)  # some desktops only launch entries marked executable
    return [desktop, icon]


def uninstall(data_home: Path | None = None) -> list[Path]:
    """Remove the desktop file and the icon; returns the paths that were there."""
    removed = []
    for path in entry_paths(data_home):
        try:
            path.unlink()
        except FileNotFoundError:
            continue
        removed.append(path)
    return removed
