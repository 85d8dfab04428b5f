"""Carrying out a legal action: one function per action kind (``PERFORM``).

Legality was checked before (``legality``); these only change the position and log what happened
with the rules it applied. After an action the game's automatic work runs (``flow.run``).
"""

from __future__ import annotations

from typing import Any, Callable

from fate_royal.rules import combat, costs, proxy, stack, stats, zones
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.context import Ctx


def perform(ctx: Ctx, action: Action) -> None:
    PERFORM[type(action)](ctx, action)


def _pass(ctx: Ctx, a: Pass) -> None:
    ctx.emit("Passed", ("D6",), player=a.player)
    stack.pass_priority(ctx)


def _raid(ctx: Ctx, a: DeclareRaid) -> None:
    p = a.player
    ctx.s.raided = True
    rules = ("B6", "D5", "D2") if zones.servant_state(ctx, p) == "reverse" else ("B6", "D5")
    ctx.emit("RaidDeclared", rules, player=p, target=a.target)
    combat.start(ctx, p, a.target, encounter=False)


def _encounter_target(ctx: Ctx, a: ChooseEncounterTarget) -> None:
    ctx.s.decision = None
    combat.start(ctx, a.player, a.target, encounter=True)


def _attack(ctx: Ctx, a: ChooseAttack) -> None:
    s = ctx.s
    p = a.player
    d = s.decision
    s.decision = None
    f = s.combat.side(p)
    f.attack = a.type
    f.attack_stats = stats.fighter_stats(ctx, p)
    switched = d.context.get("switch") and a.type != d.context.get("was", a.type)
    ctx.emit("AttackSwitched" if switched else "AttackChosen",
             ("B6",) if d.context.get("role") == "raider" else ("D9",), player=p, type=a.type)


def _play(ctx: Ctx, a: PlayCard) -> None:
    """D5/D7: a mystic code goes onto the seat Rise; a scene face down (E1.8)."""
    s = ctx.s
    p, uid = a.player, a.card
    pl = s.players[p]
    pl.hand.remove(uid)
    pl.seat.append(uid)
    kind = ctx.card_of(uid).kind
    state = "rise" if kind == "mystic_code" else "reverse"
    s.card_states[uid] = state
    ctx.emit("CardPlayed", ("D5", "D7") if kind == "mystic_code" else ("E1.8", "D7"),
             cid=s.cards[uid], secret=p if state == "reverse" else -1, player=p,
             card=s.cards[uid], state=state)
    stack.restart_window(ctx)


def _discard(ctx: Ctx, a: Discard) -> None:
    s = ctx.s
    p, uid = a.player, a.card
    d = s.decision
    why = d.context.get("why")
    rules = {"hand_limit": ("D5", "P5"), "cost": ("B4", "P5"), "effect": ("B11",)}.get(why, ("B4",))
    zones.discard_from_hand(ctx, p, uid, rules)
    d.count -= 1
    d.options = [u for u in d.options if u != uid and u in s.players[p].hand]
    if d.count > 0 and d.options:
        return
    s.decision = None
    if why == "cost":
        stack.push(ctx, p, d.context["card"], d.context["effect"], d.context["targets"],
                   d.context.get("die_ok", True))


def _choose(ctx: Ctx, a: Choose) -> None:
    s = ctx.s
    p, option = a.player, a.option
    d = s.decision
    if d.kind in ("choose_hero", "choose_class"):
        s.box.remove(option)
        pl = s.players[p]
        state = ctx.profile.servant_start_state
        if d.kind == "choose_hero":
            pl.hero = option
            s.card_states[option] = state
        else:
            pl.klass = option
            s.card_states[option] = "reverse" if state == "reverse" else "rise"
            ctx.emit("ServantChosen", ("D2",), player=p)
        s.decision = None
        return
    if d.kind == "rise_cards":
        zones.set_card_state(ctx, option, "rise", ("B3",), p)
        d.count -= 1
        d.options = [u for u in d.options if u != option]
        if d.count <= 0 or not d.options:
            s.decision = None
        return
    raise ValueError(f"no way to answer a {d.kind!r} decision by choosing")


