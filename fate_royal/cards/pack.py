"""The personal card pack: cards a person typed in from their own box, kept in their data folder.

One YAML file (``card-pack.yaml`` in ``paths.user_data_dir()``, or ``$FATE_ROYAL_PACK``) holds
card definitions in the schema of ``cards/`` — new cards, and corrections of shipped ones that
override them and record, under ``replaces:``, the shipped definition they replace. Every value a
person entered has provenance ``entered`` (a value still wrapped as provisional stays provisional);
the card's ``note`` is the person's note. Shipped data is never edited: the pack joins the card
data when it is loaded (``load_card_db`` reads it as extra cards). The same file is what export
writes and import reads; import validates the result before anything is written.

No Qt here; the editor (qt/card_editor.py) and ``fate-royal cards`` use these functions.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping


from fate_royal.cards.model import CardDB
from fate_royal.cards.yamlsrc import DataError, DataErrors, YList, YMap, location, parse_yaml, plain

PACK_FORMAT = "fate_royal-card-pack"
PACK_VERSION = 1
PACK_FILE = "card-pack.yaml"
MAX_PACK_BYTES = 2 * 1024 * 1024  # a hundred cards are some tens of KB
MAX_PACK_CARDS = 200  # the game has 100 cards
PACK_KEYS = ("format", "version", "title", "note", "cards", "replaces")

__all__ = [
    "CardPack", "ImportPlan", "PACK_FILE", "PACK_FORMAT", "deck_summary", "dump_pack",
    "empty_pack", "export_pack", "import_pack", "pack_path", "personal_ids", "plan_import",
    "read_pack", "read_pack_text", "save_pack", "shipped_card_tree", "stale_overrides",
    "unknown_list", "validate_pack",
    "with_card", "without_card",
]


def pack_path() -> Path:
    """Where the personal pack lives: ``$FATE_ROYAL_PACK``, else the user data folder."""
    override = os.environ.get("FATE_ROYAL_PACK", "").strip()
    if override:
        return Path(override).expanduser()
    from fate_royal.paths import user_data_dir

    return user_data_dir() / PACK_FILE


@dataclass
class CardPack:
    """A pack as read: its card mappings (YMap, lines kept), what overrides replace, its label."""

    cards: list = field(default_factory=list)
    replaces: dict = field(default_factory=dict)  # card id -> shipped definition (plain)
    title: str = ""
    note: str = ""
    source: str = "<card pack>"

    def ids(self) -> list[str]:
        return [str(c.get("id")) for c in self.cards]

    def card(self, card_id: str) -> Any:
        return next((c for c in self.cards if c.get("id") == card_id), None)

    def db_cards(self) -> list:
        """The card mappings as ``load_card_db(extra=...)`` takes them."""
        return list(self.cards)


def empty_pack(source: str = "<card pack>") -> CardPack:
    return CardPack(source=source)


def read_pack_text(data: bytes | str, label: str) -> CardPack:
    """Parse and check a pack's outer shape; ``DataErrors`` (``file:line: message``) if broken.

    The cards themselves are checked by loading them (``validate_pack``)."""
    errors: list[DataError] = []
    size = len(data.encode("utf-8") if isinstance(data, str) else data)
    if size > MAX_PACK_BYTES:
        raise DataErrors([_too_large(label, size)])
    tree = parse_yaml(data, label, errors)
    if errors:
        raise DataErrors(errors)
    if not isinstance(tree, YMap):
        raise DataErrors([DataError(label, 1, "a card pack is a mapping with format: "
                                              f"{PACK_FORMAT} and cards: [...]")])
    for key in tree:
        if key not in PACK_KEYS:
            errors.append(DataError(label, location(tree, key)[1],
                                    f"unknown key {key!r} in a card pack (keys: "
                                    f"{', '.join(PACK_KEYS)})"))
    if tree.get("format") != PACK_FORMAT:
        errors.append(DataError(label, location(tree, "format")[1] or 1,
                                f"not a card pack: format must be {PACK_FORMAT}"))
    version = tree.get("version", PACK_VERSION)
    if version != PACK_VERSION:
        errors.append(DataError(label, location(tree, "version")[1],
                                f"card pack version {version!r} is not supported (this program "
                                f"reads version {PACK_VERSION})"))
    for key in ("title", "note"):
        if tree.get(key) is not None and not isinstance(tree.get(key), str):
            errors.append(DataError(label, location(tree, key)[1], f"{key} must be text"))
    cards = tree.get("cards", YList(src=label))
    if not isinstance(cards, YList):
        errors.append(DataError(label, location(tree, "cards")[1], "cards must be a list of cards"))
        cards = YList(src=label)
    if len(cards) > MAX_PACK_CARDS:
        errors.append(DataError(label, location(tree, "cards")[1],
                                f"a card pack holds at most {MAX_PACK_CARDS} cards"))
    seen: dict[str, int] = {}
    for i, card in enumerate(cards):
        line = location(cards, i)[1]
        if not isinstance(card, YMap):
            errors.append(DataError(label, line, f"cards item {i + 1} must be a card mapping"))
            continue
        cid = card.get("id")
        if isinstance(cid, str):
            if cid in seen:
                errors.append(DataError(label, line, f"card {cid} is in the pack twice (also at "
                                                     f"line {seen[cid]})"))
            seen.setdefault(cid, line)
        prov = card.get("provenance", "entered")
        if prov != "entered":
            errors.append(DataError(label, location(card, "provenance")[1],
                                    f"the cards of a personal pack are entered by hand: "
                                    f"provenance must be entered, not {prov!r}"))
        elif "provenance" in card:
            del card["provenance"]
    replaces = tree.get("replaces") or {}
    if not isinstance(replaces, YMap) and replaces != {}:
        errors.append(DataError(label, location(tree, "replaces")[1],
                                "replaces must map card ids to the shipped definitions they replace"))
        replaces = {}
    for cid, value in dict(replaces).items():
        if cid not in seen:
            errors.append(DataError(label, location(replaces, cid)[1],
                                    f"replaces names {cid}, which is not a card of this pack"))
        elif not isinstance(value, YMap):
            errors.append(DataError(label, location(replaces, cid)[1],
                                    f"replaces.{cid} must be the shipped card's definition"))
    if errors:
        raise DataErrors(errors)
    return CardPack(cards=list(cards), replaces={k: plain(v) for k, v in dict(replaces).items()},
                    title=tree.get("title") or "", note=tree.get("note") or "", source=label)


def read_pack(path: str | os.PathLike | None = None) -> CardPack:
    """The pack at ``path`` (default: the personal pack; an empty pack if there is none)."""
    p = Path(path) if path is not None else pack_path()
    label = p.as_posix()
    if path is None and not p.exists():
        return empty_pack(label)
    from fate_royal.fsutil import FileTooLarge, read_bounded

    try:
        data = read_bounded(p, MAX_PACK_BYTES)
    except FileTooLarge as exc:
        raise DataErrors([_too_large(label, exc.size)]) from None
    except OSError as exc:
        raise DataErrors([DataError(label, 0, f"cannot read the card pack: "
                                              f"{exc.strerror or exc}")]) from None
    return read_pack_text(data, label)


def _too_large(label: str, size: int) -> DataError:
    return DataError(label, 0, f"a card pack is at most {MAX_PACK_BYTES // 1024} KB (this file has "
                               f"{size // 1024} KB)")


def dump_pack(pack: CardPack) -> str:
    """The pack as YAML text (cards with ``provenance: entered`` first in each card)."""
    cards = []
    for c in pack.cards:
        c = plain(c)
        out = {"id": c.get("id"), "kind": c.get("kind"), "provenance": "entered"}
        out.update({k: v for k, v in c.items() if k not in out})
        cards.append(out)
    data: dict[str, Any] = {"format": PACK_FORMAT, "version": PACK_VERSION}
    if pack.title:
        data["title"] = pack.title
    if pack.note:
        data["note"] = pack.note
    data["cards"] = cards
    if pack.replaces:
        data["replaces"] = {k: plain(v) for k, v in sorted(pack.replaces.items())}
    head = ("# A personal card pack of fate_royal: cards entered by hand from the printed cards.\n"
            "# Import it with `fate-royal cards import FILE` or the card editor.\n")
    import yaml

    return head + yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def validate_pack(pack: CardPack, root: Path | None = None) -> CardDB:
    """Load the card data with ``pack`` (errata on and off, so every errata patch still finds what
    it expects); the loaded data with errata, or ``DataErrors`` naming the pack's lines."""
    from fate_royal.cards.loader import load_card_db

    load_card_db(root, errata=False, pack=pack)
    return load_card_db(root, errata=True, pack=pack)


