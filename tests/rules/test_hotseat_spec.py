"""The hot-seat policy, rule by rule (issue 17): who is asked, why, and what the table counts.

Most tests put the policy in front of a small stand-in table (``Table``): a real ``GameState`` built
by hand (window, stack, combat, decision), read through the engine's own ``Game.pending``, with a
scripted list of legal actions. Passing moves priority along the window and closes it after the
last seat, as the engine does; any other action is only recorded (a test changes the position by
hand when the action would). That lets every branch of the policy be set up exactly. The tests at
the end play real games through ``play_scripted``.
"""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from fate_royal.rules.actions import (
    ChooseAttack, Choose, CommandSpell, DeclareRaid, Discard, Pass, PlayCard, UseEffect,
)
from fate_royal.rules.game import Game
from fate_royal.rules.hotseat import (
    Counters, HotSeat, Prompt, humans_of, play_scripted, public_actions,
)
from fate_royal.rules.legality import effect_options
from fate_royal.rules.state import Combat, Decision, Fighter, GameState, Player, StackItem, Window


class Table:
    """A stand-in for ``Game`` with a hand-made position (see the module docstring)."""

    pending = Game.pending  # the engine's own reading of whose decision it is

    def __init__(self, n=3, *, window=None, step="rise", turn=1, turn_player=0, stack=(),
                 combat=None, decision=None, options=None, actions=(), hands=None, cards=None):
        players = [Player(f"P{i}") for i in range(n)]
        for seat, hand in (hands or {}).items():
            players[seat].hand = list(hand)
        s = GameState(players, dict(cards or {}), {}, turn=turn, turn_player=turn_player,
                      step=step, window=window, stack=list(stack), combat=combat,
                      decision=decision)
        self.ctx = SimpleNamespace(s=s)
        self.options = dict(options or {})
        self.actions = list(actions)
        self.applied = []

    @property
    def s(self):
        return self.ctx.s

    def legal_actions(self):
        return list(self.actions)

    def apply(self, action):
        self.applied.append(action)
        w = self.s.window
        if isinstance(action, Pass) and w is not None:
            w.index += 1
            if w.index >= len(w.order):
                self.s.window = None
        return [action]


def effect_window(order=(1, 2, 0), item=None, **kw):
    """An effect window: seat 0 just put effect 2 of card 30 (M-006) on the stack."""
    item = item or StackItem(0, 30, 2)
    return Table(len(order), window=Window("effect", list(order)), stack=[item],
                 cards={30: "M-006"}, **kw)


ABOUT_30 = {"stack": 0, "player": 0, "card": "M-006", "effect": 2}


# --- who is human


def test_seats_set_to_a_computer_level_are_not_humans(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False, seats={"2": "basic"})
    assert humans_of(game) == {0, 1}
    assert HotSeat(game).humans == {0, 1}
    assert humans_of(Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False)) == {0, 1, 2}
    assert humans_of(Game.new(db, rules, ["A", "B"], seed=1, auto_pass=False,
                              seats={"0": "human", "1": "strong"})) == {0}


def test_a_computer_seat_decides_by_itself(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False, seats={"2": "basic"})
    assert game.pending.player == 2
    assert HotSeat(game).advance() == Prompt("computer", 2)


def test_the_humans_given_to_the_policy_override_the_seats_option(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False)
    hs = HotSeat(game, humans=[0, 1])
    assert hs.humans == {0, 1}
    assert hs.current() == Prompt("computer", 2)


def test_nobody_holds_the_screen_at_the_start():
    hs = HotSeat(Table())
    assert hs.viewer is None
    assert hs.count == Counters()


def test_one_human_against_computers_holds_the_screen_all_game():
    """Nobody else looks at the screen: the one human seat is the viewer from the start, through
    prompts the whole table would look at and after a reset, and is never handed the computer."""
    hs = HotSeat(effect_window(), humans=[1])
    assert hs.solo == 1 and hs.viewer == 1
    prompt = hs.advance()
    assert prompt.kind == "shared" and prompt.candidates == (1,)
    assert hs.viewer == 1 and not hs.needs_handoff()
    hs.claim(1)
    assert hs.current() == Prompt("private", 1, "claimed") and not hs.needs_handoff()
    hs.confirm()
    assert hs.count.handoffs == 0
    hs.reset()
    assert hs.viewer == 1
    two = HotSeat(effect_window(), humans=[1, 2])
    assert two.solo is None and two.viewer is None
    assert two.advance().kind == "shared" and two.viewer is None


