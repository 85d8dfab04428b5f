"""The autosave journal: the running game written action by action, so that nothing is lost.

A save file rewrites the whole record each time, which at tens of thousands of actions costs about
a second of serialising: too slow to do after every action. The journal is a JSON-lines file that
holds the same information as a save and grows by one short line per entry:

    line 1      {"format": "fate_royal-journal", "version": 1, ..., "record": {... "actions": []}}
    line n + 1  {"n": n, "turn": T, "over": false, "entry": {...}}   (the n-th entry of the record)

Undo shortens the record: the file is truncated back to the end of the last line still true
(the writer remembers where every line ends), so undo costs no more than an action. Writing happens
on a worker thread (``JournalWriter``); the caller only turns new entries into plain data. A line cut
short by a crash or a power cut is ignored when reading (everything before it is kept); a damaged
line in the middle is an error naming the line.

``read_journal(path)`` gives the journal as save data (``SaveInfo``), so it opens like a save;
``journal_summary(path)`` reads only what the "resume this game?" question needs.

No Qt: the table wraps the writer, and tests drive it headless.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from fate_royal import __version__
from fate_royal.fsutil import atomic_write
from fate_royal.rules.game import Game
from fate_royal.rules.record import MAX_ACTIONS, GameRecord

log = logging.getLogger(__name__)

FORMAT = "fate_royal-journal"
VERSION = 1
MAX_JOURNAL_BYTES = 32 * 1024 * 1024  # 40,000 actions take about 5 MB (at most record.MAX_ACTIONS)
#: The highest turn the resume question shows (a journal claiming more is damaged: it shows 1).
MAX_SHOWN_TURN = 999_999


def header(game: Game) -> dict[str, Any]:
    """The journal's first line: the save's fields, with the record's actions left out."""
    rec = game.record.to_dict()
    rec["actions"] = []
    s = game.ctx.s
    return {
        "format": FORMAT,
        "version": VERSION,
        "app_version": __version__,
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "cards_fingerprint": game.db.fingerprint,
        "rules_fingerprint": game.rules.fingerprint,
        "rules_title": game.rules.title or game.rules.name,
        "names": [p.name for p in s.players],
        "record": rec,
    }


def entry_line(n: int, entry: Any, turn: int, over: bool) -> dict[str, Any]:
    return {"n": n, "turn": turn, "over": bool(over), "entry": entry.to_dict()}


@dataclass
class JournalSummary:
    """What the resume question shows, read without replaying the game."""

    path: str
    names: list[str]
    turn: int
    over: bool
    entries: int
    rules_title: str
    saved_at: float  # the file's modification time (seconds since the epoch)
    rules_name: str = ""  # the rule set's name (house, base, …): the table words a shipped one


def _lines(path: Path) -> tuple[str, list[tuple[int, str]]]:
    """(label, [(line number, text)]) of a journal; SaveError if it cannot be read at all."""
    from fate_royal.rules.save import read_text

    label = str(path)
    text = read_text(path, MAX_JOURNAL_BYTES, "autosave")
    return label, [(i + 1, t) for i, t in enumerate(text.split("\n")) if t.strip()]


def _parse(path: str | Path) -> tuple[str, dict[str, Any], list[dict[str, Any]]]:
    """(label, header, entry lines) with a cut-off last line dropped."""
    from fate_royal.rules.save import SaveError, too_long_number

    label, lines = _lines(Path(path))
    if not lines:
        raise SaveError(label, "the file is empty")
    try:
        head = json.loads(lines[0][1])
    except (json.JSONDecodeError, RecursionError):
        raise SaveError(label, "damaged autosave: its first line is not readable", lines[0][0]) from None
    except ValueError:  # a number too long for Python to read (its limit is 4300 digits)
        raise SaveError(label, f"damaged autosave: {too_long_number()}", lines[0][0]) from None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise SaveError(label, "not a fate_royal autosave (no 'format: fate_royal-journal' field)", 1)
    if head.get("version") != VERSION:
        raise SaveError(label, f"autosave format {head.get('version')!r} is not known to this version", 1)
    if not isinstance(head.get("record"), dict) or not isinstance(head.get("names"), list):
        raise SaveError(label, "damaged autosave: 'record' or 'names' is missing", 1)
    entries: list[dict[str, Any]] = []
    body = lines[1:]
    if len(body) > MAX_ACTIONS:  # (refused before each line is read into memory)
        raise SaveError(label, f"damaged autosave: {len(body)} actions, above the maximum {MAX_ACTIONS}",
                        body[MAX_ACTIONS][0])
    for k, (number, text) in enumerate(body):
        try:
            item = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            if k == len(body) - 1:  # cut short by a crash while writing: keep what came before
                log.info("%s:%d: a cut-off last line is ignored", label, number)
                break
            raise SaveError(label, "damaged autosave: a line is not readable", number) from None
        except ValueError:  # a whole line, with a number too long for Python to read
            raise SaveError(label, f"damaged autosave: {too_long_number()}", number) from None
        if not isinstance(item, dict) or item.get("n") != len(entries) or not isinstance(item.get("entry"), dict):
            raise SaveError(label, f"damaged autosave: expected entry {len(entries)} here", number)
        entries.append(item)
    return label, head, entries


