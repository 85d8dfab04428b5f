"""Scenario files: a position plus a script of actions and checks (design.md "Scenario files").

Scenarios are ruling tests, demos and regression tests at once. ``load_scenario`` reads and checks a
file (every problem is a ``DataError`` naming file and line); ``ScenarioRun`` plays it one step at a
time — forward, and back by undoing the actions a step applied — so the command line (``fate-royal
run``) and the GUI's demo mode share one implementation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from fate_royal.cards import load_card_db, load_profile
from fate_royal.cards.model import CardDB
from fate_royal.cards.ruleset import RuleSet
from fate_royal.cards.yamlsrc import DataError, DataErrors, YMap, location, parse_yaml, plain
from fate_royal.fsutil import FileTooLarge, read_bounded
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.events import Event
from fate_royal.rules.game import Game
from fate_royal.rules.invariants import check_state
from fate_royal.rules.setup import (  # a scenario's setup is checked as a save's, at its lines
    hint, located_problems,
)
from fate_royal.rules.state import PROCESSES, STEPS

TOP_KEYS = ("title", "title_en", "description", "description_en", "errata", "rules", "profile",
            "options", "seed", "dice", "cards", "players", "deck", "discard", "grail", "start",
            "steps", "tags")
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
    rules: RuleSet  # as the file says (errata:, rules:, profile:)
    setup: dict[str, Any]
    profile_overrides: dict[str, Any]
    cards: list
    steps: list[Step]
    raw: Any = None
    title_en: str = ""
    description_en: str = ""
    seed: int = 0
    options: dict = field(default_factory=dict)  # game options, e.g. {auto_pass: false}

    @property
    def errata(self) -> bool:
        """Every errata rule in force (the shorthand ``errata: true``)."""
        return self.rules.all_errata

    def ruleset(self, override: RuleSet | bool | None = None, root: Path | None = None) -> RuleSet:
        """The rules to play with: the file's, or ``override`` (a rule set, or all errata on/off),
        with the scenario's own ``profile:`` changes on top."""
        if override is None and root is None:
            return self.rules
        if override is None:
            switches = self.rules
        elif isinstance(override, bool):
            name = "house" if override else "base"
            switches = RuleSet.from_errata(override, name=name, title=name)
        else:
            switches = override
        if isinstance(override, RuleSet) and root is None:
            base = override.profile  # an explicit rule set brings its own D parameters
        else:
            base = load_profile(None if root is None else Path(root) / "profile.yaml")
        profile = base.with_(**self.profile_overrides) if self.profile_overrides else base
        return switches.with_(profile=profile)

    def load_db(self, root: Path | None = None, rules: RuleSet | bool | None = None) -> CardDB:
        # the card definitions as read (with their lines), so that an error names its line
        cards = self.raw.get("cards") if isinstance(self.raw, YMap) and self.raw.get("cards") \
            else self.cards
        # a scenario is a shared position: its own cards: carry any card it needs, never the
        # personal pack of whoever opens it
        return load_card_db(root, extra=cards or None, extra_source=f"{self.path} (cards:)",
                            rules=self.ruleset(rules, root), pack=False)

    def build_game(self, db: CardDB | None = None, rules: RuleSet | bool | None = None,
                   root: Path | None = None, **options: Any) -> Game:
        """A Game at the scenario's start position (rules as the file says unless given)."""
        ruleset = self.ruleset(rules, root)
        db = db or self.load_db(root, ruleset)
        try:
            game = Game(db, ruleset, self.setup, seed=self.seed,
                        options={**self.options, **options} or None, cards=list(self.cards or []))
        except (RulesError, KeyError, ValueError) as exc:
            # a card the data does not know: the line that names it, else the players' line
            named = re.search(r"unknown card '([^']+)'", str(exc))
            line = _line_naming(self.raw, named.group(1)) if named else 0
            raise ScenarioError(self.path, line or _line(self.raw, "players"), f"cannot set up: {exc}") from exc
        problems = check_state(game.ctx.s)
        if problems:  # the engine's own invariants: a start position it could never reach
            raise ScenarioError(self.path, _line(self.raw, "players"),
                                "impossible start position: " + "; ".join(problems))
        return game


