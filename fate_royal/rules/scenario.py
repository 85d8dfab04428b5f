"""Scenario files: a position plus a script of actions and checks (design.md "Scenario files").

Scenarios are ruling tests, demos and regression tests at once. ``load_scenario`` reads and checks a
file (every problem is a ``DataError`` naming file and line); ``ScenarioRun`` plays it one step at a
time — forward, and back by undoing the actions a step applied — so the command line (``fate-royal
run``) and the GUI's demo mode share one implementation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import get_close_matches
from pathlib import Path
from typing import Any

from fate_royal.cards import load_card_db, load_profile
from fate_royal.cards.model import CardDB
from fate_royal.cards.yamlsrc import DataError, DataErrors, YMap, location, parse_yaml, plain
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.events import Event
from fate_royal.rules.game import Game
from fate_royal.rules.state import PROCESSES, STEPS

TOP_KEYS = ("title", "title_en", "description", "description_en", "errata", "profile", "seed",
            "dice", "cards", "players", "deck", "discard", "grail", "start", "steps", "tags")
PLAYER_KEYS = ("name", "servant", "seat", "hand", "mana", "mana_limit", "command_spells", "coins",
               "out")
SERVANT_KEYS = ("hero", "class", "state", "class_state")
START_KEYS = ("player", "step", "turn")
STEP_KINDS = ("do", "expect", "expect_illegal", "resolve", "advance", "say")
STEP_EXTRA = ("say", "say_en", "note")
ACTION_KEYS = {
    "pass": ("player",),
    "raid": ("player", "target"),
    "encounter_target": ("player", "target"),
    "attack": ("player", "type"),
    "play": ("player", "card"),
    "discard": ("player", "card"),
    "use": ("player", "card", "effect", "targets"),
    "spell": ("player", "kind", "target", "coin"),
    "choose": ("player", "card", "option"),
    "resolve": (),
    "advance": ("step",),
}
EXPECT_KEYS = ("player", "card", "servant_state", "card_state", "mana", "mana_limit",
               "command_spells", "coins", "hand_size", "zone", "stats", "out", "winner", "step",
               "process", "turn_player", "active_master", "deck_size", "discard_size", "grail_size",
               "log_cites", "log_not_cites", "stack_size", "pending")


class ScenarioError(RulesError):
    """A scenario step that names something that does not exist, or cannot run as written."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(f"{file}:{line}: {message}")
        self.file, self.line, self.message = file, line, message


@dataclass
class Step:
    kind: str  # do | expect | expect_illegal | resolve | advance | say
    body: Any
    line: int
    say: str = ""
    say_en: str = ""

    def label(self) -> str:
        if self.kind == "say":
            return "say"
        return f"{self.kind}: {_short(plain(self.body))}"


@dataclass
class Scenario:
    path: str
    title: str
    description: str
    errata: bool
    setup: dict[str, Any]
    profile_overrides: dict[str, Any]
    cards: list
    steps: list[Step]
    raw: Any = None
    title_en: str = ""
    description_en: str = ""

    def load_db(self, root: Path | None = None, errata: bool | None = None) -> CardDB:
        errata = self.errata if errata is None else errata
        return load_card_db(root, errata=errata, extra=self.cards or None,
                            extra_source=f"{self.path} (cards:)")

    def build_game(self, db: CardDB | None = None, errata: bool | None = None,
                   root: Path | None = None) -> Game:
        """A Game at the scenario's start position (errata as the file says unless given)."""
        errata = self.errata if errata is None else errata
        db = db or self.load_db(root, errata)
        profile = load_profile(None if root is None else Path(root) / "profile.yaml",
                               overrides=self.profile_overrides or None,
                               overrides_source=f"{self.path} (profile:)").with_(errata=errata)
        try:
            game = Game(db, profile, self.setup)
            game.extra_cards = list(self.cards or [])  # so a save of this game can rebuild its cards
            return game
        except (RulesError, KeyError, ValueError) as exc:
            raise ScenarioError(self.path, _line(self.raw, "players"), f"cannot set up: {exc}") from exc


