"""The running title (top right of each page) names the unit the page starts with.

It named the first unit whose heading was on the page: a page that went on with a unit from
the page before (its squads, the rest of a long card) and started another unit further down
was titled with that other unit. The Martian boarding group's last page holds two of B
Group's squads and then the campaign rules' card, and was titled "Campaign rules (part 4)";
the StarMarine platoon's third page starts with 1st Platoon's Bravo team and was titled
"Hover scout", the vehicle at its foot. Each block of a unit's sheets now names its unit."""

from __future__ import annotations

from pathlib import Path

from render_helpers import EXAMPLES
from sheet_layout import Card, Layout, printed, variant

from armybuilder.catalog import Library

#: Alpha team and the Mauler in the StarMarine example (taken out below).
ALPHA = """\
      - entry: ex-fire-team
        name: Alpha team
        experience: veteran
        selections:
          - entry: ex-marine
            count: 3
          - entry: ex-marine
            name: Marksman
            selections: [{entry: attribute, name: Sharpshooter}]
          - entry: ex-heavy-gunner
            selections: [{entry: ex-laser-cannon}]
          - entry: ex-medic
"""
MAULER = """\
      - entry: ex-mauler
        experience: elite
        selections:
          - entry: ex-mauler-turret
            selections: [{entry: ex-laser-cannon}]
          - entry: ex-mauler-left
            selections: [{entry: ex-autocannon}]
          - entry: ex-mauler-right
            selections: [{entry: ex-autocannon}]
"""


def _top_card(layout: Layout, page: int) -> Card | None:
    """The card nearest the top of ``page`` (0-based), if it has any."""
    cards = [c for c in layout.cards if c.page == page]
    return min(cards, key=lambda c: c.rect.y) if cards else None


def _page_starting_with(layout: Layout, title: str) -> int:
    tops = [_top_card(layout, n) for n in range(len(layout.pages))]
    pages = [n for n, top in enumerate(tops) if top is not None and top.text.startswith(title)]
    assert pages, f"no page starts with {title!r}"
    return pages[0]


def test_a_page_of_a_groups_squads_names_the_group(library: Library) -> None:
    path = EXAMPLES / "starship-marine" / "martian-boarding-group.yaml"
    layout = printed(path, library).layout
    page = _page_starting_with(layout, "2nd Marine Squad")
    assert any(c.title == "Campaign rules (part 4)" for c in layout.cards if c.page == page)
    assert layout.headers[page] == "B Group, 4th Martian Regiment"


def test_a_page_of_a_platoons_team_names_the_platoon(library: Library) -> None:
    layout = printed(EXAMPLES / "starmarines" / "starmarines-example.yaml", library).layout
    page = _page_starting_with(layout, "Bravo team")
    assert any(c.title == "Hover scout" for c in layout.cards if c.page == page)
    assert layout.headers[page] == "1st Platoon"


def test_the_rest_of_a_long_card_is_its_units_page(library: Library, tmp_path: Path) -> None:
    """Bravo team of 19 soldiers splits across pages; with Alpha team and the Mauler taken
    out, the Hover scout starts on the page that ends the team: that page is still 1st
    Platoon's."""
    path = variant(
        EXAMPLES / "starmarines" / "starmarines-example.yaml",
        tmp_path,
        ("          - entry: ex-marine\n            count: 4\n",
         "          - entry: ex-marine\n            count: 18\n"),
        (ALPHA, ""),
        (MAULER, ""),
    )  # fmt: skip
    layout = printed(path, library).layout
    bravo = [c for c in layout.cards if c.element is not None and "Bravo team" in c.text]
    pages = sorted({c.page for c in layout.cards if c.element is bravo[0].element})
    assert len(pages) > 1, "Bravo team is expected to run over two pages"
    last = pages[-1]
    top = _top_card(layout, last)
    assert top is not None and top.element is bravo[0].element
    assert any(c.title == "Hover scout" for c in layout.cards if c.page == last)
    for page in pages:
        assert layout.headers[page] == "1st Platoon"
