"""The table driven through its own widgets (pytest-qt, offscreen): full games, hot-seat privacy,
card orientation by state, refusals with their rule id, and the log's rule links."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QUrl, Qt
from PySide6.QtWidgets import QApplication

from fate_royal.cards import RuleSet, load_card_db, load_profile
from fate_royal.qt import fonts, i18n
from fate_royal.qt.controller import GameController
from fate_royal.qt.window import MainWindow
from fate_royal.rules.actions import DeclareRaid, Pass
from fate_royal.rules.game import Game

MAX_CLICKS = 3000


@pytest.fixture
def make_window(qtbot):
    fonts.install_fonts()
    i18n.set_language("ja")
    made = []

    def make(game=None, *, names=None, seed=1, errata=True, show=True, size=(1280, 720)):
        controller = GameController()
        win = MainWindow(controller)
        qtbot.addWidget(win)
        win.resize(*size)
        if show:
            win.show()
            win.activateWindow()
            qtbot.waitUntil(win.isActiveWindow, timeout=2000)
        if game is not None:
            controller.set_game(game)
        else:
            assert controller.new_game(names or ["A", "B"], seed=seed, errata=errata)
        made.append(win)
        return win

    yield make
    for win in made:
        if win.game_over_dialog is not None:
            win.game_over_dialog.close()


STATES_SETUP = {
    "scenario": True, "seed": 1,
    "players": [
        {"name": "A", "servant": {"hero": "H-012", "class": "キャスター", "state": "down"},
         "seat": [{"card": "M-006", "state": "down"}, {"card": "S-001", "state": "reverse"}],
         "hand": ["S-003"], "coins": {"assassination": 2}},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー", "state": "danger"}},
        {"name": "C", "servant": {"hero": "H-001", "class": "セイバー", "state": "rise"}},
        {"name": "D", "servant": {"hero": "H-008", "class": "ライダー", "state": "reverse"}},
    ],
    "start": {"player": "A", "step": "combat"},
}


def states_game(errata: bool = True) -> Game:
    rules = RuleSet.from_errata(errata, load_profile())
    return Game(load_card_db(rules=rules), rules, STATES_SETUP)


def overlay_up(win: MainWindow) -> bool:
    return not win.overlay.isHidden()


def play_to_end(qtbot, win: MainWindow, seed: int) -> int:
    """Click through a game: confirm each hand-off, then a random shown action (spells last)."""
    rng = random.Random(seed)
    clicks = 0
    game = win.controller.game
    while not game.state.over and clicks < MAX_CLICKS:
        if overlay_up(win):
            assert not win.hand.face_up(), "a hand is face up behind the hand-off screen"
            qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
        elif not win.prompt_overlay.isHidden():
            assert not win.hand.face_up(), "a hand is face up behind the table's shared prompt"
            qtbot.mouseClick(win.prompt_overlay.nobody, Qt.MouseButton.LeftButton)
        else:
            shown = win.actions.non_spell_buttons() or win.actions.buttons
            assert shown, "the deciding player has no button to press"
            button, _ = rng.choice(shown)
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        clicks += 1
    return clicks


@pytest.mark.parametrize("players,seed", [(2, 4), (4, 2)])
def test_full_game_through_the_gui(qtbot, make_window, players, seed):
    names = ["A", "B", "C", "D", "E", "F", "G"][:players]
    win = make_window(names=names, seed=seed)
    clicks = play_to_end(qtbot, win, seed)
    game = win.controller.game
    assert game.state.over, f"no winner after {clicks} clicks"
    assert len(game.history) > 10
    # game over: the dialog names the winner (or says there is none) and offers a new game
    box = win.game_over_dialog
    assert box is not None and box.isVisible()
    out = game.outcome()
    expected = i18n.tr("gameover.winner", name=out.winner_name) if out.winner_name else i18n.tr("gameover.no_winner")
    assert box.text() == expected
    assert box.new_game_button is not None
    assert not overlay_up(win)
    assert win.actions.buttons == []


def test_game_over_and_a_pile_follow_a_change_of_language(qtbot, make_window, tmp_path, monkeypatch,
                                                         request):
    """View → Language at the end of a game: the game-over dialog and an open discard pile speak
    the new language at once (the pile's cards drawn again, its zoom still there)."""
    from fate_royal.qt.app import install_qt_translations

    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "settings.ini"))
    request.addfinalizer(lambda: install_qt_translations("en"))
    win = make_window(names=["A", "B"], seed=4)
    play_to_end(qtbot, win, 4)
    box = win.game_over_dialog
    assert box is not None and box.isVisible()
    win.open_pile("discard")
    pile = win.pile_dialog
    cards = list(pile.cards)
    assert cards, "the discard pile of a finished game is empty"
    before = (box.text(), box.rows, box.close_button.text(), pile.windowTitle(),
              [pile.list.item(i).text() for i in range(pile.list.count())])
    win.lang_actions["en"].trigger()
    QApplication.processEvents()
    out = win.controller.game.outcome()
    assert box.text() == (i18n.tr("gameover.winner", name=out.winner_name) if out.winner_name
                          else i18n.tr("gameover.no_winner"))
    assert box.close_button.text() == i18n.tr("gameover.close") != before[2]
    assert [r[1] for r in box.rows] != [r[1] for r in before[1]]  # "勝利" / "Won", …
    assert pile.windowTitle() != before[3] and pile.cards == cards
    assert [pile.list.item(i).text() for i in range(pile.list.count())] != before[4]
    assert pile.zoom is not None
    win.lang_actions["ja"].trigger()
    QApplication.processEvents()
    assert (box.text(), box.rows, box.close_button.text(), pile.windowTitle(),
            [pile.list.item(i).text() for i in range(pile.list.count())]) == before


