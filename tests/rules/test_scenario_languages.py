"""One language at a time: the English texts of every scenario hold no Japanese.

A scenario carries its texts twice: ``title``/``description``/``say`` in Japanese and the keys
ending in ``_en`` (``title_en``, ``description_en``, ``say_en``, a scenario card's ``name_en``...)
in English, shown by the demo dock and the presenter when the table is in English. In English mode
no Japanese may appear there: a card, effect, chip, keyword, timing, class or step is written the
way the English table names it (ガンド → Gandr, 常時 → Constant, 先制 → First Strike; the names come
from the card data's ``name_en`` and the English catalog ``assets/i18n/en.yaml``).

Japanese here is any kana or kanji (U+3040–U+30FF, which includes the middle dot ・; U+3400–U+9FFF;
U+F900–U+FAFF) and the Japanese punctuation and full-width forms around them (U+3000–U+303F, such
as 【】「」、。; U+FF00–U+FFEF, such as （） and half-width katakana).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Iterator

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))

JAPANESE = re.compile(r"[\u3000-\u303F\u3040-\u30FF\u3400-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF]+")


def english_texts(node: Any, path: str = "") -> Iterator[tuple[str, str]]:
    """Every string under a key ending in ``_en``, at any depth, with its key path
    (``steps[3].say_en``)."""
    if isinstance(node, dict):
        for key, value in node.items():
            where = f"{path}.{key}" if path else str(key)
            if isinstance(key, str) and key.endswith("_en"):
                if isinstance(value, str):
                    yield where, value
                    continue
            yield from english_texts(value, where)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from english_texts(value, f"{path}[{i}]")


def japanese_in(text: str) -> list[str]:
    return [m.group() for m in JAPANESE.finditer(text)]


def test_scenarios_are_found():
    assert len(SCENARIOS) > 100, SCENARIOS


def test_the_pattern_finds_kana_kanji_and_the_middle_dot_but_not_english_typography():
    assert japanese_in("A shoots ガンド at B; 常時 and 【回復】, D1・2") == ["ガンド", "常時", "【回復】", "・"]
    assert japanese_in("Sasaki Kojirou's 3/2/1/1 — ⌊damage ÷ 2⌋ … “quoted” 6 − 3 = 3, Cú Chulainn") == []


def test_english_texts_are_found_at_any_depth():
    tree = {"title_en": "T", "steps": [{"say_en": "S"}], "cards": [{"effects": [{"name_en": "N"}]}]}
    assert list(english_texts(tree)) == [("title_en", "T"), ("steps[0].say_en", "S"),
                                         ("cards[0].effects[0].name_en", "N")]


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_english_texts_hold_no_japanese(path: Path):
    tree = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = str(path.relative_to(ROOT))
    found = [f"{name}: {key}: {', '.join(repr(f) for f in fragments)} in {text!r}"
             for key, text in english_texts(tree)
             for fragments in [japanese_in(text)] if fragments]
    if found:
        pytest.fail(f"Japanese in the English texts of {name}:\n" + "\n".join(found), pytrace=False)
