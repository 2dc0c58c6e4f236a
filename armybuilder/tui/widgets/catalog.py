"""The catalog browser: what can be added to the selected unit, searchable, with a preview.

Entries are grouped by their choice group or category. A group's line says how many it
allows and how many are chosen (``Ranged weapon (0-1) 1/1``, ``Sergeant (exactly 1) 1/1``);
each entry line shows its cost as the engine computes it there (with its default choices,
modifiers applied) and how many are selected against their limit (``Trooper 85 kg 6/7``). The
editor hands these numbers over from the session (:meth:`EditSession.option_infos`); nothing
here computes them. Only the rows on screen (and a margin around them) are priced: when they
come into view, before the frame that shows them is drawn (:meth:`CatalogBrowser.price_view`);
a row off screen keeps the label it last had until a scroll or the search brings it into
view. The preview under the tree shows the highlighted entry's stat lines, costs and limits
before it is added. Typing in the search box filters as you type; Enter there adds the
highlighted (or first) match. A search that matches nothing here says so.
"""

from __future__ import annotations

import gc
import re
import time
import unicodedata
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from itertools import pairwise
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len
from rich.color import Color as RichColor
from rich.console import Group as RichGroup
from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual._styles_cache import StylesCache
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.color import Color as TextualColor
from textual.containers import Vertical
from textual.css.styles import StylesBase
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, Tree
from textual.widgets.tree import TreeNode

from ...session import Limit, Loc, OptionInfo, costs_text, limit_text
from ...session.text import amount_text, format_number
from .fitting import ListTails, append_marked, row_forms, tail_forms
from .stable import (
    ContentLines,
    LiveStatic,
    ScrollBox,
    StableScroll,
    SteadyInput,
    find,
    refresh_rows,
    remeta,
)

if TYPE_CHECKING:
    from ...catalog import CatalogIndex, Child
    from ...model.catalog import Entry
    from ...rules.engine import Evaluation, Node


def fold(text: str) -> str:
    """``text`` as the search compares it: case folded and without accents (``Éldar`` and
    ``ELDAR`` -> ``eldar``, ``Über`` -> ``uber``, ``Straße`` -> ``strasse``): compatibility
    decomposition (NFKD), combining marks dropped."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))


def entry_cost(index: CatalogIndex, entry: Entry) -> str:
    """An entry's own base cost, e.g. ``85 kg`` (modifiers are applied once it is added)."""
    parts = []
    for ct in index.cost_types.values():
        if ct.hidden or ct.id not in entry.costs:
            continue
        value = entry.costs[ct.id]
        if value:
            parts.append(amount_text(ct, format_number(value)))
    return ", ".join(parts)


#: An entry's stat tables as a preview shows them, line by line (:func:`preview`), kept per
#: entry (by ``id()``, with the entry and its index: the same objects, or drawn again).
TablesKept = dict[int, tuple["Entry", "CatalogIndex", list[Text]]]


def preview(
    index: CatalogIndex,
    child: Child,
    info: OptionInfo | None = None,
    group: Limit | None = None,
    tables: TablesKept | None = None,
) -> RenderableType:
    """The preview of one catalog option (``info``: its cost and limit where it would go).

    ``tables``: where the entry's stat tables are kept, already split into their lines (as
    :class:`PreviewStatic` draws them, paragraph by paragraph), so that a preview shown again
    with another price or count does not build them again nor split them."""
    entry = child.entry
    parts: list[RenderableType] = []
    title = Text(entry.name, "bold")
    title.append(f"  {entry.type}", "dim")
    cost = costs_text(index, info.costs) if info is not None else entry_cost(index, entry)
    if cost:
        title.append(f"  {cost}", "cyan")
    parts.append(title)
    if entry.description:
        parts.append(append_marked(Text(), entry.description, "italic"))
    if info is not None and info.limit.bounded:
        # The range only: the count is on the entry's line (the preview is not drawn again
        # at every addition).
        parts.append(Text(f"Allowed here: {info.limit.range_text}", "dim"))
    if child.group is not None:
        g = child.group
        lim_text = group.range_text if group is not None else limit_text(g.min, g.max)
        line = f"Choice of {g.name}: {lim_text}"
        if group is not None and group.maximum == 1:
            line += " (choosing it replaces the current choice)"
        parts.append(Text(line, "dim"))
    cats = [index.name_of(c) for c in entry.categories]
    if cats:
        parts.append(Text("Categories: " + ", ".join(cats), "dim"))
    if tables is None:
        parts.extend(profile_tables(index, catalog_stat_lines([entry])))
    else:
        kept = tables.get(id(entry))
        if kept is None or kept[0] is not entry or kept[1] is not index:
            if len(tables) > PreviewStatic.KEPT:
                tables.clear()
            lines = [
                line
                for table in profile_tables(index, catalog_stat_lines([entry]))
                for line in (
                    table.split("\n", allow_blank=True) if "\n" in table.plain else [table]
                )
            ]
            kept = tables[id(entry)] = (entry, index, lines)
        parts.extend(kept[2])
    if entry.rules:
        names = [index.rules[r].name if r in index.rules else r for r in entry.rules]
        parts.append(Text("Rules: " + ", ".join(names), "dim"))
    if entry.source:
        parts.append(Text(entry.source, "dim italic"))
    return RichGroup(*parts)


#: One stat line to show: its profile type, its name, its characteristics and how many.
StatLine = tuple[str, str, Mapping[str, object], int]


def catalog_stat_lines(entries: Sequence[Entry]) -> list[StatLine]:
    """The stat lines of catalog entries as the catalog gives them, without those the
    catalog hides (no selection yet: no modifier applies)."""
    return [
        (p.type, p.name or entry.name, p.characteristics, 1)
        for entry in entries
        for p in entry.profiles
        if not p.hidden
    ]


def selection_stat_lines(ev: Evaluation, nodes: Sequence[Node]) -> list[StatLine]:
    """The stat lines of selections as the roster has them: the profiles shown to a player
    (:meth:`Evaluation.visible_profiles`), each characteristic after its modifiers (what
    the printed card says), times the selection's count."""
    out: list[StatLine] = []
    for node in nodes:
        if node.entry is None:
            continue
        for p in ev.visible_profiles(node):
            chars = {k: ev.profile_value(node, p, k) for k in p.characteristics}
            out.append((p.type, p.name or node.entry.name, chars, node.count))
    return out


#: A stat line's text under its table's heading: neither bold nor underlined as the heading.
_PLAIN = "not bold not underline"


def profile_tables(index: CatalogIndex, lines: Sequence[StatLine]) -> list[Text]:
    """Stat lines grouped by profile type: ``Name: DV 0.5 · Range 0/1 · …``.

    A line per profile wraps in a narrow pane, where a table of nine columns would not fit.
    """
    by_type: dict[str, list[tuple[str, Mapping[str, object], int]]] = {}
    for ptype_id, name, chars, n in lines:
        by_type.setdefault(ptype_id, []).append((name, chars, n))
    out: list[Text] = []
    for type_id, rows in by_type.items():
        ptype = index.profile_types.get(type_id)
        columns = (
            [(c.id, c.name) for c in ptype.characteristics]
            if ptype is not None
            else sorted({(k, k) for _, chars, _ in rows for k in chars})
        )
        # (the heading's style is the text's own, which a preview drawn ahead paragraph by
        # paragraph relies on: the lines under it undo it, so they are not all bold)
        text = Text(ptype.name if ptype else type_id, "bold underline")
        for name, chars, n in rows:
            text.append("\n")
            text.append(f"{name} ×{n}" if n != 1 else name, "bold not underline")
            text.append(": ", _PLAIN)
            first = True
            for cid, cname in columns:
                value = chars.get(cid)
                if value is None or value == "":
                    continue
                if not first:
                    text.append(" · ", "dim " + _PLAIN)
                first = False
                text.append(f"{cname} ", "dim " + _PLAIN)
                append_marked(text, str(value), _PLAIN)
        out.append(text)
    return out


class PlainLinesCache(StylesCache):
    """Textual's cache of a widget's styled lines, for a widget without border, outline,
    padding, tint, hatch or opacity: a content line is used as it is (padded to the width),
    without looking those styles up again for every line (about 0.05 ms a line, the bulk of
    drawing the list's scrollbar). Anything else, and the caching, the line filters and the
    crop, are Textual's."""

    _plain = False

    def render(self, styles: StylesBase, size: Size, *args: Any, **kwargs: Any) -> list[Strip]:
        try:
            hatch = styles.hatch if styles.has_rule("hatch") else "none"
            self._plain = (
                kwargs.get("opacity", 1.0) == 1.0
                and kwargs.get("padding") in (None, Spacing(0, 0, 0, 0))
                and not any(edge for edge, _ in styles.border)
                and not any(edge for edge, _ in styles.outline)
                and styles.padding == Spacing(0, 0, 0, 0)
                and not styles.tint.a
                and styles.text_opacity == 1.0
                and hatch == "none"
            )
        except AttributeError:  # another Textual version
            self._plain = False
        try:
            return super().render(styles, size, *args, **kwargs)
        finally:
            self._plain = False

    def render_line(
        self,
        styles: StylesBase,
        y: int,
        size: Size,
        content_size: Size,
        padding: Spacing,
        base_background: TextualColor,
        background: TextualColor,
        render_content_line: Callable[[int], Strip],
        border_title: Any,
        border_subtitle: Any,
        opacity: float,
        ansi_theme: Any,
        native_ansi: bool,
    ) -> Strip:
        if not self._plain or border_title is not None or border_subtitle is not None:
            return super().render_line(
                styles,
                y,
                size,
                content_size,
                padding,
                base_background,
                background,
                render_content_line,
                border_title,
                border_subtitle,
                opacity,
                ansi_theme,
                native_ansi,
            )
        inner = self.get_inner_outer(base_background, background)[0].rich_style
        content_width, content_height = content_size
        if y < content_height:
            line = render_content_line(y).adjust_cell_length(content_width, inner)
        else:
            line = Strip.blank(content_width, inner)
        return line if line.cell_length == size.width else Strip(line, size.width)


