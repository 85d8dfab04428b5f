"""The record of the full mutation run (tests/mutation/full.json) and tools/mutation_full.py's
--status table; nothing here runs mutmut."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOOL = ROOT / "tools" / "mutation_full.py"
RECORD = ROOT / "tests" / "mutation" / "full.json"
COUNTS = ("killed", "timeouts", "survived", "no_tests", "other", "not_run")


def load_tool():
    sys.path.insert(0, str(TOOL.parent))
    try:
        spec = importlib.util.spec_from_file_location("mutation_full", TOOL)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(TOOL.parent))


def test_record_shape():
    tool = load_tool()
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    modules = set(tool.rules_modules())
    assert record["package"] == "fate_royal/rules"
    assert set(record["generated"]) == modules
    assert all(isinstance(n, int) and n >= 0 for n in record["generated"].values())
    assert record["modules"], "no module recorded yet"
    for module, e in record["modules"].items():
        assert module in modules, module
        assert re.fullmatch(r"[0-9a-f]{64}", e["sha256"]), module
        assert re.fullmatch(r"\d{4}-\d\d-\d\d", e["date"]), module
        assert e["jobs"] >= 1 and e["wall_seconds"] >= 0 and e["mutant_seconds"] >= 0
        counted = e["mutants"] - e["equivalent"]
        assert counted >= 0 and all(e[k] >= 0 for k in COUNTS), module
        assert sum(e[k] for k in COUNTS) == counted, module
        assert e["complete"] == (e["not_run"] == 0), module
        assert len(e["survivors"]) == e["survived"] + e["no_tests"], module
        assert all(tool.module_of(n) == module for n in e["survivors"]), module
        if counted:
            assert e["score"] == round((e["killed"] + e["timeouts"]) / counted, 4), module


def test_status_tells_recorded_stale_and_never_run(tmp_path):
    tool = load_tool()
    rules = tmp_path / "fate_royal" / "rules"
    rules.mkdir(parents=True)
    for name in ("a.py", "b.py", "c.py"):
        (rules / name).write_text(f"X = {name!r}\n", encoding="utf-8")
    entry = dict(mutants=10, equivalent=1, killed=7, timeouts=1, survived=1, no_tests=0, other=0,
                 not_run=0, score=0.8889, complete=True, date="2026-12-03")
    record = {
        "package": "fate_royal/rules",
        "generated": {"fate_royal/rules/a.py": 10, "fate_royal/rules/b.py": 20,
                      "fate_royal/rules/c.py": 10},
        "modules": {
            "fate_royal/rules/a.py": dict(entry, sha256=tool.sha256(rules / "a.py")),
            "fate_royal/rules/b.py": dict(entry, sha256="0" * 64),  # b changed since its run
        },
    }
    out = io.StringIO()
    totals = tool.status(record, root=tmp_path, out=out)
    lines = {ln.split()[0]: ln.split()[1:] for ln in out.getvalue().splitlines()}
    assert lines["fate_royal/rules/a.py"][0] == "recorded"
    assert lines["fate_royal/rules/b.py"][0] == "stale"
    assert lines["fate_royal/rules/c.py"][:3] == ["never", "run", "10"]
    assert totals == {"killed": 8, "counted": 9, "mutants": 10, "total": 40}
    assert "killed 8/9 non-equivalent = 88.9%" in out.getvalue()
    assert "covers 10 of the package's 40 mutants (25.0%)" in out.getvalue()


def test_status_of_the_real_record(capsys):
    tool = load_tool()
    assert tool.main(["--status"]) == 0
    text = capsys.readouterr().out
    for module in tool.rules_modules():
        assert module in text
    assert "overall (recorded, fresh): killed " in text


def test_survivors_run_in_a_fresh_work_folder_keeps_the_recorded_kills():
    """A work folder made afresh holds no results: a --survivors run re-tests the recorded
    survivors and counts the record's other mutants as killed, as the record says."""
    tool = load_tool()
    m = "fate_royal.rules.a.x_f__mutmut_"
    codes = {f"{m}{i}": None for i in range(1, 11)}
    codes.update({f"{m}2": 1, f"{m}3": 0})  # re-tested: 2 now killed, 3 still survives
    entry = tool.tally("fate_royal/rules/a.py", codes, {}, [f"{m}10"],
                       recorded=({f"{m}2", f"{m}3"}, 1))
    assert (entry["mutants"], entry["equivalent"]) == (10, 1)
    assert (entry["killed"], entry["timeouts"], entry["survived"], entry["not_run"]) == (7, 1, 1, 0)
    assert entry["survivors"] == [f"{m}3"]
    assert entry["score"] == round(8 / 9, 4)


