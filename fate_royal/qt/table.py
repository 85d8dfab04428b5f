"""The table: seats around a felt, the centre piles, and the deciding player's hand.

Both views are custom-painted widgets that lay themselves out in a *virtual* canvas (at least
1150 x 860 units) scaled uniformly to the widget, so the same layout serves a laptop and a projector.
A layout pass produces ``CardDraw`` records — every card drawn, with its state, rotation and whether
its face is shown — which the paint pass draws and which hit-testing, tooltips and tests read.

The views only observe, and they draw only from the player view of whoever is looking
(``controller.table_view()``: ``fate_royal.rules.view``) — a card whose face that seat may not see
is not even known to the table widget. Clicks are handed to the window, which asks the controller
for actions.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

from PySide6.QtCore import QPoint, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor, QFontMetricsF, QImage, QLinearGradient, QPainter, QPainterPath, QPen, QPixmap,
    QRadialGradient,
)
from PySide6.QtWidgets import QSizePolicy, QToolTip, QWidget

from fate_royal.qt.compat import emit
from fate_royal.qt import art, texts
from fate_royal.qt.fonts import pixel_font
from fate_royal.qt.i18n import current_language, tr
from fate_royal.qt.zoom import ZoomTarget
from fate_royal.text.words import one_name

CARD_RATIO = 880.0 / 630.0
VIRTUAL_W, VIRTUAL_H = 1150.0, 860.0

#: Seat boxes, in seat order, as anchors in [0, 1]: 0 = left/top edge, 1 = right/bottom edge.
#: Seat 0 sits at the bottom; the others follow clockwise (left, top, right).
SEAT_ANCHORS: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 1.0), (0.5, 0.0)],
    3: [(0.5, 1.0), (0.0, 0.0), (1.0, 0.0)],
    4: [(0.0, 1.0), (0.0, 0.0), (1.0, 0.0), (1.0, 1.0)],  # the corners: the centre gets the height
    5: [(0.5, 1.0), (0.0, 0.62), (0.2, 0.0), (0.8, 0.0), (1.0, 0.62)],
    6: [(0.5, 1.0), (0.0, 0.76), (0.0, 0.1), (0.5, 0.0), (1.0, 0.1), (1.0, 0.76)],
    7: [(0.5, 1.0), (0.0, 0.87), (0.0, 0.37), (0.3, 0.0), (0.7, 0.0), (1.0, 0.37), (1.0, 0.87)],
}
CENTRE_MIN_W = 430.0  # the centre's width when seats stand on both sides of it
#: Where the seats leave it room (two players, a narrow table), the centre is drawn larger, up to this.
CENTRE_ZOOM_MAX = 1.6
SEAT_SCALE = {2: 1.3, 3: 1.18, 4: 1.08, 5: 1.0, 6: 0.96, 7: 0.92}
SEAT_SCALE_THREE_MAX = 1.4  # three players on a wide table grow up to this (the centre keeps room)
#: Two players on a wide table: seat 0 left of the centre, seat 1 right of it, each up to this scale.
SEAT_ANCHORS_SIDE_BY_SIDE = [(0.0, 0.5), (1.0, 0.5)]
SEAT_SCALE_SIDE_BY_SIDE = 1.9
CENTRE_SIDE_BY_SIDE_W = 560.0  # the centre between them keeps room for the step track's words
#: Two players in a row under the centre (most windows): the lane the combat arrow crosses between them.
ROW_LANE = 90.0
BOX_W, BOX_H = 344.0, 238.0
MARGIN = 10.0
#: Inside a seat box (its own units): the servant's cards, the mystic codes' cards, where cards start.
SERVANT_W, CODE_W, CARDS_TOP = 86.0, 70.0, 28.0
SERVANT_AREA_W = 6.0 + 2 * (SERVANT_W + 6.0)  # two upright servant cards
ROW_STATS = CARDS_TOP + SERVANT_W * 880.0 / 630.0 + 3.0  # the line under the servant

PILE_W = 64.0  # the centre piles' cards
#: The centre block's height during a combat (banner, step and process tracks, piles, summary, notes)
CENTRE_H_COMBAT = 30 + 6 + 26 + 8 + 30 + PILE_W * CARD_RATIO + 24 + 10 + 62 + 24 + 36

ROTATION = {"rise": 0, "reverse": 0, "down": 90, "danger": 180}

GOLD = QColor("#e8c36a")
CYAN = QColor("#5fd4ff")
RAID = QColor("#ff5a4f")
ARROW_HEAD = 34.0  # the combat arrow head's length, in table units
NOTE_PX, NOTE_MIN_PX, NOTE_LINE = 14.0, 12.0, 20.0  # the centre's note: size, smallest, line height
BANNER_PX, BANNER_MIN_PX, BANNER_LINE = 21.0, 16.0, 26.0  # the centre's banner: the same
GUARD = QColor("#6fa8ff")
TEXT = QColor("#f4ecdc")
TEXT_DIM = QColor("#c9bda6")
PLAYABLE = QColor("#7dffb0")


@dataclass
class CardDraw:
    """One card as drawn: what it is (if its face is shown), its state and orientation, where."""

    role: str  # hero | class | code | hand | hand_back | deck | discard | grail
    uid: int | None
    card_id: str | None  # None when drawn face down to the viewer
    owner: int | None
    state: str | None
    rotation: int  # 0 rise/reverse, 90 down, 180 danger
    face_up: bool
    rect: QRectF  # the unrotated card rect (virtual units); its centre is the pivot
    playable: bool = False

    @property
    def bounds(self) -> QRectF:
        """The rect the card covers after rotation (for hit-testing)."""
        if self.rotation % 180 == 90:
            c = self.rect.center()
            w, h = self.rect.height(), self.rect.width()
            return QRectF(c.x() - w / 2, c.y() - h / 2, w, h)
        return QRectF(self.rect)


@dataclass
class SeatLayout:
    player: int
    rect: QRectF  # virtual units
    scale: float
    cards: list[CardDraw] = field(default_factory=list)
    codes_x: float = 0.0  # where the mystic codes' fan begins (seat units)


@dataclass
class Hotspot:
    """A clickable area that is not a card (a pile, a seat's name plate)."""

    kind: str  # deck | discard | grail | seat
    rect: QRectF
    player: int | None = None


# --------------------------------------------------------------------------- card painting cache


class CardImages:
    """Rendered card faces and backs, cached per card and pixel size (SVG rendering is slow)."""

    def __init__(self) -> None:
        self._cache: dict[tuple, tuple[Any, QPixmap]] = {}

    def face(self, card: Any, w: int, h: int, lang: str, db: Any = None) -> QPixmap:
        key = ("f", id(card), w, h, lang)
        entry = self._cache.get(key)
        # the entry keeps its card alive, so no other card (a reloaded or edited one) can ever
        # come to have the same id() while the entry exists
        if entry is None or entry[0] is not card:
            if len(self._cache) > 600:
                self._cache.clear()
            img = art.render_card_image(card, QSize(max(w, 2), max(h, 2)), lang=lang, db=db)
            entry = (card, QPixmap.fromImage(img))
            self._cache[key] = entry
        return entry[1]

    def back(self, w: int, h: int) -> QPixmap:
        key = ("b", w, h)
        entry = self._cache.get(key)
        if entry is None:
            img = QImage(QSize(max(w, 2), max(h, 2)), QImage.Format.Format_ARGB32_Premultiplied)
            img.fill(Qt.GlobalColor.transparent)
            p = QPainter(img)
            art.paint_card_back(p, QRectF(0, 0, img.width(), img.height()))
            p.end()
            entry = (None, QPixmap.fromImage(img))
            self._cache[key] = entry
        return entry[1]


IMAGES = CardImages()


def paint_hand_strip(painter: QPainter, widget: QWidget) -> None:
    """The wooden strip behind a row of hand cards (the hand view, the presenter's hands)."""
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                           | QPainter.RenderHint.SmoothPixmapTransform)
    grad = QLinearGradient(0, 0, 0, widget.height())
    grad.setColorAt(0, QColor("#2a1c14"))
    grad.setColorAt(1, QColor("#140d09"))
    painter.fillRect(widget.rect(), grad)
    painter.setPen(QPen(QColor(232, 195, 106, 120), 2))
    painter.drawLine(0, 1, widget.width(), 1)


def _rect_exit(rect: QRectF, dx: float, dy: float) -> float:
    """How far a ray from the rectangle's centre in the unit direction (dx, dy) runs inside it."""
    ts = []
    if abs(dx) > 1e-9:
        ts.append(rect.width() / 2 / abs(dx))
    if abs(dy) > 1e-9:
        ts.append(rect.height() / 2 / abs(dy))
    return min(ts) if ts else 0.0


def _blit(painter: QPainter, virtual_top_left: QPointF, pm: QPixmap, scale: float, dpr: float) -> None:
    """Draw a pixmap rendered at device resolution 1:1 (no resampling) at a virtual-unit point of a
    painter scaled by ``scale``: far cheaper than letting drawPixmap scale it into a rect."""
    painter.save()
    painter.resetTransform()
    pm.setDevicePixelRatio(dpr)
    painter.drawPixmap(QPointF(round(virtual_top_left.x() * scale * dpr) / dpr,
                               round(virtual_top_left.y() * scale * dpr) / dpr), pm)
    painter.restore()


def draw_card(painter: QPainter, d: CardDraw, game: Any, scale: float, dim: bool = False) -> None:
    """Paint one card record: face or back, rotated about its centre, with state marks."""
    r = d.rect
    w_px = max(2, round(r.width() * scale * painter.device().devicePixelRatioF()))
    h_px = max(2, round(r.height() * scale * painter.device().devicePixelRatioF()))
    painter.save()
    c = r.center()
    painter.translate(c)
    painter.rotate(d.rotation)
    local = QRectF(-r.width() / 2, -r.height() / 2, r.width(), r.height())
    # shadow
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(0, 0, 0, 90))
    painter.drawRoundedRect(local.translated(2.5, 3), r.width() * 0.06, r.width() * 0.06)
    if d.face_up and d.card_id is not None and d.card_id in game.db.cards:
        pm = IMAGES.face(game.db.cards[d.card_id], w_px, h_px, current_language(), game.db)
    else:
        pm = IMAGES.back(w_px, h_px)
    painter.drawPixmap(local, pm, QRectF(pm.rect()))
    if d.face_up and d.state == "reverse":
        # the owner sees their own face-down card: veil it and say so
        painter.setBrush(QColor(20, 10, 40, 70))
        painter.drawRoundedRect(local, r.width() * 0.06, r.width() * 0.06)
        band = QRectF(local.left(), local.bottom() - local.height() * 0.2, local.width(), local.height() * 0.16)
        painter.setBrush(QColor(40, 24, 80, 215))
        painter.drawRect(band)
        painter.setPen(TEXT)
        painter.setFont(pixel_font(max(6.0, local.width() * 0.17), bold=True))
        painter.drawText(band, Qt.AlignmentFlag.AlignCenter, texts.state_text("reverse"))
    if d.playable:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(PLAYABLE, max(1.5, r.width() * 0.04)))
        painter.drawRoundedRect(local.adjusted(-1.5, -1.5, 1.5, 1.5), r.width() * 0.07, r.width() * 0.07)
    if dim:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(60, 60, 60, 150))
        painter.drawRoundedRect(local, r.width() * 0.06, r.width() * 0.06)
    painter.restore()


