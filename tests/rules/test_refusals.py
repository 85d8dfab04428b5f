"""Why an action is refused (legality.refusal, Game.why_illegal): the reason code, the rule id and
the message the table shows, for each kind of refusal a player can meet. The ruling scenarios pin
the refusals of the rules they are about; these are the ones no single ruling owns (an action
from the wrong player, a card that does not exist, a raid on oneself, no command spell left...)."""

import random

import pytest

from fate_royal.rules import legality
from fate_royal.rules.actions import CommandSpell, DeclareRaid, Pass, PlayCard, UseEffect
from fate_royal.rules.game import Game
from fate_royal.rules.simulate import choose_action

import positions


def refused(game, action):
    return tuple(game.why_illegal(action))


def until(game, done, limit=200):
    """Pass (the first legal pass) until ``done(game)``."""
    for _ in range(limit):
        if done(game):
            return game
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Pass)))
    raise AssertionError("the position never came")


def raid_decision(game):
    return any(isinstance(a, DeclareRaid) for a in game.legal_actions())


@pytest.fixture
def three(db, rules):
    """Three players, seat 1's turn, at the start of its combat step (it may raid 0 or 2)."""
    return until(Game.new(db, rules, ["A", "B", "C"], seed=5), raid_decision)


def test_not_an_action(three):
    assert tuple(legality.refusal(three.ctx, "raid")) == ("not_an_action", "", "not an action: 'raid'")
    assert refused(three, "raid")[0] == "not_an_action"


def test_no_decision_once_the_game_is_over(db, rules):
    game = Game.new(db, rules, ["A", "B"], seed=3)
    chooser = random.Random(1)
    while game.outcome() is None:
        game.apply(choose_action(chooser, game.legal_actions()))
    assert refused(game, Pass(player=0)) == ("no_decision", "", "no decision is pending")


def test_not_your_decision(three):
    assert refused(three, Pass(player=0)) == (
        "not_your_turn", "D6", "it is seat 1's decision, not seat 0's")


@pytest.mark.parametrize("target", [1, -1, 3, 7])
def test_raid_on_oneself_or_no_seat_B6(three, target):
    assert refused(three, DeclareRaid(player=1, target=target)) == (
        "bad_target", "B6", "raid another player who is still in the game")


def test_raid_on_a_dropped_out_player_B6(three):
    three.ctx.s.players[2].out = True  # seat 2 has dropped out (D14)
    three._legal = None
    assert DeclareRaid(player=1, target=2) not in three.legal_actions()
    assert refused(three, DeclareRaid(player=1, target=2)) == (
        "bad_target", "B6", "raid another player who is still in the game")


@pytest.mark.parametrize("target", [0, 1])
def test_a_raid_off_ones_own_turn_is_not_allowed_now(three, target):
    """Seat 2's priority in seat 1's combat step: its servant could raid, the target is a real
    opponent, but only the turn player raids (D5): the generic refusal, not a bad target."""
    three.apply(Pass(player=1))
    assert three.pending.player == 2 and three.pending.step == "combat"
    assert refused(three, DeclareRaid(player=2, target=target)) == (
        "not_allowed_now", "", "that action is not allowed now")


def test_raid_outside_the_combat_step_D5(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=5)
    assert refused(game, DeclareRaid(player=1, target=0)) == (
        "raid_combat_step", "D5", "a raid is declared in the combat step")


def test_effect_of_a_card_that_does_not_exist(three):
    assert refused(three, UseEffect(player=1, card=9999, effect=1)) == (
        "no_such_card", "", "no such card")


def test_effect_on_a_target_it_may_not_have(three):
    use = next(a for a in three.legal_actions() if isinstance(a, UseEffect))
    bad = UseEffect(player=1, card=use.card, effect=use.effect, targets=(1,))  # its own seat
    assert bad not in three.legal_actions()
    assert refused(three, bad) == ("bad_target", "", "that target is not allowed")


def test_effect_index_out_of_range_is_no_such_effect(three):
    """Effect 0 or past the card's last: the card has no such effect, and no rule is cited."""
    hero = three.state.players[1].hero
    n = len(three.card_of(hero).effects)
    for index in (0, n + 1, 9):
        assert three.effect_block(1, hero, index) == ("no_such_effect", "")
        assert refused(three, UseEffect(player=1, card=hero, effect=index)) == (
            "no_such_effect", "", f"{three.state.cards[hero]} cannot be used now (no_such_effect)")