def load_scenario(path: str | Path, text: str | bytes | None = None) -> Scenario:
    """Read and check a scenario file. Raises DataErrors (file:line messages) on any problem."""
    path = Path(path)
    label = str(path)
    errors: list[DataError] = []
    if text is None:
        try:
            text = path.read_bytes()
        except OSError as exc:
            raise DataErrors([DataError(label, 0, f"cannot read file: {exc.strerror or exc}")])
    tree = parse_yaml(text, label, errors)
    if errors:
        raise DataErrors(errors)
    if not isinstance(tree, YMap):
        raise DataErrors([DataError(label, 1, "a scenario must be a mapping (title, players, steps…)")])

    def err(holder: Any, key: Any, message: str) -> None:
        f, line = location(holder, key, (label, 1))
        errors.append(DataError(f, line, message))

    _keys(tree, TOP_KEYS, "scenario", err)
    for key in ("title", "description", "title_en", "description_en"):
        if key in tree and not isinstance(tree[key], str):
            err(tree, key, f"{key} must be text")
    errata = tree.get("errata", True)
    if not isinstance(errata, bool):
        err(tree, "errata", "errata must be true or false")
        errata = True
    seed = tree.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        err(tree, "seed", "seed must be an integer")
        seed = 0
    dice = tree.get("dice", []) or []
    if not isinstance(dice, list) or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
        err(tree, "dice", "dice must be a list of die results 1..6")
        dice = []
    profile = tree.get("profile", {}) or {}
    if not isinstance(profile, dict):
        err(tree, "profile", "profile must be a mapping of rules-profile parameters")
        profile = {}
    else:
        from fate_royal.cards.profile import check_value

        for k, v in profile.items():
            problem = check_value(k, plain(v))
            if problem:
                err(profile, k, problem)
    cards = tree.get("cards", []) or []
    if not isinstance(cards, list):
        err(tree, "cards", "cards must be a list of card definitions")
        cards = []
    players = tree.get("players")
    names: list[str] = []
    if not isinstance(players, list) or not 2 <= len(players) <= 7:
        err(tree, "players" if "players" in tree else None, "players must list 2 to 7 players")
        players = []
    for i, p in enumerate(players):
        if not isinstance(p, dict):
            err(players, i, "each player must be a mapping with at least a name")
            continue
        _keys(p, PLAYER_KEYS, "player", err)
        name = p.get("name")
        if not isinstance(name, str) or not name:
            err(p, "name", "each player needs a name")
            name = f"P{i + 1}"
        if name in names:
            err(p, "name", f"two players are called {name!r}")
        names.append(name)
        serv = p.get("servant")
        if serv is not None:
            if not isinstance(serv, dict):
                err(p, "servant", "servant must be a mapping {hero, class, state}")
            else:
                _keys(serv, SERVANT_KEYS, "servant", err)
                for k in ("state", "class_state"):
                    if k in serv and serv[k] not in ("reverse", "rise", "down", "danger"):
                        err(serv, k, f"{k} must be reverse, rise, down or danger")
        for k in ("mana", "mana_limit", "command_spells"):
            if k in p and (not isinstance(p[k], int) or isinstance(p[k], bool) or p[k] < 0):
                err(p, k, f"{k} must be a whole number ≥ 0")
        for k in ("hand", "seat"):
            if k in p and not isinstance(p[k], list):
                err(p, k, f"{k} must be a list")
        if "coins" in p and not isinstance(p["coins"], dict):
            err(p, "coins", "coins must be a mapping like {assassination: 1}")
    start = tree.get("start") or {}
    if not isinstance(start, dict):
        err(tree, "start", "start must be {player, step}")
        start = {}
    _keys(start, START_KEYS, "start", err) if isinstance(start, YMap) else None
    if "player" in start and start["player"] not in names:
        err(start, "player", f"unknown player {start['player']!r}{_hint(start['player'], names)}")
    if "step" in start and start["step"] not in STEPS:
        err(start, "step", f"unknown step {start['step']!r} (steps: {', '.join(STEPS)})")
    steps_raw = tree.get("steps", []) or []
    steps: list[Step] = []
    if not isinstance(steps_raw, list):
        err(tree, "steps", "steps must be a list")
        steps_raw = []
    for i, st in enumerate(steps_raw):
        _, line = location(steps_raw, i, (label, 1))
        if isinstance(st, str) and st in ("resolve",):
            steps.append(Step("resolve", {}, line))
            continue
        if not isinstance(st, dict) or not st:
            err(steps_raw, i, f"a step must be one of: {', '.join(STEP_KINDS)}")
            continue
        kinds = [k for k in st if k in STEP_KINDS and k != "say"]
        extra = [k for k in st if k not in STEP_KINDS and k not in STEP_EXTRA]
        for k in extra:
            err(st, k, f"unknown step key {k!r}{_hint(k, STEP_KINDS)}")
        if len(kinds) > 1:
            err(st, kinds[1], "one step does one thing (do, expect, expect_illegal, resolve or advance)")
        kind = kinds[0] if kinds else "say"
        body = st.get(kind) if kind != "say" else None
        steps.append(Step(kind, body, line, str(st.get("say", "") or ""), str(st.get("say_en", "") or "")))
        if kind == "do":
            _check_action(body, err, st, "do")
        elif kind == "expect_illegal":
            if not isinstance(body, dict) or "do" not in body:
                err(st, kind, "expect_illegal needs {do: {...}, rule: ID}")
            else:
                _keys(body, ("do", "rule", "reason"), "expect_illegal", err)
                _check_action(body["do"], err, body, "do")
        elif kind == "expect":
            if not isinstance(body, dict):
                err(st, kind, "expect needs a mapping of checks")
            else:
                _keys(body, EXPECT_KEYS, "expect", err)
        elif kind == "advance":
            target = body.get("step") if isinstance(body, dict) else body
            if target not in STEPS + PROCESSES:
                err(st, kind, f"advance to a step or combat process; got {target!r}"
                              f"{_hint(str(target), STEPS + PROCESSES)}")
    if errors:
        raise DataErrors(errors)
    setup = {
        "scenario": True,
        "seed": seed,
        "dice": list(dice),
        "players": [_player_setup(p) for p in players],
        "start": plain(start) if start else None,
    }
    for zone in ("deck", "discard", "grail"):
        if tree.get(zone) is not None:
            setup[zone] = [str(c) for c in tree[zone]]
    return Scenario(label, str(tree.get("title", path.stem)), str(tree.get("description", "") or ""),
                    errata, setup, plain(profile), plain(cards), steps, tree,
                    str(tree.get("title_en", "") or ""), str(tree.get("description_en", "") or ""))


