"""Saved games: a versioned JSON record of setup + seed + actions, replayed on load.

A save holds the format name and version, the card-data and profile fingerprints, errata on/off,
the setup (with its seed), any scenario-local cards, and the action history, plus a digest of the
final position so a replay that drifts is caught. Writing is atomic (a temporary file in the same
folder, flushed and renamed over the target), so a crash never leaves half a save. Loading never
changes the file; a damaged, foreign or incompatible file raises ``SaveError`` with a clear
message naming the file (and the line, for broken JSON).
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fate_royal import __version__
from fate_royal.cards.model import CardDB
from fate_royal.cards.profile import PARAMETERS, RulesProfile, check_value
from fate_royal.rules.actions import Action
from fate_royal.rules.errors import IllegalAction, RulesError
from fate_royal.rules.game import Game

FORMAT = "fate_royal-save"
VERSION = 1
MAX_SAVE_BYTES = 32 * 1024 * 1024  # a real save is a few hundred KB at most


class SaveError(RulesError):
    """A save that cannot be written or opened. ``str()`` is ``file[:line]: message``."""

    def __init__(self, file: str, message: str, line: int = 0) -> None:
        self.file, self.line, self.message = str(file), line, message
        where = f"{file}:{line}" if line else str(file)
        super().__init__(f"{where}: {message}")


def profile_fingerprint(profile: RulesProfile) -> str:
    text = json.dumps(profile.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def state_digest(game: Game) -> str:
    text = json.dumps(game.state.to_dict(), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def to_record(game: Game) -> dict[str, Any]:
    """The save record of a game (plain JSON data)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "app_version": __version__,
        "cards_fingerprint": game.db.fingerprint,
        "profile_fingerprint": profile_fingerprint(game.profile),
        "errata": game.errata,
        "profile": game.profile.to_dict(),
        "setup": game.setup,
        "scenario_cards": list(getattr(game, "extra_cards", None) or []),
        "names": [p.name for p in game.state.players],
        "actions": [a.to_dict() for a in game.history],
        "state_digest": state_digest(game),
    }


def save_game(game: Game, path: str | Path) -> Path:
    """Write ``game`` to ``path`` atomically. Raises SaveError if the folder cannot be written."""
    path = Path(path)
    data = json.dumps(to_record(game), ensure_ascii=False, indent=1, sort_keys=True)
    folder = path.parent if str(path.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, _file_mode(path))
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except OSError as exc:
        raise SaveError(str(path), f"cannot write the save: {exc.strerror or exc}") from exc
    return path


def _file_mode(path: Path) -> int:
    """Keep an existing save's permissions; a new one gets the usual mode (0666 less the umask)."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


def autosave_path() -> Path:
    """Where the table autosaves after every action (XDG data folder)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "fate_royal" / "autosave.json"


@dataclass
class SaveInfo:
    """A checked save record, before replay."""

    path: str
    record: dict[str, Any]
    cards_changed: bool
    profile: RulesProfile


def read_save(path: str | Path, db: CardDB | None = None) -> SaveInfo:
    """Read and check a save file without replaying it. Never modifies the file."""
    path = Path(path)
    label = str(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise SaveError(label, f"cannot open: {exc.strerror or exc}") from exc
    if size > MAX_SAVE_BYTES:
        raise SaveError(label, f"too large to be a fate_royal save ({size} bytes)")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SaveError(label, f"cannot read: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SaveError(label, "not a fate_royal save (not UTF-8 text)", line) from None
    if not text.strip():
        raise SaveError(label, "the file is empty")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(label, f"damaged save: {exc.msg}", exc.lineno) from None
    except RecursionError:
        raise SaveError(label, "damaged save: nested too deeply") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise SaveError(label, "not a fate_royal save (no 'format: fate_royal-save' field)")
    version = record.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise SaveError(label, "damaged save: no format version")
    if version > VERSION:
        raise SaveError(label, f"saved by a newer fate_royal (format {version}; this one reads up to "
                               f"{VERSION}); update fate_royal to open it")
    if version < 1:
        raise SaveError(label, f"unknown save format version {version}")
    for key, kind in (("setup", dict), ("actions", list), ("profile", dict), ("errata", bool),
                      ("cards_fingerprint", str), ("state_digest", str)):
        if not isinstance(record.get(key), kind):
            raise SaveError(label, f"damaged save: '{key}' is missing or has the wrong type")
    values = {}
    for k, v in record["profile"].items():
        if k not in PARAMETERS:
            continue  # a parameter this version no longer knows: ignore it
        problem = check_value(k, v)
        if problem:
            raise SaveError(label, f"damaged save: profile {problem}")
        values[k] = v
    profile = RulesProfile.from_mapping(values)
    changed = db is not None and db.fingerprint != record["cards_fingerprint"]
    return SaveInfo(label, record, changed, profile)


def load_game(path: str | Path, db_loader, *, allow_changed_cards: bool = False,
              upto: int | None = None) -> Game:
    """Open a save: check it, then replay its actions from setup + seed.

    ``db_loader(errata: bool, extra: list) -> CardDB`` gives the card data to replay with. If the
    card data changed since the save, the save is refused unless ``allow_changed_cards`` (then the
    replay must still be legal action by action). ``upto`` replays only the first N actions (a
    read-only replay for stepping through).
    """
    info = read_save(path)
    rec = info.record
    label = info.path
    try:
        db = db_loader(rec["errata"], rec.get("scenario_cards") or [])
    except Exception as exc:  # card data itself broken: say so, do not replay
        raise SaveError(label, f"cannot load the card data to replay this save: {exc}") from exc
    if db.fingerprint != rec["cards_fingerprint"] and not allow_changed_cards:
        raise SaveError(label, "incompatible: the card data changed since this game was saved "
                               "(open it anyway to replay it with the current cards)")
    try:
        game = Game(db, info.profile.with_(errata=rec["errata"]), rec["setup"])
    except (RulesError, KeyError, ValueError, TypeError) as exc:
        raise SaveError(label, f"damaged save: its setup cannot be played ({exc})") from exc
    game.extra_cards = rec.get("scenario_cards") or []
    actions = rec["actions"]
    stop = len(actions) if upto is None else max(0, min(upto, len(actions)))
    for i, data in enumerate(actions[:stop]):
        try:
            action = Action.from_dict(data) if isinstance(data, dict) else None
            if action is None:
                raise ValueError("not an action")
            game.apply(action)
        except IllegalAction as exc:
            raise SaveError(label, f"replay failed at action {i + 1}: {exc.message}"
                                   + (f" [{exc.rule}]" if exc.rule else "")) from exc
        except (ValueError, TypeError, KeyError, RulesError) as exc:
            raise SaveError(label, f"damaged save: action {i + 1} is not valid ({exc})") from exc
    if upto is None and not info.cards_changed and db.fingerprint == rec["cards_fingerprint"]:
        if state_digest(game) != rec["state_digest"]:
            raise SaveError(label, "damaged save: the replay does not reach the saved position")
    return game


def action_list(path: str | Path) -> list[Action]:
    """The recorded actions of a save (for a read-only replay)."""
    info = read_save(path)
    try:
        return [Action.from_dict(a) for a in info.record["actions"]]
    except (ValueError, TypeError) as exc:
        raise SaveError(info.path, f"damaged save: {exc}") from exc
