"""Dialogs: new game, browsing a public pile, game over."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFormLayout, QGridLayout, QGroupBox,
    QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem, QMessageBox, QPushButton,
    QSpinBox, QVBoxLayout, QWidget,
)

from fate_royal.qt import art, texts
from fate_royal.qt.i18n import FollowsLanguage, current_language, tr
from fate_royal.qt.screen import resize_on_screen
from fate_royal.rules.record import SEAT_KINDS  # a person, or the computer at one of its levels
from fate_royal.rules.setup import MAX_NAME  # the longest player name (the engine's limit)

DEFAULT_NAMES_JA = ["アリス", "ボブ", "チカ", "ダイ", "エミ", "フウ", "ゲン"]
DEFAULT_NAMES_EN = ["Alice", "Bob", "Chika", "Dai", "Emi", "Fuu", "Gen"]


def default_names(n: int, remembered: bool = True) -> list[str]:
    """The names of the last game's players (remembered in the settings), then the defaults."""
    names = DEFAULT_NAMES_JA if current_language() == "ja" else DEFAULT_NAMES_EN
    try:
        from fate_royal.qt.settings import settings

        remembered = settings().player_names() if remembered else []
    except Exception:  # settings unreadable: the defaults
        remembered = []
    out = list(remembered[:n])
    out += [x for x in names if x not in out][: n - len(out)]
    return out


@dataclass
class NewGameSettings:
    names: list[str]
    seed: int
    errata: bool
    assignment: str  # random | choose
    ask_all: bool
    rules: Any = None  # the RuleSet chosen
    seats: dict[int, str] | None = None  # seat -> human or a computer level


def seat_kind_box(kind: str = "human") -> QComboBox:
    """A choice of who plays a seat: a person or a computer level."""
    box = QComboBox()
    for k in SEAT_KINDS:
        box.addItem(tr(f"seats.{k}"), k)
    box.setCurrentIndex(SEAT_KINDS.index(kind) if kind in SEAT_KINDS else 0)
    return box


