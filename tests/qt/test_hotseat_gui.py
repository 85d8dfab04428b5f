"""Hot-seat play through the table (issue 11): a 4-player game to the end in which a player claims a
response on the shared screen and negates with a command spell; and a walk through every window,
dock, dialog, tooltip and menu reachable in a live game, at a hand-off and between hand-offs, that
no hidden card's face or identity reaches anyone but its owner."""

from __future__ import annotations

import random

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication, QDialog, QMenu, QWidget

from fate_royal.qt import fonts, i18n, rulings
from fate_royal.qt.controller import GameController
from fate_royal.qt.table import card_tooltip
from fate_royal.qt.window import MainWindow
from fate_royal.rules.actions import CommandSpell

MAX_CLICKS = 6000


@pytest.fixture
def window(qtbot):
    fonts.install_fonts()
    i18n.set_language("ja")
    made = []

    def make(names, seed):
        c = GameController()
        win = MainWindow(c)
        qtbot.addWidget(win)
        win.resize(1280, 800)
        f = rulings.install(win, c)
        f.show_dialogs = False
        f.keeper.ask = lambda kind, text, choices: {"close": "quit"}.get(kind, "cancel")
        win.show()
        assert c.new_game(names, seed=seed)
        made.append(win)
        return win, c, f

    yield make
    for win in made:
        if win.game_over_dialog is not None:
            win.game_over_dialog.close()


def test_four_players_to_the_end_one_claims_on_the_shared_screen_and_negates(qtbot, window):
    win, c, f = window(["A", "B", "C", "D"], seed=1)
    game = c.game
    rng = random.Random(1)
    claimed = negated = None
    handoffs = shared = 0
    clicks = 0
    while not game.state.over and clicks < MAX_CLICKS:
        clicks += 1
        win.refresh()
        if not win.overlay.isHidden():
            assert not win.hand.face_up(), "a hand is face up behind the hand-off screen"
            handoffs += 1
            qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
            continue
        if not win.prompt_overlay.isHidden():
            assert not win.hand.face_up(), "a hand is face up behind the table's shared prompt"
            shared += 1
            prompt = c.shared_prompt()
            if claimed is None and "stack" in prompt.about and win.prompt_overlay.seat_buttons:
                button, seat = win.prompt_overlay.seat_buttons[0]
                assert win.prompt_overlay.what.text()  # says what was put on the stack
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
                claimed = seat
                # only the claiming player is handed the computer
                assert c.handoff_needed() and c.handoff_player() == seat
            else:
                qtbot.mouseClick(win.prompt_overlay.nobody, Qt.MouseButton.LeftButton)
            continue
        buttons = win.actions.buttons
        assert buttons, "the deciding player has no button to press"
        spells = [(b, a) for b, a in buttons if isinstance(a, CommandSpell) and a.spell == "negate"]
        if claimed is not None and negated is None and spells and c.private_viewer() == claimed:
            button, action = spells[0]
            assert "#" in button.text() or button.toolTip()  # names the stack entry it negates
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
            negated = action
            continue
        shown = win.actions.non_spell_buttons() or buttons
        button, _ = rng.choice(shown)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert game.state.over, f"no winner after {clicks} clicks"
    assert claimed is not None and negated is not None, (claimed, negated)
    codes = [e.code for e in game.log]
    assert "CommandSpellNegated" in codes
    spell_events = [e for e in game.log if e.code == "CommandSpellNegated"]
    assert spell_events[0].args["player"] == claimed == negated.player
    turns = max(1, game.state.turn)
    assert handoffs / turns <= 4.0, (handoffs, turns)  # a few per turn, not fourteen
    box = win.game_over_dialog
    assert box is not None and box.isVisible()


# --------------------------------------------------------------------------- leaks


def _secrets(game, viewer):
    """(names, ids) of the cards hidden from ``viewer`` (None: the whole table) that the viewer
    has not seen: other players' hands, face-down servants and seat cards, the deck."""
    from fate_royal.rules.view import view

    seen = view(game, viewer)
    visible_uids = set()
    for sv in seen.players:
        for cv in [x for x in (sv.hero, sv.klass) if x is not None] + list(sv.seat) + list(sv.hand):
            if cv.known:
                visible_uids.add(cv.uid)
    for pile in (seen.discard, seen.grail, seen.removed):
        visible_uids.update(cv.uid for cv in pile)
    visible_ids = {cv.card_id for sv in seen.players
                   for cv in [x for x in (sv.hero, sv.klass) if x is not None] + list(sv.seat) + list(sv.hand)
                   if cv.known}
    visible_ids |= {cv.card_id for pile in (seen.discard, seen.grail, seen.removed) for cv in pile}
    visible_ids |= {getattr(x, "card_id", None) or getattr(x, "card", None) for x in seen.stack}
    visible_ids |= {e.card for e in seen.log if e.card}  # what the viewer was shown, e.g. a used card
    s = game.state
    hidden_ids = set()
    for p in s.players:
        for uid in list(p.hand) + list(p.seat) + [x for x in (p.hero, p.klass) if x is not None]:
            if uid not in visible_uids:
                hidden_ids.add(s.cards[uid])
    hidden_ids -= visible_ids  # a copy of the same card face up elsewhere is not a secret
    names = set()
    public_names = {game.db.cards[i].name for i in visible_ids if i in game.db.cards}
    for cid in hidden_ids:
        card = game.db.cards.get(cid)
        if card is not None and len(card.name) >= 3 and card.name not in public_names:
            names.add(card.name)
    return names, hidden_ids


