"""The bundled Japanese UI font, so Japanese renders on machines that have no Japanese fonts.

``assets/fonts/`` holds a subset of Noto Sans CJK JP (SIL OFL 1.1, see LICENSE-OFL.txt there),
renamed "Fate Royal Sans JP". ``install_fonts`` registers it with Qt once a QApplication exists and
makes it the application font; ``ui_font`` hands out sized copies for painting.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFont, QFontDatabase, QGuiApplication

from fate_royal.paths import assets_dir

log = logging.getLogger(__name__)

#: The family the bundled font files declare (see assets/fonts/make_subset.py).
BUNDLED_FAMILY = "Fate Royal Sans JP"
FONT_FILES = ("FateRoyalSansJP-Regular.otf", "FateRoyalSansJP-Bold.otf")
#: Tried, in order, if the bundled files are missing (a broken install) — never silently tofu.
FALLBACK_FAMILIES = ("Noto Sans CJK JP", "Noto Sans JP", "IPAexGothic", "IPAGothic", "Yu Gothic",
                     "Meiryo", "Hiragino Sans", "MS Gothic")

_family: str | None = None


def install_fonts() -> str:
    """Register the bundled font(s) with Qt and return the family name to use. Idempotent.

    Call after the QApplication exists. Sets the application's default font to the family, keeping
    the platform's point size.
    """
    global _family
    if _family is not None:
        return _family
    if QGuiApplication.instance() is None:
        raise RuntimeError("install_fonts() needs a QApplication (create it first)")
    folder = assets_dir() / "fonts"
    families: list[str] = []
    for name in FONT_FILES:
        path = folder / name
        if not path.is_file():
            log.warning("bundled font missing: %s", path)
            continue
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            log.warning("Qt could not load the bundled font %s", path)
            continue
        families += QFontDatabase.applicationFontFamilies(font_id)
    if BUNDLED_FAMILY in families:
        family = BUNDLED_FAMILY
    elif families:
        family = families[0]
    else:
        available = set(QFontDatabase.families())
        family = next((f for f in FALLBACK_FAMILIES if f in available), QFont().defaultFamily())
        log.warning("no bundled Japanese font; falling back to %r", family)
    app_font = QGuiApplication.font()
    app_font.setFamilies([family])
    QGuiApplication.setFont(app_font)
    _family = family
    return family


def font_family() -> str:
    """The UI family (installs the fonts on first use)."""
    return _family if _family is not None else install_fonts()


def ui_font(point_size: float | None = None, bold: bool = False) -> QFont:
    """A QFont in the bundled family; ``point_size`` None keeps the application's default size."""
    font = QFont(font_family())
    font.setFamilies([font_family()])
    if point_size is not None:
        font.setPointSizeF(float(point_size))
    else:
        size = QGuiApplication.font().pointSizeF()
        if size > 0:
            font.setPointSizeF(size)
    font.setBold(bold)
    font.setStyleStrategy(QFont.StyleStrategy.PreferAntialias)
    return font


def pixel_font(pixel_size: float, bold: bool = False) -> QFont:
    """A QFont sized in pixels (for painting inside a rect that scales); at least one pixel."""
    font = ui_font(bold=bold)
    font.setPixelSize(max(1, round(pixel_size)))
    return font
