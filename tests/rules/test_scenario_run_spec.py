"""What a scenario author reads when a scenario runs: each step's outcome and message.

``ScenarioRun`` plays a scenario one step at a time (``forward``), takes steps back (``back``) and
turns a step's ``do:`` into an engine action (``to_action``). These tests pin, with small inline
scenarios, the message of every way a step can pass or fail: an expectation that does not hold,
an action that names something that is not there, an ``advance:`` that cannot get where it was
asked to, a refusal by the wrong rule, and so on (docs/scenarios.md describes the format).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fate_royal.rules.actions import (
    Choose, ChooseAttack, ChooseEncounterTarget, CommandSpell, DeclareRaid, Discard, Pass, PlayCard,
    UseEffect,
)
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.scenario import ScenarioError, Step, load_scenario
from fate_royal.rules.scenario_run import ScenarioRun, rules_cited

# A in the ritual step with cards to play: S-003 (no target), S-001 (ガンド, targets a servant)
HEAD = """\
title: t
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003, S-001, S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    hand: [S-002]
deck: [S-001, S-002, S-003]
start: {player: A, step: ritual}
"""

# The game is over before the first step: A falls to the coins' upkeep, B (no command spells)
# drops out when the rise step ends, C wins and the Active Master coin goes to nobody (E7.2).
OVER = """\
title: over
seed: 1
players:
  - name: A
    servant: {hero: H-016, class: セイバー, state: rise}
    mana: 1
    coins: {assassination: 2}
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    command_spells: 0
  - name: C
    servant: {hero: H-001, class: セイバー, state: rise}
deck: [S-001, S-002, M-006]
start: {player: A, step: rise}
"""


def write(tmp_path: Path, steps: str, head: str = HEAD, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(head + "steps:\n" + textwrap.dedent(steps), encoding="utf-8")
    return path


_DBS: dict = {}  # the card database of each position (read once: the suite parses every file)


def new_run(tmp_path: Path, steps: str = "  - say: hi\n", head: str = HEAD) -> ScenarioRun:
    """A run of the scenario ``head`` + ``steps`` (its game built on a card database shared by the
    tests of the same position)."""
    scenario = load_scenario(write(tmp_path, steps, head))
    if head not in _DBS:
        _DBS[head] = scenario.load_db()
    return ScenarioRun(scenario, scenario.build_game(db=_DBS[head]))


def outcomes(tmp_path: Path, steps: str, head: str = HEAD) -> list[tuple[bool, str]]:
    """(ok, message) of every step."""
    return [(r.ok, r.message) for r in new_run(tmp_path, steps, head).run_all()]


def action_error(run: ScenarioRun, body: dict, line: int = 42) -> str:
    """The whole text (file:line: message) of the error of turning ``body`` into an action."""
    with pytest.raises(ScenarioError) as info:
        run.to_action(body, line)
    assert info.value.file == run.scenario.path and info.value.line == line
    return str(info.value)


def at(run: ScenarioRun, message: str, line: int = 42) -> str:
    return f"{run.scenario.path}:{line}: {message}"


# --- to_action: a step's do: as an engine action


def hand(run: ScenarioRun, p: int = 0) -> list[int]:
    return list(run.game.state.players[p].hand)


def test_an_action_names_its_player_or_falls_to_the_player_who_must_act(tmp_path):
    run = new_run(tmp_path)
    assert run.to_action({"action": "pass", "player": "B"}, 3) == Pass(1)
    assert run.to_action({"action": "pass"}, 3) == Pass(0)  # A holds priority


def test_an_action_once_the_game_is_over_names_nobody(tmp_path):
    run = new_run(tmp_path, head=OVER)
    assert action_error(run, {"action": "pass"}, 7) == at(run, "the game is over: nobody can act", 7)
    # a named player still makes an action (the engine refuses it)
    assert run.to_action({"action": "pass", "player": "C"}, 7) == Pass(2)


def test_an_unknown_player_is_named_with_a_suggestion(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "pass", "player": "AA"}) == \
        at(run, "no player called 'AA' (did you mean 'A'?)")
    assert action_error(run, {"action": "raid", "player": "A", "target": "Bx"}) == \
        at(run, "no player called 'Bx' (did you mean 'B'?)")
    assert action_error(run, {"action": "encounter_target", "target": "Q"}) == \
        at(run, "no player called 'Q'")


def test_raid_and_encounter_target_name_the_target_player(tmp_path):
    run = new_run(tmp_path)
    assert run.to_action({"action": "raid", "target": "B"}, 1) == DeclareRaid(0, 1)
    assert run.to_action({"action": "encounter_target", "player": "B", "target": "A"}, 1) == \
        ChooseEncounterTarget(1, 0)


def test_attack_takes_physical_or_magic_only(tmp_path):
    run = new_run(tmp_path)
    assert run.to_action({"action": "attack", "type": "magic"}, 1) == ChooseAttack(0, "magic")
    assert run.to_action({"action": "attack", "type": "physical"}, 1) == ChooseAttack(0, "physical")
    assert action_error(run, {"action": "attack", "type": "fire"}, 9) == \
        at(run, "attack type must be physical or magic", 9)


def test_play_and_discard_take_a_card_from_the_hand_by_id_name_or_copy(tmp_path):
    run = new_run(tmp_path)
    first, gandr, second = hand(run)
    assert run.to_action({"action": "play", "card": "S-003"}, 1) == PlayCard(0, first)
    assert run.to_action({"action": "play", "card": "S-003#2"}, 1) == PlayCard(0, second)
    assert run.to_action({"action": "play", "card": "S-003#1"}, 1) == PlayCard(0, first)
    assert run.to_action({"action": "discard", "card": "ガンド"}, 1) == Discard(0, gandr)
    assert run.to_action({"action": "discard", "card": "Encounter with a Servant#2"}, 1) == \
        Discard(0, second)


def test_a_card_not_in_the_hand_names_the_hand_it_is_not_in(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "play", "card": "M-006"}, 5) == \
        at(run, "M-006 is not in A's hand", 5)
    assert action_error(run, {"action": "discard", "player": "B", "card": "S-001"}, 6) == \
        at(run, "S-001 is not in B's hand", 6)
    assert action_error(run, {"action": "discard", "card": "S-001#2"}, 6) == \
        at(run, "S-001 (copy 2) is not in A's hand", 6)
    assert action_error(run, {"action": "play", "card": "S-003#3"}, 6) == \
        at(run, "S-003 (copy 3) is not in A's hand", 6)


def test_a_copy_number_must_be_a_positive_whole_number(tmp_path):
    run = new_run(tmp_path)
    for ref in ("S-003#0", "S-003#x", "S-003#"):
        assert action_error(run, {"action": "play", "card": ref}, 8) == \
            at(run, f"{ref!r}: a copy number after # must be 1, 2, …", 8)
    # only the last # counts: what stands before it is the card's name
    assert action_error(run, {"action": "play", "card": "S-003#1#2"}, 8) == \
        at(run, "no card 'S-003#1' (did you mean 'S-003'?)", 8)


def test_an_unknown_card_is_named_with_a_suggestion(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "play", "card": "S-0031"}, 4) == \
        at(run, "no card 'S-0031' (did you mean 'S-003'?)", 4)
    assert action_error(run, {"action": "play", "card": "no such card"}, 4) == \
        at(run, "no card 'no such card'", 4)


# A's hero H-008 (打ち消し: targets an effect on the stack), B's hero H-012 (破戒すべき全ての符:
# targets a card on a seat); scenario cards: a scene that targets a player, and a Saber class card
# whose card name is not its class name.
TARGETS = """\
title: targets
seed: 1
cards:
  - id: S-951
    kind: scene
    name: 名指し
    name_en: Naming (scenario card)
    provenance: provisional
    effects:
      - name: 名指し
        name_en: Naming
        timing: activated
        window: any
        target: {kind: player, side: any}
        ops:
          - {op: discard, subject: target, count: 1}
  - id: C-001
    kind: class
    name: 剣の騎士
    name_en: Sword Knight
    class_name: セイバー
    provenance: provisional
    stats: {pa: 1, pd: 1, ma: 1, md: 1}
