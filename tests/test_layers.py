"""Layer boundary (design.md): importing the card and rules layers never imports Qt."""

from __future__ import annotations

import subprocess
import sys


def test_cards_and_rules_do_not_import_qt():
    code = (
        "import sys, fate_royal.cards, fate_royal.rules, fate_royal.cards.check, fate_royal.cli\n"
        "from fate_royal.cards import load_card_db\n"
        "load_card_db()\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'))\n"
        "print(qt)\n"
        "sys.exit(1 if qt else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
