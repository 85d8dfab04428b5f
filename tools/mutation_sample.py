#!/usr/bin/env python3
"""The sampled mutation check of issue 17 (README.md, "Mutation testing").

Copies the repository into a fresh work folder (``mutation-sample/``, git-ignored), has mutmut
generate the mutants of the engine modules named in ``tests/mutation/sample.json``, picks
``per_module`` mutants of each module with a fixed seed, runs exactly those (the rules and cards
tests that reach each one, ruling scenarios included) and compares the killed fraction with the
recorded score. Exit 1 when it is below ``score - margin``; 0 otherwise.

Mutants listed in ``tests/mutation/equivalent.txt`` (no behavioural difference, with the reason)
are never drawn. A timeout counts as killed if it times out again with four times the time
allowed (a starved machine can make a survivor time out); "no tests" counts as survived.

    python tools/mutation_sample.py                 # the CI check
    python tools/mutation_sample.py --per-module 60 # a larger sample, same seed
    python tools/mutation_sample.py --record        # store the measured fraction as the score
    python tools/mutation_sample.py --modules 'fate_royal/cards/*.py'   # a look at other modules

Run it under ``nice -n 19`` on a shared machine. It needs mutmut (``pip install -e '.[mutation]'``).
"""

from __future__ import annotations

import argparse
import datetime as dt
import fnmatch
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "mutation" / "sample.json"
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.txt"
COPY = ("fate_royal", "tests", "cards", "assets", "scenarios", "docs", "pyproject.toml", "README.md")
KILLED = {1, 3, 36, -24, 24, 152, 255}  # killed or timed out (mutmut's exit codes)
SURVIVED = {0, 5, 33}  # survived, or no test reaches it
TIMEOUT = {36, -24, 24, 152, 255}  # the KILLED codes that are timeouts (SIGXCPU)


def equivalent_patterns() -> list[str]:
    """Mutant names (or globs) marked equivalent: ``name  # reason`` a line."""
    if not EQUIVALENT.exists():
        return []
    out = []
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        name = line.split("#", 1)[0].strip()
        if name:
            out.append(name)
    return out


def is_equivalent(name: str, patterns: list[str]) -> bool:
    return any(name == p or fnmatch.fnmatchcase(name, p) for p in patterns)


def prepare(work: Path, modules: list[str]) -> None:
    """A fresh copy of the repository whose mutmut config mutates only ``modules``."""
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", "mutants", ".pytest_cache")
    for name in COPY:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, work / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, work / name)
    text = (work / "pyproject.toml").read_text(encoding="utf-8")
    only = "only_mutate = [" + ", ".join(f'"{m}"' for m in modules) + "]"
    lines = [only if ln.startswith("only_mutate =") else ln for ln in text.splitlines()]
    if only not in lines:
        sys.exit("pyproject.toml has no [tool.mutmut] only_mutate line to narrow")
    (work / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def mutmut(work: Path, args: list[str], jobs: int, log: Path) -> int:
    cmd = [sys.executable, "-m", "mutmut", "run", "--max-children", str(jobs), *args]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONDONTWRITEBYTECODE="1")
    with log.open("a", encoding="utf-8") as out:
        out.write(f"$ {' '.join(cmd[:6])} … ({len(args)} names)\n")
        out.flush()
        return subprocess.run(cmd, cwd=work, env=env, stdout=out, stderr=subprocess.STDOUT,
                              stdin=subprocess.DEVNULL).returncode


def widen_timeout(work: Path, factor: float) -> None:
    """Multiply the work folder's mutmut ``timeout_multiplier`` by ``factor``."""
    path = work / "pyproject.toml"
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        match = re.match(r"timeout_multiplier\s*=\s*([0-9.]+)\s*$", line)
        if match:
            lines[i] = f"timeout_multiplier = {float(match.group(1)) * factor}"
            break
    else:  # mutmut's default multiplier is 15
        lines.insert(lines.index("[tool.mutmut]") + 1, f"timeout_multiplier = {15.0 * factor}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def results(work: Path) -> dict[str, int | None]:
    out: dict[str, int | None] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text(encoding="utf-8"))
        out.update(data.get("exit_code_by_key", {}))
    return out


def module_of(name: str) -> str:
    """fate_royal.rules.zones.x_draw__mutmut_3 -> fate_royal/rules/zones.py (a package's
    fate_royal.rules.effects.x_… -> fate_royal/rules/effects/__init__.py)."""
    match = re.match(r"(.+?)\.x[_ǁ]", name)
    dotted = (match.group(1) if match else name).replace(".__init__", "")
    path = dotted.replace(".", "/")
    return path + "/__init__.py" if (ROOT / path).is_dir() else path + ".py"


