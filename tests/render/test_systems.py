"""Each game system's record sheet, read back from the PDF: what a player needs at the table.

One example roster per system; the sheet pages are those from the "Record sheets" outline
entry on."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from render_helpers import EXAMPLES, Rendered, count_boxes


def sheets_text(pdf: Rendered) -> str:
    start = next(p for d, t, p in pdf.outline() if d == 1 and t == "Record sheets")
    text = "\n".join(pdf.text(i) for i in range(start, pdf.pages))
    return re.sub(r"\s+", " ", text)


def test_space_hulk_cards(render: Callable[..., Rendered]) -> None:
    pdf = render(EXAMPLES / "space-hulk" / "squad-with-librarian.yaml")
    text = sheets_text(pdf)
    # a card per Terminator, each in the outline
    titles = [t for _, t, _ in pdf.outline()]
    for name in ("Librarian Calistarius", "Sergeant Gideon", "Brother Omnio", "Brother Valencio"):
        assert name in titles
        assert name in text
    # weapons with range, dice, kills-on and attributes
    assert "Ranged Range Dice Kills" in text
    assert "Storm Bolter any 2D6 6+ 31%" in text
    assert "Overwatch, Jam, Sustain, Move & shoot" in text
    assert "Assault dice" in text and "1D6+1 +psi" in text
    # ammunition and psi points as boxes, with what was spent already crossed
    assert "Cyclone Missile Launcher ammunition (12 missiles)" in text
    assert "Psi points (20)" in text
    # overwatch and jam reminders
    assert "overwatch fire up to 12 squares" in text
    assert "jams on a double" in text


def test_space_hulk_spent_boxes_are_ticked(render: Callable[..., Rendered]) -> None:
    html = render(EXAMPLES / "space-hulk" / "squad-with-librarian.yaml").result.html
    omnio = html.split("Brother Omnio", 2)[2].split('class="card', 1)[0]
    missiles = omnio.split("ammunition</b>", 1)[1].split("</p>", 1)[0]
    assert count_boxes(missiles) == (12, 3)
    psi = html.split("Psi points</b>", 1)[1].split("</p>", 1)[0]
    assert count_boxes(psi)[1] == 5


def test_starship_marine_squad_sheets(render: Callable[..., Rendered]) -> None:
    pdf = render(EXAMPLES / "starship-marine" / "sirian-platoon.yaml")
    text = sheets_text(pdf)
    titles = [t for _, t, _ in pdf.outline()]
    for name in ("Platoon HQ", "1st Marine Squad", "2nd Marine Squad", "3rd Marine Squad"):
        assert name in titles
    # figure roster: number and rank, equipment, target type, hits and experience class; no
    # sticker or record of past actions without the campaign rules (part 4 is optional)
    assert "Figure Equipment Target Hits Experience" in text
    assert "Sticker" not in text and " fought" not in text
    assert "2 Sergeant Marine armour, SCA III Armoured" in text
    # no campaign rules in this roster: every figure at the baseline class (4.7)
    assert "Experienced" in text and "Novice" not in text
    # ammunition record and APGW missiles per launcher
    assert "Grenades (20)" in text and "Door charges (10)" in text
    assert "APGW launcher 1 (10)" in text
    # the force's morale strength (3.13), once for the whole force, with its thresholds
    assert "Attacker morale (the boarding force, whole force)" in text
    assert "starting strength 38" in text  # 19 marines at 2 each; robots count nothing


def test_starship_marine_experience_and_campaign_state(render: Callable[..., Rendered]) -> None:
    pdf = render(EXAMPLES / "starship-marine" / "earther-regiment.yaml", jobs=1)
    text = sheets_text(pdf)
    assert "1 Lt Col Hale" in text and "Veteran · Red" in text
    assert "RSM Branestawn" in text and "Seasoned · Yellow" in text
    titles = [t for _, t, _ in pdf.outline()]
    assert titles.count("1st Marine Squad") == 3  # one per group


def test_starship_troopers_cards(render: Callable[..., Rendered]) -> None:
    pdf = render(EXAMPLES / "starship-troopers" / "mi-squad.yaml")
    text = sheets_text(pdf)
    assert "Model Value Size Move Close Combat Target Save Kill Traits" in text
    assert 'MI Cap Trooper ×6 30 1 4" D6 4+ 4+ 7+ Jump/12"' in text
    assert 'TW-203-a Morita Assault Rifle 20" 2xD6 Squad Auto' in text
    html = pdf.result.html
    models = html.split('class="st-models', 1)[1].split("</table>", 1)[0]
    assert models.count('class="st-copy"') == 6  # a group per model
    # one hit each, then a flinch and an out-of-ammunition box (Squad weapon)
    assert count_boxes(models)[0] == 6 * 3


def titles_of(pdf: Rendered) -> list[str]:
    return [t for _, t, _ in pdf.outline()]


def test_starmarines_cards(render: Callable[..., Rendered]) -> None:
    pdf = render(EXAMPLES / "starmarines" / "starmarines-example.yaml")
    text = sheets_text(pdf)
    for name in ("Alpha team", "Bravo team", "Mauler", "Hover scout"):
        assert name in titles_of(pdf)
    assert "Soldier Move Armor Tough. Attack aim + exp. Morale" in text
    assert "Wounded / dead / broken" in text
    assert "d6 Damage Effect Repair" in text and "Destroyed" in text


@pytest.mark.parametrize(
    "example",
    sorted(str(p.relative_to(EXAMPLES)) for p in EXAMPLES.glob("*/*.yaml")),
)
def test_every_example_prints(example: str, evaluate_file: Callable[..., object]) -> None:
    # HTML only (fast): every example goes through its system's sheet without an error.
    from armybuilder.render import build_view, render_html

    html = render_html(build_view(evaluate_file(EXAMPLES / example)))  # type: ignore[arg-type]
    assert "Record sheets" in html
    assert html.count("<!--armybuilder:split-->") >= 2
