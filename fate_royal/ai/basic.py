"""The ``basic`` computer player: a readable heuristic, one rule per kind of decision.

It decides on a position it may look at in full — a determinized fork (``determinize``) at the
table, or the world of a rollout inside the ``strong`` search — so it never needs to know which
cards are real. Rules, in the order a player thinks of them:

- **Raids and encounter targets:** imagine the fight (both attack types, first strike, who strikes
  back) and raid only a target it beats: destroying it, or dealing more damage than it takes.
- **Attack type:** the type that deals the most damage (defence subtracted); magic on a tie when the
  servant has first strike only with magic.
- **Mystic codes:** always put on the seat in the ritual step while there is room.
- **Effects:** stat boosts only while its own servant fights (in the raid or damage process);
  proxies whenever it fights (damage to a proxy costs no mana); Gand on the turn player of another
  seat before the combat step (a Down or Danger servant cannot raid); draws when the hand is small;
  mana recovery when short of mana; assassination coins on the strongest opponent; negation of an
  opponent's effect that helps a fighter against it.
- **Command spells:** never the last one (E4.1 drops a player who spends it); the second-last only
  to stay alive: to negate an opponent's effect without which the fight being fought would not
  destroy its servant (the stack played out both ways), or to remove the assassination coin that
  would destroy it at its next rise step; with three, for those, to negate an opponent's proxy
  (代理戦闘) when the fight against the servant itself comes out ahead, or to remove assassination
  coins.
- **Long games:** from turn ``LONG_GAME_TURNS`` on it raids any target it does not die against,
  raids with its servant itself (no proxy of its own: against a defender's proxy, proxy would meet
  proxy for ever) and spends command spells down to the last one on negating proxies, so that two
  servants that cannot hurt each other under the rules above (a free proxy in every fight) do not
  pass for ever; from twice that turn it uses no proxy at all (two servants that each answer every
  raid with a free proxy, one command spell left each, could not hurt each other otherwise).
- **Discards:** the card worth least (scenes of revival first, then spent ones, mystic codes last).
"""

from __future__ import annotations

import random
from typing import Any

from fate_royal.rules import stats, zones
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)

#: How much a card in hand is worth to keep (higher is kept longer), by card kind and first op.
CARD_WORTH = {"mystic_code": 3.0, "scene": 1.5}
OP_WORTH = {"revive": -1.0, "draw": 0.5, "roll_die": 1.0}
#: A raid is declared when the imagined fight scores above this; damage taken counts this much.
RAID_THRESHOLD = 0.5
TAKEN_WEIGHT = 1.2
#: From this turn on the game is long: raids need only not to be deadly, and command spells may be
#: spent down to the last one on negating proxies (games between computers must end).
LONG_GAME_TURNS = 60
#: How much a raid that is not deadly is worth once the game is long.
LONG_GAME_RAID_BONUS = 2.0


def long_game(game: Any) -> bool:
    return game.ctx.s.turn >= LONG_GAME_TURNS


def spells_kept(game: Any) -> int:
    """Command spells the computer keeps (E4.1: spending the last one drops the player)."""
    return 1 if long_game(game) else 2


def fight(game: Any, a: int, b: int) -> tuple[int, int, bool, bool]:
    """A plain reading of a fight between ``a`` (raiding) and ``b`` as the position stands: (damage
    a deals, damage a takes, whether b is destroyed, whether a is destroyed). Each side uses its
    better attack type; first strike (先制) on one side only strikes first."""
    ctx = game.ctx
    sa, sb = seen_stats(game, a), seen_stats(game, b)
    dealt = max(sa["pa"] - sb["pd"], sa["ma"] - sb["md"], 0)
    taken = max(sb["pa"] - sa["pd"], sb["ma"] - sa["md"], 0)
    ka = "先制" in stats.fighter_keywords(ctx, a)
    kb = "先制" in stats.fighter_keywords(ctx, b)
    ma, mb = ctx.s.players[a].mana, ctx.s.players[b].mana
    if kb and not ka:  # b strikes first
        a_dies = taken > ma
        if a_dies:
            return 0, taken, False, True
        return dealt, taken, dealt > mb, False
    b_dies = dealt > mb
    if b_dies:
        return dealt, 0, True, False
    return dealt, taken, False, taken > ma


def seen_stats(game: Any, p: int) -> dict[str, float]:
    """p's fighter stats as the deciding seat knows them: a servant card it has not seen counts as
    the average of the cards it might be (``determinize`` lists them; full-information worlds of a
    rollout have none)."""
    st = dict(stats.fighter_stats(game.ctx, p))
    for uid, mean in getattr(game, "guessed", {}).get(p, ()):
        if uid is None or game.ctx.s.card_states.get(uid) != "reverse":
            continue
        dealt = game.ctx.card_of(uid).stats
        for k in st:
            st[k] += mean[k] - getattr(dealt, k)
    return st


