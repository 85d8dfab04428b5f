"""What each seat's view holds, field by field (``fate_royal.rules.view``): which faces a seat
sees and which it sees only as backs with a handle, for every zone, for the table (``seat=None``)
and with ``reveal``; the counts, combat, pending decision, stack and log it carries; and how a
secret log event is redacted for the other seats."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from fate_royal.rules.events import Event
from fate_royal.rules.game import Game
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.simulate import choose_action
from fate_royal.rules.state import StackItem
from fate_royal.rules.view import (CardView, PendingView, PlayerView, SeatView, StackView,
                                   UNSEEN_IF_SECRET, redact, view)
from positions import play

TABLE = """
title: a table of three
seed: 3
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: reverse}
    hand: [M-006, S-001]
    seat: [{card: M-021, state: rise}, {card: S-002}]
    mana: 4
    mana_limit: 6
    command_spells: 2
    coins: {assassination: 1}
  - name: B
    servant: {hero: H-015, class: アサシン, state: reverse, class_state: rise}
    hand: [S-003]
    seat: [{card: S-004}, {card: M-007, state: reverse}]
  - name: C
    out: true
deck: [S-003, S-001]
discard: [S-004]
grail: [S-002]
start: {player: A, step: ritual}
"""


def back(handle, state=None):
    return CardView(None, None, state, handle)


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = tmp_path_factory.mktemp("view") / "table.yaml"
    path.write_text(TABLE + "steps: []\n", encoding="utf-8")
    return load_scenario(path).build_game()


def uids(game):
    """Instance numbers by place: ``u["A.hero"]``, ``u["B.seat.2"]``, ``u["discard.1"]`` …"""
    s = game.state
    u = {}
    for p in s.players:
        u[f"{p.name}.hero"], u[f"{p.name}.class"] = p.hero, p.klass
        for k, uid in enumerate(p.seat):
            u[f"{p.name}.seat.{k + 1}"] = uid
        for k, uid in enumerate(p.hand):
            u[f"{p.name}.hand.{k + 1}"] = uid
    for zone in ("deck", "discard", "grail"):
        for k, uid in enumerate(getattr(s, zone)):
            u[f"{zone}.{k + 1}"] = uid
    return u


# --------------------------------------------------------------------------- the seats


def seat_c():
    """C dropped out: holds nothing, has no servant, no stats and no seat capacity."""
    return SeatView("C", True, None, None, (), (), 0, 5, 3, {}, None, 0)


def test_a_seat_sees_its_own_hand_face_down_cards_and_reverse_servant(table):
    u = uids(table)
    v = view(table, 0)
    assert v.viewer == 0
    assert v.players[0] == SeatView(
        "A", False,
        CardView(u["A.hero"], "H-001", "reverse"), CardView(u["A.class"], "C-001", "reverse"),
        (CardView(u["A.seat.1"], "M-021", "rise"), CardView(u["A.seat.2"], "S-002", "reverse")),
        (CardView(u["A.hand.1"], "M-006"), CardView(u["A.hand.2"], "S-001")),
        4, 6, 2, {"assassination": 1}, {"pa": 8, "pd": 6, "ma": 3, "md": 4}, 3)
    assert v.players[0].stats == table.fighter_stats(0)
    assert v.players[0].capacity == table.seat_capacity(0) == 3  # D7 two, E1.8 one more
    assert v.seat(0) is v.players[0] and v.players[0].hand_count == 2


def test_another_seats_reverse_servant_face_down_scene_and_hand_are_backs(table):
    u = uids(table)
    v = view(table, 0)
    assert v.players[1] == SeatView(
        "B", False,
        back("B.hero", "reverse"),  # a Reverse servant nobody has seen: its state only
        CardView(u["B.class"], "C-003", "rise"),  # a class card face up is everyone's to see
        (back("B.seat.1", "reverse"),  # a face-down scene
         CardView(u["B.seat.2"], "M-007", "reverse")),  # a Reverse mystic code shows its face
        (back("B.hand.1"),),
        5, 5, 3, {}, None, 4)  # no stats for a servant whose face A does not know
    assert v.players[2] == seat_c()


def test_the_other_seat_sees_the_mirror_image(table):
    u = uids(table)
    v = view(table, 1)
    assert v.viewer == 1
    assert v.players[0] == SeatView(
        "A", False, back("A.hero", "reverse"), back("A.class", "reverse"),
        (CardView(u["A.seat.1"], "M-021", "rise"), back("A.seat.2", "reverse")),
        (back("A.hand.1"), back("A.hand.2")),
        4, 6, 2, {"assassination": 1}, None, 3)
    assert v.players[1] == SeatView(
        "B", False,
        CardView(u["B.hero"], "H-015", "reverse"), CardView(u["B.class"], "C-003", "rise"),
        (CardView(u["B.seat.1"], "S-004", "reverse"), CardView(u["B.seat.2"], "M-007", "reverse")),
        (CardView(u["B.hand.1"], "S-003"),),
        5, 5, 3, {}, table.fighter_stats(1), 4)
    assert v.players[1].stats == {"pa": 7, "pd": 3, "ma": 2, "md": 2}
    assert v.players[2] == seat_c()


def test_the_table_sees_only_what_is_face_up(table):
    u = uids(table)
    v = view(table, None)
    assert v.viewer is None
    assert v.players == (
        SeatView("A", False, back("A.hero", "reverse"), back("A.class", "reverse"),
                 (CardView(u["A.seat.1"], "M-021", "rise"), back("A.seat.2", "reverse")),
                 (back("A.hand.1"), back("A.hand.2")), 4, 6, 2, {"assassination": 1}, None, 3),
        SeatView("B", False, back("B.hero", "reverse"), CardView(u["B.class"], "C-003", "rise"),
                 (back("B.seat.1", "reverse"), CardView(u["B.seat.2"], "M-007", "reverse")),
                 (back("B.hand.1"),), 5, 5, 3, {}, None, 4),
        seat_c())
    assert v.pending == PendingView(0, "priority", "step", ())
    assert v.legal == ()


def test_reveal_shows_every_face_to_any_viewer(table):
    u = uids(table)
    for seat in (None, 0, 1):
        v = view(table, seat, reveal=True)
        a, b = v.players[0], v.players[1]
        assert a.hero == CardView(u["A.hero"], "H-001", "reverse")
        assert a.klass == CardView(u["A.class"], "C-001", "reverse")
        assert a.seat[1] == CardView(u["A.seat.2"], "S-002", "reverse")
        assert a.hand == (CardView(u["A.hand.1"], "M-006"), CardView(u["A.hand.2"], "S-001"))
        assert b.hero == CardView(u["B.hero"], "H-015", "reverse")
        assert b.seat[0] == CardView(u["B.seat.1"], "S-004", "reverse")
        assert b.hand == (CardView(u["B.hand.1"], "S-003"),)
        assert (a.stats, b.stats) == (table.fighter_stats(0), table.fighter_stats(1))
        assert v.log == table.log  # every event as it is, secrets included
        assert v.viewer == seat


def test_the_common_zones_deck_discard_grail(table):
    u = uids(table)
    for seat in (None, 0, 1):
        v = view(table, seat)
        assert v.deck == (back("deck.1"), back("deck.2"))  # backs only, even the top card
        assert v.discard == (CardView(u["discard.1"], "S-004"),)
        assert v.grail == (CardView(u["grail.1"], "S-002"),)
        assert v.removed == ()
        assert v.stack == ()
        assert v.combat is None


def test_the_view_carries_the_turn_the_rules_and_the_options(table):
    s = table.state
    v = view(table, 0)
    assert (v.turn, v.turn_player, v.active_master, v.step) == (1, 0, 0, "ritual")
    assert (v.over, v.winner, v.padded) == (False, None, 0)
    assert v.rules is table.rules
    assert v.options == dict(table.options) == {"auto_pass": True}
    assert v.pool == dict(Counter(s.cards.values()))
    assert v.pool["S-003"] == 2 and v.pool["H-001"] == 1 and sum(v.pool.values()) == len(s.cards)
    assert v.seed_commit == table.log[0].args["seed_commit"] and len(v.seed_commit) == 16


def test_the_deciding_seat_alone_gets_its_legal_actions(table):
    v = view(table, 0)
    assert v.pending == PendingView(0, "priority", "step", ())  # a window has no options
    assert v.legal == tuple(table.legal_actions()) and len(v.legal) == 5
    assert view(table, 1).legal == () and view(table, 1).pending == v.pending


# --------------------------------------------------------------------------- known and unseen


def test_known_cards_are_the_faces_the_seat_sees_in_zone_order(table):
    u = uids(table)
    v = view(table, 0)
    assert v.known_cards() == [
        CardView(u["discard.1"], "S-004"), CardView(u["grail.1"], "S-002"),
        CardView(u["A.hero"], "H-001", "reverse"), CardView(u["A.class"], "C-001", "reverse"),
        CardView(u["A.seat.1"], "M-021", "rise"), CardView(u["A.seat.2"], "S-002", "reverse"),
        CardView(u["A.hand.1"], "M-006"), CardView(u["A.hand.2"], "S-001"),
        CardView(u["B.class"], "C-003", "rise"), CardView(u["B.seat.2"], "M-007", "reverse")]
    t = view(table, None)
    assert [c.card_id for c in t.known_cards()] == ["S-004", "S-002", "M-021", "C-003", "M-007"]


def test_unseen_is_the_pool_less_the_known_cards(table):
    v = view(table, 0)
    pool = Counter(v.pool)
    unseen = v.unseen()
    assert unseen == pool - Counter(c.card_id for c in v.known_cards())
    # two copies of each scene: A knows both S-002 (its seat, the grail), one S-004 (the discard;
    # B's face-down one is hidden), one S-001 (its hand; the other is in the deck)
    assert unseen["S-002"] == 0 and unseen["S-004"] == 1 and unseen["S-001"] == 1
    assert unseen["S-003"] == 2 and unseen["H-015"] == 1 and unseen["H-001"] == 0
    assert all(n > 0 for n in unseen.values())
    assert sum(unseen.values()) == sum(pool.values()) - 10
    t = view(table, None)
    assert t.unseen()["H-001"] == 1 and t.unseen()["S-002"] == 1 and t.unseen()["S-004"] == 1


# --------------------------------------------------------------------------- servants seen before


def test_a_servant_once_revealed_stays_known_when_it_turns_reverse_again(table):
    state = table.state.clone()  # the game's own copy stays as it is
    b = state.players[1]
    state.revealed.append(b.hero)  # B's servant was seen face up earlier
    state.card_states[b.klass] = "reverse"  # and the class is face down, never seen
    v = view(table.fork(state), 0)
    assert v.players[1].hero == CardView(b.hero, "H-015", "reverse")
    assert v.players[1].klass == back("B.class", "reverse")
    assert v.players[1].stats is not None and set(v.players[1].stats) == {"pa", "pd", "ma", "md"}


def test_a_face_up_servant_is_known_to_everyone_even_if_not_recorded_as_revealed(table):
    state = table.state.clone()  # the game's own copy stays as it is
    b = state.players[1]
    state.card_states[b.hero] = "rise"
    assert b.hero not in state.revealed
    v = view(table.fork(state), None)
    assert v.players[1].hero == CardView(b.hero, "H-015", "rise")


# --------------------------------------------------------------------------- the log


def test_a_secret_event_that_names_the_card_by_existing_is_hidden_from_the_others(table):
    lost = [e for e in table.log if e.code == "EffectLost"]
    assert len(lost) == 1 and lost[0].secret == 1 and "EffectLost" in UNSEEN_IF_SECRET
    assert lost[0] in view(table, 1).log  # B's own secret, intact
    for seat in (0, None):
        assert [e.code for e in view(table, seat).log] == [
            "GameStarted", "ActiveMasterChosen", "TurnStarted", "StepStarted"]
    assert view(table, 1).log == table.log


def test_a_face_down_scene_put_on_the_seat_is_logged_without_its_card_for_the_others(tmp_path):
    game = play(tmp_path, TABLE + "steps:\n  - do: {player: A, action: play, card: S-001}\n")
    played = [e for e in game.log if e.code == "CardPlayed"]
    assert len(played) == 1 and played[0].secret == 0 and played[0].args["card"] == "S-001"
    assert played[0] in view(game, 0).log
    e = played[0]
    hidden = Event("CardPlayed", {"player": 0, "card": "", "state": "reverse"}, e.rules, "", "",
                   e.turn, e.step, 0)
    assert hidden in view(game, 1).log and hidden in view(game, None).log
    assert e not in view(game, 1).log


def test_redact_leaves_a_public_event_alone():
    e = Event("CardPlayed", {"player": 0, "card": "M-006", "state": "rise"}, ("D5", "D7"),
              "M-006", "", 2, "ritual", -1)
    for seat in (None, 0, 1):
        assert redact(e, seat) is e


def test_redact_leaves_a_secret_event_to_its_own_seat():
    e = Event("CardPlayed", {"player": 1, "card": "S-004"}, ("E1.8",), "S-004", "", 3, "combat", 1)
    assert redact(e, 1) is e


def test_redact_takes_every_card_out_of_a_secret_event_for_the_others():
    e = Event("StateChangeIgnored",
              {"player": 1, "card": "M-006", "hero": "H-001", "klass": "C-001",
               "negated_card": "S-003", "state": "danger"},
              ("E1.7", "B3"), "M-006", "礼装崩し", 4, "combat", 1)
    want = Event("StateChangeIgnored",
                 {"player": 1, "card": "", "hero": "", "klass": "", "negated_card": "",
                  "state": "danger"},
                 ("E1.7", "B3"), "", "", 4, "combat", 1)
    assert redact(e, 0) == want and redact(e, None) == want and redact(e, 2) == want
    assert redact(e, 0).effect == "" and redact(e, 0).card == ""


def test_redact_drops_a_secret_lost_effect_for_the_others():
    e = Event("EffectLost", {"player": 1, "card": "H-015"}, ("E9.4",), "H-015", "山門の守護", 1,
              "ritual", 1)
    assert redact(e, 0) is None and redact(e, None) is None
    assert redact(e, 1) is e


# --------------------------------------------------------------------------- combat and decisions

COMBAT = """
title: combat view
seed: 1
dice: [6, 6]
players:
  - name: A
    servant: {hero: H-008, class: ライダー, state: rise}
    hand: [S-003, S-003]
  - name: B
    servant: {hero: H-014, class: セイバー, state: rise}
