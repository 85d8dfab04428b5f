"""Hostile files at start-up: a damaged autosave is simply not offered (the table starts), and a
save named on the command line that cannot be opened is one line naming the file — not the
message box's text in the table's language with a blank line."""

from __future__ import annotations

import json
import random

import pytest

from fate_royal import cli
from fate_royal.qt import i18n
from fate_royal.qt.app import refusal_line
from fate_royal.rules.game import Game
from fate_royal.rules.journal import JournalWriter
from fate_royal.rules.save import save_game
from fate_royal.rules.simulate import choose_action

BIG = "9" * 5000


@pytest.fixture
def language():
    yield i18n.set_language
    i18n.set_language("ja")


def test_the_command_line_reason_is_the_first_line_of_the_loaders_reason():
    assert refusal_line("a.json: damaged save: no format version") == "a.json: damaged save: no format version"
    assert refusal_line("a.json: x\nb\n\n c ") == "a.json: x (and 2 more)"
    assert refusal_line("") == ""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_refused_save_keeps_the_loaders_reason_beside_the_translated_message(
        language, lang, tmp_path, qtbot):
    """The command line printed the message box's text with its translated preamble cut off by
    matching the catalog's wording; it now prints the reason the loader gave."""
    from fate_royal.qt import rulings
    from fate_royal.qt.controller import GameController
    from fate_royal.qt.window import MainWindow

    language(lang)
    win = MainWindow(GameController())
    qtbot.addWidget(win)
    features = rulings.install(win, win.controller)
    features.show_dialogs = False
    features.keeper.enabled = False
    bad = tmp_path / "bad.json"
    bad.write_text("{}", encoding="utf-8")
    assert not features.open_save(bad, allow_changed_cards=False)
    assert features.last_refusal == f"{bad}: not a fate_royal save (no 'format: fate_royal-save' field)"
    shown = {"en": features.last_refusal,  # the message box gives the reason in the table's language
             "ja": f"{bad}: Fate/Ace Royal の保存ファイルではありません（保存ファイルであることを示す項目がありません）"}
    assert features.last_message == ("error", i18n.tr("rulings.save.refused", reason=shown[lang]))
    assert refusal_line(features.last_refusal) == features.last_refusal
    journal = tmp_path / "auto.jsonl"
    journal.write_text("not json\n", encoding="utf-8")
    assert not features.keeper.resume(journal)
    assert features.last_refusal == f"{journal}:1: damaged autosave: its first line is not readable"
    shown = {"en": features.last_refusal, "ja": f"{journal}:1: 自動保存が壊れています：1行目が読めません"}
    assert features.last_message == ("error", i18n.tr("keeper.resume.failed", reason=shown[lang]))


def _base_save(tmp_path, db, rules, **mana):
    g = Game.new(db, rules, ["A", "B", "C"], seed=3)
    data = json.loads(save_game(g, tmp_path / "base.json").read_text(encoding="utf-8"))
    data["record"]["setup"]["players"][0].update(mana)
    data["state_digest"] = ""
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_a_save_that_cannot_be_opened_from_the_command_line_is_one_line(capsys, tmp_path, db, rules,
                                                                         language, lang):
    path = _base_save(tmp_path, db, rules, mana=10_000_000)
    status = cli.main(["--lang", lang, "--load", str(path), "--screenshot", str(tmp_path / "x.png")])
    assert status == 1
    assert capsys.readouterr().err == (f"fate-royal: {path}: damaged save: its setup cannot be played "
                                       "(player 'A': mana 10000000 is above the maximum 99)\n")
    assert not (tmp_path / "x.png").exists()


def _journal(path, db, rules):
    g = Game.new(db, rules, ["A", "B", "C"], seed=3, auto_pass=False)
    chooser = random.Random(3)
    for _ in range(4):
        g.apply(choose_action(chooser, g.legal_actions()))
    w = JournalWriter(path)
    w.update(g)
    assert w.close()
    return path


def test_an_autosave_with_a_number_python_will_not_read_opens_as_one_line(capsys, tmp_path, db, rules,
                                                                         language):
    path = _journal(tmp_path / "autosave.jsonl", db, rules)
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2].replace('"turn": 1', f'"turn": {BIG}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    status = cli.main(["--lang", "en", "--load", str(path), "--screenshot", str(tmp_path / "x.png")])
    assert status == 1
    assert capsys.readouterr().err == f"fate-royal: {path}:3: damaged autosave: a number has more than 4300 digits\n"


@pytest.fixture
def keeper(qtbot):
    from fate_royal.qt import rulings
    from fate_royal.qt.controller import GameController
    from fate_royal.qt.window import MainWindow

    controller = GameController()
    win = MainWindow(controller)
    qtbot.addWidget(win)
    features = rulings.install(win, controller)
    features.show_dialogs = False
    asked = []
    features.keeper.ask = lambda kind, text, choices: asked.append(kind) or "resume"
    features.keeper.asked = asked
    yield features.keeper
    features.keeper.shutdown()


def test_a_damaged_autosave_is_not_offered_at_start(keeper, tmp_path, db, rules):
    """A number of 5000 digits in the autosave crashed the table at every start."""
    path = _journal(tmp_path / "autosave.jsonl", db, rules)
    keeper.path_override = path
    assert keeper.pending_resume() is not None  # the good journal is offered
    lines = path.read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace('"version": 1', f'"version": 1, "x": {BIG}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert keeper.pending_resume() is None
    assert keeper.offer_resume() is False and keeper.asked == []


def test_whatever_reading_the_autosave_raises_the_table_starts(keeper, tmp_path, db, rules, monkeypatch):
    import fate_royal.rules.journal as journal

    keeper.path_override = _journal(tmp_path / "autosave.jsonl", db, rules)

    def broken(path):
        raise RuntimeError("something no one foresaw")

    monkeypatch.setattr(journal, "journal_summary", broken)
    assert keeper.pending_resume() is None
    assert keeper.offer_resume() is False and keeper.asked == []
