"""No control character of a roster or a catalog reaches the terminal as such.

A roster shared by another player, or a BattleScribe file from the internet, can hold control
characters in its names and texts: ``ESC ] 0 ; ... BEL`` retitles the player's terminal,
``ESC [ 2 J`` clears it, and some terminals answer other sequences with input of their own.
Rich and Textual draw such text as it is: the characters have no width, so they go out to
the terminal inside the frame's text, where the terminal acts on them.

Every frame reaches the terminal through :meth:`textual.strip.Strip.render` (full frames,
partial ones, inline ones; the web driver of ``armybuilder serve`` too). :func:`install`
makes it leave out, from the text of each strip, the C0 and C1 control characters and DEL:
they are drawn zero cells wide, so what the screen shows, and where, is unchanged; the rest
of such a sequence shows as the printable text it is ("]0;pwned"). Segments that are control
sequences themselves (``Segment.control``: Textual's own cursor moves) are left alone. A
strip without such a character, nearly every one, costs one search of its text.
"""

from __future__ import annotations

import re
from typing import Any

from rich.segment import Segment
from textual.strip import Strip

#: C0 controls, DEL and C1 controls: what a terminal may act on inside text.
CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")

_installed: list[Any] = []


def safe_strip(strip: Strip) -> Strip:
    """``strip`` without the control characters of its text (itself when it has none)."""
    segments = list(strip)
    if not CONTROL.search("".join([text for text, _, control in segments if not control])):
        return strip
    return Strip(
        [
            seg if seg.control else Segment(CONTROL.sub("", seg.text), seg.style, seg.control)
            for seg in segments
        ],
        strip.cell_length,
    )


def install() -> None:
    """Make every strip drawn to the terminal leave out the control characters of its text
    (once; later calls do nothing)."""
    if _installed:
        return
    render = Strip.render

    def safe_render(self: Strip, console: Any) -> str:
        if self._render_cache is None:
            clean = safe_strip(self)
            if clean is not self:
                self._render_cache = render(clean, console)
        return render(self, console)

    _installed.append(render)
    Strip.render = safe_render  # type: ignore[method-assign]
