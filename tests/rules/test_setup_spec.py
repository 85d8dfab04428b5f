"""Setting up a game (fate_royal/rules/setup.py, D1–D4): what a ``setup`` mapping may say and what
the table looks like once it is built — the refusals a person reads when a setup cannot be played,
the profile's start values, the servants dealt (D2, also chosen one by one when the profile says
so), the first hands (D3) and the first player (D4), and the numbering of card instances."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.cards import RuleSet
from fate_royal.rules.actions import Choose
from fate_royal.rules.errors import SetupError
from fate_royal.rules.game import Game
from fate_royal.rules.scenario import ScenarioError, load_scenario
from fate_royal.text.words import Words


def game(db, rules, setup: dict, seed: int = 1) -> Game:
    return Game(db, rules, setup, seed=seed)


def named(*names: str) -> list[dict]:
    return [{"name": n} for n in names]


def with_profile(profile, **changes) -> RuleSet:
    return RuleSet.house(profile.with_(**changes), name="house")


# --- refusals


@pytest.mark.parametrize("players, message", [
    (named("A"), "a game needs 2 to 7 players, got 1"),
    (named(*"ABCDEFGH"), "a game needs 2 to 7 players, got 8"),
    ([], "a game needs 2 to 7 players, got 0"),
])
def test_a_game_needs_two_to_seven_players(db, rules, players, message):
    with pytest.raises(SetupError) as err:
        game(db, rules, {"players": players})
    assert str(err.value) == message


def test_seven_players_may_play(db, rules):
    g = game(db, rules, {"players": named(*"ABCDEFG")})
    assert [p.name for p in g.state.players] == list("ABCDEFG")


def test_two_players_may_not_share_a_name(db, rules):
    with pytest.raises(SetupError) as err:
        game(db, rules, {"players": named("A", "B", "A")})
    assert str(err.value) == "player 3: two players are called 'A'"


def test_a_player_name_that_is_not_text_is_refused(db, rules):
    # a lone surrogate (a YAML or JSON escape, an undecodable command-line byte) could never be
    # written to a save or the autosave
    with pytest.raises(SetupError) as err:
        game(db, rules, {"players": named("A", "B\udc80")})
    assert str(err.value) == ("player 2: player name 'B\\udc80' is not valid text: it holds half of a UTF-16 "
                              "surrogate pair (an escape such as \\ud800); type the name again")
    assert game(db, rules, {"players": named("A", "B\u00e9\U0001f600")}).ctx.s.players[1].name == "B\u00e9\U0001f600"


@pytest.mark.parametrize("name, message", [
    ("", "a player name is empty"),
    ("   ", "a player name is empty"),
    ("B ", "player name 'B ' starts or ends with a space"),
    ("\u3000B", "player name '\\u3000B' starts or ends with a space"),
    ("B\nC", "player name 'B\\nC' holds a control or invisible character (U+000A)"),
    ("B\u200bC", "player name 'B\\u200bC' holds a control or invisible character (U+200B)"),
    ("B\u2028C", "player name 'B\\u2028C' holds a control or invisible character (U+2028)"),
    ("B\u2029C", "player name 'B\\u2029C' holds a control or invisible character (U+2029)"),
    ("B\ue000C", "player name 'B\\ue000C' holds a control or invisible character (U+E000)"),  # private use
    ("B\u0378C", "player name 'B\\u0378C' holds a control or invisible character (U+0378)"),  # unassigned
    ("ア" * 17, "player name 'アアアアアアアアアアアアアアアアア' is 17 characters long, above the maximum 16"),
    ("ア" * 20, "player name 'アアアアアアアアアアアアアアアアアアアア' is 20 characters long, above the maximum 16"),
    ("ア" * 21, "player name 'アアアアアアアアアアアアアアアアアアアア…' is 21 characters long, above the maximum 16"),
    ("ア" * 200_000, "player name 'アアアアアアアアアアアアアアアアアアアア…' is 200000 characters long, above the "
                     "maximum 16"),
])
def test_a_player_name_the_table_could_not_show_is_refused(db, rules, name, message):
    """The new-game dialog never makes these; a save or scenario from elsewhere may (a name of
    200,000 characters took the table seconds to draw each frame; two names that look alike)."""
    with pytest.raises(SetupError) as err:
        game(db, rules, {"players": named("A", name)})
    assert str(err.value) == "player 2: " + message


def test_names_that_read_the_same_are_refused_and_sixteen_characters_are_taken(db, rules):
    with pytest.raises(SetupError) as err:
        game(db, rules, {"players": named("A", "B", "Ａ")})
    assert str(err.value) == "player 3: player names 'A' and 'Ａ' read the same: names must differ"
    assert game(db, rules, {"players": named("ア" * 16, "a b", "A", "a")}).ctx.s.players[0].name == "ア" * 16


@pytest.mark.parametrize("a, b, same", [
    ("A", "Ａ", True), ("ｱ", "ア", True), ("ｶﾞ", "ガ", True), ("①", "1", True),
    ("A", "a", False), ("ア", "あ", False), ("a b", "ab", False),
])
def test_reading_is_how_a_name_reads_at_the_table(a, b, same):
    from fate_royal.rules.setup import reading

    assert (reading(a) == reading(b)) is same


@pytest.mark.parametrize("spec, message", [
    ({"hand": ["X-999"]}, "unknown card 'X-999'"),
    ({"servant": {"hero": "S-001"}}, "S-001 is not a hero card"),
    ({"seat": ["H-001"]}, "H-001 cannot sit on a servant seat"),
    ({"seat": [{"card": "C-002"}]}, "C-002 cannot sit on a servant seat"),
    ({"hand": ["H-001"]}, "H-001 cannot be in a hand"),
])
def test_a_card_that_does_not_exist_or_cannot_be_where_the_setup_puts_it_is_refused(
        db, rules, spec, message):
    with pytest.raises(SetupError) as err:
        game(db, rules, {"scenario": True, "players": [{"name": "A", **spec}, {"name": "B"}]})
    assert str(err.value) == message


@pytest.mark.parametrize("servant, message", [
    ({"hero": "H-001"}, "A's servant gives a hero but no class: give both, or neither to have one "
                        "dealt"),
    ({"class": "セイバー"}, "A's servant gives a class but no hero: give both, or neither to have "
                        "one dealt"),
])
def test_a_servant_given_by_halves_is_refused_when_servants_are_dealt(db, rules, servant, message):
    """Dealing would put a whole servant over the half given, and the given card would be lost
    (when servants are chosen, the missing half is chosen: see below)."""
    with pytest.raises(SetupError) as err:
        game(db, rules, {"scenario": True,
                         "players": [{"name": "A", "servant": servant}, {"name": "B"}]})
    assert str(err.value) == message


def test_an_unknown_start_step_is_refused_with_the_steps_there_are(db, rules):
    with pytest.raises(SetupError) as err:
        game(db, rules, {"players": named("A", "B"), "start": {"step": "lunch"}})
    assert str(err.value) == \
        "unknown start step 'lunch' (steps: rise, draw, ritual, encounter, combat, end)"


# --- players


def test_players_without_a_name_are_called_p1_p2_by_their_seat(db, rules):
    g = game(db, rules, {"players": [{}, {}, {"name": "Saber"}]})
    assert [p.name for p in g.state.players] == ["P1", "P2", "Saber"]


def test_players_start_with_the_profiles_mana_limit_and_command_spells(db, profile):
    rules = with_profile(profile, start_mana=3, mana_limit=4, start_command_spells=2)
    g = game(db, rules, {"players": named("A", "B")})
    assert [(p.mana, p.mana_limit, p.command_spells) for p in g.state.players] == [(3, 4, 2)] * 2


def test_a_scenario_servant_without_a_state_starts_in_the_profiles_start_state(db, rules, profile):
    """Hero and class alike: the class lies Reverse under a Reverse hero, and is Rise otherwise."""
    setup = {"scenario": True, "players": [
        {"name": "A", "servant": {"hero": "H-001", "class": "セイバー"}},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー", "state": "down"}}]}
    g = game(db, rules, setup)
    s = g.state
    a, b = s.players
    assert (s.card_states[a.hero], s.card_states[a.klass]) == ("reverse", "reverse")
    assert (s.card_states[b.hero], s.card_states[b.klass]) == ("down", "rise")
    g = game(db, with_profile(profile, servant_start_state="rise"), setup)
    a = g.state.players[0]
    assert (g.state.card_states[a.hero], g.state.card_states[a.klass]) == ("rise", "rise")


def test_a_seated_mystic_code_starts_rise_and_a_seated_scene_reverse_unless_told(db, rules):
    g = game(db, rules, {"scenario": True, "players": [
        {"name": "A", "servant": {"hero": "H-001", "class": "セイバー"},
         "seat": ["M-006", "S-001", {"card": "M-007", "state": "down"}]},
        {"name": "B", "servant": {"hero": "H-015", "class": "セイバー"}}]})
    s = g.state
    assert [(s.cards[u], s.card_states[u]) for u in s.players[0].seat] == [
        ("M-006", "rise"), ("S-001", "reverse"), ("M-007", "down")]


def _scenario(tmp_path: Path, text: str):
    path = tmp_path / "setup.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


def test_a_scenario_whose_dropped_out_player_holds_mana_is_an_impossible_start(tmp_path: Path):
    """A dropped-out player holds nothing (D14): without a number their mana is 0, not the
    profile's 5; given mana, the scenario is refused rather than played."""
    base = """\
title: out
players:
  - name: A
    out: true{mana}
  - name: B
  - name: C
start: {{player: B, step: ritual}}
steps:
  - expect: {{step: ritual}}
"""
    g = _scenario(tmp_path, base.format(mana="")).build_game()
    assert g.state.players[0].mana == 0 and g.state.players[0].out
    with pytest.raises(ScenarioError) as err:
        _scenario(tmp_path, base.format(mana="\n    mana: 2")).build_game()
    assert "impossible start position: A dropped out but still holds something" in str(err.value)


