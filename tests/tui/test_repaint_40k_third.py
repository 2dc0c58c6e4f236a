"""A 40k count +1 repainted with less worked out (issue 18, third round): the session's
figures that the panes show after an edit are worked out only where they are read, and
checked here against the straightforward computation on the 2,000-point Space Marines roster
of ``benchmarks/bench_bsdata.py`` (skipped with a message where ``../shared/bsdata`` is
absent), before and after count edits:

* what may be added under each selection (``EditSession.options``): an option in a group the
  data hides there is hidden without its own modifiers being evaluated; the plain walk here
  evaluates every option's own ``hidden`` and every group's;
* each choice group's limit (``EditSession.group_limits``) is worked out when a pane first
  reads it; here read in the order a pane reads them (the groups offered first, then the
  rest, backwards) and compared with each group's entries walked whole;
* what the details pane and the catalog paint for the squad's groups after count +1 and
  undo, against those plain figures.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import Terminal, painted, pane_lines
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, settle

from armybuilder.catalog import Library, walk_groups
from armybuilder.session import EditSession
from armybuilder.session.editor import Limit, Loc, _ev_node
from armybuilder.tui.widgets.details import group_label

ROOT = Path(__file__).resolve().parents[2]


def plain_groups(s: EditSession, loc: Loc) -> dict[str, Limit]:
    """Each group's limit with its entries' limits walked whole (tests/unit's plain walk)."""
    sys.path.insert(0, str(ROOT / "tests" / "unit"))
    try:
        from test_session_option_infos import plain_groups as plain
    finally:
        sys.path.remove(str(ROOT / "tests" / "unit"))
    found: dict[str, Limit] = plain(s, loc)
    return found


def plain_offered(s: EditSession, loc: Loc, ev: Any) -> list[str]:
    """The options offered under the unit at ``loc``, each option's own ``hidden`` (after
    its modifiers, at a selection of it made under the unit) and each group's evaluated."""
    from armybuilder.rules.engine import Node

    node = _ev_node(ev, loc)
    entry = node.entry
    gone: set[int] = set()
    for g in walk_groups(entry.groups):
        if id(g) in gone or ev.is_group_hidden(g, node):
            gone.update(id(x) for x in walk_groups([g]))
    out = []
    for c in s.index.children(entry):
        scratch = Node(None, c.entry, c.group, node, len(node.children), link=c.link)
        own = ev.is_hidden(c.entry, scratch)
        if not own and not (c.group is not None and id(c.group) in gone):
            out.append(f"{c.entry.id}/{id(c)}")
    return out


def units(ev: Any) -> list[Any]:
    return [
        n
        for n in ev.nodes()
        if not n.is_root and n.force is None and n.entry is not None and n.entry.groups
    ]


def squad_loc(s: EditSession) -> Loc:
    ev = s.evaluate()
    return next(
        n.loc for n in ev.nodes() if n.entry is not None and n.entry.name == "Intercessor Squad"
    )


def add_intercessor(s: EditSession, squad: Loc) -> None:
    """One more Intercessor in the squad (a model of its "Intercessors" group)."""
    ev = s.evaluate()
    child = next(c for c in s.options(squad, ev) if c.entry.name == "Intercessor")
    before = s.group_limits(squad, ev)[child.group.id]  # type: ignore[union-attr]
    s.add(squad, s.option_id(squad, child))
    after = s.group_limits(squad)[child.group.id]  # type: ignore[union-attr]
    assert after.count_text != before.count_text, (before, after)


def test_every_40k_unit_is_offered_the_plain_options(
    marines: tuple[str, Library],  # noqa: F811
    tmp_path: Path,
) -> None:
    path, library = space_marines(tmp_path, marines)
    s = EditSession.open(path, library, autosave=False)
    squad = squad_loc(s)
    checked = shown_hidden = 0
    for step in ("as loaded", "squad x2", "undone"):
        if step == "squad x2":
            s.set_count(squad, 2)
        elif step == "undone":
            s.undo()
        ev = s.evaluate()
        for node in units(ev):
            got = [f"{c.entry.id}/{id(c)}" for c in s.options(node.loc, ev)]
            assert got == plain_offered(s, node.loc, ev), (step, ev.name(node))
            checked += 1
            shown_hidden += sum(
                1
                for c in s.options(node.loc, ev)
                if c.entry.modifiers and "hidden" in s.index.modified_fields(c.entry)
            )
    assert checked > 30
    # (options with modifiers of `hidden` are offered in groups left shown: the shortcut
    # must not hide them)
    assert shown_hidden > 0, "no offered option has modifiers of hidden: the test proves little"


def test_group_limits_read_as_the_panes_read_them_are_the_plain_ones(
    marines: tuple[str, Library],  # noqa: F811
    tmp_path: Path,
) -> None:
    path, library = space_marines(tmp_path, marines)
    s = EditSession.open(path, library, autosave=False)
    squad = squad_loc(s)
    # (an Intercessor added to the squad: its "Intercessors" group reads 6/10, not 5/10)
    for step in ("as loaded", "squad x2", "an Intercessor added", "undone", "undone"):
        if step == "squad x2":
            s.set_count(squad, 2)
        elif step == "an Intercessor added":
            add_intercessor(s, squad)
        elif step == "undone":
            s.undo()
        ev = s.evaluate()
        for node in units(ev):
            loc = node.loc
            plain = plain_groups(s, loc)
            limits = s.group_limits(loc, ev)
            offered = [c.group.id for c in s.options(loc, ev) if c.group is not None]
            for gid in dict.fromkeys(offered):  # as the panes read them: what they show
                assert limits[gid] == plain[gid], (step, ev.name(node), gid)
            for gid in reversed(list(limits)):
                assert limits[gid] == plain[gid], (step, ev.name(node), gid)
            assert dict(limits) == plain, (step, ev.name(node))
            assert s.group_limits(loc, ev) is limits  # (kept for the evaluation)


@run_async
async def test_count_edits_paint_the_plain_group_limits(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """+, +, undo, undo on the squad at 160x48: the details pane's group headings and the
    catalog's section lines show the plain limits; what the terminal was sent is the screen
    a full repaint draws, and the panes are the session's."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        squad = squad_loc(session)
        editor.roster_tree.focus()
        editor.jump_to(squad)
        await settle(pilot, editor)
        seen = 0
        for key in ("plus", "an Intercessor added", "plus", "ctrl+z", "ctrl+z", "ctrl+z"):
            if key == "an Intercessor added":  # (the squad's group: 6/10)
                add_intercessor(session, squad)
                editor.after_edit()
            else:
                await pilot.press(key)
            await settle(pilot, editor)
            await pilot.pause()
            problems = terminal.problems()
            assert not problems, (key, problems)
            problems = screen_problems(app, editor)
            ev = session.evaluation
            assert ev is not None
            plain = plain_groups(session, squad)
            node = _ev_node(ev, squad)
            offered = {c.group.id for c in session.options(squad, ev) if c.group is not None}
            groups = [g for g in walk_groups(node.entry.groups) if g.id in offered]
            assert groups, "the squad shows no group: the test proves nothing"
            rows = painted(app)
            details = "\n".join(pane_lines(app, editor.details, rows))
            catalog = "\n".join(pane_lines(app, editor.catalog.catalog_tree, rows))
            for g in groups:
                lim = plain[g.id]
                if group_label(g, lim) not in details:
                    problems.append(f"the details pane lacks {group_label(g, lim)!r}")
                heading = f"{g.name} ({lim.range_text})" + (
                    f" {lim.count_text}" if lim.count_text else ""
                )
                if heading not in catalog:
                    problems.append(f"the catalog lacks {heading!r}")
                seen += 1
            assert not problems, (key, problems)
            after = await repainted_whole(pilot)
            assert rows == after, key
        assert seen >= 4
