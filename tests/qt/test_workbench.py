"""The house-rules workbench (issue 12) driven through its widgets: the rules editor and the new-game
dialog, a game under a set made in the editor, the comparison of any two sets, the ruling sweep, and
a demo that nothing on the table can corrupt."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import (
    QAbstractButton, QApplication, QCheckBox, QComboBox, QLineEdit, QMenu, QMenuBar, QSpinBox,
    QWidget,
)

from fate_royal.qt import fonts, i18n, rulings, texts
from fate_royal.qt.controller import GameController
from tablepos import settle
from fate_royal.qt.dialogs import NewGameDialog
from fate_royal.qt.window import MainWindow
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "scenarios" / "rulings"
DEMOS = ROOT / "scenarios" / "demos"


@pytest.fixture(autouse=True)
def _user_folders(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    folder = tmp_path / "xdg" / "fate_royal" / "rulesets"
    monkeypatch.setattr("fate_royal.cards.rulesets.user_rulesets_dir", lambda: folder)
    return folder


@pytest.fixture
def table(qtbot):
    fonts.install_fonts()
    i18n.set_language("ja")
    made = []

    def make(new_game=True):
        controller = GameController()
        win = MainWindow(controller)
        qtbot.addWidget(win)
        win.resize(1400, 860)
        features = rulings.install(win, controller)
        features.show_dialogs = False
        if new_game:
            assert controller.new_game(["A", "B"], seed=7, errata=True)
        win.show()
        win.activateWindow()
        qtbot.waitUntil(win.isActiveWindow, timeout=2000)
        made.append((win, features))
        return win, controller, features

    yield make
    for win, f in made:
        for w in (f.presenter, f.comparison, f.workbench.sweep_window, f.workbench.editor):
            if w is not None:
                w.close()
    i18n.set_language("ja")


def verdicts(path: Path, rules) -> bool:
    run = ScenarioRun(load_scenario(path), rules=rules)
    ok = True
    while not run.done:
        ok = run.forward().ok and ok
    return ok


# --------------------------------------------------------------------------- editor → game


def test_a_set_made_in_the_editor_with_E8_and_E9_3_off_rules_the_new_game(table, qtbot, tmp_path,
                                                                          _user_folders):
    win, controller, features = table()
    dlg = NewGameDialog(win, players=2, seed=11)
    qtbot.addWidget(dlg)
    assert dlg.chosen_rules().name == "house"
    ed = dlg.open_rules_editor()
    qtbot.waitExposed(ed)
    # find the rows through the search box, as a user would
    qtbot.keyClicks(ed.search, "E9.3")
    assert "E9.3" in ed.visible_keys() and "E8" not in ed.visible_keys()
    ed.switch_box("E9.3").click()
    ed.search.clear()
    ed.search.setText("山札")  # QTest types ASCII only
    assert "E8" in ed.visible_keys()
    ed.switch_box("E8").click()
    ed.search.clear()
    ed.only_diff.click()
    assert set(ed.visible_keys()) == {"E8", "E9.3"}
    assert ed.table.item(ed.rows["E8"][0], 3).text().startswith("≠")
    ed.name_edit.setText("山札なし暗殺ダメージ")
    qtbot.mouseClick(ed.save_button, Qt.MouseButton.LeftButton)
    saved = _user_folders / "山札なし暗殺ダメージ.yaml"
    assert saved.is_file() and "without: [E8, E9.3]" in saved.read_text(encoding="utf-8")
    st = dlg.settings()
    assert st.rules.name == "山札なし暗殺ダメージ" and st.rules.off == {"E8", "E9.3"}
    assert st.errata is False and st.seats is None
    assert controller.new_game(st.names, st.seed, st.errata, st.assignment, rules=st.rules,
                               seats=st.seats)
    g = controller.game
    assert not g.rules.on("E8") and not g.rules.on("E9.3") and g.rules.on("E1.3")
    # the window title and the status bar name the set in force
    assert "山札なし暗殺ダメージ" in win.windowTitle()
    assert "山札なし暗殺ダメージ" in features.workbench.status_label.text()
    # the engine follows it, with no rebuild: no deck rebuild, and 暗殺 deals damage
    for name, ok in (("E8-errata-off-no-rebuild", True), ("E9.3-errata-off-assassination-damage", True),
                     ("E8-deck-rebuilt", False), ("E9.3-assassination-coins", False)):
        assert verdicts(RULINGS / f"{name}.yaml", g.rules) is ok, name
    # the live game's card data is the set's: 暗殺 is the printed card, not the E9.3 patch
    house_db = controller.card_db(g.rules.with_(off=set()))
    assert g.db.cards["C-003"] != house_db.cards["C-003"]
    # a save records the set by content and name
    assert features.save(tmp_path / "game.json")
    text = (tmp_path / "game.json").read_text(encoding="utf-8")
    assert "山札なし暗殺ダメージ" in text and "E9.3" in text


def test_the_editor_refuses_a_value_out_of_bounds_as_the_file_would(qtbot):
    from fate_royal.qt.rules_editor import RulesEditor

    i18n.set_language("ja")
    ed = RulesEditor()
    qtbot.addWidget(ed)
    field = ed.field("encounter_on")
    field.setText("1, 7")
    assert "encounter_on" in ed.problems() and not ed.save_button.isEnabled()
    assert "7" in ed.error.text()
    assert ed.error.text() == "encounter_on (D5)：値 7は上限 6を超えています"  # once, in Japanese
    field.setText("1, 2")
    assert not ed.problems() and ed.save_button.isEnabled()
    assert ed.ruleset().profile.encounter_on == [1, 2]
    spin = ed.field("hand_limit")
    assert (spin.minimum(), spin.maximum()) == (0, 99)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_errata_switch_is_one_language_with_the_japanese_original_on_hover_in_english(qtbot, lang):
    """A row showed the Japanese sentence and, below it, its English gloss in the English table;
    now a row is in the table's language, and the errata's own Japanese words (which win where a
    translation differs) are its tooltip in English, and searchable."""
    from fate_royal.qt.rules_editor import RulesEditor
    from test_languages import other_language

    i18n.set_language(lang)
    ed = RulesEditor()
    qtbot.addWidget(ed)
    # card names and the printed keywords the English rules quote in Japanese (起動, 常時, …)
    names = ["雨生龍之介", "メディア", "アサシン", "佐々木小次郎", "天のドレス", "竜牙兵", "暗殺", "山門の守護",
             "V-MAX", "儀式ステップ", "常時", "起動", "交戦", "代理戦闘", "支援"]
    bad = []
    switches = [(key, row) for key, (row, kind, _w) in ed.rows.items() if kind == "switch"]
    assert len(switches) >= 30
    for key, row in switches:
        item = ed.table.item(row, 2)
        bad += [(key, f) for f in other_language(item.text(), lang, names)]
        if lang == "en":
            original = item.toolTip().split(": ", 1)[-1]
            assert original and other_language(original, "ja", names) == [], key
        else:
            assert item.toolTip() == "", key
    assert not bad
    a, b = (ed.table.item(ed.rows[k][0], 2).text() for k in ("E9.6-a", "E9.6-b"))
    assert a != b and "M-006" in a and "M-021" in b
    ed.apply_filter("山札")  # the Japanese words stay searchable in either language
    assert "E8" in ed.visible_keys()
    i18n.set_language("ja")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_editor_words_every_parameter_and_reading_in_the_table_language(qtbot, lang):
    """The D parameters and reading switches: their sentences and the names of their choices in
    the table's language (the value written to the file stays in the tooltip); the two card patches
    of one errata sentence (E9.6-a/b) say which card each is."""
    from PySide6.QtWidgets import QComboBox

    from fate_royal.qt.rules_editor import RulesEditor
    from test_languages import other_language

    i18n.set_language(lang)
    ed = RulesEditor()
    qtbot.addWidget(ed)
    bad = []
    for key, (row, kind, w) in ed.rows.items():
        if kind == "switch":
            continue
        texts_ = [ed.table.item(row, 2).text()]
        if isinstance(w, QComboBox):
            texts_ += [w.itemText(i) for i in range(w.count())]
            assert [w.itemData(i, Qt.ItemDataRole.ToolTipRole) for i in range(w.count())] == \
                [str(w.itemData(i)) for i in range(w.count())]
        bad += [(key, t, other_language(t, lang)) for t in texts_ if other_language(t, lang)]
    assert not bad
    a, b = (ed.table.item(ed.rows[k][0], 2).text() for k in ("E9.6-a", "E9.6-b"))
    assert a != b and "M-006" in a and "M-021" in b
    i18n.set_language("ja")


def test_the_rules_editor_asks_before_dropping_unsaved_changes(qtbot, tmp_path):
    from fate_royal.qt.rules_editor import RulesEditor

    i18n.set_language("ja")
    ed = RulesEditor(folder=tmp_path)
    qtbot.addWidget(ed)
    ed.show()
    asked, answer = [], ["cancel"]
    ed.ask_unsaved = lambda e: asked.append(1) or answer[0]
    ed.close()  # nothing changed: closes unasked
    assert asked == [] and not ed.isVisible()
    ed.show()
    ed.switch_box("E1.3").setChecked(False)
    assert ed.has_unsaved_changes()
    ed.close()
    assert asked == [1] and ed.isVisible()  # cancelled: still editing
    answer[0] = "save"  # no name yet: the save fails, so the editor stays open
    ed.close()
    assert asked == [1, 1] and ed.isVisible() and ed.error.text()
    ed.name_edit.setText("リバース緩和")
    ed.close()
    assert not ed.isVisible() and ed.last_saved is not None and ed.last_saved.exists()
    ed.show()
    ed.switch_box("E1.3").setChecked(True)
    answer[0] = "discard"
    ed.close()
    assert len(asked) == 4 and not ed.isVisible()


def test_starting_from_another_set_asks_before_replacing_edits(qtbot):
    """Choosing another set to start from replaces every switch: with unsaved edits it asks first
    (Cancel keeps them), without edits it just loads the set."""
    from fate_royal.qt.rules_editor import RulesEditor

    i18n.set_language("ja")
    ed = RulesEditor()
    qtbot.addWidget(ed)
    asked, answer = [], ["cancel"]
    ed.ask_unsaved = lambda e: asked.append(1) or answer[0]
    base = next(i for i in range(ed.start_from.count())
                if ed.start_from.itemData(i) is not None and ed.start_from.itemData(i).name == "base")
    ed.switch_box("E1.3").setChecked(False)
    ed.start_from.setCurrentIndex(base)
    ed.start_from.activated.emit(base)
    assert asked == [1] and ed.switch_box("E8").isChecked()  # kept: still the house set but E1.3
    assert not ed.switch_box("E1.3").isChecked() and ed.start_from.currentIndex() == 0
    answer[0] = "discard"
    ed.start_from.activated.emit(base)
    assert asked == [1, 1] and not ed.switch_box("E8").isChecked() and not ed.has_unsaved_changes()
    ed.start_from.activated.emit(base)  # nothing unsaved: loads unasked
    assert asked == [1, 1]


def test_new_game_dialog_passes_the_seat_kinds(qtbot):
    dlg = NewGameDialog(players=3, seed=5)
    qtbot.addWidget(dlg)
    dlg.seat_kinds[1].setCurrentIndex(dlg.seat_kinds[1].findData("strong"))
    dlg.seat_kinds[2].setCurrentIndex(dlg.seat_kinds[2].findData("random"))
    assert dlg.settings().seats == {0: "human", 1: "strong", 2: "random"}
    dlg.rules.setCurrentIndex(dlg.rules.findText(texts.rules_title(dlg.rules.itemData(1))))
    assert dlg.settings().rules.name == "base" and dlg.settings().errata is False


# --------------------------------------------------------------------------- comparing sets


def test_the_comparison_window_takes_any_two_sets(table, _user_folders):
    from fate_royal.cards.rulesets import save_user_ruleset, shipped_ruleset

    house = shipped_ruleset("house")
    save_user_ruleset(house.with_(off={"E8"}), "no-rebuild")
    win, controller, features = table(new_game=False)
    assert features.open_scenario(RULINGS / "E8-deck-rebuilt.yaml") is None
    comp = features.open_comparison()
    second = comp.second_set
    second.setCurrentIndex(second.findText("no-rebuild"))
    result = comp.recompute()
    assert result.off.ruleset.name == "no-rebuild" and result.on.ruleset.name == "house"
    assert result.difference("piles.deck_size") is not None
    assert "E8" in result.rules_only_on
    assert comp.sides[False][0].text() == "no-rebuild"
    # or a scenario file picked in the window itself
    other = comp.set_scenario(RULINGS / "E9.3-assassination-coins.yaml")
    assert other.title == load_scenario(RULINGS / "E9.3-assassination-coins.yaml").title
    assert other.off.ruleset.name == "no-rebuild" and other.same  # E8 off changes nothing here
    base = next(i for i in range(comp.first_set.count()) if comp.first_set.itemData(i).name == "base")
    comp.first_set.setCurrentIndex(base)
    diff = comp.recompute()
    assert not diff.same and "E9.3" in diff.rules_only_off


def test_ruling_sweep_house_against_base_lists_the_rulings_whose_expectations_differ(table):
    from fate_royal.cards.rulesets import shipped_ruleset

    win, controller, features = table()
    sweep = features.workbench.open_sweep()
    house, base = shipped_ruleset("house"), shipped_ruleset("base")
    entries = sweep.run(house, base)
    files = sorted(RULINGS.glob("*.yaml"))
    # independently: a ruling is listed when its declared expectations hold under one set only
    expected = {p.name for p in files if verdicts(p, house) != verdicts(p, base)}
    assert set(sweep.changed_files()) == expected
    # each errata-on / errata-off pair of a rule is listed on both sides
    def switches_errata_off(path) -> bool:
        """errata: false; or a rule set that drops the file's own rule; or a ruling named after a
        base or default rule (B…, D…) under a rule set that drops an errata rule (B3 with E1.5
        dropped: the base rule decides, as with the errata off)."""
        text = path.read_text(encoding="utf-8")
        rule = path.name.split("-", 1)[0]  # the rule the ruling is named after
        sets = [line for line in text.splitlines() if line.startswith("rules:")]
        return "\nerrata: false" in "\n" + text or any(f", -{rule}]" in line for line in sets) or (
            rule[:1] in ("B", "D") and any(", -E" in line for line in sets))

    off_files = {p.name for p in files if switches_errata_off(p)}
    assert {"E8-errata-off-no-rebuild.yaml", "E8-deck-rebuilt.yaml",
            "E9.3-errata-off-assassination-damage.yaml", "E9.3-assassination-coins.yaml",
            "E1.3-errata-off-reverse-goes-down.yaml", "E1.3-reverse-never-down.yaml"} <= expected
    for e in entries:
        assert e.first.ok != e.second.ok
        # errata-off rulings pass under base and fail under house; the others the other way round
        assert e.second.ok is (e.path.name in off_files or e.path.name.startswith("R3-own"))
        # each has its first differing log line, or (same log) the failed check
        assert e.index is not None or e.first.failures or e.second.failures
    assert sweep.table.rowCount() == len(entries)
    assert str(len(entries)) in sweep.summary.text()
    # a failed check names its file and line without the folder (the file is in the first column)
    lines = [sweep.table.item(r, 2).text() for r in range(sweep.table.rowCount())]
    assert any(".yaml:" in x for x in lines) and not any(str(RULINGS) in x for x in lines)
    # ... and says it in Japanese, as the whole table does (the checker itself writes English)
    import re

    english = [x for x in lines if re.search(r"[A-Za-z]{4,}", re.sub(r"\S+\.yaml:\d+", "", x))]
    assert not english, english[:3]
    assert any("E1.5によって拒否（デンジャー状態のサーヴァントは襲撃を宣言できません）、B3ではない" in x
               for x in lines)
    # two log lines that read the same differ in the rules they cite: the cell shows those
    same = [x for x in lines if len(x.split("\n")) == 2 and x.split("\n")[0].split("A: ", 1)[-1]
            == x.split("\n")[1].split("B: ", 1)[-1]]
    assert not same, same[:3]
    assert any("AがV-MAXを使用  [B5 E2.2 E9.6]" in x for x in lines)


def test_the_sweep_button_plays_a_ruling_at_a_time_and_can_be_stopped(qtbot):
    """The button does not hold the window for the whole sweep: the rulings are played one per
    turn of the event loop with a progress bar, the button stops it, and a finished sweep lists
    what ``run`` lists."""
    from PySide6.QtWidgets import QApplication

    from fate_royal.cards.rulesets import shipped_ruleset
    from fate_royal.qt.compare_view import SweepWindow

    i18n.set_language("ja")
    files = sorted(RULINGS.glob("E8-*.yaml")) + sorted(RULINGS.glob("E9.3-*.yaml"))
    assert len(files) >= 4
    sweep = SweepWindow(None, files=files)
    qtbot.addWidget(sweep)
    sweep.show()
    house, base = shipped_ruleset("house"), shipped_ruleset("base")
    expected = [e.path for e in sweep.run(house, base)]
    assert expected and sweep.table.rowCount() == len(expected)

    qtbot.mouseClick(sweep.run_button, Qt.MouseButton.LeftButton)
    assert sweep.running() and sweep.table.rowCount() == 0
    assert sweep.run_button.text() == "中止" and not sweep.first_set.isEnabled()
    QApplication.processEvents()  # one turn: one ruling, not all of them
    assert sweep.running() and 1 <= sweep.progress.value() < len(files)
    assert f"／{len(files)}件" in sweep.summary.text()
    # the table shows what the rulings played so far found, as the sweep goes
    played = files[:sweep.progress.value()]
    assert sweep.table.rowCount() == len([p for p in expected if p in played])
    qtbot.mouseClick(sweep.run_button, Qt.MouseButton.LeftButton)  # stop
    assert not sweep.running() and sweep.progress.isHidden() and sweep.first_set.isEnabled()
    assert "中止しました" in sweep.summary.text()
    assert sweep.table.rowCount() == len([p for p in expected if p in played])  # found so far, kept
    done = sweep.progress.value()
    QApplication.processEvents()
    assert sweep.progress.value() == done  # nothing runs after the stop

    qtbot.mouseClick(sweep.run_button, Qt.MouseButton.LeftButton)  # again, to the end
    qtbot.waitUntil(lambda: not sweep.running(), timeout=60000)
    assert [e.path for e in sweep.entries] == expected
    assert sweep.table.rowCount() == len(expected) and sweep.run_button.text() == "一括比較を実行"
    assert str(len(expected)) in sweep.summary.text() and sweep.progress.isHidden()


def test_the_sweep_names_each_ruling_in_the_table_language(qtbot):
    from fate_royal.cards.rulesets import shipped_ruleset
    from fate_royal.qt.compare_view import SweepWindow
    from fate_royal.rules.scenario import load_scenario

    files = sorted(RULINGS.glob("E8-*.yaml"))
    for lang in ("en", "ja"):
        i18n.set_language(lang)
        sweep = SweepWindow(None, files=files)
        qtbot.addWidget(sweep)
        entries = sweep.run(shipped_ruleset("house"), shipped_ruleset("base"))
        assert entries
        for r, e in enumerate(entries):
            sc = load_scenario(e.path)
            want = sc.title_en if lang == "en" else sc.title
            assert sweep.table.item(r, 0).toolTip() == f"{e.path}\n{want}"
            assert sweep.table.item(r, 0).text() == f"E8  {want}"  # the rule id and the title
    i18n.set_language("ja")


def _words_shown(root: QWidget) -> list[str]:
    """Every word a window shows: its title, labels, buttons, placeholders, list and table items."""
    from PySide6.QtWidgets import QLabel, QListWidget, QTableWidget

    out = [root.windowTitle()]
    for w in [root, *root.findChildren(QWidget)]:
        if not w.isVisible():
            continue
        if isinstance(w, (QLabel, QAbstractButton)):
            out.append(w.text())
        if isinstance(w, QLineEdit):
            out.append(w.placeholderText())
        if isinstance(w, QComboBox):
            out += [w.itemText(i) for i in range(w.count())]
        if isinstance(w, QListWidget):
            out += [w.item(i).text() for i in range(w.count())]
        if isinstance(w, QTableWidget):
            out += [w.horizontalHeaderItem(c).text() for c in range(w.columnCount())]
            out += [w.item(r, c).text() for r in range(w.rowCount()) for c in range(w.columnCount())
                    if w.item(r, c) is not None and not w.isRowHidden(r)]
    return [t for t in out if t]


def test_every_window_of_its_own_follows_a_change_of_language(table, qtbot, tmp_path, monkeypatch,
                                                              request):
    """View → Language with the workbench's windows open (rules editor with an edit not saved,
    patch editor, sweep with results, comparison, presenter, legend): each one speaks English at
    once, keeps what was typed and chosen, and speaks Japanese again on the way back."""
    import re

    from fate_royal.qt.app import install_qt_translations

    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))  # (the language is kept)
    request.addfinalizer(lambda: install_qt_translations("en"))  # Qt's own words as other tests expect
    win, c, f = table()
    win.lang_actions["ja"].trigger()  # as the table starts: Qt's own words (Close) in Japanese too
    from fate_royal.cards.rulesets import shipped_ruleset

    c.confirm_handoff()
    f.keeper.ask = lambda kind, text, choices: "reveal"  # the table agrees to show every hand
    editor = f.workbench.open_editor()
    spin = next(w for k, (_r, kind, w) in editor.rows.items() if isinstance(w, QSpinBox))
    spin.setValue(spin.value() + 1 if spin.value() < spin.maximum() else spin.value() - 1)
    edited = spin.value()
    assert editor.has_unsaved_changes()
    patch = f.workbench.open_patch_editor()
    patch.rule_edit.setText("E9.6")
    sweep = f.workbench.open_sweep()
    sweep.files = sorted(RULINGS.glob("E8-*.yaml"))
    assert sweep.run(shipped_ruleset("house"), shipped_ruleset("base"))
    windows = {"editor": editor, "patch": patch, "sweep": sweep, "comparison": f.open_comparison(),
               "presenter": f.open_presenter(full_screen=False), "legend": win.show_legend()}
    assert all(w is not None and w.isVisible() for w in windows.values()), windows
    before = {name: _words_shown(w) for name, w in windows.items()}
    win.lang_actions["en"].trigger()
    QApplication.processEvents()
    for name, w in windows.items():
        assert _words_shown(w) != before[name], name
        assert not japanese.search(w.windowTitle()), (name, w.windowTitle())
    # the editors and the legend say exactly what they say when opened in English
    from fate_royal.qt.legend import LegendDialog
    from fate_royal.qt.patch_editor import PatchEditor
    from fate_royal.qt.rules_editor import RulesEditor

    fresh_editor = RulesEditor(None)
    qtbot.addWidget(fresh_editor)
    fresh_spin = fresh_editor.rows[next(k for k, (_r, _kind, w) in editor.rows.items() if w is spin)][2]
    fresh_spin.setValue(edited)
    fresh = {"editor": fresh_editor, "patch": PatchEditor(None, c, f), "legend": LegendDialog(None)}
    for name, w in fresh.items():
        qtbot.addWidget(w)
        w.show()
        assert _words_shown(windows[name]) == _words_shown(w), name
    assert not japanese.search(windows["legend"].text())
    assert spin.value() == edited and editor.has_unsaved_changes()  # what was typed stays
    assert patch.rule_edit.text() == "E9.6"
    assert sweep.entries and sweep.table.rowCount() == len(sweep.entries)
    win.lang_actions["ja"].trigger()
    QApplication.processEvents()
    assert {name: _words_shown(w) for name, w in windows.items()} == before


# --------------------------------------------------------------------------- demos


def _keys() -> list[Qt.Key]:
    keys = [Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab,
            Qt.Key.Key_Backspace, Qt.Key.Key_Delete, Qt.Key.Key_Insert, Qt.Key.Key_Home,
            Qt.Key.Key_End, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Left, Qt.Key.Key_Right,
            Qt.Key.Key_Up, Qt.Key.Key_Down]
    keys += [Qt.Key(Qt.Key.Key_0.value + i) for i in range(10)]
    keys += [Qt.Key(Qt.Key.Key_A.value + i) for i in range(26)]
    keys += [Qt.Key(Qt.Key.Key_F1.value + i) for i in range(12) if i != 4]  # F5: the presenter
    return keys


def _clickable(root: QWidget, skip: set) -> list[QWidget]:
    out = []
    for w in [root] + root.findChildren(QWidget):
        if not w.isVisible() or w in skip or isinstance(w, (QMenu, QMenuBar)):
            continue
        if any(w.isAncestorOf(s) is False and s.isAncestorOf(w) for s in skip):
            continue
        out.append(w)
    return out


def _close_popups() -> None:
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QMenu) and w.isVisible():
            w.close()


def test_a_demo_survives_every_key_and_every_click_and_its_next_step_still_checks(table, qtbot):
    win, controller, features = table(new_game=False)
    assert features.open_scenario(DEMOS / "E9.3-demo-assassin-kojirou.yaml") is None
    demo = features.demo
    demo.forward()
    assert controller.read_only
    s = demo.session
    # Space steps the demo (as in the presenter), the number keys act on nothing
    before = s.index
    qtbot.keyClick(win, Qt.Key.Key_Space)
    assert s.index == before + 1
    history = len(s.game.history)
    qtbot.keyClick(win, Qt.Key.Key_1)
    assert len(s.game.history) == history and s.index == before + 1
    # every key, on every widget that can take it
    panel = features.demo_panel
    skip = {panel.continue_button}
    targets = [win, win.table, win.hand, panel, panel.steps]
    for target in targets:
        for key in _keys():
            qtbot.keyClick(target, key)
            _close_popups()
    # every click on every visible widget of the window (the menus themselves excepted)
    for w in _clickable(win, skip):
        if isinstance(w, (QLineEdit, QSpinBox, QComboBox)):
            continue
        for pos in (w.rect().center(), QPoint(2, 2)):
            qtbot.mouseClick(w, Qt.MouseButton.LeftButton, pos=pos)
            _close_popups()
    assert len(_keys()) == 63 and len(_clickable(win, skip)) >= 30
    assert demo.active and controller.read_only and demo.session is s
    # the game is exactly the script's: step on to the end, every check still holds
    while not s.done:
        info = demo.forward()
        assert info.ok, info.message
    assert all(i.ok for i in s.infos)
    checks = [i for i in s.infos if i.is_check]
    assert checks and all(i.ok for i in checks)


def test_the_step_list_jumps_and_marks_turns(table, qtbot):
    win, controller, features = table(new_game=False)
    assert features.open_scenario(DEMOS / "E8-demo-deck-rebuild.yaml") is None
    panel = features.demo_panel
    s = features.demo.session
    item = panel.steps.item(2)
    rect = panel.steps.visualItemRect(item)
    qtbot.mouseClick(panel.steps.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert s.index == 3
    features.demo.jump(s.total)
    texts_ = panel.item_texts()
    assert all(t.split(" ", 1)[0] in ("✓", "✗", "•") for t in texts_)
    assert not any("[" in t for t in texts_)
    features.demo.jump(1)
    assert s.index == 1 and len(s.infos) == 1
    # a scenario that runs into the next turn marks the step where it begins
    assert features.open_scenario(RULINGS / "E8-dropped-out-cards-stay-in-discard.yaml") is None
    features.demo.jump(features.demo.session.total)
    marked = [t for t in panel.item_texts() if "⟳" in t]
    assert len(marked) == 1 and "ターン2" in marked[0]


def test_continue_playing_from_here_branches_into_a_live_game(table, qtbot):
    win, controller, features = table(new_game=False)
    assert features.open_scenario(DEMOS / "E9.3-demo-assassin-kojirou.yaml") is None
    features.demo.forward()
    game = features.demo.session.game
    history = len(game.history)
    assert not controller.legal_actions()
    qtbot.mouseClick(features.demo_panel.continue_button, Qt.MouseButton.LeftButton)
    assert not features.demo.active and not controller.read_only
    assert controller.game is game and len(game.history) == history
    assert "分岐" in features.last_message[1]
    settle(controller, 20)
    acts = controller.legal_actions()
    assert acts and controller.submit(acts[0])
    assert len(game.history) > history


# --------------------------------------------------------------------------- the presenter


def _presenter_boxes(p) -> dict:
    return {n: w.geometry() for n, w in (("title", p.title), ("progress", p.progress),
                                          ("table", p.table), ("roster", p.roster),
                                          ("narration", p.narration), ("result", p.result),
                                          ("log", p.log), ("hands", p.hands), ("keys", p.keys))
            if w.isVisible()}


def _assert_no_overlap(rects: dict, inside) -> None:
    names = list(rects)
    for i, a in enumerate(names):
        assert inside.contains(rects[a]), (a, rects[a], inside)
        for b in names[i + 1:]:
            assert not rects[a].intersects(rects[b]), (a, rects[a], b, rects[b])


@pytest.mark.parametrize("demo, players", [("E6.ex1-demo-gilles-rider-dragon.yaml", None),
                                           (None, 7)])
def test_presenter_has_no_overlap_at_three_sizes_and_names_read_from_the_back(
        table, qtbot, tmp_path, demo, players):
    from PySide6.QtCore import QRectF

    win, controller, features = table(new_game=False)
    if demo:
        assert features.open_scenario(DEMOS / demo) is None
        for _ in range(3):
            features.demo.forward()
    else:
        assert controller.new_game([f"P{i}" for i in range(players)], seed=3)
        controller.confirm_handoff()  # behind the hand-off screen F5 opens nothing
        win.refresh()
    p = features.open_presenter(full_screen=False)
    if players:  # a live game: nothing secret on the projector until the table agrees
        assert not p.hands.records() and "？" in p.roster.text()
        assert p.agree.isVisible()
        p.agree.click()
        assert p.hands.records() and "？" not in p.roster.text()
        # no steps to take in a live game: the keys line offers only closing (it offered → / ←)
        assert p.keys.text() == i18n.tr("rulings.presenter.keys_live") and "→" not in p.keys.text()
    else:
        assert not p.agree.isVisible()
        assert p.keys.text() == i18n.tr("rulings.presenter.keys") and "→" in p.keys.text()
    for w, h in ((1280, 720), (1920, 1080), (3840, 2160)):
        p.resize(w, h)
        qtbot.waitUntil(lambda: p.size().width() == w and p.size().height() == h, timeout=2000)
        QApplication.processEvents()
        boxes = _presenter_boxes(p)
        _assert_no_overlap(boxes, p.rect())
        # every wrapped text fits its box at the size it is drawn
        for label in (p.title, p.roster, p.narration):
            assert label.heightForWidth(label.width()) <= label.height(), (w, label.objectName())
        # in the hands strip: cards, their names and the players' labels never overlap
        hands = p.hands
        hands.layout_hands()
        parts = {f"card{k}": d.rect for k, d in enumerate(hands.records())}
        parts.update({f"name{k}": r for k, (r, _t) in enumerate(hands.caption_rects)})
        parts.update({f"label{k}": r for k, r in enumerate(hands.label_rects)})
        _assert_no_overlap(parts, QRectF(hands.rect()).adjusted(-0.5, -0.5, 0.5, 0.5))
        if players:  # every hand card is shown, or counted in its row's "+N"
            more = sum(int(t[1:]) for _r, t in hands.caption_rects if t.startswith("+"))
            total = sum(len(pl.hand) for pl in controller.game.state.players)
            assert total >= 35 and len(hands.records()) + more == total
        if h == 1080:
            assert hands.caption_px >= 24 and p.roster.font().pixelSize() >= 24
            assert p.narration.font().pixelSize() >= 24
        assert p.grab().save(str(tmp_path / f"presenter-{w}x{h}.png"))


# --------------------------------------------------------------------------- card patches


def test_a_card_patch_from_the_form_is_checked_like_the_file_and_applied_keeping_the_game(
        table, qtbot):
    from fate_royal.cards.patches import user_pack_path
    from fate_royal.cards.rulesets import known_switches

    win, controller, features = table()
    for _ in range(3):  # a few actions into the game
        if controller.handoff_needed():
            controller.confirm_handoff()
        acts = [a for a in controller.legal_actions() if a.kind == "pass"]
        if acts:
            controller.submit(acts[0])
    history = [a for a in controller.game.record.actions]
    ed = features.workbench.open_patch_editor()
    ed.card.setCurrentIndex(ed.card.findData("M-006"))
    ed.path.setEditText("effects.1.cost")
    assert ed.expect.text() == "{raw: T, tap: true}"
    # a value out of bounds, a missing rule: field errors, as the file would get them
    ed.new_value.setPlainText("{raw: '1', mana: -5}")
    ed.source.setText("V-MAXの起動コストを魔力1にする（卓の取り決め）")
    assert not ed.check()
    errors = ed.field_errors()
    assert "コストの「mana」：値 -5は下限 0を下回っています" in errors["set"]  # in the table's language
    assert errors["rule"] == "「エラッタのルール」を入力してください"  # the field by the name it shows
    ed.rule_edit.setText("E9.6")
    ed.new_value.setPlainText("{raw: [1")
    assert not ed.check() and ed.field_errors()["set"] == "新しい値をYAMLとして読めません（1行目）"
    ed.path.setEditText("effects.9.cost")
    assert not ed.check() and ed.field_errors()["path"] == "effectsに「9」という項目はありません"
    ed.path.setEditText("effects.1.cost")
    ed.new_value.setPlainText("{raw: '1', mana: 1}")
    assert ed.check(), ed.field_errors()
    assert ed.after_card.effects[0].cost.mana == 1 and not ed.before.pixmap().isNull()
    assert not ed.after.pixmap().isNull()
    # apply: saved in the user's pack, the cards reloaded, the same game replayed
    qtbot.mouseClick(ed.apply_button, Qt.MouseButton.LeftButton)
    assert user_pack_path().is_file() and "U-1" in user_pack_path().read_text(encoding="utf-8")
    g = controller.game
    assert list(g.record.actions) == history
    assert g.db.cards["M-006"].effects[0].cost.mana == 1
    assert [p.patch_id for p in g.db.cards["M-006"].patches][-1] == "U-1"
    # a rule set can switch it like any patch
    assert "U-1" in known_switches()
    assert controller.card_db(g.rules.with_(off={"U-1"})).cards["M-006"].effects[0].cost.mana == 0
    # opened again while open: the same editor (what was typed stays); once closed, a new one
    assert features.workbench.open_patch_editor() is ed and ed.isVisible()
    ed.close()
    again = features.workbench.open_patch_editor()
    assert again is not ed and again.isVisible()
    again.close()


def test_the_patch_editor_asks_before_dropping_a_patch_being_typed(qtbot, tmp_path):
    """A patch typed but not applied is not dropped unasked: "New", picking another of the
    group's patches and closing ask Apply / Discard / Cancel; Cancel keeps the form as it was."""
    from fate_royal.cards.patches import save_user_patches
    from fate_royal.qt.patch_editor import PatchEditor

    i18n.set_language("ja")
    pack = tmp_path / "mine.yaml"
    save_user_patches([{"id": "U-1", "rule": "E9.6", "source": "卓の取り決め", "card": "M-006",
                        "path": "effects.1.cost", "expect": {"raw": "T", "tap": True},
                        "set": {"raw": "1", "mana": 1}}], pack)
    empty = PatchEditor(None, pack=tmp_path / "none.yaml")  # no patch yet: the list says so
    qtbot.addWidget(empty)
    empty.show()
    assert empty.empty_hint.isVisible() and empty.howto.text()
    ed = PatchEditor(None, pack=pack)
    qtbot.addWidget(ed)
    ed.show()
    assert ed.empty_hint.isHidden()
    asked, answer = [], ["cancel"]
    ed.ask_unsaved = lambda e: asked.append(1) or answer[0]
    ed.list.setCurrentRow(0)  # nothing typed yet: the group's patch opens unasked
    assert asked == [] and ed.id_edit.text() == "U-1"
    ed.source.setText("卓の取り決め（改）")
    ed.new_button.click()
    assert asked == [1] and ed.id_edit.text() == "U-1" and ed.source.text() == "卓の取り決め（改）"
    ed.close()
    assert asked == [1, 1] and ed.isVisible()  # cancelled: still editing
    answer[0] = "discard"
    ed.new_button.click()
    assert asked == [1, 1, 1] and ed.id_edit.text() == "U-2" and not ed.has_unsaved_changes()
    ed.rule_edit.setText("E9.6")
    ed.list.setCurrentRow(0)  # another patch: asked, then opened
    assert len(asked) == 4 and ed.id_edit.text() == "U-1"
    ed.close()  # nothing typed since: closes unasked
    assert len(asked) == 4 and not ed.isVisible()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_step_list_speaks_words_not_script_keys(lang):
    import re

    from fate_royal.qt.demo import ScenarioSession

    i18n.set_language(lang)
    try:
        for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
            s = ScenarioSession(load_scenario(path))
            for i in range(s.total):
                text = s.label(i).split(" — ")[0]
                assert not re.search(r"[\[\]{}]|\b[a-z]+_[a-z_]+\b", text), (path.name, i, text)
    finally:
        i18n.set_language("ja")