def _player_setup(p: dict) -> dict:
    d = plain(p)
    if "servant" in d:
        d["servant"] = dict(d["servant"])
    return d


def _keys(m: Any, allowed: tuple, what: str, err) -> None:
    if not isinstance(m, dict):
        return
    for k in m:
        if k not in allowed:
            err(m, k, f"unknown key {k!r} in {what}{_hint(str(k), allowed)}")


def _hint(word: Any, options) -> str:
    near = get_close_matches(str(word), [str(o) for o in options], n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


def _line(tree: Any, key: str) -> int:
    return location(tree, key, ("", 0))[1] if tree is not None else 0


def _check_action(body: Any, err, holder: Any, key: str) -> None:
    if not isinstance(body, dict) or "action" not in body:
        err(holder, key, "do needs {action: …} (pass, raid, encounter_target, attack, play, "
                         "discard, use, spell, choose, resolve, advance)")
        return
    kind = body["action"]
    if kind not in ACTION_KEYS:
        err(body, "action", f"unknown action {kind!r}{_hint(kind, ACTION_KEYS)}")
        return
    _keys(body, ACTION_KEYS[kind] + ("action",), f"action {kind}", err)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) < 100 else text[:97] + "…"


# --------------------------------------------------------------------------- running


@dataclass
class StepResult:
    step: Step
    ok: bool
    message: str
    events: list[Event] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)


