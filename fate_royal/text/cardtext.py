"""Rules text for card effects, generated from their operations, in Japanese or English.

``effect_text(effect, lang, db)`` reads an effect's data — timing, window, keywords, cost, target,
each operation with its parameters, conditions — and writes it as card text. ``card_text(card,
lang, db)`` gives one ``(text, generated)`` pair per effect: the text the card data carries for
that language (``text`` in Japanese, ``text_en`` in English) where it has one and it still
describes the effect, otherwise the generated text. Every word comes from the catalogs
(``cardtext.*`` keys in ``assets/i18n/<lang>.yaml``); card, effect and chip names are the only
words taken from the card data. The effect's name is not part of the text (faces print it apart).
No Qt here.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping

from fate_royal.cards.model import CardDB, CardDef, Cost, Effect, Op, Target
from fate_royal.cards.vocabulary import STAT_KEYS
from fate_royal.text.catalog import lookup, tr_in

#: A printed cost notation ("R4", "D1・2+R4", "T") — shown beside the reading; a raw cost written
#: out in words (an errata sentence) is not repeated.
_NOTATION = re.compile(r"^[A-Za-z0-9・+＋\-/.,、 ]+$")


class _Writer:
    """Writes one effect in one language."""

    def __init__(self, lang: str, db: CardDB | None) -> None:
        self.lang = lang
        self.db = db
        self.ja = lang == "ja"

    # --- words

    def tr(self, key: str, **values: Any) -> str:
        return tr_in(self.lang, f"cardtext.{key}", **values)

    def term(self, key: str, fallback: str) -> str:
        text = lookup(self.lang, key)
        return fallback if text is None else text

    def join(self, items: Iterable[str], last: bool = False) -> str:
        """A list: 「A、B」 / "A, B"; ``last``: with "and" before the last item in English."""
        items = [i for i in items if i]
        if not items:
            return ""
        if len(items) == 1:
            return items[0]
        if last:
            return self.tr("list.last", items=self.tr("list.sep").join(items[:-1]), last=items[-1])
        return self.tr("list.sep").join(items)

    def sentence(self, text: str) -> str:
        """One sentence: capitalised (English) and ended with its full stop."""
        text = text.strip()
        if not text:
            return ""
        if not self.ja:
            text = text[0].upper() + text[1:]
        stop = self.tr("stop")
        if not text.endswith((stop.strip(), "。", ".", "!", "?")):
            text += stop.strip()
        return text

    def keyword(self, word: str) -> str:
        """A keyword as the card shows it: 【先制】, or its English name; 竜5 keeps its rank."""
        m = re.fullmatch(r"(\D+?)(\d+)", word)
        base, rank = (m.group(1), m.group(2)) if m else (word, "")
        text = lookup(self.lang, f"cardtext.keyword.{base}")
        if text is None:  # a keyword the catalogs do not know is shown as written
            text = base
        return self.tr("keyword_rank", keyword=text, rank=rank) if rank else \
            self.tr("keyword_form", keyword=text)

    def faces(self, faces: Iterable[int]) -> str:
        """Die faces: 1～2 / 1–2 for a run, else a list."""
        fs = sorted(set(int(f) for f in faces))
        if not fs:
            return ""
        if len(fs) > 1 and fs == list(range(fs[0], fs[-1] + 1)):
            return self.tr("faces.range", low=fs[0], high=fs[-1])
        return self.join((str(f) for f in fs), last=True) if not self.ja else \
            self.tr("faces.sep").join(str(f) for f in fs)

    def chip(self, chip_id: str) -> str:
        chip = self.db.chips.get(chip_id) if self.db is not None else None
        if chip is None:
            return chip_id
        return chip.name if self.ja else (chip.name_en or chip.name)

    def state(self, state: str) -> str:
        return self.term(f"state.{state}", state)

    def card_kinds(self, kinds: Iterable[str]) -> str:
        return self.tr("or").join(self.tr(f"cardkind.{k}") for k in kinds)

    # --- parts of an effect

    def header(self, e: Effect) -> str:
        if e.is_constant:
            head = self.tr("timing.constant")
        else:
            head = self.tr("timing.activated", window=self.term(f"window.{e.window}", e.window))
        if e.keywords:
            head += self.tr("keywords", keywords="".join(self.keyword(k) for k in e.keywords))
        return head

    def cost(self, c: Cost) -> str:
        parts = []
        if c.tap:
            parts.append(self.tr("cost.tap"))
        if c.discard:
            parts.append(self.tr("cost.discard", count=c.discard))
        if c.mana:
            parts.append(self.tr("cost.mana", count=c.mana))
        if c.die:
            parts.append(self.tr("cost.die", faces=self.faces(c.die)))
        text = self.join(parts, last=True) if parts else self.tr("cost.none")
        if c.raw and _NOTATION.match(c.raw):
            text += self.tr("cost.printed", raw=c.raw)
        return self.tr("cost", cost=text)

    def target(self, t: Target) -> str:
        if t.kind == "none":
            return ""
        side = self.tr(f"side.{t.side}")
        kinds = self.card_kinds(t.card_kinds)
        if t.kind == "card":
            what = self.tr("target.card", side=side, kinds=kinds or self.tr("cardkind.any"))
        elif t.kind == "player":
            what = self.tr(f"target.player.{t.side}")
        elif t.kind == "stack_effect":
            what = self.tr("target.stack_effect_of", kinds=kinds) if kinds \
                else self.tr("target.stack_effect")
        else:
            what = self.tr(f"target.{t.kind}", side=side)
        return self.tr("target", target=what)

    def subject(self, subject: str, target: Target, player: bool = False) -> str:
        """Who an operation acts on: a servant (or fighter), or for ``player`` operations a player."""
        if subject == "target":
            kind = target.kind if target.kind != "none" else "servant"
            if player and kind == "servant":
                kind = "player"
            return self.tr(f"the_target.{kind}")
        return self.tr(f"{'player' if player else 'subject'}.{subject}")

    def clause(self, condition: Mapping[str, Any], target: Target) -> str:
        """A condition as a clause (every test must hold)."""
        parts = []
        for key, value in condition.items():
            if key in ("opponent_has_keyword", "target_has_keyword"):
                parts.append(self.tr(f"cond.{key}", keyword=self.keyword(str(value))))
            elif key == "attack_type":
                parts.append(self.tr("cond.attack_type", type=self.tr(f"attack.{value}")))
            elif key == "role":
                parts.append(self.tr(f"cond.role.{value}"))
            elif key == "in_combat":
                parts.append(self.tr("cond.in_combat" if value else "cond.not_in_combat"))
            elif key == "players_at_most":
                parts.append(self.tr("cond.players_at_most", count=value))
            elif key == "servant_state":
                parts.append(self.tr("cond.servant_state", state=self.state(str(value))))
            elif key == "not" and isinstance(value, Mapping):
                parts.append(self.tr("cond.not", clause=self.clause(value, target)))
            else:
                parts.append(f"{key}: {value}")
        return self.tr("and").join(parts)

    def ops(self, ops: Iterable[Op], e: Effect, nested: bool = False) -> list[str]:
        out = []
        for o in ops:
            text = self.op(o, e)
            if o.condition:
                text = self.tr("if", clause=self.clause(o.condition, e.target), then=text)
            out.append(text)
        return out

    def duration(self, e: Effect, params: Mapping[str, Any]) -> str:
        if e.is_constant:
            return ""
        return self.tr(f"duration.{params.get('duration', 'turn')}")

    def op(self, o: Op, e: Effect) -> str:
        p = o.params
        name = o.op
        t = e.target
        if name == "modify_stats":
            changes = [self.tr("stat_change", stat=self.tr(f"stat.{k}"), value=f"{int(p[k]):+d}")
                       for k in STAT_KEYS if p.get(k)]
            subject = self.subject(p.get("subject", "combatant"), t)
            if not changes:
                return self.tr("op.modify_stats.none", subject=subject)
            return self.tr("op.modify_stats", subject=subject, changes=self.join(changes, last=True),
                           duration=self.duration(e, p))
        if name == "set_state":
            return self.tr("op.set_state", subject=self.subject(p.get("subject", "target"), t),
                           state=self.state(p["state"]))
        if name in ("rise_cards", "draw", "steal_random"):
            return self.tr(f"op.{name}", count=p.get("count", 1))
        if name == "discard":
            subject = p.get("subject", "self")
            if subject == "self":
                return self.tr("op.discard.self", count=p["count"])
            return self.tr("op.discard", player=self.subject(subject, t, player=True),
                           count=p["count"])
        if name == "recover":
            return self.tr("op.recover", amount=p["amount"])
        if name == "damage":
            return self.tr("op.damage", subject=self.subject(p.get("subject", "target"), t),
                           amount=p["amount"])
        if name == "place_coins":
            coin = self.tr(f"coin.{p.get('coin', 'assassination')}")
            key = "op.place_coins.halve" if p.get("halve") else "op.place_coins"
            return self.tr(key, subject=self.subject(p.get("subject", "target"), t), coin=coin,
                           amount=p["amount"], half=int(p["amount"]) // 2)
        if name == "roll_die":
            outcomes = []
            for oc in p.get("outcomes", ()):
                inner = self.tr("then").join(self.ops(oc.get("ops", ()), e, nested=True))
                outcomes.append(self.tr("outcome", faces=self.faces(oc.get("faces", ())),
                                        ops=inner or self.tr("nothing")))
            return self.tr("op.roll_die", outcomes=self.tr("outcome.sep").join(outcomes))
        if name == "negate":
            what = p.get("what", "any")
            if what == "any":
                return self.tr("op.negate.any")
            return self.tr("op.negate", kind=self.tr(f"cardkind.{what}"))
        if name == "proxy":
            return self.tr("op.proxy", chip=self.chip(str(p["chip"])))
        if name == "grant_keyword":
            return self.tr("op.grant_keyword",
                           subject=self.subject(p.get("subject", "combatant"), t),
                           keyword=self.keyword(str(p["keyword"])), duration=self.duration(e, p))
        if name == "encounter_faces":
            return self.tr("op.encounter_faces", faces=self.faces(p.get("faces", ())))
        if name == "revive":
            return self.tr("op.revive", mana=p.get("mana", 1),
                           command_spells=p.get("command_spells", 1), hand=p.get("hand", 2))
        return self.tr("op.unknown", op=name)

    # --- the whole effect

    def effect(self, e: Effect) -> str:
        return self.tr("effect", header=self.header(e), body=self.body(e))

    def body(self, e: Effect) -> str:
        sentences: list[str] = []
        if not e.is_constant:
            sentences.append(self.cost(e.cost))
        target = self.target(e.target)
        if target:
            sentences.append(target)
        if e.condition:
            sentences.append(self.tr("condition", clause=self.clause(e.condition, e.target)))
        if e.script:
            sentences.append(self.tr("script", script=e.script))
        sentences.extend(self.ops(e.ops, e))
        if not e.ops and not e.script:
            sentences.append(self.tr("not_playable"))
        if e.unless_target_has:
            sentences.append(self.tr("unless_target_has",
                                     keyword=self.keyword(e.unless_target_has)))
        if e.usable_while_down:
            sentences.append(self.tr("usable_while_down"))
        if e.lost_when:
            sentences.append(self.tr("lost_when", clause=self.clause(e.lost_when, e.target)))
        return self.sentences(sentences)

    def sentences(self, items: Iterable[str]) -> str:
        """Sentences one after the other (empty ones left out), each capitalised and stopped."""
        body = ""
        for s in items:
            if s:
                s = self.sentence(s)
                body = self.tr("sentences", before=body, after=s) if body else s
        return body


def effect_text(effect: Effect, lang: str, db: CardDB | None = None) -> str:
    """The rules text of ``effect`` generated from its data, in ``lang`` ("ja" or "en").

    ``db`` supplies chip names for 代理戦闘 (without it the chip's id is shown)."""
    return _Writer(lang, db).effect(effect)


def effect_body(effect: Effect, lang: str, db: CardDB | None = None) -> str:
    """``effect_text`` without its timing/window/keyword header (for a face that prints the header
    on its own line)."""
    return _Writer(lang, db).body(effect)


def part_text(effect: Effect, part: str, lang: str, db: CardDB | None = None) -> str:
    """One part of ``effect`` in words: ``ops`` (what it does), ``cost``, ``target``,
    ``condition`` or ``lost_when`` ("" when the effect has none)."""
    w = _Writer(lang, db)
    if part == "ops":  # the operations alone (cost, target and the rest have parts of their own)
        return w.sentences(w.ops(effect.ops, effect))
    if part == "cost":
        return w.sentence(w.cost(effect.cost))
    if part == "target":
        return w.sentence(w.target(effect.target)) if effect.target.kind != "none" else ""
    if part == "condition" and effect.condition:
        return w.clause(effect.condition, effect.target)
    if part == "lost_when" and effect.lost_when:
        return w.tr("lost_when", clause=w.clause(effect.lost_when, effect.target))
    return ""


def data_text(effect: Effect, lang: str) -> str:
    """The text the card data carries for ``effect`` in ``lang`` (may be empty)."""
    return (effect.text if lang == "ja" else effect.text_en).strip()


_RULES_FIELDS = ("timing", "window", "cost", "keywords", "target", "condition", "lost_when",
                 "usable_while_down", "unless_target_has", "ops", "script")


def _stale(card: CardDef, effect: Effect, lang: str) -> bool:
    """Errata changed what the effect does but left its text as it was: the text is the printed
    card's, not this effect's."""
    original = card.original
    if original is None:
        return False
    before = next((o for o in original.effects if o.index == effect.index), None)
    if before is None or data_text(before, lang) != data_text(effect, lang):
        return False
    return any(getattr(before, f) != getattr(effect, f) for f in _RULES_FIELDS)


def card_text(card: CardDef, lang: str, db: CardDB | None = None) -> list[tuple[str, bool]]:
    """One ``(text, generated)`` per effect of ``card``, in order: the card data's text for ``lang``
    where it has one (and errata did not change the effect under it), else the generated text. A
    not yet playable effect (``unplayable``) says so after its text."""
    out = []
    for e in card.effects:
        text = data_text(e, lang)
        if text and not _stale(card, e, lang):
            if e.unplayable:
                text += tr_in(lang, "cardtext.not_playable_mark")
            out.append((text, False))
        else:
            out.append((effect_text(e, lang, db), True))
    return out


__all__ = ["card_text", "data_text", "effect_body", "effect_text"]
