"""Shared test setup. Qt must run on the offscreen platform, set before anything imports Qt."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import tempfile  # noqa: E402

# The user's own rule sets and errata packs live in the user data folder and apply to the shipped
# cards: the suite must not see a developer's own (XDG_DATA_HOME is what platformdirs reads on
# Linux; tests that need a user folder of their own set it themselves).
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="fate_royal_tests_")
