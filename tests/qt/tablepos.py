"""Positions for the table tests and screenshots: 4 seats with every card state, a 7-seat game
mid-way, a proxy combat, and a stack of several effects with negations on offer."""

from __future__ import annotations

from pathlib import Path

from fate_royal.cards import RuleSet, load_card_db, load_profile
from fate_royal.cards.rulesets import shipped_ruleset
from fate_royal.rules.actions import CommandSpell, Pass, UseEffect
from fate_royal.rules.game import Game

ROOT = Path(__file__).resolve().parents[2]

STATES_SETUP = {
    "scenario": True, "seed": 1,
    "players": [
        {"name": "A", "servant": {"hero": "H-012", "class": "キャスター", "state": "down"},
         "seat": [{"card": "M-006", "state": "down"}, {"card": "S-001", "state": "reverse"}],
         "hand": ["S-003"], "coins": {"assassination": 2}},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー", "state": "danger"}},
        {"name": "C", "servant": {"hero": "H-001", "class": "セイバー", "state": "rise"}},
        {"name": "D", "servant": {"hero": "H-008", "class": "ライダー", "state": "reverse"}},
    ],
    "start": {"player": "A", "step": "combat"},
}

#: Four players, each holding ガンド: several effects go on the stack, negations are on offer.
STACK_SETUP = {
    "scenario": True, "seed": 1,
    "players": [
        {"name": "アリス", "servant": {"hero": "H-001", "class": "セイバー", "state": "rise"},
         "hand": ["S-003", "S-001"]},
        {"name": "ボブ", "servant": {"hero": "H-015", "class": "セイバー", "state": "rise"},
         "hand": ["S-001", "S-002"]},
        {"name": "チカ", "servant": {"hero": "H-012", "class": "キャスター", "state": "rise"},
         "hand": ["S-002"]},
        {"name": "ダイ", "servant": {"hero": "H-008", "class": "ライダー", "state": "rise"},
         "hand": ["S-001"]},
    ],
    "deck": ["S-004", "M-006", "M-007"],
    "start": {"player": "アリス", "step": "ritual"},
}


def _rules(errata: bool = True) -> RuleSet:
    return RuleSet.from_errata(errata, load_profile())


def states_game(errata: bool = True) -> Game:
    rules = _rules(errata)
    return Game(load_card_db(rules=rules), rules, STATES_SETUP)


def gandr_game() -> Game:
    """アリス's ritual step, ガンド in hand: one effect, three possible targets."""
    rules = _rules()
    return Game(load_card_db(rules=rules), rules, STACK_SETUP)


def stack_game(entries: int = 3) -> Game:
    """Players put effects on the stack in turn until it holds ``entries`` of them; the game waits
    for a player who may negate them."""
    rules = _rules()
    g = Game(load_card_db(rules=rules), rules, STACK_SETUP)
    for _ in range(200):
        if len(g.ctx.s.stack) >= entries and any(isinstance(a, CommandSpell) for a in g.legal_actions()):
            return g
        acts = g.legal_actions()
        uses = [a for a in acts if isinstance(a, UseEffect)]
        if len(g.ctx.s.stack) < entries and uses:
            g.apply(uses[-1])
        else:
            g.apply(next(a for a in acts if isinstance(a, Pass)) if any(isinstance(a, Pass) for a in acts)
                    else acts[0])
    raise RuntimeError("no stack position")


def scenario_game(path: str, steps: int) -> Game:
    """A scenario's game after its first ``steps`` steps."""
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    run = ScenarioRun(load_scenario(ROOT / path))
    for _ in range(steps):
        result = run.forward()
        assert result.ok, result.message
    return run.game


def proxy_game() -> Game:
    """Gilles (A) raids B through his summoned sea demons: a proxy combat in its raid process."""
    return scenario_game("scenarios/rulings/D13-gilles-negation-in-proxy-combat.yaml", 7)


PROXY4 = """
title: proxy combat at four seats
seed: 1
players:
  - name: アリス
    servant: {hero: H-008, class: ライダー, state: rise}
    seat: [M-901]
    hand: [S-003, S-003, S-003]
  - name: ボブ
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-001]
  - name: チカ
    servant: {hero: H-012, class: キャスター, state: rise}
  - name: ダイ
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-004, S-002, M-006]
start: {player: アリス, step: combat}
steps:
  - do: {player: アリス, action: raid, target: ボブ}
  - advance: engagement
  - do: {player: アリス, action: use, card: H-008, effect: 海魔召喚}
  - do: {player: アリス, action: discard, card: S-003}
  - resolve
  - advance: raid
"""


def proxy_game4() -> Game:
    """Four seats; アリス's Gilles raids ボブ through his sea demons (a proxy combat)."""
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    run = ScenarioRun(load_scenario(ROOT / "proxy4.yaml", text=PROXY4))
    while not run.done:
        result = run.forward()
        assert result.ok, result.message
    return run.game


def long_game7(actions: int = 220) -> Game:
    from fate_royal.rules.simulate import long_game

    rules = shipped_ruleset("house")
    return long_game(load_card_db(rules=rules), rules, actions, 7)


def finished_game(players: int = 4, seed: int = 2) -> Game:
    """A random game played to its end."""
    import random

    from fate_royal.cards.rulesets import shipped_ruleset

    rules = shipped_ruleset("house")
    g = Game.new(load_card_db(rules=rules), rules, ["アリス", "ボブ", "チカ", "ダイ", "エミ", "フウ", "ゲン"][:players],
                 seed=seed)
    rng = random.Random(seed)
    weights = {"spell": 0.05, "raid": 3.0}
    while g.outcome() is None:
        acts = g.legal_actions()
        g.apply(rng.choices(acts, [weights.get(a.kind, 1.0) for a in acts])[0])
    return g


def raid_game(players: int = 4) -> Game:
    """A random game stopped in a raid between seats facing each other across the table (the
    combat arrow then crosses the centre's text)."""
    import random

    rules = shipped_ruleset("house")
    db = load_card_db(rules=rules)
    names = ["アリス", "ボブ", "チカ", "ダイ", "エミ", "フウ", "ゲン"][:players]
    for seed in range(1, 200):
        g = Game.new(db, rules, names, seed=seed)
        rng = random.Random(seed)
        while g.outcome() is None and len(g.history) < 3000:
            c = g.state.combat
            if (c is not None and c.process == "raid"
                    and (c.interceptor.player - c.raider.player) % players == players // 2):
                return g
            g.apply(rng.choice(g.legal_actions()))
    raise AssertionError("no raid across the table in 200 games")


def make_position(name: str) -> Game:
    return {"states4": states_game, "stack": stack_game, "proxy": proxy_game, "proxy4": proxy_game4, "gandr": gandr_game, "over": finished_game,
            "long7": long_game7}[name]()


def settle(controller, limit: int = 50) -> None:
    """Bring the table to the deciding player as the people at it would: confirm each hand-off and
    answer "nobody" to each shared prompt (at most ``limit`` of them)."""
    for _ in range(limit):
        if controller.handoff_needed():
            controller.confirm_handoff()
        elif controller.shared_prompt() is not None:
            controller.nobody_responds()
        else:
            return
