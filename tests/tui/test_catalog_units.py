"""A catalog line too long for its pane keeps every number labelled (Pilot, headless, against
the labels the session computes: tests/tui/screen.py). A narrow pane showed Gaslands' "Armour
Plating  4 Cans, 1 Build Slots  2 chosen" as "Armour Pl… 4, 1 2": three numbers, nothing to
say which is the price in cans, the build slots or how many are chosen. The tail now gives
way in steps that keep the units ("4 Cans·1 Slots ×2", then "4C·1BS ×2"), with Gaslands and
40k BattleScribe data (../shared/bsdata, skipped where absent) and our own systems, at 80x24
and 160x48."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from bench_rosters import marines_40k
from conftest import EXAMPLES, at_sizes, run_async, sizes, wait_editor
from rich.cells import cell_len
from screen import (
    check_catalog_lines,
    expected_catalog,
    pane_lines,
    tail_texts,
    tree_label,
    unlabelled,
)

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.widgets.fitting import tail_forms

MakeApp = Callable[..., ArmyBuilderApp]
ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"

TAILS = [
    ["4 Cans, 1 Build Slots", "2 chosen"],
    ["20 / 50 Cans, 2 / 4 Build Slots"],
    ["85 kg", "6/7"],
    ["Value 30", "2, at least 3"],
    ["1,910 / 2,000 pts"],
    ["3 BP", "1 chosen"],
    ["95 pts", "0/1"],
    ["2 chosen"],
]


def test_each_shorter_form_keeps_every_number_labelled() -> None:
    """The forms of a tail, in full first, each shorter than the one before; none has a bare
    number (section: the catalog's narrow lines, docs/tui.md)."""
    said = [sep + sep.join(p) for p, sep in tail_forms(TAILS[0])]
    assert said == [
        "  4 Cans, 1 Build Slots  2 chosen",
        "  4 Cans, 1 Build Slots  ×2",
        " 4 Cans, 1 Build Slots ×2",
        " 4 Cans·1 Build Slots ×2",
        " 4 Cans·1 Slots ×2",
        " 4C·1BS ×2",
    ]
    for pieces in TAILS:
        forms = tail_forms(pieces)
        texts = ["".join(sep + p for p in form) for form, sep in forms]
        assert texts == tail_texts(pieces)  # the widget's forms are the checker's
        widths = [cell_len(t) for t in texts]
        assert widths == sorted(widths, reverse=True) and len(set(widths)) == len(widths)
        for form, _ in forms:
            assert unlabelled(form, pieces) == [], (pieces, form)
    # The checker refuses the numbers alone that the pane used to show.
    assert unlabelled(["4, 1", "2"], TAILS[0]) == ["4", "1", "2"]


def test_units_that_share_initials_stop_before_them() -> None:
    texts = ["".join(sep + p for p in f) for f, sep in tail_forms(["4 Cans, 1 Crates"])]
    assert texts[-1] == " 4 Cans·1 Crates"


def gaslands_roster(folder: Path, library: Library) -> Path:
    """A Car with two Armour Plating upgrades (4 Cans and 1 Build Slot each)."""
    s = EditSession.new(library, "gaslands", "gaslands", "Team", autosave=False)
    car = next(c for c in s.options(()) if c.entry.name == "Car")
    loc = s.add((), s.option_id((), car))
    plating = next(c for c in s.options(loc) if c.entry.name == "Armour Plating")
    s.add(loc, s.option_id(loc, plating))
    s.add(loc, s.option_id(loc, plating))
    path = s.save(folder / "team.yaml")
    s.close()
    return path


@pytest.fixture(scope="module")
def bs_library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not (BSDATA / "gaslands").is_dir() or not (BSDATA / "wh40k-10e").is_dir():
        pytest.skip(f"the Gaslands and 40k BattleScribe data are not in {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA]).scan()
    mp.undo()


def forty_k_roster(folder: Path, library: Library) -> Path:
    return marines_40k(folder, library, "space-marines-40k.yaml")[0]


async def catalog_problems(app: ArmyBuilderApp, pilot: Any, most: int) -> tuple[list[str], int]:
    """Every catalog line painted, for the roster and its first ``most`` units with options,
    against the labels the session computes; and how many lines took a shorter form."""
    editor = await wait_editor(pilot, timeout=60)
    s = editor.session
    assert s is not None
    tree = editor.catalog.catalog_tree
    ev = s.evaluate()
    units = [n.loc for n in ev.root.walk() if n.entry is not None and s.options(n.loc)]
    problems: list[str] = []
    shorter = 0
    for loc in [(), *units[:most]]:
        editor.jump_to(loc)
        await pilot.pause()
        await pilot.pause()
        width = tree.scrollable_content_region.width
        lines = pane_lines(app, tree)
        options = expected_catalog(s, editor.selected)
        problems += [f"{loc}: {p}" for p in check_catalog_lines(lines, options, width)]
        for raw in lines:
            label = tree_label(raw)
            if re.search(r"×\d|·|\d[A-Za-z]", label):
                shorter += 1
    return problems, shorter


# (CI: the Gaslands and 40k lines at 80x24, where they take their shorter forms; our systems'
# three rosters one size each, so both sizes are run; ARMYBUILDER_TUI_ALL=1: all at both.)


@pytest.mark.parametrize("size", sizes((80, 24)))
@run_async
async def test_gaslands_lines_keep_their_units(
    make_app: MakeApp, bs_library: Library, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(gaslands_roster(tmp_path, bs_library), library=bs_library)
    async with app.run_test(size=size) as pilot:
        problems, shorter = await catalog_problems(app, pilot, 3)
        assert problems == []
        editor = await wait_editor(pilot)
        editor.jump_to(("selections", 1))  # the Car
        await pilot.pause()
        await pilot.press("f4")  # the catalog, widened while it has the focus
        await pilot.pause(0.2)
        await pilot.pause()
        lines = [tree_label(x) for x in pane_lines(app, editor.catalog.catalog_tree)]
        gun = [x for x in lines if x.startswith("Mac")]
        # The whole name with the fullest form that leaves room for it (it was "Mac…  2 Cans,
        # 1 Build Slots" at 80x24; one slot now reads "1 Build Slot"), cut only where no form
        # leaves room for it whole.
        forms = tail_texts(["2 Cans, 1 Build Slot"])  # (one slot: "Slot", as it reads)
        assert gun and gun[0] in ["Machine Gun" + t for t in forms], lines
        await pilot.press("slash", *"Armour")  # (the search, as a player finds it)
        await pilot.pause(0.2)
        await pilot.pause()
        lines = [tree_label(x) for x in pane_lines(app, editor.catalog.catalog_tree)]
        plating = [x for x in lines if x.startswith("Arm")]
        assert plating, lines
        # The name whole (it read "Armour Pl… 4, 1 2"), the units and the count kept.
        tails = tail_texts(["4 Cans, 1 Build Slot", "2 chosen"])
        assert plating[0] in ["Armour Plating" + t for t in tails], plating
        assert plating[0].endswith(("2 chosen", "×2")), plating
        if size == (80, 24):
            assert shorter and plating[0] != "Armour Plating" + tails[0]


@pytest.mark.parametrize("size", sizes((80, 24)))
@run_async
async def test_40k_lines_keep_their_units(
    make_app: MakeApp, bs_library: Library, tmp_path: Path, size: tuple[int, int]
) -> None:
    app = make_app(forty_k_roster(tmp_path, bs_library), library=bs_library)
    async with app.run_test(size=size) as pilot:
        problems, _ = await catalog_problems(app, pilot, 4)
        assert problems == []


@pytest.mark.parametrize(
    ("roster", "size"),
    at_sizes(
        "starmarines/starmarines-example.yaml",  # (80x24: its "×1" asserted)
        "infantry-ops/rifle-platoon.yaml",
        "starship-troopers/mi-squad.yaml",
    ),
)
@run_async
async def test_our_systems_lines_keep_their_units(
    make_app: MakeApp, roster: str, size: tuple[int, int]
) -> None:
    app = make_app(EXAMPLES / roster)
    async with app.run_test(size=size) as pilot:
        problems, shorter = await catalog_problems(app, pilot, 4)
        assert problems == []
        if roster.startswith("starmarines") and size == (80, 24):
            assert shorter  # ("1 chosen" as "×1", at least)