def _texts_of(widget: QWidget, skip: tuple = ()) -> list[str]:
    """Every text a widget tree shows or exposes: labels, buttons, tooltips, accessible names,
    menus' actions, text browsers and list items (``skip``: widgets whose trees are left out)."""
    out = []
    skipped = set()
    for w in skip:
        skipped |= {id(x) for x in [w] + w.findChildren(QWidget)}
    for w in [widget] + widget.findChildren(QWidget):
        if not w.isVisible() or id(w) in skipped:
            continue
        for getter in ("text", "toolTip", "accessibleName", "accessibleDescription", "windowTitle",
                       "placeholderText", "toPlainText", "title"):
            fn = getattr(w, getter, None)
            if callable(fn):
                try:
                    value = fn()
                except TypeError:
                    continue
                if isinstance(value, str) and value:
                    out.append(value)
        for a in QWidget.actions(w):
            out += [a.text(), a.toolTip()]
        count = getattr(w, "count", None)
        item = getattr(w, "item", None)
        if callable(count) and callable(item):
            try:
                out += [item(i).text() for i in range(count()) if item(i) is not None]
            except (TypeError, AttributeError):
                pass
    return out


def _records_leak(win, game, viewer, hidden_ids):
    bad = []
    for view in (win.table, win.hand):
        for d in view.records():
            cid = getattr(d, "card_id", None)
            if d.face_up and cid in hidden_ids and d.owner != viewer:
                bad.append((type(view).__name__, cid, d.owner))
    return bad


def _check(win, c, where):
    game = c.game
    viewer = c.private_viewer()
    names, ids = _secrets(game, viewer)
    assert not _records_leak(win, game, viewer, ids), where
    # the inspector either shows the catalogue entry of a card someone chose from its list (every
    # card of the box, public knowledge) or an instance on the table the viewer may see
    inspector = win.rulings.inspector
    skip = ()
    if inspector.uid is None:
        skip = (inspector,)
    else:
        assert game.state.cards.get(inspector.uid) not in ids, f"{where}: the inspector shows a hidden card"
    texts = []
    for top in QApplication.topLevelWidgets():
        if top.isVisible():
            texts += _texts_of(top, skip)
    blob = "\n".join(texts)
    leaked = sorted(n for n in names if n in blob)
    where_seen = [t for t in texts if any(n in t for n in leaked)][:5]
    assert not leaked, f"{where}: hidden card(s) {leaked} shown to {viewer}: {where_seen} stack={c.table_view().stack}"


def _walk(qtbot, win, c, f, where):
    """Open everything a player can reach now, check, and close it again."""
    _check(win, c, where + " / table")
    # the log and the inspector (docked), the rule panel
    f.toggle_inspector()
    _check(win, c, where + " / inspector")
    f.toggle_inspector()
    # a card menu and a seat menu for every seat and every drawn card
    for d in list(win.table.records()) + list(win.hand.records()):
        if d.uid is None:
            continue
        menu = win.card_menu(d.uid)
        texts = [a.text() for a in menu.actions()] + [a.toolTip() for a in menu.actions()]
        names, _ = _secrets(c.game, c.private_viewer())
        assert not [n for n in names if any(n in t for t in texts)], f"{where} / card menu {d.uid}"
        menu.deleteLater()
    for seat in range(len(c.game.state.players)):
        menu = win.seat_menu(seat)
        texts = [a.text() for a in menu.actions()]
        names, _ = _secrets(c.game, c.private_viewer())
        assert not [n for n in names if any(n in t for t in texts)], f"{where} / seat menu {seat}"
        menu.deleteLater()
    # tooltips of the table: hover every card
    for d in list(win.table.records())[:40]:
        tip = card_tooltip(c.game, d)
        names, _ = _secrets(c.game, c.private_viewer())
        assert not [n for n in names if n in (tip or "")], f"{where} / tooltip"
    # piles
    for kind in ("discard", "deck", "grail"):
        win.open_pile(kind)
        _check(win, c, f"{where} / pile {kind}")
        for top in QApplication.topLevelWidgets():
            if isinstance(top, QDialog) and top.isVisible():
                top.close()
    # presenter and comparison: refused unless the table agrees
    f.keeper.ask = lambda kind, text, choices: {"close": "quit"}.get(kind, "cancel")
    presenter = f.open_presenter(full_screen=False)  # public until the table agrees (its button)
    if presenter is not None:
        _check(win, c, where + " / presenter")
        presenter.close()
    else:
        assert not win.overlay.isHidden()  # refused only behind the hand-off screen
    assert f.open_comparison() is None
    _check(win, c, where + " / after F5, Ctrl+E")


