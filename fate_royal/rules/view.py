"""What one seat may know: ``view(game, seat)``.

A player view holds exactly the information a seat has at a real table: its own hand; every card
lying face up (servants once revealed, mystic codes, the discard pile, the grail seat, the stack);
the backs of everything else — other hands, face-down servants and scenes, the deck — as opaque
handles that say nothing about which card lies there (not even an instance number, which a card
seen earlier would give away); counts, coins, mana, command spells; the log with every card another
seat alone may know taken out; whose decision it is and, for the deciding seat only, what it may
do. It never holds the seed, the generator's state or the deck's order.

``seat=None`` is "the table": what everyone in the room may see between hand-offs. The table
(``fate_royal.qt``), the computer seats (``fate_royal.ai``) and any future remote seat decide and
draw only from views.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.actions import Action
from fate_royal.rules.events import CARD_ARGS, Event


@dataclass(frozen=True)
class CardView:
    """One card as a seat sees it: ``uid`` and ``card_id`` only when its face is known to that
    seat; ``handle`` is an opaque name for a card whose face is hidden (``"B.hand.3"``)."""

    uid: int | None
    card_id: str | None
    state: str | None = None  # reverse | rise | down | danger, for cards in play
    handle: str = ""

    @property
    def known(self) -> bool:
        return self.card_id is not None


@dataclass(frozen=True)
class SeatView:
    name: str
    out: bool
    hero: CardView | None
    klass: CardView | None
    seat: tuple[CardView, ...]
    hand: tuple[CardView, ...]  # faces for the viewer's own hand, backs otherwise
    mana: int
    mana_limit: int
    command_spells: int
    coins: dict[str, int]
    stats: dict[str, int] | None = None  # effective stats, when the servant's face is known
    capacity: int = 0  # mystic codes the seat may hold (D7, E1.7, E1.8)

    @property
    def hand_count(self) -> int:
        return len(self.hand)


@dataclass(frozen=True)
class StackView:
    player: int
    card_id: str
    effect: int  # 1-based index on the card
    targets: tuple
    negated: bool


@dataclass(frozen=True)
class PendingView:
    player: int
    kind: str  # priority | attack | encounter_target | discard | rise_cards | choose_hero | ...
    window: str = ""
    options: tuple = ()  # only for the deciding seat (for others: empty)


@dataclass(frozen=True)
class PlayerView:
    viewer: int | None  # the seat looking, or None for the whole table
    rules: RuleSet
    options: dict
    players: tuple[SeatView, ...]
    deck: tuple[CardView, ...]  # backs only, in no particular order
    discard: tuple[CardView, ...]
    grail: tuple[CardView, ...]
    removed: tuple[CardView, ...]
    stack: tuple[StackView, ...]
    turn: int
    turn_player: int
    active_master: int | None
    step: str
    combat: dict | None  # raider, interceptor, process, proxies (chip ids), attack types
    pending: PendingView | None
    legal: tuple[Action, ...]  # the viewer's legal actions, when the decision is the viewer's
    log: tuple[Event, ...]  # with other seats' secret cards taken out
    over: bool
    winner: int | None
    padded: int
    seed_commit: str
    pool: dict[str, int] = field(default_factory=dict)  # every card id of the game, how many

    def seat(self, p: int) -> SeatView:
        return self.players[p]

    def unseen(self) -> Counter:
        """Card ids whose whereabouts this seat does not know: the pool less every known card —
        the multiset hidden cards are drawn from (for a computer seat's sampling)."""
        rest = Counter(self.pool)
        for cv in self.known_cards():
            rest[cv.card_id] -= 1
        return +rest

    def known_cards(self) -> list[CardView]:
        out = [c for zone in (self.discard, self.grail, self.removed) for c in zone]
        for sv in self.players:
            out += [c for c in (sv.hero, sv.klass) if c is not None and c.known]
            out += [c for c in sv.seat if c.known]
            out += [c for c in sv.hand if c.known]
        return out


def view(game: Any, seat: int | None, *, reveal: bool = False) -> PlayerView:
    """What ``seat`` (None: the table) may know of ``game``'s position (a ``Game``). ``reveal``:
    every face shown (demos, replays, a presenter after the table agreed; never a live game's
    default)."""
    ctx = game.ctx
    s = ctx.s
    names = [p.name for p in s.players]

    def face(uid: int, state: str | None = None) -> CardView:
        return CardView(uid, s.cards[uid], state)

    def back(handle: str, state: str | None = None) -> CardView:
        return CardView(None, None, state, handle)

    from fate_royal.rules.stats import fighter_stats
    from fate_royal.rules.zones import seat_capacity

    players = []
    for i, p in enumerate(s.players):
        mine = seat == i or reveal
        hero = klass = None
        if p.hero is not None:
            st = s.card_states.get(p.hero)
            known = mine or st != "reverse" or p.hero in s.revealed
            hero = face(p.hero, st) if known else back(f"{names[i]}.hero", st)
        if p.klass is not None:
            st = s.card_states.get(p.klass)
            known = mine or st != "reverse" or p.klass in s.revealed
            klass = face(p.klass, st) if known else back(f"{names[i]}.class", st)
        seat_cards = []
        for k, uid in enumerate(p.seat):
            st = s.card_states.get(uid)
            hidden = st == "reverse" and ctx.card_of(uid).kind == "scene" and not mine
            seat_cards.append(back(f"{names[i]}.seat.{k + 1}", st) if hidden else face(uid, st))
        hand = tuple(face(u) if mine else back(f"{names[i]}.hand.{k + 1}")
                     for k, u in enumerate(p.hand))
        stats = fighter_stats(ctx, i) if hero is not None and hero.known and not p.out else None
        players.append(SeatView(p.name, p.out, hero, klass, tuple(seat_cards), hand, p.mana,
                                p.mana_limit, p.command_spells, dict(p.coins), stats,
                                seat_capacity(ctx, i) if not p.out else 0))
    c = s.combat
    combat = None
    if c is not None:
        combat = {"raider": c.raider.player, "interceptor": c.interceptor.player,
                  "process": c.process, "encounter": c.encounter, "void": c.void,
                  "order": list(c.order),
                  "proxies": {f.player: f.proxy for f in (c.raider, c.interceptor) if f.proxy},
                  "attacks": {f.player: f.attack for f in (c.raider, c.interceptor) if f.attack}}
    pend = game.pending
    pending = None
    legal: tuple[Action, ...] = ()
    if pend is not None:
        options: tuple = ()
        if seat == pend.player and s.decision is not None:
            options = tuple(s.decision.options)
        pending = PendingView(pend.player, pend.kind, pend.window, options)
        if seat == pend.player:
            legal = tuple(game.legal_actions())
    stack = tuple(StackView(it.player, s.cards.get(it.card, ""), it.effect, tuple(it.targets),
                            it.negated) for it in s.stack)
    log = tuple(ctx.log) if reveal else tuple(
        r for r in (redact(e, seat) for e in ctx.log) if r is not None)
    start = ctx.log[0].args.get("seed_commit", "") if ctx.log else ""
    return PlayerView(
        viewer=seat, rules=game.rules, options=dict(game.options), players=tuple(players),
        deck=tuple(back(f"deck.{k + 1}") for k in range(len(s.deck))),
        discard=tuple(face(u) for u in s.discard), grail=tuple(face(u) for u in s.grail),
        removed=tuple(face(u) for u in s.removed), stack=stack, turn=s.turn,
        turn_player=s.turn_player, active_master=s.active_master, step=s.step, combat=combat,
        pending=pending, legal=legal, log=log, over=s.over, winner=s.winner, padded=s.padded,
        seed_commit=start, pool=dict(Counter(s.cards.values())),
    )


#: Secret events whose mere existence names the hidden card (an effect of a face-down servant being
#: lost tells which servant it is): other seats do not see them at all.
UNSEEN_IF_SECRET = frozenset({"EffectLost"})


def redact(event: Event, seat: int | None) -> Event | None:
    """The event as ``seat`` may read it: a card only another seat may know is taken out; None
    when the event itself would give the card away."""
    if event.secret < 0 or event.secret == seat:
        return event
    if event.code in UNSEEN_IF_SECRET:
        return None
    args = {k: ("" if k in CARD_ARGS else v) for k, v in event.args.items()}
    return Event(event.code, args, event.rules, "", "", event.turn, event.step, event.secret)


__all__ = ["CardView", "PendingView", "PlayerView", "SeatView", "StackView", "UNSEEN_IF_SECRET",
           "redact", "view"]