# --- servants, hands, first player


def test_dealt_servants_lie_reverse_hero_and_class(db, rules):
    """D2 with the profile's start state reverse: a class under a Reverse hero lies Reverse."""
    g = game(db, rules, {"players": named("A", "B", "C")})
    s = g.state
    for p in s.players:
        assert g.card_of(p.hero).kind == "hero" and g.card_of(p.klass).kind == "class"
        assert (s.card_states[p.hero], s.card_states[p.klass]) == ("reverse", "reverse")
    assert [e.args for e in g.log if e.code == "ServantDealt"] == [
        {"player": 0}, {"player": 1}, {"player": 2}]


def test_servants_dealt_rise_have_a_rise_class(db, profile):
    g = game(db, with_profile(profile, servant_start_state="rise"), {"players": named("A", "B")})
    s = g.state
    for p in s.players:
        assert (s.card_states[p.hero], s.card_states[p.klass]) == ("rise", "rise")


def test_the_first_hands_are_dealt_without_a_log_line_per_card(db, rules):
    """D3: five cards each from the shuffled deck; the log says the game started, not each draw."""
    g = game(db, rules, {"players": named("A", "B", "C")})
    assert [len(p.hand) for p in g.state.players] == [5, 5, 5]
    assert [e for e in g.log if e.code == "CardDrawn"] == []


