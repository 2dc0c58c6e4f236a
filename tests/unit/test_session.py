"""The editing session the TUI drives (armybuilder.session): edits, undo/redo, dirty state,
the recovery journal, recent files and exports. No Textual here."""

from __future__ import annotations

import copy
import json
import random
import shutil
import threading
import types
from pathlib import Path

import pytest

from armybuilder.catalog import Library, default_roots
from armybuilder.editing import add_entry
from armybuilder.errors import RosterError, UnknownSystemError
from armybuilder.report import load_evaluated
from armybuilder.rosters import Roster
from armybuilder.session import (
    Delete,
    EditError,
    EditSession,
    ExportUnavailableError,
    Insert,
    Move,
    RecentFiles,
    SetKey,
    apply_op,
    export_pdf,
    export_text,
    find_recovery,
    list_recoveries,
    op_from_json,
    op_to_json,
    plain_text,
    refresh_after,
    sniff_roster,
)
from armybuilder.yamlio import dump_round_trip, to_plain

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"
EXAMPLES = HERE.parents[1] / "examples"
PLATOON = EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh user folder per test: journals and recent files do not leak."""
    cache = tmp_path.parent / "session-cache"
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(cache))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


@pytest.fixture
def patrol(tmp_path: Path) -> Path:
    path = tmp_path / "patrol.yaml"
    shutil.copy(DEMO / "rosters" / "patrol.yaml", path)
    return path


@pytest.fixture
def platoon(tmp_path: Path) -> Path:
    path = tmp_path / "rifle-platoon.yaml"
    shutil.copy(PLATOON, path)
    return path


def parsed(roster: Roster) -> list[object]:
    return list(roster.selections)


# --------------------------------------------------------------------------- operations


def test_every_operation_returns_its_inverse(patrol: Path) -> None:
    roster = Roster.from_file(patrol)
    before = dump_round_trip(roster.doc)
    node = copy.deepcopy(roster.doc["selections"][1])
    ops = [
        Insert((), 1, node),
        Insert(("selections", 0), 0, to_commented({"entry": "sword"})),
        Insert(("selections", 1, "selections", 0), 0, to_commented({"entry": "rifle"})),
        Delete((), 2),
        Move((), 0, 2),
        SetKey(("selections", 0), "name", "Major"),
        SetKey(("selections", 0), "name", None),
        SetKey(("selections", 1), "count", 2),
        SetKey((), "name", "Renamed"),
        SetKey((), "limits", to_commented({"pts": 50})),
    ]
    for op in ops:
        inverse = apply_op(roster.doc, op)
        assert dump_round_trip(roster.doc) != before
        apply_op(roster.doc, inverse)
        assert dump_round_trip(roster.doc) == before, op


def to_commented(data: object) -> object:
    from armybuilder.session.operations import _commented

    return _commented(data)


def test_new_keys_go_before_the_children(patrol: Path) -> None:
    roster = Roster.from_file(patrol)
    apply_op(roster.doc, SetKey(("selections", 1), "count", 3))
    apply_op(roster.doc, SetKey(("selections", 1), "notes", "left flank"))
    assert list(roster.doc["selections"][1]) == ["entry", "count", "name", "notes", "selections"]
    apply_op(roster.doc, SetKey((), "limits", to_commented({"pts": 90})))
    assert list(roster.doc)[:5] == ["format", "system", "faction", "name", "limits"]


def test_bad_operations_are_refused(patrol: Path) -> None:
    roster = Roster.from_file(patrol)
    with pytest.raises(EditError):
        apply_op(roster.doc, Delete((), 9))
    with pytest.raises(EditError):
        apply_op(roster.doc, Insert(("selections", 7), 0, {}))
    with pytest.raises(EditError):
        apply_op(roster.doc, Move((), 0, 5))


def test_operations_survive_the_journal_format() -> None:
    ops = [
        Insert(("selections", 0), 1, to_commented({"entry": "x", "selections": [{"entry": "y"}]})),
        Delete((), 2, drop=True),
        Move(("selections", 1), 0, 3),
        SetKey(("selections", 0), "name", "A"),
        SetKey((), "limits", None, position=4),
    ]
    for op in ops:
        back = op_from_json(json.loads(json.dumps(op_to_json(op))))
        assert op_to_json(back) == op_to_json(op)


# --------------------------------------------------------------------------- edits


def test_add_builds_the_same_selection_as_add_entry(lib: Library, platoon: Path) -> None:
    session = EditSession.open(platoon, lib)
    reference = Roster.from_file(platoon)
    index = lib.system("infantry-ops").index("inner-sphere")
    for parent, entry in [((), "platoon"), (("selections", 0), "squad"),
                          (("selections", 0, "selections", 1), "trooper")]:  # fmt: skip
        session.add(parent, entry)
        add_entry(reference, index, parent, entry)
    assert to_plain(session.roster.doc) == to_plain(reference.doc)


def test_partial_refresh_matches_a_full_parse(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib, autosave=False)
    rng = random.Random(7)
    for _ in range(120):
        locs = [s.loc for s in session.roster.walk()]
        loc = rng.choice(locs)
        action = rng.randrange(7)
        try:
            if action == 0:
                session.add((), rng.choice(["squad", "captain"]))
            elif action == 1 and len(session.roster.selections) > 1:
                session.remove(loc)
            elif action == 2:
                session.duplicate(loc)
            elif action == 3:
                session.move(loc, rng.choice([-1, 1]))
            elif action == 4:
                session.rename(loc, rng.choice(["A", "B", None]))
            elif action == 5:
                session.set_count(loc, rng.randint(1, 4))
            elif session.can_undo:
                session.undo()
        except EditError:
            continue
        full = Roster.from_text(dump_round_trip(session.roster.doc), "<full>")
        assert parsed(session.roster) == parsed(full)
        assert session.roster.header == full.header


def test_remove_duplicate_move_return_where_to_look(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    assert session.duplicate(("selections", 1)) == ("selections", 2)
    assert session.move(("selections", 2), 1) == ("selections", 3)
    assert session.move(("selections", 3), 1) == ("selections", 3)  # already last
    assert [s.get("name") for s in session.roster.doc["selections"]] == [
        "Captain Vos", "Alpha", "Bravo", "Alpha"]  # fmt: skip
    assert session.remove(("selections", 3)) == ("selections", 2)
    assert session.remove(("selections", 0, "selections", 0)) == ("selections", 0)
    with pytest.raises(EditError):
        session.remove(())


def test_choose_swaps_a_groups_choice(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    soldiers = ("selections", 2, "selections", 0)
    assert session.evaluate().codes() == ["min-not-met", "max-exceeded"]
    assert session.choose(soldiers, "weapon", "rifle") == (*soldiers, "selections", 0)
    assert [s["entry"] for s in session.node(soldiers)["selections"]] == ["rifle"]
    assert "max-exceeded" not in session.evaluate().codes()
    assert session.choose(soldiers, "weapon", None) is None
    assert "selections" in session.node(soldiers) and not session.node(soldiers)["selections"]
    assert "min-not-met" in session.evaluate().codes()
    with pytest.raises(EditError):
        session.choose(soldiers, "weapon", "sword")
    session.undo()
    session.undo()
    assert [s["entry"] for s in session.node(soldiers)["selections"]] == ["cannon"]


def test_where_to_add_looks_upwards(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    rifle = ("selections", 1, "selections", 0, "selections", 0)
    assert session.where_to_add(rifle, "soldier") == ("selections", 1)
    assert session.where_to_add(rifle, "squad") == ()
    assert session.where_to_add(rifle, "sword") is None
    with pytest.raises(EditError):
        session.add(("selections", 1), "captain")


def test_field_edits(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    squad = ("selections", 1)
    session.set_count(squad, 2)
    session.set_count(squad, 1)
    assert "count" not in session.node(squad)
    with pytest.raises(EditError):
        session.set_count(squad, 0)
    session.set_experience(squad, "veteran")
    with pytest.raises(EditError):
        session.set_experience(squad, "legendary")
    session.set_notes(squad, "  holds the ford  ")
    assert session.node(squad)["notes"] == "holds the ford"
    session.rename((), "Night patrol")
    assert session.evaluate().roster.name == "Night patrol"
    with pytest.raises(EditError):
        session.rename((), "  ")
    session.set_limit("pts", 60)
    assert session.roster.header.limits == {"pts": 60}
    assert "cost-limit-exceeded" in session.evaluate().codes()
    session.set_limit("pts", None)
    assert "limits" not in session.roster.doc
    session.set_count(squad, 1)  # no change, no step
    assert session.history == [
        "Count 2", "Count 1", "Experience Veteran", "Edit notes", "Rename roster to Night patrol",
        "Points limit 60", "Clear Points limit"]  # fmt: skip


def test_a_roster_with_unknown_entries_can_be_edited(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "typo.yaml"
    shutil.copy(DEMO / "rosters" / "unknown-entry.yaml", path)
    session = EditSession.open(path, lib)
    assert "unknown-entry" in session.evaluate().codes()
    bad = ("selections", 1, "selections", 1)
    assert session.entry_at(bad) is None and session.options(bad) == []
    with pytest.raises(EditError):
        session.add(bad, "rifle")
    session.rename(bad, "Kept as it is")
    session.remove(bad)
    assert "unknown-entry" not in session.evaluate().codes()


# --------------------------------------------------------------------------- undo, dirty, save


def test_undo_and_redo_many_steps(lib: Library, platoon: Path) -> None:
    session = EditSession.open(platoon, lib)
    original = session.roster.dumps()
    rng = random.Random(3)
    for i in range(60):
        locs = [s.loc for s in session.roster.walk()]
        loc = rng.choice(locs)
        try:
            if i % 4 == 0:
                session.duplicate(loc)
            elif i % 4 == 1:
                session.rename(loc, f"n{i}")
            elif i % 4 == 2:
                session.set_count(loc, 1 + i % 3)
            else:
                session.move(loc, 1)
        except EditError:
            pass
    edited = dump_round_trip(session.roster.doc)
    steps = len(session.history)
    assert steps > 40
    while session.can_undo:
        session.undo()
    assert dump_round_trip(session.roster.doc) == original
    assert not session.dirty
    while session.can_redo:
        session.redo()
    assert dump_round_trip(session.roster.doc) == edited
    assert len(session.history) == steps


def test_dirty_follows_the_saved_state(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    assert not session.dirty
    session.rename(("selections", 1), "Able")
    assert session.dirty
    session.undo()
    assert not session.dirty
    session.redo()
    saved = session.save()
    assert saved == patrol and not session.dirty
    assert "name: Able" in patrol.read_text(encoding="utf-8")
    assert "name: Alpha" in (patrol.parent / "patrol.yaml.bak").read_text(encoding="utf-8")
    session.undo()
    assert session.dirty
    session.redo()
    assert not session.dirty
    # a new edit after an undo drops the redo steps
    session.undo()
    session.rename(("selections", 1), "Baker")
    assert not session.can_redo and session.dirty


def test_save_as_a_new_roster(lib: Library, tmp_path: Path) -> None:
    session = EditSession.new(lib, "demo-wars", "red-army", "Fresh", {"pts": 100})
    assert session.is_new and session.dirty is False
    session.add((), "captain")
    with pytest.raises(EditError):
        session.save()
    target = tmp_path / "fresh.yaml"
    session.save(target)
    roster = Roster.from_file(target)
    assert roster.name == "Fresh" and roster.header.limits == {"pts": 100}
    assert [s.entry for s in roster.selections] == ["captain"]
    assert not session.is_new and not session.dirty


# --------------------------------------------------------------------------- validation


def test_evaluation_is_cached_per_edit(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    ev = session.evaluate()
    assert session.evaluate() is ev and session.evaluation_is_current
    assert ev.totals == {"pts": 82.0}
    session.add(("selections", 2), "soldier")
    assert not session.evaluation_is_current
    ev2 = session.evaluate()
    assert ev2 is not ev and ev2.totals == {"pts": 87.0}
    assert session.last_eval_ms > 0


def test_snapshots_evaluate_in_another_thread(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    generation, snapshot = session.snapshot()
    session.remove(("selections", 2))  # an edit while the snapshot is being validated
    result: list[object] = []
    worker = threading.Thread(target=lambda: result.append(session.evaluate_snapshot(snapshot)))
    worker.start()
    worker.join()
    ev = result[0]
    assert len(ev.root.children) == 3  # type: ignore[attr-defined]
    assert session.offer(generation, ev) is False  # outdated: shown, but not current
    assert session.evaluation is ev and not session.evaluation_is_current
    assert len(session.evaluate().root.children) == 2


# --------------------------------------------------------------------------- recovery


def test_the_journal_recovers_unsaved_edits(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    assert find_recovery(patrol) is None
    session.add(("selections", 1), "soldier")
    session.rename(("selections", 0), "Major Vos")
    session.set_limit("pts", 120)
    session.undo()
    info = find_recovery(patrol)
    assert info is not None and info.edits == 4 and not info.file_changed
    assert not info.other_process_alive  # written by this very process
    recovered = EditSession.recover(info, lib, autosave=False)
    assert to_plain(recovered.roster.doc) == to_plain(session.roster.doc)
    assert recovered.dirty and recovered.history == ["Recovered changes"]
    recovered.undo()
    assert to_plain(recovered.roster.doc) == to_plain(Roster.from_file(patrol).doc)
    assert not recovered.dirty
    # saving ends the need for recovery; so does undoing back to the saved state
    session.save()
    assert find_recovery(patrol) is None
    session.rename(("selections", 0), "Colonel Vos")
    assert find_recovery(patrol) is not None
    session.undo()
    assert find_recovery(patrol) is None


def test_the_journal_counts_edits_not_operations(lib: Library, patrol: Path) -> None:
    from armybuilder.building import split

    session = EditSession.open(patrol, lib)
    session.set_count(("selections", 1, "selections", 0), 40)
    split(session, ("selections", 1, "selections", 0))  # 40 operations, one undo step
    assert len(session.history) == 2
    info = find_recovery(patrol)
    assert info is not None and len(info.ops) == 41 and info.edits == 2
    session.undo()  # an undo is an edit of the journal too (it is replayed on recovery)
    info = find_recovery(patrol)
    assert info is not None and info.edits == 3
    recovered = EditSession.recover(info, lib, autosave=False)
    assert to_plain(recovered.roster.doc) == to_plain(session.roster.doc)


def test_a_journal_of_an_earlier_version_counts_its_operations(lib: Library, patrol: Path) -> None:
    import json

    session = EditSession.open(patrol, lib)
    session.rename(("selections", 0), "Major Vos")
    session.rename(("selections", 1), "Bravo two")
    session.journal.close()
    # As version 2 wrote it: no edit marks, one line per operation.
    head, *ops = session.journal.path.read_text(encoding="utf-8").splitlines()
    old = {**json.loads(head), "version": 2}
    unmarked = [json.dumps({k: v for k, v in json.loads(op).items() if k != "edit"}) for op in ops]
    session.journal.path.write_text("\n".join([json.dumps(old), *unmarked]) + "\n", "utf-8")
    info = find_recovery(patrol)
    assert info is not None and info.edits == 2 and len(info.ops) == 2
    recovered = EditSession.recover(info, lib, autosave=False)
    assert recovered.node(("selections", 1))["name"] == "Bravo two"


def test_a_torn_last_line_is_ignored(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    session.rename(("selections", 0), "Major Vos")
    session.journal.close()
    with session.journal.path.open("a", encoding="utf-8") as fh:
        fh.write('{"op": "set", "loc": ["sel')
    info = find_recovery(patrol)
    assert info is not None and info.edits == 1


def test_recovery_when_the_file_changed_since(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    session.rename(("selections", 0), "Major Vos")
    patrol.write_text(patrol.read_text(encoding="utf-8").replace("Bravo", "Charlie"), "utf-8")
    info = find_recovery(patrol)
    assert info is not None and info.file_changed
    recovered = EditSession.recover(info, lib)
    assert recovered.node(("selections", 2))["name"] == "Bravo"  # as it was edited
    recovered.undo()
    assert recovered.dirty  # the file on disk is something else


def test_rosters_never_saved_are_listed(lib: Library) -> None:
    session = EditSession.new(lib, "demo-wars", "red-army", "Lost patrol")
    assert list_recoveries() == []
    session.add((), "captain")
    infos = list_recoveries()
    assert [(i.name, i.path, i.edits) for i in infos] == [("Lost patrol", None, 1)]
    recovered = EditSession.recover(infos[0], lib)
    assert recovered.is_new and recovered.dirty
    assert [s.entry for s in recovered.roster.selections] == ["captain"]
    session.close()
    assert all(i.name != "Lost patrol" or i.path is not None for i in list_recoveries()[1:])


def test_closing_cleans_up(lib: Library, patrol: Path) -> None:
    session = EditSession.open(patrol, lib)
    session.rename(("selections", 0), "Major Vos")
    session.close(keep_recovery=True)
    assert find_recovery(patrol) is not None
    session.close()
    assert find_recovery(patrol) is None


# --------------------------------------------------------------------------- opening


def test_open_reports_unreadable_files_and_unknown_systems(lib: Library, tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text("system: [\n", encoding="utf-8")
    with pytest.raises(RosterError):
        EditSession.open(broken, lib)
    alien = tmp_path / "alien.yaml"
    alien.write_text("format: 1\nsystem: no-such-game\nfaction: x\nname: A\n", encoding="utf-8")
    with pytest.raises(UnknownSystemError):
        EditSession.open(alien, lib)


# --------------------------------------------------------------------------- recent files


def test_recent_files(tmp_path: Path, patrol: Path, platoon: Path) -> None:
    recent = RecentFiles()
    assert recent.entries() == []
    recent.add(patrol, "Border patrol", "demo-wars", "red-army")
    recent.add(platoon, "Rifle platoon", "infantry-ops", "inner-sphere")
    recent.add(patrol, "Border patrol", "demo-wars", "red-army")
    assert [e.path for e in recent.entries()] == [patrol.resolve(), platoon.resolve()]
    platoon.unlink()
    assert [e.name for e in recent.entries()] == ["Border patrol"]
    recent.remove(patrol)
    assert recent.entries() == []


def test_scan_folder_finds_rosters(tmp_path: Path, patrol: Path) -> None:
    (tmp_path / "notes.yaml").write_text("shopping: [eggs]\n", encoding="utf-8")
    (tmp_path / "readme.txt").write_text("system: x\nfaction: y\n", encoding="utf-8")
    found = RecentFiles.scan_folder(tmp_path)
    assert [(e.path.name, e.name, e.system) for e in found] == [
        ("patrol.yaml", "Border patrol", "demo-wars")]  # fmt: skip
    assert sniff_roster(tmp_path / "missing.yaml") is None


# --------------------------------------------------------------------------- exports


def test_export_text_without_and_with_the_renderer(
    lib: Library, patrol: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = EditSession.open(patrol, lib)
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: None)
    text = export_text(session)
    assert text == plain_text(session.evaluate())
    assert "Border patrol" in text and "Captain Vos" in text and "ERROR" in text

    def export(ev: object, to: str) -> str:
        return f"rendered {to}"

    fake = types.SimpleNamespace(export=export)
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: fake)
    assert export_text(session) == "rendered text"


def test_export_pdf_needs_the_renderer(
    lib: Library, patrol: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = EditSession.open(patrol, lib)
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: None)
    with pytest.raises(ExportUnavailableError, match="not installed"):
        export_pdf(session, tmp_path / "x.pdf")
    fake = types.SimpleNamespace(render_pdf=lambda roster, out, colour: None)
    monkeypatch.setattr("armybuilder.session.export._render_module", lambda: fake)
    with pytest.raises(ExportUnavailableError, match="interface differs"):
        export_pdf(session, tmp_path / "x.pdf")


def test_refresh_after_a_header_edit(patrol: Path) -> None:
    roster = Roster.from_file(patrol)
    op = SetKey((), "name", "Other")
    apply_op(roster.doc, op)
    refresh_after(roster, [op])
    assert roster.name == "Other" and roster.dirty


def test_partial_refresh_in_a_deeply_nested_roster(lib: Library, tmp_path: Path) -> None:
    """Edits deep inside one formation re-read only that part, and agree with a full parse."""
    examples = sorted(EXAMPLES.glob("*/*.yaml"), key=lambda p: p.stat().st_size)
    path = tmp_path / "big.yaml"
    shutil.copy(examples[-1], path)  # the largest example roster of any landed system
    session = EditSession.open(path, lib, autosave=False)
    rng = random.Random(11)
    done = 0
    for step in range(60):
        locs = [s.loc for s in session.roster.walk() if len(s.loc) >= 4]
        if not locs:
            break
        loc = rng.choice(locs)
        try:
            action = rng.randrange(5)
            if action == 0 and session.options(loc):
                session.add(loc, rng.choice(session.options(loc)).entry.id)
            elif action == 1:
                session.remove(loc)
            elif action == 2:
                session.duplicate(loc)
            elif action == 3:
                session.move(loc, rng.choice([-1, 1]))
            else:
                session.undo()
        except EditError:
            continue
        done += 1
        if step % 6 == 5:
            full = Roster.from_text(dump_round_trip(session.roster.doc), "<full>")
            assert parsed(session.roster) == parsed(full)
    full = Roster.from_text(dump_round_trip(session.roster.doc), "<full>")
    assert parsed(session.roster) == parsed(full)
    assert done > 30


@pytest.mark.parametrize(
    ("typed", "state", "shown"),
    [
        ("actions: 3, wounds: 1", {"actions": 3, "wounds": 1}, "{actions: 3, wounds: 1}"),
        ("{actions: 3, wounds: 1}", {"actions": 3, "wounds": 1}, "{actions: 3, wounds: 1}"),
        ("spent: {grenades: 2}", {"spent": {"grenades": 2}}, "{spent: {grenades: 2}}"),
        ("lost: [1, 3]", {"lost": [1, 3]}, "{lost: [1, 3]}"),
        ("note: 'hit, twice'", {"note": "hit, twice"}, '{note: "hit, twice"}'),
        ("flag: yes", {"flag": "yes"}, '{flag: "yes"}'),  # YAML 1.2: a word, kept quoted
        ("   ", None, ""),
    ],
)
def test_campaign_state_on_one_line(typed: str, state: object, shown: str) -> None:
    from armybuilder.session import parse_state, state_text

    assert parse_state(typed) == state
    assert state_text(state) == shown
    assert parse_state(shown) == state  # what is shown reads back the same


@pytest.mark.parametrize("typed", ["[1, 2]", "actions: [", "{a: 1} extra", "!!python/object x"])
def test_campaign_state_that_is_not_a_mapping_is_refused(typed: str) -> None:
    from armybuilder.session import parse_state

    with pytest.raises(EditError, match="campaign state"):
        parse_state(typed)


def test_plain_text_lists_forces_by_name_not_as_unknown_entries(library: Library) -> None:
    """A roster of several forces (format 2): each force heads its selections in the forum
    text; a force names no catalog entry and is not an unknown one."""
    ev = load_evaluated(library, str(EXAMPLES / "starship-troopers" / "two-fronts.yaml"))[2]
    text = plain_text(ev)
    assert "[unknown entry]" not in text
    assert "- North landing" in text and "- The hive" in text
    assert text.index("- North landing") < text.index("1st Squad") < text.index("- The hive")


def test_experience_prices_match_the_roster_at_each_level(lib: Library, tmp_path: Path) -> None:
    """What the builder offers for each experience level (priced on a what-if copy) is what
    the roster costs once that level is set (StarMarines X, Soldier Experience Table: a rules
    module adds experience costs of its own, which the what-if copy must include too)."""
    path = tmp_path / "starmarines-example.yaml"
    shutil.copy(EXAMPLES / "starmarines" / "starmarines-example.yaml", path)
    session = EditSession.open(path, lib, autosave=False)
    team = ("selections", 0)
    offered = session.experience_costs(team)
    levels = [lv for lv in offered if lv is not None]
    assert len({offered[lv]["bp"] for lv in levels}) == len(levels)  # each level its own price
    for level in levels:
        session.set_experience(team, level)
        ev = session.evaluate()
        node = ev.root.children[0]
        assert dict(ev.total_cost(node)) == offered[level], level
