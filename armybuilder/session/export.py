"""Exports of the roster being edited: PDF record sheet and plain text through
:mod:`armybuilder.render` when it is installed, and other programs' roster files through the
writers registered in :mod:`armybuilder.formats` (BattleScribe's ``.ros``)."""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..errors import ArmybuilderError
from .editor import EditSession
from .text import plain_text


class ExportUnavailableError(ArmybuilderError):
    """The export asked for is not installed in this version."""


# =========================================================================== exports


def _render_module() -> Any:
    try:
        import importlib

        return importlib.import_module("armybuilder.render")
    except ImportError:
        return None


def _accepts(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return False
    return True


def _subject(fn: Callable[..., Any], session: EditSession) -> Any:
    """What a renderer function takes first: the evaluation, or the roster."""
    try:
        first = next(iter(inspect.signature(fn).parameters))
    except (StopIteration, TypeError, ValueError):
        return session.evaluate()
    return session.roster if first in {"roster", "roster_or_path", "path"} else session.evaluate()


def export_text(session: EditSession) -> str:
    """The roster as text for a forum post.

    Uses the renderer's text export (``armybuilder.render.export(evaluation, "text")``)
    when it is installed, else a plain layout (:func:`plain_text`).
    """
    render = _render_module()
    fn = getattr(render, "export", None) if render is not None else None
    if callable(fn):
        subject = _subject(fn, session)
        if _accepts(fn, subject, "text"):
            result = fn(subject, "text")
            if isinstance(result, str):
                return result
    return plain_text(session.evaluate())


def export_pdf(
    session: EditSession,
    out: Path,
    progress: Callable[[float], None] | None = None,
    paper: str | None = None,
) -> Path:
    """Render the roster to a PDF at ``out`` with ``armybuilder.render.render_pdf``.

    Slow (WeasyPrint): call it from a worker. ``progress`` receives fractions from 0 to 1
    as the renderer reports its parts done. ``paper``: the renderer's paper size (``a4``
    or ``letter``; default: the renderer's). Raises :class:`ExportUnavailableError` when the
    renderer is not installed (or not one this version knows how to call).
    """
    from ..fileio import atomic_write, check_output

    render = _render_module()
    fn = getattr(render, "render_pdf", None) if render is not None else None
    if not callable(fn):
        raise ExportUnavailableError("PDF export is not installed in this version")
    # Never over the roster itself; a folder or a pipe is refused before the slow part.
    check_output(out, [session.path] if session.path is not None else [])
    subject = _subject(fn, session)

    def report(*args: float) -> None:
        if progress is None or not args:
            return
        done, total = (args[0], args[1]) if len(args) >= 2 else (args[0], 1.0)
        progress(done / total if total else 1.0)

    extra: dict[str, Any] = {"paper": paper} if paper else {}
    if extra and not _accepts(fn, subject, out, **extra):
        if paper != "a4":  # a renderer without the choice prints on its own paper (A4)
            raise ExportUnavailableError(
                f"this version's PDF export cannot choose the paper size ({paper})"
            )
        extra = {}
    # The renderer writes to a private temporary file (an unpredictable name, in a private
    # folder); the result reaches ``out`` through the one atomic write.
    import shutil
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="armybuilder-pdf-"))
    try:
        part = scratch / out.name
        if progress is not None and _accepts(fn, subject, part, progress=report, **extra):
            result = fn(subject, part, progress=report, **extra)
        elif _accepts(fn, subject, part, **extra):
            result = fn(subject, part, **extra)
        else:
            raise ExportUnavailableError(
                "PDF export is not installed in this version (the renderer's interface differs)"
            )
        data = getattr(result, "pdf", None)
        if not isinstance(data, bytes):
            data = part.read_bytes() if part.is_file() else None
        if data is None:
            raise ExportUnavailableError("the PDF renderer wrote nothing")
        atomic_write(out, data)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if progress is not None:
        progress(1.0)
    return out


def roster_file_suffixes(session: EditSession) -> list[str]:
    """The suffixes of the other programs' roster files the roster being edited can be
    written as (``.ros``, ``.rosz`` for a roster of BattleScribe data; none for our own
    catalogs), in the order their writers were registered."""
    from .. import formats

    return list(formats.writers_for(session.system))


def export_roster_file(session: EditSession, out: Path, library: Any) -> Path:
    """Write the roster being edited, as it is now, as another program's roster file at
    ``out`` (its suffix picks the format: ``.ros``, ``.rosz``), atomically; never over the
    roster's own file. An illegal roster is written too, as ``export --to`` writes it.

    Raises :class:`ExportUnavailableError` when no writer knows the suffix for this game
    system (the message lists those that do), :class:`~armybuilder.errors.ArmybuilderError`
    from the writer (an entry it cannot write), and ``OSError`` when the file cannot be
    written (the old file left as it was). In two steps for a caller with a worker thread:
    :func:`start_roster_file_export`, then :meth:`RosterFileExport.run`."""
    return start_roster_file_export(session, out).run(library)


class RosterFileExport:
    """An export of :func:`start_roster_file_export`: the roster's text as it was then, and
    the writer; :meth:`run` writes the file, on any thread (the first one of a session reads
    the data's own model: a second or two for a large game system)."""

    def __init__(self, text: str, file: str, out: Path, writer: Any) -> None:
        self.text = text
        self.file = file
        self.out = out
        self.writer = writer

    def run(self, library: Any) -> Path:
        from ..fileio import atomic_write
        from ..rosters import Roster

        roster = Roster.from_text(self.text, self.file, round_trip=False)
        data = self.writer(roster, library, self.out.name)
        atomic_write(self.out, data)
        return self.out


def start_roster_file_export(session: EditSession, out: Path) -> RosterFileExport:
    """Check ``out`` and take the roster as it is now (on the session's thread: later edits
    do not reach the file); see :func:`export_roster_file`."""
    from .. import formats
    from ..fileio import check_output

    writers = formats.writers_for(session.system)
    found = writers.get(out.suffix.lower())
    if found is None:
        name = getattr(session.system, "name", "this game system")
        if not writers:
            raise ExportUnavailableError(f"no other program's roster file is known for {name}")
        raise ExportUnavailableError(
            f"{out.name}: a roster file of {name} for another program ends in "
            + " or ".join(writers)
        )
    check_output(out, [session.path] if session.path is not None else [])
    file = str(session.path) if session.path is not None else f"{slug(session.name)}.yaml"
    return RosterFileExport(session.roster.dumps(), file, out, found[1])


def default_export_path(session: EditSession, suffix: str, folder: Path | None = None) -> Path:
    """Where a file goes by default: beside the roster, or in ``folder`` (default: the
    current one) for a roster never saved, named after the roster."""
    stem = slug(session.name) or "roster"
    if session.path is not None:
        return session.path.with_suffix(suffix)
    return (folder or Path()) / f"{stem}{suffix}"


def slug(text: str) -> str:
    """A file-name friendly version of a roster name."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
