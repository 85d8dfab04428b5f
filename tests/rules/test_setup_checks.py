"""The setup checker (fate_royal/rules/setup.py ``setup_problems``): a setup from a save or an
autosave is held to the bounds and vocabulary of a scenario file before the table is built, so that
a hostile file gives one clear sentence naming the player and field — never a hang (a table that
draws ten million mana coins), a Python error text, or a position the rules could never reach."""

from __future__ import annotations

import pytest

from fate_royal.rules.errors import SetupError
from fate_royal.rules.game import Game
from fate_royal.rules.setup import MAX_LIST, MAX_NUMBER, MAX_TURN
from fate_royal.rules.setup import located_problems, setup_problems, shown_value


def three(**player_a) -> dict:
    return {"players": [{"name": "A", **player_a}, {"name": "B"}, {"name": "C"}]}


def problems(**player_a) -> list[str]:
    return setup_problems(three(**player_a))


def test_the_bounds_are_the_scenario_files():
    assert (MAX_NUMBER, MAX_TURN, MAX_LIST) == (99, 10_000, 200)


def test_a_plain_setup_and_every_field_at_its_bounds_has_no_problem():
    assert setup_problems({"players": [{"name": "A"}, {"name": "B"}]}) == []
    assert setup_problems({"players": [{}, {}]}) == []  # unnamed players are P1, P2
    full = {
        "players": [
            {"name": "A", "mana": 0, "mana_limit": 99, "command_spells": 99, "out": False,
             "coins": {"assassination": 99}, "hand": ["M-006"] * 200,
             "servant": {"hero": "H-001", "class": "セイバー", "state": "danger", "class_state": "down"},
             "seat": ["M-006"] * 19 + [{"card": "S-001", "state": "down"}]},
            {"name": "B", "mana": 99, "command_spells": 0, "coins": {"assassination": 0}, "out": True,
             "servant": None, "seat": None, "hand": None},
        ],
        "deck": ["M-006"] * 200, "discard": [], "grail": None, "dice": [1, 6] * 100,
        "start": {"player": 1, "step": "end", "turn": 10_000}, "scenario": False,
        "uid_order": "sequential",
    }
    assert setup_problems(full) == []
    for start in ({"player": 0, "turn": 1}, {"player": "B"}, None, {}):
        assert setup_problems({**full, "start": start}) == []
    assert setup_problems({**full, "uid_order": "shuffled", "scenario": True, "dice": None}) == []


@pytest.mark.parametrize("key", ["mana", "mana_limit", "command_spells"])
@pytest.mark.parametrize("value, message", [
    (100, "{key} 100 is above the maximum 99"),
    (10_000_000, "{key} 10000000 is above the maximum 99"),
    (10 ** 400, "{key} 10000000000000000000… is above the maximum 99"),
    (-1, "{key} -1 is below the minimum 0"),
    ("5", "{key} must be a whole number from 0 to 99, got '5'"),
    (5.0, "{key} must be a whole number from 0 to 99, got 5.0"),
    (True, "{key} must be a whole number from 0 to 99, got True"),
    (None, "{key} must be a whole number from 0 to 99, got None"),
])
def test_mana_its_limit_and_command_spells_are_whole_numbers_from_0_to_99(key, value, message):
    """The table draws one coin per point of mana: ten million hung it; 10**400 overflowed."""
    assert problems(**{key: value}) == ["player 'A': " + message.format(key=key)]
    assert problems(**{key: 99}) == problems(**{key: 0}) == []


@pytest.mark.parametrize("coins, message", [
    ({"bogus": 3}, "unknown coin 'bogus' (coins: assassination)"),
    ({"assassination": -3}, "coins.assassination -3 is below the minimum 0"),
    ({"assassination": -1}, "coins.assassination -1 is below the minimum 0"),
    ({"assassination": 100}, "coins.assassination 100 is above the maximum 99"),
    ({"assassination": "1"}, "coins.assassination must be a whole number from 0 to 99, got '1'"),
    ([1, 2], "coins must be a mapping like {assassination: 1}, got a list"),
    (3, "coins must be a mapping like {assassination: 1}, got 3"),
])
def test_coins_are_known_kinds_counted_from_0_to_99(coins, message):
    assert problems(coins=coins) == ["player 'A': " + message]


