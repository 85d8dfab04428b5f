"""Load and validate the card data: cards, chip sheet, errata pack and rules profile.

Loading is strict and reports *every* problem it finds as ``file:line: message`` (``DataErrors``).
Values may be wrapped as ``{value: X, provenance: provisional, note: why}`` anywhere; the wrapper is
removed and its provenance recorded under the dotted path of the value (lists count from 1:
``effects.1.cost``). Errata patches are applied to the parsed data, never to the files, and each
checks the value it replaces (``expect``).
"""

from __future__ import annotations

import difflib
import hashlib
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from fate_royal.cards import schema
from fate_royal.cards.model import AppliedPatch, CardDB, CardDef, Chip, Cost, Effect, Op, Stats, Target
from fate_royal.cards.profile import RulesProfile, check_value, conflicts
from fate_royal.cards.ruleset import errata_rule_problem
from fate_royal.cards.vocabulary import (
    CARD_KINDS,
    CLASSES,
    CONDITIONS,
    COST_KEYS,
    EFFECT_KEYS,
    ID_PREFIX,
    KEYWORDS,
    MAX_DRAGON_RANK,
    OPERATIONS,
    SCRIPTS,
    TARGET_KEYS,
    Param,
)
from fate_royal.cards.yamlsrc import (
    DataError,
    DataErrors,
    YList,
    YMap,
    clone,
    lift,
    location,
    nesting_message,
    plain,
    read_yaml,
    too_deep,
    where,
)

__all__ = ["DataError", "DataErrors", "INVISIBLE", "invisible_character", "load_card_db", "load_profile",
           "profile_fingerprint", "read_data_file"]

# ASCII only (``\d`` alone would take full-width ０-９ and other scripts' digits), matched with
# ``fullmatch`` (``$`` would let a trailing newline through).
_ID_RE = re.compile(r"([A-Z])-([0-9]{3})", re.ASCII)
_CHIP_ID_RE = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)
_KEYWORD_VALUED_CONDITIONS = ("opponent_has_keyword", "target_has_keyword")
_TYPE_WORDS = {
    "str": "text", "int": "an integer", "bool": "true or false", "list[int]": "a list of integers",
    "list[str]": "a list of text", "float": "a number",
}
_CLASS_BY_EN = {en.lower(): ja for ja, en in CLASSES.items()}


# --- error collection ---------------------------------------------------------------------------


class _Ctx:
    def __init__(self) -> None:
        self.errors: list[DataError] = []

    def err(self, holder: Any, key: Any, path: str, message: str) -> None:
        file, line = location(holder, key)
        if line == 0 and path:  # no line information (data given as plain mappings): name the path
            message = f"{path}: {message}"
        self.errors.append(DataError(file, line, message))


def _near(word: Any, options: Any) -> str:
    if not isinstance(word, str):
        return ""
    found = difflib.get_close_matches(word, [str(o) for o in options], n=1, cutoff=0.6)
    return f" (did you mean {found[0]!r}?)" if found else ""


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {value}"
    if isinstance(value, int):
        return f"integer {value}"
    if isinstance(value, float):
        return f"number {value}"
    if isinstance(value, str):
        return f"text {value!r}"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _join(path: str, key: Any) -> str:
    return f"{path}.{key}" if path else str(key)


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _keyword_ok(word: Any) -> bool:
    if not isinstance(word, str):
        return False
    if word in KEYWORDS:
        return True
    for k in KEYWORDS:
        rank = word[len(k):]
        if word.startswith(k) and rank.isascii() and rank.isdigit() and rank[0] != "0":
            return int(rank) <= MAX_DRAGON_RANK if len(rank) <= 3 else False
    return False


def id_problem(card_id: str, what: str = "card id") -> str | None:
    """Why ``card_id`` is not written as a card id must be (H-001: ASCII, no spaces), or None.

    An id with spaces or line breaks around it, or with full-width or other non-ASCII letters or
    digits (``M-００６``), is refused with the id it probably means, never taken as another card."""
    if _ID_RE.fullmatch(card_id):
        return None
    stripped = card_id.strip()
    if stripped != card_id and _ID_RE.fullmatch(stripped):
        return (f"{what} {card_id!r} has spaces or line breaks around it; write {stripped} "
                "(a plain, unquoted id)")
    if not card_id.isascii():
        ascii_form = unicodedata.normalize("NFKC", card_id).strip()
        odd = ", ".join(sorted({repr(c) for c in card_id if not c.isascii()}))
        hint = f"; write {ascii_form}" if _ID_RE.fullmatch(ascii_form) else ""
        return (f"{what} {card_id!r} has non-ASCII characters ({odd}: full-width or another "
                f"script's letters or digits){hint}")
    return f"{what} {card_id!r} must look like H-001 (kind prefix, dash, three digits)"


# --- generic checks -------------------------------------------------------------------------------


def _check_keys(ctx: _Ctx, m: YMap, spec: Mapping[str, Param], what: str, path: str,
                extra_ok: tuple = ()) -> bool:
    ok = True
    for key in m:
        if key not in spec and key not in extra_ok:
            ctx.err(m, key, path, f"unknown key {key!r} in {what}{_near(key, list(spec) + list(extra_ok))}")
            ok = False
    for key, p in spec.items():
        if p.required and key not in m:
            ctx.err(m, None, path, f"missing required key {key!r} in {what}")
            ok = False
        elif p.required and m[key] is None and p.type != "any":
            ctx.err(m, key, path, f"required key {key!r} in {what} has no value")
            ok = False
    return ok


def _check_value(ctx: _Ctx, holder: Any, key: Any, path: str, p: Param, what: str) -> bool:
    """Check a scalar-ish value (str, int, bool, enum, list[int], list[str]) against its Param."""
    value = holder[key]
    name = f"{key!r} in {what}" if isinstance(key, str) else f"item of {what}"
    t = p.type
    if t == "any":
        return True
    if t == "enum":
        if value in p.choices:
            return True
        ctx.err(holder, key, path, f"{_describe(value)} is not allowed for {name} (one of: "
                f"{', '.join(map(str, p.choices))}){_near(value, p.choices)}")
        return False
    ok = {
        "str": lambda v: isinstance(v, str),
        "int": _is_int,
        "bool": lambda v: isinstance(v, bool),
        "list[int]": lambda v: isinstance(v, list) and all(_is_int(x) for x in v),
        "list[str]": lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
    }.get(t)
    if ok is None:  # pragma: no cover - a table error
        raise AssertionError(f"no scalar check for type {t}")
    if not ok(value):
        ctx.err(holder, key, path, f"wrong type for {name}: expected {_TYPE_WORDS.get(t, t)}, got "
                f"{_describe(value)}")
        return False
    if t == "str" and p.required and not value.strip():
        ctx.err(holder, key, path, f"{name} is empty")  # reported; the rest is still checked
    if t == "str" and p.max_length is not None:
        problem = _name_problem(value, p.max_length)
        if problem:
            ctx.err(holder, key, path, f"{name} {problem}")
            return False
    if t == "int":
        problem = _out_of_bounds(value, p)
        if problem:
            ctx.err(holder, key, path, f"{name}: {problem}")
            return False
    elif t == "list[int]":
        for v in value:
            problem = _out_of_bounds(v, p)
            if problem:
                ctx.err(holder, key, path, f"{name}: {problem}")
                return False
    return True


