"""The effect interpreter's plumbing (fate_royal/rules/effects/__init__.py): operations as plain
data — what ``op_dict``, ``normalise_op`` and ``walk_ops`` make of a card's ``Op`` and of the dict
forms found inside die-roll outcomes — and the error for an operation without a handler. A
resolving effect is saved with the position, so its operations must be plain dicts and lists all
the way down."""

from __future__ import annotations

import json
from types import MappingProxyType

import pytest

from fate_royal.cards.model import Op
from fate_royal.rules.effects import UnknownOperation, normalise_op, op_dict, run_op, walk_ops

DRAW = Op("draw", {"count": 1})
DIE = Op("roll_die", {"outcomes": (
    {"faces": (1, 2, 3), "ops": (DRAW, Op("recover", {"amount": 2}, {"in_combat": True}))},
    {"faces": (4, 5, 6), "ops": (Op("roll_die", {"outcomes": (
        {"faces": (6,), "ops": (Op("discard", {"count": 1, "subject": "self"}),)},)}),)},
)})


def test_an_operation_without_a_handler_is_an_error_naming_it():
    with pytest.raises(UnknownOperation) as err:
        run_op(None, {}, {"op": "fly", "params": {}})
    assert str(err.value) == "no handler for operation 'fly'"


def test_a_die_roll_as_plain_data_holds_its_outcomes_operations_as_plain_dicts():
    d = op_dict(DIE)
    assert d == {"op": "roll_die", "params": {"outcomes": [
        {"faces": [1, 2, 3], "ops": [
            {"op": "draw", "params": {"count": 1}},
            {"op": "recover", "params": {"amount": 2}, "if": {"in_combat": True}}]},
        {"faces": [4, 5, 6], "ops": [
            {"op": "roll_die", "params": {"outcomes": [
                {"faces": [6], "ops": [
                    {"op": "discard", "params": {"count": 1, "subject": "self"}}]}]}}]},
    ]}}
    assert json.loads(json.dumps(d)) == d


def test_mappings_of_any_kind_become_plain_dicts():
    """``Op.params`` and ``Op.condition`` are read-only mappings in the card model; their plain
    form is a dict, as is every mapping inside (never the mapping object itself)."""
    o = Op("modify_stats", MappingProxyType({"subject": "self", "pa": 1,
                                             "extra": MappingProxyType({"k": (1, 2)})}),
           MappingProxyType({"not": MappingProxyType({"in_combat": True})}))
    d = op_dict(o)
    assert d == {"op": "modify_stats",
                 "params": {"subject": "self", "pa": 1, "extra": {"k": [1, 2]}},
                 "if": {"not": {"in_combat": True}}}
    assert type(d["if"]) is dict and type(d["if"]["not"]) is dict
    assert type(d["params"]["extra"]) is dict
    assert d["params"]["subject"] == "self"  # a string is a value, not a mapping or a list


def test_the_flat_dict_form_of_an_operation_is_normalised_to_op_params_and_if():
    assert normalise_op({"op": "draw", "count": 2}) == {"op": "draw", "params": {"count": 2}}
    assert normalise_op({"op": "discard", "count": 1, "subject": "opponent",
                         "if": {"role": "raider"}}) == {
        "op": "discard", "params": {"count": 1, "subject": "opponent"}, "if": {"role": "raider"}}
    assert normalise_op({"op": "roll_die", "outcomes": ({"faces": (1,), "ops": (DRAW,)},)}) == {
        "op": "roll_die", "params": {"outcomes": [
            {"faces": [1], "ops": [{"op": "draw", "params": {"count": 1}}]}]}}


def test_the_nested_dict_form_is_kept_and_flat_keys_join_its_params():
    nested = {"op": "recover", "params": {"amount": 1}, "if": {"in_combat": True}}
    assert normalise_op(nested) == nested
    assert normalise_op({"op": "damage", "subject": "target", "params": {"amount": 2}}) == {
        "op": "damage", "params": {"subject": "target", "amount": 2}}
    assert normalise_op({"op": "damage", "amount": 1, "params": {"amount": 3}}) == {
        "op": "damage", "params": {"amount": 3}}


def test_an_empty_condition_is_no_condition():
    assert normalise_op({"op": "draw", "count": 1, "if": {}}) == {"op": "draw",
                                                                  "params": {"count": 1}}
    assert normalise_op(Op("draw", {"count": 1}, {})) == {"op": "draw", "params": {"count": 1}}


def test_an_op_object_is_normalised_like_its_plain_form():
    assert normalise_op(DIE) == op_dict(DIE)
    assert normalise_op(op_dict(DIE)) == op_dict(DIE)


def test_walking_an_effects_operations_visits_those_inside_die_outcomes_in_order():
    walked = list(walk_ops([DRAW, DIE, Op("recover", {"amount": 1})]))
    assert [d["op"] for d in walked] == ["draw", "roll_die", "draw", "recover", "roll_die",
                                         "discard", "recover"]
    assert walked[3] == {"op": "recover", "params": {"amount": 2}, "if": {"in_combat": True}}
    assert walked[5] == {"op": "discard", "params": {"count": 1, "subject": "self"}}
    assert list(walk_ops([op_dict(DIE)])) == list(walk_ops([DIE]))
