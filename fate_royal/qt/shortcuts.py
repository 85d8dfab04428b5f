"""Keyboard shortcuts the user can change: every menu action with a key, and the table's own keys
(pass, physical / magic attack, take the hand-off first). Chosen keys are kept in the settings
(``Settings.shortcuts``) and applied at start; the dialog refuses a key used twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHeaderView, QKeySequenceEdit, QLabel, QPushButton,
                               QTableWidget, QVBoxLayout)

from fate_royal.qt.i18n import strip_mnemonic
from fate_royal.qt.i18n import tr as t
from fate_royal.qt.screen import resize_on_screen
from fate_royal.qt.settings import settings

_DEFAULTS: dict[str, str] = {}  # binding id -> the key sequence the program ships with


@dataclass
class Binding:
    id: str
    label: Callable[[], str]
    get: Callable[[], list[QKeySequence]]
    set: Callable[[list[QKeySequence]], None]
    action: QAction | None = None  # a menu action's binding: its place in the menus orders the rows

    @property
    def default(self) -> str:
        return _DEFAULTS.get(self.id, "")

    def keys(self) -> str:
        return ", ".join(k.toString(QKeySequence.SequenceFormat.PortableText) for k in self.get())


def _action_binding(ident: str, action: QAction) -> Binding:
    return Binding(ident, lambda: strip_mnemonic(action.text()), action.shortcuts, action.setShortcuts, action)


def _shortcut_binding(ident: str, label_key: str, shortcuts: list[QShortcut]) -> Binding:
    def get() -> list[QKeySequence]:
        return [s.key() for s in shortcuts if not s.key().isEmpty()]

    def set_(keys: list[QKeySequence]) -> None:
        for i, s in enumerate(shortcuts):
            s.setKey(keys[i] if i < len(keys) else QKeySequence())

    return Binding(ident, lambda: t(label_key), get, set_)


def _menu_actions(window: Any) -> list[QAction]:
    """The actions of the window's menu bar in the order the menus show them."""
    out: list[QAction] = []

    def walk(actions: list[QAction]) -> None:
        for a in actions:
            out.append(a)
            if a.menu() is not None:
                walk(a.menu().actions())

    bar = window.menuBar() if hasattr(window, "menuBar") else None
    if bar is not None:
        walk(bar.actions())
    return out


def bindings(window: Any) -> list[Binding]:
    """Every configurable key of ``window`` (and of the features installed on it)."""
    out: list[Binding] = []
    owners = [("", window)]
    for prefix, name in (("rulings.", "rulings"), ("seats.", "menu_seats")):
        owner = getattr(window, name, None)
        if owner is not None:
            owners.append((prefix, owner))
    for prefix, owner in owners:
        for name in sorted(vars(owner)):
            a = getattr(owner, name, None)
            if name.startswith("act_") and isinstance(a, QAction) and a.shortcuts():
                out.append(_action_binding(prefix + name, a))
    # the menus' order (File, Game, View, ...; top to bottom), after the table's own keys
    order = {id(a): i for i, a in enumerate(_menu_actions(window))}
    out.sort(key=lambda b: order.get(id(b.action), len(order)))
    table_keys = getattr(window, "table_shortcuts", {})
    out[:0] = [_shortcut_binding(ident, label_key, shortcuts)
               for ident, (label_key, shortcuts) in table_keys.items()]
    for b in out:
        _DEFAULTS.setdefault(b.id, b.keys())
    return out


def _parse(text: str) -> list[QKeySequence]:
    return [QKeySequence(p.strip(), QKeySequence.SequenceFormat.PortableText)
            for p in text.split(",") if p.strip() and not QKeySequence(p.strip()).isEmpty()]


def apply_saved(window: Any) -> int:
    """Apply the user's saved keys; returns how many were applied."""
    saved = settings().shortcuts()
    n = 0
    for b in bindings(window):
        if b.id in saved:
            b.set(_parse(saved[b.id]))
            n += 1
    return n


