"""A position a computer seat may imagine: every card it cannot see dealt again at random.

A seat knows what ``view(game, seat)`` shows and nothing else. ``determinize`` turns the position
into one *possible* world for that seat: the cards whose faces it cannot see (other hands, the deck,
face-down servants and scenes, the undealt box) are collected as a multiset (``PlayerView.unseen``)
and dealt at random back into those places, each place taking a card of a kind that may lie there
(a hero where a hidden hero lies, a scene where a face-down scene lies); the generator of the world
is seeded afresh, so future shuffles and die rolls are not those of the real game either.

Hidden places are filled in a fixed order (seats in order, then the deck, then the box) from
instance numbers given out in sorted order, so the world depends only on what the seat may know and
on ``rng``: two positions that differ only in a hidden card give the same world.
"""

from __future__ import annotations

import random
from typing import Any

from fate_royal.rules.view import view as player_view

#: The kinds of card that may lie in each kind of hidden place.
_HERO, _CLASS, _SCENE, _DECK = ("hero",), ("class",), ("scene",), ("mystic_code", "scene")


def hidden_places(game: Any, seat: int,
                  pv: Any = None) -> list[tuple[str, int, int, tuple[str, ...]]]:
    """Every place whose card ``seat`` cannot see, in a fixed order: (zone, owner, index, kinds).
    Reads the position only where the seat's own view (``pv``, made if not given) shows a back."""
    pv = player_view(game, seat) if pv is None else pv
    places: list[tuple[str, int, int, tuple[str, ...]]] = []
    for i, sv in enumerate(pv.players):
        if sv.hero is not None and not sv.hero.known:
            places.append(("hero", i, 0, _HERO))
        if sv.klass is not None and not sv.klass.known:
            places.append(("klass", i, 0, _CLASS))
        for k, cv in enumerate(sv.seat):
            if not cv.known:
                places.append(("seat", i, k, _SCENE))
        for k, cv in enumerate(sv.hand):
            if not cv.known:
                places.append(("hand", i, k, _DECK))
    places += [("deck", -1, k, _DECK) for k in range(len(pv.deck))]
    return places


def determinize(game: Any, seat: int, rng: random.Random, pv: Any = None) -> Any:
    """A fork of ``game`` (a ``Game``) in which every card ``seat`` cannot see is dealt again at
    random from what it cannot see; the fork's generator is reseeded from ``rng``. ``pv``: the
    seat's view of this very position, when the caller has it already."""
    pv = player_view(game, seat) if pv is None else pv
    fork = game.fork()
    s = fork.ctx.s
    db = game.db
    places = hidden_places(game, seat, pv)
    box = len(s.box)

    def uid_at(zone: str, owner: int, k: int) -> int:
        if zone == "deck":
            return s.deck[k]
        if zone == "box":
            return s.box[k]
        pl = s.players[owner]
        return {"hero": lambda: pl.hero, "klass": lambda: pl.klass, "seat": lambda: pl.seat[k],
                "hand": lambda: pl.hand[k]}[zone]()

    old = [uid_at(z, o, k) for z, o, k, _ in places] + list(s.box)
    hidden_uids = sorted(old)  # the same set whichever hidden card lies where
    states = [s.card_states.get(u) for u in old]
    # the cards to deal: what the seat has not seen, by kind
    pool: dict[str, list[str]] = {}
    for cid, n in sorted(pv.unseen().items()):
        pool.setdefault(db.cards[cid].kind, []).extend([cid] * n)
    for cards in pool.values():
        rng.shuffle(cards)

    def take(kinds: tuple[str, ...]) -> str:
        for kind in kinds:
            if pool.get(kind):
                return pool[kind].pop()
        for kind in sorted(pool):  # nothing of the right kind left (scenario positions): any card
            if pool[kind]:
                return pool[kind].pop()
        raise ValueError("no unseen card left to deal")  # pragma: no cover - counts always match

    # face-down servants and scenes first (fewest choices), then hands and deck mixed at random
    order = sorted(range(len(places)), key=lambda j: 0 if places[j][3] != _DECK else 1)
    dealt: dict[int, str] = {}
    deck_like = [j for j in order if places[j][3] == _DECK]
    for j in order:
        if places[j][3] != _DECK:
            dealt[j] = take(places[j][3])
    rest = [c for kind in ("mystic_code", "scene") for c in pool.pop(kind, [])]
    rng.shuffle(rest)
    for j in deck_like:
        dealt[j] = rest.pop() if rest else take(_DECK)
    leftover = [c for kind in sorted(pool) for c in pool[kind]] + rest
    rng.shuffle(leftover)
    if len(leftover) != box:  # pragma: no cover - the unseen multiset always fits the places
        raise ValueError("hidden cards do not match hidden places")
    # new instance numbers, given out in sorted order to the places in their fixed order
    renumber = dict(zip(old, hidden_uids))  # old instance → the instance now at its place
    new_at = list(hidden_uids)
    for u in old:
        s.card_states.pop(u, None)
        del s.cards[u]
    for j, (zone, owner, k, _) in enumerate(places):
        u = new_at[j]
        s.cards[u] = dealt[j]
        if states[j] is not None:
            s.card_states[u] = states[j]
        if zone == "deck":
            s.deck[k] = u
        else:
            pl = s.players[owner]
            if zone == "hero":
                pl.hero = u
            elif zone == "klass":
                pl.klass = u
            elif zone == "seat":
                pl.seat[k] = u
            else:
                pl.hand[k] = u
    for k in range(box):
        u = new_at[len(places) + k]
        s.cards[u] = leftover[k]
        s.box[k] = u
    # what the seat knows about hidden places (effects used or lost this step) follows the place
    s.used = [[renumber.get(u, u), e] for u, e in s.used]
    s.lost = [[renumber.get(u, u), e] for u, e in s.lost]
    for m in s.modifiers:
        m.source = renumber.get(m.source, m.source)
    s.rng = rng.getrandbits(63) or 1
    fork.ctx.forget_cards()
    # what the seat does not know of each servant: the basic player reads a guessed servant as the
    # average of the servants it might be, not as the one this world happens to deal
    unseen = pv.unseen()
    fork.guessed = {}
    for kind, zone in (("hero", "hero"), ("class", "klass")):
        ids = [c for c, n in unseen.items() if db.cards[c].kind == kind for _ in range(n)]
        if not ids:
            continue
        mean = {k: sum(getattr(db.cards[c].stats, k) for c in ids) / len(ids)
                for k in ("pa", "pd", "ma", "md")}
        for z, owner, _, _ in places:
            if z == zone:
                fork.guessed.setdefault(owner, []).append((getattr(s.players[owner], zone), mean))
    return fork


__all__ = ["determinize", "hidden_places"]
