"""A roster option with nothing to print gets no record-sheet card (real Gaslands data).

A Gaslands team starts with its "Sponsor" (the data asks for one), an upgrade at the top of
the roster that holds the sponsor chosen. Before one is chosen it has no stat line, no rules
and nothing under it: the PDF printed it as an empty "Sponsor" box at the top of the record
sheets, and the sheets' running title read "Sponsor". It is now listed with the roster's
options on the first page only; once a sponsor is chosen its card says which ("with:
Rutherford")."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.render import render_pdf
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"


@pytest.fixture(scope="module")
def gaslands(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not (BSDATA / "gaslands").is_dir():
        pytest.skip(f"the Gaslands BattleScribe data are not in {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA]).scan()
    mp.undo()


def team_pages(library: Library, sponsor: str | None) -> list[str]:
    """The text of each page of a team's PDF: a Car with Armour Plating, and the Sponsor
    (with ``sponsor`` chosen in it, or bare)."""
    from pypdf import PdfReader

    s = EditSession.new(library, "gaslands", "gaslands", "Road Warriors", autosave=False)
    car = next(c for c in s.options(()) if c.entry.name == "Car")
    loc = s.add((), s.option_id((), car))
    plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
    s.add(loc, s.option_id(loc, plating))
    sponsor_loc = ("selections", 0)
    if sponsor is not None:
        pick = next(c for c in s.options(sponsor_loc) if c.entry.name == sponsor)
        s.add(sponsor_loc, s.option_id(sponsor_loc, pick))
    ev = s.evaluate()
    assert ev.name(ev.root.children[0]) == "Sponsor"
    out = io.BytesIO()
    render_pdf(ev, out, date="2026-01-01")
    s.close()
    return [p.extract_text() for p in PdfReader(io.BytesIO(out.getvalue())).pages]


def sheets(pages: list[str]) -> str:
    """The record sheets' text (from their heading on)."""
    text = "\n".join(pages)
    assert "Record sheets" in text, text
    return text[text.index("Record sheets") :]


def test_a_bare_sponsor_prints_no_empty_card(gaslands: Library) -> None:
    pages = team_pages(gaslands, None)
    assert "Sponsor" in pages[0]  # (listed with the roster's options)
    printed = sheets(pages)
    assert "Car" in printed and "Armour Plating" in printed, printed
    assert "Sponsor" not in printed, printed  # (neither a card nor the running title)


def test_a_chosen_sponsor_prints_its_card(gaslands: Library) -> None:
    printed = sheets(team_pages(gaslands, "Rutherford"))
    assert "Sponsor" in printed and "with: Rutherford" in printed, printed


def test_a_free_roster_option_prints_no_price_anywhere(
    gaslands: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bare Sponsor costs nothing: the PDF, the Markdown and text exports and ``show`` all
    print its name with no "0 Cans, 0 Build Slots" (as the builder shows no price), while the
    Car's price is printed everywhere."""
    from armybuilder.cli import main

    s = EditSession.new(gaslands, "gaslands", "gaslands", "Road Warriors", autosave=False)
    car = next(c for c in s.options(()) if c.entry.name == "Car")
    loc = s.add((), s.option_id((), car))
    plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
    s.add(loc, s.option_id(loc, plating))  # (16 Cans, 1 Build Slot: no zero of its own)
    file = s.save(tmp_path / "team.yaml")
    s.close()
    folder = ["--catalogs", str(BSDATA)]
    printed: dict[str, str] = {}
    for surface, argv in {
        "show": ["show", *folder, str(file)],
        "markdown": ["export", *folder, "--to", "markdown", str(file)],
        "text": ["export", *folder, "--to", "text", str(file)],
    }.items():
        assert main(argv) == 0
        printed[surface] = capsys.readouterr().out
    pages = team_pages(gaslands, None)
    printed["pdf"] = pages[0]
    for surface, text in printed.items():
        assert "Sponsor" in text, (surface, text)
        assert "0 Cans" not in text and "0 Build Slots" not in text, (surface, text)
        assert "16 Cans, 1 Build Slot" in text, (surface, text)  # (the Car's price)


def test_the_markdown_totals_say_1_build_slot(
    gaslands: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The Markdown totals table writes the unit as it reads after the amount, as the PDF
    and show do: "1 Build Slot", "16 Cans" (it wrote "1 Build Slots")."""
    from armybuilder.cli import main

    s = EditSession.new(gaslands, "gaslands", "gaslands", "Road Warriors", autosave=False)
    car = next(c for c in s.options(()) if c.entry.name == "Car")
    loc = s.add((), s.option_id((), car))
    plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
    s.add(loc, s.option_id(loc, plating))
    file = s.save(tmp_path / "team.yaml")
    s.close()
    assert main(["export", "--catalogs", str(BSDATA), "--to", "markdown", str(file)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "| Cans | 16 Cans | none |" in lines
    assert "| Build Slots | 1 Build Slot | none |" in lines


def test_a_price_prints_no_zero_cost_type_anywhere(
    gaslands: Library, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bare Car costs 12 Cans and no Build Slot: show, the PDF, the HTML, the Markdown and
    text exports print "12 Cans" beside it, as the builder does (and BattleScribe), never
    "12 Cans, 0 Build Slots"; the Car with Armour Plating prints both of its costs, and the
    totals keep every cost type (they stand beside the limits). Three bare Cars print
    "12 Cans" each on their card."""
    from pypdf import PdfReader

    from armybuilder.cli import main

    s = EditSession.new(gaslands, "gaslands", "gaslands", "Road Warriors", autosave=False)
    car = next(c for c in s.options(()) if c.entry.name == "Car")
    loc = s.add((), s.option_id((), car))
    plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
    s.add(loc, s.option_id(loc, plating))  # (16 Cans, 1 Build Slot)
    s.add((), s.option_id((), car))  # (12 Cans, 0 Build Slots)
    three = s.add((), s.option_id((), car))
    s.set_count(three, 3)
    file = s.save(tmp_path / "team.yaml")
    ev = s.evaluate()
    pdf = io.BytesIO()
    render_pdf(ev, pdf, date="2026-01-01")
    s.close()
    folder = ["--catalogs", str(BSDATA)]
    printed: dict[str, str] = {}
    for surface, argv in {
        "show": ["show", *folder, str(file)],
        "markdown": ["export", *folder, "--to", "markdown", str(file)],
        "text": ["export", *folder, "--to", "text", str(file)],
        "html": ["export", *folder, "--to", "html", str(file)],
    }.items():
        assert main(argv) == 0
        printed[surface] = capsys.readouterr().out
    printed["pdf"] = "\n".join(p.extract_text() for p in PdfReader(pdf).pages)
    for surface, text in printed.items():
        assert "0 Build Slots" not in text, (surface, text)
        assert "16 Cans, 1 Build Slot" in text, (surface, text)
        assert re.search(r"\b12 Cans\b", text), (surface, text)
        assert re.search(r"\b36 Cans\b", text), (surface, text)  # (the three Cars)
        assert re.search(r"\b64 Cans\b", text), (surface, text)  # (the team's total)
