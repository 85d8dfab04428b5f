"""``fate-royal check [--provisional] [--root DIR]``: validate all card data.

Loads the cards, the chip sheet, the errata pack, the rules profile, the shipped rule sets and the
rules reference, prints every problem as
``file:line: message`` and exits 1 if there was any; otherwise prints a one-line summary and exits 0.
``--provisional`` also lists every provisional field, one a line. The summary also counts the new
game's deck (known, entered and padded cards, D1) and the personal card pack (``cards.pack``), and
every effect that is not yet playable is listed after it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from fate_royal.cards import schema
from fate_royal.cards.loader import load_card_db, load_profile
from fate_royal.cards.model import CardDB
from fate_royal.cards.yamlsrc import DataError, DataErrors


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fate-royal check", description="Validate all card data: cards, "
                                "chip sheet, errata pack, rules profile. Errors are printed as "
                                "file:line: message; the exit status is 1 if there is any.")
    p.add_argument("--provisional", action="store_true",
                   help="also list every provisional field (values this project chose because the "
                   "printed ones are unknown)")
    p.add_argument("--root", metavar="DIR", help="card folder to check (default: the shipped cards/)")
    return p


def _collect(exc: BaseException, errors: list[DataError], label: str) -> None:
    if isinstance(exc, DataErrors):
        errors.extend(exc.errors)
    elif isinstance(exc, DataError):
        errors.append(exc)
    else:
        errors.append(DataError(label, 0, f"{type(exc).__name__}: {exc}"))


def _check_rulesets(root: Path, default_root: bool, profile, errors: list[DataError]) -> int:
    """Load every rule set in ``rulesets/`` (the shipped ``house`` and ``base``)."""
    from fate_royal.cards.rulesets import RULESET_DIR, load_ruleset

    folder = root / RULESET_DIR
    count = 0
    for path in sorted(folder.glob("*.yaml")) if folder.is_dir() else []:
        label = f"cards/{RULESET_DIR}/{path.name}" if default_root else path.as_posix()
        try:
            load_ruleset(path, profile, label=label, root=None if default_root else root)
            count += 1
        except Exception as exc:
            _collect(exc, errors, label)
    return count


def _check_reference(root: Path, default_root: bool, errors: list[DataError]) -> str:
    """Load the rules reference; '' if a custom card folder has none, else a summary."""
    from fate_royal.cards.reference import load_reference

    path = root / "rules-reference.yaml"
    label = "cards/rules-reference.yaml" if default_root else path.as_posix()
    if not default_root and not path.is_file():
        return ""
    try:
        result = load_reference() if default_root else load_reference(path)
    except Exception as exc:  # report anything the reference loader raises, never a traceback
        _collect(exc, errors, label)
        return ""
    return f"{len(result)} rules"


def _provisional_lines(db: CardDB) -> list[str]:
    lines = []
    for card in db.cards.values():
        if card.provenance_default == "provisional":
            lines.append(f"{card.source_file}:{card.source_line}: {card.id} (every field not marked "
                         f"otherwise) provisional — {card.note or 'no note'}")
        found = []
        for path in card.provisional_paths():
            file, line = card.locations.get(path, (card.source_file, card.source_line))
            found.append((file != card.source_file, line, f"{file}:{line}: {card.id} {path} "
                          f"provisional — {card.notes.get(path, '')}"))
        lines += [text for *_, text in sorted(found)]
    for chip in db.chips.values():
        if chip.provenance_default == "provisional":
            lines.append(f"{chip.source_file}:{chip.source_line}: chip {chip.id} (every field not "
                         f"marked otherwise) provisional — {chip.note or 'no note'}")
        for path in sorted(p for p, v in chip.provenance.items() if v == "provisional"):
            file, line = chip.locations.get(path, (chip.source_file, chip.source_line))
            lines.append(f"{file}:{line}: chip {chip.id} {path} provisional — {chip.notes.get(path, '')}")
    return lines


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    default_root = args.root is None
    if default_root:
        from fate_royal.paths import cards_dir

        try:
            root = cards_dir()
        except FileNotFoundError as exc:
            print(f"fate-royal check: {exc}", file=sys.stderr)
            return 1
    else:
        root = Path(args.root)
        if not root.is_dir():
            print(f"{args.root}:0: card folder not found")
            return 1
    errors: list[DataError] = []
    started = time.perf_counter()
    db = None
    try:
        db = load_card_db(None if default_root else root, errata=True)
    except Exception as exc:
        _collect(exc, errors, str(root))
    elapsed = time.perf_counter() - started
    profile = None
    try:
        profile = load_profile(None if default_root else root / schema.PROFILE_FILE)
    except Exception as exc:
        _collect(exc, errors, schema.PROFILE_FILE)
    rulesets = _check_rulesets(root, default_root, profile, errors)
    reference = _check_reference(root, default_root, errors)
    # a broken errata pack (the user's own) also stops every rule set, which names the patches it
    # may switch: each problem is said, and counted, once
    errors = list({str(e): e for e in errors}.values())
    for e in errors:
        print(e)
    if errors:
        print(f"fate-royal check: {len(errors)} error(s)", file=sys.stderr)
        return 1
    assert db is not None and profile is not None
    provisional = _provisional_lines(db)
    if args.provisional:
        for line in provisional:
            print(line)
    kinds = {k: len(db.by_kind(k)) for k in ("hero", "class", "mystic_code", "scene")}
    patches = sum(len(c.patches) for c in db.cards.values())
    parts = [f"{kinds['hero']} heroes", f"{kinds['class']} classes", f"{kinds['mystic_code']} mystic codes",
             f"{kinds['scene']} scenes", f"{len(db.chips)} chips", f"{patches} errata patches applied",
             f"profile ok ({len(profile.values)} parameters)", f"{rulesets} rule sets"]
    if reference:
        parts.append(reference)
    from fate_royal.cards.pack import deck_summary, personal_ids

    known, entered, padded = deck_summary(db, profile)
    personal = personal_ids(db) if default_root else []
    unplayable = [(c, e) for c in db.cards.values() for e in c.effects if e.unplayable]
    print(f"OK: {', '.join(parts)}; {len(provisional)} provisional entries"
          f"{'' if args.provisional else ' (--provisional lists them)'}; "
          f"deck: {known} known, {entered} entered, {padded} padded (D1); "
          f"{len(personal)} personal cards; {len(unplayable)} effects not yet playable; loaded in "
          f"{elapsed * 1000:.0f} ms")
    if default_root:
        from fate_royal.cards.pack import pack_path, read_pack, stale_overrides

        for cid in stale_overrides(read_pack()):
            print(f"{pack_path().as_posix()}:0: {cid} corrects a shipped card that has changed "
                  "since (its replaces: entry is not the shipped definition any more); check the "
                  "correction against it")
    for card, effect in unplayable:  # the engine never offers them: say so, one a line
        file, line = card.locations.get(f"effects.{effect.index}",
                                        (card.source_file, card.source_line))
        print(f"{file}:{line}: {card.id} effects.{effect.index} {effect.name} not yet playable "
              "(the effect vocabulary cannot express it; only its printed text is entered)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
