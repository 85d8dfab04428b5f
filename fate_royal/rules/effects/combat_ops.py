"""Operations that act on a fight and on the stack: ``modify_stats`` and ``grant_keyword`` (B11,
B12, E2.3, D16, E6.3), ``proxy`` (E6.1, E6.5, E9.7), ``negate`` (D6) and ``roll_die`` (B1)."""

from __future__ import annotations

from fate_royal.rules import proxy as proxies
from fate_royal.rules.context import Ctx
from fate_royal.rules.effects import effect_of, handler, normalise_op, subject
from fate_royal.rules.state import Modifier
from fate_royal.rules.stats import op_stats

_STAT_KEYS = ("pa", "pd", "ma", "md")


def _modifier(ctx: Ctx, r: dict, op: dict) -> Modifier | None:
    """The lasting modifier a stat/keyword operation makes, or None (no fighter, or a same-name
    effect already applies: E2.3, D16)."""
    s = ctx.s
    q = subject(ctx, r, op, "combatant")
    if q is None or s.players[q].out:
        return None
    card = ctx.card_of(r["card"])
    e = effect_of(ctx, r)
    part = r.setdefault("part", 0)
    r["part"] = part + 1
    if any(m.player == q and m.name == e.name and m.part == part for m in s.modifiers):
        ctx.emit("SameNameIgnored", (ctx.cite("E2.3", "B11"), "D16"), cid=card.id, effect=e.name,
                 player=q)
        return None
    return Modifier(player=q, name=e.name, source=r["card"], source_kind=card.kind,
                    effect=r["effect"], part=part, duration=op["params"]["duration"],
                    condition=op.get("if"),
                    support="支援" in e.keywords and proxies.has_proxy_effect(card))


def _note_suppressed(ctx: Ctx, r: dict, mod: Modifier) -> None:
    """E6.3: a hero/class effect aimed at the servant does not apply while a proxy fights (a 支援
    effect for its own card's proxy excepted, E5)."""
    card = ctx.card_of(r["card"])
    if card.kind in ("hero", "class") and ctx.on("E6.3") and proxies.proxy_of(ctx, mod.player) \
            and not proxies.own_proxy_support(ctx, mod.player, r["card"], effect_of(ctx, r)):
        ctx.emit("ProxySuppressed", ("E6.3",), cid=card.id, effect=mod.name, player=mod.player,
                 card=card.id)


def _support_cites(ctx: Ctx, r: dict, mod: Modifier) -> tuple[str, ...]:
    """E5 is cited when a 支援 effect boosts the proxy summoned by that same card."""
    if mod.support and proxies.own_proxy_support(ctx, mod.player, r["card"], effect_of(ctx, r)):
        return ("E5",)
    return ()


def modify_stats(ctx: Ctx, r: dict, op: dict) -> None:
    mod = _modifier(ctx, r, op)
    if mod is None:
        return
    mod.stats = op_stats(op["params"])
    ctx.s.modifiers.append(mod)
    ctx.emit("StatsModified", ("B11",) + _support_cites(ctx, r, mod), cid=ctx.s.cards[r["card"]],
             effect=mod.name, player=mod.player, change=dict(mod.stats))
    _note_suppressed(ctx, r, mod)


def grant_keyword(ctx: Ctx, r: dict, op: dict) -> None:
    mod = _modifier(ctx, r, op)
    if mod is None:
        return
    mod.keyword = str(op["params"]["keyword"])
    ctx.s.modifiers.append(mod)
    ctx.emit("KeywordGranted", ("B12",) + _support_cites(ctx, r, mod), cid=ctx.s.cards[r["card"]],
             effect=mod.name, player=mod.player, keyword=mod.keyword)
    _note_suppressed(ctx, r, mod)


def proxy(ctx: Ctx, r: dict, op: dict) -> None:
    """代理戦闘: a proxy with the chip's stats fights this combat for the user (E6.1, E6.5)."""
    s = ctx.s
    p = r["player"]
    card = ctx.card_of(r["card"])
    e = effect_of(ctx, r)
    # another proxy effect may have resolved first and fight: one proxy at a time (E6.1)
    why = proxies.call_refusal(ctx, p)
    if why:
        ctx.emit("EffectFizzled", (ctx.cite("E6.1", "B6"),), cid=card.id, effect=e.name,
                 card=card.id, why=why)
        return
    f = s.combat.side(p)
    f.proxy = str(op["params"]["chip"])
    f.proxy_source = r["card"]
    f.proxy_effect = r["effect"]
    if ctx.on("E6.1"):
        rules = ("E6.1", ctx.cite("E6.5", "P2"), ctx.cite("E9.7", "P2"))
    else:
        rules = ("B6", "P2")
    ctx.emit("ProxySummoned", tuple(dict.fromkeys(rules)), cid=card.id, effect=e.name, player=p,
             chip=f.proxy)


def negate(ctx: Ctx, r: dict, op: dict) -> None:
    """打ち消し: the targeted effect on the stack does nothing when its turn to resolve comes."""
    # The card loader gives every negate a stack target and legality only offers effects (never a
    # command spell) below it; those resolve after the negation (last in, first out), so the
    # target is still there, at the same place.
    item = ctx.s.stack[r["targets"][0]]
    item.negated = True
    item.negated_by = "effect"
    by = ctx.card_of(r["card"])
    target_card = ctx.card_of(item.card)
    ctx.emit("EffectNegated", ("D6",), cid=target_card.id,
             effect=target_card.effects[item.effect - 1].name, card=target_card.id,
             by_card=by.id, by_effect=effect_of(ctx, r).name, player=r["player"])


def roll_die(ctx: Ctx, r: dict, op: dict) -> None:
    """Roll (logged, B1) and carry out the operations of the outcome whose faces match, next: before
    the effect's remaining operations (D6). The loader gives every outcome its faces and ops."""
    value = ctx.roll(r["player"])
    outcome = next((o for o in op["params"]["outcomes"] if value in o["faces"]), None)
    if outcome is not None:
        r["ops"][0:0] = [normalise_op(o) for o in outcome["ops"]]


# Registered here rather than with @handler on each function: mutation testing (mutmut) leaves
# decorated functions alone, and these are the rules' operations.
handler("modify_stats", ("subject", "pa", "pd", "ma", "md", "duration"))(modify_stats)
handler("grant_keyword", ("subject", "keyword", "duration"))(grant_keyword)
handler("proxy", ("chip",))(proxy)
handler("negate", ("what",))(negate)
handler("roll_die", ("outcomes",))(roll_die)