def _text(painter: QPainter, rect: QRectF, text: str, px: float, color: QColor = TEXT, *,
          bold: bool = False, align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
          elide: bool = True) -> None:
    font = pixel_font(px, bold=bold)
    painter.setFont(font)
    painter.setPen(color)
    if elide:
        text = painter.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(1, int(rect.width())))
    painter.drawText(rect, int(align), text)


def _fit_text(painter: QPainter, rect: QRectF, text: str, px: float, color: QColor = TEXT, *,
              bold: bool = False,
              align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
              min_px: float = 7.0) -> None:
    """One line of text shrunk (down to ``min_px``) until it fits ``rect``; only then elided
    with "…" (never cut mid-word without the mark)."""
    size = px
    while size > min_px and QFontMetricsF(pixel_font(size, bold=bold)).horizontalAdvance(text) > rect.width():
        size -= 0.5
    _text(painter, rect, text, size, color, bold=bold, align=align)


def _badge_width(text: str, px: float = 11.5) -> float:
    """The width ``_badge`` gives a label."""
    return QFontMetricsF(pixel_font(px, bold=True)).horizontalAdvance(text) + px * 1.1


def _badge(painter: QPainter, right: float, top: float, text: str, color: QColor, px: float = 11.5) -> float:
    """A rounded label ending at ``right``; returns its left edge."""
    font = pixel_font(px, bold=True)
    painter.setFont(font)
    w = painter.fontMetrics().horizontalAdvance(text) + px * 1.1
    rect = QRectF(right - w, top, w, px * 1.7)
    painter.setPen(Qt.PenStyle.NoPen)
    fill = QColor(color)
    fill.setAlpha(220)
    painter.setBrush(fill)
    painter.drawRoundedRect(rect, rect.height() / 2, rect.height() / 2)
    painter.setPen(QColor("#14100c"))
    painter.drawText(rect, int(Qt.AlignmentFlag.AlignCenter), text)
    return rect.left()


# --------------------------------------------------------------------------- what an action points at


@dataclass(frozen=True)
class ActionMarks:
    """What an action uses and aims at: its own card(s), the players and cards it targets, the
    stack entries (0-based) it answers."""

    cards: frozenset = frozenset()
    players: frozenset = frozenset()
    targets: frozenset = frozenset()
    stack: frozenset = frozenset()


def action_marks(game: Any, action: Any) -> ActionMarks:
    from fate_royal.rules.actions import (
        ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, PlayCard, UseEffect,
    )

    if isinstance(action, (DeclareRaid, ChooseEncounterTarget)):
        return ActionMarks(players=frozenset({action.target}))
    if isinstance(action, (PlayCard, Discard)):
        return ActionMarks(cards=frozenset({action.card}))
    if isinstance(action, CommandSpell):
        if action.spell == "negate":
            return ActionMarks(stack=frozenset({action.target}))
        return ActionMarks(players=frozenset({action.target}))
    if isinstance(action, UseEffect):
        try:
            kind = game.card_of(action.card).effects[action.effect - 1].target.kind
        except Exception:
            kind = ""
        tg = tuple(action.targets or ())
        if kind in ("servant", "player", "dropped_player"):
            return ActionMarks(cards=frozenset({action.card}), players=frozenset(tg))
        if kind == "card":
            return ActionMarks(cards=frozenset({action.card}), targets=frozenset(tg))
        if kind == "stack_effect":
            return ActionMarks(cards=frozenset({action.card}), stack=frozenset(tg))
        return ActionMarks(cards=frozenset({action.card}))
    return ActionMarks()


_GLOWS: dict[tuple, QPixmap] = {}


def _glow(painter: QPainter, rect: QRectF, colour: QColor, radius: float, width: float = 1.0) -> None:
    """A soft coloured outline around ``rect`` (virtual units of a painter scaled to pixels),
    drawn once per size and colour into a pixmap: wide antialiased strokes are slow to paint."""
    t = painter.worldTransform()
    k = t.m11() if abs(t.m12()) < 1e-6 else math.hypot(t.m11(), t.m12())
    dpr = painter.device().devicePixelRatioF() if painter.device() is not None else 1.0
    px = max(0.01, k * dpr)
    pad = 6 * width
    w, h = round((rect.width() + 2 * pad) * px), round((rect.height() + 2 * pad) * px)
    key = (w, h, colour.rgba(), round(radius, 1), round(width, 2), round(px, 3))
    pm = _GLOWS.get(key)
    if pm is None:
        if len(_GLOWS) > 64:
            _GLOWS.clear()
        pm = QPixmap(max(1, w), max(1, h))
        pm.fill(Qt.GlobalColor.transparent)
        p2 = QPainter(pm)
        p2.setRenderHint(QPainter.RenderHint.Antialiasing)
        p2.scale(px, px)
        inner = QRectF(pad, pad, rect.width(), rect.height())
        glow = QColor(colour)
        p2.setBrush(Qt.BrushStyle.NoBrush)
        for spread, alpha in ((10 * width, 50), (5 * width, 110), (2.2 * width, 255)):
            glow.setAlpha(alpha)
            p2.setPen(QPen(glow, spread))
            p2.drawRoundedRect(inner, radius, radius)
        p2.end()
        _GLOWS[key] = pm
    # drawn 1:1 in device pixels (a scaled, smoothed pixmap draw is many times slower)
    top_left = t.map(QPointF(rect.x() - pad, rect.y() - pad))
    painter.save()
    painter.resetTransform()
    pm.setDevicePixelRatio(dpr)
    painter.drawPixmap(QPointF(round(top_left.x() * dpr) / dpr, round(top_left.y() * dpr) / dpr), pm)
    painter.restore()


HIGHLIGHT = QColor("#ffe066")  # the hovered action's card and targets
LAST = QColor("#ff9ad5")  # the last action taken
PICK = QColor("#7dffb0")  # a target that may be clicked


# --------------------------------------------------------------------------- pointing at cards


class CardPointer:
    """What the table and the hand share: hovering a card (or pressing and holding it) asks for
    the zoom (``zoom_card(ZoomTarget | None, window point)``); a short press is a click, handled
    on release by ``click_at``. Subclasses provide ``card_at``, ``relayout`` and ``click_at``."""

    HOLD_MS = 450

    def _init_pointer(self) -> None:
        self._hold = QTimer(self)
        self._hold.setSingleShot(True)
        self._hold.setInterval(self.HOLD_MS)
        self._hold.timeout.connect(self._held)
        self._press: tuple[QPointF, QPointF] | None = None
        self._was_held = False
        self._zoomed: tuple | None = None

    @staticmethod
    def _key(d: CardDraw | None) -> tuple | None:
        return None if d is None else (d.role, d.uid, d.card_id, d.owner)

    def zoom_at(self, pos: QPointF) -> bool:
        """Ask for the zoom of the card at ``pos`` (widget coordinates); False if none shows."""
        self.relayout()
        d = self.card_at(pos)
        if d is None or not d.face_up or d.card_id is None:
            return False
        self._zoomed = self._key(d)
        target = ZoomTarget(d.card_id, d.owner, d.role, d.state, d.uid)
        emit(self.zoom_card, target, self.mapTo(self.window(), pos.toPoint()))
        return True

    # the Qt event overrides both views share (the mixin comes before QWidget in their bases)

    def mousePressEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.pointer_press(event)

    def mouseReleaseEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.pointer_release(event)

    def mouseMoveEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.pointer_move(event)

    def leaveEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.unzoom()
        super().leaveEvent(event)

    def event(self, ev: Any) -> bool:
        if ev.type() == ev.Type.ToolTip:
            self.pointer_tooltip(ev)
            return True
        return super().event(ev)

    def unzoom(self) -> None:
        if self._zoomed is not None:
            self._zoomed = None
            emit(self.zoom_card, None, QPoint())

    def _held(self) -> None:
        if self._press is not None and self.zoom_at(self._press[0]):
            self._was_held = True

    def pointer_press(self, event: Any) -> None:
        self._press = (event.position(), event.globalPosition())
        self._was_held = False
        self._hold.start()

    def pointer_release(self, event: Any) -> None:
        self._hold.stop()
        press, self._press = self._press, None
        if self._was_held:  # press and hold was for looking: no click
            self._was_held = False
            self.unzoom()
            return
        if press is not None:
            self.click_at(press[0], press[1])

    def pointer_move(self, event: Any) -> None:
        pos = event.position()
        if self._press is not None and (pos - self._press[0]).manhattanLength() > 10:
            self._hold.stop()
        if self._zoomed is not None and not self._was_held:
            if self._key(self.card_at(pos)) != self._zoomed:
                self.unzoom()

    def pointer_tooltip(self, ev: Any) -> None:
        """A hover long enough for a tooltip: the zoom for a face, a tooltip for anything else."""
        self.relayout()
        if not self.zoom_at(QPointF(ev.pos())):
            show_card_tooltip(self, ev)


# --------------------------------------------------------------------------- the table view


