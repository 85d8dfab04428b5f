"""Painting helpers for the table: card faces and backs, coins and command spells.

Card frames, icons and marks are the project's own SVGs in ``assets/svg/``; all text on a card is
drawn here, scaled to the rect, so the same call draws a 90-pixel thumbnail and a 600-pixel inspector
view (detail that would be unreadably small is elided or left out). Layout coordinates are in the
frames' 630x880 viewBox (see the comment in ``assets/svg/frame-*.svg``).
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any, Mapping

from PySide6.QtCore import QRectF, QSize, QSizeF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetricsF,
    QImage,
    QPainter,
    QPen,
    QPixmap,
    QTextLayout,
    QTextOption,
)
from PySide6.QtSvg import QSvgRenderer

from fate_royal.cards.model import CardDef, Effect
from fate_royal.cards.vocabulary import CLASSES, STAT_KEYS
from fate_royal.paths import assets_dir
from fate_royal.qt.fonts import pixel_font
from fate_royal.qt.i18n import tr_in

#: The frames' viewBox; a card is 63 x 88 mm.
CARD_W, CARD_H = 630.0, 880.0
CARD_ASPECT = CARD_H / CARD_W
#: Text smaller than this many pixels is left out (or elided) rather than drawn as noise.
MIN_TEXT_PX = 6.0

# Layout bands in viewBox units (x, y, w, h), matching the frames.
NAME_PLATE = (34, 34, 562, 104)
TYPE_LINE = (60, 146, 510, 40)
EMBLEM = (34, 194, 562, 210)
STATS_BAND = (34, 412, 562, 80)
SKILL_BAND = (34, 498, 562, 40)
TEXT_BOX = (34, 546, 562, 300)
# Mystic codes and scenes have no stats band: skills right under the emblem, a taller text box.
SKILL_BAND_NO_STATS = (34, 412, 562, 40)
TEXT_BOX_NO_STATS = (34, 460, 562, 386)

#: Per card kind: (dark body colour, type-line text, stat box fill, stat box border).
PALETTE = {
    "hero": ("#5a1220", "#f7e7b5", "#fbf5e6", "#a57a22"),
    "class": ("#15245a", "#e9eef7", "#f4f6fb", "#8f9bb3"),
    "mystic_code": ("#0f3d2a", "#f3dcb4", "#f6f7ef", "#9a6a2c"),
    "scene": ("#2e1548", "#f7e2a6", "#faf4fb", "#b0862a"),
}
INK = QColor("#1d1712")
INK_SOFT = QColor("#5b5046")
INK_GENERATED = QColor("#2c4f7c")  # rules text written from the effect's data, not printed
UP = QColor("#1d7a33")
DOWN = QColor("#b3261e")

COIN_ICONS = {
    "mana": "mana",
    "mana_empty": "mana_empty",
    "active_master": "active_master",
    "assassination": "assassination",
}


# --- SVG access ------------------------------------------------------------------------------------


def _stem(name: str) -> str:
    return name[:-4] if name.endswith(".svg") else name


@lru_cache(maxsize=None)
def _renderer(stem: str) -> QSvgRenderer:
    path = assets_dir() / "svg" / f"{stem}.svg"
    if not path.is_file():
        raise FileNotFoundError(f"no SVG asset {path}")
    renderer = QSvgRenderer(str(path))
    if not renderer.isValid():
        raise ValueError(f"invalid SVG asset {path}")
    return renderer


def svg_renderer(name: str) -> QSvgRenderer:
    """The renderer for ``assets/svg/<name>.svg`` (cached; ``name`` with or without ``.svg``).
    FileNotFoundError if there is no such asset."""
    return _renderer(_stem(name))


@lru_cache(maxsize=512)
def _svg_pixmap(name: str, width: int, height: int, greyed: bool, dpr: float) -> QPixmap:
    image = QImage(max(1, round(width * dpr)), max(1, round(height * dpr)),
                   QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
    svg_renderer(name).render(painter, QRectF(0, 0, image.width(), image.height()))
    if greyed:
        image_grey = image.convertToFormat(QImage.Format.Format_Grayscale8)
        painter.end()
        alpha = image.convertToFormat(QImage.Format.Format_Alpha8)
        image = image_grey.convertToFormat(QImage.Format.Format_ARGB32_Premultiplied)
        painter = QPainter(image)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_DestinationIn)
        painter.drawImage(0, 0, alpha)
        painter.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceAtop)
        painter.fillRect(image.rect(), QColor(235, 235, 235, 110))  # lighten: a used, faded mark
    painter.end()
    pixmap = QPixmap.fromImage(image)
    pixmap.setDevicePixelRatio(dpr)
    return pixmap


def svg_pixmap(name: str, size: QSize, *, greyed: bool = False, device_pixel_ratio: float = 1.0) -> QPixmap:
    """``assets/svg/<name>.svg`` rendered at ``size`` (cached); ``greyed`` for used or inactive marks."""
    return _svg_pixmap(_stem(name), size.width(), size.height(), greyed, float(device_pixel_ratio))


def clear_caches() -> None:
    """Forget cached renderers and pixmaps (after the assets change on disk)."""
    _renderer.cache_clear()
    _svg_pixmap.cache_clear()


# --- geometry and text helpers ---------------------------------------------------------------------


class _Card:
    """Maps viewBox coordinates of the frame into the target rect."""

    def __init__(self, rect: QRectF):
        self.rect = rect
        self.sx = rect.width() / CARD_W
        self.sy = rect.height() / CARD_H
        self.s = min(self.sx, self.sy)

    def r(self, x: float, y: float, w: float, h: float) -> QRectF:
        return QRectF(self.rect.x() + x * self.sx, self.rect.y() + y * self.sy, w * self.sx, h * self.sy)

    def band(self, band: tuple[float, float, float, float], pad: float = 0.0) -> QRectF:
        x, y, w, h = band
        return self.r(x + pad, y, w - 2 * pad, h)


def _square_in(rect: QRectF) -> QRectF:
    side = min(rect.width(), rect.height())
    return QRectF(rect.center().x() - side / 2, rect.center().y() - side / 2, side, side)


def _metrics(font: QFont, painter: QPainter) -> QFontMetricsF:
    device = painter.device()
    return QFontMetricsF(font, device) if device is not None else QFontMetricsF(font)


def _fit_font(painter: QPainter, text: str, width: float, px: float, *, bold: bool = False,
              min_px: float = MIN_TEXT_PX) -> QFont | None:
    """The largest font up to ``px`` in which ``text`` fits ``width`` (not below ``min_px``);
    None if even ``px`` is below ``min_px``. The caller elides what still does not fit."""
    if px < min_px:
        return None
    font = pixel_font(px, bold)
    advance = _metrics(font, painter).horizontalAdvance(text)
    if advance <= width or width <= 0:
        return font
    size = max(math.ceil(min_px), math.floor(px * width / advance))
    font = pixel_font(size, bold)
    while size > math.ceil(min_px) and _metrics(font, painter).horizontalAdvance(text) > width:
        size -= 1
        font = pixel_font(size, bold)
    return font


def _fits(painter: QPainter, text: str, font: QFont, width: float) -> bool:
    return _metrics(font, painter).horizontalAdvance(text) <= width


def _draw_line(painter: QPainter, rect: QRectF, text: str, font: QFont, color: QColor,
               align: Qt.AlignmentFlag = Qt.AlignmentFlag.AlignCenter) -> None:
    painter.setFont(font)
    painter.setPen(color)
    elided = _metrics(font, painter).elidedText(text, Qt.TextElideMode.ElideRight, rect.width())
    painter.drawText(rect, int(align | Qt.AlignmentFlag.AlignVCenter), elided)


def _wrap(painter: QPainter, text: str, font: QFont, width: float) -> list[str]:
    """Line-break ``text`` (Japanese breaks between any characters, English at spaces)."""
    lines: list[str] = []
    for paragraph in text.splitlines() or [""]:
        layout = QTextLayout(paragraph, font, painter.device())
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(width)
            lines.append(paragraph[line.textStart(): line.textStart() + line.textLength()].rstrip())
        layout.endLayout()
    return lines


def _mark(painter: QPainter, name: str, rect: QRectF) -> None:
    if rect.width() >= 3:
        svg_renderer(name).render(painter, _square_in(rect))


# --- what a card says ------------------------------------------------------------------------------


def _has_provenance(card: CardDef, path: str, value: str) -> bool:
    """The field or anything under it has the given provenance."""
    if card.provenance_of(path) == value:
        return True
    prefix = path + "."
    return any(p.startswith(prefix) and v == value for p, v in card.provenance.items())


def _patched(card: CardDef, path: str) -> bool:
    prefix = path + "."
    return any(p.path == path or p.path.startswith(prefix) for p in card.patches) or _has_provenance(
        card, path, "errata"
    )


def _class_label(name: str, lang: str) -> str:
    if lang == "en":
        return CLASSES.get(name, name)
    reverse = {en: ja for ja, en in CLASSES.items()}
    return reverse.get(name, name)


def _type_line(card: CardDef, lang: str) -> str:
    kind = tr_in(lang, f"kind.{card.kind}")
    dot = " ・ " if lang == "ja" else " · "
    if card.kind == "hero" and card.classes:
        return f"{kind}{dot}" + "/".join(_class_label(c, lang) for c in card.classes)
    if card.kind == "class" and card.class_name:
        return f"{kind}{dot}{_class_label(card.class_name, lang)}"
    return kind


def effect_header(effect: Effect, lang: str = "ja") -> str:
    """``cost · timing(window) · name`` as on the card, e.g. ``R4 · 【起動】(ダメージ判定プロセス) · 約束された勝利の剣``."""
    timing = tr_in(lang, f"timing.{effect.timing}")
    if not effect.is_constant:
        timing += f"({tr_in(lang, f'window.{effect.window}')})"
    name = (effect.name_en or effect.name) if lang == "en" else effect.name
    raw = effect.cost.raw
    if lang == "en" and raw and not raw.isascii():
        raw = ""  # a cost written out in Japanese: the English text says it in words
    parts = [raw] if raw else []
    return " · ".join(parts + [timing, name])


def _effect_text(effect: Effect, lang: str) -> str:
    if lang == "en":
        return effect.text_en or effect.text
    return effect.text or effect.text_en


def _shows_stats(card: CardDef) -> bool:
    return card.kind in ("hero", "class") or any(card.stats.as_dict().values())


# --- card faces ------------------------------------------------------------------------------------


def paint_card_face(
    painter: QPainter,
    rect: QRectF,
    card: CardDef,
    *,
    effective_stats: Mapping[str, int] | None = None,
    lang: str = "ja",
    show_provenance: bool = True,
    db: Any = None,
) -> None:
    """Draw ``card`` face up into ``rect``: frame, names, type line, stats, skills and effects.

    ``effective_stats`` (``{"pa": 12, ...}``) replaces the printed numbers, coloured by whether they
    are above or below them. Provisional fields get the provisional mark, errata'd ones the errata
    mark (unless ``show_provenance`` is off). Detail too small to read at this size is left out.
    """
    rect = QRectF(rect)
    if rect.width() < 4 or rect.height() < 4:
        return
    painter.save()
    try:
        painter.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing
                               | QPainter.RenderHint.SmoothPixmapTransform)
        kind = card.kind if card.kind in PALETTE else "hero"
        svg_renderer(f"frame-{kind}").render(painter, rect)
        geo = _Card(rect)
        marks = show_provenance
        _paint_name(painter, geo, card, lang, marks)
        _paint_type_line(painter, geo, card, kind, lang, marks)
        stats = _shows_stats(card)
        if stats:
            _paint_stats(painter, geo, card, kind, effective_stats, lang, marks)
        compact = kind in ("mystic_code", "scene") and not stats
        _paint_skills(painter, geo, card, kind, marks, SKILL_BAND_NO_STATS if compact else SKILL_BAND)
        _paint_effects(painter, geo, card, lang, marks, TEXT_BOX_NO_STATS if compact else TEXT_BOX, db)
        if marks and card.patches:
            side = max(8.0, 46 * geo.s)
            _mark(painter, "errata", QRectF(rect.right() - side * 1.15, rect.top() + side * 0.15, side, side))
        if marks and card.provenance_default == "entered":  # typed in from the group's own box
            side = max(8.0, 46 * geo.s)
            _mark(painter, "entered", QRectF(rect.left() + side * 0.15, rect.top() + side * 0.15, side, side))
    finally:
        painter.restore()


def _paint_name(painter: QPainter, geo: _Card, card: CardDef, lang: str, marks: bool) -> None:
    plate = geo.band(NAME_PLATE, pad=14)
    provisional = marks and _has_provenance(card, "name", "provisional")
    if provisional:
        side = min(plate.height() * 0.42, 40 * geo.s)
        _mark(painter, "provisional", QRectF(plate.right() - side, plate.top() + 4 * geo.s, side, side))
        plate.setRight(plate.right() - side)
    primary, secondary = (card.name, card.name_en) if lang != "en" else (card.name_en or card.name, card.name)
    if secondary == primary:
        secondary = ""
    small_px = 26 * geo.sy
    if secondary and small_px >= MIN_TEXT_PX:
        top = QRectF(plate.x(), plate.y(), plate.width(), plate.height() * 0.64)
        bottom = QRectF(plate.x(), top.bottom(), plate.width(), plate.height() * 0.32)
        big = _fit_font(painter, primary, top.width(), top.height() * 0.72, bold=True, min_px=1)
        _draw_line(painter, top, primary, big, INK)
        small = _fit_font(painter, secondary, bottom.width(), small_px)
        if small is not None:
            _draw_line(painter, bottom, secondary, small, INK_SOFT)
    else:
        big = _fit_font(painter, primary, plate.width(), plate.height() * 0.62, bold=True, min_px=1)
        _draw_line(painter, plate, primary, big, INK)


def _paint_type_line(painter: QPainter, geo: _Card, card: CardDef, kind: str, lang: str, marks: bool) -> None:
    band = geo.band(TYPE_LINE, pad=18)
    px = band.height() * 0.62
    if px < MIN_TEXT_PX:
        return
    colour = QColor(PALETTE[kind][1])
    id_font = pixel_font(px * 0.8)
    id_width = _metrics(id_font, painter).horizontalAdvance(card.id) + 4
    if card.id and band.width() > id_width * 3.5:
        _draw_line(painter, band, card.id, id_font, colour, Qt.AlignmentFlag.AlignRight)
        if marks and _has_provenance(card, "id", "provisional"):
            side = band.height() * 0.8
            _mark(painter, "provisional", QRectF(band.right() - id_width - side, band.center().y() - side / 2, side, side))
            id_width += side
        band.setRight(band.right() - id_width - 6 * geo.s)
    field = "classes" if card.kind == "hero" else "class_name"
    if marks and card.kind in ("hero", "class") and _has_provenance(card, field, "provisional"):
        side = band.height() * 0.8
        _mark(painter, "provisional", QRectF(band.left(), band.center().y() - side / 2, side, side))
        band.setLeft(band.left() + side + 4 * geo.s)
    text = _type_line(card, lang)
    font = _fit_font(painter, text, band.width(), px, bold=True, min_px=min(px, MIN_TEXT_PX))
    if font is not None:
        _draw_line(painter, band, text, font, colour, Qt.AlignmentFlag.AlignLeft)


def _paint_stats(painter: QPainter, geo: _Card, card: CardDef, kind: str,
                 effective: Mapping[str, int] | None, lang: str, marks: bool) -> None:
    band = geo.band(STATS_BAND)
    gap = 12 * geo.sx
    box_w = (band.width() - 3 * gap) / 4
    _dark, _type, fill, border = PALETTE[kind]
    printed = card.stats.as_dict()
    label_px = 20 * geo.sy
    show_labels = label_px >= MIN_TEXT_PX
    for i, key in enumerate(STAT_KEYS):
        box = QRectF(band.x() + i * (box_w + gap), band.y(), box_w, band.height())
        painter.setPen(QPen(QColor(border), max(1.0, 3 * geo.s)))
        painter.setBrush(QColor(fill))
        radius = 10 * geo.s
        painter.drawRoundedRect(box, radius, radius)
        base = printed[key]
        value = effective.get(key, base) if effective else base
        text = f"+{value}" if card.kind == "class" and value > 0 else str(value)
        colour = UP if value > base else DOWN if value < base else INK
        if show_labels:
            label_rect = QRectF(box.x(), box.y() + 2 * geo.sy, box.width(), box.height() * 0.34)
            value_rect = QRectF(box.x(), label_rect.bottom() - 2 * geo.sy, box.width(), box.height() * 0.64)
            _draw_line(painter, label_rect, tr_in(lang, f"stat.{key}"), pixel_font(label_px), INK_SOFT)
        else:
            value_rect = box
        font = _fit_font(painter, text, value_rect.width() * 0.92, value_rect.height() * 0.82, bold=True, min_px=1)
        _draw_line(painter, value_rect, text, font, colour)
        if value != base and show_labels:
            # the printed value, small, in the bottom-right corner
            small = QRectF(box.x(), box.bottom() - box.height() * 0.32, box.width() - 6 * geo.sx, box.height() * 0.3)
            _draw_line(painter, small, f"({base})", pixel_font(max(MIN_TEXT_PX, 16 * geo.sy)), INK_SOFT,
                       Qt.AlignmentFlag.AlignRight)
        if marks and _has_provenance(card, f"stats.{key}", "provisional"):
            side = max(5.0, min(box.height() * 0.34, 30 * geo.s))
            _mark(painter, "provisional", QRectF(box.right() - side * 0.85, box.top() - side * 0.25, side, side))


def _paint_skills(painter: QPainter, geo: _Card, card: CardDef, kind: str, marks: bool,
                  area: tuple[float, float, float, float]) -> None:
    if not card.skills:
        return
    band = geo.band(area, pad=4)
    px = band.height() * 0.55
    if px < MIN_TEXT_PX:
        return
    font = pixel_font(px, bold=True)
    fm = _metrics(font, painter)
    dark, light, _fill, border = PALETTE[kind]
    x = band.x()
    pad = px * 0.6
    provisional = marks and _has_provenance(card, "skills", "provisional")
    reserve = band.height() if provisional else 0.0
    for n, skill in enumerate(card.skills):
        text = skill if skill.startswith("【") else f"【{skill}】"
        width = fm.horizontalAdvance(text) + 2 * pad
        room = band.right() - reserve - x
        if width > room:
            if room > fm.horizontalAdvance("…") + 2 * pad:
                text, width = "…", fm.horizontalAdvance("…") + 2 * pad
            else:
                break
        chip = QRectF(x, band.y() + band.height() * 0.08, width, band.height() * 0.84)
        painter.setPen(QPen(QColor(border), max(1.0, 2 * geo.s)))
        painter.setBrush(QColor(dark))
        painter.drawRoundedRect(chip, chip.height() / 2, chip.height() / 2)
        _draw_line(painter, chip, text, font, QColor(light))
        x += width + 8 * geo.sx
        if text == "…":
            break
    if provisional:
        side = band.height() * 0.8
        _mark(painter, "provisional", QRectF(min(x, band.right() - side), band.center().y() - side / 2, side, side))


def rules_text(card: CardDef, lang: str, db: Any = None) -> list[tuple[str, bool]]:
    """Per effect of ``card``: (rules text, generated?) — the printed text in ``lang`` where the
    data has it (and errata left the effect as printed), else text generated from its operations."""
    try:
        from fate_royal.text.cardtext import card_text, effect_text

        out = card_text(card, lang, db)
        if lang != "ja":
            # an English text quoting Japanese terms (other than names and 【】 keywords) reads
            # as mixed language: the text generated from the effect's data says it in English
            out = [(effect_text(e, lang, db), True) if not generated and _mixed(text, card, db) else
                   (text, generated) for e, (text, generated) in zip(card.effects, out)]
        return out
    except Exception:  # never let a text problem stop a card from being drawn
        return [(_effect_text(e, lang), False) for e in card.effects]


_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def _mixed(text: str, card: CardDef, db: Any = None) -> bool:
    """Japanese left in an English text once the card's names and 【】 terms are taken out."""
    names = {card.name, card.name_en} | {n for e in card.effects for n in (e.name, e.name_en)}
    if db is not None:
        names |= {ch.name for ch in getattr(db, "chips", {}).values()}
        names |= {c.name for c in db.cards.values()} | {e.name for c in db.cards.values() for e in c.effects}
    text = re.sub(r"【[^】]*】", " ", text)
    for n in sorted((n for n in names if n), key=len, reverse=True):
        text = text.replace(n, " ")
    return bool(_JAPANESE.search(text))


