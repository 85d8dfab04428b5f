"""Every ruling scenario's whole log, pinned: each event's code, the rules it cites and its arguments,
each step's outcome (a refusal's reason included) and the final position.

The log is how the table explains a ruling (which rule produced each outcome), so a change in it is
a change in a ruling's explanation even when the scenario's own checks still pass. Mutation testing
(README.md, "Mutation testing") found engine mistakes that only the log showed: a rule id cited in
the wrong case, an event without its player, a refusal for the wrong reason.

The pinned logs are ``tests/rules/scenario_logs/<scenario>.log``. After an intended change, rewrite
them with ``FATE_ROYAL_UPDATE_LOGS=1 python -m pytest tests/rules/test_scenario_logs.py`` and review
the diff: every changed line is a changed explanation.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

ROOT = Path(__file__).resolve().parents[2]
LOGS = Path(__file__).resolve().parent / "scenario_logs"
SCENARIOS = sorted((ROOT / "scenarios").rglob("*.yaml"))
UPDATE = os.environ.get("FATE_ROYAL_UPDATE_LOGS") == "1"


def _pinned_name(path: Path) -> str:
    return f"{path.parent.name}--{path.stem}.log"


def transcript(path: Path) -> str:
    """The scenario's run as text: one line per step outcome and per event, then the position."""
    run = ScenarioRun(load_scenario(path))
    lines = []
    seen = 0
    while not run.done:
        step = run.scenario.steps[run.index]
        refused = ""
        if step.kind == "expect_illegal":  # the refusal's reason code and rule, whatever the file checks
            r = run.game.why_illegal(run.to_action(step.body["do"], step.line))
            refused = f" (reason {r.reason}, rule {r.rule or '-'})"
        result = run.forward()
        log = run.game.log
        for e in log[seen:]:
            lines.append(json.dumps(e.to_dict(), ensure_ascii=False, sort_keys=True))
        seen = len(log)
        lines.append(f"step {result.step.line} {'ok' if result.ok else 'FAIL'}: {result.message}{refused}")
    state = run.game.state.to_dict()
    lines.append("state " + json.dumps(state, ensure_ascii=False, sort_keys=True))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("path", SCENARIOS, ids=[str(p.relative_to(ROOT)) for p in SCENARIOS])
def test_scenario_log_is_pinned(path: Path):
    got = transcript(path)
    pinned = LOGS / _pinned_name(path)
    if UPDATE:
        LOGS.mkdir(exist_ok=True)
        pinned.write_text(got, encoding="utf-8")
        return
    assert pinned.exists(), (f"no pinned log for {path.name}: run FATE_ROYAL_UPDATE_LOGS=1 python -m "
                             "pytest tests/rules/test_scenario_logs.py and review the new file")
    want = pinned.read_text(encoding="utf-8")
    if got != want:
        got_lines, want_lines = got.splitlines(), want.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(got_lines, want_lines)) if a != b),
                     min(len(got_lines), len(want_lines)))
        pytest.fail(f"{path.name}: the log differs from {pinned.name} at line {first + 1}:\n"
                    f"  pinned: {want_lines[first] if first < len(want_lines) else '(end)'}\n"
                    f"  now:    {got_lines[first] if first < len(got_lines) else '(end)'}\n"
                    "(an intended change: FATE_ROYAL_UPDATE_LOGS=1 and review the diff)")


def test_every_pinned_log_has_its_scenario():
    """A pinned log whose scenario is gone is a ruling deleted by mistake (the mutation sample
    would not notice one ruling fewer): deleting a ruling on purpose deletes its log too."""
    names = {_pinned_name(p) for p in SCENARIOS}
    orphans = sorted(p.name for p in LOGS.glob("*.log") if p.name not in names)
    assert not orphans, f"pinned logs without their scenario: {orphans}"
    assert len(names) == len(list(LOGS.glob("*.log")))
