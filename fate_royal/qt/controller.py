"""The controller: the one object between the widgets and the ``Game``.

Widgets ask it what may be done (``legal_actions``, ``actions_for_card``) and hand it what the user
chose (``submit``); it applies the action, turns a refusal into a visible message (reason + rule id),
catches any other engine exception (a rules exception never escapes into a Qt event handler) and
emits ``changed``. It also owns the hot-seat privacy state: ``viewer`` is the seat whose private
cards may be shown, set only when that player confirms the hand-off screen.
"""

from __future__ import annotations

import logging
import random
import weakref
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from fate_royal.qt.compat import emit
from fate_royal.qt import texts
from fate_royal.qt.i18n import current_language, tr
from fate_royal.rules.actions import Action, DeclareRaid, UseEffect
from fate_royal.rules.errors import IllegalAction

log = logging.getLogger(__name__)


def _no_game() -> None:
    """A weak reference to no game (what ``weakref.ref`` of a game gone returns)."""
    return None


@dataclass(frozen=True)
class BlockedEffect:
    """An effect of a card that cannot be used now, with why (for greyed menu entries)."""

    card: int
    effect: int
    name: str
    reason: str
    rule: str


class GameController(QObject):
    """Submits actions to the game and tells the views that something changed."""

    changed = Signal()
    #: (text, level, rule id) — level: info | error | clear
    message = Signal(str, str, str)
    game_replaced = Signal()
    game_over = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.game: Any = None
        self.viewer: int | None = None  # seat whose private cards may be shown (after the hand-off)
        self.ask_all = False  # every player asked in every window (the game's auto_pass option off)
        self.auto_handoff = False  # screenshots / presenter: no hand-off screen
        #: a demo or replay is open: the table shows the game but nothing changes it (submit, undo
        #: and redo refuse) until the presenter branches into a live game
        self.read_only = False
        self.last_error: tuple[str, str] | None = None
        self.setup_error = ""  # why the last new game could not start (file:line for bad data)
        self._dbs: dict[frozenset, Any] = {}
        self.hotseat: Any = None  # the hot-seat policy of a live game (fate_royal.rules.hotseat)
        self.prompt: Any = None  # what the table shows now (a hotseat.Prompt)
        self._view_cache: Any = None
        #: the finished game whose every card the table agreed to turn face up (game-over screen),
        #: and the game whose cards were ever shown (a hot-seat table cannot take it back into
        #: play): weak references, so that neither keeps a finished game alive after the next
        self._shown_game: Any = _no_game
        self._seen_game: Any = _no_game
        self._undo_floor = 0
        self._decisions: list[int] = []  # where each decision made at this table began (undo)
        self.computers: Any = None  # the computer seats (fate_royal.qt.computer), made on demand

    # ------------------------------------------------------------------ games

    def card_db(self, rules: Any) -> Any:
        """The shipped cards with the patches of ``rules`` applied (cached per set of patches)."""
        key = frozenset(rules.off)
        if key not in self._dbs:
            from fate_royal.cards import load_card_db

            self._dbs[key] = load_card_db(rules=rules)
        return self._dbs[key]

    def forget_card_data(self, db: Any = None, rules: Any = None) -> None:
        """Card files were reloaded: new games load them again (keeping ``db``, just loaded for
        ``rules``)."""
        self._dbs.clear()
        if db is not None and rules is not None:
            self._dbs[frozenset(rules.off)] = db

    def new_game(self, names: list[str], seed: int | None = None, errata: bool = True,
                 assignment: str = "random", rules: Any = None,
                 seats: dict[int, str] | None = None, stops: dict[int, list[str]] | None = None) -> bool:
        """Start a new game under ``rules`` (default: the house errata, or the base rules when
        ``errata`` is False); ``seats`` maps a seat to ``human`` or a computer level and ``stops``
        a seat to its stops (both recorded in the game's options). False (with a message) if it cannot be set up."""
        try:
            from fate_royal.cards import load_profile
            from fate_royal.cards.rulesets import shipped_ruleset
            from fate_royal.rules.game import Game

            if seed is None:
                seed = random.SystemRandom().randrange(1, 2 ** 62)
            if rules is None:
                rules = shipped_ruleset("house" if errata else "base")
            rules = rules.with_(profile=rules.profile.with_(servant_assignment=assignment))
            options: dict[str, Any] = {"auto_pass": False}
            if self.ask_all:
                options["stops"] = {str(i): ["every_window"] for i in range(len(names))}
            elif stops:  # each player's stops from last time (remembered by name)
                options["stops"] = {str(k): sorted(set(v)) for k, v in stops.items() if v}
            if seats:
                options["seats"] = {str(k): v for k, v in seats.items()}
            game = Game.new(self.card_db(rules), rules, names, seed=seed, **options)
        except Exception as exc:  # bad data, bad setup: a message, never a traceback
            from fate_royal.cards import DataError
            from fate_royal.rules.errors import RulesError

            if isinstance(exc, (DataError, RulesError)):  # the user's data: say where and what
                from fate_royal.text.dataerrors import localize_error

                self.setup_error = str(exc)
                log.debug("new game refused: %s", exc)
                emit(self.message, tr("error.cannot_start", reason=localize_error(exc, current_language())),
                     "error", "")
            else:  # a bug: keep the details in the debug log, show one line
                self.setup_error = f"{type(exc).__name__}: {exc}"
                log.debug("new game failed", exc_info=exc)
                emit(self.message, tr("error.internal", reason=self.setup_error), "error", "")
            return False
        self.setup_error = ""
        self.set_game(game)
        return True

    def set_game(self, game: Any) -> None:
        self.game = game
        self.viewer = None
        self.last_error = None
        self._view_cache = None
        self.hotseat = None
        self.prompt = None
        self._undo_floor = 0
        self._decisions = []
        if not self.auto_handoff:
            self._start_hotseat()
        else:
            self._auto_view()
        emit(self.game_replaced)
        emit(self.message, "", "clear", "")
        emit(self.changed)
        if game.ctx.s.over:
            emit(self.game_over)

    def park(self) -> dict[str, Any]:
        """The live game with the table's hot-seat bookkeeping, to bring back (``unpark``) after a
        demo or replay has used the table."""
        return {"game": self.game, "floor": self._undo_floor, "decisions": list(self._decisions),
                "auto": self.auto_handoff, "read_only": self.read_only}

    def unpark(self, parked: dict[str, Any]) -> None:
        """Bring back a parked game. Its next private decision starts with a hand-off screen: the
        table was open to everyone meanwhile."""
        self.auto_handoff = parked["auto"]
        self.read_only = parked["read_only"]
        self.set_game(parked["game"])
        self._undo_floor = parked["floor"]
        self._decisions = list(parked["decisions"])

    def _start_hotseat(self) -> None:
        """A live table: the hot-seat policy decides who is asked. The engine then asks every
        player (its auto_pass option off): whether anyone is asked must not depend on their cards."""
        g = self.game
        if g is None:
            return
        from fate_royal.rules.hotseat import HotSeat

        if g.options.get("auto_pass") and not g.ctx.s.over and not self.read_only:
            try:
                g.set_option("auto_pass", False)
            except Exception as exc:  # pragma: no cover - an engine bug
                self._internal(exc)
        self.hotseat = HotSeat(g)
        self._advance()

    def _advance(self) -> None:
        """Let the policy apply automatic passes and find the next prompt."""
        hs = self.hotseat
        if hs is None or self.read_only:
            self.prompt = None
            return
        try:
            self.prompt = hs.advance()
        except Exception as exc:
            self._internal(exc)
            self.prompt = None
        self._view_cache = None
        self._computer_hook()

    def set_ask_all(self, on: bool) -> None:
        """Ask every player at every window: the ``every_window`` stop for every human seat."""
        self.ask_all = bool(on)
        g = self.game
        if g is None or g.ctx.s.over:
            return
        stops = {str(k): list(v) for k, v in (g.options.get("stops") or {}).items()}
        for i in range(len(g.ctx.s.players)):
            mine = [x for x in stops.get(str(i), []) if x != "every_window"]
            stops[str(i)] = mine + (["every_window"] if self.ask_all else [])
        self.set_stops(stops)

    def set_stops(self, stops: dict) -> None:
        """Set the players' stops (recorded in the game: they decide who is asked)."""
        g = self.game
        if g is None or self.read_only:
            return
        clean = {str(k): sorted(set(v)) for k, v in stops.items() if v}
        if (g.options.get("stops") or {}) == clean:
            return
        try:
            g.set_option("stops", clean)
        except Exception as exc:
            self._internal(exc)
            return
        if self.hotseat is not None:
            self.hotseat.reset()
        self._after_change()

    # ------------------------------------------------------------------ privacy

    @property
    def pending(self) -> Any:
        return None if self.game is None else self.game.pending

    def handoff_needed(self) -> bool:
        """True while the deciding player has not yet confirmed that only they are looking."""
        if self.auto_handoff or self.hotseat is None or self.prompt is None:
            return False
        return self.hotseat.needs_handoff(self.prompt)

    def handoff_player(self) -> int | None:
        if self.auto_handoff:
            pend = self.pending
            return None if pend is None else pend.player
        p = self.prompt
        return p.player if p is not None and p.kind == "private" else None

    def handoff_reason(self) -> str:
        p = self.prompt
        return p.reason if p is not None and p.kind == "private" else ""

    def confirm_handoff(self) -> None:
        if self.hotseat is None or not self.handoff_needed():
            return
        self.hotseat.confirm()
        self._undo_floor = len(self.game.history)
        self._view_cache = None
        emit(self.changed)

    def shared_prompt(self) -> Any:
        """The "does anyone respond?" prompt now shown to the table, or None."""
        p = self.prompt
        return p if p is not None and p.kind == "shared" and not self.auto_handoff else None

    def on_table(self) -> Any:
        """A decision made on the shared screen now (public information only), or None."""
        p = self.prompt
        return p if p is not None and p.kind == "on_table" and not self.auto_handoff else None

    def claim(self, seat: int) -> bool:
        """``seat`` answers the shared prompt: it will respond (after its hand-off)."""
        if self.hotseat is None or self.read_only or not self.hotseat.claim(seat):
            return False
        self._after_change()
        return True

    def nobody_responds(self) -> None:
        if self.hotseat is None or self.read_only or self.shared_prompt() is None:
            return
        self.hotseat.nobody()
        self._after_change()

    def ask_privately(self) -> bool:
        """The player deciding on the table wants to see their own cards first (a hand-off)."""
        if self.hotseat is None or not self.hotseat.ask_privately():
            return False
        self._after_change()
        return True

    def _auto_view(self) -> None:
        """No hand-off screen (a screenshot, a demo): the deciding seat's cards are shown, unless
        a computer decides in a game with people in it; then a person's seat stays in view (the
        last one shown, else the first), never the computer's hand."""
        pend = self.pending
        if pend is None:
            return
        from fate_royal.rules.hotseat import humans_of

        humans = sorted(humans_of(self.game))
        if pend.player in humans or not humans:
            self.viewer = pend.player
        elif self.viewer not in humans:
            self.viewer = humans[0]

    def private_viewer(self) -> int | None:
        """The seat whose private cards may be drawn now (None while a hand-off is pending or the
        whole table is looking)."""
        if self.game is None:
            return None
        if self.auto_handoff:
            return self.viewer
        p = self.prompt
        hs = self.hotseat
        if hs is not None and hs.solo is not None:
            return hs.solo  # one human against computers: their cards are always theirs to see
        if hs is None or p is None or p.kind != "private" or hs.viewer != p.player:
            return None
        return hs.viewer

    def table_view(self) -> Any:
        """What the table may draw now: the view of the seat looking (or of the whole table)."""
        g = self.game
        if g is None:
            return None
        from fate_royal.rules.view import view

        shown = self.cards_shown()
        key = (id(g), g.version, self.private_viewer(), shown)
        if self._view_cache is None or self._view_cache[0] != key:
            self._view_cache = (key, view(g, self.private_viewer(), reveal=shown))
        return self._view_cache[1]

    def cards_shown(self) -> bool:
        """Whether every card is face up: only in a finished game the table chose to turn over
        (an undo back into play hides them again; a redo to the end shows them)."""
        g = self.game
        return g is not None and g is self._shown_game() and bool(g.state.over)

    def show_all_cards(self, on: bool = True) -> bool:
        """Turn every hidden card of the finished game face up (or down again); False while the
        game is still being played — nothing secret is shown in a live game."""
        g = self.game
        if g is None or not g.state.over:
            return False
        self._shown_game = weakref.ref(g) if on else _no_game
        if on:
            self._seen_game = weakref.ref(g)
        emit(self.changed)
        return True

    # ------------------------------------------------------------------ questions

    def legal_actions(self) -> list[Action]:
        """What may be chosen on the screen now: the deciding player's actions after their
        hand-off, only public ones for a decision on the table, nothing on a shared prompt."""
        g = self.game
        if g is None or self.read_only:
            return []
        try:
            if self.auto_handoff:
                return g.legal_actions()
            p = self.prompt
            if p is None:
                return []
            if p.kind == "private" and not self.handoff_needed():
                return g.legal_actions()
            if p.kind == "on_table":
                from fate_royal.rules.hotseat import public_actions

                return public_actions(g, p.player)
            return []
        except Exception as exc:
            self._internal(exc)
            return []

    def actions_for_card(self, uid: int) -> list[Action]:
        out = []
        for a in self.legal_actions():
            if getattr(a, "card", None) == uid:
                out.append(a)
        return out

    def blocked_effects(self, uid: int) -> list[BlockedEffect]:
        """The viewer's card's 起動 effects that cannot be used now, each with reason and rule."""
        g = self.game
        p = self.private_viewer()
        if g is None or p is None or self.pending is None or self.pending.player != p:
            return []
        pl = g.state.players[p]
        if uid not in (pl.hero, pl.klass) and uid not in pl.seat and uid not in pl.hand:
            return []
        out = []
        try:
            card = g.card_of(uid)
            for i, e in enumerate(card.effects, 1):
                if e.is_constant:
                    continue
                block = g.effect_block(p, uid, i)
                if block is not None:
                    out.append(BlockedEffect(uid, i, texts.effect_name(e), block[0], block[1]))
        except Exception as exc:
            self._internal(exc)
            return []
        return out

    def blocked_raids(self) -> list[tuple[Action, str, str]]:
        """Raids the deciding turn player cannot declare now, with why (combat step, empty stack)."""
        g = self.game
        p = self.private_viewer()
        if g is None or p is None:
            return []
        s = g.state
        pend = g.pending
        if pend is None or pend.player != p or pend.kind != "priority" or p != s.turn_player \
                or s.step != "combat" or s.combat is not None or s.stack or s.raided:
            return []
        legal = self.legal_actions()
        if any(isinstance(a, DeclareRaid) for a in legal):
            return []
        out = []
        for q in s.alive():
            if q == p:
                continue
            a = DeclareRaid(p, q)
            try:
                reason, rule, _ = g.why_illegal(a)
            except Exception:
                continue
            out.append((a, reason, rule))
        return out

    # ------------------------------------------------------------------ acting

    def submit(self, action: Action) -> bool:
        """Apply an action; False (and a visible reason) if the engine refuses it."""
        g = self.game
        if g is None:
            return False
        if self.read_only:
            emit(self.message, tr("demo.read_only"), "error", "")
            return False
        if self.handoff_needed():
            emit(self.message, tr("handoff.hidden"), "error", "")
            return False
        if not self.auto_handoff and self.hotseat is not None and action not in self.legal_actions():
            if g.is_legal(action):  # legal, but not a choice on offer on this screen (privacy)
                emit(self.message, tr("handoff.hidden"), "error", "")
                return False
        try:
            position = len(g.history)
            if self.hotseat is not None and not self.auto_handoff:
                self.hotseat.apply(action)
                self._decisions.append(position)
            else:
                g.apply(action)
        except IllegalAction as exc:
            self.last_error = (exc.reason, exc.rule)
            emit(self.message, tr("error.not_allowed", reason=texts.reason_text(exc.reason),
                                 rule=exc.rule or "—"), "error", exc.rule)
            emit(self.changed)
            return False
        except Exception as exc:
            self._internal(exc)
            emit(self.changed)
            return False
        self.last_error = None
        emit(self.message, "", "clear", "")
        self._after_change()
        return True

    def use_blocked(self, blocked: BlockedEffect) -> bool:
        """Try a blocked effect anyway: the engine refuses it and the reason is shown."""
        p = self.private_viewer()
        if p is None:
            return False
        return self.submit(UseEffect(p, blocked.card, blocked.effect, ()))

    def undo(self) -> bool:
        return self._step_history("undo")

    def redo(self) -> bool:
        return self._step_history("redo")

    def _step_history(self, which: str) -> bool:
        g = self.game
        if g is None or self.read_only:
            return False
        refusal = self._undo_refusal(which)
        if refusal:
            emit(self.message, tr(refusal), "error", "")
            return False
        try:
            if which == "undo":
                if not g.can_undo():
                    return False
                target = self._undo_target()
                if target is None:
                    g.undo()
                else:
                    g.rewind(target)
                    self._decisions.pop()
            else:
                if not g.can_redo():
                    return False
                position = len(g.history)
                g.redo()
                if self.hotseat is not None and not self.auto_handoff:
                    self._decisions.append(position)
            if self.hotseat is not None:
                viewer = self.hotseat.viewer
                self.hotseat.reset()
                self.hotseat.viewer = viewer  # the same player still holds the screen
        except IllegalAction as exc:
            emit(self.message, tr("error.not_allowed", reason=texts.reason_text(exc.reason),
                                 rule=exc.rule or "—"), "error", exc.rule)
            return False
        except Exception as exc:
            self._internal(exc)
            return False
        emit(self.message, "", "clear", "")
        self._after_change()
        return True

    def _undo_target(self) -> int | None:
        """How many actions to keep when undoing at a live table: back to before the last
        decision a person made here (the passes the table or the computers made after it go
        too). None: a plain undo of the last action (demos, screenshots)."""
        if self.auto_handoff or self.hotseat is None:
            return None
        return self._decisions[-1] if self._decisions else None

    def _undo_refusal(self, which: str) -> str:
        """Why undo/redo may not be used now (a catalog key), or "". In a hot-seat game with more
        than one human, undo takes back only what the player holding the screen did since their
        hand-off (and the automatic passes after it): anything further would show cards to
        someone they were hidden from."""
        hs = self.hotseat
        g = self.game
        if self.auto_handoff or hs is None:
            return ""
        if which == "undo" and g is self._seen_game() and len(hs.humans) > 1:
            return "undo.cards_shown"  # every hand was seen: back in play, nothing would be secret
        if len(hs.humans) <= 1:
            return "" if which == "redo" or self._undo_target() is not None else "undo.hidden"
        if which == "redo":
            return "" if hs.viewer is not None else "undo.hidden"
        if hs.viewer is None:
            return "undo.hidden"
        target = self._undo_target()
        if target is None or target < self._undo_floor or g.history[target].player != hs.viewer:
            return "undo.hidden"
        later = g.history[target + 1:]
        # only passes and computer seats' moves may follow: anything else a person did would be
        # taken back behind their back
        return "" if all(a.kind == "pass" or a.player not in hs.humans for a in later) \
            else "undo.hidden"

    def can_undo(self) -> bool:
        g = self.game
        return bool(g and g.can_undo() and not self.read_only and not self._undo_refusal("undo"))

    def can_redo(self) -> bool:
        g = self.game
        return bool(g and g.can_redo() and not self.read_only and not self._undo_refusal("redo"))

    def _after_change(self) -> None:
        if self.auto_handoff:
            self._auto_view()
        else:
            self._advance()
        self._view_cache = None
        emit(self.changed)
        if self.game is not None and self.game.state.over:
            emit(self.game_over)

    # ------------------------------------------------------------------ computer seats
    # (fate_royal.qt.computer thinks off the GUI thread and hands its move back here)

    def _computer_hook(self) -> None:
        """The prompt names a computer seat: let the computer seats think (made on first need)."""
        p = self.prompt
        if p is None or p.kind != "computer":
            return
        if self.computers is None:
            from fate_royal.qt.computer import ComputerSeats

            self.computers = ComputerSeats(self)
        self.computers.poke()

    def submit_computer(self, seat: int, action: Action) -> bool:
        """Apply a computer seat's move (not a decision a person can undo: undo goes back past
        it to the last human decision)."""
        g = self.game
        p = self.prompt
        if g is None or self.read_only or self.hotseat is None or p is None \
                or p.kind != "computer" or p.player != seat:
            return False
        try:
            self.hotseat.apply(action)
        except Exception as exc:
            self._internal(exc)
            emit(self.changed)
            return False
        emit(self.message, "", "clear", "")  # "… is thinking" is over, a pass included
        self._after_change()
        return True

    def set_seat(self, seat: int, kind: str) -> bool:
        """Make ``seat`` human or a computer level mid-game (recorded in the game's options)."""
        g = self.game
        if g is None or self.read_only or g.ctx.s.over:
            return False
        seats = {str(i): "human" for i in range(len(g.ctx.s.players))}
        seats.update({str(k): v for k, v in (g.options.get("seats") or {}).items()})
        if seats.get(str(seat)) == kind:
            return False
        seats[str(seat)] = kind
        try:
            g.set_option("seats", seats)
        except Exception as exc:
            self._internal(exc)
            return False
        if self.hotseat is not None:
            from fate_royal.rules.hotseat import humans_of

            self.hotseat.humans = humans_of(g)
            self.hotseat.reset()
        self._after_change()
        return True

    def shutdown(self) -> None:
        """The window closes: a computer decision still being thought does nothing."""
        if self.computers is not None:
            self.computers.shutdown()

    def _internal(self, exc: BaseException) -> None:
        log.exception("engine error", exc_info=exc)
        emit(self.message, tr("error.internal", reason=f"{type(exc).__name__}: {exc}"), "error", "")
