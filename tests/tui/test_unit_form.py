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


@run_async
async def test_a_unit_written_to_a_user_catalog_file_reaches_the_catalog_pane(
    make_app: Any, workdir: Path
) -> None:
    """The form's "every roster" choice: a new file in the user catalog folder, read again
    at once, and the catalog pane lists the unit."""
    from armybuilder.catalog import Library
    from armybuilder.paths import bundled_dir, user_catalog_dir

    path = workdir / "platoon.yaml"
    path.write_text(ROSTER)
    library = Library([bundled_dir("catalogs"), user_catalog_dir()]).scan()
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, UnitFormScreen))
        form = app.screen
        assert isinstance(form, UnitFormScreen)
        await pilot.press(*"Scout")
        form.query_one("#u-categories", Input).value = "soldier"
        form.query_one("#u-profile", Select).value = "soldier"
        form.query_one("#u-experience", Checkbox).value = True
        for name, value in {"move": "3", "armor": "2", "toughness": "1", "morale": "4"}.items():
            field(form, f"char:soldier:{name}").value = value
        field(form, "cost:bp").value = "2"
        target = user_catalog_dir() / "starmarines" / "my-starmarines.yaml"
        where = form.query_one("#u-where", Select)
        where.value = str(target)
        check = form.query_one("#u-check", LiveStatic)
        preview = form.query_one("#u-preview", LiveStatic)
        await wait_for(pilot, lambda: str(target) in preview.plain and "morale: 4" in preview.plain)
        await wait_for(pilot, lambda: check.plain == "✔ Ready to add")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: app.screen is editor)
        assert target.exists()
        text = target.read_text()
        assert "extends: starmarines" in text and "id: my-scout" in text
        assert "custom" not in editor.session.node(())  # type: ignore[union-attr,operator]
        await wait_for(pilot, lambda: any("Scout" in t for t in catalog_lines(editor)))


def test_writing_into_an_existing_user_file_keeps_its_comments(
    full_library: Any, tmp_path: Path
) -> None:
    from armybuilder.session import EditSession
    from armybuilder.unitdef import Draft, user_files, write_to_file

    session = EditSession.new(full_library, "starmarines", "starmarines", "Platoon", None)
    book = tmp_path / "home" / "data" / "catalogs" / "starmarines" / "book.yaml"
    book.parent.mkdir(parents=True)
    book.write_text(
        "# my race book\nkind: catalog\nid: book\nsystem: starmarines\n"
        "extends: starmarines  # the base\nname: Book\nentries: []\n"
    )
    assert user_files("starmarines", "starmarines") == [book]
    draft = Draft(
        name="Sniper",
        categories="soldier",
        profile_type="soldier",
        experience=True,
        characteristics={"move": "2", "armor": "3", "toughness": "1", "morale": "4"},
        costs={"bp": "2"},
    )
    assert write_to_file(session, draft, book) == "my-sniper"
    text = book.read_text()
    assert text.startswith("# my race book\n") and "# the base" in text
    assert "name: Sniper" in text
    # a second one with the same name gets the next id, the first one stays
    assert write_to_file(session, draft, book) == "my-sniper-2"
    assert "id: my-sniper\n" in book.read_text()


@run_async
async def test_a_unit_gets_its_own_options_checked_as_typed(make_app: Any, workdir: Path) -> None:
    """The form's options: one choice per line, a catalog weapon linked by its name, new kit
    with a cost; a line that is not a choice is named with its number as it is typed; the
    unit added and taken gets its default weapon (Demo Wars: rifle and cannon are the
    catalog's shared weapons)."""
    from screen import pane_lines
    from textual.widgets import TextArea

    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        await pilot.press("u")
        await wait_for(pilot, lambda: isinstance(app.screen, UnitFormScreen))
        form = app.screen
        assert isinstance(form, UnitFormScreen)
        await pilot.press(*"Ranger")
        form.query_one("#u-type", Select).value = "unit"
        form.query_one("#u-categories", Input).value = "troops"
        form.query_one("#u-profile", Select).value = Select.NULL
        field(form, "cost:pts").value = "12"
        options = form.query_one("#u-options", TextArea)
        options.focus()
        await pilot.press(*"Weapon Rifle")
        check = form.query_one("#u-check", LiveStatic)
        await wait_for(pilot, lambda: "options: line 1" in check.plain)
        shown = " ".join(" ".join(pane_lines(app, check)).split())
        assert "✖ options: line 1: write a choice as 'Name: option, option'" in shown
        await pilot.press("home", *["right"] * 6, ":", "end", *", Cannon", "enter")
        await pilot.press(*"Kit [0-2]: Medkit +3, Jump pack +x")
        await wait_for(pilot, lambda: "line 2" in check.plain)
        assert "the cost of 'Jump pack', 'x', is not a number" in check.plain
        await pilot.press("backspace", "5")
        await wait_for(pilot, lambda: "Ready to add" in check.plain or "line" not in check.plain)
        assert "Ready to add" in check.plain, check.plain
        shown_preview = form.query_one("#u-preview", LiveStatic)
        shown_preview.scroll_visible(animate=False, top=True)
        await pilot.pause()
        await pilot.pause()
        preview = " ".join(pane_lines(app, shown_preview))
        for part in ("id: my-ranger-weapon", "default: rifle", "link: rifle", "link: cannon",
                     "name: Jump pack", "pts: 5"):  # fmt: skip
            assert part in preview, part
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not isinstance(app.screen, UnitFormScreen))
        await wait_for(pilot, lambda: "my-ranger" in [c.entry.id for c in session.options(())])
        entry = session.index.entries["my-ranger"]
        assert [(g.name, g.min, g.max, g.default) for g in entry.groups] == [
            ("Weapon", 1, 1, "rifle"),
            ("Kit", 0, 2, None),
        ]
        editor.add_entry("my-ranger", ())
        await wait_for(pilot, lambda: len(session.children_locs(())) == 4)
        ranger = session.children_locs(())[-1]
        assert [session.node(c)["entry"] for c in session.children_locs(ranger)] == ["rifle"]
