"""Rosters a player prints at the edges: empty, with very large numbers, with costs that have
no unit. Each PDF is read back (pypdf text), rasterised (pypdfium2) and its ink measured where
the content belongs; the exports are compared with what the PDF says.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from raster_helpers import body_box, ink
from render_helpers import EXAMPLES, Rendered

from armybuilder.catalog import Library
from armybuilder.render import export, load

pytest.importorskip("pypdfium2", reason="rasterising PDFs needs pypdfium2 (the test extra)")

#: Each game system with one of its factions and the name of that faction's catalog.
SYSTEMS = [
    ("infantry-ops", "inner-sphere", "Infantry Operations"),
    ("space-hulk", "terminators", "Space Hulk"),
    ("starmarines", "norx", "StarMarines"),
    ("starship-marine", "earther", "Starship Marine"),
    ("starship-troopers", "mobile-infantry", "Starship Troopers"),
]


def _empty(system: str, faction: str) -> str:
    return f"format: 1\nsystem: {system}\nfaction: {faction}\nname: Nobody Yet\n"


@pytest.mark.parametrize(("system", "faction", "system_name"), SYSTEMS, ids=[s[0] for s in SYSTEMS])
def test_an_empty_roster_prints_one_page_that_says_it_is_empty(
    system: str,
    faction: str,
    system_name: str,
    write_roster: Callable[[str, str], Path],
    render: Callable[..., Rendered],
) -> None:
    # Before: page 1 said "Units (0)" and nothing under it, page 2 held the heading "Record
    # sheets" and the sheet's legend alone.
    path = write_roster(f"empty-{system}.yaml", _empty(system, faction))
    doc = render(path, paper="letter", pieces=False)
    assert doc.pages == 1, doc.text()
    text = " ".join(doc.text().split())
    assert "This roster is empty" in text
    assert "no record sheets to print" in text
    assert "Nobody Yet" in text and system_name in text
    assert "Record sheets" not in text and "Units (0)" not in text
    assert not doc.alone
    # The box saying so has ink: the page's body holds more than the title block.
    (image,) = doc.images()
    left, top, right, bottom = body_box(image)
    assert ink(image, (left, top + (bottom - top) // 8, right, bottom)) > 200


def test_an_empty_roster_says_its_limits(
    write_roster: Callable[[str, str], Path], render: Callable[..., Rendered]
) -> None:
    text = _empty("starship-troopers", "mobile-infantry") + "limits: {value: 300}\n"
    doc = render(write_roster("empty-limit.yaml", text), pieces=False)
    assert "Limits: Value 300." in " ".join(doc.text().split())


def test_an_empty_roster_s_exports_say_it_is_empty(
    write_roster: Callable[[str, str], Path], library: Library
) -> None:
    path = write_roster("empty-export.yaml", _empty("space-hulk", "terminators"))
    ev = load(path, library)[2]
    assert "No units yet: this roster is empty." in export(ev, "text").splitlines()
    assert "*No units yet: this roster is empty.*" in export(ev, "markdown").splitlines()


@pytest.mark.parametrize(("limit", "left"), [(3000, "620 kg"), (2000, "over by 380 kg")])
def test_what_is_left_of_a_limit_prints_with_its_unit(
    limit: int,
    left: str,
    write_roster: Callable[[str, str], Path],
    render: Callable[..., Rendered],
) -> None:
    # The rules' rifle platoon weighs 2380 kg (Infantry Operations, platoon mass): the
    # totals table once printed "Spent 2380 kg, Limit 3000 kg, Left 620", a bare number.
    src = (EXAMPLES / "infantry-ops" / "rifle-platoon.yaml").read_text(encoding="utf-8")
    text = src.replace("name: Rifle platoon\n", f"name: Rifle platoon\nlimits: {{kg: {limit}}}\n")
    assert text != src
    doc = render(write_roster(f"rifle-{limit}.yaml", text), sheets=False, pieces=False)
    page = " ".join(doc.text(0).split())
    assert f"kg {left}" in page, page
