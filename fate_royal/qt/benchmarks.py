"""GUI measurements for ``fate-royal bench`` (each runs in its own child process, offscreen).

``repaint_bench`` prints one JSON line: action → table repainted (median, 95th percentile) with 7
players 500 actions into a game, and the process's peak memory. ``startup_bench`` starts the table
exactly as ``fate-royal --screenshot`` does, so its wall time is start-up to the first painted table.
"""

from __future__ import annotations

import os


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q * (len(ordered) - 1))))
    return ordered[k]


def repaint_bench(samples: int = 150, players: int = 7, warmup_actions: int = 500) -> dict:
    # (imported here, not at the top: the start-up benchmark below must import no more than the
    # table itself does)
    import json
    import random
    import resource
    import statistics
    import sys
    import time

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from fate_royal.cards import load_card_db
    from fate_royal.cards.rulesets import shipped_ruleset
    from fate_royal.qt import fonts
    from fate_royal.rules.simulate import long_game
    from fate_royal.qt.controller import GameController
    from fate_royal.qt.window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    fonts.install_fonts()
    controller = GameController()
    controller.auto_handoff = True  # measure the table, not the hand-off screen
    window = MainWindow(controller)
    window.resize(1600, 900)
    window.show()
    rules = shipped_ruleset("house")
    game = long_game(load_card_db(rules=rules), rules, warmup_actions, players)
    controller.set_game(game)
    app.processEvents()
    table = window.table
    chooser = random.Random(1)
    times: list[float] = []
    cpu: list[float] = []  # this thread's processor time: what the figure is on a busy machine
    weights = {"spell": 0.01, "raid": 0.05}
    while len(times) < samples and game.outcome() is None:
        actions = controller.legal_actions()
        action = chooser.choices(actions, [weights.get(a.kind, 1.0) for a in actions])[0]
        start, start_cpu = time.perf_counter(), time.thread_time()
        controller.submit(action)
        table.repaint()  # synchronous: returns once the table has been painted
        times.append((time.perf_counter() - start) * 1000)
        cpu.append((time.thread_time() - start_cpu) * 1000)
        app.processEvents()
    result = {
        "samples": len(times),
        "median_ms": statistics.median(times),
        "p95_ms": _percentile(times, 0.95),
        "cpu_median_ms": statistics.median(cpu),
        "cpu_p95_ms": _percentile(cpu, 0.95),
        "load": os.getloadavg()[0],
        "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print(json.dumps(result))
    return result


def startup_bench() -> None:
    """Start the table exactly as ``fate-royal --screenshot`` does (4 players) up to the first
    painted frame, grabbed into memory: PNG encoding is left out, as in the bare-window baseline."""
    import argparse

    from fate_royal.qt.app import run_app

    args = argparse.Namespace(screenshot="unused.png", players=4, seed=1, size=None, lang=None,
                              no_errata=False, scenario=None, load=None)
    code = run_app(args, first_paint_only=True)
    if code:
        raise SystemExit(code)