# --- what may be decided on the shared screen


def test_public_actions_leave_out_other_seats_and_cards_from_hand():
    acts = [Pass(1), PlayCard(0, 10), UseEffect(0, 20, 1), Pass(0), DeclareRaid(0, 1),
            PlayCard(0, 11), CommandSpell(0, "negate", 0), UseEffect(2, 21, 1)]
    t = Table(hands={0: [10, 11], 2: [20]}, actions=acts)
    assert public_actions(t, 0) == [UseEffect(0, 20, 1), Pass(0), DeclareRaid(0, 1),
                                    CommandSpell(0, "negate", 0)]
    assert public_actions(t, 1) == [Pass(1)]
    assert public_actions(t, 2) == [UseEffect(2, 21, 1)]


def test_choosing_a_servant_or_discarding_is_never_public():
    for kind in ("choose_hero", "choose_class"):
        t = Table(decision=Decision(kind, 0, [5, 6]), actions=[Choose(0, 5), Choose(0, 6)])
        assert public_actions(t, 0) == []
    t = Table(hands={0: [7, 8]}, decision=Decision("discard", 0, [7, 8]),
              actions=[Discard(0, 7), Discard(0, 8)])
    assert public_actions(t, 0) == []


def test_a_choice_on_public_cards_is_public():
    t = Table(decision=Decision("rise_cards", 0, [5, 6]), actions=[Choose(0, 5), Choose(0, 6)])
    assert public_actions(t, 0) == [Choose(0, 5), Choose(0, 6)]


# --- decisions


def test_the_game_over_needs_nobody():
    assert HotSeat(Table()).advance() == Prompt("over")


@pytest.mark.parametrize("kind, reason", [("discard", "discard"),
                                          ("choose_hero", "choose_servant"),
                                          ("choose_class", "choose_servant")])
def test_a_decision_on_hidden_cards_is_made_in_private(kind, reason):
    hs = HotSeat(Table(decision=Decision(kind, 1, [5])))
    assert hs.advance() == Prompt("private", 1, reason)
    assert hs.needs_handoff()
    assert hs.count == Counters(private=1)


@pytest.mark.parametrize("kind", ["attack", "encounter_target", "rise_cards"])
def test_a_decision_on_public_information_is_made_on_the_table(kind):
    hs = HotSeat(Table(decision=Decision(kind, 1, [5])))
    assert hs.advance() == Prompt("on_table", 1, kind)
    assert not hs.needs_handoff()
    assert hs.count == Counters(on_table=1)


def test_the_player_deciding_on_the_table_may_ask_to_decide_in_private():
    t = Table(decision=Decision("attack", 1, ["physical", "magic"]),
              actions=[ChooseAttack(1, "physical"), ChooseAttack(1, "magic")])
    hs = HotSeat(t)
    assert hs.advance() == Prompt("on_table", 1, "attack")
    assert hs.ask_privately() is True
    assert hs.advance() == Prompt("private", 1, "asked")
    assert hs.needs_handoff()
    hs.confirm()
    assert hs.viewer == 1
    assert hs.count == Counters(handoffs=1, on_table=1, private=1)
    assert hs.ask_privately() is False  # already private: nothing to ask
    assert hs.current() == Prompt("private", 1, "asked")
    hs.apply(ChooseAttack(1, "magic"))
    # the request is answered: the player's next public decision is on the table again
    t.s.decision = Decision("encounter_target", 1, [0, 2])
    assert hs.advance() == Prompt("on_table", 1, "encounter_target")
    assert hs.viewer is None


def test_asking_privately_is_refused_outside_a_decision_on_the_table():
    t = Table(decision=Decision("discard", 1, [5]))
    hs = HotSeat(t)
    hs.advance()
    assert hs.ask_privately() is False
    assert hs.current() == Prompt("private", 1, "discard")


# --- empty windows, the turn player's main windows, stops


