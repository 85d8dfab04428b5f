"""Rule-set comparison, specified in detail (issue 17): what a position summary holds, how the
report reads, how one-sided rules are attributed to the differences, how each side is run (a
scenario's steps, a live game's record), and the ruling sweep over rule files."""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from fate_royal.cards import RuleSet, load_card_db, load_profile
from fate_royal.rules.compare import (
    Comparison,
    Difference,
    RulingPlay,
    Side,
    StepNote,
    compare_errata,
    compare_rules,
    diff_sides,
    play_ruling,
    position_summary,
    replay_side,
    ruling_sweep,
    run_scenario_side,
)
from fate_royal.rules.actions import ChooseAttack, Pass
from fate_royal.rules.events import Event
from fate_royal.rules.game import Game
from fate_royal.rules.record import OptionChange
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "scenarios" / "rulings"


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def played(path: Path) -> Game:
    run = ScenarioRun(load_scenario(path))
    assert all(r.ok for r in run.run_all())
    return run.game


# --------------------------------------------------------------------------- position_summary

RICH = """
title: a still position with every kind of card place
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    seat: [{card: M-006, state: down}, {card: M-006}, {card: M-021}]
    hand: [S-003, S-001]
    coins: {assassination: 1}
  - name: B
    servant: {hero: H-015, class: セイバー, state: reverse}
    mana: 2
deck: [M-006, S-001, S-001]
discard: [M-021, M-901]
grail: [S-003]
start: {player: A, step: ritual}
steps:
  - say: nothing happens
"""


def test_summary_of_a_still_position_lists_every_player_value_and_where_each_card_is(tmp_path):
    """Seat cards are grouped by card id with their states sorted (a card without a state is
    rise); a card in several places reads "place×count"; cards left in the box are not listed."""
    summ = position_summary(played(write(tmp_path, RICH)))
    assert summ == {
        "players.A.servant": "H-001/C-001",
        "players.A.servant_state": "rise",
        "players.A.class_state": "rise",
        "players.A.card_states.M-006": "down, rise",
        "players.A.card_states.M-021": "rise",
        "players.A.seat_size": 3,
        "players.A.mana": 5,
        "players.A.mana_limit": 5,
        "players.A.command_spells": 3,
        "players.A.coins.assassination": 1,
        "players.A.hand_size": 2,
        "players.A.out": False,
        "players.A.stats": "8/6/3/4",
        "players.B.servant": "H-015/C-001",
        "players.B.servant_state": "reverse",
        "players.B.class_state": "reverse",
        "players.B.seat_size": 0,
        "players.B.mana": 2,
        "players.B.mana_limit": 5,
        "players.B.command_spells": 3,
        "players.B.hand_size": 0,
        "players.B.out": False,
        "players.B.stats": "8/4/1/3",
        "zones.C-001": "A:seat, B:seat",
        "zones.H-001": "A:seat",
        "zones.H-015": "B:seat",
        "zones.M-006": "A:seat×2, deck",
        "zones.M-021": "A:seat, discard",
        "zones.M-901": "discard",
        "zones.S-001": "A:hand, deck×2",
        "zones.S-003": "A:hand, grail",
        "piles.deck_size": 3,
        "piles.discard_size": 2,
        "piles.grail_size": 1,
        "piles.stack_size": 0,
        "game.turn": 1,
        "game.turn_player": "A",
        "game.step": "ritual",
        "game.process": None,
        "game.active_master": "A",
        "game.over": False,
        "game.winner": None,
    }


def test_summary_lists_paths_in_section_order_players_zones_piles_game(tmp_path):
    summ = position_summary(played(write(tmp_path, RICH)))
    sections = [k.split(".", 1)[0] for k in summ]
    assert sections == sorted(sections, key=["players", "zones", "piles", "game"].index)


def test_summary_of_a_won_game_names_the_winner_the_combat_process_and_removed_cards():
    """D14: B's servant is destroyed in A's raid; B is out (no servant, no stats) and A wins."""
    summ = position_summary(played(RULINGS / "D14-destroyed-servant.yaml"))
    assert summ == {
        "players.A.servant": "H-001/C-001",
        "players.A.servant_state": "rise",
        "players.A.class_state": "rise",
        "players.A.seat_size": 0,
        "players.A.mana": 5,
        "players.A.mana_limit": 5,
        "players.A.command_spells": 3,
        "players.A.hand_size": 0,
        "players.A.out": False,
        "players.A.stats": "8/6/3/4",
        "players.B.servant": None,
        "players.B.servant_state": None,
        "players.B.seat_size": 0,
        "players.B.mana": 0,
        "players.B.mana_limit": 5,
        "players.B.command_spells": 3,
        "players.B.hand_size": 0,
        "players.B.out": True,
        "zones.C-001": "A:seat",
        "zones.C-007": "removed",
        "zones.H-001": "A:seat",
        "zones.H-016": "removed",
        "zones.M-006": "discard",
        "zones.M-021": "discard",
        "zones.M-901": "discard",
        "zones.S-002": "deck",
        "piles.deck_size": 1,
        "piles.discard_size": 3,
        "piles.grail_size": 0,
        "piles.stack_size": 0,
        "game.turn": 1,
        "game.turn_player": "A",
        "game.step": "combat",
        "game.process": "raider_damage",
        "game.active_master": "A",
        "game.over": True,
        "game.winner": "A",
    }


