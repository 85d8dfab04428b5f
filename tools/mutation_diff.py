#!/usr/bin/env python3
"""The mutants of one module as the source stands now, without a mutation run (README.md,
"Mutation testing"): mutmut's own generator, in memory, a line per mutant with its change.

mutmut numbers a function's mutants in order, so a changed function renumbers them, and a line of
``tests/mutation/equivalent.txt`` may then name another mutant. After changing a function that has
equivalent lines, ``--equivalent`` prints each of the module's equivalent names with the change it
names now, beside the reason written for it, to be read together.

    python tools/mutation_diff.py fate_royal/rules/effects/combat_ops.py            # every mutant
    python tools/mutation_diff.py fate_royal/rules/effects/combat_ops.py --function negate
    python tools/mutation_diff.py fate_royal/rules/effects/combat_ops.py --equivalent
    python tools/mutation_diff.py fate_royal/rules/view.py --survivors   # the last full run's

``--survivors`` keeps the mutants that ``tests/mutation/full.json`` records as surviving (or run by
no test) for the module: the work list after a full run. The names are those of the recorded run,
so they match only while the module's source is the one that run saw.
"""

from __future__ import annotations

import argparse
import fnmatch
import sys
from difflib import unified_diff
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT = ROOT / "tests" / "mutation" / "equivalent.txt"
FULL = ROOT / "tests" / "mutation" / "full.json"


def recorded_survivors(module: str) -> set[str]:
    """The names full.json records as surviving or reached by no test, for the module."""
    import json

    entry = json.loads(FULL.read_text(encoding="utf-8"))["modules"].get(module, {})
    return {n for n in entry.get("survivors", [])}


def mutants(module: str) -> dict[str, str]:
    """Every mutant of the module (a repository path) by name, with its change as ``-old | +new``
    lines."""
    import libcst as cst
    from mutmut.mutation.file_mutation import mutate_file_contents
    from mutmut.utils.format_utils import get_mutant_name

    from mutmut.mutation.diff_apply import read_mutant_function, read_original_function

    source = (ROOT / module).read_text(encoding="utf-8")
    mutated = mutate_file_contents(module, source)
    tree = cst.parse_module(mutated.code)
    out = {}
    for short in mutated.mutant_names:
        name = get_mutant_name(Path(module), short)
        old, new = (cst.Module([f]).code.strip().split("\n")
                    for f in (read_original_function(tree, name), read_mutant_function(tree, name)))
        changed = [line for line in unified_diff(old, new, lineterm="", n=0)
                   if line[:1] in "+-" and line[:3] not in ("+++", "---")]
        out[name] = " | ".join(" ".join(c.split()) for c in changed)
    return out


def equivalent_lines() -> list[tuple[str, str]]:
    rows = []
    for line in EQUIVALENT.read_text(encoding="utf-8").splitlines():
        name, _, reason = line.partition("#")
        if name.strip():
            rows.append((name.strip(), reason.strip()))
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("module", help="a repository path, e.g. fate_royal/rules/zones.py")
    ap.add_argument("--function", help="only this function's mutants (its name in the source)")
    ap.add_argument("--equivalent", action="store_true",
                    help="the module's lines of equivalent.txt, each with the change it names now")
    ap.add_argument("--survivors", action="store_true",
                    help="only the mutants full.json records as surviving or run by no test")
    a = ap.parse_args(argv)
    if not (ROOT / a.module).is_file():
        print(f"error: no such module: {a.module}", file=sys.stderr)
        return 2
    found = mutants(a.module)
    if a.equivalent:
        missing = 0
        for pattern, reason in equivalent_lines():
            names = sorted(n for n in found if fnmatch.fnmatchcase(n, pattern))
            if not names and pattern.rpartition(".x")[0] == a.module[:-3].replace(
                    "/", ".").replace(".__init__", ""):
                print(f"{pattern}\n    reason: {reason}\n    now:    (no such mutant)")
                missing += 1
            for n in names if "*" not in pattern else []:
                print(f"{n}\n    reason: {reason}\n    now:    {found[n]}")
        return 1 if missing else 0
    keep = recorded_survivors(a.module) if a.survivors else None
    for name, change in found.items():
        if keep is not None and name not in keep:
            continue
        if a.function is None or f"x_{a.function}__mutmut_" in name or \
                f"ǁ{a.function}__mutmut_" in name:
            print(f"{name.rpartition('.')[2]}: {change}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
