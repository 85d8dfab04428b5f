"""Data-file problems in the reader's language (fate_royal/text/dataerrors.py): the card editor and
the patch form show the loader's problems in Japanese when the table is in Japanese. The sentences
here are real ones, made by the loader from broken cards; English stays exactly as the loader wrote
it, and a Japanese rewording keeps every value and leaves no English word behind."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from fate_royal.cards.loader import build_card
from fate_royal.text.dataerrors import known, localize

from packhelp import NEW_CODE
from wording import worded

HERO = {"id": "H-090", "kind": "hero", "name": "試しの英霊", "name_en": "Trial Hero",
        "note": "typed in", "stats": {"pa": 3, "pd": 3, "ma": 2, "md": 2}, "classes": ["セイバー"]}
CLASS = {"id": "C-090", "kind": "class", "name": "セイバー", "name_en": "Saber", "class_name": "セイバー",
         "note": "typed in", "stats": {"pa": 1, "pd": 1, "ma": 0, "md": 0}}


def _code(change) -> dict:
    card = copy.deepcopy(NEW_CODE)
    change(card)
    return card


def _set(path: str, value):
    def change(card):
        *parents, last = path.split(".")
        node = card
        for p in parents:
            node = node[int(p)] if p.isdigit() else node[p]
        if value is _DELETE:
            del node[int(last) if last.isdigit() else last]
        else:
            node[int(last) if last.isdigit() else last] = value
    return change


_DELETE = object()

BROKEN = {
    "hero without classes": {k: v for k, v in HERO.items() if k != "classes"},
    "class without class_name": {k: v for k, v in CLASS.items() if k != "class_name"},
    "classes on a class card": {**CLASS, "classes": ["セイバー"]},
    "class_name on a hero": {**HERO, "class_name": "セイバー"},
    "unknown class": {**HERO, "classes": ["Saber"]},
    "stat above the maximum": {**HERO, "stats": {"pa": 1000, "pd": 3, "ma": 2, "md": 2}},
    "stat of the wrong type": {**HERO, "stats": {"pa": "three", "pd": 3, "ma": 2, "md": 2}},
    "id of another kind": {**HERO, "id": "M-090"},
    "provisional without a note": {**HERO, "stats": {"pa": {"value": 3, "provenance": "provisional"},
                                                     "pd": 3, "ma": 2, "md": 2}},
    "constant effect with a cost": _code(_set("effects.1.cost", {"raw": "T", "tap": True})),
    "constant effect with a window": _code(_set("effects.1.window", "any")),
    "draw in a constant effect": _code(_set("effects.1.ops", [{"op": "draw", "count": 1}])),
    "operation without its parameter": _code(_set("effects.0.ops", [{"op": "draw"}])),
    "unknown operation": _code(_set("effects.0.ops", [{"op": "drwa", "count": 1}])),
    "unknown parameter": _code(_set("effects.0.ops", [{"op": "draw", "count": 1, "cuont": 2}])),
    "value not allowed": _code(_set("effects.0.window", "sometimes")),
    "effect without ops": _code(_set("effects.0.ops", [])),
    "cost mana below zero": _code(_set("effects.0.cost", {"raw": "1", "mana": -5})),
    "blank name": {**HERO, "name": "  "},
}


def _problems(card) -> list[str]:
    _, errors = build_card(card, source="<test>")
    return [str(e.message) for e in errors]


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_each_broken_card_gets_its_problem_in_japanese(case):
    messages = _problems(BROKEN[case])
    assert messages, f"{case}: the loader found nothing"
    for message in messages:
        assert localize(message, "en") == message
        assert known(message), f"no Japanese wording for: {message}"
        ja = localize(message, "ja")
        assert ja != message and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", ja)
        # what is left in Latin letters is what the loader quoted: the path, keys and values
        quoted = (set(re.findall(r"'([^']*)'", message)) | set(re.findall(r"[\w.]+", message.split(": ")[0]))
                  | set(re.findall(r"\w+", "".join(re.findall(r"one of: ([^)]*)", message)))))
        leftover = [w for w in re.findall(r"[A-Za-z_]{2,}", ja)
                    if not any(w in q for q in quoted) and w not in ("pa", "true", "false")]
        assert not leftover, f"{case}: {ja!r} keeps English {leftover}"


def test_numbers_and_names_survive_the_rewording():
    (message,) = [m for m in _problems(BROKEN["stat above the maximum"]) if "1000" in m]
    assert "1000" in localize(message, "ja")
    (message,) = _problems(BROKEN["unknown operation"])
    ja = localize(message, "ja")
    assert "「drwa」" in ja and "「draw」" in ja  # the suggestion too


def test_a_sentence_without_a_wording_stays_as_the_loader_wrote_it():
    message = "card files are read on Tuesdays only"
    assert not known(message) and localize(message, "ja") == message


def test_a_blank_field_of_a_patch_is_asked_for_in_japanese():
    assert localize("rule is required", "ja") == "「rule」を入力してください"
    assert localize("rule is required", "en") == "rule is required"


def test_a_form_names_a_missing_or_empty_field_by_the_label_it_shows():
    """The card editor and the patch form showed the file's keys: 「「rule」を入力してください」
    beside a field labelled 「エラッタのルール」, 「カードの「name」が空です」 beside 「名前」."""
    labels = {"rule": "エラッタのルール", "name": "名前"}.get
    assert localize("rule is required", "ja", labels) == "「エラッタのルール」を入力してください"
    assert localize("name: 'name' in card is empty", "ja", labels) == "name: カードの「名前」が空です"
    # a key the form has no label for stays as written; other values are never relabelled
    assert localize("source is required", "ja", lambda k: {"rule": "R"}.get(k, k)) == "「source」を入力してください"
    assert localize("'mana' in cost: value -5 below the minimum 0", "ja", lambda k: "X") == \
        "コストの「mana」：値 -5は下限 0を下回っています"


def test_an_english_form_gets_the_catalog_s_sentence_without_the_loader_s_japanese():
    message = "a hero needs classes: its qualified classes (クラス適性)"
    assert localize(message, "en") == message  # the command line: the loader's words
    assert localize(message, "en", lambda k: k) == "a hero needs classes: its qualified classes"
    assert localize("rule is required", "en", {"rule": "Errata rule"}.get) == "Errata rule is required"


CARDS = Path(__file__).resolve().parents[2] / "cards"

#: a card folder changed one file at a time, as someone correcting a card or an errata would
BROKEN_FILES = {
    "a patch naming a card that is not there": ("errata/house.yaml", "card: M-006", "card: M-066"),
    "a patch whose card changed": ("errata/house.yaml", "    expect: false\n    set: true",
                                   "    expect: true\n    set: true"),
    "a patch at an item the card lacks": ("errata/house.yaml", "path: effects.1.usable_while_down",
                                          "path: effects.5.usable_while_down"),
    "a patch that makes its card invalid": ("errata/house.yaml", "    expect: false\n    set: true",
                                            "    expect: false\n    set: 7"),
    "an append patch whose card changed": ("errata/house.yaml", "count: 1", "count: 4"),
    "a card id that is not its file's": ("mystic_codes/M-006.yaml", "id: M-006", "id: M-066"),
    "a tab in a card file": ("mystic_codes/M-006.yaml", "  - name:", "\t- name:"),
}


@pytest.mark.parametrize("case", sorted(BROKEN_FILES))
def test_a_broken_card_folder_is_said_in_japanese(tmp_path, case):
    """Reloading the cards after an edit that breaks one (or breaks the errata patch over it)."""
    import shutil

    from fate_royal.cards import DataError, load_card_db

    rel, old, new = BROKEN_FILES[case]
    root = tmp_path / "cards"
    shutil.copytree(CARDS, root)
    text = (root / rel).read_text(encoding="utf-8")
    assert old in text
    (root / rel).write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_card_db(root)
    for message, ja in worded(err.value):
        kept = re.sub(r"\([^()]*\.yaml:\d+\)|\[[^\]]*\]|'[^']*'|\S+\.yaml", " ", message)
        words = set(re.findall(r"[a-z_]{3,}", re.sub(r"\([^()]*\.yaml:\d+\)|\[[^\]]*\]|'[^']*'", " ", ja)))
        english = {"does", "not", "which", "exist", "expected", "found", "changed", "check", "against", "makes",
                   "invalid", "item", "has", "the", "card", "patch"}
        assert not words & english, (case, ja)
        assert all(n in ja for n in re.findall(r"\d+", kept)), (case, message, ja)



def test_a_card_file_that_cannot_be_read_is_one_problem_not_two(tmp_path):
    """A tab in M-006.yaml also made the errata patch over M-006 say "names card 'M-006', which does
    not exist (did you mean 'M-007'?)": the file's own problem is the one to fix."""
    import shutil

    from fate_royal.cards import DataError, load_card_db

    root = tmp_path / "cards"
    shutil.copytree(CARDS, root)
    card = root / "mystic_codes" / "M-006.yaml"
    card.write_text(card.read_text(encoding="utf-8").replace("  - name:", "\t- name:", 1), encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_card_db(root)
    messages = [e.message for e in getattr(err.value, "errors", [err.value])]
    assert messages == ["YAML syntax error: found character that cannot start any token"]


#: a rule set file a friend typed by hand, one mistake each
BROKEN_RULESETS = {
    "an unknown key": "title: x\ntitel: y\n",
    "a start that is neither house nor base": "from: fancy\n",
    "switches not in a list": "without: E8\n",
    "an unknown switch": "without: [E99]\n",
    "readings as a list": "readings: [R1]\n",
    "an unknown reading": "readings: {R9: kept}\n",
    "a reading's unknown value": "readings: {R1: maybe}\n",
    "an unknown parameter": "profile: {mana_limt: 5}\n",
    "a parameter's wrong type": "profile: {start_hand: many}\n",
    "a parameter's unknown choice": "profile: {first_player: whoever}\n",
    "parameters that contradict each other": "profile: {start_mana: 9, mana_limit: 5}\n",
    "not a mapping": "- a\n",
}


@pytest.mark.parametrize("case", sorted(BROKEN_RULESETS))
def test_a_broken_rule_set_is_said_in_japanese(tmp_path, case):
    from fate_royal.cards import DataError
    from fate_royal.cards.rulesets import load_ruleset
    from fate_royal.text.dataerrors import localize_lines

    path = tmp_path / "friend.yaml"
    path.write_text(BROKEN_RULESETS[case], encoding="utf-8")
    with pytest.raises(DataError) as err:
        load_ruleset(path)
    for message, ja in worded(err.value):
        leftover = set(re.findall(r"\b(?:must|unknown|got|above|mapping|list|one of|is)\b", ja))
        assert not leftover, (case, ja)
    # as the new-game dialog lists a set that does not load: its file and line, then the problem
    lines = localize_lines(str(err.value), "ja").splitlines()
    assert all(line.startswith(f"{path}:") and re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", line) for line in lines)
    assert localize_lines(str(err.value), "en") == str(err.value)
