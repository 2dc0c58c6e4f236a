"""Widgets that repaint instead of laying out the whole screen when their content changes.

A Textual layout pass reflows every widget on the screen (a dozen milliseconds for the editor,
then a full repaint); an edit should not pay for it when no widget changes size. So:

* :class:`StableScroll` (for trees and option lists): lines added or removed change only the
  widget's scrollable area; the screen is laid out again only when a scrollbar has to appear
  or disappear;
* :class:`LiveStatic`: new content is painted in place, with a layout only when its height
  changes;
* :class:`StableFooter`: the key bar is built again only when its keys change;
* :class:`SteadySelect`: a drop-down whose choice changes is repainted, and laid out only
  when its label's height changes;
* :class:`SteadyButton`: a button disabled or enabled again takes the styles it had in that
  state before, without the stylesheet matched against it again;
* :class:`SizedByLayout` (:class:`LiveStatic`, :class:`Box`, :class:`Row`): a widget the layout
  has just resized does not ask for a second layout of the whole screen.

And widgets that show a change in the frame that shows its cause, not a frame or more later:
:class:`StableFooter` (the keys of the focus) and :class:`StableHeader` (the screen's title).

:class:`ChangedRegionsCompositor` paints a frame of a few changed places (a tree row, the
totals, a heading) by asking each widget only for the rows where it shows a changed cell (the
front-most widget there), not every widget within the rectangle around all of them for all
its lines; after a layout, it repaints what the layout changed, not every container whose
content grew or shrank.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from math import ceil
from typing import Any, TypeVar

from rich.cells import cell_len
from rich.console import RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual._compositor import ChopsUpdate, Compositor, ReflowResult
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.css.styles import RulesMap
from textual.geometry import Region, Size
from textual.map_geometry import MapGeometry
from textual.reactive import Reactive
from textual.renderables.blank import Blank
from textual.screen import Screen
from textual.scrollbar import ScrollBar
from textual.strip import Strip
from textual.visual import Visual, VisualType
from textual.widget import Widget
from textual.widgets import Button, Footer, Header, Input, Select, Static, Tree
from textual.widgets._footer import FooterKey
from textual.widgets._header import HeaderClock, HeaderClockSpace, HeaderIcon, HeaderTitle
from textual.widgets._select import (
    NonSelectableStatic,
    SelectCurrent,
    SelectOverlay,
    SelectType,
)

W = TypeVar("W", bound=Widget)


class ChangedRegionsCompositor(Compositor):
    """Textual's compositor, whose partial frames ask each widget only for the rows where it
    shows a changed cell.

    Textual's partial frame crops to the rectangle around every changed region and asks each
    widget meeting that rectangle for all its lines in it: a count +1 changes a row of the
    roster tree, the totals, the details' heading and count and a catalog row, which span the
    screen, so every one of the ~60 widgets on it (the details' slots, the catalog, the
    scrollbars, every container behind them) drew its lines for a frame that shows a few rows
    (about 440 lines drawn for ten rows sent). Only the changed regions' cells are sent to the
    terminal, and each of them shows the front-most widget covering it. So the widgets are
    taken front to back, each changed cell is given to the first one covering it, and a widget
    is asked only for the rows where it was given a cell (in runs of rows next to each other):
    a container whose changed cells all lie under its children draws nothing, and the roster
    tree draws its changed rows, not its 30. What is painted is the same cell for cell. A full
    frame, or one of more than :attr:`MAX_REGIONS` regions, is Textual's own.

    After a layout, Textual marks for the frame the whole of every widget whose geometry
    changed in any way: a unit of other choice groups selected, a quick fix or a drop-down
    choice that changes the details' height changed the details pane's virtual size, and its
    45 rows were drawn again, by it and by every widget in front of it. A container that
    paints the same cells as before (:func:`paints_the_same`) is left out; what moved inside
    it is marked by its children's own changes.
    """

    MAX_REGIONS = 64

    _changed: list[Region] | None = None

    #: Widgets asked for lines, and lines asked for, by partial frames (a test reads them).
    widgets_drawn = 0
    lines_drawn = 0
    #: Widgets whose geometry a layout changed and whose region was not marked dirty for it
    #: (:func:`paints_the_same`; a test reads it).
    regions_kept_clean = 0
    #: Between a layout's arrangement and its frame (see :meth:`paint_now`).
    laying_out = False

    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        # Textual marks dirty the whole of every widget whose geometry changed in any field;
        # the regions of the containers that paint the same after it are taken back (see
        # paints_the_same), the rest (and anything marked before the layout) kept.
        try:
            dirty: set[Region] = self._dirty_regions
            old_map = self._full_map
        except AttributeError:  # another Textual version: its own marking
            return super().reflow(parent, size)
        before = set(dirty)
        result = super().reflow(parent, size)
        self.laying_out = True  # (until the layout's frame: see paint_now)
        # The whole map was arranged just now, from the widgets as they are. A widget that
        # asked for a repaint while hidden (a slot about to be shown) had it marked stale
        # before that; left so, the first widget to read its region after the layout (each
        # one resized reads it) had the whole screen arranged a second time.
        self._full_map_invalidated = False
        if size.region in before or dirty == before:
            return result  # (a full frame already, or nothing changed)
        new_map = self._full_map
        # Textual's changes, less the containers that paint what they painted.
        same = {
            widget
            for widget, geometry in new_map.items()
            if (old := old_map.get(widget)) is not None
            and old != geometry
            and paints_the_same(widget, old, geometry)
        }
        self.regions_kept_clean += len(same)
        if not same:
            return result
        changes = new_map.items() ^ old_map.items()
        dirty.clear()
        dirty.update(before)
        dirty.update(
            region
            for widget, geometry in changes
            if widget not in same and (region := geometry.clip.intersection(geometry.region))
        )
        return result

    def render_update(
        self,
        full: bool = False,
        screen_stack: list[Screen[Any]] | None = None,
        simplify: bool = False,
    ) -> RenderableType | None:
        self.laying_out = False  # (the layout's frame: what it marked is painted now)
        return super().render_update(full, screen_stack, simplify)

    def paint_now(self, widget: Widget) -> bool:
        """During a layout (after the arrangement, before its frame), mark what ``widget``
        has asked to repaint for the layout's own frame, so that it is not left for a frame
        of its own a moment later, the layout's frame showing it as it was. Whether it did
        (outside a layout, the widget's request goes the usual way)."""
        if not self.laying_out or widget not in self.visible_widgets:
            return False
        self.update_widgets({widget})
        widget._repaint_required = False  # (nothing left for a frame of its own)
        return True

    def render_partial_update(self) -> ChopsUpdate | None:
        dirty = getattr(self, "_dirty_regions", None)
        self._changed = list(dirty) if dirty else None
        try:
            return super().render_partial_update()
        finally:
            self._changed = None

    def _get_renders(
        self, crop: Region | None = None
    ) -> Iterable[tuple[Region, Region, list[Strip]]]:
        changed = self._changed
        if crop is None or not changed or len(changed) > self.MAX_REGIONS:
            yield from super()._get_renders(crop)
            return
        # The changed cells not yet given to a widget, row by row: sorted, disjoint spans.
        screen = self.size.region
        open_cells: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in self._regions_to_spans(r.intersection(screen) for r in changed):
            if x2 > x1:
                open_cells.setdefault(y, []).append((x1, x2))
        for widget, (region, clip) in self.visible_widgets.items():
            # (in the map's order: front-most first, as Textual's chops are filled)
            if not open_cells:
                return
            shown = region.intersection(clip)
            left, right = shown.x, shown.right
            if not (shown.width and shown.height):
                continue
            rows: list[int] = []
            top, bottom = shown.y, shown.bottom
            for y in [y for y in open_cells if top <= y < bottom]:
                spans = open_cells[y]
                if not any(x1 < right and x2 > left for x1, x2 in spans):
                    continue
                rows.append(y)
                rest = []
                for x1, x2 in spans:
                    if x1 < left:
                        rest.append((x1, min(x2, left)))
                    if x2 > right:
                        rest.append((max(x1, right), x2))
                if rest:
                    open_cells[y] = rest
                else:
                    del open_cells[y]
            rows.sort()  # (the rows of a widget, in runs)
            start = 0
            while start < len(rows):
                end = start + 1
                while end < len(rows) and rows[end] == rows[end - 1] + 1:
                    end += 1
                first, height = rows[start], end - start
                self.widgets_drawn += 1
                self.lines_drawn += height
                yield (
                    region,
                    Region(left, first, shown.width, height),
                    widget.render_lines(
                        Region(left - region.x, first - region.y, shown.width, height)
                    ),
                )
                start = end


def paints_the_same(widget: Widget, old: MapGeometry, new: MapGeometry) -> bool:
    """Whether ``widget``, placed at ``old`` and now at ``new`` by a layout, paints the same
    cells: a container whose content grew or shrank (its virtual size, or where it lies in
    its own container's content) but that covers the same cells, in the same order, behind
    the same clip, with the same room for its children.

    A container paints only its background, border and padding, in its own region; what
    moved inside it is marked by its children's own changes (their old and new regions), and
    a scrollbar shown or hidden is a widget of the map added or removed. Whatever else could
    paint differently is marked, as Textual marks it: a widget that draws its own content
    (whose lines may be fitted to its virtual size or scrollbars), a container of a class
    that draws its own content, a container drawing keylines around its children (they
    follow the children, outside their regions), and any change of region, order, clip or
    container size.
    """
    return (
        old.region == new.region
        and old.order == new.order
        and old.clip == new.clip
        and old.container_size == new.container_size
        and widget.is_container
        and draws_background_only(widget)
    )


#: What a widget draws itself with: a container that draws more than its background (a class
#: of its own drawing) may draw something that follows its virtual size.
_DRAWING = ("render", "render_line", "render_lines", "_render_content")


def draws_background_only(widget: Widget) -> bool:
    """Whether ``widget``, a container, draws only its background, border and padding (as
    Textual's containers do): nothing that follows where its children are (keylines), nor a
    drawing of its class's own."""
    return str(widget.styles.keyline[0]) == "none" and all(
        getattr(type(widget), name) in (getattr(Widget, name), _SAME_DRAWING.get(name))
        for name in _DRAWING
    )


#: Methods of ours that draw what Textual's draw, faster (a container's background line).
_SAME_DRAWING: dict[str, Any] = {}


def find(owner: Widget, selector: str, expect: type[W]) -> W:
    """``owner.query_one(selector, expect)``, remembered: the editor's areas look up the same
    widgets at every edit, and a query walks the screen's widgets each time."""
    cache: dict[str, Widget] = owner.__dict__.setdefault("_found", {})
    widget = cache.get(selector)
    if widget is None or not widget.is_attached or not isinstance(widget, expect):
        widget = cache[selector] = owner.query_one(selector, expect)
    return widget


def refresh_rows(widget: Widget, changed: list[bool], width: int | None = None) -> None:
    """Repaint the rows (of the widget's content) marked as changed, runs of them at once:
    the rows beside the scrollbar, not the scrollbar (a changed row does not change it, and
    the frame would ask it for its lines of those rows too)."""
    if width is None:
        width = widget.scrollable_content_region.width
    y = 0
    while y < len(changed):
        if not changed[y]:
            y += 1
            continue
        end = y
        while end < len(changed) and changed[end]:
            end += 1
        widget.refresh(Region(0, y, width, end - y))
        y = end


def _fits(virtual: int, window: int) -> bool:
    """Whether all of the content shows (the scrollbar's thumb fills its track)."""
    return 0 < virtual <= window


def fit_scrollbars(widget: Widget, virtual_size: Size) -> None:
    """Textual's ``Widget._scroll_update``: the scrollbars shown or hidden, fitted to the
    content's new size, and the scroll offsets kept within it; a scrollbar is repainted only
    when it may look different.

    Textual repaints a scrollbar whenever the area behind it changes size, which costs as
    much as repainting the lines beside it; a bar whose thumb fills the track before and after
    (everything fits) looks the same and is left alone. (A scroll offset brought back within
    the content repaints the bar itself, by its position.) Raises ``AttributeError`` on
    another Textual version."""
    w: Any = widget
    w._refresh_scrollbars()
    width, height = w.container_size
    bars = []
    if w.show_vertical_scrollbar and w.styles.scrollbar_size_vertical:
        bars.append(
            (w.vertical_scrollbar, virtual_size.height, height - w.scrollbar_size_horizontal)
        )
    if w.show_horizontal_scrollbar and w.styles.scrollbar_size_horizontal:
        bars.append((w.horizontal_scrollbar, virtual_size.width, width - w.scrollbar_size_vertical))
    for bar, virtual, window in bars:
        before = (bar.window_virtual_size, bar.window_size)
        bar.set_reactive(ScrollBar.window_virtual_size, virtual)
        bar.set_reactive(ScrollBar.window_size, window)
        if not (_fits(*before) and _fits(virtual, window)) and before != (virtual, window):
            repaint_bar(bar, before, (virtual, window))
    w.scroll_x = w.validate_scroll_x(w.scroll_x)
    w.scroll_y = w.validate_scroll_y(w.scroll_y)


def repaint_bar(bar: ScrollBar, before: tuple[int, int], after: tuple[int, int]) -> None:
    """Repaint the cells of ``bar`` that differ between its content's size and window
    ``before`` and ``after`` (a thumb grown by a line changes a cell or two at its end, not
    the 45 rows of the details pane's bar); the whole bar when its drawing is not Textual's
    (another renderer of the same kind is compared as it draws)."""
    old = _bar_cells(bar, *before)
    new = _bar_cells(bar, *after)
    if old is None or new is None or len(old) != len(new):
        bar.refresh()
        _paint_now(bar)
        return
    thickness = bar.size.width if bar.vertical else bar.size.height
    cell = 0
    while cell < len(new):
        if old[cell] == new[cell]:
            cell += 1
            continue
        end = cell
        while end < len(new) and old[end] != new[end]:
            end += 1
        if bar.vertical:
            bar.refresh(Region(0, cell, thickness, end - cell))
        else:
            bar.refresh(Region(cell, 0, end - cell, thickness))
        cell = end
    _paint_now(bar)


def _paint_now(widget: Widget) -> None:
    """What ``widget`` asked to repaint goes into the frame of the layout under way, if one
    is (:meth:`ChangedRegionsCompositor.paint_now`): a scrollbar fitted to the content the
    layout has just sized shows its new thumb in the frame that shows the content."""
    try:
        compositor = widget.screen._compositor
    except Exception:  # (not on a screen)
        return
    if isinstance(compositor, ChangedRegionsCompositor):
        compositor.paint_now(widget)


def _bar_cells(bar: ScrollBar, virtual: int, window: int) -> list[tuple[str, Any]] | None:
    """What each cell along ``bar`` shows for a content of ``virtual`` cells in a window of
    ``window`` (as ``ScrollBar._render_bar`` asks its renderer), or ``None`` if the bar is
    not drawn that way."""
    try:
        plain = bar.screen.styles.scrollbar_color.a != 0  # (else ScrollBar.render draws another)
    except Exception:  # (not on a screen)
        return None
    if not plain or (
        type(bar).render is not ScrollBar.render
        or type(bar)._render_bar is not ScrollBar._render_bar
    ):
        return None
    length = bar.size.height if bar.vertical else bar.size.width
    if length <= 0:
        return None
    segments = bar.renderer.render_bar(
        size=length,
        virtual_size=ceil(virtual),
        window_size=ceil(window if window < virtual else 0),
        position=bar.position,
        thickness=1,
        vertical=bar.vertical,
    ).segments
    cells = [(segment.text, segment.style) for segment in segments if not segment.control]
    if not bar.vertical:
        cells = [cell for cell in cells if cell[0] != "\n"]
    return cells[:length]


class FittedScrollbars:
    """Mixin (before the Textual base class): scrollbars fitted to the content's new size by
    :func:`fit_scrollbars`, each repainted only where it looks different."""

    def _scroll_update(self, virtual_size: Size) -> None:
        try:
            fit_scrollbars(self, virtual_size)  # type: ignore[arg-type]
        except AttributeError:  # another Textual version
            super()._scroll_update(virtual_size)  # type: ignore[misc]


class StableScroll(FittedScrollbars):
    """Mixin for a scroll view of fixed size (put it before the Textual base class)."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

    def watch_virtual_size(self, size: Size) -> None:
        # Scrollbar sizes follow; if one has to be shown or hidden, Textual lays out then.
        widget: Any = self
        update = getattr(widget, "_scroll_update", None)
        if update is None:  # another Textual version: fall back to a layout
            widget.refresh(layout=True)
            return
        update(size)
        widget.refresh()

    def _get_scrollable_region(self, region: Region) -> Region:
        # The layout places the vertical scrollbar as it was last decided, and decides again
        # only once it has given the widget its size, asking for another layout if that
        # changes it: a list mounted under an "always" rule that the width then set to "when
        # needed" came to its first layout with a scrollbar it did not need, and that frame
        # showed lines fitted to the whole width under the bar, cut two columns short. It is
        # decided here, for the region this layout gives, so that the scrollbar this layout
        # draws is the one the lines are fitted beside.
        widget: Any = self
        try:
            overflow = widget.styles.overflow_y
            if overflow == "auto":
                show = widget.virtual_size.height > region.height - widget.scrollbar_size_horizontal
            else:
                show = overflow == "scroll"
            if show != widget.show_vertical_scrollbar:
                widget.set_reactive(Widget.show_vertical_scrollbar, show)
                if widget._vertical_scrollbar is not None or show:
                    widget.vertical_scrollbar.display = show
        except AttributeError:  # another Textual version
            pass
        return super()._get_scrollable_region(region)  # type: ignore[misc,no-any-return]

    def _invalidate(self) -> None:
        # Tree asks for a layout whenever a node is added or removed; a repaint is enough for
        # a tree whose own size is set by the layout around it. (Tree internals of Textual
        # 8; anything else falls back to Tree's own method.)
        widget: Any = self
        try:
            widget._clear_line_cache()
            widget._updates += 1
            widget.root._reset()
        except AttributeError:
            Tree._invalidate(widget)
            return
        if not getattr(widget, "_syncing", False):  # a sync repaints the rows that changed
            widget.refresh()


class LabelWidths:
    """Mixin for a Textual ``Tree`` (put it before ``Tree``): label widths measured without
    rendering the labels (Tree renders each label to measure it).

    The lines themselves are drawn by Tree, through its own line cache, which is keyed by the
    tree's and the nodes' change counters and so is cleared by any change. (A cache of drawn
    lines keyed by node ids showed the options of another unit after the catalog was rebuilt:
    Tree numbers its nodes from 0 again after ``clear()``.)
    """

    def get_label_width(self, node: Any) -> int:
        # What Tree.render_label would measure, without rendering: the arrow and the label.
        tree: Any = self
        icon = ""
        if node.allow_expand:
            icon = tree.ICON_NODE_EXPANDED if node.is_expanded else tree.ICON_NODE
        label = node.label
        return cell_len(icon) + (label.cell_len if isinstance(label, Text) else cell_len(label))


def remeta(strip: Strip, line: int, node_id: int) -> Strip:
    """A tree line drawn for another line number and node, told its own (Tree marks each
    segment with the line, and the label with the node, for clicks and hovers)."""
    segments = []
    for text, style, control in strip:
        if style is not None and style._meta:
            meta = style.meta
            new: dict[str, Any] = {}
            if "line" in meta:
                new["line"] = line
            if "node" in meta:
                new["node"] = node_id
            if new:
                style = style + Style.from_meta(new)
        segments.append(Segment(text, style, control))
    return Strip(segments, strip.cell_length)


class ContentLines(LabelWidths):
    """Mixin for a Textual ``Tree`` (before ``Tree``): a line drawn once is reused wherever
    the same content is drawn again (a unit added moves every line below it by one, and Tree
    would draw them all again).

    A line is keyed by *everything* Tree's drawing reads, by value: the label's text, spans
    and style, the arrow (expandable, expanded), the guides (each node's place as last,
    hover and selection along the path), whether the line is the last, the cursor and the
    hover, the widths and the widget's state and style. Never by node identity: Tree numbers
    its nodes from 0 again after ``clear()``, and a cache keyed by node ids showed another
    unit's options (issue 12). The line and node numbers the strip carries are rewritten.
    (Tree internals of Textual 8; anything missing falls back to Tree's own drawing.)
    """

    #: Lines drawn by Tree (not reused) since mounting (a benchmark may read it).
    lines_drawn = 0
    #: :meth:`line_state` looked up once for a pass over the rows (:meth:`row_keys`).
    _pass_line_state: tuple[int, int, int, Any, bool, bool, int, int, int] | None = None

    def line_state(self) -> tuple[int, int, int, Any, bool, bool, int, int, int]:
        """What every line's drawing reads of the widget itself: its widths (the labels may
        be fitted to the content width), pseudo-classes, focus, guides, cursor and hover
        lines. (A tree may look it up once per drawing pass: :class:`CatalogTree`.)"""
        tree: Any = self
        return (
            tree.size.width,
            tree.scrollable_content_region.width,
            tree.virtual_size.width,
            tree._pseudo_class_state,  # (set at the first drawing; before it, no key)
            tree.has_focus,
            tree.show_guides,
            tree.guide_depth,
            tree.cursor_line,
            tree.hover_line,
        )

    def line_key(self, y: int, x1: int, x2: int, base_style: Style) -> tuple[Any, ...] | None:
        """What line ``y`` shows, by value, and the node it is drawn for (``None``: past the
        last line, or another Textual's tree)."""
        tree: Any = self
        try:
            lines = tree._tree_lines
            if y >= len(lines):
                return None
            line = lines[y]
            path = line.path
            node = path[-1]
            label = node._label
            state = self._pass_line_state
            (width, content_width, virtual_width, pseudo, focus, guides, depth, cursor, hover) = (
                self.line_state() if state is None else state
            )
            return (
                tuple((n._hover, n._selected, n.is_last) for n in path),
                label.plain,
                tuple(label.spans),
                label.style,
                label.end,
                node._allow_expand,
                node.is_expanded,
                line.last,
                y == cursor,
                y == hover,
                hover >= 0,
                x1,
                x2,
                width,
                content_width,
                virtual_width,
                pseudo,
                focus,
                base_style,
                guides,
                depth,
            ), node._id
        except AttributeError:
            return None

    def row_keys(self) -> list[object] | None:
        """What each row on screen shows (see :meth:`line_key`), with where the view is
        scrolled; two equal lists draw the same strips. ``None``: not comparable."""
        tree: Any = self
        if not tree.is_mounted or tree.size.height <= 0:
            return None
        scroll_x, scroll_y = tree.scroll_offset
        width = tree.size.width
        style = tree.rich_style
        keys: list[object] = [(scroll_x, scroll_y, width, style)]
        # The widget's own state is the same for every row of one pass: looked up once.
        try:
            self._pass_line_state = self.line_state()
        except AttributeError:  # (not drawn yet: no key, see line_key)
            self._pass_line_state = None
        try:
            for row in range(tree.size.height):
                keys.append(self.line_key(row + scroll_y, scroll_x, scroll_x + width, style))
        finally:
            self._pass_line_state = None
        return keys

    def _render_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        tree: Any = self
        found = self.line_key(y, x1, x2, base_style)
        if found is None:
            return Tree._render_line(tree, y, x1, x2, base_style)
        key, node_id = found
        drawn: dict[tuple[Any, ...], tuple[Strip, int, int]] = self.__dict__.setdefault(
            "_drawn", {}
        )
        hit = drawn.get(key)
        if hit is not None:
            strip, at, drawn_id = hit
            if (at, drawn_id) == (y, node_id):
                return strip
            strip = remeta(strip, y, node_id)
        else:
            strip = self.draw_line(y, x1, x2, base_style)
            self.lines_drawn += 1
        if len(drawn) > self.lines_kept():
            drawn.clear()
        drawn[key] = (strip, y, node_id)
        return strip

    def draw_line(self, y: int, x1: int, x2: int, base_style: Style) -> Strip:
        """Line ``y`` drawn afresh (a tree may draw its lines itself: what Tree draws)."""
        return Tree._render_line(self, y, x1, x2, base_style)  # type: ignore[arg-type]

    def lines_kept(self) -> int:
        """How many drawn lines are kept (all are dropped past that)."""
        tree: Any = self
        return 256 + 4 * int(tree.size.height)

    def notify_style_update(self) -> None:
        self.__dict__.pop("_drawn", None)
        super().notify_style_update()  # type: ignore[misc]

    def _refresh_line(self, line: int) -> None:
        self.repaint_lines((line,))

    def repaint_lines(self, lines: Iterable[int]) -> None:
        """Repaint the tree's ``lines`` (numbers in the whole tree, not the view) in one
        refresh, beside the vertical scrollbar. Tree repaints a changed line across the
        widget's whole width, the scrollbar's columns too, and the frame then asks the
        scrollbar for that row (three of the catalog's rows at a 40k count +1); the scrollbar
        repaints itself when it changes (the view scrolled, lines added or removed)."""
        tree: Any = self
        try:
            width = tree.scrollable_content_region.width
            top = tree.scroll_offset.y
        except AttributeError:  # another Textual version
            width = 0
        if width <= 0:  # (not laid out yet)
            for line in lines:
                Tree._refresh_line(tree, line)
            return
        regions = [Region(0, line - top, width, 1) for line in lines]
        if regions:
            tree.refresh(*regions)


class SizedByLayout(FittedScrollbars):
    """Mixin for a widget whose size, and virtual size, only the layout sets: a text, or a
    container of widgets (put it before the Textual base class).

    Textual lays the screen out again whenever a widget's virtual size changes, and a layout
    that resizes such a widget changes it: every layout that moved a line of the details pane
    (a unit of other choice groups selected, a quick fix) was followed by a second one of the
    whole screen, with its frame, that placed everything where the first had; and the widget
    asked for a repaint of all of it, which the layout's frame had painted already (a frame
    more, of the whole details pane). The first layout has placed the widget and what it holds
    at that size already, and marks it for its frame where it moved or changed size (a
    container whose content grew or shrank and that covers the same cells, nowhere: what
    moved inside it is marked by its children, see :class:`ChangedRegionsCompositor`). A
    container that draws keylines around its children is still drawn again. A container that
    scrolls still has its scrollbars fitted to the new size (Textual does it beside the
    layout), each repainted only where it looks different (:func:`fit_scrollbars`), and one
    that has to show or hide a scrollbar asks for the layout that needs then.

    Not for a scroll view that sets its own virtual size from its content (a tree: see
    :class:`StableScroll`).
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)

    #: A container's background line (see :meth:`render_line`) and the width it was built at.
    _blank_line: tuple[int, Strip] | None = None

    def watch_virtual_size(self) -> None:
        # A container that draws where its children are (keylines around them) draws its
        # lines again when they move inside it: its virtual size changes with them.
        widget: Any = self
        if widget.is_container and not draws_background_only(widget):
            widget.refresh()

    def render_line(self, y: int) -> Strip:
        """A container's content line: its background (Textual's ``Blank``), the same on
        every line. Textual builds every line of it whenever it is repainted (45 for the
        details pane, as many for its groups box) to give a frame the one or two it asks for
        (the rows beside a choice that changed): the line is built once, as Textual builds
        each, and given for every row until the widget is repainted or resized."""
        widget: Any = self
        visual = widget._render() if widget.is_container and not widget.BLANK else None
        if type(visual) is not Blank:
            return super().render_line(y)  # type: ignore[misc,no-any-return]
        width = widget.size.width
        kept = self._blank_line
        if kept is None or widget._dirty_regions or kept[0] != width:
            strips = Visual.to_strips(widget, visual, width, 1, widget.visual_style)
            line = strips[0] if strips else Strip.blank(width, widget.visual_style.rich_style)
            kept = self._blank_line = (width, line)
            widget._dirty_regions.clear()  # (as Textual's rendering of the lines does)
        return kept[1]


_SAME_DRAWING["render_line"] = SizedByLayout.render_line


class Box(SizedByLayout, Vertical):
    """A :class:`~textual.containers.Vertical` that does not lay the screen out twice."""


class Row(SizedByLayout, Horizontal):
    """A :class:`~textual.containers.Horizontal` that does not lay the screen out twice."""


class ScrollBox(SizedByLayout, VerticalScroll):
    """A :class:`~textual.containers.VerticalScroll` that does not lay the screen out twice."""


class SteadyInput(Input):
    """A one-line text field whose size the layout fixes (the width its pane gives it).

    Textual's field sets its scrollable width again whenever its text changes (a key typed, or
    a unit selected whose name, count or notes differ), which lays out the whole screen, and
    after every layout that resizes it. Its size does not depend on its text, so a repaint is
    enough; the text still scrolls within the field as the cursor moves (the field keeps its
    scrollable width, it only asks for no layout when it changes).
    """

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)


class LiveStatic(SizedByLayout, Widget):
    """Text (or any Rich renderable) drawn line by line; new content repaints only the lines
    that changed, and lays out the screen only when its height changes.

    Drawn through Rich directly: a line of Rich text costs a fraction of what Textual's
    :class:`~textual.widgets.Static` spends turning it into its own content and wrapping it
    again, which counts when the totals and the details change at every edit. Strings are
    shown as they are (no markup).
    """

    DEFAULT_CSS = """
    LiveStatic {
        height: auto;
    }
    """

    def __init__(
        self,
        content: RenderableType = "",
        *,
        name: str | None = None,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._content: RenderableType = content
        self._drawn: tuple[int, list[Strip]] | None = None
        self._style: Style | None = None
        # Lines of each paragraph of text, by what it says and the width: the values of a unit
        # change a line or two at an edit, and the other paragraphs are not wrapped again.
        self._paragraphs: dict[tuple[Any, ...], list[Strip]] = {}

    @property
    def content(self) -> RenderableType:
        return self._content

    @property
    def plain(self) -> str:
        """The content as plain text (tests and screen readers of the code read it)."""
        content = self._content
        if isinstance(content, str):
            return content
        if isinstance(content, Text):
            return content.plain
        return "\n".join(strip.text.rstrip() for strip in self._lines(max(self.size.width, 80)))

    def _is_empty(self) -> bool:
        content = self._content
        return (isinstance(content, str) and not content) or (
            isinstance(content, Text) and not content.plain
        )

    def _lines(self, width: int) -> list[Strip]:
        drawn = self._drawn
        if drawn is not None and drawn[0] == width:
            return drawn[1]
        style = self._style
        if style is None:
            style = self._style = self.visual_style.rich_style
        lines: list[Strip] = []
        if not self._is_empty() and width > 0:
            content = self._content
            renderable = Text(content) if isinstance(content, str) else content
            if isinstance(renderable, Text) and "\n" in renderable.plain:
                paragraphs: list[RenderableType] = list(renderable.split("\n", allow_blank=True))
            else:
                paragraphs = [renderable]
            if len(self._paragraphs) > 512:
                self._paragraphs.clear()
            for para in paragraphs:
                key = (
                    (para.plain, tuple(para.spans), para.style, para.justify, para.overflow)
                    if isinstance(para, Text)
                    else None
                )
                found = self._paragraphs.get((width, key)) if key is not None else None
                if found is None:
                    found = self._draw(para, width, style)
                    if key is not None:
                        self._paragraphs[(width, key)] = found
                lines.extend(found)
        self._drawn = (width, lines)
        return lines

    def _draw(self, renderable: RenderableType, width: int, style: Style) -> list[Strip]:
        console = self.app.console
        options = console.options.update(width=width, height=None, highlight=False)
        return [
            Strip(line, width)
            for line in console.render_lines(renderable, options, style=style, pad=True)
        ]

    def render_lines(self, crop: Region) -> list[Strip]:
        style = self.visual_style.rich_style  # cached by Textual until a style changes
        if style != self._style:
            self._style = style
            self._drawn = None
            self._paragraphs.clear()
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        lines = self._lines(width)
        if y < len(lines):
            return lines[y]
        return Strip.blank(width, self._style or self.visual_style.rich_style)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._lines(width))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        if self._is_empty():
            return 0
        content = self._content
        renderable = Text(content) if isinstance(content, str) else content
        console = self.app.console
        return console.measure(renderable, options=console.options).maximum

    def notify_style_update(self) -> None:
        self._drawn = None
        self._style = None
        self._paragraphs.clear()
        super().notify_style_update()

    def update(self, content: RenderableType = "") -> None:
        """Like :meth:`textual.widgets.Static.update` (a full layout); prefer
        :meth:`set_content`."""
        self._content = content
        self._drawn = None
        self.refresh(layout=True)

    def set_content(self, content: RenderableType) -> None:
        """Show ``content``: the lines that differ are repainted, the screen is laid out
        again only if the number of lines changed (and the height follows the content)."""
        width = self.size.width
        if width <= 0 or not self.is_mounted:
            self.update(content)
            return
        before = self._lines(width)
        self._content = content
        self._drawn = None
        after = self._lines(width)
        rule = self.styles.height
        if len(before) != len(after) and (rule is None or rule.is_auto):
            self.refresh(layout=True)
            return
        rows = max(len(before), len(after))
        refresh_rows(
            self,
            [y >= len(before) or y >= len(after) or before[y] != after[y] for y in range(rows)],
            width,
        )


def update_in_place(label: Static, content: VisualType, layout: bool) -> bool:
    """``Static.update(content)``, with the screen laid out again only when the label's size
    may change: its height at its width differs, or its width (or that of an ancestor its
    size reaches) follows its content (Textual's labels lay the whole screen out at every
    new text: about 10 ms on the 40k editor). Whether a layout was asked for."""
    size = label.size
    if not (layout and label.is_mounted and size.width > 0 and _width_is_set(label)):
        Static.update(label, content, layout=layout)
        return layout
    Static.update(label, content, layout=False)
    height = label.styles.height
    if height is not None and not height.is_auto:
        return False  # (its height is set: the text cannot change its size)
    if label.get_content_height(size, label.app.size, size.width) != size.height:
        label.refresh(layout=True)
        return True
    return False


def _width_is_set(widget: Widget) -> bool:
    """Its width, and that of each ancestor whose size follows its content, is set by the
    layout around it, not by the text."""
    node: Any = widget
    while isinstance(node, Widget):
        width = node.styles.width
        if width is not None and width.is_auto:
            return False
        if not node.styles.auto_dimensions:
            return True
        node = node.parent
    return True


class SteadyLabel(NonSelectableStatic):
    """A label whose new text is repainted in place (:func:`update_in_place`): a
    drop-down's choice."""

    def update(self, content: VisualType = "", *, layout: bool = True) -> None:
        update_in_place(self, content, layout)


