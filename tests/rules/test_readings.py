"""Reading switches (issue 10): each ambiguous sentence is a named switch with its id, its default,
the sentence it rests on, and a ruling scenario for each side."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.cards.reference import reference
from fate_royal.cards.ruleset import READINGS, RuleSet
from fate_royal.rules.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
RULINGS = ROOT / "scenarios" / "rulings"


def test_every_reading_is_in_the_rules_reference():
    ref = reference()
    assert {r.id for r in ref.by_layer("reading")} == set(READINGS)
    for rid, reading in READINGS.items():
        rule = ref.get(rid)
        assert rule.source, rid  # the sentence it reads
        assert reading.rule in rule.see, f"{rid} should point at {reading.rule}"
        assert reading.default in rule.note("en") and all(c in rule.note("en")
                                                          for c in reading.choices)


@pytest.mark.parametrize("rid", sorted(READINGS))
def test_each_reading_has_a_ruling_for_both_settings(rid):
    reading = READINGS[rid]
    seen = set()
    for path in sorted(RULINGS.glob(f"{rid}-*.yaml")):
        seen.add(load_scenario(path).rules.reading(rid))
    assert seen == set(reading.choices), f"{rid}: rulings for {sorted(seen)}"


def test_readings_switch_by_token_and_round_trip():
    rules = RuleSet.house().with_tokens(["R1=kept", "down_cost_when_down=payable"])
    assert rules.reading("R1") == "kept" and rules.reading("R6") == "payable"
    assert rules.reading("R2") == "stays_lost"
    again = RuleSet.from_dict(rules.to_dict())
    assert again.readings == rules.readings and again.fingerprint == rules.fingerprint
    with pytest.raises(ValueError):
        RuleSet.house().with_tokens(["R1=maybe"])