players:
  - name: A
    servant: {hero: H-008, class: アサシン, state: rise}
    hand: [S-003, S-001, S-951, S-004]
  - name: B
    servant: {hero: H-012, class: セイバー, state: rise}
    seat: [M-006, M-006]
    hand: [S-002]
deck: [S-001, S-002, S-003]
start: {player: A, step: ritual}
options: {auto_pass: false}
"""

# Two effects wait on the stack: A's 運命の出会い (bottom, index 0), B's ガンド撃ち on A (top).
STACKED = """\
  - do: {player: A, action: use, card: S-003}
  - do: {player: A, action: pass}
  - do: {player: B, action: use, card: S-002, targets: A}
"""


def uid_of(run: ScenarioRun, card_id: str, where: list[int]) -> list[int]:
    return [u for u in where if run.game.state.cards[u] == card_id]


def test_a_class_card_is_named_by_its_class_name(tmp_path):
    run = new_run(tmp_path, head=TARGETS)
    assert run.game.state.cards[run.game.state.players[1].klass] == "C-001"
    # no card is called セイバー here: the class name finds B's class card
    assert action_error(run, {"action": "use", "player": "B", "card": "セイバー"}) == \
        at(run, "C-001 has 0 usable effects: name one")
    assert action_error(run, {"action": "play", "player": "B", "card": "セイバー"}) == \
        at(run, "セイバー is not in B's hand")


def test_use_names_the_effect_by_name_or_position_or_not_at_all_when_only_one_is_usable(tmp_path):
    run = new_run(tmp_path)
    hero = run.game.state.players[0].hero
    assert run.to_action({"action": "use", "card": "H-001", "effect": "全て遠き理想郷"}, 1) == \
        UseEffect(0, hero, 2, ())
    assert run.to_action({"action": "use", "card": "H-001", "effect": "Excalibur"}, 1) == \
        UseEffect(0, hero, 1, ())
    assert run.to_action({"action": "use", "card": "H-001", "effect": 2}, 1) == UseEffect(0, hero, 2, ())
    first = hand(run)[0]
    assert run.to_action({"action": "use", "card": "S-003"}, 1) == UseEffect(0, first, 1, ())


def test_use_without_an_effect_name_needs_exactly_one_usable_effect(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "use", "card": "H-001"}, 12) == \
        at(run, "H-001 has 2 usable effects: name one", 12)
    # Kojirou's effects are all 常時: none can be used
    assert action_error(run, {"action": "use", "player": "B", "card": "H-015"}, 12) == \
        at(run, "H-015 has 0 usable effects: name one", 12)


def test_use_of_an_unknown_effect_is_named_with_a_suggestion(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "use", "card": "H-001", "effect": "全て遠き理想"}, 13) == \
        at(run, "H-001 has no effect '全て遠き理想' (did you mean '全て遠き理想郷'?)", 13)
    assert action_error(run, {"action": "use", "card": "H-001", "effect": 3}, 13) == \
        at(run, "H-001 has no effect 3", 13)


def test_use_looks_for_the_card_among_the_players_hero_class_seat_and_hand(tmp_path):
    run = new_run(tmp_path, head=TARGETS)
    a, b = run.game.state.players
    assert run.to_action({"action": "use", "player": "B", "card": "M-006#2"}, 1) == \
        UseEffect(1, b.seat[1], 1, ())
    assert run.to_action({"action": "use", "card": "H-008", "effect": 1}, 1) == \
        UseEffect(0, a.hero, 1, ())
    assert action_error(run, {"action": "use", "card": "M-006"}, 14) == \
        at(run, "M-006 is not among A's cards", 14)
    assert action_error(run, {"action": "use", "card": "H-012"}, 14) == \
        at(run, "H-012 is not among A's cards", 14)


def test_use_targets_are_a_list_or_one_value(tmp_path):
    run = new_run(tmp_path)
    gandr = hand(run)[1]
    assert run.to_action({"action": "use", "card": "S-001", "targets": "B"}, 1) == \
        UseEffect(0, gandr, 1, (1,))
    assert run.to_action({"action": "use", "card": "S-001", "targets": ["B"]}, 1) == \
        UseEffect(0, gandr, 1, (1,))
    assert run.to_action({"action": "use", "card": "S-001"}, 1) == UseEffect(0, gandr, 1, ())


@pytest.mark.parametrize("card, kind", [("S-001", "servant"), ("S-951", "player"),
                                        ("S-004", "dropped_player")])
def test_a_player_target_is_a_player_name(tmp_path, card, kind):
    run = new_run(tmp_path, head=TARGETS)
    uid = uid_of(run, card, hand(run))[0]
    assert run.game.card_of(uid).effects[0].target.kind == kind
    assert run.to_action({"action": "use", "card": card, "targets": ["B"]}, 1) == \
        UseEffect(0, uid, 1, (1,))
    assert action_error(run, {"action": "use", "card": card, "targets": ["Bx"]}, 15) == \
        at(run, "no player called 'Bx' (did you mean 'B'?)", 15)


def test_a_card_target_is_a_card_on_a_servant_seat(tmp_path):
    run = new_run(tmp_path, head=TARGETS)
    b = run.game.state.players[1]
    use = {"action": "use", "player": "B", "card": "H-012", "effect": "破戒すべき全ての符"}
    assert run.to_action({**use, "targets": "M-006#2"}, 1) == UseEffect(1, b.hero, 3, (b.seat[1],))
    assert action_error(run, {**use, "targets": "S-002"}, 16) == \
        at(run, "S-002 is not on a servant seat", 16)


def test_an_effect_without_a_target_kind_takes_only_a_player_name(tmp_path):
    run = new_run(tmp_path)
    first = hand(run)[0]
    assert run.to_action({"action": "use", "card": "S-003", "targets": "B"}, 1) == \
        UseEffect(0, first, 1, (1,))
    assert action_error(run, {"action": "use", "card": "S-003", "targets": "Z"}, 17) == \
        at(run, "this effect takes no target (got 'Z')", 17)
    assert action_error(run, {"action": "use", "card": "S-003", "targets": [3]}, 17) == \
        at(run, "this effect takes no target (got 3)", 17)


def test_a_stack_target_is_an_effect_waiting_on_the_stack(tmp_path):
    run = new_run(tmp_path, STACKED, head=TARGETS)
    run.run_all()
    assert run.passed
    hero = run.game.state.players[0].hero
    negate = {"action": "use", "card": "H-008", "effect": "打ち消し"}
    # by name (the topmost of that name), by the card's id or name, or by position (0 = bottom)
    assert run.to_action({**negate, "targets": "運命の出会い"}, 1) == UseEffect(0, hero, 2, (0,))
    assert run.to_action({**negate, "targets": "Gandr Shot"}, 1) == UseEffect(0, hero, 2, (1,))
    assert run.to_action({**negate, "targets": "S-003"}, 1) == UseEffect(0, hero, 2, (0,))
    assert run.to_action({**negate, "targets": 0}, 1) == UseEffect(0, hero, 2, (0,))
    assert run.to_action({**negate, "targets": 1}, 1) == UseEffect(0, hero, 2, (1,))
    assert action_error(run, {**negate, "targets": 2}, 18) == at(run, "no effect 2 waits on the stack", 18)
    assert action_error(run, {**negate, "targets": "暗殺"}, 18) == \
        at(run, "no effect '暗殺' waits on the stack", 18)


def test_a_command_spell_negates_by_default(tmp_path):
    run = new_run(tmp_path, STACKED, head=TARGETS)
    run.run_all()
    assert run.to_action({"action": "spell", "target": "運命の出会い"}, 1) == CommandSpell(0, "negate", 0)
    assert run.to_action({"action": "spell", "kind": "negate", "target": "ガンド撃ち"}, 1) == \
        CommandSpell(0, "negate", 1)
    assert action_error(run, {"action": "spell", "target": "約束された勝利の剣"}, 19) == \
        at(run, "no effect '約束された勝利の剣' waits on the stack", 19)


def test_a_negating_spell_on_an_empty_stack_names_what_is_missing(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "spell", "target": "ガンド撃ち"}, 20) == \
        at(run, "no effect 'ガンド撃ち' waits on the stack", 20)
    assert action_error(run, {"action": "spell", "target": 0}, 20) == \
        at(run, "no effect 0 waits on the stack", 20)


def test_a_command_spell_removes_an_assassination_coin_unless_another_coin_is_named(tmp_path):
    run = new_run(tmp_path)
    spell = {"action": "spell", "kind": "remove_coin", "target": "B"}
    assert run.to_action(spell, 1) == CommandSpell(0, "remove_coin", 1, "assassination")
    assert run.to_action({**spell, "coin": "curse"}, 1) == CommandSpell(0, "remove_coin", 1, "curse")
    assert action_error(run, {**spell, "target": "C"}, 21) == at(run, "no player called 'C'", 21)
    assert action_error(run, {**spell, "kind": "steal"}, 21) == \
        at(run, "spell kind must be negate or remove_coin", 21)


def test_an_unknown_action_is_named(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "fly", "player": "A"}, 22) == at(run, "unknown action 'fly'", 22)


# A (an Assassin) uses 暗殺 on B and must discard a card as its cost: a "discard" decision.
ASSASSIN = """\
title: assassin
seed: 1
players:
  - name: A
    servant: {hero: H-015, class: アサシン, state: rise}
    hand: [S-003, S-001, S-003]
  - name: B
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003]
deck: [S-001, S-002]
start: {player: A, step: ritual}
"""

# A raids B; with no interception the raid process begins at once and A must choose an attack.
RAID = """\
title: raid
seed: 1
profile: {interception: false}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: combat}
"""


def test_choose_needs_a_pending_choice(tmp_path):
    run = new_run(tmp_path)
    assert action_error(run, {"action": "choose", "card": "S-003"}, 23) == \
        at(run, "no choice is pending", 23)


def test_choose_a_card_among_those_offered(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: use, card: C-003, targets: [B]}\n", ASSASSIN)
    run.run_all()
    assert run.passed and run.game.pending.kind == "discard"
    first, gandr, second = hand(run)
    assert run.to_action({"action": "choose", "card": "S-003#2"}, 1) == Choose(0, second)
    assert run.to_action({"action": "choose", "player": "A", "card": "ガンド"}, 1) == Choose(0, gandr)
    assert action_error(run, {"action": "choose", "card": "M-006"}, 24) == \
        at(run, "M-006 is not a choice offered", 24)


def test_choose_in_a_discard_answers_with_the_option_not_the_player(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: use, card: C-003, targets: [B]}\n", ASSASSIN)
    run.run_all()
    assert run.to_action({"action": "choose", "player": "A"}, 1) == Choose(0, None)
    assert run.to_action({"action": "choose"}, 1) == Choose(0, None)
    assert run.to_action({"action": "choose", "player": "A", "option": 7}, 1) == Choose(0, 7)


def test_choose_names_a_player_or_an_option(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: raid, target: B}\n", RAID)
    run.run_all()
    assert run.passed and run.game.pending.kind == "attack"
    assert run.to_action({"action": "choose", "option": "magic"}, 1) == Choose(0, "magic")
    assert run.to_action({"action": "choose", "player": "A", "option": "physical"}, 1) == \
        Choose(0, "physical")
    # a choose naming only a player answers with that player (it is also the one who chooses)
    assert run.to_action({"action": "choose", "player": "A"}, 1) == Choose(0, 0)
    assert action_error(run, {"action": "choose", "player": "Ax"}, 25) == \
        at(run, "no player called 'Ax' (did you mean 'A'?)", 25)
    assert run.to_action({"action": "choose"}, 1) == Choose(0, None)


# --- forward / back: a step's outcome, and taking it back


def test_a_refused_do_fails_its_step_with_the_refusal_and_its_rule(tmp_path):
    assert outcomes(tmp_path, """\
      - do: {player: B, action: pass}
      - do: {player: A, action: attack, type: physical}
    """) == [(False, "illegal action: it is seat 0's decision, not seat 1's [D6]"),
             (False, "illegal action: that action is not allowed now")]


def test_a_rules_error_while_describing_an_action_fails_the_step_with_its_text(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: pass}\n")

    def no_words(game, action):
        raise RulesError("no words for this action")

    run.describe_action = no_words
    result = run.forward()
    assert (result.ok, result.message) == (False, "no words for this action")


def test_an_engine_bug_fails_the_step_as_an_internal_error_never_a_traceback(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: pass}\n  - say: after\n")

    def broken(game, action):
        raise ValueError("boom")

    run.describe_action = broken
    result = run.forward()
    assert (result.ok, result.message) == (False, "internal error: ValueError: boom")
    assert not run.done and run.forward().ok and run.done and not run.passed


def test_a_step_result_carries_the_events_of_that_step_and_the_rules_they_cite(tmp_path):
    run = new_run(tmp_path, """\
      - do: {player: A, action: use, card: S-001, targets: B}
      - resolve
      - expect: {stack_size: 0}
    """)
    seen = run.game.log_length
    results = []
    while not run.done:
        results.append(run.forward())
        log = list(run.game.log)
        assert results[-1].events == log[seen:]
        assert results[-1].rules == list(dict.fromkeys(r for e in log[seen:] for r in e.rules))
        seen = len(log)
    assert results[0].rules == ["B5", "E2.2", "B9"]
    assert results[1].events and results[1].rules[:2] == ["D6", "P1"]
    assert results[2].events == [] and results[2].rules == []
    assert run.results == results and run.passed
    assert rules_cited(results) == set(results[0].rules) | set(results[1].rules)


def test_back_before_any_step_does_nothing(tmp_path):
    run = new_run(tmp_path)
    before = run.game.state.to_dict()
    run.back()
    assert run.index == 0 and run.results == [] and run.game.state.to_dict() == before
    assert not run.done


def test_back_undoes_exactly_the_actions_of_the_last_step(tmp_path):
    run = new_run(tmp_path, """\
      - do: {player: A, action: use, card: S-001, targets: B}
      - say: nothing happens here
      - resolve
    """)
    positions = [run.game.state.to_dict()]
    for _ in range(3):
        run.forward()
        positions.append(run.game.state.to_dict())
    assert run.done and run.passed
    run.back()  # the resolve's passes
    assert run.index == 2 and len(run.results) == 2 and not run.done
    assert run.game.state.to_dict() == positions[2]
    run.back()  # the say: no action to undo, the use stays
    assert run.index == 1 and len(run.results) == 1
    assert run.game.state.to_dict() == positions[1] != positions[0]
    assert len(run.game.history) == 1
    run.back()
    assert run.index == 0 and run.results == [] and run.game.state.to_dict() == positions[0]
    assert len(run.game.history) == 0
    run.back()
    assert run.index == 0
    # and forward again plays the same steps
    gandr = hand(run)[1]
    assert run.run_all()[0].message == f"A: use card={gandr} effect=1 targets=(1,)"
    assert run.passed and run.game.state.to_dict() == positions[3]


def test_back_restores_where_the_next_check_starts_reading_the_log(tmp_path):
    run = new_run(tmp_path, """\
      - do: {player: A, action: use, card: S-001, targets: B}
      - expect: {log_cites: B5}
      - expect: {log_not_cites: B5}
    """)
    run.run_all()
    assert run.passed and run.cited_since_check() == set()
    run.back()
    run.back()  # back before the first check: it reads the setup's automatic work again
    assert run.cited_since_check() == {r for e in run.game.log for r in e.rules} >= {"B5", "D5"}
    run.back()
    assert "B5" not in run.cited_since_check()


def test_back_after_a_check_keeps_the_check_start_of_before_it(tmp_path):
    run = new_run(tmp_path, """\
      - do: {player: A, action: use, card: S-001, targets: B}
      - expect: {log_cites: B5}
      - expect: {stack_size: 1}
    """)
    run.run_all()
    run.back()
    assert run.cited_since_check() == set()


# --- the kinds of step


def test_a_say_step_passes_with_its_narration(tmp_path):
    assert outcomes(tmp_path, """\
      - say: こんにちは
      - say_en: hello only in English
    """) == [(True, "こんにちは"), (True, "hello only in English")]


def test_a_do_step_reports_the_action_as_the_front_end_describes_it_before_it_is_applied(tmp_path):
    run = new_run(tmp_path, "  - do: {player: A, action: use, card: S-001, targets: B}\n")
    seen = []

    def describe(game, action):
        seen.append((game, action, len(game.history)))
        return "A casts Gandr on B"

    run.describe_action = describe
    gandr = hand(run)[1]
    assert run.forward().message == "A casts Gandr on B"
    # described while nothing was applied yet; then applied
    assert seen == [(run.game, UseEffect(0, gandr, 1, (1,)), 0)]
    assert len(run.game.history) == 1 and gandr not in hand(run)


def test_do_resolve_and_resolve_pass_until_the_stack_is_empty(tmp_path):
    assert outcomes(tmp_path, """\
      - resolve
      - do: {player: A, action: use, card: S-001, targets: B}
      - do: {action: resolve}
      - expect: {stack_size: 0}
      - do: {player: A, action: use, card: S-003}
      - resolve
      - expect: {stack_size: 0, hand_size: 3, player: A}
    """) == [(True, "resolved (0 passes)"), (True, "A: use card=20 effect=1 targets=(1,)"),
             (True, "resolved (2 passes)"), (True, "ok: {'stack_size': 0}"),
             (True, "A: use card=28 effect=1 targets=()"), (True, "resolved (2 passes)"),
             (True, "ok: {'stack_size': 0, 'hand_size': 3, 'player': 'A'}")]


# No encounters (no die roll ends in a combat): A goes from the ritual step to the combat step.
CALM = """\
title: calm
seed: 1
profile: {encounter_on: []}
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003]
  - name: B
    servant: {hero: H-012, class: セイバー, state: rise}
