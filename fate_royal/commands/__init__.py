"""The command-line front-ends, one module per sub-command, each imported only when used (so the
headless commands never load Qt): ``check``, ``run``, ``simulate``, ``bench``, ``cards``, ``rules``."""

from __future__ import annotations

import importlib

SUBCOMMANDS = ("check", "run", "simulate", "bench", "cards", "rules")


def option_error_lines(exc: Exception, option: str) -> list[str]:
    """The lines that say why the value of a command-line ``option`` (``--rules``, ``SET``) was
    refused (a ``DataError`` raised with the option as its source): a problem of the value itself
    names the option alone (``--compare: no rule set …``), one inside a file it names keeps that
    file's ``file:line``."""
    out = []
    for e in getattr(exc, "errors", None) or [exc]:
        if getattr(e, "file", None) == option and getattr(e, "line", None) == 0:
            out.append(f"{option}: {e.message}")
        else:
            out.append(str(e))
    return out


def dispatch(command: str, argv: list[str]) -> int:
    """Run sub-command ``command`` with its arguments; its exit status."""
    if command not in SUBCOMMANDS:
        raise KeyError(command)
    module = importlib.import_module(f"fate_royal.commands.{command}")
    return module.main(argv)
