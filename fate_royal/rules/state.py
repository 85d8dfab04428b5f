"""The game position as plain data: copyable, comparable, serialisable.

``GameState.to_dict()`` gives nested dicts/lists of ints and strings only; ``from_dict`` rebuilds it
exactly (``from_dict(s.to_dict()).to_dict() == s.to_dict()``). Undo stores these dicts. The log and
the action history live in ``Game``, not here: they are derived from setup + seed + actions.
"""

from __future__ import annotations

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
    negated_by: str = ""  # "spell" (a command spell, D13) or "effect" (an effect's negation)


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
    mana_before: dict = field(default_factory=dict)  # seat -> mana when the combat began (R1)

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
    lost: list[list[int]] = field(default_factory=list)  # [uid, effect] lost for good (E9.4, R2)
    revealed: list[int] = field(default_factory=list)  # servant cards every player has seen

    # --- plain-data form ---------------------------------------------------------------------
    # Written out by hand rather than walked generically: an undo snapshot is taken before every
    # action, so these two are on the hot path (see ``fate-royal bench``).

    def to_dict(self) -> dict[str, Any]:
        c = self.combat
        w = self.window
        d = self.decision
        return {
            "players": [{
                "name": p.name, "hero": p.hero, "klass": p.klass, "seat": list(p.seat),
                "hand": list(p.hand), "mana": p.mana, "mana_limit": p.mana_limit,
                "command_spells": p.command_spells, "coins": dict(p.coins), "out": p.out,
            } for p in self.players],
            # int keys: JSON writes them as strings and from_dict accepts both
            "cards": dict(self.cards),
            "card_states": dict(self.card_states),
            "deck": list(self.deck), "discard": list(self.discard), "grail": list(self.grail),
            "removed": list(self.removed), "box": list(self.box),
            "rng": self.rng, "dice": list(self.dice), "turn": self.turn,
            "turn_player": self.turn_player, "active_master": self.active_master,
            "step": self.step, "stage": self.stage, "encountered": self.encountered,
            "raided": self.raided,
            "combat": None if c is None else {
                "raider": _fighter_dict(c.raider), "interceptor": _fighter_dict(c.interceptor),
                "encounter": c.encounter, "order": list(c.order), "process": c.process,
                "stage": c.stage, "established": c.established, "void": c.void,
                "mana_before": {str(k): v for k, v in c.mana_before.items()},
            },
            "window": None if w is None else {"kind": w.kind, "order": list(w.order),
                                              "index": w.index, "passes": w.passes},
            "stack": [{
                "player": i.player, "card": i.card, "effect": i.effect,
                "targets": _plain_copy(i.targets), "negated": i.negated, "die_ok": i.die_ok,
                "spell": i.spell, "places_coins": i.places_coins, "negated_by": i.negated_by,
            } for i in self.stack],
            "decision": None if d is None else {
                "kind": d.kind, "player": d.player, "options": _plain_copy(d.options),
                "count": d.count, "context": _plain_copy(d.context),
            },
            "resolving": _plain_copy(self.resolving),
            "used": [list(u) for u in self.used],
            "modifiers": [{
                "player": m.player, "name": m.name, "source": m.source,
                "source_kind": m.source_kind, "effect": m.effect, "part": m.part,
                "stats": dict(m.stats), "keyword": m.keyword, "duration": m.duration,
                "condition": _plain_copy(m.condition), "support": m.support,
            } for m in self.modifiers],
            "over": self.over, "winner": self.winner, "padded": self.padded,
            "setup_phase": self.setup_phase, "lost": [list(x) for x in self.lost],
            "revealed": list(self.revealed),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "GameState":
        """The position ``to_dict`` wrote (clones, undo checkpoints); never read from a file."""
        c = data.get("combat")
        w = data.get("window")
        d = data.get("decision")
        return cls(
            players=[Player(p["name"], p["hero"], p["klass"], list(p["seat"]), list(p["hand"]),
                            p["mana"], p["mana_limit"], p["command_spells"], dict(p["coins"]),
                            p["out"]) for p in data["players"]],
            cards={int(k): v for k, v in data["cards"].items()},
            card_states={int(k): v for k, v in data["card_states"].items()},
            deck=list(data["deck"]), discard=list(data["discard"]), grail=list(data["grail"]),
            removed=list(data["removed"]), box=list(data["box"]),
            rng=data["rng"], dice=list(data["dice"]), turn=data["turn"],
            turn_player=data["turn_player"], active_master=data["active_master"],
            step=data["step"], stage=data["stage"], encountered=data["encountered"],
            raided=data["raided"],
            combat=None if c is None else Combat(
                Fighter(**c["raider"]), Fighter(**c["interceptor"]), c["encounter"],
                list(c["order"]), c["process"], c["stage"], c["established"], c["void"],
                {int(k): v for k, v in c["mana_before"].items()}),
            window=None if w is None else Window(w["kind"], list(w["order"]), w["index"],
                                                 w["passes"]),
            stack=[StackItem(i["player"], i["card"], i["effect"], _plain_copy(i["targets"]),
                             i["negated"], i["die_ok"], i["spell"], i["places_coins"],
                             i["negated_by"])
                   for i in data["stack"]],
            decision=None if d is None else Decision(d["kind"], d["player"],
                                                     _plain_copy(d["options"]), d["count"],
                                                     _plain_copy(d["context"])),
            resolving=_plain_copy(data.get("resolving")),
            used=[list(u) for u in data["used"]],
            modifiers=[Modifier(m["player"], m["name"], m["source"], m["source_kind"],
                                m["effect"], m["part"], dict(m["stats"]), m["keyword"],
                                m["duration"], _plain_copy(m["condition"]), m["support"])
                       for m in data["modifiers"]],
            over=data["over"], winner=data["winner"], padded=data["padded"],
            setup_phase=data["setup_phase"], lost=[list(x) for x in data["lost"]],
            revealed=list(data["revealed"]),
        )

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


def _fighter_dict(f: "Fighter") -> dict[str, Any]:
    return {"player": f.player, "proxy": f.proxy, "proxy_source": f.proxy_source,
            "proxy_effect": f.proxy_effect, "attack": f.attack,
            "attack_stats": dict(f.attack_stats), "dealt": f.dealt, "took": f.took,
            "destroyed": f.destroyed}


def _plain_copy(v: Any) -> Any:
    """Copy nested lists/dicts of plain values (tuples become lists)."""
    if isinstance(v, dict):
        return {k: _plain_copy(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain_copy(x) for x in v]
    return v


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
