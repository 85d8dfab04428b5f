"""Edges of the card data a user writes or saves, each pinned by its visible result: the chip sheet
(a duplicate chip id named at its line; a chip without ``name_en`` has an empty English name), a
duplicate card id and an unknown keyword in a condition named at the line of the key at fault, a
YAML problem in a card file reported on every load when the parsed-file cache is on, the value a new
errata patch must ``expect`` (``patches.card_value``, with the patches already applied, and the
message naming a path the card lacks), the shipped definition of a card whose id carries a
provenance wrapper, a personal card pack saved into folders that do not exist yet, the rules
reference's line for a missing ``rules`` list and for an empty ``text_en``, an unknown reading in a
recorded rule set with its near-miss hint, a user rule set written as readable text under the name
it is saved as, and ``clone`` keeping the line of a list."""

from __future__ import annotations

import pytest

from fate_royal.cards import DataErrors, load_card_db
from fate_royal.cards.pack import CardPack, read_pack, save_pack, shipped_card_tree
from fate_royal.cards.patches import card_value
from fate_royal.cards.reference import RulesReferenceError, load_reference
from fate_royal.cards.ruleset import RuleSet
from fate_royal.cards.rulesets import load_ruleset, save_user_ruleset, shipped_ruleset
from fate_royal.cards.yamlsrc import clone, location, parse_yaml

KEYWORD_HELP = ("(known: 先制, 支援, 代理戦闘, 騎乗, 軍団, 直感, 回復, 対魔力, 竜; 竜 takes a rank of 1 "
                "to 99 in ASCII digits, e.g. 竜5)")


# --- the chip sheet -------------------------------------------------------------------------------


def test_a_second_chip_of_the_same_id_is_named_at_its_id_line(cards):
    text = cards.path("chips.yaml").read_text("utf-8")
    cards.path("chips.yaml").write_text(
        text + "  - name: 海魔二\n    id: sea_demon\n    stats: {pa: 1, pd: 1, ma: 1, md: 1}\n"
               "    note: a second sea demon\n", "utf-8")
    line = len(text.splitlines()) + 2
    assert cards.errors() == [f"{cards.label('chips.yaml')}:{line}: duplicate chip id 'sea_demon'"]


def test_a_chip_without_an_english_name_has_an_empty_one(cards):
    cards.edit("chips.yaml", "    name_en: Sea Demon\n", "")
    chips = load_card_db(cards.root).chips
    assert chips["sea_demon"].name_en == ""
    assert chips["dragon_tooth_warrior"].name_en == "Dragon Tooth Warrior"


# --- card files -----------------------------------------------------------------------------------


def test_a_duplicate_card_id_is_named_at_the_id_line_wherever_it_stands(cards):
    """The copy puts ``kind`` first: the message names the line of ``id``, not the file's first key."""
    text = cards.path("heroes/H-002.yaml").read_text("utf-8")
    assert "id: H-002\nkind: hero\n" in text
    cards.path("heroes/H-002_copy.yaml").write_text(
        text.replace("id: H-002\nkind: hero\n", "kind: hero\nid: H-002\n"), "utf-8")
    line = cards.line_of("heroes/H-002_copy.yaml", "id: H-002")
    assert cards.errors() == [f"{cards.label('heroes/H-002_copy.yaml')}:{line}: duplicate card id "
                              f"H-002 (also in {cards.label('heroes/H-002.yaml')}:4)"]


def test_an_unknown_keyword_in_a_condition_is_named_at_its_line(cards):
    line = cards.edit("heroes/H-001.yaml", "if: {opponent_has_keyword: 軍団}",
                      "if: {opponent_has_keyword: 飛行}")
    assert cards.errors() == [f"{cards.label('heroes/H-001.yaml')}:{line}: unknown keyword '飛行' in "
                              f"condition {KEYWORD_HELP}"]


def test_a_yaml_problem_is_reported_on_every_load_with_the_cache_on(cards, tmp_path, monkeypatch):
    """The parsed-file cache keeps only clean parses: a file with a YAML problem is parsed (and its
    problem said) again on the next load, never served from the cache without it."""
    folder = tmp_path / "parsed"
    monkeypatch.setenv("FATE_ROYAL_CACHE", str(folder))
    line = cards.edit("heroes/H-001.yaml", "name_en: Artoria\n", "name_en: Artoria\nname_en: Saber\n") + 1
    expected = [f"{cards.label('heroes/H-001.yaml')}:{line}: duplicate key 'name_en' (first at line "
                f"{line - 1})"]
    assert cards.errors() == expected
    assert cards.errors() == expected
    assert any(folder.iterdir())  # the clean files are cached


# --- what a new errata patch expects ----------------------------------------------------------------


@pytest.fixture(scope="module")
def db():
    return load_card_db()


