"""Writing files so that a crash, a full disk or a planted symlink never costs the user a file.

``atomic_write(path, data)`` writes to a fresh temporary file beside ``path`` and renames it over
``path``: readers see either the old file or the new one, never half of it. The temporary file has a
random name, is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` (so an existing file or a symlink
planted under that name is never opened, let alone followed), is flushed to disk before the rename,
and is removed on any failure. A symlink at ``path`` itself is replaced by the new file, not
followed.

``clean_stale_temps(folder, prefix)`` removes what an interrupted ``atomic_write`` (a killed
process, a power cut) left behind.

Pure Python, no Qt: saves, autosave and exports all go through here.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
import time
from pathlib import Path

__all__ = ["atomic_write", "clean_stale_temps", "temp_path_for", "TEMP_SUFFIX"]

TEMP_SUFFIX = ".tmp"
_TOKEN_BYTES = 8  # 16 hex digits
_ATTEMPTS = 16  # fresh names tried before giving up (each collision is 1 in 2^64 by chance)
_TEMP_NAME = re.compile(r"\.(?P<target>.+)\.[0-9a-f]{%d}%s" % (2 * _TOKEN_BYTES, re.escape(TEMP_SUFFIX)))

_OPEN_FLAGS = (os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
               | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0))


def temp_path_for(path: Path) -> Path:
    """A fresh temporary name beside ``path``: ``.NAME.<16 random hex digits>.tmp``."""
    return path.with_name(f".{path.name}.{secrets.token_hex(_TOKEN_BYTES)}{TEMP_SUFFIX}")


def _create_temp(path: Path) -> tuple[int, Path]:
    """Create and open a new temporary file beside ``path`` (never an existing file or symlink)."""
    for _ in range(_ATTEMPTS):
        tmp = temp_path_for(path)
        try:
            # 0o666 before the umask, like any new file the user saves; O_EXCL refuses an existing
            # name, symlinks included (whatever they point at), so nothing planted is ever opened.
            return os.open(tmp, _OPEN_FLAGS, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, f"no free temporary name beside {path.name} after "
                          f"{_ATTEMPTS} tries", str(path.parent))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def _sync_folder(folder: Path) -> None:
    """Make the rename itself durable (POSIX); best effort, never an error."""
    if os.name != "posix":
        return
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: str | os.PathLike, data: bytes | str, *, encoding: str = "utf-8") -> Path:
    """Replace the file at ``path`` with ``data`` (text is encoded with ``encoding``, newlines kept
    as given), atomically. The folder must exist (it is not created). An existing regular file keeps
    its permission bits. Raises ``OSError`` on failure, leaving the old file as it was and no
    temporary file behind. Returns ``path`` as a ``Path``."""
    path = Path(path)
    payload = data.encode(encoding) if isinstance(data, str) else bytes(data)
    try:
        old = os.lstat(path)
    except FileNotFoundError:
        old = None
    if old is not None and stat.S_ISDIR(old.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", str(path))
    fd, tmp = _create_temp(path)
    try:
        try:
            if old is not None and stat.S_ISREG(old.st_mode) and hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
            _write_all(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)  # replaces a symlink at ``path`` itself; never writes through it
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    _sync_folder(path.parent)
    return path


def clean_stale_temps(folder: str | os.PathLike, prefix: str = "", *,
                      older_than: float = 60.0) -> list[Path]:
    """Remove the temporary files that interrupted ``atomic_write`` calls left in ``folder``: names
    of the form ``.TARGET.<16 hex digits>.tmp`` whose TARGET starts with ``prefix``, last changed
    more than ``older_than`` seconds ago (so that a save in progress in another window is left
    alone). Symlinks with such names are removed themselves, never followed; folders are skipped.
    Returns the paths removed; a missing folder or a file that cannot be removed is skipped."""
    folder = Path(folder)
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        match = _TEMP_NAME.fullmatch(entry.name)
        if not match or not match.group("target").startswith(prefix):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISDIR(info.st_mode) or now - info.st_mtime < older_than:
                continue
            os.unlink(entry.path)
        except OSError:
            continue
        removed.append(Path(entry.path))
    return removed
