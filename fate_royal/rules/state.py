"""The game position as plain data: copyable, comparable, serialisable.

``GameState.to_dict()`` gives nested dicts/lists of ints and strings only; ``from_dict`` rebuilds it
exactly (``from_dict(s.to_dict()).to_dict() == s.to_dict()``). Undo stores these dicts. The log and
the action history live in ``Game``, not here: they are derived from setup + seed + actions.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

STEPS = ("rise", "draw", "ritual", "encounter", "combat", "end")
PROCESSES = ("disclosure", "engagement", "raid", "raider_damage", "interception",
             "interceptor_damage", "retreat")
ZONES = ("hand", "seat", "deck", "discard", "grail", "removed", "box")


@dataclass
class Player:
    name: str
    hero: int | None = None  # uid of the hero card (the servant), None once dropped out
    klass: int | None = None  # uid of the class card
    seat: list[int] = field(default_factory=list)  # mystic codes and face-down scenes
    hand: list[int] = field(default_factory=list)
    mana: int = 5
    mana_limit: int = 5
    command_spells: int = 3
    coins: dict[str, int] = field(default_factory=dict)
    out: bool = False


@dataclass
class Modifier:
    """A lasting result of a 起動 effect: a stat change or a granted keyword on a player's fighter."""

    player: int  # whose servant (or proxy) it applies to
    name: str  # the effect's name (same-name effects do not stack, E2.3 / D16)
    source: int  # uid of the card whose effect made it
    source_kind: str  # hero | class | mystic_code | scene
    effect: int  # 1-based effect index on the source card
    part: int = 0  # which operation of the effect (an effect may change stats twice)
    stats: dict[str, int] = field(default_factory=dict)
    keyword: str = ""
    duration: str = "turn"  # turn | combat | permanent
    condition: dict | None = None
    support: bool = False  # made by a 支援 effect of a card that also has 代理戦闘 (E5)


@dataclass
class StackItem:
    """An effect (or command spell) waiting to resolve (D6)."""

    player: int
    card: int  # uid (-1 for a command spell)
    effect: int  # 1-based effect index (0 for a command spell)
    targets: list = field(default_factory=list)
    negated: bool = False
    die_ok: bool = True  # a "D x・y" die cost that failed makes the effect do nothing
    spell: str = ""  # command spell kind for spells
    places_coins: bool = False


@dataclass
class Window:
    """A response window: priority passes in seat order from ``order[0]`` (D6)."""

    kind: str  # step | process | effect
    order: list[int]
    index: int = 0
    passes: int = 0


@dataclass
class Decision:
    """A pending decision answered by the next action (never a callback into the UI)."""

    kind: str  # attack | encounter_target | discard | rise_cards | choose_hero | choose_class | ...
    player: int
    options: list = field(default_factory=list)
    count: int = 1  # how many more answers are needed
    context: dict = field(default_factory=dict)


@dataclass
class Fighter:
    player: int
    proxy: str = ""  # chip id when a proxy fights (代理戦闘)
    proxy_source: int = -1  # uid of the card whose effect summoned the proxy
    proxy_effect: int = 0
    attack: str = ""  # physical | magic once chosen
    attack_stats: dict[str, int] = field(default_factory=dict)  # stats when the type was chosen
    dealt: int = 0
    took: int = 0
    destroyed: bool = False


@dataclass
class Combat:
    raider: Fighter
    interceptor: Fighter
    encounter: bool = False
    order: list[str] = field(default_factory=lambda: list(PROCESSES))
    process: str = "disclosure"
    stage: str = "start"  # start | window | done
    established: bool = False
    void: bool = False

    def side(self, player: int) -> Fighter | None:
        if self.raider.player == player:
            return self.raider
        if self.interceptor.player == player:
            return self.interceptor
        return None

    def other(self, player: int) -> Fighter:
        return self.interceptor if self.raider.player == player else self.raider


@dataclass
class GameState:
    players: list[Player]
    cards: dict[int, str]  # uid -> card id
    card_states: dict[int, str]  # uid -> reverse | rise | down | danger (cards in play)
    deck: list[int] = field(default_factory=list)  # top first
    discard: list[int] = field(default_factory=list)
    grail: list[int] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    box: list[int] = field(default_factory=list)  # not in the game (undealt heroes and classes)
    rng: int = 0
    dice: list[int] = field(default_factory=list)  # scripted die results, used first
    turn: int = 0
    turn_player: int = 0
    active_master: int | None = 0
    step: str = "rise"
    stage: str = "start"  # start | window | done
    encountered: bool = False  # an encounter happened this turn (no raid declaration)
    raided: bool = False
    combat: Combat | None = None
    window: Window | None = None
    stack: list[StackItem] = field(default_factory=list)
    decision: Decision | None = None
    resolving: dict | None = None  # the effect being resolved: its remaining ops and context
    used: list[list[int]] = field(default_factory=list)  # [uid, effect] used this step (E2.2)
    modifiers: list[Modifier] = field(default_factory=list)
    over: bool = False
    winner: int | None = None
    padded: int = 0  # cards added to the deck by D1 padding
    setup_phase: bool = False

    # --- plain-data form ---------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return _to_plain(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameState":
        d = copy.deepcopy(data)
        d["players"] = [Player(**p) for p in d["players"]]
        d["cards"] = {int(k): v for k, v in d["cards"].items()}
        d["card_states"] = {int(k): v for k, v in d["card_states"].items()}
        if d.get("combat"):
            c = d["combat"]
            c["raider"] = Fighter(**c["raider"])
            c["interceptor"] = Fighter(**c["interceptor"])
            d["combat"] = Combat(**c)
        if d.get("window"):
            d["window"] = Window(**d["window"])
        d["stack"] = [StackItem(**s) for s in d.get("stack", [])]
        if d.get("decision"):
            d["decision"] = Decision(**d["decision"])
        d["modifiers"] = [Modifier(**m) for m in d.get("modifiers", [])]
        return cls(**d)

    def clone(self) -> "GameState":
        return GameState.from_dict(self.to_dict())

    # --- queries -----------------------------------------------------------------------------

    def alive(self) -> list[int]:
        return [i for i, p in enumerate(self.players) if not p.out]

    def zone_of(self, uid: int) -> tuple[str, int | None]:
        """(zone, owner seat or None) of a card instance."""
        for i, p in enumerate(self.players):
            if uid == p.hero or uid == p.klass or uid in p.seat:
                return "seat", i
            if uid in p.hand:
                return "hand", i
        for zone in ("deck", "discard", "grail", "removed", "box"):
            if uid in getattr(self, zone):
                return zone, None
        return "nowhere", None


def _to_plain(obj: Any) -> Any:
    if isinstance(obj, (int, str, bool, float)) or obj is None:
        return obj
    if isinstance(obj, list):
        return [_to_plain(v) for v in obj]
    if isinstance(obj, tuple):
        return [_to_plain(v) for v in obj]
    if isinstance(obj, dict):
        return {(str(k) if isinstance(k, int) else k): _to_plain(v) for k, v in obj.items()}
    if hasattr(obj, "__dataclass_fields__"):
        return {k: _to_plain(getattr(obj, k)) for k in obj.__dataclass_fields__}
    raise TypeError(f"not plain data: {type(obj).__name__}")