def test_an_empty_window_is_passed_for_everyone():
    t = Table(window=Window("step", [0, 1, 2]), step="rise")
    hs = HotSeat(t)
    assert hs.current() == Prompt("auto", 0, "nothing_new")
    assert hs.advance() == Prompt("over")
    assert t.applied == [Pass(0), Pass(1), Pass(2)]
    assert hs.count == Counters(auto=3)


@pytest.mark.parametrize("step", ["ritual", "combat"])
def test_the_turn_player_gets_the_screen_for_the_ritual_and_combat_steps(step):
    t = Table(window=Window("step", [1, 2, 0]), step=step, turn_player=1)
    hs = HotSeat(t)
    assert hs.advance() == Prompt("private", 1, "your_turn")
    hs.confirm()
    hs.apply(Pass(1))
    # the others have nothing new to answer in the turn player's step
    assert hs.current() == Prompt("auto", 2, "nothing_new")
    assert hs.advance() == Prompt("over")
    assert hs.count == Counters(handoffs=1, private=1, auto=2)


@pytest.mark.parametrize("step", ["rise", "end"])
def test_other_steps_are_no_main_window(step):
    hs = HotSeat(Table(window=Window("step", [1, 2, 0]), step=step, turn_player=1))
    assert hs.current() == Prompt("auto", 1, "nothing_new")


def test_every_window_stop_asks_at_each_window():
    t = Table(window=Window("step", [0, 1, 2]), options={"stops": {"1": ["every_window"]}})
    hs = HotSeat(t)
    assert hs.advance() == Prompt("private", 1, "stop")
    assert t.applied == [Pass(0)]
    assert hs.count == Counters(private=1, auto=1)


def test_my_turn_stop_asks_only_in_ones_own_turn():
    stops = {"stops": {"0": ["my_turn"], "1": ["my_turn"]}}
    t = Table(window=Window("step", [0, 1, 2]), turn_player=0, options=stops)
    hs = HotSeat(t)
    assert hs.advance() == Prompt("private", 0, "stop")
    hs.apply(Pass(0))
    assert hs.current() == Prompt("auto", 1, "nothing_new")


def test_my_combat_stop_asks_only_the_fighters():
    stops = {"stops": {"0": ["my_combat"], "1": ["my_combat"], "2": ["my_combat"]}}
    t = Table(window=Window("process", [0, 1, 2]), step="combat", options=stops,
              combat=Combat(Fighter(0), Fighter(2), process="engagement"))
    hs = HotSeat(t)
    assert hs.advance() == Prompt("private", 0, "stop")
    hs.apply(Pass(0))
    assert hs.current() == Prompt("auto", 1, "nothing_new")
    assert hs.advance() == Prompt("private", 2, "stop")
    t.s.combat = None
    assert hs.current() == Prompt("auto", 2, "nothing_new")


def test_a_fighter_with_a_face_up_effect_decides_on_the_table():
    acts = [Pass(0), UseEffect(0, 20, 1), PlayCard(0, 10)]
    t = Table(window=Window("process", [0, 1, 2]), step="combat", hands={0: [10]},
              combat=Combat(Fighter(0), Fighter(1), process="engagement"), actions=acts)
    hs = HotSeat(t)
    assert hs.advance() == Prompt("on_table", 0, "fighter_option")
    assert hs.count == Counters(on_table=1)


def test_a_bystander_with_an_effect_is_not_asked_in_a_combat():
    t = Table(window=Window("process", [2, 0, 1]), step="combat",
              combat=Combat(Fighter(0), Fighter(1), process="engagement"),
              actions=[Pass(2), UseEffect(2, 20, 1)])
    assert HotSeat(t).current() == Prompt("auto", 2, "nothing_new")


def test_a_face_up_effect_outside_a_combat_is_not_asked_for():
    t = Table(window=Window("step", [2, 0, 1]), actions=[Pass(2), UseEffect(2, 20, 1)])
    assert HotSeat(t).current() == Prompt("auto", 2, "nothing_new")


# --- news: the shared prompt


