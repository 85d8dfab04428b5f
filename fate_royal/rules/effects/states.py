"""Operations that change card states: ``set_state`` (B3, E1.3, E1.7) and ``rise_cards``; and the
常時-only ``encounter_faces`` (E9.5), which the encounter step reads instead of resolving."""

from __future__ import annotations

from fate_royal.rules import zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.effects import effect_of, handler, subject
from fate_royal.rules.state import Decision


def set_state(ctx: Ctx, r: dict, op: dict) -> None:
    s = ctx.s
    state = op["params"]["state"]
    e = effect_of(ctx, r)
    t = r["targets"][0] if r["targets"] else None
    if e.target.kind == "card" and t in s.cards:
        zone, owner = s.zone_of(t)
        if zone == "seat" and owner is not None:
            zones.set_card_state(ctx, t, state, (ctx.cite("E1.7", "B3"),), owner)
        return
    q = subject(ctx, r, op, "target")
    if q is None or s.players[q].out or s.players[q].hero is None:
        return
    zones.set_card_state(ctx, s.players[q].hero, state, ("B3",), q)


def rise_cards(ctx: Ctx, r: dict, op: dict) -> None:
    """The user turns up to ``count`` of their Down cards (servant or mystic codes) Rise; when more
    are Down than may rise, the user chooses."""
    s = ctx.s
    p = r["player"]
    pl = s.players[p]
    card = ctx.card_of(r["card"])
    downs = [u for u in [pl.hero] + pl.seat if u is not None and s.card_states.get(u) == "down"]
    count = int(op["params"]["count"])
    rules = ("E9.1",) if any(pt.rule == "E9.1" for pt in card.patches) else ("B3",)
    if len(downs) <= count:
        for u in downs:
            zones.set_card_state(ctx, u, "rise", rules, p)
        ctx.emit("CardsRisen", rules, cid=card.id, effect=effect_of(ctx, r).name, player=p,
                 count=len(downs))
    else:
        s.decision = Decision("rise_cards", p, downs, count, {"why": "effect"})


def encounter_faces(ctx: Ctx, r: dict, op: dict) -> None:
    """A 常時 rule (vocabulary: not allowed in 起動 effects): ``flow.encounter_step`` reads it
    through ``stats.encounter_faces``; resolving it does nothing."""


# Registered here rather than with @handler on each function: mutation testing (mutmut) leaves
# decorated functions alone, and these are the rules' operations.
handler("set_state", ("subject", "state"))(set_state)
handler("rise_cards", ("count",))(rise_cards)
handler("encounter_faces", ("faces",))(encounter_faces)
