"""qt/app.py: screenshots in the format their name asks for, written atomically; the application's
names and icon; a file named on the command line that cannot be opened ends the program."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRect

from fate_royal.cli import gui_parser
from fate_royal.qt import i18n
from fate_royal.qt.app import DEFAULT_SIZE, run_app
from fate_royal.qt.screen import fit_on_screen


def _run(argv: list[str]) -> int:
    try:
        return run_app(gui_parser().parse_args(argv))
    finally:
        i18n.set_language("ja")


@pytest.mark.parametrize("name, magic, fmt", [
    ("shot.png", b"\x89PNG\r\n\x1a\n", "PNG"),
    ("shot.jpg", b"\xff\xd8\xff", "JPEG"),
    ("shot.JPEG", b"\xff\xd8\xff", "JPEG"),
    ("shot.bmp", b"BM", "BMP"),
])
def test_screenshot_writes_the_format_of_its_name(qapp, tmp_path, name, magic, fmt):
    from PySide6.QtGui import QImage, QImageReader

    out = tmp_path / name
    assert _run(["--players", "2", "--size", "800x600", "--screenshot", str(out)]) == 0
    assert out.read_bytes().startswith(magic)
    assert bytes(QImageReader(str(out)).format()).decode().upper() in (fmt, "JPG")
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 600)
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temporary file left


def test_screenshot_refuses_an_unknown_format_and_a_missing_folder(qapp, tmp_path, capsys):
    assert _run(["--players", "2", "--screenshot", str(tmp_path / "shot.gif")]) == 1
    assert "is not one of .png, .jpg, .jpeg, .bmp" in capsys.readouterr().err
    assert _run(["--players", "2", "--screenshot", str(tmp_path / "no" / "shot.png")]) == 1
    assert "cannot write" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_screenshot_over_a_planted_symlink_does_not_write_through_it(qapp, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious")
    out = tmp_path / "shot.png"
    out.symlink_to(victim)
    assert _run(["--players", "2", "--size", "640x480", "--screenshot", str(out)]) == 0
    assert victim.read_text() == "precious" and not out.is_symlink()


def test_application_names_and_icon(qapp, tmp_path):
    from PySide6.QtWidgets import QApplication

    assert _run(["--players", "2", "--screenshot", str(tmp_path / "a.png")]) == 0
    app = QApplication.instance()
    assert app.applicationName() == "fate-royal"
    assert app.organizationName() == "fate_royal"
    assert app.desktopFileName() == "fate-royal"
    icon = app.windowIcon()
    assert not icon.isNull()
    for side in (16, 32, 64, 256):  # drawn at every size a desktop asks for
        pixmap = icon.pixmap(side, side)
        assert not pixmap.isNull() and pixmap.width() == side
        assert pixmap.toImage().pixelColor(side // 2, side // 2).alpha() > 0  # not blank


def test_unreadable_scenario_ends_the_program_instead_of_opening_the_table(qapp, tmp_path,
                                                                          monkeypatch, capsys):
    """Interactive start (no --screenshot): the error is shown in a message box and on stderr,
    then run_app returns 1 without entering the event loop."""
    from PySide6.QtWidgets import QApplication, QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "critical", lambda *a, **k: shown.append(a[2]))
    monkeypatch.setattr(QApplication, "exec", lambda *a: pytest.fail("the table was opened"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [\n", encoding="utf-8")
    assert _run(["--scenario", str(bad)]) == 1
    assert shown and "bad.yaml" in shown[0]
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "Traceback" not in err
    assert not [w for w in QApplication.topLevelWidgets() if w.isVisible()]


def _start_interactive(monkeypatch, argv, rounds=40):
    """``run_app`` as a user starts it (no --screenshot), its event loop run for a few rounds;
    returns (window, what the table's first painted frame saw)."""
    from PySide6.QtWidgets import QApplication

    from fate_royal.qt import table as table_module

    first = {}
    paint = table_module.TableView.paintEvent

    def recording_paint(self, event):
        paint(self, event)
        if self.controller.game is not None and not first:
            window = self.window()
            first["features"] = getattr(window, "rulings", None)
            first["menus"] = [a.objectName() or a.text() for a in window.menuBar().actions()]

    monkeypatch.setattr(table_module.TableView, "paintEvent", recording_paint)
    app = QApplication.instance()

    def loop(*_a):
        for _ in range(rounds):
            app.processEvents()
        return 0

    monkeypatch.setattr(QApplication, "exec", loop)
    monkeypatch.setattr("fate_royal.qt.app.display_problem", lambda *a, **k: None)
    assert _run(argv) == 0
    return _main_window(), first


def _main_window():
    """The table's window on show (None if there is none)."""
    from PySide6.QtWidgets import QApplication

    return next((w for w in QApplication.topLevelWidgets() if type(w).__name__ == "MainWindow"
                 and w.isVisible()), None)


def _close(window):
    """Closes a window started as a user starts it, answering "quit" to the unsaved-game question."""
    window.rulings.keeper.ask = lambda *_a: "quit"
    window.close()


def test_the_table_is_painted_first_and_the_rest_of_the_window_built_right_after(
        qapp, monkeypatch, tmp_path):
    """Issue 15, start-up: the rulings features (menus, demo, saves, autosave, inspector) are not
    needed to draw a dealt table; they are built just after its first frame, not before."""
    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path / "data"))
    window, first = _start_interactive(monkeypatch, ["--players", "3", "--seed", "5"])
    try:
        assert first, "the table was never painted"
        assert first["features"] is None  # the first frame came before them
        features = getattr(window, "rulings", None)
        assert features is not None  # ... and then they were built without anyone asking
        assert len(window.menuBar().actions()) > len(first["menus"])  # their menus came with them
        assert features.keeper.enabled and features.show_dialogs  # an interactive table's
        assert window.table.accessibleName()  # names for screen readers too
    finally:
        _close(window)


