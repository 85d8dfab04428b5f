"""Helpers for the card-data tests: a private copy of the shipped cards/ to break one thing in."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from fate_royal.cards import DataErrors, load_card_db
from fate_royal.paths import cards_dir

SHIPPED = cards_dir()


class CardsCopy:
    def __init__(self, root: Path) -> None:
        self.root = root

    def path(self, rel: str) -> Path:
        return self.root / rel

    def label(self, rel: str) -> str:
        return (self.root / rel).as_posix()

    def edit(self, rel: str, old: str, new: str) -> int:
        """Replace the first ``old`` in a file by ``new``; returns the line number of the change."""
        p = self.root / rel
        text = p.read_text("utf-8")
        assert old in text, f"{old!r} not in {rel}"
        line = text[: text.index(old)].count("\n") + 1
        p.write_text(text.replace(old, new, 1), "utf-8")
        return line

    def line_of(self, rel: str, fragment: str) -> int:
        for n, line in enumerate((self.root / rel).read_text("utf-8").splitlines(), 1):
            if fragment in line:
                return n
        raise AssertionError(f"{fragment!r} not in {rel}")

    def errors(self, **kw) -> list[str]:
        with pytest.raises(DataErrors) as info:
            load_card_db(self.root, **kw)
        return [str(e) for e in info.value.errors]


@pytest.fixture
def cards(tmp_path: Path) -> CardsCopy:
    root = tmp_path / "cards"
    shutil.copytree(SHIPPED, root, ignore=shutil.ignore_patterns("rules-reference.yaml"))
    return CardsCopy(root)