deck: [S-001, S-002, M-006]
start: {player: A, step: combat}
steps:
  - do: {player: A, action: raid, target: B}
  - advance: engagement
  - do: {player: A, action: use, card: H-008, effect: 海魔召喚}
  - do: {player: A, action: discard, card: S-003}
  - resolve
  - advance: raid
  - do: {player: A, action: attack, type: physical}
  - advance: interception
"""


def test_combat_is_shown_to_everyone_with_its_proxies_and_attack_types(tmp_path):
    game = play(tmp_path, COMBAT)
    want = {"raider": 0, "interceptor": 1, "process": "interception", "encounter": False,
            "void": False,
            "order": ["disclosure", "engagement", "raid", "raider_damage", "interception",
                      "interceptor_damage", "retreat"],
            "proxies": {0: "sea_demon"}, "attacks": {0: "physical"}}
    for seat in (None, 0, 1):
        v = view(game, seat)
        assert v.combat == want
        assert v.step == "combat"
        assert v.pending == PendingView(1, "attack", "", ("physical", "magic") if seat == 1
                                        else ())
    v = view(game, 1)
    assert v.legal == tuple(game.legal_actions()) and [a.type for a in v.legal] == [
        "physical", "magic"]
    assert view(game, 0).legal == ()


STACK = """
title: stack view
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003, S-001]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-001, S-002]
start: {player: A, step: ritual}
steps:
  - do: {player: A, action: use, card: S-003}
  - do: {player: A, action: pass}
  - do: {player: B, action: spell, kind: negate, target: 運命の出会い}
