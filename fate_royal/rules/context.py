"""The small shared context every rules module works on: the position, the card data, the rules in
force, the log and the one random generator (which lives in the state).

Rules modules are sets of functions taking a ``Ctx`` first; none keeps state of its own. ``Ctx.on``
answers "is this errata rule in force?", ``Ctx.cite`` picks the rule id a log line cites (the errata
rule when it is in force, else the base or default rule it replaces), ``Ctx.reading`` gives the
chosen reading of an ambiguous sentence.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Iterable

from fate_royal.cards.model import CardDB, CardDef
from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.events import Event
from fate_royal.rules.rng import Rng
from fate_royal.rules.state import GameState

#: Options that change the history (recorded in the game record): name -> default.
OPTION_DEFAULTS: dict[str, Any] = {
    # P6: the engine passes for a player who has nothing to do but pass. Off when every player must
    # be asked (hot-seat tables decide who is asked from public information only).
    "auto_pass": True,
}


class Ctx:
    __slots__ = ("db", "rules", "profile", "off", "s", "log", "options", "_defs")

    def __init__(self, db: CardDB, rules: RuleSet, options: dict[str, Any] | None = None) -> None:
        self.db = db
        self.rules = rules
        # the D parameters as plain attributes: read on every step of the engine
        self.profile = SimpleNamespace(**rules.profile.to_dict())
        self.off = rules.off
        self.s: GameState = None  # type: ignore[assignment]  # set by setup.build
        self.log: list[Event] = []
        self.options: dict[str, Any] = dict(OPTION_DEFAULTS)
        if options:
            self.options.update(options)
        self._defs: dict[int, CardDef] = {}

    # --- rules in force

    def on(self, rule_id: str) -> bool:
        """Whether an errata rule is in force."""
        return rule_id not in self.off

    def cite(self, errata_rule: str, base_rule: str) -> str:
        """The errata rule when it is in force, else the base/default rule that applies instead."""
        return base_rule if errata_rule in self.off else errata_rule

    def reading(self, reading_id: str) -> str:
        return self.rules.reading(reading_id)

    # --- cards

    def card_of(self, uid: int) -> CardDef:
        card = self._defs.get(uid)
        if card is None:  # an instance never changes its card during a game: cache the lookup
            card = self._defs[uid] = self.db.cards[self.s.cards[uid]]
        return card

    def forget_cards(self) -> None:
        self._defs.clear()

    # --- log

    def emit(self, code: str, rules: Iterable[str], *, cid: str = "", effect: str = "",
             secret: int = -1, **args: Any) -> None:
        """Record an event; ``cid`` is the card id involved, ``effect`` the effect's name."""
        s = self.s  # set by setup.build before anything is logged
        self.log.append(Event(code, args, tuple(rules), cid, effect, s.turn, s.step, secret))

    # --- randomness (all of it from the one generator in the state)

    def below(self, n: int) -> int:
        r = Rng(self.s.rng)
        v = r.below(n)
        self.s.rng = r.state
        return v

    def shuffle(self, items: list) -> None:
        r = Rng(self.s.rng)
        r.shuffle(items)
        self.s.rng = r.state

    def roll(self, p: int, rules: tuple[str, ...] = ("B1",)) -> int:
        s = self.s
        if s.dice:
            value, scripted = s.dice.pop(0), True
        else:
            r = Rng(s.rng)
            value, scripted = r.die(), False
            s.rng = r.state
        self.emit("DieRolled", rules, player=p, value=value, scripted=scripted)
        return value


__all__ = ["Ctx", "OPTION_DEFAULTS"]
