"""What the table remembers between runs, in one INI file in the platform's config folder.

``~/.config/fate_royal/settings.ini`` on Linux (``$XDG_CONFIG_HOME`` moves it),
``%LOCALAPPDATA%\\fate_royal\\settings.ini`` on Windows, ``~/Library/Application Support/fate_royal``
on macOS; ``FATE_ROYAL_SETTINGS=/path/file.ini`` puts it anywhere (a portable install, a test).
An explicit file (``QSettings`` in INI format) rather than the native store, so that the location
is the same for every Qt version and can be named in the README.

Remembered: the interface language, window geometry and dock layout, the players' names (the last
game's), each player's stops (by name), the last folder per kind of file, recent files, whether
the table animates, and the user's keyboard shortcuts. A damaged or hand-edited value is ignored
(the default is used), never an error; so is a settings path that is not a regular file (a named
pipe, a device, a folder): the log says so and the table runs with the defaults.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QSettings

from fate_royal.fsutil import unsafe_to_open

MAX_RECENT = 8
log = logging.getLogger(__name__)
_instance: "Settings | None" = None


def settings_path() -> Path:
    env = os.environ.get("FATE_ROYAL_SETTINGS")
    if env:
        return Path(env)
    import platformdirs

    from fate_royal.paths import APP_NAME

    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / "settings.ini"


def settings() -> "Settings":
    """The settings of this user (re-read when the file's location changes, e.g. between tests)."""
    global _instance
    path = settings_path()
    if _instance is None or _instance.path != path:
        _instance = Settings(path)
    return _instance


class Settings:
    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        problem = unsafe_to_open(self.path)
        self._scratch = None
        if problem is not None:
            # the defaults, kept in a file of our own for this run: the path is never opened
            log.warning("settings file %s: %s; using the default settings for this run",
                        self.path, problem)
            self._scratch = tempfile.TemporaryDirectory(prefix="fate_royal-settings-")
            self.q = QSettings(str(Path(self._scratch.name) / "settings.ini"),
                               QSettings.Format.IniFormat)
            return
        self.q = QSettings(str(self.path), QSettings.Format.IniFormat)

    def sync(self) -> None:
        self.q.sync()

    def _get(self, key: str, default: Any = None) -> Any:
        try:
            return self.q.value(key, default)
        except Exception:  # a value Qt cannot read back: the default
            return default

    def _list(self, key: str) -> list[str]:
        v = self._get(key, [])
        if isinstance(v, str):
            v = [v] if v else []
        if not isinstance(v, (list, tuple)):
            return []
        return [str(x) for x in v if isinstance(x, str)]

    # ------------------------------------------------------------------ language

    def language(self) -> str | None:
        v = self._get("ui/language")
        return v if v in ("ja", "en") else None

    def set_language(self, lang: str) -> None:
        self.q.setValue("ui/language", lang)

    # ------------------------------------------------------------------ window

    def restore_window(self, window: Any) -> bool:
        """Geometry and dock layout of the last run; False if there was none."""
        done = self.restore_geometry(window)
        self.restore_layout(window)
        return done

    def restore_geometry(self, window: Any) -> bool:
        """The window's size and place of the last run (before it is shown); False if none."""
        geo = self._get("window/geometry")
        if isinstance(geo, QByteArray) and not geo.isEmpty():
            return bool(window.restoreGeometry(geo))
        return False

    def restore_layout(self, window: Any) -> None:
        """The docks and toolbars of the last run (once the rulings features are installed)."""
        state = self._get("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            features = getattr(window, "rulings", None)
            # docks built on first use: a layout that holds them (by object name) needs them now
            if features is not None and any(name.encode("utf-16-be") in bytes(state.data())
                                            for name in ("inspectorDock", "demoDock")):
                features.ensure_docks()
            window.restoreState(state)
            # the demo panel belongs to a demo: a layout saved while one was open keeps its place,
            # but it shows again only when a demo opens (not empty beside the next game)
            if features is not None and features.docks_built() and not features.demo.active:
                features.demo_dock.hide()

    def save_window(self, window: Any) -> None:
        self.q.setValue("window/geometry", window.saveGeometry())
        self.q.setValue("window/state", window.saveState())

    # ------------------------------------------------------------------ players

    def player_names(self) -> list[str]:
        """The last game's names, those the engine still takes (an edited settings file may hold
        anything), each once."""
        from fate_royal.rules.setup import name_problem

        out: list[str] = []
        for name in self._list("players/names"):
            if name_problem(name) is None and name not in out:
                out.append(name)
        return out[:7]

    def remember_names(self, names: list[str]) -> None:
        self.q.setValue("players/names", list(names))

    def stops_for(self, names: list[str]) -> dict[int, list[str]]:
        """The stops each named player set last time (by name), by seat of a new game."""
        out = {}
        for seat, name in enumerate(names):
            stops = self._list(f"stops/{_key(name)}")
            if stops:
                out[seat] = stops
        return out

    def remember_stops(self, names: list[str], stops: dict) -> None:
        for seat, name in enumerate(names):
            value = list(stops.get(str(seat), stops.get(seat, [])) or [])
            self.q.setValue(f"stops/{_key(name)}", value)

    # ------------------------------------------------------------------ files

    def last_folder(self, kind: str) -> str:
        v = self._get(f"folders/{kind}")
        if isinstance(v, str) and v and Path(v).is_dir():
            return v
        return str(Path.home())

    def set_last_folder(self, kind: str, path: str | os.PathLike) -> None:
        p = Path(path)
        self.q.setValue(f"folders/{kind}", str(p if p.is_dir() else p.parent))

    def recent_files(self) -> list[str]:
        return [p for p in self._list("files/recent") if Path(p).is_file()][:MAX_RECENT]

    def add_recent(self, path: str | os.PathLike) -> None:
        p = str(Path(path).resolve())
        items = [p] + [x for x in self._list("files/recent") if x != p]
        self.q.setValue("files/recent", items[:MAX_RECENT])

    def clear_recent(self) -> None:
        self.q.setValue("files/recent", [])

    # ------------------------------------------------------------------ table

    def animations(self) -> bool:
        return _bool(self._get("table/animations"), True)

    def set_animations(self, on: bool) -> None:
        self.q.setValue("table/animations", bool(on))

    # ------------------------------------------------------------------ shortcuts

    def shortcuts(self) -> dict[str, str]:
        """Action id -> key sequence (portable text) the user chose."""
        self.q.beginGroup("shortcuts")
        try:
            return {k: str(self.q.value(k)) for k in self.q.childKeys() if isinstance(self.q.value(k), str)}
        finally:
            self.q.endGroup()

    def set_shortcut(self, action_id: str, keys: str | None) -> None:
        """``keys`` None: back to the default."""
        if keys is None:
            self.q.remove(f"shortcuts/{action_id}")
        else:
            self.q.setValue(f"shortcuts/{action_id}", keys)


def _key(name: str) -> str:
    """A settings key for a player's name (any script; slashes and the like made harmless)."""
    return name.encode("utf-8").hex()


def _bool(v: Any, default: bool) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, str):
        if v.lower() in ("true", "1", "yes", "on"):
            return True
        if v.lower() in ("false", "0", "no", "off"):
            return False
    return default
