"""The user's own errata patches (cards/patches.py), what the patch form stands on: the pack file is
written one key a line, read back as plain patches, and checked exactly as the loader would check it,
each problem placed on the field (patch index, key) it is about; problems elsewhere are listed with
their real file and line. Also the field paths a patch may name."""

from __future__ import annotations

import pytest

from fate_royal.cards import DataErrors, RuleSet, load_card_db
from fate_royal.cards.patches import (
    check_patches, field_paths, pack_text, read_user_patches, save_user_patches, user_pack_path,
)

GOOD = {"id": "mine-1", "rule": "E9.1", "source": "our table", "card": "H-001", "path": "stats.pa",
        "expect": 6, "set": 5}


@pytest.fixture
def user_folder(tmp_path, monkeypatch):
    """A user data folder of the test's own, with its errata folder."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    folder = user_pack_path().parent
    folder.mkdir(parents=True)
    assert str(folder).startswith(str(tmp_path))
    return folder


# --- the pack file ---------------------------------------------------------------------------------


def test_the_pack_is_written_one_key_a_line_form_keys_first():
    """The form's keys in their order (id, rule, source, card, path, expect, set), then any other
    key in the patch's order; values in YAML flow style, Japanese kept as it is; ``where`` maps each
    line to its (patch, key)."""
    first = {"note": "n", "set": [{"op": "draw", "count": 1}], "card": "M-007", "id": "a",
             "path": "effects.1.ops", "expect": {"count": 1}, "rule": "E9.1",
             "source": "効果を変更する"}
    second = {"append": 1, "id": "b"}
    text, where = pack_text([first, second], title="卓のルール")
    assert text == (
        "pack: mine\n"
        "title: 卓のルール\n"
        "patches:\n"
        "  - id: a\n"
        "    rule: E9.1\n"
        "    source: 効果を変更する\n"
        "    card: M-007\n"
        "    path: effects.1.ops\n"
        "    expect: {count: 1}\n"
        "    set: [{count: 1, op: draw}]\n"
        "    note: n\n"
        "  - id: b\n"
        "    append: 1\n")
    assert where == {4: (0, "id"), 5: (0, "rule"), 6: (0, "source"), 7: (0, "card"),
                     8: (0, "path"), 9: (0, "expect"), 10: (0, "set"), 11: (0, "note"),
                     12: (1, "id"), 13: (1, "append")}


def test_values_are_written_so_that_they_read_back_the_same():
    import yaml

    long = "a source sentence " * 10  # longer than a YAML line would be folded at
    patch = {"id": "x", "source": long.strip(), "expect": None, "set": True, "rule": "yes",
             "card": "1.0", "path": "a: b"}
    text, where = pack_text([patch])
    assert len(text.splitlines()) == 3 + len(patch) == max(where)
    assert yaml.safe_load(text)["patches"] == [patch]
    assert "    expect: null\n" in text and "    set: true\n" in text


def test_a_pack_without_a_title_gets_the_default_title():
    assert pack_text([])[0] == "pack: mine\ntitle: house rules of this table\npatches: []\n"
    assert pack_text([])[1] == {}


def test_text_ending_in_an_ellipsis_is_kept():
    """YAML's document-end marker ``...`` is taken off a plain value, never the text's own ellipsis
    (it used to be: a source "see the card..." was saved as "see the card")."""
    text, _ = pack_text([{"id": "x", "source": "see the card..."}])
    assert "    source: see the card...\n" in text


def test_saved_patches_read_back_from_the_user_folder(user_folder):
    patches = [dict(GOOD), {"id": "mine-2", "rule": "E9.2", "source": "s", "card": "H-002",
                            "path": "effects.1.ops", "expect": [{"op": "draw", "count": 1}],
                            "set": []}]
    assert read_user_patches() == []  # no pack yet
    path = save_user_patches(patches)
    assert path == user_pack_path() and path.is_file()
    assert read_user_patches() == patches
    assert read_user_patches(path) == patches
    assert all(type(p) is dict for p in read_user_patches())


def test_read_user_patches_reads_the_file_it_is_given(user_folder, tmp_path):
    save_user_patches([dict(GOOD)])
    elsewhere = tmp_path / "elsewhere.yaml"
    save_user_patches([dict(GOOD, id="other")], elsewhere)
    assert [p["id"] for p in read_user_patches(elsewhere)] == ["other"]
    assert [p["id"] for p in read_user_patches()] == ["mine-1"]
    assert read_user_patches(tmp_path / "missing.yaml") == []


def test_read_user_patches_keeps_only_patch_mappings(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("pack: p\npatches:\n  - {id: a}\n  - just text\n  - [1]\n  - {id: b}\n", "utf-8")
    assert read_user_patches(path) == [{"id": "a"}, {"id": "b"}]
    path.write_text("pack: p\ntitle: no patches\n", "utf-8")
    assert read_user_patches(path) == []
    path.write_text("- a\n- b\n", "utf-8")
    assert read_user_patches(path) == []


# --- checking --------------------------------------------------------------------------------------


def test_a_good_patch_checks_and_the_card_data_has_it(user_folder):
    db, fields, other = check_patches([dict(GOOD)])
    assert (fields, other) == ({}, [])
    assert db is not None and db.card("H-001").stats.pa == 5


def test_the_rule_set_decides_whether_the_patch_applies(user_folder):
    db, fields, other = check_patches([dict(GOOD)], rules=RuleSet.house().with_(off=["mine-1"]))
    assert (fields, other) == ({}, []) and db.card("H-001").stats.pa == 6
    db, _, _ = check_patches([dict(GOOD)], rules=RuleSet.house())
    assert db.card("H-001").stats.pa == 5


def test_each_problem_is_placed_on_its_patch_and_field(user_folder):
    """Every problem the loader finds is given, on the line's field, not only the first."""
    patches = [dict(GOOD, expect=7), dict(GOOD, id="mine-2", card="H-999")]
    db, fields, other = check_patches(patches)
    assert db is None and other == []
    assert set(fields) == {(0, "expect"), (1, "card")}
    assert "stats.pa is 6, not the expected 7" in fields[(0, "expect")]
    assert fields[(1, "card")].startswith("patch mine-2 names card 'H-999', which does not exist")


