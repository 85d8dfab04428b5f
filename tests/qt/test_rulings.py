"""Rulings and errata features in the GUI (issue 5), driven through the real widgets offscreen:
demo mode stepped forward and back, errata comparison, card inspector, reload with a broken card
file, save/open round trips and refusals, export of the table and the log, autosave."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QApplication

from fate_royal.qt import fonts, i18n, rulings
from fate_royal.qt.controller import GameController
from fate_royal.qt.window import MainWindow
from fate_royal.rules.save import save_game
from scenes import SCENE_ON_SEAT
from tablepos import settle

ROOT = Path(__file__).resolve().parents[2]
DEMOS = ROOT / "scenarios" / "demos"
CARDS = ROOT / "cards"


@pytest.fixture(autouse=True)
def _autosave_home(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def table(qtbot):
    fonts.install_fonts()
    i18n.set_language("ja")
    made = []

    def make(new_game=True, lang="ja"):
        i18n.set_language(lang)
        controller = GameController()
        win = MainWindow(controller)
        qtbot.addWidget(win)
        win.resize(1400, 860)
        features = rulings.install(win, controller)
        features.show_dialogs = False
        if new_game:
            assert controller.new_game(["A", "B", "C"], seed=7, errata=True)
        win.show()
        made.append((win, features))
        return win, controller, features

    yield make
    for win, f in made:
        for w in (f.presenter, f.comparison):
            if w is not None:
                w.close()
        if win.game_over_dialog is not None:
            win.game_over_dialog.close()
    i18n.set_language("ja")


def play(controller, n):
    """Play n legal actions (first non-spell choice), confirming hand-offs and answering "nobody"
    to the table's shared prompts like players would."""
    for _ in range(n):
        settle(controller)
        acts = [a for a in controller.legal_actions() if a.kind != "spell"] or controller.legal_actions()
        assert acts
        assert controller.submit(acts[0])


# --------------------------------------------------------------------------- install


def test_install_adds_menus_and_shortcuts(table):
    win, c, f = table()
    titles = [a.text() for a in win.menuBar().actions()]
    assert titles[0] == f.menu_file.title()
    assert f.menu_demo.menuAction() in win.menuBar().actions()
    assert f.act_open_save.shortcut().toString() == "Ctrl+O"
    assert f.act_save.shortcut().toString() == "Ctrl+S"
    assert f.act_presenter.shortcut().toString() == "F5"
    assert {s.toString() for s in f.act_forward.shortcuts()} == {"Right", "PgDown"}
    assert {s.toString() for s in f.act_back.shortcuts()} == {"Left", "PgUp"}
    assert rulings.install(win, c) is f  # installing twice is harmless


# --------------------------------------------------------------------------- demo mode


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_no_button_label_is_cut_beside_a_demo(table, lang):
    """At 1280×800 the demo dock takes the left side and the log dock gets narrow: its undo and
    redo buttons then show only their arrows (names in the tooltips), never a label cut to
    "↶…す"; every visible button of the window keeps the width its label needs."""
    from PySide6.QtWidgets import QAbstractButton, QApplication

    win, c, f = table(new_game=False, lang=lang)
    win.resize(1280, 800)
    assert f.open_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml") is None
    for _ in range(3):
        QApplication.processEvents()
    shown = [b for b in win.findChildren(QAbstractButton) if b.isVisible() and b.text()]
    assert len(shown) >= 5
    cut = [(b.text(), b.width(), b.sizeHint().width()) for b in shown
           if b.width() < b.sizeHint().width() - 1]
    assert cut == []
    undo = next(b for b in win.findChildren(QAbstractButton)
                if b.toolTip().startswith(i18n.tr("history.undo")))
    assert undo.text() in ("↶", "↶ " + i18n.tr("history.undo"))
    assert undo.accessibleName() == i18n.tr("history.undo")
    win.resize(1920, 1080)
    for _ in range(3):
        QApplication.processEvents()
    assert undo.text() == "↶ " + i18n.tr("history.undo")  # room again: the name is back


def test_demo_scenario_steps_forward_and_back(table, qtbot):
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml") is None
    panel = f.demo_panel
    assert f.demo_dock.isVisible()
    assert "リバース" in panel.title.text()
    assert "E1.3" in panel.description.text()
    # step 0: the description is shown once, not again as the narration under it
    assert panel.narration.text() == "" and panel.narration.isHidden()
    assert not win.overlay.isVisible()  # demo: no hand-off screen
    game = c.game
    f.demo.forward()  # say
    assert "ガンド" in panel.narration.text()
    f.demo.forward()  # use ガンド
    f.demo.forward()  # resolve
    assert "E1.3" in panel.step_log.toPlainText()
    f.demo.forward()  # expect: passed
    assert c.game is game
    assert "確認 OK" in panel.result.text() and "#6fdc8c" in panel.result.text()
    assert panel.item_texts()[3].startswith("✓ 4.")
    assert "リバースのまま" in panel.narration.text()
    assert c.game.servant_state(1) == "reverse"
    log_lines = win.log.toPlainText().count("\n")
    # step back through ScenarioRun.back(): the state and the log follow
    f.demo.back()
    f.demo.back()
    f.demo.back()
    assert f.demo.session.index == 1
    assert not c.game.history
    assert win.log.toPlainText().count("\n") < log_lines
    assert panel.item_texts()[3].startswith("　 4.")
    while not f.demo.session.done:
        f.demo.forward()
    assert "2 件成功・0 件失敗" in panel.summary.text()
    assert not f.act_forward.isEnabled()