def test_the_log_never_scrolls_sideways(qtbot, make_window):
    """The log wraps every line at its width: seven players in English at 1280 x 800 showed a
    sideways scroll bar under it from turn 3 on (a line's fractional width left a 1-pixel
    range)."""
    i18n.set_language("en")
    try:
        win = make_window(names=["あかり", "Bob", "ちひろ", "Dan", "えみ", "Fay", "ごう"], seed=52,
                          size=(1280, 800))
        rng = random.Random(52)
        game = win.controller.game
        while game.state.turn <= 4 and not game.state.over:
            win.refresh()
            QApplication.processEvents()
            assert not win.log.horizontalScrollBar().isVisible(), game.state.turn
            if overlay_up(win):
                qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
            elif not win.prompt_overlay.isHidden():
                qtbot.mouseClick(win.prompt_overlay.nobody, Qt.MouseButton.LeftButton)
            else:
                button, _ = rng.choice(win.actions.non_spell_buttons() or win.actions.buttons)
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    finally:
        i18n.set_language("ja")


def _screen_text_px(win) -> tuple[float, float, float]:
    o = win.overlay
    return o.title.font().pointSizeF(), o.sub.font().pointSizeF(), o.button.font().pointSizeF()


def test_the_handoff_screen_is_sized_for_the_window_whether_the_game_starts_before_or_after_it_shows(
        qtbot, make_window):
    """`fate-royal --players N` deals before the window shows: the screen's text was sized for
    a 400-pixel window (about 22 px at 1280 x 800, 40 px when the game started after)."""
    before = make_window(names=["A", "B", "C"], seed=5, show=False, size=(1280, 800))
    before.show()
    qtbot.waitExposed(before)
    after = make_window(names=["A", "B", "C"], seed=5, show=True, size=(1280, 800))
    assert overlay_up(before) and overlay_up(after)
    assert before.overlay.height() == after.overlay.height() == before.height()
    assert _screen_text_px(before) == _screen_text_px(after)
    assert _screen_text_px(before)[0] == pytest.approx(before.height() / 26)
    # and it follows the window's size, like the shared prompt's text
    before.resize(1024, 700)
    qtbot.waitUntil(lambda: before.overlay.height() == before.height())
    assert _screen_text_px(before)[0] == pytest.approx(before.height() / 26)


