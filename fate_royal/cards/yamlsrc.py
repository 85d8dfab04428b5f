"""Safe YAML reading that keeps line numbers, and the data errors every loader reports.

Data files never run code: a file is *composed* into YAML nodes with the safe loader (libyaml's
``CSafeLoader`` when present, else the pure-Python ``SafeLoader``; both only build nodes here) and
the Python values are then built from the nodes by this module, which accepts only the core tags
(text, integer, float, boolean, null, sequence, mapping). Any other tag -- ``!!python/object``,
``!!binary``, a date, a custom ``!tag`` -- is an error with its file and line, never constructed.

Mappings and lists come back as ``YMap`` / ``YList``: a ``dict`` / ``list`` that also remembers the
file (``src``), its own line, and the line of each key or item, so that validation can name the line
of any value.

Card data needs little depth (the shipped files nest lists and mappings 11 levels at most): a file
nested more than ``MAX_NESTING`` levels is refused at the line where it gets too deep, so that no
reader or checker further on ever recurses without end. A data file is read with
``fsutil.read_bounded``: at most ``MAX_DATA_BYTES``, and never a named pipe or a device.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

from fate_royal.cache import parsed

_CORE = "tag:yaml.org,2002:"
#: what YAML reads a plain key as, when that is not text (``off:`` is a boolean)
_KEY_READINGS = {_CORE + "bool": "true/false", _CORE + "int": "a number", _CORE + "float": "a number",
                 _CORE + "null": "nothing (null)"}
_SCALAR_TAGS = {_CORE + t for t in ("str", "int", "float", "bool", "null")}
#: Lists and mappings inside one another, at most (the shipped data uses 11 levels).
MAX_NESTING = 64
#: A card file, errata pack, rule set, profile or reference holds a few KB.
MAX_DATA_BYTES = 2 * 1024 * 1024
#: ``str(DataErrors)`` lists this many problems, then says how many more there are.
MAX_SHOWN_ERRORS = 20


def nesting_message(limit: int = MAX_NESTING) -> str:
    return f"lists and mappings nested too deeply (more than {limit} levels)"


def too_deep(value: Any, limit: int = MAX_NESTING) -> bool:
    """Whether plain data (dicts, lists, tuples) nests more than ``limit`` levels (without
    recursing, so any depth can be asked about)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, (list, tuple)):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class DataError(Exception):
    """One problem in a data file: ``str(e) == "file:line: message"``."""

    def __init__(self, file: str, line: int, message: str) -> None:
        super().__init__(where(file, line, message))
        self.file = str(file)
        self.line = int(line)
        self.message = message

    def __str__(self) -> str:  # pragma: no cover - same as args[0]
        return where(self.file, self.line, self.message)


def where(file: str, line: int, message: str | None = None) -> str:
    """``file:line`` (with ``: message``). Data without a file of its own (``file`` empty: e.g.
    the cards recorded in a save, whose reader names the save) gives the message alone."""
    place = f"{file}:{line}" if file else ""
    if message is None:
        return place or "the data given"
    return f"{place}: {message}" if place else message


class DataErrors(DataError):
    """Several data errors at once (a ``DataError`` itself: ``file``/``line``/``message`` are the
    first one's). Iterate it, or read ``errors``; ``str`` gives one ``file:line: message`` a line."""

    def __init__(self, errors: Iterable[DataError]) -> None:
        self.errors: list[DataError] = list(errors)
        first = self.errors[0] if self.errors else DataError("?", 0, "no errors")
        super().__init__(first.file, first.line, first.message)
        self.args = (self._text(),)

    def _text(self) -> str:
        """One problem a line; past ``MAX_SHOWN_ERRORS``, how many more there are."""
        lines = [str(e) for e in self.errors[:MAX_SHOWN_ERRORS]]
        if len(self.errors) > MAX_SHOWN_ERRORS:
            lines.append(f"… and {len(self.errors) - MAX_SHOWN_ERRORS} more")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self._text()

    def __iter__(self):
        return iter(self.errors)

    def __len__(self) -> int:
        return len(self.errors)

    def __getitem__(self, i: int) -> DataError:
        return self.errors[i]