def test_summary_of_a_game_nobody_won_says_none_and_has_no_active_master():
    summ = position_summary(played(RULINGS / "B8-no-winner.yaml"))
    assert summ == {
        "players.A.servant": None,
        "players.A.servant_state": None,
        "players.A.seat_size": 0,
        "players.A.mana": 0,
        "players.A.mana_limit": 5,
        "players.A.command_spells": 0,
        "players.A.hand_size": 0,
        "players.A.out": True,
        "players.B.servant": None,
        "players.B.servant_state": None,
        "players.B.seat_size": 0,
        "players.B.mana": 0,
        "players.B.mana_limit": 5,
        "players.B.command_spells": 0,
        "players.B.hand_size": 0,
        "players.B.out": True,
        "zones.C-001": "removed×2",
        "zones.H-001": "removed",
        "zones.H-015": "removed",
        "zones.S-001": "deck",
        "zones.S-003": "discard",
        "piles.deck_size": 1,
        "piles.discard_size": 1,
        "piles.grail_size": 0,
        "piles.stack_size": 0,
        "game.turn": 1,
        "game.turn_player": "A",
        "game.step": "rise",
        "game.process": None,
        "game.active_master": None,
        "game.over": True,
        "game.winner": "none",
    }


def test_summary_while_servants_are_chosen_has_no_servant_until_hero_and_class_are_there():
    """D2 (choose): A has picked a hero but no class yet, B nothing: neither has a servant; A's
    hero already has a state and stats, B (no hero) has neither, and nobody has a class state."""
    rules = RuleSet.house(load_profile().with_(servant_assignment="choose"))
    game = Game.new(load_card_db(rules=rules), rules, ["A", "B"], seed=1)
    game.apply(game.legal_actions()[0])
    summ = position_summary(game)
    players = {k: v for k, v in summ.items() if k.startswith("players.")}
    hero = game.card_of(game.state.players[0].hero).id
    stats = game.fighter_stats(0)
    assert players == {
        "players.A.servant": None,
        "players.A.servant_state": "reverse",
        "players.A.seat_size": 0,
        "players.A.mana": 5,
        "players.A.mana_limit": 5,
        "players.A.command_spells": 3,
        "players.A.hand_size": 5,
        "players.A.out": False,
        "players.A.stats": f"{stats['pa']}/{stats['pd']}/{stats['ma']}/{stats['md']}",
        "players.B.servant": None,
        "players.B.servant_state": None,
        "players.B.seat_size": 0,
        "players.B.mana": 5,
        "players.B.mana_limit": 5,
        "players.B.command_spells": 3,
        "players.B.hand_size": 5,
        "players.B.out": False,
    }
    assert summ[f"zones.{hero}"] == "A:seat"
    assert summ["game.winner"] is None and summ["game.over"] is False


# --------------------------------------------------------------------------- the report


def ruleset(label: str) -> RuleSet:
    return RuleSet.house(load_profile(), name=label, title=label)


def test_report_lines_show_each_difference_with_both_values_and_its_rules():
    on, off = Side(ruleset("house"), None), Side(ruleset("base"), None)
    c = Comparison("T", on, off, [
        Difference("players.B.servant_state", "reverse", "down", ("E1.3", "B3")),
        Difference("players.B.out", True, False),
        Difference("players.A.coins.assassination", 1, None, ("E9.3",)),
        Difference("game.winner", None, "A"),
    ], ["E1.3", "E9.3"], ["B3"])
    assert c.lines() == [
        "T: 4 difference(s) between house and base",
        "  players.B.servant_state: house=reverse  base=down  [E1.3, B3]",
        "  players.B.out: house=yes  base=no",
        "  players.A.coins.assassination: house=1  base=—  [E9.3]",
        "  game.winner: house=—  base=A",
        "  rules cited only under house: E1.3, E9.3",
        "  rules cited only under base: B3",
    ]
    assert not c.same and c.a is on and c.b is off
    assert c.side(True) is on and c.side(False) is off


def test_report_says_why_a_side_stopped_or_could_not_be_set_up():
    on = Side(ruleset("house"), None, stopped="action 2 (A: play) is not allowed")
    off = Side(ruleset("base"), None, error="cannot set up the position: bad")
    c = Comparison("T", on, off, [], [], ["B3", "B11"])
    assert c.lines() == [
        "T: 0 difference(s) between house and base",
        "  house: action 2 (A: play) is not allowed",
        "  base: cannot set up the position: bad",
        "  rules cited only under base: B3, B11",
    ]
    assert c.same


