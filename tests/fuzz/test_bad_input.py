"""Bad input, tried systematically: mutated card YAML, scenarios and saves; truncated and random
bytes; wrong encodings; huge files; alias bombs; YAML tags that try to build objects.

Each must give a clear error naming the file (and line where there is one) — never a traceback,
never a hang, never executing anything, never modifying the file.
"""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from fate_royal.cards import load_card_db
from fate_royal.cards.yamlsrc import DataError
from fate_royal.paths import cards_dir
from fate_royal.rules.errors import RulesError
from fate_royal.rules.game import Game
from fate_royal.rules.save import SaveError, load_game, save_game
from fate_royal.rules.scenario import load_scenario
from fate_royal.rules.scenario_run import ScenarioRun
from fate_royal.rules.simulate import choose_action

ROOT = Path(__file__).resolve().parents[2]
SCENARIO = next(iter(sorted((ROOT / "scenarios").rglob("*.yaml"))))
FUZZ = settings(deadline=None,  # examples: 60, the same each run (tests/conftest.py's profiles)
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

EVIL = [
    b"!!python/object/apply:os.system ['touch /tmp/fate_royal_pwned']\n",
    b"id: !!python/object/new:builtins.exec ['open(\"/tmp/fate_royal_pwned\",\"w\")']\n",
    b"id: !!python/name:os.system\n",
    b"id: !custom {a: 1}\n",
    b"id: !!binary aGVsbG8=\n",
    b"a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
    b"c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
    b"e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
    b"g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]\nh: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]\n",
    "id: H-001\nname: アルトリア\n".encode("shift_jis"),
    "id: H-001\n".encode("utf-16"),
    b"\x00\x01\x02\x03" * 64,
    b"",
    b"- just\n- a\n- list\n",
    b"key: [unclosed\n",
    b"\t\tbad: indent\n",
]


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    kind = rnd.randrange(5)
    b = bytearray(data)
    if kind == 0 and b:  # truncate
        return bytes(b[: rnd.randrange(len(b))])
    if kind == 1 and b:  # flip bytes
        for _ in range(rnd.randint(1, 8)):
            b[rnd.randrange(len(b))] = rnd.randrange(256)
        return bytes(b)
    if kind == 2:  # insert a line from the evil list
        lines = data.split(b"\n")
        lines.insert(rnd.randrange(len(lines) + 1), rnd.choice(EVIL).split(b"\n")[0])
        return b"\n".join(lines)
    if kind == 3 and b:  # delete a random span
        i = rnd.randrange(len(b))
        del b[i: i + rnd.randint(1, 40)]
        return bytes(b)
    return bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 200)))  # random bytes


def _assert_clean(exc: BaseException, path: Path) -> None:
    text = str(exc)
    assert text.strip(), "empty error message"
    assert "Traceback" not in text
    assert path.name in text or str(path) in text, f"error does not name the file: {text}"


@pytest.fixture(scope="module")
def card_copy(tmp_path_factory):
    base = tmp_path_factory.mktemp("cards")
    shutil.copytree(cards_dir(), base / "cards")
    return base / "cards"


def _card_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.yaml") if p.name != "rules-reference.yaml")


@FUZZ
@given(seed=st.integers(0, 10**9))
def test_mutated_card_files_give_clean_errors(card_copy, seed):
    rnd = random.Random(seed)
    target = rnd.choice(_card_files(card_copy))
    original = target.read_bytes()
    mutated = _mutate(original, rnd)
    target.write_bytes(mutated)
    try:
        try:
            load_card_db(card_copy)
        except DataError as exc:
            _assert_clean(exc, target)
        assert target.read_bytes() == mutated  # loading never writes
    finally:
        target.write_bytes(original)


@pytest.mark.parametrize("payload", EVIL, ids=range(len(EVIL)))
def test_evil_card_file_is_refused_and_runs_nothing(card_copy, payload, tmp_path):
    marker = Path("/tmp/fate_royal_pwned")
    marker.unlink(missing_ok=True)
    target = card_copy / "heroes" / "H-099.yaml"
    target.write_bytes(payload)
    try:
        with pytest.raises(DataError) as err:
            load_card_db(card_copy)
        _assert_clean(err.value, target)
        assert not marker.exists()
        assert target.read_bytes() == payload
    finally:
        target.unlink()


def test_huge_card_file_is_refused_quickly(card_copy):
    target = card_copy / "heroes" / "H-098.yaml"
    target.write_bytes(b"id: H-098\nnote: " + b"x" * (40 * 1024 * 1024) + b"\n")
    try:
        with pytest.raises(DataError) as err:
            load_card_db(card_copy)
        _assert_clean(err.value, target)
    finally:
        target.unlink()


@FUZZ
@given(seed=st.integers(0, 10**9))
@example(seed=848)  # a step's action written as a list: a TypeError (unhashable) once, now a message
def test_mutated_scenarios_fail_cleanly(tmp_path, seed):
    rnd = random.Random(seed)
    original = SCENARIO.read_bytes()
    path = tmp_path / f"s{seed}.yaml"
    data = _mutate(original, rnd)
    path.write_bytes(data)
    try:
        run = ScenarioRun(load_scenario(path))
        run.run_all()  # steps may fail; they report, they do not raise
        for r in run.results:
            assert isinstance(r.message, str)
    except (DataError, RulesError) as exc:
        _assert_clean(exc, path)
    assert path.read_bytes() == data


