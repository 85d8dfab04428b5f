"""The card inspector: one card shown large, its effective stats with each modifier's source, the
provenance of every field (printed / errata / provisional, with the notes), and its definition
before and after errata side by side, each applied patch with its rule id and source text.

It shows only what is public: a card chosen from the list is the card *definition*; stats in play
are shown for an instance only when its face is visible to the current viewer.
"""

from __future__ import annotations

import html
from typing import Any, Iterable

from PySide6.QtCore import QSize, Qt, Signal, QUrl
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLabel, QSizePolicy, QSplitter, QTextBrowser, QVBoxLayout, QWidget,
)

from fate_royal.cards.model import CardDef
from fate_royal.qt import art, texts
from fate_royal.qt.compat import emit
from fate_royal.qt.i18n import current_language, tr
from fate_royal.qt.i18n import tr as t
from fate_royal.qt.texts import field_label
from fate_royal.qt.window import QWIDGETSIZE_MAX
from fate_royal.text.catalog import card_note
from fate_royal.text.words import Words

STAT_KEYS = ("pa", "pd", "ma", "md")
PROV_COLOURS = {"printed": "#bfb3a0", "errata": "#ff9d5c", "provisional": "#7fc8ff"}

STYLE = """
QWidget#inspector { background: #1b130e; }
QLabel { color: #f4ecdc; }
QComboBox { background: #2b1e15; color: #f4ecdc; border: 1px solid #6b5237; border-radius: 4px;
  padding: 0.2em 0.5em; }
QComboBox QAbstractItemView { background: #2b1e15; color: #f4ecdc; selection-background-color: #4e3826; }
QTextBrowser { background: #0f0a07; color: #eadfcb; border: 1px solid #3a2a1f; border-radius: 4px; }
"""


def _esc(v: Any) -> str:
    return html.escape("" if v is None else str(v))


def _dot() -> str:
    """The separator between an id and what follows, in the table's language."""
    return " ・ " if current_language() == "ja" else " · "


def ops_text(ops: Iterable[Any]) -> str:
    """Operations as short text: ``draw(count=1), discard(count=1, subject=self)``."""
    out = []
    for o in ops or ():
        if isinstance(o, dict):
            name = o.get("op", "?")
            params = {k: v for k, v in o.items() if k not in ("op", "if")}
            cond = o.get("if")
        else:
            name, params, cond = getattr(o, "op", "?"), dict(getattr(o, "params", {}) or {}), getattr(o, "condition", None)
        body = ", ".join(f"{k}={_plain(v)}" for k, v in sorted(params.items()))
        text = f"{name}({body})"
        if cond:
            text += f" if {_plain(cond)}"
        out.append(text)
    return ", ".join(out) or "—"


