"""BattleScribe data files (``.gst`` game systems, ``.cat`` catalogues) into the shapes the
conformance suite writes (camelCase mappings), for :mod:`.model`.

The XML maps onto those shapes by rule: an element's attributes are its keys; a child element
whose children all share one name (``<costs><cost/>...</costs>``) is a list; ``description``,
``readme`` and ``comment`` are text; a characteristic's text is its ``value``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

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
    """A tree :func:`convert_noting` leaves to the plain walks (nested too deep, or elements
    inside a text element)."""


def convert_noting(
    el: ET.Element, ids: set[str | None], links: list[ET.Element], ends: tuple[str, ...], room: int
) -> dict[str, Any]:
    """:func:`_convert`, noting on the way every element's id (``None`` for one without) and
    the elements whose tag ends with one of ``ends``, in document order: one walk of the tree
    instead of three. ``room``: how many levels may still nest below ``el``; raises
    :class:`_Unusual` where the tree nests deeper or a text element holds elements (the
    caller then walks it the plain way, which reports what is wrong)."""
    attrib = el.attrib
    out: dict[str, Any] = dict(attrib)
    ids.add(attrib.get("id"))
    tag = el.tag
    if tag.endswith(ends):
        links.append(el)
    if room <= 0 and len(el):
        raise _Unusual
    room -= 1
    for child in el:
        name = child.tag
        if name[0] == "{":
            name = name.rpartition("}")[2]
        if name in _TEXT:
            if len(child):
                raise _Unusual
            out[name] = child.text or ""
            ids.add(child.get("id"))
            if child.tag.endswith(ends):
                links.append(child)
        elif len(child) or name.endswith("s"):
            ids.add(child.get("id"))
            if child.tag.endswith(ends):
                links.append(child)
            if room <= 0 and len(child):
                raise _Unusual
            out[name] = [convert_noting(c, ids, links, ends, room - 1) for c in child]
        else:
            out[name] = convert_noting(child, ids, links, ends, room)
    if tag.endswith("characteristic") and _tag(el) == "characteristic":
        out["value"] = el.text or ""
    return out


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
