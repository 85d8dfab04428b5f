"""Rulings and errata features of the table (issue 5), added to an existing ``MainWindow``.

``install(window, controller) -> RulingsFeatures`` adds, at runtime and from outside the window:

- File menu: open scenario (demo mode), open saved game (Ctrl+O), open a save as a read-only replay,
  save (Ctrl+S) / save as, export the table as PNG, export the log as UTF-8 text, reload cards and
  rules profile from disk;
- View menu: card inspector (dock; follows the card under the mouse; double-click a card),
  errata comparison window, presenter view (F5: full screen, large, every hand revealed);
- Demo menu: step forward (→ / PageDown) and back (← / PageUp), restart, close; the demo dock
  (narration, step list with passed/failed checks, this step's log and rule ids);
- autosave after every action, the "resume?" question on start, questions before a running game is
  dropped, and the live game parked while a demo is open: ``qt.keeper.GameKeeper`` (``.keeper``).

Every failure (a damaged save, a broken card file, a replay that becomes illegal) is a message and
leaves the running game as it was.
"""

from __future__ import annotations

import datetime
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QFileDialog, QMainWindow, QMenu, QMessageBox, QWidget

if TYPE_CHECKING:  # imported when first opened: it is not needed to show the table
    from fate_royal.qt.compare_view import ComparisonWindow

from fate_royal.qt import texts
from fate_royal.qt.compat import emit
from fate_royal.qt.demo import DemoPanel, DemoState, PresenterWindow, ReplaySession, ScenarioSession
from fate_royal.qt.i18n import current_language
from fate_royal.qt.inspector import CardInspector
from fate_royal.qt.i18n import tr as t
from fate_royal.qt.window import in_view, open_dock

log = logging.getLogger(__name__)

DOCK_STYLE = """
QDockWidget { color: #e8c36a; font-weight: bold; }
QDockWidget::title { background: #2b1e15; padding: 4px 8px; }
"""


def _db_loader(root: Path | None) -> Callable[[Any, list], Any]:
    """``(rules, extra cards) -> CardDB`` from the cards folder ``root`` (None: the shipped one)."""
    from fate_royal.cards import load_card_db

    def load(rules: Any, extra: list) -> Any:
        return load_card_db(root, extra=extra or None, rules=rules)

    return load


def _folder(kind: str, fallback: str | None = None) -> str:
    """The folder last used for this kind of file (settings), else the home folder."""
    try:
        from fate_royal.qt.settings import settings

        folder = settings().last_folder(kind)
    except Exception:
        folder = str(Path.home())
    if fallback is not None and folder == str(Path.home()):
        return fallback
    return folder


def _remember(kind: str, path: str | Path, recent: bool = True) -> None:
    """Remember the folder (and, for saves and scenarios, the file in File → Recent files)."""
    try:
        from fate_royal.qt.settings import settings

        st = settings()
        st.set_last_folder(kind, path)
        if recent:
            st.add_recent(path)
    except Exception:  # pragma: no cover - settings never break opening a file
        log.debug("settings not written", exc_info=True)


def refusal_text(reason: Any) -> str:
    """Why a file was refused, for the message box: a SaveError's sentence in the table's language
    after its file and line (as the engine wrote them); anything else as it is."""
    from fate_royal.rules.save import SaveError
    from fate_royal.text.saveerrors import localize_refusal

    if not isinstance(reason, SaveError):  # the card data it needs, say: worded as a loader's problem
        from fate_royal.text.dataerrors import localize_lines

        return localize_lines(str(reason), current_language())
    where = f"{reason.file}:{reason.line}" if reason.line else reason.file
    return f"{where}: {localize_refusal(reason.message, current_language(), reason.reason)}"


