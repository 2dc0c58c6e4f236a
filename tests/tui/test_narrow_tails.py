"""At 80x24 (Pilot, headless) a line's figures show whole: a catalog line keeps its price and
count (in a shorter form a player still reads: "1 chosen" as "×1") when its name is short,
rather than losing them at the pane's edge; the painted lines are compared with the labels
the session computes (tests/tui/screen.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import EXAMPLES, run_async, wait_editor
from screen import check_catalog_lines, expected_catalog, pane_lines, tree_label

from armybuilder.session import Loc
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
                if label.endswith(" ×1"):
                    shortened += 1  # ("1 chosen" as "×1": the count kept, in short)
        assert shortened, "no line needed a shorter tail: the test shows nothing"


@run_async
async def test_at_80x24_unit_lines_with_wide_characters_keep_their_cost(
    make_app: MakeApp, workdir: Path
) -> None:
    """A roster whose names are CJK and emoji (two cells a character): the lines were cut by
    characters, not cells, so they ran past the pane's edge and lost their cost
    ("中尉ケイン中尉ケイン…  2 BP" read without its "2 BP"). Every row painted is now exactly
    the label the session's summary makes, and every unit line ends with its cost."""
    from screen import check_tree_lines, expected_tree_label, node_at, tree_form

    from armybuilder.session import unit_summary

    text = (EXAMPLES / "starmarines" / "starmarines-example.yaml").read_text(encoding="utf-8")
    path = workdir / "cjk.yaml"
    head, _, rest = text.partition("\nselections:\n")
    body = rest.replace("name: Alpha team", "name: 🚀🚀第一排🚀🚀 非常に長い小隊名 長い長い")
    body = body.replace("name: Marksman", "name: 中尉ケイン中尉ケイン中尉ケイン中尉ケイン")
    assert body != rest
    path.write_text(
        head.replace('name: "Example', 'name: "星際陸戰隊第一排の非常に長い名前です Example', 1)
        + "\nselections:\n"
        + body,
        encoding="utf-8",
    )
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None
        tree = editor.roster_tree
        tree.root.expand_all()
        await pilot.pause()
        await pilot.pause()
        ev = s.evaluate()
        width = tree.scrollable_content_region.width
        lines = pane_lines(app, tree)
        locs: list[Loc | None] = []
        for row in range(len(lines)):
            node = tree.get_node_at_line(row + tree.scroll_offset.y)
            locs.append(None if node is None else node.data)
        shown = [line.path[-1].data for line in tree._tree_lines]
        assert check_tree_lines(lines, locs, ev, width, tree.guide_depth, shown) == []
        form = tree_form(ev, shown, width, tree.guide_depth)
        wide = 0
        for raw, loc in zip(lines, locs, strict=True):
            if loc is None or not loc:
                continue
            want = expected_tree_label(ev, loc, max(8, width - len(loc) // 2 * 2 - 2), form)
            assert tree_label(raw) == want, (raw, want)
            node = node_at(ev, loc)
            if node.entry is None or node.force is not None:
                continue
            summary = unit_summary(ev, node)
            if summary.cost:
                assert tree_label(raw).endswith(summary.cost), raw
            if not tree_label(raw).isascii():
                wide += 1
        assert wide >= 2
