"""What may be done now, and why not: one source for both.

``legal_actions`` lists every legal action of the deciding player; ``refusal`` explains an action
that is not among them with a reason code and the rule id (the same checks, in "why not" mode, as
ygopro answers "could this be activated?"). ``effect_block`` is the single test of whether a card's
effect may be used now (states, windows, once per step, costs, proxy suppression).
"""

from __future__ import annotations

from dataclasses import dataclass

from fate_royal.rules import costs, proxy, stats, zones
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.context import Ctx


@dataclass(frozen=True)
class Refusal:
    """Why an action is not legal now: a stable reason code, the rule id that forbids it ("" when
    no single rule does) and a plain message for logs and errors."""

    reason: str
    rule: str
    message: str

    def __iter__(self):  # (reason, rule, message), as the old tuple form
        return iter((self.reason, self.rule, self.message))


# --- effects


def effect_block(ctx: Ctx, p: int, uid: int, index: int) -> tuple[str, str] | None:
    """None if p may use effect ``index`` of card ``uid`` now (targets aside), else
    (reason code, rule id)."""
    s = ctx.s
    pl = s.players[p]
    if pl.out:
        return ("out", "D14")
    card = ctx.card_of(uid)
    if not 1 <= index <= len(card.effects):
        return ("no_such_effect", "")
    e = card.effects[index - 1]
    where = ("hero" if uid == pl.hero else "class" if uid == pl.klass else
             "seat" if uid in pl.seat else "hand" if uid in pl.hand else "")
    if not where:
        return ("not_your_card", "")
    if e.unplayable:  # the vocabulary cannot say it yet: never offered, never silently ignored
        return ("not_playable", "")
    if e.is_constant:
        return ("constant", "B5")
    if e.lost_when and stats.effect_lost(ctx, p, uid, e):  # the rule that made it lose the
        # effect, as the EffectLost event cites it (zones.effects_lost): the patch's, else B11
        card = ctx.card_of(uid)
        return ("effect_lost", next((pt.rule for pt in card.patches if "lost_when" in pt.path),
                                    "B11"))
    sst = zones.servant_state(ctx, p)
    st = s.card_states.get(uid)
    if where == "hand":
        if card.kind != "scene":
            return ("play_first", "B9")
    elif where == "hero":
        if sst == "reverse":
            return ("hero_reverse", ctx.cite("E1.2", "B3"))
        if sst == "danger":
            return ("danger_constant_only", ctx.cite("E1.5", "B3"))
    elif where == "class":
        if st == "reverse" or sst == "reverse":
            return ("class_reverse", ctx.cite("E1.6", "B3"))
        if sst == "danger":
            return ("danger_constant_only", ctx.cite("E1.5", "B3"))
        if stats.unqualified_blocks(ctx, p):
            return ("unqualified_class", "D8")
    else:  # seat
        if card.kind == "scene" or st == "reverse":
            return ("card_reverse", ctx.cite("E1.8" if card.kind == "scene" else "E1.7", "B3"))
        if st == "down":
            return ("card_down", "P3")
        if sst == "down" and not (e.usable_while_down and ctx.on("E9.6")):
            return ("servant_down_codes", ctx.cite("E1.4", "B3"))
        if sst == "danger":
            return ("danger_constant_only", ctx.cite("E1.5", "B3"))
    block = window_block(ctx, p, e)
    if block:
        return block
    if [uid, index] in s.used or (ctx.reading("R7") == "per_name" and any(
            ctx.card_of(u).effects[i - 1].name == e.name for u, i in s.used)):
        return ("once_per_step", ctx.cite("E2.2", "B11"))
    block = costs.cost_block(ctx, p, e, st, where == "hand")
    if block:
        return block
    if proxy.suppressed(ctx, p, uid, e):
        return ("proxy_suppressed", "E6.3")
    if e.condition and not stats.cond(ctx, e.condition, p):
        return ("condition", "")
    for o in e.ops:
        if o.op == "proxy":
            why = proxy.call_refusal(ctx, p)
            if why:
                return (why, ctx.cite("E6.1", "B6"))
    return None


def window_block(ctx: Ctx, p: int, e) -> tuple[str, str] | None:
    """B5: the window an activated effect names must be open (E2.1: ritual-step effects only in
    one's own turn)."""
    s = ctx.s
    c = s.combat
    w = e.window
    if w == "any":
        return None
    if w == "ritual":
        if s.step != "ritual" or c is not None:
            return ("window_ritual", "B5")
        if p != s.turn_player and ctx.on("E2.1"):
            return ("ritual_own_turn", "E2.1")
        return None
    if c is None:
        return ("window_combat", "B5")
    if w == "damage":
        return None if c.process in ("raider_damage", "interceptor_damage") else ("window_damage", "B5")
    if w == "engagement":
        return None if c.process == "engagement" else ("window_engagement", ctx.cite("E6.1", "B6"))
    if w == "raid":
        return None if c.process == "raid" else ("window_raid", "B6")
    return None  # combat