def test_the_remembered_window_size_is_kept_unless_size_is_given(qapp, monkeypatch, tmp_path):
    """The last run's size comes back (it used to be replaced by the default 1600×900 right
    after it was restored); ``--size`` still wins."""
    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path / "data"))
    for argv, size in ((["--players", "2", "--size", "760x580"], (760, 580)),  # closing keeps it
                       (["--players", "2"], (760, 580)),  # ... and the next start brings it back
                       (["--players", "2", "--size", "700x560"], (700, 560))):
        window, _first = _start_interactive(monkeypatch, argv, rounds=5)
        try:
            assert (window.width(), window.height()) == size, argv
        finally:
            _close(window)


def test_a_first_start_fits_its_window_on_the_screen(qapp, monkeypatch, tmp_path):
    """With no remembered size the window opened 1600×900 whatever the screen: on a 1280×800 one its
    docks lay past the right edge. It now fits the screen's free area (the offscreen one is small)."""
    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path / "data"))
    free = qapp.primaryScreen().availableGeometry()
    window, _first = _start_interactive(monkeypatch, ["--players", "2"], rounds=5)
    try:
        assert window.width() <= free.width() and window.height() <= free.height()
        assert (window.width(), window.height()) == fit_on_screen(DEFAULT_SIZE, qapp.primaryScreen())
    finally:
        _close(window)


class _Screen:
    def __init__(self, w: int, h: int) -> None:
        self.free = QRect(0, 0, w, h)

    def availableGeometry(self) -> QRect:  # noqa: N802 (Qt's name)
        return self.free


@pytest.mark.parametrize("screen, size", [
    ((1280, 770), (1216, 731)), ((1366, 728), (1297, 691)), ((1920, 1050), (1600, 900)),
    ((3840, 2100), (1600, 900)), ((0, 0), (1600, 900)),
])
def test_the_default_size_is_made_smaller_only_where_it_does_not_fit(screen, size):
    assert fit_on_screen(DEFAULT_SIZE, _Screen(*screen)) == size
    assert fit_on_screen(DEFAULT_SIZE, None) == DEFAULT_SIZE


def test_a_table_that_is_never_painted_still_gets_the_rest_within_a_second(qapp, monkeypatch, tmp_path):
    """A window started minimised paints nothing: its menus, saves and autosave still come, a
    second after start at the latest."""
    import time

    from PySide6.QtWidgets import QApplication

    from fate_royal.qt import table as table_module

    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path / "data"))
    monkeypatch.setattr(table_module.TableView, "paintEvent", lambda self, event: None)
    app = QApplication.instance()

    def loop(*_a):
        end = time.monotonic() + 1.5
        while time.monotonic() < end and getattr(_main_window(), "rulings", None) is None:
            app.processEvents()
            time.sleep(0.01)
        return 0

    monkeypatch.setattr(QApplication, "exec", loop)
    assert _run(["--players", "2", "--seed", "3"]) == 0
    window = _main_window()
    try:
        assert not window.table._painted_once
        assert getattr(window, "rulings", None) is not None
    finally:
        _close(window)
