"""BattleScribe roster files (``.ros``, zipped ``.rosz``) as armybuilder rosters, and back.

``read_roster`` turns a ``.ros`` into our YAML roster (the reader registered for the suffixes in
``armybuilder.formats``, so every command and the builder open such files); ``to_ros`` writes a
roster of BattleScribe data as ``.ros``. What our roster model does not hold (attributes and
elements we do not read: a newer BattleScribe's additions, another tool's) is kept under the
``x-battlescribe:`` key of the YAML and written back by ``to_ros``. Profiles, rules, costs,
categories and publications inside the file are not kept: they come from the data.

A roster of one force becomes a roster file of one force (format 1); one of several forces, or
with child forces, a roster of several forces (format 2, top-level ``forces:``), each force with
its catalogue as its faction and its own ``x-battlescribe:`` key.

    python -m armybuilder.interop.battlescribe.rosfile to-yaml IN.ros OUT.yaml
    python -m armybuilder.interop.battlescribe.rosfile to-ros IN.yaml|IN.ros OUT.ros
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, NoReturn
from xml.parsers import expat

from ...catalog import GameSystem, Library, default_library, default_roots
from ...errors import ArmybuilderError, Problem, RosterError, UnknownFactionError
from ...model.bounds import MAX_COUNT
from ...yamlio import dump_round_trip
from . import ros
from .adapter import ActionError, AdapterSession, Force, Sel
from .library import BattleScribeSystem
from .safe import UnsafeFileError, decode, keeping_parser, parse, read_bytes

#: Attributes and child elements the reader understands or that are worked out from the data
#: again; everything else is kept.
_KNOWN_ATTRS = {
    "roster": {
        "id",
        "name",
        "battleScribeVersion",
        "gameSystemId",
        "gameSystemName",
        "gameSystemRevision",
        "xmlns",
    },
    "force": {
        "id",
        "name",
        "entryId",
        "catalogueId",
        "catalogueRevision",
        "catalogueName",
        "customName",
    },
    "selection": {"id", "name", "entryId", "entryGroupId", "number", "type", "customName"},
}
_KNOWN_CHILDREN = {
    "roster": {"costs", "costLimits", "forces", "customNotes"},
    "force": {
        "selections",
        "forces",
        "categories",
        "publications",
        "rules",
        "profiles",
        "customNotes",
    },
    "selection": {"selections", "costs", "categories", "profiles", "rules", "customNotes"},
}


#: Where a converted roster keeps BattleScribe's ids and what we do not read.
KEY = "x-battlescribe"


_local = ros._tag


def _strip_ns(el: ET.Element) -> ET.Element:
    for e in el.iter():
        if isinstance(e.tag, str) and e.tag.startswith("{" + ros.NS + "}"):
            e.tag = _local(e)
    return el


def _tostring(el: ET.Element) -> str:
    """An element as XML text, a carriage return in its text written ``&#13;``: written bare
    (as ElementTree writes it), a reader takes it for a line feed. (A comment or processing
    instruction holds none: a parser turns each of theirs into a line feed.)"""
    return ET.tostring(el, encoding="unicode").strip().replace("\r", "&#13;")


def _xml(el: ET.Element) -> str:
    """An element (a comment, a processing instruction) as XML text, without its tail."""
    tail, el.tail = el.tail, None
    try:
        return _tostring(_strip_ns(el))
    finally:
        el.tail = tail


def _notes_of(el: ET.Element) -> ET.Element | None:
    found = [c for c in el if _local(c) == "customNotes"]
    return found[0] if found else None


def _inner_comments(el: ET.Element, kind: str) -> list[str]:
    """The comments and processing instructions inside the parts of ``el`` that are written
    anew from the roster (its ``<selections>``, ``<costs>``, ``<customNotes>``...), not
    inside the forces and selections there (each keeps its own): kept with ``el``'s own
    elements, so that a round trip keeps them (where they stood is not kept)."""
    out: list[str] = []
    todo = [c for c in el if _local(c) in _KNOWN_CHILDREN[kind]]
    while todo:
        part = todo.pop(0)
        for c in part:
            if not isinstance(c.tag, str):
                out.append(_xml(c))
            elif _local(c) not in ("force", "selection"):
                todo.append(c)
    return out


def _unknown(el: ET.Element, kind: str) -> dict[str, Any]:
    """What of this element the model does not hold (empty when nothing): attributes,
    elements, comments and processing instructions."""
    out: dict[str, Any] = {}
    attrs = {k: v for k, v in el.attrib.items() if k not in _KNOWN_ATTRS[kind]}
    if attrs:
        out["attributes"] = attrs
    xml = [_xml(c) for c in el if _local(c) not in _KNOWN_CHILDREN[kind]]
    xml.extend(_inner_comments(el, kind))
    if xml:
        out["elements"] = xml
    return out


def find_system(library: Library, game_system_id: str) -> BattleScribeSystem | None:
    for gs in library.systems.values():
        if (
            isinstance(gs, BattleScribeSystem)
            and gs.system_file is not None
            and gs.system_file.id == game_system_id
        ):
            return gs
    return None


def _error(
    path: Path, message: str, line: int | None = None, column: int | None = None
) -> RosterError:
    return RosterError([Problem(str(path), message, line, column, "roster-invalid")])


class RosText(str):
    """The YAML text of a roster read from a ``.ros``, knowing where its parts were in that
    file: :attr:`positions` maps a location in the YAML (``("selections", 1)``) to the line of
    the ``.ros`` element it came from, so issues name the line of the file the player has."""

    positions: dict[tuple[str | int, ...], int]


def _element_lines(
    text: str, root: ET.Element, outside: tuple[list[str], list[str]] | None = None
) -> dict[int, int]:
    """The line each element of ``root`` (parsed from ``text``, already checked by
    :func:`safe.parse`: no DTD, bounded nesting) starts on, by ``id()`` of the element.
    ``outside``: where to put the comments and processing instructions before the root
    element and after it (the tree holds only what is inside it), as XML text."""
    if text.startswith("<?xml"):  # (as safe.parse does; its line ends kept for the count)
        end = text.find("?>") + 2
        text = "\n" * text.count("\n", 0, end) + text[end:]
    starts: list[int] = []
    parser = expat.ParserCreate()
    depth = 0

    def on_start(name: str, attrs: dict[str, str]) -> None:
        nonlocal depth
        starts.append(parser.CurrentLineNumber)
        depth += 1

    def on_end(name: str) -> None:
        nonlocal depth
        depth -= 1

    def mark(xml: str) -> None:
        if depth == 0 and outside is not None:
            outside[1 if starts else 0].append(xml)

    parser.StartElementHandler = on_start
    parser.EndElementHandler = on_end
    parser.CommentHandler = lambda data: mark(f"<!--{data}-->")
    parser.ProcessingInstructionHandler = lambda target, data: mark(
        f"<?{target} {data}?>" if data else f"<?{target}?>"
    )
    try:
        parser.Parse(text, True)
    except expat.ExpatError:
        if outside is not None:
            outside[0].clear()
            outside[1].clear()
        return {}
    elements = [el for el in root.iter() if isinstance(el.tag, str)]
    if len(elements) != len(starts):
        return {}
    return {id(el): line for el, line in zip(elements, starts, strict=True)}


def read_roster(path: Path, library: Library | None = None) -> str:
    """A ``.ros`` / ``.rosz`` file as the text of our YAML roster (raises RosterError)."""
    name = str(path)
    try:
        text = decode(read_bytes(path), name)
        root = parse(text, name, keep_comments=True)
    except UnsafeFileError as exc:
        reason = exc.reason or str(exc).removeprefix(f"{name}: ")
        raise _error(path, reason, exc.line, exc.column) from None
    if _local(root) != "roster":
        raise _error(path, f"not a BattleScribe roster: the root element is <{_local(root)}>")
    outside: tuple[list[str], list[str]] = ([], [])
    lines = _element_lines(text, root, outside)
    forces = _force_elements(root)
    if not forces:
        raise _error(path, "holds no force: a BattleScribe roster lists its forces under <forces>")
    lib = library or default_library()
    gsid = root.get("gameSystemId", "")
    gs = find_system(lib, gsid)
    if gs is None:
        raise _error(
            path,
            f"needs the BattleScribe game system {root.get('gameSystemName') or gsid!r} "
            f"({gsid}), which is not installed: put its data folder on the catalog path "
            "(--catalogs DIR, or the user catalog folder)",
        )
    fids: list[str] = []
    for force_el in forces:
        fid = gs.faction_of(force_el.get("catalogueId", ""))
        if fid is None:
            raise _error(
                path,
                f"force {force_el.get('name')!r} needs the catalogue "
                f"{force_el.get('catalogueName') or force_el.get('catalogueId')!r}, which "
                f"{gs.name} at {gs.folder} does not have",
                lines.get(id(force_el)),
            )
        if fid not in fids:
            fids.append(fid)
    for el in root.iter():
        if _local(el) == "selection" and _number(el.get("number", "1")) is None:
            raise _error(
                path,
                f"selection {el.get('name')!r}: its number {el.get('number')!r} is not a "
                "number (BattleScribe writes how many were taken there)",
                lines.get(id(el)),
            )
    t = gs.translation_of(fids)
    session = AdapterSession()
    session.t = t
    unknown: ros.Unknown = {}
    try:
        ros.loads(session, text, unknown, root)
    except ros.RosterFileError as exc:
        where = lines.get(id(exc.element)) if exc.element is not None else None
        raise _error(path, str(exc), where) from None
    positions: dict[tuple[str | int, ...], int] = {}
    out = RosText(
        session_yaml(session, gs, fids[0], root, path.name, unknown, lines, positions, outside)
    )
    out.positions = positions
    return out


def _odd_count(raw: str) -> int | float | None:
    """A selection's ``number`` as the file gives it where it is no count a roster holds (not
    a whole number from 1 up, or too large to read as a float exactly): written as the YAML
    roster's ``count``, which the roster's checks report at the selection's line (counted
    as 1), as they report such a count in a YAML roster. ``None``: a plain count."""
    text = raw.strip()
    if text.isdigit():
        whole = int(text)
        return whole if whole < 1 or whole > MAX_COUNT else None
    try:
        value = float(text)
    except ValueError:
        return None
    if not math.isfinite(value) or (value.is_integer() and 1 <= value <= MAX_COUNT):
        return None
    return int(value) if value.is_integer() else value


def _number(raw: str) -> int | None:
    """A selection's ``number`` as a whole number (``None``: not a finite number)."""
    try:
        value = float(raw)
    except ValueError:
        return None
    return int(value) if math.isfinite(value) else None


