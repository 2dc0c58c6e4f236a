"""What the builder's panes say, compared with what the session computes (Pilot, headless):
choices in pick-one groups swap, limits and costs where the player chooses, what the roster
tree tells about each unit, the campaign state field."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import painted, pane_lines
from textual.pilot import Pilot
from textual.widgets import Input, Select

from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.widgets.details import ChoiceSelect
from armybuilder.tui.widgets.stable import LiveStatic

MakeApp = Callable[..., ArmyBuilderApp]

#: Brother Deino of the standard squad: storm bolter and power fist.
DEINO = ("selections", 0, "selections", 3)


def copy_example(folder: Path, system: str, name: str) -> Path:
    path = folder / name
    shutil.copy(EXAMPLES / system / name, path)
    return path


async def highlight_in_catalog(pilot: Pilot[Any], editor: EditorScreen, entry_id: str) -> None:
    """Move the catalog's cursor to an entry with the keyboard."""
    await pilot.press("f4")
    await pilot.pause()
    catalog = editor.catalog
    for _ in range(60):
        if catalog.highlighted() == entry_id:
            return
        await pilot.press("down")
    raise AssertionError(f"{entry_id} is not in the catalog pane")


def choice(editor: EditorScreen, group_id: str) -> Select[str]:
    return next(s for s in editor.details.query(Select) if s.name == f"grp:{group_id}")


def issue_texts(editor: EditorScreen) -> list[str]:
    return editor.issues.texts()


# --------------------------------------------------------------------------- pick-one groups


@run_async
async def test_catalog_add_swaps_a_pick_one_choice(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(DEINO)
        await pilot.pause()
        assert choice(editor, "terminator-ranged").value == "storm-bolter"
        await highlight_in_catalog(pilot, editor, "assault-cannon")
        await pilot.press("a")
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "assault-cannon",
            "power-fist",
        ]
        assert not any("choices of Ranged weapon" in t for t in issue_texts(editor))
        # The drop-down shows the new choice, not "(none)".
        await wait_for(pilot, lambda: choice(editor, "terminator-ranged").value == "assault-cannon")
        # Undo gives back the storm bolter in one step.
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "storm-bolter",
            "power-fist",
        ]
        assert not session.can_undo
        await wait_for(pilot, lambda: choice(editor, "terminator-ranged").value == "storm-bolter")


@run_async
async def test_details_drop_down_swaps_in_one_step(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(DEINO)
        await pilot.pause()
        # Adding the current choice again says so and changes nothing.
        await highlight_in_catalog(pilot, editor, "storm-bolter")
        await pilot.press("a")
        await pilot.pause()
        assert not session.history
        notices = [n.message for n in app._notifications]
        assert any("already the choice of Ranged weapon" in m for m in notices)
        choice(editor, "terminator-melee").value = "chainfist"
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]] == [
            "storm-bolter",
            "chainfist",
        ]
        assert len(session.history) == 1
        await pilot.press("f3")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [s["entry"] for s in session.node(DEINO)["selections"]][1] == "power-fist"
        await wait_for(pilot, lambda: choice(editor, "terminator-melee").value == "power-fist")


# --------------------------------------------------------------------------- limits and costs


def catalog_lines(editor: EditorScreen, entries_only: bool = False) -> list[str]:
    """The catalog tree's lines as shown (``entries_only``: not the section headings)."""
    tree = editor.catalog.catalog_tree
    lines = []
    for line in range(tree.last_line + 1):
        node = tree.get_node_at_line(line)
        if node is not None and not (entries_only and node.data is None):
            lines.append(node.label.plain)
    return lines


