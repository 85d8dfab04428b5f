"""Qt test setup: the offscreen platform (set before Qt is imported) and the bundled fonts, once."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from fate_royal.qt.compat import binding_problem  # noqa: E402

_problem = binding_problem()
if _problem:  # fail loudly at once rather than abort the interpreter half-way through the suite
    raise pytest.UsageError(_problem)


@pytest.fixture(scope="session")
def ui_family(qapp) -> str:
    """The bundled Japanese UI font, installed once for the whole session."""
    from fate_royal.qt.fonts import install_fonts

    return install_fonts()


@pytest.fixture(autouse=True)
def _fonts_installed(ui_family) -> None:
    """Every Qt test paints with the bundled font, as the application does."""


@pytest.fixture(autouse=True)
def _editors_discard_at_teardown(monkeypatch) -> None:
    """pytest-qt closes every widget after a test: a card, rules or patch editor with unsaved changes would wait
    for an answer in a message box. Tests of that question set ``ask_unsaved`` themselves."""
    monkeypatch.setattr("fate_royal.qt.card_editor.CardEditor.ask_unsaved",
                        staticmethod(lambda editor: "discard"))
    monkeypatch.setattr("fate_royal.qt.rules_editor.RulesEditor.ask_unsaved",
                        staticmethod(lambda editor: "discard"))
    monkeypatch.setattr("fate_royal.qt.patch_editor.PatchEditor.ask_unsaved",
                        staticmethod(lambda editor: "discard"))
