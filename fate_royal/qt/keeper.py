"""Never lose a game: the autosave journal, the "resume?" question, and asking before dropping one.

``GameKeeper`` belongs to the rulings features of a window (``RulingsFeatures.keeper``):

- after every change of the live game, the autosave journal (``rules.journal``) gets the new
  entries, written on a worker thread; a failure is shown once in the status bar;
- on start, an unfinished game found in the journal is offered back ("resume A, B, C, D, turn 7?")
  — the journal of the table is the first one no running copy of the program holds that has an
  unfinished game (``autosave.jsonl``, ``autosave-2.jsonl``, …), else the first free one;
  until that is answered nothing is written, and a game started instead never overwrites it: the old
  journal is kept beside it as ``autosave.previous.jsonl`` (it opens like a save);
- New game, Open saved game and closing the window ask before a running, unsaved game is dropped
  (Save… / Discard / Cancel; on closing, the game stays in the autosave and is offered back);
- a demo or replay parks the live game and brings it back when it closes;
- temporary files of interrupted saves are removed from the autosave folder.

``ask`` is the one place a question is put to the user; tests replace it with a function that
returns the answer.
"""

from __future__ import annotations

import logging
import os
import time
import weakref
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMessageBox

from fate_royal.qt import texts
from fate_royal.qt.dialogs import ask_choice
from fate_royal.qt.i18n import current_language
from fate_royal.qt.i18n import tr as t

if TYPE_CHECKING:
    from fate_royal.qt.rulings import RulingsFeatures

log = logging.getLogger(__name__)

PREVIOUS = "autosave.previous.jsonl"
#: tables open at once that each keep a journal of their own (more share the last one)
SLOTS = 9


def slot_path(base: Path, n: int) -> Path:
    """Journal number ``n``: ``autosave.jsonl``, ``autosave-2.jsonl``, …"""
    return base if n == 1 else base.with_name(f"{base.stem}-{n}{base.suffix}")


def unfinished(path: Path) -> Any:
    """The unfinished game in the journal at ``path`` (a ``JournalSummary``), or None: no file, a
    damaged one (logged; the table still starts), a finished game or an empty journal."""
    from fate_royal.rules.journal import journal_summary
    from fate_royal.rules.save import SaveError

    if not path.is_file():
        return None
    try:
        summary = journal_summary(path)
    except SaveError as exc:
        log.info("autosave not offered: %s", exc)
        return None
    except Exception as exc:  # whatever a damaged file does, the table still starts
        log.warning("autosave not offered: %s: %s", path, exc)
        return None
    if summary.over or summary.entries == 0:
        return None
    return summary


def _claim_slot(base: Path) -> tuple[int, Any]:
    """A journal number no running table holds, and the lock that now holds it (a lock left by a
    table that was killed is stale: its process is gone, and it is taken over): the first free one
    whose journal holds an unfinished game — so that a game left in ``autosave-2.jsonl`` by a
    second copy of the program, killed with the first, is offered back by the next table started
    alone — else the first free one."""
    from PySide6.QtCore import QLockFile

    try:
        base.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        return 1, None  # the autosave says why when it cannot write there
    first: tuple[int, Any] | None = None
    for n in range(1, SLOTS + 1):
        lock = QLockFile(str(slot_path(base, n).with_suffix(".lock")))
        lock.setStaleLockTime(0)  # stale only when its process is gone, never by age
        if not lock.tryLock(0):
            continue
        if unfinished(slot_path(base, n)) is not None:
            if first is not None:
                first[1].unlock()
            return n, lock
        if first is None:
            first = (n, lock)
        else:
            lock.unlock()
    return first if first is not None else (SLOTS, None)


def players_text(names: list[str]) -> str:
    return ("、" if current_language() == "ja" else ", ").join(names)


