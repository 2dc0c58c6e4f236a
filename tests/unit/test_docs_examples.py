"""The YAML examples of docs/catalog-format.md are valid catalog data (issue 16, "docs gain every
new concept, with a small example each").

Every ```yaml block of the page carries a marker on the line before it,
``<!-- fragment: KIND -->``, saying where the fragment sits in a catalog:

* ``system`` / ``catalog``: a system or faction file (``kind``, ``id``, ``name`` and ``system``
  are filled in when the example leaves them out);
* ``entry``: keys of one entry (``id`` and ``name`` filled in when left out);
* ``entries``: a list of entries and links; ``modifiers`` / ``constraints``: a list of those;
* ``none``: not a catalog fragment (a schema comment line, an elided ``[...]``).

Each fragment is validated by the catalog's pydantic models in its place (unknown keys, wrong
types and values out of bounds fail), and each modifier's ``field`` must be one ``check-catalog``
accepts, so an example cannot drift from what the format accepts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError
from ruamel.yaml import YAML

from armybuilder.model.catalog import (
    ChildEntry,
    Constraint,
    Entry,
    FactionFile,
    Modifier,
    SystemFile,
)
from armybuilder.model.plain import MESSAGE_FIELDS

DOC = Path(__file__).resolve().parents[2] / "docs" / "catalog-format.md"
MARKER = re.compile(r"^<!-- fragment: ([a-z]+) -->$")
KINDS = {"system", "catalog", "entry", "entries", "modifiers", "constraints", "none"}
# The modifier fields check-catalog accepts (armybuilder/catalog/checks.py).
PLAIN_FIELDS = {
    "name",
    "hidden",
    "description",
    "categories",
    "primary-category",
    *MESSAGE_FIELDS,
}
NAMED_FIELDS = {"cost", "constraint", "characteristic", "profile"}
# A group's modifiers: of its hidden, its limits, or a message (catalog/checks.py).
GROUP_FIELDS = {"hidden", "min", "max", *MESSAGE_FIELDS}


def load(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)


def yaml_blocks(text: str) -> list[tuple[int, str | None, str]]:
    """(line number, marker kind or None, body) of every ```yaml block."""
    lines = text.splitlines()
    out: list[tuple[int, str | None, str]] = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```yaml":
            prev = lines[i - 1].strip() if i > 0 else ""
            m = MARKER.match(prev)
            indent = len(lines[i]) - len(lines[i].lstrip())
            body: list[str] = []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                body.append(lines[i][indent:])
                i += 1
            out.append((i - len(body), m.group(1) if m else None, "\n".join(body)))
        i += 1
    return out


def validate_fragment(kind: str, data: Any) -> None:
    """Validate ``data`` as a fragment of ``kind`` in its place; raises ValidationError."""
    if kind == "system":
        SystemFile.model_validate({"kind": "system", "id": "doc", "name": "Doc", **data})
    elif kind == "catalog":
        FactionFile.model_validate(
            {"kind": "catalog", "id": "doc", "system": "doc", "name": "Doc", **data}
        )
    elif kind == "entry":
        Entry.model_validate({"id": "doc-example", "name": "Example", **data})
    elif kind == "entries":
        TypeAdapter(list[ChildEntry]).validate_python(data)
    elif kind == "modifiers":
        TypeAdapter(list[Modifier]).validate_python(data)
    elif kind == "constraints":
        TypeAdapter(list[Constraint]).validate_python(data)
    else:  # pragma: no cover - the marker check rejects unknown kinds first
        raise AssertionError(kind)


def modifier_fields(data: Any, kind: str) -> list[str]:
    """Every modifier ``field`` in a fragment (whatever the nesting)."""
    found: list[str] = []
    if kind == "modifiers" and isinstance(data, list):
        found += [m["field"] for m in data if isinstance(m, dict) and "field" in m]
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, value in item.items():
                if key == "modifiers" and isinstance(value, list):
                    # (a group's, marked so: a group's fields are its own)
                    mark = "group/" if item.get("\0group") else ""
                    found += [
                        mark + m["field"] for m in value if isinstance(m, dict) and "field" in m
                    ]
                elif key == "groups" and isinstance(value, list):
                    value = [{**g, "\0group": True} if isinstance(g, dict) else g for g in value]
                stack.append(value)
        elif isinstance(item, list):
            stack.extend(item)
    return found


