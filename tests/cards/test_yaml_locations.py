"""The safe YAML reader (``fate_royal.cards.yamlsrc``): the line every mapping key and list item
remembers, ``location`` (the file and line a message names), ``lift`` (plain data given a file and
line), and the exact ``file:line: message`` for each kind of file it refuses."""

from __future__ import annotations

import pytest

from fate_royal.cards.yamlsrc import YList, YMap, lift, location, parse_yaml, read_yaml


def parse(text: str | bytes, label: str = "data/x.yaml"):
    errors: list = []
    value = parse_yaml(text, label, errors)
    return value, [str(e) for e in errors]


DOC = """\
# a comment
name: 運命
stats: {pa: 6,
        pd: 2}
effects:
  - name: 一
    ops:
      - op: draw

      - op: recover
  - [a,
     b]
"""


# --- lines of keys and items ------------------------------------------------------------------------


def test_every_key_and_item_remembers_its_line():
    tree, errors = parse(DOC)
    assert errors == []
    assert isinstance(tree, YMap) and (tree.src, tree.line) == ("data/x.yaml", 2)
    assert tree.key_lines == {"name": 2, "stats": 3, "effects": 5}
    stats = tree["stats"]
    assert (stats.line, stats.key_lines) == (3, {"pa": 3, "pd": 4})
    effects = tree["effects"]
    assert isinstance(effects, YList) and (effects.src, effects.line) == ("data/x.yaml", 6)
    assert effects.item_lines == [6, 11]
    ops = effects[0]["ops"]
    assert ops.item_lines == [8, 10] and ops[1].line == 10
    assert (effects[1].line, effects[1].item_lines) == (11, [11, 12])


def test_location_names_the_key_the_item_or_the_holder():
    tree, _ = parse(DOC)
    assert location(tree, "stats") == ("data/x.yaml", 3)
    assert location(tree["stats"], "pd") == ("data/x.yaml", 4)
    assert location(tree) == ("data/x.yaml", 2)
    assert location(tree, "missing") == ("data/x.yaml", 2)  # no such key: the mapping's own line
    ops = tree["effects"][0]["ops"]
    assert location(ops, 0) == ("data/x.yaml", 8)
    assert location(ops, 1) == ("data/x.yaml", 10)
    flow = tree["effects"][1]
    assert location(flow, 1) == ("data/x.yaml", 12)


def test_location_of_the_first_item_is_the_items_line_not_the_lists():
    """Index 0 is an item like any other; an index outside the list (or negative, or not an int)
    falls back to the list's own line."""
    lst = YList(["a", "b"], src="f.yaml", line=3)
    lst.item_lines = [5, 7]
    assert location(lst, 0) == ("f.yaml", 5)
    assert location(lst, 1) == ("f.yaml", 7)
    assert location(lst, 2) == ("f.yaml", 3)
    assert location(lst, -1) == ("f.yaml", 3)
    assert location(lst, "0") == ("f.yaml", 3)
    assert location(lst) == ("f.yaml", 3)


def test_location_of_plain_data_is_the_default():
    assert location({"a": 1}, "a") == ("<data>", 0)
    assert location([1], 0, ("game.yaml", 4)) == ("game.yaml", 4)
    m = YMap({"a": 1}, src="f.yaml", line=2)
    assert location(m, "a") == ("f.yaml", 2)  # a key with no recorded line: the mapping's
    m.key_lines["a"] = 9
    assert location(m, "a") == ("f.yaml", 9)


# --- lift -----------------------------------------------------------------------------------------


def test_lift_gives_plain_data_a_file_and_line_all_the_way_down():
    data = lift({"rules": ["errata", "-E8"], "cards": [{"id": "H-001", "stats": (1, 2)}]},
                "scenarios/x.yaml", 7)
    assert isinstance(data, YMap) and (data.src, data.line) == ("scenarios/x.yaml", 7)
    assert data.key_lines == {"rules": 7, "cards": 7}
    rules = data["rules"]
    assert isinstance(rules, YList) and (rules.src, rules.line) == ("scenarios/x.yaml", 7)
    assert rules.item_lines == [7, 7] and list(rules) == ["errata", "-E8"]
    card = data["cards"][0]
    assert isinstance(card, YMap) and (card.src, card.line, card.key_lines) == \
        ("scenarios/x.yaml", 7, {"id": 7, "stats": 7})
    stats = card["stats"]
    assert isinstance(stats, YList) and list(stats) == [1, 2] and stats.item_lines == [7, 7]
    assert location(rules, 1) == ("scenarios/x.yaml", 7)
    assert location(card, "id") == ("scenarios/x.yaml", 7)


