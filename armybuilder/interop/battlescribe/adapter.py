"""The conformance suite's adapter: a roster session driven by the suite's commands.

:class:`AdapterSession` answers the protocol's messages (``describe``, ``setup``, ``action``,
``getState``, ``getErrors``, ``teardown``; see the suite's ``docs/adapter-protocol.md``) as
Python dicts, so a test drives it in process; :func:`serve` speaks the same messages as JSON
lines on stdin/stdout (``armybuilder bs-adapter``).

The session keeps the roster in BattleScribe's terms (forces holding selections, each selection
remembering the entry link it was chosen through) and asks the generic engine for everything
the rules decide: names, costs, hidden flags and issues, by evaluating each force as a roster
of the translated catalog (:mod:`.translate`).
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, TextIO

from pydantic import ValidationError

from ... import __version__
from ...model.plain import rule_field
from ...rosters import Roster, SelectionData
from ...rules.engine import Evaluation, ForceData, Issue, Node, evaluate
from . import model as bs
from . import ros
from .files import DataFileError, read_data
from .translate import Translation, scalar, translate

PROTOCOL_VERSION = "1.1"


class ActionError(Exception):
    """An action the roster cannot do (answered with ``ok: false``)."""


@dataclass
class Option:
    """Something that can be selected under a parent: an entry, maybe through links."""

    entry: bs.SelectionEntry
    link: bs.EntryLink | None
    prefix: tuple[str, ...]  # the link ids on the way, outermost first
    group: str | None  # composite id of the group it is chosen in

    @property
    def entry_id(self) -> str:
        return "::".join((*self.prefix, self.entry.id))

    def names(self) -> set[str]:
        out = {self.entry.id, self.entry_id}
        if self.link is not None:
            out.add(self.link.id)
        return out


@dataclass
class Sel:
    uid: str
    option: Option
    our_id: str
    count: int = 1
    children: list[Sel] = field(default_factory=list)
    custom_name: str | None = None
    custom_notes: str | None = None


@dataclass
class Evaluated:
    """The engine's evaluation of the roster, with the way back to the session's objects."""

    ev: Evaluation
    sels: dict[int, Sel] = field(default_factory=dict)  # id(node) -> selection
    force_nodes: dict[str, Node] = field(default_factory=dict)  # force uid -> node
    force_at: dict[Any, Force] = field(default_factory=dict)  # loc -> force
    by_loc: dict[Any, Node] = field(default_factory=dict)


@dataclass
class Force:
    uid: str
    entry: bs.ForceEntry
    catalogue: bs.Catalogue
    selections: list[Sel] = field(default_factory=list)
    children: list[Force] = field(default_factory=list)
    custom_name: str | None = None
    custom_notes: str | None = None
    #: Custom names and notes of the force's categories, by category entry id.
    category_custom: dict[str, tuple[str | None, str | None]] = field(default_factory=dict)


_NUM = re.compile(r"(\d+)")


def natural(text: str) -> tuple[Any, ...]:
    """A sort key that orders ``Unit 2`` before ``Unit 10``."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in _NUM.split(text))


def _num(x: float) -> float | int:
    """A number as the suite expects it: decimal arithmetic's result, so the float engine's
    last-digit noise (0.1 x 3 = 0.30000000000000004) is rounded away; whole numbers as ints."""
    x = round(float(x), 9)
    return int(x) if x.is_integer() else x


