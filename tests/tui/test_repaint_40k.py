"""Random edits on a 2,000-point 40k Space Marines roster (issue 18): after each one every pane
paints what the session computes for the selected node, the drop-downs of the details pane
offer exactly the session's options at the session's prices, and no row of the screen differs
from what a full repaint draws (Pilot, headless).

The roster is built from ``../shared/bsdata`` as ``benchmarks/bench_bsdata.py`` builds it; the
test is skipped with a message where that data is absent. The walk is seeded
(``ARMYBUILDER_SCREEN_SEED``) and short (``ARMYBUILDER_40K_STEPS`` for a longer one).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import painted, pane_lines
from test_screen_model import repainted_whole, screen_problems, settle
from textual.widgets import Select

from armybuilder.catalog import Library
from armybuilder.session import costs_text
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.details import ChoiceSelect, DetailsPane, _Spacer, option_label
from armybuilder.tui.widgets.roster_tree import node_at

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
STEPS = int(os.environ.get("ARMYBUILDER_40K_STEPS", "10"))
SEED = os.environ.get("ARMYBUILDER_SCREEN_SEED", "")
MOVES = ["down", "down", "down", "up", "right", "right", "left"]
EDITS = ["plus", "plus", "minus", "ctrl+z", "ctrl+y", "d", "delete", "add", "choose"]


def space_marines(folder: Path) -> tuple[Path, Library]:
    if not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"no 40k data at {BSDATA / 'wh40k-10e'} (the shared BattleScribe data)")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_bsdata import roster_text
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    library = Library([BSDATA]).scan()
    path = folder / "space-marines-40k.yaml"
    path.write_text(roster_text(library.system("wh40k-10e")), encoding="utf-8")  # type: ignore[arg-type]
    return path, library


def drop_down_problems(editor: EditorScreen) -> list[str]:
    """Each drop-down shown in the details pane against the session: the options of its
    group, each labelled with what the session says adding it costs here, and the choice."""
    s = editor.session
    assert s is not None
    ev = s.evaluation
    assert ev is not None
    node = node_at(ev, editor.selected)
    if node is None or node.entry is None or node.is_root:
        return []
    costs = {i.entry_id: costs_text(ev.index, i.costs) for i in s.option_infos(node.loc, ev)}
    problems: list[str] = []
    for select in editor.details.query(ChoiceSelect):
        if not select.display:
            continue
        gid = (select.name or "")[len("grp:") :]
        want = [
            (option_label(c.entry.name, costs.get(c.entry.id, "")), c.entry.id)
            for c in ev.index.children(node.entry)
            if c.group is not None and c.group.id == gid and not c.entry.hidden
        ]
        have = [(str(label), v) for label, v in select._options if v != Select.NULL]
        if have != want:
            problems.append(f"drop-down {gid}: {have!r}, the session offers {want!r}")
        chosen = [c.entry_id for c in node.children if c.group is not None and c.group.id == gid]
        value = chosen[0] if len(chosen) == 1 and any(v == chosen[0] for _, v in want) else None
        shown = None if select.value == Select.NULL else select.value
        if shown != value:
            problems.append(f"drop-down {gid} shows {shown!r}; the roster has {value!r}")
    return problems


def choose(editor: EditorScreen, rng: random.Random) -> bool:
    """Another option in one of the selected unit's drop-downs, as the pane posts it."""
    selects = [s for s in editor.details.query(ChoiceSelect) if s.display and s.name]
    rng.shuffle(selects)
    for select in selects:
        values = [v for _, v in select._options if v != Select.NULL and v != select.value]
        if values:
            gid = (select.name or "")[len("grp:") :]
            loc = editor.selected
            editor.details.post_message(DetailsPane.Edit(loc, f"choice:{gid}", rng.choice(values)))
            return True
    return False


@run_async
async def test_random_edits_on_a_40k_roster_leave_no_stale_line(
    make_app: Any, workdir: Path
) -> None:
    path, library = space_marines(workdir)
    rng = random.Random(SEED + "40k")
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        steps: list[str] = []
        edited = 0
        for _ in range(STEPS):
            if rng.random() < 0.6:
                key = rng.choice(EDITS)
                if key == "add":  # from the catalog: F4, a few lines down, Enter, back
                    keys = ["f4", *["down"] * rng.randrange(4), "enter", "f3"]
                elif key == "choose":
                    keys = []
                    if choose(editor, rng):
                        steps.append("choose")
                        edited += 1
                else:
                    keys = [key]
            else:
                keys = [rng.choice(MOVES)]
            if keys:
                steps.append(" ".join(keys))
                edited += keys[0] in EDITS or keys[0] == "f4"
            for key in keys:
                await pilot.press(key)
            await settle(pilot, editor)
            problems = screen_problems(app, editor) + drop_down_problems(editor)
            assert not problems, (steps, editor.selected, problems)
            before_rows = painted(app)
            after = await repainted_whole(pilot)
            stale = [
                (y, a, b) for y, (a, b) in enumerate(zip(before_rows, after, strict=True)) if a != b
            ]
            assert not stale, (steps, stale)
        assert edited, steps  # the walk edited something (else it proves little)


