"""The unit lines of one roster tree say their costs in one form, and a catalog list's form is
not set by a name cut whatever the form.

At 80x24 the 40k roster's tree read "Redemptor Dreadnought 205 pts" beside "Lieutenant  55
pts" (each line took the fullest form it had room for), and a 40k catalog list read
"Aggressor Squad 95pts" even at 160x48, its form set by "Vanguard Veteran Squad with Jump
Packs", a name cut in every form. Now the tree takes the fullest form every unit line shown
needs to keep its name whole (a line whose name is cut at every form has no say), an edit or
a resize that changes it relabels every unit line (those the edit did not touch too), and a
list's form is set by the names some form leaves whole. Read from the painted rows (Pilot)
on the 40k data (../shared/bsdata, skipped where absent), and on tiny made-up lists.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from screen import Terminal, painted, pane_lines, tree_label
from test_repaint_40k import marines, space_marines  # noqa: F401  (a fixture)
from test_screen_model import repainted_whole, screen_problems, settle

from armybuilder.catalog import Library
from armybuilder.session import UnitSummary
from armybuilder.tui.widgets.fitting import ListTails
from armybuilder.tui.widgets.roster_tree import fit_label, fit_line

#: A price at the end of a row, less a count after it: its separator, its number, the space
#: before its unit ("  80 pts", " 80 pts", " 80pts").
PRICE = re.compile(r"(\s+)(\d[\d,.]*)(\s?)pts(?:\s+(?:×\d+|\d+/\d+))?$")


def price_form(label: str) -> tuple[str, str] | None:
    """The form of a row's price: its separator and the space before "pts" (``None``: no
    price)."""
    found = PRICE.search(label)
    return None if found is None else (found.group(1), found.group(3))


def said(parts: list[tuple[str, str]]) -> str:
    return "".join(t for t, _ in parts)


# ---------------------------------------------------------------- the rules on their own


def test_a_line_needs_the_form_that_keeps_its_name_whole() -> None:
    """A line's needed form is the first that keeps its name whole once its loadout gave
    way; at the tree's form (terser) a line shows that form, and its loadout where that
    leaves room; a line whose name is cut at every form needs none, and is cut with the
    tree's form where that leaves 8 cells of its name, else with a shorter one."""
    dread = UnitSummary("Redemptor Dreadnought", "", 1, "", ("Fist",), "205 pts")
    lieut = UnitSummary("Lieutenant", "", 1, "", (), "55 pts")
    libby = UnitSummary("Librarian", "", 2, "", ("Bolt pistol", "Smite"), "130 pts")
    assert fit_line(dread, 29) == ([("Redemptor Dreadnought", ""), (" 205 pts", "dim")], 2)
    assert fit_line(lieut, 29)[1] == 0 and said(fit_label(lieut, 29)) == "Lieutenant  55 pts"
    assert said(fit_label(lieut, 29, 2)) == "Lieutenant 55 pts"
    assert said(fit_label(lieut, 29, 5)) == "Lieutenant 55pts"
    assert said(fit_label(libby, 29)) == "Librarian ×2 · BP,S…  130 pts"
    assert said(fit_label(libby, 29, 5)) == "Librarian ×2 · BP,Smi… 130pts"  # (room: kit)
    assert said(fit_label(libby, 27)) == "Librarian ×2  130 pts"
    # A name cut at every form: no say; cut with the tree's form (8 cells of it at least).
    long = UnitSummary("Vanguard Veteran Squad with Jump Packs", "", 1, "", (), "100 pts")
    assert fit_line(long, 29)[1] is None
    assert said(fit_label(long, 29, 0)) == "Vanguard Veteran Sq…  100 pts"
    assert said(fit_label(long, 29, 2)) == "Vanguard Veteran Squ… 100 pts"
    assert said(fit_label(long, 16, 0)) == "Vanguar… 100 pts"  # (8 cells: a shorter form)
    assert said(fit_label(long, 15, 0)) == "Vanguar… 100pts"


