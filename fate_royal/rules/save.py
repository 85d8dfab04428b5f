"""Saved games: the game record, as versioned JSON, replayed on load.

A save holds the format name and version, the card-data fingerprint, the rule set in force (its
content, not only its name), the game record (setup, options, seed, every action and option
change, scenario-local cards) and a digest of the final position so that a replay that drifts is
caught. Writing is atomic (a temporary file in the same folder, flushed and renamed over the
target), so a crash never leaves half a save. Loading never changes the file; a damaged, foreign or
incompatible file raises ``SaveError`` with a clear message naming the file (and the line, for
broken JSON). Format 1 (errata as one switch) is still read.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from fate_royal import __version__
from fate_royal.fsutil import FileRefused, FileTooLarge, atomic_write, read_bounded
from fate_royal.cards.model import CardDB
from fate_royal.cards.profile import PARAMETERS, RulesProfile, check_value
from fate_royal.cards.ruleset import RuleSet
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.game import Game
from fate_royal.rules.invariants import check_state
from fate_royal.rules.record import GameRecord, check_option
from fate_royal.rules.setup import shown_value

_LONG_NUMBER = re.compile(r"\d{21,}")

FORMAT = "fate_royal-save"
VERSION = 2
#: A save of seven players' random game is 10-21 KB (about 70 bytes an action), so the record's
#: most actions (record.MAX_ACTIONS, 100,000) fit in 7 MB; reading 31 MB of JSON took 242 MB.
MAX_SAVE_BYTES = 8 * 1024 * 1024


class SaveError(RulesError):
    """A save that cannot be written or opened. ``str()`` is ``file[:line]: message``. A number of
    more than 20 digits in ``message`` is cut (a hostile file's 400-digit seat or version).
    ``reason``: the engine's code for an action the replay refused (the table words it), else ""."""

    def __init__(self, file: str, message: str, line: int = 0, *, reason: str = "") -> None:
        message = _LONG_NUMBER.sub(lambda m: m.group()[:20] + "…", message)
        self.file, self.line, self.message, self.reason = str(file), line, message, reason
        where = f"{file}:{line}" if line else str(file)
        super().__init__(f"{where}: {message}")


def state_digest(game: Game) -> str:
    text = json.dumps(game.ctx.s.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def to_record(game: Game) -> dict[str, Any]:
    """The save file's content for a game (plain JSON data)."""
    record = game.record
    return {
        "format": FORMAT,
        "version": VERSION,
        "app_version": __version__,
        "cards_fingerprint": game.db.fingerprint,
        "rules_fingerprint": record.rules.fingerprint,
        "rules_title": record.rules.title or record.rules.name,
        "names": [p.name for p in game.ctx.s.players],
        "turn": game.ctx.s.turn,
        "over": game.ctx.s.over,
        "record": record.to_dict(),
        "state_digest": state_digest(game),
        "personal_cards": personal_cards(game.db),
    }


def personal_cards(db: CardDB) -> list[dict[str, str]]:
    """The cards of a game that come from a personal card pack (id and names), so that a replay
    without that pack can say which cards it misses."""
    return [{"id": c.id, "name": c.name, "name_en": c.name_en}
            for c in sorted(db.cards.values(), key=lambda c: c.id)
            if c.provenance_default == "entered"]


def missing_personal_cards(data: dict[str, Any], db: CardDB) -> list[str]:
    """The personal cards a save used that ``db`` lacks (or has only as shipped cards), as
    "M-002 name"; empty when none is missing."""
    out = []
    saved = data.get("personal_cards")
    for item in saved if isinstance(saved, list) else []:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            continue
        card = db.cards.get(item["id"])
        if card is None or card.provenance_default != "entered":
            out.append(f"{item['id']} {item.get('name') or ''}".strip())
    return out


def save_game(game: Game, path: str | Path) -> Path:
    """Write ``game`` to ``path`` atomically (``fsutil.atomic_write``: a unique temporary file,
    never following links, removed on failure). Raises SaveError if the folder cannot be written."""
    path = Path(path)
    data = json.dumps(to_record(game), ensure_ascii=False, indent=1, sort_keys=True)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(path, data)
    except OSError as exc:
        raise SaveError(str(path), f"cannot write the save: {exc.strerror or exc}") from exc
    return path


def autosave_path() -> Path:
    """Where the table keeps the running game (the journal, ``rules.journal``): the platform's
    user data folder (``~/.local/share/fate_royal/autosave.jsonl`` on Linux, honouring
    ``XDG_DATA_HOME``; ``%LOCALAPPDATA%\\fate_royal`` on Windows)."""
    from fate_royal.paths import user_data_dir

    return user_data_dir() / "autosave.jsonl"


#: ``db_loader(rules, extra_cards) -> CardDB``: the card data to replay a save with.
DbLoader = Callable[[RuleSet, list], CardDB]


@dataclass
class SaveInfo:
    """A checked save file, before replay."""

    path: str
    data: dict[str, Any]
    record: GameRecord
    cards_changed: bool
    text: str = ""  # the file as read (a save's own lines name a refused action's place)

    @property
    def rules(self) -> RuleSet:
        return self.record.rules

    @property
    def names(self) -> list[str]:
        return [str(n) for n in self.data.get("names", [])]


def read_text(path: Path, max_bytes: int, what: str) -> str:
    """The text of a save or autosave file: SaveError naming the file (and the line of a byte
    that is not UTF-8) if it is missing, too large or not text. A byte-order mark is accepted."""
    label = str(path)
    try:  # (a named pipe or a device is refused unread: one in place of the autosave hung the start)
        raw = read_bounded(path, max_bytes)
    except FileTooLarge as exc:
        raise SaveError(label, f"too large to be a fate_royal {what} ({exc.size} bytes)") from None
    except FileRefused as exc:
        raise SaveError(label, f"cannot read: {exc.strerror}") from None
    except OSError as exc:
        raise SaveError(label, f"cannot open: {exc.strerror or exc}") from exc
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SaveError(label, f"not a fate_royal {what} (not UTF-8 text)", line) from None


def read_save(path: str | Path, db: CardDB | None = None) -> SaveInfo:
    """Read and check a save file without replaying it. Never modifies the file."""
    path = Path(path)
    label = str(path)
    text = read_text(path, MAX_SAVE_BYTES, "save")
    if not text.strip():
        raise SaveError(label, "the file is empty")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(label, f"damaged save: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise SaveError(label, "damaged save: nested too deeply") from None
    except ValueError:  # a number too long for Python to read (its limit is 4300 digits)
        raise SaveError(label, f"damaged save: {too_long_number()}", long_number_line(text)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(label, "not a fate_royal save (no 'format: fate_royal-save' field)")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(label, "damaged save: no format version")
    if version > VERSION:
        raise SaveError(label, f"saved by a newer fate_royal (format {shown_value(version)}; this one "
                               f"reads up to {VERSION}); update fate_royal to open it")
    if version < 1:
        raise SaveError(label, f"unknown save format version {shown_value(version)}")
    if version == 1:
        data = _from_version_1(label, data)
    for key, kind in (("record", dict), ("cards_fingerprint", str), ("state_digest", str)):
        if not isinstance(data.get(key), kind):
            raise SaveError(label, f"damaged save: '{key}' is missing or has the wrong type")
    problem = record_problem(data["record"])
    if problem:
        raise SaveError(label, f"damaged save: {problem}", problem_line(text, data["record"], problem))
    try:
        record = GameRecord.from_dict(data["record"])
    except (ValueError, TypeError, KeyError) as exc:
        raise SaveError(label, f"damaged save: {exc}", problem_line(text, data["record"], str(exc))) \
            from None
    changed = db is not None and db.fingerprint != data["cards_fingerprint"]
    return SaveInfo(label, data, record, changed, text)


_SPACE = re.compile(r"\s*")


def action_line(text: str, index: int, count: int) -> int:
    """The line of the record's action ``index`` (from 0) in a save's ``text``, whose record holds
    ``count`` actions; 0 where it cannot be told (no such list in the text: an autosave journal)."""
    decoder = json.JSONDecoder()
    for found in re.finditer(r'"actions"\s*:\s*\[', text):
        starts, pos = [], found.end()
        try:
            while True:
                pos = _SPACE.match(text, pos).end()
                if text.startswith("]", pos):
                    break
                starts.append(pos)
                pos = _SPACE.match(text, decoder.raw_decode(text, pos)[1]).end()
                if text.startswith(",", pos):
                    pos += 1
        except ValueError:
            continue
        if len(starts) == count:
            return text[: starts[index]].count("\n") + 1
    return 0


def problem_line(text: str, record: dict, problem: str) -> int:
    """The line of the action a record's ``problem`` names (``action N: …``) in the save's
    ``text``; 0 for any other problem."""
    found = re.match(r"action (\d+):", problem)
    actions = record.get("actions")
    if found is None or not isinstance(actions, list) or not 1 <= int(found.group(1)) <= len(actions):
        return 0
    return action_line(text, int(found.group(1)) - 1, len(actions))


def too_long_number() -> str:
    """What a save or autosave holding a number Python will not read is told."""
    return f"a number has more than {_digits_limit()} digits"


def _digits_limit() -> int:
    return sys.get_int_max_str_digits() or 4300  # (0: no limit was set; Python's default is 4300)


def long_number_line(text: str) -> int:
    """The line of the first number too long for Python to read in ``text`` (0 if none)."""
    found = re.search(r"\d{%d,}" % (_digits_limit() + 1), text)
    return text.count("\n", 0, found.start()) + 1 if found else 0




def record_problem(record: Any) -> str | None:
    """What is wrong with a game record's plain data (a save's or autosave's ``record``) that
    ``GameRecord.from_dict`` lets through, or None: an action whose kind is not text, an option
    naming a seat the game does not have, an unknown computer level or stop, a rule switch that
    does not exist, a rule set's title or name that is not text. The setup itself is checked when
    the game is set up (``setup.setup_problems``)."""
    if not isinstance(record, dict):
        return None  # (from_dict says so)
    players = record.get("setup", {}).get("players") if isinstance(record.get("setup"), dict) else None
    seats = len(players) if isinstance(players, list) else 7
    options = record.get("options")
    for key, value in (options.items() if isinstance(options, dict) else ()):
        problem = option_problem(key, value, seats)
        if problem:
            return problem
    actions = record.get("actions")
    for i, entry in enumerate(actions if isinstance(actions, list) else ()):
        if not isinstance(entry, dict):
            continue  # (from_dict says so)
        if not isinstance(entry.get("kind"), str):
            return f"action {i + 1}: its kind must be text, got {shown_value(entry.get('kind'))}"
        if entry["kind"] == "option":
            problem = option_problem(entry.get("key"), entry.get("value"), seats)
            if problem:
                return f"action {i + 1}: {problem}"
    rules = record.get("rules")
    return rules_problem(rules) if isinstance(rules, dict) else None


def option_problem(key: Any, value: Any, seats: int) -> str | None:
    """What is wrong with the ``seats`` or ``stops`` option of a game of ``seats`` players (None
    when nothing is): what ``record.check_option`` says (an unknown computer level or stop), and a
    seat the game does not have."""
    if key not in ("seats", "stops") or not isinstance(value, dict):
        return None
    for seat in value:
        if not (isinstance(seat, str) and seat.isdigit()):
            return None  # (check_option says so)
        if len(seat) > 1 or int(seat) >= seats:
            return f"{key}: seat {shown_value(seat)} is not a seat of this game (seats 0 to {seats - 1})"
    return check_option(key, value)


def rules_problem(rules: dict) -> str | None:
    """What is wrong with a record's rule set beyond what ``RuleSet.from_dict`` checks: every
    switch in ``off`` must be an errata rule or an errata patch (one of the installed packs', or
    named after its rule such as E9.1-a); ``title`` and ``name`` must be text."""
    from fate_royal.cards.ruleset import ERRATA_RULES

    for key in ("title", "name"):
        if not isinstance(rules.get(key, ""), str):
            return f"rule set {key} must be text, got {shown_value(rules[key])}"
    off = rules.get("off")
    unknown = [x for x in (off if isinstance(off, list) else ()) if isinstance(x, str)
               and x not in ERRATA_RULES and x.split("-")[0] not in ERRATA_RULES]
    if unknown:
        unknown = [x for x in unknown if x not in _installed_patches()]
    if unknown:
        return (f"unknown rule switch {shown_value(unknown[0])} in the rule set "
                "(errata rules are E1.1 … E9.7; patches as in cards/errata/)")
    return None


def _installed_patches() -> list[str]:
    """The errata patch ids of the shipped and the user's packs (none if they cannot be read:
    then the card data's own error is what the user sees)."""
    from fate_royal.cards.rulesets import known_switches
    from fate_royal.cards.yamlsrc import DataError

    try:
        return known_switches()
    except (DataError, OSError):  # a broken pack: reported when the card data is loaded
        return []


def _from_version_1(label: str, data: dict) -> dict:
    """A format-1 save (errata as one switch, seed in the setup) as format 2."""
    for key, kind in (("setup", dict), ("actions", list), ("profile", dict), ("errata", bool),
                      ("cards_fingerprint", str), ("state_digest", str)):
        if not isinstance(data.get(key), kind):
            raise SaveError(label, f"damaged save: '{key}' is missing or has the wrong type")
    values = {}
    for k, v in data["profile"].items():
        if k not in PARAMETERS:
            continue  # a parameter this version no longer knows (errata): ignore it
        problem = check_value(k, v)
        if problem:
            raise SaveError(label, f"damaged save: profile {problem}")
        values[k] = v
    rules = RuleSet.from_errata(data["errata"], RulesProfile.from_mapping(values))
    setup = dict(data["setup"])
    seed = setup.pop("seed", 0)
    setup["uid_order"] = "sequential"  # format 1 numbered card instances in order
    record = {"setup": setup, "options": {}, "rules": rules.to_dict(),
              "seed": seed if isinstance(seed, int) and not isinstance(seed, bool) else 0,
              "actions": data["actions"], "cards": list(data.get("scenario_cards") or [])}
    out = dict(data)
    out["record"] = record
    out["state_digest"] = ""  # format 1 digests a position of the old engine: not comparable
    return out


def load_game(path: str | Path, db_loader: DbLoader, *, allow_changed_cards: bool = False,
              upto: int | None = None, info: SaveInfo | None = None) -> Game:
    """Open a save: check it, then replay its record, action by action.

    ``db_loader(rules, extra_cards) -> CardDB`` gives the card data to replay with. If the card
    data changed since the save, the save is refused unless ``allow_changed_cards`` (then the replay
    must still be legal action by action). ``upto`` replays only the first N entries (a read-only
    replay for stepping through). ``info`` is the save already read (e.g. an autosave journal's,
    ``journal.read_journal``).
    """
    if info is None:
        info = read_save(path)
    rec = info.record
    label = info.path
    try:
        db = db_loader(rec.rules, list(rec.cards))
    except Exception as exc:  # card data itself broken: say so, do not replay
        raise SaveError(label, f"cannot load the card data to replay this save: {exc}") from exc
    same_cards = db.fingerprint == info.data["cards_fingerprint"]
    missing = missing_personal_cards(info.data, db)
    if missing:
        raise SaveError(label, "this game used personal cards that your card pack does not have: "
                               f"{', '.join(missing)} (import the card pack it was played with, "
                               "then open it again)")
    if not same_cards and not allow_changed_cards:
        raise SaveError(label, "incompatible: the card data changed since this game was saved "
                               "(open it anyway to replay it with the current cards)")
    try:
        game = Game(db, rec.rules, rec.setup, seed=rec.seed, options=rec.options, cards=rec.cards)
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        raise SaveError(label, f"damaged save: its setup cannot be played ({exc})") from exc
    problems = check_state(game.ctx.s)
    if problems:  # the engine's own invariants: a start position it could never reach
        raise SaveError(label, "damaged save: impossible start position: " + "; ".join(problems))
    entries = rec.actions
    stop = len(entries) if upto is None else max(0, min(upto, len(entries)))
    for i, entry in enumerate(entries[:stop]):
        try:
            game.apply_entry(entry)
        except IllegalAction as exc:
            raise SaveError(label, f"replay failed at action {i + 1}: {exc.message}"
                                   + (f" [{exc.rule}]" if exc.rule else ""),
                            action_line(info.text, i, len(entries)), reason=exc.reason) from exc
        except (ValueError, TypeError, KeyError, RulesError) as exc:
            raise SaveError(label, f"damaged save: action {i + 1} is not valid ({exc})",
                            action_line(info.text, i, len(entries))) from exc
    digest = info.data["state_digest"]
    if upto is None and same_cards and digest and state_digest(game) != digest:
        raise SaveError(label, "damaged save: the replay does not reach the saved position")
    return game


def action_list(path: str | Path) -> list:
    """The recorded entries of a save (for a read-only replay)."""
    return list(read_save(path).record.actions)
