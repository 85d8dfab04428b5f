"""The game is its record (issue 9): replay, saves, undo/redo and rewind are defined on
``GameRecord(setup, options, rules, seed, actions)``, options included."""

from __future__ import annotations

import json
import random

import pytest

from fate_royal.rules.actions import Pass, UseEffect
from fate_royal.rules.errors import IllegalAction
from fate_royal.rules.game import Game
from fate_royal.rules.record import GameRecord, OptionChange
from fate_royal.rules.save import load_game, save_game
from fate_royal.rules.simulate import choose_action


def _digest(game: Game) -> str:
    return json.dumps(game.ctx.s.to_dict(), sort_keys=True)


def test_option_flips_are_recorded_saved_replayed_and_undone_exactly(tmp_path, db, rules, db_loader):
    """100 seeded games, ``auto_pass`` flipped at random points: replaying the record (directly and
    through a save) reaches every position exactly, and undo after any flip restores exactly."""
    checked_undo = 0
    for seed in range(100):
        chooser = random.Random(seed)
        game = Game.new(db, rules, [f"P{i + 1}" for i in range(2 + seed % 6)], seed=seed,
                        auto_pass=bool(seed % 2))
        positions = {0: _digest(game)}
        flips = set(chooser.sample(range(1, 60), 3))
        for step in range(1, 61):
            if game.outcome() is not None:
                break
            if step in flips:
                game.set_option("auto_pass", not game.options["auto_pass"])
                assert isinstance(game.entries[-1], OptionChange)
                if game.history:
                    # undo right after a flip takes back the last action and the flip after it
                    n = len(game.history)
                    game.undo()
                    assert _digest(game) == positions[n - 1]
                    game.redo()  # the action
                    assert _digest(game) == positions[n]
                    game.redo()  # the flip
                    assert isinstance(game.entries[-1], OptionChange) and not game.can_redo()
                    checked_undo += 1
            game.apply(choose_action(chooser, game.legal_actions()))
            positions[len(game.history)] = _digest(game)
        record = game.record
        replayed = Game.replay(record, db)
        assert _digest(replayed) == _digest(game), f"seed {seed}: replay differs"
        assert replayed.record.to_dict() == record.to_dict()
        if seed % 10 == 0:
            path = save_game(game, tmp_path / f"g{seed}.json")
            assert _digest(load_game(path, db_loader)) == _digest(game)
        # rewind to any point reaches the recorded position
        for n in chooser.sample(sorted(positions), min(3, len(positions))):
            probe = Game.replay(record, db)
            probe.rewind(n)
            assert _digest(probe) == positions[n], f"seed {seed}: rewind({n})"
    assert checked_undo > 50


def test_the_old_bug_undo_after_toggling_restores_the_same_position(db, rules):
    """Before the record, undo replayed with the option as it was *now*, and 17 of 20 games
    restored a different position after a toggle."""
    failures = 0
    for seed in range(20):
        chooser = random.Random(seed)
        game = Game.new(db, rules, ["A", "B", "C", "D"], seed=seed, auto_pass=True)
        for _ in range(30):
            game.apply(choose_action(chooser, game.legal_actions()))
        snapshot = _digest(game)
        game.apply(choose_action(chooser, game.legal_actions()))
        game.set_option("auto_pass", False)
        game.apply(game.legal_actions()[0])
        game.undo()  # takes back the last action
        game.undo()  # and the one before, with the option change recorded after it
        failures += _digest(game) != snapshot
        assert game.options["auto_pass"] is True
    assert failures == 0


def test_record_round_trips_as_plain_data(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=4)
    chooser = random.Random(4)
    for i in range(40):
        if i == 10:
            game.set_option("auto_pass", False)
        game.apply(choose_action(chooser, game.legal_actions()))
    data = json.loads(json.dumps(game.record.to_dict()))
    again = GameRecord.from_dict(data)
    assert again.to_dict() == data
    assert any(isinstance(e, OptionChange) for e in again.actions)
    assert len(again.moves) == 40


@pytest.mark.parametrize("bad", ["pass", None, 3, Pass(True), Pass(False), Pass(0.0),
                                 UseEffect(0, True, 1, ()), {"kind": "pass", "player": 0}])
def test_apply_refuses_anything_that_is_not_an_action_of_this_game(db, rules, bad):
    game = Game.new(db, rules, ["A", "B"], seed=1)
    before = _digest(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(bad)
    assert err.value.reason in ("not_an_action", "not_your_turn", "not_allowed_now")
    assert _digest(game) == before
    assert not game.is_legal(bad)


def test_state_history_and_log_handed_out_are_copies(db, rules):
    game = Game.new(db, rules, ["A", "B"], seed=2)
    state = game.state
    state.players[0].mana = 99
    state.players[0].hand.clear()
    assert game.ctx.s.players[0].mana != 99 and game.ctx.s.players[0].hand
    with pytest.raises(TypeError):
        game.options["auto_pass"] = False  # type: ignore[index]
    history, log = game.history, game.log
    assert isinstance(history, tuple) and isinstance(log, tuple)
    with pytest.raises(TypeError):
        game.record.setup["players"] = []  # type: ignore[index]


def test_bad_option_is_refused(db, rules):
    game = Game.new(db, rules, ["A", "B"], seed=2)
    with pytest.raises(ValueError):
        game.set_option("auto_pass", "yes")
    with pytest.raises(ValueError):
        game.set_option("no_such_option", 1)
    assert not game.entries