deck: [S-001, S-002, S-003, S-003]
start: {player: A, step: ritual}
"""


def test_advance_passes_until_the_named_step_begins(tmp_path):
    assert outcomes(tmp_path, """\
      - advance: ritual
      - do: {action: advance, step: combat}
      - expect: {step: combat, process: null}
      - advance: {step: end}
      - advance: draw
      - expect: {step: draw, turn_player: B}
    """, CALM) == [(True, "already at ritual"), (True, "advanced to combat (2 passes)"),
                   (True, "ok: {'step': 'combat', 'process': None}"),
                   (True, "advanced to end (1 passes)"), (True, "advanced to draw (2 passes)"),
                   (True, "ok: {'step': 'draw', 'turn_player': 'B'}")]


def test_advance_passes_until_the_named_combat_process_begins(tmp_path):
    assert outcomes(tmp_path, """\
      - advance: combat
      - do: {player: A, action: raid, target: B}
      - advance: {step: engagement}
      - expect: {process: engagement, step: combat}
      - do: {action: advance, step: engagement}
      - advance: raid
    """, CALM) == [(True, "advanced to combat (2 passes)"), (True, "A: raid target=1"),
                   (True, "advanced to engagement (1 passes)"),
                   (True, "ok: {'process': 'engagement', 'step': 'combat'}"),
                   (True, "already at engagement"),
                   (False, "cannot advance to raid: B must decide (attack) first")]


def test_advance_stops_when_a_player_must_decide(tmp_path):
    steps = """\
      - do: {player: A, action: use, card: C-003, targets: [B]}
      - advance: combat
      - do: {action: advance, step: end}
      - expect: {pending: discard, step: ritual}
    """
    assert outcomes(tmp_path, steps, ASSASSIN) == [
        (True, "A: use card=6 effect=1 targets=(1,)"),
        (False, "cannot advance to combat: A must decide (discard) first"),
        (False, "cannot advance to end: A must decide (discard) first"),
        (True, "ok: {'pending': 'discard', 'step': 'ritual'}")]


def test_advance_in_a_game_that_is_over_says_so(tmp_path):
    assert outcomes(tmp_path, """\
      - advance: combat
      - do: {action: advance, step: raid}
    """, OVER) == [(False, "the game ended before combat"), (False, "the game ended before raid")]


def stuck(run: ScenarioRun) -> list:
    """Make every action a no-op (a stuck engine) and return the list of actions tried."""
    tried = []
    run.game.apply = lambda action: tried.append(action) or []
    return tried


def test_advance_gives_up_after_ten_thousand_passes_that_change_nothing(tmp_path):
    run = new_run(tmp_path, "  - advance: combat\n  - do: {action: advance, step: end}\n")
    tried = stuck(run)
    assert [(r.ok, r.message) for r in run.run_all()] == [(False, "never reached combat"),
                                                           (False, "never reached end")]
    assert tried == [Pass(0)] * 20002


@pytest.mark.parametrize("step", ["resolve", "do: {action: resolve}"])
def test_resolve_gives_up_after_ten_thousand_passes_that_change_nothing(tmp_path, step):
    run = new_run(tmp_path, STACKED + f"  - {step}\n", TARGETS)
    for _ in range(3):
        assert run.forward().ok
    tried = stuck(run)
    result = run.forward()
    assert (result.ok, result.message) == (False, "resolve did not finish")
    assert tried == [Pass(0)] * 10001


def test_an_unknown_step_kind_fails_with_its_name(tmp_path):
    run = new_run(tmp_path)
    run.scenario.steps.append(Step("dance", {}, 99))
    run.forward()
    result = run.forward()
    assert (result.ok, result.message) == (False, "unknown step dance")


# --- expect: and expect_illegal:


def test_an_expectation_that_holds_passes_with_what_it_checked(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {player: A, mana: 5, hand_size: 3}
    """) == [(True, "ok: {'player': 'A', 'mana': 5, 'hand_size': 3}")]


