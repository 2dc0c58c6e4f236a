"""PDF output: the roster's HTML laid out by WeasyPrint.

WeasyPrint is imported by this module only, and this module only when a PDF is made
(``armybuilder validate`` never loads it). Each stylesheet is parsed once per process and the
:class:`weasyprint.CSS` object reused. Every document is fetched through
:class:`TemplateFetcher`, which loads files of the template folders and ``data:`` URIs only.

Every document is laid out in one process. A long one (more than :data:`PIECE_CHARS` of HTML,
several dozen pages) is laid out in pieces, one after the other, so that WeasyPrint holds the
layout of one piece at a time rather than of the whole document: the HTML is cut where the
templates allow it (:data:`~armybuilder.render.html.SPLIT_MARK`, always at a forced page
break), each piece is written without page numbers, the pieces are joined with pypdf under one
outline, and "page X of Y" is overlaid from a document of the same number of pages that shows
nothing else. The pieces print the same pixels as the whole (tests/render/test_raster.py).
(Earlier versions laid the pieces out in parallel processes; the overlay painted a white page
over the content, and a regiment prints in a few seconds in one process.) While WeasyPrint
works the garbage collector runs less often (:func:`fewer_collections`), a block the
templates print the same several times is laid out once (:mod:`.reuse`), the fonts stay set up
from one document to the next (:func:`font_config`), a float's shrink-to-fit width skips
work that cannot change it, and fonts are subset without reading the tables dropped
(:mod:`.wpatch`).
"""

from __future__ import annotations

import gc
import hashlib
import io
import logging
import mimetypes
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import weasyprint
import weasyprint.text.fonts
from weasyprint.urls import URLFetcher, URLFetcherResponse

from . import wpatch
from .reuse import render_reusing
from .safety import resolve_asset

wpatch.install()

log = logging.getLogger("armybuilder.render")

#: A document with more HTML than this (characters; about 40 pages of record sheets) is laid
#: out in pieces of about this size.
PIECE_CHARS = 250_000
#: Turns off the page number of the pieces (the numbers are overlaid).
_NO_PAGE_NUMBER = "@page { @bottom-right { content: none; } }"
#: A page showing only its number (no background, nothing else), overlaid on the pieces.
_ONLY_PAGE_NUMBER = (
    "@page { @top-left { content: none; } @top-right { content: none; }"
    " @bottom-left { content: none; } }"
)

#: (page index in its part, outline level, label)
Bookmark = tuple[int, int, str]


class TemplateFetcher(URLFetcher):  # type: ignore[misc]
    """Loads what a document refers to, only from the template folders.

    ``file:`` URLs inside one of ``roots`` (after resolving links and ``..``; the user's
    folder first, then the bundled one) and ``data:`` URIs are served; anything else (other
    files, ``http:``...) is refused, logged, and kept in :attr:`refused`.
    """

    def __init__(self, roots: Sequence[Path]) -> None:
        super().__init__(allowed_protocols=("file", "data"), allow_redirects=False)
        self.roots = [Path(r) for r in roots]
        self.refused: list[str] = []
        self.served: list[str] = []

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        if url[:5].lower() == "data:":
            self.served.append(url[:40])
            return super().fetch(url, headers)
        path = resolve_asset(url, self.roots)
        if path is None:
            self.refused.append(url)
            log.warning("refused to load %s: only files of the template folders are used", url)
            raise ValueError(f"armybuilder loads only files of its template folders, not {url}")
        self.served.append(url)
        ctype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(path.as_uri(), path.read_bytes(), {"Content-Type": ctype})


# --------------------------------------------------------------------------- stylesheets


@dataclass(frozen=True)
class Stylesheet:
    """A stylesheet's text and the folder URL its relative ``url()``\\ s resolve against."""

    text: str
    base_url: str


_CSS: dict[tuple[str, str, tuple[str, ...]], Any] = {}


def _css(sheet: Stylesheet, roots: Sequence[Path]) -> Any:
    """The parsed stylesheet, once per process."""
    key = (
        hashlib.sha1(sheet.text.encode("utf-8")).hexdigest(),
        sheet.base_url,
        tuple(str(r) for r in roots),
    )
    css = _CSS.get(key)
    if css is None:
        css = weasyprint.CSS(
            string=sheet.text, base_url=sheet.base_url, url_fetcher=TemplateFetcher(roots)
        )
        _CSS[key] = css
    return css


