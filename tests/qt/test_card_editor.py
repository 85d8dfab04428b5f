"""The card editor (issue 16, "done when"): a new mystic code with two effects entered through the
form shows as entered on its face and in the generated text, reaches a new game's deck in place of
a padding copy, a game uses its effect, the pack is exported and imported into a fresh data folder
and the same game replays; a broken or hostile pack is refused with ``file:line: message`` and
nothing written."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from fate_royal.cards import RuleSet, load_card_db
from fate_royal.cards.loader import build_card
from fate_royal.cards.pack import deck_summary, read_pack
from fate_royal.qt import art, i18n
from fate_royal.qt.card_editor import CardEditor
from fate_royal.rules.game import Game
from fate_royal.rules.save import SaveError, load_game, save_game, state_digest
from packhelp import NEW_CODE, play_until_used

import pytest


def choose(combo: QComboBox, data: str) -> None:
    combo.setCurrentIndex(combo.findData(data))


def type_in(qtbot, edit, text: str) -> None:
    """Type into a line edit: key clicks for ASCII; Japanese arrives committed by the input method
    (QTest cannot click keys outside Latin-1), which a line edit receives as an insert."""
    edit.setFocus()
    if text.isascii():
        qtbot.keyClicks(edit, text)
    else:
        edit.insert(text)


def enter_new_code(qtbot, editor: CardEditor) -> None:
    """Type NEW_CODE (tests/packhelp.py) in through the widgets, as a person would."""
    choose(editor.kind, "mystic_code")
    editor.number.setValue(2)
    type_in(qtbot, editor.name, "試作礼装")
    type_in(qtbot, editor.name_en, "Trial Code")
    type_in(qtbot, editor.note, "typed in from my box")
    qtbot.mouseClick(editor.add_effect_button, Qt.MouseButton.LeftButton)
    first = editor.effect_forms()[0]
    type_in(qtbot, first.name, "魔力供給")
    type_in(qtbot, first.name_en, "Mana Supply")
    choose(first.timing, "activated")
    choose(first.window, "any")
    type_in(qtbot, first.cost_raw, "T")
    first.cost_tap.setChecked(True)
    qtbot.mouseClick(first.add_op, Qt.MouseButton.LeftButton)
    row = first.op_rows[0]
    choose(row.op, "draw")
    row.params["count"].setValue(1)
    qtbot.mouseClick(editor.add_effect_button, Qt.MouseButton.LeftButton)
    second = editor.effect_forms()[1]
    type_in(qtbot, second.name, "守りの加護")
    type_in(qtbot, second.name_en, "Ward")
    choose(second.timing, "constant")
    qtbot.mouseClick(second.add_op, Qt.MouseButton.LeftButton)
    row = second.op_rows[0]
    choose(row.op, "modify_stats")
    choose(row.params["subject"], "combatant")
    row.params["pd"].setValue(1)
    editor.refresh()


@pytest.fixture
def in_language():
    """``in_language(lang)`` sets the table's language for a test; the former one comes back after."""
    before = i18n.current_language()
    yield i18n.set_language
    i18n.set_language(before)


@pytest.fixture
def lang_ja(in_language):
    in_language("ja")


