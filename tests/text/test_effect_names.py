"""An effect that bears its card's own name (V-MAX's effect V-MAX, 天のドレス's 天のドレス) is named
once in the log, the action list and the shared prompt: "A uses V-MAX", not "V-MAX of V-MAX";
an effect with a name of its own keeps its card ("Gandr Shot of Gandr")."""

from __future__ import annotations

import pytest

from fate_royal.cards import load_card_db
from fate_royal.rules.events import Event
from fate_royal.text.words import Words, one_name


@pytest.fixture(scope="module")
def db():
    return load_card_db()


def used(card: str, effect: str, code: str = "EffectUsed") -> Event:
    return Event(code, {"player": 0, "card": card, "targets": [{"seat": 1}]}, card=card, effect=effect)


@pytest.mark.parametrize("lang, code, expected", [
    ("ja", "EffectUsed", "AがV-MAXを使用 → B"),
    ("en", "EffectUsed", "A uses V-MAX → B"),
    ("ja", "EffectResolved", "V-MAXを解決"),
    ("en", "EffectResolved", "V-MAX resolves"),
    ("ja", "EffectLost", "AのV-MAXは失われた"),
    ("en", "EffectLost", "A's V-MAX is lost"),
])
def test_an_effect_named_as_its_card_is_said_once(db, lang, code, expected):
    words = Words(lang, db, ["A", "B"])
    assert db.card("M-006").effects[0].name == db.card("M-006").name == "V-MAX"
    assert words.event(used("M-006", "V-MAX", code)) == expected


@pytest.mark.parametrize("lang, expected", [
    ("ja", "Aがガンドのガンド撃ちを使用 → B"),
    ("en", "A uses Gandr Shot of Gandr → B"),
])
def test_an_effect_with_its_own_name_keeps_its_card(db, lang, expected):
    assert Words(lang, db, ["A", "B"]).event(used("S-001", "ガンド撃ち")) == expected


def test_one_name_leaves_other_text_alone():
    assert one_name("Gandr Shot of Gandr", "Gandr Shot", "Gandr") == "Gandr Shot of Gandr"
    assert one_name("A uses V-MAX of V-MAX", "V-MAX", "V-MAX") == "A uses V-MAX"
    assert one_name("A uses  of ", "", "") == "A uses  of "  # a hidden or missing name


@pytest.mark.parametrize("lang, expected", [
    ("ja", "ジル・ド・レェの打ち消しがガンドのガンド撃ちを打ち消した"),
    ("en", "Negation of Gilles de Rais negates Gandr Shot of Gandr"),
])
def test_a_negation_names_the_card_whose_effect_negates(db, lang, expected):
    """The negating effect is named with its card: Gilles's effect is called 打ち消し ("negation"),
    and "打ち消しがガンドのガンド撃ちを打ち消した" said the verb twice and no card."""
    event = Event("EffectNegated", {"card": "S-001", "by_card": "H-008", "by_effect": "打ち消し", "player": 1},
                  card="S-001", effect="ガンド撃ち")
    assert Words(lang, db, ["A", "B"]).event(event) == expected


@pytest.mark.parametrize("lang, lost, none", [
    ("ja", "Bの魔力が2減った（残り1）", "Bには失う魔力が残っていない"),
    ("en", "B loses 2 mana (1 left)", "B has no mana left to lose"),
])
def test_losing_no_mana_is_said_as_such(db, lang, lost, none):
    words = Words(lang, db, ["A", "B"])
    assert words.event(Event("ManaLost", {"player": 1, "amount": 2, "mana": 1})) == lost
    assert words.event(Event("ManaLost", {"player": 1, "amount": 0, "mana": 0})) == none
