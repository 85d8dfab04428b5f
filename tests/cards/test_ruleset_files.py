"""Rule-set files and switch tokens (``fate_royal.cards.rulesets``, ``RuleSet.with_tokens``): what
each key of a file and each token turns on and off, which base profile a set changes, and the
``file:line: message`` of every refusal -- the line of the offending key or item, never just the
top of the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from fate_royal.cards import DataErrors
from fate_royal.cards.profile import RulesProfile
from fate_royal.cards.ruleset import ERRATA_RULES, RuleSet
from fate_royal.cards.rulesets import load_ruleset, resolve_ruleset, shipped_ruleset
from fate_royal.cards.yamlsrc import lift

PATCHES = ["E9.1-a", "E9.1-b", "E9.6-a", "E9.6-b"]
SUFFIX = "(errata rules are E1.1 … E9.7; patches are listed in cards/errata/)"


def write(tmp_path: Path, text: str, name: str = "mine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors_of(path: Path, **kw) -> list[str]:
    with pytest.raises(DataErrors) as info:
        load_ruleset(path, **kw)
    return [str(e) for e in info.value.errors]


# --- what a file turns on and off -------------------------------------------------------------------


def test_from_house_without_switches_rules_and_patches_off(tmp_path):
    rules = load_ruleset(write(tmp_path, "title: 山札なし\nwithout: [E8, E9.6-b]\n"))
    assert rules.off == {"E8", "E9.6-b"}
    assert not rules.on("E8") and rules.on("E9.6") and rules.on("E1.1")
    assert rules.patch_on("E9.6-a", "E9.6") and not rules.patch_on("E9.6-b", "E9.6")
    assert (rules.title, rules.name) == ("山札なし", "mine")


def test_from_base_with_a_patch_switches_its_rule_on_too(tmp_path):
    """``with: [E9.6-b]`` from the base rules: the patch needs its rule, so E9.6 comes on with it
    (and only E9.6: every other errata rule stays off)."""
    rules = load_ruleset(write(tmp_path, "title: x\nfrom: base\nwith: [E9.6-b, E3]\n"))
    assert rules.on("E9.6") and rules.patch_on("E9.6-b", "E9.6") and rules.on("E3")
    assert rules.off == set(ERRATA_RULES) - {"E9.6", "E3"}


def test_from_base_alone_is_every_errata_rule_off(tmp_path):
    rules = load_ruleset(write(tmp_path, "from: base\n"))
    assert rules.off == set(ERRATA_RULES) and rules.no_errata
    assert (rules.title, rules.name) == ("mine", "mine")  # no title: the file's stem


def test_without_then_with_from_house(tmp_path):
    """``without`` is applied before ``with``: naming a rule in both leaves it on."""
    rules = load_ruleset(write(tmp_path, "without: [E8, E5]\nwith: [E8]\n"))
    assert rules.off == {"E5"}


def test_readings_by_id_or_by_key_and_profile_changes(tmp_path):
    rules = load_ruleset(write(tmp_path, "readings:\n  R1: kept\n  encounter_on_two: own_encounter_step\n"
                                         "profile:\n  hand_limit: 6\n  encounter_on: [1, 2]\n"))
    assert rules.reading("R1") == "kept" and rules.reading("R3") == "own_encounter_step"
    assert rules.reading("R2") == "stays_lost"
    assert (rules.profile.hand_limit, rules.profile.encounter_on, rules.profile.start_mana) == \
        (6, [1, 2], 5)


def test_profile_changes_apply_to_the_profile_given(tmp_path):
    base = RulesProfile.defaults().with_(start_mana=2, hand_limit=3)
    rules = load_ruleset(write(tmp_path, "profile: {hand_limit: 6}\n"), base)
    assert (rules.profile.hand_limit, rules.profile.start_mana) == (6, 2)


def test_without_a_profile_the_data_folders_profile_yaml_is_the_base(cards):
    """A rule set read for another data folder (``root``) changes that folder's profile.yaml, not
    the shipped one."""
    cards.edit("profile.yaml", "start_mana: 5", "start_mana: 3")
    path = cards.path("rulesets/mine.yaml")
    path.write_text("profile: {hand_limit: 6}\n", encoding="utf-8")
    rules = load_ruleset(path, root=cards.root)
    assert (rules.profile.start_mana, rules.profile.hand_limit) == (3, 6)
    assert load_ruleset(path).profile.start_mana == 5


# --- what a file refuses, and where ---------------------------------------------------------------


def test_every_bad_key_and_item_is_reported_at_its_own_line(tmp_path):
    path = write(tmp_path, "\n".join([
        "title: x",                            # 1
        "titel: y",                            # 2
        "title_en: 5",                         # 3
        "note: [a]",                           # 4
        "from: both",                          # 5
        "without: E8",                         # 6
        "with:",                               # 7
        "  - E8",                              # 8
        "  - E99",                             # 9
        "  - 8",                               # 10
        "readings:",                           # 11
        "  R1: maybe",                         # 12
        "  R11: kept",                         # 13
        "  encounter_on_two: own_encounter_step",  # 14
        "  R2: maybe",                         # 15
        "profile:",                            # 16
        "  hand_limit: 500",                   # 17
        "  hand_limt: 5",                      # 18
        "",
    ]))
    f = path.as_posix()
    assert errors_of(path) == [
        f"{f}:2: unknown key 'titel' in a rule set (did you mean 'title'?)",
        f"{f}:3: title_en must be text",
        f"{f}:4: note must be text",
        f"{f}:5: from must be house or base, got 'both'",
        f"{f}:6: without must be a list of rule ids such as [E8, E9.3]",
        f"{f}:9: unknown errata rule or patch 'E99' {SUFFIX}",
        f"{f}:10: unknown errata rule or patch 8 (did you mean 'E8'?) {SUFFIX}",
        f"{f}:12: reading R1 (void_combat_damage) must be one of undone, kept; got 'maybe'",
        f"{f}:13: unknown reading 'R11' (did you mean 'R1'?) (readings: R1, R2, R3, R4, R5, R6, R7)",
        f"{f}:15: reading R2 (lost_effect) must be one of stays_lost, returns; got 'maybe'",
        f"{f}:17: hand_limit (D5): value 500 above the maximum 99",
        f"{f}:18: unknown rules-profile parameter 'hand_limt' (did you mean 'hand_limit'?)",
    ]


def test_a_title_that_is_not_text(tmp_path):
    path = write(tmp_path, "# my set\ntitle: [a, b]\nwith: {E8: true}\n")
    f = path.as_posix()
    assert errors_of(path) == [f"{f}:2: title must be text",
                               f"{f}:3: with must be a list of rule ids such as [E8, E9.3]"]


def test_readings_and_profile_must_be_mappings(tmp_path):
    path = write(tmp_path, "title: x\nreadings: [R1]\nprofile: hand_limit=6\n")
    f = path.as_posix()
    assert errors_of(path) == [f"{f}:2: readings must be a mapping like {{R1: kept}}",
                               f"{f}:3: profile must be a mapping of rules-profile parameters"]


@pytest.mark.parametrize("text", ["- E8\n- E9\n", "just text\n", "42\n"])
def test_a_file_that_is_not_a_mapping(tmp_path, text):
    path = write(tmp_path, text)
    assert errors_of(path) == [f"{path.as_posix()}:1: a rule set must be a mapping (title, without, "
                               "readings…)"]


def test_the_label_replaces_the_path_in_messages(tmp_path):
    path = write(tmp_path, "title: x\nfrom: none\n")
    assert errors_of(path, label="shared/set.yaml") == \
        ["shared/set.yaml:2: from must be house or base, got 'none'"]


def test_text_is_checked_instead_of_the_file(tmp_path):
    """``text=`` (what save_user_ruleset checks before writing): the file need not exist; the name
    still comes from the path."""
    path = tmp_path / "later.yaml"
    rules = load_ruleset(path, text="title: later\nwithout: [E5]\n")
    assert (rules.off, rules.title, rules.name) == ({"E5"}, "later", "later")
    with pytest.raises(DataErrors) as info:
        load_ruleset(path, text="title: later\nwithout: [E77]\n")
    assert str(info.value) == f"{path.as_posix()}:2: unknown errata rule or patch 'E77' {SUFFIX}"


# --- shipped sets ---------------------------------------------------------------------------------


def test_shipped_sets_and_their_labels():
    house, base = shipped_ruleset("house"), shipped_ruleset("base")
    assert house.off == frozenset() and base.off == set(ERRATA_RULES)
    assert (house.name, base.name) == ("house", "base")
    assert base.title == "基本ルール（エラッタなし）"


def test_a_shipped_set_changes_the_profile_given():
    mine = RulesProfile.defaults().with_(hand_limit=3)
    assert shipped_ruleset("house", mine).profile.hand_limit == 3
    assert shipped_ruleset("base", mine).profile.hand_limit == 3


def test_an_unknown_shipped_set_lists_the_shipped_ones():
    with pytest.raises(DataErrors) as info:
        shipped_ruleset("casual")
    assert [str(e) for e in info.value.errors] == ["casual:0: no shipped rule set 'casual' "
                                                  "(shipped: base, house)"]


def test_a_data_folders_own_shipped_sets(cards):
    """With ``root``, the shipped sets are that folder's rulesets/ (and messages name its files)."""
    cards.path("rulesets/quick.yaml").write_text("title: 早い\nwithout: [E8]\nwith: [E9\n",
                                                 encoding="utf-8")
    with pytest.raises(DataErrors) as info:
        shipped_ruleset("quick", root=cards.root)
    assert str(info.value).startswith(f"{cards.label('rulesets/quick.yaml')}:")
    cards.path("rulesets/quick.yaml").write_text("title: 早い\nwithout: [E8]\n", encoding="utf-8")
    assert shipped_ruleset("quick", root=cards.root).off == {"E8"}
    with pytest.raises(DataErrors) as info:
        shipped_ruleset("nope", root=cards.root)
    assert str(info.value) == "nope:0: no shipped rule set 'nope' (shipped: base, house, quick)"


