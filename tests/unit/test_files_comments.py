"""Saving an edited roster keeps the user's comments and every byte outside the edited
selection (issue 14, item 3; docs/files.md "What a save keeps").

The fuzz writes rosters the way people do (comments above, after and between everything,
``---`` and ``...`` markers, flow lists over several lines with comments in them, CRLF or LF,
a byte order mark), makes random edits through the edit session, saves, and compares the file
byte for byte with what it was."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.session import EditSession
from armybuilder.yamlio import to_plain

HERE = Path(__file__).resolve().parent
DEMO = HERE.parent / "tui" / "fixtures"
ENTRIES = ("captain", "squad", "soldier")


@pytest.fixture(autouse=True)
def _home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(tmp_path.parent / "files-cache"))


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library([*default_roots(), DEMO / "catalogs"]).scan()


def test_comments_above_the_document_marker_survive_a_rename(tmp_path: Path) -> None:
    text = (
        "# header\n# yaml-language-server: $schema=roster.json\n---\n"
        "format: 1\nsystem: demo-wars\nfaction: red-army\nname: Patrol\nselections:\n"
        "  - entry: squad\n    tags: [a,  # first\n      b]  # last\n...\n# after the end\n"
    )
    roster = Roster.from_text(text)
    roster.set((), "name", "Border patrol")
    assert roster.dumps() == text.replace("name: Patrol", "name: Border patrol")


def test_crlf_comments_are_not_doubled(tmp_path: Path) -> None:
    text = (
        "# header\r\nformat: 1\r\nsystem: demo-wars\r\nfaction: red-army\r\nname: P\r\n"
        "selections:\r\n  # the captain\r\n  - entry: captain  # eol\r\n"
    )
    roster = Roster.from_text(text)
    roster.set(("selections", 0), "name", "Vos")
    out = roster.dumps()
    assert "\r\r" not in out
    assert out == text.replace("captain  # eol\r\n", "captain  # eol\r\n    name: Vos\r\n")


# --------------------------------------------------------------------------- the fuzz


@dataclass
class Generated:
    text: str  # LF, no BOM
    blocks: list[str]  # the text of each top-level selection (its comment line first)
    prefix: str  # everything before the first selection
    suffix: str  # everything after the last selection


@st.composite
def rosters(draw: st.DrawFn) -> Generated:
    n = 0

    def comment() -> str:
        nonlocal n
        n += 1
        return f"# c{n}"

    def maybe_eol() -> str:
        return "  " + comment() if draw(st.booleans()) else ""

    prefix = ""
    if draw(st.booleans()):
        directive = "%YAML 1.2\n" if draw(st.booleans()) else ""
        prefix += comment() + "\n" + directive + comment() + "\n---\n"
    if draw(st.booleans()):
        prefix += comment() + "\n"
    prefix += f"format: 1{maybe_eol()}\nsystem: demo-wars\nfaction: red-army\n"
    prefix += f"name: Patrol{maybe_eol()}\n"
    if draw(st.booleans()):
        prefix += "limits: {pts: 500}" + maybe_eol() + "\n"
    prefix += "selections:" + maybe_eol() + "\n"
    blocks = []
    for i in range(draw(st.integers(1, 4))):
        lines = [f"  {comment()}"]
        lines.append(f"  - entry: {draw(st.sampled_from(ENTRIES))}{maybe_eol()}")
        if draw(st.booleans()):
            lines.append(f"    name: Unit {i}{maybe_eol()}")
        if draw(st.booleans()):
            lines.append(f"    {comment()}")
        if draw(st.booleans()):
            first, second = comment(), comment()
            lines.append(f"    tags: [a,  {first}")
            lines.append(f"      b,   {second}")
            lines.append("      c]")
        if draw(st.booleans()):
            lines.append(f"    count: {draw(st.integers(2, 9))}{maybe_eol()}")
        if draw(st.booleans()):
            lines.append("    selections:")
            lines.append(f"      - entry: rifle{maybe_eol()}")
        blocks.append("".join(line + "\n" for line in lines))
    suffix = ""
    if draw(st.booleans()):
        suffix += comment() + "\n"
    if draw(st.booleans()):
        suffix += "...\n"
    return Generated(prefix + "".join(blocks) + suffix, blocks, prefix, suffix)


EDITS = st.lists(
    st.tuples(
        st.sampled_from(["rename", "count", "notes", "remove", "duplicate", "move"]),
        st.integers(0, 3),
    ),
    min_size=1,
    max_size=3,
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(rosters(), EDITS, st.booleans(), st.booleans())
def test_fuzz_edits_keep_comments_and_untouched_bytes(
    lib: Library,
    tmp_path: Path,
    gen: Generated,
    edits: list[tuple[str, int]],
    crlf: bool,
    bom: bool,
) -> None:
    newline = "\r\n" if crlf else "\n"
    path = tmp_path / "fuzz.yaml"
    raw = gen.text.replace("\n", newline).encode("utf-8")
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + raw)
    session = EditSession.open(path, lib, autosave=False)
    # Blocks are tracked by identity: an edited, removed or duplicated block is not checked.
    order: list[int | None] = list(range(len(gen.blocks)))
    touched: set[int] = set()
    removed: set[int] = set()
    moved: set[int] = set()
    for kind, at in edits:
        index = at % len(order)
        loc = ("selections", index)
        if kind == "rename":
            session.rename(loc, f"Renamed {at}")
        elif kind == "count":
            session.set_count(loc, at + 2)
        elif kind == "notes":
            session.set_notes(loc, f"note {at}")
        elif kind == "remove":
            if len(order) == 1:
                continue
            session.remove(loc)
            gone = order.pop(index)
            if gone is not None:
                touched.add(gone)
                removed.add(gone)
            # the comment above the next selection may be kept with the removed one's text
            if index < len(order) and order[index] is not None:
                touched.add(order[index])  # type: ignore[arg-type]
            continue
        elif kind == "duplicate":
            session.duplicate(loc)
            order.insert(index + 1, None)
            continue
        elif kind == "move":
            session.move(loc, 1)
            if index + 1 < len(order):
                order[index], order[index + 1] = order[index + 1], order[index]
                for b in (order[index], order[index + 1]):
                    if b is not None:
                        touched.add(b)
                        moved.add(b)
            continue
        block = order[index]
        if block is not None:
            touched.add(block)
    if not session.dirty:
        return
    session.save()
    data = path.read_bytes()
    # the byte order mark and the line ends are the file's own
    assert data.startswith(b"\xef\xbb\xbf") == bom
    text = data.decode("utf-8-sig")
    if crlf:
        assert "\r\r" not in text and "\n" not in text.replace("\r\n", "")
    text = text.replace("\r\n", "\n")
    # what was saved is what was edited
    assert to_plain(Roster.from_text(text).doc) == to_plain(session.roster.doc)
    # every byte outside the edited selections is kept, comments included
    assert text.startswith(gen.prefix)
    assert text.endswith(gen.suffix)
    for i, block in enumerate(gen.blocks):
        if i not in touched:
            assert block in text, f"selection {i} changed:\n{block}\n---\n{text}"
    # every comment is kept, but those of a selection removed (edited ones included), and
    # those inside a flow list of a selection that moved (ruamel.yaml cannot hold them, and a
    # moved selection is written anew: docs/files.md "What a save keeps")
    in_flow = ("    tags: [", "      b,")
    for line in gen.text.splitlines():
        if line.startswith(in_flow) and any(line in gen.blocks[i] for i in moved):
            continue
        if "# c" in line and not any(line in gen.blocks[i] for i in removed):
            comment = line[line.index("# c") :]
            assert comment in text, f"lost {comment!r}:\n{text}"
    # a second edit and save (the merge base is the text the first save wrote)
    session.rename(("selections", 0), "Second save")
    first_block = order[0]
    if first_block is not None:
        touched.add(first_block)
    session.save()
    text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
    assert to_plain(Roster.from_text(text).doc) == to_plain(session.roster.doc)
    assert text.startswith(gen.prefix) and text.endswith(gen.suffix)
    for i, block in enumerate(gen.blocks):
        if i not in touched:
            assert block in text, f"selection {i} changed on the second save:\n{text}"