#: Unicode categories a name never holds: controls (BEL), formats (the right-to-left override
#: U+202E, zero-width spaces), line and paragraph separators, private use, unassigned. Two names
#: that look the same must not be two cards, and a name must not turn the text around it.
INVISIBLE = ("Cc", "Cf", "Zl", "Zp", "Co", "Cn")


def invisible_character(text: str) -> str | None:
    """The first control or invisible character of ``text`` (one of the ``INVISIBLE``
    categories), or None: a card's or effect's name and a player's name may hold none."""
    return next((c for c in text if unicodedata.category(c) in INVISIBLE), None)


def _name_problem(value: str, max_length: int) -> str | None:
    """Why ``value`` cannot be a card's or effect's name (too long, or a control or invisible
    character in it), or None; the message follows the field's description."""
    if len(value) > max_length:
        return f"is {len(value)} characters long, above the maximum {max_length}"
    odd = invisible_character(value)
    if odd is not None:
        return f"holds a control or invisible character (U+{ord(odd):04X})"
    return None


def _out_of_bounds(value: int, p: Param) -> str | None:
    """Why ``value`` is outside ``p``'s bounds, or None."""
    if p.minimum is not None and value < p.minimum:
        return f"value {value} below the minimum {p.minimum}"
    if p.maximum is not None and value > p.maximum:
        return f"value {value} above the maximum {p.maximum}"
    return None


def _check_keyword(ctx: _Ctx, holder: Any, key: Any, path: str, what: str) -> bool:
    word = holder[key]
    if _keyword_ok(word):
        return True
    ctx.err(holder, key, path, f"unknown keyword {word!r} in {what} (known: "
            f"{', '.join(KEYWORDS)}; 竜 takes a rank of 1 to {MAX_DRAGON_RANK} in ASCII digits, "
            f"e.g. 竜5){_near(word, KEYWORDS)}")
    return False


