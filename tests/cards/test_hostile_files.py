"""Hostile card data, from a security audit: nesting deep enough to exhaust Python's recursion,
files that are named pipes or devices, profiles whose values contradict each other, errata patches
that name no errata rule or give two class cards one class, names with invisible characters. Each
is refused with one ``file:line: message`` (file alone where there is no line), never a traceback,
a hang or a flood of lines."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from fate_royal.cards import DataErrors, load_card_db
from fate_royal.cards.loader import build_card
from fate_royal.cards.pack import PACK_FORMAT, read_pack, read_pack_text, validate_pack
from fate_royal.cards.profile import RulesProfile
from fate_royal.cards.ruleset import RuleSet
from fate_royal.cards.rulesets import load_ruleset, resolve_ruleset
from fate_royal.cards.yamlsrc import MAX_NESTING, MAX_SHOWN_ERRORS, DataError, parse_yaml
from fate_royal.cli import main
from intime import in_time

posix_only = pytest.mark.skipif(os.name != "posix", reason="named pipes and /dev/zero")
NESTED = f"lists and mappings nested too deeply (more than {MAX_NESTING} levels)"


def _errors(call, seconds: float = 60.0) -> list[str]:
    """The lines of the ``DataErrors`` that ``call()`` raises; fails, rather than hanging the suite,
    when it blocks (on a named pipe)."""
    with pytest.raises(DataErrors) as info:
        in_time(call, seconds)
    return [str(e) for e in info.value.errors]


def _nested_not(levels: int) -> str:
    return "{not: " * levels + "{in_combat: true}" + "}" * levels


def _pack(condition: str, name: str = "試作礼装") -> str:
    return (f"format: {PACK_FORMAT}\ncards:\n  - id: M-002\n    kind: mystic_code\n    name: {name}\n"
            "    effects:\n      - name: 試作\n        timing: activated\n        window: raid\n"
            f"        cost: {{raw: T, tap: true}}\n        condition: {condition}\n"
            "        ops: [{op: draw, count: 1}]\n")


# --- A: nesting ------------------------------------------------------------------------------------


def test_nesting_up_to_the_limit_is_read_and_one_level_more_is_refused_at_its_line():
    errors: list[DataError] = []
    ok = "a:\n  b: " + "[" * (MAX_NESTING - 2) + "]" * (MAX_NESTING - 2) + "\n"
    assert parse_yaml(ok, "ok.yaml", errors) is not None and errors == []
    deep = "a:\n  b: " + "[" * (MAX_NESTING - 1) + "]" * (MAX_NESTING - 1) + "\n"
    assert parse_yaml(deep, "deep.yaml", errors) is None
    assert [str(e) for e in errors] == [f"deep.yaml:2: {NESTED}"]


def test_the_shipped_data_is_far_from_the_nesting_limit():
    db = load_card_db()
    assert len(db.cards) > 30  # loads: nothing shipped comes near the limit (the deepest uses 11)


def test_a_pack_nested_200_levels_deep_is_refused_not_a_recursion_error():
    """Below the YAML parser's own limit, deep enough to exhaust Python's recursion in the loader."""
    assert _errors(lambda: read_pack_text(_pack(_nested_not(200)), "deep.yaml")) == [
        f"deep.yaml:11: {NESTED}"]


def test_a_deep_pack_given_to_the_loader_names_the_pack(tmp_path):
    """``check`` and the table load the pack (FATE_ROYAL_PACK) with the shipped cards: the pack is
    named, not the shipped folder (it used to be ``cards:0: RecursionError``)."""
    path = tmp_path / "pack.yaml"
    path.write_text(_pack(_nested_not(200)), encoding="utf-8")
    assert _errors(lambda: load_card_db(pack=path)) == [f"{path.as_posix()}:11: {NESTED}"]


def test_a_user_patch_setting_a_deep_value_names_the_patch_file(tmp_path):
    path = tmp_path / "mine.yaml"
    path.write_text("pack: mine\npatches:\n  - id: X1\n    rule: E9.1\n    source: s\n"
                    "    card: M-007\n    path: effects.1.ops\n    expect: []\n"
                    f"    set: [{{op: draw, count: 1, if: {_nested_not(200)}}}]\n", encoding="utf-8")
    assert _errors(lambda: load_card_db(patch_files=[path])) == [f"{path.as_posix()}:9: {NESTED}"]


def test_deep_plain_cards_such_as_a_saves_are_refused_without_recursing():
    condition: dict = {"in_combat": True}
    for _ in range(2000):
        condition = {"not": condition}
    card = {"id": "M-050", "kind": "mystic_code", "name": "x", "effects": [
        {"name": "e", "timing": "activated", "condition": condition, "ops": [{"op": "draw", "count": 1}]}]}
    assert _errors(lambda: load_card_db(extra=[card])) == [f"cards item 1: {NESTED}"]
    assert build_card(card)[0] is None and [str(e) for e in build_card(card)[1]] == [f"<card>:0: {NESTED}"]


# --- B: named pipes and devices --------------------------------------------------------------------


@posix_only
def test_a_pack_that_is_a_named_pipe_or_a_device_is_refused(tmp_path, monkeypatch):
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.yaml"
    zero.symlink_to("/dev/zero")
    assert _errors(lambda: read_pack(fifo)) == [
        f"{fifo.as_posix()}:0: cannot read the card pack: not a regular file (a named pipe)"]
    assert _errors(lambda: read_pack(zero)) == [
        f"{zero.as_posix()}:0: cannot read the card pack: not a regular file (a device)"]
    monkeypatch.setenv("FATE_ROYAL_PACK", str(fifo))
    assert _errors(load_card_db) == [
        f"{fifo.as_posix()}:0: cannot read the card pack: not a regular file (a named pipe)"]


def test_a_pack_file_larger_than_the_limit_is_refused_by_its_size(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_bytes(b"note: '" + b"x" * (3 * 1024 * 1024) + b"'\n")
    assert _errors(lambda: read_pack(path)) == [
        f"{path.as_posix()}:0: a card pack is at most 2048 KB (this file has 3072 KB)"]


@posix_only
def test_card_files_errata_packs_and_rule_sets_that_are_no_regular_files_are_named(cards, tmp_path):
    os.mkfifo(cards.path("mystic_codes/M-050.yaml"))
    assert cards.errors() == [f"{cards.label('mystic_codes/M-050.yaml')}:0: cannot read file: not a "
                              "regular file (a named pipe)"]
    os.remove(cards.path("mystic_codes/M-050.yaml"))
    user = tmp_path / "mine.yaml"
    user.symlink_to("/dev/zero")
    assert _errors(lambda: load_card_db(patch_files=[user])) == [
        f"{user.as_posix()}:0: cannot read file: not a regular file (a device)"]
    folder = tmp_path / "rules.yaml"
    folder.mkdir()
    assert _errors(lambda: resolve_ruleset(str(folder), source="SET")) == [
        f"{folder.as_posix()}:0: cannot read file: not a regular file (a folder)"]


@posix_only
def test_a_named_pipe_in_the_users_errata_folder_is_reported(tmp_path):
    from fate_royal.cards.patches import user_pack_path

    folder = user_pack_path().parent
    folder.mkdir(parents=True)
    os.mkfifo(folder / "mine.yaml")
    assert _errors(load_card_db) == [
        f"{(folder / 'mine.yaml').as_posix()}:0: cannot read file: not a regular file (a named pipe)"]


# --- C: profile values that contradict each other --------------------------------------------------


def test_a_rule_set_whose_start_mana_is_above_the_mana_limit_is_refused(tmp_path):
    """Each value is within its bounds; together every game broke the engine's invariant."""
    path = tmp_path / "start6.yaml"
    path.write_text("title: x\nprofile: {start_mana: 6}\n", encoding="utf-8")
    assert _errors(lambda: load_ruleset(path)) == [
        f"{path.as_posix()}:2: start_mana 6 is above mana_limit 5"]
    path.write_text("profile:\n  hand_limit: 6\n  mana_limit: 1\n", encoding="utf-8")
    assert _errors(lambda: load_ruleset(path)) == [
        f"{path.as_posix()}:3: start_mana 5 is above mana_limit 1"]  # the line that set a value
    path.write_text("profile:\n  start_mana: 99\n  mana_limit: 1\n", encoding="utf-8")
    assert _errors(lambda: load_ruleset(path)) == [
        f"{path.as_posix()}:2: start_mana 99 is above mana_limit 1"]
    path.write_text("profile:\n  start_mana: 9\n  mana_limit: 9\n", encoding="utf-8")
    assert load_ruleset(path).profile.start_mana == 9


