"""The user's own card errata patches: an errata pack (the format of ``cards/errata/``) in the user
data folder, applied after the shipped packs whenever the shipped cards load
(``loader.user_patch_files``), switchable by id in a rule set like any shipped patch.

This module is what the patch form of the table stands on, without Qt: the pack as plain dicts
(``read_user_patches``), written one key a line so that every ``file:line`` error of the loader
names a field (``check_patches``), the value a new patch must expect at a card's field
(``card_value``) and the field paths a card has (``field_paths``).
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from fate_royal.cards.yamlsrc import DataError

USER_PACK = "mine.yaml"
#: the keys of a patch as the form edits them, in file order (a ``set`` patch)
FIELDS = ("id", "rule", "source", "card", "path", "expect", "set")


def user_pack_path() -> Path:
    from fate_royal.cards.schema import ERRATA_DIR
    from fate_royal.paths import user_data_dir

    return user_data_dir() / ERRATA_DIR / USER_PACK


def read_user_patches(path: Path | None = None) -> list[dict[str, Any]]:
    """The patches of the user's pack (plain dicts), [] when there is none. Raises
    ``DataErrors`` when the file is not a pack."""
    from fate_royal.cards.loader import read_data_file
    from fate_royal.cards.yamlsrc import plain

    path = Path(path) if path is not None else user_pack_path()
    if not path.is_file():
        return []
    tree = plain(read_data_file(path))
    patches = tree.get("patches") if isinstance(tree, dict) else None
    return [dict(p) for p in patches or [] if isinstance(p, dict)]


def _flow(value: Any) -> str:
    """``value`` as YAML on one line: flow style; a text with a line break in it as a JSON string
    (valid YAML, its breaks written ``\\n``), so that the pack keeps one key a line (``pack_text``'s
    map of lines to fields relies on it). Only YAML's document-end marker is taken off a plain
    scalar, never an ellipsis the text itself ends with."""
    import json

    import yaml

    text = yaml.safe_dump(value, allow_unicode=True, default_flow_style=True, width=10 ** 6)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    if "\n" in text:
        text = json.dumps(value, ensure_ascii=False)
    return text


def pack_text(patches: list[dict[str, Any]], title: str = "") -> tuple[str, dict[int, tuple[int, str]]]:
    """The pack as YAML, one key a line; and line -> (patch index, key) for naming fields."""
    lines = ["pack: mine", f"title: {_flow(title or 'house rules of this table')}",
             "patches:" if patches else "patches: []"]  # a pack with none is still a pack
    where: dict[int, tuple[int, str]] = {}
    for i, p in enumerate(patches):
        keys = [k for k in FIELDS if k in p] + [k for k in p if k not in FIELDS]
        for j, k in enumerate(keys):
            lines.append(f"{'  - ' if j == 0 else '    '}{k}: {_flow(p[k])}")
            where[len(lines)] = (i, k)
    return "\n".join(lines) + "\n", where


def save_user_patches(patches: list[dict[str, Any]], path: Path | None = None) -> Path:
    from fate_royal.fsutil import atomic_write

    path = Path(path) if path is not None else user_pack_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, pack_text(patches)[0].encode("utf-8"))
    return path


def check_patches(patches: list[dict[str, Any]], *, rules: Any = None, path: Path | None = None
                  ) -> tuple[Any, dict[tuple[int, str], str], list[str]]:
    """Load the shipped cards with ``patches`` as the user's pack (the other user packs too), with
    exactly the loader's validation. (card data or None, {(patch index, key): message}, other
    problems). A problem the loader places at a line of the pack becomes the error of that field."""
    from fate_royal.cards.loader import load_card_db, user_patch_files

    path = Path(path) if path is not None else user_pack_path()
    text, where = pack_text(patches)
    fields: dict[tuple[int, str], str] = {}
    other: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        candidate = Path(tmp) / path.name
        candidate.write_text(text, encoding="utf-8")
        others = [p for p in user_patch_files() if p.resolve() != path.resolve()]
        try:
            db = load_card_db(rules=rules, patch_files=others + [candidate])
        except DataError as exc:
            db = None
            for e in getattr(exc, "errors", [exc]):
                # the messages name the pack as the user knows it, not the temporary copy
                message = e.message.replace(candidate.as_posix(), path.as_posix())
                if e.file == candidate.as_posix() and e.line in where:
                    fields.setdefault(where[e.line], message)
                elif e.file == candidate.as_posix():
                    i = max((ix for ln, (ix, _k) in where.items() if ln <= e.line), default=0)
                    fields.setdefault((i, "id"), message)
                else:
                    other.append(str(e).replace(candidate.as_posix(), path.as_posix()))
    from fate_royal.cards.ruleset import errata_rule_problem

    for i, p in enumerate(patches):  # what the loader leaves to the shipped pack's authors
        for k in ("id", "rule", "source", "card", "path"):
            if not str(p.get(k, "") or "").strip():
                fields[(i, k)] = f"{k} is required"  # plainer than the loader's "is empty"
        rule = str(p.get("rule", "") or "").strip()
        if rule and errata_rule_problem(rule):
            # a patch belongs to an errata rule: off with it (the base rules have no patch at all)
            fields.setdefault((i, "rule"), errata_rule_problem(rule))
    if fields or other:
        db = None
    return db, fields, other


def card_value(card: Any, path: str) -> Any:
    """The value at a dotted ``path`` of ``card`` as its file and the patches applied to it leave
    it: what a new patch on that path must ``expect``. KeyError naming the path if it has none."""
    norm, value = _resolve_plain(_card_tree(card), path)
    for applied in card.patches:
        if applied.path == norm:
            value = applied.after
    return value


def _unwrapped(node: Any) -> Any:
    """A card file's values without their provenance wrappers ``{value:, provenance:, note:}``
    (the loader reads a card that way before any patch applies)."""
    if isinstance(node, dict):
        if "value" in node and "provenance" in node and set(node) <= {"value", "provenance", "note"}:
            return _unwrapped(node["value"])
        return {k: _unwrapped(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_unwrapped(v) for v in node]
    return node


def _card_tree(card: Any) -> Any:
    from fate_royal.cards.loader import read_data_file
    from fate_royal.cards.yamlsrc import plain
    from fate_royal.paths import data_root

    source = Path(card.source_file)
    if not source.is_absolute():
        source = data_root() / source
    return _unwrapped(plain(read_data_file(source)))


def _resolve_plain(tree: Any, path: str) -> tuple[str, Any]:
    cur = tree
    norm: list[str] = []
    for seg in path.split("."):
        if isinstance(cur, list):
            if seg.isdigit():
                idx = int(seg) - 1
            else:
                idx = next((j for j, x in enumerate(cur) if isinstance(x, dict)
                            and x.get("name") == seg), -1)
            if not 0 <= idx < len(cur):
                raise KeyError(f"{'.'.join(norm) or 'the card'} has no item {seg!r}")
            norm.append(str(idx + 1))
            cur = cur[idx]
        elif isinstance(cur, dict):
            if seg not in cur:
                raise KeyError(f"the card has no {'.'.join(norm + [seg])}")
            norm.append(seg)
            cur = cur[seg]
        else:
            raise KeyError(f"{'.'.join(norm)} is not a mapping or list")
    return ".".join(norm), cur


def field_paths(card: Any) -> list[str]:
    """Every dotted path of ``card``'s file a patch may name (mappings' keys and list items, down
    to the leaves), in file order."""
    out: list[str] = []

    def walk(node: Any, prefix: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k == "id" and not prefix:
                    continue
                p = f"{prefix}.{k}" if prefix else str(k)
                out.append(p)
                walk(v, p)
        elif isinstance(node, list):
            for i, v in enumerate(node, 1):
                p = f"{prefix}.{i}"
                out.append(p)
                walk(v, p)

    walk(_card_tree(card), "")
    return out
