"""One language at a time: the English names and texts of the shipped cards and chips hold no
Japanese (the English table shows [First Strike], Proxy Combat, Dragon Tooth Warriors; the
Japanese terms live in the Japanese fields). The same check for scenarios is
``tests/rules/test_scenario_languages.py``."""

from __future__ import annotations

import re

from fate_royal.cards import RuleSet, load_card_db, load_profile

JAPANESE = re.compile(r"[\u3000-\u303F\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]+")


def english_fields(db):
    for card in db.cards.values():
        yield card.id, "name_en", card.name_en
        for i, e in enumerate(card.effects, 1):
            yield card.id, f"effect {i} name_en", e.name_en
            yield card.id, f"effect {i} text_en", e.text_en
    for chip in db.chips.values():
        yield chip.id, "name_en", chip.name_en


def test_the_pattern_finds_japanese():
    assert JAPANESE.findall("have 【先制】, 代理戦闘 —") == ["【先制】", "代理戦闘"]
    assert JAPANESE.findall("have [First Strike]; Cú Chulainn — 6 − 3") == []


def test_english_card_texts_hold_no_japanese():
    rules = RuleSet.house(load_profile(), name="house")
    db = load_card_db(rules=rules)
    fields = list(english_fields(db))
    assert sum(1 for *_, text in fields if text) > 50
    found = [(cid, key, JAPANESE.findall(text), text) for cid, key, text in fields
             if text and JAPANESE.search(text)]
    assert found == []
