"""The details pane reuses its widgets from unit to unit and edit to edit, and never shows a
stale value (Pilot, headless).

Random walks over real rosters (moving the cursor between units of other option groups,
counts up and down, drop-down choices, quick fixes of a misspelt entry, undo and redo): after
every step, what the pane paints (its heading, each group's heading and its chosen option or
list) and what its drop-downs hold (value and options, each priced) are compared with what
the session computes for the selected unit, from the evaluation alone, not from the widgets.
A drop-down or heading left over from the unit shown before, or an option priced as before an
edit, is a failure.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import expected_head, node_at, normal, painted, pane_lines
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Select

from armybuilder.catalog import walk_groups
from armybuilder.session import EditSession, Loc, SetKey, costs_text, limit_text
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.details import ChoiceSelect
from armybuilder.tui.widgets.stable import LiveStatic
from armybuilder.words import tally

#: What a walk does, as often as each is listed.
STEPS = ["jump", "jump", "key", "plus", "minus", "choose", "choose", "fix", "misspell", "undo",
         "redo", "open"]  # fmt: skip

#: Tall enough that the whole details pane shows without scrolling.
SIZE = (160, 90)


def expected_groups(session: EditSession, loc: Loc) -> list[tuple[str, str, list[str] | None]]:
    """Each group of the unit at ``loc`` that offers something, as the pane must show it:
    (heading, what is chosen, the drop-down's option labels or ``None`` for a list)."""
    ev = session.evaluation
    assert ev is not None
    node = node_at(ev, loc)
    entry = node.entry
    if entry is None or node.is_root or node.force is not None:
        return []
    costs = {i.entry_id: costs_text(ev.index, i.costs) for i in session.option_infos(loc, ev)}
    limits = session.group_limits(loc, ev)
    children = session.options(loc, ev)  # (what the data hides here left out)
    out: list[tuple[str, str, list[str] | None]] = []
    for g in walk_groups(entry.groups):
        offered = [c.entry for c in children if c.group is not None and c.group.id == g.id]
        if not offered:
            continue
        limit = limits.get(g.id)
        if limit is None:
            heading = f"{g.name} ({limit_text(g.min, g.max)})"
        else:
            heading = f"{g.name} ({limit.range_text})"
            heading += f": {limit.count_text}" if limit.count_text else ""
        chosen = [c for c in node.children if c.group is not None and c.group.id == g.id]

        def label(e: Any) -> str:
            cost = costs.get(e.id, "")
            return f"{e.name} · {cost}" if cost else e.name

        if g.max == 1:
            ids = [e.id for e in offered]
            shown = (
                label(offered[ids.index(chosen[0].entry_id)])
                if len(chosen) == 1 and chosen[0].entry_id in ids
                else "(none)"
            )
            out.append((heading, shown, [label(e) for e in offered]))
        else:
            listed = ", ".join(tally((ev.name(c), c.count) for c in chosen)) or "none"
            out.append((heading, f"{listed}  (add from the catalog)", None))
    return out


def opened_list(select: Select[str]) -> list[str]:
    """The option lines of a drop-down's open list (the blank line left out)."""
    from textual.widgets._select import SelectOverlay

    overlay = select.query_one(SelectOverlay)
    return [str(overlay.get_option_at_index(i).prompt) for i in range(1, overlay.option_count)]


async def open_problems(pilot: Pilot[Any], editor: EditorScreen, rng: random.Random) -> list[str]:
    """Open a drop-down (Enter on it) and compare its list with what the session prices for
    the unit; its cursor must be on the choice. Closed again with Escape."""
    from textual.widgets._select import SelectOverlay

    session = editor.session
    assert session is not None
    selects = [s for s in editor.details.query_one("#d-groups").query(Select) if shows(s)]
    if not selects:
        return []
    # The slots show the unit's drop-downs in the order of its groups.
    dropdowns = [g[2] for g in expected_groups(session, editor.selected) if g[2] is not None]
    n = rng.randrange(len(selects))
    select, want = selects[n], dropdowns[n] if n < len(dropdowns) else None
    select.focus()
    await pilot.press("enter")
    await pilot.pause()
    out: list[str] = []
    got = opened_list(select)
    if not select.expanded:
        out.append(f"{select.name}: Enter did not open it")
    elif want is not None and got != want:
        out.append(f"{select.name} opened offers {got}, expected {want}")
    overlay = select.query_one(SelectOverlay)
    values = [v for _, v in select._options]
    at = values.index(select.value) if select.value is not Select.NULL else None
    if select.value is not Select.NULL and overlay.highlighted != at:
        out.append(f"{select.name} opened on line {overlay.highlighted}, its choice is {at}")
    await pilot.press("escape")
    await pilot.pause()
    editor.roster_tree.focus()
    await pilot.pause()
    return out


def shows(widget: Widget) -> bool:
    return all(w.display for w in widget.ancestors_with_self if isinstance(w, Widget))


def problems(app: Any, editor: EditorScreen) -> list[str]:
    """Where the pane differs from what the session computes for the selected unit."""
    session = editor.session
    assert session is not None
    ev = session.evaluation
    assert ev is not None
    loc = editor.selected
    node = node_at(ev, loc)
    details = editor.details
    rows = painted(app)
    out: list[str] = []
    head = [normal(t) for t in pane_lines(app, details.query_one("#d-head", LiveStatic), rows)]
    for want in expected_head(ev, loc):
        if not any(normal(want) in line for line in head):
            out.append(f"head: {want!r} not in {head}")
    groups = expected_groups(session, loc)
    box = details.query_one("#d-groups")
    if not groups:
        visible = [w for w in box.children if shows(w)]
        if visible and not node.is_root and node.force is None:
            out.append(f"no groups, but {[w.name for w in visible]} show")
        return out
    lines = [normal(t) for t in pane_lines(app, box, rows) if t.strip()]
    want_lines: list[str] = []
    for heading, shown, _ in groups:
        want_lines += [normal(heading), normal(shown)]
    if len(lines) != len(want_lines):
        out.append(f"groups painted {lines}, expected {want_lines}")
    for got, want in zip(lines, want_lines, strict=False):
        # A drop-down's line ends with its arrow; a long label may be cut at the pane's edge.
        got = got.removesuffix("▼").rstrip().rstrip("…")
        if not (got and want.startswith(got) and len(got) >= min(len(want), 12)):
            out.append(f"painted {got!r}, expected {want!r}")
    selects = [s for s in box.query(Select) if shows(s)]
    dropdowns = [g for g in groups if g[2] is not None]
    if len(selects) != len(dropdowns):
        out.append(f"{len(selects)} drop-downs show, {len(dropdowns)} expected")
    for select, (heading, shown, options) in zip(selects, dropdowns, strict=False):
        # What it lists open (its options are priced when it opens), and what it holds
        # closed (the choice's label priced).
        assert isinstance(select, ChoiceSelect)
        held = [label for label, _ in select.offered()]
        if held != options:
            out.append(f"{heading}: the drop-down offers {held}, expected {options}")
        value = select.value
        closed = select.held
        label = "(none)" if value is Select.NULL else closed[[v for _, v in closed].index(value)][0]
        if label != shown:
            out.append(f"{heading}: the drop-down holds {label!r}, expected {shown!r}")
    count = details.query_one("#d-count", Input)
    if not count.has_focus and count.value != str(node.count):
        out.append(f"count field {count.value!r}, the unit has {node.count}")
    return out


async def settled(pilot: Pilot[Any], editor: EditorScreen) -> None:
    session = editor.session
    assert session is not None
    await wait_for(
        pilot,
        lambda: (
            editor.shown_generation == session.generation
            and not editor._eval_running
            and not editor.details.busy
        ),
        timeout=10,
    )
    await pilot.pause()


async def walk(pilot: Pilot[Any], editor: EditorScreen, seed: int, steps: int) -> list[str]:
    """Random steps; returns what went wrong (the step and the pane's differences)."""
    rng = random.Random(seed)
    app = pilot.app
    session = editor.session
    assert session is not None
    editor.roster_tree.focus()
    log: list[str] = []
    failures: list[str] = []
    for step in range(steps):
        ev = session.evaluation
        assert ev is not None
        units = [n.loc for n in ev.nodes() if not n.is_root]
        kind = rng.choice(STEPS)
        if kind == "jump":
            editor.jump_to(rng.choice(units))
        elif kind == "key":
            editor.roster_tree.focus()
            await pilot.press(*([rng.choice(["down", "up"])] * rng.randint(1, 3)))
        elif kind in ("plus", "minus"):
            editor.roster_tree.focus()
            await pilot.press(kind)
        elif kind == "choose":
            selects = [s for s in editor.details.query_one("#d-groups").query(Select) if shows(s)]
            if selects:
                select = rng.choice(selects)
                values = [v for _, v in select._options if v != select.value]
                select.value = rng.choice(values)  # as a pick in the drop-down does
        elif kind == "fix":
            await pilot.press("full_stop")
        elif kind == "misspell":
            loc = editor.selected
            node = node_at(ev, loc)
            if node.entry is not None and not node.is_root and node.force is None:
                bad = node.entry.id[:-1] + ("x" if node.entry.id[-1] != "x" else "y")
                session.apply("misspell", [SetKey(loc, "entry", bad)], loc, loc)
                editor.after_edit()
        elif kind == "undo":
            await pilot.press("ctrl+z")
        elif kind == "redo":
            await pilot.press("ctrl+y")
        await settled(pilot, editor)
        log.append(f"{step}: {kind} -> {editor.selected}")
        found = problems(app, editor)
        if kind == "open" and not found:
            found = await open_problems(pilot, editor, rng)
        if found:
            failures.append(" | ".join(log[-4:]) + "\n  " + "\n  ".join(found))
            break
    return failures


async def _walks(make_app: Any, path: Path, seeds: range, steps: int) -> None:
    app = make_app(path, catalog_poll_seconds=None)
    async with app.run_test(size=SIZE) as pilot:
        editor = await wait_editor(pilot)
        await settled(pilot, editor)
        for seed in seeds:
            failures = await walk(pilot, editor, seed, steps)
            assert not failures, f"seed {seed}:\n" + "\n".join(failures)


@run_async
async def test_terminators_and_their_librarian(make_app: Any, workdir: Path) -> None:
    """Space Hulk (rules 2.3, a Terminator's one ranged and one close-combat weapon): the
    librarian, the sergeant and the troopers each have other groups."""
    path = workdir / "squad-with-librarian.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "squad-with-librarian.yaml", path)
    await _walks(make_app, path, range(1), 30)


@run_async
async def test_a_martian_boarding_group(make_app: Any, workdir: Path) -> None:
    """Starship Marine: officers, marines and robots with armour and weapon groups, costs
    that change with the count (an option's price is per model)."""
    path = workdir / "martian-boarding-group.yaml"
    shutil.copy(EXAMPLES / "starship-marine" / "martian-boarding-group.yaml", path)
    await _walks(make_app, path, range(1), 30)


@run_async
async def test_a_drop_down_filled_for_another_unit_is_caught(
    make_app: Any, workdir: Path, monkeypatch: Any
) -> None:
    """The check above can fail: a pane that reuses a drop-down without giving it the new
    unit's options (as a careless reuse would) is reported."""
    from armybuilder.tui.widgets import details

    monkeypatch.setattr(
        details.DetailsPane, "_fill_select", lambda self, slot, options, value, pricer=None: None
    )
    path = workdir / "squad-with-librarian.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "squad-with-librarian.yaml", path)
    app = make_app(path, catalog_poll_seconds=None)
    async with app.run_test(size=SIZE) as pilot:
        editor = await wait_editor(pilot)
        await settled(pilot, editor)
        editor.jump_to(("selections", 0))  # the librarian
        await settled(pilot, editor)
        editor.jump_to(("selections", 1, "selections", 1))  # a Terminator: other groups
        await settled(pilot, editor)
        assert problems(app, editor)


@run_async
async def test_typing_is_kept_when_the_pane_catches_up(make_app: Any, workdir: Path) -> None:
    """A name typed while the pane still shows the unit the tree left (the next one's check
    not back yet) is neither replaced by the new unit's name when the pane catches up nor
    lost: it renames the unit shown then. An untouched focused field shows the new name."""
    path = workdir / "standard-squad.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "standard-squad.yaml", path)
    app = make_app(path)
    async with app.run_test(size=SIZE) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        squad: Loc = ("selections", 0)
        other = session.duplicate(squad, "Zulu")
        ev = session.evaluate()
        details = editor.details
        details.show(ev, squad)
        await pilot.pause()
        name = details.query_one("#d-name", Input)
        name.focus()
        await pilot.pause()
        shown = name.value
        name.value = "Bravo"  # typed while the pane shows the first squad
        details.show(ev, other)  # the pane catches up with the copy the tree moved to
        await pilot.pause()
        assert name.value == "Bravo"
        edit = details.take_pending()
        assert edit is not None and edit.loc == other and edit.value == "Bravo"
        # Taken (nothing typed since): the focused field shows the unit now shown.
        details.show(ev, squad)
        await pilot.pause()
        assert name.value == shown


@run_async
async def test_an_open_list_left_from_another_unit_is_caught(
    make_app: Any, workdir: Path, monkeypatch: Any
) -> None:
    """The drop-downs build their open list when opened (not at each fill): one that opened
    on the list it held before (as a list never rebuilt would) is reported by the check."""
    from textual.widgets import Select as PlainSelect

    from armybuilder.tui.widgets import details

    monkeypatch.setattr(details.ChoiceSelect, "_watch_expanded", PlainSelect._watch_expanded)
    path = workdir / "squad-with-librarian.yaml"
    shutil.copy(EXAMPLES / "space-hulk" / "squad-with-librarian.yaml", path)
    app = make_app(path, catalog_poll_seconds=None)
    async with app.run_test(size=SIZE) as pilot:
        editor = await wait_editor(pilot)
        await settled(pilot, editor)
        editor.jump_to(("selections", 1, "selections", 1))  # a Terminator
        await settled(pilot, editor)
        assert not problems(app, editor)
        found = [await open_problems(pilot, editor, random.Random(n)) for n in range(3)]
        assert any(found)


@run_async
async def test_a_list_counts_an_option_chosen_twice(make_app: Any, workdir: Path) -> None:
    """A group of many choices lists an option chosen in two selections once, counted as the
    tree and ``show`` count it ("SRM1 reload (2 shots) ×2"), not its name twice."""
    text = (EXAMPLES / "infantry-ops" / "rifle-srm-platoon.yaml").read_text("utf-8")
    one = "              - entry: srm1-ammo\n"
    assert text.count(one) == 1
    path = workdir / "two-reloads.yaml"
    path.write_text(text.replace(one, one * 2), encoding="utf-8")
    app = make_app(path, catalog_poll_seconds=None)
    async with app.run_test(size=SIZE) as pilot:
        editor = await wait_editor(pilot)
        await settled(pilot, editor)
        riflemen: Loc = ("selections", 0, "selections", 1, "selections", 0)
        editor.jump_to(riflemen)
        await settled(pilot, editor)
        assert not problems(app, editor)
        box = editor.details.query_one("#d-groups")
        lines = [normal(t) for t in pane_lines(app, box) if t.strip()]
        assert "SRM1 reload (2 shots) ×2 (add from the catalog)" in lines, lines
