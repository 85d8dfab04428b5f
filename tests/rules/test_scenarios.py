"""Every scenario file under scenarios/ passes, and together they cite every rule of the reference.

A scenario is a ruling test named after the rule it pins (``E1.3-reverse-never-down.yaml``). An id
counts as cited when a scenario's run logs an event carrying it, or when an ``expect_illegal`` step
that names it passes (the action was refused by that rule). Ids that the engine cannot observe by
nature -- the worked examples (E6.ex1, E6.ex2) and the group ids whose sub-rules are cited (E1, E2,
...) -- count as cited when a passing scenario's file name starts with the id.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from fate_royal.cards.reference import reference
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

ROOT = Path(__file__).resolve().parents[2]
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


@functools.lru_cache(maxsize=None)
def play(path: Path) -> tuple[bool, list[str], frozenset[str]]:
    """Run one scenario: (passed, failure messages, rule ids it cited)."""
    scenario = load_scenario(path)
    run = ScenarioRun(scenario)
    results = run.run_all()
    failures = [f"{_name(path)}:{r.step.line}: {r.step.label()} → {r.message}"
                for r in results if not r.ok]
    cited = {rule for e in run.game.log for rule in e.rules}
    for r in results:
        cited.update(r.rules)
        if r.ok and r.step.kind == "expect_illegal" and r.step.body.get("rule"):
            cited.add(str(r.step.body["rule"]))
    return not failures and run.done, failures, frozenset(cited)


@pytest.fixture(autouse=True, scope="module")
def _fresh_plays():
    """Every session plays the scenarios anew: mutation testing forks sessions from a process that
    already played them unmutated."""
    play.cache_clear()


def test_there_are_scenarios():
    assert SCENARIOS, "no scenario files under scenarios/"


@pytest.mark.parametrize("path", SCENARIOS, ids=[_name(p) for p in SCENARIOS])
def test_scenario_passes(path: Path):
    passed, failures, _ = play(path)
    assert passed, "scenario failed:\n" + "\n".join(failures)


def name_only_ids() -> set[str]:
    """Ids no engine event can carry: group ids with sub-rules, and the worked examples."""
    ref = reference()
    return {i for i in ref.ids() if ref.children(i)} | {i for i in ref.ids() if ".ex" in i}


def uncited_ids() -> list[str]:
    ref = reference()
    cited: set[str] = set()
    passing_names: list[str] = []
    for path in SCENARIOS:
        passed, _, ids = play(path)
        cited |= ids
        if passed:
            passing_names.append(path.name)
    allowed_by_name = name_only_ids()
    out = []
    for rid in ref.ids():
        if rid in cited:
            continue
        if rid in allowed_by_name and any(
                n.startswith(rid + "-") or n.startswith(rid + ".") for n in passing_names):
            continue
        out.append(rid)
    return out


def test_every_rule_is_cited_by_some_scenario():
    missing = uncited_ids()
    assert missing == [], f"rules no scenario cites: {', '.join(missing)}"


def test_scenario_files_are_named_after_a_rule():
    ids = set(reference().ids())
    bad = [p.name for p in SCENARIOS if p.name.split("-", 1)[0] not in ids]
    assert bad == [], f"scenario files not named after a rule id: {bad}"
