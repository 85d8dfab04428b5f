"""atomic_write: a fresh temporary file beside the target, O_EXCL/O_NOFOLLOW, fsync, rename; nothing
left behind on failure; planted symlinks never followed. clean_stale_temps: leftovers removed."""

from __future__ import annotations

import errno
import os
import stat
import sys
import time
from pathlib import Path

import pytest

from fate_royal import fsutil
from fate_royal.fsutil import atomic_write, clean_stale_temps
from intime import in_time

posix_only = pytest.mark.skipif(os.name != "posix", reason="symlinks and modes as on POSIX")


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def test_writes_bytes_and_text(tmp_path):
    target = tmp_path / "save.json"
    assert atomic_write(target, b"\x00\x01bytes") == target
    assert target.read_bytes() == b"\x00\x01bytes"
    atomic_write(target, "テキスト\r\nline")  # text: UTF-8, newlines kept as given
    assert target.read_bytes() == "テキスト\r\nline".encode("utf-8")
    assert _leftovers(tmp_path) == []


def test_replaces_existing_file_and_keeps_its_mode(tmp_path):
    target = tmp_path / "save.json"
    target.write_text("old")
    if os.name == "posix":
        target.chmod(0o640)
    atomic_write(target, "new")
    assert target.read_text() == "new"
    if os.name == "posix":
        assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_temporary_names_are_unique_and_beside_the_target(tmp_path, monkeypatch):
    seen: list[tuple[str, int]] = []
    real_open = os.open

    def spy(path, flags, mode=0o777, *a, **kw):
        seen.append((os.fspath(path), flags))
        return real_open(path, flags, mode, *a, **kw)

    monkeypatch.setattr(fsutil.os, "open", spy)
    target = tmp_path / "a.json"
    atomic_write(target, "1")
    atomic_write(target, "2")
    temps = [(p, f) for p, f in seen if p.endswith(".tmp")]
    assert len(temps) == 2 and temps[0][0] != temps[1][0]
    for p, flags in temps:
        assert Path(p).parent == tmp_path and Path(p).name.startswith(".a.json.")
        assert flags & os.O_EXCL and flags & os.O_CREAT
        if hasattr(os, "O_NOFOLLOW"):
            assert flags & os.O_NOFOLLOW


