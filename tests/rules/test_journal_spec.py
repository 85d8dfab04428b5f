"""The autosave journal (rules/journal.py), specified line by line: what the header and every entry
line hold, the exact messages a damaged or foreign file gets, what the "resume?" summary reads, and
how the writer keeps the file in step with the game (cut back on undo, restarted afresh after
``forget`` or a failure, one fsync per batch, failures reported with their reason).

The writer works on a thread; the tests stay deterministic by waiting with ``flush``/``close`` and,
where the order of work matters, by holding the worker inside its fsync (a gate the test opens).
"""

from __future__ import annotations

import errno
import json
import logging
import os
import random
import re
import threading
import time as real_time

import pytest

import fate_royal
import fate_royal.rules.journal as journal
from fate_royal.rules.game import Game
from fate_royal.rules.journal import (
    JournalWriter,
    entry_line,
    header,
    journal_summary,
    read_journal,
)
from fate_royal.rules.save import SaveError

HEADER_KEYS = {"format", "version", "app_version", "started", "cards_fingerprint", "rules_fingerprint",
               "rules_title", "names", "record"}


@pytest.fixture
def game(db, rules):
    return Game.new(db, rules, ["A", "B", "C", "D"], seed=11, auto_pass=False)


def _play(game, n, seed=1):
    r = random.Random(seed)
    for _ in range(n):
        if game.ctx.s.over:
            break
        game.apply(r.choice(game.legal_actions()))


def _lines(path):
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def _actions(path):
    return [e.to_dict() for e in read_journal(path).record.actions]


def _wants(game):
    return [e.to_dict() for e in game.entries]


def _write(path, head, *entries, tail=""):
    text = "".join(json.dumps(x) + "\n" for x in (head, *entries)) + tail
    path.write_text(text, encoding="utf-8")
    return path


def _head(**changes):
    head = {"format": "fate_royal-journal", "version": 1, "names": ["A", "B"], "record": {},
            "rules_title": "house", "cards_fingerprint": "fp"}
    head.update(changes)
    return {k: v for k, v in head.items() if v is not _DROP}


_DROP = object()


def _refusal(path):
    with pytest.raises(SaveError) as err:
        read_journal(path)
    return str(err.value)


class Disk:
    """os.fsync, counting (and, when the gate is closed, holding) the syncs of the journal file
    itself: the fsyncs atomic_write makes of its temporary file and folder are not counted."""

    def __init__(self, monkeypatch, path):
        self.path = path
        self.syncs = 0
        self.entered = threading.Event()
        self.gate = threading.Event()
        self.gate.set()
        self._real = os.fsync
        monkeypatch.setattr(os, "fsync", self._fsync)

    def _fsync(self, fd):
        try:
            mine = os.path.samestat(os.fstat(fd), os.stat(self.path))
        except OSError:
            mine = False
        if mine:
            self.syncs += 1
            self.entered.set()
            assert self.gate.wait(10)
        return self._real(fd)

    def hold(self):
        self.entered.clear()
        self.gate.clear()

    def wait_held(self):
        assert self.entered.wait(10)


class FakeTime:
    """The journal's clock: ``sleep`` advances it instead of waiting."""

    def __init__(self, at_deadline=None):
        self.now = 0.0
        self.sleeps = []
        self.at_deadline = at_deadline  # (seconds, callback): called once the clock passes it
        self.strftime = real_time.strftime

    def monotonic(self):
        if self.at_deadline and self.now > self.at_deadline[0]:
            self.at_deadline[1]()
        return self.now

    def sleep(self, dt):
        self.sleeps.append(dt)
        self.now += dt


# ---------------------------------------------------------------------------------- the header


def test_the_header_holds_the_save_fields_and_the_record_without_its_actions(game, db, rules):
    _play(game, 6)
    head = header(game)
    assert set(head) == HEADER_KEYS
    assert head["format"] == "fate_royal-journal" and head["version"] == 1
    assert head["app_version"] == fate_royal.__version__
    assert head["cards_fingerprint"] == db.fingerprint
    assert head["rules_fingerprint"] == rules.fingerprint
    assert head["names"] == ["A", "B", "C", "D"]
    want = game.record.to_dict()
    want["actions"] = []
    assert head["record"] == want