@run_async
async def test_catalog_shows_counts_against_limits(make_app: MakeApp, workdir: Path) -> None:
    from armybuilder.session import costs_text

    path = copy_example(workdir, "infantry-ops", "rifle-platoon.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        squad = ("selections", 0, "selections", 1)
        editor.jump_to(squad)
        await pilot.pause()
        lines = catalog_lines(editor)
        # A foot rifle squad is seven troopers (Infantry Operations, The Infantry Platoon,
        # structure table); a trooper with its default kit weighs 85 kg, and one added to
        # this line (four squads alike, `count: 4`) is one in each squad: 340 kg, what the
        # platoon's mass rises by (docs/tui.md, "What an option costs").
        trooper = next(i for i in session.option_infos(squad) if i.entry_id == "trooper")
        assert trooper.limit.count_text == "7/7"
        assert costs_text(session.index, trooper.costs) == "340 kg"
        assert "Trooper  340 kg  7/7" in lines
        assert not any("selected)" in line for line in lines)
        # The platoon: four squads (the same table).
        platoon = ("selections", 0)
        editor.jump_to(platoon)
        await pilot.pause()
        infos = {i.entry_id: i for i in session.option_infos(platoon)}
        assert infos["squad"].limit.count_text == "4/4"
        assert "Squad  4/4" in catalog_lines(editor, entries_only=True)
        # Every entry line carries the session's cost and count, every group its limit.
        groups = session.group_limits(platoon)
        shown = catalog_lines(editor, entries_only=True)
        headings = [x for x in catalog_lines(editor) if x not in shown]
        for info in infos.values():
            name = session.index.name_of(info.entry_id)
            line = next(x for x in shown if x.startswith(name + " ") or x == name)
            assert costs_text(session.index, info.costs) in line
            assert info.limit.count_text in line
        for gid, limit in groups.items():
            assert any(
                x.startswith(session.index.name_of(gid)) and f"({limit.range_text})" in x
                for x in headings
            ), (gid, headings)


@run_async
async def test_required_group_reads_exactly_one(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        squad = ("selections", 0)
        editor.jump_to(squad)
        await pilot.pause()
        # One Sergeant leads the squad (Space Hulk house rules, Space Marines Units and
        # Weapons): the group has no limit of its own, its one entry must be taken once.
        limit = session.group_limits(squad)["squad-leader"]
        assert (limit.range_text, limit.count_text) == ("exactly 1", "1/1")
        lines = catalog_lines(editor)
        assert "Sergeant (exactly 1) 1/1" in lines
        assert not any("(any)" in line for line in lines)
        # Six models to a squad (the same section): the squad's limit on its models' category
        # heads their section.
        models = session.category_limits(squad)["squad-model"]
        assert (models.range_text, models.count_text) == ("exactly 6", "6/6")
        assert "Model (exactly 6) 6/6" in lines
        heading = next(
            w for w in editor.details.query("#d-groups > *") if w.name == "grplabel:squad-leader"
        )
        assert isinstance(heading, LiveStatic)
        assert heading.plain == "Sergeant (exactly 1): 1/1"
        # A Terminator's pick-one groups: "(0-1)" and how many are chosen.
        editor.jump_to(DEINO)
        await pilot.pause()
        lines = catalog_lines(editor)
        assert "Ranged weapon (0-1) 1/1" in lines
        assert "Cyclone missile launcher (0-1) 0/1" in lines


@run_async
async def test_experience_choice_shows_what_the_total_rises_by(
    make_app: MakeApp, workdir: Path
) -> None:
    """The experience drop-down prices each level as the other options are priced: what the
    roster's total rises by with the unit at that level (nothing beside the level it has),
    not what the unit costs at it ("Average · 4.5 BP" for a sergeant whose roster rises by
    1 BP). Each figure is checked against the edit itself, in the totals."""
    from armybuilder.session import costs_text

    path = copy_example(workdir, "starmarines", "starmarines-example.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        index = session.index
        platoon = ("selections", 0)
        sergeant = ("selections", 0, "selections", 1)  # inherits Green from the platoon
        for loc in (platoon, sergeant):
            editor.jump_to(loc)
            await pilot.pause()
            before = session.evaluate().totals["bp"]
            rises = session.experience_rises(loc)
            own = session.node(loc).get("experience")
            exp = editor.query_one("#d-exp", Select)
            shown = [str(label) for label, value in exp._options if value is not Select.NULL]
            assert shown == [
                f"{index.experience[lv].name} · {costs_text(index, rises[lv])}".rstrip(" ·")
                for lv in index.experience
            ]
            assert str(exp.prompt).endswith(")" if own is None else costs_text(index, rises[None]))
            for level in index.experience:
                session.set_experience(loc, level)
                got = session.evaluate().totals["bp"] - before
                assert got == rises[level]["bp"], (loc, level)
                session.undo()
            editor.after_edit()
            await pilot.pause()
        # Experience is bought per team or individual (StarMarines X, Soldier Experience
        # Table): a Green sergeant made Average, Veteran or Elite adds 1, 2 or 3 BP.
        editor.jump_to(sergeant)
        await pilot.pause()
        exp = editor.query_one("#d-exp", Select)
        assert [str(label) for label, value in exp._options if value is not Select.NULL] == [
            "Green",
            "Average · 1 BP",
            "Veteran · 2 BP",
            "Elite · 3 BP",
        ]
        assert str(exp.prompt) == "(inherited: Green)"


# --------------------------------------------------------------------------- campaign state


async def type_text(pilot: Pilot[Any], text: str) -> None:
    await pilot.press(*["space" if c == " " else c for c in text])


@run_async
async def test_campaign_state_field_keeps_a_refused_text(make_app: MakeApp, workdir: Path) -> None:
    from armybuilder.rules.state import state_example

    path = copy_example(workdir, "starship-marine", "martian-boarding-group.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        major = ("selections", 0, "selections", 0, "selections", 0)
        editor.jump_to(major)
        await pilot.pause()
        field = editor.query_one("#d-state", Input)
        why = editor.query_one("#d-state-why", LiveStatic)
        # The placeholder shows this system's keys (Starship Marine's rules module).
        width = field.scrollable_content_region.width
        assert field.placeholder == state_example(session.state_keys, width)
        assert "actions" in field.placeholder
        assert field.value == "{actions: 33, wounds: 1}"
        field.focus()
        await pilot.pause()
        field.value = ""
        await type_text(pilot, "wounds 2")
        await pilot.press("enter")
        await pilot.pause()
        # Refused: nothing stored, the text stays as typed, the cursor at its end, and why.
        assert session.node(major)["state"] == {"actions": 33, "wounds": 1}
        assert not session.history
        assert field.value == "wounds 2"
        assert field.cursor_position == len("wounds 2")
        assert "write key: value, e.g. {actions:" in why.plain
        assert why.display
        assert app.focused is field  # Enter on refused text leaves the focus there
        # Fixing it where the cursor is: two backspaces, then ": 2".
        await pilot.press("backspace", "backspace")
        await type_text(pilot, ": 2, actions: 33")
        await pilot.press("enter")
        await pilot.pause()
        assert session.node(major)["state"] == {"wounds": 2, "actions": 33}
        assert not why.display
        assert app.focused is editor.roster_tree  # accepted: back to the tree
        # Escape drops refused text: the field shows the roster's state again.
        field.focus()
        await pilot.pause()
        field.value = ""
        await type_text(pilot, "wounds 3")
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is field and why.display
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is editor.roster_tree
        assert field.value == "{wounds: 2, actions: 33}" and not why.display
        # An unknown key is stored but named, with the nearest known key.
        field.focus()
        await pilot.pause()
        field.value = ""
        await type_text(pilot, "acitons: 31")
        await pilot.press("enter")
        await pilot.pause()
        assert session.node(major)["state"] == {"acitons": 31}
        assert "did you mean 'actions'?" in why.plain
        assert any("did you mean 'actions'?" in t for t in issue_texts(editor))


# --------------------------------------------------------------------------- the roster tree


def tree_lines(editor: EditorScreen) -> list[tuple[Any, str, str]]:
    """(node loc, label, what the screen shows on that line) for every line of the tree."""
    tree = editor.roster_tree
    out = []
    for y in range(tree.last_line + 1):
        tnode = tree.get_node_at_line(y)
        assert tnode is not None
        tree.scroll_to(y=max(0, y - 1), animate=False, immediate=True)
        shown = tree.render_line(y - int(tree.scroll_offset.y)).text
        out.append((tnode.data, tnode.label.plain, shown))
    return out


async def open_rename_and_expand(pilot: Pilot[Any], editor: EditorScreen) -> None:
    session = editor.session
    assert session is not None
    marine = ("selections", 0, "selections", 0, "selections", 3)
    session.rename(marine, "Pte Vasquez")
    editor.after_edit()
    for loc in (marine, ("selections", 0, "selections", 1, "selections", 1)):
        editor.jump_to(loc)
        await pilot.pause()


@run_async
async def test_tree_lines_say_what_each_unit_is(make_app: MakeApp, workdir: Path) -> None:
    from armybuilder.session import unit_summary
    from armybuilder.tui.widgets.roster_tree import node_at

    path = copy_example(workdir, "starship-marine", "martian-boarding-group.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        await open_rename_and_expand(pilot, editor)
        ev = session.evaluate()
        lines = tree_lines(editor)
        labels = {loc: label for loc, label, _ in lines}
        # A renamed figure keeps its type; experience is the class Starship Marine works out
        # from actions fought (4.7): the Major's 33 actions with a wound make him a Veteran.
        marine = ("selections", 0, "selections", 0, "selections", 3)
        assert labels[marine].startswith("Pte Vasquez (Marine) ×5 · Novice · ")
        major = ("selections", 0, "selections", 0, "selections", 0)
        assert labels[major].startswith("Major Okonkwo (Major) · Veteran · ")
        checked = 0
        for loc, label, shown in lines:
            node = node_at(ev, loc)
            assert node is not None
            assert label in shown, (label, shown)  # the whole label is on the screen
            if node.is_root:
                continue
            facts = unit_summary(ev, node)
            assert label.startswith(facts.name)
            if facts.entry_name:
                assert f"({facts.entry_name})" in label
            if facts.experience:
                assert f" · {facts.experience}" in label
                checked += 1
            if facts.loadout:
                kit = label.rsplit(" · ", 1)[1].split("  ")[0]
                pieces = [p.strip() for p in kit.split(",")]
                assert [p[0] for p in pieces] == [i[0] for i in facts.loadout], (label, facts)
        assert checked >= 6


@run_async
async def test_tree_lines_fit_a_small_terminal(make_app: MakeApp, workdir: Path) -> None:
    from rich.cells import cell_len

    from armybuilder.session import unit_summary
    from armybuilder.tui.widgets.roster_tree import node_at

    path = copy_example(workdir, "starship-marine", "martian-boarding-group.yaml")
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        await open_rename_and_expand(pilot, editor)
        ev = session.evaluate()
        tree = editor.roster_tree
        for loc, label, shown in tree_lines(editor):
            node = node_at(ev, loc)
            assert node is not None
            assert label in shown, (label, shown)
            assert cell_len(shown.rstrip()) <= tree.scrollable_content_region.width
            if node.is_root:
                continue
            facts = unit_summary(ev, node)
            assert label.startswith(facts.name[:3])
            if facts.experience:
                assert f" · {facts.experience[:3]}" in label


# --------------------------------------------------------------------------- smaller things


@run_async
async def test_new_roster_dialog_asks_for_the_faction(make_app: MakeApp) -> None:
    from textual.widgets import Input

    from armybuilder.tui.screens.dialogs import NewRosterScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("n")
        await wait_for(pilot, lambda: isinstance(app.screen, NewRosterScreen))
        dialog = app.screen
        assert isinstance(dialog, NewRosterScreen)
        dialog.query_one("#new-system", Select).value = "starship-marine"
        await pilot.pause()
        # Several factions: none is picked for the player (not the alphabetically first).
        assert dialog.query_one("#new-faction", Select).value is Select.NULL
        await pilot.click("#create")
        await wait_for(pilot, lambda: dialog.error_text == "Choose a game system and a faction.")
        dialog.query_one("#new-faction", Select).value = "martian"
        await wait_for(pilot, lambda: dialog.error_text == "")
        await pilot.pause(0.3)  # a Button ignores clicks while it shows it was pressed
        await pilot.click("#create")
        await wait_for(pilot, lambda: dialog.error_text == "Give the roster a name.")
        dialog.query_one("#new-name", Input).focus()
        await type_text(pilot, "Boarders")
        await pilot.pause()
        assert dialog.error_text == ""  # the message goes once a name is typed
        # One faction only (Space Hulk: the Terminators): it is picked.
        dialog.query_one("#new-system", Select).value = "space-hulk"
        await pilot.pause()
        assert dialog.query_one("#new-faction", Select).value == "terminators"


@run_async
async def test_add_on_a_group_heading(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        leon = ("selections", 0, "selections", 1)  # assault cannon, power fist
        editor.jump_to(leon)
        await pilot.pause()
        await pilot.press("f4")
        tree = editor.catalog.catalog_tree
        tree.cursor_line = 0  # the "Ranged weapon" heading
        await pilot.pause()
        assert editor.catalog.highlighted() is None
        await pilot.press("a")  # adds the group's usual choice: back to the storm bolter
        await pilot.pause()
        assert [s["entry"] for s in session.node(leon)["selections"]] == [
            "storm-bolter",
            "power-fist",
        ]
        # A heading without a usual choice explains what to do.
        heading = next(
            y
            for y in range(tree.last_line + 1)
            if tree.get_node_at_line(y).label.plain.startswith("Lightning claws")  # type: ignore[union-attr]
        )
        tree.cursor_line = heading
        await pilot.pause()
        await pilot.press("a")
        await pilot.pause()
        notices = [str(n.message) for n in app._notifications]
        assert any("is a heading: highlight one of its entries" in m for m in notices)


@run_async
async def test_pdf_dialog_offers_the_paper_size(
    make_app: MakeApp, workdir: Path, monkeypatch: Any
) -> None:
    import types

    from textual.widgets import Input

    from armybuilder.tui.screens.export import PdfPathScreen

    papers: list[str] = []

    def render_pdf(ev: Any, output: Path, *, paper: str = "a4", progress: Any = None) -> object:
        papers.append(paper)
        output.write_bytes(b"%PDF-1.7 fake")
        return types.SimpleNamespace(pages=1)

    fake = types.SimpleNamespace(render_pdf=render_pdf)
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: fake)
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: isinstance(app.screen, PdfPathScreen))
        dialog = app.screen
        assert dialog.query_one("#pdf-paper", Select).value == "a4"
        dialog.query_one("#pdf-paper", Select).value = "letter"
        await pilot.pause()
        dialog.query_one("#path-input", Input).value = str(workdir / "patrol.pdf")
        await pilot.click("#ok")
        await wait_for(pilot, lambda: editor.last_export is not None)
        assert papers == ["letter"]
        assert editor.paper == "letter"  # the next export offers the same paper


@run_async
async def test_search_filter_says_it_is_there(make_app: MakeApp, workdir: Path) -> None:
    path = copy_example(workdir, "space-hulk", "standard-squad.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        catalog = editor.catalog
        await pilot.press("slash")
        await type_text(pilot, "fist")
        await pilot.pause()
        # At the roster's top level nothing is called "fist": the pane says so.
        empty = editor.query_one("#catalog-empty", LiveStatic)
        assert empty.display and "No entry matches 'fist' here" in empty.plain
        assert "filter 'fist'" in catalog.title_text
        # The filter stays when another unit is selected, and the title still shows it.
        editor.jump_to(DEINO)
        await pilot.pause()
        assert catalog.title_text == "Add to: Brother Deino · filter 'fist'"
        assert not empty.display
        assert catalog_lines(editor, entries_only=True) == ["Power Fist  1 chosen", "Chainfist"]
        catalog.search.focus()
        await pilot.press("escape")
        await pilot.pause()
        assert catalog.title_text == "Add to: Brother Deino"
        assert "Assault Cannon" in catalog_lines(editor, entries_only=True)


@run_async
async def test_a_transport_is_offered_at_what_it_adds_to_the_platoon(
    make_app: MakeApp, workdir: Path
) -> None:
    """Infantry Operations, movement table: a jump platoon carries 80 kg of jump packs per
    trooper, a motorised biker one 110 kg; the rifle platoon has 28 troopers. The motive
    entries weigh nothing themselves: what the catalog pane and the details pane's drop-down
    offer is what the platoon's mass rises by when chosen (docs/tui.md, "What an option
    costs"), read from the screen and checked against the edit."""

    path = copy_example(workdir, "infantry-ops", "rifle-platoon.yaml")
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        platoon = ("selections", 0)
        editor.jump_to(platoon)
        await pilot.pause()
        rows = [" ".join(r.split()) for r in pane_lines(app, editor.catalog.catalog_tree)]
        assert any(r.endswith("Jump 2,240 kg") for r in rows), rows
        assert any(r.endswith("Motorised – Biker 3,080 kg") for r in rows), rows
        # the choice already made: choosing it again adds nothing, and no price is shown
        assert any(r.endswith("Foot 1 chosen") for r in rows), rows
        motive = choice(editor, "motive")
        assert isinstance(motive, ChoiceSelect)
        # (what its list shows when opened: the drop-down prices its options then)
        labels = {value: str(label) for label, value in motive.offered()}
        assert labels["jump"] == "Jump · 2,240 kg"
        assert labels["foot"] == "Foot"
        before = session.evaluate().totals["kg"]
        motive.value = "jump"
        await pilot.pause()
        assert session.evaluate().totals["kg"] - before == 2240


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_campaign_state_example_reads_whole(
    make_app: MakeApp, workdir: Path, size: tuple[int, int]
) -> None:
    """The campaign state field of a unit with none shows an example of this system's keys:
    at 80x24 it read "e.g. {ammo_used:", cut mid-key at the field's edge. Now it shows as
    many of the keys as fit, each whole, "…" for the others ("e.g. {lost: 1, …}"), and the
    painted row is the whole example."""
    from ruamel.yaml import YAML

    from armybuilder.rules.state import state_placeholder

    path = copy_example(workdir, "space-hulk", "squad-with-librarian.yaml")
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        editor.jump_to(("selections", 1))  # (2nd Squad: no campaign state)
        await pilot.pause(0.2)
        await pilot.pause()
        field = editor.query_one("#d-state", Input)
        assert field.value == ""
        rows = [r.strip() for r in pane_lines(app, field, painted(app))]
        example = field.placeholder
        assert rows[0] == example, (rows, example)
        assert example.startswith("e.g. {") and example.endswith("}"), example
        every = YAML(typ="safe").load(state_placeholder(session.state_keys))
        shown = YAML(typ="safe").load(example[len("e.g. ") :].replace(", …}", "}"))
        assert shown and all(every[k] == v for k, v in shown.items()), (example, every)
        assert ("…" in example) == (len(shown) < len(every)), example


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_the_name_fields_placeholder_says_where_it_is_cut(
    make_app: MakeApp, workdir: Path, size: tuple[int, int]
) -> None:
    """A selection with no name of its own shows its entry's name in the name field: at
    80x24 "Cyclone Missile Launcher" was cut at the field's edge into another name ("Cyclone
    Missile Lau"); it now ends in "…" where it is cut, and reads whole where it fits."""
    path = copy_example(workdir, "space-hulk", "squad-with-librarian.yaml")
    app = make_app(path)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        cyclone = ("selections", 1, "selections", 2, "selections", 0)
        editor.jump_to(cyclone)
        await pilot.pause(0.2)
        await pilot.pause()
        field = editor.query_one("#d-name", Input)
        assert field.value == ""
        (row,) = [r.strip() for r in pane_lines(app, field, painted(app)) if r.strip()]
        name = "Cyclone Missile Launcher"
        width = field.scrollable_content_region.width
        if len(name) <= width:
            assert row == name
        else:
            assert row.endswith("…") and name.startswith(row[:-1]) and len(row) <= width, row
            assert size == (80, 24)  # (where it was cut)
