"""The personal card pack (issue 16): entered cards join the card data with provenance ``entered``,
replace padding copies in the deck (D1), corrections of shipped cards record what they replace, and
a broken or hostile pack is refused with ``file:line: message`` and nothing written."""

from __future__ import annotations

import pytest

from fate_royal.cards import DataErrors, RuleSet, load_card_db
from fate_royal.cards.pack import (
    deck_summary, dump_pack, empty_pack, export_pack, import_pack, pack_path, personal_ids,
    plan_import, read_pack, save_pack, unknown_list, with_card,
)
from fate_royal.rules.actions import UseEffect
from fate_royal.rules.game import Game
from packhelp import NEW_CODE, play_until_used

@pytest.fixture
def my_pack(tmp_path, monkeypatch):
    path = tmp_path / "data" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(path))
    return path


def test_an_entered_card_joins_the_data_as_entered(my_pack):
    save_pack(with_card(empty_pack(), NEW_CODE))
    assert my_pack.is_file()
    db = load_card_db()
    card = db.card("M-002")
    assert card.provenance_default == "entered"
    assert card.provenance_of("effects.1.ops") == "entered"
    assert card.note == "typed in from my box"
    assert personal_ids(db) == ["M-002"]
    assert "M-002" not in load_card_db(pack=False).cards
    assert db.fingerprint != load_card_db(pack=False).fingerprint


def test_entered_cards_replace_padding_copies(my_pack):
    rules = RuleSet.house()
    shipped = load_card_db(pack=False)
    known, entered, padded = deck_summary(shipped, rules)
    assert (entered, known + padded) == (0, rules.profile.deck_min_size)
    save_pack(with_card(empty_pack(), NEW_CODE))
    db = load_card_db()
    assert deck_summary(db, rules) == (known, 1, padded - 1)
    game = Game.new(db, rules, ["A", "B"], seed=3)
    s = game.ctx.s
    assert s.padded == padded - 1  # D1 pads only what is still missing
    assert "M-002" in s.cards.values()


def test_a_game_uses_the_entered_effect(my_pack):
    save_pack(with_card(empty_pack(), NEW_CODE))
    db = load_card_db()
    game = Game.new(db, RuleSet.house(), ["A", "B", "C"], seed=5)
    assert play_until_used(game, "M-002")


def test_a_correction_of_a_shipped_card_records_what_it_replaces(my_pack):
    hero = {"id": "H-002", "kind": "hero", "name": "エミヤ", "name_en": "EMIYA",
            "stats": {"pa": 4, "pd": 4, "ma": 3, "md": 3},
            "classes": ["アーチャー", "キャスター", "アサシン", "バーサーカー"],
            "note": "stats from my card"}
    pack = with_card(empty_pack(), hero)
    assert "H-002" in pack.replaces and pack.replaces["H-002"]["id"] == "H-002"
    save_pack(pack)
    again = read_pack()
    assert again.replaces == pack.replaces
    card = load_card_db().card("H-002")
    assert card.stats.pa == 4 and card.provenance_of("stats.pa") == "entered"
    assert not any(cid == "H-002" for cid, _, _ in unknown_list(load_card_db())
                   if _ .startswith("stats"))


def test_not_yet_playable_effects_are_kept_listed_and_never_offered(my_pack):
    code = dict(NEW_CODE, effects=[
        {"name": "謎の効果", "timing": "activated", "window": "any", "unplayable": True,
         "text": "印刷された効果のテキスト"}])
    save_pack(with_card(empty_pack(), code))
    db = load_card_db()
    assert db.card("M-002").effects[0].unplayable
    assert ("M-002", "effects.1", "not yet playable") in unknown_list(db)
    game = Game.new(db, RuleSet.house(), ["A", "B"], seed=2)
    for _ in range(300):
        if game.outcome() is not None:
            break
        actions = game.legal_actions()
        assert not any(isinstance(a, UseEffect) and game.card_of(a.card).id == "M-002"
                       for a in actions)
        game.apply(actions[0] if actions[0].kind != "spell" else actions[-1])
    bad = dict(code, effects=[{"name": "謎", "timing": "activated", "unplayable": True}])
    with pytest.raises(DataErrors, match="printed text"):
        save_pack(with_card(empty_pack(), bad))


def test_export_and_import_into_a_fresh_data_folder(my_pack, tmp_path, monkeypatch):
    save_pack(with_card(empty_pack(), NEW_CODE))
    shared = export_pack(tmp_path / "share" / "ours.yaml")
    fresh = tmp_path / "fresh" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(fresh))
    assert pack_path() == fresh and not fresh.exists()
    plan = plan_import(shared)
    assert plan.adds == ["M-002"] and not plan.overrides_shipped
    assert not fresh.exists()  # planning writes nothing
    import_pack(shared)
    assert read_pack().ids() == ["M-002"]
    assert load_card_db().card("M-002").provenance_default == "entered"