class SteadySelectCurrent(SelectCurrent):
    """What a closed :class:`SteadySelect` shows: its label a :class:`SteadyLabel`."""

    def compose(self) -> ComposeResult:
        yield SteadyLabel(self.placeholder, id="label")
        yield NonSelectableStatic("▼", classes="arrow down-arrow")
        yield NonSelectableStatic("▲", classes="arrow up-arrow")


class SteadySelect(Select[SelectType]):
    """A ``Select`` whose choice, changed, is repainted in place, with a layout of the screen
    only when the label's height changes (:class:`SteadyLabel`)."""

    def compose(self) -> ComposeResult:
        yield SteadySelectCurrent(self.prompt)
        yield SelectOverlay(type_to_search=self._type_to_search).data_bind(compact=Select.compact)


#: :class:`SteadyButton` reuses the styles of a state it was in before (False: Textual's
#: restyle every time; a benchmark's "before").
STEADY_BUTTONS = True


class SteadyButton(Button):
    """A button whose restyle (disabled or enabled again, focused, hovered, a class changed)
    reuses the styles the stylesheet gave it the last time it was in the same state in the
    same place: its own and every ancestor's type, id, classes and pseudo-classes, under the
    same rules. The count's − and + are disabled and enabled again as the count reaches or
    leaves a bound; Textual matched every rule of the stylesheet against the button each time
    (about 1 ms of a 40k count +1). The styles set are the ones the stylesheet computed for
    that state, so the button looks as Textual's would."""

    #: States kept, at most (a button takes a handful).
    KEPT = 16

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rules_of: dict[tuple[object, ...], RulesMap] = {}
        self._rules_from: object = None
        #: Restyles served from a state kept (a test reads it).
        self.restyles_kept = 0

    def _state_key(self) -> tuple[object, ...]:
        return tuple(
            (type(node), node.id, frozenset(node.classes), frozenset(node.get_pseudo_classes()))
            for node in self.css_path_nodes
        )

    def update_node_styles(self, animate: bool = True) -> None:
        try:
            app = self.app
            stylesheet = app.stylesheet
        except Exception:  # no app (yet, or any more): as Textual does
            super().update_node_styles(animate=animate)
            return
        if not STEADY_BUTTONS or not self.is_mounted or self._nodes:
            app.update_styles(self, animate=animate)
            return
        rules_now = stylesheet.rules
        if rules_now is not self._rules_from:  # another stylesheet (a theme): start again
            self._rules_of.clear()
            self._rules_from = rules_now
        key = self._state_key()
        rules = self._rules_of.get(key)
        if rules is not None:
            self.restyles_kept += 1
            base = self.styles.base
            had = base._rules
            if "transitions" in rules or "transitions" in had:
                stylesheet.replace_rules(self, rules, animate=animate)
            else:  # only the rules that differ are set (each set refreshes the button)
                changed = [k for k in had.keys() | rules.keys() if had.get(k) != rules.get(k)]
                for name in changed:
                    setattr(base, name, rules.get(name))
                if changed:
                    self.notify_style_update()
            stylesheet._process_component_classes(self)
            return
        found: dict[tuple[object, ...], RulesMap] = {}
        stylesheet.apply(self, animate=animate, cache=found)
        if len(found) == 1:  # (none where the rules read its siblings: not kept)
            if len(self._rules_of) >= self.KEPT:
                self._rules_of.clear()
            self._rules_of[key] = next(iter(found.values()))


