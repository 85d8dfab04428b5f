"""The Game facade's record and history (design.md "The rules engine", issue 9): a game is built
from its setup, seed and options (each copied, each checked); ``apply``/``set_option`` append to the
record and return the events they produced; ``undo``, ``redo``, ``rewind`` and ``cut_to`` are cuts
of the record, restored from the nearest undo checkpoint (one every ``CHECKPOINT_EVERY`` entries)
and replayed exactly, option changes included; ``replay`` rebuilds a record and names the first
entry the rules refuse; ``fork``/``play`` are the search's unrecorded copy and fast path. Also the
small questions the UI asks (player names, keywords, targets, seat capacity) and what counts as an
action of this game at all."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fate_royal.rules import perform as perform_module
from fate_royal.rules.actions import Pass, UseEffect
from fate_royal.rules.errors import GameOver, IllegalAction
from fate_royal.rules.game import CHECKPOINT_EVERY, Game, Outcome
from fate_royal.rules.legality import Refusal
from fate_royal.rules.record import GameRecord, OptionChange
from fate_royal.rules.simulate import choose_action

from positions import play as play_position

TWO = {"players": [{"name": "A"}, {"name": "B"}]}


def digest(game: Game) -> str:
    return json.dumps(game.state.to_dict(), sort_keys=True)


def events(evs) -> list:
    return [e.to_dict() for e in evs]


def play_out(game: Game, n: int, seed: int) -> None:
    chooser = random.Random(seed)
    for _ in range(n):
        game.apply(choose_action(chooser, game.legal_actions()))


def recorded(db, rules, n_actions: int = 40, flips=(10, 17, 33), seed: int = 2):
    """A two-player game of ``n_actions`` seeded actions with ``auto_pass`` flipped before the
    actions numbered in ``flips``; returns the game and, for every length of its record, the
    position, the options and the log length after that many entries."""
    game = Game.new(db, rules, ["A", "B"], seed=seed)
    chooser = random.Random(seed)
    after = {0: (digest(game), dict(game.options), game.log_length)}
    for i in range(n_actions):
        if i in flips:
            game.set_option("auto_pass", not game.options["auto_pass"])
            after[len(game.entries)] = (digest(game), dict(game.options), game.log_length)
        game.apply(choose_action(chooser, game.legal_actions()))
        after[len(game.entries)] = (digest(game), dict(game.options), game.log_length)
    assert game.outcome() is None and len(game.history) == n_actions
    return game, after


def at(game: Game):
    return (digest(game), dict(game.options), game.log_length)


def refused(call, *args) -> tuple:
    with pytest.raises(IllegalAction) as err:
        call(*args)
    return err.value.reason, err.value.rule, err.value.message


# ------------------------------------------------------------------ construction


def test_the_seed_may_come_with_the_setup_and_is_not_kept_in_it(db, rules):
    g = Game(db, rules, dict(TWO, seed=7))
    assert g.seed == 7 and "seed" not in g.setup and "seed" not in g.record.setup
    assert digest(g) == digest(Game.new(db, rules, ["A", "B"], seed=7))


def test_a_setup_without_a_seed_plays_seed_0_as_does_new_without_one(db, rules):
    g = Game(db, rules, TWO)
    assert g.seed == 0 and Game.new(db, rules, ["A", "B"]).seed == 0
    assert digest(g) == digest(Game.new(db, rules, ["A", "B"], seed=0))
    assert digest(Game.new(db, rules, ["A", "B"])) == digest(g)


def test_an_explicit_seed_wins_over_the_setups_and_the_setups_is_dropped(db, rules):
    g = Game(db, rules, dict(TWO, seed=7), seed=3)
    assert g.seed == 3 and "seed" not in g.setup and "seed" not in g.record.setup
    assert g.record.to_dict()["seed"] == 3
    assert digest(g) == digest(Game.new(db, rules, ["A", "B"], seed=3))


def test_setup_options_and_cards_given_are_copied_not_shared(db, rules):
    setup = {"players": [{"name": "A"}, {"name": "B"}]}
    options = {"stops": {"0": ["my_turn"]}}
    cards = [{"id": "S-968", "kind": "scene", "effects": [{"name": "x"}]}]
    g = Game(db, rules, setup, options=options, cards=cards)
    setup["players"][0]["name"] = "Z"
    options["stops"]["0"].append("my_combat")
    cards[0]["effects"].append({"name": "y"})
    assert g.setup["players"][0]["name"] == "A"
    assert g.record.setup["players"][0]["name"] == "A"
    assert g.options["stops"] == {"0": ["my_turn"]}
    assert g.record.options["stops"] == {"0": ["my_turn"]}
    assert g.cards == ({"id": "S-968", "kind": "scene", "effects": [{"name": "x"}]},)


@pytest.mark.parametrize("options, message", [
    ({"auto_pass": "yes"}, "auto_pass must be true or false"),
    ({"colour": 1}, "unknown option 'colour' (options: auto_pass, stops, seats)"),
    ({"seats": {"0": 3}}, "seat 0 is 3, not a person or a computer level (human, random, basic, strong)"),
    ({"seats": {"0": "easy"}}, "seat 0 is 'easy', not a person or a computer level (human, random, basic, "
                                "strong)"),
    ({"stops": {"1": ["rise"]}}, "stops of seat 1: unknown stop 'rise' (stops: my_turn, my_combat, every_window)"),
])
def test_a_bad_starting_option_is_refused_with_its_message(db, rules, options, message):
    with pytest.raises(ValueError) as err:
        Game(db, rules, TWO, options=options)
    assert str(err.value) == message


def test_a_new_game_has_version_0_no_entries_and_nothing_to_undo_or_redo(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    assert g.version == 0 and g.entries == () and g.history == ()
    assert g.can_undo() is False and g.can_redo() is False
    assert refused(g.undo) == ("nothing_to_undo", "", "nothing to undo")
    assert refused(g.redo) == ("nothing_to_redo", "", "nothing to redo")
    g.rewind(0)  # the start is a position of a game keeping undo history: nothing to do
    g.cut_to(0)
    assert g.version == 0 and g.entries == ()


# ------------------------------------------------------------------ changing and the version


def test_the_version_counts_the_changes_of_the_position(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    first = g.state
    g.apply(g.legal_actions()[0])
    assert g.version == 1 and g.state is not first
    g.set_option("auto_pass", False)
    assert g.version == 2
    g.set_option("auto_pass", False)  # no change, no new version
    assert g.version == 2
    g.undo()
    assert g.version == 3
    g.redo()
    assert g.version == 4


def test_apply_and_play_mixed_never_hand_out_a_stale_state(db, rules):
    """The state copy is made once per version: a change through ``apply`` followed by one through
    ``play`` must not bring back an earlier version's copy."""
    g = Game.new(db, rules, ["A", "B"], seed=1, auto_pass=False)
    start = digest(g)
    g.apply(g.legal_actions()[0])
    g.play(g.legal_actions()[0])
    assert g.version == 2 and digest(g) != start
    assert digest(g) == json.dumps(g.ctx.s.to_dict(), sort_keys=True)