class NewGameDialog(QDialog):
    """Players (2–7), their names and who sits there (human or computer level), the rule set,
    seed, servant assignment, hot-seat option."""

    def __init__(self, parent: QWidget | None = None, *, players: int = 4, errata: bool = True,
                 seed: int | None = None, ask_all: bool = False, rules: Any = None,
                 rules_folder: Any = None) -> None:
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
        self.seat_kinds: list[QComboBox] = []
        for i, name in enumerate(default_names(7)):
            label = QLabel(tr("newgame.player_name", number=i + 1))
            edit = QLineEdit(name)
            edit.setPlaceholderText(f"P{i + 1}")  # what a blank name plays as (settings())
            edit.setMaxLength(MAX_NAME)
            kind = QComboBox()
            for k in SEAT_KINDS:
                kind.addItem(tr(f"newgame.seat.{k}"), k)
            kind.setAccessibleName(tr("newgame.seat_kind", number=i + 1))
            grid.addWidget(label, i, 0)
            grid.addWidget(edit, i, 1)
            grid.addWidget(kind, i, 2)
            self.name_edits.append(edit)
            self.name_labels.append(label)
            self.seat_kinds.append(kind)
        lay.addWidget(box)
        form2 = QFormLayout()
        self.rules_folder = rules_folder
        rules_row = QHBoxLayout()
        self.rules = QComboBox()
        rules_row.addWidget(self.rules, 1)
        self.edit_rules = QPushButton(tr("newgame.edit_rules"))
        self.edit_rules.clicked.connect(self.open_rules_editor)
        rules_row.addWidget(self.edit_rules)
        form2.addRow(tr("newgame.rules"), rules_row)
        self.rules_problem = QLabel()
        self.rules_problem.setWordWrap(True)
        self.rules_problem.setStyleSheet("color:#d84a3a;")
        self.rules_problem.hide()
        form2.addRow(self.rules_problem)
        self.deck_summary = QLabel()  # how many of the deck's cards are known, entered, padded (D1)
        self.deck_summary.setWordWrap(True)
        self.deck_summary.setStyleSheet("color:#8a7f70;")
        form2.addRow(self.deck_summary)
        self.rules.currentIndexChanged.connect(lambda _=0: self.update_deck_summary())
        self.fill_rules(rules if rules is not None else ("house" if errata else "base"))
        self.update_deck_summary()
        self.rules_editor: Any = None
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
        self.seat_boxes = self.seat_kinds  # (the name the computer-seat tests use)
        self.count.valueChanged.connect(self._update_rows)
        self._update_rows()

    def _update_rows(self) -> None:
        n = self.count.value()
        for i, (label, edit, kind) in enumerate(zip(self.name_labels, self.name_edits,
                                                     self.seat_kinds)):
            label.setVisible(i < n)
            edit.setVisible(i < n)
            kind.setVisible(i < n)

    def fill_rules(self, select: Any = None) -> None:
        """The rule sets to pick from (shipped, then the user's own); ``select`` a set, a
        shipped name or a file path."""
        from fate_royal.cards.rulesets import available_rulesets

        self.rules.clear()
        problems = []
        for key, rules, problem in available_rulesets(self.rules_folder):
            if rules is None:
                problems.append(problem)
                continue
            self.rules.addItem(texts.rules_title(rules), rules)
            self.rules.setItemData(self.rules.count() - 1, key, Qt.ItemDataRole.ToolTipRole)
        from fate_royal.text.dataerrors import localize_lines

        self.rules_problem.setText(localize_lines("\n".join(problems), current_language()))
        self.rules_problem.setVisible(bool(problems))
        if select is None:
            return
        for i in range(self.rules.count()):
            r = self.rules.itemData(i)
            key = self.rules.itemData(i, Qt.ItemDataRole.ToolTipRole)
            if (isinstance(select, str) and select in (key, r.name)) or (
                    not isinstance(select, str) and (r.name, r.title) == (select.name, select.title)):
                self.rules.setCurrentIndex(i)
                return
        if not isinstance(select, str):  # a set that is no file (a loaded save's): offer it as is
            self.rules.addItem(texts.rules_title(select), select)
            self.rules.setCurrentIndex(self.rules.count() - 1)

    def chosen_rules(self) -> Any:
        return self.rules.currentData()

    def update_deck_summary(self) -> None:
        """"Deck: 8 known, 1 entered, 31 padded cards (D1)" for the chosen rule set."""
        try:
            from fate_royal.cards import load_card_db
            from fate_royal.cards.pack import deck_summary

            rules = self.chosen_rules()
            known, entered, padded = deck_summary(load_card_db(rules=rules), rules)
        except Exception as exc:  # broken card data: say so here, the game start will too
            from fate_royal.text.dataerrors import localize_lines

            first = str(exc).splitlines()[0] if str(exc) else ""
            self.deck_summary.setText(localize_lines(first, current_language()))
            return
        self.deck_summary.setText(tr("newgame.deck_summary", known=known, entered=entered, padded=padded))

    def open_rules_editor(self) -> Any:
        """The rules editor, starting from the chosen set; a set saved there is picked here."""
        from fate_royal.qt.rules_editor import RulesEditor

        ed = RulesEditor(self, self.chosen_rules(), folder=self.rules_folder)
        ed.saved.connect(lambda rules, path: self.fill_rules(str(path)))
        self.rules_editor = ed
        ed.open()
        return ed

    def settings(self) -> NewGameSettings:
        n = self.count.value()
        names = [e.text().strip() or f"P{i + 1}" for i, e in enumerate(self.name_edits[:n])]
        rules = self.chosen_rules()
        seats = {i: k.currentData() for i, k in enumerate(self.seat_kinds[:n])}
        if all(k == "human" for k in seats.values()):
            seats = None  # everyone human: nothing to record
        return NewGameSettings(names, self.seed.value(), bool(rules is None or rules.all_errata),
                               self.assignment.currentData(), self.ask_all.isChecked(), rules,
                               seats)

    def _accept(self) -> None:
        """Start only with names the engine takes (it refuses the same from a save or a scenario):
        each a name of its own, none that reads the same as another ("A" and "Ａ")."""
        from fate_royal.rules.setup import name_problem, reading

        names = self.settings().names
        for name in names:
            if name_problem(name):
                self.error.setText(tr("table.name_invalid", name=name, max=MAX_NAME))
                self.error.show()
                return
        if len({reading(name) for name in names}) != len(names):
            self.error.setText(texts.tr_or("table.names_differ", "Player names must differ."))
            self.error.show()
            return
        self.accept()