def test_every_problem_of_a_player_is_listed_in_order():
    assert problems(mana=-5, mana_limit=-5, coins={"bogus": 1, "assassination": 1000}) == [
        "player 'A': mana -5 is below the minimum 0",
        "player 'A': mana_limit -5 is below the minimum 0",
        "player 'A': unknown coin 'bogus' (coins: assassination)",
        "player 'A': coins.assassination 1000 is above the maximum 99",
    ]


def test_a_servant_s_and_the_seat_s_problems_come_after_the_player_s_earlier_ones():
    """Each part adds to the list (a servant's unknown key, a seat card of the wrong kind or with
    an unknown key used to be able to replace what came before it)."""
    assert problems(mana=-1, servant={"hero": "H-001", "x": 1}) == [
        "player 'A': mana -1 is below the minimum 0",
        "player 'A': unknown key 'x' in a servant (keys: hero, class, state, class_state)",
    ]
    assert problems(seat=[{"card": "M-006", "state": "zzz"}, 5, {"card": "M-007", "y": 1}, 6]) == [
        "player 'A': a seat card is reverse, rise or down, got 'zzz'",
        "player 'A': each seat card must be a card id such as M-006, got 5",
        "player 'A': unknown key 'y' in a seat card (keys: card, state)",
        "player 'A': each seat card must be a card id such as M-006, got 6",
    ]


@pytest.mark.parametrize("spec, message", [
    ({"out": "no"}, "player 'A': out must be true or false, got 'no'"),
    ({"out": 1}, "player 'A': out must be true or false, got 1"),
    ({"wizard": 1}, "player 'A': unknown key 'wizard' in a player (keys: name, servant, seat, hand, "
                    "mana, mana_limit, command_spells, coins, out)"),
    ({"servant": "H-001"}, "player 'A': servant must be a mapping {hero, class, state}, got 'H-001'"),
    ({"servant": ["H-001"]}, "player 'A': servant must be a mapping {hero, class, state}, got a list"),
    ({"servant": {"hero": "H-001", "class": "セイバー", "state": [1]}},
     "player 'A': servant state must be reverse, rise, down or danger, got a list"),
    ({"servant": {"hero": "H-001", "class": "セイバー", "state": "bogus"}},
     "player 'A': servant state must be reverse, rise, down or danger, got 'bogus'"),
    ({"servant": {"hero": "H-001", "class": "セイバー", "class_state": "zzz"}},
     "player 'A': servant class_state must be reverse, rise, down or danger, got 'zzz'"),
    ({"servant": {"hero": 5, "class": "セイバー"}},
     "player 'A': servant hero must be a card id such as M-006, got 5"),
    ({"servant": {"hero": "H-001", "class": " "}},
     "player 'A': servant class must be a card id such as M-006, got ' '"),
    ({"servant": {"hero": "H-001", "klass": "x"}},
     "player 'A': unknown key 'klass' in a servant (did you mean 'class'?)"),
    ({"seat": [5]}, "player 'A': each seat card must be a card id such as M-006, got 5"),
    ({"seat": [{"card": "M-006", "x": 1}]}, "player 'A': unknown key 'x' in a seat card (keys: card, state)"),
    ({"seat": [{"state": "down"}]}, "player 'A': a seat card needs card: (an id such as M-006)"),
    ({"seat": [{"card": 7}]}, "player 'A': a seat card must be a card id such as M-006, got 7"),
    ({"seat": [{"card": "M-006", "state": "bogus"}]},
     "player 'A': a seat card is reverse, rise or down, got 'bogus'"),
    ({"seat": [{"card": "M-006", "state": "danger"}]},
     "player 'A': a seat card is reverse, rise or down, got 'danger'"),
    ({"seat": "M-006"}, "player 'A': seat must be a list of cards (M-006 or {card: M-006, state: down}), "
                        "got 'M-006'"),
    ({"seat": ["M-006"] * 21}, "player 'A': seat holds 21 cards, above the maximum 20"),
    ({"hand": ["M-006"] * 201}, "player 'A': hand holds 201 cards, above the maximum 200"),
    ({"hand": "M-006"}, "player 'A': hand must be a list of card ids such as [M-006, S-001], got 'M-006'"),
    ({"hand": ["M-006", 3]}, "player 'A': each card of hand must be a card id such as M-006, got 3"),
    ({"hand": [""]}, "player 'A': each card of hand must be a card id such as M-006, got ''"),
])
def test_a_players_servant_seat_hand_and_flags_are_checked(spec, message):
    assert problems(**spec) == [message]


