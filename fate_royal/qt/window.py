"""The main window: table, hand, side panels, menus, shortcuts and the hot-seat hand-off screen.

Structure::

    MainWindow
      menu bar (Game: new / undo / redo / quit; View: full screen / language / ask everyone)
      central widget
        left column:  MessageBar, TableView (seats, centre), HandView (the deciding player's hand)
        right column: ActionPanel, StackPanel, LogPanel, RulePanel
      HandoffOverlay (covers the whole window while the deciding player changes hands)

The window observes the controller (``changed``) and redraws; every user action goes through the
controller. It never decides what is legal.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPointF, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import (
    QAction, QActionGroup, QColor, QKeySequence, QPainter, QRadialGradient,
    QShortcut,
)
from PySide6.QtWidgets import (
    QCheckBox, QDockWidget, QGroupBox, QHBoxLayout, QLabel, QMainWindow, QMenu, QPushButton, QStyle,
    QTabWidget, QVBoxLayout, QWidget,
)

from fate_royal.qt import art, i18n, texts
from fate_royal.qt.controller import GameController
from fate_royal.qt.dialogs import NewGameDialog, PileDialog
from fate_royal.qt.fonts import ui_font
from fate_royal.qt.i18n import strip_mnemonic, tr
from fate_royal.qt.panels import ActionPanel, LogPanel, MessageBar, RulePanel, StackPanel
from fate_royal.qt.screen import resize_on_screen
from fate_royal.qt.table import HandView, TableView
from fate_royal.rules.actions import ChooseAttack, DeclareRaid, ChooseEncounterTarget, Pass
from fate_royal.text.words import one_name

WINDOW_STYLE = """
QMainWindow, QWidget#central { background: #120c08; }
QWidget#side { background: #1b130e; }
QGroupBox { color: #e8c36a; font-weight: bold; border: 1px solid #4a3726; border-radius: 6px;
  margin-top: 1.1em; padding-top: 0.2em; }
