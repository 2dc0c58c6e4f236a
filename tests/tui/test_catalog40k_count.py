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
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from rich.console import Console
from screen import check_catalog_lines, painted, pane_lines
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, settle

from armybuilder.catalog import Library
from armybuilder.session import EditSession, OptionInfo
from armybuilder.session.editor import Loc
from armybuilder.session.text import costs_text
from armybuilder.tui.widgets.catalog import preview

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