def test_the_header_says_when_the_game_started_as_date_and_time(game):
    started = header(game)["started"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}", started)
    real_time.strptime(started, "%Y-%m-%d %H:%M:%S")


def test_the_header_names_the_rules_by_title_or_else_by_name(db, rules):
    assert rules.title == "" and rules.name == "house"
    untitled = Game.new(db, rules, ["A", "B"], seed=1, auto_pass=False)
    assert header(untitled)["rules_title"] == "house"
    titled = Game.new(db, rules.with_(title="ハウスルール"), ["A", "B"], seed=1, auto_pass=False)
    assert header(titled)["rules_title"] == "ハウスルール"


def test_an_entry_line_holds_number_turn_over_flag_and_entry(game):
    _play(game, 2)
    e = game.entries[1]
    assert entry_line(1, e, 3, 1) == {"n": 1, "turn": 3, "over": True, "entry": e.to_dict()}
    assert entry_line(0, e, 7, 0) == {"n": 0, "turn": 7, "over": False, "entry": e.to_dict()}


# ---------------------------------------------------------------------------------- reading: refusals


def test_an_empty_journal_is_refused_as_empty(tmp_path):
    path = tmp_path / "autosave.jsonl"
    path.write_text("\n  \n", encoding="utf-8")
    assert _refusal(path) == f"{path}: the file is empty"


def test_a_journal_that_is_not_utf8_is_refused_as_not_an_autosave(tmp_path):
    path = tmp_path / "autosave.jsonl"
    path.write_bytes(b'{"format": 1}\n\xff\xfe\n')
    assert _refusal(path) == f"{path}:2: not a fate_royal autosave (not UTF-8 text)"


def test_an_unreadable_first_line_is_refused_naming_its_line_number(tmp_path):
    path = tmp_path / "autosave.jsonl"
    path.write_text('\n\n{"format": "fate_royal-jour\n', encoding="utf-8")
    assert _refusal(path) == f"{path}:3: damaged autosave: its first line is not readable"


@pytest.mark.parametrize("first", ['[1, 2]', '{"format": "fate_royal-save", "version": 1}'])
def test_a_file_of_another_format_is_refused_as_not_an_autosave(tmp_path, first):
    path = tmp_path / "autosave.jsonl"
    path.write_text(first + "\n", encoding="utf-8")
    assert _refusal(path) == (f"{path}:1: not a fate_royal autosave "
                              "(no 'format: fate_royal-journal' field)")


@pytest.mark.parametrize("version, shown", [(2, "2"), ("1", "'1'"), (_DROP, "None")])
def test_an_unknown_format_version_is_refused_showing_the_version(tmp_path, version, shown):
    path = _write(tmp_path / "autosave.jsonl", _head(version=version))
    assert _refusal(path) == f"{path}:1: autosave format {shown} is not known to this version"


@pytest.mark.parametrize("change", [{"record": _DROP}, {"names": _DROP}, {"record": []},
                                    {"names": "A, B"}])
def test_a_header_without_record_or_names_is_refused_as_damaged(tmp_path, change):
    path = _write(tmp_path / "autosave.jsonl", _head(**change))
    assert _refusal(path) == f"{path}:1: damaged autosave: 'record' or 'names' is missing"
    with pytest.raises(SaveError):
        journal_summary(path)


def test_an_unreadable_line_in_the_middle_is_refused_naming_it(tmp_path):
    path = tmp_path / "autosave.jsonl"
    path.write_text(json.dumps(_head()) + '\n{"n": 0, "entry\n\n{"n": 1, "entry": {}}\n',
                    encoding="utf-8")
    assert _refusal(path) == f"{path}:2: damaged autosave: a line is not readable"


@pytest.mark.parametrize("line", [{"n": 1, "entry": {}}, {"n": 0}, {"n": 0, "entry": []}, [0]])
def test_an_entry_out_of_order_or_without_entry_is_refused_naming_the_expected_number(tmp_path, line):
    path = _write(tmp_path / "autosave.jsonl", _head(), line)
    assert _refusal(path) == f"{path}:2: damaged autosave: expected entry 0 here"