QGroupBox::title { subcontrol-origin: margin; left: 8px; padding: 0 4px; }
QLabel { color: #f4ecdc; }
QTextBrowser { background: #0f0a07; color: #eadfcb; border: 1px solid #3a2a1f; border-radius: 4px; }
QScrollArea, QScrollArea > QWidget > QWidget { background: transparent; }
QCheckBox { color: #f4ecdc; }
QCheckBox::indicator { width: 13px; height: 13px; border: 1px solid #8a6a48; border-radius: 3px;
  background: transparent; }
QCheckBox::indicator:hover { border-color: #e8c36a; }
QCheckBox::indicator:checked { background: #e8c36a; border-color: #e8c36a; }
QCheckBox::indicator:disabled { border-color: #4a3726; background: #2a1f17; }
QCheckBox::indicator:checked:disabled { background: #7a6540; }
QStatusBar { color: #eadfcb; }
QDialog, QMessageBox { background: #1b130e; }
QDialog QLineEdit, QDialog QComboBox, QDialog QSpinBox {
  background: #0f0a07; color: #f4ecdc; border: 1px solid #4a3726; border-radius: 3px; padding: 2px 4px; }
QDialog QSpinBox { padding-right: 18px; }
QDialog QSpinBox::up-button, QDialog QSpinBox::down-button {
  subcontrol-origin: border; width: 16px; background: #3a2a1f; border-left: 1px solid #4a3726; }
QDialog QSpinBox::up-button { subcontrol-position: top right; border-top-right-radius: 3px; }
QDialog QSpinBox::down-button { subcontrol-position: bottom right; border-bottom-right-radius: 3px; }
QDialog QSpinBox::up-button:hover, QDialog QSpinBox::down-button:hover { background: #4a3726; }
QDialog QTableWidget, QDialog QListWidget, QDialog QPlainTextEdit {
  background: #0f0a07; color: #eadfcb; border: 1px solid #3a2a1f; border-radius: 3px;
  gridline-color: #3a2a1f; selection-background-color: #6b5038; selection-color: #fff8e8; }
QDialog QHeaderView::section { background: #2b1e15; color: #e8c36a; border: 0;
  border-right: 1px solid #3a2a1f; border-bottom: 1px solid #3a2a1f; padding: 4px; font-weight: bold; }
QDialog QTableCornerButton::section { background: #2b1e15; border: 0; }
QScrollBar:vertical { background: #1b130e; width: 12px; margin: 0; border: 0; }
QScrollBar:horizontal { background: #1b130e; height: 12px; margin: 0; border: 0; }
QScrollBar::handle:vertical { background: #5a4330; border-radius: 4px; min-height: 28px; margin: 2px; }
QScrollBar::handle:horizontal { background: #5a4330; border-radius: 4px; min-width: 28px; margin: 2px; }
QScrollBar::handle:hover { background: #8a6a48; }
QScrollBar::add-line, QScrollBar::sub-line { width: 0; height: 0; border: 0; }
QScrollBar::add-page, QScrollBar::sub-page { background: none; }
QDialog QTabWidget::pane { background: #0f0a07; border: 1px solid #3a2a1f; border-radius: 3px; }
QDialog QTabBar::tab { background: #2b1e15; color: #d8cbb3; border: 1px solid #3a2a1f; padding: 4px 12px;
  border-top-left-radius: 4px; border-top-right-radius: 4px; }
QDialog QTabBar::tab:selected { background: #3a2a1f; color: #f4ecdc; border-color: #6b5038; }
QMainWindow > QTabBar::tab { background: #1b130e; color: #b8a78f; border: 1px solid #3a2a1f; padding: 4px 14px;
  border-top-left-radius: 4px; border-top-right-radius: 4px; }
QMainWindow > QTabBar::tab:selected { background: #2b1e15; color: #e8c36a; border-color: #6b5038; font-weight: bold; }
QMainWindow > QTabBar::tab:hover { color: #f4ecdc; }
QComboBox QAbstractItemView { background: #0f0a07; color: #f4ecdc; selection-background-color: #6b5038; }
QDialog QPushButton, QMessageBox QPushButton {
  background: #3a2a1f; color: #f4ecdc; border: 1px solid #6b5038; border-radius: 4px; padding: 4px 14px; }
QDialog QPushButton:hover, QMessageBox QPushButton:hover { background: #4a3726; }
QDialog QPushButton:default, QMessageBox QPushButton:default { border-color: #e8c36a; }
QDialog QPushButton:disabled, QMessageBox QPushButton:disabled {
  background: #241a13; color: #6b5f55; border-color: #3a2f27; }
QDialog QLineEdit:disabled, QDialog QComboBox:disabled, QDialog QSpinBox:disabled {
  color: #6b5f55; border-color: #2e2219; }
QCheckBox:disabled, QDialog QLabel:disabled { color: #6b5f55; }
"""


#: the narrowest the actions / stack / log column gets (every label and button still reads at
#: 1024 x 700 with a dock open beside it)
SIDE_MIN_W = 210
#: the narrowest a dock opens at (the card detail still shows its card whole, its text under it)
DOCK_MIN_W = 300
QWIDGETSIZE_MAX = (1 << 24) - 1  # Qt's "no maximum" (PySide6 does not export the constant)


def in_view(dock: Any) -> bool:
    """Whether ``dock`` can be seen: shown and not a tab behind another dock (Qt counts a tab
    behind as visible)."""
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def open_dock(window: Any, dock: Any, wanted: int) -> None:
    """Show ``dock`` beside the table, ``wanted`` pixels wide but no wider than leaves the table,
    the side column and any dock already open their minimum widths. Its first layout is held to that
    width: left to itself the dock took its own preferred width and pushed a 1024-px window 70 px
    wider than the screen, or squeezed the side column to ~90 px (buttons without labels, words
    broken letter by letter). Where the window has no room for one more column of docks (the demo
    and the card detail together need about 1,330 pixels across with the table, wider than a
    1280×800 projector), the dock opens as a tab of the one already there, in front."""
    central = window.centralWidget()
    separator = window.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent)
    beside = [d for d in window.findChildren(QDockWidget)
              if d is not dock and d.isVisible() and not d.isFloating()
              and window.dockWidgetArea(d) in (Qt.DockWidgetArea.LeftDockWidgetArea,
                                               Qt.DockWidgetArea.RightDockWidgetArea)]
    if any(d in beside for d in window.tabifiedDockWidgets(dock)):  # already one of their tabs
        dock.show()
        dock.raise_()
        return
    columns: list[Any] = []  # one dock for each column of docks open (tabbed docks share one)
    for d in beside:
        if not any(d in window.tabifiedDockWidgets(c) for c in columns):
            columns.append(d)

    def least(d: Any) -> int:  # (a dock's own hint is reliable once it has been laid out)
        return max(DOCK_MIN_W, d.minimumSizeHint().width())

    table = (central.minimumSizeHint().width() if central is not None else 0) + separator
    mine = DOCK_MIN_W
    if columns and window.width() - table - sum(least(c) + separator for c in columns) < mine:
        area = window.dockWidgetArea(dock)
        host = next((c for c in columns if window.dockWidgetArea(c) == area), columns[0])
        window.tabifyDockWidget(host, dock)
        dock.show()
        dock.raise_()
        return
    room = window.width() - table - sum(c.width() + separator for c in columns)
    width = max(mine, min(wanted, room))
    held = [dock]
    if room < mine:  # the docks already open give up what they have above their minimum
        for c in columns:
            c.setMaximumWidth(least(c))
            held.append(c)
    dock.setMaximumWidth(width)
    dock.show()
    window.resizeDocks([dock], [width], Qt.Orientation.Horizontal)

    def release() -> None:  # then the widths are the user's to drag
        for d in held:
            d.setMaximumWidth(QWIDGETSIZE_MAX)

    QTimer.singleShot(0, release)


class HandoffOverlay(QWidget):
    """The full-window hot-seat screen: "pass to ⟨name⟩", confirmed with the button or Enter."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window_ = window
        self.setAutoFillBackground(False)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        lay = QVBoxLayout(self)
        lay.addStretch(5)
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.sub = QLabel()
        self.sub.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.sub.setWordWrap(True)
        lay.addWidget(self.sub)
        lay.addSpacing(24)
        row = QHBoxLayout()
        row.addStretch(1)
        self.button = QPushButton()
        self.button.setDefault(True)
        self.button.setStyleSheet(
            "QPushButton { background:#e8c36a; color:#1b130e; font-weight:bold; padding:0.6em 2.4em;"
            " border-radius:0.5em; } QPushButton:hover { background:#f5d98e; }")
        self.button.clicked.connect(window.controller.confirm_handoff)
        row.addWidget(self.button)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addStretch(4)
        self.name = ""
        self.reason = ""
        self.hide()

    def set_player(self, name: str, reason: str = "") -> None:
        self.name, self.reason = name, reason
        self.title.setText(tr("handoff.pass_to", name=name))
        why = tr("handoff.why", reason=tr(f"handoff.reason.{reason}")) if reason else ""
        self.sub.setText("\n".join(x for x in (why, tr("handoff.only_viewer", name=name),
                                               tr("handoff.hidden")) if x))
        self.button.setText(tr("handoff.show_hand") + "  (Enter)")
        self.fit_fonts()

    def fit_fonts(self) -> None:
        """Text sized for the screen's height (call after its geometry changes)."""
        h = max(400, self.height())
        self.title.setFont(ui_font(max(16.0, h / 26), bold=True))
        self.title.setStyleSheet("color:#e8c36a;")
        self.sub.setFont(ui_font(max(10.0, h / 62)))
        self.sub.setStyleSheet("color:#d8cbb3;")
        self.button.setFont(ui_font(max(11.0, h / 48), bold=True))

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            w, h = self.width(), self.height()
            grad = QRadialGradient(QPointF(w / 2, h * 0.45), max(w, h) * 0.7)
            grad.setColorAt(0, QColor("#2b1a3a"))
            grad.setColorAt(1, QColor("#07040a"))
            p.fillRect(self.rect(), grad)
            side = min(w, h) * 0.19
            p.setOpacity(0.9)
            for k, dx in enumerate((-0.32, 0.0, 0.32)):
                p.save()
                p.translate(w / 2 + dx * side * 1.4, h * 0.22)
                p.rotate((k - 1) * 10)
                art.paint_card_back(p, QRectF(-side * 0.36, -side * 0.5, side * 0.72, side * 1.0))
                p.restore()
        finally:
            p.end()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.window_.controller.confirm_handoff()
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        event.accept()  # swallow clicks: nothing under the screen may be touched


class SharedPromptOverlay(QWidget):
    """The table's shared prompt: "⟨what happened⟩ — does anyone respond?", one button per seat
    that may answer and "nobody". Nothing private is on it: the table shows through, dimmed."""

    def __init__(self, window: "MainWindow") -> None:
        super().__init__(window)
        self.window_ = window
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        lay = QVBoxLayout(self)
        lay.addStretch(3)
        self.box = QWidget()
        self.box.setObjectName("promptBox")
        self.box.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.box.setStyleSheet(
            "QWidget#promptBox { background: rgba(20,12,8,235); border: 2px solid #e8c36a;"
            " border-radius: 14px; } QLabel { color: #f4ecdc; }"
            " QPushButton { background:#3a2a1f; color:#f4ecdc; border:1px solid #6b5237;"
            " border-radius:0.4em; padding:0.45em 1.2em; font-weight:bold; }"
            " QPushButton:hover { background:#4e3826; border-color:#e8c36a; }"
            " QPushButton#nobody { background:#1f3b33; border-color:#4f8f78; }")
        box = QVBoxLayout(self.box)
        box.setContentsMargins(24, 18, 24, 18)
        self.what = QLabel()
        self.what.setWordWrap(True)
        self.what.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(self.what)
        self.question = QLabel()
        self.question.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(self.question)
        self.seats_row = QHBoxLayout()
        box.addLayout(self.seats_row)
        self.nobody = QPushButton()
        self.nobody.setObjectName("nobody")
        self.nobody.clicked.connect(window.controller.nobody_responds)
        box.addWidget(self.nobody, 0, Qt.AlignmentFlag.AlignHCenter)
        self.hint = QLabel()
        self.hint.setWordWrap(True)
        self.hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.hint.setStyleSheet("color:#c9bda6;")
        box.addWidget(self.hint)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.box, 6)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addStretch(2)
        self.seat_buttons: list[tuple[QPushButton, int]] = []
        self.hide()

    def show_prompt(self, game: Any, prompt: Any) -> None:
        words = texts.words(game)
        about = prompt.about
        if "stack" in about:
            card = about.get("card", "")
            eff = game.db.cards[card].effects[about["effect"] - 1] if card in game.db.cards else None
            card_name = words.card_name(card) if card else "—"
            effect_name = words.effect_name(eff) if eff is not None else ""
            what = one_name(tr("prompt.shared.stack", player=words.player(about["player"]),
                               card=card_name, effect=effect_name), effect_name, card_name)
        elif "raid" in about:
            key = "prompt.shared.encounter" if about.get("encounter") else "prompt.shared.raid"
            what = tr(key, raider=words.player(about["raid"]), target=words.player(about["target"]))
        else:
            what = ""
        self.what.setText(what)
        self.question.setText(tr("prompt.shared.more" if prompt.reason == "respond_more"
                                 else "prompt.shared.question"))
        for b, _ in self.seat_buttons:
            self.seats_row.removeWidget(b)
            b.deleteLater()
        self.seat_buttons = []
        self.seats_row.addStretch(1)
        for seat in prompt.candidates:
            b = QPushButton(tr("prompt.shared.seat", number=seat + 1, name=game.player_name(seat)))
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _=False, q=seat: self.window_.controller.claim(q))
            self.seats_row.addWidget(b)
            self.seat_buttons.append((b, seat))
        self.nobody.setText(tr("prompt.shared.nobody"))
        self.hint.setText(tr("prompt.shared.hint"))
        self.fit_fonts()

    def fit_fonts(self) -> None:
        """Text sized for the window's height (call after its geometry changes)."""
        h = max(400, self.height())
        self.what.setFont(ui_font(max(14.0, h / 34), bold=True))
        self.question.setFont(ui_font(max(13.0, h / 40), bold=True))
        self.question.setStyleSheet("color:#e8c36a;")
        self.hint.setFont(ui_font(max(9.0, h / 70)))

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        try:
            p.fillRect(self.rect(), QColor(0, 0, 0, 110))
        finally:
            p.end()

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        key = event.key()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            self.window_.controller.nobody_responds()
            return
        if Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            self.window_.controller.claim(key - Qt.Key.Key_1)
            return
        super().keyPressEvent(event)

    def mousePressEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        event.accept()


class MainWindow(QMainWindow):
    def __init__(self, controller: GameController | None = None) -> None:
        super().__init__()
        self.controller = controller or GameController(self)
        self._game_over_dialog: Any = None
        self.last_menu: QMenu | None = None
        self.setObjectName("main")
        self.setStyleSheet(WINDOW_STYLE + art.marks_style("QDialog "))
        # docks sharing a column (the demo and the card detail on a small screen) show their tabs on top
        self.setTabPosition(Qt.DockWidgetArea.AllDockWidgetAreas, QTabWidget.TabPosition.North)
        # (the window icon is the application's, set once in app.py; Qt shows it on every window)
        self._build()
        self._build_menus()
        self._build_shortcuts()
        self.overlay = HandoffOverlay(self)
        self.prompt_overlay = SharedPromptOverlay(self)
        from fate_royal.qt.zoom import CardZoom

        self.zoom = CardZoom(self, self.controller)
        for view in (self.table, self.hand):
            view.zoom_card.connect(self.zoom_card)
        self.actions.action_hovered.connect(self.table.set_highlight)
        self.actions.action_hovered.connect(self.hand.set_highlight)
        self.actions.action_hovered.connect(self.stack.set_highlight)
        self.table.target_picked.connect(self.controller.submit)
        esc = QShortcut(QKeySequence("Escape"), self)
        esc.activated.connect(self.escape)
        for panel, role in ((self.stack, "stack"), (self.log, "log")):
            panel.card_hovered.connect(lambda cid, role=role, panel=panel: self.zoom_named(cid, role, panel))
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        c = self.controller
        c.changed.connect(self.refresh)
        c.message.connect(self.messages.show_message)
        c.game_over.connect(self.show_game_over)
        self.retranslate()
        resize_on_screen(self, 1600, 900)

    # ------------------------------------------------------------------ construction

    def _build(self) -> None:
        central = QWidget()
        central.setObjectName("central")
        row = QHBoxLayout(central)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        left = QWidget()
        lcol = QVBoxLayout(left)
        lcol.setContentsMargins(0, 0, 0, 0)
        lcol.setSpacing(0)
        self.messages = MessageBar()
        self.messages.rule_clicked.connect(self.show_rule)
        lcol.addWidget(self.messages)
        self.table = TableView(self.controller)
        self.table.card_clicked.connect(self.open_card_menu)
        self.table.seat_clicked.connect(self.open_seat_menu)
        self.table.pile_clicked.connect(self.open_pile)
        lcol.addWidget(self.table, 5)
        self.hand = HandView(self.controller)
        self.hand.card_clicked.connect(self.open_card_menu)
        lcol.addWidget(self.hand, 1)
        row.addWidget(left, 72)
        side = QWidget()
        side.setObjectName("side")
        rcol = QVBoxLayout(side)
        rcol.setContentsMargins(8, 6, 8, 8)
        rcol.setSpacing(6)
        self.actions_box = QGroupBox()
        QVBoxLayout(self.actions_box).setContentsMargins(6, 6, 6, 6)
        self.actions = ActionPanel(self.controller)
        self.actions_box.layout().addWidget(self.actions)
        rcol.addWidget(self.actions_box, 4)
        self.stack_box = QGroupBox()
        QVBoxLayout(self.stack_box).setContentsMargins(6, 6, 6, 6)
        self.stack = StackPanel(self.controller)
        self.stack_box.layout().addWidget(self.stack)
        rcol.addWidget(self.stack_box, 0)
        self.log_box = QGroupBox()
        QVBoxLayout(self.log_box).setContentsMargins(6, 6, 6, 6)
        self.log = LogPanel(self.controller)
        self.log.rule_clicked.connect(self.show_rule)
        self.log_box.layout().addWidget(self.log)
        rcol.addWidget(self.log_box, 4)
        from fate_royal.qt import history

        history.install(self)
        self.rule_panel = RulePanel()
        rcol.addWidget(self.rule_panel, 2)
        row.addWidget(side, 28)
        # a dock opened beside it (inspector, demo) takes its room from the table, not from here:
        # squeezed to ~90 px its buttons lost their labels and its words broke letter by letter
        side.setMinimumWidth(SIDE_MIN_W)
        self.side = side
        self.setCentralWidget(central)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        self.menu_game = mb.addMenu("")
        self.act_new = QAction(self, shortcut=QKeySequence("Ctrl+N"), triggered=self.new_game_dialog)
        self.act_undo = QAction(self, shortcut=QKeySequence("Ctrl+Z"), triggered=self.controller.undo)
        self.act_redo = QAction(self, shortcut=QKeySequence("Ctrl+Shift+Z"), triggered=self.controller.redo)
        self.act_quit = QAction(self, shortcut=QKeySequence("Ctrl+Q"), triggered=self.close)
        self.act_cards = QAction(self, triggered=self.card_editor)
        for a in (self.act_new, self.act_cards, None, self.act_undo, self.act_redo, None, self.act_quit):
            if a is None:
                self.menu_game.addSeparator()
            else:
                self.menu_game.addAction(a)
        self.menu_view = mb.addMenu("")
        self.act_full = QAction(self, shortcut=QKeySequence("F11"), triggered=self.toggle_full_screen)
        self.act_full.setCheckable(True)
        self.act_ask_all = QAction(self, checkable=True, toggled=self.set_ask_all)
        self.act_stops = QAction(self, triggered=self.stops_dialog)
        self.menu_view.addAction(self.act_full)
        self.menu_view.addAction(self.act_stops)
        self.menu_view.addAction(self.act_ask_all)
        self.act_animations = QAction(self, checkable=True, checked=True)
        self.act_animations.toggled.connect(self.set_animations)
        self.menu_view.addAction(self.act_animations)
        self.act_shortcuts = QAction(self, triggered=self.shortcuts_dialog)
        self.menu_view.addAction(self.act_shortcuts)
        self.menu_lang = self.menu_view.addMenu("")
        group = QActionGroup(self)
        self.lang_actions = {}
        for lang in i18n.LANGUAGES:
            a = QAction(self, checkable=True)
            a.triggered.connect(lambda _=False, l=lang: self.set_language(l))
            group.addAction(a)
            self.menu_lang.addAction(a)
            self.lang_actions[lang] = a
        from fate_royal.qt.computer import SeatsMenu

        self.menu_seats = SeatsMenu(self, mb)  # computer seats: who plays, pause, step, speed
        self.menu_help = mb.addMenu("")
        self.act_rules = QAction(self, triggered=lambda: self.show_rule("E1"))
        self.menu_help.addAction(self.act_rules)
        self.act_legend = QAction(self, triggered=self.show_legend)
        self.menu_help.addAction(self.act_legend)
        self.menu_help.addSeparator()
        self.act_about = QAction(self, triggered=self.show_about)
        self.menu_help.addAction(self.act_about)

    def _build_shortcuts(self) -> None:
        def sc(key: str, slot: Any) -> QShortcut:
            s = QShortcut(QKeySequence(key), self)
            s.setContext(Qt.ShortcutContext.WindowShortcut)
            s.activated.connect(slot)
            return s

        primary = [sc("Space", self.primary), sc("Return", self.primary), sc("Enter", self.primary)]
        physical = [sc("P", lambda: self.choose_attack("physical"))]
        private = [sc("H", self.controller.ask_privately)]
        magic = [sc("M", lambda: self.choose_attack("magic"))]
        #: the table's own keys, configurable (qt/shortcuts.py): id -> (label key, shortcuts)
        self.table_shortcuts = {"table.primary": ("shortcuts.primary", primary),
                                "table.physical": ("shortcuts.physical", physical),
                                "table.magic": ("shortcuts.magic", magic),
                                "table.private": ("shortcuts.private", private)}
        self.shortcuts = primary + physical + private + magic
        for n in range(1, 10):
            self.shortcuts.append(sc(str(n), lambda n=n: self.pick(n)))

    # ------------------------------------------------------------------ texts and sizing

    def retranslate(self) -> None:
        self.setWindowTitle(tr("app.title"))
        self.menu_game.setTitle(tr("menu.game"))
        self.menu_view.setTitle(tr("menu.view"))
        self.menu_help.setTitle(tr("menu.help"))
        self.act_new.setText(tr("menu.new_game"))
        self.act_shortcuts.setText(tr("menu.shortcuts"))
        self.act_undo.setText(tr("menu.undo"))
        self.act_redo.setText(tr("menu.redo"))
        self.act_quit.setText(tr("menu.quit"))
        self.act_cards.setText(tr("menu.card_editor"))
        self.act_full.setText(tr("menu.full_screen"))
        self.act_ask_all.setText(tr("menu.ask_everyone"))
        self.act_stops.setText(tr("menu.stops"))
        self.act_animations.setText(tr("menu.animations"))
        self.menu_lang.setTitle(tr("menu.language"))
        self.menu_seats.rebuild()  # (its title stands in the menu bar: not only when it opens)
        self.act_rules.setText(tr("menu.rules_reference"))
        self.act_legend.setText(tr("menu.legend"))
        self.act_about.setText(tr("menu.about"))
        for lang, a in self.lang_actions.items():
            a.setText(tr(f"app.language.{lang}"))
            a.setChecked(lang == i18n.current_language())
        self.actions_box.setTitle(tr("action.panel"))
        self.stack_box.setTitle(tr("panel.stack"))
        self.log_box.setTitle(tr("panel.log"))
        self.log_bar.retranslate()
        if self.messages.plain:  # a line about the moment before, in the other language: gone
            self.messages.show_message("", "clear", "")
        self.refresh()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.overlay.setGeometry(self.rect())
        self.prompt_overlay.setGeometry(self.rect())
        h = max(1, self.height())
        pt = max(9.0, min(22.0, h / 78))
        self.side.setFont(ui_font(pt))
        # the window style sheet sets font-weight on group boxes, which stops a parent's font size
        # from reaching them; a size rule on the side column scales every panel with the window
        self.side.setStyleSheet(f"QWidget {{ font-size: {pt:.1f}pt; }}")
        self.messages.setFont(ui_font(pt * 1.05, bold=True))
        self.rule_panel.setFont(ui_font(pt))
        # (isHidden, not isVisible: before the window is first shown its overlays are not
        # "visible" yet, and the screen must still be sized for the window it will fill)
        for overlay in (self.overlay, self.prompt_overlay):
            if not overlay.isHidden():
                overlay.fit_fonts()

    # ------------------------------------------------------------------ refresh

    def zoom_card(self, target: Any, at: Any) -> None:
        """Show the large view of a card (None: hide it); never over a hand-off screen."""
        if target is None or self.overlay.isVisible():
            self.zoom.hide_zoom()
        else:
            self.zoom.show_target(target, at)

    def about_text(self) -> str:
        """What the program is, its version and where it keeps the user's files (About)."""
        from fate_royal import __version__
        from fate_royal.paths import user_data_dir, user_log_dir
        from fate_royal.rules.save import autosave_path

        return tr("about.text", version=__version__, data=str(user_data_dir()),
                  autosave=str(autosave_path().parent), log=str(user_log_dir()))

    def show_about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        box = QMessageBox(QMessageBox.Icon.NoIcon, tr("about.title"),
                          self.about_text(), QMessageBox.StandardButton.NoButton, self)
        box.addButton(tr("table.close"), QMessageBox.ButtonRole.RejectRole)  # Qt's own is English
        box.setIconPixmap(self.windowIcon().pixmap(64, 64))
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.about_box = box
        box.open()

    def show_legend(self) -> Any:
        from fate_royal.qt.legend import show_legend

        self.legend_dialog = show_legend(self)
        return self.legend_dialog

    def escape(self) -> None:
        """Esc: stop choosing a target on the table, close the zoom."""
        self.table.cancel_pick()
        self.zoom.hide_zoom()

    def zoom_named(self, card_id: str, role: str, panel: QWidget) -> None:
        """A card named in the stack or the log is hovered: its zoom beside the side column."""
        from PySide6.QtGui import QCursor
        from fate_royal.qt.zoom import ZoomTarget

        if not card_id:
            self.zoom.hide_zoom()
            return
        at = self.mapFromGlobal(QCursor.pos())
        at.setX(self.side.x() - 40)
        self.zoom_card(ZoomTarget(card_id, role=role), at)

    def refresh(self) -> None:
        c = self.controller
        g = c.game
        over = self.game_over_dialog
        if over is not None and (getattr(over, "game", None) is not g or not g.state.over):
            over.close()  # another game, or the end taken back (undo): the screen no longer holds
        need = c.handoff_needed()
        if hasattr(self, "zoom"):
            self.zoom.hide_zoom()
            self.table.cancel_pick()
            self.table.set_highlight(None)
            self.hand.set_highlight(None)
            self.stack.highlighted_entries = frozenset()
        shared = c.shared_prompt() if g is not None and not need else None
        if need:
            self.overlay.setGeometry(self.rect())  # first: the text is sized for it
            self.overlay.set_player(g.player_name(c.handoff_player()), c.handoff_reason())
            self.overlay.show()
            self.overlay.raise_()
            self.overlay.setFocus()
        elif not self.overlay.isHidden():
            self.overlay.hide()
        if shared is not None:
            self.prompt_overlay.setGeometry(self.rect())
            self.prompt_overlay.show_prompt(g, shared)
            self.prompt_overlay.show()
            self.prompt_overlay.raise_()
            self.prompt_overlay.setFocus()
        elif not self.prompt_overlay.isHidden():
            self.prompt_overlay.hide()
        if not need and shared is None and self.focusWidget() in (None, self.overlay,
                                                                   self.prompt_overlay):
            # an overlay held the keyboard focus: give it back to the window, so that Space,
            # Enter and the number keys work at once (even without a window manager)
            if not self.isActiveWindow():
                self.activateWindow()
            self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.actions.refresh()
        self.stack.refresh()
        self.log.refresh()
        self.table.update()
        self.hand.update()
        self.act_undo.setEnabled(c.can_undo())
        self.act_redo.setEnabled(c.can_redo())
        self.log_bar.refresh()
        self.act_ask_all.blockSignals(True)
        self.act_ask_all.setChecked(bool(g is not None and all(
            "every_window" in v for v in (g.options.get("stops") or {"-": []}).values())
            and len(g.options.get("stops") or {}) == len(g.ctx.s.players)))
        self.act_ask_all.blockSignals(False)
        if g is not None:
            self.setWindowTitle(f"{tr('app.title')} — {texts.rules_title(g.rules)}")

    # ------------------------------------------------------------------ commands

    def primary(self) -> None:
        """Space / Enter: confirm the hand-off, answer "nobody" to a shared prompt, else pass."""
        c = self.controller
        if c.read_only and getattr(self, "rulings", None) is not None:  # a demo: Space steps it
            self.rulings.demo.forward()
            return
        if c.handoff_needed():
            c.confirm_handoff()
            return
        if c.shared_prompt() is not None:
            c.nobody_responds()
            return
        if self.actions.activate_cursor():  # ↑/↓ chose an action: that one
            return
        for b, a in self.actions.buttons:
            if isinstance(a, Pass):
                b.click()
                return

    def keyPressEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        # ↑/↓ reach the window only when the focused widget has no use for them (a list or the
        # log keeps its arrows), hence a key handler here rather than window-wide shortcuts
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down) and not event.modifiers():
            self.move_cursor(1 if event.key() == Qt.Key.Key_Down else -1)
            event.accept()
            return
        super().keyPressEvent(event)

    def move_cursor(self, step: int) -> None:
        """↑/↓: the keyboard cursor over the actions (not behind the hand-off or shared screen)."""
        c = self.controller
        if c.read_only or c.handoff_needed() or c.shared_prompt() is not None:
            return
        self.actions.move_cursor(step)

    def choose_attack(self, kind: str) -> None:
        for b, a in self.actions.buttons:
            if isinstance(a, ChooseAttack) and a.type == kind:
                b.click()
                return

    def pick(self, n: int) -> None:
        c = self.controller
        if c.shared_prompt() is not None:
            c.claim(n - 1)
        elif not self.overlay.isVisible():
            self.actions.trigger(n - 1)

    def set_ask_all(self, on: bool) -> None:
        self.controller.set_ask_all(on)
        if self.act_ask_all.isChecked() != on:
            self.act_ask_all.setChecked(on)

    def stops_dialog(self) -> None:
        from fate_royal.qt.dialogs import StopsDialog

        g = self.controller.game
        if g is None:
            return
        dlg = StopsDialog(self, [p.name for p in g.ctx.s.players],
                          dict(g.options.get("stops") or {}))
        accepted = dlg.exec() == StopsDialog.DialogCode.Accepted
        stops = dlg.stops()
        dlg.deleteLater()  # (a child of the window: it would stay alive, hidden, until the end)
        if accepted:
            self.controller.set_stops(stops)
            from fate_royal.qt.settings import settings

            settings().remember_stops([p.name for p in g.ctx.s.players], stops)

    def shortcuts_dialog(self) -> bool:
        from fate_royal.qt.shortcuts import ShortcutsDialog

        dlg = ShortcutsDialog(self)
        self.last_dialog = dlg
        return dlg.exec() == ShortcutsDialog.DialogCode.Accepted

    def set_animations(self, on: bool) -> None:
        """Animations on or off (View menu), remembered in the settings."""
        self.table.animate = bool(on)
        if self.act_animations.isChecked() != bool(on):
            self.act_animations.setChecked(bool(on))
        from fate_royal.qt.settings import settings

        settings().set_animations(bool(on))

    def set_language(self, lang: str) -> None:
        from fate_royal.qt.app import install_qt_translations

        i18n.set_language(lang)
        install_qt_translations(lang)
        self.retranslate()
        i18n.announce_language()  # the windows of their own (comparison, sweep, editors, legend)
        from fate_royal.qt.settings import settings

        settings().set_language(lang)

    def toggle_full_screen(self) -> None:
        if self.isFullScreen():
            self.showNormal()
            self.act_full.setChecked(False)
        else:
            self.showFullScreen()
            self.act_full.setChecked(True)

    def show_rule(self, rule_id: str) -> None:
        self.rule_panel.show_rule(rule_id)

    def new_game_dialog(self) -> bool:
        g = self.controller.game
        n = len(g.state.players) if g is not None else 4
        dlg = NewGameDialog(self, players=n, errata=g.rules.all_errata if g is not None else True,
                            ask_all=self.controller.ask_all, rules=g.rules if g is not None else None)
        accepted = dlg.exec() == NewGameDialog.DialogCode.Accepted
        st = dlg.settings() if accepted else None
        dlg.deleteLater()  # (a child of the window: one more hidden dialog per game otherwise)
        if st is None:
            return False
        rulings = getattr(self, "rulings", None)
        if rulings is not None and not rulings.keeper.confirm_drop():  # the running game stays
            return False
        self.set_ask_all(st.ask_all)
        from fate_royal.qt.settings import settings

        remembered = settings()
        ok = self.controller.new_game(st.names, st.seed, st.errata, st.assignment, rules=st.rules,
                                      seats=st.seats, stops=remembered.stops_for(st.names))
        if ok:
            remembered.remember_names(st.names)
        return ok

    def card_editor(self) -> None:
        """The card editor (personal card pack); new games then load the cards again."""
        from fate_royal.qt.card_editor import CardEditor

        editor = CardEditor(self)
        editor.saved.connect(lambda _id: self.controller.forget_card_data())
        editor.exec()
        self.controller.forget_card_data()

    @property
    def game_over_dialog(self) -> Any:
        """The game-over screen on show, or None (it deletes itself, and the game it holds, when
        closed)."""
        import shiboken6

        dlg = self._game_over_dialog
        if dlg is not None and not shiboken6.isValid(dlg):
            self._game_over_dialog = dlg = None
        return dlg

    def show_game_over(self) -> None:
        g = self.controller.game
        if g is None or not g.state.over:
            return
        if self.game_over_dialog is not None:
            self.game_over_dialog.close()
        from fate_royal.qt.gameover import show_game_over

        self._game_over_dialog = show_game_over(self, g)

    def open_pile(self, kind: str) -> None:
        g = self.controller.game
        if g is None or self.overlay.isVisible():
            return
        dlg = PileDialog(g, kind, self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        from fate_royal.qt.zoom import attach_to_pile

        dlg.on_rebuilt = lambda: attach_to_pile(dlg, self.controller, kind)
        dlg.on_rebuilt()
        dlg.show()
        self.pile_dialog = dlg

    # ------------------------------------------------------------------ card menus

    def card_menu(self, uid: int) -> QMenu:
        """The menu of one card whose face the one looking may see: its legal actions, actions
        aimed at it or at its player, and greyed unusable effects."""
        c = self.controller
        g = c.game
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        v = c.table_view()
        if g is None or v is None or c.handoff_needed():
            return menu
        found = None
        for owner, sv in enumerate(v.players):
            for cv in [x for x in (sv.hero, sv.klass) if x is not None] + list(sv.seat) + list(sv.hand):
                if cv.known and cv.uid == uid:
                    found = (owner, cv, cv is sv.hero or cv is sv.klass, cv in sv.hand)
        if found is None:
            return self.seat_menu(None, menu)
        owner, cv, is_servant, in_hand = found
        menu.addSection(texts.card_name(g.db.cards[cv.card_id]))
        seen = set()
        mine = c.actions_for_card(uid)
        variants: dict[int, list] = {}
        for a in mine:
            if getattr(a, "targets", ()) and not isinstance(a, DeclareRaid):
                variants.setdefault(a.effect, []).append(a)
        for effect, acts in variants.items():  # one effect, several targets: pick one on the table
            if len(acts) > 1:
                name = texts.effect_name(g.card_of(uid).effects[effect - 1])
                act = menu.addAction(tr("table.pick_menu", effect=name))
                act.triggered.connect(lambda _=False, x=acts: self.table.start_pick(x))
        for a in mine:
            seen.add(a)
            act = menu.addAction(texts.action_label(g, a))
            act.triggered.connect(lambda _=False, x=a: c.submit(x))
        if not in_hand:
            for a in self._aimed_at(owner, uid, is_servant):
                if a not in seen:
                    act = menu.addAction(texts.action_label(g, a))
                    act.triggered.connect(lambda _=False, x=a: c.submit(x))
        for b in c.blocked_effects(uid):
            text = (f"✕ {b.name} — {texts.tr_or('table.unusable', 'unusable')}: {texts.reason_text(b.reason)}"
                    + (f" ({b.rule})" if b.rule else ""))
            act = menu.addAction(text)
            act.setEnabled(False)
            act.setToolTip(text)
        if len(menu.actions()) <= 1:
            none = menu.addAction(texts.tr_or("table.no_actions", "No actions now"))
            none.setEnabled(False)
        return menu

    def _aimed_at(self, owner: int, uid: int | None, is_servant: bool) -> list:
        """Legal actions aimed at this seat's servant (a raid, an encounter, an effect's target)
        or at the card ``uid``."""
        c = self.controller
        g = c.game
        out = []
        for a in c.legal_actions():
            aimed = isinstance(a, (DeclareRaid, ChooseEncounterTarget)) and is_servant and a.target == owner
            tg = getattr(a, "targets", ())
            if tg and getattr(a, "card", None) is not None:
                kind = g.card_of(a.card).effects[a.effect - 1].target.kind
                if (kind == "card" and uid is not None and uid in tg) or (
                        kind in ("servant", "player") and is_servant and owner in tg):
                    aimed = True
            if aimed:
                out.append(a)
        return out

    def seat_menu(self, owner: int | None, menu: QMenu | None = None) -> QMenu:
        """The menu of a face-down card or a seat: the actions aimed at that player's servant."""
        c = self.controller
        g = c.game
        menu = menu or QMenu(self)
        menu.setToolTipsVisible(True)
        if g is None or owner is None or c.handoff_needed():
            return menu
        menu.addSection(g.player_name(owner))
        for a in self._aimed_at(owner, None, True):
            act = menu.addAction(texts.action_label(g, a))
            act.triggered.connect(lambda _=False, x=a: c.submit(x))
        if len(menu.actions()) <= 1:
            none = menu.addAction(texts.tr_or("table.no_actions", "No actions now"))
            none.setEnabled(False)
        return menu

    def open_seat_menu(self, owner: int, global_pos: QPointF) -> None:
        if self.overlay.isVisible() or self.prompt_overlay.isVisible():
            return
        menu = self.seat_menu(owner)
        self.last_menu = menu
        menu.popup(global_pos.toPoint())

    def open_card_menu(self, uid: int, global_pos: QPointF) -> None:
        if self.overlay.isVisible() or self.prompt_overlay.isVisible():
            return
        menu = self.card_menu(uid)
        self.last_menu = menu
        menu.popup(global_pos.toPoint())

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.controller.shutdown()  # a computer seat thinking now: its move is dropped
        if self.game_over_dialog is not None:
            self.game_over_dialog.close()
        super().closeEvent(event)
