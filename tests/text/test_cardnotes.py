"""Every provenance note of the shipped cards has its Japanese wording (assets/i18n/cardnotes.ja.yaml),
and that file holds no note the cards no longer carry."""

from __future__ import annotations

import re

from fate_royal.cards import load_card_db
from fate_royal.text.catalog import _card_notes, card_note

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def shipped_notes() -> set[str]:
    db = load_card_db()
    notes = {n for c in db.cards.values() for n in c.notes.values()}
    notes |= {n for ch in db.chips.values() for n in getattr(ch, "notes", {}).values()}
    return {n for n in notes if n}


def test_every_english_note_has_its_japanese_wording():
    english = {n for n in shipped_notes() if not n.startswith("E9.")}  # E9.x: the errata's own words
    missing = sorted(n for n in english if card_note(n, "ja") == n)
    assert missing == []
    assert all(JAPANESE.search(card_note(n, "ja")) for n in english)


def test_no_stale_wording_and_english_stays_as_written():
    assert set(_card_notes("ja")) <= shipped_notes()
    note = "printed window unknown"
    assert card_note(note, "en") == note and card_note(note, "ja") == "印刷された使えるタイミングは不明"
    assert card_note("a group's own note", "ja") == "a group's own note"  # not in the file: as written
    assert card_note("", "ja") == ""
