"""Focus and keys (issue 12, item 3): where typed keys go, what Enter, Esc and Ctrl keys do
in a field, which pane shows as focused, and what Tab and F6 land on."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import check_catalog_lines, expected_catalog, painted, pane_lines
from textual.pilot import Pilot
from textual.widgets import Input

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.bindings import EDITOR_ACTIONS
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.roster_tree import RosterTree

MakeApp = Callable[..., ArmyBuilderApp]
SQUAD = EXAMPLES / "starship-troopers/mi-squad.yaml"


def copy_of(path: Path, folder: Path) -> Path:
    out = folder / path.name
    out.write_bytes(path.read_bytes())
    return out


async def on_squad_name(pilot: Pilot[Any]) -> EditorScreen:
    """The editor with the squad selected and its Name field focused (F6)."""
    editor = await wait_editor(pilot)
    editor.roster_tree.focus()
    await pilot.press("down")
    await pilot.pause()
    assert editor.selected == ("selections", 0)
    await pilot.press("f6")
    await pilot.pause()
    return editor


@run_async
async def test_enter_commits_and_returns_to_the_tree(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await on_squad_name(pilot)
        field = app.focused
        assert isinstance(field, Input) and field.id == "d-name"
        await pilot.press("ctrl+u", *"Bravo")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.focused, RosterTree)
        assert editor.session is not None
        assert editor.session.history == ["Rename to Bravo"]
        # The next keys are the editor's again: "d" duplicates the squad, it is not typed.
        await pilot.press("d")
        await pilot.pause()
        assert editor.session.history[-1].startswith("Duplicate")
        # The copy is selected, named next in its series (not "Bravod": nothing was typed).
        assert field.value == "2nd Bravo"


@run_async
async def test_escape_leaves_a_field_without_changing_it(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await on_squad_name(pilot)
        field = app.focused
        assert isinstance(field, Input)
        before = field.value
        await pilot.press(*"xyz", "escape")
        await pilot.pause()
        assert isinstance(app.focused, RosterTree)
        assert field.value == before
        assert editor.session is not None and editor.session.history == []


def catalog_shows_everything(app: ArmyBuilderApp, editor: EditorScreen) -> list[str]:
    """Problems with the catalog pane as painted, against an unfiltered catalog: the search
    row shows its placeholder, the title no filter, the tree every option of the selection."""
    s = editor.session
    assert s is not None
    rows = painted(app)
    problems = []
    search = " ".join(pane_lines(app, editor.catalog.search, rows))
    if "Search ( / )" not in search:
        problems.append(f"search row shows {search!r}")
    title = " ".join(pane_lines(app, editor.catalog.query_one("#catalog-title"), rows))
    if "filter" in title:
        problems.append(f"title shows {title!r}")
    tree = editor.catalog.catalog_tree
    lines = pane_lines(app, tree, rows)
    want = expected_catalog(s, editor.selected)
    problems += check_catalog_lines(lines, want, tree.scrollable_content_region.width)
    leaves = [r for r in lines if r.lstrip(" ")[:1] in set("├└│")]
    if len(leaves) < min(len(want), len(lines) - 1):
        problems.append(f"tree shows {len(leaves)} of {len(want)} options: {lines!r}")
    return problems


@pytest.mark.parametrize("where", ["search", "tree"])
@run_async
async def test_escape_clears_the_search_then_leaves(
    make_app: MakeApp, workdir: Path, where: str
) -> None:
    """Esc in the catalog (its search box, or its tree after Down from the search) clears the
    search and stays in the catalog, which shows every option again; a second Esc goes back
    to the roster tree, as Esc does from the other panes."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        names = [c.entry.name for c in s.options(editor.selected)]
        query = names[-1].lower()
        await pilot.press("slash")
        await pilot.pause()
        await pilot.press(*query)
        await pilot.pause()
        assert catalog_shows_everything(app, editor)  # filtered: the check fails
        if where == "tree":
            await pilot.press("down")
            await pilot.pause()
            assert app.focused is editor.catalog.catalog_tree
        focused = app.focused
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert catalog_shows_everything(app, editor) == []
        assert app.focused is focused, app.focused
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, RosterTree)
        assert catalog_shows_everything(app, editor) == []


