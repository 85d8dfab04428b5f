"""Rule-set comparison: the same position and script played under two rule sets.

``compare_rules`` runs a scenario (through ``ScenarioRun``, once per rule set) or a live game's
record (rebuilt with each set's card patches and rules, replayed action by action, stopping where
an action is illegal under the other rules), and lists what differs between the two results: per
player servant state, seat card states, mana, command spells, coins, hand size, dropped out,
effective stats; where every card is (by card id); pile sizes; step; outcome. It also lists the rule
ids cited on only one side, so the GUI can say which rules made the difference. ``compare_errata``
is the common case: the house errata against the base rules.

Plain data, no Qt: the GUI's comparison window and the tests read the same ``Comparison``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.actions import Action
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.game import Game
from fate_royal.rules.record import OptionChange

#: Summary paths in display order of their first segment.
SECTION_ORDER = ("players", "zones", "piles", "game")

#: Errata rules that restate a base rule (rules.md: "E2.2 and E2.3 restate B11"): when one side cites
#: the E rule and the other the B rule, neither is a difference.
RESTATES = {"E2.2": "B11", "E2.3": "B11"}


@dataclass(frozen=True)
class Difference:
    """One summary value that differs: ``path`` (e.g. ``players.B.servant_state``) and the values
    under the first and the second rule set (``on``/``off`` for errata on/off; ``None`` where the
    value does not exist on that side). ``rules`` are the rule ids cited on only one side that
    touch this path's player (best effort; empty when none can be named)."""

    path: str
    on: Any
    off: Any
    rules: tuple[str, ...] = ()

    @property
    def section(self) -> str:
        return self.path.split(".", 1)[0]

    @property
    def player(self) -> str | None:
        parts = self.path.split(".")
        return parts[1] if parts[0] == "players" and len(parts) > 1 else None

    @property
    def key(self) -> str:
        """The path without its section and player (``servant_state``, ``card_states.M-006``)."""
        parts = self.path.split(".")
        if parts[0] == "players":
            return ".".join(parts[2:])
        return ".".join(parts[1:])


@dataclass
class StepNote:
    """One scenario step as run on one side (for the step-by-step view of a comparison)."""

    index: int  # 0-based step index
    label: str
    ok: bool
    message: str
    rules: list[str] = field(default_factory=list)


@dataclass
class Side:
    """The result of the script under one rule set."""

    ruleset: RuleSet
    game: Game | None
    summary: dict[str, Any] = field(default_factory=dict)
    rules: list[str] = field(default_factory=list)  # every rule id cited in the log, first-seen order
    applied: int = 0  # actions (live game) or steps (scenario) played
    total: int = 0
    stopped: str = ""  # why the replay stopped early ("" when it ran to the end)
    #: the refused action when the rules refused one (the view words it): number (1-based), action,
    #: reason (IllegalAction's code) and rule
    refused: dict[str, Any] = field(default_factory=dict)
    steps: list[StepNote] = field(default_factory=list)
    error: str = ""  # the position could not even be set up

    @property
    def complete(self) -> bool:
        return not self.stopped and not self.error

    @property
    def errata(self) -> bool:
        """Every errata rule in force on this side."""
        return self.ruleset.all_errata

    @property
    def label(self) -> str:
        return self.ruleset.title or self.ruleset.name or "custom rules"


@dataclass
class Comparison:
    """Two sides: ``on`` ran under the first rule set, ``off`` under the second (for the errata
    comparison: the house errata and the base rules)."""

    title: str
    on: Side
    off: Side
    differences: list[Difference]
    rules_only_on: list[str]
    rules_only_off: list[str]

    @property
    def a(self) -> Side:
        return self.on

    @property
    def b(self) -> Side:
        return self.off

    @property
    def same(self) -> bool:
        return not self.differences

    def difference(self, path: str) -> Difference | None:
        for d in self.differences:
            if d.path == path:
                return d
        return None

    def side(self, first: bool) -> Side:
        return self.on if first else self.off

    def lines(self) -> list[str]:
        """A plain-text report (for the command line and for logs)."""
        a, b = self.on.label, self.off.label
        out = [f"{self.title}: {len(self.differences)} difference(s) between {a} and {b}"]
        for s in (self.on, self.off):
            if s.stopped or s.error:
                out.append(f"  {s.label}: {s.error or s.stopped}")
        for d in self.differences:
            rules = f"  [{', '.join(d.rules)}]" if d.rules else ""
            out.append(f"  {d.path}: {a}={_show(d.on)}  {b}={_show(d.off)}{rules}")
        if self.rules_only_on:
            out.append(f"  rules cited only under {a}: {', '.join(self.rules_only_on)}")
        if self.rules_only_off:
            out.append(f"  rules cited only under {b}: {', '.join(self.rules_only_off)}")
        return out


