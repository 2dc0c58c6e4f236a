"""Pydantic models of catalog files.

The concepts follow the BattleScribe data model (see ``docs/catalog-format.md``):

* a **system file** (``kind: system``) defines a game system: cost types, profile types (the
  columns of a stat line), categories, forces, experience levels, rules, and entries shared by
  every faction;
* a **faction file** (``kind: catalog``) defines one faction: the entries a roster of that
  faction may hold at its top level, and shared entries of its own.

An **entry** is a unit, a model or an upgrade. It has costs, profiles, categories, rule
references, constraints, modifiers, child entries and **groups** (choices among children with
a minimum, a maximum and a default). A child may be a **link** to a shared entry.
**Constraints** bound how many selections of an entry (or of a category) a scope may hold, or
the cost of a scope. **Modifiers** change a cost, a name, a characteristic or a constraint's
value when their **conditions** hold.

Every model forbids unknown keys, so that a typo in a catalog is reported with its line
rather than silently ignored. The free-form ``data`` mapping is for values a system module
reads (it is not checked by the core).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Discriminator, Field, Tag, model_validator

from .bounds import MAX_COUNT, MAX_REPEATS
from .fields import Cost, Count, Limit, Number, WholeNumber

Id = Annotated[
    str,
    Field(
        pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
        description="A stable kebab-case identifier (lowercase letters, digits and hyphens).",
    ),
]
Scalar = str | WholeNumber | Number | bool | None
Severity = Literal["error", "warning"]

QueryScope = Annotated[
    str,
    Field(
        description=(
            "Where to count: `self` (the selection itself), `parent`, `roster`, `force`, "
            "`ancestor` (every selection above), `top` (the top-level selection holding it), "
            "`type:<entry type>` (the nearest enclosing selection of that type; several "
            "joined by `|`, e.g. `type:model|unit`), or the id of an entry: the nearest "
            "enclosing selection of that entry."
        )
    ),
]


class _Model(BaseModel):
    # defer_build: the validators are built when first used, not at import; a command that
    # finds the catalogs in the library cache (armybuilder/libcache.py) never needs them.
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, defer_build=True)


class CostType(_Model):
    """A kind of cost (points, build points, mass...). Roster totals are kept per cost type."""

    id: Id
    name: str
    unit: str = Field("", description="Unit shown after values, e.g. `kg` or `pts`.")
    default_limit: Limit | None = Field(None, description="Limit used when a roster sets none.")
    hidden: bool = False


class Characteristic(_Model):
    """One column of a profile type."""

    id: Id
    name: str
    description: str = ""


class ProfileType(_Model):
    """The columns of a stat line (e.g. a weapon's DV, range, encumbrance...)."""

    id: Id
    name: str
    characteristics: list[Characteristic]


class Category(_Model):
    """A role or keyword (HQ, squad, heavy weapon...)."""

    id: Id
    name: str
    description: str = ""
    source: str = ""


class Rule(_Model):
    """A rule an entry may refer to; the description is written in our own words."""

    id: Id
    name: str
    description: str = ""
    source: str = ""


class Profile(_Model):
    """A stat line: a value per characteristic of its profile type."""

    type: Id
    name: str = Field("", description="Defaults to the entry's name.")
    characteristics: dict[str, Scalar]
    id: Id | None = Field(
        None,
        description="Names the profile for the entry's modifiers of "
        "`profile:<id>:hidden` (a stat line shown only when their conditions hold).",
    )
    hidden: bool = Field(
        False, description="Not shown (printed or listed) unless a modifier shows it."
    )


class Condition(_Model):
    """A query compared with a value; modifiers apply only when their conditions hold.

    ``field`` is `selections` (a count), `forces` (a count of forces, in a roster of several)
    or a cost type id (a sum of costs). ``child`` narrows what is counted: an entry id, a
    category id, a group id, `type:unit` / `type:model` / `type:upgrade` (every entry of
    that type) or `*` (anything); when omitted, the entry that owns the modifier is counted.
    ``deep`` counts every descendant, not only children.
    """

    type: Literal[
        "less-than",
        "greater-than",
        "equal-to",
        "not-equal-to",
        "at-least",
        "at-most",
        "instance-of",
        "not-instance-of",
    ]
    value: Number = 0
    field: str = "selections"
    scope: QueryScope = "self"
    child: str | None = None
    deep: bool = True
    child_forces: bool = Field(
        False,
        description="In a roster of several forces: a force's count includes the forces inside it.",
    )
    percent: bool = Field(
        False,
        description="Compare a percentage: the count (or cost) as a share of everything's in "
        "the scope.",
    )
    per_link: bool = Field(
        False,
        description="Count selections made through a link as that link's (by its id), not as "
        "their entry's.",
    )


class ConditionGroup(_Model):
    """Conditions combined with `and` / `or`; groups nest."""

    type: Literal["and", "or"] = "and"
    conditions: list[Condition] = Field(default_factory=list)
    groups: list[ConditionGroup] = Field(default_factory=list)


class Repeat(_Model):
    """Apply a modifier floor(query / value) x repeats times (rounded up if asked)."""

    value: Number = 1
    repeats: int = Field(1, ge=0, le=MAX_REPEATS)
    field: str = "selections"
    scope: QueryScope = "self"
    child: str | None = None
    deep: bool = True
    child_forces: bool = False
    percent: bool = False
    per_link: bool = False
    round_up: bool = False


class Modifier(_Model):
    """Changes a field of its entry when its conditions hold.

    ``field`` is one of: `name`, `hidden`, `cost:<cost type>`, `constraint:<constraint id>`,
    `characteristic:<characteristic id>`, `profile:<profile id>:hidden` (`set` to true or
    false: that profile is not shown, or is), `categories` (with `add` / `remove` of a
    category id), `primary-category` (`set` to a category id, or to nothing), `error` / `warning` /
    `note` (`add` a message the selection then carries as an issue of that severity; `{name}`
    in it is the selection's name). `floor` and `ceil` keep a
    number at least / at most the value (a characteristic such as `12"` or `3+` by its
    number); `replace` changes the text ``find`` into the value. Modifiers apply in the
    order listed. A modifier repeats ``repeat`` times, or the sum of its ``repeats``.
    ``scope``, ``reach`` and ``child`` make it change other selections than its own (those
    below it, or below an enclosing one); its conditions are still read from its own.
    """

    type: Literal[
        "set", "increment", "decrement", "append", "add", "remove", "floor", "ceil", "replace"
    ]
    field: str
    value: Scalar
    find: str = Field(
        "",
        description="`replace`: the text to find (every occurrence becomes the value).",
    )
    conditions: list[Condition] = Field(default_factory=list)
    groups: list[ConditionGroup] = Field(default_factory=list)
    repeat: Repeat | None = None
    repeats: list[Repeat] = Field(
        default_factory=list, description="Several repeats; the modifier applies their sum."
    )
    separator: str = Field(
        "", description="What `append` puts between the text and the value (e.g. a space)."
    )
    position: int | None = Field(
        None,
        description="`increment` / `decrement` of a text: which number in it changes (0 "
        "the first, -1 the last), e.g. `D6+1` -> `D6+2` with -1.",
    )
    scope: QueryScope = Field(
        "self",
        description="The selection the modifier works from: `self` (its own), `parent`, "
        "`top`, `type:<entry type>` or an entry id (the nearest enclosing one), `force`, "
        "`roster`. Its conditions are still read from its own selection.",
    )
    reach: Literal["self", "children", "descendants", "subtree"] = Field(
        "self",
        description="What it changes, from `scope`: that selection (`self`), the selections "
        "directly in it (`children`), every selection below it (`descendants`), or it and "
        "every selection below it (`subtree`).",
    )
    child: str | None = Field(
        None,
        description="With `reach`: only the selections of this entry, category, group or "
        "`type:<entry type>` (a category as the modifiers listed before it left it).",
    )
    profile_type: Id | None = Field(
        None, description="Of a characteristic: only in the profiles of this profile type."
    )
    source: str = ""


class Constraint(_Model):
    """A minimum or a maximum on a count or a cost within a scope.

    Declared on an entry, it bounds the selections of that entry (or, with ``child``, of the
    entries / category / group named) within ``scope``: `parent` counts the siblings under one
    parent selection, `self` counts inside each selection of the entry, `roster` / `force`
    the whole roster, an entry id the nearest enclosing selection of that entry. With scope
    `self` and no ``child``, the selection itself is measured (its cost, or everything in it).
    Several constraints may share an ``id`` so one modifier changes them together.
    """

    id: Id | None = None
    type: Literal["min", "max"]
    value: Number
    field: str = "selections"
    scope: QueryScope = "parent"
    child: str | None = None
    deep: bool | None = Field(
        None,
        description="Count all descendants, not only children (default: yes, except for "
        "scope `parent`, which counts siblings).",
    )
    child_forces: bool = Field(
        False,
        description="In a roster of several forces: a force's count includes the forces inside it.",
    )
    percent: bool = Field(
        False,
        description="Compare a percentage: the count (or cost) as a share of everything's in "
        "the scope.",
    )
    per_link: bool = Field(
        False,
        description="Count selections made through a link as that link's (by its id), not as "
        "their entry's.",
    )
    severity: Severity = "error"
    message: str = Field("", description="Optional wording for the issue, in players' terms.")
    source: str = ""


class CategorySlot(_Model):
    """How many selections of a category a force holds."""

    category: Id
    min: Count = 0
    max: Count | None = None
    severity: Severity = "error"
    source: str = ""


class ForceEntry(_Model):
    """What a roster is made of (a platoon, a boarding party, a formation)."""

    id: Id
    name: str
    description: str = ""
    slots: list[CategorySlot] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    hidden: bool = False
    modifiers: list[Modifier] = Field(
        default_factory=list,
        description="Modifiers of the force (its `hidden`), in a roster of several forces.",
    )
    source: str = ""


class ExperienceLevel(_Model):
    """An experience level; ``data`` holds its system-specific figures."""

    id: Id
    name: str
    description: str = ""
    data: dict[str, Any] = Field(default_factory=dict)
    source: str = ""


class EntryLink(_Model):
    """A reference to a shared entry, with optional overrides merged over the target."""

    link: Id = Field(description="Id of a shared entry (of the system or of this faction).")
    id: Id | None = Field(
        None,
        description="The link's own id: a roster may select it by this id, and queries with "
        "`per_link` count its selections apart from the entry's other links.",
    )
    name: str | None = None
    hidden: bool | None = None
    costs: dict[str, Cost] | None = None
    categories: list[Id] | None = None
    constraints: list[Constraint] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)


