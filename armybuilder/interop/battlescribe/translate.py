"""Translate a BattleScribe game system and catalogues into armybuilder's catalog model.

The result is an in-memory :class:`~armybuilder.catalog.GameSystem` (one faction per
catalogue) that the generic engine evaluates like any bundled system. BattleScribe ids are
kept: where one is not a valid armybuilder id it is mapped to one (:class:`IdMap`, both ways),
so issues and selections can be reported back in BattleScribe's ids.

What the catalog model cannot yet express is listed in :attr:`Translation.unsupported` (one
line per construct), never silently dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel

from ... import catalog as ab_catalogs
from ...model import catalog as ab
from ...model.bounds import MAX_COST, MAX_COUNT, MAX_NUMBER
from ...model.plain import MESSAGE_FIELDS as OUR_MESSAGE_FIELDS
from ...model.plain import profile_hidden_field, profile_name_field, rule_field
from . import checking
from . import model as bs

_ID = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")

SCOPES = {"self", "parent", "roster", "force", "ancestor"}
#: Scopes of the nearest enclosing selection of a type, and of the top-level selection.
TYPE_SCOPES = {
    "unit": "type:unit",
    "model": "type:model",
    "upgrade": "type:upgrade",
    "model-or-unit": "type:model|unit",
    "root-entry": "top",
}
#: BattleScribe's message fields (a modifier that adds a validation message) -> ours.
MESSAGE_FIELDS = {"error": "error", "warning": "warning", "info": "note"}
#: Modifier types the engine has under the same name (``replace`` reads ``arg``).
MODIFIER_TYPES = {"set", "increment", "decrement", "append", "add", "remove", "floor", "ceil"}
CONDITION_TYPES = {
    "lessThan": "less-than",
    "greaterThan": "greater-than",
    "equalTo": "equal-to",
    "notEqualTo": "not-equal-to",
    "atLeast": "at-least",
    "atMost": "at-most",
    "instanceOf": "instance-of",
    "notInstanceOf": "not-instance-of",
}


class IdMap:
    """BattleScribe ids <-> armybuilder ids (kept as they are whenever they are valid)."""

    def __init__(self) -> None:
        self.to_ours: dict[str, str] = {}
        self.to_bs: dict[str, str] = {}

    def ours(self, bs_id: str) -> str:
        found = self.to_ours.get(bs_id)
        if found is not None:
            return found
        cand = bs_id
        if not _ID.fullmatch(cand):
            cand = re.sub(r"[^a-z0-9]+", "-", bs_id.lower()).strip("-") or "id"
        base, n = cand, 1
        while cand in self.to_bs:
            n += 1
            cand = f"{base}-x{n}"
        self.to_ours[bs_id] = cand
        self.to_bs[cand] = bs_id
        return cand

    def bs(self, our_id: str) -> str:
        return self.to_bs.get(our_id, our_id)


def slug(text: str) -> str:
    """An armybuilder id made from a name (``Orks - Library`` -> ``orks-library``)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


_M = TypeVar("_M", bound=BaseModel)
_FIELDS: dict[type, tuple[dict[str, Any], list[tuple[str, Any]]]] = {}
#: Value objects made once per translation and shared wherever they are equal: the 40k data
#: repeats its conditions (20,573 conditions in Space Marines and its links, 632 different;
#: 6,945 condition groups, 295; 4,833 modifiers, 1,242), so sharing them makes a cache file
#: a third as many objects to read back. They are frozen and the engine keys nothing of its
#: own on them.
_SHARED = (ab.Condition, ab.ConditionGroup, ab.Repeat, ab.Modifier)


def _build_model(cls: type[_M], values: dict[str, Any]) -> _M:
    """A catalog model made from values the translation has already checked, without
    pydantic's validation (a third of a cold load of the 40k data went to validating some
    50,000 conditions, modifiers and constraints). The object is as ``model_construct``
    makes it (field order, defaults, fields set), which is itself slow on default factories."""
    made = _FIELDS.get(cls)
    if made is None:
        made = _FIELDS[cls] = (
            # Every field in order, at its default (a field with a default factory at None,
            # made below), then the fields with a default factory.
            {
                name: None if f.default_factory is not None else f.default
                for name, f in cls.model_fields.items()
            },
            [(n, f.default_factory) for n, f in cls.model_fields.items() if f.default_factory],
        )
    template, factories = made
    data = template.copy()  # (the fields' order; an update keeps each key where it is)
    for name, factory in factories:
        if name not in values:
            data[name] = factory()
    data.update(values)
    if len(data) != len(template):  # (a name that is no field: left out, as pydantic does)
        data = {k: v for k, v in data.items() if k in template}
    obj = _new(cls)
    _set(obj, "__dict__", data)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj


_new = object.__new__
_set = object.__setattr__


def _id(value: Any) -> bool:
    return value.__class__ is str and _ID.fullmatch(value) is not None


def _count(value: Any) -> bool:
    return value.__class__ is int and 0 <= value <= MAX_COUNT


def _group_count(kind: str, value: float) -> bool:
    """Whether a group's ``min`` / ``max`` of selections is a count we can keep: a whole number
    from 0 to :data:`MAX_COUNT` (a negative maximum is BattleScribe's "no limit")."""
    if kind == "max" and value < 0:
        return True
    return value == value and 0 <= value <= MAX_COUNT and float(value).is_integer()


def _ids(values: Any) -> bool:
    return values.__class__ is list and all(
        v.__class__ is str and _ID.fullmatch(v) is not None for v in values
    )


#: For an entry, a link and a group (some 6,400 in the 40k data's Space Marines with its
#: links): whether the values the translation gives a field are already what pydantic's
#: validation keeps (then it is skipped, see :func:`_checked`). The other fields hold catalog
#: objects the translation made (or lists of them), taken as they are by pydantic too.
_CHECKS: dict[type[BaseModel], dict[str, Any]] = {
    ab.Entry: {
        "id": _id,
        "name": lambda v: v.__class__ is str,
        "type": lambda v: v in ("unit", "model", "upgrade"),
        "hidden": lambda v: v.__class__ is bool,
        "categories": _ids,
        "primary_category": lambda v: v is None or _id(v),
        "costs": lambda v: (
            v.__class__ is dict
            and all(
                type(k) is str and type(c) is float and -MAX_COST <= c <= MAX_COST
                for k, c in v.items()
            )
        ),
        "rules": _ids,
    },
    ab.EntryLink: {
        "link": _id,
        "id": _id,
        "hidden": lambda v: v is None or v.__class__ is bool,
        "categories": lambda v: v is None or _ids(v),
    },
    ab.Group: {
        "id": _id,
        "name": lambda v: v.__class__ is str,
        "min": _count,
        "max": lambda v: v is None or _count(v),
        "default": lambda v: v is None or _id(v),
        "hidden": lambda v: v.__class__ is bool,
    },
}
#: The fields of those whose values are lists of catalog objects (checked for being lists).
_LISTS = {"profiles", "constraints", "modifiers", "entries", "groups"}


def _entry_checked(v: dict[str, Any]) -> bool:
    """:data:`_CHECKS` of an entry, written out for the fields the translation gives it."""
    primary, costs = v["primary_category"], v["costs"]
    return (
        _id(v["id"])
        and v["name"].__class__ is str
        and v["type"] in ("unit", "model", "upgrade")
        and v["hidden"].__class__ is bool
        and _ids(v["categories"])
        and (primary is None or _id(primary))
        and costs.__class__ is dict
        and all(
            type(k) is str and type(c) is float and -MAX_COST <= c <= MAX_COST
            for k, c in costs.items()
        )
        and _ids(v["rules"])
        and v["profiles"].__class__ is list
        and v["constraints"].__class__ is list
        and v["modifiers"].__class__ is list
        and v["entries"].__class__ is list
        and v["groups"].__class__ is list
    )