def test_no_window_dock_menu_or_tooltip_shows_a_hidden_card_to_the_wrong_player(qtbot, window):
    win, c, f = window(["A", "B", "C", "D"], seed=3)
    rng = random.Random(3)
    walked_handoff = walked_private = walked_table = 0
    for step in range(160):
        if c.game.state.over:
            break
        win.refresh()
        if not win.overlay.isHidden():
            if walked_handoff < 3:
                _walk(qtbot, win, c, f, f"hand-off {step}")
                walked_handoff += 1
            qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
            continue
        if not win.prompt_overlay.isHidden():
            if walked_table < 3:
                _walk(qtbot, win, c, f, f"shared prompt {step}")
                walked_table += 1
            qtbot.mouseClick(win.prompt_overlay.nobody, Qt.MouseButton.LeftButton)
            continue
        if c.private_viewer() is not None and walked_private < 4 and step % 7 == 0:
            _walk(qtbot, win, c, f, f"private {step}")
            walked_private += 1
        else:
            _check(win, c, f"step {step}")
        shown = win.actions.non_spell_buttons() or win.actions.buttons
        button, _ = rng.choice(shown)
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert walked_handoff and walked_private and walked_table, (walked_handoff, walked_private, walked_table)


def test_the_inspector_forgets_its_card_at_a_hand_off(qtbot, window):
    win, c, f = window(["A", "B", "C"], seed=5)
    if c.handoff_needed():
        c.confirm_handoff()
    win.refresh()
    viewer = c.private_viewer()
    assert viewer is not None
    own = [d for d in win.hand.records() if d.face_up and d.uid is not None]
    assert own
    f.inspect(uid=own[0].uid)
    assert f.inspector.uid == own[0].uid
    name = c.game.db.cards[own[0].card_id].name
    # play until someone else holds the screen
    rng = random.Random(5)
    for _ in range(300):
        if c.handoff_needed() and c.handoff_player() != viewer:
            break
        if c.handoff_needed():
            c.confirm_handoff()
        elif c.shared_prompt() is not None:
            c.nobody_responds()
        else:
            acts = [a for a in c.legal_actions() if a.kind != "spell"] or c.legal_actions()
            c.submit(rng.choice(acts))
    assert c.handoff_needed() and c.handoff_player() != viewer
    win.refresh()
    assert f.inspector.uid is None
    assert f.inspector.card_id != own[0].card_id or name not in f.inspector.text()


def test_screen_readers_get_names_and_the_cards_as_words_but_no_secrets(qtbot, window):
    from fate_royal.qt import access
    from PySide6.QtWidgets import QAbstractButton

    win, c, f = window(["A", "B", "C", "D"], seed=3)
    access.install(win)
    win.refresh()
    assert win.table.accessibleName() and win.hand.accessibleName()
    described = win.table.accessibleDescription()
    assert "裏向き" in described  # every servant is dealt face down
    names, _ = _secrets(c.game, c.private_viewer())
    assert not [n for n in names if n in described + win.hand.accessibleDescription()]
    buttons = [b for b in win.findChildren(QAbstractButton) if b.isVisible()]
    assert buttons and all(b.accessibleName() for b in buttons)
    c.confirm_handoff()
    win.refresh()
    viewer = c.private_viewer()
    own = [d for d in win.hand.records() if d.face_up]
    assert own and c.game.db.cards[own[0].card_id].name in win.hand.accessibleDescription()
    names, _ = _secrets(c.game, viewer)
    assert not [n for n in names if n in win.table.accessibleDescription()]


def test_opening_the_inspector_leaves_the_hand_off_screen_on_top(qtbot, window):
    """The inspector dock opened during a hand-off was drawn over the hand-off screen (its last
    card and the screen's own words half hidden); the screen stays on top."""
    win, c, f = window(["A", "B", "C"], seed=5)
    win.refresh()
    assert c.handoff_needed() and win.overlay.isVisible()
    f.toggle_inspector()
    qtbot.wait(10)
    dock = f.inspector_dock
    assert dock.isVisible()
    centre = dock.mapTo(win, dock.rect().center())
    hit = win.childAt(centre)
    assert hit is win.overlay or win.overlay.isAncestorOf(hit), hit
