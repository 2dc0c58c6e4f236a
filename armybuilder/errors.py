"""Exceptions and input problems.

Every problem with a user's file (a roster or a catalog) is reported as a :class:`Problem`
naming the file, the line and column (1-based) and what is wrong, in words a player or a
catalog author understands. Functions that read files raise :class:`InputError` carrying one
or more problems; the command line prints them and never a traceback.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with an input file, at a position if known."""

    file: str
    message: str
    line: int | None = None
    column: int | None = None
    code: str = "invalid-input"

    def __str__(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return f"{where}: {self.message}"

    def to_json(self) -> dict[str, object]:
        """The problem as a JSON-ready dict."""
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "code": self.code,
            "message": self.message,
        }


class ArmybuilderError(Exception):
    """Base class of every exception this package raises on purpose."""


class InputError(ArmybuilderError):
    """A file could not be read, parsed or understood; carries one or more problems."""

    def __init__(self, problems: list[Problem] | Problem) -> None:
        self.problems: list[Problem] = problems if isinstance(problems, list) else [problems]
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def single(
        cls,
        file: str | Path,
        message: str,
        line: int | None = None,
        column: int | None = None,
        code: str = "invalid-input",
    ) -> InputError:
        """An error with a single problem."""
        return cls(Problem(str(file), message, line, column, code))


class CatalogError(InputError):
    """A catalog file is unreadable or inconsistent."""


class RosterError(InputError):
    """A roster file is unreadable (not: illegal; an illegal roster loads fine)."""


class UnknownSystemError(ArmybuilderError):
    """No installed catalog defines the requested game system."""


class UnknownFactionError(ArmybuilderError):
    """The game system has no faction with the requested id."""


class ChangedOnDiskError(ArmybuilderError, OSError):
    """Saving would replace a file that changed on disk since it was read (another window, a
    text editor) or a file this roster was never read from: nothing was written. Reload it,
    save elsewhere, or save again with ``overwrite=True`` (the replaced file is kept as
    ``.bak``). Also an :class:`OSError`, so callers that report failed writes report this too.

    Defined here, not beside the roster code, so the builder can catch it without importing
    the roster stack before its first paint; :mod:`armybuilder.rosters` re-exports it.
    """

    def __init__(
        self, path: Path | str, message: str = "changed on disk since it was opened"
    ) -> None:
        super().__init__(f"{path}: {message}")
        self.path = Path(path)
        self.reason = message