class QuickScrollBar(ScrollBar):
    """A vertical scrollbar drawn straight from its thumb's segments: what Textual's draws
    (the same strips: ``tests/tui/test_catalog_search.py`` compares them), without
    passing them through Rich's console, nor looking its styles up for every line (3 ms a
    drawing on this machine, at every key of a search that changes the thumb)."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1):
        super().__init__(vertical, name, thickness=thickness)
        self._styles_cache = PlainLinesCache()

    def _render_content(self) -> None:
        width, height = self.size
        bar = self.render()
        if (
            type(bar) is not ScrollBarRender
            or not self.vertical
            or width <= 0
            or height <= 0
            or not isinstance(bar.style, Style)
            or self.text_selection is not None
            or self.styles.content_align != ("left", "top")
        ):
            super()._render_content()  # (anything else: Textual's own drawing)
            return
        base = self.visual_style.rich_style
        segments = ScrollBarRender.render_bar(
            size=height,
            virtual_size=bar.virtual_size,
            window_size=bar.window_size,
            position=bar.position,
            thickness=width,
            vertical=True,
            back_color=bar.style.bgcolor or RichColor.parse("#555555"),
            bar_color=bar.style.color or RichColor.parse("bright_magenta"),
        ).segments
        # A bar has a few kinds of line (track, thumb, the thumb's ends): each is one strip,
        # kept, so that a line drawn again is the same object, and what Textual keeps on a
        # strip (its line filters' output, its division by the compositor) is found on it.
        kept: dict[tuple[str, Style | None], Strip] = self.__dict__.setdefault("_kept_strips", {})
        strips = []
        for text, style, _ in segments[:height]:
            if base:
                style = base + style
            piece = text[:width]
            strip = kept.get((piece, style))
            if strip is None:
                if len(kept) > 64:
                    kept.clear()
                strip = kept[piece, style] = Strip([Segment(piece, style)])
            strips.append(strip)
        try:
            from textual.widget import _RenderCache

            self._render_cache = _RenderCache(self.size, strips)
            self._dirty_regions.clear()
        except (ImportError, AttributeError):  # another Textual version
            super()._render_content()


class CatalogTree(StableScroll, ContentLines, Tree[str | None]):
    """Sections and entries; a click highlights, a double click (or Enter) adds.

    Up and Down move from entry to entry over the section headings (a heading is reached
    with the mouse, Shift+Left, or Up from its first entry at the top), and the focus
    arriving on a heading moves the cursor to the first entry under it: what is added is an
    entry, so the keys go where the entries are."""

    #: While the browser hangs its nodes: it repaints the rows that changed at the end.
    _syncing = False

    #: Called with the tree's lines that are about to show (first, end: a scroll, a frame
    #: drawn): the browser labels (prices) those not labelled with its current figures,
    #: and says which lines it changed.
    on_view: Callable[[int, int], list[int]] | None = None

    #: Called when the list's size changed (the browser draws its labels ahead again, at
    #: the new width).
    on_resized: Callable[[], None] | None = None

    #: The one form of the costs of the list's rows (set with the options, see
    #: :class:`.fitting.ListTails`); none: each row takes the fullest form it has room for.
    tails: ListTails | None = None

    #: Lines found labelled with old figures while a frame was being drawn, outside the part
    #: being drawn (repainted at once; a test reads it: every path that brings a row into
    #: view prices it before).
    late_lines = 0

    #: What every line of one drawing (or one comparison of the rows) shares: the widget's
    #: style and the widths and states :meth:`line_key` reads, looked up once per pass
    #: rather than once per line (each look-up walks the widget's ancestors).
    _pass: tuple[Style, tuple[int, int, int, Any, bool, bool, int, int, int]] | None = None

    def _pass_state(self) -> tuple[Style, tuple[int, int, int, Any, bool, bool, int, int, int]]:
        found = self._pass
        if found is None:
            found = (
                self.rich_style,
                (
                    self.size.width,
                    self.scrollable_content_region.width,
                    self.virtual_size.width,
                    getattr(self, "_pseudo_class_state", None),  # (set at the first drawing)
                    self.has_focus,
                    self.show_guides,
                    self.guide_depth,
                    self.cursor_line,
                    self.hover_line,
                ),
            )
        return found

    #: During one drawing (or one comparison of the rows): the widget's size, regions and
    #: component styles as looked up once (Tree's drawing looks them up for every line,
    #: each look-up walking the screen's map or the widget's ancestors; ``None``: no pass).
    _memo: dict[object, Any] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._styles_cache = PlainLinesCache()

    @property
    def size(self) -> Size:
        memo = self._memo
        if memo is None:
            return Widget.size.fget(self)  # type: ignore[attr-defined,no-any-return]
        found = memo.get("size")
        if found is None:
            found = memo["size"] = Widget.size.fget(self)  # type: ignore[attr-defined]
        return found  # type: ignore[no-any-return]

    @property
    def scrollable_content_region(self) -> Region:
        memo = self._memo
        get = Widget.scrollable_content_region.fget  # type: ignore[attr-defined]
        if memo is None:
            return get(self)  # type: ignore[no-any-return]
        found = memo.get("scrollable")
        if found is None:
            found = memo["scrollable"] = get(self)
        return found  # type: ignore[no-any-return]

    def get_component_styles(self, *names: str) -> Any:
        memo = self._memo
        if memo is None:
            return super().get_component_styles(*names)
        key = ("styles", names)
        found = memo.get(key)
        if found is None:
            found = memo[key] = super().get_component_styles(*names)
        return found

    def get_component_rich_style(
        self, *names: str, partial: bool = False, default: Style | None = None
    ) -> Style:
        memo = self._memo
        if memo is None or default is not None:
            return super().get_component_rich_style(*names, partial=partial, default=default)
        key = ("rich", names, partial)
        found = memo.get(key)
        if found is None:
            found = memo[key] = super().get_component_rich_style(*names, partial=partial)
        return found

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        # Textual's property, with a scrollbar drawn straight from its segments.
        bar = self._vertical_scrollbar
        if bar is None:
            bar = self._vertical_scrollbar = QuickScrollBar(
                vertical=True, name="vertical", thickness=self.scrollbar_size_vertical
            )
            bar.display = False
            self.app._start_widget(self, bar)
        return bar

    def render_lines(self, crop: Region) -> list[Strip]:
        # The rows about to be drawn are labelled with the browser's figures first (they
        # were when they came into view; this is the guarantee that no row is drawn with
        # an old price or none, whatever brought it into view).
        hook = self.on_view
        if hook is not None and self.size.height > 0:
            top = self.scroll_offset.y
            changed = hook(top, top + self.size.height)
            for line in changed:
                y = line - top
                if 0 <= y < self.size.height and not crop.y <= y < crop.bottom:
                    self.late_lines += 1
                    self.repaint_lines((line,))
        self._pseudo_class_state = self.get_pseudo_class_state()
        self._pass = None
        self._memo = None
        self._pass = self._pass_state()
        self._memo = {}
        try:
            return super().render_lines(crop)
        finally:
            self._pass = None
            self._memo = None

    def _build(self) -> None:
        # Tree's lines, built for the catalog's two levels (sections and their entries)
        # without measuring labels (none is: the lines are as wide as the pane) nor a call
        # per node: the whole list is built again at each key of the search.
        try:
            from textual.widgets._tree import _TreeLine
        except ImportError:  # another Textual version
            super()._build()
            return
        if self.show_root:
            super()._build()
            return
        lines: list[_TreeLine[str | None]] = []
        add = lines.append
        for section in self.root._children:
            section._line = len(lines)
            add(_TreeLine([section], True))
            if not section._expanded:
                continue
            kids = section._children
            end = len(kids) - 1
            for i, child in enumerate(kids):
                if child._expanded and child._children:  # (deeper: Tree's own)
                    super()._build()
                    return
                child._line = len(lines)
                add(_TreeLine([section, child], i == end))
        self._tree_lines_cached = lines
        if lines:
            width = self.guide_depth if any(len(line.path) > 1 for line in lines) else 0
        else:
            width = self.size.width
        self.virtual_size = Size(width, len(lines))
        if self.cursor_line != -1:
            if self.cursor_node is not None:
                self.cursor_line = self.cursor_node._line
            if self.cursor_line >= len(lines):
                self.cursor_line = -1

    def on_resize(self, event: events.Resize) -> None:
        hook = self.on_resized
        if hook is not None:
            hook()

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        # The rows scrolled into view are priced now, before the frame that shows them.
        hook = self.on_view
        if hook is not None and round(old_value) != round(new_value) and self.size.height > 0:
            top = self.scroll_offset.y
            hook(top, top + self.size.height)

    def draw_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        """Line ``y`` drawn afresh: the strip Tree draws (``Tree._render_line``, same segments,
        same styles), built straight from the label's spans rather than through Rich's text
        objects and console (a fifth of the cost: the rows a search brings in are drawn
        for the first time at its first keys). Anything but the catalog's two levels is
        Tree's own drawing."""
        lines = self._tree_lines
        if y >= len(lines) or self.show_root or len(lines[y].path) > 2:
            return super().draw_line(y, x1, x2, base_style)
        line = lines[y]
        path = line.path
        node = path[-1]
        hover_line, cursor_line = self.hover_line, self.cursor_line
        if hover_line >= 0 and any(n._hover for n in path):
            base = self.get_component_rich_style("tree--highlight-line")
        else:
            base = base_style
        line_style = base + Style(meta={"line": y})
        segments: list[Segment] = []
        guide = ""
        if len(path) == 2:
            guide, guide_style = self._guide(path[0]._hover, path[0]._selected, line.last)
            segments.append(Segment(guide, line_style + guide_style if guide_style else line_style))
        label_style = self._label_style(hover_line == y, cursor_line == y)
        part = self._label_part(node, len(path) - 1, base, label_style)
        if part is None:
            return super().draw_line(y, x1, x2, base_style)
        plain, chunks = part
        # Each piece in the styles Rich stacks over it: the line's (with the line number a
        # click reads), the label's own (kept), the node's (the node a click reaches).
        line_meta = line_style.meta
        node_id = node._id
        for text, attrs, meta in chunks:
            merged = (
                {**line_meta, **meta, "node": node_id} if meta else {**line_meta, "node": node_id}
            )
            segments.append(Segment(text, (base + attrs) + Style.from_meta(merged)))
        pad = max(self.virtual_size.width, self.size.width) - cell_len(guide + plain)
        if pad:
            segments.append(Segment(" " * pad, line_style) if pad > 0 else Segment("", line_style))
        return Strip(segments).crop(x1, x2)

    def _guide(self, hover: bool, selected: bool, last: bool) -> tuple[str, Style]:
        """The guide before an entry and its style (as Tree draws it), given its section's
        hover and selection and whether it is the last of its section (looked up once a
        drawing)."""
        memo = self._memo
        key = ("guide", hover, selected, last)
        if memo is not None:
            found = memo.get(key)
            if found is not None:
                return found  # type: ignore[no-any-return]
        look = self.get_component_rich_style
        styles = self.get_component_styles
        guide_style = look("tree--guides", partial=True)
        hidden = styles("tree--guides").color.a == 0
        if hover:
            guide_style = guide_style + look("tree--guides-hover", partial=True)
            hidden = styles("tree--guides-hover").color.a == 0
        if selected and self.has_focus:
            guide_style = look("tree--guides", partial=True) + look(
                "tree--guides-selected", partial=True
            )
            hidden = styles("tree--guides-selected").color.a == 0
        if self.show_guides and not hidden:
            chars = self.LINES["default"]
            if guide_style.bold:
                chars = self.LINES["bold"]
            elif guide_style.underline2:
                chars = self.LINES["double"]
        else:
            chars = ("  ", "  ", "  ", "  ")
        pick = chars[2] if last else chars[3]
        found = (f"{pick[0]}{pick[1] * max(0, self.guide_depth - 2)} ", guide_style)
        if memo is not None:
            memo[key] = found
        return found

    def _label_style(self, hovered: bool, cursor: bool) -> Style:
        """The style Tree gives a label: hovered, under the cursor (looked up once a drawing)."""
        memo = self._memo
        key = ("label", hovered, cursor)
        if memo is not None:
            found = memo.get(key)
            if found is not None:
                return found  # type: ignore[no-any-return]
        look = self.get_component_rich_style
        style = look("tree--label", partial=True)
        if hovered:
            style += look("tree--highlight", partial=True)
        if cursor:
            style += look("tree--cursor", partial=False)
        if memo is not None:
            memo[key] = style
        return style

    #: A label's pieces as drawn (text, style without meta, meta), by everything its
    #: drawing reads (:meth:`_label_part`).
    _parts: dict[tuple[Any, ...], tuple[str, list[tuple[str, Style, dict[str, Any]]]]]

    def _label_part(
        self, node: TreeNode[str | None], depth: int, base: Style, label_style: Style
    ) -> tuple[str, list[tuple[str, Style, dict[str, Any]]]] | None:
        """A row's label as :meth:`render_label` draws it, in pieces: its text, and each
        piece's text, style (the styles of the label's spans over it combined, meta and
        links left out) and meta; kept by value (the label's text, spans and style, the
        arrow, the depth, the styles, the width it is fitted to), so a label drawn once is
        not fitted nor split again when its row comes back (``None``: not drawn this way:
        an empty label, a link)."""
        label = node._label
        key = (
            label.plain,
            tuple(label.spans),
            label.style,
            node._allow_expand,
            node._expanded,
            depth,
            base,
            label_style,
            self.scrollable_content_region.width,
            self.guide_depth,
            self.is_mounted,
        )
        parts = self.__dict__.get("_parts")
        if parts is None:
            parts = self._parts = {}
        found = parts.get(key)
        if found is not None:
            return found
        text = self.render_label(node, base, label_style)
        plain = text.plain
        if not plain:
            return None
        spans: list[tuple[int, int, Style | str]] = (
            [(0, len(plain), text.style)] if text.style else []
        )
        spans.extend((s.start, s.end, s.style) for s in text.spans)
        chunks: list[tuple[str, Style, dict[str, Any]]] = []
        pieces = _render_spans(plain, Style.null(), spans, self.app.console) if spans else []
        for piece, style, _ in pieces or [Segment(plain, Style.null())]:
            if style is None or style._link:
                return None
            if style._meta:
                chunks.append((piece, style.clear_meta_and_links(), style.meta))
            else:
                chunks.append((piece, style, {}))
        if len(parts) > 4096:
            parts.clear()
        found = parts[key] = (plain, chunks)
        return found

    def render_line(self, y: int) -> Strip:
        # As Tree draws a line, with the style of this pass (Tree looks it up per line).
        scroll_x, scroll_y = self.scroll_offset
        style = self._pass_state()[0]
        return self._render_line(y + scroll_y, scroll_x, scroll_x + self.size.width, style)

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        # A line drawn once at a place (line number and node, which its clicks read) is
        # kept there: a row the search brings back where it was (Esc, Backspace) is the
        # same strip object, on which Textual keeps its line filters' output and the
        # compositor's division of it. What a line shows is its key (ContentLines'), so a
        # kept strip is the one the row draws: the strip drawn for its key, told the place.
        found = self.line_key(y, x1, x2, base_style)
        if found is None:
            return super()._render_line(y, x1, x2, base_style)
        key, node_id = found
        placed: dict[tuple[Any, ...], Strip] = self.__dict__.setdefault("_placed", {})
        where = (key, y, node_id)
        strip = placed.get(where)
        if strip is not None:
            return strip
        drawn: dict[tuple[Any, ...], tuple[Strip, int, int]] = self.__dict__.setdefault(
            "_drawn", {}
        )
        hit = drawn.get(key)
        if hit is not None:
            strip, at, drawn_id = hit
            if (at, drawn_id) != (y, node_id):
                strip = remeta(strip, y, node_id)
        else:
            strip = self.draw_line(y, x1, x2, base_style)
            self.lines_drawn += 1
            if len(drawn) > self.lines_kept():
                drawn.clear()
            drawn[key] = (strip, y, node_id)
        if len(placed) > 2 * self.lines_kept():
            placed.clear()
        placed[where] = strip
        return strip

    def notify_style_update(self) -> None:
        self.__dict__.pop("_placed", None)
        super().notify_style_update()

    def row_keys(self) -> list[object] | None:
        self._pass = None
        self._memo = None
        self._pass = self._pass_state() if self.is_mounted else None
        self._memo = {} if self.is_mounted else None
        try:
            return super().row_keys()
        finally:
            self._pass = None
            self._memo = None

    def view_keys(self) -> list[object] | None:
        """What each row on screen shows, to compare just before and just after a key of
        the search (:meth:`row_keys`' purpose, at a tenth of its cost): the view's place
        and the widget's state once, then per row the node and its label *objects* (a
        label is replaced, never changed in place, when its text changes; the keys hold
        them, so no object compared can be a new one at an old address), the arrow, the
        guides' flags, the cursor and the hover. ``None``: not comparable."""
        if not self.is_mounted or self.size.height <= 0:
            return None
        scroll_x, scroll_y = self.scroll_offset
        style, state = self._pass_state()
        height = self.size.height
        cursor, hover = self.cursor_line, self.hover_line
        # (the widget's style, widths, pseudo-classes, focus and guides: not the cursor and
        # hover lines, compared row by row)
        keys: list[object] = [(scroll_x, scroll_y, style, state[:7], hover >= 0)]
        lines = self._tree_lines
        for y in range(scroll_y, scroll_y + height):
            if y >= len(lines):
                keys.append(None)
                continue
            line = lines[y]
            path = line.path
            node = path[-1]
            keys.append(
                (
                    node,
                    node._label,
                    node._allow_expand,
                    node._expanded,
                    line.last,
                    tuple((n._hover, n._selected, n.is_last) for n in path),
                    y == cursor,
                    y == hover,
                )
            )
        return keys

    def line_state(self) -> tuple[int, int, int, Any, bool, bool, int, int, int]:
        # (The key of each line is :meth:`ContentLines.line_key`'s, with this state looked
        # up once per pass.)
        return self._pass_state()[1]

    def get_label_width(self, node: TreeNode[str | None]) -> int:
        # The list never scrolls sideways (a label is cut at the pane's edge), so no label
        # is measured: the lines are as wide as the pane whatever the search shows, and a
        # line drawn before is drawn the same after a key.
        return 0

    def watch_virtual_size(self, size: Size) -> None:
        if self._syncing:
            self._scroll_update(size)  # (the browser repaints the rows that changed)
            return
        super().watch_virtual_size(size)

    def render_label(self, node: TreeNode[str | None], base_style: Style, style: Style) -> Text:
        """A line fitted to the pane's width as it is now (it widens with the focus on a
        small terminal): the price and the count after an entry's name show whole (cut at the
        pane's edge, 115 pts read "11"), in the fullest of their shorter forms (every number
        labelled: "1 chosen" as "×1", "4 Cans, 1 Build Slots" as "4C·1BS", see
        :mod:`.fitting`) that leaves room for the whole name; where none does, the name gives
        way, cut with "…" to 3 cells at least. A name alone (no price, no count)
        is cut with "…" at the edge; a section's name gives way to its range and count."""
        text = super().render_label(node, base_style, style)
        label = node._label
        if not self.is_mounted:
            return text
        depth, up = 0, node.parent
        while up is not None and (up is not self.root or self.show_root):
            depth += 1
            up = up.parent
        room = self.scrollable_content_region.width - depth * self.guide_depth
        over = text.cell_len - room
        tails = self.tails if node.data is not None and room > 0 else None
        step = tails.step(room) if tails is not None else 0  # (one form for every row)
        if (over <= 0 and step == 0) or room <= 0:
            return text
        offset = len(text.plain) - len(label.plain)  # (the arrow before a heading's label)
        if node.data is None:
            name_cells = label.spans[0].end if label.spans else len(label.plain)
            return self._fit_heading(text, offset, room, offset + name_cells)
        if not label.spans:  # a name alone (no price, no count): cut with "…"
            return _cut(text, room)
        name_end = label.spans[0].start  # the price or count is the first span
        name = label[:name_end]
        # The tail (price, count), in shorter forms that keep every number labelled ("3
        # chosen" -> "×3", "1 Build Slots" -> "1 Slots" -> "1BS"): never a number cut at the
        # edge, nor one left without what it counts.
        spans = [(label.plain[sp.start : sp.end].lstrip(" "), sp.style) for sp in label.spans]
        if tails is not None:
            forms, keep = row_forms([p for p, _ in spans], step, tails.tiny)
        else:
            forms = tail_forms([p for p, _ in spans])
            keep = len(forms)
        shown = []
        for pieces, sep in forms:
            tail = Text()
            for piece, (_, piece_style) in zip(pieces, spans, strict=True):
                tail.append(sep + piece, piece_style)
            shown.append(tail)
        lead = cell_len(text.plain[:offset])
        # The whole name with the fullest tail that leaves room for it ("Machine Gun 2 Cans·1
        # Slots", not "Mac…  2 Cans, 1 Build Slots"); where none does, the name gives way to
        # the fullest tail that leaves it 3 cells.
        whole = [i for i, t in enumerate(shown[:keep]) if name.cell_len <= room - lead - t.cell_len]
        for i in [*whole[:1], *range(len(shown))]:
            tail = shown[i]
            space = room - lead - tail.cell_len
            if name.cell_len <= space:
                fitted = name.copy()
            elif space - 1 >= (1 if i == len(forms) - 1 else 3):
                end = 0
                while end < len(name) and cell_len(name.plain[: end + 1]) <= space - 1:
                    end += 1
                fitted = name[:end]
                fitted.rstrip()
                fitted.append("…")
            else:
                continue
            fitted.append_text(tail)
            fitted.stylize(style)
            return text[:offset] + fitted
        return _cut(text, room)  # no room for a name at all: cut at the edge, with "…"

    @staticmethod
    def _fit_heading(text: Text, offset: int, room: int, name_end: int) -> Text:
        """A section's line (its arrow, ``name (range) count``, the name ending at
        ``name_end``) in ``room`` cells: the name cut with "…" so that the range and the
        count show whole; a line without them, or where a name of 3 cells leaves no room
        for them, cut at the edge, with "…"."""
        plain = text.plain
        if offset < name_end < len(plain):
            tail = text[name_end:]
            # The whole name with the limit in fewer words, where that is enough
            # ("Weapons (any)", not "Wea… (any number)").
            for short in heading_tail_forms(tail):
                if text[:name_end].cell_len + short.cell_len <= room:
                    return text[:name_end] + short
            space = room - tail.cell_len
            if space - cell_len(plain[:offset]) - 1 >= 3:
                fitted = _cut(text[:name_end], space)
                fitted.append_text(tail)
                return fitted
        return _cut(text, room)

    def _is_entry(self, line: int) -> bool:
        node = self.get_node_at_line(line)
        return node is not None and node.data is not None

    def _step_to_entry(self, delta: int) -> None:
        line = self.cursor_line + delta
        while 0 <= line <= self.last_line:
            if self._is_entry(line):
                self.cursor_line = line
                self.scroll_to_line(line, animate=False)
                return
            line += delta
        if 0 <= self.cursor_line + delta <= self.last_line:
            self.cursor_line += delta  # no entry that way: the heading, as a plain tree does
            self.scroll_to_line(self.cursor_line, animate=False)

    def action_cursor_down(self) -> None:
        if self.cursor_line < 0:
            super().action_cursor_down()
            if not self._is_entry(self.cursor_line):
                self._step_to_entry(1)
            return
        self._step_to_entry(1)

    def action_cursor_up(self) -> None:
        self._step_to_entry(-1)

    def _on_focus(self, event: events.Focus) -> None:
        super()._on_focus(event)
        if not self._is_entry(self.cursor_line):
            line = max(self.cursor_line, 0)
            while line <= self.last_line and not self._is_entry(line):
                line += 1
            if line <= self.last_line:
                self.cursor_line = line
                self.scroll_to_line(line, animate=False)

    async def _on_click(self, event: events.Click) -> None:
        meta = event.style.meta
        if "line" in meta and not meta.get("toggle", False) and event.chain < 2:
            event.prevent_default()
            line = meta["line"]
            self.cursor_line = line
            node = self.get_node_at_line(line)
            if node is not None and node.data is None:
                node.toggle()


