"""Odd values a player types into the builder's fields (Pilot, headless): each is refused
with a notice saying why, the roster keeps what it had, and the builder keeps running with
the player's other edits."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor, wait_for
from textual.widgets import Input


@run_async
async def test_a_limit_too_large_for_a_number_is_refused_not_a_crash(
    make_app: Any, workdir: Path
) -> None:
    """`1e999` passes the limit field's number filter but reads as infinity, and 2000000000 is
    above the largest limit a file holds; setting either used to raise out of the session (a
    pydantic error) and close the builder with a traceback, losing the screen the player was
    on."""
    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        await pilot.press("f3", "ctrl+down")  # an edit to keep: Alpha moves down
        await pilot.pause()
        steps = list(session.history)
        before = dict(session.roster.header.limits)
        editor.jump_to(())
        await pilot.pause()
        limit = next(w for w in editor.details.query(Input) if w.name == "limit:pts")
        limit.focus()
        limit.value = ""
        await pilot.press(*"1e999", "enter")
        await wait_for(
            pilot, lambda: any("a limit must be" in str(n.message) for n in app._notifications)
        )
        assert app.is_running
        assert session.roster.header.limits == before
        assert session.history == steps
        # The field shows the limit the roster has again (none), not the refused value.
        await wait_for(pilot, lambda: limit.value == "")
        # So does a negative limit, refused too (it stayed in the field as if it held).
        limit.focus()
        await pilot.press("minus", "5", "enter")
        await wait_for(
            pilot, lambda: any("cannot be negative" in str(n.message) for n in app._notifications)
        )
        await wait_for(pilot, lambda: limit.value == "")
        assert session.roster.header.limits == before
        # And one above the 1,000,000,000 a roster file holds (it raised out of the session
        # as 1e999 did, leaving the bad value in the roster's text).
        limit.focus()
        await pilot.press(*"2000000000", "enter")
        await wait_for(
            pilot,
            lambda: any(
                "at most 1,000,000,000, not 2,000,000,000" in str(n.message)
                for n in app._notifications
            ),
        )
        await wait_for(pilot, lambda: limit.value == "")
        assert session.roster.header.limits == before
        assert "limits" not in session.roster.doc
        # A sound value still goes in.
        limit.focus()
        limit.value = ""
        await pilot.press(*"75", "enter")
        await wait_for(pilot, lambda: session.roster.header.limits == {"pts": 75})


@run_async
async def test_a_count_beyond_what_a_file_holds_stops_at_10000(
    make_app: Any, workdir: Path
) -> None:
    """A Mobile Infantry squad has no maximum count, but a roster file holds at most 10,000
    copies (`armybuilder validate`: "count must be a whole number from 1 to 10,000"). Typing
    99999999 used to be taken as it was: saved, the squad read back as 1 with an error."""
    from armybuilder.cli import main

    path = workdir / "squads.yaml"
    path.write_text(
        "format: 1\nsystem: starship-troopers\nfaction: mobile-infantry\nname: Many\n"
        "selections:\n  - entry: mi-squad\n    selections:\n      - entry: cap-trooper\n"
    )
    app = make_app(path)
    async with app.run_test(size=(120, 40)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        squad = ("selections", 0)
        editor.jump_to(squad)
        await pilot.pause()
        count = editor.query_one("#d-count", Input)
        count.focus()
        count.value = ""
        notices: list[str] = []
        notify = app.notify

        def keep(message: str, *args: Any, **kw: Any) -> None:
            notices.append(message)
            notify(message, *args, **kw)

        app.notify = keep
        await pilot.press(*"99999999", "enter")
        await wait_for(pilot, lambda: session.count_of(squad) == 10_000)
        assert "Count must be at most 10,000" in notices
        await wait_for(pilot, lambda: count.value == "10000")
        await pilot.press("plus")  # one more: still the most a file holds
        await pilot.pause()
        assert session.count_of(squad) == 10_000
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not session.dirty)
    assert main(["validate", str(path)]) == 0


@run_async
async def test_the_search_filter_is_shown_as_typed(make_app: Any, workdir: Path) -> None:
    """The catalog's title and its "no match" line quote the search as typed: a backslash
    showed doubled (`filter '\\\\'`), an apostrophe swapped the quotes (`filter "o'"`)."""
    from armybuilder.tui.widgets.stable import LiveStatic

    app = make_app(workdir / "patrol.yaml")
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        empty = editor.query_one("#catalog-empty", LiveStatic)
        for typed in ("\\", "o'"):
            editor.catalog.search.focus()
            editor.catalog.search.value = typed
            title, line = f"filter '{typed}'", f"No entry matches '{typed}' here"

            def shown(title: str = title, line: str = line) -> bool:
                return title in editor.catalog.title_text and line in empty.plain

            await wait_for(pilot, shown)
