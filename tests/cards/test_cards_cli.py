"""``fate-royal cards list|list-unknown|export|import`` and the deck counts of ``fate-royal check``."""

from __future__ import annotations

import pytest

from fate_royal.cli import main
from fate_royal.cards.pack import empty_pack, read_pack, save_pack, with_card
from packhelp import NEW_CODE


@pytest.fixture
def my_pack(tmp_path, monkeypatch):
    path = tmp_path / "data" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(path))
    return path


def test_check_reports_known_entered_and_padded(my_pack, capsys):
    assert main(["check"]) == 0
    assert "deck: 8 known, 0 entered, 32 padded (D1); 0 personal cards" in capsys.readouterr().out
    save_pack(with_card(empty_pack(), NEW_CODE))
    assert main(["check"]) == 0
    assert "deck: 8 known, 1 entered, 31 padded (D1); 1 personal cards" in capsys.readouterr().out


def test_list_unknown_names_file_and_line(my_pack, capsys):
    assert main(["cards", "list-unknown"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any(line.startswith("cards/heroes/H-002.yaml:") and " H-002 stats.pa — " in line
               for line in lines)
    assert lines[-1].endswith("unknown entries")


def test_export_then_import_elsewhere(my_pack, tmp_path, monkeypatch, capsys):
    save_pack(with_card(empty_pack(), NEW_CODE))
    out = tmp_path / "ours.yaml"
    assert main(["cards", "export", str(out)]) == 0
    fresh = tmp_path / "fresh" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(fresh))
    assert main(["cards", "import", str(out), "--dry-run"]) == 0
    assert "adds M-002" in capsys.readouterr().out and not fresh.exists()
    assert main(["cards", "import", str(out)]) == 0
    assert read_pack().ids() == ["M-002"]
    assert main(["cards", "list"]) == 0
    assert "M-002 試作礼装 — typed in from my box" in capsys.readouterr().out


def test_a_broken_import_prints_file_line_and_writes_nothing(my_pack, tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: fate_royal-card-pack\ncards:\n  - id: M-003\n    kind: scene\n"
                   "    name: x\n", "utf-8")
    assert main(["cards", "import", str(bad)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{bad.as_posix()}:3: ") and "M-003" in out
    assert not my_pack.exists()


def test_check_says_when_a_corrected_shipped_card_has_changed_since(my_pack, capsys):
    from fate_royal.cards.pack import read_pack, save_pack as write

    hero = {"id": "H-002", "kind": "hero", "name": "エミヤ", "name_en": "EMIYA",
            "stats": {"pa": 4, "pd": 4, "ma": 3, "md": 3},
            "classes": ["アーチャー", "キャスター", "アサシン", "バーサーカー"]}
    write(with_card(empty_pack(), hero))
    assert main(["check"]) == 0
    assert "changed since" not in capsys.readouterr().out
    pack = read_pack()
    pack.replaces["H-002"] = dict(pack.replaces["H-002"], name="エミヤ（旧）")
    write(pack)
    assert main(["check"]) == 0
    assert f"{my_pack.as_posix()}:0: H-002 corrects a shipped card that has changed since" in \
        capsys.readouterr().out


def test_cards_edit_options_are_checked_before_a_window_opens(monkeypatch, capsys):
    import fate_royal.qt.card_editor as card_editor

    opened = []
    monkeypatch.setattr(card_editor, "run_editor", lambda card, kind, lang: opened.append(
        (card, kind, lang)) or 0)
    assert main(["cards", "edit", "H-002", "--lang", "en"]) == 0
    assert opened == [("H-002", "mystic_code", "en")]
    with pytest.raises(SystemExit) as info:
        main(["cards", "edit", "--kind", "dragon"])
    assert info.value.code == 2