def test_a_broken_shared_set_is_refused_with_file_and_line_and_a_good_one_imported(
        qtbot, tmp_path, _user_folders):
    from fate_royal.qt.rules_editor import RulesEditor

    ed = RulesEditor()
    qtbot.addWidget(ed)
    bad = tmp_path / "bad.yaml"
    bad.write_text("title: x\nwithout: [E8, E10]\n", encoding="utf-8")
    assert ed.import_file(bad) is None
    assert ed.error.text().startswith(f"{bad.as_posix()}:2: 知らないエラッタのルールかパッチ「E10」です")
    good = tmp_path / "group.yaml"
    good.write_text("title: 仲間のルール\nwithout: [E9.3]\nprofile: {hand_limit: 5}\n", encoding="utf-8")
    rules = ed.import_file(good)
    assert rules is not None and not ed.switch_box("E9.3").isChecked()
    assert ed.field("hand_limit").value() == 5 and (_user_folders / "group.yaml").is_file()
    assert ed.export_file(tmp_path / "out.yaml")
    assert "without: [E9.3]" in (tmp_path / "out.yaml").read_text(encoding="utf-8")
    # the new-game dialog offers the imported set and names a broken one with its line
    (_user_folders / "broken.yaml").write_text("title: y\nreadings: {R9: x}\n", encoding="utf-8")
    dlg = NewGameDialog(players=2, seed=1)
    qtbot.addWidget(dlg)
    assert any(dlg.rules.itemData(i).name == "group" for i in range(dlg.rules.count()))
    assert "broken.yaml:2: 知らない読み方「R9」です" in dlg.rules_problem.text()  # in the table's language
