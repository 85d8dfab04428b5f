"""The command-line front-ends, one module per sub-command, each imported only when used (so the
headless commands never load Qt): ``check``, ``run``, ``simulate``, ``bench``, ``cards``."""

from __future__ import annotations

import importlib

SUBCOMMANDS = ("check", "run", "simulate", "bench", "cards")


def dispatch(command: str, argv: list[str]) -> int:
    """Run sub-command ``command`` with its arguments; its exit status."""
    if command not in SUBCOMMANDS:
        raise KeyError(command)
    module = importlib.import_module(f"fate_royal.commands.{command}")
    return module.main(argv)
