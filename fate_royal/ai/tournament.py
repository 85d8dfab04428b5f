"""Computer seats against each other, for ``fate-royal simulate --seats`` and the figures.

``play_game`` plays one seeded game to the end with the given level at each seat. Seats are
rotated between games (``rotate``) so that no level always sits first; the count is per level.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fate_royal.ai import decide

MAX_ACTIONS = 20000


@dataclass
class SeatGame:
    seed: int
    levels: tuple[str, ...]
    winner: int | None = None
    actions: int = 0
    error: str = ""
    decisions: dict[str, int] = field(default_factory=dict)


def play_game(db: Any, rules: Any, levels: list[str] | tuple[str, ...], seed: int,
              max_actions: int = MAX_ACTIONS, timer: Any = None) -> SeatGame:
    """One game, seat i played by ``levels[i]``. ``timer(level, seconds)`` is told how long each
    decision with a choice took (for the bench): processor time of this process, i.e. one core's
    time, not stretched by other work on a shared machine."""
    import time

    from fate_royal.rules.game import Game

    levels = tuple(levels)
    out = SeatGame(seed, levels)
    seats = {str(i): lv for i, lv in enumerate(levels)}
    game = Game.new(db, rules, [f"P{i + 1}" for i in range(len(levels))], seed=seed, seats=seats)
    game.record_undo = False
    try:
        while game.outcome() is None:
            if out.actions >= max_actions:
                out.error = f"no outcome after {max_actions} actions"
                break
            pend = game.pending
            if pend is None:
                out.error = "no decision pending but no outcome"
                break
            level = levels[pend.player]
            if timer is not None and len(game.legal_actions()) > 1:
                start = time.process_time()
                action = decide(game, pend.player, level)
                timer(level, time.process_time() - start)
            else:
                action = decide(game, pend.player, level)
            game.apply(action)
            out.actions += 1
        res = game.outcome()
        if res is not None:
            out.winner = res.winner
    except Exception as exc:  # reported with its seed, never hidden
        out.error = f"{type(exc).__name__}: {exc}"
    return out


def seating(levels: list[str], game_index: int) -> list[str]:
    """The levels rotated by the game's index, so each level sits in each place in turn."""
    k = game_index % len(levels)
    return levels[k:] + levels[:k]


__all__ = ["SeatGame", "play_game", "seating"]
