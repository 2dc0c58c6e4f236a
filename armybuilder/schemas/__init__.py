"""JSON Schemas of catalog and roster files, generated from the pydantic models.

The generated schemas are committed beside this module (``catalog.schema.json``,
``roster.schema.json``) so editors can use them (``# yaml-language-server: $schema=...``); a
test fails when they drift from the models. Regenerate with ``python -m armybuilder.schemas``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

HERE = Path(__file__).resolve().parent
KINDS = ("catalog", "roster")


def schema(kind: str) -> dict[str, Any]:
    """The JSON Schema for ``catalog`` or ``roster`` files."""
    if kind == "catalog":
        from ..model.catalog import CatalogFile

        data: dict[str, Any] = TypeAdapter(CatalogFile).json_schema()
        title = "armybuilder catalog file"
    elif kind == "roster":
        from ..model.roster import RosterFile

        data = RosterFile.model_json_schema()
        title = "armybuilder roster file"
    else:
        raise ValueError(f"unknown schema kind {kind!r}")
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **data, "title": title}


def schema_json(kind: str) -> str:
    """The schema as committed: indented JSON with a final newline."""
    return json.dumps(schema(kind), indent=2, ensure_ascii=False) + "\n"


def write_all() -> None:
    """Regenerate the committed schema files."""
    from ..fileio import atomic_write

    for kind in KINDS:
        atomic_write(HERE / f"{kind}.schema.json", schema_json(kind))


if __name__ == "__main__":
    write_all()