_HEADER = re.compile(r"^(?:\s*(?:【[^】]*】|（[^）]*）|\[[^\]]*\]|\([^)]*\)))+[\s\u3000]*")


def _strip_header(text: str) -> str:
    """Generated text without its leading timing/window/keyword brackets (the face's effect
    header says them already)."""
    rest = _HEADER.sub("", text, count=1)
    return rest or text


def _paint_effects(painter: QPainter, geo: _Card, card: CardDef, lang: str, marks: bool,
                   area: tuple[float, float, float, float], db: Any = None) -> None:
    box = geo.band(area, pad=16)
    box.adjust(0, 12 * geo.sy, 0, -12 * geo.sy)
    header_px = max(21 * geo.sy, MIN_TEXT_PX)
    body_px = 19 * geo.sy
    header_font = pixel_font(header_px, bold=True)
    body_font = pixel_font(body_px) if body_px >= MIN_TEXT_PX else None
    header_h = _metrics(header_font, painter).height() * 1.08
    body_h = _metrics(body_font, painter).height() * 1.05 if body_font else 0.0
    paragraphs: list[tuple[Effect | None, str, list[str], bool]] = []
    texts_ = rules_text(card, lang, db)
    for effect, (body, generated) in zip(card.effects, texts_):
        if generated:
            body = _strip_header(body)
        paragraphs.append((effect, effect_header(effect, lang), [body] if body else [], generated))
    if card.text:
        paragraphs.append((None, "", [card.text], False))
    if not paragraphs:
        return
    max_lines_header = int(box.height() // header_h)
    n_headers = sum(1 for e, h, _, _g in paragraphs if h)
    if max_lines_header < 1:
        return
    # Budget: every effect gets its header line first; body lines share what is left, one line
    # each in turn (a long first effect no longer leaves the third and fourth without a word)
    spare = box.height() - min(n_headers, max_lines_header) * header_h
    wrapped = [_wrap(painter, " ".join(bodies), body_font, box.width() - 10 * geo.sx)
               if body_font is not None and bodies else [] for _e, _h, bodies, _g in paragraphs]
    allowed = body_shares([len(lines) for lines in wrapped], spare, body_h)
    y = box.top()
    header_count = 0
    for idx, (effect, header, bodies, generated) in enumerate(paragraphs):
        if header:
            if y + header_h > box.bottom() + 0.5 or header_count >= max_lines_header:
                _draw_line(painter, QRectF(box.x(), box.bottom() - header_h, box.width(), header_h), "…",
                           header_font, INK_SOFT, Qt.AlignmentFlag.AlignRight)
                return
            line = QRectF(box.x(), y, box.width(), header_h)
            path = f"effects.{effect.index or idx + 1}" if effect is not None else ""
            line = _effect_marks(painter, geo, card, path, line, marks)
            if generated and body_font is not None and bodies:
                line = _generated_mark(painter, line, lang)
            text, font = _header_fit(painter, effect, header, header_font, header_px, line.width(), lang)
            _draw_line(painter, line, text, font, INK, Qt.AlignmentFlag.AlignLeft)
            y += header_h
            header_count += 1
        lines, fit = wrapped[idx], allowed[idx]
        if fit <= 0:
            continue
        shown = lines[:fit]
        if len(lines) > fit:
            shown[-1] = shown[-1] + "…"
        for text in shown:
            _draw_line(painter, QRectF(box.x() + 10 * geo.sx, y, box.width() - 10 * geo.sx, body_h), text,
                       body_font, INK_GENERATED if generated else INK_SOFT, Qt.AlignmentFlag.AlignLeft)
            y += body_h
        y += body_h * 0.3


def body_shares(lines: list[int], spare: float, line_h: float, gap: float = 0.3) -> list[int]:
    """How many body lines each paragraph of a card face gets, when paragraph ``i`` has
    ``lines[i]`` lines and ``spare`` pixels are left under the headers (a line ``line_h`` high,
    ``gap`` of a line after each paragraph shown but the card's last): one line to each in turn,
    in order, until the space or the lines run out; when there is not a line for each, the first
    ones get one."""
    got = [0] * len(lines)
    with_body = [i for i, n in enumerate(lines) if n > 0]
    if line_h <= 0:
        return got
    for wanting in range(len(with_body), 0, -1):
        taking = with_body[:wanting]
        gaps = wanting - (1 if taking[-1] == len(lines) - 1 else 0)
        total = int(max(0.0, spare - gaps * gap * line_h) // line_h)
        if total >= wanting:
            break
    else:
        return got
    while total > 0:
        before = total
        for i in taking:
            if total > 0 and got[i] < lines[i]:
                got[i] += 1
                total -= 1
        if total == before:  # every paragraph shown whole
            break
    return got


def _generated_mark(painter: QPainter, line: QRectF, lang: str) -> QRectF:
    """A small "generated" tag at the right end of an effect header whose text below was written
    from the effect's data, not printed; returns the header's rest."""
    label = tr_in(lang, "card.generated_tag")
    font = pixel_font(max(MIN_TEXT_PX, line.height() * 0.62), bold=True)
    w = _metrics(font, painter).horizontalAdvance(label) + line.height() * 0.5
    if w > line.width() * 0.4:
        return line
    tag = QRectF(line.right() - w, line.top() + line.height() * 0.1, w, line.height() * 0.8)
    painter.save()
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(INK_GENERATED)
    painter.drawRoundedRect(tag, tag.height() / 2, tag.height() / 2)
    _draw_line(painter, tag, label, font, QColor("#ffffff"))
    painter.restore()
    return QRectF(line.left(), line.top(), line.width() - w - 3, line.height())


def _header_fit(painter: QPainter, effect: Effect | None, header: str, font: QFont, px: float,
                width: float, lang: str) -> tuple[str, QFont]:
    """The effect header that fits: in full, slightly smaller, or when small just timing and name,
    then the name alone (the card's cost and window are in the inspector)."""
    if effect is None or _fits(painter, header, font, width):
        return header, font
    smaller = _fit_font(painter, header, width, px, bold=True, min_px=max(MIN_TEXT_PX, px * 0.8))
    if smaller is not None and _fits(painter, header, smaller, width):
        return header, smaller
    name = (effect.name_en or effect.name) if lang == "en" else effect.name
    short = f"{tr_in(lang, f'timing.{effect.timing}')}{name}"
    for text in (short, name):
        if _fits(painter, text, font, width):
            return text, font
    return name, font


def _effect_marks(painter: QPainter, geo: _Card, card: CardDef, path: str, line: QRectF, marks: bool) -> QRectF:
    """Draw the provisional/errata marks at the start of an effect's header; returns the rest."""
    if not marks or not path:
        return line
    side = line.height() * 0.85
    for mark, present in (("provisional", _has_provenance(card, path, "provisional")),
                          ("errata", _patched(card, path))):
        if present:
            _mark(painter, mark, QRectF(line.left(), line.center().y() - side / 2, side, side))
            line = QRectF(line.left() + side + 3 * geo.sx, line.top(), line.width() - side - 3 * geo.sx, line.height())
    return line


def paint_card_back(painter: QPainter, rect: QRectF) -> None:
    """Draw the face-down card back into ``rect``."""
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        svg_renderer("back").render(painter, QRectF(rect))
    finally:
        painter.restore()


def card_size(width: float) -> QSizeF:
    """The size of a card ``width`` wide (63 x 88 mm proportions)."""
    return QSizeF(width, width * CARD_ASPECT)


def render_card_image(card: CardDef, size: QSize | int, *, lang: str = "ja",
                      effective_stats: Mapping[str, int] | None = None,
                      show_provenance: bool = True, face_up: bool = True, db: Any = None) -> QImage:
    """The card as an image (transparent corners); ``size`` a QSize or a width in pixels."""
    if isinstance(size, int):
        size = QSize(size, round(size * CARD_ASPECT))
    image = QImage(size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    try:
        rect = QRectF(0, 0, size.width(), size.height())
        if face_up:
            paint_card_face(painter, rect, card, effective_stats=effective_stats, lang=lang,
                            show_provenance=show_provenance, db=db)
        else:
            paint_card_back(painter, rect)
    finally:
        painter.end()
    return image


# --- coins and marks -------------------------------------------------------------------------------


def paint_coin(painter: QPainter, rect: QRectF, kind: str) -> None:
    """A coin in the square centred in ``rect``: ``mana``, ``mana_empty``, ``active_master`` or
    ``assassination``. An unknown special coin is drawn as a plain grey coin."""
    square = _square_in(QRectF(rect))
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        icon = COIN_ICONS.get(kind)
        if icon is not None:
            svg_renderer(icon).render(painter, square)
        else:
            painter.setPen(QPen(QColor("#333333"), max(1.0, square.width() / 20)))
            painter.setBrush(QColor("#9a9aa2"))
            painter.drawEllipse(square.adjusted(1, 1, -1, -1))
    finally:
        painter.restore()


def paint_icon(painter: QPainter, rect: QRectF, name: str, *, greyed: bool = False) -> None:
    """Any icon of ``assets/svg`` (deck, discard, grail, proxy, die, provisional, errata …) in the
    square centred in ``rect``."""
    square = _square_in(QRectF(rect))
    if greyed:
        _paint_greyed(painter, square, name)
        return
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        svg_renderer(name).render(painter, square)
    finally:
        painter.restore()


def _device_ratio(painter: QPainter) -> float:
    device = painter.device()
    ratio = device.devicePixelRatioF() if device is not None else 1.0
    scale = painter.worldTransform().m11()
    return max(1.0, ratio * max(abs(scale), 1.0))


def _paint_greyed(painter: QPainter, square: QRectF, name: str) -> None:
    side = max(1, round(square.width()))
    pixmap = svg_pixmap(name, QSize(side, side), greyed=True, device_pixel_ratio=_device_ratio(painter))
    painter.save()
    try:
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawPixmap(square, pixmap, QRectF(pixmap.rect()))
    finally:
        painter.restore()


def paint_command_spells(painter: QPainter, rect: QRectF, remaining: int, total: int = 3) -> None:
    """Command spells as marks, used ones greyed. Three spells are one crest of three parts (the
    last parts fade first); any other total is a row of whole crests."""
    rect = QRectF(rect)
    total = max(total, remaining, 0)
    remaining = max(0, remaining)
    if total == 0:
        return
    if total == 3:
        square = _square_in(rect)
        for part in range(1, 4):
            if part <= remaining:
                paint_icon(painter, square, f"spell-{part}")
            else:
                paint_icon(painter, square, f"spell-{part}", greyed=True)
        return
    step = rect.width() / total
    for i in range(total):
        cell = QRectF(rect.x() + i * step, rect.y(), step, rect.height())
        paint_icon(painter, cell, "command_spell", greyed=i >= remaining)


def paint_mana(painter: QPainter, rect: QRectF, count: int, limit: int) -> None:
    """``limit`` mana slots in a row across ``rect``, the first ``count`` filled with coins."""
    rect = QRectF(rect)
    slots = max(limit, count, 1)
    side = min(rect.height(), rect.width() / slots)
    for i in range(slots):
        cell = QRectF(rect.x() + i * side, rect.y() + (rect.height() - side) / 2, side, side)
        paint_coin(painter, cell.adjusted(side * 0.04, side * 0.04, -side * 0.04, -side * 0.04),
                   "mana" if i < count else "mana_empty")


def svg_names() -> list[str]:
    """The names of all shipped SVG assets (without ``.svg``)."""
    return sorted(p.stem for p in (assets_dir() / "svg").glob("*.svg"))


__all__ = [
    "svg_renderer", "svg_pixmap", "paint_card_face", "paint_card_back", "paint_coin",
    "paint_command_spells", "paint_mana", "paint_icon", "render_card_image", "effect_header",
    "card_size", "svg_names", "clear_caches", "CARD_ASPECT",
]


def marks_style(scope: str = "") -> str:
    """The arrows of number fields and the tick of check boxes, drawn for the dark windows (a
    styled spin box or check box loses the style's own marks); ``scope`` narrows the selectors
    (the main window: "QDialog ")."""
    from fate_royal.paths import assets_dir

    svg = assets_dir() / "svg"
    return "".join(f'{scope}QSpinBox::{d}-arrow {{ image: url("{(svg / f"arrow-{d}.svg").as_posix()}"); '
                   f"width: 8px; height: 5px; }}\n" for d in ("up", "down")) + \
        f'QCheckBox::indicator:checked {{ image: url("{(svg / "check.svg").as_posix()}"); }}\n'