def test_a_list_form_is_not_set_by_a_name_cut_at_every_form() -> None:
    """The list's form: the fullest its names need beside their own costs, of the names
    some form leaves whole; an option without costs of its own has no say either."""
    rows = [
        ("Aggressor Squad", "95 pts"),
        ("Vanguard Veteran Squad with Jump Packs", "100 pts"),  # (cut at 30 in any form)
        ("Lesser Daemons (Unbound Adversaries)", ""),  # (no price)
    ]
    tails = ListTails(lambda: rows)
    assert tails.step(30) == 0  # ("Aggressor Squad  95 pts")
    assert tails.step(len("Aggressor Squad 95 pts")) == 2
    assert tails.step(len("Aggressor Squad 95pts")) == 5
    assert tails.step(10) == 5  # (no name whole in any form: the tersest)
    # A name some form leaves whole still sets it ("Assault Intercessors with Jump Packs").
    rows.append(("Assault Intercessors with Jump Packs", "75 pts"))
    tails = ListTails(lambda: rows)
    assert tails.step(len("Assault Intercessors with Jump Packs 75 pts")) == 2
    assert tails.step(len("Assault Intercessors with Jump Packs 75pts")) == 5
    assert tails.step(len("Assault Intercessors with Jump Packs 75pts") - 1) == 0


# ---------------------------------------------------------------- the painted 40k screens


def unit_rows(editor: Any, rows: list[str]) -> dict[Any, str]:
    """Each unit row of the roster tree on screen with a price, by its selection."""
    tree = editor.roster_tree
    lines = tree._tree_lines
    top = tree.scroll_offset.y
    out = {}
    for y, raw in enumerate(pane_lines(editor.app, tree, rows)):
        if top + y >= len(lines):
            break
        loc = lines[top + y].path[-1].data
        if len(loc) == 2 and price_form(tree_label(raw)) is not None:
            out[loc] = tree_label(raw)
    return out


def forms_of(rows: dict[Any, str]) -> set[tuple[str, str] | None]:
    return {price_form(label) for label in rows.values()}


async def checked(pilot: Any, editor: Any, terminal: Terminal, where: str) -> dict[Any, str]:
    """The screen after a step: the terminal against a drawing of the whole screen, the
    panes against the session, a repaint from scratch; the tree's unit rows, which must say
    their prices in one form."""
    await settle(pilot, editor)
    await pilot.pause()
    problems = terminal.problems()
    assert not problems, (where, problems)
    problems = screen_problems(pilot.app, editor)
    assert not problems, (where, problems)
    rows = painted(pilot.app)
    again = await repainted_whole(pilot)
    stale = [(y, a, b) for y, (a, b) in enumerate(zip(rows, again, strict=True)) if a != b]
    assert not stale, (where, stale)
    units = unit_rows(editor, rows)
    assert len(units) >= 8, (where, units)
    assert len(forms_of(units)) == 1, (where, units)
    return units


def unit_loc(session: Any, name: str) -> Any:
    ev = session.evaluate()
    return next(n.loc for n in ev.root.children if n.entry is not None and n.entry.name == name)


