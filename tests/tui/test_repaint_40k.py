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
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import marines_40k_text
from conftest import run_async, wait_editor
from screen import Terminal, catalog_view_problems, normal, painted, pane_lines
from test_screen_model import (
    SCREEN_STEPS,
    repainted_whole,
    screen_problems,
    screen_step,
    sent_problems,
    settle,
)
from textual import events
from textual.widgets import Select
from textual.widgets._select import SelectCurrent, SelectOverlay

from armybuilder.catalog import Library
from armybuilder.session import costs_text
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.details import (
    ChoiceSelect,
    DetailsPane,
    one_of_groups,
    option_label,
)
from armybuilder.tui.widgets.roster_tree import node_at

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
STEPS = int(os.environ.get("ARMYBUILDER_40K_STEPS", "10"))
#: Steps of each catalog walk (ARMYBUILDER_40K_CATALOG_STEPS for a longer one).
CATALOG_STEPS = int(os.environ.get("ARMYBUILDER_40K_CATALOG_STEPS", "16"))
SEED = os.environ.get("ARMYBUILDER_SCREEN_SEED", "")
MOVES = ["down", "down", "down", "up", "right", "right", "left"]
EDITS = ["plus", "plus", "minus", "ctrl+z", "ctrl+y", "d", "delete", "add", "choose"]


def space_marines(folder: Path, shared: tuple[str, Library] | None = None) -> tuple[Path, Library]:
    """The 2,000-point roster written in ``folder``, and the library it is built from
    (``shared``: the roster's text and library of :func:`marines`, else made afresh)."""
    text, library = shared if shared is not None else marines_text()
    path = folder / "space-marines-40k.yaml"
    path.write_text(text, encoding="utf-8")
    return path, library


def marines_text() -> tuple[str, Library]:
    if not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"no 40k data at {BSDATA / 'wh40k-10e'} (the shared BattleScribe data)")
    library = Library([BSDATA]).scan()
    return marines_40k_text(library), library


@pytest.fixture(scope="module")
def marines(_catalog_cache: Path) -> tuple[str, Library]:
    """The roster's text and its library, made once for the module's tests: each test opens
    its own copy of the file in its own app; the library (catalogs loaded and translated
    once, as the builder keeps them) is only read, as the session-wide ``full_library``."""
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(_catalog_cache))
    try:
        return marines_text()
    finally:
        mp.undo()


def drop_downs_offered(session: Any, ev: Any, node: Any) -> int:
    """How many drop-downs (pick-one groups offering something) the details pane shows for
    ``node``: its one-of groups with an option the session offers there."""
    if node.entry is None or node.is_root or node.force is not None:
        return 0
    offered = {c.group.id for c in session.options(node.loc, ev) if c.group is not None}
    return sum(1 for g in one_of_groups(node.entry) if g.id in offered)


def most_drop_downs(session: Any, ev: Any) -> Any:
    """The unit of the roster whose details show the most drop-downs (first of the most)."""
    return max(
        (n for n in ev.nodes() if n.entry is not None and not n.is_root and n.force is None),
        key=lambda n: drop_downs_offered(session, ev, n),
    )


