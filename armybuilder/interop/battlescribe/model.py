"""BattleScribe's data model, as the conformance suite writes it (camelCase, original ids).

Lossless: every model keeps the keys it does not name (``extra="allow"``), so nothing a spec or
a data file says is dropped on the way in. Only the shapes the translation reads are named
here; see ``docs/battlescribe.md`` for how each maps onto the armybuilder catalog model.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator
from pydantic.alias_generators import to_camel

from ...model.bounds import MAX_COST, MAX_LIMIT, MAX_NUMBER

#: The numbers a data file holds, bounded as our own catalogs bound them (a value out of
#: these, or not finite, is a data problem: see :mod:`.checking`).
Cost = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_COST, le=MAX_COST)]
Limit = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_LIMIT, le=MAX_LIMIT)]
Number = Annotated[float, Field(allow_inf_nan=False, ge=-MAX_NUMBER, le=MAX_NUMBER)]
WholeNumber = Annotated[int, Field(ge=-MAX_NUMBER, le=MAX_NUMBER)]


class _BS(BaseModel):
    model_config = ConfigDict(extra="allow", alias_generator=to_camel, populate_by_name=True)


class CostValue(_BS):
    name: str = ""
    type_id: str
    value: Cost = 0.0


class CostType(_BS):
    id: str
    name: str = ""
    default_cost_limit: Limit = -1.0
    hidden: bool = False


class CharacteristicType(_BS):
    id: str
    name: str = ""


class ProfileType(_BS):
    id: str
    name: str = ""
    characteristic_types: list[CharacteristicType] = Field(default_factory=list)


class Query(_BS):
    """What conditions, constraints and repeats share: a count or a sum within a scope."""

    value: Number = 0.0
    field: str = "selections"
    scope: str = "parent"
    child_id: str | None = None
    shared: bool = False
    include_child_selections: bool = False
    include_child_forces: bool = False
    percent_value: bool = False

    @field_validator("value", mode="before")
    @classmethod
    def _num(cls, v: Any) -> Any:
        return float(v) if isinstance(v, str) else v


class Condition(Query):
    type: str = "atLeast"


class ConditionGroup(_BS):
    type: str = "and"
    conditions: list[Condition] = Field(default_factory=list)
    condition_groups: list[ConditionGroup] = Field(default_factory=list)


class Repeat(Query):
    repeats: WholeNumber = 1
    round_up: bool = False
    value: Number = 1.0


class Constraint(Query):
    id: str = ""
    type: Literal["min", "max"] = "max"


class Modifier(_BS):
    type: str = "set"
    field: str = ""
    value: Any = None
    conditions: list[Condition] = Field(default_factory=list)
    condition_groups: list[ConditionGroup] = Field(default_factory=list)
    repeats: list[Repeat] = Field(default_factory=list)


class ModifierGroup(_BS):
    type: str = "and"
    conditions: list[Condition] = Field(default_factory=list)
    condition_groups: list[ConditionGroup] = Field(default_factory=list)
    repeats: list[Repeat] = Field(default_factory=list)
    modifiers: list[Modifier] = Field(default_factory=list)
    modifier_groups: list[ModifierGroup] = Field(default_factory=list)


class Characteristic(_BS):
    name: str = ""
    type_id: str = ""
    value: Any = ""


class Modifiable(_BS):
    modifiers: list[Modifier] = Field(default_factory=list)
    modifier_groups: list[ModifierGroup] = Field(default_factory=list)


class Rule(Modifiable):
    id: str = ""
    name: str = ""
    description: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None


class Profile(Modifiable):
    id: str = ""
    name: str = ""
    type_id: str = ""
    type_name: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    characteristics: list[Characteristic] = Field(default_factory=list)


class InfoLink(Modifiable):
    id: str = ""
    name: str = ""
    target_id: str = ""
    type: str = "rule"
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None


class InfoHolder(Modifiable):
    profiles: list[Profile] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    info_groups: list[InfoGroup] = Field(default_factory=list)
    info_links: list[InfoLink] = Field(default_factory=list)


class InfoGroup(InfoHolder):
    id: str = ""
    name: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None


class CategoryLink(InfoHolder):
    id: str = ""
    target_id: str = ""
    name: str = ""
    primary: bool = False
    hidden: bool = False
    constraints: list[Constraint] = Field(default_factory=list)


class CategoryEntry(InfoHolder):
    id: str
    name: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    constraints: list[Constraint] = Field(default_factory=list)


class ForceEntry(InfoHolder):
    id: str
    name: str = ""
    hidden: bool = False
    page: str | None = None
    publication_id: str | None = None
    constraints: list[Constraint] = Field(default_factory=list)
    category_links: list[CategoryLink] = Field(default_factory=list)
    force_entries: list[ForceEntry] = Field(default_factory=list)


class EntryBase(InfoHolder):
    """What selection entries, groups and links share."""

    id: str = ""
    name: str = ""
    hidden: bool = False
    collective: bool = False
    import_: bool = Field(True, alias="import")
    page: str | None = None
    publication_id: str | None = None
    costs: list[CostValue] = Field(default_factory=list)
    constraints: list[Constraint] = Field(default_factory=list)
    selection_entries: list[SelectionEntry] = Field(default_factory=list)
    selection_entry_groups: list[SelectionEntryGroup] = Field(default_factory=list)
    entry_links: list[EntryLink] = Field(default_factory=list)
    category_links: list[CategoryLink] = Field(default_factory=list)


class SelectionEntry(EntryBase):
    type: Literal["unit", "model", "upgrade"] = "upgrade"


class SelectionEntryGroup(EntryBase):
    default_selection_entry_id: str | None = None


class EntryLink(EntryBase):
    target_id: str = ""
    type: Literal["selectionEntry", "selectionEntryGroup"] = "selectionEntry"


class Publication(_BS):
    id: str
    name: str = ""


class DataFile(_BS):
    """What a game system and a catalogue share."""

    id: str = ""
    name: str = ""
    cost_types: list[CostType] = Field(default_factory=list)
    profile_types: list[ProfileType] = Field(default_factory=list)
    category_entries: list[CategoryEntry] = Field(default_factory=list)
    force_entries: list[ForceEntry] = Field(default_factory=list)
    publications: list[Publication] = Field(default_factory=list)
    selection_entries: list[SelectionEntry] = Field(default_factory=list)
    entry_links: list[EntryLink] = Field(default_factory=list)
    shared_selection_entries: list[SelectionEntry] = Field(default_factory=list)
    shared_selection_entry_groups: list[SelectionEntryGroup] = Field(default_factory=list)
    shared_rules: list[Rule] = Field(default_factory=list)
    shared_profiles: list[Profile] = Field(default_factory=list)
    shared_info_groups: list[InfoGroup] = Field(default_factory=list)
    rules: list[Rule] = Field(default_factory=list)
    info_links: list[InfoLink] = Field(default_factory=list)


class GameSystem(DataFile):
    id: str = "gs"
    name: str = "Game System"


class CatalogueLink(_BS):
    id: str = ""
    target_id: str = ""
    import_root_entries: bool = False


class Catalogue(DataFile):
    id: str = "cat"
    name: str = "Catalogue"
    game_system_id: str = ""
    library: bool = False
    catalogue_links: list[CatalogueLink] = Field(default_factory=list)


for _m in list(globals().values()):
    if isinstance(_m, type) and issubclass(_m, BaseModel) and _m is not BaseModel:
        _m.model_rebuild()
