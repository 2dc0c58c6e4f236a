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

Unknown keys are allowed everywhere and kept when the file is saved.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .bounds import MAX_COUNT, Limit
from .catalog import CustomCatalog, Id

FORMAT_VERSION = 1


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


class RosterHeader(BaseModel):
    """The keys that say what a roster is; checked before anything else."""

    model_config = ConfigDict(extra="allow", defer_build=True)

    format: Literal[1] = Field(1, description="Roster file format version.")
    system: Id = Field(description="Game system id, e.g. `demo-wars`.")
    faction: Id | Annotated[list[Id], Field(min_length=1)] = Field(
        description="Faction id (or ids)."
    )
    name: str = Field(description="The roster's name.")
    limits: dict[str, Limit] = Field(
        default_factory=dict, description="Cost limits per cost type id, e.g. `{bp: 500}`."
    )
    force: Id | None = Field(None, description="Force entry id (default: the system's first).")
    notes: str | None = None


class RosterFile(RosterHeader):
    """A whole roster file."""

    custom: CustomCatalog | None = Field(
        None,
        description="Entries this roster defines for itself (units the catalogs lack), in the "
        "catalog entry format; selectable like the faction's own.",
    )
    selections: list[Selection] = Field(default_factory=list)
