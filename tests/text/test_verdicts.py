"""The scenario checker's findings (English, parts joined by "; ") said again in the reader's
language (fate_royal/text/verdicts.py): by the table for a failed ruling and by ``fate-royal run
--lang ja``. A finding in a form with no words there is left out; English keeps the checker's
own text."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.text import Words
from fate_royal.text.verdicts import failure_details

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("finding, ja, en", [
    ("command_spells: expected 0, got 1; log does not cite E4.2 since the previous check (cited: D6)",
     "令呪は1（0のはず）、E4.2が引用されていない", "command spells is 1 (expected 0), E4.2 not cited"),
    ("coins.assassination: expected 1, got 0", "暗殺コインの枚数は0（1のはず）",
     "Assassination coins is 0 (expected 1)"),
    ("servant_state: expected 'reverse', got 'down'", "サーヴァントの状態はダウン（リバースのはず）", None),
    ("out: expected True, got False; log cites E4.1 but should not",
     "脱落はいいえ（はいのはず）、E4.1が引用されている（引用されないはず）", None),
    ("refused, but by rule E1.5 (servant_danger), not B3",
     "E1.5によって拒否（デンジャー状態のサーヴァントは襲撃を宣言できません）、B3ではない", None),
    ("B: use card=16 effect=1 targets=() was allowed", "許された（拒否されるはず）", None),
    ("illegal action: M-007 cannot be used now (ritual_own_turn) [E2.1]", "儀式ステップの効果は自分のターンのみ",
     None),
    ("the refused action changed the state", "", ""),
])
def test_findings_in_words(finding, ja, en):
    assert failure_details(finding, Words("ja")) == ja
    if en is not None:
        assert failure_details(finding, Words("en")) == en


def test_run_in_japanese_reports_failed_checks_in_japanese(capsys):
    from fate_royal.commands.run import main

    path = ROOT / "scenarios" / "rulings" / "E4-command-spells.yaml"
    assert main(["--no-errata", "--lang", "ja", str(path)]) == 1  # written for the errata
    out = capsys.readouterr().out
    assert "→ 令呪は1（0のはず）、E4.2が引用されていない" in out
    assert "→ 許された（拒否されるはず）" in out
    assert "expected" not in out
    assert main(["--no-errata", str(path)]) == 1  # English: the checker's own words
    assert "command_spells: expected 0, got 1" in capsys.readouterr().out
