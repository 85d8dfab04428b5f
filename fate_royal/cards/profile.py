"""The rules profile: every reconstructed default (D rule) as a named parameter.

The printed rulebook was not available, so the D rules of the spec are defaults a group can change in
``cards/profile.yaml`` (or per scenario with ``profile:``) without touching code; which errata rules
are in force is the rule set's business (``fate_royal.cards.ruleset``). ``PARAMETERS`` is
the single table of names, defaults, types and the rule each belongs to; the loader validates a
profile file against it and the docs are generated from it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping


@dataclass(frozen=True)
class ParamSpec:
    rule: str
    type: str  # int | bool | enum | list[int]
    default: Any
    doc: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int | None = None


PARAMETERS: dict[str, ParamSpec] = {
    # D1 deck
    "deck_min_size": ParamSpec("D1", "int", 40, "Pad the deck with copies of known mystic codes and "
                               "scenes up to this size while the card files hold fewer.",
                               minimum=0, maximum=400),
    # D2 servants
    "servant_assignment": ParamSpec("D2", "enum", "random", "How heroes and classes are dealt.",
                                    choices=("random", "choose")),
    "servant_start_state": ParamSpec("D2", "enum", "reverse", "State servants start in.",
                                     choices=("reverse", "rise")),
    "reverse_may_raid": ParamSpec("D2", "bool", True, "A Reverse servant may declare a raid."),
    # D3 start
    "start_command_spells": ParamSpec("D3", "int", 3, "Command spells at the start.",
                                         minimum=0, maximum=9),
    "start_mana": ParamSpec("D3", "int", 5, "Mana coins at the start.", minimum=0, maximum=99),
    "mana_limit": ParamSpec("D3", "int", 5, "Upper limit of mana coins (E3).", minimum=1,
                            maximum=99),
    "start_hand": ParamSpec("D3", "int", 5, "Cards dealt to each hand.", minimum=0, maximum=40),
    # D4 order
    "first_player": ParamSpec("D4", "enum", "random", "Who takes the first turn: a seeded random "
                              "player, or the first seat.", choices=("random", "first_seat")),
    # D5 turn steps
    "draw_per_turn": ParamSpec("D5", "int", 1, "Cards the turn player draws in the draw step.",
                               minimum=0, maximum=10),
    "encounter_on": ParamSpec("D5", "list[int]", [1], "Die faces that cause an encounter.",
                              minimum=1, maximum=6),
    "base_rise_step": ParamSpec("D5", "bool", True, "With the errata off (E1.9 not in force), the "
                                "rise step turns the turn player's Down and Danger cards Rise."),
    "hand_limit": ParamSpec("D5", "int", 7, "Hand size the turn player discards down to at the end "
                            "step.", minimum=0, maximum=99),
    # D6 response windows
    "response_windows": ParamSpec("D6", "enum", "every_step", "When response windows open: at every "
                                  "step and combat process and after every effect, or only after "
                                  "effects and at combat processes.",
                                  choices=("every_step", "effects_and_combat")),
    # D7 seat
    "seat_slots": ParamSpec("D7", "int", 2, "Mystic codes the servant seat holds (plus one per "
                            "Reverse mystic code or scene on it).", minimum=0,
                            maximum=10),
    # D8 unqualified class
    "unqualified_class": ParamSpec("D8", "enum", "effects_unusable", "Penalty for a class the hero "
                                   "is not qualified for.",
                                   choices=("effects_unusable", "none", "stat_penalty")),
    "unqualified_stat_penalty": ParamSpec("D8", "int", 1, "With stat_penalty: subtracted from each "
                                          "class stat.", minimum=0, maximum=99),
    # D9 interception
    "interception": ParamSpec("D9", "bool", True, "The interceptor strikes back after the raider."),
    # D10 first strike
    "first_strike": ParamSpec("D10", "enum", "exclusive", "先制: the side that alone has it strikes "
                              "first; or ignore the keyword.", choices=("exclusive", "ignored")),
    # D11 damage
    "mana_per_damage": ParamSpec("D11", "int", 1, "Mana coins one point of damage removes.",
                                 minimum=1, maximum=99),
    # D12 assassination coins
    "assassination_upkeep": ParamSpec("D12", "int", 1, "Mana each assassination coin removes at its "
                                      "holder's rise step.", minimum=0, maximum=99),
    # D13 command spells
    "command_spell_negate": ParamSpec("D13", "bool", True, "A command spell may negate an effect on "
                                      "the stack."),
    "command_spell_remove_coin": ParamSpec("D13", "bool", True, "A command spell may remove a "
                                           "special coin (E4.2; with errata on)."),
    # D14 destroyed servant
    "destroyed_hand_to": ParamSpec("D14", "enum", "discard", "Where a dropped-out player's hand goes.",
                                   choices=("discard", "removed")),
    # D15 grail seat
    "grail_reshuffle": ParamSpec("D15", "bool", False, "Scenes on the grail seat are reshuffled too "
                                 "when the deck is rebuilt."),
    # D16 ties
    "same_name": ParamSpec("D16", "enum", "later_ignored", "Same-name effects on one target: the "
                           "later application is ignored.", choices=("later_ignored",)),
}


@dataclass(frozen=True)
class RulesProfile:
    """A complete, validated set of rules parameters. Build with ``RulesProfile.from_mapping``."""

    values: Mapping[str, Any] = field(default_factory=dict)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        values = object.__getattribute__(self, "values")
        if name in values:
            return values[name]
        if name in PARAMETERS:
            return PARAMETERS[name].default
        raise AttributeError(f"no rules-profile parameter {name!r}")

    @classmethod
    def defaults(cls) -> "RulesProfile":
        return cls({k: _copy(s.default) for k, s in PARAMETERS.items()})

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], base: "RulesProfile | None" = None) -> "RulesProfile":
        """Overlay ``mapping`` on ``base`` (or the defaults). Raises ValueError naming a bad key."""
        values = dict((base or cls.defaults()).values)
        for key, value in mapping.items():
            problem = check_value(key, value)
            if problem:
                raise ValueError(problem)
            values[key] = _copy(value)
        for _key, problem in conflicts(values, mapping):
            raise ValueError(problem)
        return cls(values)

    def with_(self, **changes: Any) -> "RulesProfile":
        return RulesProfile.from_mapping(changes, self)

    def to_dict(self) -> dict[str, Any]:
        return {k: _copy(self.values.get(k, PARAMETERS[k].default)) for k in PARAMETERS}


def check_value(key: str, value: Any) -> str | None:
    """None if ``value`` is valid for parameter ``key``, else a message (without file/line).

    Every number is bounded (``ParamSpec.minimum``/``maximum``; for ``list[int]`` each item, and a
    list holds each value once), so that no profile can make the table deal, draw or pad without end.
    """
    spec = PARAMETERS.get(key)
    if spec is None:
        from difflib import get_close_matches

        near = get_close_matches(key, PARAMETERS, n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        return f"unknown rules-profile parameter {key!r}{hint}"
    if spec.type == "bool":
        ok = isinstance(value, bool)
    elif spec.type == "int":
        ok = _is_int(value)
        if ok:
            return _out_of_range(key, spec, value)
    elif spec.type == "enum":
        if value not in spec.choices:
            return f"{key} ({spec.rule}) must be one of {', '.join(map(str, spec.choices))}; got {value!r}"
        ok = True
    elif spec.type == "list[int]":
        ok = isinstance(value, list) and all(_is_int(v) for v in value)
        if ok:
            for v in value:
                problem = _out_of_range(key, spec, v)
                if problem:
                    return problem
            if len(set(value)) != len(value):
                return f"{key} ({spec.rule}) names a value twice: {value!r}"
            return None
    else:  # pragma: no cover - table error
        ok = False
    if not ok:
        return f"{key} ({spec.rule}) must be {spec.type}, got {type(value).__name__} {value!r}"
    return None


#: Parameters that must agree with each other: (key, other key, test on the two values, message).
#: Each value is checked alone by ``check_value``; a game could still not start from these pairs.
_PAIRS: tuple = (
    ("start_mana", "mana_limit", lambda mana, limit: mana <= limit,
     "start_mana {a} is above mana_limit {b}"),
)


def conflicts(values: Mapping[str, Any], given: Mapping[str, Any] | None = None
              ) -> list[tuple[str, str]]:
    """The pairs of parameters in ``values`` (a whole profile, defaults filling the gaps) that
    contradict each other, as (key to blame, message): the key blamed is one of the pair that
    ``given`` (the mapping being read, whose line a message names) sets, the first of the two when
    it sets both or neither."""
    out = []
    for a, b, ok, message in _PAIRS:
        va = values.get(a, PARAMETERS[a].default)
        vb = values.get(b, PARAMETERS[b].default)
        if _is_int(va) and _is_int(vb) and not ok(va, vb):
            blame = b if given is not None and b in given and a not in given else a
            out.append((blame, message.format(a=va, b=vb)))
    return out


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _out_of_range(key: str, spec: ParamSpec, value: int) -> str | None:
    if spec.minimum is not None and value < spec.minimum:
        return f"{key} ({spec.rule}) must be at least {spec.minimum}, got {value}"
    if spec.maximum is not None and value > spec.maximum:
        return f"{key} ({spec.rule}): value {value} above the maximum {spec.maximum}"
    return None


def _copy(value: Any) -> Any:
    return list(value) if isinstance(value, list) else value


__all__ = ["PARAMETERS", "ParamSpec", "RulesProfile", "check_value", "conflicts"]
