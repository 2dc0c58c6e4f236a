"""Printing and exports: PDF rosters with record sheets, and text / Markdown / JSON / HTML.

The entry points:

* :func:`render_pdf`: the printable PDF (roster pages, then record sheets), A4 or US Letter;
* :func:`export`: ``text`` (the compact style pasted into forums and chats), ``markdown``,
  ``json`` (the shape of ``armybuilder show --format json``) or ``html`` (the standalone
  HTML the PDF is made from);
* :func:`load`: read, check and evaluate a roster file, as the command line does.

Both take an :class:`~armybuilder.rules.engine.Evaluation` (what the validator computed), so
the builder can print the roster it holds in memory. Only :func:`render_pdf` imports
WeasyPrint, and only when called.

Templates are Jinja2 files (``templates/`` in the source tree, shipped in the wheel); a user
overrides any of them by putting a file of the same name in ``<user data>/templates/`` (see
``docs/printing.md``).
"""

from __future__ import annotations

import datetime as _dt
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

if TYPE_CHECKING:
    from ..catalog import GameSystem, Library
    from ..rosters import Roster
    from ..rules.engine import Evaluation
    from .context import RosterView, UnitView, build_view
    from .html import (
        PAPER_POINTS,
        PAPERS,
        SPLIT_MARK,
        render_html,
        template_dirs,
        user_template_dir,
    )

#: Names imported on first use, so that importing this package (the CLI does, to register
#: its commands) loads neither Jinja2 nor the renderer.
_LAZY = {
    "RosterView": "context",
    "UnitView": "context",
    "build_view": "context",
    "PAPERS": "html",
    "PAPER_POINTS": "html",
    "SPLIT_MARK": "html",
    "render_html": "html",
    "template_dirs": "html",
    "user_template_dir": "html",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(f"{__name__}.{module}"), name)


__all__ = [
    "EXPORT_FORMATS",
    "PAPERS",
    "PAPER_POINTS",
    "SPLIT_MARK",
    "PdfResult",
    "RosterView",
    "TooLargeToPrintError",
    "UnitView",
    "build_view",
    "export",
    "load",
    "render_html",
    "render_pdf",
    "template_dirs",
    "user_template_dir",
]

EXPORT_FORMATS = ("text", "markdown", "json", "html")

#: What one PDF may hold. The largest roster among the benchmarks (a 75-platoon regiment,
#: 2762 selections, about 2400 models and units) prints well inside these; a roster beyond
#: them is refused before any layout starts, with a message, instead of running for minutes
#: and gigabytes.
MAX_SELECTIONS = 10_000
#: Copies of models and units (counts multiplied out): each gets a line, card or box row.
MAX_PRINTED = 5_000
#: Characters of HTML (about 250 pages of record sheets).
MAX_HTML_CHARS = 8_000_000


class TooLargeToPrintError(Exception):
    """A roster beyond :data:`MAX_SELECTIONS`, :data:`MAX_PRINTED` or
    :data:`MAX_HTML_CHARS`; the message says which and by how much."""


def check_size(view: RosterView) -> None:
    """Raise :class:`TooLargeToPrintError` if a roster is too large to print."""
    printed = 0
    for selections, u in enumerate(view.all_units(), 1):
        if u.type in ("unit", "model"):
            printed += u.multiplicity()
        if selections > MAX_SELECTIONS:
            raise TooLargeToPrintError(f"too large to print: more than {MAX_SELECTIONS} selections")
        if printed > MAX_PRINTED:
            raise TooLargeToPrintError(
                f"too large to print: more than {MAX_PRINTED} models and units once counts"
                f" are multiplied out (at {u.label!r}); print it in parts, or use"
                " `armybuilder export --to text`"
            )


def load(file: str | Path, library: Library | None = None) -> tuple[Roster, GameSystem, Evaluation]:
    """Read a roster file and evaluate it against its game system (as ``show`` does).

    Raises :class:`~armybuilder.errors.InputError` (with file, line and column) for a file
    that cannot be read, and :class:`~armybuilder.errors.ArmybuilderError` for an unknown
    system or faction.
    """
    from ..catalog import Library as _Library
    from ..catalog import default_roots
    from ..report import load_evaluated

    lib = library if library is not None else _Library(default_roots()).scan()
    return load_evaluated(lib, str(file))


@dataclass
class PdfResult:
    """A rendered PDF: its bytes, page count, outline ``(page, level, label)``, the URLs the
    fetcher refused, the processes used (always 1), the seconds spent, the HTML it was made
    from and, when :func:`render_pdf` was asked to keep it, WeasyPrint's laid out document."""

    pdf: bytes
    pages: int
    outline: list[tuple[int, int, str]]
    refused: list[str] = field(default_factory=list)
    jobs: int = 1
    seconds: float = 0.0
    html: str = ""
    document: Any = None
    missing_glyphs: list[str] = field(default_factory=list)


def _resolve_dirs(template_dir: Path | str | None) -> list[Path]:
    from .html import template_dirs

    return template_dirs([Path(template_dir)] if template_dir is not None else [])


