"""The card zoom: any card whose face the one looking may see, large, with everything it says.

Hovering a card (table, hand, pile, stack entry, a card named in the log) or pressing and holding it
shows the zoom beside the pointer: the card drawn large on the left; on the right its full rules
text (printed where known, else generated from the effect's data and marked so), its stats (and the
servant's effective stats in play), its state and what the state means, where it lies, and what
each errata or provisional mark on it means (which rule, what it changed). It always shows the card
as the rules in force make it: the game's card database already carries the rule set's patches.

The zoom is a child of the main window drawn over everything (so it appears in window grabs and
never takes the keyboard focus). Callers pass only card ids whose face is public or the viewer's
own — it is handed no hidden card.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPoint, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QLabel, QWidget

from fate_royal.cards.model import CardDef
from fate_royal.qt import art, texts
from fate_royal.qt.fonts import ui_font
from fate_royal.qt.i18n import current_language, tr
from fate_royal.text.catalog import card_note

_JAPANESE = __import__("re").compile(r"[\u3040-\u30ff\u3400-\u9fff\u30fb]")
GOLD = "#e8c36a"
DIM = "#c9bda6"
ERRATA = "#ff9d5c"
PROVISIONAL = "#7fc8ff"
GENERATED = "#8fb4e8"


@dataclass(frozen=True)
class ZoomTarget:
    """What to show: a card id the viewer may see, and where/how it lies (all optional)."""

    card_id: str
    owner: int | None = None
    role: str = ""  # hero | class | code | hand | discard | grail | stack | log | pile
    state: str | None = None
    uid: int | None = None


def mark_img(name: str, px: int = 15) -> str:
    """The card face's own mark (``errata``, ``provisional``) inline in rich text."""
    from fate_royal.paths import assets_dir

    path = (assets_dir() / "svg" / f"{name}.svg").as_posix()
    return f"<img src='{_esc(path)}' width='{px}' height='{px}' style='vertical-align:middle'>"


def _esc(text: Any) -> str:
    return html.escape("" if text is None else str(text))


