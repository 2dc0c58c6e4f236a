"""A unit's line in the roster tree keeps its totals whole and labelled in a narrow pane
(Pilot, headless, the painted rows read back). At 80x24 a Gaslands team's car read
"Car  20 Cans, 2 Bui": the totals cut at the pane's edge mid-word. The line now takes the
catalog's shorter forms of its cost (tests/tui/test_catalog_units.py, docs/tui.md: "20
Cans·2 Slots", "20C·2BS") before the name is cut with "…", and is cut at the edge only
where no form fits at all."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, at_sizes, run_async, sizes, wait_editor
from rich.cells import cell_len
from screen import normal, painted, pane_lines, tail_texts, tree_label

from armybuilder.catalog import Library
from armybuilder.session import EditSession, UnitSummary, cost_text, unit_summary
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.roster_tree import fit_head, fit_label

MakeApp = Callable[..., ArmyBuilderApp]
ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
# (CI: the Gaslands lines at 80x24, where they take their shorter forms; our two examples one
# size each; ARMYBUILDER_TUI_ALL=1: all at both sizes.)


@pytest.fixture(scope="module")
def gaslands(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not (BSDATA / "gaslands").is_dir():
        pytest.skip(f"the Gaslands BattleScribe data are not in {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA]).scan()
    mp.undo()


def two_cars(folder: Path, library: Library) -> Path:
    """A team of two Cars, each with an Armour Plating (cans and build slots)."""
    s = EditSession.new(library, "gaslands", "gaslands", "Team", autosave=False)
    for _ in range(2):
        car = next(c for c in s.options(()) if c.entry.name == "Car")
        loc = s.add((), s.option_id((), car))
        plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
        s.add(loc, s.option_id(loc, plating))
    path = s.save(folder / "team.yaml")
    s.close()
    return path


async def unit_rows(app: ArmyBuilderApp, pilot: Any) -> list[tuple[str, str, int]]:
    """Each unit row painted in the roster tree: (the row's label, the unit's full cost text,
    the cells its label has)."""
    editor = await wait_editor(pilot, timeout=60)
    await pilot.pause()
    await pilot.pause()
    s = editor.session
    assert s is not None
    ev = s.evaluate()
    tree = editor.roster_tree
    width = tree.scrollable_content_region.width
    lines = tree._tree_lines
    top = tree.scroll_offset.y
    out = []
    for y, raw in enumerate(pane_lines(app, tree)):
        if top + y >= len(lines):
            break
        loc = lines[top + y].path[-1].data
        node = ev.root
        for step in loc[1::2]:
            node = node.children[step]
        if node.entry is None or node.is_root or node.force is not None:
            continue
        budget = max(8, width - (len(loc) // 2) * tree.guide_depth - 2)
        out.append((tree_label(raw), unit_summary(ev, node).cost, budget))
    return out


def totals_problems(rows: list[tuple[str, str, int]]) -> list[str]:
    """Rows whose totals are not one of the cost's whole forms (cut mid-word, a number
    without its unit), or that were cut where a form leaves room for the name."""
    problems = []
    for label, cost, budget in rows:
        if not cost:
            continue
        forms = tail_texts([cost])
        if not any(label.endswith(f) for f in forms):
            problems.append(f"{label!r}: totals not one of {forms}")
        elif label.startswith(("Car…", "Ca…")) and any(
            cell_len("Car" + f) <= budget for f in forms
        ):
            problems.append(f"{label!r}: the name cut while {budget} cells hold a form")
    return problems


@pytest.mark.parametrize("size", sizes((80, 24)))
@run_async
async def test_gaslands_unit_lines_keep_their_totals(
    make_app: MakeApp, gaslands: Library, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(two_cars(tmp_path, gaslands), library=gaslands)
    async with app.run_test(size=size) as pilot:
        rows = await unit_rows(app, pilot)
        cars = [r for r in rows if r[0].startswith("Car")]
        assert len(cars) == 2 and totals_problems(rows) == [], rows
        assert all(r[0].endswith("  " + r[1]) for r in cars), cars  # (room: the full form)
        # The catalog widened while it has the focus: the roster pane narrows (19 cells at
        # 80x24, where the cars read "Car  16 Cans, 1 Bui").
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 1))
        await pilot.pause()
        await pilot.press("f4")
        await pilot.pause(0.2)
        await pilot.pause()
        rows = await unit_rows(app, pilot)
        cars = [r for r in rows if r[0].startswith("Car")]
        assert len(cars) == 2 and totals_problems(rows) == [], rows
        if size == (80, 24):
            # (a shorter form of the cost, the name whole)
            assert all(re.search(r"·|\d[A-Z]", r[0]) for r in cars), cars
            assert all(r[0].startswith("Car ") for r in cars), cars


@pytest.mark.parametrize(
    ("roster", "size"),
    at_sizes("infantry-ops/rifle-srm-platoon.yaml", "starmarines/starmarines-example.yaml"),
)
@run_async
async def test_our_example_unit_lines_keep_their_totals(
    make_app: MakeApp, roster: str, size: tuple[int, int]
) -> None:
    """(The platoon's force read "• Fo… · Reg  2,040" in the narrowed pane: its kg lost.)"""
    app = make_app(EXAMPLES / roster)
    async with app.run_test(size=size) as pilot:
        rows = await unit_rows(app, pilot)
        assert rows and totals_problems(rows) == [], rows
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 0))
        await pilot.pause()
        await pilot.press("f4")  # (the roster pane narrowed)
        await pilot.pause(0.2)
        await pilot.pause()
        rows = await unit_rows(app, pilot)
        assert rows and totals_problems(rows) == [], rows


