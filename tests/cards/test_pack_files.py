"""A card pack file as a friend sends it (issue 16): what ``read_pack_text`` accepts and what it
refuses, each refusal naming the file, the line and the key (``file:line: message``), every problem
of the file at once; where import and export read and write; what the unknown list says.

The outer shape is checked before any card is loaded: these packs need no card data, except where a
test imports or exports."""

from __future__ import annotations

import dataclasses

import pytest

from fate_royal.cards import DataErrors, load_card_db
from fate_royal.cards.pack import (
    MAX_PACK_BYTES, PACK_FORMAT, dump_pack, empty_pack, export_pack, import_pack, plan_import,
    read_pack, read_pack_text, save_pack, unknown_list, with_card,
)
from packhelp import NEW_CODE

LABEL = "from-a-friend.yaml"
HEAD = f"format: {PACK_FORMAT}\n"
KEYS = "format, version, title, note, cards, replaces"


def refused(text: str | bytes) -> list[tuple[int, str]]:
    """(line, message) of every error ``read_pack_text`` gives, each checked to name the file."""
    with pytest.raises(DataErrors) as info:
        read_pack_text(text, LABEL)
    errors = info.value.errors
    assert errors, "DataErrors without errors"
    for e in errors:
        assert e.file == LABEL, str(e)
        assert str(e) == f"{LABEL}:{e.line}: {e.message}"
    return [(e.line, e.message) for e in errors]


def card(cid: str, extra: str = "") -> str:
    return f"  - id: {cid}\n    kind: mystic_code\n    name: x\n{extra}"


# --- what a pack may hold -------------------------------------------------------------------------


def test_a_minimal_pack_is_accepted_with_empty_title_note_and_cards():
    """format alone is a pack: no version (version 1 is assumed), no cards, no title, no note."""
    pack = read_pack_text(HEAD, LABEL)
    assert pack.cards == [] and pack.replaces == {}
    assert pack.title == "" and pack.note == ""
    assert pack.source == LABEL


def test_a_full_pack_keeps_its_cards_title_note_and_replaces():
    """Every allowed key, with ``provenance: entered`` written out (dropped from the card, as every
    card of a pack is entered) and ``replaces`` read as plain data."""
    text = (HEAD + "version: 1\ntitle: Our cards\nnote: typed in on Sunday\ncards:\n"
            + card("M-950", "    provenance: entered\n") + card("M-951")
            + "replaces:\n  M-950: {id: M-950, kind: mystic_code, name: old}\n")
    pack = read_pack_text(text, LABEL)
    assert pack.ids() == ["M-950", "M-951"]
    assert all("provenance" not in c for c in pack.cards)
    assert pack.card("M-951")["name"] == "x"
    assert pack.title == "Our cards" and pack.note == "typed in on Sunday"
    assert pack.replaces == {"M-950": {"id": "M-950", "kind": "mystic_code", "name": "old"}}
    assert type(pack.replaces["M-950"]) is dict
    assert pack.source == LABEL


def test_a_null_title_or_note_is_no_title_or_note():
    pack = read_pack_text(HEAD + "title: null\nnote:\n", LABEL)
    assert pack.title == "" and pack.note == ""


def test_the_pack_text_given_as_bytes_or_text_reads_the_same():
    text = HEAD + "title: 礼装\ncards:\n" + card("M-950")
    assert read_pack_text(text.encode("utf-8"), LABEL).ids() == read_pack_text(text, LABEL).ids()


def test_exactly_200_cards_are_accepted():
    text = HEAD + "cards:\n" + "".join(f"  - {{id: M-{i:03d}, kind: mystic_code, name: x}}\n"
                                       for i in range(200))
    assert len(read_pack_text(text, LABEL).cards) == 200


def test_a_pack_of_exactly_the_size_limit_is_read():
    text = HEAD + "note: '"
    text += "x" * (MAX_PACK_BYTES - len(text) - 2) + "'\n"
    assert len(text.encode("utf-8")) == MAX_PACK_BYTES
    assert len(read_pack_text(text, LABEL).note) > 2_000_000


# --- what it refuses, and where it says the problem is ------------------------------------------