def test_a_change_outside_the_mutated_package_is_copied_in_not_a_fresh_folder(tmp_path):
    """Only the mutated package's sources decide whether the work folder is made afresh (which
    loses an unfinished module's results); another module of fate_royal that changed is copied
    into the work folder and into mutmut's mutants/ copy, where the tests import it."""
    tool = load_tool()
    root, work = tmp_path / "root", tmp_path / "work"
    for base in (root, work, work / "mutants"):
        (base / "fate_royal" / "rules").mkdir(parents=True)
        (base / "fate_royal" / "rules" / "a.py").write_text("x = 1\n")
        (base / "fate_royal" / "bench.py").write_text("old = 1\n")
    (root / "fate_royal" / "bench.py").write_text("new = 2\n")
    (root / "fate_royal" / "extra.py").write_text("added = 3\n")
    (work / "mutants" / "fate_royal" / "rules" / "a.py").write_text("x = 1  # mutated copy\n")
    assert tool.source_hashes(root, tool.PACKAGE) == tool.source_hashes(work, tool.PACKAGE)
    assert tool.source_hashes(root) != tool.source_hashes(work)
    assert tool.refresh_unmutated(work, root) == ["fate_royal/bench.py", "fate_royal/extra.py"]
    for base in (work, work / "mutants"):
        assert (base / "fate_royal" / "bench.py").read_text() == "new = 2\n"
        assert (base / "fate_royal" / "extra.py").read_text() == "added = 3\n"
    assert (work / "mutants" / "fate_royal" / "rules" / "a.py").read_text() == "x = 1  # mutated copy\n"
    assert tool.refresh_unmutated(work, root) == []  # up to date now


def test_an_unreadable_meta_file_counts_as_not_run(tmp_path, capsys):
    """mutmut rewrites its .meta files in place; one killed mid-write is empty. The tool reads the
    others and says which one it skipped, instead of stopping with a traceback."""
    tool = load_tool()
    rules = tmp_path / "mutants" / "fate_royal" / "rules"
    rules.mkdir(parents=True)
    (rules / "a.py.meta").write_text(json.dumps({"exit_code_by_key": {"m1": 1}, "durations_by_key": {"m1": 0.5}}))
    (rules / "b.py.meta").write_text("")
    codes, durations = tool.meta_data(tmp_path)
    assert codes == {"m1": 1} and durations == {"m1": 0.5}
    assert "b.py.meta is unreadable" in capsys.readouterr().err


def test_the_sample_rechecks_timeouts_with_more_time(tmp_path):
    """tools/mutation_sample.py runs a timed-out mutant again with four times the time: the
    work folder's multiplier is widened in mutmut's section only, and added when absent."""
    tool = load_tool()  # puts tools/ on the path for the sample module's import
    sys.path.insert(0, str(TOOL.parent))
    try:
        import mutation_sample
    finally:
        sys.path.remove(str(TOOL.parent))
    project = tmp_path / "pyproject.toml"
    project.write_text("[tool.mutmut]\ntimeout_multiplier = 5.0\ntimeout_constant = 2.0\n\n"
                       "[tool.other]\nx = 1\n", encoding="utf-8")
    mutation_sample.widen_timeout(tmp_path, 4)
    assert project.read_text(encoding="utf-8").splitlines()[:3] == [
        "[tool.mutmut]", "timeout_multiplier = 20.0", "timeout_constant = 2.0"]
    project.write_text("[tool.mutmut]\nx = 1\n[tool.other]\ny = 2\n", encoding="utf-8")
    mutation_sample.widen_timeout(tmp_path, 4)
    assert project.read_text(encoding="utf-8").splitlines()[:2] == [
        "[tool.mutmut]", "timeout_multiplier = 60.0"]
    assert tool.TIMEOUT == mutation_sample.TIMEOUT <= mutation_sample.KILLED