def test_every_player_and_die_that_is_wrong_is_listed():
    assert setup_problems({"players": [1, 2, 3]}) == [
        f"player {i}: a player must be a mapping with a name, got {i}" for i in (1, 2, 3)]
    assert setup_problems({**three(), "dice": [99, 0, -1, 3]}) == [
        "a die result 99 is above the maximum 6", "a die result 0 is below the minimum 1",
        "a die result -1 is below the minimum 1"]
    assert problems(seat=[{"x": 1}]) == [
        "player 'A': unknown key 'x' in a seat card (keys: card, state)",
        "player 'A': a seat card needs card: (an id such as M-006)"]


@pytest.mark.parametrize("players, message", [
    ([{"name": "A"}, 2], "player 2: a player must be a mapping with a name, got 2"),
    ([{"name": "A"}, {"name": "B"}, 5], "player 3: a player must be a mapping with a name, got 5"),
    ("ABC", "players must be a list of 2 to 7 players, got 'ABC'"),
    ({"name": "A"}, "players must be a list of 2 to 7 players, got a mapping"),
    ([{"name": "A"}], "a game needs 2 to 7 players, got 1"),
    ([{"name": 5}, {"name": "B"}], "player 1: name must be text, got 5"),
    ([{"name": None}, {"name": "B"}], "player 1: name must be text, got None"),
])
def test_players_must_be_a_list_of_mappings_with_text_names(players, message):
    assert setup_problems({"players": players}) == [message]


def test_a_player_whose_name_is_not_text_is_named_by_seat_in_the_next_messages():
    assert setup_problems({"players": [{"name": 5, "mana": 100}, {"name": "B"}]}) == [
        "player 1: name must be text, got 5", "player 1: mana 100 is above the maximum 99"]


def test_names_are_checked_with_the_setup_each_problem_by_seat():
    """The engine's rule for names (``name_problem``) and that no two read the same, as a
    scenario file's are (at the name's line there); an unnamed player is P1, P2… by place."""
    assert setup_problems({"players": [{"name": "A"}, {"name": "Ａ"}, {"name": " C"}, {}]}) == [
        "player 2: player names 'A' and 'Ａ' read the same: names must differ",
        "player 3: player name ' C' starts or ends with a space"]
    assert setup_problems({"players": [{}, {"name": "P1"}]}) == ["player 2: two players are called 'P1'"]
    assert setup_problems({"players": [{"name": "A", "mana": 5, "mana_limit": 3}, {}]}) == [
        "player 'A': mana 5 is above the mana limit 3"]


def test_a_player_that_is_not_a_mapping_still_holds_a_seat_for_the_start():
    assert setup_problems({"players": [{"name": "A"}, 5, {}], "start": {"player": "Z"}}) == [
        "player 2: a player must be a mapping with a name, got 5",
        "unknown start player 'Z' (players: A, P2, P3)"]
    assert setup_problems({"players": [{"name": "A"}, 5], "start": {"player": 2}}) == [
        "player 2: a player must be a mapping with a name, got 5", "start player 2 is above the maximum 1"]


def test_a_long_name_is_cut_where_a_message_names_its_player():
    name = "x" * 30
    assert setup_problems({"players": [{"name": name, "mana": -1}, {"name": "B"}]}) == [
        f"player 1: player name '{'x' * 20}…' is 30 characters long, above the maximum 16",
        f"player '{'x' * 20}…': mana -1 is below the minimum 0"]


