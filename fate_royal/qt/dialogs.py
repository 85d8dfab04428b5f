"""Dialogs: new game, browsing a public pile, game over."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGridLayout, QGroupBox,
    QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMessageBox, QPushButton,
    QSpinBox, QVBoxLayout, QWidget,
)

from fate_royal.qt import art, texts
from fate_royal.qt.i18n import current_language, tr

DEFAULT_NAMES_JA = ["アリス", "ボブ", "チカ", "ダイ", "エミ", "フウ", "ゲン"]
DEFAULT_NAMES_EN = ["Alice", "Bob", "Chika", "Dai", "Emi", "Fuu", "Gen"]


def default_names(n: int) -> list[str]:
    names = DEFAULT_NAMES_JA if current_language() == "ja" else DEFAULT_NAMES_EN
    return list(names[:n])


@dataclass
class NewGameSettings:
    names: list[str]
    seed: int
    errata: bool
    assignment: str  # random | choose
    ask_all: bool
    seats: dict | None = None  # seat -> human | random | basic | strong


def seat_kind_box(kind: str = "human") -> QComboBox:
    """A choice of who plays a seat: a person or a computer level."""
    from fate_royal.ai import SEAT_KINDS

    box = QComboBox()
    for k in SEAT_KINDS:
        box.addItem(tr(f"seats.{k}"), k)
    box.setCurrentIndex(SEAT_KINDS.index(kind) if kind in SEAT_KINDS else 0)
    return box


class NewGameDialog(QDialog):
    """Players (2–7) and names, errata on/off, seed, servant assignment, hot-seat option."""

    def __init__(self, parent: QWidget | None = None, *, players: int = 4, errata: bool = True,
                 seed: int | None = None, ask_all: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("newgame.title"))
        lay = QVBoxLayout(self)
        form = QFormLayout()
        self.count = QSpinBox()
        self.count.setRange(2, 7)
        self.count.setValue(players)
        form.addRow(tr("newgame.player_count"), self.count)
        lay.addLayout(form)
        box = QGroupBox(tr("newgame.names"))
        grid = QGridLayout(box)
        self.name_edits: list[QLineEdit] = []
        self.name_labels: list[QLabel] = []
        self.seat_boxes: list[QComboBox] = []
        for i, name in enumerate(default_names(7)):
            label = QLabel(tr("newgame.player_name", number=i + 1))
            edit = QLineEdit(name)
            grid.addWidget(label, i, 0)
            grid.addWidget(edit, i, 1)
            seat = seat_kind_box()
            grid.addWidget(seat, i, 2)
            self.name_edits.append(edit)
            self.name_labels.append(label)
            self.seat_boxes.append(seat)
        lay.addWidget(box)
        form2 = QFormLayout()
        self.errata = QCheckBox(tr("newgame.errata"))
        self.errata.setChecked(errata)
        form2.addRow(self.errata)
        seed_row = QHBoxLayout()
        self.seed = QSpinBox()
        self.seed.setRange(0, 999_999_999)
        self.seed.setValue(seed if seed is not None else random.randrange(1, 1_000_000))
        self.random_seed = QPushButton(tr("newgame.seed_random"))
        self.random_seed.clicked.connect(lambda: self.seed.setValue(random.randrange(1, 1_000_000)))
        seed_row.addWidget(self.seed, 1)
        seed_row.addWidget(self.random_seed)
        form2.addRow(tr("newgame.seed"), seed_row)
        self.assignment = QComboBox()
        self.assignment.addItem(tr("newgame.servants_random"), "random")
        self.assignment.addItem(tr("newgame.servants_choose"), "choose")
        form2.addRow(tr("newgame.servants"), self.assignment)
        self.ask_all = QCheckBox(tr("menu.ask_everyone").replace("(&E)", "").replace("&", ""))
        self.ask_all.setChecked(ask_all)
        form2.addRow(self.ask_all)
        lay.addLayout(form2)
        self.error = QLabel()
        self.error.setStyleSheet("color:#d84a3a;")
        self.error.hide()
        lay.addWidget(self.error)
        buttons = QDialogButtonBox()
        self.start = buttons.addButton(tr("newgame.start"), QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(tr("action.cancel"), QDialogButtonBox.ButtonRole.RejectRole)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.count.valueChanged.connect(self._update_rows)
        self._update_rows()

    def _update_rows(self) -> None:
        n = self.count.value()
        for i, (label, edit) in enumerate(zip(self.name_labels, self.name_edits)):
            label.setVisible(i < n)
            edit.setVisible(i < n)
            self.seat_boxes[i].setVisible(i < n)

    def settings(self) -> NewGameSettings:
        n = self.count.value()
        names = [e.text().strip() or f"P{i + 1}" for i, e in enumerate(self.name_edits[:n])]
        seats = {i: b.currentData() for i, b in enumerate(self.seat_boxes[:n])}
        return NewGameSettings(names, self.seed.value(), self.errata.isChecked(),
                               self.assignment.currentData(), self.ask_all.isChecked(),
                               seats if any(v != "human" for v in seats.values()) else None)

    def _accept(self) -> None:
        names = self.settings().names
        if len(set(names)) != len(names):
            self.error.setText(texts.tr_or("table.names_differ", "Player names must differ."))
            self.error.show()
            return
        self.accept()


class PileDialog(QDialog):
    """Browse the public cards of the discard pile or the grail seat (top first)."""

    def __init__(self, game: Any, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        s = game.state
        zone_key = {"discard": "zone.discard", "grail": "zone.grail_seat", "deck": "zone.deck"}[kind]
        pile = list(getattr(s, kind))
        self.setWindowTitle(tr("zone.count", zone=tr(zone_key), count=len(pile)))
        lay = QVBoxLayout(self)
        self.cards: list[str] = []
        if kind == "deck":
            note = QLabel(tr("zone.count", zone=tr(zone_key), count=len(pile)) + "\n" +
                          (tr("notice.deck_padded", count=s.padded) if s.padded else ""))
            note.setWordWrap(True)
            lay.addWidget(note)
        else:
            self.list = QListWidget()
            self.list.setViewMode(QListWidget.ViewMode.IconMode)
            self.list.setIconSize(QSize(150, 210))
            self.list.setResizeMode(QListWidget.ResizeMode.Adjust)
            self.list.setSpacing(8)
            self.list.setMovement(QListWidget.Movement.Static)
            for uid in reversed(pile):
                card = game.card_of(uid)
                img = art.render_card_image(card, 150, lang=current_language())
                item = QListWidgetItem(texts.card_name(card))
                item.setIcon(QPixmap.fromImage(img))
                self.list.addItem(item)
                self.cards.append(card.id)
            if not pile:
                lay.addWidget(QLabel(tr("panel.stack.empty")))
            lay.addWidget(self.list)
            self.resize(760, 560)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        if close is not None:
            close.setText(texts.tr_or("table.close", "Close"))
            close.clicked.connect(self.accept)
        lay.addWidget(buttons)


def game_over_box(parent: QWidget, game: Any) -> QMessageBox:
    """A non-blocking "game over" box: the winner (or no winner) and a new-game button."""
    out = game.outcome()
    box = QMessageBox(parent)
    box.setWindowTitle(tr("gameover.title"))
    if out is not None and out.winner_name:
        box.setText(tr("gameover.winner", name=out.winner_name))
    else:
        box.setText(tr("gameover.no_winner"))
    box.new_game_button = box.addButton(tr("menu.new_game").replace("…", "").split("(")[0],
                                        QMessageBox.ButtonRole.AcceptRole)
    box.addButton(texts.tr_or("table.close", "Close"), QMessageBox.ButtonRole.RejectRole)
    box.setWindowModality(Qt.WindowModality.NonModal)
    return box


class StopsDialog(QDialog):
    """Per player: the extra moments to be asked at (the game records them: they decide who is
    asked, so they are part of the game)."""

    def __init__(self, parent: QWidget | None, names: list[str], stops: dict) -> None:
        super().__init__(parent)
        from fate_royal.rules.hotseat import STOPS

        self.setWindowTitle(tr("stops.title"))
        lay = QVBoxLayout(self)
        intro = QLabel(tr("stops.intro"))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        grid = QGridLayout()
        for j, stop in enumerate(STOPS):
            head = QLabel(tr(f"stops.{stop}"))
            head.setWordWrap(True)
            grid.addWidget(head, 0, j + 1)
        self.boxes: dict[tuple[int, str], QCheckBox] = {}
        for i, name in enumerate(names):
            grid.addWidget(QLabel(name), i + 1, 0)
            for j, stop in enumerate(STOPS):
                box = QCheckBox()
                box.setChecked(stop in (stops.get(str(i)) or []))
                box.setAccessibleName(f"{name}: {tr(f'stops.{stop}')}")
                grid.addWidget(box, i + 1, j + 1, Qt.AlignmentFlag.AlignCenter)
                self.boxes[(i, stop)] = box
        lay.addLayout(grid)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)

    def stops(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for (i, stop), box in self.boxes.items():
            if box.isChecked():
                out.setdefault(str(i), []).append(stop)
        return out
