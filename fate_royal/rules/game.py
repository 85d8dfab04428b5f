"""The ``Game`` facade: the only way to ask what may be done and to change the position.

``legal_actions()`` answers "what may the deciding player do now?"; ``apply(action)`` re-checks and
either changes the position or raises ``IllegalAction`` (reason code + rule id) leaving it exactly
as it was. The game *is* its record (``GameRecord``): setup, options, rule set, seed and every
action and option change since. ``undo``, ``redo`` and ``rewind`` are cuts of the record; undo
restores the nearest checkpoint and replays exactly (all randomness lives in the state).

The rules themselves live in modules with one seam each: ``setup`` (D1–D4), ``flow`` (the turn's
steps as a table), ``stack`` (response windows), ``combat`` (processes as a table), ``proxy``
(E5/E6), ``stats``, ``costs``, ``legality``, ``perform`` and ``effects`` (one handler per operation).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Mapping

from fate_royal.cards.model import CardDB, CardDef
from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules import flow, legality, perform, setup as setup_mod, stats, zones
from fate_royal.rules.actions import ACTION_TYPES, Action
from fate_royal.rules.context import OPTION_DEFAULTS, Ctx
from fate_royal.rules.errors import GameOver, IllegalAction
from fate_royal.rules.events import Event
from fate_royal.rules.legality import Refusal
from fate_royal.rules.record import Entry, GameRecord, OptionChange, check_option
from fate_royal.rules.setup import seed_commitment
from fate_royal.rules.state import GameState
from fate_royal.rules.stats import StatLine

CHECKPOINT_EVERY = 16  # undo restores the nearest checkpoint and replays at most this many entries


@dataclass(frozen=True)
class Pending:
    """Whose decision it is and what kind: ``priority`` (a response window, with ``window`` its kind)
    or a decision kind such as ``attack``, ``encounter_target``, ``discard``."""

    player: int
    kind: str
    window: str = ""
    step: str = ""
    process: str = ""


@dataclass(frozen=True)
class Outcome:
    winner: int | None  # seat, or None for "no winner"
    winner_name: str | None


class Game:
    # ------------------------------------------------------------------ construction

    def __init__(self, db: CardDB, rules: RuleSet, setup: Mapping[str, Any], *, seed: int | None = None,
                 options: Mapping[str, Any] | None = None, cards: tuple | list = ()) -> None:
        self.db = db
        self.rules = rules
        self._setup = copy.deepcopy(dict(setup))
        self._seed = int(self._setup.pop("seed", 0) if seed is None else seed)
        self._setup.pop("seed", None)
        self._options0 = dict(OPTION_DEFAULTS)
        for k, v in (options or {}).items():
            problem = check_option(k, v)
            if problem:
                raise ValueError(problem)
            self._options0[k] = copy.deepcopy(v)
        self._cards = tuple(copy.deepcopy(list(cards)))
        self._entries: list[Entry] = []
        self._redo: list[Entry] = []
        self._checkpoints: dict[int, tuple[dict, int, dict]] = {}
        self._version = 0
        self._legal: list[Action] | None = None
        self._state_copy: tuple[int, GameState] | None = None
        self.record_undo = True  # False: no checkpoints (fast headless play without undo)
        self.ctx = Ctx(db, rules, self._options0)
        setup_mod.build(self.ctx, self._setup, self._seed)
        flow.run(self.ctx)
        self._checkpoint(0)

    @classmethod
    def new(cls, db: CardDB, rules: RuleSet, names: list[str], seed: int = 0,
            **options: Any) -> "Game":
        return cls(db, rules, {"players": [{"name": n} for n in names]}, seed=seed, options=options)

    @classmethod
    def replay(cls, record: GameRecord, db: CardDB, upto: int | None = None) -> "Game":
        """The game of ``record`` (its first ``upto`` entries), every action checked for legality
        as it is applied. IllegalAction names the first entry the rules refuse."""
        game = cls(db, record.rules, record.setup, seed=record.seed, options=record.options,
                   cards=record.cards)
        entries = record.actions if upto is None else record.actions[:upto]
        for i, entry in enumerate(entries):
            try:
                game.apply_entry(entry)
            except IllegalAction as exc:
                raise IllegalAction(exc.reason, exc.rule,
                                    f"entry {i + 1}: {exc.message}") from exc
        return game

    def fork(self, state: GameState | None = None) -> "Game":
        """A throw-away copy of the position (or of ``state``) for search: the same cards, rules and
        options, no record to replay, no undo checkpoints, an empty log. Changing it never changes
        this game. Costs one state copy (``fate-royal bench`` measures it)."""
        g = Game.__new__(Game)
        g.db, g.rules = self.db, self.rules
        g._setup, g._seed, g._options0, g._cards = self._setup, self._seed, self._options0, ()
        g._entries, g._redo, g._checkpoints = [], [], {}
        g._version, g._legal, g._state_copy = 0, None, None
        g.record_undo = False
        ctx = g.ctx = Ctx(self.db, self.rules, self.ctx.options)
        ctx.s = (state if state is not None else self.ctx.s).clone()
        return g

    def play(self, action: Action) -> None:
        """Apply an action taken from ``legal_actions()`` of this very position, without checking it
        again and without keeping it in the record: the search's fast path (a fork's moves)."""
        perform.perform(self.ctx, action)
        flow.run(self.ctx)
        self._version += 1
        self._legal = None

    # ------------------------------------------------------------------ the record

    @property
    def record(self) -> GameRecord:
        return GameRecord(MappingProxyType(copy.deepcopy(self._setup)),
                          MappingProxyType(copy.deepcopy(self._options0)), self.rules, self._seed,
                          tuple(self._entries), self._cards)

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def setup(self) -> Mapping[str, Any]:
        return MappingProxyType(self._setup)

    @property
    def cards(self) -> tuple:
        """Card definitions local to this game (a scenario's ``cards:``)."""
        return self._cards

    @property
    def options(self) -> Mapping[str, Any]:
        return MappingProxyType(self.ctx.options)

    @property
    def history(self) -> tuple[Action, ...]:
        """The players' actions so far (the record's entries without option changes)."""
        return tuple(a for a in self._entries if not isinstance(a, OptionChange))

    @property
    def entries(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    @property
    def log(self) -> tuple[Event, ...]:
        return tuple(self.ctx.log)

    def log_since(self, start: int) -> list[Event]:
        return self.ctx.log[start:]

    @property
    def log_length(self) -> int:
        return len(self.ctx.log)

    @property
    def state(self) -> GameState:
        """A copy of the position (made once per change; reading it never changes the game)."""
        cached = self._state_copy
        if cached is None or cached[0] != self._version:
            cached = self._state_copy = (self._version, self.ctx.s.clone())
        return cached[1]

    @property
    def version(self) -> int:
        """Bumped on every change of the position."""
        return self._version

    # ------------------------------------------------------------------ asking

    @property
    def pending(self) -> Pending | None:
        s = self.ctx.s
        if s.over:
            return None
        process = s.combat.process if s.combat else ""
        if s.decision is not None:
            return Pending(s.decision.player, s.decision.kind, "", s.step, process)
        if s.window is not None:
            return Pending(s.window.order[s.window.index], "priority", s.window.kind, s.step,
                           process)
        return None

    def outcome(self) -> Outcome | None:
        s = self.ctx.s
        if not s.over:
            return None
        return Outcome(s.winner, None if s.winner is None else s.players[s.winner].name)

    def legal_actions(self) -> list[Action]:
        if self._legal is None:
            self._legal = legality.legal_actions(self.ctx)
        return list(self._legal)

    def is_legal(self, action: object) -> bool:
        return _well_formed(action) and action in self.legal_actions()  # type: ignore[operator]

    def why_illegal(self, action: object) -> Refusal:
        """Why an action is refused now (reason code, rule id, message)."""
        if not _well_formed(action):
            return Refusal("not_an_action", "", f"not an action of this game: {action!r}")
        return legality.refusal(self.ctx, action)

    # ------------------------------------------------------------------ changing

    def apply(self, action: object) -> list[Event]:
        """Apply a legal action; return the events it produced. Illegal → IllegalAction, no change."""
        if self.ctx.s.over:
            raise GameOver("the game is over")
        if not self.is_legal(action):
            r = self.why_illegal(action)
            raise IllegalAction(r.reason, r.rule, r.message)
        start = len(self.ctx.log)
        self._do(action, lambda: perform.perform(self.ctx, action))  # type: ignore[arg-type]
        self._redo.clear()
        return self.ctx.log[start:]

    def set_option(self, key: str, value: Any) -> list[Event]:
        """Change an option; recorded in the game, since it may change the history (e.g. with
        ``auto_pass`` on, a player who can only pass is passed at once)."""
        problem = check_option(key, value)
        if problem:
            raise ValueError(problem)
        if self.ctx.options.get(key) == value:
            return []
        start = len(self.ctx.log)
        change = OptionChange(key, copy.deepcopy(value))
        self._do(change, lambda: self.ctx.options.__setitem__(key, copy.deepcopy(value)))
        self._redo.clear()
        return self.ctx.log[start:]

    def apply_entry(self, entry: Entry) -> None:
        """Apply a record entry: an action (checked) or an option change."""
        if isinstance(entry, OptionChange):
            self.set_option(entry.key, entry.value)
        else:
            self.apply(entry)

    def _do(self, entry: Entry, change) -> None:
        n = len(self._entries)
        if self.record_undo:
            self._checkpoint(n)
        try:
            change()
            flow.run(self.ctx)
        except Exception:
            if self.record_undo:
                self._rebuild(n)  # never leave a half-changed state behind
            raise
        self._entries.append(entry)
        self._changed()

    # ------------------------------------------------------------------ undo, redo, rewind

    def can_undo(self) -> bool:
        return self.record_undo and bool(self.history) and 0 in self._checkpoints

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> Action:
        """Take back the last action (and any option change made after it)."""
        if not self.can_undo():
            raise IllegalAction("nothing_to_undo", "", "nothing to undo")
        last = max(i for i, e in enumerate(self._entries) if not isinstance(e, OptionChange))
        action = self._entries[last]
        self._cut(last)
        return action  # type: ignore[return-value]

    def redo(self) -> list[Event]:
        """Replay the next undone action (with the option changes recorded before it)."""
        if not self._redo:
            raise IllegalAction("nothing_to_redo", "", "nothing to redo")
        start = len(self.ctx.log)
        pending = list(self._redo)
        while pending:
            entry = pending.pop()
            self.apply_entry(entry)
            self._redo = list(pending)
            if not isinstance(entry, OptionChange):
                break
        return self.ctx.log[start:]

    def rewind(self, n: int) -> None:
        """Go back to the position right after the first ``n`` actions (as ``n`` undos would:
        option changes made after that action are taken back too); what is cut can be redone."""
        if not self.record_undo or 0 not in self._checkpoints:
            raise IllegalAction("nothing_to_undo", "", "this game keeps no undo history")
        moves = [i for i, e in enumerate(self._entries) if not isinstance(e, OptionChange)]
        if not 0 <= n <= len(moves):
            raise IllegalAction("no_such_action", "", f"no position after {n} actions")
        if n == len(moves):
            return
        self._cut(moves[n - 1] + 1 if n else 0)

    def cut_to(self, n_entries: int) -> None:
        """Keep only the first ``n_entries`` entries of the record (actions and option changes);
        what is cut can be redone."""
        if not self.record_undo or 0 not in self._checkpoints:
            raise IllegalAction("nothing_to_undo", "", "this game keeps no undo history")
        if not 0 <= n_entries <= len(self._entries):
            raise IllegalAction("no_such_action", "", f"no position after {n_entries} entries")
        if n_entries < len(self._entries):
            self._cut(n_entries)

    def clear_redo(self) -> None:
        """Forget what was undone (e.g. when a demo step is taken back for good)."""
        self._redo.clear()

    def _cut(self, keep: int) -> None:
        cut = self._entries[keep:]
        self._rebuild_entries(keep)
        self._redo.extend(reversed(cut))
        self._changed()

    def _checkpoint(self, n: int) -> None:
        """Record the position before entry ``n`` when it falls on a checkpoint; forget checkpoints
        of an undone future."""
        if self._checkpoints and max(self._checkpoints) > n:
            self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= n}
        if n % CHECKPOINT_EVERY == 0 and n not in self._checkpoints:
            self._checkpoints[n] = (self.ctx.s.to_dict(), len(self.ctx.log), dict(self.ctx.options))

    def _rebuild(self, n: int) -> None:
        """Make the position and log those after the first ``n`` entries."""
        base = max(k for k in self._checkpoints if k <= n)
        snapshot, log_len, options = self._checkpoints[base]
        ctx = self.ctx
        ctx.s = GameState.from_dict(snapshot)
        ctx.options = dict(options)
        del ctx.log[log_len:]
        for entry in self._entries[base:n]:
            if isinstance(entry, OptionChange):
                ctx.options[entry.key] = copy.deepcopy(entry.value)
            else:
                perform.perform(ctx, entry)
            flow.run(ctx)

    def _rebuild_entries(self, keep: int) -> None:
        self._rebuild(keep)
        del self._entries[keep:]
        if self._checkpoints and max(self._checkpoints) > keep:
            self._checkpoints = {k: v for k, v in self._checkpoints.items() if k <= keep}

    def _changed(self) -> None:
        self._version += 1
        self._legal = None

    # ------------------------------------------------------------------ questions about the position

    def player_name(self, p: int | None) -> str:
        players = self.ctx.s.players
        if isinstance(p, int) and not isinstance(p, bool) and 0 <= p < len(players):
            return players[p].name
        return "—" if p is None else f"#{p}"

    def player_index(self, name: str) -> int:
        for i, p in enumerate(self.ctx.s.players):
            if p.name == name:
                return i
        raise KeyError(name)

    def card_of(self, uid: int) -> CardDef:
        return self.ctx.card_of(uid)

    def servant_state(self, p: int) -> str | None:
        return zones.servant_state(self.ctx, p)

    def fighter_stats(self, p: int, attack_type: str | None = None) -> dict[str, int]:
        return stats.fighter_stats(self.ctx, p, attack_type)

    def stat_breakdown(self, p: int, attack_type: str | None = None) -> list[StatLine]:
        return stats.stat_breakdown(self.ctx, p, attack_type)

    def fighter_keywords(self, p: int, attack_type: str | None = None) -> set[str]:
        return stats.fighter_keywords(self.ctx, p, attack_type)

    def effect_block(self, p: int, uid: int, index: int) -> tuple[str, str] | None:
        return legality.effect_block(self.ctx, p, uid, index)

    def effect_targets(self, p: int, uid: int, index: int) -> list[tuple]:
        return legality.effect_targets(self.ctx, p, uid, index)

    def seat_capacity(self, p: int) -> int:
        return zones.seat_capacity(self.ctx, p)

    def rule_on(self, rule_id: str) -> bool:
        return self.ctx.on(rule_id)


_ACTION_CLASSES = frozenset(ACTION_TYPES.values())


def _well_formed(action: object) -> bool:
    """An action of this game: one of the action types, with no field a bool (``Pass(True)``
    would otherwise equal ``Pass(1)``); the legal list decides the rest."""
    if type(action) not in _ACTION_CLASSES:
        return False
    for v in vars(action).values():
        if v is True or v is False:
            return False
        if type(v) is tuple and any(x is True or x is False for x in v):
            return False
    return True


__all__ = ["CHECKPOINT_EVERY", "Game", "Outcome", "Pending", "seed_commitment"]