class ShortcutsDialog(QDialog):
    """A table of actions and their keys; click a key cell and press the new key."""

    def __init__(self, window: Any) -> None:
        super().__init__(window)
        self.setWindowTitle(t("shortcuts.title"))
        self.setAccessibleName(t("shortcuts.title"))
        self.window_ = window
        self.bindings = bindings(window)
        lay = QVBoxLayout(self)
        intro = QLabel(t("shortcuts.intro"))
        intro.setWordWrap(True)
        intro.setMinimumWidth(440)  # its two sentences in a few lines, never a column of words
        lay.addWidget(intro)
        self.table = QTableWidget(len(self.bindings), 2)
        self.table.setHorizontalHeaderLabels([t("shortcuts.action"), t("shortcuts.keys")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().hide()
        self.edits: list[QKeySequenceEdit] = []
        from PySide6.QtWidgets import QTableWidgetItem

        for row, b in enumerate(self.bindings):
            item = QTableWidgetItem(b.label())
            self.table.setItem(row, 0, item)
            edit = QKeySequenceEdit(QKeySequence(b.get()[0]) if b.get() else QKeySequence())
            edit.setAccessibleName(t("shortcuts.keys_for", action=b.label()))
            self.table.setCellWidget(row, 1, edit)
            self.edits.append(edit)
        self.table.resizeColumnToContents(1)
        self.table.setWordWrap(True)  # a long action name wraps in its row rather than being cut
        lay.addWidget(self.table, 1)
        self.error = QLabel()
        self.error.setStyleSheet("color:#d9534f;")
        self.error.setWordWrap(True)
        lay.addWidget(self.error)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.reset = QPushButton(t("shortcuts.reset"))
        buttons.addButton(self.reset, QDialogButtonBox.ButtonRole.ResetRole)
        self.reset.clicked.connect(self.reset_all)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(t("dialog.ok"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(t("keeper.choice.cancel"))
        lay.addWidget(buttons)
        self.table.setMinimumHeight(6 * self.table.verticalHeader().defaultSectionSize())
        self.setMinimumSize(self.sizeHint())  # never so small that the intro or the keys are cut
        resize_on_screen(self, 560, 520)

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        self.table.resizeRowsToContents()  # once the action column has its real width

    def reset_all(self) -> None:
        for b, edit in zip(self.bindings, self.edits):
            keys = _parse(b.default)
            edit.setKeySequence(keys[0] if keys else QKeySequence())

    def problem(self) -> str:
        """Why the keys cannot be taken (a key used twice, or one of the table's fixed keys:
        1–9 pick a shown action, Escape closes or steps back), or ""."""
        seen: dict[str, str] = {str(n): t("shortcuts.fixed.pick") for n in range(1, 10)}
        seen["Esc"] = t("shortcuts.fixed.escape")
        for b in self.bindings:  # the keys a binding keeps beside the one shown (Return, Enter)
            for extra in b.get()[1:]:
                seen.setdefault(extra.toString(QKeySequence.SequenceFormat.PortableText), b.label())
        for b, edit in zip(self.bindings, self.edits):
            k = edit.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
            if not k:
                continue
            if k in seen and seen[k] != b.label():
                return t("shortcuts.twice", keys=edit.keySequence().toString(
                    QKeySequence.SequenceFormat.NativeText), a=seen[k], b=b.label())
            seen[k] = b.label()
        return ""

    def accept(self) -> None:  # noqa: D102 - Qt API
        problem = self.problem()
        if problem:
            self.error.setText(problem)
            return
        self.apply()
        super().accept()

    def apply(self) -> None:
        st = settings()
        for b, edit in zip(self.bindings, self.edits):
            first = edit.keySequence()
            current = b.get()
            keys = [first] + current[1:] if not first.isEmpty() else []
            text = ", ".join(k.toString(QKeySequence.SequenceFormat.PortableText) for k in keys)
            if text == b.default:
                st.set_shortcut(b.id, None)
            else:
                st.set_shortcut(b.id, text)
            b.set(keys)
        st.sync()
