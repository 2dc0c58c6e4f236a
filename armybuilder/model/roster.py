"""Pydantic models of roster files (used for the JSON Schema and to check the header).

A roster is a hand-editable YAML file::

    format: 1
    system: demo-wars
    faction: red-army
    name: Border patrol
    limits: {pts: 500}          # optional cost limits, per cost type
    selections:
      - entry: squad            # an entry id of the faction's catalog
        name: 1st Squad         # optional custom name
        experience: regular     # optional, where the entry records experience
        selections: [...]       # children

A roster of several forces says ``format: 2`` and holds its selections in a top-level
``forces:`` list instead (see :class:`Force`)::

    format: 2
    system: demo-wars
    faction: red-army           # the roster's main faction (a force's default)
    name: Border patrol
    forces:
      - force: patrol           # a force entry id of the game system
        faction: red-army       # optional: the roster's faction when left out
        name: North group       # optional
        selections: [...]
        forces: [...]           # forces inside this one

Unknown keys are allowed everywhere and kept when the file is saved.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .bounds import MAX_COUNT
from .catalog import CustomCatalog, Id
from .fields import Limit
from .header import FORCES_FORMAT as FORCES_FORMAT
from .header import FORMAT_VERSION as FORMAT_VERSION
from .header import _fast_header as _fast_header
from .header import read_header as read_header


class Selection(BaseModel):
    """One chosen entry, with its children."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    entry: str = Field(description="Id of the catalog entry this selection is of.")
    count: int = Field(
        1, ge=1, le=MAX_COUNT, description="How many identical copies (e.g. 4 squads, 7 troopers)."
    )
    name: str | None = Field(None, description="A custom name, e.g. '1st Squad'.")
    experience: str | None = Field(None, description="Experience level id, where it applies.")
    notes: str | None = None
    state: dict[str, Any] | None = Field(
        None,
        description="Campaign state (wounds, spent ammunition, actions fought...); its keys "
        "are defined by the game system.",
    )
    selections: list[Selection] = Field(default_factory=list)


class Force(BaseModel):
    """One force of a roster of several forces: a force entry of the game system taken for
    a faction, with its selections and the forces inside it."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    force: Id = Field(description="Id of the game system's force entry this force is of.")
    faction: Id | None = Field(
        None, description="Faction id whose catalog this force draws on (default: the roster's)."
    )
    name: str | None = Field(None, description="A custom name, e.g. 'Vanguard'.")
    notes: str | None = None
    selections: list[Selection] = Field(default_factory=list)
    forces: list[Force] = Field(
        default_factory=list, description="Forces inside this one (child forces)."
    )


class RosterHeader(BaseModel):
    """The keys that say what a roster is; checked before anything else."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    format: Literal[1, 2] = Field(
        1,
        description="Roster file format version: 1 for a roster of one force (top-level "
        "`selections`), 2 for a roster of several forces (top-level `forces`).",
    )
    system: Id = Field(description="Game system id, e.g. `demo-wars`.")
    faction: Id | Annotated[list[Id], Field(min_length=1)] = Field(
        description="Faction id (or ids)."
    )
    name: str = Field(description="The roster's name.")
    limits: dict[str, Limit] = Field(
        default_factory=dict, description="Cost limits per cost type id, e.g. `{bp: 500}`."
    )
    force: Id | None = Field(
        None,
        description="Format 1: the force entry id (default: the system's first). Format 2 "
        "names it per force.",
    )
    notes: str | None = None


_FORMS: dict[str, Any] = {
    "if": {"properties": {"format": {"const": FORCES_FORMAT}}, "required": ["format"]},
    "then": {"required": ["forces"], "not": {"required": ["selections"]}},
    "else": {"not": {"required": ["forces"]}},
}


class RosterFile(RosterHeader):
    """A whole roster file: format 1 (``selections``) or format 2 (``forces``), never both."""

    model_config = ConfigDict(extra="allow", json_schema_extra=_FORMS)

    custom: CustomCatalog | None = Field(
        None,
        description="Entries this roster defines for itself (units the catalogs lack), in the "
        "catalog entry format; selectable like the faction's own.",
    )
    selections: list[Selection] = Field(
        default_factory=list, description="Format 1: the roster's selections."
    )
    forces: list[Force] | None = Field(
        None, description="Format 2 (and only there): the roster's forces, in order."
    )

    @model_validator(mode="after")
    def _one_form(self) -> RosterFile:
        if self.format == FORCES_FORMAT:
            if self.forces is None:
                raise ValueError("a format 2 roster holds its selections in `forces:`")
            if "selections" in self.model_fields_set:
                raise ValueError(
                    "a format 2 roster has no top-level `selections:`; each force holds its own"
                )
        elif self.forces is not None:
            raise ValueError("`forces:` needs `format: 2`")
        return self
