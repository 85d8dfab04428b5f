"""A disk cache of parsed data files, so that a start does not parse the same YAML again.

``parsed(kind, data, label, build)`` returns ``build()`` — the parse of ``data`` (the file's bytes),
``label`` (the name errors and line records carry) — from a pickle in the user's cache folder when
one was stored for exactly these bytes, this label and this version of the parser, and otherwise
builds it and stores it. The key is a SHA-256 over all of that, so an edited file, a renamed file or
a changed parser is a miss, never a stale hit. Only clean parses are stored (``build`` reports
whether its result may be kept). The pickles are ours: written by this process's user into their
own cache folder, never read from a file anyone sent (a shared file is only ever the *input* of a
parse). Anything that goes wrong with the cache — a corrupt or truncated pickle, a read-only
folder, a full disk — is a miss and a fresh parse; the cache never raises.

``FATE_ROYAL_CACHE`` names the folder (``off`` turns the cache off); default: ``parsed`` in the
platform's user cache folder (``paths.user_cache_dir()``; ``~/.cache/fate_royal/`` on Linux). At most ``MAX_FILES`` entries are kept (the
oldest go first) and no single input above ``MAX_INPUT`` bytes is cached.

No Qt: the card loader and the message catalogs use it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from pathlib import Path
from typing import Any, Callable

__all__ = ["parsed", "cache_dir", "MAX_FILES", "MAX_INPUT"]

log = logging.getLogger(__name__)

MAX_FILES = 400
MAX_INPUT = 2 * 1024 * 1024
_SUFFIX = ".pickle"
_versions: dict[str, bytes] = {}


def cache_dir() -> Path | None:
    """The folder of parsed-file pickles, or None when the cache is turned off."""
    override = os.environ.get("FATE_ROYAL_CACHE", "").strip()
    if override.lower() in ("off", "0", "no", "false"):
        return None
    if override:
        return Path(override)
    try:
        from fate_royal.paths import user_cache_dir

        return user_cache_dir() / "parsed"
    except Exception:  # pragma: no cover - no home folder at all
        return None


def _version(module_file: str) -> bytes:
    """What identifies the parser: its source text when readable (a development checkout, an
    installed wheel), else the bundle's executable (size and time: a frozen app holds its code
    there, and a rebuilt one is another file), plus the package's and Python's versions."""
    got = _versions.get(module_file)
    if got is None:
        from fate_royal import __version__

        try:
            source = Path(module_file).read_bytes()
        except OSError:  # a frozen bundle: its executable (which holds the code) stands for it
            try:
                st = os.stat(sys.executable)
                source = f"{sys.executable}\0{st.st_size}\0{st.st_mtime_ns}".encode()
            except OSError:
                source = b""
        got = hashlib.sha256(source + f"\0{__version__}\0{sys.version}".encode()).digest()
        _versions[module_file] = got
    return got


def parsed(kind: str, data: bytes, label: str, build: Callable[[], tuple[Any, bool]],
           parser_file: str) -> Any:
    """The parse of ``data`` as ``build`` makes it; ``build`` returns ``(value, keep)`` and only a
    kept value is stored. ``parser_file`` is the source file of the parser (its version)."""
    folder = cache_dir() if len(data) <= MAX_INPUT else None
    if folder is None:
        return build()[0]
    digest = hashlib.sha256()
    for part in (kind.encode(), _version(parser_file), label.encode("utf-8", "surrogatepass"), data):
        digest.update(len(part).to_bytes(8, "little"))
        digest.update(part)
    path = folder / f"{kind}-{digest.hexdigest()}{_SUFFIX}"
    try:
        with open(path, "rb") as fh:
            return pickle.load(fh)
    except FileNotFoundError:
        pass
    except Exception as exc:  # a damaged entry: parse again (and replace it below)
        log.debug("parsed-file cache: %s unreadable (%s)", path.name, exc)
    value, keep = build()
    if keep:
        _store(folder, path, value)
    return value


def _store(folder: Path, path: Path, value: Any) -> None:
    try:
        blob = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:  # pragma: no cover - a value that cannot be pickled: not cached
        log.debug("parsed-file cache: cannot pickle %s (%s)", path.name, exc)
        return
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(tmp, flags, 0o600)
        try:
            view = memoryview(blob)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
        os.replace(tmp, path)  # no fsync: losing an entry in a power cut only costs a parse
        _prune(folder)
    except OSError as exc:
        log.debug("parsed-file cache: cannot store %s (%s)", path.name, exc)
        try:
            tmp.unlink()
        except OSError:
            pass


def _prune(folder: Path) -> None:
    """Keep at most ``MAX_FILES`` entries: the least recently written go first."""
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(_SUFFIX)]
        if len(entries) <= MAX_FILES:
            return
        entries.sort(key=lambda e: e.stat().st_mtime)
        for entry in entries[: len(entries) - MAX_FILES]:
            os.unlink(entry.path)
    except OSError as exc:  # pragma: no cover - a folder changing under us
        log.debug("parsed-file cache: pruning failed (%s)", exc)