@pytest.mark.parametrize("setup, message", [
    ({"start": "x"}, "start must be a mapping {player, step, turn}, got 'x'"),
    ({"start": {"player": 99}}, "start player 99 is above the maximum 2"),
    ({"start": {"player": 3}}, "start player 3 is above the maximum 2"),
    ({"start": {"player": -1}}, "start player -1 is below the minimum 0"),
    ({"start": {"player": [1]}}, "start player must be a whole number from 0 to 2, got a list"),
    ({"start": {"player": True}}, "start player must be a whole number from 0 to 2, got True"),
    ({"start": {"player": "Z"}}, "unknown start player 'Z' (players: A, B, C)"),
    ({"start": {"turn": -5}}, "start turn -5 is below the minimum 1"),
    ({"start": {"turn": 0}}, "start turn 0 is below the minimum 1"),
    ({"start": {"turn": 10_001}}, "start turn 10001 is above the maximum 10000"),
    ({"start": {"turn": 10 ** 400}}, "start turn 10000000000000000000… is above the maximum 10000"),
    ({"start": {"turn": "1"}}, "start turn must be a whole number from 1 to 10000, got '1'"),
    ({"start": {"step": "lunch"}}, "unknown start step 'lunch' (steps: rise, draw, ritual, encounter, combat, "
                                   "end)"),
    ({"start": {"step": "ritul"}}, "unknown start step 'ritul' (did you mean 'ritual'?)"),
    ({"start": {"step": ["x"]}}, "start step must be one of rise, draw, ritual, encounter, combat, end, "
                                 "got a list"),
    ({"start": {"when": 1}}, "unknown key 'when' in start (keys: player, step, turn)"),
    ({"dice": [99]}, "a die result 99 is above the maximum 6"),
    ({"dice": [0]}, "a die result 0 is below the minimum 1"),
    ({"dice": [7]}, "a die result 7 is above the maximum 6"),
    ({"dice": ["3"]}, "a die result must be a whole number from 1 to 6, got '3'"),
    ({"dice": "123"}, "dice must be a list of die results 1..6, got '123'"),
    ({"dice": [3] * 201}, "dice holds 201 results, above the maximum 200"),
    ({"deck": "M-006"}, "deck must be a list of card ids such as [M-006, S-001], got 'M-006'"),
    ({"discard": ["M-006"] * 201}, "discard holds 201 cards, above the maximum 200"),
    ({"grail": [None]}, "each card of grail must be a card id such as M-006, got None"),
    ({"scenario": "yes"}, "scenario must be true or false, got 'yes'"),
    ({"uid_order": "bogus"}, "unknown uid_order 'bogus' (uid orders: shuffled, sequential)"),
    ({"uid_order": ["shuffled"]}, "unknown uid_order a list (uid orders: shuffled, sequential)"),
    ({"foo": 1}, "unknown key 'foo' in the setup (keys: players, deck, discard, grail, dice, start, "
                 "scenario, uid_order)"),
])
def test_the_setup_around_the_players_is_checked(setup, message):
    assert setup_problems({**three(), **setup}) == [message]


def test_each_problem_has_the_place_of_the_value_it_is_about():
    """A scenario file names the line of that key or item (tests/rules/test_scenario_errors.py)."""
    setup = {
        "players": [{"name": "A", "mana": 100, "seat": [{"card": 5, "state": "up"}], "coins": {"x": 1}},
                    {"name": "B"}],
        "dice": [1, 9], "start": {"player": "Z", "step": "lunch", "turn": 0, "when": 1},
        "scenario": "yes", "uid_order": "bogus", "foo": 1,
    }
    assert [path for path, _ in located_problems(setup)] == [
        ("foo",), ("players", 0, "mana"), ("players", 0, "coins", "x"), ("players", 0, "seat", 0, "card"),
        ("players", 0, "seat", 0, "state"), ("dice", 1), ("start", "when"), ("start", "player"),
        ("start", "step"), ("start", "turn"), ("scenario",), ("uid_order",)]
    assert located_problems({"players": "AB"}) == [
        (("players",), "players must be a list of 2 to 7 players, got 'AB'")]
    assert located_problems({**three(), "start": {"player": 5, "step": ["x"]}}) == [
        (("start", "player"), "start player 5 is above the maximum 2"),
        (("start", "step"), "start step must be one of rise, draw, ritual, encounter, combat, end, got a list")]


