"""Log events: what happened, as a code (past tense), its arguments and the ids of the rules applied.

The engine emits no words. Arguments are plain values: seats (``player``, ``target``, ``victim``,
``attacker``, ``defender``) as seat numbers, cards as card ids (``card``, ``hero``, ``klass``), chips
as chip ids, and codes for steps, processes, states, attack types and reasons. The catalogs of
``fate_royal.text`` turn an event into a sentence in the reader's language, for the log panel, the
command line and the demo narration alike. Every event carries the rules it applied: the log is how
a ruling is explained.

``secret`` marks an event that names a card only one seat may know (a face-down scene put on the
seat, a Reverse servant's own card): ``fate_royal.rules.view`` gives other seats the event without
its card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: Argument keys that hold a seat number.
SEAT_ARGS = frozenset({"player", "target", "victim", "attacker", "defender", "holder", "user"})
#: Argument keys that hold a card id.
CARD_ARGS = frozenset({"card", "hero", "klass", "negated_card"})


@dataclass(frozen=True)
class Event:
    code: str  # e.g. ServantDowned, DieRolled
    args: dict[str, Any] = field(default_factory=dict)
    rules: tuple[str, ...] = ()
    card: str = ""  # card id involved, if any
    effect: str = ""  # effect name involved, if any (the printed name, a key into the card)
    turn: int = 0
    step: str = ""
    secret: int = -1  # seat that alone may see this event's card; -1: public

    def to_dict(self) -> dict[str, Any]:
        d = {"code": self.code, "args": dict(self.args), "rules": list(self.rules),
             "card": self.card, "effect": self.effect, "turn": self.turn, "step": self.step}
        if self.secret >= 0:
            d["secret"] = self.secret
        return d

    def seats(self) -> set[int]:
        """The seats this event names."""
        return {v for k, v in self.args.items() if k in SEAT_ARGS and isinstance(v, int)}


__all__ = ["CARD_ARGS", "Event", "SEAT_ARGS"]
