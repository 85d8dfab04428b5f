"""A scenario that names something that does not exist fails with a clear file:line message.

Both through the library (load_scenario / ScenarioRun) and through ``fate-royal run``, which prints
the message and "0 passed, 1 failed" -- never a traceback.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from fate_royal.cards.yamlsrc import DataError
import fate_royal.commands.run as scenario_cli
from fate_royal.rules.scenario import ScenarioError, load_scenario
from fate_royal.rules.scenario_run import ScenarioRun

HEAD = """\
title: t
seed: 1
players:
  - name: A
    servant: {hero: H-001, class: セイバー, state: rise}
    hand: [S-003]
  - name: B
    servant: {hero: H-015, class: セイバー, state: rise}
deck: [S-001]
start: {player: A, step: ritual}
steps:
"""


def write(tmp_path: Path, body: str, head: str = HEAD) -> Path:
    path = tmp_path / "bad.yaml"
    path.write_text(head + textwrap.dedent(body), encoding="utf-8")
    return path


def line_of(path: Path, needle: str) -> int:
    for n, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if needle in text:
            return n
    raise AssertionError(needle)


def _load_error(path: Path) -> str:
    """The message ``load_scenario`` refuses ``path`` with."""
    with pytest.raises(DataError) as info:
        load_scenario(path)
    return str(info.value)


def run_lib(path: Path) -> list[str]:
    """Failure messages (file:line: message) of running a scenario through the library."""
    try:
        run = ScenarioRun(load_scenario(path))
    except (DataError, ScenarioError) as exc:
        return [str(exc)]
    return [f"{path}:{r.step.line}: {r.message}" for r in run.run_all() if not r.ok]


def run_cli(path: Path, capsys) -> str:
    code = scenario_cli.main([str(path)])
    out = capsys.readouterr().out
    assert code == 1
    assert out.strip().splitlines()[-1] == "0 passed, 1 failed"
    assert "Traceback" not in out
    return out


# (step text, needle marking the offending line, words the message must contain)
RUN_TIME_CASES = {
    "card": ("  - do: {player: A, action: use, card: S-999}\n", "S-999", ["no card", "S-999"]),
    "effect": ("  - do: {player: A, action: use, card: S-003, effect: 無い効果}\n", "無い効果",
               ["no effect", "無い効果"]),
    "player": ("  - do: {player: Z, action: pass}\n", "player: Z", ["no player", "'Z'"]),
    "card_not_held": ("  - do: {player: A, action: play, card: M-006}\n", "M-006",
                      ["M-006", "hand"]),
}


@pytest.mark.parametrize("case", sorted(RUN_TIME_CASES))
def test_unknown_names_fail_with_file_and_line(tmp_path, capsys, case):
    step, needle, words = RUN_TIME_CASES[case]
    path = write(tmp_path, step)
    line = line_of(path, needle)
    msgs = run_lib(path)
    assert len(msgs) == 1, msgs
    assert msgs[0].startswith(f"{path}:{line}:"), msgs
    for w in words:
        assert w in msgs[0], msgs
    out = run_cli(path, capsys)
    assert f"{path}:{line}" in out
    for w in words:
        assert w in out


LOAD_CASES = {
    "field": ("  - expect: {player: A, manna: 3}\n", "manna", ["unknown key 'manna'", "mana"]),
    "step_key": ("  - exepct: {player: A, mana: 3}\n", "exepct", ["unknown step key", "expect"]),
    "action": ("  - do: {player: A, action: attak, type: magic}\n", "attak",
               ["unknown action 'attak'", "attack"]),
    "advance": ("  - advance: intercept\n", "intercept", ["advance", "interception"]),
}


@pytest.mark.parametrize("case", sorted(LOAD_CASES))
def test_unknown_fields_are_load_errors(tmp_path, capsys, case):
    step, needle, words = LOAD_CASES[case]
    path = write(tmp_path, step)
    line = line_of(path, needle)
    with pytest.raises(DataError) as info:
        load_scenario(path)
    text = str(info.value)
    assert f"{path}:{line}:" in text
    for w in words:
        assert w in text, text
    out = run_cli(path, capsys)
    assert f"{path}:{line}:" in out


def test_unknown_start_player_and_class(tmp_path, capsys):
    head = HEAD.replace("start: {player: A", "start: {player: Q").replace("セイバー, state: rise}\n    hand",
                                                                         "セイバ, state: rise}\n    hand")
    path = write(tmp_path, "  - expect: {player: A, mana: 5}\n", head)
    msgs = run_lib(path)
    assert msgs and f"{path}:{line_of(path, 'player: Q')}:" in msgs[0]
    assert "unknown start player 'Q'" in msgs[0]
    run_cli(path, capsys)


def test_an_unknown_start_step_in_a_block_start_is_at_its_line(tmp_path, capsys):
    head = HEAD.replace("start: {player: A, step: ritual}", "start:\n  player: A\n  step: ritul")
    path = write(tmp_path, "  - expect: {player: A, mana: 5}\n", head)
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}:{line_of(path, 'step: ritul')}: unknown start step 'ritul' (did you mean 'ritual'?)"
    assert f"{path}:{line_of(path, 'step: ritul')}:" in run_cli(path, capsys)


def test_unknown_class_in_setup(tmp_path, capsys):
    head = HEAD.replace("{hero: H-001, class: セイバー", "{hero: H-001, class: 剣士")
    path = write(tmp_path, "  - expect: {player: A, mana: 5}\n", head)
    msgs = run_lib(path)
    assert msgs and str(path) in msgs[0] and "剣士" in msgs[0], msgs
    out = run_cli(path, capsys)
    assert "剣士" in out


def test_malformed_yaml(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text("title: [unclosed\nplayers: :\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value).startswith(f"{path}:")
    assert "YAML" in str(info.value)
    run_cli(path, capsys)


def test_python_object_tag_is_refused(tmp_path, capsys):
    marker = tmp_path / "ran"
    path = write(tmp_path, "  - expect: {player: A, mana: 5}\n",
                 HEAD.replace("hand: [S-003]",
                              f"hand: !!python/object/apply:os.system ['touch {marker}']"))
    with pytest.raises(DataError) as info:
        load_scenario(path)
    text = str(info.value)
    assert f"{path}:{line_of(path, '!!python')}:" in text
    assert "tag" in text
    out = run_cli(path, capsys)
    assert "tag" in out
    assert not marker.exists()


def test_missing_file(tmp_path, capsys):
    code = scenario_cli.main([str(tmp_path / "nope.yaml")])
    out = capsys.readouterr().out
    assert code == 1 and out.strip().splitlines()[-1] == "0 passed, 1 failed"


def test_error_in_a_scenario_card_names_its_line(tmp_path):
    path = tmp_path / "card.yaml"
    path.write_text("title: t\ncards:\n  - id: M-960\n    kind: mystic_code\n    name: x\n"
                    "    effects:\n      - name: e\n        timing: activated\n        ops:\n"
                    "          - {op: teleport}\nplayers:\n  - name: A\n  - name: B\nsteps: []\n",
                    encoding="utf-8")
    with pytest.raises(DataError) as info:
        ScenarioRun(load_scenario(path))
    assert f"{path}:10: unknown operation 'teleport'" in str(info.value)


def test_run_with_a_data_folder_that_is_not_there(tmp_path, capsys, monkeypatch):
    from fate_royal.cli import main
    from fate_royal.paths import data_root

    monkeypatch.setenv("FATE_ROYAL_DATA", str(tmp_path / "nowhere"))
    data_root.cache_clear()
    try:
        assert main(["run", str(tmp_path)]) == 2
    finally:
        monkeypatch.delenv("FATE_ROYAL_DATA")
        data_root.cache_clear()
    err = capsys.readouterr().err
    assert "FATE_ROYAL_DATA" in err and "Traceback" not in err


def test_a_scenario_above_the_size_bound_is_refused_before_it_is_parsed(tmp_path):
    """A 3 MB file of 300,000 steps took the table 780 MB and more than 20 s to open."""
    from fate_royal.rules.scenario import MAX_SCENARIO_BYTES

    path = tmp_path / "big.yaml"
    head = "title: t\nplayers:\n  - name: A\n  - name: B\n"
    path.write_text(head + "#" * (MAX_SCENARIO_BYTES - len(head) - 1) + "\n", encoding="utf-8")
    load_scenario(path)  # exactly at the bound: read
    path.write_text(head + "#" * (MAX_SCENARIO_BYTES - len(head)) + "\n", encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    assert str(info.value) == f"{path}:0: a scenario file is at most 1024 KB (this one is 1024 KB)"


def test_a_scenario_given_as_text_is_held_to_the_same_size_bound(tmp_path):
    from fate_royal.rules.scenario import MAX_SCENARIO_BYTES

    text = "title: t\nplayers:\n  - name: A\n  - name: B\n" + "#" * (MAX_SCENARIO_BYTES + 2048)
    with pytest.raises(DataError) as info:
        load_scenario(tmp_path / "given.yaml", text=text)
    assert str(info.value) == f"{tmp_path / 'given.yaml'}:0: a scenario file is at most 1024 KB (this one is 1026 KB)"


def test_a_scenario_above_the_step_bound_is_refused_at_its_steps_line(tmp_path):
    from fate_royal.rules.scenario import MAX_STEPS

    path = tmp_path / "long.yaml"
    head = "title: t\nplayers:\n  - name: A\n  - name: B\nsteps:\n"
    path.write_text(head + "  - say: x\n" * MAX_STEPS, encoding="utf-8")
    assert len(load_scenario(path).steps) == MAX_STEPS
    path.write_text(head + "  - say: x\n" * (MAX_STEPS + 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_scenario(path)
    errors = getattr(info.value, "errors", [info.value])
    assert [(e.line, e.message) for e in errors] == [
        (5, f"a scenario has at most {MAX_STEPS} steps (this one has {MAX_STEPS + 1})")]


@pytest.mark.parametrize("profile, key, message", [
    ({"mana_limit": 4, "start_mana": 6}, "start_mana", "start_mana 6 is above mana_limit 4"),
    ({"start_mana": 12}, "start_mana", "start_mana 12 is above mana_limit 5"),
    ({"hand_limit": 6, "mana_limit": 2}, "mana_limit", "start_mana 5 is above mana_limit 2"),
])
def test_profile_values_that_do_not_fit_together_are_reported_at_the_line_that_set_them(
        tmp_path, capsys, profile, key, message):
    lines = "".join(f"  {k}: {v}\n" for k, v in profile.items())
    path = tmp_path / "s.yaml"
    path.write_text(f"title: t\nseed: 1\nprofile:\n{lines}players:\n  - name: A\n  - name: B\n",
                    encoding="utf-8")
    assert _load_error(path) == f"{path}:{line_of(path, key + ':')}: {message}"
    assert f"{path}:{line_of(path, key + ':')}: {message}" in run_cli(path, capsys)


def test_a_scenario_profile_that_does_not_fit_its_rule_set_is_a_message_at_its_line(tmp_path, capsys):
    """The rule set's own parameters (mana_limit 3) and the file's (start_mana 4) were an internal
    error."""
    (tmp_path / "low.yaml").write_text("title: low\nfrom: house\nprofile: {mana_limit: 3, start_mana: 3}\n",
                                       encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text("title: t\nseed: 1\nrules: low.yaml\nprofile:\n  start_mana: 4\n"
                    "players:\n  - name: A\n  - name: B\n", encoding="utf-8")
    assert _load_error(path) == f"{path}:5: start_mana 4 is above mana_limit 3"
    assert "internal error" not in run_cli(path, capsys)
    path.write_text(path.read_text(encoding="utf-8").replace("start_mana: 4", "start_mana: 3"),
                    encoding="utf-8")
    assert load_scenario(path).rules.profile.start_mana == 3


def test_a_scenario_profile_is_set_on_its_rule_set_s_profile_not_on_the_shipped_one(tmp_path):
    """profile: {mana_limit: 2} on a rule set that starts with 2 mana fits it; it was refused as
    'start_mana 5 is above mana_limit 2' (the shipped start_mana, which that rule set does not use),
    and a real conflict quoted the shipped number instead of the rule set's."""
    (tmp_path / "low.yaml").write_text("title: low\nfrom: house\nprofile: {start_mana: 2}\n",
                                       encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text("title: t\nseed: 1\nrules: low.yaml\nprofile:\n  mana_limit: 2\n"
                    "players:\n  - name: A\n  - name: B\n", encoding="utf-8")
    profile = load_scenario(path).rules.profile
    assert (profile.start_mana, profile.mana_limit) == (2, 2)
    (tmp_path / "low.yaml").write_text("title: low\nfrom: house\nprofile: {start_mana: 3}\n",
                                       encoding="utf-8")
    assert _load_error(path) == f"{path}:5: start_mana 3 is above mana_limit 2"


@pytest.mark.parametrize("option, message", [
    ('stops: {"0": [戦闘]}', "stops of seat 0: unknown stop '戦闘' (stops: my_turn, my_combat, every_window)"),
    ('seats: {"1": wizard}', "seat 1 is 'wizard', not a person or a computer level (human, random, basic, "
                             "strong)"),
])
def test_a_stop_or_seat_kind_the_table_does_not_have_is_refused_at_its_line(tmp_path, capsys, option,
                                                                            message):
    path = tmp_path / "s.yaml"
    path.write_text(f"title: t\nseed: 1\noptions:\n  {option}\nplayers:\n  - name: A\n  - name: B\n",
                    encoding="utf-8")
    assert _load_error(path) == f"{path}:4: {message}"
    run_cli(path, capsys)
    path.write_text(path.read_text(encoding="utf-8").replace("戦闘", "my_combat").replace("wizard", "strong"),
                    encoding="utf-8")
    assert load_scenario(path).options
