"""BattleScribe roster files (``.ros`` XML): write the adapter's roster, read one back.

Enough of the format for a roster to survive a save and a load: the roster's name and cost
limits, forces (with child forces, custom names and notes) and selections (entry ids as
BattleScribe composes them, numbers, custom names and notes). Costs, categories and profiles
are not read: they are worked out again from the catalogue.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

if TYPE_CHECKING:
    from .adapter import AdapterSession, Force, Sel

NS = "http://www.battlescribe.net/schema/rosterSchema"

#: What a write puts back that it does not produce itself, by instance id (a selection's or a
#: force's, or ``"roster"``): extra attributes, and extra child elements as XML text.
Keep = dict[str, tuple[list[tuple[str, str]], list[str]]]
#: Selections of entries the data does not hold, as the file had them (XML text), by the
#: instance id of the force or selection holding them, each with its place among its siblings
#: in the roster: written back there in the roster's order (see :func:`dumps`), else at the end
#: of its ``<selections>``.
Raw = dict[str, list[tuple[int, str]]]
#: What :func:`loads` could not read, by the instance id of the force or selection holding it:
#: each selection element of an unknown entry with its place among its siblings.
Unknown = dict[str, list[tuple[int, ET.Element]]]


class RosterFileError(ValueError):
    """A roster file that cannot be read (the message says why; ``element``: where)."""

    def __init__(self, message: str, element: ET.Element | None = None) -> None:
        super().__init__(message)
        self.element = element


def _num(x: float) -> str:
    x = round(float(x), 9)
    return str(int(x)) if x.is_integer() else repr(x)


def _attrs(pairs: list[tuple[str, str | None]]) -> str:
    """Attributes as XML. A name in another namespace (``{uri}name``, as the reader keeps an
    attribute such as ``o:flag`` or ``xml:lang``) is written with a prefix declared on the
    element itself, so that what was kept is written back as a file that reads again."""
    out: list[str] = []
    prefixes: dict[str, str] = {}
    for k, v in pairs:
        if v is None:
            continue
        if k.startswith("{"):
            uri, _, local = k[1:].partition("}")
            if uri == XML_NS:
                k = f"xml:{local}"
            else:
                prefix = prefixes.get(uri)
                if prefix is None:
                    prefix = prefixes[uri] = f"ns{len(prefixes)}"
                    out.append(f' xmlns:{prefix}="{escape(uri, _ATTR)}"')
                k = f"{prefix}:{local}"
        out.append(f' {k}="{escape(v, _ATTR)}"')
    return "".join(out)


#: The XML namespace (``xml:lang``), which needs no declaration.
XML_NS = "http://www.w3.org/XML/1998/namespace"
#: What an attribute's value escapes besides ``&<>``: the quote, and the tab and line ends,
#: which a reader would otherwise turn into spaces (XML's attribute-value normalization).
_ATTR = {'"': "&quot;", "\t": "&#9;", "\n": "&#10;", "\r": "&#13;"}
#: And a text's: a carriage return, which a reader would otherwise turn into a line feed.
_TEXT = {"\r": "&#13;"}


class _Writer:
    """BattleScribe's layout: two spaces per level, attributes in its order, ``/>`` closings."""

    def __init__(self) -> None:
        self.keep: Keep = {}
        self.raw: Raw = {}
        self.lines: list[str] = []
        #: Forces and selections in the roster's own order (else BattleScribe's: see dumps).
        self.roster_order = False

    def attrs(self, uid: str | None) -> list[tuple[str, str | None]]:
        return list(self.keep.get(uid or "", ([], []))[0])

    def extra(self, depth: int, uid: str | None) -> None:
        for xml in self.keep.get(uid or "", ([], []))[1]:
            self.lines.extend("  " * depth + line for line in xml.strip().splitlines())

    def empty(self, depth: int, tag: str, pairs: list[tuple[str, str | None]]) -> None:
        self.lines.append(f"{'  ' * depth}<{tag}{_attrs(pairs)}/>")

    def open(self, depth: int, tag: str, pairs: list[tuple[str, str | None]] | None = None) -> None:
        self.lines.append(f"{'  ' * depth}<{tag}{_attrs(pairs or [])}>")

    def close(self, depth: int, tag: str) -> None:
        self.lines.append(f"{'  ' * depth}</{tag}>")

    def text(self, depth: int, tag: str, text: str) -> None:
        self.lines.append(f"{'  ' * depth}<{tag}>{escape(text, _TEXT)}</{tag}>")


