"""Each kind of data error is reported as file:line: message (a broken copy of cards/ per test)."""

from __future__ import annotations

import pytest

from fate_royal.cards import DataError, DataErrors, load_card_db, load_profile
from fate_royal.commands.check import main as check_main


def has_error(errors: list[str], prefix: str, fragment: str) -> bool:
    return any(e.startswith(prefix) and fragment in e for e in errors)

H001 = "heroes/H-001.yaml"


def test_unknown_key_suggests_nearest(cards):
    line = cards.edit(H001, "    cost:\n      raw: R4", "    cots:\n      raw: R4")
    errors = cards.errors()
    assert f"{cards.label(H001)}:{line}: unknown key 'cots' in effect (did you mean 'cost'?)" in errors


def test_missing_required_key(cards):
    line = cards.line_of("scenes/S-003.yaml", "- name: 運命の出会い")
    cards.edit("scenes/S-003.yaml", "    timing: activated\n", "")
    assert has_error(cards.errors(), f"{cards.label('scenes/S-003.yaml')}:{line}: ",
                     "missing required key 'timing' in effect")


def test_wrong_type(cards):
    line = cards.edit(H001, "stats: {pa: 6,", "stats: {pa: six,")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line}: ",
                     "wrong type for 'pa' in stats: expected an integer, got text 'six'")


def test_unknown_operation_suggests_nearest(cards):
    line = cards.edit(H001, "{op: recover, amount: 2}", "{op: recovr, amount: 2}")
    assert f"{cards.label(H001)}:{line}: unknown operation 'recovr' (did you mean 'recover'?)" \
        in cards.errors()


def test_unknown_operation_parameter(cards):
    line = cards.edit(H001, "{op: recover, amount: 2}", "{op: recover, amout: 2}")
    errors = cards.errors()
    assert has_error(errors, f"{cards.label(H001)}:{line}: ",
                     "unknown parameter 'amout' for operation 'recover' (did you mean 'amount'?)")
    assert has_error(errors, f"{cards.label(H001)}:{line}: ", "operation 'recover' needs parameter 'amount'")


def test_enum_value_not_allowed(cards):
    line = cards.edit(H001, "window: damage", "window: dmage")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line}: ",
                     "text 'dmage' is not allowed for 'window' in effect (one of: any, ritual, damage")


def test_operation_not_allowed_in_constant_effect(cards):
    line = cards.edit("heroes/H-012.yaml", "{op: grant_keyword,", "{op: draw, count: 1, x: ")
    cards.edit("heroes/H-012.yaml", "{op: draw, count: 1, x:  subject: combatant, keyword: 先制, "
               "if: {attack_type: magic}}", "{op: draw, count: 1}")
    assert has_error(cards.errors(), f"{cards.label('heroes/H-012.yaml')}:{line}: ",
                     "operation 'draw' cannot be used in a 常時 (constant) effect")


def test_proxy_chip_must_be_on_the_chip_sheet(cards):
    line = cards.edit("heroes/H-008.yaml", "chip: sea_demon", "chip: 海魔")
    assert has_error(cards.errors(), f"{cards.label('heroes/H-008.yaml')}:{line}: ",
                     f"proxy names chip '海魔', which is not on the chip sheet "
                     f"({cards.label('chips.yaml')}) (that is the name of chip 'sea_demon'; use the id)")


def test_chip_taken_off_the_sheet_names_the_sheet(cards):
    """The chip sheet lost a chip a card names (found by the fuzz test): the message at the card's
    line names the sheet as well."""
    text = cards.path("chips.yaml").read_text("utf-8")
    cards.path("chips.yaml").write_text(text[: text.index("  - id: sea_demon")], "utf-8")
    line = cards.line_of("heroes/H-008.yaml", "chip: sea_demon")
    assert has_error(cards.errors(), f"{cards.label('heroes/H-008.yaml')}:{line}: ",
                     f"proxy names chip 'sea_demon', which is not on the chip sheet "
                     f"({cards.label('chips.yaml')})")