@run_async
async def test_the_tree_says_every_price_in_one_form(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
) -> None:
    """80x24: one form for the tree ("Lieutenant 55 pts" beside "Redemptor Dreadnought 205
    pts"); the Librarian +1 keeps it, and so does the Dreadnought +1 (its line cut in every
    form); a name that only the tersest form keeps whole relabels every unit line, those
    the edit did not touch too, and its undo gives the form back; 160x48 shows the full
    form ("Lieutenant  55 pts") and 80x24 again the same as before."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=(80, 24)) as pilot:
        terminal = Terminal(app)
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        editor.roster_tree.focus()
        opened = await checked(pilot, editor, terminal, "opened")
        assert forms_of(opened) == {(" ", " ")}, opened  # (one space: the Dreadnought's)

        editor.jump_to(unit_loc(s, "Librarian"))
        await settle(pilot, editor)
        await pilot.press("plus")
        rows = await checked(pilot, editor, terminal, "librarian +1")
        assert forms_of(rows) == {(" ", " ")}, rows

        # The Dreadnought +1: "Redemptor Dreadnought ×2 410pts" is too long in any form, so
        # its line is cut (with the tree's form) and the tree keeps its form.
        dread = unit_loc(s, "Redemptor Dreadnought")
        editor.jump_to(dread)
        await settle(pilot, editor)
        await pilot.press("plus")
        rows = await checked(pilot, editor, terminal, "dreadnought +1")
        assert forms_of(rows) == {(" ", " ")}, rows
        assert rows[dread].startswith("Redemptor") and "…" in rows[dread], rows
        await pilot.press("ctrl+z")
        await checked(pilot, editor, terminal, "dreadnought +1 undone")

        # The Lieutenant named so that only the tersest form keeps his name whole: every
        # unit line takes it, those the edit did not touch too; the undo gives it back.
        tree = editor.roster_tree
        lieutenant, captain = unit_loc(s, "Lieutenant"), unit_loc(s, "Captain")
        budget = tree.scrollable_content_region.width - tree.guide_depth - 2
        name = ("Lieutenant Octavius Vex of the Fourth" * 2)[: budget - len(" 55pts")]
        assert len(name) >= 16, name
        editor.jump_to(lieutenant)
        await settle(pilot, editor)
        editor._edit(lambda x: x.rename(lieutenant, name))
        rows = await checked(pilot, editor, terminal, "lieutenant named")
        assert forms_of(rows) == {(" ", "")}, rows
        assert rows[lieutenant] == f"{name} (Lieu…) 55pts" or rows[lieutenant] == f"{name} 55pts"
        assert rows[captain] == "Captain 80pts", rows  # (not edited: relabelled)
        await pilot.press("ctrl+z")
        rows = await checked(pilot, editor, terminal, "lieutenant's name undone")
        assert forms_of(rows) == {(" ", " ")}, rows
        assert rows[captain] == "Captain 80 pts", rows

        await pilot.resize_terminal(160, 48)
        rows = await checked(pilot, editor, terminal, "160x48")
        assert forms_of(rows) == {("  ", " ")}, rows
        assert rows[lieutenant] == "Lieutenant  55 pts", rows
        assert rows[dread] == "Redemptor Dreadnought · RF,HOGC,HF,TFGL  205 pts", rows
        await pilot.resize_terminal(80, 24)
        rows = await checked(pilot, editor, terminal, "80x24 again")
        assert forms_of(rows) == {(" ", " ")}, rows


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_a_40k_catalog_list_says_its_prices_in_one_form(
    make_app: Any,
    workdir: Path,
    marines: tuple[str, Library],  # noqa: F811
    size: tuple[int, int],
) -> None:
    """The roster's options (Infantry, Vehicles, ...), a page at a time to the bottom: every
    priced row says its price in one form; at 160x48 not the tersest ("Aggressor Squad 95
    pts", not "95pts": "Vanguard Veteran Squad with Jump Packs" is cut whatever the form)."""
    path, library = space_marines(workdir, marines)
    app = make_app(path, library=library)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(())
        await pilot.pause()
        await pilot.pause()
        tree = editor.catalog.catalog_tree
        forms: dict[str, tuple[str, str] | None] = {}
        for _ in range(40):  # (rows are priced as they come into view)
            for raw in pane_lines(app, tree):
                if raw.lstrip(" ")[:1] in set("│├└"):
                    label = tree_label(raw)
                    if price_form(label) is not None:
                        forms[label] = price_form(label)
            if tree.scroll_offset.y >= tree.max_scroll_y:
                break
            tree.scroll_to(y=tree.scroll_offset.y + tree.size.height - 1, animate=False)
            await pilot.pause()
            await pilot.pause()
        assert len(forms) >= 30, forms
        assert len(set(forms.values())) == 1, forms
        if size == (160, 48):
            assert set(forms.values()) != {(" ", "")}, forms
            assert any(label.startswith("Vanguard Veteran Squad with") for label in forms)
