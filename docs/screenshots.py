#!/usr/bin/env python3
"""Regenerate the TUI screenshots of the README and of docs/tui.md (SVG, as Textual draws them).

Run from the repository root after a change to the editor's layout::

    python docs/screenshots.py

The app runs headless on copies of the example rosters, with a temporary user folder (no recent
files of yours show).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

Loc = tuple[str | int, ...]


async def shot(roster: Path, size: tuple[int, int], out: Path, select: Loc,
               more_marines: Loc | None = None) -> None:  # fmt: skip
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.screens.editor import EditorScreen
    from armybuilder.tui.settings import Settings

    work = Path(tempfile.mkdtemp(prefix="armybuilder-shot-"))
    try:
        path = work / roster.name
        shutil.copy(roster, path)
        app = ArmyBuilderApp(path, cwd=work, settings=Settings())
        async with app.run_test(size=size) as pilot:
            while not (isinstance(app.screen, EditorScreen) and app.screen.session is not None):
                await pilot.pause(0.05)
            editor = app.screen
            session = editor.session
            assert session is not None
            if more_marines is not None:
                session.set_count(more_marines, session.count_of(more_marines) + 1)
                editor.after_edit()
            editor.jump_to(select)
            editor.roster_tree.focus()
            await pilot.pause(0.5)
            out.write_text(app.export_screenshot(), encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {out.relative_to(REPO)}")


async def shot_screen(roster: Path, size: tuple[int, int], out: Path, steps: str) -> None:
    """A screenshot of what ``steps`` opens on ``roster``: ``glance`` (g), ``unit-form`` (u,
    a soldier typed in), ``search`` (f, a name typed)."""
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.screens.editor import EditorScreen
    from armybuilder.tui.settings import Settings

    work = Path(tempfile.mkdtemp(prefix="armybuilder-shot-"))
    try:
        path = work / roster.name
        shutil.copy(roster, path)
        app = ArmyBuilderApp(path, cwd=work, settings=Settings(), catalog_poll_seconds=None)
        async with app.run_test(size=size) as pilot:
            while not (isinstance(app.screen, EditorScreen) and app.screen.session is not None):
                await pilot.pause(0.05)
            editor = app.screen
            await pilot.pause(0.3)
            if steps == "glance":
                await pilot.press("g")
            elif steps == "search":
                editor.jump_to(("selections", 0))
                await pilot.pause(0.2)
                await pilot.press("f", *"flamer")
            elif steps == "unit-form":
                from textual.widgets import Checkbox, Input, Select

                await pilot.press("u")
                await pilot.pause(0.3)
                form = app.screen
                await pilot.press(*"Assault trooper")
                form.query_one("#u-categories", Input).value = "soldier"
                form.query_one("#u-profile", Select).value = "soldier"
                form.query_one("#u-experience", Checkbox).value = True
                values = {"move": "2", "armor": "3", "toughness": "1", "morale": "x4"}
                for field in form.query(Input):
                    name = (field.name or "").rsplit(":", 1)[-1]
                    if (field.name or "").startswith("char:soldier:") and name in values:
                        field.value = values[name]
                    elif field.name == "cost:bp":
                        field.value = "1"
                await pilot.pause(0.5)
                from textual.containers import VerticalScroll

                form.query_one(VerticalScroll).scroll_end(animate=False)
            await pilot.pause(0.8)
            out.write_text(app.export_screenshot(), encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"wrote {out.relative_to(REPO)}")


STARMARINES_PLATOON = """\
format: 1
system: starmarines
faction: starmarines
name: My platoon
limits: {bp: 25}
"""


def issue_19_shots() -> None:
    """The list at a glance, the unit form and search everywhere."""
    examples = REPO / "examples"
    images = REPO / "docs" / "images"
    asyncio.run(
        shot_screen(
            examples / "starship-troopers" / "mi-squad.yaml",
            (140, 40),
            images / "tui-glance.svg",
            "glance",
        )
    )
    platoon = Path(tempfile.mkdtemp(prefix="armybuilder-platoon-")) / "my-platoon.yaml"
    platoon.write_text(STARMARINES_PLATOON, encoding="utf-8")
    asyncio.run(shot_screen(platoon, (140, 44), images / "tui-unit-form.svg", "unit-form"))
    asyncio.run(
        shot_screen(
            examples / "space-hulk" / "standard-squad.yaml",
            (140, 40),
            images / "tui-search.svg",
            "search",
        )
    )


def main() -> int:
    os.environ["ARMYBUILDER_HOME"] = tempfile.mkdtemp(prefix="armybuilder-home-")
    examples = REPO / "examples"
    asyncio.run(
        shot(
            examples / "infantry-ops" / "rifle-srm-platoon.yaml",
            (150, 44),
            REPO / "docs" / "images" / "tui-editor.svg",
            select=("selections", 0),
        )
    )
    squad: Loc = ("selections", 0, "selections", 1, "selections", 1)
    asyncio.run(
        shot(
            examples / "starship-marine" / "earther-regiment.yaml",
            (140, 40),
            REPO / "docs" / "tui-screenshot.svg",
            select=squad,
            more_marines=(*squad, "selections", 3),
        )
    )
    issue_19_shots()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
