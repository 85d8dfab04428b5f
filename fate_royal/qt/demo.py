"""Demo mode: a scenario (or a saved game opened as a read-only replay) stepped forward and back.

``ScenarioSession`` wraps ``ScenarioRun`` (step back is ``ScenarioRun.back()``); ``ReplaySession``
replays a save's recorded actions one at a time (step back is ``Game.undo``). Both give the same
``StepInfo`` per step, which ``DemoPanel`` (a dock beside the table) and ``PresenterWindow`` (full
screen, large, every hand revealed) show: title, description, narration (``say``, or ``say_en`` in
English), the step list with progress, this step's log lines and rule ids, and each check passed
(green) or failed (red).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from PySide6.QtCore import QObject, QUrl, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QSizePolicy,
    QSplitter, QTextBrowser, QVBoxLayout, QWidget,
)

from fate_royal.qt import texts
from fate_royal.qt.compat import emit
from fate_royal.qt.fonts import pixel_font, ui_font
from fate_royal.qt.i18n import current_language
from fate_royal.qt.reveal import HandsStrip, RevealController
from fate_royal.qt.i18n import tr as t
from fate_royal.rules.view import redact

GREEN = "#6fdc8c"
RED = "#ff7b6b"
GOLD = "#e8c36a"
DIM = "#a99c88"

PANEL_STYLE = """
QWidget#demo { background: #1b130e; }
QLabel { color: #f4ecdc; }
QLabel#demoTitle { color: #e8c36a; font-weight: bold; }
QLabel#demoDesc { color: #c9bda6; }
QLabel#narration { background: #2b1e15; color: #fff6e2; border: 1px solid #6b5237; border-radius: 8px;
  padding: 0.6em 0.8em; }