def test_effect_of_someone_elses_card(three):
    """Another player's servant card, or a card in the deck: not the user's card, and no rule is
    cited (the card is not among the user's hero, class, seat or hand)."""
    s = three.state
    deck_card = next(u for u in s.deck if three.card_of(u).effects)
    others = [s.players[0].hero, s.players[0].klass, s.players[2].hero, s.players[2].klass, deck_card]
    others = [u for u in others if three.card_of(u).effects]
    assert len(others) >= 2
    for uid in others:
        assert three.effect_block(1, uid, 1) == ("not_your_card", "")
        assert refused(three, UseEffect(player=1, card=uid, effect=1)) == (
            "not_your_card", "", f"{s.cards[uid]} cannot be used now (not_your_card)")


NOT_YET_PLAYABLE = """\
title: not yet playable
seed: 1
options: {auto_pass: false}
cards:
  - id: S-972
    kind: scene
    name: 謎の場面
    provenance: provisional
    effects:
      - name: 謎の効果
        timing: activated
        window: any
        unplayable: true
        text: 印刷された効果のテキスト
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-972, S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: ritual}
steps:
  - expect: {step: ritual}
"""


def test_a_not_yet_playable_effect_is_refused_without_a_rule(tmp_path):
    """An effect the vocabulary cannot say yet (unplayable: true) is never offered, and using it
    is refused as not_playable, with no rule."""
    game = positions.play(tmp_path, NOT_YET_PLAYABLE, "unplayable.yaml")
    uid = next(u for u in game.state.players[0].hand if game.state.cards[u] == "S-972")
    assert game.pending.player == 0
    assert not any(isinstance(a, UseEffect) and a.card == uid for a in game.legal_actions())
    assert game.effect_block(0, uid, 1) == ("not_playable", "")
    assert refused(game, UseEffect(player=0, card=uid, effect=1)) == (
        "not_playable", "", "S-972 cannot be used now (not_playable)")


LOST_WHEN = """\
title: an activated effect with lost_when
seed: 1
options: {auto_pass: false}
cards:
  - id: M-961
    kind: mystic_code
    name: 見張りの塔
    provenance: provisional
    effects:
      - name: 見張り
        timing: activated
        window: any
        lost_when: {players_at_most: 2}
        ops:
          - {op: draw, count: 1}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    seat: [M-961]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    hand: [S-004]
  - name: C
    out: true
deck: [M-006, M-021, M-007, S-001, S-002, S-003]
start: {player: A, step: ritual}
steps:
  - expect: {step: ritual}
  - do: {player: A, action: pass}
  - do: {player: B, action: use, card: S-004, targets: [C]}
  - do: {player: A, action: pass}
  - do: {player: B, action: pass}
  - expect: {player: C, out: false, stack_size: 0}
"""


def test_a_lost_activated_effect_stays_refused_after_a_third_player_returns_R2(tmp_path):
    """An activated effect with ``lost_when: {players_at_most: 2}`` is lost with two players left,
    and (reading R2, default stays_lost) stays lost when タイガー道場 brings a third player back: it
    is never offered and is refused as effect_lost, citing the rule the EffectLost event cites:
    B11 for a ``lost_when`` printed on the card (a patch's rule when a patch added it, e.g. E9.4
    on 佐々木小次郎's constant 山門の守護)."""
    from fate_royal.rules.scenario import load_scenario
    from fate_royal.rules.scenario_run import ScenarioRun

    path = tmp_path / "lost.yaml"
    path.write_text(LOST_WHEN, encoding="utf-8")
    run = ScenarioRun(load_scenario(path))
    game = run.game
    uid = game.state.players[0].seat[0]
    assert game.pending.player == 0 and len(game.state.alive()) == 2
    use = UseEffect(player=0, card=uid, effect=1)
    assert use not in game.legal_actions()
    assert game.effect_block(0, uid, 1) == ("effect_lost", "B11")
    assert refused(game, use)[:2] == ("effect_lost", "B11")
    assert ("B11", "R2") in [tuple(e.rules) for e in game.log if e.code == "EffectLost"]
    failures = [r.message for r in run.run_all() if not r.ok]
    assert not failures, failures
    assert len(game.state.alive()) == 3 and game.pending.player == 0
    assert use not in game.legal_actions()
    assert game.effect_block(0, uid, 1)[0] == "effect_lost"
    assert refused(game, use)[0] == "effect_lost"


