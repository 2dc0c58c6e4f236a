"""Every row of a catalog list says its price in one form (issue 18).

At 80x24 the Gaslands catalog showed "Bike  5 Cans" beside "Monster Truck 25C": each row took
the fullest form of its price it had room for. Now the list takes one form (the one its
longest name needs beside the widest of its options' own costs, known before any row is
priced), and every row keeps it, those priced later as they scroll into view too: "Bike 5C"
beside "Monster Truck 25C". Read from the painted screen (Pilot) at 80x24 and 160x48, on
the Gaslands data (../shared/bsdata, skipped where absent): the top-level vehicles (one cost
type) and a Car's options (Cans and Build Slots).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import run_async, wait_editor
from screen import pane_lines, tree_label
from test_catalog_units import BSDATA, gaslands_roster

from armybuilder.catalog import Library
from armybuilder.session import EditSession
from armybuilder.tui.widgets.fitting import ListTails, tail_form

#: A count at the end of a row ("3 chosen", "×3", "2/3", "2, at least 3", "2, ≥3").
COUNT_END = re.compile(r"\s+(?:\d[\d,.]* chosen|×\d[\d,.]*|\d+/\d+|\d+, (?:at least |≥)\d+)$")


@pytest.fixture(scope="module")
def gaslands(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    if not (BSDATA / "gaslands").is_dir():
        pytest.skip(f"the Gaslands BattleScribe data is not in {BSDATA}")
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path_factory.mktemp("bs-cache")))
    yield Library([BSDATA / "gaslands"]).scan()
    mp.undo()


def price_form(label: str, names: list[str]) -> set[str]:
    """The form of a painted row's price, as what it says of each cost type and how it joins
    them (its tail after the name, whole or cut with "…", less a count): "Bus  30 Cans" says
    ``{"sep '  '", "c: # Can"}``, "Car 12C·1BS" ``{"sep ' '", "join ·", "c: #C", "s: #BS"}``
    (numbers as ``#``, plurals as singulars, each cost type by the first letter of its last
    word); empty for a row without a price."""
    if "…" in label:
        tail = label[label.index("…") + 1 :]
    else:
        name = max((n for n in names if label.startswith(n)), key=len, default=None)
        assert name is not None, (label, names)
        tail = label[len(name) :]
    tail = COUNT_END.sub("", tail)
    if not re.search(r"\d", tail):
        return set()
    body = tail.lstrip(" ")
    out = {f"sep {tail[: len(tail) - len(body)]!r}"}
    items = re.split(r"·|, ", body)
    if len(items) > 1:
        out.add("join " + ("·" if "·" in body else ","))
    for item in items:
        shape = re.sub(r"(?<=[a-z])s\b", "", re.sub(r"\d[\d,.]*", "#", item))
        unit = shape.replace("#", "").split()
        key = (unit[-1] if " " in shape else shape[-1]).lower()[:1] if unit else "?"
        out.add(f"{key}: {shape}")
    return out


@pytest.mark.parametrize("size", [(80, 24), (160, 48)])
@run_async
async def test_every_row_of_a_list_prices_in_one_form(
    make_app: Any, gaslands: Library, tmp_path: Path, size: tuple[int, int]
) -> None:
    path = gaslands_roster(tmp_path, gaslands)
    s = EditSession.new(gaslands, "gaslands", "gaslands", "Names", autosave=False)
    names = sorted({c.entry.name for c in s.options(())}, key=len)
    car = s.add((), s.option_id((), next(c for c in s.options(()) if c.entry.name == "Car")))
    names += sorted({c.entry.name for c in s.options(car)}, key=len)
    s.close()
    app = make_app(path, library=gaslands)
    async with app.run_test(size=size) as pilot:
        editor = await wait_editor(pilot, timeout=60)
        tree = editor.catalog.catalog_tree
        for loc, least in (((), 10), (("selections", 1), 12)):  # the vehicles, the Car's
            editor.jump_to(loc)
            await pilot.pause()
            await pilot.pause()
            forms: dict[str, set[str]] = {}  # (what each row says, by what it is about)
            rows = 0
            seen: set[str] = set()
            for _ in range(30):  # a page at a time, to the bottom (rows priced in view)
                for raw in pane_lines(app, tree):
                    if raw.lstrip(" ")[:1] not in set("│├└"):
                        continue  # (a heading)
                    label = tree_label(raw)
                    form = price_form(label, names)
                    if form and label not in seen:
                        seen.add(label)
                        for said in form:
                            forms.setdefault(said.split(" ")[0], set()).add(said)
                        rows += 1
                if tree.scroll_offset.y >= tree.max_scroll_y:
                    break
                tree.scroll_to(y=tree.scroll_offset.y + tree.size.height - 1, animate=False)
                await pilot.pause()
                await pilot.pause()
            assert rows >= least, (loc, seen)
            assert all(len(said) == 1 for said in forms.values()), (loc, forms, sorted(seen))
            tree.scroll_to(y=0, animate=False)


def test_a_list_takes_the_form_its_longest_name_needs() -> None:
    """The step (``tail_form``) of a list: the first that leaves its longest name whole
    beside its widest costs ("Monster Truck" and "  25 Cans"), else the last; a free option
    counts for its name only."""
    tails = ListTails(lambda: [("Bike", "5 Cans"), ("Monster Truck", "25 Cans"), ("Free", "")])
    assert tails.step(40) == 0
    assert tails.step(len("Monster Truck  25 Cans")) == 0
    assert tails.step(len("Monster Truck 25 Cans")) == 2  # (one space)
    assert tails.step(len("Monster Truck 25C")) == 5
    assert tails.step(5) == 5
    assert tail_form(["5 Cans"], 5) == (["5C"], " ")
    assert tail_form(["1 Can, 3 Build Slots"], 5) == (["1C·3BS"], " ")  # ("Can" as "Cans")
    assert tail_form(["1 Can, 3 Build Slots"], 4) == (["1 Can·3 Slots"], " ")
    # A unit's singular and plural are one unit: the list may still use initials.
    both = ListTails(lambda: [("A", "1 Build Slot"), ("B", "2 Build Slots")])
    assert both.step(1) == 5 and both.tiny
    crates = ListTails(lambda: [("A", "1 Cans"), ("B", "2 Crates")])  # (both "C")
    assert crates.step(1) == 5 and not crates.tiny
