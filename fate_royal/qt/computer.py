"""Computer seats at the table: decisions thought out off the GUI thread.

``ComputerSeats`` watches the controller's prompt. When it names a computer seat it copies the
position (``Game.fork``: the worker never touches the live game), asks ``fate_royal.ai.decide`` on a
worker of its own thread pool, and shows "⟨name⟩ is thinking…" meanwhile. The answer comes back to
the GUI thread as a queued signal; it is applied only if the game is still the one it was asked
about (same game, same version, not shut down) — an undo, a new game or closing the window while a
seat thinks makes the answer do nothing. A pass goes through at once; any other move waits a short
pause (``delay_ms``) so that people can follow, is logged like a human move (the engine's events
go to the log panel) and is named in the message bar ("last move").

Games of computers only can be watched: ``paused`` stops the seats, ``step()`` lets the next
seat play one move that is not a pass, ``set_speed`` changes the pause.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, QTimer, Signal

from fate_royal.qt.compat import emit
from fate_royal.qt.i18n import tr

log = logging.getLogger(__name__)

#: Pause before a computer's move is applied, per speed (milliseconds).
SPEEDS = {"slow": 1800, "normal": 800, "fast": 200, "instant": 0}


class _Relay(QObject):
    """Carries a worker's answer to the GUI thread (lives in the GUI thread)."""

    done = Signal(int, object, object)  # ticket, action (or None), error text (or None)


class _Think(QRunnable):
    def __init__(self, relay: _Relay, ticket: int, fork: Any, seat: int, level: str,
                 position: int) -> None:
        super().__init__()
        self.relay, self.ticket, self.fork = relay, ticket, fork
        self.seat, self.level, self.position = seat, level, position
        self.setAutoDelete(True)

    def run(self) -> None:  # the worker thread: only the fork is read
        from fate_royal.ai import decide

        try:
            action = decide(self.fork, self.seat, self.level, position=self.position)
            error = None
        except Exception as exc:  # reported on the GUI thread, never raised in a worker
            action, error = None, f"{type(exc).__name__}: {exc}"
        try:
            self.relay.done.emit(self.ticket, action, error)
        except RuntimeError:  # the relay is gone (the window closed): nothing to do
            pass