def _force_elements(root: ET.Element) -> list[ET.Element]:
    """Every <force> of a roster, child forces after their parent."""
    out: list[ET.Element] = []

    def walk(el: ET.Element) -> None:
        for holder in el:
            if _local(holder) == "forces":
                for f in holder:
                    if _local(f) == "force":
                        out.append(f)
                        walk(f)

    walk(root)
    return out


def session_yaml(
    session: AdapterSession,
    gs: BattleScribeSystem,
    fid: str,
    root: ET.Element | None = None,
    source: str | None = None,
    unknown: ros.Unknown | None = None,
    lines: dict[int, int] | None = None,
    positions: dict[tuple[str | int, ...], int] | None = None,
    outside: tuple[list[str], list[str]] | None = None,
) -> str:
    """The adapter's roster as our YAML roster: one force as a roster of one force (format 1),
    several forces, or child forces, as a roster of several forces (format 2, ``forces:``).
    ``fid``: the roster's faction when the session's first force names none; ``root``: the
    ``.ros`` it was read from, whose content we do not read is kept under ``x-battlescribe:``
    keys; ``unknown``: selections of entries the data does not hold (see :func:`ros.loads`),
    kept as selections of those entry ids (the roster's checks report each) with their XML,
    which :func:`to_ros` writes back as it was; ``lines``: the line of each element of
    ``root`` (by ``id()``), from which ``positions`` gets the line of each location of the
    YAML (see :class:`RosText`); ``outside``: the comments and processing instructions before
    and after the ``<roster>`` element, kept as its ``before:`` and ``after:``."""
    t = session.t
    assert t is not None
    sel_els: dict[str | None, ET.Element] = {}
    force_els: dict[str | None, ET.Element] = {}
    if root is not None:
        for el in root.iter():
            kind = _local(el)
            if kind == "selection":
                sel_els.setdefault(el.get("id"), el)
            elif kind == "force":
                force_els.setdefault(el.get("id"), el)

    def sel_doc(s: Sel) -> dict[str, Any]:
        el = sel_els.get(s.uid)
        odd = _odd_count(el.get("number", "1")) if el is not None else None
        d: dict[str, Any] = {"entry": s.our_id}
        if odd is not None:
            d["count"] = odd
        elif s.count != 1:
            d["count"] = s.count
        if s.custom_name:
            d["name"] = s.custom_name
        if s.custom_notes:
            d["notes"] = s.custom_notes
        keep: dict[str, Any] = {"id": s.uid}
        if el is not None:
            keep.update(_unknown(el, "selection"))
            origin[id(d)] = el
        d[KEY] = keep
        children = with_unknown(s.uid, [sel_doc(c) for c in s.children])
        if children:
            d["selections"] = children
        return d

    def with_unknown(uid: str, docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
        for place, el in (unknown or {}).get(uid, []):
            docs.insert(min(place, len(docs)), unknown_doc(el, True))
        return docs

    def unknown_doc(el: ET.Element, top: bool) -> dict[str, Any]:
        d: dict[str, Any] = {"entry": el.get("entryId", "")}
        odd = _odd_count(el.get("number", "1"))
        count = odd if odd is not None else _number(el.get("number", "1")) or 1
        if count != 1:
            d["count"] = count
        if el.get("customName"):
            d["name"] = el.get("customName")
        notes = _notes_of(el)
        if notes is not None:
            d["notes"] = ros.text_of(notes)
        keep: dict[str, Any] = {"id": el.get("id"), "name": el.get("name")}
        origin[id(d)] = el
        if top:
            copy = _strip_ns(ET.fromstring(ET.tostring(el), keeping_parser()))
            copy.tail = None
            ET.indent(copy, "  ")
            keep["element"] = _tostring(copy)
        d[KEY] = keep
        children = [
            unknown_doc(c, False)
            for holder in el
            if _local(holder) == "selections"
            for c in holder
            if _local(c) == "selection"
        ]
        if children:
            d["selections"] = children
        return d

    #: The element each part of the YAML came from, by ``id()`` of the part.
    origin: dict[int, ET.Element] = {}

    def force_keep(force: Force) -> dict[str, Any]:
        keep: dict[str, Any] = {"id": force.uid}
        el = force_els.get(force.uid)
        if el is not None:
            keep.update(_unknown(el, "force"))
        return keep

    def faction_of(force: Force) -> str:
        return t.ids.ours(force.catalogue.id)

    several = len(session.forces) != 1 or bool(session.forces[0].children)
    roster_fid = faction_of(session.forces[0]) if session.forces else fid
    doc: dict[str, Any] = {
        "format": 2 if several else 1,
        "system": gs.id,
        "faction": roster_fid,
        "name": session.name,
    }
    limits: dict[str, Any] = {
        t.ids.ours(k): int(v) if float(v).is_integer() else v for k, v in session.limits.items()
    }
    odd = ros.odd_limits(root) if root is not None else {}
    for k, (value, _) in odd.items():
        # No number ("abc", "NaN"): kept as the file has it, for the roster's checks to report
        # at its line (never a limit dropped without a word).
        limits[t.ids.ours(k)] = value
    if limits:
        doc["limits"] = limits
    keep_roster: dict[str, Any] = {}
    if root is not None:
        keep_roster = {"converted_from": source, "roster": _unknown(root, "roster")}
        if root.get("id") not in (None, "roster"):
            keep_roster["roster"] = {"id": root.get("id"), **keep_roster["roster"]}
        for key, marks in zip(("before", "after"), outside or ([], []), strict=True):
            if marks:
                keep_roster["roster"][key] = list(marks)
    if several:
        if keep_roster:
            doc[KEY] = keep_roster

        def force_doc(force: Force) -> dict[str, Any]:
            d: dict[str, Any] = {"force": t.ids.ours(force.entry.id)}
            d["faction"] = faction_of(force)
            if force.custom_name:
                d["name"] = force.custom_name
            if force.custom_notes:
                d["notes"] = force.custom_notes
            d[KEY] = force_keep(force)
            if force.uid in force_els:
                origin[id(d)] = force_els[force.uid]
            d["selections"] = with_unknown(force.uid, [sel_doc(s) for s in force.selections])
            if force.children:
                d["forces"] = [force_doc(c) for c in force.children]
            return d

        doc["forces"] = [force_doc(f) for f in session.forces]
    else:
        force = session.forces[0]
        doc["force"] = t.ids.ours(force.entry.id)
        if force.custom_notes:
            doc["notes"] = force.custom_notes
        keep_force = force_keep(force)
        if force.custom_name:
            keep_force["customName"] = force.custom_name
        doc[KEY] = {**keep_roster, "force": keep_force}
        doc["selections"] = with_unknown(force.uid, [sel_doc(s) for s in force.selections])
    head = (
        f"Converted from the BattleScribe roster {source} by armybuilder. The `x-battlescribe:`\n"
        "keys keep what armybuilder does not read, for writing the roster back as .ros."
        if source
        else f"{gs.name} roster ({roster_fid}), made by armybuilder. The `x-battlescribe:` keys "
        "keep BattleScribe's\nids, for writing the roster as .ros."
    )
    if root is not None and positions is not None and lines:
        origin[id(doc)] = root
        holders = [c for c in root if _local(c) == "costLimits"]
        if holders and isinstance(doc.get("limits"), dict):
            origin[id(doc["limits"])] = holders[0]

        def place(node: Any, loc: tuple[str | int, ...]) -> None:
            el = origin.get(id(node))
            if el is not None and id(el) in lines:
                positions[loc] = lines[id(el)]
            if not isinstance(node, dict):
                return
            for key in ("selections", "forces", "limits"):
                found = node.get(key)
                if isinstance(found, list):
                    for i, child in enumerate(found):
                        place(child, (*loc, key, i))
                elif found is not None:
                    place(found, (*loc, key))

        place(doc, ())
    body = dump_round_trip(doc)
    return "".join(f"# {line}\n" for line in head.splitlines()) + body


def new_session(gs: BattleScribeSystem, faction_id: str, auto: bool = True) -> AdapterSession:
    """An adapter session holding one empty force of this catalogue (the game system's first
    force entry). ``auto``: with what the data requires chosen, as BattleScribe does when a
    force is added, less what is hidden in this roster (the engine says which)."""
    session = AdapterSession()
    session.t = gs.translation_for(faction_id)
    add_force(session, gs, faction_id, auto=auto)
    return session


def add_force(
    session: AdapterSession,
    gs: BattleScribeSystem,
    faction_id: str,
    force_entry: str | None = None,
    parent: Force | None = None,
    auto: bool = True,
) -> Force:
    """Add a force of this catalogue to the session (``force_entry``: a force entry's
    BattleScribe id, default the game system's first; ``parent``: a force to hold it as a
    child force), with what the data requires chosen when ``auto`` (see :func:`new_session`).
    The session's translation must hold the catalogue (:meth:`BattleScribeSystem.translation_of`).
    """
    t = session.t
    assert t is not None
    found = t.force_entries.get(force_entry) if force_entry else None
    fe = found or next(iter(t.force_entries.values()), None)
    if fe is None or (force_entry and found is None):
        raise ArmybuilderError(f"{gs.name} defines no force {force_entry or ''}".rstrip())
    force = Force(session._uid("force"), fe[0], t.catalogue(gs.bs_id(faction_id)))
    (parent.children if parent is not None else session.forces).append(force)
    session._evals = None
    if not auto:
        return force
    session._add_root_auto(force)
    # Entries the roster needs (a minimum in the roster) come too, as a player adds them.
    for opt in session._options_in(None, (), session._root_entries(force)):
        links = opt.link.constraints if opt.link is not None else []
        need = max(
            (
                int(c.value)
                for c in [*opt.entry.constraints, *links]
                if c.type == "min" and c.scope == "roster" and c.field == "selections"
            ),
            default=0,
        )
        have = sum(1 for s in force.selections if s.option.entry.id == opt.entry.id)
        for _ in range(need - have):
            force.selections.append(session._new_sel(opt, {}))
    session._evals = None
    evals = session._evaluate()
    hidden = {
        id(evals.sels[id(n)])
        for n in evals.ev.root.walk()
        if id(n) in evals.sels and n.entry is not None and evals.ev.is_hidden(n.entry, n)
    }
    force.selections = [s for s in force.selections if id(s) not in hidden]
    session._evals = None
    return force


def select(
    session: AdapterSession, entry_id: str, under: Sel | None = None, force: Force | None = None
) -> Sel:
    """Choose an entry (its BattleScribe id, or a link's) at the top of a force (default the
    first) or under a selection of it, with what it requires (raises ArmybuilderError)."""
    force = force or session.forces[0]
    cmd: dict[str, Any] = {"type": "action", "forceId": force.uid, "entryId": entry_id}
    if under is None:
        cmd["action"] = "selectEntry"
    else:
        cmd.update(action="selectChildEntry", selectionId=under.uid)
    got = session.action(cmd)
    if not got.get("ok"):
        raise ArmybuilderError(str(got.get("error")))
    uid = (got.get("outputs") or {}).get("selectionId")
    found = next((s for s in session._walk_sels(force.selections) if s.uid == uid), None)
    if found is None:
        raise ArmybuilderError(f"selecting {entry_id!r} gave no selection: {got}")
    return found


def to_ros(roster: Any, library: Library) -> str:
    """A roster of BattleScribe data (our :class:`~armybuilder.rosters.Roster`, of one force or
    of several) as ``.ros`` XML, with what the file it came from held that we do not read
    (raises ArmybuilderError when its system is not BattleScribe data or an entry is unknown).

    Ids, names, numbers, costs and categories are BattleScribe's, worked out from the data;
    forces and selections stay in the roster's order (BattleScribe sorts what it shows itself),
    so the YAML converted back lists them as the player did."""
    from ...yamlio import to_plain

    gs: GameSystem = library.system(roster.system)
    if not isinstance(gs, BattleScribeSystem):
        raise ArmybuilderError(
            f"{roster.file}: {gs.name} is not BattleScribe data; only rosters of BattleScribe "
            "data can be written as .ros"
        )
    t = gs.translation_of(roster.factions())
    doc = to_plain(roster.doc)
    found = doc.get(KEY)
    keep_doc: dict[str, Any] = found if isinstance(found, dict) else {}
    session = AdapterSession()
    session.t = t
    keep: ros.Keep = {}
    raw: ros.Raw = {}
    used: set[str] = set()

    def refuse(loc: Loc, message: str) -> NoReturn:
        """What a ``.ros`` cannot hold (or would hold otherwise than the roster does) is
        refused, at its place, rather than written changed."""
        line, column = roster.position(loc)
        where = _where(loc)
        raise RosterError(
            [
                Problem(
                    str(roster.file),
                    f"{where}: {message}; the roster cannot be written as .ros until it is changed",
                    line,
                    column,
                    "not-writable",
                )
            ]
        )

    def text(value: Any, loc: Loc) -> str | None:
        """A name or notes as the ``.ros`` holds it (``None``: none)."""
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, str | int | float):
            refuse(loc, f"must be text, not {_kind(value)}")
        out = str(value)
        bad = NOT_XML.search(out)
        if bad is not None:
            refuse(
                loc, f"holds {_character(bad.group())}, which an XML file such as .ros cannot hold"
            )
        return out

    def xml_text(value: Any, loc: Loc) -> str:
        """Kept XML (an element the reader did not read), refused unless it reads as XML."""
        out = text(value, loc) or ""
        try:
            parse(f"<kept>{out}</kept>", "kept")
        except UnsafeFileError as exc:
            refuse(loc, f"is not XML a .ros can hold back ({exc.reason or exc})")
        return out

    def remember(uid: str, info: Any, at: Loc, kind: str) -> None:
        """Keep what the ``x-battlescribe:`` mapping ``info`` (at ``at``) holds for the
        ``kind`` element of instance id ``uid``, refusing what would not write back as XML
        (or would write an attribute the writer writes itself a second time)."""
        if not isinstance(info, dict):
            return
        attrs = info.get("attributes") or {}
        elements = info.get("elements") or []
        if not isinstance(attrs, dict):
            refuse((*at, "attributes"), "must be a mapping of attribute names to values")
        if not isinstance(elements, list):
            refuse((*at, "elements"), "must be a list of XML elements")
        pairs: list[tuple[str, str]] = []
        for k, v in attrs.items():
            if not isinstance(k, str) or not _ATTR_NAME.fullmatch(k):
                refuse((*at, "attributes"), f"{k!r} is not an XML attribute name")
            if k in _KNOWN_ATTRS[kind] or k == "xmlns":
                refuse((*at, "attributes"), f"{k!r} is written from the roster, not kept")
            pairs.append((k, text(v, (*at, "attributes", k)) or ""))
        kept = [xml_text(x, (*at, "elements", i)) for i, x in enumerate(elements)]
        if pairs or kept:
            keep[uid] = (pairs, kept)

    def instance_id(info: Any, default: str) -> str:
        uid = info.get("id") if isinstance(info, dict) else None
        got = str(uid) if uid and str(uid) not in used else default
        used.add(got)
        return got

    def new_force(force_id: str | None, faction: str, info: Any, loc: Loc, at: Loc) -> Force:
        where = _where(loc)
        cat = t.catalogue(gs.bs_id(faction))
        fe = t.force_entries.get(t.ids.bs(force_id)) if force_id else None
        if fe is None and force_id:
            known = ", ".join(t.ids.ours(k) for k in t.force_entries) or "none"
            raise ArmybuilderError(
                f"{roster.file}: {where}: unknown force {force_id!r} (forces: {known})"
            )
        if fe is None:
            fe = next(iter(t.force_entries.values()), None)
        if fe is None:
            raise ArmybuilderError(f"{roster.file}: {gs.name} defines no force")
        force = Force(instance_id(info, session._uid("force")), fe[0], cat)
        remember(force.uid, info, at, "force")
        return force

    def build(items: Any, force: Force, parent: Sel | None, at: Loc) -> list[Sel]:
        out: list[Sel] = []
        where = _where(at)
        for i, item in enumerate(items or []):
            if not isinstance(item, dict):
                continue
            loc = (*at, i)
            if parent is None:
                options = session._options_in(None, (), session._root_entries(force))
            else:
                options = session._options_in(parent.option.entry, parent.option.prefix, [])
            want = str(item.get("entry"))
            opts = list(options)
            opt = next(
                (
                    o
                    for o in opts
                    if t.ids.ours(o.link.id if o.link is not None else o.entry.id) == want
                ),
                None,
            ) or next((o for o in opts if t.ids.ours(o.entry.id) == want), None)
            info = item.get(KEY)
            element = info.get("element") if isinstance(info, dict) else None
            if opt is None and isinstance(element, str):
                # An entry the data does not hold, read from a .ros: written back as it was,
                # with the count, name and notes the roster gives it now.
                element = xml_text(element, (*loc, KEY, "element"))
                name, notes = (
                    text(item.get("name"), (*loc, "name")),
                    text(item.get("notes"), (*loc, "notes")),
                )
                raw.setdefault(parent.uid if parent is not None else force.uid, []).append(
                    (i, _edited(element, count_of(item, loc), name, notes))
                )
                continue
            if opt is None:
                raise ArmybuilderError(
                    f"{roster.file}: {where}[{i}]: entry {want!r} cannot be chosen there in "
                    f"{force.catalogue.name}"
                )
            sel = session._plain_sel(opt)
            sel.uid = instance_id(info, sel.uid)
            remember(sel.uid, info, (*loc, KEY), "selection")
            sel.count = count_of(item, loc)
            sel.custom_name = text(item.get("name"), (*loc, "name"))
            sel.custom_notes = text(item.get("notes"), (*loc, "notes"))
            sel.children = build(item.get("selections"), force, sel, (*loc, "selections"))
            out.append(sel)
        return out

    def count_of(item: dict[str, Any], loc: Loc) -> int:
        """A selection's count as the ``.ros`` number: a whole number as it is (one out of
        range too: the roster's checks report it, and reading the file back gives it again);
        anything else refused, never written as 1."""
        if "count" not in item:
            return 1
        count = item["count"]
        if isinstance(count, float) and math.isfinite(count) and count.is_integer():
            count = int(count)
        if isinstance(count, bool) or not isinstance(count, int):
            refuse((*loc, "count"), f"{_shown(count)} is not a whole number, as a .ros count is")
        return count

    def read_force(fd: Any) -> Force:
        loc = tuple(fd.loc) if fd.loc else ("forces",)
        node = to_plain(roster.node(fd.loc)) if fd.loc else {}
        info = node.get(KEY) if isinstance(node, dict) else None
        force = new_force(fd.force, fd.faction or roster.faction, info, loc, (*loc, KEY))
        if isinstance(node, dict):
            force.custom_name = text(node.get("name"), (*loc, "name"))
            force.custom_notes = text(node.get("notes"), (*loc, "notes"))
        force.selections = build(
            node.get("selections") if isinstance(node, dict) else None,
            force,
            None,
            (*loc, "selections"),
        )
        force.children = [read_force(c) for c in fd.forces]
        return force

    session.name = text(roster.name, ("name",)) or ""
    remember("roster", keep_doc.get("roster"), (KEY, "roster"), "roster")
    try:
        if roster.forces is not None:
            session.forces = [read_force(fd) for fd in roster.forces]
        else:
            found = keep_doc.get("force")
            kf: dict[str, Any] = found if isinstance(found, dict) else {}
            force = new_force(roster.header.force, roster.faction, kf, ("force",), (KEY, "force"))
            force.custom_name = text(kf.get("customName"), (KEY, "force", "customName"))
            force.custom_notes = text(doc.get("notes"), ("notes",))
            force.selections = build(doc.get("selections"), force, None, ("selections",))
            session.forces = [force]
    except ActionError as exc:
        raise ArmybuilderError(f"{roster.file}: {exc}") from None
    session.limits = {t.ids.bs(k): float(v) for k, v in roster.header.limits.items()}
    found = keep_doc.get("roster")
    kr: dict[str, Any] = found if isinstance(found, dict) else {}
    roster_id = text(kr.get("id"), (KEY, "roster", "id"))
    outside: list[list[str]] = []
    for key in ("before", "after"):
        marks = kr.get(key) or []
        if not isinstance(marks, list):
            refuse((KEY, "roster", key), "must be a list of comments")
        outside.append([xml_text(x, (KEY, "roster", key, i)) for i, x in enumerate(marks)])
    return ros.dumps(
        session,
        keep,
        raw,
        roster_order=True,
        roster_id=roster_id or "roster",
        outside=(outside[0], outside[1]),
    )


