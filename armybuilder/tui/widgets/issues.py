"""The validation panel: every error and warning, errors first; choosing one jumps to it.

The list is drawn line by line (Rich wraps each issue to the width): when the issues change,
only the lines that now read differently are repainted. Textual's ``OptionList`` rebuilt and
repainted the whole list whenever an issue came or went, which cost more than the rest of the
edit's frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...fixes import Fix, fixes_for
from ...session import Loc
from ...words import plural
from .roster_tree import issue_mark, owner_loc
from .stable import LiveStatic, StableScroll, find, refresh_rows

if TYPE_CHECKING:
    from ...rules.engine import Evaluation, Issue


#: Issues listed at most (a list of hundreds costs more to draw than it helps).
MAX_SHOWN = 100


#: The key that applies a quick fix, as the issues list names it.
FIX_KEY = "."


def issue_prompt(issue: Issue, fix: str = "") -> Text:
    """An issue's line: mark, message, source and the quick fix it offers (``fix``)."""
    mark, style = issue_mark(issue)
    text = Text(f"{mark} ", style)
    text.append(issue.message)
    if issue.source:
        text.append(f"  ({issue.source})", "dim")
    if fix:
        text.append(f"  [{FIX_KEY}] {fix}", "bold cyan")
    return text


class IssuesList(StableScroll, ScrollView, can_focus=True):
    """Issues one after the other, each wrapped to the width; one is highlighted, and Enter
    (or a click) chooses it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("down", "move(1)", "Next", show=False),
        Binding("home", "move_to(0)", "First", show=False),
        Binding("end", "move_to(-1)", "Last", show=False),
        Binding("pageup", "page(-1)", "Page up", show=False),
        Binding("pagedown", "page(1)", "Page down", show=False),
        Binding("enter", "choose", "Jump to it", show=False),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"issues-list--highlight"}
    DEFAULT_CSS = """
    IssuesList > .issues-list--highlight {
        background: $surface-lighten-1;
    }
    IssuesList:focus > .issues-list--highlight {
        background: $block-cursor-background;
    }
    """

    class Chosen(Message):
        """An issue was chosen (Enter or a click)."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._items: list[Text] = []
        self._disabled: set[int] = set()
        self._highlighted: int | None = None
        # The lines of every item at the last width, and which item each line belongs to.
        self._lines: list[Strip] = []
        self._owner: list[int] = []
        self._first: list[int] = []  # first line of each item
        self._width = -1
        self._drawn: dict[tuple[Any, ...], list[Strip]] = {}

    # ----------------------------------------------------------------- content

    def _view_width(self) -> int:
        """Columns for text: the widget less its scrollbar."""
        return max(self.scrollable_content_region.width, 0)

    @property
    def items(self) -> list[Text]:
        return list(self._items)

    @property
    def highlighted(self) -> int | None:
        return self._highlighted

    @highlighted.setter
    def highlighted(self, index: int | None) -> None:
        if index is not None and not self._items:
            index = None
        if index is not None:
            index = max(0, min(index, len(self._items) - 1))
        if index == self._highlighted:
            return
        before = self._highlighted
        self._highlighted = index
        for item in (before, index):
            self._refresh_item(item)
        if index is not None:
            self._show_item(index)

    def set_items(self, items: list[Text], disabled: set[int] | None = None) -> None:
        """Show these items; the lines that read as before are not repainted."""
        before = self._painted_rows()
        self._items = list(items)
        self._disabled = set(disabled or ())
        if self._highlighted is not None and self._highlighted >= len(self._items):
            self._highlighted = len(self._items) - 1 if self._items else None
        self._layout_lines(self._width if self._width > 0 else self._view_width())
        after = self._painted_rows()
        width = self._view_width()
        rows = max(len(before), len(after))
        refresh_rows(
            self,
            [y >= len(before) or y >= len(after) or before[y] != after[y] for y in range(rows)],
            width,
        )

    def _painted_rows(self) -> list[object]:
        """What each row on screen shows (a line and whether it is highlighted)."""
        top = self.scroll_offset.y
        rows: list[object] = []
        for y in range(top, top + max(self.size.height, 0)):
            if y < len(self._lines):
                rows.append((self._lines[y], self._owner[y] == self._highlighted))
            else:
                rows.append(None)
        return rows

    def _item_lines(self, item: Text, width: int) -> list[Strip]:
        key = (item.plain, tuple(item.spans), item.style, width)
        found = self._drawn.get(key)
        if found is None:
            console = self.app.console
            options = console.options.update(width=max(width, 1), height=None, highlight=False)
            found = [Strip(line, width) for line in console.render_lines(item, options, pad=True)]
            if len(self._drawn) > 4 * MAX_SHOWN:
                self._drawn.clear()
            self._drawn[key] = found
        return found

    def _layout_lines(self, width: int) -> None:
        self._width = width
        lines: list[Strip] = []
        owner: list[int] = []
        first: list[int] = []
        if width > 0:
            for index, item in enumerate(self._items):
                first.append(len(lines))
                drawn = self._item_lines(item, width)
                lines.extend(drawn)
                owner.extend([index] * len(drawn))
        self._lines, self._owner, self._first = lines, owner, first
        self.virtual_size = Size(width, len(lines))

    def watch_virtual_size(self, size: Size) -> None:
        # set_items repaints the rows that changed; only the scrollbar follows the new length.
        self._scroll_update(size)

    def _size_updated(
        self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True
    ) -> bool:
        # The lines are wrapped to the new width within the layout: Textual paints the
        # layout's frame before the Resize event arrives (the first frame of a loaded roster
        # showed no issues at all, the list having had no width until then).
        changed = super()._size_updated(size, virtual_size, container_size, layout)
        if changed:
            self._fit_width()
        return changed

    def on_resize(self, event: events.Resize) -> None:
        self._fit_width()

    def _fit_width(self) -> None:
        if self._view_width() != self._width:
            self._layout_lines(self._view_width())
            self.refresh()

    def notify_style_update(self) -> None:
        self._drawn.clear()
        super().notify_style_update()
        if self._width > 0:
            self._layout_lines(self._width)

    # ----------------------------------------------------------------- drawing

    def render_line(self, y: int) -> Strip:
        row = y + self.scroll_offset.y
        width = self._view_width()
        base = self.visual_style.rich_style
        if row >= len(self._lines):
            return Strip.blank(width, base)
        strip = self._lines[row]
        index = self._owner[row]
        meta = {"issue": index}
        style = base
        if index == self._highlighted:
            style = base + self.get_component_rich_style("issues-list--highlight")
        segments = [
            Segment(text, (style + seg_style) if seg_style else style, control)
            for text, seg_style, control in strip
        ]
        if index == self._highlighted:
            # The highlight's background over the issue's own colours.
            bg = Style(bgcolor=style.bgcolor)
            segments = [Segment(t, (s + bg) if s else bg, c) for t, s, c in segments]
        return Strip(segments, strip.cell_length).apply_meta(meta)

    def _refresh_item(self, index: int | None) -> None:
        if index is None or index >= len(self._first):
            return
        top = self.scroll_offset.y
        start = self._first[index]
        end = self._first[index + 1] if index + 1 < len(self._first) else len(self._lines)
        self.refresh(Region(0, start - top, self._view_width(), end - start))

    def _show_item(self, index: int) -> None:
        if index >= len(self._first):
            return
        start = self._first[index]
        end = self._first[index + 1] if index + 1 < len(self._first) else len(self._lines)
        top, height = self.scroll_offset.y, self.size.height
        if start < top:
            self.scroll_to(y=start, animate=False)
        elif end > top + height:
            # Its end into view, but never past its start: an issue taller than the pane
            # (a long message wrapped on a small terminal) is read from its beginning.
            self.scroll_to(y=max(0, min(start, end - height)), animate=False)

    # ----------------------------------------------------------------- keys and mouse

    def _enabled(self) -> list[int]:
        return [i for i in range(len(self._items)) if i not in self._disabled]

    def action_move(self, delta: int) -> None:
        enabled = self._enabled()
        if not enabled:
            return
        current = self._highlighted
        if current is None:
            self.highlighted = enabled[0] if delta > 0 else enabled[-1]
            return
        later = [i for i in enabled if (i > current if delta > 0 else i < current)]
        if later:
            self.highlighted = later[0] if delta > 0 else later[-1]

    def action_move_to(self, index: int) -> None:
        enabled = self._enabled()
        if enabled:
            self.highlighted = enabled[0] if index == 0 else enabled[-1]

    def action_page(self, delta: int) -> None:
        for _ in range(max(1, self.size.height // 2)):
            self.action_move(delta)

    def action_choose(self) -> None:
        if self._highlighted is not None and self._highlighted not in self._disabled:
            self.post_message(self.Chosen(self._highlighted))

    def on_click(self, event: events.Click) -> None:
        index = event.style.meta.get("issue")
        if isinstance(index, int) and index not in self._disabled:
            self.highlighted = index
            self.post_message(self.Chosen(index))


class IssuesPanel(Vertical):
    """Errors and warnings of the roster, recomputed on every edit."""

    class JumpTo(Message):
        """Show the selection an issue is about."""

        def __init__(self, loc: Loc) -> None:
            super().__init__()
            self.loc = loc

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._sig: tuple[tuple[str, str, str, Loc], ...] | None = None
        self._locs: list[Loc] = []
        self._shown: list[Issue] = []
        #: The quick fixes of the issues listed (by position; empty: none).
        self._fixes: list[list[Fix]] = []
        #: Whether the last :meth:`show` changed the list (a benchmark reads it).
        self.changed = False

    def compose(self) -> ComposeResult:
        yield LiveStatic("Issues", id="issues-title", classes="pane-title")
        yield IssuesList(id="issues-list")

    @property
    def issue_list(self) -> IssuesList:
        return find(self, "IssuesList", IssuesList)

    def texts(self) -> list[str]:
        """The issues as listed (plain text; not the line saying there are none)."""
        items = self.issue_list.items
        return [item.plain for item in items] if self._locs else []

    def show(self, ev: Evaluation) -> None:
        issues = sorted(ev.issues, key=lambda i: 0 if i.is_error else 1)
        sig = tuple((i.severity, i.code, i.message, tuple(i.path)) for i in issues)
        self.changed = sig != self._sig
        if not self.changed:
            return
        errors = sum(1 for i in issues if i.is_error)
        warnings = sum(1 for i in issues if i.severity == "warning")
        notes = len(issues) - errors - warnings
        title = find(self, "#issues-title", LiveStatic)
        if not issues:
            title.set_content(Text("No issues: the roster is legal", "green"))
        else:
            text = Text("Issues: ")
            text.append(plural(errors, "error"), "bold red" if errors else "")
            text.append(", ")
            text.append(plural(warnings, "warning"), "yellow" if warnings else "")
            if notes:
                text.append(f", {plural(notes, 'note')}", "cyan")
            title.set_content(text)
        self._sig = sig
        shown = issues[:MAX_SHOWN]
        self._locs = [owner_loc(i.path) for i in shown]
        self._shown = shown
        self._fixes = [fixes_for(ev, i) for i in shown]
        prompts: list[Text] = [
            issue_prompt(i, fixes[0].label if fixes else "")
            for i, fixes in zip(shown, self._fixes, strict=True)
        ]
        disabled: set[int] = set()
        if len(issues) > MAX_SHOWN:
            disabled.add(len(prompts))
            prompts.append(
                Text(f"… and {len(issues) - MAX_SHOWN} more (F8 walks through the first "
                     f"{MAX_SHOWN}; fix these first)", "dim italic")
            )  # fmt: skip
        if not prompts:
            # A line rather than an empty list: the scrollbar beside it stays as it is when the
            # first issue comes (an empty list has a bare track, a short one a full thumb).
            prompts, disabled = [Text("Nothing to fix.", "dim italic")], {0}
        il = self.issue_list
        highlighted = il.highlighted
        il.set_items(prompts, disabled)
        il.highlighted = min(highlighted or 0, len(shown) - 1) if shown else None

    def fixes_at(self, index: int | None) -> list[Fix]:
        """The quick fixes of the issue listed at ``index``."""
        if index is None or not 0 <= index < len(self._fixes):
            return []
        return self._fixes[index]

    def fixes_about(self, loc: Loc) -> list[Fix]:
        """The quick fixes of the first fixable issue about the selection at ``loc``."""
        for where, fixes in zip(self._locs, self._fixes, strict=True):
            if where == loc and fixes:
                return fixes
        return []

    def loc_at(self, index: int) -> Loc | None:
        return self._locs[index] if 0 <= index < len(self._locs) else None

    def step(self, delta: int) -> Loc | None:
        """Highlight the next (or previous) issue; returns its location."""
        il = self.issue_list
        count = len(self._locs)
        if not count:
            return None
        current = il.highlighted
        index = 0 if current is None and delta > 0 else (current or 0) + delta
        il.highlighted = index % count
        return self.loc_at(index % count)

    @on(IssuesList.Chosen)
    def _chosen(self, event: IssuesList.Chosen) -> None:
        event.stop()
        loc = self.loc_at(event.index)
        if loc is not None:
            self.post_message(self.JumpTo(loc))