def test_every_demo_passes_in_the_gui(table):
    win, c, f = table(new_game=False)
    files = sorted(DEMOS.glob("*.yaml"))
    assert len(files) >= 10
    for path in files:
        assert f.open_scenario(path) is None, path
        s = f.demo.session
        assert s.scenario.title and s.scenario.title_en
        assert any(step.say for step in s.scenario.steps), path
        while not s.done:
            f.demo.forward()
        assert all(i.ok for i in s.infos), (path, [i.message for i in s.infos if not i.ok])
        f.demo.restart()
        assert s.index == 0 and not c.game.history


def test_failed_check_is_shown_red(table, tmp_path):
    win, c, f = table(new_game=False)
    bad = tmp_path / "bad.yaml"
    bad.write_text((DEMOS / "E1.3-demo-reverse-never-down.yaml").read_text(encoding="utf-8")
                   .replace("servant_state: reverse, log_cites: E1.3}\n    say: Bはリバースのまま",
                            "servant_state: down, log_cites: E1.3}\n    say: Bはリバースのまま"), encoding="utf-8")
    assert f.open_scenario(bad) is None
    for _ in range(4):
        f.demo.forward()
    assert "確認 NG" in f.demo_panel.result.text() and "#ff7b6b" in f.demo_panel.result.text()
    assert f.demo_panel.item_texts()[3].startswith("✗ 4.")


def test_english_narration(table):
    win, c, f = table(new_game=False, lang="en")
    assert f.open_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml") is None
    assert "never" in f.demo_panel.title.text()
    f.demo.forward()
    assert "face down" in f.demo_panel.narration.text()


def test_bad_scenario_keeps_the_game(table, tmp_path):
    win, c, f = table()
    game = c.game
    bad = tmp_path / "broken.yaml"
    bad.write_text("title: x\nplayers: [\n", encoding="utf-8")
    err = f.open_scenario(bad)
    assert err and "broken.yaml" in err
    assert c.game is game and not f.demo.active


def test_a_broken_scenario_says_what_is_wrong_in_the_table_s_language(table, tmp_path):
    """Someone editing a demo typed a state that does not exist: the Japanese table said
    "シナリオを開けませんでした：" above the checker's English sentence."""
    bad = tmp_path / "typo.yaml"
    bad.write_text((DEMOS / "E1.3-demo-reverse-never-down.yaml").read_text(encoding="utf-8")
                   .replace("state: reverse}", "state: exploded}", 1), encoding="utf-8")
    win, c, f = table()
    game = c.game
    err = f.open_scenario(bad)
    assert err == f"{bad}:16: servant state must be reverse, rise, down or danger, got 'exploded'"  # as logged
    level, text = f.last_message
    assert level == "error" and text == (
        f"シナリオを開けませんでした：\n\n{bad}:16: サーヴァントの「state」はreverse、rise、down、dangerのどれかです"
        "（今は「exploded」）")
    assert c.game is game and not f.demo.active
    from fate_royal.qt import i18n

    i18n.set_language("en")
    try:
        f.open_scenario(bad)
        assert f.last_message[1].endswith(f"{bad}:16: servant state must be reverse, rise, down or danger, "
                                          "got 'exploded'")
    finally:
        i18n.set_language("ja")


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_presenter_names_each_hand_card_whole(table, qtbot, lang):
    """At 1280×800 the English presenter cut its hand cards' names ("Encounter with a Serv…") in
    slots of seven letters' width while the row had room to spare: a slot widens until every name
    fits its two lines, as far as the row allows. And at a demo's opening position, its long
    narration took the height it wanted at the largest type, leaving the hands strip 90 px: names
    on chips and "+2" for the rest; the narration's type now fits the share it is given."""
    from fate_royal.qt.fonts import pixel_font
    from fate_royal.qt.reveal import fit_caption

    win, c, f = table(new_game=False)
    i18n.set_language(lang)
    try:
        assert f.open_scenario(DEMOS / "E6.ex1-demo-gilles-rider-dragon.yaml") is None
        p = f.open_presenter(full_screen=False)
        for w, h in ((1280, 800), (1920, 1080)):
            p.resize(w, h)
            qtbot.waitUntil(lambda: p.width() == w and p.height() == h, timeout=2000)
            qtbot.wait(50)  # (the layouts follow the new size)
            hands = p.hands
            hands.layout_hands()
            assert not hands.names_only, (w, hands.height())
            font = pixel_font(hands.caption_px, bold=True)
            captions = [(rect, name) for rect, name in hands.caption_rects if not name.startswith("+")]
            assert len(captions) == len(hands.records()) >= 3
            cut = [name for rect, name in captions if fit_caption(font, name, rect) != name]
            assert not cut, (w, cut)
    finally:
        i18n.set_language("ja")