def test_a_too_large_pack_is_refused_before_it_is_parsed():
    """The size is counted in UTF-8 bytes, whole KB in the message; the file is not parsed (a
    broken YAML file of that size gives only this error)."""
    data = b"format: [" + b"x" * (3 * 1024 * 1024)
    assert refused(data) == [(0, "a card pack is at most 2048 KB (this file has 3072 KB)")]
    text = "note: " + "あ" * (MAX_PACK_BYTES // 3 + 1000)  # fewer characters than bytes
    assert len(text) < MAX_PACK_BYTES < len(text.encode("utf-8"))
    assert refused(text) == [(0, "a card pack is at most 2048 KB (this file has 2050 KB)")]


def test_a_yaml_syntax_error_is_reported_at_its_line():
    errors = refused(HEAD + "cards:\n  - id: [M-950\n")
    assert len(errors) == 1 and errors[0][1].startswith("YAML syntax error")
    assert errors[0][0] >= 3


def test_a_file_that_is_not_a_mapping_is_refused_at_line_1():
    message = f"a card pack is a mapping with format: {PACK_FORMAT} and cards: [...]"
    assert refused("- 1\n- 2\n") == [(1, message)]
    assert refused("just some text\n") == [(1, message)]


def test_unknown_keys_are_each_named_at_their_line_with_the_allowed_keys():
    text = HEAD + "cards: []\nauthor: me\nvarsion: 1\n"
    assert refused(text) == [
        (3, f"unknown key 'author' in a card pack (keys: {KEYS})"),
        (4, f"unknown key 'varsion' in a card pack (keys: {KEYS})"),
    ]


def test_a_wrong_format_is_reported_at_the_format_line():
    text = "# a pack\ntitle: mine\nformat: fate_royal-rule-set\n"
    assert refused(text) == [(3, f"not a card pack: format must be {PACK_FORMAT}")]


def test_a_missing_format_is_reported_where_the_mapping_starts():
    assert refused("# a pack\n\ntitle: mine\ncards: []\n") == [
        (3, f"not a card pack: format must be {PACK_FORMAT}")]


def test_another_version_is_refused_at_its_line():
    assert refused(HEAD + "title: t\nversion: 2\n") == [
        (3, "card pack version 2 is not supported (this program reads version 1)")]
    assert refused(HEAD + "version: '1'\n") == [
        (2, "card pack version '1' is not supported (this program reads version 1)")]


def test_title_and_note_must_be_text():
    assert refused(HEAD + "title: 5\nnote: [a, b]\n") == [(2, "title must be text"),
                                                        (3, "note must be text")]
    assert refused(HEAD + "note: {a: 1}\n") == [(2, "note must be text")]


def test_cards_must_be_a_list():
    assert refused(HEAD + "title: t\ncards: {id: M-950}\n") == [(3, "cards must be a list of cards")]
    assert refused(HEAD + "cards: M-950\n") == [(2, "cards must be a list of cards")]


def test_more_than_200_cards_are_refused_at_the_cards_key():
    text = HEAD + "title: t\ncards:\n" + "".join(
        f"  - {{id: M-{i:03d}, kind: mystic_code, name: x}}\n" for i in range(201))
    assert refused(text) == [(3, "a card pack holds at most 200 cards")]


def test_every_item_that_is_not_a_card_mapping_is_reported_and_the_rest_still_checked():
    text = (HEAD + "cards:\n  - just text\n" + card("M-950", "    provenance: printed\n")
            + "  - [a list]\n" + card("M-951", "    provenance: provisional\n"))
    assert refused(text) == [
        (3, "cards item 1 must be a card mapping"),
        (7, "the cards of a personal pack are entered by hand: provenance must be entered, "
            "not 'printed'"),
        (8, "cards item 3 must be a card mapping"),
        (12, "the cards of a personal pack are entered by hand: provenance must be entered, "
             "not 'provisional'"),
    ]


def test_a_card_twice_names_the_line_of_its_first_copy():
    text = HEAD + "cards:\n" + card("M-950") + card("M-951") + card("M-950") + card("M-950")
    assert refused(text) == [(9, "card M-950 is in the pack twice (also at line 3)"),
                             (12, "card M-950 is in the pack twice (also at line 3)")]


def test_replaces_must_be_a_mapping():
    message = "replaces must map card ids to the shipped definitions they replace"
    assert refused(HEAD + "cards:\n" + card("M-950") + "replaces: 5\n") == [(6, message)]
    assert refused(HEAD + "cards: []\nreplaces: [M-950]\n") == [(3, message)]


def test_replaces_may_only_name_cards_of_the_pack_each_with_a_definition():
    text = (HEAD + "cards:\n" + card("M-950") + card("M-951")
            + "replaces:\n  M-951: {id: M-951}\n  M-999: {id: M-999}\n  M-950: 5\n")
    assert refused(text) == [
        (11, "replaces names M-999, which is not a card of this pack"),
        (12, "replaces.M-950 must be the shipped card's definition"),
    ]


def test_all_problems_of_a_file_are_reported_together_in_file_order():
    text = ("format: other\nversion: 3\ntitle: 1\nextra: x\ncards:\n  - 7\n"
            + "replaces: {M-950: {}}\n")
    assert [line for line, _ in refused(text)] == [4, 1, 2, 3, 6, 7]


# --- import and export: which files they read and write ------------------------------------------


@pytest.fixture
def my_pack(tmp_path, monkeypatch):
    path = tmp_path / "data" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(path))
    return path


