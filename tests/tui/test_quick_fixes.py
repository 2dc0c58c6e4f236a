"""Quick fixes in the builder (Pilot, headless): the issue offers its fix, the key applies it,
and the roster tree and the issues pane show the fixed roster; Ctrl+Z takes it back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for

from armybuilder.tui.widgets.stable import LiveStatic

DEINO = ("selections", 0, "selections", 3)


def tree_labels(editor: Any) -> list[str]:
    tree = editor.roster_tree
    out = []
    for y in range(tree.last_line + 1):
        node = tree.get_node_at_line(y)
        assert node is not None
        out.append(node.label.plain)
    return out


@run_async
async def test_a_misspelt_entry_fixed_from_the_issues_list(make_app: Any, workdir: Path) -> None:
    text = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text()
    path = workdir / "squad.yaml"
    path.write_text(
        text.replace(
            "entry: terminator\n        name: Brother Deino",
            "entry: termintor\n        name: Brother Deino",
        )
    )
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        texts = editor.issues.texts()
        (line,) = [t for t in texts if "termintor" in t]
        assert "[.] Replace 'termintor' by 'terminator' (Terminator), keeping the rest" in line
        assert any("unknown entry" in t for t in texts)
        # The issues list: highlight that issue, press the key.
        await pilot.press("f7")
        index = texts.index(line)
        editor.issues.issue_list.highlighted = index
        await pilot.press("full_stop")
        await wait_for(pilot, lambda: session.node(DEINO)["entry"] == "terminator")
        node = session.node(DEINO)
        assert node["name"] == "Brother Deino"
        assert [s["entry"] for s in node["selections"]] == ["storm-bolter", "power-fist"]
        await wait_for(pilot, lambda: editor.shown_generation == session.generation)
        # The panes after: the squad is legal again, the tree shows Deino as a Terminator.
        assert editor.issues.texts() == []
        title = editor.issues.query_one("#issues-title", LiveStatic)
        assert title.plain == "No issues: the roster is legal"
        editor.roster_tree.expand_loc(("selections", 0))
        await pilot.pause()
        deino = [t for t in tree_labels(editor) if "Deino" in t]
        assert deino and not any("?" in t or "termintor" in t for t in deino), deino
        assert session.history[-1] == "Replace termintor by terminator"
        # One step back: the misspelt id and its issue return.
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: any("termintor" in t for t in editor.issues.texts()))
        assert session.node(DEINO)["entry"] == "termintor"


@run_async
async def test_the_key_on_the_selected_unit_fixes_its_issue(make_app: Any, workdir: Path) -> None:
    text = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text()
    kit = "          - entry: storm-bolter\n          - entry: power-fist\n"
    marker = "      - entry: terminator\n        name: Brother Goriel"
    path = workdir / "squad.yaml"
    path.write_text(
        text.replace(
            kit + marker,
            kit.replace("power-fist", "heavy-flamer\n          - entry: power-fist") + marker,
        )
    )
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(DEINO)
        editor.roster_tree.focus()
        await pilot.pause()
        details = editor.details.query_one("#d-issues", LiveStatic)
        await wait_for(pilot, lambda: "[.] Remove the last 1 choice" in details.plain)
        await pilot.press("full_stop")
        await wait_for(pilot, lambda: len(session.node(DEINO)["selections"]) == 2)
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "storm-bolter",
            "power-fist",
        ]
        await wait_for(pilot, lambda: editor.shown_generation == session.generation)
        assert not any("Ranged weapon" in t for t in editor.issues.texts())
        assert "Ranged weapon" not in details.plain


@run_async
async def test_a_roster_wide_maximum_fixed_from_the_roster_line(
    make_app: Any, workdir: Path
) -> None:
    """The supertank house rule is selected once per roster (StarMarines IX-A, house rule):
    on the roster's line, its details offer the fix for three of it and `.` applies it; the
    tree then shows one, and the issue is gone from every pane."""
    path = workdir / "platoon.yaml"
    path.write_text((EXAMPLES / "starmarines" / "starmarines-example.yaml").read_text())
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        rule = session.add((), "supertank-roll-house-rule")
        session.set_count(rule, 3)
        editor.after_edit()
        editor.jump_to(())
        editor.roster_tree.focus()
        await pilot.pause()
        details = editor.details.query_one("#d-issues", LiveStatic)
        await wait_for(pilot, lambda: "[.] Remove 2 × House rule" in details.plain)
        await pilot.press("full_stop")
        await wait_for(pilot, lambda: session.node(rule).get("count", 1) == 1)
        await wait_for(pilot, lambda: editor.shown_generation == session.generation)
        assert not any("House rule" in t for t in editor.issues.texts())
        assert "House rule" not in details.plain
        assert not any("House rule" in label and "×" in label for label in tree_labels(editor))
        await pilot.press("ctrl+z")
        await wait_for(pilot, lambda: session.node(rule).get("count", 1) == 3)
