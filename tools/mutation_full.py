#!/usr/bin/env python3
"""The full mutation run of issue 17, module by module (README.md, "Mutation testing").

Every mutant of the rules package is too many for one sitting on a small machine (about 12,000,
two to three core-seconds each), so the full run is made a module at a time and recorded per
module in ``tests/mutation/full.json``, with the sha256 of the module's source: a record whose
module has changed since is *stale* and is run again.

The work folder ``mutation-full/`` (git-ignored) is a copy of the repository whose mutmut
configuration mutates all of ``fate_royal/rules``; it is generated once (mutants and the map of
which tests reach which function, a few minutes) and kept between runs, so a later run only tests
mutants. It is made afresh when a source file of ``fate_royal/rules`` (the mutated package)
changed; the package's other modules, the tests, scenarios and card data are copied in again
before every run (into ``mutants/`` too), so new rulings count at once and a change elsewhere in
``fate_royal`` keeps the results of an unfinished module.

    python tools/mutation_full.py --status                       # the table of all rules modules
    nice -n 19 python tools/mutation_full.py --module fate_royal/rules/zones.py --max-children 1
    nice -n 19 python tools/mutation_full.py --module fate_royal/rules/zones.py --survivors
                                                                 # rerun only its survivors
    python tools/mutation_full.py --module fate_royal/rules/zones.py --no-run
                                  # record what the work folder holds (after an interrupted run)

A run tests the module's mutants that have no result yet in the work folder (so an interrupted
run goes on where it stopped; ``--again`` tests them all), then records the module. Mutants listed
in ``tests/mutation/equivalent.txt`` are not run and not counted. A timeout counts as killed; "no
tests" (no test reaches the function) counts as not killed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import os
import shutil
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation_sample import (  # noqa: E402  (the shared helpers of the sampled check)
    COPY,
    KILLED,
    ROOT,
    equivalent_patterns,
    is_equivalent,
    module_of,
    mutmut,
    prepare,
)

FULL = ROOT / "tests" / "mutation" / "full.json"
PACKAGE = "fate_royal/rules"
TIMEOUT = {36, -24, 24, 152, 255}  # mutmut's exit codes for a timeout (SIGXCPU)
NO_TESTS = {5, 33}
SURVIVED = {0}
KILLED_CODE = 1  # a mutant's tests failed (pytest's exit code): what the record says of its kills
SOURCES = "fate_royal"  # copied into the work folder; only PACKAGE's files are mutated, and only a
# change to one of those makes the work folder afresh (the others are brought up to date at sync)


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rules_modules(root: Path = ROOT) -> list[str]:
    """Every module of the rules package, as repository paths."""
    return sorted(p.relative_to(root).as_posix() for p in (root / PACKAGE).rglob("*.py")
                  if "__pycache__" not in p.parts)


def source_hashes(root: Path, under: str = SOURCES) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): sha256(p)
            for p in sorted((root / under).rglob("*.py")) if "__pycache__" not in p.parts}


def refresh_unmutated(work: Path, root: Path = ROOT) -> list[str]:
    """Copy the modules of ``fate_royal`` outside the mutated package that changed since the work
    folder was made into it and into mutmut's ``mutants/`` copy (where the tests import them);
    returns their paths."""
    changed = []
    for rel, digest in source_hashes(root).items():
        if rel.startswith(PACKAGE + "/"):
            continue
        for base in (work, work / "mutants"):
            dst = base / rel
            if not dst.exists() or sha256(dst) != digest:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(root / rel, dst)
                if base == work:
                    changed.append(rel)
    return changed


def load_record(path: Path = FULL) -> dict:
    if path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {"package": PACKAGE, "generated": {}, "modules": {}}


def save_record(record: dict, path: Path = FULL) -> None:
    record["modules"] = dict(sorted(record["modules"].items()))
    record["generated"] = dict(sorted(record["generated"].items()))
    path.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def _readable_json(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="utf-8")
        json.loads(text)
    except (OSError, ValueError):
        return None
    return text


def backup_metas(work: Path) -> int:
    """Copy every readable ``.meta`` file of mutmut to ``.meta.bak`` beside it (atomically): mutmut
    rewrites a .meta in place after each mutant, so a run killed at that moment empties it and its
    module's results are lost; ``restore_metas`` brings the last copy back. Returns how many."""
    done = 0
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        text = _readable_json(meta)
        if text is None:
            continue
        bak = meta.with_name(meta.name + ".bak")
        tmp = meta.with_name(meta.name + ".bak.tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, bak)
        done += 1
    return done


def restore_metas(work: Path) -> list[Path]:
    """Put back the last backup of every unreadable ``.meta`` file (see ``backup_metas``); returns
    the files restored. A meta with no readable backup is left for ``meta_data`` to warn about."""
    restored = []
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        if _readable_json(meta) is not None:
            continue
        text = _readable_json(meta.with_name(meta.name + ".bak"))
        if text is None:
            continue
        tmp = meta.with_name(meta.name + ".tmp")
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, meta)
        restored.append(meta)
    return restored