# --- resolve_ruleset: a name, a file, or switch tokens --------------------------------------------


def test_resolve_a_shipped_name_errata_means_house():
    mine = RulesProfile.defaults().with_(hand_limit=4)
    for spec in ("errata", "house"):
        rules = resolve_ruleset(spec, profile=mine)
        assert (rules.off, rules.name, rules.profile.hand_limit) == (frozenset(), "house", 4)
    rules = resolve_ruleset("base", profile=mine)
    assert (rules.off, rules.name, rules.profile.hand_limit) == (set(ERRATA_RULES), "base", 4)


def test_resolve_a_data_folders_extra_shipped_set_by_name(cards):
    cards.path("rulesets/quick.yaml").write_text("title: 早い\nwithout: [E8]\nprofile: {start_hand: 4}\n",
                                                 encoding="utf-8")
    mine = RulesProfile.defaults().with_(hand_limit=4)
    rules = resolve_ruleset("quick", root=cards.root, profile=mine)
    assert (rules.off, rules.name, rules.title) == ({"E8"}, "quick", "早い")
    assert (rules.profile.start_hand, rules.profile.hand_limit) == (4, 4)


def test_resolve_house_and_base_without_shipped_files(tmp_path):
    """A data folder with no rulesets/: house and base are still the two built-in sets."""
    (tmp_path / "cards").mkdir()
    mine = RulesProfile.defaults().with_(hand_limit=4)
    house = resolve_ruleset("errata", root=tmp_path / "cards", profile=mine)
    assert resolve_ruleset("house", root=tmp_path / "cards", profile=mine) == house
    base = resolve_ruleset("base", root=tmp_path / "cards", profile=mine)
    assert (house.off, house.name, house.title, house.profile.hand_limit) == \
        (frozenset(), "house", "house", 4)
    assert (base.off, base.name, base.title, base.profile.hand_limit) == \
        (set(ERRATA_RULES), "base", "base", 4)


