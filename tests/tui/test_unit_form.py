"""Define a unit in the builder (Pilot, headless): a StarMarines roster starts from an empty
catalog, the player writes a soldier in the form (its stat line checked by the system's own
parser as typed), and fields it without leaving the builder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from textual.widgets import Checkbox, Input, Select

from armybuilder.tui.screens.unitform import UnitFormScreen
from armybuilder.tui.widgets.stable import LiveStatic

ROSTER = """\
format: 1
system: starmarines
faction: starmarines
name: My platoon
limits: {bp: 25}
"""


def catalog_lines(editor: Any) -> list[str]:
    tree = editor.catalog.catalog_tree
    lines = []
    for y in range(tree.last_line + 1):
        node = tree.get_node_at_line(y)
        if node is not None:
            lines.append(node.label.plain)
    return lines


def field(form: UnitFormScreen, name: str) -> Input:
    return next(i for i in form.query(Input) if i.name == name)


@run_async
async def test_a_starmarines_player_defines_and_fields_a_soldier(
    make_app: Any, workdir: Path
) -> None:
    path = workdir / "platoon.yaml"
    path.write_text(ROSTER)
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        before = [c.entry.id for c in session.options(())]
        assert "my-assault-trooper" not in before
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, UnitFormScreen))
        form = app.screen
        assert isinstance(form, UnitFormScreen)
        check = form.query_one("#u-check", LiveStatic)
        assert "a unit needs a name" in check.plain
        await pilot.press(*"Assault trooper")
        form.query_one("#u-categories", Input).value = "soldier"
        form.query_one("#u-profile", Select).value = "soldier"
        for name, value in {"move": "2", "armor": "3", "toughness": "1", "morale": "x4"}.items():
            field(form, f"char:soldier:{name}").value = value
        field(form, "cost:bp").value = "1"
        await pilot.pause()
        # The system's own checks, live: morale must be a whole number (StarMarines IV-b) and
        # a soldier records experience.
        await wait_for(pilot, lambda: "morale: morale should be a whole number" in check.plain)
        assert "experience" in check.plain
        await pilot.press("ctrl+s")  # refused while there are problems
        assert isinstance(app.screen, UnitFormScreen)
        field(form, "char:soldier:morale").value = "4"
        form.query_one("#u-experience", Checkbox).value = True
        await wait_for(pilot, lambda: check.plain == "✔ Ready to add")
        preview = form.query_one("#u-preview", LiveStatic).plain
        assert "id: my-assault-trooper" in preview and "morale: 4" in preview
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is editor)
        custom = session.node(())["custom"]["entries"]
        assert custom[-1]["id"] == "my-assault-trooper"
        assert custom[-1]["profiles"][0]["characteristics"]["morale"] == 4
        assert session.history[-1] == "Define Assault trooper"
        # Fielded from the catalog, like any entry.
        await wait_for(pilot, lambda: any("Assault trooper" in t for t in catalog_lines(editor)))
        editor.add_entry("my-assault-trooper", ())
        await wait_for(pilot, lambda: editor.shown_generation == session.generation)
        assert session.node(("selections", 0))["entry"] == "my-assault-trooper"
        ev = session.evaluate()
        assert ev.totals["bp"] == 1
        assert not [i for i in ev.issues if i.code == "invalid-custom-entry"]
        labels = [
            editor.roster_tree.get_node_at_line(y).label.plain  # type: ignore[union-attr]
            for y in range(editor.roster_tree.last_line + 1)
        ]
        assert any("Assault trooper" in t for t in labels), labels
