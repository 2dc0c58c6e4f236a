"""Unsaved edits come back from the recovery journal however the session started: a new roster
(of each of our five systems and every faction, and of the three BattleScribe data sets in
``../shared/bsdata``, skipped with a message where they are absent), a YAML file opened, a
BattleScribe .ros or .rosz converted, a session recovered (and recovered again), a roster saved
and then edited more (docs/files.md, "Recovery").

A new 40k, Gaslands or Space Station Zero roster starts with the selections its catalog
requires. They went into the roster's document after its text was written, and the journal
started from that text: replaying the edits failed ("no position 3 in selections") and the
builder said "Cannot recover ...": the player's work was lost. Each test here edits (adds,
counts, renames, removes), drops the session without saving or closing it (as a crash does),
recovers from the journal, and checks the recovered roster writes exactly what the lost one
would have, and that saving it writes those bytes. One test kills (SIGKILL) a process editing
a new roster and recovers in the test.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml.comments import CommentedMap

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.session import EditError, EditSession, RecoveryInfo, find_recovery
from armybuilder.session.journal import list_recoveries
from armybuilder.session.operations import new_roster
from armybuilder.yamlio import load_safe, to_plain

REPO = Path(__file__).resolve().parents[2]
BSDATA = REPO.parent / "shared" / "bsdata"
OURS = ["infantry-ops", "space-hulk", "starmarines", "starship-marine", "starship-troopers"]
THEIRS = ["gaslands", "space-station-zero", "wh40k-10e"]
#: 40k factions whose new roster starts with the same set of selections (the same entries) as
#: the one named: one check covers both (their catalogs' indexes alone cost about 5 s of CPU).
#: ``ARMYBUILDER_SLOW_ALL=1`` checks every faction, and that each of these starts as its
#: stand-in does.
SAME_START = {
    "imperium-adeptus-astartes-ultramarines": "imperium-adeptus-astartes-space-marines",
    "library-astartes-heresy-legends": "imperium-imperial-knights-library",
    "library-titans": "imperium-imperial-knights-library",
    "library-tyranids": "imperium-imperial-knights-library",
    "unaligned-forces": "imperium-imperial-knights-library",
}
SLOW_ALL = bool(os.environ.get("ARMYBUILDER_SLOW_ALL"))


@pytest.fixture(scope="module")
def ours() -> Library:
    return Library(default_roots()).scan()


@pytest.fixture(scope="module")
def bslib(tmp_path_factory: pytest.TempPathFactory) -> Library:
    if not BSDATA.is_dir():
        pytest.skip(f"the BattleScribe test data is not at {BSDATA}")
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_CACHE_DIR", str(cache))
        return Library([BSDATA]).scan()


def _entries(selection: dict[str, Any]) -> str:
    """A starting selection's entry, count and those of its own selections (not its made-up
    BattleScribe id)."""
    inner = sorted(map(_entries, selection.get("selections") or []))
    return repr((selection["entry"], selection.get("count"), inner))


def edits(s: EditSession, tag: str) -> None:
    """Edits a player makes: adds at the top, a count, a rename, a removal, another add; at
    least three of them must be made (one the catalog refuses is skipped)."""
    before = len(s.history)
    top = [c.entry.id for c in s.options(()) if c.group is None]
    steps = [
        lambda: s.add((), top[0]),
        lambda: s.add((), top[1 % len(top)]),
        lambda: s.set_count(("selections", 0), s.count_of(("selections", 0)) + 1),
        lambda: s.rename(("selections", len(s.roster.selections) - 1), f"Renamed {tag}"),
        lambda: s.remove(("selections", 0)),
        lambda: s.add((), top[-1]),
        lambda: s.rename((), f"Roster {tag}"),
    ]
    for step in steps if top else steps[-1:]:
        with contextlib.suppress(EditError):
            step()  # (one the catalog refuses is skipped)
    assert len(s.history) - before >= (3 if top else 1), f"{tag}: too few edits made"


def journal_of(s: EditSession) -> RecoveryInfo:
    """The recovery journal the (dropped) session ``s`` left, as the home screen lists it."""
    found = [i for i in list_recoveries() if i.journal == s.journal.path]
    assert found, f"{s.name}: the unsaved edits were not offered for recovery"
    return found[0]


def recovered_as_lost(lib: Library, lost: EditSession, tmp: Path, tag: str) -> EditSession:
    """Recover what ``lost`` left (dropped without saving, as a crash does): the recovered
    roster writes what ``lost`` would have, unsaved, and saving it writes those bytes."""
    expected = lost.roster.dumps()
    info = journal_of(lost)
    lost.journal.close_quietly()  # (the crashed process's file handle)
    recovered = EditSession.recover(info, lib)
    assert recovered.roster.dumps() == expected, tag
    assert recovered.dirty, tag
    out = tmp / f"{tag}.yaml"
    if out.exists():
        out.unlink()
    probe = Roster.from_text(recovered.roster.dumps(), str(out))
    assert probe.name == lost.name, tag
    recovered.roster.save(out, backup=False, overwrite=True)
    bom = b"\xef\xbb\xbf" if lost.roster.bom else b""
    assert out.read_bytes() == bom + expected.encode("utf-8"), tag
    return recovered


def new_then_recover(lib: Library, system: str, faction: str, tmp: Path, more: bool) -> None:
    """A new roster edited, lost and recovered; with ``more``, the recovered session is then
    edited and lost, recovered twice more (the second time with no edit in between), saved,
    edited again and lost."""
    tag = f"{system}-{faction}"
    lost = EditSession.new(lib, system, faction, "Lost")
    # its text is its document (the selections it starts with included)
    assert lost.roster.text is not None
    assert load_safe(lost.roster.text, tag) == to_plain(lost.roster.doc), tag
    assert lost.roster.dumps() == lost.roster.text, tag
    edits(lost, tag)
    again = recovered_as_lost(lib, lost, tmp, tag)
    if not more:
        for s in (lost, again):
            s.close()
        return
    # the recovered session, edited and lost in turn, comes back too; and once more with no
    # edit in between (a journal holding only its unsaved starting text)
    edits(again, tag + "-2")
    third = recovered_as_lost(lib, again, tmp, tag + "-2")
    fourth = recovered_as_lost(lib, third, tmp, tag + "-3")
    fifth = recovered_as_lost(lib, fourth, tmp, tag + "-4")
    # saved, then edited more: the edits after the save come back over the saved file
    path = tmp / f"{tag}-saved.yaml"
    fifth.save(path)
    edits(fifth, tag + "-5")
    expected = fifth.roster.dumps()
    info = find_recovery(path)
    assert info is not None and info.journal == fifth.journal.path, tag
    fifth.journal.close_quietly()
    last = EditSession.recover(info, lib)
    assert last.roster.dumps() == expected, tag
    last.save()
    assert path.read_bytes() == expected.encode("utf-8"), tag
    for s in (lost, again, third, fourth, fifth, last):
        s.close()


@pytest.mark.parametrize("system", OURS)
def test_a_new_roster_of_ours_recovers(ours: Library, system: str, tmp_path: Path) -> None:
    for k, faction in enumerate(sorted(ours.system(system).factions)):
        new_then_recover(ours, system, faction, tmp_path, more=k == 0)


@pytest.mark.parametrize("system", THEIRS)
def test_a_new_battlescribe_roster_recovers(bslib: Library, system: str, tmp_path: Path) -> None:
    if system not in bslib.systems:
        pytest.skip(f"{system} is not in the BattleScribe test data at {BSDATA}")
    factions = sorted(bslib.system(system).factions)
    if system == "wh40k-10e" and SLOW_ALL:
        game = bslib.system(system)
        for faction, like in SAME_START.items():
            if faction in factions and like in factions:
                pair = (faction, like)
                start = [sorted(map(_entries, game.starting_selections(f))) for f in pair]
                assert start[0] == start[1], (pair, start)
    elif system == "wh40k-10e":
        factions = [f for f in factions if SAME_START.get(f) not in factions]
    for k, faction in enumerate(factions):
        new_then_recover(bslib, system, faction, tmp_path, more=k == 0)


def test_a_roster_handed_over_with_changes_recovers(ours: Library, tmp_path: Path) -> None:
    """A session given a roster whose document holds a change its text does not (as a new
    roster's starting selections were): the journal starts from the document."""
    system = ours.system("starmarines")
    faction = sorted(system.factions)[0]
    roster = new_roster(system, faction, "Handed over")
    first = next(c for c in system.index(faction).roots if not c.entry.hidden)
    roster.doc["selections"].append(CommentedMap(entry=first.entry.id, count=2))
    roster.dirty = True
    roster.refresh()
    lost = EditSession(roster, system)
    edits(lost, "handed")
    recovered_as_lost(ours, lost, tmp_path, "handed").close()
    lost.close()


def test_edits_undone_to_the_start_and_redone_recover(bslib: Library, tmp_path: Path) -> None:
    """Undoing back to the new roster as made drops the journal; the edits redone, and more,
    are journaled again from the roster as made (its starting Sponsor included)."""
    lost = EditSession.new(bslib, "gaslands", "gaslands", "Undone")
    edits(lost, "undone")
    while lost.can_undo:
        lost.undo()
    assert not lost.dirty and not [i for i in list_recoveries() if i.journal == lost.journal.path]
    lost.redo()
    lost.redo()
    edits(lost, "redone")
    recovered_as_lost(bslib, lost, tmp_path, "undone").close()
    lost.close()


def test_an_opened_yaml_roster_recovers(bslib: Library, tmp_path: Path) -> None:
    """A new Gaslands roster saved, opened in another session, edited and lost."""
    first = EditSession.new(bslib, "gaslands", "gaslands", "Team", autosave=False)
    path = first.save(tmp_path / "team.yaml")
    opened = EditSession.open(path, bslib)
    edits(opened, "opened")
    expected = opened.roster.dumps()
    info = find_recovery(path)
    assert info is not None
    opened.journal.close_quietly()
    recovered = EditSession.recover(info, bslib)
    assert recovered.roster.dumps() == expected
    recovered.save()
    assert path.read_bytes() == expected.encode("utf-8")


@pytest.mark.parametrize("suffix", [".ros", ".rosz"])
def test_a_converted_battlescribe_roster_recovers(
    bslib: Library, suffix: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from armybuilder.interop.battlescribe.rosfile import to_ros, to_rosz

    made = EditSession.new(bslib, "gaslands", "gaslands", "Team", autosave=False)
    edits(made, "made")
    source = tmp_path / f"team{suffix}"
    if suffix == ".ros":
        source.write_text(to_ros(made.roster, bslib), encoding="utf-8")
    else:
        source.write_bytes(to_rosz(made.roster, bslib, "team.ros"))
    opened = EditSession.open(source, bslib)
    assert opened.roster.converted_from == source
    # its document was read from its text: the journal starts from that text, without the
    # roster written out again at the first edit
    import armybuilder.yamlio as yamlio

    written: list[bool] = []
    real = yamlio.dump_round_trip

    def dump(node: Any, *args: Any, **kw: Any) -> str:
        written.append(node is opened.roster.doc)
        return real(node, *args, **kw)

    with monkeypatch.context() as mp:
        mp.setattr(yamlio, "dump_round_trip", dump)
        edits(opened, "converted")
    assert not any(written)
    expected = opened.roster.dumps()
    info = journal_of(opened)
    assert info.path == tmp_path / "team.yaml"
    opened.journal.close_quietly()
    recovered = EditSession.recover(info, bslib)
    assert recovered.roster.dumps() == expected
    saved = recovered.save()
    assert saved == tmp_path / "team.yaml"
    assert saved.read_bytes() == expected.encode("utf-8")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")
def test_a_process_killed_editing_a_new_roster_loses_nothing(
    bslib: Library, tmp_path: Path
) -> None:
    """A process editing a new roster (40k Space Marines where the data has it, else
    Gaslands) is killed once its edits are journaled; the test recovers them."""
    system, faction = "gaslands", "gaslands"
    if "wh40k-10e" in bslib.systems:
        system, faction = "wh40k-10e", "imperium-adeptus-astartes-space-marines"
    expected = tmp_path / "expected.yaml"
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the editing process
        os.close(read)
        try:
            session = EditSession.new(bslib, system, faction, "Killed")
            edits(session, "killed")
            expected.write_text(session.roster.dumps(), encoding="utf-8")
            os.write(write, b"edited\n")
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        line = pipe.readline()
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    assert line == b"edited\n", "the editing process failed before its edits were made"
    found = [i for i in list_recoveries() if i.pid == pid]
    assert len(found) == 1
    assert not found[0].other_process_alive
    recovered = EditSession.recover(found[0], bslib)
    text = expected.read_text(encoding="utf-8")
    assert recovered.roster.dumps() == text
    out = recovered.save(tmp_path / "recovered.yaml")
    assert out.read_bytes() == text.encode("utf-8")
