"""Shared by the card-pack tests: a mystic code typed in by hand, and a player who uses it."""

from __future__ import annotations

import random

from fate_royal.rules.actions import PlayCard, UseEffect
from fate_royal.rules.game import Game

NEW_CODE = {
    "id": "M-002",
    "kind": "mystic_code",
    "name": "試作礼装",
    "name_en": "Trial Code",
    "note": "typed in from my box",
    "effects": [
        {"name": "魔力供給", "name_en": "Mana Supply", "timing": "activated", "window": "any",
         "cost": {"raw": "T", "tap": True}, "ops": [{"op": "draw", "count": 1}]},
        {"name": "守りの加護", "name_en": "Ward", "timing": "constant",
         "ops": [{"op": "modify_stats", "subject": "combatant", "pd": 1}]},
    ],
}


def play_until_used(game: Game, card_id: str, seed: int = 1, limit: int = 4000) -> bool:
    """Random legal play that always plays ``card_id`` and uses its effects when it may."""
    chooser = random.Random(seed)
    for _ in range(limit):
        if game.outcome() is not None:
            return False
        actions = game.legal_actions()
        mine = [a for a in actions if isinstance(a, UseEffect) and game.card_of(a.card).id == card_id]
        mine = mine or [a for a in actions
                        if isinstance(a, PlayCard) and game.card_of(a.card).id == card_id]
        action = mine[0] if mine else chooser.choice(
            [a for a in actions if a.kind != "spell"] or actions)
        for event in game.apply(action):
            if event.code == "EffectResolved" and event.card == card_id:
                return True
    return False
