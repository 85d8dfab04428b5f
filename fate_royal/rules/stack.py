"""Response windows (D6): priority passed in seat order from the turn player, effects put on a
stack and resolved last-in-first-out, the window closing when everyone has passed in a row.

``window_step`` gives priority to the next player (or, with the ``auto_pass`` option, passes for a
player who has nothing to do but pass: P6). A resolving effect's operations run one at a time
(``continue_resolution``) so that a decision in the middle (a discard, a choice) waits for its
answer and the effect then continues.
"""

from __future__ import annotations

from fate_royal.rules import effects, proxy
from fate_royal.rules.context import Ctx
from fate_royal.rules.state import StackItem, Window


def open_window(ctx: Ctx, kind: str) -> None:
    s = ctx.s
    n = len(s.players)
    order = [q for q in ((s.turn_player + k) % n for k in range(n)) if not s.players[q].out]
    if order:
        s.window = Window(kind, order)


def window_step(ctx: Ctx) -> bool:
    """Advance a response window. True when a player must decide (priority)."""
    s = ctx.s
    w = s.window
    w.order = [q for q in w.order if not s.players[q].out]
    if not w.order:
        s.window = None
        return False
    if w.index >= len(w.order):
        w.index = 0
    if w.passes >= len(w.order):
        w.passes = 0
        w.index = 0
        if s.stack:
            ctx.emit("StackResolving", ("D6", "P1"))
            resolve_top(ctx)
        else:
            s.window = None
        return False
    p = w.order[w.index]
    if not ctx.options["auto_pass"]:
        return True
    from fate_royal.rules.legality import has_priority_option

    if has_priority_option(ctx, p):
        return True
    ctx.emit("AutoPassed", ("P6",), player=p)  # P6: nothing to do but pass
    pass_priority(ctx)
    return False


def pass_priority(ctx: Ctx) -> None:
    w = ctx.s.window
    w.passes += 1
    w.index = (w.index + 1) % len(w.order)


def restart_window(ctx: Ctx) -> None:
    """Something was done with priority: everyone gets to answer it again, from the turn player."""
    w = ctx.s.window
    if w is not None:
        w.passes = 0
        w.index = 0


def push(ctx: Ctx, p: int, uid: int, index: int, targets: list, die_ok: bool) -> None:
    e = ctx.card_of(uid).effects[index - 1]
    places = any(o["op"] == "place_coins" for o in effects.walk_ops(e.ops))
    ctx.s.stack.append(StackItem(p, uid, index, list(targets), die_ok=die_ok, places_coins=places))
    restart_window(ctx)


def resolve_top(ctx: Ctx) -> None:
    """Resolve the top of the stack: negated, fizzled (its user dropped out, a failed die cost, the
    target's keyword) or its operations start (``continue_resolution``)."""
    s = ctx.s
    item = s.stack.pop()
    card = ctx.card_of(item.card)
    e = card.effects[item.effect - 1]
    if item.negated:
        ctx.emit("NegatedEffectSkipped", ("D13", "D6") if item.negated_by == "spell" else ("D6",),
                 cid=card.id, effect=e.name, card=card.id)
        proxy.after_negated(ctx, item)
        return
    if s.players[item.player].out:
        ctx.emit("EffectFizzled", ("D14",), cid=card.id, effect=e.name, card=card.id,
                 why="user_out")
        return
    if not item.die_ok:
        ctx.emit("EffectFizzled", ("P4",), cid=card.id, effect=e.name, card=card.id, why="die")
        return
    # a servant or a player target is a seat (a card's uid is not); a dropped-out player has no
    # servant, so no skill
    if e.unless_target_has and item.targets and e.target.kind in ("servant", "player"):
        t = item.targets[0]
        if isinstance(t, int) and 0 <= t < len(s.players):
            from fate_royal.rules.stats import has_keyword

            if has_keyword(ctx, t, e.unless_target_has):
                ctx.emit("EffectCancelled", ("B12",), cid=card.id, effect=e.name, card=card.id,
                         target=t, keyword=e.unless_target_has)
                return
    if _void_on_reverse(ctx, e, item):
        ctx.emit("EffectFizzled", ("E1.3", "R5"), cid=card.id, effect=e.name, card=card.id,
                 why="reverse_target")
        return
    ctx.emit("EffectResolved", ("D6",), cid=card.id, effect=e.name, card=card.id,
             player=item.player)
    s.resolving = {"player": item.player, "card": item.card, "effect": item.effect,
                   "targets": list(item.targets), "ops": [effects.op_dict(o) for o in e.ops]}


def _void_on_reverse(ctx: Ctx, e, item: StackItem) -> bool:
    """Reading R5 (``whole_effect``) of E1.3 「それを無効とする」: an effect that could make its
    target Reverse servant Down or Danger does nothing at all."""
    if ctx.reading("R5") != "whole_effect" or not ctx.on("E1.3") or not item.targets:
        return False
    if e.target.kind != "servant":
        return False
    t = item.targets[0]
    if not (isinstance(t, int) and 0 <= t < len(ctx.s.players)):
        return False
    from fate_royal.rules.zones import servant_state

    if servant_state(ctx, t) != "reverse":
        return False
    return any(o["op"] == "set_state" and o["params"].get("state") in ("down", "danger")
               and o["params"].get("subject", "target") == "target"
               for o in effects.walk_ops(e.ops))


def continue_resolution(ctx: Ctx) -> None:
    """Run the resolving effect's remaining operations until one needs a decision."""
    from fate_royal.rules.stats import cond

    s = ctx.s
    r = s.resolving
    while r["ops"]:
        op = r["ops"].pop(0)
        if s.players[r["player"]].out:
            break
        if op.get("if") and not cond(ctx, op["if"], r["player"]):
            continue
        effects.run_op(ctx, r, op)
        if s.over:
            s.resolving = None
            return
        if s.decision is not None:
            return
    s.resolving = None
    proxy.check_lost(ctx)