class RulingsFeatures(QObject):
    """Everything ``install`` added; its methods are the features' API (menus call them, tests too)."""

    def __init__(self, window: QMainWindow, controller: Any) -> None:
        super().__init__(window)
        self.window = window
        self.controller = controller
        self.demo = DemoState(controller, self)
        self.cards_root: Path | None = None  # None: the shipped cards/ (paths.cards_dir())
        self.save_path: Path | None = None
        self.last_message: tuple[str, str] = ("", "")
        #: why the last save or autosave was refused, as the loader said it (naming the file; the
        #: message box puts it in a translated sentence, the command line prints it alone)
        self.last_refusal = ""
        #: the status line shown last, when it can be worded anew: (its wording, ms, its words)
        self._status: tuple[Callable[[], str], int, str] | None = None
        self.message_box: QMessageBox | None = None
        self.show_dialogs = True
        self.presenter: PresenterWindow | None = None
        self.comparison: ComparisonWindow | None = None
        self._base_profile = self._load_base_profile(None)
        from fate_royal.qt.keeper import GameKeeper

        self.keeper = GameKeeper(self)
        self._docks_built = False  # the demo and inspector docks: built on first use
        self.demo.stepped.connect(self._demo_stepped)
        self._build_menus()
        controller.changed.connect(self._after_change)
        for view in (getattr(window, "table", None), getattr(window, "hand", None)):
            if view is not None:
                view.setMouseTracking(True)
                view.installEventFilter(self)
        window.installEventFilter(self)
        self.retranslate()
        from fate_royal.qt import workbench  # the house-rules workbench (issue 12)

        workbench.install(self)

    # ------------------------------------------------------------------ construction

    # The demo and inspector docks are hidden until a demo opens or a card is inspected: they are
    # built then (start-up builds only what the first frame shows). ``ensure_docks`` builds them
    # ahead, e.g. before a remembered window layout that shows one is restored.

    @property
    def demo_panel(self) -> DemoPanel:
        self.ensure_docks()
        return self._demo_panel

    @property
    def demo_dock(self) -> QDockWidget:
        self.ensure_docks()
        return self._demo_dock

    @property
    def inspector(self) -> CardInspector:
        self.ensure_docks()
        return self._inspector

    @property
    def inspector_dock(self) -> QDockWidget:
        self.ensure_docks()
        return self._inspector_dock

    def docks_built(self) -> bool:
        return self._docks_built

    def ensure_docks(self) -> None:
        if self._docks_built:
            return
        self._docks_built = True
        w = self.window
        self._demo_panel = DemoPanel(self.demo)
        self._demo_panel.rule_clicked.connect(self._show_rule)
        self._demo_dock = QDockWidget(w)
        self._demo_dock.setObjectName("demoDock")
        self._demo_dock.setStyleSheet(DOCK_STYLE)
        self._demo_dock.setWidget(self._demo_panel)
        self._demo_dock.setFeatures(QDockWidget.DockWidgetFeature.DockWidgetMovable
                                    | QDockWidget.DockWidgetFeature.DockWidgetFloatable
                                    | QDockWidget.DockWidgetFeature.DockWidgetClosable)
        w.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self._demo_dock)
        self._demo_dock.hide()
        self._inspector = CardInspector(self.controller)
        self._inspector.rule_clicked.connect(self._show_rule)
        self._inspector_dock = QDockWidget(w)
        self._inspector_dock.setObjectName("inspectorDock")
        self._inspector_dock.setStyleSheet(DOCK_STYLE)
        self._inspector_dock.setWidget(self._inspector)
        w.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self._inspector_dock)
        self._inspector_dock.hide()
        self._inspector_dock.visibilityChanged.connect(self.act_inspector.setChecked)
        self._retranslate_docks()

    def _action(self, slot: Callable, shortcuts: tuple[str, ...] = (), checkable: bool = False) -> QAction:
        a = QAction(self.window)
        if shortcuts:
            a.setShortcuts([QKeySequence(s) for s in shortcuts])
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        a.setCheckable(checkable)
        a.triggered.connect(lambda _=False: slot())
        self.window.addAction(a)  # shortcuts work even with the menu bar hidden (presenter)
        return a

    def _build_menus(self) -> None:
        w = self.window
        mb = w.menuBar()
        self.menu_file = QMenu(w)
        first = mb.actions()[0] if mb.actions() else None
        if first is not None:
            mb.insertMenu(first, self.menu_file)
        else:
            mb.addMenu(self.menu_file)
        self.act_open_scenario = self._action(self.open_scenario_dialog)
        self.act_open_save = self._action(self.open_save_dialog, ("Ctrl+O",))
        self.act_open_replay = self._action(self.open_replay_dialog)
        self.act_save = self._action(self.save, ("Ctrl+S",))
        self.act_save_as = self._action(self.save_as_dialog, ("Ctrl+Shift+S",))
        self.act_export_png = self._action(self.export_png_dialog)
        self.act_export_log = self._action(self.export_log_dialog)
        self.act_reload = self._action(self.reload_cards, ("Ctrl+R",))
        self.menu_recent = QMenu(w)
        self.menu_recent.aboutToShow.connect(self._fill_recent)
        for a in (self.act_open_scenario, self.act_open_save, self.menu_recent, self.act_open_replay, None,
                  self.act_save, self.act_save_as, None, self.act_export_png, self.act_export_log, None,
                  self.act_reload):
            if a is None:
                self.menu_file.addSeparator()
            elif isinstance(a, QMenu):
                self.menu_file.addMenu(a)
            else:
                self.menu_file.addAction(a)
        view = getattr(w, "menu_view", None)
        if view is None:
            view = mb.addMenu("")
            self.menu_view = view
        else:
            self.menu_view = None
        view.addSeparator()
        self.act_inspector = self._action(self.toggle_inspector, ("Ctrl+I",), checkable=True)
        self.act_comparison = self._action(self.open_comparison, ("Ctrl+E",))
        self.act_presenter = self._action(self.toggle_presenter, ("F5",), checkable=True)
        for a in (self.act_inspector, self.act_comparison, self.act_presenter):
            view.addAction(a)
        self.menu_demo = QMenu(w)
        help_menu = getattr(w, "menu_help", None)
        if help_menu is not None:
            mb.insertMenu(help_menu.menuAction(), self.menu_demo)
        else:
            mb.addMenu(self.menu_demo)
        self.act_forward = self._action(self.demo.forward, ("Right", "PgDown"))
        self.act_back = self._action(self.demo.back, ("Left", "PgUp"))
        self.act_restart = self._action(self.demo.restart, ("Home",))
        self.act_close_demo = self._action(self.close_demo)
        for a in (self.act_forward, self.act_back, self.act_restart, None, self.act_close_demo):
            if a is None:
                self.menu_demo.addSeparator()
            else:
                self.menu_demo.addAction(a)
        for a in getattr(w, "lang_actions", {}).values():
            a.triggered.connect(lambda _=False: self.retranslate())
        self._update_actions()

    def _fill_recent(self) -> None:
        from fate_royal.qt.settings import settings

        self.menu_recent.clear()
        files = settings().recent_files()
        for i, path in enumerate(files):
            label = f"&{i + 1} {Path(path).name}" if i < 9 else Path(path).name
            a = self.menu_recent.addAction(label)
            a.setToolTip(path)
            a.triggered.connect(lambda _=False, p=path: self.open_recent(p))
        if not files:
            a = self.menu_recent.addAction(t("rulings.menu.recent_none"))
            a.setEnabled(False)
        else:
            self.menu_recent.addSeparator()
            clear = self.menu_recent.addAction(t("rulings.menu.recent_clear"))
            clear.triggered.connect(lambda _=False: settings().clear_recent())

    def open_recent(self, path: str | Path) -> bool:
        """A recent file: a scenario opens in demo mode, a save or autosave as the game."""
        if Path(path).suffix.lower() in (".yaml", ".yml"):
            return self.open_scenario(path) is None
        return self.open_save(path)

    def retranslate(self) -> None:
        self.menu_recent.setTitle(t("rulings.menu.recent"))
        self.menu_file.setTitle(t("rulings.file") if not texts.has_key("menu.file") else texts.tr("menu.file"))
        if self.menu_view is not None:
            self.menu_view.setTitle(texts.tr_or("menu.view", "View"))
        self.menu_demo.setTitle(t("rulings.menu.demo"))
        for a, key in ((self.act_open_scenario, "rulings.menu.open_scenario"),
                       (self.act_open_save, "rulings.menu.open_save"),
                       (self.act_open_replay, "rulings.menu.open_replay"),
                       (self.act_save, "rulings.menu.save"), (self.act_save_as, "rulings.menu.save_as"),
                       (self.act_export_png, "rulings.menu.export_png"),
                       (self.act_export_log, "rulings.menu.export_log"),
                       (self.act_reload, "rulings.menu.reload_cards"),
                       (self.act_inspector, "rulings.menu.inspector"),
                       (self.act_comparison, "rulings.menu.comparison"),
                       (self.act_presenter, "rulings.menu.presenter"),
                       (self.act_forward, "rulings.menu.demo_forward"),
                       (self.act_back, "rulings.menu.demo_back"),
                       (self.act_restart, "rulings.menu.demo_restart"),
                       (self.act_close_demo, "rulings.menu.demo_close")):
            a.setText(t(key))
        self._retranslate_docks()
        self._retranslate_status()
        if self.presenter is not None:
            self.presenter.refresh()
        access_refresh = getattr(self.window, "access_refresh", None)
        if access_refresh is not None:  # the names for screen readers, in the new language too
            access_refresh()

    def _retranslate_docks(self) -> None:
        if not self._docks_built:
            return
        self._demo_dock.setWindowTitle(t("rulings.demo.panel"))
        self._inspector_dock.setWindowTitle(t("rulings.inspector.title"))
        self._demo_panel.refresh()
        self._inspector.refresh()

    # ------------------------------------------------------------------ messages

    def refuse(self, key: str, reason: Any) -> None:
        """A save (``key`` "rulings.save.refused") or the autosave ("keeper.resume.failed") could
        not be opened because of ``reason``: the message box, and ``last_refusal``."""
        self.last_refusal = str(reason)
        self.inform("error", t(key, reason=refusal_text(reason)))

    def inform(self, level: str, text: str, title: str = "") -> None:
        """A message the user must see: a message box (non-blocking) and ``last_message``."""
        self.last_message = (level, text)
        log.info("%s: %s", level, text)
        if level == "info":
            self.status(text)
            return
        if not self.show_dialogs:
            return
        if self.message_box is not None:
            self.message_box.close()
        icon = QMessageBox.Icon.Critical if level == "error" else QMessageBox.Icon.Warning
        box = QMessageBox(icon, title or "Fate/Ace Royal", text, QMessageBox.StandardButton.Ok, self.window)
        box.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.destroyed.connect(lambda *_: setattr(self, "message_box", None))
        self.message_box = box
        box.open()

    def status(self, text: str | Callable[[], str], ms: int = 6000) -> None:
        """A line in the status bar for ``ms`` (0: until replaced). ``text`` may be a function
        that words it in the table's language: a switch of language while it shows words it anew
        (an autosave that cannot be written says so until it can)."""
        words = text() if callable(text) else text
        self._status = (text, ms, words) if callable(text) else None
        try:
            self.window.statusBar().showMessage(words, ms)
        except RuntimeError:
            pass

    def _retranslate_status(self) -> None:
        shown = self._status
        if shown is None:
            return
        text, ms, words = shown
        try:
            if self.window.statusBar().currentMessage() == words:  # still showing
                self.status(text, ms)
        except RuntimeError:
            pass

    def _show_rule(self, rule: str) -> None:
        show = getattr(self.window, "show_rule", None)
        if show is not None:
            show(rule)

    # ------------------------------------------------------------------ reacting to the game

    def _after_change(self) -> None:
        viewer = self.controller.private_viewer()
        if viewer != getattr(self, "_last_viewer", None):  # a hand-off: forget what was inspected
            self._last_viewer = viewer
            if self._docks_built and self._inspector.card_id is not None and not self.demo.active:
                self._inspector.card_id = None
                self._inspector.uid = None
                self._inspector.refresh()
        if self.demo.guard_read_only():
            self.status(lambda: t("rulings.demo.replay"))
            emit(self.controller.changed)
            return
        self._update_actions()
        self.autosave()

    def _update_actions(self) -> None:
        active = self.demo.active
        s = self.demo.session
        self.act_forward.setEnabled(bool(active and not s.done))
        self.act_back.setEnabled(bool(active and s.index > 0))
        self.act_restart.setEnabled(bool(active and s.index > 0))
        self.act_close_demo.setEnabled(active)
        has_game = self.controller.game is not None
        for a in (self.act_save, self.act_save_as, self.act_export_log, self.act_export_png, self.act_comparison):
            a.setEnabled(has_game)
        # in a demo, Ctrl+Z would undo behind the script's back: step back (←) instead
        for name in ("act_undo", "act_redo"):
            a = getattr(self.window, name, None)
            if a is not None and active:
                a.setEnabled(False)

    def _demo_stepped(self) -> None:
        self.keeper.demo_changed()
        if not self.demo.active and not self._docks_built:  # no demo dock to hide
            self._update_actions()
            return
        if self.demo.active and not self.demo_dock.isVisible():
            open_dock(self.window, self.demo_dock, max(380, self.window.width() // 4))
        else:
            self.demo_dock.setVisible(self.demo.active)
        if self.demo.active and not in_view(self.demo_dock):  # a tab behind the card detail
            self.demo_dock.raise_()  # a step shows its explanation
            self._covers_on_top()
        self._update_actions()
        if self.demo.active:
            h = max(1, self.window.height())
            self.demo_panel.set_scale(max(9.0, min(20.0, h / 80)))

    # ------------------------------------------------------------------ autosave

    def autosave(self) -> bool:
        """Write the live game's new actions to the autosave journal (not in a demo or replay).
        Never raises."""
        return self.keeper.autosave()

    @property
    def autosave_file(self) -> Path | None:
        """The journal's path (None: ``save.autosave_path()``)."""
        return self.keeper.path_override

    @autosave_file.setter
    def autosave_file(self, path: str | Path | None) -> None:
        self.keeper.path_override = None if path is None else Path(path)

    @property
    def autosave_enabled(self) -> bool:
        return self.keeper.enabled

    @autosave_enabled.setter
    def autosave_enabled(self, on: bool) -> None:
        self.keeper.enabled = bool(on)

    @property
    def autosave_error(self) -> str | None:
        return self.keeper.error

    def db_loader(self) -> Callable[[Any, list], Any]:
        """``(rules, extra cards) -> CardDB`` from the cards folder in use."""
        return _db_loader(self.cards_root)

    # ------------------------------------------------------------------ saves

    def save(self, path: str | Path | None = None) -> bool:
        """Save the game (to ``path``, else the last save's path, else ask)."""
        g = self.controller.game
        if g is None:
            return False
        target = Path(path) if path else self.save_path
        if target is None:
            return self.save_as_dialog()
        from fate_royal.rules.save import save_game

        try:
            save_game(g, target)
        except Exception as exc:
            self.inform("error", t("rulings.save.failed", reason=exc))
            return False
        self.keeper.mark_saved(g)
        self.save_path = target
        _remember("saves", target)
        self.inform("info", t("rulings.save.saved", path=target))
        return True

    def save_as_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.window, t("rulings.menu.save_as"),
                                              str(self.save_path or Path(_folder("saves")) / "fate_royal.json"),
                                              t("rulings.save.filter"))
        if not path:
            return False
        if not Path(path).suffix:
            path += ".json"
        return self.save(path)

    def open_save_dialog(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(self.window, t("rulings.menu.open_save"), _folder("saves"),
                                              t("rulings.save.filter"))
        return bool(path) and self.open_save(path)

    def open_replay_dialog(self) -> bool:
        path, _ = QFileDialog.getOpenFileName(self.window, t("rulings.menu.open_replay"), _folder("saves"),
                                              t("rulings.save.filter"))
        return bool(path) and self.open_replay(path)

    def _cards_changed(self, path: str | Path) -> bool:
        """Is the save's card data different from the current files? (raises SaveError if damaged)"""
        from fate_royal.rules.save import read_save

        info = read_save(path)
        db = _db_loader(self.cards_root)(info.rules, list(info.record.cards))
        return db.fingerprint != info.data["cards_fingerprint"]

    def _ask_open_anyway(self, path: str | Path, then: Callable[[], Any]) -> None:
        self.last_message = ("question", t("rulings.save.changed_cards", path=path))
        if not self.show_dialogs:
            return
        box = QMessageBox(QMessageBox.Icon.Question, "Fate/Ace Royal", t("rulings.save.changed_cards", path=path),
                          QMessageBox.StandardButton.Cancel, self.window)
        anyway = box.addButton(t("rulings.save.open_anyway"), QMessageBox.ButtonRole.AcceptRole)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.buttonClicked.connect(lambda b: then() if b is anyway else None)
        box.destroyed.connect(lambda *_: setattr(self, "message_box", None))
        self.message_box = box
        self.open_anyway_button = anyway
        box.open()

    def open_save(self, path: str | Path, allow_changed_cards: bool | None = None) -> bool:
        """Open a saved game (replayed from setup + actions). A damaged, foreign or incompatible file
        is refused with a message and the current game stays. ``allow_changed_cards`` None asks
        ("open anyway") when the card data changed since the save. An autosave journal
        (``.jsonl``) opens as the live game. A running unsaved game is not dropped unasked."""
        from fate_royal.rules.save import SaveError, load_game

        if not self.keeper.confirm_drop():
            return False
        if Path(path).suffix == ".jsonl":
            return self.keeper.resume(path)
        try:
            changed = self._cards_changed(path)
            if changed and not allow_changed_cards:
                if allow_changed_cards is None:
                    self._ask_open_anyway(path, lambda: self.open_save(path, True))
                else:
                    self.refuse("rulings.save.refused", f"{path}: incompatible: the card data changed")
                return False
            game = load_game(path, _db_loader(self.cards_root), allow_changed_cards=bool(allow_changed_cards))
        except SaveError as exc:
            self.refuse("rulings.save.refused", exc)
            return False
        except Exception as exc:  # card data broken, or anything else: the same refusal
            self.refuse("rulings.save.refused", f"{path}: {exc}")
            return False
        self.demo.close()
        self.keeper._parked = None  # asked above: the running game was saved or given up
        self.controller.set_game(game)
        self.save_path = Path(path)
        self.keeper.mark_saved(game)
        _remember("saves", path)
        self.inform("info", t("rulings.save.opened", path=path))
        return True

    def open_replay(self, path: str | Path, allow_changed_cards: bool | None = None) -> bool:
        """Open a save read-only as a replay, stepped forward and back like a scenario."""
        from fate_royal.rules.save import SaveError

        try:
            changed = self._cards_changed(path)
            if changed and not allow_changed_cards:
                if allow_changed_cards is None:
                    self._ask_open_anyway(path, lambda: self.open_replay(path, True))
                return False
            session = ReplaySession(path, _db_loader(self.cards_root), bool(allow_changed_cards))
        except SaveError as exc:
            self.refuse("rulings.save.refused", exc)
            return False
        except Exception as exc:
            self.refuse("rulings.save.refused", f"{path}: {exc}")
            return False
        self.keeper.park()
        self.demo.open(session)
        return True

    # ------------------------------------------------------------------ scenarios (demo mode)

    def open_scenario_dialog(self) -> bool:
        from fate_royal.paths import scenarios_dir

        start = scenarios_dir() / "demos"
        remembered = _folder("scenarios", "")
        path, _ = QFileDialog.getOpenFileName(self.window, t("rulings.menu.open_scenario"),
                                              remembered or str(start if start.is_dir() else Path.cwd()),
                                              t("rulings.scenario.filter"))
        return bool(path) and self.open_scenario(path) is None

    def open_scenario(self, path: str | Path, errata: Any = None, *, show_errors: bool = True) -> str | None:
        """Open a scenario file in demo mode; None on success, else the error text (also shown in a
        message box when ``show_errors``). The current game stays when it fails."""
        from fate_royal.rules.scenario import load_scenario

        try:
            if not Path(path).is_file():
                raise FileNotFoundError(f"no such scenario file: {path}")
            sc = load_scenario(path)
            session = ScenarioSession(sc, errata, self.cards_root)
        except Exception as exc:
            from fate_royal.text.dataerrors import localize_error

            text = t("rulings.scenario.failed", reason=localize_error(exc, current_language()))
            if show_errors:
                self.inform("error", text)
            else:
                self.last_message = ("error", text)
            return str(exc)
        self.keeper.park()
        self.demo.open(session)
        _remember("scenarios", path)
        return None

    def close_demo(self) -> None:
        self.demo.close()

    # ------------------------------------------------------------------ reload cards

    def _load_base_profile(self, root: Path | None) -> Any:
        try:
            from fate_royal.cards import load_profile

            return load_profile(None if root is None else Path(root) / "profile.yaml")
        except Exception:
            return None

    def reload_cards(self, root: str | Path | None = None) -> bool:
        """Reload the card files and the rules profile (from ``root``, a cards folder, else the last
        one used, else the shipped cards/), then rebuild the running game from its setup and replay
        its actions. A data error or a replay that becomes illegal is shown and the old game stays."""
        from fate_royal.cards import DataError, load_card_db, load_profile
        from fate_royal.rules.errors import IllegalAction
        from fate_royal.rules.game import Game

        if root is not None:
            self.cards_root = Path(root)
        root_ = self.cards_root
        g = self.controller.game
        try:
            base = load_profile(None if root_ is None else root_ / "profile.yaml")
            rules = None if g is None else self._reloaded_rules(g.rules, base)
            extra = [] if g is None else list(g.cards)
            db = load_card_db(root_, extra=extra or None, rules=rules)
        except DataError as exc:
            from fate_royal.text.dataerrors import localize_error

            self.inform("error", t("rulings.reload.data_error", errors=localize_error(exc, current_language())))
            return False
        except Exception as exc:
            self.inform("error", t("rulings.reload.data_error", errors=f"{type(exc).__name__}: {exc}"))
            return False
        s = self.demo.session
        if s is not None:
            return self._reload_session(s)
        if g is None:
            self._accept_data(base, db)
            self.inform("info", t("rulings.reload.ok", count=0))
            return True
        record = g.record
        try:
            new = Game(db, rules, record.setup, seed=record.seed, options=record.options,
                       cards=record.cards)
        except Exception as exc:
            from fate_royal.text.dataerrors import localize

            self.inform("error", t("rulings.reload.data_error",
                                   errors=localize(f"cannot set up the game: {exc}", current_language())))
            return False
        words = texts.words(new)
        for i, action in enumerate(record.actions):
            try:
                desc = words.action_line(new, action)
            except Exception:
                desc = action.kind
            try:
                new.apply_entry(action)
            except IllegalAction as exc:
                reason = exc.message + (f" [{exc.rule}]" if exc.rule else "")
                self.inform("error", t("rulings.reload.replay_failed", index=i + 1, action=desc, reason=reason))
                return False
            except Exception as exc:
                self.inform("error", t("rulings.reload.replay_failed", index=i + 1, action=desc,
                                       reason=f"{type(exc).__name__}: {exc}"))
                return False
        self._accept_data(base, db)
        self.controller.set_game(new)
        self.inform("info", t("rulings.reload.ok", count=len(new.history)))
        return True

    def _reloaded_rules(self, rules: Any, base: Any) -> Any:
        """The game's rule set with the reloaded profile under it: its own D-parameter changes (from
        the profile it was started with) are kept."""
        old_base = self._base_profile.to_dict() if self._base_profile is not None else {}
        overrides = {k: v for k, v in rules.profile.to_dict().items()
                     if k not in old_base or old_base[k] != v}
        return rules.with_(profile=base.with_(**overrides))

    def _accept_data(self, base: Any, db: Any) -> None:
        self._base_profile = base
        g = self.controller.game
        keep = self.cards_root is None and g is not None
        self.controller.forget_card_data(db if keep else None, g.rules if keep else None)

    def _reload_session(self, s: Any) -> bool:
        """Rebuild the open demo (scenario re-read from disk) or replay and step to where it was."""
        index = s.index
        try:
            if s.kind == "scenario":
                from fate_royal.rules.scenario import load_scenario

                new = ScenarioSession(load_scenario(s.path), s.rules_override, self.cards_root)
            else:
                new = ReplaySession(s.path, _db_loader(self.cards_root), True)
        except Exception as exc:
            from fate_royal.text.dataerrors import localize_error

            self.inform("error", t("rulings.reload.data_error", errors=localize_error(exc, current_language())))
            return False
        self.demo.open(new)
        while new.index < index and not new.done:
            self.demo.forward()
        self.inform("info", t("rulings.reload.ok", count=index))
        return True

    # ------------------------------------------------------------------ export

    def export_png(self, path: str | Path) -> bool:
        """The table (as shown: private cards stay hidden) as a PNG image."""
        widget: QWidget = getattr(self.window, "table", None) or self.window
        if self.presenter is not None and self.presenter.isVisible():
            widget = self.presenter
        try:
            ok = widget.grab().save(str(path), "PNG")
        except Exception as exc:
            ok, err = False, exc
        else:
            err = "cannot write the image"
        if not ok:
            self.inform("error", t("rulings.export.failed", reason=f"{path}: {err}"))
            return False
        _remember("exports", path, recent=False)
        self.inform("info", t("rulings.export.png_done", path=path))
        return True

    def log_text(self) -> str:
        """The log as text: a header, then one line per event with its rule ids."""
        g = self.controller.game
        if g is None:
            return ""
        lang = current_language()
        s = self.demo.session
        title = s.title if s is not None else texts.tr_or("app.title", "Fate/Ace Royal")
        rules_title = texts.rules_title(g.rules)  # (the shipped sets' own titles are Japanese)
        lines = [t("rulings.log.header", title=title),
                 f"{datetime.datetime.now():%Y-%m-%d %H:%M}  {rules_title}  "
                 f"{', '.join(p.name for p in g.state.players)}",
                 ""]
        words = texts.words(g)
        for e in g.log:
            lines.append(words.event_line(e))
        return "\n".join(lines) + "\n"

    def export_log(self, path: str | Path) -> bool:
        from fate_royal.fsutil import atomic_write

        text = self.log_text()
        path = Path(path)
        try:
            atomic_write(path, text)
        except OSError as exc:
            self.inform("error", t("rulings.export.failed", reason=f"{path}: {exc.strerror or exc}"))
            return False
        _remember("exports", path, recent=False)
        self.inform("info", t("rulings.export.log_done", path=path))
        return True

    def export_png_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.window, t("rulings.menu.export_png"),
                                              str(Path(_folder("exports")) / "fate_royal_table.png"),
                                              t("rulings.png.filter"))
        return bool(path) and self.export_png(path if Path(path).suffix else path + ".png")

    def export_log_dialog(self) -> bool:
        path, _ = QFileDialog.getSaveFileName(self.window, t("rulings.menu.export_log"),
                                              str(Path(_folder("exports")) / "fate_royal_log.txt"),
                                              t("rulings.log.filter"))
        return bool(path) and self.export_log(path if Path(path).suffix else path + ".txt")

    # ------------------------------------------------------------------ views

    def toggle_inspector(self) -> None:
        """Ctrl+I: hide the inspector when it is in view; show it, or bring its tab to the front
        (behind the demo's, it counts as visible to Qt), when it is not."""
        dock = self._inspector_dock if self._docks_built else None
        if dock is not None and in_view(dock):
            dock.hide()
        else:
            self.inspect()

    def _covers_on_top(self) -> None:
        for cover in (getattr(self.window, "overlay", None), getattr(self.window, "prompt_overlay", None)):
            if cover is not None and cover.isVisible():
                cover.raise_()  # a hand-off screen or the shared prompt stays over the docks

    def inspect(self, card_id: str | None = None, uid: int | None = None) -> CardInspector:
        if not self.inspector_dock.isVisible():
            open_dock(self.window, self.inspector_dock, max(520, self.window.width() // 3))
        self.inspector_dock.raise_()
        self._covers_on_top()
        if uid is not None:
            self.inspector.show_uid(uid)
        elif card_id is not None:
            self.inspector.show_card(card_id)
        return self.inspector

    def may_reveal(self, ask: bool = True) -> bool:
        """May a view that shows every hand (presenter, errata comparison) open now? Always in a
        demo, a replay, a finished game or a game the computer plays alone; never while the hand-off
        screen covers the table; otherwise only when the table agrees to show every hidden card
        (``ask`` False: the view keeps hands hidden itself until the table agrees, as the presenter
        does). One human against computer seats is asked too: the computers' hands are hidden
        from that player like anyone else's."""
        c = self.controller
        g = c.game
        if g is None or self.demo.active or g.state.over:
            return True
        overlay = getattr(self.window, "overlay", None)
        if overlay is not None and overlay.isVisible():
            return False  # F5 / Ctrl+E behind the hand-off screen: nothing opens
        hs = getattr(c, "hotseat", None)
        if not ask or hs is None or not hs.humans or c.auto_handoff:
            return True
        text = t("keeper.reveal.text" if len(hs.humans) > 1 else "keeper.reveal.computers")
        return self.keeper._ask("reveal", text, ["reveal", "cancel"]) == "reveal"

    def open_comparison(self) -> ComparisonWindow | None:
        if not (self.comparison is not None and self.comparison.isVisible()) and not self.may_reveal():
            return None
        s = self.demo.session
        scenario = s is not None and s.kind == "scenario"
        if self.comparison is None:
            from fate_royal.qt.compare_view import ComparisonWindow, comparison_for

            self.comparison = ComparisonWindow(comparison_for(self.controller, self.demo), self.window)
            self.comparison.rule_clicked.connect(self._show_rule)
        self.comparison.set_max_steps(s.total if scenario else None,
                                      (s.index or s.total) if scenario else None)
        self.comparison.recompute()
        self.comparison.show()
        self.comparison.raise_()
        return self.comparison

    def toggle_presenter(self) -> None:
        if self.presenter is not None and self.presenter.isVisible():
            self.presenter.close()
            return
        self.open_presenter()

    def open_presenter(self, full_screen: bool = True) -> PresenterWindow | None:
        if not self.may_reveal(ask=False):  # the presenter asks for agreement with its own button
            self.act_presenter.setChecked(False)
            return None
        if self.presenter is None:
            self.presenter = PresenterWindow(self.controller, self.demo, self.window)
            self.presenter.closed.connect(lambda: self.act_presenter.setChecked(False))
        self.presenter.refresh()
        if full_screen:
            self.presenter.showFullScreen()
        else:
            self.presenter.show()
        self.act_presenter.setChecked(True)
        return self.presenter

    # ------------------------------------------------------------------ events

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        et = event.type()
        if obj is self.window:
            if et == QEvent.Type.Close:
                if not self.keeper.confirm_close():
                    event.ignore()
                    return True
                self.keeper.autosave()
                self.keeper.shutdown()  # everything written before the window goes
                if self.keeper.enabled:  # an interactive table: keep its size and docks
                    try:
                        from fate_royal.qt.settings import settings

                        settings().save_window(self.window)
                        settings().sync()
                    except Exception:  # pragma: no cover
                        log.debug("window layout not saved", exc_info=True)
                for w in (self.presenter, self.comparison):
                    if w is not None:
                        w.close()
            return False
        if et in (QEvent.Type.MouseMove, QEvent.Type.MouseButtonDblClick):
            try:
                d = obj.card_at(QPointF(event.position()))
            except Exception:
                return False
            if d is None or not d.face_up or d.uid is None:
                return False
            if et == QEvent.Type.MouseButtonDblClick:
                self.inspect(uid=d.uid)
                return True
            if self._docks_built and self._inspector_dock.isVisible() and d.uid != self._inspector.uid:
                self._inspector.show_uid(d.uid)
        return False


def install(window: QMainWindow, controller: Any) -> RulingsFeatures:
    """Add the rulings features (menus, docks, shortcuts, autosave) to a running ``MainWindow``."""
    existing = getattr(window, "rulings", None)
    if isinstance(existing, RulingsFeatures):
        return existing
    features = RulingsFeatures(window, controller)
    window.rulings = features
    return features