def test_cost_forms_come_before_the_name_is_cut() -> None:
    """The label fitter on its own, at every budget: the totals are always one of the cost's
    whole forms, and the name is cut only where no form leaves room for it."""

    car = UnitSummary("Car", "", 1, "", ("Armour Plating",), "20 Cans, 2 Build Slots")
    forms = tail_texts([car.cost])
    said = {n: "".join(t for t, _ in fit_label(car, n)) for n in range(8, 50)}
    for n, label in said.items():
        assert any(label.endswith(f) for f in forms), (n, label)
        if label.startswith("Car") and not label.startswith("Car "):
            assert not any(cell_len("Car" + f) <= n for f in forms), (n, label)
        if cell_len("Car" + forms[-1]) <= n:
            assert cell_len(label) <= n, (n, label)
    assert said[19] == "Car 20 Cans·2 Slots"
    assert said[11] == "Car 20C·2BS"
    assert said[10] == "C… 20C·2BS"


def test_a_narrow_line_counts_every_piece_of_kit() -> None:
    """A Land Raider's line too narrow for its loadout says "4 kit" for its two lascannons,
    tracks and heavy bolter (the loadout counts the lascannons once: "GL×2,AT,THB")."""
    raider = UnitSummary(
        "Land Raider",
        "",
        1,
        "",
        ("Godhammer Lascannon ×2", "Armoured Tracks", "Twin heavy bolter"),
        "220 pts",
        4,
    )
    said = {n: "".join(t for t, _ in fit_label(raider, n)) for n in range(8, 60)}
    assert said[40] == "Land Raider · GL×2,AT,THB  220 pts"
    assert said[30] == "Land Raider · 4 kit  220 pts"


