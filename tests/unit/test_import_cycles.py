"""The core's shape, enforced: rooms that depend on each other in one direction only.

Every module of ``armybuilder`` belongs to a room, and the rooms stand in a line (README,
"Reading map")::

    base <- model <- plugin <- catalog, rosters <- engine <- rules/systems <- interop
         <- session, render <- tui, cli

A module may import from its own room and from rooms lower in the line, never from a higher
one; rooms on the same step (catalog and rosters, session and render, tui and cli) may use one
another only one way (no cycle). Imports are read with :mod:`ast`, at the top of a module and
inside functions alike; an import under ``if TYPE_CHECKING:`` never runs (annotations only) and
is left out. :mod:`test_architecture` holds the other layering rules (no Textual below the
builder, no WeasyPrint outside the renderer, no game system named in the core).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from itertools import pairwise
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "armybuilder"

#: Room -> its step in the line (lower steps are imported by higher ones, never the reverse).
LEVELS = {
    "base": 0,
    "model": 1,
    "plugin": 2,
    "catalog": 3,
    "rosters": 3,
    "engine": 4,
    "systems": 5,
    "interop": 6,
    "session": 7,
    "render": 7,
    "tui": 8,
    "cli": 8,
}

#: Module (or package) name prefixes -> room; the longest prefix wins.
ROOMS = {
    "armybuilder": "base",
    "armybuilder.errors": "base",
    "armybuilder.paths": "base",
    "armybuilder.yamlio": "base",
    "armybuilder.fileio": "base",
    "armybuilder.textmerge": "base",
    "armybuilder.ownform": "base",
    "armybuilder.dice": "base",
    "armybuilder.words": "base",
    "armybuilder.emphasis": "base",
    "armybuilder.model": "model",
    "armybuilder.schemas": "model",
    "armybuilder.plugin": "plugin",
    "armybuilder.formats": "plugin",
    "armybuilder.catalog": "catalog",
    "armybuilder.libcache": "catalog",
    "armybuilder.rosters": "rosters",
    "armybuilder.rules": "engine",
    "armybuilder.editing": "engine",
    "armybuilder.report": "engine",
    "armybuilder.against": "engine",
    "armybuilder.rules.systems": "systems",
    "armybuilder.interop": "interop",
    "armybuilder.session": "session",
    "armybuilder.building": "session",
    "armybuilder.overview": "session",
    "armybuilder.fixes": "session",
    "armybuilder.unitdef": "session",
    "armybuilder.render": "render",
    "armybuilder.tui": "tui",
    "armybuilder.cli": "cli",
    "armybuilder.batch": "cli",
    "armybuilder.launch": "cli",
    "armybuilder.__main__": "cli",
}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def room_of(module: str) -> str | None:
    """The room of a module: the longest prefix in :data:`ROOMS` (``armybuilder`` itself only
    for the package's ``__init__``), or ``None`` for a module not placed yet."""
    best = ""
    for prefix in ROOMS:
        inside = module == prefix or (prefix != "armybuilder" and module.startswith(prefix + "."))
        if inside and len(prefix) > len(best):
            best = prefix
    return ROOMS.get(best)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_time_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node of a module except what lies under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for other in node.orelse:
                yield other
                yield from _run_time_nodes(other)
            continue
        yield node
        yield from _run_time_nodes(node)


@cache
def imports_of(module: str) -> list[tuple[str, list[str], int]]:
    """(imported armybuilder module, names taken from it, line) for each run-time import."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out: list[tuple[str, list[str], int]] = []
    for node in _run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((a.name, [], node.lineno) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            names = [a.name for a in node.names]
            # `from . import model`: the submodule itself is what is imported
            submodules = [n for n in names if f"{target}.{n}" in MODULES]
            out.extend((f"{target}.{n}", [], node.lineno) for n in submodules)
            rest = [n for n in names if n not in submodules]
            if rest or not submodules:
                out.append((target, rest, node.lineno))
    return [(m, names, line) for m, names, line in out if m.split(".")[0] == "armybuilder"]


def room_graph() -> dict[str, dict[str, list[str]]]:
    """room -> room it imports -> where ("module:line -> module")."""
    graph: dict[str, dict[str, list[str]]] = {}
    for module in MODULES:
        here = room_of(module)
        assert here is not None, f"{module} has no room"
        for target, _, line in imports_of(module):
            there = room_of(target)
            assert there is not None, target
            if there != here:
                graph.setdefault(here, {}).setdefault(there, []).append(
                    f"{module}:{line} -> {target}"
                )
    return graph


def test_every_module_has_a_room() -> None:
    # A new top-level module or package must be placed in the line (here and in the README).
    unplaced = [m for m in MODULES if room_of(m) is None]
    assert not unplaced, f"place these modules in ROOMS and the README's reading map: {unplaced}"
    assert set(ROOMS.values()) == set(LEVELS)


def test_no_room_imports_a_higher_one() -> None:
    wrong = [
        f"{here} (step {LEVELS[here]}) imports {there} (step {LEVELS[there]}): {where[0]}"
        for here, targets in room_graph().items()
        for there, where in targets.items()
        if LEVELS[there] > LEVELS[here]
    ]
    assert not wrong, "\n".join(wrong)


def _find_cycle(graph: dict[str, dict[str, list[str]]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_no_import_cycle_between_rooms() -> None:
    graph = room_graph()
    cycle = _find_cycle(graph)
    if cycle is not None:
        steps = [f"{a} -> {b}: {graph[a][b][0]}" for a, b in pairwise(cycle)]
        pytest.fail("import cycle between rooms:\n" + "\n".join(steps))


def test_no_module_takes_another_rooms_private_names() -> None:
    # What a room offers the others has a public name; `_name` stays inside its room.
    found = [
        f"{module} imports {', '.join(n for n in names if n.startswith('_'))} from {target}"
        for module in MODULES
        for target, names, _ in imports_of(module)
        if room_of(target) != room_of(module)
        and any(n.startswith("_") and not n.startswith("__") for n in names)
    ]
    assert not found, "\n".join(found)


def test_the_cycle_finder_finds_cycles() -> None:
    # The checks above are only as good as this: a cycle two rooms long and one through three.
    assert _find_cycle({"a": {"b": []}, "b": {"a": []}}) == ["a", "b", "a"]
    assert _find_cycle({"a": {"b": []}, "b": {"c": []}, "c": {"a": []}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b": []}, "b": {"c": []}}) is None


def test_the_graph_sees_function_level_and_relative_imports() -> None:
    # engine.py imports the catalog at the top; cli's `new` imports the session inside a function.
    targets = {t for t, _, _ in imports_of("armybuilder.cli")}
    assert "armybuilder.session" in targets
    assert "armybuilder.catalog" in {t for t, _, _ in imports_of("armybuilder.rules.engine")}
    # `from ... import catalog as ab_catalogs` names the package itself
    assert "armybuilder.catalog" in {
        t for t, _, _ in imports_of("armybuilder.interop.battlescribe.translate")
    }