class StableFooter(Footer):
    """A footer whose key widgets are filled in place, in the same frame as the focus move
    that changes them.

    Textual's footer throws away and composes its key widgets whenever the screen's bindings
    may have changed (every focus move, and twice around every dialog), after the next
    repaint: about a tenth of a second each on a busy machine, and the frame that showed a
    loaded roster for the first time showed the keys of the loading screen, the editing keys
    following half a second to a second later. This one composes a row of key widgets once
    (more than any area of the builder shows, the unused ones hidden) and, when the keys to
    show change, writes them into those widgets at once: the next frame, the one that shows
    the new focus, shows its keys. Only a screen with more keys than the row holds composes
    again (a frame later, as Textual's own). While another screen is on top of its own, it
    waits (the keys are compared again when the focus comes back). Binding groups (which the
    builder does not use) are shown as separate keys."""

    #: Key widgets composed at first (the editor's busiest area shows a dozen keys).
    SLOTS = 20

    _shown: tuple[Any, ...] | None = None
    #: A new set of keys is being composed (asked for and not mounted yet).
    _composing = False
    #: Called once the keys being composed are shown (see :meth:`after_keys`).
    _waiting: list[tuple[Callable[[], object], Callable[[], bool] | None]] | None = None
    #: Times the key widgets were composed (tests read it).
    compositions = 0
    #: How many of the key widgets show a key (the others are hidden).
    _filled = 0

    def on_mount(self) -> None:
        # (After Footer's own handler, which subscribes to the screen's bindings by a
        # message, a message later than the focus move that changes them.)
        self.call_next(self._follow_bindings)

    def _follow_bindings(self) -> None:
        """Be told of a change of the screen's bindings at once, within the focus move."""
        signal = self.screen.bindings_updated_signal
        signal.unsubscribe(self)
        signal.subscribe(self, self.bindings_changed, immediate=True)
        self.bindings_changed(self.screen)

    def after_keys(
        self, callback: Callable[[], object], ready: Callable[[], bool] | None = None
    ) -> None:
        """Call ``callback`` once the footer shows the keys of the screen as it is now (and
        ``ready()`` holds, checked the same way): after the repaint that follows the new
        keys being laid out."""
        self._waiting = [*(self._waiting or []), (callback, ready)]
        self.call_next(self._release)

    async def recompose(self) -> None:
        try:
            await super().recompose()
        finally:
            self._composing = False
            self._release()

    def _release(self, tries: int = 100) -> None:
        """Call the waiting callbacks after the repaint that shows the new keys, once the
        screen has laid them out (their mounting asks for a layout by a message of its own,
        which can come later); checked every 20 ms, for two seconds at most."""
        waiting = self._waiting
        if not waiting or (self._composing and tries > 0):
            return  # (released when the keys are composed)
        placed = all(key.region for key in self.children if key.display) and all(
            ready() for _, ready in waiting if ready is not None
        )
        if tries > 0 and not placed:
            self.set_timer(0.02, lambda: self._release(tries - 1))
            return
        self._waiting = None
        for callback, _ in waiting:
            self.call_after_refresh(callback)

    def _keys(self) -> tuple[list[tuple[Binding, bool, str]], tuple[Binding, bool] | None]:
        """The keys to show (one per action, as Textual's footer shows them) and the command
        palette's key, if it is shown."""
        active = self.screen.active_bindings
        first: dict[str, tuple[Binding, bool, str]] = {}
        for _, binding, enabled, tooltip in active.values():
            if binding.show and binding.action not in first:
                first[binding.action] = (binding, enabled, tooltip)
        palette = None
        if self.show_command_palette and self.app.ENABLE_COMMAND_PALETTE:
            found = active.get(self.app.COMMAND_PALETTE_BINDING)
            if found is not None:
                palette = (found[1], found[2])
        return list(first.values()), palette

    def _signature(
        self, keys: list[tuple[Binding, bool, str]], palette: tuple[Binding, bool] | None
    ) -> tuple[Any, ...]:
        """What the footer shows of ``keys`` (as :meth:`_keys` gives them): equal signatures,
        equal keys on the screen."""
        return (
            tuple(
                (b.key, b.description, b.action, enabled, tooltip, b.group)
                for b, enabled, tooltip in keys
            ),
            (palette[0].key, palette[1]) if palette is not None else None,
            self.show_command_palette,
            self.compact,
        )

    def compose(self) -> ComposeResult:
        keys, palette = self._keys() if self._bindings_ready else ([], None)
        slots = [
            FooterKey("", "", "", "").data_bind(compact=Footer.compact)
            for _ in range(max(self.SLOTS, len(keys)))
        ]
        palette_slot = FooterKey("", "", "", "", classes="-command-palette")
        for slot in [*slots, palette_slot]:
            slot.display = False
        self._fill_keys(keys, palette, slots, palette_slot)
        self.compositions += 1
        yield from slots
        yield palette_slot

    def _fill_keys(
        self,
        keys: list[tuple[Binding, bool, str]],
        palette: tuple[Binding, bool] | None,
        slots: list[FooterKey] | None = None,
        palette_slot: FooterKey | None = None,
    ) -> bool:
        """Write the keys into the key widgets (the footer's own unless given); ``False`` if
        there are too few of them."""
        if slots is None:
            slots = []
            for child in self.children:
                if isinstance(child, FooterKey):
                    if child.has_class("-command-palette"):
                        palette_slot = child
                    else:
                        slots.append(child)
        if len(keys) > len(slots) or palette_slot is None:
            return False
        for slot, (binding, enabled, tooltip) in zip(slots, keys, strict=False):
            _set_key(slot, binding, enabled, tooltip)
        for slot in slots[len(keys) :]:
            slot.display = False
        if palette is None:
            palette_slot.display = False
        else:
            binding, enabled = palette
            _set_key(palette_slot, binding, enabled, binding.tooltip or binding.description)
        self._filled = len(keys)
        self._fit(slots, palette_slot)
        # A widget asks the screen for its repaint and layout when its own messages are
        # processed, after other widgets' (the tree's new focus, the panes of a roster just
        # loaded) may have been painted: the keys ask now, so that the frame that shows the
        # focus shows its keys, laid out at their new widths.
        for slot in [*slots, palette_slot]:
            try:
                slot._check_refresh()
            except AttributeError:  # another Textual version: asked at its next idle
                break
        return True

    def _fit(self, slots: list[FooterKey], palette_slot: FooterKey) -> None:
        """Show the keys that fit whole in the width, in order, and hide the rest (Textual's
        bar cut the last one where the width ended: "^q Qui" at 80 columns)."""
        room = self.size.width or (self.app.size.width if self.is_attached else 0)
        if room <= 0 or not all(slot.is_mounted for slot in slots[: self._filled]):
            return  # (fitted when the footer is given its size)
        if palette_slot.display:
            room -= _key_width(palette_slot, room)
        used = 0
        fits = True
        for slot in slots[: self._filled]:
            width = _key_width(slot, room)
            fits = fits and used + width <= room
            if fits:
                used += width
            if slot.display != fits:
                slot.display = fits

    def on_resize(self) -> None:
        slots = [c for c in self.children if isinstance(c, FooterKey)]
        palette = [c for c in slots if c.has_class("-command-palette")]
        if not palette:
            return
        self._fit([c for c in slots if c is not palette[0]], palette[0])

    def bindings_changed(self, screen: Screen[Any]) -> None:
        if not (self.is_attached and screen is self.screen):
            return
        if self.app.screen is not self.screen:
            return  # under a dialog: compared again when the focus comes back
        self._bindings_ready = True
        if not screen.app.app_focus:
            return  # (as Textual's footer: the keys follow when the focus comes back)
        # (The keys are worked out once, for the comparison and for the key widgets: each
        # time is a copy of the bindings of the focused widget and its ancestors and a check
        # of every action's state, a seventh of a millisecond on the 40k roster.)
        keys, palette = self._keys()
        signature = self._signature(keys, palette)
        if signature == self._shown:
            return
        self._shown = signature
        if self._composing or not self._fill_keys(keys, palette):
            # More keys than widgets to show them: composed again after the next repaint.
            self._composing = True
            self.call_after_refresh(self.recompose)