def _entry_or_link(value: Any) -> str:
    if isinstance(value, dict) and "link" in value:
        return "link"
    if isinstance(value, EntryLink):
        return "link"
    return "entry"


ChildEntry = Annotated[
    Annotated["Entry", Tag("entry")] | Annotated[EntryLink, Tag("link")],
    Discriminator(_entry_or_link),
]


class Group(_Model):
    """A choice among child entries (not itself a node in the roster)."""

    id: Id
    name: str
    min: Count = 0
    max: Count | None = None
    default: Id | None = Field(None, description="Entry added when the parent is added.")
    default_count: int = Field(
        1,
        ge=1,
        le=MAX_COUNT,
        description="How many of the default entry come with the parent (e.g. 2 for "
        "a pair of weapons).",
    )
    entries: list[ChildEntry] = Field(default_factory=list)
    groups: list[Group] = Field(default_factory=list)
    severity: Severity = "error"
    description: str = ""
    source: str = ""
    hidden: bool = Field(
        False, description="A hidden group's minimum is not checked (nothing can be chosen)."
    )
    modifiers: list[Modifier] = Field(
        default_factory=list,
        description="Modifiers of the group's `hidden` (e.g. hidden unless the force holds "
        "X), of its `min` and `max` (e.g. one more choice where the unit has ten models; a "
        "negative maximum is no limit), of the value of one of its `constraints` "
        "(`constraint:<id>`: two build slots on this vehicle), or messages it adds (`error`, "
        "`warning`, `note`).",
    )
    constraints: list[Constraint] = Field(
        default_factory=list,
        description="Limits on a cost of what is chosen in the group (its subgroups included) "
        "under one selection holding it: `field` a cost type, `scope: parent`, e.g. at most 2 "
        "build slots among a vehicle's options. A negative value is no limit.",
    )


