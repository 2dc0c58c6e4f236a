"""Widgets that repaint instead of laying out the whole screen when their content changes.

A Textual layout pass reflows every widget on the screen (a dozen milliseconds for the editor,
then a full repaint); an edit should not pay for it when no widget changes size. So:

* :class:`StableScroll` (for trees and option lists): lines added or removed change only the
  widget's scrollable area; the screen is laid out again only when a scrollbar has to appear
  or disappear;
* :class:`LiveStatic`: new content is painted in place, with a layout only when its height
  changes.
"""

from __future__ import annotations

from typing import Any

from textual.geometry import Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar
from textual.visual import VisualType
from textual.widgets import Static, Tree


def _fits(virtual: int, window: int) -> bool:
    """Whether all of the content shows (the scrollbar's thumb fills its track)."""
    return 0 < virtual <= window


class StableScroll:
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

    def _scroll_update(self, virtual_size: Size) -> None:
        # Textual repaints a scrollbar whenever the area behind it changes size, which costs
        # as much as repainting the lines beside it; a bar whose thumb fills the track before
        # and after (everything fits) looks the same and is left alone.
        widget: Any = self
        try:
            widget._refresh_scrollbars()
            width, height = widget.container_size
            bars = []
            if widget.show_vertical_scrollbar and widget.styles.scrollbar_size_vertical:
                bars.append(
                    (
                        widget.vertical_scrollbar,
                        virtual_size.height,
                        height - widget.scrollbar_size_horizontal,
                    )
                )
            if widget.show_horizontal_scrollbar and widget.styles.scrollbar_size_horizontal:
                bars.append(
                    (
                        widget.horizontal_scrollbar,
                        virtual_size.width,
                        width - widget.scrollbar_size_vertical,
                    )
                )
            for bar, virtual, window in bars:
                before = (bar.window_virtual_size, bar.window_size)
                bar.set_reactive(ScrollBar.window_virtual_size, virtual)
                bar.set_reactive(ScrollBar.window_size, window)
                if not (_fits(*before) and _fits(virtual, window)) and before != (virtual, window):
                    bar.refresh()
            widget.scroll_x = widget.validate_scroll_x(widget.scroll_x)
            widget.scroll_y = widget.validate_scroll_y(widget.scroll_y)
        except AttributeError:  # another Textual version
            super()._scroll_update(virtual_size)  # type: ignore[misc]

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
        widget.refresh()


class LiveStatic(Static):
    """A static whose updates only lay out the screen when its height changes."""

    def set_content(self, content: VisualType) -> None:
        width = self.content_region.width
        if width <= 0 or not self.is_mounted:
            self.update(content)
            return
        self.update(content, layout=False)
        rule = self.styles.height
        if rule is not None and not rule.is_auto:
            return  # its height does not depend on its content
        height = self.get_content_height(self.container_size, self.app.size, width)
        if height != self.content_region.height:
            self.refresh(layout=True)
