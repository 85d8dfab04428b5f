"""The card-moving operations of the card vocabulary (fate_royal/rules/effects/cards.py):
``steal_random`` (the user takes cards at random from the target player's hand), ``revive`` (D14:
a dropped-out player returns with a new Reverse servant from the cards out of play) and
``discard``. No shipped card steals, and only Tiger Dojo (S-004) revives, with the vocabulary's
default numbers; the positions here are small scenarios with scenario-defined scenes, and what
each operation did is read from the position and from the log lines a player reads."""

from __future__ import annotations

from pathlib import Path

from fate_royal.text.words import Words

from positions import play

SCENES = """\
cards:
  - id: S-950
    kind: scene
    name: スリ
    name_en: Pickpocket (test card)
    provenance: provisional
    effects:
      - name: スリ
        name_en: Pickpocket
        timing: activated
        window: any
        target: {kind: player, side: opponent}
        ops:
          - {op: steal_random}
  - id: S-951
    kind: scene
    name: 大泥棒
    name_en: Master Thief (test card)
    provenance: provisional
    effects:
      - name: 大泥棒
        name_en: Master Thief
        timing: activated
        window: any
        target: {kind: player, side: opponent}
        ops:
          - {op: steal_random, count: 2}
  - id: S-952
    kind: scene
    name: 礼装泥棒
    name_en: Code Thief (test card)
    provenance: provisional
    effects:
      - name: 礼装泥棒
        name_en: Code Thief
        timing: activated
        window: any
        target: {kind: card}
        ops:
          - {op: steal_random}
  - id: S-953
    kind: scene
    name: 再契約
    name_en: New Contract (test card)
    provenance: provisional
    effects:
      - name: 再契約
        name_en: Second Contract
        timing: activated
        window: any
        target: {kind: dropped_player}
        ops:
          - {op: revive, mana: 3, command_spells: 2, hand: 3}
  - id: S-954
    kind: scene
    name: 過剰な契約
    name_en: Lavish Contract (test card)
    provenance: provisional
    effects:
      - name: 過剰な契約
        name_en: Lavish Contract
        timing: activated
        window: any
        target: {kind: dropped_player}
        ops:
          - {op: revive, mana: 9, command_spells: 0, hand: 0}
  - id: S-955
    kind: scene
    name: 相手の手札整理
    name_en: Opponent's Tidy-up (test card)
    provenance: provisional
    effects:
      - name: 相手の手札整理
        name_en: Opponent's Tidy-up
        timing: activated
        window: any
        ops:
          - {op: discard, subject: opponent, count: 1}
"""

STEAL = SCENES + """\
seed: 3
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-950, S-951, S-952, S-955]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
    seat: [M-006]
    hand: [S-001, S-002, M-007]
  - name: C
    servant: {hero: H-012, class: キャスター, state: rise}
    hand: [S-003]
  - name: D
    servant: {hero: H-008, class: キャスター, state: rise}
deck: [S-004, S-004, S-004]
start: {player: A, step: ritual}
steps:
"""


def steps(*lines: str) -> str:
    return "".join(f"  - {line}\n" for line in lines)


def hand_ids(game, seat: int) -> list[str]:
    return sorted(game.state.cards[u] for u in game.state.players[seat].hand)


def lines(game, code: str, start: int = 0) -> list[str]:
    """The English log lines (with their rule ids) of the events ``code`` since ``start``."""
    w = Words.for_game(game, "en")
    return [w.event_line(e) for e in game.log[start:] if e.code == code]


# --- steal_random


