"""The TUI's real flows, driven with Textual's Pilot (headless).

New roster, add from the catalog, break a rule and see the error, fix it, undo, save and
read the file back; open a roster with an unknown entry and fix it; quit with unsaved
changes; recover from the autosave journal; the details pane, the command palette, the help
screen, a user keymap, exports and background validation.
"""

from __future__ import annotations

import io
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor, wait_for, wait_screen
from rich.console import Console
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select, Static

from armybuilder.catalog import Library
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation
from armybuilder.session import EditSession, find_recovery, list_recoveries
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.dialogs import NewRosterScreen, PathScreen
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.screens.export import ExportScreen
from armybuilder.tui.screens.help import HelpScreen
from armybuilder.tui.settings import Settings
from armybuilder.tui.widgets.roster_tree import WARNING_MARK, node_at
from armybuilder.tui.widgets.stable import LiveStatic

MakeApp = Callable[..., ArmyBuilderApp]


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*["space" if c == " " else c for c in text])


def issue_texts(editor: EditorScreen) -> list[str]:
    return editor.issues.texts()


def example_copy(folder: Path, system: str, name: str) -> Path:
    """A copy of a bundled example roster, to edit and save freely."""
    from armybuilder.paths import bundled_dir

    path = folder / name
    path.write_bytes((bundled_dir("examples") / system / name).read_bytes())
    return path


def totals_text(editor: EditorScreen) -> str:
    return editor.totals.plain


async def answer_path(pilot: Pilot[Any], path: Path) -> None:
    """Fill in the file dialog and confirm it."""
    await wait_for(pilot, lambda: isinstance(pilot.app.screen, PathScreen))
    field = pilot.app.screen.query_one("#path-input", Input)
    field.value = str(path)
    await pilot.press("enter")
    await pilot.pause()


async def focus_roster_line(pilot: Pilot[Any], editor: EditorScreen, line: int) -> None:
    """Put the roster tree's cursor on a line with the keyboard."""
    await pilot.press("f3")
    tree = editor.roster_tree
    while tree.cursor_line != line:
        await pilot.press("down" if tree.cursor_line < line else "up")
    await pilot.pause()


# --------------------------------------------------------------------------- the main flow