def test_presenter_view_reveals_every_hand(table):
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E6.ex1-demo-gilles-rider-dragon.yaml") is None
    f.demo.forward()
    p = f.open_presenter(full_screen=False)
    records = p.hands.records()
    hands = {d.owner for d in records}
    assert hands == {0, 1} and all(d.face_up for d in records)
    seat = p.table.records()
    assert all(d.face_up for d in seat if d.role in ("hero", "class", "code"))
    assert "ジル" in p.title.text()
    f.demo.forward()
    assert "2 /" in p.progress.text()


def test_presenter_and_comparison_in_a_live_game_keep_hands_hidden(table):
    win, c, f = table()  # three humans, hands hidden from each other
    asked = []
    f.keeper.ask = lambda kind, text, choices: asked.append(kind) or "cancel"
    win.refresh()
    assert c.handoff_needed() and win.overlay.isVisible()
    f.act_presenter.trigger()  # behind the hand-off screen F5 / Ctrl+E open nothing, unasked
    f.act_comparison.trigger()
    assert asked == [] and f.presenter is None and f.comparison is None
    c.confirm_handoff()
    win.refresh()
    assert not win.overlay.isVisible()
    assert f.open_comparison() is None  # the comparison shows every hand: the table is asked
    assert asked == ["reveal"] and f.comparison is None
    p = f.open_presenter(full_screen=False)  # the presenter opens public, with an "agree" button
    assert p is not None and asked == ["reveal"]
    assert not p.hands.records()


def test_one_human_against_computers_is_asked_before_every_hand_shows(table):
    """The computers' hands are hidden from the one human at the table: the errata comparison
    (which shows every hand) asks first, and a refusal opens nothing."""
    win, c, f = table(new_game=False)
    assert c.new_game(["A", "B", "C"], seed=7, seats={0: "human", 1: "basic", 2: "basic"})
    asked = []
    f.keeper.ask = lambda kind, text, choices: asked.append((kind, text)) or "cancel"
    assert f.open_comparison() is None and f.comparison is None
    assert [k for k, _ in asked] == ["reveal"] and "コンピューター" in asked[0][1]
    p = f.open_presenter(full_screen=False)  # opens public; its own button asks for agreement
    assert p is not None and not p.hands.records()
    servants = [d for d in p.table.records() if d.role == "hero" and d.owner != 0]
    assert servants and not any(d.face_up for d in servants)
    c.shutdown()


def test_presenter_reveals_reverse_servants_once_the_table_agrees(table):
    win, c, f = table()  # a new game: every servant is dealt face down
    f.keeper.ask = lambda kind, text, choices: "reveal"  # the table agreed to show every hand
    c.confirm_handoff()
    win.refresh()
    p = f.open_presenter(full_screen=False)
    # design.md: all hands revealed in demos and replays, in a live game only after the table agrees
    servants = [d for d in p.table.records() if d.role == "hero"]
    assert servants and not any(d.face_up for d in servants) and not p.hands.records()
    p.agree.click()
    servants = [d for d in p.table.records() if d.role == "hero"]
    assert servants and all(d.face_up for d in servants)
    assert p.hands.records() and all(d.face_up for d in p.hands.records())
    viewer = c.private_viewer()  # the table stays private: only the seat looking sees its own
    assert not any(d.face_up for d in win.table.records() if d.role == "hero" and d.owner != viewer)


def test_the_presenter_shows_a_finished_games_cards_once_the_table_shows_them(table):
    """Game over, "show every card" pressed on the game-over screen: the presenter, open on the
    live table, turns them face up too (and face down again with the table)."""
    import random

    win, c, f = table()
    c.auto_handoff = True  # (the moves below are played without hand-offs)
    rng = random.Random(7)
    while not c.game.state.over:
        assert c.submit(rng.choice(c.game.legal_actions()))
    p = f.open_presenter(full_screen=False)
    hidden = [d for d in p.table.records() if d.role in ("hero", "class") and not d.face_up]
    assert hidden, "every servant of this finished game is face up already: pick another seed"
    assert c.show_all_cards()
    assert all(d.face_up for d in p.table.records() if d.role in ("hero", "class"))
    assert p.hands.records() or not any(pl.hand for pl in c.game.state.players)
    assert c.show_all_cards(False)
    assert [d for d in p.table.records() if d.role in ("hero", "class") and not d.face_up]


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_refused_step_says_why_in_the_language_of_the_table(table, lang):
    """A demo's "cannot" step (expect_illegal) says why the engine refused in the table's language:
    the reason's words, never the checker's English in the Japanese table."""
    import re

    win, c, f = table(new_game=False, lang=lang)
    seen = []
    for path in sorted(DEMOS.glob("*.yaml")) + sorted((ROOT / "scenarios" / "rulings").glob("E1.*.yaml")):
        assert f.open_scenario(path) is None
        while not f.demo.session.done:
            f.demo.forward()
        seen += [i.message for i in f.demo.session.infos if i.kind == "expect_illegal"]
    assert len(seen) >= 10
    if lang == "ja":
        assert "ダウン状態のサーヴァントは襲撃を宣言できません" in " ".join(seen)  # E1.4's reason
        assert not [m for m in seen if re.search(r"[A-Za-z]{4,}", m)]  # no English words at all
    else:
        assert "a Down servant cannot declare a raid" in " ".join(seen)
        assert not [m for m in seen if "refused:" in m]  # the reason, not the checker's phrasing


