"""Space Hulk record sheets as they come off the printer: a card per Terminator with its
weapons, ammunition and psi points (Space Hulk house rules: squad, weapons, special units)."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import EXAMPLES, count_boxes
from sheet_layout import cards_titled, layout_faults, printed, variant

from armybuilder.catalog import Library

SH = EXAMPLES / "space-hulk"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["squad-with-librarian", "standard-squad", "techmarine-tarantula"])
def test_cards_keep_their_text_inside(library: Library, name: str, paper: str) -> None:
    assert layout_faults(printed(SH / f"{name}.yaml", library, paper).layout) == []


def test_a_terminator_bought_twice_gets_two_cards(library: Library, tmp_path: Path) -> None:
    """Each model on the board is tracked on its own (Space Hulk squad: one figure each);
    the first of them is the one already lost."""
    path = variant(
        SH / "standard-squad.yaml",
        tmp_path,
        (
            "        name: Brother Noctis\n",
            "        name: Brother Noctis\n        count: 2\n        state: {lost: 1}\n",
        ),
    )
    doc = printed(path, library)
    layout = doc.layout
    assert layout_faults(layout) == []
    for n in (1, 2):
        (card,) = cards_titled(layout, f"Brother Noctis {n} of 2")
        assert "Storm Bolter any 2D6 6+" in card.text
    assert "Terminator · Lost ☒" in cards_titled(layout, "Brother Noctis 1 of 2")[0].text
    assert "Lost ☒" not in cards_titled(layout, "Brother Noctis 2 of 2")[0].text


def test_action_costs_command_points_and_lost_boxes(library: Library) -> None:
    """AP costs of the actions each model's weapons allow (Common Weapon Attributes:
    overwatch 2, clear a jam 1, On Guard 2, reload 4 / pick up 1; Cyclone Missile Launcher:
    a salvo 1, Mixed Shot 1; Chainfist: a door 1; Thunder Hammer: detonate 1), the Sergeant's
    command points (one die) and a labelled Lost box on every card."""
    doc = printed(SH / "squad-with-librarian.yaml", library)
    html = doc.result.html
    layout = doc.layout
    assert layout_faults(layout) == []
    text = {c.title: c.text for c in layout.cards}
    omnio = text["Brother Omnio"].split("Actions (AP):", 1)[1]
    for action in ("Go on overwatch 2", "Clear a jam 1", "Fire a missile salvo 1",
                   "Mixed shot: a krak missile with overwatch fire 1", "Pick up a reload 1",
                   "Reload (2 AP if a Techmarine does it) 4",
                   "Shoot while moving (only the move's AP) 0"):  # fmt: skip
        assert action in omnio
    assert "Go On Guard 2" not in omnio  # a power fist has no On Guard
    assert (
        "Go On Guard 2" in text["Brother Claudio"]
        and "Go on overwatch" not in (text["Brother Claudio"])
    )
    assert "Destroy a door 1" in text["Brother Valencio"]
    assert "Detonate the hammer 1" in text["Brother Scipio"]
    for title, card in text.items():
        assert "Lost" in card.split(title, 1)[1].split()[:4], title
    track = html.split("<b>Command points</b>", 1)[1].split("</p>", 1)[0]
    assert "1d6 each turn" in track and count_boxes(track)[0] == 6


def test_librarian_printed_with_his_squad(library: Library) -> None:
    """The Librarian is picked on his own at the top of the roster but fights with the
    squad: his card is on the squad's page, not on a page alone."""
    layout = printed(SH / "squad-with-librarian.yaml", library).layout
    pages = {c.title: c.page for c in layout.cards}
    assert pages["Librarian Calistarius"] == pages["Sergeant Gideon"]
    assert len({c.page for c in layout.cards}) == 1


def test_techmarine_and_tarantula_without_a_squad(library: Library) -> None:
    layout = printed(SH / "techmarine-tarantula.yaml", library).layout
    titles = [c.title for c in layout.cards]
    assert titles == ["Techmarine Brother Ferro", "Tarantula Turret"]
    assert len({c.page for c in layout.cards}) == 1
    ferro = layout.cards[0].text
    assert "Go on overwatch 2" in ferro and "Clear a jam" not in ferro  # a bolt gun never jams
    assert "Actions (AP)" not in layout.cards[1].text  # the turret acts on its own


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_weapons_salvo_line_stays_on_its_odds_table_page(library: Library, paper: str) -> None:
    """The squad with a librarian filled page 2 to its foot: the exact odds table broke
    before the Cyclone Missile Launcher's salvo line, leaving an empty row frame at the foot
    of page 2 and the salvo line alone (no weapon named) at the top of page 3. The table is
    kept on one page, each weapon's lines together."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(printed(SH / "squad-with-librarian.yaml", library, paper).result.pdf)
    pages = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    (salvo,) = [p for p in pages if "Salvo: 1 missile" in p]
    assert "Cyclone Missile Launcher 5/6" in salvo, salvo
    assert "Storm Bolter 11/36" in salvo, salvo


@pytest.mark.parametrize("name", ["squad-with-librarian", "standard-squad"])
def test_the_odds_table_is_never_split(library: Library, name: str) -> None:
    """The standard squad's odds table broke after its first row (Storm Bolter at the foot of
    page 2, the Assault Cannon and Heavy Flamer under a repeated header on page 3): a table
    of a few lines reads on one page, its header printed once."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(printed(SH / f"{name}.yaml", library).result.pdf)
    pages = [doc[i].get_textpage().get_text_range() for i in range(len(doc))]
    odds = [p for p in pages if "Odds (exact)" in p]
    assert len(odds) == 1, odds
    for row in ("Storm Bolter 11/36", "Assault Cannon 19/27"):
        assert row in odds[0], odds[0]