class AdapterSession:
    """One adapter: a translated setup and the roster built on it."""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.t: Translation | None = None
        self.forces: list[Force] = []
        self.limits: dict[str, float] = {}
        self._ids = itertools.count(1)
        self._evals: Evaluated | None = None
        self.name = "New Roster"
        self._used_costs: set[str] = set()
        self._loaded_ids: set[str] = set()

    # ------------------------------------------------------------------ protocol

    def handle(self, cmd: dict[str, Any]) -> dict[str, Any]:
        """Answer one protocol command (a dict), echoing its ``corrId``."""
        kind = cmd.get("type")
        try:
            if kind == "describe":
                out: dict[str, Any] = {
                    "type": "describeResult",
                    "name": "armybuilder",
                    "version": __version__,
                    "protocolVersion": PROTOCOL_VERSION,
                    "domains": ["roster"],
                    "capabilities": {
                        "screenshot": False,
                        "record": False,
                        "rosterXml": True,
                        "maxParallel": 0,
                    },
                }
            elif kind == "setup":
                out = {"type": "setupResult", "errors": self.setup(cmd)}
                self._warn(out)
            elif kind == "setupFromFiles":
                out = {"type": "setupResult", "errors": self.setup_from_files(cmd)}
                self._warn(out)
            elif kind == "action":
                out = self.action(cmd)
            elif kind == "getState":
                out = self.state()
            elif kind == "getErrors":
                out = {"type": "errors", "errors": self.errors()}
            elif kind == "exportRosterXml":
                out = {"type": "rosterXmlResult", "xml": ros.dumps(self)}
            elif kind == "teardown":
                self.reset()
                out = {"type": "teardownResult"}
            else:
                out = {"type": "error", "message": f"{kind} is not supported by this adapter"}
        except ValidationError as exc:
            out = {"type": "error", "message": f"invalid {kind}: {exc.errors()[0]['msg']}"}
        if "corrId" in cmd:
            out["corrId"] = cmd["corrId"]
        return out

    def _warn(self, out: dict[str, Any]) -> None:
        """What the translation could not express, as ``warnings`` (a field clients that do
        not know it ignore)."""
        if self.t is not None and self.t.unsupported:
            out["warnings"] = [f"not supported: {w}" for w in self.t.unsupported]

    def setup(self, cmd: dict[str, Any]) -> list[str]:
        self.reset()
        self.t = translate(cmd.get("gameSystem") or {}, cmd.get("catalogues") or [])
        if cmd.get("specId"):
            self.name = str(cmd["specId"])
        for ct in self.t.cost_types.values():
            if ct.default_cost_limit >= 0:
                self.limits[ct.id] = ct.default_cost_limit
        return list(self.t.problems)

    def setup_from_files(self, cmd: dict[str, Any]) -> list[str]:
        """Set up from BattleScribe data files (``files``: file name and XML content)."""
        game_system: dict[str, Any] = {}
        catalogues: list[dict[str, Any]] = []
        for f in cmd.get("files") or []:
            try:
                kind, data = read_data(str(f.get("content", "")), str(f.get("fileName", "?")))
            except DataFileError as exc:
                return [str(exc)]
            if kind == "gameSystem":
                game_system = data
            else:
                catalogues.append(data)
        return self.setup(
            {"gameSystem": game_system, "catalogues": catalogues, "specId": cmd.get("specId")}
        )

    def action(self, cmd: dict[str, Any]) -> dict[str, Any]:
        name = cmd.get("action")
        handler = getattr(self, f"_do_{name}", None)
        if handler is None or self.t is None:
            why = "setup first" if self.t is None else f"unknown action {name!r}"
            return {"type": "actionResult", "ok": False, "error": why}
        try:
            outputs = handler(cmd)
        except ActionError as exc:
            return {"type": "actionResult", "ok": False, "error": str(exc)}
        self._evals = None
        out: dict[str, Any] = {"type": "actionResult", "ok": True}
        if outputs:
            out["outputs"] = outputs
        return out

    # ------------------------------------------------------------------ lookups

    def _uid(self, prefix: str) -> str:
        """A new instance id (never one a loaded roster file already uses)."""
        while True:
            uid = f"{prefix}-{next(self._ids)}"
            if uid not in self._loaded_ids:
                return uid

    def _all_forces(self, forces: list[Force] | None = None) -> Iterator[Force]:
        for f in self.forces if forces is None else forces:
            yield f
            yield from self._all_forces(f.children)

    def _force(self, uid: Any) -> Force:
        for f in self._all_forces():
            if f.uid == uid:
                return f
        raise ActionError(f"Force not found with id {uid!r}")

    def _find_sel(self, sels: list[Sel], uid: Any) -> tuple[list[Sel], Sel] | None:
        for s in sels:
            if s.uid == uid:
                return sels, s
            found = self._find_sel(s.children, uid)
            if found is not None:
                return found
        return None

    def _sel(self, force: Force, uid: Any) -> tuple[list[Sel], Sel]:
        found = self._find_sel(force.selections, uid)
        if found is None:
            for f in self._all_forces():
                found = self._find_sel(f.selections, uid)
                if found is not None:
                    break
        if found is None:
            raise ActionError(f"Selection not found with id {uid!r}")
        return found

    # ------------------------------------------------------------------ options

    def _options_in(
        self, parent: bs.EntryBase | None, prefix: tuple[str, ...], roots: list[bs.EntryBase]
    ) -> Iterator[Option]:
        t = self.t
        assert t is not None
        entries = (
            roots
            if parent is None
            else [
                *parent.selection_entries,
                *parent.entry_links,
            ]
        )
        for e in entries:
            yield from self._option(e, prefix, None)
        if parent is not None:
            for g in parent.selection_entry_groups:
                yield from self._group_options(g, prefix)

    def _option(
        self, e: bs.EntryBase, prefix: tuple[str, ...], group: str | None
    ) -> Iterator[Option]:
        t = self.t
        assert t is not None
        if isinstance(e, bs.EntryLink):
            target = t.target(e)
            if isinstance(target, bs.SelectionEntryGroup):
                yield from self._group_options(target, (*prefix, e.id))
            elif isinstance(target, bs.SelectionEntry):
                yield Option(target, e, (*prefix, e.id), group)
        elif isinstance(e, bs.SelectionEntry):
            yield Option(e, None, prefix, group)

    def _group_options(self, g: bs.EntryBase, prefix: tuple[str, ...]) -> Iterator[Option]:
        gid = "::".join((*prefix, g.id))
        for e in [*g.selection_entries, *g.entry_links]:
            yield from self._option(e, prefix, gid)
        for sub in g.selection_entry_groups:
            yield from self._group_options(sub, prefix)

    def _root_entries(self, force: Force) -> list[bs.EntryBase]:
        t = self.t
        assert t is not None
        roots: list[bs.EntryBase] = [
            *force.catalogue.selection_entries,
            *force.catalogue.entry_links,
        ]
        for link in force.catalogue.catalogue_links:
            if link.import_root_entries:
                for other in t.catalogues:
                    if other.id == link.target_id:
                        roots += [
                            e for e in [*other.selection_entries, *other.entry_links] if e.import_
                        ]
        roots += [*t.game_system.selection_entries, *t.game_system.entry_links]
        return roots

    def _pick(self, options: Iterator[Option], entry_id: Any) -> Option:
        opts = list(options)
        found = next((o for o in opts if o.link is not None and o.link.id == entry_id), None)
        found = found or next((o for o in opts if o.entry_id == entry_id), None)
        found = found or next((o for o in opts if o.entry.id == entry_id), None)
        if found is not None:
            return found
        raise ActionError(f"Entry {entry_id!r} cannot be selected here")

    def _new_sel(self, option: Option, auto: dict[str, str]) -> Sel:
        sel = self._plain_sel(option)
        self._auto_children(sel, auto)
        return sel

    def _plain_sel(self, option: Option) -> Sel:
        """A selection of an option, nothing under it."""
        t = self.t
        assert t is not None
        # Through a link, the engine is told the link (it counts per link where asked).
        via = option.link.id if option.link is not None else option.entry.id
        return Sel(self._uid("sel"), option, t.ids.ours(via))

    def _auto_children(self, sel: Sel, auto: dict[str, str]) -> None:
        """Children an entry requires (a minimum in its parent) come with it."""
        entry = sel.option.entry
        prefix = sel.option.prefix
        for opt in self._options_in(entry, prefix, []):
            need = self._min_in_parent(opt)
            if need > 0:
                # One selection of that number, or as many selections where each is chosen
                # on its own (see _separate).
                separate = self._separate(opt.entry)
                for _ in range(need if separate else 1):
                    child = self._new_sel(opt, auto)
                    child.count = 1 if separate else need
                    auto.setdefault(opt.entry_id, child.uid)
                    sel.children.append(child)
        for opt, need in self._groups_needing_default(entry, prefix):
            child = self._new_sel(opt, auto)
            child.count = need
            auto.setdefault(opt.entry_id, child.uid)
            sel.children.append(child)

    def _min_in_parent(self, opt: Option, root: bool = False) -> int:
        """How many selections of the option a minimum asks for where it can be selected
        (at the top of a force, a minimum in the force counts too)."""
        scopes = ("parent", "force") if root else ("parent",)
        need = 0
        for c in [*opt.entry.constraints, *(opt.link.constraints if opt.link else [])]:
            if c.type == "min" and c.scope in scopes and c.field == "selections":
                need = max(need, int(c.value))
        return need

    def _groups_needing_default(
        self, entry: bs.EntryBase, prefix: tuple[str, ...]
    ) -> Iterator[tuple[Option, int]]:
        t = self.t
        assert t is not None

        def walk(g: bs.EntryBase, pre: tuple[str, ...]) -> Iterator[tuple[Option, int]]:
            default = getattr(g, "default_selection_entry_id", None)
            lo = max(
                (
                    int(c.value)
                    for c in g.constraints
                    if c.type == "min" and c.field == "selections"
                ),
                default=0,
            )
            if default and lo > 0:
                for o in self._group_options(g, pre):
                    if o.entry.id == default or (o.link is not None and o.link.id == default):
                        if self._min_in_parent(o) == 0:
                            yield o, lo
                        break
            for sub in g.selection_entry_groups:
                yield from walk(sub, pre)

        for g in entry.selection_entry_groups:
            yield from walk(g, prefix)
        for link in entry.entry_links:
            target = t.target(link)
            if isinstance(target, bs.SelectionEntryGroup):
                yield from walk(target, (*prefix, link.id))

    # ------------------------------------------------------------------ actions

    def _new_force(self, cmd: dict[str, Any]) -> Force:
        t = self.t
        assert t is not None
        fe_id = cmd.get("forceEntryId")
        found = t.force_entries.get(str(fe_id))
        if found is None:
            raise ActionError(f"Force entry not found with id {fe_id!r}")
        fe, _ = found
        cat_id = cmd.get("catalogueId")
        try:
            cat = t.catalogue(cat_id) if t.catalogues else bs.Catalogue(id="cat")
        except KeyError as exc:
            raise ActionError(str(exc)) from None
        if not t.catalogues:
            t.catalogues.append(cat)
            t.build()
        return Force(self._uid("force"), fe, cat)

    def _add_root_auto(self, force: Force) -> dict[str, str]:
        auto: dict[str, str] = {}
        if force.entry.hidden:
            return auto  # nothing is chosen for a hidden force
        for opt in self._options_in(None, (), self._root_entries(force)):
            # At the top of a force, each selection is its own.
            for _ in range(self._min_in_parent(opt, root=True)):
                sel = self._new_sel(opt, auto)
                auto.setdefault(opt.entry_id, sel.uid)
                force.selections.append(sel)
        return auto

    def _do_addForce(self, cmd: dict[str, Any]) -> dict[str, Any]:
        force = self._new_force(cmd)
        self.forces.append(force)
        return {"forceId": force.uid, "selections": self._add_root_auto(force)}

    def _do_addChildForce(self, cmd: dict[str, Any]) -> dict[str, Any]:
        parent = self._force(cmd.get("forceId"))
        force = self._new_force(cmd)
        parent.children.append(force)
        return {"forceId": force.uid, "selections": self._add_root_auto(force)}

    def _do_removeForce(self, cmd: dict[str, Any]) -> None:
        uid = cmd.get("forceId")

        def drop(forces: list[Force]) -> bool:
            for i, f in enumerate(forces):
                if f.uid == uid:
                    del forces[i]
                    return True
                if drop(f.children):
                    return True
            return False

        if not drop(self.forces):
            raise ActionError(f"Force not found with id {uid!r}")

    def _do_selectEntry(self, cmd: dict[str, Any]) -> dict[str, Any]:
        force = self._force(cmd.get("forceId"))
        opt = self._pick(self._options_in(None, (), self._root_entries(force)), cmd.get("entryId"))
        auto: dict[str, str] = {}
        sel = self._new_sel(opt, auto)
        force.selections.append(sel)
        return {"selectionId": sel.uid, "selections": auto}

    def _do_selectChildEntry(self, cmd: dict[str, Any]) -> dict[str, Any]:
        force = self._force(cmd.get("forceId"))
        _, parent = self._sel(force, cmd.get("selectionId"))
        opt = self._pick(
            self._options_in(parent.option.entry, parent.option.prefix, []), cmd.get("entryId")
        )
        auto: dict[str, str] = {}
        if not self._separate(opt.entry):
            # BattleScribe adds one to the selection of the entry already there (for a
            # collective entry: one more per model of the parent).
            same = next((c for c in parent.children if c.option.entry_id == opt.entry_id), None)
            if same is not None:
                same.count += 1
                return {"selectionId": same.uid, "selections": auto}
        sel = self._new_sel(opt, auto)
        parent.children.append(sel)
        return {"selectionId": sel.uid, "selections": auto}

    def _separate(self, entry: bs.EntryBase) -> bool:
        """Whether selecting the entry again makes a new selection rather than adding to the
        one there: it has something under it that is chosen per selection (a visible child
        that is not collective)."""
        t = self.t
        assert t is not None
        for opt in self._options_in(entry, (), []):
            child = opt.entry
            if (not child.collective and not child.hidden) or self._separate(child):
                return True
        return False

    def _do_deselectSelection(self, cmd: dict[str, Any]) -> None:
        force = self._force(cmd.get("forceId"))
        siblings, sel = self._sel(force, cmd.get("selectionId"))
        if siblings is force.selections or sel.count <= 1:
            siblings.remove(sel)
        else:
            # Under a selection, BattleScribe takes one away (for a collective entry: one
            # per model of the parent).
            sel.count -= 1

    def _do_setSelectionCount(self, cmd: dict[str, Any]) -> None:
        force = self._force(cmd.get("forceId"))
        _, sel = self._sel(force, cmd.get("selectionId"))
        count = int(cmd.get("count", 1))
        if count < 1:
            raise ActionError("count must be at least 1")
        sel.count = count

    def _copy(self, sel: Sel) -> Sel:
        return Sel(
            self._uid("sel"),
            sel.option,
            sel.our_id,
            sel.count,
            [self._copy(c) for c in sel.children],
        )

    def _do_duplicateSelection(self, cmd: dict[str, Any]) -> dict[str, Any]:
        force = self._force(cmd.get("forceId"))
        siblings, sel = self._sel(force, cmd.get("selectionId"))
        dup = self._copy(sel)
        siblings.append(dup)  # the newest selection, listed after those of the same name
        return {"selectionId": dup.uid}

    def _do_duplicateForce(self, cmd: dict[str, Any]) -> dict[str, Any]:
        force = self._force(cmd.get("forceId"))

        def copy(f: Force) -> Force:
            return Force(
                self._uid("force"),
                f.entry,
                f.catalogue,
                [self._copy(s) for s in f.selections],
                [copy(c) for c in f.children],
            )

        dup = copy(force)
        for siblings in [self.forces, *(f.children for f in self._all_forces())]:
            if force in siblings:
                siblings.insert(siblings.index(force) + 1, dup)
                break
        return {"forceId": dup.uid}

    def _do_setCustomization(self, cmd: dict[str, Any]) -> None:
        force = self._force(cmd.get("forceId"))
        name, notes = cmd.get("customName"), cmd.get("customNotes")
        if cmd.get("selectionId"):
            _, sel = self._sel(force, cmd.get("selectionId"))
            sel.custom_name, sel.custom_notes = name, notes
        elif cmd.get("categoryEntryId"):
            force.category_custom[str(cmd["categoryEntryId"])] = (name, notes)
        else:
            force.custom_name, force.custom_notes = name, notes

    def _do_loadRoster(self, cmd: dict[str, Any]) -> None:
        text = cmd.get("xml") or cmd.get("content")
        if not isinstance(text, str) or not text.strip():
            raise ActionError("loadRoster needs the roster's XML (xml)")
        try:
            ros.loads(self, text)
        except ros.RosterFileError as exc:
            raise ActionError(str(exc)) from None

    def _do_reload(self, cmd: dict[str, Any]) -> None:
        """Write the roster as a .ros file and read it straight back."""
        self._evals = None
        self._do_loadRoster({"xml": ros.dumps(self)})

    def _do_setCostLimit(self, cmd: dict[str, Any]) -> None:
        ct = cmd.get("costTypeId")
        value = float(cmd.get("value", 0))
        if value < 0:
            self.limits.pop(str(ct), None)
        else:
            self.limits[str(ct)] = value

    # ------------------------------------------------------------------ evaluation

    def _evaluate(self) -> Evaluated:
        """The roster evaluated by the engine, its forces as the engine's forces (cached
        until the next action)."""
        if self._evals is not None:
            return self._evals
        t = self.t
        assert t is not None and t.system is not None
        doc = {"format": 1, "system": t.system.id, "faction": t.all_id, "name": self.name}
        roster = Roster(doc, None, "<bs-adapter>", None, False)
        by_loc: dict[Any, Sel] = {}
        force_locs: dict[Any, Force] = {}

        def force_data(f: Force, loc: tuple[Any, ...]) -> ForceData:
            force_locs[loc] = f
            return ForceData(
                t.ids.ours(f.entry.id),
                [
                    self._data(s, (*loc, "selections", i), by_loc)
                    for i, s in enumerate(f.selections)
                ],
                [force_data(c, (*loc, "forces", j)) for j, c in enumerate(f.children)],
                loc,
                t.ids.ours(f.catalogue.id),
            )

        forces = [force_data(f, ("forces", i)) for i, f in enumerate(self.forces)]
        ev = evaluate(roster, t.system.index(t.all_id), forces=forces)
        out = Evaluated(ev)
        for node in ev.root.walk():
            if node.force is not None and node.loc in force_locs:
                out.force_nodes[force_locs[node.loc].uid] = node
                out.force_at[node.loc] = force_locs[node.loc]
            elif node.loc in by_loc:
                out.sels[id(node)] = by_loc[node.loc]
            out.by_loc[node.loc] = node
        self._evals = out
        return out

    def _data(self, s: Sel, loc: tuple[Any, ...], by_loc: dict[Any, Sel]) -> SelectionData:
        """The engine's view of a selection (its ``loc`` leads back to it)."""
        by_loc[loc] = s
        children = [
            self._data(c, (*loc, "selections", j), by_loc) for j, c in enumerate(s.children)
        ]
        return SelectionData(loc, s.our_id, s.count, children=children)

    # ------------------------------------------------------------------ state

    def state(self) -> dict[str, Any]:
        t = self.t
        if t is None:
            return {"type": "state", "forces": [], "costs": [], "validationErrors": []}
        evals = self._evaluate()
        totals = {ct: evals.ev.totals.get(t.ids.ours(ct), 0.0) for ct in t.cost_types}
        forces = self._forces_state(self.forces, evals)
        # The roster lists the cost types its selections have had (BattleScribe keeps a cost
        # type's total, at 0, once a selection brought it in).
        totals = {ct: v for ct, v in totals.items() if ct in self._used_costs or v}
        return {
            "type": "state",
            "name": self.name,
            "gameSystemId": t.game_system.id,
            "gameSystemName": t.game_system.name,
            "forces": forces,
            "costs": [self._cost(ct, v) for ct, v in totals.items()],
            "costLimits": [self._cost(ct, v) for ct, v in self.limits.items()],
            "validationErrors": self.errors(),
        }

    def _cost(self, ct: str, value: float) -> dict[str, Any]:
        t = self.t
        assert t is not None
        c = t.cost_types.get(ct)
        return {"name": c.name if c else ct, "typeId": ct, "value": _num(value)}

    def _forces_state(
        self,
        forces: list[Force],
        evals: Evaluated,
    ) -> list[dict[str, Any]]:
        t = self.t
        assert t is not None
        out = []
        for f in sorted(forces, key=lambda f: natural(f.entry.name)):
            ev, sels = evals.ev, evals.sels
            fnode = evals.force_nodes[f.uid]
            mine = [n for n in fnode.children if n.force is None]
            keys = {id(n): self._root_key(ev, n, sels, f) for n in mine}
            roots = sorted(mine, key=lambda n: keys[id(n)])
            out.append(
                {
                    "id": f.uid,
                    "name": f.entry.name,
                    "entryId": f.entry.id,
                    "catalogueId": f.catalogue.id,
                    "catalogueName": f.catalogue.name,
                    "selectionCount": len(roots),
                    "availableEntryCount": self._available(ev, fnode, f),
                    "selections": [self._sel_state(ev, n, sels) for n in roots],
                    "childForceCount": len(f.children),
                    "profiles": self._infos(f.entry)[0],
                    # Its own rules, then its catalogue's and the game system's.
                    "rules": [
                        *self._infos(f.entry)[1],
                        *(self._rule(r) for r in f.catalogue.rules if not r.hidden),
                        *(self._rule(r) for r in t.game_system.rules if not r.hidden),
                    ],
                    "publications": [
                        {"id": p.id, "name": p.name}
                        for p in [*f.catalogue.publications, *t.game_system.publications]
                    ],
                    "hidden": ev.force_hidden(fnode),
                    "categories": self._force_categories(f),
                    **self._custom(f.custom_name, f.custom_notes),
                    **({"page": f.entry.page} if f.entry.page else {}),
                    **({"publicationId": f.entry.publication_id} if f.entry.publication_id else {}),
                    "childForces": self._forces_state(f.children, evals),
                }
            )
        return out

    def _available(self, ev: Evaluation, fnode: Node, f: Force) -> int:
        """How many entries the force offers at its top (a link to a group is one), not
        hidden there."""
        t = self.t
        assert t is not None
        n = 0
        for e in self._root_entries(f):
            if e.hidden:
                continue
            child = ev.index.child(None, t.ids.ours(e.id))
            if child is not None and ev.is_hidden(child.entry, fnode):
                continue
            n += 1
        return n

    def _custom(self, name: str | None, notes: str | None) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if name is not None:
            out["customName"] = name
        if notes is not None:
            out["customNotes"] = notes
        return out

    def _force_categories(self, f: Force) -> list[dict[str, Any]]:
        """A force's categories as BattleScribe lists them: `Uncategorised` first, then the
        force entry's categories in its order."""
        t = self.t
        assert t is not None
        out: list[dict[str, Any]] = [
            {
                "name": "Uncategorised",
                "entryId": "(No Category)",
                "primary": False,
                "profiles": [],
                "rules": [],
            }
        ]
        for cl in f.entry.category_links:
            row: dict[str, Any] = {
                "name": self._cat_name(cl),
                "entryId": cl.target_id,
                "primary": False,
                "profiles": [],
                "rules": [],
            }
            row.update(self._custom(*f.category_custom.get(cl.target_id, (None, None))))
            out.append(row)
        return out

    def _root_key(
        self, ev: Evaluation, node: Node, sels: dict[int, Sel], force: Force
    ) -> tuple[Any, ...]:
        """Selections of a force are listed by their primary category, in the order the force
        entry lists its categories, then by name."""
        order = {cl.target_id: i for i, cl in enumerate(force.entry.category_links)}
        s = sels.get(id(node))
        prim = None
        if s is not None:
            prim = next((cl.target_id for cl in s.option.entry.category_links if cl.primary), None)
        rank = order.get(prim, len(order)) if prim else len(order)
        return (rank, natural(ev.name(node)))

    def _sel_state(
        self, ev: Evaluation, node: Node, sels: dict[int, Sel], above: int = 1
    ) -> dict[str, Any]:
        """A selection as the suite reports it. A collective entry's count is per model of
        its parent (as the engine counts); its ``number`` is the total, that count times the
        parent's number (``above``)."""
        t = self.t
        assert t is not None
        s = sels.get(id(node))
        entry = s.option.entry if s is not None else None
        number = node.count * above if entry is not None and entry.collective else node.count
        children = sorted(node.children, key=lambda n: natural(ev.name(n)))
        costs = []
        declared = {c.type_id for c in entry.costs} if entry is not None else set()
        if s is not None and s.option.link is not None:
            declared |= {c.type_id for c in s.option.link.costs}
        for ct in t.cost_types:
            value = ev.unit_cost(node, t.ids.ours(ct)) * number
            if ct in declared or value:
                costs.append(self._cost(ct, value))
                self._used_costs.add(ct)
        out: dict[str, Any] = {
            "id": s.uid if s is not None else "",
            "name": ev.name(node),
            "entryId": s.option.entry_id if s is not None else node.entry_id,
            "type": entry.type if entry is not None else "upgrade",
            "number": number,
            "hidden": bool(node.entry is not None and ev.is_hidden(node.entry, node)),
            "costs": costs,
            "childCount": len(children),
            "children": [self._sel_state(ev, c, sels, number) for c in children],
        }
        if s is not None and s.option.group:
            out["entryGroupId"] = s.option.group
        if s is not None:
            out.update(self._custom(s.custom_name, s.custom_notes))
        if entry is not None:
            profiles, rules = self._infos(entry, ev, node)
            out["profiles"] = profiles
            out["rules"] = rules
            out["categories"] = self._categories(ev, node)
            link = s.option.link if s is not None else None
            page = entry.page or (link.page if link is not None else None)
            if node.entry is not None:
                page = ev.apply_modifiers(node.entry, "page", page, node)
            if page:
                out["page"] = page
            pub = entry.publication_id or (link.publication_id if link is not None else None)
            if pub:
                out["publicationId"] = pub
                name = t.publications.get(pub)
                if name is not None:
                    out["publicationName"] = name
        return out

    def _infos(
        self, holder: bs.InfoHolder, ev: Evaluation | None = None, node: Node | None = None
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The visible profiles and rules of an entry (or force): its own, its info groups'
        and what its info links point to."""
        t = self.t
        assert t is not None
        profiles: list[dict[str, Any]] = []
        rules: list[dict[str, Any]] = []

        def walk(h: bs.InfoHolder, own: bool) -> None:
            for p in h.profiles:
                if not p.hidden:
                    profiles.append(self._profile(p, ev if own else None, node))
            for r in h.rules:
                if not r.hidden:
                    rules.append(self._rule(r, ev if own else None, node))
            for g in h.info_groups:
                if not g.hidden:
                    walk(g, own)
            for link in h.info_links:
                if link.hidden:
                    continue
                target = t.infos.get(link.target_id)
                if isinstance(target, bs.Profile) and not target.hidden:
                    profiles.append(self._profile(target, ev, node))
                elif isinstance(target, bs.Rule) and not target.hidden:
                    rules.append(self._rule(target))
                elif isinstance(target, bs.InfoGroup) and not target.hidden:
                    walk(target, False)

        walk(holder, True)
        return profiles, rules

    def _rule(
        self, r: bs.Rule, ev: Evaluation | None = None, node: Node | None = None
    ) -> dict[str, Any]:
        t = self.t
        assert t is not None
        name, text = r.name, r.description
        if ev is not None and node is not None and node.entry is not None:
            rid = t.ids.ours(r.id)
            name = str(ev.apply_modifiers(node.entry, rule_field(rid, "name"), name, node))
            text = str(ev.apply_modifiers(node.entry, rule_field(rid, "description"), text, node))
        out: dict[str, Any] = {"name": name, "description": text, "hidden": r.hidden}
        if r.page:
            out["page"] = r.page
        if r.publication_id:
            out["publicationId"] = r.publication_id
        return out

    def _categories(self, ev: Evaluation, node: Node) -> list[dict[str, Any]]:
        """A selection's categories (after modifiers), by name, the primary one marked."""
        t = self.t
        assert t is not None
        primary = ev.primary_category(node)
        out = []
        for cat in ev.categories(node):
            bs_id = t.ids.bs(cat)
            found = t.categories.get(bs_id)
            out.append(
                {
                    "name": found.name if found is not None else bs_id,
                    "entryId": bs_id,
                    "primary": cat == primary,
                }
            )
        return sorted(out, key=lambda c: natural(str(c["name"])))

    def _cat_name(self, cl: bs.CategoryLink) -> str:
        t = self.t
        assert t is not None
        cat = t.categories.get(cl.target_id)
        return cat.name if cat is not None else cl.name

    def _profile(
        self, p: bs.Profile, ev: Evaluation | None = None, node: Node | None = None
    ) -> dict[str, Any]:
        t = self.t
        assert t is not None
        chars = []
        for c in p.characteristics:
            value: Any = c.value
            if ev is not None and node is not None and node.entry is not None and c.type_id:
                field = f"characteristic:{t.ids.ours(c.type_id)}"
                value = ev.apply_modifiers(node.entry, field, scalar(value), node)
            if isinstance(value, float):
                value = _num(value)
            chars.append({"name": c.name, "typeId": c.type_id, "value": str(value)})
        ptype = t.profile_types.get(p.type_id)
        out: dict[str, Any] = {
            "name": p.name,
            "typeId": p.type_id,
            "typeName": p.type_name or (ptype.name if ptype is not None else ""),
            "hidden": p.hidden,
            "characteristics": chars,
        }
        if p.page:
            out["page"] = p.page
        if p.publication_id:
            out["publicationId"] = p.publication_id
        return out

    # ------------------------------------------------------------------ errors

    def errors(self) -> list[dict[str, Any]]:
        t = self.t
        if t is None:
            return []
        out: list[dict[str, Any]] = []
        evals = self._evaluate()
        for issue in evals.ev.errors:
            force = self._force_at(evals, issue.path)
            if force is None or force.entry.hidden:
                continue  # BattleScribe does not check a hidden force
            err = self._error(force, issue, evals.by_loc, evals.sels)
            if err is not None:
                out.append(err)
        totals = {ct: evals.ev.totals.get(t.ids.ours(ct), 0.0) for ct in t.cost_types}
        for ct, limit in self.limits.items():
            spent = totals.get(ct, 0.0)
            if spent > limit:
                name = t.cost_types[ct].name if ct in t.cost_types else ct
                out.append(
                    {
                        "message": f"Roster is over the {name} limit by "
                        f"{_num(spent - limit)}{name}",
                        "ownerType": "roster",
                        "entryId": "costLimits",
                        "constraintId": ct,
                    }
                )
        return out

    def _force_at(self, evals: Evaluated, loc: Any) -> Force | None:
        """The innermost force whose loc starts ``loc``."""
        loc = tuple(loc)
        for n in range(len(loc), 1, -1):
            found = evals.force_at.get(loc[:n])
            if found is not None:
                return found
        return self.forces[0] if self.forces else None

    def _error(
        self, force: Force, issue: Issue, by_loc: dict[Any, Node], sels: dict[int, Sel]
    ) -> dict[str, Any] | None:
        """An engine issue in the suite's terms: its owner (the roster element BattleScribe
        hangs it on) and its origin (entry and constraint ids). ``None``: BattleScribe does not
        report it (a minimum on an uncategorised entry at the top of a force)."""
        t = self.t
        assert t is not None
        out: dict[str, Any] = {"message": issue.message}
        node = by_loc.get(issue.path)
        here = sels.get(id(node)) if node is not None else None
        entry = t.ids.bs(issue.entry) if issue.entry else None
        con: bs.Constraint | None = None
        origin = entry
        if entry is not None and issue.constraint and issue.constraint != "hidden":
            found = t.constraint_info.get((entry, t.ids.bs(issue.constraint)))
            if found is not None:
                origin, con = found
        elif entry is not None and not issue.constraint and issue.code != "catalog-message":
            # (A message the data raises has no constraint: it is on the selection.)
            kind = "max" if issue.code == "max-exceeded" else "min"
            con = t.group_constraints.get((entry, kind))
        if origin is not None:
            out["entryId"] = origin
        if issue.constraint == "hidden":
            out["constraintId"] = "hidden"
        elif con is not None:
            out["constraintId"] = con.id
        elif issue.constraint:
            out["constraintId"] = t.ids.bs(issue.constraint)

        def on_selection(s: Sel) -> dict[str, Any]:
            out.update(ownerType="selection", ownerId=s.uid, ownerEntryId=s.option.entry.id)
            return out

        def on_force() -> dict[str, Any]:
            out.update(ownerType="force", ownerId=force.uid, ownerEntryId=force.entry.id)
            return out

        if issue.constraint == "hidden" and here is not None:
            return on_selection(here)
        scope = con.scope if con is not None else "parent"
        collective = entry is not None and entry in t.nodes and t.nodes[entry].collective
        if collective and here is not None:
            return on_selection(here)  # counted per model of the parent: the parent's
        if con is not None and issue.code == "max-exceeded" and entry is not None:
            mine = [s for s in self._walk_sels(force.selections) if s.option.entry.id == entry]
            if here is not None and here.option.entry.id == entry:
                return on_selection(here)
            if mine:
                return on_selection(mine[-1])
        if scope == "roster":
            out.update(ownerType="roster")
            return out
        if scope == "force":
            return on_force()
        if here is not None:
            return on_selection(here)
        if scope == "parent" and entry is not None and entry in t.nodes:
            # At the top of a force, BattleScribe's parent is the entry's primary category.
            links = t.nodes[entry].category_links
            primary = next((cl.target_id for cl in links if cl.primary), None)
            if primary is None:
                return None if issue.code == "min-not-met" else on_force()
            out.update(ownerType="category", ownerEntryId=primary)
            return out
        return on_force()

    def _walk_sels(self, sels: list[Sel]) -> Iterator[Sel]:
        for s in sels:
            yield s
            yield from self._walk_sels(s.children)


def serve(stdin: TextIO, stdout: TextIO) -> int:
    """Speak the protocol as JSON lines until stdin closes."""
    session = AdapterSession()
    for line in stdin:
        line = line.strip()
        if not line:
            continue
        try:
            cmd = json.loads(line)
        except json.JSONDecodeError as exc:
            reply: dict[str, Any] = {"type": "error", "message": f"not JSON: {exc}"}
        else:
            if not isinstance(cmd, dict):
                reply = {"type": "error", "message": "a command must be a JSON object"}
            else:
                try:
                    reply = session.handle(cmd)
                except Exception as exc:
                    reply = {"type": "error", "message": f"{type(exc).__name__}: {exc}"}
                    if "corrId" in cmd:
                        reply["corrId"] = cmd["corrId"]
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()
    return 0


def main() -> int:
    return serve(sys.stdin, sys.stdout)
