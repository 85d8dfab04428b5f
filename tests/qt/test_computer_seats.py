"""Computer seats at the table (fate_royal.qt.computer): a person plays three computers to the end
through the window; the computers think off the GUI thread; undo goes back to the person's last
decision; closing the window while a computer thinks does nothing harmful; seats can change."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import Qt

from fate_royal.qt import fonts, i18n
from fate_royal.qt.controller import GameController
from fate_royal.qt.window import MainWindow
from fate_royal.rules.actions import Pass

MAX_STEPS = 20000


@pytest.fixture
def table(qtbot):
    fonts.install_fonts()
    i18n.set_language("en")
    made = []

    def make(names, seats, seed=1, speed="instant"):
        controller = GameController()
        win = MainWindow(controller)
        qtbot.addWidget(win)
        win.resize(1280, 720)
        win.show()
        assert controller.new_game(names, seed=seed, seats=seats)
        if controller.computers is not None:
            controller.computers.set_speed(speed)
        made.append(win)
        return win

    yield make
    for win in made:
        win.controller.shutdown()
        if win.game_over_dialog is not None:
            win.game_over_dialog.close()


def person_moves(qtbot, win, rng) -> bool:
    """The person at the table does what the screen asks (a hand-off, the shared prompt, or a
    random shown action). False when the screen asks nothing of a person."""
    if not win.overlay.isHidden():
        assert win.controller.prompt.player == 0
        qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
        return True
    if not win.prompt_overlay.isHidden():
        assert set(win.controller.prompt.candidates) <= {0}  # only the human seat is asked
        qtbot.mouseClick(win.prompt_overlay.nobody, Qt.MouseButton.LeftButton)
        return True
    shown = win.actions.non_spell_buttons() or win.actions.buttons
    if shown:
        button, _ = rng.choice(shown)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        return True
    return False


def test_one_person_against_three_computers_to_the_end(qtbot, table):
    win = table(["Ann", "Bot1", "Bot2", "Bot3"], {0: "human", 1: "basic", 2: "random", 3: "basic"},
                seed=2)
    c = win.controller
    game = c.game
    assert game.options["seats"] == {"0": "human", "1": "basic", "2": "random", "3": "basic"}
    rng = random.Random(2)
    seen_thinking = set()
    c.computers.thinking.connect(lambda seat: seen_thinking.add(seat))
    steps = 0
    while not game.state.over and steps < MAX_STEPS:
        p = c.prompt
        if p is not None and p.kind == "computer":
            assert p.player in (1, 2, 3)
            assert win.actions.buttons == []  # nothing for people to press meanwhile
            assert c.private_viewer() == 0  # Ann's own cards stay in view; a computer's never
            qtbot.wait(2)
        else:
            # the person is asked: no computer thinks now, and the banner says none does (it
            # used to keep "Bot1 is thinking…" up after a computer thought and then passed)
            assert c.computers.thinking_seat() is None
            assert not win.messages.plain.endswith("is thinking…"), win.messages.plain
            # nobody to hand the computer to: no hand-off screen, Ann's hand always face up
            assert win.overlay.isHidden() and c.private_viewer() == 0
            person_moves(qtbot, win, rng)
        steps += 1
    assert game.state.over, f"no end after {steps} steps"
    assert {1, 3} & seen_thinking
    players = {a.player for a in game.history if not isinstance(a, Pass)}
    assert {1, 3} & players  # computers made moves of their own
    assert game.history  # the moves are in the record and so in the log panel
    assert c.hotseat.count.handoffs == 0
    qtbot.waitUntil(lambda: win.game_over_dialog is not None, timeout=5000)
    # the end: "show every card" puts the winner's hand in the strip (not the person's own)
    qtbot.mouseClick(win.game_over_dialog.cards_button, Qt.MouseButton.LeftButton)
    assert c.cards_shown() and win.hand.owner() == game.state.winner
    assert c.can_undo()  # one person against computers: taking the end back hides nothing from anyone


def test_undo_returns_to_the_persons_last_decision(qtbot, table):
    win = table(["Ann", "Bot"], {0: "human", 1: "basic"}, seed=4)
    c = win.controller
    game = c.game
    rng = random.Random(1)
    for _ in range(400):
        if game.state.over:
            pytest.skip("the game ended before the computer moved after the person")
        p = c.prompt
        if p is not None and p.kind == "computer":
            qtbot.wait(2)
            continue
        if c._decisions and any(a.player == 1 for a in game.history[c._decisions[-1]:]):
            break
        person_moves(qtbot, win, rng)
    else:
        pytest.skip("no computer move after a decision of the person")
    qtbot.waitUntil(lambda: c.prompt is None or c.prompt.kind != "computer", timeout=10000)
    target = c._decisions[-1]
    assert c.can_undo()
    assert c.undo()
    assert len(game.history) == target
    assert c.prompt.kind != "computer" and c.prompt.player == 0


def test_closing_the_window_while_a_computer_thinks(qtbot, table):
    win = table(["Bot1", "Bot2"], {0: "strong", 1: "strong"}, seed=3, speed="slow")
    c = win.controller
    seats = c.computers
    qtbot.waitUntil(seats.busy, timeout=5000)
    version = c.game.version
    win.close()
    assert seats.closed
    qtbot.wait(300)
    assert c.game.version == version  # the answer that came late changed nothing


def test_pause_and_step_a_game_of_computers(qtbot, table):
    win = table(["Bot1", "Bot2"], {0: "basic", 1: "basic"}, seed=5)
    c = win.controller
    seats = c.computers
    seats.set_paused(True)
    qtbot.wait(50)
    start = len(c.game.history)
    qtbot.wait(100)
    moved = len(c.game.history)
    qtbot.wait(100)
    assert len(c.game.history) == moved  # paused: nothing more happens
    seats.step()
    qtbot.waitUntil(lambda: any(not isinstance(a, Pass) for a in c.game.history[moved:])
                    or c.game.state.over, timeout=10000)
    qtbot.wait(50)
    after = len(c.game.history)
    qtbot.wait(100)
    assert len(c.game.history) == after  # one move, then paused again
    assert after > start or c.game.state.over
    seats.set_paused(False)
    qtbot.waitUntil(lambda: c.game.state.over, timeout=60000)


def test_the_computer_takes_over_a_seat(qtbot, table):
    win = table(["Ann", "Ben"], None, seed=6)
    c = win.controller
    assert c.computers is None or not c.computers.busy()
    menu = win.menu_seats
    menu.rebuild()
    assert len(menu.take_over_actions) == 2
    menu.take_over_actions[1].trigger()
    assert c.game.options["seats"]["1"] == "strong"
    assert c.hotseat.humans == {0}
    menu.rebuild()
    assert len(menu.take_over_actions) == 1


def test_new_game_dialog_chooses_who_plays_each_seat(qtbot):
    from fate_royal.qt.dialogs import NewGameDialog

    i18n.set_language("en")
    dlg = NewGameDialog(players=3)
    qtbot.addWidget(dlg)
    assert dlg.settings().seats is None  # everyone human: no seats option needed
    box = dlg.seat_boxes[2]
    box.setCurrentIndex(box.findData("strong"))
    assert dlg.settings().seats == {0: "human", 1: "human", 2: "strong"}
    assert dlg.seat_boxes[5].isHidden()


def test_without_hand_offs_a_computers_hand_is_never_the_one_shown(qtbot):
    """A screenshot or a demo shows the deciding seat's cards with no hand-off screen; when that
    seat is a computer in a game with people, a person's seat stays in view instead."""
    controller = GameController()
    controller.auto_handoff = True
    assert controller.new_game(["Ann", "Ben", "Cai"], seed=3, seats={0: "basic", 1: "human", 2: "basic"})
    try:
        assert controller.pending.player in (0, 2)  # a computer decides first ...
        assert controller.private_viewer() == 1  # ... and Ben's cards are the ones on screen
        view = controller.table_view()
        assert all(c.known for c in view.players[1].hand)
        assert not any(c.known for c in view.players[0].hand) and not any(c.known for c in view.players[2].hand)
    finally:
        controller.shutdown()
    everyone = GameController()
    everyone.auto_handoff = True
    assert everyone.new_game(["Ann", "Ben"], seed=3, seats={0: "basic", 1: "basic"})
    try:  # computers only: the deciding seat is shown, as in any demo
        assert everyone.private_viewer() == everyone.pending.player
    finally:
        everyone.shutdown()