def test_an_entry_put_on_the_stack_is_put_to_the_whole_table():
    hs = HotSeat(effect_window())
    assert hs.advance() == Prompt("shared", 1, "respond", (1, 2, 0), ABOUT_30)
    assert not hs.needs_handoff()
    assert hs.count == Counters(shared=1)
    assert hs.advance() == Prompt("shared", 1, "respond", (1, 2, 0), ABOUT_30)
    assert hs.count == Counters(shared=1)  # the same prompt is counted once


def test_a_command_spell_on_the_stack_names_no_card():
    hs = HotSeat(effect_window(item=StackItem(2, -1, 0, spell="negate")))
    assert hs.current() == Prompt("shared", 1, "respond", (1, 2, 0),
                                  {"stack": 0, "player": 2, "card": "", "effect": 0})


def test_the_shared_prompt_names_the_top_entry_and_only_human_candidates():
    t = Table(4, window=Window("effect", [1, 3, 2, 0]), cards={30: "M-006", 31: "S-002"},
              stack=[StackItem(0, 30, 2), StackItem(2, 31, 1)])
    hs = HotSeat(t, humans={0, 1, 2})
    assert hs.current() == Prompt("shared", 1, "respond", (1, 2, 0),
                                  {"stack": 1, "player": 2, "card": "S-002", "effect": 1})


def test_the_first_candidate_is_the_one_asked():
    t = effect_window(order=(1, 2, 0))
    t.s.window.index = 1
    assert HotSeat(t).current().player == 2
    assert HotSeat(t).current().candidates == (2, 0)


def test_when_nobody_responds_everyone_passes():
    t = effect_window()
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    assert hs.current() == Prompt("auto", 1, "declined")
    assert hs.advance() == Prompt("over")
    assert t.applied == [Pass(1), Pass(2), Pass(0)]
    assert hs.count == Counters(shared=1, auto=3)


def test_nobody_does_nothing_outside_a_shared_prompt():
    t = Table(window=Window("step", [1, 2, 0]), step="ritual", turn_player=1)
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    assert hs.current() == Prompt("private", 1, "your_turn")


def test_each_new_stack_entry_is_news_but_an_old_one_is_not():
    t = effect_window()
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    # something new is put on the stack: a new round, asked again
    t.s.stack.append(StackItem(2, -1, 0, spell="negate"))
    t.s.window = Window("effect", [1, 2, 0])
    assert hs.advance() == Prompt("shared", 1, "respond", (1, 2, 0),
                                  {"stack": 1, "player": 2, "card": "", "effect": 0})
    hs.nobody()
    # the spell resolves: the entry under it was already put to the table
    t.s.stack.pop()
    t.s.window = Window("effect", [1, 2, 0])
    assert hs.current() == Prompt("auto", 1, "nothing_new")


def test_a_negation_makes_a_new_round():
    t = effect_window()
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    t.s.stack[0].negated = True
    assert hs.current() == Prompt("shared", 1, "respond", (1, 2, 0), ABOUT_30)


def test_a_raid_declared_is_put_to_the_whole_table():
    t = Table(window=Window("process", [1, 2, 0]), step="combat", turn=3, turn_player=1,
              combat=Combat(Fighter(1), Fighter(0), process="disclosure"))
    hs = HotSeat(t)
    assert hs.advance() == Prompt("shared", 1, "respond", (1, 2, 0),
                              {"raid": 1, "target": 0, "encounter": False})
    hs.nobody()
    assert hs.current() == Prompt("auto", 1, "declined")
    # the next process of the same combat is no news
    t.s.combat.process = "engagement"
    assert hs.current() == Prompt("auto", 1, "nothing_new")


def test_an_encounter_is_news_in_each_turn():
    def encounter(turn):
        return Table(window=Window("process", [1, 2, 0]), step="combat", turn=turn,
                     combat=Combat(Fighter(2), Fighter(0), encounter=True, process="disclosure"))
    t = encounter(3)
    hs = HotSeat(t)
    about = {"raid": 2, "target": 0, "encounter": True}
    assert hs.current() == Prompt("shared", 1, "respond", (1, 2, 0), about)
    hs.nobody()
    t.ctx.s = encounter(4).s
    assert hs.current() == Prompt("shared", 1, "respond", (1, 2, 0), about)


