"""The shipped assets: the bundled Japanese font, the SVG art, the translation catalogs, and card
painting with them (design.md "The table (GUI)": Japanese must render with no Japanese fonts
installed; every UI string translatable in ja and en)."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontDatabase, QFontMetricsF, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

from fate_royal.cards.model import AppliedPatch, CardDef, Cost, Effect, Stats
from fate_royal.paths import assets_dir
from fate_royal.qt import art, fonts, i18n

SVG_DIR = assets_dir() / "svg"
REQUIRED_SVGS = [
    "frame-hero", "frame-class", "frame-mystic_code", "frame-scene", "back", "mana", "mana_empty",
    "spell-1", "spell-2", "spell-3", "command_spell", "active_master", "assassination", "deck",
    "discard", "grail", "provisional", "errata", "proxy",
]


def fake_hero(**changes) -> CardDef:
    """A hero card built directly from the model (independent of the card loader)."""
    card = CardDef(
        id="H-001",
        kind="hero",
        name="アルトリア",
        name_en="Artoria",
        stats=Stats(6, 5, 3, 3),
        classes=("セイバー", "ランサー", "ライダー", "バーサーカー"),
        skills=("対魔力", "直感"),
        effects=(
            Effect(
                name="約束された勝利の剣",
                name_en="Excalibur",
                timing="activated",
                window="damage",
                cost=Cost(raw="R4", mana=4),
                text="ターン終了時まで物理攻撃力+6、物理防御力+4、魔術攻撃力+6、魔術防御力+4。"
                     "対戦相手が【軍団】を持つなら、さらにすべて+2。",
                text_en="Until end of turn +6/+4/+6/+4; a further +2 to all against 【軍団】.",
                index=1,
            ),
            Effect(name="全て遠き理想郷", name_en="Avalon", timing="activated", window="any",
                   cost=Cost(raw="D1・2+R4"), keywords=("回復",), text="魔力コインを2枚回復する。…", index=2),
        ),
        provenance={"effects.2.text": "provisional", "skills": "provisional"},
    )
    return CardDef(**{**card.__dict__, **changes})


def ink_pixels(image: QImage, background: QColor | None = None) -> int:
    """How many pixels are not transparent (or, given a background, differ from it)."""
    if background is None:
        argb = image.convertToFormat(QImage.Format.Format_ARGB32)
        data = bytes(argb.constBits())[: argb.sizeInBytes()]
        return sum(1 for a in data[3::4] if a)  # little-endian ARGB32 is stored B, G, R, A
    rgb = image.convertToFormat(QImage.Format.Format_RGB32)
    data = bytes(rgb.constBits())[: rgb.sizeInBytes()]
    want = bytes([background.blue(), background.green(), background.red()])
    return sum(1 for i in range(0, len(data), 4) if data[i:i + 3] != want)


def text_image(text: str, family: str, px: int = 40) -> QImage:
    image = QImage(px * 2, px * 2, QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    font = fonts.pixel_font(px)
    font.setFamilies([family])
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(image.rect(), int(Qt.AlignmentFlag.AlignCenter), text)
    painter.end()
    return image


# --- font --------------------------------------------------------------------------------------------


def test_bundled_font_loads_and_is_the_ui_family(ui_family):
    assert ui_family == fonts.BUNDLED_FAMILY
    assert ui_family in QFontDatabase.families()
    assert fonts.install_fonts() == ui_family  # idempotent
    for name in fonts.FONT_FILES:
        assert (assets_dir() / "fonts" / name).is_file()
    assert (assets_dir() / "fonts" / "LICENSE-OFL.txt").is_file()


def test_bundled_font_supports_japanese(ui_family):
    assert QFontDatabase.WritingSystem.Japanese in QFontDatabase.writingSystems(ui_family)
    metrics = QFontMetricsF(fonts.ui_font(12))
    for ch in "アあ漢字令呪聖杯【】・⌊⌋÷→★●○髙﨑①ＡＢ":
        assert metrics.inFontUcs4(ord(ch)), ch


def test_many_void_qt_calls_do_not_drain_none():
    """PySide6 6.12.0 on CPython 3.11 drops a reference to None on every void call, which aborts
    the interpreter after a few thousand paints; the installed binding must not (compat.py)."""
    import sys

    image = QImage(8, 8, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    before = sys.getrefcount(None)
    for _ in range(30000):
        painter.setPen(QColor("red"))
    painter.end()
    assert before - sys.getrefcount(None) < 1000


def test_signal_emits_do_not_drain_true(qapp):
    import sys

    from PySide6.QtCore import QObject, Signal

    class Emitter(QObject):
        changed = Signal()

    e = Emitter()
    before = sys.getrefcount(True)
    for _ in range(30000):
        e.changed.emit()
    assert before - sys.getrefcount(True) < 1000


def test_ui_font_sizes_and_weight(ui_family):
    font = fonts.ui_font(18, bold=True)
    assert font.family() == ui_family
    assert font.pointSizeF() == 18
    assert font.bold()


def test_japanese_glyph_is_not_the_missing_glyph_box(ui_family):
    katakana = text_image("ア", ui_family)
    kanji = text_image("漢", ui_family)
    unassigned = text_image("\ue000", ui_family)  # private use: no glyph anywhere
    assert katakana != unassigned
    assert kanji != unassigned
    assert katakana != kanji
    assert ink_pixels(katakana, QColor("white")) > 30


# --- SVG art -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(SVG_DIR.glob("*.svg")), ids=lambda p: p.name)
def test_every_svg_is_valid(path: Path):
    renderer = QSvgRenderer(str(path))
    assert renderer.isValid()
    assert not renderer.defaultSize().isEmpty()


def test_required_svgs_exist():
    missing = [name for name in REQUIRED_SVGS if not (SVG_DIR / f"{name}.svg").is_file()]
    assert missing == []
    assert set(REQUIRED_SVGS) <= set(art.svg_names())


def test_svg_pixmap_is_cached_and_greyable():
    pixmap = art.svg_pixmap("mana", QSize(32, 32))
    assert pixmap is art.svg_pixmap("mana", QSize(32, 32))
    assert art.svg_renderer("mana") is art.svg_renderer("mana.svg")
    grey = art.svg_pixmap("spell-1", QSize(32, 32), greyed=True).toImage()
    red = art.svg_pixmap("spell-1", QSize(32, 32)).toImage()
    assert ink_pixels(grey) == pytest.approx(ink_pixels(red), rel=0.1)
    colours = {(c.red() - c.green()) > 60 for c in (red.pixelColor(16, 6), grey.pixelColor(16, 6))}
    assert colours == {True, False}  # the red mark is red, the used one is not


def test_coins_and_command_spells_paint():
    image = QImage(200, 40, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    for i, kind in enumerate(["mana", "mana_empty", "active_master", "assassination", "unknown"]):
        art.paint_coin(painter, QRectF(i * 40, 0, 40, 40), kind)
    painter.end()
    for i in range(5):
        assert image.pixelColor(i * 40 + 20, 20).alpha() > 0 or i == 1  # the empty slot is hollow
    spells = []
    for remaining in (3, 1):
        image = QImage(60, 60, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        art.paint_command_spells(painter, QRectF(0, 0, 60, 60), remaining)
        painter.end()
        spells.append(image)
    assert spells[0] != spells[1]
    reds = [sum(1 for y in range(60) for x in range(60)
                if (c := img.pixelColor(x, y)).alpha() > 128 and c.red() - c.green() > 80) for img in spells]
    assert reds[0] > reds[1] > 0


# --- card faces -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", [90, 200, 600])
def test_card_face_renders_japanese_at_any_size(width):
    image = art.render_card_image(fake_hero(), width)
    assert image.size() == QSize(width, round(width * art.CARD_ASPECT))
    assert ink_pixels(image) > image.width() * image.height() * 0.8


def test_card_face_shows_the_name():
    card = fake_hero()
    plain = art.render_card_image(card, 300)
    renamed = art.render_card_image(fake_hero(name="メドゥーサ"), 300)
    assert plain != renamed


def test_card_face_for_every_kind_and_the_back():
    images = []
    for kind in ("hero", "class", "mystic_code", "scene"):
        card = fake_hero(kind=kind, id=f"{kind}-1", class_name="ライダー")
        images.append(art.render_card_image(card, 120))
    images.append(art.render_card_image(fake_hero(), 120, face_up=False))
    # a point in the emblem window (viewBox 80, 250): a different colour for every kind and the back
    assert len({img.pixelColor(15, 48).name() for img in images}) == 5


def test_effective_stats_and_provenance_marks_change_the_face():
    card = fake_hero()
    base = art.render_card_image(card, 400)
    boosted = art.render_card_image(card, 400, effective_stats={"pa": 12, "pd": 9, "ma": 9, "md": 7})
    assert base != boosted
    provisional = fake_hero(provenance={"stats.pa": "provisional"})
    assert art.render_card_image(provisional, 400) != art.render_card_image(
        provisional, 400, show_provenance=False)
    patched = fake_hero(patches=(AppliedPatch("p1", "E9.1", "house-errata", "effects.1.cost", "R4", "R3"),))
    assert art.render_card_image(patched, 400) != art.render_card_image(patched, 400, show_provenance=False)


def test_card_face_in_english():
    assert art.render_card_image(fake_hero(), 300, lang="en") != art.render_card_image(fake_hero(), 300)


def test_effect_header_reads_like_the_card():
    effect = fake_hero().effects[0]
    assert art.effect_header(effect, "ja") == "R4 · 【起動】(ダメージ判定プロセス) · 約束された勝利の剣"
    assert art.effect_header(effect, "en").endswith("Excalibur")
    constant = Effect(name="騎乗", timing="constant")
    assert art.effect_header(constant, "ja") == "【常時】 · 騎乗"


def test_every_real_card_renders():
    try:
        from fate_royal.cards import load_card_db
    except ImportError:
        pytest.skip("the card loader is not there yet")
    db = load_card_db()
    assert db.cards
    for card in db.cards.values():
        for width in (90, 360):
            assert ink_pixels(art.render_card_image(card, width)) > 0


# --- translations ---------------------------------------------------------------------------------------


def load_catalog(lang: str) -> dict:
    return yaml.safe_load((assets_dir() / "i18n" / f"{lang}.yaml").read_text(encoding="utf-8"))


def test_catalogs_have_the_same_keys():
    ja, en = load_catalog("ja"), load_catalog("en")
    assert sorted(set(ja) ^ set(en)) == []
    assert all(isinstance(v, str) and v for v in [*ja.values(), *en.values()])


def test_catalogs_use_the_same_placeholders():
    import string

    def fields(text: str) -> set[str]:  # {name} and {name|one|other}: the names
        return {f.split("|")[0] for _, f, _, _ in string.Formatter().parse(text) if f}

    ja, en = load_catalog("ja"), load_catalog("en")
    assert {k: fields(v) for k, v in ja.items()} == {k: fields(v) for k, v in en.items()}


def test_tr_fills_placeholders_and_falls_back():
    previous = i18n.current_language()
    try:
        i18n.set_language("ja")
        assert i18n.tr("handoff.pass_to", name="さくら") == "さくらさんにコンピューターを渡してください"
        assert i18n.tr("state.danger") == "デンジャー"
        assert i18n.tr("step.rise") == "ライズステップ"
        assert i18n.tr("zone.grail_seat") == "聖杯の座"
        assert i18n.tr("provenance.provisional") == "暫定"
        assert i18n.tr("no.such.key") == "[no.such.key]"
        assert i18n.tr("action.raid") == "{target}を襲撃"  # a missing value stays visible
        i18n.set_language("en")
        assert i18n.current_language() == "en"
        assert i18n.tr("error.not_allowed", reason="no mana", rule="E2.1") == "Not allowed: no mana (E2.1)"
        with pytest.raises(ValueError):
            i18n.set_language("fr")
    finally:
        i18n.set_language(previous)


def test_tr_falls_back_to_english(monkeypatch):
    from fate_royal.text import catalog as catalogs

    real = catalogs.catalog

    def catalog(lang):
        data = dict(real(lang))
        if lang == "ja":
            data.pop("menu.quit")
        return data

    monkeypatch.setattr(catalogs, "catalog", catalog)
    assert i18n.tr_in("ja", "menu.quit") == "&Quit"


def test_default_language_is_ja_or_en():
    assert i18n.default_language() in ("ja", "en")


def test_every_catalog_string_renders_in_the_bundled_font(ui_family):
    metrics = QFontMetricsF(fonts.ui_font(12))
    missing = {ch for lang in ("ja", "en") for text in load_catalog(lang).values() for ch in text
               if not ch.isspace() and not metrics.inFontUcs4(ord(ch))}
    assert missing == set()


@pytest.mark.parametrize("lines, spare, want", [
    ([10, 3, 3, 2], 200, [3, 2, 2, 2]),  # one line each in turn, not nine for the first
    ([10, 3, 3, 2], 60, [1, 1, 0, 0]),  # room for two lines (and their gaps): the first two
    ([10, 3, 3, 2], 98, [1, 1, 1, 1]),  # no gap after the card's last paragraph
    ([10, 3, 3], 75, [1, 1, 1]),
    ([10, 3, 3, 0], 75, [2, 1, 0, 0]),  # ... but one after a paragraph a header follows
    ([1, 1], 2000, [1, 1]),  # short bodies whole, the space left unused
    ([0, 5, 0], 80, [0, 3, 0]),  # a paragraph without a body takes nothing
    ([4, 1], 120, [4, 1]),
    ([3], 0, [0]),
    ([], 100, []),
])
def test_body_lines_are_shared_among_the_effects_one_line_each_in_turn(lines, spare, want):
    assert art.body_shares(lines, spare, 20) == want


def test_a_card_with_four_effects_shows_a_body_line_of_each_at_preview_size(monkeypatch):
    """メディア (H-012) at 300 px wide: the first effects' bodies used to take every line, and the
    third and fourth effects showed their headers only."""
    from fate_royal.cards import load_card_db

    db = load_card_db()
    card = db.cards["H-012"]
    assert len(card.effects) == 4
    drawn: list[str] = []
    real = art._draw_line
    monkeypatch.setattr(art, "_draw_line", lambda p, rect, text, *a, **k: drawn.append(text) or real(p, rect, text, *a, **k))
    art.render_card_image(card, 300, db=db)
    bodies = [art._strip_header(body) if generated else body
              for body, generated in art.rules_text(card, "ja", db)]
    assert len(bodies) == 4 and all(len(body) > 30 for body in bodies)
    for k, body in enumerate(bodies):
        assert any(line.startswith(body[:12]) for line in drawn), f"effect {k + 1}: no line of its text"
