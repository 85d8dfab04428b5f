"""tools/mutation_diff.py lists a module's mutants as the source stands now (mutmut's generator, in
memory), so a renumbered line of tests/mutation/equivalent.txt shows. Needs mutmut (the
``mutation`` extra); skipped without it."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

pytest.importorskip("mutmut")

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "mutation_diff.py"


def load_tool():
    spec = importlib.util.spec_from_file_location("mutation_diff", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_mutants_of_a_module_with_their_changes():
    found = load_tool().mutants("fate_royal/rules/errors.py")
    name = "fate_royal.rules.errors.xǁIllegalActionǁ__init____mutmut_"
    assert sorted(found) == sorted(f"{name}{i}" for i in range(1, len(found) + 1))
    assert len(found) >= 5
    assert found[f"{name}1"] == ('-def __init__(self, reason: str, rule: str = "", message: str = "")'
                                 ' -> None: | +def __init__(self, reason: str, rule: str = "XXXX",'
                                 ' message: str = "") -> None:')


def test_equivalent_lines_are_shown_with_the_change_they_name_now(capsys):
    assert load_tool().main(["fate_royal/rules/effects/combat_ops.py", "--equivalent"]) == 0
    out = capsys.readouterr().out
    assert "x__modifier__mutmut_11\n    reason: subject()'s default" in out
    assert '+ q = subject(ctx, r, op, "XXcombatantXX")' in out


def test_a_missing_module_is_an_error(capsys):
    assert load_tool().main(["fate_royal/rules/nope.py"]) == 2
    assert "no such module" in capsys.readouterr().err


def test_check_switches_a_mutant_on_for_the_given_tests(capsys):
    spec = importlib.util.spec_from_file_location("mutation_check", ROOT / "tools" / "mutation_check.py")
    check = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(TOOL.parent))
    try:
        spec.loader.exec_module(check)
    finally:
        sys.path.remove(str(TOOL.parent))
    # _7 drops the exception's text (tests/rules/test_illegal_action.py reads it); _1 changes the
    # default rule to "XXXX", which that test also sees
    code = check.main(["fate_royal/rules/errors.py", "--names", "*__init____mutmut_7",
                       "*__init____mutmut_1", "--", "tests/rules/test_illegal_action.py"])
    out = capsys.readouterr().out
    assert code == 0 and "2 of 2 killed" in out, out
    # a test that never builds a refusal cannot see the default rule change: a survivor
    code = check.main(["fate_royal/rules/errors.py", "--names", "*__init____mutmut_1", "--",
                       "tests/rules/test_invariants.py"])
    out = capsys.readouterr().out
    assert code == 1 and "SURVIVED" in out and "0 of 1 killed" in out, out


def test_survivors_keeps_only_the_mutants_the_full_run_recorded(tmp_path, monkeypatch, capsys):
    tool = load_tool()
    name = "fate_royal.rules.errors.xǁIllegalActionǁ__init____mutmut_"
    record = tmp_path / "full.json"
    record.write_text('{"modules": {"fate_royal/rules/errors.py": {"survivors": ["%s2", "%s4"]}}}'
                      % (name, name), encoding="utf-8")
    monkeypatch.setattr(tool, "FULL", record)
    assert tool.recorded_survivors("fate_royal/rules/errors.py") == {f"{name}2", f"{name}4"}
    assert tool.recorded_survivors("fate_royal/rules/zones.py") == set()
    assert tool.main(["fate_royal/rules/errors.py", "--survivors"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == ["xǁIllegalActionǁ__init____mutmut_2",
                                                      "xǁIllegalActionǁ__init____mutmut_4"]