def test_the_shared_prompt_follows_the_window_s_size(qtbot, make_window):
    win = make_window(names=["A", "B", "C"], seed=5, size=(1280, 800))
    win.prompt_overlay.setGeometry(win.rect())
    win.prompt_overlay.show()
    win.resize(1600, 1000)
    qtbot.waitUntil(lambda: win.prompt_overlay.height() == win.height())
    assert win.prompt_overlay.what.font().pointSizeF() == pytest.approx(win.height() / 34)


def test_handoff_hides_the_hand_until_confirmed(qtbot, make_window):
    win = make_window(names=["A", "B", "C"], seed=5)
    c = win.controller
    deciding = c.game.pending.player
    assert overlay_up(win)
    assert win.overlay.name == c.game.player_name(deciding)
    assert c.game.player_name(deciding) in win.overlay.title.text()
    # nothing private is drawn: the hand shows backs, the action panel lists nothing
    hand = win.hand.records()
    assert hand and all(not d.face_up and d.card_id is None for d in hand)
    assert win.actions.buttons == []
    for d in win.table.records():
        if d.role in ("hero", "class") and d.state == "reverse":
            assert not d.face_up and d.card_id is None
    qtbot.keyClick(win.overlay, Qt.Key.Key_Return)
    assert not overlay_up(win)
    hand = win.hand.records()
    assert hand and all(d.face_up and d.card_id for d in hand)
    assert [d.uid for d in hand] == c.game.state.players[deciding].hand
    # own Reverse servant is shown to its owner, others' stay face down
    for d in win.table.records():
        if d.role == "hero" and d.state == "reverse":
            assert d.face_up == (d.owner == deciding)
    assert win.actions.buttons


def test_handoff_again_when_the_deciding_player_changes(qtbot, make_window):
    win = make_window(names=["A", "B"], seed=4)
    c = win.controller
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
    first = c.game.pending.player
    for _ in range(200):
        if c.game.pending.player != first:
            break
        if overlay_up(win):
            qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
        qtbot.keyClick(win, Qt.Key.Key_Space)  # pass (Space)
    assert c.game.pending.player != first
    assert overlay_up(win)
    assert not win.hand.face_up()


def test_ask_everyone_sets_every_players_stop_and_is_recorded(qtbot, make_window):
    win = make_window(names=["A", "B"], seed=1)
    g = win.controller.game
    assert g.options["auto_pass"] is False  # a live table: the policy, not the engine, passes
    win.act_ask_all.setChecked(True)
    assert g.options["stops"] == {"0": ["every_window"], "1": ["every_window"]}
    win.act_ask_all.setChecked(False)
    assert not g.options["stops"]
    # the option is part of the game: recorded where it changed
    assert [e.key for e in g.entries if e.kind == "option"][-2:] == ["stops", "stops"]


def test_each_card_state_is_drawn_with_its_orientation(qtbot, make_window):
    win = make_window(states_game())
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)  # A decides
    recs = {(d.owner, d.role, d.card_id or d.uid): d for d in win.table.records() if d.owner is not None}
    by_owner = {}
    for d in win.table.records():
        if d.role == "hero":
            by_owner[d.owner] = d
    a, b, c, d = (by_owner[i] for i in range(4))
    assert (a.state, a.rotation, a.face_up) == ("down", 90, True)  # Down: sideways
    assert (b.state, b.rotation, b.face_up) == ("danger", 180, True)  # Danger: upside down
    assert (c.state, c.rotation, c.face_up) == ("rise", 0, True)  # Rise: upright
    assert (d.state, d.rotation, d.face_up, d.card_id) == ("reverse", 0, False, None)  # Reverse: a back
    codes = [r for r in win.table.records() if r.role == "code" and r.owner == 0]
    down_code = next(r for r in codes if r.card_id == "M-006")
    assert (down_code.state, down_code.rotation) == ("down", 90)
    scene = next(r for r in codes if r.state == "reverse")
    assert scene.face_up  # its owner A is looking
    # the paint pass runs over the same records without error
    win.table.repaint()
    assert recs


