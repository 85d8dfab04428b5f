"""Setting up a game (D1–D4): card instances, the padded deck, servants, hands, first player.

A ``setup`` mapping describes the table: ``players`` (names, and for a scenario their position),
optionally ``deck``/``discard``/``grail``, ``dice``, ``start`` and ``scenario: true``. The seed is
passed separately (it is part of the game record). Card instances get numbers (``uid``) in an order
shuffled from the seed, so that an instance number says nothing about which card it is.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Any

from fate_royal.rules import zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.errors import SetupError
from fate_royal.rules.rng import Rng
from fate_royal.rules.state import STEPS, Decision, GameState, Player

#: Mixed into the seed for the instance-number shuffle, so that it draws nothing from the game's
#: own generator (scenarios keep their deck order and dice).
_UID_SALT = 0x5EED_CA2D_0F0F_1234


def seed_commitment(seed: int) -> str:
    """A hash of the seed shown at the start of a game: the seed revealed at its end can be checked
    against it, while nobody can work out the deck order from it before."""
    return hashlib.sha256(f"fate_royal seed {int(seed)}".encode()).hexdigest()[:16]


class _Instances:
    """The card instances of a game: every hero and class once, mystic codes and scenes by their
    ``copies`` and (D1) padded with copies of the known ones up to the deck's minimum size."""

    def __init__(self, ctx: Ctx, pad: bool) -> None:
        db = ctx.db
        self.cards: dict[int, str] = {}
        self.pool: dict[str, list[int]] = {}
        self.used: set[int] = set()
        self.heroes = [c.id for c in db.by_kind("hero")]
        self.classes = [c.id for c in db.by_kind("class")]
        deckable = db.by_kind("mystic_code") + db.by_kind("scene")
        for cid in self.heroes + self.classes:
            self.new(cid)
        for c in deckable:
            for _ in range(max(1, c.copies)):
                self.new(c.id)
        self.padded = 0
        base = [c.id for c in deckable]
        n_deck = sum(max(1, c.copies) for c in deckable)
        while pad and base and n_deck < ctx.profile.deck_min_size:
            self.new(base[self.padded % len(base)])
            n_deck += 1
            self.padded += 1
        self.db = db

    def new(self, card_id: str) -> int:
        uid = len(self.cards) + 1
        self.cards[uid] = card_id
        self.pool.setdefault(card_id, []).append(uid)
        return uid

    def take(self, card_id: str) -> int:
        """An unused instance of ``card_id`` (a new one if all are placed)."""
        if card_id not in self.db.cards:
            raise SetupError(f"unknown card {card_id!r}")
        for uid in self.pool.get(card_id, []):
            if uid not in self.used:
                self.used.add(uid)
                return uid
        uid = self.new(card_id)
        self.used.add(uid)
        return uid

    def free(self, card_ids: list[str]) -> list[int]:
        return [u for cid in card_ids for u in self.pool.get(cid, []) if u not in self.used]

    def free_deck(self) -> list[int]:
        return [u for u, cid in sorted(self.cards.items())
                if u not in self.used and self.db.cards[cid].kind in ("mystic_code", "scene")]


