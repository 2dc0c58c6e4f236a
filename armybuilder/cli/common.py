"""What every command of the ``armybuilder`` command line shares: exit codes, the catalog
library a command reads (with ``--catalogs DIR``), and how issues and problems are printed."""

from __future__ import annotations

import contextlib
import io
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO, TextIO

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


def catalog_folders(args: argparse.Namespace) -> list[Path]:
    """The ``--catalogs DIR`` folders given, before the command and after it (the parser keeps
    them apart). Raises :class:`UsageError` for one that is no folder: a mistyped name left the
    command without the catalogs asked for, said only as "no game system ... is installed"
    about a roster, or not at all (the builder refuses it too)."""
    given = [
        *(getattr(args, "global_catalogs", None) or []),
        *(getattr(args, "catalogs", None) or []),
    ]
    for name in given:
        folder = Path(name)
        if not folder.exists():
            raise UsageError(f"--catalogs {name}: no such folder")
        if not folder.is_dir():
            raise UsageError(f"--catalogs {name}: is a file, not a folder (give its folder)")
    return [Path(p) for p in given]


def library_for(args: argparse.Namespace) -> Library:
    """The catalogs on the search path plus any ``--catalogs DIR`` given."""
    return Library(default_roots(catalog_folders(args))).scan()


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


#: Control characters a terminal obeys rather than shows (C0 but tab and line feed, DEL, C1):
#: a roster is other people's file, and its names and notes are printed.
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def shown(text: str) -> str:
    """``text`` with each control character a terminal would obey written as its picture
    (U+241B "␛" for ESC, U+2421 "␡" for DEL) or, for C1 controls, as ``<U+009B>``."""

    def picture(found: re.Match[str]) -> str:
        code = ord(found.group())
        if code < 0x20:
            return chr(0x2400 + code)
        return "\u2421" if code == 0x7F else f"<U+{code:04X}>"

    return _CONTROLS.sub(picture, text)


class TerminalText(io.TextIOBase):
    """A terminal's text stream, through which a command's output shows the control
    characters of a roster's names and notes instead of sending them to the terminal (a
    name holding ``ESC ] 0 ;`` retitled the window, ``ESC [ 2 J`` cleared it). Only for a
    terminal: output sent to a file or a pipe keeps every character. Bytes written to
    :attr:`buffer` (an export to standard output) pass as they are."""

    def __init__(self, stream: TextIO) -> None:
        super().__init__()
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(shown(text))
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def isatty(self) -> bool:
        return True

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.stream.fileno()

    @property
    def buffer(self) -> BinaryIO:
        return self.stream.buffer

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self.stream.encoding


class GuardedOutput(io.TextIOBase):
    """Standard output kept for a command whose reader went away (``| head -1``, ``| grep
    -q``) or that was started with it closed (``>&-``): what is written then is discarded and
    the command runs to its end, so that its exit code still says its result. A broken pipe
    ended the command at once with exit 0: ``validate illegal.yaml | true`` said "legal" to
    a script reading the exit code; a closed one was a traceback. Once the pipe broke, the
    output's file descriptor is pointed at the null device, so that the interpreter's own
    flush at exit has nothing to complain about."""

    def __init__(self, stream: TextIO | None, name: str = "standard output") -> None:
        super().__init__()
        self.stream = stream
        self.name = name
        self.lost = stream is None
        self.said = False

    def _lost(self) -> None:
        if self.stream is None and not self.said:
            self.said = True  # (closed from the start: said once, on standard error)
            if sys.stderr is not None and sys.stderr is not self:
                print(
                    f"armybuilder: {self.name} is closed; what it prints is lost", file=sys.stderr
                )
        if self.lost or self.stream is None:
            self.lost = True
            return
        self.lost = True
        with contextlib.suppress(OSError, ValueError, AttributeError):
            import os

            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self.stream.fileno())
            os.close(null)

    def write(self, text: str) -> int:
        if not self.lost and self.stream is not None:
            try:
                self.stream.write(text)
            except BrokenPipeError:
                self._lost()
        else:
            self._lost()
        return len(text)

    def write_bytes(self, data: bytes) -> None:
        if not self.lost and self.stream is not None:
            try:
                self.stream.flush()
                self.stream.buffer.write(data)
                self.stream.buffer.flush()
            except BrokenPipeError:
                self._lost()
        else:
            self._lost()

    def flush(self) -> None:
        if not self.lost and self.stream is not None:
            try:
                self.stream.flush()
            except BrokenPipeError:
                self._lost()

    def isatty(self) -> bool:
        return not self.lost and self.stream is not None and self.stream.isatty()

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        if self.stream is None:
            raise OSError("standard output is closed")
        return self.stream.fileno()

    @property
    def buffer(self) -> BinaryIO:
        return _GuardedBytes(self)  # type: ignore[return-value]

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"


class _GuardedBytes:
    """:class:`GuardedOutput`'s ``buffer``: bytes (a PDF, a zip) written through the guard."""

    def __init__(self, guard: GuardedOutput) -> None:
        self.guard = guard

    def write(self, data: bytes) -> int:
        self.guard.write_bytes(data)
        return len(data)

    def flush(self) -> None:
        self.guard.flush()


@contextlib.contextmanager
def guarded_output() -> Iterator[None]:
    """Standard output and error as :class:`GuardedOutput` while a command runs."""
    old = sys.stdout, sys.stderr
    try:
        sys.stdout = GuardedOutput(sys.stdout)
        if sys.stderr is None:
            sys.stderr = GuardedOutput(None, "standard error")
        yield
    finally:
        guard = sys.stdout
        sys.stdout, sys.stderr = old
        if isinstance(guard, GuardedOutput):
            guard.flush()


@contextlib.contextmanager
def terminal_safe() -> Iterator[None]:
    """Standard output and error, where they are terminals, as :class:`TerminalText`."""
    old = sys.stdout, sys.stderr
    try:
        if sys.stdout is not None and sys.stdout.isatty():
            sys.stdout = TerminalText(sys.stdout)
        if sys.stderr is not None and sys.stderr.isatty():
            sys.stderr = TerminalText(sys.stderr)
        yield
    finally:
        sys.stdout, sys.stderr = old