def field_known(field: str) -> bool:
    if field.startswith("group/"):
        own = field[len("group/") :]
        # (and the value of one of its constraints on a cost: `constraint:<id>`)
        return own in GROUP_FIELDS or (own.startswith("constraint:") and own != "constraint:")
    kind, _, name = field.partition(":")
    return (kind in PLAIN_FIELDS and not name) or (kind in NAMED_FIELDS and bool(name))


BLOCKS = yaml_blocks(DOC.read_text(encoding="utf-8"))


def test_every_yaml_block_is_marked() -> None:
    unmarked = [line for line, kind, _ in BLOCKS if kind not in KINDS]
    assert not unmarked, (
        f"docs/catalog-format.md: the ```yaml blocks at lines {unmarked} need a "
        f"`<!-- fragment: KIND -->` line before them (KIND one of {sorted(KINDS)})"
    )
    # The page shows the concepts of issue 16 by example: far more than a handful of blocks.
    assert sum(1 for _, kind, _ in BLOCKS if kind not in (None, "none")) >= 20


@pytest.mark.parametrize(
    ("line", "kind", "body"),
    [b for b in BLOCKS if b[1] not in (None, "none")],
    ids=[f"line{b[0]}-{b[1]}" for b in BLOCKS if b[1] not in (None, "none")],
)
def test_fragment_is_valid_catalog_data(line: int, kind: str, body: str) -> None:
    data = load(body)
    try:
        validate_fragment(kind, data)
    except ValidationError as exc:
        pytest.fail(f"docs/catalog-format.md:{line}: the {kind} example is not valid:\n{exc}")
    bad = [f for f in modifier_fields(data, kind) if not field_known(f)]
    assert not bad, f"docs/catalog-format.md:{line}: modifier fields check-catalog refuses: {bad}"


@pytest.mark.parametrize(
    ("kind", "body"),
    [
        ("entry", "constraints: [{type: maximum, value: 1}]"),  # not a constraint type
        ("entry", "modifiers: [{type: set, field: name, value: X, condition: []}]"),  # typo
        ("modifiers", "- {type: set, field: name}"),  # no value
        ("entries", "- {link: rifleman, costs: {pts: 1.0e12}}"),  # cost out of bounds
        ("system", "forces: [{id: patrol}]"),  # a force without a name
    ],
)
def test_a_wrong_example_is_caught(kind: str, body: str) -> None:
    with pytest.raises(ValidationError):
        validate_fragment(kind, load(body))


def test_an_unknown_modifier_field_is_caught() -> None:
    data = load("modifiers: [{type: set, field: colour, value: red}]")
    validate_fragment("entry", data)
    assert [f for f in modifier_fields(data, "entry") if not field_known(f)] == ["colour"]


def test_the_whole_file_examples_pass_check_catalog(tmp_path: Path) -> None:
    """The system file and the faction file of the page, put side by side as a catalog folder,
    pass every check of `armybuilder check-catalog` (references, ids, modifier fields)."""
    from armybuilder.catalog.lint import check_paths

    files = {
        kind: body for _, kind, body in BLOCKS if kind in ("system", "catalog") and "kind:" in body
    }
    assert set(files) == {"system", "catalog"}
    folder = tmp_path / "demo-wars"
    folder.mkdir()
    (folder / "system.yaml").write_text(files["system"], encoding="utf-8")
    (folder / "red-army.yaml").write_text(files["catalog"], encoding="utf-8")
    assert check_paths([folder]) == []
    # ...and the check does look: a typo in a category is reported.
    (folder / "red-army.yaml").write_text(
        files["catalog"].replace("categories: [troops]", "categories: [troop]"), encoding="utf-8"
    )
    assert any("troop" in p.message for p in check_paths([folder]))
