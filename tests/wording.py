"""Checks shared by the tests of problems worded in the reader's language (tests/text)."""

from __future__ import annotations

import re

from fate_royal.text.dataerrors import known, localize

JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def worded(error: Exception) -> list[tuple[str, str]]:
    """Each problem of a data error as (the loader's English, its Japanese): every one has a
    wording, English stays as the loader wrote it, and the Japanese is Japanese."""
    out = []
    for problem in getattr(error, "errors", [error]):
        message = problem.message
        assert known(message), f"no Japanese wording for: {message}"
        assert localize(message, "en") == message
        ja = localize(message, "ja")
        assert JAPANESE.search(ja), ja
        out.append((message, ja))
    return out
