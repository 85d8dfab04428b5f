"""What each condition of the card vocabulary tests (stats.cond): the ``if:`` of an operation, the
``condition:`` and ``lost_when:`` of an effect. These are the vocabulary's meanings
(docs/card-authoring.md, "Conditions"; vocabulary.CONDITIONS), asked for every kind of seat: the
raider, the interceptor, a player outside the combat, and everyone outside a combat. The rulings
pin the conditions printed cards use (山門の守護's role and players_at_most, E9.4; 高速神言's attack
type, P7; the 軍団 bonus's opponent_has_keyword); the rest are here. Positions come from a small
scenario."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fate_royal.rules.stats import cond

import positions

POSITION = """\
title: conditions
seed: 1
options: {auto_pass: false}
players:
  - name: A
    servant: {hero: H-001, class: ライダー, state: rise}
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    seat: [M-901]
  - name: C
    servant: {hero: H-003, class: ランサー, state: down}
deck: [S-001, S-002]
start: {player: A, step: combat}
steps:
  - do: {player: A, action: raid, target: B}
  - advance: raid
  - do: {player: A, action: attack, type: magic}
"""

A, B, C = 0, 1, 2


def play(tmp_path: Path, steps: bool = True):
    text = textwrap.dedent(POSITION)
    if not steps:  # the position before the raid: no combat
        text = text[:text.index("  - do:")] + "  - expect: {step: combat}\n"
    return positions.play(tmp_path, text).ctx


@pytest.fixture
def fight(tmp_path):
    """A raids B with magic (B has not attacked yet); C, Down, is not in the combat."""
    ctx = play(tmp_path)
    assert ctx.s.combat is not None and ctx.s.combat.raider.player == A
    return ctx


@pytest.fixture
def calm(tmp_path):
    """The same seats at the start of A's combat step: no combat."""
    ctx = play(tmp_path, steps=False)
    assert ctx.s.combat is None
    return ctx


def holds(ctx, condition, players=(A, B, C), attack_type=None, target=None):
    return [cond(ctx, condition, p, attack_type, target) for p in players]


def test_attack_type_is_the_users_own(fight, calm):
    """The raider's chosen type; the interceptor has chosen none yet, nor has anyone outside the
    fight; a given attack type (the one a damage process asks about) is used instead."""
    assert holds(fight, {"attack_type": "magic"}) == [True, False, False]
    assert holds(fight, {"attack_type": "physical"}) == [False, False, False]
    assert holds(fight, {"attack_type": "physical"}, attack_type="physical") == [True, True, True]
    assert holds(fight, {"attack_type": "magic"}, attack_type="physical") == [False, False, False]
    assert holds(calm, {"attack_type": "magic"}) == [False, False, False]
    assert holds(calm, {"attack_type": "magic"}, attack_type="magic") == [True, True, True]


def test_role_is_the_users_side_in_the_combat(fight, calm):
    assert holds(fight, {"role": "raider"}) == [True, False, False]
    assert holds(fight, {"role": "interceptor"}) == [False, True, False]
    assert holds(calm, {"role": "raider"}) == [False, False, False]
    assert holds(calm, {"role": "interceptor"}) == [False, False, False]


def test_in_combat_is_whether_the_users_servant_fights_now(fight, calm):
    assert holds(fight, {"in_combat": True}) == [True, True, False]
    assert holds(fight, {"in_combat": False}) == [False, False, True]
    assert holds(calm, {"in_combat": True}) == [False, False, False]
    assert holds(calm, {"in_combat": False}) == [True, True, True]


def test_players_at_most_counts_the_players_still_in(fight):
    assert holds(fight, {"players_at_most": 3}) == [True, True, True]
    assert holds(fight, {"players_at_most": 2}) == [False, False, False]
    fight.s.players[C].out = True  # C drops out (D14): two players remain
    assert holds(fight, {"players_at_most": 2}, players=(A, B)) == [True, True]
    assert holds(fight, {"players_at_most": 1}, players=(A, B)) == [False, False]


def test_servant_state_is_the_users_servants(fight):
    assert holds(fight, {"servant_state": "rise"}) == [True, True, False]
    assert holds(fight, {"servant_state": "down"}) == [False, False, True]


def test_opponent_has_keyword_asks_the_combat_opponent(fight, calm):
    """A's opponent B carries 対魔力 (the Saber class) and 竜5 (竜種 on its seat, B12): a keyword
    matches itself or a ranked form (竜 matches 竜5). B's opponent A carries 先制 (the Rider class).
    C is in no combat, nor is anyone before the raid."""
    assert holds(fight, {"opponent_has_keyword": "対魔力"}) == [True, False, False]
    assert holds(fight, {"opponent_has_keyword": "竜"}) == [True, False, False]
    assert holds(fight, {"opponent_has_keyword": "竜5"}) == [True, False, False]
    assert holds(fight, {"opponent_has_keyword": "先制"}) == [False, True, False]
    assert holds(fight, {"opponent_has_keyword": "直感"}) == [False, False, False]
    assert holds(calm, {"opponent_has_keyword": "対魔力"}) == [False, False, False]


def test_target_has_keyword_asks_the_effects_target(fight, calm):
    assert holds(fight, {"target_has_keyword": "対魔力"}, target=B) == [True, True, True]
    assert holds(fight, {"target_has_keyword": "竜"}, target=B) == [True, True, True]
    assert holds(calm, {"target_has_keyword": "先制"}, target=A) == [True, True, True]
    assert holds(fight, {"target_has_keyword": "対魔力"}, target=A) == [False, False, False]
    assert holds(fight, {"target_has_keyword": "対魔力"}) == [False, False, False]  # no target


def test_not_negates_the_inner_condition(fight):
    assert holds(fight, {"not": {"in_combat": True}}) == [False, False, True]
    assert holds(fight, {"not": {"role": "raider"}}) == [False, True, True]
    assert holds(fight, {"not": {"target_has_keyword": "竜"}}, target=B) == [False, False, False]
    assert holds(fight, {"not": {"attack_type": "magic"}}, attack_type="magic") == [False] * 3


def test_every_test_of_a_condition_must_hold(fight):
    assert holds(fight, {"in_combat": True, "servant_state": "rise"}) == [True, True, False]
    assert holds(fight, {"in_combat": True, "role": "interceptor"}) == [False, True, False]
    assert holds(fight, {"servant_state": "rise", "in_combat": False}) == [False, False, False]
    assert holds(fight, {}) == [True, True, True]


def test_an_unknown_condition_is_an_error_never_skipped(fight):
    with pytest.raises(ValueError, match="unknown condition 'at_night'"):
        cond(fight, {"in_combat": True, "at_night": True}, A)
