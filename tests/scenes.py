"""Scenario texts that tests in more than one folder play (the format of scenarios/,
docs/scenarios.md)."""

#: E1.8: under the errata a scene is put face down on the seat; the base rules refuse that move,
#: so a replay of this game under them stops at its first step.
SCENE_ON_SEAT = """
title: a scene put face down on the seat (E1.8)
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003, S-001]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
start: {player: A, step: ritual}
steps:
  - do: {player: A, action: play, card: S-003}
  - do: {player: A, action: pass}
"""