def test_a_meta_file_emptied_by_a_kill_is_restored_from_its_backup(tmp_path):
    """While mutmut runs, the tool copies each readable .meta to .meta.bak; a .meta a kill left
    empty (or half-written) is put back from that copy before the next run, so a module's results
    survive; one with no backup stays as it is (and counts as not run)."""
    tool = load_tool()
    rules = tmp_path / "mutants" / "fate_royal" / "rules"
    rules.mkdir(parents=True)
    good = json.dumps({"exit_code_by_key": {"m1": 1, "m2": 0}, "durations_by_key": {}})
    (rules / "a.py.meta").write_text(good)
    (rules / "c.py.meta").write_text("")
    assert tool.backup_metas(tmp_path) == 1  # c's is unreadable: not copied over anything
    assert (rules / "a.py.meta.bak").read_text() == good and not (rules / "c.py.meta.bak").exists()
    (rules / "a.py.meta").write_text('{"exit_code_by_key": {"m1"')  # killed mid-write
    assert tool.restore_metas(tmp_path) == [rules / "a.py.meta"]
    assert tool.meta_data(tmp_path)[0] == {"m1": 1, "m2": 0}
    assert tool.restore_metas(tmp_path) == []  # nothing left to restore; c has no backup
    assert sorted(p.name for p in rules.iterdir()) == ["a.py.meta", "a.py.meta.bak", "c.py.meta"]


def test_the_backups_are_kept_while_mutmut_runs(tmp_path, monkeypatch):
    tool = load_tool()
    rules = tmp_path / "mutants" / "fate_royal" / "rules"
    rules.mkdir(parents=True)
    meta = rules / "a.py.meta"
    meta.write_text(json.dumps({"exit_code_by_key": {"m1": None}}))
    seen = []

    def fake_mutmut(work, names, jobs, log):
        import time
        meta.write_text(json.dumps({"exit_code_by_key": {"m1": 1}}))  # a result comes in
        time.sleep(0.3)  # the watcher copies it meanwhile
        seen.append((rules / "a.py.meta.bak").read_text())
        meta.write_text("")  # then a kill empties the file
        return 0

    monkeypatch.setattr(tool, "mutmut", fake_mutmut)
    assert tool.run_mutmut(tmp_path, ["m1"], 1, tmp_path / "log", every=0.05) == 0
    assert seen == [json.dumps({"exit_code_by_key": {"m1": 1}})]
    assert tool.restore_metas(tmp_path) == [meta]
    assert tool.meta_data(tmp_path)[0] == {"m1": 1}


def test_recording_a_work_folder_without_results_keeps_the_record(tmp_path, capsys):
    """--no-run on a work folder made afresh (or being made) since the module's run would replace
    its record by "nothing run": the tool records nothing and says so."""
    tool = load_tool()
    rules = tmp_path / "mutants" / "fate_royal" / "rules"
    rules.mkdir(parents=True)
    m = "fate_royal.rules.a.x_f__mutmut_"
    (rules / "a.py.meta").write_text(json.dumps({"exit_code_by_key": {f"{m}1": None, f"{m}2": None},
                                                 "durations_by_key": {}}))
    entry = tool.run_module("fate_royal/rules/a.py", tmp_path, tmp_path / "log", 1, again=False,
                            survivors_only=False, no_run=True)
    assert entry is None
    assert "the work folder holds no results for it; nothing recorded" in capsys.readouterr().out
    (rules / "a.py.meta").write_text(json.dumps({"exit_code_by_key": {f"{m}1": 1, f"{m}2": None},
                                                 "durations_by_key": {}}))
    (tmp_path / "fate_royal" / "rules").mkdir(parents=True)
    (tmp_path / "fate_royal" / "rules" / "a.py").write_text("x = 1\n")
    entry = tool.run_module("fate_royal/rules/a.py", tmp_path, tmp_path / "log", 1, again=False,
                            survivors_only=False, no_run=True)
    assert (entry["killed"], entry["not_run"], entry["complete"]) == (1, 1, False)  # partial


