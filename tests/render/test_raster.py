"""Every example roster (and a generated large one, on A4) printed on A4 and US Letter, rasterised
and looked at: every page has ink in its body (not only the running header and footer), no
text is laid out outside the page's content area (nor the header and footer outside their
margins), and the pages do not depend on the number of processes asked for nor on whether a
long document is laid out in pieces.

Each example is printed on A4, and a sample (every system; each example whose Letter pages
differ in number from A4's) on Letter too, with the default settings (rasterised at 36 dpi),
and that print is shared with every other test of the session that reads it (conftest.py,
``render``); the generated roster on A4. The comparison of `--jobs 1` and `--jobs 2`
(pixel for pixel) runs on a sample: the Earther regiment (short: laid out whole either way)
and the generated five regiments (long enough to be laid out in pieces), on A4; the Earther
regiment is also forced into pieces on both papers. Set ``ARMYBUILDER_RASTER_ALL=1``
to print and compare every example on both papers.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from raster_helpers import body_box, example_rosters, ink, many_regiments
from render_helpers import EXAMPLES, Rendered

pytest.importorskip("pypdfium2", reason="rasterising PDFs needs pypdfium2 (the test extra)")

PAPERS = ("a4", "letter")
#: At 36 dpi a body with one line of 8.5 pt text has about a hundred pixels of ink.
MIN_BODY_INK = 40
LARGE = "large:5-regiments"
EARTHER = EXAMPLES / "starship-marine" / "earther-regiment.yaml"
#: The print a user asks for (``--jobs 2``, ignored now: one process always) compared with
#: the whole document's: the generated roster, long enough to be laid out in pieces by
#: default. (A short roster is laid out whole either way: the same print twice, 11 s of CPU
#: for nothing; the Earther regiment's pieces, forced, are compared below.)
SAMPLE = [
    (LARGE, "a4"),
]


#: The examples also printed on Letter (every example is printed on A4): one of each system,
#: and each whose pages differ in number from A4's (Letter is wider and shorter: 2 pages
#: for 3, 15 for 11, 5 for 4). The others (the same shape as one of these, the same number of
#: pages on both papers) were 1.5-2 s each on Letter; ARMYBUILDER_RASTER_ALL=1 prints them too.
LETTER = {
    EXAMPLES / name
    for name in (
        "infantry-ops/rifle-srm-platoon.yaml",
        "space-hulk/standard-squad.yaml",
        "starmarines/starmarines-example.yaml",
        "starship-marine/earther-regiment.yaml",
        "starship-marine/martian-boarding-group.yaml",
        "starship-troopers/mi-with-own-units.yaml",
        "starship-troopers/two-fronts.yaml",
    )
}


def _papers(which: Path | str) -> tuple[str, ...]:
    if os.environ.get("ARMYBUILDER_RASTER_ALL") and which != LARGE:
        return PAPERS
    return PAPERS if which in LETTER else ("a4",)


def _cases() -> list[Any]:
    # (the generated roster, five Earther regiments, on A4 only: its whole print there is
    # the one its pieces are compared with below; the regiment itself is printed on both
    # papers, and Letter's five-regiment print re-tested its pages for 18 s of CPU)
    out = []
    for which in [*example_rosters(), LARGE]:
        for paper in _papers(which):
            out.append(pytest.param(which, paper, id=f"{_name(which)}-{paper}"))
    return out


def test_every_example_is_printed_and_every_system_on_both_papers() -> None:
    """The examples printed on A4 only leave no example unprinted and no system off Letter."""
    examples = example_rosters()
    assert set(examples) >= LETTER, sorted(map(str, LETTER - set(examples)))
    assert {p.parent.name for p in LETTER} == {p.parent.name for p in examples}


def _name(p: Path | str) -> str:
    return p if isinstance(p, str) else f"{p.parent.name}/{p.stem}"


@pytest.fixture(scope="module")
def roster_file(write_roster: Callable[[str, str], Path]) -> Callable[[Path | str], Path]:
    def get(which: Path | str) -> Path:
        if which == LARGE:
            return write_roster("five-regiments.yaml", many_regiments(5))
        assert isinstance(which, Path)
        return which

    return get


def _same_pixels(which: Path | str, paper: str, one: list[Any], two: list[Any]) -> None:
    assert len(one) == len(two)
    differ = [
        i + 1 for i, (a, b) in enumerate(zip(one, two, strict=True)) if a.tobytes() != b.tobytes()
    ]
    assert not differ, f"{_name(which)} {paper}: pages {differ} differ"
    empty = [i + 1 for i, im in enumerate(two) if ink(im, body_box(im)) < MIN_BODY_INK]
    assert not empty, f"{_name(which)} {paper}: pages {empty} have no body"


@pytest.mark.parametrize(("which", "paper"), _cases())
def test_every_page_has_a_body_and_text_stays_on_it(
    which: Path | str,
    paper: str,
    roster_file: Callable[[Path | str], Path],
    render: Callable[..., Rendered],
) -> None:
    # Default settings, as `armybuilder render FILE` prints; laid out whole, so that its
    # layout can be read (the generated roster, long enough to be laid out in pieces by
    # default, is laid out whole here; its pieces are compared with it below).
    doc = render(roster_file(which), paper=paper, pieces=False)
    images = doc.images()
    assert len(images) == doc.result.pages > 0
    width, height = images[0].size
    # A4 is 8.27 x 11.69 in, Letter 8.5 x 11 in.
    assert (width, height) == ((298, 421) if paper == "a4" else (306, 396))
    empty = [i + 1 for i, im in enumerate(images) if ink(im, body_box(im)) < MIN_BODY_INK]
    assert not empty, f"{_name(which)} {paper}: pages {empty} of {len(images)} have no body"
    stray = doc.stray
    assert not stray, f"{_name(which)} {paper}: text outside the content area: {stray[:5]}"
    stray = doc.stray_margin
    assert not stray, f"{_name(which)} {paper}: header or footer off its margin: {stray[:5]}"
    # A title belongs above its sheet and a legend under the sheet it explains, never alone on
    # a page of their own (the StarMarines legend once spilled onto a fifth page; a Starship
    # Troopers card nearly a page tall left "Record sheets" alone on page 2).
    alone = doc.alone
    assert not alone, f"{_name(which)} {paper}: pages {alone} hold only headings or a legend"


def _pairs() -> list[Any]:
    pairs = (
        [(p, paper) for p in [*example_rosters(), LARGE] for paper in PAPERS]
        if os.environ.get("ARMYBUILDER_RASTER_ALL")
        else SAMPLE
    )
    return [pytest.param(p, paper, id=f"{_name(p)}-{paper}") for p, paper in pairs]


@pytest.mark.parametrize(("which", "paper"), _pairs())
def test_one_and_two_processes_print_the_same_pixels(
    which: Path | str,
    paper: str,
    roster_file: Callable[[Path | str], Path],
    render: Callable[..., Rendered],
) -> None:
    # `--jobs 2` as a user types it: a long document (the generated one) is laid out in
    # pieces and joined; the pages must be those of the whole document laid out at once.
    path = roster_file(which)
    two = render(path, paper=paper, jobs=2).images()
    _same_pixels(which, paper, render(path, paper=paper, pieces=False).images(), two)


@pytest.mark.parametrize("paper", PAPERS)
def test_a_document_laid_out_in_pieces_prints_the_same_pixels(
    paper: str, render: Callable[..., Rendered]
) -> None:
    # The Earther regiment is short enough to be laid out whole; force the pieces.
    pieces = render(EARTHER, paper=paper, pieces=True).images()
    _same_pixels(EARTHER, paper, render(EARTHER, paper=paper, pieces=False).images(), pieces)
