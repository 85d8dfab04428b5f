"""The scenario checker's findings (``scenario_run.Finding``) said in the reader's language
(fate_royal/text/verdicts.py): by the table for a failed ruling and by ``fate-royal run --lang
ja``. A step that could not be played at all has no words there; English keeps the checker's own
text."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.rules.scenario_run import FINDING_KINDS, Finding
from fate_royal.text import Words
from fate_royal.text.verdicts import failure_details, finding_words

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def db():
    from fate_royal.cards import load_card_db

    return load_card_db()


def mismatch(key, want, got):
    return Finding("mismatch", f"{key}: expected {want!r}, got {got!r}", key=key, want=want, got=got)


@pytest.mark.parametrize("findings, ja, en", [
    ([mismatch("command_spells", 0, 1), Finding("not_cited", "…", rule="E4.2", got=["D6"])],
     "令呪は1（0のはず）、E4.2が引用されていない", "command spells is 1 (expected 0), E4.2 not cited"),
    ([mismatch("coins.assassination", 1, 0)], "暗殺コインの枚数は0（1のはず）",
     "Assassination coins is 0 (expected 1)"),
    ([mismatch("servant_state", "reverse", "down")], "サーヴァントの状態はダウン（リバースのはず）", None),
    ([mismatch("out", True, False), Finding("cited", "…", rule="E4.1")],
     "脱落はいいえ（はいのはず）、E4.1が引用されている（引用されないはず）", None),
    ([mismatch("pending", None, "priority"), mismatch("step", "combat", "ritual")],
     "選択待ちは対応ウィンドウ（優先権）（—のはず）、ステップは儀式ステップ（戦闘ステップのはず）", None),
    ([Finding("other_rule", "…", want="B3", rule="E1.5", reason="servant_danger")],
     "E1.5によって拒否（デンジャー状態のサーヴァントは襲撃を宣言できません）、B3ではない", None),
    ([Finding("other_rule", "…", want="D5", rule="", reason="not_allowed_now")],
     "—によって拒否（今はできません）、D5ではない", None),
    ([Finding("other_reason", "…", want="servant_down", rule="D6", reason="not_your_turn")],
     "拒否の理由が「あなたの選択番ではありません」（「ダウン状態のサーヴァントは襲撃を宣言できません」のはず）", None),
    ([Finding("allowed", "B: use card=16 effect=1 targets=() was allowed")], "許された（拒否されるはず）",
     "allowed (it should be refused)"),
    ([Finding("illegal", "…", rule="E2.1", reason="ritual_own_turn")], "儀式ステップの効果は自分のターンのみ",
     None),
    ([Finding("changed_state", "the refused action changed the state", rule="D6", reason="x")],
     "拒否されたのに状態が変わった", "refused, yet the state changed"),
    ([Finding("not_over", "…", key="winner", want="A")], "ゲームはまだ終わっていない（勝者はAのはず）",
     "the game is not over (the winner should be A)"),
    ([Finding("zone", "…", key="S-001", want="discard", got=["deck", "hand"])],
     "ガンドの場所は山札、手札（捨て札のはず）",
     "Gandr is in: Deck, Hand (expected Discard pile)"),
    ([Finding("zone", "…", key="S-001", want="removed", got=[])], "ガンドの場所は—（ゲームから除外のはず）", None),
    ([Finding("blocked", "…", key="combat", got="discard", player="A")],
     "戦闘ステップまで進めない（先にAが捨てるカードを選ぶ）",
     "cannot advance to Combat step: A must choose a card to discard first"),
    ([Finding("blocked", "…", key="raid", got="attack", player="D")], "襲撃まで進めない（先にDが攻撃の種類を選ぶ）",
     None),
    ([Finding("ended", "…", key="raid")], "襲撃の前にゲームが終わった", None),
    ([mismatch("winner", "none", "C")], "勝者はC（勝者なしのはず）", None),
    # a step that cannot be played as written: worded as a broken scenario is
    ([Finding("error", "no card 'S-0001' (did you mean 'S-001'?)")], "カード「S-0001」はありません（「S-001」のことですか？）",
     "no card 'S-0001' (did you mean 'S-001'?)"),
    ([Finding("error", "M-006 (copy 2) is not in A's hand")], "M-006（2枚目）はAの手札にありません",
     "M-006 (copy 2) is not in A's hand"),
    ([Finding("error", "internal error: KeyError: 3")], "", ""),  # an engine error: the step is named
])
def test_findings_in_words(findings, ja, en, db):
    assert failure_details(findings, Words("ja", db)) == ja
    if en is not None:
        assert failure_details(findings, Words("en", db)) == en


def test_every_kind_but_an_unknown_error_has_words_in_both_languages():
    for kind in FINDING_KINDS:
        got = ["deck"] if kind == "zone" else 2
        f = Finding(kind, "…", key="mana", want=1, got=got, rule="D6", reason="not_your_turn")
        for lang in ("ja", "en"):
            said = finding_words(f, Words(lang))
            assert bool(said) == (kind != "error"), (kind, lang, said)
            assert "{" not in said and "[" not in said, (kind, lang, said)


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


def test_run_in_japanese_says_a_broken_file_s_problems_in_japanese(tmp_path, capsys):
    from fate_royal.commands.run import main

    bad = tmp_path / "typo.yaml"
    bad.write_text((ROOT / "scenarios" / "demos" / "E1.3-demo-reverse-never-down.yaml").read_text(encoding="utf-8")
                   .replace("state: reverse}", "state: exploded}", 1), encoding="utf-8")
    assert main(["--lang", "ja", str(bad)]) == 1
    out = capsys.readouterr().out
    assert f"  {bad}:16: サーヴァントの「state」はreverse、rise、down、dangerのどれかです（今は「exploded」）" in out
    assert main([str(bad)]) == 1  # English by default: the loader's own words
    assert f"  {bad}:16: servant state must be reverse, rise, down or danger, got 'exploded'" in capsys.readouterr().out
