"""Read-only, everything-revealed views of a game: for the presenter view and the errata comparison.

``RevealController`` looks to a ``TableView`` like the game controller, but shows a game (its own, or
the one another controller holds) with every seat's private cards face up, no hand-off screen and no
actions: a projector audience and a side-by-side comparison see the whole position. ``HandsStrip``
draws every player's hand face up, which the table itself shows only as card backs.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QSizePolicy, QWidget

from fate_royal.qt import texts
from fate_royal.qt.compat import emit
from fate_royal.qt.fonts import pixel_font
from fate_royal.qt.i18n import tr as t
from fate_royal.qt.table import CARD_RATIO, CardDraw, TableView, draw_card, paint_hand_strip


class _EverySeat:
    """A viewer that is every seat at once (``viewer == owner`` holds for every owner)."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, int) and not isinstance(other, bool)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        return -1

    def __repr__(self) -> str:
        return "<every seat>"


EVERY_SEAT = _EverySeat()


class RevealController(QObject):
    """A controller stand-in for read-only views: every private card visible, no actions.

    ``source`` (a ``GameController``) makes it follow that controller's game and ``changed``;
    otherwise ``game`` is set directly.
    """

    changed = Signal()

    def __init__(self, source: Any = None, game: Any = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.source = source
        self._game = game
        self.auto_handoff = True
        if source is not None:
            source.changed.connect(self._forward)

    def _forward(self) -> None:
        emit(self.changed)

    @property
    def game(self) -> Any:
        return self.source.game if self.source is not None else self._game

    @game.setter
    def game(self, game: Any) -> None:
        self._game = game
        emit(self.changed)

    def private_viewer(self) -> Any:
        return EVERY_SEAT if self.game is not None else None

    def legal_actions(self) -> list:
        return []

    def handoff_needed(self) -> bool:
        return False

    def handoff_player(self) -> int | None:
        pend = None if self.game is None else self.game.pending
        return None if pend is None else pend.player

    # the table widgets ask these of any controller
    prompt = None
    read_only = True

    def shared_prompt(self) -> Any:
        return None

    def table_view(self) -> Any:
        """Every face shown (the one place the table may do so: read-only views)."""
        g = self.game
        if g is None:
            return None
        from fate_royal.rules.view import view

        return view(g, None, reveal=True)


def revealed_table(source: Any = None, game: Any = None, parent: QWidget | None = None) -> TableView:
    """A ``TableView`` that shows every private card and offers no actions."""
    ctl = RevealController(source, game)
    view = TableView(ctl, parent)
    ctl.setParent(view)
    view.setMinimumSize(320, 240)
    return view


class HandsStrip(QWidget):
    """Every player's hand, face up, one row per player (presenter view: all hands revealed)."""

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.rows: list[tuple[int, QRectF, list[CardDraw]]] = []
        self.setMinimumHeight(90)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        controller.changed.connect(self.update)

    def records(self) -> list[CardDraw]:
        self.layout_hands()
        return [d for _p, _r, cards in self.rows for d in cards]

    def layout_hands(self) -> None:
        self.rows = []
        g = self.controller.game
        if g is None:
            return
        players = [i for i, p in enumerate(g.state.players)]
        if not players:
            return
        cols = 1 if len(players) == 1 else 2 if len(players) <= 4 else 3
        nrows = (len(players) + cols - 1) // cols
        cell_w = self.width() / cols
        cell_h = self.height() / max(1, nrows)
        label_w = min(150.0, cell_w * 0.22)
        for k, p in enumerate(players):
            r, c = divmod(k, cols)
            cell = QRectF(c * cell_w, r * cell_h, cell_w, cell_h)
            hand = g.state.players[p].hand
            h = cell_h * 0.84
            w = h / CARD_RATIO
            left = cell.x() + label_w
            avail = cell.width() - label_w - 8
            step = min(w + 6, (avail - w) / max(1, len(hand) - 1)) if len(hand) > 1 else 0
            y = cell.y() + (cell_h - h) / 2
            cards = [CardDraw("hand", uid, g.state.cards[uid], p, None, 0, True,
                              QRectF(left + j * step, y, w, h)) for j, uid in enumerate(hand)]
            self.rows.append((p, cell, cards))

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        try:
            paint_hand_strip(painter, self)
            self.layout_hands()
            g = self.controller.game
            for p, cell, cards in self.rows:
                pl = g.state.players[p]
                label_w = min(150.0, cell.width() * 0.22)
                px = max(10.0, min(22.0, cell.height() * 0.16))
                painter.setFont(pixel_font(px, bold=True))
                painter.setPen(QColor("#e8c36a") if p == g.state.turn_player else QColor("#f4ecdc"))
                label = f"{pl.name}\n{texts.tr_or('player.hand_count', '{count}', count=len(pl.hand))}"
                painter.drawText(cell.adjusted(10, 0, -(cell.width() - label_w), 0),
                                 int(Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap), label)
                if not cards:
                    painter.setPen(QColor("#8a7f70"))
                    painter.drawText(cell.adjusted(label_w, 0, 0, 0),
                                     int(Qt.AlignmentFlag.AlignVCenter), t("rulings.hands.empty"))
                for d in cards:
                    draw_card(painter, d, g, 1.0, dim=pl.out)
        finally:
            painter.end()
