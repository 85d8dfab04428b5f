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

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import (
    QAction, QActionGroup, QColor, QKeySequence, QPainter, QRadialGradient,
    QShortcut,
)
from PySide6.QtWidgets import (
    QCheckBox, QGroupBox, QHBoxLayout, QLabel, QMainWindow, QMenu, QPushButton,
    QVBoxLayout, QWidget,
)

from fate_royal.qt import art, i18n, texts
from fate_royal.qt.controller import GameController
from fate_royal.qt.dialogs import NewGameDialog, PileDialog, game_over_box
from fate_royal.qt.fonts import ui_font
from fate_royal.qt.i18n import strip_mnemonic, tr
from fate_royal.qt.panels import ActionPanel, LogPanel, MessageBar, RulePanel, StackPanel
from fate_royal.qt.table import HandView, TableView
from fate_royal.rules.actions import ChooseAttack, DeclareRaid, ChooseEncounterTarget, Pass

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
QDialog, QMessageBox { background: #1b130e; }
QDialog QLineEdit, QDialog QComboBox {
  background: #0f0a07; color: #f4ecdc; border: 1px solid #4a3726; border-radius: 3px; padding: 2px 4px; }
QComboBox QAbstractItemView { background: #0f0a07; color: #f4ecdc; selection-background-color: #6b5038; }
QDialog QPushButton, QMessageBox QPushButton {
  background: #3a2a1f; color: #f4ecdc; border: 1px solid #6b5038; border-radius: 4px; padding: 4px 14px; }
QDialog QPushButton:hover, QMessageBox QPushButton:hover { background: #4a3726; }
QDialog QPushButton:default, QMessageBox QPushButton:default { border-color: #e8c36a; }
"""


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
        lay.addSpacing(16)
        row2 = QHBoxLayout()
        row2.addStretch(1)
        self.ask_all = QCheckBox()
        self.ask_all.toggled.connect(window.set_ask_all)
        row2.addWidget(self.ask_all)
        row2.addStretch(1)
        lay.addLayout(row2)
        lay.addStretch(4)
        self.name = ""
        self.hide()

    def set_player(self, name: str) -> None:
        self.name = name
        self.title.setText(tr("handoff.pass_to", name=name))
        self.sub.setText(tr("handoff.only_viewer", name=name) + "\n" + tr("handoff.hidden"))
        self.button.setText(tr("handoff.show_hand") + "  (Enter)")
        self.ask_all.setText(strip_mnemonic(tr("menu.ask_everyone")))
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


class MainWindow(QMainWindow):
    def __init__(self, controller: GameController | None = None) -> None:
        super().__init__()
        self.controller = controller or GameController(self)
        self.game_over_dialog: Any = None
        self.last_menu: QMenu | None = None
        self.setObjectName("main")
        self.setStyleSheet(WINDOW_STYLE)
        self.setWindowIcon(art.svg_pixmap("app", QSize(64, 64)))
        self._build()
        self._build_menus()
        self._build_shortcuts()
        self.overlay = HandoffOverlay(self)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        c = self.controller
        c.changed.connect(self.refresh)
        c.message.connect(self.messages.show_message)
        c.game_over.connect(self.show_game_over)
        self.retranslate()
        self.resize(1600, 900)

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
        self.rule_panel = RulePanel()
        rcol.addWidget(self.rule_panel, 2)
        row.addWidget(side, 28)
        self.side = side
        self.setCentralWidget(central)

    def _build_menus(self) -> None:
        mb = self.menuBar()
        self.menu_game = mb.addMenu("")
        self.act_new = QAction(self, shortcut=QKeySequence("Ctrl+N"), triggered=self.new_game_dialog)
        self.act_undo = QAction(self, shortcut=QKeySequence("Ctrl+Z"), triggered=self.controller.undo)
        self.act_redo = QAction(self, shortcut=QKeySequence("Ctrl+Shift+Z"), triggered=self.controller.redo)
        self.act_quit = QAction(self, shortcut=QKeySequence("Ctrl+Q"), triggered=self.close)
        for a in (self.act_new, None, self.act_undo, self.act_redo, None, self.act_quit):
            if a is None:
                self.menu_game.addSeparator()
            else:
                self.menu_game.addAction(a)
        self.menu_view = mb.addMenu("")
        self.act_full = QAction(self, shortcut=QKeySequence("F11"), triggered=self.toggle_full_screen)
        self.act_full.setCheckable(True)
        self.act_ask_all = QAction(self, checkable=True, toggled=self.set_ask_all)
        self.menu_view.addAction(self.act_full)
        self.menu_view.addAction(self.act_ask_all)
        self.menu_lang = self.menu_view.addMenu("")
        group = QActionGroup(self)
        self.lang_actions = {}
        for lang in i18n.LANGUAGES:
            a = QAction(self, checkable=True)
            a.triggered.connect(lambda _=False, l=lang: self.set_language(l))
            group.addAction(a)
            self.menu_lang.addAction(a)
            self.lang_actions[lang] = a
        self.menu_help = mb.addMenu("")
        self.act_rules = QAction(self, triggered=lambda: self.show_rule("E1"))
        self.menu_help.addAction(self.act_rules)

    def _build_shortcuts(self) -> None:
        def sc(key: str, slot: Any) -> QShortcut:
            s = QShortcut(QKeySequence(key), self)
            s.setContext(Qt.ShortcutContext.WindowShortcut)
            s.activated.connect(slot)
            return s

        self.shortcuts = [sc("Space", self.primary), sc("Return", self.primary), sc("Enter", self.primary),
                          sc("P", lambda: self.choose_attack("physical")),
                          sc("M", lambda: self.choose_attack("magic"))]
        for n in range(1, 10):
            self.shortcuts.append(sc(str(n), lambda n=n: self.pick(n)))

    # ------------------------------------------------------------------ texts and sizing

    def retranslate(self) -> None:
        self.setWindowTitle(tr("app.title"))
        self.menu_game.setTitle(tr("menu.game"))
        self.menu_view.setTitle(tr("menu.view"))
        self.menu_help.setTitle(tr("menu.help"))
        self.act_new.setText(tr("menu.new_game"))
        self.act_undo.setText(tr("menu.undo"))
        self.act_redo.setText(tr("menu.redo"))
        self.act_quit.setText(tr("menu.quit"))
        self.act_full.setText(tr("menu.full_screen"))
        self.act_ask_all.setText(tr("menu.ask_everyone"))
        self.menu_lang.setTitle(tr("menu.language"))
        self.act_rules.setText(tr("menu.rules_reference"))
        for lang, a in self.lang_actions.items():
            a.setText(tr(f"app.language.{lang}"))
            a.setChecked(lang == i18n.current_language())
        self.actions_box.setTitle(tr("action.panel"))
        self.stack_box.setTitle(tr("panel.stack"))
        self.log_box.setTitle(tr("panel.log"))
        self.refresh()

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.overlay.setGeometry(self.rect())
        h = max(1, self.height())
        pt = max(9.0, min(22.0, h / 78))
        self.side.setFont(ui_font(pt))
        # the window style sheet sets font-weight on group boxes, which stops a parent's font size
        # from reaching them; a size rule on the side column scales every panel with the window
        self.side.setStyleSheet(f"QWidget {{ font-size: {pt:.1f}pt; }}")
        self.messages.setFont(ui_font(pt * 1.05, bold=True))
        self.rule_panel.setFont(ui_font(pt))
        if self.overlay.isVisible():
            self.overlay.set_player(self.overlay.name)

    # ------------------------------------------------------------------ refresh

    def refresh(self) -> None:
        c = self.controller
        g = c.game
        need = c.handoff_needed() and not c.auto_handoff
        if need:
            self.overlay.set_player(g.player_name(c.handoff_player()))
            self.overlay.ask_all.blockSignals(True)
            self.overlay.ask_all.setChecked(c.ask_all)
            self.overlay.ask_all.blockSignals(False)
            self.overlay.setGeometry(self.rect())
            self.overlay.show()
            self.overlay.raise_()
            self.overlay.setFocus()
        else:
            if not self.overlay.isHidden():
                self.overlay.hide()
                # the overlay held the keyboard focus: give it back to the window, so that Space,
                # Enter and the number keys work at once (even without a window manager)
                if not self.isActiveWindow():
                    self.activateWindow()
                self.setFocus(Qt.FocusReason.OtherFocusReason)
        self.actions.refresh()
        self.stack.refresh()
        self.log.refresh()
        self.table.update()
        self.hand.update()
        self.act_undo.setEnabled(bool(g and g.can_undo()))
        self.act_redo.setEnabled(bool(g and g.can_redo()))
        if g is not None:
            self.setWindowTitle(f"{tr('app.title')} — {texts.rules_title(g.rules)}")

    # ------------------------------------------------------------------ commands

    def primary(self) -> None:
        """Space / Enter: confirm the hand-off, else pass when passing is legal."""
        c = self.controller
        if c.handoff_needed() and not c.auto_handoff:
            c.confirm_handoff()
            return
        for b, a in self.actions.buttons:
            if isinstance(a, Pass):
                b.click()
                return

    def choose_attack(self, kind: str) -> None:
        for b, a in self.actions.buttons:
            if isinstance(a, ChooseAttack) and a.type == kind:
                b.click()
                return

    def pick(self, n: int) -> None:
        if not self.overlay.isVisible():
            self.actions.trigger(n - 1)

    def set_ask_all(self, on: bool) -> None:
        self.controller.set_ask_all(on)
        if self.act_ask_all.isChecked() != on:
            self.act_ask_all.setChecked(on)
        if self.overlay.ask_all.isChecked() != on:
            self.overlay.ask_all.setChecked(on)

    def set_language(self, lang: str) -> None:
        i18n.set_language(lang)
        self.retranslate()

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
                            ask_all=self.controller.ask_all)
        if dlg.exec() != NewGameDialog.DialogCode.Accepted:
            return False
        st = dlg.settings()
        self.set_ask_all(st.ask_all)
        return self.controller.new_game(st.names, st.seed, st.errata, st.assignment)

    def show_game_over(self) -> None:
        g = self.controller.game
        if g is None or not g.state.over:
            return
        if self.game_over_dialog is not None:
            self.game_over_dialog.close()
        box = game_over_box(self, g)
        box.buttonClicked.connect(lambda b: self.new_game_dialog() if b is box.new_game_button else None)
        self.game_over_dialog = box
        box.show()

    def open_pile(self, kind: str) -> None:
        g = self.controller.game
        if g is None or self.overlay.isVisible():
            return
        dlg = PileDialog(g, kind, self)
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dlg.show()
        self.pile_dialog = dlg

    # ------------------------------------------------------------------ card menus

    def card_menu(self, uid: int) -> QMenu:
        """The menu of one card: its legal actions, actions aimed at it, and greyed unusable effects."""
        c = self.controller
        g = c.game
        menu = QMenu(self)
        menu.setToolTipsVisible(True)
        if g is None or c.handoff_needed():
            return menu
        s = g.state
        zone, owner = s.zone_of(uid)
        viewer = c.private_viewer()
        visible = zone != "seat" or owner is None
        if zone == "seat" and owner is not None:
            from fate_royal.qt.table import card_visible

            visible = card_visible(g, uid, owner, viewer)
        if zone == "hand":
            visible = owner == viewer
        title = texts.card_name(g.card_of(uid)) if visible else texts.state_text("reverse")
        menu.addSection(title)
        seen = set()
        for a in c.actions_for_card(uid):
            seen.add(a)
            act = menu.addAction(texts.action_label(g, a))
            act.triggered.connect(lambda _=False, x=a: c.submit(x))
        # actions aimed at this card's player (raid, encounter) or at this card
        if owner is not None and zone == "seat":
            is_servant = uid in (s.players[owner].hero, s.players[owner].klass)
            for a in c.legal_actions():
                if a in seen:
                    continue
                aimed = (isinstance(a, (DeclareRaid, ChooseEncounterTarget)) and is_servant and a.target == owner)
                tg = getattr(a, "targets", ())
                if tg and getattr(a, "card", None) is not None:
                    kind = g.card_of(a.card).effects[a.effect - 1].target.kind
                    if (kind == "card" and uid in tg) or (kind in ("servant", "player") and is_servant
                                                          and owner in tg):
                        aimed = True
                if aimed:
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

    def open_card_menu(self, uid: int, global_pos: QPointF) -> None:
        if self.overlay.isVisible():
            return
        menu = self.card_menu(uid)
        self.last_menu = menu
        menu.popup(global_pos.toPoint())

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        if self.game_over_dialog is not None:
            self.game_over_dialog.close()
        super().closeEvent(event)
