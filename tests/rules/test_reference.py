"""The rules reference (cards/rules-reference.yaml) covers every rule id and loads strictly."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest
import yaml

from fate_royal.cards.profile import PARAMETERS
from fate_royal.cards.reference import (
    LANGS,
    Rule,
    RulesReference,
    RulesReferenceError,
    UnknownRuleError,
    default_path,
    load_reference,
    reference,
)

# Every rule id of the spec's rules.md (kept here: the spec is not part of a user's clone).
BASE_IDS = [f"B{n}" for n in range(1, 13)]
ERRATA_IDS = (
    ["E1"] + [f"E1.{n}" for n in range(1, 10)]
    + ["E2"] + [f"E2.{n}" for n in range(1, 5)]
    + ["E3"]
    + ["E4", "E4.1", "E4.2"]
    + ["E5"]
    + ["E6"] + [f"E6.{n}" for n in range(1, 6)] + ["E6.ex1", "E6.ex2"]
    + ["E7", "E7.1", "E7.2"]
    + ["E8"]
    + ["E9"] + [f"E9.{n}" for n in range(1, 8)]
)
DEFAULT_IDS = [f"D{n}" for n in range(1, 17)]
SPEC_IDS = BASE_IDS + ERRATA_IDS + DEFAULT_IDS
E_GROUPS = [i for i in ERRATA_IDS if "." not in i]

# The project's own rules (P1..) that the engine cites where the spec is silent.
PROJECT_IDS = [f"P{n}" for n in range(1, 8)]


@pytest.fixture(scope="module")
def ref() -> RulesReference:
    return load_reference()


def test_every_rule_id_of_the_spec_is_present(ref):
    missing = [i for i in SPEC_IDS if i not in ref]
    assert not missing, f"rules-reference.yaml lacks {missing}"


def test_no_rule_id_beyond_the_spec_except_project_choices(ref):
    extra = [i for i in ref.ids() if i not in SPEC_IDS]
    assert all(re.fullmatch(r"[PR][1-9][0-9]*", i) for i in extra), extra
    assert set(PROJECT_IDS) <= set(ref.ids())


def test_layers_follow_the_id_prefix(ref):
    expected = {"B": "base", "E": "errata", "D": "default", "P": "project", "R": "reading"}
    for rule in ref:
        assert rule.layer == expected[rule.id[0]], rule.id


def test_both_languages_are_present_for_every_rule(ref):
    for rule in ref:
        for lang in LANGS:
            assert rule.title(lang).strip(), (rule.id, lang, "title")
            assert rule.text(lang).strip(), (rule.id, lang, "text")
        # the Japanese text is Japanese, the English text is not
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", rule.text("ja")), rule.id
        assert re.search(r"[A-Za-z]{3}", rule.text("en")), rule.id


def test_d_rules_name_existing_profile_parameters_and_say_they_are_reconstructed(ref):
    for rule_id in DEFAULT_IDS:
        rule = ref.get(rule_id)
        assert rule.params, rule_id
        for name in rule.params:
            assert name in PARAMETERS, (rule_id, name)
            assert PARAMETERS[name].rule == rule_id, (rule_id, name, PARAMETERS[name].rule)
        assert rule.reconstructed
        assert "reconstructed default" in rule.note("en").lower(), rule_id
        assert "再構成" in rule.note("ja"), rule_id


def test_every_d_parameter_of_the_profile_is_named_by_its_rule(ref):
    for name, spec in PARAMETERS.items():
        if spec.rule.startswith("D"):
            assert name in ref.get(spec.rule).params, (name, spec.rule)


def test_e_rules_cite_the_house_errata_text(ref):
    for rule_id in ERRATA_IDS:
        rule = ref.get(rule_id)
        assert rule.source and rule.source.startswith("house-errata.ja.txt"), rule_id
        assert re.search(r"lines? \d+", rule.source), rule_id


def test_e_groups_say_what_applies_with_errata_off(ref):
    for rule_id in E_GROUPS:
        rule = ref.get(rule_id)
        for lang in LANGS:
            assert rule.errata_off(lang), (rule_id, lang)
    assert ref.get("E1.4").errata_off("en") is None
    assert ref.get("B3").errata_off("ja") is None


def test_project_rules_are_marked_as_choices(ref):
    for rule in ref.by_layer("project"):
        assert rule.note("en").startswith("Project choice"), rule.id
        assert "プロジェクトの選択" in rule.note("ja"), rule.id
    assert "provisional" in ref.get("P4").note("en").lower()


def test_get_matches_ids_exactly(ref):
    rule = ref.get("E9.1")
    assert isinstance(rule, Rule)
    assert rule.id == "E9.1" and rule.parent == "E9"
    assert "M-007" in rule.title("en")
    with pytest.raises(UnknownRuleError, match="E9.1"):
        ref.get("e9.1")
    with pytest.raises(UnknownRuleError):
        ref.get("E9.10")
    with pytest.raises(KeyError):
        ref.get("E1.")


def test_children_of_groups(ref):
    assert [r.id for r in ref.children("E1")] == [f"E1.{n}" for n in range(1, 10)]
    assert [r.id for r in ref.children("E6")][-2:] == ["E6.ex1", "E6.ex2"]
    assert ref.children("E3") == []
    assert ref.children("E9.1") == []
    with pytest.raises(UnknownRuleError):
        ref.children("E10")


def test_text_by_language(ref):
    assert ref.text("D3") == ref.get("D3").text("ja")
    assert ref.text("D3", lang="en") == ref.get("D3").text_en
    assert ref.title("B7", "en") == "Retreat"
    with pytest.raises(ValueError):
        ref.text("D3", lang="fr")


def test_see_references_point_at_existing_rules(ref):
    for rule in ref:
        for other in rule.see:
            assert other in ref, (rule.id, other)


def test_cached_accessor_returns_one_shared_reference():
    assert reference() is reference()
    assert reference().ids() == load_reference().ids()


def test_file_loads_with_plain_safe_load():
    data = yaml.safe_load(default_path().read_text(encoding="utf-8"))
    assert data["format"] == 1
    assert [e["id"] for e in data["rules"]][: len(BASE_IDS)] == BASE_IDS


def test_reference_imports_no_qt():
    import subprocess
    import sys

    code = "import sys, fate_royal.cards.reference as r; r.reference(); print(any(m.startswith('PySide6') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


# --- bad files --------------------------------------------------------------------------------------

GOOD_ENTRY = """\
  - id: B1
    layer: base
    title_ja: 構成物
    title_en: Components
    text_ja: カードは100枚。
    text_en: There are 100 cards.
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "rules-reference.yaml"
    path.write_text("format: 1\nrules:\n" + textwrap.dedent(body), encoding="utf-8")
    return path


