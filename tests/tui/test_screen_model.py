"""The screen against the model: what the panes paint is what the session computes.

The panes are read from the compositor (``screen.painted``), i.e. the rows the terminal
receives, stale rows included; the expectations come from the session (``screen.expected_*``).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import (
    Terminal,
    catalog_target,
    check_catalog_headings,
    check_catalog_lines,
    check_tree_lines,
    expected_catalog,
    expected_head,
    expected_heading_parts,
    expected_issue_text,
    node_at,
    normal,
    own_issue_texts,
    painted,
    pane_lines,
    totals_problems,
)
from textual.pilot import Pilot

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen

MakeApp = Callable[..., ArmyBuilderApp]


def catalog_problems(app: ArmyBuilderApp) -> list[str]:
    editor = app.screen
    session = editor.session  # type: ignore[attr-defined]
    tree = editor.catalog.catalog_tree  # type: ignore[attr-defined]
    lines = pane_lines(app, tree)
    return check_catalog_lines(
        lines,
        expected_catalog(session, editor.selected),
        tree.content_region.width,  # type: ignore[attr-defined]
    )


@pytest.mark.parametrize(
    "roster",
    ["space-hulk/standard-squad.yaml", "starship-marine/earther-regiment.yaml"],
)
@run_async
async def test_catalog_follows_the_tree_without_focus(make_app: MakeApp, roster: str) -> None:
    """Issue 12, item 1: moving through the roster tree (the catalog not focused) must not
    leave lines of another unit's options in the catalog pane."""
    app = make_app(EXAMPLES / roster)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        tree = editor.roster_tree
        tree.focus()
        await pilot.pause()
        seen = 0
        for _ in range(40):
            await pilot.press(
                "right"
                if tree.cursor_node
                and tree.cursor_node.allow_expand
                and not tree.cursor_node.is_expanded
                else "down"
            )
            await pilot.pause()
            problems = catalog_problems(app)
            assert not problems, (editor.selected, problems)
            seen += 1
        assert seen


