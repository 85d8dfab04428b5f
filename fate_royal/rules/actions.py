"""Actions: small frozen dataclasses, named imperatively, each with a plain-dict form for saves.

Players are seat indices; cards are instance numbers (``uid``) because the deck may hold several
copies of one card. ``Game.describe(action)`` turns an action into readable text.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, ClassVar


@dataclass(frozen=True)
class Action:
    player: int
    kind: ClassVar[str] = ""

    def to_dict(self) -> dict[str, Any]:
        d = {"kind": self.kind}
        for k, v in asdict(self).items():
            d[k] = list(v) if isinstance(v, tuple) else v
        return d

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "Action":
        cls = ACTION_TYPES.get(data.get("kind", ""))
        if cls is None:
            raise ValueError(f"unknown action kind {data.get('kind')!r}")
        names = {f.name for f in fields(cls)}
        unknown = set(data) - names - {"kind"}
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)} for action {cls.kind}")
        values = {k: (tuple(v) if isinstance(v, list) else v) for k, v in data.items() if k != "kind"}
        for f in fields(cls):
            if f.name not in values:
                continue
            v = values[f.name]
            want = FIELD_TYPES.get(f.name)
            if want is int and (not isinstance(v, int) or isinstance(v, bool)):
                raise ValueError(f"{cls.kind}.{f.name} must be a whole number, got {v!r}")
            if want is str and not isinstance(v, str):
                raise ValueError(f"{cls.kind}.{f.name} must be text, got {v!r}")
            if want is tuple and not (isinstance(v, tuple) and all(
                    isinstance(x, int) and not isinstance(x, bool) for x in v)):
                raise ValueError(f"{cls.kind}.{f.name} must be a list of whole numbers, got {v!r}")
            if f.name == "option" and (not isinstance(v, (int, str)) or isinstance(v, bool)):
                raise ValueError(f"{cls.kind}.{f.name} must be a number or text, got {v!r}")
        if "player" not in values:
            raise ValueError(f"action {cls.kind} has no player")
        return cls(**values)


@dataclass(frozen=True)
class Pass(Action):
    """Pass priority in a response window (or decline the step's optional actions)."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True)
class DeclareRaid(Action):
    target: int = -1
    kind: ClassVar[str] = "raid"


@dataclass(frozen=True)
class ChooseEncounterTarget(Action):
    target: int = -1
    kind: ClassVar[str] = "encounter_target"


@dataclass(frozen=True)
class ChooseAttack(Action):
    type: str = "physical"  # physical | magic
    kind: ClassVar[str] = "attack"


@dataclass(frozen=True)
class PlayCard(Action):
    """Put a mystic code from hand onto the servant seat (Rise), or a scene card face down (E1.8)."""

    card: int = -1
    kind: ClassVar[str] = "play"


@dataclass(frozen=True)
class Discard(Action):
    """Answer a pending discard (a cost, an effect, or the end-step hand limit)."""

    card: int = -1
    kind: ClassVar[str] = "discard"


@dataclass(frozen=True)
class UseEffect(Action):
    """Use a card's 起動 effect (``effect`` is its 1-based index); ``targets`` as the effect needs:
    player seats for servant/player targets, card uids for card targets, stack positions for
    stack-effect targets."""

    card: int = -1
    effect: int = 1
    targets: tuple = ()
    kind: ClassVar[str] = "use"


@dataclass(frozen=True)
class CommandSpell(Action):
    """Spend a command spell (D13): ``negate`` a stack entry (target = stack position) or
    ``remove_coin`` (target = player, coin = kind) (E4.2)."""

    spell: str = "negate"
    target: int = -1
    coin: str = ""
    kind: ClassVar[str] = "spell"


@dataclass(frozen=True)
class Choose(Action):
    """Answer a pending choice by option value (a card uid, a player seat or an option code)."""

    option: Any = None
    kind: ClassVar[str] = "choose"


FIELD_TYPES = {"player": int, "target": int, "card": int, "effect": int, "targets": tuple,
               "type": str, "spell": str, "coin": str}

ACTION_TYPES: dict[str, type[Action]] = {
    c.kind: c
    for c in (Pass, DeclareRaid, ChooseEncounterTarget, ChooseAttack, PlayCard, Discard, UseEffect,
              CommandSpell, Choose)
}
