"""The rules editor: adjust the house rules item by item and save the result as a named rule set.

One row per switch: every errata rule (E1.1 … E9.7) and card patch with its id, its sentence
(Japanese; the English gloss where the reference has one) and a checkbox; every reading switch with
its choices; every D parameter as a field with its bounds. A search box filters the rows; a mark
says which rows differ from the house errata. "Save as" writes the set into the user data folder
(``cards.rulesets.save_user_ruleset``); import and export share sets as files. The widgets hold no
rules logic: ``ruleset()`` builds a ``RuleSet`` from them, and validation is the rule-set file's own
(``load_ruleset``), so a field the file would refuse is refused here, with the same message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QFileDialog, QHBoxLayout, QHeaderView, QLabel, QLineEdit,
    QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from fate_royal.qt.dialogs import confirm_unsaved
from fate_royal.qt.i18n import FollowsLanguage, current_language, tr, tr_in
from fate_royal.qt.screen import resize_on_screen
from fate_royal.qt.texts import tr_or
from fate_royal.text.dataerrors import localize_error

DIFF_COLOUR = "#ffb26b"


def _reference() -> Any:
    from fate_royal.cards.reference import reference

    try:
        return reference()
    except Exception:  # a broken reference must not stop the editor: rows show their ids only
        return None


def switch_sentence(rid: str, patches: dict[str, tuple[str, str, str]], ref: Any) -> tuple[str, str]:
    """(Japanese sentence, English gloss or "") for an errata rule or a card patch. A patch whose
    errata sentence is split over several cards (E9.6: one sentence, two patches) names its card;
    its gloss is its rule's English (the patch's own sentence, the group's words, is only in
    Japanese)."""
    if rid in patches:
        rule, source, card = patches[rid]
        split = any(s == source and c != card for pid, (_r, s, c) in patches.items() if pid != rid)
        if split:
            source += tr_in("ja", "workbench.editor.patch_card", card=card)
        gloss = ""
        if ref is not None and rule in ref:
            r = ref.get(rule)
            gloss = f"{r.title('en')} — {r.text('en')}"
            if split:
                gloss += tr_in("en", "workbench.editor.patch_card", card=card)
        return source, gloss
    if ref is not None and rid in ref:
        r = ref.get(rid)
        return f"{r.title('ja')} — {r.text('ja')}", f"{r.title('en')} — {r.text('en')}"
    return "", ""


class RulesEditor(FollowsLanguage, QDialog):
    """Edit a rule set; ``saved`` is emitted with the saved set and its file."""

    saved = Signal(object, object)
    #: asks what to do with unsaved changes ("save", "discard" or "cancel"); None: a message box
    ask_unsaved: Callable[[RulesEditor], str] | None = None

    def __init__(self, parent: QWidget | None = None, rules: Any = None,
                 folder: Path | None = None) -> None:
        super().__init__(parent)
        from fate_royal.cards.loader import errata_patches
        from fate_royal.cards.rulesets import known_switches, shipped_ruleset

        self.folder = folder
        self.house = shipped_ruleset("house")
        start = rules if rules is not None else self.house
        resize_on_screen(self, 1100, 760)
        self.patches = {pid: (rule, src, card) for pid, rule, card, src in errata_patches()}
        self.switches = known_switches()
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.name_label = QLabel()
        top.addWidget(self.name_label)
        self.name_edit = QLineEdit()
        self.name_edit.setMinimumWidth(220)  # the name and its hint readable at the smallest size
        top.addWidget(self.name_edit, 2)
        self.start_label = QLabel()
        top.addWidget(self.start_label)
        self.start_from = QComboBox()
        self._fill_start_from()
        self.start_from.activated.connect(self._start_from_chosen)
        top.addWidget(self.start_from, 2)
        lay.addLayout(top)
        row = QHBoxLayout()
        self.search = QLineEdit()
        self.search.setClearButtonEnabled(True)
        self.search.setMinimumWidth(220)
        self.search.textChanged.connect(self.apply_filter)
        row.addWidget(self.search, 1)
        self.only_diff = QCheckBox()
        self.only_diff.toggled.connect(lambda _=False: self.apply_filter())
        row.addWidget(self.only_diff)
        self.count = QLabel()
        row.addWidget(self.count)
        lay.addLayout(row)
        self.table = QTableWidget(0, 4)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionMode(QTableWidget.SelectionMode.NoSelection)
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        head.setSectionResizeMode(3, QHeaderView.ResizeMode.ResizeToContents)
        lay.addWidget(self.table, 1)
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet("color:#d84a3a;")
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.error)
        buttons = QHBoxLayout()
        self.import_button = QPushButton()
        self.import_button.clicked.connect(self.import_dialog)
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.export_dialog)
        self.save_button = QPushButton()
        self.save_button.clicked.connect(self._save_clicked)
        self.close_button = QPushButton()
        self.close_button.clicked.connect(self.reject)
        for b in (self.import_button, self.export_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.save_button)
        buttons.addWidget(self.close_button)
        lay.addLayout(buttons)
        #: row key -> (row, kind, widget): kind is switch | reading | param
        self.rows: dict[str, tuple[int, str, QWidget]] = {}
        self._words()
        self._build_rows()
        self.load(start)
        self.last_saved: Path | None = None
        # never so small that the table shows no rule whole (a rule's text column stays readable)
        self.table.setMinimumSize(640, 8 * self.table.verticalHeader().defaultSectionSize())
        self.setMinimumSize(self.sizeHint())

    # ------------------------------------------------------------------ words

    def _words(self) -> None:
        """The editor's own words (not the rows'), in the table's language."""
        self.setWindowTitle(tr("workbench.editor.title"))
        self.name_label.setText(tr("workbench.editor.name"))
        self.name_edit.setPlaceholderText(tr("workbench.editor.name_hint"))
        self.start_label.setText(tr("workbench.editor.start_from"))
        self.search.setPlaceholderText(tr("workbench.editor.search"))
        self.only_diff.setText(tr("workbench.editor.only_differences"))
        self.table.setHorizontalHeaderLabels([tr("workbench.editor.col_id"),
                                              tr("workbench.editor.col_value"),
                                              tr("workbench.editor.col_text"),
                                              tr("workbench.editor.col_mark")])
        for button, key in ((self.import_button, "workbench.editor.import"),
                            (self.export_button, "workbench.editor.export"),
                            (self.save_button, "workbench.editor.save"),
                            (self.close_button, "workbench.editor.close")):
            button.setText(tr(key))

    def retranslate(self) -> None:
        """The language changed (View → Language): every word anew, what was typed and chosen
        kept as it is."""
        self._words()
        self._fill_start_from()
        ref = _reference()
        for key, (r, kind, w) in self.rows.items():
            text, gloss = self._row_text(key, kind, ref)
            self._set_row_text(r, w, self.table.item(r, 0).text(), text, gloss)
            if isinstance(w, QComboBox):
                prefix = "reading.choice." if kind == "reading" else "param.choice."
                for i in range(w.count()):
                    w.setItemText(i, tr_or(f"{prefix}{w.itemData(i)}", str(w.itemData(i))))
        self._changed()
        self._fit_rows()

    # ------------------------------------------------------------------ rows

    def _fill_start_from(self) -> None:
        from fate_royal.cards.rulesets import available_rulesets
        from fate_royal.qt import texts

        self.start_from.clear()
        self.start_from.addItem(tr("workbench.editor.start_from_pick"), None)
        for key, rules, problem in available_rulesets(self.folder):
            if rules is None:
                continue
            self.start_from.addItem(texts.rules_title(rules), rules)

    def _start_from_chosen(self, index: int) -> None:
        rules = self.start_from.itemData(index)
        if rules is None:
            return
        if not self.confirm_discard():  # edits not saved yet: save, drop, or keep editing
            self.start_from.setCurrentIndex(0)
            return
        self.load(rules)

    def _add_row(self, key: str, kind: str, widget: QWidget, text: str, gloss: str,
                 label: str | None = None) -> None:
        r = self.table.rowCount()
        self.table.insertRow(r)
        item = QTableWidgetItem(label or key)
        item.setData(Qt.ItemDataRole.UserRole, key)
        self.table.setItem(r, 0, item)
        holder = QWidget()
        hl = QHBoxLayout(holder)
        hl.setContentsMargins(6, 0, 6, 0)
        hl.addWidget(widget)
        self.table.setCellWidget(r, 1, holder)
        self.table.setItem(r, 2, QTableWidgetItem())
        self.table.setItem(r, 3, QTableWidgetItem(""))
        self._set_row_text(r, widget, label or key, text, gloss)
        self.rows[key] = (r, kind, widget)

    def _set_row_text(self, r: int, widget: QWidget, label: str, text: str, gloss: str) -> None:
        # one language a row: in English the gloss, with the Japanese original (the errata's own
        # words, which win where the two differ) on hover
        english = current_language() != "ja" and gloss
        t = self.table.item(r, 2)
        t.setText(gloss if english else text)
        t.setToolTip(tr("workbench.editor.original", text=text) if english and text else "")
        widget.setAccessibleName(label)  # as the row shows it, and what the rule says
        widget.setAccessibleDescription(t.text())

    def _row_text(self, key: str, kind: str, ref: Any) -> tuple[str, str]:
        """A row's rule text in the table's language and, for an errata switch, its English gloss
        (the Japanese errata sentence is the text)."""
        from fate_royal.cards.profile import PARAMETERS
        from fate_royal.cards.ruleset import READINGS

        if kind == "switch":
            return switch_sentence(key, self.patches, ref)
        if kind == "reading":
            return tr_or(f"reading.doc.{key}", READINGS[key].doc), ""
        spec = PARAMETERS[key]
        bounds = ""
        if spec.type in ("int", "list[int]") and spec.minimum is not None:
            bounds = f" [{spec.minimum}–{spec.maximum}]"
        title = ref.get(spec.rule).title(current_language()) if ref is not None and spec.rule in ref else ""
        doc = tr_or(f"param.doc.{key}", spec.doc) + bounds  # in the table's language
        return (f"{title} — {doc}" if title else doc), ""

    def _build_rows(self) -> None:
        from fate_royal.cards.profile import PARAMETERS
        from fate_royal.cards.ruleset import READINGS

        ref = _reference()
        for rid in self.switches:
            box = QCheckBox()
            box.toggled.connect(lambda _=False: self._changed())
            self._add_row(rid, "switch", box, *self._row_text(rid, "switch", ref))
        for rid, reading in READINGS.items():
            combo = QComboBox()
            for choice in reading.choices:
                combo.addItem(tr_or(f"reading.choice.{choice}", choice), choice)
                combo.setItemData(combo.count() - 1, choice, Qt.ItemDataRole.ToolTipRole)
            combo.currentIndexChanged.connect(lambda _=0: self._changed())
            self._add_row(rid, "reading", combo, *self._row_text(rid, "reading", ref),
                          f"{rid} {reading.key}")
        for key, spec in PARAMETERS.items():
            if spec.type == "int":
                w: QWidget = QSpinBox()
                w.setRange(spec.minimum if spec.minimum is not None else -10 ** 6,
                           spec.maximum if spec.maximum is not None else 10 ** 6)
                w.valueChanged.connect(lambda _=0: self._changed())
            elif spec.type == "bool":
                w = QCheckBox()
                w.toggled.connect(lambda _=False: self._changed())
            elif spec.type == "enum":
                w = QComboBox()
                for choice in spec.choices:
                    w.addItem(tr_or(f"param.choice.{choice}", str(choice)), choice)
                    w.setItemData(w.count() - 1, str(choice), Qt.ItemDataRole.ToolTipRole)
                w.currentIndexChanged.connect(lambda _=0: self._changed())
            else:  # list[int]
                w = QLineEdit()
                w.setPlaceholderText("1, 2")
                w.textChanged.connect(lambda _="": self._changed())
            self._add_row(key, "param", w, *self._row_text(key, "param", ref), f"{spec.rule} {key}")
        self._fit_rows()

    def _fit_rows(self) -> None:
        self.table.resizeRowsToContents()

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        QTimer.singleShot(0, self._fit_rows)  # once the text column has its real width

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        QTimer.singleShot(0, self._fit_rows)

    # ------------------------------------------------------------------ state

    def load(self, rules: Any) -> None:
        """Show ``rules`` in the widgets."""
        self._loading = True
        try:
            if rules.name not in ("house", "base") and (rules.title or rules.name):
                self.name_edit.setText(rules.title or rules.name)
            profile = rules.profile.to_dict()
            for key, (_r, kind, w) in self.rows.items():
                if kind == "switch":
                    w.setChecked(key not in rules.off)
                elif kind == "reading":
                    w.setCurrentIndex(w.findData(rules.reading(key)))
                else:
                    self._set_param(w, profile.get(key))
        finally:
            self._loading = False
        self._changed()
        self._clean = self._state()

    # --- unsaved changes

    def _state(self) -> tuple:
        values = []
        for key, (_r, kind, w) in self.rows.items():
            if kind == "switch":
                values.append(w.isChecked())
            elif kind == "reading":
                values.append(w.currentData())
            else:
                values.append(repr(self._param_value(key, w)))
        return (self.name_edit.text().strip(), tuple(values))

    def has_unsaved_changes(self) -> bool:
        return getattr(self, "_clean", None) is not None and self._state() != self._clean

    def confirm_discard(self) -> bool:
        """May the editor close? True when nothing is unsaved, or the user saves (and the save
        works) or discards; False to keep editing."""
        return confirm_unsaved(self, self.windowTitle(), tr("workbench.editor.unsaved"),
                               tr("workbench.editor.save"), lambda: self.save() is not None)

    def reject(self) -> None:  # Qt API: Escape and the window's close button
        if self.confirm_discard():
            super().reject()

    @staticmethod
    def _set_param(w: QWidget, value: Any) -> None:
        if isinstance(w, QSpinBox):
            w.setValue(int(value))
        elif isinstance(w, QCheckBox):
            w.setChecked(bool(value))
        elif isinstance(w, QComboBox):
            w.setCurrentIndex(max(0, w.findData(value)))
        elif isinstance(w, QLineEdit):
            w.setText(", ".join(str(v) for v in (value or [])))

    def _param_value(self, key: str, w: QWidget) -> Any:
        if isinstance(w, QSpinBox):
            return w.value()
        if isinstance(w, QCheckBox):
            return w.isChecked()
        if isinstance(w, QComboBox):
            return w.currentData()
        text = w.text().replace("、", ",").replace(" ", "")
        parts = [p for p in text.split(",") if p]
        return [int(p) if p.lstrip("-").isdigit() else p for p in parts]

    def switch_box(self, rid: str) -> QCheckBox:
        return self.rows[rid][2]  # type: ignore[return-value]

    def field(self, key: str) -> QWidget:
        return self.rows[key][2]

    def problems(self) -> dict[str, str]:
        """Row key -> what is wrong with its value (as the rule-set file would say it)."""
        from fate_royal.cards.profile import check_value

        out = {}
        for key, (_r, kind, w) in self.rows.items():
            if kind == "param":
                problem = check_value(key, self._param_value(key, w))
                if problem:
                    out[key] = problem
        return out

    def ruleset(self) -> Any:
        """The set the widgets show. ValueError naming the first bad field."""
        bad = self.problems()
        if bad:
            key, problem = next(iter(bad.items()))
            raise ValueError(problem)
        off = {k for k, (_r, kind, w) in self.rows.items() if kind == "switch" and not w.isChecked()}
        readings = {k: w.currentData() for k, (_r, kind, w) in self.rows.items() if kind == "reading"}
        values = {k: self._param_value(k, w) for k, (_r, kind, w) in self.rows.items()
                  if kind == "param"}
        name = self.name_edit.text().strip()
        return self.house.with_(off=off, readings=readings,
                                profile=self.house.profile.with_(**values), title=name, name=name)

    def differs(self, key: str) -> bool:
        r, kind, w = self.rows[key]
        if kind == "switch":
            return not w.isChecked()
        if kind == "reading":
            return w.currentData() != self.house.reading(key)
        return self._param_value(key, w) != self.house.profile.to_dict().get(key)

    def _changed(self) -> None:
        if getattr(self, "_loading", False):
            return
        from fate_royal.text.dataerrors import localize

        bad = {k: localize(v, current_language()) for k, v in self.problems().items()}
        differing = 0
        for key, (r, _kind, _w) in self.rows.items():
            mark = self.table.item(r, 3)
            if key in bad:
                mark.setText("✗ " + bad[key])
                mark.setForeground(QColor("#d84a3a"))
            elif self.differs(key):
                differing += 1
                mark.setText("≠ " + tr("workbench.editor.differs"))
                mark.setForeground(QColor(DIFF_COLOUR))
            else:
                mark.setText("")
        # each problem names its parameter already ("encounter_on (D5): …"); others get the key
        self.error.setText("\n".join(v if v.startswith(k) else f"{k}: {v}" for k, v in bad.items()))
        self.save_button.setEnabled(not bad)
        self.export_button.setEnabled(not bad)
        self.count.setText(tr("workbench.editor.count", count=differing))
        self.apply_filter()

    def apply_filter(self, text: str | None = None) -> None:
        words = (self.search.text() if text is None else text).strip().lower().split()
        only = self.only_diff.isChecked()
        for key, (r, _kind, _w) in self.rows.items():
            hay = " ".join((self.table.item(r, 0).text(), self.table.item(r, 2).text(),
                            self.table.item(r, 2).toolTip())).lower()
            hide = any(w not in hay for w in words) or (only and not self.differs(key)
                                                        and not self.table.item(r, 3).text())
            self.table.setRowHidden(r, hide)

    def visible_keys(self) -> list[str]:
        return [k for k, (r, _kind, _w) in self.rows.items() if not self.table.isRowHidden(r)]

    # ------------------------------------------------------------------ files

    def save(self, name: str | None = None) -> Path | None:
        """Save into the user's folder under ``name`` (default: the name field). None, with the
        problem shown, if it cannot."""
        from fate_royal.cards.rulesets import save_user_ruleset

        if name is not None:
            self.name_edit.setText(name)
        name = self.name_edit.text().strip()
        if not name:
            self.error.setText(tr("workbench.editor.needs_name"))
            return None
        try:
            rules = self.ruleset()
            path = save_user_ruleset(rules, name, self.folder, title=name)
        except (ValueError, OSError) as exc:
            self.error.setText(localize_error(exc, current_language()))
            return None
        from fate_royal.cards.rulesets import load_ruleset

        saved = load_ruleset(path)
        self.last_saved = path
        self._clean = self._state()
        self.error.setText("")
        self._fill_start_from()
        self.saved.emit(saved, path)
        return path

    def _save_clicked(self) -> None:
        if self.save() is not None:
            self.accept()

    def import_file(self, path: str | Path) -> Any:
        from fate_royal.cards.rulesets import import_ruleset
        from fate_royal.cards.yamlsrc import DataError

        try:
            rules, dest = import_ruleset(path, self.folder)
        except (DataError, OSError) as exc:
            self.error.setText(localize_error(exc, current_language()))
            return None
        self.load(rules)
        self._fill_start_from()
        self.saved.emit(rules, dest)
        return rules

    def export_file(self, path: str | Path) -> bool:
        from fate_royal.cards.rulesets import export_ruleset

        try:
            export_ruleset(self.ruleset(), path)
        except (ValueError, OSError) as exc:
            self.error.setText(localize_error(exc, current_language()))
            return False
        return True

    def import_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, tr("workbench.editor.import"), "",
                                              "YAML (*.yaml *.yml)")
        if path:
            self.import_file(path)

    def export_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, tr("workbench.editor.export"),
                                              f"{self.name_edit.text().strip() or 'rules'}.yaml",
                                              "YAML (*.yaml)")
        if path:
            self.export_file(path)