def test_every_failed_check_of_a_step_is_reported_in_order(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {player: A, mana: 4, hand_size: 3, command_spells: 2, mana_limit: 6}
    """) == [(False, "mana: expected 4, got 5; command_spells: expected 2, got 3; "
                     "mana_limit: expected 6, got 5")]


def test_position_checks(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {step: ritual, process: null, turn_player: A, active_master: A}
      - expect: {pending: priority, stack_size: 0, deck_size: 3, discard_size: 0, grail_size: 0}
      - expect: {step: combat, process: raid, turn_player: B, active_master: B, pending: discard}
      - expect: {stack_size: 1, deck_size: 2, discard_size: 1, grail_size: 4}
      - do: {player: A, action: use, card: S-001, targets: B}
      - expect: {stack_size: 1, discard_size: 0}
    """) == [
        (True, "ok: {'step': 'ritual', 'process': None, 'turn_player': 'A', 'active_master': 'A'}"),
        (True, "ok: {'pending': 'priority', 'stack_size': 0, 'deck_size': 3, 'discard_size': 0, "
               "'grail_size': 0}"),
        (False, "step: expected 'combat', got 'ritual'; process: expected 'raid', got None; "
                "turn_player: expected 'B', got 'A'; active_master: expected 'B', got 'A'; "
                "pending: expected 'discard', got 'priority'"),
        (False, "stack_size: expected 1, got 0; deck_size: expected 2, got 3; "
                "discard_size: expected 1, got 0; grail_size: expected 4, got 0"),
        (True, "A: use card=20 effect=1 targets=(1,)"),
        (True, "ok: {'stack_size': 1, 'discard_size': 0}")]


