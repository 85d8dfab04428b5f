"""The card editor (issue 16): type a card in from the printed one, into the personal card pack.

A form built from the card model and the effect vocabulary — card kind and number, names, stats,
qualified classes, skills, and per effect its timing, window, keywords, cost, target, conditions and
operations with their declared parameters — beside the printed text, a live card face (drawn by
``art``, read-only use) and the rules text generated from the operations (``text.cardtext``). Each
change is checked with the loader's own checks (``cards.loader.build_card``); a problem is shown on
its field and in the problems list. Saving validates the whole card data with the pack (errata on
and off) before anything is written (``cards.pack.save_pack``). Export and import share a pack as one
file. No rules logic here.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import yaml
from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QApplication, QCheckBox, QComboBox, QDialog, QFileDialog, QFormLayout, QFrame, QGridLayout,
    QGroupBox, QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMessageBox,
    QPlainTextEdit, QPushButton, QScrollArea, QSizePolicy, QSpinBox, QSplitter, QTabWidget, QTextBrowser,
    QVBoxLayout, QWidget,
)

from fate_royal.cards import pack as packs
from fate_royal.cards.loader import build_card, load_card_db
from fate_royal.cards.model import CardDB, CardDef
from fate_royal.cards.vocabulary import (
    CARD_KINDS, CLASSES, CONDITIONS, ID_PREFIX, KEYWORDS, MAX_CARDS, MAX_COPIES, MAX_STAT,
    OPERATIONS, TARGET_KINDS, TARGET_SIDES, TIMINGS, WINDOWS, Param,
)
from fate_royal.cards.yamlsrc import DataError, plain
from fate_royal.qt import art, texts
from fate_royal.qt.dialogs import confirm_unsaved
from fate_royal.qt.i18n import current_language, strip_mnemonic, tr
from fate_royal.qt.screen import resize_on_screen
from fate_royal.text.cardtext import card_text, effect_body, effect_text
from fate_royal.text.dataerrors import localize, localize_error

PREVIEW_WIDTH = 300
BAD_STYLE = "border: 2px solid #e0564a; background: #4a2320; color: #fbe9e4;"  # readable on the dark form
_PATH_RE = re.compile(r"^([a-z_]+(?:\.[0-9A-Za-z_]+)*): ")


def _is_wrapper(value: Any) -> bool:
    return isinstance(value, dict) and "value" in value and "provenance" in value and \
        set(value) <= {"value", "provenance", "note"}


def unwrap(value: Any, path: str = "", found: dict | None = None) -> tuple[Any, dict]:
    """A card mapping without provenance wrappers, and path -> (wrapper, value) of each one."""
    found = {} if found is None else found
    if _is_wrapper(value):
        inner, _ = unwrap(value["value"], path, found)
        found[path] = ({k: v for k, v in value.items() if k != "value"}, inner)
        return inner, found
    if isinstance(value, dict):
        return {k: unwrap(v, f"{path}.{k}" if path else str(k), found)[0]
                for k, v in value.items()}, found
    if isinstance(value, list):
        return [unwrap(v, f"{path}.{i + 1}", found)[0] for i, v in enumerate(value)], found
    return value, found


def _get(tree: Any, path: str) -> Any:
    for part in path.split("."):
        if isinstance(tree, dict) and part in tree:
            tree = tree[part]
        elif isinstance(tree, list) and part.isdigit() and 1 <= int(part) <= len(tree):
            tree = tree[int(part) - 1]
        else:
            return _MISSING
    return tree


def _set(tree: Any, path: str, value: Any) -> None:
    *head, last = path.split(".")
    for part in head:
        tree = tree[int(part) - 1] if isinstance(tree, list) else tree[part]
    if isinstance(tree, list):
        tree[int(last) - 1] = value
    else:
        tree[last] = value


_MISSING = object()


def rewrap(tree: dict, wrappers: dict) -> dict:
    """Put back the wrappers of the values left as they were (a value the person changed is theirs:
    ``entered``); deepest first."""
    for path in sorted(wrappers, key=lambda p: -p.count(".")):
        meta, original = wrappers[path]
        current = _get(tree, path)
        if current is not _MISSING and current == original:
            _set(tree, path, {"value": current, **meta})
    return tree


def _faces(text: str) -> list[int] | str:
    """"1,2" -> [1, 2]; the text itself if it is not a list of numbers (the loader says why)."""
    parts = [p for p in re.split(r"[,\s、・]+", text.strip()) if p]
    try:
        return [int(p) for p in parts]
    except ValueError:
        return text


def _faces_text(value: Any) -> str:
    return ",".join(str(v) for v in value) if isinstance(value, (list, tuple)) else str(value or "")


def _label(key: str) -> str:
    return strip_mnemonic(tr(key))


def _term(prefix: str, code: str) -> str:
    """A code in words from the catalogs (editor.* first, then the table's terms)."""
    for key in (f"editor.{prefix}.{code}", f"{prefix}.{code}"):
        text = tr(key)
        if not text.startswith("["):
            return text
    return code


class ConditionEdit(QWidget):
    """A condition (``if:``, ``condition:``, ``lost_when:``): one test of the vocabulary and its value."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.key = QComboBox()
        self.key.addItem(_label("editor.none"), "")
        for k in CONDITIONS:
            self.key.addItem(_term("cond", k), k)
        self.value = QLineEdit()
        lay.addWidget(self.key, 2)
        lay.addWidget(self.value, 1)
        self.key.currentIndexChanged.connect(self.changed)
        self.value.textChanged.connect(self.changed)

    def set(self, cond: Any) -> None:
        if isinstance(cond, dict) and cond:
            key, value = next(iter(cond.items()))
            self.key.setCurrentIndex(max(0, self.key.findData(key)))
            self.value.setText(yaml.safe_dump(value, allow_unicode=True, default_flow_style=True)
                               .strip().removesuffix("...").strip() if not isinstance(value, str)
                               else value)
        else:
            self.key.setCurrentIndex(0)
            self.value.clear()

    def get(self) -> dict | None:
        key = self.key.currentData()
        if not key:
            return None
        text = self.value.text().strip()
        spec = CONDITIONS[key]
        value: Any = text
        if spec.type in ("int", "bool", "condition"):
            try:
                value = yaml.safe_load(text) if text else None
            except yaml.YAMLError:
                value = text
        return {key: value}


class OpRow(QFrame):
    """One operation: its name and a widget for each declared parameter, and its ``if:``."""

    changed = Signal()
    removed = Signal(object)

    def __init__(self, chips: dict, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chips = chips
        self.setFrameShape(QFrame.Shape.StyledPanel)
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.op = QComboBox()
        self.op.setObjectName("op")
        for name in OPERATIONS:
            self.op.addItem(_term("op", name), name)
        self.remove = QPushButton(_label("editor.remove"))
        top.addWidget(self.op, 1)
        top.addWidget(self.remove)
        lay.addLayout(top)
        self.params_box = QWidget()
        self.grid = QGridLayout(self.params_box)
        self.grid.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.params_box)
        cond_row = QHBoxLayout()
        cond_row.addWidget(QLabel(_label("editor.op_if")))
        self.cond = ConditionEdit()
        cond_row.addWidget(self.cond, 1)
        lay.addLayout(cond_row)
        self.params: dict[str, QWidget] = {}
        self.op.currentIndexChanged.connect(self._rebuild)
        self.cond.changed.connect(self.changed)
        self.remove.clicked.connect(lambda: self.removed.emit(self))
        self._rebuild()

    def _rebuild(self) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            if item.widget() is not None:
                item.widget().deleteLater()
        self.params = {}
        spec = OPERATIONS[self.op.currentData()]
        for row, (name, p) in enumerate(spec.params.items()):
            w = self._param_widget(name, p)
            w.setObjectName(f"param_{name}")
            self.grid.addWidget(QLabel(_term("param", name)), row // 2, (row % 2) * 2)
            self.grid.addWidget(w, row // 2, (row % 2) * 2 + 1)
            self.params[name] = w
        self.changed.emit()

    def _param_widget(self, name: str, p: Param) -> QWidget:
        if p.type == "int":
            w = QSpinBox()
            w.setRange(p.minimum if p.minimum is not None else -MAX_STAT,
                       p.maximum if p.maximum is not None else 999)
            w.setValue(p.default if isinstance(p.default, int) else max(1, w.minimum()))
            w.valueChanged.connect(self.changed)
            return w
        if p.type == "bool":
            w = QCheckBox()
            w.setChecked(bool(p.default))
            w.toggled.connect(self.changed)
            return w
        if p.type == "enum":
            w = QComboBox()
            for choice in p.choices:
                w.addItem(self._enum_label(name, choice), choice)
            if p.default is not None:
                w.setCurrentIndex(max(0, w.findData(p.default)))
            w.currentIndexChanged.connect(self.changed)
            return w
        if name == "chip":
            w = QComboBox()
            for cid, chip in self.chips.items():
                w.addItem(chip.name if current_language() == "ja" else (chip.name_en or chip.name), cid)
            w.currentIndexChanged.connect(self.changed)
            return w
        if p.type == "outcomes":
            w = QPlainTextEdit()
            w.setPlaceholderText(_label("editor.outcomes_hint"))
            w.setFixedHeight(70)
            w.textChanged.connect(self.changed)
            return w
        w = QLineEdit()
        if p.type == "list[int]":
            w.setPlaceholderText(_label("editor.faces_hint"))
        w.textChanged.connect(self.changed)
        return w

    @staticmethod
    def _enum_label(name: str, choice: str) -> str:
        prefix = {"subject": "subject", "duration": "duration", "state": "state", "coin": "coin",
                  "what": "what"}.get(name, name)
        if name == "what" and choice != "any":
            return _term("kind", choice)
        return _term(prefix, choice)

    def set(self, op: dict) -> None:
        self.op.setCurrentIndex(max(0, self.op.findData(op.get("op"))))
        for name, w in self.params.items():
            if name not in op:
                continue
            value = op[name]
            if isinstance(w, QSpinBox) and isinstance(value, int):
                w.setValue(value)
            elif isinstance(w, QCheckBox):
                w.setChecked(bool(value))
            elif isinstance(w, QComboBox):
                w.setCurrentIndex(max(0, w.findData(value)))
            elif isinstance(w, QPlainTextEdit):
                w.setPlainText(yaml.safe_dump(plain(value), allow_unicode=True,
                                              default_flow_style=None, sort_keys=False))
            elif isinstance(w, QLineEdit):
                w.setText(_faces_text(value) if isinstance(value, (list, tuple)) else str(value))
        self.cond.set(op.get("if"))

    def get(self) -> dict:
        name = self.op.currentData()
        spec = OPERATIONS[name]
        out: dict[str, Any] = {"op": name}
        for pname, w in self.params.items():
            p = spec.params[pname]
            if isinstance(w, QSpinBox):
                value: Any = w.value()
            elif isinstance(w, QCheckBox):
                value = w.isChecked()
            elif isinstance(w, QComboBox):
                value = w.currentData()
            elif isinstance(w, QPlainTextEdit):
                try:
                    value = yaml.safe_load(w.toPlainText()) if w.toPlainText().strip() else None
                except yaml.YAMLError:
                    value = w.toPlainText()
            else:
                text = w.text().strip()
                value = _faces(text) if p.type == "list[int]" else text
            if value is None or value == "" or (not p.required and value == p.default):
                if p.required:
                    out[pname] = value
                continue
            out[pname] = value
        cond = self.cond.get()
        if cond:
            out["if"] = cond
        return out


class EffectForm(QWidget):
    """One effect of the card."""

    changed = Signal()

    def __init__(self, chips: dict, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chips = chips
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.fields: dict[str, QWidget] = {}
        self.name = self._line("name", form, "editor.effect_name")
        self.name_en = self._line("name_en", form, "editor.name_en")
        self.timing = QComboBox()
        for t in TIMINGS:
            self.timing.addItem(tr(f"timing.{t}"), t)
        self.timing.setCurrentIndex(1)
        self._add(form, "timing", "editor.timing", self.timing, self.timing.currentIndexChanged)
        self.window = QComboBox()
        for w in WINDOWS:
            self.window.addItem(tr(f"window.{w}"), w)
        self._add(form, "window", "editor.window", self.window, self.window.currentIndexChanged)
        kw_box = QWidget()
        kw_lay = QGridLayout(kw_box)
        kw_lay.setContentsMargins(0, 0, 0, 0)
        self.keywords: dict[str, QCheckBox] = {}
        for kw in KEYWORDS:
            if kw == "竜":
                continue
            gloss = tr(f"cardtext.keyword.{kw}") if current_language() == "en" else ""
            box = QCheckBox(f"【{kw}】 {gloss}".strip())
            box.toggled.connect(self.changed)
            kw_lay.addWidget(box, len(self.keywords) // 4, len(self.keywords) % 4)
            self.keywords[kw] = box
        self.fields["keywords"] = kw_box
        form.addRow(_label("editor.keywords"), kw_box)
        lay.addLayout(form)
        # cost
        cost = QGroupBox(_label("editor.cost"))
        cf = QFormLayout(cost)
        self.cost_raw = self._line("cost.raw", cf, "editor.cost_raw")
        self.cost_tap = QCheckBox(_label("editor.cost_tap"))
        self._add(cf, "cost.tap", None, self.cost_tap, self.cost_tap.toggled)
        self.cost_discard = self._spin("cost.discard", cf, "editor.cost_discard", 0, MAX_CARDS)
        self.cost_mana = self._spin("cost.mana", cf, "editor.cost_mana", 0, 99)
        self.cost_die = self._line("cost.die", cf, "editor.cost_die")
        self.cost_die.setPlaceholderText(_label("editor.faces_hint"))
        self.fields["cost"] = cost
        self.cost_box = cost
        lay.addWidget(cost)
        # target and conditions
        tgt = QGroupBox(_label("editor.target"))
        tf = QFormLayout(tgt)
        self.target_kind = QComboBox()
        for k in TARGET_KINDS:
            self.target_kind.addItem(_term("target", k), k)
        self._add(tf, "target.kind", "editor.target_kind", self.target_kind,
                  self.target_kind.currentIndexChanged)
        self.target_side = QComboBox()
        for s in TARGET_SIDES:
            self.target_side.addItem(_term("side", s), s)
        self._add(tf, "target.side", "editor.target_side", self.target_side,
                  self.target_side.currentIndexChanged)
        ck = QWidget()
        ck_lay = QHBoxLayout(ck)
        ck_lay.setContentsMargins(0, 0, 0, 0)
        self.card_kinds: dict[str, QCheckBox] = {}
        for k in CARD_KINDS:
            box = QCheckBox(tr(f"kind.{k}"))
            box.toggled.connect(self.changed)
            ck_lay.addWidget(box)
            self.card_kinds[k] = box
        self.fields["target.card_kinds"] = ck
        tf.addRow(_label("editor.card_kinds"), ck)
        self.fields["target"] = tgt
        self.condition = ConditionEdit()
        self._add(tf, "condition", "editor.condition", self.condition, self.condition.changed)
        self.lost_when = ConditionEdit()
        self._add(tf, "lost_when", "editor.lost_when", self.lost_when, self.lost_when.changed)
        self.unless = self._line("unless_target_has", tf, "editor.unless_target_has")
        self.usable_while_down = QCheckBox(_label("editor.usable_while_down"))
        self._add(tf, "usable_while_down", None, self.usable_while_down,
                  self.usable_while_down.toggled)
        lay.addWidget(tgt)
        # operations
        ops = QGroupBox(_label("editor.ops"))
        self.ops_layout = QVBoxLayout(ops)
        self.op_rows: list[OpRow] = []
        self.add_op = QPushButton(_label("editor.add_op"))
        self.add_op.setObjectName("add_op")
        self.add_op.clicked.connect(lambda: self.new_op())
        self.ops_layout.addWidget(self.add_op)
        self.fields["ops"] = ops
        lay.addWidget(ops)
        self.unplayable = QCheckBox(_label("editor.unplayable"))
        self.unplayable.toggled.connect(self.changed)
        self.fields["unplayable"] = self.unplayable
        lay.addWidget(self.unplayable)
        # printed text
        text_form = QFormLayout()
        self.text = QPlainTextEdit()
        self.text.setFixedHeight(60)
        self.text.textChanged.connect(self.changed)
        self.fields["text"] = self.text
        text_form.addRow(_label("editor.text"), self.text)
        self.text_en = QPlainTextEdit()
        self.text_en.setFixedHeight(45)
        self.text_en.textChanged.connect(self.changed)
        self.fields["text_en"] = self.text_en
        text_form.addRow(_label("editor.text_en"), self.text_en)
        lay.addLayout(text_form)
        self.timing.currentIndexChanged.connect(self._timing_changed)
        self._timing_changed()

    # --- building blocks

    def _add(self, form: QFormLayout, path: str, label: str | None, w: QWidget, signal: Any) -> None:
        self.fields[path] = w
        if label is None:
            form.addRow(w)
        else:
            form.addRow(_label(label), w)
        signal.connect(self.changed)

    def _line(self, path: str, form: QFormLayout, label: str) -> QLineEdit:
        w = QLineEdit()
        w.setObjectName(path.replace(".", "_"))
        self._add(form, path, label, w, w.textChanged)
        return w

    def _spin(self, path: str, form: QFormLayout, label: str, low: int, high: int) -> QSpinBox:
        w = QSpinBox()
        w.setRange(low, high)
        self._add(form, path, label, w, w.valueChanged)
        return w

    def _timing_changed(self) -> None:
        activated = self.timing.currentData() == "activated"
        self.window.setEnabled(activated)
        self.cost_box.setEnabled(activated)

    def new_op(self, op: dict | None = None) -> OpRow:
        row = OpRow(self.chips)
        if op:
            row.set(op)
        row.changed.connect(self.changed)
        row.removed.connect(self._remove_op)
        self.ops_layout.insertWidget(len(self.op_rows), row)
        self.op_rows.append(row)
        self.changed.emit()
        return row

    def _remove_op(self, row: OpRow) -> None:
        self.op_rows.remove(row)
        row.setParent(None)
        row.deleteLater()
        self.changed.emit()

    # --- data

    def set(self, e: dict) -> None:
        self.name.setText(str(e.get("name") or ""))
        self.name_en.setText(str(e.get("name_en") or ""))
        self.timing.setCurrentIndex(max(0, self.timing.findData(e.get("timing", "activated"))))
        self.window.setCurrentIndex(max(0, self.window.findData(e.get("window", "any"))))
        for kw, box in self.keywords.items():
            box.setChecked(kw in (e.get("keywords") or ()))
        cost = e.get("cost") or {}
        self.cost_raw.setText(str(cost.get("raw") or ""))
        self.cost_tap.setChecked(bool(cost.get("tap")))
        self.cost_discard.setValue(int(cost.get("discard") or 0))
        self.cost_mana.setValue(int(cost.get("mana") or 0))
        self.cost_die.setText(_faces_text(cost.get("die") or ()))
        target = e.get("target") or {}
        self.target_kind.setCurrentIndex(max(0, self.target_kind.findData(target.get("kind", "none"))))
        self.target_side.setCurrentIndex(max(0, self.target_side.findData(target.get("side", "any"))))
        for k, box in self.card_kinds.items():
            box.setChecked(k in (target.get("card_kinds") or ()))
        self.condition.set(e.get("condition"))
        self.lost_when.set(e.get("lost_when"))
        self.unless.setText(str(e.get("unless_target_has") or ""))
        self.usable_while_down.setChecked(bool(e.get("usable_while_down")))
        self.unplayable.setChecked(bool(e.get("unplayable")))
        self.text.setPlainText(str(e.get("text") or ""))
        self.text_en.setPlainText(str(e.get("text_en") or ""))
        for op in e.get("ops") or ():
            self.new_op(op)

    def get(self) -> dict:
        out: dict[str, Any] = {"name": self.name.text().strip()}
        if self.name_en.text().strip():
            out["name_en"] = self.name_en.text().strip()
        out["timing"] = self.timing.currentData()
        activated = out["timing"] == "activated"
        if activated:
            out["window"] = self.window.currentData()
        kws = [k for k, box in self.keywords.items() if box.isChecked()]
        if kws:
            out["keywords"] = kws
        if activated:
            cost: dict[str, Any] = {}
            if self.cost_raw.text().strip():
                cost["raw"] = self.cost_raw.text().strip()
            if self.cost_tap.isChecked():
                cost["tap"] = True
            if self.cost_discard.value():
                cost["discard"] = self.cost_discard.value()
            if self.cost_mana.value():
                cost["mana"] = self.cost_mana.value()
            if self.cost_die.text().strip():
                cost["die"] = _faces(self.cost_die.text())
            if cost:
                out["cost"] = cost
        kind = self.target_kind.currentData()
        if kind != "none":
            target: dict[str, Any] = {"kind": kind}
            if self.target_side.currentData() != "any":
                target["side"] = self.target_side.currentData()
            kinds = [k for k, box in self.card_kinds.items() if box.isChecked()]
            if kinds:
                target["card_kinds"] = kinds
            out["target"] = target
        for key, w in (("condition", self.condition), ("lost_when", self.lost_when)):
            cond = w.get()
            if cond:
                out[key] = cond
        if self.unless.text().strip():
            out["unless_target_has"] = self.unless.text().strip()
        if self.usable_while_down.isChecked():
            out["usable_while_down"] = True
        if self.unplayable.isChecked():
            out["unplayable"] = True
        else:
            out["ops"] = [row.get() for row in self.op_rows]
        for key, w in (("text", self.text), ("text_en", self.text_en)):
            if w.toPlainText().strip():
                out[key] = w.toPlainText().strip()
        return out


class WrappedLabel(QLabel):
    """A word-wrapped label that asks its layout for the height of its text at its width. A box
    layout counts a wrapped label as one line: in the editor's scrolled column at 1366×768 the
    card's face was drawn over the second line of "corrects the official card …"."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(text, parent)
        self.setWordWrap(True)

    def minimumSizeHint(self) -> QSize:  # noqa: N802 (Qt's name)
        hint = super().minimumSizeHint()
        if self.width() > 0 and self.text():
            hint.setHeight(max(hint.height(), self.heightForWidth(self.width())))
        return hint

    def resizeEvent(self, event) -> None:  # noqa: N802 (Qt's name)
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():  # its lines, and so its height, changed
            self.updateGeometry()


class CardEditor(QDialog):
    """Enter or correct one card at a time into the personal card pack (see the module doc)."""

    saved = Signal(str)  # the id of the card saved
    #: asks what to do with unsaved changes ("save", "discard" or "cancel"); None: a message box
    ask_unsaved: Callable[[CardEditor], str] | None = None

    def __init__(self, parent: QWidget | None = None, card_id: str | None = None, *,
                 kind: str = "mystic_code", pack_file: str | Path | None = None,
                 live_delay_ms: int = 150) -> None:
        super().__init__(parent)
        self.setObjectName("card_editor")
        self.setWindowTitle(_label("editor.title"))
        self.pack_file = Path(pack_file) if pack_file is not None else None
        self.lang = current_language()
        self.wrappers: dict = {}
        self.problems_by_path: dict[str, list[str]] = {}
        self.current: CardDef | None = None
        self.last_errors: list[DataError] = []
        self._timer = QTimer(self, singleShot=True, interval=live_delay_ms)
        self._timer.timeout.connect(self.refresh)
        self._loading = False
        self._numbered = True  # False while a new card's number is the editor's choice, not the person's
        self._renumbering = False
        self._clean: dict | None = None  # the form as last loaded or saved (unsaved changes differ)
        self.db = self._load_db()
        self.chips = dict(self.db.chips) if self.db is not None else {}
        self._build()
        if card_id:
            self.open_card(card_id)
        else:
            self.new_card(kind)

    # --- data

    def _load_db(self) -> CardDB | None:
        try:
            return load_card_db(pack=self._pack() if self.pack_file is not None else None)
        except DataError:
            try:
                return load_card_db(pack=False)
            except DataError:
                return None

    def _pack(self) -> packs.CardPack:
        return packs.read_pack(self.pack_file)

    # --- layout

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        top = QHBoxLayout()
        top.addWidget(QLabel(_label("editor.kind")))
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        for k in CARD_KINDS:
            self.kind.addItem(tr(f"kind.{k}"), k)
        top.addWidget(self.kind)
        top.addWidget(QLabel(_label("editor.number")))
        self.number = QSpinBox()
        self.number.setObjectName("number")
        self.number.setRange(1, 999)
        top.addWidget(self.number)
        self.id_label = QLabel()
        self.id_label.setObjectName("card_id")
        top.addWidget(self.id_label)
        top.addStretch(1)
        top.addWidget(QLabel(_label("editor.open")))
        self.open_combo = QComboBox()
        self.open_combo.setObjectName("open_combo")
        top.addWidget(self.open_combo)
        self.open_button = QPushButton(_label("editor.load"))
        self.open_button.clicked.connect(self._open_selected)
        top.addWidget(self.open_button)
        self.unknown_button = QPushButton(_label("editor.unknown"))
        self.unknown_button.setObjectName("unknown_button")
        self.unknown_button.clicked.connect(self.show_unknown)
        top.addWidget(self.unknown_button)
        outer.addLayout(top)

        split = QSplitter(Qt.Orientation.Horizontal)
        form_host = QWidget()
        self.form_layout = QVBoxLayout(form_host)
        card_form = self.card_form = QFormLayout()
        self.fields: dict[str, QWidget] = {}
        self.name = self._line(card_form, "name", "editor.name")
        self.name_en = self._line(card_form, "name_en", "editor.name_en")
        self.copies = QSpinBox()
        self.copies.setRange(1, MAX_COPIES)
        self._row(card_form, "copies", "editor.copies", self.copies, self.copies.valueChanged)
        stats = QWidget()
        sl = QHBoxLayout(stats)
        sl.setContentsMargins(0, 0, 0, 0)
        self.stats: dict[str, QSpinBox] = {}
        for key in ("pa", "pd", "ma", "md"):
            sl.addWidget(QLabel(tr(f"stat.{key}")))
            spin = QSpinBox()
            spin.setRange(-MAX_STAT, MAX_STAT)
            spin.setObjectName(f"stat_{key}")
            spin.valueChanged.connect(self.schedule)
            sl.addWidget(spin)
            self.stats[key] = spin
            self.fields[f"stats.{key}"] = spin
        self._row(card_form, "stats", "editor.stats", stats, None)
        classes = QWidget()
        cl = QGridLayout(classes)
        cl.setContentsMargins(0, 0, 0, 0)
        self.classes: dict[str, QCheckBox] = {}
        for i, name in enumerate(CLASSES):
            box = QCheckBox(name if self.lang == "ja" else CLASSES[name])
            box.toggled.connect(self.schedule)
            cl.addWidget(box, i // 4, i % 4)
            self.classes[name] = box
        self._row(card_form, "classes", "editor.classes", classes, None)
        self.class_name = QComboBox()
        for name in CLASSES:
            self.class_name.addItem(name if self.lang == "ja" else CLASSES[name], name)
        self._row(card_form, "class_name", "editor.class_name", self.class_name,
                  self.class_name.currentIndexChanged)
        self.skills = self._line(card_form, "skills", "editor.skills")
        self.skills.setPlaceholderText(_label("editor.skills_hint"))
        self.note = self._line(card_form, "note", "editor.note")
        self.form_layout.addLayout(card_form)
        eff_head = QHBoxLayout()
        eff_head.addWidget(QLabel(f"<b>{_label('editor.effects')}</b>"))
        eff_head.addStretch(1)
        self.add_effect_button = QPushButton(_label("editor.add_effect"))
        self.add_effect_button.setObjectName("add_effect")
        self.add_effect_button.clicked.connect(lambda: self.add_effect())
        self.remove_effect_button = QPushButton(_label("editor.remove_effect"))
        self.remove_effect_button.clicked.connect(self.remove_effect)
        eff_head.addWidget(self.add_effect_button)
        eff_head.addWidget(self.remove_effect_button)
        self.form_layout.addLayout(eff_head)
        self.effect_tabs = QTabWidget()
        self.effect_tabs.setObjectName("effect_tabs")
        self.form_layout.addWidget(self.effect_tabs, 1)
        # a card without effects yet: say what the button does instead of an empty frame
        self.no_effects = QLabel(tr("editor.no_effects"))
        self.no_effects.setObjectName("no_effects")
        self.no_effects.setWordWrap(True)
        self.no_effects.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.no_effects.setStyleSheet("color: #b8a98a; padding: 12px;")
        self.form_layout.addWidget(self.no_effects, 1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form_host)
        split.addWidget(scroll)

        right = QWidget()
        rl = QVBoxLayout(right)
        rl.addWidget(QLabel(f"<b>{_label('editor.preview')}</b>"))
        self.face = QLabel()
        self.face.setObjectName("face")
        self.face.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop)
        self.face.setWordWrap(True)  # (the words shown until a face can be drawn)
        self.face.setMinimumSize(QSize(PREVIEW_WIDTH, round(PREVIEW_WIDTH * art.CARD_ASPECT)))
        rl.addWidget(self.face)
        self.replaces_label = WrappedLabel()
        rl.addWidget(self.replaces_label)
        rl.addWidget(QLabel(f"<b>{_label('editor.generated')}</b>"))
        self.generated = QTextBrowser()
        self.generated.setObjectName("generated")
        # it takes the height left over (at least a few lines), never asks for more: the column
        # fits its window and scrolls only when the window is shorter than the face needs
        self.generated.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Ignored)
        self.generated.setMinimumHeight(90)
        rl.addWidget(self.generated, 1)
        rl.addWidget(QLabel(f"<b>{_label('editor.problems')}</b>"))
        self.problems = QListWidget()
        self.problems.setObjectName("problems")
        self.problems.setMaximumHeight(110)
        rl.addWidget(self.problems)
        # scrolled like the form: the face, the text and the problems need ~690 px, which made the
        # editor taller than a 768-px laptop screen
        right_scroll = QScrollArea()
        right_scroll.setWidgetResizable(True)
        right_scroll.setWidget(right)
        split.addWidget(right_scroll)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        outer.addWidget(split, 1)

        bottom = QHBoxLayout()
        self.status = QLabel()
        self.status.setObjectName("status")
        self.status.setWordWrap(True)
        bottom.addWidget(self.status, 1)
        self.export_button = QPushButton(_label("editor.export"))
        self.export_button.clicked.connect(lambda: self.export_pack())
        self.import_button = QPushButton(_label("editor.import"))
        self.import_button.clicked.connect(lambda: self.import_pack())
        self.save_button = QPushButton(_label("editor.save"))
        self.save_button.setObjectName("save")
        self.save_button.clicked.connect(self.save)
        self.close_button = QPushButton(_label("editor.close"))
        self.close_button.clicked.connect(self.reject)
        for b in (self.export_button, self.import_button, self.save_button, self.close_button):
            bottom.addWidget(b)
        outer.addLayout(bottom)
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.number.valueChanged.connect(self.schedule)
        self.number.valueChanged.connect(self._number_set)
        self._fill_open_combo()
        resize_on_screen(self, 1280, 860)

    def _row(self, form: QFormLayout, path: str, label: str, w: QWidget, signal: Any) -> None:
        self.fields[path] = w
        form.addRow(_label(label), w)
        if signal is not None:
            signal.connect(self.schedule)

    def _line(self, form: QFormLayout, path: str, label: str) -> QLineEdit:
        w = QLineEdit()
        w.setObjectName(path)
        self._row(form, path, label, w, w.textChanged)
        return w

    def _fill_open_combo(self) -> None:
        self.open_combo.clear()
        self.open_combo.addItem(_label("editor.open_new"), "")
        try:
            pack = self._pack()
        except DataError:
            pack = packs.empty_pack()
        mine = set(pack.ids())
        english = current_language() == "en"  # the card's name in the table's language where it has one
        for card in pack.cards:
            name = (english and card.get("name_en")) or card.get("name")
            self.open_combo.addItem(tr("editor.in_pack", id=card.get("id"), name=name), card.get("id"))
        if self.db is not None:
            for cid, card in self.db.cards.items():
                if cid not in mine:
                    self.open_combo.addItem(tr("editor.shipped", id=cid, name=texts.card_name(card)), cid)

    def _kind_changed(self) -> None:
        """Only the fields of the chosen kind are shown (a disabled field looks much like an
        enabled one in the dark theme, and a mystic code has no classes to tick)."""
        kind = self.kind.currentData()
        if not self._loading and not self._numbered:  # a new card: the first free number of its kind
            self._renumbering = True
            try:
                self.number.setValue(self.first_free_number(kind))
            finally:
                self._renumbering = False
        applies = {"stats": kind in ("hero", "class"), "classes": kind == "hero",
                   "class_name": kind == "class", "copies": kind in ("mystic_code", "scene")}
        for path, on in applies.items():
            self.fields[path].setEnabled(on)
            self.card_form.setRowVisible(self.fields[path], on)
        self.schedule()

    # --- effects

    def add_effect(self, data: dict | None = None) -> EffectForm:
        form = EffectForm(self.chips)
        if data:
            form.set(data)
        form.changed.connect(self.schedule)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(form)
        self.effect_tabs.addTab(scroll, tr("editor.effect_tab", number=self.effect_tabs.count() + 1))
        self.effect_tabs.setCurrentIndex(self.effect_tabs.count() - 1)
        self._show_effects()
        self.schedule()
        return form

    def _show_effects(self) -> None:
        """The effect tabs, or (none yet) a line saying how to add one."""
        some = self.effect_tabs.count() > 0
        self.effect_tabs.setVisible(some)
        self.no_effects.setVisible(not some)
        self.remove_effect_button.setEnabled(some)

    def effect_forms(self) -> list[EffectForm]:
        return [self.effect_tabs.widget(i).widget() for i in range(self.effect_tabs.count())]

    def remove_effect(self) -> None:
        i = self.effect_tabs.currentIndex()
        if i >= 0:
            w = self.effect_tabs.widget(i)
            self.effect_tabs.removeTab(i)
            w.deleteLater()
            for j in range(self.effect_tabs.count()):
                self.effect_tabs.setTabText(j, tr("editor.effect_tab", number=j + 1))
            self._show_effects()
            self.schedule()

    # --- loading a card into the form

    def new_card(self, kind: str = "mystic_code") -> None:
        """An empty form for a card typed in from the box. Its number is the first that no card of
        that kind has yet (it was always 001: a new hero was H-001, and saving it replaced
        アルトリア); it follows the kind until the person sets it."""
        self.load_mapping({"kind": kind, "id": f"{ID_PREFIX[kind]}-{self.first_free_number(kind):03d}",
                           "name": ""})
        self._numbered = False

    def first_free_number(self, kind: str) -> int:
        """The first number of ``kind`` that neither a shipped card nor one of the pack has."""
        used = set(self.db.cards) if self.db is not None else set()
        try:
            used |= set(self._pack().ids())
        except DataError:
            pass
        prefix = ID_PREFIX[kind]
        return next((n for n in range(1, 1000) if f"{prefix}-{n:03d}" not in used), 1)

    def _number_set(self) -> None:
        if not self._loading and not self._renumbering:
            self._numbered = True  # the person's number stays, whatever the kind

    def open_card(self, card_id: str) -> None:
        """A card of the pack, or a shipped card to correct (provisional values stay marked until
        changed)."""
        try:
            pack = self._pack()
        except DataError:
            pack = packs.empty_pack()
        tree = pack.card(card_id)
        if tree is None:
            tree = packs.shipped_card_tree(card_id)
        if tree is None:
            self.status.setText(card_id)
            return
        self.load_mapping(plain(tree))

    def _open_selected(self) -> None:
        if not self.confirm_discard():
            return
        cid = self.open_combo.currentData()
        if cid:
            self.open_card(cid)
        else:
            self.new_card(self.kind.currentData())

    def load_mapping(self, mapping: dict) -> None:
        self._numbered = True  # a card's own number (new_card frees it again)
        self._loading = True
        try:
            data, self.wrappers = unwrap(plain(mapping))
            kind = data.get("kind", "mystic_code")
            self.kind.setCurrentIndex(max(0, self.kind.findData(kind)))
            m = re.fullmatch(r"[A-Z]-(\d{3})", str(data.get("id", "")))
            self.number.setValue(int(m.group(1)) if m else 1)
            self.name.setText(str(data.get("name") or ""))
            self.name_en.setText(str(data.get("name_en") or ""))
            self.note.setText(str(data.get("note") or ""))
            self.copies.setValue(int(data.get("copies") or 1))
            stats = data.get("stats") or {}
            for key, spin in self.stats.items():
                spin.setValue(int(stats.get(key) or 0))
            for name, box in self.classes.items():
                box.setChecked(name in (data.get("classes") or ()))
            self.class_name.setCurrentIndex(max(0, self.class_name.findData(data.get("class_name"))))
            self.skills.setText(" ".join(str(s) for s in data.get("skills") or ()))
            while self.effect_tabs.count():
                w = self.effect_tabs.widget(0)
                self.effect_tabs.removeTab(0)
                w.deleteLater()
            for e in data.get("effects") or ():
                self.add_effect(e)
            self._show_effects()
        finally:
            self._loading = False
        self._kind_changed()
        self.refresh()
        self._clean = self.mapping()
        self._follow_combo()

    def _follow_combo(self) -> None:
        """The "open" list shows the card in the form (a new card: the first entry)."""
        index = self.open_combo.findData(self.card_id()) if self._clean and self._clean.get("name") else -1
        self.open_combo.setCurrentIndex(max(0, index))

    # --- unsaved changes

    def has_unsaved_changes(self) -> bool:
        return self._clean is not None and self.mapping() != self._clean

    def confirm_discard(self) -> bool:
        """May the form be closed or replaced? True when nothing is unsaved, or when the user saves
        (and the save works) or discards; False to keep editing."""
        return confirm_unsaved(self, _label("editor.title"), tr("editor.unsaved", id=self.card_id()),
                               tr("editor.save"), self.save)

    def reject(self) -> None:  # noqa: D401 - Qt API: Escape and the window's close button
        if self.confirm_discard():
            super().reject()

    # --- the form as card data

    def card_id(self) -> str:
        return f"{ID_PREFIX[self.kind.currentData()]}-{self.number.value():03d}"

    def mapping(self) -> dict:
        """The card as the form says it, in the schema of a card file (provisional values the
        person did not change keep their wrapper)."""
        kind = self.kind.currentData()
        out: dict[str, Any] = {"id": self.card_id(), "kind": kind, "name": self.name.text().strip()}
        if self.name_en.text().strip():
            out["name_en"] = self.name_en.text().strip()
        if kind in ("hero", "class"):
            out["stats"] = {k: s.value() for k, s in self.stats.items()}
        if kind == "hero":
            out["classes"] = [n for n, box in self.classes.items() if box.isChecked()]
        if kind == "class":
            out["class_name"] = self.class_name.currentData()
        skills = [s for s in re.split(r"[\s,、]+", self.skills.text().strip()) if s]
        if skills:
            out["skills"] = skills
        if kind in ("mystic_code", "scene") and self.copies.value() != 1:
            out["copies"] = self.copies.value()
        effects = [f.get() for f in self.effect_forms()]
        if effects:
            out["effects"] = effects
        if self.note.text().strip():
            out["note"] = self.note.text().strip()
        return rewrap(out, self.wrappers)

    # --- live preview and validation

    def schedule(self, *_: Any) -> None:
        if not self._loading:
            self._timer.start()

    def refresh(self) -> None:
        """Check the form as a card and update the face, the generated text and the marks."""
        self._timer.stop()
        self.id_label.setText(self.card_id())
        mapping = self.mapping()
        card, errors = build_card(mapping, self.chips, source=self.card_id(), entered=True)
        self.last_errors = errors
        self._show_problems([str(e.message) for e in errors], card)
        shipped = self.db is not None and self.card_id() in self.db.cards and \
            self.db.cards[self.card_id()].provenance_default != "entered"
        self.replaces_label.setText(tr("editor.replaces", id=self.card_id()) if shipped else "")
        if card is None and not mapping.get("name"):
            # a card still without its name (every new one): its face is drawn all the same, under
            # a stand-in name, so the preview is never a blank space to begin with
            stand_in = dict(mapping, name=tr("editor.unnamed"))
            card, _ = build_card(stand_in, self.chips, source=self.card_id(), entered=True)
        if card is None:
            face = self.face.pixmap()
            if face is None or face.isNull():  # nothing drawn yet (a new hero has no classes either)
                self.face.setText(_label("editor.face_waiting"))
            return
        if mapping.get("name"):
            self.current = card
        image = art.render_card_image(self.face_card(card), PREVIEW_WIDTH, lang=self.lang, db=self.db)
        self.face.setPixmap(QPixmap.fromImage(image))
        parts = []
        for e in card.effects:
            name = e.name_en if self.lang == "en" and e.name_en else e.name
            text = effect_text(e, self.lang, self.db)
            html = f"<p><b>{_esc(name)}</b><br>{_esc(text)}"
            printed = e.text if self.lang == "ja" else (e.text_en or e.text)
            if printed:
                html += f"<br><i>{_esc(tr('editor.printed_beside', text=printed))}</i>"
            parts.append(html + "</p>")
        self.generated.setHtml("".join(parts))

    def face_card(self, card: CardDef) -> CardDef:
        """The card as the face shows it: an effect without text in this language gets the text
        generated from its operations."""
        key = "text" if self.lang == "ja" else "text_en"
        effects = []
        for e, (text, generated) in zip(card.effects, card_text(card, self.lang, self.db)):
            body = effect_body(e, self.lang, self.db) if generated else text
            effects.append(replace(e, **{key: body}))
        return replace(card, effects=tuple(effects))

    def generated_texts(self) -> list[str]:
        """The generated text of each effect, as shown (for tests and the status line)."""
        if self.current is None:
            return []
        return [effect_text(e, self.lang, self.db) for e in self.current.effects]

    def _widget_for(self, path: str) -> QWidget | None:
        """The form widget of a field path (``effects.2.ops.1.count`` -> that spin box)."""
        parts = path.split(".")
        if parts[0] == "effects" and len(parts) >= 2 and parts[1].isdigit():
            forms = self.effect_forms()
            i = int(parts[1]) - 1
            if not 0 <= i < len(forms):
                return self.effect_tabs
            form = forms[i]
            rest = parts[2:]
            if rest[:1] == ["ops"] and len(rest) >= 2 and rest[1].isdigit():
                j = int(rest[1]) - 1
                if 0 <= j < len(form.op_rows):
                    row = form.op_rows[j]
                    return row.params.get(rest[2], row) if len(rest) >= 3 else row
            while rest:
                key = ".".join(rest)
                if key in form.fields:
                    return form.fields[key]
                rest = rest[:-1]
            return form.fields.get("name")
        while parts:
            key = ".".join(parts)
            if key in self.fields:
                return self.fields[key]
            parts = parts[:-1]
        return None

    def _show_problems(self, messages: list[str], card: CardDef | None = None) -> None:
        for w in getattr(self, "_marked", []):
            try:
                w.setStyleSheet("")
                w.setToolTip("")
            except RuntimeError:  # deleted with its effect or operation
                pass
        self._marked: list[QWidget] = []
        self.problems.clear()
        self.problems_by_path = {}
        lang = current_language()
        for message in messages:
            m = _PATH_RE.match(message)
            path = m.group(1) if m else "name"
            self.problems_by_path.setdefault(path, []).append(message)
            # the loader's English problem in the editor's language, its field path in words
            shown = localize(message[m.end():] if m else message, lang,
                             label=lambda key: texts.field_label(key, card))
            if m:
                shown = f"{texts.field_label(path, card)}{'：' if lang == 'ja' else ': '}{shown}"
            item = QListWidgetItem(shown)
            self.problems.addItem(item)
            w = self._widget_for(path)
            if w is not None:
                w.setStyleSheet(BAD_STYLE)
                w.setToolTip(shown if not w.toolTip() else f"{w.toolTip()}\n{shown}")
                self._marked.append(w)
        if not messages:
            self.problems.addItem(_label("editor.no_problems"))
        bad_effects = {int(p.split(".")[1]) for p in self.problems_by_path
                       if p.startswith("effects.") and p.split(".")[1].isdigit()}
        for j in range(self.effect_tabs.count()):  # a tab with a problem says so
            mark = " ⚠" if j + 1 in bad_effects else ""
            self.effect_tabs.setTabText(j, tr("editor.effect_tab", number=j + 1) + mark)

    # --- pack actions

    def save(self) -> bool:
        """Save the card into the personal pack; the whole card data is validated first and
        nothing is written when it does not (the problems are listed)."""
        self.refresh()
        if self.last_errors:
            self.status.setText(tr("editor.save_refused") + " "
                                + localize(str(self.last_errors[0].message), current_language()))
            return False
        try:
            pack = packs.with_card(self._pack(), self.mapping())
            path = packs.save_pack(pack, self.pack_file)
        except DataError as exc:
            errors = getattr(exc, "errors", [exc])
            self._show_problems([str(e) for e in errors])
            self.status.setText(tr("editor.save_refused") + " "
                                + localize_error(errors[0], current_language()))
            return False
        except OSError as exc:
            self.status.setText(tr("editor.save_refused") + " " + str(exc))
            return False
        self._clean = self.mapping()
        self.status.setText(tr("editor.saved", id=self.card_id(), path=str(path)))
        self.db = self._load_db()
        self._fill_open_combo()
        self._follow_combo()
        self.saved.emit(self.card_id())
        return True

    def export_pack(self, dest: str | Path | None = None) -> Path | None:
        if dest is None:
            dest, _ = QFileDialog.getSaveFileName(self, _label("editor.export"), "card-pack.yaml",
                                                  tr("editor.pack_filter"))
            if not dest:
                return None
        try:
            path = packs.export_pack(dest, self.pack_file)
        except (DataError, OSError) as exc:
            self.status.setText(localize_error(exc, current_language()))
            return None
        self.status.setText(tr("editor.exported", path=str(path)))
        return path

    def import_pack(self, source: str | Path | None = None,
                    confirm: Callable[[str], bool] | None = None) -> bool:
        """Import a pack file: what it adds and corrects is shown and confirmed; the result is
        validated before anything is written. ``confirm`` replaces the question (tests)."""
        if source is None:
            source, _ = QFileDialog.getOpenFileName(self, _label("editor.import"), "",
                                                    tr("editor.pack_filter"))
            if not source:
                return False
        try:
            plan = packs.plan_import(source, self.pack_file)
        except DataError as exc:
            text = tr("editor.refused", file=str(source), errors=localize_error(exc, current_language()))
            self.status.setText(text)
            if confirm is None:
                QMessageBox.warning(self, _label("editor.import"), text)
            return False
        none = _label("editor.none")
        question = tr("editor.import_confirm", file=str(source),
                      adds=", ".join(plan.adds) or none,
                      overrides=", ".join(plan.overrides_shipped) or none,
                      replaces=", ".join(plan.replaces_personal) or none)
        ok = confirm(question) if confirm is not None else QMessageBox.question(
            self, _label("editor.import"), question) == QMessageBox.StandardButton.Yes
        if not ok:
            return False
        try:
            packs.save_pack(plan.merged, self.pack_file)
        except (DataError, OSError) as exc:
            self.status.setText(tr("editor.refused", file=str(source),
                                   errors=localize_error(exc, current_language())))
            return False
        self.status.setText(tr("editor.imported", file=str(source)))
        self.db = self._load_db()
        self._fill_open_combo()
        return True

    def show_unknown(self) -> QDialog:
        """The list of what is still unknown, one click away; double-click opens that card."""
        dlg = QDialog(self)
        dlg.setObjectName("unknown_dialog")
        dlg.setWindowTitle(_label("editor.unknown_title"))
        lay = QVBoxLayout(dlg)
        lay.addWidget(QLabel(_label("editor.unknown_hint")))
        lst = QListWidget()
        lst.setObjectName("unknown_list")
        from fate_royal.text.catalog import card_note

        rows = packs.unknown_list(self.db) if self.db is not None else []
        lang = current_language()
        for card_id, path, why in rows:
            # the data's notes are written in English: their wording in the table's language (as the
            # card zoom shows them), a note with none only in the English editor
            worded = card_note(why, lang)
            why = worded if worded != why or lang == "en" else ""
            item = QListWidgetItem(f"{card_id}  {path}" + (f"  — {why}" if why else ""))
            item.setData(Qt.ItemDataRole.UserRole, card_id)
            lst.addItem(item)

        def open_item(item: QListWidgetItem) -> None:
            self.open_card(item.data(Qt.ItemDataRole.UserRole))
            dlg.accept()

        lst.itemDoubleClicked.connect(open_item)
        lay.addWidget(lst)
        resize_on_screen(dlg, 820, 520)
        dlg.open_item = open_item  # type: ignore[attr-defined]
        dlg.show()
        return dlg


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def standalone_style() -> str:
    """The table's look for the editor opened on its own (from the table it inherits it): it was
    the only window in the platform's light style."""
    from fate_royal.qt.window import WINDOW_STYLE

    return WINDOW_STYLE + art.marks_style("QDialog ")


def run_editor(card_id: str | None = None, *, kind: str = "mystic_code",
               lang: str | None = None) -> int:
    """``fate-royal cards edit``: the editor on its own."""
    import sys

    from fate_royal.qt import fonts, i18n

    app = QApplication.instance() or QApplication(sys.argv[:1])
    fonts.install_fonts()
    i18n.set_language(lang or i18n.default_language())
    editor = CardEditor(None, card_id, kind=kind)
    editor.setStyleSheet(standalone_style())
    editor.show()
    return app.exec()


__all__ = ["CardEditor", "EffectForm", "OpRow", "rewrap", "run_editor", "unwrap"]