def test_a_combat_process_without_a_raid_declared_is_no_news():
    t = Table(window=Window("process", [1, 2, 0]), step="combat",
              combat=Combat(Fighter(1), Fighter(0), process="raid"))
    assert HotSeat(t).current() == Prompt("auto", 1, "nothing_new")


def test_a_new_window_is_a_new_round():
    t = effect_window()
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    t.s.window = Window("step", [1, 2, 0])  # same stack, same seat: another window
    assert hs.current() == Prompt("auto", 1, "nothing_new")


def test_a_new_combat_process_is_a_new_round():
    t = Table(window=Window("process", [1, 2, 0]), step="combat",
              combat=Combat(Fighter(1), Fighter(0), process="disclosure"))
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    t.s.combat.process = "raid"
    t.s.window = Window("process", [1, 2, 0])
    assert hs.current() == Prompt("auto", 1, "nothing_new")


def test_an_action_opens_a_new_round_where_everyone_may_answer():
    t = effect_window(actions=[Pass(1), UseEffect(1, 40, 1)])
    hs = HotSeat(t)
    hs.advance()
    hs.nobody()
    assert hs.current() == Prompt("auto", 1, "declined")
    hs.apply(UseEffect(1, 40, 1))  # an action that changed nothing the round is keyed on
    assert hs.current() == Prompt("auto", 1, "nothing_new")
    # the next news of this round is declined, and a second action opens a round again
    t.s.stack.append(StackItem(2, -1, 0, spell="negate"))
    assert hs.current().kind == "shared"
    hs.nobody()
    assert hs.current() == Prompt("auto", 1, "declined")
    hs.apply(UseEffect(1, 40, 1))
    assert hs.current() == Prompt("auto", 1, "nothing_new")


# --- claims


def test_a_claim_gives_the_claimer_the_screen_and_the_earlier_candidates_decline():
    t = effect_window(order=(1, 2, 0))
    hs = HotSeat(t)
    assert hs.advance().candidates == (1, 2, 0)
    assert hs.claim(2) is True
    assert hs.current() == Prompt("auto", 1, "declined")
    assert hs.advance() == Prompt("private", 2, "claimed")
    assert t.applied == [Pass(1)]
    assert hs.needs_handoff()
    hs.confirm()
    assert (hs.viewer, hs.count) == (2, Counters(handoffs=1, shared=1, private=1, auto=1))


def test_after_the_claimer_passes_the_later_candidates_are_asked_again():
    t = effect_window(order=(1, 2, 0, 3))
    hs = HotSeat(t, humans={0, 1, 2})
    hs.advance()
    hs.claim(2)
    hs.advance()
    hs.confirm()
    hs.apply(Pass(2))
    assert hs.advance() == Prompt("shared", 0, "respond_more", (0,), ABOUT_30)
    assert hs.viewer is None  # the table looks again: privacy ends
    assert hs.count == Counters(handoffs=1, shared=2, private=1, auto=1)


def test_the_first_candidate_claiming_leaves_all_the_others_to_ask_again():
    t = effect_window(order=(1, 2, 0))
    hs = HotSeat(t)
    hs.advance()
    assert hs.claim(1)
    assert hs.advance() == Prompt("private", 1, "claimed")
    hs.apply(Pass(1))
    assert hs.advance() == Prompt("shared", 2, "respond_more", (2, 0), ABOUT_30)
    hs.nobody()
    assert hs.current() == Prompt("auto", 2, "declined")
    assert hs.advance() == Prompt("over")
    assert t.applied == [Pass(1), Pass(2), Pass(0)]


def test_the_claimer_who_responds_opens_a_new_round_for_everyone():
    t = effect_window(order=(1, 2, 0))
    hs = HotSeat(t)
    hs.advance()
    hs.claim(2)
    hs.advance()
    hs.apply(UseEffect(2, 41, 1))
    t.s.stack.append(StackItem(2, 41, 1))
    t.s.cards[41] = "S-002"
    t.s.window = Window("effect", [2, 0, 1])
    assert hs.advance() == Prompt("shared", 2, "respond", (2, 0, 1),
                                  {"stack": 1, "player": 2, "card": "S-002", "effect": 1})
    hs.nobody()
    # the response resolves: the entry the claim answered is not put to the table again
    t.s.stack.pop()
    t.s.window = Window("effect", [2, 0, 1])
    assert hs.current() == Prompt("auto", 2, "nothing_new")