@pytest.mark.parametrize("size", sizes((80, 24)))
@run_async
async def test_the_roster_line_shortens_its_totals_before_its_name(
    make_app: MakeApp, gaslands: Library, tmp_path: Path, size: tuple[int, int]
) -> None:
    """The roster's own top line read "Road W…  29 Cans, 2 Build Slots" at 80x24 with the
    catalog widened: the name cut to six letters while the totals kept their long form. Now
    the totals take their shorter labelled forms first (as a unit line's cost does), and the
    name is cut only where even the tersest form leaves it no room."""
    s = EditSession.new(gaslands, "gaslands", "gaslands", "Road Warriors", autosave=False)
    for _ in range(2):
        car = next(c for c in s.options(()) if c.entry.name == "Car")
        loc = s.add((), s.option_id((), car))
        plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
        s.add(loc, s.option_id(loc, plating))
    path = s.save(tmp_path / "team.yaml")
    s.close()
    app = make_app(path, library=gaslands)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        for widen in (False, True):
            if widen:
                editor.jump_to(("selections", 1))
                await pilot.pause()
                await pilot.press("f4")  # (the catalog widened: the roster pane narrows)
                await pilot.pause(0.2)
            await pilot.pause()
            await pilot.pause()
            session = editor.session
            assert session is not None
            ev = session.evaluate()
            totals = cost_text(ev, ev.totals, limits=True)
            tree = editor.roster_tree
            top = tree_label(pane_lines(app, tree)[0])
            width = tree.scrollable_content_region.width - 2  # (less the arrow)
            forms = tail_texts([totals])
            assert any(top.endswith(f) for f in forms), (top, forms)
            name = "Road Warriors"
            if any(cell_len(name + f) <= width for f in forms):
                assert top.startswith(name), (widen, width, top, forms)
            elif any(cell_len(name[:7] + "…" + f) <= width for f in forms):
                assert re.match(r"Road W\w+…", top), (widen, width, top, forms)


def test_head_totals_shorten_before_the_name_is_cut() -> None:
    """The roster's (and a force's) line fitter on its own, at every budget: the totals are
    always one of their whole forms, the name whole wherever a form leaves room for it, and
    cut below eight cells only where even the tersest form leaves no more."""
    name, totals = "Road Warriors", "29 Cans, 2 Build Slots"
    forms = tail_texts([totals])
    for n in range(10, 50):
        for lead in (0, 2):
            head, tail = fit_head(name, "  " + totals, n, lead)
            assert tail in forms, (n, lead, head, tail)
            if any(cell_len(name + f) <= n - lead for f in forms):
                assert head == name, (n, lead, head, tail)
            elif cell_len(forms[-1]) + 8 <= n - lead:
                assert cell_len(head) >= 8 and head.endswith("…"), (n, lead, head, tail)
    assert "".join(fit_head(name, "  " + totals, 31)) == "Road Warriors 29 Cans·2 Slots"
    assert "".join(fit_head(name, "  " + totals, 16)) == "Road Wa… 29C·2BS"


@run_async
async def test_a_price_shows_no_zero_cost_type(
    make_app: MakeApp, gaslands: Library, tmp_path: Path
) -> None:
    """A bare Car costs 12 Cans and no Build Slot: its tree line, the catalog and the details
    pane all read "12 Cans" (as show and the PDF print it), never "12 Cans, 0 Build Slots";
    the roster's totals keep both cost types."""
    s = EditSession.new(gaslands, "gaslands", "gaslands", "Road Warriors", autosave=False)
    car = next(c for c in s.options(()) if c.entry.name == "Car")
    loc = s.add((), s.option_id((), car))
    plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
    s.add(loc, s.option_id(loc, plating))
    s.add((), s.option_id((), car))
    path = s.save(tmp_path / "team.yaml")
    s.close()
    app = make_app(path, library=gaslands)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        editor.jump_to(("selections", 2))  # (the bare Car)
        await pilot.pause(0.2)
        await pilot.pause()
        rows = painted(app)
        head = [normal(t) for t in pane_lines(app, editor.details.query_one("#d-head"), rows)]
        assert any(line.strip() == "12 Cans" for line in head), head
        tree = [tree_label(t) for t in pane_lines(app, editor.roster_tree, rows)]
        assert tree[0].endswith("28 Cans, 1 Build Slot"), tree
        assert "Car  12 Cans" in tree, tree
        assert not [r for r in rows if "0 Build Slots" in r], rows