def test_enter_a_mystic_code_play_it_share_it_and_replay(qtbot, tmp_path, monkeypatch, lang_ja):
    mine = tmp_path / "mine" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(mine))
    editor = CardEditor(None, kind="mystic_code", live_delay_ms=0)
    qtbot.addWidget(editor)
    enter_new_code(qtbot, editor)

    # the form says exactly the card: no problem, the face and the generated text as entered
    mapping = editor.mapping()
    assert {k: mapping[k] for k in ("id", "kind", "name", "name_en", "note")} == \
        {k: NEW_CODE[k] for k in ("id", "kind", "name", "name_en", "note")}
    assert editor.problems_by_path == {}
    expected, errors = build_card(NEW_CODE, load_card_db().chips, source="M-002", entered=True)
    assert not errors and editor.current == expected
    face = editor.face.pixmap().toImage()
    assert face == art.render_card_image(editor.face_card(expected), face.width(), lang="ja")
    assert editor.generated_texts() == [
        "【起動】（いつでも）　コスト：このカードをダウン状態にする（印刷表記「T」）。カードを1枚引く。",
        "【常時】　自分のサーヴァント（代理戦闘中はその代理）は物理防御力+1を得る。",
    ]
    qtbot.mouseClick(editor.save_button, Qt.MouseButton.LeftButton)
    assert mine.is_file() and read_pack().ids() == ["M-002"]

    # a new game's deck: the entered card instead of a padding copy, and a game uses its effect
    rules = RuleSet.house()
    db = load_card_db(rules=rules)
    assert db.card("M-002").provenance_default == "entered"
    known, entered, padded = deck_summary(db, rules)
    assert (entered, padded) == (1, rules.profile.deck_min_size - known - 1)
    game = Game.new(db, rules, ["A", "B", "C"], seed=5)
    assert game.ctx.s.padded == padded
    assert play_until_used(game, "M-002")
    saved = save_game(game, tmp_path / "game.json")

    # export; a fresh data folder cannot replay the game and names the card; import; it replays
    shared = editor.export_pack(tmp_path / "share" / "our-cards.yaml")
    assert shared is not None and shared.is_file()
    fresh = tmp_path / "fresh" / "card-pack.yaml"
    monkeypatch.setenv("FATE_ROYAL_PACK", str(fresh))

    def loader(r, extra):
        return load_card_db(extra=extra or None, rules=r)

    with pytest.raises(SaveError, match="M-002 試作礼装"):
        load_game(saved, loader)
    other = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(other)
    questions = []
    assert other.import_pack(shared, confirm=lambda q: questions.append(q) or True)
    assert "M-002" in questions[0]
    assert read_pack().ids() == ["M-002"]
    replayed = load_game(saved, loader)
    assert state_digest(replayed) == state_digest(game)

    # a hostile pack: refused with file:line: message, nothing written
    before = fresh.read_bytes()
    hostile = tmp_path / "hostile.yaml"
    hostile.write_text("format: fate_royal-card-pack\ncards:\n  - !!python/object/apply:os.system "
                       "['touch /tmp/pwned']\n", "utf-8")
    assert not other.import_pack(hostile, confirm=lambda q: True)
    assert f"{hostile.as_posix()}:3: " in other.status.text()
    assert "YAML のタグ !!python/object/apply:os.systemはデータファイルでは使えません" in other.status.text()
    broken = tmp_path / "broken.yaml"
    broken.write_text("format: fate_royal-card-pack\ncards:\n  - id: M-003\n    kind: mystic_code\n"
                      "    name: x\n    effects:\n      - name: e\n        timing: activated\n"
                      "        ops: [{op: draw, count: -1}]\n", "utf-8")
    assert not other.import_pack(broken, confirm=lambda q: True)
    assert f"{broken.as_posix()}:9: " in other.status.text()
    assert "操作「draw」の「count」：値 -1は下限 0を下回っています" in other.status.text()  # in the table's language
    assert fresh.read_bytes() == before
    assert sorted(p.name for p in fresh.parent.iterdir()) == ["card-pack.yaml"]


def test_a_problem_is_shown_on_its_field(qtbot, tmp_path, monkeypatch, lang_ja):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    enter_new_code(qtbot, editor)
    first = editor.effect_forms()[0]
    type_in(qtbot, first.cost_die, "7")
    editor.refresh()
    assert "effects.1.cost.die" in editor.problems_by_path
    assert first.cost_die.styleSheet() and "7" in first.cost_die.toolTip()
    # the list names the field in words, not by its path in the card file
    shown = [editor.problems.item(i).text() for i in range(editor.problems.count())]
    assert shown and all(s.startswith("効果1 — コスト：") and "effects." not in s for s in shown), shown
    assert not editor.save() and not (tmp_path / "card-pack.yaml").exists()
    first.cost_die.clear()
    editor.refresh()
    assert editor.problems_by_path == {} and not first.cost_die.styleSheet()
    name = editor.fields["name"]
    kept = name.text()
    name.setText("  ")  # a card needs a name: a blank one is a problem on its field
    editor.refresh()
    assert "name" in editor.problems_by_path and name.styleSheet()
    # named as the form names it (the file's key, 'name', meant nothing to the person typing)
    shown = [editor.problems.item(i).text() for i in range(editor.problems.count())]
    assert "名前：カードの「名前」が空です" in shown, shown
    assert not editor.save() and not (tmp_path / "card-pack.yaml").exists()
    name.setText(kept)
    editor.refresh()
    assert editor.problems_by_path == {}
    first.op_rows[0].setParent(None)
    first.op_rows.clear()
    editor.refresh()
    assert "effects.1" in editor.problems_by_path  # an effect with no operation
    first.unplayable.setChecked(True)
    first.text.setPlainText("印刷されたテキスト")
    editor.refresh()
    assert editor.problems_by_path == {}
    assert editor.save()
    assert load_card_db().card("M-002").effects[0].unplayable