def _link_checked(v: dict[str, Any]) -> bool:
    """:data:`_CHECKS` of a link, written out for the fields the translation gives it."""
    hidden, categories = v["hidden"], v["categories"]
    return (
        _id(v["link"])
        and _id(v["id"])
        and (hidden is None or hidden.__class__ is bool)
        and (categories is None or _ids(categories))
        and v["constraints"].__class__ is list
        and v["modifiers"].__class__ is list
    )


def _group_checked(v: dict[str, Any]) -> bool:
    """:data:`_CHECKS` of a group, written out for the fields the translation gives it."""
    most, default = v["max"], v["default"]
    return (
        _id(v["id"])
        and v["name"].__class__ is str
        and _count(v["min"])
        and (most is None or _count(most))
        and (default is None or _id(default))
        and v["entries"].__class__ is list
        and v["groups"].__class__ is list
        and v["hidden"].__class__ is bool
        and v["modifiers"].__class__ is list
        and v["constraints"].__class__ is list
    )


#: The fields the translation gives an entry, a link and a group (in the order it gives them),
#: with :data:`_CHECKS` written out for exactly those (a quarter of the checks' CPU).
_WRITTEN_OUT: dict[type[BaseModel], tuple[tuple[str, ...], Any]] = {
    ab.Entry: (
        (
            "id",
            "name",
            "type",
            "hidden",
            "categories",
            "primary_category",
            "costs",
            "profiles",
            "rules",
            "constraints",
            "modifiers",
            "entries",
            "groups",
        ),
        _entry_checked,
    ),
    ab.EntryLink: (
        ("link", "id", "hidden", "categories", "constraints", "modifiers"),
        _link_checked,
    ),
    ab.Group: (
        (
            "id",
            "name",
            "min",
            "max",
            "default",
            "entries",
            "groups",
            "hidden",
            "modifiers",
            "constraints",
        ),
        _group_checked,
    ),
}


def _checked(cls: type[_M], **values: Any) -> _M:
    """``cls(**values)`` for an entry, a link or a group, without pydantic's validation
    where every value is already what it keeps (:data:`_CHECKS`: a third of the catalog
    objects' validation of a cold load); anything else (a name that is not text, a cost out
    of bounds or not finite, a count out of range, an id of another shape...) goes through
    pydantic, which refuses it as before."""
    names, written_out = _WRITTEN_OUT[cls]
    if tuple(values) == names:
        return _build_model(cls, values) if written_out(values) else cls(**values)
    checks = _CHECKS[cls]
    for name, value in values.items():
        check = checks.get(name)
        if check is None:
            if name not in _LISTS or value.__class__ is not list:
                return cls(**values)
        elif not check(value):
            return cls(**values)
    return _build_model(cls, values)


class _Maker:
    """Makes the translation's catalog objects (see :func:`_build_model`), sharing equal
    value objects (see :data:`_SHARED`)."""

    def __init__(self) -> None:
        self.shared: dict[Any, Any] = {}

    def __call__(self, cls: type[_M], **values: Any) -> _M:
        if cls not in _SHARED:
            return _build_model(cls, values)
        # The key: the class, the names given, then each value (a list of shared objects by
        # their identities; a bool apart from the number it equals).
        key: list[Any] = [cls, tuple(values)]
        for v in values.values():
            kind = v.__class__
            if kind is list:
                key.append(tuple(map(id, v)))
            elif kind is bool:
                key.append((bool, v))
            else:
                key.append(v)
        frozen = tuple(key)
        found = self.shared.get(frozen)
        if found is None:
            found = self.shared[frozen] = _build_model(cls, values)
        return found