def drop_down_problems(editor: EditorScreen, closed: bool = True) -> list[str]:
    """Each drop-down shown in the details pane against the session: the options of its
    group, each labelled with what the session says adding it costs here, and the choice
    (``closed``: also what each closed one paints; an open list covers those below it)."""
    s = editor.session
    assert s is not None
    ev = s.evaluation
    assert ev is not None
    node = node_at(ev, editor.selected)
    if node is None or node.entry is None or node.is_root:
        return []
    costs = {i.entry_id: costs_text(ev.index, i.costs) for i in s.option_infos(node.loc, ev)}
    problems: list[str] = []
    rows: list[str] | None = None  # (the screen drawn once for every closed drop-down)
    for select in editor.details.query(ChoiceSelect):
        if not select.display:
            continue
        gid = (select.name or "")[len("grp:") :]
        want = [
            (option_label(c.entry.name, costs.get(c.entry.id, "")), c.entry.id)
            for c in s.options(node.loc, ev)  # (what the data hides here left out)
            if c.group is not None and c.group.id == gid
        ]
        # What it shows open (every option priced when the list opens), and what it holds
        # closed: the same options, the choice's label priced (see closed_problems).
        have = [(str(label), v) for label, v in select.offered()]
        if have != want:
            problems.append(f"drop-down {gid}: {have!r}, the session offers {want!r}")
        if [v for _, v in select.held] != [v for _, v in want]:
            problems.append(f"drop-down {gid} holds {select.held!r}; the session offers {want!r}")
        if select.expanded:
            problems += open_problems(select, gid, want)
        chosen = [c.entry_id for c in node.children if c.group is not None and c.group.id == gid]
        value = chosen[0] if len(chosen) == 1 and any(v == chosen[0] for _, v in want) else None
        shown = None if select.value == Select.NULL else select.value
        if shown != value:
            problems.append(f"drop-down {gid} shows {shown!r}; the roster has {value!r}")
        if closed and not select.expanded:
            rows = painted(editor.app) if rows is None else rows
            problems += closed_problems(editor, select, gid, want, value, rows)
    return problems


def open_problems(select: ChoiceSelect, gid: str, want: list[tuple[str, str]]) -> list[str]:
    """The open list of a drop-down: the rows it draws are the session's options, priced."""
    overlay = select.query_one(SelectOverlay)
    rows = [str(overlay.get_option_at_index(i).prompt) for i in range(overlay.option_count)]
    expected = [label for label, _ in want]
    if rows[1:] != expected:  # (row 0: the prompt, no choice)
        return [f"drop-down {gid} lists {rows[1:]!r} open; the session offers {expected!r}"]
    return []


async def opened_problems(
    pilot: Any, editor: EditorScreen, select: ChoiceSelect, terminal: Terminal | None = None
) -> list[str]:
    """Open ``select`` (focused, Enter), check every drop-down, close it again (Escape);
    with ``terminal``, what it was sent with the list open too."""
    select.focus()
    await pilot.pause()
    await pilot.press("enter")
    await settle(pilot, editor)
    assert select.expanded
    problems = [] if terminal is None else await sent_problems(pilot, terminal)
    problems += drop_down_problems(editor, closed=False)
    await pilot.press("escape")
    await settle(pilot, editor)
    return problems + drop_down_problems(editor)  # closed again: each paints its choice


def catalog_id_problems(editor: EditorScreen) -> list[str]:
    """The ids the catalog's rows add are those the session names its options by (an entry
    offered twice under the target is two options, two ids)."""
    s = editor.session
    assert s is not None
    target = editor.catalog_target()
    want = [s.option_id(target, c) for c in s.options(target)]
    have = list(editor.catalog._ids)
    return [] if have == want else [f"catalog ids {have[:5]!r}..., the session's {want[:5]!r}..."]


