"""Costs of 起動 effects (B4): "T" (the card goes Down), discarding cards from hand, mana, and the
die cost "D x・y" (P4: the effect works only on those faces).

``cost_block`` says whether a cost can be paid now (for legality); ``pay`` pays it when the effect
is used. A discard cost with a choice is a pending decision; the effect goes on the stack once it
is answered.
"""

from __future__ import annotations

from typing import Any

from fate_royal.rules import zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.state import Decision


def cost_block(ctx: Ctx, p: int, e: Any, card_state: str | None, from_hand: bool) -> tuple[str, str] | None:
    cost = e.cost
    pl = ctx.s.players[p]
    if cost.tap and card_state != "rise" and not from_hand:
        # reading R6: a card already Down may pay 「自分をダウン状態にする」 (it stays Down)
        if not (card_state == "down" and ctx.reading("R6") == "payable"):
            return ("tap_needs_rise", "P3")
    hand_n = len(pl.hand) - (1 if from_hand else 0)
    if cost.discard and hand_n < cost.discard:
        return ("cost_discard", "B4")
    if cost.mana and pl.mana < cost.mana:
        return ("cost_mana", "B4")
    return None


def pay(ctx: Ctx, p: int, uid: int, index: int, targets: list) -> bool | None:
    """Pay the cost of effect ``index`` of ``uid``. Returns whether the die cost was met (True when
    there is none), or None when the effect does not go on the stack now (its user dropped out
    paying, or a discard choice is pending and will put it there)."""
    s = ctx.s
    pl = s.players[p]
    card = ctx.card_of(uid)
    e = card.effects[index - 1]
    cost = e.cost
    paid: list[Any] = []
    paid_rules: tuple[str, ...] = ("B4",)
    if cost.tap and card.kind != "scene":
        rules = ("B4", "E9.2") if any(pt.rule == "E9.2" for pt in card.patches) else ("B4",)
        if s.card_states.get(uid) == "down":
            paid_rules = ("B4", "R6")  # already Down: paid without a change (reading R6)
        zones.set_card_state(ctx, uid, "down", rules, p)
        paid.append("tap")
    if cost.mana:
        zones.lose_mana(ctx, p, cost.mana, ("B4",))
        paid.append({"mana": cost.mana})
    die_ok = True
    if cost.die:
        value = ctx.roll(p, ("B4", "P4"))
        die_ok = value in cost.die
        if not die_ok:
            ctx.emit("DieCostFailed", ("P4",), cid=card.id, effect=e.name, value=value)
    if paid:
        ctx.emit("CostPaid", paid_rules, cid=card.id, effect=e.name, player=p, paid=paid,
                 raw=cost.raw)
    if pl.out:
        return None
    if cost.discard:
        if len(pl.hand) > cost.discard:
            s.decision = Decision("discard", p, list(pl.hand), cost.discard,
                                  {"why": "cost", "card": uid, "effect": index,
                                   "targets": targets, "die_ok": die_ok})
            return None
        for u in list(pl.hand):
            zones.discard_from_hand(ctx, p, u, ("B4",))
    return die_ok
