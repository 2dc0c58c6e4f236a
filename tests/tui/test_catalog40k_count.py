"""The catalog pane after a 40k count change and a cursor move (issue 18, third session): the
catalog relabels only what can change, so here every painted row (name, price, count) and the
preview are compared with the options' figures computed afresh (``plain_infos`` of
``tests/unit/test_session_option_infos.py``: one what-if of the whole roster per option, no
cache of the session's) on the 2,000-point Space Marines roster (skipped with a message where
``../shared/bsdata`` is absent):

* the Librarian, +1, +1, -1: its enhancements are priced by its count (Artificer Armour 10 pts
  for one, 20 for two), the Warlord row costs nothing whatever the count; the list is
  relabelled, never rebuilt;
* a move from one Intercessor Squad to another (the same options: relabelled for the other
  squad, not rebuilt), then +1 on it (every option's price doubles);
* the preview of the highlighted enhancement, whose price moves with the count, and of one
  drawn ahead while idle, after the cursor moves to it.

And (issue 18, sixth session) a random walk of counts, quick fixes, adds, removals, undos and
moves, the pane compared every few steps with what a browser that forgot everything paints;
a kept list of nodes hung again for another squad of its kind, labelled for that squad; and
the preview of an option kept under the cursor across units of two kinds, naming the group
of the unit now.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from rich.console import Console
from screen import Terminal, check_catalog_lines, painted, pane_lines
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, sent_problems, settle

from armybuilder.catalog import Library
from armybuilder.session import EditSession, OptionInfo
from armybuilder.session.editor import Loc
from armybuilder.session.text import costs_text
from armybuilder.tui.widgets.catalog import KEPT_LISTS, preview

ROOT = Path(__file__).resolve().parents[2]


def fresh_infos(s: EditSession, loc: Loc) -> list[OptionInfo]:
    """The options' figures under ``loc`` worked out afresh (tests/unit's plain walk)."""
    sys.path.insert(0, str(ROOT / "tests" / "unit"))
    try:
        from test_session_option_infos import plain_infos
    finally:
        sys.path.remove(str(ROOT / "tests" / "unit"))
    found: list[OptionInfo] = plain_infos(s, loc)
    return found


def fresh_labels(s: EditSession, loc: Loc) -> dict[str, str]:
    """Each option's row as the catalog labels it (name, price, count), by its id, from
    :func:`fresh_infos`."""
    out = {}
    for c, info in zip(s.options(loc), fresh_infos(s, loc), strict=True):
        cost = costs_text(s.index, info.costs) if info.costs else ""
        count = info.limit.count_text
        out[info.entry_id] = (
            c.entry.name + (f"  {cost}" if cost else "") + (f"  {count}" if count else "")
        )
    return out


def row_problems(app: Any, editor: Any) -> list[str]:
    """Where the painted catalog rows differ from the fresh figures, in the list's order."""
    s = editor.session
    browser = editor.catalog
    tree = browser.catalog_tree
    labels = fresh_labels(s, browser.target)
    order = [leaf.data for leaf in browser._leaves()]
    assert sorted(order) == sorted(labels), (order, labels)
    lines = pane_lines(app, tree, painted(app))
    return check_catalog_lines(
        lines, [labels[i] for i in order], tree.scrollable_content_region.width
    )


def preview_head(app: Any, editor: Any) -> str:
    """The preview's first painted line (the entry's name, type and price)."""
    box = editor.catalog.query_one("#catalog-preview")
    return pane_lines(app, box, painted(app))[0]


def fresh_preview(editor: Any, oid: str, width: int) -> list[str]:
    """The preview of option ``oid`` with its fresh figures (:func:`fresh_infos`), built
    afresh (nothing kept) and wrapped at ``width``."""
    s = editor.session
    loc = editor.catalog.target
    child = next(c for c in s.options(loc) if str(s.option_id(loc, c)) == oid)
    info = next(i for i in fresh_infos(s, loc) if i.entry_id == oid)
    group = s.group_limits(loc).get(child.group.id) if child.group is not None else None
    console = Console(width=width, color_system=None, legacy_windows=False)
    lines = console.render_lines(
        preview(s.index, child, info, group), console.options.update(width=width), pad=False
    )
    return ["".join(seg.text for seg in line).rstrip() for line in lines]


