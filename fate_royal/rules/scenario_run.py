"""Playing a scenario step by step (``ScenarioRun``): forward, and back by undoing the actions a
step applied, so that the command line (``fate-royal run``) and the GUI's demo mode share one
implementation. Checks (``expect:``) live in ``scenario_checks``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.events import Event
from fate_royal.rules.game import Game
from fate_royal.rules.scenario import EXPECT_KEYS, Scenario, ScenarioError, Step, _short
from fate_royal.rules.setup import hint
from fate_royal.rules.state import PROCESSES
from fate_royal.cards.yamlsrc import plain

@dataclass(frozen=True)
class Finding:
    """One way a step came out otherwise than its scenario says. ``text`` is the checker's English
    (what ``fate-royal run`` prints); the other fields let a front-end say it in its own words
    (``fate_royal.text.verdicts``).

    ``kind`` is one of ``FINDING_KINDS``: ``mismatch`` (``key`` is ``want`` but came out ``got``),
    ``not_over`` (a winner was expected), ``zone`` (card ``key`` is in the places ``got``),
    ``not_cited`` / ``cited`` (``rule`` in the log), ``other_rule`` / ``other_reason`` (refused by
    ``rule`` for ``reason``, not ``want``), ``changed_state`` (a refused action changed the state),
    ``allowed`` (an action that should be refused was not), ``illegal`` (an action of the step was
    refused by ``rule`` for ``reason``), ``blocked`` (an ``advance`` to ``key`` waits for
    ``player``'s decision ``got``), ``ended`` (the game ended before ``key``) and ``error`` (the
    step could not be played at all)."""

    kind: str
    text: str
    key: str = ""
    want: Any = None
    got: Any = None
    rule: str = ""
    reason: str = ""
    player: str = ""

    def __str__(self) -> str:
        return self.text


FINDING_KINDS = ("mismatch", "not_over", "zone", "not_cited", "cited", "other_rule",
                 "other_reason", "changed_state", "allowed", "illegal", "blocked", "ended", "error")


@dataclass
class StepResult:
    step: Step
    ok: bool
    message: str
    events: list[Event] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    #: what a failed step found otherwise (``message`` is their texts joined by "; ")
    findings: list[Finding] = field(default_factory=list)


class ScenarioRun:
    """Plays a scenario step by step; ``back()`` undoes the actions of the last step."""

    def __init__(self, scenario: Scenario, game: Game | None = None, *, errata: bool | None = None,
                 rules: RuleSet | None = None, root: Path | None = None, **options: Any) -> None:
        self.scenario = scenario
        override = rules if rules is not None else errata
        self.game = game or scenario.build_game(rules=override, root=root, **options)
        self.index = 0
        #: turns an action into the text of its step (the front-ends give one in their language)
        self.describe_action: Callable[[Game, Action], str] = _plain_action
        self.results: list[StepResult] = []
        self._marks: list[tuple[int, int]] = []  # (actions applied, log length) before each step
        self._check_log_from = 0  # the first check sees the setup's automatic work too

    @property
    def done(self) -> bool:
        return self.index >= len(self.scenario.steps)

    def forward(self) -> StepResult:
        step = self.scenario.steps[self.index]
        g = self.game
        self._marks.append((len(g.history), g.log_length, self._check_log_from))
        start_log = g.log_length
        findings: list[Finding] = []
        try:
            found = self._run(step)
        except ScenarioError as exc:
            found = [getattr(exc, "finding", None) or Finding("error", exc.message)]
        except IllegalAction as exc:
            found = [Finding("illegal", f"illegal action: {exc.message}" + (f" [{exc.rule}]" if exc.rule else ""),
                             rule=exc.rule, reason=exc.reason)]
        except RulesError as exc:
            found = [Finding("error", str(exc))]
        except Exception as exc:  # an engine bug: report it on the step, never as a traceback
            found = [Finding("error", f"internal error: {type(exc).__name__}: {exc}")]
        if isinstance(found, str):
            ok, message = True, found
        else:
            ok, message, findings = False, "; ".join(f.text for f in found), found
        events = g.log_since(start_log)
        rules = list(dict.fromkeys(r for e in events for r in e.rules))
        result = StepResult(step, ok, message, events, rules, findings)
        self.results.append(result)
        self.index += 1
        return result

    def back(self) -> None:
        if not self._marks:
            return
        actions, _log, check_from = self._marks.pop()
        while len(self.game.history) > actions:
            self.game.undo()
        self.game.clear_redo()
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

    def _run(self, step: Step) -> str | list[Finding]:
        """Play one step: what it did (a text), or what it found otherwise (the step failed)."""
        g = self.game
        if step.kind == "say":
            return step.say or step.say_en
        if step.kind == "do":
            body = step.body
            if body.get("action") == "resolve":
                return self._resolve(step)
            if body.get("action") == "advance":
                return self._advance(step, body.get("step"))
            action = self.to_action(body, step.line)
            text = self.describe_action(g, action)  # before: applying may change what it names
            g.apply(action)
            return text
        if step.kind == "resolve":
            return self._resolve(step)
        if step.kind == "advance":
            target = step.body.get("step") if isinstance(step.body, dict) else step.body
            return self._advance(step, target)
        if step.kind == "expect":
            failures = self._check(step.body, step.line)
            self._check_log_from = g.log_length
            return failures or "ok: " + _short(plain(step.body))
        if step.kind == "expect_illegal":
            action = self.to_action(step.body["do"], step.line)
            before = g.ctx.s.to_dict()
            try:
                g.apply(action)
            except IllegalAction as exc:
                if g.ctx.s.to_dict() != before:
                    return [Finding("changed_state", "the refused action changed the state",
                                    rule=exc.rule, reason=exc.reason)]
                want = step.body.get("rule")
                if want and exc.rule != str(want):
                    return [Finding("other_rule", f"refused, but by rule {exc.rule or '(none)'} "
                                    f"({exc.reason}), not {want}", want=str(want), rule=exc.rule,
                                    reason=exc.reason)]
                want_reason = step.body.get("reason")
                if want_reason and exc.reason != want_reason:
                    return [Finding("other_reason", f"refused for {exc.reason}, not {want_reason}",
                                    want=want_reason, rule=exc.rule, reason=exc.reason)]
                return f"refused: {exc.message} [{exc.rule}]"
            text = self.describe_action(g, action)
            g.undo()
            g.clear_redo()
            return [Finding("allowed", f"{text} was allowed")]
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
                raise self._stuck(step, Finding("ended", f"the game ended before {target}", key=target))
            if p.kind != "priority":
                who = g.player_name(p.player)
                raise self._stuck(step, Finding(
                    "blocked", f"cannot advance to {target}: {who} must decide ({p.kind}) first",
                    key=target, got=p.kind, player=who))
            g.apply(Pass(p.player))
            n += 1
            if n > 10000:
                raise ScenarioError(self.scenario.path, step.line, f"never reached {target}")

    def _stuck(self, step: Step, finding: Finding) -> ScenarioError:
        """The error of a step that cannot go on, carrying what it found."""
        err = ScenarioError(self.scenario.path, step.line, finding.text)
        err.finding = finding  # type: ignore[attr-defined]
        return err

    # --- names → engine values

    def _player(self, name: Any, line: int) -> int:
        try:
            return self.game.player_index(str(name))
        except KeyError:
            names = [p.name for p in self.game.state.players]
            raise ScenarioError(self.scenario.path, line,
                                f"no player called {name!r}{hint(name, names)}") from None

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
                            f"no card {ref!r}{hint(ref, list(db.cards))}")

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
                                        f"{card.id} has no effect {eff!r}{hint(eff, names)}") from None
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

    def _check(self, body: dict, line: int) -> list[Finding]:
        """The failures of one ``expect:`` step (empty when every check holds)."""
        p = self._player(body["player"], line) if "player" in body else None
        fails: list[Finding] = []
        for key, want in body.items():
            if key in ("player", "card"):
                continue
            check = CHECKS[key]
            if check.needs_player and p is None:
                raise ScenarioError(self.scenario.path, line, f"expect {key} needs player:")
            if check.needs_card and "card" not in body:
                raise ScenarioError(self.scenario.path, line, f"{key} needs card:")
            fails.extend(check.run(self, body, p, plain(want), line))
        return fails

    def cited_since_check(self) -> set[str]:
        return {r for e in self.game.log_since(self._check_log_from) for r in e.rules}


def _cmp(key: str, got: Any, want: Any) -> list[Finding]:
    return [] if got == want else [Finding("mismatch", f"{key}: expected {want!r}, got {got!r}",
                                           key=key, want=want, got=got)]


def _check_servant_state(run: ScenarioRun, body: dict, p: int, want: Any, line: int) -> list[Finding]:
    return _cmp("servant_state", run.game.servant_state(p), want)


def _check_card_state(run: ScenarioRun, body: dict, p: int, want: Any, line: int) -> list[Finding]:
    pl = run.game.ctx.s.players[p]
    seat = [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]
    uid = run._uid_in(body["card"], seat, line, f"on {pl.name}'s seat")
    return _cmp("card_state", run.game.ctx.s.card_states.get(uid), want)


def _player_field(key: str):
    def check(run: ScenarioRun, body: dict, p: int, want: Any, line: int) -> list[Finding]:
        return _cmp(key, getattr(run.game.ctx.s.players[p], key), want)
    return check


def _check_coins(run: ScenarioRun, body: dict, p: int, want: Any, line: int) -> list[Finding]:
    got = dict(run.game.ctx.s.players[p].coins)
    if isinstance(want, int):
        return _cmp("coins", got.get("assassination", 0), want)
    return [f for coin, n in want.items() for f in _cmp(f"coins.{coin}", got.get(coin, 0), n)]


def _check_hand_size(run: ScenarioRun, body: dict, p: int, want: Any, line: int) -> list[Finding]:
    return _cmp("hand_size", len(run.game.ctx.s.players[p].hand), want)


def _check_zone(run: ScenarioRun, body: dict, p: int | None, want: Any, line: int) -> list[Finding]:
    s = run.game.ctx.s
    cid = run._card_id(body["card"], line)
    zones = []
    for u, c in s.cards.items():
        if c == cid:
            z, owner = s.zone_of(u)
            if p is None or owner in (None, p):
                zones.append("removed" if z == "box" else z)
    found = sorted(set(zones))
    return [] if want in zones else [Finding("zone", f"zone of {cid}: expected {want}, found {found}",
                                             key=cid, want=want, got=found)]


def _check_stats(run: ScenarioRun, body: dict, p: int, want: Any, line: int) -> list[Finding]:
    got = run.game.fighter_stats(p)
    fails: list[Finding] = []
    for k, v in want.items():
        if k not in got:
            raise ScenarioError(run.scenario.path, line, f"no stat {k!r} (pa, pd, ma, md)")
        fails += _cmp(f"stats.{k}", got[k], v)
    return fails


def _check_winner(run: ScenarioRun, body: dict, p: int | None, want: Any, line: int) -> list[Finding]:
    o = run.game.outcome()
    if o is None:
        return [Finding("not_over", f"winner: expected {want!r}, but the game is not over",
                        key="winner", want=want)]
    return _cmp("winner", o.winner_name or "none", want)


def _check_position(key: str):
    def check(run: ScenarioRun, body: dict, p: int | None, want: Any, line: int) -> list[Finding]:
        s = run.game.ctx.s
        if key == "step":
            got: Any = s.step
        elif key == "process":
            got = s.combat.process if s.combat else None
        elif key in ("turn_player", "active_master"):
            v = getattr(s, key)
            got = None if v is None else s.players[v].name
        elif key == "stack_size":
            got = len(s.stack)
        elif key == "pending":
            pend = run.game.pending
            got = pend.kind if pend else None
        else:  # deck_size, discard_size, grail_size
            got = len(getattr(s, key[:-5]))
        return _cmp(key, got, want)
    return check


def _check_log(key: str):
    def check(run: ScenarioRun, body: dict, p: int | None, want: Any, line: int) -> list[Finding]:
        cited = run.cited_since_check()
        fails: list[Finding] = []
        for rule in (want if isinstance(want, list) else [want]):
            if key == "log_cites" and str(rule) not in cited:
                fails.append(Finding("not_cited", f"log does not cite {rule} since the previous check "
                                     f"(cited: {', '.join(sorted(cited)) or 'nothing'})", rule=str(rule),
                                     got=sorted(cited)))
            if key == "log_not_cites" and str(rule) in cited:
                fails.append(Finding("cited", f"log cites {rule} but should not", rule=str(rule)))
        return fails
    return check


@dataclass(frozen=True)
class Check:
    run: Callable[[ScenarioRun, dict, Any, Any, int], list[Finding]]
    needs_player: bool = False
    needs_card: bool = False


#: Every ``expect:`` key and how it is checked (``scenario.EXPECT_KEYS`` lists the same keys).
CHECKS: dict[str, Check] = {
    "servant_state": Check(_check_servant_state, needs_player=True),
    "card_state": Check(_check_card_state, needs_player=True, needs_card=True),
    "mana": Check(_player_field("mana"), needs_player=True),
    "mana_limit": Check(_player_field("mana_limit"), needs_player=True),
    "command_spells": Check(_player_field("command_spells"), needs_player=True),
    "out": Check(_player_field("out"), needs_player=True),
    "coins": Check(_check_coins, needs_player=True),
    "hand_size": Check(_check_hand_size, needs_player=True),
    "zone": Check(_check_zone, needs_card=True),
    "stats": Check(_check_stats, needs_player=True),
    "winner": Check(_check_winner),
    **{k: Check(_check_position(k)) for k in ("step", "process", "turn_player", "active_master",
                                                "deck_size", "discard_size", "grail_size",
                                                "stack_size", "pending")},
    "log_cites": Check(_check_log("log_cites")),
    "log_not_cites": Check(_check_log("log_not_cites")),
}


def _plain_action(game: Game, action: Action) -> str:
    """An action in plain notation (no catalog): ``A: use #12.1 → (1,)``."""
    fields = {k: v for k, v in vars(action).items() if k != "player"}
    detail = " ".join(f"{k}={v}" for k, v in fields.items())
    return f"{game.player_name(action.player)}: {action.kind}" + (f" {detail}" if detail else "")


def rules_cited(results: list[StepResult]) -> set[str]:
    return {r for res in results for r in res.rules}


assert set(CHECKS) | {"player", "card"} == set(EXPECT_KEYS)
