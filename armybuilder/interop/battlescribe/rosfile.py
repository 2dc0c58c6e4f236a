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
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any
from xml.parsers import expat

from ...catalog import GameSystem, Library, default_library, default_roots
from ...errors import ArmybuilderError, Problem, RosterError, UnknownFactionError
from ...model.bounds import MAX_COUNT
from ...yamlio import dump_round_trip
from . import ros
from .adapter import ActionError, AdapterSession, Force, Sel
from .library import BattleScribeSystem
from .safe import UnsafeFileError, decode, parse, read_bytes

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


def _local(el: ET.Element) -> str:
    return el.tag.rpartition("}")[2]


def _strip_ns(el: ET.Element) -> ET.Element:
    for e in el.iter():
        if e.tag.startswith("{" + ros.NS + "}"):
            e.tag = _local(e)
    return el


def _unknown(el: ET.Element, kind: str) -> dict[str, Any]:
    """What of this element the model does not hold (empty when nothing)."""
    out: dict[str, Any] = {}
    attrs = {k: v for k, v in el.attrib.items() if k not in _KNOWN_ATTRS[kind]}
    if attrs:
        out["attributes"] = attrs
    xml = [
        ET.tostring(_strip_ns(c), encoding="unicode").strip()
        for c in el
        if _local(c) not in _KNOWN_CHILDREN[kind]
    ]
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


def _element_lines(text: str, root: ET.Element) -> dict[int, int]:
    """The line each element of ``root`` (parsed from ``text``, already checked by
    :func:`safe.parse`: no DTD, bounded nesting) starts on, by ``id()`` of the element."""
    if text.startswith("<?xml"):  # (as safe.parse does; its line ends kept for the count)
        end = text.find("?>") + 2
        text = "\n" * text.count("\n", 0, end) + text[end:]
    starts: list[int] = []
    parser = expat.ParserCreate()
    parser.StartElementHandler = lambda name, attrs: starts.append(parser.CurrentLineNumber)
    try:
        parser.Parse(text, True)
    except expat.ExpatError:
        return {}
    elements = list(root.iter())
    if len(elements) != len(starts):
        return {}
    return {id(el): line for el, line in zip(elements, starts, strict=True)}


