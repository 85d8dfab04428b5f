"""The message catalogs: one per language, ``assets/i18n/<lang>.yaml``, a flat mapping of key ->
template. They hold every word the program shows — UI labels, log lines (``event.<Code>``), action
texts, refusal reasons, terms — for the table, the command line and the demos alike.

Templates use ``{name}`` placeholders and ``{name|one|other}`` for plural forms (English needs
them; Japanese templates simply don't use them). A key missing in one language falls back to
English, then shows as ``[key]`` so a gap is visible rather than blank. No Qt here.
"""

from __future__ import annotations

import logging
import re
from functools import lru_cache
from typing import Any, Mapping

from fate_royal.paths import assets_dir

log = logging.getLogger(__name__)

LANGUAGES = ("ja", "en")
FALLBACK_LANGUAGE = "en"
_FIELD = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:\|([^{}|]*)\|([^{}|]*))?\}")


@lru_cache(maxsize=None)
def catalog(lang: str) -> Mapping[str, str]:
    """The catalog of one language (read once); empty if the file is missing."""
    path = assets_dir() / "i18n" / f"{lang}.yaml"
    if not path.is_file():
        log.warning("no translation catalog %s", path)
        return {}
    from fate_royal.cache import parsed

    raw = path.read_bytes()

    def build() -> tuple[dict[str, str], bool]:
        import yaml  # only when the parsed-file cache does not hold this catalog

        data = yaml.load(raw.decode("utf-8-sig"), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
        if not isinstance(data, dict):
            raise ValueError(f"{path}: a translation catalog must be a flat mapping")
        return {str(k): str(v) for k, v in data.items()}, True

    return parsed("catalog", raw, str(path), build, __file__)


def reload_catalogs() -> None:
    """Forget the cached catalogs (after editing the YAML)."""
    catalog.cache_clear()


def has_key(key: str, lang: str) -> bool:
    return key in catalog(lang)


def fill(template: str, values: Mapping[str, Any]) -> str:
    """Fill ``{name}`` and ``{name|one|other}`` placeholders; an unknown name stays as written."""

    def sub(m: re.Match) -> str:
        name, one, other = m.group(1), m.group(2), m.group(3)
        if name not in values:
            return m.group(0)
        value = values[name]
        if one is not None:
            return one if value == 1 else other
        return str(value)

    return _FIELD.sub(sub, template)


def lookup(lang: str, key: str) -> str | None:
    text = catalog(lang).get(key)
    if text is None and lang != FALLBACK_LANGUAGE:
        text = catalog(FALLBACK_LANGUAGE).get(key)
    return text


def tr_in(lang: str, key: str, **values: Any) -> str:
    """The catalog text for ``key`` in ``lang`` with its placeholders filled; ``[key]`` if none."""
    text = lookup(lang, key)
    if text is None:
        return f"[{key}]"
    return fill(text, values)


def tr_or_in(lang: str, key: str, fallback: str, **values: Any) -> str:
    """Like ``tr_in`` but ``fallback`` (filled too) when no catalog has the key."""
    text = lookup(lang, key)
    return fill(fallback if text is None else text, values)


__all__ = ["FALLBACK_LANGUAGE", "LANGUAGES", "catalog", "fill", "has_key", "lookup",
           "reload_catalogs", "tr_in", "tr_or_in"]


@lru_cache(maxsize=None)
def _card_notes(lang: str) -> Mapping[str, str]:
    path = assets_dir() / "i18n" / f"cardnotes.{lang}.yaml"
    if not path.is_file():
        return {}
    import yaml

    data = yaml.load(path.read_text(encoding="utf-8-sig"),
                     Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)) or {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def card_note(note: str, lang: str) -> str:
    """A card file's provenance note (written in English) in ``lang``: its wording in
    ``assets/i18n/cardnotes.<lang>.yaml``, else as written (a group's own cards, an errata quote)."""
    return _card_notes(lang).get(note, note) if note else note