def main(argv: list[str] | None = None) -> int:
    record = json.loads(RECORD.read_text(encoding="utf-8"))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-module", type=int, default=record["per_module"])
    ap.add_argument("--seed", type=int, default=record["seed"])
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    ap.add_argument("--work", type=Path, default=ROOT / "mutation-sample")
    ap.add_argument("--record", action="store_true", help="store the measured fraction as the score")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    ap.add_argument("--rejudge", action="store_true",
                    help="run nothing: judge the results kept in the work folder (--keep) again, "
                         "against the record as it is now")
    ap.add_argument("--modules", nargs="+", metavar="PATH",
                    help="sample these modules instead of the recorded ones (e.g. "
                         "fate_royal/cards/*.py); a look, never recorded")
    a = ap.parse_args(argv)
    if a.modules and a.record:
        ap.error("--modules samples other modules than the record's: it cannot --record")

    modules = sorted({str(m.relative_to(ROOT)) for pat in a.modules for m in ROOT.glob(pat)
                      if m.suffix == ".py"}) if a.modules else record["modules"]
    if not modules:
        ap.error(f"no module matches {' '.join(a.modules)}")
    start = time.monotonic()
    log = a.work.with_suffix(".log")
    if not a.rejudge:
        log.write_text("", encoding="utf-8")
        prepare(a.work, modules)
    print(f"== mutation sample: {len(modules)} modules, {a.per_module} mutants each, seed {a.seed}"
          f" (log: {log})", flush=True)

    # 1. generate the mutants and collect which tests reach which function: a run that matches
    #    no mutant stops right after (mutmut has no generate-only command).
    if not a.rejudge:
        mutmut(a.work, ["fate_royal.__no_mutant__"], a.jobs, log)
    every = results(a.work)
    if not every:
        print("error: mutmut generated no mutants; see the log", file=sys.stderr)
        print(log.read_text(encoding="utf-8")[-3000:], file=sys.stderr)
        return 2
    skip = equivalent_patterns()
    rng = random.Random(a.seed)
    sample: list[str] = []
    for module in modules:
        names = sorted(n for n in every if module_of(n) == module and not is_equivalent(n, skip))
        sample += sorted(rng.sample(names, min(a.per_module, len(names))))
    print(f"== {len(every)} mutants generated, {len(sample)} drawn "
          f"({time.monotonic() - start:.0f} s)", flush=True)

    # 2. run exactly the drawn mutants.
    if not a.rejudge:
        mutmut(a.work, sample, a.jobs, log)
    got = results(a.work)
    timed_out = [n for n in sample if got.get(n) in TIMEOUT]
    if timed_out and not a.rejudge:
        # A timeout counts as a kill, but a starved machine can make a survivor time out (and so
        # hide a deleted ruling): those mutants run once more with four times the time allowed,
        # and only what times out (or fails) again counts as killed.
        print(f"== {len(timed_out)} timed out; running them again with more time", flush=True)
        widen_timeout(a.work, 4)
        mutmut(a.work, timed_out, a.jobs, log)
        got = results(a.work)
    killed = [n for n in sample if got.get(n) in KILLED]
    survived = [n for n in sample if got.get(n) in SURVIVED]
    other = [n for n in sample if n not in killed and n not in survived]
    counted = len(killed) + len(survived)
    if not counted:
        print("error: no drawn mutant was tested; see the log", file=sys.stderr)
        print(log.read_text(encoding="utf-8")[-3000:], file=sys.stderr)
        return 2
    score = len(killed) / counted
    wall = time.monotonic() - start
    record = json.loads(RECORD.read_text(encoding="utf-8"))  # as it stands now, at the comparison
    before = set(survived if a.modules else record.get("survivors", survived))
    for n in survived:
        print(f"  survived: {n}{'' if n in before else '   <- new since the record'}")
    for n in other:
        print(f"  not run ({got.get(n)}): {n}")
    against = "" if a.modules else \
        f" (recorded {record['score']:.1%}, margin {record['margin']:.1%})"
    print(f"== killed {len(killed)}/{counted} = {score:.1%} in {wall:.0f} s{against}", flush=True)

    if a.record:
        record.update(score=round(score, 4), killed=len(killed), counted=counted,
                      measured=dt.date.today().isoformat(), per_module=a.per_module, seed=a.seed,
                      survivors=survived)
        if not a.rejudge:  # a rejudged record keeps the wall time of the run it judged
            record["wall_seconds"] = round(wall)
        RECORD.write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        print(f"== recorded in {RECORD.relative_to(ROOT)}")
    if not a.keep and not a.rejudge:
        shutil.rmtree(a.work, ignore_errors=True)
    if a.modules:  # a look at other modules: nothing to compare with
        return 0
    if not a.record and score < record["score"] - record["margin"]:
        print(f"FAILED: killed fraction {score:.1%} is below the recorded "
              f"{record['score']:.1%} minus {record['margin']:.1%}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
