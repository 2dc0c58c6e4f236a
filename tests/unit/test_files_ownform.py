"""The merge base taken from the record of texts armybuilder writes as they are (issue 17,
armybuilder/ownform.py): opening a roster whose text was once found to be its own round-trip
base (``dump(load(text)) == text``) takes the text as the base instead of dumping the roster
again, and every save writes the same bytes as the old path that dumps it
(docs/files.md, "What a save keeps").

* A seeded random walk of edits, undos and saves over every example and a small regiment,
  each also formatted by hand (a comment above ``---``, a spaced value, CRLF, a byte order
  mark), saves byte for byte what the same walk saves with the record turned off.
* The same as a hypothesis test over shorter walks.
* Only texts whose dump was computed equal to them are ever written down: a hand-formatted
  file never is, and every text in the record reads back and dumps as itself (this test
  fails if the shortcut ever records a text that is not its own base).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from bench_rosters import regiment_roster
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder import ownform, rosters
from armybuilder.catalog import Library, default_roots
from armybuilder.errors import ArmybuilderError
from armybuilder.session import EditSession
from armybuilder.yamlio import dump_round_trip, load_round_trip

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").rglob("*.yaml"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots(), use_cache=False).scan()


@pytest.fixture(autouse=True)
def _cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("ARMYBUILDER_NO_CACHE", raising=False)


def _texts() -> Iterator[tuple[str, str]]:
    """(name, text) of every example and a small regiment, as written and hand-formatted."""
    plain = [(p.name, p.read_text(encoding="utf-8")) for p in EXAMPLES]
    plain.append(("regiment.yaml", regiment_roster(companies=1)))
    for name, text in plain:
        yield name, text
        yield (
            f"hand-{name}",
            "# kept above the marker\n---\n" + text.replace("name: ", "name:   ", 1),
        )


def _count_dumps(dump_calls: list[int], monkeypatch: pytest.MonkeyPatch) -> None:
    real = rosters.dump_round_trip

    def counting(doc: object) -> str:
        dump_calls.append(1)
        return real(doc)

    monkeypatch.setattr(rosters, "dump_round_trip", counting)


def _open(path: Path, lib: Library, record: bool, monkeypatch: pytest.MonkeyPatch) -> EditSession:
    if record:
        monkeypatch.delenv("ARMYBUILDER_NO_CACHE", raising=False)
    else:
        monkeypatch.setenv("ARMYBUILDER_NO_CACHE", "1")
    try:
        return EditSession.open(path, lib, lazy=False, autosave=False)
    finally:
        monkeypatch.delenv("ARMYBUILDER_NO_CACHE", raising=False)


def _step(session: EditSession, rng: random.Random) -> str:
    locs = [s.loc for s in session.roster.walk()]
    kind = rng.choice(["rename", "notes", "count", "remove", "undo", "save", "save"])
    if kind == "save":
        return "save"
    if kind == "undo":
        session.undo()
        return kind
    if not locs:
        return "none"
    loc = rng.choice(locs)
    if kind == "rename":
        session.rename(loc, rng.choice(["Vos", None, "Ünïcode # not a comment", "a: b"]))
    elif kind == "notes":
        session.set_notes(loc, rng.choice(["on the left", None, "two\nlines"]))
    elif kind == "count":
        session.set_count(loc, rng.randint(1, 4))
    elif len(locs) > 1:
        session.remove(loc)
    return kind


def _walk(
    tmp_path: Path,
    lib: Library,
    name: str,
    text: str,
    seed: int,
    steps: int,
    monkeypatch: pytest.MonkeyPatch,
    crlf: bool = False,
    bom: bool = False,
) -> None:
    """The same walk from the same file with the record (after one open that fills it) and
    without it; every save must write the same bytes."""
    data = (b"\xef\xbb\xbf" if bom else b"") + (
        text.replace("\n", "\r\n") if crlf else text
    ).encode("utf-8")
    new_path, old_path = tmp_path / f"new-{seed}-{name}", tmp_path / f"old-{seed}-{name}"
    new_path.write_bytes(data)
    old_path.write_bytes(data)
    try:
        _open(new_path, lib, True, monkeypatch).close()  # writes the text down if it is its own
        new = _open(new_path, lib, True, monkeypatch)
        old = _open(old_path, lib, False, monkeypatch)
    except ArmybuilderError:
        return  # (a catalog not installed: refused both ways)
    rng_new, rng_old = random.Random(seed), random.Random(seed)
    for _ in range(steps):
        outcome = []
        for session, rng in ((new, rng_new), (old, rng_old)):
            try:
                kind = _step(session, rng)
                if kind == "save" and session.dirty:
                    session.save()
                outcome.append(kind)
            except ArmybuilderError as exc:
                outcome.append(type(exc).__name__)
        assert outcome[0] == outcome[1]
        assert new_path.read_bytes() == old_path.read_bytes(), (name, seed)
    if new.dirty:
        new.save()
        old.save()
    assert new_path.read_bytes() == old_path.read_bytes(), (name, seed)


def test_a_seeded_walk_saves_the_same_bytes_with_the_record(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n, (name, text) in enumerate(_texts()):
        _walk(tmp_path, lib, name, text, 17 + n, 12, monkeypatch, crlf=n % 3 == 1, bom=n % 4 == 2)
    assert ownform.known(regiment_roster(companies=1))  # the shortcut was taken


@settings(
    max_examples=10,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    pick=st.integers(0, 2 * len(EXAMPLES) - 1),  # (the examples: the regiment is slow)
    seed=st.integers(0, 2**16),
    crlf=st.booleans(),
    bom=st.booleans(),
)
def test_any_walk_saves_the_same_bytes_with_the_record(
    lib: Library,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    pick: int,
    seed: int,
    crlf: bool,
    bom: bool,
) -> None:
    name, text = list(_texts())[pick]
    _walk(tmp_path, lib, name, text, seed, 6, monkeypatch, crlf, bom)


def test_a_text_written_down_is_opened_without_a_dump(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = regiment_roster(companies=1)
    assert dump_round_trip(load_round_trip(text, "r.yaml")) == text  # as armybuilder writes it
    path = tmp_path / "regiment.yaml"
    path.write_text(text, encoding="utf-8")
    calls: list[int] = []
    _count_dumps(calls, monkeypatch)
    assert not ownform.known(text)
    EditSession.open(path, lib, lazy=False, autosave=False).close()
    assert calls == [1] and ownform.known(text)  # computed once, and found to be its own
    session = EditSession.open(path, lib, lazy=False, autosave=False)
    assert calls == [1]  # opened again: no dump
    session.rename(session.roster.selections[0].loc, "Renamed")
    session.save()
    assert calls == [1, 1]  # the save: one dump, of the edited roster
    # Opened lazily, the known text is its base at once: the worker builds no base.
    again = tmp_path / "again.yaml"
    again.write_text(text, encoding="utf-8")
    lazy = EditSession.open(again, lib, autosave=False)
    assert lazy.roster._base_dump == (text, text)
    assert lazy.roster.doc is not None  # (built here if the worker has not yet)
    assert calls == [1, 1]


def test_only_texts_that_are_their_own_base_are_written_down(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, str] = {}
    real = ownform.remember

    def remember(text: str) -> None:
        seen[ownform._fingerprint(text)] = text
        real(text)

    monkeypatch.setattr(ownform, "remember", remember)
    for n, (name, text) in enumerate(_texts()):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        try:
            session = EditSession.open(path, lib, lazy=n % 2 == 0, autosave=False)
        except ArmybuilderError:
            continue
        assert session.roster.doc is not None  # (the lazy one: built here, with its base)
        if name.startswith("hand-"):
            assert not ownform.known(text), name  # `---` and spacing: not ruamel's text
    record = ownform._record()
    assert record is not None and record.is_file()
    written = ownform._read(record)
    assert written and set(written) <= set(seen)
    for fp in written:
        text = seen[fp]
        assert dump_round_trip(load_round_trip(text, "t.yaml")) == text


def test_another_libyaml_starts_a_new_record(monkeypatch: pytest.MonkeyPatch) -> None:
    # The record says what dump(load(text)) gave, and a plain roster is loaded from the events
    # of libyaml (ruamel.yaml.clib, yamlio's fast round-trip loader): another build of it (an
    # upgrade) starts a new record, as another ruamel.yaml or another yamlio.py does.
    import _ruamel_yaml

    text = regiment_roster(companies=1)
    monkeypatch.setattr(ownform, "_key", None)
    ownform.remember(text)
    assert ownform.known(text)
    monkeypatch.setattr(ownform, "_key", None)
    monkeypatch.setattr(_ruamel_yaml, "get_version_string", lambda: "9.9.9")
    assert not ownform.known(text)
