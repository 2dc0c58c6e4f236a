"""A control character in a roster's text never reaches the terminal as such.

A roster named ``Evil ESC]0;pwned BEL Name ESC[2J`` retitled the player's terminal and
cleared it when the builder drew its name: Rich and Textual draw control characters as they
are (zero cells wide), inside the frame's text. The builder now leaves them out of every
strip it sends (``armybuilder.tui.safe_output``); what the screen shows is the printable
rest, where it was. This reads the bytes a terminal gets, frame by frame (headless, Textual
makes none: they are made here as the driver makes them).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import EXAMPLES, run_async, wait_editor, wait_for
from screen import painted
from textual._compositor import CompositorUpdate
from textual.strip import Strip

from armybuilder.tui.safe_output import CONTROL, safe_strip

#: What the roster's text holds: an OSC that retitles the window, a CSI that clears the
#: screen, an 8-bit CSI (C1) and a bell.
EVIL_NAME = "Evil\x1b]0;pwned\x07Name\x1b[2J"
EVIL_NOTES = "boom\x9b2Jbell\x07"


def _roster(tmp_path: Path) -> Path:
    text = (EXAMPLES / "space-hulk" / "standard-squad.yaml").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("name:"))
    lines[at] = 'name: "Evil\\e]0;pwned\\aName\\e[2J"'
    path = tmp_path / "evil.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@run_async
async def test_a_roster_names_escape_sequences_never_reach_the_terminal(
    make_app: Any, tmp_path: Path
) -> None:
    app = make_app(_roster(tmp_path), cwd=tmp_path)
    sent: list[str] = []
    display = app._display

    def shown(screen: Any, update: Any) -> None:
        display(screen, update)
        if isinstance(update, CompositorUpdate):
            sent.append(update.render_segments(app.console))

    app._display = shown
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        s = editor.session
        assert s is not None and s.name == EVIL_NAME
        # Notes typed with such characters (a file written elsewhere): shown in the details.
        s.set_notes(("selections", 0), EVIL_NOTES)
        editor.after_edit()
        editor.jump_to(("selections", 0))
        await wait_for(pilot, lambda: editor.shown_generation == s.generation)
        await pilot.pause(0.3)
        screen_rows = painted(app)
    out = "".join(sent)
    assert sent
    for bad in ("\x1b]0;pwned", "\x07", "\x9b", "\x1b[2J"):
        assert bad not in out, f"{bad!r} was sent to the terminal"
    # The printable rest shows where the name and the notes are.
    shown_text = "\n".join(CONTROL.sub("", row) for row in screen_rows)
    assert "Evil]0;pwnedName[2J" in shown_text
    assert "boom2Jbell" in shown_text


def test_a_strip_without_control_characters_is_itself() -> None:
    from rich.control import Control
    from rich.segment import Segment

    plain = Strip([Segment("Captain  80 pts")])
    assert safe_strip(plain) is plain
    move = Control.move_to(0, 0).segment  # (a control segment: Textual's own, kept)
    dirty = Strip([Segment("a\x1b[2Jb"), move])
    clean = safe_strip(dirty)
    assert [seg.text for seg in clean] == ["a[2Jb", move.text]
    assert clean.cell_length == dirty.cell_length