async def shown_whole(pilot: Any, editor: EditorScreen) -> list[str]:
    """The details pane's rows as it paints them with every group of the unit built (no
    window: the pane as it was before it built only the groups near what shows), at the
    same scroll position; the window is put back after."""
    from armybuilder.tui.widgets import details as module

    pane = editor.details
    s = editor.session
    assert s is not None and s.evaluation is not None
    y = pane.scroll_offset.y
    saved = module.MARGIN
    module.MARGIN = 10**6
    try:
        pane.show(s.evaluation, editor.selected)
        await wait_for(pilot, lambda: not pane.busy)
        await pilot.pause()
        pane.scroll_to(y=y, animate=False)
        await pilot.pause()
        rows = pane_lines(pilot.app, pane)
    finally:
        module.MARGIN = saved
    pane.show(s.evaluation, editor.selected)
    await wait_for(pilot, lambda: not pane.busy)
    await pilot.pause()
    return rows


async def scroll_problems(pilot: Any, editor: EditorScreen) -> list[str]:
    """What the details pane shows against the pane with all of its groups built, and its
    drop-downs on screen against the session's options, prices and choices."""
    app = pilot.app
    pane = editor.details
    problems = drop_down_problems(editor)
    view = pane.scrollable_content_region
    for spacer in pane.query(_Spacer):
        if spacer.display and spacer.region.overlaps(view):
            problems.append(f"{spacer.id} shows ({spacer.region}, the pane shows {view})")
    shown = pane_lines(app, pane)
    whole = await shown_whole(pilot, editor)
    for y, (a, b) in enumerate(zip(shown, whole, strict=True)):
        if a != b:
            problems.append(f"row {y} of the details: {a!r}, with every group built {b!r}")
    return problems


@run_async
async def test_scrolling_the_40k_squads_details_shows_every_group_priced(
    make_app: Any, workdir: Path
) -> None:
    """The details pane builds only the group slots on screen or near it (issue 18): scrolled
    through an Intercessor Squad's 48 groups (to random places, a line at a time, to the end
    and back), with Tab moving through its drop-downs, edits and a resize between, it paints
    exactly what it paints with every group built, and each drop-down on screen offers the
    session's options at the session's prices (``EditSession.option_infos``) with the
    roster's choice."""
    path, library = space_marines(workdir)
    rng = random.Random(SEED + "40k-scroll")
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        squad = next(
            loc
            for loc in s.children_locs(())
            if (e := s.entry_at(loc)) is not None and e.name == "Intercessor Squad"
        )
        editor.jump_to(squad)
        await settle(pilot, editor)
        pane = editor.details
        await wait_for(pilot, lambda: not pane.busy)
        assert len(pane._rows) > 30
        first, last = pane._window
        assert last - first < len(pane._rows)  # only some of them are built
        steps: list[str] = []
        kinds = ["to", "to", "line", "line", "end", "home", "tab", "plus", "minus", "resize"]
        walk = [*kinds, *(rng.choice(kinds) for _ in range(4))]  # each at least once
        rng.shuffle(walk)
        order = [r.group.id for r in pane._rows if r.value is not None or r.listing is None]
        for kind in walk:
            steps.append(kind)
            if kind == "to":
                pane.scroll_to(y=rng.randrange(int(pane.max_scroll_y) + 1), animate=False)
            elif kind == "line":
                for _ in range(rng.randint(1, 6)):
                    pane.scroll_to(y=pane.scroll_y + rng.choice([-3, 3]), animate=False)
                    await pilot.pause()
            elif kind == "end":
                pane.scroll_end(animate=False)
            elif kind == "home":
                pane.scroll_home(animate=False)
            elif kind == "tab":
                # Tab from a drop-down on screen goes to the unit's next drop-down, whether
                # or not it had a slot, and scrolls it into view.
                view = pane.scrollable_content_region

                def on_screen() -> list[ChoiceSelect]:
                    return [
                        x
                        for x in pane.query(ChoiceSelect)
                        if x.display
                        and x.name
                        and x.region.overlaps(pane.scrollable_content_region)
                    ]

                if not on_screen():  # none on screen: from the top, down to the first
                    pane.scroll_home(animate=False)
                    await settle(pilot, editor)
                    while not on_screen() and pane.scroll_y < pane.max_scroll_y:
                        pane.scroll_to(y=pane.scroll_y + 5, animate=False)
                        await settle(pilot, editor)
                start = on_screen()[0]
                start.focus()
                await pilot.pause()
                at = order.index((start.name or "")[len("grp:") :])
                for _ in range(rng.randint(3, 12)):
                    await pilot.press("tab")
                    await settle(pilot, editor)
                    focused = app.screen.focused
                    if at + 1 >= len(order):
                        break  # past the last drop-down: the focus leaves the groups
                    at += 1
                    assert isinstance(focused, ChoiceSelect), (steps, focused)
                    assert focused.name == f"grp:{order[at]}", (steps, focused.name, order[at])
                    view = pane.scrollable_content_region
                    assert focused.region.overlaps(view), (steps, focused.region, view)
            elif kind in ("plus", "minus"):
                editor.roster_tree.focus()
                await pilot.press(kind)
            elif kind == "resize":
                size = rng.choice([(160, 48), (140, 40), (180, 56)])
                await pilot.resize_terminal(*size)
            await settle(pilot, editor)
            await wait_for(pilot, lambda: not pane.busy)
            await pilot.pause()
            problems = await scroll_problems(pilot, editor)
            assert not problems, (steps, problems)
