"""Card rules text generated from effect operations (fate_royal.text.cardtext): every effect of every
shipped card, with errata on and off, reads in Japanese and in English from the catalogs alone."""

from __future__ import annotations

import re

import pytest

from fate_royal.cards import load_card_db
from fate_royal.cards.model import CardDB, Cost, Effect, Op, Target
from fate_royal.cards.vocabulary import CONDITIONS, OPERATIONS
from fate_royal.text.cardtext import card_text, effect_text

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
LATIN = re.compile(r"[A-Za-z]")


@pytest.fixture(scope="module", params=[True, False], ids=["errata", "no-errata"])
def db(request) -> CardDB:
    return load_card_db(errata=request.param)


def proper_names(db: CardDB) -> list[str]:
    """Names the text may carry in their own language: cards, effects, chips, printed costs."""
    names = []
    for c in db.cards.values():
        names += [c.name, c.name_en]
        for e in c.effects:
            names += [e.name, e.name_en, e.cost.raw]
    for chip in db.chips.values():
        names += [chip.name, chip.name_en]
    return sorted((n for n in names if n), key=len, reverse=True)


def without(text: str, names: list[str]) -> str:
    for n in names:
        text = text.replace(n, "")
    return text


def all_effects(db: CardDB):
    for c in sorted(db.cards.values(), key=lambda c: c.id):
        for e in c.effects:
            yield c, e


def assert_well_formed(text: str) -> None:
    assert text.strip()
    assert "[cardtext." not in text, text  # a missing catalog key
    assert not re.search(r"\{[a-z_|]+\}", text), text  # an unfilled placeholder
    assert "op.unknown" not in text


def test_every_shipped_effect_in_japanese(db):
    names = proper_names(db)
    for card, e in all_effects(db):
        text = effect_text(e, "ja", db)
        assert_well_formed(text)
        assert not LATIN.search(without(text, names)), (card.id, e.name, text)
        assert text.startswith("【常時】" if e.is_constant else "【起動】"), text


def test_every_shipped_effect_in_english(db):
    names = proper_names(db)
    for card, e in all_effects(db):
        text = effect_text(e, "en", db)
        assert_well_formed(text)
        assert not CJK.search(without(text, names)), (card.id, e.name, text)
        assert text.startswith("[Constant]" if e.is_constant else "[Activated"), text


def test_card_text_uses_the_data_text_else_generates(db):
    for card in db.cards.values():
        for lang in ("ja", "en"):
            texts = card_text(card, lang, db)
            assert len(texts) == len(card.effects)
            for (text, generated), e in zip(texts, card.effects):
                assert_well_formed(text)
                own = e.text if lang == "ja" else e.text_en
                if not own:
                    assert generated and text == effect_text(e, lang, db)
                elif not generated:
                    assert text == own.strip()


def test_errata_that_changes_an_effect_under_its_text_makes_the_text_generated():
    """M-007's printed text_en says two cards Rise; E9.1 makes it one, so the text is generated."""
    on = load_card_db(errata=True).card("M-007")
    off = load_card_db(errata=False).card("M-007")
    assert card_text(off, "en")[1] == ("Make 2 of your cards Rise.", False)
    text, generated = card_text(on, "en")[1]
    assert generated and "up to 1 of your Down cards" in text


def test_the_parts_of_an_effect_are_all_in_the_text():
    db = load_card_db()
    artoria = db.card("H-001")
    ja = effect_text(artoria.effects[0], "ja", db)
    assert "【起動】（ダメージ判定プロセス）" in ja
    assert "手札を4枚捨てる" in ja and "「R4」" in ja
    assert "物理攻撃力+6" in ja and "魔術防御力+4" in ja and "ターン終了時まで" in ja
    assert "戦闘の相手が【軍団】を持つ場合" in ja
    en = effect_text(artoria.effects[0], "en", db)
    assert en.startswith("[Activated — damage process] Cost: discard 4 cards (printed “R4”).")
    assert "+6 physical attack" in en and "If your combat opponent has [Army], " in en
    gandr = effect_text(db.card("S-001").effects[0], "ja", db)
    assert "対象：相手のサーヴァント1体" in gandr
    assert "1～2：対象のサーヴァントをデンジャー状態にする" in gandr
    assert "【直感】" in gandr
    medea = effect_text(db.card("H-012").effects[0], "en", db)
    assert "Dragon Tooth" in medea and "[Proxy Combat]" in medea


def _sample(op: str) -> dict:
    """Parameters for one operation: the declared defaults, and a value for every required one."""
    params = {}
    for name, spec in OPERATIONS[op].params.items():
        if spec.default is not None:
            params[name] = spec.default
        elif spec.type == "int":
            params[name] = 3
        elif spec.type == "list[int]":
            params[name] = (2, 4)
        elif spec.type == "enum":
            params[name] = spec.choices[0]
        elif spec.type == "outcomes":
            params[name] = ({"faces": (1, 2, 3), "ops": (Op("draw", {"count": 1}),
                                                          Op("recover", {"amount": 1}))},
                            {"faces": (6,), "ops": ()})
        else:
            params[name] = "先制" if name == "keyword" else "sea_demon"
    return params


def _condition(key: str):
    spec = CONDITIONS[key]
    if spec.type == "condition":
        return {"in_combat": True}
    if spec.type == "enum":
        return spec.choices[-1]
    if spec.type == "bool":
        return False
    if spec.type == "int":
        return 3
    return "竜"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_operation_and_condition_of_the_vocabulary_has_words(lang):
    """Not only the shipped cards: whatever a card editor can enter reads in both languages."""
    db = load_card_db()
    names = proper_names(db)
    foreign = LATIN if lang == "ja" else CJK
    for op in OPERATIONS:
        for timing in ("activated", "constant"):
            ok = OPERATIONS[op].activated_ok if timing == "activated" else OPERATIONS[op].constant_ok
            if not ok:
                continue
            for cond in CONDITIONS:
                e = Effect(name="x", timing=timing, window="combat",
                           cost=Cost(tap=True, discard=2, mana=3, die=(1, 3, 5)),
                           keywords=("先制", "竜"),
                           target=Target("card", "opponent", ("hero", "scene")),
                           condition={cond: _condition(cond)}, lost_when={"players_at_most": 2},
                           usable_while_down=True, unless_target_has="直感",
                           ops=(Op(op, _sample(op), {cond: _condition(cond)}),), index=1)
                text = effect_text(e, lang, db)
                assert_well_formed(text)
                assert not foreign.search(without(text, names)), (op, cond, text)
    for kind in ("servant", "player", "dropped_player", "stack_effect"):
        for side in ("any", "opponent", "self", "combat_opponent"):
            e = Effect(name="x", timing="activated", target=Target(kind, side),
                       ops=(Op("damage", {"subject": "target", "amount": 1}),), index=1)
            assert_well_formed(effect_text(e, lang))


def test_an_effect_without_operations_says_it_is_not_yet_playable():
    e = Effect(name="x", timing="activated", text="印刷されたテキスト", index=1, unplayable=True)
    assert "まだ使用できない" in effect_text(e, "ja")
    assert "not yet playable" in effect_text(e, "en").lower()
    from fate_royal.cards.model import CardDef

    card = CardDef(id="M-002", kind="mystic_code", name="x", effects=(e,))
    assert card_text(card, "ja") == [("印刷されたテキスト（まだ使用できない）", False)]
    [(text, generated)] = card_text(card, "en")
    assert generated and "not yet playable" in text.lower()