def test_lift_without_a_line_is_line_0_and_keeps_read_data_as_it_is():
    data = lift({"a": [1]}, "<overrides>")
    assert (data.line, data.key_lines, data["a"].line, data["a"].item_lines) == (0, {"a": 0}, 0, [0])
    assert location(data["a"], 0) == ("<overrides>", 0)
    tree, _ = parse(DOC)
    assert lift(tree, "other.yaml", 99) is tree
    assert lift(5, "x", 1) == 5 and lift("t", "x", 1) == "t" and lift(None, "x") is None


# --- files refused ---------------------------------------------------------------------------------


def test_not_utf8_names_the_line_and_the_byte():
    assert parse(b"a: 1\nb: 2\nc: \xff\n") == (None, ["data/x.yaml:3: not UTF-8 text (byte 0xff)"])
    assert parse(b"\xc3(: 1\n") == (None, ["data/x.yaml:1: not UTF-8 text (byte 0xc3)"])


def test_a_byte_order_mark_is_not_part_of_the_data():
    assert parse("\ufeffa: 1\n".encode("utf-8")) == ({"a": 1}, [])


def test_a_syntax_error_names_the_line_of_the_problem():
    """The line where the parser found the problem (here: the end of the text, line 4), not the line
    where the list it was reading began (2)."""
    assert parse("a: 1\nb: [1,\nc: 2\n") == \
        (None, ["data/x.yaml:4: YAML syntax error: did not find expected ',' or ']'"])
    assert parse("a: 1\nb: *nope\n") == (None, ["data/x.yaml:2: YAML syntax error: found undefined alias"])
    assert parse("a: 1\n---\nb: 2\n") == \
        (None, ["data/x.yaml:2: YAML syntax error: but found another document"])


def test_a_control_character_is_a_yaml_error_on_line_1():
    value, errors = parse("a: 1\nb: \x07\n")
    assert value is None and len(errors) == 1
    assert errors[0].startswith("data/x.yaml:1: YAML error: unacceptable character #x0007")


@pytest.mark.parametrize("text", ["", "# nothing but a comment\n", "\n\n"])
def test_an_empty_file(text):
    assert parse(text) == (None, ["data/x.yaml:1: empty file"])


