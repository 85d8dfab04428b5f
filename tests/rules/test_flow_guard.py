"""flow.run's guard: an engine that stops making progress fails loudly after MAX_AUTOMATIC steps of
automatic work instead of hanging the table (no ruling reaches it: it is there for flow bugs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.rules import flow
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

ROOT = Path(__file__).resolve().parents[2]


def test_run_stops_a_flow_that_makes_no_progress(monkeypatch):
    run = ScenarioRun(load_scenario(ROOT / "scenarios" / "rulings" / "D6-stack-lifo.yaml"))
    ctx = run.game.ctx
    s = ctx.s
    s.decision, s.resolving, s.window, s.combat = None, None, None, None
    calls = []

    def stuck(_ctx):  # a step that never moves on
        calls.append(1)
        if len(calls) > 1000:
            raise AssertionError("the guard never stopped the loop")

    monkeypatch.setattr(flow, "MAX_AUTOMATIC", 50)
    monkeypatch.setattr(flow, "progress_step", stuck)
    with pytest.raises(RuntimeError, match=r"^rules engine made no progress$"):
        flow.run(ctx)
    assert len(calls) == 50  # every step up to the limit, not one more or fewer
