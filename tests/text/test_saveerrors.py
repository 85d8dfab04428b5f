"""Why a save or the autosave cannot be opened, in the reader's language (fate_royal/text/saveerrors.py):
the table's message box said "開けませんでした。現在のゲームはそのままです。" above an English reason. The
reasons here are real ones, made by the engine from broken, foreign, too new or too long files; in
Japanese each reads as Japanese, keeps the numbers, keys and card ids the engine wrote, and leaves no
English word behind; in English each stays exactly as the engine wrote it."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

from fate_royal.rules import record as record_module
from fate_royal.rules.game import Game
from fate_royal.rules.journal import JournalWriter, read_journal
from fate_royal.rules.save import SaveError, load_game, read_save
from fate_royal.rules.simulate import choose_action
from fate_royal.text.saveerrors import known, localize_refusal

#: what may stay in Latin letters in a Japanese reason: the game's name, a key the engine quotes, a
#: card id
ALLOWED = {"Fate", "Ace", "Royal", "state_digest", "M-901"}


@pytest.fixture
def base(three_player_save):
    return copy.deepcopy(three_player_save)


def _write(tmp_path, name, data) -> str:
    path = tmp_path / name
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def _reasons(tmp_path, base, db) -> dict[str, str]:
    """A refusal of every kind a person meets, as SaveError.message."""
    newer = {**base, "version": 99}
    no_key = {k: v for k, v in base.items() if k != "state_digest"}
    personal = copy.deepcopy(base)
    personal["personal_cards"] = [{"id": "M-901", "name": "試しの礼装"}]
    changed = {**base, "cards_fingerprint": "0" * 16}
    bad_action = copy.deepcopy(base)
    first = bad_action["record"]["actions"][0]
    first["player"] = (first["player"] + 1) % 3  # a seat that is not the one to act
    digest = {**base, "state_digest": "f" * 16}
    files = {
        "empty": ("", "read"),
        "not text": (b"\xff\xfe\x00garbage", "read"),
        "not json": ('{"format": "fate_royal-save", ', "read"),
        "extra data": ('{"a": 1} x', "read"),
        "nested": ("[" * 100_000 + "]" * 100_000, "read"),
        "long number": ('{"format": "fate_royal-save", "version": ' + "9" * 5000 + "}", "read"),
        "not a save": ("[1, 2, 3]", "read"),
        "newer": (newer, "read"),
        "no version": ({**base, "version": "two"}, "read"),
        "unknown version": ({**base, "version": 0}, "read"),
        "key missing": (no_key, "read"),
        "personal cards": (personal, "load"),
        "cards changed": (changed, "load"),
        "replay failed": (bad_action, "load"),
        "replay differs": (digest, "load"),
    }
    got = {}
    for name, (data, how) in files.items():
        path = _write(tmp_path, name.replace(" ", "_") + ".json", data)
        with pytest.raises(SaveError) as err:
            read_save(path) if how == "read" else load_game(path, lambda *_a: db)
        got[name] = (err.value.message, err.value.reason) if name == "replay failed" else err.value.message
    return got


def _journal_reasons(tmp_path, db, rules, monkeypatch) -> dict[str, str]:
    g = Game.new(db, rules, ["A", "B"], seed=5)
    chooser = random.Random(5)
    path = tmp_path / "auto.jsonl"
    for _ in range(5):
        g.apply(choose_action(chooser, g.legal_actions()))
    writer = JournalWriter(path)
    writer.update(g)
    assert writer.close()
    lines = path.read_text(encoding="utf-8").splitlines()
    cases = {
        "autosave first line": "not json\n" + "\n".join(lines[1:]),
        "autosave line": "\n".join(lines[:2] + ["{broken"] + lines[3:]),
        "autosave not one": json.dumps({"format": "x"}) + "\n",
        "autosave entry": "\n".join(lines[:1] + lines[2:]),
    }
    got = {}
    for name, text in cases.items():
        p = tmp_path / (name.replace(" ", "_") + ".jsonl")
        p.write_text(text + "\n", encoding="utf-8")
        with pytest.raises(SaveError) as err:
            read_journal(p)
        got[name] = err.value.message
    monkeypatch.setattr(record_module, "MAX_ACTIONS", 3)
    import fate_royal.rules.journal as journal_module
    monkeypatch.setattr(journal_module, "MAX_ACTIONS", 3)
    with pytest.raises(SaveError) as err:
        read_journal(path)
    got["autosave too many"] = err.value.message
    return got


def test_every_refusal_a_person_meets_reads_as_japanese(tmp_path, base, db, rules, monkeypatch):
    reasons = {**_reasons(tmp_path, base, db), **_journal_reasons(tmp_path, db, rules, monkeypatch)}
    assert len(reasons) == 20
    # the action the replay refused is worded by its reason code, as the table words a refusal
    refused, code = reasons.pop("replay failed")
    assert refused == "replay failed at action 1: it is seat 2's decision, not seat 0's [D6]"
    assert code == "not_your_turn"
    # said of the recorded seat, not of the reader ("あなたの選択番" addressed whoever opened the file)
    assert localize_refusal(refused, "ja", code) == "1番目のアクションを再生できません：その席の選択番ではありません [D6]"
    assert localize_refusal(refused, "en", code) == refused
    # without the code (a message read back from a log) the engine's sentence stays inside the frame
    assert localize_refusal(refused, "ja") == "1番目のアクションを再生できません：" + refused.split(": ", 1)[1]
    for name, message in reasons.items():
        assert known(message), (name, message)
        assert localize_refusal(message, "en") == message
        ja = localize_refusal(message, "ja")
        words = set(re.findall(r"[A-Za-z][A-Za-z0-9_.:-]*[A-Za-z0-9]", ja)) - ALLOWED
        assert not words, (name, message, ja)
        for number in re.findall(r"\d+", message.replace("UTF-8", "")):  # every number is kept
            assert number in ja, (name, message, ja)
    assert localize_refusal(reasons["newer"], "ja") == (
        "新しいバージョンの Fate/Ace Royal テーブルで保存されています（形式 99。このバージョンが読めるのは 2 まで）。"
        "更新してから開いてください")
    assert localize_refusal(reasons["personal cards"], "ja").startswith(
        "このゲームでは、あなたのカードパックにない個人カードが使われています：M-901")


def test_a_setup_problem_is_worded_as_a_scenario_s():
    """A save whose setup the checker refuses said the checker's English inside the Japanese frame."""
    message = "damaged save: its setup cannot be played (player 'A': mana 120 is above the maximum 99)"
    assert localize_refusal(message, "ja") == (
        "保存ファイルが壊れています：その開始局面ではゲームを始められません"
        "（プレイヤー「A」：「mana」の120は上限の99を超えています）")
    message = "damaged save: impossible start position: A: mana 9 outside 0..5; the winner has dropped out"
    assert localize_refusal(message, "ja") == (
        "保存ファイルが壊れています：ありえない開始局面です：A：魔力 9が0〜5の範囲の外です；勝者が脱落しています")
    assert localize_refusal(message, "en") == message


def test_a_detail_with_no_wording_stays_inside_a_reworded_frame():
    message = "damaged save: its setup cannot be played (a problem of tomorrow)"
    assert localize_refusal(message, "ja") == (
        "保存ファイルが壊れています：その開始局面ではゲームを始められません（a problem of tomorrow）")
    assert not known("damaged save: something new")
    assert localize_refusal("damaged save: something new", "ja") == "保存ファイルが壊れています：something new"
    assert localize_refusal("a sentence of tomorrow", "ja") == "a sentence of tomorrow"
