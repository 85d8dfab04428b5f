"""Settings survive a restart (issue 15): language, window geometry and docks, player names, each
player's stops, last folders, recent files and keyboard shortcuts, in a settings file of the test's
own (FATE_ROYAL_SETTINGS)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence

from fate_royal.qt import fonts, i18n, rulings
from fate_royal.qt.controller import GameController
from fate_royal.qt.settings import settings
from fate_royal.qt.window import MainWindow


@pytest.fixture
def ini(tmp_path, monkeypatch):
    path = tmp_path / "settings.ini"
    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(path))
    return path


def _window(qtbot):
    fonts.install_fonts()
    c = GameController()
    w = MainWindow(c)
    qtbot.addWidget(w)
    f = rulings.install(w, c)
    f.show_dialogs = False
    f.keeper.ask = lambda kind, text, choices: {"close": "quit"}.get(kind, "cancel")
    return w, c, f


def test_settings_survive_a_restart(qtbot, ini, tmp_path):
    i18n.set_language("ja")
    w, c, f = _window(qtbot)
    w.resize(711, 477)  # inside the offscreen screen (800×600): restoreGeometry fits windows to it
    w.show()
    w.set_language("en")
    w.act_animations.setChecked(False)  # View → Animations off
    assert c.new_game(["Aoi", "Ben", "千尋"], seed=4)
    assert not f.docks_built()  # hidden docks are built on first use, not at start-up
    settings().remember_names(["Aoi", "Ben", "千尋"])
    settings().remember_stops(["Aoi", "Ben", "千尋"], {"1": ["every_window"]})
    f.toggle_inspector()
    save = tmp_path / "games" / "g.json"
    save.parent.mkdir()
    assert f.save(save)
    from fate_royal.qt.shortcuts import ShortcutsDialog

    dlg = ShortcutsDialog(w)
    row = next(i for i, b in enumerate(dlg.bindings) if b.id == "act_new")
    dlg.edits[row].setKeySequence(QKeySequence("Ctrl+Shift+N"))
    assert dlg.problem() == ""
    dlg.accept()
    size = (w.width(), w.height())
    assert w.close()
    assert ini.is_file()
    # a new run in the same process reads the same file from scratch
    import fate_royal.qt.settings as module

    module._instance = None
    st = settings()
    assert st.language() == "en"
    assert st.animations() is False
    assert st.player_names() == ["Aoi", "Ben", "千尋"]
    assert st.stops_for(["Ben", "Aoi"]) == {0: ["every_window"]}
    assert st.last_folder("saves") == str(save.parent)
    assert st.recent_files() == [str(save.resolve())]
    w2, c2, f2 = _window(qtbot)
    assert not f2.docks_built()
    assert st.restore_window(w2)
    assert f2.docks_built()  # the remembered layout holds the inspector: built before restoring
    assert w2.height() == size[1] and w2.width() == min(size[0], 798)  # (the offscreen screen is 800 wide)
    assert w2.rulings.inspector_dock.isVisibleTo(w2)  # the dock layout came back too
    from fate_royal.qt.shortcuts import apply_saved

    assert apply_saved(w2) == 1
    assert w2.act_new.shortcut().toString() == "Ctrl+Shift+N"
    from fate_royal.qt.dialogs import default_names

    assert default_names(4)[:3] == ["Aoi", "Ben", "千尋"] and len(default_names(4)) == 4
    f2.menu_recent.aboutToShow.emit()
    assert any("g.json" in a.text() for a in f2.menu_recent.actions())
    i18n.set_language("ja")


def test_a_key_given_twice_is_refused(qtbot, ini):
    i18n.set_language("ja")
    w, c, f = _window(qtbot)
    from fate_royal.qt.shortcuts import ShortcutsDialog

    dlg = ShortcutsDialog(w)
    ids = [b.id for b in dlg.bindings]
    assert "table.primary" in ids and "act_undo" in ids and "rulings.act_save" in ids
    dlg.edits[ids.index("act_undo")].setKeySequence(QKeySequence("Ctrl+S"))
    assert "Ctrl+S" in dlg.problem() or "Ctrl+S" in dlg.problem().replace("⌘", "Ctrl+")
    dlg.accept()
    assert dlg.error.text() and not settings().shortcuts()


def test_damaged_settings_are_ignored(qtbot, ini):
    ini.write_bytes(b"[ui]\nlanguage=klingon\n[players]\nnames=@Variant(\\0\\0\\0\\x7f garbage\n"
                    b"[window]\ngeometry=@ByteArray(nonsense)\n\xff\xfe\n")
    st = settings()
    assert st.language() is None
    assert st.player_names() == [] or all(isinstance(n, str) for n in st.player_names())
    w, c, f = _window(qtbot)
    st.restore_window(w)  # no crash
    from fate_royal.qt.dialogs import default_names

    assert len(default_names(3)) == 3


def test_a_fixed_table_key_is_refused_too(qtbot, ini):
    """1–9 pick an action and Escape closes or steps back: a shortcut on them would never fire."""
    i18n.set_language("ja")
    w, c, f = _window(qtbot)
    from fate_royal.qt.shortcuts import ShortcutsDialog

    dlg = ShortcutsDialog(w)
    ids = [b.id for b in dlg.bindings]
    undo = dlg.edits[ids.index("act_undo")]
    for key, words in (("3", "番号でアクションを選ぶ"), ("Escape", "閉じる・戻る")):
        undo.setKeySequence(QKeySequence(key))
        assert words in dlg.problem()
        dlg.accept()
        assert dlg.error.text() and not settings().shortcuts()
    undo.setKeySequence(QKeySequence("Ctrl+Alt+U"))
    assert dlg.problem() == ""
    # Return and Enter confirm and pass beside Space: they are taken too
    undo.setKeySequence(QKeySequence("Return"))
    assert "パス" in dlg.problem()
    primary = dlg.edits[ids.index("table.primary")]
    primary.setKeySequence(QKeySequence("Return"))  # the pass key's own extra: allowed
    undo.setKeySequence(QKeySequence("Ctrl+Alt+U"))
    assert dlg.problem() == ""


def test_the_keys_are_listed_as_the_table_and_the_menus_show_them(qtbot, ini):
    """The table's own keys first (pass, the attacks), then the menus left to right, top down."""
    i18n.set_language("ja")
    w, c, f = _window(qtbot)
    from fate_royal.qt.shortcuts import ShortcutsDialog

    ids = [b.id for b in ShortcutsDialog(w).bindings]
    assert ids[:4] == ["table.primary", "table.physical", "table.magic", "table.private"]
    menus = [ids.index(i) for i in ("rulings.act_open_save", "act_new", "act_undo", "act_quit", "act_full",
                                    "rulings.act_inspector", "seats.act_pause", "rulings.act_forward")]
    assert menus == sorted(menus)  # File → Game (new, undo, quit) → View → Seats → Demo


def test_a_layout_saved_during_a_demo_shows_no_empty_demo_panel_in_the_next_game(qtbot, ini):
    """Quit while a demo is open, start again for a game: the remembered layout comes back (the
    inspector here) but the demo panel, with no demo to show, stays hidden until one opens."""
    from pathlib import Path

    import fate_royal.qt.settings as module

    demo = Path(__file__).resolve().parents[2] / "scenarios" / "demos" / "E8-demo-deck-rebuild.yaml"
    i18n.set_language("ja")
    w, c, f = _window(qtbot)
    w.resize(711, 477)
    w.show()
    assert f.open_scenario(demo) is None
    f.toggle_inspector()
    assert f.demo_dock.isVisibleTo(w) and f.inspector_dock.isVisibleTo(w)
    assert w.close()
    module._instance = None
    w2, c2, f2 = _window(qtbot)
    w2.show()
    assert settings().restore_window(w2)
    assert c2.new_game(["A", "B"], seed=1)
    assert f2.inspector_dock.isVisibleTo(w2)
    assert not f2.demo_dock.isVisibleTo(w2)
    # a demo opened now shows its panel again
    assert f2.open_scenario(demo) is None
    assert f2.demo_dock.isVisibleTo(w2)
