"""The hot-seat policy (issue 11): who is asked depends only on public information."""

from __future__ import annotations

import random

from fate_royal.rules.actions import Pass
from fate_royal.rules.game import Game
from fate_royal.rules.hotseat import HotSeat, play_scripted, public_actions
from fate_royal.rules.scenario import load_scenario

SETUP = """
title: hidden cards differ
seed: 11
options: {auto_pass: false}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: reverse}
    hand: [M-006]
  - name: B
    servant: {hero: %s, class: セイバー, state: reverse}
    hand: [%s, M-021]
  - name: C
    servant: {hero: H-002, class: アーチャー, state: reverse}
    hand: [S-002]
deck: [%s, M-901, S-004, M-007]
start: {player: A, step: rise}
steps: []
"""


def _prompts(game, n=80):
    """The first ``n`` prompts of a table where everyone always passes (or, at a private decision,
    takes the first option) and nobody claims, each with what the whole table could see then."""
    from fate_royal.rules.view import view

    hs = HotSeat(game)
    out = []
    for _ in range(n):
        p = hs.advance()
        v = view(game, None)
        public = (v.players, v.discard, v.grail, v.stack, v.combat, v.turn, v.step, len(v.deck))
        out.append(((p.kind, p.player, p.reason, p.candidates, tuple(sorted(p.about))), public))
        if p.kind == "over":
            break
        if p.kind == "shared":
            hs.nobody()
            continue
        if p.kind == "private":
            hs.confirm()
        acts = game.legal_actions() if p.kind == "private" else public_actions(game, p.player)
        hs.apply(next((a for a in acts if isinstance(a, Pass)), acts[0]))
    return out, hs.count


def test_the_policy_reads_no_hidden_information(tmp_path):
    """Two positions that differ only in hidden cards (B's hand and the deck's order) give the same
    sequence of hand-offs and prompts — for as long as what the table can see is the same (a card
    discarded makes the games differ in public). The servant test is in test_view: views equal."""
    runs = []
    for i, (hero, card, top) in enumerate((("H-015", "S-001", "S-003"),
                                           ("H-015", "S-003", "S-001"))):
        path = tmp_path / f"s{i}.yaml"
        path.write_text(SETUP % (hero, card, top), encoding="utf-8")
        runs.append(_prompts(load_scenario(path).build_game(), 400)[0])
    a, b = runs
    compared = 0
    for (pa, public_a), (pb, public_b) in zip(a, b):
        if public_a != public_b:
            break
        assert pa == pb, f"prompt {compared}: {pa} != {pb} while the table saw the same"
        compared += 1
    assert compared >= 20, compared
    assert sum(p[0][0] == "private" for p in a[:compared]) >= 5


def test_default_stops_keep_handoffs_low(db, rules):
    """Scripted tables (nobody claims, random choices): at most 2.5 hand-offs per turn with four
    players and 3.0 with seven, at most 6 shared prompts (the bench prints the same figures)."""
    for players, most in ((4, 2.5), (7, 3.0)):
        handoffs = shared = turns = 0
        for seed in range(8):
            game = Game.new(db, rules, [f"P{i}" for i in range(players)], seed=seed,
                            auto_pass=False)
            count, n = play_scripted(game, random.Random(seed), max_turns=20)
            handoffs, shared, turns = handoffs + count.handoffs, shared + count.shared, turns + n
        assert handoffs / turns <= most
        assert shared / turns <= 6


def test_a_claim_gets_a_private_decision_and_the_rest_declined(db, rules):
    game = Game.new(db, rules, ["A", "B", "C", "D"], seed=3, auto_pass=False)
    hs = HotSeat(game)
    chooser = random.Random(3)
    for _ in range(2000):
        p = hs.advance()
        if p.kind == "shared" and len(p.candidates) >= 3:
            claimer = p.candidates[1]
            assert hs.claim(claimer)
            nxt = hs.advance()
            assert (nxt.kind, nxt.player, nxt.reason) == ("private", claimer, "claimed")
            assert hs.needs_handoff(nxt)
            hs.confirm()
            assert hs.viewer == claimer
            return
        if p.kind == "shared":
            hs.nobody()
            continue
        if p.kind == "private":
            hs.confirm()
        acts = game.legal_actions() if p.kind == "private" else public_actions(game, p.player)
        hs.apply(chooser.choice(acts))
    raise AssertionError("no shared prompt with three candidates")


def test_stops_ask_the_player_at_empty_windows(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=4, auto_pass=False)
    quiet, _ = _prompts(game, 40)
    game = Game.new(db, rules, ["A", "B", "C"], seed=4, auto_pass=False,
                    stops={"2": ["every_window"]})
    asked, _ = _prompts(game, 40)
    assert sum(1 for p, _ in asked if p[1] == 2 and p[2] == "stop") > sum(
        1 for p, _ in quiet if p[1] == 2 and p[0] == "private")
