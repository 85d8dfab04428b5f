#!/usr/bin/env python3
"""Build the bundled Japanese UI font: a subset of Noto Sans CJK JP (SIL OFL 1.1).

A developer tool, never run by the application. It needs fontTools (``pip install fonttools``) and
the Noto Sans CJK collection (Debian/Ubuntu: ``apt-get install fonts-noto-cjk``). It takes the JP
face out of the .ttc, keeps Latin, kana, JIS X 0208 (level 1 and 2 kanji and its symbols), the
Windows-31J (cp932) extensions such as 髙 﨑 ①, CJK punctuation, full-width forms, common symbol
blocks and every character used in cards/ and assets/i18n/, and renames the family so the modified
font is not presented under the original name (OFL condition 3; Noto is a Google trademark).

    python assets/fonts/make_subset.py [--bold] [--src DIR]

writes assets/fonts/FateRoyalSansJP-Regular.otf (and -Bold.otf with --bold).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from fontTools import subset
from fontTools.ttLib import TTFont

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
FAMILY = "Fate Royal Sans JP"
PS_FAMILY = "FateRoyalSansJP"
DEFAULT_SRC = Path("/usr/share/fonts/opentype/noto")

RANGES = [
    (0x0020, 0x007E),  # ASCII
    (0x00A0, 0x024F),  # Latin-1 supplement, Latin Extended-A/B (Cú Chulainn, accented names)
    (0x0370, 0x03FF),  # Greek
    (0x0400, 0x045F),  # Cyrillic (part of JIS X 0208)
    (0x2000, 0x206F),  # general punctuation (— … ‥ ‐ ‘ ’ “ ”)
    (0x2070, 0x209F),  # super/subscripts
    (0x20A0, 0x20BF),  # currency
    (0x2100, 0x214F),  # letterlike (№ ℃ ™)
    (0x2150, 0x218F),  # number forms (Ⅰ Ⅱ …)
    (0x2190, 0x21FF),  # arrows (→ ⇒)
    (0x2200, 0x22FF),  # mathematical operators (± × ÷ ≦ ∞)
    (0x2300, 0x23FF),  # misc technical (⌊ ⌋ ⌈ ⌉)
    (0x2460, 0x24FF),  # enclosed alphanumerics (① ②)
    (0x2500, 0x257F),  # box drawing
    (0x25A0, 0x25FF),  # geometric shapes (● ○ ■ □ ▲ △ ◆ ◇)
    (0x2600, 0x26FF),  # misc symbols (★ ☆ ♠ ♥)
    (0x2700, 0x27BF),  # dingbats (✓ ✕)
    (0x3000, 0x303F),  # CJK symbols and punctuation (、。「」【】〜)
    (0x3040, 0x309F),  # hiragana
    (0x30A0, 0x30FF),  # katakana (・ ー)
    (0x31F0, 0x31FF),  # katakana phonetic extensions
    (0x3200, 0x32FF),  # enclosed CJK (㈱ ㊤)
    (0x3300, 0x33FF),  # CJK compatibility (㌔ ㍉)
    (0xFE30, 0xFE4F),  # CJK compatibility forms
    (0xFF00, 0xFFEF),  # half-width and full-width forms
    (0xFFFD, 0xFFFD),  # replacement character
]


def jis_x0208_and_cp932() -> set[int]:
    """Every character of JIS X 0208 (via EUC-JP) and of the Windows-31J extensions (via cp932)."""
    chars: set[int] = set()
    for hi in range(0xA1, 0xFF):
        for lo in range(0xA1, 0xFF):
            try:
                chars.update(map(ord, bytes([hi, lo]).decode("euc_jp")))
            except UnicodeDecodeError:
                pass
    for hi in list(range(0x81, 0xA0)) + list(range(0xE0, 0xFD)):
        for lo in range(0x40, 0xFD):
            try:
                chars.update(map(ord, bytes([hi, lo]).decode("cp932")))
            except UnicodeDecodeError:
                pass
    return chars


def data_chars() -> set[int]:
    """Characters used in the shipped card data and translations (whatever exists at build time)."""
    chars: set[int] = set()
    for folder in (REPO / "cards", REPO / "assets" / "i18n"):
        if folder.is_dir():
            for path in folder.rglob("*"):
                if path.suffix in {".yaml", ".yml", ".txt", ".md"} and path.is_file():
                    chars.update(map(ord, path.read_text(encoding="utf-8", errors="ignore")))
    return {c for c in chars if c >= 0x20}


def unicodes() -> set[int]:
    chars = jis_x0208_and_cp932() | data_chars()
    for lo, hi in RANGES:
        chars.update(range(lo, hi + 1))
    chars.update(map(ord, "【】・⌊⌋÷→★☆●○◎△▲▽▼□■◇◆×＋－±≦≧々〆〇ヶ〜～"))
    return chars


def rename(font: TTFont, style: str) -> None:
    """Give the subset its own family name, keeping copyright, licence and credits."""
    name = font["name"]
    full = f"{FAMILY} {style}" if style != "Regular" else FAMILY
    ps = f"{PS_FAMILY}-{style}"
    new = {
        1: FAMILY,
        2: style,
        3: f"{ps};subset of Noto Sans CJK JP 2.004",
        4: full,
        6: ps,
        16: FAMILY,
        17: style,
    }
    name.names = [r for r in name.names if r.nameID not in new]
    for name_id, value in new.items():
        name.setName(value, name_id, 3, 1, 0x409)
        name.setName(value, name_id, 1, 0, 0)
    note = (
        "Subset of Noto Sans CJK JP (© 2014-2021 Adobe) made for fate_royal with fontTools; "
        "licensed under the SIL Open Font License, Version 1.1."
    )
    name.setName(note, 200, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
        top = cff.topDictIndex[0]
        top.FullName = full
        top.FamilyName = FAMILY


def build(style: str, src_dir: Path) -> Path:
    src = src_dir / f"NotoSansCJK-{style}.ttc"
    font = TTFont(src, fontNumber=0)  # face 0 of the collection is Noto Sans CJK JP
    assert font["name"].getDebugName(1) == "Noto Sans CJK JP", font["name"].getDebugName(1)
    options = subset.Options()
    options.hinting = False  # Qt renders CJK well unhinted; saves a third of the size
    options.desubroutinize = False
    # A short feature list: the defaults (and worse "*") keep locl, whose Chinese and Korean
    # variants, and jp78/trad/expt alternates, would double the glyph count for no use here.
    options.layout_features = ["ccmp", "kern", "liga", "mark", "mkmk", "palt", "halt", "vert", "vrt2"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.recalc_bounds = True
    sub = subset.Subsetter(options)
    sub.populate(unicodes=unicodes())
    sub.subset(font)
    rename(font, style)
    out = HERE / f"{PS_FAMILY}-{style}.otf"
    font.save(out)
    print(f"{out.name}: {out.stat().st_size / 1e6:.2f} MB, {len(font.getGlyphOrder())} glyphs")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bold", action="store_true", help="also build the Bold weight")
    parser.add_argument("--src", type=Path, default=DEFAULT_SRC, help="folder with NotoSansCJK-*.ttc")
    args = parser.parse_args()
    build("Regular", args.src)
    if args.bold:
        build("Bold", args.src)


if __name__ == "__main__":
    main()
