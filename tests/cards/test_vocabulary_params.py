"""The vocabulary's parameter kinds, as a card file meets them (fate_royal/cards/vocabulary.py): a
count is a whole number from 0 to its maximum, required unless it has a default, which a card that
leaves it out gets; die faces are whole numbers 1 to 6; ``subject`` is one of the subjects, each
operation with its own default; and ``describe()``, the plain summary the guide is made from."""

from __future__ import annotations

import pytest

from fate_royal.cards import DataErrors
from fate_royal.cards.pack import read_pack_text, validate_pack
from fate_royal.cards.vocabulary import (
    CONDITIONS, MAX_AMOUNT, MAX_CARDS, MAX_COMMAND_SPELLS, OPERATIONS, SUBJECTS, describe,
)

LABEL = "my-cards.yaml"
OP_LINE = 9  # the line of ``ops:`` in the card below
SUBJECT_LIST = ", ".join(SUBJECTS)


def card_text(effect: str) -> str:
    return ("format: fate_royal-card-pack\ncards:\n  - id: M-950\n    kind: mystic_code\n"
            "    name: x\n    effects:\n      - name: e\n" + effect)


def effect_of(timing: str, ops: str, extra: str = ""):
    """The loaded effect of a mystic code with ``ops`` (a flow list), or the ``file:line: message``
    list of its errors."""
    text = card_text(f"        timing: {timing}\n        ops: {ops}\n{extra}")
    try:
        db = validate_pack(read_pack_text(text, LABEL))
    except DataErrors as exc:
        return [str(e) for e in exc.errors]
    return db.card("M-950").effects[0]


def errors_of(timing: str, ops: str, extra: str = "") -> list[str]:
    result = effect_of(timing, ops, extra)
    assert isinstance(result, list), f"expected errors, the card loaded: {result}"
    return result


def params(effect) -> list[dict]:
    assert not isinstance(effect, list), effect
    return [dict(op.params) for op in effect.ops]


# --- counts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("op, key, maximum, target", [
    ("draw", "count", MAX_CARDS, ""),
    ("recover", "amount", MAX_AMOUNT, ""),
    ("revive", "command_spells", MAX_COMMAND_SPELLS, "        target: {kind: dropped_player}\n"),
])
def test_a_count_runs_from_0_to_its_maximum(op, key, maximum, target):
    ok = effect_of("activated", f"[{{op: {op}, {key}: 0}}, {{op: {op}, {key}: {maximum}}}]", target)
    assert [p[key] for p in params(ok)] == [0, maximum]
    name = f"'{key}' in operation '{op}'"
    assert errors_of("activated", f"[{{op: {op}, {key}: {maximum + 1}}}]", target) == [
        f"{LABEL}:{OP_LINE}: {name}: value {maximum + 1} above the maximum {maximum}"]
    assert errors_of("activated", f"[{{op: {op}, {key}: -1}}]", target) == [
        f"{LABEL}:{OP_LINE}: {name}: value -1 below the minimum 0"]
    assert errors_of("activated", f"[{{op: {op}, {key}: two}}]", target) == [
        f"{LABEL}:{OP_LINE}: wrong type for {name}: expected an integer, got text 'two'"]


def test_a_count_without_a_default_is_required():
    assert errors_of("activated", "[{op: draw}]") == [
        f"{LABEL}:{OP_LINE}: operation 'draw' needs parameter 'count'"]
    assert errors_of("activated", "[{op: recover}]") == [
        f"{LABEL}:{OP_LINE}: operation 'recover' needs parameter 'amount'"]


def test_a_count_left_out_gets_its_default():
    stolen = effect_of("activated", "[{op: steal_random}]", "        target: {kind: player}\n")
    assert params(stolen) == [{"count": 1}]
    revived = effect_of("activated", "[{op: revive}]", "        target: {kind: dropped_player}\n")
    assert params(revived) == [{"mana": 1, "command_spells": 1, "hand": 2}]
    stats = effect_of("constant", "[{op: modify_stats, pa: 2}]")
    assert params(stats) == [{"subject": "combatant", "pa": 2, "pd": 0, "ma": 0, "md": 0,
                              "duration": "turn"}]


def test_cost_counts_are_optional_and_bounded():
    effect = effect_of("activated", "[{op: draw, count: 1}]", "        cost: {tap: true}\n")
    assert (effect.cost.discard, effect.cost.mana, effect.cost.die) == (0, 0, ())
    paid = effect_of("activated", "[{op: draw, count: 1}]",
                     f"        cost: {{discard: {MAX_CARDS}, mana: {MAX_AMOUNT}}}\n")
    assert (paid.cost.discard, paid.cost.mana) == (MAX_CARDS, MAX_AMOUNT)
    assert errors_of("activated", "[{op: draw, count: 1}]",
                     f"        cost: {{discard: {MAX_CARDS + 1}}}\n") == [
        f"{LABEL}:10: 'discard' in cost: value {MAX_CARDS + 1} above the maximum {MAX_CARDS}"]