KANA_KANJI = r"[\u3040-\u30ff\u4e00-\u9fff「」、。・（）：]"


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_scenario_steps_through_the_demo_dock_in_one_language(table, lang):
    """Every shipped scenario played step by step as a presenter does: each step's label, its
    result and the narration are in the table's language. In English no Japanese at all (the
    scenarios' own texts included); in Japanese no English words in what the table writes (rule
    ids, player letters and numbers only; the author's titles, descriptions and lines may quote a
    file's keys, e.g. ``reverse_may_raid: false`` or reading R1=kept, so they are left out)."""
    import re

    win, c, f = table(new_game=False, lang=lang)
    bad = []
    for path in sorted(DEMOS.glob("*.yaml")) + sorted((ROOT / "scenarios" / "rulings").glob("*.yaml")):
        assert f.open_scenario(path) is None, path
        s = f.demo.session
        seen = [s.title, s.narration()]
        while not s.done:
            f.demo.forward()
            seen.append(s.narration())
        steps = s.scenario.steps
        seen += [i.message for i in s.infos] + [s.label(k) for k in range(len(steps))]
        if lang == "ja":  # what the scenario's author wrote may quote ids: only the table's words
            said = {s.title, s.description} | {getattr(st, "say", "") for st in steps}
            seen = [x for x in seen if x not in said and not any(a and a in x for a in said)]
        pattern = KANA_KANJI if lang == "en" else r"[A-Za-z][A-Za-z_]{3,}"
        bad += [f"{path.name}: {x}" for x in seen if re.search(pattern, x or "")]
    assert not bad, f"{len(bad)} texts in the other language, e.g.\n" + "\n".join(bad[:10])


def test_a_failed_check_says_what_went_otherwise_in_japanese(table):
    """A ruling played under rules it was not written for fails its checks; the demo dock says
    what was checked and what came out, in the table's words (the checker writes English)."""
    import re

    win, c, f = table(new_game=False, lang="ja")
    assert f.open_scenario(ROOT / "scenarios" / "rulings" / "E4-command-spells.yaml", False) is None
    while not f.demo.session.done:
        f.demo.forward()
    failed = [i.message for i in f.demo.session.infos if not i.ok]
    assert len(failed) >= 3
    assert not [m for m in failed if re.search(r"[A-Za-z]{4,}", m)], failed
    text = " ".join(failed)
    assert "暗殺コインの枚数は0（1のはず）" in text
    assert "令呪は1（0のはず）、E4.2が引用されていない" in text
    assert "許された（拒否されるはず）" in text


# --------------------------------------------------------------------------- errata comparison


def test_errata_comparison_of_a_scenario_shows_the_difference(table):
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml") is None
    while not f.demo.session.done:
        f.demo.forward()
    w = f.open_comparison()
    rows = w.rows()
    row = next(r for r in rows if r[0].startswith("B — サーヴァントの状態"))
    assert row[1] == "リバース" and row[2] == "デンジャー"
    assert "E1.3" in row[3]
    assert "E1.3" in w.rules.text()
    assert w.sides[True][1].controller.game is not None
    assert "B" in w.sides[True][1].highlight


def test_a_card_on_either_side_of_the_comparison_shows_large_from_that_sides_rules(table):
    """The two tables are drawn small: pointing at a card shows its zoom over the comparison,
    the card as that side's rule set makes it (M-007 carries errata E9.2 only under the house
    rules)."""
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml") is None
    w = f.open_comparison()
    w.show()
    for errata in (True, False):
        view = w.sides[errata][1]
        view.resize(700, 480)
        view.layout_table()
        d = next(d for s in view.seats for d in s.cards if d.face_up and d.card_id.startswith("H-"))
        assert view.zoom_at(view.widget_point(d))
        zoom = view.card_zoom
        assert zoom.isVisible() and zoom.parentWidget() is w
        assert zoom.controller is view.controller and zoom.target.card_id == d.card_id
        name = view.controller.game.db.cards[d.card_id].name
        assert name in zoom.plain_text()
        view.unzoom()
        assert not zoom.isVisible()