def dumps(
    session: AdapterSession,
    keep: Keep | None = None,
    raw: Raw | None = None,
    roster_order: bool = False,
    roster_id: str = "roster",
    outside: tuple[list[str], list[str]] = ([], []),
) -> str:
    """The session's roster as ``.ros`` XML, laid out as BattleScribe writes it (``keep``:
    what to put back that this writer does not produce, see :data:`Keep`; ``raw``: selections
    of unknown entries to write back as they were, see :data:`Raw`).

    Forces and selections come in BattleScribe's order (forces by name; a force's selections
    by primary category, in its force entry's order, then by name; a selection's by name), as
    BattleScribe itself writes a roster; with ``roster_order``, in the session's own order
    (the player's, which a roster converted from our YAML keeps: BattleScribe sorts what it
    shows anyway, so the file's order is only what a converted roster reads back);
    ``roster_id``: the roster's own id (a roster read from a file keeps the file's);
    ``outside``: comments and processing instructions to write before the ``<roster>``
    element and after it (as XML text)."""
    t = session.t
    assert t is not None
    state = session.state()
    w = _Writer()
    w.keep = keep or {}
    w.raw = raw or {}
    w.roster_order = roster_order
    gs = t.game_system
    w.open(
        0,
        "roster",
        [
            ("id", roster_id),
            ("name", session.name),
            ("battleScribeVersion", "2.03"),
            ("gameSystemId", gs.id),
            ("gameSystemName", gs.name),
            ("gameSystemRevision", str(getattr(gs, "revision", None) or 1)),
            ("xmlns", NS),
            *w.attrs("roster"),
        ],
    )
    w.extra(1, "roster")
    _costs(w, 1, state["costs"])
    if session.limits:
        w.open(1, "costLimits")
        for ct, v in session.limits.items():
            name = t.cost_types[ct].name if ct in t.cost_types else ct
            w.empty(2, "costLimit", [("name", name), ("typeId", ct), ("value", _num(v))])
        w.close(1, "costLimits")
    _forces(w, 1, session.forces, state["forces"])
    w.close(0, "roster")
    head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    return "\n".join([head, *outside[0], *w.lines, *outside[1]]) + "\n"


def _costs(w: _Writer, depth: int, costs: list[dict[str, Any]]) -> None:
    if not costs:
        return
    w.open(depth, "costs")
    for c in costs:
        w.empty(
            depth + 1,
            "cost",
            [("name", c["name"]), ("typeId", c["typeId"]), ("value", _num(c["value"]))],
        )
    w.close(depth, "costs")


def _custom(w: _Writer, depth: int, notes: str | None) -> None:
    if notes is not None:
        w.text(depth, "customNotes", notes)


def _forces(w: _Writer, depth: int, forces: list[Force], states: list[dict[str, Any]]) -> None:
    if not forces:
        return
    by_id = {f.uid: f for f in forces}
    if w.roster_order:
        states = _ordered(states, [f.uid for f in forces])
    w.open(depth, "forces")
    for st in states:
        f = by_id[st["id"]]
        w.open(
            depth + 1,
            "force",
            [
                ("id", f.uid),
                ("name", f.entry.name),
                ("entryId", f.entry.id),
                ("catalogueId", f.catalogue.id),
                ("catalogueRevision", str(getattr(f.catalogue, "revision", None) or 1)),
                ("catalogueName", f.catalogue.name),
                ("customName", f.custom_name),
                *w.attrs(f.uid),
            ],
        )
        _custom(w, depth + 2, f.custom_notes)
        w.extra(depth + 2, f.uid)
        sels = {s.uid: s for s in _walk(f.selections)}
        order = [s.uid for s in f.selections] if w.roster_order else None
        _selections(w, depth + 2, st["selections"], sels, w.raw.get(f.uid, []), order)
        w.open(depth + 2, "categories")
        for i, c in enumerate(st["categories"]):
            w.empty(
                depth + 3,
                "category",
                [
                    ("id", f"{f.uid}-category-{i}"),
                    ("name", c["name"]),
                    ("entryId", c["entryId"]),
                    ("primary", "false"),
                    ("customName", c.get("customName")),
                ],
            )
        w.close(depth + 2, "categories")
        _forces(w, depth + 2, f.children, st["childForces"])
        w.close(depth + 1, "force")
    w.close(depth, "forces")


