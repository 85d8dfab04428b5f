"""Operations that move cards and players: ``draw`` (E8 rebuilds the deck, D15), ``discard``,
``steal_random`` and ``revive`` (D14)."""

from __future__ import annotations

from fate_royal.rules import zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.effects import effect_of, handler, subject
from fate_royal.rules.state import Decision


def draw(ctx: Ctx, r: dict, op: dict) -> None:
    for _ in range(int(op["params"]["count"])):
        zones.draw(ctx, r["player"])


def discard(ctx: Ctx, r: dict, op: dict) -> None:
    """The subject discards ``count`` cards of their choice (all of them if they hold no more)."""
    s = ctx.s
    q = subject(ctx, r, op, "self")
    if q is None or s.players[q].out:
        return
    hand = s.players[q].hand
    count = int(op["params"]["count"])
    if len(hand) <= count:
        for u in list(hand):
            zones.discard_from_hand(ctx, q, u, ("B11",))
    else:
        s.decision = Decision("discard", q, list(hand), count, {"why": "effect"})


def steal_random(ctx: Ctx, r: dict, op: dict) -> None:
    s = ctx.s
    q = subject(ctx, r, {"params": {"subject": "target"}}, "target")
    if q is None:
        return
    p = r["player"]
    for _ in range(int(op["params"].get("count", 1))):
        victim = s.players[q]
        if victim.hand:
            uid = victim.hand.pop(ctx.below(len(victim.hand)))
            s.players[p].hand.append(uid)
            ctx.emit("CardStolen", ("B11",), player=p, victim=q)


def revive(ctx: Ctx, r: dict, op: dict) -> None:
    """A dropped-out player (the target) returns with a new Reverse servant from the cards out of
    play, the given mana and command spells and a fresh hand."""
    s = ctx.s
    params = op["params"]
    card = ctx.card_of(r["card"])
    e = effect_of(ctx, r)
    q = r["targets"][0] if r["targets"] else None
    if not isinstance(q, int) or not 0 <= q < len(s.players) or not s.players[q].out:
        return
    heroes = [u for u in s.box if ctx.card_of(u).kind == "hero"]
    classes = [u for u in s.box if ctx.card_of(u).kind == "class"]
    if not heroes or not classes:
        ctx.emit("EffectFizzled", ("D14",), cid=card.id, effect=e.name, card=card.id,
                 why="no_servant_left")
        return
    pl = s.players[q]
    pl.out = False
    hero = heroes[ctx.below(len(heroes))]
    klass = classes[ctx.below(len(classes))]
    s.box.remove(hero)
    s.box.remove(klass)
    pl.hero, pl.klass = hero, klass
    s.card_states[hero] = "reverse"
    s.card_states[klass] = "reverse"
    pl.mana = min(int(params.get("mana", 1)), pl.mana_limit)
    pl.command_spells = int(params.get("command_spells", 1))
    ctx.emit("PlayerRevived", ("D14",), cid=card.id, effect=e.name, player=q)
    for _ in range(int(params.get("hand", 2))):
        zones.draw(ctx, q)


# Registered here rather than with @handler on each function: mutation testing (mutmut) leaves
# decorated functions alone, and these are the rules' operations.
handler("draw", ("count",))(draw)
handler("discard", ("count", "subject"))(discard)
handler("steal_random", ("count",))(steal_random)
handler("revive", ("mana", "command_spells", "hand"))(revive)
