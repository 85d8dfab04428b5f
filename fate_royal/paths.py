"""The one place that finds the data folders ``cards/`` and ``assets/``, and the user's folders.

In a wheel they are shipped inside the package as ``fate_royal/_data/``; in a source checkout (or an
editable install) they are the top-level folders of the repository; in the standalone app built by
PyInstaller (``packaging/``) they sit in the bundle as ``fate_royal/_data/`` beside the frozen
package. ``FATE_ROYAL_DATA`` overrides all of these, pointing at a folder that holds ``cards/`` and
``assets/``; a folder that lacks them is an error (``DataFolderError``), never silently skipped.

``user_data_dir()`` and ``user_log_dir()`` are the per-user folders (through ``platformdirs``:
``~/.local/share/fate_royal`` and ``~/.local/state/fate_royal/log`` on Linux, ``%LOCALAPPDATA%``
on Windows, ``~/Library`` on macOS).
"""

from __future__ import annotations

import os
import sys
from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
APP_NAME = "fate_royal"  # the per-user folders' name (the autosave has always lived there)
DATA_FOLDERS = ("cards", "assets")


class DataFolderError(FileNotFoundError):
    """The data folders cannot be found; ``str()`` says where it looked and what to do."""


def _frozen_data() -> Path | None:
    """The bundle's data folder when running as a PyInstaller app, else None."""
    bundle = getattr(sys, "_MEIPASS", None)
    if getattr(sys, "frozen", False) and bundle:
        return Path(bundle) / "fate_royal" / "_data"
    return None


def _missing(folder: Path) -> list[str]:
    return [f"{name}/" for name in DATA_FOLDERS if not (folder / name).is_dir()]


@lru_cache(maxsize=None)
def data_root() -> Path:
    """The folder that holds ``cards/`` and ``assets/`` (and ``scenarios/``)."""
    override = os.environ.get("FATE_ROYAL_DATA", "").strip()
    if override:
        folder = Path(override).expanduser()
        if not folder.is_dir():
            raise DataFolderError(f"FATE_ROYAL_DATA={override} is not a folder; point it at a "
                                  "folder holding cards/ and assets/, or unset it to use the shipped "
                                  "data")
        missing = _missing(folder)
        if missing:
            raise DataFolderError(f"FATE_ROYAL_DATA={override} has no {' and no '.join(missing)}; "
                                  "point it at a folder holding cards/ and assets/, or unset it to "
                                  "use the shipped data")
        return folder
    frozen = _frozen_data()
    candidates = ([frozen] if frozen is not None else []) + [_PACKAGE / "_data", _PACKAGE.parent]
    for candidate in candidates:
        if not _missing(candidate):
            return candidate
    raise DataFolderError(
        "fate_royal cannot find its data folders cards/ and assets/ "
        f"(looked in: {', '.join(str(c) for c in candidates)})"
    )


def cards_dir() -> Path:
    """The shipped card data: cards, chip sheet, errata pack, rules profile, rules reference."""
    return data_root() / "cards"


def assets_dir() -> Path:
    """Shipped assets: SVG frames and icons, fonts, translations."""
    return data_root() / "assets"


def scenarios_dir() -> Path:
    """The shipped scenarios: rulings/ (one or more per rule id) and demos/ (for demo mode)."""
    return data_root() / "scenarios"


def user_data_dir() -> Path:
    """The user's data folder for fate_royal (saves, autosave). Not created here."""
    import platformdirs

    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def user_cache_dir() -> Path:
    """The user's cache folder for fate_royal (what can be thrown away: parsed data files)."""
    import platformdirs

    return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))


def user_log_dir() -> Path:
    """The user's log folder for fate_royal. Not created here."""
    import platformdirs

    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))
