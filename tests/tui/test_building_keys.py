"""Building with the builder: a formation at standard strength in one key, names in series,
split and merge (armybuilder.building), checked on what the panes show."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from screen import pane_lines, tree_label
from test_screen_model import screen_problems, settle
from textual.pilot import Pilot

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


def empty_roster(folder: Path, library: Library, system: str, faction: str) -> Path:
    path = folder / f"{faction}.yaml"
    s = EditSession.new(library, system, faction, f"Empty {faction}", autosave=False)
    s.save(path)
    return path


def roster_labels(app: ArmyBuilderApp, editor: EditorScreen) -> list[str]:
    return [tree_label(line) for line in pane_lines(app, editor.roster_tree) if line.strip()]


async def press_counted(pilot: Pilot[Any], keys: list[str], pressed: list[str]) -> None:
    for key in keys:
        pressed.append(key)
        await pilot.press(key)


@run_async
async def test_marine_group_at_standard_strength_in_five_keys(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    """From an empty Earther roster: F4, down to Marine Group, s. The group arrives with its
    HQ and three squads named in series, legal (no error, no warning), in at most 5 keys;
    the panes show what the session computes (Starship Marine 5.1, order of battle)."""
    path = empty_roster(workdir, full_library, "starship-marine", "earther")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        pressed: list[str] = []
        await press_counted(pilot, ["f4"], pressed)
        while editor.catalog.highlighted() != "earther-group":
            assert len(pressed) < 5, (pressed, editor.catalog.highlighted())
            await press_counted(pilot, ["down"], pressed)
        await press_counted(pilot, ["s"], pressed)
        await settle(pilot, editor)
        assert len(pressed) <= 5, pressed
        ev = s.evaluation
        assert ev is not None
        assert [i.message for i in ev.issues] == []
        group = ev.root.children[0]
        assert group.entry is not None and group.entry.id == "earther-group"
        names = [ev.name(c) for c in group.children]
        assert names == ["Group HQ", "1st Marine Squad", "2nd Marine Squad", "3rd Marine Squad"]
        squad = group.children[1]
        counts = {c.entry.id: c.count for c in squad.children if c.entry is not None}
        assert counts == {
            "lieutenant": 1,
            "sergeant": 1,
            "corporal": 1,
            "marine": 6,
            "combat-robot": 2,
        }
        assert s.undo_label == "Add standard Marine Group"
        problems = screen_problems(app, editor)
        assert not problems, problems
        # Trim it: one undo takes the whole group away again.
        await pilot.press("ctrl+z")
        await settle(pilot, editor)
        assert s.evaluation is not None and s.evaluation.root.children == []


@run_async
async def test_split_merge_and_series_from_the_keys(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    """x splits the selected Marine ×6 into six lines the tree shows; m merges them back;
    d on 3rd Marine Squad makes 4th Marine Squad; each one Ctrl+Z; the panes match the
    session after each step."""
    path = empty_roster(workdir, full_library, "starship-marine", "earther")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("f4")
        while editor.catalog.highlighted() != "earther-squad":
            await pilot.press("down")
        await pilot.press("s", "f3")
        await settle(pilot, editor)
        marines = ("selections", 0, "selections", 3)
        editor.jump_to(marines)
        await pilot.pause()
        await pilot.press("x")
        await settle(pilot, editor)
        labels = roster_labels(app, editor)
        assert sum(1 for x in labels if x.startswith("Marine · ")) == 6, labels
        assert not screen_problems(app, editor)
        await pilot.press("m")
        await settle(pilot, editor)
        labels = roster_labels(app, editor)
        assert any(x.startswith("Marine ×6") for x in labels), labels
        assert s.count_of(marines) == 6
        assert not screen_problems(app, editor)
        editor.jump_to(("selections", 0))
        await pilot.pause()
        await pilot.press("d")
        await settle(pilot, editor)
        assert any(x.startswith("2nd Marine Squad") for x in roster_labels(app, editor))
        for _ in range(3):
            await pilot.press("ctrl+z")
        await settle(pilot, editor)
        assert s.count_of(marines) == 6 and len(s.children_locs(())) == 1
        assert not screen_problems(app, editor)


@run_async
async def test_summary_shows_what_the_overview_computes(make_app: MakeApp, workdir: Path) -> None:
    """g opens the list at a glance: every line the overview computes is on screen (slots
    against their limits, cost per slot, the minimum not met, the full HQ slot marked); after
    an edit it shows the new figures (Demo Wars 1.1: one HQ, up to four troops)."""
    from armybuilder.overview import overview

    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("g")
        await pilot.pause()
        assert app.screen.id == "summary"
        shown = [x.strip() for x in pane_lines(app, app.screen.query_one("#summary-text"))]
        want = [x.strip() for x in overview(s).lines()]
        assert shown == want
        assert "HQ: 1 (exactly 1) · 22 pts" in shown
        assert "Troops: 2 (0-4) · 60 pts" in shown
        assert "Captain: the HQ slot is full (1/1)" in shown
        assert any("Bravo has 2 × Model; at least 3 needed" in x for x in shown)
        await pilot.press("escape")
        await pilot.pause()
        # Remove the HQ: the slot is now short, and the captain can be added again.
        editor.jump_to(("selections", 0))
        await pilot.press("f3", "delete")
        await settle(pilot, editor)
        await pilot.press("f9")
        await pilot.pause()
        shown = [x.strip() for x in pane_lines(app, app.screen.query_one("#summary-text"))]
        assert shown == [x.strip() for x in overview(s).lines()]
        assert "HQ: 0 (exactly 1) · 0 pts  ✖ 1 short" in shown
        assert "Cannot be added now:" in shown and shown[-1] == "nothing"


@run_async
async def test_tree_tools_expand_collapse_and_sort(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    """e shows every selection of the roster, c only the top level; n sorts the selected
    unit's contents by name and o back in the catalog's order, each one Ctrl+Z; the tree
    rows match the session (names in the new order)."""
    path = empty_roster(workdir, full_library, "starship-marine", "earther")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("f4")
        while editor.catalog.highlighted() != "earther-squad":
            await pilot.press("down")
        await pilot.press("s", "s", "f3")
        await settle(pilot, editor)
        ev = s.evaluation
        assert ev is not None
        await pilot.press("e")
        await pilot.pause()
        everything = sum(1 for _ in ev.root.walk())
        tree = editor.roster_tree
        assert tree.last_line + 1 == everything  # every selection has its line
        assert len(roster_labels(app, editor)) == min(everything, tree.size.height)
        await pilot.press("c")
        await pilot.pause()
        assert roster_labels(app, editor) == ["Empty earther", "Marine Squad", "Marine Squad"]
        editor.jump_to(("selections", 0))
        await pilot.pause()
        await pilot.press("e", "n")
        await settle(pilot, editor)
        labels = roster_labels(app, editor)
        kids = [ev.name(c) for c in s.evaluate().root.children[0].children]
        assert kids == sorted(kids, key=str.casefold)
        # (the units open before the sort stay open, each with its contents under it: their
        # lines are the tree's lines of the unit's children, in the new order; the rows
        # painted are checked against the session by screen_problems)
        assert labels[1].startswith("Marine Squad")
        lines = [tree.find(("selections", 0, "selections", i)) for i in range(len(kids))]
        assert [line.parent for line in lines if line is not None] == [
            tree.find(("selections", 0))
        ] * len(kids)
        assert [ln.label.plain.split(" ·")[0].split(" ×")[0] for ln in lines if ln] == kids
        assert labels[2].split(" ·")[0].split(" ×")[0] == kids[0]
        assert not screen_problems(app, editor)
        await pilot.press("o")
        await settle(pilot, editor)
        kids = [ev.name(c) for c in s.evaluate().root.children[0].children]
        assert kids[:3] == ["Lieutenant", "Sergeant", "Corporal"]
        assert not screen_problems(app, editor)


@run_async
async def test_find_everywhere_adds_where_chosen(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    """f, then a name: the hits are every place the roster can take the entry (as
    find_everywhere computes them); Enter adds it at the highlighted place; Esc clears and
    closes without adding anything."""
    from textual.command import CommandPalette

    from armybuilder import building

    path = empty_roster(workdir, full_library, "space-hulk", "terminators")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("f4", "s", "f3")
        await settle(pilot, editor)
        generation = s.generation
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"chainfist")
        await pilot.pause(0.5)
        places = building.find_everywhere(s, "chainfist")
        assert [p.where for p in places][:2] == [
            "Sergeant in Terminator Squad",
            "Terminator in Terminator Squad",
        ]
        shown = " ".join(x.strip() for x in __import__("screen").painted(app))
        for p in places[:3]:
            assert f"Chainfist → {p.where}" in shown, (p.where, shown[:400])
        await pilot.press("escape", "escape")
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette) and s.generation == generation
        await pilot.press("f")
        await pilot.pause()
        await pilot.press(*"chainfist")
        await pilot.pause(0.5)
        await pilot.press("down", "enter")
        await settle(pilot, editor)
        squad = ("selections", 0)
        added = [
            (member, loc)
            for member in s.children_locs(squad)
            for loc in s.children_locs(member)
            if s.node(loc)["entry"] == "chainfist"
        ]
        assert len(added) == 1, "one chainfist, added at the place chosen"
        assert s.generation == generation + 1
        assert not screen_problems(app, editor)


@run_async
async def test_summary_says_working_until_the_roster_as_it_is_now_is_checked(
    make_app: MakeApp, workdir: Path
) -> None:
    """With validation in a worker (a large roster: here forced by a zero budget and a
    worker held back), g right after an edit shows a working state, never the figures from
    before the edit; they come in when the worker is done (Demo Wars 1.1: up to 4 troops)."""
    import threading

    from armybuilder.overview import overview
    from armybuilder.tui.screens.summary import WORKING

    app = make_app(workdir / "patrol.yaml", sync_budget_ms=0.0)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await wait_for(pilot, lambda: s.evaluation_is_current and not editor._eval_running)
        gate = threading.Event()
        checked = s.evaluate_snapshot

        def held(*args: Any, **kw: Any) -> Any:
            gate.wait(10)
            return checked(*args, **kw)

        s.evaluate_snapshot = held  # type: ignore[method-assign]
        editor.jump_to(("selections", 1))
        await pilot.press("f3", "d")  # a third squad: Troops 3
        await wait_for(pilot, lambda: len(s.children_locs(())) == 4)
        await pilot.press("g")
        await wait_for(pilot, lambda: app.screen.id == "summary")
        await pilot.pause()
        shown = " ".join(x.strip() for x in pane_lines(app, app.screen.query_one("#summary-text")))
        assert shown == WORKING
        gate.set()
        want = [x.strip() for x in overview(s, s.evaluate()).lines()]
        assert "Troops: 3 (0-4) · 90 pts" in want

        def figures() -> list[str]:
            return [x.strip() for x in pane_lines(app, app.screen.query_one("#summary-text"))]

        await wait_for(pilot, lambda: figures() == want)


@run_async
async def test_find_everywhere_takes_words_however_spaced(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    """f, then "storm  bolter" typed with two spaces (or a tab): the same hits as "storm
    bolter", every place the roster can take the Storm Bolter, shown in the palette."""
    from textual.command import CommandPalette

    from armybuilder import building

    path = empty_roster(workdir, full_library, "space-hulk", "terminators")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        await pilot.press("f4", "s", "f3")
        await settle(pilot, editor)
        single = building.find_everywhere(s, "storm bolter")
        assert single and all(p.name == "Storm Bolter" for p in single)
        for typed in ("storm  bolter", "Storm\tBolter", " storm \u00a0 bolter "):
            assert building.find_everywhere(s, typed) == single, typed
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"storm", "space", "space", *"bolter")
        await pilot.pause(0.5)
        shown = " ".join(x.strip() for x in __import__("screen").painted(app))
        assert "storm  bolter" in shown  # what was typed, two spaces and all
        for p in single[:3]:
            assert f"Storm Bolter → {p.where}" in shown, (p.where, shown[:400])
