"""How a loaded scenario builds its cards and its start position (scenario.py ``load_db`` and
``build_game``), pinned where test_scenario_load_spec.py leaves them open: a scenario's cards are
its own and never the personal pack's, a scenario card that is not a mapping is named as the
scenario's ``cards:``, the cards are loaded with the given data folder's rules profile, and an
impossible start position names every broken invariant at the ``players:`` line, and an empty
``servant:`` is dealt like a missing one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fate_royal.cards.yamlsrc import DataError
from fate_royal.paths import cards_dir
from fate_royal.rules.scenario import ScenarioError, load_scenario

PLAYERS = "players:\n  - name: A\n  - name: B\n"


def load(tmp_path: Path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    return load_scenario(path)


# --- load_db -----------------------------------------------------------------------------------


def test_a_scenario_card_that_is_not_a_mapping_is_reported_as_the_scenario_s_cards(tmp_path):
    s = load(tmp_path, "title: t\ncards: [3]\n" + PLAYERS)
    with pytest.raises(DataError) as info:
        s.load_db()
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.file, e.line, e.message) for e in errors] == [
        (f"{s.path} (cards:)", 0, "cards item 1 must be a mapping, got integer 3")]


def test_a_scenario_never_loads_the_personal_card_pack(tmp_path, monkeypatch):
    from fate_royal.cards import load_card_db
    from fate_royal.cards.pack import empty_pack, save_pack, with_card

    from packhelp import NEW_CODE

    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "mine" / "card-pack.yaml"))
    save_pack(with_card(empty_pack(), NEW_CODE))
    assert NEW_CODE["id"] in load_card_db().cards  # the pack is there for ordinary games
    s = load(tmp_path, "title: t\n" + PLAYERS)
    assert NEW_CODE["id"] not in s.load_db().cards
    assert NEW_CODE["id"] not in s.build_game().db.cards


def test_a_scenario_is_not_stopped_by_a_broken_personal_card_pack(tmp_path, monkeypatch):
    pack = tmp_path / "card-pack.yaml"
    pack.write_text("format: nonsense\n", encoding="utf-8")
    monkeypatch.setenv("FATE_ROYAL_PACK", str(pack))
    s = load(tmp_path, "title: t\n" + PLAYERS)
    assert "S-001" in s.load_db().cards


def _data_folder(tmp_path: Path, profile: str) -> Path:
    root = tmp_path / "data"
    shutil.copytree(cards_dir(), root)
    (root / "profile.yaml").write_text(profile, encoding="utf-8")
    return root


def test_cards_loaded_from_a_data_folder_take_that_folder_s_rules_profile(tmp_path):
    root = _data_folder(tmp_path, "hand_limit: many\n")
    s = load(tmp_path, "title: t\n" + PLAYERS)
    with pytest.raises(DataError) as info:
        s.load_db(root)
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.file, e.line) for e in errors] == [((root / "profile.yaml").as_posix(), 1)]
    assert "hand_limit" in errors[0].message


def test_cards_loaded_from_a_sound_data_folder(tmp_path):
    root = _data_folder(tmp_path, "hand_limit: 8\n")
    s = load(tmp_path, "title: t\n" + PLAYERS)
    assert "S-001" in s.load_db(root).cards


# --- build_game --------------------------------------------------------------------------------


def test_an_impossible_start_position_names_every_broken_invariant_at_the_players_line(tmp_path):
    text = ("title: t\n\nplayers:\n  - name: A\n    out: true\n    mana: 2\n"
            "  - name: B\n    out: true\n    mana: 1\n  - name: C\n"
            "start: {player: C, step: ritual}\n")
    s = load(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        s.build_game()
    err = info.value
    assert (err.file, err.line) == (s.path, 3)
    assert err.message == ("impossible start position: A dropped out but still holds something; "
                           "B dropped out but still holds something")
    assert str(err) == f"{s.path}:3: {err.message}"


@pytest.mark.parametrize("text, line", [
    # a hero the cards do not know: the servant's line, not the players'
    ("title: t\nplayers:\n  - name: A\n    servant: {hero: H-999}\n  - name: B\n", 4),
    # in a seat list, nested a level deeper
    ("title: t\nplayers:\n  - name: A\n  - name: B\n    seat:\n      - {card: M-006}\n      - {card: M-998}\n", 7),
    # in the deck, after the players
    ("title: t\n" + PLAYERS + "deck: [S-001, S-997]\n", 5),
    # a block list: the item's own line, not the list's first
    ("title: t\n" + PLAYERS + "deck:\n  - S-001\n  - S-002\n  - S-997\n", 8),
    # a mapping's second key: its own line, not the mapping's first
    ("title: t\nplayers:\n  - name: A\n    servant:\n      class: セイバー\n      hero: H-999\n  - name: B\n", 6),
])
def test_an_unknown_card_in_the_start_position_is_named_at_its_own_line(tmp_path, text, line):
    s = load(tmp_path, text)
    with pytest.raises(ScenarioError) as info:
        s.build_game()
    assert info.value.line == line and info.value.message.startswith("cannot set up: unknown card")


def test_a_setup_problem_that_names_no_card_stays_at_the_players_line(tmp_path):
    s = load(tmp_path, "title: t\n\nplayers:\n  - name: A\n  - name: B\n    hand: [H-001]\n")
    with pytest.raises(ScenarioError) as info:
        s.build_game()
    assert info.value.line == 3 and "unknown card" not in info.value.message


# --- rules: and profile: -----------------------------------------------------------------------


def test_the_scenario_s_profile_wins_over_the_profile_of_its_rule_set_file(tmp_path):
    (tmp_path / "mine.yaml").write_text(
        "title: mine\nfrom: base\nprofile: {start_mana: 2, hand_limit: 6}\n", encoding="utf-8")
    s = load(tmp_path, PLAYERS + "rules: mine.yaml\nprofile: {start_mana: 3}\n")
    assert (s.rules.name, s.rules.no_errata) == ("mine", True)
    assert (s.rules.profile.start_mana, s.rules.profile.hand_limit) == (3, 6)
    assert s.rules.profile.mana_limit == 5  # the rest as shipped


@pytest.fixture
def data_folder_without_rule_sets(tmp_path, monkeypatch):
    """FATE_ROYAL_DATA pointing at a data folder whose cards/ has a profile but no rulesets/."""
    from fate_royal import paths

    data = tmp_path / "data"
    (data / "cards").mkdir(parents=True)
    (data / "assets").mkdir()
    (data / "cards" / "profile.yaml").write_text("start_mana: 4\nhand_limit: 6\n", encoding="utf-8")
    monkeypatch.setenv("FATE_ROYAL_DATA", str(data))
    paths.data_root.cache_clear()
    yield data
    monkeypatch.undo()
    paths.data_root.cache_clear()


@pytest.mark.parametrize("name, errata", [("house", True), ("base", False)])
def test_a_named_rule_set_the_data_folder_lacks_takes_that_folder_s_profile(
        tmp_path, data_folder_without_rule_sets, name, errata):
    s = load(tmp_path, PLAYERS + f"rules: {name}\nprofile: {{hand_limit: 9}}\n")
    assert (s.rules.name, s.rules.all_errata) == (name, errata)
    assert (s.rules.profile.start_mana, s.rules.profile.hand_limit) == (4, 9)


# --- players -----------------------------------------------------------------------------------


def test_a_player_that_is_not_a_mapping_is_refused_at_its_own_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("title: t\nplayers:\n  - name: A\n  - name: B\n  - 3\n  - [C]\n",
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.file, e.line, e.message) for e in errors] == [
        (str(path), 5, "a player must be a mapping with a name, got 3"),
        (str(path), 6, "a player must be a mapping with a name, got a list")]


@pytest.mark.parametrize("names, line, message", [
    # the engine's rule for a name, at the name's own line (it was the players' line, and only
    # when the position was built)
    (["A", "B", "\"B \""], 5, "player name 'B ' starts or ends with a space"),
    (["A", "\"ア\\u200bイ\""], 4, "player name 'ア\\u200bイ' holds a control or invisible character (U+200B)"),
    (["ア" * 17, "B"], 3, "player name '" + "ア" * 17 + "' is 17 characters long, above the maximum 16"),
    # two names that read the same: the second one's line, naming the first
    (["A", "B", "Ａ"], 5, "player names 'A' and 'Ａ' read the same: names must differ"),
    (["ｱｲ", "B", "アイ", "C"], 5, "player names 'ｱｲ' and 'アイ' read the same: names must differ"),
    (["A", "B", "A"], 5, "two players are called 'A'"),
])
def test_a_name_the_engine_refuses_is_named_at_its_own_line(tmp_path, names, line, message):
    path = tmp_path / "s.yaml"
    path.write_text("title: t\nplayers:\n" + "".join(f"  - name: {n}\n" for n in names),
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.file, e.line, e.message) for e in errors] == [(str(path), line, message)]


def test_a_refused_name_is_reported_at_its_own_line_not_its_player_s(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("title: t\nplayers:\n  - name: A\n  - mana: 3\n    name: Ａ\n"
                    "  - mana: 2\n    name: \"C \"\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.line, e.message) for e in errors] == [
        (5, "player names 'A' and 'Ａ' read the same: names must differ"),
        (7, "player name 'C ' starts or ends with a space")]


def test_names_that_differ_only_in_case_or_inner_spaces_are_taken(tmp_path):
    s = load(tmp_path, "title: t\nplayers:\n  - name: a b\n  - name: A B\n  - name: ab\n")
    assert [p.name for p in s.build_game().ctx.s.players] == ["a b", "A B", "ab"]


def test_an_empty_servant_is_dealt_as_a_missing_one(tmp_path):
    # (it used to stop the loader with a TypeError: `fate-royal run` printed "internal error")
    s = load(tmp_path, "title: t\nplayers:\n  - name: A\n    servant:\n  - name: B\n")
    game = s.build_game()
    a = game.ctx.s.players[0]
    assert a.hero is not None and a.klass is not None
    assert game.ctx.card_of(a.hero).kind == "hero" and game.ctx.card_of(a.klass).kind == "class"
