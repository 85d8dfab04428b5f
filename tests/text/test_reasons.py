"""Every reason code the rules engine can refuse an action with has words in both languages: the
table shows the reason in words beside its rule id (a missing one would fall back to the bare code,
in English, on a Japanese table)."""

import re
from pathlib import Path

import pytest

from fate_royal.rules.proxy import CALL_REFUSALS
from fate_royal.text import catalog

RULES = Path(__file__).resolve().parents[2] / "fate_royal" / "rules"
# a Refusal("code", …) or a block ("code", rule) returned by the legality helpers
CODE = re.compile(r"""(?:Refusal\(|return \()"([a-z_]+)",""")


def reason_codes() -> set[str]:
    found = {m for p in RULES.rglob("*.py") for m in CODE.findall(p.read_text(encoding="utf-8"))}
    return found | set(CALL_REFUSALS)  # E6.1's refusals, one list for legality and resolution


def test_the_engine_has_the_reason_codes_this_test_reads():
    codes = reason_codes()
    assert {"seat_full", "play_stack_waiting", "play_own_turn", "servant_down", "once_per_step",
            "not_an_action"} <= codes
    assert len(codes) > 40


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_reason_code_has_words(lang):
    missing = sorted(c for c in reason_codes() if not catalog.has_key(f"reason.{c}", lang))
    assert not missing, f"{lang}: no words for reason codes {missing}"


# why an effect did nothing (EffectFizzled, EffectLost …: the event's ``why=``), shown in the log
WHY = re.compile(r"""why ?= ?"([a-z_]+)\"""")  # why="…" in an event, or why = "…" before it


def why_codes() -> set[str]:
    found = {m for p in RULES.rglob("*.py") for m in WHY.findall(p.read_text(encoding="utf-8"))}
    return found | set(CALL_REFUSALS)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_why_code_has_words(lang):
    codes = why_codes()
    assert {"proxy_engagement_only", "proxy_fighters_only", "proxy_already", "user_out", "negated", "effect_lost"} <= codes
    missing = sorted(c for c in codes if not catalog.has_key(f"why.{c}", lang))
    assert not missing, f"{lang}: no words for why codes {missing}"


def test_a_recorded_action_s_reason_speaks_of_the_seat_not_the_reader():
    """A save's replay and the comparison refuse a recorded action: "あなたの選択番ではありません"
    addressed whoever opened the file. Said of a recorded action, the reasons that say "you" say
    "that seat"; the others read as they do at the table."""
    from fate_royal.text import Words

    for lang, you in (("ja", "あなた"), ("en", "your")):
        w = Words(lang)
        for code in ("not_your_turn", "not_your_card"):
            assert you in w.reason(code)
            assert you not in w.reason(code, replayed=True) and w.reason(code, replayed=True)
        assert w.reason("servant_down", replayed=True) == w.reason("servant_down")
    assert Words("ja").reason("not_your_turn", replayed=True) == "その席の選択番ではありません"