def test_the_presenter_never_zooms_a_card_the_table_may_not_see(table):
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    win, c, f = table(new_game=False)
    run = ScenarioRun(load_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml"))
    run.run_all()  # B's servant still face down, A's face up
    c.set_game(run.game)
    if c.handoff_needed():
        c.confirm_handoff()
    win.refresh()
    p = f.open_presenter(full_screen=False)  # public until the table agrees
    p.resize(1280, 800)
    p.show()
    p.table.layout_table()
    hidden = [d for s in p.table.seats for d in s.cards if not d.face_up]
    assert hidden, "B's servant lies face down"
    for d in hidden:
        assert not p.table.zoom_at(p.table.widget_point(d))
    assert not p.table.card_zoom.isVisible()
    shown = [d for s in p.table.seats for d in s.cards if d.face_up]
    assert shown, "A's servant lies face up"
    for d in shown:
        assert p.table.zoom_at(p.table.widget_point(d)) and p.table.card_zoom.isVisible()


def test_errata_comparison_of_the_live_game(table):
    win, c, f = table(new_game=False)
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    run = ScenarioRun(load_scenario(DEMOS / "E8-demo-deck-rebuild.yaml"))
    run.run_all()
    c.set_game(run.game)
    f.keeper.ask = lambda kind, text, choices: "reveal"  # the table agreed to show every hand
    if c.handoff_needed():
        c.confirm_handoff()
    win.refresh()
    w = f.open_comparison()
    assert not w.scenario_mode
    assert any(r[0] == "捨て札の枚数" and r[1] == "0" and r[2] == "2" for r in w.rows())


@pytest.mark.parametrize("lang, title, rows", [
    ("ja", "山札の再作成", [["天のドレスの場所", "山札", "捨て札"], ["竜種の場所", "Aの手札", "捨て札"]]),
    ("en", "The deck rebuild", [["where Dress of Heaven is", "Deck", "Discard pile"],
                                ["where Dragon is", "A's hand", "Discard pile"]]),
])
def test_the_comparison_names_cards_places_and_the_scenario_in_the_ui_language(table, lang, title,
                                                                               rows):
    """Cards by name, not id (M-021); places in words, not the engine's codes (A:hand, discard);
    the scenario's title in the language of the table."""
    win, c, f = table(new_game=False, lang=lang)
    assert f.open_scenario(DEMOS / "E8-demo-deck-rebuild.yaml") is None
    w = f.open_comparison()
    assert title in w.title.text()
    got = [r[:3] for r in w.rows()]
    for row in rows:
        assert row in got
    text = " ".join(" ".join(r) for r in w.rows()) + w.title.text()
    raw = ("M-0", "M-9", ":hand") + (("deck", "discard") if lang == "ja" else ())
    for code in raw:
        assert code not in text, code


def test_compared_servants_steps_and_processes_are_in_words():
    from fate_royal.cards import load_card_db
    from fate_royal.qt.compare_view import value_text
    from fate_royal.rules.compare import Difference
    from fate_royal.text import Words

    words = Words("ja", load_card_db(), ["A", "B"])
    i18n.set_language("ja")
    assert value_text("H-001/C-001", Difference("players.A.servant", "", ""), words) == \
        "アルトリア／セイバー"
    assert value_text("ritual", Difference("game.step", "", "")) == "儀式ステップ"
    assert value_text("raid", Difference("game.process", "", "")) == "襲撃"
    assert value_text("B:seat×2, removed", Difference("zones.M-006", "", ""), words) == \
        "Bのサーヴァントの座×2、ゲームから除外"


# --------------------------------------------------------------------------- card inspector


def test_inspector_shows_provenance_and_errata_of_M007(table):
    win, c, f = table()
    insp = f.inspect(card_id="M-007")
    assert f.inspector_dock.isVisible()
    text = insp.text()
    assert "雨生龍之介" in text
    assert "暫定" in text  # provisional fields (effect names, windows, costs)
    assert "印刷された効果名は不明" in text  # with their notes, in the table's language
    assert "エラッタ前" in text and "エラッタ後" in text
    # the effects' operations in words, before and after the patches
    assert "カードを1枚引く。手札からカードを1枚選んで捨てる。" in text
    assert "ダウン状態のカードを2枚まで選び" in text and "ダウン状態のカードを1枚まで選び" in text
    assert "E9.1" in text and "雨生龍之介(M-007)" in text  # the patch's rule and source text
    assert not insp.image.pixmap().isNull()


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_inspector_speaks_one_language(table, lang):
    """Field names, values, operations and the provenance notes of provisional cards in the table's
    language: no raw field path (effects.1.window), code value (activated) or English note on the
    Japanese table. (The errata's own Japanese sentences are quoted in both.)"""
    from test_languages import other_language, proper_names

    win, c, f = table()
    i18n.set_language(lang)
    try:
        # proper names, the cards' printed Japanese text and the timing words it prints
        names = proper_names(c.game.db) + ["常時", "起動"] + sorted(
            (e.text for card in c.game.db.cards.values() for e in card.effects if e.text), key=len, reverse=True)
        quotes = [p.source for card in c.game.db.cards.values() for p in card.patches if p.source]
        bad = []
        for cid in ("M-006", "M-007", "H-015", "C-003", "H-012", "S-001"):
            text = f.inspect(card_id=cid).text()
            # not the errata's own sentences (quoted in both languages), nor the card file's path
            kept = "\n".join(line for line in text.splitlines()
                             if not any(q in line for q in quotes) and ".yaml" not in line)
            if other_language(kept, lang, names):
                bad.append((cid, other_language(kept, lang, names)))
        assert not bad
        text = f.inspect(card_id="M-006").text()
        assert "effects.1" not in text and "activated" not in text and "modify_stats" not in text
        note = {"ja": "印刷された効果名は不明。カード名で呼ぶ", "en": "printed effect name unknown; named after the card"}
        assert note[lang] in text
    finally:
        i18n.set_language("ja")


def test_inspector_effective_stats_with_sources(table):
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E6.ex1-demo-gilles-rider-dragon.yaml") is None
    for _ in range(8):
        f.demo.forward()
    insp = f.inspect(card_id="H-008")
    text = insp.text()
    assert "海魔" in text and "竜種" in text and "E6.5" in text
    assert "5" in text


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_inspectors_stat_sources_are_named_in_the_tables_language(table, lang):
    """The English inspector listed where a fighter's stats come from by their printed Japanese
    names ("アルトリア H-001", "海魔 SEA_DEMON"): each card, chip and effect is named as the table
    names it, in either language, for the servant itself and for a proxy fighting for it."""
    from test_languages import other_language

    win, c, f = table(new_game=False)
    i18n.set_language(lang)
    try:
        assert f.open_scenario(DEMOS / "E6.ex1-demo-gilles-rider-dragon.yaml") is None
        db = c.game.db

        def named(thing) -> str:  # as the table names it in this language (not the other's name)
            return (lang == "en" and thing.name_en) or thing.name

        names = sorted({named(x) for card in db.cards.values() for x in (card, *card.effects)}
                       | {named(chip) for chip in db.chips.values()}, key=len, reverse=True)
        seen = []
        for step in range(9):  # the servants as dealt, then the sea demons fighting for Gilles
            insp = f.inspect(uid=c.game.state.players[0].hero)
            html = insp.summary.toHtml() + insp.details.toHtml()
            table_text = insp.text().split(i18n.tr("rulings.inspector.source"), 1)[-1]
            stats_part = table_text.split(i18n.tr("rulings.inspector.total"), 1)[0]
            assert not other_language(stats_part, lang, names), (step, stats_part)
            seen.append(stats_part)
            assert html
            f.demo.forward()
        joined = "\n".join(seen)
        expected = {"ja": ["ジル・ド・レェ", "ライダー", "海魔", "竜種"],
                    "en": ["Gilles de Rais", "Rider", "Sea Demon", "Dragon"]}[lang]
        assert all(word in joined for word in expected), joined
    finally:
        i18n.set_language("ja")


def test_inspector_follows_the_card_under_the_mouse(table, qtbot):
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E1.9-demo-rise-step.yaml") is None
    f.toggle_inspector()
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    d = next(d for d in win.table.records() if d.role == "code" and d.face_up)
    pos = win.table.widget_point(d)
    move = QMouseEvent(QEvent.Type.MouseMove, pos, win.table.mapToGlobal(pos), Qt.MouseButton.NoButton,
                       Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win.table, move)
    assert f.inspector.card_id == "M-006" and f.inspector.uid == d.uid
    f.inspector_dock.hide()
    dbl = QMouseEvent(QEvent.Type.MouseButtonDblClick, pos, win.table.mapToGlobal(pos), Qt.MouseButton.LeftButton,
                      Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(win.table, dbl)
    assert f.inspector_dock.isVisible()


# --------------------------------------------------------------------------- reload cards


def test_reload_with_a_broken_card_file_keeps_the_game(table, tmp_path):
    win, c, f = table()
    play(c, 5)
    game = c.game
    before = game.state.to_dict()
    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    assert f.reload_cards(cards)  # the same data from elsewhere: the game is replayed
    assert c.game is not game and c.game.state.to_dict() == before
    game = c.game
    broken = cards / "heroes" / "H-001.yaml"
    broken.write_text(broken.read_text(encoding="utf-8").replace("name:", "nmae:", 1), encoding="utf-8")
    assert not f.reload_cards()
    level, text = f.last_message
    assert level == "error" and "H-001.yaml:" in text
    assert "知らない項目「nmae」" in text  # the loader's problem in the table's language
    assert c.game is game and game.state.to_dict() == before
    n = len(c.game.history)
    play(c, 3)  # still playable
    assert len(c.game.history) >= n + 3


def test_reload_when_the_replay_becomes_illegal(table, tmp_path):
    win, c, f = table(new_game=False)
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    run = ScenarioRun(load_scenario(DEMOS / "E6.ex2-demo-medea-dragon-tooth.yaml"))
    for _ in range(5):
        run.forward()
    c.set_game(run.game)
    game = c.game
    cards = tmp_path / "cards"
    shutil.copytree(CARDS, cards)
    # 竜牙兵 moved to the ritual step: the recorded use in the engagement process becomes illegal
    medea = cards / "heroes" / "H-012.yaml"
    lines = medea.read_text(encoding="utf-8").splitlines(keepends=True)
    assert lines[16].strip() == "window: engagement"
    lines[16] = lines[16].replace("engagement", "ritual")
    medea.write_text("".join(lines), encoding="utf-8")
    before = game.state.to_dict()
    assert not f.reload_cards(cards)
    level, text = f.last_message
    assert level == "error" and "竜牙兵" in text and "元のゲーム" in text
    assert c.game is game and game.state.to_dict() == before


# --------------------------------------------------------------------------- saves


def test_save_and_open_round_trip(table, tmp_path):
    win, c, f = table()
    play(c, 12)
    before = c.game.state.to_dict()
    path = tmp_path / "game.json"
    assert f.save(path)
    assert f.last_message[0] == "info"
    c.new_game(["X", "Y"], seed=2)
    assert f.open_save(path)
    assert c.game.state.to_dict() == before
    assert [a.to_dict() for a in c.game.history][:3]
    assert f.save_path == path


def test_damaged_save_is_refused_and_left_unchanged(table, tmp_path):
    win, c, f = table()
    play(c, 4)
    game = c.game
    path = tmp_path / "damaged.json"
    save_game(game, path)
    raw = path.read_bytes()
    damaged = raw[: len(raw) // 2]
    path.write_bytes(damaged)
    assert not f.open_save(path)
    level, text = f.last_message
    assert level == "error" and "damaged.json" in text and "現在のゲームはそのまま" in text
    assert "保存ファイルが壊れています" in text  # the reason in the table's language too
    assert path.read_bytes() == damaged
    assert c.game is game
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"hello": 1}), encoding="utf-8")
    assert not f.open_save(foreign)
    assert f.last_message[1].endswith(
        "foreign.json: Fate/Ace Royal の保存ファイルではありません（保存ファイルであることを示す項目がありません）")
    assert f.last_refusal.endswith("not a fate_royal save (no 'format: fate_royal-save' field)")  # as logged
    assert c.game is game
    from fate_royal.qt import i18n

    i18n.set_language("en")
    try:
        assert not f.open_save(foreign)
        assert f.last_message[1].endswith("foreign.json: not a fate_royal save (no 'format: fate_royal-save' field)")
    finally:
        i18n.set_language("ja")


