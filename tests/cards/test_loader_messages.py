"""The card checks as the card editor sees them (``loader.build_card``: the same checks as for a card
file, errors without a line start with the dotted path of the field) and as ``fate-royal check``
sees them (``file:line: message`` at the line of the offending key). Each case pins the whole
list of errors, so a check that stops firing, fires twice or names another field fails."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from fate_royal.cards import load_card_db
from fate_royal.cards.loader import build_card
from fate_royal.cards.model import Cost, Target

KEYWORD_HELP = ("(known: 先制, 支援, 代理戦闘, 騎乗, 軍団, 直感, 回復, 対魔力, 竜; 竜 takes a rank of 1 "
                "to 99 in ASCII digits, e.g. 竜5)")
CLASS_LIST = "セイバー, アーチャー, ランサー, ライダー, キャスター, アサシン, バーサーカー"
STATS = {"pa": 1, "pd": 2, "ma": 3, "md": 4}


def code(**kw) -> dict:
    """A mystic code that loads; ``kw`` changes or adds fields."""
    card = {"id": "M-050", "kind": "mystic_code", "name": "試作"}
    card.update(kw)
    return card


def eff(**kw) -> dict:
    effect = {"name": "一", "timing": "activated", "ops": [{"op": "draw", "count": 1}]}
    effect.update(kw)
    return effect


def errors(mapping: dict, chips=None) -> list[str]:
    card, errs = build_card(mapping, chips, source="<card>")
    assert card is None if errs else card is not None
    return [str(e) for e in errs]


# --- the card itself ------------------------------------------------------------------------------


@pytest.mark.parametrize("mapping, expected", [
    (code(id="M-50"), ["id: card id 'M-50' must look like H-001 (kind prefix, dash, three digits)"]),
    (code(id="M-０５０"), ["id: card id 'M-０５０' has non-ASCII characters ('０', '５': full-width or "
                          "another script's letters or digits); write M-050"]),
    (code(id=" M-050"), ["id: card id ' M-050' has spaces or line breaks around it; write M-050 (a "
                         "plain, unquoted id)"]),
    (code(id="H-050"), ["id: card id 'H-050' does not match kind 'mystic_code' (mystic_code ids "
                        "start with M-)"]),
    (code(classes=["セイバー"]), ["classes: only hero cards have classes (qualified classes)"]),
    (code(class_name="セイバー"), ["class_name: only class cards have class_name"]),
    (code(copies=0), ["copies: 'copies' in card: value 0 below the minimum 1"]),
    (code(skills=["先制", "竜0", "竜5", "飛行"]), [
        f"skills: unknown keyword '竜0' in skills {KEYWORD_HELP} (did you mean '竜'?)",
        f"skills: unknown keyword '飛行' in skills {KEYWORD_HELP}"]),
    (code(name=5, kind="spell", text=3), [
        "kind: text 'spell' is not allowed for 'kind' in card (one of: hero, class, mystic_code, scene)",
        "name: wrong type for 'name' in card: expected text, got integer 5",
        "text: wrong type for 'text' in card: expected text, got integer 3"]),
    (code(name=""), ["name: 'name' in card is empty"]),
    (code(name="  "), ["name: 'name' in card is empty"]),
    (code(effects={"name": "x"}), ["effects: effects must be a list, got a mapping"]),
    (code(effects=[eff(), eff(ops=[{"op": "recover", "amount": 1}])]),
     ["effects.2: card already has an effect named '一' (effect 1)"]),
])
def test_card_level_checks(mapping, expected):
    assert errors(mapping) == [f"<card>:0: {e}" for e in expected]


def hero(**kw) -> dict:
    card = {"id": "H-050", "kind": "hero", "name": "英霊", "stats": dict(STATS)}
    card.update(kw)
    return card


def klass(**kw) -> dict:
    card = {"id": "C-050", "kind": "class", "name": "剣", "stats": dict(STATS)}
    card.update(kw)
    return card


@pytest.mark.parametrize("mapping, expected", [
    (hero(), ["classes: a hero needs classes: its qualified classes (クラス適性)"]),
    (hero(classes=[]), ["classes: a hero needs classes: its qualified classes (クラス適性)"]),
    (hero(classes=["saber", "剣士"]), [
        f"classes: unknown class 'saber' (classes are written in Japanese: {CLASS_LIST}) "
        "(did you mean 'セイバー'?)",
        f"classes: unknown class '剣士' (classes are written in Japanese: {CLASS_LIST})"]),
    (hero(classes=["セイバー"], stats=None), ["stats: a hero card needs stats {pa, pd, ma, md}"]),
    (klass(), ["class_name: a class card needs class_name (e.g. セイバー)"]),
    (klass(class_name="archer"), ["class_name: unknown class 'archer' (did you mean 'アーチャー'?)"]),
    (klass(class_name="弓兵"), ["class_name: unknown class '弓兵'"]),
    (klass(class_name="セイバー", stats={"pa": 1}), [
        "stats: missing required key 'pd' in stats", "stats: missing required key 'ma' in stats",
        "stats: missing required key 'md' in stats"]),
])
def test_hero_and_class_checks(mapping, expected):
    assert errors(mapping) == [f"<card>:0: {e}" for e in expected]


def test_a_good_card_is_built_with_every_field():
    card, errs = build_card(code(
        name_en="Proto", copies=2, text="テキスト", note="メモ", skills=["先制", "竜5"],
        effects=[eff(name_en="One", text="引く", text_en="draw", note="n", keywords=["回復"],
                     window="ritual", usable_while_down=True, cost={"raw": "T", "tap": True}),
                 eff(name="二", target={"kind": "stack_effect"}, ops=[{"op": "negate"}])]),
        source="editor")
    assert errs == [] and card is not None
    assert (card.id, card.kind, card.name, card.name_en, card.copies, card.text, card.note) == \
        ("M-050", "mystic_code", "試作", "Proto", 2, "テキスト", "メモ")
    assert card.skills == ("先制", "竜5") and card.classes == () and card.class_name == ""
    assert (card.provenance_default, card.source_file, card.source_line) == ("printed", "editor", 0)
    one, two = card.effects
    assert (one.name, one.name_en, one.text, one.text_en, one.note, one.index) == \
        ("一", "One", "引く", "draw", "n", 1)
    assert (one.window, one.keywords, one.usable_while_down, one.unplayable) == \
        ("ritual", ("回復",), True, False)
    assert one.cost == Cost(raw="T", tap=True) and one.target == Target()
    assert [(op.op, op.params) for op in one.ops] == [("draw", {"count": 1})]
    assert (two.window, two.index, two.target.kind) == ("any", 2, "stack_effect")
    assert two.ops[0].params == {"what": "any"}  # the default of an optional parameter
    assert card.locations == {"id": ("editor", 0), "effects.1": ("editor", 0),
                              "effects.2": ("editor", 0)}


def test_hero_and_class_cards_keep_their_classes_and_stats():
    h, errs = build_card(hero(classes=["セイバー", "ランサー"]))
    assert errs == [] and h.classes == ("セイバー", "ランサー") and (h.stats.pa, h.stats.md) == (1, 4)
    c, errs = build_card(klass(class_name="セイバー"))
    assert errs == [] and c.class_name == "セイバー" and c.stats.ma == 3


def test_an_entered_card_says_so():
    card, _ = build_card(code(), entered=True)
    assert card.provenance_default == "entered"
    card, _ = build_card(code(provenance="provisional"))
    assert card.provenance_default == "provisional"


def test_the_source_names_the_card_in_every_error():
    _, errs = build_card(code(id="M-5", copies=0), source="pack:M-5")
    assert [(e.file, e.line) for e in errs] == [("pack:M-5", 0), ("pack:M-5", 0)]


# --- effects --------------------------------------------------------------------------------------


@pytest.mark.parametrize("effects, expected", [
    (["x"], ["effects.1: an effect must be a mapping, got text 'x'"]),
    ([eff(timing="constant", cost={"raw": "T", "tap": True}, window="raid",
          ops=[{"op": "grant_keyword", "keyword": "先制"}])],
     ["effects.1: a 常時 (constant) effect has no cost (B4)",
      "effects.1: a 常時 (constant) effect has no window"]),
    ([eff(timing="constant", cost={"raw": "常時"}, ops=[{"op": "grant_keyword", "keyword": "先制"}])],
     ["effects.1: a 常時 (constant) effect has no cost (B4)"]),
    ([eff(unplayable=True)],
     ["effects.1: an effect marked unplayable (not yet playable) has no ops and no script",
      "effects.1: a not yet playable effect keeps its printed text: add text: (the card's Japanese "
      "text)"]),
    ([{"name": "一", "timing": "activated", "unplayable": True}],
     ["effects.1: a not yet playable effect keeps its printed text: add text: (the card's Japanese "
      "text)"]),
    ([{"name": "一", "timing": "activated"}],
     ["effects.1: effect '一' has no ops (and no script; an effect the vocabulary cannot express is "
      "marked unplayable: true with its text:)"]),
    ([eff(ops=[{"op": "negate"}])],
     ["effects.1: operation 'negate' acts on the effect's target, but the effect has no target "
      "(add target: {kind: ...})"]),
    ([eff(ops=[{"op": "damage", "amount": 1}])],
     ["effects.1: operation 'damage' acts on the effect's target, but the effect has no target "
      "(add target: {kind: ...})"]),
    ([eff(target={"kind": "player"}, ops=[{"op": "revive"}])],
     ["effects.1: operation 'revive' needs a target of kind 'dropped_player', not 'player'"]),
    ([eff(target={"kind": "servant"}, ops=[{"op": "negate"}])],
     ["effects.1: operation 'negate' needs a target of kind 'stack_effect', not 'servant'"]),
    ([eff(ops=[{"op": "roll_die", "outcomes": [{"faces": [1], "ops": [{"op": "steal_random"}]}]}])],
     ["effects.1: operation 'steal_random' acts on the effect's target, but the effect has no "
      "target (add target: {kind: ...})"]),
    ([eff(unless_target_has="先制")], ["effects.1: unless_target_has needs a target"]),
    ([eff(unless_target_has="飛行", target={"kind": "servant"})],
     [f"effects.1: unknown keyword '飛行' in effect {KEYWORD_HELP}"]),
    ([eff(keywords=["回復", "飛ぶ"])],
     [f"effects.1.keywords: unknown keyword '飛ぶ' in effect keywords {KEYWORD_HELP}"]),
    ([eff(script="magic")],
     ["effects.1: unknown script 'magic' (scripts are registered in vocabulary.SCRIPTS)"]),
    ([eff(window="night")],
     ["effects.1.window: text 'night' is not allowed for 'window' in effect (one of: any, ritual, "
      "damage, engagement, raid, combat)"]),
    ([eff(timing="sometimes")],
     ["effects.1.timing: text 'sometimes' is not allowed for 'timing' in effect (one of: constant, "
      "activated)"]),
    ([eff(name=None)], ["effects.1: required key 'name' in effect has no value"]),
    ([eff(usable_while_down="yes", nmae="x")],
     ["effects.1: unknown key 'nmae' in effect (did you mean 'name'?)",
      "effects.1.usable_while_down: wrong type for 'usable_while_down' in effect: expected true or "
      "false, got text 'yes'"]),
    ([eff(condition={}), eff(name="二", lost_when={"nope": 1})],
     ["effects.1.condition: a condition must be a non-empty mapping such as {opponent_has_keyword: "
      "軍団}, got a mapping",
      "effects.2.lost_when: unknown condition 'nope'"]),
    ([eff(cost="T"), eff(name="二", target="servant")],
     ["effects.1.cost: cost must be a mapping (raw, tap, discard, mana, die), got text 'T'",
      "effects.2.target: target must be a mapping (kind, side, card_kinds), got text 'servant'"]),
])
def test_effect_checks(effects, expected):
    assert errors(code(effects=effects)) == [f"<card>:0: {e}" for e in expected]


def test_one_bad_effect_does_not_hide_the_next():
    assert errors(code(effects=[eff(window="night"), eff(name="二", script="magic")])) == [
        "<card>:0: effects.1.window: text 'night' is not allowed for 'window' in effect (one of: "
        "any, ritual, damage, engagement, raid, combat)",
        "<card>:0: effects.2: unknown script 'magic' (scripts are registered in vocabulary.SCRIPTS)"]


# --- operations -----------------------------------------------------------------------------------


@pytest.mark.parametrize("ops, expected", [
    ([{"count": 1}], ["effects.1.ops.1: missing required key 'op' in operation"]),
    (["draw"], ["effects.1.ops.1: an operation must be a mapping such as {op: draw, count: 1}, got "
                "text 'draw'"]),
    ([{"op": "drow", "count": 1}], ["effects.1.ops.1: unknown operation 'drow' (did you mean 'draw'?)"]),
    ([{"op": 5}], ["effects.1.ops.1: unknown operation 5"]),
    ([{"op": "encounter_faces", "faces": [2]}],
     ["effects.1.ops.1: operation 'encounter_faces' can only be used in a 常時 (constant) effect"]),
    ([{"op": "draw", "cont": 1}],
     ["effects.1.ops.1: unknown parameter 'cont' for operation 'draw' (did you mean 'count'?)",
      "effects.1.ops.1: operation 'draw' needs parameter 'count'"]),
    ([{"op": "draw", "count": "two"}],
     ["effects.1.ops.1.count: wrong type for 'count' in operation 'draw': expected an integer, got "
      "text 'two'"]),
    ([{"op": "grant_keyword", "keyword": "飛行"}],
     [f"effects.1.ops.1.keyword: unknown keyword '飛行' in grant_keyword {KEYWORD_HELP}"]),
    ([{"op": "draw", "count": 1, "if": {"nope": 1}}], ["effects.1.ops.1.if: unknown condition 'nope'"]),
    # a condition's keyword is reported at its own field, as its wrong type is (the editor marks it)
    ([{"op": "draw", "count": 1, "if": {"target_has_keyword": "飛行"}}],
     [f"effects.1.ops.1.if.target_has_keyword: unknown keyword '飛行' in condition {KEYWORD_HELP}"]),
    ([{"op": "draw", "count": 1, "if": {"target_has_keyword": 5}}],
     ["effects.1.ops.1.if.target_has_keyword: wrong type for 'target_has_keyword' in condition: "
      "expected text, got integer 5"]),
    ({"op": "draw"}, ["effects.1.ops: ops must be a list of operations, got a mapping"]),
    ([{"op": "draw", "count": 1}, {"op": "drow"}, {"op": "recover"}],
     ["effects.1.ops.2: unknown operation 'drow' (did you mean 'draw'?)",
      "effects.1.ops.3: operation 'recover' needs parameter 'amount'"]),
])
def test_operation_checks(ops, expected):
    assert errors(code(effects=[eff(ops=ops)])) == [f"<card>:0: {e}" for e in expected]


def test_a_constant_effect_refuses_one_shot_operations():
    ops = [{"op": "grant_keyword", "keyword": "先制"}, {"op": "draw", "count": 1}]
    assert errors(code(effects=[eff(timing="constant", ops=ops)])) == [
        "<card>:0: effects.1.ops.2: operation 'draw' cannot be used in a 常時 (constant) effect"]


def test_proxy_chips_are_checked_against_the_sheet_given():
    chips = {"sea_demon": SimpleNamespace(name="海魔"), "golem": SimpleNamespace(name="ゴーレム")}
    card = code(effects=[eff(ops=[{"op": "proxy", "chip": "海魔"}])])
    assert errors(card, chips) == [
        "<card>:0: effects.1.ops.1.chip: proxy names chip '海魔', which is not on the chip sheet "
        "(chips.yaml) (that is the name of chip 'sea_demon'; use the id)"]
    card = code(effects=[eff(ops=[{"op": "proxy", "chip": "golen"}])])
    assert errors(card, chips) == [
        "<card>:0: effects.1.ops.1.chip: proxy names chip 'golen', which is not on the chip sheet "
        "(chips.yaml) (did you mean 'golem'?)"]
    assert errors(card) == []  # no sheet given: chip names are not checked
    card, _ = build_card(code(effects=[eff(ops=[{"op": "proxy", "chip": "golem"}])]), chips)
    assert card.effects[0].ops[0].params["chip"] == "golem"


def test_an_operations_condition_and_tuple_values_are_kept():
    card, errs = build_card(code(effects=[eff(ops=[
        {"op": "draw", "count": 2, "if": {"opponent_has_keyword": "軍団"}}])]))
    assert errs == []
    op = card.effects[0].ops[0]
    assert (op.op, op.params, op.condition) == ("draw", {"count": 2}, {"opponent_has_keyword": "軍団"})


# --- the same checks in a card file: file and line ------------------------------------------------


H001 = "heroes/H-001.yaml"


def test_in_a_file_errors_name_the_line_of_the_key(cards):
    line_id = cards.edit("mystic_codes/M-006.yaml", "id: M-006", "id: M-6")
    errs = cards.errors()
    assert f"{cards.label('mystic_codes/M-006.yaml')}:{line_id}: card id 'M-6' must look like H-001 " \
           "(kind prefix, dash, three digits)" in errs


def test_in_a_file_an_operation_without_op_names_its_line(cards):
    line = cards.edit(H001, "{op: recover, amount: 2}", "{amount: 2}")
    assert f"{cards.label(H001)}:{line}: missing required key 'op' in operation" in cards.errors()


def test_in_a_file_a_duplicate_effect_name_names_the_second_effect(cards):
    line = cards.edit(H001, "- name: 全て遠き理想郷", "- name: 約束された勝利の剣")
    assert f"{cards.label(H001)}:{line}: card already has an effect named '約束された勝利の剣' " \
           "(effect 1)" in cards.errors()


def test_a_loaded_card_remembers_its_file_and_lines(cards):
    """The card's line is that of its mapping (the first key, after the comments)."""
    db = load_card_db(cards.root)
    card = db.cards["H-001"]
    assert (card.source_file, card.source_line) == (cards.label(H001), cards.line_of(H001, "id: H-001"))
    assert card.locations["id"] == (cards.label(H001), cards.line_of(H001, "id: H-001"))
    assert card.locations["effects.2"] == (cards.label(H001), cards.line_of(H001, "- name: 全て遠き理想郷"))