def render_pdf(
    ev: Evaluation,
    output: str | Path | BinaryIO | None = None,
    *,
    paper: str = "a4",
    sheets: bool = True,
    date: _dt.date | str | None = None,
    jobs: int | None = None,
    template_dir: Path | str | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep_layout: bool = False,
    pieces: bool | None = None,
) -> PdfResult:
    """Render an evaluated roster as a PDF (and write it to ``output`` if given).

    ``paper`` is ``a4`` or ``letter``; ``sheets=False`` prints the roster pages only.
    ``jobs`` is accepted for callers of earlier versions and ignored: a document is always
    laid out in one process, so the pages never depend on the number of processes or on how
    busy the machine is. ``template_dir`` is looked in before the user's and the bundled
    templates. ``progress(done, total)`` is called as the work advances. ``keep_layout``
    keeps WeasyPrint's laid out document in :attr:`PdfResult.document` (for tests).
    ``pieces``: lay a long document out in pieces to bound memory (``None``: when it is
    longer than :data:`~armybuilder.render.pdf.PIECE_CHARS`; ``True``: whenever the
    templates allow a cut; ``False``: never); the pages are the same either way.
    """
    import time

    from ..paths import bundled_dir
    from . import pdf as pdfmod
    from .context import build_view
    from .html import (
        PAPERS,
        SPLIT_MARK,
        environment,
        paper_css,
        render_html,
        stylesheet_names,
        template_source,
    )

    del jobs  # one process, always (see above)
    start = time.perf_counter()
    if paper not in PAPERS:
        raise ValueError(f"unknown paper {paper!r} (a4 or letter)")
    dirs = _resolve_dirs(template_dir)
    view = build_view(ev, date=date)
    check_size(view)
    html = render_html(view, paper=paper, sheets=sheets, inline_css=False, dirs=dirs)
    if len(html) > MAX_HTML_CHARS:
        raise TooLargeToPrintError(
            f"too large to print: its pages would take {len(html) // 1_000_000} MB of HTML"
            f" (at most {MAX_HTML_CHARS // 1_000_000} MB, about 250 pages)"
        )
    from .fonts import missing_glyphs

    missing = missing_glyphs(html)
    if missing:
        from .fonts import describe_missing

        logging.getLogger("armybuilder.render").warning("%s", describe_missing(missing))
    env = environment(dirs)
    base_url = bundled_dir("templates").resolve().as_uri() + "/"
    stylesheets = []
    for name in stylesheet_names(env, view.system_id):
        text, filename = template_source(env, name)
        folder = Path(filename).resolve().parent if filename else bundled_dir("templates")
        stylesheets.append(pdfmod.Stylesheet(text, folder.as_uri() + "/"))
    cuts = html.count(SPLIT_MARK) - 1
    if pieces is None:
        pieces = len(html) > pdfmod.PIECE_CHARS
    if pieces and cuts >= 1 and not keep_layout:
        part = pdfmod.render_in_pieces(
            html,
            SPLIT_MARK,
            stylesheets,
            base_url,
            dirs,
            page_css=paper_css(paper),
            piece_chars=pdfmod.PIECE_CHARS if len(html) > pdfmod.PIECE_CHARS else len(html) // 3,
            progress=progress,
        )
    else:
        part = pdfmod.render_document(
            html, stylesheets, base_url, dirs, progress=progress, keep_layout=keep_layout
        )
    result = PdfResult(
        part.pdf,
        part.pages,
        part.bookmarks,
        part.refused,
        1,
        time.perf_counter() - start,
        html,
        part.document,
        missing,
    )
    if output is not None:
        _write(output, result.pdf)
    return result


def _write(output: str | Path | BinaryIO, data: bytes) -> None:
    if isinstance(output, str | Path):
        target = Path(output)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
    else:
        output.write(data)


def export(
    ev: Evaluation,
    to: str,
    *,
    file: str | None = None,
    paper: str = "a4",
    sheets: bool = True,
    date: _dt.date | str | None = None,
    template_dir: Path | str | None = None,
) -> str:
    """An evaluated roster as ``text``, ``markdown``, ``json`` or ``html``.

    ``file`` is the roster's file name as reported in JSON (default: as it was read).
    ``paper``, ``sheets`` and ``template_dir`` apply to HTML only.
    """
    from .context import build_view

    if to == "text":
        from .text import export_text

        return export_text(build_view(ev, file=file, date=date))
    if to == "markdown":
        from .markdown import export_markdown

        return export_markdown(build_view(ev, file=file, date=date))
    if to == "json":
        from .jsondata import export_json

        return export_json(ev, file=file)
    if to == "html":
        from .html import export_html

        return export_html(
            ev,
            file=file,
            paper=paper,
            sheets=sheets,
            date=date,
            dirs=_resolve_dirs(template_dir),
        )
    raise ValueError(f"unknown export format {to!r} ({', '.join(EXPORT_FORMATS)})")
