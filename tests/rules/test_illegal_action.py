"""The engine's refusal carries a reason code, the rule that forbids (or none) and words; its text
is what the command line prints for an illegal action."""

from fate_royal.rules.errors import IllegalAction, RulesError


def test_a_refusal_with_a_rule_names_it_after_the_words():
    e = IllegalAction("servant_down", "E1.4", "a Down servant cannot raid")
    assert (e.reason, e.rule, e.message) == ("servant_down", "E1.4", "a Down servant cannot raid")
    assert str(e) == "a Down servant cannot raid [E1.4]"
    assert isinstance(e, RulesError)


def test_a_refusal_without_words_or_rule_is_its_reason_code():
    e = IllegalAction("not_an_action")
    assert (e.rule, e.message, str(e)) == ("", "not_an_action", "not_an_action")
    assert str(IllegalAction("seat_full", message="the seat is full")) == "the seat is full"