def _render_spans(
    plain: str, base: Style, spans: Sequence[tuple[int, int, Style | str]], console: Any
) -> list[Segment]:
    """The segments Rich's ``Text(plain, style=base)`` with ``spans`` (in that order) renders
    (``Text.render``: each piece of text between two span edges in the styles of the spans
    over it, combined in their order, the text's own style first)."""
    if not spans:
        return [Segment(plain)]
    get = console.get_style
    null = Style.null()
    style_map: dict[int, Style] = {}
    edges: list[tuple[int, bool, int]] = [(0, False, 0)]
    for index, (start, _, given) in enumerate(spans, 1):
        style_map[index] = given if isinstance(given, Style) else get(given, default=null)
        edges.append((start, False, index))
    edges.extend((end, True, index) for index, (_, end, _) in enumerate(spans, 1))
    edges.append((len(plain), True, 0))
    style_map[0] = base
    edges.sort(key=lambda edge: (edge[0], edge[1]))
    stack: list[int] = []
    combined: dict[tuple[int, ...], Style] = {}
    out: list[Segment] = []
    for (offset, leaving, index), (next_offset, _, _) in pairwise(edges):
        if leaving:
            stack.remove(index)
        else:
            stack.append(index)
        if next_offset > offset:
            key = tuple(sorted(stack))
            found = combined.get(key)
            if found is None:
                found = combined[key] = Style.combine(style_map[i] for i in key)
            out.append(Segment(plain[offset:next_offset], found))
    return out


