"""The ``expect:`` checks that ``scenario_run`` builds with factories: the player fields (mana,
mana_limit, command_spells, out), the position keys (step, process, turn_player, active_master,
pending, stack_size, deck_size, discard_size, grail_size) and the log keys (log_cites,
log_not_cites): when each passes, and the exact words of each failure.

``scenario_run.CHECKS`` builds these checks once, when the module is imported. The tests therefore
build them again here through their factories (``_player_field``, ``_check_position``,
``_check_log``), at test time, and check both those and the ``CHECKS`` table: the mutation run
imports the module before it switches a mutant on, so a check built at import time never runs a
mutated factory.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import (
    CHECKS, ScenarioRun, _check_log, _check_position, _player_field,
)

# A in the ritual step with cards to play; S-001 (ガンド) targets a servant and goes on the stack.
RITUAL = """\
title: ritual
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003, S-001, S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    hand: [S-002]
deck: [S-001, S-002, S-003]
start: {player: A, step: ritual}
"""

# A raids B; with no interception the raid process begins at once and A must choose an attack.
RAID = """\
title: raid
seed: 1
profile: {interception: false}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: combat}
"""

# Over before the first step: A falls to the coins' upkeep (mana 0), B (no command spells) drops
# out, C wins; the Active Master coin goes to nobody and nothing is pending.
OVER = """\
title: over
seed: 1
players:
  - name: A
    servant: {hero: H-016, class: セイバー, state: rise}
    mana: 1
    coins: {assassination: 2}
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    command_spells: 0
  - name: C
    servant: {hero: H-001, class: セイバー, state: rise}
