"""Random walks on BattleScribe data (issue 18): a Gaslands roster and a Space Station Zero
roster opened from a ``.ros``, walked by the keys a player presses, every pane compared with
the session after each step, and what the terminal was sent with a whole drawing.

The walks of ``test_screen_model.py`` cover our own example systems; these cover the data
read from ``../shared/bsdata`` (Gaslands: vehicles whose weapons have a Mounting drop-down
and a Build Slots limit; Space Station Zero: a crew with a Commander's stat points and a
ship type, nested groups, no costs). Each step is one of: an add from the catalog (F4, a
few lines down, Enter), a count (+/-), a choice in a drop-down (its list opened with Enter,
a line chosen with the arrows and Enter, or closed with Esc after a key that must wait),
a name typed in the details (applied by Enter, or undone by Ctrl+Z typed there), undo,
redo, delete, duplicate, and cursor moves. Skipped with a message where the data is absent.
``ARMYBUILDER_BS_STEPS`` and ``ARMYBUILDER_BS_SEED`` make longer or other walks."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import Terminal, normal, painted, pane_lines
from test_details_reuse import problems as group_problems
from test_screen_model import repainted_whole, screen_problems, sent_problems, settle
from textual.pilot import Pilot
from textual.widgets import Input, Select

from armybuilder.catalog import Library, walk_groups
from armybuilder.rules.engine import Evaluation
from armybuilder.session import Loc
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.roster_tree import node_at

MakeApp = Callable[..., ArmyBuilderApp]
BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"
STEPS = int(os.environ.get("ARMYBUILDER_BS_STEPS", "20"))
SEED = os.environ.get("ARMYBUILDER_BS_SEED", "")

#: What a step does, as often as each is listed.
KINDS = ["move", "move", "move", "add", "add", "plus", "minus", "choose", "choose", "wait",
         "name", "undo", "redo", "delete", "duplicate"]  # fmt: skip
#: Keys that must wait while a drop-down's list is open (test_open_list_keys.py).
WAITING = ["insert", "delete", "ctrl+z", "ctrl+y", "f8"]

GASLANDS = """format: 1
system: gaslands
faction: gaslands
name: Road Team
limits: {cans: 50}
selections:
  - entry: 7209-f619-ccee-874e        # Sponsor
    selections:
      - entry: f324-d908-797f-872a
  - entry: c4d1-c411-d2c4-c182        # Performance Car
    selections:
      - entry: bbee-877e-1934-1980    # Machine Gun
        selections:
          - entry: bab2-4a49-836f-eee7
      - entry: cfd0-bc98-e1d7-adc5    # Mini-Gun
        selections:
          - entry: e67e-9cf3-620d-fd1d
  - entry: b5d8-cf00-181a-b503        # Bike
"""

CREW = """format: 1
system: space-station-zero
faction: crew
name: Zero Crew
selections:
  - entry: c219-e472-b501-4304        # Commander
    selections:
      - entry: 7c17-d1a2-8144-67a6    # +1 Reaction
      - entry: c3ea-6324-162a-11e0    # +1 Combat
  - entry: 62cb-4e43-285f-598a        # Ship Type
    selections:
      - entry: e566-19b3-e3dc-edc9    # War
  - entry: 13b8-ea5a-1e03-75c7        # Scientist
  - entry: 2134-f74f-8371-b3b5        # Medical Officer
    count: 2