@pytest.mark.parametrize("key", ["id", "rule", "source", "card", "path"])
def test_a_missing_key_is_required_on_its_own_field(user_folder, key):
    patch = {k: v for k, v in GOOD.items() if k != key}
    db, fields, other = check_patches([patch])
    assert db is None and other == []
    assert fields[(0, key)] == f"{key} is required"
    assert any(f"missing required key '{key}'" in m for m in fields.values())


def test_blank_values_are_missing_too(user_folder):
    db, fields, _ = check_patches([dict(GOOD, rule="", source="   ")])
    assert db is None
    assert fields == {(0, "rule"): "rule is required", (0, "source"): "source is required"}


def test_the_rule_must_be_an_errata_rule(user_folder):
    """A patch must belong to an E rule (it is off with it); spaces around the id are taken off."""
    pd = load_card_db(errata=False, patch_files=[]).card("H-001").stats.pd
    spaced = dict(GOOD, id="mine-2", rule=" E9.2 ", path="stats.pd", expect=pd, set=pd + 1)
    db, fields, other = check_patches([dict(GOOD, rule="B3"), spaced])
    assert db is None and other == []
    assert fields == {(0, "rule"): "rule 'B3' is not an errata rule (E1.1 … E9.7)"}


def test_a_pack_without_patches_is_a_valid_pack(user_folder):
    """Deleting the last patch in the editor saves a pack with none: it is written ``patches: []``
    and loads (it used to be ``patches:`` with no value, which the loader refused, so every later
    start failed to load the card data)."""
    path = save_user_patches([])
    assert "patches: []" in path.read_text("utf-8")
    assert read_user_patches() == []
    assert load_card_db().card("H-001").stats.pa == 6


def test_a_problem_after_a_text_of_several_lines_stays_on_its_field(user_folder):
    """A text with a line break is written on one line (a JSON string, valid YAML), so the map of
    lines to fields holds and the problem lands on ``card``; the text reads back unchanged."""
    db, fields, _ = check_patches([dict(GOOD, source="line one\nline two", card="H-999")])
    assert set(fields) == {(0, "card")}
    save_user_patches([dict(GOOD, source="line one\nline two")])
    assert read_user_patches()[0]["source"] == "line one\nline two"


