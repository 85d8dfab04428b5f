"""Shared test setup. Qt must run on the offscreen platform, set before anything imports Qt."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def pytest_sessionstart(session):
    """Each session starts with the engine's caches empty. Mutation testing (mutmut) forks every
    session from a process that has already run the suite unmutated: a cached result would hide a
    mutant."""
    from fate_royal.cards.reference import reference

    clear = getattr(reference, "cache_clear", None)
    if clear is not None:
        clear()