def test_a_start_player_by_number_keeps_the_start_s_other_problems():
    assert setup_problems({**three(), "start": {"when": 1, "player": 5}}) == [
        "unknown key 'when' in start (keys: player, step, turn)", "start player 5 is above the maximum 2"]


def test_the_start_is_not_checked_against_players_that_are_not_a_list():
    assert setup_problems({"players": 5, "start": {"player": "A"}}) == [
        "players must be a list of 2 to 7 players, got 5"]


def test_mana_at_the_maximum_is_still_held_to_its_limit():
    assert problems(mana=99, mana_limit=2) == ["player 'A': mana 99 is above the mana limit 2"]


def test_a_setup_that_is_not_a_mapping_is_refused():
    assert setup_problems([1]) == ["the setup must be a mapping, got a list"]
    assert setup_problems(None) == ["the setup must be a mapping, got None"]


def test_unknown_setup_keys_come_before_the_players_problems():
    assert setup_problems({"players": "AB", "foo": 1})[0].startswith("unknown key 'foo'")
    assert setup_problems({"players": [{}], "foo": 1})[1] == "a game needs 2 to 7 players, got 1"


@pytest.mark.parametrize("value, shown", [
    ("A", "'A'"), ("x" * 20, repr("x" * 20)), ("x" * 21, repr("x" * 20 + "…")),
    (12345678901234567890, "12345678901234567890"), (123456789012345678901, "12345678901234567890…"),
    ([1], "a list"), ({"a": 1}, "a mapping"), (None, "None"), (2.5, "2.5"),
])
def test_values_are_quoted_cut_after_20_characters(value, shown):
    assert shown_value(value) == shown


def test_a_number_too_long_to_write_out_is_described():
    assert shown_value(10 ** 5000) == "a number of thousands of digits"


def test_build_refuses_a_setup_with_problems_with_the_first_one(db, rules):
    with pytest.raises(SetupError) as err:
        Game(db, rules, three(mana=10_000_000, command_spells=-1), seed=1)
    assert str(err.value) == "player 'A': mana 10000000 is above the maximum 99"


@pytest.mark.parametrize("card", ["H-001", "C-002"])
def test_a_hero_or_class_card_cannot_lie_in_the_deck(db, rules, card):
    """It would be drawn into a hand. (A scenario may park one in the discard pile: see
    test_card_operations' revival with no class left out of play.)"""
    with pytest.raises(SetupError) as err:
        Game(db, rules, {**three(), "deck": ["M-006", card]}, seed=1)
    assert str(err.value) == f"{card} cannot be in the deck"
    g = Game(db, rules, {**three(), "scenario": True, "discard": [card], "grail": ["S-002"]}, seed=1)
    assert [g.state.cards[u] for u in g.state.discard] == [card]


def test_mystic_codes_and_scenes_may_lie_in_every_pile(db, rules):
    g = Game(db, rules, {**three(), "scenario": True, "deck": ["M-006", "S-001"], "discard": ["M-007"],
                         "grail": ["S-002"], "start": {"step": "ritual"}}, seed=1)
    s = g.state
    assert [[s.cards[u] for u in z] for z in (s.deck, s.discard, s.grail)] == [
        ["M-006", "S-001"], ["M-007"], ["S-002"]]


def test_the_start_player_by_seat_number_is_that_seat(db, rules):
    for seat in (0, 2):
        g = Game(db, rules, {**three(), "start": {"player": seat}}, seed=1)
        assert g.state.turn_player == seat


def test_a_state_given_as_none_is_a_state_not_given(db, rules):
    """The servant's and seat cards' start states (the profile's, rise or reverse by kind)."""
    setup = {"scenario": True, "players": [
        {"name": "A", "servant": {"hero": "H-001", "class": "セイバー", "state": None, "class_state": None},
         "seat": [{"card": "M-006", "state": None}, {"card": "S-001", "state": None}]},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー"}}]}
    assert setup_problems(setup) == []
    g = Game(db, rules, setup, seed=1)
    s = g.state
    a = s.players[0]
    assert (s.card_states[a.hero], s.card_states[a.klass]) == ("reverse", "reverse")
    assert [s.card_states[u] for u in a.seat] == ["rise", "reverse"]
