"""The combat (B6, D9, D10, B7) as a table of processes.

Each process has its work when it starts (``PROCESSES[...].work``), then a response window (D6),
then its closing (``.close``). The order is ``Combat.order``: disclosure, engagement, raid, raider
damage, interception, interceptor damage, retreat — with 先制 (D10) the interceptor may strike first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from fate_royal.rules import proxy, stack, stats, zones
from fate_royal.rules.context import Ctx
from fate_royal.rules.state import Combat, Decision, Fighter

INTERCEPTOR_FIRST = ["disclosure", "engagement", "interception", "interceptor_damage", "raid",
                     "raider_damage", "retreat"]


def start(ctx: Ctx, raider: int, target: int, encounter: bool) -> None:
    s = ctx.s
    s.window = None
    s.combat = Combat(Fighter(raider), Fighter(target), encounter=encounter,
                      mana_before={raider: s.players[raider].mana, target: s.players[target].mana})
    if encounter:
        ctx.emit("EncounterTargetChosen", ("D5",), player=raider, target=target)


def in_fight(ctx: Ctx, f: Fighter) -> bool:
    return not f.destroyed and not ctx.s.players[f.player].out and f.proxy != proxy.REMOVED


def progress(ctx: Ctx) -> None:
    """One step of the combat: start a process (its work, then its window), close it, or move on."""
    s = ctx.s
    c = s.combat
    if c.stage == "start":
        if skip(ctx, c.process):
            c.stage = "done"
            return
        ctx.emit("ProcessStarted", ("B6",), process=c.process)
        PROCESSES[c.process].work(ctx)
        c.stage = "window"
        if s.combat is not None and c.process != "retreat":
            stack.open_window(ctx, "process")
        return
    if c.stage == "window":
        c.stage = "done"
        PROCESSES[c.process].close(ctx)
        return
    if c.process == "retreat" or c.void:  # done → next process
        end(ctx)
        return
    c.process = c.order[c.order.index(c.process) + 1]
    c.stage = "start"


def skip(ctx: Ctx, process: str) -> bool:
    """A process is skipped once one side is out of the fight (destroyed, dropped out, proxy
    removed); interception also when D9 is switched off. Retreat always happens."""
    c = ctx.s.combat
    if process == "retreat":
        return False
    if process in ("interception", "interceptor_damage") and not ctx.profile.interception:
        return True
    return not (in_fight(ctx, c.raider) and in_fight(ctx, c.interceptor))


# --- process work and closing


def _nothing(ctx: Ctx) -> None:
    """No automatic work: the process is its response window."""


def disclosure(ctx: Ctx) -> None:
    """B6: a Reverse servant on either side is turned face up."""
    s = ctx.s
    c = s.combat
    for f in (c.raider, c.interceptor):
        pl = s.players[f.player]
        if pl.hero is not None and s.card_states.get(pl.hero) == "reverse":
            s.card_states[pl.hero] = "rise"
            if pl.klass is not None:
                s.card_states[pl.klass] = "rise"
            zones.reveal_servant(ctx, f.player)
            ctx.emit("ServantRevealed", ("B6",), cid=s.cards[pl.hero], player=f.player,
                     hero=s.cards[pl.hero], klass=s.cards[pl.klass] if pl.klass is not None else "")


def engagement_close(ctx: Ctx) -> None:
    """B6/E6.1: the engagement is established (a proxy chosen in it now fights), then D10 decides
    who strikes first."""
    c = ctx.s.combat
    c.established = True
    with_proxy = c.raider.proxy or c.interceptor.proxy
    ctx.emit("EngagementEstablished", ("B6", "E6.1") if with_proxy and ctx.on("E6.1") else ("B6",))
    proxy.note_suppression(ctx)
    decide_order(ctx)


def raid_work(ctx: Ctx) -> None:
    c = ctx.s.combat
    ctx.s.decision = Decision("attack", c.raider.player, ["physical", "magic"],
                              context={"role": "raider"})


def raid_close(ctx: Ctx) -> None:
    """B6: if the stats changed during the raid process, the raider may switch the attack type."""
    s = ctx.s
    f = s.combat.raider
    now = stats.fighter_stats(ctx, f.player)
    if f.attack and now != f.attack_stats:
        s.decision = Decision("attack", f.player, ["physical", "magic"],
                              context={"role": "raider", "switch": True, "was": f.attack})


def interception_work(ctx: Ctx) -> None:
    c = ctx.s.combat
    opts = ["physical", "magic"]
    forced = c.interceptor.attack  # set when a conditional 先制 decided the order (P7)
    if forced:
        opts = [forced]
    ctx.s.decision = Decision("attack", c.interceptor.player, opts, context={"role": "interceptor"})


def raider_strikes(ctx: Ctx) -> None:
    c = ctx.s.combat
    strike(ctx, c.raider, c.interceptor)


def interceptor_strikes(ctx: Ctx) -> None:
    c = ctx.s.combat
    strike(ctx, c.interceptor, c.raider)


@dataclass(frozen=True)
class Process:
    work: Callable[[Ctx], None]  # when the process starts, before its window
    close: Callable[[Ctx], None]  # when its window has closed


#: B6, D9, B7: each combat process's work and closing.
PROCESSES: dict[str, Process] = {
    "disclosure": Process(disclosure, _nothing),
    "engagement": Process(_nothing, engagement_close),
    "raid": Process(raid_work, raid_close),
    "raider_damage": Process(_nothing, raider_strikes),
    "interception": Process(interception_work, _nothing),
    "interceptor_damage": Process(_nothing, interceptor_strikes),
    "retreat": Process(lambda ctx: retreat(ctx), _nothing),
}


def decide_order(ctx: Ctx) -> None:
    """D10: if exactly one side has 先制 that side strikes first (only the interceptor can change
    the default order, since the raider strikes first anyway)."""
    c = ctx.s.combat
    if ctx.profile.first_strike != "exclusive":
        return
    r_fs = stats.first_strike_types(ctx, c.raider.player)
    i_fs = stats.first_strike_types(ctx, c.interceptor.player)
    if i_fs and not r_fs and ctx.profile.interception:
        c.order = list(INTERCEPTOR_FIRST)
        rules: tuple[str, ...] = ("D10",)
        if i_fs != {"physical", "magic"}:
            c.interceptor.attack = sorted(i_fs)[0]  # P7: must attack the way that gives 先制
            rules = ("D10", "P7")
        ctx.emit("FirstStrike", rules, player=c.interceptor.player)
    elif r_fs and not i_fs:
        ctx.emit("FirstStrike", ("D10", "P7") if r_fs != {"physical", "magic"} else ("D10",),
                 player=c.raider.player)


def strike(ctx: Ctx, att: Fighter, dfn: Fighter) -> None:
    """B6/D9 damage process: attack against the matching defense; damage = the difference (D11)."""
    s = ctx.s
    if not (in_fight(ctx, att) and in_fight(ctx, dfn)):
        return
    t = att.attack or "physical"
    a_stats = stats.fighter_stats(ctx, att.player)
    d_stats = stats.fighter_stats(ctx, dfn.player)
    a_key, d_key = ("pa", "pd") if t == "physical" else ("ma", "md")
    attack, defense = a_stats[a_key], d_stats[d_key]
    rules = ["B6", "D11"] if att is s.combat.raider else ["D9", "D11"]
    for f in (att, dfn):  # the rules that made the two stat lines (B2, D8, E6.5 / P2, E2.3…)
        for line in stats.stat_breakdown(ctx, f.player, t if f is att else None):
            if line.rule and line.rule not in rules:
                rules.append(line.rule)
    names = {"attacker": att.player, "attacker_chip": att.proxy if att.proxy != proxy.REMOVED else "",
             "defender": dfn.player, "defender_chip": dfn.proxy if dfn.proxy != proxy.REMOVED else ""}
    if attack <= defense:
        ctx.emit("NoDamage", tuple(rules), **names, attack=attack, defense=defense, type=t)
        return
    damage = attack - defense
    att.dealt += damage
    dfn.took += damage
    ctx.emit("DamageDealt", tuple(rules), **names, damage=damage, attack=attack, defense=defense,
             type=t)
    if dfn.proxy:
        ctx.emit("ProxyRemoved", ("D11",), player=dfn.player, chip=dfn.proxy)
        dfn.proxy = proxy.REMOVED
        return
    if zones.lose_mana(ctx, dfn.player, damage * ctx.profile.mana_per_damage, ("D11",)):
        dfn.destroyed = True
        ctx.emit("ServantDestroyed", ("D11",), player=dfn.player)
        zones.drop_out(ctx, dfn.player, "destroyed", ("D14",))


def retreat(ctx: Ctx) -> None:
    """B7: a servant that took damage and survived turns Down; a side that dealt damage and took
    none takes a random card from the other's hand."""
    s = ctx.s
    c = s.combat
    if c.void:
        return
    for f in (c.raider, c.interceptor):
        pl = s.players[f.player]
        if f.took > 0 and not f.proxy and not f.destroyed and not pl.out:
            if s.card_states.get(pl.hero) != "down":
                s.card_states[pl.hero] = "down"
                ctx.emit("ServantDowned", ("B7",), cid=s.cards[pl.hero], player=f.player)
    for a, b in ((c.raider, c.interceptor), (c.interceptor, c.raider)):
        if a.dealt > 0 and a.took == 0 and not s.players[a.player].out:
            victim = s.players[b.player]
            if victim.hand:
                uid = victim.hand.pop(ctx.below(len(victim.hand)))
                s.players[a.player].hand.append(uid)
                ctx.emit("CardStolen", ("B7",), player=a.player, victim=b.player)


def end(ctx: Ctx) -> None:
    s = ctx.s
    c = s.combat
    s.modifiers = [m for m in s.modifiers if m.duration != "combat"]
    if c.void:
        rules: tuple[str, ...] = ("E6.2",)
    elif c.raider.proxy or c.interceptor.proxy:
        rules = ("B7", "D11")
    else:
        rules = ("B7",)
    ctx.emit("CombatEnded", rules)
    s.combat = None
    s.window = None
    if c.raider.destroyed and c.interceptor.destroyed:
        zones.check_victory(ctx)