# --------------------------------------------------------------------------- summaries


def _show(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def position_summary(game: Game) -> dict[str, Any]:
    """A flat mapping path -> comparable value describing a position (names, not seat numbers or
    card instance ids, so two games built separately compare by what matters)."""
    s = game.ctx.s
    out: dict[str, Any] = {}
    for i, pl in enumerate(s.players):
        base = f"players.{pl.name}"
        out[f"{base}.servant"] = (f"{s.cards[pl.hero]}/{s.cards[pl.klass]}"
                                  if pl.hero is not None and pl.klass is not None else None)
        out[f"{base}.servant_state"] = game.servant_state(i) if pl.hero is not None else None
        if pl.klass is not None:
            out[f"{base}.class_state"] = s.card_states.get(pl.klass)
        states: dict[str, list[str]] = {}
        for uid in pl.seat:
            states.setdefault(s.cards[uid], []).append(s.card_states.get(uid) or "rise")
        for cid, sts in sorted(states.items()):
            out[f"{base}.card_states.{cid}"] = ", ".join(sorted(sts))
        out[f"{base}.seat_size"] = len(pl.seat)
        out[f"{base}.mana"] = pl.mana
        out[f"{base}.mana_limit"] = pl.mana_limit
        out[f"{base}.command_spells"] = pl.command_spells
        for coin, n in sorted(pl.coins.items()):
            if n:
                out[f"{base}.coins.{coin}"] = n
        out[f"{base}.hand_size"] = len(pl.hand)
        out[f"{base}.out"] = pl.out
        if not pl.out and pl.hero is not None:
            try:
                st = game.fighter_stats(i)
                out[f"{base}.stats"] = "/".join(str(st.get(k, 0)) for k in ("pa", "pd", "ma", "md"))
            except Exception:  # a stats failure must not hide the rest of the comparison
                pass
    # where every card is, by card id: "A:hand×1, discard×2"
    where: dict[str, Counter] = {}
    for uid, cid in s.cards.items():
        zone, owner = s.zone_of(uid)
        if zone == "box":
            continue
        label = f"{s.players[owner].name}:{zone}" if owner is not None else zone
        where.setdefault(cid, Counter())[label] += 1
    for cid in sorted(where):
        c = where[cid]
        out[f"zones.{cid}"] = ", ".join(f"{z}×{n}" if n > 1 else z for z, n in sorted(c.items()))
    out["piles.deck_size"] = len(s.deck)
    out["piles.discard_size"] = len(s.discard)
    out["piles.grail_size"] = len(s.grail)
    out["piles.stack_size"] = len(s.stack)
    out["game.turn"] = s.turn
    out["game.turn_player"] = s.players[s.turn_player].name
    out["game.step"] = s.step
    out["game.process"] = s.combat.process if s.combat is not None else None
    out["game.active_master"] = (s.players[s.active_master].name
                                 if s.active_master is not None else None)
    out["game.over"] = s.over
    o = game.outcome()
    out["game.winner"] = (o.winner_name or "none") if o is not None else None
    return out


def _rules(game: Game | None) -> list[str]:
    if game is None:
        return []
    return list(dict.fromkeys(r for e in game.log for r in e.rules))


def diff_sides(on: Side, off: Side) -> tuple[list[Difference], list[str], list[str]]:
    """The differences between two sides and the rule ids cited on only one side."""
    only_on = [r for r in on.rules if r not in set(off.rules)]
    only_off = [r for r in off.rules if r not in set(on.rules)]
    same = {e for e, b in RESTATES.items() if e in only_on and b in only_off}
    if same:
        bases = {RESTATES[e] for e in same}
        only_off = [r for r in only_off if r not in bases]
        only_on = [r for r in only_on if r not in same]
    one_sided = set(only_on) | set(only_off)
    first_seen = only_on + only_off
    per_player: dict[str, list[str]] = {}
    unseated: list[str] = []  # one-sided rules of events that name no player (the deck, the game)
    for side in (on, off):
        if side.game is None:
            continue
        names = [p.name for p in side.game.ctx.s.players]
        for e in side.game.log:
            if not e.seats():
                unseated.extend(r for r in e.rules if r in one_sided and r not in unseated)
            for seat in e.seats():
                if not 0 <= seat < len(names):
                    continue
                for r in e.rules:
                    if r in one_sided and r not in per_player.setdefault(names[seat], []):
                        per_player[names[seat]].append(r)
    keys = list(dict.fromkeys(list(on.summary) + list(off.summary)))
    order = {s: i for i, s in enumerate(SECTION_ORDER)}
    keys.sort(key=lambda k: order.get(k.split(".", 1)[0], 99))
    diffs = []
    for k in keys:
        a, b = on.summary.get(k), off.summary.get(k)
        if a == b:
            continue
        player = k.split(".")[1] if k.startswith("players.") else None
        rules = tuple(per_player.get(player, ())) if player else tuple(unseated)
        if not rules:
            rules = tuple(first_seen)
        diffs.append(Difference(k, a, b, rules))
    return diffs, only_on, only_off


# --------------------------------------------------------------------------- running one side


DbLoader = Callable[[RuleSet, list], Any]


def _default_db_loader(root: Path | None) -> DbLoader:
    from fate_royal.cards import load_card_db

    def load(rules: RuleSet, extra: list) -> Any:
        return load_card_db(root, extra=extra or None, rules=rules)

    return load


def replay_side(setup: Any, actions: Iterable[Any], rules: RuleSet, *, db: Any, seed: int = 0,
                options: Any = None, cards: Any = ()) -> Side:
    """Build ``setup`` with ``db`` under ``rules`` and apply the record's ``actions`` (and option
    changes) in order, stopping at the first one the rules refuse."""
    actions = list(actions)
    side = Side(rules, None, total=sum(1 for a in actions if not isinstance(a, OptionChange)))
    try:
        game = Game(db, rules, setup, seed=seed, options=options, cards=cards)
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        side.error = f"cannot set up the position: {exc}"
        return side
    side.game = game
    done = 0
    for action in actions:
        if isinstance(action, OptionChange):
            game.set_option(action.key, action.value)
            continue
        try:
            game.apply(action)
        except IllegalAction as exc:
            who = game.player_name(action.player)
            label = rules.title or rules.name or "these rules"
            side.stopped = (f"action {done + 1} ({who}: {action.kind}) is not allowed under "
                            f"{label}: {exc.message}" + (f" [{exc.rule}]" if exc.rule else ""))
            side.refused = {"number": done + 1, "action": action, "reason": exc.reason, "rule": exc.rule}
            break
        except Exception as exc:  # an engine error on one side: report it, keep the other side
            side.stopped = f"action {done + 1} failed: {type(exc).__name__}: {exc}"
            break
        done += 1
        side.applied = done
    side.summary = position_summary(game)
    side.rules = _rules(game)
    return side


def run_scenario_side(scenario: Any, rules: RuleSet | bool, upto: int | None = None,
                      root: Path | None = None) -> Side:
    """Run a scenario's steps (the first ``upto`` of them) under a rule set (or errata on/off).
    A step that cannot be played (an illegal action, a failed advance) stops the run; failed checks
    do not."""
    from fate_royal.rules.scenario_run import ScenarioRun

    steps = scenario.steps if upto is None else scenario.steps[: max(0, upto)]
    try:
        ruleset = scenario.ruleset(rules, root)
    except Exception as exc:
        side = Side(RuleSet.from_errata(bool(rules)) if isinstance(rules, bool) else rules, None,
                    total=len(steps))
        side.error = f"cannot set up the position: {exc}"
        return side
    side = Side(ruleset, None, total=len(steps))
    try:
        run = ScenarioRun(scenario, rules=ruleset, root=root)
    except Exception as exc:
        side.error = f"cannot set up the position: {exc}"
        return side
    side.game = run.game
    for i in range(len(steps)):
        res = run.forward()
        side.steps.append(StepNote(i, res.step.label(), res.ok, res.message, list(res.rules)))
        side.applied = i + 1
        if not res.ok and res.step.kind not in ("expect", "expect_illegal", "say"):
            side.stopped = (f"step {i + 1} (line {res.step.line}) cannot be played under "
                            f"{side.label}: {res.message}")
            break
    side.summary = position_summary(run.game)
    side.rules = _rules(run.game)
    return side


# --------------------------------------------------------------------------- the entry points


def compare_rules(subject: Any, first: RuleSet, second: RuleSet, steps: Any = None, *,
                  db_loader: DbLoader | None = None, root: Path | None = None,
                  title: str = "") -> Comparison:
    """Run the same position and script under two rule sets and list the differences.

    ``subject`` is a ``Scenario`` (all its steps, or the first ``steps``), a live ``Game`` (its
    record; ``steps`` may give other actions) or a ``GameRecord``. ``db_loader(rules, extra_cards)``
    and ``root`` (a cards folder) choose the card data.
    """
    from fate_royal.rules.record import GameRecord
    from fate_royal.rules.scenario import Scenario

    if isinstance(subject, Scenario):
        upto = steps if isinstance(steps, int) else None
        on = run_scenario_side(subject, first, upto, root)
        off = run_scenario_side(subject, second, upto, root)
        title = title or subject.title
    else:
        record = subject.record if isinstance(subject, Game) else subject
        if not isinstance(record, GameRecord):
            raise TypeError(f"cannot compare {type(subject).__name__}")
        actions = list(record.actions) if steps is None else list(steps)
        loader = db_loader or _default_db_loader(root)
        sides = []
        for rules in (first, second):
            try:
                db = loader(rules, list(record.cards))
            except Exception as exc:
                sides.append(Side(rules, None, error=f"cannot load the card data: {exc}"))
                continue
            sides.append(replay_side(record.setup, actions, rules, db=db, seed=record.seed,
                                     options=record.options, cards=record.cards))
        on, off = sides
        title = title or "current position"
    diffs, only_on, only_off = diff_sides(on, off)
    return Comparison(title, on, off, diffs, only_on, only_off)


def compare_errata(subject: Any, steps: Any = None, *, db_loader: DbLoader | None = None,
                   root: Path | None = None, title: str = "") -> Comparison:
    """The house errata against the base rules (each with the subject's own D parameters)."""
    from fate_royal.rules.scenario import Scenario

    if isinstance(subject, Scenario):
        first, second = True, False
        return compare_rules(subject, first, second, steps, root=root, title=title)  # type: ignore[arg-type]
    record = subject.record if isinstance(subject, Game) else subject
    profile = record.rules.profile
    return compare_rules(subject, RuleSet.house(profile, name="house", title="house"),
                         RuleSet.base(profile, name="base", title="base"), steps,
                         db_loader=db_loader, root=root, title=title)


# --------------------------------------------------------------------------- the ruling sweep


@dataclass
class RulingPlay:
    """One ruling scenario played under one rule set."""

    ok: bool
    error: str = ""  # could not be loaded or set up
    game: Game | None = None
    failures: list[str] = field(default_factory=list)  # "file:line message" of each failed step
    failed: list[Any] = field(default_factory=list)  # the StepResult of each failed step


@dataclass
class SweepEntry:
    """One ruling under two sets: both verdicts and the first log entry that differs (``index``,
    0-based; None when the logs are the same — then the failures tell the difference)."""

    path: Path
    title: str
    first: RulingPlay
    second: RulingPlay
    index: int | None

    @property
    def changed(self) -> bool:
        """The ruling's outcome changes: it passes under one set and not the other, or it cannot
        even be set up under one of them."""
        return self.first.ok != self.second.ok or self.first.error != self.second.error

    def event(self, first: bool) -> Any:
        play = self.first if first else self.second
        if self.index is None or play.game is None or self.index >= len(play.game.log):
            return None
        return play.game.log[self.index]


def play_ruling(path: Path, rules: RuleSet | None) -> RulingPlay:
    """Play a scenario file to its end under ``rules`` (None: its own). Never raises: a file that
    cannot be loaded or set up is a failed play with its message."""
    from fate_royal.cards.yamlsrc import DataError
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    try:
        scenario = load_scenario(path)
        run = ScenarioRun(scenario, rules=rules)
    except (DataError, RulesError) as exc:
        return RulingPlay(False, str(exc))
    except Exception as exc:  # an engine bug while setting up: report, keep the sweep going
        return RulingPlay(False, f"internal error: {type(exc).__name__}: {exc}")
    play = RulingPlay(True, game=run.game)
    while not run.done:
        res = run.forward()
        if not res.ok:
            play.ok = False
            play.failures.append(f"{path}:{res.step.line} {res.message}")
            play.failed.append(res)
    return play


def _same_event(a: Any, b: Any) -> bool:
    return a.to_dict() == b.to_dict()


def ruling_sweep(files: Iterable[Path], first: RuleSet | None, second: RuleSet | None,
                 *, changed_only: bool = True) -> list[SweepEntry]:
    """Play every ruling under both sets; the rulings whose outcome changes (``changed_only``) or
    all of them, each with the first log entry that differs."""
    from fate_royal.rules.scenario import load_scenario

    out = []
    for path in files:
        path = Path(path)
        a, b = play_ruling(path, first), play_ruling(path, second)
        index = None
        if a.game is not None and b.game is not None:
            la, lb = a.game.log, b.game.log
            index = next((i for i, (x, y) in enumerate(zip(la, lb)) if not _same_event(x, y)), None)
            if index is None and len(la) != len(lb):
                index = min(len(la), len(lb))
        try:
            title = load_scenario(path).title
        except Exception:
            title = path.stem
        entry = SweepEntry(path, title, a, b, index)
        if entry.changed or not changed_only:
            out.append(entry)
    return out
