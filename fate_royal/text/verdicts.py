"""What the scenario checker (``rules.scenario_run``) found, in the reader's language.

A failed step carries its findings (``scenario_run.Finding``): what kind of difference, which field,
the value expected and the value found, the rule and the reason code of a refusal. Each is said here
in words of ``Words``' language ("令呪は1（0のはず）", "E4.2が引用されていない"). A step that could not
be played at all (``error``: a scenario that names a card nobody holds) is worded as a broken
scenario is (``dataerrors``); an engine error has no words here: the caller names the failed step
beside it, and English readers get the checker's text.
"""

from __future__ import annotations

from typing import Any, Iterable

from fate_royal.rules.scenario_run import Finding
from fate_royal.text.dataerrors import known, localize
from fate_royal.text.words import Words

#: The card states a checked value may name (``servant_state``, ``card_state``).
STATE_VALUES = ("reverse", "rise", "down", "danger")
#: Where a card can be (``GameState.zone_of``, ``rules.compare.position_summary``) -> zone term.
ZONE_TERMS = {"seat": "servant_seat", "grail": "grail_seat", "deck": "deck", "discard": "discard",
              "hand": "hand", "removed": "removed", "nowhere": "nowhere"}


def _checked_word(key: str, w: Words) -> str:
    """A checked field of a scenario (``mana``, ``coins.assassination``, ``stats.pa``) in words."""
    head, _, rest = key.partition(".")
    if head == "coins" and rest:
        return w.tr("rulings.field.coins", coin=w.term("coin", rest))
    if head == "stats" and rest:
        return w.term("stat", rest)
    if key == "card_state":
        return w.tr("rulings.sweep.card_state")
    if key == "coins":
        return w.tr("coin.short")
    if key == "pending":
        return w.tr("rulings.sweep.pending")
    for k in (key, head):
        text = w.term("rulings.field", k)
        if text != k:
            return text
    return key


def _checked_value(v: Any, w: Words, key: str = "") -> str:
    """A value the checker expected or found, in words."""
    if v is None:
        return "—"
    if key == "winner" and v == "none":
        return w.tr("gameover.no_winner")
    if isinstance(v, bool):
        return w.tr("rulings.value.yes") if v else w.tr("rulings.value.no")
    if key == "pending":
        return w.term("table.pending", v)
    if key in ("step", "process"):
        return w.term(key, v)
    if v in STATE_VALUES:
        return w.term("state", v)
    return str(v)


def _zone_word(zone: str, w: Words) -> str:
    term = ZONE_TERMS.get(zone)
    return w.term("zone", term) if term else zone


def _place_word(target: str, w: Words) -> str:
    """A step or a combat process an ``advance`` aims at, in words."""
    from fate_royal.rules.state import PROCESSES

    return w.term("process" if target in PROCESSES else "step", target)


def finding_words(f: Finding, w: Words) -> str:
    """One finding of the checker in words, or "" when it has none here (an ``error`` the
    scenario's wordings do not know: an engine error)."""
    if f.kind == "mismatch":
        return w.tr("rulings.sweep.got", what=_checked_word(f.key, w),
                    got=_checked_value(f.got, w, f.key), want=_checked_value(f.want, w, f.key))
    if f.kind == "not_over":
        return w.tr("rulings.sweep.not_over", want=_checked_value(f.want, w, f.key))
    if f.kind == "zone":
        places = w.join(_zone_word(z, w) for z in f.got) if f.got else "—"
        return w.tr("rulings.sweep.zone", card=w.card_name(f.key), got=places,
                    want=_zone_word(str(f.want), w))
    if f.kind == "not_cited":
        return w.tr("rulings.sweep.not_cited", rule=f.rule)
    if f.kind == "cited":
        return w.tr("rulings.sweep.cited", rule=f.rule)
    if f.kind == "other_rule":
        return w.tr("rulings.sweep.other_rule", reason=w.reason(f.reason), rule=f.rule or "—",
                    want=f.want)
    if f.kind == "other_reason":
        return w.tr("rulings.sweep.other_reason", reason=w.reason(f.reason),
                    want=w.reason(str(f.want)))
    if f.kind == "changed_state":
        return w.tr("rulings.sweep.changed_state")
    if f.kind == "allowed":
        return w.tr("rulings.sweep.allowed")
    if f.kind == "illegal":
        return w.reason(f.reason)
    if f.kind == "blocked":
        return w.tr("rulings.sweep.blocked", target=_place_word(f.key, w), player=f.player,
                    pending=w.term("table.pending", f.got))
    if f.kind == "ended":
        return w.tr("rulings.sweep.ended", target=_place_word(f.key, w))
    if f.kind == "error" and known(f.text):  # a step that cannot be played as written
        return localize(f.text, w.lang)
    return ""


def failure_details(findings: Iterable[Finding], w: Words) -> str:
    """The checker's findings in ``w``'s words, joined as that language lists things."""
    return w.join(x for x in (finding_words(f, w) for f in findings) if x)


__all__ = ["STATE_VALUES", "ZONE_TERMS", "failure_details", "finding_words"]