def test_resolve_a_file_next_to_the_scenario(tmp_path):
    """A relative name is looked up beside the file that names it (``relative_to``), even a file
    called ``base``."""
    write(tmp_path, "without: [E5]\n", "quick.yaml")
    write(tmp_path, "from: house\nwithout: [E7.1]\n", "base")
    assert resolve_ruleset("quick.yaml", relative_to=tmp_path).off == {"E5"}
    assert resolve_ruleset("base", relative_to=tmp_path).off == {"E7.1"}
    assert resolve_ruleset(str(tmp_path / "quick.yaml")).off == {"E5"}
    mine = RulesProfile.defaults().with_(hand_limit=4)
    assert resolve_ruleset("quick.yaml", relative_to=tmp_path, profile=mine).profile.hand_limit == 4


def test_resolve_a_users_own_set_by_name(tmp_path, monkeypatch):
    folder = tmp_path / "user"
    folder.mkdir()
    write(folder, "without: [E3]\nprofile: {start_hand: 4}\n", "slow.yaml")
    monkeypatch.setattr("fate_royal.cards.rulesets.user_rulesets_dir", lambda: folder)
    mine = RulesProfile.defaults().with_(hand_limit=4)
    rules = resolve_ruleset("slow", profile=mine)
    assert (rules.off, rules.name, rules.profile.start_hand, rules.profile.hand_limit) == \
        ({"E3"}, "slow", 4, 4)
    (folder / "sub").mkdir()
    write(folder / "sub", "without: [E3]\n", "slow.yaml")
    with pytest.raises(DataErrors) as info:  # a name, not a path into the user's folder
        resolve_ruleset("sub/slow", source="s.yaml")
    assert str(info.value) == "s.yaml:0: no rule set 'sub/slow': not a shipped set (base, house) nor a file"


