"""The parsed-file cache (fate_royal.cache): a start does not parse the same YAML twice, and the
cache can never serve a stale, foreign or broken parse. The suite runs with the cache off
(tests/conftest.py); these tests turn it on in a folder of their own."""

from __future__ import annotations

import pickle

import pytest

from fate_royal import cache
from fate_royal.cards import load_card_db, yamlsrc
from fate_royal.cards.yamlsrc import YList, YMap, parse_yaml


@pytest.fixture
def folder(tmp_path, monkeypatch):
    where = tmp_path / "cache"
    monkeypatch.setenv("FATE_ROYAL_CACHE", str(where))
    return where


@pytest.fixture
def parses(monkeypatch):
    """Counts the real YAML parses (the cache's misses)."""
    seen: list[str] = []
    real = yamlsrc._parse_yaml

    def counting(data, label, errors):
        seen.append(label)
        return real(data, label, errors)

    monkeypatch.setattr(yamlsrc, "_parse_yaml", counting)
    return seen


def _db_digest(db) -> tuple:
    return (db.fingerprint, db.patches, [repr(db.cards[k]) for k in sorted(db.cards)],
            [repr(db.chips[k]) for k in sorted(db.chips)])


def test_the_shipped_cards_load_the_same_from_the_cache(folder, parses, monkeypatch):
    first = load_card_db(rules=None)
    files = len(parses)
    assert files > 10 and len(list(folder.iterdir())) == files  # one entry per file read
    again = load_card_db(rules=None)
    assert len(parses) == files  # nothing parsed again
    assert _db_digest(again) == _db_digest(first)
    # and what the cache served is what a parse without it gives
    monkeypatch.setenv("FATE_ROYAL_CACHE", "off")
    assert _db_digest(load_card_db(rules=None)) == _db_digest(first)


def test_line_numbers_and_file_names_survive_the_cache(folder, parses):
    text = b"a:\n  - 1\n  - two\nb: {c: true}\n"
    errors: list = []
    first = parse_yaml(text, "x.yaml", errors)
    second = parse_yaml(text, "x.yaml", errors)
    assert parses == ["x.yaml"] and not errors
    assert second == first and second is not first
    assert isinstance(second, YMap) and isinstance(second["a"], YList)
    assert (second.src, second.line, second.key_lines) == ("x.yaml", 1, {"a": 1, "b": 4})
    assert second["a"].item_lines == [2, 3] and second["b"].src == "x.yaml"


def test_another_file_or_other_bytes_is_a_miss(folder, parses):
    errors: list = []
    parse_yaml(b"k: 1\n", "one.yaml", errors)
    other_name = parse_yaml(b"k: 1\n", "two.yaml", errors)
    assert other_name.src == "two.yaml"  # never the first file's name
    parse_yaml(b"k: 2\n", "one.yaml", errors)
    assert parses == ["one.yaml", "two.yaml", "one.yaml"]


def test_a_file_with_errors_is_never_cached(folder, parses):
    for _ in range(2):
        errors: list = []
        assert parse_yaml(b"a: [1\n", "bad.yaml", errors) is None
        assert errors and str(errors[0]).startswith("bad.yaml:")
    assert parses == ["bad.yaml", "bad.yaml"]
    assert not folder.exists() or not list(folder.iterdir())


def test_a_damaged_entry_is_parsed_again_and_replaced(folder, parses):
    errors: list = []
    parse_yaml(b"k: 1\n", "f.yaml", errors)
    (entry,) = folder.iterdir()
    entry.write_bytes(b"\x80\x04 not a pickle")
    assert parse_yaml(b"k: 1\n", "f.yaml", errors) == {"k": 1}
    assert parses == ["f.yaml", "f.yaml"]
    assert pickle.loads(entry.read_bytes()) == {"k": 1}  # replaced by a good one
    entry.write_bytes(b"")  # truncated
    assert parse_yaml(b"k: 1\n", "f.yaml", errors) == {"k": 1}


def test_off_means_nothing_is_written(tmp_path, monkeypatch, parses):
    monkeypatch.setenv("FATE_ROYAL_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    for _ in range(2):
        parse_yaml(b"k: 1\n", "f.yaml", [])
    assert parses == ["f.yaml", "f.yaml"] and not (tmp_path / "xdg").exists()


def test_an_unwritable_folder_is_only_a_miss(tmp_path, monkeypatch, parses):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("FATE_ROYAL_CACHE", str(blocker / "cache"))
    assert parse_yaml(b"k: 1\n", "f.yaml", []) == {"k": 1}
    assert parse_yaml(b"k: 1\n", "f.yaml", []) == {"k": 1}
    assert parses == ["f.yaml", "f.yaml"]


def test_the_folder_is_kept_small(folder, monkeypatch):
    monkeypatch.setattr(cache, "MAX_FILES", 3)
    for n in range(6):
        parse_yaml(f"k: {n}\n".encode(), "f.yaml", [])
    assert len(list(folder.glob("*.pickle"))) == 3
    assert not list(folder.glob(".*.tmp"))


def test_a_large_input_is_not_cached(folder, monkeypatch, parses):
    monkeypatch.setattr(cache, "MAX_INPUT", 10)
    for _ in range(2):
        parse_yaml(b"key: a long enough value\n", "f.yaml", [])
    assert len(parses) == 2 and not folder.exists()


def test_the_message_catalogs_come_from_the_cache_too(folder, monkeypatch):
    from fate_royal.text import catalog

    catalog.reload_catalogs()
    first = dict(catalog.catalog("ja"))
    catalog.reload_catalogs()
    import yaml

    monkeypatch.setattr(yaml, "load", lambda *a, **k: pytest.fail("parsed again"))
    assert dict(catalog.catalog("ja")) == first and len(first) > 100
    catalog.reload_catalogs()



def test_a_parser_whose_source_cannot_be_read_is_keyed_by_the_executable(tmp_path, monkeypatch):
    """A frozen bundle has no source files: a rebuilt bundle (another executable) never reuses the
    parses of the old one."""
    exe = tmp_path / "fate-royal"
    exe.write_bytes(b"one build")
    monkeypatch.setattr(cache.sys, "executable", str(exe))
    missing = str(tmp_path / "no-such-source.py")
    cache._versions.clear()
    first = cache._version(missing)
    exe.write_bytes(b"another, longer build")
    cache._versions.clear()
    assert cache._version(missing) != first
    cache._versions.clear()
