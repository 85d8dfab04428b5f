"""The rule-set comparison window: one position (the live game, or the open scenario up to a step)
played under two rule sets (default: the house errata and the base rules; any two sets can be
picked), both tables side by side (read-only, every card shown), the differences listed and
highlighted, and the rule ids cited on only one side. And the ruling sweep window: every ruling
scenario under two sets, the rulings whose outcome changes with the first differing log line.
"""

from __future__ import annotations

import html
from typing import Any, Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont
from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QHBoxLayout, QHeaderView, QLabel, QProgressBar, QPushButton,
    QSpinBox, QSplitter, QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget,
)

from fate_royal.qt import art, texts
from fate_royal.qt.compat import emit
from fate_royal.qt.demo import rule_chips
from fate_royal.qt.fonts import ui_font
from fate_royal.qt.reveal import RevealController
from fate_royal.qt.screen import resize_on_screen
from fate_royal.qt.table import TableView
from fate_royal.qt.i18n import FollowsLanguage, current_language, tr as t
from fate_royal.rules.compare import Comparison, Difference, compare_errata, compare_rules
from fate_royal.text.dataerrors import localize, localize_error
from fate_royal.text.verdicts import STATE_VALUES, ZONE_TERMS

ON_COLOUR = "#7dffb0"
OFF_COLOUR = "#ffb26b"

STYLE = """
QWidget#comparison { background: #120c08; }
QLabel { color: #f4ecdc; }
QTableWidget { background: #0f0a07; color: #eadfcb; gridline-color: #3a2a1f; border: 1px solid #3a2a1f; }
QHeaderView::section { background: #2b1e15; color: #e8c36a; border: 0; padding: 4px; font-weight: bold; }
QPushButton { padding: 0.3em 1em; border-radius: 0.35em; background: #3a2a1f; color: #f4ecdc;
  border: 1px solid #6b5237; }
QPushButton:hover { background: #4e3826; border-color: #e8c36a; }
QPushButton:disabled { background: #241a13; color: #6b5f55; border-color: #3a2f27; }
QComboBox:disabled, QSpinBox:disabled { color: #6b5f55; border-color: #3a2f27; }
QSpinBox { background: #2b1e15; color: #f4ecdc; border: 1px solid #6b5237; padding: 2px 4px; }
QSpinBox::up-button, QSpinBox::down-button { width: 16px; background: #3a2a1f;
  border-left: 1px solid #6b5237; }
QSpinBox::up-button:hover, QSpinBox::down-button:hover { background: #4e3826; }
QProgressBar { background: #0f0a07; color: #f4ecdc; border: 1px solid #6b5237; border-radius: 3px;
  text-align: center; height: 14px; }
QProgressBar::chunk { background: #8a6a2e; border-radius: 2px; }
QComboBox { background: #2b1e15; color: #f4ecdc; border: 1px solid #6b5237; border-radius: 3px;
  padding: 2px 6px; }
QComboBox QAbstractItemView { background: #0f0a07; color: #f4ecdc; selection-background-color: #6b5038; }
"""



def _card(words: Any, cid: str) -> str:
    return words.card_name(cid) if words is not None else cid


def field_label(d: Difference, words: Any = None) -> str:
    """A difference's path in words: ``B — サーヴァントの状態``; cards by name where ``words``
    (``fate_royal.text.Words`` of the compared game) is given."""
    key = d.key
    parts = key.split(".")
    head = parts[0]
    if head == "card_states" and len(parts) > 1:
        text = t("rulings.field.card_states", card=_card(words, ".".join(parts[1:])))
    elif head == "coins" and len(parts) > 1:
        text = t("rulings.field.coins", coin=texts.coin_text(parts[1]))
    elif d.section == "zones":
        text = t("rulings.field.zones", card=_card(words, key))
    else:
        text = t(f"rulings.field.{head}")
        if text.startswith("[rulings."):
            text = key
    return f"{d.player} — {text}" if d.player else text


