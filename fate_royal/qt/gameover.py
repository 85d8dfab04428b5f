"""The game-over screen: who won (or that nobody did), how and when each player dropped out, how
many turns were played, and what next — a rematch (same players and rules, a new shuffle), a new
game, or saving the game's record as a replay.

Everything it says comes from the public log of the finished game (the table's view), so it shows
nothing a player could not have seen — until the table presses "show every card", which turns the
face-down servants and every hand face up on the table (the game is over: nothing is left to
hide; a hot-seat table cannot undo such a game back into play).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog, QFileDialog, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget,
)

from fate_royal.qt import texts
from fate_royal.qt.fonts import ui_font
from fate_royal.qt.i18n import FollowsLanguage, strip_mnemonic, tr

STYLE = """
QDialog { background: #1b130e; }
QLabel { color: #f4ecdc; }
QLabel#headline { color: #e8c36a; }
QPushButton { background: #3a2a1f; color: #f4ecdc; border: 1px solid #6b5038; border-radius: 6px;
  padding: 0.5em 1.4em; font-weight: bold; }
QPushButton:hover { background: #4a3726; border-color: #e8c36a; }
QPushButton#rematch { background: #1f3b33; border-color: #4f8f78; }
"""


@dataclass(frozen=True)
class PlayerResult:
    seat: int
    name: str
    winner: bool
    out_turn: int | None  # the turn they dropped out in (None: still in at the end)
    why: str  # the reason code (destroyed, no_command_spells, …) or ""
    order: int  # 1 = dropped out first


def results(game: Any, view: Any) -> list[PlayerResult]:
    """Each player's end, from the public log: winner, or when and why they dropped out."""
    drops: dict[int, tuple[int, str, int]] = {}
    for e in view.log:
        if e.code == "PlayerDroppedOut":
            p = e.args.get("player")
            if isinstance(p, int) and p not in drops:
                drops[p] = (e.turn, str(e.args.get("why", "")), len(drops) + 1)
    out = []
    for i, sv in enumerate(view.players):
        turn, why, order = drops.get(i, (None, "", 0))
        out.append(PlayerResult(i, sv.name, view.winner == i, turn, why, order))
    return out


def why_text(why: str) -> str:
    return texts.tr_or(f"why.{why}", why.replace("_", " ")) if why else ""


class GameOverDialog(FollowsLanguage, QDialog):
    """The end of a game, non-modal. ``text()`` is its headline; buttons ``rematch_button``,
    ``new_game_button``, ``save_button``, ``close_button``."""

    def __init__(self, window: Any, game: Any) -> None:
        super().__init__(window)
        self.window_ = window
        self.game = game
        self.setStyleSheet(STYLE)
        self.setWindowModality(Qt.WindowModality.NonModal)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)  # it holds the whole finished game
        view = window.controller.table_view()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(28, 22, 28, 22)
        lay.setSpacing(12)
        self.headline = QLabel()
        self.headline.setObjectName("headline")
        self.headline.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.headline.setFont(ui_font(26, bold=True))
        lay.addWidget(self.headline)
        self.summary = QLabel()
        self.summary.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.summary.setWordWrap(True)
        self.summary.setStyleSheet("color:#c9bda6;")
        lay.addWidget(self.summary)
        self._summary = lambda: tr("gameover.summary", turns=view.turn, count=len(view.players),
                                   rules=texts.rules_title(game.rules))
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        grid.setVerticalSpacing(6)
        self.heads: list[QLabel] = []
        for col in range(3):
            head = QLabel()
            head.setStyleSheet("color:#e8c36a; font-weight:bold;")
            grid.addWidget(head, 0, col)
            self.heads.append(head)
        self.rows: list[tuple[str, str, str]] = []
        self.results = sorted(results(game, view), key=lambda r: (not r.winner, r.out_turn is not None,
                                                                  -(r.order or 0)))
        self.cells: list[list[QLabel]] = []
        for row, r in enumerate(self.results, 1):
            labels = []
            for col in range(3):
                label = QLabel()
                label.setWordWrap(True)
                if r.winner:
                    label.setStyleSheet("color:#ffe08a;")
                grid.addWidget(label, row, col)
                labels.append(label)
            self.cells.append(labels)
        centred = QHBoxLayout()  # the results in the middle, under the centred headline
        centred.addStretch(1)
        centred.addLayout(grid)
        centred.addStretch(1)
        lay.addLayout(centred)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        self.rematch_button = QPushButton()
        self.rematch_button.setObjectName("rematch")
        self.rematch_button.clicked.connect(self.rematch)
        self.new_game_button = QPushButton()
        self.new_game_button.clicked.connect(self.new_game)
        self.save_button = QPushButton()
        self.save_button.clicked.connect(lambda: self.save_replay())
        self.cards_button = QPushButton()  # every hidden card face up, now that the game is over
        self.cards_button.setCheckable(True)
        self.cards_button.setChecked(window.controller.cards_shown())
        self.cards_button.toggled.connect(self.show_cards)
        self.close_button = QPushButton()
        self.close_button.clicked.connect(self.close)
        for b in (self.rematch_button, self.new_game_button, self.save_button, self.cards_button,
                  self.close_button):
            buttons.addWidget(b)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        self.saved_to: Path | None = None
        self.retranslate()
        self.resize(max(560, int(window.width() * 0.5)), self.sizeHint().height())

    def retranslate(self) -> None:
        """Every word in the table's language (again after View → Language)."""
        out = self.game.outcome()
        self.setWindowTitle(tr("gameover.title"))
        self.headline.setText(tr("gameover.winner", name=out.winner_name) if out and out.winner_name
                              else tr("gameover.no_winner"))
        self.summary.setText(self._summary())
        for head, key in zip(self.heads, ("gameover.col.player", "gameover.col.result",
                                          "gameover.col.when")):
            head.setText(tr(key))
        self.rows = []
        for r, labels in zip(self.results, self.cells):
            if r.winner:
                result, when = tr("gameover.won"), ""
            elif r.out_turn is None:
                result, when = tr("gameover.still_in"), ""
            else:
                result = tr("gameover.dropped", why=why_text(r.why))
                when = tr("gameover.when", turn=r.out_turn, order=r.order)
            self.rows.append((r.name, result, when))
            for col, (label, text) in enumerate(zip(labels, (r.name, result, when))):
                label.setText(html.escape(text) if col else f"<b>{html.escape(text)}</b>")
        self.rematch_button.setText(tr("gameover.rematch"))
        self.new_game_button.setText(strip_mnemonic(tr("menu.new_game")))
        self.save_button.setText(tr("gameover.save_replay"))
        self.cards_button.setText(tr("gameover.hide_cards" if self.cards_button.isChecked()
                                     else "gameover.show_cards"))
        self.close_button.setText(tr("gameover.close"))

    def text(self) -> str:
        return self.headline.text()

    def show_cards(self, on: bool = True) -> bool:
        """Every face-down servant, hidden scene and hand of the finished game turned face up on
        the table (and the log's secret lines read out), or face down again."""
        shown = self.window_.controller.show_all_cards(on)
        if self.cards_button.isChecked() != (on and shown):
            self.cards_button.blockSignals(True)
            self.cards_button.setChecked(on and shown)
            self.cards_button.blockSignals(False)
        self.retranslate()
        return shown

    def rematch(self) -> bool:
        """The same players, seats and rules; a new shuffle."""
        g = self.game
        names = [p.name for p in g.ctx.s.players]
        seats = {int(k): v for k, v in (g.options.get("seats") or {}).items()}
        self.close()
        return self.window_.controller.new_game(names, None, rules=g.rules, seats=seats or None)

    def new_game(self) -> None:
        self.close()
        self.window_.new_game_dialog()

    def save_replay(self, path: str | Path | None = None) -> bool:
        """Write the finished game's record (a save that replays it); asks where when no path."""
        from fate_royal.rules.save import save_game

        if path is None:
            path, _ = QFileDialog.getSaveFileName(self, tr("gameover.save_replay"), "replay.json",
                                                  "JSON (*.json)")
            if not path:
                return False
        try:
            self.saved_to = save_game(self.game, path)
        except Exception as exc:  # a folder that cannot be written: say so
            reason = str(exc)
            self._summary = lambda: tr("error.internal", reason=reason)
            self.summary.setText(self._summary())
            return False
        saved = str(self.saved_to)
        self._summary = lambda: tr("gameover.saved", path=saved)
        self.summary.setText(self._summary())
        return True


def show_game_over(window: Any, game: Any) -> QWidget:
    dlg = GameOverDialog(window, game)
    dlg.show()
    return dlg
