"""Windows that open within the screen they are on.

The table opened 1600×900 and the card editor 1280×860 whatever the screen: on a 1366×768 laptop
the editor's buttons lay below the screen's edge, and under a bare X server the table's docks past
its right edge. A window's first size is the size it asks for, made smaller where it does not fit
the screen's free area (a remembered size is Qt's to keep on a screen)."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QGuiApplication

#: The part of the screen's free area a window may take at most (room for the window's frame).
SHARE = 0.95


def fit_on_screen(size: tuple[int, int], screen: Any) -> tuple[int, int]:
    """``size``, made smaller where it would not fit ``screen``'s free area; as it is without one."""
    if screen is None:
        return size
    free = screen.availableGeometry()
    if free.width() <= 0 or free.height() <= 0:
        return size
    return min(size[0], int(free.width() * SHARE)), min(size[1], int(free.height() * SHARE))


def resize_on_screen(widget: Any, width: int, height: int) -> None:
    """``widget.resize(width, height)``, within the free area of the screen it opens on (its
    parent's, else the primary one)."""
    screen = widget.screen() if widget.parentWidget() is None else widget.parentWidget().screen()
    widget.resize(*fit_on_screen((width, height), screen or QGuiApplication.primaryScreen()))


__all__ = ["SHARE", "fit_on_screen", "resize_on_screen"]
