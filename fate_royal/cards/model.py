"""The card data model: what the loader builds from YAML and the engine reads.

Everything is frozen plain data. Provenance is kept per field, as a mapping from a dotted field path
(``stats.pa``, ``effects.1.cost``) to ``printed`` / ``errata`` / ``provisional``; ``provenance_of``
answers for any path, falling back to the nearest recorded parent and then to the card's default.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from fate_royal.cards.vocabulary import STAT_KEYS


@dataclass(frozen=True)
class Stats:
    pa: int = 0
    pd: int = 0
    ma: int = 0
    md: int = 0

    def as_dict(self) -> dict[str, int]:
        return {k: getattr(self, k) for k in STAT_KEYS}


@dataclass(frozen=True)
class Cost:
    """A cost as printed (``raw``) and as the engine reads it."""

    raw: str = ""
    tap: bool = False
    discard: int = 0
    mana: int = 0
    die: tuple[int, ...] = ()

    @property
    def is_free(self) -> bool:
        return not (self.tap or self.discard or self.mana or self.die)


@dataclass(frozen=True)
class Target:
    kind: str = "none"  # see vocabulary.TARGET_KINDS
    side: str = "any"
    card_kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class Op:
    """One operation of an effect: its vocabulary name, parameters, and an optional condition."""

    op: str
    params: Mapping[str, Any] = field(default_factory=dict)
    condition: Mapping[str, Any] | None = None  # the op's ``if:``


@dataclass(frozen=True)
class Effect:
    name: str
    timing: str  # constant | activated
    window: str = "any"
    cost: Cost = Cost()
    keywords: tuple[str, ...] = ()
    target: Target = Target()
    condition: Mapping[str, Any] | None = None
    lost_when: Mapping[str, Any] | None = None
    usable_while_down: bool = False
    unless_target_has: str | None = None
    ops: tuple[Op, ...] = ()
    script: str | None = None
    unplayable: bool = False  # not yet playable: kept with its printed text, never offered
    name_en: str = ""
    text: str = ""
    text_en: str = ""
    note: str = ""
    index: int = 0  # 1-based position on the card

    @property
    def is_constant(self) -> bool:
        return self.timing == "constant"


@dataclass(frozen=True)
class AppliedPatch:
    """A record that an errata patch changed this card: which, where from, and the values swapped."""

    patch_id: str
    rule: str  # e.g. E9.1
    source: str  # e.g. house-errata.ja.txt 【その他エラッタ】
    path: str  # dotted field path
    before: Any
    after: Any


@dataclass(frozen=True)
class CardDef:
    id: str
    kind: str  # hero | class | mystic_code | scene
    name: str  # Japanese, as printed
    name_en: str = ""
    stats: Stats = Stats()
    classes: tuple[str, ...] = ()  # heroes: qualified classes (クラス適性)
    class_name: str = ""  # class cards: which class (ja)
    skills: tuple[str, ...] = ()
    effects: tuple[Effect, ...] = ()
    copies: int = 1
    text: str = ""
    note: str = ""
    provenance_default: str = "printed"
    provenance: Mapping[str, str] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)  # path -> why a value is provisional
    source_file: str = ""
    source_line: int = 0
    patches: tuple[AppliedPatch, ...] = ()  # errata applied (empty with errata off)
    original: "CardDef | None" = None  # the card before errata, when patches applied
    #: path -> (file, line) where the value was written, for every path in ``provenance`` and for
    #: ``id`` and each ``effects.N`` (errata values point into the errata pack)
    locations: Mapping[str, tuple[str, int]] = field(default_factory=dict)

    def provenance_of(self, path: str) -> str:
        """Provenance of a field path, e.g. ``stats.pa``; nearest recorded parent, else the default."""
        parts = path.split(".")
        while parts:
            key = ".".join(parts)
            if key in self.provenance:
                return self.provenance[key]
            parts.pop()
        return self.provenance_default

    def provisional_paths(self) -> list[str]:
        return sorted(p for p, v in self.provenance.items() if v == "provisional")

    def effect(self, key: str | int) -> Effect:
        """An effect by its name or 1-based position; KeyError if there is none."""
        if isinstance(key, int) or (isinstance(key, str) and key.isdigit()):
            i = int(key)
            if 1 <= i <= len(self.effects):
                return self.effects[i - 1]
            raise KeyError(key)
        for e in self.effects:
            if e.name == key or (e.name_en and e.name_en == key):
                return e
        raise KeyError(key)

    def has_skill(self, keyword: str) -> bool:
        return any(s == keyword or s.startswith(keyword) for s in self.skills)


@dataclass(frozen=True)
class Chip:
    """A proxy on the chip sheet (E6.5)."""

    id: str
    name: str
    name_en: str = ""
    stats: Stats = Stats()
    skills: tuple[str, ...] = ()
    provenance_default: str = "provisional"
    provenance: Mapping[str, str] = field(default_factory=dict)
    source_file: str = ""
    source_line: int = 0
    note: str = ""  # why the chip's values are what they are (e.g. "chip sheet values unknown")
    notes: Mapping[str, str] = field(default_factory=dict)  # path -> why a value is provisional
    locations: Mapping[str, tuple[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class CardDB:
    """All loaded card data: cards by id, chips by id, the profile and which errata applied."""

    cards: Mapping[str, CardDef]
    chips: Mapping[str, Chip]
    errata: bool = True  # some errata patch was applied
    fingerprint: str = ""  # hash of the data files and the patches applied, for saves
    patches: frozenset = frozenset()  # ids of the errata patches applied

    def card(self, card_id: str) -> CardDef:
        return self.cards[card_id]

    def by_kind(self, kind: str) -> list[CardDef]:
        return sorted((c for c in self.cards.values() if c.kind == kind), key=lambda c: c.id)

    def class_card(self, name_or_id: str) -> CardDef:
        """A class card by id (C-003) or class name (アサシン / Assassin)."""
        if name_or_id in self.cards and self.cards[name_or_id].kind == "class":
            return self.cards[name_or_id]
        for c in self.by_kind("class"):
            if name_or_id in (c.class_name, c.name, c.name_en):
                return c
        raise KeyError(name_or_id)
