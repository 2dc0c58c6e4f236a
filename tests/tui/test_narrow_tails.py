"""At 80x24 (Pilot, headless) a line's figures show whole: a catalog line keeps its price and
count (in a shorter form a player still reads: "1 chosen" as "1") when its name is short,
rather than losing them at the pane's edge; the painted lines are compared with the labels
the session computes (tests/tui/screen.py)."""

from __future__ import annotations

from collections.abc import Callable

from conftest import EXAMPLES, run_async, wait_editor
from screen import check_catalog_lines, expected_catalog, pane_lines, tree_label

from armybuilder.tui.app import ArmyBuilderApp

MakeApp = Callable[..., ArmyBuilderApp]


@run_async
async def test_at_80x24_catalog_lines_keep_price_and_count_for_every_unit(
    make_app: MakeApp,
) -> None:
    """StarMarines example: with each unit selected, the (narrow) catalog lists what can be
    added to it; "Sergeant-hero  3 BP  1 chosen" lost its count ("Sergeant-hero  3 BP") and
    "Mauler  10 BP  1 chosen" read "Mauler  10 BP  1 ch". Every line is now one of the
    labels, its tail whole or in a shorter readable form."""
    app = make_app(EXAMPLES / "starmarines" / "starmarines-example.yaml")
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        tree = editor.catalog.catalog_tree
        ev = s.evaluate()
        units = [n.loc for n in ev.root.walk() if n.entry is not None and s.options(n.loc)]
        assert len(units) >= 3
        shortened = 0
        for loc in [(), *units]:
            editor.jump_to(loc)
            await pilot.pause()
            await pilot.pause()
            width = tree.scrollable_content_region.width
            lines = pane_lines(app, tree)
            options = expected_catalog(s, editor.selected)
            assert check_catalog_lines(lines, options, width) == [], loc
            for raw in lines:
                label = tree_label(raw)
                assert " ch" not in label or "chosen" in label, (loc, label)
                if label.endswith("  1") and "  " in label[:-3]:
                    shortened += 1  # ("1 chosen" as "1": the count kept, in short)
        assert shortened, "no line needed a shorter tail: the test shows nothing"
