"""Entries of the rules reference (fate_royal/cards/reference.py, the file
``cards/rules-reference.yaml``): a loaded entry keeps every field it was given, and a refused one is
named at the line of the key at fault, wherever that key stands in the entry; broken YAML is
reported with the parser's own words, not a dump of the exception."""

from __future__ import annotations

import pytest

from fate_royal.cards.reference import RulesReferenceError, load_reference

B1 = ("  - id: B1\n    layer: base\n    title_ja: 構成物\n    title_en: Components\n"
      "    text_ja: カードは100枚。\n    text_en: There are 100 cards.\n")


def body_lines(**fields: str) -> str:
    """An entry with its keys in the order given (id need not come first)."""
    lines = [f"{k}: {v}" for k, v in fields.items()]
    return "  - " + "\n    ".join(lines) + "\n"


def refusal(tmp_path, body: str) -> tuple[int | None, str]:
    path = tmp_path / "rules-reference.yaml"
    path.write_text("format: 1\nrules:\n" + body, encoding="utf-8")
    with pytest.raises(RulesReferenceError) as info:
        load_reference(path)
    error = info.value
    assert error.path == str(path)
    assert str(error) == (f"{path}:{error.line}: {error.problem}" if error.line
                          else f"{path}: {error.problem}")
    return error.line, error.problem


BASE = dict(layer="base", title_ja="題", title_en="Title", text_ja="本文。", text_en="Body.")


def test_a_loaded_entry_keeps_every_field(tmp_path):
    path = tmp_path / "rules-reference.yaml"
    path.write_text("format: 1\nrules:\n" + B1 + body_lines(
        id="E1", layer="errata", title_ja="題", title_en="  Title  ", text_ja="本文。",
        text_en="Body.", source="house-errata.ja.txt line 3", errata_off_ja="なし",
        errata_off_en="nothing", note_ja="注", note_en="a note", see="[B1]")
        + body_lines(id="D1", layer="default", title_ja="題", title_en="T", text_ja="本文。",
                     text_en="Body.", params="[deck_min_size, start_command_spells]",
                     note_ja="再構成", note_en="reconstructed"),
        encoding="utf-8")
    ref = load_reference(path)
    assert ref.ids() == ["B1", "E1", "D1"]
    e1, d1 = ref.get("E1"), ref.get("D1")
    assert (e1.id, e1.layer, e1.title_en, e1.text_ja, e1.text_en) == (
        "E1", "errata", "Title", "本文。", "Body.")
    assert (e1.source, e1.errata_off_ja, e1.errata_off_en, e1.note_ja, e1.note_en) == (
        "house-errata.ja.txt line 3", "なし", "nothing", "注", "a note")
    assert e1.see == ("B1",) and e1.params == () and e1.line == 9
    assert d1.params == ("deck_min_size", "start_command_spells") and d1.line == 21
    assert (d1.source, d1.errata_off_en, d1.see) == (None, None, ())
    assert ref.get("B1").line == 3 and ref.get("B1").note_en is None


def test_a_bad_id_is_named_at_the_id_line(tmp_path):
    body = B1 + body_lines(**BASE, id="X1")
    assert refusal(tmp_path, body) == (
        14, "bad rule id 'X1'; expected e.g. B1, E1.4, E6.ex1, D12, P3")


def test_a_second_entry_of_an_id_is_named_at_its_id_line(tmp_path):
    body = B1 + body_lines(**BASE, id="B1")
    assert refusal(tmp_path, body) == (14, "rule B1 appears twice (first at line 3)")


def test_a_rule_before_its_group_is_named_at_its_id_line(tmp_path):
    body = B1 + body_lines(**dict(BASE, layer="errata"), id="E1.1")
    assert refusal(tmp_path, body) == (14, "rule E1.1 comes before (or without) its group E1")


def test_a_wrong_layer_is_named_at_the_layer_line(tmp_path):
    body = B1 + body_lines(title_ja="題", id="B2", title_en="T", text_ja="本文。", text_en="Body.",
                           layer="errata")
    assert refusal(tmp_path, body) == (14, "rule B2: layer must be 'base' for a B rule, got 'errata'")


def test_a_missing_key_is_named_at_the_entry(tmp_path):
    fields = dict(BASE, id="B2")
    del fields["text_ja"]
    assert refusal(tmp_path, B1 + body_lines(**fields)) == (9, "rule B2: missing key 'text_ja'")


@pytest.mark.parametrize("fields, line, problem", [
    (dict(id="B2", note_ja="注"), 9, "rule B2: give note_ja and note_en together"),
    (dict(id="B2", errata_off_en="x", errata_off_ja="x"), 16,
     "rule B2: errata_off_* belongs to E rules only"),
    (dict(id="B2", see="[B1, B1]"), 15, "rule B2: see names something twice"),
    (dict(id="B2", see="[B1, '']"), 15, "rule B2: see must be a list of names, got ['B1', '']"),
    (dict(id="B2", params="[deck_min_siz]"), 15,
     "rule B2: unknown rules-profile parameter 'deck_min_siz' (did you mean 'deck_min_size'?)"),
    (dict(id="R1", layer="reading"), 9,
     "rule R1: a reading must name the sentence it reads (source)"),
    (dict(id="R1", layer="reading", source="s"), 9,
     "rule R1: a reading needs note_ja/note_en naming its choices and default"),
    (dict(id="R1", layer="reading", source="s", note_ja="n", note_en="n"), 9,
     "rule R1: a reading must name the rule it reads (see)"),
    (dict(id="D1", layer="default", params="[deck_min_size]"), 9,
     "rule D1: a D rule needs note_ja/note_en saying it is a reconstructed default"),
])
def test_what_each_layer_must_carry(tmp_path, fields, line, problem):
    assert refusal(tmp_path, B1 + body_lines(**dict(BASE, **fields))) == (line, problem)


def test_broken_yaml_gives_the_parsers_problem_at_its_line(tmp_path):
    assert refusal(tmp_path, B1 + "  - id: [B2\n") == (
        10, "not valid YAML: did not find expected ',' or ']'")
    assert refusal(tmp_path, B1 + "  - !!python/object/apply:os.system [true]\n") == (
        9, "not valid YAML: could not determine a constructor for the tag "
           "'tag:yaml.org,2002:python/object/apply:os.system'")
