"""Engine codes in words: log events, actions, refusal reasons, card and player names.

``Words(lang, db, players)`` renders in one language; names come from the card data (``name`` in
Japanese, ``name_en`` in English where known) and the player names of the game. Everything the
engine reports is a code; this is the one place that turns codes into sentences, for the table, the
command line and the demos.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from fate_royal.cards.model import CardDB, CardDef, Effect
from fate_royal.cards.vocabulary import CLASSES
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass,
    PlayCard, UseEffect,
)
from fate_royal.rules.events import CARD_ARGS, SEAT_ARGS, Event
from fate_royal.text.catalog import fill, lookup, tr_in, tr_or_in

#: Event arguments that hold a code with a catalog entry under the given prefix.
CODE_ARGS = {"step": "step", "process": "process", "type": "attack", "state": "state",
             "before": "state", "after": "state", "why": "why", "then": "then", "coin": "coin"}
STAT_ORDER = ("pa", "pd", "ma", "md")


def one_name(text: str, effect: str, card: str) -> str:
    """``text`` with "V-MAX of V-MAX" / "V-MAXのV-MAX" / "V-MAX (V-MAX)" said once: an effect
    that bears its card's own name (most mystic codes) is named by it alone."""
    if not effect or effect != card:
        return text
    for twice in (f"{effect} of {card}", f"{card}の{effect}", f"{effect} ({card})",
                  f"{card}'s {effect}"):
        text = text.replace(twice, effect)
    return text


