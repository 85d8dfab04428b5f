"""The engine stays readable (issue 9): no module of fate_royal/rules over 600 lines, no function
over 80 — a new engineer finds where a rule lives by its module."""

from __future__ import annotations

import ast
from pathlib import Path

import fate_royal.rules

RULES = Path(fate_royal.rules.__file__).parent


def _modules():
    return sorted(RULES.rglob("*.py"))


def test_no_rules_module_over_600_lines():
    long = {str(p.relative_to(RULES)): n for p in _modules()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert not long, long


def test_no_rules_function_over_80_lines():
    long = []
    for p in _modules():
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = node.end_lineno - node.lineno + 1
                if n > 80:
                    long.append((str(p.relative_to(RULES)), node.name, n))
    assert not long, long