def journal_summary(path: str | Path) -> JournalSummary:
    """The players, turn and state of the game in a journal. Raises SaveError if damaged."""
    label, head, entries = _parse(path)
    last = entries[-1] if entries else {}
    turn = last.get("turn", 1)
    try:
        mtime = Path(path).stat().st_mtime
    except OSError:
        mtime = 0.0
    rules = head["record"].get("rules")  # (the record is a mapping: _parse checked)
    name = rules.get("name") if isinstance(rules, dict) else None
    return JournalSummary(label, [str(n) for n in head.get("names", [])],
                          turn if _whole(turn) and 1 <= turn <= MAX_SHOWN_TURN else 1,
                          bool(last.get("over", False)), len(entries),
                          str(head.get("rules_title", "")), mtime,
                          name if isinstance(name, str) else "")


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def read_journal(path: str | Path) -> Any:
    """The journal as a checked save (``save.SaveInfo``), ready for ``save.load_game(info=...)``."""
    from fate_royal.rules.save import SaveError, SaveInfo, record_problem

    label, head, entries = _parse(path)
    data = dict(head)
    record = dict(head["record"])
    record["actions"] = [e["entry"] for e in entries]
    data["record"] = record
    data["state_digest"] = ""  # the journal keeps no digest: the replay itself is the check
    if not isinstance(data.get("cards_fingerprint"), str):
        raise SaveError(label, "damaged autosave: 'cards_fingerprint' is missing", 1)
    problem = record_problem(record)
    if problem:
        raise SaveError(label, f"damaged autosave: {problem}")
    try:
        rec = GameRecord.from_dict(record)
    except (ValueError, TypeError, KeyError) as exc:
        raise SaveError(label, f"damaged autosave: {exc}") from None
    return SaveInfo(label, data, rec, False)


class _NotOpen(OSError):
    """An append or cut-back with no journal open: the write that should have opened it failed."""


