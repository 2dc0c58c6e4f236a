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
    """A rendered PDF, read back."""

    result: PdfResult
    reader: Any  # pypdf.PdfReader

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


def count_boxes(html_or_text: str) -> tuple[int, int]:
    """Tick boxes in a piece of HTML or PDF text: (all, already ticked): ``<span
    class="box">`` elements (``box x`` when ticked), and box characters (☐ empty, ☒ ticked)
    should a template print them as text."""
    import re

    elements = len(re.findall(r'class="box[ "]', html_or_text))
    ticked_elements = html_or_text.count('class="box x')
    empty, ticked = html_or_text.count("☐"), html_or_text.count("☒")
    return empty + ticked + elements, ticked + ticked_elements
