"""The rules reference: every rule id the engine cites (B, E, D, P) with its text in ja and en.

The data lives in ``cards/rules-reference.yaml``; this module loads it strictly (an unknown key, a
missing key, a bad id or a dangling reference is a ``RulesReferenceError`` naming the file and the
line) and answers "what does rule E9.1 say?" for the log panel, the docs and the scenario runner.
Pure Python: no Qt, and nothing from the rest of ``fate_royal.rules``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import get_close_matches
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

import yaml

#: libyaml's safe loader when PyYAML was built with it (much faster), else the pure-Python one.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

from fate_royal.cards.profile import PARAMETERS

LANGS = ("ja", "en")

#: Layer of each id prefix: B base rules, E house errata, D reconstructed defaults, P project choices.
LAYERS = {"B": "base", "E": "errata", "D": "default", "P": "project", "R": "reading"}

FORMAT = 1
FILE_NAME = "rules-reference.yaml"

_ID = re.compile(r"^(?P<group>(?P<prefix>[BEDPR])[1-9][0-9]*)(?:\.(?:[1-9][0-9]*|ex[1-9][0-9]*))?$")

_REQUIRED = ("id", "layer", "title_ja", "title_en", "text_ja", "text_en")
_OPTIONAL = ("params", "source", "errata_off_ja", "errata_off_en", "note_ja", "note_en", "see")
_KEYS = _REQUIRED + _OPTIONAL
_TOP_KEYS = ("format", "rules")


class RulesReferenceError(ValueError):
    """A problem in the rules-reference file, located as ``file:line: problem``."""

    def __init__(self, path: Path | str, line: int | None, problem: str):
        self.path = str(path)
        self.line = line
        self.problem = problem
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {problem}")


class UnknownRuleError(KeyError):
    """Asked for a rule id that the reference does not have."""

    def __str__(self) -> str:  # KeyError would show the repr of the message
        return str(self.args[0]) if self.args else "unknown rule"


@dataclass(frozen=True)
class Rule:
    """One rule of the reference. Texts exist in Japanese and English; pick with ``lang``."""

    id: str
    layer: str  # base | errata | default | project | reading
    title_ja: str
    title_en: str
    text_ja: str
    text_en: str
    params: tuple[str, ...] = ()
    source: str | None = None
    errata_off_ja: str | None = None
    errata_off_en: str | None = None
    note_ja: str | None = None
    note_en: str | None = None
    see: tuple[str, ...] = ()
    line: int = field(default=0, compare=False)

    def title(self, lang: str = "ja") -> str:
        return getattr(self, f"title_{_lang(lang)}")

    def text(self, lang: str = "ja") -> str:
        return getattr(self, f"text_{_lang(lang)}")

    def errata_off(self, lang: str = "ja") -> str | None:
        """What applies instead while the errata are off (E group entries), else None."""
        return getattr(self, f"errata_off_{_lang(lang)}")

    def note(self, lang: str = "ja") -> str | None:
        return getattr(self, f"note_{_lang(lang)}")

    @property
    def parent(self) -> str | None:
        """The group id of a sub-rule (``E1`` for ``E1.4``, ``E6`` for ``E6.ex1``), else None."""
        return self.id.split(".", 1)[0] if "." in self.id else None

    @property
    def reconstructed(self) -> bool:
        """True for D rules: defaults chosen because no available source states the rule."""
        return self.layer == "default"

    def label(self, lang: str = "ja") -> str:
        """``E9.1 M-007 雨生龍之介`` — the id and title, as shown in logs and lists."""
        return f"{self.id} {self.title(lang)}"


class RulesReference:
    """All rules, in file order. Build with ``load_reference``; use ``reference()`` for the shared one."""

    def __init__(self, rules: list[Rule], path: Path | str | None = None):
        self.path = Path(path) if path is not None else None
        self._rules: dict[str, Rule] = {r.id: r for r in rules}

    def get(self, rule_id: str) -> Rule:
        """The rule with exactly this id (``"E9.1"``). Raises ``UnknownRuleError`` otherwise."""
        rule = self._rules.get(rule_id) if isinstance(rule_id, str) else None
        if rule is None:
            near = get_close_matches(str(rule_id), self._rules, n=1)
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise UnknownRuleError(f"no rule {rule_id!r} in the rules reference{hint}")
        return rule

    def ids(self) -> list[str]:
        return list(self._rules)

    def children(self, rule_id: str) -> list[Rule]:
        """The sub-rules of a group (``E1`` -> E1.1..E1.9), in file order; [] for a leaf."""
        self.get(rule_id)
        return [r for r in self._rules.values() if r.parent == rule_id]

    def text(self, rule_id: str, lang: str = "ja") -> str:
        return self.get(rule_id).text(lang)

    def title(self, rule_id: str, lang: str = "ja") -> str:
        return self.get(rule_id).title(lang)

    def by_layer(self, layer: str) -> list[Rule]:
        if layer not in LAYERS.values():
            raise ValueError(f"unknown layer {layer!r}; expected one of {', '.join(LAYERS.values())}")
        return [r for r in self._rules.values() if r.layer == layer]

    def __contains__(self, rule_id: object) -> bool:
        return rule_id in self._rules

    def __iter__(self) -> Iterator[Rule]:
        return iter(self._rules.values())

    def __len__(self) -> int:
        return len(self._rules)

    def __repr__(self) -> str:
        return f"RulesReference({len(self)} rules from {self.path})"


def default_path() -> Path:
    from fate_royal.paths import cards_dir

    return cards_dir() / FILE_NAME


def load_reference(path: Path | str | None = None) -> RulesReference:
    """Load and validate the rules reference (default: the shipped ``cards/rules-reference.yaml``)."""
    from fate_royal.cards.yamlsrc import MAX_DATA_BYTES
    from fate_royal.fsutil import read_bounded

    path = Path(path) if path is not None else default_path()
    try:
        text = read_bounded(path, MAX_DATA_BYTES).decode("utf-8")
    except OSError as exc:
        raise RulesReferenceError(path, None, f"cannot read the rules reference: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise RulesReferenceError(path, None, f"not UTF-8 text: {exc}") from exc
    try:
        data = yaml.load(text, Loader=_SAFE_LOADER)
        root = yaml.compose(text, Loader=yaml.SafeLoader)  # the same document, with line numbers
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise RulesReferenceError(path, mark.line + 1 if mark else None, f"not valid YAML: {problem}") from exc
    return RulesReference(_parse(path, data, root), path)


@lru_cache(maxsize=1)
def reference() -> RulesReference:
    """The shipped rules reference, loaded once. ``reference.cache_clear()`` reloads it."""
    return load_reference()


# --- validation ------------------------------------------------------------------------------------


def _lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; expected one of {', '.join(LANGS)}")
    return lang


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _keys(node: yaml.Node | None) -> dict[str, yaml.Node]:
    """Key name -> key node of a mapping node (empty if ``node`` is not a mapping)."""
    if not isinstance(node, yaml.MappingNode):
        return {}
    return {k.value: k for k, _ in node.value if isinstance(k, yaml.ScalarNode)}


def _duplicate_key(node: yaml.Node | None) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    seen: set[str] = set()
    for key, _ in node.value:
        if isinstance(key, yaml.ScalarNode):
            if key.value in seen:
                return key
            seen.add(key.value)
    return None


def _parse(path: Path, data: Any, root: yaml.Node | None) -> list[Rule]:
    def fail(node: yaml.Node | None, problem: str) -> RulesReferenceError:
        return RulesReferenceError(path, _line(node), problem)

    if not isinstance(data, dict):
        raise fail(root, f"expected a mapping with the keys {', '.join(_TOP_KEYS)}")
    top = _keys(root)
    dup = _duplicate_key(root)
    if dup is not None:
        raise fail(dup, f"key {dup.value!r} appears twice")
    for key in data:
        if key not in _TOP_KEYS:
            raise fail(top.get(key, root), f"unknown top-level key {key!r}{_hint(key, _TOP_KEYS)}; "
                       f"expected {', '.join(_TOP_KEYS)}")
    if data.get("format") != FORMAT:
        raise fail(top.get("format", root), f"format must be {FORMAT}, got {data.get('format')!r}")
    entries = data.get("rules")
    rules_node = dict((k.value, v) for k, v in root.value).get("rules") if isinstance(root, yaml.MappingNode) else None
    if not isinstance(entries, list) or not entries:
        raise fail(top.get("rules", root), "rules must be a non-empty list of rule entries")
    item_nodes = list(rules_node.value) if isinstance(rules_node, yaml.SequenceNode) else [None] * len(entries)

    rules: list[Rule] = []
    seen: dict[str, int | None] = {}
    for entry, node in zip(entries, item_nodes):
        rule = _entry(entry, node, fail, seen)
        seen[rule.id] = rule.line
        rules.append(rule)

    # references between rules, once all ids are known
    by_id = {r.id: r for r in rules}
    for rule, node in zip(rules, item_nodes):
        keys = _keys(node)
        for other in rule.see:
            if other not in by_id:
                raise fail(keys.get("see", node), f"rule {rule.id}: see names unknown rule {other!r}"
                           f"{_hint(other, by_id)}")
    return rules


def _entry(entry: Any, node: yaml.Node | None, fail, seen: dict[str, int | None]) -> Rule:
    if not isinstance(entry, dict):
        raise fail(node, f"a rule entry must be a mapping with the keys {', '.join(_REQUIRED)}")
    keys = _keys(node)
    dup = _duplicate_key(node)
    if dup is not None:
        raise fail(dup, f"key {dup.value!r} appears twice in one rule entry")

    rule_id = entry.get("id")
    label = f"rule {rule_id}" if isinstance(rule_id, str) else "rule entry"
    for key in entry:
        if key not in _KEYS:
            raise fail(keys.get(key, node), f"{label}: unknown key {key!r}{_hint(str(key), _KEYS)}")
    for key in _REQUIRED:
        if key not in entry:
            raise fail(node, f"{label}: missing key {key!r}")

    if not isinstance(rule_id, str) or not (m := _ID.match(rule_id)):
        raise fail(keys.get("id", node), f"bad rule id {rule_id!r}; expected e.g. B1, E1.4, E6.ex1, D12, P3")
    if rule_id in seen:
        raise fail(keys.get("id", node), f"rule {rule_id} appears twice (first at line {seen[rule_id]})")
    group = m.group("group")
    if group != rule_id and group not in seen:
        raise fail(keys.get("id", node), f"rule {rule_id} comes before (or without) its group {group}")

    layer = entry["layer"]
    expected_layer = LAYERS[m.group("prefix")]
    if layer != expected_layer:
        raise fail(keys.get("layer", node), f"{label}: layer must be {expected_layer!r} for a "
                   f"{m.group('prefix')} rule, got {layer!r}")

    def text(key: str, required: bool) -> str | None:
        value = entry.get(key)
        if value is None and not required:
            return None
        if not isinstance(value, str) or not value.strip():
            raise fail(keys.get(key, node), f"{label}: {key} must be non-empty text, got {value!r}")
        return value.strip()

    def id_list(key: str) -> tuple[str, ...]:
        value = entry.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise fail(keys.get(key, node), f"{label}: {key} must be a list of names, got {value!r}")
        if len(set(value)) != len(value):
            raise fail(keys.get(key, node), f"{label}: {key} names something twice")
        return tuple(value)

    params = id_list("params")
    for name in params:
        if name not in PARAMETERS:
            raise fail(keys.get("params", node), f"{label}: unknown rules-profile parameter {name!r}"
                       f"{_hint(name, PARAMETERS)}")
    see = id_list("see")

    rule = Rule(
        id=rule_id,
        layer=layer,
        title_ja=text("title_ja", True),
        title_en=text("title_en", True),
        text_ja=text("text_ja", True),
        text_en=text("text_en", True),
        params=params,
        source=text("source", False),
        errata_off_ja=text("errata_off_ja", False),
        errata_off_en=text("errata_off_en", False),
        note_ja=text("note_ja", False),
        note_en=text("note_en", False),
        see=see,
        line=_line(node) or 0,
    )

    # what each layer must carry
    if (rule.errata_off_ja is None) != (rule.errata_off_en is None):
        raise fail(node, f"{label}: give errata_off_ja and errata_off_en together")
    if (rule.note_ja is None) != (rule.note_en is None):
        raise fail(node, f"{label}: give note_ja and note_en together")
    if layer == "default":
        if not params:
            raise fail(node, f"{label}: a D rule must name the rules-profile parameters that control it (params)")
        if rule.note_en is None:
            raise fail(node, f"{label}: a D rule needs note_ja/note_en saying it is a reconstructed default")
    if layer == "errata":
        if rule.source is None:
            raise fail(node, f"{label}: an E rule must name its source in house-errata.ja.txt (source)")
        if rule.parent is None and rule.errata_off_en is None:
            raise fail(node, f"{label}: an E group entry must say what applies with the errata off "
                       "(errata_off_ja, errata_off_en)")
    elif rule.errata_off_en is not None:
        raise fail(keys.get("errata_off_ja", node), f"{label}: errata_off_* belongs to E rules only")
    if layer == "project" and rule.note_en is None:
        raise fail(node, f"{label}: a P rule needs note_ja/note_en saying it is a project choice")
    if layer == "reading":
        if rule.source is None:
            raise fail(node, f"{label}: a reading must name the sentence it reads (source)")
        if rule.note_en is None:
            raise fail(node, f"{label}: a reading needs note_ja/note_en naming its choices and default")
        if not rule.see:
            raise fail(node, f"{label}: a reading must name the rule it reads (see)")
    return rule


def _hint(word: str, choices) -> str:
    near = get_close_matches(word, list(choices), n=1)
    return f" (did you mean {near[0]!r}?)" if near else ""


__all__ = [
    "LANGS",
    "LAYERS",
    "Rule",
    "RulesReference",
    "RulesReferenceError",
    "UnknownRuleError",
    "default_path",
    "load_reference",
    "reference",
]