def test_a_claim_is_refused_from_a_non_candidate_or_without_a_shared_prompt():
    t = effect_window(order=(1, 2, 0, 3))
    hs = HotSeat(t, humans={0, 1, 2})
    hs.advance()
    assert hs.claim(3) is False
    assert hs.current() == Prompt("shared", 1, "respond", (1, 2, 0), ABOUT_30)
    t2 = Table(window=Window("step", [1, 2, 0]), step="ritual", turn_player=1)
    hs2 = HotSeat(t2)
    assert hs2.claim(1) is False
    assert hs2.current() == Prompt("private", 1, "your_turn")


# --- hand-offs and privacy


def test_a_handoff_is_needed_only_for_a_private_prompt_to_someone_else():
    t = effect_window()
    hs = HotSeat(t)
    shared = hs.advance()
    assert hs.needs_handoff(shared) is False
    assert hs.needs_handoff(Prompt("private", 1, "claimed")) is True
    hs.confirm()  # nothing to confirm at a shared prompt
    assert hs.viewer is None
    assert hs.count.handoffs == 0


def test_each_handoff_to_another_player_is_counted():
    t = Table(decision=Decision("discard", 1, [5]))
    hs = HotSeat(t)
    hs.advance()
    hs.confirm()
    hs.confirm()  # the same player already holds the screen
    assert (hs.viewer, hs.count.handoffs) == (1, 1)
    assert not hs.needs_handoff()
    t.s.decision = Decision("discard", 2, [6])
    assert hs.advance() == Prompt("private", 2, "discard")
    hs.confirm()
    assert (hs.viewer, hs.count.handoffs, hs.count.private) == (2, 2, 2)


def test_a_prompt_on_the_table_ends_privacy_and_is_counted_once():
    t = Table(decision=Decision("discard", 1, [5]))
    hs = HotSeat(t)
    hs.advance()
    hs.confirm()
    t.s.decision = Decision("attack", 1, ["physical"])
    assert hs.advance() == Prompt("on_table", 1, "attack")
    assert hs.viewer is None
    hs.advance()
    assert hs.count == Counters(handoffs=1, private=1, on_table=1)
    t.s.decision = Decision("encounter_target", 1, [0, 2])
    hs.advance()
    assert hs.count == Counters(handoffs=1, private=1, on_table=2)


def test_reset_forgets_the_round_and_who_holds_the_screen():
    t = effect_window()
    hs = HotSeat(t)
    hs.advance()
    hs.claim(2)
    hs.advance()
    hs.confirm()
    assert hs.viewer == 2
    hs.reset()
    assert hs.viewer is None
    # the claim and the declines are forgotten; the news was already put to the table
    assert hs.current() == Prompt("auto", 2, "nothing_new")


def test_a_table_that_makes_no_progress_raises_instead_of_hanging():
    class Stuck(Table):
        def apply(self, action):
            return []

    hs = HotSeat(Stuck(window=Window("step", [0, 1, 2])))
    with pytest.raises(RuntimeError, match="^hot-seat policy made no progress$"):
        hs.advance()
    assert hs.count.auto == 100_000


# --- scripted tables (real games)


class Budgeted:
    """A real game that fails a test, rather than hang it, when a scripted table stops moving."""

    def __init__(self, game, most=20_000):
        self._game, self._most, self._calls = game, most, 0

    def outcome(self):
        self._calls += 1
        assert self._calls <= self._most, "the scripted table made no progress"
        return self._game.outcome()

    def __getattr__(self, name):
        return getattr(self._game, name)


def test_play_scripted_stops_after_max_turns_and_counts_them(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False)
    assert game.ctx.s.turn == 1
    count, turns = play_scripted(Budgeted(game), random.Random(1), max_turns=2)
    assert game.ctx.s.turn == 3 and game.outcome() is None
    assert turns == 3
    assert count.handoffs > 0 and count.private > 0 and count.auto > 0
    assert count.shared > 0 and count.on_table > 0


