"""Every number a card or profile file can carry is bounded, and a card id is plain ASCII.

A hostile value (mana_limit 10^9, a deck padded to 10^9 cards, 10^9 copies of a card) once made the
engine build the deck or deal until memory ran out; now it is a ``file:line: message`` at once.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from fate_royal.cards import DataErrors, load_card_db, load_profile
from fate_royal.cards import schema, vocabulary
from fate_royal.commands.check import main as check_main
from fate_royal.cards.profile import PARAMETERS, check_value
from fate_royal.rules.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
M006 = "mystic_codes/M-006.yaml"
BOM = b"\xef\xbb\xbf"


# --- every number has bounds ---------------------------------------------------------------------


def _int_params():
    for name, op in vocabulary.OPERATIONS.items():
        for key, p in op.params.items():
            yield f"operation {name}.{key}", p
    for table, keys in (("cost", vocabulary.COST_KEYS), ("condition", vocabulary.CONDITIONS),
                        ("target", vocabulary.TARGET_KEYS), ("effect", vocabulary.EFFECT_KEYS),
                        ("card", schema.CARD_KEYS), ("chip", schema.CHIP_KEYS)):
        for key, p in keys.items():
            yield f"{table}.{key}", p
    yield "stats", schema.STAT_PARAM


def test_every_number_in_card_data_has_bounds():
    unbounded = [name for name, p in _int_params() if p.type in ("int", "list[int]")
                 and (p.minimum is None or p.maximum is None)]
    assert unbounded == []


def test_every_number_in_the_profile_has_bounds():
    unbounded = [k for k, s in PARAMETERS.items() if s.type in ("int", "list[int]")
                 and (s.minimum is None or s.maximum is None)]
    assert unbounded == []
    for key, spec in PARAMETERS.items():  # the shipped defaults are inside them
        assert check_value(key, spec.default) is None, key


@pytest.mark.parametrize("key, value, message", [
    ("mana_limit", 10**9, "mana_limit (D3): value 1000000000 above the maximum 99"),
    ("deck_min_size", 10**9, "deck_min_size (D1): value 1000000000 above the maximum 400"),
    ("start_hand", 10**8, "start_hand (D3): value 100000000 above the maximum 40"),
    ("hand_limit", 100, "hand_limit (D5): value 100 above the maximum 99"),
    ("seat_slots", 11, "seat_slots (D7): value 11 above the maximum 10"),
    ("start_command_spells", 10, "start_command_spells (D3): value 10 above the maximum 9"),
    ("mana_limit", 0, "mana_limit (D3) must be at least 1, got 0"),
    ("encounter_on", [7], "encounter_on (D5): value 7 above the maximum 6"),
    ("encounter_on", [0], "encounter_on (D5) must be at least 1, got 0"),
    ("encounter_on", [1, 1], "encounter_on (D5) names a value twice: [1, 1]"),
])
def test_profile_value_out_of_bounds(key, value, message):
    assert check_value(key, value) == message


def test_profile_bounds_are_inclusive():
    for key in ("mana_limit", "deck_min_size", "start_hand", "hand_limit", "seat_slots"):
        assert check_value(key, PARAMETERS[key].maximum) is None
    assert check_value("encounter_on", [1, 2, 3, 4, 5, 6]) is None


def test_profile_file_reports_file_and_line(cards):
    line = cards.edit("profile.yaml", "mana_limit: 5", "mana_limit: 1000000000")
    with pytest.raises(DataErrors) as info:
        load_profile(cards.path("profile.yaml"))
    assert [str(e) for e in info.value.errors] == [
        f"{cards.label('profile.yaml')}:{line}: mana_limit (D3): value 1000000000 above the maximum 99"]


def test_scenario_profile_reports_file_and_line(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(_scenario("profile: {deck_min_size: 1000000000}"), "utf-8")
    with pytest.raises(DataErrors) as info:
        load_scenario(path)
    assert f"{path}:3: deck_min_size (D1): value 1000000000 above the maximum 400" in str(info.value)


@pytest.mark.parametrize("rel, old, new, fragment", [
    (M006, "name_en: V-MAX\n", "name_en: V-MAX\ncopies: 1000000000\n",
     "'copies' in card: value 1000000000 above the maximum 20"),
    (M006, "name_en: V-MAX\n", "name_en: V-MAX\ncopies: 0\n",
     "'copies' in card: value 0 below the minimum 1"),
    ("heroes/H-001.yaml", "stats: {pa: 6,", "stats: {pa: 1000000000,",
     "'pa' in stats: value 1000000000 above the maximum 99"),
    ("heroes/H-012.yaml", "cost: {value: {discard: 1}", "cost: {value: {discard: 100000}",
     "'discard' in cost: value 100000 above the maximum 40"),
    (M006, "pa: 2, duration: turn", "pa: 1000000000, duration: turn",
     "'pa' in operation 'modify_stats': value 1000000000 above the maximum 99"),
    (M006, "pa: 2, duration: turn", "pa: -1, duration: turn",
     "'pa' in operation 'modify_stats': value -1 below the minimum 0"),
    ("scenes/S-001.yaml", "{op: discard, subject: self, count: 1}",
     "{op: discard, subject: self, count: 1000000000}",
     "'count' in operation 'discard': value 1000000000 above the maximum 40"),
    ("scenes/S-001.yaml", "- faces: [6]", "- faces: [7]", "die face 7 is not 1 to 6"),
    ("mystic_codes/M-901.yaml", "skills: [竜5]", "skills: [竜100000]", "unknown keyword '竜100000'"),
    ("mystic_codes/M-901.yaml", "skills: [竜5]", "skills: [竜５]", "unknown keyword '竜５'"),
])
def test_card_number_out_of_bounds(cards, rel, old, new, fragment):
    line = cards.edit(rel, old, new)
    line += old.count("\n") if old.endswith("\n") else 0
    errors = cards.errors()
    assert any(e.startswith(f"{cards.label(rel)}:{line}: ") and fragment in e for e in errors), errors


def test_operation_amounts_bounded_in_extra_cards():
    extra = [{"id": "M-950", "kind": "mystic_code", "name": "X", "effects": [
        {"name": "x", "timing": "activated", "ops": [{"op": "draw", "count": 10**9}]},
        {"name": "y", "timing": "activated", "target": {"kind": "servant"},
         "ops": [{"op": "damage", "amount": 10**9}]},
        {"name": "z", "timing": "constant", "ops": [{"op": "encounter_faces", "faces": [1, 9]}]},
        {"name": "w", "timing": "activated", "target": {"kind": "dropped_player"},
         "ops": [{"op": "revive", "hand": 10**9}]},
        {"name": "v", "timing": "activated", "condition": {"players_at_most": 10**9},
         "ops": [{"op": "recover", "amount": 1}]},
    ]}]
    with pytest.raises(DataErrors) as info:
        load_card_db(extra=extra)
    text = str(info.value)
    for fragment in ("'count' in operation 'draw': value 1000000000 above the maximum 40",
                     "'amount' in operation 'damage': value 1000000000 above the maximum 99",
                     "'faces' in operation 'encounter_faces': value 9 above the maximum 6",
                     "'hand' in operation 'revive': value 1000000000 above the maximum 40",
                     "'players_at_most' in condition: value 1000000000 above the maximum 7"):
        assert fragment in text


def test_check_command_reports_copies_as_file_line(cards, capsys):
    line = cards.edit(M006, "name_en: V-MAX\n", "name_en: V-MAX\ncopies: 1000000000\n") + 1
    assert check_main(["--root", str(cards.root)]) == 1
    out = capsys.readouterr().out
    assert f"{cards.label(M006)}:{line}: 'copies' in card: value 1000000000 above the maximum 20" in out


# --- hostile files: an answer within seconds, in bounded memory -------------------------------------

_MEMORY_CAP = 1 << 30  # address space of the child (1 GiB: Python, PyYAML, the cards)

_CHILD = """
import resource, sys, time
cap = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
from fate_royal.cli import main
t = time.perf_counter()
status = main(sys.argv[2:])
sys.stdout.flush()
try:  # this process's own high-water mark (ru_maxrss keeps the parent's across fork and exec)
    with open("/proc/self/status") as fh:
        peak = next(int(ln.split()[1]) for ln in fh if ln.startswith("VmHWM:")) // 1024
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
print(f"@@ status={status} seconds={time.perf_counter() - t:.3f} peak_mib={peak}", file=sys.stderr)
sys.exit(status)
"""


def _hostile_run(args: list[str], cwd: Path, env: dict | None = None) -> tuple[str, dict]:
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _CHILD, str(_MEMORY_CAP), *args], cwd=cwd,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, **(env or {})})
    wall = time.perf_counter() - started
    tail = [ln for ln in proc.stderr.splitlines() if ln.startswith("@@ ")]
    assert tail, proc.stderr[-2000:]
    stats = dict(kv.split("=") for kv in tail[-1][3:].split())
    stats["wall"] = f"{wall:.2f}"
    print("hostile run", args[0], stats)
    assert proc.returncode == 1 and stats["status"] == "1", proc.stdout + proc.stderr
    return proc.stdout + proc.stderr, stats


def _scenario(profile_line: str, cards_line: str = "") -> str:
    return textwrap.dedent("""\
        title: hostile
        seed: 1
        {profile}
        {cards}
        players:
          - name: A
            servant: {{hero: H-001, class: セイバー, state: rise}}
          - name: B
            servant: {{hero: H-015, class: ランサー, state: rise}}
        start: {{player: A, step: combat}}
        steps:
          - do: {{player: A, action: pass}}
        """).format(profile=profile_line, cards=cards_line)


def test_hostile_card_data_answers_in_seconds_within_a_memory_cap(cards, tmp_path):
    """mana_limit 10^9, deck_min_size 10^9, start_hand 10^8 and copies 10^9 in the card folder: the
    check reports each as file:line; a game started on that folder (FATE_ROYAL_DATA) refuses to
    start with the same lines; a scenario asking for them is refused. Each run in a child process
    whose address space is capped at 1 GiB, and must finish well within the 60 s timeout."""
    lines = {key: cards.edit("profile.yaml", f"{key}: {old}", f"{key}: {new}") for key, old, new in
             (("mana_limit", 5, 10**9), ("deck_min_size", 40, 10**9), ("start_hand", 5, 10**8))}
    copies_line = cards.edit(M006, "name_en: V-MAX\n", "name_en: V-MAX\ncopies: 1000000000\n") + 1
    expected = [
        f"{cards.label('profile.yaml')}:{lines['mana_limit']}: mana_limit (D3): value 1000000000 "
        "above the maximum 99",
        f"{cards.label('profile.yaml')}:{lines['deck_min_size']}: deck_min_size (D1): value "
        "1000000000 above the maximum 400",
        f"{cards.label('profile.yaml')}:{lines['start_hand']}: start_hand (D3): value 100000000 "
        "above the maximum 40",
        f"{cards.label(M006)}:{copies_line}: 'copies' in card: value 1000000000 above the maximum 20",
    ]
    out, stats = _hostile_run(["check", "--root", str(cards.root)], tmp_path)
    for line in expected:
        assert line in out
    assert float(stats["seconds"]) < 10 and int(stats["peak_mib"]) < 512, stats

    # the same folder as the program's data: a headless run of a plain scenario on it
    data = tmp_path / "data"
    data.mkdir()
    (data / "cards").symlink_to(cards.root)
    (data / "assets").symlink_to(ROOT / "assets")
    scenario = tmp_path / "plain.yaml"
    scenario.write_text(_scenario(""), "utf-8")
    out, stats = _hostile_run(["run", str(scenario)], tmp_path, {"FATE_ROYAL_DATA": str(data)})
    for line in expected[:3]:  # the profile is read first: its lines stop the run
        assert line.split(": ", 1)[1] in out
    assert "Traceback" not in out
    assert float(stats["seconds"]) < 10 and int(stats["peak_mib"]) < 512, stats
    for key, old, new in (("mana_limit", 5, 10**9), ("deck_min_size", 40, 10**9),
                          ("start_hand", 5, 10**8)):
        cards.edit("profile.yaml", f"{key}: {new}", f"{key}: {old}")
    out, stats = _hostile_run(["run", str(scenario)], tmp_path, {"FATE_ROYAL_DATA": str(data)})
    assert "copies' in card: value 1000000000 above the maximum 20" in out
    assert "Traceback" not in out
    assert float(stats["seconds"]) < 10 and int(stats["peak_mib"]) < 512, stats

    # a scenario asking for the hostile values itself, on the shipped data
    for profile, fragment in (("profile: {deck_min_size: 1000000000}", ":3: deck_min_size (D1)"),
                              ("profile: {start_hand: 100000000}", ":3: start_hand (D3)"),
                              ("profile: {mana_limit: 1000000000}", ":3: mana_limit (D3)")):
        scenario.write_text(_scenario(profile), "utf-8")
        out, stats = _hostile_run(["run", str(scenario)], tmp_path)
        assert f"{scenario}{fragment}" in out
        assert float(stats["seconds"]) < 10 and int(stats["peak_mib"]) < 512, stats
    scenario.write_text(_scenario("", "cards: [{id: M-950, kind: mystic_code, name: X, copies: "
                                  "1000000000, effects: [{name: x, timing: activated, ops: [{op: "
                                  "draw, count: 1}]}]}]"), "utf-8")
    out, stats = _hostile_run(["run", str(scenario)], tmp_path)
    assert "'copies' in card: value 1000000000 above the maximum 20" in out
    assert float(stats["seconds"]) < 10 and int(stats["peak_mib"]) < 512, stats


# --- card ids: ASCII, nothing around them --------------------------------------------------------


@pytest.mark.parametrize("written, fragment", [
    ("id: M-００６", "card id 'M-００６' has non-ASCII characters ('０', '６': full-width or another "
     "script's letters or digits); write M-006"),
    ("id: M-٠٠٦", "card id 'M-٠٠٦' has non-ASCII characters"),
    ("id: |\n  M-006", "card id 'M-006\\n' has spaces or line breaks around it; write M-006"),
    ("id: 'M-006 '", "card id 'M-006 ' has spaces or line breaks around it; write M-006"),
    ("id: M-6", "card id 'M-6' must look like H-001"),
])
def test_card_id_ascii_and_trimmed(cards, written, fragment):
    line = cards.edit(M006, "id: M-006", written)
    errors = cards.errors()
    assert any(e.startswith(f"{cards.label(M006)}:{line}: ") and fragment in e for e in errors), errors


def test_full_width_id_in_extra_cards_is_not_another_card():
    extra = [{"id": "M-００６", "kind": "mystic_code", "name": "偽物", "effects": [
        {"name": "x", "timing": "activated", "ops": [{"op": "draw", "count": 1}]}]}]
    with pytest.raises(DataErrors) as info:
        load_card_db(extra=extra)
    assert "card id 'M-００６' has non-ASCII characters" in str(info.value)


def test_patch_naming_a_full_width_card_id(cards):
    text = cards.path("errata/house.yaml").read_text("utf-8")
    first = text[text.index("    card: "):].splitlines()[0]
    line = cards.edit("errata/house.yaml", first, "    card: H-０１２")
    errors = cards.errors()
    assert any(e.startswith(f"{cards.label('errata/house.yaml')}:{line}: ")
               and "names card 'H-０１２' has non-ASCII characters" in e for e in errors), errors


def test_chip_id_with_trailing_newline(cards):
    line = cards.edit("chips.yaml", "  - id: dragon_tooth_warrior", "  - id: |\n      dragon_tooth_warrior")
    errors = cards.errors()
    assert any(e.startswith(f"{cards.label('chips.yaml')}:{line}: ")
               and "must be lower_case_with_underscores" in e for e in errors), errors


# --- a byte-order mark is accepted ---------------------------------------------------------------


def test_byte_order_mark_accepted_in_every_card_file(cards):
    for path in sorted(cards.root.rglob("*.yaml")):
        path.write_bytes(BOM + path.read_bytes())
    db = load_card_db(cards.root)
    assert "M-006" in db.cards and db.chips
    assert load_profile(cards.path("profile.yaml")).mana_limit == 5
    assert check_main(["--root", str(cards.root)]) == 0


def test_byte_order_mark_accepted_in_a_scenario(tmp_path):
    path = tmp_path / "bom.yaml"
    text = _scenario("profile: {mana_limit: 7}")
    path.write_bytes(BOM + text.encode("utf-8"))
    assert load_scenario(path).profile_overrides == {"mana_limit": 7}
    assert load_scenario(path, text="\ufeff" + text).profile_overrides == {"mana_limit": 7}