def preview_problems(app: Any, editor: Any, oid: str) -> list[str]:
    """Where the painted preview differs from :func:`fresh_preview` of ``oid``."""
    box = editor.catalog.query_one("#catalog-preview")
    shown = pane_lines(app, box, painted(app))
    want = fresh_preview(editor, oid, box.scrollable_content_region.width)
    want += [""] * (len(shown) - len(want))
    return [] if shown == want[: len(shown)] else [f"preview {shown!r}, not {want!r}"]


def option_id(s: EditSession, loc: Loc, name: str) -> str:
    child = next(c for c in s.options(loc) if c.entry.name == name)
    return str(s.option_id(loc, child))


def fresh_price(s: EditSession, loc: Loc, oid: str) -> str:
    info = next(i for i in fresh_infos(s, loc) if i.entry_id == oid)
    return costs_text(s.index, info.costs)


async def put_cursor(pilot: Any, editor: Any, oid: str) -> None:
    """The catalog's cursor on the option ``oid`` (the focus stays in the roster tree)."""
    tree = editor.catalog.catalog_tree
    leaf = next(leaf for leaf in editor.catalog._leaves() if leaf.data == oid)
    tree.move_cursor(leaf)
    await wait_for(pilot, lambda: editor.catalog.highlighted() == oid)
    await pilot.pause()