def save_pack(pack: CardPack, path: str | os.PathLike | None = None,
              root: Path | None = None) -> Path:
    """Validate ``pack`` and write it atomically (default: the personal pack). Nothing is written
    when it does not validate (``DataErrors``)."""
    from fate_royal.fsutil import atomic_write

    text = dump_pack(pack)
    target = Path(path) if path is not None else pack_path()
    checked = read_pack_text(text, target.as_posix())  # what will be read back
    validate_pack(checked, root)
    target.parent.mkdir(parents=True, exist_ok=True)
    return atomic_write(target, text)


def shipped_card_tree(card_id: str, root: Path | None = None) -> dict | None:
    """The shipped definition of a card (plain, provenance wrappers kept), or None."""
    from fate_royal.cards import schema
    from fate_royal.cards.loader import read_data_file
    from fate_royal.paths import cards_dir

    base = Path(root) if root is not None else cards_dir()
    for folder in schema.KIND_FOLDERS:
        for path in sorted((base / folder).glob(f"{card_id}*.yaml")):
            tree = read_data_file(path)
            if isinstance(tree, Mapping):
                value = tree.get("id")
                if isinstance(value, Mapping):
                    value = value.get("value")
                if value == card_id:
                    return plain(tree)
    return None


def with_card(pack: CardPack, card: Mapping[str, Any], root: Path | None = None) -> CardPack:
    """A copy of ``pack`` with ``card`` (a plain card mapping) added or replacing the pack's card of
    the same id; a card that overrides a shipped one records the shipped definition it replaces."""
    cid = card.get("id")
    card = {k: v for k, v in plain(dict(card)).items() if k != "provenance"}
    cards = [c for c in pack.cards if c.get("id") != cid] + [card]
    replaces = dict(pack.replaces)
    shipped = shipped_card_tree(str(cid), root) if isinstance(cid, str) else None
    if shipped is not None:
        replaces.setdefault(cid, shipped)
    else:
        replaces.pop(cid, None)
    return CardPack(cards=cards, replaces=replaces, title=pack.title, note=pack.note,
                    source=pack.source)


