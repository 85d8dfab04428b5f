"""``fate-royal cards edit|list|list-unknown|export|import``: the personal card pack.

- ``edit [CARD] [--kind KIND] [--lang ja|en]`` opens the card editor (a card of the pack or a shipped
  card to correct, or a new card of ``KIND``);
- ``list`` lists the cards of the personal pack (and which shipped cards they replace);
- ``list-unknown`` lists what is still unknown: every provisional field and every effect that is
  not yet playable, as ``file:line: card path — why``;
- ``export FILE`` writes the personal pack as one file to share (validated first);
- ``import FILE [--dry-run]`` shows what the file adds and overrides, validates the result, and
  only then writes it into the personal pack. A broken or hostile file is refused with
  ``file:line: message`` and nothing is written (exit status 1).

``edit`` is opened by ``fate_royal.cli`` (the commands never import Qt); ``edit_arguments`` parses
its options for it.
"""

from __future__ import annotations

import argparse
import sys

from fate_royal.cards.yamlsrc import DataError, DataErrors


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fate-royal cards",
                                description="The personal card pack: cards entered by hand from the "
                                "printed cards (in the user data folder; $FATE_ROYAL_PACK overrides).")
    sub = p.add_subparsers(dest="action", required=True)
    edit = sub.add_parser("edit", help="open the card editor")
    edit.add_argument("card", nargs="?", help="card id to edit (a pack card, or a shipped card to "
                      "correct); default: a new card")
    edit.add_argument("--kind", choices=("hero", "class", "mystic_code", "scene"),
                      default="mystic_code", help="kind of a new card")
    edit.add_argument("--lang", choices=("ja", "en"), help="language of the editor")
    sub.add_parser("list", help="list the cards of the personal pack")
    sub.add_parser("list-unknown", help="list every provisional field and not yet playable effect")
    exp = sub.add_parser("export", help="write the personal pack to FILE, to share")
    exp.add_argument("file")
    imp = sub.add_parser("import", help="add the cards of FILE to the personal pack")
    imp.add_argument("file")
    imp.add_argument("--dry-run", action="store_true", help="show what it would do; write nothing")
    return p


def edit_arguments(argv: list[str]) -> argparse.Namespace:
    """The options of ``fate-royal cards edit`` (argparse exits 2 on bad ones)."""
    return _parser().parse_args(["edit", *argv])


def _errors(exc: BaseException) -> int:
    if isinstance(exc, DataErrors):
        for e in exc.errors:
            print(e)
    else:
        print(exc)
    return 1


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    from fate_royal.cards import pack as packs

    try:
        if args.action == "list":
            return _list(packs)
        if args.action == "list-unknown":
            return _unknown(packs)
        if args.action == "export":
            path = packs.export_pack(args.file)
            print(f"exported {len(packs.read_pack().cards)} cards to {path}")
            return 0
        if args.action == "import":
            return _import(packs, args.file, args.dry_run)
        if args.action == "edit":  # the window is opened by fate_royal.cli (only it may use Qt)
            print("fate-royal cards edit: run it as `fate-royal cards edit`", file=sys.stderr)
            return 2
    except DataError as exc:
        return _errors(exc)
    except OSError as exc:
        print(f"fate-royal cards {args.action}: {exc}", file=sys.stderr)
        return 1
    return 2


def _list(packs) -> int:
    pack = packs.read_pack()
    print(f"personal card pack: {packs.pack_path()} ({len(pack.cards)} cards)")
    for card in pack.cards:
        replaces = " (corrects the shipped card)" if card.get("id") in pack.replaces else ""
        note = f" — {card.get('note')}" if card.get("note") else ""
        print(f"{card.get('id')} {card.get('name')}{replaces}{note}")
    return 0


def _unknown(packs) -> int:
    from fate_royal.cards.loader import load_card_db

    db = load_card_db()
    rows = packs.unknown_list(db)
    for card_id, path, why in rows:
        card = db.card(card_id)
        file, line = card.locations.get(path, (card.source_file, card.source_line))
        print(f"{file}:{line}: {card_id} {path} — {why}")
    print(f"{len(rows)} unknown entries")
    return 0


def _import(packs, file: str, dry_run: bool) -> int:
    plan = packs.plan_import(file)  # validates: DataErrors before anything is written
    print(f"{file}: adds {', '.join(plan.adds) or 'nothing'}; corrects shipped "
          f"{', '.join(plan.overrides_shipped) or 'nothing'}; replaces in your pack "
          f"{', '.join(plan.replaces_personal) or 'nothing'}")
    if dry_run:
        print("dry run: nothing written")
        return 0
    packs.save_pack(plan.merged)
    print(f"imported into {packs.pack_path()}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
