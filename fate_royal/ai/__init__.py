"""Computer seats: ``decide(game, seat, level)`` gives a seat's next action.

Levels: ``random`` (uniform over the legal actions, command spells rare, as ``simulate`` plays),
``basic`` (a readable heuristic, ``fate_royal.ai.basic``) and ``strong`` (determinized Monte Carlo
search with the basic player as rollout, ``fate_royal.ai.strong``). A seat decides only from what
it may know: its legal actions come from ``view(game, seat)`` and every position it reads is a
determinization (hidden cards dealt again at random from what it has not seen). The seat's random
generator is seeded from the game's seed, the length of its record, the seat and the level, so the
same record and seed always give the same decision. No Qt here.
"""

from __future__ import annotations

import random
from typing import Any

from fate_royal.rules.actions import Action
from fate_royal.rules.record import SEAT_KINDS
from fate_royal.rules.view import view as player_view

#: The computer levels: every seat kind but a person (the record checks a seat's kind).
LEVELS = SEAT_KINDS[1:]


def decision_rng(game: Any, seat: int, level: str, salt: int = 0,
                 position: int | None = None) -> random.Random:
    """The generator for one decision: a function of the game's seed, the length of its record
    (``position``, for a fork that keeps no record), the seat and the level (string seeds hash the
    same way on every run and platform)."""
    n = len(game.entries) if position is None else position
    return random.Random(f"fate_royal.ai/{level}/{game.seed}/{n}/{seat}/{salt}")


def decide(game: Any, seat: int, level: str, salt: int = 0, position: int | None = None) -> Action:
    """The action computer seat ``seat`` of ``level`` takes now (it must be that seat's decision).
    ``position``: the length of the game's record when ``game`` is a fork of it (the table thinks
    on a fork, off the GUI thread)."""
    if level not in LEVELS:
        raise ValueError(f"unknown computer level {level!r} (one of {', '.join(LEVELS)})")
    pv = player_view(game, seat)
    legal = list(pv.legal)
    if not legal:
        raise ValueError(f"seat {seat} has no decision to make now")
    rng = decision_rng(game, seat, level, salt, position)
    if level == "random" or len(legal) == 1:
        from fate_royal.rules.simulate import choose_action

        return legal[0] if len(legal) == 1 else choose_action(rng, legal)
    if level == "basic":
        from fate_royal.ai.basic import basic_action
        from fate_royal.ai.determinize import determinize

        world = determinize(game, seat, rng, pv)
        a = basic_action(world, seat, rng)
        return a if a in legal else legal[0]
    from fate_royal.ai.strong import strong_action

    return strong_action(game, seat, legal, rng, pv)


def seat_levels(game: Any) -> dict[int, str]:
    """Seat → level for the computer seats of ``game`` (from its recorded ``seats`` option)."""
    seats = game.options.get("seats") or {}
    return {int(k): v for k, v in seats.items() if v in LEVELS}


def parse_seats(text: str, players: int) -> dict[str, str]:
    """``human,basic,strong`` → the ``seats`` option; fewer names than players repeat the last."""
    names = [t.strip().lower() for t in text.split(",") if t.strip()]
    if not names:
        raise ValueError("--seats needs at least one of " + ", ".join(SEAT_KINDS))
    bad = [n for n in names if n not in SEAT_KINDS]
    if bad:
        raise ValueError(f"unknown seat kind {bad[0]!r} (one of {', '.join(SEAT_KINDS)})")
    if len(names) > players:
        raise ValueError(f"{len(names)} seats given for {players} players")
    names += [names[-1]] * (players - len(names))
    return {str(i): n for i, n in enumerate(names)}


__all__ = ["LEVELS", "SEAT_KINDS", "decide", "decision_rng", "parse_seats", "seat_levels"]
