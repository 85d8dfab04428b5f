"""UI strings in Japanese and English, from the catalogs ``assets/i18n/<lang>.yaml``.

Each catalog is a flat mapping of key -> string with ``{name}`` placeholders. ``tr`` looks a key up in
the current language, then in English, and shows a missing key as ``[key]`` so it is visible on screen
and in tests instead of failing. The core emits codes; this module turns them into words.
"""

from __future__ import annotations

import logging
import re
import string
from functools import lru_cache
from typing import Any, Mapping

import yaml

#: libyaml's safe loader when PyYAML was built with it (much faster), else the pure-Python one.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
from PySide6.QtCore import QLocale

from fate_royal.paths import assets_dir

log = logging.getLogger(__name__)

LANGUAGES = ("ja", "en")
FALLBACK_LANGUAGE = "en"

_current: str | None = None


@lru_cache(maxsize=None)
def catalog(lang: str) -> Mapping[str, str]:
    """The catalog of one language (read once); empty if the file is missing."""
    path = assets_dir() / "i18n" / f"{lang}.yaml"
    if not path.is_file():
        log.warning("no translation catalog %s", path)
        return {}
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_SAFE_LOADER) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a translation catalog must be a flat mapping")
    return {str(k): str(v) for k, v in data.items()}


def reload_catalogs() -> None:
    """Forget the cached catalogs (after editing the YAML)."""
    catalog.cache_clear()


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


class _KeepMissing(dict):
    """Leaves a placeholder the caller did not supply as ``{name}`` instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _format(text: str, kwargs: Mapping[str, Any]) -> str:
    if not kwargs and "{" not in text:
        return text
    try:
        return string.Formatter().vformat(text, (), _KeepMissing(kwargs))
    except (ValueError, IndexError, KeyError, AttributeError):
        log.warning("bad placeholders in translation %r", text)
        return text


def has_key(key: str, lang: str | None = None) -> bool:
    return key in catalog(lang or current_language())


def tr_in(lang: str, key: str, **kwargs: Any) -> str:
    """``tr`` in a given language (for things drawn in a fixed language, such as a card face)."""
    text = catalog(lang).get(key)
    if text is None and lang != FALLBACK_LANGUAGE:
        text = catalog(FALLBACK_LANGUAGE).get(key)
    if text is None:
        return f"[{key}]"
    return _format(text, kwargs)


def tr(key: str, **kwargs: Any) -> str:
    """The UI string for ``key`` in the current language with placeholders filled in.

    Falls back to English, then shows ``[key]``.
    """
    return tr_in(current_language(), key, **kwargs)


def strip_mnemonic(text: str) -> str:
    """A menu label without its ``&`` accelerator (and the Japanese ``(&F)`` form)."""
    text = re.sub(r"\(&.\)", "", text)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")