def test_equivalent_lines_of_a_changed_module_are_flagged(tmp_path, monkeypatch):
    """mutmut numbers mutants per function: after an edit an equivalent line may name another
    mutant, which a run would then skip untested. A module changed since its record with such
    lines is flagged before the run (0 when unchanged or never recorded)."""
    tool = load_tool()
    (tmp_path / "fate_royal" / "rules").mkdir(parents=True)
    src = tmp_path / "fate_royal" / "rules" / "a.py"
    src.write_text("x = 1\n")
    record = {"modules": {"fate_royal/rules/a.py": {"sha256": tool.sha256(src)}}}
    monkeypatch.setattr(tool, "load_record", lambda path=None: record)
    monkeypatch.setattr(tool, "equivalent_patterns", lambda: [
        "fate_royal.rules.a.x_f__mutmut_3", "fate_royal.rules.a.x_g__mutmut_1",
        "fate_royal.rules.b.x_f__mutmut_3"])
    assert tool.moved_equivalents("fate_royal/rules/a.py", tmp_path) == 0  # unchanged
    src.write_text("x = 2\n")
    assert tool.moved_equivalents("fate_royal/rules/a.py", tmp_path) == 2
    record["modules"].clear()
    assert tool.moved_equivalents("fate_royal/rules/a.py", tmp_path) == 0  # never recorded


def test_a_survivors_run_runs_what_the_work_folder_never_ran(tmp_path, monkeypatch):
    """An edit renumbers a function's mutants; the run skipped the old numbers as equivalent, and
    the equivalent lines were then moved to the new ones. In a work folder that holds the module's
    results, --survivors runs the survivors *and* the mutants that never ran (they are not the
    record's kills), so none is counted as killed untested."""
    tool = load_tool()
    rules = tmp_path / "mutants" / "fate_royal" / "rules"
    rules.mkdir(parents=True)
    (tmp_path / "fate_royal" / "rules").mkdir(parents=True)
    (tmp_path / "fate_royal" / "rules" / "a.py").write_text("x = 1\n")
    m = "fate_royal.rules.a.x_f__mutmut_"
    codes = {f"{m}1": 1, f"{m}2": 1, f"{m}3": 0, f"{m}4": None, f"{m}5": 0}
    (rules / "a.py.meta").write_text(json.dumps({"exit_code_by_key": codes, "durations_by_key": {}}))
    monkeypatch.setattr(tool, "equivalent_patterns", lambda: [f"{m}5"])  # 5 equivalent now, 4 not
    monkeypatch.setattr(tool, "recorded_results", lambda module, work: ({f"{m}3"}, 0))
    ran = []

    def fake_run(work, todo, jobs, log):
        ran.extend(todo)
        data = json.loads((rules / "a.py.meta").read_text())
        data["exit_code_by_key"].update({n: 1 for n in todo})
        (rules / "a.py.meta").write_text(json.dumps(data))

    monkeypatch.setattr(tool, "run_mutmut", fake_run)
    monkeypatch.setattr(tool, "load_record", lambda: {"modules": {}})
    entry = tool.run_module("fate_royal/rules/a.py", tmp_path, tmp_path / "log", 1, again=False,
                            survivors_only=True)
    assert sorted(ran) == [f"{m}3", f"{m}4"]
    assert (entry["killed"], entry["survived"], entry["not_run"], entry["equivalent"]) == (4, 0, 0, 1)
