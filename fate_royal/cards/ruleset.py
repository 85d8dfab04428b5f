"""A rule set: which house-errata rules and card patches are in force, how each ambiguous sentence is
read, and the reconstructed defaults (D parameters) — everything that decides a ruling.

The errata text itself says 「鵜呑みにすんなよ！」: a group adopts it item by item. So the engine never
asks "is the errata on?" but "is E1.3 in force?" (``RuleSet.on``), "is patch E9.6-b applied?"
(``patch_on``) and "which reading of E6.2?" (``reading``). ``errata: true/false`` survives only as
shorthand for "every E rule on / off".

A rule set is plain data: ``to_dict``/``from_dict`` round-trip, and saves and scenarios record the
content, not just a name. Files of this shape are read by ``fate_royal.cards.rulesets``.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

from fate_royal.cards.profile import RulesProfile

#: Every house-errata rule that can be switched (rules.md E). E6.ex1/ex2 are worked examples, not
#: rules; the E9 rules are the card patches (each patch can also be switched by its own id).
ERRATA_RULES: tuple[str, ...] = (
    "E1.1", "E1.2", "E1.3", "E1.4", "E1.5", "E1.6", "E1.7", "E1.8", "E1.9",
    "E2.1", "E2.2", "E2.3", "E2.4",
    "E3",
    "E4.1", "E4.2",
    "E5",
    "E6.1", "E6.2", "E6.3", "E6.4", "E6.5",
    "E7.1", "E7.2",
    "E8",
    "E9.1", "E9.2", "E9.3", "E9.4", "E9.5", "E9.6", "E9.7",
)

#: Errata rules whose switch changes only which rule the log cites: switched off, the base or
#: default rule they restate still applies (rules.md: "E2.2 and E2.3 restate B11"; D3 = E3 …).
CITATION_ONLY: dict[str, str] = {
    "E1.1": "B3", "E1.2": "B3", "E1.4": "B3", "E1.5": "B3", "E1.6": "B3",
    "E2.2": "B11", "E2.3": "B11", "E2.4": "B11", "E3": "D3", "E6.5": "P2", "E7.1": "D14",
    "E9.7": "P2",
}


@dataclass(frozen=True)
class Reading:
    """An ambiguous sentence made explicit: a named switch with its choices and default (the
    choice the text most supports). ``rule`` is the rule whose sentence it reads."""

    id: str
    key: str
    rule: str
    choices: tuple[str, ...]
    default: str
    doc: str

    def check(self, value: Any) -> str | None:
        if value not in self.choices:
            return (f"reading {self.id} ({self.key}) must be one of "
                    f"{', '.join(self.choices)}; got {value!r}")
        return None


#: The reading switches (rules.md "Readings"; docs/rules.md quotes each sentence).
READINGS: dict[str, Reading] = {r.id: r for r in (
    Reading("R1", "void_combat_damage", "E6.2", ("undone", "kept"), "undone",
            "E6.2 「戦闘がなかったものとなる」: damage already dealt in a combat that counts as never "
            "having happened is undone, or kept."),
    Reading("R2", "lost_effect", "E9.4", ("stays_lost", "returns"), "stays_lost",
            "E9.4 「この効果は失われる」: once lost, 山門の守護 stays lost even if a third player comes "
            "back, or returns."),
    Reading("R3", "encounter_on_two", "E9.5", ("any_encounter_step", "own_encounter_step"),
            "any_encounter_step",
            "E9.5 「遭遇戦ステップで2が出た場合も」: a 2 causes an encounter in every encounter step while "
            "Kojirou's effect is on, or only in his master's own."),
    Reading("R4", "down_raids_in_encounter", "D5", ("raids", "no_raid"), "raids",
            "Errata off (E1.4/E1.5 not in force): a Down or Danger servant still raids when an "
            "encounter happens (D5), or the encounter brings no combat (B3: it cannot raid)."),
    Reading("R5", "reverse_state_effect", "E1.3", ("state_change_only", "whole_effect"),
            "state_change_only",
            "E1.3 「そのような効果があった場合、それを無効とする」: only the change to Down/Danger is void "
            "(the rest of the effect, e.g. ガンド's die roll, still happens), or the whole effect."),
    Reading("R6", "down_cost_when_down", "E9.2", ("needs_rise", "payable"), "needs_rise",
            "A cost 「自分をダウン状態にする」 (T) can be paid only by a card that is not already Down, "
            "or also by one that is (it stays Down)."),
    Reading("R7", "once_per_step_scope", "E2.2", ("per_card", "per_name"), "per_card",
            "E2.2 「1つの起動効果は1ステップに1回まで」: once per step for each card copy's effect, or "
            "once per step for all effects of that name."),
)}


@dataclass(frozen=True)
class RuleSet:
    """The rules in force. Build with ``RuleSet.house()``, ``RuleSet.base()``, ``from_tokens`` or
    ``from_dict``; never mutate (``with_`` returns a changed copy)."""

    off: frozenset[str] = frozenset()  # errata rule ids and patch ids not in force
    readings: Mapping[str, str] = field(default_factory=dict)  # reading id -> choice (non-default)
    profile: RulesProfile = field(default_factory=RulesProfile.defaults)
    title: str = ""
    name: str = ""  # a shipped set's name or a file's stem, for titles and saves

    # --- questions the engine asks

    def on(self, rule_id: str) -> bool:
        """Whether an errata rule is in force."""
        return rule_id not in self.off

    def patch_on(self, patch_id: str, rule_id: str) -> bool:
        """Whether a card patch applies: its rule (an errata rule: a patch naming anything else is
        never on, so the base rules have no patch at all) and the patch itself are on."""
        return rule_id in ERRATA_RULES and rule_id not in self.off and patch_id not in self.off

    def reading(self, reading_id: str) -> str:
        value = self.readings.get(reading_id)
        return READINGS[reading_id].default if value is None else value

    @property
    def all_errata(self) -> bool:
        """Every errata rule and every patch in force."""
        return not self.off

    @property
    def no_errata(self) -> bool:
        return all(r in self.off for r in ERRATA_RULES)

    # --- building

    @classmethod
    def house(cls, profile: RulesProfile | None = None, **kw: Any) -> "RuleSet":
        """Every errata rule and patch in force (the group's house errata)."""
        return cls(frozenset(), {}, profile or RulesProfile.defaults(), **kw)

    @classmethod
    def base(cls, profile: RulesProfile | None = None, **kw: Any) -> "RuleSet":
        """The base rules: no errata rule, no card patch."""
        return cls(frozenset(ERRATA_RULES), {}, profile or RulesProfile.defaults(), **kw)

    @classmethod
    def from_errata(cls, errata: bool, profile: RulesProfile | None = None, **kw: Any) -> "RuleSet":
        return (cls.house if errata else cls.base)(profile, **kw)

    def with_(self, *, off: Iterable[str] | None = None, readings: Mapping[str, str] | None = None,
              profile: RulesProfile | None = None, title: str | None = None,
              name: str | None = None) -> "RuleSet":
        return RuleSet(frozenset(self.off if off is None else off),
                       _clean_readings(self.readings if readings is None else readings),
                       self.profile if profile is None else profile,
                       self.title if title is None else title, self.name if name is None else name)

    def with_tokens(self, tokens: Iterable[str], patch_ids: Iterable[str] = ()) -> "RuleSet":
        """Apply switch tokens in order: ``errata``/``house`` (all E on), ``base`` (all off),
        ``-E9.3`` (off), ``+E8`` or ``E8`` (on), ``R1=kept`` (a reading). ValueError naming a bad
        token."""
        known = set(ERRATA_RULES) | set(patch_ids)
        off = set(self.off)
        readings = dict(self.readings)
        for raw in tokens:
            token = str(raw).strip()
            if token in ("errata", "house"):
                off = {x for x in off if x not in known}
                continue
            if token == "base":
                off |= set(ERRATA_RULES)
                continue
            if "=" in token:
                rid, _, value = token.partition("=")
                rid, value = rid.strip(), value.strip()
                reading = READINGS.get(rid) or next(
                    (r for r in READINGS.values() if r.key == rid), None)
                if reading is None:
                    raise ValueError(f"unknown reading {rid!r}{_near(rid, READINGS)}")
                problem = reading.check(value)
                if problem:
                    raise ValueError(problem)
                readings[reading.id] = value
                continue
            sign, rid = ("-", token[1:]) if token.startswith("-") else (
                ("+", token[1:]) if token.startswith("+") else ("+", token))
            if rid not in known:
                raise ValueError(f"unknown errata rule or patch {rid!r}{_near(rid, known)} "
                                 "(errata rules are E1.1 … E9.7; patches as in cards/errata/)")
            if sign == "-":
                off.add(rid)
            else:
                off.discard(rid)
                # switching a patch on switches its rule on (E9.6-b needs E9.6)
                rule = rid.split("-")[0]
                if rule in ERRATA_RULES and rule != rid:
                    off.discard(rule)
        return self.with_(off=off, readings=readings)

    # --- plain data

    def to_dict(self) -> dict[str, Any]:
        return {"title": self.title, "name": self.name, "off": sorted(self.off),
                "readings": dict(sorted(self.readings.items())), "profile": self.profile.to_dict()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "RuleSet":
        """Rebuild from ``to_dict`` output. ValueError naming the bad part."""
        if not isinstance(data, Mapping):
            raise ValueError("a rule set must be a mapping")
        off = data.get("off", [])
        if not isinstance(off, list) or not all(isinstance(x, str) for x in off):
            raise ValueError("rule set 'off' must be a list of rule ids")
        readings = data.get("readings", {}) or {}
        if not isinstance(readings, Mapping):
            raise ValueError("rule set 'readings' must be a mapping")
        for rid, value in readings.items():
            if rid not in READINGS:
                raise ValueError(f"unknown reading {rid!r}{_near(str(rid), READINGS)}")
            problem = READINGS[rid].check(value)
            if problem:
                raise ValueError(problem)
        profile = data.get("profile", {}) or {}
        if not isinstance(profile, Mapping):
            raise ValueError("rule set 'profile' must be a mapping")
        from fate_royal.cards.profile import PARAMETERS

        known = {k: v for k, v in profile.items() if k in PARAMETERS}
        return cls(frozenset(off), _clean_readings(readings), RulesProfile.from_mapping(known),
                   str(data.get("title", "") or ""), str(data.get("name", "") or ""))

    @property
    def fingerprint(self) -> str:
        body = {k: v for k, v in self.to_dict().items() if k not in ("title", "name")}
        text = json.dumps(body, sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    def differences(self, other: "RuleSet") -> list[str]:
        """Switch ids, reading ids and D parameters that differ between two sets."""
        out = sorted(self.off ^ other.off)
        out += sorted(r for r in READINGS if self.reading(r) != other.reading(r))
        a, b = self.profile.to_dict(), other.profile.to_dict()
        out += sorted(k for k in a if a[k] != b.get(k))
        return out


def errata_rule_problem(rule: Any) -> str | None:
    """Why a card patch's ``rule:`` is not one of the errata rules it may belong to, or None."""
    if isinstance(rule, str) and rule in ERRATA_RULES:
        return None
    return f"rule {rule!r} is not an errata rule (E1.1 … E9.7){_near(str(rule), ERRATA_RULES)}"


def _clean_readings(readings: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in sorted(readings.items()) if v != READINGS[k].default}


def _near(word: str, options: Iterable[str]) -> str:
    from difflib import get_close_matches

    near = get_close_matches(word, list(options), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


__all__ = ["CITATION_ONLY", "ERRATA_RULES", "READINGS", "Reading", "RuleSet", "errata_rule_problem"]
