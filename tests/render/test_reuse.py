"""A block printed more than once is laid out once and drawn at each place (reuse.py): the
Earther regiment's nine marine squads and three group HQs print the same figure tables.

What a reader sees must not change: the regiment printed that way is compared, page by page
and pixel for pixel (72 dpi), with the same document laid out whole (``keep_layout=True``
lays every block out), on both papers, and every page holds the same words. A block whose empty
stand-in lands somewhere the measured block would not fit (another column) makes the whole
document be laid out as usual.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from raster_helpers import rasterise
from render_helpers import EXAMPLES, Rendered
from sheet_layout import DATE

from armybuilder.paths import bundled_dir
from armybuilder.render import render_pdf
from armybuilder.render.pdf import Stylesheet, render_document
from armybuilder.render.reuse import SAME_END, SAME_MARK, marked_blocks
from armybuilder.rules.engine import Evaluation

pytest.importorskip("pypdfium2", reason="rasterising PDFs needs pypdfium2 (the test extra)")

EARTHER = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


def _darkest(one: Any, two: Any) -> int:
    """The largest difference between two greyscale images, pixel by pixel (0 to 255)."""
    from PIL import ImageChops

    assert one.size == two.size
    _low, high = ImageChops.difference(one, two).getextrema()
    return int(high)


def _stamps(pdf: bytes) -> list[bytes]:
    """The reused blocks drawn on the pages, in page order."""
    import re
    from io import BytesIO

    from pypdf import PdfReader

    out: list[bytes] = []
    for page in PdfReader(BytesIO(pdf)).pages:
        contents = page.get_contents()
        data = contents.get_data() if contents is not None else b""
        out.extend(re.findall(rb"(/AbSame\d+) Do", data))
    return out


def _text(pdf: bytes) -> list[str]:
    """The text of each page, as pdfium extracts it."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def _letters(pdf: bytes) -> list[Counter[str]]:
    """The characters of each page but spaces, as pdfium extracts them (form XObjects
    included; its cut into words depends on the order the text is drawn in)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in doc:
            text = page.get_textpage().get_text_range()
            out.append(Counter("".join(text.split()).replace("\u200b", "")))
        return out
    finally:
        doc.close()


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_regiments_repeated_tables_print_the_same_pixels_and_words(
    paper: str,
    evaluate_file: Callable[[Path], Evaluation],
    render: Callable[..., Rendered],
) -> None:
    reused = render_pdf(evaluate_file(EARTHER), paper=paper, date=DATE)
    # 14 squads: nine marine squads print one table, the three group HQs another (drawn from
    # one layout each); the regimental HQ and the logistics group their own.
    assert Counter(_stamps(reused.pdf)) == {b"/AbSame0": 3, b"/AbSame1": 9}
    whole = render(EARTHER, paper=paper, pieces=False)
    assert _stamps(whole.result.pdf) == []  # laid out whole: every table its own layout
    assert reused.pages == whole.result.pages
    assert reused.outline == whole.result.outline
    one, two = rasterise(whole.result.pdf, dpi=72), rasterise(reused.pdf, dpi=72)
    # A drawn table is moved into place by a translation: pdfium's rounding of the moved
    # edges may shade an anti-aliased pixel one or two grey levels (of 255) differently.
    differ = [i + 1 for i, (a, b) in enumerate(zip(one, two, strict=True)) if _darkest(a, b) > 2]
    assert not differ, f"{paper}: pages {differ} differ"
    letters = _letters(reused.pdf)
    assert letters == _letters(whole.result.pdf)
    # the drawn tables' text is there to find and copy: "0 fought" per man (18 officers,
    # 88 other ranks, 11 non-marines; and the legend's "actions fought"), each on its page
    fought = [page.count("fought") for page in _text(reused.pdf)]
    assert fought == [page.count("fought") for page in _text(whole.result.pdf)]
    assert sum(fought) == 18 + 88 + 11 + 1


def test_marked_blocks_repeat_only_in_the_same_surroundings() -> None:
    block = f"{SAME_MARK}<table><tr><td>1 Marine</td></tr></table>{SAME_END}"
    other = f"{SAME_MARK}<table><tr><td>2 Marines</td></tr></table>{SAME_END}"
    html = (
        "<!DOCTYPE html><html><head><style>p { color: red }</style></head><body class='x'>"
        f'<div class="card" id="a">{block}</div>'
        f'<div class="card" id="b">{block}</div>'  # same surroundings (ids aside)
        f'<div class="wide">{block}</div>'  # other surroundings: alone
        f'<div class="card">{other}<br></div>'  # once: not worth it
        "</body></html>"
    )
    blocks = marked_blocks(html)
    assert len(blocks) == 1
    (b,) = blocks
    assert b.content == block[len(SAME_MARK) : -len(SAME_END)]
    assert b.ancestors == (("body", " class='x'"), ("div", ' class="card"'))
    assert [html[s:e] for s, e in b.spans] == [block, block]
    assert marked_blocks(html.replace(SAME_MARK, "")) == []
    # marks that do not enclose whole elements: the document is laid out whole
    torn = f"<html><body>{SAME_MARK}<div>{SAME_END}</div>{SAME_MARK}<div>{SAME_END}</div>"
    assert marked_blocks(torn + "</body></html>") == []


@pytest.mark.parametrize(
    "inside",
    [
        '<a href="#x">see</a>',  # a link: the drawn copy would have no annotation
        '<span id="x">target</span>',  # an anchor: links to it would point nowhere
        "<h3>Squad</h3>",  # a heading: a bookmark in the outline
        "<ol><li>first</li></ol>",  # numbered: the copy would print the first numbers
    ],
)
def test_a_block_bound_to_its_place_is_laid_out_in_place(inside: str) -> None:
    """Found by review: links, anchors, bookmarks and list numbers inside a drawn copy were
    lost or wrong; such a block is not reused (the other blocks still are)."""
    bound = f"{SAME_MARK}<div>{inside}</div>{SAME_END}"
    plain = f"{SAME_MARK}<table><tr><td>1 Marine</td></tr></table>{SAME_END}"
    html = (
        "<!DOCTYPE html><html><body>"
        + "".join(f'<div class="card">{bound}</div><div class="card">{plain}</div>' for _ in "ab")
        + "</body></html>"
    )
    (b,) = marked_blocks(html)
    assert b.content == plain[len(SAME_MARK) : -len(SAME_END)]


def _doc(css: str) -> Any:
    block = f"{SAME_MARK}<table><tr><td>Sergeant</td><td>☐☐</td></tr></table>{SAME_END}"
    html = (
        "<!DOCTYPE html><html><head></head><body>"
        + "".join(f'<div class="box">{block}<p>after {i}</p></div>' for i in range(3))
        + "</body></html>"
    )
    base = bundled_dir("templates").resolve().as_uri() + "/"
    sheet = Stylesheet("td { border: 1pt solid black } " + css, base)
    return render_document(html, [sheet], base, [bundled_dir("templates")])


def test_a_block_that_would_move_sideways_is_laid_out_in_place() -> None:
    same = _doc("")
    assert _stamps(same.pdf) == [b"/AbSame0"] * 3
    moved = _doc(".box + .box { margin-left: 20mm }")
    assert _stamps(moved.pdf) == []
    for part in (same, moved):
        (text,) = _text(part.pdf)
        assert text.count("Sergeant") == 3
        assert all(f"after {i}" in text for i in range(3))


def test_a_squad_card_below_its_header_is_one_reused_block(library: Any) -> None:
    """The squad's stock, its morale and odds notes print the same for the same squads, so
    they are laid out (and drawn) once with its figure table; the header, with the squad's
    name, title and bookmark, stays in place."""
    from sheet_layout import sheet_html

    html = sheet_html(EARTHER, library)
    blocks = sorted(marked_blocks(html), key=lambda b: len(b.spans))
    assert [len(b.spans) for b in blocks] == [3, 9]  # group HQs, marine squads
    for b in blocks:
        assert b.content.lstrip().startswith('<table class="sm-figures">')
        assert 'class="sm-ammo"' in b.content  # grenades and door charges
        assert "this squad counts" in b.content and "sm-odds-ref" in b.content
        for _start, end in b.spans:
            # nothing of the card is left after the block but its end
            assert html[end:].lstrip().startswith("</div>")
