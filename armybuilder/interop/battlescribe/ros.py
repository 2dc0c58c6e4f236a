"""BattleScribe roster files (``.ros`` XML): write the adapter's roster, read one back.

Enough of the format for a roster to survive a save and a load: the roster's name and cost
limits, forces (with child forces, custom names and notes) and selections (entry ids as
BattleScribe composes them, numbers, custom names and notes). Costs, categories and profiles
are not read: they are worked out again from the catalogue.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .adapter import AdapterSession, Force, Sel

NS = "http://www.battlescribe.net/schema/rosterSchema"


class RosterFileError(ValueError):
    """A roster file that cannot be read (the message says why)."""


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def dumps(session: AdapterSession) -> str:
    """The session's roster as ``.ros`` XML."""
    t = session.t
    assert t is not None
    state = session.state()
    root = ET.Element(
        "roster",
        {
            "id": "roster",
            "name": session.name,
            "battleScribeVersion": "2.03",
            "gameSystemId": t.game_system.id,
            "gameSystemName": t.game_system.name,
            "xmlns": NS,
        },
    )
    costs = ET.SubElement(root, "costs")
    for c in state["costs"]:
        ET.SubElement(
            costs, "cost", {"name": c["name"], "typeId": c["typeId"], "value": _num(c["value"])}
        )
    if session.limits:
        limits = ET.SubElement(root, "costLimits")
        for ct, v in session.limits.items():
            name = t.cost_types[ct].name if ct in t.cost_types else ct
            ET.SubElement(limits, "costLimit", {"name": name, "typeId": ct, "value": _num(v)})
    _forces(ET.SubElement(root, "forces"), session.forces)
    return ET.tostring(root, encoding="unicode", xml_declaration=True)


def _custom(el: ET.Element, name: str | None, notes: str | None) -> None:
    if name is not None:
        el.set("customName", name)
    if notes is not None:
        ET.SubElement(el, "customNotes").text = notes


def _forces(parent: ET.Element, forces: list[Force]) -> None:
    for f in forces:
        el = ET.SubElement(
            parent,
            "force",
            {
                "id": f.uid,
                "name": f.entry.name,
                "entryId": f.entry.id,
                "catalogueId": f.catalogue.id,
                "catalogueName": f.catalogue.name,
            },
        )
        _custom(el, f.custom_name, f.custom_notes)
        _selections(ET.SubElement(el, "selections"), f.selections, 1)
        if f.children:
            _forces(ET.SubElement(el, "forces"), f.children)


def _selections(parent: ET.Element, sels: list[Sel], above: int) -> None:
    for s in sels:
        number = s.count * above if s.option.entry.collective else s.count
        attrs = {
            "id": s.uid,
            "name": s.option.entry.name,
            "entryId": s.option.entry_id,
            "number": str(number),
            "type": getattr(s.option.entry, "type", "upgrade"),
        }
        if s.option.group:
            attrs["entryGroupId"] = s.option.group
        el = ET.SubElement(parent, "selection", attrs)
        _custom(el, s.custom_name, s.custom_notes)
        if s.children:
            _selections(ET.SubElement(el, "selections"), s.children, number)


# --------------------------------------------------------------------------- reading


def _tag(el: ET.Element) -> str:
    return el.tag.rpartition("}")[2]


def _kids(el: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in el if _tag(c) == name]


def _notes(el: ET.Element) -> str | None:
    found = _kids(el, "customNotes")
    return (found[0].text or "") if found else None


def loads(session: AdapterSession, text: str) -> None:
    """Replace the session's roster with the one in ``text`` (raises RosterFileError)."""
    from .adapter import ActionError, Force

    t = session.t
    assert t is not None
    try:
        root = ET.fromstring(text.strip())
    except ET.ParseError as exc:
        raise RosterFileError(f"not a roster file: {exc}") from None
    if _tag(root) != "roster":
        raise RosterFileError(f"not a roster file: the root element is <{_tag(root)}>")
    forces: list[Force] = []

    def read_forces(parent: ET.Element, into: list[Force]) -> None:
        for holder in _kids(parent, "forces"):
            for el in _kids(holder, "force"):
                fe_id = el.get("entryId", "")
                found = t.force_entries.get(fe_id)
                if found is None:
                    raise RosterFileError(
                        f"force {el.get('name')!r}: unknown force entry {fe_id!r}"
                    )
                try:
                    cat = t.catalogue(el.get("catalogueId"))
                except KeyError:
                    raise RosterFileError(
                        f"force {el.get('name')!r}: unknown catalogue {el.get('catalogueId')!r}"
                    ) from None
                force = Force(session._uid("force"), found[0], cat)
                force.custom_name = el.get("customName")
                force.custom_notes = _notes(el)
                for sh in _kids(el, "selections"):
                    for sel_el in _kids(sh, "selection"):
                        force.selections.append(read_sel(sel_el, None, force, 1))
                read_forces(el, force.children)
                into.append(force)

    def read_sel(el: ET.Element, parent: Sel | None, force: Force, above: int) -> Sel:
        entry_id = el.get("entryId", "")
        if parent is None:
            options = session._options_in(None, (), session._root_entries(force))
        else:
            options = session._options_in(parent.option.entry, parent.option.prefix, [])
        try:
            opt = session._pick(options, entry_id)
        except ActionError:
            raise RosterFileError(
                f"selection {el.get('name')!r}: unknown entry {entry_id!r}"
            ) from None
        number = int(float(el.get("number", "1")))
        sel = session._plain_sel(opt)
        count = number
        if opt.entry.collective and parent is not None and above > 0 and number % above == 0:
            count = number // above  # kept per model of the parent
        sel.count = max(count, 1)
        sel.custom_name = el.get("customName")
        sel.custom_notes = _notes(el)
        for sh in _kids(el, "selections"):
            for child in _kids(sh, "selection"):
                sel.children.append(read_sel(child, sel, force, number))
        return sel

    read_forces(root, forces)
    limits: dict[str, float] = {}
    for holder in _kids(root, "costLimits"):
        for el in _kids(holder, "costLimit"):
            value = float(el.get("value", "-1"))
            if value >= 0:
                limits[el.get("typeId", "")] = value
    session.forces = forces
    session.limits = limits
    session.name = root.get("name") or session.name