class YMap(dict):
    """A mapping read from YAML, with its file, its line and the line of each key."""

    __slots__ = ("src", "line", "key_lines")

    def __init__(self, *args: Any, src: str = "", line: int = 0, **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.src = src
        self.line = line
        self.key_lines: dict[Any, int] = {}


class YList(list):
    """A list read from YAML, with its file, its line and the line of each item."""

    __slots__ = ("src", "line", "item_lines")

    def __init__(self, *args: Any, src: str = "", line: int = 0) -> None:
        super().__init__(*args)
        self.src = src
        self.line = line
        self.item_lines: list[int] = []


def location(holder: Any, key: Any = None, default: tuple[str, int] = ("<data>", 0)) -> tuple[str, int]:
    """(file, line) of ``holder[key]`` (or of ``holder`` when key is None), else ``default``."""
    if isinstance(holder, YMap):
        if key is not None and key in holder.key_lines:
            return holder.src, holder.key_lines[key]
        return holder.src, holder.line
    if isinstance(holder, YList):
        if isinstance(key, int) and 0 <= key < len(holder.item_lines):
            return holder.src, holder.item_lines[key]
        return holder.src, holder.line
    return default


def clone(value: Any) -> Any:
    """A deep copy that keeps YMap/YList line information."""
    if isinstance(value, YMap):
        out = YMap(((k, clone(v)) for k, v in value.items()), src=value.src, line=value.line)
        out.key_lines = dict(value.key_lines)
        return out
    if isinstance(value, YList):
        out = YList((clone(v) for v in value), src=value.src, line=value.line)
        out.item_lines = list(value.item_lines)
        return out
    if isinstance(value, dict):
        return {k: clone(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [clone(v) for v in value]
    return value


def plain(value: Any) -> Any:
    """Plain dicts/lists (tuples become lists) for comparing and recording values."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value


def lift(value: Any, src: str, line: int = 0) -> Any:
    """Turn already-parsed plain data into YMap/YList (keeping any line info it has)."""
    if isinstance(value, (YMap, YList)):
        return value
    if isinstance(value, dict):
        out = YMap(src=src, line=line)
        for k, v in value.items():
            out[k] = lift(v, src, line)
            out.key_lines[k] = line
        return out
    if isinstance(value, (list, tuple)):
        out = YList(src=src, line=line)
        for v in value:
            out.append(lift(v, src, line))
            out.item_lines.append(line)
        return out
    return value


def _short_tag(tag: str) -> str:
    return "!!" + tag[len(_CORE):] if tag.startswith(_CORE) else tag


def read_yaml(path: Path, label: str, errors: list[DataError], limit: int = MAX_DATA_BYTES) -> Any:
    """Read one YAML file (a regular file of at most ``limit`` bytes) into YMap/YList values.
    Problems are appended to ``errors`` (file = label); returns None when the file cannot be used
    at all."""
    from fate_royal.fsutil import read_bounded

    try:
        data = read_bounded(path, limit)
    except OSError as exc:
        errors.append(DataError(label, 0, f"cannot read file: {exc.strerror or exc}"))
        return None
    return parse_yaml(data, label, errors)


def parse_yaml(data: bytes | str, label: str, errors: list[DataError]) -> Any:
    """Parse YAML bytes/text (see ``read_yaml``). A clean parse is kept in the parsed-file cache
    (``fate_royal.cache``): the same bytes under the same label are not parsed again."""
    raw = data if isinstance(data, bytes) else data.encode("utf-8", "surrogatepass")

    def build() -> tuple[Any, bool]:
        before = len(errors)
        value = _parse_yaml(data, label, errors)
        return value, value is not None and len(errors) == before

    return parsed("yaml", raw, label, build, __file__)


def _parse_yaml(data: bytes | str, label: str, errors: list[DataError]) -> Any:
    import yaml  # only for a file the cache does not hold

    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            errors.append(DataError(label, line, f"not UTF-8 text (byte 0x{data[exc.start]:02x})"))
            return None
    else:
        text = data
    try:
        node = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else 1
        what = exc.problem or exc.context or "invalid YAML"
        errors.append(DataError(label, line, f"YAML syntax error: {what}"))
        return None
    except yaml.YAMLError as exc:
        errors.append(DataError(label, 1, f"YAML error: {exc}"))
        return None
    except RecursionError:  # the pure-Python composer, far past MAX_NESTING: no line to name
        errors.append(DataError(label, 1, nesting_message()))
        return None
    if node is None:
        errors.append(DataError(label, 1, "empty file"))
        return None
    builder = _Builder(label, errors)
    value = builder.build(node)
    return None if builder.too_deep else value  # too deep to be data: nothing of it is used


@lru_cache(maxsize=1)
def _constructor() -> Any:
    import yaml

    return yaml.constructor.SafeConstructor()


class _Builder:
    def __init__(self, label: str, errors: list[DataError]) -> None:
        self.label = label
        self.errors = errors
        self.active: set[int] = set()
        self.built: set[int] = set()  # collection nodes already built: seeing one again = alias
        self.aliased: set[int] = set()  # ... and those already reported as such
        self.depth = 0  # lists and mappings around the node being built
        self.too_deep = False  # said once a file

    def error(self, node: yaml.Node, message: str) -> None:
        self.errors.append(DataError(self.label, node.start_mark.line + 1, message))

    def build(self, node: yaml.Node) -> Any:
        import yaml  # already loaded by _parse_yaml: a dictionary look-up

        line = node.start_mark.line + 1
        if isinstance(node, yaml.ScalarNode):
            if node.tag not in _SCALAR_TAGS:
                self.error(node, f"YAML tag {_short_tag(node.tag)} is not allowed in data files "
                           "(only text, numbers, true/false, null, lists and mappings; quote it "
                           "to make it text)")
                return None
            if node.tag == _CORE + "str":
                try:
                    node.value.encode("utf-8")
                except UnicodeEncodeError as exc:  # an escape such as "\ud800": not a character
                    self.error(node, f"text holds half of a UTF-16 surrogate pair "
                               f"(\\u{ord(node.value[exc.start]):04x}), which is not a character")
                    return None
                return node.value
            try:
                constructor = _constructor()
                return {
                    _CORE + "int": constructor.construct_yaml_int,
                    _CORE + "float": constructor.construct_yaml_float,
                    _CORE + "bool": constructor.construct_yaml_bool,
                    _CORE + "null": constructor.construct_yaml_null,
                }[node.tag](node)
            except Exception:  # e.g. "!!int abc"
                self.error(node, f"{node.value!r} is not a valid {_short_tag(node.tag)}")
                return None
        if id(node) in self.active:
            if id(node) not in self.aliased:  # once per anchor, however often it is used inside
                self.aliased.add(id(node))
                self.error(node, "recursive YAML alias")
            return None
        if id(node) in self.built:
            # An alias (*name) of a list or mapping. Data files have no use for them, and nested
            # aliases can expand exponentially (the "billion laughs"): refuse rather than hang.
            # Said once per anchor (PyYAML keeps no mark of the alias itself, only of the anchor).
            if id(node) not in self.aliased:
                self.aliased.add(id(node))
                self.error(node, "this list or mapping is anchored (&name) and used again through an "
                           "alias (*name); aliases of lists or mappings are not allowed in data files")
            return None
        if self.depth >= MAX_NESTING:
            if not self.too_deep:
                self.too_deep = True
                self.error(node, nesting_message())
            return None
        self.built.add(id(node))
        self.active.add(id(node))
        self.depth += 1
        try:
            if isinstance(node, yaml.SequenceNode):
                if node.tag != _CORE + "seq":
                    self.error(node, f"YAML tag {_short_tag(node.tag)} is not allowed in data files")
                    return None
                out = YList(src=self.label, line=line)
                for item in node.value:
                    out.append(self.build(item))
                    out.item_lines.append(item.start_mark.line + 1)
                return out
            if node.tag != _CORE + "map":
                self.error(node, f"YAML tag {_short_tag(node.tag)} is not allowed in data files")
                return None
            out = YMap(src=self.label, line=line)
            for knode, vnode in node.value:
                if not isinstance(knode, yaml.ScalarNode) or knode.tag != _CORE + "str":
                    if knode.tag == _CORE + "merge":
                        self.error(knode, "YAML merge keys (<<) are not supported in data files")
                    elif isinstance(knode, yaml.ScalarNode) and knode.tag in _KEY_READINGS:
                        # `off:` or `yes:` is a boolean to YAML, `2:` a number: say so, and the cure
                        self.error(knode, f"key {knode.value!r} is read as {_KEY_READINGS[knode.tag]}, "
                                          f"not text: write it in quotes ('{knode.value}')")
                    else:
                        self.error(knode, "mapping keys must be plain text")
                    continue
                key = knode.value
                if key in out:
                    self.error(knode, f"duplicate key {key!r} (first at line {out.key_lines[key]})")
                    continue
                out[key] = self.build(vnode)
                out.key_lines[key] = knode.start_mark.line + 1
            return out
        finally:
            self.depth -= 1
            self.active.discard(id(node))
