"""The shipped cards/ folder: it validates, holds the known cards, and loads fast."""

from __future__ import annotations


from fate_royal.cards import load_card_db, load_profile
from fate_royal.commands.check import main as check_main
from fate_royal.cards.profile import PARAMETERS, RulesProfile


def test_shipped_cards_validate():
    db = load_card_db()
    assert [c.id for c in db.by_kind("hero")] == [f"H-{n:03d}" for n in range(1, 18)]
    assert [c.class_name for c in db.by_kind("class")] == [
        "セイバー", "アーチャー", "アサシン", "ランサー", "ライダー", "キャスター", "バーサーカー"]
    assert {c.id for c in db.by_kind("mystic_code")} == {"M-006", "M-007", "M-021", "M-901"}
    assert {c.id for c in db.by_kind("scene")} == {"S-001", "S-002", "S-003", "S-004"}
    assert set(db.chips) == {"dragon_tooth_warrior", "sea_demon"}
    assert db.errata and len(db.fingerprint) == 64


def test_h001_is_printed_with_provisional_cost_reading():
    artoria = load_card_db().card("H-001")
    assert artoria.stats.as_dict() == {"pa": 6, "pd": 5, "ma": 3, "md": 3}
    assert artoria.provenance_of("stats.pa") == "printed"
    excalibur = artoria.effect("約束された勝利の剣")
    assert excalibur.window == "damage" and excalibur.cost.raw == "R4" and excalibur.cost.discard == 4
    assert artoria.provenance_of("effects.1.cost.discard") == "provisional"
    assert artoria.provenance_of("effects.1.cost.raw") == "printed"
    boost, army = excalibur.ops
    assert boost.params == {"subject": "combatant", "pa": 6, "pd": 4, "ma": 6, "md": 4, "duration": "turn"}
    assert army.condition == {"opponent_has_keyword": "軍団"}
    avalon = artoria.effect("Avalon")
    assert avalon.cost.die == (1, 2) and avalon.keywords == ("回復",)


def test_unknown_heroes_have_no_invented_effects():
    db = load_card_db()
    for hero in db.by_kind("hero"):
        if hero.id not in ("H-001", "H-008", "H-012", "H-015"):
            assert hero.effects == () and hero.note == "printed text unknown"
            assert hero.provenance_of("stats.pa") == "provisional"
            assert hero.provenance_of("classes") == "printed"


def test_class_ids_are_provisional_except_assassin():
    db = load_card_db()
    assert db.class_card("アサシン").id == "C-003"
    assert db.class_card("C-003").provenance_of("id") == "printed"
    assert db.class_card("Rider").provenance_of("id") == "provisional"
    assert db.class_card("ライダー").has_skill("先制")
    assert db.card("M-901").provenance_of("id") == "provisional" and db.card("M-901").has_skill("竜")


def test_gandr_outcomes():
    gandr = load_card_db().card("S-001").effect("ガンド撃ち")
    (roll,) = gandr.ops
    faces = [o["faces"] for o in roll.params["outcomes"]]
    assert faces == [(1, 2), (3, 4, 5), (6,)]
    assert roll.params["outcomes"][2]["ops"][0].params == {"count": 1, "subject": "self"}
    assert gandr.unless_target_has == "直感" and gandr.target.side == "opponent"


def test_profile_file_lists_defaults():
    profile = load_profile()
    assert profile.to_dict() == RulesProfile.defaults().to_dict()
    assert set(profile.values) <= set(PARAMETERS)


def test_check_command_succeeds(capsys):
    assert check_main([]) == 0
    out = capsys.readouterr().out
    assert out.startswith("OK: 17 heroes, 7 classes")


def test_check_lists_provisional_fields(capsys):
    assert check_main(["--provisional"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("cards/heroes/H-002.yaml:") and " H-002 stats.pa provisional — " in line
               for line in lines)
    assert any(" C-003 effects.1.ops.1.amount provisional" in line
               and line.startswith("cards/errata/house.yaml:") for line in lines)
    assert not any(" H-001 stats" in line for line in lines)


def test_every_shipped_card_and_effect_has_an_english_name():
    """The English table shows no Japanese card text: every shipped card and effect names itself
    in English too (Dress of Heaven's and V-MAX's effects had only their Japanese names)."""
    db = load_card_db()
    missing = [c.id for c in db.cards.values() if not c.name_en]
    missing += [f"{c.id} effect {i}" for c in db.cards.values()
                for i, e in enumerate(c.effects, 1) if not e.name_en]
    assert missing == []