@pytest.mark.parametrize("card, path, value", [
    ("H-001", "stats", {"pa": 6, "pd": 5, "ma": 3, "md": 3}),
    ("H-001", "effects.1.cost.discard", 4),  # without its provenance wrapper
    ("H-001", "effects.2.cost.die", [1, 2]),
    ("H-001", "effects.全て遠き理想郷.ops", [{"op": "recover", "amount": 2}]),
    # after the house errata (E9.1-a, E9.1-b, E9.2), named by number or by effect name
    ("M-007", "effects.1.ops", [{"op": "draw", "count": 1},
                                {"op": "discard", "subject": "self", "count": 1}]),
    ("M-007", "effects.2.ops", [{"op": "rise_cards", "count": 1}]),
    ("H-012", "effects.竜牙兵.cost", {"raw": "自分をダウン状態にする", "tap": True}),
])
def test_the_value_a_patch_must_expect_is_the_card_as_patched(db, card, path, value):
    assert card_value(db.cards[card], path) == value


@pytest.mark.parametrize("path, message", [
    ("stats.speed", "the card has no stats.speed"),
    ("effects.1.cost.tap", "the card has no effects.1.cost.tap"),
    ("name.ja", "name is not a mapping or list"),
    ("effects.1.name.x", "effects.1.name is not a mapping or list"),
    ("effects.3", "effects has no item '3'"),
    ("effects.0", "effects has no item '0'"),
    ("effects.Excalibur", "effects has no item 'Excalibur'"),
])
def test_a_path_the_card_lacks_is_a_key_error_naming_it(db, path, message):
    with pytest.raises(KeyError) as info:
        card_value(db.cards["H-001"], path)
    assert info.value.args == (message,)


# --- the personal card pack -------------------------------------------------------------------------


def test_the_shipped_definition_is_found_when_the_id_is_wrapped(cards):
    cards.edit("heroes/H-002.yaml", "id: H-002\n",
               "id: {value: H-002, provenance: printed}\n")
    tree = shipped_card_tree("H-002", cards.root)
    assert tree is not None and tree["id"] == {"value": "H-002", "provenance": "printed"}
    assert tree["kind"] == "hero"
    assert shipped_card_tree("H-099", cards.root) is None


def test_a_pack_is_saved_into_folders_that_do_not_exist_yet(tmp_path):
    target = tmp_path / "new" / "deeper" / "pack.yaml"
    card = {"id": "M-050", "kind": "mystic_code", "name": "試作"}
    assert save_pack(CardPack(cards=[card]), target) == target
    assert [c["id"] for c in read_pack(target).cards] == ["M-050"]


# --- the rules reference ----------------------------------------------------------------------------


def reference_refusal(tmp_path, text: str) -> tuple[int | None, str]:
    path = tmp_path / "rules-reference.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesReferenceError) as info:
        load_reference(path)
    return info.value.line, info.value.problem


def test_an_empty_rules_list_is_named_at_the_rules_line(tmp_path):
    assert reference_refusal(tmp_path, "# the reference\nformat: 1\nrules: []\n") == (
        3, "rules must be a non-empty list of rule entries")


def test_an_empty_english_text_is_refused_at_its_line(tmp_path):
    text = ("format: 1\nrules:\n  - id: B1\n    layer: base\n    title_ja: 構成物\n"
            "    title_en: Components\n    text_ja: カードは100枚。\n    text_en:\n")
    assert reference_refusal(tmp_path, text) == (8, "rule B1: text_en must be non-empty text, got None")


# --- rule sets ------------------------------------------------------------------------------------


def test_an_unknown_reading_in_a_recorded_rule_set_suggests_the_near_one():
    with pytest.raises(ValueError) as info:
        RuleSet.from_dict({"readings": {"R11": "kept"}})
    assert str(info.value) == "unknown reading 'R11' (did you mean 'R1'?)"


def test_a_user_set_is_written_as_readable_text_titled_by_its_name(tmp_path):
    house = shipped_ruleset("house")
    rules = house.with_(off={"E8"}, title="山札なし")
    path = save_user_ruleset(rules, "週末の卓", folder=tmp_path / "rulesets")
    text = path.read_text("utf-8")
    assert text.splitlines()[0] == "title: 週末の卓"
    back = load_ruleset(path)
    assert back.title == "週末の卓" and back.off == {"E8"}


# --- the YAML reader -------------------------------------------------------------------------------


def test_a_clone_keeps_the_line_of_every_list_and_mapping():
    errors: list = []
    tree = parse_yaml("a: 1\nb:\n  - x\n  - {k: [1,\n      2]}\n", "data/x.yaml", errors)
    assert errors == []
    copy = clone(tree)
    assert copy == tree and copy is not tree
    for original, copied in [(tree, copy), (tree["b"], copy["b"]), (tree["b"][1], copy["b"][1]),
                             (tree["b"][1]["k"], copy["b"][1]["k"])]:
        assert location(copied) == location(original)
    assert location(copy["b"]) == ("data/x.yaml", 3)
    assert location(copy["b"][1]["k"]) == ("data/x.yaml", 4)
    assert [location(copy["b"], i) for i in (0, 1)] == [("data/x.yaml", 3), ("data/x.yaml", 4)]


def test_operations_that_are_no_list_are_named_at_the_ops_line(cards):
    """``ops: draw`` (text, not a list): the problem names the line of ``ops``, not the effect's."""
    line = cards.edit("scenes/S-003.yaml", "    ops:\n      - {op: draw, count: 2}\n", "    ops: draw\n")
    assert cards.errors() == [f"{cards.label('scenes/S-003.yaml')}:{line}: ops must be a "
                              "list of operations, got text 'draw'"]