def test_a_cut_off_last_line_is_ignored_and_logged_with_its_line(tmp_path, caplog):
    path = _write(tmp_path / "autosave.jsonl", _head(), {"n": 0, "turn": 4, "entry": {}},
                  tail='{"n": 1, "turn": 5, "ent')
    with caplog.at_level(logging.INFO, logger="fate_royal.rules.journal"):
        summary = journal_summary(path)
    assert summary.entries == 1 and summary.turn == 4
    assert [(r.name, r.levelno, r.getMessage()) for r in caplog.records] == [
        ("fate_royal.rules.journal", logging.INFO, f"{path}:3: a cut-off last line is ignored")]


def test_a_journal_without_the_cards_fingerprint_is_refused_as_damaged(tmp_path, game):
    head = header(game)
    del head["cards_fingerprint"]
    path = _write(tmp_path / "autosave.jsonl", head)
    assert _refusal(path) == f"{path}:1: damaged autosave: 'cards_fingerprint' is missing"


def test_an_entry_the_record_cannot_hold_is_refused_with_the_records_reason(tmp_path, game):
    path = _write(tmp_path / "autosave.jsonl", header(game), {"n": 0, "entry": {"kind": "fly"}})
    assert _refusal(path) == f"{path}: damaged autosave: action 1: unknown action kind 'fly'"


# ---------------------------------------------------------------------------------- reading back