def test_the_start_may_name_the_first_player_by_seat_and_the_turn_number(db, rules):
    g = game(db, rules, {"players": named("A", "B", "C"), "start": {"player": 2, "turn": 4}})
    s = g.state
    assert (s.turn_player, s.active_master, s.turn) == (2, 2, 4)
    assert [(e.code, e.args) for e in g.log if e.code == "TurnStarted"] == [
        ("TurnStarted", {"turn": 4, "player": 2})]
    g = game(db, rules, {"players": named("A", "B", "C"), "start": {"player": "B"}})
    assert (g.state.turn_player, g.state.turn) == (1, 1)


# --- choosing servants (servant_assignment: choose)


def test_chosen_servants_are_picked_in_seat_order_skipping_a_dropped_out_player(db, profile):
    """Each player still in the game picks a hero, then a class, hidden from the others; the first
    turn starts when the last one has picked."""
    rules = with_profile(profile, servant_assignment="choose")
    g = game(db, rules, {"players": [{"name": "A", "out": True}, {"name": "B"}, {"name": "C"}],
                         "start": {"player": "C", "turn": 2}})
    s = g.state
    assert s.setup_phase
    assert [e for e in g.log if e.code == "TurnStarted"] == []
    picks = []
    for seat, kind in ((1, "choose_hero"), (1, "choose_class"), (2, "choose_hero"),
                       (2, "choose_class")):
        d = g.state.decision
        assert (d.kind, d.player) == (kind, seat)
        card_kind = "hero" if kind == "choose_hero" else "class"
        assert d.options and all(g.card_of(u).kind == card_kind for u in d.options)
        assert set(d.options) <= set(g.state.box)
        picks.append(d.options[-1])
        g.apply(Choose(player=seat, option=d.options[-1]))
    s = g.state
    assert s.setup_phase is False
    assert s.players[0].hero is None and s.players[0].out
    assert [(p.hero, p.klass) for p in s.players[1:]] == [tuple(picks[:2]), tuple(picks[2:])]
    started = [e for e in g.log if e.code == "TurnStarted"]
    assert [Words.for_game(g, "en").event_line(e) for e in started] == ["Turn 2: C  [D4, D5]"]


