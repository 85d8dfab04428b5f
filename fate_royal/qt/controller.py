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
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal

from fate_royal.qt.compat import emit
from fate_royal.qt import texts
from fate_royal.qt.i18n import tr
from fate_royal.rules.actions import Action, DeclareRaid, UseEffect
from fate_royal.rules.errors import IllegalAction

log = logging.getLogger(__name__)


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
                 seats: dict[int, str] | None = None) -> bool:
        """Start a new game under ``rules`` (default: the house errata, or the base rules when
        ``errata`` is False); ``seats`` maps a seat to ``human`` or a computer level (recorded in
        the game's options). False (with a message) if it cannot be set up."""
        try:
            from fate_royal.cards import load_profile
            from fate_royal.cards.rulesets import shipped_ruleset
            from fate_royal.rules.game import Game

            if seed is None:
                seed = random.SystemRandom().randrange(1, 2 ** 62)
            if rules is None:
                rules = shipped_ruleset("house" if errata else "base")
            rules = rules.with_(profile=rules.profile.with_(servant_assignment=assignment))
            options: dict[str, Any] = {"auto_pass": not self.ask_all}
            if seats:
                options["seats"] = {str(k): v for k, v in seats.items()}
            game = Game.new(self.card_db(rules), rules, names, seed=seed, **options)
        except Exception as exc:  # bad data, bad setup: a message, never a traceback
            from fate_royal.cards import DataError
            from fate_royal.rules.errors import RulesError

            if isinstance(exc, (DataError, RulesError)):  # the user's data: say where and what
                self.setup_error = str(exc)
                log.debug("new game refused: %s", exc)
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
        self.ask_all = not game.options.get("auto_pass", True)
        self.viewer = None
        self.last_error = None
        if self.auto_handoff:
            self._auto_view()
        emit(self.game_replaced)
        emit(self.message, "", "clear", "")
        emit(self.changed)
        if game.state.over:
            emit(self.game_over)

    def set_ask_all(self, on: bool) -> None:
        """Ask every player in every window (recorded in the game: it changes its history)."""
        self.ask_all = bool(on)
        g = self.game
        if g is not None and not g.ctx.s.over and g.options.get("auto_pass") != (not self.ask_all):
            try:
                g.set_option("auto_pass", not self.ask_all)
            except Exception as exc:
                self._internal(exc)
            self._after_change()

    # ------------------------------------------------------------------ privacy

    @property
    def pending(self) -> Any:
        return None if self.game is None else self.game.pending

    def handoff_needed(self) -> bool:
        """True while the deciding player has not yet confirmed that only they are looking."""
        pend = self.pending
        return pend is not None and pend.player != self.viewer

    def handoff_player(self) -> int | None:
        pend = self.pending
        return None if pend is None else pend.player

    def confirm_handoff(self) -> None:
        pend = self.pending
        if pend is None:
            return
        self.viewer = pend.player
        emit(self.changed)

    def _auto_view(self) -> None:
        pend = self.pending
        if pend is not None:
            self.viewer = pend.player

    def private_viewer(self) -> int | None:
        """The seat whose private cards may be drawn now (None while a hand-off is pending)."""
        if self.game is None or self.handoff_needed():
            return None
        return self.viewer

    # ------------------------------------------------------------------ questions

    def legal_actions(self) -> list[Action]:
        """Legal actions of the deciding player, or [] while the hand-off screen is up."""
        if self.game is None or self.handoff_needed():
            return []
        try:
            return self.game.legal_actions()
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
        try:
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
        try:
            if which == "undo":
                if not g.can_undo():
                    return False
                g.undo()
            else:
                if not g.can_redo():
                    return False
                g.redo()
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

    def _after_change(self) -> None:
        if self.auto_handoff:
            self._auto_view()
        emit(self.changed)
        if self.game is not None and self.game.state.over:
            emit(self.game_over)

    def _internal(self, exc: BaseException) -> None:
        log.exception("engine error", exc_info=exc)
        emit(self.message, tr("error.internal", reason=f"{type(exc).__name__}: {exc}"), "error", "")