class StandardSelection(_Model):
    """One part of an entry's standard make-up: what a selection of it holds at its standard
    strength and loadout (a squad or formation as the rules field it).

    It is written like a selection of a roster file: the entry's id, how many, an optional
    name, and optionally its own ``selections`` (its loadout)."""

    entry: Id = Field(description="Id of one of the parent entry's options.")
    count: int = Field(
        1,
        ge=1,
        le=MAX_COUNT,
        description="How many. A unit with a count above 1 (and no name) becomes that many "
        "selections, named in series: 1st Squad, 2nd Squad...",
    )
    name: str | None = Field(None, description="A custom name for the selection.")
    selections: list[StandardSelection] | None = Field(
        None,
        description="This selection's own loadout. An entry listed here takes the place of "
        "the default of the group it belongs to (a heavy flamer instead of the storm bolter); "
        "groups it does not touch keep their defaults. Without it, the entry's own `standard` "
        "applies.",
    )


class Entry(_Model):
    """A unit, a model or an upgrade."""

    id: Id
    name: str
    type: Literal["unit", "model", "upgrade"] = "upgrade"
    description: str = ""
    source: str = ""
    hidden: bool = False
    categories: list[Id] = Field(default_factory=list)
    primary_category: Id | None = None
    costs: dict[str, Cost] = Field(default_factory=dict)
    profiles: list[Profile] = Field(default_factory=list)
    rules: list[Id] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    entries: list[ChildEntry] = Field(default_factory=list)
    groups: list[Group] = Field(default_factory=list)
    experience: bool = Field(False, description="Whether a selection of it records experience.")
    max_count: Count | None = Field(
        None, description="Largest `count` one selection may carry (default: no limit)."
    )
    standard: list[StandardSelection] = Field(
        default_factory=list,
        description="What a selection of it holds at standard strength and loadout (its "
        "sub-formations, figures and their equipment), added in one step by the builder's "
        "'Add standard'. Groups whose defaults it does not replace keep them.",
    )
    data: dict[str, Any] = Field(default_factory=dict)


