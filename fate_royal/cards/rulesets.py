"""Rule-set files: a group's choice of house rules, item by item, as a small YAML file.

```yaml
title: ハウスルール（山札の再作成なし）
from: house              # start from every errata rule on (house) or none (base); default house
without: [E8, E9.3]      # errata rules or card patches not in force
with: []                 # …or, from base, the ones that are
readings: {R1: kept}     # reading switches (R1 … R7) away from their defaults
profile: {hand_limit: 6} # D parameters changed from cards/profile.yaml
```

Shipped sets live in ``cards/rulesets/`` (``house``: the errata as written; ``base``: the base rules);
a group's own sets in the user data folder (``user_rulesets_dir``: ``save_user_ruleset``,
``import_ruleset``, ``export_ruleset``, ``list_user_rulesets``). ``resolve_ruleset`` accepts a shipped name, a file path or
a list of switch tokens (``[errata, -E9.3]``). Every problem is a ``DataError`` naming file and line.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable, Mapping

from fate_royal.cards.profile import RulesProfile, check_value, conflicts
from fate_royal.cards.ruleset import ERRATA_RULES, READINGS, RuleSet
from fate_royal.cards.yamlsrc import DataError, DataErrors, YList, YMap, location, plain, read_yaml

RULESET_DIR = "rulesets"
KEYS = ("title", "title_en", "from", "without", "with", "readings", "profile", "note")
SHIPPED = ("house", "base")


def shipped_dir(root: Path | None = None) -> Path:
    if root is None:
        from fate_royal.paths import cards_dir

        root = cards_dir()
    return Path(root) / RULESET_DIR


def known_switches(root: Path | None = None) -> list[str]:
    """Every switch a rule set may name: the errata rules, then the patch ids of the pack."""
    from fate_royal.cards.loader import errata_patches

    patches = [pid for pid, _rule, _card, _src in errata_patches(root)]
    return list(ERRATA_RULES) + [p for p in patches if p not in ERRATA_RULES]


def load_ruleset(path: str | Path, profile: RulesProfile | None = None, *, label: str | None = None,
                 root: Path | None = None, text: bytes | str | None = None) -> RuleSet:
    """Read a rule-set file. ``profile`` is the base profile its ``profile:`` changes (default: the
    shipped ``cards/profile.yaml``). Raises ``DataErrors``."""
    path = Path(path)
    label = label or path.as_posix()
    errors: list[DataError] = []
    if text is None:
        tree = read_yaml(path, label, errors)
    else:
        from fate_royal.cards.yamlsrc import parse_yaml

        tree = parse_yaml(text, label, errors)
    if errors:
        raise DataErrors(errors)
    if not isinstance(tree, YMap):
        raise DataErrors([DataError(label, 1, "a rule set must be a mapping (title, without, "
                                               "readings…)")])

    def err(holder: Any, key: Any, message: str) -> None:
        f, line = location(holder, key, (label, 1))
        errors.append(DataError(f, line, message))

    for k in tree:
        if k not in KEYS:
            err(tree, k, f"unknown key {k!r} in a rule set{_near(str(k), KEYS)}")
    for k in ("title", "title_en", "note"):
        if k in tree and not isinstance(tree[k], str):
            err(tree, k, f"{k} must be text")
    start = tree.get("from", "house")
    if start not in SHIPPED:
        err(tree, "from", f"from must be house or base, got {start!r}")
        start = "house"
    switches = set(known_switches(root))
    off: set[str] = set() if start == "house" else set(ERRATA_RULES)
    for key in ("without", "with"):
        lst = tree.get(key)
        if lst is None:
            continue
        if not isinstance(lst, YList):
            err(tree, key, f"{key} must be a list of rule ids such as [E8, E9.3]")
            continue
        for i, rid in enumerate(lst):
            if not isinstance(rid, str) or rid not in switches:
                err(lst, i, f"unknown errata rule or patch {rid!r}{_near(str(rid), switches)} "
                            "(errata rules are E1.1 … E9.7; patches are listed in cards/errata/)")
                continue
            if key == "without":
                off.add(rid)
            else:
                off.discard(rid)
                rule = rid.split("-")[0]
                if rule != rid:
                    off.discard(rule)
    readings: dict[str, str] = {}
    rtree = tree.get("readings") or YMap()
    if not isinstance(rtree, YMap):
        err(tree, "readings", "readings must be a mapping like {R1: kept}")
    else:
        for rid, value in rtree.items():
            reading = READINGS.get(rid) or next((r for r in READINGS.values() if r.key == rid), None)
            if reading is None:
                err(rtree, rid, f"unknown reading {rid!r}{_near(str(rid), READINGS)} "
                                f"(readings: {', '.join(READINGS)})")
                continue
            problem = reading.check(value)
            if problem:
                err(rtree, rid, problem)
                continue
            readings[reading.id] = str(value)
    ptree = tree.get("profile") or YMap()
    values: dict[str, Any] = {}
    if not isinstance(ptree, YMap):
        err(tree, "profile", "profile must be a mapping of rules-profile parameters")
    else:
        for k, v in ptree.items():
            problem = check_value(str(k), plain(v))
            if problem:
                err(ptree, k, problem)
            else:
                values[str(k)] = plain(v)
    if errors:
        raise DataErrors(errors)
    if profile is None:
        from fate_royal.cards.loader import load_profile

        profile = load_profile(None if root is None else Path(root) / "profile.yaml")
    for key, problem in conflicts({**profile.values, **values}, values):
        err(ptree, key, problem)
    if errors:
        raise DataErrors(errors)
    try:
        prof = RulesProfile.from_mapping(values, profile)
    except ValueError as exc:  # pragma: no cover - every value was checked above
        raise DataErrors([DataError(label, 1, str(exc))]) from None
    return RuleSet(frozenset(off), readings, prof, str(tree.get("title", "") or path.stem),
                   path.stem)


def shipped_ruleset(name: str, profile: RulesProfile | None = None,
                    root: Path | None = None) -> RuleSet:
    """A shipped rule set by name (``house`` or ``base``)."""
    path = shipped_dir(root) / f"{name}.yaml"
    if not path.is_file():
        raise DataErrors([DataError(name, 0, f"no shipped rule set {name!r} "
                                             f"(shipped: {', '.join(list_shipped(root))})")])
    label = f"cards/{RULESET_DIR}/{name}.yaml" if root is None else None
    return load_ruleset(path, profile, label=label, root=root)


def list_shipped(root: Path | None = None) -> list[str]:
    folder = shipped_dir(root)
    return sorted(p.stem for p in folder.glob("*.yaml")) if folder.is_dir() else []


def resolve_ruleset(spec: Any, *, base: RuleSet | None = None, profile: RulesProfile | None = None,
                    relative_to: Path | None = None, source: str = "<rules>",
                    root: Path | None = None) -> RuleSet:
    """A rule set from a shipped name (``house``), a file path, or a list of switch tokens applied to
    ``base`` (default: the house errata). Raises ``DataErrors`` naming ``source``."""
    if isinstance(spec, RuleSet):
        return spec
    if isinstance(spec, (list, tuple)):
        start = base or RuleSet.house(profile)
        try:
            return start.with_tokens([str(t) for t in spec], known_switches(root))
        except ValueError as exc:
            f, line = location(spec, None, (source, 0))
            raise DataErrors([DataError(f, line, str(exc))]) from None
    if not isinstance(spec, str) or not spec:
        raise DataErrors([DataError(source, 0, "rules must name a rule set (house, base, a file) "
                                               "or list switches like [errata, -E9.3]")])
    if spec in ("errata", "house", "base") and not (relative_to and (relative_to / spec).is_file()):
        if spec == "errata":
            spec = "house"
        if spec in list_shipped(root):
            return shipped_ruleset(spec, profile, root)
        return (RuleSet.house if spec == "house" else RuleSet.base)(profile, name=spec, title=spec)
    path = Path(spec)
    if not path.is_absolute() and relative_to is not None and (relative_to / path).is_file():
        path = relative_to / path
    if not path.is_file():
        shipped = shipped_dir(root) / f"{spec}.yaml"
        if shipped.is_file():
            return shipped_ruleset(spec, profile, root)
        mine = user_rulesets_dir() / f"{spec}.yaml"
        if "/" not in spec and mine.is_file():
            return load_ruleset(mine, profile, root=root)
        if os.path.lexists(path):  # a folder, a named pipe, a symlink loop…: the reader says which
            return load_ruleset(path, profile, root=root)
        raise DataErrors([DataError(source, 0, f"no rule set {spec!r}: not a shipped set "
                                               f"({', '.join(list_shipped(root))}) nor a file")])
    return load_ruleset(path, profile, root=root)


def ruleset_yaml(rules: RuleSet, *, title: str | None = None) -> str:
    """A rule set written as a rule-set file (the smallest one that gives the same rules)."""
    import yaml

    defaults = RulesProfile.defaults().to_dict()
    mine = rules.profile.to_dict()
    body: dict[str, Any] = {"title": title if title is not None else (rules.title or rules.name)}
    if rules.no_errata:
        body["from"] = "base"
        on = [r for r in ERRATA_RULES if r not in rules.off]
        extra_off = sorted(x for x in rules.off if x not in ERRATA_RULES)
        if on:
            body["with"] = on
        if extra_off:
            body["without"] = extra_off
    else:
        body["from"] = "house"
        if rules.off:
            body["without"] = sorted(rules.off, key=_switch_order)
    if rules.readings:
        body["readings"] = dict(rules.readings)
    changed = {k: v for k, v in mine.items() if defaults.get(k) != v}
    if changed:
        body["profile"] = changed
    return yaml.safe_dump(body, allow_unicode=True, sort_keys=False, default_flow_style=None)


# --------------------------------------------------------------------------- the user's own sets


def user_rulesets_dir() -> Path:
    """Where a group's own rule sets live: ``rulesets/`` in the user data folder (not created
    here)."""
    from fate_royal.paths import user_data_dir

    return user_data_dir() / RULESET_DIR


def list_user_rulesets(folder: Path | None = None) -> list[Path]:
    """The rule-set files in the user's folder, by name."""
    folder = Path(folder) if folder is not None else user_rulesets_dir()
    return sorted(p for p in folder.glob("*.yaml") if p.is_file()) if folder.is_dir() else []


