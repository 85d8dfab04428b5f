"""Saved games: round trip, atomic write, and clear refusals that change nothing."""

import json
import random

import pytest

from fate_royal.rules.game import Game
from fate_royal.rules.save import SaveError, load_game, read_save, save_game
from fate_royal.rules.simulate import choose_action



@pytest.fixture
def game(db, rules):
    g = Game.new(db, rules, ["あかね", "B", "C"], seed=3)
    chooser = random.Random(3)
    for _ in range(60):
        if g.outcome():
            break
        g.apply(choose_action(chooser, g.legal_actions()))
    return g


def test_save_open_round_trip(tmp_path, game, db_loader):
    path = save_game(game, tmp_path / "a.json")
    loaded = load_game(path, db_loader)
    assert loaded.state.to_dict() == game.state.to_dict()
    assert len(loaded.log) == len(game.log)
    rec = json.loads(path.read_text(encoding="utf-8"))
    assert rec["format"] == "fate_royal-save" and rec["version"] == 2
    assert rec["record"]["rules"]["off"] == [] and rec["record"]["seed"] == 3
    assert rec["cards_fingerprint"] == game.db.fingerprint


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path, game):
    path = tmp_path / "a.json"
    save_game(game, path)
    save_game(game, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.json"]


def test_replay_prefix_is_a_read_only_replay(tmp_path, game, db_loader):
    path = save_game(game, tmp_path / "a.json")
    part = load_game(path, db_loader, upto=10)
    assert len(part.history) == 10


@pytest.mark.parametrize("content, words", [
    (b"", "empty"),
    (b"{not json", "damaged save"),
    (b"\xff\xfe\x00garbage", "not UTF-8"),
    (b'{"hello": 1}', "not a fate_royal save"),
    (b'[1, 2, 3]', "not a fate_royal save"),
    (b'{"format": "fate_royal-save", "version": 99}', "newer fate_royal"),
    (b'{"format": "fate_royal-save", "version": 1}', "missing"),
])
def test_damaged_or_foreign_files_are_refused_unchanged(tmp_path, content, words, db_loader):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(SaveError) as err:
        load_game(path, db_loader)
    assert words in str(err.value)
    assert str(path) in str(err.value)
    assert path.read_bytes() == content


def test_broken_json_names_the_line(tmp_path, game):
    path = save_game(game, tmp_path / "a.json")
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[5] = lines[5] + " !!"
    path.write_text("\n".join(lines), encoding="utf-8")
    with pytest.raises(SaveError) as err:
        read_save(path)
    assert err.value.line == 6


def test_tampered_action_is_refused(tmp_path, game, db_loader):
    path = save_game(game, tmp_path / "a.json")
    rec = json.loads(path.read_text(encoding="utf-8"))
    rec["record"]["actions"][3] = {"kind": "raid", "player": 0, "target": 0}
    path.write_text(json.dumps(rec), encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(SaveError) as err:
        load_game(path, db_loader)
    assert "action 4" in str(err.value)
    assert path.read_bytes() == before


def test_changed_cards_are_incompatible_unless_allowed(tmp_path, game, db_loader):
    path = save_game(game, tmp_path / "a.json")
    rec = json.loads(path.read_text(encoding="utf-8"))
    rec["cards_fingerprint"] = "0" * 64
    path.write_text(json.dumps(rec), encoding="utf-8")
    with pytest.raises(SaveError, match="card data changed"):
        load_game(path, db_loader)
    assert load_game(path, db_loader, allow_changed_cards=True).state.to_dict() == game.state.to_dict()


def test_unwritable_folder_is_a_save_error(tmp_path, game):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SaveError):
        save_game(game, blocker / "sub" / "a.json")