def test_position_checks_in_a_combat(tmp_path):
    assert outcomes(tmp_path, """\
      - do: {player: A, action: raid, target: B}
      - expect: {step: combat, process: raid, pending: attack}
      - expect: {process: null}
    """, RAID) == [(True, "A: raid target=1"),
                   (True, "ok: {'step': 'combat', 'process': 'raid', 'pending': 'attack'}"),
                   (False, "process: expected None, got 'raid'")]


def test_position_checks_once_the_game_is_over(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {winner: C, pending: null, active_master: null, turn_player: A}
      - expect: {winner: none, pending: priority, active_master: A}
    """, OVER) == [
        (True, "ok: {'winner': 'C', 'pending': None, 'active_master': None, 'turn_player': 'A'}"),
        (False, "winner: expected 'none', got 'C'; pending: expected 'priority', got None; "
                "active_master: expected 'A', got None")]


def test_winner_before_the_end_of_the_game(tmp_path):
    assert outcomes(tmp_path, "  - expect: {winner: A}\n") == \
        [(False, "winner: expected 'A', but the game is not over")]


def test_player_checks(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {player: B, servant_state: rise, mana: 5, mana_limit: 5, command_spells: 3}
      - expect: {player: B, out: false, coins: 0, hand_size: 1, stats: {pa: 8, md: 3}}
      - expect: {player: B, servant_state: down, mana: 1, mana_limit: 2, command_spells: 0}
      - expect: {player: B, out: true, coins: 2, hand_size: 0, stats: {pa: 1, md: 4}}
      - expect: {player: B, coins: {assassination: 0}}
      - expect: {player: B, coins: {assassination: 1, curse: 2}}
    """) == [
        (True, "ok: {'player': 'B', 'servant_state': 'rise', 'mana': 5, 'mana_limit': 5, "
               "'command_spells': 3}"),
        (True, "ok: {'player': 'B', 'out': False, 'coins': 0, 'hand_size': 1, "
               "'stats': {'pa': 8, 'md': 3}}"),
        (False, "servant_state: expected 'down', got 'rise'; mana: expected 1, got 5; "
                "mana_limit: expected 2, got 5; command_spells: expected 0, got 3"),
        (False, "out: expected True, got False; coins: expected 2, got 0; "
                "hand_size: expected 0, got 1; stats.pa: expected 1, got 8; stats.md: expected 4, got 3"),
        (True, "ok: {'player': 'B', 'coins': {'assassination': 0}}"),
        (False, "coins.assassination: expected 1, got 0; coins.curse: expected 2, got 0")]


