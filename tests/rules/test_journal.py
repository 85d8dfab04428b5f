"""The autosave journal (rules/journal.py): appended action by action, cut back on undo, read back as
a save; a cut-off last line is forgiven, a damaged middle line is an error naming the line."""

from __future__ import annotations

import json
import random

import pytest

from fate_royal.rules.game import Game
from fate_royal.rules.journal import JournalWriter, journal_summary, read_journal
from fate_royal.rules.save import SaveError, load_game, state_digest


@pytest.fixture
def game(db, rules):
    return Game.new(db, rules, ["A", "B", "C", "D"], seed=11, auto_pass=False)


def _play(game, n, seed=1):
    r = random.Random(seed)
    for _ in range(n):
        if game.ctx.s.over:
            break
        game.apply(r.choice(game.legal_actions()))


def _loader(db):
    return lambda rules, extra: db


def test_the_journal_reads_back_the_same_position(tmp_path, game, db):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    for step in range(6):
        _play(game, 7, seed=step)
        w.update(game)
    assert w.flush()
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(game.entries)
    back = load_game(path, _loader(db), info=read_journal(path))
    assert back.record.to_dict() == game.record.to_dict()
    assert state_digest(back) == state_digest(game)
    s = journal_summary(path)
    assert s.names == ["A", "B", "C", "D"] and s.turn == game.ctx.s.turn and s.entries == len(game.entries)
    w.close()


def test_undo_cuts_the_file_back_and_a_new_branch_replaces_it(tmp_path, game, db):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 20)
    w.update(game)
    for _ in range(5):
        game.undo()
    w.update(game)
    assert w.flush()
    assert len(read_journal(path).record.actions) == len(game.entries)
    _play(game, 9, seed=42)  # a different branch from the undone position
    w.update(game)
    assert w.flush()
    back = load_game(path, _loader(db), info=read_journal(path))
    assert back.record.to_dict() == game.record.to_dict()
    w.close()


def test_a_new_game_starts_a_new_file(tmp_path, game, db, rules):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 10)
    w.update(game)
    other = Game.new(db, rules, ["X", "Y"], seed=3, auto_pass=False)
    _play(other, 4)
    w.update(other)
    assert w.flush()
    assert journal_summary(path).names == ["X", "Y"]
    assert len(read_journal(path).record.actions) == len(other.entries)
    w.close()


def test_a_line_cut_short_by_a_crash_is_forgiven(tmp_path, game, db):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 12)
    w.update(game)
    w.close()
    n = len(game.entries)
    with open(path, "ab") as f:
        f.write(b'{"n": %d, "turn": 2, "entry": {"kind": "pa' % n)  # the power went off here
    info = read_journal(path)
    assert len(info.record.actions) == n
    back = load_game(path, _loader(db), info=info)
    assert state_digest(back) == state_digest(game)


def test_a_damaged_line_in_the_middle_names_its_line(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 12)
    w.update(game)
    w.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[4] = lines[4][:10]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SaveError) as err:
        read_journal(path)
    assert f"{path}:5:" in str(err.value)
    lines[4] = json.dumps({"n": 99, "entry": {}})
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(SaveError, match=":5: damaged autosave: expected entry 3"):
        read_journal(path)


@pytest.mark.parametrize("content", [b"", b"\xff\xfe", b"[1, 2]\n", b'{"format": "fate_royal-save"}\n',
                                     b"{" * 100000 + b"\n"])
def test_anything_else_is_refused_with_a_message(tmp_path, content):
    path = tmp_path / "autosave.jsonl"
    path.write_bytes(content)
    with pytest.raises(SaveError) as err:
        read_journal(path)
    assert str(err.value).startswith(str(path))


def test_a_write_failure_is_reported_and_the_next_success_clears_it(tmp_path, game):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    errors, oks = [], []
    w = JournalWriter(blocker / "autosave.jsonl", on_error=errors.append, on_ok=lambda: oks.append(1))
    _play(game, 3)
    w.update(game)
    assert w.flush()
    assert errors and w.error and "autosave.jsonl" in w.error
    w.path = tmp_path / "ok" / "autosave.jsonl"
    _play(game, 2)
    w.update(game)
    assert w.flush()
    assert w.error is None and oks
    assert len(read_journal(w.path).record.actions) == len(game.entries)
    w.close()