def _too_large(label: str, size: int) -> DataError:
    return DataError(label, 0, f"a scenario file is at most {MAX_SCENARIO_BYTES // 1024} KB "
                               f"(this one is {size // 1024} KB)")


def load_scenario(path: str | Path, text: str | bytes | None = None) -> Scenario:
    """Read and check a scenario file. Raises DataErrors (file:line messages) on any problem."""
    path = Path(path)
    label = str(path)
    errors: list[DataError] = []
    if text is None:
        try:  # (never more than the bound is read; a pipe or a device is refused unopened)
            text = read_bounded(path, MAX_SCENARIO_BYTES)
        except FileTooLarge as exc:
            raise DataErrors([_too_large(label, exc.size)]) from None
        except OSError as exc:
            raise DataErrors([DataError(label, 0, f"cannot read file: {exc.strerror or exc}")]) from None
    if len(text) > MAX_SCENARIO_BYTES:
        raise DataErrors([_too_large(label, len(text))])
    tree = parse_yaml(text, label, errors)
    if errors:
        raise DataErrors(errors)
    if not isinstance(tree, YMap):
        raise DataErrors([DataError(label, 1, "a scenario must be a mapping (title, players, steps…)")])
    c = _Checker(label, errors)
    c.keys(tree, TOP_KEYS, "scenario")
    for key in ("title", "description", "title_en", "description_en"):
        if key in tree and not isinstance(tree[key], str):
            c.err(tree, key, f"{key} must be text")
    errata = tree.get("errata", True)
    if not isinstance(errata, bool):
        c.err(tree, "errata", "errata must be true or false")
        errata = True
    if "rules" in tree and "errata" in tree and not isinstance(tree["rules"], list):
        c.err(tree, "errata", "give either errata: or a rule set in rules:, not both "
                              "(a list in rules: such as [errata, -E8] may follow errata:)")
    seed = tree.get("seed", 0)
    if not _whole(seed) or not 0 <= seed < 2 ** 63:
        c.err(tree, "seed", "seed must be a whole number from 0 to 2^63 - 1")
        seed = 0
    profile = c.profile(tree)
    options = c.options(tree)
    cards = tree.get("cards", []) or []
    if not isinstance(cards, list):
        c.err(tree, "cards", "cards must be a list of card definitions")
        cards = []
    c.setup(tree)
    steps = c.steps(tree)
    rules = None
    if not errors:
        rules = _scenario_rules(tree, errata, plain(profile), path, label, errors)
    if errors:
        raise DataErrors(errors)
    setup = {
        "scenario": True,
        "dice": list(tree.get("dice") or []),
        "players": [_player_setup(p) for p in tree["players"]],
        "start": plain(tree.get("start")) or None,
    }
    for zone in ("deck", "discard", "grail"):
        if tree.get(zone) is not None:
            setup[zone] = [str(card) for card in tree[zone]]
    return Scenario(label, str(tree.get("title", path.stem)), str(tree.get("description", "") or ""),
                    rules, setup, plain(profile), plain(cards), steps, tree,
                    str(tree.get("title_en", "") or ""), str(tree.get("description_en", "") or ""),
                    seed, plain(options))