@run_async
async def test_a_40k_count_and_a_move_paint_the_fresh_prices(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        ev = s.evaluate()

        def unit(name: str, nth: int = 0) -> Loc:
            found = [
                n.loc for n in ev.root.children if n.entry is not None and n.entry.name == name
            ]
            return found[nth]

        librarian, squad_a, squad_b = (
            unit("Librarian"),
            unit("Intercessor Squad"),
            unit("Intercessor Squad", 1),
        )
        browser = editor.catalog
        editor.jump_to(librarian)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        armour = option_id(s, librarian, "Artificer Armour")
        honour = option_id(s, librarian, "The Honour Vehement")
        warlord = option_id(s, librarian, "Warlord")
        await put_cursor(pilot, editor, armour)
        rebuilds = browser.rebuilds
        shown: dict[int, str] = {}
        await wait_for(pilot, lambda: browser.unpriced == 0)
        # Previews drawn ahead while idle after each edit: those of the two other
        # enhancements (their prices moved), none of the rows whose preview says what it
        # said (the Warlord, the wargear), nor the one shown; none after -1 (drawn at 2).
        # The rows labelled again: the three enhancements (their prices moved), not the
        # Warlord nor the wargear (the same figures).
        for key, count, ahead in [("plus", 2, 2), ("plus", 3, 2), ("minus", 2, 0)]:
            drawn, labelled = browser.previews_ahead, browser.rows_labelled
            await pilot.press(key)
            await settle(pilot, editor)
            await wait_for(pilot, lambda: browser.unpriced == 0)
            assert browser.previews_ahead - drawn == ahead, key
            assert browser.rows_labelled - labelled == 3, key
            assert s.count_of(librarian) == count
            assert not row_problems(app, editor), (key, row_problems(app, editor))
            # The enhancement under the cursor: its row and its preview at the new price.
            price = fresh_price(s, librarian, armour)
            assert price in preview_head(app, editor), (key, preview_head(app, editor), price)
            assert not preview_problems(app, editor, armour), key
            shown[count] = price
            assert fresh_price(s, librarian, warlord) == ""  # (a row priced alike every time)
            assert painted(app) == await repainted_whole(pilot), key
        # The price moved with the count (10 pts a Librarian), and the rows were relabelled
        # in place: the same entries, no new list.
        assert shown == {2: "20 pts", 3: "30 pts"}, shown
        assert browser.rebuilds == rebuilds
        # An enhancement whose preview was drawn ahead while idle, at the new figures.
        await put_cursor(pilot, editor, honour)
        assert fresh_price(s, librarian, honour) in preview_head(app, editor)
        assert preview_head(app, editor).startswith("The Honour Vehement")
        assert not preview_problems(app, editor, honour)

        # A move to another squad of the same kind: the same rows, each priced there.
        editor.jump_to(squad_a)
        await settle(pilot, editor)
        assert not row_problems(app, editor)
        rebuilds, labelled = browser.rebuilds, browser.rows_labelled
        editor.jump_to(squad_b)
        await settle(pilot, editor)
        assert browser.rebuilds == rebuilds
        # (the other squad's options: the same figures, so the same labels)
        assert browser.rows_labelled == labelled
        assert browser.target == squad_b
        assert not row_problems(app, editor)
        before = pane_lines(app, browser.catalog_tree)
        await pilot.press("plus")
        await settle(pilot, editor)
        assert browser.rows_labelled == labelled + 3
        assert s.count_of(squad_b) == 2
        assert not row_problems(app, editor)
        assert pane_lines(app, browser.catalog_tree) != before  # (the prices doubled)
        assert painted(app) == await repainted_whole(pilot)


def catalog_shown(app: Any, editor: Any) -> list[str]:
    """The catalog pane as painted: its title, its tree's rows and its preview."""
    browser = editor.catalog
    rows = painted(app)
    return [
        *pane_lines(app, browser.query_one("#catalog-title"), rows),
        *pane_lines(app, browser.catalog_tree, rows),
        *pane_lines(app, browser.query_one("#catalog-preview"), rows),
    ]


async def fresh_catalog(pilot: Any, editor: Any) -> list[str]:
    """The catalog pane as a fresh browser paints it for the same target and highlighted
    entry: the browser forgets its list, the rows' labels and figures, the previews and the
    lines it drew, is shown the options again and repaints whole (:func:`catalog_shown`)."""
    browser = editor.catalog
    browser._drop_lists()  # (a new list of nodes, each labelled afresh)
    browser._infos = {}
    browser._tables.clear()
    browser._previews_drawn.clear()
    browser._preview_id = object()
    browser._title = ""
    browser._ahead = None
    editor._update_catalog()
    await repainted_whole(pilot)
    return catalog_shown(pilot.app, editor)


#: A walk's steps: a count up or down, a misspelt entry fixed (``.``), an option of the
#: catalog added, the selection removed, an undo, and a move to another unit or choice.
WALK_STEPS = ["plus", "minus", "fix", "add", "delete", "undo", "move", "move"]


@run_async
async def test_the_40k_catalog_after_a_walk_of_edits_is_what_a_fresh_one_shows(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """Issue 18, sixth session: the catalog updates in place after an edit (rows relabelled,
    a list of nodes built for a new target, the preview drawn again only if it says something
    new). After each step of a random walk over the 40k roster (counts, quick fixes, adds,
    removals, undos, moves between units of other kinds and their choices), the painted
    rows are the options' fresh figures, the headings, title and the preview those of the
    session, the terminal the screen; and every few steps, the whole pane is what a browser
    that forgot everything paints for the same target."""
    import random

    from armybuilder.session import SetKey

    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    rng = random.Random(18)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        browser = editor.catalog
        editor.roster_tree.focus()
        await settle(pilot, editor)
        kinds: set[str] = set()
        for step in range(24):
            kind = rng.choice(WALK_STEPS)
            ev = s.evaluate()
            here = editor.selected
            if kind == "move" or not here:
                # Another unit, or a choice inside one (the catalog then lists its options).
                nodes = [n for n in ev.nodes() if not n.is_root and n.entry is not None]
                editor.jump_to(rng.choice(nodes).loc)
                kind = "move"
            elif kind == "fix":
                # A choice inside a unit, its entry misspelt, then fixed with "." (the catalog
                # lists the unit's options, then the choice's).
                inside = [n.loc for n in ev.nodes() if len(n.loc) > 2 and n.entry is not None]
                here = rng.choice(inside)
                editor.jump_to(here)
                await settle(pilot, editor)
                good = s.node(here)["entry"]
                s.apply("misspell", [SetKey(here, "entry", good[:-1] + "x")], here, here)
                editor.after_edit()
                await settle(pilot, editor)
                await pilot.press("full_stop")
                await settle(pilot, editor)
                assert s.node(here)["entry"] == good, (step, here)
            elif kind == "add":
                leaves = [leaf.data for leaf in browser._leaves()]
                if leaves:
                    await put_cursor(pilot, editor, rng.choice(leaves))
                    await pilot.press("a")
            elif kind == "undo":
                await pilot.press("ctrl+z")
            else:
                await pilot.press(kind)
            kinds.add(kind)
            await settle(pilot, editor)
            where = (step, kind, browser.target)
            assert not row_problems(app, editor), (where, row_problems(app, editor))
            assert not screen_problems(app, editor), (where, screen_problems(app, editor))
            oid = browser.highlighted()
            if oid is not None:
                assert not preview_problems(app, editor, oid), (where, oid)
            assert not await sent_problems(pilot, terminal), where
            if step % 3 == 2:
                shown = catalog_shown(app, editor)
                assert shown == await fresh_catalog(pilot, editor), where
        assert kinds >= {"plus", "fix", "add", "delete", "undo", "move"}, kinds
        # (lists of nodes were hung again, kept from a unit of another kind shown before)
        assert browser.lists_reused > 0, browser.lists_reused


@run_async
async def test_a_list_hung_again_is_labelled_for_its_unit(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """The list of nodes of a kind of unit, kept while another kind is shown, is hung again
    for another unit of that kind (or the same one after edits): its rows and headings show
    that unit's figures, not those of the unit it was last shown for. Here an Intercessor
    Squad with a model more and a count of 2 (other prices, another count in its group),
    then the Librarian, then the other squad, as it was."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        ev = s.evaluate()
        squads = [
            n.loc for n in ev.root.children if n.entry and n.entry.name == "Intercessor Squad"
        ]
        librarian = next(n.loc for n in ev.root.children if n.entry and n.entry.name == "Librarian")
        browser = editor.catalog
        editor.jump_to(librarian)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        editor.jump_to(squads[0])
        await settle(pilot, editor)
        await put_cursor(pilot, editor, option_id(s, squads[0], "Intercessor"))
        await pilot.press("a")  # (a model more in the squad's group)
        await settle(pilot, editor)
        editor.jump_to(squads[0])
        await settle(pilot, editor)
        await pilot.press("plus")  # (two of the squad: every price doubles)
        await settle(pilot, editor)
        assert s.count_of(squads[0]) == 2
        for loc in (librarian, squads[1], librarian, squads[0]):
            reused, built = browser.lists_reused, browser.rebuilds
            editor.jump_to(loc)
            await settle(pilot, editor)
            assert (browser.lists_reused, browser.rebuilds) == (reused + 1, built), loc
            assert not row_problems(app, editor), (loc, row_problems(app, editor))
            assert not screen_problems(app, editor), (loc, screen_problems(app, editor))
            assert not await sent_problems(pilot, terminal), loc
        # (the first squad again, its cursor where the lists between left it)
        assert catalog_shown(app, editor) == await fresh_catalog(pilot, editor)
        # Units of more kinds than are kept, twice over: the oldest lists kept are dropped,
        # their nodes too; those kept are hung again, their rows labelled for the unit.
        kinds = list({n.entry.id: n.loc for n in ev.root.children if n.entry}.values())
        assert len(kinds) > KEPT_LISTS + 1, kinds
        for loc in [*kinds, *kinds[-KEPT_LISTS - 1 :]]:
            editor.jump_to(loc)
            await settle(pilot, editor)
            assert not row_problems(app, editor), (loc, row_problems(app, editor))
        assert browser.lists_reused >= KEPT_LISTS, browser.lists_reused
        # The tree's table of nodes by id holds the root and the nodes of the lists shown
        # and kept, no more (no list dropped leaves its nodes there).
        held = [(browser._rows, browser._sections)]
        held += [(state["_rows"], state["_sections"]) for state, _ in browser._kept_lists.values()]
        nodes = {id(n) for rows, sections in held for n in (*rows, *sections.values())}
        table = browser.catalog_tree._tree_nodes
        assert len(table) == len(nodes) + 1, (len(table), len(nodes))


@run_async
async def test_the_preview_names_the_group_of_the_unit_now(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """An option offered by units of two kinds in groups of other names but alike limits
    (a 40k plasma pistol: "Replace Bolter" in one unit, "Weapon 1" or "Pistol Option" in
    others, each exactly 1): the cursor stays on it as the selection moves from one unit to
    the other, and its preview says the group of the unit now, not the one it said before
    (it kept "Choice of Replace Bolter: exactly 1": the preview was not drawn again)."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        ev = s.evaluate()
        by_option: dict[tuple[str, str], dict[str, Loc]] = {}
        for n in ev.nodes():
            if n.is_root or n.entry is None:
                continue
            limits = s.group_limits(n.loc, ev)
            for c in s.options(n.loc, ev):
                if c.group is not None and c.group.id in limits:
                    seen = by_option.setdefault(
                        (str(s.option_id(n.loc, c)), limits[c.group.id].range_text), {}
                    )
                    seen.setdefault(c.group.name, n.loc)
        (oid, _), places = next((k, v) for k, v in by_option.items() if len(v) > 1)
        (_, first), (_, second) = list(places.items())[:2]
        editor.jump_to(first)
        editor.roster_tree.focus()
        await settle(pilot, editor)
        await put_cursor(pilot, editor, oid)
        assert not preview_problems(app, editor, oid)
        editor.jump_to(second)
        await settle(pilot, editor)
        assert editor.catalog.highlighted() == oid
        assert not preview_problems(app, editor, oid), preview_head(app, editor)