def test_problems_of_another_user_pack_are_listed_with_their_own_file_and_line(user_folder):
    other_pack = user_folder / "friends.yaml"
    other_pack.write_text("pack: friends\ntitle: t\npatches:\n  - id: f-1\n    rule: E9.2\n"
                          "    source: s\n    card: H-002\n    path: stats.pa\n    colour: red\n"
                          "    expect: 5\n    set: 4\n", "utf-8")
    db, fields, other = check_patches([dict(GOOD)])
    assert db is None and fields == {}
    assert other == [f"{other_pack.as_posix()}:9: unknown key 'colour' in errata patch"]


def test_the_pack_being_edited_is_checked_in_place_of_its_saved_version(user_folder):
    """The saved pack is left out (its patches are the ones being edited), by default path or the
    path given; other user packs still apply."""
    save_user_patches([dict(GOOD)])
    for path in (None, user_pack_path()):
        db, fields, other = check_patches([dict(GOOD, set=4)], path=path)
        assert (fields, other) == ({}, []) and db.card("H-001").stats.pa == 4
    elsewhere = user_folder / "second.yaml"
    save_user_patches([dict(GOOD, id="mine-2", card="H-002", expect=load_card_db(
        errata=False, patch_files=[]).card("H-002").stats.pa)], elsewhere)
    db, fields, other = check_patches([dict(GOOD)], path=elsewhere)  # mine.yaml applies now
    assert db is None and other == [] and set(fields) == {(0, "id")}
    assert fields[(0, "id")].startswith("duplicate patch id 'mine-1'")


# --- field paths -----------------------------------------------------------------------------------


def test_field_paths_list_every_key_and_item_in_file_order_but_the_id(cards):
    cards.path("scenes/S-009.yaml").write_text(
        "id: S-009\nkind: scene\nname: 試験\nname_en: Test\neffects:\n  - name: 一\n"
        "    timing: activated\n    cost: {value: null, provenance: provisional, note: unknown}\n"
        "    ops:\n      - {op: draw, count: 2}\n      - {op: recover, amount: 1}\n"
        "  - name: 二\n    timing: activated\n    ops: [{op: draw, count: 1}]\n", "utf-8")
    card = load_card_db(cards.root).card("S-009")
    assert field_paths(card) == [
        "kind", "name", "name_en", "effects",
        "effects.1", "effects.1.name", "effects.1.timing", "effects.1.cost", "effects.1.ops",
        "effects.1.ops.1", "effects.1.ops.1.op", "effects.1.ops.1.count",
        "effects.1.ops.2", "effects.1.ops.2.op", "effects.1.ops.2.amount",
        "effects.2", "effects.2.name", "effects.2.timing", "effects.2.ops",
        "effects.2.ops.1", "effects.2.ops.1.op", "effects.2.ops.1.count",
    ]


def test_field_paths_of_a_shipped_card_do_not_depend_on_the_working_folder(tmp_path, monkeypatch):
    card = load_card_db().card("S-003")
    assert not card.source_file.startswith("/")  # shipped cards name their file relative
    monkeypatch.chdir(tmp_path)
    paths = field_paths(card)
    assert paths[:4] == ["kind", "name", "name_en", "effects"]
    assert "effects.1.ops.1.count" in paths and "id" not in paths


def test_a_field_message_names_the_users_pack_not_the_temporary_copy(user_folder):
    """check_patches loads a temporary copy of the pack; a message that points at another line
    (a duplicate id) names the user's pack file, not that copy (which is gone by then)."""
    db, fields, other = check_patches([dict(GOOD), dict(GOOD)])
    assert db is None and other == []
    assert fields == {(1, "id"): f"duplicate patch id 'mine-1' (also at "
                                 f"{user_pack_path().as_posix()}:4)"}


def test_a_pack_emptied_by_an_older_version_still_loads(user_folder):
    """Before 2026-12-06 the editor wrote an emptied pack as ``patches:`` with nothing after it,
    and the loader refused it, so the table could not start at all; such a file is now a pack
    without patches. Other wrong values of ``patches`` are still refused."""
    path = user_pack_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("pack: mine\ntitle: house rules of this table\npatches:\n", "utf-8")
    assert load_card_db().card("H-001").stats.pa == 6
    assert read_user_patches() == []
    path.write_text("pack: mine\ntitle: t\npatches: 5\n", "utf-8")
    with pytest.raises(DataErrors) as exc:
        load_card_db()
    assert f"{path.as_posix()}:3: patches must be a list, got integer 5" in str(exc.value)
