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
        #: every face shown (demos, replays, comparisons, a presenter after the table agreed);
        #: False: only what the whole table may see
        self.reveal = True
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
        return EVERY_SEAT if self.game is not None and self.reveal else None

    def set_reveal(self, on: bool) -> None:
        if on != self.reveal:
            self.reveal = on
            emit(self.changed)

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

    def cards_shown(self) -> bool:
        return False  # (its own ``reveal`` says what it shows; nothing is turned over on top)

    def table_view(self) -> Any:
        """Every face shown (the one place the table may do so: read-only views)."""
        g = self.game
        if g is None:
            return None
        from fate_royal.rules.view import view

        return view(g, None, reveal=self.reveal)


def revealed_table(source: Any = None, game: Any = None, parent: QWidget | None = None) -> TableView:
    """A ``TableView`` that shows every private card and offers no actions."""
    ctl = RevealController(source, game)
    view = TableView(ctl, parent)
    ctl.setParent(view)
    view.setMinimumSize(320, 240)
    return view


def fit_caption(font: Any, text: str, rect: QRectF) -> str:
    """``text`` as it fits ``rect`` word-wrapped (elided at the end when it does not)."""
    from PySide6.QtGui import QFontMetricsF

    fm = QFontMetricsF(font)
    flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap)
    if fm.boundingRect(rect, flags, text).height() <= rect.height() + 0.5:
        return text
    shown = text
    while len(shown) > 1:
        shown = shown[:-1]
        if fm.boundingRect(rect, flags, shown + "…").height() <= rect.height() + 0.5:
            return shown + "…"
    return fm.elidedText(text, Qt.TextElideMode.ElideRight, rect.width())