def _command_spell(ctx: Ctx, a: CommandSpell) -> None:
    """D13: negate an effect on the stack, or (E4.2) remove one special coin."""
    s = ctx.s
    p = a.player
    pl = s.players[p]
    pl.command_spells -= 1
    if a.spell == "negate":
        item = s.stack[a.target]
        item.negated = True
        item.negated_by = "spell"
        card = ctx.card_of(item.card)
        ctx.emit("CommandSpellNegated", ("D13",), cid=card.id,
                 effect=card.effects[item.effect - 1].name, player=p, left=pl.command_spells,
                 card=card.id)
    else:
        other = s.players[a.target]
        other.coins[a.coin] = other.coins.get(a.coin, 0) - 1
        if other.coins[a.coin] <= 0:
            del other.coins[a.coin]
        ctx.emit("CommandSpellRemovedCoin", ("D13", "E4.2"), player=p, left=pl.command_spells,
                 target=a.target, coin=a.coin)
    if pl.command_spells == 0 and ctx.on("E4.1"):
        ctx.emit("LastCommandSpell", ("E4.1",), player=p)
    stack.restart_window(ctx)


def _use(ctx: Ctx, a: UseEffect) -> None:
    """Use a 起動 effect: log it with every rule that allowed it, pay its cost, put it on the
    stack (B5, B9, B4, E2.1–E2.4, E6.1, E6.4, E5, E9.x)."""
    s = ctx.s
    p, uid, index, targets = a.player, a.card, a.effect, list(a.targets)
    pl = s.players[p]
    card = ctx.card_of(uid)
    e = card.effects[index - 1]
    ctx.emit("EffectUsed", _use_rules(ctx, p, uid, index, card, e), cid=card.id, effect=e.name,
             player=p, card=card.id, targets=_targets_arg(ctx, e, targets))
    s.used.append([uid, index])
    if card.kind == "scene" and uid in pl.hand:
        pl.hand.remove(uid)
        s.grail.append(uid)  # B9: used scenes go to the grail seat
    die_ok = costs.pay(ctx, p, uid, index, targets)
    if die_ok is not None:
        stack.push(ctx, p, uid, index, targets, die_ok)


def _use_rules(ctx: Ctx, p: int, uid: int, index: int, card: Any, e: Any) -> tuple[str, ...]:
    s = ctx.s
    rules = ["B5", ctx.cite("E2.2", "B11")]
    if any(u == uid for u, _ in s.used):
        rules.append(ctx.cite("E2.4", "B11"))
    if any(u != uid and ctx.card_of(u).effects[i - 1].name == e.name for u, i in s.used):
        rules.append("R7")  # another copy's effect of this name was used this step (per card)
    if e.window == "ritual" and ctx.on("E2.1"):
        rules.append("E2.1")
    if e.usable_while_down and ctx.on("E9.6") and zones.servant_state(ctx, p) == "down":
        rules.append("E9.6")
    rules.extend(pt.rule for pt in card.patches if pt.path.startswith(f"effects.{index}"))
    if card.kind == "scene":
        rules.append("B9")
    c = s.combat
    if p != s.turn_player or (c is not None and c.side(p) is None):
        rules.append(ctx.cite("E2.1", "B11"))  # used on another player's turn / in their combat
    if "代理戦闘" in e.keywords:
        rules.append(ctx.cite("E6.1", "B6"))
    fighting_proxy = proxy.proxy_of(ctx, p)
    if fighting_proxy and card.kind in ("hero", "class") and ctx.on("E6.4") \
            and not proxy.self_targeting(e):
        rules.append("E6.4")  # not aimed at the servant itself: usable while a proxy fights
    if proxy.own_proxy_support(ctx, p, uid, e):
        rules.append("E5")  # 支援 for the proxy of this same card
    return tuple(dict.fromkeys(rules))


def _targets_arg(ctx: Ctx, e: Any, targets: list) -> list:
    """Targets as event arguments: seats as seats, cards as card ids, stack entries as their
    position and effect."""
    kind = e.target.kind
    out: list = []
    for t in targets:
        if kind in ("servant", "player", "dropped_player"):
            out.append({"seat": t})
        elif kind == "card":
            out.append({"card": ctx.s.cards.get(t, "")})
        elif kind == "stack_effect":
            item = ctx.s.stack[t] if 0 <= t < len(ctx.s.stack) else None
            if item is not None and item.card >= 0:
                c = ctx.card_of(item.card)
                out.append({"stack": t, "card": c.id, "effect": c.effects[item.effect - 1].name})
            else:
                out.append({"stack": t})
    return out


PERFORM: dict[type, Callable[[Ctx, Any], None]] = {
    Pass: _pass,
    DeclareRaid: _raid,
    ChooseEncounterTarget: _encounter_target,
    ChooseAttack: _attack,
    PlayCard: _play,
    Discard: _discard,
    Choose: _choose,
    UseEffect: _use,
    CommandSpell: _command_spell,
}
