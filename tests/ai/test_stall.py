"""Games between computers end: the 4-player game of seed 193 (one strong, three basic seats) once
reached turn 240 with nobody raiding. From turn 7 only ジル・ド・レェ (a free 代理戦闘 in every fight)
and アルトリア were left, and neither would ever fight the other. ``data/stall-seed193.json`` is
that game's record up to then (its actions replay whatever the computers decide today)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fate_royal.ai import decide
from fate_royal.ai.basic import LONG_GAME_TURNS, basic_action, long_game, spells_kept
from fate_royal.cards import RuleSet, load_card_db, load_profile
from fate_royal.rules.actions import CommandSpell, DeclareRaid
from fate_royal.rules.game import Game
from fate_royal.rules.record import GameRecord

DATA = Path(__file__).parent / "data"


@pytest.fixture(scope="module")
def stalled():
    rules = RuleSet.house(load_profile(), name="house")
    db = load_card_db(rules=rules)
    record = GameRecord.from_dict(json.loads((DATA / "stall-seed193.json").read_text("utf-8")))
    return db, record


def test_the_seed_193_position_is_gilles_against_artoria(stalled):
    db, record = stalled
    g = Game.replay(record, db)
    s = g.ctx.s
    assert s.alive() == [1, 3]
    assert {g.ctx.card_of(s.players[p].hero).id for p in s.alive()} == {"H-008", "H-001"}


def test_the_seed_193_game_ends_between_basic_seats(stalled):
    db, record = stalled
    g = Game.replay(record, db)
    for _ in range(5000):
        if g.outcome() is not None:
            break
        p = g.pending.player
        g.apply(decide(g, p, "basic"))
    assert g.outcome() is not None
    assert g.ctx.s.turn < LONG_GAME_TURNS  # ended by fighting, not by the long-game rule


def test_artoria_negates_the_sea_demons_when_the_fight_itself_pays(stalled):
    """In an encounter against Gilles, the basic seat spends its third command spell on the proxy
    (the fight against Gilles himself comes out ahead) — and never its second."""
    db, record = stalled
    g = Game.replay(record, db)
    seen = []
    for _ in range(5000):
        if g.outcome() is not None:
            break
        p = g.pending.player
        a = decide(g, p, "basic")
        if isinstance(a, CommandSpell):
            seen.append((p, a.spell, g.ctx.s.players[p].command_spells))
        g.apply(a)
    assert seen and all(spell == "negate" and left == 3 for _, spell, left in seen)


def test_a_long_game_makes_raids_that_are_not_deadly_and_spends_down_to_one_spell(stalled):
    db, record = stalled
    g = Game.replay(record, db)
    while not (g.ctx.s.step == "combat" and any(isinstance(a, DeclareRaid)
                                                for a in g.legal_actions())):
        p = g.pending.player
        g.apply(g.legal_actions()[0])  # passes up to a combat step
    p = g.pending.player
    early = g.fork()
    assert not long_game(early) and spells_kept(early) == 2
    late = g.fork()
    late.ctx.s.turn = LONG_GAME_TURNS
    assert long_game(late) and spells_kept(late) == 1
    import random

    assert isinstance(basic_action(late, p, random.Random(1)), DeclareRaid)


def four_basic_seats_played_out(seed: int, max_actions: int = 4000) -> Game:
    """A game of four basic seats from ``seed``, played to its end or ``max_actions``."""
    rules = RuleSet.house(load_profile(), name="house")
    db = load_card_db(rules=rules)
    g = Game.new(db, rules, ["P1", "P2", "P3", "P4"], seed=seed,
                 seats={str(k): "basic" for k in range(4)})
    g.record_undo = False
    for _ in range(max_actions):
        if g.outcome() is not None:
            break
        g.apply(decide(g, g.pending.player, "basic"))
    return g


def test_a_proxy_against_a_proxy_does_not_last_for_ever():
    """Seed 7404, four basic seats: from turn 30 メディア (H-012, 竜牙兵 by going Down) raided ジル・ド・レェ
    (H-008, 海魔召喚 for a card) every other turn, and every raid was dragon-tooth warrior against sea
    demon — no mana lost on either side, each with one command spell left, past turn 300. In a long
    game a raiding computer now fights with its servant itself; the game ends."""
    g = four_basic_seats_played_out(7404)
    assert g.outcome() is not None
    assert g.ctx.s.turn < 2 * LONG_GAME_TURNS


def test_two_free_proxies_in_defence_do_not_last_for_ever():
    """Seed 7211, four basic seats: メディア (H-012, 竜牙兵 by going Down) and ジル・ド・レェ (H-008, 海魔召喚 for
    a card), both at 0 mana with one command spell, raided each other with the servant and each
    defence was a free proxy — past turn 250. From turn 2 × LONG_GAME_TURNS computers use no
    proxy; the game ends."""
    g = four_basic_seats_played_out(7211)
    assert g.outcome() is not None
    assert g.ctx.s.turn <= 2 * LONG_GAME_TURNS + 4
