#!/usr/bin/env python3
"""Try some mutants of one module against some tests, without a mutation run (README.md, "Mutation
testing"): the quick way to see that a new test kills the survivors it was written for.

The module is mutated in memory by mutmut's own generator (tools/mutation_diff.py) and written into
a copy of the ``fate_royal`` package in a temporary folder, which shadows the checkout; each
named mutant is then switched on (mutmut's ``MUTANT_UNDER_TEST``) for one pytest run of the given
tests, stopping at the first failure.

    python tools/mutation_check.py fate_royal/rules/invariants.py --function check_state \\
        -- tests/rules/test_invariants.py
    python tools/mutation_check.py fate_royal/rules/view.py --survivors -- tests/rules/test_view.py
    python tools/mutation_check.py fate_royal/rules/errors.py \\
        --names 'fate_royal.rules.errors.xǁIllegalActionǁ__init____mutmut_7' -- tests/rules

Prints a line per mutant (killed / SURVIVED, and the change) and exits 1 when any survived.
"""

from __future__ import annotations

import argparse
import fnmatch
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from mutation_diff import ROOT, mutants, recorded_survivors  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    tests = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("module", help="a repository path, e.g. fate_royal/rules/zones.py")
    ap.add_argument("--names", nargs="+", default=[], help="mutant names or globs")
    ap.add_argument("--function", help="every mutant of this function")
    ap.add_argument("--survivors", action="store_true",
                    help="only (of those chosen, or of the module) the mutants full.json records as "
                         "surviving or run by no test")
    a = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    if not tests:
        ap.error("give the tests to run after --")
    from mutmut.mutation.file_mutation import mutate_file_contents

    found = mutants(a.module)
    names = [n for n in found
             if any(fnmatch.fnmatchcase(n, p) for p in a.names)
             or (a.function and (f"x_{a.function}__mutmut_" in n or f"ǁ{a.function}__mutmut_" in n))
             or (a.survivors and not a.names and not a.function)]
    if a.survivors:
        keep = recorded_survivors(a.module)
        names = [n for n in names if n in keep]
    if not names:
        print("error: no mutant matches", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="mutation-check-") as tmp:
        shutil.copytree(ROOT / "fate_royal", Path(tmp) / "fate_royal",
                        ignore=shutil.ignore_patterns("__pycache__"))
        source = (ROOT / a.module).read_text(encoding="utf-8")
        (Path(tmp) / a.module).write_text(mutate_file_contents(a.module, source).code,
                                          encoding="utf-8")
        env = dict(os.environ, FATE_ROYAL_DATA=str(ROOT),
                   QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        survived = 0
        for name in names:
            env["MUTANT_UNDER_TEST"] = name
            # run from the temporary folder: ``python -m`` puts it first on sys.path, ahead of the
            # checkout that an editable install adds
            r = subprocess.run([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                                "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml"),
                                *[str(ROOT / t) if (ROOT / t).exists() else t for t in tests]],
                               cwd=tmp, env=env, capture_output=True, text=True)
            killed = r.returncode != 0
            survived += not killed
            print(f"{'killed  ' if killed else 'SURVIVED'} {name.rpartition('.')[2]}: {found[name]}",
                  flush=True)
    print(f"{len(names) - survived} of {len(names)} killed")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
