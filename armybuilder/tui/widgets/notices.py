"""Notices (the app's notifications) shown in place, in the editor.

Textual shows each notification as a toast it mounts, and takes it down when it times out: a
new widget each time, styled and laid out in frames of its own. A quick fix or an undo, which
say what they did ("… (Ctrl+Z undoes it)"), took three layouts and three frames to reach the
screen (35 ms on the 40k roster at 160x48, against 17 ms for the edit itself), and the last
frame showed the toast after the edit's own. The editor has a rack of a few slots made once,
drawn as Textual draws its toasts: a notice fills a slot in place, in the frame of the edit
that raised it; the slots of notices gone are hidden.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar

from textual import events
from textual.app import ComposeResult
from textual.content import Content
from textual.geometry import Region
from textual.notifications import Notification
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Input, OptionList, Select, Static

from .stable import SizedByLayout, update_in_place

#: Severity -> the class a slot takes for it.
_SEVERITY_CLASS = {"information": "-information", "warning": "-warning", "error": "-error"}


class NoticeSlot(SizedByLayout, Static):
    """One notice, drawn as a Textual toast (its width, padding, background, and the edge and
    title in the colour of its severity); hidden while it holds none. (Sized by the layout
    that shows it: the layout does not ask for another, see :class:`SizedByLayout`.)"""

    DEFAULT_CSS = """
    NoticeSlot {
        width: 60;
        max-width: 50%;
        height: auto;
        margin-top: 1;
        visibility: visible;
        padding: 1 1;
        background: $panel-lighten-1;
        display: none;
    }
    NoticeSlot .notice--title {
        text-style: bold;
        color: $foreground;
    }
    NoticeSlot.-information { border-left: outer $success; }
    NoticeSlot.-information .notice--title { color: $text-success; }
    NoticeSlot.-warning { border-left: outer $warning; }
    NoticeSlot.-warning .notice--title { color: $text-warning; }
    NoticeSlot.-error { border-left: outer $error; }
    NoticeSlot.-error .notice--title { color: $text-error; }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"notice--title"}

    def __init__(self) -> None:
        super().__init__()
        #: The notice shown (``None``: hidden).
        self.notice: Notification | None = None

    def fill(self, notice: Notification | None) -> str | None:
        """Show ``notice`` here (``None``: hide the slot). What the screen has to do for it:
        ``"layout"`` (the slot shown, hidden, or of another height), ``"paint"`` (the same
        size: an undo's notice replacing the one before it), ``None`` (the same notice)."""
        if notice is self.notice:
            return None
        self.notice = notice
        if notice is None:
            self.display = False
            return "layout"
        if not self.has_class(_SEVERITY_CLASS[notice.severity]):
            for severity, name in _SEVERITY_CLASS.items():
                self.set_class(severity == notice.severity, name, update=False)
            # (restyled now, not a moment later: the edge and title in the severity's colour
            # and the layout it asks for come in the frame of the edit that raised it)
            self.app.stylesheet.update_nodes([self])
        message = Content.from_markup(notice.message) if notice.markup else Content(notice.message)
        if notice.title:
            message = Content.assemble(
                (notice.title, self.get_visual_style("notice--title")), "\n", message
            )
        if self.display:
            return "layout" if update_in_place(self, message, layout=True) else "paint"
        self.update(message)
        self.display = True
        return "layout"

    def on_click(self, event: events.Click) -> None:
        """A click puts the notice away, as it does a toast."""
        event.stop()
        if self.notice is not None:
            self.app._unnotify(self.notice)


