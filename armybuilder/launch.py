"""The ``armybuilder`` command's entry point: start the interactive builder without loading
the command line's modules first.

``armybuilder`` alone (or ``armybuilder FILE``) in a terminal opens the TUI, whose first screen
needs only Textual and the light parts of armybuilder; the catalog models are loaded in a worker
after it is painted. Going through :mod:`armybuilder.cli` first would import them before the
first paint (about a quarter of a second). Everything else goes to :func:`armybuilder.cli.main`.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

#: The command names of :mod:`armybuilder.cli` (a test keeps the two in step).
COMMANDS = (
    "validate",
    "show",
    "new",
    "catalogs",
    "schema",
    "check-catalog",
    "bs-adapter",
    "render",
    "export",
    "serve",
)


def opens_builder(words: Sequence[str]) -> bool:
    """Whether these arguments open the interactive builder (given a terminal)."""
    if not words:
        return True
    word = words[0]
    if len(words) > 1 or word in COMMANDS or word.startswith("-"):
        return False
    return Path(word).exists() or word.endswith((".yaml", ".yml"))


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    if opens_builder(words) and sys.stdin.isatty() and sys.stdout.isatty():
        from .tui.app import run

        return run(words[0] if words else None)
    from .cli import main as cli_main

    return cli_main(words)
