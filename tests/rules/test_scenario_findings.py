"""What a failed step found, in parts (``scenario_run.Finding``): the kind of difference, the field,
the values expected and found, the rule and reason of a refusal. The front-ends say these in the
reader's language (``fate_royal.text.verdicts``); ``message`` stays the checker's English, the
findings' texts joined by "; " (test_scenario_run_spec.py pins those texts)."""

from __future__ import annotations

import dataclasses

from fate_royal.rules.scenario_run import FINDING_KINDS, Finding

from test_scenario_run_spec import ASSASSIN, HEAD, OVER, new_run


def found(tmp_path, steps: str, head: str = HEAD) -> list[list[tuple]]:
    """Each step's findings as (kind, key, want, got, rule, reason); checks that a step fails
    exactly when it found something, and that its message is their texts."""
    out = []
    for r in new_run(tmp_path, steps, head).run_all():
        assert r.ok == (not r.findings)
        if r.findings:
            assert r.message == "; ".join(f.text for f in r.findings)
            assert all(f.kind in FINDING_KINDS and str(f) == f.text for f in r.findings)
        out.append([(f.kind, f.key, f.want, f.got, f.rule, f.reason) + ((f.player,) if f.player else ())
                    for f in r.findings])
    return out


def test_a_step_that_holds_finds_nothing(tmp_path):
    assert found(tmp_path, """\
      - say: hi
      - expect: {player: A, mana: 5}
      - do: {player: A, action: pass}
    """) == [[], [], []]


def test_a_value_check_finds_the_field_and_both_values(tmp_path):
    assert found(tmp_path, """\
      - expect: {player: B, servant_state: down, mana: 1, out: true}
      - expect: {player: B, coins: {assassination: 1}, stats: {pa: 1}}
      - expect: {step: combat, process: raid, pending: discard}
    """) == [
        [("mismatch", "servant_state", "down", "rise", "", ""), ("mismatch", "mana", 1, 5, "", ""),
         ("mismatch", "out", True, False, "", "")],
        [("mismatch", "coins.assassination", 1, 0, "", ""), ("mismatch", "stats.pa", 1, 8, "", "")],
        [("mismatch", "step", "combat", "ritual", "", ""), ("mismatch", "process", "raid", None, "", ""),
         ("mismatch", "pending", "discard", "priority", "", "")]]


def test_a_winner_before_the_end_and_after_it(tmp_path):
    assert found(tmp_path, "  - expect: {winner: A}\n") == [[("not_over", "winner", "A", None, "", "")]]
    assert found(tmp_path, "  - expect: {winner: A}\n", OVER) == \
        [[("mismatch", "winner", "A", "C", "", "")]]


def test_a_zone_check_finds_the_card_and_where_it_is(tmp_path):
    assert found(tmp_path, """\
      - expect: {card: S-001, zone: discard}
      - expect: {card: S-003, zone: hand, player: B}
    """) == [[("zone", "S-001", "discard", ["deck", "hand"], "", "")],
             [("zone", "S-003", "hand", ["deck"], "", "")]]


def test_log_checks_find_the_rule(tmp_path):
    assert found(tmp_path, """\
      - expect: {log_cites: D5}
      - expect: {log_cites: D5}
      - do: {player: A, action: use, card: S-001, targets: B}
      - expect: {log_cites: E9.9, log_not_cites: [E2.2, B5]}
    """) == [[], [("not_cited", "", None, [], "D5", "")], [],
             [("not_cited", "", None, ["B5", "B9", "E2.2"], "E9.9", ""), ("cited", "", None, None, "E2.2", ""),
              ("cited", "", None, None, "B5", "")]]


def test_a_refusal_by_another_rule_or_for_another_reason(tmp_path):
    assert found(tmp_path, """\
      - expect_illegal: {do: {player: B, action: pass}, rule: E1.1}
      - expect_illegal: {do: {player: A, action: attack, type: magic}, rule: D5}
      - expect_illegal: {do: {player: B, action: pass}, reason: too_late}
    """) == [[("other_rule", "", "E1.1", None, "D6", "not_your_turn")],
             [("other_rule", "", "D5", None, "", "not_allowed_now")],
             [("other_reason", "", "too_late", None, "D6", "not_your_turn")]]


def test_an_action_that_should_be_refused_and_one_that_was(tmp_path):
    assert found(tmp_path, """\
      - expect_illegal: {do: {player: A, action: pass}}
      - do: {player: B, action: pass}
      - expect: {card: S-0001, zone: hand}
    """) == [[("allowed", "", None, None, "", "")],
             [("illegal", "", None, None, "D6", "not_your_turn")],
             [("error", "", None, None, "", "")]]


def test_an_advance_that_waits_for_a_decision_or_outlives_the_game(tmp_path):
    assert found(tmp_path, """\
      - do: {player: A, action: use, card: C-003, targets: [B]}
      - advance: combat
      - do: {action: advance, step: raid}
    """, ASSASSIN) == [[], [("blocked", "combat", None, "discard", "", "", "A")],
                       [("blocked", "raid", None, "discard", "", "", "A")]]
    assert found(tmp_path, "  - advance: combat\n  - do: {action: advance, step: raid}\n", OVER) == \
        [[("ended", "combat", None, None, "", "")], [("ended", "raid", None, None, "", "")]]


def test_an_engine_bug_is_an_error_finding_never_a_traceback(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: pass}\n")

    def broken(game, action):
        raise ValueError("boom")

    run.describe_action = broken
    assert run.forward().findings == [Finding("error", "internal error: ValueError: boom")]


def test_a_finding_is_a_value():
    f = Finding("cited", "log cites B5 but should not", rule="B5")
    assert f == Finding("cited", "log cites B5 but should not", rule="B5") and str(f) == f.text
    assert dataclasses.is_dataclass(f) and hash(f) == hash(Finding("cited", f.text, rule="B5"))


def test_a_rules_error_of_the_engine_is_an_error_finding(tmp_path):
    """Neither a refusal nor a scenario mistake (the game is over, say): an "error" finding with
    the engine's words."""
    from fate_royal.rules.errors import RulesError

    run = new_run(tmp_path, "  - do: {player: A, action: pass}\n")

    def over(action):
        raise RulesError("the game is over")

    run.game.apply = over
    assert run.forward().findings == [Finding("error", "the game is over")]