class PileDialog(FollowsLanguage, QDialog):
    """Browse the public cards of the discard pile or the grail seat (top first)."""

    def __init__(self, game: Any, kind: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.game, self.kind = game, kind
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.body: QWidget | None = None
        #: called when the cards were laid out again (the card zoom follows the new list)
        self.on_rebuilt: Any = None
        self.retranslate()
        if kind != "deck":
            resize_on_screen(self, 760, 560)

    def retranslate(self) -> None:
        """The pile as it is, in the table's language (built again after View → Language)."""
        if self.body is not None:
            self.body.hide()
            self.body.deleteLater()
            zoom = getattr(self, "zoom", None)
            if zoom is not None:
                zoom.hide_zoom()
                zoom.deleteLater()
                self.zoom = None
        self.body = QWidget(self)
        self.layout().addWidget(self.body)
        game, kind = self.game, self.kind
        s = game.state
        zone_key = {"discard": "zone.discard", "grail": "zone.grail_seat", "deck": "zone.deck"}[kind]
        pile = list(getattr(s, kind))
        self.setWindowTitle(tr("zone.count", zone=tr(zone_key), count=len(pile)))
        lay = QVBoxLayout(self.body)
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
                img = art.render_card_image(card, 150, lang=current_language(), db=game.db)
                item = QListWidgetItem(texts.card_name(card))
                item.setIcon(QPixmap.fromImage(img))
                self.list.addItem(item)
                self.cards.append(card.id)
            if not pile:
                lay.addWidget(QLabel(tr("panel.stack.empty")))
            lay.addWidget(self.list)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.accepted.connect(self.accept)
        close = buttons.button(QDialogButtonBox.StandardButton.Close)
        if close is not None:
            close.setText(texts.tr_or("table.close", "Close"))
            close.clicked.connect(self.accept)
        lay.addWidget(buttons)
        if self.on_rebuilt is not None:
            self.on_rebuilt()


def ask_choice(parent: QWidget | None, title: str, text: str,
               choices: list[tuple[str, str, QMessageBox.ButtonRole]]) -> str:
    """Ask a question with buttons in the table's language (Qt's standard buttons are English):
    `choices` are (answer, label, role), the first is the default; closing the box answers the
    last."""
    box = QMessageBox(QMessageBox.Icon.Question, title, text, QMessageBox.StandardButton.NoButton, parent)
    buttons = {box.addButton(label, role): answer for answer, label, role in choices}
    box.setDefaultButton(next(iter(buttons)))
    box.exec()
    return buttons.get(box.clickedButton(), choices[-1][0])


def ask_save_discard_cancel(parent: QWidget | None, title: str, text: str, save_label: str) -> str:
    """An editor with unsaved changes asks before closing: "save", "discard" or "cancel"."""
    role = QMessageBox.ButtonRole
    return ask_choice(parent, title, text, [("save", save_label, role.AcceptRole),
                                            ("discard", tr("keeper.choice.discard"), role.DestructiveRole),
                                            ("cancel", tr("keeper.choice.cancel"), role.RejectRole)])


def confirm_unsaved(editor: Any, title: str, text: str, save_label: str, save: Callable[[], bool]) -> bool:
    """May an editor's form be closed or replaced? True when ``editor.has_unsaved_changes()`` is
    false, or when the user saves (and ``save()`` works) or discards; False to keep editing. The
    editor's ``ask_unsaved`` (tests, or None) answers instead of the message box."""
    if not editor.has_unsaved_changes():
        return True
    choice = editor.ask_unsaved(editor) if editor.ask_unsaved is not None else \
        ask_save_discard_cancel(editor, title, text, save_label)
    if choice == "save":
        return save()
    return choice == "discard"


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
        from fate_royal.qt.panels import wrap_lines
        from fate_royal.rules.hotseat import STOPS

        self.setWindowTitle(tr("stops.title"))
        lay = QVBoxLayout(self)
        intro = QLabel(tr("stops.intro"))
        intro.setWordWrap(True)
        lay.addWidget(intro)
        intro.setMinimumWidth(440)
        grid = QGridLayout()
        grid.setHorizontalSpacing(14)
        for j, stop in enumerate(STOPS):
            # one line where it fits, else broken here, balanced and never inside a word (a
            # word-wrapped label in a grid got a row one line tall: the text was cut through)
            head = QLabel()
            head.setText(wrap_lines(tr(f"stops.{stop}"), head.font(), 260.0, 3, seams=()))
            head.setAlignment(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignBottom)
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
        # never smaller than it opens: below that a word-wrapped intro took the rows' height
        self.setMinimumSize(self.sizeHint())

    def stops(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for (i, stop), box in self.boxes.items():
            if box.isChecked():
                out.setdefault(str(i), []).append(stop)
        return out
