"""Sorting a 40k roster in the catalog's order (key ``o``), read from the screen.

BattleScribe data records a unit by the id of the link it comes through, and the sort looked
units up by their entry's id: on the Space Marines roster of ``benchmarks/bench_bsdata.py``
it found none, and ``o`` said "Already in the catalog's order" whatever the order. It also
ranked a unit of an entry the data hides (a Legends one while Legends are off) after every
other. Now the roster reads in the order the catalog lists its units (Configuration,
Infantry, Character, Battleline...), and a hidden unit sorts among its own category where
the catalogue puts it."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import run_async, wait_editor, wait_for
from screen import painted, pane_lines, tree_label

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]
ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
TREE_MARKS = "├└"


@pytest.fixture(scope="module")
def bs_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"the 40k BattleScribe data are not in {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA]).scan()
    mp.undo()


def name_of(label: str) -> str:
    """A line's name, without its issue mark, cost, count or kit ("✖ Captain  80 pts" ->
    "Captain"; a catalog row in its list's shorter forms, "Captain 80 pts ×1", "Captain
    80pts ×1" -> "Captain")."""
    name = label.lstrip("✖⚠ ").split("  ")[0].split(" · ")[0].strip()
    return re.sub(r"( \d[\d,]* ?pts)?( ×\d+)?$", "", name)


@run_async
async def test_o_puts_a_40k_roster_in_the_catalogs_order(
    make_app: MakeApp, bs_library: Library, tmp_path: Path
) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from bench_bsdata import SM, roster_text
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    system = bs_library.system("wh40k-10e")
    text = roster_text(system)  # type: ignore[arg-type]
    index = system.index(SM)
    # A Legends character, hidden while the roster's Legends option is off, first.
    legends = next(
        c
        for c in index.children(None)
        if c.entry.name == "Captain on Bike [Legends]" and c.group is None
    )
    character = legends.entry.primary_category
    head, _, rest = text.partition("\nselections:\n")
    recorded = index.recorded_id(None, legends)
    text = f"{head}\nselections:\n  - entry: {recorded}\n{rest}"
    path = tmp_path / "space-marines-40k.yaml"
    path.write_text(text, encoding="utf-8")
    app = make_app(path, library=bs_library)
    async with app.run_test(size=(160, 140)) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        s = editor.session
        assert s is not None
        await pilot.pause()
        # The catalog at the roster's top: the options in the order it lists them.
        listed = [
            name_of(tree_label(row))
            for row in pane_lines(app, editor.catalog.catalog_tree)
            if row.lstrip()[:1] in TREE_MARKS
        ]
        assert "Captain" in listed and "Intercessor Squad" in listed, listed
        assert legends.entry.name not in listed  # (hidden: not offered)
        editor.roster_tree.focus()
        await pilot.pause()
        ev = s.evaluate()
        before = [ev.name(n) for n in ev.root.children]
        await pilot.press("o")
        await wait_for(pilot, lambda: s.undo_label == "Sort the roster by catalog order", 30)
        await pilot.pause(0.3)
        await pilot.pause()
        rows = painted(app)
        shown = [
            name_of(tree_label(row))
            for row in pane_lines(app, editor.roster_tree, rows)
            if row.strip()
        ][1:]  # (less the roster's own line)
        assert sorted(shown) == sorted(before), (shown, before)
        assert shown != before, shown
        # Every unit the catalog offers: in the catalog's order.
        offered = [n for n in shown if n in listed]
        assert offered == sorted(offered, key=listed.index), (offered, listed)
        # The hidden one: among the characters, where the catalogue puts it.
        chars = [
            c.entry.name
            for c in index.children(None)
            if c.group is None and c.entry.primary_category == character
        ]
        ev = s.evaluate()
        kinds = [ev.primary_category(n) for n in ev.root.children]
        at = shown.index(legends.entry.name)
        first = kinds.index(character)
        last = len(kinds) - 1 - kinds[::-1].index(character)
        assert first <= at <= last, (shown, kinds)
        mine = [n for n in shown if n in chars]
        assert mine == sorted(mine, key=chars.index), (mine, chars)
