"""``fate-royal rules list | show SET | diff A B``: the rule sets one may play under.

``list`` names the shipped sets and the user's own (in the user data folder); ``show`` prints a set as
the smallest rule-set file that gives it, then every switch it turns off, every reading it changes
and every D parameter away from its default; ``diff`` lists what differs between two sets. SET is a
shipped name (``house``, ``base``), a user set's name or a file. A set that does not load stops with
``file:line: message`` (exit 2).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def _load(spec: str, source: str) -> Any:
    from fate_royal.cards.rulesets import resolve_ruleset

    return resolve_ruleset(spec, relative_to=Path.cwd(), source=source)


def _label(rules: Any) -> str:
    return rules.title or rules.name or "custom rules"


def _value(rules: Any, key: str) -> str:
    from fate_royal.cards.ruleset import ERRATA_RULES, READINGS

    if key in READINGS:
        return rules.reading(key)
    profile = rules.profile.to_dict()
    if key in profile:
        return str(profile[key])
    if key in ERRATA_RULES:
        return "on" if rules.on(key) else "off"
    return "on" if key not in rules.off else "off"


def _list(out=None) -> int:
    out = out or sys.stdout
    from fate_royal.cards.rulesets import SHIPPED, available_rulesets

    for key, rules, problem in available_rulesets():
        where = "shipped" if key in SHIPPED else key
        if rules is None:
            print(f"{Path(key).stem:<16} (does not load) {problem}", file=out)
            continue
        name = key if key in SHIPPED else rules.name
        print(f"{name:<16} {_label(rules)}  [{where}]", file=out)
    return 0


def _show(rules: Any, out=None) -> int:
    out = out or sys.stdout
    from fate_royal.cards.ruleset import RuleSet
    from fate_royal.cards.rulesets import ruleset_yaml

    print(ruleset_yaml(rules).rstrip(), file=out)
    house = RuleSet.house(rules.profile.__class__.defaults())
    changed = house.differences(rules)
    print(f"# {len(changed)} switch(es) away from the house errata: "
          f"{', '.join(changed) if changed else 'none'}", file=out)
    return 0


def _diff(a: Any, b: Any, out=None) -> int:
    out = out or sys.stdout
    keys = a.differences(b)
    la, lb = _label(a), _label(b)
    print(f"{len(keys)} difference(s) between {la} and {lb}", file=out)
    for k in keys:
        print(f"  {k:<28} {la}: {_value(a, k):<12} {lb}: {_value(b, k)}", file=out)
    return 0


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="fate-royal rules", description="Rule sets: list, show, diff.")
    sub = parser.add_subparsers(dest="what", required=True)
    sub.add_parser("list", help="the shipped sets and your own")
    show = sub.add_parser("show", help="one set: its file form and what it switches")
    show.add_argument("set", metavar="SET")
    diff = sub.add_parser("diff", help="what differs between two sets")
    diff.add_argument("a", metavar="A")
    diff.add_argument("b", metavar="B")
    args = parser.parse_args(argv)
    from fate_royal.cards.yamlsrc import DataError
    from fate_royal.paths import data_root

    data_root()
    option = "SET" if args.what == "show" else "A"
    try:
        if args.what == "list":
            return _list()
        if args.what == "show":
            return _show(_load(args.set, "SET"))
        a = _load(args.a, "A")
        option = "B"
        return _diff(a, _load(args.b, "B"))
    except DataError as exc:
        from fate_royal.commands import option_error_lines

        for line in option_error_lines(exc, option):
            print(f"fate-royal rules: {line}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1:]))