#: A scenario file's size and steps (its players, piles, dice and start are checked as any
#: setup's, in ``setup``): far above any real one (the shipped ones are at most 6 KB and
#: 24 steps) and far below what would take the table seconds and hundreds of MB to read (a 3 MB
#: file of 300,000 steps took 780 MB and more than 20 s to open)
MAX_SCENARIO_BYTES = 1024 * 1024
MAX_STEPS = 1000
SETUP_PARTS = ("players", "deck", "discard", "grail", "dice", "start")


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class _Checker:
    """Collects the problems of one scenario file, each at its file and line."""

    def __init__(self, label: str, errors: list[DataError]) -> None:
        self.label = label
        self.errors = errors

    def err(self, holder: Any, key: Any, message: str) -> None:
        f, line = location(holder, key, (self.label, 1))
        self.errors.append(DataError(f, line, message))

    def keys(self, m: Any, allowed: tuple, what: str) -> None:
        _keys(m, allowed, what, self.err)

    def options(self, tree: YMap) -> dict:
        options = tree.get("options", {}) or {}
        if not isinstance(options, dict):
            self.err(tree, "options", "options must be a mapping such as {auto_pass: false}")
            return {}
        from fate_royal.rules.record import check_option

        for k, v in options.items():
            problem = check_option(str(k), plain(v))
            if problem:
                self.err(options, k, problem)
        return options

    def profile(self, tree: YMap) -> dict:
        profile = tree.get("profile", {}) or {}
        if not isinstance(profile, dict):
            self.err(tree, "profile", "profile must be a mapping of rules-profile parameters")
            return {}
        from fate_royal.cards.profile import check_value

        for k, v in profile.items():
            problem = check_value(str(k), plain(v))
            if problem:
                self.err(profile, k, problem)
        return profile

    def setup(self, tree: YMap) -> None:
        """The players, piles, dice and start, checked as a save's setup is (``setup.py``), each
        problem at the line of the key or item it is about (in the file's order); a scenario's
        players need names."""
        found: list[DataError] = []
        players = tree.get("players")
        for p in players if isinstance(players, list) else ():
            if isinstance(p, dict) and "name" not in p:
                found.append(DataError(*location(p), "each player needs a name"))
        part = {key: tree[key] for key in SETUP_PARTS if key in tree}
        for path, message in located_problems(part):  # (part holds setup keys only)
            holder = tree
            for key in path[:-1]:
                holder = holder[key]
            found.append(DataError(*location(holder, path[-1]), message))
        self.errors += sorted(found, key=lambda e: e.line)

    def steps(self, tree: YMap) -> list[Step]:
        steps_raw = tree.get("steps", []) or []
        steps: list[Step] = []
        if not isinstance(steps_raw, list):
            self.err(tree, "steps", "steps must be a list")
            return steps
        if len(steps_raw) > MAX_STEPS:
            self.err(tree, "steps", f"a scenario has at most {MAX_STEPS} steps (this one has {len(steps_raw)})")
            return steps
        for i, st in enumerate(steps_raw):
            _, line = location(steps_raw, i, (self.label, 1))
            if isinstance(st, str) and st in ("resolve",):
                steps.append(Step("resolve", {}, line))
                continue
            if not isinstance(st, dict) or not st:
                self.err(steps_raw, i, f"a step must be one of: {', '.join(STEP_KINDS)}")
                continue
            kinds = [k for k in st if k in STEP_KINDS and k != "say"]
            for k in st:
                if k not in STEP_KINDS and k not in STEP_EXTRA:
                    self.err(st, k, f"unknown step key {k!r}{hint(k, STEP_KINDS)}")
            if len(kinds) > 1:
                self.err(st, kinds[1], "one step does one thing (do, expect, expect_illegal, "
                                       "resolve or advance)")
            kind = kinds[0] if kinds else "say"
            body = st.get(kind) if kind != "say" else None
            steps.append(Step(kind, body, line, str(st.get("say", "") or ""),
                              str(st.get("say_en", "") or "")))
            self.step_body(st, kind, body)
        return steps

    def step_body(self, st: YMap, kind: str, body: Any) -> None:
        if kind == "do":
            _check_action(body, self.err, st, "do")
        elif kind == "expect_illegal":
            if not isinstance(body, dict) or "do" not in body:
                self.err(st, kind, "expect_illegal needs {do: {...}, rule: ID}")
            else:
                self.keys(body, ("do", "rule", "reason"), "expect_illegal")
                _check_action(body["do"], self.err, body, "do")
        elif kind == "expect":
            if not isinstance(body, dict):
                self.err(st, kind, "expect needs a mapping of checks")
            else:
                self.keys(body, EXPECT_KEYS, "expect")
        elif kind == "advance":
            target = body.get("step") if isinstance(body, dict) else body
            if not isinstance(target, str) or target not in STEPS + PROCESSES:
                self.err(st, kind, f"advance to a step or combat process; got {target!r}"
                                   f"{hint(str(target), STEPS + PROCESSES)}")


