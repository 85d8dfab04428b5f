"""The game record: the one thing that defines a position.

``GameRecord(setup, options, rules, seed, actions)``: the table as set up, the options in force at
the start, the rule set, the seed, and everything that happened since, in order — the players'
actions and every change of an option that changes the history (``OptionChange``). Replaying a
record (``Game.replay``) rebuilds its position exactly; saves store exactly it; undo, redo and
rewind are cuts of it.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from typing import Any, Mapping, Union

from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.actions import Action
from fate_royal.rules.context import OPTION_DEFAULTS
from fate_royal.rules.hotseat import STOPS
from fate_royal.rules.setup import shown_value

#: What a seat may be: a person, or a computer of one of the levels of ``fate_royal.ai`` (which
#: takes its levels from here: the rules cannot import the computer players).
SEAT_KINDS = ("human", "random", "basic", "strong")

#: Options a record may carry: name -> (check, description). Options outside the engine's own
#: (``OPTION_DEFAULTS``) are kept for the table (stops, seats) and replayed unchanged.
OPTION_DOCS: dict[str, str] = {
    "auto_pass": "P6: the engine passes for a player who can do nothing but pass",
    "stops": "per seat: the response windows where that player wants to be asked (hot-seat)",
    "seats": "per seat: human, or a computer level",
}


def check_option(key: str, value: Any) -> str | None:
    """None if ``value`` is a valid value of option ``key``, else a message."""
    if key not in OPTION_DOCS:
        return f"unknown option {key!r} (options: {', '.join(OPTION_DOCS)})"
    if key == "auto_pass":
        return None if isinstance(value, bool) else "auto_pass must be true or false"
    if key in ("stops", "seats"):
        if not isinstance(value, Mapping):
            return f"{key} must map seats to settings"
        for seat, v in value.items():
            if not str(seat).isdigit():
                return f"{key}: {seat!r} is not a seat number"
            if key == "stops" and not (isinstance(v, list) and all(isinstance(x, str) for x in v)):
                return f"stops of seat {seat} must be a list of stop names"
            for stop in (v if key == "stops" else ()):
                if stop not in STOPS:
                    return (f"stops of seat {seat}: unknown stop {shown_value(stop)} "
                            f"(stops: {', '.join(STOPS)})")
            if key == "seats" and v not in SEAT_KINDS:
                return (f"seat {seat} is {shown_value(v)}, not a person or a computer level "
                        f"({', '.join(SEAT_KINDS)})")
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            return f"{key} must be plain data"
    return None


@dataclass(frozen=True)
class OptionChange:
    """An option changed at this point of the game (recorded: it may change the history)."""

    key: str
    value: Any
    kind: str = field(default="option", init=False)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "option", "key": self.key, "value": copy.deepcopy(self.value)}


Entry = Union[Action, OptionChange]


def entry_from_dict(data: Any) -> Entry:
    """An action or an option change from its plain form; ValueError naming what is wrong."""
    if not isinstance(data, dict):
        raise ValueError(f"not an action: {data!r}")
    if data.get("kind") == "option":
        unknown = set(data) - {"kind", "key", "value"}
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)} of an option change")
        key = data.get("key")
        problem = check_option(str(key), data.get("value"))
        if problem:
            raise ValueError(problem)
        return OptionChange(str(key), copy.deepcopy(data.get("value")))
    return Action.from_dict(data)


@dataclass(frozen=True)
class GameRecord:
    setup: Mapping[str, Any]
    options: Mapping[str, Any]
    rules: RuleSet
    seed: int
    actions: tuple[Entry, ...] = ()
    cards: tuple = ()  # card definitions local to this game (a scenario's ``cards:``)

    @property
    def moves(self) -> tuple[Action, ...]:
        """The players' actions, without the option changes."""
        return tuple(a for a in self.actions if not isinstance(a, OptionChange))

    def to_dict(self) -> dict[str, Any]:
        return {
            "setup": copy.deepcopy(dict(self.setup)),
            "options": copy.deepcopy(dict(self.options)),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "actions": [a.to_dict() for a in self.actions],
            "cards": copy.deepcopy(list(self.cards)),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "GameRecord":
        """Rebuild a record; ValueError naming the bad part (callers add the file name)."""
        if not isinstance(data, Mapping):
            raise ValueError("a game record must be a mapping")
        for key, kind in (("setup", dict), ("options", dict), ("rules", dict), ("actions", list),
                          ("cards", list)):
            if not isinstance(data.get(key, [] if kind is list else {}), kind):
                raise ValueError(f"'{key}' has the wrong type")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError("'seed' must be a whole number")
        options = dict(data.get("options", {}))
        for k, v in options.items():
            problem = check_option(str(k), v)
            if problem:
                raise ValueError(problem)
        if len(data.get("actions", [])) > MAX_ACTIONS:
            raise ValueError(f"the record holds {len(data['actions'])} actions, above the maximum {MAX_ACTIONS}")
        actions = []
        for i, a in enumerate(data.get("actions", [])):
            try:
                actions.append(entry_from_dict(a))
            except (ValueError, TypeError) as exc:
                raise ValueError(f"action {i + 1}: {exc}") from None
        return cls(copy.deepcopy(dict(data["setup"])) if "setup" in data else {}, options,
                   RuleSet.from_dict(data.get("rules", {})), seed, tuple(actions),
                   tuple(copy.deepcopy(list(data.get("cards", [])))))


#: The most actions a record (a save's or the autosave's) may hold. A game of seven players takes a
#: few hundred; the autosave benchmark writes 40,000. A file of 640,000 option changes took the
#: table 436 MB and seconds to open.
MAX_ACTIONS = 100_000


def default_options(**changes: Any) -> dict[str, Any]:
    out = dict(OPTION_DEFAULTS)
    out.update(changes)
    return out


__all__ = ["Entry", "GameRecord", "MAX_ACTIONS", "OPTION_DOCS", "OptionChange", "SEAT_KINDS", "check_option",
           "default_options", "entry_from_dict"]
