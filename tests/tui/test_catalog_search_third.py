"""The catalog's search, third round (issue 18): what the first keys and Esc reuse.

* The preview under the list is drawn paragraph by paragraph, each line of its texts kept by
  what it says, the width and the style (:class:`PreviewStatic`), and the previews of the
  options are drawn ahead while the app is idle: the lines must be, segment by segment and
  style by style, those Rich draws for the whole preview, at every width, and the preview
  painted after each key the one Rich draws for the entry under the cursor.
* The list's scrollbar keeps one strip per kind of line, and the list keeps each row drawn at
  its place: ``test_catalog_search.py`` compares both with Textual's own drawing
  (``test_the_lists_scrollbar_is_drawn_as_textuals``,
  ``test_kept_lines_are_the_lines_the_tree_draws``); here, that a search typed again, and
  Esc, find their rows and bar lines kept (the same strip objects) and draw them the same.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, run_async, wait_editor, wait_for
from rich.console import Group as RichGroup
from rich.style import Style
from rich.text import Text
from screen import catalog_target, painted, pane_lines
from textual.pilot import Pilot
from textual.strip import Strip
from textual.widget import Widget

from armybuilder.catalog import Library
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.settings import Settings
from armybuilder.tui.widgets.catalog import CatalogBrowser, PreviewStatic, preview
from armybuilder.tui.widgets.stable import LiveStatic

PLATOON = EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"
TROOPER = ("selections", 0, "selections", 1, "selections", 0)
BSDATA = Path(__file__).resolve().parents[3] / "shared" / "bsdata"


async def settled(pilot: Pilot[Any], editor: EditorScreen) -> None:
    s = editor.session
    assert s is not None
    await pilot.pause()
    await wait_for(
        pilot,
        lambda: editor.shown_generation == s.generation and not editor._eval_running,
        timeout=30,
    )
    await pilot.pause()


def segments(strip: Strip) -> list[Any]:
    return [(seg.text, seg.style) for seg in strip]


def rich_lines(box: PreviewStatic, content: Any, width: int) -> list[list[Any]]:
    """The preview as Rich draws it whole (LiveStatic's drawing of any renderable)."""
    style = box._style or box.visual_style.rich_style
    return [segments(s) for s in LiveStatic._draw(box, content, width, style)]


def previews_of(catalog: CatalogBrowser) -> list[Any]:
    """Every option's preview as the browser shows it (its figures, its group's limit)."""
    index = catalog._index
    assert index is not None
    out = []
    for option_id, child in zip(catalog._ids, catalog._options, strict=True):
        group = catalog._group_limits.get(child.group.id) if child.group is not None else None
        out.append(preview(index, child, catalog._priced(option_id), group))
    return out


def check_paragraphs(box: PreviewStatic, contents: list[Any], widths: list[int]) -> int:
    """Each preview drawn paragraph by paragraph at each width (in turn, so that a line kept
    for one width and looked up at another shows) equals Rich's drawing of it whole."""
    checked = 0
    for content in contents:
        for width in widths:
            box._content, box._drawn = content, None
            ours = box._group_lines(width)
            assert ours is not None, "a preview is a group of texts"
            want = rich_lines(box, content, width)
            got = [segments(s) for s in ours]
            assert got == want, (width, [s.text for s in ours][:6])
            checked += 1
    return checked


def awkward_previews() -> list[Any]:
    """Texts with what wrapping and splitting may treat apart: blank lines, a trailing
    newline, long words, wide characters, tabs, spans across lines, justification."""
    spans = Text('Range 24" · A 2 · BS 3+\nS 4 · AP -1', "bold")
    spans.stylize("cyan", 5, 30)
    return [
        RichGroup(Text("a\n\nb\n", "dim"), Text("")),
        RichGroup(Text("Supercalifragilisticexpialidocious" * 3), Text("x " * 40, "italic")),
        RichGroup(Text("重装甲 ユニット 重装甲 ユニット 重装甲 ユニット 重装甲"), spans),
        RichGroup(
            Text("tab\there\tand\tthere", justify="right"), Text("centred", justify="center")
        ),
    ]


@run_async
async def test_the_preview_drawn_by_paragraph_is_the_preview_rich_draws(
    make_app: Any, tmp_path: Path
) -> None:
    """Every option of a rifle trooper (44, profiles included) and some awkward texts, at
    three widths in turn: the lines kept by paragraph are the lines Rich draws whole."""
    path = tmp_path / PLATOON.name
    path.write_bytes(PLATOON.read_bytes())
    app = make_app(path)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(TROOPER)
        await settled(pilot, editor)
        catalog = editor.catalog
        box = catalog.query_one("#catalog-preview", PreviewStatic)
        shown, drawn = box._content, box._drawn
        contents = previews_of(catalog) + awkward_previews()
        assert len(contents) > 40
        width = box.size.width
        assert width > 20
        n = check_paragraphs(box, contents, [width, 17, width, 31])
        assert n == 4 * len(contents)
        box._content, box._drawn = shown, drawn


async def check_painted_preview(app: ArmyBuilderApp, catalog: CatalogBrowser, key: str) -> None:
    """The preview painted is the one Rich draws for the entry under the cursor."""
    box = catalog.query_one("#catalog-preview", PreviewStatic)
    entry_id = catalog.highlighted()
    child = catalog.option(entry_id) if entry_id else None
    if child is None:
        assert box.plain == "", (key, box.plain[:40])
        return
    index = catalog._index
    assert index is not None
    group = catalog._group_limits.get(child.group.id) if child.group is not None else None
    content = preview(index, child, catalog._priced(entry_id), group)  # type: ignore[arg-type]
    width = box.size.width
    want = rich_lines(box, content, width)
    got = [segments(box.render_line(y)) for y in range(len(want))]
    assert got == want, (key, [s.text for s in box._lines(width)][:4])
    # What the terminal shows of it: the rows of its box in view (a long datasheet scrolls).
    scroll = box.parent
    assert isinstance(scroll, Widget)
    top, room = int(scroll.scroll_offset.y), scroll.scrollable_content_region.height
    rows = pane_lines(app, scroll, painted(app))[:room]
    texts = ["".join(text for text, _ in line).rstrip() for line in want][top : top + room]
    shown = [row.strip() for row in rows[: len(texts)]]
    assert shown == [t.strip() for t in texts], (key, shown[:4], texts[:4])


async def search_with_previews_ahead(app: ArmyBuilderApp, editor: EditorScreen) -> None:
    """The previews drawn ahead while idle; then keys of a search, Backspace, Esc and the
    cursor in the list: each preview painted is Rich's, and none is drawn at the key."""
    catalog = editor.catalog
    pilot = app._pilot  # type: ignore[attr-defined]
    catalog.search.focus()
    await settled(pilot, editor)
    await wait_for(pilot, lambda: catalog.unpriced == 0, timeout=60)
    box = catalog.query_one("#catalog-preview", PreviewStatic)
    assert catalog._previews_next == len(catalog._ids), "every preview drawn ahead"
    drawn: list[str] = []
    original = PreviewStatic._draw

    def counted(self: PreviewStatic, renderable: Any, width: int, style: Any) -> list[Strip]:
        drawn.append(renderable.plain if isinstance(renderable, Text) else repr(renderable))
        return original(self, renderable, width, style)

    s = editor.session
    assert s is not None
    names = [c.entry.name for c in s.options(catalog_target(s, editor.selected))]
    word = max(names[len(names) // 2].lower().split(), key=len)[:5]
    keys = [*word, "backspace", "backspace", "escape", *word[:2], "down", "down", "down"]
    PreviewStatic._draw = counted  # type: ignore[method-assign]
    try:
        for key in keys:
            await pilot.press(key)
            await settled(pilot, editor)
            await check_painted_preview(app, catalog, key)
    finally:
        PreviewStatic._draw = original  # type: ignore[method-assign]
    assert not drawn, f"previews drawn at a key after all were drawn ahead: {drawn[:3]}"
    assert box._kept, "the preview's paragraphs are kept"


@run_async
async def test_previews_drawn_ahead_are_painted_as_rich_draws_them(
    make_app: Any, tmp_path: Path
) -> None:
    path = tmp_path / PLATOON.name
    path.write_bytes(PLATOON.read_bytes())
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        app._pilot = pilot  # type: ignore[attr-defined]
        editor = await wait_editor(pilot)
        editor.jump_to(TROOPER)
        await settled(pilot, editor)
        await search_with_previews_ahead(app, editor)


@pytest.mark.skipif(not BSDATA.is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}")
@run_async
async def test_the_40k_previews_drawn_ahead_are_painted_as_rich_draws_them(
    tmp_path: Path,
) -> None:
    """The top of a Space Marines roster (88 entries, datasheets with long profiles)."""
    from armybuilder.interop.battlescribe.rosfile import new_session, session_yaml

    library = Library([BSDATA]).scan()
    system = library.system("wh40k-10e")
    sm = "imperium-adeptus-astartes-space-marines"
    path = tmp_path / "sm.yaml"
    path.write_text(session_yaml(new_session(system, sm), system, sm), encoding="utf-8")
    app = ArmyBuilderApp(
        path, cwd=tmp_path, settings=Settings(), catalog_poll_seconds=None, library=library
    )
    async with app.run_test(size=(160, 48)) as pilot:
        app._pilot = pilot  # type: ignore[attr-defined]
        editor = await wait_editor(pilot, timeout=30)
        editor.jump_to(())
        await settled(pilot, editor)
        catalog = editor.catalog
        box = catalog.query_one("#catalog-preview", PreviewStatic)
        # Every preview of the top, by paragraph and whole, at two widths.
        shown, drawn = box._content, box._drawn
        check_paragraphs(box, previews_of(catalog), [box.size.width, 23])
        box._content, box._drawn = shown, drawn
        # (what that drew is dropped, and the previews drawn ahead again while idle)
        box._kept.clear()
        box.kept_epoch += 1  # (as the box does when it drops them: drawn before, again now)
        catalog._ahead = catalog._previews_for = None
        catalog._price_later()
        await search_with_previews_ahead(app, editor)


@run_async
async def test_a_search_typed_again_and_esc_find_their_rows_and_bar_kept(
    make_app: Any, tmp_path: Path
) -> None:
    """A search typed, cleared and typed again paints, row for row, the same strip objects as
    the first time (the rows kept at their places, the scrollbar's lines kept by kind), and
    each is the row Textual's tree draws afresh there (line number and node included)."""
    from textual.widgets import Tree

    path = tmp_path / PLATOON.name
    path.write_bytes(PLATOON.read_bytes())
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(TROOPER)
        await settled(pilot, editor)
        catalog = editor.catalog
        catalog.search.focus()
        await settled(pilot, editor)
        tree = catalog.catalog_tree
        bar = tree.vertical_scrollbar

        def rows() -> list[Strip]:
            return [tree.render_line(y) for y in range(tree.size.height)]

        def bar_lines() -> list[Strip]:
            return [bar.render_line(y) for y in range(bar.size.height)]

        seen: dict[tuple[Any, ...], tuple[list[Strip], list[Strip]]] = {}
        again = []
        for rounds in range(2):
            for key in [*"ri", "escape"]:
                await pilot.press(key)
                await settled(pilot, editor)
                now = (rows(), bar_lines())
                scroll_x, scroll_y = (int(v) for v in tree.scroll_offset)
                for y, kept in enumerate(now[0]):
                    tree._line_cache.clear()
                    fresh = Tree._render_line(
                        tree, y + scroll_y, scroll_x, scroll_x + tree.size.width, tree.rich_style
                    )
                    assert segments(kept) == segments(fresh), (rounds, key, y, kept.text)
                state = (catalog.search.value, scroll_y, tree.cursor_line, catalog.highlighted())
                before = seen.setdefault(state, now)
                if rounds == 1 and before is not now:
                    again.append(key)
                    assert [id(s) for s in now[0]] == [id(s) for s in before[0]], (key, "rows")
                    assert [id(s) for s in now[1]] == [id(s) for s in before[1]], (key, "bar")
        assert "escape" in again and len(again) >= 2, again
        assert len({id(s) for s in bar_lines()}) <= 4, "a strip per kind of bar line"


@run_async
async def test_the_title_drawn_straight_is_the_title_rich_draws(
    make_app: Any, tmp_path: Path
) -> None:
    """The pane's title, drawn from its spans when it fits on its line: for titles of every
    kind (a filter or none, accents, wide characters, quotes, a style of its own, spans
    nested), at widths where they fit, just fit and do not, the lines are, segment by
    segment and style by style, those Rich draws; and the title painted after keys of a
    search is the title the browser says."""
    from armybuilder.tui.widgets.catalog import TitleStatic

    path = tmp_path / PLATOON.name
    path.write_bytes(PLATOON.read_bytes())
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        editor.jump_to(TROOPER)
        await settled(pilot, editor)
        title = editor.catalog.query_one("#catalog-title", TitleStatic)
        style = title.visual_style.rich_style
        names = ["Rifleman", "Éldar Wraithguard", "重装甲 ユニット", 'Say "hi" \\ there', "a"]
        texts = []
        for name in names:
            for query in ["", "i", "int", "Éü ñ", "重"]:
                text = Text(f"Add to: {name}")
                if query:
                    text.append(f" · filter '{query}'", "yellow")
                texts.append(text)
        own = Text("Add to: ", "italic magenta")
        own.append("Squad", "italic cyan")
        own.stylize("underline", 2, 12)
        texts += [own, Text("trailing space "), Text("tab\there")]
        texts.append(Text("centred", justify="center"))
        checked = 0
        plain_style = Style(color="white", bgcolor="black")
        for text in texts:
            for width in (5, 12, cell_len_of(text), cell_len_of(text) + 1, 40, 80):
                for base in (style, plain_style):
                    want = [segments(s) for s in LiveStatic._draw(title, text, width, base)]
                    got = [segments(s) for s in title._draw(text, width, base)]
                    assert got == want, (text.plain, width, base)
                    checked += 1
        assert checked == 12 * len(texts)
        editor.catalog.search.focus()
        for key in [*"rif", "backspace", "escape", "x"]:
            await pilot.press(key)
            await settled(pilot, editor)
            rows = pane_lines(app, title, painted(app))
            assert rows[0].rstrip() == editor.catalog.title_text[: title.size.width].rstrip()


def cell_len_of(text: Text) -> int:
    return text.cell_len
