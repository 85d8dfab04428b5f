"""The side panels: actions, stack, log with rule links, the rule text, and the message bar.

Each panel observes the controller and redraws from the game; the action panel hands the chosen
action back to the controller. No rules logic here.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QUrl, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter, QTextCursor, QTextOption
from PySide6.QtWidgets import (
    QFrame, QGroupBox, QHBoxLayout, QLabel, QPushButton, QScrollArea, QSizePolicy, QTextBrowser,
    QToolButton, QVBoxLayout, QWidget,
)

from fate_royal.qt.compat import emit
from fate_royal.qt import texts
from fate_royal.qt.i18n import current_language, tr
from fate_royal.rules.actions import Action, CommandSpell

RULE_SCHEME = "rule"
_ASK_PRIVATELY = object()  # the "look at my cards first" button of a decision on the table
#: the buttons for watching computers play: pause / resume, and one move while paused
_PAUSE, _STEP = object(), object()

BUTTON_STYLE = """
QPushButton { text-align: left; padding: 0.28em 0.6em; border-radius: 0.35em;
  background: #3a2a1f; color: #f4ecdc; border: 1px solid #6b5237; }
QPushButton:hover { background: #4e3826; border-color: #e8c36a; }
QPushButton[group="pass"] { background: #1f3b33; border-color: #4f8f78; font-weight: bold; }
QPushButton[group="pass"]:hover { background: #29503f; }
QPushButton[group="decision"] { background: #243a57; border-color: #6fa8ff; }
QPushButton[group="raid"] { background: #5a1f1b; border-color: #ff5a4f; }
QPushButton[group="spell"] { background: #3b1f3f; border-color: #b36bc0; }
QPushButton[blocked="true"] { background: #2a2624; color: #9b8f84; border: 1px dashed #6b5f55; }
QPushButton[keyboard="true"] { border: 2px solid #ffe066; }
"""


def rule_links(rules: tuple[str, ...] | list[str]) -> str:
    return " ".join(f'<a href="{RULE_SCHEME}:{html.escape(r)}" style="color:#8fc7ff">{html.escape(r)}</a>'
                    for r in rules)


class ActionButton(QPushButton):
    """An action's button: its full text on up to three lines (two at a natural seam where they
    hold it: long player names need the third, or the place that tells two actions apart is
    cut), broken where the language allows (Japanese between characters, never inside a word),
    and only then elided with "…"; the full text is the tooltip. ``text()`` is the full text.
    Hovering it reports ``hovered(True/False)``."""

    hovered = Signal(bool)
    LINES = 3

    def __init__(self) -> None:
        super().__init__()
        self._full = ""
        self._shown_for: tuple = ()

    def set_label(self, text: str) -> None:
        if text != self._full:
            self._full = text
            self.setToolTip(text)
            self._shown_for = ()
            self._fit()

    def text(self) -> str:  # noqa: D401 - Qt name
        return self._full

    def shown_text(self) -> str:
        """What the button shows now (wrapped and possibly elided)."""
        return super().text()

    def _fit(self) -> None:
        fm = self.fontMetrics()
        width = max(40, self.width() - int(fm.averageCharWidth() * 2.4) - 8)
        key = (self._full, width, self.font().key())
        if key == self._shown_for:
            return
        self._shown_for = key
        super().setText(wrap_lines(self._full, self.font(), width, self.LINES))

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit()

    def enterEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().enterEvent(event)
        emit(self.hovered, True)

    def leaveEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().leaveEvent(event)
        emit(self.hovered, False)


def wrap_lines(text: str, font: Any, width: float, max_lines: int,
               seams: tuple[str, ...] = (" → ", "［", "：")) -> str:
    """``text`` broken into as few lines of ``width`` pixels as hold it, at most ``max_lines``: at
    its natural seams (before the target "→", before the place "［", after "令呪：") where the
    pieces then fit, else at the language's line break opportunities with the lines balanced (no
    word left alone at the end); the last line elided with "…" only if text still remains."""
    lines, _whole = _wrap(text, font, width, max_lines, seams)
    return "\n".join(lines)


def _wrap(text: str, font: Any, width: float, max_lines: int, seams: tuple[str, ...]) -> tuple[list[str], bool]:
    """wrap_lines' lines, and whether they hold the whole text (nothing elided): the fewest lines
    that hold it, at the seams where they can, else at the language's breaks."""
    from PySide6.QtGui import QFontMetricsF

    fm = QFontMetricsF(font)
    if fm.horizontalAdvance(text) <= width:
        return [text], True
    for n in range(2, max_lines + 1):
        # a natural seam first, the piece before it on a line of its own, the rest wrapped the same
        # way in the lines left (so a place stays whole on its own line)
        best = None
        for seam in seams:
            k = text.rfind(seam)
            if k <= 0:
                continue
            cut = k + len(seam) if seam == "：" else k
            head, tail = text[:cut].rstrip(), text[cut:].strip()
            if fm.horizontalAdvance(head) > width:
                continue
            rest, whole = _wrap(tail, font, width, n - 1, seams)
            if whole and (best is None or len(rest) + 1 < len(best)):
                best = [head, *rest]
        if best is not None:
            return best, True
        lines, whole, cuts_word = _balanced(text, font, width, n)
        if whole and not cuts_word:
            return lines, True
    # no way without breaking a word (a name in katakana, a word in Latin letters): the fewest lines
    for n in range(2, max_lines + 1):
        lines, whole, _cut = _balanced(text, font, width, n)
        if whole:
            return lines, True
    lines, whole, _cut = _balanced(text, font, width, max_lines)
    return lines, whole


def _word_letter(c: str) -> bool:
    """A letter of a word that is not broken across lines: katakana (and its ー; not the ・ between
    words), Latin letters and digits, half- or full-width."""
    return (("\u30a0" <= c <= "\u30ff") and c != "・") or (c.isascii() and c.isalnum()) \
        or ("\uff10" <= c <= "\uff5a") or ("\uff66" <= c <= "\uff9f")


def _inside_word(line: str, following: str) -> bool:
    """Whether the break between ``line`` and the ``following`` one cuts a word in two."""
    return bool(line) and bool(following) and _word_letter(line[-1]) and _word_letter(following[0])


def _balanced(text: str, font: Any, width: float, max_lines: int) -> tuple[list[str], bool, bool]:
    """``text`` at the language's line breaks in at most ``max_lines`` lines, balanced (the
    narrowest width that needs no more lines, so no word such as 「1枚目」 is left alone at the end
    of a full line); the last line elided with "…" if text remains. Also returned: whether the text
    is whole, and whether a break still falls inside a word (told on the pieces as cut from the
    text, before their spaces are trimmed: "with a" / "Servant" is a break between two words)."""
    from PySide6.QtGui import QFontMetricsF, QTextLayout, QTextOption

    def breaks(w: float) -> list[tuple[int, int]]:
        layout = QTextLayout(text, font)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        layout.setTextOption(option)
        layout.beginLayout()
        starts = []
        while True:
            line = layout.createLine()
            if not line.isValid():
                break
            line.setLineWidth(w)
            starts.append((line.textStart(), line.textLength()))
        layout.endLayout()
        return starts

    starts = breaks(width)
    if 1 < len(starts) <= max_lines:
        lo, hi = width / 2, width
        for _ in range(8):
            mid = (lo + hi) / 2
            if len(breaks(mid)) <= len(starts):
                hi = mid
            else:
                lo = mid
        starts = breaks(hi)
    pieces = [text[a:a + n] for a, n in starts[:max_lines]]  # (a break at a space ends in it)
    fm = QFontMetricsF(font)
    if len(starts) > max_lines:
        lines = [p.strip() for p in pieces]
        rest = text[starts[max_lines - 1][0]:].strip()
        lines[-1] = fm.elidedText(rest, Qt.TextElideMode.ElideRight, width)
        return lines, False, False
    # a break inside a word moves back to the word's start (after "・" or a space) where the next
    # line still has room: 「アルトリア・ペ / ンドラゴン」 becomes 「アルトリア・ / ペンドラゴン」
    for i in range(len(pieces) - 1):
        if not _inside_word(pieces[i], pieces[i + 1]):
            continue
        cut = max(pieces[i].rfind(c) for c in "・ 　")
        if cut >= len(pieces[i]) // 3:
            moved = pieces[i][cut + 1:] + pieces[i + 1]
            if fm.horizontalAdvance(moved.strip()) <= width:
                pieces[i], pieces[i + 1] = pieces[i][:cut + 1], moved
    cuts_word = any(_inside_word(a, b) for a, b in zip(pieces, pieces[1:]))
    return [p.strip() for p in pieces], True, cuts_word


def card_place(ctrl: Any, uid: int) -> str:
    """Where a card the viewer may see lies, in words ("手札の2枚目", "サーヴァントの座"), to tell
    two copies of one card apart."""
    v = ctrl.table_view()
    if v is None:
        return ""
    for sv in v.players:
        for k, cv in enumerate(sv.hand):
            if cv.uid == uid:
                return tr("action.place.hand", number=k + 1)
        for k, cv in enumerate(sv.seat):
            if cv.uid == uid:
                return tr("action.place.seat", number=k + 1)
        for cv in (sv.hero, sv.klass):
            if cv is not None and cv.uid == uid:
                return tr("action.place.servant")
    return ""


def distinct_labels(ctrl: Any, game: Any, actions: list[Action]) -> dict[Action, str]:
    """Each action's text; where two would read the same (two copies of a card), each names the
    card's place."""
    labels = {a: texts.action_label(game, a) for a in actions}
    seen: dict[str, list[Action]] = {}
    for a, text in labels.items():
        seen.setdefault(text, []).append(a)
    for text, same in seen.items():
        if len(same) < 2:
            continue
        for a in same:
            uid = getattr(a, "card", None)
            place = card_place(ctrl, uid) if isinstance(uid, int) and uid >= 0 else ""
            if place:
                labels[a] = f"{text}［{place}］"
    return labels


def _with_key(text: str, key: str) -> str:
    return f"{text}   ({key})" if key else text


class ActionPanel(QWidget):
    """Every legal action of the deciding player as a button, grouped; numbers 1–9 pick them, and
    the keyboard cursor (↑/↓, then Enter or Space) reaches every one, the tenth and later too.
    Hovering a button, or the cursor on it, reports its action (``action_hovered``: the table
    highlights its card and targets); None when the pointer leaves."""

    action_hovered = Signal(object)

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.buttons: list[tuple[QPushButton, Action]] = []
        self.blocked_buttons: list[tuple[QPushButton, Action]] = []
        self.watch_buttons: list[QPushButton] = []  # pause / resume, next move (computers play)
        self.private_button: QPushButton | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.header = QLabel()
        self.header.setWordWrap(True)
        self.header.setStyleSheet("color:#5fd4ff; font-weight:bold;")
        # a fixed two-line height: a word-wrapped label whose height follows its text makes every
        # new text re-lay out the whole window (most of an action's repaint time)
        self.header.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._fit_header()
        outer.addWidget(self.header)
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        outer.addWidget(self.scroll, 1)
        # The buttons and titles are kept and reused from one refresh to the next: creating and
        # style-polishing a dozen widgets after every action was most of the time an action took.
        self._inner = QWidget()
        self._lay = QVBoxLayout(self._inner)
        self._lay.setContentsMargins(2, 2, 6, 2)
        self._lay.setSpacing(3)
        self.scroll.setWidget(self._inner)
        self._button_pool: list[QPushButton] = []
        self._title_pool: list[QLabel] = []
        self._action_of: dict[int, Action] = {}
        self.cursor: int | None = None  # the keyboard cursor: an index into ``buttons``
        self.setStyleSheet(BUTTON_STYLE)

    def _fit_header(self) -> None:
        self.header.setFixedHeight(int(self.header.fontMetrics().lineSpacing() * 2.3) + 4)

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == event.Type.FontChange:
            self._fit_header()

    def _take_button(self, n: int, text: str, action: Action, group: str = "", blocked: bool = False) -> QPushButton:
        if n < len(self._button_pool):
            b = self._button_pool[n]
        else:
            b = ActionButton()
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
            b.clicked.connect(lambda _=False, button=b: self._clicked(button))
            b.hovered.connect(lambda on, button=b: self._hovered(button, on))
            self._button_pool.append(b)
        b.set_label(text)
        new_group, new_blocked = group or None, "true" if blocked else None
        if b.property("group") != new_group or b.property("blocked") != new_blocked:
            b.setProperty("group", new_group)
            b.setProperty("blocked", new_blocked)
            b.style().unpolish(b)
            b.style().polish(b)
        self._action_of[id(b)] = action
        self._lay.addWidget(b)
        b.show()
        return b

    def _take_title(self, n: int, text: str, color: str) -> None:
        if n < len(self._title_pool):
            label = self._title_pool[n]
        else:
            label = QLabel()
            self._title_pool.append(label)
        label.setText(text)
        label.setStyleSheet(f"color:{color}; font-weight:bold; margin-top:0.3em;")
        self._lay.addWidget(label)
        label.show()

    def _seats_menu(self) -> Any:
        """The window's Seats menu (its pause and next-move actions), or None."""
        return getattr(self.window(), "menu_seats", None)

    def _key(self, name: str) -> str:
        """The key of the window's computer-seats action ``name`` as the user set it."""
        action = getattr(self._seats_menu(), name, None)
        if action is None or action.shortcut().isEmpty():
            return ""
        return action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)

    def _hovered(self, button: QPushButton, on: bool) -> None:
        action = self._action_of.get(id(button)) if on else None
        emit(self.action_hovered, action if isinstance(action, Action) else None)

    def _clicked(self, button: QPushButton) -> None:
        action = self._action_of.get(id(button))
        if action is _ASK_PRIVATELY:
            self.controller.ask_privately()
        elif action is _PAUSE or action is _STEP:
            menu = self._seats_menu()
            if menu is not None:  # through the menu's actions: its tick and the keys agree
                if action is _PAUSE:
                    menu.act_pause.toggle()
                else:
                    menu.act_step.trigger()
        elif action is not None:
            self.controller.submit(action)

    def refresh(self) -> None:
        ctrl = self.controller
        g = ctrl.game
        # first the plan (what to show), then the widgets: when the plan reads as before (another
        # player passing), the buttons stay where they are and only learn their new actions
        plan: list[tuple] = []  # ("title", text, colour) | ("button", text, action, group, blocked, role)
        self.private_button = None
        if g is None:
            self.header.setText("")
        elif g.state.over:
            out = g.outcome()
            self.header.setText(tr("gameover.winner", name=out.winner_name) if out and out.winner_name
                                else tr("gameover.no_winner"))
        elif ctrl.handoff_needed():
            self.header.setText(tr("handoff.hidden"))
        elif ctrl.shared_prompt() is not None:
            self.header.setText(tr("prompt.shared.question"))
        else:
            prompt = getattr(ctrl, "prompt", None)
            kind = getattr(prompt, "kind", "")
            if kind == "on_table":
                self.header.setText(tr("prompt.on_table", name=g.player_name(prompt.player),
                                       what=texts.tr_or(f"prompt.on_table.{prompt.reason}",
                                                        prompt.reason)))
            elif kind == "computer":
                seats = getattr(ctrl, "computers", None)
                paused = bool(getattr(seats, "paused", False))
                thinking = seats is not None and seats.thinking_seat() is not None
                key = "prompt.computer_paused" if paused and not thinking else "prompt.computer"
                self.header.setText(tr(key, name=g.player_name(prompt.player)))
                plan.append(("button", _with_key(tr("computer.resume_button" if paused
                                                    else "computer.pause_button"), self._key("act_pause")),
                             _PAUSE, "decision", False, "watch"))
                if paused:
                    plan.append(("button", _with_key(tr("computer.step_button"), self._key("act_step")),
                                 _STEP, "decision", False, "watch"))
            else:
                self.header.setText(texts.pending_text(g))
            actions = ctrl.legal_actions()
            groups: dict[str, list[Action]] = {}
            for a in actions:
                groups.setdefault(texts.action_group(a), []).append(a)
            # prefer non-spell actions first within the panel; spells last
            n = 0
            labels = distinct_labels(ctrl, g, actions)
            for group in texts.GROUPS:
                items = groups.get(group)
                if not items:
                    continue
                if group != "pass":
                    plan.append(("title", texts.group_title(group), "#e8c36a"))
                for a in items:
                    n += 1
                    label = labels[a]
                    if group == "pass":
                        label += "   (Space)"
                    if n <= 9:
                        label = f"{n}  {label}"
                    plan.append(("button", label, a, group, False, "legal"))
            if kind == "on_table":  # the player may look at their own cards first
                plan.append(("button", tr("prompt.private_button"), _ASK_PRIVATELY, "decision", False,
                             "private"))
            blocked = ctrl.blocked_raids()
            if blocked:
                plan.append(("title", texts.tr_or("table.group.unavailable", "Not allowed now"), "#9b8f84"))
                for a, reason, rule in blocked:
                    text = (f"✕ {texts.action_label(g, a)} — {texts.reason_text(reason)}"
                            + (f" ({rule})" if rule else ""))
                    plan.append(("button", text, a, "", True, "blocked"))
        self._apply(plan)

    def _apply(self, plan: list[tuple]) -> None:
        self._set_cursor(None)  # new actions: the cursor starts again
        signature = [p[:2] + p[3:] if p[0] == "button" else p for p in plan]
        same = signature == getattr(self, "_signature", None)
        self._signature = signature
        self.buttons, self.blocked_buttons, self.watch_buttons = [], [], []
        self._action_of = {}
        self.private_button = None
        if not same:
            while self._lay.count():  # take everything out; the widgets stay for reuse
                self._lay.takeAt(0)
            for w in self._button_pool + self._title_pool:
                w.hide()
        used_buttons = used_titles = 0
        for p in plan:
            if p[0] == "title":
                if not same:
                    self._take_title(used_titles, p[1], p[2])
                used_titles += 1
                continue
            _kind, text, action, group, blocked, role = p
            if same:
                b = self._button_pool[used_buttons]
                self._action_of[id(b)] = action
            else:
                b = self._take_button(used_buttons, text, action, group, blocked=blocked)
            used_buttons += 1
            if role == "legal":
                self.buttons.append((b, action))
            elif role == "blocked":
                self.blocked_buttons.append((b, action))
            elif role == "watch":
                self.watch_buttons.append(b)
            else:
                self.private_button = b
        if not same:
            self._lay.addStretch(1)

    def _set_cursor(self, index: int | None) -> None:
        old = self.cursor
        self.cursor = index
        for i in {old, index} - {None}:
            if i < len(self.buttons):
                b = self.buttons[i][0]
                b.setProperty("keyboard", "true" if i == index else None)
                b.style().unpolish(b)
                b.style().polish(b)
        if index is not None:
            b, action = self.buttons[index]
            self.scroll.ensureWidgetVisible(b)
            emit(self.action_hovered, action)
        elif old is not None:
            emit(self.action_hovered, None)

    def move_cursor(self, step: int) -> bool:
        """Move the keyboard cursor ``step`` buttons down (up when negative); the first press
        lands on the first (or last) action. False when there is no action to move over."""
        if not self.buttons:
            return False
        if self.cursor is None:
            index = 0 if step > 0 else len(self.buttons) - 1
        else:
            index = max(0, min(len(self.buttons) - 1, self.cursor + step))
        self._set_cursor(index)
        return True

    def activate_cursor(self) -> bool:
        """Click the action under the keyboard cursor; False when the cursor is on none."""
        if self.cursor is None or self.cursor >= len(self.buttons):
            return False
        return self.trigger(self.cursor)

    def trigger(self, index: int) -> bool:
        """Click the ``index``-th (0-based) legal action's button."""
        if 0 <= index < len(self.buttons):
            self.buttons[index][0].click()
            return True
        return False

    def non_spell_buttons(self) -> list[tuple[QPushButton, Action]]:
        return [(b, a) for b, a in self.buttons if not isinstance(a, CommandSpell)]


CARD_SCHEME = "card"
PASS_CODES = ("Passed", "AutoPassed")  # folded into one line per run


def _joined(name: str) -> str:
    """A short name whose letters may not be broken apart at a line end (word joiners)."""
    return "\u2060".join(name) if len(name) <= 12 else name


def card_link(card_id: str, text: str) -> str:
    """A card's name as a link the zoom follows on hover (``card:H-012``)."""
    return (f'<a href="{CARD_SCHEME}:{html.escape(card_id)}" style="color:#ffe3a3; text-decoration:none">'
            f"{html.escape(text)}</a>")


class StackPanel(QTextBrowser):
    """The stack, top first, each entry numbered as the negation buttons name it ("#2"), and who
    holds priority. Bounded in height (it scrolls), so that the actions above stay visible;
    hovering an effect's name shows its card in the zoom (``card_hovered``)."""

    card_hovered = Signal(str)  # a card id, or "" when the pointer leaves a name
    MAX_LINES = 6

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setStyleSheet("QTextBrowser { background: transparent; border: none; }")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.highlighted.connect(lambda url: emit(self.card_hovered, url.path()
                                                  if url.scheme() == CARD_SCHEME else ""))
        self._html = None
        self._height = 0
        self.highlighted_entries: frozenset = frozenset()

    def set_highlight(self, action: Any) -> None:
        """Light the stack entries an action answers (a negation's target), None for none."""
        entries = frozenset()
        if action is not None and self.controller.game is not None:
            from fate_royal.qt.table import action_marks

            entries = action_marks(self.controller.game, action).stack
        if entries != self.highlighted_entries:
            self.highlighted_entries = entries
            self.refresh()

    def text(self) -> str:
        return self.toPlainText()

    def rows(self) -> list[str]:
        """The entries as plain lines, top first (tests and the hover highlight read them)."""
        return [line for line in self.toPlainText().splitlines() if line.startswith("#")]

    def refresh(self) -> None:
        g = self.controller.game
        if g is None:
            self._set("")
            return
        v = self.controller.table_view()
        w = texts.words(g)
        raw = g.state.stack
        rows = []
        for pos in range(len(v.stack) - 1, -1, -1):
            item = v.stack[pos]
            who = html.escape(_joined(v.players[item.player].name))
            card = g.db.cards.get(item.card_id) if item.card_id else None
            if card is None:
                what = html.escape(texts.tr_or("table.command_spell_item", "command spell"))
                src = ""
            else:
                eff = card.effects[item.effect - 1]
                what = card_link(card.id, w.effect_name(eff))
                src = card_link(card.id, w.card_name(card))
            tg = ""
            if item.targets and card is not None and pos < len(raw) and raw[pos].card >= 0:
                try:
                    from fate_royal.rules.actions import UseEffect

                    it = raw[pos]
                    tg = " → " + html.escape(texts.targets_text(g, UseEffect(it.player, it.card, it.effect,
                                                                            tuple(it.targets))))
                except Exception:
                    tg = ""
            neg = (f" <span style='color:#ff8a80'>[{html.escape(texts.tr_or('table.negated', 'negated'))}]</span>"
                   if item.negated else "")
            style = "text-decoration: line-through;" if item.negated else ""
            if pos in self.highlighted_entries:  # the hovered action answers this entry
                style += " background-color:#5a4a12;"
            def nw(markup: str) -> str:  # a name is never broken across lines
                return "<span style='white-space:nowrap'>" + markup + "</span>"

            rows.append(f"<div style='{style}'>{nw(f'<b>#{pos + 1}</b> <b>{what}</b>')} "
                        f"<span style='color:#c9bda6'>{nw(src)} {nw(f'({who})')}</span>"
                        f"{nw(tg) if tg else ''}{neg}</div>")
        if not rows:
            rows.append(f"<div style='color:#9b8f84'>{html.escape(tr('panel.stack.empty'))}</div>")
        pend = texts.pending_text(g)
        if pend:
            rows.append(f"<div style='color:#5fd4ff; margin-top:4px'><b>{html.escape(pend)}</b></div>")
        self._set("".join(rows))

    def _set(self, markup: str) -> None:
        if markup == self._html:
            return
        self._html = markup
        self.setHtml(markup)
        self._fit()

    def _fit(self) -> None:
        """As tall as the entries, at most MAX_LINES lines (then it scrolls)."""
        doc = self.document()
        doc.setTextWidth(max(50, self.viewport().width()))
        line = self.fontMetrics().lineSpacing()
        h = int(min(doc.size().height(), line * self.MAX_LINES + 8)) + 4
        h = max(h, line * 2 + 8)
        if h != self._height:
            self._height = h
            self.setFixedHeight(h)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._fit()


class LogPanel(QTextBrowser):
    """The engine log, one line per event, each with its rule ids as links (``rule:E1.4``) and
    the card it names as a link to the zoom. Runs of passes fold into one line ("B, C, D pass");
    ``set_filter`` shows only one player's events or those citing a rule. A line's context menu
    offers "undo to here" (``undo_to_requested(actions to keep)``)."""

    rule_clicked = Signal(str)
    card_hovered = Signal(str)  # a card id named in a line, or "" when the pointer leaves it
    undo_to_requested = Signal(int)

    def __init__(self, controller: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.anchorClicked.connect(self._anchor)
        self.highlighted.connect(lambda url: emit(self.card_hovered, url.path()
                                                  if url.scheme() == CARD_SCHEME else ""))
        self._game: Any = None
        self._shown = 0
        # read at its newest line, the log follows new lines and new widths; scrolled back, it stays
        self._pinned = True
        self.verticalScrollBar().rangeChanged.connect(self._keep_pinned)
        self.verticalScrollBar().valueChanged.connect(self._scrolled)
        self._lang = ""
        self._filter: tuple = (None, "")
        self._run: tuple | None = None  # the pass run in the last block: (names, rules, first index)
        self._blocks: dict[int, int] = {}  # block (line) number -> its first view-log index
        self._events: tuple = ()  # the events shown (to tell whether another viewer reads the same)
        self._line_block: dict[int, int] = {}  # view-log index of an ordinary line -> its block
        self._secret: list[int] = []
        self._marks: dict[int, int] = {}  # raw log index -> actions taken when it was first shown
        self._raw_len = 0
        self.document().setMaximumBlockCount(0)
        # every line wraps at the panel's width (a word longer than the panel too): no sideways
        # scrolling — a line's fractional width used to leave a 1-pixel range and a scroll bar
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)

    def _keep_pinned(self, _minimum: int = 0, maximum: int = 0) -> None:
        """The scroll range changed (lines appended, or wrapped anew at another width, the layout
        finishing after the scroll): a log read at its newest line stays there."""
        if self._pinned:
            self.verticalScrollBar().setValue(maximum)

    def _scrolled(self, value: int) -> None:
        self._pinned = value >= self.verticalScrollBar().maximum()

    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == RULE_SCHEME:
            emit(self.rule_clicked, url.path())

    def set_filter(self, player: int | None, rule: str) -> None:
        """Only events of ``player`` (None: everyone) citing a rule starting with ``rule``."""
        f = (player, rule.upper())
        if f != self._filter:
            self._filter = f
            self._game = None  # rebuild
            self.refresh()

    def no_match_text(self) -> str:
        """What the log says when its filter hides every line (a stray key typed into the rule
        field emptied it without a word), else "". Qt's own placeholder is one unwrapped line, cut
        at the panel's edge, so the log draws this itself."""
        if self._filter == (None, "") or self.document().characterCount() > 1:
            return ""
        return tr("log.filter.no_match")

    def paintEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().paintEvent(event)
        text = self.no_match_text()
        if text:
            painter = QPainter(self.viewport())
            try:
                painter.setPen(QColor("#a99c88"))
                painter.drawText(self.viewport().rect().adjusted(8, 6, -8, -6),
                                 int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop
                                     | Qt.TextFlag.TextWordWrap), text)
            finally:
                painter.end()

    def _passes(self, e: Any) -> bool:
        player, rule = self._filter
        if player is not None and e.args.get("player") != player:
            return False
        if rule and not any(r.upper().startswith(rule) for r in e.rules):
            return False
        return True

    def line_html(self, event: Any, words: Any = None) -> str:
        words = words or texts.words(self.controller.game)
        text = html.escape(words.event(event))
        g = self.controller.game
        if event.card and g is not None and event.card in g.db.cards:
            name = html.escape(words.card_name(g.db.cards[event.card]))
            if name and name in text:  # the card's name links to its zoom
                text = text.replace(name, card_link(event.card, words.card_name(g.db.cards[event.card])), 1)
        code = event.code
        if code in ("TurnStarted",):
            text = f"<b style='color:#e8c36a'>{text}</b>"
        elif code in ("StepStarted", "StepEnded", "ProcessStarted") or code in PASS_CODES:
            text = f"<span style='color:#a99c88'>{text}</span>"
        elif code in ("GameWon", "NoWinner", "PlayerDroppedOut", "ServantDestroyed"):
            text = f"<b style='color:#ff8a80'>{text}</b>"
        links = rule_links(event.rules)
        return f"{text} <small>{links}</small>" if links else text

    def _run_html(self, words: Any, names: list[str], rules: list[str]) -> str:
        if len(names) == 1:
            text = words.tr("event.Passed", player=names[0])
        else:
            text = tr("log.passes", names=words.join(names), count=len(names))
        links = rule_links(rules)
        text = f"<span style='color:#a99c88'>{html.escape(text)}</span>"
        return f"{text} <small>{links}</small>" if links else text

    def _note_marks(self, g: Any) -> None:
        n = g.log_length
        if n < self._raw_len:
            self._marks = {k: v for k, v in self._marks.items() if k < n}
        done = len(g.history)
        for i in range(self._raw_len, n):
            self._marks.setdefault(i, done)
        self._raw_len = n

    def refresh(self) -> None:
        g = self.controller.game
        if g is None:
            self._forget_documents()
            self._game = None
            return
        if g is not getattr(self, "_marks_game", None):
            self._marks_game, self._marks, self._raw_len = g, {}, 0
        self._note_marks(g)
        view = self.controller.table_view()
        log = view.log  # what the one looking may read: other seats' secrets taken out
        lang = current_language()
        who = (view.viewer, self.controller.cards_shown())  # whose eyes read it
        if g is not self._game or lang != self._lang:
            self._forget_documents()
            self._game, self._lang = g, lang
        if len(log) < self._shown:
            self._forget_documents()  # undone: written again
        elif who != getattr(self, "_viewer", None) and not self._rewrite_changed(log):
            self._forget_documents()  # another seat reads another history: written again
        self._viewer = who
        if len(log) == self._shown:
            return
        words = texts.words(g)
        items: list[tuple[str, int]] = []  # (html, first view-log index) of each new line
        run = self._run  # a run of passes; while ``shown`` it is the document's last line
        shown = run is not None
        replace_last = False
        for i in range(self._shown, len(log)):
            e = log[i]
            if not self._passes(e):
                continue
            if e.code in PASS_CODES:
                name = words.player(e.args.get("player"))
                if run is None:
                    run, shown = ([name], list(e.rules), i), False
                else:
                    run = (run[0] + [name], list(dict.fromkeys(run[1] + list(e.rules))), run[2])
                continue
            if run is not None:
                replace_last = replace_last or shown
                items.append((self._run_html(words, run[0], run[1]), run[2]))
                run, shown = None, False
            items.append((self.line_html(e, words), i))
        if run is not None:
            replace_last = replace_last or shown
            items.append((self._run_html(words, run[0], run[1]), run[2]))
        self._run = run
        self._secret.extend(i for i in range(self._shown, len(log)) if log[i].secret >= 0)
        self._shown = len(log)
        self._events = tuple(log)
        if items:
            if replace_last:
                self._drop_last_block()
            self.append("".join(f"<div>{h}</div>" for h, _ in items))
            last = self.document().blockCount() - 1
            for j, (_h, first) in enumerate(items):
                self._blocks[last - len(items) + 1 + j] = first
                if log[first].code not in PASS_CODES:
                    self._line_block[first] = last - len(items) + 1 + j
        self.moveCursor(QTextCursor.MoveOperation.End)
        self.ensureCursorVisible()

    def _rewrite_changed(self, log: Any) -> bool:
        """Another seat looks: rewrite in place the few lines it reads otherwise (its own secret
        cards named, another's taken out). False if too much differs (then all is rewritten)."""
        shown = self._events
        if len(log) < len(shown):
            return False
        # only secret events read otherwise from one seat to another; any other difference (an
        # event one seat does not see at all) shifts the rest, caught at the last shown line
        k = len(shown) - 1
        while k >= 0 and shown[k].secret >= 0:
            k -= 1
        if k >= 0 and log[k] is not shown[k] and log[k] != shown[k]:
            return False
        changed = [i for i in self._secret if log[i] is not shown[i] and log[i] != shown[i]]
        if len(changed) > 24 or any(i not in self._line_block for i in changed):
            return False
        words = texts.words(self.controller.game)
        doc = self.document()
        for i in changed:
            block = doc.findBlockByNumber(self._line_block[i])
            if not block.isValid():
                return False
            cursor = QTextCursor(block)
            cursor.movePosition(QTextCursor.MoveOperation.EndOfBlock, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertHtml(self.line_html(log[i], words))
        self._events = tuple(log[:len(shown)])
        return True

    def _forget_documents(self) -> None:
        self.clear()
        self._shown, self._run, self._blocks, self._events, self._line_block = 0, None, {}, (), {}
        self._secret: list[int] = []  # view-log indices of secret events (read otherwise by others)

    def _drop_last_block(self) -> None:
        doc = self.document()
        last = doc.blockCount() - 1
        cursor = QTextCursor(doc.lastBlock())
        cursor.select(QTextCursor.SelectionType.BlockUnderCursor)
        cursor.removeSelectedText()
        if last == 0:
            cursor.deletePreviousChar()
        first = self._blocks.pop(last, None)
        self._line_block.pop(first, None)

    # --- undo to here ------------------------------------------------------------------------------

    def event_at(self, pos: Any) -> int | None:
        """The view-log index of the (first) event of the line at a viewport position."""
        return self._blocks.get(self.cursorForPosition(pos).block().blockNumber())

    def actions_at(self, index: int) -> int | None:
        """How many actions had been taken when the event at view-log ``index`` was shown."""
        g = self.controller.game
        view = self.controller.table_view()
        if g is None or not 0 <= index < len(view.log):
            return None
        raw = g.log
        for j in range(index, -1, -1):  # a line another seat's secret changed: the one before it
            ev = view.log[j]
            for k in range(min(len(raw) - 1, j + 64), -1, -1):
                if raw[k] is ev:
                    return self._marks.get(k)
        return None

    def contextMenuEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        menu = self.createStandardContextMenu()
        index = self.event_at(event.pos())
        keep = self.actions_at(index) if index is not None else None
        g = self.controller.game
        if keep is not None and g is not None:
            menu.addSeparator()
            act = menu.addAction(tr("history.undo_to_here"))
            act.setEnabled(keep < len(g.history) and self.controller.can_undo())
            act.triggered.connect(lambda: emit(self.undo_to_requested, keep))
        menu.exec(event.globalPos())


class RulePanel(QGroupBox):
    """The text of one rule from the rules reference (opened by clicking a rule id)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        top = QHBoxLayout()
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setStyleSheet("font-weight:bold; color:#e8c36a;")
        top.addWidget(self.heading, 1)
        close = QToolButton()
        close.setText("✕")
        close.setAutoRaise(True)
        close.clicked.connect(self.hide)
        top.addWidget(close)
        lay.addLayout(top)
        self.body = QTextBrowser()
        self.body.setOpenLinks(False)
        self.body.anchorClicked.connect(lambda url: self.show_rule(url.path()))
        lay.addWidget(self.body)
        self.rule_id = ""
        self.hide()

    def show_rule(self, rule_id: str) -> None:
        lang = current_language()
        self.rule_id = rule_id
        try:
            from fate_royal.cards.reference import reference

            rule = reference().get(rule_id)
        except Exception as exc:  # unknown id or a broken reference file: say so, no traceback
            self.heading.setText(tr("panel.rule", rule=rule_id))
            self.body.setHtml(html.escape(str(exc)))
            self.show()
            return
        self.heading.setText(f"{tr('panel.rule', rule=rule.id)} — {rule.title(lang)}")
        parts = [f"<p>{html.escape(rule.text(lang))}</p>"]
        off = rule.errata_off(lang)
        if off:
            parts.append(f"<p><i>{html.escape(tr('errata.off'))}:</i> {html.escape(off)}</p>")
        note = rule.note(lang)
        if note:
            parts.append(f"<p style='color:#a99c88'>{html.escape(note)}</p>")
        if rule.reconstructed:
            parts.append(f"<p style='color:#ffb26b'>{html.escape(texts.tr_or('table.rule_reconstructed', 'D rules are reconstructed defaults.'))}</p>")
        if rule.see:
            parts.append(f"<p>→ {rule_links(rule.see)}</p>")
        self.body.setHtml("".join(parts))
        self.show()

    def text(self) -> str:
        return self.heading.text() + "\n" + self.body.toPlainText()


class MessageBar(QLabel):
    """One line for refusals and errors, with the rule id as a link."""

    rule_clicked = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextFormat(Qt.TextFormat.RichText)
        self.linkActivated.connect(lambda href: emit(self.rule_clicked, href.split(":", 1)[-1]))
        self.plain = ""
        self.level = "clear"
        self.hide()

    def show_message(self, text: str, level: str, rule: str) -> None:
        self.level = level
        if level == "clear" or not text:
            self.plain = ""
            self.setText("")
            self.hide()
            return
        self.plain = text
        colour = "#ffb4a8" if level == "error" else "#d8f0ff"
        bg = "#4a1712" if level == "error" else "#17324a"
        self.setStyleSheet(f"background:{bg}; color:{colour}; padding:0.35em 0.7em; border-radius:0.3em;")
        body = html.escape(text)
        if rule:
            body += f"  {rule_links([rule])}"
        self.setText(body)
        self.show()