QListWidget { background: #0f0a07; color: #eadfcb; border: 1px solid #3a2a1f; border-radius: 4px; }
QListWidget::item { padding: 0.15em 0.2em; }
QListWidget::item:selected { background: #4e3826; color: #fff; }
QTextBrowser { background: #0f0a07; color: #eadfcb; border: 1px solid #3a2a1f; border-radius: 4px; }
QPushButton { padding: 0.35em 1em; border-radius: 0.35em; background: #3a2a1f; color: #f4ecdc;
  border: 1px solid #6b5237; font-weight: bold; }
QPushButton:hover { background: #4e3826; border-color: #e8c36a; }
QPushButton:disabled { color: #6b5f55; border-color: #3a2f27; }
"""


def refusal_text(message: str) -> str:
    """Why the engine refused an action, in the table's language: the scenario checker says it in
    English ("refused: M-007 cannot be used now (servant_down_codes) [E1.4]"); a reason code in it
    has words in both languages. Without a code the English words are said only in English (the
    step's own text already names the action and the rule)."""
    m = re.search(r"\((\w+)\) \[[^\]]*\]$", message)
    if m:
        return texts.reason_text(m.group(1))
    if current_language() != "en":
        return ""
    return re.sub(r"^refused: | \[[^\]]*\]$", "", message)


@dataclass
class StepInfo:
    """One step as played: what it was, whether it is a check and passed, its log and rules."""

    index: int  # 0-based
    label: str
    kind: str  # do | expect | expect_illegal | resolve | advance | say | action
    ok: bool
    message: str
    events: list = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    say: str = ""

    @property
    def is_check(self) -> bool:
        return self.kind in ("expect", "expect_illegal")


def _flat(v: Any) -> str:
    from fate_royal.cards.yamlsrc import plain

    v = plain(v)
    if isinstance(v, dict):
        if set(v) == {"pa", "pd", "ma", "md"}:
            return "/".join(str(v[k]) for k in ("pa", "pd", "ma", "md"))
        return ", ".join(f"{k} {_flat(x)}" for k, x in v.items())
    if isinstance(v, (list, tuple)):
        return ", ".join(_flat(x) for x in v)
    return str(v)


def step_text(step: Any, game: Any = None) -> str:
    """A scenario step in words (the UI's language; card ids as card names when ``game`` is
    given): 「A：サーヴァントはリバース・E1.3を適用」, not the script's keys."""
    from fate_royal.cards.yamlsrc import plain

    body = plain(step.body)
    if step.kind == "expect" and isinstance(body, dict):
        who = t("workbench.step.who", player=body["player"]) if "player" in body else ""
        card = _card_word(body.get("card"), game)
        parts = [_check_text(k, v, card, game) for k, v in body.items() if k not in ("player", "card")]
        if not parts and card:
            parts = [card]
        return t("workbench.step.check", who=who, parts=t("workbench.step.sep").join(parts))
    if step.kind == "expect_illegal" and isinstance(body, dict):
        rule = f" ({body['rule']})" if body.get("rule") else ""
        return t("workbench.do.illegal", action=_action_text(body.get("do") or {}, game), rule=rule)
    if step.kind == "do" and isinstance(body, dict):
        return _action_text(body, game)
    if step.kind == "resolve":
        return t("workbench.do.resolve")
    if step.kind == "advance":
        target = body.get("step") if isinstance(body, dict) else body
        return t("workbench.do.advance", step=_step_word(str(target))) if target else step.kind
    if step.kind == "say":
        return _say(step)  # in the table's language where the scenario has it
    return step.label()


def _card_word(card: Any, game: Any) -> str:
    if card is None:
        return ""
    if game is not None:
        found = game.db.cards.get(str(card))
        if found is not None:
            return texts.card_name(found)
    return str(card)


def _step_word(name: str) -> str:
    for prefix in ("step.", "process."):
        if texts.has_key(prefix + name):
            return texts.tr(prefix + name)
    return name


def _value_word(key: str, v: Any, game: Any) -> str:
    if key in ("servant_state", "card_state") and texts.has_key(f"state.{v}"):
        return t(f"state.{v}")
    if key == "zone":
        from fate_royal.text.verdicts import ZONE_TERMS

        zone = f"zone.{ZONE_TERMS.get(str(v), v)}"
        return t(zone) if texts.has_key(zone) else str(v)
    if key in ("step", "process"):
        return _step_word(str(v))
    if key == "coins" and isinstance(v, dict):
        return "、".join(f"{t(f'coin.{c}') if texts.has_key(f'coin.{c}') else c} {n}"
                        for c, n in v.items())
    if key == "pending" and texts.has_key(f"table.pending.{v}"):
        return t(f"table.pending.{v}")
    if (key == "winner" and v == "none") or v is None:
        return "—"
    return _flat(v)


def _check_text(key: str, v: Any, card: str, game: Any) -> str:
    if key == "process" and v is None:
        return t("workbench.check.no_process")
    if key == "out":
        return t("workbench.check.out_true" if v else "workbench.check.out_false")
    if texts.has_key(f"workbench.check.{key}"):
        return t(f"workbench.check.{key}", value=_value_word(key, v, game), card=card)
    return f"{key} {_flat(v)}"


def _effect_word(name: Any, game: Any, card: Any = None) -> str:
    """An effect's printed name in the UI's language: the effect of ``card`` of that name, or of
    any card of the game (a command spell's target on the stack is named by its effect)."""
    if game is None or not name:
        return str(name or "")
    cards = [game.db.cards[str(card)]] if card is not None and str(card) in game.db.cards else []
    for c in cards + list(game.db.cards.values()):
        found = next((e for e in c.effects if e.name == str(name)), None)
        if found is not None:
            return texts.effect_name(found)
    return str(name)


def _action_text(body: dict, game: Any = None) -> str:
    if not isinstance(body, dict):
        return str(body)
    kind = str(body.get("action", ""))
    player = str(body.get("player", "")) or "—"
    if kind in ("resolve", "advance"):
        return t("workbench.do.resolve") if kind == "resolve" else t(
            "workbench.do.advance", step=_step_word(str(body.get("step", ""))))
    if not texts.has_key(f"workbench.do.{kind}"):
        rest = [kind] + [_flat(v) for k, v in body.items() if k not in ("player", "action")]
        return f"{player}: " + " ".join(x for x in rest if x)
    effect = body.get("effect")
    attack = body.get("type")
    target = body.get("target")
    targets = body.get("targets")
    aimed = ""
    if targets and kind == "use":
        names = [_card_word(x, game) if game is not None and str(x) in game.db.cards
                 else _effect_word(x, game) for x in (targets if isinstance(targets, list) else [targets])]
        aimed = f" → {texts.words().join(names)}"
    card_word = _card_word(body.get("card"), game)
    if effect and not str(effect).isdigit():
        name = _effect_word(effect, game, body.get("card"))
        effect = "" if name == card_word else \
            f"「{name}」" if current_language() == "ja" else f"'s {name}"
    else:
        effect = ""
    if kind == "spell" and target and not (game is not None and str(target) in game.db.cards):
        target = _effect_word(target, game)  # a command spell negates an effect on the stack
    return t(f"workbench.do.{kind}", player=player,
             target=_card_word(target, game) if target and kind != "spell" else "",
             card=card_word, effect=effect, targets=aimed,
             type=t(f"attack.{attack}") if attack and texts.has_key(f"attack.{attack}") else (attack or ""),
             kind=(t(f"workbench.spell.{body.get('kind')}") if texts.has_key(
                 f"workbench.spell.{body.get('kind')}") else str(body.get("kind", ""))) + (
                 f" → {_card_word(target, game)}" if kind == "spell" and target else ""),
             option=_card_word(body.get("option") or body.get("card")
                                                          or target, game))


def _say(step: Any) -> str:
    ja, en = getattr(step, "say", "") or "", getattr(step, "say_en", "") or ""
    if current_language() == "en" and en:
        return en
    return ja or en


def unwrap(text: str) -> str:
    """Join hard-wrapped lines (YAML ``|`` blocks): no space between Japanese characters."""
    out = ""
    for line in (text or "").strip().splitlines():
        line = line.strip()
        if not line:
            out += "\n"
            continue
        if out and not out.endswith("\n"):
            cjk = ord(out[-1]) > 0x2E80 or ord(line[0]) > 0x2E80
            out += "" if cjk else " "
        out += line
    return out


class ScenarioSession:
    """A scenario in demo mode (through ``ScenarioRun``)."""

    kind = "scenario"

    def __init__(self, scenario: Any, rules: Any = None, root: Path | None = None) -> None:
        from fate_royal.rules.scenario_run import ScenarioRun

        self.scenario = scenario
        self.path = scenario.path
        self.rules_override = rules  # a RuleSet, errata on/off (bool), or None: the file's own
        self.root = root
        override = rules if not isinstance(rules, bool) else None
        self.run = ScenarioRun(scenario, errata=rules if isinstance(rules, bool) else None,
                               rules=override, root=root)
        words = texts.words(self.run.game)  # step messages in the UI's language
        self.run.describe_action = words.action_line
        self.infos: list[StepInfo] = []

    @property
    def game(self) -> Any:
        return self.run.game

    @property
    def title(self) -> str:
        return texts.scenario_title(self.scenario)

    @property
    def description(self) -> str:
        sc = self.scenario
        en = getattr(sc, "description_en", "")
        return unwrap((en or sc.description) if current_language() == "en" else (sc.description or en))

    @property
    def total(self) -> int:
        return len(self.scenario.steps)

    @property
    def index(self) -> int:
        return self.run.index

    @property
    def done(self) -> bool:
        return self.run.done

    def label(self, i: int) -> str:
        step = self.scenario.steps[i]
        say = _say(step)
        if step.kind == "say":
            return say
        if i < len(self.infos) and self.infos[i].kind == "do" and self.infos[i].ok \
                and step.body.get("action") not in ("resolve", "advance"):
            text = self.infos[i].message
        else:
            text = step_text(step, self.game)
        return f"{text} — {say}" if say else text

    def forward(self) -> StepInfo | None:
        if self.run.done:
            return None
        res = self.run.forward()
        step = res.step
        message = res.message
        body = getattr(step, "body", None)
        flow = step.kind in ("resolve", "advance") or (
            step.kind == "do" and isinstance(body, dict) and body.get("action") in ("resolve", "advance"))
        if res.ok and flow:  # the engine's words ("resolved (2 passes)") are English
            message = step_text(step, self.game)
        if step.kind == "say":  # the runner repeats the Japanese line
            message = _say(step)
        if not res.ok and current_language() != "en":  # the checker writes English
            from fate_royal.text.verdicts import failure_details

            said = failure_details(res.findings, texts.words(self.game))
            message = step_text(step, self.game) + (t("rulings.sweep.details", details=said)
                                                    if said else "")
        if res.ok and step.kind in ("expect", "expect_illegal"):
            text = step_text(step, self.game)
            why = refusal_text(res.message) if step.kind == "expect_illegal" else ""
            message = f"{text} — {why}" if why else text
        info = StepInfo(len(self.infos), step_text(step, self.game), step.kind, res.ok, message, list(res.events),
                        list(res.rules), _say(step))
        self.infos.append(info)
        return info

    def back(self) -> bool:
        if self.run.index == 0:
            return False
        self.run.back()
        self.infos.pop()
        return True

    def narration(self) -> str:
        """The narration of the last step played (or the latest one before it), else the description."""
        for i in range(self.run.index - 1, -1, -1):
            say = _say(self.scenario.steps[i])
            if say:
                return say
        return self.description


class ReplaySession:
    """A saved game opened read-only: its recorded actions applied one at a time."""

    kind = "replay"

    def __init__(self, path: str | Path, db_loader: Callable, allow_changed_cards: bool = False) -> None:
        from fate_royal.rules.save import action_list, load_game

        self.path = str(path)
        self.actions = action_list(path)
        self.game_ = load_game(path, db_loader, allow_changed_cards=allow_changed_cards, upto=0)
        self.infos: list[StepInfo] = []
        self.labels: list[str] = [""] * len(self.actions)

    @property
    def game(self) -> Any:
        return self.game_

    @property
    def title(self) -> str:
        return Path(self.path).name

    @property
    def description(self) -> str:
        return t("rulings.demo.replay")

    @property
    def total(self) -> int:
        return len(self.actions)

    @property
    def index(self) -> int:
        return len(self.infos)

    @property
    def done(self) -> bool:
        return self.index >= self.total

    def label(self, i: int) -> str:
        return self.labels[i] or self.actions[i].kind

    def forward(self) -> StepInfo | None:
        from fate_royal.rules.errors import IllegalAction

        if self.done:
            return None
        g = self.game_
        i = self.index
        action = self.actions[i]
        if getattr(action, "kind", "") == "option":
            self.labels[i] = t("rulings.demo.option_changed", option=action.key, value=action.value)
        else:
            try:
                self.labels[i] = texts.words(g).action_line(g, action)
            except Exception:
                self.labels[i] = f"{g.player_name(action.player)}: {action.kind}"
        start = g.log_length
        try:
            g.apply_entry(action)
            ok, message = True, self.labels[i]
        except IllegalAction as exc:
            ok, message = False, f"{exc.message} [{exc.rule}]" if exc.rule else exc.message
        events = g.log_since(start)
        rules = list(dict.fromkeys(r for e in events for r in e.rules))
        info = StepInfo(i, self.labels[i], "action", ok, message, list(events), rules, "")
        self.infos.append(info)
        return info

    def back(self) -> bool:
        if not self.infos:
            return False
        info = self.infos.pop()
        if info.ok:
            g = self.game_
            g.cut_to(len(g.entries) - 1)
            g.clear_redo()
        return True

    def narration(self) -> str:
        if not self.infos:
            return self.description
        return t("rulings.demo.replay_step", index=self.index, action=self.infos[-1].label)


class DemoState(QObject):
    """The open demo session and stepping through it; keeps the table's controller in step.

    ``stepped`` is emitted after every change (open, forward, back, close).
    """

    stepped = Signal()
    branched = Signal(int)  # the step a demo was left at to continue as a live game

    def __init__(self, controller: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.session: Any = None
        self._saved_auto: bool | None = None
        controller.game_replaced.connect(self._game_replaced)

    @property
    def active(self) -> bool:
        return self.session is not None

    def open(self, session: Any) -> None:
        self.session = session
        c = self.controller
        if self._saved_auto is None:
            self._saved_auto = c.auto_handoff
        c.auto_handoff = True  # demo: no hand-off screen, the deciding player's hand is shown
        c.read_only = True  # nothing on the table changes the demo's game: only its steps do
        self._installing = True
        try:
            c.set_game(session.game)
        finally:
            self._installing = False
        emit(self.stepped)

    def close(self) -> None:
        if self.session is None:
            return
        self.session = None
        self.controller.read_only = False
        if self._saved_auto is not None:
            self.controller.auto_handoff = self._saved_auto
            self._saved_auto = None
        emit(self.stepped)

    def branch(self) -> int | None:
        """"Continue playing from here": the demo ends and its game, at this step, becomes a live
        game (hot-seat and undo as usual). The step it was left at, or None without a demo."""
        s = self.session
        if s is None:
            return None
        index = s.index
        game = s.game
        if game.can_redo():
            game.clear_redo()
        self.close()
        self.controller.set_game(game)
        emit(self.branched, index)
        return index

    def jump(self, index: int) -> bool:
        """Go to just after step ``index`` (0: the start position) by stepping forward or back."""
        s = self.session
        if s is None:
            return False
        index = max(0, min(index, s.total))
        while s.index > index and s.back():
            pass
        while s.index < index and not s.done:
            if s.forward() is None:
                break
        self._sync()
        return s.index == index

    def _game_replaced(self) -> None:
        # another game (new game, open save) replaces the demo's: the demo ends
        if self.session is not None and not getattr(self, "_installing", False) \
                and self.controller.game is not self.session.game:
            self.close()

    def _sync(self) -> None:
        c = self.controller
        g = c.game
        if g is not None and g.pending is not None:
            c.viewer = g.pending.player
        emit(c.message, "", "clear", "")
        emit(c.changed)
        emit(self.stepped)

    def forward(self) -> StepInfo | None:
        if self.session is None or self.session.done:
            return None
        info = self.session.forward()
        self._sync()
        return info

    def back(self) -> bool:
        if self.session is None:
            return False
        ok = self.session.back()
        self._sync()
        return ok

    def restart(self) -> None:
        while self.session is not None and self.session.back():
            pass
        self._sync()

    def guard_read_only(self) -> bool:
        """A replay is read-only: undo any action played on the table meanwhile. True if it did."""
        s = self.session
        if s is None or s.kind != "replay":
            return False
        g = s.game
        expected = sum(1 for i in s.infos if i.ok)
        changed = False
        while len(g.history) > expected and g.can_undo():
            g.undo()
            changed = True
        if changed:
            g.clear_redo()
        return changed


# --------------------------------------------------------------------------- rendering helpers


def rule_chips(rules: list[str]) -> str:
    return " ".join(
        f"<a href='rule:{html.escape(r)}' style='text-decoration:none'><span style='background:#e8c36a;"
        f" color:#1b130e; font-weight:bold'>&nbsp;{html.escape(r)}&nbsp;</span></a>" for r in rules)


EVERYONE = object()  # step_log_html's viewer: every card shown (the presenter in a demo)


def step_log_html(info: StepInfo | None, with_check: bool = True, game: Any = None,
                  viewer: Any = EVERYONE) -> str:
    """This step's log lines, each with its rule ids highlighted, and the check's result.
    ``viewer``: the seat looking at the table (None: nobody's secrets), whose log this is; a card
    only another seat knows (a face-down servant) is taken out as the table's own log does."""

    if info is None:
        return f"<p style='color:{DIM}'>{html.escape(t('rulings.demo.start'))}</p>"
    parts = []
    if not with_check:
        pass
    elif info.is_check:
        colour = GREEN if info.ok else RED
        mark = "✓ " + t("rulings.demo.passed") if info.ok else "✗ " + t("rulings.demo.failed")
        parts.append(f"<p style='color:{colour}; font-weight:bold'>{html.escape(mark)} "  # as the result line
                     f"{html.escape(info.message)}</p>")
    elif not info.ok:
        parts.append(f"<p style='color:{RED}; font-weight:bold'>✗ {html.escape(info.message)}</p>")
    words = texts.words(game)
    for e in info.events:
        if viewer is not EVERYONE:
            e = redact(e, viewer)
            if e is None:
                continue
        line = html.escape(words.event(e))
        chips = rule_chips(list(e.rules))
        parts.append(f"<div style='margin:2px 0'>{line} {chips}</div>")
    if info.rules:
        parts.append(f"<p style='color:{GOLD}; margin-top:6px'>{html.escape(t('rulings.demo.rules'))}: "
                     f"{rule_chips(info.rules)}</p>")
    return "".join(parts)


def step_mark(info: StepInfo | None) -> tuple[str, QColor | None]:
    if info is None:
        return "　", None
    if info.is_check:
        return ("✓", QColor(GREEN)) if info.ok else ("✗", QColor(RED))
    if not info.ok:
        return "✗", QColor(RED)
    return "•", QColor("#eadfcb")


class DemoPanel(QWidget):
    """The dock beside the table in demo mode."""

    rule_clicked = Signal(str)

    def __init__(self, state: DemoState, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.setObjectName("demo")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(PANEL_STYLE)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 10)
        lay.setSpacing(6)
        self.title = QLabel()
        self.title.setObjectName("demoTitle")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.badge = QLabel()
        lay.addWidget(self.badge)
        self.description = QLabel()
        self.description.setObjectName("demoDesc")
        self.description.setWordWrap(True)
        lay.addWidget(self.description)
        self.narration = QLabel()
        self.narration.setObjectName("narration")
        self.narration.setWordWrap(True)
        self.narration.setMinimumHeight(60)
        self.narration.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        lay.addWidget(self.narration)
        nav = QHBoxLayout()
        self.back_button = QPushButton()
        self.back_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.back_button.clicked.connect(state.back)
        self.forward_button = QPushButton()
        self.forward_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.forward_button.clicked.connect(state.forward)
        self.progress = QLabel()
        self.progress.setAlignment(Qt.AlignmentFlag.AlignCenter)
        nav.addWidget(self.back_button)
        nav.addWidget(self.progress, 1)
        nav.addWidget(self.forward_button)
        lay.addLayout(nav)
        self.result = QLabel()
        self.result.setWordWrap(True)
        lay.addWidget(self.result)
        self.continue_button = QPushButton()
        self.continue_button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.continue_button.clicked.connect(state.branch)
        lay.addWidget(self.continue_button)
        split = QSplitter(Qt.Orientation.Vertical)
        self.steps = QListWidget()
        self.steps.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.steps.itemClicked.connect(lambda item: state.jump(self.steps.row(item) + 1))
        self.steps.setWordWrap(True)
        self.steps.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.steps.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        split.addWidget(self.steps)
        log_box = QWidget()
        lb = QVBoxLayout(log_box)
        lb.setContentsMargins(0, 4, 0, 0)
        self.log_title = QLabel()
        self.log_title.setStyleSheet(f"color:{GOLD}; font-weight:bold;")
        lb.addWidget(self.log_title)
        self.step_log = QTextBrowser()
        self.step_log.setOpenLinks(False)
        self.step_log.anchorClicked.connect(self._anchor)
        lb.addWidget(self.step_log)
        split.addWidget(log_box)
        split.setSizes([260, 260])
        lay.addWidget(split, 1)
        self.summary = QLabel()
        lay.addWidget(self.summary)
        state.stepped.connect(self.refresh)
        self.refresh()

    def _anchor(self, url: QUrl) -> None:
        if url.scheme() == "rule":
            emit(self.rule_clicked, url.path())

    def set_scale(self, pt: float) -> None:
        self.setFont(ui_font(pt))
        self.title.setFont(ui_font(pt * 1.35, bold=True))
        self.narration.setFont(ui_font(pt * 1.2))

    def current_info(self) -> StepInfo | None:
        s = self.state.session
        if s is None or not s.infos:
            return None
        return s.infos[-1]

    def refresh(self) -> None:
        s = self.state.session
        self.back_button.setText(t("rulings.demo.back") + "  (←)")
        self.forward_button.setText(t("rulings.demo.forward") + "  (→)")
        self.log_title.setText(t("rulings.demo.step_log"))
        self.continue_button.setText(t("workbench.demo.continue"))
        self.continue_button.setEnabled(s is not None)
        if s is None:
            for w in (self.title, self.badge, self.description, self.narration, self.progress, self.result,
                      self.summary):
                w.setText("")
            self.steps.clear()
            self.step_log.clear()
            self.back_button.setEnabled(False)
            self.forward_button.setEnabled(False)
            return
        self.title.setText(s.title)
        g = s.game
        errata = g.rules.all_errata
        colour = "#7dffb0" if errata else "#ffb26b"
        self.badge.setText(f"<span style='color:{colour}; font-weight:bold'>"
                           f"{html.escape(t('rulings.demo.rules_in_force', rules=texts.rules_title(g.rules)))}"
                           f"</span>" + (f"　<span style='color:{DIM}'>{html.escape(t('rulings.demo.replay'))}</span>"
                                         if s.kind == "replay" else ""))
        desc = s.description if s.kind == "scenario" else ""
        self.description.setText(desc.strip())
        self.description.setVisible(bool(desc.strip()))
        # before the first narrated step the narration falls back to the description, which the
        # dock already shows just above it: once is enough
        narration = s.narration().strip()
        if narration == desc.strip():
            narration = ""
        self.narration.setText(narration)
        self.narration.setVisible(bool(narration))
        self.progress.setText(t("rulings.demo.step_of", index=s.index, total=s.total) if s.index
                              else t("rulings.demo.start") + f"  (0 / {s.total})")
        self.back_button.setEnabled(s.index > 0)
        self.forward_button.setEnabled(not s.done)
        info = self.current_info()
        if info is None:
            self.result.setText("")
        elif info.is_check or not info.ok:
            colour = GREEN if info.ok else RED
            mark = ("✓ " + t("rulings.demo.passed")) if info.ok else ("✗ " + t("rulings.demo.failed"))
            if not info.is_check:
                mark = "✗"
            self.result.setText(f"<span style='color:{colour}; font-weight:bold'>{html.escape(mark)}</span> "
                                f"<span style='color:{colour}'>{html.escape(info.message)}</span>")
        else:
            self.result.setText(f"<span style='color:#eadfcb'>{html.escape(info.message)}</span>")
        if s.done:
            self.result.setText(self.result.text() + f"<br><span style='color:{GOLD}'>"
                                f"{html.escape(t('rulings.demo.done'))}</span>")
        # step list
        self.steps.clear()
        turn = s.infos[0].events[0].turn if s.infos and s.infos[0].events else None
        for i in range(s.total):
            info_i = s.infos[i] if i < len(s.infos) else None
            mark, colour = step_mark(info_i)
            turn_mark = ""
            turns = [e.turn for e in info_i.events] if info_i is not None else []
            if turns and turn is not None and max(turns) > turn:
                turn = max(turns)
                turn_mark = f"⟳ {t('workbench.demo.turn', turn=turn)}　"
            elif turns and turn is None:
                turn = max(turns)
            item = QListWidgetItem(f"{mark} {i + 1}. {turn_mark}{s.label(i)}")
            if colour is not None:
                item.setForeground(colour)
            else:
                item.setForeground(QColor("#7d7264"))
            if info_i is not None and (info_i.is_check or not info_i.ok):
                bg = QColor(GREEN if info_i.ok else RED)
                bg.setAlpha(40)
                item.setBackground(bg)
            self.steps.addItem(item)
        if s.index > 0:
            self.steps.setCurrentRow(s.index - 1)
            self.steps.scrollToItem(self.steps.item(s.index - 1))
        self.step_log.setHtml(step_log_html(info, game=s.game, viewer=self.state.controller.private_viewer()))
        checks = [i for i in s.infos if i.is_check]
        passed = sum(1 for i in checks if i.ok)
        self.summary.setText(t("rulings.demo.summary", passed=passed, failed=len(checks) - passed))
        self.summary.setStyleSheet(f"color:{RED if passed < len(checks) else GREEN};")

    def item_texts(self) -> list[str]:
        return [self.steps.item(i).text() for i in range(self.steps.count())]


def roster_html(game: Any, table_view: Any) -> str:
    """Each player's servant (hero／class), its state and the seat's cards: the names on the
    table, large. Only what ``table_view`` shows (a face-down card is "？")."""
    s = game.ctx.s
    words = texts.words(game)

    def name(cv: Any) -> str:
        return words.card_name(game.db.cards[cv.card_id]) if cv is not None and cv.known else "？"

    rows = []
    for i, pl in enumerate(s.players):
        sv = table_view.players[i]
        if sv.hero is None:
            servant = "—"
        else:
            servant = f"{name(sv.hero)}／{name(sv.klass)}" if sv.klass is not None else name(sv.hero)
        state = game.servant_state(i) if pl.hero is not None else None
        state_text = t(f"state.{state}") if state else ""
        seat = []
        for cv in sv.seat:
            st = cv.state
            seat.append(f"{name(cv)}（{t(f'state.{st}')}）" if st and st != "rise" else name(cv))
        if seat:
            state_text += "　" + "・".join(seat)
        colour = GOLD if i == s.turn_player else "#f4ecdc"
        out = "  ✝" if pl.out else ""
        rows.append(f"<div><span style='color:{colour}'>{html.escape(pl.name)}</span>　"
                    f"{html.escape(servant)}　<span style='color:{DIM}'>{html.escape(state_text)}"
                    f"{out}</span></div>")
    return "".join(rows)


class PresenterWindow(QWidget):
    """Full screen for a projector: the table large with every private card and every hand face up,
    the narration in large type, and the step controls on the keyboard."""

    closed = Signal()

    def __init__(self, controller: Any, state: DemoState, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.controller = controller
        self.state = state
        self.setWindowTitle(t("rulings.presenter.title"))
        self.setObjectName("presenter")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet(
            "QWidget#presenter { background: #0d0906; } QLabel { color: #f4ecdc; }"
            # the "show every hand" button in the room's colours (it was Qt's light grey)
            " QPushButton { background: #3a2a1f; color: #f4ecdc; border: 1px solid #6b5038;"
            " border-radius: 4px; padding: 4px 14px; }"
            " QPushButton:hover { background: #4a3726; }"
            " QPushButton:checked { background: #6b5038; border-color: #e8c36a; color: #fff6e2; }")
        self.reveal = RevealController(controller, parent=self)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(12, 8, 12, 8)
        lay.setSpacing(6)
        top = QHBoxLayout()
        self.title = QLabel()
        self.title.setStyleSheet(f"color:{GOLD}; font-weight:bold;")
        self.title.setWordWrap(True)
        top.addWidget(self.title, 1)
        self.progress = QLabel()
        self.progress.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        top.addWidget(self.progress)
        self.agree = QPushButton()  # a live game: show every hand only once the table agrees
        self.agree.setCheckable(True)
        self.agree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.agree.toggled.connect(lambda _=False: self.refresh())
        top.addWidget(self.agree)
        lay.addLayout(top)
        body = QHBoxLayout()
        from fate_royal.qt.table import TableView

        self.table = TableView(self.reveal)
        body.addWidget(self.table, 3)
        side = QVBoxLayout()
        self.roster = QLabel()  # who is who, in type that reads from the back of the room
        self.roster.setObjectName("roster")
        self.roster.setWordWrap(True)
        self.roster.setTextFormat(Qt.TextFormat.RichText)
        self.roster.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.roster.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)
        side.addWidget(self.roster)
        self.narration = QLabel()
        self.narration.setWordWrap(True)
        self.narration.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.narration.setStyleSheet("background:#2b1e15; color:#fff6e2; border:1px solid #6b5237;"
                                     " border-radius:10px; padding:0.5em 0.7em;")
        # its share of the column, its type fitted to it (``apply_scale``): a long narration (a
        # demo's opening text) asked for its height at the largest type, and on a 1280×800
        # projector squeezed the hands strip to names on chips, "+2" for the rest
        self.narration.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Ignored)
        side.addWidget(self.narration, 3)
        self.result = QLabel()
        self.result.setWordWrap(True)
        side.addWidget(self.result)
        self.log = QTextBrowser()
        self.log.setStyleSheet("background:#0f0a07; color:#eadfcb; border:1px solid #3a2a1f;")
        side.addWidget(self.log, 2)
        body.addLayout(side, 1)
        lay.addLayout(body, 5)
        self.hands = HandsStrip(self.reveal)
        lay.addWidget(self.hands, 2)
        self.keys = QLabel()
        self.keys.setStyleSheet(f"color:{DIM};")
        self.keys.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self.keys)
        from fate_royal.qt.zoom import attach_to_table

        attach_to_table(self.table)  # pointing at a card shows it large, as at the table
        for key in ("Right", "PgDown", "Space"):
            QShortcut(QKeySequence(key), self, activated=state.forward)
        for key in ("Left", "PgUp", "Backspace"):
            QShortcut(QKeySequence(key), self, activated=state.back)
        for key in ("Escape", "F5"):
            QShortcut(QKeySequence(key), self, activated=self.close)
        state.stepped.connect(self.refresh)
        controller.changed.connect(self.refresh)
        controller.game_replaced.connect(lambda: self.agree.setChecked(False))  # a new table asks anew
        self.refresh()

    #: pixel sizes as a fraction of the window's height (at 1080p: names 24 px, narration ≥ 24 px)
    NAME_PX = 1 / 45

    def resizeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.apply_scale()

    def apply_scale(self) -> None:
        """Type sizes from the window's height, then each text fitted to its box."""
        h = max(300, self.height())
        name_px = max(12.0, h * self.NAME_PX)
        self.title.setFont(pixel_font(max(16.0, h / 30), bold=True))
        self.progress.setFont(pixel_font(max(14.0, h / 40), bold=True))
        self.roster.setFont(pixel_font(name_px, bold=True))
        self.result.setFont(pixel_font(max(13.0, h / 48), bold=True))
        self.log.setFont(pixel_font(max(12.0, h / 60)))
        self.keys.setFont(pixel_font(max(11.0, h / 72)))
        self.hands.caption_px = name_px
        self.hands.update()
        self._fit(self.narration, max(14.0, h / 36), min(name_px, max(12.0, h / 56)))
        self._fit(self.title, max(16.0, h / 30), max(14.0, h / 45), bold=True)

    @staticmethod
    def _fit(label: QLabel, largest: float, smallest: float, bold: bool = False) -> None:
        """The largest pixel size (down to ``smallest``) at which ``label``'s text fits its box."""
        px = largest
        while True:
            label.setFont(pixel_font(px, bold=bold))
            if px <= smallest or label.width() <= 0 or \
                    label.heightForWidth(label.width()) <= label.height():
                return
            px = max(smallest, px * 0.92)

    def refresh(self) -> None:
        s = self.state.session
        self.setWindowTitle(t("rulings.presenter.title"))  # (the language may have changed)
        # the step keys only where there are steps (a live game has none: → did nothing)
        self.keys.setText(t("rulings.presenter.keys" if s is not None else "rulings.presenter.keys_live"))
        self.agree.setText(t("workbench.presenter.agree"))
        if s is None:
            g = self.controller.game
            self.title.setText(t("rulings.presenter.title"))
            self.progress.setText("")
            self.narration.setText(texts.pending_text(g) if g is not None else "")
            # a live game: only what the whole table may see, until the table agrees (or turned a
            # finished game's cards face up on the game-over screen)
            self.reveal.set_reveal(self.agree.isChecked()
                                   or self.controller.cards_shown())
            self.agree.show()
            self.roster.setText(roster_html(g, self.reveal.table_view()) if g is not None else "")
            self.apply_scale()
            self.result.setText("")
            self.log.setHtml("")
            return
        self.title.setText(s.title)
        self.progress.setText(t("rulings.demo.step_of", index=s.index, total=s.total))
        self.narration.setText(s.narration().strip())
        self.reveal.set_reveal(True)  # demos and replays: every hand face up
        self.agree.hide()
        self.roster.setText(roster_html(s.game, self.reveal.table_view()))
        self.apply_scale()
        info = s.infos[-1] if s.infos else None
        if info is not None and (info.is_check or not info.ok):
            colour = GREEN if info.ok else RED
            mark = "✓" if info.ok else "✗"
            self.result.setText(f"<span style='color:{colour}'>{mark} {html.escape(info.message)}</span>")
        else:
            self.result.setText(html.escape(info.message) if info is not None else "")
        self.log.setHtml(step_log_html(info, with_check=False, game=s.game))

    def closeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        emit(self.closed)
        super().closeEvent(event)
