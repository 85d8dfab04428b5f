"""A settings path that is no regular file (FATE_ROYAL_SETTINGS pointing at a named pipe, a device
or a folder) must not hang the table or feed it without end: it runs with the default settings, and
the log says why."""

from __future__ import annotations

import logging
import os
import threading

import pytest

from fate_royal.qt.settings import Settings

posix_only = pytest.mark.skipif(os.name != "posix", reason="named pipes and /dev/zero")


def _open(path) -> Settings:
    box: dict = {}
    worker = threading.Thread(target=lambda: box.setdefault("s", Settings(path)), daemon=True)
    worker.start()
    worker.join(20)
    assert not worker.is_alive(), "opening the settings blocked"
    return box["s"]


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "device", "folder"])
def test_a_settings_path_that_is_no_regular_file_gives_the_defaults(tmp_path, kind, caplog):
    path = tmp_path / "settings.ini"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    with caplog.at_level(logging.WARNING, logger="fate_royal.qt.settings"):
        s = _open(path)
    assert s.language() is None and s.animations() is True and s.player_names() == []
    s.set_language("ja")  # kept for this run, never written to the path
    s.sync()
    assert s.language() == "ja"
    assert any("not a regular file" in r.getMessage() and str(path) in r.getMessage()
               for r in caplog.records)


def test_a_regular_settings_file_is_used(tmp_path, caplog):
    path = tmp_path / "settings.ini"
    s = Settings(path)
    s.set_language("en")
    s.sync()
    assert Settings(path).language() == "en" and not caplog.records
