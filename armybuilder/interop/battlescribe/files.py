"""BattleScribe data files (``.gst`` game systems, ``.cat`` catalogues) into the shapes the
conformance suite writes (camelCase mappings), for :mod:`.model`.

The XML maps onto those shapes by rule: an element's attributes are its keys; a child element
whose children all share one name (``<costs><cost/>...</costs>``) is a list; ``description``,
``readme`` and ``comment`` are text; a characteristic's text is its ``value``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
import xml.parsers.expat as expat
from pathlib import Path
from typing import Any

from .safe import MAX_DEPTH

_TEXT = {"description", "readme", "comment"}


class DataFileError(ValueError):
    """A data file that cannot be read (the message names it and says why)."""


def _tag(el: ET.Element) -> str:
    return el.tag.rpartition("}")[2]


def _convert(el: ET.Element) -> dict[str, Any]:
    out: dict[str, Any] = dict(el.attrib)
    for child in el:
        name = child.tag  # (the tag without its namespace, inline: this runs 50,000 times)
        if name[0] == "{":
            name = name.rpartition("}")[2]
        if name in _TEXT:
            out[name] = child.text or ""
        elif len(child) or name.endswith("s"):
            out[name] = [_convert(c) for c in child]
        else:
            out[name] = _convert(child)
    if el.tag.endswith("characteristic") and _tag(el) == "characteristic":
        out["value"] = el.text or ""
    return out


class _Unusual(Exception):
    """A file :func:`read_noting` leaves to the plain walks (nested too deep, elements inside
    a text element, or names with a namespace prefix)."""


#: How :func:`read_noting` holds an element while it is open: as a mapping (what
#: :func:`_convert` makes of it), as the list or mapping a child of a mapping becomes, or as
#: a text element.
_ITEM, _HOLDER, _TEXT_ELEMENT = 0, 1, 2


def read_noting(
    text: str, ids: set[str | None], links: list[tuple[str, dict[str, str]]], ends: tuple[str, ...]
) -> dict[str, Any]:
    """:func:`_convert` of the document ``text`` (already through :func:`.safe.prepared`),
    read straight from the parser's events instead of from a parsed tree (a quarter less CPU
    than parsing the tree and walking it), noting on the way every element's id (``None``
    for one without) and, in document order, ``(tag, attributes)`` of the elements whose tag
    ends with one of ``ends``.

    Raises :class:`_Unusual` where elements nest more than :data:`.safe.MAX_DEPTH` deep, a
    text element holds elements, or a name has a namespace prefix, and
    :class:`xml.parsers.expat.ExpatError` where the XML is not well-formed: the caller then
    reads the file the plain way, which refuses it or reads it with the messages it always
    had. (``ids`` may then hold some of the file's ids already.)"""
    if "xmlns:" in text or "xml:" in text:
        raise _Unusual  # (a prefixed name is written differently by the tree parser)
    parser = expat.ParserCreate(namespace_separator="}")  # (as ElementTree's parser)
    parser.buffer_text = True
    # An open element: [how it is held, its name's facts, its mapping, the items of a list
    # (a holder) or None, the text before its first child (a characteristic) or None].
    stack: list[list[Any]] = []
    result: list[dict[str, Any]] = []
    parts: list[str] = []
    note_id = ids.add
    note_link = links.append
    push = stack.append
    pop = stack.pop
    # Tag -> (its local name, a link?, a text element?, a characteristic?, ending in "s"?)
    names: dict[str, tuple[str, bool, bool, bool, bool]] = {}

    def data(chunk: str) -> None:
        parts.append(chunk)

    def collect() -> None:  # (text is only read where it is kept)
        parts.clear()
        parser.CharacterDataHandler = data

    def start(tag: str, attrs: dict[str, str]) -> None:
        note_id(attrs.get("id"))
        facts = names.get(tag)
        if facts is None:
            local = tag.rpartition("}")[2]
            facts = names[tag] = (
                local,
                tag.endswith(ends),
                local in _TEXT,
                local == "characteristic",
                local.endswith("s"),
            )
        if facts[1]:
            note_link((facts[0], dict(attrs)))
        if not stack:
            push([_ITEM, facts, attrs, None, None])
            if facts[3]:
                collect()
            return
        if len(stack) >= MAX_DEPTH:
            raise _Unusual
        top = stack[-1]
        held = top[0]
        if held == _ITEM:
            if top[1][3] and top[4] is None:  # a characteristic's text ends at its first child
                top[4] = "".join(parts)
                parser.CharacterDataHandler = None
            if facts[2]:
                push([_TEXT_ELEMENT, facts, None, None, None])
                collect()
            else:
                push([_HOLDER, facts, attrs, [], None])
                if facts[3]:
                    collect()
        elif held == _HOLDER:
            items = top[3]
            if top[1][3] and not items and top[4] is None:
                top[4] = "".join(parts)
                parser.CharacterDataHandler = None
            items.append(attrs)
            push([_ITEM, facts, attrs, None, None])
            if facts[3]:
                collect()
        else:
            raise _Unusual  # an element inside a text element

    def end(tag: str) -> None:
        held, facts, out, items, text = pop()
        if held == _TEXT_ELEMENT:
            stack[-1][2][facts[0]] = "".join(parts)
            parser.CharacterDataHandler = None
            return
        if facts[3] and text is None:
            text = "".join(parts)
            parser.CharacterDataHandler = None
        if held == _HOLDER:
            if items or facts[4]:  # a list (see _convert)
                stack[-1][2][facts[0]] = items
                return
            if facts[3]:
                out["value"] = text
            stack[-1][2][facts[0]] = out
            return
        if facts[3]:
            out["value"] = text
        if not stack:
            result.append(out)

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.Parse(text, True)
    return result[0]


def read_data(text: str, name: str) -> tuple[str, dict[str, Any]]:
    """``("gameSystem" | "catalogue", its mapping)`` from a file's XML."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DataFileError(f"{name}: not a BattleScribe data file: {exc}") from None
    kind = _tag(root)
    if kind not in ("gameSystem", "catalogue"):
        raise DataFileError(f"{name}: the root element is <{kind}>, not a game system or catalogue")
    return kind, _convert(root)


_ID = re.compile(rb'<catalogue\b[^>]*?\bid="([^"]+)"')
_LINK = re.compile(rb'<catalogueLink\b[^>]*?\btargetId="([^"]+)"')


def data_folder_files(folder: Path, catalogue_ids: set[str]) -> list[tuple[str, str]]:
    """The game system of ``folder`` and the catalogues with these ids, with every catalogue
    they link to: ``(file name, XML)`` pairs, game system first."""
    by_id: dict[str, tuple[Path, list[str]]] = {}
    gst: list[Path] = sorted(folder.glob("*.gst"))
    for path in sorted(folder.glob("*.cat")):
        head = path.read_bytes()
        found = _ID.search(head[:4000])
        if found is None:
            continue
        links = [m.decode() for m in _LINK.findall(head)]
        by_id[found.group(1).decode()] = (path, links)
    want: list[str] = []
    todo = list(catalogue_ids)
    while todo:
        cid = todo.pop()
        if cid in want or cid not in by_id:
            continue
        want.append(cid)
        todo.extend(by_id[cid][1])
    paths = [*gst[:1], *(by_id[c][0] for c in want)]
    return [(p.name, p.read_text(encoding="utf-8")) for p in paths]
