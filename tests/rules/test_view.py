"""What a seat may see (issue 11): ``view(game, seat)`` holds no secret of another seat."""

from __future__ import annotations

import random

from fate_royal.rules.game import Game
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.simulate import choose_action
from fate_royal.rules.view import view


def _hidden_uids(game, seat):
    """Instance numbers of every card whose face ``seat`` must not know."""
    s = game.ctx.s
    out = set(s.deck) | set(s.box)
    for i, p in enumerate(s.players):
        if i == seat:
            continue
        out |= set(p.hand)
        for uid in (p.hero, p.klass):
            if uid is not None and s.card_states.get(uid) == "reverse" and uid not in s.revealed:
                out.add(uid)
        out |= {u for u in p.seat if s.card_states.get(u) == "reverse"
                and game.card_of(u).kind == "scene"}
    return out


def _all_cards(v):
    cards = list(v.deck) + list(v.discard) + list(v.grail) + list(v.removed)
    for sv in v.players:
        cards += [c for c in (sv.hero, sv.klass) if c is not None] + list(sv.seat) + list(sv.hand)
    return cards


def test_no_view_shows_a_hidden_card(db, rules):
    for seed in range(12):
        chooser = random.Random(seed)
        game = Game.new(db, rules, [f"P{i + 1}" for i in range(2 + seed % 5)], seed=seed)
        for step in range(120):
            if game.outcome() is not None:
                break
            game.apply(choose_action(chooser, game.legal_actions()))
            if step % 7:
                continue
            for seat in [None] + list(range(len(game.ctx.s.players))):
                v = view(game, seat)
                hidden = _hidden_uids(game, seat)
                for cv in _all_cards(v):
                    assert cv.uid not in hidden or cv.uid is None
                    if cv.uid is None:
                        assert cv.card_id is None and cv.handle
                for e in v.log:
                    if e.secret >= 0 and e.secret != seat:
                        assert not e.card and not any(e.args.get(k) for k in ("card", "hero", "klass"))
                assert not hasattr(v, "seed") and v.seed_commit
                if v.pending is not None and v.pending.player != seat:
                    assert v.pending.options == () and v.legal == ()


SETUP = """
title: hidden cards
seed: 5
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: reverse}
    hand: [M-006]
  - name: B
    servant: {hero: %s, class: セイバー, state: reverse}
    hand: [%s]
deck: [%s, M-021]
start: {player: A, step: ritual}
steps: []
"""


def test_positions_differing_only_in_hidden_cards_look_the_same(tmp_path):
    """B's hand and face-down servant and the deck's order are B's (or nobody's) secret: A's view
    and the table's are the same whichever cards they are."""
    games = []
    for i, (hero, hand, deck) in enumerate((("H-015", "S-001", "S-003"),
                                            ("H-011", "S-003", "S-001"))):
        path = tmp_path / f"s{i}.yaml"
        path.write_text(SETUP % (hero, hand, deck), encoding="utf-8")
        games.append(load_scenario(path).build_game())
    for seat in (0, None):
        a, b = (view(g, seat) for g in games)
        assert a.players == b.players and a.deck == b.deck and a.log == b.log
        assert a.pending == b.pending and a.legal == b.legal
    assert view(games[0], 1).players[1] != view(games[1], 1).players[1]  # B sees its own