def test_read_yaml_labels_errors_and_reports_an_unreadable_file(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text("x: 1\nx: 2\n", encoding="utf-8")
    errors: list = []
    assert read_yaml(path, "cards/p.yaml", errors) == {"x": 1}
    assert [str(e) for e in errors] == ["cards/p.yaml:2: duplicate key 'x' (first at line 1)"]
    errors = []
    assert read_yaml(tmp_path / "none.yaml", "cards/none.yaml", errors) is None
    assert [str(e) for e in errors] == ["cards/none.yaml:0: cannot read file: No such file or directory"]


# --- values refused inside a file (the rest of the file is still read) ----------------------------


TAG_HELP = ("(only text, numbers, true/false, null, lists and mappings; quote it to make it text)")


@pytest.mark.parametrize("value, tag", [("!!binary aGk=", "!!binary"), ("!foo x", "!foo"),
                                        ("!!timestamp 2001-12-14", "!!timestamp"),
                                        ("!!python/name:os.system ''", "!!python/name:os.system")])
def test_a_scalar_with_another_tag_is_refused(value, tag):
    tree, errors = parse(f"a: 1\nb: {value}\nc: 3\n")
    assert tree == {"a": 1, "b": None, "c": 3}
    assert errors == [f"data/x.yaml:2: YAML tag {tag} is not allowed in data files {TAG_HELP}"]


@pytest.mark.parametrize("text, tag", [("b: !!set {x}\n", "!!set"), ("b: !!omap [x: 1]\n", "!!omap"),
                                       ("b: !!map [1]\n", "!!map"), ("b: !!seq {k: 1}\n", "!!seq"),
                                       ("b: !thing\n  k: 1\n", "!thing")])
def test_a_list_or_mapping_with_another_tag_is_refused(text, tag):
    tree, errors = parse("a: 1\n" + text)
    assert tree == {"a": 1, "b": None}
    assert errors == [f"data/x.yaml:2: YAML tag {tag} is not allowed in data files"]


def test_core_tags_are_built_as_their_values():
    tree, errors = parse("a: !!int '12'\nb: !!float 1.5\nc: !!bool yes\nd: !!null ''\n"
                         "e: !!str 5\nf: 0x10\ng: ~\nh: -3\ni: false\n")
    assert errors == []
    assert tree == {"a": 12, "b": 1.5, "c": True, "d": None, "e": "5", "f": 16, "g": None, "h": -3,
                    "i": False}
    assert type(tree["e"]) is str and type(tree["a"]) is int


@pytest.mark.parametrize("value, message", [("!!int abc", "'abc' is not a valid !!int"),
                                            ("!!float ten", "'ten' is not a valid !!float"),
                                            ("!!bool maybe", "'maybe' is not a valid !!bool")])
def test_a_core_tag_on_a_value_it_cannot_hold(value, message):
    tree, errors = parse(f"a: 1\nb: {value}\n")
    assert tree == {"a": 1, "b": None}
    assert errors == [f"data/x.yaml:2: {message}"]


def test_keys_must_be_plain_text():
    tree, errors = parse("ok: 1\n2: two\n? [k]\n: v\nnull: x\ntrue: y\nlast: 5\n")  # reading goes on after each
    assert tree == {"ok": 1, "last": 5}
    assert errors == ["data/x.yaml:2: key '2' is read as a number, not text: write it in quotes ('2')",
                      "data/x.yaml:3: mapping keys must be plain text",
                      "data/x.yaml:5: key 'null' is read as nothing (null), not text: write it in quotes ('null')",
                      "data/x.yaml:6: key 'true' is read as true/false, not text: write it in quotes ('true')"]


def test_a_key_yaml_reads_as_a_boolean_says_to_quote_it():
    """`off:` is false to YAML 1.1 (a rule-set file written as `off: [E8]`): the message names the
    key and the cure, in English and at the table in Japanese."""
    from fate_royal.text.dataerrors import localize

    _tree, errors = parse("off: [E8]\nyes: 1\n")
    assert errors == ["data/x.yaml:1: key 'off' is read as true/false, not text: write it in quotes ('off')",
                      "data/x.yaml:2: key 'yes' is read as true/false, not text: write it in quotes ('yes')"]
    sentence = errors[0].split(": ", 1)[1]
    assert localize(sentence, "ja") == "キー「off」はYAMLでは文字列として読まれません：引用符で囲んでください（'off'）"


def test_merge_keys_and_duplicate_keys():
    tree, errors = parse("base: &b {k: 1}\nother:\n  <<: *b\n  j: 2\nbase: 3\nafter: 6\n")
    assert tree == {"base": {"k": 1}, "other": {"j": 2}, "after": 6}
    assert errors == ["data/x.yaml:3: YAML merge keys (<<) are not supported in data files",
                      "data/x.yaml:5: duplicate key 'base' (first at line 1)"]


def test_a_recursive_alias_is_refused_not_followed():
    tree, errors = parse("a: 1\nb: &x [1, *x]\n")
    assert tree == {"a": 1, "b": [1, None]}
    assert errors == ["data/x.yaml:2: recursive YAML alias"]


def test_a_recursive_alias_used_twice_is_said_once():
    tree, errors = parse("a: 1\nb: &x [*x, *x, [*x]]\n")
    assert tree == {"a": 1, "b": [None, None, [None]]}
    assert errors == ["data/x.yaml:2: recursive YAML alias"]


def test_a_list_or_mapping_used_again_through_an_alias_is_refused_once():
    tree, errors = parse("a: &m {k: 1}\nb: *m\nc: *m\nd: &s hi\ne: *s\n")
    assert tree == {"a": {"k": 1}, "b": None, "c": None, "d": "hi", "e": "hi"}
    assert errors == ["data/x.yaml:1: this list or mapping is anchored (&name) and used again "
                      "through an alias (*name); aliases of lists or mappings are not allowed in "
                      "data files"]


def test_text_that_is_half_a_surrogate_pair_is_refused(monkeypatch):
    """Only the pure-Python parser turns "\\ud800" into a (broken) character; libyaml refuses the
    escape itself. Either way the file is refused with its line."""
    import yaml

    monkeypatch.delattr(yaml, "CSafeLoader", raising=False)
    tree, errors = parse('a: 1\nb: "x\\ud800"\n')
    assert tree == {"a": 1, "b": None}
    assert errors == ["data/x.yaml:2: text holds half of a UTF-16 surrogate pair (\\ud800), which is "
                      "not a character"]