@posix_only
def test_symlink_planted_at_the_temporary_name_is_never_followed(tmp_path, monkeypatch):
    """Someone who could predict the temporary name plants a symlink there pointing at a file of
    the user's: the write must not go through it (O_EXCL refuses the name; a fresh one is drawn)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "save.json"
    planted = tmp_path / ".save.json.0000000000000000.tmp"
    planted.symlink_to(victim)
    names = iter(["0000000000000000", "1111111111111111"])
    monkeypatch.setattr(fsutil.secrets, "token_hex", lambda n: next(names))
    atomic_write(target, "saved")
    assert victim.read_text() == "precious"
    assert target.read_text() == "saved" and not target.is_symlink()
    assert planted.is_symlink()  # left alone (clean_stale_temps removes it later)


@posix_only
def test_planted_symlink_on_every_try_is_an_error_not_a_write(tmp_path, monkeypatch):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    (tmp_path / ".save.json.0000000000000000.tmp").symlink_to(victim)
    monkeypatch.setattr(fsutil.secrets, "token_hex", lambda n: "0000000000000000")
    with pytest.raises(FileExistsError):
        atomic_write(tmp_path / "save.json", "saved")
    assert victim.read_text() == "precious"
    assert not (tmp_path / "save.json").exists()


@posix_only
def test_symlink_at_the_target_is_replaced_not_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    target = tmp_path / "save.json"
    target.symlink_to(victim)
    atomic_write(target, "saved")
    assert victim.read_text() == "precious"
    assert not target.is_symlink() and target.read_text() == "saved"


@pytest.mark.parametrize("broken", ["write", "fsync", "replace"])
def test_failure_keeps_the_old_file_and_leaves_no_temporary(tmp_path, monkeypatch, broken):
    target = tmp_path / "save.json"
    target.write_text("old")

    def disk_full(*args, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(fsutil.os, broken, disk_full)
    with pytest.raises(OSError) as info:
        atomic_write(target, "new" * 1000)
    assert info.value.errno == errno.ENOSPC
    monkeypatch.undo()
    assert target.read_text() == "old"
    assert _leftovers(tmp_path) == []


def test_interrupt_mid_write_leaves_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "save.json"
    calls = []

    def interrupted(fd, data):
        calls.append(len(data))
        raise KeyboardInterrupt

    monkeypatch.setattr(fsutil.os, "write", interrupted)
    with pytest.raises(KeyboardInterrupt):
        atomic_write(target, "x")
    monkeypatch.undo()
    assert calls and not target.exists() and _leftovers(tmp_path) == []


def test_short_writes_are_completed(tmp_path, monkeypatch):
    real_write = os.write
    monkeypatch.setattr(fsutil.os, "write", lambda fd, data: real_write(fd, bytes(data[:3])))
    atomic_write(tmp_path / "f", b"0123456789")
    monkeypatch.undo()
    assert (tmp_path / "f").read_bytes() == b"0123456789"


def test_missing_folder_and_folder_target_are_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        atomic_write(tmp_path / "no" / "such" / "save.json", "x")
    assert not (tmp_path / "no").exists()  # folders are not created
    (tmp_path / "dir").mkdir()
    with pytest.raises(IsADirectoryError):
        atomic_write(tmp_path / "dir", "x")
    assert _leftovers(tmp_path) == []


def test_clean_stale_temps_removes_only_old_leftovers_of_the_prefix(tmp_path):
    old = time.time() - 3600
    stale = tmp_path / ".autosave.json.0123456789abcdef.tmp"
    other = tmp_path / ".export.png.0123456789abcdef.tmp"
    fresh = tmp_path / ".autosave.json.fedcba9876543210.tmp"
    unrelated = [tmp_path / "autosave.json", tmp_path / "notes.tmp",
                 tmp_path / ".autosave.json.not-hex.tmp"]
    for p in (stale, other, fresh, *unrelated):
        p.write_text("x")
    for p in (stale, other, *unrelated):
        os.utime(p, (old, old))
    (tmp_path / ".autosave.json.aaaaaaaaaaaaaaaa.tmp").mkdir()
    removed = clean_stale_temps(tmp_path, "autosave")
    assert removed == [stale]
    assert not stale.exists() and other.exists() and fresh.exists()
    assert all(p.exists() for p in unrelated)
    assert sorted(clean_stale_temps(tmp_path, "", older_than=0)) == sorted([other, fresh])


@posix_only
def test_clean_stale_temps_removes_a_planted_symlink_not_its_target(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    link = tmp_path / ".save.json.0000000000000000.tmp"
    link.symlink_to(victim)
    assert clean_stale_temps(tmp_path, "save", older_than=0) == [link]
    assert not link.is_symlink() and victim.read_text() == "precious"


def test_clean_stale_temps_of_a_missing_folder(tmp_path):
    assert clean_stale_temps(tmp_path / "missing", "x") == []


def test_leftover_of_a_killed_writer_is_cleaned(tmp_path):
    """A writer killed between creating its temporary file and the rename leaves it behind; the
    target is untouched and clean_stale_temps removes the leftover."""
    import subprocess

    target = tmp_path / "autosave.json"
    target.write_text("old")
    code = ("import os, sys; from fate_royal import fsutil\n"
            "os.replace = lambda *a: os._exit(9)\n"
            "fsutil.atomic_write(sys.argv[1], 'new')\n")
    proc = subprocess.run([sys.executable, "-c", code, str(target)], timeout=60)
    assert proc.returncode == 9
    assert target.read_text() == "old"
    leftovers = _leftovers(tmp_path)
    assert len(leftovers) == 1 and (tmp_path / leftovers[0]).read_text() == "new"
    assert clean_stale_temps(tmp_path, "autosave", older_than=0) == [tmp_path / leftovers[0]]
    assert _leftovers(tmp_path) == []


# --- read_bounded: a file a user named, never a hang and never more than the limit -------------------


def test_read_bounded_reads_a_file_of_up_to_the_limit(tmp_path):
    path = tmp_path / "pack.yaml"
    path.write_bytes(b"x" * 1000)
    assert fsutil.read_bounded(path, 1000) == b"x" * 1000
    assert fsutil.read_bounded(tmp_path / "pack.yaml", 5000) == b"x" * 1000
    (tmp_path / "empty.yaml").write_bytes(b"")
    assert fsutil.read_bounded(tmp_path / "empty.yaml", 10) == b""


def test_read_bounded_refuses_one_byte_more_than_the_limit(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"x" * (2 * 1024 * 1024 + 1))
    with pytest.raises(fsutil.FileTooLarge) as info:
        fsutil.read_bounded(path, 2 * 1024 * 1024)
    assert info.value.strerror == "larger than 2 MB"
    assert (info.value.limit, info.value.size) == (2 * 1024 * 1024, 2 * 1024 * 1024 + 1)
    assert isinstance(info.value, OSError) and info.value.filename == str(path)
    assert fsutil.size_text(512 * 1024) == "512 KB" and fsutil.size_text(100) == "100 bytes"


@posix_only
def test_read_bounded_refuses_a_named_pipe_without_blocking(tmp_path):
    """Nobody writes to the pipe: a plain open() would wait for ever."""
    fifo = tmp_path / "pack.yaml"
    os.mkfifo(fifo)
    with pytest.raises(fsutil.NotRegularFile) as info:
        in_time(lambda: fsutil.read_bounded(fifo, 1024))
    assert info.value.strerror == "not a regular file (a named pipe)"


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_read_bounded_refuses_a_device_behind_a_symlink(tmp_path):
    """``stat`` gives /dev/zero a size of 0: the limit must not rest on it (it reached 9.8 GB)."""
    link = tmp_path / "scenario.yaml"
    link.symlink_to("/dev/zero")
    with pytest.raises(fsutil.NotRegularFile) as info:
        in_time(lambda: fsutil.read_bounded(link, 1024))
    assert info.value.strerror == "not a regular file (a device)"


def test_read_bounded_refuses_a_folder(tmp_path):
    (tmp_path / "rules.yaml").mkdir()
    with pytest.raises(fsutil.NotRegularFile) as info:
        fsutil.read_bounded(tmp_path / "rules.yaml", 1024)
    assert info.value.strerror == "not a regular file (a folder)"


@posix_only
def test_read_bounded_passes_on_what_open_says(tmp_path):
    with pytest.raises(FileNotFoundError):
        fsutil.read_bounded(tmp_path / "none.yaml", 1024)
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    with pytest.raises(OSError) as info:
        fsutil.read_bounded(tmp_path / "a.yaml", 1024)
    assert info.value.errno == errno.ELOOP and not isinstance(info.value, fsutil.FileRefused)


def test_unsafe_to_open_names_what_a_library_opening_the_path_itself_must_not_get(tmp_path):
    from fate_royal.fsutil import unsafe_to_open

    assert unsafe_to_open(tmp_path / "none-yet.ini") is None
    (tmp_path / "s.ini").write_text("[a]\n", encoding="utf-8")
    assert unsafe_to_open(tmp_path / "s.ini") is None
    assert unsafe_to_open(tmp_path) == "not a regular file (a folder)"
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "pipe.ini")
        assert unsafe_to_open(tmp_path / "pipe.ini") == "not a regular file (a named pipe)"