deck: [S-001, S-002, M-006]
start: {player: A, step: rise}
"""

POSITION_KEYS = ("step", "process", "turn_player", "active_master", "deck_size", "discard_size",
                 "grail_size", "stack_size", "pending")
PLAYER_FIELDS = ("mana", "mana_limit", "command_spells", "out")

_DBS: dict = {}


def new_run(tmp_path: Path, head: str, steps: str = "  - say: hi\n") -> ScenarioRun:
    path = tmp_path / "s.yaml"
    path.write_text(head + "steps:\n" + textwrap.dedent(steps), encoding="utf-8")
    scenario = load_scenario(path)
    if head not in _DBS:
        _DBS[head] = scenario.load_db()
    return ScenarioRun(scenario, scenario.build_game(db=_DBS[head]))


def player(run: ScenarioRun, key: str, p: int, want) -> list[str]:
    """The failures of ``key: want`` for player ``p``, by a freshly built check; the table's check
    must say the same."""
    fails = _player_field(key)(run, {}, p, want, 7)
    assert CHECKS[key].run(run, {}, p, want, 7) == fails
    return [str(f) for f in fails]  # each Finding reads as the checker's sentence


def position(run: ScenarioRun, key: str, want) -> list[str]:
    fails = _check_position(key)(run, {}, None, want, 7)
    assert CHECKS[key].run(run, {}, None, want, 7) == fails
    return [str(f) for f in fails]  # each Finding reads as the checker's sentence


def log(run: ScenarioRun, key: str, want) -> list[str]:
    fails = _check_log(key)(run, {}, None, want, 7)
    assert CHECKS[key].run(run, {}, None, want, 7) == fails
    return [str(f) for f in fails]  # each Finding reads as the checker's sentence


def positions(run: ScenarioRun, **want) -> dict[str, list[str]]:
    return {k: position(run, k, v) for k, v in want.items()}


# --- player fields


@pytest.mark.parametrize("key, p, got", [
    ("mana", 0, 0), ("mana", 2, 5), ("mana_limit", 0, 5), ("command_spells", 1, 0),
    ("command_spells", 2, 3), ("out", 0, True), ("out", 2, False),
])
def test_a_player_field_passes_when_it_equals_the_players_value(tmp_path, key, p, got):
    run = new_run(tmp_path, OVER)
    assert player(run, key, p, got) == []


@pytest.mark.parametrize("key, p, want, message", [
    ("mana", 0, 1, "mana: expected 1, got 0"),
    ("mana", 2, 4, "mana: expected 4, got 5"),
    ("mana_limit", 1, 6, "mana_limit: expected 6, got 5"),
    ("command_spells", 1, 3, "command_spells: expected 3, got 0"),
    ("out", 2, True, "out: expected True, got False"),
    ("out", 0, False, "out: expected False, got True"),
])
def test_a_player_field_that_differs_fails_naming_the_key_the_expected_and_the_actual_value(
        tmp_path, key, p, want, message):
    run = new_run(tmp_path, OVER)
    assert player(run, key, p, want) == [message]


def test_a_player_field_compares_exactly_no_more_no_less(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert player(run, "mana", 0, 5) == []
    assert player(run, "mana", 0, 6) == ["mana: expected 6, got 5"]
    assert player(run, "mana", 0, 4) == ["mana: expected 4, got 5"]
    assert player(run, "mana", 0, None) == ["mana: expected None, got 5"]


def test_a_player_field_reads_the_named_player_not_another(tmp_path):
    run = new_run(tmp_path, OVER)
    assert player(run, "command_spells", 0, 3) == []
    assert player(run, "command_spells", 1, 3) == ["command_spells: expected 3, got 0"]


# --- position keys


def test_the_position_of_a_ritual_step_with_nothing_on_the_stack(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert positions(run, step="ritual", process=None, turn_player="A", active_master="A",
                     deck_size=3, discard_size=0, grail_size=0, stack_size=0,
                     pending="priority") == {k: [] for k in POSITION_KEYS}


def test_every_position_key_that_differs_fails_with_its_expected_and_actual_value(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert positions(run, step="combat", process="raid", turn_player="B", active_master="B",
                     deck_size=2, discard_size=1, grail_size=4, stack_size=1,
                     pending="discard") == {
        "step": ["step: expected 'combat', got 'ritual'"],
        "process": ["process: expected 'raid', got None"],
        "turn_player": ["turn_player: expected 'B', got 'A'"],
        "active_master": ["active_master: expected 'B', got 'A'"],
        "deck_size": ["deck_size: expected 2, got 3"],
        "discard_size": ["discard_size: expected 1, got 0"],
        "grail_size": ["grail_size: expected 4, got 0"],
        "stack_size": ["stack_size: expected 1, got 0"],
        "pending": ["pending: expected 'discard', got 'priority'"],
    }


def test_sizes_compare_exactly_one_more_or_one_less_fails(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert position(run, "deck_size", 3) == []
    assert position(run, "deck_size", 4) == ["deck_size: expected 4, got 3"]
    assert position(run, "deck_size", 2) == ["deck_size: expected 2, got 3"]
    assert position(run, "stack_size", None) == ["stack_size: expected None, got 0"]
    assert position(run, "pending", None) == ["pending: expected None, got 'priority'"]
    assert position(run, "active_master", None) == ["active_master: expected None, got 'A'"]
    assert position(run, "process", "raid") == ["process: expected 'raid', got None"]


def test_a_card_on_the_stack_counts_in_stack_size_and_its_cost_in_grail_size(tmp_path):
    run = new_run(tmp_path, RITUAL, "  - do: {player: A, action: use, card: S-001, targets: B}\n")
    assert run.forward().ok
    assert positions(run, stack_size=1, grail_size=1, discard_size=0, deck_size=3) == {
        "stack_size": [], "grail_size": [], "discard_size": [], "deck_size": []}
    assert position(run, "stack_size", 0) == ["stack_size: expected 0, got 1"]
    assert position(run, "grail_size", 0) == ["grail_size: expected 0, got 1"]


def test_in_a_combat_the_process_and_the_pending_choice_are_named(tmp_path):
    run = new_run(tmp_path, RAID, "  - do: {player: A, action: raid, target: B}\n")
    assert run.forward().ok
    assert positions(run, step="combat", process="raid", pending="attack", turn_player="A",
                     active_master="A", deck_size=2) == {
        k: [] for k in ("step", "process", "pending", "turn_player", "active_master", "deck_size")}
    assert position(run, "process", None) == ["process: expected None, got 'raid'"]
    assert position(run, "process", "engagement") == ["process: expected 'engagement', got 'raid'"]
    assert position(run, "pending", "priority") == ["pending: expected 'priority', got 'attack'"]


def test_once_the_game_is_over_no_active_master_and_nothing_pending_read_as_null(tmp_path):
    run = new_run(tmp_path, OVER)
    assert positions(run, active_master=None, pending=None, process=None, step="rise",
                     turn_player="A") == {
        "active_master": [], "pending": [], "process": [], "step": [], "turn_player": []}
    assert position(run, "active_master", "C") == ["active_master: expected 'C', got None"]
    assert position(run, "pending", "priority") == ["pending: expected 'priority', got None"]
    assert position(run, "turn_player", "C") == ["turn_player: expected 'C', got 'A'"]


# --- log keys


def test_log_cites_passes_for_a_rule_cited_since_the_start(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert run.cited_since_check() == {"B1", "D3", "D4", "D5", "E9.4", "R2"}
    assert log(run, "log_cites", "B1") == []
    assert log(run, "log_cites", ["B1", "R2", "E9.4"]) == []


def test_log_cites_fails_for_each_missing_rule_listing_what_was_cited(tmp_path):
    run = new_run(tmp_path, RITUAL)
    cited = "B1, D3, D4, D5, E9.4, R2"
    assert log(run, "log_cites", "B5") == [
        f"log does not cite B5 since the previous check (cited: {cited})"]
    assert log(run, "log_cites", ["B5", "R2", "P6"]) == [
        f"log does not cite B5 since the previous check (cited: {cited})",
        f"log does not cite P6 since the previous check (cited: {cited})"]


def test_log_cites_with_nothing_cited_since_the_previous_check_says_nothing(tmp_path):
    run = new_run(tmp_path, RITUAL, "  - expect: {step: ritual}\n")
    assert run.forward().ok
    assert run.cited_since_check() == set()
    assert log(run, "log_cites", "B1") == [
        "log does not cite B1 since the previous check (cited: nothing)"]
    assert log(run, "log_not_cites", ["B1", "R2"]) == []


def test_log_cites_reads_only_what_happened_since_the_previous_check(tmp_path):
    run = new_run(tmp_path, RITUAL, """\
      - expect: {step: ritual}
      - do: {player: A, action: use, card: S-001, targets: B}
    """)
    run.forward()
    assert run.forward().ok
    assert log(run, "log_cites", ["B5", "B9", "E2.2"]) == []
    assert log(run, "log_cites", "R2") == [
        "log does not cite R2 since the previous check (cited: B5, B9, E2.2)"]


def test_log_not_cites_passes_for_rules_not_cited_and_fails_for_each_cited_one(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert log(run, "log_not_cites", "B5") == []
    assert log(run, "log_not_cites", ["B5", "P6"]) == []
    assert log(run, "log_not_cites", "R2") == ["log cites R2 but should not"]
    assert log(run, "log_not_cites", ["B5", "R2", "D3"]) == [
        "log cites R2 but should not", "log cites D3 but should not"]


def test_a_rule_given_as_a_number_is_compared_as_its_text(tmp_path):
    run = new_run(tmp_path, RITUAL)
    assert log(run, "log_cites", 5) == [
        "log does not cite 5 since the previous check (cited: B1, D3, D4, D5, E9.4, R2)"]
    assert log(run, "log_not_cites", 5) == []


def test_log_cites_and_log_not_cites_never_report_the_other_kind_of_failure(tmp_path):
    run = new_run(tmp_path, RITUAL)
    # a cited rule: log_cites is satisfied and never says "should not"
    assert log(run, "log_cites", ["D4", "D5"]) == []
    # a rule not cited: log_not_cites is satisfied and never says "does not cite"
    assert log(run, "log_not_cites", ["X9", "B5"]) == []


def test_an_expect_step_reports_the_log_failures_in_order(tmp_path):
    run = new_run(tmp_path, RITUAL, """\
      - expect: {log_cites: [R2, B5], log_not_cites: [D3, P6]}
    """)
    result = run.forward()
    assert (result.ok, result.message) == (
        False, "log does not cite B5 since the previous check (cited: B1, D3, D4, D5, E9.4, R2); "
               "log cites D3 but should not")
