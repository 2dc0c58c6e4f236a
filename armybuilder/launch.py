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


def builder_arguments(words: Sequence[str]) -> tuple[str | None, list[str]] | None:
    """The roster file (or ``None``) and the ``--catalogs DIR`` folders when these arguments
    open the interactive builder (``armybuilder``, ``armybuilder FILE``, either with
    ``--catalogs DIR`` before or after, repeatable); ``None`` when they are a command."""
    rest: list[str] = []
    folders: list[str] = []
    i = 0
    while i < len(words):
        word = words[i]
        if word == "--catalogs":
            if i + 1 >= len(words):
                return None  # the command line says what is missing
            folders.append(words[i + 1])
            i += 2
            continue
        if word.startswith("--catalogs="):
            folders.append(word.split("=", 1)[1])
        else:
            rest.append(word)
        i += 1
    if not rest:
        return None, folders
    word = rest[0]
    if len(rest) > 1 or word in COMMANDS or word.startswith("-"):
        return None
    if Path(word).exists() or word.endswith((".yaml", ".yml")):
        return word, folders
    return None


def opens_builder(words: Sequence[str]) -> bool:
    """Whether these arguments open the interactive builder (given a terminal)."""
    return builder_arguments(words) is not None


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    found = builder_arguments(words)
    if found is not None and sys.stdin.isatty() and sys.stdout.isatty():
        from .tui.app import run

        path, folders = found
        missing = [f for f in folders if not Path(f).is_dir()]
        if missing:
            print(f"armybuilder: --catalogs {missing[0]}: no such folder", file=sys.stderr)
            return 2
        return run(path, [Path(f) for f in folders])
    from .cli import main as cli_main

    return cli_main(words)