def _scenario_rules(tree: YMap, errata: bool, profile: dict, path: Path, label: str,
                    errors: list[DataError]) -> RuleSet | None:
    """The scenario's rule set: ``errata:`` (all on / off), a ``rules:`` set or list of switches,
    then its ``profile:`` changes."""
    from fate_royal.cards.rulesets import resolve_ruleset

    spec = tree.get("rules")
    # a rule set of its own (a name or a file) brings its own profile, which profile: then changes
    # (below); errata: and a list of switches start from the shipped profile with profile: on it
    own_set = spec is not None and not isinstance(spec, list)
    try:
        base_profile = load_profile(overrides=None if own_set else profile or None,
                                    overrides_source=f"{label} (profile:)")
        start = RuleSet.from_errata(errata, base_profile, name="house" if errata else "base",
                                    title="house" if errata else "base")
        if spec is None:
            return start
        rules = resolve_ruleset(spec, base=start, profile=base_profile, relative_to=path.parent,
                                source=f"{label}:{location(tree, 'rules', (label, 1))[1]}")
        if own_set and profile:
            try:  # the rule set's own parameters may not fit the file's (start_mana, mana_limit)
                rules = rules.with_(profile=rules.profile.with_(**profile))
            except ValueError as exc:
                raise DataError(f"{label} (profile:)", 0, str(exc)) from None
        return rules
    except DataError as exc:
        for e in (exc.errors if isinstance(exc, DataErrors) else [exc]):
            if e.file == f"{label} (profile:)":  # values that do not fit together: at the key named
                held = tree.get("profile")
                keys = [word for word in e.message.split() if word in held]
                line = location(held, keys[0])[1] if keys else location(tree, "profile")[1]
                errors.append(DataError(label, line, e.message))
            elif e.file.startswith(label) or e.line == 0:
                errors.append(DataError(label, location(tree, "rules", (label, 1))[1], e.message))
            else:
                errors.append(e)
        return None


def _player_setup(p: dict) -> dict:
    # (an empty ``servant:`` stays None: setup deals that player a servant, as when it is missing)
    return plain(p)


def _keys(m: Any, allowed: tuple, what: str, err) -> None:
    if not isinstance(m, dict):
        return
    for k in m:
        if k not in allowed:
            err(m, k, f"unknown key {k!r} in {what}{hint(k, allowed)}")


def _line(tree: Any, key: str) -> int:
    return location(tree, key, ("", 0))[1] if tree is not None else 0


def _line_naming(tree: Any, value: str) -> int:
    """The line of the first place in ``tree`` that holds ``value`` (0 if none)."""
    items = tree.items() if isinstance(tree, YMap) else enumerate(tree) if isinstance(tree, list) else ()
    for key, v in items:
        if v == value:
            return location(tree, key, ("", 0))[1]
        found = _line_naming(v, value)
        if found:
            return found
    return 0


def _check_action(body: Any, err, holder: Any, key: str) -> None:
    if not isinstance(body, dict) or "action" not in body:
        err(holder, key, "do needs {action: …} (pass, raid, encounter_target, attack, play, "
                         "discard, use, spell, choose, resolve, advance)")
        return
    kind = body["action"]
    if not isinstance(kind, str) or kind not in ACTION_KEYS:  # (a list or a map is no action)
        err(body, "action", f"unknown action {_short(kind)!r}{hint(kind, ACTION_KEYS)}")
        return
    _keys(body, ACTION_KEYS[kind] + ("action",), f"action {kind}", err)


def _short(value: Any) -> str:
    text = str(value)
    return text if len(text) < 100 else text[:97] + "…"