def without_card(pack: CardPack, card_id: str) -> CardPack:
    return CardPack(cards=[c for c in pack.cards if c.get("id") != card_id],
                    replaces={k: v for k, v in pack.replaces.items() if k != card_id},
                    title=pack.title, note=pack.note, source=pack.source)


@dataclass
class ImportPlan:
    """What importing a pack would do: the merged pack, and which cards it adds or overrides."""

    merged: CardPack
    adds: list[str]  # new cards
    overrides_shipped: list[str]  # corrections of shipped cards
    replaces_personal: list[str]  # cards already in the personal pack, replaced
    db: CardDB | None = None


def plan_import(source: str | os.PathLike, target: str | os.PathLike | None = None,
                root: Path | None = None) -> ImportPlan:
    """Read and validate ``source`` merged into the personal pack (or ``target``); nothing is
    written. ``DataErrors`` (``file:line: message``) when either is broken."""
    incoming = read_pack(source)
    current = read_pack(target) if target is not None and Path(target).exists() else \
        (read_pack() if target is None else empty_pack(Path(target).as_posix()))
    shipped_ids = set(_shipped_ids(root))
    mine = set(current.ids())
    merged = CardPack(cards=[c for c in current.cards if c.get("id") not in set(incoming.ids())],
                      replaces={k: v for k, v in current.replaces.items()
                                if k not in set(incoming.ids())},
                      title=current.title or incoming.title, note=current.note or incoming.note,
                      source=incoming.source)
    merged.cards += incoming.cards
    merged.replaces.update(incoming.replaces)
    db = validate_pack(merged, root)
    ids = incoming.ids()
    return ImportPlan(
        merged=merged,
        adds=[i for i in ids if i not in shipped_ids and i not in mine],
        overrides_shipped=[i for i in ids if i in shipped_ids],
        replaces_personal=[i for i in ids if i in mine and i not in shipped_ids],
        db=db,
    )


