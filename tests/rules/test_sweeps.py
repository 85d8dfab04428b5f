"""Seeded random-game sweeps: invariants after every action, errata on and off, 2–7 players,
plus save → load and to_dict → from_dict round trips at random points.

The long sweep (≥ 20,000 games) runs from the command line:
    fate-royal simulate --games 20000 --players 2-7 --seed 0 --quiet
"""

import random

import pytest

from fate_royal.rules.game import Game
from fate_royal.rules.invariants import check_state
from fate_royal.rules.save import load_game, save_game
from fate_royal.rules.simulate import choose_action, random_game
from fate_royal.rules.state import GameState


SEEDS = range(0, 24)


@pytest.mark.parametrize("errata", [True, False], ids=["errata-on", "errata-off"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7])
def test_random_games_hold_invariants(db, db_off, rules, rules_off, players, errata):
    for seed in SEEDS[:8]:
        res = random_game(db if errata else db_off, rules if errata else rules_off, players,
                          seed * 7 + players, check=True)
        assert res.error == "", f"seed {res.seed}: {res.error}\nhistory: {res.history}"
        assert res.finished


@pytest.mark.parametrize("errata", [True, False], ids=["errata-on", "errata-off"])
def test_round_trips_at_random_points(tmp_path, db, db_off, rules, rules_off, errata, db_loader):
    cards = db if errata else db_off
    prof = rules if errata else rules_off
    for seed in range(6):
        chooser = random.Random(seed)
        game = Game.new(cards, prof, [f"P{i}" for i in range(2 + seed)], seed=seed)
        points = set(chooser.sample(range(1, 150), 4))
        step = 0
        while game.outcome() is None and step < 150:
            game.apply(choose_action(chooser, game.legal_actions()))
            step += 1
            assert check_state(game.state) == []
            if step in points:
                d = game.state.to_dict()
                assert GameState.from_dict(d).to_dict() == d
                path = save_game(game, tmp_path / f"g{seed}-{step}.json")
                loaded = load_game(path, db_loader)
                assert loaded.state.to_dict() == d
                assert [a.to_dict() for a in loaded.history] == [a.to_dict() for a in game.history]