def read_roster(path: Path, library: Library | None = None) -> str:
    """A ``.ros`` / ``.rosz`` file as the text of our YAML roster (raises RosterError)."""
    name = str(path)
    try:
        text = decode(read_bytes(path), name)
        root = parse(text, name)
    except UnsafeFileError as exc:
        reason = exc.reason or str(exc).removeprefix(f"{name}: ")
        raise _error(path, reason, exc.line, exc.column) from None
    if _local(root) != "roster":
        raise _error(path, f"not a BattleScribe roster: the root element is <{_local(root)}>")
    lines = _element_lines(text, root)
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
    out = RosText(session_yaml(session, gs, fids[0], root, path.name, unknown, lines, positions))
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
) -> str:
    """The adapter's roster as our YAML roster: one force as a roster of one force (format 1),
    several forces, or child forces, as a roster of several forces (format 2, ``forces:``).
    ``fid``: the roster's faction when the session's first force names none; ``root``: the
    ``.ros`` it was read from, whose content we do not read is kept under ``x-battlescribe:``
    keys; ``unknown``: selections of entries the data does not hold (see :func:`ros.loads`),
    kept as selections of those entry ids (the roster's checks report each) with their XML,
    which :func:`to_ros` writes back as it was; ``lines``: the line of each element of
    ``root`` (by ``id()``), from which ``positions`` gets the line of each location of the
    YAML (see :class:`RosText`)."""
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
        notes = [c for c in el if _local(c) == "customNotes"]
        if notes:
            d["notes"] = notes[0].text or ""
        keep: dict[str, Any] = {"id": el.get("id"), "name": el.get("name")}
        origin[id(d)] = el
        if top:
            copy = _strip_ns(ET.fromstring(ET.tostring(el)))
            copy.tail = None
            ET.indent(copy, "  ")
            keep["element"] = ET.tostring(copy, encoding="unicode").strip()
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
    if session.limits:
        doc["limits"] = {
            t.ids.ours(k): int(v) if float(v).is_integer() else v for k, v in session.limits.items()
        }
    keep_roster: dict[str, Any] = {}
    if root is not None:
        keep_roster = {"converted_from": source, "roster": _unknown(root, "roster")}
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
    session.name = roster.name
    keep: ros.Keep = {}
    raw: ros.Raw = {}
    used: set[str] = set()

    def remember(uid: str, info: Any) -> None:
        if not isinstance(info, dict):
            return
        attrs = info.get("attributes") or {}
        elements = info.get("elements") or []
        if attrs or elements:
            keep[uid] = ([(str(k), str(v)) for k, v in attrs.items()], [str(x) for x in elements])

    def instance_id(info: Any, default: str) -> str:
        uid = info.get("id") if isinstance(info, dict) else None
        got = str(uid) if uid and str(uid) not in used else default
        used.add(got)
        return got

    def new_force(force_id: str | None, faction: str, info: Any, where: str) -> Force:
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
        remember(force.uid, info)
        return force

    def build(items: Any, force: Force, parent: Sel | None, where: str) -> list[Sel]:
        out: list[Sel] = []
        for i, item in enumerate(items or []):
            if not isinstance(item, dict):
                continue
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
                raw.setdefault(parent.uid if parent is not None else force.uid, []).append(
                    (i, _edited(element, item))
                )
                continue
            if opt is None:
                raise ArmybuilderError(
                    f"{roster.file}: {where}[{i}]: entry {want!r} cannot be chosen there in "
                    f"{force.catalogue.name}"
                )
            sel = session._plain_sel(opt)
            sel.uid = instance_id(info, sel.uid)
            remember(sel.uid, info)
            count = item.get("count") or 1
            sel.count = count if isinstance(count, int) and not isinstance(count, bool) else 1
            sel.custom_name = _text(item.get("name"))
            sel.custom_notes = _text(item.get("notes"))
            sel.children = build(item.get("selections"), force, sel, f"{where}[{i}].selections")
            out.append(sel)
        return out

    def read_force(fd: Any) -> Force:
        where = ".".join(str(x) for x in fd.loc) if fd.loc else "forces"
        node = to_plain(roster.node(fd.loc)) if fd.loc else {}
        info = node.get(KEY) if isinstance(node, dict) else None
        force = new_force(fd.force, fd.faction or roster.faction, info, where)
        force.custom_name = fd.name
        force.custom_notes = fd.notes
        force.selections = build(
            node.get("selections") if isinstance(node, dict) else None,
            force,
            None,
            f"{where}.selections",
        )
        force.children = [read_force(c) for c in fd.forces]
        return force

    remember("roster", keep_doc.get("roster"))
    try:
        if roster.forces is not None:
            session.forces = [read_force(fd) for fd in roster.forces]
        else:
            found = keep_doc.get("force")
            kf: dict[str, Any] = found if isinstance(found, dict) else {}
            force = new_force(roster.header.force, roster.faction, kf, "force")
            force.custom_name = _text(kf.get("customName"))
            force.custom_notes = roster.header.notes
            force.selections = build(doc.get("selections"), force, None, "selections")
            session.forces = [force]
    except ActionError as exc:
        raise ArmybuilderError(f"{roster.file}: {exc}") from None
    session.limits = {t.ids.bs(k): float(v) for k, v in roster.header.limits.items()}
    return ros.dumps(session, keep, raw, roster_order=True)


def to_rosz(roster: Any, library: Library, name: str = "roster.rosz") -> bytes:
    """:func:`to_ros` zipped as BattleScribe zips it (``.rosz``: one member, ``NAME.ros``)."""
    import io
    import zipfile

    member = Path(name).with_suffix(".ros").name or "roster.ros"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(member, to_ros(roster, library).encode("utf-8"))
    return buf.getvalue()


def _edited(element: str, item: dict[str, Any]) -> str:
    """The kept XML of a selection of an unknown entry, with the roster's count, name and
    notes for it (the text unchanged when they are what it holds)."""
    try:
        el = ET.fromstring(element)
    except ET.ParseError:
        return element
    count = item.get("count") or 1
    count = count if isinstance(count, int) and not isinstance(count, bool) else 1
    name, notes = _text(item.get("name")), _text(item.get("notes"))
    held = [c for c in el if _local(c) == "customNotes"]
    number = _number(el.get("number", "1"))
    if (number, el.get("customName"), held[0].text or "" if held else None) == (
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
    return ET.tostring(el, encoding="unicode").strip()


def _text(value: Any) -> str | None:
    return None if value is None else str(value)


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