@pytest.mark.parametrize("spec", ["", 5, None, {"from": "base"}])
def test_resolve_refuses_what_names_no_set(spec):
    with pytest.raises(DataErrors) as info:
        resolve_ruleset(spec, source="game.yaml")
    assert [str(e) for e in info.value.errors] == [
        "game.yaml:0: rules must name a rule set (house, base, a file) or list switches like "
        "[errata, -E9.3]"]


def test_resolve_an_unknown_name_names_the_source():
    with pytest.raises(DataErrors) as info:
        resolve_ruleset("casual")
    assert [str(e) for e in info.value.errors] == [
        "<rules>:0: no rule set 'casual': not a shipped set (base, house) nor a file"]


def test_resolve_tokens_on_the_house_set_or_a_given_base():
    rules = resolve_ruleset(["errata", "-E9.6-b", "R1=kept"])
    assert rules.off == {"E9.6-b"} and rules.reading("R1") == "kept"
    start = RuleSet.base()
    assert resolve_ruleset(["+E8"], base=start).off == set(ERRATA_RULES) - {"E8"}
    mine = RulesProfile.defaults().with_(hand_limit=4)
    assert resolve_ruleset(["-E8"], profile=mine).profile.hand_limit == 4


def test_resolve_a_bad_token_names_the_source_or_the_list_line():
    """From plain data the message names the source (line 0); from a scenario file's list, the
    list's own file and line."""
    with pytest.raises(DataErrors) as info:
        resolve_ruleset(["errata", "-E99"], source="game.yaml")
    assert [str(e) for e in info.value.errors] == [
        "game.yaml:0: unknown errata rule or patch 'E99' (errata rules are E1.1 … E9.7; patches as "
        "in cards/errata/)"]
    with pytest.raises(DataErrors) as info:
        resolve_ruleset(lift(["R1=maybe"], "scenarios/x.yaml", 7), source="game.yaml")
    assert [str(e) for e in info.value.errors] == [
        "scenarios/x.yaml:7: reading R1 (void_combat_damage) must be one of undone, kept; got 'maybe'"]


