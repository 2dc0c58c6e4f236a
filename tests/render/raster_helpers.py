"""What a printed page looks like: PDFs rasterised with pypdfium2, ink measured where the
content belongs, and WeasyPrint's laid out text boxes checked against the page's content area.

Page geometry (base.css): margins of 15 mm at the top and bottom and 12 mm at the sides; the
running header and footer live in those margins. The *body* of a page is its content area.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from render_helpers import EXAMPLES

MM = 72 / 25.4  # PDF points per millimetre
#: base.css page margins (top, right, bottom, left), millimetres.
MARGINS_MM = (15.0, 12.0, 15.0, 12.0)
#: Resolution pages are rasterised at: low, enough to see text as ink.
DPI = 36
#: A pixel darker than this (0-255) is ink.
INK = 160


def rasterise(pdf: bytes, dpi: int = DPI) -> list[Any]:
    """Every page of a PDF as a greyscale PIL image."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L") for page in doc]
    finally:
        doc.close()


def body_box(image: Any, dpi: int = DPI) -> tuple[int, int, int, int]:
    """The content area of a page image in pixels (left, top, right, bottom), 1 mm inside
    the margins so that a header or footer touching the margin's edge is not counted."""
    px = dpi / 25.4
    top, right, bottom, left = MARGINS_MM
    w, h = image.size
    return (
        round((left + 1) * px),
        round((top + 1) * px),
        round(w - (right + 1) * px),
        round(h - (bottom + 1) * px),
    )


def ink(image: Any, box: tuple[int, int, int, int] | None = None) -> int:
    """How many pixels of ``image`` (inside ``box``) are ink."""
    region = image.crop(box) if box is not None else image
    histogram = region.histogram()
    return sum(histogram[:INK])


@dataclass(frozen=True)
class StrayText:
    """A text box laid out (partly) outside its page's content area."""

    page: int
    text: str
    box: tuple[float, float, float, float]
    area: tuple[float, float, float, float]


def stray_text(document: Any, tolerance: float = 0.5) -> list[StrayText]:
    """Visible text boxes of WeasyPrint's laid out ``document`` that lie outside the content
    area of their page (header and footer margin boxes are not in the content)."""
    from weasyprint.formatting_structure import boxes

    out: list[StrayText] = []
    for number, page in enumerate(document.pages):
        page_box = page._page_box
        x0, y0 = page_box.content_box_x(), page_box.content_box_y()
        x1, y1 = x0 + page_box.width, y0 + page_box.height
        for child in page_box.children:
            if isinstance(child, boxes.MarginBox):
                continue
            for box, clip in _descendants(child):
                if not isinstance(box, boxes.TextBox) or not box.text.strip():
                    continue
                if box.style["visibility"] != "visible":
                    continue
                bx0, by0, bx1, by1 = _visible_rect(box, clip)
                if bx1 <= bx0 or by1 <= by0:  # clipped away entirely
                    continue
                if (
                    bx0 < x0 - tolerance
                    or by0 < y0 - tolerance
                    or bx1 > x1 + tolerance
                    or by1 > y1 + tolerance
                ):
                    out.append(
                        StrayText(number, box.text[:60], (bx0, by0, bx1, by1), (x0, y0, x1, y1))
                    )
    return out


Rect = tuple[float, float, float, float]
_NO_CLIP: Rect = (float("-inf"), float("-inf"), float("inf"), float("inf"))


def _descendants(box: Any, clip: Rect = _NO_CLIP) -> Iterator[tuple[Any, Rect]]:
    """Every box under ``box`` with the rectangle it is clipped to (by ancestors with
    ``overflow: hidden``): what is clipped away is not printed."""
    yield box, clip
    if box.style["overflow"] != "visible" and hasattr(box, "padding_box_x"):
        x, y = box.padding_box_x(), box.padding_box_y()
        w, h = box.padding_width(), box.padding_height()
        clip = (max(clip[0], x), max(clip[1], y), min(clip[2], x + w), min(clip[3], y + h))
    for child in getattr(box, "children", ()):
        yield from _descendants(child, clip)


def _visible_rect(box: Any, clip: Rect) -> Rect:
    x0, y0 = box.position_x, box.position_y
    x1, y1 = x0 + box.width, y0 + box.height
    return (max(x0, clip[0]), max(y0, clip[1]), min(x1, clip[2]), min(y1, clip[3]))


def example_rosters() -> list[Path]:
    """Every example roster shipped with armybuilder."""
    return sorted(EXAMPLES.glob("*/*.yaml"))


def many_regiments(n: int = 5) -> str:
    """A generated large roster: ``n`` copies of the example Earther regiment (Starship
    Marine), each under its own name, as one roster."""
    text = (EXAMPLES / "starship-marine" / "earther-regiment.yaml").read_text(encoding="utf-8")
    head, body = text.split("\nselections:\n", 1)
    head = re.sub(r"(?m)^name: .*$", f"name: {n} Earther regiments", head)
    copies = [
        body.replace("name: 291st Marine Regiment", f"name: Regiment {i + 1}", 1) for i in range(n)
    ]
    # the campaign rules option (Starship Marine part 4) is selected once per roster
    copies[1:] = [re.sub(r"(?m)^  - entry: campaign-rules.*\n", "", c) for c in copies[1:]]
    return head + "\nselections:\n" + "".join(copies)


def stray_margin_text(document: Any, tolerance: float = 0.5) -> list[StrayText]:
    """Text boxes of the running header and footer (page margin boxes) that leave their
    margin: past the page's sides, or from the top margin down into (or above) the page."""
    from weasyprint.formatting_structure import boxes

    out: list[StrayText] = []
    for number, page in enumerate(document.pages):
        page_box = page._page_box
        top = page_box.content_box_y()
        bottom = top + page_box.height
        width, height = page_box.margin_width(), page_box.margin_height()
        for child in page_box.children:
            if not isinstance(child, boxes.MarginBox):
                continue
            band = (0.0, top) if child.at_keyword.startswith("@top") else (bottom, height)
            area = (0.0, band[0], width, band[1])
            for box, clip in _descendants(child):
                if not isinstance(box, boxes.TextBox) or not box.text.strip():
                    continue
                bx0, by0, bx1, by1 = _visible_rect(box, clip)
                if bx1 <= bx0 or by1 <= by0:  # clipped away entirely
                    continue
                if (
                    bx0 < -tolerance
                    or bx1 > width + tolerance
                    or by0 < band[0] - tolerance
                    or by1 > band[1] + tolerance
                ):
                    out.append(StrayText(number, box.text[:60], (bx0, by0, bx1, by1), area))
    return out


def pages_without_content(document: Any) -> list[int]:
    """Pages (1-based) of WeasyPrint's laid out ``document`` whose body prints nothing but
    headings and a sheet's legend (``class="legend"``): a title whose sheet went to the next
    page, or a key that slid off the sheet it explains."""
    from weasyprint.formatting_structure import boxes

    headings = {"h1", "h2", "h3", "h4", "h5", "h6"}

    def texts(box: Any, framing: bool) -> Iterator[bool]:
        element = getattr(box, "element", None)
        if element is not None:
            framing = (
                framing or element.tag in headings or "legend" in element.get("class", "").split()
            )
        if isinstance(box, boxes.TextBox) and box.text.strip():
            yield framing
        for child in getattr(box, "children", ()):
            yield from texts(child, framing)

    out = []
    for number, page in enumerate(document.pages, start=1):
        found = [
            flag
            for child in page._page_box.children
            if not isinstance(child, boxes.MarginBox)
            for flag in texts(child, False)
        ]
        if found and all(found):
            out.append(number)
    return out