def other_code(cid: str = "M-951", name: str = "別の礼装") -> dict:
    return dict(NEW_CODE, id=cid, name=name, name_en="Other Code")


def test_import_into_another_target_reads_and_writes_only_that_target(my_pack, tmp_path):
    """``target``: the pack merged is that file (not the personal pack), and only it is written."""
    save_pack(with_card(empty_pack(), NEW_CODE))  # the personal pack holds M-002
    before = my_pack.read_bytes()
    target = tmp_path / "elsewhere" / "table-pack.yaml"
    save_pack(with_card(empty_pack(), other_code("M-952", "三つ目")), target)
    incoming = tmp_path / "incoming.yaml"
    save_pack(with_card(empty_pack(), other_code()), incoming)

    plan = plan_import(incoming, target)
    assert plan.merged.ids() == ["M-952", "M-951"]
    assert plan.adds == ["M-951"] and plan.replaces_personal == [] and plan.overrides_shipped == []
    assert my_pack.read_bytes() == before and read_pack(target).ids() == ["M-952"]

    import_pack(incoming, target)
    assert read_pack(target).ids() == ["M-952", "M-951"]
    assert my_pack.read_bytes() == before


def test_importing_a_card_the_target_has_replaces_it_there(my_pack, tmp_path):
    target = tmp_path / "table-pack.yaml"
    save_pack(with_card(empty_pack(), other_code(name="古い名前")), target)
    incoming = tmp_path / "incoming.yaml"
    save_pack(with_card(empty_pack(), other_code(name="新しい名前")), incoming)
    plan = import_pack(incoming, target)
    assert plan.replaces_personal == ["M-951"] and plan.adds == []
    assert read_pack(target).card("M-951")["name"] == "新しい名前"
    assert not my_pack.exists()


def test_a_merge_keeps_the_targets_title_note_and_corrections(my_pack, tmp_path):
    """The target's title and note win over the incoming pack's (which fill in what the target
    lacks); corrections of shipped cards recorded in either are kept; the merged pack is labelled
    with the incoming file."""
    from fate_royal.cards.pack import shipped_card_tree

    hero = shipped_card_tree("H-002")
    hero["note"] = "checked against my card"
    target = tmp_path / "table-pack.yaml"
    mine = dataclasses.replace(with_card(empty_pack(), hero), title="", note="our table's cards")
    save_pack(mine, target)
    theirs = dataclasses.replace(with_card(empty_pack(), other_code()), title="Friends' pack",
                                 note="their note")
    incoming = tmp_path / "incoming.yaml"
    save_pack(theirs, incoming)
    plan = plan_import(incoming, target)
    assert (plan.merged.title, plan.merged.note) == ("Friends' pack", "our table's cards")
    assert plan.merged.source == incoming.as_posix()
    assert set(plan.merged.replaces) == {"H-002"}
    assert plan.merged.replaces["H-002"] == read_pack(target).replaces["H-002"]
    import_pack(incoming, target)
    saved = read_pack(target)
    assert saved.ids() == ["H-002", "M-951"] and set(saved.replaces) == {"H-002"}
    assert (saved.title, saved.note) == ("Friends' pack", "our table's cards")


def test_import_into_a_target_that_does_not_exist_yet_creates_it(my_pack, tmp_path):
    save_pack(with_card(empty_pack(), NEW_CODE))
    target = tmp_path / "new" / "pack.yaml"
    incoming = tmp_path / "incoming.yaml"
    save_pack(with_card(empty_pack(), other_code()), incoming)
    plan = import_pack(incoming, target)
    assert plan.adds == ["M-951"] and plan.merged.ids() == ["M-951"]
    assert read_pack(target).ids() == ["M-951"]
    assert read_pack().ids() == ["M-002"]