class TableView(CardPointer, QWidget):
    """Seats, centre piles, step and combat. Emits ``card_clicked(uid, global pos)`` and
    ``pile_clicked(kind)``; never changes the game itself."""

    card_clicked = Signal(int, QPointF)
    seat_clicked = Signal(int, QPointF)  # a face-down card: its owner
    pile_clicked = Signal(str)
    zoom_card = Signal(object, QPoint)  # ZoomTarget or None (hide), window coordinates
    target_picked = Signal(object)  # the action whose target was clicked (pick mode)
    #: Once, after the first frame that shows a game (start-up builds the rest of the window then).
    first_painted = Signal()

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._painted_once = False  # a frame showing a game has been painted (first_painted)
        self.setMouseTracking(True)
        # paintEvent covers every pixel (the felt first): Qt need not clear the widget beforehand
        self.setAttribute(Qt.WidgetAttribute.WA_OpaquePaintEvent)
        self.setMinimumSize(480, 320)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.seats: list[SeatLayout] = []
        self.centre_cards: list[CardDraw] = []
        self.hotspots: list[Hotspot] = []
        self._scale = 1.0
        self._vw, self._vh = VIRTUAL_W, VIRTUAL_H
        self._seat_cache: dict[tuple, QPixmap] = {}
        self._felt: QPixmap | None = None
        #: the centre block is laid out in its own units (``centre_geo``), drawn ``centre_zoom`` times
        #: as large about ``centre_origin`` (virtual units); its cards and piles are kept in both
        self.centre_geo: dict = {}
        self.centre_zoom = 1.0
        self.centre_origin = QPointF()
        self._centre_local: list[CardDraw] = []  # centre_cards in the centre's own units
        self._pile_rects: dict[str, QRectF] = {}  # each pile's card place, in the centre's units
        self._init_pointer()
        self.highlight: Any = None  # the action whose card and targets glow (hovered button)
        self.show_last = True  # mark the last action's card and targets
        self.pick: list = []  # actions waiting for their target to be clicked on the table
        #: short animations of what changed (≤ ANIM_MS, drawn over the table; input never waits)
        self.animate = True
        self.effects: list[tuple] = []  # (kind, rect or None, text, colour, start seconds)
        self._snapshot: tuple | None = None
        self._anim_timer = QTimer(self)
        self._anim_timer.setInterval(16)
        self._anim_timer.timeout.connect(self._anim_tick)
        controller.changed.connect(self._observe_change)
        controller.changed.connect(self.update)

    # --- layout --------------------------------------------------------------------------------

    def _metrics(self) -> None:
        w, h = max(1, self.width()), max(1, self.height())
        self._scale = min(w / VIRTUAL_W, h / VIRTUAL_H)
        self._vw, self._vh = w / self._scale, h / self._scale

    def records(self) -> list[CardDraw]:
        """Every card drawn on the table now (runs the layout pass; no painting needed)."""
        self.layout_table()
        return [d for s in self.seats for d in s.cards] + list(self.centre_cards)

    def layout_table(self) -> None:
        g = self.controller.game
        key = (id(g), getattr(g, "version", None), self.controller.private_viewer(), self.width(),
               self.height(), self.controller.read_only, self.controller.handoff_needed(),
               id(getattr(self.controller, "prompt", None)),
               self.controller.cards_shown())
        if g is not None and key == self.__dict__.get("_layout_key"):
            return  # the same position seen by the same seat at the same size: laid out already
        self._layout_key = key
        self._metrics()
        self.seats, self.centre_cards, self.hotspots = [], [], []
        self._centre_local, self._pile_rects = [], {}
        self.v = None
        if g is None:
            return
        v = self.controller.table_view()
        self.v = v
        n = len(v.players)
        anchors = SEAT_ANCHORS.get(n) or SEAT_ANCHORS[7]
        k = SEAT_SCALE.get(n, 0.86)
        row: list[float] | None = None  # two seats in a row under the centre: their left edges
        if n == 2:  # a seat above and one below the centre: all three must fit the height …
            k = min(k, (self._vh - 2 * MARGIN - 16 - CENTRE_H_COMBAT) / (2 * BOX_H))
            # … or, where that is clearly larger, the two seats in a row under the centre (a lane
            # between them for the combat arrow), or (a projector, a wide window) a seat either
            # side of the centre: whichever lets the cards be larger
            in_row = min((self._vw - 2 * MARGIN - ROW_LANE) / (2 * BOX_W),
                         (self._vh - 2 * MARGIN - 16 - CENTRE_H_COMBAT) / BOX_H, SEAT_SCALE_SIDE_BY_SIDE)
            side = min((self._vw - 2 * MARGIN - CENTRE_SIDE_BY_SIDE_W) / (2 * BOX_W),
                       (self._vh - 2 * MARGIN) / BOX_H, SEAT_SCALE_SIDE_BY_SIDE)
            if side >= in_row and side > k * 1.15:
                k, anchors = side, SEAT_ANCHORS_SIDE_BY_SIDE
            elif in_row > k * 1.15:
                k = in_row
                lane = min(self._vw - 2 * MARGIN - 2 * BOX_W * k, max(ROW_LANE, 0.1 * self._vw))
                left = (self._vw - 2 * BOX_W * k - lane) / 2
                row = [left, left + BOX_W * k + lane]
        elif n == 3:  # the two upper seats in the corners, the centre between them as wide as it
            # needs (as large as the width allows: a wide window, the presenter) …
            k = (self._vw - 2 * MARGIN - CENTRE_MIN_W - 28) / (2 * BOX_W)
            # … or, on a squarer table, the centre under them where they reach into its column
            under = (self._vh - 2 * MARGIN - 36 - CENTRE_H_COMBAT) / (2 * BOX_H)
            if under > k and MARGIN + BOX_W * under > self._vw / 2 - 200:
                k = under
            k = min(k, SEAT_SCALE_THREE_MAX)
        elif n == 4:  # two seats a side, the centre between them: as large as the width allows
            k = min((self._vw - 2 * MARGIN - CENTRE_MIN_W) / (2 * BOX_W),
                    (self._vh - 2 * MARGIN - 12) / (2 * BOX_H), 1.3)
        bw, bh = BOX_W * k, BOX_H * k
        playable = {getattr(a, "card", None) for a in self.controller.legal_actions()}
        for i in range(n):
            ax, ay = anchors[i % len(anchors)]
            x = MARGIN + ax * (self._vw - 2 * MARGIN - bw)
            y = MARGIN + ay * (self._vh - 2 * MARGIN - bh)
            if row is not None:
                x, y = row[i], self._vh - MARGIN - bh
            seat = SeatLayout(i, QRectF(x, y, bw, bh), k)
            self._layout_seat(v, seat, playable)
            self.seats.append(seat)
            self.hotspots.append(Hotspot("seat", seat.rect, i))
        self._layout_centre(v, bw, bh)

    def _local(self, seat: SeatLayout, x: float, y: float, w: float, h: float) -> QRectF:
        k = seat.scale
        return QRectF(seat.rect.x() + x * k, seat.rect.y() + y * k, w * k, h * k)

    def _layout_seat(self, v: Any, seat: SeatLayout, playable: set) -> None:
        sv = v.players[seat.player]
        i = seat.player
        sst = sv.hero.state if sv.hero is not None else None
        rot = ROTATION.get(sst or "rise", 0)
        cw, ch = SERVANT_W, SERVANT_W * CARD_RATIO
        # a Down servant lies sideways: each slot is as wide as the card is tall
        slot_w = ch if rot == 90 else cw
        x = 6.0
        for role, cv in (("hero", sv.hero), ("class", sv.klass)):
            if cv is not None:
                cx, cy = x + slot_w / 2, CARDS_TOP + ch / 2
                rect = self._local(seat, cx - cw / 2, cy - ch / 2, cw, ch)
                seat.cards.append(CardDraw(role, cv.uid, cv.card_id, i, cv.state, rot, cv.known, rect,
                                           cv.uid is not None and cv.uid in playable))
            x += slot_w + 6.0
        seat.codes_x = max(x, SERVANT_AREA_W)
        # mystic codes and face-down scenes: a fan at the right
        codes = list(sv.seat)
        if codes:
            area_x = seat.codes_x
            area_w = BOX_W - 6.0 - area_x
            n = len(codes)
            # a Down code lies sideways: its footprint is as wide as the card is tall. Side by side
            # when they fit at a readable size; else a fan in which each card but the last still
            # shows 40 % of its footprint (a sideways code was hidden under the next card)
            units = [CARD_RATIO if cv.state == "down" else 1.0 for cv in codes]
            fit = (area_w - 6.0 * (n - 1)) / sum(units)
            side_by_side = fit >= CODE_W * 0.55
            if side_by_side:
                cw2, shown, gap = min(CODE_W, fit), 1.0, 6.0
            else:
                cw2, shown, gap = min(CODE_W, area_w / (0.4 * sum(units[:-1]) + units[-1])), 0.4, 0.0
            ch2 = cw2 * CARD_RATIO
            left = area_x
            for cv, unit in zip(codes, units):
                st = cv.state or "rise"
                own = cw2 * unit
                centre_x = left + own / 2
                left += own * shown + gap
                r = self._local(seat, centre_x - cw2 / 2, CARDS_TOP + 4.0, cw2, ch2)
                seat.cards.append(CardDraw("code", cv.uid, cv.card_id, i, st,
                                           90 if st == "down" else 0, cv.known, r,
                                           cv.uid is not None and cv.uid in playable))

    @staticmethod
    def banner_lines(v: Any, width: float) -> list[str]:
        """The centre's banner, "turn N · whose turn": one line, shrunk a little if need be, else
        the turn and the player's turn on a line each (a long name is never cut)."""
        turn, whose = tr("turn.number", number=v.turn), tr("turn.of", name=v.players[v.turn_player].name)
        one = turn + " ・ " + whose
        if QFontMetricsF(pixel_font(BANNER_MIN_PX, bold=True)).horizontalAdvance(one) <= width:
            return [one]
        return [turn, whose]

    def _layout_centre(self, v: Any, bw: float, bh: float) -> None:
        """Place the centre block (banner, step track, piles, combat, notices) in the free middle."""
        cx, cy = self._vw / 2, self._vh / 2
        top, bottom = MARGIN, self._vh - MARGIN
        limits = []
        for seat in self.seats:  # seats above or below the middle bound it vertically
            r = seat.rect
            if r.right() > cx - 200 and r.left() < cx + 200:
                if r.center().y() < cy:
                    top = max(top, r.bottom())
                else:
                    bottom = min(bottom, r.top())
        for seat in self.seats:  # seats beside the middle bound it horizontally
            r = seat.rect
            if r.right() > cx - 200 and r.left() < cx + 200:
                continue
            if r.bottom() > top + 20 and r.top() < bottom - 20:
                if r.right() < cx:
                    limits.append(cx - r.right())
                elif r.left() > cx:
                    limits.append(r.left() - cx)
        # drawn larger where the free middle allows it: as tall as a combat's centre needs, as
        # wide as the narrowest centre the seats beside it leave (the same zoom in and out of combat)
        zoom = min(CENTRE_ZOOM_MAX, (bottom - top - 48) / CENTRE_H_COMBAT,
                   (self._vw / 2 - MARGIN - 14) / 300.0,
                   *[(x - 14) / (CENTRE_MIN_W / 2) for x in limits])
        zoom = max(1.0, zoom)
        half = min([300.0] + [(x - 14) / zoom for x in limits])
        cw = PILE_W
        ch = cw * CARD_RATIO
        combat = v.combat is not None
        height = CENTRE_H_COMBAT - (0 if combat else 30 + 62)
        y0 = top + max(8.0, (bottom - top - height * zoom) / 2)
        banner = self.banner_lines(v, 2 * half)
        extra = BANNER_LINE * (len(banner) - 1)  # a long name: the banner takes two lines
        y0 = max(top + 4.0, y0 - extra * zoom / 2)
        self.centre_zoom, self.centre_origin = zoom, QPointF(cx, y0)
        # the process track (seven pills) reaches a little beyond the centre where no seat is near
        reach = min([20.0] + [max(0.0, (x - 8) / zoom - half) for x in limits])
        geo = {"x": cx - half, "w": 2 * half, "banner": y0, "track": y0 + 36 + extra, "reach": reach}
        y = y0 + 36 + extra + 26 + 8
        if combat:
            geo["process"] = y
            y += 30
        geo["piles"] = y
        y += ch + 24 + 10
        geo["combat"] = y
        if combat:
            y += 62
        geo["notes"] = y
        self.centre_geo = geo
        gap = min(46.0, max(12.0, (2 * half - 3 * cw) / 4))
        xs = [cx - cw * 1.5 - gap, cx - cw / 2, cx + cw / 2 + gap]
        piles = (("deck", v.deck), ("discard", v.discard), ("grail", v.grail))
        for (kind, pile), x in zip(piles, xs):
            rect = QRectF(x, geo["piles"], cw, ch)
            self._pile_rects[kind] = rect
            self.hotspots.append(Hotspot(kind, self.centre_rect(rect.adjusted(-6, -6, 6, 24))))
            if not pile:
                continue
            top = pile[-1] if kind != "deck" else pile[0]
            local = CardDraw(kind, top.uid, top.card_id, None, "rise", 0, top.known, rect)
            self._centre_local.append(local)
            self.centre_cards.append(replace(local, rect=self.centre_rect(rect)))

    def centre_rect(self, rect: QRectF) -> QRectF:
        """A rectangle in the centre's own units, in the table's virtual units."""
        o, k = self.centre_origin, self.centre_zoom
        return QRectF(o.x() + (rect.x() - o.x()) * k, o.y() + (rect.y() - o.y()) * k,
                      rect.width() * k, rect.height() * k)

    def centre_block(self) -> QRectF:
        """The centre block as drawn (banner to notices), in virtual units."""
        geo = self.centre_geo
        block = QRectF(geo["x"], geo["banner"], geo["w"], geo["notes"] + 64 - geo["banner"])
        for track in self._tracks():
            if track is not None:
                block = block.united(track[0])
        return self.centre_rect(block)

    def _into_centre(self, painter: QPainter) -> None:
        """Make a painter in virtual units draw in the centre's own units."""
        o, k = self.centre_origin, self.centre_zoom
        painter.translate(o)
        painter.scale(k, k)
        painter.translate(-o)

    # --- painting ------------------------------------------------------------------------------

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        try:
            painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                                   | QPainter.RenderHint.SmoothPixmapTransform)
            self.layout_table()
            g = self.controller.game
            if g is None:
                self._paint_felt(painter)
                return
            self._paint_composed(painter, g)
            painter.scale(self._scale, self._scale)
            # what changes with nearly every action is drawn over the composed image
            pend = self.v.pending
            for seat in self.seats:
                if pend is not None and pend.player == seat.player and not self.v.players[seat.player].out:
                    self._paint_deciding(painter, seat)
            painter.save()
            self._into_centre(painter)
            self._paint_centre_notes(painter, g)
            painter.restore()
            self._paint_playable(painter)
            self._paint_marks(painter, g)
            self._paint_effects(painter)
        finally:
            painter.end()
        if g is not None and not self._painted_once:
            self._painted_once = True
            self.first_painted.emit()

    # --- animations ---------------------------------------------------------------------------------

    ANIM_MS = 240

    def _take_snapshot(self) -> tuple:
        v = self.v
        cards = {d.uid: (d.state, d.rotation, d.face_up, d.bounds)
                 for s in self.seats for d in s.cards if d.uid is not None}
        seats = [(s.player, s.rect, v.players[s.player]) for s in self.seats]
        counts = {"deck": len(v.deck), "discard": len(v.discard), "grail": len(v.grail)}
        piles = {kind: (self.centre_rect(rect), counts[kind]) for kind, rect in self._pile_rects.items()}
        return id(self.controller.game), cards, seats, piles

    def _observe_change(self) -> None:
        """After an action: note what changed since the last one and start its animations."""
        if self.controller.game is None:
            self._snapshot = None
            return
        self.layout_table()
        snap = self._take_snapshot()
        old, self._snapshot = self._snapshot, snap
        if not self.animate or old is None or old[0] != snap[0]:
            return
        import time as _time

        now = _time.monotonic()
        colours = {"down": QColor("#ffb26b"), "danger": QColor("#ff6b6b"), "reverse": QColor("#b58cff"),
                   "rise": GOLD}
        for uid, (state, rot, face, rect) in snap[1].items():
            before = old[1].get(uid)
            if before is not None and (before[0], before[1], before[2]) != (state, rot, face):
                self.effects.append(("ring", rect, "", colours.get(state or "rise", GOLD), now))
        for (p, rect, sv), (_p, _r, before) in zip(snap[2], old[2]):
            if sv.out and not before.out:
                self.effects.append(("flash", rect, "", QColor("#ff5a4f"), now))
                continue
            k = rect.width() / BOX_W
            for delta, label, y, colour in (
                    (sv.mana - before.mana, tr("stat.mana_short"), ROW_STATS + 21, CYAN),
                    (sv.hand_count - before.hand_count, tr("zone.hand"), ROW_STATS + 48, TEXT),
                    (sv.command_spells - before.command_spells, tr("command_spells.short"),
                     ROW_STATS + 48, QColor("#ff8a80")),
                    (sum(sv.coins.values()) - sum(before.coins.values()), tr("coin.short"),
                     ROW_STATS + 21, QColor("#ffb0b0"))):
                if delta:
                    x = 196 if label == tr("zone.hand") else 60
                    at = QRectF(rect.x() + x * k, rect.y() + y * k, 140 * k, 24 * k)
                    self.effects.append(("text", at, f"{delta:+d} {label}", colour, now))
        for kind, (rect, n) in snap[3].items():
            before = old[3].get(kind)
            if before is not None and before[1] != n:
                self.effects.append(("ring", rect, "", GOLD, now))
        if self.effects and not self._anim_timer.isActive():
            self._anim_timer.start()

    def _anim_tick(self) -> None:
        import time as _time

        now = _time.monotonic()
        self.effects = [e for e in self.effects if now - e[4] < self.ANIM_MS / 1000]
        if not self.effects:
            self._anim_timer.stop()
        self.update()

    def _paint_effects(self, painter: QPainter) -> None:
        if not self.effects:
            return
        import time as _time

        now = _time.monotonic()
        for kind, rect, text, colour, start in self.effects:
            t = (now - start) / (self.ANIM_MS / 1000)
            if not 0 <= t < 1:
                continue
            fade = QColor(colour)
            fade.setAlpha(int(255 * (1 - t)))
            painter.save()
            if kind == "ring":
                grow = 4 + 10 * t
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(fade, 3))
                painter.drawRoundedRect(rect.adjusted(-grow, -grow, grow, grow), 8, 8)
            elif kind == "flash":
                fade.setAlpha(int(120 * (1 - t)))
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(fade)
                painter.drawRoundedRect(rect, 12, 12)
            elif kind == "text":
                _text(painter, rect.translated(0, -18 * t), text, 15, fade, bold=True, elide=False)
            painter.restore()

    # --- highlights: the hovered action, the last action, targets to pick --------------------------

    def set_highlight(self, action: Any) -> None:
        if action != self.highlight:
            self.highlight = action
            self.update()

    def start_pick(self, actions: list) -> None:
        """Wait for a click on one of ``actions``' targets (cleared by ``cancel_pick``)."""
        self.pick = list(actions)
        self.update()

    def cancel_pick(self) -> None:
        if self.pick:
            self.pick = []
            self.update()

    def last_action(self) -> Any:
        """The last action of the game, if it is one anybody at the table saw."""
        g = self.controller.game
        if g is None:
            return None
        for entry in reversed(g.entries):  # the last action (option changes are no actions)
            if hasattr(entry, "player") and hasattr(entry, "kind"):
                return entry
        return None

    def seat_rect(self, p: int) -> QRectF | None:
        for seat in self.seats:
            if seat.player == p:
                return seat.rect
        return None

    def marked_rects(self, marks: ActionMarks) -> list[tuple[str, QRectF]]:
        """Where an action's marks lie on the table now: ("card" | "player", virtual rect). Only
        cards drawn face up are found (a hidden card is no instance the table knows)."""
        out = []
        for d in [d for s in self.seats for d in s.cards] + self.centre_cards:
            if d.uid is not None and (d.uid in marks.cards or d.uid in marks.targets):
                out.append(("card", d.bounds))
        for p in marks.players:
            r = self.seat_rect(p)
            if r is not None:
                out.append(("player", r))
        return out

    def pick_targets(self) -> list[tuple[Any, str, QRectF]]:
        """(action, kind, rect) for each clickable target in pick mode."""
        g = self.controller.game
        out = []
        for a in self.pick:
            m = action_marks(g, a)
            only = ActionMarks(players=m.players, targets=m.targets)
            for kind, rect in self.marked_rects(only):
                out.append((a, kind, rect))
        return out

    def _paint_playable(self, painter: QPainter) -> None:
        """The green edge of each seat card that can be used now (over the cached seats)."""
        for seat in self.seats:
            for d in seat.cards:
                if d.playable:
                    painter.save()
                    painter.translate(d.rect.center())
                    painter.rotate(d.rotation)
                    r = d.rect
                    local = QRectF(-r.width() / 2, -r.height() / 2, r.width(), r.height())
                    painter.setBrush(Qt.BrushStyle.NoBrush)
                    painter.setPen(QPen(PLAYABLE, max(1.5, r.width() * 0.04)))
                    painter.drawRoundedRect(local.adjusted(-1.5, -1.5, 1.5, 1.5), r.width() * 0.07,
                                            r.width() * 0.07)
                    painter.restore()

    def _paint_marks(self, painter: QPainter, g: Any) -> None:
        last = self.last_action() if self.show_last else None
        if last is not None and last.kind != "pass":
            for kind, rect in self.marked_rects(action_marks(g, last)):
                _glow(painter, rect.adjusted(-3, -3, 3, 3), LAST, 8 if kind == "card" else 14, 0.6)
        if self.highlight is not None:
            for kind, rect in self.marked_rects(action_marks(g, self.highlight)):
                _glow(painter, rect.adjusted(-4, -4, 4, 4), HIGHLIGHT, 8 if kind == "card" else 14)
        if self.pick:
            for _a, kind, rect in self.pick_targets():
                _glow(painter, rect.adjusted(-5, -5, 5, 5), PICK, 8 if kind == "card" else 14, 1.2)
            geo = self.centre_geo
            if geo:
                band = QRectF(geo["x"], geo["banner"] - 2, geo["w"], geo["track"] - geo["banner"] - 4)
                painter.save()
                self._into_centre(painter)
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(QColor(10, 40, 25, 235))
                painter.drawRoundedRect(band, 10, 10)
                _fit_text(painter, band.adjusted(8, 0, -8, 0), tr("table.pick_target"), 16, PICK, bold=True,
                          align=Qt.AlignmentFlag.AlignCenter)
                painter.restore()

    def _paint_composed(self, painter: QPainter, g: Any) -> None:
        """Felt, combat arrow, centre and seats as one image, composed again only when one of
        their cache keys changes (a pass changes none of them); when only some seats changed,
        only their regions are painted again."""
        dpr = painter.device().devicePixelRatioF()
        c = self.v.combat
        seat_keys = tuple(self._seat_key(g, seat, dpr) for seat in self.seats)
        centre_region, centre_key = self._centre_key(g, dpr)
        centre_region = self.centre_rect(centre_region)
        base = (self.width(), self.height(), round(dpr, 4), round(self._scale, 6), len(self.seats),
                None if c is None else (c["raider"], c["interceptor"]))
        seat_keys = seat_keys + ((centre_key, centre_region.x(), centre_region.y(), centre_region.width(),
                                  centre_region.height()),)
        old = self.__dict__.get("_composed_key")
        if old is not None and old[0] == base and old[1] != seat_keys:
            # only what changed is painted again: each changed seat's region, the centre's
            regions = []
            for seat, a, b in zip(self.seats, seat_keys, old[1]):
                if a != b:
                    pad = 8.0 * seat.scale
                    regions.append(seat.rect.adjusted(-pad, -pad, pad, pad))
            if seat_keys[-1] != old[1][-1]:
                regions.append(centre_region.united(QRectF(*old[1][-1][1:])))
            pm = self._composed
            p2 = QPainter(pm)
            try:
                p2.setRenderHints(painter.renderHints())
                for region in regions:
                    clip = QRectF(region.x() * self._scale, region.y() * self._scale,
                                  region.width() * self._scale, region.height() * self._scale)
                    p2.save()
                    p2.setClipRect(clip.adjusted(-1, -1, 1, 1))
                    self._paint_felt(p2)
                    p2.scale(self._scale, self._scale)
                    self._paint_combat_arrow(p2, g)
                    if centre_region.intersects(region):
                        self._paint_centre(p2, g)
                    self._paint_combat_arrow(p2, g, head=True)
                    for other in self.seats:  # every seat reaching into the region
                        opad = 8.0 * other.scale
                        if other.rect.adjusted(-opad, -opad, opad, opad).intersects(region):
                            self._paint_seat(p2, g, other)
                    p2.restore()
            finally:
                p2.end()
            self._composed_key = (base, seat_keys)
        elif old is None or old != (base, seat_keys):
            pm = QPixmap(max(1, round(self.width() * dpr)), max(1, round(self.height() * dpr)))
            pm.setDevicePixelRatio(dpr)
            p2 = QPainter(pm)
            try:
                p2.setRenderHints(painter.renderHints())
                self._paint_felt(p2)
                p2.scale(self._scale, self._scale)
                self._paint_combat_arrow(p2, g)
                self._paint_centre(p2, g)
                self._paint_combat_arrow(p2, g, head=True)
                for seat in self.seats:
                    self._paint_seat(p2, g, seat)
            finally:
                p2.end()
            self._composed, self._composed_key = pm, (base, seat_keys)
        painter.drawPixmap(0, 0, self._composed)

    def _paint_felt(self, painter: QPainter) -> None:
        """The felt and the table's rim, cached per widget size."""
        w, h = self.width(), self.height()
        dpr = painter.device().devicePixelRatioF()
        if self._felt is None or self._felt.size() != QSize(round(w * dpr), round(h * dpr)):
            pm = QPixmap(QSize(round(w * dpr), round(h * dpr)))
            pm.setDevicePixelRatio(dpr)
            p2 = QPainter(pm)
            try:
                p2.setRenderHint(QPainter.RenderHint.Antialiasing)
                self._draw_felt(p2, w, h)
            finally:
                p2.end()
            self._felt = pm
        painter.drawPixmap(0, 0, self._felt)

    def _draw_felt(self, painter: QPainter, w: int, h: int) -> None:
        grad = QRadialGradient(QPointF(w / 2, h / 2), max(w, h) * 0.7)
        grad.setColorAt(0.0, QColor("#1f5a45"))
        grad.setColorAt(0.65, QColor("#143d30"))
        grad.setColorAt(1.0, QColor("#0a1f19"))
        painter.fillRect(QRectF(0, 0, w, h), grad)
        # the table's rim: an inset rounded rectangle
        rim = QRectF(w * 0.035, h * 0.05, w * 0.93, h * 0.9)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(QPen(QColor(232, 195, 106, 60), max(1.0, h / 300)))
        painter.drawRoundedRect(rim, h * 0.2, h * 0.2)
        painter.setPen(QPen(QColor(232, 195, 106, 28), max(1.0, h / 500)))
        painter.drawRoundedRect(rim.adjusted(h * 0.012, h * 0.012, -h * 0.012, -h * 0.012), h * 0.19, h * 0.19)

    def _seat_centre(self, p: int) -> QPointF | None:
        for seat in self.seats:
            if seat.player == p:
                return seat.rect.center()
        return None

    def combat_arrow(self) -> tuple[QPointF, QPointF] | None:
        """Where the combat arrow runs: from the raider's seat edge to the interceptor's (its
        head just outside that seat, so the direction shows), or None outside a combat."""
        c = self.v.combat
        if c is None:
            return None
        rects = {seat.player: seat.rect for seat in self.seats}
        ra, rb = rects.get(c["raider"]), rects.get(c["interceptor"])
        if ra is None or rb is None:
            return None
        a, b = ra.center(), rb.center()
        length = math.hypot(b.x() - a.x(), b.y() - a.y())
        if length < 1:
            return None
        dx, dy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
        gap = 6.0
        start = _rect_exit(ra, dx, dy) + gap
        end = length - _rect_exit(rb, -dx, -dy) - gap
        if end - start < 40:  # seats touching: from centre to centre, under them
            start, end = 0.0, length
        return (QPointF(a.x() + dx * start, a.y() + dy * start), QPointF(a.x() + dx * end, a.y() + dy * end))

    def centre_text_rects(self) -> list[QRectF]:
        """Where the centre shows text (turn banner, tracks, pile labels, combat summary, notes),
        each as wide as its words: the combat arrow leaves a gap where it would cross one."""
        geo = self.centre_geo
        x, w = geo["x"], geo["w"]
        cx = x + w / 2

        def line(top: float, height: float, text: str, px: float, bold: bool = False) -> QRectF:
            width = min(w, QFontMetricsF(pixel_font(px, bold=bold)).horizontalAdvance(text))
            return QRectF(cx - width / 2, top, width, height)

        v, g = self.v, self.controller.game
        rects = [line(geo["banner"] + j * BANNER_LINE, 30, text, BANNER_PX, True)
                 for j, text in enumerate(self.banner_lines(v, w))]
        for track in self._tracks():  # each pill's label (the pills themselves are see-through)
            if track is not None:
                rect, items, px = track
                for _code, label, r in self._track_pills(rect, items, px):
                    rects.append(line(r.y() + 2, r.height() - 4, label, px, True).translated(r.center().x() - cx, 0))
        if v.combat is not None:
            rects.append(QRectF(x, geo["combat"], w, 54))
        notes = self.centre_note_lines(g)[0] if g is not None else []
        for j, text in enumerate(notes):
            rects.append(line(geo["notes"] + j * NOTE_LINE, 22, text, NOTE_PX, True))
        rects.append(QRectF(x, geo["notes"] + 24 + NOTE_LINE * max(0, len(notes) - 1), w, 40))  # the notices
        for _kind, r, label in self._pile_labels():
            width = QFontMetricsF(pixel_font(13, bold=True)).horizontalAdvance(label)
            rects.append(QRectF(r.center().x() - width / 2, r.bottom() + 4, width, 18))
        return [self.centre_rect(r.adjusted(-5, -3, 5, 3)) for r in rects if r.width() > 0]

    def _arrow_geometry(self) -> tuple[QPointF, QPointF, QPointF, list[QRectF]] | None:
        """The combat arrow's tail, neck and tip, and the centre's text it must not run behind
        (worked out once per layout)."""
        key = (self.__dict__.get("_layout_key"), current_language())
        cached = self.__dict__.get("_arrow_cache")
        if cached is not None and cached[0] == key:
            return cached[1]
        geometry = self._arrow_geometry_now()
        self._arrow_cache = (key, geometry)
        return geometry

    def _arrow_geometry_now(self) -> tuple[QPointF, QPointF, QPointF, list[QRectF]] | None:
        ends = self.combat_arrow()
        if ends is None:
            return None
        a, b = ends
        length = math.hypot(b.x() - a.x(), b.y() - a.y())
        ux, uy = (b.x() - a.x()) / length, (b.y() - a.y()) / length
        words = self.centre_text_rects()
        # the tip touches the interceptor's seat, or stands a little off it where text is in the way
        back = 0.0
        for step in range(16):
            tip = QPointF(b.x() - ux * step * 4, b.y() - uy * step * 4)
            box = QRectF(tip.x() - ARROW_HEAD, tip.y() - ARROW_HEAD, 2 * ARROW_HEAD, 2 * ARROW_HEAD)
            if not any(r.intersects(box) for r in words):
                back = step * 4.0
                break
        tip = QPointF(b.x() - ux * back, b.y() - uy * back)
        neck = QPointF(tip.x() - ux * ARROW_HEAD * 0.8, tip.y() - uy * ARROW_HEAD * 0.8)
        return a, neck, tip, words

    def _paint_combat_arrow(self, painter: QPainter, g: Any, head: bool = False) -> None:
        """The arrow from raider to interceptor: its shaft under the centre, with a gap at each
        text it would cross; its head (``head=True``) over the centre, so the direction shows."""
        geometry = self._arrow_geometry()
        if geometry is None:
            return
        a, neck, tip, words = geometry
        col = QColor(RAID)
        col.setAlpha(130)
        painter.save()
        if head:
            ang = math.atan2(tip.y() - neck.y(), tip.x() - neck.x())
            path = QPainterPath(tip)
            for da in (2.7, -2.7):
                path.lineTo(QPointF(tip.x() + math.cos(ang + da) * ARROW_HEAD,
                                    tip.y() + math.sin(ang + da) * ARROW_HEAD))
            path.closeSubpath()
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(col)
            painter.drawPath(path)
        else:
            keep = QPainterPath()
            keep.addRect(QRectF(0, 0, self._vw, self._vh))
            cut = QPainterPath()
            for r in words:
                cut.addRect(r)
            painter.setClipPath(keep.subtracted(cut.simplified()), Qt.ClipOperation.IntersectClip)
            painter.setPen(QPen(col, 10, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
            painter.drawLine(a, neck)
        painter.restore()

    def _centre_key(self, g: Any, dpr: float) -> tuple[QRectF, tuple]:
        """The region of the centre's cached part and the key of what it shows."""
        v = self.v
        geo = self.centre_geo
        x, w = geo["x"], geo["w"]
        px = self._scale * dpr * self.centre_zoom
        region = QRectF(x - 44, geo["banner"] - 4, w + 88, 34)  # in the centre's own units
        for rect in self._pile_rects.values():
            region = region.united(rect.adjusted(-46, -10, 46, 28))
        for d in self._centre_local:
            region = region.united(d.rect.adjusted(-4, -10, 10, 4))
        if v.combat is not None:
            region = region.united(QRectF(x - geo["reach"] - 4, geo["process"] - 4, w + 2 * geo["reach"] + 8, 32))
            region = region.united(QRectF(x - 30, geo["combat"] - 4, w + 60, 62))
        c = v.combat
        key = (
            round(px, 4), region.x(), region.y(), region.width(), region.height(), current_language(),
            v.turn, v.turn_player, v.players[v.turn_player].name, v.step, len(v.deck), len(v.discard),
            len(v.grail), tuple((d.role, d.card_id, d.face_up) for d in self.centre_cards),
            round(self.centre_zoom, 6), self.centre_origin.x(), self.centre_origin.y(),
            None if c is None else (
                tuple(c["order"]), c["process"], c["encounter"], tuple(sorted(c["proxies"].items())),
                tuple(sorted(c["attacks"].items())),
                tuple(tuple(sorted((v.players[p].stats or {}).items()))
                      for p in (c["raider"], c["interceptor"]))),
        )
        return region, key

    def _paint_centre(self, painter: QPainter, g: Any) -> None:
        """The centre's slow, rarely changing part (turn, step track, piles, combat summary),
        cached as a pixmap; the deciding-player line and notices are drawn by paintEvent."""
        dpr = painter.device().devicePixelRatioF()
        px = self._scale * dpr * self.centre_zoom
        region, key = self._centre_key(g, dpr)
        cache = self.__dict__.setdefault("_centre_cache", {})
        pm = cache.get(key)
        if pm is None:
            if len(cache) > 16:
                cache.clear()
            pm = QPixmap(max(1, math.ceil(region.width() * px)), max(1, math.ceil(region.height() * px)))
            pm.fill(Qt.GlobalColor.transparent)
            p2 = QPainter(pm)
            try:
                p2.setRenderHints(painter.renderHints())
                p2.scale(px, px)
                p2.translate(-region.x(), -region.y())
                self._paint_centre_static(p2, g, px)
            finally:
                p2.end()
            cache[key] = pm
        _blit(painter, self.centre_rect(region).topLeft(), pm, self._scale, dpr)

    def _pile_labels(self) -> list[tuple[str, QRectF, str]]:
        """Each pile's kind, its card's place (the centre's units) and the label under it ("山札  17")."""
        v = self.v
        piles = {"deck": ("zone.deck", v.deck), "discard": ("zone.discard", v.discard),
                 "grail": ("zone.grail_seat", v.grail)}
        return [(kind, rect, f"{tr(piles[kind][0])}  {len(piles[kind][1])}")
                for kind, rect in self._pile_rects.items()]

    def _tracks(self) -> tuple[tuple, tuple | None]:
        """The step track and, during a combat, the process track: (rectangle, items, text size)."""
        v, geo = self.v, self.centre_geo
        x, w = geo["x"], geo["w"]
        steps = (QRectF(x, geo["track"], w, 26),
                 [(st, texts.step_text(st)) for st in ("rise", "draw", "ritual", "encounter", "combat", "end")],
                 11.5 if w > 520 else 9.5)
        processes = None
        if v.combat is not None:
            processes = (QRectF(x - geo["reach"], geo["process"], w + 2 * geo["reach"], 24),
                         [(p, texts.process_text(p)) for p in v.combat["order"]], 10 if w > 520 else 8.5)
        return steps, processes

    def _paint_centre_static(self, painter: QPainter, g: Any, scale: float) -> None:
        v = self.v
        geo = self.centre_geo
        x, w = geo["x"], geo["w"]
        for j, line in enumerate(self.banner_lines(v, w)):
            _fit_text(painter, QRectF(x, geo["banner"] + j * BANNER_LINE, w, 30), line, BANNER_PX, GOLD, bold=True,
                      align=Qt.AlignmentFlag.AlignCenter, min_px=BANNER_MIN_PX)
        (rect, items, px), processes = self._tracks()
        self._paint_track(painter, rect, items, v.step, px)
        if processes is not None:
            rect, items, px = processes
            self._paint_track(painter, rect, items, v.combat["process"], px, RAID)
        for kind, r, label in self._pile_labels():
            painter.setPen(QPen(QColor(232, 195, 106, 90), 1.2, Qt.PenStyle.DashLine))
            painter.setBrush(QColor(0, 0, 0, 40))
            painter.drawRoundedRect(r, 5, 5)
            art.paint_icon(painter, QRectF(r.center().x() - 15, r.center().y() - 15, 30, 30), kind,
                           greyed=True)
            _text(painter, QRectF(r.x() - 34, r.bottom() + 4, r.width() + 68, 18), label, 13, TEXT,
                  bold=True, align=Qt.AlignmentFlag.AlignCenter)
        for d in self._centre_local:
            if d.role == "deck" and len(v.deck) > 1:
                for off in (4, 2):
                    shadow = CardDraw("deck", None, None, None, "rise", 0, False, d.rect.translated(off, -off))
                    draw_card(painter, shadow, g, scale)
            draw_card(painter, d, g, scale)
        if v.combat is not None:
            self._paint_combat_summary(painter, g, QRectF(x, geo["combat"], w, 54))

    def centre_note_lines(self, g: Any) -> tuple[list[str], QColor]:
        """The centre's first note (who decides what, or who won) as lines that fit its width:
        one line, shrunk a little if need be, else broken in two at its seam (" — ")."""
        s = self.v
        w = self.centre_geo["w"]
        text = texts.pending_text(g)
        if s.over:
            out = g.outcome()
            text = (tr("gameover.winner", name=out.winner_name) if out and out.winner_name
                    else tr("gameover.no_winner"))
        colour = CYAN if not s.over else GOLD
        if not text:
            return [], colour
        if QFontMetricsF(pixel_font(NOTE_MIN_PX, bold=True)).horizontalAdvance(text) <= w:
            return [text], colour
        from fate_royal.qt.panels import wrap_lines

        return wrap_lines(text, pixel_font(NOTE_PX, bold=True), w, 2, seams=(" — ", " - ")).split("\n"), colour

    def _paint_centre_notes(self, painter: QPainter, g: Any) -> None:
        s = self.v
        geo = self.centre_geo
        x, w = geo["x"], geo["w"]
        lines, colour = self.centre_note_lines(g)
        for j, line in enumerate(lines):
            _fit_text(painter, QRectF(x, geo["notes"] + j * NOTE_LINE, w, 22), line, NOTE_PX, colour, bold=True,
                      align=Qt.AlignmentFlag.AlignCenter, min_px=NOTE_MIN_PX)
        y = geo["notes"] + NOTE_LINE * max(0, len(lines) - 1)  # the notices follow the note
        notices = []
        if s.padded:
            notices.append(tr("notice.deck_padded", count=s.padded))
        notices.append(texts.rules_title(g.rules))
        painter.setFont(pixel_font(11.5))
        painter.setPen(TEXT_DIM)
        line = "  ・  ".join(notices)
        if QFontMetricsF(pixel_font(11.5)).horizontalAdvance(line) > w:
            line = "\n".join(notices)  # a line each rather than a break inside a word (Japanese wraps anywhere)
        painter.drawText(QRectF(x, y + 24, w, 40),
                         int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap),
                         line)

    @staticmethod
    def _track_pills(rect: QRectF, items: list[tuple[str, str]], px: float) -> list[tuple[str, str, QRectF]]:
        """A step or process track's pills: code, label and rectangle of each. When one label is
        too long for its pill, the whole track uses the short names."""
        n = len(items)
        wpill = rect.width() / n
        fm = QFontMetricsF(pixel_font(px, bold=True))
        if any(fm.horizontalAdvance(label) > wpill - 12 for _code, label in items):
            items = [(code, texts.tr_or(("step" if code in ("rise", "draw", "ritual", "encounter", "combat", "end")
                                         else "process") + f".short.{code}", label)) for code, label in items]
        return [(code, label, QRectF(rect.x() + j * wpill + 2, rect.y(), wpill - 4, rect.height()))
                for j, (code, label) in enumerate(items)]

    def _paint_track(self, painter: QPainter, rect: QRectF, items: list[tuple[str, str]], current: str,
                     px: float, accent: QColor = GOLD) -> None:
        for code, label, r in self._track_pills(rect, items, px):
            on = code == current
            painter.setPen(Qt.PenStyle.NoPen)
            fill = QColor(accent) if on else QColor(255, 255, 255, 22)
            if on:
                fill.setAlpha(235)
            painter.setBrush(fill)
            painter.drawRoundedRect(r, r.height() / 2, r.height() / 2)
            _fit_text(painter, r.adjusted(4, 0, -4, 0), label, px, QColor("#17110a") if on else TEXT_DIM,
                      bold=on, align=Qt.AlignmentFlag.AlignCenter, min_px=6.5)

    def _paint_combat_summary(self, painter: QPainter, g: Any, rect: QRectF) -> float:
        cv = self.v.combat
        painter.setPen(QPen(QColor(255, 90, 79, 160), 1.5))
        painter.setBrush(QColor(40, 8, 8, 170))
        painter.drawRoundedRect(rect, 10, 10)

        def side(p: int, role_key: str, fallback: str) -> str:
            who = self.v.players[p].name
            parts = [f"{texts.tr_or(role_key, fallback)}: {who}"]
            proxy = cv["proxies"].get(p, "")
            if proxy and proxy != "#removed":
                chip = g.db.chips.get(proxy)
                chip_name = (chip.name_en if current_language() == "en" and chip and chip.name_en else
                             chip.name if chip else proxy)
                parts.append(texts.tr_or("table.proxy", "proxy {chip}", chip=chip_name))
            if cv["attacks"].get(p):
                parts.append(texts.attack_text(cv["attacks"][p]))
            return "  ".join(parts)

        half = rect.width() / 2
        left = QRectF(rect.x() + 10, rect.y() + 4, half - 40, rect.height() - 8)
        right = QRectF(rect.x() + half + 30, rect.y() + 4, half - 40, rect.height() - 8)
        painter.setFont(pixel_font(13, bold=True))
        painter.setPen(QColor("#ffd0c8"))
        flags = int(Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap)
        painter.drawText(left, flags | int(Qt.AlignmentFlag.AlignRight), side(cv["raider"], "table.raider", "Raider"))
        painter.setPen(QColor("#d4e3ff"))
        painter.drawText(right, flags | int(Qt.AlignmentFlag.AlignLeft),
                         side(cv["interceptor"], "table.interceptor", "Interceptor"))
        for p, r in ((cv["raider"], left), (cv["interceptor"], right)):
            if cv["proxies"].get(p, "") not in ("", "#removed"):
                icon_x = r.right() + 2 if p == cv["raider"] else r.left() - 26
                art.paint_icon(painter, QRectF(icon_x, rect.y() + 14, 24, 24), "proxy")
        _text(painter, QRectF(rect.center().x() - 20, rect.y(), 40, rect.height()), "⚔", 24, GOLD,
              align=Qt.AlignmentFlag.AlignCenter, elide=False)
        return rect.bottom() + 8

    def _seat_key(self, g: Any, seat: SeatLayout, dpr: float) -> tuple:
        v = self.v
        i = seat.player
        sv = v.players[i]
        c = v.combat
        # not in the key: who decides (drawn on top, _paint_deciding); what the viewer may see is
        # already in each card's face below
        return (i, sv.name, sv.mana, sv.mana_limit, sv.command_spells, tuple(sorted(sv.coins.items())),
                len(sv.hand), sv.out, v.active_master == i, v.turn_player == i,
                c is not None and c["raider"] == i, c is not None and c["interceptor"] == i,
                tuple(sorted((sv.stats or {}).items())), sv.capacity, current_language(),
                self.proxy_of(i),
                round(seat.scale * self._scale * dpr, 4), v.over,
                tuple((d.role, d.card_id, d.state, d.rotation, d.face_up)
                      for d in seat.cards))

    def proxy_of(self, p: int) -> tuple[str, str, str] | None:
        """The proxy fighting for ``p`` now (E6): (chip id, source card id, source effect name),
        from the public combat and log; None when p's servant fights itself."""
        c = self.v.combat if self.v is not None else None
        chip = (c or {}).get("proxies", {}).get(p, "") if c is not None else ""
        if not chip or chip == "#removed":
            return None
        for e in reversed(self.v.log):
            if e.code == "ProxySummoned" and e.args.get("player") == p:
                return chip, e.card, e.effect
        return chip, "", ""

    def proxy_label(self, g: Any, proxy: tuple[str, str, str]) -> tuple[str, str, str]:
        """The proxy chip's name, its source ("ジル・ド・レェの海魔召喚") and chip-sheet stats."""
        chip_id, cid, effect = proxy
        w = texts.words(g)
        chip = g.db.chips.get(chip_id)
        name = w.chip_name(chip_id) if chip is not None else chip_id
        source = ""
        if cid and cid in g.db.cards:
            eff = next((e for e in g.db.cards[cid].effects if e.name == effect), None)
            card_name = w.card_name(g.db.cards[cid])
            effect_name = w.effect_name(eff) if eff is not None else effect
            source = one_name(tr("table.proxy_source", card=card_name, effect=effect_name),
                              effect_name, card_name)
        stats = ""
        if chip is not None:
            st = chip.stats.as_dict()
            stats = " ".join(f"{tr(f'stat.{k}')}{st.get(k, 0)}" for k in ("pa", "pd", "ma", "md"))
        return name, source, stats

    def _paint_proxy(self, painter: QPainter, g: Any, proxy: tuple[str, str, str]) -> None:
        """The proxy's chip over the greyed servant it fights for, labelled (seat units)."""
        name, source, stats = self.proxy_label(g, proxy)
        ch = SERVANT_W * CARD_RATIO
        plate = QRectF(4, CARDS_TOP + ch * 0.36, SERVANT_AREA_W - 6, ch * 0.62)
        painter.save()
        painter.setPen(QPen(QColor("#ffd27a"), 2))
        painter.setBrush(QColor(58, 20, 70, 235))
        painter.drawRoundedRect(plate, 10, 10)
        d = plate.height() - 10
        disc = QRectF(plate.x() + 5, plate.y() + 5, d, d)
        painter.setBrush(QColor("#2a0f33"))
        painter.drawEllipse(disc)
        art.paint_icon(painter, disc.adjusted(d * 0.16, d * 0.16, -d * 0.16, -d * 0.16), "proxy")
        tx = disc.right() + 6
        tw = plate.right() - tx - 6
        lh = (plate.height() - 8) / 3
        _fit_text(painter, QRectF(tx, plate.y() + 4, tw, lh), tr("table.proxy", chip=name), 15,
                  QColor("#ffd27a"), bold=True)
        _fit_text(painter, QRectF(tx, plate.y() + 4 + lh, tw, lh), stats, 13, TEXT, bold=True)
        _fit_text(painter, QRectF(tx, plate.y() + 4 + 2 * lh, tw, lh), source, 11.5, TEXT_DIM)
        _badge(painter, SERVANT_AREA_W - 4, CARDS_TOP + 4, "E6.3", QColor("#b9a6c9"), px=10.5)
        painter.restore()

    def _paint_seat(self, painter: QPainter, g: Any, seat: SeatLayout) -> None:
        """The seat panel (cached as a pixmap while nothing in it changes), then its cards."""
        pl = self.v.players[seat.player]
        dpr = painter.device().devicePixelRatioF()
        key = self._seat_key(g, seat, dpr)
        pad = 8.0
        pm = self._seat_cache.get(key)
        if pm is None:
            if len(self._seat_cache) > 64:
                self._seat_cache.clear()
            f = seat.scale * self._scale * dpr
            pm = QPixmap(max(1, math.ceil((BOX_W + 2 * pad) * f)), max(1, math.ceil((BOX_H + 2 * pad) * f)))
            pm.fill(Qt.GlobalColor.transparent)
            p2 = QPainter(pm)
            try:
                p2.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                                  | QPainter.RenderHint.SmoothPixmapTransform)
                p2.scale(f, f)
                p2.translate(pad, pad)
                self._seat_panel(p2, g, seat)
                # the seat's cards go into the same pixmap: from virtual units to its pixels
                k = seat.scale
                px = self._scale * dpr
                p2.resetTransform()
                p2.scale(px, px)
                p2.translate(-(seat.rect.x() - pad * k), -(seat.rect.y() - pad * k))
                proxy = self.proxy_of(seat.player)
                for d in seat.cards:
                    # E6.3: while a proxy fights, the servant's own hero/class effects are greyed
                    # (the playable outline changes with every priority: drawn over the cache)
                    plain = CardDraw(d.role, d.uid, d.card_id, d.owner, d.state, d.rotation, d.face_up, d.rect)
                    draw_card(p2, plain, g, px,
                              dim=pl.out or (proxy is not None and d.role in ("hero", "class")))
                if proxy is not None:
                    p2.resetTransform()
                    p2.scale(f, f)
                    p2.translate(pad, pad)
                    self._paint_proxy(p2, g, proxy)
            finally:
                p2.end()
            self._seat_cache[key] = pm
        k = seat.scale
        _blit(painter, QPointF(seat.rect.x() - pad * k, seat.rect.y() - pad * k), pm, self._scale, dpr)
        if pl.out:
            painter.save()
            painter.translate(seat.rect.topLeft())
            painter.scale(k, k)
            box = QRectF(0, 0, BOX_W, BOX_H)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(30, 30, 30, 150))
            painter.drawRoundedRect(box, 12, 12)
            painter.translate(box.center())
            painter.rotate(-12)
            painter.setPen(QPen(QColor("#d84a3a"), 4))
            painter.setBrush(QColor(20, 20, 20, 120))
            stamp = QRectF(-80, -28, 160, 56)
            painter.drawRoundedRect(stamp, 8, 8)
            _text(painter, stamp, texts.tr_or("table.dropped", "脱落"), 30, QColor("#ff6b5a"), bold=True,
                  align=Qt.AlignmentFlag.AlignCenter, elide=False)
            painter.restore()

    def _paint_deciding(self, painter: QPainter, seat: SeatLayout) -> None:
        """The deciding player's seat: a cyan glow and the badge in its reserved header slot."""
        painter.save()
        painter.translate(seat.rect.topLeft())
        painter.scale(seat.scale, seat.scale)
        box = QRectF(0, 0, BOX_W, BOX_H)
        _glow(painter, box, CYAN, 12, 0.8)
        _badge(painter, BOX_W - 8, 5, texts.tr_or("table.deciding", "deciding"), CYAN)
        painter.restore()

    def _seat_panel(self, painter: QPainter, g: Any, seat: SeatLayout) -> None:
        """Everything of a seat but its cards, in the seat's own 320 x 214 units."""
        s = self.v
        i = seat.player
        pl = s.players[i]
        c = s.combat
        box = QRectF(0, 0, BOX_W, BOX_H)
        # panel
        grad = QLinearGradient(0, 0, 0, BOX_H)
        grad.setColorAt(0, QColor(44, 30, 22, 235))
        grad.setColorAt(1, QColor(24, 17, 13, 235))
        painter.setBrush(grad)
        border, width = QColor(232, 195, 106, 90), 1.5
        if c is not None and i == c["raider"]:
            border, width = RAID, 3.5
        elif c is not None and i == c["interceptor"]:
            border, width = GUARD, 3.5
        elif i == s.turn_player and not pl.out:
            border, width = GOLD, 2.5
        painter.setPen(QPen(border, width))
        painter.drawRoundedRect(box, 12, 12)
        # header: Active Master coin, name, badges
        x = 10.0
        if s.active_master == i:
            art.paint_coin(painter, QRectF(6, 3, 22, 22), "active_master")
            x = 32.0
        right = BOX_W - 8
        if pl.out:
            right = _badge(painter, right, 5, texts.tr_or("table.dropped", "脱落"), QColor("#9a9a9a")) - 4
        else:
            # the "deciding" badge has a reserved slot here, drawn over the cached panel
            # (it moves on almost every action; see _paint_deciding)
            right -= _badge_width(texts.tr_or("table.deciding", "deciding")) + 4
            if c is not None and i == c["raider"]:
                right = _badge(painter, right, 5, texts.tr_or("table.raider", "Raider"), RAID) - 4
            elif c is not None and i == c["interceptor"]:
                right = _badge(painter, right, 5, texts.tr_or("table.interceptor", "Interceptor"), GUARD) - 4
            if i == s.turn_player:
                right = _badge(painter, right, 5, texts.tr_or("table.turn", "turn"), GOLD) - 4
        _fit_text(painter, QRectF(x, 2, right - x - 2, 24), pl.name, 16.5, GOLD if i == s.turn_player else TEXT,
                  bold=True, min_px=10.0)  # a long name shrinks before it is cut
        # slots (empty outlines) then cards
        painter.setBrush(QColor(0, 0, 0, 45))
        painter.setPen(QPen(QColor(232, 195, 106, 50), 1, Qt.PenStyle.DashLine))
        ch = SERVANT_W * CARD_RATIO
        for sx in (6.0, 12.0 + SERVANT_W):
            painter.drawRoundedRect(QRectF(sx, CARDS_TOP, SERVANT_W, ch), 5, 5)
        right_x = SERVANT_AREA_W + 4.0
        right_w = BOX_W - right_x - 6.0
        # effective stats under the servant (only when its identity is public or the owner's)
        stats_rect = QRectF(6, ROW_STATS, SERVANT_AREA_W - 8, 17)
        if pl.hero is not None and pl.hero.known:
            st = pl.stats or {}
            line = "  ".join(f"{tr(f'stat.{k}')}{st.get(k, 0)}" for k in ("pa", "pd", "ma", "md"))
            proxy = (c or {}).get("proxies", {}).get(i, "") if c is not None else ""
            colour = QColor("#ffd27a") if proxy and proxy != "#removed" else TEXT_DIM
            _fit_text(painter, stats_rect, line, 12.5, colour, align=Qt.AlignmentFlag.AlignCenter)
            sst = pl.hero.state
            if sst:
                _fit_text(painter, QRectF(right_x, ROW_STATS, right_w, 17), texts.state_text(sst), 12.5,
                          {"down": QColor("#ffb26b"), "danger": QColor("#ff6b6b")}.get(sst, TEXT_DIM),
                          bold=True, align=Qt.AlignmentFlag.AlignLeft)
        elif pl.hero is not None:
            _fit_text(painter, stats_rect, texts.state_text("reverse"), 12.5, TEXT_DIM,
                      align=Qt.AlignmentFlag.AlignCenter)
        if not pl.seat:
            cap = pl.capacity
            painter.setPen(QPen(QColor(232, 195, 106, 45), 1, Qt.PenStyle.DashLine))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for j in range(min(cap, 2)):
                painter.drawRoundedRect(QRectF(right_x + 2 + j * (CODE_W + 6), CARDS_TOP + 4, CODE_W,
                                               CODE_W * CARD_RATIO), 4, 4)
        # resources: mana, command spells, special coins, hand
        row1, row2 = ROW_STATS + 21, ROW_STATS + 48
        art.paint_mana(painter, QRectF(8, row1, 118, 22), pl.mana, pl.mana_limit)
        _text(painter, QRectF(130, row1 - 1, 58, 24), f"{pl.mana}/{pl.mana_limit}", 15, TEXT, bold=True)
        art.paint_command_spells(painter, QRectF(8, row2, 30, 30), pl.command_spells, 3)
        spells = tr("command_spells.count", count=pl.command_spells)
        painter.setFont(pixel_font(14))
        sw = min(96.0, painter.fontMetrics().horizontalAdvance(spells) + 4)
        _fit_text(painter, QRectF(42, row2 + 2, sw, 26), spells, 14, TEXT)
        cx = 46.0 + sw
        for coin, n in sorted(pl.coins.items()):  # special coins beside the command spells
            if n <= 0 or cx > SERVANT_AREA_W - 30:
                continue
            art.paint_coin(painter, QRectF(cx, row2 + 3, 22, 22), coin)
            _text(painter, QRectF(cx + 23, row2 + 2, 30, 24), f"×{n}", 14, QColor("#ffb0b0"), bold=True,
                  elide=False)
            cx += 54
        # the hand: backs fanned, with the count
        hn = pl.hand_count
        shown = min(hn, 7)
        bw_, bh_ = 25.0, 25.0 * CARD_RATIO
        for j in range(shown):
            r = QRectF(right_x + 2 + j * 9.5, row1, bw_, bh_)
            pm = IMAGES.back(max(2, round(bw_ * self._scale * seat.scale)), max(2, round(bh_ * self._scale * seat.scale)))
            painter.drawPixmap(r, pm, QRectF(pm.rect()))
        _fit_text(painter, QRectF(right_x + 2, row2 + 2, right_w - 2, 26),
                  tr("player.hand_count", count=hn), 14, TEXT, bold=True)

    # --- interaction ---------------------------------------------------------------------------

    def _virtual(self, pos: QPointF) -> QPointF:
        return QPointF(pos.x() / self._scale, pos.y() / self._scale)

    def card_at(self, pos: QPointF) -> CardDraw | None:
        """The topmost card under a widget position."""
        v = self._virtual(pos)
        for d in reversed([d for s in self.seats for d in s.cards] + self.centre_cards):
            if d.bounds.contains(v):
                return d
        return None

    def hotspot_at(self, pos: QPointF) -> Hotspot | None:
        v = self._virtual(pos)
        for h in self.hotspots:
            if h.kind != "seat" and h.rect.contains(v):
                return h
        return None

    def widget_point(self, d: CardDraw) -> QPointF:
        c = d.bounds.center()
        return QPointF(c.x() * self._scale, c.y() * self._scale)

    def relayout(self) -> None:
        self.layout_table()

    def click_at(self, pos: QPointF, global_pos: QPointF) -> None:
        self.layout_table()
        if self.pick:
            v = self._virtual(pos)
            hits = [(a, kind, r) for a, kind, r in self.pick_targets() if r.contains(v)]
            hits.sort(key=lambda h: h[1] != "card")  # a card before the seat it lies on
            if hits:
                action = hits[0][0]
                self.cancel_pick()
                emit(self.target_picked, action)
            return
        spot = self.hotspot_at(pos)
        if spot is not None:
            emit(self.pile_clicked, spot.kind)
            return
        d = self.card_at(pos)
        if d is not None and d.uid is not None and d.role in ("hero", "class", "code"):
            emit(self.card_clicked, d.uid, global_pos)
        elif d is not None and d.owner is not None and d.role in ("hero", "class", "code"):
            emit(self.seat_clicked, d.owner, global_pos)  # a face-down card


