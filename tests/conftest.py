"""Shared test setup. Qt must run on the offscreen platform, set before anything imports Qt."""

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