def test_a_profile_file_and_profile_overrides_are_checked_together(cards):
    from fate_royal.cards.loader import load_profile

    line = cards.edit("profile.yaml", "start_mana: 5", "start_mana: 7")
    assert _errors(lambda: load_profile(cards.path("profile.yaml"))) == [
        f"{cards.label('profile.yaml')}:{line}: start_mana 7 is above mana_limit 5"]
    assert load_profile(cards.path("profile.yaml"), {"mana_limit": 7}).start_mana == 7
    assert _errors(lambda: load_profile(None, {"mana_limit": 2}, overrides_source="s.yaml")) == [
        "s.yaml:0: start_mana 5 is above mana_limit 2"]


def test_a_profile_built_in_code_or_from_a_save_cannot_contradict_itself():
    with pytest.raises(ValueError, match="start_mana 6 is above mana_limit 5"):
        RulesProfile.from_mapping({"start_mana": 6})
    with pytest.raises(ValueError, match="start_mana 5 is above mana_limit 4"):
        RulesProfile.defaults().with_(mana_limit=4)
    with pytest.raises(ValueError, match="start_mana 99 is above mana_limit 1"):
        RuleSet.from_dict({"profile": {"start_mana": 99, "mana_limit": 1}})
    assert RulesProfile.defaults().with_(mana_limit=4, start_mana=4).start_mana == 4