def test_reverse_seat_cards_are_hidden_from_other_players(qtbot, make_window):
    game = states_game()
    win = make_window(game)
    c = win.controller
    c.viewer = 1  # pretend B confirmed a hand-off (B is not deciding: private_viewer is None)
    for d in win.table.records():
        if d.state == "reverse" and d.owner != c.private_viewer():
            assert not d.face_up and d.card_id is None


def test_refused_raid_shows_reason_and_rule(qtbot, make_window):
    win = make_window(states_game())
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
    assert not any(isinstance(a, DeclareRaid) for _, a in win.actions.buttons)
    assert win.actions.blocked_buttons, "a Down servant's raids should be listed as not allowed"
    button, action = win.actions.blocked_buttons[0]
    assert "E1.4" in button.text()
    before = win.controller.game.state.to_dict()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert not win.messages.isHidden()
    assert "E1.4" in win.messages.plain
    assert i18n.tr("reason.servant_down") in win.messages.plain  # the reason in words
    assert "servant_down" not in win.messages.plain  # not the engine's code
    assert win.controller.last_error == ("servant_down", "E1.4")
    assert win.controller.game.state.to_dict() == before  # the engine left the state untouched
    # the rule id in the message opens the rule's text
    win.messages.linkActivated.emit("rule:E1.4")
    assert win.rule_panel.rule_id == "E1.4"


def test_card_menu_lists_actions_and_unusable_effects_with_rule(qtbot, make_window):
    win = make_window(states_game())
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
    g = win.controller.game
    hero = g.state.players[0].hero
    menu = win.card_menu(hero)
    texts_ = [a.text() for a in menu.actions()]
    blocked = [a for a in menu.actions() if not a.isEnabled() and "✕" in a.text()]
    assert blocked, texts_
    assert all("(" in a.text() for a in blocked)
    # a hand card's menu offers its legal actions, and choosing one applies it
    scene = g.state.players[0].hand[0]
    hand_menu = win.card_menu(scene)
    usable = [a for a in hand_menu.actions() if a.isEnabled() and not a.isSeparator() and a.text()]
    legal_for_card = win.controller.actions_for_card(scene)
    assert len(usable) >= len(legal_for_card)
    if legal_for_card:
        n = len(g.history)
        usable[0].trigger()
        assert len(g.history) == n + 1


def test_log_shows_rule_ids_and_clicking_one_shows_the_rule(qtbot, make_window):
    from fate_royal.cards.reference import reference

    win = make_window(names=["A", "B"], seed=1)
    html = win.log.toHtml()
    assert 'href="rule:D2"' in html
    assert "D2" in win.log.toPlainText()
    win.log.anchorClicked.emit(QUrl("rule:E1.4"))
    assert not win.rule_panel.isHidden()
    assert win.rule_panel.rule_id == "E1.4"
    assert reference().get("E1.4").text("ja") in win.rule_panel.text()
    i18n.set_language("en")
    try:
        win.log.anchorClicked.emit(QUrl("rule:E1.4"))
        assert reference().get("E1.4").text("en") in win.rule_panel.text()
    finally:
        i18n.set_language("ja")


def test_the_log_stays_at_its_newest_line_when_the_window_changes_size(qtbot, make_window):
    """Read at its end, the log keeps its last line in view when the window is resized (lines wrap
    anew); scrolled back, it stays where the reader left it."""
    rules = RuleSet.house()
    g = Game.new(load_card_db(rules=rules), rules, ["A", "B", "C", "D"], seed=3)
    while len(g.history) < 40 and g.outcome() is None:
        g.apply(g.legal_actions()[0])
    win = make_window(g, size=(1920, 1080))
    qtbot.wait(50)
    bar = win.log.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() == bar.maximum()
    win.resize(1280, 720)
    qtbot.wait(50)
    assert bar.value() == bar.maximum()
    bar.setValue(0)
    win.resize(1920, 1080)
    qtbot.wait(50)
    assert bar.value() == 0


