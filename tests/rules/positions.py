"""A position for a test, written as a small scenario (the format of scenarios/, docs/scenarios.md):
``play`` writes the text to a file, plays its steps and returns the game reached. Every step must
pass; a failing one fails the test with its message."""

from __future__ import annotations

import textwrap
from pathlib import Path

from fate_royal.rules.game import Game
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun


def play(tmp_path: Path, text: str, name: str = "position.yaml") -> Game:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    run = ScenarioRun(load_scenario(path))
    results = run.run_all()
    failures = [r.message for r in results if not r.ok]
    assert results and not failures, failures
    return run.game