def closed_problems(
    editor: EditorScreen,
    select: ChoiceSelect,
    gid: str,
    want: list[tuple[str, str]],
    value: Any,
    rows: list[str] | None = None,
) -> list[str]:
    """What a closed drop-down paints, where it is on screen: the label (name and price) of
    the roster's choice as the session prices it now, or the prompt (a drop-down given new
    options in place must never keep the label of an earlier price). ``rows``: the screen as
    :func:`screen.painted` draws it now (drawn here if not given)."""
    details = editor.details
    region = select.query_one(SelectCurrent).content_region
    if select.expanded or not details.content_region.contains_region(region):
        return []
    label = next((lab for lab, v in want if v == value), None) if value is not None else None
    expected = normal(label if label is not None else str(select.prompt))
    lines = [normal(r) for r in pane_lines(editor.app, select.query_one(SelectCurrent), rows)]
    painted_text = normal(" ".join(r.replace("▼", " ") for r in lines))
    if expected not in painted_text:
        return [f"drop-down {gid} paints {painted_text!r} closed; it should show {expected!r}"]
    return []


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
    make_app: Any, workdir: Path, marines: tuple[str, Library]
) -> None:
    path, library = space_marines(workdir, marines)
    rng = random.Random(SEED + "40k")
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        editor.roster_tree.focus()
        await pilot.pause()
        steps: list[str] = []
        edited = 0
        for _ in range(STEPS):
            if rng.random() < 0.3:  # a dialog, the focus elsewhere, a search, a resize
                key = rng.choice(SCREEN_STEPS)
                try:
                    steps.append(" ".join(await screen_step(pilot, editor, terminal, key, rng)))
                except AssertionError as e:
                    raise AssertionError((steps, key, *e.args)) from None
                editor.roster_tree.focus()
                await settle(pilot, editor)
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
            problems = await sent_problems(pilot, terminal)  # (before any full drawing)
            assert not problems, (steps, editor.selected, problems)
            problems = (
                screen_problems(app, editor)
                + drop_down_problems(editor)
                + catalog_id_problems(editor)
            )
            assert not problems, (steps, editor.selected, problems)
            on_screen = [
                w
                for w in editor.details.query(ChoiceSelect)
                if w.display and w.name and editor.details.region.contains_region(w.region)
            ]
            if on_screen and rng.random() < 0.4:  # a drop-down opened: its list, priced
                select = rng.choice(on_screen)
                steps.append(f"open {select.name}")
                problems = await opened_problems(pilot, editor, select, terminal)
                assert not problems, (steps, editor.selected, problems)
                editor.roster_tree.focus()
                await settle(pilot, editor)
                problems = await sent_problems(pilot, terminal)  # (and closed)
                assert not problems, (steps, editor.selected, problems)
            before_rows = painted(app)
            after = await repainted_whole(pilot)
            stale = [
                (y, a, b) for y, (a, b) in enumerate(zip(before_rows, after, strict=True)) if a != b
            ]
            assert not stale, (steps, stale)
            problems = await sent_problems(pilot, terminal)  # (the repaint's frame too)
            assert not problems, (steps, problems)
        assert edited, steps  # the walk edited something (else it proves little)


@run_async
async def test_tab_reaches_every_drop_down_of_a_40k_squad_at_80x24(
    make_app: Any, workdir: Path, marines: tuple[str, Library]
) -> None:
    """Tab from the first field of the details walks through every one of a unit's
    drop-downs (the pick-one groups), each brought on screen, before it leaves the pane: at
    80x24 most of them are below the fold (a pane that built only the groups on screen let
    Tab skip from the last text field to the catalog). The unit: the roster's with the most
    drop-downs (a Redemptor Dreadnought's weapon choices; the Intercessor Squad's were
    Crusade groups, hidden in a roster that is not a Crusade one)."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        squad = most_drop_downs(session, ev)
        editor.jump_to(squad.loc)
        await settle(pilot, editor)
        details = editor.query_one(DetailsPane)
        wanted = [  # (the pane keeps spare slots hidden for the next unit: not these)
            w
            for w in details.query(ChoiceSelect)
            if all(a.display for a in w.ancestors_with_self if a is not details)
            and details in w.ancestors
        ]
        assert len(wanted) >= 3, len(wanted)  # (the unit's pick-one drop-downs)
        await pilot.press("f6")
        await pilot.pause()
        reached: list[ChoiceSelect] = []
        for _ in range(len(wanted) + 20):
            await pilot.press("tab")
            await pilot.pause()
            focused = app.focused
            if focused is None or details not in focused.ancestors_with_self:
                break
            if isinstance(focused, ChoiceSelect):
                reached.append(focused)
                # On screen: inside the pane's visible region.
                assert details.region.contains_region(focused.region), focused.region
        assert reached == wanted, (len(reached), len(wanted))


@run_async
async def test_drop_downs_given_new_options_paint_the_roster_choice(
    make_app: Any, workdir: Path, marines: tuple[str, Library]
) -> None:
    """A drop-down given other options in place (another unit's group in its slot, prices
    changed by an edit) paints closed the label of the roster's choice: the squad, units of
    other option groups and back, a count +1 and its undo, each checked on screen."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        units = [
            n
            for n in ev.nodes()
            if n.entry is not None and not n.is_root and n.force is None and n.entry.groups
        ]
        squad = next(
            n for n in units if n.entry is not None and n.entry.name == "Intercessor Squad"
        )
        # (three units of other kinds, those with the most drop-downs first: the squad's
        # own groups are Crusade ones, hidden outside a Crusade roster)
        units.sort(key=lambda n: -drop_downs_offered(session, ev, n))
        others: list[Any] = []
        for n in units:
            if n.entry is not None and all(n.entry.id != o.entry.id for o in [squad, *others]):
                others.append(n)
            if len(others) == 3:
                break
        editor.roster_tree.focus()
        checked = 0
        for loc in [squad.loc, *(o.loc for o in others), squad.loc]:
            editor.jump_to(loc)
            await settle(pilot, editor)
            for key in ["", "plus", "ctrl+z"]:
                if key:
                    await pilot.press(key)
                    await settle(pilot, editor)
                problems = drop_down_problems(editor) + catalog_id_problems(editor)
                assert not problems, (loc, key, problems)
                checked += sum(
                    1 for s in editor.details.query(ChoiceSelect) if s.display and s.name
                )
        assert checked > 20, checked  # drop-downs were on screen to check