# --------------------------------------------------------------------------- fonts

_fonts = threading.local()

#: Text that may bring a font of its own into a document, ASCII case-insensitively (CSS
#: at-rules and HTML tag names ignore case): an ``@font-face`` rule (or any ``font-face``
#: text at all), a stylesheet pulled in with ``<link>`` or ``@import`` (its text is not seen
#: here), or a CSS escape in an at-keyword (``@\66 ont-face`` is ``@font-face``). CSS
#: comments cannot split an at-keyword, so they need no rule of their own.
_MAY_ADD_FONTS = re.compile(r"font-face|<link|@import|@[\w-]*\\", re.IGNORECASE | re.ASCII)


def _bundled_templates_url() -> str:
    from ..paths import bundled_dir

    return bundled_dir("templates").resolve().as_uri() + "/"


def may_add_fonts(*texts: str, sheets: Sequence[Stylesheet] = ()) -> bool:
    """Whether a document (its HTML and stylesheet ``texts``, its ``sheets``) might add a
    font to the configuration it is laid out with (:data:`_MAY_ADD_FONTS`); a stylesheet
    that is not one of the bundled templates' counts as one that might, whatever it says."""
    if any(_MAY_ADD_FONTS.search(t) for t in (*texts, *(s.text for s in sheets))):
        return True
    bundled = _bundled_templates_url()
    return any(not s.base_url.startswith(bundled) for s in sheets)


def font_config(*texts: str, sheets: Sequence[Stylesheet] = ()) -> Any:
    """The :class:`weasyprint.text.fonts.FontConfiguration` a document is laid out with: one
    per thread, kept for the process, so that Pango's fonts, font sets and glyph caches stay
    loaded from one document (and one layout of a document) to the next, instead of being
    set up again for each (about a tenth of the regiment's printing time). A document that
    might bring fonts of its own (:func:`may_add_fonts`: an ``@font-face`` rule in any
    spelling, a ``<link>``\\ ed or ``@import``\\ ed stylesheet, a stylesheet of the
    user's templates) gets a fresh one: the fonts it adds must not stay with the thread and
    print in the documents after it."""
    if may_add_fonts(*texts, sheets=sheets):
        return weasyprint.text.fonts.FontConfiguration()
    config = getattr(_fonts, "config", None)
    if config is None:
        config = _fonts.config = weasyprint.text.fonts.FontConfiguration()
    return config


# --------------------------------------------------------------------------- garbage collection

#: While WeasyPrint works, the collector's youngest generation runs after this many new
#: objects instead of Python's default 700: a layout makes millions of short-lived objects
#: and the default sent the collector over the whole heap (the catalogs, the roster) dozens of
#: times a document, about a fifth of the CPU time of a regiment's sheets.
GC_THRESHOLD = 10_000

