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
from textual.notifications import Notification
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Static

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
    latest :attr:`SLOTS` of them. Each goes when its time is up or it is clicked."""

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