def test_read_journal_gives_a_save_with_the_entries_as_the_record_and_no_digest(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    _play(game, 9)
    w = JournalWriter(path)
    w.update(game)
    assert w.close() is True
    info = read_journal(path)
    assert info.path == str(path)
    assert info.cards_changed is False
    assert info.data["record"]["actions"] == _wants(game)
    assert info.data["record"] == game.record.to_dict()
    assert info.data["state_digest"] == ""
    assert info.data["names"] == ["A", "B", "C", "D"]
    assert info.record.to_dict() == game.record.to_dict()


def test_the_summary_reports_the_last_entrys_turn_and_state(tmp_path):
    path = _write(tmp_path / "autosave.jsonl", _head(names=["太郎", 7], rules_title="ハウス"),
                  {"n": 0, "turn": 1, "over": False, "entry": {}},
                  {"n": 1, "turn": 2, "over": False, "entry": {}},
                  {"n": 2, "turn": 5, "over": False, "entry": {}},
                  {"n": 3, "turn": 6, "over": True, "entry": {}})
    s = journal_summary(path)
    assert s.path == str(path)
    assert s.names == ["太郎", "7"]
    assert (s.turn, s.over, s.entries) == (6, True, 4)
    assert s.rules_title == "ハウス"
    assert s.saved_at == os.stat(path).st_mtime


def test_the_summary_of_a_journal_without_entries_is_turn_one_not_over(tmp_path):
    path = _write(tmp_path / "autosave.jsonl", _head())
    s = journal_summary(path)
    assert (s.turn, s.over, s.entries) == (1, False, 0)


@pytest.mark.parametrize("turn", [_DROP, "7", None, 2.5])
def test_the_summary_counts_a_missing_or_odd_turn_as_turn_one(tmp_path, turn):
    last = {"n": 1, "turn": turn, "entry": {}}
    path = _write(tmp_path / "autosave.jsonl", _head(), {"n": 0, "turn": 4, "over": True, "entry": {}},
                  {k: v for k, v in last.items() if v is not _DROP})
    s = journal_summary(path)
    assert (s.turn, s.over, s.entries) == (1, False, 2)


@pytest.mark.parametrize("record, name", [({"rules": {"name": "house"}}, "house"),
                                          ({"rules": {"name": 5}}, ""), ({"rules": "house"}, ""),
                                          ({}, "")])
def test_the_summary_names_the_rule_set_when_the_header_does(tmp_path, record, name):
    path = _write(tmp_path / "autosave.jsonl", _head(record=record))
    assert journal_summary(path).rules_name == name


def test_the_summary_of_a_header_without_rules_title_has_an_empty_title(tmp_path):
    path = _write(tmp_path / "autosave.jsonl", _head(rules_title=_DROP))
    assert journal_summary(path).rules_title == ""


def test_the_summary_of_a_journal_that_vanishes_once_read_has_no_save_time(tmp_path, monkeypatch):
    import fate_royal.rules.save as save

    path = _write(tmp_path / "autosave.jsonl", _head(), {"n": 0, "turn": 3, "entry": {}})
    real = save.read_text

    def read_then_lose(p, *args):
        text = real(p, *args)
        os.unlink(p)  # another copy of the app moved the journal aside right after this read
        return text

    monkeypatch.setattr(save, "read_text", read_then_lose)
    s = journal_summary(path)
    assert s.saved_at == 0.0 and s.turn == 3 and s.entries == 1


# ---------------------------------------------------------------------------------- writing


def test_the_file_is_the_header_then_one_sorted_utf8_line_per_entry(tmp_path, db, rules):
    path = tmp_path / "autosave.jsonl"
    g = Game.new(db, rules, ["太郎", "花子"], seed=11, auto_pass=False)
    _play(g, 3)
    g.set_option("stops", {"0": ["my_combat"]})
    _play(g, 2, seed=5)
    w = JournalWriter(path)
    assert w.update(g) == len(g.entries) == 6
    assert w.close()
    raw = path.read_text(encoding="utf-8").splitlines()
    assert len(raw) == 7
    head = json.loads(raw[0])
    assert raw[0] == json.dumps(head, ensure_ascii=False, sort_keys=True)
    assert "太郎" in raw[0] and list(head) == sorted(HEADER_KEYS)
    assert head["record"]["actions"] == []
    s = g.ctx.s
    for i, text in enumerate(raw[1:]):
        want = entry_line(i, g.entries[i], s.turn, False)
        assert text == json.dumps(want, ensure_ascii=False, sort_keys=True)
    assert "my_combat" in raw[4]
    assert _actions(path) == _wants(g)


def test_every_line_carries_the_turn_when_it_was_written(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    turns = []
    while game.ctx.s.turn < 3:
        _play(game, 5, seed=len(game.entries))
        w.update(game)
        turns.append((len(game.entries), game.ctx.s.turn))
    assert w.close()
    lines = _lines(path)[1:]
    start = 0
    for end, turn in turns:
        assert {line["turn"] for line in lines[start:end]} == {turn}
        start = end
    assert journal_summary(path).turn == game.ctx.s.turn >= 3


def test_only_the_last_line_of_a_finished_game_is_marked_over(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 20)
    w.update(game)
    assert w.flush()
    assert [line["over"] for line in _lines(path)[1:]] == [False] * 20
    assert journal_summary(path).over is False
    _play(game, 1000, seed=2)
    assert game.ctx.s.over
    assert w.update(game) == len(game.entries) - 20 >= 2
    assert w.close()
    flags = [line["over"] for line in _lines(path)[1:]]
    assert flags == [False] * (len(game.entries) - 1) + [True]
    assert journal_summary(path).over is True


def test_update_returns_how_many_new_entries_it_queued(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    assert w.update(game) == 0  # a game with no entry yet: the header alone
    assert w.update(game) == 0
    _play(game, 4)
    assert w.update(game) == 4
    assert w.update(game) == 0
    _play(game, 3, seed=2)
    assert w.update(game) == 3
    assert w.close()
    assert _actions(path) == _wants(game)


def test_an_update_with_nothing_new_writes_and_syncs_nothing(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    w = JournalWriter(path)
    _play(game, 6)
    w.update(game)
    assert w.flush()
    before, syncs = path.read_bytes(), disk.syncs
    assert syncs >= 1
    for _ in range(3):
        assert w.update(game) == 0
        assert w.flush()
    assert disk.syncs == syncs and path.read_bytes() == before
    assert w.close()


def test_each_batch_is_synced_to_disk_unless_sync_is_off(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    w = JournalWriter(path)
    assert w.sync is True
    _play(game, 3)
    w.update(game)
    assert w.flush() and disk.syncs >= 1
    w.close()
    quiet = JournalWriter(tmp_path / "quiet.jsonl", sync=False)
    disk.path, disk.syncs = quiet.path, 0
    quiet.update(game)
    assert quiet.close() and disk.syncs == 0
    assert _actions(quiet.path) == _wants(game)


def test_writes_queued_while_the_disk_is_busy_are_synced_once_together(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    w = JournalWriter(path)
    disk.hold()
    _play(game, 3)
    w.update(game)
    disk.wait_held()  # the worker is inside the sync of its first batch
    for seed in range(4):
        _play(game, 2, seed=seed)
        assert w.update(game) == 2
    disk.gate.set()
    assert w.close()
    assert disk.syncs == 2
    assert _actions(path) == _wants(game)


def test_undo_and_new_branches_cut_the_file_back_to_the_common_part(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    errors = []
    w = JournalWriter(path, on_error=errors.append)
    _play(game, 12)
    w.update(game)
    for cycle, (undos, more) in enumerate([(3, 4), (2, 1), (4, 6), (1, 0), (5, 2)]):
        for _ in range(undos):
            game.undo()
        w.update(game)
        assert w.flush()
        assert _actions(path) == _wants(game), cycle
        _play(game, more, seed=100 + cycle)
        w.update(game)
        assert w.flush()
        assert _actions(path) == _wants(game), cycle
        assert len(_lines(path)) == 1 + len(game.entries)
    assert errors == [] and w.error is None
    assert w.close()


def test_a_branch_taken_without_an_update_between_replaces_the_undone_part(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 8)
    w.update(game)
    old = _wants(game)
    for _ in range(3):
        game.undo()
    _play(game, 5, seed=2)  # longer than what was undone
    assert all(a != b for a, b in zip(_wants(game)[5:8], old[5:8]))
    assert w.update(game) == 5
    assert w.flush()
    assert _actions(path) == _wants(game)
    assert w.close()


def test_a_game_undone_to_its_start_empties_the_journal(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 5)
    w.update(game)
    while game.can_undo():
        game.undo()
    assert game.entries == ()
    assert w.update(game) == 0
    assert w.flush()
    assert _actions(path) == [] and len(_lines(path)) == 1
    _play(game, 4, seed=3)
    w.update(game)
    assert w.close()
    assert _actions(path) == _wants(game)


def test_a_different_start_taken_without_an_update_between_replaces_everything(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 6, seed=1)
    w.update(game)
    old = _wants(game)
    while game.can_undo():
        game.undo()
    _play(game, 4, seed=2)  # shorter than before, and different from the first entry on
    assert _wants(game)[0] != old[0]
    assert w.update(game) == 4
    assert w.close()
    assert _actions(path) == _wants(game)


def test_a_single_written_entry_replaced_by_another_branch(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 1, seed=1)
    w.update(game)
    old = _wants(game)
    game.undo()
    _play(game, 2, seed=2)
    assert _wants(game)[0] != old[0]
    w.update(game)
    assert w.close()
    assert _actions(path) == _wants(game)


def test_after_forget_the_next_update_writes_the_whole_game_afresh(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 5)
    w.update(game)
    assert w.flush()
    w.forget()
    path.write_text("stale\n", encoding="utf-8")
    assert w.update(game) == 5
    assert w.close()
    assert _actions(path) == _wants(game)


def test_missing_folders_are_created_for_the_journal(tmp_path, game):
    path = tmp_path / "a" / "b" / "c" / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 2)
    w.update(game)
    assert w.close()
    assert w.error is None
    assert _actions(path) == _wants(game)


def test_the_writer_works_on_a_daemon_thread_named_for_the_autosave(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    w = JournalWriter(path)
    before = set(threading.enumerate())
    disk.hold()
    _play(game, 2)
    w.update(game)
    disk.wait_held()
    workers = [t for t in set(threading.enumerate()) - before if t.name == "fate_royal-autosave"]
    disk.gate.set()
    closed = w.close()  # before asserting: a worker that is not a daemon would keep pytest alive
    assert len(workers) == 1 and workers[0].daemon is True
    assert closed and not workers[0].is_alive()


# ---------------------------------------------------------------------------------- failures


def test_a_failed_write_reports_its_reason_and_what_was_queued_behind_it(tmp_path, game, monkeypatch,
                                                                            caplog):
    path = tmp_path / "autosave.jsonl"
    blocker = tmp_path / "file"
    blocker.write_text("x")
    bad = blocker / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    errors, oks = [], []
    w = JournalWriter(path, on_error=errors.append, on_ok=lambda: oks.append(1))
    assert w.error is None
    disk.hold()
    _play(game, 6)
    w.update(game)
    disk.wait_held()  # the first batch is written; the worker is syncing it
    w.forget()
    w.update(game)  # a restart: header, then the entries
    game.undo()
    w.update(game)  # a cut back
    w.path = bad  # ... and the restart will fail: its folder is a file
    with caplog.at_level(logging.WARNING, logger="fate_royal.rules.journal"):
        disk.gate.set()
        assert w.flush()
    exists = f"{bad}: {os.strerror(errno.EEXIST)}"
    # the cut-back and the entries queued behind the failed restart keep its reason
    assert errors == [exists]
    assert w.error == exists and oks == []
    assert [r.getMessage() for r in caplog.records] == [f"autosave failed: {m}" for m in errors]
    # the next update after a failure starts the file afresh, and success is reported once
    w.path = path
    _play(game, 2, seed=8)
    assert w.update(game) == len(game.entries)
    assert w.flush()
    assert w.error is None and oks == [1]
    _play(game, 2, seed=9)
    assert w.update(game) == 2
    assert w.close()
    assert oks == [1] and len(errors) == 1
    assert _actions(path) == _wants(game)


def test_a_writer_that_never_failed_never_reports_recovery(tmp_path, game):
    oks = []
    w = JournalWriter(tmp_path / "autosave.jsonl", on_ok=lambda: oks.append(1))
    assert w.error is None
    _play(game, 3)
    w.update(game)
    assert w.flush()
    _play(game, 3, seed=2)
    w.update(game)
    assert w.close()
    assert oks == [] and w.error is None


# ---------------------------------------------------------------------------------- flush and close


def test_close_of_a_writer_that_never_wrote_succeeds(tmp_path):
    w = JournalWriter(tmp_path / "autosave.jsonl")
    assert w.flush() is True
    assert w.close() is True
    assert not (tmp_path / "autosave.jsonl").exists()


def test_close_waits_for_the_queued_writes_and_says_so(tmp_path, game):
    path = tmp_path / "autosave.jsonl"
    w = JournalWriter(path)
    _play(game, 7)
    w.update(game)
    assert w.close() is True
    assert _actions(path) == _wants(game)


def test_flush_gives_up_after_thirty_seconds_by_default_polling_every_few_ms(tmp_path, game,
                                                                           monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    clock = FakeTime()
    monkeypatch.setattr(journal, "time", clock)
    w = JournalWriter(path)
    disk.hold()
    _play(game, 2)
    w.update(game)
    disk.wait_held()
    try:
        assert w.flush() is False
        assert 30.0 < clock.now <= 30.003
        assert set(clock.sleeps) == {0.002}
    finally:
        disk.gate.set()
    monkeypatch.undo()
    assert w.close() is True


def test_flush_waits_until_its_deadline_has_passed(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    clock = FakeTime()
    monkeypatch.setattr(journal, "time", clock)
    w = JournalWriter(path)
    disk.hold()
    _play(game, 2)
    w.update(game)
    disk.wait_held()
    try:
        assert w.flush(0.004) is False
        assert clock.now > 0.004
    finally:
        disk.gate.set()
    monkeypatch.undo()
    assert w.close() is True


def test_close_gives_up_after_thirty_seconds_by_default(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    clock = FakeTime(at_deadline=(30.0, disk.gate.set))  # the disk wakes up as close gives up
    monkeypatch.setattr(journal, "time", clock)
    w = JournalWriter(path)
    disk.hold()
    _play(game, 2)
    w.update(game)
    disk.wait_held()
    try:
        assert w.close() is False
        assert 30.0 < clock.now <= 30.003
    finally:
        disk.gate.set()


def test_close_does_not_wait_forever_for_a_stuck_disk(tmp_path, game, monkeypatch):
    path = tmp_path / "autosave.jsonl"
    disk = Disk(monkeypatch, path)
    w = JournalWriter(path)
    disk.hold()
    _play(game, 2)
    w.update(game)
    disk.wait_held()
    rescue = threading.Timer(5.0, disk.gate.set)  # only so that a broken close cannot hang the suite
    rescue.start()
    try:
        assert w.close(0.05) is False
        assert not disk.gate.is_set()  # close came back while the disk was still stuck
    finally:
        rescue.cancel()
        disk.gate.set()


def test_a_failure_that_is_not_an_os_error_is_reported_with_its_message(tmp_path, db, rules,
                                                                       monkeypatch):
    path = tmp_path / "autosave.jsonl"
    errors = []
    w = JournalWriter(path, on_error=errors.append)
    g = Game.new(db, rules, ["A", "B"], seed=11, auto_pass=False)
    _play(g, 2)
    monkeypatch.setattr(journal, "header", lambda game: {"odd": object()})  # JSON cannot write it
    w.update(g)
    assert w.flush(5)
    # the entries queued behind the failed start do not replace its reason
    assert errors == [f"{path}: Object of type object is not JSON serializable"]
    assert w.error == errors[0]
    assert w.close(5)


def test_a_symlink_planted_at_the_journal_after_it_was_written_is_not_followed(tmp_path, game,
                                                                                 monkeypatch):
    path = tmp_path / "autosave.jsonl"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    real = journal.atomic_write

    def write_then_plant(p, data, **kw):
        done = real(p, data, **kw)
        os.replace(p, tmp_path / "journal.moved")
        os.symlink(victim, p)  # planted by someone else between the write and the open
        return done

    monkeypatch.setattr(journal, "atomic_write", write_then_plant)
    errors = []
    w = JournalWriter(path, on_error=errors.append)
    _play(game, 2)
    w.update(game)
    assert w.close(5)
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert errors[0] == f"{path}: {os.strerror(errno.ELOOP)}"


FAKE_O_BINARY = 0x8000  # Windows' value; on Linux the same bit is O_LARGEFILE, harmless here


@pytest.fixture
def open_flags(tmp_path, monkeypatch):
    """(journal path, list of the flags each open of that path was given), via a spy on os.open
    (the atomic write's temporary file, created with O_CREAT elsewhere, is left out)."""
    path = tmp_path / "autosave.jsonl"
    seen = []
    real_open = os.open

    def spy(p, flags, *args, **kw):
        if str(p) == str(path) and not flags & os.O_CREAT:
            seen.append(flags)
        return real_open(p, flags, *args, **kw)

    monkeypatch.setattr(os, "open", spy)
    return path, seen


@pytest.mark.parametrize("platform", ["posix", "windows"])
def test_the_journal_opens_with_the_flags_the_platform_has(game, monkeypatch, open_flags, platform):
    # POSIX: never follow a link, never leak the descriptor to a child; Windows has neither flag
    # but needs binary mode. Each is taken where the os module has it and left out where not.
    expected = os.O_RDWR
    if platform == "posix":
        monkeypatch.delattr(os, "O_BINARY", raising=False)
        expected |= os.O_NOFOLLOW | os.O_CLOEXEC
    else:
        monkeypatch.delattr(os, "O_NOFOLLOW")
        monkeypatch.delattr(os, "O_CLOEXEC")
        monkeypatch.setattr(os, "O_BINARY", FAKE_O_BINARY, raising=False)
        expected |= FAKE_O_BINARY
    path, seen = open_flags
    errors = []
    w = JournalWriter(path, on_error=errors.append)
    _play(game, 2)
    w.update(game)
    assert w.close(5)
    assert errors == [] and seen == [expected]


def test_the_journal_takes_every_flag_together_where_the_platform_has_them_all(game, monkeypatch,
                                                                               open_flags):
    expected = os.O_RDWR | os.O_NOFOLLOW | os.O_CLOEXEC | FAKE_O_BINARY
    monkeypatch.setattr(os, "O_BINARY", FAKE_O_BINARY, raising=False)
    path, seen = open_flags
    w = JournalWriter(path)
    _play(game, 2)
    w.update(game)
    assert w.close(5)
    assert seen == [expected]
