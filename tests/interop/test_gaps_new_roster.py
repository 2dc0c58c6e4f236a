"""``new_roster`` makes a roster once, and it is the roster made whole with its comment.

Where the data's modifiers may hide an entry at the top (40k's Legends units), the header's
list of what can be selected is what the builder's catalog offers, which an edit session
works out on the roster itself: the roster used to be made twice (once for the session,
once again with the comment). It is now made once and the comment put under its schema
line afterwards. Here every such roster (and one of each of our systems, which need no
session) is compared with one made whole by ``Roster.new`` with the same comment (and, where the
catalog requires selections at the top, read back from its text, which holds them): the text,
what it dumps, the saved file's bytes, the lines of its keys before and after the save.

The BattleScribe data is read from ``../shared/bsdata`` (those cases are skipped with a
message where it is absent)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from armybuilder.catalog import Library
from armybuilder.catalog.library import default_roots
from armybuilder.rosters import Roster
from armybuilder.session.operations import _commented, new_roster

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
SCHEMA = "https://example.invalid/roster.schema.json"
NEEDS_DATA = pytest.mark.skipif(
    not (BSDATA / "wh40k-10e").is_dir(), reason=f"the BattleScribe data is not at {BSDATA}"
)

CASES = [
    pytest.param("ours", "infantry-ops", "inner-sphere", None, id="infantry-ops"),
    pytest.param("ours", "space-hulk", None, None, id="space-hulk"),
    pytest.param("ours", "starmarines", None, {"bp": 75}, id="starmarines"),
    pytest.param("ours", "starship-marine", "martian", None, id="starship-marine"),
    pytest.param("ours", "starship-troopers", None, {"value": 300}, id="starship-troopers"),
    pytest.param(
        "bs", "wh40k-10e", "imperium-adeptus-astartes-space-marines", {"pts": 1000},
        id="40k-marines", marks=NEEDS_DATA,
    ),
    pytest.param("bs", "gaslands", None, None, id="gaslands", marks=NEEDS_DATA),
    pytest.param("bs", "space-station-zero", None, None, id="ssz", marks=NEEDS_DATA),
]  # fmt: skip


@pytest.fixture(scope="module")
def libraries() -> dict[str, Library]:
    return {
        "ours": Library(default_roots(), use_cache=False).scan(),
        "bs": Library([BSDATA]).scan() if BSDATA.is_dir() else Library([]),
    }


def _comment(text: str) -> str:
    """The comment lines under the schema line at the top of a roster's text."""
    lines = text.splitlines()
    assert lines[0].startswith("# yaml-language-server: $schema="), lines[0]
    out = []
    for line in lines[1:]:
        if not line.startswith("# "):
            break
        out.append(line[2:])
    return "\n".join(out)


def _state(roster: Roster, folder: Path) -> dict[str, Any]:
    before = {
        "text": roster.text,
        "dumps": roster.dumps(),
        "dirty": roster.dirty,
        "lines": [roster.position((key,)) for key in ("format", "name", "selections")],
    }
    path = folder / "roster.yaml"
    roster.save(path)
    return {
        **before,
        "bytes": path.read_bytes(),
        "saved lines": [roster.position((key,)) for key in ("format", "name", "selections")],
        "saved text": roster.text,
    }


@pytest.mark.parametrize(("where", "system", "faction", "limits"), CASES)
def test_a_new_roster_is_made_once_as_if_made_whole_with_its_comment(
    libraries: dict[str, Library],
    where: str,
    system: str,
    faction: str | None,
    limits: dict[str, float] | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gs = libraries[where].system(system)
    faction = faction or next(iter(gs.factions))
    made: list[str | None] = []
    original = Roster.new

    def counted(*args: Any, **kwargs: Any) -> Roster:
        made.append(kwargs.get("comment"))
        return original(*args, **kwargs)

    monkeypatch.setattr(Roster, "new", counted)
    roster = new_roster(gs, faction, "Test roster", limits, SCHEMA)
    assert len(made) == 1, made  # made once
    monkeypatch.undo()

    comment = _comment(roster.text or "")
    assert "at the top level you can select:" in comment, roster.text
    # The same roster made whole: Roster.new with the comment, what the catalog requires
    # at the top added as new_roster adds it; and its text is that roster's, as if read
    # from its file (the recovery journal starts from the text: it must hold the starting
    # selections, or the first edit's positions are not in it).
    whole = Roster.new(gs.id, faction, "Test roster", limits, schema=SCHEMA, comment=comment)
    start = gs.starting_selections(faction)
    if start:
        whole.doc["selections"].extend(_commented(sel) for sel in start)
        whole.dirty = True
        whole.refresh()
        whole = Roster.from_text(whole.dumps(), "<new roster>")
    (tmp_path / "once").mkdir()
    (tmp_path / "whole").mkdir()
    assert _state(roster, tmp_path / "once") == _state(whole, tmp_path / "whole")