@run_async
async def test_count_edits_repaint_every_pane_as_the_session_says(
    make_app: Any, workdir: Path, marines: tuple[str, Library]
) -> None:
    """Count edits on units of several kinds (+, + again, -, undo, redo), each checked at once
    on the whole screen against the session and against a repaint from scratch: the tree, the
    catalog and the details pane redraw only what an edit changed, and a line left as it was
    must still be what the session computes (a unit's count and cost, the roster's total,
    the group headings' limits, the catalog's prices and availability)."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        units = [
            n
            for n in ev.nodes()
            if n.entry is not None and not n.is_root and n.force is None and n.entry.groups
        ]
        picked: list[Any] = []
        for name in ("Intercessor Squad", "Captain"):
            picked += [n for n in units if n.entry is not None and n.entry.name == name][:1]
        picked += [n for n in units if n.entry is not None and n.entry.id not in
                   {p.entry.id for p in picked}][:2]  # fmt: skip
        editor.roster_tree.focus()
        checked = 0
        for node in picked:
            editor.jump_to(node.loc)
            await settle(pilot, editor)
            # +, + again, -, the - undone, the second + undone, that + redone (before: "ctrl+y",
            # "ctrl+z", "ctrl+z", whose undo after the redo went from and to the screens the
            # first undo did: the same frame drawn again, 1/7 of the test's CPU).
            for key in ["plus", "plus", "minus", "ctrl+z", "ctrl+z", "ctrl+y"]:
                await pilot.press(key)
                await settle(pilot, editor)
                where = (ev.where(node), key)
                await pilot.pause()
                # What the terminal got (the frames' changed spans written in place) first:
                # the checks below draw the whole screen afresh.
                problems = terminal.problems()
                assert not problems, (where, problems)
                problems = screen_problems(app, editor) + drop_down_problems(editor)
                assert not problems, (where, problems)
                before_rows = painted(app)
                after = await repainted_whole(pilot)
                stale = [
                    (y, a, b)
                    for y, (a, b) in enumerate(zip(before_rows, after, strict=True))
                    if a != b
                ]
                assert not stale, (where, stale)
                checked += 1
        assert checked == 6 * len(picked) and len(picked) == 4, (checked, len(picked))


def priced_choice_units(session: Any) -> list[Any]:
    """The roster's units (in the tree's order) of which a group offers at least two
    options that the session prices (what adding each costs there is not nothing)."""
    ev = session.evaluate()
    units = []
    for node in ev.nodes():
        if node.entry is None or node.is_root or node.force is not None:
            continue
        costs = {
            i.entry_id: costs_text(ev.index, i.costs) for i in session.option_infos(node.loc, ev)
        }
        priced: dict[str, int] = {}
        for c in session.options(node.loc, ev):
            if c.group is not None and costs.get(c.entry.id):
                priced[c.group.id] = priced.get(c.group.id, 0) + 1
        if any(n >= 2 for n in priced.values()):
            units.append(node)
    return units


@run_async
async def test_an_open_drop_down_lists_the_prices_of_the_latest_edit(
    make_app: Any, workdir: Path, marines: tuple[str, Library]
) -> None:
    """The details pane prices a drop-down's options when it opens (closed, it shows its
    choice only): opened after another choice in its group, after a count +1 and after undo,
    its list shows what adding each option costs now, never the prices of an earlier opening."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.roster_tree.focus()
        found = None
        # The session names the units with a group of two options or more that cost
        # something to add; the pane is opened on those only, in the roster's order.
        for node in priced_choice_units(session):
            editor.jump_to(node.loc)
            await settle(pilot, editor)
            for select in editor.details.query(ChoiceSelect):
                labels = [label for label, _ in select.offered()] if select.display else []
                if sum(" · " in label for label in labels) >= 2:
                    found = (node.loc, select)
                    break
            if found:
                break
        assert found, "no unit of the roster offers two priced options in a drop-down"
        loc, select = found
        gid = (select.name or "")[len("grp:") :]
        others = [v for _, v in select.offered()]
        checked = 0
        for step in ["", "choose", "choose", "plus", "ctrl+z", "ctrl+z"]:
            if step == "choose":
                value = next(v for v in others if v != select.value)
                others.remove(value)
                editor.details.post_message(DetailsPane.Edit(loc, f"choice:{gid}", value))
            elif step:
                editor.roster_tree.focus()
                await pilot.press(step)
            await settle(pilot, editor)
            editor.details.scroll_to_widget(select, animate=False)
            await settle(pilot, editor)
            problems = await opened_problems(pilot, editor, select)
            assert not problems, (step, problems)
            checked += 1
        assert checked == 6