@run_async
async def test_new_roster_add_break_fix_undo_save(make_app: MakeApp, workdir: Path) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        # New roster: game system, faction, name, cost limit.
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
        dialog = app.screen
        dialog.query_one("#new-system", Select).value = "infantry-ops"
        await pilot.pause()
        dialog.query_one("#new-faction", Select).value = "inner-sphere"
        await pilot.pause()
        await type_text(pilot, "Watch")
        limit = dialog.query_one(".new-limit", Input)
        limit.focus()
        await type_text(pilot, "3000")
        await pilot.press("enter")
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None and session.is_new
        assert session.roster.header.limits == {"kg": 3000}
        assert editor.title == "Watch"

        # Add a platoon from the catalog with the incremental search.
        await pilot.press("slash")
        await type_text(pilot, "plat")
        assert editor.catalog.highlighted() == "platoon"
        await pilot.press("enter")
        await pilot.pause()
        assert session.history == ["Add Infantry Platoon"]
        assert editor.title == "Watch *"
        # It came with its default motive and the four squads it requires (Inner Sphere).
        got = [c.entry_id for c in session.evaluate().root.children[0].children]
        assert got == ["foot", "squad", "squad", "squad", "squad"]
        assert not any("no squads" in t for t in issue_texts(editor)), issue_texts(editor)

        # Select the platoon in the roster tree: the catalog now offers its options.
        await focus_roster_line(pilot, editor, 1)
        assert editor.selected == ("selections", 0)
        assert "Infantry Platoon" in editor.query_one("#catalog-title", LiveStatic).plain
        assert "squad" in [c.entry.id for c in session.options(editor.catalog.target)]
        await pilot.press("slash")
        await type_text(pilot, "squ")
        assert not any("at most 4" in t for t in issue_texts(editor))

        # Break a rule: a fifth squad.
        await pilot.press("enter")
        await pilot.pause()
        assert any("at most 4 allowed" in t for t in issue_texts(editor))
        assert "1 error" in totals_text(editor)
        assert "✖" in str(editor.roster_tree.find(("selections", 0)).label)  # type: ignore[union-attr]

        # Choose the issue: it jumps to the platoon it is about.
        await pilot.press("f7")
        await pilot.press("enter")
        await pilot.pause()
        assert editor.selected == ("selections", 0)

        # Fix it: remove the fifth squad (line 7: roster, platoon, foot, squads 1-5).
        await focus_roster_line(pilot, editor, 7)
        assert editor.selected == ("selections", 0, "selections", 5)
        await pilot.press("delete")
        await pilot.pause()
        assert not any("at most 4" in t for t in issue_texts(editor))
        assert "error" not in totals_text(editor)

        # Undo brings the error back, redo fixes it again.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert any("at most 4 allowed" in t for t in issue_texts(editor))
        await pilot.press("ctrl+y")
        await pilot.pause()
        assert not any("at most 4" in t for t in issue_texts(editor))

        # Troopers in the first squad: add one, then six more copies with "+".
        await focus_roster_line(pilot, editor, 3)
        assert editor.selected == ("selections", 0, "selections", 1)
        await pilot.press("slash")
        await type_text(pilot, "troo")
        await pilot.press("enter")
        await pilot.pause()
        await focus_roster_line(pilot, editor, 4)
        trooper = ("selections", 0, "selections", 1, "selections", 0)
        assert editor.selected == trooper
        for _ in range(6):
            await pilot.press("plus")
        await pilot.pause()
        assert session.count_of(trooper) == 7
        # Pick the trooper's main weapon in the details pane.
        choice = next(s for s in editor.details.query(Select) if s.name == "grp:main-weapon")
        choice.value = "auto-rifle"
        await pilot.pause()
        kit = [c.entry_id for c in session.evaluate().root.children[0].children[1].children[0]
               .children]  # fmt: skip
        assert "auto-rifle" in kit
        assert "Mass" in totals_text(editor) and "/ 3,000 kg" in totals_text(editor)

        # Save: a new roster asks for a file name.
        target = workdir / "watch.yaml"
        await pilot.press("ctrl+s")
        await answer_path(pilot, target)
        assert target.is_file()
        assert not session.dirty
        assert editor.title == "Watch"
        saved = Roster.from_file(target)
        assert saved.name == "Watch"
        assert saved.header.limits == {"kg": 3000}
        platoon = saved.selections[0]
        assert platoon.entry == "platoon"
        assert [c.entry for c in platoon.children] == ["foot", "squad", "squad", "squad", "squad"]
        trooper_sel = platoon.children[1].children[0]
        assert trooper_sel.entry == "trooper" and trooper_sel.count == 7
        assert "auto-rifle" in [c.entry for c in trooper_sel.children]
        assert find_recovery(target) is None


# --------------------------------------------------------------------------- unknown entries


@run_async
async def test_open_roster_with_unknown_entry_and_fix_it(make_app: MakeApp, workdir: Path) -> None:
    path = workdir / "unknown-entry.yaml"
    app = make_app(path)
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await wait_editor(pilot)
        assert any("unknown entry 'plasma-gun'" in t for t in issue_texts(editor))
        bad = ("selections", 1, "selections", 1)
        label = str(editor.roster_tree.find(bad).label)  # type: ignore[union-attr]
        assert "plasma-gun" in label and "unknown entry" in label
        # Choose the issue: the tree jumps to the unknown selection.
        await pilot.press("f7")
        await pilot.press("enter")
        await pilot.pause()
        assert editor.selected == bad
        await pilot.press("delete")
        await pilot.pause()
        assert not any("plasma-gun" in t for t in issue_texts(editor))
        await pilot.press("ctrl+s")
        await pilot.pause()
    text = path.read_text(encoding="utf-8")
    assert "plasma-gun" not in text
    assert text.startswith("format: 1")
    assert (workdir / "unknown-entry.yaml.bak").is_file()


@run_async
async def test_unreadable_roster_goes_back_home(make_app: MakeApp, workdir: Path) -> None:
    path = workdir / "broken.yaml"
    path.write_text("system: [unclosed\n", encoding="utf-8")
    app = make_app(path)
    async with app.run_test() as pilot:
        await wait_screen(pilot, "home")
        assert not app.editors()