@pytest.mark.parametrize("payload", EVIL, ids=range(len(EVIL)))
def test_evil_scenarios_are_refused(tmp_path, payload):
    path = tmp_path / "evil.yaml"
    path.write_bytes(payload)
    with pytest.raises(DataError) as err:
        load_scenario(path)
    _assert_clean(err.value, path)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    from fate_royal.cards import RuleSet, load_profile

    rules = RuleSet.house(load_profile())
    db = load_card_db(rules=rules)
    g = Game.new(db, rules, ["A", "B", "C"], seed=5)
    chooser = random.Random(5)
    for _ in range(80):
        if g.outcome():
            break
        g.apply(choose_action(chooser, g.legal_actions()))
    path = save_game(g, tmp_path_factory.mktemp("save") / "g.json")
    return path.read_bytes()


def _loader(rules, extra):
    return load_card_db(extra=extra or None, rules=rules)


@FUZZ
@given(seed=st.integers(0, 10**9))
def test_mutated_saves_are_refused_or_replayed_exactly(tmp_path, saved, seed):
    rnd = random.Random(seed)
    data = _mutate(saved, rnd)
    path = tmp_path / f"m{seed}.json"
    path.write_bytes(data)
    try:
        load_game(path, _loader)
    except SaveError as exc:
        _assert_clean(exc, path)
    assert path.read_bytes() == data


@FUZZ
@given(seed=st.integers(0, 10**9))
def test_structurally_mutated_saves(tmp_path, saved, seed):
    """Valid JSON with wrong values: types swapped, actions changed, keys dropped."""
    rnd = random.Random(seed)
    rec = json.loads(saved)
    choice = rnd.randrange(5)
    record = rec["record"]
    if choice == 0:
        rec.pop(rnd.choice(sorted(rec)))
    elif choice == 1 and record["actions"]:
        a = rnd.choice(record["actions"])
        key = rnd.choice(sorted(a))
        a[key] = rnd.choice([None, -1, 10**9, "x", [], {}, True])
    elif choice == 2:
        key = rnd.choice(sorted(rec))
        rec[key] = rnd.choice([None, 0, "x", [], {}])
    elif choice == 3:
        key = rnd.choice(sorted(record))
        record[key] = rnd.choice([None, 0, -5, "x", [], {}, [1], {"x": 1}])
    else:
        record["setup"]["players"] = rnd.choice([[], [{"name": "A"}], None, "x"])
    path = tmp_path / f"j{seed}.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    try:
        load_game(path, _loader)
    except SaveError as exc:
        _assert_clean(exc, path)


# A lone UTF-16 surrogate ("\ud800" in a YAML or JSON escape) is not a character: no file can hold
# it as UTF-8, so a game carrying one could never be saved or autosaved. It is refused where it
# comes in, with the file and line.

# libyaml refuses such an escape itself; the pure-Python parser (used where libyaml is missing)
# builds the string, and the data reader refuses it
SURROGATE = {"libyaml": "YAML syntax error: found invalid Unicode character escape code",
             "python": "text holds half of a UTF-16 surrogate pair (\\{u}), which is not a character"}


@pytest.fixture(params=sorted(SURROGATE))
def yaml_parser(request, monkeypatch):
    import yaml

    if request.param == "python":
        monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    elif not hasattr(yaml, "CSafeLoader"):  # pragma: no cover - PyYAML built without libyaml
        pytest.skip("PyYAML has no libyaml here")
    return request.param


def test_a_lone_surrogate_in_a_scenario_is_refused_with_its_line(tmp_path, yaml_parser):
    path = tmp_path / f"names-{yaml_parser}.yaml"
    path.write_text('name: odd name\nsetup:\n  players:\n    - name: "A\\ud800"\n    - name: B\n',
                    encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_scenario(path)
    assert str(err.value).splitlines()[0] == f"{path}:4: " + SURROGATE[yaml_parser].format(u="ud800")


def test_a_lone_surrogate_in_a_card_file_is_refused_with_its_line(tmp_path, yaml_parser):
    root = tmp_path / "cards"
    shutil.copytree(cards_dir(), root)
    path = next(iter(sorted(root.rglob("*.yaml"))))
    path.write_bytes(path.read_bytes() + f'\nodd_text: "\\udc80 {yaml_parser}"\n'.encode())
    with pytest.raises(DataError) as err:
        load_card_db(root)
    messages = [str(e) for e in getattr(err.value, "errors", [err.value])]
    line = path.read_bytes().count(b"\n")
    assert f"{path}:{line}: " + SURROGATE[yaml_parser].format(u="udc80") in messages


def test_a_save_whose_player_name_is_a_lone_surrogate_is_refused(tmp_path, saved):
    record = json.loads(saved)
    text = json.dumps(record, ensure_ascii=False).replace('"name": "A"', '"name": "A\\ud800"', 1)
    assert "\\ud800" in text
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SaveError) as err:
        load_game(path, _loader)
    _assert_clean(err.value, path)
    assert "player name 'A\\ud800' is not valid text" in str(err.value)


def test_an_alias_bomb_is_one_message_per_anchor_not_one_per_use():
    """Nine uses of an anchored list were nine identical lines; each anchor is named once."""
    from fate_royal.cards.yamlsrc import parse_yaml

    errors: list[DataError] = []
    text = "a: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b]\n"
    parse_yaml(text, "bomb.yaml", errors)
    assert [(e.line, "aliases of lists or mappings are not allowed" in str(e)) for e in errors] \
        == [(1, True), (2, True)]