def _value(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "、".join(_value(x) for x in v) if current_language() == "ja" else ", ".join(_value(x) for x in v)
    if isinstance(v, dict):
        return ", ".join(f"{k}: {_value(x)}" for k, x in v.items())
    return str(v)


def zoom_html(game: Any, target: ZoomTarget, view: Any = None) -> str:
    """The zoom's text for ``target`` (rich text, UI language)."""
    lang = current_language()
    card = game.db.cards.get(target.card_id)
    if card is None:
        return ""
    w = texts.words(game)
    out: list[str] = []
    secondary = card.name if lang == "en" else card.name_en
    name = w.card_name(card)
    head = f"<span style='font-size:135%; font-weight:bold; color:{GOLD}'>{_esc(name)}</span>"
    if secondary and secondary != name:
        head += f" <span style='color:{DIM}'>{_esc(secondary)}</span>"
    head += f" <span style='color:#8a7d6a'>{_esc(card.id)}</span>"
    out.append(head)
    out.append(f"<span style='color:{DIM}'>{_esc(art._type_line(card, lang))}</span>")
    # where it lies and in what state
    where = []
    if target.owner is not None and view is not None and 0 <= target.owner < len(view.players):
        who = view.players[target.owner].name
        zone = {"hero": "zoom.where.servant", "class": "zoom.where.servant", "code": "zoom.where.seat",
                "hand": "zoom.where.hand"}.get(target.role)
        if zone:
            where.append(tr(zone, name=who))
    elif target.role in ("discard", "grail", "deck"):
        where.append(tr({"discard": "zone.discard", "grail": "zone.grail_seat", "deck": "zone.deck"}[target.role]))
    elif target.role == "stack":
        where.append(tr("panel.stack"))
    if target.state:
        where.append(f"<b>{_esc(texts.state_text(target.state))}</b> — "
                     f"{_esc(texts.tr_or(f'zoom.state.{target.state}', ''))}")
    if where:
        out.append(tr("zoom.separator").join(where))
    # stats
    if art._shows_stats(card):
        st = card.stats.as_dict()
        printed = "  ".join(f"{tr(f'stat.{k}')} {('+' if card.kind == 'class' and v > 0 else '')}{v}"
                            for k, v in st.items())
        out.append(f"<b>{_esc(tr('zoom.printed_stats'))}</b> {_esc(printed)}")
    if target.role in ("hero", "class") and view is not None and target.owner is not None:
        sv = view.players[target.owner]
        c = view.combat
        proxy = c.get("proxies", {}).get(target.owner, "") if c is not None else ""
        proxy = proxy if proxy not in ("", "#removed", None) else ""
        if sv.stats:
            eff = "  ".join(f"{tr(f'stat.{k}')} {sv.stats.get(k, 0)}" for k in ("pa", "pd", "ma", "md"))
            # in proxy combat the stats that fight are the proxy's (E6), not the servant's
            label = tr("zoom.proxy_stats", chip=texts.words(game).chip_name(proxy)) if proxy \
                else tr("zoom.servant_stats")
            out.append(f"<b>{_esc(label)}</b> {_esc(eff)}")
        if proxy:
            out.append(f"<span style='color:#d9b3ff'>{_esc(tr('zoom.proxy_suppressed'))}</span>")
    if card.skills:
        w_ = texts.words(game)
        out.append(f"<b>{_esc(tr('card.skills'))}</b> " + _esc(w_.join(w_.keyword(s) for s in card.skills)))
    # rules text, effect by effect, with its marks explained
    bodies = art.rules_text(card, lang, game.db)
    for e, (body, generated) in zip(card.effects, bodies):
        path = f"effects.{e.index}"
        marks = ""
        if art._has_provenance(card, path, "provisional"):
            marks += mark_img("provisional") + " "
        if art._patched(card, path):
            marks += mark_img("errata") + " "
        header = f"{marks}<b>{_esc(art.effect_header(e, lang))}</b>"
        gen = (f" <span style='color:{GENERATED}'>［{_esc(tr('zoom.generated'))}］</span>"
               if generated else "")
        if generated:
            body = art._strip_header(body)
        out.append(f"<div style='margin-top:6px'>{header}{gen}<br>"
                   f"<span style='color:{GENERATED if generated else '#f4ecdc'}'>{_esc(body)}</span></div>")
    if card.text:
        out.append(f"<div style='margin-top:6px'>{_esc(card.text)}</div>")
    # the marks explained
    notes = []
    for p in card.patches:
        simple = all(isinstance(v, (str, int, float)) for v in (p.before, p.after))
        before, after = _value(p.before), _value(p.after)
        change = (f"{_esc(before)} → {_esc(after)}" if simple and len(before) + len(after) < 60 else "")
        notes.append(f"{mark_img('errata')} <span style='color:{ERRATA}'>{_esc(tr('zoom.errata_mark', rule=p.rule))}</span> "
                     f"{_esc(texts.field_label(p.path, card))}"
                     + (f": {change}" if change else "")
                     # the errata's source text is Japanese: quoted in the Japanese UI only
                     + (f" <span style='color:#8a7d6a'>({_esc(p.source)})</span>"
                        if p.source and lang == "ja" else ""))
    seen: set[str] = set()
    for path in card.provisional_paths():
        label = tr("zoom.field.stats") if path.startswith("stats.") else texts.field_label(path, card)
        if label in seen:
            continue
        seen.add(label)
        # the data's notes are written in English; the Japanese table shows their Japanese wording
        # (assets/i18n/cardnotes.ja.yaml), a note with no wording only in the English UI
        note = card.notes.get(path, "") or card.notes.get(path.rsplit(".", 1)[0], "")
        worded = card_note(note, lang)
        note = worded if worded != note or lang == "en" else ""
        if note and lang == "en" and _JAPANESE.search(note):
            note = ""  # a note quoting the Japanese card text: the mark's meaning is enough
        notes.append(f"{mark_img('provisional')} <span style='color:{PROVISIONAL}'>{_esc(tr('provenance.provisional'))}</span> "
                     f"{_esc(label)}" + (f" — {_esc(note)}" if note else ""))
    if seen:
        notes.append(f"{mark_img('provisional')} {_esc(tr('provenance.provisional_note'))}")
    if notes:
        out.append(f"<div style='margin-top:8px; color:{DIM}'>" + "<br>".join(notes) + "</div>")
    return "".join(o if o.startswith("<div") else f"<div>{o}</div>" for o in out)


class CardZoom(QWidget):
    """The large view, drawn over the window; ``show_target`` / ``hide_zoom``."""

    def __init__(self, window: QWidget, controller: Any) -> None:
        super().__init__(window)
        self.controller = controller
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.text = QLabel(self)
        self.text.setWordWrap(True)
        self.text.setTextFormat(Qt.TextFormat.RichText)
        self.text.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.text.setStyleSheet("color:#f4ecdc; background:transparent;")
        self.target: ZoomTarget | None = None
        self._pixmap: QPixmap | None = None
        self.hide()

    # --- showing ---------------------------------------------------------------------------------

    def show_target(self, target: ZoomTarget, anchor: QPoint) -> bool:
        """Show ``target`` beside ``anchor`` (a point in the window's coordinates). False if the
        card is unknown (nothing shown)."""
        g = self.controller.game
        if g is None or target.card_id not in g.db.cards:
            self.hide_zoom()
            return False
        if self.target == target and self.isVisible():
            return True
        self.target = target
        view = self.controller.table_view()
        win = self.parentWidget()
        wh, ww = max(300, win.height()), max(400, win.width())
        card_w = int(max(200, min(420, wh * 0.42, ww * 0.26)))
        card_h = int(card_w * art.CARD_ASPECT)
        text_w = int(card_w * 1.3)
        pad = 14
        card = g.db.cards[target.card_id]
        img = art.render_card_image(card, QSize(card_w, card_h), lang=current_language(), db=g.db)
        self._pixmap = QPixmap.fromImage(img)
        pt = max(9.0, min(15.0, wh / 70))
        self.text.setFont(ui_font(pt))
        self.text.setText(zoom_html(g, target, view))
        self.text.setFixedWidth(text_w)
        height = max(card_h, self.text.heightForWidth(text_w))
        while height > wh - 2 * pad - 8 and pt > 7.5:  # a long card: a smaller font, never cut
            pt -= 0.5
            self.text.setFont(ui_font(pt))
            height = max(card_h, self.text.heightForWidth(text_w))
        self.text.setGeometry(QRect(pad + card_w + pad, pad, text_w, height))
        self._card_rect = QRectF(pad, pad, card_w, card_h)
        size = QSize(pad * 3 + card_w + text_w, min(wh - 8, height + 2 * pad))
        # beside the pointer: to its right if it fits, else to its left; within the window
        x = anchor.x() + 24
        if x + size.width() > ww - 4:
            x = anchor.x() - 24 - size.width()
        x = max(4, min(x, ww - size.width() - 4))
        y = max(4, min(anchor.y() - size.height() // 3, wh - size.height() - 4))
        self.setGeometry(QRect(QPoint(x, y), size))
        self.show()
        self.raise_()
        self.update()
        return True

    def hide_zoom(self) -> None:
        self.target = None
        if self.isVisible():
            self.hide()

    def plain_text(self) -> str:
        from PySide6.QtGui import QTextDocument

        doc = QTextDocument()
        doc.setHtml(self.text.text())
        return doc.toPlainText()

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        try:
            p.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
            r = QRectF(self.rect()).adjusted(1, 1, -1, -1)
            p.setPen(QPen(QColor(GOLD), 2))
            p.setBrush(QColor(18, 12, 8, 245))
            p.drawRoundedRect(r, 12, 12)
            if self._pixmap is not None:
                p.drawPixmap(self._card_rect.topLeft(), self._pixmap)
        finally:
            p.end()


def attach_to_table(view: Any) -> CardZoom:
    """The zoom of a table drawn in a window of its own (the comparison's two sides, the presenter
    view): hovering or holding a card shows it large over that window, as on the main table. It
    reads the view's own controller, so it only ever gets a face that view shows. Call it once
    the view is inside its window."""
    zoom = CardZoom(view.window(), view.controller)

    def show(target: Any, at: Any) -> None:
        if target is None:
            zoom.hide_zoom()
        else:
            zoom.show_target(target, at)

    view.zoom_card.connect(show)
    view.card_zoom = zoom
    return zoom


def attach_to_pile(dialog: Any, controller: Any, kind: str) -> "CardZoom | None":
    """The zoom inside a pile browser (discard pile, grail seat): hovering a card shows it large."""
    listing = getattr(dialog, "list", None)
    if listing is None:
        return None
    zoom = CardZoom(dialog, controller)
    listing.setMouseTracking(True)

    def entered(item: Any) -> None:
        row = listing.row(item)
        if 0 <= row < len(dialog.cards):
            pos = listing.mapTo(dialog, listing.visualItemRect(item).center())
            zoom.show_target(ZoomTarget(dialog.cards[row], role=kind), pos)

    listing.itemEntered.connect(entered)
    listing.viewportEntered.connect(zoom.hide_zoom)
    dialog.zoom = zoom
    return zoom