#: A section's range and count in fewer words, applied in turn (each form keeps the ones
#: before): "(any number)" as "(any)", "(at least 3)" as "(≥3)", "(exactly 1)" as "(=1)",
#: "3 chosen" as "×3", "2, at least 3" as "2, ≥3".
HEADING_SHORTER: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(any number\)"), "(any)"),
    (re.compile(r"\(at least (\d+)\)"), r"(≥\1)"),
    (re.compile(r"\(exactly (\d+)\)"), r"(=\1)"),
    (re.compile(r"(\d+) chosen$"), r"×\1"),
    (re.compile(r", at least (\d+)$"), r", ≥\1"),
)


def heading_tail_forms(tail: Text) -> list[Text]:
    """A section's tail (`` (range) count``) in ever fewer words (:data:`HEADING_SHORTER`),
    each piece keeping its style; only the forms that differ from the one before."""
    forms: list[Text] = []
    for pattern, short in HEADING_SHORTER:
        found = pattern.search(tail.plain)
        if found is None:
            continue
        start, end = found.span()
        piece = tail[start:end]
        piece.plain = found.expand(short)
        tail = tail[:start] + piece + tail[end:]
        forms.append(tail)
    return forms


def _cut(text: Text, room: int) -> Text:
    """``text`` cut to ``room`` cells, its last cell a "…" drawn as what it replaces: a
    line cut at the pane's edge says so."""
    plain = text.plain
    if cell_len(plain) <= room:
        return text
    # The longest head of at most ``room - 1`` cells, found by halves: a head's width never
    # shrinks as it grows (a joiner or a variation selector adds nothing or widens), and the
    # title is cut at every unit of another kind selected (a head measured per character
    # kept was some forty measures of a 40k unit's title).
    end, over = 0, len(plain)  # (the head of ``end`` characters fits; of ``over``, not)
    while over - end > 1:
        mid = (end + over) // 2
        if cell_len(plain[:mid]) <= room - 1:
            end = mid
        else:
            over = mid
    cut = text.copy()
    cut.plain = plain[:end].rstrip() + "…"  # (spans over the end now end at the "…")
    return cut


def fit_title(text: Text, width: int, keep: int) -> Text:
    """``text`` in ``width`` cells (cut with "…" at the edge), its last ``keep`` characters
    (a search's filter, `` · filter '<text>'``) whole: what comes before them is cut with "…"
    (to one cell and the "…" at least); where even that leaves no room, the kept part alone
    (without its leading " · "), cut at the edge only if it is wider than the line."""
    if width <= 0 or text.cell_len <= width:
        return text
    if keep <= 0:
        return _cut(text, width)
    plain = text.plain
    split = max(len(plain) - keep, 0)
    tail = text[split:]
    space = width - tail.cell_len
    if split and space >= 2:
        head = _cut(text[:split], space)
        head.append_text(tail)
        return head
    alone = text[split:]
    skip = len(alone.plain) - len(alone.plain.lstrip(" ·"))
    return _cut(alone[skip:], width)


class PreviewStatic(LiveStatic):
    """The preview's text, padded with blank lines to the height of the box it scrolls in:
    previews that fit in the box all have its height, so the next entry's preview (at most
    keys typed in the search the first match changes) is painted in place, without a layout
    of the screen; only one taller than the box changes the height."""

    #: Lines drawn for each paragraph of a preview, by what the paragraph says and the
    #: width and style it is drawn in (many entries share lines: weapons, keywords,
    #: headings; and the browser draws the previews of its options ahead while idle). Kept
    #: when the styles change (a focus moving in the pane restyles it): the key holds the
    #: style drawn in.
    _kept: dict[tuple[Any, ...], list[Strip]]

    #: Paragraphs kept at most (all are dropped past that).
    KEPT = 8192

    #: Times the paragraphs kept were dropped (a preview drawn before is drawn again after).
    kept_epoch = 0

    def _group_lines(self, width: int) -> list[Strip] | None:
        """A preview's lines (a group of texts, as :func:`preview` makes), drawn paragraph by
        paragraph, each line of a text drawn once per width and style: the lines Rich draws
        for the whole group (each text is wrapped line by line). ``None``: not such a group."""
        content = self._content
        if not isinstance(content, RichGroup) or width <= 0:
            return None
        texts = content.renderables
        if not all(type(text) is Text for text in texts):
            return None
        style = self._style
        if style is None:
            style = self._style = self.visual_style.rich_style
        kept = self.__dict__.get("_kept")
        if kept is None:
            kept = self._kept = {}
        lines: list[Strip] = []
        for text in texts:
            assert isinstance(text, Text)
            paragraphs = text.split("\n", allow_blank=True) if "\n" in text.plain else [text]
            for para in paragraphs:
                key = (
                    para.plain,
                    tuple(para.spans),
                    para.style,
                    para.justify,
                    para.overflow,
                    para.no_wrap,
                    para.end,
                    para.tab_size,
                    width,
                    style,
                )
                found = kept.get(key)
                if found is None:
                    if len(kept) > self.KEPT:
                        kept.clear()
                        self.kept_epoch += 1
                    found = kept[key] = self._draw(para, width, style)
                lines.extend(found)
        return lines

    def draw_ahead(self, content: RenderableType) -> None:
        """Draw the paragraphs of a preview not shown yet, at the box's width (while idle:
        the preview of an entry the search or the cursor comes to is then looked up, line
        by line, by what it says)."""
        width = self.size.width
        if width <= 0 or not isinstance(content, RichGroup):
            return
        shown, drawn = self._content, self._drawn
        self._content = content
        try:
            self._group_lines(width)
        finally:
            self._content, self._drawn = shown, drawn

    def _lines(self, width: int) -> list[Strip]:
        drawn = self._drawn
        if drawn is None or drawn[0] != width:
            found = self._group_lines(width)
            if found is not None:
                self._drawn = (width, found)
        lines = super()._lines(width)
        parent = self.parent
        room = parent.scrollable_content_region.height if isinstance(parent, Widget) else 0
        if len(lines) >= room or width <= 0:
            return lines
        blank = Strip.blank(width, self._style or self.visual_style.rich_style)
        return [*lines, *[blank] * (room - len(lines))]

    @property
    def plain(self) -> str:
        return super().plain.rstrip("\n")