def effect_targets(ctx: Ctx, p: int, uid: int, index: int) -> list[tuple]:
    """Every legal ``targets`` tuple for an effect (``[()]`` when it takes none)."""
    s = ctx.s
    t = ctx.card_of(uid).effects[index - 1].target
    kind, side = t.kind, t.side
    if kind == "none":
        return [()]
    alive = s.alive()
    c = s.combat

    def side_ok(q: int) -> bool:
        if side == "opponent":
            return q != p
        if side == "self":
            return q == p
        if side == "combat_opponent":
            return c is not None and c.side(p) is not None and c.other(p).player == q
        return True

    if kind in ("servant", "player"):
        return [(q,) for q in alive if side_ok(q)]
    if kind == "dropped_player":
        return [(q,) for q, pl in enumerate(s.players) if pl.out and side_ok(q)]
    if kind == "card":
        kinds = t.card_kinds or ("mystic_code",)
        return [(u,) for q in alive if side_ok(q) for u in s.players[q].seat
                if ctx.card_of(u).kind in kinds]
    if kind == "stack_effect":
        out = []
        for i, item in enumerate(s.stack):
            if item.negated or item.card < 0:
                continue
            if t.card_kinds and ctx.card_of(item.card).kind not in t.card_kinds:
                continue
            if not side_ok(item.player):  # whose effect it is
                continue
            out.append((i,))
        return out
    return []


# --- priority


def spell_options(ctx: Ctx, p: int) -> list[Action]:
    """Command spells p may spend now (D13, E4.2)."""
    s = ctx.s
    if s.players[p].command_spells <= 0:
        return []
    acts: list[Action] = []
    coins_rule = ctx.on("E4.2")
    if ctx.profile.command_spell_negate:
        for i, item in enumerate(s.stack):
            if item.negated or (coins_rule and item.places_coins):
                continue
            acts.append(CommandSpell(p, "negate", i))
    if coins_rule and ctx.profile.command_spell_remove_coin:
        for q, other in enumerate(s.players):
            for coin, n in sorted(other.coins.items()):
                if n > 0:
                    acts.append(CommandSpell(p, "remove_coin", q, coin))
    return acts


def main_options(ctx: Ctx, p: int) -> list[Action]:
    """The turn player's own moves in the step window with an empty stack: putting cards on the
    seat in the ritual step (D5, D7, E1.8) and declaring the raid in the combat step."""
    s = ctx.s
    w = s.window
    if p != s.turn_player or s.stack or w is None or w.kind != "step" or s.combat is not None:
        return []
    pl = s.players[p]
    out: list[Action] = []
    if s.step == "ritual":
        free = zones.seat_capacity(ctx, p) - zones.seat_codes(ctx, p)
        for uid in pl.hand:
            kind = ctx.card_of(uid).kind
            if kind == "mystic_code" and free > 0:
                out.append(PlayCard(p, uid))
            elif kind == "scene" and ctx.on("E1.8"):
                out.append(PlayCard(p, uid))
    elif s.step == "combat" and not s.encountered and not s.raided:
        if may_declare_raid(ctx, p) is None:
            out.extend(DeclareRaid(p, q) for q in s.alive() if q != p)
    return out


def effect_sources(ctx: Ctx, p: int) -> list[int]:
    """Cards p might use an effect of: the servant's, the seat's, and scene cards in hand."""
    pl = ctx.s.players[p]
    return zones.sources(ctx, p) + [u for u in pl.hand if ctx.card_of(u).kind == "scene"]


def effect_options(ctx: Ctx, p: int, first_only: bool = False) -> list[Action]:
    out: list[Action] = []
    for uid in effect_sources(ctx, p):
        for i, e in enumerate(ctx.card_of(uid).effects, 1):
            if e.is_constant or effect_block(ctx, p, uid, i) is not None:
                continue
            for tg in effect_targets(ctx, p, uid, i):
                out.append(UseEffect(p, uid, i, tg))
                if first_only:
                    return out
    return out


def priority_options(ctx: Ctx, p: int) -> list[Action]:
    """Everything but passing that p may do with priority now."""
    return main_options(ctx, p) + effect_options(ctx, p) + spell_options(ctx, p)


def has_spell_option(ctx: Ctx, p: int) -> bool:
    """``bool(spell_options(ctx, p))`` without building the actions."""
    s = ctx.s
    if s.players[p].command_spells <= 0:
        return False
    coins_rule = ctx.on("E4.2")
    if ctx.profile.command_spell_negate and any(
            not item.negated and not (coins_rule and item.places_coins) for item in s.stack):
        return True
    return coins_rule and ctx.profile.command_spell_remove_coin and any(
        n > 0 for pl in s.players for n in pl.coins.values())


