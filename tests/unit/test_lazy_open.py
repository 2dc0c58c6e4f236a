"""Opening a roster to edit from the fast parse (issue 17): the round-trip document is built
later, in a worker or when the first edit needs it, and nothing a player sees or saves may
tell the difference.

* Before the document is built, the lazily opened roster shows the same selections, header,
  findings, positions and verdict as one opened the eager way.
* The same edits, made before the document is built (it is then built on demand) or after a
  worker built it, save the same bytes as the eager path: comments, blank lines, flow lists,
  ``---``/``...``, CRLF and byte order marks kept where nothing was edited (docs/files.md,
  "What a save keeps").
"""

from __future__ import annotations

import copy
import time
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.rules.engine import evaluate_roster
from armybuilder.session import EditSession

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"

TEXT = (
    "# header comment\n"
    "# yaml-language-server: $schema=roster.json\n"
    "---\n"
    "format: 1  # the format\n"
    "system: demo-wars\n"
    "faction: red-army\n"
    "name: Patrol\n"
    "\n"
    "limits: {pts: 500}  # flow\n"
    "selections:\n"
    "  # the captain\n"
    "  - entry: captain  # eol\n"
    "    name: Vos\n"
    "\n"
    "  # a squad, with a flow list over two lines\n"
    "  - entry: squad\n"
    "    tags: [a,  # first\n"
    "      b]  # last\n"
    "    count: 2\n"
    "    selections:\n"
    "      - entry: soldier   # spaced\n"
    "  - entry: soldier\n"
    "...\n"
    "# after the end\n"
)


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "lazy-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


def _write(tmp_path: Path, name: str, crlf: bool, bom: bool) -> Path:
    path = tmp_path / name
    text = TEXT.replace("\n", "\r\n") if crlf else TEXT
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + text.encode("utf-8"))
    return path


def _locs(roster: Roster) -> list[tuple[str | int, ...]]:
    out: list[tuple[str | int, ...]] = [("name",), ("limits", "pts"), ("selections",)]
    for sel in roster.walk():
        out += [sel.loc, (*sel.loc, "entry"), (*sel.loc, "name"), (*sel.loc, "tags", 1)]
    return out


def test_a_lazy_roster_shows_what_an_eager_one_shows(lib: Library, tmp_path: Path) -> None:
    path = _write(tmp_path, "r.yaml", crlf=False, bom=False)
    eager = Roster.from_file(path)
    lazy = Roster.from_file(path, lazy=True)
    assert not lazy.doc_ready  # nothing built yet: shown from the fast parse
    assert lazy.round_trip
    assert lazy.header == eager.header
    assert lazy.selections == eager.selections
    assert lazy.findings == eager.findings
    for loc in _locs(eager):
        assert lazy.position(loc) == eager.position(loc), loc
    assert lazy.position(("selections", 1, "tags", 1)) == (18, 7)  # the `b`
    gs = lib.system(eager.system)
    ev_eager, ev_lazy = evaluate_roster(eager, gs), evaluate_roster(lazy, gs)
    assert [i.to_json() for i in ev_lazy.issues] == [i.to_json() for i in ev_eager.issues]
    assert ev_lazy.totals == ev_eager.totals
    assert not lazy.doc_ready  # showing and validating it did not need the document
    assert lazy.dumps() == TEXT  # unedited: the file's own text


def _edit(session: EditSession) -> None:
    session.rename(("selections", 0), "Captain Vos")
    session.set_count(("selections", 1), 3)
    session.add(("selections", 1), "soldier")
    session.set_notes(("selections", 2), "on the left")


@pytest.mark.parametrize(("crlf", "bom"), [(False, False), (True, True)])
def test_edits_before_the_document_is_built_save_the_same_bytes(
    lib: Library, tmp_path: Path, crlf: bool, bom: bool
) -> None:
    eager_path = _write(tmp_path, "eager.yaml", crlf, bom)
    lazy_path = _write(tmp_path, "lazy.yaml", crlf, bom)
    eager = EditSession.open(eager_path, lib, lazy=False, autosave=False)
    # No worker: the first edit builds the document itself.
    roster = Roster.from_file(lazy_path, library=lib, lazy=True)
    roster.prepare_merge_base()
    lazy = EditSession(roster, lib.system(roster.system), autosave=False)
    before = copy.copy(lazy.roster)  # a snapshot taken before anything was built
    assert not roster.doc_ready
    assert lazy.evaluate().totals == eager.evaluate().totals
    _edit(eager)
    _edit(lazy)
    assert roster.doc_ready
    assert lazy.evaluate().totals == eager.evaluate().totals
    eager.save()
    lazy.save()
    saved = lazy_path.read_bytes()
    assert saved == eager_path.read_bytes()
    text = saved.decode("utf-8-sig").replace("\r\n", "\n")
    for kept in ("# header comment\n", "    tags: [a,  # first\n      b]  # last\n", "...\n"):
        assert kept in text
    assert "name: Captain Vos" in text and "count: 3" in text
    # The snapshot still reads the roster as it was when it was taken.
    assert [s.name for s in before.selections] == ["Vos", None, None]


def test_a_worker_builds_the_document_before_the_first_edit(lib: Library, tmp_path: Path) -> None:
    eager_path = _write(tmp_path, "eager.yaml", crlf=False, bom=False)
    lazy_path = _write(tmp_path, "lazy.yaml", crlf=False, bom=False)
    eager = EditSession.open(eager_path, lib, lazy=False, autosave=False)
    lazy = EditSession.open(lazy_path, lib, autosave=False)  # starts the worker
    deadline = time.monotonic() + 30
    while not lazy.roster.doc_ready and time.monotonic() < deadline:
        time.sleep(0.01)
    assert lazy.roster.doc_ready
    _edit(eager)
    _edit(lazy)
    eager.save()
    lazy.save()
    assert lazy_path.read_bytes() == eager_path.read_bytes()
    lazy.undo()
    lazy.undo()
    lazy.undo()
    lazy.undo()
    lazy.save()
    assert lazy_path.read_text(encoding="utf-8") == TEXT  # every edit undone: the original


def test_a_file_the_round_trip_refuses_is_refused_when_opened(tmp_path: Path) -> None:
    # The fast loader gives the verdict at once (no worker needed to find a broken file).
    path = tmp_path / "bad.yaml"
    path.write_text("format: 1\nsystem: demo-wars\nname: [unclosed\n", encoding="utf-8")
    from armybuilder.errors import RosterError

    with pytest.raises(RosterError) as lazy_err:
        Roster.from_file(path, lazy=True)
    with pytest.raises(RosterError) as eager_err:
        Roster.from_file(path)
    assert str(lazy_err.value) == str(eager_err.value)