@pytest.mark.parametrize("kind, shown", [
    ("hero", {"stats", "classes"}),
    ("class", {"stats", "class_name"}),
    ("mystic_code", {"copies"}),
    ("scene", {"copies"}),
])
def test_the_form_shows_only_the_fields_of_the_card_kind(qtbot, tmp_path, monkeypatch, lang_ja,
                                                          kind, shown):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.show()
    for first in ("hero", "scene"):  # from another kind, so that every field changes both ways
        choose(editor.kind, first)
        choose(editor.kind, kind)
        for path in ("stats", "classes", "class_name", "copies"):
            field = editor.fields[path]
            label = editor.card_form.labelForField(field)
            assert field.isVisible() == (path in shown), (kind, path)
            assert label.isVisible() == (path in shown), (kind, path)
            assert field.isEnabled() == (path in shown), (kind, path)
    for path in ("name", "name_en", "skills", "note"):  # every kind has these
        assert editor.fields[path].isVisible()


def test_a_card_without_effects_says_how_to_add_one(qtbot, tmp_path, monkeypatch, lang_ja):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.show()
    editor.new_card("mystic_code")
    assert editor.no_effects.isVisible() and "効果を追加" in editor.no_effects.text()
    assert not editor.effect_tabs.isVisible() and not editor.remove_effect_button.isEnabled()
    qtbot.mouseClick(editor.add_effect_button, Qt.MouseButton.LeftButton)
    assert editor.effect_tabs.isVisible() and editor.effect_tabs.count() == 1
    assert not editor.no_effects.isVisible() and editor.remove_effect_button.isEnabled()
    qtbot.mouseClick(editor.remove_effect_button, Qt.MouseButton.LeftButton)
    assert editor.no_effects.isVisible() and not editor.effect_tabs.isVisible()
    editor.load_mapping({"kind": "mystic_code", "id": "M-001", "name": "x",
                         "effects": [{"name": "e", "timing": "activated",
                                      "ops": [{"op": "draw", "count": 1}]}]})
    assert editor.effect_tabs.isVisible() and not editor.no_effects.isVisible()


