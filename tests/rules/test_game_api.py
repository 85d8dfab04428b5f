"""The Game facade's contract (design.md "The rules engine")."""

import random

import pytest

from fate_royal.rules.actions import Action, DeclareRaid, Pass
from fate_royal.rules.errors import IllegalAction, SetupError
from fate_royal.rules.game import Game
from fate_royal.rules.simulate import choose_action
from fate_royal.rules.state import GameState


def play(game, n, seed=0):
    chooser = random.Random(seed)
    for _ in range(n):
        if game.outcome() is not None:
            break
        game.apply(choose_action(chooser, game.legal_actions()))


def test_new_game_deals_D2_D3_D4(db, rules):
    g = Game.new(db, rules, ["A", "B", "C"], seed=5)
    s = g.state
    for p in s.players:
        assert p.hero is not None and p.klass is not None
        assert s.card_states[p.hero] == "reverse"  # D2
        assert p.mana == 5 and p.mana_limit == 5 and p.command_spells == 3  # D3
        assert len(p.hand) == 5
    assert s.active_master == s.turn_player  # D4
    assert len(s.deck) + 15 >= rules.profile.deck_min_size  # D1 padding
    assert g.pending is not None


def test_same_seed_same_game(db, rules):
    a, b = Game.new(db, rules, ["A", "B"], seed=9), Game.new(db, rules, ["A", "B"], seed=9)
    play(a, 80, seed=3)
    play(b, 80, seed=3)
    assert a.state.to_dict() == b.state.to_dict()
    assert [e.to_dict() for e in a.log] == [e.to_dict() for e in b.log]


def test_illegal_action_leaves_state_untouched(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    before = g.state.to_dict()
    log_len = len(g.log)
    other = 1 - g.pending.player
    with pytest.raises(IllegalAction) as err:
        g.apply(Pass(other))
    assert err.value.reason == "not_your_turn"
    assert err.value.rule == "D6"
    assert g.state.to_dict() == before
    assert len(g.log) == log_len


def test_raid_outside_combat_step_is_refused_with_rule(db, rules):
    g = Game.new(db, rules, ["A", "B"], seed=1)
    p = g.pending.player
    with pytest.raises(IllegalAction) as err:
        g.apply(DeclareRaid(p, 1 - p))
    assert err.value.rule in ("D5", "D6")


def test_undo_redo_any_number(db, rules):
    g = Game.new(db, rules, ["A", "B", "C", "D"], seed=2)
    snapshots = [g.state.to_dict()]
    chooser = random.Random(4)
    for _ in range(40):
        if g.outcome():
            break
        g.apply(choose_action(chooser, g.legal_actions()))
        snapshots.append(g.state.to_dict())
    n = len(g.history)
    for i in range(n, 0, -1):
        g.undo()
        assert g.state.to_dict() == snapshots[i - 1]
    for i in range(1, n + 1):
        g.redo()
        assert g.state.to_dict() == snapshots[i]
    assert not g.can_redo()


def test_state_round_trip(db, rules):
    g = Game.new(db, rules, ["A", "B", "C"], seed=7)
    play(g, 120, seed=7)
    d = g.state.to_dict()
    assert GameState.from_dict(d).to_dict() == d


def test_actions_round_trip_as_plain_data(db, rules):
    g = Game.new(db, rules, ["A", "B", "C"], seed=8)
    play(g, 60, seed=8)
    for a in g.history:
        assert Action.from_dict(a.to_dict()) == a


def test_bad_setup_is_a_clear_error(db, rules):
    with pytest.raises(SetupError):
        Game.new(db, rules, ["Solo"], seed=1)
    with pytest.raises(SetupError):
        Game.new(db, rules, ["A"] * 8, seed=1)
    with pytest.raises(SetupError):
        Game(db, rules, {"scenario": True, "players": [
            {"name": "A", "servant": {"hero": "H-999", "class": "セイバー"}}, {"name": "B"}]})


def test_every_event_cites_a_rule(db, rules):
    g = Game.new(db, rules, ["A", "B", "C"], seed=11)
    play(g, 200, seed=11)
    uncited = [e.code for e in g.log if not e.rules]
    assert uncited == []


def test_dice_are_scripted_first(db, rules):
    g = Game(db, rules, {"scenario": True, "seed": 1, "dice": [1], "players": [
        {"name": "A", "servant": {"hero": "H-001", "class": "セイバー", "state": "rise"}},
        {"name": "B", "servant": {"hero": "H-002", "class": "アーチャー", "state": "rise"}}],
        "start": {"player": "A", "step": "encounter"}})
    rolls = [e for e in g.log if e.code == "DieRolled"]
    assert rolls and rolls[0].args["value"] == 1 and rolls[0].args["scripted"] is True
    assert g.state.combat is not None and g.state.combat.encounter


def test_servant_assignment_choose_hides_choice_behind_decisions(db, rules):
    choose = rules.with_(profile=rules.profile.with_(servant_assignment="choose"))
    g = Game.new(db, choose, ["A", "B"], seed=3)
    assert g.pending.kind == "choose_hero"
    while g.pending.kind in ("choose_hero", "choose_class"):
        g.apply(g.legal_actions()[0])
    assert all(p.hero and p.klass for p in g.state.players)


@pytest.mark.parametrize("start", ["reverse", "rise"])
def test_chosen_servant_cards_take_the_start_state(db, rules, start):
    """D2: a chosen hero takes the profile's servant start state; its class card is Reverse with a
    Reverse servant and Rise otherwise. Both choices are logged."""
    choose = rules.with_(profile=rules.profile.with_(servant_assignment="choose",
                                                     servant_start_state=start))
    g = Game.new(db, choose, ["A", "B"], seed=3)
    while g.pending.kind in ("choose_hero", "choose_class"):
        want = "hero" if g.pending.kind == "choose_hero" else "class"
        options = g.legal_actions()
        assert options and all(g.card_of(a.option).kind == want for a in options)
        g.apply(options[-1])
    s = g.state
    for p in s.players:
        assert s.card_states[p.hero] == start
        assert s.card_states[p.klass] == ("reverse" if start == "reverse" else "rise")
    chosen = [e for e in g.log if e.code == "ServantChosen"]
    assert [e.args["player"] for e in chosen] == [0, 1] and all(e.rules == ("D2",) for e in chosen)


def test_setup_errors_name_the_card(db, rules):
    with pytest.raises(SetupError, match="H-002 cannot be in a hand"):
        Game(db, rules, {"scenario": True, "players": [
            {"name": "A", "servant": {"hero": "H-001", "class": "セイバー"}, "hand": ["H-002"]},
            {"name": "B", "servant": {"hero": "H-015", "class": "セイバー"}}]})


def test_scenario_without_a_start_player_starts_with_the_first_seat(db, rules):
    """D4 with first_player = first_seat: a position that names no starting player starts with seat 0."""
    first = rules.with_(profile=rules.profile.with_(first_player="first_seat"))
    g = Game(db, first, {"scenario": True, "players": [
        {"name": "A", "servant": {"hero": "H-001", "class": "セイバー"}},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー"}}]})
    assert g.state.turn_player == 0 and g.state.active_master == 0