class NoticeRack(Widget):
    """The editor's notices at the bottom right, the newest lowest, as Textual's toasts; the
    latest :attr:`SLOTS` of them. Each goes when its time is up or it is clicked. Where they
    would cover the field being typed in or the drop-down being chosen in (low in the details
    pane, at 80x24), they show at the bottom left instead (``-left``)."""

    DEFAULT_CSS = """
    NoticeRack {
        display: none;
        layer: _toastrack;
        width: 1fr;
        height: auto;
        dock: bottom;
        align: right bottom;
        visibility: hidden;
        layout: vertical;
        margin-bottom: 1;
    }
    NoticeRack.-left {
        align: left bottom;
    }
    """

    SLOTS = 4

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._slots = [NoticeSlot() for _ in range(self.SLOTS)]
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield from self._slots

    @property
    def shown(self) -> list[Notification]:
        """The notices shown, oldest first."""
        return [s.notice for s in self._slots if s.notice is not None]

    def show(self, notices: Iterable[Notification]) -> None:
        """Show the latest of ``notices`` not yet timed out, in the slots as they are."""
        live = [n for n in notices if not n.has_expired][-self.SLOTS :]
        needs = {
            slot: slot.fill(live[i] if i < len(live) else None)
            for i, slot in enumerate(self._slots)
        }
        laid: list[Widget] = [w for w, need in needs.items() if need == "layout"]
        painted = [w for w, need in needs.items() if need is not None]
        if self.display != bool(live):
            self.display = bool(live)
            laid.append(self)
        if self.is_attached and self.clear_of_focus() and self not in laid:
            laid.append(self)
        if painted and self.is_attached:
            # The screen lays out (where a slot is shown, hidden or resized) and paints the
            # slots at its next tick, with the edit that raised the notice: the rack and the
            # slots do not ask for a layout and a repaint of their own, each on its turn to
            # run (the screen had been laid out and painted for the edit by then, and was
            # laid out and painted again for the notice: three frames for a quick fix).
            screen: Any = self.screen
            for widget in laid:
                widget._layout_required = False
                _arrange_again(widget)
            for widget in painted:
                widget._repaint_required = False
                screen._dirty_widgets.add(widget)
            if laid:
                screen.refresh(layout=True, repaint=False)
            else:
                screen.check_idle()
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if live:
            due = min(n.time_left for n in live)
            self._timer = self.set_timer(max(due, 0.0) + 0.01, self._time_up)

    def clear_of_focus(self) -> bool:
        """Take the side (right, or left) where the notices shown do not cover the focused
        field or drop-down; whether the side changed (the screen lays out again for it).
        Where they would be is worked out from the slots' text, before the layout that
        places them, so that they never show a frame over the field."""
        left = False
        screen = self.screen
        focused = screen.focused
        if isinstance(focused, OptionList) and isinstance(focused.parent, Select):
            pass  # a drop-down's open list
        elif not isinstance(focused, (Input, Select)):
            focused = None
        if self.display and focused is not None and focused.region:
            size = screen.size
            # (as NoticeSlot's styles size a slot: 60 wide at the most, half the screen; its
            # padding and left edge, 3 columns; one row above it, two of padding)
            width = min(60, size.width // 2)
            height = sum(
                3 + slot.get_content_height(size, size, width - 3)
                for slot in self._slots
                if slot.notice is not None
            )
            top = size.height - self.styles.margin.bottom - height  # (above the totals)
            right = Region(size.width - width, top, width, height)
            left = right.overlaps(focused.region) and not Region(0, top, width, height).overlaps(
                focused.region
            )
        if self.has_class("-left") == left:
            return False
        self.set_class(left, "-left")
        return True

    def _time_up(self) -> None:
        """Notices whose time is up go (the rack shown again without them)."""
        self._timer = None
        self.app._refresh_notifications()  # (the app's list drops those timed out as read)


def _arrange_again(widget: Widget) -> None:
    """Have the containers of ``widget`` arranged again at the next layout, as Textual does
    when it takes a widget's request for a layout (``Widget._check_refresh``), up to the
    first whose size does not follow its content."""
    for ancestor in widget.ancestors:
        if not isinstance(ancestor, Widget):
            break
        ancestor._clear_arrangement_cache()
        ancestor._layout_updates += 1
        if not ancestor.styles.auto_dimensions:
            break