def _num(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def scalar(value: Any) -> Any:
    """A characteristic's text as a number where it is one (so it can be incremented)."""
    if isinstance(value, str) and re.fullmatch(r"-?\d+(\.\d+)?", value.strip()):
        num = float(value)
        return int(num) if num.is_integer() else num
    return value


def _compare(kind: str, got: float, value: float) -> bool:
    """A condition on a count that names no child: BattleScribe counts nothing (0)."""
    return {
        "less-than": got < value,
        "greater-than": got > value,
        "equal-to": got == value,
        "not-equal-to": got != value,
        "at-least": got >= value,
        "at-most": got <= value,
    }.get(kind, False)


def _bool(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() == "true"
    return bool(value)


@dataclass
class Translation:
    """A BattleScribe setup in armybuilder's model, with the lookups the adapter needs."""

    game_system: bs.GameSystem
    catalogues: list[bs.Catalogue]
    ids: IdMap = field(default_factory=IdMap)
    #: The id of the faction holding every catalogue's entries (what a roster is evaluated on).
    all_id: str = ""
    system: ab_catalogs.GameSystem | None = None
    unsupported: list[str] = field(default_factory=list)
    #: Elements of the data left out for a value the model refuses, one line each (see
    #: :mod:`.checking`).
    problems: list[str] = field(default_factory=list)
    #: For each line of :attr:`problems` the translation added, the id of the element named.
    problem_ids: list[str] = field(default_factory=list)
    #: References to what no file defines (a cost type), as :attr:`problems` and
    #: :attr:`problem_ids` (a data problem of another code: see ``library.DATA_REFERENCE``).
    reference_problems: list[tuple[str, str]] = field(default_factory=list)
    #: Every selection entry, group and link by BattleScribe id.
    nodes: dict[str, bs.EntryBase] = field(default_factory=dict)
    shared: dict[str, bs.EntryBase] = field(default_factory=dict)
    force_entries: dict[str, tuple[bs.ForceEntry, bs.DataFile]] = field(default_factory=dict)
    categories: dict[str, bs.CategoryEntry] = field(default_factory=dict)
    cost_types: dict[str, bs.CostType] = field(default_factory=dict)
    profile_types: dict[str, bs.ProfileType] = field(default_factory=dict)
    constraint_ids: set[str] = field(default_factory=set)
    #: Shared profiles, rules and info groups (what info links point to), by id.
    infos: dict[str, bs.Profile | bs.Rule | bs.InfoGroup] = field(default_factory=dict)
    publications: dict[str, str] = field(default_factory=dict)
    #: (entry id as the engine reports it, constraint id) -> (the id of the entry, link or
    #: force entry that declares the constraint, the constraint), in BattleScribe ids.
    constraint_info: dict[tuple[str, str], tuple[str, bs.Constraint]] = field(default_factory=dict)
    _memo: dict[int, ab.Entry] = field(default_factory=dict, repr=False)
    _make: _Maker = field(default_factory=_Maker, repr=False)
    _cond_memo: dict[tuple[Any, ...], ab.Condition | None] = field(default_factory=dict, repr=False)
    _group_memo: dict[tuple[int, int], ab.Group | None] = field(default_factory=dict, repr=False)
    _holder_memo: dict[int, tuple[ab.Modifier, ab.Modifier]] = field(
        default_factory=dict, repr=False
    )
    _cgroup_memo: dict[tuple[Any, ...], ab.ConditionGroup | None] = field(
        default_factory=dict, repr=False
    )
    #: A modifier's translation by what it depends on (:func:`_modifier_key`): the 40k data's
    #: Space Marines with its links hold 7,088 modifiers, 1,242 different.
    _mod_memo: dict[tuple[Any, ...], ab.Modifier | list[ab.Modifier] | None] = field(
        default_factory=dict, repr=False
    )
    #: A characteristic's text -> :func:`scalar` of it (the 40k data's 10,600 characteristics
    #: hold a few hundred different texts).
    _scalars: dict[str, Any] = field(default_factory=dict, repr=False)
    #: (group id, `min` / `max`) -> the group's constraint.
    group_constraints: dict[tuple[str, str], bs.Constraint] = field(default_factory=dict)
    char_types: set[str] = field(default_factory=set)
    _rules: dict[str, ab.Rule] = field(default_factory=dict, repr=False)
    #: Every entry a link points to (a link may point to an entry nested in another).
    _link_targets: dict[str, bs.EntryBase] = field(default_factory=dict, repr=False)
    #: Cost types the entries' costs name but no file defines, by BattleScribe id: the name
    #: the first such cost gives, the first entry with one, and whether any is not 0.
    _undefined_costs: dict[str, tuple[str, bs.EntryBase, bool]] = field(
        default_factory=dict, repr=False
    )

    # ------------------------------------------------------------------ helpers

    def value_problem(self, owner: bs.EntryBase, what: str) -> None:
        """A value of the data left out during the translation (see :attr:`problems`); the
        id of the element holding it is kept in :attr:`problem_ids`, to find its file."""
        label = checking.label(owner.model_dump(include={"id", "name"}), _tag_of(owner))
        line = f"{label} {what}"
        if line not in self.problems:
            self.problems.append(line)
            self.problem_ids.append(owner.id)

    def note(self, what: str) -> None:
        if what not in self.unsupported:
            self.unsupported.append(what)

    def files(self) -> list[bs.DataFile]:
        return [self.game_system, *self.catalogues]

    def catalogue(self, cat_id: str | None) -> bs.Catalogue:
        for c in self.catalogues:
            if cat_id is None or c.id == cat_id:
                return c
        raise KeyError(f"no catalogue {cat_id!r}")

    def linked_files(self, cat: bs.Catalogue) -> list[bs.DataFile]:
        """The catalogue, the game system and every catalogue it links to (transitively)."""
        out: list[bs.DataFile] = [cat, self.game_system]
        todo = [cat]
        while todo:
            c = todo.pop()
            for link in c.catalogue_links:
                for other in self.catalogues:
                    if other.id == link.target_id and other not in out:
                        out.append(other)
                        todo.append(other)
        return out

    # ------------------------------------------------------------------ build

    def build(self) -> ab_catalogs.GameSystem:
        gs = self.game_system
        for f in self.files():
            for ct in f.cost_types:
                self.cost_types.setdefault(ct.id, ct)
            for pt in f.profile_types:
                self.profile_types.setdefault(pt.id, pt)
                self.char_types.update(c.id for c in pt.characteristic_types)
            infos: list[bs.Profile | bs.Rule | bs.InfoGroup] = [
                *f.shared_profiles,
                *f.shared_rules,
                *f.shared_info_groups,
                *f.rules,
            ]
            for info in infos:
                self.infos.setdefault(info.id, info)
            for pub in f.publications:
                self.publications.setdefault(pub.id, pub.name)
            for ce in f.category_entries:
                self.categories.setdefault(ce.id, ce)
            for fe in self._walk_forces(f.force_entries):
                self.force_entries.setdefault(fe.id, (fe, f))
            for e in [*f.shared_selection_entries, *f.shared_selection_entry_groups]:
                self.shared[e.id] = e
            for e in [*f.selection_entries, *f.shared_selection_entries]:
                self.shared.setdefault(e.id, e)
            self._index_nodes(f)
        ids = self.ids
        system = ab.SystemFile(
            kind="system",
            id=ids.ours(gs.id),
            name=gs.name or gs.id,
            cost_types=[
                ab.CostType(
                    id=ids.ours(ct.id),
                    name=(ct.name or "").strip() or ct.id,  # the data pads some: " Cans"
                    # BattleScribe names a cost type by its unit and shows a cost as the
                    # number then that name ("80pts", "5 Cans"): so do we ("80 pts").
                    unit=(ct.name or "").strip(),
                    default_limit=None,  # limits are the roster's: the adapter checks them
                    hidden=ct.hidden,
                )
                for ct in self.cost_types.values()
            ],
            profile_types=[
                ab.ProfileType(
                    id=ids.ours(pt.id),
                    name=pt.name or pt.id,
                    characteristics=[
                        ab.Characteristic(id=ids.ours(c.id), name=c.name or c.id)
                        for c in pt.characteristic_types
                    ],
                )
                for pt in self.profile_types.values()
            ],
            categories=[
                ab.Category(id=ids.ours(c.id), name=c.name or c.id)
                for c in self.categories.values()
            ],
            forces=[self._force(fe) for fe, _ in self.force_entries.values()],
            entries=self._children([*gs.selection_entries, *gs.entry_links]),
            shared_entries=[
                self._entry(e)
                for e in gs.shared_selection_entries
                if isinstance(e, bs.SelectionEntry)
            ],
        )
        ours = ab_catalogs.GameSystem(Path(f"<{gs.id}>"), system)
        for cat in self.catalogues:
            shared: list[ab.Entry] = []
            seen: set[str] = {e.id for e in gs.shared_selection_entries}
            for f in self.linked_files(cat):
                if f is gs:
                    continue
                for e in [*f.shared_selection_entries, *f.selection_entries]:
                    if e.id not in seen:
                        seen.add(e.id)
                        shared.append(self._entry(e))
            for e in gs.selection_entries:
                if e.id not in seen:
                    seen.add(e.id)
                    shared.append(self._entry(e))
            roots: list[bs.EntryBase] = [*cat.selection_entries, *cat.entry_links]
            for link in cat.catalogue_links:
                if link.import_root_entries:
                    for other in self.catalogues:
                        if other.id == link.target_id:
                            roots += [
                                e
                                for e in [*other.selection_entries, *other.entry_links]
                                if e.import_
                            ]
            faction = ab.FactionFile(
                kind="catalog",
                id=ids.ours(cat.id),
                system=system.id,
                name=cat.name or cat.id,
                entries=self._children(roots),
                shared_entries=shared,
            )
            ours.factions[faction.id] = ab_catalogs.Faction(Path(f"<{cat.id}>"), faction)
        # A link may point to an entry nested in another: every faction can resolve it.
        while True:
            before = len(self._link_targets)
            for target in list(self._link_targets.values()):
                self._entry(target)  # translating it may meet more links
            if len(self._link_targets) == before:
                break
        for fac in ours.factions.values():
            have = {e.id for e in fac.model.shared_entries} | {e.id for e in system.shared_entries}
            for target in self._link_targets.values():
                if isinstance(target, bs.SelectionEntry) and self.ids.ours(target.id) not in have:
                    fac.model.shared_entries.append(self._entry(target))
        system.rules.extend(self._rules.values())
        # One faction with every catalogue's entries: a roster's forces may each use another
        # catalogue, and the engine evaluates the roster as a whole.
        self.all_id = ids.ours("\0every catalogue")
        every = ab.FactionFile(
            kind="catalog",
            id=self.all_id,
            system=system.id,
            name="Every catalogue",
            entries=[e for f in ours.factions.values() for e in f.model.entries],
            shared_entries=_unique(
                e for f in ours.factions.values() for e in f.model.shared_entries
            ),
        )
        ours.factions[every.id] = ab_catalogs.Faction(Path("<every catalogue>"), every)
        self._report_undefined_costs(system)
        self.system = ours
        return ours

    def _undefined_cost(self, c: bs.CostValue, e: bs.EntryBase) -> None:
        """Note a cost in a type no file defines; the first time, give the type a readable
        id from the name the cost gives it (as the defined ones have: ``pts``)."""
        found = self._undefined_costs.get(c.type_id)
        if found is None:
            readable = slug(c.name or c.type_id)
            ids = self.ids
            if readable not in ids.to_bs and c.type_id not in ids.to_ours:
                ids.to_ours[c.type_id] = readable
                ids.to_bs[readable] = c.type_id
            found = (c.name, e, False)
        name, first, used = found
        self._undefined_costs[c.type_id] = (name or c.name, first, used or bool(c.value))

    def _costs(self, e: bs.EntryBase) -> dict[str, float]:
        """An entry's costs by our cost type ids; a cost of 0 in a type no file defines is
        left out (it adds nothing, and would show as a total of 0 under a hex id)."""
        known, ours = self.ids.to_ours.get, self.ids.ours
        out: dict[str, float] = {}
        for c in e.costs:
            if c.type_id not in self.cost_types:
                self._undefined_cost(c, e)
                if not c.value:
                    continue
            out[known(c.type_id) or ours(c.type_id)] = c.value
        return out

    def _report_undefined_costs(self, system: ab.SystemFile) -> None:
        """One data problem per cost type the costs name but no file defines. One whose
        costs are all 0 is left out; one with other costs becomes a cost type of the name
        the costs give it (BattleScribe shows them by that name)."""
        for type_id, (name, first, used) in self._undefined_costs.items():
            shown = name.strip() or type_id
            if used:
                system.cost_types.append(
                    ab.CostType(id=self.ids.ours(type_id), name=shown, unit=shown)
                )
                what = "it is counted as a cost type of that name"
            else:
                what = "every such cost is 0, so it is left out"
            label = checking.label(first.model_dump(include={"id", "name"}), _tag_of(first))
            self.reference_problems.append(
                (
                    f"{label} has a cost in {shown!r} ({type_id}), a cost type no file "
                    f"defines: {what}",
                    first.id,
                )
            )

    def _walk_forces(self, forces: list[bs.ForceEntry]) -> list[bs.ForceEntry]:
        out: list[bs.ForceEntry] = []
        for fe in forces:
            out.append(fe)
            out.extend(self._walk_forces(fe.force_entries))
        return out

    def _index_nodes(self, f: bs.DataFile) -> None:
        def walk(items: list[Any]) -> None:
            for e in items:
                if not isinstance(e, bs.EntryBase):
                    continue
                self.nodes.setdefault(e.id, e)
                for c in e.constraints:
                    self.constraint_ids.add(c.id)
                walk([*e.selection_entries, *e.selection_entry_groups, *e.entry_links])

        walk(
            [
                *f.selection_entries,
                *f.entry_links,
                *f.shared_selection_entries,
                *f.shared_selection_entry_groups,
            ]
        )
        for fe in self._walk_forces(f.force_entries):
            for c in fe.constraints:
                self.constraint_ids.add(c.id)
            for cl in fe.category_links:
                for c in cl.constraints:
                    self.constraint_ids.add(c.id)

    def target(self, link: bs.EntryLink) -> bs.EntryBase | None:
        return self.shared.get(link.target_id) or self.nodes.get(link.target_id)

    # ------------------------------------------------------------------ entries

    def _force(self, fe: bs.ForceEntry) -> ab.ForceEntry:
        cons: list[ab.Constraint] = []
        for c in [*fe.constraints, *(c for cl in fe.category_links for c in cl.constraints)]:
            self.constraint_info.setdefault((fe.id, c.id), (fe.id, c))
        for c in fe.constraints:
            got = self._constraint(c, None)
            if got is not None:
                cons.append(got)
        for cl in fe.category_links:
            for c in cl.constraints:
                got = self._constraint(c, self.ids.ours(cl.target_id))
                if got is not None:
                    cons.append(got)
        return ab.ForceEntry(
            id=self.ids.ours(fe.id),
            name=fe.name or fe.id,
            constraints=cons,
            hidden=fe.hidden,
            modifiers=self._modifiers(fe, bs.SelectionEntry()),
        )

    def _children(self, items: list[bs.EntryBase]) -> list[ab.Entry | ab.EntryLink]:
        """:meth:`_child` of each of ``items``, leaving out the links to nothing."""
        return [c for e in items if (c := self._child(e)) is not None]

    def _child(self, e: bs.EntryBase) -> ab.Entry | ab.EntryLink | None:
        """The entry or link ``e`` is; ``None`` for a link whose target no loaded file
        defines (reported as a data problem: the link is left out, never offered)."""
        if isinstance(e, bs.EntryLink):
            target = self.target(e)
            if target is None:
                self.note(f"entry link {e.id} to unknown target {e.target_id}")
                return None
            if isinstance(target, bs.SelectionEntryGroup):
                self.note("entry link to a group at the top of a force")
                return ab.Entry(id=self.ids.ours(e.id), name=e.name or e.id, hidden=True)
            self._link_targets.setdefault(target.id, target)
            return _checked(
                ab.EntryLink,
                link=self.ids.ours(target.id),
                id=self.ids.ours(e.id),
                hidden=e.hidden or None,
                categories=[self.ids.ours(cl.target_id) for cl in e.category_links] or None,
                constraints=self._constraints(e, target.id),
                modifiers=self._modifiers(e, target),
            )
        return self._entry(e)

    def _constraints(self, e: bs.EntryBase, reported_as: str | None = None) -> list[ab.Constraint]:
        out = []
        for c in e.constraints:
            self.constraint_info.setdefault((reported_as or e.id, c.id), (e.id, c))
            got = self._constraint(c, None)
            if got is not None:
                out.append(got)
        return out

    def _entry(self, e: bs.EntryBase) -> ab.Entry:
        """An entry, translated once (the same object wherever it is used)."""
        found: ab.Entry | None = self._memo.get(id(e))
        if found is None:
            found = self._memo[id(e)] = self._translate_entry(e)
        return found

    def _translate_entry(self, e: bs.EntryBase) -> ab.Entry:
        ids = self.ids
        entries: list[ab.Entry | ab.EntryLink] = []
        groups: list[ab.Group] = []
        for child in e.selection_entries:
            entries.append(self._entry(child))
        for link in e.entry_links:
            target = self.target(link)
            if isinstance(target, bs.SelectionEntryGroup):
                if (group := self._group(target, link)) is not None:
                    groups.append(group)
            elif (made := self._child(link)) is not None:
                entries.append(made)
        for g in e.selection_entry_groups:
            if (group := self._group(g, None)) is not None:
                groups.append(group)
        primary = next((cl.target_id for cl in e.category_links if cl.primary), None)
        known, ours = ids.to_ours.get, ids.ours  # (ours is never "")
        # Profiles an info link of this entry hides or shows by a modifier keep their id.
        link_hides = {link.target_id for link in self._own_info_links(e) if _modifies_shown(link)}
        return _checked(
            ab.Entry,
            id=ours(e.id),
            name=e.name or e.id,
            type=e.type
            if isinstance(e, bs.SelectionEntry) and e.type in ("unit", "model", "upgrade")
            else "upgrade",
            hidden=e.hidden,
            categories=[known(cl.target_id) or ours(cl.target_id) for cl in e.category_links],
            primary_category=ours(primary) if primary else None,
            costs=self._costs(e),
            profiles=[self._profile(p) for p in e.profiles if p.type_id in self.profile_types]
            + [
                self._profile(p, p.id in link_hides)
                for p in self._linked(e, bs.Profile)
                if p.type_id in self.profile_types
            ],
            rules=[self._rule(r) for r in [*self._own_rules(e), *self._linked(e, bs.Rule)]],
            constraints=self._constraints(e),
            modifiers=[
                *self._modifiers(e, e),
                *self._info_modifiers(e),
            ],
            entries=entries,
            groups=groups,
        )

    def _info_modifiers(self, e: bs.EntryBase) -> list[ab.Modifier]:
        """The modifiers of an entry's profiles, rules and info links, as the entry's.

        Unlike a group's (:meth:`_read_from_holder`), they are read as the selection's own:
        their scope `parent` is the parent of the selection showing them. The data relies on
        it: an Imperial Knight's Mastery (an upgrade) shows its Aspiring, Esteemed or
        Virtuous ability by the Chivalric Points "in its parent", the Knight holding it
        (``Imperium - Imperial Knights - Library.cat``, eight Masteries, three profiles each;
        read from the Mastery itself, only Aspiring would ever show)."""
        return [
            *(m for p in self._own_profiles(e) for m in self._modifiers(p, e, profile=p.id)),
            *(m for r in self._own_rules(e) for m in self._modifiers(r, e, r.id)),
            *(m for link in self._own_info_links(e) for m in self._link_modifiers(link, e)),
        ]

    def _linked(self, h: bs.InfoHolder, kind: type[Any]) -> list[Any]:
        """The shared profiles or rules an entry's info links show (not hidden)."""
        out = []
        for link in self._own_info_links(h):
            found = self.infos.get(link.target_id)
            if isinstance(found, kind) and not link.hidden:
                out.append(found)
        return out

    def _rule(self, r: bs.Rule) -> str:
        """A rule's id, the rule kept for the system's list of rules (printed on cards)."""
        rid = self.ids.ours(r.id)
        if rid not in self._rules:  # (its text with the data's emphasis marks: ours too)
            self._rules[rid] = ab.Rule(id=rid, name=r.name or r.id, description=r.description)
        return rid

    def _own_rules(self, h: bs.InfoHolder) -> list[bs.Rule]:
        out = list(h.rules)
        for g in h.info_groups:
            out += self._own_rules(g)
        return out

    def _own_info_links(self, h: bs.InfoHolder) -> list[bs.InfoLink]:
        out = list(h.info_links)
        for g in h.info_groups:
            out += self._own_info_links(g)
        return out

    def _own_profiles(self, h: bs.InfoHolder) -> list[bs.Profile]:
        """An entry's profiles and its info groups' (whose modifiers act on the entry)."""
        out = list(h.profiles)
        for g in h.info_groups:
            out += self._own_profiles(g)
        return out

    def _group(self, g: bs.EntryBase, link: bs.EntryLink | None) -> ab.Group | None:
        """The group in our terms, or ``None`` where a count of it is out of bounds (a data
        problem: the group is left out, as an entry with a bad limit is)."""
        key = (id(g), id(link))
        memo = self._group_memo
        if key not in memo:
            memo[key] = self._translate_group(g, link)
        return memo[key]

    def _translate_group(self, g: bs.EntryBase, link: bs.EntryLink | None) -> ab.Group | None:
        lo, hi = 0, None
        limits: dict[str, str] = {}  # our id of a constraint that is the group's min / max
        costs: list[ab.Constraint] = []  # its constraints on a cost of its choices
        for c in [*g.constraints, *(link.constraints if link else [])]:
            if (
                c.field in self.cost_types
                and c.scope == "parent"
                and c.type in ("min", "max")
                and not c.percent_value
            ):
                # "At most 2 build slots among these": the sum of a cost of the choices made
                # in the group under the selection holding it.
                got = self._constraint(c, None)
                if got is not None:
                    costs.append(got)
                    if c.id:
                        limits[f"constraint:{self.ids.ours(c.id)}"] = "cost"
            elif c.field == "selections" and c.scope == "parent":
                limits[f"constraint:{self.ids.ours(c.id)}"] = c.type
                if c.type in ("min", "max") and not _group_count(c.type, c.value):
                    self.value_problem(
                        link if link is not None and c in link.constraints else g,
                        f"has a <constraint> ({c.type} selections) whose value is "
                        f"{c.value!r}, not a whole number from 0 to {MAX_COUNT:,}; the group "
                        "is left out",
                    )
                    return None
                self.group_constraints[(g.id, c.type)] = c
                if c.type == "min":
                    lo = int(c.value)
                elif c.type == "max" and c.value >= 0:
                    hi = int(c.value)
            else:
                self.note(f"group constraint with field {c.field} / scope {c.scope}")
        entries: list[ab.Entry | ab.EntryLink] = [self._entry(c) for c in g.selection_entries]
        subgroups: list[ab.Group] = []
        for sub in g.entry_links:
            target = self.target(sub)
            if isinstance(target, bs.SelectionEntryGroup):
                if (group := self._group(target, sub)) is not None:
                    subgroups.append(group)
            elif (child := self._child(sub)) is not None:
                entries.append(child)
        subgroups += [
            group for s in g.selection_entry_groups if (group := self._group(s, None)) is not None
        ]
        default = g.default_selection_entry_id if isinstance(g, bs.SelectionEntryGroup) else None
        if default == "none":  # BattleScribe writes "none" for no default
            default = None
        if default and not _is_option(g, default):
            # BattleScribe clears a default that is not one of the group's own entries when it
            # loads the data (the suite's ``gamedata-coverage.md``), so nothing is chosen by
            # default: the group is left to the player (its minimum still reported).
            self.note("group default that is not one of its entries (dropped)")
            default = None
        return _checked(
            ab.Group,
            id=self.ids.ours(g.id),
            name=(link.name if link and link.name else g.name) or g.id,
            min=lo,
            max=hi,
            default=self.ids.ours(default) if default else None,
            entries=[self._with_categories(e, g.category_links) for e in entries],
            groups=subgroups,
            hidden=g.hidden or bool(link and link.hidden),
            modifiers=[
                m
                for h in ([g, link] if link is not None else [g])
                for m in self._group_modifiers(h, g, limits)
            ],
            constraints=costs,
        )

    def _group_modifiers(
        self, h: bs.Modifiable, g: bs.EntryBase, limits: dict[str, str]
    ) -> list[ab.Modifier]:
        """The modifiers of a group (or of a link to it) we keep: of its `hidden`, the
        messages it adds, those of the value of its own `min` / `max` constraint (a
        modifier of that constraint's id), which become modifiers of the group's `min` /
        `max`, and those of the value of a constraint on a cost of its choices (kept as
        they are: the build slots a vehicle's link to its options sets)."""
        out: list[ab.Modifier] = []
        for m in self._modifiers(h, g):
            m = self._read_from_holder(m)
            kept = m.field == "hidden" or m.field in OUR_MESSAGE_FIELDS
            if kept or limits.get(m.field) == "cost":
                out.append(m)
            elif limits.get(m.field) in ("min", "max"):
                out.append(m.model_copy(update={"field": limits[m.field]}))
        return out

    def _read_from_holder(self, m: ab.Modifier) -> ab.Modifier:
        """A group's modifier with each query of scope `parent` made one of scope `self`.

        A group stands between the selection holding it and what is chosen in it, so
        BattleScribe counts a group's `parent` in the selection holding the group (as it does
        for a group's own constraints: "at most 1 choice" in scope `parent` is in that
        selection; NewRecruit makes the group a node of the roster whose parent is that
        selection, the suite's ``nr-export-internals.md``). Our engine reads a group's
        modifiers from the selection holding it, where that selection is scope `self`; its
        `parent` would be the selection's own parent (the force, for a unit)."""
        if not _reads_parent(m):
            return m
        found = self._holder_memo.get(id(m))
        if found is None or found[0] is not m:
            update: dict[str, Any] = {
                "conditions": [_query_from_holder(c) for c in m.conditions],
                "groups": [_cgroup_from_holder(g) for g in m.groups],
                "repeats": [_query_from_holder(r) for r in m.repeats],
            }
            if m.repeat is not None:
                update["repeat"] = _query_from_holder(m.repeat)
            found = self._holder_memo[id(m)] = (m, m.model_copy(update=update))
        return found[1]

    def _with_categories(
        self, e: ab.Entry | ab.EntryLink, links: list[bs.CategoryLink]
    ) -> ab.Entry | ab.EntryLink:
        """An entry of a group with the group's categories too (BattleScribe gives a group's
        categories to what is chosen in it)."""
        extra = [self.ids.ours(cl.target_id) for cl in links]
        if not extra:
            return e
        if isinstance(e, ab.Entry):
            cats = [*e.categories, *(c for c in extra if c not in e.categories)]
            return e.model_copy(update={"categories": cats})
        target = self.shared.get(self.ids.bs(e.link))
        have = (
            e.categories
            if e.categories is not None
            else [self.ids.ours(cl.target_id) for cl in (target.category_links if target else [])]
        )
        return e.model_copy(update={"categories": [*have, *(c for c in extra if c not in have)]})

    def _profile(self, p: bs.Profile, linked_hides: bool = False) -> ab.Profile:
        """A profile; one that is hidden, or that a modifier (its own, or its info link's:
        ``linked_hides``) can hide, show or rename, keeps its id and its ``hidden``."""
        known, ours = self.ids.to_ours.get, self.ids.ours  # (ours is never "")
        extra: dict[str, Any] = {}
        if p.hidden or linked_hides or _modifies_shown(p):
            extra = {"id": ours(p.id), "hidden": bool(p.hidden)}
        return self._make(
            ab.Profile,
            type=ours(p.type_id),
            name=p.name,
            characteristics={
                known(c.type_id) or ours(c.type_id): self._scalar(c.value)
                for c in p.characteristics
                if c.type_id
            },
            **extra,
        )

    def _scalar(self, value: str) -> Any:
        """:func:`scalar`, worked out once per different text."""
        found = self._scalars.get(value, _MISSING)
        if found is _MISSING:
            found = self._scalars[value] = scalar(value)
        return found

    # ------------------------------------------------------------------ rules

    def _scope(self, scope: str) -> str | None:
        if scope in SCOPES:
            return scope
        if scope == "primary-catalogue" and len(self.catalogues) <= 1:
            return "roster"  # one catalogue: every selection's primary catalogue is that one
        if scope in TYPE_SCOPES and scope not in self.nodes and scope not in self.shared:
            return TYPE_SCOPES[scope]
        if scope in self.nodes or scope in self.shared:
            return self.ids.ours(scope)
        self.note(f"scope {scope}")
        return None

    def _field(self, fld: str) -> str | None:
        if fld in ("selections", "forces"):
            return fld
        if fld in self.cost_types:
            return self.ids.ours(fld)
        self.note(f"query field {fld}")
        return None

    def _constraint(self, c: bs.Constraint, child: str | None) -> ab.Constraint | None:
        scope, fld = self._scope(c.scope), self._field(c.field)
        if scope is None or fld is None:
            return None
        if c.type not in ("min", "max"):
            return None
        return self._make(
            ab.Constraint,
            id=self.ids.ours(c.id) if c.id else None,
            type=c.type,
            value=c.value,
            field=fld,
            scope=scope,
            child=child,
            deep=c.include_child_selections,
            child_forces=c.include_child_forces,
            percent=c.percent_value,
            per_link=not c.shared,
        )

    def _condition(self, c: bs.Condition) -> ab.Condition | None:
        """A condition in our terms; equal conditions (the 40k data repeats a few hundred
        some twenty thousand times) are translated once."""
        key = _condition_key(c)
        memo = self._cond_memo
        if key in memo:
            return memo[key]
        got = memo[key] = self._translate_condition(c)
        return got

    def _translate_condition(self, c: bs.Condition) -> ab.Condition | None:
        kind = CONDITION_TYPES.get(c.type)
        if kind is None:
            self.note(f"condition type {c.type}")
            return None
        if (
            c.scope == "primary-catalogue"
            and c.child_id
            and c.child_id not in self.nodes
            and c.child_id not in self.shared
            and c.child_id not in self.categories
        ):
            # "the force's catalogue is X": a query of the force's faction.
            return self._make(
                ab.Condition,
                type=kind,
                value=c.value,
                field="selections",
                scope="roster",
                child=f"faction:{self.ids.ours(c.child_id)}",
            )
        scope, fld = self._scope(c.scope), self._field(c.field)
        if scope is None or fld is None:
            return None
        child = None
        if c.child_id:
            child = self._child_ref(c.child_id)
        elif c.scope == "ancestor":
            child = "*"  # how many selections are above
        return self._make(
            ab.Condition,
            type=kind,
            value=c.value,
            field=fld,
            scope=scope,
            child=child,
            deep=c.include_child_selections,
            child_forces=c.include_child_forces,
            percent=c.percent_value,
            per_link=not c.shared,
        )

    def _child_ref(self, child_id: str) -> str:
        if child_id == "any" and child_id not in self.nodes:
            return "*"
        if child_id in ("unit", "model", "upgrade") and child_id not in self.nodes:
            return f"type:{child_id}"
        return self.ids.ours(child_id)

    def _cgroup(self, g: bs.ConditionGroup) -> ab.ConditionGroup | None:
        """A condition group in our terms; equal groups (7,356 in Space Marines and its
        links, 295 different) are translated once."""
        key = _cgroup_key(g)
        memo = self._cgroup_memo
        if key in memo:
            return memo[key]
        got = memo[key] = self._translate_cgroup(g)
        return got

    def _translate_cgroup(self, g: bs.ConditionGroup) -> ab.ConditionGroup | None:
        conds = [self._condition(c) for c in g.conditions]
        groups = [self._cgroup(s) for s in g.condition_groups]
        if any(c is None for c in conds) or any(s is None for s in groups):
            return None
        return self._make(
            ab.ConditionGroup,
            type="or" if g.type == "or" else "and",
            conditions=[c for c in conds if c is not None],
            groups=[s for s in groups if s is not None],
        )

    def _repeat(self, r: bs.Repeat) -> ab.Repeat | None:
        scope, fld = self._scope(r.scope), self._field(r.field)
        if scope is None or fld is None:
            return None
        child = None
        if r.child_id:
            child = self._child_ref(r.child_id)
        return self._make(
            ab.Repeat,
            value=r.value,
            repeats=r.repeats,
            field=fld,
            scope=scope,
            child=child,
            deep=r.include_child_selections,
            child_forces=r.include_child_forces,
            percent=r.percent_value,
            per_link=not r.shared,
            round_up=r.round_up,
        )

    def _category_modifier(
        self,
        m: bs.Modifier,
        conds: list[bs.Condition],
        cgroups: list[bs.ConditionGroup],
        repeats: list[bs.Repeat],
    ) -> ab.Modifier | list[ab.Modifier] | None:
        """``add`` / ``remove`` a category, ``set-primary`` (which adds it too) and
        ``unset-primary``."""
        cat = self.ids.ours(str(m.value))
        plan: list[tuple[str, str, Any]] = {
            "add": [("add", "categories", cat)],
            "remove": [("remove", "categories", cat), ("remove-primary", "", cat)],
            "set-primary": [("add", "categories", cat), ("set", "primary-category", cat)],
            "unset-primary": [("remove-primary", "", cat)],
        }.get(m.type, [])
        if not plan:
            self.note(f"category modifier {m.type}")
            return None
        out: list[ab.Modifier] = []
        for kind, fld, value in plan:
            if kind == "remove-primary":
                # BattleScribe unsets it only where it is the primary category; the engine has
                # no query for "is primary" yet, so it is unset whichever it was.
                kind, fld, value = "set", "primary-category", None
            got = self._modifier(
                bs.Modifier(
                    type=kind,
                    field=f"\0{fld}",
                    value=value,
                    conditions=m.conditions,
                    condition_groups=m.condition_groups,
                    repeats=m.repeats,
                    **{k: v for k, v in (m.model_extra or {}).items() if k in ("scope", "affects")},
                ),
                bs.SelectionEntry(),
                conds,
                cgroups,
                repeats,
            )
            if isinstance(got, ab.Modifier):
                out.append(got)
        return out or None

    def _mod_field(self, fld: str, owner: bs.EntryBase, rule: str | None = None) -> str | None:
        if rule is not None:
            if fld in ("name", "description"):
                return rule_field(self.ids.ours(rule), fld)
            self.note(f"rule modifier field {fld}")
            return None
        if fld in ("name", "hidden", "page"):
            return fld
        if fld in MESSAGE_FIELDS:
            return MESSAGE_FIELDS[fld]
        if fld.startswith("\0"):  # already ours (see _category_modifier)
            return fld[1:]
        if fld in self.cost_types:
            return f"cost:{self.ids.ours(fld)}"
        if fld in self.constraint_ids:
            return f"constraint:{self.ids.ours(fld)}"
        if fld in self.char_types:
            return f"characteristic:{self.ids.ours(fld)}"
        self.note(f"modifier field {fld}")
        return None

    def _link_modifiers(self, link: bs.InfoLink, owner: bs.EntryBase) -> list[ab.Modifier]:
        """An info link's modifiers: of the rule or the profile it shows."""
        target = self.infos.get(link.target_id)
        if isinstance(target, bs.Rule):
            return self._modifiers(link, owner, target.id)
        return self._modifiers(
            link, owner, profile=target.id if isinstance(target, bs.Profile) else None
        )

    def _modifiers(
        self,
        e: bs.Modifiable,
        owner: bs.EntryBase,
        rule: str | None = None,
        profile: str | None = None,
    ) -> list[ab.Modifier]:
        """A BattleScribe object's modifiers (and modifier groups') as the entry's modifiers.
        ``rule``: they are a rule's, changing its name or description; ``profile``: the id
        of the profile they are of, changing its characteristics or whether it is hidden
        (its name... are the profile's own, not kept)."""
        out: list[ab.Modifier] = []

        def add(
            mods: list[bs.Modifier],
            groups: list[bs.ModifierGroup],
            conds: list[bs.Condition],
            cgroups: list[bs.ConditionGroup],
            repeats: list[bs.Repeat],
        ) -> None:
            for m in mods:
                got = self._modifier(m, owner, conds, cgroups, repeats, rule, profile)
                if isinstance(got, list):
                    out.extend(got)
                elif got is not None:
                    out.append(got)
            for g in groups:
                add(
                    g.modifiers,
                    g.modifier_groups,
                    [*conds, *g.conditions],
                    [*cgroups, *g.condition_groups],
                    [*repeats, *g.repeats],
                )

        add(e.modifiers, e.modifier_groups, [], [], [])
        return out

    def _modifier(
        self,
        m: bs.Modifier,
        owner: bs.EntryBase,
        conds: list[bs.Condition],
        cgroups: list[bs.ConditionGroup],
        repeats: list[bs.Repeat],
        rule: str | None = None,
        profile: str | None = None,
    ) -> ab.Modifier | list[ab.Modifier] | None:
        """A modifier in our terms, with the conditions, condition groups and repeats of the
        modifier groups around it; equal modifiers (the same in everything the translation
        reads: :func:`_modifier_key`) are translated once. (What is noted of one is noted the
        first time.) A number the engine would count with that is not finite or is out of
        bounds leaves the modifier out, with a problem naming the element holding it (before
        the memo: each element that holds it is named)."""
        if m.value is not None and (
            m.field in self.cost_types
            or m.field in self.constraint_ids
            or m.type in ("increment", "decrement", "floor", "ceil")
        ):
            num = _num(m.value)
            if num is not None and not -MAX_NUMBER <= num <= MAX_NUMBER:  # (nan is neither)
                self.value_problem(
                    owner,
                    f"has a <modifier> of {m.field} whose value is {m.value!r}, not a finite "
                    f"number within ±{MAX_NUMBER:,}; the modifier is left out",
                )
                return None
        key = _modifier_key(m, conds, cgroups, repeats, rule, profile)
        if key is None:
            return self._translate_modifier(m, owner, conds, cgroups, repeats, rule, profile)
        memo = self._mod_memo
        if key in memo:
            return memo[key]
        got = memo[key] = self._translate_modifier(m, owner, conds, cgroups, repeats, rule, profile)
        return got

    def _translate_modifier(
        self,
        m: bs.Modifier,
        owner: bs.EntryBase,
        conds: list[bs.Condition],
        cgroups: list[bs.ConditionGroup],
        repeats: list[bs.Repeat],
        rule: str | None = None,
        profile: str | None = None,
    ) -> ab.Modifier | list[ab.Modifier] | None:
        extra = m.model_extra or {}
        if profile and m.field not in self.char_types and m.field not in ("hidden", "name"):
            self.note(f"modifier of a profile's {m.field or 'field'}")
            return None
        # What a modifier changes other than its own selection (a modifier's `scope`, and
        # `affects` reaching into what a selection holds): our modifier's scope and reach.
        reach = self._reach(m, rule)
        if reach is None:
            return None
        if m.field == "category" and rule is None:
            return self._category_modifier(m, conds, cgroups, repeats)
        if m.type not in MODIFIER_TYPES and m.type != "replace":
            self.note(f"modifier type {m.type}")
            return None
        position: int | None = None
        if m.type in ("increment", "decrement") and str(extra.get("position", "")).strip():
            try:
                position = int(str(extra["position"]))
            except ValueError:
                self.note(f"modifier position {extra['position']}")
                return None
        find = ""
        if m.type == "replace":
            find = str(extra.get("arg") or "")
            if not find:
                self.note("modifier type replace without the text to replace (arg)")
                return None
        fld = self._mod_field(m.field, owner, rule)
        if fld is None:
            return None
        if profile and fld == "hidden":
            fld = profile_hidden_field(self.ids.ours(profile))
        elif profile and fld == "name":
            fld = profile_name_field(self.ids.ours(profile))
        value: Any = m.value
        if fld == "hidden" or (fld.startswith("profile:") and fld.endswith(":hidden")):
            value = _bool(value)
        elif fld in ("categories", "primary-category"):
            pass
        elif m.field in MESSAGE_FIELDS:
            if m.type != "add" or value is None or not str(value).strip():
                self.note(f"modifier {m.type} of {m.field} (a message is added, with its text)")
                return None
            # NewRecruit's `{this}`: the name of the selection that carries the message.
            value = str(value).replace("{this}", "{name}")
        elif fld not in ("name", "page") and not fld.startswith(
            ("characteristic:", "rule:", "profile:")
        ):
            num = _num(value)
            if num is None or m.type == "replace":
                self.note(f"non-numeric value for {m.field}")
                return None
            value = num
        elif m.type in ("increment", "decrement", "floor", "ceil") and fld.startswith(
            "characteristic:"
        ):
            num = _num(value)
            if num is None:
                self.note(f"non-numeric {m.type} of a characteristic")
                return None
            value = num
        elif m.type in ("floor", "ceil"):
            self.note(f"{m.type} of {m.field}")
            return None
        elif m.type == "replace":
            value = "" if value is None else str(value)
        elif m.type in ("increment", "decrement"):
            # Arithmetic on text is the engine's to refuse (a catalog error), not ours to guess.
            self.note(f"{m.type} on {m.field}")
            return None
        kept: list[bs.Condition] = []
        for c in [*conds, *m.conditions]:
            if (
                c.child_id
                or c.field != "selections"
                or c.type not in CONDITION_TYPES
                or c.scope == "ancestor"
            ):
                kept.append(c)
            elif not _compare(CONDITION_TYPES[c.type], 0.0, c.value):
                return None  # counts nothing, and nothing does not meet it: never applies
        tconds = [self._condition(c) for c in kept]
        tgroups = [self._cgroup(g) for g in [*cgroups, *m.condition_groups]]
        if any(c is None for c in tconds) or any(g is None for g in tgroups):
            return None
        reps = [self._repeat(r) for r in [*repeats, *m.repeats]]
        if any(r is None for r in reps):
            return None
        return self._make(
            ab.Modifier,
            type=m.type,
            field=fld,
            value=value,
            conditions=[c for c in tconds if c is not None],
            groups=[g for g in tgroups if g is not None],
            repeats=[r for r in reps if r is not None],
            separator=str(extra.get("join", " ")) if m.type == "append" else "",
            find=find,
            position=position,
            **reach,
        )

    def _reach(self, m: bs.Modifier, rule: str | None) -> dict[str, Any] | None:
        """A modifier's ``scope`` and ``affects`` as our modifier's ``scope``, ``reach``,
        ``child`` and ``profile_type`` (only those not at their defaults); ``None`` (noted)
        where we have no counterpart.

        ``affects`` is a path from the ``scope`` selection: ``self.`` (optional), then
        ``entries`` (its children) or ``entries.recursive`` (it and everything below it;
        ``entries.forces.recursive``: in its forces too), then an
        optional entry or category id the changed selections must be of, then
        ``profiles.<profile type name>`` (only those profiles' characteristics)."""
        extra = m.model_extra or {}
        where = str(extra.get("scope") or "self")
        affects = str(extra.get("affects") or "")
        if where == "self" and not affects:
            return {}
        out: dict[str, Any] = {}
        if where != "self":
            scope = None if where in ("ancestor", "primary-catalogue") else self._scope(where)
            if scope is None:
                self.note(f"modifier of another selection (scope {where})")
                return None
            out["scope"] = scope
        parts = affects.split(".") if affects else []
        if parts[:1] == ["self"]:
            parts = parts[1:]
        if parts[:1] == ["entries"]:
            parts = parts[1:]
            out["reach"] = "children"
            if parts[:2] == ["forces", "recursive"]:
                parts = parts[1:]  # into the forces below too: every selection below
            if parts[:1] == ["recursive"]:
                # With the selection itself: the data's Save of 2+ for "the bearer's Unit
                # profile" is written `self.entries.recursive.<Character>.profiles.Unit`
                # from the bearer model, which holds that profile itself.
                parts = parts[1:]
                out["reach"] = "subtree"
        if parts and parts[0] not in _AFFECTS_WORDS:
            out["child"] = self._child_ref(parts[0])
            parts = parts[1:]
        if parts[:1] == ["profiles"]:
            name = ".".join(parts[1:])
            if name:
                found = [pt for pt in self.profile_types.values() if name in (pt.name, pt.id)]
                if not found:
                    self.note(f"modifier of profiles of an unknown type ({name})")
                    return None
                out["profile_type"] = self.ids.ours(found[0].id)
            if m.field not in self.char_types:
                # A profile's own name, or text we do not keep (`annotation`).
                self.note(f"modifier of a profile's {m.field or 'field'} (affects profiles)")
                return None
            parts = []
        if parts or (rule is not None and out):
            self.note("modifier of what a selection holds (affects " + _affects_kind(affects) + ")")
            return None
        if out.get("scope") in ("roster", "force") and "reach" not in out:
            self.note(f"modifier of the {out['scope']} itself (scope {where})")
            return None
        return out


_MISSING = object()


def _is_option(g: bs.EntryBase, entry_id: str) -> bool:
    """Whether ``entry_id`` names one of group ``g``'s own entries: an entry of it, or an
    entry link of it (by the link's id or its target's)."""
    return any(e.id == entry_id for e in g.selection_entries) or any(
        entry_id in (link.id, link.target_id) for link in g.entry_links
    )


_Query = TypeVar("_Query", ab.Condition, ab.Repeat)


def _query_from_holder(q: _Query) -> _Query:
    """A query of a group's modifier as read from the selection holding the group
    (:meth:`Translation._read_from_holder`)."""
    return q.model_copy(update={"scope": "self"}) if q.scope == "parent" else q


def _cgroup_from_holder(g: ab.ConditionGroup) -> ab.ConditionGroup:
    return g.model_copy(
        update={
            "conditions": [_query_from_holder(c) for c in g.conditions],
            "groups": [_cgroup_from_holder(s) for s in g.groups],
        }
    )


def _cgroup_reads_parent(g: ab.ConditionGroup) -> bool:
    return any(c.scope == "parent" for c in g.conditions) or any(
        _cgroup_reads_parent(s) for s in g.groups
    )


def _reads_parent(m: ab.Modifier) -> bool:
    """Whether a condition, condition group or repeat of ``m`` queries scope `parent`."""
    return (
        any(c.scope == "parent" for c in m.conditions)
        or any(_cgroup_reads_parent(g) for g in m.groups)
        or (m.repeat is not None and m.repeat.scope == "parent")
        or any(r.scope == "parent" for r in m.repeats)
    )


def _condition_key(c: bs.Condition) -> tuple[Any, ...]:
    """What a condition's translation depends on: two conditions with the same key translate
    alike."""
    return (
        c.type,
        c.value,
        c.field,
        c.scope,
        c.child_id,
        c.shared,
        c.include_child_selections,
        c.include_child_forces,
        c.percent_value,
    )


def _cgroup_key(g: bs.ConditionGroup) -> tuple[Any, ...]:
    """What a condition group's translation depends on (its kind, its conditions' keys and
    its subgroups' keys, in order)."""
    return (
        g.type == "or",
        tuple([_condition_key(c) for c in g.conditions]),
        tuple([_cgroup_key(s) for s in g.condition_groups]),
    )


def _repeat_key(r: bs.Repeat) -> tuple[Any, ...]:
    """What a repeat's translation depends on."""
    return (
        r.value,
        r.repeats,
        r.field,
        r.scope,
        r.child_id,
        r.shared,
        r.round_up,
        r.include_child_selections,
        r.include_child_forces,
        r.percent_value,
    )


def _modifier_key(
    m: bs.Modifier,
    conds: list[bs.Condition],
    cgroups: list[bs.ConditionGroup],
    repeats: list[bs.Repeat],
    rule: str | None,
    profile: str | None,
) -> tuple[Any, ...] | None:
    """What a modifier's translation depends on (its own fields and keys, its conditions,
    condition groups and repeats, those of the groups around it, and whether it is a rule's
    or a profile's; not the entry that holds it), or ``None`` where a value cannot be a key
    (it is then translated on its own). A value is keyed with its class: ``True`` and ``1``
    translate apart."""
    value = m.value
    key = (
        m.type,
        m.field,
        value.__class__,
        value,
        tuple((m.model_extra or {}).items()),
        tuple([_condition_key(c) for c in conds]),
        tuple([_condition_key(c) for c in m.conditions]),
        tuple([_cgroup_key(g) for g in cgroups]),
        tuple([_cgroup_key(g) for g in m.condition_groups]),
        tuple([_repeat_key(r) for r in repeats]),
        tuple([_repeat_key(r) for r in m.repeats]),
        rule,
        profile,
    )
    try:
        hash(key)
    except TypeError:
        return None
    return key


#: The words of an ``affects`` path that are not ids.
_AFFECTS_WORDS = {"self", "entries", "recursive", "profiles", "rules", "forces"}


def _affects_kind(affects: str) -> str:
    """``affects`` with its ids and profile type names left out (one note per kind)."""
    parts = affects.split(".")
    return ".".join(p if p in _AFFECTS_WORDS else "…" for p in parts)


def _modifies_shown(e: bs.Modifiable) -> bool:
    """Whether any modifier of ``e`` (or of its modifier groups) changes ``hidden`` or
    ``name`` (of a profile: whether and as what a card shows it)."""

    def within(mods: list[bs.Modifier], groups: list[bs.ModifierGroup]) -> bool:
        return any(m.field in ("hidden", "name") for m in mods) or any(
            within(g.modifiers, g.modifier_groups) for g in groups
        )

    return within(e.modifiers, e.modifier_groups)


def _tag_of(e: bs.EntryBase) -> str:
    """The element's tag in the data file."""
    if isinstance(e, bs.EntryLink):
        return "entryLink"
    if isinstance(e, bs.SelectionEntryGroup):
        return "selectionEntryGroup"
    return "selectionEntry"


def _unique(entries: Any) -> list[ab.Entry]:
    out: dict[str, ab.Entry] = {}
    for e in entries:
        out.setdefault(e.id, e)
    return list(out.values())


def translate(game_system: dict[str, Any], catalogues: list[dict[str, Any]]) -> Translation:
    """Read the suite's setup shapes and translate them. An element holding a value the model
    refuses is left out, with a line in :attr:`Translation.problems` (see :mod:`.checking`);
    a file whose values cannot be placed at all is read as empty, with its line too."""
    problems: list[str] = []

    def read(cls: type[bs.GameSystem] | type[bs.Catalogue], data: Any, root: str) -> Any:
        if not isinstance(data, dict):
            problems.append(f"<{root}> is not an element; it is left out")
            return cls()
        try:
            model, found = checking.validate(cls, data, root)
        except ValueError as exc:
            problems.append(f"{exc}; the file is left out")
            return cls()
        problems.extend(str(p) for p in found)
        return model

    gs = read(bs.GameSystem, game_system or {}, "gameSystem")
    cats = [read(bs.Catalogue, c, "catalogue") for c in catalogues or []]
    t = Translation(gs, cats, problems=problems)
    t.build()
    return t