def _walk(sels: list[Sel]) -> list[Sel]:
    out: list[Sel] = []
    for s in sels:
        out.append(s)
        out.extend(_walk(s.children))
    return out


def _ordered(states: list[dict[str, Any]], uids: list[str]) -> list[dict[str, Any]]:
    """``states`` in the order of ``uids`` (their instance ids); any other after them, in the
    order they came."""
    rank = {uid: i for i, uid in enumerate(uids)}
    return sorted(states, key=lambda st: rank.get(str(st.get("id", "")), len(rank)))


def _selections(
    w: _Writer,
    depth: int,
    states: list[dict[str, Any]],
    sels: dict[str, Sel],
    raw: list[tuple[int, str]] | None = None,
    order: list[str] | None = None,
) -> None:
    """``order``: the instance ids of these selections in the roster's order, to write them
    (and ``raw``, at their places) in that order instead of BattleScribe's."""
    if not states and not raw:
        return
    items: list[dict[str, Any] | str] = []
    if order is not None:
        items.extend(_ordered(states, order))
        for place, xml in sorted(raw or [], key=lambda r: r[0]):
            items.insert(min(place, len(items)), xml)
    else:
        items.extend(states)
        items.extend(xml for _, xml in raw or [])
    w.open(depth, "selections")
    for st in items:
        if isinstance(st, str):
            w.lines.extend("  " * (depth + 1) + line for line in st.strip().splitlines())
            continue
        s = sels.get(st.get("id", ""))
        w.open(
            depth + 1,
            "selection",
            [
                ("id", st.get("id")),
                ("name", s.option.entry.name if s is not None else st["name"]),
                ("entryId", st["entryId"]),
                ("entryGroupId", st.get("entryGroupId")),
                ("number", str(st["number"])),
                ("type", st["type"]),
                ("customName", st.get("customName")),
                *w.attrs(st.get("id")),
            ],
        )
        _custom(w, depth + 2, st.get("customNotes"))
        w.extra(depth + 2, st.get("id"))
        inner = [c.uid for c in s.children] if w.roster_order and s is not None else None
        _selections(w, depth + 2, st["children"], sels, w.raw.get(st.get("id") or "", []), inner)
        _costs(w, depth + 2, st["costs"])
        cats = st.get("categories") or []
        if cats:
            w.open(depth + 2, "categories")
            for i, c in enumerate(cats):
                w.empty(
                    depth + 3,
                    "category",
                    [
                        ("id", f"{st.get('id')}-category-{i}"),
                        ("name", c["name"]),
                        ("entryId", c["entryId"]),
                        ("primary", "true" if c["primary"] else "false"),
                    ],
                )
            w.close(depth + 2, "categories")
        w.close(depth + 1, "selection")
    w.close(depth, "selections")


# --------------------------------------------------------------------------- reading


class _UnknownEntry(Exception):
    """A selection of an entry the data does not hold there."""


def _tag(el: ET.Element) -> str:
    """An element's name without its namespace (``""`` for a comment or a processing
    instruction, which a roster read with them kept holds)."""
    tag = el.tag
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def text_of(el: ET.Element) -> str:
    """An element's text, a comment or processing instruction in it left out (the text on
    both sides of one joined, as a parser that drops them gives it)."""
    return (el.text or "") + "".join(c.tail or "" for c in el if not isinstance(c.tag, str))


def _kids(el: ET.Element, name: str) -> list[ET.Element]:
    return [c for c in el if _tag(c) == name]


def _notes(el: ET.Element) -> str | None:
    found = _kids(el, "customNotes")
    return text_of(found[0]) if found else None