class GameKeeper(QObject):
    """Autosave, resume and the questions before a game is dropped (see the module text)."""

    _failed = Signal(str)  # from the writer's thread
    _recovered = Signal()

    def __init__(self, features: "RulingsFeatures") -> None:
        super().__init__(features)
        self.features = features
        self.controller = features.controller
        self.enabled = True
        self.held = False  # the resume question is open: write nothing yet
        self.path_override: Path | None = None  # tests and benchmarks: the journal's path
        self.error: str | None = None
        self._writer: Any = None
        #: the journal this table claimed: (its folder, its number, the lock that holds it)
        self._slot: tuple[Path, int, Any] | None = None
        self._first_write = True
        self._parked: dict[str, Any] | None = None
        self._demo_games: set[int] = set()
        #: the game the last save holds and its version then (any change since, an undo included,
        #: bumps the version; a weak reference, so a later game can never pass for it)
        self.saved_entries: tuple[Any, int] | None = None
        #: ``ask(kind, text, choices) -> choice``; None: a message box
        self.ask: Callable[[str, str, list[str]], str] | None = None
        self._failed.connect(self._show_failure, Qt.ConnectionType.QueuedConnection)
        self._recovered.connect(self._clear_failure, Qt.ConnectionType.QueuedConnection)

    # ------------------------------------------------------------------ the journal

    def path(self) -> Path:
        """The journal of this table: ``autosave.jsonl``, or ``autosave-2.jsonl`` and on while
        another table holds the first (two windows of the program open at once must not write
        one journal: the one closed last would replace the other's game)."""
        if self.path_override is not None:
            return Path(self.path_override)
        from fate_royal.rules.save import autosave_path

        base = autosave_path()
        if self._slot is None or self._slot[0] != base.parent:
            self._release_slot()
            self._slot = (base.parent, *_claim_slot(base))
        return slot_path(base, self._slot[1])

    def _release_slot(self) -> None:
        if self._slot is not None and self._slot[2] is not None:
            self._slot[2].unlock()
        self._slot = None

    def _journal(self) -> Any:
        from fate_royal.rules.journal import JournalWriter

        path = self.path()
        if self._writer is None or self._writer.path != path:
            if self._writer is not None:
                self._writer.close(5.0)
            self._writer = JournalWriter(path, on_error=self._failed.emit, on_ok=self._recovered.emit)
        return self._writer

    def live_game(self) -> Any:
        """The game people are playing (parked while a demo is open), or None."""
        if self._parked is not None:
            return self._parked["game"]
        if self.features.demo.active:
            return None
        return self.controller.game

    def autosave(self) -> bool:
        """Queue the live game's new entries for the journal. Never raises; False if nothing was
        written (autosave off, the question still open, a demo, nothing new)."""
        g = self.controller.game
        if not self.enabled or self.held or g is None or self.features.demo.active or not g.entries:
            return False
        try:
            if self._first_write:
                self._first_write = False
                self._keep_unanswered()
            return self._journal().update(g) > 0
        except Exception as exc:  # never let the autosave break the table
            log.warning("autosave failed", exc_info=exc)
            self._show_failure(str(exc))
            return False

    def flush(self, timeout: float = 30.0) -> bool:
        return self._writer is None or self._writer.flush(timeout)

    def shutdown(self) -> None:
        if self._writer is not None:
            self._writer.close(30.0)
            self._writer = None
        self._release_slot()

    def _show_failure(self, reason: str) -> None:
        if self.error is None:  # shown once, until an autosave works again
            self.error = reason
            self.features.status(lambda: t("rulings.autosave.failed", reason=reason), 0)

    def _clear_failure(self) -> None:
        if self.error is not None:
            self.error = None
            self.features.status("")

    def _keep_unanswered(self) -> None:
        """The first write of this run replaces the journal: an unfinished game in it that nobody
        was asked about (a new game started from the command line) moves aside first."""
        summary = self.pending_resume()
        if summary is None:
            return
        path = self.path()
        kept = path.with_name(PREVIOUS if path.stem == "autosave" else f"{path.stem}.previous.jsonl")
        try:
            os.replace(self.path(), kept)
        except OSError as exc:
            log.warning("cannot keep the previous autosave: %s", exc)
            return
        self.features.status(lambda: t("keeper.resume.kept", path=kept), 15000)

    # ------------------------------------------------------------------ resume

    def pending_resume(self) -> Any:
        """The unfinished game in the journal (a ``JournalSummary``), or None."""
        return unfinished(self.path())

    def offer_resume(self) -> bool:
        """Ask whether to resume the unfinished autosaved game; True if it was resumed. Until the
        answer, nothing is autosaved; "new game" keeps the old journal as autosave.previous.jsonl."""
        from fate_royal.fsutil import clean_stale_temps

        clean_stale_temps(self.path().parent)
        summary = self.pending_resume()
        if summary is None:
            return False
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(summary.saved_at)) if summary.saved_at else "?"
        text = t("keeper.resume.text", players=players_text(summary.names), turn=summary.turn, when=when,
                 rules=texts.titled(summary.rules_name, summary.rules_title))
        self.held = True
        try:
            answer = self._ask("resume", text, ["resume", "new"])
        finally:
            self.held = False
        if answer == "resume":
            return self.resume()
        self._first_write = True  # the new game moves the old journal aside, not over it
        return False

    def resume(self, path: str | Path | None = None) -> bool:
        """Open the journal at ``path`` (default: the autosave) as the live game."""
        from fate_royal.rules.journal import read_journal
        from fate_royal.rules.save import load_game

        path = Path(path) if path is not None else self.path()
        f = self.features
        try:
            info = read_journal(path)
            db = f.db_loader()(info.rules, list(info.record.cards))
            game = load_game(path, f.db_loader(), info=info,
                             allow_changed_cards=db.fingerprint != info.data["cards_fingerprint"])
        except Exception as exc:
            f.refuse("keeper.resume.failed", exc)
            return False
        self._first_write = path != self.path()  # the same journal goes on; another moves it aside
        f.demo.close()
        self._parked = None
        self.controller.set_game(game)
        self.saved_entries = None
        f.save_path = None
        names = [p.name for p in game.state.players]
        f.inform("info", t("keeper.resumed", players=players_text(names), turn=game.state.turn))
        return True

    # ------------------------------------------------------------------ dropping a game

    def unsaved(self) -> bool:
        """Is there a running game (not over, something played) that no save holds as it is?"""
        g = self.live_game()
        if g is None or g.state.over or not g.history:
            return False
        if self.saved_entries is None:
            return True
        ref, version = self.saved_entries
        return ref() is not g or version != g.version

    def mark_saved(self, game: Any) -> None:
        self.saved_entries = (weakref.ref(game), game.version)

    def _describe(self) -> str:
        g = self.live_game()
        return t("keeper.game", players=players_text([p.name for p in g.state.players]), turn=g.state.turn)

    def confirm_drop(self) -> bool:
        """Before a new game or an opened save replaces the running one: True to go on. Asks
        Save… / Discard / Cancel when the running game is unsaved."""
        if not self.unsaved():
            return True
        answer = self._ask("drop", t("keeper.drop.text", game=self._describe()), ["save", "discard", "cancel"])
        if answer == "save":
            return self._save_live()
        if answer == "discard":
            self._parked = None
            return True
        return False

    def confirm_close(self) -> bool:
        """Before the window closes: True to close. The game stays in the autosave either way."""
        if not self.unsaved():
            return True
        answer = self._ask("close", t("keeper.close.text", game=self._describe()), ["save", "quit", "cancel"])
        if answer == "save":
            return self._save_live()
        return answer == "quit"

    def _save_live(self) -> bool:
        f = self.features
        if self._parked is not None:  # a demo is open: save the parked game, not the demo's
            from fate_royal.rules.save import save_game
            from PySide6.QtWidgets import QFileDialog

            path, _ = QFileDialog.getSaveFileName(f.window, t("rulings.menu.save_as"),
                                                  str(Path.home() / "fate_royal.json"), t("rulings.save.filter"))
            if not path:
                return False
            try:
                save_game(self._parked["game"], path)
            except Exception as exc:
                f.inform("error", t("rulings.save.failed", reason=exc))
                return False
            self.mark_saved(self._parked["game"])
            return True
        return f.save()

    # ------------------------------------------------------------------ demos park the game

    def park(self) -> None:
        """A demo or replay is about to use the table: keep the live game to bring back."""
        c = self.controller
        if self._parked is None and c.game is not None and not self.features.demo.active:
            self.autosave()
            self._parked = c.park()

    def demo_changed(self) -> None:
        """After the demo stepped, opened or closed: remember its games; when it closed and the
        table still shows one of them, bring the parked game back."""
        demo = self.features.demo
        if demo.active:
            if demo.session is not None and getattr(demo.session, "game", None) is not None:
                self._demo_games.add(id(demo.session.game))
            return
        parked, self._parked = self._parked, None
        demo_games, self._demo_games = self._demo_games, set()
        if parked is None:
            return
        g = self.controller.game
        if g is None or id(g) in demo_games:
            self.controller.unpark(parked)
            names = [p.name for p in parked["game"].state.players]
            self.features.status(lambda: t("keeper.demo.back", players=players_text(names)))

    # ------------------------------------------------------------------ questions

    def _ask(self, kind: str, text: str, choices: list[str]) -> str:
        if self.ask is not None:
            return self.ask(kind, text, choices)
        if not self.features.show_dialogs:
            return {"resume": "new", "drop": "discard", "close": "quit", "reveal": "cancel"}[kind]
        role = QMessageBox.ButtonRole
        roles = {"resume": role.AcceptRole, "new": role.RejectRole, "save": role.AcceptRole,
                 "discard": role.DestructiveRole, "quit": role.DestructiveRole, "cancel": role.RejectRole,
                 "reveal": role.AcceptRole}
        return ask_choice(self.features.window, t("keeper.title." + kind), text,
                          [(c, t("keeper.choice." + c), roles[c]) for c in choices])
