"""The one place that finds the data folders ``cards/`` and ``assets/``.

In a wheel they are shipped inside the package as ``fate_royal/_data/``; in a source checkout (or an
editable install) they are the top-level folders of the repository. ``FATE_ROYAL_DATA`` overrides
both, pointing at a folder that holds ``cards/`` and ``assets/``.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@lru_cache(maxsize=None)
def data_root() -> Path:
    """The folder that holds ``cards/`` and ``assets/``."""
    override = os.environ.get("FATE_ROYAL_DATA")
    candidates = [Path(override)] if override else []
    candidates += [_PACKAGE / "_data", _PACKAGE.parent]
    for candidate in candidates:
        if (candidate / "cards").is_dir() and (candidate / "assets").is_dir():
            return candidate
    raise FileNotFoundError(
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
