"""``fate-royal bench``: measure speed and memory and print the figures beside their goals.

Figures come from this command, never from timing assertions in tests (machines are shared and
noisy). Each figure is measured in this run, on this machine:

- random legal play throughput, one core, without invariant checks (undo checkpoints on, as in play);
- replay of a recorded 1,000-action game from a save file;
- card data load and validation;
- action → table repainted (median and 95th percentile), 7 players, 500 actions into a game;
- start-up to the first painted table, as a ratio to a bare PySide6 window, and the floor under it (the bare
  window after importing the engine and dealing a game);
- peak memory after 500 actions with 7 players (engine alone, and with the table);
- autosave at 40,000 actions: the time the table's thread spends per action, and the writer's.
- what the computer seats' search needs: a position copy (``Game.fork``) and its legal actions;
- computer decision time, one ``strong`` seat against three ``basic`` ones (every decision of the
  strong seat with more than one legal action; processor time of one core).

The GUI figures run in child processes on the offscreen platform so that each starts clean.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GOALS = {
    "throughput": ("actions/s", ">=", 15000),
    "replay": ("s", "<=", 0.5),
    "load": ("ms", "<=", 100),
    "repaint_median": ("ms", "<=", 10),
    "repaint_p95": ("ms", "<=", 33),
    "startup_ratio": ("×", "<=", 1.5),
    "handoffs_4": ("per turn", "<=", 2.5),
    "handoffs_7": ("per turn", "<=", 3.0),
    "shared": ("per turn", "<=", 6),
    "autosave_ms": ("ms", "<=", 2.0),
    "decision_median": ("s", "<=", 1.0),
    "decision_p95": ("s", "<=", 3.0),
}


def _engine():
    """The shipped cards and the house rules, as a new game gets them."""
    from fate_royal.cards import load_card_db
    from fate_royal.cards.rulesets import shipped_ruleset

    rules = shipped_ruleset("house")
    return load_card_db(rules=rules), rules


def bench_throughput(seconds: float = 5.0) -> tuple[float, int]:
    """Random legal play, one process, no invariant checks (undo checkpoints on, as in play):
    (actions per second, actions)."""
    from fate_royal.rules.game import Game
    from fate_royal.rules.simulate import choose_action

    db, rules = _engine()
    actions = 0
    elapsed = 0.0
    seed = 0
    while elapsed < seconds:
        chooser = random.Random(seed)
        start = time.perf_counter()
        game = Game.new(db, rules, [f"P{i + 1}" for i in range(2 + seed % 6)], seed=seed)
        n = 0
        while game.outcome() is None and n < 5000:
            game.apply(choose_action(chooser, game.legal_actions()))
            n += 1
        elapsed += time.perf_counter() - start
        actions += n
        seed += 1
    return actions / elapsed, actions


def long_game(n_actions: int, players: int = 7):
    """A random game of at least ``n_actions`` actions under the house rules."""
    from fate_royal.rules.simulate import long_game as play

    db, rules = _engine()
    return play(db, rules, n_actions, players)


def bench_handoffs(players: int, games: int = 40, claim: bool = False) -> tuple[float, float]:
    """Hand-offs and shared prompts per turn at a scripted hot-seat table (fate_royal.rules.hotseat,
    the policy the table uses): players who never claim at the shared prompt (or, with ``claim``,
    claim whenever they hold a response other than a command spell) and otherwise choose at
    random. Default stops. (hand-offs per turn, shared prompts per turn)"""
    from fate_royal.rules.game import Game
    from fate_royal.rules.hotseat import play_scripted
    from fate_royal.rules.simulate import choose_action

    db, rules = _engine()
    handoffs = shared = turns = 0
    for seed in range(games):
        game = Game.new(db, rules, [f"P{i + 1}" for i in range(players)], seed=seed,
                        auto_pass=False)
        count, n = play_scripted(game, random.Random(seed), claim=claim, choose=choose_action)
        handoffs += count.handoffs
        shared += count.shared
        turns += n
    return handoffs / turns, shared / turns


def bench_replay(n_actions: int = 1000, repeats: int = 3) -> tuple[float, int]:
    """Seconds to open (read, check, replay, verify) a saved game of ``n_actions`` actions."""
    from fate_royal.cards import load_card_db
    from fate_royal.rules.save import load_game, save_game

    game = long_game(n_actions)
    with tempfile.TemporaryDirectory() as tmp:
        path = save_game(game, Path(tmp) / "bench.json")
        db = game.db
        times = []
        for _ in range(repeats):
            start = time.perf_counter()
            load_game(path, lambda rules, extra: db if not extra else load_card_db(extra=extra,
                                                                                  rules=rules))
            times.append(time.perf_counter() - start)
    return min(times), len(game.history)


def bench_fork(repeats: int = 2000) -> tuple[float, float]:
    """Microseconds for a position copy for search (``Game.fork``) and for the legal actions of a
    fresh copy, 4 players, 100 actions into a game (median of ``repeats``)."""
    from fate_royal.rules.simulate import long_game as play

    db, rules = _engine()
    game = play(db, rules, 100, 4)
    copies, legals = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        fork = game.fork()
        mid = time.perf_counter()
        fork.legal_actions()
        end = time.perf_counter()
        copies.append(mid - start)
        legals.append(end - mid)
    return statistics.median(copies) * 1e6, statistics.median(legals) * 1e6


def bench_decisions(games: int = 4, players: int = 4) -> tuple[float, float, int]:
    """Seconds per decision of a ``strong`` computer seat against ``basic`` ones (decisions with
    more than one legal action; the seat sits in a different place each game): (median, 95th
    percentile, decisions)."""
    from fate_royal.ai.tournament import play_game, seating

    db, rules = _engine()
    times: list[float] = []
    for i in range(games):
        levels = seating(["strong"] + ["basic"] * (players - 1), i)
        play_game(db, rules, levels, 500 + i,
                  timer=lambda level, secs: times.append(secs) if level == "strong" else None)
    times.sort()
    return statistics.median(times), times[min(len(times) - 1, int(0.95 * len(times)))], len(times)


def bench_load(repeats: int = 9) -> float:
    """Milliseconds to load and validate all card data, errata pack and profile (median)."""
    from fate_royal.cards import load_card_db, load_profile

    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        load_card_db()
        load_profile()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def engine_peak_memory(players: int = 7, n_actions: int = 500) -> float:
    """Peak resident memory (MiB) of a fresh process after ``n_actions`` actions."""
    code = (
        "import resource, random\n"
        "from fate_royal.commands.bench import long_game\n"
        f"long_game({n_actions}, {players})\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)\n"
    )
    out = _child(code)
    return float(out.strip().splitlines()[-1])


def _child(code: str, env_extra: dict | None = None, timeout: float = 600) -> str:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    if env_extra:
        env.update(env_extra)
        for key in [k for k, v in env_extra.items() if v == ""]:
            env.pop(key, None)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                          timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else
                           f"child exited {proc.returncode}")
    return proc.stdout


def bench_gui_repaint(n: int = 120) -> dict:
    """Action → table repainted, in a child process (see fate_royal.qt.benchmarks)."""
    out = _child(f"from fate_royal.qt.benchmarks import repaint_bench; repaint_bench({n})")
    return json.loads(out.strip().splitlines()[-1])


def bench_startup(repeats: int = 3) -> dict:
    """Start-up to first painted table vs a bare PySide6 window, both as fresh processes."""
    bare = (  # the same steps as the table's start-up, on an empty window
        "from PySide6.QtWidgets import QApplication, QWidget\n"
        "app = QApplication([]); w = QWidget(); w.resize(1600, 900); w.show()\n"
        "[app.processEvents() for _ in range(3)]\n"
        "w.grab(); w.close()\n"
    )
    table = "from fate_royal.qt.benchmarks import startup_bench; startup_bench()"
    # The floor under any table of this engine: the bare window after the engine is imported and
    # a 4-player game is dealt (as the table does before it can draw one), none of our widgets.
    floor = (
        "from fate_royal.cards import load_card_db\n"
        "from fate_royal.cards.rulesets import shipped_ruleset\n"
        "from fate_royal.rules.game import Game\n"
        "rules = shipped_ruleset('house')\n"
        "Game.new(load_card_db(rules=rules), rules, ['A', 'B', 'C', 'D'], seed=1)\n"
    ) + bare

    # An installed copy has its bytecode compiled (pip does it); make sure ours is too, even where
    # PYTHONDONTWRITEBYTECODE is set, with one unmeasured run of each.
    env = {"PYTHONDONTWRITEBYTECODE": ""}

    def measure(code: str) -> float:
        start = time.perf_counter()
        _child(code, env)
        return time.perf_counter() - start

    measure(bare)
    measure(table)  # (also fills the parsed-file cache, as any earlier start of the table has)
    measure(floor)
    bare_t = min(measure(bare) for _ in range(repeats))
    table_t = min(measure(table) for _ in range(repeats))
    floor_t = min(measure(floor) for _ in range(repeats))
    # the first start after installing or editing the data: every YAML file parsed
    env["FATE_ROYAL_CACHE"] = "off"
    cold_t = min(measure(table) for _ in range(repeats))
    return {"bare_s": bare_t, "table_s": table_t, "ratio": table_t / bare_t,
            "cold_s": cold_t, "cold_ratio": cold_t / bare_t,
            "floor_s": floor_t, "floor_ratio": floor_t / bare_t}


def bench_autosave(total: int = 40000, probes: int = 200) -> dict[str, float]:
    """The autosave journal at ``total`` entries: the table-thread cost of one ``update`` after an
    action (median and 95th percentile over ``probes`` actions) and the writer's time per action.

    Real games end after a few thousand actions, so the record is a real game's entries repeated
    up to ``total`` (the writer never replays; it only compares and appends)."""
    from fate_royal.cards import load_card_db
    from fate_royal.cards.rulesets import shipped_ruleset
    from fate_royal.rules.game import Game
    from fate_royal.rules.journal import JournalWriter, read_journal

    rules = shipped_ruleset("house")
    game = Game.new(load_card_db(None, rules=rules), rules, [f"P{i}" for i in range(4)], seed=6,
                    auto_pass=False)
    rng = random.Random(6)
    while not game.ctx.s.over and len(game.entries) < 3000:
        game.apply(rng.choice(game.legal_actions()))
    pool = list(game.entries)

    class LongGame:  # the real game's header, turn and db; ``entries`` grows like a long game's
        def __init__(self) -> None:
            self.ctx, self.db, self.rules = game.ctx, game.db, game.rules
            self.items = [pool[i % len(pool)] for i in range(total - probes)]

        @property
        def record(self) -> object:
            return game.record

        @property
        def entries(self) -> tuple:
            return tuple(self.items)

    long = LongGame()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "autosave.jsonl"
        writer = JournalWriter(path)
        writer.update(long)
        writer.flush()
        times = []
        start = time.perf_counter()
        for i in range(probes):
            long.items.append(pool[i % len(pool)])
            t0 = time.perf_counter()
            writer.update(long)
            times.append((time.perf_counter() - t0) * 1000)
        writer.flush()
        wall = time.perf_counter() - start
        writer.close()
        size = path.stat().st_size
        ok = len(read_journal(path).record.actions) == total
    times.sort()
    return {"median_ms": statistics.median(times), "p95_ms": times[int(0.95 * (len(times) - 1))],
            "writer_ms": wall * 1000 / probes, "mib": size / 2 ** 20, "complete": float(ok)}


def _verdict(key: str, value: float) -> str:
    unit, op, goal = GOALS[key]
    ok = value >= goal if op == ">=" else value <= goal
    return f"goal {op} {goal} {unit}: {'met' if ok else 'NOT met'}"


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fate-royal bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (less precise)")
    parser.add_argument("--no-gui", action="store_true", help="engine figures only")
    args = parser.parse_args(argv)
    seconds = 2.0 if args.quick else 4.0
    rounds = 2 if args.quick else 3
    print(f"fate_royal bench — Python {sys.version.split()[0]}, {os.cpu_count()} CPUs; "
          f"where rounds are repeated the best is the figure (slower rounds are other load on a "
          f"shared machine) and every round is shown")
    runs = [bench_throughput(seconds) for _ in range(rounds)]
    rate, n = max(runs)
    print(f"random play throughput: {rate:,.0f} actions/s ({n} actions, one core, no invariant "
          f"checks; rounds: {', '.join(f'{r:,.0f}' for r, _ in runs)})  [{_verdict('throughput', rate)}]")
    secs, n = bench_replay()
    print(f"replay of a recorded {n}-action game: {secs:.3f} s  [{_verdict('replay', secs)}]")
    ms = bench_load()
    print(f"card data load + validation: {ms:.1f} ms  [{_verdict('load', ms)}]")
    for players in (4, 7):
        h, p = bench_handoffs(players, 20 if args.quick else 40)
        print(f"hand-offs per turn ({players} players, default stops): {h:.2f}  "
              f"[{_verdict(f'handoffs_{players}', h)}]")
        print(f"shared prompts per turn ({players} players, default stops): {p:.2f}  "
              f"[{_verdict('shared', p)}]")
        h2, _ = bench_handoffs(players, 20 if args.quick else 40, claim=True)
        print(f"hand-offs per turn ({players} players, everyone claims when holding a response): "
              f"{h2:.2f} (for information)")
    au = bench_autosave()
    print(f"autosave at 40,000 actions, per action: {au['median_ms']:.2f} ms on the table's thread "
          f"(95th percentile {au['p95_ms']:.2f} ms), {au['writer_ms']:.2f} ms in the writer thread "
          f"(file {au['mib']:.1f} MiB{'' if au['complete'] else ', INCOMPLETE'})  "
          f"[{_verdict('autosave_ms', au['median_ms'])}]")
    mem = engine_peak_memory()
    print(f"peak memory, engine alone, 7 players after 500 actions: {mem:.1f} MiB")
    copy_us, legal_us = bench_fork()
    print(f"position copy for search (Game.fork): {copy_us:.0f} µs; legal actions of the copy: "
          f"{legal_us:.0f} µs (4 players, 100 actions in; median)")
    med, p95, n = bench_decisions(2 if args.quick else 4)
    print(f"computer decision time (strong, 4 players): median {med:.2f} s, 95th percentile "
          f"{p95:.2f} s ({n} decisions, processor time of one core)  [{_verdict('decision_median', med)}; "
          f"{_verdict('decision_p95', p95)}]")
    if args.no_gui:
        return 0
    try:
        reps = [bench_gui_repaint(60 if args.quick else 150) for _ in range(rounds)]
        rep = min(reps, key=lambda r: r["median_ms"])
        medians = ", ".join(f"{r['median_ms']:.1f}" for r in reps)
        print(f"action → table repainted, 7 players, 500 actions in: median {rep['median_ms']:.1f} ms, "
              f"95th percentile {rep['p95_ms']:.1f} ms ({rep['samples']} actions; medians of the "
              f"rounds: {medians} ms)  "
              f"[{_verdict('repaint_median', rep['median_ms'])}; "
              f"{_verdict('repaint_p95', rep['p95_ms'])}]")
        if "cpu_median_ms" in rep:
            print(f"action → table repainted, processor time of the table's thread (what a busy machine "
                  f"does not inflate; load average {rep.get('load', 0):.1f}): median "
                  f"{rep['cpu_median_ms']:.1f} ms, 95th percentile {rep['cpu_p95_ms']:.1f} ms  "
                  f"[{_verdict('repaint_median', rep['cpu_median_ms'])}; "
                  f"{_verdict('repaint_p95', rep['cpu_p95_ms'])}]")
        print(f"peak memory, table process, 7 players after 500 actions: {rep['peak_mib']:.1f} MiB")
    except Exception as exc:  # report, do not hide: the figure is missing
        print(f"action → table repainted: not measured ({exc})")
    try:
        st = bench_startup(2 if args.quick else 3)
        print(f"start-up to first painted table: {st['table_s']:.2f} s vs bare PySide6 window "
              f"{st['bare_s']:.2f} s = {st['ratio']:.2f}×  [{_verdict('startup_ratio', st['ratio'])}]")
        print(f"  first start after installing or editing data (nothing cached): {st['cold_s']:.2f} s "
              f"= {st['cold_ratio']:.2f}×")
        print(f"  floor: the bare window after importing the engine and dealing a 4-player game "
              f"(no widget of ours): {st['floor_s']:.2f} s = {st['floor_ratio']:.2f}×")
    except Exception as exc:
        print(f"start-up ratio: not measured ({exc})")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
