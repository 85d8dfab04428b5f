"""Typed errors of the rules engine."""

from __future__ import annotations


class RulesError(Exception):
    """Base class of every error the engine raises on purpose."""


class IllegalAction(RulesError):
    """``Game.apply`` refused an action. The state is exactly as it was before the call.

    ``reason`` is a stable code the UI translates (e.g. ``servant_down``); ``rule`` is the rule id
    that forbids it (e.g. ``E1.4``), or "" when no single rule does (the action is simply not one of
    the legal actions now).
    """

    def __init__(self, reason: str, rule: str = "", message: str = "") -> None:
        self.reason = reason
        self.rule = rule
        self.message = message or reason
        super().__init__(f"{self.message} [{rule}]" if rule else self.message)


class SetupError(RulesError):
    """A game could not be set up as asked (bad player count, unknown card, bad scenario setup)."""


class GameOver(RulesError):
    """An action was applied to a game that has ended."""
