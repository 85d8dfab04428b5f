"""Undo people can see, and a log that can be read: the bar above the log panel.

``install(window)`` puts, above the window's log: undo / redo buttons, a filter (by player, by
rule id) and a switch between the log and the *history* — one line per action taken, each with its
label, the current position marked. "Undo to here" (on a history line, or on a log line through its
context menu) takes back actions one at a time through the controller, so it stops wherever undo
would stop (the hot-seat privacy rule: a player may take back only what they did since their
hand-off, never what another player did behind them).

A history line names a card only when the one looking may see that card now; otherwise it says
what kind of action it was ("played a card face down").
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QHBoxLayout, QLineEdit, QListWidget, QListWidgetItem, QMenu,
    QStackedWidget, QToolButton, QVBoxLayout, QWidget,
)

from fate_royal.qt import texts
from fate_royal.qt.i18n import tr
from fate_royal.rules.actions import (
    Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Pass,
)

BAR_STYLE = """
QToolButton, QPushButton { background: #3a2a1f; color: #f4ecdc; border: 1px solid #6b5237;
  border-radius: 0.3em; padding: 0.15em 0.5em; }
QToolButton:disabled, QPushButton:disabled { color: #6b5f55; border-color: #3a2a1f; }
QToolButton:checked { background: #4e3826; border-color: #e8c36a; }
QComboBox, QLineEdit { background: #0f0a07; color: #f4ecdc; border: 1px solid #4a3726;
  border-radius: 3px; padding: 1px 4px; }
QListWidget { background: #0f0a07; color: #eadfcb; border: 1px solid #3a2a1f; border-radius: 4px; }
QListWidget::item:selected { background: #4e3826; }
"""


def known_uids(view: Any) -> set[int]:
    """Card instances whose face the one looking may see now."""
    out = {cv.uid for cv in view.known_cards() if cv.uid is not None}
    for sv in view.players:
        for cv in (sv.hero, sv.klass):
            if cv is not None and cv.uid is not None:
                out.add(cv.uid)
    return out


def action_label(game: Any, view: Any, action: Any, known: set[int] | None = None) -> str:
    """One action of the history as the one looking may read it."""
    w = texts.words(game)
    who = w.player(action.player)
    sep = "：" if w.lang == "ja" else ": "
    known = known_uids(view) if known is None else known
    if isinstance(action, (Pass, DeclareRaid, ChooseEncounterTarget, CommandSpell)):
        return w.action_line(game, action)
    if isinstance(action, ChooseAttack):  # chosen in secret until disclosed
        return f"{who}{sep}{tr('history.kind.attack')}"
    if isinstance(action, Choose):
        return f"{who}{sep}{tr('history.kind.choose')}"
    uid = getattr(action, "card", None)
    if isinstance(uid, int) and uid in known:
        return w.action_line(game, action)
    return f"{who}{sep}{texts.tr_or(f'history.kind.{action.kind}', action.kind)}"


class HistoryList(QListWidget):
    """The actions taken, oldest first; row n = the position after n+1 actions."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window_ = window
        self.setWordWrap(True)
        self.itemDoubleClicked.connect(lambda item: self.undo_to(self.row(item) + 1))
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self._key: tuple = ()

    def refresh(self) -> None:
        c = self.window_.controller
        g = c.game
        if g is None:
            self.clear()
            self._key = ()
            return
        view = c.table_view()
        key = (id(g), g.version, view.viewer, c.cards_shown())
        if key == self._key:
            return
        self._key = key
        known = known_uids(view)
        self.clear()
        for n, a in enumerate(g.history, 1):
            self.addItem(QListWidgetItem(f"{n}. {action_label(g, view, a, known)}"))
        self.scrollToBottom()

    def labels(self) -> list[str]:
        return [self.item(i).text() for i in range(self.count())]

    def undo_to(self, keep: int) -> int:
        """Take back actions until only ``keep`` remain, or undo refuses; returns how many went."""
        return undo_to(self.window_.controller, keep)

    def _menu(self, pos: Any) -> None:
        item = self.itemAt(pos)
        if item is None:
            return
        menu = QMenu(self)
        act = menu.addAction(tr("history.undo_to_here"))
        act.triggered.connect(lambda: self.undo_to(self.row(item) + 1))
        act.setEnabled(self.window_.controller.can_undo())
        self.window_.last_menu = menu
        menu.popup(self.viewport().mapToGlobal(pos))


def undo_to(controller: Any, keep: int) -> int:
    """Undo until the game has ``keep`` actions or undo refuses (privacy, nothing left)."""
    g = controller.game
    n = 0
    while g is not None and len(g.history) > keep and controller.can_undo():
        before = len(g.history)
        if not controller.undo() or len(g.history) >= before:
            break
        n += 1
    return n


class LogBar(QWidget):
    """Undo / redo, the filter, and the log/history switch."""

    def __init__(self, window: Any) -> None:
        super().__init__()
        self.window_ = window
        self.setStyleSheet(BAR_STYLE)
        from PySide6.QtWidgets import QSizePolicy

        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(3)
        row = QHBoxLayout()
        row.setSpacing(4)
        row2 = QHBoxLayout()
        row2.setSpacing(4)
        rows.addLayout(row)
        rows.addLayout(row2)
        c = window.controller
        self.undo_button = QToolButton()
        self.undo_button.clicked.connect(c.undo)
        self.redo_button = QToolButton()
        self.redo_button.clicked.connect(c.redo)
        self.player_filter = QComboBox()
        self.player_filter.currentIndexChanged.connect(self._filter)
        self.rule_filter = QLineEdit()
        self.rule_filter.textChanged.connect(self._filter)
        self.history_button = QToolButton()
        self.history_button.setCheckable(True)
        self.history_button.toggled.connect(self._switch)
        for wdg in (self.undo_button, self.redo_button):
            row.addWidget(wdg)
        row.addStretch(1)
        row.addWidget(self.history_button)
        self.player_filter.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.rule_filter.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        row2.addWidget(self.player_filter, 3)
        row2.addWidget(self.rule_filter, 2)
        self._names: tuple = ()

    def retranslate(self) -> None:
        self.undo_button.setToolTip(tr("history.undo") + " (Ctrl+Z)")
        self.redo_button.setToolTip(tr("history.redo") + " (Ctrl+Shift+Z)")
        self.undo_button.setAccessibleName(tr("history.undo"))
        self.redo_button.setAccessibleName(tr("history.redo"))
        self.rule_filter.setPlaceholderText(tr("log.filter.rule"))
        self.rule_filter.setToolTip(tr("log.filter.rule_tip"))
        self.history_button.setText(tr("history.title"))
        self._fit_labels()
        self._names = ()
        self.refresh()

    def _fit_labels(self) -> None:
        """Undo and redo say their names where the row has room; in a narrow dock (a demo beside
        the table at 1280×800) only their arrows, so that no label is cut (the names stay in the
        tooltips and accessible names)."""
        full = [("↶ " + tr("history.undo")), ("↷ " + tr("history.redo"))]
        buttons = (self.undo_button, self.redo_button, self.history_button)
        for b, text in zip(buttons, full):
            b.setText(text)
        need = sum(b.sizeHint().width() for b in buttons) + 2 * self.layout().spacing() + 8
        if self.width() > 0 and need > self.width():
            self.undo_button.setText("↶")
            self.redo_button.setText("↷")

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit_labels()

    def refresh(self) -> None:
        c = self.window_.controller
        act_undo, act_redo = getattr(self.window_, "act_undo", None), getattr(self.window_, "act_redo", None)
        if act_undo is not None and act_redo is not None:  # the window's menu knows already
            self.undo_button.setEnabled(act_undo.isEnabled())
            self.redo_button.setEnabled(act_redo.isEnabled())
        else:
            self.undo_button.setEnabled(c.can_undo())
            self.redo_button.setEnabled(c.can_redo())
        g = c.game
        names = tuple(p.name for p in g.ctx.s.players) if g is not None else ()
        if names != self._names:
            self._names = names
            self.player_filter.blockSignals(True)
            self.player_filter.clear()
            self.player_filter.addItem(tr("log.filter.everyone"), None)
            for i, name in enumerate(names):
                self.player_filter.addItem(name, i)
            self.player_filter.blockSignals(False)
        if self.history_button.isChecked():
            self.window_.history.refresh()

    def _filter(self, *_: Any) -> None:
        log = self.window_.log
        log.set_filter(self.player_filter.currentData(), self.rule_filter.text().strip())

    def _switch(self, on: bool) -> None:
        self.window_.log_stack.setCurrentIndex(1 if on else 0)
        if on:
            self.window_.history.refresh()


def install(window: Any) -> None:
    """Put the bar and the history list into the window's log box (above / beside its log)."""
    box = window.log_box
    lay = box.layout()
    lay.removeWidget(window.log)
    window.log_bar = LogBar(window)
    window.history = HistoryList(window)
    window.log_stack = QStackedWidget()
    window.log_stack.addWidget(window.log)
    window.log_stack.addWidget(window.history)
    lay.addWidget(window.log_bar)
    lay.addWidget(window.log_stack)
    window.log.undo_to_requested.connect(lambda keep: undo_to(window.controller, keep))
    window.log_bar.retranslate()