"""


def test_the_stack_shows_who_used_which_effect_and_whether_it_is_negated(tmp_path):
    game = play(tmp_path, STACK)
    for seat in (None, 0, 1):
        assert view(game, seat).stack == (StackView(0, "S-003", 1, (), True),)
    state = game.state.clone()
    item = state.stack[0]
    item.negated, item.targets = False, [1]
    state.stack.append(StackItem(1, -1, 0, [0], spell="negate"))  # a command spell: no card
    v = view(game.fork(state), 0)
    assert v.stack == (StackView(0, "S-003", 1, (1,), False), StackView(1, "", 0, (0,), False))


# --------------------------------------------------------------------------- the seed commitment


def test_a_position_without_a_log_or_without_its_start_has_no_seed_commitment(table):
    fork = table.fork()
    assert fork.log == ()
    assert view(fork, 0).seed_commit == ""
    fork.play(fork.legal_actions()[0])
    assert fork.log and "seed_commit" not in fork.log[0].args
    assert view(fork, 0).seed_commit == ""


# --------------------------------------------------------------------------- a finished game


def test_a_finished_game_shows_its_winner_and_no_pending_decision(db, rules):
    game = Game.new(db, rules, ["P1", "P2"], seed=5)
    chooser = random.Random(5)
    while game.outcome() is None:
        game.apply(choose_action(chooser, game.legal_actions()))
    assert game.outcome().winner == 0
    for seat in (None, 0, 1):
        v = view(game, seat)
        assert (v.over, v.winner, v.pending, v.legal) == (True, 0, None, ())
    assert isinstance(v, PlayerView)


def test_a_new_game_pads_the_deck_and_says_by_how_much(db, rules):
    game = Game.new(db, rules, [f"P{i}" for i in range(7)], seed=2)
    v = view(game, None)
    assert v.padded == game.state.padded
    assert len(v.deck) == len(game.state.deck)
    assert [c.handle for c in v.deck[:3]] == ["deck.1", "deck.2", "deck.3"]