class ScenarioRun:
    """Plays a scenario step by step; ``back()`` undoes the actions of the last step."""

    def __init__(self, scenario: Scenario, game: Game | None = None, *, errata: bool | None = None,
                 root: Path | None = None) -> None:
        self.scenario = scenario
        self.game = game or scenario.build_game(errata=errata, root=root)
        self.index = 0
        self.lang = "en"  # language of the step messages (the GUI sets its own)
        self.results: list[StepResult] = []
        self._marks: list[tuple[int, int]] = []  # (actions applied, log length) before each step
        self._check_log_from = 0  # the first check sees the setup's automatic work too

    @property
    def done(self) -> bool:
        return self.index >= len(self.scenario.steps)

    def forward(self) -> StepResult:
        step = self.scenario.steps[self.index]
        g = self.game
        self._marks.append((len(g.history), len(g.log), self._check_log_from))
        start_log = len(g.log)
        try:
            ok, message = self._run(step)
        except ScenarioError as exc:
            ok, message = False, exc.message
        except IllegalAction as exc:
            ok, message = False, f"illegal action: {exc.message}" + (f" [{exc.rule}]" if exc.rule else "")
        except RulesError as exc:
            ok, message = False, str(exc)
        except Exception as exc:  # an engine bug: report it on the step, never as a traceback
            ok, message = False, f"internal error: {type(exc).__name__}: {exc}"
        events = g.log[start_log:]
        rules = list(dict.fromkeys(r for e in events for r in e.rules))
        result = StepResult(step, ok, message, events, rules)
        self.results.append(result)
        self.index += 1
        return result

    def back(self) -> None:
        if not self._marks:
            return
        actions, _log, check_from = self._marks.pop()
        while len(self.game.history) > actions:
            self.game.undo()
        self.game._redo.clear()
        self._check_log_from = check_from
        self.results.pop()
        self.index -= 1

    def run_all(self) -> list[StepResult]:
        while not self.done:
            self.forward()
        return self.results

    @property
    def passed(self) -> bool:
        return all(r.ok for r in self.results) and self.done

    # --- one step

    def _run(self, step: Step) -> tuple[bool, str]:
        g = self.game
        if step.kind == "say":
            return True, step.say or step.say_en
        if step.kind == "do":
            body = step.body
            if body.get("action") == "resolve":
                return True, self._resolve(step)
            if body.get("action") == "advance":
                return True, self._advance(step, body.get("step"))
            action = self.to_action(body, step.line)
            text = g.describe(action, self.lang)  # before: applying may change what the action refers to
            g.apply(action)
            return True, text
        if step.kind == "resolve":
            return True, self._resolve(step)
        if step.kind == "advance":
            target = step.body.get("step") if isinstance(step.body, dict) else step.body
            return True, self._advance(step, target)
        if step.kind == "expect":
            failures = self._check(step.body, step.line)
            self._check_log_from = len(g.log)
            return (not failures), ("; ".join(failures) if failures else "ok: " + _short(plain(step.body)))
        if step.kind == "expect_illegal":
            action = self.to_action(step.body["do"], step.line)
            before = g.state.to_dict()
            try:
                g.apply(action)
            except IllegalAction as exc:
                if g.state.to_dict() != before:
                    return False, "the refused action changed the state"
                want = step.body.get("rule")
                if want and exc.rule != str(want):
                    return False, f"refused, but by rule {exc.rule or '(none)'} ({exc.reason}), not {want}"
                want_reason = step.body.get("reason")
                if want_reason and exc.reason != want_reason:
                    return False, f"refused for {exc.reason}, not {want_reason}"
                return True, f"refused: {exc.message} [{exc.rule}]"
            g.undo()
            g._redo.clear()
            return False, f"{g.describe(action, self.lang)} was allowed"
        raise ScenarioError(self.scenario.path, step.line, f"unknown step {step.kind}")

    def _resolve(self, step: Step) -> str:
        g = self.game
        n = 0
        while g.pending is not None and g.pending.kind == "priority" and g.state.stack:
            g.apply(Pass(g.pending.player))
            n += 1
            if n > 10000:
                raise ScenarioError(self.scenario.path, step.line, "resolve did not finish")
        return f"resolved ({n} passes)"

    def _advance(self, step: Step, target: str) -> str:
        g = self.game
        s = g.state

        def at_target() -> bool:
            if target in PROCESSES:
                return s.combat is not None and s.combat.process == target
            return s.step == target and s.combat is None

        start = (s.turn, s.step, s.combat.process if s.combat else None)
        if at_target():
            return f"already at {target}"
        n = 0
        while True:
            s = g.state
            if at_target() and (s.turn, s.step, s.combat.process if s.combat else None) != start:
                return f"advanced to {target} ({n} passes)"
            p = g.pending
            if p is None:
                raise ScenarioError(self.scenario.path, step.line,
                                    f"the game ended before {target}")
            if p.kind != "priority":
                raise ScenarioError(self.scenario.path, step.line,
                                    f"cannot advance to {target}: {g.pname(p.player)} must decide "
                                    f"({p.kind}) first")
            g.apply(Pass(p.player))
            n += 1
            if n > 10000:
                raise ScenarioError(self.scenario.path, step.line, f"never reached {target}")

    # --- names → engine values

    def _player(self, name: Any, line: int) -> int:
        try:
            return self.game.player_index(str(name))
        except KeyError:
            names = [p.name for p in self.game.state.players]
            raise ScenarioError(self.scenario.path, line,
                                f"no player called {name!r}{_hint(name, names)}") from None

    def _card_id(self, ref: Any, line: int) -> str:
        db = self.game.db
        ref = str(ref)
        if ref in db.cards:
            return ref
        try:
            return db.class_card(ref).id
        except KeyError:
            pass
        for c in db.cards.values():
            if ref in (c.name, c.name_en):
                return c.id
        raise ScenarioError(self.scenario.path, line,
                            f"no card {ref!r}{_hint(ref, list(db.cards))}")

    def _uid_in(self, card_ref: Any, uids: list[int], line: int, where: str) -> int:
        """The instance of a card among ``uids``; ``M-006#2`` names the second copy there."""
        ref, nth = str(card_ref), 1
        if "#" in ref:
            ref, _, n = ref.rpartition("#")
            if not n.isdigit() or int(n) < 1:
                raise ScenarioError(self.scenario.path, line,
                                    f"{card_ref!r}: a copy number after # must be 1, 2, …")
            nth = int(n)
        cid = self._card_id(ref, line)
        seen = 0
        for u in uids:
            if self.game.state.cards[u] == cid:
                seen += 1
                if seen == nth:
                    return u
        copy = f" (copy {nth})" if nth > 1 else ""
        raise ScenarioError(self.scenario.path, line, f"{ref}{copy} is not {where}")

    def to_action(self, body: dict, line: int) -> Action:
        g = self.game
        s = g.state
        kind = body["action"]
        if "player" in body:
            p = self._player(body["player"], line)
        elif g.pending is not None:
            p = g.pending.player
        else:
            raise ScenarioError(self.scenario.path, line, "the game is over: nobody can act")
        pl = s.players[p]
        if kind == "pass":
            return Pass(p)
        if kind in ("raid", "encounter_target"):
            t = self._player(body.get("target"), line)
            return DeclareRaid(p, t) if kind == "raid" else ChooseEncounterTarget(p, t)
        if kind == "attack":
            t = body.get("type")
            if t not in ("physical", "magic"):
                raise ScenarioError(self.scenario.path, line, "attack type must be physical or magic")
            return ChooseAttack(p, t)
        if kind == "play":
            return PlayCard(p, self._uid_in(body.get("card"), pl.hand, line, f"in {pl.name}'s hand"))
        if kind == "discard":
            return Discard(p, self._uid_in(body.get("card"), pl.hand, line, f"in {pl.name}'s hand"))
        if kind == "use":
            sources = [u for u in [pl.hero, pl.klass] + pl.seat + pl.hand if u is not None]
            uid = self._uid_in(body.get("card"), sources, line, f"among {pl.name}'s cards")
            card = g.card_of(uid)
            eff = body.get("effect")
            if eff is None:
                active = [i for i, e in enumerate(card.effects, 1) if not e.is_constant]
                if len(active) != 1:
                    raise ScenarioError(self.scenario.path, line,
                                        f"{card.id} has {len(active)} usable effects: name one")
                index = active[0]
            else:
                try:
                    index = card.effects.index(card.effect(eff)) + 1
                except (KeyError, ValueError):
                    names = [e.name for e in card.effects]
                    raise ScenarioError(self.scenario.path, line,
                                        f"{card.id} has no effect {eff!r}{_hint(eff, names)}") from None
            targets = body.get("targets", [])
            if not isinstance(targets, list):
                targets = [targets]
            kind_t = card.effects[index - 1].target.kind
            return UseEffect(p, uid, index, tuple(self._target(t, kind_t, line) for t in targets))
        if kind == "spell":
            sk = body.get("kind", "negate")
            if sk == "negate":
                return CommandSpell(p, "negate", self._stack_index(body.get("target"), line))
            if sk == "remove_coin":
                return CommandSpell(p, "remove_coin", self._player(body.get("target"), line),
                                    str(body.get("coin", "assassination")))
            raise ScenarioError(self.scenario.path, line, "spell kind must be negate or remove_coin")
        if kind == "choose":
            d = s.decision
            if d is None:
                raise ScenarioError(self.scenario.path, line, "no choice is pending")
            if "card" in body:
                return Choose(p, self._uid_in(body["card"], list(d.options), line, "a choice offered"))
            if "player" in body and d.kind not in ("discard",) and "option" not in body:
                return Choose(p, self._player(body["player"], line))
            return Choose(p, plain(body.get("option")))
        raise ScenarioError(self.scenario.path, line, f"unknown action {kind!r}")

    def _target(self, t: Any, kind: str, line: int) -> Any:
        g = self.game
        if kind in ("servant", "player", "dropped_player"):
            return self._player(t, line)
        if kind == "card":
            s = g.state
            seat_cards = [u for pl in s.players for u in pl.seat]
            return self._uid_in(t, seat_cards, line, "on a servant seat")
        if kind == "stack_effect":
            return self._stack_index(t, line)
        if isinstance(t, str) and t in [p.name for p in g.state.players]:
            return self._player(t, line)
        raise ScenarioError(self.scenario.path, line, f"this effect takes no target (got {t!r})")

    def _stack_index(self, ref: Any, line: int) -> int:
        g = self.game
        stack = g.state.stack
        if isinstance(ref, int) and 0 <= ref < len(stack):
            return ref
        for i in range(len(stack) - 1, -1, -1):
            item = stack[i]
            if item.card < 0:
                continue
            card = g.card_of(item.card)
            e = card.effects[item.effect - 1]
            if str(ref) in (e.name, e.name_en, card.id, card.name):
                return i
        raise ScenarioError(self.scenario.path, line, f"no effect {ref!r} waits on the stack")

    # --- checks

    def _check(self, body: dict, line: int) -> list[str]:
        g = self.game
        s = g.state
        fails: list[str] = []
        p = self._player(body["player"], line) if "player" in body else None
        pl = s.players[p] if p is not None else None

        def need_player(key: str):
            if pl is None:
                raise ScenarioError(self.scenario.path, line, f"expect {key} needs player:")
            return pl

        def cmp(key: str, got: Any, want: Any) -> None:
            if got != want:
                fails.append(f"{key}: expected {want!r}, got {got!r}")

        for key, want in body.items():
            want = plain(want)
            if key in ("player", "card"):
                continue
            if key == "servant_state":
                need_player(key)
                cmp(key, g.servant_state(p), want)
            elif key == "card_state":
                need_player(key)
                if "card" not in body:
                    raise ScenarioError(self.scenario.path, line, "card_state needs card:")
                seat = [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]
                uid = self._uid_in(body["card"], seat, line, f"on {pl.name}'s seat")
                cmp(key, s.card_states.get(uid), want)
            elif key in ("mana", "mana_limit", "command_spells", "out"):
                need_player(key)
                cmp(key, getattr(pl, key), want)
            elif key == "coins":
                need_player(key)
                got = dict(pl.coins)
                if isinstance(want, int):
                    cmp(key, got.get("assassination", 0), want)
                else:
                    for coin, n in want.items():
                        cmp(f"coins.{coin}", got.get(coin, 0), n)
            elif key == "hand_size":
                need_player(key)
                cmp(key, len(pl.hand), want)
            elif key == "zone":
                if "card" not in body:
                    raise ScenarioError(self.scenario.path, line, "zone needs card:")
                cid = self._card_id(body["card"], line)
                zones = []
                for u, c in s.cards.items():
                    if c == cid:
                        z, owner = s.zone_of(u)
                        if p is None or owner in (None, p):
                            zones.append("removed" if z == "box" else z)
                if want not in zones:
                    fails.append(f"zone of {cid}: expected {want}, found {sorted(set(zones))}")
            elif key == "stats":
                need_player(key)
                got = g.fighter_stats(p)
                for k, v in want.items():
                    if k not in got:
                        raise ScenarioError(self.scenario.path, line, f"no stat {k!r} (pa, pd, ma, md)")
                    cmp(f"stats.{k}", got[k], v)
            elif key == "winner":
                o = g.outcome()
                if o is None:
                    fails.append(f"winner: expected {want!r}, but the game is not over")
                else:
                    cmp(key, o.winner_name or "none", want)
            elif key == "step":
                cmp(key, s.step, want)
            elif key == "process":
                cmp(key, s.combat.process if s.combat else None, want)
            elif key in ("turn_player", "active_master"):
                v = getattr(s, key)
                cmp(key, None if v is None else s.players[v].name, want)
            elif key in ("deck_size", "discard_size", "grail_size"):
                cmp(key, len(getattr(s, key[:-5])), want)
            elif key == "stack_size":
                cmp(key, len(s.stack), want)
            elif key == "pending":
                pend = g.pending
                cmp(key, pend.kind if pend else None, want)
            elif key in ("log_cites", "log_not_cites"):
                cited = {r for e in g.log[self._check_log_from:] for r in e.rules}
                for rule in (want if isinstance(want, list) else [want]):
                    if key == "log_cites" and str(rule) not in cited:
                        fails.append(f"log does not cite {rule} since the previous check "
                                     f"(cited: {', '.join(sorted(cited)) or 'nothing'})")
                    if key == "log_not_cites" and str(rule) in cited:
                        fails.append(f"log cites {rule} but should not")
        return fails


def rules_cited(results: list[StepResult]) -> set[str]:
    return {r for res in results for r in res.rules}