class ComputerSeats(QObject):
    """Plays the computer seats of the controller's game."""

    #: seat now thinking (-1: nobody)
    thinking = Signal(int)
    #: a computer seat played (seat, action)
    moved = Signal(int, object)

    def __init__(self, controller: Any) -> None:
        super().__init__(controller)
        self.controller = controller
        self.delay_ms = SPEEDS["normal"]
        self.paused = False
        self.last: tuple[int, Any] | None = None  # the last computer move (seat, action)
        self._steps = 0  # moves allowed while paused
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        self._relay.done.connect(self._answered)
        self._ticket = 0
        self._asked: tuple | None = None  # (ticket, game id, game version, seat) being thought
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self._apply_held)
        self._held: tuple | None = None  # an answer waiting for its pause: (key, seat, action)
        self._kick = QTimer(self)
        self._kick.setSingleShot(True)
        self._kick.timeout.connect(self._start)

    # --- the controller tells us the prompt changed

    def poke(self) -> None:
        """The position or prompt changed: think for a computer seat if it is one's turn (on the
        next turn of the event loop, so the table repaints first and nothing recurses)."""
        if self._closed:
            return
        if not self._kick.isActive():
            self._kick.start(0)

    def busy(self) -> bool:
        return self._asked is not None or self._held is not None

    def thinking_seat(self) -> int | None:
        if self._asked is not None:
            return self._asked[3]
        if self._held is not None:
            return self._held[1]
        return None

    def _key(self) -> tuple | None:
        g = self.controller.game
        return None if g is None else (id(g), g.version)

    def _seat_to_play(self) -> tuple[int, str] | None:
        c = self.controller
        g = c.game
        p = c.prompt
        if g is None or c.read_only or p is None or p.kind != "computer" or g.ctx.s.over:
            return None
        from fate_royal.ai import LEVELS

        level = (g.options.get("seats") or {}).get(str(p.player), "human")
        return (p.player, level) if level in LEVELS else None

    def _start(self) -> None:
        if self._closed or self.busy():
            return
        who = self._seat_to_play()
        if who is None:
            return
        if self.paused and self._steps <= 0:
            return
        seat, level = who
        g = self.controller.game
        self._ticket += 1
        self._asked = (self._ticket, id(g), g.version, seat)
        legal = g.legal_actions()
        if len(legal) == 1:  # nothing to think about (a pass, mostly): no worker, no message
            self._answered(self._ticket, legal[0], None)
            return
        emit(self.thinking, seat)
        emit(self.controller.message, tr("computer.thinking", name=g.player_name(seat)), "info", "")
        self._pool.start(_Think(self._relay, self._ticket, g.fork(), seat, level,
                                len(g.entries)))

    def _answered(self, ticket: int, action: Any, error: Any) -> None:
        asked, self._asked = self._asked, None
        if self._closed or asked is None or asked[0] != ticket:
            return  # an answer to a question nobody asks any more
        g = self.controller.game
        if g is None or (id(g), g.version) != asked[1:3]:
            self.poke()
            return
        seat = asked[3]
        if error is not None or action is None:
            self.controller._internal(RuntimeError(f"computer seat {seat + 1}: {error}"))
            emit(self.thinking, -1)
            return
        self._held = (asked[1:3], seat, action)
        quiet = getattr(action, "kind", "") == "pass"
        if quiet or self.delay_ms <= 0:
            self._apply_held()
        else:
            self._timer.start(self.delay_ms)

    def _apply_held(self) -> None:
        held, self._held = self._held, None
        if self._closed or held is None:
            return
        key, seat, action = held
        if self._key() != key:  # the game changed while we paused: think again
            self.poke()
            return
        emit(self.thinking, -1)
        if getattr(action, "kind", "") != "pass":
            self.last = (seat, action)
            if self._steps > 0:
                self._steps -= 1
        self.controller.submit_computer(seat, action)
        if self.last is not None and self.last[1] is action:
            from fate_royal.qt import texts

            g = self.controller.game
            try:
                label = texts.action_label(g, action)
            except Exception:  # a label is a nicety; never fail a move for it
                label = getattr(action, "kind", "")
            emit(self.controller.message, tr("computer.moved", name=g.player_name(seat),
                                             action=label), "info", "")
            emit(self.moved, seat, action)

    # --- watching a game of computers

    def set_paused(self, on: bool) -> None:
        self.paused = bool(on)
        self._steps = 0
        if not self.paused:
            self.poke()

    def step(self) -> None:
        """While paused: the next computer move (passes on the way go through too)."""
        self._steps = 1
        self.poke()

    def set_speed(self, name: str) -> None:
        self.delay_ms = SPEEDS.get(name, SPEEDS["normal"])

    def shutdown(self) -> None:
        """The window closes: nothing more is applied; a decision being thought ends unseen."""
        self._closed = True
        self._timer.stop()
        self._kick.stop()
        self._held = None
        self._asked = None
        self._pool.clear()
        self._pool.waitForDone(10_000)

    @property
    def closed(self) -> bool:
        return self._closed


__all__ = ["ComputerSeats", "SPEEDS"]


# ---------------------------------------------------------------------- the menu


