"""Never lose a game (issue 11, part 4): the app killed mid-game offers the game back and resumes the
identical position; a new game never overwrites an unanswered autosave; New game, Open saved game
and closing the window ask before a running game is dropped; a demo parks the game and brings it
back."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from fate_royal.qt import fonts, i18n, rulings
from fate_royal.qt.controller import GameController
from fate_royal.qt.window import MainWindow
from fate_royal.rules.journal import journal_summary, read_journal
from fate_royal.rules.save import autosave_path, state_digest
from tablepos import settle

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def table(qtbot):
    fonts.install_fonts()
    made = []

    def make(new_game=True, lang="ja", answers=None):
        i18n.set_language(lang)
        controller = GameController()
        win = MainWindow(controller)
        qtbot.addWidget(win)
        win.resize(1280, 800)
        f = rulings.install(win, controller)
        f.show_dialogs = False
        asked = []

        def ask(kind, text, choices):
            asked.append((kind, text))
            answer = {"close": "quit", **(answers or {})}.get(kind)
            assert answer in choices, (kind, answer, choices)
            return answer

        f.keeper.ask = ask
        f.asked = asked
        if new_game:
            assert controller.new_game(["A", "B", "C", "D"], seed=7, errata=True)
        win.show()
        made.append(f)
        return win, controller, f

    yield make
    for f in made:
        f.keeper.shutdown()
    i18n.set_language("ja")


def play(controller, n):
    for _ in range(n):
        settle(controller)
        if controller.game.state.over:
            return
        acts = [a for a in controller.legal_actions() if a.kind != "spell"] or controller.legal_actions()
        assert controller.submit(acts[len(controller.game.entries) % len(acts)])


KILLED = textwrap.dedent("""
    import os, signal, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    sys.path.insert(0, {root!r})
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from fate_royal.qt import rulings
    from fate_royal.qt.controller import GameController
    from fate_royal.qt.window import MainWindow
    from fate_royal.rules.save import state_digest
    c = GameController(); w = MainWindow(c); f = rulings.install(w, c); f.show_dialogs = False
    assert c.new_game(["A", "B", "C", "D"], seed=21, errata=True)
    for _ in range(60):
        for _ in range(50):
            if c.handoff_needed(): c.confirm_handoff()
            elif c.shared_prompt() is not None: c.nobody_responds()
            else: break
        acts = [a for a in c.legal_actions() if a.kind != "spell"] or c.legal_actions()
        c.submit(acts[len(c.game.entries) % len(acts)])
    f.keeper.flush()
    print(len(c.game.entries), state_digest(c.game), flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # no close event, no atexit: as if the power went
""")


def test_killed_mid_game_it_offers_the_game_back_and_resumes_the_identical_position(table, tmp_path):
    env = dict(os.environ)
    proc = subprocess.run([sys.executable, "-c", KILLED.format(root=str(ROOT))], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    entries, digest = proc.stdout.split()
    assert autosave_path().is_file()
    win, c, f = table(new_game=False, answers={"resume": "resume"})
    assert f.keeper.offer_resume()
    kind, text = f.asked[0]
    assert kind == "resume" and "A、B、C、D" in text and "ターン" in text
    assert len(c.game.entries) == int(entries)
    assert state_digest(c.game) == digest
    # and the game goes on in the same journal
    play(c, 3)
    assert f.keeper.flush()
    assert len(read_journal(autosave_path()).record.actions) == len(c.game.entries)


@pytest.mark.parametrize("lang, rules, foreign", [("en", "House errata", "ハウスルール"),
                                                  ("ja", "ハウスルール（エラッタすべて）", "House")])
def test_the_resume_question_names_the_rules_in_the_tables_language(table, lang, rules, foreign):
    """An English table asked "…autosaved 2026-12-08 02:51, ハウスルール（エラッタすべて）). Resume
    it?": the shipped rule set's Japanese title, as the autosave holds it."""
    win, c, f = table()
    play(c, 4)
    assert f.keeper.flush()
    f.keeper.shutdown()
    win2, c2, f2 = table(new_game=False, lang=lang, answers={"resume": "resume"})
    assert f2.keeper.offer_resume()
    kind, text = f2.asked[0]
    assert kind == "resume" and rules in text and foreign not in text


def test_a_new_game_never_overwrites_an_unanswered_autosave(table):
    win, c, f = table()
    play(c, 8)
    f.keeper.shutdown()
    before = autosave_path().read_bytes()
    # a second run: the user declines to resume and starts another game
    win2, c2, f2 = table(new_game=False, answers={"resume": "new"})
    assert f2.keeper.pending_resume() is not None
    assert not f2.keeper.offer_resume()
    assert autosave_path().read_bytes() == before  # nothing written while (and since) asked
    assert c2.new_game(["X", "Y"], seed=2)
    play(c2, 3)
    assert f2.keeper.flush()
    kept = autosave_path().with_name("autosave.previous.jsonl")
    assert kept.read_bytes() == before
    assert journal_summary(autosave_path()).names == ["X", "Y"]
    # the kept game still opens
    win3, c3, f3 = table(new_game=False)
    assert f3.open_save(kept)
    assert [p.name for p in c3.game.state.players] == ["A", "B", "C", "D"]


def test_two_tables_open_at_once_keep_a_journal_each(table):
    """The program started twice (a double-click that seemed to do nothing): both tables wrote one
    journal, and the one closed last replaced the other's game. The second keeps its own journal
    while the first runs; started again after the first closed, a table is offered the first's."""
    win, c, f = table()
    play(c, 6)
    assert f.keeper.flush()
    first = autosave_path().read_bytes()
    win2, c2, f2 = table()  # the second window, the first still open
    play(c2, 4)
    assert f2.keeper.flush()
    assert f2.keeper.path() == autosave_path().with_name("autosave-2.jsonl")
    assert autosave_path().read_bytes() == first  # the first table's game untouched
    assert journal_summary(f2.keeper.path()).names == ["A", "B", "C", "D"]
    play(c, 2)  # the first goes on in its own journal
    assert f.keeper.flush()
    assert len(read_journal(autosave_path()).record.actions) == len(c.game.entries)
    f.keeper.shutdown()  # the first window closes; the next table started takes its journal
    win3, c3, f3 = table(new_game=False, answers={"resume": "resume"})
    assert f3.keeper.path() == autosave_path()
    assert f3.keeper.offer_resume() and len(c3.game.entries) == len(c.game.entries)


def test_a_second_copys_game_is_offered_back_to_a_table_started_alone(table):
    """Two copies of the program ran, the second keeping autosave-2.jsonl, and both were killed:
    the first's game had ended, the second's had not. The next table, started alone, takes the
    second's journal and offers its game back (it used to take the first, empty-handed, and the
    game stayed unoffered until two copies ran again)."""
    win, c, f = table()
    play(c, 6)
    assert f.keeper.flush()
    win2, c2, f2 = table()
    c2.new_game(["P", "Q", "R"], seed=4)
    play(c2, 5)
    assert f2.keeper.flush()
    second = f2.keeper.path()
    assert second == autosave_path().with_name("autosave-2.jsonl")
    kept = second.read_bytes()
    f.keeper.shutdown()
    f2.keeper.shutdown()
    autosave_path().unlink()  # the first copy's game was over (or never begun)
    win3, c3, f3 = table(new_game=False, answers={"resume": "resume"})
    assert f3.keeper.path() == second
    assert f3.keeper.offer_resume()
    assert [p.name for p in c3.game.state.players] == ["P", "Q", "R"]
    assert [f.asked[-1][0] for f in (f3,)] == ["resume"] and "P、Q、R" in f3.asked[-1][1]
    assert second.read_bytes() == kept  # resumed where it stood: the same journal goes on
    # a table started while that one runs takes the first free journal
    win4, c4, f4 = table(new_game=False)
    assert f4.keeper.path() == autosave_path() and f4.keeper.pending_resume() is None


def test_an_unfinished_first_journal_comes_before_a_later_one(table):
    """Both copies left an unfinished game: the table started next offers the first journal's;
    one started beside it offers the second's."""
    win, c, f = table()
    play(c, 4)
    win2, c2, f2 = table()
    c2.new_game(["P", "Q"], seed=4)
    play(c2, 4)
    for k in (f, f2):
        assert k.keeper.flush()
        k.keeper.shutdown()
    win3, c3, f3 = table(new_game=False, answers={"resume": "resume"})
    assert f3.keeper.path() == autosave_path() and f3.keeper.offer_resume()
    assert [p.name for p in c3.game.state.players] == ["A", "B", "C", "D"]
    win4, c4, f4 = table(new_game=False, answers={"resume": "resume"})
    assert f4.keeper.path() == autosave_path().with_name("autosave-2.jsonl") and f4.keeper.offer_resume()
    assert [p.name for p in c4.game.state.players] == ["P", "Q"]


def test_a_game_started_from_the_command_line_moves_the_old_autosave_aside(table):
    win, c, f = table()
    play(c, 5)
    f.keeper.shutdown()
    before = autosave_path().read_bytes()
    win2, c2, f2 = table()  # `fate-royal --players 4`: a new game without a question
    play(c2, 2)
    assert f2.keeper.flush()
    assert autosave_path().with_name("autosave.previous.jsonl").read_bytes() == before


@pytest.mark.parametrize("answer, dropped", [("cancel", False), ("discard", True)])
def test_new_game_asks_before_dropping_a_running_game(table, monkeypatch, answer, dropped):
    from fate_royal.qt import dialogs

    win, c, f = table(answers={"drop": answer})
    play(c, 4)
    game = c.game

    class Accepting:
        DialogCode = dialogs.NewGameDialog.DialogCode

        def __init__(self, *a, **k):
            pass

        def exec(self):
            return self.DialogCode.Accepted

        def settings(self):
            return dialogs.NewGameDialog(win).settings()

        def deleteLater(self):  # noqa: N802 - Qt API
            pass

    monkeypatch.setattr("fate_royal.qt.window.NewGameDialog", Accepting)
    win.new_game_dialog()
    assert [k for k, _ in f.asked] == ["drop"]
    assert "保存されていません" in f.asked[0][1]
    assert (c.game is not game) is dropped


def test_open_save_asks_and_a_saved_game_is_not_asked_about(table, tmp_path):
    win, c, f = table(answers={"drop": "cancel"})
    play(c, 4)
    other = tmp_path / "other.json"
    assert f.save(other)
    assert f.asked == []
    game = c.game
    assert f.open_save(other)  # saved as it is: no question
    assert f.asked == []
    play(c, 2)
    assert not f.open_save(other)  # two actions since: asked, and "cancel" keeps it
    assert [k for k, _ in f.asked] == ["drop"]
    assert c.game is not game and len(c.game.entries) > 0


def test_closing_the_window_asks_and_cancel_keeps_it_open(table):
    win, c, f = table(answers={"close": "cancel"})
    play(c, 4)
    assert not win.close()
    assert win.isVisible()
    assert [k for k, _ in f.asked] == ["close"]
    assert "自動保存" in f.asked[0][1]
    f.keeper.ask = lambda kind, text, choices: "quit"
    assert win.close()
    assert len(read_journal(autosave_path()).record.actions) == len(c.game.entries)


def test_a_demo_parks_the_game_and_closing_it_brings_the_game_back(table):
    win, c, f = table()
    play(c, 6)
    game, entries = c.game, len(c.game.entries)
    demo = ROOT / "scenarios" / "demos" / "E8-demo-deck-rebuild.yaml"
    assert f.open_scenario(demo) is None
    assert c.game is not game and f.demo.active
    f.demo.forward()
    f.demo.forward()
    assert f.keeper.flush()
    assert len(read_journal(autosave_path()).record.actions) == entries  # the demo is not autosaved
    f.close_demo()
    assert c.game is game and len(game.entries) == entries
    assert c.handoff_needed() or c.shared_prompt() is not None or c.private_viewer() is None
    play(c, 2)
    assert f.keeper.flush()
    assert len(read_journal(autosave_path()).record.actions) == len(game.entries)


def test_a_broken_or_hostile_autosave_is_not_offered_and_not_fatal(table):
    path = autosave_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    for content in (b"\x00\xff garbage", b'{"format": "fate_royal-journal", "version": 1}\n', b"[" * 50000):
        path.write_bytes(content)
        win, c, f = table(new_game=False)
        assert f.keeper.pending_resume() is None
        assert not f.keeper.offer_resume()
        assert f.asked == []


def test_stale_temporary_files_of_interrupted_saves_are_cleaned(table):
    folder = autosave_path().parent
    folder.mkdir(parents=True, exist_ok=True)
    stale = folder / ".autosave.jsonl.0123456789abcdef.tmp"
    stale.write_text("half a save")
    os.utime(stale, (1, 1))
    win, c, f = table(new_game=False)
    f.keeper.offer_resume()
    assert not stale.exists()


def test_undoing_and_playing_something_else_after_a_save_is_unsaved(table, tmp_path):
    """The same number of actions is not the same game: a save, an undo and another action leave a
    game no save holds, and dropping it is asked about."""
    win, c, f = table(answers={"drop": "cancel"})
    play(c, 4)
    assert f.save(tmp_path / "g.json")
    assert not f.keeper.unsaved()
    entries = len(c.game.entries)
    assert c.undo()
    first = c.legal_actions()[0]
    other = next(a for a in c.legal_actions()[1:] if a != first) if len(c.legal_actions()) > 1 else first
    assert c.submit(other)
    assert len(c.game.entries) == entries
    assert f.keeper.unsaved()
    f.open_save(tmp_path / "g.json")
    assert [k for k, _ in f.asked] == ["drop"]


def test_new_game_and_stops_dialogs_do_not_pile_up_in_the_window(table, qtbot, monkeypatch):
    from fate_royal.qt import dialogs

    win, c, f = table(answers={"drop": "discard"})
    monkeypatch.setattr(dialogs.NewGameDialog, "exec", lambda self: dialogs.NewGameDialog.DialogCode.Accepted)
    monkeypatch.setattr(dialogs.StopsDialog, "exec", lambda self: dialogs.StopsDialog.DialogCode.Rejected)
    games = []
    for _ in range(3):
        assert win.new_game_dialog()
        games.append(c.game)
        win.stops_dialog()
    assert len({id(g) for g in games}) == 3
    qtbot.waitUntil(lambda: not win.findChildren(dialogs.NewGameDialog)
                    and not win.findChildren(dialogs.StopsDialog), timeout=3000)


@pytest.mark.parametrize("lang, discard, cancel", [("ja", "保存せずに閉じる", "キャンセル"),
                                                     ("en", "Close without saving", "Cancel")])
@pytest.mark.parametrize("answer", ["save", "discard", "cancel", None])
def test_the_unsaved_changes_question_in_the_table_language(qtbot, lang, discard, cancel, answer):
    """The editors' Save / Discard / Cancel box: its buttons in the table's language (Qt's standard
    buttons are English), Save the default, and the button pressed is the answer; closing the box
    (Escape) cancels."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    from fate_royal.qt.dialogs import ask_save_discard_cancel

    i18n.set_language(lang)
    seen: dict = {}

    def press() -> None:
        box = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible())
        seen["labels"] = [b.text() for b in box.buttons()]
        seen["default"] = box.defaultButton().text()
        if answer is None:
            box.reject()
        else:
            label = {"save": "SAVE", "discard": discard, "cancel": cancel}[answer]
            next(b for b in box.buttons() if b.text() == label).click()

    QTimer.singleShot(0, press)
    got = ask_save_discard_cancel(None, "title", "unsaved", "SAVE")
    assert sorted(seen["labels"]) == sorted(["SAVE", discard, cancel])
    assert seen["default"] == "SAVE"
    assert got == (answer or "cancel")
