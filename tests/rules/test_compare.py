"""Errata comparison (issue 5): the same position and script with the house errata on and off, and
the differences between them with the rules that made them."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.cards import RuleSet, load_card_db, load_profile
from fate_royal.rules.compare import Difference, compare_errata, compare_rules, position_summary
from fate_royal.rules.game import Game
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun
from scenes import SCENE_ON_SEAT

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "scenarios" / "rulings"
DEMOS = ROOT / "scenarios" / "demos"

GANDR_ON_REVERSE = """
title: ガンド on a Reverse servant
seed: 1
dice: [4]
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-001]
  - name: B
    servant: {hero: H-015, class: セイバー, state: reverse}
start: {player: A, step: ritual}
steps:
  - do: {player: A, action: use, card: S-001, targets: [B]}
  - resolve
"""


def scenario(tmp_path, text=GANDR_ON_REVERSE):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def test_E1_3_reverse_servant_hit_by_gandr_differs(tmp_path):
    """Errata on: a Reverse servant never goes Down (E1.3). Errata off: ガンド's 4 makes it Down."""
    c = compare_errata(scenario(tmp_path))
    d = c.difference("players.B.servant_state")
    assert d == Difference("players.B.servant_state", "reverse", "down", d.rules)
    assert "E1.3" in d.rules
    assert "E1.3" in c.rules_only_on
    assert c.on.complete and c.off.complete
    assert not c.same
    assert any("players.B.servant_state" in line for line in c.lines())


def test_restated_rules_are_not_a_difference(tmp_path):
    """E2.2 restates B11: citing one on each side is not a difference."""
    c = compare_errata(scenario(tmp_path))
    assert "E2.2" not in c.rules_only_on and "B11" not in c.rules_only_off


def test_live_game_replays_history_both_ways(tmp_path):
    run = ScenarioRun(scenario(tmp_path))
    run.run_all()
    c = compare_errata(run.game)
    assert c.on.applied == c.off.applied == len(run.game.history)
    assert c.difference("players.B.servant_state").off == "down"
    # the live game itself is not touched
    assert run.game.servant_state(1) == "reverse"


def test_replay_stops_where_an_action_is_illegal_under_the_other_rules(tmp_path):
    """E1.8: only under the errata is a scene put on the field (face down). Replaying that history
    under the base rules stops at the first action, and says so."""
    run = ScenarioRun(scenario(tmp_path, SCENE_ON_SEAT))
    run.run_all()
    assert run.passed
    c = compare_errata(run.game)
    assert c.on.complete
    assert "action 1 (A: play) is not allowed under base" in c.off.stopped
    assert "E1.8" in c.off.stopped
    refused = c.off.refused  # the same, for the view to word in its language
    assert (refused["number"], refused["action"].kind, refused["rule"]) == (1, "play", "E1.8")
    assert refused["reason"] and c.on.refused == {}
    assert c.off.applied == 0 < len(run.game.history)
    assert c.differences


def test_deck_rebuild_zones_and_piles_differ():
    c = compare_errata(load_scenario(RULINGS / "E8-deck-rebuilt.yaml"))
    assert c.difference("piles.discard_size") == Difference("piles.discard_size", 0, 2, ("E8",))
    assert c.difference("players.A.hand_size").on == 2
    assert "E8" in c.rules_only_on


def test_dropping_out_differs_in_outcome_fields():
    c = compare_errata(load_scenario(RULINGS / "E4.1-zero-spells-drop-out.yaml"))
    d = c.difference("players.B.out")
    assert (d.on, d.off) == (True, False)
    assert "E4.1" in d.rules


def test_record_form_and_any_two_rule_sets():
    rules = RuleSet.house(load_profile())
    db = load_card_db(rules=rules)
    game = Game.new(db, rules, ["A", "B"], seed=3)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    c = compare_errata(game.record)
    assert c.on.applied == 6
    assert isinstance(c.differences, list)
    no_e8 = rules.with_tokens(["-E8"])
    c = compare_rules(game.record, rules, no_e8)
    assert c.on.label != c.off.label or c.on.ruleset.off != c.off.ruleset.off
    assert c.on.applied == c.off.applied == 6


def test_summary_names_players_not_seats():
    rules = RuleSet.house(load_profile())
    game = Game.new(load_card_db(rules=rules), rules, ["Ann", "Bob"], seed=1)
    summ = position_summary(game)
    assert "players.Ann.mana" in summ and summ["players.Bob.command_spells"] == 3
    assert summ["piles.deck_size"] == len(game.state.deck)


def test_bad_card_data_on_one_side_is_reported_not_raised(tmp_path):
    rules = RuleSet.house(load_profile())
    db = load_card_db(rules=rules)
    game = Game.new(db, rules, ["A", "B"], seed=1)

    def loader(ruleset, extra):
        if ruleset.no_errata:
            raise ValueError("broken")
        return db

    c = compare_errata(game, db_loader=loader)
    assert c.off.error and "broken" in c.off.error and c.on.complete


@pytest.mark.parametrize("path", sorted(DEMOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_every_demo_compares(path):
    c = compare_errata(load_scenario(path))
    assert c.on.complete  # every demo plays through with its own errata setting (on by default)


def test_a_ruling_played_under_other_rules_keeps_each_failed_step_with_its_findings():
    """E1.3 under the base rules: the play keeps the failed step's result (the sweep words it
    from its findings), the same step its failure line names."""
    from fate_royal.cards.rulesets import shipped_ruleset
    from fate_royal.rules.compare import play_ruling

    path = Path(__file__).resolve().parents[2] / "scenarios" / "rulings" / "E1.3-reverse-never-down.yaml"
    play = play_ruling(path, shipped_ruleset("base"))
    assert not play.ok and len(play.failed) == len(play.failures) >= 1
    first = play.failed[0]
    assert play.failures[0] == f"{path}:{first.step.line} {first.message}"
    assert {f.kind for f in first.findings} >= {"not_cited"}