@pytest.mark.parametrize("first", ["random", "first_seat"])
@pytest.mark.parametrize("seed", range(6))
def test_a_game_dealt_with_a_dropped_out_player_gives_them_no_hand_and_never_the_first_turn(
        db, profile, first, seed):
    """A player who has dropped out holds nothing (D14): the first hands went to them too, and the
    engine's own invariant check then refused the position (a friend's save with ``out: true``)."""
    rules = with_profile(profile, first_player=first)
    g = game(db, rules, {"players": [{"name": "A", "out": True}, {"name": "B"}, {"name": "C"}]}, seed)
    s = g.state
    assert s.players[0].hand == [] and s.players[0].hero is None
    assert [len(p.hand) for p in s.players[1:]] == [profile.start_hand] * 2
    assert s.turn_player in (1, 2) and s.active_master == s.turn_player
    from fate_royal.rules.invariants import check_state

    assert check_state(s) == []


def test_a_game_where_every_player_has_dropped_out_deals_nothing(db, rules):
    """B8: a position with nobody left (no winner) is set up as it stands."""
    g = game(db, rules, {"players": [{"name": "A", "out": True}, {"name": "B", "out": True}]})
    assert [p.hand for p in g.state.players] == [[], []] and g.state.turn_player in (0, 1)


def test_a_player_given_a_hero_is_offered_the_classes_out_of_play_first(db, profile):
    """The choice open when the game is built names the class cards by their (renumbered) instance
    numbers: every option is a class lying out of play."""
    rules = with_profile(profile, servant_assignment="choose")
    g = game(db, rules, {"players": [{"name": "A", "servant": {"hero": "H-001"}}, {"name": "B"}]})
    d = g.state.decision
    assert (d.kind, d.player) == ("choose_class", 0)
    assert g.card_of(g.state.players[0].hero).id == "H-001"
    assert sorted(g.card_of(u).id for u in d.options) == [f"C-00{i}" for i in range(1, 8)]
    assert set(d.options) <= set(g.state.box)


# --- card instances


def test_sequential_instance_numbers_follow_the_card_data_heroes_classes_then_deck_cards(db, rules):
    """``uid_order: sequential`` (saves of format 1): numbers in the order the instances are made;
    by default they are shuffled from the seed, so that a number says nothing about its card."""
    g = game(db, rules, {"players": named("A", "B"), "uid_order": "sequential"})
    heroes = [c.id for c in db.by_kind("hero")]
    classes = [c.id for c in db.by_kind("class")]
    ids = [g.state.cards[u] for u in sorted(g.state.cards)]
    assert ids[:len(heroes) + len(classes)] == heroes + classes
    g = game(db, rules, {"players": named("A", "B")})
    ids = [g.state.cards[u] for u in sorted(g.state.cards)]
    assert ids[:len(heroes) + len(classes)] != heroes + classes
    assert sorted(ids[:len(heroes)]) != heroes