def _is_text(name: str) -> bool:
    """False for a string that cannot be written as UTF-8 (a lone surrogate, which a YAML or JSON
    escape or an undecodable command-line byte can produce): saves and the autosave could not hold it."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


#: The longest player name: the new-game dialog's limit (a seat's header has room for about this
#: much), and what a save or scenario may hold (a name of millions of characters froze the table).
MAX_NAME = 16


def _shown(name: str) -> str:
    """A name as a message quotes it: cut after 20 characters."""
    return repr(name if len(name) <= 20 else name[:20] + "…")


def reading(name: str) -> str:
    """How a name reads at the table: "A" and the full-width "Ａ" (or "ｱ" and "ア") read the same,
    so two players' names must differ in their readings (NFKC), not only in their characters."""
    return unicodedata.normalize("NFKC", name)


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (None when it can): it must be text of 1 to MAX_NAME
    characters with no space at either end and no control or invisible character (two names that
    look the same must not name two players)."""
    if not _is_text(name):
        return (f"player name {_shown(name)} is not valid text: it holds half of a UTF-16 surrogate "
                "pair (an escape such as \\ud800); type the name again")
    if not name.strip():
        return "a player name is empty"
    if len(name) > MAX_NAME:
        return f"player name {_shown(name)} is {len(name)} characters long, above the maximum {MAX_NAME}"
    if name != name.strip():
        return f"player name {name!r} starts or ends with a space"
    if any(unicodedata.category(c) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn") for c in name):
        return f"player name {name!r} holds a control or invisible character"
    return None


def build(ctx: Ctx, setup: dict[str, Any], seed: int) -> GameState:
    """Set up the position described by ``setup`` with the game's ``seed``; SetupError when it
    cannot be played."""
    players_in = setup.get("players") or []
    if not 2 <= len(players_in) <= 7:
        raise SetupError(f"a game needs 2 to 7 players, got {len(players_in)}")
    names = [str(p.get("name", f"P{i + 1}")) for i, p in enumerate(players_in)]
    if len(set(names)) != len(names):
        raise SetupError("player names must differ")
    for name in names:
        problem = name_problem(name)
        if problem:
            raise SetupError(problem)
    seen: dict[str, str] = {}
    for name in names:  # "A" and the full-width "Ａ" read the same at the table
        key = reading(name)
        if key in seen:
            raise SetupError(f"player names {seen[key]!r} and {name!r} read the same: names must differ")
        seen[key] = name
    rng = Rng(int(seed))
    scenario = bool(setup.get("scenario"))
    inst = _Instances(ctx, pad=not scenario or setup.get("deck") is None)
    s = GameState(players=[], cards=inst.cards, card_states={}, rng=rng.state, padded=inst.padded)
    ctx.s = s
    start_state = ctx.profile.servant_start_state
    for i, spec in enumerate(players_in):
        s.players.append(_player(ctx, i, names[i], spec, inst.take, start_state))
    for zone in ("discard", "grail"):
        for cid in setup.get(zone, []) or []:
            getattr(s, zone).append(inst.take(str(cid)))
    if setup.get("deck") is not None:
        s.deck = [inst.take(str(cid)) for cid in setup["deck"]]
    # everything not placed: heroes/classes → box (dealt below); deck cards → deck (or box)
    free_heroes, free_classes = inst.free(inst.heroes), inst.free(inst.classes)
    free_deck = inst.free_deck()
    if setup.get("deck") is None:
        rng.shuffle(free_deck)
        s.deck = free_deck
    else:
        s.box.extend(free_deck)
    rng.shuffle(free_heroes)
    rng.shuffle(free_classes)
    s.box.extend(free_heroes)
    s.box.extend(free_classes)
    s.rng = rng.state
    s.dice = [int(d) for d in setup.get("dice", []) or []]
    ctx.emit("GameStarted", ("B1", "D3"), players=len(names), seed_commit=seed_commitment(seed))
    if inst.padded:
        ctx.emit("DeckBuilt", ("D1",), size=len(s.deck), padded=inst.padded)
    entered = sorted(c.id for c in ctx.db.cards.values() if c.provenance_default == "entered")
    if entered:  # provenance stays honest: the log says which cards were typed in by a person
        ctx.emit("PersonalCardsUsed", ("D1",), entered_cards=entered)
    _start(ctx, setup, names, scenario, start_state)
    if setup.get("uid_order", "shuffled") == "shuffled":
        relabel(s, Rng(int(seed) ^ _UID_SALT))
    ctx.forget_cards()
    for i, p in enumerate(s.players):
        if p.hero is not None and s.card_states.get(p.hero) != "reverse":
            zones.reveal_servant(ctx, i)  # a scenario's face-up servant is known to all
    zones.note_lost_effects(ctx)  # E9.4: an effect may be lost from the start (two players)
    return s


def _player(ctx: Ctx, i: int, name: str, spec: dict, take, start_state: str) -> Player:
    """One player as the setup describes them (a scenario may give every detail)."""
    s, db, prof = ctx.s, ctx.db, ctx.profile
    p = Player(name=name, mana=prof.start_mana, mana_limit=prof.mana_limit,
               command_spells=prof.start_command_spells)
    for key in ("mana", "mana_limit", "command_spells"):
        if key in spec:
            setattr(p, key, int(spec[key]))
    if "coins" in spec:
        p.coins = {str(k): int(v) for k, v in dict(spec["coins"]).items() if int(v)}
    p.out = bool(spec.get("out", False))
    if p.out:  # a player who has dropped out holds nothing (D14)
        p.mana = int(spec.get("mana", 0))
        p.coins = {}
    servant = spec.get("servant") or {}
    if servant.get("hero") and not p.out:
        p.hero = take(str(servant["hero"]))
        if db.cards[s.cards[p.hero]].kind != "hero":
            raise SetupError(f"{servant['hero']} is not a hero card")
        s.card_states[p.hero] = servant.get("state", start_state)
    if servant.get("class") and not p.out:
        try:
            cdef = db.class_card(str(servant["class"]))
        except KeyError:
            raise SetupError(f"unknown class {servant['class']!r}") from None
        p.klass = take(cdef.id)
        s.card_states[p.klass] = servant.get("class_state") or (
            "reverse" if s.card_states.get(p.hero) == "reverse" else "rise")
    for entry in spec.get("seat", []) or []:
        entry = {"card": entry} if isinstance(entry, str) else entry
        uid = take(str(entry["card"]))
        kind = db.cards[s.cards[uid]].kind
        if kind not in ("mystic_code", "scene"):
            raise SetupError(f"{entry['card']} cannot sit on a servant seat")
        p.seat.append(uid)
        s.card_states[uid] = entry.get("state", "rise" if kind == "mystic_code" else "reverse")
    for cid in spec.get("hand", []) or []:
        uid = take(str(cid))
        if db.cards[s.cards[uid]].kind not in ("mystic_code", "scene"):
            raise SetupError(f"{cid} cannot be in a hand")
        p.hand.append(uid)
    return p


def _start(ctx: Ctx, setup: dict, names: list[str], scenario: bool, start_state: str) -> None:
    """D2 servants, D3 hands, D4 the first player (or the scenario's start)."""
    s, prof = ctx.s, ctx.profile
    choose = prof.servant_assignment == "choose" and not scenario
    if not choose:
        for i, p in enumerate(s.players):
            if not p.out and (p.hero is None) != (p.klass is None):
                # dealing would put a whole servant over the half given, and lose that card
                given, missing = ("hero", "class") if p.klass is None else ("class", "hero")
                raise SetupError(f"{p.name}'s servant gives a {given} but no {missing}: give both, "
                                 f"or neither to have one dealt")
            if not p.out and p.hero is None:
                deal_servant(ctx, i, start_state)
    if not scenario:
        for _ in range(prof.start_hand):
            for i in range(len(s.players)):
                zones.draw(ctx, i, log=False)
    start = setup.get("start") or {}
    if "player" in start:
        tp = start["player"]
        s.turn_player = names.index(tp) if isinstance(tp, str) else int(tp)
    elif prof.first_player == "random":
        s.turn_player = ctx.below(len(s.players))
    else:
        s.turn_player = 0
    s.active_master = s.turn_player
    s.step = start.get("step", "rise")
    s.turn = int(start.get("turn", 1))
    if s.step not in STEPS:
        raise SetupError(f"unknown step {s.step!r} (steps: {', '.join(STEPS)})")
    ctx.emit("ActiveMasterChosen", ("D4",), player=s.turn_player)
    if choose:
        s.setup_phase = True
        next_choice_decision(ctx)
    else:
        ctx.emit("TurnStarted", ("D4", "D5"), turn=s.turn, player=s.turn_player)


def deal_servant(ctx: Ctx, i: int, state: str) -> None:
    s = ctx.s
    hero = next(u for u in s.box if ctx.card_of(u).kind == "hero")
    klass = next(u for u in s.box if ctx.card_of(u).kind == "class")
    s.box.remove(hero)
    s.box.remove(klass)
    p = s.players[i]
    p.hero, p.klass = hero, klass
    s.card_states[hero] = state
    s.card_states[klass] = "reverse" if state == "reverse" else "rise"
    ctx.emit("ServantDealt", ("D2",), player=i)


def next_choice_decision(ctx: Ctx) -> None:
    """D2 (choose): the next player without a hero or class picks one, in seat order, hidden."""
    s = ctx.s
    for i, p in enumerate(s.players):
        if p.out:
            continue
        if p.hero is None:
            s.decision = Decision("choose_hero", i,
                                  [u for u in s.box if ctx.card_of(u).kind == "hero"])
            return
        if p.klass is None:
            s.decision = Decision("choose_class", i,
                                  [u for u in s.box if ctx.card_of(u).kind == "class"])
            return
    s.setup_phase = False
    ctx.emit("TurnStarted", ("D4", "D5"), turn=s.turn, player=s.turn_player)


def relabel(s: GameState, rng: Rng) -> None:
    """Give every card instance a new number, in an order shuffled by ``rng``."""
    old = sorted(s.cards)
    new = list(old)
    rng.shuffle(new)
    m = dict(zip(old, new))
    s.cards = {m[u]: s.cards[u] for u in old}
    s.cards = dict(sorted(s.cards.items()))
    s.card_states = {m[u]: st for u, st in s.card_states.items()}
    for p in s.players:
        p.hero = None if p.hero is None else m[p.hero]
        p.klass = None if p.klass is None else m[p.klass]
        p.seat = [m[u] for u in p.seat]
        p.hand = [m[u] for u in p.hand]
    for zone in ("deck", "discard", "grail", "removed", "box"):
        setattr(s, zone, [m[u] for u in getattr(s, zone)])
    d = s.decision
    if d is not None and d.kind in ("choose_hero", "choose_class"):
        d.options = [m[u] for u in d.options]