HOSTILE = {
    "python tag": ("format: fate_royal-card-pack\ncards:\n  - !!python/object/apply:os.system "
                   "['echo hi']\n", 3, "not allowed"),
    "alias bomb": ("format: fate_royal-card-pack\na: &a [x, x]\nb: &b [*a, *a]\ncards: []\n", 2,
                   "aliases"),
    "not a pack": ("- 1\n- 2\n", 1, "card pack"),
    "wrong format": ("format: something-else\ncards: []\n", 1, "not a card pack"),
    "printed claim": ("format: fate_royal-card-pack\ncards:\n  - id: M-003\n    kind: mystic_code\n"
                      "    name: x\n    provenance: printed\n", 6, "provenance must be entered"),
    "bad card": ("format: fate_royal-card-pack\ncards:\n  - id: M-003\n    kind: mystic_code\n"
                 "    name: x\n    effects:\n      - name: e\n        timing: activated\n"
                 "        ops:\n          - {op: draw, count: 9999}\n", 10, "count"),
    "unknown op": ("format: fate_royal-card-pack\ncards:\n  - id: M-003\n    kind: mystic_code\n"
                   "    name: x\n    effects:\n      - name: e\n        timing: activated\n"
                   "        ops: [{op: format_disk}]\n", 9, "format_disk"),
    "bad id": ("format: fate_royal-card-pack\ncards:\n  - id: M-00３\n    kind: mystic_code\n"
               "    name: x\n", 3, "id"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_broken_or_hostile_pack_is_refused_and_nothing_written(name, my_pack, tmp_path):
    text, line, words = HOSTILE[name]
    src = tmp_path / "incoming.yaml"
    src.write_text(text, "utf-8")
    save_pack(with_card(empty_pack(), NEW_CODE))
    before = my_pack.read_bytes()
    with pytest.raises(DataErrors) as info:
        import_pack(src)
    first = info.value.errors[0]
    assert first.file == src.as_posix() and first.line == line, str(info.value)
    assert words.lower() in str(info.value).lower()
    assert str(first).startswith(f"{src.as_posix()}:{line}: ")
    assert my_pack.read_bytes() == before
    assert sorted(p.name for p in my_pack.parent.iterdir()) == ["card-pack.yaml"]


def test_a_huge_pack_is_refused(my_pack, tmp_path):
    src = tmp_path / "huge.yaml"
    src.write_text("format: fate_royal-card-pack\nnote: '" + "x" * (3 * 1024 * 1024) + "'\n")
    with pytest.raises(DataErrors, match="at most"):
        import_pack(src)
    assert not my_pack.exists()


def test_the_pack_round_trips(my_pack):
    pack = with_card(empty_pack(), NEW_CODE)
    save_pack(pack)
    text = my_pack.read_text("utf-8")
    assert "provenance: entered" in text and text == dump_pack(read_pack())


def test_the_log_says_which_cards_were_entered(my_pack):
    from fate_royal.text import Words

    save_pack(with_card(empty_pack(), NEW_CODE))
    db = load_card_db()
    game = Game.new(db, RuleSet.house(), ["A", "B"], seed=1)
    event = next(e for e in game.ctx.log if e.code == "PersonalCardsUsed")
    assert event.args["entered_cards"] == ["M-002"] and event.rules == ("D1",)
    assert Words("ja", db).event(event) == "自分のカードパックで入力したカードを使用（入力）：試作礼装"
    assert Words("en", db).event(event).endswith("(entered): Trial Code")
    plain_game = Game.new(load_card_db(pack=False), RuleSet.house(), ["A", "B"], seed=1)
    assert not any(e.code == "PersonalCardsUsed" for e in plain_game.ctx.log)


def test_errata_apply_over_an_entered_correction(my_pack):
    """M-007's first effect is unknown; a person enters it. E9.1 replaces that effect whatever was
    printed, so the errata still applies (and says it replaced the entered value)."""
    from fate_royal.cards.pack import shipped_card_tree

    tree = shipped_card_tree("M-007")
    tree["effects"][0]["ops"] = [{"op": "recover", "amount": 1}]
    save_pack(with_card(empty_pack(), tree))
    off = load_card_db(errata=False).card("M-007")
    assert [o.op for o in off.effects[0].ops] == ["recover"]
    assert off.provenance_of("effects.1.ops") == "entered"
    on = load_card_db().card("M-007")
    assert [o.op for o in on.effects[0].ops] == ["draw", "discard"]
    assert on.provenance_of("effects.1.ops") == "errata"
    assert "personal card pack" in on.notes["effects.1.ops"]
    assert on.provenance_of("effects.2.ops") == "errata"
    assert "personal card pack" not in on.notes["effects.2.ops"]