def to_rosz(roster: Any, library: Library, name: str = "roster.rosz") -> bytes:
    """:func:`to_ros` zipped as BattleScribe zips it (``.rosz``: one member, ``NAME.ros``)."""
    import io
    import zipfile

    member = Path(name).with_suffix(".ros").name or "roster.ros"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, to_ros(roster, library).encode("utf-8"))
    return buf.getvalue()


def _edited(element: str, count: int, name: str | None, notes: str | None) -> str:
    """The kept XML of a selection of an unknown entry, with the roster's count, name and
    notes for it (the text unchanged when they are what it holds)."""
    try:
        el = ET.fromstring(element, keeping_parser())
    except ET.ParseError:
        return element
    held = [c for c in el if _local(c) == "customNotes"]
    number = _number(el.get("number", "1"))
    if (number, el.get("customName"), ros.text_of(held[0]) if held else None) == (
        count,
        name,
        notes,
    ):
        return element
    el.set("number", str(count))
    if name:
        el.set("customName", name)
    else:
        el.attrib.pop("customName", None)
    for c in held:
        el.remove(c)
    if notes is not None:
        note = ET.Element("customNotes")
        note.text = notes
        el.insert(0, note)
    ET.indent(el, "  ")
    return _tostring(el)


#: Characters an XML 1.0 file cannot hold, not even written as a character reference.
NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
#: An attribute name a ``.ros`` can hold back: a plain XML name, or one in a namespace as the
#: reader keeps it (``{uri}name``).
_ATTR_NAME = re.compile(r"(?:\{[^{}\s]+\})?[^\W\d][\w.-]*")

