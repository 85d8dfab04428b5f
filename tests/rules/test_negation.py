"""What a negation leaves on the stack: the negated effect waits, marked with what negated it, until
its turn to resolve comes (D6). The mark is part of the position (saves, the inspector) and decides
whether the skip cites D13 (a command spell) or only D6 (an effect's 打ち消し)."""

from __future__ import annotations

from positions import play


POSITION = """\
    title: negation on the stack
    seed: 1
    options: {auto_pass: false}
    players:
      - name: A
        servant: {hero: H-001, class: セイバー, state: rise}
        hand: [S-003]
      - name: B
        servant: {hero: H-008, class: キャスター, state: rise}
        hand: [S-001, S-002]
      - name: C
        servant: {hero: H-015, class: セイバー, state: rise}
    deck: [M-006, M-021, M-007]
    start: {player: A, step: ritual}
    steps:
      - do: {player: A, action: use, card: S-003}
      - do: {player: A, action: pass}
      - do: {player: B, action: use, card: H-008, effect: 打ち消し, targets: [運命の出会い]}
      - do: {player: B, action: discard, card: S-002}
      - do: {player: A, action: pass}
      - do: {player: B, action: pass}
      - do: {player: C, action: pass}
"""


def test_an_effect_negated_by_an_effect_waits_marked_as_such(tmp_path):
    game = play(tmp_path, POSITION)
    stack = game.state.to_dict()["stack"]
    assert len(stack) == 1, stack  # the negation resolved; 運命の出会い still waits
    assert stack[0]["negated"] is True
    assert stack[0]["negated_by"] == "effect"
    assert game.log[-1].code == "EffectNegated"