def test_card_state_checks_a_card_on_the_players_seat(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {player: B, card: M-006, card_state: rise}
      - expect: {player: B, card: "M-006#2", card_state: down}
      - expect: {player: B, card: S-002, card_state: rise}
      - expect: {player: A, card: M-006, card_state: rise}
    """, TARGETS) == [(True, "ok: {'player': 'B', 'card': 'M-006', 'card_state': 'rise'}"),
                      (False, "card_state: expected 'down', got 'rise'"),
                      (False, "S-002 is not on B's seat"),
                      (False, "M-006 is not on A's seat")]


def test_zone_checks_where_a_card_is(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {card: S-003, zone: hand}
      - expect: {card: S-001, zone: deck}
      - expect: {card: S-001, zone: discard}
      - expect: {card: S-001, zone: deck, player: B}
      - expect: {card: S-003, zone: hand, player: B}
      - expect: {card: H-005, zone: removed}
      - expect: {card: H-005, zone: box}
    """) == [(True, "ok: {'card': 'S-003', 'zone': 'hand'}"),
             (True, "ok: {'card': 'S-001', 'zone': 'deck'}"),
             (False, "zone of S-001: expected discard, found ['deck', 'hand']"),
             (True, "ok: {'card': 'S-001', 'zone': 'deck', 'player': 'B'}"),
             (False, "zone of S-003: expected hand, found ['deck']"),
             (True, "ok: {'card': 'H-005', 'zone': 'removed'}"),
             (False, "zone of H-005: expected box, found ['removed']")]