#: Ways of scrolling the catalog's list (the list focused; "wheel": the mouse's wheel).
SCROLLS = ["pagedown", "pagedown", "pageup", "end", "home", "down", "up", "wheel+", "wheel-"]
SIZES = [(160, 48), (80, 24)]


def wheel(widget: Any, down: bool) -> None:
    """One notch of the mouse wheel over ``widget``, as the terminal reports it."""
    kind = events.MouseScrollDown if down else events.MouseScrollUp
    widget.post_message(kind(widget, 2, 2, 0, 1 if down else -1, 0, False, False, False))


def catalog_steps(editor: EditorScreen, rng: random.Random) -> list[str]:
    """A random step of a walk in the catalog: a scroll, keys of a search (a few letters of
    an option's name, Backspace, Esc), a resize, or an edit that changes figures."""
    catalog = editor.catalog
    r = rng.random()
    if r < 0.5:
        return [rng.choice(SCROLLS) for _ in range(rng.choice([1, 1, 2]))]
    if r < 0.72:  # a search of one to three letters (a long list, or a short one), or less
        names = [c.entry.name.lower() for c in catalog._options]
        name = rng.choice(names)
        at = rng.randrange(max(1, len(name) - 2))
        word = [*name[at : at + rng.randint(1, 3)].replace(" ", "")]
        if catalog.search.value:
            return rng.choice([["backspace"], ["escape"], ["escape", *word]])
        return word
    if r < 0.82:
        return ["resize"]
    return [rng.choice(["add", "add", "undo"])]


