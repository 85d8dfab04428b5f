"""Invariants that must hold after every action (checked by ``simulate`` and the test sweeps)."""

from __future__ import annotations

from collections import Counter

from fate_royal.rules.state import GameState


def check_state(s: GameState) -> list[str]:
    """Every broken invariant of a position, as readable sentences (empty when all hold)."""
    problems: list[str] = []
    places: Counter[int] = Counter()
    in_play: set[int] = set()
    for p in s.players:
        for uid in (p.hero, p.klass):
            if uid is not None:
                places[uid] += 1
                in_play.add(uid)
        for uid in p.seat:
            places[uid] += 1
            in_play.add(uid)
        places.update(p.hand)
    for zone in (s.deck, s.discard, s.grail, s.removed, s.box):
        places.update(zone)
    for uid in s.cards:
        n = places.get(uid, 0)
        if n != 1:
            problems.append(f"card #{uid} ({s.cards[uid]}) is in {n} places")
    for uid in places:
        if uid not in s.cards:
            problems.append(f"unknown card #{uid} in a zone")
    if set(s.card_states) != in_play:
        problems.append("card states recorded for cards not in play, or missing: "
                        f"{sorted(set(s.card_states) ^ in_play)}")
    for p in s.players:
        if not 0 <= p.mana <= p.mana_limit:
            problems.append(f"{p.name}: mana {p.mana} outside 0..{p.mana_limit}")
        if p.command_spells < 0:
            problems.append(f"{p.name}: command spells {p.command_spells} < 0")
        if any(v <= 0 for v in p.coins.values()):
            problems.append(f"{p.name}: a coin count is not positive: {p.coins}")
        if p.out and (p.hand or p.seat or p.hero is not None or p.klass is not None or p.coins
                      or p.mana):
            problems.append(f"{p.name} dropped out but still holds something")
    if s.over and s.winner is not None and s.players[s.winner].out:
        problems.append("the winner has dropped out")
    return problems
