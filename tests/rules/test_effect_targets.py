"""What an effect's ``target:`` lets its user pick (legality.effect_targets), for the target sides
and card kinds no shipped card uses yet: ``side: self`` (the user's own servant), ``side: any``
(the default: every servant still in the game) and a ``card`` target without ``card_kinds`` (mystic
codes only, not the scenes lying Reverse on a seat). These are the card vocabulary's meanings
(docs/card-authoring.md, "Target keys"), not a rule of the game; the sides a rule decides have
their rulings (B6-combat-opponent-target-is-the-other-fighter.yaml, and the opponent side in many
rulings). Positions come from a small scenario with scenario-defined scenes."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.rules.actions import Pass, UseEffect

from positions import play

POSITION = """\
title: target sides
seed: 1
options: {auto_pass: false}
cards:
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
  - id: S-970
    kind: scene
    name: 礼装砕き
    provenance: provisional
    effects:
      - name: 礼装砕き
        timing: activated
        window: any
        target: {kind: card}
        ops:
          - {op: set_state, subject: target, state: down}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: down}
    seat: [M-007, S-001]
    hand: [S-968, S-969, S-970]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    seat: [M-006]
  - name: C
    servant: {hero: H-012, class: キャスター, state: rise}
    seat: [M-021, S-002]
deck: [S-003, S-004]
start: {player: A, step: ritual}
steps:
  - expect: {step: ritual, turn_player: A}
"""


@pytest.fixture
def game(tmp_path: Path):
    g = play(tmp_path, POSITION, "targets.yaml")
    assert g.pending.player == 0
    return g


def uid(game, card_id: str) -> int:
    return next(u for u, c in game.state.cards.items() if c == card_id)


def targets_offered(game, card_id: str) -> list[tuple]:
    card = uid(game, card_id)
    return [a.targets for a in game.legal_actions() if isinstance(a, UseEffect) and a.card == card]


def test_a_self_target_is_the_users_own_servant_only(game):
    assert targets_offered(game, "S-968") == [(0,)]
    bad = UseEffect(player=0, card=uid(game, "S-968"), effect=1, targets=(1,))
    assert tuple(game.why_illegal(bad)) == ("bad_target", "", "that target is not allowed")
    game.apply(UseEffect(player=0, card=uid(game, "S-968"), effect=1, targets=(0,)))


def test_an_any_side_target_is_every_servant_in_the_game_outside_a_combat_too(game):
    assert game.state.combat is None
    assert targets_offered(game, "S-969") == [(0,), (1,), (2,)]


def test_a_card_target_without_card_kinds_is_a_seated_mystic_code_of_anyone(game):
    """Not a scene lying Reverse on a seat (E1.8): a card target names mystic codes by default."""
    codes = [(uid(game, c),) for c in ("M-007", "M-006", "M-021")]
    assert targets_offered(game, "S-970") == codes
    for scene in ("S-001", "S-002"):
        assert uid(game, scene) in {u for pl in game.state.players for u in pl.seat}
        bad = UseEffect(player=0, card=uid(game, "S-970"), effect=1, targets=(uid(game, scene),))
        assert tuple(game.why_illegal(bad)) == ("bad_target", "", "that target is not allowed")


STACK_POSITION = """\
title: stack-effect targets
seed: 1
dice: [6, 6]
options: {auto_pass: false}
cards:
  - id: S-971
    kind: scene
    name: 返し矢
    provenance: provisional
    effects:
      - name: 返し矢
        timing: activated
        window: any
        target: {kind: stack_effect, side: opponent}
        ops:
          - {op: negate}
  - id: S-972
    kind: scene
    name: 撤回
    provenance: provisional
    effects:
      - name: 撤回
        timing: activated
        window: any
        target: {kind: stack_effect, side: self}
        ops:
          - {op: negate}
  - id: S-973
    kind: scene
    name: 相殺
    provenance: provisional
    effects:
      - name: 相殺
        timing: activated
        window: any
        target: {kind: stack_effect, side: combat_opponent}
        ops:
          - {op: negate}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    seat: [M-007]
    hand: [S-003, S-001, S-004]
  - name: B
    servant: {hero: H-008, class: キャスター, state: rise}
    hand: [S-002, S-004, S-004]
  - name: C
    servant: {hero: H-015, class: セイバー, state: rise}
    hand: [S-003, S-971, S-004, S-972, S-973]
deck: [M-006, M-021, M-007, S-004, S-004, S-004]
start: {player: A, step: ritual}
steps:
  - do: {player: A, action: use, card: S-003}
  - do: {player: A, action: pass}
  - do: {player: B, action: pass}
  - do: {player: C, action: spell, kind: negate, target: 運命の出会い}
  - do: {player: A, action: pass}
  - do: {player: B, action: pass}
  - do: {player: C, action: use, card: S-003}
  - do: {player: A, action: use, card: M-007, effect: 2}
  - do: {player: A, action: use, card: S-001, targets: [C]}
  - do: {player: A, action: pass}
  - do: {player: B, action: use, card: S-002, targets: [A]}
  - do: {player: A, action: pass}
  - expect: {stack_size: 5}
"""


@pytest.fixture
def stacked(tmp_path: Path):
    """The stack, bottom first: 0 A's scene negated by C's command spell, 1 C's scene, 2 A's
    mystic code effect, 3 A's scene, 4 B's scene; B (Gilles) has priority."""
    g = play(tmp_path, STACK_POSITION, "stack.yaml")
    s = g.state
    assert [(i.player, g.card_of(i.card).kind, i.negated) for i in s.stack] == [
        (0, "scene", True), (2, "scene", False), (0, "mystic_code", False), (0, "scene", False),
        (1, "scene", False)]
    assert g.pending.player == 1
    return g


def test_a_scene_negation_of_any_side_skips_negated_and_other_kinds_and_may_answer_its_user(stacked):
    """Gilles's negation (H-008, kinds [scene], side any): every scene effect still live on the
    stack, the user's own included; the negated one and the mystic code's effect are passed over,
    not the end of the list."""
    assert targets_offered(stacked, "H-008") == [(1,), (3,), (4,)]


def test_an_opponent_side_stack_target_skips_the_users_own_effects(stacked):
    stacked.apply(Pass(player=1))
    assert stacked.pending.player == 2
    assert targets_offered(stacked, "S-971") == [(2,), (3,), (4,)]
    bad = UseEffect(player=2, card=uid(stacked, "S-971"), effect=1, targets=(1,))
    assert tuple(stacked.why_illegal(bad)) == ("bad_target", "", "that target is not allowed")


def test_a_self_side_stack_target_is_one_of_the_users_own_effects(stacked):
    """``side: self`` on a stack-effect target: only the live effects the user put on the stack
    (C's scene at 1), not A's or B's."""
    stacked.apply(Pass(player=1))
    assert targets_offered(stacked, "S-972") == [(1,)]
    bad = UseEffect(player=2, card=uid(stacked, "S-972"), effect=1, targets=(3,))
    assert tuple(stacked.why_illegal(bad)) == ("bad_target", "", "that target is not allowed")


def test_a_combat_opponent_stack_target_is_nothing_outside_a_combat(stacked):
    """``side: combat_opponent`` on a stack-effect target: the effects of the other fighter, so
    none while no combat is fought (the scene is not offered at all)."""
    stacked.apply(Pass(player=1))
    assert stacked.state.combat is None
    assert targets_offered(stacked, "S-973") == []
