"""The recovery journal records every value a roster can hold, and recovery restores exactly
what was being edited (issue 14, item 1; docs/files.md "Recovery").

Each test edits a roster in a session, "crashes" (the session is dropped without closing),
recovers from the journal and compares the bytes the recovered session saves with the bytes
the original session would have saved."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.session import EditError, EditSession, find_recovery

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"

HEAD = "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Border patrol\nselections:\n"


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "files-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


def write(tmp_path: Path, data: str | bytes, name: str = "r.yaml") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def saved_bytes(session: EditSession, tmp_path: Path, name: str) -> bytes:
    """What saving the session writes (to a fresh file, the session's own file untouched)."""
    out = tmp_path / "out" / name
    session.roster.save(out, backup=False, overwrite=True)
    data = out.read_bytes()
    return data


def recover_and_compare(lib: Library, path: Path, live: EditSession, tmp_path: Path) -> bytes:
    expected = live.roster.dumps()
    bom = live.roster.bom
    info = find_recovery(path)
    assert info is not None, "the edits were not journaled"
    recovered = EditSession.recover(info, lib, autosave=False)
    assert recovered.roster.dumps() == expected
    assert recovered.roster.bom == bom
    out = saved_bytes(recovered, tmp_path, "recovered.yaml")
    assert out == (b"\xef\xbb\xbf" if bom else b"") + expected.encode("utf-8")
    return out


def test_duplicating_a_selection_with_a_date_is_journaled(lib: Library, tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "  - entry: captain\n    notes: 2024-05-01\n")
    session = EditSession.open(path, lib)
    session.duplicate(("selections", 0))  # "d" in the builder: used to exit the app
    out = recover_and_compare(lib, path, session, tmp_path)
    assert out.count(b"notes: 2024-05-01") == 2


def test_campaign_state_with_a_date_and_undoing_a_removal(lib: Library, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        HEAD + "  - entry: captain\n  - entry: squad\n    state: {since: 2024-05-01}\n",
    )
    session = EditSession.open(path, lib)
    session.set_state(("selections", 0), "since: 2024-05-01")
    session.remove(("selections", 1))
    session.undo()  # re-inserts the removed squad, its date included
    out = recover_and_compare(lib, path, session, tmp_path)
    assert out.count(b"since: 2024-05-01") == 2


def test_keys_that_are_not_text_binary_values_and_sets(lib: Library, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        HEAD
        + "  - entry: captain\n    state:\n      1: 2\n      3.5: x\n      2024-01-01: founded\n"
        "      blob: !!binary aGVsbG8=\n      tags: !!set {a, b}\n",
    )
    session = EditSession.open(path, lib)
    session.duplicate(("selections", 0))
    recover_and_compare(lib, path, session, tmp_path)
    recovered = Roster.from_file(tmp_path / "out" / "recovered.yaml")
    state = recovered.doc["selections"][1]["state"]
    assert [k for k in state if not isinstance(k, str)][:2] == [1, 3.5]  # not "1", "3.5"
    assert "2024-01-01" not in state
    assert state["blob"] == b"hello"


def test_a_byte_order_mark_and_crlf_survive_recovery(lib: Library, tmp_path: Path) -> None:
    text = "\ufeff# patrol\r\n" + (HEAD + "  - entry: captain\n").replace("\n", "\r\n")
    path = write(tmp_path, text)
    session = EditSession.open(path, lib)
    session.rename(("selections", 0), "Vos")
    out = recover_and_compare(lib, path, session, tmp_path)
    assert out.startswith(b"\xef\xbb\xbf# patrol\r\n") and b"\n" not in out.replace(b"\r\n", b"")


def test_count_from_a_merge_key(lib: Library, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        HEAD + "  - &base {entry: squad, count: 2}\n  - <<: *base\n    name: Bravo\n",
    )
    session = EditSession.open(path, lib)
    session.set_count(("selections", 1), 1)
    assert session.count_of(("selections", 1)) == 1
    recover_and_compare(lib, path, session, tmp_path)
    session.save()
    again = Roster.from_file(path)
    assert [s.count for s in again.selections] == [2, 1]  # what the file now says
    session.set_count(("selections", 1), 5)
    session.save()
    assert [s.count for s in Roster.from_file(path).selections] == [2, 5]


def test_renaming_an_anchored_selection_leaves_its_alias_twin(lib: Library, tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "  - &a\n    entry: squad\n    name: Alpha\n  - *a\n")
    session = EditSession.open(path, lib)
    session.rename(("selections", 1), "Bravo")
    assert [s.name for s in session.roster.selections] == ["Alpha", "Bravo"]
    recover_and_compare(lib, path, session, tmp_path)
    session.save()
    assert [s.name for s in Roster.from_file(path).selections] == ["Alpha", "Bravo"]
    session.rename(("selections", 0), "Charlie")
    session.save()
    assert [s.name for s in Roster.from_file(path).selections] == ["Charlie", "Bravo"]


def test_an_edit_is_never_applied_without_being_journaled(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path, HEAD + "  - entry: captain\n")
    session = EditSession.open(path, lib)
    session.set_notes(("selections", 0), "first")
    session.rename(("selections", 0), "Vos")
    before = session.roster.dumps()
    # A value that no roster file can hold is refused before the roster changes.
    with pytest.raises(EditError):
        session.set(("selections", 0), "notes", object())
    assert session.roster.dumps() == before
    # A journal that cannot be written (a full disk): the edit is rolled back.

    def full(lines: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as m:
        m.setattr(session.journal, "append_lines", full)
        with pytest.raises(EditError, match="not made"):
            session.rename(("selections", 0), "Lost")
        assert session.roster.dumps() == before
        assert session.history == ["Edit notes", "Rename to Vos"]
        with pytest.raises(EditError):
            session.undo()
        assert session.roster.dumps() == before
        assert session.history == ["Edit notes", "Rename to Vos"]
    recover_and_compare(lib, path, session, tmp_path)


def test_two_windows_keep_their_own_journals(lib: Library, tmp_path: Path) -> None:
    path = write(tmp_path, HEAD + "  - entry: captain\n  - entry: squad\n")
    a = EditSession.open(path, lib)
    b = EditSession.open(path, lib)
    a.rename(("selections", 0), "From A")
    b.rename(("selections", 1), "From B")
    assert a.journal.path != b.journal.path
    from armybuilder.session import find_recoveries

    found = find_recoveries(path)
    assert len(found) == 2
    names = sorted(
        str(s.name)
        for info in found
        for s in EditSession.recover(info, lib, autosave=False).roster.selections
        if s.name
    )
    assert names == ["From A", "From B"]


def test_recovery_journal_of_a_copied_fixture(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "patrol.yaml"
    shutil.copy(DEMO / "rosters" / "patrol.yaml", path)
    session = EditSession.open(path, lib)
    session.add(("selections", 1), "soldier")
    session.move(("selections", 1), 1)
    session.set_limit("pts", 150)
    recover_and_compare(lib, path, session, tmp_path)


# --------------------------------------------------------------------------- the fuzz

SCALARS = (
    st.text(max_size=12)
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False, width=32)
    | st.booleans()
    | st.dates()
    | st.binary(max_size=8)
)
KEYS = st.text(min_size=1, max_size=8) | st.integers(-5, 5) | st.dates()
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=8,
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.dictionaries(KEYS, VALUES, min_size=1, max_size=3), st.booleans())
# ruamel re-formats a float read back from the journal with its written exponent and got the
# last digit wrong (…735e+27 recovered as …734e+27); found by this fuzz test.
@example({"x": 6.307285941258735e27}, False)
def test_fuzz_any_value_a_roster_can_hold_is_recovered_exactly(
    lib: Library, tmp_path: Path, state: dict[object, object], crlf: bool
) -> None:
    text = HEAD + "  - entry: captain\n  - entry: squad\n"
    path = write(tmp_path, text.replace("\n", "\r\n") if crlf else text, "fuzz.yaml")
    for leftover in (tmp_path / "home" / "recovery").glob("*.jsonl"):
        leftover.unlink()
    session = EditSession.open(path, lib)
    session.set(("selections", 0), "state", state)
    session.duplicate(("selections", 0))
    session.remove(("selections", 1))
    session.undo()
    recover_and_compare(lib, path, session, tmp_path)
    session.close()


def test_a_journal_recovered_elsewhere_is_started_again(lib: Library, tmp_path: Path) -> None:
    # Window B recovers the edits of window A while A still runs; A goes on editing, then
    # crashes: its later edits are not appended to the journal B removed, they are recoverable.
    path = write(tmp_path, HEAD + "  - entry: captain\n  - entry: squad\n")
    a = EditSession.open(path, lib)
    a.rename(("selections", 0), "First")
    info = find_recovery(path)
    assert info is not None
    EditSession.recover(info, lib, autosave=False)
    a.rename(("selections", 1), "Second")
    recover_and_compare(lib, path, a, tmp_path)


def test_duplicating_selections_with_anchors_and_merge_keys(lib: Library, tmp_path: Path) -> None:
    path = write(
        tmp_path,
        HEAD + "  - &base {entry: squad, count: 2}\n  - <<: *base\n    name: B\n  - *base\n",
    )
    session = EditSession.open(path, lib)
    for index in (1, 0, 4):
        session.duplicate(("selections", index))
    recover_and_compare(lib, path, session, tmp_path)
    session.save()
    text = path.read_text(encoding="utf-8")
    assert text.count("&base") == 1 and "<<: *base" in text and "<<: {" not in text
    again = Roster.from_file(path)
    assert [(s.entry, s.count, s.name) for s in again.selections] == [
        ("squad", 2, None),
        ("squad", 2, None),
        ("squad", 2, "B"),
        ("squad", 2, "B"),
        ("squad", 2, None),
        ("squad", 2, None),
    ]


@pytest.mark.parametrize("value", [6.307285941258735e27, 5e-324, 1.7976931348623157e308, 0.1])
def test_a_float_saved_read_and_saved_again_keeps_its_value(
    lib: Library, tmp_path: Path, value: float
) -> None:
    # The journal and every save write a value that was itself read from YAML; the second
    # writing must give the same float, not one a digit off.
    path = write(tmp_path, HEAD + "  - entry: captain\n")
    session = EditSession.open(path, lib)
    session.set(("selections", 0), "state", {"x": value})
    session.save()
    session.close()
    again = EditSession.open(path, lib)
    again.rename(("selections", 0), "Again")
    again.save()
    again.close()
    state = Roster.from_file(path).selections[0].state
    assert state["x"] == value
