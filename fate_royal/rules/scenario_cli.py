"""``fate-royal run FILE... [--no-errata]``: play scenario files headless and report.

Prints each step with the rule ids it cited; the last line is ``N passed, M failed`` (scenarios);
exit 1 if any failed. A scenario that names something that does not exist fails with a clear
``file:line`` message, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from fate_royal.cards.yamlsrc import DataError
from fate_royal.rules.errors import RulesError
from fate_royal.rules.events import format_line
from fate_royal.rules.scenario import ScenarioRun, load_scenario


def expand(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*.yaml") if x.is_file()))
        else:
            out.append(p)
    return out


def run_file(path: Path, errata: bool | None, verbose: bool, lang: str) -> tuple[bool, str]:
    """Run one scenario; print its steps; return (passed, summary line)."""
    try:
        scenario = load_scenario(path)
        run = ScenarioRun(scenario, errata=errata)
    except DataError as exc:
        print(f"FAIL {path}")
        for line in str(exc).splitlines():
            print(f"  {line}")
        return False, str(exc)
    except RulesError as exc:
        print(f"FAIL {path}\n  {exc}")
        return False, str(exc)
    mode = "errata " + ("on" if run.game.errata else "off")
    print(f"== {path}: {scenario.title} ({mode})")
    ok = True
    while not run.done:
        res = run.forward()
        ok = ok and res.ok
        mark = "ok  " if res.ok else "FAIL"
        cites = f"  [{', '.join(res.rules)}]" if res.rules else ""
        line = f"{path}:{res.step.line}"
        print(f"  {mark} {line} {res.step.label()} → {res.message}{cites}")
        if verbose or not res.ok:
            for e in res.events:
                print(f"         {format_line(e, lang)}")
    print(f"  {'PASS' if ok else 'FAIL'} {path}")
    return ok, ""


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fate-royal run", description="Play scenario files.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders")
    parser.add_argument("--no-errata", action="store_true", help="run with the house errata off")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every log line")
    parser.add_argument("--lang", choices=("ja", "en"), default="en")
    args = parser.parse_args(argv)
    files = expand(args.files)
    passed = failed = 0
    for path in files:
        if not path.exists():
            print(f"FAIL {path}: no such file")
            failed += 1
            continue
        ok, _ = run_file(path, False if args.no_errata else None, args.verbose, args.lang)
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not files else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