def test_a_steal_takes_one_card_at_random_from_the_targets_hand_into_the_users(tmp_path: Path):
    g = play(tmp_path, STEAL + steps("do: {player: A, action: use, card: S-950, targets: [B]}",
                                     "resolve"))
    taken = [c for c in hand_ids(g, 0) if c not in ("S-951", "S-952", "S-955")]
    assert len(taken) == 1 and taken[0] in ("S-001", "S-002", "M-007")
    assert sorted(hand_ids(g, 1) + taken) == ["M-007", "S-001", "S-002"]
    assert hand_ids(g, 2) == ["S-003"]
    assert None not in g.state.players[0].hand
    assert lines(g, "CardStolen") == ["A takes a random card from B's hand  [B11]"]
    stolen = [e for e in g.log if e.code == "CardStolen"]
    assert [(e.args, e.rules) for e in stolen] == [({"player": 0, "victim": 1}, ("B11",))]


def test_a_steal_of_two_takes_two_cards_one_log_line_each(tmp_path: Path):
    g = play(tmp_path, STEAL + steps("do: {player: A, action: use, card: S-951, targets: [B]}",
                                     "resolve"))
    taken = [c for c in hand_ids(g, 0) if c not in ("S-950", "S-952", "S-955")]
    assert len(taken) == 2
    assert sorted(hand_ids(g, 1) + taken) == ["M-007", "S-001", "S-002"]
    assert lines(g, "CardStolen") == ["A takes a random card from B's hand  [B11]"] * 2


def test_a_steal_of_two_from_a_hand_of_one_takes_the_one_card(tmp_path: Path):
    g = play(tmp_path, STEAL + steps("do: {player: A, action: use, card: S-951, targets: [C]}",
                                     "resolve"))
    assert hand_ids(g, 0) == ["S-003", "S-950", "S-952", "S-955"]
    assert hand_ids(g, 2) == []
    assert lines(g, "CardStolen") == ["A takes a random card from C's hand  [B11]"]


def test_a_steal_from_an_empty_hand_takes_nothing_and_logs_no_theft(tmp_path: Path):
    g = play(tmp_path, STEAL + steps("do: {player: A, action: use, card: S-951, targets: [D]}",
                                     "resolve"))
    assert hand_ids(g, 0) == ["S-950", "S-952", "S-955"]
    assert lines(g, "CardStolen") == []
    assert any(e.code == "EffectResolved" for e in g.log)


def test_a_steal_aimed_at_a_seated_card_takes_nothing_a_card_is_no_player(tmp_path: Path):
    g = play(tmp_path, STEAL + steps("do: {player: A, action: use, card: S-952, targets: [M-006]}",
                                     "resolve"))
    assert hand_ids(g, 0) == ["S-950", "S-951", "S-955"]
    assert hand_ids(g, 1) == ["M-007", "S-001", "S-002"]
    assert lines(g, "CardStolen") == []
    assert any(e.code == "EffectResolved" for e in g.log)


def test_a_steal_draws_its_card_from_the_games_seeded_generator(tmp_path: Path):
    """The same position and seed steal the same card; the choice is the game's random draw."""
    script = STEAL + steps("do: {player: A, action: use, card: S-950, targets: [B]}", "resolve")
    first = play(tmp_path, script, "one.yaml")
    again = play(tmp_path, script, "two.yaml")
    assert hand_ids(first, 0) == hand_ids(again, 0)
    assert first.state.rng == again.state.rng


# --- discard


def test_a_discard_by_the_combat_opponent_outside_combat_does_nothing(tmp_path: Path):
    g = play(tmp_path, STEAL + steps("do: {player: A, action: use, card: S-955}", "resolve"))
    assert [len(p.hand) for p in g.state.players] == [3, 3, 1, 0]
    assert g.state.decision is None
    assert g.pending is not None and g.pending.player == 0


# --- revive (D14)

REVIVE = SCENES + """\
seed: 5
players:
  - name: A
    out: true
  - name: B
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-953, S-954]
  - name: C
    servant: {hero: H-015, class: セイバー, state: rise}
    hand: [S-953]
deck: [S-001, S-002, S-003, M-006, M-007]
start: {player: B, step: ritual}
steps:
"""