def test_keyboard_shortcuts(qtbot, make_window):
    win = make_window(names=["A", "B"], seed=4)
    g = win.controller.game
    qtbot.keyClick(win, Qt.Key.Key_Return)  # confirm the hand-off
    assert not overlay_up(win)
    n = len(g.history)
    before = g.ctx.s.to_dict()
    assert any(isinstance(a, Pass) for _, a in win.actions.buttons)
    qtbot.keyClick(win, Qt.Key.Key_1)  # the first button (pass)
    assert len(g.history) > n and g.history[n] == Pass(g.history[n].player)
    after = g.ctx.s.to_dict()
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo
    assert len(g.history) == n and g.ctx.s.to_dict() == before
    qtbot.keyClick(win, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert g.ctx.s.to_dict() == after  # redo: the pass, and the table passes for the others again


def test_engine_exception_becomes_a_message(qtbot, make_window, monkeypatch):
    win = make_window(names=["A", "B"], seed=4)
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)

    def boom(action):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(win.controller.game, "apply", boom)
    button, _ = win.actions.buttons[0]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)  # must not raise into Qt
    assert "kaboom" in win.messages.plain


def test_new_game_dialog_settings(qtbot):
    from fate_royal.qt.dialogs import NewGameDialog

    fonts.install_fonts()
    dlg = NewGameDialog(players=3, errata=False, seed=42)
    qtbot.addWidget(dlg)
    dlg.count.setValue(5)
    dlg.name_edits[4].setText("ゼロ")
    dlg.assignment.setCurrentIndex(1)
    st = dlg.settings()
    assert len(st.names) == 5 and st.names[4] == "ゼロ"
    assert (st.seed, st.errata, st.assignment) == (42, False, "choose")
    # a name left blank plays as P<n>, and the blank field says so before the game starts
    dlg.name_edits[1].setText("   ")
    assert dlg.name_edits[1].placeholderText() == "P2" and dlg.settings().names[1] == "P2"
    dlg.name_edits[2].setText("あ" * 40)  # a name fits the seat's header
    assert dlg.settings().names[2] == "あ" * 16


def test_the_new_game_dialog_refuses_the_names_the_engine_refuses(qtbot):
    """A name with an invisible character, or two names that read the same ("A" and the
    full-width "Ａ"), are refused in the dialog with a message, before any game starts."""
    from fate_royal.qt.dialogs import NewGameDialog

    fonts.install_fonts()
    dlg = NewGameDialog(players=2, seed=1)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.name_edits[0].setText("A\u200bB")
    dlg._accept()
    assert dlg.result() == 0 and not dlg.error.isHidden()
    assert "名前に使えません" in dlg.error.text() and "16" in dlg.error.text()
    dlg.name_edits[0].setText("A")
    dlg.name_edits[1].setText("Ａ")
    dlg._accept()
    assert dlg.result() == 0 and dlg.error.text() == "プレイヤー名は重複できません。"
    dlg.name_edits[1].setText("B")
    dlg._accept()
    assert dlg.result() == 1


def test_remembered_names_the_engine_refuses_are_not_offered(tmp_path, monkeypatch):
    from fate_royal.qt.settings import settings

    monkeypatch.setenv("FATE_ROYAL_SETTINGS", str(tmp_path / "s.ini"))
    settings().remember_names(["アリス", "B ", "アリス", "ア" * 40, "ボブ"])
    assert settings().player_names() == ["アリス", "ボブ"]


def test_choose_servants_through_the_panel(qtbot, make_window):
    win = make_window(names=["A", "B"], seed=3)
    assert win.controller.new_game(["A", "B"], seed=3, assignment="choose")
    g = win.controller.game
    assert g.pending.kind == "choose_hero"
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
    labels = [b.text() for b, _ in win.actions.buttons]
    assert labels and all("[" not in t for t in labels)
    qtbot.mouseClick(win.actions.buttons[0][0], Qt.MouseButton.LeftButton)
    assert g.pending.kind == "choose_class"


