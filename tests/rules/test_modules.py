"""The rules as modules (issue 9): the effect registry is the vocabulary, no module is a monolith,
and every errata rule is its own switch."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from fate_royal.cards import RuleSet, load_card_db
from fate_royal.cards.vocabulary import OPERATIONS
from fate_royal.rules import effects
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

RULES_PKG = Path(effects.__file__).resolve().parents[1]
ROOT = RULES_PKG.parents[1]


def test_effect_registry_is_the_vocabulary():
    """One handler per operation, reading exactly the declared parameters."""
    registered = {name: set(reg.params) for name, reg in effects.REGISTRY.items()}
    declared = {name: set(op.params) for name, op in OPERATIONS.items()}
    assert set(registered) == set(declared), (
        f"only registered: {sorted(set(registered) - set(declared))}; "
        f"only declared: {sorted(set(declared) - set(registered))}")
    for name in declared:
        assert registered[name] == declared[name], (
            f"{name}: handler reads {sorted(registered[name])}, vocabulary declares "
            f"{sorted(declared[name])}")


def test_an_unknown_operation_is_an_error_not_skipped():
    with pytest.raises(effects.UnknownOperation):
        effects.run_op(None, {}, {"op": "teleport", "params": {}})  # type: ignore[arg-type]


def _functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def test_no_rules_module_over_600_lines_no_function_over_80():
    too_long = []
    for path in sorted(RULES_PKG.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        lines = text.count("\n")
        if lines > 600 and path.name != "scenario.py":
            too_long.append(f"{path.relative_to(ROOT)}: {lines} lines")
        for fn in _functions(ast.parse(text)):
            length = fn.end_lineno - fn.lineno + 1
            if length > 80:
                too_long.append(f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}: {length} lines")
    assert not too_long, "\n".join(too_long)


def test_engine_asks_per_rule_never_the_errata_switch():
    """No rules module tests one errata boolean: every question names its rule."""
    offenders = []
    for path in sorted(RULES_PKG.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for needle in (".errata and", "if self.errata", "ctx.errata", "profile.errata"):
            if needle in text:
                offenders.append(f"{path.relative_to(ROOT)}: {needle}")
    assert not offenders


E8_OFF = """
title: the deck runs out with E8 switched off
rules: [errata, -E8]
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: reverse}
deck: [M-006]
discard: [S-001, S-002, M-021]
start: {player: A, step: ritual}
steps:
  - do: {player: A, action: use, card: S-003}
  - resolve
  - expect: {player: A, hand_size: 1, deck_size: 0, discard_size: 3, log_not_cites: E8}
  - expect_illegal: {do: {player: B, action: spell, kind: remove_coin, target: A}}
"""


def test_E8_off_alone_leaves_every_other_errata_rule_in_force(tmp_path):
    """``rules: [errata, -E8]``: no rebuild; the other errata rules still apply (E1.3 keeps B's
    Reverse servant from going Down; the E9 patches are applied)."""
    path = tmp_path / "e8.yaml"
    path.write_text(E8_OFF, encoding="utf-8")
    sc = load_scenario(path)
    assert sc.rules.off == frozenset({"E8"})
    run = ScenarioRun(sc)
    run.run_all()
    assert all(r.ok for r in run.results), [r.message for r in run.results if not r.ok]
    codes = [e.code for e in run.game.log]
    assert "DrawNothing" in codes and "DeckRebuilt" not in codes
    assert run.game.rule_on("E1.3") and run.game.rule_on("E9.3") and not run.game.rule_on("E8")
    db = run.game.db
    assert "E9.3" in db.patches and db.cards["C-003"].patches


def test_each_patch_is_its_own_switch():
    rules = RuleSet.house().with_tokens(["-E9.6-b"], ["E9.6-a", "E9.6-b"])
    db = load_card_db(rules=rules)
    assert db.cards["M-006"].effects[0].usable_while_down
    assert not db.cards["M-021"].effects[0].usable_while_down
    assert "E9.6-b" not in db.patches and "E9.6-a" in db.patches
