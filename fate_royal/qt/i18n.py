"""The UI language of the table, over the one catalog per language of ``fate_royal.text``.

``tr`` looks a key up in the current language, then in English, and shows a missing key as
``[key]`` so it is visible on screen and in tests instead of failing. The core emits codes; the
catalogs (``assets/i18n/<lang>.yaml``) turn them into words for the table, the command line and the
demos alike. Only the system-language default needs Qt.
"""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QLocale

from fate_royal.text import catalog as _catalog
from fate_royal.text.catalog import FALLBACK_LANGUAGE, LANGUAGES, catalog, reload_catalogs

_current: str | None = None


def default_language() -> str:
    """The system locale's language if it is Japanese or English, else Japanese."""
    lang = QLocale.system().language()
    if lang == QLocale.Language.English:
        return "en"
    return "ja"


def set_language(lang: str) -> None:
    """Switch the UI language (``ja`` or ``en``); ValueError for anything else."""
    global _current
    if lang not in LANGUAGES:
        raise ValueError(f"unsupported language {lang!r} (choose from {', '.join(LANGUAGES)})")
    _current = lang


def current_language() -> str:
    """The UI language; the system default until ``set_language`` is called."""
    global _current
    if _current is None:
        _current = default_language()
    return _current


def has_key(key: str, lang: str | None = None) -> bool:
    return _catalog.has_key(key, lang or current_language())


def tr_in(lang: str, key: str, **kwargs: Any) -> str:
    """``tr`` in a given language (for things drawn in a fixed language, such as a card face)."""
    return _catalog.tr_in(lang, key, **kwargs)


def tr(key: str, **kwargs: Any) -> str:
    """The UI string for ``key`` in the current language with placeholders filled in.

    Falls back to English, then shows ``[key]``.
    """
    return _catalog.tr_in(current_language(), key, **kwargs)


def strip_mnemonic(text: str) -> str:
    """A menu label without its ``&`` accelerator (and the Japanese ``(&F)`` form)."""
    text = re.sub(r"\(&.\)", "", text)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")


def announce_language() -> None:
    """Tell every open window that the language changed (a Qt LanguageChange event), also where
    no translation of Qt's own was installed or removed (Qt sends one then by itself)."""
    from PySide6.QtWidgets import QApplication

    for w in QApplication.topLevelWidgets():
        QCoreApplication.sendEvent(w, QEvent(QEvent.Type.LanguageChange))


class FollowsLanguage:
    """A mixin for a window of its own (the comparison, the sweep, the editors, the legend): a
    change of language (View → Language) words it anew at once, through its ``retranslate``."""

    def changeEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)  # type: ignore[misc]
        # once a language: Qt sends its own event for each translation it removes or installs,
        # and the main window sends one more (the comparison would replay its games each time)
        if event.type() == QEvent.Type.LanguageChange and \
                getattr(self, "_worded_in", None) != current_language():
            self._worded_in = current_language()
            self.retranslate()

    def retranslate(self) -> None:  # pragma: no cover - each window has its own
        raise NotImplementedError


__all__ = ["FALLBACK_LANGUAGE", "LANGUAGES", "FollowsLanguage", "announce_language", "catalog",
           "current_language", "default_language", "has_key", "reload_catalogs", "set_language",
           "strip_mnemonic", "tr", "tr_in"]
