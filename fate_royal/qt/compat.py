"""Guards against known bugs in the Qt binding.

PySide6 6.12.0 on CPython < 3.12 drops a reference to ``None`` on every call of a void method
(``setPen``, ``setText``…) and to ``True`` on every ``Signal.emit()``; after a few thousand paints
Python aborts ("Fatal Python error: none_dealloc"). pyproject.toml therefore asks for PySide6 < 6.12.
``check_binding`` refuses to start on that combination with a clear message instead of crashing in
the middle of a game.
"""

from __future__ import annotations

import sys
from typing import Any

BROKEN = ("6.12.0",)


def binding_problem() -> str | None:
    """A sentence explaining why this PySide6 cannot run the table, or None if it can."""
    import PySide6

    version = getattr(PySide6, "__version__", "")
    if version in BROKEN and sys.version_info < (3, 12) and sys.implementation.name == "cpython":
        return (f"PySide6 {version} crashes Python {sys.version.split()[0]} after a few thousand "
                "paints (a reference-counting bug in the binding). Install a working version: "
                "pip install 'PySide6-Essentials>=6.6,<6.12'")
    return None


def emit(signal: Any, *args: Any) -> None:
    """``signal.emit(*args)`` (one place to change should the binding need more care)."""
    signal.emit(*args)