def test_a_check_on_an_unknown_card_names_it(tmp_path):
    assert outcomes(tmp_path, "  - expect: {card: S-0001, zone: hand}\n") == \
        [(False, "no card 'S-0001' (did you mean 'S-001'?)")]


def test_log_checks_read_the_rules_cited_since_the_previous_check(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {log_cites: [D5, D3], log_not_cites: B5}
      - expect: {log_cites: D5}
      - expect: {log_not_cites: [D5, B5]}
      - do: {player: A, action: use, card: S-001, targets: B}
      - expect: {log_cites: [B9, E9.9, B5], log_not_cites: [E2.2, D5, B5]}
      - do: {player: A, action: use, card: S-003}
      - expect: {log_cites: E2.2}
    """) == [(True, "ok: {'log_cites': ['D5', 'D3'], 'log_not_cites': 'B5'}"),
             (False, "log does not cite D5 since the previous check (cited: nothing)"),
             (True, "ok: {'log_not_cites': ['D5', 'B5']}"),
             (True, "A: use card=20 effect=1 targets=(1,)"),
             (False, "log does not cite E9.9 since the previous check (cited: B5, B9, E2.2); "
                     "log cites E2.2 but should not; log cites B5 but should not"),
             (True, "A: use card=28 effect=1 targets=()"),
             (True, "ok: {'log_cites': 'E2.2'}")]


def test_player_checks_need_a_player_and_card_checks_a_card(tmp_path):
    assert outcomes(tmp_path, """\
      - expect: {mana: 5}
      - expect: {stats: {pa: 1}}
      - expect: {player: A, card_state: rise}
      - expect: {zone: hand}
    """) == [(False, "expect mana needs player:"), (False, "expect stats needs player:"),
             (False, "card_state needs card:"), (False, "zone needs card:")]


def test_stats_names_the_four_stats(tmp_path):
    assert outcomes(tmp_path, "  - expect: {player: A, stats: {hp: 3}}\n") == \
        [(False, "no stat 'hp' (pa, pd, ma, md)")]


def test_expect_illegal_passes_when_the_action_is_refused(tmp_path):
    assert outcomes(tmp_path, """\
      - expect_illegal: {do: {player: B, action: pass}}
      - expect_illegal: {do: {player: B, action: pass}, rule: D6}
      - expect_illegal: {do: {player: B, action: pass}, reason: not_your_turn}
      - expect_illegal: {do: {player: B, action: pass}, rule: D6, reason: not_your_turn}
    """) == [(True, "refused: it is seat 0's decision, not seat 1's [D6]")] * 4


def test_expect_illegal_fails_when_refused_by_another_rule_or_reason(tmp_path):
    assert outcomes(tmp_path, """\
      - expect_illegal: {do: {player: B, action: pass}, rule: E1.1}
      - expect_illegal: {do: {player: A, action: attack, type: magic}, rule: D5}
      - expect_illegal: {do: {player: B, action: pass}, reason: too_late}
      - expect_illegal: {do: {player: B, action: pass}, rule: D6, reason: too_late}
    """) == [(False, "refused, but by rule D6 (not_your_turn), not E1.1"),
             (False, "refused, but by rule (none) (not_allowed_now), not D5"),
             (False, "refused for not_your_turn, not too_late"),
             (False, "refused for not_your_turn, not too_late")]


def test_expect_illegal_fails_when_the_action_is_allowed_and_takes_it_back(tmp_path):
    run = new_run(tmp_path, """\
      - expect_illegal: {do: {player: A, action: use, card: S-001, targets: B}}
      - expect: {stack_size: 0, player: A, hand_size: 3}
    """)
    before = run.game.state.to_dict()
    first = run.forward()
    assert (first.ok, first.message) == (False, f"A: use card={hand(run)[1]} effect=1 targets=(1,) was allowed")
    assert run.game.state.to_dict() == before
    assert len(run.game.history) == 0 and not run.game.can_redo()
    assert run.forward().ok


def test_expect_illegal_describes_the_allowed_action_as_the_front_end_does(tmp_path):
    run = new_run(tmp_path, "  - expect_illegal: {do: {player: A, action: pass}}\n")
    seen = []
    run.describe_action = lambda game, action: seen.append((game, action)) or "A passes"
    result = run.forward()
    assert (result.ok, result.message) == (False, "A passes was allowed")
    assert seen == [(run.game, Pass(0))]


def test_expect_illegal_fails_when_the_refusal_changed_the_state(tmp_path):
    run = new_run(tmp_path, "  - expect_illegal: {do: {player: B, action: pass}}\n")

    def refuse_after_a_change(action):
        run.game.ctx.s.players[1].mana -= 1
        raise IllegalAction("not_your_turn", "D6", "refused")

    run.game.apply = refuse_after_a_change
    result = run.forward()
    assert (result.ok, result.message) == (False, "the refused action changed the state")
    # the finding keeps the refusal's rule and reason
    assert [(x.kind, x.rule, x.reason) for x in result.findings] == [("changed_state", "D6", "not_your_turn")]


# --- setting up a run


QUIET = """\
title: quiet
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-001]
start: {player: A, step: ritual}
"""


def test_a_run_plays_under_the_files_rules_or_errata_on_or_off(tmp_path):
    scenario = load_scenario(write(tmp_path, "  - say: x\n", QUIET))
    assert ScenarioRun(scenario).game.rules.all_errata
    assert ScenarioRun(scenario, errata=True).game.rules.all_errata
    base = ScenarioRun(scenario, errata=False).game.rules
    assert base.name == "base" and not base.all_errata
    house = ScenarioRun(scenario, errata=True).game.rules
    assert ScenarioRun(scenario, errata=True, rules=base).game.rules.name == "base"
    assert ScenarioRun(scenario, errata=False, rules=house).game.rules.all_errata


def test_a_run_passes_game_options_on(tmp_path):
    scenario = load_scenario(write(tmp_path, "  - say: x\n", QUIET))
    # A has nothing to do in the ritual step: passed automatically unless auto_pass is off
    assert ScenarioRun(scenario).game.state.step == "encounter"
    assert ScenarioRun(scenario, auto_pass=False).game.state.step == "ritual"


def test_a_run_reads_the_cards_and_profile_of_another_data_folder(tmp_path):
    import shutil

    from fate_royal.paths import cards_dir

    root = tmp_path / "cards"
    shutil.copytree(cards_dir(), root)
    profile = root / "profile.yaml"
    text = profile.read_text(encoding="utf-8")
    assert "start_mana: 5" in text
    profile.write_text(text.replace("start_mana: 5", "start_mana: 3"), encoding="utf-8")
    scenario = load_scenario(write(tmp_path, "  - expect: {player: A, mana: 3}\n", QUIET))
    assert ScenarioRun(scenario).game.state.players[0].mana == 5
    run = ScenarioRun(scenario, root=root)
    assert run.game.state.players[0].mana == 3
    assert run.run_all()[0].ok


def test_a_run_can_play_a_game_it_is_given(tmp_path):
    scenario = load_scenario(write(tmp_path, "  - expect: {step: ritual}\n", QUIET))
    game = scenario.build_game(auto_pass=False)
    run = ScenarioRun(scenario, game)
    assert run.game is game and run.run_all()[0].ok
