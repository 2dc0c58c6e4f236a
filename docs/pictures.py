#!/usr/bin/env python3
"""Redraw the pictures of printed pages in the README and docs/printing.md (docs/images/*.png).

Run from the repository root after a change to the templates::

    python docs/pictures.py

Each picture is one A4 page at 80 dpi (662 x 936 pixels), rasterised with pypdfium2 (the
``test`` extra), printed on 2026-01-31 with a temporary user folder (your own templates are
not used): the roster page of an illegal roster, and a record sheet page of an example
roster of each game system.
"""

from __future__ import annotations

import datetime as _dt
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

OUT = REPO / "docs" / "images"
DATE = _dt.date(2026, 1, 31)
DPI = 80

#: The roster page of an illegal roster: two motives, a squad too many, a misspelt entry and
#: a mass limit exceeded.
ILLEGAL = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: Two motives and a typo
limits: {kg: 1000}
selections:
  - entry: platoon
    name: Broken Platoon
    selections:
      - entry: foot
      - entry: jump
      - entry: squad
        count: 4
        selections:
          - entry: trooper
            count: 7
            selections: [{entry: auto-rifle}, {entry: kevlar-vest}]
  - entry: no-such-unit
"""

#: picture name -> (example roster, which record sheet page it shows: 0 for the first)
SHEETS = {
    "sheet-infantry-ops": ("infantry-ops/rifle-lmg-platoon.yaml", 0),
    "sheet-starship-marine": ("starship-marine/sirian-platoon.yaml", 1),  # a squad sheet
    "sheet-space-hulk": ("space-hulk/squad-with-librarian.yaml", 0),
    "sheet-starmarines": ("starmarines/starmarines-example.yaml", 0),
    "sheet-starship-troopers": ("starship-troopers/mi-squad.yaml", 0),
}


def page_png(pdf: bytes, page: int, out: Path) -> None:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        doc[page].render(scale=DPI / 72).to_pil().convert("RGB").save(out, optimize=True)
    finally:
        doc.close()
    print(f"wrote {out.relative_to(REPO)}")


def main() -> int:
    os.environ["ARMYBUILDER_HOME"] = tempfile.mkdtemp(prefix="armybuilder-pictures-")
    from armybuilder.render import load, render_pdf

    work = Path(tempfile.mkdtemp(prefix="armybuilder-pictures-"))
    illegal = work / "illegal.yaml"
    illegal.write_text(ILLEGAL, encoding="utf-8")
    result = render_pdf(load(illegal)[2], date=DATE)
    page_png(result.pdf, 0, OUT / "roster-not-legal.png")
    for name, (example, nth) in SHEETS.items():
        result = render_pdf(load(REPO / "examples" / example)[2], date=DATE)
        first = next(p for p, level, label in result.outline if label == "Record sheets")
        page_png(result.pdf, min(first + nth, result.pages - 1), OUT / f"{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