def test_report_of_a_side_with_both_an_error_and_a_stop_gives_the_error():
    on = Side(ruleset("house"), None, stopped="stopped", error="broken")
    c = Comparison("T", on, Side(ruleset("base"), None), [], [], [])
    assert c.lines() == ["T: 0 difference(s) between house and base", "  house: broken"]


def test_a_rule_set_without_title_is_labelled_by_its_name_or_as_custom_rules():
    assert Side(RuleSet.house(load_profile(), name="mine"), None).label == "mine"
    assert Side(RuleSet.house(load_profile()), None).label == "custom rules"


# --------------------------------------------------------------------------- diff_sides


def fake_game(names, events):
    """Just what diff_sides reads of a game: the players' names and the log."""
    return SimpleNamespace(ctx=SimpleNamespace(s=SimpleNamespace(
        players=[SimpleNamespace(name=n) for n in names])), log=list(events))


def test_a_restating_errata_rule_cancels_its_base_rule_only_when_each_side_cites_one():
    """E2.2 and E2.3 restate B11: E2.2 on one side and B11 on the other are no difference; but an
    errata rule cited alone stays a one-sided rule."""
    both = diff_sides(Side(ruleset("h"), None, rules=["E2.2", "E1.3"]),
                      Side(ruleset("b"), None, rules=["B11", "B3"]))
    assert both == ([], ["E1.3"], ["B3"])
    alone = diff_sides(Side(ruleset("h"), None, rules=["E2.2", "E2.3"]),
                       Side(ruleset("b"), None, rules=["B3"]))
    assert alone == ([], ["E2.2", "E2.3"], ["B3"])
    base_alone = diff_sides(Side(ruleset("h"), None, rules=["E1.3"]),
                            Side(ruleset("b"), None, rules=["B11"]))
    assert base_alone == ([], ["E1.3"], ["B11"])


def test_differences_come_in_section_order_whichever_side_has_the_path():
    on = Side(ruleset("h"), None, summary={"game.turn": 1, "piles.deck_size": 3,
                                           "players.A.mana": 2, "other.x": 1})
    off = Side(ruleset("b"), None, summary={"game.turn": 2, "zones.M-006": "deck",
                                            "players.B.out": True, "piles.deck_size": 3})
    diffs, _, _ = diff_sides(on, off)
    assert diffs == [
        Difference("players.A.mana", 2, None),
        Difference("players.B.out", None, True),
        Difference("zones.M-006", None, "deck"),
        Difference("game.turn", 1, 2),
        Difference("other.x", 1, None),
    ]


def test_each_difference_gets_the_one_sided_rules_of_its_player_or_of_events_naming_nobody():
    """Rules attach to a player through the seats their events name (seat numbers out of range
    name nobody); paths outside the players get the rules of events that name no seat; a path
    with nothing attributable gets every one-sided rule."""
    on_log = [Event("X", {"player": 0}, ("E1", "S")),
              Event("X", {"target": 1, "player": 0}, ("E2",)),
              Event("X", {}, ("E3", "S")),
              Event("X", {"player": 2}, ("E4",)),
              Event("X", {"player": -1}, ("E5",)),
              Event("X", {"player": 8, "target": 1}, ("E6",))]
    off_log = [Event("X", {"victim": 0}, ("B1",)), Event("X", {"player": 0}, ("E1",))]
    on = Side(ruleset("h"), fake_game(["A", "B"], on_log),
              summary={"players.A.mana": 1, "players.B.mana": 1, "players.C.mana": 1,
                       "zones.S-001": "deck"},
              rules=["E1", "S", "E2", "E3", "E4", "E5", "E6"])
    off = Side(ruleset("b"), fake_game(["A", "B"], off_log),
               summary={"players.A.mana": 2, "players.B.mana": 2, "players.C.mana": 2,
                        "zones.S-001": "discard"},
               rules=["S", "B1"])
    diffs, only_on, only_off = diff_sides(on, off)
    assert only_on == ["E1", "E2", "E3", "E4", "E5", "E6"] and only_off == ["B1"]
    assert [(d.path, d.rules) for d in diffs] == [
        ("players.A.mana", ("E1", "E2", "B1")),
        ("players.B.mana", ("E2", "E6")),
        ("players.C.mana", ("E1", "E2", "E3", "E4", "E5", "E6", "B1")),
        ("zones.S-001", ("E3",)),
    ]


def test_rules_are_attributed_from_the_side_that_has_a_game_when_the_other_has_none():
    on = Side(ruleset("h"), None, summary={"players.A.mana": 1}, rules=[],
              error="cannot set up the position: x")
    off = Side(ruleset("b"), fake_game(["A", "B"], [Event("X", {"player": 0}, ("B1",)),
                                                   Event("X", {"player": 1}, ("B2",))]),
               summary={"players.A.mana": 2}, rules=["B1", "B2"])
    diffs, _, _ = diff_sides(on, off)
    assert diffs == [Difference("players.A.mana", 1, 2, ("B1",))]