def test_a_revived_player_returns_with_a_reverse_servant_the_given_mana_spells_and_hand(
        tmp_path: Path):
    """The player in the first seat comes back: a hero and a class from the cards out of play, both
    Reverse, 3 mana, 2 command spells and three cards drawn from the deck."""
    g = play(tmp_path, REVIVE + steps("expect: {step: ritual}"))
    box = list(g.state.box)
    start = g.log_length
    g = play(tmp_path, REVIVE + steps("do: {player: B, action: use, card: S-953, targets: [A]}",
                                      "resolve"))
    s = g.state
    a = s.players[0]
    assert not a.out
    assert g.card_of(a.hero).kind == "hero" and g.card_of(a.klass).kind == "class"
    assert a.hero in box and a.klass in box
    assert a.hero not in s.box and a.klass not in s.box
    assert s.card_states[a.hero] == "reverse" and s.card_states[a.klass] == "reverse"
    assert (a.mana, a.command_spells) == (3, 2)
    assert hand_ids(g, 0) == ["S-001", "S-002", "S-003"]
    assert len(s.deck) == 2
    assert lines(g, "PlayerRevived", start) == ["A returns to the game with a new servant  [D14]"]
    revived = next(e for e in g.log if e.code == "PlayerRevived")
    assert (revived.card, revived.effect, revived.args) == ("S-953", "再契約", {"player": 0})


def test_a_revived_players_mana_stops_at_their_limit(tmp_path: Path):
    g = play(tmp_path, REVIVE + steps("do: {player: B, action: use, card: S-954, targets: [A]}",
                                      "resolve"))
    a = g.state.players[0]
    assert not a.out
    assert (a.mana, a.mana_limit, a.command_spells, a.hand) == (5, 5, 0, [])


def test_a_second_revival_of_a_player_already_back_does_nothing(tmp_path: Path):
    """B revives A and C answers with a revival of A too: C's resolves first and brings A back;
    B's then finds A in the game and does nothing (no second servant, no more cards)."""
    g = play(tmp_path, REVIVE + steps("do: {player: B, action: use, card: S-953, targets: [A]}",
                                      "do: {player: B, action: pass}",
                                      "do: {player: C, action: use, card: S-953, targets: [A]}",
                                      "resolve"))
    s = g.state
    a = s.players[0]
    assert not a.out
    assert len(a.hand) == 3 and len(s.deck) == 2
    assert (a.mana, a.command_spells) == (3, 2)
    revived = [e for e in g.log if e.code == "PlayerRevived"]
    assert [(e.args, e.card) for e in revived] == [({"player": 0}, "S-953")]
    assert sum(1 for e in g.log if e.code == "EffectResolved") == 2


NO_CLASS_LEFT = REVIVE.replace(
    "deck: [S-001",
    "discard: [C-002, C-003, C-004, C-005, C-006, C-007]\ndeck: [S-001")


def test_a_revival_with_no_class_left_out_of_play_does_nothing_and_says_why(tmp_path: Path):
    g = play(tmp_path, NO_CLASS_LEFT + steps("expect: {step: ritual}"))
    assert [g.card_of(u).kind for u in g.state.box if g.card_of(u).kind == "class"] == []
    box = sorted(g.state.box)
    g = play(tmp_path, NO_CLASS_LEFT + steps(
        "do: {player: B, action: use, card: S-953, targets: [A]}", "resolve"))
    a = g.state.players[0]
    assert a.out and a.hero is None and a.hand == []
    assert sorted(g.state.box) == box
    assert lines(g, "EffectFizzled") == [
        "Second Contract of New Contract (test card) does nothing (no servant left to summon)"
        "  [D14]"]
    fizzled = next(e for e in g.log if e.code == "EffectFizzled")
    assert (fizzled.card, fizzled.effect, fizzled.args) == (
        "S-953", "再契約", {"card": "S-953", "why": "no_servant_left"})
    assert Words.for_game(g, "ja").event(fizzled) == \
        "再契約は効果なし（呼び出せるサーヴァントが残っていない）"  # one name: card and effect share it