def test_apply_returns_the_events_of_that_action_only(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    assert g.log_length > 0
    for i in range(6):
        before = g.log_length
        evs = g.apply(g.legal_actions()[-1 if i % 2 else 0])
        assert events(evs) == events(g.log[before:]) and len(evs) == g.log_length - before
        assert evs


def test_set_option_returns_the_events_it_caused_and_records_only_changes(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    assert g.set_option("auto_pass", True) == []  # already so: nothing recorded
    assert g.entries == () and g.version == 0
    before = g.log_length
    assert events(g.set_option("auto_pass", False)) == events(g.log[before:])
    assert g.entries == (OptionChange("auto_pass", False),)
    play_out(g, 3, seed=1)
    before = g.log_length
    assert events(g.set_option("auto_pass", True)) == events(g.log[before:])
    assert g.options["auto_pass"] is True


def test_set_option_refuses_a_bad_value_with_its_message(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    with pytest.raises(ValueError) as err:
        g.set_option("auto_pass", "no")
    assert str(err.value) == "auto_pass must be true or false"
    assert g.entries == () and g.version == 0


def test_an_option_value_set_is_copied_into_the_game_and_its_record(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    stops = {"0": ["my_turn"]}
    g.set_option("stops", stops)
    stops["0"].append("my_combat")
    assert g.options["stops"] == {"0": ["my_turn"]}
    assert g.entries[-1] == OptionChange("stops", {"0": ["my_turn"]})
    g.options["stops"]["0"].append("every_window")  # a careless reader cannot change the record
    assert g.entries[-1] == OptionChange("stops", {"0": ["my_turn"]})


def test_options_restored_by_undo_are_not_shared_with_the_record(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    g.set_option("stops", {"0": ["my_turn"]})
    play_out(g, 2, seed=1)
    g.undo()  # rebuilt from the start: the option change is replayed
    assert g.options["stops"] == {"0": ["my_turn"]}
    g.options["stops"]["0"].append("every_window")
    assert g.entries[0] == OptionChange("stops", {"0": ["my_turn"]})
    assert g.record.to_dict()["actions"][0] == {"kind": "option", "key": "stops",
                                                "value": {"0": ["my_turn"]}}


def test_an_action_that_fails_halfway_leaves_the_position_and_record_as_they_were(db, rules,
                                                                                  monkeypatch):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g, 3, seed=1)
    before, entries, version, log_length = digest(g), g.entries, g.version, g.log_length
    real = perform_module.perform
    calls = []

    def half(ctx, action):  # the action applied breaks halfway; the replay of the record does not
        real(ctx, action)
        calls.append(action)
        if len(calls) == 1:
            ctx.s.players[0].mana += 7
            raise RuntimeError("broken effect")

    monkeypatch.setattr(perform_module, "perform", half)
    with pytest.raises(RuntimeError, match="broken effect"):
        g.apply(g.legal_actions()[0])
    monkeypatch.setattr(perform_module, "perform", real)
    assert digest(g) == before and g.entries == entries and g.log_length == log_length
    assert g.version == version


# ------------------------------------------------------------------ over


def finished(db, rules) -> Game:
    g = Game.new(db, rules, ["A", "B"], seed=4)
    chooser = random.Random(4)
    while g.outcome() is None:
        g.apply(choose_action(chooser, g.legal_actions()))
    return g


def test_a_finished_game_names_its_winner_and_refuses_more_actions(db, rules):
    g = finished(db, rules)
    assert g.outcome() == Outcome(1, "B")
    assert g.pending is None
    before = digest(g)
    with pytest.raises(GameOver) as err:
        g.apply(Pass(0))
    assert str(err.value) == "the game is over"
    assert digest(g) == before


# ------------------------------------------------------------------ what is an action


def test_a_thing_that_is_not_an_action_is_refused_as_such(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    for thing, shown in (("pass", "'pass'"), (3, "3"), ({"kind": "pass", "player": 1},
                                                         "{'kind': 'pass', 'player': 1}")):
        assert g.why_illegal(thing) == Refusal("not_an_action", "", f"not an action of this game: {shown}")
        assert not g.is_legal(thing)
        assert refused(g.apply, thing) == ("not_an_action", "", f"not an action of this game: {shown}")


def test_a_bool_field_never_stands_for_a_seat_or_a_target(db, rules):
    """``Pass(False)`` equals ``Pass(0)`` and ``(True,)`` equals ``(1,)`` as Python values; neither is
    an action of this game, whether the number it stands for would be legal or not."""
    seat0 = Game.new(db, rules, ["A", "B"], seed=0)  # seat 0 has priority: Pass(0) and a (1,) target
    assert Pass(0) in seat0.legal_actions()
    assert UseEffect(0, 16, 1, (1,)) in seat0.legal_actions()
    seat1 = Game.new(db, rules, ["A", "B"], seed=1)  # seat 1: Pass(1) and a (0,) target
    assert Pass(1) in seat1.legal_actions()
    assert UseEffect(1, 41, 1, (0,)) in seat1.legal_actions()
    for g, bad in ((seat0, Pass(False)), (seat1, Pass(True)), (seat0, UseEffect(0, 16, 1, (True,))),
                   (seat1, UseEffect(1, 41, 1, (False,))), (seat1, UseEffect(1, 41, True, (0,)))):
        assert not g.is_legal(bad)
        assert g.why_illegal(bad) == Refusal("not_an_action", "", f"not an action of this game: {bad!r}")
        assert refused(g.apply, bad)[0] == "not_an_action"
        assert g.entries == ()


# ------------------------------------------------------------------ undo, redo, rewind, cut_to


def test_undo_returns_the_action_taken_back_and_redo_the_events_again(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g, 5, seed=1)
    last = g.history[-1]
    g2 = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g2, 4, seed=1)
    expected = g2.apply(last)
    assert g.undo() == last
    assert g.can_redo() is True
    got = g.redo()
    assert isinstance(got, list) and events(got) == events(expected) and got
    assert g.can_redo() is False and digest(g) == digest(g2)


def test_undo_takes_back_the_option_changes_after_the_last_action_and_redo_brings_them_back(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g, 3, seed=1)
    mid = at(g)
    g.apply(g.legal_actions()[0])
    after_action = at(g)
    g.set_option("auto_pass", False)
    g.set_option("stops", {"1": ["my_turn"]})
    end = at(g)
    g.undo()
    assert at(g) == mid and len(g.entries) == 3
    assert g.redo() != []  # the action
    assert at(g) == after_action and len(g.entries) == 4
    assert g.redo() == []  # the two option changes (no events), as one redo
    assert at(g) == end and len(g.entries) == 6 and not g.can_redo()


def test_redo_applies_the_option_changes_recorded_before_the_next_action(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g, 2, seed=1)
    g.set_option("auto_pass", False)
    g.apply(g.legal_actions()[0])
    end = at(g)
    g.cut_to(2)
    assert g.options["auto_pass"] is True
    g.redo()  # the option change, then the action
    assert at(g) == end and len(g.entries) == 4 and not g.can_redo()


def test_every_cut_of_a_record_with_option_changes_restores_exactly_its_position(db, rules):
    """Across and between the checkpoints (entries 0, 16, 32), with ``auto_pass`` flipped three
    times: cutting the record to any length gives the position, options and log of that length,
    and redoing all of it gives the end again."""
    g, after = recorded(db, rules)
    n = len(g.entries)
    assert n == 43 and sum(isinstance(e, OptionChange) for e in g.entries) == 3
    end = at(g)
    for k in sorted(after, reverse=True):
        g.cut_to(k)
        assert at(g) == after[k], f"cut_to({k})"
        assert len(g.entries) == k
    while g.can_redo():
        g.redo()
    assert at(g) == end and len(g.entries) == n


def test_rewind_to_any_number_of_actions_drops_the_option_changes_after_it(db, rules):
    g, after = recorded(db, rules)
    moves = [i for i, e in enumerate(g.entries) if not isinstance(e, OptionChange)]
    end = at(g)
    for n in (40, 33, 32, 17, 16, 15, 11, 10, 9, 1, 0):
        probe = Game.replay(g.record, db)
        probe.rewind(n)
        keep = moves[n - 1] + 1 if n else 0
        assert len(probe.history) == n and len(probe.entries) == keep, f"rewind({n})"
        assert at(probe) == after[keep], f"rewind({n})"
        while probe.can_redo():
            probe.redo()
        assert at(probe) == end
    # a rewind to the present changes nothing, not even the version
    version = g.version
    g.rewind(40)
    assert g.version == version and not g.can_redo()


def test_undo_one_action_at_a_time_across_the_checkpoints(db, rules):
    g, after = recorded(db, rules)
    entries = g.entries
    moves = [i for i, e in enumerate(entries) if not isinstance(e, OptionChange)]
    for n in range(39, -1, -1):
        assert g.undo() == entries[moves[n]]
        # the option changes made before the action taken back stay, those after it go
        assert len(g.entries) == moves[n] and at(g) == after[moves[n]], f"undo to {n}"
    assert not g.can_undo()


def test_undo_restores_the_nearest_checkpoint_and_replays_from_it(db, rules, monkeypatch):
    """Checkpoints fall every CHECKPOINT_EVERY entries (option changes count): a cut to ``k``
    entries replays only the actions between the checkpoint at or below ``k`` and ``k``."""
    assert CHECKPOINT_EVERY == 16
    g, after = recorded(db, rules)
    entries = g.entries
    replayed = []
    real = perform_module.perform

    def counting(ctx, action):
        replayed.append(action)
        return real(ctx, action)

    monkeypatch.setattr(perform_module, "perform", counting)
    for k in (42, 35, 33, 32, 31, 17, 16, 15, 3, 0):
        replayed.clear()
        g.cut_to(k)
        base = k - k % 16
        assert replayed == [e for e in entries[base:k] if not isinstance(e, OptionChange)], k
        assert at(g) == after[k]


def test_a_checkpoint_cut_back_to_still_serves_after_a_stretch_played_without_undo(db, rules,
                                                                                  monkeypatch):
    """Cut back from 50 entries to exactly a checkpoint (32), play on with ``record_undo`` off, then
    on again: the checkpoint at 32 is kept (only the one at 48 is forgotten) and undo replays from
    it, not from 16."""
    g, after = recorded(db, rules, n_actions=50, flips=())
    g.cut_to(32)
    g.record_undo = False
    chooser = random.Random(7)
    for _ in range(8):
        g.apply(choose_action(chooser, g.legal_actions()))
    g.record_undo = True
    for _ in range(3):
        g.apply(choose_action(chooser, g.legal_actions()))
    entries = g.entries
    replayed = []
    real = perform_module.perform

    def counting(ctx, action):
        replayed.append(action)
        return real(ctx, action)

    monkeypatch.setattr(perform_module, "perform", counting)
    g.cut_to(40)
    assert replayed == list(entries[32:40])
    replayed.clear()
    g.cut_to(32)
    assert replayed == [] and at(g) == after[32]


def test_checkpoints_of_an_undone_future_are_not_used_after_new_actions(db, rules):
    """Cut back below a checkpoint, play other actions past it: undo restores the new history,
    not the forgotten one."""
    g, _ = recorded(db, rules, flips=())
    g.cut_to(10)
    chooser = random.Random(99)
    positions = {10: at(g)}
    for i in range(11, 41):
        g.apply(choose_action(chooser, g.legal_actions()))
        positions[i] = at(g)
    for k in (39, 33, 32, 20, 17, 16, 10):
        g.cut_to(k)
        assert at(g) == positions[k], k
        while g.can_redo():
            g.redo()
        assert at(g) == positions[40]


def test_rewind_and_cut_to_refuse_positions_that_are_not_in_the_record(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g, 3, seed=1)
    g.set_option("auto_pass", False)
    assert refused(g.rewind, 4) == ("no_such_action", "", "no position after 4 actions")
    assert refused(g.rewind, -1) == ("no_such_action", "", "no position after -1 actions")
    assert refused(g.cut_to, 5) == ("no_such_action", "", "no position after 5 entries")
    assert refused(g.cut_to, -1) == ("no_such_action", "", "no position after -1 entries")
    version = g.version
    g.cut_to(4)  # the whole record: nothing cut, nothing to redo
    assert g.version == version and not g.can_redo() and len(g.entries) == 4
    g.cut_to(3)
    assert g.options["auto_pass"] is True and g.can_redo()
    g.cut_to(0)
    assert g.entries == () and digest(g) == digest(Game.new(db, rules, ["A", "B"], seed=1))


def test_a_game_that_stopped_keeping_undo_history_refuses_undo_rewind_and_cut(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    play_out(g, 3, seed=1)
    g.record_undo = False  # e.g. a tournament's fast headless play
    assert g.can_undo() is False
    message = ("nothing_to_undo", "", "this game keeps no undo history")
    assert refused(g.rewind, 1) == message
    assert refused(g.cut_to, 1) == message
    assert refused(g.undo) == ("nothing_to_undo", "", "nothing to undo")
    assert len(g.entries) == 3


# ------------------------------------------------------------------ replay


def test_replay_rebuilds_a_record_or_its_first_entries(db, rules):
    g, after = recorded(db, rules, n_actions=12, flips=(3, 8))
    cards = ({"id": "S-968", "kind": "scene"},)
    record = GameRecord(g.record.setup, g.record.options, rules, g.seed, g.record.actions, cards)
    whole = Game.replay(record, db)
    assert at(whole) == at(g) and whole.cards == cards and whole.record.cards == cards
    assert whole.entries == g.entries
    for upto in (0, 1, 4, 9, 14):
        part = Game.replay(record, db, upto=upto)
        assert len(part.entries) == upto and at(part) == after[upto]


def test_replay_names_the_first_entry_the_rules_refuse(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    first = g.legal_actions()[0]
    g.apply(first)
    wrong = Pass(1 - g.pending.player)
    message = g.why_illegal(wrong).message
    record = GameRecord(g.record.setup, g.record.options, rules, 1,
                        (OptionChange("auto_pass", True), first, wrong))
    with pytest.raises(IllegalAction) as err:
        Game.replay(record, db)
    assert (err.value.reason, err.value.rule) == ("not_your_turn", "D6")
    assert err.value.message == f"entry 3: {message}"
    assert str(err.value) == f"entry 3: {message} [D6]"


# ------------------------------------------------------------------ fork and play


def test_a_fork_is_the_position_without_record_history_or_log(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1, auto_pass=False)
    play_out(g, 4, seed=1)
    f = g.fork()
    assert digest(f) == digest(g) and f.legal_actions() == g.legal_actions()
    assert f.pending == g.pending
    assert f.options["auto_pass"] is False and dict(f.options) == dict(g.options)
    assert f.seed == g.seed and dict(f.setup) == dict(g.setup) and f.cards == ()
    assert f.entries == () and f.history == () and f.log == () and f.version == 0
    assert f.db is g.db and f.rules is g.rules
    assert f.can_undo() is False and f.can_redo() is False
    assert f.card_of(g.state.players[0].hero).kind == "hero"


def test_a_fork_keeps_no_undo_history_even_when_actions_are_applied_to_it(db, rules):
    f = Game.new(db, rules, ["A", "B"], seed=1).fork()
    f.apply(f.legal_actions()[0])
    assert len(f.history) == 1
    assert f.can_undo() is False
    assert refused(f.undo) == ("nothing_to_undo", "", "nothing to undo")
    assert refused(f.rewind, 0) == ("nothing_to_undo", "", "this game keeps no undo history")
    assert refused(f.cut_to, 0) == ("nothing_to_undo", "", "this game keeps no undo history")


def test_playing_a_fork_follows_the_rules_and_never_changes_the_game(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    same = Game.new(db, rules, ["A", "B"], seed=1)
    before, version = digest(g), g.version
    f = g.fork()
    chooser = random.Random(5)
    for i in range(1, 9):
        a = choose_action(chooser, f.legal_actions())
        f.play(a)
        same.apply(a)
        assert f.version == i
        assert digest(f) == digest(same) and f.legal_actions() == same.legal_actions()
    assert f.entries == () and digest(g) == before and g.version == version


def test_a_fork_of_a_given_state_starts_from_that_state_and_copies_it(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    other = Game.new(db, rules, ["A", "B"], seed=6)
    play_out(other, 5, seed=6)
    state = other.state
    f = g.fork(state)
    assert digest(f) == digest(other) != digest(g)
    f.play(f.legal_actions()[0])
    assert json.dumps(state.to_dict(), sort_keys=True) == digest(other)


# ------------------------------------------------------------------ questions


def test_player_names_for_seats_and_for_what_is_not_a_seat(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    assert [g.player_name(p) for p in (0, 1)] == ["A", "B"]
    assert g.player_name(None) == "—"
    assert g.player_name(2) == "#2" and g.player_name(-1) == "#-1" and g.player_name(7) == "#7"
    assert g.player_name(True) == "#True" and g.player_name(False) == "#False"
    assert g.player_name("A") == "#A"
    assert g.player_index("B") == 1
    with pytest.raises(KeyError) as err:
        g.player_index("Z")
    assert err.value.args == ("Z",)


POSITION = """\
title: questions about a position
seed: 1
options: {auto_pass: false}
cards:
  - id: M-962
    kind: mystic_code
    name: 魔除けの指輪
    provenance: provisional
    effects:
      - name: 指輪の加護
        timing: constant
        ops:
          - {op: grant_keyword, subject: combatant, keyword: 対魔力, if: {attack_type: magic}}
  - id: S-968
    kind: scene
    name: 自己暗示
    provenance: provisional
    effects:
      - name: 自己暗示
        timing: activated
        window: any
        target: {kind: servant, side: self}
        ops:
          - {op: set_state, subject: target, state: rise}
  - id: S-969
    kind: scene
    name: 誰かの呪い
    provenance: provisional
    effects:
      - name: 誰かの呪い
        timing: activated
        window: any
        target: {kind: servant}
        ops:
          - {op: set_state, subject: target, state: down}
players:
  - name: A
    servant: {hero: H-001, class: ライダー, state: rise}
    seat: [M-962, S-001]
    hand: [S-968, S-969]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    seat: [M-006]
  - name: C
    servant: {hero: H-012, class: キャスター, state: rise}
deck: [S-003, S-004]
start: {player: A, step: ritual}
steps:
  - expect: {step: ritual, turn_player: A}
"""


@pytest.fixture
def position(tmp_path: Path) -> Game:
    return play_position(tmp_path, POSITION, "questions.yaml")


def uid(game: Game, card_id: str) -> int:
    return next(u for u, c in game.state.cards.items() if c == card_id)


def test_keywords_asked_for_an_attack_type_count_that_types_conditions(position):
    assert "対魔力" in position.fighter_keywords(0, "magic")
    assert "対魔力" not in position.fighter_keywords(0, "physical")
    assert "対魔力" not in position.fighter_keywords(0)  # no combat: no attack type


def test_effect_targets_are_those_of_the_user_card_and_effect_asked(position):
    assert position.effect_targets(0, uid(position, "S-968"), 1) == [(0,)]
    assert position.effect_targets(0, uid(position, "S-969"), 1) == [(0,), (1,), (2,)]


def test_seat_capacity_counts_a_scene_lying_reverse_on_the_seat(position):
    slots = position.ctx.profile.seat_slots
    assert position.seat_capacity(0) == slots + 1  # S-001 lies Reverse on A's seat (E1.8)
    assert position.seat_capacity(1) == slots and position.seat_capacity(2) == slots