class SystemFile(_Model):
    """A game system: ``catalogs/<system>/system.yaml``."""

    kind: Literal["system"]
    id: Id
    name: str
    version: str = "1"
    description: str = ""
    source: str = ""
    module: str | None = Field(
        None,
        description="Rules module with the system's own checks and computed values "
        "(a module in armybuilder.rules.systems, or a dotted path).",
    )
    cost_types: list[CostType] = Field(default_factory=list)
    profile_types: list[ProfileType] = Field(default_factory=list)
    categories: list[Category] = Field(default_factory=list)
    forces: list[ForceEntry] = Field(default_factory=list)
    experience: list[ExperienceLevel] = Field(default_factory=list)
    default_experience: Id | None = None
    rules: list[Rule] = Field(default_factory=list)
    entries: list[ChildEntry] = Field(
        default_factory=list, description="Top-level entries every faction may use."
    )
    shared_entries: list[Entry] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _default_experience_known(self) -> SystemFile:
        if self.default_experience and self.default_experience not in {
            e.id for e in self.experience
        }:
            raise ValueError(
                f"default_experience {self.default_experience!r} is not one of the experience "
                "levels"
            )
        return self


class FactionFile(_Model):
    """A faction of a game system: ``catalogs/<system>/<faction>.yaml``."""

    kind: Literal["catalog"]
    id: Id
    system: Id
    name: str
    extends: Id | None = Field(
        None,
        description="Id of a faction of the same system that this file adds to (e.g. your own "
        "army book's units for a bundled faction). Its entries join that faction's.",
    )
    version: str = "1"
    description: str = ""
    source: str = ""
    categories: list[Category] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    entries: list[ChildEntry] = Field(
        default_factory=list, description="What a roster of this faction may hold at its top."
    )
    shared_entries: list[Entry] = Field(default_factory=list)
    data: dict[str, Any] = Field(default_factory=dict)


class CustomCatalog(_Model):
    """Entries a roster defines for itself (its ``custom:`` key), used like catalog entries.

    For units the catalogs do not have: a player's own army-book units, written once in the
    roster that uses them. The same format as a faction file's lists.
    """

    categories: list[Category] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    entries: list[ChildEntry] = Field(
        default_factory=list, description="Entries the roster may select at its top level."
    )
    shared_entries: list[Entry] = Field(default_factory=list)


CatalogFile = Annotated[SystemFile | FactionFile, Discriminator("kind")]