def _plain(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_plain(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_plain(x) for x in v) + "]"
    return str(v)


def card_fields(card: CardDef) -> list[str]:
    """The dotted field paths worth showing for a card, in reading order."""
    paths = ["name", "name_en"]
    if card.kind in ("hero", "class") or any(card.stats.as_dict().values()):
        paths += [f"stats.{k}" for k in STAT_KEYS]
    if card.kind == "hero":
        paths.append("classes")
    if card.kind == "class":
        paths.append("class_name")
    paths.append("skills")
    for e in card.effects:
        base = f"effects.{e.index}"
        paths += [f"{base}.name", f"{base}.timing", f"{base}.window", f"{base}.cost", f"{base}.text",
                  f"{base}.ops"]
        if e.usable_while_down:
            paths.append(f"{base}.usable_while_down")
        if e.lost_when:
            paths.append(f"{base}.lost_when")
    for p in list(card.provenance) + [p.path for p in card.patches]:
        if p not in paths:
            paths.append(p)
    return paths


def _resolve(card: CardDef | None, path: str) -> Any:
    """The value at a dotted field path of a card (None when it has no such field)."""
    if card is None:
        return None
    obj: Any = card
    for part in path.split("."):
        if part.isdigit() and isinstance(obj, (tuple, list)):
            i = int(part) - 1
            if not 0 <= i < len(obj):
                return None
            obj = obj[i]
        elif isinstance(obj, dict):
            obj = obj.get(part)
        else:
            obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def field_value(card: CardDef | None, path: str) -> str:
    """The value of a dotted field path as short text, as the card file writes it ("" when the
    card has no such field)."""
    obj = _resolve(card, path)
    if obj is None:
        return ""
    if path.endswith(".ops"):
        return ops_text(obj)
    if hasattr(obj, "raw"):
        return obj.raw or tr("card.free")
    if isinstance(obj, (tuple, list)):
        if obj and hasattr(obj[0], "op"):
            return ops_text(obj)
        return "、".join(str(x) for x in obj) or "—"
    if isinstance(obj, bool):
        return "yes" if obj else "no"
    if isinstance(obj, dict):
        return _plain(obj)
    return str(obj)


def value_words(value: Any) -> str:
    """A plain value of a card field or patch in the table's language (yes/no, none)."""
    if value is None:
        return tr("editor.none")
    if isinstance(value, bool):
        return tr("rulings.value.yes" if value else "rulings.value.no")
    return _plain(value)


def _listed(names: Iterable[str]) -> str:
    """Names in a list as the table's language writes one ("—" for none)."""
    return ("、" if current_language() == "ja" else ", ").join(names) or "—"


def field_text(card: CardDef | None, path: str, db: Any = None) -> str:
    """``field_value`` as people read it, in the table's language: an effect's timing and window as
    the card text names them, its operations in words, yes / no ("" when there is no such field)."""
    obj = _resolve(card, path)
    if obj is None or card is None:
        return ""
    parts = path.split(".")
    if parts[0] == "effects" and len(parts) == 3 and parts[1].isdigit():
        eff = next((e for e in card.effects if e.index == int(parts[1])), None)
        if parts[2] == "timing":
            return texts.tr_or(f"timing.{obj}", str(obj)).strip("【】[]")
        if parts[2] == "window":
            return texts.tr_or(f"window.{obj}", str(obj))
        if parts[2] in ("ops", "cost", "target", "condition", "lost_when") and eff is not None:
            from fate_royal.text.cardtext import part_text

            return part_text(eff, parts[2], current_language(), db) or field_value(card, path)
    if parts[0] == "effects" and len(parts) == 2 and hasattr(obj, "ops"):  # a whole effect (one a patch added)
        from fate_royal.text.cardtext import effect_text

        return f"{texts.effect_name(obj)}：{effect_text(obj, current_language(), db)}" \
            if current_language() == "ja" else f"{texts.effect_name(obj)}: {effect_text(obj, 'en', db)}"
    if path == "effects":  # a patch added or removed an effect: the effects by name
        return _listed(texts.effect_name(e) for e in obj)
    if path == "classes":
        return _listed(texts.class_label(c) for c in obj)
    if path == "class_name":
        return texts.class_label(str(obj))
    if isinstance(obj, bool):
        return value_words(obj)
    return field_value(card, path)


def provenance_label(kind: str) -> str:
    return texts.tr_or(f"provenance.{kind}", kind)


#: Below this width the inspector puts its text under the card's picture, not beside it.
NARROW_W = 560


class CardInspector(QWidget):
    """The inspector dock's widget. ``show_card(card_id, uid=None)`` selects a card."""

    rule_clicked = Signal(str)

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.card_id: str | None = None
        self.uid: int | None = None
        self.setObjectName("inspector")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 6, 8, 8)
        top = QHBoxLayout()
        self.choose_label = QLabel()
        top.addWidget(self.choose_label)
        self.chooser = QComboBox()
        self.chooser.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.chooser.currentIndexChanged.connect(self._chosen)
        top.addWidget(self.chooser, 1)
        lay.addLayout(top)
        self.hint = QLabel()
        self.hint.setStyleSheet("color:#8a7f70;")
        self.hint.setWordWrap(True)
        lay.addWidget(self.hint)
        split = QSplitter(Qt.Orientation.Vertical)
        top_w = QWidget()
        body = QHBoxLayout(top_w)
        body.setContentsMargins(0, 0, 0, 0)
        self.image = QLabel()
        self.image.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.image.setMinimumWidth(160)
        body.addWidget(self.image, 0)
        self.summary = QTextBrowser()
        self.summary.setOpenLinks(False)
        self.summary.anchorClicked.connect(self._anchor)
        body.addWidget(self.summary, 1)
        split.addWidget(top_w)
        self.details = QTextBrowser()
        self.details.setOpenLinks(False)
        self.details.anchorClicked.connect(self._anchor)
        split.addWidget(self.details)
        split.setSizes([380, 420])
        lay.addWidget(split, 1)
        self._db_key: Any = None
        controller.changed.connect(self.refresh)
        self.refresh()

    # --- data

    def db(self) -> Any:
        g = self.controller.game
        return None if g is None else g.db

    def card(self) -> CardDef | None:
        db = self.db()
        if db is None or self.card_id is None:
            return None
        return db.cards.get(self.card_id)

    def errata_card(self) -> CardDef | None:
        """The card with errata applied (from the other database when the game plays without)."""
        card = self.card()
        if card is None:
            return None
        if card.patches or (self.db() is not None and self.db().patches):
            return card
        try:
            from fate_royal.cards import RuleSet

            return self.controller.card_db(RuleSet.house()).cards.get(card.id)
        except Exception:
            return None

    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == "rule":
            emit(self.rule_clicked, url.path())

    # --- selection

    def _fill_chooser(self) -> None:
        db = self.db()
        key = id(db)
        if key == self._db_key:
            return
        self._db_key = key
        self.chooser.blockSignals(True)
        self.chooser.clear()
        if db is not None:
            for cid in sorted(db.cards):
                c = db.cards[cid]
                self.chooser.addItem(f"{cid}  {texts.card_name(c)}", cid)
        self.chooser.blockSignals(False)
        if self.card_id is not None:
            self._select(self.card_id)

    def _select(self, card_id: str) -> None:
        i = self.chooser.findData(card_id)
        if i >= 0 and i != self.chooser.currentIndex():
            self.chooser.blockSignals(True)
            self.chooser.setCurrentIndex(i)
            self.chooser.blockSignals(False)

    def _chosen(self, index: int) -> None:
        cid = self.chooser.itemData(index)
        if cid:
            self.show_card(cid)

    def show_card(self, card_id: str, uid: int | None = None) -> None:
        self.card_id = card_id
        self.uid = uid
        self._fill_chooser()
        self._select(card_id)
        self.refresh()

    def show_uid(self, uid: int) -> None:
        """Show an instance — only if its face is visible to whoever is looking."""
        table_view = getattr(self.controller, "table_view", None)
        v = table_view() if table_view is not None else None
        if v is None:
            return
        cards = list(v.discard) + list(v.grail) + list(v.removed)
        for sv in v.players:
            cards += [c for c in (sv.hero, sv.klass) if c is not None] + list(sv.seat) + list(sv.hand)
        for cv in cards:
            if cv.known and cv.uid == uid:
                self.show_card(cv.card_id, uid)
                return

    # --- in play

    def _public_instance(self) -> tuple[int, int] | None:
        """(uid, owner) of a visible in-play instance of the card (seat), else None."""
        g = self.controller.game
        if g is None or self.card_id is None:
            return None
        table_view = getattr(self.controller, "table_view", None)
        v = table_view() if table_view is not None else None
        if v is None:
            return None
        for owner, sv in enumerate(v.players):  # only faces the one looking may see
            for cv in [c for c in (sv.hero, sv.klass) if c is not None] + list(sv.seat):
                if cv.known and cv.card_id == self.card_id and (self.uid is None or cv.uid == self.uid):
                    return cv.uid, owner
        return None

    # --- painting

    def refresh(self) -> None:
        self._fill_chooser()
        self.choose_label.setText(t("rulings.inspector.choose"))
        self.hint.setText(t("rulings.inspector.hover"))
        card = self.card()
        if card is None:
            if self.card_id is None and self.chooser.count():
                self.card_id = self.chooser.itemData(0)
                card = self.card()
            if card is None:
                self.image.clear()
                self.summary.setHtml("")
                self.details.setHtml("")
                return
        inst = self._public_instance()
        g = self.controller.game
        effective = None
        lines_html = ""
        if inst is not None and card.kind in ("hero", "class") and g is not None:
            uid, owner = inst
            try:
                effective = g.fighter_stats(owner)
                lines = g.stat_breakdown(owner)
            except Exception:
                effective, lines = None, []
            lines_html = self._stats_html(g, owner, lines, effective)
        elif inst is not None and g is not None:
            lines_html = self._stats_html(g, inst[1], self._safe_breakdown(g, inst[1]), None, card.id)
        else:
            lines_html = (f"<h3 style='color:#e8c36a'>{_esc(tr('panel.inspector.effective'))}</h3>"
                          f"<p style='color:#a99c88'>{_esc(t('rulings.inspector.not_in_play'))}</p>")
        # Narrow (a dock beside a 1280-px table, or a tab beside the demo), the text beside the
        # picture got ~150 px: the stats table's headers stood one letter a line. There the picture
        # stands alone and all of the text goes under it, the dock's whole width.
        narrow = self.width() < NARROW_W
        if narrow:
            w = max(160, min(240, self.width() - 40))
        else:
            w = max(200, min(360, int(self.width() * 0.45)))
        img = art.render_card_image(card, QSize(w, round(w * art.CARD_ASPECT)), lang=current_language(),
                                    effective_stats=effective if card.kind == "hero" else None,
                                    db=self.db())  # (chip names: 竜牙兵, not dragon_tooth_warrior)
        self.image.setPixmap(QPixmap.fromImage(img))
        if narrow:  # (centred across the dock, which stays free to be made narrower)
            self.image.setMinimumWidth(w + 8)
            self.image.setMaximumWidth(QWIDGETSIZE_MAX)
        else:
            self.image.setFixedWidth(w + 8)
        head = self._header_html(card) + lines_html
        rest = self._errata_html(card) + self._provenance_html(card)
        self.summary.setVisible(not narrow)
        self.summary.setHtml("" if narrow else head)
        self.details.setHtml(head + rest if narrow else rest)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.card_id is not None:
            self.refresh()

    @staticmethod
    def _safe_breakdown(g: Any, p: int) -> list:
        try:
            return g.stat_breakdown(p)
        except Exception:
            return []

    def _header_html(self, card: CardDef) -> str:
        kind = texts.tr_or(f"kind.{card.kind}", card.kind)
        loc = ""
        if card.source_file:
            loc = (f"<div style='color:#8a7f70'>{_esc(t('rulings.inspector.file', file=card.source_file, line=card.source_line))}"
                   "</div>")
        return (f"<h2 style='color:#e8c36a; margin-bottom:2px'>{_esc(texts.card_name(card))}"
                f" <span style='color:#a99c88; font-size:small'>{_esc(card.id)}{_dot()}{_esc(kind)}</span></h2>{loc}")

    def _stats_html(self, g: Any, owner: int, lines: list, effective: dict | None,
                    only_source: str | None = None) -> str:
        head = f"<h3 style='color:#e8c36a'>{_esc(t('rulings.inspector.effective', player=g.player_name(owner)))}</h3>"
        rows = [f"<tr><th align='left'>{_esc(t('rulings.inspector.source'))}</th>"
                + "".join(f"<th>{_esc(tr(f'stat.{k}'))}</th>" for k in STAT_KEYS) + "<th></th></tr>"]
        for line in lines:
            if only_source and line.source != only_source:
                continue
            cells = []
            for k in STAT_KEYS:
                v = line.stats.get(k, 0)
                colour = "#7dffb0" if v > 0 else "#ff8a80" if v < 0 else "#8a7f70"
                sign = f"+{v}" if v > 0 and lines.index(line) > 0 else str(v)
                cells.append(f"<td align='center' style='color:{colour}'>{_esc(sign)}</td>")
            rule = (f"<a href='rule:{_esc(line.rule)}' style='color:#8fc7ff'>{_esc(line.rule)}</a>"
                    if line.rule else "")
            number = line.source if self.db() is not None and line.source in self.db().cards else ""
            rows.append(f"<tr><td>{_esc(self._line_label(line))} <span style='color:#8a7f70'>{_esc(number)}</span></td>"
                        + "".join(cells) + f"<td>{rule}</td></tr>")
        if effective:
            rows.append(f"<tr><td><b>{_esc(t('rulings.inspector.total'))}</b></td>"
                        + "".join(f"<td align='center'><b>{effective.get(k, 0)}</b></td>" for k in STAT_KEYS)
                        + "<td></td></tr>")
        return head + ("<table cellspacing='0' cellpadding='3' width='100%'>" + "".join(rows) + "</table>"
                       if len(rows) > 1 else "<p style='color:#a99c88'>—</p>")

    def _line_label(self, line: Any) -> str:
        """A stat line's card, chip or effect name in the table's language (the engine's line
        carries the printed Japanese names: the English inspector said "アルトリア H-001")."""
        words = Words(current_language(), self.db())
        if self.db() is not None and line.source in self.db().chips:
            return words.chip_name(line.source)
        card = words.card_def(line.source)
        if card is None:
            return line.label
        if not line.effect:
            return words.card_name(card)
        effect = words.effect_name(line.effect, card)
        name = words.card_name(card)
        if line.label == line.effect or effect == name:  # a modifier, or an effect named as its card
            return effect
        return f"{name}: {effect}"

    def _provenance_html(self, card: CardDef) -> str:
        rows = [f"<tr><th align='left'>{_esc(t('rulings.inspector.field'))}</th>"
                f"<th align='left'>{_esc(t('rulings.inspector.value'))}</th>"
                f"<th align='left'>{_esc(t('rulings.inspector.mark'))}</th></tr>"]
        for path in card_fields(card):
            value = field_text(card, path, self.db())
            if not value and path not in card.provenance:
                continue
            kind = card.provenance_of(path)
            colour = PROV_COLOURS.get(kind, "#bfb3a0")
            note = card_note(card.notes.get(path, ""), current_language())
            note_html = f"<br><span style='color:#8a7f70'>{_esc(note)}</span>" if note else ""
            rows.append(f"<tr><td style='color:#c9bda6'>{_esc(field_label(path, card))}</td><td>{_esc(value)}</td>"
                        f"<td style='color:{colour}; font-weight:bold'>{_esc(provenance_label(kind))}{note_html}</td></tr>")
        return (f"<h3 style='color:#e8c36a'>{_esc(t('rulings.inspector.provenance'))}</h3>"
                "<table cellspacing='0' cellpadding='3' width='100%'>" + "".join(rows) + "</table>")

    def _errata_html(self, card: CardDef) -> str:
        head = f"<h3 style='color:#e8c36a'>{_esc(t('rulings.inspector.errata'))}</h3>"
        after = self.errata_card()
        if after is None or not after.patches:
            return head + f"<p style='color:#a99c88'>{_esc(t('rulings.inspector.no_errata'))}</p>"
        before = after.original or card
        parts = [head]
        if after is not card:
            parts.append(f"<p style='color:#ffb26b'>{_esc(t('rulings.inspector.errata_off'))}</p>")
        rows = [f"<tr><th align='left'>{_esc(t('rulings.inspector.field'))}</th>"
                f"<th align='left'>{_esc(tr('errata.before'))}</th><th align='left'>{_esc(tr('errata.after'))}</th></tr>"]
        db = self.db()
        for path in card_fields(after):
            if not field_value(before, path) and not field_value(after, path):
                continue
            changed = field_value(before, path) != field_value(after, path)
            a, b = field_text(before, path, db), field_text(after, path, db)
            style = "background:#3a2414;" if changed else ""
            colour = "#ffb26b" if changed else "#c9bda6"
            rows.append(f"<tr style='{style}'><td style='color:{colour}'>{_esc(field_label(path, after))}</td>"
                        f"<td>{_esc(a)}</td><td style='{'color:#ffd27f; font-weight:bold' if changed else ''}'>"
                        f"{_esc(b)}</td></tr>")
        parts.append("<table cellspacing='0' cellpadding='3' width='100%'>" + "".join(rows) + "</table>")
        for p in after.patches:
            # the change itself when it is a plain value (the rest is in words in the table above)
            scalar = all(v is None or isinstance(v, (bool, int, str)) for v in (p.before, p.after))
            change = "" if not scalar or p.path.endswith(".ops") else (
                f"{_esc(value_words(p.before))} → <b style='color:#ffd27f'>{_esc(value_words(p.after))}</b><br>")
            parts.append(
                "<div style='margin-top:6px; padding:4px; border-left:3px solid #ff9d5c'>"
                f"<b><a href='rule:{_esc(p.rule)}' style='color:#ff9d5c'>{_esc(p.rule)}</a></b> "
                f"<span style='color:#c9bda6'>{_esc(p.patch_id)}{_dot()}{_esc(field_label(p.path, after))}</span><br>"
                + change +
                f"<span style='color:#a99c88'>{_esc(t('rulings.inspector.source_text', source=p.source))}</span></div>")
        return "".join(parts)

    def text(self) -> str:
        return self.summary.toPlainText() + "\n" + self.details.toPlainText()
