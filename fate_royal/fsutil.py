"""Writing files so that a crash, a full disk or a planted symlink never costs the user a file.

``atomic_write(path, data)`` writes to a fresh temporary file beside ``path`` and renames it over
``path``: readers see either the old file or the new one, never half of it. The temporary file has a
random name, is created with ``O_CREAT | O_EXCL | O_NOFOLLOW`` (so an existing file or a symlink
planted under that name is never opened, let alone followed), is flushed to disk before the rename,
and is removed on any failure. A symlink at ``path`` itself is replaced by the new file, not
followed.

``clean_stale_temps(folder, prefix)`` removes what an interrupted ``atomic_write`` (a killed
process, a power cut) left behind.

``read_bounded(path, limit)`` reads a file a user named (a card pack, a rule set, a scenario…) and
never hangs or fills the memory doing it: a named pipe, a device (``/dev/zero``), a socket or a folder
is refused (``NotRegularFile``) without blocking, and a file larger than ``limit`` bytes is refused
(``FileTooLarge``) after reading at most ``limit + 1`` bytes, whatever ``stat`` says.

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

__all__ = ["atomic_write", "clean_stale_temps", "read_bounded", "size_text", "temp_path_for", "unsafe_to_open",
           "FileRefused", "FileTooLarge", "NotRegularFile", "TEMP_SUFFIX"]

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


# --------------------------------------------------------------------------- reading, bounded

_READ_FLAGS = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
               | getattr(os, "O_BINARY", 0))
_CHUNK = 1 << 16
_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


class FileRefused(OSError):
    """``read_bounded`` refused the file. An ``OSError`` whose ``strerror`` is the whole reason
    (``"not a regular file (a named pipe)"``, ``"larger than 2 MB"``), so that code printing
    ``exc.strerror`` for any read failure words it well."""

    def __init__(self, code: int, reason: str, path: str | os.PathLike) -> None:
        super().__init__(code, reason, os.fspath(path))


class NotRegularFile(FileRefused):
    """The path is a folder, a named pipe, a device or a socket, not a regular file."""


class FileTooLarge(FileRefused):
    """The file holds more than the limit. ``limit``: the limit in bytes; ``size``: the size the
    file has (as far as it was read or ``fstat`` tells)."""

    def __init__(self, path: str | os.PathLike, limit: int, size: int) -> None:
        super().__init__(errno.EFBIG, f"larger than {size_text(limit)}", path)
        self.limit = limit
        self.size = size


def _kind_problem(mode: int) -> str | None:
    """``"not a regular file (a named pipe)"`` and the like for a ``st_mode``, or None for a
    regular file."""
    if stat.S_ISREG(mode):
        return None
    kind = next((name for test, name in _KINDS if test(mode)), "not a file")
    return f"not a regular file ({kind})"


def unsafe_to_open(path: str | os.PathLike) -> str | None:
    """Why a file that another library will open itself (QSettings) must not be handed to it — a
    named pipe would hang it, a device feed it without end — or None: a regular file, or nothing
    there yet. Symlinks are followed, as the library would."""
    try:
        info = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as exc:  # a symlink loop, no permission
        return exc.strerror or str(exc)
    return _kind_problem(info.st_mode)


def size_text(n: int) -> str:
    """A byte count as people read it: ``2 MB``, ``512 KB``, ``100 bytes`` (rounded down)."""
    if n >= 1024 * 1024:
        return f"{n // (1024 * 1024)} MB"
    if n >= 1024:
        return f"{n // 1024} KB"
    return f"{n} bytes"


def read_bounded(path: str | os.PathLike, limit: int) -> bytes:
    """The bytes of the regular file at ``path`` (symlinks followed), at most ``limit`` of them.

    Raises ``NotRegularFile`` for a folder, named pipe, device or socket (opened without blocking,
    so a pipe nobody writes to never hangs), ``FileTooLarge`` when the file holds more than
    ``limit`` bytes (at most ``limit + 1`` are read, so ``/dev/zero`` behind a symlink or a file
    that grows cannot fill the memory), and ``OSError`` as ``open`` does (missing file, no
    permission, a symlink loop)."""
    try:
        fd = os.open(path, _READ_FLAGS)
    except IsADirectoryError:  # Windows opens no folder
        raise NotRegularFile(errno.EISDIR, "not a regular file (a folder)", path) from None
    try:
        info = os.fstat(fd)
        problem = _kind_problem(info.st_mode)
        if problem is not None:
            raise NotRegularFile(errno.EINVAL, problem, path)
        if info.st_size > limit:
            raise FileTooLarge(path, limit, info.st_size)
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(_CHUNK, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise FileTooLarge(path, limit, max(total, info.st_size))
        return b"".join(chunks)
    finally:
        os.close(fd)
