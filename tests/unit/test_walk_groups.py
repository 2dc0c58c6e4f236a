"""``catalog.walk_groups``: every group and subgroup, a parent before its subgroups, in the
order the catalog lists them (what the builder's group panes and the index rely on)."""

from __future__ import annotations

from armybuilder.catalog import walk_groups
from armybuilder.model.catalog import Group


def _g(gid: str, *subs: Group) -> Group:
    return Group(id=gid, name=gid, groups=list(subs))


def test_groups_are_walked_depth_first_in_catalog_order() -> None:
    tree = [_g("a", _g("a1", _g("a1x"), _g("a1y")), _g("a2")), _g("b"), _g("c", _g("c1"))]
    assert [g.id for g in walk_groups(tree)] == ["a", "a1", "a1x", "a1y", "a2", "b", "c", "c1"]
    assert list(walk_groups([])) == []
    shared = _g("s", _g("s1"))  # the same group object in two places is walked in both
    assert [g.id for g in walk_groups([_g("p", shared), shared])] == ["p", "s", "s1", "s", "s1"]
