"""Proxy combat (代理戦闘) in one place: E5 (支援 for the same card's proxy) and E6.1–E6.4.

- E6.1 a 代理戦闘 effect is used in the engagement process; negated or lost there, the servant (or
  another proxy effect) fights instead.
- E6.2 lost after the engagement process: the combat counts as never having happened.
- E6.3 while a proxy fights, the hero's and class's effects aimed at their own servant (stat
  changes, granted skills), 常時 ones included, and their skills do not apply.
- E6.4 mystic codes' effects and skills still apply; effects not aimed at the servant stay usable.
- E5 a 支援 effect of a card that also has 代理戦闘 may boost that same card's proxy.
"""

from __future__ import annotations

from typing import Any

from fate_royal.rules.context import Ctx

SELF_OPS = ("modify_stats", "grant_keyword")
REMOVED = "#removed"  # Fighter.proxy of a proxy that was removed by damage (D11)


def proxy_of(ctx: Ctx, p: int) -> str:
    """The chip id of the proxy fighting for p now, or ""."""
    c = ctx.s.combat
    f = c.side(p) if c else None
    if f and f.proxy and f.proxy != REMOVED:
        return f.proxy
    return ""


#: Why a proxy cannot be called (E6.1): a reason for refusing the effect, and the ``why`` of its
#: fizzling when it resolves.
CALL_REFUSALS = ("proxy_engagement_only", "proxy_fighters_only", "proxy_already")


def call_refusal(ctx: Ctx, p: int) -> str:
    """Why p cannot call a proxy now (E6.1), or "": only in the engagement process, only by a
    player in the combat, one proxy at a time."""
    c = ctx.s.combat
    if c is None or c.process != "engagement":
        return CALL_REFUSALS[0]
    f = c.side(p)
    if f is None:
        return CALL_REFUSALS[1]
    if f.proxy:
        return CALL_REFUSALS[2]
    return ""


def has_proxy_effect(card: Any) -> bool:
    return any("代理戦闘" in x.keywords for x in card.effects)


def self_targeting(e: Any) -> bool:
    """An effect aimed at its own servant: only stat changes / granted keywords for the fighter."""
    return bool(e.ops) and all(
        o.op in SELF_OPS and o.params.get("subject", "combatant") in ("self", "combatant")
        for o in e.ops)


def support_exempt(ctx: Ctx, card: Any, e: Any) -> bool:
    """E5: a 支援 effect of a card that also has 代理戦闘 may boost that card's own proxy."""
    return "支援" in e.keywords and ctx.on("E5") and has_proxy_effect(card)


def applies_to_fighter(ctx: Ctx, p: int, source_uid: int, e: Any) -> bool:
    """Whether a stat/keyword effect of ``source_uid`` applies to p's fighter now (E6.3/E6.4, E5)."""
    if not ctx.on("E6.3") or not proxy_of(ctx, p):
        return True
    card = ctx.card_of(source_uid)
    if card.kind not in ("hero", "class"):
        return True  # E6.4
    if support_exempt(ctx, card, e):
        return ctx.s.combat.side(p).proxy_source == source_uid  # E5: only that same card's proxy
    return False


def own_proxy_support(ctx: Ctx, p: int, uid: int, e: Any) -> bool:
    """E5: effect ``e`` of card ``uid`` is a 支援 effect and the proxy fighting for p was summoned
    by that same card."""
    c = ctx.s.combat
    f = c.side(p) if c else None
    return (f is not None and bool(proxy_of(ctx, p)) and f.proxy_source == uid
            and support_exempt(ctx, ctx.card_of(uid), e))


def suppressed(ctx: Ctx, p: int, uid: int, e: Any) -> bool:
    """E6.3 refuses using this hero/class effect now: a proxy fights and the effect is aimed at the
    servant (a 支援 effect for the proxy of its own card excepted, E5)."""
    card = ctx.card_of(uid)
    return (card.kind in ("hero", "class") and ctx.on("E6.3") and bool(proxy_of(ctx, p))
            and self_targeting(e) and not own_proxy_support(ctx, p, uid, e))