# --- die faces -------------------------------------------------------------------------------------


def test_die_faces_are_1_to_6():
    effect = effect_of("constant", "[{op: encounter_faces, faces: [1, 6]}]")
    assert params(effect) == [{"faces": (1, 6)}]
    assert errors_of("constant", "[{op: encounter_faces, faces: [0, 3]}]") == [
        f"{LABEL}:{OP_LINE}: 'faces' in operation 'encounter_faces': value 0 below the minimum 1"]
    assert errors_of("constant", "[{op: encounter_faces, faces: [3, 7]}]") == [
        f"{LABEL}:{OP_LINE}: 'faces' in operation 'encounter_faces': value 7 above the maximum 6"]
    wrong = errors_of("constant", "[{op: encounter_faces, faces: 3}]")
    assert len(wrong) == 1 and wrong[0].startswith(
        f"{LABEL}:{OP_LINE}: wrong type for 'faces' in operation 'encounter_faces': expected ")


def test_die_faces_of_an_operation_are_required():
    assert errors_of("constant", "[{op: encounter_faces}]") == [
        f"{LABEL}:{OP_LINE}: operation 'encounter_faces' needs parameter 'faces'"]


def test_a_die_cost_is_optional_with_faces_1_to_6():
    effect = effect_of("activated", "[{op: draw, count: 1}]", "        cost: {die: [2, 5]}\n")
    assert effect.cost.die == (2, 5)
    assert errors_of("activated", "[{op: draw, count: 1}]", "        cost: {die: [0]}\n") == [
        f"{LABEL}:10: 'die' in cost: value 0 below the minimum 1"]
    assert errors_of("activated", "[{op: draw, count: 1}]", "        cost: {die: [7]}\n") == [
        f"{LABEL}:10: 'die' in cost: value 7 above the maximum 6"]


# --- subjects --------------------------------------------------------------------------------------


def test_each_operation_has_its_own_default_subject():
    effect = effect_of("activated", "[{op: discard, count: 1}, {op: damage, amount: 1}, "
                       "{op: set_state, state: down}, {op: grant_keyword, keyword: 先制}]",
                       "        target: {kind: servant}\n")
    assert [p["subject"] for p in params(effect)] == ["self", "target", "target", "combatant"]


def test_a_subject_is_one_of_the_subjects():
    for subject in SUBJECTS:
        effect = effect_of("activated", f"[{{op: discard, count: 1, subject: {subject}}}]",
                           "        target: {kind: player}\n")
        assert params(effect)[0]["subject"] == subject
    assert errors_of("activated", "[{op: discard, count: 1, subject: everyone}]") == [
        f"{LABEL}:{OP_LINE}: text 'everyone' is not allowed for 'subject' in operation 'discard' "
        f"(one of: {SUBJECT_LIST})"]


def test_subject_parameters_say_who_the_operation_acts_on():
    subjects = [op.params["subject"] for op in OPERATIONS.values() if "subject" in op.params]
    assert len(subjects) >= 5
    for p in subjects:
        assert (p.type, p.required, p.choices, p.doc) == ("enum", False, SUBJECTS, "who it acts on")
        assert p.default in SUBJECTS


# --- the plain summary -----------------------------------------------------------------------------


def test_describe_summarises_every_operation_and_condition():
    d = describe()
    assert set(d) == {"operations", "conditions"}
    assert list(d["operations"]) == list(OPERATIONS)
    assert d["conditions"] == {name: p.doc for name, p in CONDITIONS.items()}
    assert d["operations"]["draw"] == {
        "doc": OPERATIONS["draw"].doc,
        "params": {"count": {"type": "int", "required": True, "default": None, "choices": [],
                             "minimum": 0, "maximum": MAX_CARDS}},
    }
    assert d["operations"]["encounter_faces"]["params"]["faces"] == {
        "type": "list[int]", "required": True, "default": None, "choices": [], "minimum": 1,
        "maximum": 6}
    assert d["operations"]["discard"]["params"]["subject"] == {
        "type": "enum", "required": False, "default": "self", "choices": list(SUBJECTS),
        "minimum": None, "maximum": None}
    assert d["operations"]["steal_random"]["params"]["count"]["default"] == 1
    for name, op in OPERATIONS.items():
        assert d["operations"][name]["doc"] == op.doc
        for p, s in op.params.items():
            assert d["operations"][name]["params"][p] == {
                "type": s.type, "required": s.required, "default": s.default,
                "choices": list(s.choices), "minimum": s.minimum, "maximum": s.maximum}