def test_export_of_another_pack_validates_that_pack(my_pack, tmp_path):
    """A pack whose outer shape is fine but whose card is not is not exported (the personal pack,
    valid here, is not what is checked)."""
    save_pack(with_card(empty_pack(), NEW_CODE))
    broken = tmp_path / "broken.yaml"
    broken.write_text(HEAD + "cards:\n" + card("M-950", "    effects:\n      - name: e\n"
                      "        timing: activated\n        ops: [{op: draw, count: 9999}]\n"),
                      "utf-8")
    dest = tmp_path / "share" / "out.yaml"
    with pytest.raises(DataErrors) as info:
        export_pack(dest, broken)
    assert info.value.errors[0].file == broken.as_posix()
    assert "count" in str(info.value)
    assert not dest.exists()


def test_export_of_another_pack_writes_that_pack(my_pack, tmp_path):
    save_pack(with_card(empty_pack(), NEW_CODE))
    source = tmp_path / "other.yaml"
    save_pack(with_card(empty_pack(), other_code()), source)
    dest = tmp_path / "share" / "deep" / "out.yaml"
    assert export_pack(dest, source) == dest
    assert dest.read_text("utf-8") == dump_pack(read_pack(source))
    export_pack(dest, source)  # the folder exists now: exporting again is fine
    assert read_pack(dest).ids() == ["M-951"]


def test_import_checks_against_the_card_folder_it_is_given(my_pack, tmp_path, cards):
    """``root``: the card data the pack joins. Its own cards are what a pack card corrects, and its
    chip sheet is what the pack's cards may name; the personal pack is not touched."""
    cards.edit("chips.yaml", "chips:\n", "chips:\n  - id: stone_golem\n    name: 石の巨人\n"
               "    stats: {pa: 5, pd: 5, ma: 0, md: 0}\n")
    cards.path("mystic_codes/M-960.yaml").write_text(
        "id: M-960\nkind: mystic_code\nname: folder code\n", "utf-8")
    golem = {"id": "M-960", "kind": "mystic_code", "name": "石の礼装", "effects": [
        {"name": "召喚", "timing": "activated", "ops": [{"op": "proxy", "chip": "stone_golem"}]}]}
    incoming = tmp_path / "incoming.yaml"
    incoming.write_text(dump_pack(with_card(empty_pack(), golem)), "utf-8")
    with pytest.raises(DataErrors, match="stone_golem"):
        plan_import(incoming)  # the shipped data has no such chip
    target = tmp_path / "table" / "pack.yaml"
    plan = plan_import(incoming, target, root=cards.root)
    assert plan.overrides_shipped == ["M-960"] and plan.adds == []
    assert plan.db.card("M-960").name == "石の礼装"
    import_pack(incoming, target, root=cards.root)
    assert read_pack(target).ids() == ["M-960"]
    assert not my_pack.exists()


# --- the unknown list ------------------------------------------------------------------------------


def test_the_unknown_list_names_card_field_and_why_in_card_order():
    """A provisional card is listed as ``*`` with its note (else "provisional card"); a provisional
    field with its note, or "" when none was recorded; a not yet playable effect as such."""
    db = load_card_db(pack=False)
    m006, m007, h001 = db.card("M-006"), db.card("M-007"), db.card("H-001")
    effect = dataclasses.replace(m007.effects[0], unplayable=True)
    cards = {  # deliberately not in id order
        "M-007": dataclasses.replace(m007, provenance={}, effects=(effect,) + m007.effects[1:]),
        "M-006": dataclasses.replace(m006, provenance_default="provisional", note="",
                                     provenance={"stats.pa": "provisional",
                                                 "stats.md": "provisional"},
                                     notes={"stats.md": "a guess"}),
        "H-001": dataclasses.replace(h001, provenance_default="provisional",
                                     note="whole card guessed", provenance={}),
    }
    fake = dataclasses.replace(db, cards=cards)
    assert unknown_list(fake) == [
        ("H-001", "*", "whole card guessed"),
        ("M-006", "*", "provisional card"),
        ("M-006", "stats.md", "a guess"),
        ("M-006", "stats.pa", ""),
        ("M-007", f"effects.{effect.index}", "not yet playable"),
    ]