def test_changed_card_data_asks_to_open_anyway(table, tmp_path):
    win, c, f = table()
    play(c, 4)
    path = tmp_path / "g.json"
    save_game(c.game, path)
    rec = json.loads(path.read_text(encoding="utf-8"))
    rec["cards_fingerprint"] = "0" * 64
    path.write_text(json.dumps(rec), encoding="utf-8")
    game = c.game
    assert not f.open_save(path)
    assert f.last_message[0] == "question" and c.game is game
    assert f.open_save(path, allow_changed_cards=True)
    assert c.game.state.to_dict() == game.state.to_dict()


def test_save_opened_as_a_replay_steps_like_a_scenario(table, tmp_path):
    win, c, f = table()
    play(c, 6)
    final = c.game.state.to_dict()
    n = len(c.game.entries)
    path = tmp_path / "r.json"
    save_game(c.game, path)
    assert f.open_replay(path)
    s = f.demo.session
    assert s.kind == "replay" and s.total == n and s.index == 0
    assert not c.game.history
    for _ in range(n):
        f.demo.forward()
    assert c.game.state.to_dict() == final
    f.demo.back()
    assert len(c.game.entries) == n - 1
    # read-only: an action played on the table is taken back
    if c.handoff_needed():
        c.confirm_handoff()
    acts = c.legal_actions()
    if acts:
        c.submit(acts[0])
    assert len(c.game.entries) == n - 1