class TitleStatic(LiveStatic):
    """The pane's title (``Add to: <unit> · filter '<text>'``, new at every key of the
    search): a line that fits is drawn straight from its text's spans, in the styles Rich's
    console gives them (what it draws: ``tests/tui/test_catalog_search_third.py`` compares
    them), without the console's wrapping; anything else is drawn by Rich.

    A title wider than its line keeps its last :attr:`keep` characters whole (the search's
    filter: what the player typed) and cuts what comes before (``Add to: <unit>``) with "…"
    (:func:`fit_title`)."""

    #: Characters at the end of the title that show whole (cut before them, not in them).
    keep = 0

    def set_title(self, text: Text, keep: int) -> None:
        """Show ``text``, its last ``keep`` characters never cut."""
        if keep != self.keep and self.is_mounted and self.size.width > 0:
            # (The lines drawn before were fitted for the old end kept: drawn again whole.)
            self.keep = keep
            self._content = text
            self._drawn = None
            self.refresh()  # (one line high: no layout)
            return
        self.keep = keep
        self.set_content(text)

    def fitted(self, width: int) -> Text | None:
        """The title as drawn in ``width`` cells (``None``: no title)."""
        content = self._content
        if not isinstance(content, Text):
            return None
        return fit_title(content, width, self.keep)

    def _lines(self, width: int) -> list[Strip]:
        drawn = self._drawn
        if drawn is not None and drawn[0] == width:
            return drawn[1]  # (drawn for this title at this width: not fitted again)
        content = self._content
        fitted = self.fitted(width)
        if fitted is None or fitted is content:
            return super()._lines(width)
        self._content = fitted
        try:
            return super()._lines(width)
        finally:
            self._content = content

    def _draw(self, renderable: RenderableType, width: int, style: Style) -> list[Strip]:
        if type(renderable) is not Text or width <= 0:
            return super()._draw(renderable, width, style)
        plain = renderable.plain
        if (
            not plain
            or not plain.isprintable()
            or plain[-1].isspace()
            or renderable.end != "\n"
            or renderable.justify not in (None, "default", "left")
            or cell_len(plain) > width
        ):
            return super()._draw(renderable, width, style)
        console = self.app.console
        base = console.get_style(renderable.style, default=Style.null())
        spans = [(sp.start, sp.end, sp.style) for sp in renderable.spans]
        pieces = _render_spans(plain, base, spans, console) if spans else [Segment(plain, base)]
        segments = [
            Segment(text, style + piece_style if piece_style else style)
            for text, piece_style, _ in pieces
            if text
        ]
        pad = width - cell_len(plain)
        if pad:
            segments.append(Segment(" " * pad, style))
        return [Strip(segments, width)]


class SearchBox(SteadyInput):
    """The catalog's search field. Textual's input asks for a layout of the whole screen at
    every key typed (it sets its scroll area again, a reactive that lays out); this box's
    size is fixed by the pane (one line, the pane's width), so a repaint is enough: a key
    typed repaints the box and the filtered tree, not every widget of the editor."""

    def watch_value(self, value: str) -> None:
        # The list follows in the same step as the text: Textual would paint the box with
        # its new text first, then the list once the change has reached the browser (two
        # frames a key, the first showing the text beside the matches of the text before).
        for node in self.ancestors:
            if isinstance(node, CatalogBrowser):
                node.search_typed()
                break


#: Rows priced beyond each edge of the view when rows come into view: a notch of the mouse
#: wheel (3 lines) finds its rows priced already. (The rest are priced while idle.)
PRICE_MARGIN = 3

#: What the browser holds of the list of nodes it shows (see :meth:`CatalogBrowser._keep_list`).
_LIST_STATE = (
    "_rows",
    "_shown_labels",
    "_row_figures",
    "_row_infos",
    "_row_of",
    "_sections",
    "_shown_sections",
    "_section_child",
    "_row_section",
    "_hay",
)

#: Lists of nodes kept besides the one shown (the units of other kinds gone between).
KEPT_LISTS = 4

#: The options off screen are priced while the app is idle, in rounds of this many seconds at
#: most (a key typed meanwhile waits for one round), this long apart: the search then finds
#: them priced. (Their rows are labelled when they come into view, from these figures.)
IDLE_ROUND_S = 0.003
IDLE_PAUSE_S = 0.02

#: What prices options: given the ids of some (:meth:`EditSession.option_id`), their figures
#: (:meth:`EditSession.option_infos` with ``ids``).
Pricer = Callable[[Collection[str]], list[OptionInfo]]


