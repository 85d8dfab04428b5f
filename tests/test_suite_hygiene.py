"""The suite cleans up after itself: each pytest process's private data folder (tests/conftest.py)
is removed when the process ends (a mutation run starts thousands of them)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_the_private_data_folder_is_removed_when_the_process_ends():
    code = ("import sys; sys.path.insert(0, sys.argv[1]); import conftest, os; "
            "assert os.path.isdir(conftest._DATA_HOME); print(conftest._DATA_HOME)")
    out = subprocess.run([sys.executable, "-c", code, str(TESTS)], capture_output=True, text=True,
                         env={**os.environ, "QT_QPA_PLATFORM": "offscreen"}, timeout=120, check=True)
    folder = out.stdout.strip().splitlines()[-1]
    assert "fate_royal_tests_" in folder
    assert not os.path.exists(folder)