@run_async
async def test_details_group_list_after_another_unit(make_app: MakeApp) -> None:
    """Issue 12, item 1: a unit's "Weapons (any number)" list is painted again after another
    kind of unit was shown (it stayed blank: the new widget was taken for the old one)."""
    app = make_app(EXAMPLES / "starship-troopers/mi-squad.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        for key in ["down", "right", "down"]:  # the squad, expanded, its troopers
            await pilot.press(key)
            await pilot.pause()
        assert editor.selected == ("selections", 0, "selections", 0)
        for key in ["up", "down", "up", "down"]:
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
        text = "\n".join(pane_lines(app, editor.details))
        assert "Weapons (any number)" in text
        # The group's heading (with how many are chosen), then the list of what is chosen.
        lines = [line for line in text.splitlines() if line.strip()]
        at = next(i for i, line in enumerate(lines) if line.startswith("Weapons (any number)"))
        after = lines[at + 1]
        assert "Morita Assault Rifle" in after, text


# --------------------------------------------------------------------------- the property


ALL_ROSTERS = sorted(str(p.relative_to(EXAMPLES)) for p in EXAMPLES.glob("*/*.yaml"))
#: The rosters walked: one of each shape (every system; one squad kind and two; a force of
#: several units and a lone one; units typed into the roster; two forces), chosen so that
#: their walks press every kind of step the walks of all the examples press (see
#: test_the_walks_press_every_kind_of_step). ARMYBUILDER_SCREEN_ALL=1 walks every example.
WALKED = [
    "infantry-ops/rifle-srm-platoon.yaml",
    "space-hulk/squad-with-librarian.yaml",
    "starmarines/starmarines-example.yaml",
    "starship-marine/earther-regiment.yaml",
    "starship-marine/ships-company.yaml",
    "starship-troopers/arachnid-swarm.yaml",
    "starship-troopers/mi-with-own-units.yaml",
    "starship-troopers/two-fronts.yaml",
]
ROSTERS = ALL_ROSTERS if os.environ.get("ARMYBUILDER_SCREEN_ALL") else WALKED
#: Steps per roster: enough to reach new units and edit them, small enough for CI (set
#: ARMYBUILDER_SCREEN_STEPS for a longer walk, ARMYBUILDER_SCREEN_SEED for another one).
STEPS = int(os.environ.get("ARMYBUILDER_SCREEN_STEPS", "6"))
SEED = os.environ.get("ARMYBUILDER_SCREEN_SEED", "")
MOVES = ["down", "down", "down", "up", "right", "right", "left"]
EDITS = ["add", "delete", "d", "ctrl+z", "ctrl+y", "plus", "minus"]
#: Steps that change what is on screen without an edit: a dialog or screen over the editor
#: opened and closed (the list at a glance, export as text, help, save as, close with unsaved
#: changes), the focus moved to another pane, a search of the catalog typed and cleared, the
#: terminal resized away and back. Each is checked on what the terminal was sent.
SCREEN_STEPS = ["g", "ctrl+e", "f1", "f12", "ctrl+w", "f3", "f4", "f5", "f6", "search", "resize"]
SEARCH_WORDS = ["sq", "a", "mar", "zzq", "cap"]


def walk(rng: random.Random) -> Iterator[tuple[str, list[str]]]:
    """The steps of a walk: ``("screen", [key])`` for a :func:`screen_step` (which draws the
    word of a search from the same ``rng``), ``("keys", keys)`` for a move or an edit."""
    for _ in range(STEPS):
        if rng.random() < 0.3:
            yield "screen", [rng.choice(SCREEN_STEPS)]
        if rng.random() < 0.35:
            key = rng.choice(EDITS)
            if key == "add":  # from the catalog: F4, a few lines down, Enter, back
                yield "keys", ["f4", *["down"] * rng.randrange(4), "enter", "f3"]
            else:
                yield "keys", [key]
        else:
            yield "keys", [rng.choice(MOVES)]


def test_the_walks_press_every_kind_of_step() -> None:
    """The rosters walked press every kind of screen step and of edit (and every move) that
    the walks of all the examples press: walking fewer rosters drops no kind of step."""

    def kinds(rosters: list[str]) -> set[str]:
        seen: set[str] = set()
        for roster in rosters:
            rng = random.Random(SEED + roster)
            for kind, keys in walk(rng):
                seen.add(f"{kind}:{'add' if keys[0] == 'f4' and kind == 'keys' else keys[0]}")
                if keys == ["search"]:
                    rng.choice(SEARCH_WORDS)  # (as screen_step draws it)
        return seen

    every = kinds(ALL_ROSTERS)
    assert every >= {f"keys:{k}" for k in EDITS + MOVES}, every
    assert kinds(ROSTERS) == every, sorted(every - kinds(ROSTERS))


async def settle(pilot: Pilot[Any], editor: EditorScreen) -> None:
    """Wait until the latest edit is validated and shown, and painted."""
    s = editor.session
    assert s is not None
    await wait_for(
        pilot,
        lambda: (
            s.evaluation_generation == s.generation
            and editor.shown_generation == s.generation
            and not editor._eval_running
        ),
    )
    await pilot.pause()


def screen_problems(app: ArmyBuilderApp, editor: EditorScreen) -> list[str]:
    """Every way the painted panes differ from what the session computes."""
    s = editor.session
    assert s is not None
    ev = s.evaluation
    assert ev is not None
    rows = painted(app)
    problems: list[str] = []
    loc = editor.selected
    # The catalog: "Add to: <target>" and exactly the options of the target.
    tree = editor.catalog.catalog_tree
    problems += check_catalog_lines(
        pane_lines(app, tree, rows), expected_catalog(s, loc), tree.scrollable_content_region.width
    )
    problems += check_catalog_headings(
        pane_lines(app, tree, rows),
        expected_heading_parts(s, loc),
        tree.scrollable_content_region.width,
    )
    # The roster tree: every row shows its selection's summary, fitted to the pane.
    rtree = editor.roster_tree
    top = rtree.scroll_offset.y
    lines = rtree._tree_lines
    locs = [
        lines[y].path[-1].data if y < len(lines) else None
        for y in range(top, top + rtree.scrollable_content_region.height)
    ]
    problems += check_tree_lines(
        pane_lines(app, rtree, rows),
        locs,
        ev,
        rtree.scrollable_content_region.width,
        rtree.guide_depth,
        [line.path[-1].data for line in lines],
    )
    target = catalog_target(s, loc)
    name = ev.name(node_at(ev, target))
    title = normal(" ".join(pane_lines(app, editor.query_one("#catalog-title"), rows)))
    if not (f"Add to: {name}".startswith(title.rstrip("…")) and title):
        problems.append(f"catalog title {title!r}, expected 'Add to: {name}'")
    # The details: the selection's name and cost at the top (unless the pane is scrolled
    # down, as to a drop-down chosen in at 80x24); its own issues where shown.
    details = normal(" ".join(pane_lines(app, editor.details, rows)))
    head = editor.details.query_one("#d-head")
    if editor.details.scroll_y == 0 or editor.details.content_region.contains_region(head.region):
        for want in expected_head(ev, loc):
            if normal(want) not in details:
                problems.append(f"details lack {want!r}: {details[:200]!r}")
    own = editor.details.query_one("#d-issues")
    if own.region.height and editor.details.content_region.contains_region(own.region):
        shown = normal(" ".join(pane_lines(app, own, rows)))
        want = normal(" ".join(own_issue_texts(ev, loc)))
        if not want.startswith(shown) or (want and not shown):
            problems.append(f"details issues show {shown!r}; expected {want!r}")
    # The issues list: a window of the issues in order, errors first; the counts above it.
    listed = normal(" ".join(pane_lines(app, editor.issues.issue_list, rows)))
    expected = expected_issue_text(ev)
    if listed not in normal(" ".join(expected)) or (expected and not listed):
        problems.append(f"issues list shows {listed!r}; the issues are {expected!r}")
    errors = sum(1 for i in ev.issues if i.is_error)
    heading = normal(" ".join(pane_lines(app, editor.query_one("#issues-title"), rows)))
    if ev.issues and f"{errors} error" not in heading:
        problems.append(f"issues heading {heading!r} for {errors} error(s)")
    # The totals: one row, costs and verdict in full, the values that fit, "+N more".
    problems.extend(totals_problems(ev, pane_lines(app, editor.totals, rows)))
    return problems


async def sent_problems(pilot: Pilot[Any], terminal: Terminal) -> list[str]:
    """Where the terminal (every frame it was sent, partial ones written in place) differs
    from a drawing of the whole screen now, once no repaint is pending (an input's cursor
    blinks: its next frame may be due; a widget that has asked for its repaint and not yet
    told the screen, as a blink that has just turned the cursor off, counts as pending)."""
    await pilot.pause()
    for _ in range(20):
        screen = pilot.app.screen
        if not (
            screen._dirty_widgets
            or screen._compositor._dirty_regions
            or any(w._repaint_required for w in screen.walk_children(with_self=False))
        ):
            break
        await pilot.pause(0.01)
    return terminal.problems()


async def screen_step(
    pilot: Pilot[Any], editor: EditorScreen, terminal: Terminal, key: str, rng: random.Random
) -> list[str]:
    """One of :data:`SCREEN_STEPS`, the terminal checked at each stage (a dialog open, then
    closed with Esc; the other size, then back); returns the keys pressed."""
    app = pilot.app
    problems: list[str] = []

    async def check(stage: str) -> None:
        problems.extend(f"{key} ({stage}): {p}" for p in await sent_problems(pilot, terminal))

    if key == "resize":
        size = app.size
        await pilot.resize_terminal(80, 24)
        await check("80x24")
        await pilot.resize_terminal(size.width, size.height)
        await check("back")
        assert not problems, problems
        return ["resize"]
    if key == "search":
        word = rng.choice(SEARCH_WORDS)
        keys = ["slash", *word, "backspace", "escape"]
        for k in keys:
            await pilot.press(k)
            await check(k)
        assert not problems, problems
        return keys
    if key == "ctrl+w" and not (editor.session is not None and editor.session.dirty):
        key = "g"  # (a saved roster closes at once: the walk would end)
    await pilot.press(key)
    if key in ("f3", "f4", "f5", "f6"):
        await check("focus")
        assert not problems, problems
        return [key]
    await wait_for(pilot, lambda: app.screen is not editor and app.screen.is_mounted)
    await check("open")
    await pilot.press("escape")
    await wait_for(pilot, lambda: app.screen is editor)
    await check("closed")
    assert not problems, problems
    return [key, "escape"]


async def repainted_whole(pilot: Pilot[Any]) -> list[str]:
    """The screen after every widget dropped its caches of drawn lines (as after a change
    of theme) and repainted all of itself: drawn from scratch."""
    app = pilot.app
    for widget in app.screen.walk_children():
        widget.notify_style_update()
        widget.refresh()
    await pilot.pause()
    return painted(app)


@pytest.mark.parametrize("roster", ROSTERS)
@run_async
async def test_screen_matches_the_model(make_app: MakeApp, roster: str) -> None:
    """Walk the roster tree by keyboard in a random order (seeded by the roster's name) with
    random edits between the moves; after each step the catalog, the details, the issues and
    the totals show exactly what the session computes, and no row of the screen differs
    from what a full repaint draws (no stale row anywhere)."""
    rng = random.Random(SEED + roster)
    app = make_app(EXAMPLES / roster)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        steps: list[str] = []
        for kind, keys in walk(rng):
            if kind == "screen":
                key = keys[0]
                try:
                    steps.append(" ".join(await screen_step(pilot, editor, terminal, key, rng)))
                except AssertionError as e:
                    raise AssertionError((steps, key, *e.args)) from None
                editor.roster_tree.focus()
                await settle(pilot, editor)
                continue
            steps.append(" ".join(keys))
            for key in keys:
                await pilot.press(key)
            await settle(pilot, editor)
            problems = await sent_problems(pilot, terminal)  # (before any full drawing)
            assert not problems, (steps, editor.selected, problems)
            problems = screen_problems(app, editor)
            assert not problems, (steps, editor.selected, problems)
            before = painted(app)
            after = await repainted_whole(pilot)
            stale = [
                (y, a, b) for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b
            ]
            assert not stale, (steps, stale)
            problems = await sent_problems(pilot, terminal)  # (the repaint's frame too)
            assert not problems, (steps, problems)