def note_suppression(ctx: Ctx) -> None:
    """E6.3/E6.4: log which hero/class effects and skills do not apply to a fighting proxy, and
    which mystic codes still do."""
    if not ctx.on("E6.3"):
        return
    from fate_royal.rules.stats import constant_active

    s = ctx.s
    c = s.combat
    for f in (c.raider, c.interceptor):
        if not f.proxy or f.proxy == REMOVED:
            continue
        p = f.player
        pl = s.players[p]
        for uid in (pl.hero, pl.klass):
            if uid is None:
                continue
            card = ctx.card_of(uid)
            for e in card.effects:
                if self_targeting(e) and not own_proxy_support(ctx, p, uid, e):
                    ctx.emit("ProxySuppressed", ("E6.3",), cid=card.id, effect=e.name, player=p,
                             card=card.id)
            if card.skills:
                ctx.emit("SkillsSuppressed", ("E6.3",), cid=card.id, player=p, card=card.id,
                         skills=list(card.skills))
        for uid in pl.seat:  # E6.4 (B12): mystic code effects and skills still apply
            card = ctx.card_of(uid)
            if card.kind != "mystic_code" or s.card_states.get(uid) == "reverse":
                continue
            kept = [e.name for e in card.effects if e.is_constant and constant_active(ctx, p, uid, e)]
            if kept or card.skills:
                ctx.emit("ProxyKept", ("E6.4", "B12") if card.skills else ("E6.4",), cid=card.id,
                         player=p, card=card.id, effects=kept, skills=list(card.skills))


def after_negated(ctx: Ctx, item: Any) -> None:
    """E6.1: a proxy effect negated during engagement leaves the servant (or another proxy
    effect) to fight."""
    if not ctx.on("E6.1") or item.card < 0:
        return
    e = ctx.card_of(item.card).effects[item.effect - 1]
    c = ctx.s.combat
    if "代理戦闘" in e.keywords and c is not None and c.process == "engagement":
        ctx.emit("ProxyLost", ("E6.1",), cid=ctx.s.cards[item.card], effect=e.name,
                 player=item.player, why="negated", then="servant_fights")


def check_lost(ctx: Ctx) -> None:
    """E6.1 / E6.2: a fighting proxy whose 代理戦闘 effect is lost (its card left the servant or
    turned Reverse, or the effect itself is lost): during the engagement process the servant (or
    another proxy effect) fights instead; after it, the combat counts as never having happened."""
    from fate_royal.rules.stats import effect_lost
    from fate_royal.rules.zones import sources

    s = ctx.s
    c = s.combat
    if c is None or c.void:
        return
    for f in (c.raider, c.interceptor):
        if not f.proxy or f.proxy == REMOVED or f.proxy_source < 0:
            continue
        uid = f.proxy_source
        pl = s.players[f.player]
        card = ctx.card_of(uid)
        e = card.effects[f.proxy_effect - 1] if 0 < f.proxy_effect <= len(card.effects) else None
        why = ""
        if uid not in sources(ctx, f.player):
            why = "left_servant"
        elif s.card_states.get(uid) == "reverse" and card.kind != "hero":
            why = "reverse"
        elif e is not None and e.lost_when and effect_lost(ctx, f.player, uid, e):
            why = "effect_lost"
        if not why or pl.out:
            continue
        if c.process == "engagement" and not c.established:
            if not ctx.on("E6.1"):
                continue
            ctx.emit("ProxyLost", ("E6.1",), cid=card.id, effect=e.name if e else "",
                     player=f.player, why=why, then="servant_fights")
            f.proxy, f.proxy_source, f.proxy_effect = "", -1, 0
        else:
            if not ctx.on("E6.2"):
                continue
            ctx.emit("ProxyLost", ("E6.2",), cid=card.id, effect=e.name if e else "",
                     player=f.player, why=why, then="combat_void")
            void_combat(ctx)
            return


def void_combat(ctx: Ctx) -> None:
    """E6.2: the combat counts as never having happened. Reading R1: 「戦闘がなかったものとなる」 —
    the mana that damage took in it comes back (``undone``), or stays lost (``kept``); a servant
    destroyed in it stays destroyed either way (dropping out is final, D14)."""
    s = ctx.s
    c = s.combat
    ctx.emit("CombatVoid", ("E6.2",))
    if ctx.reading("R1") == "undone":
        for seat, before in sorted(c.mana_before.items()):
            pl = s.players[seat]
            if not pl.out and pl.mana < before:
                restored = min(before, pl.mana_limit) - pl.mana
                pl.mana += restored
                ctx.emit("DamageUndone", ("E6.2", "R1"), player=seat, amount=restored, mana=pl.mana)
        for f in (c.raider, c.interceptor):
            f.dealt = f.took = 0
    c.void = True
    c.stage = "done"
    s.window = None
    s.stack.clear()
    if s.decision is not None and s.decision.kind == "attack":
        s.decision = None
