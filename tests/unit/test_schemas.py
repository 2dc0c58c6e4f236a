"""The committed JSON Schemas match the models, and every shipped file matches its schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter
from ruamel.yaml import YAML

from armybuilder.cli import main
from armybuilder.model.catalog import CatalogFile
from armybuilder.model.roster import RosterFile
from armybuilder.paths import bundled_dir
from armybuilder.schemas import HERE, KINDS, schema_json


@pytest.mark.parametrize("kind", KINDS)
def test_committed_schema_has_not_drifted(kind: str) -> None:
    committed = (HERE / f"{kind}.schema.json").read_text(encoding="utf-8")
    assert committed == schema_json(kind), (
        f"{kind}.schema.json is out of date: run `python -m armybuilder.schemas`"
    )


@pytest.mark.parametrize("kind", KINDS)
def test_schema_command(kind: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", kind]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["title"] == f"armybuilder {kind} file"
    assert out == json.loads(schema_json(kind))


REPO = Path(__file__).resolve().parents[2]


def _yaml_files(folder: str) -> list[Path]:
    return sorted(bundled_dir(folder).rglob("*.yaml"))


def _schema_line_target(path: Path, folder: str) -> Path:
    """Where a file's schema line points, read as the file sits in the source tree."""
    first = path.read_text(encoding="utf-8").splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    source = REPO / folder / path.relative_to(bundled_dir(folder))
    return (source.parent / first.split("$schema=")[1]).resolve()


@pytest.mark.parametrize("path", _yaml_files("catalogs"), ids=lambda p: p.name)
def test_catalogs_match_schema(path: Path) -> None:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    TypeAdapter(CatalogFile).validate_python(data)
    target = _schema_line_target(path, "catalogs")
    assert target == REPO / "armybuilder" / "schemas" / "catalog.schema.json"


@pytest.mark.parametrize("path", _yaml_files("examples"), ids=lambda p: p.name)
def test_examples_match_schema(path: Path) -> None:
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    RosterFile.model_validate(data)
    target = _schema_line_target(path, "examples")
    assert target == REPO / "armybuilder" / "schemas" / "roster.schema.json"