class SeatsMenu:
    """The "Seats" menu of the window: who plays each seat (a dialog), "let the computer take over
    ⟨name⟩" for each human seat, and pause / next move / speed for watching computers play. Its
    entries are rebuilt each time it opens (names, language and seats may have changed)."""

    TAKE_OVER_LEVEL = "strong"

    def __init__(self, window: Any, menubar: Any) -> None:
        from PySide6.QtGui import QAction, QActionGroup

        self.window = window
        self.controller = window.controller
        self.menu = menubar.addMenu("")
        self.act_seats = QAction(window, triggered=self.seats_dialog)
        from PySide6.QtGui import QKeySequence

        self.act_pause = QAction(window, checkable=True, toggled=self._pause,
                                 shortcut=QKeySequence("Ctrl+P"))
        self.act_step = QAction(window, triggered=self._step, shortcut=QKeySequence("Ctrl+Right"))
        for a in (self.act_pause, self.act_step):
            window.addAction(a)  # the keys work with the menu closed (and in full screen)
        self.speed_group = QActionGroup(window)
        self.speed_actions: dict[str, Any] = {}
        for name in SPEEDS:
            a = QAction(window, checkable=True)
            a.setChecked(name == "normal")
            a.triggered.connect(lambda _=False, n=name: self._speed(n))
            self.speed_group.addAction(a)
            self.speed_actions[name] = a
        self.menu.aboutToShow.connect(self.rebuild)
        self.rebuild()

    def seats(self) -> dict[int, str]:
        g = self.controller.game
        if g is None:
            return {}
        kinds = g.options.get("seats") or {}
        return {i: kinds.get(str(i), "human") for i in range(len(g.ctx.s.players))}

    def rebuild(self) -> None:
        from fate_royal.qt.i18n import strip_mnemonic

        m = self.menu
        m.clear()
        m.setTitle(tr("menu.seats").replace("…", ""))
        self.act_seats.setText(tr("menu.seats"))
        m.addAction(self.act_seats)
        g = self.controller.game
        self.take_over_actions = []
        live = g is not None and not g.ctx.s.over and not self.controller.read_only
        for seat, kind in self.seats().items():
            if kind != "human":
                continue
            a = m.addAction(strip_mnemonic(tr("menu.take_over", name=g.player_name(seat))))
            a.setEnabled(live)
            a.triggered.connect(lambda _=False, q=seat: self.controller.set_seat(
                q, self.TAKE_OVER_LEVEL))
            self.take_over_actions.append(a)
        m.addSeparator()
        self.act_pause.setText(tr("menu.computer_pause"))
        self.act_step.setText(tr("menu.computer_step"))
        m.addAction(self.act_pause)
        m.addAction(self.act_step)
        speed = m.addMenu(tr("menu.computer_speed"))
        for name, a in self.speed_actions.items():
            a.setText(tr(f"computer.speed.{name}"))
            speed.addAction(a)

    def _seats_object(self) -> ComputerSeats:
        c = self.controller
        if c.computers is None:
            c.computers = ComputerSeats(c)
        return c.computers

    def _pause(self, on: bool) -> None:
        self._seats_object().set_paused(on)
        self._panel_changed()

    def _step(self) -> None:
        self._seats_object().step()
        self._panel_changed()

    def _panel_changed(self) -> None:
        panel = getattr(self.window, "actions", None)
        if panel is not None:
            panel.refresh()  # its pause / resume / next-move buttons follow

    def _speed(self, name: str) -> None:
        self._seats_object().set_speed(name)

    def seats_dialog(self) -> bool:
        """Choose who plays each seat; the changes are recorded in the game."""
        from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout

        from fate_royal.qt.dialogs import seat_kind_box

        g = self.controller.game
        if g is None:
            return False
        dlg = QDialog(self.window)
        dlg.setWindowTitle(tr("seats.title"))
        form = QFormLayout(dlg)
        boxes = {}
        for seat, kind in self.seats().items():
            boxes[seat] = seat_kind_box(kind)
            form.addRow(g.player_name(seat), boxes[seat])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(dlg.accept)
        buttons.rejected.connect(dlg.reject)
        form.addRow(buttons)
        self.dialog = dlg
        if dlg.exec() != QDialog.DialogCode.Accepted:
            return False
        for seat, box in boxes.items():
            self.controller.set_seat(seat, box.currentData())
        return True
