"""The GUI entry point's checks, run before Qt starts: no display, files named on the command line,
the screenshot's folder and format, exclusive options, a FATE_ROYAL_DATA without data; and the
packaging side (GUI script, desktop entry, per-user folders)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fate_royal import cli, desktop, paths
from fate_royal.qt.app import display_problem, fatal_qt_line

ROOT = Path(__file__).resolve().parents[1]
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="X11/Wayland only")


def _bare_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """A cleared environment: no display, no Qt platform, a fresh home."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "LANG": "C.UTF-8"}
    env.update(extra)
    return env


def _run(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "fate_royal", *args], env=env, cwd=cwd,
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


# --- no display: one line, status 1 -------------------------------------------------------------


@linux_only
@pytest.mark.parametrize("args", [[], ["--players", "2"], ["--screenshot", "out.png"]])
def test_no_display_is_one_line_and_status_1(tmp_path, args):
    proc = _run(args, _bare_env(tmp_path), tmp_path)
    assert proc.returncode == 1, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("fate-royal: no display to open the window on (neither DISPLAY nor "
                               "WAYLAND_DISPLAY is set)")
    assert "QT_QPA_PLATFORM=offscreen" in lines[0]
    assert proc.stdout == "" and not (tmp_path / "out.png").exists()


@linux_only
@pytest.mark.parametrize("extra, plugin", [
    ({"QT_QPA_PLATFORM": "xcb", "DISPLAY": ":7391"}, "xcb"),  # a display nobody serves
    ({"DISPLAY": ":7391"}, "xcb"),  # Qt's default platform, same dead display
    ({"QT_QPA_PLATFORM": "no_such_plugin"}, "no_such_plugin"),
])
def test_platform_plugin_failure_is_one_line_and_status_1(tmp_path, extra, plugin):
    """Qt itself fails to start its platform plugin (it would abort, status 134, saying nothing on
    the terminal): the message handler turns that into one line and status 1."""
    proc = _run(["--players", "2"], _bare_env(tmp_path, **extra), tmp_path)
    assert proc.returncode == 1, (proc.returncode, proc.stderr)
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith(f"fate-royal: cannot open a window: Qt's platform plugin \"{plugin}\" "
                               "could not be loaded")
    assert "README.md" in lines[0] and "QT_QPA_PLATFORM=offscreen" in lines[0]
    log = tmp_path / "home" / ".local" / "state" / "fate_royal" / "log" / "fate_royal.log"
    assert log.is_file() and "CRITICAL" in log.read_text("utf-8")  # Qt's own words, for details


@pytest.mark.parametrize("env, platform, ok", [
    ({}, "linux", False),
    ({"DISPLAY": ":0"}, "linux", True),
    ({"WAYLAND_DISPLAY": "wayland-0"}, "linux", True),
    ({"QT_QPA_PLATFORM": "offscreen"}, "linux", True),
    ({"QT_QPA_PLATFORM": "vnc"}, "linux", True),
    ({"QT_QPA_PLATFORM": "xcb"}, "linux", False),
    ({"QT_QPA_PLATFORM": "xcb", "WAYLAND_DISPLAY": "w"}, "linux", False),
    ({"QT_QPA_PLATFORM": "wayland;xcb", "DISPLAY": ":0"}, "linux", True),
    ({"QT_QPA_PLATFORM": "xcb:nograb", "DISPLAY": ":1"}, "linux", True),
    ({"QT_QPA_PLATFORM": "  "}, "freebsd14", False),
    ({}, "win32", True),
    ({}, "darwin", True),
])
def test_display_problem(env, platform, ok):
    assert (display_problem(env, platform) is None) == ok


def test_fatal_qt_line():
    recent = ['From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin.',
              'Could not load the Qt platform plugin "xcb" in "" even though it was found.']
    line = fatal_qt_line("This application failed to start because no Qt platform plugin could be "
                         "initialized. Reinstalling the application may fix this problem.\n\n"
                         "Available platform plugins are: offscreen, xcb.", recent)
    assert line.startswith('cannot open a window: Qt\'s platform plugin "xcb" could not be loaded '
                           "(From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed")
    assert "\n" not in line
    assert fatal_qt_line("Something else broke\nmore", []) == "Qt stopped: Something else broke"


# --- command-line slips -----------------------------------------------------------------------------


def _main(capsys, argv: list[str]) -> tuple[int, str]:
    status = cli.main(argv)
    return status, capsys.readouterr().err


def test_missing_scenario_is_an_error(capsys, tmp_path):
    status, err = _main(capsys, ["--scenario", str(tmp_path / "missing.yaml")])
    assert status == 1
    assert err == f"fate-royal: no such scenario file: {tmp_path / 'missing.yaml'}\n"


def test_missing_save_and_folder_as_file(capsys, tmp_path):
    status, err = _main(capsys, ["--load", str(tmp_path / "nope.json")])
    assert status == 1 and "no such saved game" in err
    status, err = _main(capsys, ["--scenario", str(tmp_path)])
    assert status == 1 and "not a file" in err


def test_load_and_scenario_together_are_refused(capsys, tmp_path):
    with pytest.raises(SystemExit) as info:
        cli.main(["--load", "a.json", "--scenario", "b.yaml"])
    assert info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


def test_screenshot_into_a_missing_folder_is_an_error(capsys, tmp_path):
    out = tmp_path / "no" / "such" / "shot.png"
    status, err = _main(capsys, ["--players", "2", "--screenshot", str(out)])
    assert status == 1 and "does not exist (it is not created)" in err
    assert not (tmp_path / "no").exists()