# --- switch tokens --------------------------------------------------------------------------------


def test_tokens_minus_off_plus_or_bare_on():
    rules = RuleSet.house().with_tokens(["-E8", "-E5", "-E3", "+E8", "E5"], PATCHES)
    assert rules.off == {"E3"}


def test_tokens_are_applied_in_order_and_trimmed():
    rules = RuleSet.house().with_tokens([" base ", "+E9.6-b", "house", "-E1.3"], PATCHES)
    assert rules.off == {"E1.3"}
    assert RuleSet.house().with_tokens(["-E1.3", "base"]).off == set(ERRATA_RULES)


def test_base_turns_every_errata_rule_off_and_keeps_patches_off():
    rules = RuleSet.house().with_(off={"E9.6-b"}).with_tokens(["base"], PATCHES)
    assert rules.off == set(ERRATA_RULES) | {"E9.6-b"}


def test_house_turns_on_what_it_knows_and_keeps_other_switches():
    """``errata``/``house`` switch on every errata rule and every patch of the pack; a switch it
    was not told about stays as it was."""
    start = RuleSet.base().with_(off=set(ERRATA_RULES) | {"E9.6-b", "X-1"})
    assert start.with_tokens(["errata"], PATCHES).off == {"X-1"}
    assert start.with_tokens(["house"]).off == {"E9.6-b", "X-1"}


def test_a_patch_token_switches_its_rule_on_not_its_sibling():
    start = RuleSet.base().with_tokens(["-E9.6-a"], PATCHES)
    rules = start.with_tokens(["+E9.6-b"], PATCHES)
    assert rules.on("E9.6") and rules.patch_on("E9.6-b", "E9.6")
    assert not rules.patch_on("E9.6-a", "E9.6")
    assert rules.off == (set(ERRATA_RULES) - {"E9.6"}) | {"E9.6-a"}
    assert RuleSet.base().with_tokens(["E9.1-a"], PATCHES).on("E9.1")


def test_reading_tokens_by_id_or_key():
    rules = RuleSet.house().with_tokens(["R1 = kept", "lost_effect=returns", "R7=per_name"])
    assert rules.readings == {"R1": "kept", "R2": "returns", "R7": "per_name"}
    # back to the default: no longer recorded as a change
    assert RuleSet.house().with_tokens(["R1=kept", "R1=undone"]).readings == {}
    kept = RuleSet.house().with_tokens(["R1=kept"]).with_tokens(["-E8"])
    assert kept.readings == {"R1": "kept"} and kept.off == {"E8"}


@pytest.mark.parametrize("tokens, message", [
    (["R9=kept"], "unknown reading 'R9'"),
    (["R11=kept"], "unknown reading 'R11' (did you mean 'R1'?)"),
    (["R1=maybe"], "reading R1 (void_combat_damage) must be one of undone, kept; got 'maybe'"),
    (["R1=kept=undone"], "reading R1 (void_combat_damage) must be one of undone, kept; got "
                         "'kept=undone'"),
    (["E99"], "unknown errata rule or patch 'E99' (errata rules are E1.1 … E9.7; patches as in "
              "cards/errata/)"),
    (["-E9.6-bb"], "unknown errata rule or patch 'E9.6-bb' (did you mean 'E9.6-b'?) (errata rules "
                  "are E1.1 … E9.7; patches as in cards/errata/)"),
    (["+E9.6-b"], "unknown errata rule or patch 'E9.6-b' (did you mean 'E9.6'?) (errata rules "
                  "are E1.1 … E9.7; patches as in cards/errata/)"),
])
def test_bad_tokens_are_refused_naming_the_token(tokens, message):
    """Patch ids are known only when the pack's patches are passed (here: none for E9.6-b)."""
    patches = PATCHES if tokens != ["+E9.6-b"] else []
    with pytest.raises(ValueError) as info:
        RuleSet.house().with_tokens(tokens, patches)
    assert str(info.value) == message