def test_hero_class_must_be_a_class(cards):
    line = cards.edit(H001, "classes: [セイバー, ランサー, ライダー, バーサーカー]",
                      "classes: [セイバー, ランサー, ライダー, Berserker]")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line}: ",
                     "unknown class 'Berserker' (classes are written in Japanese")


def test_unknown_keyword(cards):
    line = cards.edit(H001, "keywords: [回復]", "keywords: [回覆]")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line}: ", "unknown keyword '回覆'")


def test_duplicate_card_id(cards):
    cards.path("heroes/H-002_copy.yaml").write_text(cards.path("heroes/H-002.yaml").read_text("utf-8"),
                                                     "utf-8")
    line = cards.line_of("heroes/H-002.yaml", "id: H-002")
    assert f"{cards.label('heroes/H-002_copy.yaml')}:{line}: duplicate card id H-002 (also in " \
        f"{cards.label('heroes/H-002.yaml')}:4)" in cards.errors()


def test_id_must_match_kind_prefix(cards):
    line = cards.edit("scenes/S-003.yaml", "kind: scene", "kind: mystic_code")
    errors = cards.errors()
    assert has_error(errors, f"{cards.label('scenes/S-003.yaml')}:{line - 1}: ",
                     "card id 'S-003' does not match kind 'mystic_code' (mystic_code ids start with M-)")
    assert has_error(errors, f"{cards.label('scenes/S-003.yaml')}:{line}: ",
                     "a mystic_code card in folder scenes/")


def test_provisional_value_needs_a_note(cards):
    line = cards.edit("heroes/H-008.yaml", "{value: 打ち消し, provenance: provisional, note: printed "
                      "name unknown; named after what it does (打ち消し = negation)}",
                      "{value: 打ち消し, provenance: provisional}")
    assert has_error(cards.errors(), f"{cards.label('heroes/H-008.yaml')}:{line}: ",
                     "a provisional value needs a note")


def test_errata_provenance_is_not_written_in_card_files(cards):
    line = cards.edit("heroes/H-008.yaml", "{value: 打ち消し, provenance: provisional,",
                      "{value: 打ち消し, provenance: errata,")
    assert has_error(cards.errors(), f"{cards.label('heroes/H-008.yaml')}:{line}: ",
                     "provenance 'errata' is given by errata patches")


def test_patch_naming_a_missing_card(cards):
    line = cards.edit("errata/house.yaml", "card: M-021", "card: M-022")
    assert has_error(cards.errors(), f"{cards.label('errata/house.yaml')}:{line}: ",
                     "patch E9.6-b names card 'M-022', which does not exist")


def test_patch_with_wrong_expect(cards):
    cards.edit("mystic_codes/M-007.yaml", "{op: rise_cards, count: 2}", "{op: rise_cards, count: 3}")
    line = cards.line_of("errata/house.yaml", "id: E9.1-b") + 5
    errors = cards.errors()
    m007 = "mystic_codes/M-007.yaml"
    card_at = f"{cards.label(m007)}:{cards.line_of(m007, 'id: M-007')}"
    assert errors == [f"{cards.label('errata/house.yaml')}:{line}: patch E9.1-b: M-007 ({card_at}) "
                      "effects.2.ops is "
                      '[{"op": "rise_cards", "count": 3}], not the expected [{"op": "rise_cards", '
                      '"count": 2}] (the card changed; check the patch against it)']
    # with the errata off the pack is not applied, so the card loads
    assert load_card_db(cards.root, errata=False).card("M-007").effect(2).ops[0].params == {"count": 3}


def test_append_patch_checks_the_count(cards):
    line = cards.edit("errata/house.yaml", "expect: {count: 1}", "expect: {count: 2}")
    assert has_error(cards.errors(), f"{cards.label('errata/house.yaml')}:{line}: ",
                     f"patch E9.5: expected 2 item(s) at H-015 ({cards.label('heroes/H-015.yaml')}:"
                     f"{cards.line_of('heroes/H-015.yaml', 'id: H-015')}) effects, found 1")