class CatalogBrowser(Vertical):
    """Search box, tree of options and preview."""

    class Leave(Message):
        """Escape in the catalog with no search typed: the user goes back to the roster."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave_search", "Leave the search", show=False),
    ]

    class AddRequested(Message):
        """Add this entry to the browser's target."""

        def __init__(self, entry_id: str, target: Loc) -> None:
            super().__init__()
            self.entry_id = entry_id
            self.target = target

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.target: Loc = ()
        self._tree: CatalogTree | None = None  # (set when composed)
        self._index: CatalogIndex | None = None
        self._options: list[Child] = []
        self._counts: dict[str, int] = {}
        #: The options' figures asked for so far (all of them when handed over whole).
        self._infos: dict[str, OptionInfo] = {}
        #: What prices the others when their rows come into view (``None``: all handed over).
        self._price: Pricer | None = None
        #: The figures handed over: a number that changes with each :meth:`show_options`.
        self._figures = 0
        #: The next round of pricing the options off screen, while idle (if any is due).
        self._later: Timer | None = None
        self._later_at = 0.0
        self._asked: set[str] = set()
        #: Whether the options off screen are priced while idle (a test turns it off, to
        #: have every row priced as it comes into view).
        self.price_off_screen = True
        self._group_limits: Mapping[str, Limit] = {}
        self._slot_limits: dict[str, Limit] = {}
        self._signature: object = None
        self._by_id: dict[str, Child] = {}
        self._ids: list[str] = []
        self._title = ""
        #: A node per option (in the options' order), built once per set of options, and
        #: the section each goes in; the search hangs those it matches under the root.
        self._rows: list[TreeNode[str | None]] = []
        self._row_section: list[str] = []
        self._shown_labels: list[str] = []
        #: The figures each row's label shows (:attr:`_figures` when it was labelled; -1:
        #: a name alone, never labelled): a row is labelled again when it comes into view.
        self._row_figures: list[int] = []
        #: The figures each row's label was made from (``None``: the name alone): a row
        #: whose new figures are these is not labelled again.
        self._row_infos: list[OptionInfo | None] = []
        #: A row's place in the options, by its node's id.
        self._row_of: dict[int, int] = {}
        #: Each option's name folded (:func:`fold`) and id: what the search looks in.
        self._hay: list[tuple[str, str]] = []
        #: The options the tree shows (places in the list) and the query they match.
        self._hits: list[int] | None = None
        self._hits_query: str | None = None
        self._cursor_keep: str | None = None
        self._sections: dict[str, TreeNode[str | None]] = {}
        self._shown_sections: dict[str, str] = {}
        self._preview_id: object = None
        self._target_name = ""
        self._empty_text: str | None = None
        self._section_child: dict[str, Child] = {}
        #: Lists of nodes built, for a new set of options (a benchmark reads it).
        self.rebuilds = 0
        #: The lists of nodes built for the last few other sets of options (by signature),
        #: each with its rows' state (:data:`_LIST_STATE`) and tails: moving back to a unit
        #: of a kind shown before hangs its list again rather than building it (the player
        #: goes between a few units; a quick fix or an undo goes back and forth).
        self._kept_lists: dict[object, tuple[dict[str, Any], ListTails | None]] = {}
        #: Kept lists hung again (tests read it; :attr:`rebuilds` counts the lists built).
        self.lists_reused = 0
        #: The garbage collector is paused until the frame of a key typed is painted.
        self._collector_held = False
        #: What the rows' labels were last drawn ahead for (:meth:`_draw_ahead`).
        self._ahead: tuple[Any, ...] | None = None
        #: What the previews are being drawn ahead for, and the next option to draw.
        self._previews_for: tuple[Any, ...] | None = None
        self._previews_next = 0
        #: What the previews drawn (shown or ahead) said, at which width and style.
        self._previews_drawn: set[tuple[Any, ...]] = set()
        #: Previews drawn ahead, and rows labelled as they come into view (tests read them).
        self.previews_ahead = 0
        self.rows_labelled = 0
        #: The entries' stat tables as their previews show them (:func:`preview`).
        self._tables: TablesKept = {}

    def compose(self) -> ComposeResult:
        yield TitleStatic("Catalog", id="catalog-title", classes="pane-title")
        yield SearchBox(placeholder="Search ( / )", id="catalog-search")
        tree: CatalogTree = CatalogTree("Catalog", id="catalog-tree")
        tree.show_root = False
        tree.guide_depth = 2
        tree.on_view = self._label_lines
        tree.on_resized = self._price_later
        self._tree = tree
        yield tree
        yield LiveStatic("", id="catalog-empty")
        with ScrollBox(id="catalog-preview-scroll"):
            yield PreviewStatic("", id="catalog-preview")

    @property
    def catalog_tree(self) -> CatalogTree:
        # The tree composed (looked up a dozen times in an update: a look-up checks that
        # the widget found is still attached, a few microseconds each).
        tree = self._tree
        return tree if tree is not None else find(self, "CatalogTree", CatalogTree)

    @property
    def search(self) -> Input:
        return self.query_one("#catalog-search", Input)

    def show_options(
        self,
        index: CatalogIndex,
        target: Loc,
        target_name: str,
        options: list[Child],
        counts: dict[str, int],
        infos: list[OptionInfo] | None = None,
        group_limits: Mapping[str, Limit] | None = None,
        slot_limits: dict[str, Limit] | None = None,
        ids: list[str] | None = None,
        price: Pricer | None = None,
    ) -> None:
        """Show what can be added to ``target`` (rebuilt only if something changed).

        ``infos``, ``group_limits``, ``slot_limits``: the session's costs and limits of the
        options, their groups and their categories (at the top of the roster, the force's
        slots). ``price``: in place of ``infos``, what prices the options whose rows come
        into view (the rest are not priced). ``ids``: the id that adds each option
        (:meth:`EditSession.option_id`; default its entry's id): a line is keyed, priced and
        added by it, so an entry offered twice there (plainly and through a group's link) is
        two lines, each adding what it shows.
        """
        self.target = target
        if index is not self._index:  # (a catalog reloaded: nothing of the old one is kept)
            self._tables.clear()
            self._previews_drawn.clear()
            self._drop_lists()
        self._index = index
        self._target_name = target_name
        self._options = options
        self._counts = counts
        self._infos = {i.entry_id: i for i in infos or []}
        self._price = price
        self._asked = set()  # (options asked for while idle, priced or not)
        self._figures += 1  # (every row's label is of the figures before)
        self._group_limits = group_limits or {}
        self._slot_limits = slot_limits or {}
        self._ids = ids if ids is not None else [c.entry.id for c in options]
        self._by_id = dict(zip(self._ids, options, strict=True))
        self._rebuild()
        self._price_later()

    def _price_later(self) -> None:
        """Price the options not priced yet while the app is idle, a few at a time, then
        draw their rows' labels ahead (:meth:`_draw_ahead`)."""
        if not self.price_off_screen or (self._price is None and self._drawn_ahead()):
            return
        now = time.perf_counter()
        if self._later is None or now - self._later_at > 1.0:  # (none due, or one lost)
            self._later, self._later_at = self.set_timer(IDLE_PAUSE_S, self._price_some), now

    def _price_some(self) -> None:
        """One round of pricing the options not priced yet (their figures are kept, for
        their rows to be labelled with when they come into view; no row changes now),
        then of drawing labels ahead."""
        self._later = None
        if not self.is_attached or not self.price_off_screen:
            return
        end = time.perf_counter() + IDLE_ROUND_S
        price = self._price
        if price is not None:
            infos, asked = self._infos, self._asked
            for option_id in self._ids:
                if option_id in infos or option_id in asked:
                    continue
                if time.perf_counter() >= end:
                    self._price_later()
                    return
                asked.add(option_id)  # (one the session does not price is not asked again)
                for info in price([option_id]):
                    infos[info.entry_id] = info
        if self._draw_ahead(end):
            self._price_later()

    def _ahead_key(self) -> tuple[Any, ...] | None:
        """What the labels drawn ahead were drawn for: the figures, the list's width and
        styles (``None``: the list is not laid out)."""
        tree = self.catalog_tree
        if not tree.is_mounted or tree.size.width <= 0:
            return None
        box = find(self, "#catalog-preview", PreviewStatic)
        return (
            self._figures,
            tree.scrollable_content_region.width,
            tree.rich_style,
            tree.get_component_rich_style("tree--label", partial=True),
            id(self._rows),
            box.size.width,
            box.visual_style.rich_style,
        )

    def _drawn_ahead(self) -> bool:
        key = self._ahead_key()
        return key is None or key == self._ahead

    def _draw_ahead(self, end: float) -> bool:
        """While idle (until ``end``): label the rows off screen with the figures kept for
        them, and have the list draw their labels' pieces ahead (``CatalogTree._label_part``,
        kept by value: what a row shows is looked up there only if it is exactly what it
        would draw), so that the rows a search brings in are drawn at a third of the cost.
        Whether some are left."""
        index, tree = self._index, self.catalog_tree
        key = self._ahead_key()
        if index is None or key is None or key == self._ahead:
            return False
        base, label_style = key[2], key[3]
        figures, row_figures, infos = self._figures, self._row_figures, self._infos
        ids, rows, shown = self._ids, self._rows, self._shown_labels
        top = tree.scroll_offset.y
        lines = tree._tree_lines
        in_view = {id(line.path[-1]) for line in lines[top : top + tree.size.height]}
        tree._pass, tree._memo = None, None
        tree._pass, tree._memo = tree._pass_state(), {}
        try:
            for i, leaf in enumerate(rows):
                if time.perf_counter() >= end:
                    return True
                option_id = ids[i]
                if row_figures[i] != figures:
                    if id(leaf) in in_view:  # (labelled by what shows them)
                        continue
                    info = infos.get(option_id)
                    if info is None and self._price is not None:
                        if option_id not in self._asked:
                            return True  # (priced first, in a later round)
                        info = OptionInfo(option_id, Limit(self._counts.get(option_id, 0)), {})
                    info = info or self._info(option_id)
                    row_figures[i] = figures
                    if info != self._row_infos[i]:  # (else the label it has shows them)
                        self._row_infos[i] = info
                        label = self._leaf_label(index, self._options[i], info)
                        if shown[i] != label.plain:
                            shown[i] = label.plain
                            leaf._label = tree.process_label(label)
                            leaf._updates += 1
                tree._label_part(leaf, 1, base, label_style)
            for section in self._sections.values():
                tree._label_part(section, 0, base, label_style)
        finally:
            tree._pass, tree._memo = None, None
        if self._previews_ahead(key, end):
            return True
        self._ahead = key
        return False

    def _previews_ahead(self, key: tuple[Any, ...], end: float) -> bool:
        """While idle (until ``end``): draw the previews of the options ahead, as
        :meth:`_show_preview` would show them (their lines are kept by what they say:
        :class:`PreviewStatic`), so that the entry a key of the search puts the cursor on
        shows its preview without drawing it. Whether some are left."""
        index = self._index
        box = find(self, "#catalog-preview", PreviewStatic)
        if index is None or box.size.width <= 0:
            return False
        if self._previews_for != key:
            self._previews_for, self._previews_next = key, 0
        ids, options, infos, groups = self._ids, self._options, self._infos, self._group_limits
        drawn = self._previews_drawn
        where = (box.size.width, box.visual_style.rich_style, box.kept_epoch)
        for i in range(self._previews_next, len(ids)):
            if time.perf_counter() >= end:
                self._previews_next = i
                return True
            child = options[i]
            group = groups.get(child.group.id) if child.group is not None else None
            info = infos.get(ids[i])
            # A preview that says what one drawn at this width and style said (the one shown,
            # or one drawn ahead for figures before an edit that left it alone) is not
            # drawn again: its lines are kept already.
            said = (self._preview_key(index, ids[i], child, info, group), where)
            if said in drawn:
                continue
            if len(drawn) > PreviewStatic.KEPT:
                drawn.clear()
            drawn.add(said)
            self.previews_ahead += 1
            box.draw_ahead(preview(index, child, info, group, self._tables))
        self._previews_next = len(ids)
        return False

    @staticmethod
    def _preview_key(
        index: CatalogIndex,
        entry_id: str,
        child: Child,
        info: OptionInfo | None,
        group: Limit | None,
    ) -> tuple[Any, ...]:
        """What :func:`preview` shows for an option, not the figures behind it: two
        options' previews with the same key are the same lines (a count that changes
        without showing, no limit, does not draw it again). The group it is chosen in is
        part of it: an entry offered by units of two kinds in groups of other names with alike
        limits (a 40k plasma pistol in "Replace Bolter", "Weapon 1") kept the other unit's
        group in its preview."""
        return (
            entry_id,
            id(child.entry),
            id(child.group),
            id(index),
            costs_text(index, info.costs) if info is not None else None,
            info.limit.range_text if info is not None and info.limit.bounded else None,
            (group.range_text, group.maximum) if group is not None else None,
        )

    @property
    def unpriced(self) -> int:
        """How many options are not priced yet with the figures shown, and whether the
        rows' labels are still to be drawn ahead (a benchmark waits for none, as a person
        pausing before typing)."""
        if not self.price_off_screen:
            return 0
        ahead = 0 if self._drawn_ahead() else 1
        if self._price is None:
            return ahead
        infos, asked = self._infos, self._asked
        return ahead + sum(1 for i in self._ids if i not in infos and i not in asked)

    def _info(self, entry_id: str) -> OptionInfo:
        info = self._priced(entry_id)
        if info is None:  # no figures from the session: the count alone
            info = OptionInfo(entry_id, Limit(self._counts.get(entry_id, 0)), {})
        return info

    def _priced(self, entry_id: str) -> OptionInfo | None:
        """The session's figures of an option (priced now if not yet), if it gives them."""
        info = self._infos.get(entry_id)
        if info is None and self._price is not None:
            self._price_ids([entry_id])
            info = self._infos.get(entry_id)
        return info

    def _price_ids(self, ids: Iterable[str]) -> None:
        """Have the figures of the options ``ids`` (those not priced yet priced now, at once)."""
        price = self._price
        if price is None:
            return
        infos = self._infos
        missing = [i for i in dict.fromkeys(ids) if i not in infos]
        if missing:
            for info in price(missing):
                infos[info.entry_id] = info

    def _label_lines(self, first: int, end: int) -> list[int]:
        """Label (pricing them) the rows of the tree's lines ``first`` to ``end`` and a
        margin around them, those not labelled with the current figures; the lines whose
        label changed."""
        index = self._index
        if index is None or not self._rows:
            return []
        tree = self.catalog_tree
        lines = tree._tree_lines
        margin = PRICE_MARGIN
        row_of, figures, row_figures = self._row_of, self._figures, self._row_figures
        stale: list[tuple[int, int]] = []
        for y in range(max(0, first - margin), min(len(lines), end + margin)):
            i = row_of.get(lines[y].path[-1]._id)
            if i is not None and row_figures[i] != figures:
                stale.append((y, i))
        if not stale:
            return []
        ids = self._ids
        self._price_ids(ids[i] for _, i in stale)
        changed: list[int] = []
        row_infos = self._row_infos
        for y, i in stale:
            row_figures[i] = figures
            info = self._info(ids[i])
            if info == row_infos[i]:
                continue  # (the figures its label shows: the same label)
            row_infos[i] = info
            self.rows_labelled += 1
            label = self._leaf_label(index, self._options[i], info)
            if self._shown_labels[i] != label.plain:
                self._shown_labels[i] = label.plain
                leaf = self._rows[i]
                leaf._label = tree.process_label(label)  # (set as Tree does, not repainted:
                leaf._updates += 1  # the caller repaints the lines that changed)
                changed.append(y)
        return changed

    def price_view(self) -> list[int]:
        """Label (and price) the rows in view and a margin around them (as the tree does
        before it draws a frame); the lines whose label changed."""
        tree = self.catalog_tree
        top = tree.scroll_offset.y
        return self._label_lines(top, top + max(tree.size.height, 1))

    def _rebuild(self) -> None:
        """Show the options (after :meth:`show_options`): the tree's nodes are built once per
        set of options, relabelled when their figures change, and filtered by the search."""
        index = self._index
        if index is None:
            return
        signature = (
            id(index),
            tuple((id(c.entry), id(c.group)) for c in self._options),
            tuple(self._ids),
        )
        if signature != self._signature or not self._nodes_attached():
            if not self._reuse_nodes(index, signature):
                self._build_nodes(index, signature)
            # (the rows on screen were another list's, or none: all of them repainted)
            self.catalog_tree.refresh()
            self._filter(force=True)
            return
        # Same entries: only counts, limits and costs may differ. The rows in view are
        # labelled (priced) again now and those that changed repainted; the others, shown
        # or filtered out, are when they come into view (their figures are old: no row
        # shows an old figure once the search or a scroll lets it in again).
        tree = self.catalog_tree
        # (the lines relabelled, repainted in one refresh: one per line costs a look-up of
        # the widget's region and a check of the app's idleness each)
        tree.repaint_lines(self.price_view())
        for key, section in self._sections.items():
            child = self._section_child[key]
            stext = self._section_label(index, child)
            if self._shown_sections.get(key) != stext.plain:
                self._shown_sections[key] = stext.plain
                section.set_label(stext)
        self._filter()
        self._show_preview(self.highlighted())

    def _nodes_attached(self) -> bool:
        rows = self._rows
        return not rows or rows[0].tree is self.catalog_tree

    def _keep_list(self) -> None:
        """Keep the list of nodes shown (its rows' state and tails), to be hung again when
        its options are shown again (:meth:`_reuse_nodes`); the oldest kept goes, its nodes
        dropped from the tree's table of nodes by id."""
        tree = self.catalog_tree
        if self._signature is None or not self._rows or not self._nodes_attached():
            return
        kept = self._kept_lists
        old = kept.pop(self._signature, None)
        if old is not None and old[0]["_rows"] is not self._rows:
            self._forget_nodes(old[0])
        kept[self._signature] = ({name: getattr(self, name) for name in _LIST_STATE}, tree.tails)
        while len(kept) > KEPT_LISTS:
            state, _ = kept.pop(next(iter(kept)))
            self._forget_nodes(state)

    def forget_kept_lists(self) -> None:
        """Drop the lists kept for other kinds of unit (not the one shown): the next kind
        shown has its list built, as the first time (``benchmarks/bench_actions.py`` times a
        quick fix so)."""
        for state, _ in self._kept_lists.values():
            self._forget_nodes(state)
        self._kept_lists.clear()

    def _drop_lists(self) -> None:
        """Drop the lists kept and the one shown (built again for the options shown next),
        their nodes from the tree's table by id."""
        self.forget_kept_lists()
        if self._tree is not None:
            self._forget_nodes({"_rows": self._rows, "_sections": self._sections})
        self._signature = None

    def _forget_nodes(self, state: dict[str, Any]) -> None:
        """Drop a kept list's nodes from the tree's table of nodes by id (``Tree`` keeps
        every node it made there; its ``clear`` numbered the nodes from 0 again instead)."""
        table = getattr(self.catalog_tree, "_tree_nodes", None)
        if isinstance(table, dict):
            nodes: list[TreeNode[str | None]] = [*state["_rows"], *state["_sections"].values()]
            for node in nodes:
                key = node._id
                if table.get(key) is node:
                    del table[key]

    def _reuse_nodes(self, index: CatalogIndex, signature: object) -> bool:
        """Hang the list kept for ``signature`` again, if there is one (its rows labelled
        with figures of before: each is labelled again as it comes into view, as after an
        edit; its headings are labelled now). Whether one was."""
        tree = self.catalog_tree
        found = self._kept_lists.pop(signature, None)
        if found is None:
            return False
        state, tails = found
        rows = state["_rows"]
        if rows and rows[0].tree is not tree:  # (another tree's nodes: built afresh)
            return False
        self._cursor_keep = tree.cursor_node.data if tree.cursor_node is not None else None
        self._keep_list()
        self._signature = signature
        for name, value in state.items():
            setattr(self, name, value)
        self._hits = None
        self._hits_query = None
        tree.tails = tails
        for key, section in self._sections.items():
            stext = self._section_label(index, self._section_child[key])
            if self._shown_sections.get(key) != stext.plain:
                self._shown_sections[key] = stext.plain
                section._label = tree.process_label(stext)  # (the whole tree is repainted)
                section._updates += 1
        self.lists_reused += 1
        return True

    def _build_nodes(self, index: CatalogIndex, signature: object) -> None:
        """A node for every option and section, all under the root (the filter picks)."""
        tree = self.catalog_tree
        self._cursor_keep = tree.cursor_node.data if tree.cursor_node is not None else None
        self._keep_list()
        self._signature = signature
        self.rebuilds += 1
        self._rows = []
        self._shown_labels = []
        self._row_figures = []
        self._row_infos = []
        self._row_of = {}
        self._sections = {}
        self._shown_sections = {}
        self._section_child = {}
        self._row_section = []
        self._hay = [(fold(c.entry.name), c.entry.id) for c in self._options]
        self._hits = None
        self._hits_query = None
        options = self._options
        tree.tails = ListTails(
            lambda: ((c.entry.name, entry_cost(index, c.entry)) for c in options)
        )
        tree._syncing = True  # one repaint at the end, not one per node added
        try:
            # The root stays (``Tree.clear`` would number the new nodes from 0 again, and
            # rows are found by their node's id: the lists kept hold nodes so numbered).
            root = tree.root
            root._children = []
            add = self._node_adder(tree)
            for child, option_id in zip(self._options, self._ids, strict=True):
                key = self._section(index, child)
                node = self._sections.get(key)
                if node is None:
                    stext = self._section_label(index, child)
                    node = add(root, stext, None, True)
                    self._sections[key] = node
                    self._section_child[key] = child
                    self._shown_sections[key] = stext.plain
                # The name alone: the row is priced when it comes into view.
                label = Text(child.entry.name)
                leaf = add(node, label, option_id, False)
                self._row_of[leaf._id] = len(self._rows)
                self._rows.append(leaf)
                self._shown_labels.append(label.plain)
                self._row_figures.append(-1)
                self._row_infos.append(None)
                self._row_section.append(key)
            tree._invalidate()  # (once for the whole list)
        finally:
            tree._syncing = False

    @staticmethod
    def _node_adder(
        tree: CatalogTree,
    ) -> Callable[[TreeNode[str | None], Text, str | None, bool], TreeNode[str | None]]:
        """What hangs a new node (a section that expands, or an entry's leaf) last under a
        node: what ``TreeNode.add`` and ``add_leaf`` do, without laying the tree's lines out
        again for every node (Tree drops its lines and resets every node's state at each
        one; the list is laid out once, when all are added). (Tree internals of Textual 8;
        another Textual: Tree's own methods.)"""
        make = getattr(tree, "_add_node", None)
        if make is None:

            def plain(
                parent: TreeNode[str | None], label: Text, data: str | None, section: bool
            ) -> TreeNode[str | None]:
                if section:
                    return parent.add(label, data=data, expand=True)
                return parent.add_leaf(label, data=data)

            return plain

        def add(
            parent: TreeNode[str | None], label: Text, data: str | None, section: bool
        ) -> TreeNode[str | None]:
            # (the node processes its label itself: ``process_label``, once, not twice)
            node: TreeNode[str | None] = make(parent, label, data)
            node._expanded = section
            node._allow_expand = section
            parent._updates += 1
            parent._children.append(node)
            return node

        return add

    def matches(self, query: str) -> list[int]:
        """The options (their places in the list) whose name or id holds ``query`` (already
        stripped and folded: :func:`fold`; the names are folded alike)."""
        hay = self._hay
        if not query:
            return list(range(len(hay)))
        base: Iterable[int] = range(len(hay))
        last = self._hits_query
        if self._hits is not None and last is not None and last in query:
            base = self._hits  # the query grew: its matches are among the last ones
        return [i for i in base if query in hay[i][0] or query in hay[i][1]]

    def _filter(self, force: bool = False) -> None:
        """Show the options that match the search box's text, the cursor on the entry it
        was on if still shown, else on the first. ``force``: a new list of rows was just hung
        (built or kept: :meth:`_rebuild`), which repaints the whole tree: none is compared."""
        query = fold(self.search.value.strip())
        self._show_title()
        if not force and query == self._hits_query:
            return
        hits = self.matches(query)
        self._show_empty(query, bool(hits))
        tree = self.catalog_tree
        if self._cursor_keep is None and tree.cursor_node is not None:
            self._cursor_keep = tree.cursor_node.data
        changed = force or hits != self._hits
        self._hits, self._hits_query = hits, query
        # (after a build, the rows on screen are another list's: what the tree holds now was
        # never drawn, so comparing it with the rows after would spare nothing)
        before = None if force else tree.view_keys()
        tree._syncing = True
        try:
            if changed:
                self._show_rows(hits)
            placed = self._place_cursor()
            self.price_view()  # (the rows now in view, before they are compared and drawn)
            after = tree.view_keys() if placed and before is not None else None
        finally:
            tree._syncing = False
        if force:
            pass  # (a new list: the caller repaints the whole tree)
        elif before is None or after is None or before[0] != after[0] or len(before) != len(after):
            tree.refresh()  # (scrolled, resized, or not laid out yet)
        else:
            refresh_rows(tree, [old != new for old, new in zip(before[1:], after[1:], strict=True)])

    def _show_rows(self, hits: list[int]) -> None:
        """Hang the rows of ``hits`` (and their sections) under the tree's root, in the
        catalog's order, sections in the order of their first row shown (as a tree built
        from the matches alone would have them)."""
        tree = self.catalog_tree
        root = tree.root
        for node in (*self._rows, *self._sections.values()):
            node._reset()  # as drawn afresh: no cursor, no hover
        order: list[str] = []
        kids: dict[str, list[TreeNode[str | None]]] = {}
        rows, where = self._rows, self._row_section
        for i in hits:
            key = where[i]
            found = kids.get(key)
            if found is None:
                found = kids[key] = []
                order.append(key)
            found.append(rows[i])
        for key in order:
            section = self._sections[key]
            section._children = kids[key]
            section._expanded = True
        root._children = [self._sections[key] for key in order]
        tree._cursor_node = None
        tree._invalidate()

    def _place_cursor(self) -> bool:
        """Put the cursor on the entry it was on if shown, else on the first, and show its
        preview (``False``: the tree is not laid out yet; it is scrolled to the cursor once
        it is)."""
        tree = self.catalog_tree
        laid_out = bool(tree.size)
        keep, self._cursor_keep = self._cursor_keep, None
        leaves = self._leaves()
        target = next((leaf for leaf in leaves if leaf.data == keep), None) if keep else None
        target = target or (leaves[0] if leaves else None)
        lines = tree._tree_lines  # (built now: the cursor goes by line)
        if target is None:
            tree.cursor_line = -1
            self._show_preview(None)
            return laid_out
        line = tree.cursor_line
        if tree.cursor_node is not target or not (
            0 <= line < len(lines) and lines[line].node is target
        ):
            # From no line: Tree draws the cursor and says a node is highlighted even when
            # the new line has the number of the old one.
            tree.set_reactive(Tree.cursor_line, -1)
            if laid_out:
                tree.move_cursor(target)
            else:
                tree.cursor_line = target._line  # (no scrolling in a tree of no size)
        # Not laid out yet (a roster arriving while the editor showed "loading"): the cursor
        # and the preview are set all the same, so that the first frame that shows the
        # catalog shows them (the preview box was blank in it, and until the next refresh).
        self._show_preview(target.data)
        if not laid_out:
            self.call_after_refresh(self._scroll_to_cursor)
        return laid_out

    def _scroll_to_cursor(self) -> None:
        """Once the tree is laid out: bring the cursor's line into view."""
        tree = self.catalog_tree
        if not tree.size:
            self.call_after_refresh(self._scroll_to_cursor)
            return
        node = tree.cursor_node
        if node is not None and node.tree is tree:
            tree.scroll_to_node(node, animate=False)
        tree.refresh()  # (lines drawn before the layout were cut to the width of none)
        # The preview was measured before its box had a height (so not padded to it):
        # measured again now that it has one.
        find(self, "#catalog-preview", PreviewStatic).refresh(layout=True)

    def _show_title(self) -> None:
        """``Add to: <unit>``, and the search filter while one is active: it stays when
        another unit is selected (to add the same weapon to model after model), so the title
        says it is there; Esc in the search box clears it."""
        query = self.search.value.strip()
        text = Text(f"Add to: {self._target_name}")
        keep = 0
        if query:
            filtered = f" · filter '{query}'"  # as typed: no escaped \\ or "
            text.append(filtered, "yellow")
            keep = len(filtered)  # (shown whole: the head is cut on a narrow line)
        if self._title != text.plain:
            self._title = text.plain
            find(self, "#catalog-title", TitleStatic).set_title(text, keep)

    @property
    def title_text(self) -> str:
        """The pane's title as shown (fitted to its line: ``Add to: New Xenos - Or… ·
        filter 'Warboss'``)."""
        title = find(self, "#catalog-title", TitleStatic)
        width = title.size.width
        fitted = title.fitted(width) if width > 0 else None
        return fitted.plain if fitted is not None else self._title

    def _show_empty(self, query: str, found: bool) -> None:
        """Say so when the search matches nothing here (or nothing can be added here)."""
        static = find(self, "#catalog-empty", LiveStatic)
        if not self._options:
            text = "Nothing can be added here."
        elif query and not found:
            said = self.search.value.strip()
            text = f"No entry matches '{said}' here. (Esc clears the search.)"
        else:
            text = ""
        if self._empty_text != text:
            self._empty_text = text
            static.set_content(Text(text, "yellow") if text else "")
            static.display = bool(text)

    @staticmethod
    def _leaf_label(index: CatalogIndex, child: Child, info: OptionInfo) -> Text:
        label = Text(child.entry.name)
        cost = costs_text(index, info.costs) if info.costs else entry_cost(index, child.entry)
        if cost:
            label.append(f"  {cost}", "dim")
        count = info.limit.count_text
        if count:
            full = info.limit.maximum is not None and info.limit.selected >= info.limit.maximum
            label.append(f"  {count}", "yellow" if full else "cyan")
        return label

    def _section_label(self, index: CatalogIndex, child: Child) -> Text:
        """A section's line: the group (or category) with its limit and how many are chosen."""
        # The name is the line's first span: a line too wide is fitted by cutting it
        # (:meth:`CatalogTree._fit_heading`), whatever the name holds ("Campaign rules (part 4)").
        text = Text(style="bold")  # (all of it bold, the name a span of its own)
        text.append(self._section_name(index, child), "bold")
        limit: Limit | None = None
        if child.group is not None:
            g = child.group
            limit = self._group_limits.get(g.id)
            if limit is None:
                limit = Limit(0, g.min, g.max)
        else:
            cat = self._category(child)
            limit = self._slot_limits.get(cat) if cat else None
        if limit is not None:
            text.append(f" ({limit.range_text})")
            if limit.count_text:
                text.append(f" {limit.count_text}", "cyan")
        return text

    def _leaves(self) -> list[TreeNode[str | None]]:
        return [leaf for s in self.catalog_tree.root.children for leaf in s.children]

    @staticmethod
    def _category(child: Child) -> str | None:
        entry = child.entry
        return entry.primary_category or (entry.categories[0] if entry.categories else None)

    def _section(self, index: CatalogIndex, child: Child) -> str:
        """The key of the section an option goes in (its group, else its category)."""
        if child.group is not None:
            return f"group:{child.group.id}"
        return f"cat:{self._category(child) or ''}"

    def _section_name(self, index: CatalogIndex, child: Child) -> str:
        if child.group is not None:
            return child.group.name
        cat = self._category(child)
        return index.name_of(cat) if cat else "Entries"

    def highlighted(self) -> str | None:
        """The id of the option under the cursor, the one that adds it (the entry's id, or
        its link's: :meth:`show_options`; ``None`` on a section line)."""
        node = self.catalog_tree.cursor_node
        return node.data if node is not None else None

    def option(self, option_id: str) -> Child | None:
        """The option shown with ``option_id`` (:meth:`highlighted`), if it is shown here."""
        return self._by_id.get(option_id)

    def highlighted_section(self) -> tuple[str, Child] | None:
        """The section line under the cursor: its name and an option of it (``None`` on an
        entry line)."""
        node = self.catalog_tree.cursor_node
        if node is None or node.data is not None or self._index is None:
            return None
        for key, section in self._sections.items():
            if section is node and key in self._section_child:
                child = self._section_child[key]
                return self._section_name(self._index, child), child
        return None

    def first_match(self) -> str | None:
        leaves = self._leaves()
        return leaves[0].data if leaves else None

    def _show_preview(self, entry_id: str | None) -> None:
        static = find(self, "#catalog-preview", PreviewStatic)
        child = self._by_id.get(entry_id) if entry_id else None
        key: object = None
        info: OptionInfo | None = None
        group: Limit | None = None
        if child is not None and entry_id and self._index is not None:
            # What the preview shows, not the figures behind it: a count that changes
            # without showing (no limit) does not draw it again.
            info = self._priced(entry_id)
            group = self._group_limits.get(child.group.id) if child.group is not None else None
            key = self._preview_key(self._index, entry_id, child, info, group)
        if key == self._preview_id:
            return
        self._preview_id = key
        if child is None or self._index is None:
            static.set_content("")
            return
        static.set_content(preview(self._index, child, info, group, self._tables))
        if static.size.width > 0:  # (drawn now, at the box's width: not drawn ahead again)
            where = (static.size.width, static.visual_style.rich_style, static.kept_epoch)
            self._previews_drawn.add((key, where))

    def search_typed(self) -> None:
        """The search box's text changed: show its matches."""
        if self._index is not None and self.is_mounted:
            self._hold_collector()
            self._filter()

    def _hold_collector(self) -> None:
        """Keep Python's garbage collector out of the frame that shows a key's matches: it
        is paused until that frame is painted (or a quarter of a second at most), and
        collects after it, as it would have (the matches drawn make thousands of short-lived
        objects: a young-generation pass or two, 2-9 ms, fell inside most keys' frame).
        Textual pauses it likewise while a scroll is animated."""
        if self._collector_held or not gc.isenabled():
            return
        gc.disable()
        self._collector_held = True
        try:
            self.call_after_refresh(self._release_collector)
            self.set_timer(0.25, self._release_collector)
        except Exception:
            self._release_collector()
            raise

    def _release_collector(self) -> None:
        if self._collector_held:
            self._collector_held = False
            gc.enable()

    def on_unmount(self) -> None:
        self._release_collector()

    @on(Input.Changed, "#catalog-search")
    def _search_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.search_typed()  # (shown already, unless the text was set before mounting)

    @on(Input.Submitted, "#catalog-search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        entry_id = self.highlighted() or self.first_match()
        if entry_id:
            self.post_message(self.AddRequested(entry_id, self.target))

    @on(Tree.NodeHighlighted, "#catalog-tree")
    def _highlighted(self, event: Tree.NodeHighlighted[str | None]) -> None:
        event.stop()
        # The entry under the cursor now (keys typed since may have moved it on).
        self._show_preview(self.highlighted())

    @on(Tree.NodeSelected, "#catalog-tree")
    def _selected(self, event: Tree.NodeSelected[str | None]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.AddRequested(event.node.data, self.target))

    def action_leave_search(self) -> None:
        """Esc anywhere in the catalog (its search box, its tree): with a search typed, clear
        it and stay (the tree shows every option again); with none, leave the catalog."""
        if self.search.value:
            self.search.value = ""  # the tree shows every option again (Input.Changed)
            return
        self.post_message(self.Leave())

    def on_key(self, event: events.Key) -> None:
        if event.key == "down" and self.search.has_focus:
            event.stop()
            self.catalog_tree.focus()
