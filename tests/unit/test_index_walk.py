"""The index walks every entry a catalog defines once, depth first, where it is first met
(``CatalogIndex._defined``). Its one-loop walk, which does not push again what it has walked,
gives the same entries with the same groups in the same order as the plain walk it replaced
(written out here), on every bundled catalog and on the small BattleScribe data sets."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from armybuilder.catalog import Library
from armybuilder.catalog.index import CatalogIndex, walk_groups
from armybuilder.model.catalog import Entry, EntryLink, Group
from armybuilder.model.plain import is_entry

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"


def _plain_walk(idx: CatalogIndex) -> Iterator[tuple[Entry, list[Group]]]:
    sf, parts = idx.system.model, idx._parts
    stack: list[Entry | EntryLink] = [
        *sf.shared_entries,
        *(e for p in parts for e in p.shared_entries),
        *sf.entries,
        *(e for p in parts for e in p.entries),
    ]
    stack.reverse()
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if not is_entry(item) or id(item) in seen:
            continue
        seen.add(id(item))
        groups = list(walk_groups(item.groups)) if item.groups else []
        yield item, groups
        under: list[Entry | EntryLink] = list(item.entries)
        for g in groups:
            under.extend(g.entries)
        under.reverse()
        stack.extend(under)


def _same(idx: CatalogIndex) -> int:
    walked = idx._defined()
    plain = list(_plain_walk(idx))
    assert [(id(e), [id(g) for g in gs]) for e, gs in walked] == [
        (id(e), [id(g) for g in gs]) for e, gs in plain
    ]
    return len(walked)


def test_every_bundled_catalog_is_walked_as_before() -> None:
    lib = Library().scan()
    walked = 0
    for gs in lib.systems.values():
        for fid in list(gs.factions):
            walked += _same(gs.index(fid))
    assert walked > 100  # (the bundled catalogs were all there to walk)


@pytest.mark.skipif(not BSDATA.is_dir(), reason="no ../shared/bsdata")
@pytest.mark.parametrize("system", ["gaslands", "space-station-zero"])
def test_battlescribe_data_is_walked_as_before(system: str) -> None:
    lib = Library([BSDATA], use_cache=False).scan()
    gs = lib.system(system)
    for fid in list(gs.factions):
        assert _same(gs.index(fid)) > 0
