"""The roster pages are a summary a tournament organiser reads: name, legality and totals
first, then one line per unit (its models, cost and short computed values). The detail per
model is on the record sheets, so a regiment's roster fits on a page or two."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from raster_helpers import many_regiments
from render_helpers import EXAMPLES, Rendered

from armybuilder.render import build_view
from armybuilder.rules.engine import Evaluation

EARTHER = EXAMPLES / "starship-marine" / "earther-regiment.yaml"


def test_earther_regiment_roster_fits_one_page(
    render: Callable[..., Rendered], evaluate_file: Callable[[Path], Evaluation]
) -> None:
    pdf = render(EARTHER, sheets=False)
    # 18 units (regimental HQ, 3 groups of a HQ and 3 squads, the logistics group, and the
    # regiment itself: Starship Marine 5.1) and the campaign rules option the roster plays
    # (part 4): seven pages of per-figure detail before.
    assert pdf.pages == 1
    text = re.sub(r"\s+", " ", pdf.text())
    view = build_view(evaluate_file(EARTHER))
    lines = view.unit_lines()
    assert len(lines) == 18
    # the campaign rules (an upgrade at the top: it sets the roster up) is no unit: listed
    # apart, before the units, and not counted among them
    assert [u.name for u in view.option_lines()] == ["Campaign rules (part 4)"]
    assert "Roster options (1) Campaign rules (part 4)" in text
    assert "Units (18)" in text
    # legality and totals come before the units
    assert text.index("LEGAL") < text.index("Head count") < text.index("Units (18)")
    # every squad's line, with its 11 models (lieutenant, sergeant, corporal, 6 marines and
    # 2 combat robots: the Earther squad of 5.1)
    assert text.count("1st Marine Squad [Marine Squad] · 11 models: Lieutenant, Sergeant") == 3
    # the experience text of each figure (4.7) is on the sheets, not repeated here
    assert "green sticker" not in text
    assert "Marine armour, SCA" not in text  # each figure's kit (4.3) is on its sheet


def test_five_regiments_roster_fits_four_pages(
    render: Callable[..., Rendered], write_roster: Callable[[str, str], Path]
) -> None:
    path = write_roster("five-regiments-summary.yaml", many_regiments(5))
    pdf = render(path, sheets=False)
    # 90 unit lines and the campaign rules option, after the roster-wide tables (weapons,
    # robot damage); 35 pages before
    assert pdf.pages <= 4
    text = pdf.text()
    assert "Units (90)" in re.sub(r"\s+", " ", text)
    assert "Roster options (1)" in re.sub(r"\s+", " ", text)
    for n in range(1, 6):
        assert f"Regiment {n} [Marine Regiment]" in text


def test_a_models_summary_line_names_the_model_it_controls(
    render: Callable[..., Rendered],
) -> None:
    """Space Hulk special units: the Techmarine's Tarantula turret is a model under him. His
    line on the roster page read "with Bolt Gun" and left the turret out (a model's line
    lists no models); it now names it among what he has, with its guns counted."""
    import pypdfium2 as pdfium

    done = render(EXAMPLES / "space-hulk" / "techmarine-tarantula.yaml", sheets=False)
    doc = pdfium.PdfDocument(done.result.pdf)
    page = " ".join(doc[0].get_textpage().get_text_range().split())
    assert "with Bolt Gun, Tarantula Turret (Heavy Bolter ×2)" in page, page
