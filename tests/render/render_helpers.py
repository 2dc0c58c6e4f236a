"""Shared by the printing tests: example rosters and a PDF read back with pypdf."""

from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass
from typing import Any

from armybuilder.paths import bundled_dir
from armybuilder.render import PdfResult

EXAMPLES = bundled_dir("examples")
DATE = _dt.date(2026, 1, 31)

#: Four copies of the rules' example rifle platoon, one with campaign state and armour.
IO_COMPANY = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: Rifle company
selections:
""" + "".join(
    f"""\
  - entry: platoon
    name: Platoon {n}
    experience: regular
    selections:
      - entry: foot
      - entry: squad
        count: 4
        selections:
          - entry: trooper
            name: Riflemen
            count: 7
            selections:
              - entry: auto-rifle
              - entry: thrown-grenade
              - entry: kevlar-vest
"""
    for n in range(1, 5)
)


@dataclass
class Rendered:
    """A rendered PDF, read back; for a document laid out whole also its cards and their
    text (``layout``, a :class:`sheet_layout.Layout`), the text boxes laid out outside the
    page's content area or the header and footer's margins (``stray``, ``stray_margin``) and
    the pages holding only headings or a legend (``alone``)."""

    result: PdfResult
    reader: Any  # pypdf.PdfReader
    layout: Any = None
    stray: list[Any] | None = None
    stray_margin: list[Any] | None = None
    alone: list[int] | None = None  # pages holding only headings or a legend
    _images: list[Any] | None = None

    def images(self) -> list[Any]:
        """Every page rasterised (raster_helpers.rasterise, its default resolution), once."""
        if self._images is None:
            from raster_helpers import rasterise

            self._images = rasterise(self.result.pdf)
        return self._images

    @property
    def pages(self) -> int:
        return len(self.reader.pages)

    def text(self, page: int | None = None) -> str:
        """Extracted text of one page (0-based) or of all pages."""
        pages = self.reader.pages if page is None else [self.reader.pages[page]]
        return "\n".join(p.extract_text() for p in pages)

    def outline(self) -> list[tuple[int, str, int]]:
        """The PDF outline, flattened: (depth, title, page index)."""
        out: list[tuple[int, str, int]] = []

        def walk(items: list[Any], depth: int) -> None:
            for item in items:
                if isinstance(item, list):
                    walk(item, depth + 1)
                else:
                    out.append((depth, item.title, self.reader.get_destination_page_number(item)))

        walk(self.reader.outline, 1)
        return out

    def size(self, page: int = 0) -> tuple[int, int]:
        box = self.reader.pages[page].mediabox
        return round(float(box.width)), round(float(box.height))


#: The tick box characters the templates print (macros.html, ``boxes()``): empty, crossed.
BOX_EMPTY, BOX_CROSSED = "\u2610", "\u2612"


def printed_markup(html: str) -> str:
    """What of a piece of HTML can print: the text between the tags. Comments, the head,
    ``<style>`` and ``<script>`` contents and every tag (with its attributes) are dropped;
    character references are decoded. PDF text passes through unchanged."""
    import html as html_lib
    import re

    text = re.sub(r"(?s)<!--.*?-->", "", html)
    text = re.sub(r"(?is)<(head|style|script|title)\b.*?</\1\s*>", "", text)
    text = re.sub(r"(?s)<[^>]*>", "", text)
    return html_lib.unescape(text)


def count_boxes(html_or_text: str) -> tuple[int, int]:
    """Tick boxes printed by a piece of HTML or PDF text: (all, already crossed), counting
    the box characters (☐ empty, ☒ crossed) of its printed text (:func:`printed_markup`)."""
    text = printed_markup(html_or_text)
    empty, crossed = text.count(BOX_EMPTY), text.count(BOX_CROSSED)
    return empty + crossed, crossed