def show_card_tooltip(widget: Any, ev: Any) -> None:
    """Show the tooltip of the card under a tooltip event (table or hand), or hide it."""
    d = widget.card_at(QPointF(ev.pos()))
    tip = card_tooltip(widget.controller.game, d) if d is not None else ""
    if tip:
        QToolTip.showText(ev.globalPos(), tip, widget)
    else:
        QToolTip.hideText()


def card_tooltip(game: Any, d: CardDraw) -> str:
    """Rich text describing a drawn card (only what its face shows)."""
    if game is None or d is None:
        return ""
    if not d.face_up or d.card_id is None or d.card_id not in game.db.cards:
        if d.role in ("deck",):
            return tr("zone.count", zone=tr("zone.deck"), count=len(game.ctx.s.deck))
        state = texts.state_text(d.state) if d.state else ""
        return f"{tr('zone.servant_seat')} — {state}" if d.role in ("hero", "class", "code") else ""
    card = game.db.cards[d.card_id]
    lines = [f"<b>{_esc(texts.card_name(card))}</b> <span style='color:#888'>{card.id}</span>"]
    if card.provenance_default == "entered":
        lines.append(f"<span style='color:#7fd6a2'>{_esc(tr('card.entered_note'))}</span>")
    if d.state and d.role in ("hero", "class", "code"):
        lines.append(texts.state_text(d.state))
    if card.kind in ("hero", "class"):
        st = card.stats.as_dict()
        lines.append(" ".join(f"{tr(f'stat.{k}')} {v}" for k, v in st.items()))
    if card.skills:
        lines.append(f"{tr('card.skills')}: {'、'.join(card.skills)}")
    for e in card.effects:
        head = art.effect_header(e, current_language())
        body = (e.text_en or e.text) if current_language() == "en" else (e.text or e.text_en)
        lines.append(f"<b>{_esc(head)}</b><br>{_esc(body)}")
    return "<br>".join(lines)


