"""A long print's running force header across its pieces.

A roster of several forces prints each force's sheets in turn, the force named in the running
header after the roster's name ("Two ships · Sirians (…)"). A long document is laid out in
pieces (pdf.py, ``render_in_pieces``, about 250,000 characters of HTML each), and a piece
that starts inside a force's sheets does not hold the element that names the force: the piece
carries it over from the piece before. The raster comparisons of pieces and whole prints use
rosters of one force, so a break of that carry was caught by no test (citrim4).

Starship Troopers, the one bundled system that offers forces, cuts its sheets only between
forces; Starship Marine cuts them between formations. Here a Starship Marine roster of two
forces (the bundled system with a force type added, in a folder of its own) is printed with
the piece size cut to a block, so that pieces start inside each force's sheets as in a long
print, and the header of each page is read back (pypdfium2's text in the top margin)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from raster_helpers import MARGINS_MM, MM
from render_helpers import DATE

from armybuilder.catalog import Library
from armybuilder.paths import bundled_dir
from armybuilder.render import load, render_pdf
from armybuilder.render.pdf import RUNNING_FORCE

pdfium = pytest.importorskip(
    "pypdfium2", reason="reading PDF text needs pypdfium2 (the test extra)"
)

NAME = "Two ships"
#: A small formation of a faction (``{f}``: sirian, martian) named ``{n}``: its HQ and one
#: squad (order of battle 5.2, 5.4); each starts a page of its own, so a block, so a piece.
FORMATION = """\
      - entry: {f}-{kind}
        name: {n}
        selections:
          - entry: {f}-{kind}-hq
            selections:
              - {{entry: {officer}, selections: [{{entry: marine-armour}}, {{entry: sca-2}}]}}
              - {{entry: marine, count: 2, selections: [{{entry: marine-armour}}]}}
          - entry: {f}-squad
            name: {n} Squad
            selections:
              - {{entry: sergeant, selections: [{{entry: marine-armour}}, {{entry: sca-3}}]}}
              - {{entry: marine, count: 4, selections: [{{entry: marine-armour}}]}}
"""
#: The formations of each force. A force's sheets are its morale page, then each formation
#: on a page of its own: the Sirians' two platoons are two pieces in a row that start inside
#: their force's sheets, the Martians' group a third.
UNITS = {
    "Sirians": ["1st Platoon", "2nd Platoon"],
    "Martians": ["B Group"],
}


def _formations(force: str) -> str:
    f, kind, officer = (
        ("sirian", "platoon", "lieutenant") if force == "Sirians" else ("martian", "group", "major")
    )
    return "".join(FORMATION.format(f=f, kind=kind, officer=officer, n=n) for n in UNITS[force])


@pytest.fixture(scope="module")
def two_forces(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Library]:
    """A Starship Marine roster of two forces and a library whose system offers them."""
    folder = tmp_path_factory.mktemp("forces")
    shutil.copytree(bundled_dir("catalogs") / "starship-marine", folder / "starship-marine")
    system = folder / "starship-marine" / "system.yaml"
    text = system.read_text(encoding="utf-8")
    assert "\nforces:" not in text and "\nrules:\n" in text
    force = "  - id: detachment\n    name: Detachment\n    description: A test force.\n"
    system.write_text(text.replace("\nrules:\n", f"\nforces:\n{force}rules:\n", 1), "utf-8")
    roster = (
        f"format: 2\nsystem: starship-marine\nfaction: sirian\nname: {NAME}\nforces:\n"
        "  - force: detachment\n    name: Sirians\n    selections:\n"
        + _formations("Sirians")
        + "  - force: detachment\n    faction: martian\n    name: Martians\n    selections:\n"
        + _formations("Martians")
    )
    path = folder / "two-forces.yaml"
    path.write_text(roster, encoding="utf-8")
    library = Library([folder], use_cache=False).scan()
    assert not library.problems, library.problems
    return path, library


def _headers(pdf: bytes) -> list[str]:
    """The running header's left text (roster and force) of each page."""
    doc = pdfium.PdfDocument(pdf)
    try:
        out = []
        for page in doc:
            width, height = page.get_size()
            band = MARGINS_MM[0] * MM - 2  # the top margin, off the body's first line
            text = page.get_textpage().get_text_bounded(0, height - band, width * 0.55, height)
            out.append(" ".join(text.split()))
        return out
    finally:
        doc.close()


def _texts(pdf: bytes) -> list[str]:
    doc = pdfium.PdfDocument(pdf)
    try:
        return [page.get_textpage().get_text_range() for page in doc]
    finally:
        doc.close()


def test_each_page_of_a_forces_sheets_names_the_force_across_pieces(
    two_forces: tuple[Path, Library], monkeypatch: pytest.MonkeyPatch
) -> None:
    from armybuilder.render import pdf as pdfmod

    path, library = two_forces
    ev = load(path, library)[2]
    pieces: list[str] = []
    lay_out = pdfmod.render_document

    def counted(html: str, *args: Any, **kwargs: Any) -> pdfmod.Part:
        pieces.append(html)
        return lay_out(html, *args, **kwargs)

    # Every block a piece: as a roster of hundreds of pages is cut, with pieces starting
    # inside each force's sheets (the default rule, a long document in pieces).
    monkeypatch.setattr(pdfmod, "PIECE_CHARS", 1)
    monkeypatch.setattr(pdfmod, "render_document", counted)
    result = render_pdf(ev, date=DATE)
    # Pieces that start inside a force's sheets (their own blocks name no force): two in a
    # row in the Sirians' sheets, one in the Martians'.
    bodies = [html.split('<p class="running-meta">', 1)[1].split("</p>", 1)[1] for html in pieces]
    own = [RUNNING_FORCE in body for body in bodies]
    inside = [n for n in range(own.index(True) + 1, len(bodies)) if not own[n]]
    assert len(inside) >= 3 and any(n + 1 in inside for n in inside), own

    headers, texts = _headers(result.pdf), _texts(result.pdf)
    assert len(headers) == result.pages
    owner: list[str | None] = []
    for header in headers:
        named = [f for f in UNITS if header.startswith(f"{NAME} · {f} (")]
        assert header == NAME or len(named) == 1, header
        owner.append(named[0] if named else None)
    # The summary names the roster only; from the record sheets on, each page its force.
    first = owner.index("Sirians")
    assert first >= 1 and owner[:first] == [None] * first, headers
    martians = owner.index("Martians")
    assert owner[first:] == ["Sirians"] * (martians - first) + ["Martians"] * (
        len(owner) - martians
    ), headers
    # Each formation's pages (after the summary, which lists them all) are its force's.
    for force, units in UNITS.items():
        pages = {n for n, who in enumerate(owner) if who == force}
        for unit in units:
            on = {n for n, text in enumerate(texts) if unit in text and n >= first}
            assert on and on <= pages, (force, unit, sorted(on), sorted(pages), headers)
