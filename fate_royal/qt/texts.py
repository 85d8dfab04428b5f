"""Words for the table in the UI language: a thin layer over ``fate_royal.text`` (the catalogs and
``Words``), so that the log panel, the action panel and the command line say the same thing.
"""

from __future__ import annotations

from typing import Any

from fate_royal.cards.model import CardDef, Effect
from fate_royal.cards.vocabulary import CLASSES
from fate_royal.qt.i18n import current_language, has_key, tr
from fate_royal.rules.actions import (
    Action, Choose, ChooseAttack, ChooseEncounterTarget, DeclareRaid, Discard, Pass, PlayCard,
    UseEffect,
)
from fate_royal.text import Words
from fate_royal.text.catalog import lookup


def lang() -> str:
    return current_language()


def words(game: Any = None) -> Words:
    """``Words`` in the UI language, for ``game`` when given (its cards and player names)."""
    if game is None:
        return Words(lang())
    return Words.for_game(game, lang())


def tr_or(key: str, fallback: str, **kwargs: Any) -> str:
    """``tr(key)`` if a catalog has the key, else ``fallback`` (both filled in)."""
    if has_key(key) or has_key(key, "en"):
        return tr(key, **kwargs)
    from fate_royal.text.catalog import fill

    return fill(fallback, kwargs)


def card_name(card: CardDef) -> str:
    return Words(lang()).card_name(card)


def effect_name(effect: Effect) -> str:
    return Words(lang()).effect_name(effect)


def class_label(name: str) -> str:
    return CLASSES.get(name, name) if lang() == "en" else name


def reason_text(code: str) -> str:
    """A refusal reason code (``servant_down``) in words."""
    return Words(lang()).reason(code)


def step_text(step: str) -> str:
    return tr_or(f"step.{step}", step)


def process_text(process: str) -> str:
    return tr_or(f"process.{process}", process)


def state_text(state: str) -> str:
    return tr_or(f"state.{state}", state)


def coin_text(coin: str) -> str:
    return tr_or(f"coin.{coin}", coin)


def attack_text(kind: str) -> str:
    return tr_or(f"action.attack_{kind}", kind)


def pending_text(game: Any) -> str:
    """What the game waits for, e.g. "Aさんが選択中 — 対応ウィンドウ"."""
    pend = game.pending
    if pend is None:
        return ""
    who = tr("panel.stack.decides", name=game.player_name(pend.player))
    what = tr_or(f"table.pending.{pend.kind}", pend.kind)
    return f"{who} — {what}"


def targets_text(game: Any, action: UseEffect) -> str:
    return words(game).use_targets(game, action)


def option_text(game: Any, option: Any) -> str:
    return words(game).option(game, option)


def action_label(game: Any, action: Action) -> str:
    """The text of an action-panel button or a card-menu entry."""
    return words(game).action(game, action)


#: Order of the action panel's groups (pass first: it is the most frequent answer).
GROUPS = ("pass", "decision", "raid", "play", "effect", "spell")


def action_group(action: Action) -> str:
    if isinstance(action, Pass):
        return "pass"
    if isinstance(action, (ChooseAttack, ChooseEncounterTarget, Discard, Choose)):
        return "decision"
    if isinstance(action, DeclareRaid):
        return "raid"
    if isinstance(action, PlayCard):
        return "play"
    if isinstance(action, UseEffect):
        return "effect"
    return "spell"


def group_title(group: str) -> str:
    return tr_or(f"table.group.{group}", group)


def event_line(event: Any, language: str | None = None, game: Any = None) -> str:
    """An engine event in words (without its rule ids)."""
    language = language or lang()
    w = Words.for_game(game, language) if game is not None else Words(language)
    return w.event(event)


def term(prefix: str, code: str) -> str:
    text = lookup(lang(), f"{prefix}.{code}")
    return code if text is None else text


def scenario_title(scenario: Any) -> str:
    """A scenario's title in the UI language (the other one where it has only that)."""
    ja, en = getattr(scenario, "title", "") or "", getattr(scenario, "title_en", "") or ""
    return (en or ja) if lang() == "en" else (ja or en)


def rules_title(rules: Any) -> str:
    """The name of a rule set as the table shows it (title, in the UI language where known)."""
    if rules is None:
        return ""
    return titled(rules.name or "", rules.title or "")


def titled(name: str, title: str) -> str:
    """``rules_title`` of a rule set known only by its ``name`` and ``title`` (an autosave's)."""
    if name in ("house", "base") and (not title or title == name
                                       or (lang() != "ja" and not title.isascii())):
        return tr(f"rules.{name}")  # (the shipped sets' titles are Japanese)
    return title or name or tr("rules.custom")


def field_label(path: str, card: CardDef | None) -> str:
    """A dotted field path in words: ``effects.2.cost`` → "効果「名前」 — コスト" (with no card, or
    an effect it does not have: "効果2 — コスト")."""
    parts = path.split(".")
    if parts[0] == "stats" and len(parts) > 1:
        return tr(f"stat.{parts[1]}")
    if parts[0] == "effects" and len(parts) > 1 and parts[1].isdigit():
        n = int(parts[1])
        eff = next((e for e in getattr(card, "effects", ()) if e.index == n), None)
        rest = ".".join(parts[2:])
        key = f"zoom.field.{parts[2]}" if len(parts) > 2 else ""
        what = tr_or(key, rest) if rest else ""
        # an effect by its name; one not built yet (a form with problems) by its number
        head = tr("zoom.field.effect", name=effect_name(eff)) if eff is not None else \
            tr("editor.effect_tab", number=n)
        return head + (f" — {what}" if what else "")
    return tr_or(f"zoom.field.{parts[0]}", path)
