"""Forces in the builder: a roster of several forces shows each force as a top-level line of
the roster tree, with its units under it; `t` adds a force (a dialog asks which force entry,
which faction and what name), `T` (or Delete on a force's line) removes it, `r` renames it.
Every row painted is compared with what the session computes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from conftest import run_async, wait_editor, wait_for
from screen import check_tree_lines, painted, pane_lines
from textual.pilot import Pilot

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.dialogs import AddForceScreen, RenameScreen
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


def tree_rows(app: ArmyBuilderApp, editor: EditorScreen) -> tuple[list[str], list[Any]]:
    rtree = editor.roster_tree
    top = rtree.scroll_offset.y
    lines = rtree._tree_lines
    locs = [
        lines[y].path[-1].data if y < len(lines) else None
        for y in range(top, top + rtree.scrollable_content_region.height)
    ]
    return pane_lines(app, rtree, painted(app)), locs


def tree_problems(app: ArmyBuilderApp, editor: EditorScreen) -> list[str]:
    assert editor.session is not None
    ev = editor.session.evaluate()
    rows, locs = tree_rows(app, editor)
    rtree = editor.roster_tree
    shown = [line.path[-1].data for line in rtree._tree_lines]
    return check_tree_lines(
        rows, locs, ev, rtree.scrollable_content_region.width, rtree.guide_depth, shown
    )


async def settle(pilot: Pilot[Any], editor: EditorScreen) -> None:
    s = editor.session
    assert s is not None
    await wait_for(pilot, lambda: editor.shown_generation == s.evaluation_generation)
    await wait_for(pilot, lambda: s.evaluation_is_current)
    await pilot.pause()


@run_async
async def test_forces_are_top_level_lines_added_and_removed_with_keys(
    make_app: MakeApp, workdir: Any
) -> None:
    path = workdir / "patrol.yaml"
    before = path.read_text(encoding="utf-8")
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("t")
        await wait_for(pilot, lambda: isinstance(app.screen, AddForceScreen))
        await pilot.press(*"Reserve", "enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await settle(pilot, editor)
        assert s.roster.forces is not None
        assert [f.name for f in s.roster.forces] == [None, "Reserve"]
        rows, locs = tree_rows(app, editor)
        assert [loc for loc in locs if loc is not None][:3] == [
            (),
            ("forces", 0),
            ("forces", 0, "selections", 0),
        ]
        assert ("forces", 1) in locs
        force_rows = [
            r.strip() for r, loc in zip(rows, locs, strict=False) if loc and len(loc) == 2
        ]
        # Demo Wars 1.1: a patrol needs one HQ, which the new force lacks (its error mark).
        assert force_rows[0].endswith("⚑ Patrol  82 pts")  # the units of the file before
        assert force_rows[1].endswith("✖ ⚑ Reserve (Patrol)  0 pts")
        assert tree_problems(app, editor) == []
        # Rename the new force (r on its line), move it up, then remove it with T.
        editor.jump_to(("forces", 1))
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RenameScreen))
        await pilot.press("ctrl+a", *"Rear", "enter")  # (ctrl+a: to the start of the field)
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await settle(pilot, editor)
        assert s.force_at(("forces", 1)) is not None
        assert [f.name for f in s.roster.all_forces()] == [None, "RearReserve"]
        await pilot.press("ctrl+up")
        await settle(pilot, editor)
        assert [f.name for f in s.roster.all_forces()] == ["RearReserve", None]
        assert tree_problems(app, editor) == []
        assert editor.selected == ("forces", 0)
        await pilot.press("T")
        await settle(pilot, editor)
        assert [f.name for f in s.roster.all_forces()] == [None]
        assert tree_problems(app, editor) == []
        # Each was one step: undoing all four gives the file back as it was.
        for _ in range(4):
            await pilot.press("ctrl+z")
            await settle(pilot, editor)
        assert s.roster.dumps() == before
        assert tree_problems(app, editor) == []


@run_async
async def test_roster_and_force_lines_keep_their_cost_at_80x24(
    make_app: MakeApp, workdir: Any
) -> None:
    """At 80x24 the roster tree has 34 columns: a force's title or the roster's name gives way
    (cut with "…"), never its cost, which was cut off at the pane's edge ("53.5 / 5" for
    53.5 / 50 BP, a force's cost not shown at all)."""
    import shutil

    from conftest import EXAMPLES

    from armybuilder.session import cost_text

    path = workdir / "two-fronts.yaml"
    shutil.copy(EXAMPLES / "starship-troopers" / "two-fronts.yaml", path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        s.rename_force(("forces", 0), "The long northern landing zone")
        s.rename((), "Two fronts on the far side of Klendathu")
        editor.after_edit()
        await settle(pilot, editor)
        ev = s.evaluate()
        rows, locs = tree_rows(app, editor)
        by_loc = {loc: r.rstrip() for r, loc in zip(rows, locs, strict=False) if loc is not None}
        root = by_loc[()]
        assert root.endswith("  " + cost_text(ev, ev.totals, limits=True)), root
        assert "Two fronts on" in root and "…" in root
        for i, force in enumerate(ev.root.children):
            line = by_loc[("forces", i)]
            assert line.endswith("  " + cost_text(ev, ev.total_cost(force))), line
        assert "⚑ The long" in by_loc[("forces", 0)]
        assert tree_problems(app, editor) == []