# --- another data folder (root): its patches, its profile, its shipped sets ------------------------


def drop_patch(cards, patch_id: str) -> None:
    """Take one patch out of the copy's errata pack."""
    rel = "errata/house.yaml"
    text = cards.path(rel).read_text("utf-8")
    start = text.index(f"  - id: {patch_id}\n")
    end = text.find("  - id: ", start + 1)
    cards.path(rel).write_text(text[:start] + (text[end:] if end != -1 else ""), "utf-8")


def test_a_data_folders_patches_are_the_switches_it_knows(cards):
    """A set read for another data folder may name only that folder's patches: E9.6-b taken out
    of its errata pack is refused there (in a file, a shipped set of the folder, or tokens)."""
    drop_patch(cards, "E9.6-b")
    path = cards.path("rulesets/quick.yaml")
    path.write_text("title: 早い\nwithout: [E9.6-b]\n", encoding="utf-8")
    assert load_ruleset(path).off == {"E9.6-b"}  # the shipped cards still have it
    message = f"{path.as_posix()}:2: unknown errata rule or patch 'E9.6-b'"
    assert errors_of(path, root=cards.root)[0].startswith(message)
    with pytest.raises(DataErrors) as info:
        shipped_ruleset("quick", root=cards.root)
    assert str(info.value).startswith(message)
    with pytest.raises(DataErrors) as info:
        resolve_ruleset(["-E9.6-b"], root=cards.root, source="game.yaml")
    assert str(info.value).startswith("game.yaml:0: unknown errata rule or patch 'E9.6-b'")
    assert resolve_ruleset(["-E9.6-b"]).off == {"E9.6-b"}


def test_resolve_reads_a_data_folders_own_house_set_and_profile(cards):
    cards.path("rulesets/house.yaml").write_text("title: うちのハウス\nwithout: [E8]\n", encoding="utf-8")
    cards.edit("profile.yaml", "start_mana: 5", "start_mana: 3")
    rules = resolve_ruleset("house", root=cards.root)
    assert (rules.off, rules.title, rules.profile.start_mana) == ({"E8"}, "うちのハウス", 3)
    other = cards.root.parent / "other.yaml"
    other.write_text("without: [E5]\n", encoding="utf-8")
    rules = resolve_ruleset(str(other), root=cards.root)
    assert (rules.off, rules.profile.start_mana) == ({"E5"}, 3)
    cards.path("rulesets/quick.yaml").write_text("without: [E8]\n", encoding="utf-8")
    with pytest.raises(DataErrors) as info:
        resolve_ruleset("casual", root=cards.root)
    assert str(info.value) == \
        "<rules>:0: no rule set 'casual': not a shipped set (base, house, quick) nor a file"


def test_a_users_set_is_read_against_the_data_folders_profile(cards, tmp_path, monkeypatch):
    folder = tmp_path / "user"
    folder.mkdir()
    write(folder, "without: [E3]\n", "slow.yaml")
    monkeypatch.setattr("fate_royal.cards.rulesets.user_rulesets_dir", lambda: folder)
    cards.edit("profile.yaml", "start_mana: 5", "start_mana: 3")
    assert resolve_ruleset("slow", root=cards.root).profile.start_mana == 3
    assert resolve_ruleset("slow").profile.start_mana == 5


def test_errors_in_a_shipped_set_name_it_as_cards_rulesets(tmp_path, monkeypatch):
    """The shipped sets are named by their place in the data (cards/rulesets/house.yaml), not by
    wherever the program is installed."""
    (tmp_path / "house.yaml").write_text("title: x\nwithout: [E99]\n", encoding="utf-8")
    monkeypatch.setattr("fate_royal.cards.rulesets.shipped_dir", lambda root=None: tmp_path)
    with pytest.raises(DataErrors) as info:
        shipped_ruleset("house")
    assert str(info.value) == f"cards/rulesets/house.yaml:2: unknown errata rule or patch 'E99' {SUFFIX}"
