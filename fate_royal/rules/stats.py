"""Effective stats and keywords of a fighter, and the conditions effects test.

A fighter's stats are the hero's plus the class's (B2; D8 for an unqualified class), or the chip
sheet's when a proxy fights (E6.5 / P2), plus 常時 effects that are on and lasting modifiers of
起動 effects (B11), same-name effects not stacking (E2.3, D16). ``stat_breakdown`` lists every
contribution with its source and rule, for the log and the card inspector.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fate_royal.cards.vocabulary import STAT_KEYS
from fate_royal.rules import proxy
from fate_royal.rules.context import Ctx
from fate_royal.rules.zones import servant_state, sources

#: Subjects of a stat/keyword operation that mean "whoever fights for the effect's owner".
SELF_SUBJECTS = ("self", "combatant")


@dataclass(frozen=True)
class StatLine:
    """One contribution to a fighter's effective stats, for the card inspector."""

    source: str  # card id or chip id
    label: str  # card / effect name (the printed names)
    stats: dict
    rule: str = ""
    effect: str = ""  # the effect's name, when the line comes from an effect


def op_stats(params: Any) -> dict[str, int]:
    return {k: int(params.get(k, 0)) for k in STAT_KEYS if int(params.get(k, 0))}


def unqualified_blocks(ctx: Ctx, p: int) -> bool:
    """D8 (effects_unusable): the class card's effects and skills are unusable when the hero is not
    qualified for its class."""
    pl = ctx.s.players[p]
    if pl.hero is None or pl.klass is None or ctx.profile.unqualified_class != "effects_unusable":
        return False
    return ctx.card_of(pl.klass).class_name not in ctx.card_of(pl.hero).classes


def constant_active(ctx: Ctx, p: int, uid: int, e: Any) -> bool:
    """Whether a 常時 effect of card ``uid`` on p's seat is on now (B3 states, E9.4 lost, D8)."""
    s = ctx.s
    card = ctx.card_of(uid)
    st = s.card_states.get(uid)
    if e.lost_when and effect_lost(ctx, p, uid, e):
        return False
    kind = card.kind
    if kind == "hero":
        return st != "reverse"
    if kind == "class":
        if st == "reverse" or s.card_states.get(s.players[p].hero) == "reverse":
            return False
        return not unqualified_blocks(ctx, p)
    if kind == "mystic_code":
        return st != "reverse"
    return False


def effect_lost(ctx: Ctx, p: int, uid: int, e: Any) -> bool:
    """An effect with ``lost_when`` (E9.4) that is lost: its condition holds now, or (reading R2,
    「この効果は失われる」 read as for good) it held once this game."""
    if not e.lost_when:
        return False
    if cond(ctx, e.lost_when, p):
        return True
    return ctx.reading("R2") == "stays_lost" and [uid, e.index] in ctx.s.lost


def stat_breakdown(ctx: Ctx, p: int, attack_type: str | None = None) -> list[StatLine]:
    """Every contribution to p's fighter's stats: base, constants, lasting effects."""
    s = ctx.s
    pl = s.players[p]
    lines: list[StatLine] = []
    if pl.out or pl.hero is None:
        return lines
    chip_id = proxy.proxy_of(ctx, p)
    if chip_id:
        chip = ctx.db.chips.get(chip_id)
        if chip:
            lines.append(StatLine(chip.id, chip.name, chip.stats.as_dict(), ctx.cite("E6.5", "P2")))
    else:
        hero = ctx.card_of(pl.hero)
        lines.append(StatLine(hero.id, hero.name, hero.stats.as_dict(), "B2"))
        if pl.klass is not None:
            klass = ctx.card_of(pl.klass)
            kst = klass.stats.as_dict()
            rule = "B2"
            if ctx.profile.unqualified_class == "stat_penalty" and klass.class_name not in hero.classes:
                pen = ctx.profile.unqualified_stat_penalty
                kst = {k: v - pen for k, v in kst.items()}
                rule = "D8"
            lines.append(StatLine(klass.id, klass.name, kst, rule))
    seen: set[tuple[str, int]] = set()
    for uid in sources(ctx, p):
        card = ctx.card_of(uid)
        for e in card.effects:
            if not e.is_constant or not constant_active(ctx, p, uid, e):
                continue
            if not proxy.applies_to_fighter(ctx, p, uid, e):
                continue
            for k, o in enumerate(e.ops):
                if o.op != "modify_stats" or o.params.get("subject", "combatant") not in SELF_SUBJECTS:
                    continue
                if o.condition and not cond(ctx, o.condition, p, attack_type):
                    continue
                if (e.name, k) in seen:
                    continue
                seen.add((e.name, k))
                lines.append(StatLine(card.id, f"{card.name}: {e.name}", op_stats(o.params),
                                      ctx.cite("E2.3", "B11"), e.name))
    for m in s.modifiers:
        if m.player != p or not m.stats:
            continue
        if chip_id and m.source_kind in ("hero", "class") and m.source in s.cards:
            src = ctx.card_of(m.source)
            if not proxy.applies_to_fighter(ctx, p, m.source, src.effects[m.effect - 1]):
                continue
        if m.condition and not cond(ctx, m.condition, p, attack_type):
            continue
        lines.append(StatLine(s.cards.get(m.source, ""), m.name, dict(m.stats), "B11", m.name))
    return lines