async def catalog_walk(
    pilot: Any, editor: EditorScreen, rng: random.Random, steps: int
) -> list[str]:
    """``steps`` random steps (:func:`catalog_steps`); after each every row the catalog's
    list paints is the session's (no old price, no unpriced row, none of another place), no
    row of the screen differs from a repaint from scratch, and no row came into view
    unpriced (the tree never had to price a row at the last moment)."""
    app = pilot.app
    catalog = editor.catalog
    tree = catalog.catalog_tree
    terminal = Terminal(app)
    app.screen.refresh()  # (a full frame to start from)
    await pilot.pause()
    done: list[str] = []
    # First down the whole list (no search), then at random.
    first = [["pagedown"], ["wheel+"], ["pagedown", "pagedown"], ["end"], ["wheel-"]]
    for step in range(steps):
        keys = first[step] if step < len(first) else catalog_steps(editor, rng)
        done.append(" ".join(keys))
        for key in keys:
            if key in SCROLLS:
                if app.focused is not tree:
                    tree.focus()
                    await pilot.pause()
                if key.startswith("wheel"):
                    wheel(tree, key == "wheel+")
                else:
                    await pilot.press(key)
            elif key == "resize":
                width, height = app.size
                new = SIZES[1] if (width, height) == SIZES[0] else SIZES[0]
                await pilot.resize_terminal(*new)
            elif key == "add":  # what the list highlights, added where it adds
                option = catalog.highlighted() or catalog.first_match()
                if option is not None:
                    editor.add_entry(option, catalog.target)
            elif key == "undo":
                editor.roster_tree.focus()
                await pilot.pause()
                await pilot.press("ctrl+z")
            else:
                if app.focused is not catalog.search:
                    catalog.search.focus()
                    await pilot.pause()
                await pilot.press(key)
        await settle(pilot, editor)
        problems = await sent_problems(pilot, terminal)  # (before any full drawing)
        assert not problems, (done, tree.scroll_offset.y, problems)
        problems = catalog_view_problems(app, editor)
        assert not problems, (done, tree.scroll_offset.y, problems)
        assert tree.late_lines == 0, (done, "a row came into view unpriced")
        before = painted(app)
        after = await repainted_whole(pilot)
        stale = [(y, a, b) for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
        assert not stale, (done, stale)
        problems = await sent_problems(pilot, terminal)  # (the repaint's frame too)
        assert not problems, (done, problems)
    return done


@pytest.mark.parametrize(
    ("where", "size", "idle"), [("top", SIZES[0], False), ("squad", SIZES[1], True)]
)
@run_async
async def test_scrolling_and_searching_the_40k_catalog_paints_the_sessions_prices(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],
    where: str,
    size: tuple[int, int],
    idle: bool,
) -> None:
    """The catalog prices the rows in view (and a margin) when they come into view, the
    others while idle: random walks over the 40k catalog (the roster's top, 88 entries
    offered, and an Intercessor Squad's few options) that scroll it (PageDown, PageUp,
    End, Home, the cursor, the mouse wheel), search and clear the search, resize the
    terminal between 160x48 and 80x24 and edit the roster (an entry added, undone), after
    each step every painted row of the list being the session's
    (:func:`screen.catalog_view_problems`). ``idle``: off, no option is priced but as its
    row comes into view (so every row on screen was priced by the scroll, the search, the
    resize or the edit that showed it)."""
    path, library = space_marines(workdir, marines)
    rng = random.Random(SEED + "catalog" + where)
    app = make_app(path, library=library)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        editor.catalog.price_off_screen = idle
        session = editor.session
        assert session is not None
        if where == "squad":
            ev = session.evaluate()
            squad = next(
                n for n in ev.nodes() if n.entry is not None and n.entry.name == "Intercessor Squad"
            )
            editor.jump_to(squad.loc)
        else:
            editor.jump_to(())
        await settle(pilot, editor)
        # (the roster's top: a list of several screens, 88 entries once what the roster hides
        # is left out; the squad: its few options, the Crusade groups hidden)
        assert len(editor.catalog._options) > (80 if where == "top" else 2), len(
            editor.catalog._options
        )
        await catalog_walk(pilot, editor, rng, CATALOG_STEPS)