def test_watching_computers_pause_next_move_and_resume_from_the_panel(qtbot, table):
    """A game of computers has its own buttons beside the table (no menu needed): pause, then
    one move at a time, then resume; the Seats menu's tick and keys follow the buttons."""
    win = table(["Bot1", "Bot2"], {0: "basic", 1: "basic"}, seed=5, speed="fast")
    c, panel, menu = win.controller, win.actions, win.menu_seats
    qtbot.waitUntil(lambda: len(panel.watch_buttons) == 1, timeout=5000)
    assert "Pause" in panel.watch_buttons[0].text() and "Ctrl+P" in panel.watch_buttons[0].text()
    qtbot.mouseClick(panel.watch_buttons[0], Qt.MouseButton.LeftButton)
    assert c.computers.paused and menu.act_pause.isChecked()
    qtbot.waitUntil(lambda: c.computers.thinking_seat() is None, timeout=10000)
    qtbot.waitUntil(lambda: len(panel.watch_buttons) == 2, timeout=5000)  # resume, next move
    assert "paused" in panel.header.text()
    assert "Resume" in panel.watch_buttons[0].text() and "Next move" in panel.watch_buttons[1].text()
    moved = len(c.game.history)
    qtbot.wait(200)
    assert len(c.game.history) == moved  # paused: nothing happens
    qtbot.mouseClick(panel.watch_buttons[1], Qt.MouseButton.LeftButton)  # one move
    qtbot.waitUntil(lambda: any(not isinstance(a, Pass) for a in c.game.history[moved:])
                    or c.game.state.over, timeout=10000)
    assert c.computers.paused
    qtbot.waitUntil(lambda: c.game.state.over or len(panel.watch_buttons) == 2, timeout=5000)
    if not c.game.state.over:
        qtbot.mouseClick(panel.watch_buttons[0], Qt.MouseButton.LeftButton)  # resume
        assert not c.computers.paused and not menu.act_pause.isChecked()
        qtbot.waitUntil(lambda: c.game.state.over, timeout=60000)
    assert panel.watch_buttons == []  # the game is over: nothing to watch
