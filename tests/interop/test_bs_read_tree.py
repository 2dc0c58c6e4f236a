"""A cold load reads each data file in one pass over the parser's events (``library.read_tree``,
``files.read_noting``): the same mapping, ids, dangling links and refusals as the parse and the
three plain walks of the tree it replaced (``safe.parse``, ``files._convert``,
``library.check_links``, ``safe.check_depth``), on the real data and on documents made here to
leave the pass's plain shape (nesting at and past the limit, elements inside a text element,
prefixed names, XML that is not well-formed, hostile XML)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.interop.battlescribe import safe
from armybuilder.interop.battlescribe.files import _convert, read_noting
from armybuilder.interop.battlescribe.library import DataFile, _dangling, check_links, read_tree

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"
NS = "http://www.battlescribe.net/schema/catalogueSchema"


def _file(tmp_path: Path, name: str, text: str) -> DataFile:
    path = tmp_path / name
    path.write_text(text)
    return DataFile(path, "catalogue", name, name, "", [])


def _plain(files: list[tuple[DataFile, str]]) -> tuple[list[object], list[object]]:
    roots = [(f, safe.parse(t, str(f.path))) for f, t in files]
    problems = check_links(roots, {f.id: t for f, t in files})
    return [_convert(r) for _, r in roots], [(p.message, p.line) for p in problems]


def _one_walk(files: list[tuple[DataFile, str]]) -> tuple[list[object], list[object]]:
    known: set[str | None] = set()
    data, links = [], []
    for f, t in files:
        converted, found = read_tree(f, t, known)
        data.append(converted)
        links.append((f, found))
    problems = _dangling(links, known, {f.id: t for f, t in files})
    return data, [(p.message, p.line) for p in problems]


@pytest.mark.skipif(not BSDATA.is_dir(), reason="no ../shared/bsdata")
@pytest.mark.parametrize(
    "name",
    ["gaslands/Gaslands.gst", "gaslands/Gaslands.cat", "space-station-zero/Crew.cat"],
)
def test_the_small_data_sets_read_the_same_in_one_pass(name: str) -> None:
    path = BSDATA / name
    files = [(DataFile(path, "catalogue", path.name, path.name, "", []), path.read_text())]
    assert _one_walk(files) == _plain(files)
    data, _ = _one_walk(files)
    assert json.dumps(data) == json.dumps(_plain(files)[0])  # the keys in the same order
    # (read in the one pass, not the plain way it falls back to)
    text = safe.prepared(files[0][1], name)
    assert read_noting(text, set(), [], ("entryLink",)) == data[0]


@pytest.mark.skipif(not (BSDATA / "wh40k-10e").is_dir(), reason="no ../shared/bsdata/wh40k-10e")
def test_the_40k_data_reads_the_same_in_one_walk() -> None:
    folder = BSDATA / "wh40k-10e"
    paths = [folder / "Warhammer 40,000.gst", folder / "Imperium - Space Marines.cat"]
    files = [(DataFile(p, "catalogue", p.name, p.name, "", []), p.read_text()) for p in paths]
    plain, one = _plain(files), _one_walk(files)
    assert one == plain
    assert json.dumps(one[0]) == json.dumps(plain[0])  # the keys in the same order
    # Space Marines links to catalogues not given here: those links are reported, alike.
    assert any("which is not in this folder" in m for m, _ in one[1])


def test_a_dangling_link_is_reported_with_its_line(tmp_path: Path) -> None:
    text = (
        f'<catalogue id="c1" name="C" xmlns="{NS}">\n<entryLinks>\n'
        '<entryLink id="l1" name="Gone" targetId="nowhere"/>\n'
        '<entryLink id="l2" name="Here" targetId="c1"/>\n</entryLinks>\n</catalogue>'
    )
    f = _file(tmp_path, "c.cat", text)
    data, problems = _one_walk([(f, text)])
    assert (data, problems) == _plain([(f, text)])
    assert problems == [
        (
            "<entryLink id='l1' name='Gone'> points to 'nowhere', which no loaded file "
            "defines; it is left out",
            3,
        )
    ]


@pytest.mark.parametrize("depth", [255, 256, 257, 300])
def test_nesting_at_and_past_the_limit(tmp_path: Path, depth: int) -> None:
    # Alternate list-shaped (`...s`) and single elements, the two ways the walk descends.
    tags = ["entries" if i % 2 else "entry" for i in range(depth)]
    text = "".join(f"<{t}>" for t in tags) + "".join(f"</{t}>" for t in reversed(tags))
    f = _file(tmp_path, "deep.cat", text)
    if depth <= safe.MAX_DEPTH:
        assert _one_walk([(f, text)]) == _plain([(f, text)])
        return
    with pytest.raises(safe.UnsafeFileError) as plain:
        _plain([(f, text)])
    with pytest.raises(safe.UnsafeFileError) as one:
        _one_walk([(f, text)])
    assert str(one.value) == str(plain.value)
    assert "elements nest more than 256 deep" in str(one.value)


def test_elements_inside_a_text_element_are_still_seen(tmp_path: Path) -> None:
    text = (
        '<catalogue id="c1"><description>words<entryLink id="l9" targetId="gone"/>'
        "</description></catalogue>"
    )
    f = _file(tmp_path, "odd.cat", text)
    data, problems = _one_walk([(f, text)])
    assert (data, problems) == _plain([(f, text)])
    assert problems and "'gone'" in problems[0][0]


_TAGS = st.sampled_from(
    [
        "entryLink",
        "infoLink",
        "categoryLink",
        "catalogueLink",
        "entries",
        "entry",
        "description",
        "characteristic",
        "costs",
        "rule",
    ]
)


@st.composite
def _trees(draw: st.DrawFn, depth: int = 0) -> ET.Element:
    el = ET.Element(draw(_TAGS))
    for key in draw(st.lists(st.sampled_from(["id", "targetId", "name"]), unique=True)):
        el.set(key, draw(st.sampled_from(["a", "b", "c1", "zz"])))
    if draw(st.booleans()):
        el.text = draw(st.sampled_from(["x", "5", ""]))
    if depth < 4:
        el.extend(draw(st.lists(_trees(depth + 1), max_size=3)))
    return el


@settings(max_examples=150, deadline=None)
@given(tree=_trees())
def test_any_small_tree_reads_the_same(
    tmp_path_factory: pytest.TempPathFactory, tree: ET.Element
) -> None:
    root = ET.Element("catalogue", {"id": "c1"})
    root.append(tree)
    text = ET.tostring(root, encoding="unicode")
    f = _file(tmp_path_factory.mktemp("t"), "t.cat", text)
    assert _one_walk([(f, text)]) == _plain([(f, text)])


def _refusal(reader: object, tmp_path: Path, text: str) -> str:
    f = _file(tmp_path, "bad.cat", text)
    with pytest.raises(safe.UnsafeFileError) as exc:
        reader([(f, text)])  # type: ignore[operator]
    return str(exc.value)


@pytest.mark.parametrize(
    "text",
    [
        '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]>'
        '<catalogue id="c1"><rules name="&lol2;"/></catalogue>',
        '<!DOCTYPE c [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><catalogue id="c1">&xxe;'
        "</catalogue>",
        '<catalogue id="c1"><rules><rule id="r1"></rules></catalogue>',
        '<catalogue id="c1">&undefined;</catalogue>',
        '<catalogue id="c1"/><catalogue id="c2"/>',
        '<catalogue id="c1"><x:rule xmlns:y="u" id="r"/></catalogue>',
        "",
    ],
)
def test_hostile_and_broken_xml_is_refused_as_before(tmp_path: Path, text: str) -> None:
    assert _refusal(_one_walk, tmp_path, text) == _refusal(_plain, tmp_path, text)


_TEXTS = st.sampled_from(["x", "5", "", " a &amp; b ", "<![CDATA[<c>]]>", "é\n", "<!-- n -->"])


@st.composite
def _documents(draw: st.DrawFn, depth: int = 0) -> str:
    """XML written by hand: text, comments and CDATA between elements, attributes with a
    namespace prefix, a default namespace."""
    tag = draw(_TAGS)
    attrs = "".join(
        f' {key}="{draw(st.sampled_from(["a", "b", "c1", "zz", "&lt;"]))}"'
        for key in draw(
            st.lists(st.sampled_from(["id", "targetId", "name", "value", "xml:lang"]), unique=True)
        )
    )
    inner = draw(_TEXTS)
    if depth < 3:
        for child in draw(st.lists(_documents(depth + 1), max_size=3)):
            inner += child + draw(_TEXTS)
    return f"<{tag}{attrs}>{inner}</{tag}>"


@settings(max_examples=150, deadline=None)
@given(body=_documents(), ns=st.sampled_from(["", f' xmlns="{NS}"', ' xmlns:p="u"']))
def test_any_small_document_reads_the_same(
    tmp_path_factory: pytest.TempPathFactory, body: str, ns: str
) -> None:
    text = f'<?xml version="1.0" encoding="UTF-8"?>\n<catalogue id="c1"{ns}>{body}</catalogue>'
    f = _file(tmp_path_factory.mktemp("t"), "t.cat", text)
    plain = _plain([(f, text)])
    assert _one_walk([(f, text)]) == plain