def import_pack(source: str | os.PathLike, target: str | os.PathLike | None = None,
                root: Path | None = None) -> ImportPlan:
    """Import ``source`` into the personal pack (or ``target``) once it validates."""
    plan = plan_import(source, target, root)
    save_pack(plan.merged, target, root)
    return plan


def export_pack(dest: str | os.PathLike, source: str | os.PathLike | None = None) -> Path:
    """Write the personal pack (or ``source``) as one file to share; it is validated first."""
    from fate_royal.fsutil import atomic_write

    pack = read_pack(source)
    validate_pack(pack)
    Path(dest).parent.mkdir(parents=True, exist_ok=True)
    return atomic_write(Path(dest), dump_pack(pack))


def _shipped_ids(root: Path | None = None) -> list[str]:
    from fate_royal.cards.loader import load_card_db

    return list(load_card_db(root, errata=False, pack=False).cards)


def stale_overrides(pack: CardPack, root: Path | None = None) -> list[str]:
    """Corrections in ``pack`` whose shipped card has changed since they were entered (the
    recorded ``replaces`` definition is no longer the shipped one): check them against it."""
    out = []
    for cid, recorded in sorted(pack.replaces.items()):
        if shipped_card_tree(cid, root) != recorded:
            out.append(cid)
    return out


def personal_ids(db: CardDB) -> list[str]:
    """Ids of the cards of ``db`` that come from a personal pack (new or overriding)."""
    return sorted(c.id for c in db.cards.values() if c.provenance_default == "entered")


def deck_summary(db: CardDB, rules: Any = None) -> tuple[int, int, int]:
    """(known, entered, padded) for a new game's deck (D1): known = copies of shipped mystic codes
    and scenes, entered = copies of personal ones, padded = copies added to reach the deck's
    minimum size. ``rules``: a RuleSet or a RulesProfile (default: the shipped profile)."""
    profile = _profile_of(rules)
    deckable = [c for c in db.cards.values() if c.kind in ("mystic_code", "scene")]
    entered = sum(max(1, c.copies) for c in deckable if c.provenance_default == "entered")
    known = sum(max(1, c.copies) for c in deckable) - entered
    padded = max(0, profile.deck_min_size - known - entered) if deckable else 0
    return known, entered, padded


def _profile_of(rules: Any):
    """The rules profile of a RuleSet, or the profile itself, or the shipped one."""
    if rules is None:
        from fate_royal.cards.loader import load_profile

        return load_profile()
    return getattr(rules, "profile", rules)


def unknown_list(db: CardDB) -> list[tuple[str, str, str]]:
    """What is still unknown: (card id, field path, why) for every provisional field and every
    effect that is not yet playable, in card order."""
    out: list[tuple[str, str, str]] = []
    for card in sorted(db.cards.values(), key=lambda c: c.id):
        if card.provenance_default == "provisional":
            out.append((card.id, "*", card.note or "provisional card"))
        for path in card.provisional_paths():
            out.append((card.id, path, card.notes.get(path, "")))
        for e in card.effects:
            if e.unplayable:
                out.append((card.id, f"effects.{e.index}", "not yet playable"))
    return out