def safe_name(name: str) -> str:
    """A file stem for a set's name: letters (any script), digits, ``-`` and ``_``; others become
    ``_``. ValueError when nothing is left."""
    import re

    stem = re.sub(r"[^\w\-]+", "_", name.strip(), flags=re.UNICODE).strip("_.")
    if not stem:
        raise ValueError("a rule set needs a name")
    if stem in SHIPPED:
        stem += "_mine"
    return stem[:80]


def save_user_ruleset(rules: RuleSet, name: str, folder: Path | None = None,
                      title: str | None = None) -> Path:
    """Write ``rules`` as ``<name>.yaml`` in the user's folder (atomically); its path. The file is
    read back through ``load_ruleset`` first, so what is saved is what loads."""
    from fate_royal.fsutil import atomic_write

    folder = Path(folder) if folder is not None else user_rulesets_dir()
    path = folder / f"{safe_name(name)}.yaml"
    text = ruleset_yaml(rules, title=title if title is not None else name)
    load_ruleset(path, rules.profile, text=text)  # raises DataErrors if it would not load back
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write(path, text.encode("utf-8"))
    return path


def export_ruleset(rules: RuleSet, path: str | Path) -> Path:
    """Write ``rules`` to any file (to share with the group)."""
    from fate_royal.fsutil import atomic_write

    path = Path(path)
    atomic_write(path, ruleset_yaml(rules).encode("utf-8"))
    return path