def fight_score(game: Any, a: int, b: int) -> float:
    """How good a fight of ``a`` against ``b`` is for ``a`` (positive: worth fighting)."""
    dealt, taken, b_dies, a_dies = fight(game, a, b)
    if a_dies:
        return -20.0
    if b_dies:
        return 20.0 + dealt
    score = dealt - TAKEN_WEIGHT * taken
    if dealt > 0 and taken == 0:
        score += 1.5  # B7: the winner of a clean fight takes a card at random
    return score


def _combat_opponent(game: Any, p: int) -> int | None:
    c = game.ctx.s.combat
    if c is None or c.side(p) is None:
        return None
    return c.other(p).player


def _effect(game: Any, a: UseEffect):
    return game.ctx.card_of(a.card).effects[a.effect - 1]


def _ops(e) -> list[str]:
    return [o.op for o in e.ops]


def effect_score(game: Any, p: int, a: UseEffect) -> float:
    """How much ``basic`` wants to use this effect now (≤ 0: not now)."""
    ctx = game.ctx
    s = ctx.s
    e = _effect(game, a)
    ops = _ops(e)
    me = s.players[p]
    opp = _combat_opponent(game, p)
    process = s.combat.process if s.combat else ""
    if "proxy" in ops:
        if opp is None:
            return 0.0
        if long_game(game) and s.combat.raider.player == p:
            return 0.0  # a long game: the raid must reach the servant (a proxy may meet a proxy)
        if s.turn >= 2 * LONG_GAME_TURNS:
            return 0.0  # twice as long: no proxy at all, or two free proxies meet for ever
        return 3.0
    if "modify_stats" in ops or "grant_keyword" in ops:
        if opp is None or process not in ("raid", "interception", "raider_damage",
                                          "interceptor_damage", "engagement"):
            return 0.0
        before = fight_score(game, p, opp)
        return 2.0 if before < 20 else 0.0
    if "set_state" in ops:  # make the opponent's mystic code Reverse (E1.7: its effects stop)
        return 1.0 if opp is not None and a.targets else 0.0
    if "roll_die" in ops:  # Gand: Down or Danger stops a raid
        if not a.targets:
            return 0.0
        q = a.targets[0]
        st = zones.servant_state(ctx, q)
        if q != s.turn_player or q == p or st not in ("rise",) or s.step not in ("draw", "ritual"):
            return 0.0
        return 2.0
    if "draw" in ops:
        if "discard" in ops:  # draw one, discard one: only in the ritual step, when it is free
            return 1.0 if s.step == "ritual" and s.turn_player == p else 0.0
        return 1.5 if len(me.hand) <= 5 and s.turn_player == p and s.step == "ritual" else 0.0
    if "recover" in ops:
        return 2.0 if me.mana <= me.mana_limit - 2 else 0.0
    if "place_coins" in ops:
        if not a.targets:
            return 0.0
        q = a.targets[0]
        return 1.0 + s.players[q].mana / 10.0
    if "negate" in ops:
        if not a.targets:
            return 0.0
        item = s.stack[a.targets[0]]
        if item.player == p:
            return 0.0
        return 2.5 if opp is not None or p in [t for t in item.targets if isinstance(t, int)] \
            else 0.0
    if "rise_cards" in ops:
        st = zones.servant_state(ctx, p)
        return 1.5 if st in ("down", "danger") and s.turn_player == p and s.step == "ritual" \
            else 0.0
    return 0.0  # revive (it brings back an opponent) and anything unknown: not now


def spell_score(game: Any, p: int, a: CommandSpell) -> float:
    """How much ``basic`` wants to spend this command spell now (≤ 0: not now). Above
    ``spells_kept`` only, except that the second-last one may be spent to keep the servant alive
    (negating what would destroy it in this fight, or the assassination coin that would at its next
    rise step): dropping out now is worse than holding one command spell."""
    s = game.ctx.s
    me = s.players[p]
    if me.command_spells <= 1:
        return 0.0  # never the last one (E4.1)
    spare = me.command_spells > spells_kept(game)
    if a.spell == "remove_coin":
        if a.target != p:
            return 0.0
        n = me.coins.get(a.coin, 0)
        if a.coin == "assassination" and coin_removal_saves(game, p):
            return 3.0
        if not spare:
            return 0.0
        return 2.0 if n >= 2 or me.mana <= n + 1 else 0.0
    if a.spell == "negate":
        item = s.stack[a.target]
        if item.player == p or item.card < 0:
            return 0.0
        opp = _combat_opponent(game, p)
        if opp is None or item.player != opp:
            return 0.0
        if negation_saves(game, p, a):
            return 3.0
        if not spare:
            return 0.0
        if _is_proxy(game, item) and (long_game(game) or proxy_negation_pays(game, p, opp)):
            return 2.0
        if me.mana <= 2:
            return 1.0
    return 0.0


def coin_removal_saves(game: Any, p: int) -> bool:
    """Whether ``p``'s assassination coins destroy its servant at its next rise step (D12: each
    takes mana as damage; more damage than mana destroys it) and one coin fewer would not."""
    up = game.ctx.profile.assassination_upkeep
    me = game.ctx.s.players[p]
    n = me.coins.get("assassination", 0)
    return up > 0 and n * up > me.mana >= (n - 1) * up


