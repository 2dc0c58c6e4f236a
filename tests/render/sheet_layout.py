"""What a record sheet looks like on paper, for the per-system sheet tests.

Two views of a rendered sheet:

- :func:`laid_out` lays the document out with WeasyPrint and gives, per page, each card (an
  element of class ``card``) with the rectangles of the text drawn in it; :func:`layout_faults`
  names every piece of text that sits outside its card or over another piece of text.
- :func:`raster` renders the PDF to images (pypdfium2) so a test can look for ink.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any

from render_helpers import DATE, Rendered

from armybuilder.catalog import Library
from armybuilder.render import load, render_pdf
from armybuilder.render.context import RosterView, build_view
from armybuilder.render.html import render_html

#: Slack for rounding, in CSS pixels (1/96 inch).
SLACK = 0.75


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float

    def inside(self, other: Rect) -> bool:
        return (
            self.x >= other.x - SLACK
            and self.y >= other.y - SLACK
            and self.x + self.w <= other.x + other.w + SLACK
            and self.y + self.h <= other.y + other.h + SLACK
        )

    def overlaps(self, other: Rect) -> bool:
        dx = min(self.x + self.w, other.x + other.w) - max(self.x, other.x)
        dy = min(self.y + self.h, other.y + other.h) - max(self.y, other.y)
        return dx > SLACK and dy > SLACK


@dataclass
class Card:
    page: int
    classes: str
    rect: Rect
    texts: list[tuple[str, Rect]] = field(default_factory=list)
    title: str = ""
    element: Any = None  # the HTML element (a card split over pages has a part per page)

    @property
    def text(self) -> str:
        """The card's text in reading order, runs of white space as one space."""
        return " ".join(" ".join(t for t, _ in self.texts).split())


@dataclass
class Layout:
    pages: list[Rect]  # the content area of each page
    cards: list[Card]
    loose: list[tuple[int, str, Rect]]  # text outside any card
    headers: list[str] = field(default_factory=list)  # the running header (top right) per page


def _walk(box: Any) -> Iterator[Any]:
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _walk(child)


def _classes(box: Any) -> str:
    el = getattr(box, "element", None)
    if el is None or getattr(box, "element_tag", "") == "":
        return ""
    return str(el.get("class") or "")


def _border_rect(box: Any) -> Rect:
    return Rect(box.border_box_x(), box.border_box_y(), box.border_width(), box.border_height())


def laid_out(html: str) -> Layout:
    """Lay ``html`` out (stylesheets inline) and collect cards and their text."""
    import weasyprint

    return layout_of(weasyprint.HTML(string=html).render())


def layout_of(doc: Any) -> Layout:
    """The cards and their text of WeasyPrint's laid out document ``doc``."""
    from weasyprint.formatting_structure import boxes

    pages: list[Rect] = []
    cards: list[Card] = []
    loose: list[tuple[int, str, Rect]] = []
    headers: list[str] = []
    for n, page in enumerate(doc.pages):
        pbox = page._page_box
        pages.append(Rect(pbox.content_box_x(), pbox.content_box_y(), pbox.width, pbox.height))
        html_box = pbox.children[0] if pbox.children else pbox
        header = [
            t.text
            for m in pbox.children
            if isinstance(m, boxes.MarginBox) and m.at_keyword == "@top-right"
            for t in _walk(m)
            if isinstance(t, boxes.TextBox)
        ]
        headers.append(" ".join(header))

        def visit(box: Any, card: Card | None, n: int = n) -> None:
            cls = _classes(box)
            if (
                box.element_tag
                and re.search(r"(^|\s)card(\s|$)", cls)
                and not isinstance(box, boxes.InlineBox)
            ):
                card = Card(n, cls, _border_rect(box), element=box.element)
                cards.append(card)
            if isinstance(box, boxes.TextBox) and box.text.strip():
                r = Rect(box.position_x, box.position_y, box.width, box.height)
                if card is None:
                    loose.append((n, box.text, r))
                else:
                    card.texts.append((box.text, r))
                    if not card.title and box.element_tag == "h3":
                        card.title = box.text
            for child in getattr(box, "children", ()) or ():
                visit(child, card, n)

        visit(html_box, None)
    return Layout(pages, cards, loose, headers)


def layout_faults(layout: Layout) -> list[str]:
    """Text outside its card, text over other text in a card, cards or text off the page."""
    faults: list[str] = []
    for card in layout.cards:
        page = layout.pages[card.page]
        name = card.title or card.text[:40]
        if not card.rect.inside(page):
            faults.append(f"page {card.page + 1}: card {name!r} runs off the page")
        for text, r in card.texts:
            if not r.inside(card.rect):
                faults.append(f"page {card.page + 1}: {text!r} sticks out of card {name!r}")
        texts = card.texts
        for i, (a, ra) in enumerate(texts):
            for b, rb in texts[i + 1 :]:
                if ra.overlaps(rb):
                    faults.append(f"page {card.page + 1}: {a!r} prints over {b!r} in {name!r}")
    for n, text, r in layout.loose:
        if not r.inside(layout.pages[n]):
            faults.append(f"page {n + 1}: {text!r} runs off the page")
    return faults


