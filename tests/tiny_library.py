"""A tiny game system of armybuilder's own YAML format, written to a temporary folder and
loaded as a :class:`Library`: what the engine, session and catalog-pane tests that need a
catalog of a few entries share.

* :data:`SEM_SYSTEM`: the "Semantics" system (``sem``) most of them use: points, one force;
* :func:`write_tiny_system`: the system's folder (``system.yaml`` and one catalog file);
* :func:`tiny_library`: that folder scanned, uncached, with no problem.

Tests in any folder import it as ``from tiny_library import SEM_SYSTEM, tiny_library``
(tests/ is on ``sys.path`` as the folder of tests/conftest.py, also when CI runs pytest from
the repository's root without PYTHONPATH), as they import ``bench_rosters``.
"""

from __future__ import annotations

from pathlib import Path

from armybuilder.catalog import Library

SEM_SYSTEM = """
kind: system
id: sem
name: Semantics
cost_types:
  - {id: pts, name: Points}
forces:
  - {id: patrol, name: Patrol}
"""


def write_tiny_system(
    root: Path, system_yaml: str, catalog_yaml: str, *, folder: str = "sem"
) -> Path:
    """``root/folder`` holding ``system.yaml`` and the catalog ``army.yaml``; returns ``root``
    (what :class:`Library` scans)."""
    (root / folder).mkdir(parents=True)
    (root / folder / "system.yaml").write_text(system_yaml, encoding="utf-8")
    (root / folder / "army.yaml").write_text(catalog_yaml, encoding="utf-8")
    return root


def tiny_library(
    root: Path, system_yaml: str, catalog_yaml: str, *, folder: str = "sem"
) -> Library:
    """The library of :func:`write_tiny_system`'s folder under ``root`` (a fresh temporary
    folder), uncached; it must load without a problem."""
    write_tiny_system(root, system_yaml, catalog_yaml, folder=folder)
    found = Library([root], use_cache=False).scan()
    assert not found.problems, found.problems
    return found
