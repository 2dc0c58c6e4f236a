"""Starship Troopers record sheets as they come off the printer: a card per unit with the
stat lines, weapons and a box row per model (Starship Troopers, Characteristics chapter)."""

from __future__ import annotations

from pathlib import Path

import pytest
from render_helpers import EXAMPLES, count_boxes
from sheet_layout import cards_titled, layout_faults, printed, sheet_html, variant

from armybuilder.catalog import Library

ST = EXAMPLES / "starship-troopers"


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("name", ["arachnid-swarm", "mi-squad", "mi-with-own-units"])
def test_cards_keep_their_text_inside(library: Library, name: str, paper: str) -> None:
    assert layout_faults(printed(ST / f"{name}.yaml", library, paper).layout) == []


def test_a_unit_bought_twice_gets_two_cards(library: Library, tmp_path: Path) -> None:
    """Second wave ×2 is two units of four Arachnid Warriors: two cards, four boxes each
    (one box per model without Hits/X)."""
    path = variant(
        ST / "arachnid-swarm.yaml",
        tmp_path,
        ("    name: Second wave\n", "    name: Second wave\n    count: 2\n"),
    )
    doc = printed(path, library)
    html = doc.result.html
    layout = doc.layout
    assert layout_faults(layout) == []
    for n in (1, 2):
        (card,) = cards_titled(layout, f"Second wave {n} of 2")
        assert "Arachnid Warrior ×4" in card.text
        block = html.split(f"Second wave {n} of 2", 2)[2].split('class="st-models', 1)[1]
        row = block.split("</tr>", 1)[0]
        assert row.count('class="st-copy"') == 4  # a group of boxes per model
        assert count_boxes(row)[0] == 4 * 2  # a hit and a flinch box


def _row(html: str, name: str) -> str:
    models = html.split('class="st-models', 1)[1].split("</table>", 1)[0]
    return models.split(f"<th>{name}", 1)[1].split("</tr>", 1)[0]


def test_flinch_and_ammunition_boxes_where_the_rules_use_them(
    library: Library, tmp_path: Path
) -> None:
    """Characteristics chapter: a model that survives a hit flinches, except one with Hits/X
    or No Flinch; a Squad weapon can run out of ammunition and a Crew weapon fires as one
    (Type); Pack weapons fire once a turn and need no box. The gunner here has Hits/3 (no
    flinch box, three hit boxes), the sergeant No Flinch."""
    path = variant(
        ST / "mi-with-own-units.yaml",
        tmp_path,
        ('traits: Independent, Jump/12"', 'traits: Independent, Jump/12", No Flinch'),
        (
            '            traits: Jump/12"\n      groups:',
            '            traits: Jump/12", Hits/3\n      groups:',
        ),
    )
    doc = printed(path, library)
    html = doc.result.html
    assert layout_faults(doc.layout) == []
    sergeant = _row(html, "Example MI Sergeant")
    assert ">F<" not in sergeant and ">A<" in sergeant  # the Morita is a Squad weapon
    assert count_boxes(sergeant)[0] == 2  # one hit, out of ammunition
    gunner = _row(html, "Gunner")
    assert ">F<" not in gunner and "Example support gun out of ammunition" in gunner
    assert count_boxes(gunner)[0] == 4  # Hits/3, the Crew weapon
    flamer = _row(html, "Flamer trooper")
    assert ">F<" not in flamer and ">A<" not in flamer  # Hits/3, a Pack weapon
    troopers = _row(html, "MI Cap Trooper")
    assert troopers.count(">F<") == 2 and troopers.count(">A<") == 2
    assert count_boxes(troopers)[0] == 6


def test_arachnid_warriors_flinch_and_carry_no_ammunition(library: Library) -> None:
    html = sheet_html(ST / "arachnid-swarm.yaml", library)
    row = _row(html, "Arachnid Warrior")
    assert row.count(">F<") == 6 and ">A<" not in row


def _pdf_lines(pdf: bytes) -> list[str]:
    """The PDF's text, line by line, as pypdfium2 reads it back."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    return [
        line.strip()
        for i in range(len(doc))
        for line in doc[i].get_textpage().get_text_range().splitlines()
    ]


def test_the_weapon_table_counts_each_weapon_and_names_who_carries_it(library: Library) -> None:
    """Characteristics chapter, Weapon Characteristics: a unit's models often carry different
    weapons, and each fires on its own. The weapon table printed each weapon once with no
    number: the fire team's Morita is carried by the sergeant and two troopers, three guns."""
    lines = _pdf_lines(printed(ST / "mi-with-own-units.yaml", library).result.pdf)
    assert "Qty Weapon Carried by Range Damage Type Traits" in lines
    text = "\n".join(lines)
    assert any(
        line.startswith("3 TW-203-a Morita Assault Rifle Example MI Sergeant, MI Cap")
        for line in lines
    ), text
    assert '1 Example support gun Gunner 36" 3xD6+1 Crew Accurate, Piercing/1, Ready' in lines


def test_the_weapon_count_is_per_copy_of_a_unit(library: Library, tmp_path: Path) -> None:
    """A squad of six bought twice prints two cards of six Moritas each (not twelve); a card
    of one model line needs no "Carried by" column."""
    twice = ("    name: 1st Squad\n", "    name: 1st Squad\n    count: 2\n")
    path = variant(ST / "mi-squad.yaml", tmp_path, twice)
    lines = _pdf_lines(printed(path, library).result.pdf)
    rows = [line for line in lines if line.startswith(("6 TW-203-a", "12 TW-203-a"))]
    assert rows == ['6 TW-203-a Morita Assault Rifle 20" 2xD6 Squad Auto'] * 2, rows
    assert "Qty Weapon Range Damage Type Traits" in lines


def test_an_attack_made_by_one_model_has_no_count(library: Library) -> None:
    """The damage table named each attack with how many models make it ("TW-203-a Morita
    Assault Rifle ×3"), and "×1" for one model (the gunner's support gun): one is printed
    bare, as every label prints it."""
    lines = _pdf_lines(printed(ST / "mi-with-own-units.yaml", library).result.pdf)
    text = " ".join(lines)
    assert "×1 " not in text and not any(line.endswith("×1") for line in lines), text
    assert "TW-203-a Morita Assault Rifle ×3" in text, text
