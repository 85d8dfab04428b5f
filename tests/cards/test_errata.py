"""The errata pack (rules.md E9) is applied as sourced patches, recorded, and only with errata on."""

from __future__ import annotations

from fate_royal.cards import load_card_db


def test_patches_apply_and_are_recorded():
    db = load_card_db()
    applied = {p.patch_id: (cid, p) for cid, c in db.cards.items() for p in c.patches}
    assert set(applied) == {"E9.1-a", "E9.1-b", "E9.2", "E9.3", "E9.4", "E9.5", "E9.6-a", "E9.6-b"}
    for cid, p in applied.values():
        assert p.rule.startswith("E9.")
        # every source sentence is quoted from the errata text; E9.1-b continues E9.1-a's
        assert p.source.startswith("【") or p.patch_id == "E9.1-b"


def test_e9_1_ryuunosuke():
    card = load_card_db().card("M-007")
    first, second = card.effects
    assert [(o.op, o.params["count"]) for o in first.ops] == [("draw", 1), ("discard", 1)]
    assert second.ops[0].params == {"count": 1}
    before = card.original.effect(2).ops[0].params
    assert before == {"count": 2}
    patch = next(p for p in card.patches if p.patch_id == "E9.1-b")
    assert (patch.path, patch.before, patch.after) == (
        "effects.2.ops", [{"op": "rise_cards", "count": 2}], [{"op": "rise_cards", "count": 1}])
    assert card.provenance_of("effects.2.ops") == "errata"
    assert card.original.provenance_of("effects.2.ops") == "printed"


def test_e9_2_medea_dragon_tooth_cost():
    card = load_card_db().card("H-012")
    cost = card.effect("竜牙兵").cost
    assert cost.tap and cost.raw == "自分をダウン状態にする"
    assert card.provenance_of("effects.1.cost") == "errata"
    assert card.original.effect("竜牙兵").cost.is_free


def test_e9_3_assassination_coins():
    card = load_card_db().card("C-003")
    (op,) = card.effect("暗殺").ops
    assert op.op == "place_coins" and op.params["halve"] is True and op.params["amount"] == 2
    assert card.provenance_of("effects.1.ops") == "errata"
    assert card.provenance_of("effects.1.ops.1.amount") == "provisional"
    assert card.original.effect("暗殺").ops[0].op == "damage"


def test_e9_4_and_e9_5_kojirou():
    card = load_card_db().card("H-015")
    assert card.effect("山門の守護").lost_when == {"players_at_most": 2}
    added = card.effect(2)
    assert added.is_constant and added.ops[0].op == "encounter_faces"
    assert added.ops[0].params["faces"] == (2,)
    assert card.provenance_of("effects.2") == "errata"
    assert card.provenance_of("effects.2.ops") == "errata"
    assert len(card.original.effects) == 1


def test_e9_6_usable_while_down():
    db = load_card_db()
    for cid in ("M-006", "M-021"):
        assert db.card(cid).effect(1).usable_while_down
        assert not db.card(cid).original.effect(1).usable_while_down


def test_errata_off_applies_nothing():
    db = load_card_db(errata=False)
    assert not db.errata
    assert all(not c.patches and c.original is None for c in db.cards.values())
    assert db.card("C-003").effect("暗殺").ops[0].op == "damage"
    assert len(db.card("H-015").effects) == 1
    assert db.fingerprint != load_card_db().fingerprint


def test_fingerprint_follows_the_files(cards):
    first = load_card_db(cards.root).fingerprint
    assert load_card_db(cards.root).fingerprint == first
    cards.edit("chips.yaml", "stats: {pa: 3,", "stats: {pa: 4,")
    assert load_card_db(cards.root).fingerprint != first