RECOVER = "{op: recover, amount: 2}"


@pytest.mark.parametrize("new, offset, message", [
    # the line of the offending key or item, not the line where the operation's mapping begins
    ("{amount: 2,\n         op: recovr}", 1, "unknown operation 'recovr' (did you mean 'recover'?)"),
    ("{faces: [2],\n         op: encounter_faces}", 1,
     "operation 'encounter_faces' can only be used in a 常時 (constant) effect"),
    ("{op: recover,\n         amout: 2}", 1,
     "unknown parameter 'amout' for operation 'recover' (did you mean 'amount'?)"),
    ("{op: recover,\n         amout: 2}", 0, "operation 'recover' needs parameter 'amount'"),
    ("{op: draw, count: 1}\n      - recover", 1,
     "an operation must be a mapping such as {op: draw, count: 1}, got text 'recover'"),
])
def test_in_a_file_operation_errors_name_the_line_of_the_key(cards, new, offset, message):
    line = cards.edit(H001, RECOVER, new)
    assert f"{cards.label(H001)}:{line + offset}: {message}" in cards.errors()


def test_in_a_file_a_one_shot_operation_in_a_constant_effect_names_the_op_line(cards):
    rel = "heroes/H-012.yaml"
    line = cards.edit(rel, "{op: grant_keyword, subject: combatant, keyword: 先制, if: {attack_type: "
                      "magic}}", "{count: 1,\n         op: draw}")
    assert cards.errors() == [f"{cards.label(rel)}:{line + 1}: operation 'draw' cannot be used in a "
                              "常時 (constant) effect"]


def test_an_operation_refused_for_its_timing_stops_the_effects_other_checks():
    """An operation that cannot be used in the effect's timing makes the whole effect unusable: the
    checks that need its operations (target, unplayable) are not run on it, so one mistake gives
    one message."""
    constant = eff(timing="constant", ops=[{"op": "negate"}])
    assert errors(code(effects=[constant])) == [
        "<card>:0: effects.1.ops.1: operation 'negate' cannot be used in a 常時 (constant) effect"]
    activated = eff(unplayable=True, text="文", ops=[{"op": "encounter_faces", "faces": [2]}])
    assert errors(code(effects=[activated])) == [
        "<card>:0: effects.1.ops.1: operation 'encounter_faces' can only be used in a 常時 (constant) "
        "effect"]
