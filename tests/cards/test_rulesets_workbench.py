"""Rule-set files as the workbench uses them: the user's own sets (save, import, export), the
``fate-royal rules`` command, and ``file:line`` errors for an unknown rule id, a value out of bounds
and broken YAML."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.cards.ruleset import RuleSet
from fate_royal.cards.rulesets import (
    available_rulesets, export_ruleset, import_ruleset, load_ruleset, resolve_ruleset,
    save_user_ruleset, shipped_ruleset,
)
from fate_royal.cards.yamlsrc import DataError
from fate_royal.commands import rules as rules_cmd


@pytest.fixture
def user_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "user" / "rulesets"
    monkeypatch.setattr("fate_royal.cards.rulesets.user_rulesets_dir", lambda: folder)
    return folder


def no_rebuild_set() -> RuleSet:
    house = shipped_ruleset("house")
    return house.with_(off={"E8", "E9.3"}, readings={"R1": "kept"},
                       profile=house.profile.with_(hand_limit=6), title="山札なし")


def test_a_saved_user_set_loads_back_the_same(user_dir):
    path = save_user_ruleset(no_rebuild_set(), "山札なし")
    assert path.parent == user_dir and path.name == "山札なし.yaml"
    back = load_ruleset(path)
    assert back.fingerprint == no_rebuild_set().fingerprint
    assert (back.name, back.title) == ("山札なし", "山札なし")
    assert [k for k, r, _ in available_rulesets()] == ["house", "base", str(path)]
    assert resolve_ruleset("山札なし").fingerprint == back.fingerprint


def test_export_then_import_shares_a_set(user_dir, tmp_path):
    shared = export_ruleset(no_rebuild_set(), tmp_path / "group.yaml")
    rules, dest = import_ruleset(shared)
    assert dest == user_dir / "group.yaml" and rules.off == {"E8", "E9.3"}


def test_a_shipped_name_is_not_overwritten_by_a_user_set(user_dir):
    path = save_user_ruleset(no_rebuild_set(), "house")
    assert path.stem != "house"


@pytest.mark.parametrize("text, line, words", [
    ("title: x\nwithout: [E8, E99]\n", 2, "unknown errata rule or patch 'E99'"),
    ("title: x\nprofile:\n  hand_limit: 500\n", 3, "above the maximum 99"),
    ("title: x\nreadings: {R1: maybe}\n", 2, "must be one of undone, kept"),
    ("title: x\nwithout: [E8\n", 3, "YAML syntax error"),
])
def test_a_bad_rule_set_names_file_and_line(tmp_path, text, line, words):
    path = tmp_path / "bad.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_ruleset(path)
    first = str(info.value).splitlines()[0]
    assert first.startswith(f"{path.as_posix()}:{line}: ") and words in first


def test_rules_command_list_show_diff(user_dir, capsys, tmp_path):
    save_user_ruleset(no_rebuild_set(), "山札なし")
    assert rules_cmd.main(["list"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("house") and out[1].startswith("base") and out[2].startswith("山札なし")
    assert rules_cmd.main(["show", "山札なし"]) == 0
    out = capsys.readouterr().out
    assert "without: [E8, E9.3]" in out and "hand_limit: 6" in out
    assert rules_cmd.main(["diff", "house", "山札なし"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("4 difference(s)")
    assert [line.split()[0] for line in out[1:]] == ["E8", "E9.3", "R1", "hand_limit"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nwithout: [E99]\n", encoding="utf-8")
    assert rules_cmd.main(["show", str(bad)]) == 2
    assert f"{bad.as_posix()}:2: unknown errata rule" in capsys.readouterr().err