def test_autosave_after_every_action_and_failure_shown_once(table, tmp_path, qtbot):
    win, c, f = table()
    auto = tmp_path / "auto" / "autosave.jsonl"
    f.autosave_file = auto
    play(c, 2)
    from fate_royal.rules.journal import read_journal

    assert f.keeper.flush()
    assert len(read_journal(auto).record.actions) == len(c.game.entries) >= 2
    play(c, 1)
    assert f.keeper.flush()
    assert len(read_journal(auto).record.actions) == len(c.game.entries) >= 3
    blocker = tmp_path / "file"
    blocker.write_text("x")
    f.autosave_file = blocker / "autosave.jsonl"  # a file where a folder should be
    messages = []
    win.statusBar().messageChanged.connect(lambda m: messages.append(m))
    play(c, 2)
    assert f.keeper.flush()
    qtbot.waitUntil(lambda: f.autosave_error is not None, timeout=3000)
    play(c, 1)
    assert f.keeper.flush()
    qtbot.wait(50)
    assert sum(1 for m in messages if "自動保存" in m) == 1


def test_default_autosave_path_is_used(table, tmp_path):
    win, c, f = table()
    play(c, 1)
    from fate_royal.rules.save import autosave_path

    assert f.keeper.flush()
    assert autosave_path().is_file()
    assert autosave_path().name == "autosave.jsonl"
    assert str(autosave_path()).startswith(str(tmp_path))  # XDG_DATA_HOME, set by this module


# --------------------------------------------------------------------------- export


def test_export_png_and_log(table, tmp_path):
    win, c, f = table()
    play(c, 6)
    png = tmp_path / "table.png"
    assert f.export_png(png)
    img = QImage(str(png))
    assert not img.isNull() and img.width() > 100
    txt = tmp_path / "log.txt"
    assert f.export_log(txt)
    text = txt.read_text(encoding="utf-8")
    assert "ゲーム開始" in text and "[" in text and "D5" in text
    assert len(text.splitlines()) >= len(c.game.log)


def test_an_english_log_export_names_the_rules_in_english(table, tmp_path):
    """The exported log's header named the shipped rule set by its own, Japanese title in an
    otherwise English file."""
    win, c, f = table(lang="en")
    play(c, 4)
    txt = tmp_path / "log.txt"
    assert f.export_log(txt)
    header = txt.read_text(encoding="utf-8").splitlines()[1]
    assert "House errata" in header and header.isascii(), header