def test_pile_browser_and_window_scaling(qtbot, make_window):
    win = make_window(states_game(), size=(1920, 1080))
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
    big = {d.uid: d.bounds for d in win.table.records() if d.role == "hero"}
    win.resize(1280, 720)
    qtbot.wait(10)
    small = {d.uid: d.bounds for d in win.table.records() if d.role == "hero"}
    assert big.keys() == small.keys()
    win.open_pile("discard")
    assert win.pile_dialog.isVisible()
    win.pile_dialog.close()


@pytest.mark.parametrize("argv", [
    ["--players", "2", "--seed", "1"],
    ["--players", "7", "--seed", "3", "--size", "1280x720"],
    ["--players", "4", "--no-errata", "--lang", "en", "--size", "1920x1080"],
    ["--scenario", "scenarios/rulings/E1.4-down-servant.yaml"],
])
def test_screenshot_command_line(qapp, tmp_path, argv, monkeypatch):
    from pathlib import Path

    from fate_royal.cli import gui_parser
    from fate_royal.qt.app import run_app

    root = Path(__file__).resolve().parents[2]
    argv = [str(root / a) if a.startswith("scenarios/") else a for a in argv]
    out = tmp_path / "table.png"
    args = gui_parser().parse_args(argv + ["--screenshot", str(out)])
    try:
        assert run_app(args) == 0
    finally:
        i18n.set_language("ja")
    from PySide6.QtGui import QImage

    image = QImage(str(out))
    assert not image.isNull()
    if "--size" in argv:
        w, h = argv[argv.index("--size") + 1].split("x")
        assert (image.width(), image.height()) == (int(w), int(h))


def test_screenshot_with_a_bad_scenario_fails_cleanly(qapp, tmp_path, capsys):
    from fate_royal.cli import gui_parser
    from fate_royal.qt.app import run_app

    bad = tmp_path / "bad.yaml"
    bad.write_text("players: [\n", encoding="utf-8")
    args = gui_parser().parse_args(["--scenario", str(bad), "--screenshot", str(tmp_path / "x.png")])
    assert run_app(args) == 1
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "Traceback" not in err


def test_every_action_is_reachable_by_keyboard_even_past_nine(qtbot, make_window):
    """Keys 1–9 take the first nine actions; ↑/↓ move a cursor over all of them (the table
    highlights the action under it) and Enter takes it — the tenth and later included."""
    import random

    win = None
    for seed in range(1, 30):
        win = make_window(names=["A", "B", "C"], seed=seed, show=seed == 1)
        c = win.controller
        rng = random.Random(seed)
        for _ in range(600):
            if c.game.state.over:
                break
            if c.handoff_needed():
                c.confirm_handoff()
            elif c.shared_prompt() is not None:
                c.nobody_responds()
            elif len(win.actions.buttons) >= 11:
                break
            else:
                acts = c.legal_actions()
                c.submit(rng.choice([a for a in acts if a.kind != "spell"] or acts))
        if len(win.actions.buttons) >= 11 and not c.handoff_needed():
            break
    buttons = win.actions.buttons
    assert len(buttons) >= 11, "no position with more than ten actions"
    hovered = []
    win.actions.action_hovered.connect(hovered.append)
    for _ in range(10):
        qtbot.keyClick(win, Qt.Key.Key_Down)
    assert win.actions.cursor == 9 and hovered[-1] == buttons[9][1]
    assert buttons[9][0].property("keyboard") == "true"
    qtbot.keyClick(win, Qt.Key.Key_Up)
    qtbot.keyClick(win, Qt.Key.Key_Down)
    tenth = buttons[9][1]
    g = win.controller.game
    n = len(g.history)
    qtbot.keyClick(win, Qt.Key.Key_Return)
    assert g.history[n] == tenth  # the tenth action, taken by keyboard alone
    assert win.actions.cursor is None  # new actions: the cursor starts again
    combo = win.log_bar.player_filter  # a widget that uses the arrows keeps them
    before = combo.currentIndex()
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert win.actions.cursor is None and combo.currentIndex() != before


