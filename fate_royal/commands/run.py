"""``fate-royal run FILE... [--rules SET] [--compare SET]``: play scenario files headless.

Prints each step with the rule ids it cited; the last line is ``N passed, M failed`` (scenarios);
exit 1 if any failed. ``--rules`` plays every file under one rule set instead of its own (a shipped
name such as ``base``, or a rule-set file); ``--no-errata`` is ``--rules base``. ``--compare B`` is the
ruling sweep: each file is played under the ``--rules`` set (default: its own) and under B, and the
files whose outcome changes are listed with the first log line that differs. A scenario that names
something that does not exist fails with a clear ``file:line`` message, never a traceback.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fate_royal.cards.yamlsrc import DataError
from fate_royal.rules.errors import RulesError


def expand(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(x for x in p.rglob("*.yaml") if x.is_file()))
        else:
            out.append(p)
    return out


@dataclass
class FileResult:
    path: Path
    ok: bool
    error: str = ""  # could not be loaded or set up
    lines: list[str] = field(default_factory=list)  # the log, rendered
    failed_steps: list[str] = field(default_factory=list)


def play(path: Path, rules: Any, lang: str, out=None, verbose: bool = False) -> FileResult:
    """Play one scenario file under ``rules`` (None: its own), printing to ``out`` when given."""
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun
    from fate_royal.text import Words

    try:
        scenario = load_scenario(path)
        run = ScenarioRun(scenario, rules=rules)
    except (DataError, RulesError) as exc:  # the file's problems, in the chosen language
        if out:
            from fate_royal.text.dataerrors import localize_error

            print(f"FAIL {path}", file=out)
            for line in localize_error(exc, lang).splitlines():
                print(f"  {line}", file=out)
        return FileResult(path, False, str(exc))
    except Exception as exc:  # an engine bug while setting up: report, keep the batch going
        if out:
            print(f"FAIL {path}\n  internal error: {type(exc).__name__}: {exc}", file=out)
        return FileResult(path, False, f"internal error: {type(exc).__name__}: {exc}")
    words = Words.for_game(run.game, lang)
    run.describe_action = words.action_line
    game_rules = run.game.rules
    label = game_rules.title or game_rules.name or "custom rules"
    if out:
        print(f"== {path}: {scenario.title} ({label})", file=out)
    result = FileResult(path, True)
    while not run.done:
        res = run.forward()
        result.ok = result.ok and res.ok
        message = res.message
        if not res.ok and lang != "en":  # the checker's findings in the chosen language
            from fate_royal.text.verdicts import failure_details

            message = failure_details(res.findings, words) or message
        if not res.ok:
            result.failed_steps.append(f"{path}:{res.step.line} {message}")
        if out:
            mark = "ok  " if res.ok else "FAIL"
            cites = f"  [{', '.join(res.rules)}]" if res.rules else ""
            print(f"  {mark} {path}:{res.step.line} {res.step.label()} → {message}{cites}",
                  file=out)
            if verbose or not res.ok:
                for e in res.events:
                    print(f"         {words.event_line(e)}", file=out)
    result.lines = [words.event_line(e) for e in run.game.log]
    if out:
        print(f"  {'PASS' if result.ok else 'FAIL'} {path}", file=out)
    return result


def _ruleset(spec: str, option: str = "--rules") -> Any:
    from fate_royal.cards.rulesets import resolve_ruleset

    return resolve_ruleset(spec, relative_to=Path.cwd(), source=option)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fate-royal run", description="Play scenario files.")
    parser.add_argument("files", nargs="+", metavar="FILE", help="scenario files or folders")
    parser.add_argument("--rules", metavar="SET",
                        help="play under this rule set (a shipped name: house, base; or a file)")
    parser.add_argument("--no-errata", action="store_true", help="the same as --rules base")
    parser.add_argument("--compare", metavar="SET",
                        help="ruling sweep: also play each file under SET and list the files whose "
                             "outcome changes, with the first differing log line")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every log line")
    parser.add_argument("--lang", choices=("ja", "en"), default="en")
    args = parser.parse_args(argv)
    if args.rules and args.no_errata:
        parser.error("--no-errata and --rules are the same thing; give one")
    from fate_royal.paths import data_root

    data_root()  # a FATE_ROYAL_DATA that points nowhere stops here, with its message
    option = "--rules" if args.rules else "--no-errata"
    try:
        rules = _ruleset(args.rules) if args.rules else _ruleset("base") if args.no_errata else None
        option = "--compare"
        other = _ruleset(args.compare, option) if args.compare else None
    except DataError as exc:
        from fate_royal.commands import option_error_lines

        for line in option_error_lines(exc, option):
            print(f"fate-royal run: {line}", file=sys.stderr)
        return 2
    files = expand(args.files)
    if not files:
        print(f"fate-royal run: no scenario files (*.yaml) in {' '.join(args.files)}", file=sys.stderr)
        return 1
    if other is not None:
        return _sweep(files, rules, other, args.lang)
    passed = failed = 0
    for path in files:
        if not path.exists():
            print(f"FAIL {path}: no such file")
            failed += 1
            continue
        ok = play(path, rules, args.lang, sys.stdout, args.verbose).ok
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def sweep(files: list[Path], first: Any, second: Any, lang: str = "en") -> list[dict]:
    """Play each file under both rule sets; the files whose outcome changes, each with both
    verdicts and the first log line that differs (when the logs are the same, the first failed
    step of each side)."""
    from fate_royal.rules.compare import ruling_sweep
    from fate_royal.text import Words

    changed = []
    for entry in ruling_sweep(files, first, second):
        lines = []
        for is_first in (True, False):
            play = entry.first if is_first else entry.second
            event = entry.event(is_first)
            if event is not None:
                lines.append(Words.for_game(play.game, lang).event_line(event))
            elif play.error:
                lines.append(play.error)
            elif entry.index is None and play.failures:
                lines.append("(same log) " + play.failures[0])
            elif entry.index is None:
                lines.append("(same log) all checks pass")
            else:
                lines.append("(log ends)")
        changed.append({
            "path": entry.path, "first_ok": entry.first.ok, "second_ok": entry.second.ok,
            "line": (entry.index + 1) if entry.index is not None else None,
            "first": lines[0], "second": lines[1],
        })
    return changed


def _sweep(files: list[Path], first: Any, second: Any, lang: str) -> int:
    a_label = (first.title or first.name) if first is not None else "each file's own rules"
    b_label = second.title or second.name
    changed = sweep(files, first, second, lang)
    print(f"ruling sweep: {len(files)} files under {a_label} and under {b_label}")
    for c in changed:
        verdict = lambda ok: "passes" if ok else "fails"  # noqa: E731
        print(f"CHANGED {c['path']}: {verdict(c['first_ok'])} under {a_label}, "
              f"{verdict(c['second_ok'])} under {b_label}")
        where = f"log line {c['line']}" if c["line"] else "the logs are the same"
        print(f"  first difference ({where}):")
        print(f"    {a_label}: {c['first']}")
        print(f"    {b_label}: {c['second']}")
    print(f"{len(files) - len(changed)} unchanged, {len(changed)} changed")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
