"""The ``armybuilder`` command's entry point: start the interactive builder without loading
the command line's modules first.

``armybuilder`` alone (or ``armybuilder FILE``) in a terminal opens the TUI, whose first screen
needs only Textual and the light parts of armybuilder; the catalog models are loaded in a worker
after it is painted. Going through :mod:`armybuilder.cli` first would import them before the
first paint (about a quarter of a second). Everything else goes to :func:`armybuilder.cli.main`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
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
    # Ctrl+C while the command starts (its modules loading, its parser built: before the
    # command's own handling, which exits 130 quietly) printed a KeyboardInterrupt traceback.
    try:
        return _main(argv)
    except KeyboardInterrupt:
        return 130


def _main(argv: Sequence[str] | None) -> int:
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
    if argv is None:  # a process of its own (not a caller's, whose heap is left alone)
        cli_main = _load_cli()
    else:
        from .cli import main as cli_main
    return cli_main(words)


def _load_cli() -> Callable[[Sequence[str]], int]:
    """Import the command line, leaving what it loads out of the garbage collector's passes.

    Its modules make some 11 000 objects the collector tracks (classes, functions, their
    dictionaries) that live as long as the process: the collector would go over them about 40
    times while they load, and again in every later pass of an older generation, for next to
    nothing to free. So it is off while they load, and what they made is then left out of its
    passes (:func:`gc.freeze`); it collects what the command makes as usual. Measured on a
    short ``validate``: about a tenth of its CPU time (benchmarks/README.md, issue 17).
    """
    import gc

    collecting = gc.isenabled()
    gc.disable()
    try:
        from .cli import main
    finally:
        gc.freeze()
        if collecting:
            gc.enable()
    return main