CONDITIONAL = """\
title: an activated effect with a condition
seed: 1
dice: [6]
options: {auto_pass: false}
cards:
  - id: S-973
    kind: scene
    name: 戦場の号令
    provenance: provisional
    effects:
      - name: 戦場の号令
        timing: activated
        window: any
        condition: {in_combat: true}
        ops:
          - {op: modify_stats, subject: combatant, pa: 1}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-973, S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    hand: [S-973]
  - name: C
    servant: {hero: H-012, class: キャスター, state: rise}
    hand: [S-973]
deck: [M-006, M-021, M-007, S-001, S-002]
start: {player: A, step: ritual}
steps:
  - expect: {step: ritual}
"""


def test_an_effect_whose_condition_does_not_hold_is_refused_without_a_rule(tmp_path):
    """An effect with ``condition: {in_combat: true}`` is usable only while the user's servant
    fights: refused as condition (no rule) in the ritual step and for a player outside the combat,
    offered to both fighters in the combat."""
    game = positions.play(tmp_path, CONDITIONAL, "cond.yaml")
    scene = {q: next(u for u in game.state.players[q].hand if game.state.cards[u] == "S-973")
             for q in range(3)}
    use = UseEffect(player=0, card=scene[0], effect=1)
    assert game.pending.player == 0 and use not in game.legal_actions()
    assert game.effect_block(0, scene[0], 1) == ("condition", "")
    assert refused(game, use) == ("condition", "", "S-973 cannot be used now (condition)")
    until(game, lambda g: g.state.step == "combat" and g.pending.player == 0)
    game.apply(DeclareRaid(player=0, target=1))
    for q in (0, 1, 2):
        assert game.pending.player == q
        assert (UseEffect(player=q, card=scene[q], effect=1) in game.legal_actions()) == (q != 2)
        game.apply(Pass(player=q))
    assert game.effect_block(2, scene[2], 1) == ("condition", "")


def test_effect_block_of_a_player_who_dropped_out_D14(three):
    """Game.effect_block (the table asks it for the deciding player) answers for any seat: a player
    who dropped out uses nothing (D14), whatever the card."""
    hero = three.state.players[2].hero
    three.ctx.s.players[2].out = True  # seat 2 has dropped out (D14)
    three._legal = None
    assert three.effect_block(2, hero, 1) == ("out", "D14")


def test_command_spell_with_none_left_D13(db, rules_off):
    """Without the errata (E4.1 off) a player with no command spell stays in the game."""
    game = until(Game.new(db, rules_off, ["A", "B", "C"], seed=5), raid_decision)
    game.ctx.s.players[1].command_spells = 0
    game._legal = None
    assert refused(game, CommandSpell(player=1, spell="gand")) == (
        "no_command_spells", "D13", "no command spells left")


@pytest.mark.parametrize("target", [0, 5])
def test_negating_nothing_is_not_allowed_now(three, rules_off, db, target):
    """A negation with nothing on the stack (index 0, or past its end) is the generic refusal,
    under the errata and without it — never the E4.2 refusals about special coins."""
    off = until(Game.new(db, rules_off, ["A", "B", "C"], seed=5), raid_decision)
    for game in (three, off):
        game.ctx.s.players[1].command_spells = 1  # one left is still one to spend
        game._legal = None
        assert refused(game, CommandSpell(player=1, spell="negate", target=target)) == (
            "not_allowed_now", "", "that action is not allowed now")


def _negated_on_stack(game, places_coins):
    from fate_royal.rules.state import StackItem

    uid = game.state.players[0].hero
    game.ctx.s.stack.append(StackItem(player=0, card=uid, effect=1, targets=[1], negated=True,
                                      places_coins=places_coins, negated_by="spell"))
    game._legal = None