def test_patch_that_makes_the_card_invalid(cards):
    line = cards.edit("errata/house.yaml", "    set: {players_at_most: 2}", "    set: {players: 2}")
    assert has_error(cards.errors(), f"{cards.label('errata/house.yaml')}:{line}: ",
                     "unknown condition 'players' (did you mean 'players_at_most'?)")


def test_python_tag_is_refused_and_not_executed(cards, tmp_path):
    marker = tmp_path / "executed"
    text = cards.path("heroes/H-002.yaml").read_text("utf-8")
    text = text.replace("note: printed text unknown",
                        f"note: !!python/object/apply:os.system ['touch {marker}']")
    cards.path("heroes/H-002.yaml").write_text(text, "utf-8")
    line = cards.line_of("heroes/H-002.yaml", "!!python")
    errors = cards.errors()
    assert has_error(errors, f"{cards.label('heroes/H-002.yaml')}:{line}: ",
                     "YAML tag !!python/object/apply:os.system is not allowed in data files")
    assert not marker.exists()


def test_python_tag_on_a_scalar_is_refused(cards):
    line = cards.edit(H001, "name_en: Artoria", "name_en: !!python/name:os.system ''")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line}: ", "YAML tag !!python/name:os.system")


def test_broken_yaml_syntax(cards):
    line = cards.edit(H001, "stats: {pa: 6, pd: 5, ma: 3, md: 3}", "stats: {pa: 6, pd: 5, ma: 3, md: 3")
    errors = cards.errors()
    assert len(errors) == 1 and errors[0].startswith(f"{cards.label(H001)}:")
    assert "YAML syntax error" in errors[0]
    assert int(errors[0].split(":")[1]) >= line


def test_non_utf8_bytes(cards):
    line = cards.line_of(H001, "name_en: Artoria")
    data = cards.path(H001).read_bytes().replace(b"name_en: Artoria", b"name_en: Art\xffria")
    cards.path(H001).write_bytes(data)
    assert cards.errors() == [f"{cards.label(H001)}:{line}: not UTF-8 text (byte 0xff)"]


def test_empty_file(cards):
    cards.path("scenes/S-004.yaml").write_text("# nothing here\n", "utf-8")
    assert cards.errors() == [f"{cards.label('scenes/S-004.yaml')}:1: empty file"]


def test_top_level_must_be_a_mapping(cards):
    cards.path("scenes/S-004.yaml").write_text("\n- id: S-004\n", "utf-8")
    assert cards.errors() == [f"{cards.label('scenes/S-004.yaml')}:2: the top level of this file must be "
                              "a mapping (key: value), got a list"]


def test_duplicate_key(cards):
    line = cards.edit(H001, "name_en: Artoria\n", "name_en: Artoria\nname_en: Saber\n")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line + 1}: ", "duplicate key 'name_en'")


def test_all_errors_are_reported_not_only_the_first(cards):
    cards.edit(H001, "window: damage", "window: dmage")
    cards.edit("scenes/S-003.yaml", "{op: draw, count: 2}", "{op: drow, count: 2}")
    with pytest.raises(DataErrors) as info:
        load_card_db(cards.root)
    assert len(info.value) == 2
    assert isinstance(info.value, DataError)  # `except DataError` catches both kinds
    first = info.value.errors[0]
    assert (first.file, first.message.split(" ")[0]) == (cards.label("heroes/H-001.yaml"), "text")
    assert str(first) == f"{first.file}:{first.line}: {first.message}"


