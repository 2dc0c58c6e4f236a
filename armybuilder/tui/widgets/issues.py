"""The validation panel: every error and warning, errors first; choosing one jumps to it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from ...session import Loc
from .roster_tree import ERROR_MARK, WARNING_MARK, owner_loc
from .stable import LiveStatic, StableScroll


class IssuesList(StableScroll, OptionList):
    """The list of issues (grows and shrinks without laying out the screen)."""


if TYPE_CHECKING:
    from ...rules.engine import Evaluation, Issue


#: Issues listed at most (a list of hundreds costs more to draw than it helps).
MAX_SHOWN = 100


def issue_prompt(issue: Issue) -> Text:
    mark, style = (ERROR_MARK, "bold red") if issue.is_error else (WARNING_MARK, "yellow")
    text = Text(f"{mark} ", style)
    text.append(issue.message)
    if issue.source:
        text.append(f"  ({issue.source})", "dim")
    return text


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
        self._prompts: list[str] = []
        #: Whether the last :meth:`show` changed the list (a benchmark reads it).
        self.changed = False

    def compose(self) -> ComposeResult:
        yield LiveStatic("Issues", id="issues-title", classes="pane-title")
        yield IssuesList(id="issues-list")

    @property
    def option_list(self) -> OptionList:
        return self.query_one(OptionList)

    def show(self, ev: Evaluation) -> None:
        issues = sorted(ev.issues, key=lambda i: 0 if i.is_error else 1)
        sig = tuple((i.severity, i.code, i.message, tuple(i.path)) for i in issues)
        self.changed = sig != self._sig
        if not self.changed:
            return
        errors = sum(1 for i in issues if i.is_error)
        warnings = len(issues) - errors
        title = self.query_one("#issues-title", LiveStatic)
        if not issues:
            title.set_content(Text("No issues: the roster is legal", "green"))
        else:
            text = Text("Issues: ")
            text.append(f"{errors} error{'s' if errors != 1 else ''}", "bold red" if errors else "")
            text.append(", ")
            text.append(
                f"{warnings} warning{'s' if warnings != 1 else ''}", "yellow" if warnings else ""
            )
            title.set_content(text)
        self._sig = sig
        shown = issues[:MAX_SHOWN]
        self._locs = [owner_loc(i.path) for i in shown]
        prompts: list[Text] = [issue_prompt(i) for i in shown]
        if len(issues) > MAX_SHOWN:
            prompts.append(
                Text(f"… and {len(issues) - MAX_SHOWN} more (F8 walks through the first "
                     f"{MAX_SHOWN}; fix these first)", "dim italic")
            )  # fmt: skip
        ol = self.option_list
        highlighted = ol.highlighted
        old = self._prompts
        self._prompts = [p.plain for p in prompts]
        if len(old) == len(prompts):
            # Same length: replace only the lines that differ (an edit changes a few).
            for index, (before, prompt) in enumerate(zip(old, prompts, strict=True)):
                if before != prompt.plain:
                    ol.replace_option_prompt_at_index(index, prompt)
        else:
            ol.set_options(Option(p, disabled=i >= len(shown)) for i, p in enumerate(prompts))
        if ol.option_count:
            ol.highlighted = min(highlighted or 0, len(shown) - 1) if shown else None

    def loc_at(self, index: int) -> Loc | None:
        return self._locs[index] if 0 <= index < len(self._locs) else None

    def step(self, delta: int) -> Loc | None:
        """Highlight the next (or previous) issue; returns its location."""
        ol = self.option_list
        count = len(self._locs)
        if not count:
            return None
        current = ol.highlighted
        index = 0 if current is None and delta > 0 else (current or 0) + delta
        ol.highlighted = index % count
        return self.loc_at(ol.highlighted)

    @on(OptionList.OptionSelected, "#issues-list")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        loc = self.loc_at(event.option_index)
        if loc is not None:
            self.post_message(self.JumpTo(loc))