"""


def shows(widget: Any) -> bool:
    return bool(widget.region) and all(w.display for w in widget.ancestors_with_self)


def field_problems(app: ArmyBuilderApp, editor: EditorScreen, rows: list[str]) -> list[str]:
    """The details' text fields not being typed in show what the roster has (the name or,
    unnamed, the entry's name as the placeholder; the count; the notes; the roster's name)."""
    s = editor.session
    assert s is not None and s.evaluation is not None
    ev: Evaluation = s.evaluation
    loc = editor.selected
    node = node_at(ev, loc)
    data = node.data
    want: dict[str, str] = {}
    if node.is_root:
        want["d-roster-name"] = ev.roster.name
    elif node.force is None and data is not None:
        want = {"d-name": data.name or "", "d-count": str(node.count), "d-notes": data.notes or ""}
    out = []
    pane = editor.details.content_region
    for wid, value in want.items():
        field = editor.details.query_one(f"#{wid}", Input)
        if field.has_focus:
            continue
        if field.value != value:
            out.append(f"#{wid} holds {field.value!r}, the roster has {value!r}")
        if not shows(field) or not pane.contains_region(field.region):
            continue
        text = normal(" ".join(pane_lines(app, field, rows)))
        if value and text not in value:
            out.append(f"#{wid} painted {text!r}, the roster has {value!r}")
        if not value and text and text != normal(field.placeholder):
            out.append(f"#{wid} painted {text!r} for no value (placeholder {field.placeholder!r})")
    return out


def with_dropdown(editor: EditorScreen) -> list[Loc]:
    """The units whose details have a drop-down (a group of at most one choice that offers
    something there)."""
    s = editor.session
    assert s is not None and s.evaluation is not None
    ev = s.evaluation
    out = []
    for node in ev.nodes():
        if node.is_root or node.force is not None or node.entry is None:
            continue
        offered = {c.group.id for c in s.options(node.loc, ev) if c.group is not None}
        if any(g.max == 1 and g.id in offered for g in walk_groups(node.entry.groups)):
            out.append(node.loc)
    return out


async def go_to(pilot: Pilot[Any], editor: EditorScreen, loc: Loc) -> None:
    """Move the tree's cursor to ``loc`` with Up and Down where its line shows; else as F8
    does (opening what holds it)."""
    tree = editor.roster_tree
    tree.focus()
    lines = [line.path[-1].data for line in tree._tree_lines]
    if loc in lines and tree.cursor_line >= 0:
        delta = lines.index(loc) - tree.cursor_line
        await pilot.press(*(["down"] * delta if delta > 0 else ["up"] * -delta))
    else:
        editor.jump_to(loc)
    await settle(pilot, editor)


async def step(pilot: Pilot[Any], editor: EditorScreen, kind: str, rng: random.Random) -> str:
    """Press the keys of one step; what was pressed, for the failure's message."""
    app = pilot.app
    tree = editor.roster_tree
    s = editor.session
    assert s is not None and s.evaluation is not None
    if kind == "move":
        keys = [
            rng.choice(["down", "down", "up", "right", "left"]) for _ in range(rng.randint(1, 3))
        ]
    elif kind == "add":
        keys = ["f4", *["down"] * rng.randrange(6), "enter", "f3"]
    elif kind in ("plus", "minus", "delete"):
        keys = [kind]
    elif kind == "duplicate":
        keys = ["d"]
    elif kind == "undo":
        keys = ["ctrl+z"]
    elif kind == "redo":
        keys = ["ctrl+y"]
    elif kind == "name":
        if editor.selected and node_at(s.evaluation, editor.selected).force is not None:
            return "name (a force)"
        keys = ["f6", "ctrl+u", *f"N{rng.randrange(100)}", rng.choice(["enter", "ctrl+z", "f3"])]
    else:  # a drop-down: chosen from its list, or a key that must wait while it is open
        units = with_dropdown(editor)
        if not units:
            return f"{kind} (no drop-down in the roster)"
        if editor.selected not in units:
            await go_to(pilot, editor, rng.choice(units))
        selects = [sel for sel in editor.details.query(Select) if shows(sel)]
        assert selects, (editor.selected, "shows no drop-down")
        select = rng.choice(selects)
        select.focus()
        await pilot.pause()
        await pilot.press("enter")
        await wait_for(pilot, lambda: select.expanded)
        history = list(s.history)
        if kind == "choose":
            keys = [*[rng.choice(["down", "up"])] * rng.randint(1, 3), "enter"]
            for key in keys:
                await pilot.press(key)
        else:
            keys = [rng.choice(WAITING), "escape"]
            await pilot.press(keys[0])
            await settle(pilot, editor)
            assert s.history == history, (keys[0], "acted with the list open", s.history)
            assert select.expanded, (keys[0], "closed the list")
            await pilot.press(keys[1])
        await pilot.pause()
        tree.focus()
        return f"{kind} {select.name} of {editor.selected}: enter {' '.join(keys)}"
    for key in keys:
        await pilot.press(key)
    if app.focused is not tree and not isinstance(app.focused, Input):
        tree.focus()
    return " ".join(keys)


async def walk(make_app: MakeApp, path: Path, lib: Library, size: tuple[int, int]) -> None:
    rng = random.Random(f"{SEED}{path.name}{size}")
    app = make_app(path, library=lib, cwd=path.parent)
    async with app.run_test(size=size) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot, timeout=30)
        s = editor.session
        assert s is not None
        editor.roster_tree.focus()
        await settle(pilot, editor)
        steps: list[str] = []
        for _ in range(STEPS):
            kind = rng.choice(KINDS)
            steps.append(await step(pilot, editor, kind, rng))
            if isinstance(app.focused, Input):
                editor.roster_tree.focus()  # (the name typed is applied as the field is left)
            await settle(pilot, editor)
            where = (steps[-4:], editor.selected)
            problems = await sent_problems(pilot, terminal)  # (before any full drawing)
            assert not problems, (where, problems)
            rows = painted(app)
            problems = screen_problems(app, editor) + field_problems(app, editor, rows)
            details = editor.details
            if details.virtual_size.height <= details.scrollable_content_region.height:
                problems += group_problems(app, editor)  # (the whole pane shows)
            assert not problems, (where, problems)
            after = await repainted_whole(pilot)
            stale = [(y, a, b) for y, (a, b) in enumerate(zip(rows, after, strict=True)) if a != b]
            assert not stale, (where, stale)
            problems = await sent_problems(pilot, terminal)
            assert not problems, (where, problems)
        # The walk did something: it edited and moved.
        assert s.history, steps


@pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(),
    reason=f"the Gaslands BattleScribe data is not at {BSDATA / 'gaslands'}",
)
@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
@run_async
async def test_walk_a_gaslands_roster(make_app: MakeApp, tmp_path: Path, size: Any) -> None:
    path = tmp_path / "road-team.yaml"
    path.write_text(GASLANDS, encoding="utf-8")
    await walk(make_app, path, Library([BSDATA / "gaslands"]).scan(), size)


@pytest.mark.skipif(
    not (BSDATA / "space-station-zero").is_dir(),
    reason=f"the Space Station Zero BattleScribe data is not at {BSDATA / 'space-station-zero'}",
)
@pytest.mark.parametrize("size", [(160, 48), (80, 24)])
@run_async
async def test_walk_a_space_station_zero_ros(make_app: MakeApp, tmp_path: Path, size: Any) -> None:
    """Opened from a BattleScribe .ros (converted; it saves as YAML beside it)."""
    from armybuilder.interop.battlescribe.rosfile import to_ros
    from armybuilder.rosters import Roster

    lib = Library([BSDATA / "space-station-zero"]).scan()
    path = tmp_path / "crew.ros"
    path.write_text(to_ros(Roster.from_text(CREW, "crew.yaml"), lib), encoding="utf-8")
    await walk(make_app, path, lib, size)