def entry(**changes: str | None) -> str:
    fields = {
        "id": "B2",
        "layer": "base",
        "title_ja": "題",
        "title_en": "Title",
        "text_ja": "本文。",
        "text_en": "Body.",
    }
    fields.update(changes)
    lines = [f"{k}: {v}" for k, v in fields.items() if v is not None]
    return "  - " + "\n    ".join(lines) + "\n"


def test_a_minimal_file_loads(tmp_path):
    ref = load_reference(write(tmp_path, GOOD_ENTRY))
    assert ref.ids() == ["B1"]


@pytest.mark.parametrize(
    "body, line, message",
    [
        (GOOD_ENTRY + entry(titel_en="x"), 15, "unknown key 'titel_en' (did you mean 'title_en'?)"),
        (GOOD_ENTRY + entry(text_en=None), 9, "missing key 'text_en'"),
        (GOOD_ENTRY + entry(text_en="''"), 14, "text_en must be non-empty"),
        (GOOD_ENTRY + entry(id="B1"), 9, "appears twice (first at line 3)"),
        (GOOD_ENTRY + entry(id="X1", layer="base"), 9, "bad rule id 'X1'"),
        (GOOD_ENTRY + entry(id="E1.1", layer="errata"), 9, "before (or without) its group E1"),
        (GOOD_ENTRY + entry(layer="errata"), 10, "layer must be 'base'"),
        (GOOD_ENTRY + entry(id="D1", layer="default"), 9, "must name the rules-profile parameters"),
        (GOOD_ENTRY + entry(id="D1", layer="default", params="[deck_size]"), 15,
         "unknown rules-profile parameter 'deck_size'"),
        (GOOD_ENTRY + entry(id="E1", layer="errata"), 9, "must name its source"),
        (GOOD_ENTRY + entry(id="E1", layer="errata", source="house-errata.ja.txt"), 9,
         "must say what applies with the errata off"),
        (GOOD_ENTRY + entry(id="P1", layer="project"), 9, "project choice"),
        (GOOD_ENTRY + entry(see="[B9]"), 15, "see names unknown rule 'B9'"),
        (GOOD_ENTRY + entry(params="deck_min_size"), 15, "params must be a list"),
        (GOOD_ENTRY + "  - just text\n", 9, "must be a mapping"),
        (GOOD_ENTRY + entry(title_en="A\n    title_en: B"), 13, "key 'title_en' appears twice"),
    ],
)
def test_bad_entries_are_refused_with_file_and_line(tmp_path, body, line, message):
    path = write(tmp_path, body)
    with pytest.raises(RulesReferenceError) as info:
        load_reference(path)
    error = info.value
    assert error.path == str(path)
    assert error.line == line, str(error)
    assert message in str(error)
    assert str(error).startswith(f"{path}:{line}: ")


def test_bad_top_level_is_refused(tmp_path):
    path = tmp_path / "ref.yaml"
    path.write_text("format: 2\nrules: []\n", encoding="utf-8")
    with pytest.raises(RulesReferenceError, match=r"ref.yaml:1: format must be 1"):
        load_reference(path)
    path.write_text("format: 1\nrulez: []\n", encoding="utf-8")
    with pytest.raises(RulesReferenceError, match=r":2: unknown top-level key 'rulez' \(did you mean 'rules'\?\)"):
        load_reference(path)
    path.write_text("- B1\n", encoding="utf-8")
    with pytest.raises(RulesReferenceError, match="expected a mapping"):
        load_reference(path)


def test_broken_yaml_is_refused_with_its_line(tmp_path):
    path = write(tmp_path, GOOD_ENTRY + "  - id: [B2\n")
    with pytest.raises(RulesReferenceError, match=r"rules-reference.yaml:\d+: not valid YAML"):
        load_reference(path)


def test_data_files_cannot_run_code(tmp_path):
    path = write(tmp_path, GOOD_ENTRY.replace("Components", "!!python/object/apply:os.system ['true']"))
    with pytest.raises(RulesReferenceError, match="not valid YAML"):
        load_reference(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(RulesReferenceError, match="cannot read the rules reference"):
        load_reference(tmp_path / "nope.yaml")