def test_play_scripted_goes_on_after_a_shared_prompt(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False)
    count, turns = play_scripted(Budgeted(game), random.Random(1), max_turns=4)
    assert count.shared >= 2 and turns == 5 and game.ctx.s.turn == 5


def test_play_scripted_counts_from_the_turn_it_started(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=2, auto_pass=False)
    play_scripted(game, random.Random(2), max_turns=2)
    assert game.ctx.s.turn == 3
    count, turns = play_scripted(Budgeted(game), random.Random(2), max_turns=2)
    assert game.ctx.s.turn == 5 and turns == 3


def test_play_scripted_without_turns_to_play_plays_nothing(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False)
    assert play_scripted(game, random.Random(1), max_turns=0) == (Counters(), 1)
    assert game.history == ()


def test_play_scripted_plays_to_the_end_of_the_game(db, rules):
    game = Game.new(db, rules, ["A", "B", "C"], seed=1, auto_pass=False)

    def passer(rnd, acts):
        return next((a for a in acts if isinstance(a, Pass)), acts[0])

    count, turns = play_scripted(Budgeted(game), random.Random(1), choose=passer)
    assert game.outcome() is not None
    assert turns == game.ctx.s.turn


def test_play_scripted_offers_the_screen_what_it_may_show(db, rules):
    """Computer seats and private prompts choose among all legal actions; a decision on the shared
    screen among the public ones only."""
    for seed in range(3):
        game = Game.new(db, rules, ["A", "B", "C"], seed=seed, auto_pass=False,
                        seats={"2": "basic"})
        offered = []

        def choose(rnd, acts, game=game, offered=offered):
            legal = game.legal_actions()
            p = game.pending.player
            offered.append((p, acts == legal, acts == public_actions(game, p)))
            return acts[rnd.randrange(len(acts))]

        play_scripted(Budgeted(game), random.Random(seed), max_turns=6, choose=choose)
        assert all(same for p, same, _ in offered if p == 2)
        assert all(public for _, same, public in offered if not same)
        if any(not same for _, same, _ in offered):
            break
    else:
        raise AssertionError("no decision on the shared screen offered fewer actions")
    assert any(p == 2 for p, _, _ in offered)


def test_play_scripted_with_claims_lets_the_first_candidate_with_an_effect_claim(db, rules,
                                                                                   monkeypatch):
    claims, declines = [], []
    claim, nobody = HotSeat.claim, HotSeat.nobody

    def spy_claim(self, seat):
        prompt = self.current()
        holders = [q for q in prompt.candidates
                   if effect_options(self.game.ctx, q, first_only=True)]
        claims.append((seat, holders[:1]))
        return claim(self, seat)

    def spy_nobody(self):
        prompt = self.current()
        declines.append([q for q in prompt.candidates
                         if effect_options(self.game.ctx, q, first_only=True)])
        return nobody(self)

    monkeypatch.setattr(HotSeat, "claim", spy_claim)
    monkeypatch.setattr(HotSeat, "nobody", spy_nobody)
    game = Game.new(db, rules, ["A", "B", "C"], seed=0, auto_pass=False)
    count, _ = play_scripted(Budgeted(game), random.Random(0), claim=True, max_turns=6)
    assert claims and all(seat == first[0] for seat, first in claims if first)
    assert declines and all(holders == [] for holders in declines)


def test_play_scripted_without_claims_never_claims(db, rules, monkeypatch):
    claims = []
    monkeypatch.setattr(HotSeat, "claim", lambda self, seat: claims.append(seat))
    game = Game.new(db, rules, ["A", "B", "C"], seed=0, auto_pass=False)
    count, _ = play_scripted(Budgeted(game), random.Random(0), max_turns=6)
    assert claims == [] and count.shared > 0


def test_play_scripted_plays_at_most_sixty_turns_by_default(db, rules):
    game = Game.new(db, rules, [f"P{i}" for i in range(7)], seed=0, auto_pass=False)

    def passer(rnd, acts):
        return next((a for a in acts if isinstance(a, Pass)), acts[0])

    count, turns = play_scripted(Budgeted(game, 200_000), random.Random(0), choose=passer)
    assert game.outcome() is None  # this game lasts 68 turns
    assert (turns, game.ctx.s.turn) == (61, 61)