def has_priority_option(ctx: Ctx, p: int) -> bool:
    """Whether p may do anything but pass (the cheap kinds checked first) — P6 auto-passing."""
    return has_spell_option(ctx, p) or bool(main_options(ctx, p) or effect_options(ctx, p, True))


def may_declare_raid(ctx: Ctx, p: int) -> tuple[str, str] | None:
    s = ctx.s
    st = zones.servant_state(ctx, p)
    if st is None:
        return ("no_servant", "D14")
    if st == "down":
        return ("servant_down", ctx.cite("E1.4", "B3"))
    if st == "danger":
        return ("servant_danger", ctx.cite("E1.5", "B3"))
    if st == "reverse" and not ctx.profile.reverse_may_raid:
        return ("servant_reverse", "D2")
    if s.encountered:
        return ("encounter_this_turn", "D5")
    if s.raided:
        return ("one_raid", "D5")
    return None


# --- the legal list and the refusal


def legal_actions(ctx: Ctx) -> list[Action]:
    s = ctx.s
    if s.over:
        return []
    d = s.decision
    if d is not None:
        p = d.player
        if d.kind == "attack":
            return [ChooseAttack(p, t) for t in d.options]
        if d.kind == "encounter_target":
            return [ChooseEncounterTarget(p, q) for q in d.options]
        if d.kind == "discard":
            return [Discard(p, u) for u in d.options]
        return [Choose(p, o) for o in d.options]
    if s.window is not None:
        p = s.window.order[s.window.index]
        return [Pass(p)] + priority_options(ctx, p)
    return []


def pending_player(ctx: Ctx) -> int | None:
    s = ctx.s
    if s.over:
        return None
    if s.decision is not None:
        return s.decision.player
    if s.window is not None:
        return s.window.order[s.window.index]
    return None


def refusal(ctx: Ctx, action: object) -> Refusal:
    """Why ``action`` is not legal now (call only for an action not in ``legal_actions``)."""
    s = ctx.s
    if not isinstance(action, Action):
        return Refusal("not_an_action", "", f"not an action: {action!r}")
    who = pending_player(ctx)
    if who is None:
        return Refusal("no_decision", "", "no decision is pending")
    if action.player != who:
        return Refusal("not_your_turn", "D6",
                       f"it is seat {who}'s decision, not seat {action.player}'s")
    if isinstance(action, DeclareRaid):
        if s.step != "combat":
            return Refusal("raid_combat_step", "D5", "a raid is declared in the combat step")
        block = may_declare_raid(ctx, action.player)
        if block:
            return Refusal(*block, f"cannot declare a raid ({block[0]})")
        if action.target == action.player or not 0 <= action.target < len(s.players) \
                or s.players[action.target].out:
            return Refusal("bad_target", "B6", "raid another player who is still in the game")
    if isinstance(action, UseEffect):
        if action.card not in s.cards:
            return Refusal("no_such_card", "", "no such card")
        block = effect_block(ctx, action.player, action.card, action.effect)
        if block:
            return Refusal(*block, f"{s.cards[action.card]} cannot be used now ({block[0]})")
        return Refusal("bad_target", "", "that target is not allowed")
    if isinstance(action, PlayCard):
        if s.step != "ritual":
            return Refusal("play_ritual_step", "D5",
                           "mystic codes are put on the seat in the ritual step")
        in_hand = action.card in s.players[action.player].hand
        if in_hand and action.player != s.turn_player:
            return Refusal("play_own_turn", "D5",
                           "only the turn player puts cards on the seat, in the ritual step")
        if in_hand and s.stack:
            return Refusal("play_stack_waiting", "D6",
                           "cards are put on the seat only while no effect waits on the stack")
        if in_hand and ctx.card_of(action.card).kind == "mystic_code" and \
                zones.seat_codes(ctx, action.player) >= zones.seat_capacity(ctx, action.player):
            return Refusal("seat_full", "D7", "the servant seat is full")
        if in_hand and ctx.card_of(action.card).kind == "scene" and not ctx.on("E1.8"):
            return Refusal("scene_on_field", "E1.8",
                           "scenes are placed on the field only under E1.8")
    if isinstance(action, CommandSpell):
        pl = s.players[action.player]
        if pl.command_spells <= 0:
            return Refusal("no_command_spells", "D13", "no command spells left")
        if action.spell == "negate" and 0 <= action.target < len(s.stack) and \
                s.stack[action.target].places_coins and ctx.on("E4.2"):
            return Refusal("spell_vs_coins", "E4.2",
                           "a command spell cannot negate an effect that places special coins")
        if action.spell == "remove_coin" and not ctx.on("E4.2"):
            return Refusal("remove_coin_errata", "E4.2",
                           "removing a special coin is the errata rule E4.2")
    return Refusal("not_allowed_now", "", "that action is not allowed now")