@pytest.mark.parametrize("name", ["shot.gif", "shot", "shot.png.txt"])
def test_screenshot_format_other_than_png_jpg_bmp_is_refused(capsys, tmp_path, name):
    status, err = _main(capsys, ["--screenshot", str(tmp_path / name)])
    assert status == 1 and "the file name must end in .png, .jpg, .jpeg, .bmp" in err
    assert list(tmp_path.iterdir()) == []


def test_bad_size_and_players(capsys):
    status, err = _main(capsys, ["--size", "12x12"])
    assert status == 1 and "--size 12x12 is out of range" in err
    status, err = _main(capsys, ["--players", "9"])
    assert status == 2 and "--players must be between 2 and 7" in err
    status, err = _main(capsys, ["--players", "2", "--seats", "human,clever"])
    assert status == 2 and "unknown seat kind 'clever'" in err
    status, err = _main(capsys, ["--players", "2", "--seats", "human,basic,strong"])
    assert status == 2 and "3 seats given for 2 players" in err


@pytest.fixture
def fresh_data_root():
    paths.data_root.cache_clear()
    yield
    paths.data_root.cache_clear()


def test_fate_royal_data_without_data_is_an_error(capsys, tmp_path, monkeypatch, fresh_data_root):
    (tmp_path / "cards").mkdir()
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path))
    status, err = _main(capsys, ["--players", "2"])
    assert status == 1
    assert err == (f"fate-royal: FATE_ROYAL_DATA={tmp_path} has no assets/; point it at a folder "
                   "holding cards/ and assets/, or unset it to use the shipped data\n")
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path / "missing"))
    paths.data_root.cache_clear()
    status, err = _main(capsys, ["--players", "2"])
    assert status == 1 and "is not a folder" in err
    paths.data_root.cache_clear()
    assert cli.main(["check"]) == 1  # the headless check says the same
    assert "FATE_ROYAL_DATA=" in capsys.readouterr().err


def test_fate_royal_data_with_data_is_used(tmp_path, monkeypatch, fresh_data_root):
    for name in ("cards", "assets"):
        (tmp_path / name).mkdir()
    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path))
    assert paths.data_root() == tmp_path and paths.cards_dir() == tmp_path / "cards"


def test_frozen_bundle_finds_its_data(tmp_path, monkeypatch, fresh_data_root):
    data = tmp_path / "fate_royal" / "_data"
    for name in ("cards", "assets"):
        (data / name).mkdir(parents=True)
    monkeypatch.delenv("FATE_ROYAL_DATA", raising=False)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.data_root() == data


@linux_only
def test_user_folders_follow_xdg(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    assert paths.user_data_dir() == tmp_path / "data" / "fate_royal"
    assert paths.user_log_dir() == tmp_path / "state" / "fate_royal" / "log"
    assert not (tmp_path / "data").exists()  # not created by asking


# --- packaging: GUI script, desktop entry ------------------------------------------------------------


def test_gui_script_entry_point_is_declared():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    assert project["gui-scripts"] == {"fate-royal-gui": "fate_royal.cli:gui_main"}
    assert project["scripts"] == {"fate-royal": "fate_royal.cli:main"}
    assert any(d.startswith("platformdirs") for d in project["dependencies"])


def test_gui_main_shows_problems_in_a_message_box(monkeypatch, capsys, tmp_path):
    shown = []
    monkeypatch.setattr("fate_royal.qt.app.error_dialog", shown.append)
    monkeypatch.setattr(sys, "argv", ["fate-royal-gui", "--scenario", str(tmp_path / "x.yaml")])
    assert cli.gui_main() == 1
    assert shown == [f"no such scenario file: {tmp_path / 'x.yaml'}"]
    assert "no such scenario file" in capsys.readouterr().err


def test_desktop_entry_install_and_uninstall(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert cli.main(["--install-desktop-entry"]) == 0
    entry = tmp_path / "share" / "applications" / "fate-royal.desktop"
    icon = tmp_path / "share" / "icons" / "hicolor" / "scalable" / "apps" / "fate-royal.svg"
    assert f"installed {entry}" in capsys.readouterr().out
    text = entry.read_text("utf-8")
    exec_line = next(line for line in text.splitlines() if line.startswith("Exec="))
    assert Path(desktop.launcher()[0]).is_absolute()
    assert exec_line.startswith("Exec=") and Path(desktop.launcher()[0]).name in exec_line
    assert icon.read_bytes() == (ROOT / "assets" / "svg" / "app.svg").read_bytes()
    validator = shutil.which("desktop-file-validate")
    if validator:
        proc = subprocess.run([validator, str(entry)], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0 and not proc.stdout.strip(), proc.stdout + proc.stderr
    assert cli.main(["--uninstall-desktop-entry"]) == 0
    assert not entry.exists() and not icon.exists()
    assert cli.main(["--uninstall-desktop-entry"]) == 0
    assert "no desktop entry was installed" in capsys.readouterr().out


def test_packaged_desktop_entry_matches_the_installed_one():
    assert (ROOT / "packaging" / "fate-royal.desktop").read_text("utf-8") == \
        desktop.desktop_entry(["fate-royal"])
    assert (ROOT / "packaging" / "fate-royal.svg").read_bytes() == \
        (ROOT / "assets" / "svg" / "app.svg").read_bytes()


@pytest.mark.parametrize("arg, quoted", [
    ("/usr/bin/fate-royal", "/usr/bin/fate-royal"),
    ("/home/a b/.venv/bin/fate-royal", '"/home/a b/.venv/bin/fate-royal"'),
    ('/x/$y"z', '"/x/\\$y\\"z"'),
])
def test_exec_quoting(arg, quoted):
    assert desktop.desktop_entry([arg]).count(f"\nExec={quoted}\n") == 1