def fighter_stats(ctx: Ctx, p: int, attack_type: str | None = None) -> dict[str, int]:
    total = dict.fromkeys(STAT_KEYS, 0)
    for line in stat_breakdown(ctx, p, attack_type):
        for k, v in line.stats.items():
            total[k] += v
    return total


def fighter_keywords(ctx: Ctx, p: int, attack_type: str | None = None,
                     base_only: bool = False) -> set[str]:
    """Keywords (skills) p's fighter has now: the chip's when a proxy fights; hero and class skills
    unless suppressed (E6.3, D8, Reverse); mystic codes' skills (B12); granted keywords."""
    s = ctx.s
    pl = s.players[p]
    if pl.out or pl.hero is None:
        return set()
    kws: set[str] = set()
    chip_id = proxy.proxy_of(ctx, p)
    suppress = bool(chip_id) and ctx.on("E6.3")
    if chip_id:
        chip = ctx.db.chips.get(chip_id)
        if chip:
            kws.update(chip.skills)
    hero_uid, klass_uid = pl.hero, pl.klass
    if not suppress and s.card_states.get(hero_uid) != "reverse":
        kws.update(ctx.card_of(hero_uid).skills)
        if klass_uid is not None and s.card_states.get(klass_uid) != "reverse" \
                and not unqualified_blocks(ctx, p):
            kws.update(ctx.card_of(klass_uid).skills)
    for uid in pl.seat:
        card = ctx.card_of(uid)
        if card.kind == "mystic_code" and s.card_states.get(uid) != "reverse":
            kws.update(card.skills)  # B12
    if base_only:
        return kws
    for uid in sources(ctx, p):
        card = ctx.card_of(uid)
        for e in card.effects:
            if not e.is_constant or not constant_active(ctx, p, uid, e):
                continue
            if not proxy.applies_to_fighter(ctx, p, uid, e):
                continue
            for o in e.ops:
                if o.op == "grant_keyword" and o.params.get("subject", "combatant") in SELF_SUBJECTS:
                    if o.condition and not cond(ctx, o.condition, p, attack_type):
                        continue
                    kws.add(str(o.params.get("keyword")))
    for m in s.modifiers:
        if m.player == p and m.keyword:
            if suppress and m.source_kind in ("hero", "class") and not (
                    m.support and proxy.applies_to_fighter(
                        ctx, p, m.source, ctx.card_of(m.source).effects[m.effect - 1])):
                continue
            if m.condition and not cond(ctx, m.condition, p, attack_type):
                continue
            kws.add(m.keyword)
    return kws


def first_strike_types(ctx: Ctx, p: int) -> set[str]:
    """Attack types with which fighter ``p`` would have 先制."""
    return {t for t in ("physical", "magic") if "先制" in fighter_keywords(ctx, p, t)}


def has_keyword(ctx: Ctx, p: int, keyword: str) -> bool:
    """p's fighter has ``keyword`` or a ranked form of it (竜 matches 竜5), base skills only."""
    return any(k.startswith(keyword) for k in fighter_keywords(ctx, p, base_only=True))


def cond(ctx: Ctx, condition: dict, p: int, attack_type: str | None = None,
         target: Any = None) -> bool:
    """Whether every test of a condition holds for p (vocabulary.CONDITIONS)."""
    s = ctx.s
    c = s.combat
    for key, value in condition.items():
        if key == "opponent_has_keyword":
            if c is None or c.side(p) is None:
                return False
            other = c.other(p).player
            if not any(k == value or k.startswith(str(value))
                       for k in fighter_keywords(ctx, other, base_only=True)):
                return False
        elif key == "target_has_keyword":
            if target is None or not has_keyword(ctx, target, str(value)):
                return False
        elif key == "attack_type":
            f = c.side(p) if c else None
            t = attack_type or (f.attack if f else "")
            if t != value:
                return False
        elif key == "role":
            if c is None:
                return False
            if (value == "raider") != (c.raider.player == p) or c.side(p) is None:
                return False
        elif key == "in_combat":
            if (c is not None and c.side(p) is not None) != bool(value):
                return False
        elif key == "players_at_most":
            if len(s.alive()) > int(value):
                return False
        elif key == "servant_state":
            if servant_state(ctx, p) != value:
                return False
        elif key == "not":
            if cond(ctx, value, p, attack_type, target):
                return False
        else:  # the loader accepts only the vocabulary's conditions; never skip one silently
            raise ValueError(f"unknown condition {key!r}")
    return True


def encounter_faces(ctx: Ctx, p: int) -> set[int]:
    """Extra die faces that cause an encounter in p's encounter step (E9.5: a 常時 effect). Reading
    R3: the effect counts in every player's encounter step while it is on (``any_encounter_step``,
    the text), or only in its owner's (``own_encounter_step``)."""
    owners = [p] if ctx.reading("R3") == "own_encounter_step" else ctx.s.alive()
    faces: set[int] = set()
    for q in owners:
        for uid in sources(ctx, q):
            for e in ctx.card_of(uid).effects:
                if e.is_constant and any(o.op == "encounter_faces" for o in e.ops) \
                        and constant_active(ctx, q, uid, e):
                    for o in e.ops:
                        if o.op == "encounter_faces":
                            faces.update(int(x) for x in o.params.get("faces", []))
    return faces
