"""What every command of the ``armybuilder`` command line shares: exit codes, the catalog
library a command reads (with ``--catalogs DIR``), and how issues and problems are printed."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from ..batch import issue_text as issue_text
from ..catalog import GameSystem, Library, default_roots
from ..errors import ArmybuilderError, Problem
from ..words import plural as plural

if TYPE_CHECKING:
    import argparse

EXIT_OK, EXIT_ILLEGAL, EXIT_INPUT = 0, 1, 2


class UsageError(ArmybuilderError):
    """Bad command-line arguments (exit 2)."""


# --------------------------------------------------------------------------- helpers


def library_for(args: argparse.Namespace) -> Library:
    """The catalogs on the search path plus any ``--catalogs DIR`` given."""
    # `--catalogs` before the command and after it both count (the parser keeps them apart).
    given = [
        *(getattr(args, "global_catalogs", None) or []),
        *(getattr(args, "catalogs", None) or []),
    ]
    extra = [Path(p) for p in given]
    return Library(default_roots(extra)).scan()


def catalog_warnings(lib: Library) -> None:
    """Say on stderr which catalogs were left out and why (the rest still work)."""
    for p in lib.problems:
        print(
            f"{p} (catalog problem: left out; `armybuilder check-catalog` lints it)",
            file=sys.stderr,
        )


def system_problems(gs: GameSystem) -> list[Problem]:
    return list(gs.problems)


def problems_text(problems: Sequence[Problem], out: TextIO) -> None:
    for p in problems:
        print(f"{p}", file=out)