def test_check_prints_errors_and_fails(cards, capsys):
    line = cards.edit(H001, "window: damage", "window: dmage")
    assert check_main(["--root", str(cards.root)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{cards.label(H001)}:{line}: text 'dmage' is not allowed")


def test_extra_cards_are_validated_and_override(cards):
    extra = [{"id": "H-099", "kind": "hero", "name": "テスト", "stats": {"pa": 1, "pd": 1, "ma": 1, "md": 1},
              "classes": ["セイバー"], "skills": ["軍団"]},
             {"id": "S-003", "kind": "scene", "name": "改", "effects": [
                 {"name": "運命の出会い", "timing": "activated", "ops": [{"op": "draw", "count": 3}]}]}]
    db = load_card_db(cards.root, extra=extra)
    assert db.card("H-099").has_skill("軍団")
    assert db.card("S-003").effect(1).ops[0].params["count"] == 3
    with pytest.raises(DataErrors) as info:
        load_card_db(cards.root, extra=[{"id": "H-098", "kind": "hero", "name": "x",
                                         "stats": {"pa": 1, "pd": 1, "ma": 1, "md": 1},
                                         "classes": ["セイバー"], "efects": []}],
                     extra_source="scenario.yaml")
    assert str(info.value) == ("scenario.yaml:0: cards item 1: unknown key 'efects' in card "
                               "(did you mean 'effects'?)")


def test_profile_errors(cards):
    line = cards.edit("profile.yaml", "start_mana: 5", "start_manna: 5")
    with pytest.raises(DataErrors) as info:
        load_profile(cards.path("profile.yaml"))
    assert str(info.value) == (f"{cards.label('profile.yaml')}:{line}: unknown rules-profile parameter "
                               "'start_manna' (did you mean 'start_mana'?)")
    with pytest.raises(DataErrors) as info:
        load_profile(overrides={"hand_limit": "seven"})
    assert "hand_limit (D5) must be int" in str(info.value)
    assert load_profile(overrides={"encounter_on": [1, 2]}).encounter_on == [1, 2]


def test_patch_path_that_does_not_exist(cards):
    line = cards.edit("errata/house.yaml", "path: effects.暗殺.ops", "path: effects.暗殺x.ops")
    assert has_error(cards.errors(), f"{cards.label('errata/house.yaml')}:{line}: ",
                     "effects has no item '暗殺x'")


def test_patch_that_no_longer_fits_its_card_names_the_card_file(cards):
    """The card lost the effect a patch changes (found by the fuzz test: M-007 cut short): the
    message, at the patch's line, also names the card's file and line."""
    text = cards.path("mystic_codes/M-007.yaml").read_text("utf-8")
    cards.path("mystic_codes/M-007.yaml").write_text(text[: text.index("  - name: {value: 起動効果2")],
                                                      "utf-8")
    m007 = "mystic_codes/M-007.yaml"
    card_at = f"{cards.label(m007)}:{cards.line_of(m007, 'id: M-007')}"
    assert has_error(cards.errors(), f"{cards.label('errata/house.yaml')}:",
                     f"patch E9.1-b: effects has no item '2' (it has 1), in M-007 ({card_at})")


def test_python_object_mapping_is_refused(cards):
    line = cards.edit(H001, "stats: {pa: 6,", "stats: !!python/object:collections.OrderedDict {pa: 6,")
    assert has_error(cards.errors(), f"{cards.label(H001)}:{line}: ",
                     "YAML tag !!python/object:collections.OrderedDict is not allowed")


def test_scenario_cards_keep_their_lines(cards, tmp_path):
    from fate_royal.cards import read_data_file

    scenario = tmp_path / "scenario.yaml"
    scenario.write_text("title: t\ncards:\n  - id: S-050\n    kind: scene\n    name: x\n"
                        "    effects:\n      - {name: y, timing: activated, ops: [{op: draw, cnt: 1}]}\n",
                        "utf-8")
    data = read_data_file(scenario)
    with pytest.raises(DataErrors) as info:
        load_card_db(cards.root, extra=data["cards"])
    assert f"{scenario.as_posix()}:7: unknown parameter 'cnt' for operation 'draw' (did you mean " \
        "'count'?)" in [str(e) for e in info.value]
