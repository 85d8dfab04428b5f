"""A broken scenario, and a save whose setup cannot be played, in the reader's language
(fate_royal/text/dataerrors.py). Opening a demo someone broke while editing it, a Japanese table said
"シナリオを開けませんでした：" above the checker's English ("servant state must be reverse, rise, down
or danger, got 'exploded'"). The problems here are real ones, made by the scenario loader and the
engine from a shipped demo changed one key at a time; in Japanese each reads as Japanese and keeps
the file, the line, the keys, values and card ids; in English each stays as the loader wrote it."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
import yaml

from fate_royal.cards import DataError
from fate_royal.rules.save import SaveError, load_game
from fate_royal.rules.scenario import ScenarioError, load_scenario
from fate_royal.text.dataerrors import known, localize, localize_error
from wording import worded

DEMO = Path(__file__).resolve().parents[2] / "scenarios" / "demos" / "E1.3-demo-reverse-never-down.yaml"


def _player(i: int, **changes):
    def change(d):
        d["players"][i].update(changes)
    return change


def _servant(i: int, **changes):
    def change(d):
        d["players"][i]["servant"].update(changes)
    return change


def _top(**changes):
    return lambda d: d.update(changes)


def _start(**changes):
    return lambda d: d["start"].update(changes)


def _step(step):
    return lambda d: d["steps"].append(step)


#: one broken key each; every one of them a problem a person typing a demo makes
BROKEN = {
    "unknown top key": _top(titel="x"),
    "players not a list": _top(players="A"),
    "one player": lambda d: d.update(players=d["players"][:1]),
    "eight players": _top(players=[{"name": f"P{i}"} for i in range(8)]),
    "unknown hero": _servant(0, hero="H-999"),
    "hero that is no hero": _servant(0, hero="S-001"),
    "unknown class": _servant(0, **{"class": "ニンジャ"}),
    "unknown state": _servant(0, state="exploded"),
    "unknown card in a hand": _player(0, hand=["S-999"]),
    "hand not a list": _player(0, hand=5),
    "mana above the limit": _player(0, mana=99),
    "mana below zero": _player(0, mana=-4),
    "coins below zero": _player(0, coins={"assassination": -4}),
    "coins as a list": _player(0, coins={"assassination": [1]}),
    "unknown coin": _player(0, coins={"gold": 1}),
    "two players called A": _player(1, name="A"),
    "a name too long": _player(1, name="B" * 40),
    "an empty name": _player(1, name=""),
    "unknown key of a player": _player(0, mnaa=1),
    "servant not a mapping": _player(0, servant="H-001"),
    "seat not a list": _player(0, seat="M-006"),
    "seat card a number": _player(0, seat=[5]),
    "seat card a list": _player(0, seat=[["M-006"]]),
    "seat card without its card": _player(0, seat=[{"state": "down"}]),
    "seat card in danger": _player(0, seat=[{"card": "M-006", "state": "danger"}]),
    "unknown start player": _start(player="Z"),
    "unknown start step": _start(step="lunch"),
    "start turn a list": _start(turn=[1]),
    "deck a number": _top(deck=5),
    "discard a number": _top(discard=7),
    "dice a word": _top(dice="four"),
    "a die of seven": _top(dice=[7]),
    "seed a word": _top(seed="x"),
    "errata a word": _top(errata="maybe"),
    "unknown rule set": _top(rules="nope"),
    "unknown step key": _step({"dance": 1}),
    "unknown action": _step({"do": {"player": "A", "action": "fly"}}),
    "do without an action": _step({"do": {"player": "A"}}),
    "advance nowhere": _step({"advance": "lunch"}),
    "expect not a mapping": _step({"expect": 3}),
    "unknown expect key": _step({"expect": {"player": "A", "happiness": 3}}),
    "steps not a list": _top(steps=3),
}

#: Latin words a Japanese problem may keep besides what the loader quoted: the keys of the file the
#: sentence names for the reader to find, YAML's true and false, card ids
KEYS = {"players", "deck", "discard", "grail", "hand", "mana", "dice", "seed", "errata", "coins", "servant", "hero", "class", "state", "seat",
        "card", "start", "player", "step", "turn", "true", "false", "do", "action", "advance", "expect",
        "steps", "title", "assassination", "down", "name"}


def _problems(tmp_path: Path, change) -> list[DataError | ScenarioError]:
    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    try:
        load_scenario(path).build_game()
    except DataError as exc:
        return list(getattr(exc, "errors", [exc]))
    except ScenarioError as exc:
        return [exc]
    return []


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_each_broken_scenario_gets_its_problem_in_japanese(tmp_path, case):
    problems = _problems(tmp_path, BROKEN[case])
    assert problems, f"{case}: the scenario loaded"
    for problem in problems:
        message = problem.message
        assert known(message), f"no Japanese wording for: {message}"
        assert localize(message, "en") == message
        ja = localize(message, "ja")
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), ja
        quoted = (set(re.findall(r"'([^']*)'", message)) | set(re.findall(r"\(\w+: ([^()]*)\)", message))
                  | set(re.findall(r"\b[a-z_]+(?:, [a-z_]+)+(?: or [a-z_]+)?", message)))  # the values to type
        leftover = [w for w in re.findall(r"[A-Za-z_][A-Za-z_.]+", ja)
                    if w not in KEYS and not any(w in q for q in quoted)
                    and not re.fullmatch(r"[A-Z]+-?\d*", w) and w.split(".")[0] not in KEYS]
        assert not leftover, f"{case}: {ja!r} keeps English {leftover}"
        for number in re.findall(r"\d+", message):  # every number the loader gave is kept
            assert number in ja, (case, message, ja)
        # the table's text: the file and line as the loader placed them, the problem in Japanese
        shown = localize_error(problem, "ja")
        assert shown == f"{problem.file}:{problem.line}: {ja}"
        assert localize_error(problem, "en") == str(problem)


def test_the_words_of_a_few_problems():
    ja = {case: localize(p.message, "ja") for case in ("unknown state", "unknown start player", "one player",
                                                       "hero that is no hero", "mana above the limit")
          for p in _problems_of(case)}
    assert ja["unknown state"] == "サーヴァントの「state」はreverse、rise、down、dangerのどれかです（今は「exploded」）"
    assert ja["unknown start player"] == "開始プレイヤー「Z」がいません（プレイヤー：A, B）"
    assert ja["one player"] == "ゲームには2〜7人のプレイヤーが必要です（今は1人）"
    assert ja["hero that is no hero"] == "この開始局面は用意できません：S-001は英霊カードではありません"
    assert ja["mana above the limit"] == "ありえない開始局面です：A：魔力 99が0〜5の範囲の外です"


def _problems_of(case: str):
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        return _problems(Path(folder), BROKEN[case])


def test_every_problem_of_a_broken_scenario_is_shown_each_on_its_line(tmp_path):
    def change(d):
        d["players"][0]["mana"] = -4
        d["players"][1]["servant"]["state"] = "exploded"
        d["dice"] = [7]
    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "broken.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_scenario(path)
    lines = localize_error(err.value, "ja").splitlines()
    assert len(lines) == 3 and all(line.startswith(f"{path}:") for line in lines)
    assert any("ダイスの目の7は上限の6を超えています" in line for line in lines)
    assert localize_error(err.value, "en") == str(err.value)
    # an error that is not a data file's comes back as it reads (its sentence worded when known)
    assert localize_error(ValueError("something else"), "ja") == "something else"
    assert localize_error(FileNotFoundError("no such scenario file: x.yaml"), "ja") == \
        "シナリオファイル x.yaml がありません"


def test_a_save_whose_setup_cannot_be_played_says_why_in_japanese(tmp_path, three_player_save, db):
    from fate_royal.text.saveerrors import localize_refusal

    data = copy.deepcopy(three_player_save)
    data["record"]["setup"]["players"][0]["servant"] = {"hero": "S-001", "class": "C-001"}
    path = tmp_path / "friend.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SaveError) as err:
        load_game(path, lambda *_a: db)
    message = err.value.message
    assert message == "damaged save: its setup cannot be played (S-001 is not a hero card)"
    assert localize_refusal(message, "ja") == (
        "保存ファイルが壊れています：その開始局面ではゲームを始められません（S-001は英霊カードではありません）")


#: a step of a demo that cannot be played as written (the scenario loads; the step fails when run)
BROKEN_STEPS = {
    "no such player": {"do": {"player": "Q", "action": "pass"}},
    "a card not in the hand": {"do": {"player": "A", "action": "play", "card": "M-006"}},
    "a second copy not in the hand": {"do": {"player": "A", "action": "play", "card": "S-001#2"}},
    "no such card": {"do": {"player": "A", "action": "use", "card": "S-999"}},
    "no such effect": {"do": {"player": "A", "action": "use", "card": "S-001", "effect": "zzz"}},
    "no such attack type": {"do": {"player": "A", "action": "attack", "type": "fire"}},
    "no such spell": {"do": {"player": "A", "action": "spell", "kind": "boom"}},
    "no choice to make": {"do": {"player": "A", "action": "choose", "card": "S-001"}},
    "no such stat": {"expect": {"player": "A", "stats": {"xx": 1}}},
    "copy number 0": {"do": {"player": "A", "action": "play", "card": "S-001#0"}},
    "a target nobody is": {"do": {"player": "A", "action": "use", "card": "S-001", "targets": ["Z"]}},
    "a check without its card": {"expect": {"player": "A", "card_state": "down"}},
}


@pytest.mark.parametrize("case", sorted(BROKEN_STEPS))
def test_a_demo_step_that_cannot_be_played_says_why_in_japanese(tmp_path, case):
    from fate_royal.rules.scenario_run import ScenarioRun
    from fate_royal.text.verdicts import failure_details
    from fate_royal.text.words import Words

    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    data["steps"] = [BROKEN_STEPS[case]]
    path = tmp_path / "step.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    run = ScenarioRun(load_scenario(path))
    res = run.forward()
    assert not res.ok and [f.kind for f in res.findings] == ["error"]
    (finding,) = res.findings
    assert known(finding.text), finding.text
    ja = failure_details(res.findings, Words("ja", run.game.ctx.db))
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja), ja
    assert not re.search(r"\b(?:is|not|no|has|must|called|needs|the)\b", ja), ja
    assert failure_details(res.findings, Words("en", run.game.ctx.db)) == finding.text


def test_a_comparison_side_that_cannot_be_set_up_says_why_in_japanese(tmp_path):
    """The errata comparison and the sweep show "cannot set up the position: …" with the scenario's
    own error inside, its file and line kept."""
    from fate_royal.rules.compare import run_scenario_side

    data = yaml.safe_load(DEMO.read_text(encoding="utf-8"))
    data["players"][0]["servant"]["hero"] = "S-001"
    path = tmp_path / "side.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    side = run_scenario_side(load_scenario(path), True)
    assert side.error.startswith(f"cannot set up the position: {path}:")
    ja = localize(side.error, "ja")
    assert ja.startswith(f"局面を用意できません：{path}:") and ja.endswith("S-001は英霊カードではありません")
    assert localize(side.error, "en") == side.error


#: the YAML mistakes people make typing a data file by hand, and what the reader says of them
BROKEN_YAML = {
    "a tab in the indentation": "title: x\nplayers:\n\t- name: A\n",
    "a missing colon": "title: x\nplayers\n  - name: A\n",
    "a colon inside a value": "title: a: b\n",
    "an unclosed quote": "title: \"abc\nplayers: []\n",
    "an unclosed list": "players: [A, B\n",
    "an unclosed mapping": "servant: {hero: H-001\n",
    "a key indented too far": "title: x\n  players: []\n",
    "a list item indented too little": "players:\n  - name: A\n - name: B\n",
    "an undefined alias": "a: *x\n",
    "an unknown escape": "title: \"\\q\"\n",
    "a second document": "a: 1\n---\nb: 2\n",
    "a key twice": "title: x\ntitle: y\n",
    "an !!int that is not one": "seed: !!int abc\n",
    "a recursive alias": "a: &a [*a]\n",
    "an alias of a list": "a: &a [1]\nb: *a\n",
    "a python tag": "title: !!python/object/apply:os.system [\"echo\"]\n",
    "an empty file": "",
    "not UTF-8": b"\xff\xfe\x00garbage",
    "a half surrogate": "title: \"\\ud800\"\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN_YAML))
def test_a_yaml_mistake_is_said_in_japanese(tmp_path, case):
    text = BROKEN_YAML[case]
    path = tmp_path / "typed.yaml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    with pytest.raises(DataError) as err:
        load_scenario(path)
    for message, ja in worded(err.value):
        allowed = {"YAML", "UTF", "true", "false", "null", "int"} | set(re.findall(r"'([^']*)'", message))
        leftover = [w for w in re.findall(r"[A-Za-z]{2,}", re.sub(r"0x[0-9a-f]+|!![\w/.:]+", "", ja))
                    if w not in allowed]
        assert not leftover, (case, message, ja)


def test_text_already_made_of_a_loader_s_problems_is_worded_line_by_line():
    """A refused save whose card data does not load, the new-game dialog's deck line, a reload whose
    game cannot be set up again: the problem arrives as text, its places in front."""
    from fate_royal.text.dataerrors import localize_lines

    text = ("save.json: cards/heroes/H-001.yaml:8: 'pa' in stats: value 100000 above the maximum 99\n"
            "cards/heroes/H-002.yaml:3: YAML syntax error: could not find expected ':'")
    assert localize_lines(text, "ja").splitlines() == [
        "save.json: cards/heroes/H-001.yaml:8: 能力値の「pa」：値 100000は上限 99を超えています",
        "cards/heroes/H-002.yaml:3: YAML の書き方に誤りがあります：「:」が見つかりません"]
    assert localize_lines(text, "en") == text
    assert localize_lines("a line of tomorrow", "ja") == "a line of tomorrow"
    assert localize("cannot set up the game: unknown card 'H-099'", "ja") == \
        "ゲームを用意できません：知らないカード「H-099」です"
