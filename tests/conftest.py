"""Shared test setup. Qt must run on the offscreen platform, set before anything imports Qt."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

# The personal card pack (fate_royal.cards.pack) is read from the user's data folder: tests never
# see a real one. Tests that need a pack point FATE_ROYAL_PACK at their own file.
os.environ["FATE_ROYAL_PACK"] = os.path.join(os.path.dirname(__file__), ".no-such-card-pack.yaml")