class HandsStrip(QWidget):
    """Every player's hand, face up, one row per player (presenter view: all hands revealed).

    Each card has its name under it in ``caption_px`` pixels (the presenter sets it from the
    window's height: 24 px at 1080p), so it reads from the back of a room; cards shrink to fit
    their row rather than overlap one another or their captions."""

    GAP = 8.0

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.rows: list[tuple[int, QRectF, list[CardDraw]]] = []
        self.caption_rects: list[tuple[QRectF, str]] = []
        self.label_rects: list[QRectF] = []
        self.caption_px = 14.0
        self.setMinimumHeight(90)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        controller.changed.connect(self.update)

    def records(self) -> list[CardDraw]:
        self.layout_hands()
        return [d for _p, _r, cards in self.rows for d in cards]

    def label_width(self, cell: QRectF) -> float:
        return min(max(150.0, self.caption_px * 6), cell.width() * 0.22)

    def layout_hands(self) -> None:
        """Cards with their names under them; when a row is too short for readable cards (many
        players on a small screen), the names alone, as chips, and "+N" for what does not fit."""
        from PySide6.QtGui import QFontMetricsF

        self.rows = []
        self.caption_rects = []
        self.label_rects = []
        self.names_only = False
        g = self.controller.game
        if g is None:
            return
        players = [i for i, p in enumerate(g.state.players)]
        if not players:
            return
        v = self.controller.table_view()
        self._hands = [sv.hand for sv in v.players]
        cols = 1 if len(players) == 1 else 2 if len(players) <= 4 else 3
        nrows = (len(players) + cols - 1) // cols
        cell_w = self.width() / cols
        cell_h = self.height() / max(1, nrows)
        fm = QFontMetricsF(pixel_font(self.caption_px, bold=True))
        line = fm.lineSpacing()
        cap_h = line * 2 + 2  # two lines of name
        gap = self.GAP
        card_h = cell_h - cap_h - 3 * gap
        self.names_only = card_h < max(40.0, self.caption_px * 2.5)
        for k, p in enumerate(players):
            r, c = divmod(k, cols)
            cell = QRectF(c * cell_w, r * cell_h, cell_w, cell_h)
            label_w = self.label_width(cell)
            self.label_rects.append(QRectF(cell.x() + 10, cell.y(), label_w - 14, cell_h))
            hand = [cv.uid for cv in self._hands[p] if cv.known]  # faces the room may see
            names = [texts.card_name(g.db.cards[g.state.cards[uid]]) for uid in hand]
            left = cell.x() + label_w
            avail_w = cell.right() - left - gap
            if len(hand) < len(self._hands[p]):  # a hidden hand: its label gives the count only
                self.rows.append((p, cell, []))
                continue
            cards: list[CardDraw] = []
            if self.names_only:
                chip_h = line + 4
                x, y = left, cell.y() + gap / 2
                for j, (uid, name) in enumerate(zip(hand, names)):
                    chip_w = min(avail_w, fm.horizontalAdvance(name) + self.caption_px)
                    if x + chip_w > left + avail_w + 0.5:
                        x, y = left, y + chip_h + gap / 2
                    rest = len(hand) - j
                    more_w = fm.horizontalAdvance(f"+{rest}") + self.caption_px
                    last_row = y + 2 * chip_h + gap / 2 > cell.bottom()
                    if y + chip_h > cell.bottom() or (last_row and rest > 1
                                                      and x + chip_w + more_w > left + avail_w):
                        # what does not fit: "+N" (in place of the last chip if need be)
                        while cards and (x + more_w > left + avail_w + 0.5
                                         or y + chip_h > cell.bottom()):
                            last = cards.pop()
                            x, y = last.rect.x(), last.rect.y()
                            rest += 1
                            more_w = fm.horizontalAdvance(f"+{rest}") + self.caption_px
                        self.caption_rects.append((QRectF(x, y, more_w, chip_h), f"+{rest}"))
                        break
                    rect = QRectF(x, y, chip_w, chip_h)
                    cards.append(CardDraw("hand", uid, g.state.cards[uid], p, None, 0, True, rect))
                    x += chip_w + gap / 2
                self.rows.append((p, cell, cards))
                continue
            h = card_h
            w = h / CARD_RATIO
            n = len(hand)
            slot = w
            if n:
                most = avail_w / n - gap
                slot = max(w, min(most, self.caption_px * 7))  # room for the name
                # a name that would be cut ("Encounter with a Serv…") widens the slots, as far as
                # the row has room (a short hand leaves plenty)
                flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.TextFlag.TextWordWrap)
                while slot + 1 < most and any(
                        fm.boundingRect(QRectF(0, 0, slot, 10_000), flags, name).height() > cap_h + 0.5
                        for name in names):
                    slot = min(most, slot + self.caption_px)
                if n * (slot + gap) > avail_w:  # too many: shrink the cards, never overlap them
                    slot = max(4.0, avail_w / n - gap)
                w = min(w, slot)
                h = w * CARD_RATIO
            top = cell.y() + gap
            for j, (uid, name) in enumerate(zip(hand, names)):
                x = left + j * (slot + gap)
                card_rect = QRectF(x + (slot - w) / 2, top, w, h)
                cards.append(CardDraw("hand", uid, g.state.cards[uid], p, None, 0, True, card_rect))
                self.caption_rects.append((QRectF(x, top + h + gap / 2, slot, cap_h), name))
            self.rows.append((p, cell, cards))

    def _chip(self, painter: QPainter, d: CardDraw, g: Any) -> None:
        """A card as its name alone, on a chip of its kind's colour."""
        from fate_royal.qt.art import PALETTE

        card = g.db.cards[d.card_id]
        colour = QColor(PALETTE.get(card.kind, PALETTE["hero"])[1])
        painter.save()
        painter.setPen(QColor("#6b5237"))
        painter.setBrush(colour.darker(260))
        painter.drawRoundedRect(d.rect, 4, 4)
        painter.setPen(QColor("#fff6e2"))
        painter.setFont(pixel_font(self.caption_px, bold=True))
        painter.drawText(d.rect, int(Qt.AlignmentFlag.AlignCenter), texts.card_name(card))
        painter.restore()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        try:
            paint_hand_strip(painter, self)
            self.layout_hands()
            g = self.controller.game
            for (p, cell, cards), label_rect in zip(self.rows, self.label_rects):
                pl = g.state.players[p]
                px = max(10.0, min(self.caption_px * 1.1, cell.height() * 0.16))
                painter.setFont(pixel_font(px, bold=True))
                painter.setPen(QColor("#e8c36a") if p == g.state.turn_player else QColor("#f4ecdc"))
                label = f"{pl.name}\n{texts.tr_or('player.hand_count', '{count}', count=len(pl.hand))}"
                painter.drawText(label_rect, int(Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap),
                                 label)
                if not cards and not pl.hand:
                    painter.setPen(QColor("#8a7f70"))
                    painter.drawText(cell.adjusted(label_rect.width() + 14, 0, 0, 0),
                                     int(Qt.AlignmentFlag.AlignVCenter), t("rulings.hands.empty"))
                for d in cards:
                    if self.names_only:
                        self._chip(painter, d, g)
                    elif d.rect.width() >= 12:  # smaller, a face would be a smudge
                        draw_card(painter, d, g, 1.0, dim=pl.out)
            font = pixel_font(self.caption_px, bold=True)
            painter.setFont(font)
            painter.setPen(QColor("#fff6e2"))
            for rect, name in self.caption_rects:
                painter.save()
                painter.setClipRect(rect)  # a long name never runs into its neighbour
                painter.drawText(rect, int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop
                                           | Qt.TextFlag.TextWordWrap), fit_caption(font, name, rect))
                painter.restore()
        finally:
            painter.end()