def _zone_text(item: str) -> str:
    """One place of ``position_summary``'s zones ("A:hand×2", "discard") in words."""
    place, times, count = item.partition("×")
    owner, _, zone = place.rpartition(":")
    term = ZONE_TERMS.get(zone)
    name = t(f"zone.{term}") if term else zone
    if owner:
        if texts.lang() == "en":
            name = name[:1].lower() + name[1:]  # "A's hand"
        name = t("rulings.zone.owned", player=owner, zone=name)
    return f"{name}×{count}" if times else name


def value_text(v: Any, d: Difference | None = None, words: Any = None) -> str:
    """A compared value in words: states, zones, steps and (with ``words``) cards by name."""
    if v is None:
        return "—"
    if isinstance(v, bool):
        return t("rulings.value.yes") if v else t("rulings.value.no")
    if isinstance(v, str):
        if v in STATE_VALUES:
            return texts.state_text(v)
        if ", " in v and all(p in STATE_VALUES for p in v.split(", ")):
            return "、".join(texts.state_text(p) for p in v.split(", "))
        key = d.key if d is not None else ""
        if d is not None and d.section == "zones":
            items = [_zone_text(p) for p in v.split(", ")]
            return words.join(items) if words is not None else ", ".join(items)
        if key == "servant" and "/" in v and words is not None:
            return "／".join(words.card_name(c) for c in v.split("/", 1))
        if key == "step":
            return texts.step_text(v)
        if key == "process":
            return texts.process_text(v)
    return str(v)


def failure_words(play: Any, path: Any) -> str:
    """A ruling's verdict under one set as the sweep lists it: what could not be set up, or the
    first failed step by its file and line (not the folder), the step in words and what went
    otherwise (``text.verdicts``), in the table's language — never the checker's own sentence,
    which names reasons by their codes ("servant_danger")."""
    from fate_royal.qt.demo import step_text
    from fate_royal.text.verdicts import failure_details

    if play.error or not play.failed:
        return localize(play.error, current_language()).replace(str(path), path.name) if play.error else "—"
    res = play.failed[0]
    loc = f"{path.name}:{res.step.line}"
    said = failure_details(res.findings, texts.words(play.game))
    return f"{loc} {step_text(res.step, play.game)}" + (t("rulings.sweep.details", details=said)
                                                        if said else "")


class HighlightTable(TableView):
    """A read-only revealed table that outlines the seats of players whose results differ."""

    def __init__(self, parent: QWidget | None = None) -> None:
        ctl = RevealController()
        super().__init__(ctl, parent)
        ctl.setParent(self)
        self.setMinimumSize(320, 240)
        self.highlight: set[str] = set()  # player names
        self.colour = QColor(OFF_COLOUR)

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().paintEvent(event)
        g = self.controller.game
        if g is None or not self.highlight:
            return
        from PySide6.QtGui import QPainter, QPen

        p = QPainter(self)
        try:
            p.setRenderHint(QPainter.RenderHint.Antialiasing)
            p.scale(self._scale, self._scale)
            for seat in self.seats:
                if g.state.players[seat.player].name in self.highlight:
                    c = QColor(self.colour)
                    for width, alpha in ((14, 50), (7, 120), (3, 255)):
                        c.setAlpha(alpha)
                        p.setPen(QPen(c, width))
                        p.setBrush(Qt.BrushStyle.NoBrush)
                        p.drawRoundedRect(seat.rect.adjusted(-5, -5, 5, 5), 14, 14)
        finally:
            p.end()


