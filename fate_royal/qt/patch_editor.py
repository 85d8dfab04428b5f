"""The card errata patch form: add or edit one of the table's own patches (which card, which field,
the new value, the source sentence), checked by the loader itself (a ``file:line`` error of the
pack becomes the error of its field), the card face previewed before and after, and applied without
restarting: the running game is rebuilt with the new card data and replayed (``reload_cards``), so
it stays. The patches live in the user's errata pack (``cards.patches``).
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QComboBox, QDialog, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QListWidget, QPlainTextEdit,
    QPushButton, QVBoxLayout, QWidget,
)

from fate_royal.qt import art, texts
from fate_royal.qt.i18n import FollowsLanguage, current_language, tr
from fate_royal.qt.screen import resize_on_screen

PREVIEW_W = 230


def _problem(exc: Exception) -> str:
    """An exception's message (a KeyError's without the quotes str() puts around it)."""
    return str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)


class PatchEditor(FollowsLanguage, QDialog):
    """The form; ``applied`` is emitted after a patch was saved and the cards reloaded."""

    applied = Signal()
    #: asks what to do with unsaved form edits ("save", "discard" or "cancel"); None: a message box
    ask_unsaved: Callable[[PatchEditor], str] | None = None

    def __init__(self, parent: QWidget | None = None, controller: Any = None, features: Any = None,
                 pack: Any = None) -> None:
        super().__init__(parent)
        from fate_royal.cards.patches import read_user_patches, user_pack_path

        self.controller = controller
        self.features = features
        self.pack = pack if pack is not None else user_pack_path()
        self.patches: list[dict] = read_user_patches(self.pack)
        self.index: int | None = None  # the patch edited (None: a new one)
        self.checked_db: Any = None
        resize_on_screen(self, 1100, 720)
        row = QHBoxLayout(self)
        left = QVBoxLayout()
        self.mine_label = QLabel()
        left.addWidget(self.mine_label)
        self.list = QListWidget()
        self.list.currentRowChanged.connect(self._pick)
        self.empty_hint = QLabel()  # shown while the list is empty
        self.empty_hint.setWordWrap(True)
        self.empty_hint.setStyleSheet("color:#a99c88;")
        left.addWidget(self.empty_hint)
        left.addWidget(self.list, 1)
        self.new_button = QPushButton()
        self.new_button.clicked.connect(self._new_clicked)
        self.delete_button = QPushButton()
        self.delete_button.clicked.connect(self.delete_patch)
        left.addWidget(self.new_button)
        left.addWidget(self.delete_button)
        row.addLayout(left, 1)
        mid = QVBoxLayout()
        form = QFormLayout()
        self.inputs: dict[str, QWidget] = {}
        self.errors: dict[str, QLabel] = {}
        self.labels: dict[str, str] = {}  # each field key: the name shown beside it
        self.label_keys: dict[str, str] = {}  # each field key: its name's catalog key
        self.form = form
        self.id_edit = QLineEdit()
        self.rule_edit = QLineEdit()
        self.rule_edit.setPlaceholderText("E9.6")
        self.card = QComboBox()
        for cid, card in sorted(self._db().cards.items()):
            self.card.addItem(f"{cid} {texts.card_name(card)}", cid)
        self.card.currentIndexChanged.connect(lambda _=0: self._card_changed())
        self.path = QComboBox()
        self.path.setEditable(True)
        self.path.lineEdit().setPlaceholderText("effects.1.cost")  # a field path of the card file
        self.path.currentTextChanged.connect(lambda _="": self._path_changed())
        self.expect = QLineEdit()
        self.expect.setReadOnly(True)
        self.new_value = QPlainTextEdit()
        self.new_value.setPlaceholderText("{mana: 1}")
        self.new_value.setFixedHeight(90)
        self.source = QLineEdit()
        for key, label, w in (("id", "workbench.patch.id", self.id_edit),
                              ("rule", "workbench.patch.rule", self.rule_edit),
                              ("card", "workbench.patch.card", self.card),
                              ("path", "workbench.patch.path", self.path),
                              ("expect", "workbench.patch.expect", self.expect),
                              ("set", "workbench.patch.value", self.new_value),
                              ("source", "workbench.patch.source", self.source)):
            box = QVBoxLayout()
            box.setSpacing(1)
            box.addWidget(w)
            err = QLabel()
            err.setWordWrap(True)
            err.setStyleSheet("color:#d84a3a;")
            err.hide()
            box.addWidget(err)
            form.addRow(tr(label), box)
            self.labels[key] = tr(label)
            self.label_keys[key] = label
            self.inputs[key] = w
            self.errors[key] = err
        mid.addLayout(form)
        self.other = QLabel()
        self.other.setWordWrap(True)
        self.other.setStyleSheet("color:#d84a3a;")
        mid.addWidget(self.other)
        buttons = QHBoxLayout()
        self.check_button = QPushButton()
        self.check_button.clicked.connect(self.check)
        self.apply_button = QPushButton()
        self.apply_button.clicked.connect(self.apply)
        self.close_button = QPushButton()
        self.close_button.clicked.connect(self.reject)
        buttons.addWidget(self.check_button)
        buttons.addStretch(1)
        buttons.addWidget(self.apply_button)
        buttons.addWidget(self.close_button)
        mid.addLayout(buttons)
        # how a patch works, under the form (the space below it was empty)
        self.howto = QLabel()
        self.howto.setWordWrap(True)
        self.howto.setStyleSheet("color:#a99c88; margin-top:12px;")
        mid.addWidget(self.howto)
        mid.addStretch(1)
        row.addLayout(mid, 3)
        right = QVBoxLayout()
        self.before_title = QLabel()
        self.before = QLabel()
        self.after_title = QLabel()
        self.after = QLabel()
        for w in (self.before_title, self.before, self.after_title, self.after):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
            right.addWidget(w)
        right.addStretch(1)
        row.addLayout(right, 2)
        self._words()
        self._fill_list()
        self._clean: tuple = ()
        self.new_patch()

    # ------------------------------------------------------------------ words

    def _words(self) -> None:
        """The editor's own words, in the table's language."""
        self.setWindowTitle(tr("workbench.patch.title"))
        for label, key in ((self.mine_label, "workbench.patch.mine"),
                           (self.empty_hint, "workbench.patch.none_yet"),
                           (self.new_button, "workbench.patch.new"),
                           (self.delete_button, "workbench.patch.delete"),
                           (self.check_button, "workbench.patch.check"),
                           (self.apply_button, "workbench.patch.apply"),
                           (self.close_button, "workbench.editor.close"),
                           (self.howto, "workbench.patch.howto"),
                           (self.before_title, "workbench.patch.before"),
                           (self.after_title, "workbench.patch.after")):
            label.setText(tr(key))
        self.source.setPlaceholderText(tr("workbench.patch.source_hint"))
        # the form's rows in the order they were added, each named beside its field
        for row, (key, label_key) in enumerate(self.label_keys.items()):
            self.labels[key] = tr(label_key)
            item = self.form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            if item is not None and item.widget() is not None:
                item.widget().setText(self.labels[key])

    def retranslate(self) -> None:
        """The language changed (View → Language): every word anew, the cards by their names in
        it, the previews drawn again; what was typed is kept (shown problems are checked again)."""
        self._words()
        db = self._db()
        for i in range(self.card.count()):
            card = db.cards.get(self.card.itemData(i))
            if card is not None:
                self.card.setItemText(i, f"{card.id} {texts.card_name(card)}")
        if any(not label.isHidden() for label in self.errors.values()) or not self.other.isHidden():
            self.check()
        else:
            self._preview(self.checked_db)

    # ------------------------------------------------------------------ unsaved edits

    def _form(self) -> tuple:
        return (self.id_edit.text().strip(), self.rule_edit.text().strip(), self.source.text().strip(),
                self.card.currentData(), self.path.currentText().strip(), self.new_value.toPlainText().strip())

    def _mark_clean(self) -> None:
        self._clean = self._form()

    def has_unsaved_changes(self) -> bool:
        return bool(self._clean) and self._form() != self._clean

    def confirm_discard(self) -> bool:
        """May the form be replaced or closed? True when nothing is unsaved, or when the user
        applies the patch (and that works) or drops the edits; False to keep editing."""
        from fate_royal.qt.dialogs import confirm_unsaved

        return confirm_unsaved(self, self.windowTitle(), tr("workbench.patch.unsaved"),
                               tr("workbench.patch.apply"), self.apply)

    def reject(self) -> None:  # Qt API: Escape, the window's close button and Close
        if self.confirm_discard():
            super().reject()

    # ------------------------------------------------------------------ data

    def _db(self) -> Any:
        g = self.controller.game if self.controller is not None else None
        if g is not None:
            return g.db
        if not hasattr(self, "_shipped"):
            from fate_royal.cards import load_card_db

            self._shipped = load_card_db()
        return self._shipped

    def _rules(self) -> Any:
        g = self.controller.game if self.controller is not None else None
        return g.rules if g is not None else None

    def _fill_list(self) -> None:
        self.list.blockSignals(True)
        self.list.clear()
        for p in self.patches:
            self.list.addItem(f"{p.get('id', '?')}  {p.get('card', '')}  {p.get('path', '')}")
        self.list.blockSignals(False)
        self.empty_hint.setVisible(not self.patches)

    def _next_id(self) -> str:
        used = {str(p.get("id")) for p in self.patches}
        n = 1
        while f"U-{n}" in used:
            n += 1
        return f"U-{n}"

    def _new_clicked(self) -> None:
        if self.confirm_discard():
            self.new_patch()

    def new_patch(self) -> None:
        self.index = None
        self.list.blockSignals(True)
        self.list.setCurrentRow(-1)  # no patch of the list is current: clicking one opens it
        self.list.blockSignals(False)
        self.id_edit.setText(self._next_id())
        self.rule_edit.setText("")
        self.new_value.setPlainText("")
        self.source.setText("")
        self._card_changed()
        self._show_errors({}, [])
        self._mark_clean()

    def _pick(self, row: int) -> None:
        if not 0 <= row < len(self.patches):
            return
        if row != self.index and not self.confirm_discard():  # keep editing: the list stays put
            self.list.blockSignals(True)
            self.list.setCurrentRow(-1 if self.index is None else self.index)
            self.list.blockSignals(False)
            return
        import yaml

        p = self.patches[row]
        self.index = row
        self.id_edit.setText(str(p.get("id", "")))
        self.rule_edit.setText(str(p.get("rule", "")))
        i = self.card.findData(p.get("card"))
        if i >= 0:
            self.card.setCurrentIndex(i)
        self.path.setEditText(str(p.get("path", "")))
        self.new_value.setPlainText(yaml.safe_dump(p.get("set"), allow_unicode=True,
                                                   default_flow_style=True).strip().removesuffix("...").strip())
        self.source.setText(str(p.get("source", "")))
        self.expect.setText(_flow(p.get("expect")))
        self._preview(None)
        self._mark_clean()

    def delete_patch(self) -> bool:
        if self.index is None:
            return False
        del self.patches[self.index]
        self._fill_list()
        return self._save_and_reload()

    def _card_changed(self) -> None:
        from fate_royal.cards.patches import field_paths

        card = self._db().cards.get(self.card.currentData())
        self.path.blockSignals(True)
        self.path.clear()
        if card is not None:
            try:
                self.path.addItems(field_paths(card))
            except Exception:  # a card with no file (a scenario's): free text only
                pass
        self.path.setEditText("")
        self.path.blockSignals(False)
        self.expect.setText("")
        self._preview(None)

    def _path_changed(self) -> None:
        from fate_royal.cards.patches import card_value

        card = self._db().cards.get(self.card.currentData())
        path = self.path.currentText().strip()
        if card is None or not path:
            self.expect.setText("")
            return
        try:
            self.expect.setText(_flow(card_value(card, path)))
            self.errors["path"].hide()
        except Exception as exc:
            self.expect.setText("")
            from fate_royal.text.dataerrors import localize

            self.errors["path"].setText(localize(_problem(exc), current_language()))
            self.errors["path"].show()

    def current_patch(self) -> tuple[dict | None, dict[str, str]]:
        """The patch the form shows, or the fields that cannot even be read."""
        import yaml

        from fate_royal.cards.patches import card_value

        problems: dict[str, str] = {}
        card = self._db().cards.get(self.card.currentData())
        path = self.path.currentText().strip()
        expect: Any = None
        try:
            expect = card_value(card, path) if card is not None and path else None
        except Exception as exc:
            problems["path"] = _problem(exc)
        try:
            value = yaml.safe_load(self.new_value.toPlainText())
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            problems["set"] = tr("workbench.patch.yaml_error", line=mark.line + 1 if mark is not None else 1)
            if current_language() == "en":  # PyYAML's own words are English: shown to English readers
                problems["set"] += f": {getattr(exc, 'problem', exc)}"
            value = None
        if not self.new_value.toPlainText().strip():
            problems["set"] = tr("workbench.patch.needs_value")
        patch = {"id": self.id_edit.text().strip(), "rule": self.rule_edit.text().strip(),
                 "source": self.source.text().strip(), "card": self.card.currentData() or "",
                 "path": path, "expect": expect, "set": value}
        return (None if problems else patch), problems

    def _candidate(self, patch: dict) -> list[dict]:
        out = [dict(p) for p in self.patches]
        if self.index is None:
            out.append(patch)
        else:
            out[self.index] = patch
        return out

    # ------------------------------------------------------------------ check, preview, apply

    def check(self) -> bool:
        """Validate the form as the loader would the file; preview the card. True if it holds."""
        from fate_royal.cards.patches import check_patches

        patch, problems = self.current_patch()
        if patch is None:
            self._show_errors(problems, [])
            self._preview(None)
            return False
        patches = self._candidate(patch)
        mine = len(patches) - 1 if self.index is None else self.index
        db, fields, other = check_patches(patches, rules=self._rules(), path=self.pack)
        errors = {k: msg for (i, k), msg in fields.items() if i == mine}
        other = other + [f"{patches[i].get('id')}: {msg}" for (i, k), msg in fields.items() if i != mine]
        self._show_errors(errors, other)
        self.checked_db = db
        self._preview(db)
        return db is not None

    def _show_errors(self, errors: dict[str, str], other: list[str]) -> None:
        from fate_royal.qt.i18n import current_language
        from fate_royal.text.dataerrors import localize

        lang = current_language()  # the loader's English problems in the table's language
        def name(key: str) -> str:  # a field by the name the form shows beside it
            return self.labels.get(key, key)

        for key, label in self.errors.items():
            label.setText(localize(errors.get(key, ""), lang, name))
            label.setVisible(key in errors)
        self.other.setText("\n".join(localize(m, lang, name) for m in other))
        self.other.setVisible(bool(other))

    def field_errors(self) -> dict[str, str]:
        return {k: lab.text() for k, lab in self.errors.items() if lab.text()}

    def _preview(self, db: Any) -> None:
        cid = self.card.currentData()
        before = self._db().cards.get(cid)
        lang = current_language()
        self.before.setPixmap(QPixmap.fromImage(art.render_card_image(before, PREVIEW_W, lang=lang, db=self._db()))
                              if before is not None else QPixmap())
        after = db.cards.get(cid) if db is not None else None
        self.after.setPixmap(QPixmap.fromImage(art.render_card_image(after, PREVIEW_W, lang=lang, db=db))
                             if after is not None else QPixmap())
        self.after_card = after

    def apply(self) -> bool:
        """Save the patch into the user's pack and reload the cards; the game stays."""
        if not self.check():
            return False
        patch, _ = self.current_patch()
        self.patches = self._candidate(patch)
        self.index = self.patches.index(patch)
        self._fill_list()
        self._mark_clean()
        return self._save_and_reload()

    def _save_and_reload(self) -> bool:
        from fate_royal.cards.patches import save_user_patches

        save_user_patches(self.patches, self.pack)
        ok = True
        if self.features is not None:
            self.controller.forget_card_data()
            ok = bool(self.features.reload_cards())
        if ok:
            self.applied.emit()
        return ok


def _flow(value: Any) -> str:
    from fate_royal.cards.patches import _flow as flow

    return flow(value)
