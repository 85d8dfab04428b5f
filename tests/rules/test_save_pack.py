"""A saved game that used personal cards records them; replayed without that pack it says so and
names the missing cards; after the pack is imported into a fresh data folder it replays the same."""

from __future__ import annotations

import json

import pytest

from fate_royal.cards import RuleSet, load_card_db
from fate_royal.cards.pack import empty_pack, export_pack, import_pack, save_pack, with_card
from fate_royal.rules.game import Game
from fate_royal.rules.save import SaveError, load_game, save_game, state_digest

from packhelp import NEW_CODE, play_until_used


def loader(rules, extra):
    return load_card_db(extra=extra or None, rules=rules)


def test_a_save_names_the_personal_cards_it_needs(tmp_path, monkeypatch):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "mine" / "card-pack.yaml"))
    save_pack(with_card(empty_pack(), NEW_CODE))
    rules = RuleSet.house()
    game = Game.new(load_card_db(rules=rules), rules, ["A", "B", "C"], seed=5)
    assert play_until_used(game, "M-002")
    path = save_game(game, tmp_path / "game.json")
    data = json.loads(path.read_text("utf-8"))
    assert data["personal_cards"] == [{"id": "M-002", "name": "試作礼装", "name_en": "Trial Code"}]
    shared = export_pack(tmp_path / "ours.yaml")

    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "fresh" / "card-pack.yaml"))
    with pytest.raises(SaveError) as info:
        load_game(path, loader)
    assert "M-002 試作礼装" in str(info.value) and "card pack" in str(info.value)

    import_pack(shared)
    again = load_game(path, loader)
    assert state_digest(again) == state_digest(game)
    assert again.record.actions == game.record.actions