class Words:
    """Names and sentences in one language for one game (its card data and player names)."""

    def __init__(self, lang: str, db: CardDB | None = None, players: Sequence[str] = ()) -> None:
        self.lang = lang
        self.db = db
        self.players = list(players)

    @classmethod
    def for_game(cls, game: Any, lang: str) -> "Words":
        return cls(lang, game.db, [p.name for p in game.ctx.s.players])

    # --- plain lookups

    def tr(self, key: str, **values: Any) -> str:
        return tr_in(self.lang, key, **values)

    def term(self, prefix: str, code: Any) -> str:
        """A code in words (``step.rise`` → ライズステップ), or the code itself when unknown."""
        text = lookup(self.lang, f"{prefix}.{code}")
        return str(code) if text is None else text

    def join(self, items: Iterable[str]) -> str:
        return ("、" if self.lang == "ja" else ", ").join(items)

    # --- names

    def player(self, seat: Any) -> str:
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < len(self.players):
            return self.players[seat]
        return "—" if seat is None else str(seat)

    def card_def(self, card_id: str) -> CardDef | None:
        return self.db.cards.get(card_id) if self.db is not None and card_id else None

    def card_name(self, card: CardDef | str) -> str:
        if isinstance(card, str):
            found = self.card_def(card)
            if found is None:
                return card or "—"
            card = found
        if self.lang == "en":
            if card.kind == "class" and card.class_name:
                return card.name_en or CLASSES.get(card.class_name, card.name)
            return card.name_en or card.name
        return card.name

    def effect_name(self, effect: Effect | str, card: CardDef | str | None = None) -> str:
        if isinstance(effect, str):
            cdef = self.card_def(card) if isinstance(card, str) else card
            found = None
            if cdef is not None:
                found = next((e for e in cdef.effects if e.name == effect), None)
            if found is None:
                return effect
            effect = found
        if self.lang == "en" and effect.name_en:
            return effect.name_en
        return effect.name

    def chip_name(self, chip_id: str) -> str:
        chip = self.db.chips.get(chip_id) if self.db is not None else None
        if chip is None:
            return chip_id
        return (chip.name_en or chip.name) if self.lang == "en" else chip.name

    def class_name(self, name: str) -> str:
        return CLASSES.get(name, name) if self.lang == "en" else name

    def keyword(self, word: str) -> str:
        """A keyword (skill) as printed: 先制, 竜5 — proper terms of the game, kept in Japanese
        brackets in both languages, with the English gloss in English."""
        text = lookup(self.lang, f"keyword.{word}")
        return text if text is not None else f"【{word}】"

    # --- events

    def event(self, event: Event, hide_card: bool = False) -> str:
        """A log line (without its rule ids). ``hide_card``: the event's card is someone else's
        secret (see ``rules.view``)."""
        template = None
        if event.args.get("amount") == 0:  # "loses 0 mana" said as what it is
            template = lookup(self.lang, f"event.{event.code}.none")
        if template is None:
            template = lookup(self.lang, f"event.{event.code}")
        if template is None:
            return event.code
        values = self._event_values(event, hide_card)
        text = one_name(fill(template, values), values.get("effect", ""), values.get("card", ""))
        return one_name(text, values.get("by_effect", ""), values.get("by_card", ""))

    def event_line(self, event: Event, hide_card: bool = False) -> str:
        """A log line with its rule ids in brackets (the command line's form)."""
        rules = f"  [{', '.join(event.rules)}]" if event.rules else ""
        return f"{self.event(event, hide_card)}{rules}"

    def _event_values(self, event: Event, hide_card: bool) -> dict[str, Any]:
        a = event.args
        hidden = self.tr("card.face_down")
        out: dict[str, Any] = {}
        for key, value in a.items():
            if key in SEAT_ARGS:
                out[key] = self.player(value)
            elif key in CARD_ARGS:
                secret = hide_card or (event.secret >= 0 and not value)  # taken out by the view
                out[key] = hidden if secret else self.card_name(value) if value else "—"
            elif key in CODE_ARGS and isinstance(value, str):
                out[key] = self.term(CODE_ARGS[key], value)
            elif key in ("chip", "attacker_chip", "defender_chip"):
                out[key] = self.chip_name(value) if value else ""
            elif key == "change":
                out[key] = " ".join(f"{self.tr('stat.' + k)}{v:+d}" for k, v in
                                    sorted(value.items(), key=lambda kv: STAT_ORDER.index(kv[0])))
            elif key == "targets":
                out[key] = self._targets(value)
            elif key == "skills":
                out[key] = self.join(self.keyword(k) for k in value)
            elif key == "entered_cards":
                out[key] = self.join(self.card_name(c) for c in value)
            elif key == "effects":
                out[key] = self.join(self.effect_name(e, event.card) for e in value)
            elif key == "keyword":
                out[key] = self.keyword(value)
            elif key == "paid":
                out[key] = self._paid(value, a.get("raw", ""))
            elif key == "scripted":
                out[key] = self.tr("log.scripted") if value else ""
            elif key == "by_effect":
                out[key] = self.effect_name(value, a.get("by_card", ""))
            elif key == "by_card":  # the card whose effect negates (public: it is on the stack)
                out[key] = self.card_name(value) if value else "—"
            else:
                out[key] = value
        if event.effect:
            out["effect"] = hidden if hide_card else self.effect_name(event.effect, event.card)
        else:
            out["effect"] = hidden if event.secret >= 0 else ""
        for side in ("attacker", "defender"):
            chip = out.get(f"{side}_chip")
            if side in out:
                out[f"{side}_as"] = self.tr("log.proxy_of", player=out[side], chip=chip) \
                    if chip else out[side]
        return out

    def _targets(self, targets: list) -> str:
        if not targets:
            return ""
        parts = []
        for t in targets:
            if "seat" in t:
                parts.append(self.player(t["seat"]))
            elif "effect" in t:
                parts.append(self.effect_name(t["effect"], t.get("card", "")))
            elif "card" in t:
                parts.append(self.card_name(t["card"]))
            else:
                parts.append(f"#{t.get('stack', '?')}")
        return self.tr("log.targets", targets=self.join(parts))

    def _paid(self, paid: list, raw: str) -> str:
        parts = []
        for item in paid:
            if item == "tap":
                parts.append(self.tr("cost.tap"))
            elif isinstance(item, dict) and "mana" in item:
                parts.append(self.tr("cost.mana", count=item["mana"]))
        text = " + ".join(parts)
        if self.lang != "ja" and raw and not raw.isascii():
            raw = ""  # the card's printed (Japanese) cost: the English words above say it
        return f"{text} ({raw})" if raw and raw not in ("T",) else text

    # --- refusals

    def reason(self, code: str, replayed: bool = False) -> str:
        """Why the rules refused an action. ``replayed``: said of a recorded action (a save's replay,
        a comparison), where "your" would address the reader instead of the seat that acted."""
        said = tr_or_in(self.lang, f"reason.{code}", code.replace("_", " "))
        return tr_or_in(self.lang, f"reason.replayed.{code}", said) if replayed else said

    # --- actions

    def action(self, game: Any, action: Action) -> str:
        """An action as the player who takes it reads it (buttons, menus, demo steps)."""
        if isinstance(action, Pass):
            return self.tr("action.pass")
        if isinstance(action, DeclareRaid):
            return self.tr("action.raid", target=self.player(action.target))
        if isinstance(action, ChooseEncounterTarget):
            return self.tr("action.encounter", target=self.player(action.target))
        if isinstance(action, ChooseAttack):
            return self.tr(f"action.attack_{action.type}")
        if isinstance(action, PlayCard):
            card = game.card_of(action.card)
            key = "action.play_scene" if card.kind == "scene" else "action.play_code"
            return self.tr(key, card=self.card_name(card))
        if isinstance(action, Discard):
            return self.tr("action.discard", card=self.card_name(game.card_of(action.card)))
        if isinstance(action, UseEffect):
            card = game.card_of(action.card)
            eff = card.effects[action.effect - 1]
            text = one_name(self.tr("action.use_effect", card=self.card_name(card),
                                    effect=self.effect_name(eff)),
                            self.effect_name(eff), self.card_name(card))
            tg = self.use_targets(game, action)
            return f"{text} → {tg}" if tg else text
        if isinstance(action, CommandSpell):
            if action.spell == "negate":
                return self.tr("action.command_negate", effect=self.stack_item(game, action.target))
            return self.tr("action.command_remove_coin", player=self.player(action.target),
                           coin=self.term("coin", action.coin))
        if isinstance(action, Choose):
            return self.tr("action.choose", option=self.option(game, action.option))
        return action.kind

    def action_line(self, game: Any, action: Action) -> str:
        """An action with who takes it (logs, demo steps): "A：パス" / "A: pass"."""
        sep = "：" if self.lang == "ja" else ": "
        return f"{self.player(action.player)}{sep}{self.action(game, action)}"

    def use_targets(self, game: Any, action: UseEffect) -> str:
        if not action.targets:
            return ""
        kind = game.card_of(action.card).effects[action.effect - 1].target.kind
        parts = []
        for t in action.targets:
            if kind in ("servant", "player", "dropped_player"):
                parts.append(self.player(t))
            elif kind == "card":
                parts.append(self.card_name(game.card_of(t)))
            elif kind == "stack_effect":
                parts.append(self.stack_item(game, t))
            else:
                parts.append(str(t))
        return self.join(parts)

    def stack_item(self, game: Any, index: int) -> str:
        """A stack entry: "#2 ガンド撃ち（A）" — its position (1 = bottom), effect and user."""
        stack = game.ctx.s.stack
        if not 0 <= index < len(stack):
            return f"#{index + 1}"
        item = stack[index]
        if item.card < 0:
            name = self.tr("table.command_spell_item")
        else:
            card = game.card_of(item.card)
            name = self.effect_name(card.effects[item.effect - 1])
        return self.tr("stack.entry", number=index + 1, effect=name, player=self.player(item.player))

    def option(self, game: Any, option: Any) -> str:
        d = game.ctx.s.decision
        if d is not None and d.kind in ("rise_cards", "choose_hero", "choose_class") \
                and isinstance(option, int) and option in game.ctx.s.cards:
            return self.card_name(game.card_of(option))
        return str(option)


__all__ = ["Words"]