def import_ruleset(path: str | Path, folder: Path | None = None) -> tuple[RuleSet, Path]:
    """Check a shared rule-set file (``DataErrors`` naming file and line) and copy it into the
    user's folder under its own name; the set and the new path."""
    from fate_royal.cards.yamlsrc import MAX_DATA_BYTES
    from fate_royal.fsutil import atomic_write, read_bounded

    src = Path(path)
    rules = load_ruleset(src)
    folder = Path(folder) if folder is not None else user_rulesets_dir()
    folder.mkdir(parents=True, exist_ok=True)
    dest = folder / f"{safe_name(src.stem)}.yaml"
    atomic_write(dest, read_bounded(src, MAX_DATA_BYTES))
    return rules.with_(name=dest.stem), dest


def available_rulesets(folder: Path | None = None) -> list[tuple[str, RuleSet | None, str]]:
    """Every set one may pick: ``(key, set, problem)`` — the shipped ones (``house``, ``base``),
    then the user's files (key: the file's path). A user file that does not load has ``None`` and
    its ``file:line`` problem."""
    out: list[tuple[str, RuleSet | None, str]] = []
    for name in SHIPPED:
        out.append((name, shipped_ruleset(name), ""))
    for path in list_user_rulesets(folder):
        try:
            out.append((str(path), load_ruleset(path), ""))
        except DataError as exc:
            out.append((str(path), None, str(exc)))
    return out


def _switch_order(rid: str) -> tuple:
    parts = rid.replace("-", ".").split(".")
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in parts)


def _near(word: str, options: Iterable[str] | Mapping) -> str:
    from difflib import get_close_matches

    near = get_close_matches(word, list(options), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


__all__ = ["SHIPPED", "available_rulesets", "export_ruleset", "import_ruleset", "known_switches",
           "list_shipped", "list_user_rulesets", "load_ruleset", "resolve_ruleset", "ruleset_yaml",
           "safe_name", "save_user_ruleset", "shipped_ruleset", "user_rulesets_dir"]
