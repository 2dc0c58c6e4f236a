"""Campaign history is not damage on the record sheet (DESIGN.md: history, such as wounds taken
in past battles, is kept apart from current damage).

Starship Marine 4.7: ``wounds`` counts the actions in which a figure was wounded (each counts as
two for experience); the hits it takes in the battle being played are ``hits`` (3.5, 3.7). A
veteran with a wound in his record starts the next battle unhurt."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from render_helpers import count_boxes

from armybuilder.render import build_view, render_html
from armybuilder.rules.engine import Evaluation

ROSTER = """\
format: 1
system: starship-marine
faction: earther
name: Veterans
selections:
  - entry: earther-squad
    name: 1st Squad
    selections:
      - entry: lieutenant
        name: Lt Hale
        state: {actions: 31, wounds: 2}
        selections: [{entry: marine-armour}, {entry: sca-2}]
      - entry: sergeant
        name: Sgt Kowalski
        state: {actions: 28, wounds: 1, hits: 1}
        selections: [{entry: marine-armour}, {entry: sca-3}]
      - {entry: corporal, selections: [{entry: marine-armour}, {entry: sca-3}]}
      - {entry: marine, count: 3, selections: [{entry: marine-armour}, {entry: sca-2}]}
  - entry: campaign-rules   # the record sets classes only with the campaign rules (part 4)
"""


def figure_rows(html: str) -> dict[str, str]:
    table = html.split('class="sm-figures"', 1)[1].split("</table>", 1)[0]
    rows = {}
    for row in table.split("<tr")[2:]:  # after the heading row
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        rows[re.sub(r"^\d+ ", "", cells[0].strip())] = row  # "1 Lt Hale": number and name
    return rows


def test_wounds_in_the_record_are_not_hits_in_this_battle(
    write_roster: Callable[[str, str], Path], evaluate_file: Callable[[Path], Evaluation]
) -> None:
    ev = evaluate_file(write_roster("veterans.yaml", ROSTER))
    assert [i.code for i in ev.issues if i.code.startswith("state-")] == []
    rows = figure_rows(render_html(build_view(ev)))
    # Veteran (4.7: 31 actions, 2 of them wounded, count 33): unhurt now, no hit box crossed.
    assert "Veteran" in rows["Lt Hale"]
    assert count_boxes(rows["Lt Hale"])[1] == 0
    # Hit once in this battle: one box crossed, whatever his record says.
    assert count_boxes(rows["Sgt Kowalski"])[1] == 1