def _key_width(key: FooterKey, room: int) -> int:
    """The columns a footer key takes, with its padding, border and margin."""
    size = Size(room, 1)
    styles = key.styles
    return key.get_content_width(size, size) + styles.gutter.width + styles.margin.width


def _set_key(key: FooterKey, binding: Binding, enabled: bool, tooltip: str) -> None:
    """Make a footer key widget show ``binding`` (repainted, and laid out again only if its
    width changes)."""
    display = key.app.get_key_display(binding)
    before = (key.key_display, key.description)
    key.key = binding.key
    key.action = binding.action
    key.key_display = display
    key.description = binding.description
    key._disabled = not enabled
    key.set_class(not enabled, "-disabled")
    key.tooltip = tooltip or None
    if not key.display:
        key.display = True  # (lays the footer out again)
    elif before != (display, binding.description):
        width = (cell_len(display), cell_len(binding.description), bool(binding.description))
        key.refresh(layout=width != (cell_len(before[0]), cell_len(before[1]), bool(before[1])))


class _TitleNow(HeaderTitle):
    """The header's title, repainted in the frame that follows a change of it: in place, in
    the frame of the panes that changed with it (the first edit after a save adds the
    title's "*"; it laid the whole editor out, painted it all again, and the title in a
    frame of its own), and laid out at once if its size may change
    (:func:`update_in_place`)."""

    _said: object = None

    def update(self, content: Any = "", *, layout: bool = True) -> None:
        # (Textual's header sets the same title again a message later: nothing to do then.)
        if content == self._said:
            return
        self._said = content
        if update_in_place(self, content, layout):
            with contextlib.suppress(AttributeError):  # another Textual version: its next idle
                self._check_refresh()  # (asks for its layout now, not at its next idle)


class StableHeader(Header):
    """A header whose title follows the screen's at once.

    Textual's header updates its title by an asynchronous watcher, a message after the title
    changes, and the title widget asks for its layout at its own next idle: the frame that
    showed a roster just loaded still said "loading…" above it. This one's title is set
    within the change of the screen's title (or subtitle), like the panes it names."""

    def compose(self) -> ComposeResult:
        yield HeaderIcon().data_bind(Header.icon)
        yield _TitleNow()
        yield (
            HeaderClock().data_bind(Header.time_format) if self._show_clock else HeaderClockSpace()
        )

    def on_mount(self) -> None:
        for owner in (self.app, self.screen):
            for name in ("title", "sub_title"):
                self.watch(owner, name, self._title_changed, init=False)
        self._title_changed()

    def _title_changed(self) -> None:
        for title in self.query(_TitleNow):
            title.update(self.format_title())