class JournalWriter:
    """Keeps a journal file in step with one game at a time, writing on a worker thread.

    ``update(game)`` is cheap (it compares the game's entries with what was written and queues the
    difference); ``flush()`` waits until everything queued is on disk. ``error`` holds the last
    write failure (also passed to ``on_error``, from the worker thread); the next successful write
    clears it (``on_ok``).
    """

    def __init__(self, path: str | Path, *, on_error: Callable[[str], None] | None = None,
                 on_ok: Callable[[], None] | None = None, sync: bool = True) -> None:
        self.path = Path(path)
        self.on_error = on_error
        self.on_ok = on_ok
        self.sync = sync  # fsync after each batch (off in benchmarks of the writing itself)
        self.error: str | None = None
        self._game_ref: Any = None  # a weak reference to the game written
        self._broken = False
        self._written: list[Any] = []  # the entry objects written, in order (identity compared)
        self._queue: queue.Queue = queue.Queue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        # worker-side state
        self._fh: Any = None
        self._ends: list[int] = []  # byte offset after the header (index 0) and after each entry

    # ------------------------------------------------------------------ caller side

    def update(self, game: Game) -> int:
        """Queue what ``game`` has that the file lacks; returns the number of lines queued."""
        entries = game.entries
        s = game.ctx.s
        same_game = self._game_ref is not None and self._game_ref() is game
        if self._broken:
            self._broken = False
            same_game = False
        if not same_game or not self._same_prefix(entries):
            if same_game:  # undo (and maybe other actions since): cut back
                keep = self._common(entries)
                self._written = self._written[:keep]
                self._put(("truncate", keep))
            else:
                self._game_ref = weakref.ref(game)
                self._written = []
                self._put(("start", header(game)))
        new = entries[len(self._written):]
        if new:
            base = len(self._written)
            last = len(entries) - 1
            lines = [entry_line(base + i, e, s.turn, s.over and base + i == last) for i, e in enumerate(new)]
            self._written.extend(new)
            self._put(("append", lines))
        return len(new)

    def forget(self) -> None:
        """The next ``update`` starts the file afresh."""
        self._game_ref = None
        self._written = []

    def _same_prefix(self, entries: tuple) -> bool:
        n = len(self._written)
        return len(entries) >= n and (n == 0 or entries[n - 1] is self._written[n - 1])

    def _common(self, entries: tuple) -> int:
        n = min(len(entries), len(self._written))
        i = 0
        while i < n and entries[i] is self._written[i]:
            i += 1
        return i

    def _put(self, op: tuple) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._work, name="fate_royal-autosave", daemon=True)
                self._thread.start()
        self._queue.put(op)

    def flush(self, timeout: float = 30.0) -> bool:
        """Wait until all queued writes are done; False on timeout."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.002)
        return True

    def close(self, timeout: float = 30.0) -> bool:
        ok = self.flush(timeout)
        self._queue.put(None)
        if self._thread is not None:
            self._thread.join(timeout)
        return ok

    # ------------------------------------------------------------------ worker side

    def _work(self) -> None:
        while True:
            op = self._queue.get()
            try:
                if op is None:
                    self._close_file()
                    return
                self._do(op)
                while True:  # write what else is queued before syncing once
                    try:
                        nxt = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    try:
                        if nxt is None:
                            self._sync()
                            self._close_file()
                            return
                        self._do(nxt)
                    finally:
                        self._queue.task_done()
                self._sync()
                if self.error is not None:
                    self.error = None
                    if self.on_ok:
                        self.on_ok()
            except _NotOpen:  # queued behind the write that failed: that one was reported (its
                pass  # reason stays in ``error``), and the next update rewrites the file
            except Exception as exc:  # a full disk, a folder that vanished: report, keep going
                reason = getattr(exc, "strerror", None) or str(exc)
                self.error = f"{self.path}: {reason}"
                log.warning("autosave failed: %s", self.error)
                self._close_file()
                self._broken = True  # the next update rewrites the file from its start
                if self.on_error:
                    self.on_error(self.error)
            finally:
                self._queue.task_done()

    def _do(self, op: tuple) -> None:
        kind = op[0]
        if kind == "start":
            self._close_file()
            self.path.parent.mkdir(parents=True, exist_ok=True)
            first = json.dumps(op[1], ensure_ascii=False, sort_keys=True) + "\n"
            atomic_write(self.path, first)  # a new game replaces the old journal in one step
            self._open()
            self._ends = [len(first.encode("utf-8"))]
        elif kind == "truncate":
            if self._fh is None:
                raise _NotOpen
            keep = op[1]
            self._fh.truncate(self._ends[keep])
            self._fh.seek(self._ends[keep])
            del self._ends[keep + 1:]
        elif kind == "append":
            if self._fh is None:
                raise _NotOpen
            chunks = [(json.dumps(x, ensure_ascii=False, sort_keys=True) + "\n").encode("utf-8") for x in op[1]]
            self._fh.write(b"".join(chunks))
            pos = self._ends[-1]
            for c in chunks:
                pos += len(c)
                self._ends.append(pos)

    def _open(self) -> None:
        flags = os.O_RDWR | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(self.path, flags)
        self._fh = os.fdopen(fd, "r+b", buffering=0)
        self._fh.seek(0, os.SEEK_END)

    def _sync(self) -> None:
        if self._fh is not None and self.sync:
            os.fsync(self._fh.fileno())

    def _close_file(self) -> None:
        if self._fh is not None:
            try:
                self._fh.close()
            except OSError:
                pass
            self._fh = None