# --- D, E: user errata patches ---------------------------------------------------------------------


def _user_patch(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "mine.yaml"
    path.write_text("pack: mine\ntitle: mine\npatches:\n  - id: X1\n" + body, encoding="utf-8")
    return path


def test_a_patch_whose_rule_is_no_errata_rule_is_refused(tmp_path):
    """It used to load and stay applied under the base rules, so no base-rules game could start."""
    path = _user_patch(tmp_path, "    rule: Z9\n    source: s\n    card: M-007\n"
                                 "    path: effects.1.ops\n"
                                 "    expect: [{op: draw, count: 1}, {op: discard, subject: self, count: 1}]\n"
                                 "    set: [{op: draw, count: 2}]\n")
    assert _errors(lambda: load_card_db(patch_files=[path])) == [
        f"{path.as_posix()}:5: rule 'Z9' is not an errata rule (E1.1 … E9.7)"]
    assert _errors(lambda: load_card_db(patch_files=[path], rules=RuleSet.base()))


def test_a_patch_of_an_unknown_rule_is_never_on():
    for rules in (RuleSet.base(), RuleSet.house()):
        assert not rules.patch_on("X1", "Z9")
    assert RuleSet.house().patch_on("E9.1-a", "E9.1") and not RuleSet.base().patch_on("E9.1-a", "E9.1")


def test_a_patch_cannot_give_a_class_card_the_class_of_another(tmp_path):
    """The same change in a card pack is refused ("class アーチャー already has the class card
    C-002"); a patch is checked the same way, after every patch is applied."""
    path = _user_patch(tmp_path, "    rule: E9.1\n    source: s\n    card: C-001\n"
                                 "    path: class_name\n    expect: セイバー\n    set: アーチャー\n")
    assert _errors(lambda: load_card_db(patch_files=[path])) == [
        f"{path.as_posix()}:8: patch X1 makes C-001 invalid: class アーチャー already has the class "
        "card C-002"]
    # two patches that swap two classes leave one card a class: allowed
    path.write_text("pack: mine\npatches:\n"
                    "  - {id: X1, rule: E9.1, source: s, card: C-001, path: class_name, expect: セイバー, "
                    "set: アーチャー}\n"
                    "  - {id: X2, rule: E9.1, source: s, card: C-002, path: class_name, expect: アーチャー, "
                    "set: セイバー}\n", encoding="utf-8")
    db = load_card_db(patch_files=[path])
    assert (db.card("C-001").class_name, db.card("C-002").class_name) == ("アーチャー", "セイバー")


def test_check_says_each_problem_of_a_users_patch_once(capsys):
    """The rule sets name the user's patches too, and each used to report the same error again."""
    from fate_royal.cards.patches import user_pack_path

    path = user_pack_path()
    path.parent.mkdir(parents=True)
    path.write_text("pack: mine\npatches:\n  - id: X1\n    rule: E9.1\n    source: s\n"
                    "    card: M-007\n    path: copies\n    expect: 1\n", encoding="utf-8")
    assert main(["check"]) == 1
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{path.as_posix()}:3: a patch has exactly one of set: or append:"]
    assert "1 error(s)" in err


# --- F: how many lines, which label, which names ---------------------------------------------------


def test_many_errors_are_listed_up_to_a_limit_then_counted():
    errors = DataErrors([DataError("save.json", 0, f"problem {i}") for i in range(MAX_SHOWN_ERRORS + 980)])
    lines = str(errors).splitlines()
    assert len(lines) == MAX_SHOWN_ERRORS + 1
    assert lines[0] == "save.json:0: problem 0" and lines[-1] == "… and 980 more"
    assert len(errors.errors) == MAX_SHOWN_ERRORS + 980  # every one is still there to read
    assert str(DataErrors([DataError("a", 1, "b")])) == "a:1: b"


def test_the_cards_of_a_save_are_not_labelled_with_a_made_up_file():
    """A save's reader names the save; the problems of its cards name the card item, not
    ``<extra cards>:0``."""
    assert _errors(lambda: load_card_db(extra=[{"id": "H-050", "kind": "hero"}, 5])) == [
        "cards item 1: missing required key 'name' in card",
        "cards item 1: classes: a hero needs classes: its qualified classes (クラス適性)",
        "cards item 1: stats: a hero card needs stats {pa, pd, ma, md}",
        "cards item 2 must be a mapping, got integer 5"]


@pytest.mark.parametrize("name, problem", [
    ("試作\u202e礼装", "holds a control or invisible character (U+202E)"),
    ("試作\a", "holds a control or invisible character (U+0007)"),
    ("試作\u200b礼装", "holds a control or invisible character (U+200B)"),
    ("x" * 100_000, "is 100000 characters long, above the maximum 40"),
])
def test_card_and_effect_names_with_invisible_characters_or_too_long_are_refused(name, problem):
    quoted = '"' + name.encode("unicode_escape").decode("ascii") + '"'
    pack = read_pack_text(_pack("{in_combat: true}", quoted), "p.yaml")
    assert _errors(lambda: validate_pack(pack)) == [f"p.yaml:5: 'name' in card {problem}"]
    card, errors = build_card({"id": "M-050", "kind": "mystic_code", "name": "x", "effects": [
        {"name": name, "name_en": "e", "timing": "activated", "ops": [{"op": "draw", "count": 1}]}]})
    assert card is None and [e.message for e in errors] == [
        f"effects.1.name: 'name' in effect {problem}"]


def test_names_of_the_length_printed_names_have_are_taken():
    card, errors = build_card({"id": "M-050", "kind": "mystic_code", "name": "あ" * 40,
                               "name_en": "Decapitating Bunny (Shiki Ryougi) " + "x" * 46,
                               "effects": [{"name": "い" * 40, "timing": "activated",
                                            "ops": [{"op": "draw", "count": 1}]}]})
    assert errors == [] and card is not None
    _card, errors = build_card({"id": "M-050", "kind": "mystic_code", "name": "x", "name_en": "y" * 81})
    assert [e.message for e in errors] == [
        "name_en: 'name_en' in card is 81 characters long, above the maximum 80"]


def test_a_rule_set_option_names_the_option_not_a_made_up_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["run", str(tmp_path), "--compare", "zzz"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "fate-royal run: --compare: no rule set 'zzz': not a shipped set (base, house) nor a file"]
    assert main(["simulate", "--games", "1", "--rules", "zzz"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "fate-royal simulate: --rules: no rule set 'zzz': not a shipped set (base, house) nor a file"]
    assert main(["rules", "show", "zzz"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "fate-royal rules: SET: no rule set 'zzz': not a shipped set (base, house) nor a file"]
    (tmp_path / "dir.yaml").mkdir()
    assert main(["rules", "show", "dir.yaml"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        "fate-royal rules: dir.yaml:0: cannot read file: not a regular file (a folder)"]