def test_a_game_that_cannot_be_set_up_says_why_in_the_table_s_language(qapp):
    """Bad data for a new game is the user's, not an internal error: the table said
    "内部エラー：two players are called 'A'"."""
    c = GameController()
    said = []
    c.message.connect(lambda text, level, *_: said.append((level, text)))
    i18n.set_language("ja")
    assert not c.new_game(["A", "A"], seed=1)
    assert c.setup_error == "player 2: two players are called 'A'"  # as logged
    assert said[-1] == ("error", "ゲームを始められません：\n\n2人目のプレイヤー：プレイヤー名「A」が2人います")
    i18n.set_language("en")
    try:
        assert not c.new_game(["A", "A"], seed=1)
        assert said[-1] == ("error", "Cannot start the game:\n\nplayer 2: two players are called 'A'")
    finally:
        i18n.set_language("ja")


def _hidden_faces(view) -> int:
    return sum(1 for p in view.players for cv in (p.hero, p.klass, *p.seat, *p.hand)
               if cv is not None and not cv.known)


def test_a_finished_game_turns_every_card_face_up_when_the_table_asks(qtbot, make_window):
    """Game over: the dialog's "show every card" turns the face-down servants and the hands face
    up on the table (never before the end), and face down again; a hot-seat table then cannot
    undo back into play (every hand was seen); a new game starts hidden."""
    win = make_window(names=["A", "B", "C", "D"], seed=2)
    ctl = win.controller
    assert not ctl.show_all_cards(), "a live game's cards were turned face up"
    assert not ctl.cards_shown()
    play_to_end(qtbot, win, 2)
    box = win.game_over_dialog
    assert box is not None and box.isVisible()
    before = _hidden_faces(ctl.table_view())
    assert before > 0, "this finished game hides nothing: pick another seed"
    drawn = sum(d.face_up for d in win.table.records())
    assert box.cards_button.text() == i18n.tr("gameover.show_cards")
    qtbot.mouseClick(box.cards_button, Qt.MouseButton.LeftButton)
    assert ctl.cards_shown() and box.cards_button.isChecked()
    assert _hidden_faces(ctl.table_view()) == 0
    assert sum(d.face_up for d in win.table.records()) > drawn, "the table still draws backs"
    assert box.cards_button.text() == i18n.tr("gameover.hide_cards")
    winner = ctl.game.state.winner
    assert win.hand.owner() == winner  # the hand strip holds the winner's hand, face up
    assert len(ctl.game.state.players[winner].hand) > 0 and win.hand.face_up()
    qtbot.mouseClick(box.cards_button, Qt.MouseButton.LeftButton)  # face down again
    assert not win.hand.face_up()
    assert not ctl.cards_shown() and _hidden_faces(ctl.table_view()) == before
    assert not ctl.can_undo() and not ctl.undo(), "a game whose cards were all seen went back into play"
    assert ctl.new_game(["A", "B"], seed=3)
    assert not ctl.cards_shown() and _hidden_faces(ctl.table_view()) > 0


def test_shown_cards_follow_undo_and_redo_where_undo_is_open(qtbot):
    """Where undo is open (a table without hand-offs), an undo back into play hides the cards
    again and a redo to the end shows them again."""
    from fate_royal.rules.view import view

    ctl = GameController()
    ctl.auto_handoff = True
    assert ctl.new_game(["A", "B", "C"], seed=5)
    rng = random.Random(5)
    g = ctl.game
    while not g.state.over:
        assert ctl.submit(rng.choice(g.legal_actions()))
    table = view(g, None)
    assert _hidden_faces(table) > 0
    assert ctl.show_all_cards() and _hidden_faces(ctl.table_view()) == 0
    assert ctl.undo() and not ctl.cards_shown()
    assert ctl.table_view() == view(ctl.game, ctl.private_viewer()), "an undo kept the cards face up"
    assert ctl.redo() and ctl.cards_shown() and _hidden_faces(ctl.table_view()) == 0
    # the next game: the finished one is not kept alive by having been shown
    import gc
    import weakref

    gone = weakref.ref(ctl.game)
    g = None
    assert ctl.new_game(["A", "B"], seed=6) and not ctl.cards_shown()
    gc.collect()
    assert gone() is None, "the shown game outlived the next one"