def run_mutmut(work: Path, names: list[str], jobs: int, log: Path, every: float = 60.0) -> int:
    """``mutmut run`` of ``names``, backing the .meta files up every ``every`` seconds meanwhile."""
    stop = threading.Event()

    def keep_copies() -> None:
        while not stop.wait(every):
            backup_metas(work)

    watcher = threading.Thread(target=keep_copies, daemon=True)
    watcher.start()
    try:
        return mutmut(work, names, jobs, log)
    finally:
        stop.set()
        watcher.join()
        backup_metas(work)


def meta_data(work: Path) -> tuple[dict[str, int | None], dict[str, float]]:
    """Exit code and duration of every mutant in the work folder."""
    codes: dict[str, int | None] = {}
    durations: dict[str, float] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        try:
            data = json.loads(meta.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # mutmut killed while rewriting it: its results are lost
            print(f"warning: {meta} is unreadable ({exc}); its mutants count as not run",
                  file=sys.stderr)
            continue
        codes.update(data.get("exit_code_by_key", {}))
        durations.update(data.get("durations_by_key", {}))
    return codes, durations


def sync(work: Path, log: Path, jobs: int) -> None:
    """The work folder made afresh (sources changed, or none yet) or its tests copied in again
    (the next ``mutmut run`` copies them into ``mutants/`` and maps the new ones)."""
    fresh = (not (work / "mutants").is_dir()
             or source_hashes(work, PACKAGE) != source_hashes(ROOT, PACKAGE))
    if fresh:
        print(f"== making the work folder {work} afresh (generating mutants, mapping tests)",
              flush=True)
        prepare(work, [f"{PACKAGE}/*"])
    else:
        for name in COPY:
            if name in (SOURCES, "pyproject.toml"):
                continue
            src, dst = ROOT / name, work / name
            if src.is_dir():
                shutil.rmtree(dst, ignore_errors=True)
                shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            elif src.exists():
                shutil.copy2(src, dst)
        changed = refresh_unmutated(work)
        if changed:
            print(f"== brought up to date in the work folder (not mutated): {', '.join(changed)}",
                  flush=True)
    if fresh:  # a run that matches no mutant generates them, maps the tests, and stops
        mutmut(work, ["fate_royal.__no_mutant__"], jobs, log)


def recorded_results(module: str, work: Path) -> tuple[set[str], int] | None:
    """The module's recorded survivors and timeouts, when its record is complete and its source
    unchanged: a ``--survivors`` run in a work folder made afresh (which holds no results) re-tests
    those and keeps the record's kills."""
    old = load_record()["modules"].get(module)
    if not old or not old.get("complete") or old.get("sha256") != sha256(work / module):
        return None
    return set(old["survivors"]), old.get("timeouts", 0)


def tally(module: str, codes: dict[str, int | None], durations: dict[str, float],
          skip: list[str], recorded: tuple[set[str], int] | None = None) -> dict:
    names = sorted(n for n in codes if module_of(n) == module)
    counted = [n for n in names if not is_equivalent(n, skip)]
    got = [codes[n] for n in counted]
    killed = sum(c in KILLED and c not in TIMEOUT for c in got)
    timeouts = sum(c in TIMEOUT for c in got)
    if recorded is not None:  # a mutant with no result here that the record counted as killed
        old_survivors, old_timeouts = recorded
        kept = sum(codes[n] is None and n not in old_survivors for n in counted)
        kept_timeouts = min(old_timeouts, kept)
        killed += kept - kept_timeouts
        timeouts += kept_timeouts
        codes = {n: (KILLED_CODE if codes[n] is None and n not in old_survivors else codes[n])
                 for n in codes}
        got = [codes[n] for n in counted]
    survivors = [n for n in counted if codes[n] in SURVIVED]
    no_tests = [n for n in counted if codes[n] in NO_TESTS]
    not_run = sum(c is None for c in got)
    other = len(counted) - killed - timeouts - len(survivors) - len(no_tests) - not_run
    return {
        "mutants": len(names), "equivalent": len(names) - len(counted),
        "killed": killed, "timeouts": timeouts, "survived": len(survivors),
        "no_tests": len(no_tests), "other": other, "not_run": not_run,
        "score": round((killed + timeouts) / len(counted), 4) if counted else None,
        "mutant_seconds": round(sum(durations.get(n, 0.0) or 0.0 for n in counted)),
        "survivors": survivors + no_tests,
    }


def moved_equivalents(module: str, root: Path = ROOT) -> int:
    """How many ``equivalent.txt`` lines name mutants of ``module`` when its source has changed
    since its record: mutmut numbers mutants per function, so an edit can make such a line name
    another mutant, which would then be skipped untested (0 when unchanged or never recorded)."""
    old = load_record()["modules"].get(module)
    if not old or old.get("sha256") == sha256(root / module):
        return 0
    return sum(module_of(p) == module for p in equivalent_patterns())


def run_module(module: str, work: Path, log: Path, jobs: int, *, again: bool,
               survivors_only: bool, no_run: bool = False) -> dict | None:
    codes, _ = meta_data(work)
    skip = equivalent_patterns()
    recorded = None
    names = sorted(n for n in codes if module_of(n) == module and not is_equivalent(n, skip))
    if not names:
        sys.exit(f"no mutants of {module} in {work} (is it a module of {PACKAGE}?)")
    if no_run and all(codes[n] is None for n in names):
        # a work folder made afresh (or being made) since the run: recording it would replace the
        # module's record by "nothing run"
        print(f"== {module}: the work folder holds no results for it; nothing recorded", flush=True)
        return None
    if no_run:
        todo = []
    elif survivors_only:
        recorded = recorded_results(module, work)
        # A work folder that holds the module's results (any result but a recorded survivor's)
        # holds its kills itself: a mutant there without a result was never run -- skipped as
        # equivalent under numbers an edit has since moved, or cut off -- and is run now, never
        # counted as one of the record's kills. Only a folder made afresh borrows those.
        holds = any(codes[n] is not None and (recorded is None or n not in recorded[0]) for n in names)
        if holds:
            recorded = None
        todo = [n for n in names if codes[n] in SURVIVED | NO_TESTS
                or (codes[n] is None and (holds or (recorded is not None and n in recorded[0])))]
        if recorded is not None and not any(codes[n] is None and n not in recorded[0]
                                            for n in names):
            recorded = None  # the work folder holds the kills itself
    elif again:
        todo = names
    else:
        todo = [n for n in names if codes[n] is None]
    print(f"== {module}: {len(names)} mutants to count, {len(todo)} to run", flush=True)
    start = time.monotonic()
    if todo:
        run_mutmut(work, todo, jobs, log)
    wall = time.monotonic() - start
    codes, durations = meta_data(work)
    entry = tally(module, codes, durations, skip, recorded)
    entry.update(sha256=sha256(work / module), date=dt.date.today().isoformat(), jobs=jobs,
                 complete=entry["not_run"] == 0, ran=len(todo), wall_seconds=round(wall))
    if recorded is not None:  # the kills' test time is the record's
        entry["mutant_seconds"] += load_record()["modules"][module]["mutant_seconds"]
    return entry


def status(record: dict, root: Path = ROOT, out=sys.stdout) -> dict:
    """Print the table of every rules module and the overall figure; return the totals."""
    rows = []
    fresh_mutants = fresh_counted = fresh_killed = 0
    for module in rules_modules(root):
        entry = record["modules"].get(module)
        if entry is None:
            state = "never run"
        elif entry["sha256"] != sha256(root / module):
            state = "stale"
        elif not entry.get("complete", True):
            state = "partial"
        else:
            state = "recorded"
            counted = entry["mutants"] - entry["equivalent"]
            fresh_mutants += entry["mutants"]
            fresh_counted += counted
            fresh_killed += entry["killed"] + entry["timeouts"]
        rows.append((module, state, entry))
    print(f"{'module':44} {'state':9} {'mutants':>7} {'equiv':>5} {'killed':>6} {'surv':>5} "
          f"{'score':>6}  date", file=out)
    for module, state, e in rows:
        if e is None:
            print(f"{module:44} {state:9} {record['generated'].get(module, '?'):>7}", file=out)
            continue
        score = f"{e['score']:.1%}" if e.get("score") is not None else "-"
        print(f"{module:44} {state:9} {e['mutants']:>7} {e['equivalent']:>5} "
              f"{e['killed'] + e['timeouts']:>6} {e['survived'] + e['no_tests']:>5} {score:>6}  "
              f"{e['date']}", file=out)
    total = sum(record["generated"].values())
    share = fresh_mutants / total if total else 0.0
    figure = fresh_killed / fresh_counted if fresh_counted else 0.0
    print(f"overall (recorded, fresh): killed {fresh_killed}/{fresh_counted} non-equivalent = "
          f"{figure:.1%}; covers {fresh_mutants} of the package's {total or '?'} mutants "
          f"({share:.1%})", file=out)
    return {"killed": fresh_killed, "counted": fresh_counted, "mutants": fresh_mutants,
            "total": total}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--module", nargs="+", default=[], help="repository paths of rules modules")
    ap.add_argument("--status", action="store_true", help="print the table and the overall figure")
    ap.add_argument("--max-children", "--jobs", dest="jobs", type=int, default=1)
    ap.add_argument("--work", type=Path, default=ROOT / "mutation-full")
    ap.add_argument("--again", action="store_true", help="test every mutant, not only the new ones")
    ap.add_argument("--survivors", action="store_true",
                    help="test only the module's survivors again (after adding rulings)")
    ap.add_argument("--no-run", action="store_true",
                    help="run nothing: record the module from the results in the work folder "
                         "(an interrupted run is recorded as partial)")
    a = ap.parse_args(argv)
    record = load_record()
    if a.status or not a.module:
        status(record)
        return 0
    unknown = [m for m in a.module if m not in rules_modules()]
    if unknown:
        sys.exit(f"not modules of {PACKAGE}: {', '.join(unknown)}")
    log = a.work.with_suffix(".log")
    with log.open("a", encoding="utf-8") as out:
        out.write(f"== {dt.datetime.now().isoformat(timespec='seconds')} {' '.join(a.module)}\n")
    for meta in restore_metas(a.work) if (a.work / "mutants").is_dir() else []:
        print(f"warning: {meta} was unreadable (a run killed while mutmut rewrote it); restored "
              f"its last backup", file=sys.stderr)
    if not a.no_run:
        sync(a.work, log, a.jobs)
    codes, _ = meta_data(a.work)
    if not codes:
        print(f"error: mutmut generated no mutants; see {log}", file=sys.stderr)
        return 2
    record = load_record()
    record["generated"] = {m: sum(module_of(n) == m for n in codes) for m in rules_modules()}
    save_record(record)
    for module in a.module:
        moved = moved_equivalents(module)
        if moved:
            print(f"warning: {module} changed since its record and {moved} equivalent lines name "
                  f"its mutants: an edited function renumbers them, so check that each still names "
                  f"the change its reason describes (python tools/mutation_diff.py {module} "
                  f"--equivalent) before trusting this run", file=sys.stderr, flush=True)
        entry = run_module(module, a.work, log, a.jobs, again=a.again, survivors_only=a.survivors,
                           no_run=a.no_run)
        if entry is None:
            continue
        record = load_record()  # as it stands now: a run beside this one may have recorded
        old = record["modules"].get(module)
        if old and old.get("sha256") == entry["sha256"] and entry["ran"] < entry["mutants"]:
            # a resumed or survivors-only run: the wall time adds to the earlier runs'
            entry["wall_seconds"] += old.get("wall_seconds", 0)
        record["modules"][module] = entry
        save_record(record)
        score = f"{entry['score']:.1%}" if entry["score"] is not None else "-"
        print(f"== {module}: {entry['mutants']} mutants, {entry['equivalent']} equivalent, "
              f"killed {entry['killed']} + {entry['timeouts']} timeouts, survived "
              f"{entry['survived']}, no tests {entry['no_tests']}, not run {entry['not_run']}: "
              f"{score} ({entry['wall_seconds']} s)", flush=True)
        for n in entry["survivors"]:
            print(f"  survived: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
