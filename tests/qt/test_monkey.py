"""GUI monkey test: thousands of random legal clicks through the real widgets, across complete games.

No exception may escape, Qt may print no warning, and after every click the table must agree with
the engine: the same cards on each seat in the same states and orientations, dropped-out seats
empty, the hand face up only for the player who confirmed the hand-off.
"""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QtMsgType, Qt, qInstallMessageHandler

from fate_royal.qt import fonts, i18n
from fate_royal.qt.controller import GameController
from fate_royal.qt.table import ROTATION
from fate_royal.qt.window import MainWindow

TOTAL_CLICKS = 2500
#: What the offscreen platform plugin itself says about features it lacks: not the table's doing.
OFFSCREEN_PLATFORM_NOTES = {"This plugin does not support propagateSizeHints()"}
MAX_CLICKS_PER_GAME = 1200


@pytest.fixture
def qt_messages():
    caught: list[str] = []

    def handler(kind, context, message):
        if kind in (QtMsgType.QtWarningMsg, QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            if message in OFFSCREEN_PLATFORM_NOTES:
                return
            caught.append(f"{kind.name}: {message}")

    previous = qInstallMessageHandler(handler)
    yield caught
    qInstallMessageHandler(previous)


def _hidden_from(g, viewer):
    """Instance numbers whose face ``viewer`` (None: the whole table) must not see."""
    s = g.ctx.s
    hidden = set(s.deck) | set(s.box)
    for i, pl in enumerate(s.players):
        if i == viewer:
            continue
        hidden |= set(pl.hand)
        for uid in (pl.hero, pl.klass):
            if uid is not None and s.card_states.get(uid) == "reverse" and uid not in s.revealed:
                hidden.add(uid)
        hidden |= {u for u in pl.seat if s.card_states.get(u) == "reverse"
                   and g.card_of(u).kind == "scene"}
    return hidden


def table_agrees(win: MainWindow) -> list[str]:
    ctrl = win.controller
    g = ctrl.game
    s = g.ctx.s
    problems: list[str] = []
    records = win.table.records()
    viewer = ctrl.private_viewer()
    hidden = _hidden_from(g, viewer)
    for p, pl in enumerate(s.players):
        drawn = [d for d in records if d.owner == p and d.role in ("hero", "class", "code")]
        expected = [u for u in [pl.hero, pl.klass] + pl.seat if u is not None]
        if len(drawn) != len(expected):
            problems.append(f"seat {pl.name}: {len(drawn)} cards drawn, {len(expected)} in the engine")
            continue
        servant = s.card_states.get(pl.hero) if pl.hero is not None else None
        for uid, d in zip(expected, drawn):
            state = s.card_states.get(uid)
            if d.state != state:
                problems.append(f"{pl.name} #{uid}: drawn {d.state}, engine {state}")
            want = ROTATION[servant or "rise"] if d.role in ("hero", "class") else (
                90 if state == "down" else 0)
            if d.rotation != want:
                problems.append(f"{pl.name} #{uid}: rotation {d.rotation}, expected {want}")
            if uid in hidden and (d.uid is not None or d.card_id is not None or d.face_up):
                problems.append(f"{pl.name}: a card hidden from {viewer} is drawn with its face")
            if uid not in hidden and d.uid != uid:
                problems.append(f"{pl.name} #{uid}: a visible card drawn as #{d.uid}")
    hand = win.hand.records()
    for d in hand:
        if d.face_up and d.owner != viewer:
            problems.append(f"hand of {s.players[d.owner].name} face up for viewer {viewer}")
    if hand and viewer is not None and hand[0].owner == viewer:
        if len(hand) != len(s.players[viewer].hand):
            problems.append("the viewer's hand is not drawn whole")
    if ctrl.handoff_needed() and not s.over and win.overlay.isHidden():
        problems.append("a hand-off is pending but the overlay is hidden")
    if ctrl.shared_prompt() is not None and win.prompt_overlay.isHidden():
        problems.append("a shared prompt is pending but not shown")
    return problems


def random_click(qtbot, win: MainWindow, rng: random.Random) -> None:
    if not win.overlay.isHidden():
        qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
        return
    if not win.prompt_overlay.isHidden():  # the table's "anyone?": someone claims, or nobody
        buttons = [b for b, _seat in win.prompt_overlay.seat_buttons]
        if buttons and rng.random() < 0.3:
            qtbot.mouseClick(rng.choice(buttons), Qt.MouseButton.LeftButton)
        else:
            qtbot.mouseClick(win.prompt_overlay.nobody, Qt.MouseButton.LeftButton)
        return
    roll = rng.random()
    if roll < 0.12:  # a card on the table: open its menu and pick one of its entries
        cards = [d for d in win.table.records() + win.hand.records() if d.uid is not None]
        if cards:
            menu = win.card_menu(rng.choice(cards).uid)
            entries = [a for a in menu.actions() if a.isEnabled() and not a.isSeparator()]
            if entries:
                rng.choice(entries).trigger()
            menu.deleteLater()
            return
    if roll < 0.16 and win.actions.blocked_buttons:  # a refused action: a message, no change
        before = win.controller.game.ctx.s.to_dict()
        qtbot.mouseClick(rng.choice(win.actions.blocked_buttons)[0], Qt.MouseButton.LeftButton)
        assert win.controller.game.ctx.s.to_dict() == before
        return
    if roll < 0.2 and win.actions.private_button is not None:
        qtbot.mouseClick(win.actions.private_button, Qt.MouseButton.LeftButton)
        return
    shown = win.actions.buttons
    plain = win.actions.non_spell_buttons()
    pool = plain if plain and rng.random() < 0.97 else shown
    assert pool, "the deciding player has no button"
    qtbot.mouseClick(rng.choice(pool)[0], Qt.MouseButton.LeftButton)


def test_thousands_of_random_clicks(qtbot, qt_messages):
    fonts.install_fonts()
    i18n.set_language("ja")
    rng = random.Random(20261202)
    clicks = games = 0
    while clicks < TOTAL_CLICKS:
        controller = GameController()
        internal: list[BaseException] = []
        original = controller._internal

        def record(exc, original=original, internal=internal):
            internal.append(exc)
            original(exc)

        controller._internal = record
        win = MainWindow(controller)
        qtbot.addWidget(win)
        win.resize(rng.choice([(1280, 720), (1600, 900), (1920, 1080)])[0],
                   rng.choice([720, 900]))
        win.show()
        players = rng.randint(2, 7)
        assert controller.new_game([f"P{i + 1}" for i in range(players)], seed=rng.randrange(10**6),
                                   errata=rng.random() < 0.6)
        in_game = 0
        while not controller.game.ctx.s.over and in_game < MAX_CLICKS_PER_GAME:
            random_click(qtbot, win, rng)
            in_game += 1
            problems = table_agrees(win)
            assert problems == [], f"after click {clicks + in_game}: {problems}"
            assert internal == [], f"engine error behind the GUI: {internal!r}"
        clicks += in_game
        games += 1
        if win.game_over_dialog is not None:
            win.game_over_dialog.close()
        win.close()
    assert qt_messages == [], qt_messages
    assert games >= 2
