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
from armybuilder.cli import main
from armybuilder.render import export, load
from armybuilder.words import number

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
    # The command to open it names this file, not a placeholder "FILE".
    # (spaces dropped: the name may wrap after a hyphen)
    opened = f"Openitinthebuilder(armybuilderempty-{system}.yaml),addunits"
    assert opened in text.replace(" ", "")
    assert "FILE" not in text
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


def test_large_numbers_print_with_thousands_separators_everywhere(
    write_roster: Callable[[str, str], Path],
    render: Callable[..., Rendered],
    library: Library,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # The rules' rifle platoon weighs 2380 kg (Infantry Operations, platoon mass), over a
    # limit of 2000 kg by 380 kg. The engine's message once said "Mass 2380 kg is over the
    # limit of 2000 kg" beside "2,380 kg" in the builder; now `show`, the PDF (its totals,
    # error list, unit lines and sheet) and the exports all print "2,380 kg".
    src = (EXAMPLES / "infantry-ops" / "rifle-platoon.yaml").read_text(encoding="utf-8")
    path = write_roster(
        "rifle-over.yaml",
        src.replace("name: Rifle platoon\n", "name: Rifle platoon\nlimits: {kg: 2000}\n"),
    )
    message = "Mass 2,380 kg is over the limit of 2,000 kg by 380 kg"
    assert main(["show", str(path)]) in (0, 1)
    shown = capsys.readouterr().out
    assert message in shown and "Mass 2,380 kg (limit 2,000 kg)" in shown, shown
    numbers = shown.replace(str(path), "FILE")  # the temporary folder's name may hold "2000"
    assert "2380" not in numbers and "2000" not in numbers, shown
    doc = render(path, pieces=False)
    text = " ".join(doc.text().split())
    assert message in text
    assert "Mass 2,380 kg 2,000 kg over by 380 kg" in text  # the totals table
    assert "MASS 2,380 KG" in " ".join(doc.text(1).split()).upper()  # the platoon sheet
    assert "2380" not in text and "2000 kg" not in text
    ev = load(path, library)[2]
    for to in ("text", "markdown", "html"):
        out = export(ev, to)
        assert "2,380 kg" in out and "2380" not in out, to


@pytest.mark.parametrize(
    ("value", "text"),
    [(0, "0"), (2000, "2,000"), (2380.0, "2,380"), (1234567.25, "1,234,567.25"), (0.5, "0.5"),
     (-1500, "-1,500"), (1 / 3, "0.333333"), (float("inf"), "inf"), (True, "True")],
)  # fmt: skip
def test_number_is_how_every_report_prints_a_quantity(value: float, text: str) -> None:
    assert number(value) == text


TOY_SYSTEM = """\
kind: system
id: toy
name: Toy Wars
cost_types:
  - {id: pts, name: Points, unit: pts}
profile_types:
  - id: model
    name: Model
    characteristics:
      - {id: move, name: Move}
      - {id: wounds, name: Wounds}
"""
TOY_ARMY = """\
kind: catalog
id: army
system: toy
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    entries:
      - {id: trooper, name: Trooper, type: model, costs: {pts: 10},
         profiles: [{type: model, characteristics: {move: 6}}]}
      - {id: brute, name: Brute, type: model, costs: {pts: 30},
         profiles: [{type: model, characteristics: {move: 5, wounds: 3}}]}
"""


@pytest.mark.parametrize(("models", "column"), [("trooper", False), ("brute", True)])
def test_a_generic_card_prints_the_hits_column_only_where_a_model_takes_hits(
    models: str, column: bool, tmp_path: Path
) -> None:
    # Before: a squad of models with no hit count (a Warhammer 40,000 squad read from
    # BattleScribe data, whose "W" is no hit key of ours) printed "Hits (a box per hit)"
    # over an empty column. A Brute (Wounds 3) gets its boxes under that heading.
    from armybuilder.catalog import default_roots
    from armybuilder.render import render_pdf

    root = tmp_path / "cats" / "toy"
    root.mkdir(parents=True)
    (root / "system.yaml").write_text(TOY_SYSTEM, encoding="utf-8")
    (root / "army.yaml").write_text(TOY_ARMY, encoding="utf-8")
    lib = Library([*default_roots(), tmp_path / "cats"], use_cache=False).scan()
    roster = tmp_path / "squad.yaml"
    roster.write_text(
        "format: 1\nsystem: toy\nfaction: army\nname: Squad\nselections:\n  - entry: squad\n"
        f"    selections:\n      - {{entry: {models}, count: 2}}\n",
        encoding="utf-8",
    )
    ev = load(roster, lib)[2]
    html = export(ev, "html")
    assert ("Hits (a box per hit)" in html) is column
    assert html[html.index("<body") :].count("☐") == (6 if column else 0)  # 2 × Wounds 3
    pdf = render_pdf(ev, paper="a4")
    from io import BytesIO

    from pypdf import PdfReader

    text = " ".join(PdfReader(BytesIO(pdf.pdf)).pages[1].extract_text().split())
    assert ("Hits (a box per hit)" in text) is column, text


def test_a_card_taller_than_a_page_starts_under_the_record_sheets_heading(
    write_roster: Callable[[str, str], Path], render: Callable[..., Rendered]
) -> None:
    # 200 Cap Troopers in one squad (a box row each: Starship Troopers, Models; a card of more
    # than 150 is "long"): the card cannot fit a page, so keeping it whole once moved it all
    # to page 3 and left "Record sheets" alone on page 2. (600 once: the same pages, laid
    # out for 3 times the CPU.)
    src = (EXAMPLES / "starship-troopers" / "mi-squad.yaml").read_text(encoding="utf-8")
    text = src.replace("count: 6\n", "count: 200\n").replace("{value: 200}", "{value: 20000}")
    doc = render(write_roster("six-hundred.yaml", text), pieces=False)
    assert not doc.alone, f"pages {doc.alone} hold only headings or a legend"
    page = " ".join(doc.text(1).split())
    assert page.count("Record sheets") == 1 and "MI Cap Trooper ×200" in page
    images = doc.images()
    # Page 2 is full of boxes down to its foot, not a heading over a blank page.
    left, top, right, bottom = body_box(images[1])
    lower = (left, (top + bottom) // 2, right, bottom)
    assert ink(images[1], lower) > 500


def test_a_unit_line_counts_its_models_once(library: Library) -> None:
    # A Starship Troopers squad's line once read "6 models: MI Cap Trooper ×6 · Models: 6
    # (MI Cap Trooper ×6)": the rules module's "Models" value repeats the model summary.
    ev = load(EXAMPLES / "starship-troopers" / "mi-squad.yaml", library)[2]
    html = export(ev, "html", sheets=False)
    line = html[html.index('<div class="uline') :]
    line = line[: line.index("</div>")]
    assert "6 models: MI Cap Trooper ×6" in line
    assert "Models:" not in line, line


def test_render_says_one_error_in_the_singular(
    write_roster: Callable[[str, str], Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # It once said "NOT LEGAL (1 errors, on the roster page)".
    src = (EXAMPLES / "infantry-ops" / "rifle-platoon.yaml").read_text(encoding="utf-8")
    path = write_roster(
        "rifle-one-error.yaml",
        src.replace("name: Rifle platoon\n", "name: Rifle platoon\nlimits: {kg: 2000}\n"),
    )
    out_pdf = tmp_path / "one.pdf"
    assert main(["render", str(path), "--no-sheets", "-o", str(out_pdf)]) == 0
    out = capsys.readouterr().out
    assert out.strip() == f"wrote {out_pdf}: 1 page, A4, NOT LEGAL (1 error, on the roster page)"


def test_starmarines_build_points_print_thousands_separated(
    write_roster: Callable[[str, str], Path], library: Library
) -> None:
    # A 5,000 BP game (StarMarines: build points in groups of 25): the game size and what is
    # left read as the totals do, "5,000 BP", not "5000 BP" beside "bp limit 5,000".
    src = (EXAMPLES / "starmarines" / "starmarines-example.yaml").read_text(encoding="utf-8")
    path = write_roster("sm-5000.yaml", src.replace("limits: {bp: 50}", "limits: {bp: 5000}"))
    ev = load(path, library)[2]
    text = export(ev, "text")
    assert "Build points 50 BP of 5,000 BP" in text.splitlines()[0]
    assert "Game size 5,000 BP (200 groups of 25)" in text, text
    assert "5000" not in text


@pytest.mark.parametrize(
    ("file", "command"),
    [
        ("/home/me/rosters/my-army.yaml", "armybuilder my-army.yaml"),
        ("rosters/my army.yaml", "armybuilder 'my army.yaml'"),
        ("<roster>", None),
        ("", None),
    ],
)
def test_the_open_command_names_the_roster_s_file(
    library: Library, file: str, command: str | None
) -> None:
    from armybuilder.render.context import build_view

    ev = load(EXAMPLES / "starship-troopers" / "mi-squad.yaml", library)[2]
    assert build_view(ev, file=file).open_command == command


@pytest.mark.parametrize(
    ("example", "find", "replace", "page", "card"),
    [
        # StarMarines: a fire team of 60 marines (a row per soldier, about 18 to a page with
        # the weapons' text; "long" past 18 rows): kept whole, the card once left page 2
        # holding the short platoon card alone, two-thirds empty. (300 once: the same case,
        # many more pages laid out.)
        (
            "starmarines/starmarines-example.yaml",
            "            count: 3\n",
            "            count: 60\n",
            1,
            "Alpha team",
        ),
        # Starship Marine: a group HQ of 120 marines (a row per figure, about 50 to a page;
        # "long" past 40 rows): page 3 once held the group's heading alone. (300 once.)
        (
            "starship-marine/martian-boarding-group.yaml",
            "{entry: marine, count: 5,",
            "{entry: marine, count: 120,",
            2,
            "Group HQ",
        ),
    ],
    ids=["starmarines", "starship-marine"],
)
def test_a_card_of_more_rows_than_a_page_starts_where_it_stands(
    write_roster: Callable[[str, str], Path],
    render: Callable[..., Rendered],
    example: str,
    find: str,
    replace: str,
    page: int,
    card: str,
) -> None:
    src = (EXAMPLES / example).read_text(encoding="utf-8")
    assert find in src
    text = src.replace(find, replace, 1)
    doc = render(write_roster(example.replace("/", "-"), text), pieces=False)
    assert not doc.alone, f"pages {doc.alone} hold only headings or a legend"
    assert card in " ".join(doc.text(page).split())
    images = doc.images()
    # The page the card starts on is filled down to its foot (not left nearly blank).
    left, top, right, bottom = body_box(images[page])
    lower = (left, top + 3 * (bottom - top) // 4, right, bottom)
    assert ink(images[page], lower) > 500, f"page {page + 1} is empty below three quarters"