class ComparisonWindow(FollowsLanguage, QWidget):
    """Shows a ``Comparison``; ``recompute`` asks its ``source`` callback for a fresh one."""

    rule_clicked = Signal(str)

    def __init__(self, source: Callable[[int | None], Comparison | None], parent: QWidget | None = None,
                 max_steps: int | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.source = source
        self.comparison: Comparison | None = None
        self.setObjectName("comparison")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE + art.marks_style())
        self.setWindowTitle(t("rulings.compare.title"))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 10)
        # the subject's title on a line of its own, the whole width (beside the controls it was
        # squeezed to a character or two per line)
        self.title = QLabel()
        self.title.setWordWrap(True)
        self.title.setStyleSheet("color:#e8c36a; font-weight:bold;")
        lay.addWidget(self.title)
        top = QHBoxLayout()
        self.first_set = QComboBox()
        self.second_set = QComboBox()
        fill_sets(self.first_set, "house")
        fill_sets(self.second_set, "base")
        self.set_labels = (QLabel(t("workbench.compare.first")), QLabel(t("workbench.compare.second")))
        for label, combo in zip(self.set_labels, (self.first_set, self.second_set)):
            top.addWidget(label)
            top.addWidget(combo)
        self.upto_label = QLabel(t("rulings.compare.upto"))
        top.addWidget(self.upto_label)
        self.upto = QSpinBox()
        self.upto.setMinimum(0)
        top.addWidget(self.upto)
        self.scenario: Any = None  # a scenario file picked here (else the source's subject)
        self.scenario_button = QPushButton(t("workbench.compare.scenario"))
        self.scenario_button.clicked.connect(self.scenario_dialog)
        top.addWidget(self.scenario_button)
        self.recompute_button = QPushButton(t("rulings.compare.refresh"))
        self.recompute_button.clicked.connect(lambda: self.recompute())
        top.addWidget(self.recompute_button)
        top.addStretch(1)
        lay.addLayout(top)
        self.set_max_steps(max_steps)
        split = QSplitter(Qt.Orientation.Vertical)
        tables = QWidget()
        row = QHBoxLayout(tables)
        row.setContentsMargins(0, 0, 0, 0)
        self.sides: dict[bool, tuple[QLabel, Any, QLabel]] = {}
        for errata in (True, False):
            col = QVBoxLayout()
            head = QLabel()
            head.setAlignment(Qt.AlignmentFlag.AlignCenter)
            colour = ON_COLOUR if errata else OFF_COLOUR
            head.setStyleSheet(f"color:{colour}; font-weight:bold; border-bottom:2px solid {colour};"
                               " padding:2px;")
            col.addWidget(head)
            view = HighlightTable()
            view.colour = QColor(colour)
            col.addWidget(view, 1)
            note = QLabel()
            note.setWordWrap(True)
            note.setStyleSheet("color:#ff8a80;")
            col.addWidget(note)
            row.addLayout(col, 1)
            self.sides[errata] = (head, view, note)
        split.addWidget(tables)
        bottom = QWidget()
        bl = QVBoxLayout(bottom)
        bl.setContentsMargins(0, 4, 0, 0)
        self.count = QLabel()
        self.count.setStyleSheet("color:#e8c36a; font-weight:bold;")
        bl.addWidget(self.count)
        self.table = QTableWidget(0, 4)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().hide()
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for c in (1, 2):
            self.table.horizontalHeader().setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.cellClicked.connect(self._cell_clicked)
        bl.addWidget(self.table, 1)
        self.rules = QLabel()
        self.rules.setWordWrap(True)
        self.rules.setTextFormat(Qt.TextFormat.RichText)
        self.rules.linkActivated.connect(lambda href: emit(self.rule_clicked, href.split(":", 1)[-1]))
        bl.addWidget(self.rules)
        split.addWidget(bottom)
        split.setSizes([520, 300])
        lay.addWidget(split, 1)
        resize_on_screen(self, 1500, 900)
        # the two tables are drawn small: hovering or holding a card shows it large, as at the table
        from fate_royal.qt.zoom import attach_to_table

        for head, view, note in self.sides.values():
            attach_to_table(view)

    def retranslate(self) -> None:
        """The language changed: every word of the window anew, the comparison worded again."""
        self.setWindowTitle(t("rulings.compare.title"))
        for label, key in zip(self.set_labels, ("workbench.compare.first", "workbench.compare.second")):
            label.setText(t(key))
        self.upto_label.setText(t("rulings.compare.upto"))
        self.scenario_button.setText(t("workbench.compare.scenario"))
        self.recompute_button.setText(t("rulings.compare.refresh"))
        refill_sets(self.first_set)
        refill_sets(self.second_set)
        if self.comparison is None:
            self.set_comparison(None)
        else:
            self.recompute()

    def set_max_steps(self, max_steps: int | None, current: int | None = None) -> None:
        scenario = max_steps is not None
        self.scenario_mode = scenario
        self.upto_label.setVisible(scenario)
        self.upto.setVisible(scenario)
        if scenario:
            self.upto.blockSignals(True)
            self.upto.setMaximum(max_steps)
            self.upto.setValue(max_steps if current is None else current)
            self.upto.blockSignals(False)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        pt = max(9.0, min(18.0, self.height() / 70))
        self.setFont(ui_font(pt))
        self.title.setFont(ui_font(pt * 1.3, bold=True))

    def sets(self) -> tuple[Any, Any]:
        """The two rule sets chosen (first, second)."""
        return self.first_set.currentData(), self.second_set.currentData()

    def set_scenario(self, path: Any) -> Comparison | None:
        """Compare a scenario file (all its steps) instead of the live game or the open demo."""
        from fate_royal.rules.scenario import load_scenario

        self.scenario = load_scenario(path)
        self.set_max_steps(len(self.scenario.steps))
        return self.recompute()

    def scenario_dialog(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        from fate_royal.paths import scenarios_dir

        path, _ = QFileDialog.getOpenFileName(self, t("workbench.compare.scenario"),
                                              str(scenarios_dir() / "rulings"), "YAML (*.yaml)")
        if path:
            try:
                self.set_scenario(path)
            except Exception as exc:  # a broken scenario file: say so, keep the window
                self.title.setText(localize_error(exc, current_language()))

    def recompute(self) -> Comparison | None:
        upto = self.upto.value() if self.scenario_mode else None
        if self.scenario is not None:
            first, second = self.sets()
            comp = compare_rules(self.scenario, first, second, upto,
                                 title=texts.scenario_title(self.scenario))
            self.set_comparison(comp)
            return comp
        import inspect

        try:
            takes_sets = len(inspect.signature(self.source).parameters) >= 3
        except (TypeError, ValueError):
            takes_sets = False
        # a source of two parameters compares the errata on and off only
        comp = self.source(upto, *self.sets()) if takes_sets else self.source(upto)
        self.set_comparison(comp)
        return comp

    def _cell_clicked(self, row: int, col: int) -> None:
        if self.comparison is None or col != 3:
            return
        d = self.comparison.differences[row]
        if d.rules:
            emit(self.rule_clicked, d.rules[0])

    def set_comparison(self, comp: Comparison | None) -> None:
        self.comparison = comp
        if comp is None:
            self.title.setText(t("rulings.compare.none"))
            self.table.setRowCount(0)
            self.count.setText("")
            self.rules.setText("")
            for head, view, note in self.sides.values():
                view.controller.game = None
                note.setText("")
            return
        self.title.setText(f"{t('rulings.compare.title')} — {comp.title}")
        for errata, (head, view, note) in self.sides.items():
            side = comp.side(errata)
            head.setText(texts.rules_title(side.ruleset))
            # a live game's comparison shows what the whole table may see; a scenario, everything
            view.controller.reveal = self.scenario_mode
            view.controller.game = side.game
            view.highlight = {d.player for d in comp.differences if d.player}
            view.update()
            why = localize(side.error, current_language()) if side.error else side.stopped
            if side.refused and side.game is not None:  # in words, the table's language
                r = side.refused
                words = texts.words(side.game)
                why = t("rulings.compare.refused", number=r["number"],
                        player=side.game.player_name(r["action"].player),
                        action=words.action(side.game, r["action"]), rules=texts.rules_title(side.ruleset),
                        reason=words.reason(r["reason"], replayed=True)) + (f" [{r['rule']}]" if r["rule"] else "")
            note.setText(t("rulings.compare.stopped", why=why) if why else "")
            note.setVisible(bool(why))
        self.count.setText(t("rulings.compare.count", count=len(comp.differences)) if comp.differences
                           else t("rulings.compare.same"))
        self.table.setHorizontalHeaderLabels([t("rulings.compare.what"),
                                              texts.rules_title(comp.on.ruleset),
                                              texts.rules_title(comp.off.ruleset),
                                              t("rulings.compare.rules")])
        self.table.setRowCount(len(comp.differences))
        bold = QFont(self.font())
        bold.setBold(True)
        game = comp.on.game or comp.off.game
        words = texts.words(game) if game is not None else None
        for r, d in enumerate(comp.differences):
            cells = [field_label(d, words), value_text(d.on, d, words), value_text(d.off, d, words),
                     "  ".join(d.rules)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(d.path if c == 0 else text)
                if c == 1:
                    item.setForeground(QColor(ON_COLOUR))
                    item.setBackground(QColor(40, 90, 60, 110))
                    item.setFont(bold)
                elif c == 2:
                    item.setForeground(QColor(OFF_COLOUR))
                    item.setBackground(QColor(110, 60, 20, 110))
                    item.setFont(bold)
                elif c == 3:
                    item.setForeground(QColor("#8fc7ff"))
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()
        parts = []
        if comp.rules_only_on:
            parts.append(f"<span style='color:{ON_COLOUR}'>{html.escape(t('rulings.compare.only_on'))}</span>"
                         + rule_chips(comp.rules_only_on))
        if comp.rules_only_off:
            parts.append(f"<span style='color:{OFF_COLOUR}'>{html.escape(t('rulings.compare.only_off'))}</span>"
                         + rule_chips(comp.rules_only_off))
        self.rules.setText("<br>".join(parts))

    def rows(self) -> list[list[str]]:
        """The difference table as text (for tests)."""
        return [[self.table.item(r, c).text() for c in range(self.table.columnCount())]
                for r in range(self.table.rowCount())]


def fill_sets(combo: QComboBox, select: str | None = None, folder: Any = None) -> None:
    """Every rule set one may pick (shipped, then the user's), ``select`` chosen by name."""
    from fate_royal.cards.rulesets import available_rulesets

    combo.clear()
    for key, rules, _problem in available_rulesets(folder):
        if rules is not None:
            combo.addItem(texts.rules_title(rules), rules)
            if select is not None and select in (key, rules.name):
                combo.setCurrentIndex(combo.count() - 1)


def refill_sets(combo: QComboBox, folder: Any = None) -> None:
    """``fill_sets`` again (the titles in the language now), the same set still chosen."""
    chosen = combo.currentData()
    combo.blockSignals(True)
    try:
        fill_sets(combo, getattr(chosen, "name", None), folder)
    finally:
        combo.blockSignals(False)


def comparison_for(controller: Any, demo_state: Any) -> Callable[..., Comparison | None]:
    """The comparison source of the main window: the open scenario (up to a step) or the live game,
    under two rule sets (None, None: the house errata and the base rules)."""

    def source(upto: int | None, first: Any = None, second: Any = None) -> Comparison | None:
        s = getattr(demo_state, "session", None)
        scenario = s is not None and getattr(s, "kind", "") == "scenario"
        g = controller.game
        if not scenario and g is None:
            return None
        if first is None or second is None:
            if scenario:
                return compare_errata(s.scenario, s.total if upto is None else upto, root=s.root,
                                      title=texts.scenario_title(s.scenario))
            return compare_errata(g, title=t("rulings.compare.current"))
        if scenario:
            return compare_rules(s.scenario, first, second, s.total if upto is None else upto,
                                 root=s.root, title=texts.scenario_title(s.scenario))
        return compare_rules(g, first, second, title=t("rulings.compare.current"))

    return source


class SweepWindow(FollowsLanguage, QWidget):
    """The ruling sweep: every ruling scenario under set A and set B; the rulings whose outcome
    changes, each with both verdicts and the first log line that differs."""

    def __init__(self, parent: QWidget | None = None, files: Any = None, folder: Any = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        from fate_royal.paths import scenarios_dir

        self.files = files if files is not None else sorted((scenarios_dir() / "rulings").glob("*.yaml"))
        self.entries: list = []
        self.setObjectName("comparison")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(STYLE + art.marks_style())
        self.setWindowTitle(t("workbench.sweep.title"))
        lay = QVBoxLayout(self)
        top = QHBoxLayout()
        self.first_set = QComboBox()
        self.second_set = QComboBox()
        self.folder = folder
        fill_sets(self.first_set, "house", folder)
        fill_sets(self.second_set, "base", folder)
        self.set_labels = (QLabel(t("workbench.sweep.first")), QLabel(t("workbench.sweep.second")))
        for label, combo in zip(self.set_labels, (self.first_set, self.second_set)):
            top.addWidget(label)
            top.addWidget(combo, 1)
        # measured as drawn (a child of this window, polished with its style sheet's padding:
        # measured bare, the window's narrowest size cut the label to 「括比較を実」)
        self.run_button = QPushButton(self)
        self._size_run_button()
        self.run_button.setText(t("workbench.sweep.run"))
        self.run_button.clicked.connect(self._button)
        top.addWidget(self.run_button)
        lay.addLayout(top)
        self.summary = QLabel()
        self.summary.setStyleSheet("color:#e8c36a; font-weight:bold;")
        self.summary.setWordWrap(True)
        # before the first run: what the button will do (the table is empty until then)
        self._say(lambda: t("workbench.sweep.hint", files=len(self.files)))
        lay.addWidget(self.summary)
        self.progress = QProgressBar()
        self.progress.setRange(0, max(1, len(self.files)))
        self.progress.hide()
        lay.addWidget(self.progress)
        # a sweep started with the button: one ruling per turn of the event loop, so the window
        # stays live (a few seconds for the shipped rulings) and the sweep can be stopped
        self._running: dict[str, Any] | None = None
        self._titles: dict[Any, str] = {}
        self.table = QTableWidget(0, 3)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setWordWrap(True)
        self.table.verticalHeader().hide()
        head = self.table.horizontalHeader()
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)  # titles wrap in their rows
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        head.resizeSection(0, 380)
        self._head_labels()
        lay.addWidget(self.table, 1)
        resize_on_screen(self, 1400, 860)

    def _size_run_button(self) -> None:
        # measured as drawn (a child of this window, polished with its style sheet's padding:
        # measured bare, the window's narrowest size cut the label to 「括比較を実」), as wide as its
        # wider label, so that neither is cut when the other was laid out
        b = self.run_button
        b.ensurePolished()
        b.setMinimumWidth(0)
        widths = []
        for key in ("workbench.sweep.stop", "workbench.sweep.run"):
            b.setText(t(key))
            widths.append(b.sizeHint().width())
        b.setMinimumWidth(max(widths))
        running = getattr(self, "_running", None) is not None
        b.setText(t("workbench.sweep.stop" if running else "workbench.sweep.run"))

    def _head_labels(self) -> None:
        self.table.setHorizontalHeaderLabels([t("workbench.sweep.col_file"),
                                              t("workbench.sweep.col_verdicts"),
                                              t("workbench.sweep.col_line")])

    def _say(self, words: Callable[[], str]) -> None:
        """The summary line, kept as its wording so that a change of language says it anew."""
        self._summary = words
        self.summary.setText(words())

    def retranslate(self) -> None:
        """The language changed: every word of the window anew, the listed rulings too."""
        self.setWindowTitle(t("workbench.sweep.title"))
        for label, key in zip(self.set_labels, ("workbench.sweep.first", "workbench.sweep.second")):
            label.setText(t(key))
        self._size_run_button()
        self._head_labels()
        refill_sets(self.first_set, self.folder)
        refill_sets(self.second_set, self.folder)
        self._say(self._summary)
        if self.entries:
            self._note_titles(self.entries)
            self._fill_rows()

    def run(self, first: Any = None, second: Any = None) -> list:
        """Run the whole sweep now (under the chosen sets, or ``first``/``second``) and show it;
        the button runs it a ruling at a time instead (``start``)."""
        from PySide6.QtGui import QGuiApplication

        from fate_royal.rules.compare import ruling_sweep

        self.stop()
        a = first if first is not None else self.first_set.currentData()
        b = second if second is not None else self.second_set.currentData()
        QGuiApplication.setOverrideCursor(Qt.CursorShape.WaitCursor)
        try:
            self.entries = ruling_sweep(self.files, a, b)
            self._note_titles(self.entries)
        finally:
            QGuiApplication.restoreOverrideCursor()
        return self._show(a, b)

    def _note_titles(self, entries: list) -> None:
        """The title of each listed ruling in the UI language (the sweep keeps the Japanese one)."""
        from fate_royal.rules.scenario import load_scenario

        for e in entries:
            key = (e.path, texts.lang())
            if key not in self._titles:
                try:
                    self._titles[key] = texts.scenario_title(load_scenario(e.path)) or e.title
                except Exception:  # a file that broke since: its name is in the first column
                    self._titles[key] = e.title

    def running(self) -> bool:
        return self._running is not None

    def _button(self) -> None:
        if self.running():
            self.stop(cancelled=True)
        else:
            self.start()

    def start(self, first: Any = None, second: Any = None) -> None:
        """Start the sweep a ruling at a time: the progress bar moves, the button stops it."""
        self.stop()
        a = first if first is not None else self.first_set.currentData()
        b = second if second is not None else self.second_set.currentData()
        self._running = {"a": a, "b": b, "next": 0, "found": []}
        self.table.setRowCount(0)
        self.progress.setValue(0)
        self.progress.show()
        for combo in (self.first_set, self.second_set):
            combo.setEnabled(False)
        self.run_button.setText(t("workbench.sweep.stop"))
        self._progress_text()
        QTimer.singleShot(0, self._step)

    def _progress_text(self) -> None:
        r = self._running
        assert r is not None
        done, changed = r["next"], len(r["found"])
        self._say(lambda: t("workbench.sweep.progress", done=done, files=len(self.files), changed=changed))

    def _step(self) -> None:
        from fate_royal.rules.compare import ruling_sweep

        r = self._running
        if r is None:  # stopped
            return
        if r["next"] < len(self.files):
            found = ruling_sweep([self.files[r["next"]]], r["a"], r["b"])
            self._note_titles(found)
            r["found"] += found
            r["next"] += 1
            if found:  # the table grows as the rulings are played, not only at the end
                self.entries = r["found"]
                self._fill_rows()
            self.progress.setValue(r["next"])
            self._progress_text()
            QTimer.singleShot(0, self._step)
            return
        self.entries = r["found"]
        self.stop()
        self._show(r["a"], r["b"])

    def stop(self, cancelled: bool = False) -> None:
        """End a sweep started with the button (``cancelled``: said so, the table left empty)."""
        r, self._running = self._running, None
        self.progress.hide()
        for combo in (self.first_set, self.second_set):
            combo.setEnabled(True)
        self.run_button.setText(t("workbench.sweep.run"))
        if r is not None and cancelled:
            done = r["next"]
            self._say(lambda: t("workbench.sweep.stopped", done=done, files=len(self.files)))

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        self.stop(cancelled=True)
        super().closeEvent(event)

    def _show(self, a: Any, b: Any) -> list:
        changed = len(self.entries)
        self._say(lambda: t("workbench.sweep.summary", files=len(self.files), changed=changed,
                            a=texts.rules_title(a), b=texts.rules_title(b)))
        self._fill_rows()
        return self.entries

    def _fill_rows(self) -> None:
        verdict = lambda ok: t("workbench.sweep.passes") if ok else t("workbench.sweep.fails")  # noqa: E731
        self.table.setRowCount(len(self.entries))
        for r, e in enumerate(self.entries):
            said = []
            for first_side in (True, False):
                play = e.first if first_side else e.second
                ev = e.event(first_side)
                said.append((texts.words(play.game).event(ev), ev) if ev is not None
                            else (failure_words(play, e.path), None))
            if said[0][0] == said[1][0]:  # the same words: the lines differ in the rules they cite
                said = [(f"{text}  [{' '.join(ev.rules) or '—'}]" if ev is not None else text, ev)
                        for text, ev in said]
            lines = [f"{side}: {text}" for side, (text, _ev) in zip("AB", said)]
            line_no = f"#{e.index + 1}  " if e.index is not None else ""
            # the ruling by its rule id and its title in the table's language (the file in the tooltip)
            title = self._titles.get((e.path, texts.lang()), e.title)
            cells = [f"{e.path.stem.split('-', 1)[0]}  {title}", f"{verdict(e.first.ok)} / {verdict(e.second.ok)}",
                     line_no + "\n".join(lines)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(f"{e.path}\n{title}" if c == 0 else text)
                if c == 1:
                    item.setForeground(QColor(ON_COLOUR if e.first.ok else OFF_COLOUR))
                self.table.setItem(r, c, item)
        self.table.resizeRowsToContents()

    def changed_files(self) -> list[str]:
        return [e.path.name for e in self.entries]
