"""PDF output: the roster's HTML laid out by WeasyPrint.

WeasyPrint is imported by this module only, and this module only when a PDF is made
(``armybuilder validate`` never loads it). Each stylesheet is parsed once per process and the
:class:`weasyprint.CSS` object reused. Every document is fetched through
:class:`TemplateFetcher`, which loads files of the template folders and ``data:`` URIs only.

Every document is laid out in one process, in one piece. (Earlier versions cut long documents
into parts laid out by several processes and merged them; the merged pages depended on the
number of processes and could come out blank, and one process now prints a regiment in about
two seconds.)
"""

from __future__ import annotations

import hashlib
import logging
import mimetypes
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import weasyprint
from weasyprint.urls import URLFetcher, URLFetcherResponse

from .safety import resolve_asset

log = logging.getLogger("armybuilder.render")

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


# --------------------------------------------------------------------------- one document


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
) -> Part:
    """Lay out and write one HTML document in this process.

    ``progress(done, 3)`` is called after the stylesheets are ready, after the layout and
    after the PDF is written. ``keep_layout`` keeps the laid out document in the result.
    """
    start = time.perf_counter()
    fetcher = TemplateFetcher(roots)
    stylesheets = [_css(s, roots) for s in sheets]
    if progress is not None:
        progress(1, 3)
    doc = weasyprint.HTML(string=html, base_url=base_url, url_fetcher=fetcher).render(
        stylesheets=stylesheets
    )
    if progress is not None:
        progress(2, 3)
    marks = [(i, level, label) for i, p in enumerate(doc.pages) for level, label, *_ in p.bookmarks]
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