# --------------------------------------------------------------------------- never lose a change


@run_async
async def test_quit_with_unsaved_changes_asks_first(make_app: MakeApp, workdir: Path) -> None:
    path = workdir / "patrol.yaml"
    before = path.read_text(encoding="utf-8")
    app = make_app(path)
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("a")  # adds the highlighted catalog entry (a Captain)
        await pilot.pause()
        assert editor.session is not None and editor.session.dirty
        assert find_recovery(path) is not None  # the journal is written at every edit
        await pilot.press("ctrl+q")
        await wait_screen(pilot, "confirm-close")
        await pilot.press("escape")  # cancel: keep editing
        await pilot.pause()
        assert app.screen is editor and app.is_running
        await pilot.press("ctrl+q")
        await wait_screen(pilot, "confirm-close")
        await pilot.click("#discard")
        await wait_for(pilot, lambda: not app.is_running)
    assert path.read_text(encoding="utf-8") == before
    assert find_recovery(path) is None


@run_async
async def test_quit_and_save(make_app: MakeApp, workdir: Path) -> None:
    path = workdir / "patrol.yaml"
    app = make_app(path)
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 1))
        await pilot.press("d")  # duplicate Alpha
        await pilot.pause()
        await pilot.press("ctrl+q")
        await wait_screen(pilot, "confirm-close")
        await pilot.click("#save")
        await wait_for(pilot, lambda: not app.is_running)
    assert Roster.from_file(path).doc["selections"][2]["name"] == "2nd Alpha"  # next in series