def _esc(text: str) -> str:
    return (text or "").replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --------------------------------------------------------------------------- the hand view


class HandView(CardPointer, QWidget):
    """The deciding player's hand along the bottom: face up only after the hand-off, else backs."""

    card_clicked = Signal(int, QPointF)
    zoom_card = Signal(object, QPoint)  # ZoomTarget or None (hide), window coordinates

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self._init_pointer()
        self.cards: list[CardDraw] = []
        self.title = ""
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self.setMouseTracking(True)
        controller.changed.connect(self.update)

    def owner(self) -> int | None:
        """Whose hand is shown: the viewer after the hand-off, else the deciding player (as backs);
        the winner's, face up, once a finished game's cards are shown."""
        if self.controller.cards_shown():  # a finished game turned face up
            v = self.controller.table_view()
            return v.winner if v.winner is not None else v.turn_player
        viewer = self.controller.private_viewer()
        if viewer is not None:
            return viewer
        return self.controller.handoff_player()

    def records(self) -> list[CardDraw]:
        self.layout_hand()
        return list(self.cards)

    def face_up(self) -> bool:
        return any(d.face_up for d in self.records())

    def layout_hand(self) -> None:
        self.cards = []
        g = self.controller.game
        if g is None:
            self.title = ""
            return
        p = self.owner()
        if p is None:
            self.title = ""
            return
        v = self.controller.table_view()
        hand = v.players[p].hand
        face = any(cv.known for cv in hand) or (self.controller.private_viewer() == p)
        h = self.height() * 0.86
        w = h / CARD_RATIO
        left = self.width() * 0.16
        avail = self.width() - left - 12
        step = min(w + 10, (avail - w) / max(1, len(hand) - 1)) if len(hand) > 1 else 0
        y = (self.height() - h) / 2
        playable = {getattr(a, "card", None) for a in self.controller.legal_actions()}
        for j, cv in enumerate(hand):
            rect = QRectF(left + j * step, y, w, h)
            self.cards.append(CardDraw("hand" if cv.known else "hand_back", cv.uid, cv.card_id, p,
                                       None, 0, cv.known, rect, cv.known and cv.uid in playable))
        name = g.player_name(p)
        self.title = texts.tr_or("table.hand_of", "{name}", name=name) if face else tr("handoff.hidden")

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        painter = QPainter(self)
        try:
            paint_hand_strip(painter, self)
            self.layout_hand()
            g = self.controller.game
            px = max(11.0, self.height() * 0.1)
            left = QRectF(12, 8, self.width() * 0.16 - 24, self.height() - 16)
            painter.setPen(GOLD)
            n = len(self.cards)
            label = self.title
            if g is not None and self.owner() is not None:
                label += "\n" + tr("player.hand_count", count=n)
            # a long name shrinks the label (to 70 %, still readable) before a line would wrap
            floor = max(9.0, px * 0.7)
            while px > floor and max(QFontMetricsF(pixel_font(px, bold=True)).horizontalAdvance(line)
                                 for line in label.split("\n")) > left.width():
                px -= 0.5
            painter.setFont(pixel_font(px, bold=True))
            painter.drawText(left, int(Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextWordWrap), label)
            for d in self.cards:
                draw_card(painter, d, g, 1.0)
            hl = getattr(self, "highlight", None)
            if hl is not None and g is not None:
                marks = action_marks(g, hl)
                for d in self.cards:
                    if d.uid is not None and d.uid in marks.cards:
                        _glow(painter, d.bounds.adjusted(-3, -3, 3, 3), HIGHLIGHT, 8)
        finally:
            painter.end()

    def set_highlight(self, action: Any) -> None:
        if action != getattr(self, "highlight", None):
            self.highlight = action
            self.update()

    def card_at(self, pos: QPointF) -> CardDraw | None:
        for d in reversed(self.cards):
            if d.bounds.contains(pos):
                return d
        return None

    def relayout(self) -> None:
        self.layout_hand()

    def click_at(self, pos: QPointF, global_pos: QPointF) -> None:
        self.layout_hand()
        d = self.card_at(pos)
        if d is not None and d.uid is not None:
            emit(self.card_clicked, d.uid, global_pos)