def test_a_difference_with_no_one_sided_rule_has_an_empty_rule_tuple():
    diffs, _, _ = diff_sides(Side(ruleset("h"), None, summary={"game.turn": 1}, rules=["B1"]),
                             Side(ruleset("b"), None, summary={"game.turn": 2}, rules=["B1"]))
    assert diffs == [Difference("game.turn", 1, 2, ())]
    assert diffs[0].rules == ()


def test_errata_comparison_of_the_rise_step_attributes_rules_per_player():
    c = compare_errata(load_scenario(RULINGS / "E1.9-rise-step.yaml"))
    assert c.differences == [
        Difference("players.A.servant_state", "down", "rise", ("E1.9", "E1.1"))]
    assert (c.rules_only_on, c.rules_only_off) == (["E9.4", "R2", "E1.9", "E1.1"], [])


def test_errata_comparison_keeps_a_lone_restating_rule_as_one_sided():
    c = compare_errata(load_scenario(RULINGS / "E2.3-errata-off-same-name.yaml"))
    assert c.rules_only_on == ["E9.4", "R2", "E2.2", "E9.6", "E2.3"] and c.rules_only_off == []
    assert c.differences == [Difference("players.B.stats", "8/4/1/3", "8/6/1/3", ("E9.4", "R2"))]