@run_async
async def test_recover_from_the_autosave(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    path = workdir / "patrol.yaml"
    original = path.read_text(encoding="utf-8")
    # A session edits the roster, then its terminal is killed: no save, no clean close.
    crashed = EditSession.open(path, full_library)
    crashed.add((), "squad")
    crashed.rename(("selections", 0), "Major Vos")
    crashed.journal.close()
    del crashed

    app = make_app(path)
    async with app.run_test() as pilot:
        await wait_screen(pilot, "recover")
        # Two edits (the squad added with its soldiers is several operations, one edit).
        message = " ".join(str(s.render()) for s in app.screen.query(".dialog-message"))
        assert "Border patrol has 2 unsaved edits from" in message, message
        await pilot.click("#recover")
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        assert session.dirty and editor.title == "Border patrol *"
        assert session.node(("selections", 0))["name"] == "Major Vos"
        assert len(session.roster.selections) == 4
        assert path.read_text(encoding="utf-8") == original  # nothing written yet
        # The recovered edits are one undoable step.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert not session.dirty and len(session.roster.selections) == 3
        await pilot.press("ctrl+y")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert not session.dirty
    assert "Major Vos" in path.read_text(encoding="utf-8")
    assert find_recovery(path) is None


@run_async
async def test_every_journal_of_the_roster_is_offered(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    """Two windows on one roster were killed: the prompt offers each one's edits (DESIGN,
    "Files are sacred": no edit is lost), and recovering one keeps the other for later."""
    from armybuilder.session import find_recoveries

    path = workdir / "patrol.yaml"
    first = EditSession.open(path, full_library)
    first.rename(("selections", 0), "From the first window")
    first.journal.close()
    second = EditSession.open(path, full_library)
    second.rename(("selections", 0), "From the second window")
    second.rename(("selections", 1), "Also the second")
    second.journal.close()
    offered = find_recoveries(path)
    assert sorted(i.edits for i in offered) == [1, 2]
    button = "#recover" if offered[0].edits == 1 else "#recover-2"  # the first window's
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        await wait_screen(pilot, "recover")
        labels = [str(b.label) for b in app.screen.query(Button)]
        assert labels == ["Recover 1", "Recover 2", "Discard them"]
        message = " ".join(str(s.render()) for s in app.screen.query(".dialog-message"))
        assert "1 edit from" in message and "2 edits from" in message
        await pilot.click(button)
        editor = await wait_editor(pilot)
        assert editor.session is not None
        assert editor.session.node(("selections", 0))["name"] == "From the first window"
    # The second window's journal is still there to recover another time.
    other = next(i for i in offered if i.edits == 2)
    assert other.journal.exists()
    assert other.journal in [i.journal for i in find_recoveries(path)]


@run_async
async def test_discarding_the_autosave_opens_the_file(
    make_app: MakeApp, workdir: Path, full_library: Library
) -> None:
    path = workdir / "patrol.yaml"
    crashed = EditSession.open(path, full_library)
    crashed.remove(("selections", 2))
    crashed.journal.close()
    app = make_app(path)
    async with app.run_test() as pilot:
        await wait_screen(pilot, "recover")
        await pilot.click("#discard")
        editor = await wait_editor(pilot)
        assert editor.session is not None and not editor.session.dirty
        assert len(editor.session.roster.selections) == 3
    assert find_recovery(path) is None


@run_async
async def test_recover_a_roster_never_saved(make_app: MakeApp, full_library: Library) -> None:
    lost = EditSession.new(full_library, "demo-wars", "red-army", "Lost patrol")
    lost.add((), "captain")
    lost.journal.close()
    app = make_app()
    async with app.run_test() as pilot:
        await wait_screen(pilot, "home")
        await pilot.pause()
        recover_list = app.screen.query_one("#recover-list")
        assert recover_list.display
        recover_list.focus()
        await pilot.press("enter")
        editor = await wait_editor(pilot)
        assert editor.session is not None
        assert editor.session.is_new and editor.session.dirty
        assert editor.session.name == "Lost patrol"
        assert len(editor.session.roster.selections) == 1
    assert [r.name for r in list_recoveries()] == ["Lost patrol"]


# --------------------------------------------------------------------------- editing details


@run_async
async def test_details_pane_edits_in_place(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        assert any("one heavy weapon per squad" in t for t in issue_texts(editor))
        # Bravo's two soldiers carry cannons: swap the weapon with the drop-down.
        soldiers = ("selections", 2, "selections", 0)
        editor.jump_to(soldiers)
        await pilot.pause()
        weapon = next(s for s in editor.details.query(Select) if s.name == "grp:weapon")
        assert weapon.value == "cannon"
        weapon.value = "rifle"
        await pilot.pause()
        assert not any("one heavy weapon" in t for t in issue_texts(editor))
        # Count within its bounds: the soldier allows at most 5 per selection.
        for expected in (3, 4, 5):
            await pilot.click("#d-plus")
            await pilot.pause(0.25)  # a Button ignores clicks while it shows it was pressed
            assert session.count_of(soldiers) == expected
        assert editor.query_one("#d-plus").disabled
        await pilot.press("plus")
        await pilot.pause()
        assert session.count_of(soldiers) == 5
        # Rename in place.
        name = editor.query_one("#d-name", Input)
        name.focus()
        await type_text(pilot, "Riflemen")
        await pilot.press("enter")
        await pilot.pause()
        assert session.node(soldiers)["name"] == "Riflemen"
        # The renamed figure keeps its type on its roster line.
        assert "Riflemen (Soldier) ×5" in str(editor.roster_tree.find(soldiers).label)  # type: ignore[union-attr]
        # Experience of the squad.
        editor.jump_to(("selections", 2))
        await pilot.pause()
        exp = editor.query_one("#d-exp", Select)
        exp.value = "veteran"
        await pilot.pause()
        assert session.node(("selections", 2))["experience"] == "veteran"
        # Notes.
        notes = editor.query_one("#d-notes", Input)
        notes.focus()
        await type_text(pilot, "Holds the bridge")
        await pilot.press("f3")  # leaving the field keeps what was typed
        await pilot.pause()
        assert session.node(("selections", 2))["notes"] == "Holds the bridge"
        # The roster's own name and limit.
        editor.jump_to(())
        await pilot.pause()
        limit = next(w for w in editor.details.query(Input) if w.name == "limit:pts")
        limit.focus()
        await type_text(pilot, "50")
        await pilot.press("enter")
        await pilot.pause()
        assert session.roster.header.limits == {"pts": 50}
        assert "over the limit" in " ".join(issue_texts(editor))
        assert session.history == [
            "Choose Rifle",
            "Count 3",
            "Count 4",
            "Count 5",
            "Rename to Riflemen",
            "Experience Veteran",
            "Edit notes",
            "Points limit 50",
        ]


@run_async
async def test_duplicate_move_and_rename_keys(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None

        def names() -> list[str]:
            return [str(s.get("name")) for s in session.roster.doc["selections"]]

        await focus_roster_line(pilot, editor, 2)  # Alpha
        await pilot.press("d")
        await pilot.pause()
        assert names() == ["Captain Vos", "Alpha", "2nd Alpha", "Bravo"]
        assert editor.selected == ("selections", 2)
        await pilot.press("ctrl+down")
        await pilot.pause()
        assert editor.selected == ("selections", 3)
        await pilot.press("r")
        await pilot.press("ctrl+a" if False else "end")
        await type_text(pilot, " 2")
        await pilot.press("enter")
        await pilot.pause()
        assert names() == ["Captain Vos", "Alpha", "Bravo", "2nd Alpha 2"]
        await pilot.press("f3", "alt+up")
        await pilot.pause()
        assert names() == ["Captain Vos", "Alpha", "2nd Alpha 2", "Bravo"]
        for _ in range(4):
            await pilot.press("ctrl+z")
        await pilot.pause()
        assert names() == ["Captain Vos", "Alpha", "Bravo"]
        assert not session.dirty


# --------------------------------------------------------------------------- keys and commands


@run_async
async def test_help_screen_lists_the_bindings(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test() as pilot:
        await wait_editor(pilot)
        await pilot.press("f1")
        await wait_for(pilot, lambda: isinstance(app.screen, HelpScreen))
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(app.screen.query_one("#help-table", Static).content)
        text = console.export_text()
        for binding_id in ("editor.add", "editor.undo", "editor.save", "app.quit"):
            assert binding_id in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, EditorScreen)


@run_async
async def test_user_keymap_remaps_a_binding(make_app: MakeApp, workdir: Path) -> None:
    settings = Settings(keymap={"editor.add": "i"})
    app = make_app(workdir / "patrol.yaml", settings=settings)
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("a")
        await pilot.pause()
        assert editor.session is not None and not editor.session.history
        await pilot.press("i")
        await pilot.pause()
        assert editor.session.history == ["Add Captain"]


@run_async
async def test_command_palette_adds_an_entry(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(100, 30)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await type_text(pilot, "Add Squad")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await pilot.pause()
        assert editor.session is not None and editor.session.history == ["Add Squad"]
        # Actions are there too.
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: isinstance(app.screen, CommandPalette))
        await type_text(pilot, "Undo")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_for(pilot, lambda: isinstance(app.screen, EditorScreen))
        await pilot.pause()
        assert editor.session.history == []


# --------------------------------------------------------------------------- exports


@run_async
async def test_export_text(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test() as pilot:
        await wait_editor(pilot)
        await pilot.press("ctrl+e")
        await answer_path(pilot, workdir / "patrol.txt")
    text = (workdir / "patrol.txt").read_text(encoding="utf-8")
    assert "Border patrol" in text and "Captain Vos" in text


@run_async
async def test_export_pdf_reports_when_unavailable(
    make_app: MakeApp, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: None)
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("ctrl+r")
        await answer_path(pilot, workdir / "patrol.pdf")
        await wait_for(pilot, lambda: editor.last_export is not None)
        assert editor.last_export == (None, "PDF export is not installed in this version")
        assert isinstance(app.screen, EditorScreen)


@run_async
async def test_export_pdf_in_a_worker_with_progress(
    make_app: MakeApp, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[float] = []

    def render_pdf(
        ev: Evaluation, output: Path, *, progress: Callable[[int, int], None] | None = None
    ) -> object:
        # The renderer's interface: an evaluation in, progress as (parts done, parts).
        assert ev.roster.name == "Border patrol"
        for done in (1, 2, 3):
            assert progress is not None
            progress(done, 4)
            seen.append(done / 4)
        output.write_bytes(b"%PDF-1.7 fake")
        return types.SimpleNamespace(pages=1)

    fake = types.SimpleNamespace(render_pdf=render_pdf)
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: fake)
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("ctrl+r")
        await answer_path(pilot, workdir / "out" / "patrol.pdf")
        await wait_for(pilot, lambda: editor.last_export is not None)
        assert editor.last_export == (workdir / "out" / "patrol.pdf", None)
        assert not isinstance(app.screen, ExportScreen)
    assert seen == [0.25, 0.5, 0.75]
    assert (workdir / "out" / "patrol.pdf").read_bytes().startswith(b"%PDF")


# --------------------------------------------------------------------------- background validation


@run_async
async def test_slow_validation_runs_in_a_worker(make_app: MakeApp, workdir: Path) -> None:
    app = make_app(workdir / "patrol.yaml", sync_budget_ms=-1.0)
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(("selections", 2))
        await pilot.pause()
        for _ in range(3):
            await pilot.press("a")  # three more soldiers for Bravo, validated off the loop
        await wait_for(
            pilot,
            lambda: session.evaluation_is_current and editor.shown_generation == session.generation,
        )
        await pilot.pause()
        assert len(session.history) == 3
        assert "validating" not in totals_text(editor)
        assert not any("under strength" in t for t in issue_texts(editor))


@run_async
async def test_open_any_file_and_save_as_over_another(make_app: MakeApp, workdir: Path) -> None:
    other = workdir / "other.yaml"
    other.write_text("# keep me\n", encoding="utf-8")
    app = make_app()
    async with app.run_test() as pilot:
        await wait_screen(pilot, "home")
        await pilot.press("o")
        await answer_path(pilot, workdir / "patrol.yaml")
        editor = await wait_editor(pilot)
        assert editor.session is not None and editor.session.name == "Border patrol"
        await pilot.press("f12")
        await answer_path(pilot, other)
        await wait_screen(pilot, "confirm-overwrite")
        await pilot.click("#overwrite")
        await pilot.pause()
        assert editor.session.path == other
        assert editor.sub_title == "other.yaml"
    assert Roster.from_file(other).name == "Border patrol"
    assert (workdir / "other.yaml.bak").read_text(encoding="utf-8") == "# keep me\n"


@run_async
async def test_details_pane_shows_a_systems_computed_values(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Whatever a system computes reaches the details pane: here the Starship Troopers damage
    # table (expected casualties and "at least N" odds) for a squad against the Arachnids.
    app = make_app(example_copy(tmp_path, "starship-troopers", "mi-squad.yaml"))
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 0))
        await pilot.pause()
        shown = editor.details.query_one("#d-values", LiveStatic).plain
        assert "vs Arachnid Warrior" in shown
        assert "casualties avg" in shown


@run_async
async def test_a_roster_wide_check_marks_a_unit_in_an_untouched_part(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Launchers with nobody to call their missiles: the warning (worked out over the whole
    # force) marks the first launcher, in the HQ. A caller added to a squad elsewhere clears
    # it, though the HQ itself was not edited and is replayed from the previous evaluation.
    roster = tmp_path / "callers.yaml"
    roster.write_text(
        "system: starship-marine\nfaction: earther\nname: Callers\nselections:\n"
        "  - entry: earther-regiment\n    selections:\n"
        "      - entry: earther-regimental-hq\n        selections:\n"
        "          - {entry: lt-colonel, selections: [{entry: marine-armour}, {entry: sca-1}]}\n"
        "          - {entry: close-support-robot, selections: [{entry: apgw-launcher}]}\n"
        "      - entry: earther-group\n        selections:\n"
        "          - entry: earther-squad\n            selections:\n"
        "              - {entry: sergeant, selections: [{entry: marine-armour}]}\n",
        encoding="utf-8",
    )
    robot = ("selections", 0, "selections", 0, "selections", 1)
    squad = ("selections", 0, "selections", 1, "selections", 0)
    app = make_app(roster)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        assert "sm-apgw-caller" in session.evaluate().codes()
        line = editor.roster_tree.find(robot)
        assert line is not None and line.label.plain.startswith(WARNING_MARK)
        editor.add_entry("sca-3", (*squad, "selections", 0))
        await pilot.pause()
        ev = session.evaluate()
        assert "sm-apgw-caller" not in ev.codes()
        assert ev.memo_out is not None and ev.memo_out.hits > 0  # the HQ was replayed
        line = editor.roster_tree.find(robot)
        assert line is not None and not line.label.plain.startswith(WARNING_MARK)


@run_async
async def test_campaign_state_is_edited_in_the_details_pane(
    make_app: MakeApp, tmp_path: Path
) -> None:
    # Starship Marine works out a figure's experience from its campaign state (actions fought
    # and wounds): typing it in the details pane changes the class shown there.
    roster = example_copy(tmp_path, "starship-marine", "martian-boarding-group.yaml")
    corporal = ("selections", 0, "selections", 0, "selections", 2)
    major = ("selections", 0, "selections", 0, "selections", 0)
    app = make_app(roster)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(major)
        await pilot.pause()
        field = editor.details.query_one("#d-state", Input)
        assert field.value == "{actions: 33, wounds: 1}"

        editor.jump_to(corporal)
        await pilot.pause()
        assert field.value == ""
        before = session.evaluate().value(node_at(session.evaluate(), corporal), "experience")
        assert before["counted"] == 0
        field.focus()
        await pilot.press(*"actions: 12, wounds: 1", "enter")
        await pilot.pause()
        assert session.node(corporal)["state"] == {"actions": 12, "wounds": 1}
        ev = session.evaluate()
        after = ev.value(node_at(ev, corporal), "experience")
        assert after["actions"] == 12 and after["wounds"] == 1 and after["counted"] > 0
        assert after["class"] in editor.details.query_one("#d-values", LiveStatic).plain
        assert session.history[-1] == "Edit campaign state"

        # Enter applied it and gave the focus back to the roster tree.
        assert app.focused is editor.roster_tree

        # Text that is not a mapping changes nothing and says why; the field keeps it as typed.
        field.focus()
        await pilot.pause()
        field.value = "[1, 2"
        await pilot.press("enter")
        await pilot.pause()
        assert session.node(corporal)["state"] == {"actions": 12, "wounds": 1}
        assert field.value == "[1, 2"
        assert any("campaign state" in str(n.message) for n in app._notifications)

        # Blank clears it; undo brings it back.
        field.focus()
        await pilot.pause()
        field.value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert "state" not in session.node(corporal)
        session.undo()
        assert session.node(corporal)["state"] == {"actions": 12, "wounds": 1}


@run_async
async def test_quit_counts_the_edits_since_the_save(make_app: MakeApp, workdir: Path) -> None:
    """The question on quitting counts the edits between the file and the roster, not every
    edit of the session (it said "4 edits" after three edits, a save and one more edit):
    "1 edit"; with that edit and one saved edit undone, the roster is one edit (undone) away
    from the file: "1 edit" again."""
    path = workdir / "patrol.yaml"
    app = make_app(path)
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 1))
        for key in ["d", "d", "d"]:
            await pilot.press(key)
            await pilot.pause()
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: editor.session is not None and not editor.session.dirty)
        await pilot.press("d")
        await pilot.pause()

        async def asked() -> str:
            await pilot.press("ctrl+q")
            await wait_screen(pilot, "confirm-close")
            message = " ".join(str(s.render()) for s in app.screen.query(".dialog-message"))
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.screen is editor)
            return message

        said = await asked()
        assert "has unsaved changes (1 edit since it was saved)" in said, said
        await pilot.press("ctrl+z", "ctrl+z")  # the new duplicate and a saved one undone
        await pilot.pause()
        said = await asked()
        assert "has unsaved changes (1 edit since it was saved)" in said, said


@run_async
async def test_count_keys_on_the_roster_itself_say_why_nothing_changes(
    make_app: MakeApp, workdir: Path
) -> None:
    """+, − and Ctrl+Up with the roster itself selected (as after adding from the catalog to
    it) change nothing, and say so (they did nothing, silently, where Del and d explain)."""
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test() as pilot:
        editor = await wait_editor(pilot)
        assert editor.selected == ()
        assert editor.session is not None
        before = editor.session.roster.doc
        for key, word in [
            ("plus", "change its count"),
            ("minus", "change its count"),
            ("ctrl+up", "move"),
        ]:
            app._notifications.clear()
            await pilot.press(key)
            await pilot.pause()
            said = [str(n.message) for n in app._notifications]
            assert any(f"Select a unit in the roster to {word}" in m for m in said), (key, said)
        assert editor.session.roster.doc == before and not editor.session.dirty
