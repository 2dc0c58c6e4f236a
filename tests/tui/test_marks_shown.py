# ruff: noqa: E501  (the data files are written as BattleScribe writes them: one element a line)
"""A catalog text's emphasis marks are styles on screen, never shown (issue 18).

The 40k data marks words in its characteristics and rule texts: ``**^^Adeptus Astartes^^**``
(a keyword, bold), ``*Designer's Note*``. The catalog's preview and the details pane printed
the marks as they are. Now the words are drawn bold (italic for ``*…*``) and the marks are
gone; a mark that is not one of a pair (``0**/0``, a footnote) and a name with stars print as
written. Read from the painted screen (Pilot), styles included; a small catalogue written
here, so the test needs no shared data.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from rich.cells import cell_len
from screen import pane_lines
from test_screen_model import settle

from armybuilder.catalog import Library

GST = """<?xml version="1.0" encoding="UTF-8"?>
<gameSystem id="sys-1" name="Tiny" revision="1" xmlns="http://www.battlescribe.net/schema/gameSystemSchema">
  <costTypes><costType id="pts" name="pts" defaultCostLimit="-1"/></costTypes>
  <profileTypes>
    <profileType id="ab" name="Abilities">
      <characteristicTypes><characteristicType id="a1b2-0001" name="Description"/></characteristicTypes>
    </profileType>
    <profileType id="kw" name="Keywords">
      <characteristicTypes><characteristicType id="a1b2-0002" name="Keywords"/><characteristicType id="a1b2-0003" name="Range"/></characteristicTypes>
    </profileType>
  </profileTypes>
  <forceEntries><forceEntry id="f1" name="Army"/></forceEntries>
</gameSystem>
"""

CAT = """<?xml version="1.0" encoding="UTF-8"?>
<catalogue id="cat-1" name="Army" gameSystemId="sys-1" revision="1" xmlns="http://www.battlescribe.net/schema/catalogueSchema">
  <selectionEntries>
    <selectionEntry id="captain" name="Captain" type="model" hidden="false">
      <profiles>
        <profile id="p-ab" name="Rites" typeId="ab" hidden="false">
          <characteristics><characteristic name="Description" typeId="a1b2-0001">Each time a **^^Psyker^^** unit is chosen, *roll* a D6.</characteristic></characteristics>
        </profile>
        <profile id="p-kw" name="Captain" typeId="kw" hidden="false">
          <characteristics><characteristic name="Keywords" typeId="a1b2-0002">^^**Adeptus Astartes^^**, Infantry</characteristic><characteristic name="Range" typeId="a1b2-0003">0**/0</characteristic></characteristics>
        </profile>
      </profiles>
      <costs><cost name="pts" typeId="pts" value="80"/></costs>
    </selectionEntry>
    <selectionEntry id="star" name="Gun **Star**" type="model" hidden="false">
      <costs><cost name="pts" typeId="pts" value="5"/></costs>
    </selectionEntry>
  </selectionEntries>
</catalogue>
"""

ROSTER = "name: T\nsystem: tiny\nfaction: army\nselections:\n  - entry: captain\n"


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Library]:
    folder = tmp_path / "data" / "tiny"
    folder.mkdir(parents=True)
    (folder / "tiny.gst").write_text(GST, encoding="utf-8")
    (folder / "army.cat").write_text(CAT, encoding="utf-8")
    roster = tmp_path / "t.yaml"
    roster.write_text(ROSTER, encoding="utf-8")
    return roster, Library([folder.parent], use_cache=False).scan()


def styled_cells(app: Any, widget: Any) -> list[list[tuple[str, Any]]]:
    """The painted cells (character, Rich style) of a widget's content region."""
    update = app.screen._compositor.render_full_update()
    region = widget.scrollable_content_region
    out = []
    for y in range(region.y, region.bottom):
        cells: list[tuple[str, Any]] = []
        for strip in update.strips[y]:  # (a row: the strips of the widgets across it)
            for seg in strip:
                for ch in seg.text:  # (a cell each; a wide character's second is empty)
                    cells.extend([(ch, seg.style), ("", seg.style)][: cell_len(ch)])
        out.append(cells[region.x : region.right])
    return out


def style_of(cells: list[list[tuple[str, Any]]], word: str) -> Any:
    """The style of the first character of ``word`` where it is painted (it must be)."""
    for row in cells:
        text = "".join(ch for ch, _ in row)
        at = text.find(word)
        if at >= 0:
            return row[at][1]
    raise AssertionError(f"{word!r} is not painted: {[''.join(c for c, _ in r) for r in cells]}")


def check_marked(app: Any, widget: Any) -> None:
    lines = pane_lines(app, widget)
    text = " ".join(" ".join(lines).split())
    assert "Each time a Psyker unit is chosen, roll a D6." in text, lines
    assert "Adeptus Astartes, Infantry" in text, lines
    assert "^^" not in text, lines
    assert "0**/0" in text, lines  # (a lone mark: a footnote, printed as written)
    cells = styled_cells(app, widget)
    assert style_of(cells, "Psyker").bold
    assert style_of(cells, "Adeptus").bold
    assert style_of(cells, "roll").italic
    assert not style_of(cells, "Each time").bold
    assert not style_of(cells, "Infantry").bold


@run_async
async def test_the_catalog_preview_styles_the_marks(
    make_app: Any, tiny: tuple[Path, Library]
) -> None:
    path, library = tiny
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("f4")
        await settle(pilot, editor)
        preview = app.screen.query_one("#catalog-preview")
        await wait_for(pilot, lambda: "Psyker" in " ".join(pane_lines(app, preview)))
        check_marked(app, preview)
        await pilot.press("down")
        await settle(pilot, editor)
        await wait_for(pilot, lambda: "Star" in " ".join(pane_lines(app, preview)))
        assert "Gun **Star**" in " ".join(pane_lines(app, preview))  # (a name is as written)


@run_async
async def test_the_details_pane_styles_the_marks(make_app: Any, tiny: tuple[Path, Library]) -> None:
    path, library = tiny
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        captain = next(
            n
            for n in session.evaluate().nodes()
            if n.entry is not None and n.entry.name == "Captain" and not n.is_root
        )
        editor.jump_to(captain.loc)
        await settle(pilot, editor)
        details = app.screen.query_one("#d-loadout")
        await wait_for(pilot, lambda: "Psyker" in " ".join(pane_lines(app, details)))
        check_marked(app, details)