def odd_limits(root: ET.Element) -> dict[str, tuple[str | float, ET.Element]]:
    """The cost limits of a roster file that are no number (``"abc"``: as text) or not a
    number (``"NaN"``: as ``nan``), by cost type id, with their elements: :func:`loads` leaves
    them out (as BattleScribe's "no limit", -1, would be), the reader of ``.ros`` files keeps
    them in the YAML roster, whose checks report each at its line."""
    out: dict[str, tuple[str | float, ET.Element]] = {}
    for holder in _kids(root, "costLimits"):
        for el in _kids(holder, "costLimit"):
            raw = el.get("value", "-1")
            try:
                value = float(raw)
            except ValueError:
                out[el.get("typeId", "")] = (raw, el)
                continue
            if value != value:
                out[el.get("typeId", "")] = (value, el)
    return out


def loads(
    session: AdapterSession,
    text: str,
    unknown: Unknown | None = None,
    root: ET.Element | None = None,
) -> None:
    """Replace the session's roster with the one in ``text`` (raises RosterFileError).

    ``unknown``: where to put selections of entries the data does not hold (and what they
    hold), by the id of the force or selection holding them, instead of refusing the file;
    ``root``: ``text`` already parsed (its elements are then the ones ``unknown`` holds)."""
    from .adapter import ActionError, Force

    t = session.t
    assert t is not None
    if root is None:
        try:
            root = ET.fromstring(text.strip())
        except ET.ParseError as exc:
            raise RosterFileError(f"not a roster file: {exc}") from None
    if _tag(root) != "roster":
        raise RosterFileError(f"not a roster file: the root element is <{_tag(root)}>")
    forces: list[Force] = []
    seen: set[str] = set()

    def keep(uid: str | None) -> str | None:
        """The file's instance id, while unique (roster files keep them)."""
        if not uid or uid in seen:
            return None
        seen.add(uid)
        return uid

    def read_forces(parent: ET.Element, into: list[Force]) -> None:
        for holder in _kids(parent, "forces"):
            for el in _kids(holder, "force"):
                fe_id = el.get("entryId", "")
                found = t.force_entries.get(fe_id)
                if found is None:
                    raise RosterFileError(
                        f"force {el.get('name')!r}: unknown force entry {fe_id!r}", el
                    )
                try:
                    cat = t.catalogue(el.get("catalogueId"))
                except KeyError:
                    raise RosterFileError(
                        f"force {el.get('name')!r}: unknown catalogue {el.get('catalogueId')!r}",
                        el,
                    ) from None
                force = Force(keep(el.get("id")) or session._uid("force"), found[0], cat)
                force.custom_name = el.get("customName")
                force.custom_notes = _notes(el)
                read_children(el, None, force, force.uid, force.selections, 1)
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
            raise _UnknownEntry from None
        number = int(float(el.get("number", "1")))
        sel = session._plain_sel(opt)
        sel.uid = keep(el.get("id")) or sel.uid
        count = number
        if opt.entry.collective and parent is not None and above > 0 and number % above == 0:
            count = number // above  # kept per model of the parent
        sel.count = max(count, 1)
        sel.custom_name = el.get("customName")
        sel.custom_notes = _notes(el)
        read_children(el, sel, force, sel.uid, sel.children, number)
        return sel

    def read_children(
        el: ET.Element, parent: Sel | None, force: Force, uid: str, into: list[Sel], above: int
    ) -> None:
        place = 0
        for sh in _kids(el, "selections"):
            for child in _kids(sh, "selection"):
                try:
                    into.append(read_sel(child, parent, force, above))
                except _UnknownEntry:
                    if unknown is None:
                        raise RosterFileError(
                            f"selection {child.get('name')!r}: unknown entry "
                            f"{child.get('entryId', '')!r}",
                            child,
                        ) from None
                    unknown.setdefault(uid, []).append((place, child))
                    for inner in child.iter():
                        if _tag(inner) == "selection":
                            keep(inner.get("id"))
                place += 1

    read_forces(root, forces)
    limits: dict[str, float] = {}
    for holder in _kids(root, "costLimits"):
        for el in _kids(holder, "costLimit"):
            try:
                value = float(el.get("value", "-1"))
            except ValueError:
                continue  # (no number: see odd_limits)
            if value >= 0:
                limits[el.get("typeId", "")] = value
    session._loaded_ids = seen
    session.forces = forces
    session.limits = limits
    name = root.get("name")  # (one left empty is kept empty, not named anew)
    session.name = name if name is not None else session.name