def deadly_for(game: Any, p: int) -> bool:
    """Whether the combat being fought, read as it stands, destroys ``p``'s servant."""
    c = game.ctx.s.combat
    if c is None or c.side(p) is None or game.ctx.s.players[p].out:
        return game.ctx.s.players[p].out
    opp = c.other(p).player
    if c.raider.player == p:
        return fight(game, p, opp)[3]
    return fight(game, opp, p)[2]


def _resolved(game: Any, first: Action | None = None, limit: int = 40) -> Any:
    """A fork of ``game`` after ``first`` (if given) and then passes until the stack is empty."""
    g = game.fork()
    if first is not None:
        g.play(first)
    for _ in range(limit):
        if not g.ctx.s.stack or g.ctx.s.over:
            break
        acts = g.legal_actions()
        a = next((x for x in acts if isinstance(x, Pass)), None)
        if a is None:
            break
        g.play(a)
    return g


def negation_saves(game: Any, p: int, negation: Action) -> bool:
    """Whether ``negation`` (a command spell or effect negating an opponent's effect) is what keeps
    ``p``'s servant alive in the combat being fought: deadly if everyone passes, not after it."""
    if game.ctx.s.combat is None:
        return False
    return deadly_for(_resolved(game), p) and not deadly_for(_resolved(game, negation), p)


def _is_proxy(game: Any, item: Any) -> bool:
    card = game.ctx.card_of(item.card)
    return 0 < item.effect <= len(card.effects) and "proxy" in _ops(card.effects[item.effect - 1])


def proxy_negation_pays(game: Any, p: int, opp: int) -> bool:
    """Whether ``p`` comes out ahead of ``opp``'s servant itself in the combat now being fought
    (worth a command spell on negating the proxy that would fight instead)."""
    c = game.ctx.s.combat
    if c.raider.player == p:
        return fight_score(game, p, opp) > RAID_THRESHOLD
    return -fight_score(game, opp, p) > RAID_THRESHOLD


def card_worth(game: Any, uid: int) -> float:
    card = game.ctx.card_of(uid)
    w = CARD_WORTH.get(card.kind, 1.0)
    for e in card.effects:
        for o in e.ops:
            w += OP_WORTH.get(o.op, 0.2)
    st = card.stats
    return w + (st.pa + st.pd + st.ma + st.md) * 0.2


def choose_servant_score(game: Any, uid: int) -> float:
    card = game.ctx.card_of(uid)
    st = card.stats
    return max(st.pa, st.ma) + (st.pd + st.md) / 2


def basic_action(game: Any, p: int, rng: random.Random) -> Action:
    """The basic player's move for seat ``p`` in ``game`` (a position it may read in full)."""
    acts = game.legal_actions()
    if len(acts) == 1:
        return acts[0]
    s = game.ctx.s
    d = s.decision
    if d is not None:
        if d.kind == "attack":
            opp = _combat_opponent(game, p)
            if opp is None:
                return acts[0]
            best, best_v = acts[0], None
            for a in acts:
                mine = stats.fighter_stats(game.ctx, p, a.type)
                theirs = stats.fighter_stats(game.ctx, opp)
                v = (mine["pa"] - theirs["pd"]) if a.type == "physical" else \
                    (mine["ma"] - theirs["md"])
                if "先制" in stats.fighter_keywords(game.ctx, p, a.type):
                    v += 0.5
                if best_v is None or v > best_v:
                    best, best_v = a, v
            return best
        if d.kind == "encounter_target":
            return max(acts, key=lambda a: (fight_score(game, p, a.target), -a.target))
        if d.kind == "discard":
            return min(acts, key=lambda a: (card_worth(game, a.card), a.card))
        if d.kind in ("choose_hero", "choose_class"):
            return max(acts, key=lambda a: (choose_servant_score(game, a.option)
                                            if isinstance(a.option, int) else 0))
        return acts[rng.randrange(len(acts))]
    best: Action = acts[0]
    best_v = 0.0
    for a in acts:
        v = 0.0
        if isinstance(a, Pass):
            continue
        if isinstance(a, PlayCard):
            v = 4.0 if game.ctx.card_of(a.card).kind == "mystic_code" else 0.0
        elif isinstance(a, DeclareRaid):
            v = fight_score(game, p, a.target)
            if long_game(game) and v > -20.0:
                v += LONG_GAME_RAID_BONUS
            v = v if v > RAID_THRESHOLD else 0.0
        elif isinstance(a, UseEffect):
            v = effect_score(game, p, a)
        elif isinstance(a, CommandSpell):
            v = spell_score(game, p, a)
        if v > best_v:
            best, best_v = a, v
    if best_v <= 0.0:
        return next((a for a in acts if isinstance(a, Pass)), acts[0])
    return best


__all__ = ["basic_action", "coin_removal_saves", "deadly_for", "effect_score", "fight",
           "fight_score", "long_game", "negation_saves", "spell_score", "spells_kept"]