def view_of(path: Path, library: Library) -> RosterView:
    return build_view(load(path, library)[2], date=DATE)


def sheet_html(path: Path, library: Library, paper: str = "a4") -> str:
    return render_html(view_of(path, library), paper=paper, inline_css=True)


def pdf_text_pages(path: Path, library: Library, paper: str = "a4") -> list[str]:
    """The text of each page of the rendered PDF (pypdf), whitespace folded."""
    doc = printed(path, library, paper)
    return [re.sub(r"\s+", " ", p.extract_text()) for p in doc.reader.pages]


#: Every document printed in this session (this process: each pytest-xdist worker has its
#: own), by roster file (name and content), paper and options.
_PRINTED: dict[tuple[Any, ...], Rendered] = {}
#: Whether each roster file (name and content) is long enough to be laid out in pieces, by
#: paper, date and whether the record sheets are printed.
_LONG: dict[tuple[Any, ...], bool] = {}


def printed(path: Path, library: Library, paper: str = "a4", **options: Any) -> Rendered:
    """``path`` printed as ``armybuilder render`` prints it (dated :data:`DATE` unless
    ``date`` is given), once per
    session for each paper and set of options: the tests that read the same document share
    one layout. ``jobs`` of ``None`` and ``1`` are the same request (one process); a document
    laid out whole also keeps its layout (:attr:`Rendered.layout`, the text boxes outside
    the page in :attr:`Rendered.stray`), and serves as well for ``pieces=False``."""
    from pypdf import PdfReader
    from raster_helpers import pages_without_content, stray_margin_text, stray_text

    from armybuilder.render.html import render_html as html_of
    from armybuilder.render.pdf import PIECE_CHARS

    options = dict(options)
    if options.get("jobs") in (None, 1):
        options.pop("jobs", None)
    options.setdefault("date", DATE)
    options.pop("keep_layout", None)
    data = Path(path).read_bytes()
    evaluated: list[Any] = []

    def evaluation() -> Any:  # the roster evaluated, once, and only for a new document
        if not evaluated:
            evaluated.append(load(path, library)[2])
        return evaluated[0]

    if "pieces" in options and options["pieces"] is None:
        del options["pieces"]
    if "pieces" not in options:
        # laid out whole unless long (render_pdf's own rule): say so, and share the render
        # (the rule's answer is kept too: the HTML costs 0.1-0.2 s a roster)
        asked = (str(path), data, paper, options["date"], options.get("sheets", True))
        if asked not in _LONG:
            html = html_of(
                build_view(evaluation(), date=options["date"]), paper=paper,
                sheets=options.get("sheets", True), inline_css=False,
            )  # fmt: skip
            _LONG[asked] = len(html) > PIECE_CHARS
        options["pieces"] = _LONG[asked]
    key = (
        str(path),
        data,
        paper,
        tuple(sorted(options.items())),
    )
    if key not in _PRINTED:
        ev = evaluation()
        whole = options["pieces"] is False
        result = render_pdf(ev, paper=paper, keep_layout=whole, **options)
        doc = Rendered(result, PdfReader(BytesIO(result.pdf)))
        if whole:
            doc.layout = layout_of(result.document)
            doc.stray = stray_text(result.document)
            doc.stray_margin = stray_margin_text(result.document)
            doc.alone = pages_without_content(result.document)
            result.document = None  # the layout is large; what the tests read is kept
        _PRINTED[key] = doc
    return _PRINTED[key]


def raster(pdf: bytes, scale: float = 60 / 72) -> list[Any]:
    """Each page as a greyscale PIL image (60 dpi by default)."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf)
    return [
        doc[i].render(scale=scale, grayscale=True).to_pil().convert("L") for i in range(len(doc))
    ]


def variant(src: Path, folder: Path, *changes: tuple[str, str]) -> Path:
    """A copy of roster ``src`` in ``folder`` with each ``(old, new)`` text replaced once
    (each ``old`` must be there)."""
    text = src.read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, f"{old!r} not in {src.name}"
        text = text.replace(old, new, 1)
    out = folder / src.name
    out.write_text(text, encoding="utf-8")
    return out


def cards_titled(layout: Layout, title: str) -> list[Card]:
    """The cards whose text starts with ``title``; a card split over pages is given whole
    (its first page, the text of all its parts)."""
    out = []
    for c in layout.cards:
        if c.text.startswith(title):
            parts = [p for p in layout.cards if p.element is c.element]
            whole = Card(c.page, c.classes, c.rect, title=c.title, element=c.element)
            whole.texts = [t for p in parts for t in p.texts]
            out.append(whole)
    return out