@run_async
async def test_ctrl_w_in_a_field_closes_and_keeps_the_text(
    make_app: MakeApp, workdir: Path
) -> None:
    """Ctrl+W is Close everywhere (Textual's Input would delete a word); the typed name is
    applied first, so closing asks about it rather than losing it."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await on_squad_name(pilot)
        field = app.focused
        assert isinstance(field, Input)
        await pilot.press("ctrl+u", *"Bravo")
        await pilot.press("ctrl+w")
        await pilot.pause()
        assert field.value == "Bravo"  # no word deleted
        assert editor.session is not None
        assert editor.session.history == ["Rename to Bravo"]
        assert app.screen.id == "confirm-close"


@run_async
async def test_ctrl_z_in_a_field_undoes(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await on_squad_name(pilot)
        await pilot.press("ctrl+u", *"Bravo", "ctrl+z")
        await pilot.pause()
        s = editor.session
        assert s is not None and s.history == [] and s.can_redo
        assert s.evaluate().name(s.evaluate().root.children[0]) != "Bravo"


@run_async
async def test_printable_keys_in_a_field_are_text(make_app: MakeApp, workdir: Path) -> None:
    """Every single-key binding of the editor typed into a field is text, not an action."""
    singles = sorted(
        {k for a in EDITOR_ACTIONS for k in a.keys.split(",") if len(k) == 1}
        | {"question_mark", "plus", "minus", "slash", "equals_sign"}
    )
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await on_squad_name(pilot)
        field = app.focused
        assert isinstance(field, Input)
        await pilot.press("ctrl+u", *singles)
        await pilot.pause()
        assert app.screen is editor and app.focused is field
        assert len(field.value) == len(singles)
        assert editor.session is not None and editor.session.history == []


@run_async
async def test_f6_lands_on_a_field_and_tab_never_on_search(
    make_app: MakeApp, workdir: Path
) -> None:
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        for loc_keys in ([], ["down"], ["right", "down"]):
            await pilot.press("f3", *loc_keys, "f6")
            await pilot.pause()
            focused = app.focused
            assert isinstance(focused, Input), (editor.selected, focused)
            assert focused.region.area > 0, "the field is on screen"
            await pilot.press("escape")
        search = editor.catalog.search
        for _ in range(30):
            await pilot.press("tab")
            assert app.focused is not search
        for _ in range(30):
            await pilot.press("shift+tab")
            assert app.focused is not search


@run_async
async def test_the_focused_pane_is_marked(make_app: MakeApp, workdir: Path) -> None:
    """The focused pane's title bar takes the accent colour: another colour than the others,
    not one shade."""
    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)

        def title_backgrounds() -> dict[str, str]:
            out = {}
            for wid in ("#catalog-title", "#roster-title", "#issues-title"):
                out[wid] = str(editor.query_one(wid).styles.background)
            return out

        for key, wid in (
            ("f3", "#roster-title"),
            ("f4", "#catalog-title"),
            ("f7", "#issues-title"),
        ):
            await pilot.press(key)
            await pilot.pause()
            bgs = title_backgrounds()
            others = {v for k, v in bgs.items() if k != wid}
            assert bgs[wid] not in others, (key, bgs)
        # And the roster pane says it is the roster.
        assert "Roster" in "".join(pane_lines(app, editor.query_one("#roster-title"), painted(app)))


@run_async
async def test_keys_queued_after_expand_reach_the_children(make_app: MakeApp) -> None:
    """Right then Down typed faster than the app handles them (a busy terminal): Down goes to
    the first child, which exists as soon as Right expanded its parent (the children used to
    be created later, on a message, so Down found none and was lost)."""
    from textual.events import Key

    app = make_app(SQUAD)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        for key in ("down", "right", "down"):
            app.post_message(Key(key, None))
        # (waited for, not a fixed pause: a loaded machine took longer than 0.3 s; a lost
        # Down leaves the parent selected and times out)
        child = ("selections", 0, "selections", 0)
        await wait_for(pilot, lambda: editor.selected == child)
        await pilot.pause()
        assert editor.selected == child


@run_async
async def test_the_details_edge_is_marked_while_the_focus_is_inside(
    make_app: MakeApp, workdir: Path
) -> None:
    """The details pane's left edge is drawn in the accent colour while the focus is in one of
    its fields, and only then, as the terminal shows it (every frame sent replayed): F6 into the
    pane, Tab from field to field inside it, out to the tree and the catalog and back. The pane
    is marked when the focus enters or leaves it, not at each move inside it (a Tab inside a 40k
    squad's pane used to restyle its 300-odd widgets)."""
    from rich.color import Color as RichColor
    from screen import Terminal
    from textual.color import Color

    app = make_app(copy_of(SQUAD, workdir))
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.press("down")
        await pilot.pause()
        accent = Color.parse(app.get_css_variables()["accent"]).rich_color
        details = editor.details
        restyled: list[Any] = []
        update = app.stylesheet.update_nodes

        def counting(nodes: Any, animate: bool = False) -> None:
            nodes = list(nodes)
            restyled.extend(nodes)
            update(nodes, animate=animate)

        app.stylesheet.update_nodes = counting  # type: ignore[method-assign]

        def edge_colours() -> set[RichColor | None]:
            assert terminal.cells is not None
            x = details.region.x
            rows = range(details.region.y, details.region.bottom)
            return {
                style.color if style is not None else None
                for _, style in (terminal.cells[y][x] for y in rows)
            }

        steps = [("f6", True), ("tab", True), ("tab", True), ("tab", True), ("f3", False)]
        steps += [("f6", True), ("shift+tab", True), ("f4", False), ("f6", True), ("f7", False)]
        for key, inside in steps:
            restyled.clear()
            await pilot.press(key)
            await pilot.pause()
            await pilot.pause()
            focused = app.focused
            assert (focused is not None and details in focused.ancestors_with_self) == inside, (
                key,
                focused,
            )
            assert terminal.problems() == [], key
            colours = edge_colours()
            if inside:
                assert colours == {accent}, (key, colours)
            else:
                assert accent not in colours, (key, colours)
            if key in ("tab", "shift+tab") and focused is not details:
                # (a move from field to field inside the pane leaves the pane's style as it
                # is: not restyled, nor the whole of its widgets; the pane focused itself, a
                # scroll container, restyles itself as any focused widget does)
                assert details not in restyled, (key, len(restyled), focused)
