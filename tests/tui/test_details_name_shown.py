"""The details pane's Name field, empty while the selection has no name of its own, shows
in grey the name the roster gives it: the entry's name as the data's modifiers leave it, as
the roster tree and ``show`` print it. On 40k data a roster option's name is changed by a
modifier once it is taken ("Show Nachmund Gauntlet content" reads "Nachmund Gauntlet content
is enabled"); the field showed the catalogue's name. Read from the painted screen (Pilot);
skipped where ``../shared/bsdata`` is absent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import run_async, wait_editor
from screen import pane_lines
from test_repaint_40k import space_marines
from test_screen_model import settle
from textual.widgets import Input

from armybuilder.tui.widgets.details import DetailsPane


@run_async
async def test_an_unnamed_selection_shows_the_name_the_roster_gives_it(
    make_app: Any, workdir: Path, _catalog_cache: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(_catalog_cache))
    path, library = space_marines(workdir)
    app = make_app(path, library=library)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await wait_editor(pilot)
        session = editor.session
        assert session is not None
        ev = session.evaluate()
        renamed = [
            n
            for n in ev.nodes()
            if n.entry is not None
            and n.force is None
            and not n.is_root
            and n.data is not None
            and not n.data.name
            and ev.name(n) != n.entry.name
        ]
        assert renamed, "no selection of the roster has a name a modifier changes"
        plain = next(
            n
            for n in ev.nodes()
            if n.entry is not None
            and n.force is None
            and not n.is_root
            and n.data is not None
            and not n.data.name
            and ev.name(n) == n.entry.name
        )
        for node in (renamed[0], plain, renamed[-1]):
            editor.jump_to(node.loc)
            await settle(pilot, editor)
            details = app.screen.query_one(DetailsPane)
            field = details.query_one("#d-name", Input)
            assert field.value == ""
            want = editor.session.evaluate().name(node)  # type: ignore[union-attr]
            painted = " ".join(pane_lines(app, field))
            assert want in painted, (want, painted)
            if want != node.entry.name:  # type: ignore[union-attr]
                assert node.entry.name not in painted, painted  # type: ignore[union-attr]