def test_the_demo_step_log_keeps_a_face_down_servant_as_secret_as_the_table_log(table):
    """E1.3's demo: B's face-down servant is not named in the dock's step log (the seat looking
    is A, as in the table's own log); the presenter, which shows every hand in a demo, names it."""
    win, c, f = table(new_game=False)
    assert f.open_scenario(DEMOS / "E1.3-demo-reverse-never-down.yaml") is None
    for _ in range(3):
        f.demo.forward()
    text = f.demo_panel.step_log.toPlainText()
    assert c.private_viewer() == 0 and "E1.3" in text
    assert "裏向きのカード" in text and "佐々木小次郎" not in text
    p = f.open_presenter(full_screen=False)
    assert "佐々木小次郎" in p.log.toPlainText()


def test_no_japanese_description_carries_a_folded_line_space():
    """A YAML folded block (``>``) joins lines with a space, which Japanese text never has: the
    demo panel's descriptions come out without one between two Japanese characters."""
    import re

    import yaml

    from fate_royal.qt.demo import unwrap

    cjk = "[\u3000-\u9fff\uff00-\uffef]"
    spaced = []
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if re.search(f"{cjk} {cjk}", unwrap(data.get("description") or "")):
            spaced.append(path.name)
    assert spaced == []


@pytest.mark.parametrize("lang, words", [("ja", "1手目（A："), ("en", "move 1 (A: ")])
def test_a_side_the_rules_stop_says_why_in_the_table_language(qtbot, tmp_path, lang, words):
    """E1.8: the live game replayed under the base rules stops at its first move; the note under
    that side says so in the table's language, never the engine's English in the Japanese table."""
    from fate_royal.qt.compare_view import ComparisonWindow
    from fate_royal.rules.compare import compare_errata
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    i18n.set_language(lang)
    path = tmp_path / "scene.yaml"
    path.write_text(SCENE_ON_SEAT, encoding="utf-8")
    run = ScenarioRun(load_scenario(path))
    run.run_all()
    comp = compare_errata(run.game)
    w = ComparisonWindow(lambda upto, first=None, second=None: comp)
    qtbot.addWidget(w)
    w.recompute()
    note = w.sides[False][2].text()
    assert words in note and "[E1.8]" in note, note
    if lang == "ja":
        assert "not allowed" not in note and "action 1" not in note
    i18n.set_language("ja")


@pytest.mark.parametrize("lang, words", [("ja", "オートセーブ："), ("en", "Autosave: ")])
def test_about_says_what_the_program_is_and_where_its_files_are(table, lang, words):
    from fate_royal import __version__
    from fate_royal.paths import user_log_dir

    win, c, f = table(lang=lang)
    win.act_about.trigger()
    box = win.about_box
    assert box.isVisible() and __version__ in box.text() and words in box.text()
    assert str(user_log_dir()) in box.text()
    box.close()


@pytest.mark.parametrize("first, then", [("ja", "en"), ("en", "ja")])
def test_switching_the_language_mid_game_renames_every_menu_and_label(table, first, then, tmp_path,
                                                                     monkeypatch, request):
    """View → Language during a game: every menu in the menu bar (the Seats menu too: its entries
    are rebuilt when it opens, but its title stands in the bar) and every label and button shown
    speak the new language at once."""
    from PySide6.QtWidgets import QAbstractButton, QDockWidget, QLabel

    from fate_royal.qt.app import install_qt_translations

    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))  # (the language is kept)
    japanese = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
    from fate_royal.qt import access

    win, c, f = table(lang=first)
    request.addfinalizer(lambda: install_qt_translations("en"))  # Qt's own words as other tests expect
    access.install(win)  # as the table starts: names for screen readers
    f.toggle_inspector()  # a dock open too: its title and its words
    assert f.inspector_dock.isVisible()
    f.keeper._show_failure("disk full")  # a status line that stays until the autosave works again
    before = win.statusBar().currentMessage()
    assert "disk full" in before
    assert not c.submit(object())  # a refusal in the message bar, in the language before
    assert win.messages.plain and not win.messages.isHidden()
    win.lang_actions[then].trigger()
    QApplication.processEvents()
    assert win.statusBar().currentMessage() == i18n.tr("rulings.autosave.failed", reason="disk full")
    assert win.statusBar().currentMessage() != before
    assert win.messages.isHidden() and not win.messages.plain  # not left in the other language
    menus = [a.text() for a in win.menuBar().actions()]
    assert len(menus) >= 6
    if then == "en":
        shown = [w.text() for w in win.findChildren(QLabel) + win.findChildren(QAbstractButton)
                 if w.isVisible()]
        shown += [d.windowTitle() for d in win.findChildren(QDockWidget) if d.isVisible()]
        # what a screen reader says: the names given from a button's text or a dock's title follow
        shown += [w.accessibleName() for w in win.findChildren(QAbstractButton) + win.findChildren(QDockWidget)
                  if w.isVisible()]
        left = [t for t in menus + shown if japanese.search(t)]
        assert not left, left
    else:
        assert all(japanese.search(t) for t in menus), menus