_gc_lock = threading.Lock()
_gc_depth = 0
_gc_saved: tuple[int, int, int] = (700, 10, 10)
_gc_froze = False


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Collect garbage less often while a document is laid out and written.

    What exists before is collected once, then frozen (:func:`gc.freeze`: the collector
    does not walk it again until the end; left alone when something else froze objects
    already, as the builder does) and the youngest generation's threshold is raised to
    :data:`GC_THRESHOLD`; both are put back when the outermost use ends, so the process
    collects as before afterwards. Cycles made meanwhile are still collected, only less
    often, which keeps the memory of a long document bounded, and what one document leaves
    is collected before the next is frozen, which keeps a process that prints again and
    again from growing (benchmarks/README.md)."""
    global _gc_depth, _gc_saved, _gc_froze
    with _gc_lock:
        if _gc_depth == 0:
            _gc_saved = gc.get_threshold()
            # Only a heap nobody else froze: unfreezing at the end must not thaw theirs.
            _gc_froze = gc.get_freeze_count() == 0
            if _gc_froze:
                # Garbage first: frozen, the cycles an earlier document left would be
                # thawed into the oldest generation, which a process that prints again
                # and again seldom collects; they piled up, ~17 MB per regiment printed.
                gc.collect()
                gc.freeze()
            gc.set_threshold(max(GC_THRESHOLD, _gc_saved[0]), *_gc_saved[1:])
        _gc_depth += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_depth -= 1
            if _gc_depth == 0:
                gc.set_threshold(*_gc_saved)
                if _gc_froze:
                    gc.unfreeze()


# --------------------------------------------------------------------------- one document


def _write(doc: Any) -> bytes:
    pdf: bytes = doc.write_pdf()
    return pdf


@dataclass
class Part:
    """One rendered document: the PDF, its page count and outline ``(page, level, label)``,
    the URLs the fetcher refused, the seconds spent, and (when asked for) WeasyPrint's laid
    out :class:`weasyprint.document.Document`, whose page boxes tests inspect."""

    pdf: bytes
    pages: int
    bookmarks: list[Bookmark]
    refused: list[str] = field(default_factory=list)
    seconds: float = 0.0
    document: Any = None


def render_document(
    html: str,
    sheets: Sequence[Stylesheet],
    base_url: str,
    roots: Sequence[Path],
    *,
    progress: Callable[[int, int], None] | None = None,
    keep_layout: bool = False,
    numbered: bool = True,
) -> Part:
    """Lay out and write one HTML document in this process.

    ``progress(done, 3)`` is called after the stylesheets are ready, after the layout and
    after the PDF is written. ``keep_layout`` keeps the laid out document in the result.
    """
    start = time.perf_counter()
    fetcher = TemplateFetcher(roots)
    stylesheets = [_css(s, roots) for s in sheets]
    if not numbered:
        stylesheets.append(_css(Stylesheet(_NO_PAGE_NUMBER, base_url), roots))
    if progress is not None:
        progress(1, 3)

    fonts = font_config(html, sheets=sheets)

    def layout(text: str) -> Any:
        return weasyprint.HTML(string=text, base_url=base_url, url_fetcher=fetcher).render(
            stylesheets=stylesheets, font_config=fonts
        )

    with fewer_collections():
        # Blocks printed more than once are laid out once (reuse.py); not when the caller
        # wants the layout itself, which must hold every block.
        reused = None if keep_layout else render_reusing(html, layout, _write)
        if reused is None:
            doc = layout(html)
            pdf = None
        else:
            doc, pdf = reused
        if progress is not None:
            progress(2, 3)
        marks = [
            (i, level, label) for i, p in enumerate(doc.pages) for level, label, *_ in p.bookmarks
        ]
        if pdf is None:
            pdf = doc.write_pdf()
    if progress is not None:
        progress(3, 3)
    return Part(
        pdf,
        len(doc.pages),
        marks,
        fetcher.refused,
        time.perf_counter() - start,
        doc if keep_layout else None,
    )


# --------------------------------------------------------------------------- pieces


def split_html(html: str, mark: str) -> tuple[str, list[str]]:
    """The preamble (head and running elements) and the blocks between split marks."""
    pieces = html.split(mark)
    return pieces[0], pieces[1:]


def group_blocks(blocks: Sequence[str], parts: int) -> list[list[str]]:
    """Cut a sequence of blocks into at most ``parts`` runs of similar size, in order.

    A block goes to the next run when more than half of it would lie past the current run's
    share of the whole (sizes in characters of HTML, a fair proxy for layout work).
    """
    parts = max(1, min(parts, len(blocks)))
    total = sum(len(b) for b in blocks) or 1
    share = total / parts
    out: list[list[str]] = [[]]
    done = 0
    for b in blocks:
        if out[-1] and len(out) < parts and done + len(b) / 2 > share * len(out):
            out.append([])
        out[-1].append(b)
        done += len(b)
    return out


def render_in_pieces(
    html: str,
    mark: str,
    sheets: Sequence[Stylesheet],
    base_url: str,
    roots: Sequence[Path],
    *,
    page_css: str = "",
    piece_chars: int = PIECE_CHARS,
    progress: Callable[[int, int], None] | None = None,
) -> Part:
    """Lay out a document cut at ``mark`` piece by piece (about ``piece_chars`` characters
    of HTML each) and join the pieces (:func:`merge_parts`)."""
    preamble, blocks = split_html(html, mark)
    total = sum(len(b) for b in blocks)
    groups = group_blocks(blocks, max(1, -(-total // max(piece_chars, 1))))
    parts: list[Part] = []
    carried = ""
    # One freeze for all the pieces: what a piece leaves behind stays collectable while the
    # next is laid out (freezing again per piece would keep it until the end).
    with fewer_collections():
        for i, group in enumerate(groups):
            # A piece that starts inside a force's sheets names that force in its running
            # header too (the element that sets it lies in an earlier piece).
            body = "".join(group)
            head = preamble
            if carried and not body.lstrip().startswith('<div class="force-sheets'):
                # Beside the other running elements (what follows them keeps its page breaks).
                head = preamble.replace(
                    '<p class="running-meta">', carried + '<p class="running-meta">', 1
                )
            parts.append(render_document(head + body, sheets, base_url, roots, numbered=False))
            carried = _last_running_force(body) or carried
            if progress is not None:
                progress(i + 1, len(groups) + 1)
        merged = merge_parts(parts, sheets, base_url, roots, title=_title(html), page_css=page_css)
    if progress is not None:
        progress(len(groups) + 1, len(groups) + 1)
    return merged


RUNNING_FORCE = '<p class="running-force">'


def _last_running_force(html: str) -> str:
    """The last element in ``html`` that names a force in the running header, or ``""``."""
    start = html.rfind(RUNNING_FORCE)
    if start < 0:
        return ""
    end = html.find("</p>", start)
    return html[start : end + 4] if end >= 0 else ""


def _title(html: str) -> str:
    start = html.find("<title>")
    end = html.find("</title>", start)
    if start < 0 or end < 0:
        return ""
    import html as html_lib

    return html_lib.unescape(html[start + 7 : end])


def merge_parts(
    parts: Sequence[Part],
    sheets: Sequence[Stylesheet],
    base_url: str,
    roots: Sequence[Path],
    title: str = "",
    page_css: str = "",
) -> Part:
    """One PDF from parts rendered without page numbers: pages in order, one outline, and
    "page X of Y" overlaid from a blank numbered document of the same length.

    ``sheets`` are the stylesheets that set up the page (``base.css``): the blank document
    uses them, with ``page_css`` (the paper size), so its numbers sit where a single
    document's would."""
    from pypdf import PdfReader, PdfWriter

    total = sum(p.pages for p in parts)
    writer = PdfWriter()
    for p in parts:
        writer.append(PdfReader(io.BytesIO(p.pdf)), import_outline=False)
    # One outline, levels as the templates set them.
    stack: list[tuple[int, Any]] = []
    offset = 0
    marks: list[Bookmark] = []
    for p in parts:
        for index, level, label in p.bookmarks:
            while stack and stack[-1][0] >= level:
                stack.pop()
            parent = stack[-1][1] if stack else None
            item = writer.add_outline_item(title=label, page_number=offset + index, parent=parent)
            stack.append((level, item))
            marks.append((offset + index, level, label))
        offset += p.pages
    # Page numbers.
    blank = (
        f"<!DOCTYPE html><html><head><style>{page_css}</style></head><body>"
        + '<div style="break-after: page"></div>' * (total - 1)
        + "<div></div></body></html>"
    )
    with fewer_collections():
        numbers = weasyprint.HTML(string=blank, base_url=base_url).render(
            stylesheets=[_css(s, roots) for s in sheets]
            + [_css(Stylesheet(_ONLY_PAGE_NUMBER, base_url), roots)],
            font_config=font_config(blank, sheets=sheets),
        )
        stamp = PdfReader(io.BytesIO(numbers.write_pdf()))
    for page, over in zip(writer.pages, stamp.pages, strict=False):
        page.merge_page(over)
    if title:
        writer.add_metadata({"/Title": title, "/Creator": "armybuilder"})
    out = io.BytesIO()
    writer.write(out)
    refused = [u for p in parts for u in p.refused]
    return Part(out.getvalue(), total, marks, refused, sum(p.seconds for p in parts))