def test_provisional_fields_are_one_click_away_and_completed_in_the_form(qtbot, tmp_path,
                                                                         monkeypatch, lang_ja):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    dlg = editor.show_unknown()
    items = dlg.findChild(type(editor.problems), "unknown_list")
    rows = [items.item(i) for i in range(items.count())]
    h002 = next(r for r in rows if r.text().startswith("H-002  stats.pa"))
    # why each is unknown, in the table's language (the data's notes are written in English)
    import re

    said = [re.sub(r"^\S+  \S+", "", r.text()) for r in rows]
    assert all(re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", s) for s in said if s), said
    assert not [s for s in said if re.search(r"\b(?:printed|unknown|assumed|the)\b", s)]
    dlg.open_item(h002)
    assert editor.card_id() == "H-002" and editor.name.text() == "エミヤ"
    assert editor.replaces_label.text()  # it corrects a shipped card
    printed = editor.stats["pa"].value() + 1
    editor.stats["pa"].setValue(printed)
    mapping = editor.mapping()
    assert mapping["stats"]["pa"] == printed  # entered
    assert mapping["stats"]["pd"]["provenance"] == "provisional"  # untouched: still provisional
    assert editor.save()
    card = load_card_db().card("H-002")
    assert card.provenance_of("stats.pa") == "entered"
    assert card.provenance_of("stats.pd") == "provisional"
    assert "H-002" in read_pack().replaces


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_editor_in_both_languages(qtbot, tmp_path, monkeypatch, lang, in_language):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    in_language(lang)
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.load_mapping(NEW_CODE)
    labels = [w.text() for w in editor.findChildren(QCheckBox)] + \
             [editor.save_button.text(), editor.windowTitle()]
    assert not any(t.startswith("[") for t in labels), labels
    for combo in editor.findChildren(QComboBox):
        assert not any(combo.itemText(i).startswith("[editor.") for i in range(combo.count()))
    assert len(editor.generated_texts()) == 2
    assert editor.findChildren(QSpinBox)


def test_the_game_menu_opens_the_editor(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    from fate_royal.qt.controller import GameController
    from fate_royal.qt.window import MainWindow

    window = MainWindow(GameController())
    qtbot.addWidget(window)
    opened = []
    monkeypatch.setattr(CardEditor, "exec", lambda self: opened.append(self) or 0)
    window.controller._dbs[frozenset()] = "cached"
    window.act_cards.trigger()
    assert opened and isinstance(opened[0], CardEditor)
    assert window.controller._dbs == {}  # new games read the cards (and the pack) again


def test_an_entered_card_is_marked_on_its_face_tooltip_and_spoken_line(qtbot, lang_ja):
    """A card from the personal pack carries the entered mark (top left of the face), a line in its
    tooltip and in the screen reader's description; a shipped card none of them."""
    from dataclasses import replace

    from fate_royal.qt import access
    from fate_royal.qt.i18n import tr
    from fate_royal.qt.table import CardDraw, card_tooltip

    db = load_card_db()
    shipped = db.card("M-006")
    entered = replace(shipped, provenance_default="entered")
    plain_face = art.render_card_image(shipped, 300, lang="ja")
    marked_face = art.render_card_image(entered, 300, lang="ja")
    w, h = plain_face.width(), plain_face.height()
    corner = [(x, y) for x in range(4, w // 6) for y in range(4, h // 10)]
    assert any(plain_face.pixel(x, y) != marked_face.pixel(x, y) for x, y in corner)
    rest = [(x, y) for x in range(w // 3, w - 4, 7) for y in range(h // 3, h - 4, 7)]
    assert all(plain_face.pixel(x, y) == marked_face.pixel(x, y) for x, y in rest)

    game = Game.new(db, RuleSet.house(), ["A", "B"], seed=3)
    note = tr("card.entered_note")
    from PySide6.QtCore import QRectF

    draw = CardDraw(role="hand", uid=1, card_id="M-006", owner=0, state=None, rotation=0,
                    face_up=True, rect=QRectF(0, 0, 63, 88))
    assert note not in card_tooltip(game, draw) and note not in access.card_line(game, draw)
    game = Game.new(replace(db, cards={**db.cards, "M-006": entered}), RuleSet.house(), ["A", "B"], seed=3)
    assert note in card_tooltip(game, draw)
    assert access.card_line(game, draw).endswith(f"({note})")


def test_unsaved_changes_are_never_dropped_unasked(qtbot, tmp_path, monkeypatch, lang_ja):
    """Escape, the close button and opening another card ask first when the form holds changes:
    cancel keeps editing, save writes the pack (and closes), discard drops them."""
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.show()
    asked = []
    answer = ["cancel"]
    editor.ask_unsaved = lambda ed: asked.append(ed.card_id()) or answer[0]
    editor.close()  # nothing typed yet: closes unasked
    assert asked == [] and not editor.isVisible()
    editor.show()
    enter_new_code(qtbot, editor)
    assert editor.has_unsaved_changes()
    editor.close()
    assert asked == ["M-002"] and editor.isVisible()  # cancelled: still editing
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert len(asked) == 2 and editor.isVisible()
    editor._open_selected()  # another card (or a new one) would replace the form: asked, kept
    assert len(asked) == 3 and editor.name.text()
    answer[0] = "save"
    editor.close()
    assert not editor.isVisible() and not editor.has_unsaved_changes()
    assert "M-002" in (tmp_path / "card-pack.yaml").read_text(encoding="utf-8")
    editor.show()
    editor.name.setText(editor.name.text() + "改")
    answer[0] = "discard"
    editor.close()
    assert len(asked) == 5 and not editor.isVisible()


def test_the_open_list_follows_the_card_in_the_form(qtbot, tmp_path, monkeypatch, lang_ja):
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    assert editor.open_combo.currentData() == ""  # a new card
    editor.open_card("M-006")
    assert editor.open_combo.currentData() == "M-006"
    editor.new_card("hero")
    assert editor.open_combo.currentData() == ""


@pytest.mark.parametrize("lang, shown", [("ja", "H-001 アルトリア"), ("en", "H-001 Artoria")])
def test_the_open_list_names_the_cards_in_the_table_s_language(qtbot, tmp_path, monkeypatch, lang, shown,
                                                              in_language):
    """The English editor listed every shipped card by its Japanese name."""
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    in_language(lang)
    editor = CardEditor(None, live_delay_ms=0)
    qtbot.addWidget(editor)
    items = [editor.open_combo.itemText(i) for i in range(editor.open_combo.count())]
    assert shown in items


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_the_preview_column_never_draws_one_part_over_another(qtbot, tmp_path, monkeypatch, lang, in_language):
    """At 1366×768 the editor opens 729 px high and its preview column scrolls; a box layout counted
    the wrapped "corrects the official card …" line as one line, and the card's face was drawn
    over its second."""
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    in_language(lang)
    editor = CardEditor(None, "H-001", live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.resize(1280, 729)
    editor.show()
    qtbot.waitExposed(editor)
    qtbot.wait(30)
    assert editor.replaces_label.text()  # a shipped card: the line is there (two lines wide)
    column = editor.face.parentWidget().layout()
    parts = [column.itemAt(i).widget() for i in range(column.count())]
    shown = [w for w in parts if w is not None and w.isVisible()]
    for upper, lower in zip(shown, shown[1:]):
        assert upper.geometry().bottom() < lower.geometry().top(), (upper, lower)


@pytest.mark.parametrize("kind", ["hero", "class", "mystic_code", "scene"])
def test_a_new_card_shows_its_face_before_it_has_a_name(qtbot, tmp_path, monkeypatch, lang_ja, kind):
    """A new card has no name yet, and its preview was a blank space ("カードの見た目" over
    nothing) until one was typed: the face is drawn under a stand-in name, which is never saved
    (the name is still a problem on its field)."""
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, kind=kind, live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.show()
    editor.refresh()
    face = editor.face.pixmap()
    if kind == "hero":  # a hero's face needs its qualified classes too: until then, words say so
        assert face is None or face.isNull()
        assert "クラス適性" in editor.face.text()
        next(iter(editor.classes.values())).setChecked(True)
        editor.refresh()
        face = editor.face.pixmap()
    assert face is not None and not face.isNull() and face.width() > 100
    assert "name" in editor.problems_by_path and editor.current is None
    assert not editor.save()
    assert not (tmp_path / "card-pack.yaml").exists()
    editor.name.setText("試しの一枚")
    editor.refresh()
    assert editor.current is not None and editor.current.name == "試しの一枚"


def test_a_new_card_takes_the_first_free_number_of_its_kind(qtbot, tmp_path, monkeypatch, lang_ja):
    """A new card was always number 001: a new hero was H-001, and saving it replaced アルトリア (the
    form only said "corrects the shipped card H-001" in small print). It takes the first number no
    shipped or pack card of its kind has, and follows the kind until the person sets a number."""
    monkeypatch.setenv("FATE_ROYAL_PACK", str(tmp_path / "card-pack.yaml"))
    editor = CardEditor(None, kind="hero", live_delay_ms=0)
    qtbot.addWidget(editor)
    editor.show()
    shipped = set(editor.db.cards)

    def expected(prefix: str) -> str:
        return next(f"{prefix}-{n:03d}" for n in range(1, 1000) if f"{prefix}-{n:03d}" not in shipped)

    assert editor.card_id() == expected("H") and editor.card_id() not in shipped
    assert editor.replaces_label.text() == ""
    for kind, prefix in (("class", "C"), ("scene", "S"), ("mystic_code", "M"), ("hero", "H")):
        editor.kind.setCurrentIndex(editor.kind.findData(kind))
        assert editor.card_id() == expected(prefix)
    # a number the person sets stays when the kind changes (and then says what it corrects)
    editor.number.setValue(3)
    editor.kind.setCurrentIndex(editor.kind.findData("class"))
    assert editor.card_id() == "C-003"
    editor.refresh()
    assert "C-003" in editor.replaces_label.text()
    # a card saved into the pack takes its number too
    editor.new_card("mystic_code")
    first = editor.card_id()
    editor.name.setText("試しの礼装")
    assert editor.save()
    editor.new_card("mystic_code")
    assert editor.card_id() != first and editor.card_id() == (
        next(f"M-{n:03d}" for n in range(1, 1000) if f"M-{n:03d}" not in shipped | {first}))
    # a card opened from the list keeps its own number whatever is done with the kind
    editor.open_card("H-012")
    assert editor.card_id() == "H-012"