def test_negating_an_already_negated_effect_is_not_allowed_now(three):
    """E4.2 is on, but the effect places no coins: the refusal is the generic one, not E4.2's."""
    _negated_on_stack(three, places_coins=False)
    action = CommandSpell(player=1, spell="negate", target=0)
    assert action not in three.legal_actions()
    assert refused(three, action) == ("not_allowed_now", "", "that action is not allowed now")


def test_negating_a_coin_effect_with_E4_2_off_never_cites_E4_2(db, rules):
    """With E4.2 off a command spell may negate an effect that places coins; one already negated
    is refused for that, not for E4.2, which is off."""
    game = until(Game.new(db, rules.with_(off=set(rules.off) | {"E4.2"}), ["A", "B", "C"], seed=5), raid_decision)
    _negated_on_stack(game, places_coins=True)
    assert refused(game, CommandSpell(player=1, spell="negate", target=0)) == (
        "not_allowed_now", "", "that action is not allowed now")


def test_negating_a_coin_effect_E4_2(three):
    _negated_on_stack(three, places_coins=True)
    assert refused(three, CommandSpell(player=1, spell="negate", target=0)) == (
        "spell_vs_coins", "E4.2", "a command spell cannot negate an effect that places special coins")


def test_playing_a_card_outside_the_ritual_step_D5(three):
    card = three.state.players[1].hand[0]
    assert refused(three, PlayCard(player=1, card=card)) == (
        "play_ritual_step", "D5", "mystic codes are put on the seat in the ritual step")


def _ritual(db, rules):
    return until(Game.new(db, rules, ["A", "B", "C"], seed=5),
                 lambda g: g.pending.step == "ritual" and g.pending.player == 1)


def test_a_card_not_in_hand_is_not_played(db, rules_off):
    """In the ritual step, a card the player does not hold (another's, or one in play) is refused
    with the generic reason, whatever kind it is and whether E1.8 is on or off."""
    game = _ritual(db, rules_off)
    s = game.state
    for uid in (uid for uid in s.cards if uid not in s.players[1].hand):
        assert refused(game, PlayCard(player=1, card=uid)) == (
            "not_allowed_now", "", "that action is not allowed now"), s.cards[uid]


def test_no_raid_after_an_encounter_D5(three):
    three.ctx.s.encountered = True  # this turn's encounter step made the two servants fight
    three._legal = None
    assert not any(isinstance(a, DeclareRaid) for a in three.legal_actions())
    assert refused(three, DeclareRaid(player=1, target=0)) == (
        "encounter_this_turn", "D5", "cannot declare a raid (encounter_this_turn)")


def test_one_raid_a_turn_D5(three):
    three.ctx.s.raided = True  # seat 1 has raided already this turn
    three._legal = None
    assert refused(three, DeclareRaid(player=1, target=2)) == (
        "one_raid", "D5", "cannot declare a raid (one_raid)")


def test_no_command_spell_is_offered_with_none_left(db, rules_off):
    """Errata off: a player at 0 command spells stays in, and is offered none (D13)."""
    game = until(Game.new(db, rules_off, ["A", "B", "C"], seed=5), raid_decision)
    _negated_on_stack(game, places_coins=False)
    game.ctx.s.stack[0].negated = False  # something to negate
    game.ctx.s.players[1].command_spells = 0
    game._legal = None
    assert not any(isinstance(a, CommandSpell) for a in game.legal_actions())
    game.ctx.s.players[1].command_spells = 1
    game._legal = None
    assert CommandSpell(player=1, spell="negate", target=0) in game.legal_actions()


def test_every_live_effect_on_the_stack_may_be_negated_past_a_negated_one(three):
    """A negated effect is skipped, not the end of the offer: the one above it may be negated."""
    from fate_royal.rules.state import StackItem

    _negated_on_stack(three, places_coins=False)
    three.ctx.s.stack.append(StackItem(player=0, card=three.state.players[0].klass, effect=1,
                                       targets=[1]))
    three._legal = None
    spells = [a for a in three.legal_actions() if isinstance(a, CommandSpell) and a.spell == "negate"]
    assert spells == [CommandSpell(player=1, spell="negate", target=1)]