def test_a_seat_card_set_up_without_a_state_counts_as_rise(rules, db):
    game = Game(db, rules, {"players": [
        {"name": "A", "servant": {"hero": "H-001", "class": "セイバー"},
         "seat": [{"card": "M-006", "state": None}, {"card": "M-021", "state": "down"}]},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー"}}],
        "start": {"player": "A", "step": "ritual"}}, seed=1)
    summ = position_summary(game)
    assert summ["players.A.card_states.M-006"] == "rise"
    assert summ["players.A.card_states.M-021"] == "down"


# --------------------------------------------------------------------------- replaying a record


def live(path: Path) -> Game:
    run = ScenarioRun(load_scenario(path))
    run.run_all()
    return run.game


def test_replaying_past_the_end_of_a_won_game_stops_with_the_engine_error(rules, db):
    """An engine error that is no refusal (here GameOver) stops the side with its type and message;
    the position reached is still summarised, with the rules cited so far."""
    game = live(RULINGS / "D14-destroyed-servant.yaml")
    rec = game.record
    side = replay_side(rec.setup, list(rec.actions) + [Pass(0)], rules, db=db, seed=rec.seed)
    assert side.stopped == "action 3 failed: GameOver: the game is over"
    assert (side.applied, side.total) == (2, 3)
    assert side.game is not None and len(side.game.history) == 2
    assert side.summary == position_summary(game)
    assert side.rules == ["B1", "D3", "D4", "D5", "B6", "P6", "D11", "B2", "E2.3", "E7.1", "D14",
                          "B8"]
    assert not side.complete


def test_a_refusal_without_a_rule_names_the_rule_set_and_adds_no_brackets(rules, db):
    game = live(RULINGS / "D14-destroyed-servant.yaml")
    side = replay_side(game.record.setup, [ChooseAttack(0, "physical")], rules, db=db, seed=1)
    assert side.stopped == ("action 1 (A: attack) is not allowed under house: "
                            "that action is not allowed now")
    assert (side.applied, side.total) == (0, 1)


def test_a_refusal_names_the_rule_set_by_title_then_name_then_as_these_rules(profile, db):
    setup = live(RULINGS / "D14-destroyed-servant.yaml").record.setup
    refusal = ("action 1 (B: pass) is not allowed under {}: "
               "it is seat 0's decision, not seat 1's [D6]")
    for ruleset, label in ((RuleSet.house(profile, name="nm", title="Title"), "Title"),
                           (RuleSet.house(profile, name="nm"), "nm"),
                           (RuleSet.house(profile), "these rules")):
        side = replay_side(setup, [Pass(1)], ruleset, db=db, seed=1)
        assert side.stopped == refusal.format(label)


def test_replay_uses_seed_zero_unless_told(rules, db):
    setup = {"players": [{"name": "A"}, {"name": "B"}]}
    side = replay_side(setup, [], rules, db=db)
    assert side.summary == position_summary(Game(db, rules, setup, seed=0))
    assert side.summary != position_summary(Game(db, rules, setup, seed=1))
    assert side.complete and side.total == 0


def test_a_position_that_cannot_be_set_up_is_an_error_not_an_exception(rules, db):
    side = replay_side({"players": [{"name": "A", "hand": ["H-001"]}, {"name": "B"}]}, [Pass(0)],
                       rules, db=db)
    assert side.error == "cannot set up the position: H-001 cannot be in a hand"
    assert side.game is None and side.summary == {} and side.total == 1 and not side.complete


def record_with_option_change(rules, db):
    game = Game.new(db, rules, ["A", "B"], seed=3, auto_pass=False)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    game.set_option("auto_pass", True)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    return game


def test_replay_applies_the_records_options_and_option_changes_and_counts_only_actions(rules, db):
    game = record_with_option_change(rules, db)
    entries = game.record.actions
    assert len(entries) == 7 and sum(isinstance(e, OptionChange) for e in entries) == 1
    c = compare_rules(game.record, rules, rules)
    for side in (c.on, c.off):
        assert side.complete and (side.applied, side.total) == (6, 6)
        assert side.summary == position_summary(game)
        assert side.game.record.options == {"auto_pass": False}
        assert side.game.record.actions == entries
    assert c.same and c.title == "current position"


def test_the_replayed_game_keeps_the_scenarios_own_cards(rules):
    """B4-mana-cost defines S-955 in its cards:; the default card data loader adds them, and the
    replayed game carries them (so it can be saved)."""
    game = live(RULINGS / "B4-mana-cost.yaml")
    assert game.cards
    c = compare_errata(game)
    assert c.on.complete and c.off.complete
    assert c.on.game.cards == c.off.game.cards == game.cards
    assert c.on.summary["players.A.mana"] == 0


# --------------------------------------------------------------------------- compare_rules


def test_only_scenarios_games_and_records_can_be_compared(rules):
    with pytest.raises(TypeError, match="^cannot compare int$"):
        compare_rules(3, rules, rules)


def test_the_comparison_title_is_given_or_the_scenarios_or_current_position(rules, rules_off, db):
    sc = load_scenario(RULINGS / "E1.9-rise-step.yaml")
    assert compare_rules(sc, rules, rules_off).title == sc.title
    assert sc.title == "ライズステップ：ダウン→ライズ、デンジャー→ダウン"
    assert compare_rules(sc, rules, rules_off, title="mine").title == "mine"
    game = Game.new(db, rules, ["A", "B"], seed=1)
    assert compare_rules(game, rules, rules_off).title == "current position"
    assert compare_rules(game, rules, rules_off, title="mine").title == "mine"
    assert compare_errata(game, title="mine").title == "mine"
    assert compare_errata(sc, title="mine").title == "mine"


def test_a_scenario_can_be_compared_up_to_a_step(rules, rules_off):
    sc = load_scenario(RULINGS / "E8-deck-rebuilt.yaml")
    one = compare_rules(sc, rules, rules_off, 1)
    for side in (one.on, one.off):
        assert (side.applied, side.total, len(side.steps)) == (1, 1, 1)
    assert one.on.summary["piles.stack_size"] == 1
    assert one.on.ruleset.name == "house" and one.off.ruleset.name == "base"
    for upto in (0, -1):
        none = compare_rules(sc, rules, rules_off, upto)
        assert (none.on.applied, none.on.total, none.on.steps) == (0, 0, [])
        assert (none.off.applied, none.off.total, none.off.steps) == (0, 0, [])
        assert none.on.summary["piles.deck_size"] == 1 and none.on.complete
    errata = compare_errata(sc, 1)
    assert (errata.on.total, errata.off.total) == (1, 1)


def test_a_record_can_be_compared_with_other_actions(rules, rules_off, db):
    game = Game.new(db, rules, ["A", "B"], seed=3)
    for _ in range(4):
        game.apply(game.legal_actions()[0])
    first = game.record.actions[:1]
    c = compare_rules(game.record, rules, rules_off, first)
    assert (c.on.applied, c.on.total, c.off.applied, c.off.total) == (1, 1, 1, 1)
    e = compare_errata(game, first)
    assert (e.on.total, e.off.total) == (1, 1)


def test_the_card_data_loader_gets_each_rule_set_and_the_records_cards(rules, rules_off):
    game = live(RULINGS / "B4-mana-cost.yaml")
    calls = []

    def loader(ruleset, extra):
        calls.append((ruleset, extra))
        return load_card_db(extra=extra or None, rules=ruleset)

    c = compare_rules(game, rules, rules_off, db_loader=loader)
    assert calls == [(rules, list(game.cards)), (rules_off, list(game.cards))]
    assert c.on.complete and c.off.complete


def test_card_data_that_fails_to_load_for_the_first_set_still_runs_the_second(rules, rules_off, db):
    game = Game.new(db, rules, ["A", "B"], seed=1)

    def loader(ruleset, extra):
        if ruleset is rules:
            raise ValueError("broken")
        return db

    c = compare_rules(game, rules, rules_off, db_loader=loader)
    assert c.on.error == "cannot load the card data: broken"
    assert c.on.ruleset is rules and c.on.label == "house" and c.on.game is None
    assert c.off.complete and c.off.ruleset is rules_off
    assert c.lines()[1] == "  house: cannot load the card data: broken"


# --------------------------------------------------------------------------- compare_errata


def test_errata_comparison_of_a_scenario_is_house_against_base_whatever_the_file_says():
    """E2.1-errata-off-… sets errata: false; the comparison still runs it with the errata on."""
    c = compare_errata(load_scenario(RULINGS / "E2.1-errata-off-ritual-any-turn.yaml"))
    assert c.on.errata and not c.off.ruleset.all_errata
    assert (c.on.label, c.off.label) == ("house", "base")
    assert c.on.stopped == ("step 2 (line 21) cannot be played under house: illegal action: "
                            "M-007 cannot be used now (ritual_own_turn) [E2.1]")
    assert (c.on.applied, c.on.total, len(c.on.steps)) == (2, 5, 2)
    assert c.off.complete and c.off.applied == 5
    assert [(d.path, d.on, d.off, d.rules) for d in c.differences] == [
        ("players.B.card_states.M-007", "rise", "down", ("E9.4", "R2", "B5", "B11", "B4")),
        ("players.B.hand_size", 0, 1, ("E9.4", "R2", "B5", "B11", "B4")),
        ("zones.S-001", "deck", "B:hand", ("P1",)),
        ("piles.deck_size", 2, 1, ("P1",)),
    ]


def test_errata_comparison_of_a_game_uses_its_own_profile_and_names_the_sets_house_and_base():
    profile = load_profile().with_(start_mana=4)
    rules = RuleSet.base(profile)
    game = Game.new(load_card_db(rules=rules), rules, ["A", "B"], seed=2)
    game.apply(game.legal_actions()[0])
    c = compare_errata(game.record)
    for side, name in ((c.on, "house"), (c.off, "base")):
        assert side.ruleset.profile == profile
        assert (side.ruleset.name, side.ruleset.title) == (name, name)
        assert side.summary["players.A.mana"] == 4
    assert c.on.errata and not c.off.ruleset.all_errata
    assert c.on.ruleset.off == RuleSet.house(profile).off
    assert c.off.ruleset.off == RuleSet.base(profile).off


# --------------------------------------------------------------------------- scenario sides


def test_each_scenario_step_is_noted_and_a_failed_check_does_not_stop_the_run(rules, rules_off):
    sc = load_scenario(RULINGS / "E8-deck-rebuilt.yaml")
    on = run_scenario_side(sc, rules)
    check = ("{'player': 'A', 'hand_size': 2, 'deck_size': 1, 'discard_size': 0, 'grail_size': 1, "
             "'log_cites': …")
    assert on.steps == [
        StepNote(0, "do: {'player': 'A', 'action': 'use', 'card': 'S-003'}", True,
                 "A: use card=26 effect=1 targets=()", ["B5", "E2.2", "B9"]),
        StepNote(1, "resolve: {}", True, "resolved (2 passes)", ["D6", "P1", "D5", "E8", "D15"]),
        StepNote(2, f"expect: {check}", True, f"ok: {check}", []),
    ]
    assert on.complete and (on.applied, on.total) == (3, 3) and on.game is not None
    off = run_scenario_side(sc, rules_off)
    assert [s.ok for s in off.steps] == [True, True, False]
    assert off.complete and (off.applied, off.total) == (3, 3)
    assert off.summary["players.A.hand_size"] == 1
    assert off.rules == ["B1", "D3", "D4", "D5", "B5", "B11", "B9", "D6", "P1", "D15"]


def test_a_failed_expect_illegal_does_not_stop_the_run_but_a_refused_action_does(tmp_path, rules):
    sc = load_scenario(write(tmp_path, """
        title: t
        seed: 1
        players:
          - name: A
            servant: {hero: H-001, class: セイバー, state: rise}
            hand: [S-003]
          - name: B
            servant: {hero: H-015, class: セイバー, state: rise}
        start: {player: A, step: ritual}
        steps:
          - expect_illegal: {do: {player: A, action: pass}}
          - expect: {player: A, mana: 1}
          - say: next
          - do: {player: B, action: pass}
          - do: {player: A, action: pass}
        """))
    side = run_scenario_side(sc, rules)
    assert [s.ok for s in side.steps] == [False, False, True, False]
    assert side.applied == 4 and side.total == 5
    assert side.stopped == ("step 4 (line 15) cannot be played under house: illegal action: "
                            "it is seat 0's decision, not seat 1's [D6]")
    assert side.steps[3].message == "illegal action: it is seat 0's decision, not seat 1's [D6]"


def test_a_scenario_side_whose_rules_cannot_be_made_keeps_the_asked_rules(tmp_path, rules):
    """A cards folder without profile.yaml: the rule set cannot be made; the side says so and
    keeps what was asked for (errata on/off, or the given set)."""
    sc = load_scenario(RULINGS / "E8-deck-rebuilt.yaml")
    empty = tmp_path / "cards"
    empty.mkdir()
    on = run_scenario_side(sc, True, root=empty)
    assert on.error.startswith("cannot set up the position: ") and "profile.yaml" in on.error
    assert on.ruleset.all_errata and on.game is None and on.total == 3 and on.summary == {}
    off = run_scenario_side(sc, False, root=empty)
    assert not off.ruleset.all_errata and off.ruleset.no_errata
    given = run_scenario_side(sc, rules, upto=2, root=empty)
    assert given.ruleset is rules and given.total == 2


def test_a_scenario_position_that_cannot_be_built_is_a_setup_error(tmp_path, rules):
    sc = load_scenario(write(tmp_path, """
        title: t
        seed: 1
        players:
          - name: A
            servant: {hero: H-001, class: セイバー, state: rise}
            hand: [H-002]
          - name: B
            servant: {hero: H-015, class: セイバー, state: rise}
        steps:
          - say: hi
        """))
    side = run_scenario_side(sc, rules)
    assert side.error == (f"cannot set up the position: {sc.path}:4: cannot set up: "
                          "H-002 cannot be in a hand")
    assert side.ruleset == rules and side.game is None and side.total == 1


# --------------------------------------------------------------------------- another cards folder


@pytest.fixture
def cards_root(tmp_path):
    """A copy of the shipped cards where Artoria has 7 physical attack (not 6) and the profile
    gives 2 command spells (not 3)."""
    root = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", root)
    hero = root / "heroes" / "H-001.yaml"
    text = hero.read_text(encoding="utf-8")
    assert "stats: {pa: 6, pd: 5, ma: 3, md: 3}" in text
    hero.write_text(text.replace("stats: {pa: 6, pd: 5, ma: 3, md: 3}",
                                 "stats: {pa: 7, pd: 5, ma: 3, md: 3}"), encoding="utf-8")
    prof = root / "profile.yaml"
    text = prof.read_text(encoding="utf-8")
    assert "start_command_spells: 3" in text
    prof.write_text(text.replace("start_command_spells: 3", "start_command_spells: 2"),
                    encoding="utf-8")
    return root


def test_a_scenario_compared_with_another_cards_folder_uses_its_cards_and_profile(
        tmp_path, cards_root, rules, rules_off):
    sc = load_scenario(write(tmp_path, RICH))
    for c in (compare_errata(sc, root=cards_root),
              compare_rules(sc, rules, rules_off, root=cards_root)):
        for side in (c.on, c.off):
            assert side.complete
            assert side.summary["players.A.stats"] == "9/6/3/4"
            assert side.summary["players.B.command_spells"] == 2
    assert position_summary(played(write(tmp_path, RICH)))["players.A.stats"] == "8/6/3/4"


def test_a_game_compared_with_another_cards_folder_loads_that_card_data(tmp_path, cards_root, rules,
                                                                       rules_off):
    game = played(write(tmp_path, RICH))
    for c in (compare_errata(game, root=cards_root),
              compare_rules(game, rules, rules_off, root=cards_root)):
        for side in (c.on, c.off):
            assert side.complete
            assert side.summary["players.A.stats"] == "9/6/3/4"
            assert side.summary["players.B.command_spells"] == 3  # the game's own profile


# --------------------------------------------------------------------------- the ruling sweep

SCENE_PLAY = """
title: a scene put face down on the seat
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
start: {player: A, step: ritual}
steps:
  - do: {player: A, action: play, card: S-003}
"""


def test_playing_a_ruling_passes_with_its_own_rules(rules_off):
    path = RULINGS / "E1.3-reverse-never-down.yaml"
    play = play_ruling(path, None)
    assert (play.ok, play.error, play.failures) == (True, "", [])
    assert play.game is not None and play.game.rules.all_errata
    off = play_ruling(path, rules_off)
    assert not off.ok and off.error == "" and off.failures
    assert all(f.startswith(f"{path}:") for f in off.failures)
    assert not off.game.rules.all_errata


def test_each_failed_step_of_a_ruling_is_listed_with_file_and_line(tmp_path, rules):
    path = write(tmp_path, SCENE_PLAY.replace(
        "steps:\n",
        "steps:\n  - expect: {player: A, mana: 1}\n  - expect: {player: A, hand_size: 0}\n"))
    play = play_ruling(path, rules.with_tokens(["-E1.8"]))
    assert play.ok is False and play.error == ""
    assert play.failures == [
        f"{path}:12 mana: expected 1, got 5",
        f"{path}:13 hand_size: expected 0, got 1",
        f"{path}:14 illegal action: scenes are placed on the field only under E1.8 [E1.8]",
    ]
    assert len(play.game.history) == 0


def test_a_ruling_that_cannot_be_loaded_or_set_up_is_a_failed_play_with_the_message(tmp_path):
    missing = tmp_path / "missing.yaml"
    play = play_ruling(missing, None)
    assert (play.ok, play.game, play.failures) == (False, None, [])
    assert play.error == f"{missing}:0: cannot read file: No such file or directory"
    bad = write(tmp_path, SCENE_PLAY.replace("hand: [S-003]", "hand: [H-002]"), "bad.yaml")
    play = play_ruling(bad, None)
    assert (play.ok, play.game) == (False, None)
    assert play.error == f"{bad}:4: cannot set up: H-002 cannot be in a hand"


def test_a_folder_given_as_a_ruling_is_a_failed_play(tmp_path):
    play = play_ruling(tmp_path, RuleSet.house(load_profile()))
    assert play.ok is False and play.game is None
    assert play.error.startswith(f"{tmp_path}:0: cannot read file")


def test_the_sweep_lists_rulings_whose_outcome_changes_with_the_first_differing_event(tmp_path,
                                                                                     rules):
    """Under the house rules without E1.8 the scene cannot be played: the logs are the same up to
    the play, which only the first set has."""
    path = write(tmp_path, SCENE_PLAY, "E1.8-scene.yaml")
    same = RULINGS / "E1.9-errata-off-rise-step.yaml"
    no_e18 = rules.with_tokens(["-E1.8"])
    entries = ruling_sweep([str(same), path], rules, no_e18)
    assert [e.path for e in entries] == [path]
    e = entries[0]
    assert e.title == "a scene put face down on the seat" and e.changed
    assert (e.first.ok, e.second.ok) == (True, False)
    assert e.index == len(e.second.game.log) == 6 < len(e.first.game.log)
    assert e.event(True).code == "CardPlayed" and e.event(True) is e.first.game.log[6]
    assert e.event(False) is None
    everything = ruling_sweep([same, path], rules, no_e18, changed_only=False)
    assert [x.path for x in everything] == [same, path]
    assert everything[0].index is None and not everything[0].changed
    assert everything[0].event(True) is None


def test_the_sweep_points_at_the_first_event_that_differs():
    path = RULINGS / "E1.3-reverse-never-down.yaml"
    [e] = ruling_sweep([path], None, RuleSet.base(load_profile()))
    assert e.index == 4 and e.title == load_scenario(path).title
    assert e.event(True).to_dict() != e.event(False).to_dict()
    assert e.event(True) is e.first.game.log[4] and e.event(False) is e.second.game.log[4]
    assert ([x.to_dict() for x in e.first.game.log[:4]]
            == [x.to_dict() for x in e.second.game.log[:4]])


def test_a_ruling_that_fails_to_load_is_titled_by_its_file_name_and_changes_nothing(tmp_path):
    missing = tmp_path / "E9-missing.yaml"
    assert ruling_sweep([missing], None, None) == []
    [e] = ruling_sweep([missing], None, None, changed_only=False)
    assert e.title == "E9-missing" and e.index is None and not e.changed
    assert e.event(True) is None and e.event(False) is None


def test_an_unexpected_error_while_setting_up_a_ruling_is_reported_as_internal_not_raised():
    """Whatever goes wrong in the engine while a ruling is set up (here a rule set that is no
    RuleSet), the sweep goes on: the play fails with the exception's type and message."""
    play = play_ruling(RULINGS / "E1.3-reverse-never-down.yaml", "house")  # type: ignore[arg-type]
    assert play == RulingPlay(
        False, "internal error: AttributeError: 'str' object has no attribute 'with_'")


def test_the_default_card_data_has_only_the_card_patches_of_each_rule_set():
    """E9.2 adds a cost to 竜牙兵 (Medea goes Down); the base rules' card data has no such
    cost."""
    c = compare_errata(live(RULINGS / "E9.2-dragon-tooth-cost.yaml"))
    assert c.differences == [Difference("players.A.servant_state", "down", "rise",
                                        ("E9.2", "E6.1", "B4", "E1.1"))]
    assert c.on.complete and c.off.complete


def test_the_sweep_plays_each_ruling_under_the_first_then_the_second_set(rules_off):
    path = RULINGS / "E1.3-reverse-never-down.yaml"
    [e] = ruling_sweep([path], rules_off, None)
    assert (e.first.ok, e.second.ok) == (False, True)
    assert not e.first.game.rules.all_errata and e.second.game.rules.all_errata


def test_a_ruling_that_sets_up_under_one_set_only_is_a_change_with_no_differing_event():
    path = RULINGS / "E1.3-reverse-never-down.yaml"
    [e] = ruling_sweep([path], None, "house")  # type: ignore[arg-type]
    assert e.changed and e.first.ok and e.second.error.startswith("internal error: ")
    assert e.index is None and e.event(True) is None and e.event(False) is None


def test_default_titles_of_errata_comparisons():
    sc = load_scenario(RULINGS / "E1.9-rise-step.yaml")
    assert compare_errata(sc).title == sc.title
    assert compare_errata(live(RULINGS / "E1.9-rise-step.yaml")).title == "current position"


def test_a_step_count_that_is_not_a_number_plays_the_whole_scenario(rules, rules_off):
    c = compare_rules(load_scenario(RULINGS / "E8-deck-rebuilt.yaml"), rules, rules_off, ["x"])
    assert (c.on.total, c.on.applied, c.off.total) == (3, 3, 3)
