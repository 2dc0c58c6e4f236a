"""The catalog's lines as a person reads them: a name too long for the pane ends in "…" where
it is cut, whether or not a price follows it (a line cut without one reads as a whole, shorter
name), and the search finds a name whatever its case and accents ("eldar" finds "Éldar").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import check_catalog_rows, expected_catalog_rows, painted, pane_lines, tree_label
from tiny_library import tiny_library

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.settings import Settings
from armybuilder.tui.widgets.catalog import fold

SYSTEM = """
kind: system
id: names
name: Names
cost_types:
  - {id: pts, name: Points, unit: pts}
forces:
  - {id: patrol, name: Patrol}
"""

LONG = "Banner of the Unbroken Ancestral Legion of the Far Marches"
PRICED = "Standard of the Unbroken Ancestral Legion of the Far Marches"
GROUP = "Relics of the Ancestral Chapters of the Eastern Reaches"

ARMY = f"""
kind: catalog
id: army
system: names
name: Army
entries:
  - id: squad
    name: Squad
    type: unit
    costs: {{pts: 10}}
    entries:
      - {{id: banner, name: {LONG}, type: upgrade}}
      - {{id: standard, name: {PRICED}, type: upgrade, costs: {{pts: 15}}}}
      - {{id: ranger, name: Éldar Ranger, type: upgrade, costs: {{pts: 5}}}}
      - {{id: gun, name: Über Gun, type: upgrade, costs: {{pts: 3}}}}
      - {{id: plain-eldar, name: ELDAR Scout, type: upgrade, costs: {{pts: 4}}}}
      - {{id: knife, name: Knife, type: upgrade}}
    groups:
      - id: relics
        name: {GROUP}
        min: 0
        max: 1
        entries:
          - {{id: skull, name: Skull of the Last Ancestor of the Eastern Reaches, type: upgrade}}
          - {{id: cup, name: Cup, type: upgrade, costs: {{pts: 1}}}}
"""

ROSTER = """system: names
faction: army
name: Long names
selections:
  - entry: squad
"""

SQUAD = ("selections", 0)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    return tiny_library(tmp_path_factory.mktemp("catalogs"), SYSTEM, ARMY, folder="names")


def catalog_lines(app: ArmyBuilderApp, editor: EditorScreen) -> list[str]:
    tree = editor.catalog.catalog_tree
    return pane_lines(app, tree, painted(app))


async def open_squad(pilot: Any, editor: EditorScreen) -> None:
    editor.jump_to(SQUAD)
    await pilot.pause()
    await pilot.press("f4")  # the catalog, widened with the focus on a small terminal
    await pilot.pause()
    await wait_for(pilot, lambda: bool(editor.catalog._leaves()))


def test_fold_drops_case_and_accents() -> None:
    assert fold("Éldar") == fold("ELDAR") == fold("eldar") == "eldar"
    assert fold("Über") == "uber"
    assert fold("Straße") == "strasse"
    assert fold("ﬁre") == "fire"  # (a ligature: its compatibility form)
    assert fold("plain ascii 42") == "plain ascii 42"


@run_async
async def test_a_long_name_is_cut_with_an_ellipsis_at_80x24(tmp_path: Path, lib: Library) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        await open_squad(pilot, editor)
        session = editor.session
        assert session is not None
        tree = editor.catalog.catalog_tree
        width = tree.content_region.width
        assert width < len(LONG), "the pane must be narrower than the long name"
        lines = catalog_lines(app, editor)
        rows = expected_catalog_rows(session, SQUAD)
        assert not check_catalog_rows(lines, rows, tree.scroll_offset.y, width), lines
        shown = {tree_label(line) for line in lines}
        # The name alone (no price): cut at the pane's edge, with "…".
        banner = [t for t in shown if t.startswith("Banner")]
        assert len(banner) == 1 and banner[0].endswith("…"), lines
        assert LONG.startswith(banner[0][:-1].rstrip())
        # A name with a price: cut before it, the price whole, in the list's one form of
        # prices (the fullest, "  15 pts": its own name, cut whatever the form, does not set
        # it; the other names are whole beside their prices in it).
        standard = [t for t in shown if t.startswith("Standard")]
        assert len(standard) == 1 and standard[0].endswith("…  15 pts"), lines
        # The heading: its name cut, its range whole.
        heading = [t for t in shown if t.startswith("Relics")]
        assert len(heading) == 1 and heading[0].endswith("… (0-1) 0/1"), lines
        skull = [t for t in shown if t.startswith("Skull")]
        assert len(skull) == 1 and skull[0].endswith("…"), lines
        for line in lines:
            assert len(line.rstrip()) <= width, line


@run_async
async def test_the_search_ignores_case_and_accents(tmp_path: Path, lib: Library) -> None:
    path = tmp_path / "long.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    app = ArmyBuilderApp(path, library=lib, cwd=tmp_path, settings=Settings())
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await open_squad(pilot, editor)
        catalog = editor.catalog
        catalog.search.focus()
        await pilot.pause()
        # Typed plain, typed accented or in capitals: the same entries, accented or not.
        for typed, want in [
            ("eldar", ["ranger", "plain-eldar"]),
            ("ÉLDAR", ["ranger", "plain-eldar"]),
            ("uber", ["gun"]),
            ("über", ["gun"]),
            ("UBER G", ["gun"]),
            ("ëldär sc", ["plain-eldar"]),
        ]:
            if catalog.search.value:
                await pilot.press("escape")  # (clears the search; with none, leaves)
            for ch in typed:
                await pilot.press("space" if ch == " " else ch)
            await pilot.pause()
            assert catalog.search.value == typed
            assert [leaf.data for leaf in catalog._leaves()] == want, typed
            session = editor.session
            assert session is not None
            tree = catalog.catalog_tree
            rows = expected_catalog_rows(session, SQUAD, typed)
            lines = catalog_lines(app, editor)
            width = tree.content_region.width
            assert not check_catalog_rows(lines, rows, tree.scroll_offset.y, width), lines