Loc = tuple[str | int, ...]


def _where(loc: Loc) -> str:
    """A place in the roster as messages name it (``selections[1].name``)."""
    out = ""
    for step in loc:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _shown(value: Any) -> str:
    """A value as a message quotes it (as the YAML roster has it, where that is short)."""
    if value is None:
        return "an empty value"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict | list):
        return _kind(value)
    return repr(value) if isinstance(value, str) else str(value)


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return type(value).__name__


def _character(char: str) -> str:
    """A character as a message names it: ``the control character U+0001``."""
    import unicodedata

    code = f"U+{ord(char):04X}"
    kind = unicodedata.category(char)
    if kind == "Cc":
        return f"the control character {code}"
    if kind == "Cs":
        return f"half of a character (the surrogate {code})"
    return f"the character {code} ({unicodedata.name(char, 'not a character')})"


def main(argv: list[str] | None = None) -> int:
    from ...fileio import atomic_write, check_output
    from ...rosters import Roster

    ap = argparse.ArgumentParser(
        prog="python -m armybuilder.interop.battlescribe.rosfile",
        description="Convert BattleScribe rosters (.ros/.rosz) to armybuilder YAML and back.",
    )
    ap.add_argument("command", choices=["to-yaml", "to-ros"])
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--catalogs", action="append", default=[], metavar="DIR")
    args = ap.parse_args(argv)
    lib = Library(default_roots([Path(p) for p in args.catalogs])).scan()
    src, out = Path(args.input), Path(args.output)
    try:
        check_output(out, [src])
        if args.command == "to-yaml":
            text = (
                read_roster(src, lib)
                if src.suffix.lower() in (".ros", ".rosz")
                else (Roster.from_file(src, library=lib).dumps())
            )
        else:
            text = to_ros(Roster.from_file(src, library=lib), lib)
        atomic_write(out, text.encode("utf-8"))
    except (ArmybuilderError, UnknownFactionError) as exc:
        problems = getattr(exc, "problems", None)
        for p in problems or [exc]:
            print(f"{p}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"{out}: cannot write: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
