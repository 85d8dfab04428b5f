"""Accessible names: every control and every drawn card can be named by a screen reader.

``install(window)`` gives the window's widgets accessible names where Qt has none to offer (the
painted table and hand, docks, icon-only buttons) and keeps the table's and the hand's accessible
descriptions up to date: one line per drawn card — its owner, role, name and state when its face is
shown to whoever is looking, "face down" otherwise. The text comes from the same drawn records as
the picture, so it tells a screen reader exactly what the screen shows and nothing more.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QAbstractButton, QDockWidget, QWidget

from fate_royal.qt import texts
from fate_royal.qt.i18n import strip_mnemonic
from fate_royal.qt.i18n import tr as t


def card_line(game: Any, d: Any) -> str:
    """One drawn card as words, e.g. "B — servant: 雨生龍之介 (rise)"."""
    owner = game.player_name(d.owner) if d.owner is not None else t("access.centre")
    role = texts.tr_or(f"access.role.{d.role}", d.role or "")
    if d.face_up and d.card_id and d.card_id in game.db.cards:
        card = game.db.cards[d.card_id]
        state = texts.tr_or(f"access.state.{d.state}", d.state) if d.state else ""
        entered = f", {t('card.entered_note')}" if card.provenance_default == "entered" else ""
        return f"{owner} — {role}: {card.name}" + (f" ({state}{entered})" if state else
                                                     (f" ({entered[2:]})" if entered else ""))
    return f"{owner} — {role}: {t('access.face_down')}"


def describe(view: Any) -> str:
    """The cards a painted view (table or hand) shows now, one line each."""
    c = view.controller
    g = c.game
    if g is None:
        return ""
    try:
        records = view.records()
    except Exception:  # a view between games
        return ""
    return "\n".join(card_line(g, d) for d in records)


#: marks a name this module gave (from the widget's text, title or tooltip), which follows them
AUTO_NAME = "fate_royal_auto_name"


def name_widgets(window: QWidget) -> int:
    """Accessible names for widgets that have none, and anew for those named here whose words
    changed (a button's text, a dock's title, after a change of language); returns how many were
    named."""
    n = 0
    for w in [window] + window.findChildren(QWidget):
        if w.accessibleName() and not w.property(AUTO_NAME):
            continue
        name = ""
        if isinstance(w, QDockWidget):
            name = w.windowTitle()
        elif isinstance(w, QAbstractButton):
            name = strip_mnemonic(w.text()) or w.toolTip()
        elif w.toolTip():
            name = w.toolTip()
        if name and name != w.accessibleName():
            w.setAccessibleName(name)
            w.setProperty(AUTO_NAME, True)
            n += 1
    return n


def install(window: Any) -> None:
    """Name the window's parts and keep the card descriptions current."""
    table, hand = getattr(window, "table", None), getattr(window, "hand", None)

    def refresh() -> None:
        if table is not None:
            table.setAccessibleName(t("access.table"))
            table.setAccessibleDescription(describe(table))
        if hand is not None:
            hand.setAccessibleName(t("access.hand"))
            hand.setAccessibleDescription(describe(hand))
        name_widgets(window)

    window.controller.changed.connect(refresh)
    refresh()
    window.access_refresh = refresh
