"""The roster tree's names, replayed by what their modifiers read (``Evaluation._name_by_reads``:
an edit takes the previous evaluation's name of a unit it leaves alone where nothing the
name's modifiers read has changed), as the terminal shows them: after each edit every tree
row the terminal holds must be the label a fresh evaluation of the roster (no memo, every
name worked out) gives its selection. A hand-written catalog names a squad "(veteran)" with
five soldiers of its own and "(blessed)" while the roster holds a banner: a count +1 on the
captain changes nothing a squad's name reads (the names are replayed), the captain's banner
changes what every squad's name reads (the untouched squads' rows change too), and its undo
takes it back.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import Terminal, check_tree_lines, pane_lines, tree_label
from test_screen_model import settle

from armybuilder.catalog import Library
from armybuilder.rules.engine import evaluate_roster

SYSTEM = """
kind: system
id: nmt
name: Name Tree Wars
cost_types:
  - {id: pts, name: Points, unit: pts}
categories:
  - {id: hq, name: HQ}
  - {id: troops, name: Troops}
"""

ARMY = """
kind: catalog
id: army
system: nmt
name: The Army
entries:
  - id: captain
    name: Captain
    type: unit
    categories: [hq]
    costs: {pts: 20}
    entries:
      - {id: banner, name: Banner, costs: {pts: 1}}
  - id: squad
    name: Squad
    type: unit
    categories: [troops]
    costs: {pts: 10}
    modifiers:
      - type: append
        field: name
        value: " (veteran)"
        conditions: [{type: at-least, value: 5, scope: self, child: soldier}]
      - type: append
        field: name
        value: " (blessed)"
        conditions: [{type: at-least, value: 1, scope: roster, child: banner}]
    entries:
      - {id: soldier, name: Soldier, type: model, costs: {pts: 5}}
"""

ROSTER = """system: nmt
faction: army
name: Named
selections:
  - entry: captain
  - entry: squad
    selections: [{entry: soldier, count: 4}]
  - entry: squad
    selections: [{entry: soldier, count: 5}]
"""


def library(folder: Path) -> Library:
    root = folder / "catalogs"
    (root / "nmt").mkdir(parents=True)
    (root / "nmt" / "system.yaml").write_text(SYSTEM, encoding="utf-8")
    (root / "nmt" / "army.yaml").write_text(ARMY, encoding="utf-8")
    return Library([root], use_cache=False).scan()


async def tree_rows(pilot: Any, editor: Any, terminal: Terminal, where: str) -> list[str]:
    """The tree rows the terminal shows after a step, each checked against the label a fresh
    evaluation gives its selection; the rows' labels."""
    await settle(pilot, editor)
    await pilot.pause()
    problems = terminal.problems()
    assert not problems, (where, problems)
    s = editor.session
    fresh = copy.copy(s.roster)
    fresh.refresh()
    full = evaluate_roster(fresh, s.system)
    tree = editor.roster_tree
    lines = tree._tree_lines
    top = tree.scroll_offset.y
    height = tree.scrollable_content_region.height
    locs = [lines[y].path[-1].data if y < len(lines) else None for y in range(top, top + height)]
    rows = pane_lines(pilot.app, tree, terminal.rows())
    problems = check_tree_lines(
        rows,
        locs,
        full,
        tree.scrollable_content_region.width,
        tree.guide_depth,
        [line.path[-1].data for line in lines],
    )
    assert not problems, (where, problems)
    return [tree_label(r) for r, loc in zip(rows, locs, strict=False) if loc is not None]


@run_async
async def test_tree_names_follow_what_their_modifiers_read(make_app: Any, tmp_path: Path) -> None:
    path = tmp_path / "named.yaml"
    path.write_text(ROSTER, encoding="utf-8")
    app = make_app(path, library=library(tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        s = editor.session
        editor.roster_tree.focus()
        rows = await tree_rows(pilot, editor, terminal, "opened")
        assert any(r.startswith("Squad (veteran) ") for r in rows), rows
        assert not any("(blessed)" in r for r in rows), rows

        captain = s.children_locs(())[0]
        editor.jump_to(captain)
        await settle(pilot, editor)
        await pilot.press("plus")  # nothing a squad's name reads: both replayed
        rows = await tree_rows(pilot, editor, terminal, "captain +1")
        ev = s.evaluate()
        assert ev.memo_in is not None and ev.memo_out is not None
        kept = ev.memo_in.names_traced
        assert sum(1 for k, v in ev.memo_out.names_traced.items() if kept.get(k) is v) == 2
        assert not any("(blessed)" in r for r in rows), rows

        editor._edit(lambda x: x.add(captain, "banner"))  # the untouched squads blessed
        rows = await tree_rows(pilot, editor, terminal, "banner")
        assert sum(1 for r in rows if r.startswith("Squad (blessed) ")) == 1, rows
        assert sum(1 for r in rows if r.startswith("Squad (veteran) (blessed) ")) == 1, rows

        await pilot.press("ctrl+z")
        rows = await tree_rows(pilot, editor, terminal, "banner undone")
        assert not any("(blessed)" in r for r in rows), rows
        assert any(r.startswith("Squad (veteran) ") for r in rows), rows
