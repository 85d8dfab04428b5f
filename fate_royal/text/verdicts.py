"""What the scenario checker (``rules.scenario_run``) found, in the reader's language.

The checker writes its findings in English, one per part joined by "; " ("mana: expected 3, got
5; log does not cite E2.2 since the previous check (cited: D6)"). Here each part it writes in a
known form is said again in words of ``Words``' language; a part of another form has no words
here and is left out (the caller names the failed step beside it). English readers get the
checker's own text.
"""

from __future__ import annotations

import re

from fate_royal.text.words import Words

STATE_VALUES = ("reverse", "rise", "down", "danger")


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


def _checked_value(v: str, w: Words, key: str = "") -> str:
    v = v.strip().strip("'")
    if key == "pending":
        return w.term("table.pending", v)
    if key in ("step", "process"):
        return w.term(key, v)
    if v in ("None", "none"):
        return "—"
    if v in ("True", "False"):
        return w.tr("rulings.value.yes") if v == "True" else w.tr("rulings.value.no")
    if v in STATE_VALUES:
        return w.term("state", v)
    return v


def failure_part(part: str, w: Words) -> str:
    """One finding of the checker in words, or "" when it has none here."""
    m = re.match(r"^(?P<key>[\w.]+): expected (?P<want>.+), got (?P<got>.+)$", part)
    if m:
        return w.tr("rulings.sweep.got", what=_checked_word(m["key"], w),
                    got=_checked_value(m["got"], w, m["key"]),
                    want=_checked_value(m["want"], w, m["key"]))
    m = re.match(r"^log does not cite (\S+)", part)
    if m:
        return w.tr("rulings.sweep.not_cited", rule=m[1])
    m = re.match(r"^log cites (\S+) but should not", part)
    if m:
        return w.tr("rulings.sweep.cited", rule=m[1])
    m = re.match(r"^refused, but by rule (?P<rule>\S+) \((?P<code>\w+)\), not (?P<want>\S+)$", part)
    if m:
        return w.tr("rulings.sweep.other_rule", reason=w.reason(m["code"]), rule=m["rule"],
                    want=m["want"])
    m = re.search(r"\((\w+)\) \[([^\]]*)\]$", part)
    if m:
        return w.reason(m[1])
    if part.endswith(" was allowed"):
        return w.tr("rulings.sweep.allowed")
    return ""


def failure_details(message: str, w: Words) -> str:
    """The checker's findings in ``w``'s words, joined as that language lists things."""
    return w.join(x for x in (failure_part(p, w) for p in message.split("; ")) if x)


__all__ = ["failure_details", "failure_part"]