def _tuple(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v


# --- provenance wrapper ---------------------------------------------------------------------------


@dataclass
class _Rec:
    """Provenance bookkeeping for one card (or chip) while it is being read."""

    prov: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    loc: dict[str, tuple[str, int]] = field(default_factory=dict)

    def copy(self) -> "_Rec":
        return _Rec(dict(self.prov), dict(self.notes), dict(self.loc))

    def drop(self, path: str) -> None:
        for table in (self.prov, self.notes, self.loc):
            for p in [p for p in table if p == path or p.startswith(path + ".")]:
                del table[p]


def _unwrap(ctx: _Ctx, holder: Any, key: Any, path: str, rec: _Rec) -> None:
    """Replace provenance wrappers under ``holder[key]`` by their values, recording them in ``rec``."""
    value = holder[key]
    while isinstance(value, YMap) and "value" in value:
        if not _check_keys(ctx, value, schema.WRAPPER_KEYS, "provenance wrapper", path):
            holder[key] = value.get("value")
            value = holder[key]
            continue
        prov = value["provenance"]
        note = value.get("note")
        if prov == "errata":
            ctx.err(value, "provenance", path, "provenance 'errata' is given by errata patches "
                    "(cards/errata/), not written in a card file")
        elif _check_value(ctx, value, "provenance", path, schema.WRAPPER_KEYS["provenance"],
                          "provenance wrapper"):
            rec.prov[path] = prov
            rec.loc[path] = location(holder, key)
        if note is not None and _check_value(ctx, value, "note", path, Param("str"), "provenance wrapper"):
            rec.notes[path] = note
        elif note is None and prov == "provisional":
            ctx.err(value, None, path, "a provisional value needs a note saying why "
                    "(e.g. note: printed text unknown)")
        holder[key] = value["value"]
        value = holder[key]
    if isinstance(value, YMap):
        for k in list(value):
            _unwrap(ctx, value, k, _join(path, k), rec)
    elif isinstance(value, YList):
        for i in range(len(value)):
            _unwrap(ctx, value, i, _join(path, i + 1), rec)


def _unwrap_root(ctx: _Ctx, tree: YMap, rec: _Rec, prefix: str = "") -> None:
    for k in list(tree):
        _unwrap(ctx, tree, k, _join(prefix, k), rec)


# --- building -------------------------------------------------------------------------------------


class _Builder:
    """Validates unwrapped card data and builds the model objects."""

    def __init__(self, ctx: _Ctx, chips: Mapping[str, Any] | None) -> None:
        self.ctx = ctx
        self.chips = chips  # None: chip sheet unusable, do not check references
        self.chip_sheet = schema.CHIP_SHEET  # its label, for messages

    # stats / cost / target / condition -------------------------------------------------------

    def stats(self, holder: Any, key: Any, path: str, what: str) -> Stats | None:
        m = holder[key]
        if not isinstance(m, YMap):
            self.ctx.err(holder, key, path, f"{what} stats must be a mapping {{pa, pd, ma, md}}, got "
                         f"{_describe(m)}")
            return None
        spec = {k: schema.STAT_PARAM for k in schema.STATS_KEYS}
        ok = _check_keys(self.ctx, m, spec, "stats", path)
        for k in schema.STATS_KEYS:
            if k in m:
                ok = _check_value(self.ctx, m, k, _join(path, k), spec[k], "stats") and ok
        return Stats(**{k: m[k] for k in schema.STATS_KEYS}) if ok else None

    def cost(self, holder: Any, key: Any, path: str) -> Cost | None:
        m = holder[key]
        if m is None:
            return Cost()
        if not isinstance(m, YMap):
            self.ctx.err(holder, key, path, f"cost must be a mapping (raw, tap, discard, mana, die), "
                         f"got {_describe(m)}")
            return None
        ok = _check_keys(self.ctx, m, COST_KEYS, "cost", path)
        for k, p in COST_KEYS.items():
            if k in m and not _check_value(self.ctx, m, k, _join(path, k), p, "cost"):
                ok = False
        if not ok:
            return None
        die = m.get("die", [])
        return Cost(raw=m.get("raw", ""), tap=m.get("tap", False), discard=m.get("discard", 0),
                    mana=m.get("mana", 0), die=tuple(die))

    def target(self, holder: Any, key: Any, path: str) -> Target | None:
        m = holder[key]
        if m is None:
            return Target()
        if not isinstance(m, YMap):
            self.ctx.err(holder, key, path, f"target must be a mapping (kind, side, card_kinds), got "
                         f"{_describe(m)}")
            return None
        ok = _check_keys(self.ctx, m, TARGET_KEYS, "target", path)
        for k, p in TARGET_KEYS.items():
            if k in m and not _check_value(self.ctx, m, k, _join(path, k), p, "target"):
                ok = False
        if ok:
            kinds = m.get("card_kinds", [])
            for i, kind in enumerate(kinds):
                if kind not in CARD_KINDS:
                    self.ctx.err(kinds, i, _join(path, "card_kinds"), f"unknown card kind {kind!r} "
                                 f"(one of: {', '.join(CARD_KINDS)}){_near(kind, CARD_KINDS)}")
                    ok = False
        if not ok:
            return None
        return Target(kind=m.get("kind", "none"), side=m.get("side", "any"),
                      card_kinds=tuple(m.get("card_kinds", ())))

    def condition(self, holder: Any, key: Any, path: str) -> dict | None:
        m = holder[key]
        if not isinstance(m, YMap) or not m:
            self.ctx.err(holder, key, path, f"a condition must be a non-empty mapping such as "
                         f"{{opponent_has_keyword: 軍団}}, got {_describe(m)}")
            return None
        out: dict[str, Any] = {}
        ok = True
        for k in m:
            p = CONDITIONS.get(k)
            if p is None:
                self.ctx.err(m, k, path, f"unknown condition {k!r}{_near(k, CONDITIONS)}")
                ok = False
            elif p.type == "condition":
                inner = self.condition(m, k, _join(path, k))
                ok = ok and inner is not None
                out[k] = inner
            elif not _check_value(self.ctx, m, k, _join(path, k), p, "condition"):
                ok = False
            elif k in _KEYWORD_VALUED_CONDITIONS and not _check_keyword(self.ctx, m, k, _join(path, k),
                                                                        "condition"):
                ok = False
            else:
                out[k] = _tuple(m[k])
        return out if ok else None

    # operations ----------------------------------------------------------------------------

    def ops(self, holder: Any, key: Any, path: str, timing: str | None) -> tuple[Op, ...] | None:
        lst = holder[key]
        if lst is None:
            return ()
        if not isinstance(lst, YList):
            self.ctx.err(holder, key, path, f"ops must be a list of operations, got {_describe(lst)}")
            return None
        out = []
        ok = True
        for i in range(len(lst)):
            op = self.op(lst, i, _join(path, i + 1), timing)
            ok = ok and op is not None
            out.append(op)
        return tuple(out) if ok else None

    def op(self, holder: YList, i: int, path: str, timing: str | None) -> Op | None:
        ctx = self.ctx
        m = holder[i]
        if not isinstance(m, YMap):
            ctx.err(holder, i, path, f"an operation must be a mapping such as {{op: draw, count: 1}}, "
                    f"got {_describe(m)}")
            return None
        if "op" not in m:
            ctx.err(m, None, path, "missing required key 'op' in operation")
            return None
        name = m["op"]
        spec = OPERATIONS.get(name) if isinstance(name, str) else None
        if spec is None:
            ctx.err(m, "op", path, f"unknown operation {name!r}{_near(name, OPERATIONS)}")
            return None
        ok = True
        if timing == "constant" and not spec.constant_ok:
            ctx.err(m, "op", path, f"operation {name!r} cannot be used in a 常時 (constant) effect")
            ok = False
        if timing == "activated" and not spec.activated_ok:
            ctx.err(m, "op", path, f"operation {name!r} can only be used in a 常時 (constant) effect")
            ok = False
        params: dict[str, Any] = {}
        for k in m:
            if k in ("op", "if"):
                continue
            if k not in spec.params:
                ctx.err(m, k, path, f"unknown parameter {k!r} for operation {name!r}"
                        f"{_near(k, list(spec.params) + ['if'])}")
                ok = False
        for k, p in spec.params.items():
            if k not in m:
                if p.required:
                    ctx.err(m, None, path, f"operation {name!r} needs parameter {k!r}")
                    ok = False
                else:
                    params[k] = _tuple(p.default)
                continue
            sub = _join(path, k)
            if p.type == "outcomes":
                outcomes = self.outcomes(m, k, sub, timing)
                ok = ok and outcomes is not None
                params[k] = outcomes
                continue
            if not _check_value(ctx, m, k, sub, p, f"operation {name!r}"):
                ok = False
                continue
            value = m[k]
            if name == "grant_keyword" and k == "keyword" and not _check_keyword(ctx, m, k, sub,
                                                                                   "grant_keyword"):
                ok = False
            if name == "proxy" and k == "chip" and self.chips is not None and value not in self.chips:
                by_name = [cid for cid, c in self.chips.items() if c.name == value]
                hint = (f" (that is the name of chip {by_name[0]!r}; use the id)" if by_name
                        else _near(value, self.chips))
                ctx.err(m, k, sub, f"proxy names chip {value!r}, which is not on the chip sheet "
                        f"({self.chip_sheet}){hint}")
                ok = False
            params[k] = _tuple(value)
        condition = None
        if "if" in m:
            condition = self.condition(m, "if", _join(path, "if"))
            ok = ok and condition is not None
        return Op(op=name, params=params, condition=condition) if ok else None

    def outcomes(self, holder: YMap, key: str, path: str, timing: str | None) -> tuple | None:
        lst = holder[key]
        if not isinstance(lst, YList) or not lst:
            self.ctx.err(holder, key, path, "outcomes must be a list of {faces: [..], ops: [..]}")
            return None
        spec = {"faces": Param("list[int]", required=True), "ops": Param("ops", required=True)}
        out = []
        seen: dict[int, int] = {}
        ok = True
        for i, m in enumerate(lst):
            sub = _join(path, i + 1)
            if not isinstance(m, YMap):
                self.ctx.err(lst, i, sub, "an outcome must be a mapping {faces: [..], ops: [..]}")
                ok = False
                continue
            if not _check_keys(self.ctx, m, spec, "outcome", sub):
                ok = False
                continue
            if not _check_value(self.ctx, m, "faces", _join(sub, "faces"), spec["faces"], "outcome"):
                ok = False
                continue
            for f in m["faces"]:
                if not 1 <= f <= 6:
                    self.ctx.err(m, "faces", _join(sub, "faces"), f"die face {f} is not 1 to 6")
                    ok = False
                elif f in seen:
                    self.ctx.err(m, "faces", _join(sub, "faces"), f"die face {f} is already in "
                                 f"outcome {seen[f]}")
                    ok = False
                else:
                    seen[f] = i + 1
            ops = self.ops(m, "ops", _join(sub, "ops"), timing)
            ok = ok and ops is not None
            out.append({"faces": tuple(m["faces"]), "ops": ops})
        return tuple(out) if ok else None

    # effects and cards ---------------------------------------------------------------------

    def effect(self, holder: YList, i: int, path: str) -> Effect | None:
        ctx = self.ctx
        m = holder[i]
        if not isinstance(m, YMap):
            ctx.err(holder, i, path, f"an effect must be a mapping, got {_describe(m)}")
            return None
        ok = _check_keys(ctx, m, EFFECT_KEYS, "effect", path)
        simple = {k: p for k, p in EFFECT_KEYS.items()
                  if p.type in ("str", "int", "bool", "enum", "list[str]")}
        for k, p in simple.items():
            if k in m and m[k] is not None and not _check_value(ctx, m, k, _join(path, k), p, "effect"):
                ok = False
                m[k] = None
        timing = m.get("timing")
        for j, kw in enumerate(m.get("keywords") or ()):
            ok = _check_keyword(ctx, m["keywords"], j, _join(path, "keywords"), "effect keywords") and ok
        if m.get("unless_target_has") and not _check_keyword(ctx, m, "unless_target_has", path, "effect"):
            ok = False
        cost = self.cost(m, "cost", _join(path, "cost")) if "cost" in m else Cost()
        target = self.target(m, "target", _join(path, "target")) if "target" in m else Target()
        condition = lost_when = None
        if m.get("condition") is not None:
            condition = self.condition(m, "condition", _join(path, "condition"))
            ok = ok and condition is not None
        if m.get("lost_when") is not None:
            lost_when = self.condition(m, "lost_when", _join(path, "lost_when"))
            ok = ok and lost_when is not None
        ops = self.ops(m, "ops", _join(path, "ops"), timing) if "ops" in m else ()
        ok = ok and cost is not None and target is not None and ops is not None
        script = m.get("script")
        if script is not None and script not in SCRIPTS:
            ctx.err(m, "script", path, f"unknown script {script!r} (scripts are registered in "
                    f"vocabulary.SCRIPTS){_near(script, SCRIPTS)}")
            ok = False
        if not ok:
            return None
        # cross-checks
        if timing == "constant":
            if not cost.is_free or cost.raw:
                ctx.err(m, "cost", path, "a 常時 (constant) effect has no cost (B4)")
                ok = False
            if "window" in m:
                ctx.err(m, "window", path, "a 常時 (constant) effect has no window")
                ok = False
        unplayable = bool(m.get("unplayable"))
        if unplayable:
            if ops or script is not None:
                ctx.err(m, "unplayable", path, "an effect marked unplayable (not yet playable) has "
                        "no ops and no script")
                ok = False
            if not (m.get("text") or m.get("text_en")):
                ctx.err(m, "unplayable", path, "a not yet playable effect keeps its printed text: "
                        "add text: (the card's Japanese text)")
                ok = False
        elif not ops and script is None:
            ctx.err(m, None, path, f"effect {m['name']!r} has no ops (and no script; an effect the "
                    "vocabulary cannot express is marked unplayable: true with its text:)")
            ok = False
        for op_path_line, op in _walk_ops(ops):
            needs_target = op.params.get("subject") == "target" or op.op in ("negate", "revive",
                                                                            "steal_random")
            if needs_target and target.kind == "none":
                ctx.err(m, "ops", path, f"operation {op.op!r} acts on the effect's target, but the "
                        "effect has no target (add target: {kind: ...})")
                ok = False
            wanted = {"negate": "stack_effect", "revive": "dropped_player"}.get(op.op)
            if wanted and target.kind not in ("none", wanted):
                ctx.err(m, "target", path, f"operation {op.op!r} needs a target of kind {wanted!r}, "
                        f"not {target.kind!r}")
                ok = False
        if m.get("unless_target_has") and target.kind == "none":
            ctx.err(m, "unless_target_has", path, "unless_target_has needs a target")
            ok = False
        if not ok:
            return None
        return Effect(
            name=m["name"], timing=timing, window=m.get("window") or "any", cost=cost,
            keywords=tuple(m.get("keywords") or ()), target=target, condition=condition,
            lost_when=lost_when, usable_while_down=bool(m.get("usable_while_down")),
            unless_target_has=m.get("unless_target_has"), ops=ops, script=script,
            unplayable=bool(m.get("unplayable")),
            name_en=m.get("name_en") or "", text=m.get("text") or "", text_en=m.get("text_en") or "",
            note=m.get("note") or "", index=i + 1,
        )

    def card(self, tree: YMap, rec: _Rec, file_kind: str | None = None, file_stem: str | None = None,
             class_names: dict | None = None) -> CardDef | None:
        ctx = self.ctx
        ok = _check_keys(ctx, tree, schema.CARD_KEYS, "card", "")
        for k, p in schema.CARD_KEYS.items():
            if k in tree and tree[k] is not None and p.type in ("str", "int", "enum", "list[str]"):
                if not _check_value(ctx, tree, k, k, p, "card"):
                    ok = False
                    tree[k] = None
        card_id, kind = tree.get("id"), tree.get("kind")
        if isinstance(card_id, str):
            match = _ID_RE.fullmatch(card_id)
            if not match:
                ctx.err(tree, "id", "id", id_problem(card_id) or f"bad card id {card_id!r}")
                ok = False
            elif kind in ID_PREFIX and match.group(1) != ID_PREFIX[kind]:
                ctx.err(tree, "id", "id", f"card id {card_id!r} does not match kind {kind!r} "
                        f"({kind} ids start with {ID_PREFIX[kind]}-)")
                ok = False
            if file_stem is not None and file_stem != card_id and not file_stem.startswith(card_id + "_"):
                ctx.err(tree, "id", "id", f"card id {card_id!r} does not match the file name "
                        f"{file_stem!r} (name the file {card_id}.yaml)")
                ok = False
        if file_kind is not None and kind in CARD_KINDS and kind != file_kind:
            folder = {v: k for k, v in schema.KIND_FOLDERS.items()}[file_kind]
            ctx.err(tree, "kind", "kind", f"a {kind} card in folder {folder}/ (which holds {file_kind} "
                    "cards)")
            ok = False
        # kind-specific keys
        if kind == "hero":
            classes = tree.get("classes")
            if not classes:
                ctx.err(tree, "classes" if "classes" in tree else None, "classes",
                        "a hero needs classes: its qualified classes (クラス適性)")
                ok = False
            else:
                for j, c in enumerate(classes):
                    if c not in CLASSES:
                        ok = False
                        ja = _CLASS_BY_EN.get(str(c).lower())
                        hint = f" (did you mean {ja!r}?)" if ja else _near(c, CLASSES)
                        ctx.err(classes, j, "classes", f"unknown class {c!r} (classes are written "
                                f"in Japanese: {', '.join(CLASSES)}){hint}")
        elif "classes" in tree:
            ctx.err(tree, "classes", "classes", "only hero cards have classes (qualified classes)")
            ok = False
        if kind == "class":
            cname = tree.get("class_name")
            if cname is None:
                ctx.err(tree, None, "class_name", "a class card needs class_name (e.g. セイバー)")
                ok = False
            elif cname not in CLASSES:
                ja = _CLASS_BY_EN.get(str(cname).lower())
                hint = f" (did you mean {ja!r}?)" if ja else _near(cname, CLASSES)
                ctx.err(tree, "class_name", "class_name", f"unknown class {cname!r}{hint}")
                ok = False
            elif class_names is not None:
                if cname in class_names and class_names[cname] != card_id:
                    ctx.err(tree, "class_name", "class_name", f"class {cname} already has the class "
                            f"card {class_names[cname]}")
                    ok = False
                class_names.setdefault(cname, card_id)
        elif "class_name" in tree:
            ctx.err(tree, "class_name", "class_name", "only class cards have class_name")
            ok = False
        stats = Stats()
        if "stats" in tree and tree["stats"] is not None:
            stats = self.stats(tree, "stats", "stats", kind or "card")
            ok = ok and stats is not None
        elif kind in ("hero", "class"):
            ctx.err(tree, None, "stats", f"a {kind} card needs stats {{pa, pd, ma, md}}")
            ok = False
        for j, s in enumerate(tree.get("skills") or ()):
            ok = _check_keyword(ctx, tree["skills"], j, "skills", "skills") and ok
        copies = tree.get("copies")
        if copies is None:
            copies = 1
        effects: list[Effect | None] = []
        raw_effects = tree.get("effects")
        if raw_effects is not None:
            if not isinstance(raw_effects, YList):
                ctx.err(tree, "effects", "effects", f"effects must be a list, got {_describe(raw_effects)}")
                ok = False
            else:
                names: dict[str, int] = {}
                for j in range(len(raw_effects)):
                    e = self.effect(raw_effects, j, f"effects.{j + 1}")
                    ok = ok and e is not None
                    effects.append(e)
                    if e is not None:
                        if e.name in names:
                            ctx.err(raw_effects, j, f"effects.{j + 1}", f"card already has an effect "
                                    f"named {e.name!r} (effect {names[e.name]})")
                            ok = False
                        names.setdefault(e.name, j + 1)
        if not ok:
            return None
        src, line = location(tree)
        locations = dict(rec.loc)
        locations.setdefault("id", location(tree, "id"))
        if isinstance(raw_effects, YList):
            for j in range(len(raw_effects)):
                locations.setdefault(f"effects.{j + 1}", location(raw_effects, j))
        return CardDef(
            id=card_id, kind=kind, name=tree["name"], name_en=tree.get("name_en") or "", stats=stats,
            classes=tuple(tree.get("classes") or ()), class_name=tree.get("class_name") or "",
            skills=tuple(tree.get("skills") or ()), effects=tuple(effects), copies=copies,
            text=tree.get("text") or "", note=tree.get("note") or "",
            provenance_default=tree.get("provenance") or "printed", provenance=dict(rec.prov),
            notes=dict(rec.notes), source_file=src, source_line=line, locations=locations,
        )


def _walk_ops(ops: tuple[Op, ...]):
    for op in ops or ():
        yield None, op
        if op.op == "roll_die":
            for outcome in op.params.get("outcomes") or ():
                yield from _walk_ops(outcome["ops"])


# --- files ----------------------------------------------------------------------------------------


def _label(root: Path, default_root: bool, path: Path) -> str:
    rel = path.relative_to(root).as_posix()
    return f"cards/{rel}" if default_root else (Path(root) / rel).as_posix()


def _read_mapping(path: Path, label: str, ctx: _Ctx) -> YMap | None:
    tree = read_yaml(path, label, ctx.errors)
    if tree is None:
        return None
    if not isinstance(tree, YMap):
        ctx.err(tree, None, "", f"the top level of this file must be a mapping (key: value), got "
                f"{_describe(tree)}")
        if not isinstance(tree, YList):
            ctx.errors[-1] = DataError(label, 1, ctx.errors[-1].message)
        return None
    return tree


def _load_chips(path: Path, label: str, ctx: _Ctx, builder: _Builder) -> dict[str, Chip] | None:
    if not path.is_file():
        ctx.errors.append(DataError(label, 0, "missing chip sheet (proxy stats, E6.5)"))
        return None
    tree = _read_mapping(path, label, ctx)
    if tree is None:
        return None
    n_before = len(ctx.errors)
    _check_keys(ctx, tree, schema.CHIP_SHEET_KEYS, "chip sheet", "")
    for k in ("provenance", "note"):
        if k in tree:
            _check_value(ctx, tree, k, k, schema.CHIP_SHEET_KEYS[k], "chip sheet")
    sheet_prov = tree.get("provenance", "provisional")
    lst = tree.get("chips")
    chips: dict[str, Chip] = {}
    if not isinstance(lst, YList):
        if "chips" in tree:
            ctx.err(tree, "chips", "chips", f"chips must be a list, got {_describe(lst)}")
        return None
    for i in range(len(lst)):
        m = lst[i]
        if not isinstance(m, YMap):
            ctx.err(lst, i, f"chips.{i + 1}", f"a chip must be a mapping, got {_describe(m)}")
            continue
        rec = _Rec()
        _unwrap_root(ctx, m, rec)
        ok = _check_keys(ctx, m, schema.CHIP_KEYS, "chip", f"chips.{i + 1}")
        for k, p in schema.CHIP_KEYS.items():
            if k in m and p.type in ("str", "enum", "list[str]"):
                ok = _check_value(ctx, m, k, k, p, "chip") and ok
        if not ok:
            continue
        chip_id = m["id"]
        if not _CHIP_ID_RE.fullmatch(chip_id):
            ctx.err(m, "id", "id", f"chip id {chip_id!r} must be lower_case_with_underscores")
            continue
        if chip_id in chips:
            ctx.err(m, "id", "id", f"duplicate chip id {chip_id!r}")
            continue
        stats = builder.stats(m, "stats", "stats", "chip")
        for j, _ in enumerate(m.get("skills") or ()):
            ok = _check_keyword(ctx, m["skills"], j, "skills", "chip skills") and ok
        if stats is None or not ok:
            continue
        src, line = location(m)
        chips[chip_id] = Chip(
            id=chip_id, name=m["name"], name_en=m.get("name_en", ""), stats=stats,
            skills=tuple(m.get("skills") or ()), provenance_default=m.get("provenance", sheet_prov),
            provenance=dict(rec.prov), source_file=src, source_line=line,
            note=m.get("note") or tree.get("note") or "", notes=dict(rec.notes), locations=dict(rec.loc),
        )
    return chips if len(ctx.errors) == n_before else None


@dataclass
class _CardSrc:
    tree: YMap
    rec: _Rec
    card: CardDef | None = None
    entered: bool = False  # from a personal card pack


def _read_cards(root: Path, default_root: bool, ctx: _Ctx, builder: _Builder,
                files: list[Path], class_names: dict, failed: set[str]) -> dict[str, _CardSrc]:
    cards: dict[str, _CardSrc] = {}
    for folder, kind in schema.KIND_FOLDERS.items():
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            if path.suffix == ".yml":
                ctx.errors.append(DataError(_label(root, default_root, path), 0,
                                            "card files end in .yaml (this .yml file is not read)"))
                continue
            if path.suffix != ".yaml" or path.is_dir():  # a named pipe is read, and refused
                continue
            files.append(path)
            label = _label(root, default_root, path)
            tree = _read_mapping(path, label, ctx)
            if tree is None:  # unreadable (its problem reported): an errata patch over the card
                failed.add(path.stem.partition("_")[0])  # it names is not checked against nothing
                continue
            rec = _Rec()
            _unwrap_root(ctx, tree, rec)
            card = builder.card(tree, rec, file_kind=kind, file_stem=path.stem, class_names=class_names)
            if card is None:
                if isinstance(tree.get("id"), str):
                    failed.add(tree["id"])
                continue
            if card.id in cards:
                first = cards[card.id].card
                ctx.err(tree, "id", "id", f"duplicate card id {card.id} (also in "
                        f"{first.source_file}:{first.source_line})")
                continue
            cards[card.id] = _CardSrc(tree, rec, card)
    return cards


def _read_extra(extra: list, source: str, ctx: _Ctx, builder: _Builder,
                cards: dict[str, _CardSrc], class_names: dict, failed: set[str],
                entered: bool = False) -> None:
    """Extra card definitions (a scenario's ``cards:``, or with ``entered`` a personal pack's cards,
    whose values are ``entered`` unless wrapped otherwise); they override cards of the same id."""
    if not isinstance(extra, (list, tuple)):
        ctx.errors.append(DataError(source, 0, f"cards must be a list of card mappings, got "
                                    f"{_describe(extra)}"))
        return
    seen: set[str] = set()
    for i, item in enumerate(extra):
        if too_deep(item):  # data given as plain values (a save's cards): not parsed here
            f, line = location(item, None, (source, 0))
            ctx.errors.append(DataError(f, line, f"cards item {i + 1}: {nesting_message()}"))
            continue
        tree = lift(item, source)
        if not isinstance(tree, YMap):
            ctx.errors.append(DataError(source, 0, f"cards item {i + 1} must be a mapping, got "
                                        f"{_describe(item)}"))
            continue
        tree = clone(tree)
        rec = _Rec()
        n = len(ctx.errors)
        _unwrap_root(ctx, tree, rec)
        prev = cards.get(tree.get("id")) if isinstance(tree.get("id"), str) else None
        names = dict(class_names)
        if prev is not None and prev.card is not None and prev.card.kind == "class":
            names.pop(prev.card.class_name, None)
        card = builder.card(tree, rec, class_names=names)
        if card is None:
            if isinstance(tree.get("id"), str):
                failed.add(tree["id"])
            for e in ctx.errors[n:]:
                if e.line == 0 and not e.message.startswith("cards"):
                    e.message = f"cards item {i + 1}: {e.message}"
                    e.args = (where(e.file, e.line, e.message),)
            continue
        if card.id in seen:
            ctx.err(tree, "id", "id", f"duplicate card id {card.id} in the extra cards")
            continue
        seen.add(card.id)
        if entered:
            card = replace(card, provenance_default="entered")
        class_names.clear()
        class_names.update(names)
        cards[card.id] = _CardSrc(tree, rec, card, entered)


# --- errata ---------------------------------------------------------------------------------------


_MISSING = object()


def _schema_default(parent_path: list[str], parent: Any, key: str) -> Any:
    """The declared default of ``parent[key]`` when the key is absent (None if none is declared)."""
    spec: Mapping[str, Param] | None = None
    if not parent_path:
        spec = schema.CARD_KEYS
    elif len(parent_path) == 2 and parent_path[0] == "effects":
        spec = EFFECT_KEYS
    elif len(parent_path) == 3 and parent_path[0] == "effects" and parent_path[2] == "cost":
        spec = COST_KEYS
    elif len(parent_path) == 3 and parent_path[0] == "effects" and parent_path[2] == "target":
        spec = TARGET_KEYS
    elif isinstance(parent, dict) and parent.get("op") in OPERATIONS:
        spec = OPERATIONS[parent["op"]].params
    p = spec.get(key) if spec else None
    return plain(p.default) if p is not None else None


def _resolve(tree: YMap, path: str):
    """(parent, key, normalised path segments) or a message. List items by 1-based number or name."""
    segs = path.split(".")
    cur: Any = tree
    norm: list[str] = []
    for i, seg in enumerate(segs):
        last = i == len(segs) - 1
        if isinstance(cur, list):
            if seg.isdigit():
                idx = int(seg) - 1
            else:
                found = [j for j, x in enumerate(cur) if isinstance(x, dict) and x.get("name") == seg]
                idx = found[0] if found else -1
            if not 0 <= idx < len(cur):
                where = ".".join(norm) or "card"
                return f"{where} has no item {seg!r} (it has {len(cur)})"
            norm.append(str(idx + 1))
            if last:
                return cur, idx, norm
            cur = cur[idx]
        elif isinstance(cur, dict):
            if not seg:
                return f"empty segment in path {path!r}"
            norm.append(seg)
            if last:
                return cur, seg, norm
            if seg not in cur or cur[seg] is None:
                return f"the card has no {'.'.join(norm)}"
            cur = cur[seg]
        else:
            return f"{'.'.join(norm)} is not a mapping or list"
    return f"bad path {path!r}"  # pragma: no cover


@dataclass
class _Patch:
    m: YMap
    id: str
    rule: str
    source: str
    card: str
    path: str


def user_patch_files() -> list[Path]:
    """The user's own errata packs (same format as ``cards/errata/``), in the user data folder's
    ``errata/``: applied after the shipped packs whenever the shipped cards are loaded."""
    from fate_royal.paths import user_data_dir

    folder = user_data_dir() / schema.ERRATA_DIR
    # a named pipe or a device named *.yaml is listed, and its reader refuses it with a message
    return sorted(p for p in folder.glob("*.yaml") if not p.is_dir()) if folder.is_dir() else []


def _read_errata(root: Path, default_root: bool, ctx: _Ctx, files: list[Path],
                 extra: list[Path] | tuple = ()) -> list[_Patch]:
    base = root / schema.ERRATA_DIR
    patches: list[_Patch] = []
    packs = sorted(base.glob("*.yaml")) if base.is_dir() else []
    ids: dict[str, tuple[str, int]] = {}
    for path in packs + [Path(x) for x in extra]:
        files.append(path)
        label = _label(root, default_root, path) if path.parent == base else path.as_posix()
        tree = _read_mapping(path, label, ctx)
        if tree is None:
            continue
        # ``patches:`` with nothing after it is a pack without patches: the patch editor wrote an
        # emptied pack that way until 2026-12-06, and refusing it kept the table from starting
        empty = "patches" in tree and tree["patches"] is None
        spec = {k: v for k, v in schema.ERRATA_KEYS.items() if not (empty and k == "patches")}
        _check_keys(ctx, tree, spec, "errata pack", "", ("patches",) if empty else ())
        for k in ("pack", "title", "source_file", "note"):
            if k in tree:
                _check_value(ctx, tree, k, k, schema.ERRATA_KEYS[k], "errata pack")
        if empty:
            continue
        lst = tree.get("patches")
        if not isinstance(lst, YList):
            if "patches" in tree:
                ctx.err(tree, "patches", "patches", f"patches must be a list, got {_describe(lst)}")
            continue
        for i, m in enumerate(lst):
            if not isinstance(m, YMap):
                ctx.err(lst, i, "", f"a patch must be a mapping, got {_describe(m)}")
                continue
            ok = _check_keys(ctx, m, schema.PATCH_KEYS, "errata patch", "")
            for k, p in schema.PATCH_KEYS.items():
                if k in m and p.type == "str":
                    ok = _check_value(ctx, m, k, k, p, "errata patch") and ok
            if ("set" in m) == ("append" in m):
                ctx.err(m, None, "", "a patch has exactly one of set: or append:")
                ok = False
            rule = m["rule"].strip() if ok else ""
            if rule and errata_rule_problem(rule):
                # a patch is switched off with its rule: one that is no errata rule never would be
                ctx.err(m, "rule", "", errata_rule_problem(rule))
                ok = False
            if not ok:
                continue
            if m["id"] in ids:
                f, ln = ids[m["id"]]
                ctx.err(m, "id", "", f"duplicate patch id {m['id']!r} (also at {f}:{ln})")
                continue
            ids[m["id"]] = location(m, "id")
            patches.append(_Patch(m, m["id"], rule, m["source"], m["card"], m["path"]))
    return patches


def _apply_patches(ctx: _Ctx, patches: list[_Patch], cards: dict[str, _CardSrc],
                   builder: _Builder, failed: set[str]) -> None:
    by_card: dict[str, list[_Patch]] = {}
    for p in patches:
        if p.card in failed and p.card not in cards:
            continue  # the card itself has errors (reported); the patch cannot be checked
        if p.card not in cards:
            problem = id_problem(p.card, f"patch {p.id} names card")
            ctx.err(p.m, "card", "", problem or f"patch {p.id} names card {p.card!r}, which does not "
                    f"exist{_near(p.card, cards)}")
            continue
        by_card.setdefault(p.card, []).append(p)
    for card_id, plist in by_card.items():
        src = cards[card_id]
        if src.card is None:
            continue
        tree, rec = clone(src.tree), src.rec.copy()
        applied: list[AppliedPatch] = []
        card = None
        for p in plist:
            new_tree, new_rec = clone(tree), rec.copy()
            record = _apply_one(ctx, p, new_tree, new_rec, over_entered=src.entered)
            if record is None:
                continue
            sub = _Ctx()
            patcher = _Builder(sub, builder.chips)
            patcher.chip_sheet = builder.chip_sheet
            patched = patcher.card(new_tree, new_rec)
            if patched is None:
                # errors inside the patch's own value keep their place; the rest point at the patch
                pfile, pline = location(p.m, "path")
                for e in sub.errors:
                    if e.file == pfile:
                        ctx.errors.append(e)
                    else:
                        ctx.errors.append(DataError(pfile, pline, f"patch {p.id} makes {card_id} "
                                                    f"invalid: {e.message}"))
                continue
            tree, rec, card = new_tree, new_rec, patched
            applied.append(record)
        if applied and card is not None:
            src.card = _with_patches(card, tuple(applied), src.card)
    _check_patched_classes(ctx, cards, {p.id: p for p in patches})


def _check_patched_classes(ctx: _Ctx, cards: dict[str, _CardSrc], patches: dict[str, _Patch]) -> None:
    """One class card a class, after the patches as before them (``card`` checks the files and a
    card pack that way): a patch that gives a class card another card's class is refused."""
    holders: dict[str, list[CardDef]] = {}
    for card_id in sorted(cards):
        card = cards[card_id].card
        if card is not None and card.kind == "class":
            holders.setdefault(card.class_name, []).append(card)
    for cname, group in holders.items():
        patched = [c for c in group if c.patches]
        if len(group) < 2 or not patched:
            continue
        culprit = patched[-1]
        other = ([c for c in group if not c.patches] or [c for c in group if c is not culprit])[0]
        applied = next((a for a in reversed(culprit.patches) if a.path in ("class_name", "kind")),
                       culprit.patches[-1])
        p = patches.get(applied.patch_id)
        if p is not None:
            ctx.err(p.m, "path", "", f"patch {p.id} makes {culprit.id} invalid: class {cname} "
                    f"already has the class card {other.id}")


def _with_patches(card: CardDef, patches: tuple, original: CardDef) -> CardDef:
    from dataclasses import replace

    return replace(card, patches=patches, original=original, source_file=original.source_file,
                   source_line=original.source_line)


def _apply_one(ctx: _Ctx, p: _Patch, tree: YMap, rec: _Rec,
               over_entered: bool = False) -> AppliedPatch | None:
    """Apply one patch. ``over_entered``: the card is a person's correction (personal card pack);
    the errata changes the card whatever was printed there, so a value that is not the one the
    patch expects (the printed value, now entered) is replaced all the same, and the note says so."""
    m = p.m
    over = " (applied over the value entered in the personal card pack)"
    appending = "append" in m
    got = _resolve(tree, p.path)
    at = f"{p.card} ({where(*location(tree))})"  # a patch that no longer fits names the card file too
    if isinstance(got, str):
        ctx.err(m, "path", "", f"patch {p.id}: {got}, in {at}")
        return None
    parent, key, norm = got
    norm_path = ".".join(norm)
    expect = plain(m["expect"])
    if appending:
        lst = parent.get(key) if isinstance(parent, dict) else parent[key]
        if lst is None:
            lst = YList(src=tree.src, line=tree.line)
        if not isinstance(lst, list):
            ctx.err(m, "path", "", f"patch {p.id}: {norm_path} is not a list, cannot append")
            return None
        if not (isinstance(expect, dict) and set(expect) == {"count"} and _is_int(expect["count"])):
            ctx.err(m, "expect", "", f"patch {p.id}: an append patch expects {{count: N}}, the "
                    "number of items already at the path")
            return None
        if len(lst) != expect["count"] and not over_entered:
            ctx.err(m, "expect", "", f"patch {p.id}: expected {expect['count']} item(s) at "
                    f"{at} {norm_path}, found {len(lst)} (the card changed; check the "
                    "patch against it)")
            return None
        item = clone(m["append"])
        name = item.get("name") if isinstance(item, dict) else None
        if name is not None and any(isinstance(x, dict) and x.get("name") == name for x in lst):
            ctx.err(m, "append", "", f"patch {p.id}: {p.card} already has {name!r} at {norm_path}")
            return None
        new_path = f"{norm_path}.{len(lst) + 1}"
        holder = YList([item], src=m.src, line=m.line)
        holder.item_lines.append(location(m, "append")[1])
        rec.drop(new_path)
        _unwrap(ctx, holder, 0, new_path, rec)
        rec.prov[new_path] = "errata"
        rec.notes[new_path] = f"{p.rule}: {p.source}" + \
            (over if len(lst) != expect["count"] else "")
        rec.loc[new_path] = location(m, "append")
        lst.append(holder[0])
        if isinstance(lst, YList):
            lst.item_lines.append(location(m, "append")[1])
        if isinstance(parent, dict) and key not in parent:
            parent[key] = lst
        return AppliedPatch(p.id, p.rule, p.source, new_path, None, plain(holder[0]))
    present = key in parent if isinstance(parent, dict) else True
    current = parent[key] if present else _schema_default(norm[:-1], parent, key)
    cur_plain = plain(current)
    matches = cur_plain == expect or (not present and expect is None)
    if not matches and not over_entered:
        ctx.err(m, "expect", "", f"patch {p.id}: {at} {norm_path} is "
                f"{_show(cur_plain)}, not the expected {_show(expect)} (the card changed; check the "
                "patch against it)")
        return None
    holder = YMap(src=m.src, line=m.line)
    holder["v"] = clone(m["set"])
    holder.key_lines["v"] = location(m, "set")[1]
    rec.drop(norm_path)
    _unwrap(ctx, holder, "v", norm_path, rec)
    # the values written by the patch are errata; provisional wrappers inside it stay provisional
    if norm_path not in rec.prov:
        rec.prov[norm_path] = "errata"
        rec.notes[norm_path] = f"{p.rule}: {p.source}" + ("" if matches else over)
        rec.loc[norm_path] = location(m, "set")
    parent[key] = holder["v"]
    if isinstance(parent, YMap):
        parent.key_lines.setdefault(key, parent.line)
    return AppliedPatch(p.id, p.rule, p.source, norm_path, cur_plain if present else None,
                        plain(holder["v"]))


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


# --- public API -----------------------------------------------------------------------------------


def load_card_db(root: Path | None = None, errata: bool = True, extra: list[dict] | None = None,
                 *, extra_source: str = "", rules: Any = None,
                 pack: Any = None, patch_files: list[Path] | None = None) -> CardDB:
    """Load and validate every card file under ``root`` (default ``paths.cards_dir()``), the chip
    sheet and, with ``errata``, apply the errata pack(s) in ``root/errata`` — every patch, or with
    ``rules`` (a ``RuleSet``) the patches it has in force. ``extra`` holds further card definitions
    (same schema; they override shipped cards of the same id), e.g. a scenario's ``cards:``;
    ``extra_source`` names them in error messages (by default none: problems in plain data, such
    as a save's cards, read ``cards item 2: ...`` and the save's reader names the save). ``pack``:
    the personal card pack (``cards.pack``) — None reads the user's pack when ``root`` is the shipped data (a folder given
    as ``root`` gets none), False none, a path or a ``CardPack`` that one; its cards come before
    ``extra``. Raises ``DataErrors`` listing every problem found. ``patch_files``: further errata packs
    (default: with the shipped cards, the user's own, ``user_patch_files()``)."""
    default_root = root is None
    if patch_files is None:
        patch_files = user_patch_files() if default_root else []
    if root is None:
        from fate_royal.paths import cards_dir

        root = cards_dir()
    root = Path(root)
    ctx = _Ctx()
    if not root.is_dir():
        raise DataErrors([DataError(str(root), 0, "card folder not found")])
    files: list[Path] = []
    chip_path = root / schema.CHIP_SHEET
    files.append(chip_path)
    builder = _Builder(ctx, None)
    chips = _load_chips(chip_path, _label(root, default_root, chip_path), ctx, builder)
    builder.chips = chips
    builder.chip_sheet = _label(root, default_root, chip_path)
    class_names: dict[str, str] = {}
    failed: set[str] = set()
    cards = _read_cards(root, default_root, ctx, builder, files, class_names, failed)
    pack_cards = _pack_cards(pack, default_root, ctx)
    if pack_cards is not None and pack_cards.cards:
        _read_extra(pack_cards.db_cards(), pack_cards.source, ctx, builder, cards, class_names,
                    failed, entered=True)
    if extra:
        _read_extra(extra, extra_source, ctx, builder, cards, class_names, failed)
    applied: list[str] = []
    if errata:
        patches = _read_errata(root, default_root, ctx, files, patch_files)
        if rules is not None:
            # a patch without a rule (an error already reported) is still checked, so that the
            # patch form learns every problem of its fields at once
            patches = [p for p in patches if not p.rule or rules.patch_on(p.id, p.rule)]
        applied = sorted(p.id for p in patches)
        _apply_patches(ctx, patches, cards, builder, failed)
    if ctx.errors:
        raise DataErrors(ctx.errors)
    digest = hashlib.sha256()
    digest.update(f"patches={','.join(applied)}\0".encode())
    for path in sorted(f for f in files if f.is_file()):
        name = path.relative_to(root) if path.is_relative_to(root) else Path("user", path.name)
        digest.update(name.as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    if pack_cards is not None and pack_cards.cards:
        digest.update(b"pack\0" + json.dumps(plain(pack_cards.db_cards()), sort_keys=True,
                                              ensure_ascii=False, default=str).encode())
    if extra:
        digest.update(json.dumps(plain(list(extra)), sort_keys=True, ensure_ascii=False,
                                 default=str).encode())
    return CardDB(
        cards={cid: src.card for cid, src in sorted(cards.items())},
        chips=dict(sorted((chips or {}).items())),
        errata=bool(applied),
        fingerprint=digest.hexdigest(),
        patches=frozenset(applied),
    )


def build_card(mapping: Mapping[str, Any], chips: Mapping[str, Chip] | None = None, *,
                source: str = "<card>", entered: bool = False) -> tuple[CardDef | None, list[DataError]]:
    """Check and build one card definition on its own (the card editor's live validation): the
    card, or None, and every problem found — the same checks as for a card file, except those that
    need the other cards (duplicate ids and class names, errata patches). Errors without a line
    start with the dotted path of the field (``effects.1.cost.discard: ...``)."""
    ctx = _Ctx()
    if too_deep(dict(mapping)):
        return None, [DataError(source, 0, nesting_message())]
    tree = lift(clone(dict(mapping)), source)
    if not isinstance(tree, YMap):
        return None, [DataError(source, 0, "a card must be a mapping")]
    builder = _Builder(ctx, dict(chips) if chips is not None else None)
    rec = _Rec()
    _unwrap_root(ctx, tree, rec)
    card = builder.card(tree, rec)
    if card is not None and entered:
        card = replace(card, provenance_default="entered")
    return (card if not ctx.errors else None), list(ctx.errors)


def _pack_cards(pack: Any, default_root: bool, ctx: _Ctx):
    """The personal pack to load (see ``load_card_db``), or None; its errors go to ``ctx``."""
    from fate_royal.cards import pack as packs

    if pack is False or (pack is None and not default_root):
        return None
    if isinstance(pack, packs.CardPack):
        return pack
    try:
        return packs.read_pack(pack)
    except DataErrors as exc:
        ctx.errors.extend(exc.errors)
        return None


def errata_patches(root: Path | None = None) -> list[tuple[str, str, str, str]]:
    """(patch id, rule id, card id, source sentence) of every errata patch, in pack order — the
    switches a rule set may name besides the E rules (with the shipped cards: the user's own packs
    too). Raises ``DataErrors``."""
    default_root = root is None
    if root is None:
        from fate_royal.paths import cards_dir

        root = cards_dir()
    ctx = _Ctx()
    patches = _read_errata(Path(root), default_root, ctx, [],
                           user_patch_files() if default_root else [])
    if ctx.errors:
        raise DataErrors(ctx.errors)
    return [(p.id, p.rule, p.card, p.source) for p in patches]


def load_profile(path: Path | None = None, overrides: Mapping | None = None,
                 *, overrides_source: str = "<profile overrides>") -> RulesProfile:
    """The rules profile from ``path`` (default ``cards/profile.yaml``), each key checked against
    ``profile.PARAMETERS``, then ``overrides`` (e.g. a scenario's ``profile:``) on top. Parameters
    the file leaves out keep their defaults. Raises ``DataErrors``."""
    default = path is None
    if path is None:
        from fate_royal.paths import cards_dir

        path = cards_dir() / schema.PROFILE_FILE
    path = Path(path)
    label = f"cards/{schema.PROFILE_FILE}" if default else path.as_posix()
    ctx = _Ctx()
    values: dict[str, Any] = {}
    tree = over = None
    if not path.is_file():
        ctx.errors.append(DataError(label, 0, "rules profile file not found"))
    else:
        tree = _read_mapping(path, label, ctx)
        if tree is not None:
            _profile_values(ctx, tree, values)
    if overrides:
        if not isinstance(overrides, Mapping):
            ctx.errors.append(DataError(overrides_source, 0, "profile overrides must be a mapping"))
        else:
            over = lift(dict(overrides), overrides_source)
            _profile_values(ctx, over, values)
    if not ctx.errors:  # each value is fine alone: do they fit together?
        for key, problem in conflicts(values, over):
            holder = over if over is not None and key in over else tree
            ctx.err(holder, key, "", problem)
    if ctx.errors:
        raise DataErrors(ctx.errors)
    return RulesProfile.from_mapping(values)


def _profile_values(ctx: _Ctx, tree: YMap, values: dict[str, Any]) -> None:
    for key, value in tree.items():
        problem = check_value(key, plain(value))
        if problem:
            ctx.err(tree, key, "", problem)
        else:
            values[key] = plain(value)


def read_data_file(path: Path, label: str | None = None) -> Any:
    """Read any YAML data file the safe way (see ``yamlsrc``): mappings and lists come back as
    ``YMap``/``YList`` that remember file and lines (pass a scenario's ``cards:`` list on to
    ``load_card_db(extra=...)`` and its errors keep their lines). Raises ``DataErrors``."""
    errors: list[DataError] = []
    value = read_yaml(Path(path), label or Path(path).as_posix(), errors)
    if errors:
        raise DataErrors(errors)
    return value


def profile_fingerprint(profile: RulesProfile) -> str:
    """A hash of a profile's values, for saved games."""
    data = json.dumps(profile.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(data.encode()).hexdigest()
