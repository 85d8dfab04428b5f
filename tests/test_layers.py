"""Layer boundary (design.md): importing the card and rules layers never imports Qt."""

from __future__ import annotations

import subprocess
import sys


def test_cards_and_rules_do_not_import_qt():
    code = (
        "import sys, fate_royal.cards, fate_royal.rules, fate_royal.commands.check, fate_royal.cli\n"
        "import fate_royal.ai, fate_royal.ai.strong, fate_royal.ai.tournament\n"
        "from fate_royal.cards import load_card_db\n"
        "load_card_db()\n"
        "qt = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'PyQt5', 'PyQt6'))\n"
        "print(qt)\n"
        "sys.exit(1 if qt else 0)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_hold():
    """import-linter's contracts (pyproject.toml): front-ends over words over rules over cards, and
    only the table imports Qt."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    exe = Path(sys.executable).parent / "lint-imports"
    command = [str(exe)] if exe.exists() else [shutil.which("lint-imports") or "lint-imports"]
    result = subprocess.run(command + ["--no-cache"], cwd=root, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "2 kept, 0 broken" in result.stdout


def test_import_contracts_catch_a_violation(tmp_path):
    """The contracts can fail: a rules module that imports the table breaks them."""
    import shutil
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    copy = tmp_path / "repo"
    shutil.copytree(root / "fate_royal", copy / "fate_royal",
                    ignore=shutil.ignore_patterns("__pycache__", "_data"))
    shutil.copy(root / "pyproject.toml", copy / "pyproject.toml")
    (copy / "fate_royal" / "rules" / "leak.py").write_text("import fate_royal.qt.table\n")
    exe = Path(sys.executable).parent / "lint-imports"
    command = [str(exe)] if exe.exists() else [shutil.which("lint-imports") or "lint-imports"]
    env = dict(__import__("os").environ, PYTHONPATH=str(copy))
    result = subprocess.run(command + ["--no-cache"], cwd=copy, capture_output=True, text=True,
                            timeout=300, env=env)
    assert result.returncode != 0
    assert "fate_royal.rules.leak" in result.stdout
