"""The house-rules workbench in the running table (issue 12), added from outside the window.

``install(features)`` (called by ``rulings.install``) adds: the rules editor, the card errata patch
form and the ruling sweep to the File menu; a permanent status-bar label naming the rule set in force; and "continue playing from
here" in the Demo menu (the demo dock gets the same button). Nothing here holds rules logic.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QLabel

from fate_royal.qt import texts
from fate_royal.qt.i18n import tr


class Workbench(QObject):
    """What ``install`` added; its methods are what the menus call (tests call them too)."""

    def __init__(self, features: Any) -> None:
        super().__init__(features)
        self.features = features
        self.window = features.window
        self.controller = features.controller
        self.rules_folder: Any = None  # None: the user data folder
        self.editor: Any = None
        self.sweep_window: Any = None
        self.patch_editor: Any = None
        self.status_label = QLabel()
        self.status_label.setObjectName("rulesInForce")
        self.window.statusBar().addPermanentWidget(self.status_label)
        f = features
        self.act_editor = f._action(self.open_editor)
        self.act_sweep = f._action(self.open_sweep)
        self.act_patch = f._action(self.open_patch_editor)
        f.menu_file.addSeparator()
        for a in (self.act_editor, self.act_patch, self.act_sweep):
            f.menu_file.addAction(a)
        self.act_continue = f._action(self.continue_playing)
        f.menu_demo.insertAction(f.act_close_demo, self.act_continue)
        self.controller.changed.connect(self.refresh)
        f.demo.stepped.connect(self.refresh)
        f.demo.branched.connect(self._branched)
        for a in getattr(self.window, "lang_actions", {}).values():
            a.triggered.connect(lambda _=False: self.retranslate())
        self.retranslate()

    def retranslate(self) -> None:
        self.act_editor.setText(tr("workbench.menu.editor"))
        self.act_sweep.setText(tr("workbench.menu.sweep"))
        self.act_patch.setText(tr("workbench.menu.patch"))
        self.act_continue.setText(tr("workbench.demo.continue"))
        self.refresh()

    def refresh(self) -> None:
        g = self.controller.game
        self.status_label.setText(tr("workbench.status", rules=texts.rules_title(g.rules))
                                  if g is not None else "")
        self.act_continue.setEnabled(self.features.demo.active)

    # ------------------------------------------------------------------ commands

    def open_editor(self, rules: Any = None) -> Any:
        from fate_royal.qt.rules_editor import RulesEditor

        g = self.controller.game
        start = rules if rules is not None else (g.rules if g is not None else None)
        self.editor = RulesEditor(self.window, start, folder=self.rules_folder)
        self.editor.saved.connect(lambda r, p: self.features.status(
            lambda: tr("workbench.status", rules=texts.rules_title(r)) + f"  ({p})"))
        self.editor.show()
        return self.editor

    def open_patch_editor(self) -> Any:
        from fate_royal.qt.patch_editor import PatchEditor

        if self.patch_editor is not None and self.patch_editor.isVisible():
            self.patch_editor.raise_()  # one editor at a time: the open one keeps what was typed
            self.patch_editor.activateWindow()
            return self.patch_editor
        if self.patch_editor is not None:
            self.patch_editor.deleteLater()
        self.patch_editor = PatchEditor(self.window, self.controller, self.features)
        self.patch_editor.show()
        return self.patch_editor

    def open_sweep(self) -> Any:
        from fate_royal.qt.compare_view import SweepWindow

        if self.sweep_window is None:
            self.sweep_window = SweepWindow(self.window, folder=self.rules_folder)
        self.sweep_window.show()
        self.sweep_window.raise_()
        return self.sweep_window

    def continue_playing(self) -> bool:
        """Leave the demo or replay and keep its game, at this step, as a live game."""
        return self.features.demo.branch() is not None

    def _branched(self, index: int) -> None:
        """Say so: the table is a live game again."""
        self.features.inform("info", tr("workbench.demo.branched", index=index))
        self.features.status(lambda: tr("workbench.demo.branched", index=index), 12000)
        self.refresh()


def install(features: Any) -> Workbench:
    existing = getattr(features, "workbench", None)
    if isinstance(existing, Workbench):
        return existing
    features.workbench = Workbench(features)
    return features.workbench
