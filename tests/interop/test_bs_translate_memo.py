"""The translation's shortcuts (condition groups translated once per different group, a
characteristic's number worked out once per different text, catalog objects made from a
template of their defaults): on each of
the three real data sets the catalog is the one the plain translation makes, entry for entry
(every field, fields set, and objects shared alike), with the same notes and problems."""

from __future__ import annotations

from typing import Any

import pytest

from armybuilder.interop.battlescribe import translate
from armybuilder.interop.battlescribe.translate import Translation

from .test_bs_cachefile import BSDATA, SETS, _catalog, _same, _system


def _translated(name: str, factions: list[str] | None) -> tuple[Any, list[str]]:
    gs = _system(BSDATA / name, use_cache=False)
    wanted = factions or sorted(gs._bs_ids)
    gs.load({gs._bs_ids[f] for f in wanted})
    assert gs.translation is not None
    return _catalog(gs), list(gs.translation.unsupported)


def _build_model_field_by_field(cls: type[Any], values: dict[str, Any]) -> Any:
    """What ``translate._build_model`` makes, the plain way: field by field, in order."""
    data: dict[str, Any] = {}
    for name, f in cls.model_fields.items():
        if name in values:
            data[name] = values[name]
        elif f.default_factory is not None:
            data[name] = f.default_factory()
        else:
            data[name] = f.default
    obj = cls.__new__(cls)
    object.__setattr__(obj, "__dict__", data)
    object.__setattr__(obj, "__pydantic_fields_set__", set(values))
    object.__setattr__(obj, "__pydantic_extra__", None)
    object.__setattr__(obj, "__pydantic_private__", None)
    return obj


@pytest.mark.parametrize(("name", "factions"), SETS)
def test_the_shortcuts_translate_as_the_plain_way(
    name: str, factions: list[str] | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not (BSDATA / name).is_dir():
        pytest.skip(f"no BattleScribe data at {BSDATA / name} (../shared/bsdata is not here)")
    fast, fast_notes = _translated(name, factions)
    counts = {"cgroup": 0, "scalar": 0}
    plain_cgroup = Translation._translate_cgroup

    def every_cgroup(self: Translation, g: Any) -> Any:
        counts["cgroup"] += 1
        return plain_cgroup(self, g)

    def every_scalar(self: Translation, value: str) -> Any:
        counts["scalar"] += 1
        return translate.scalar(value)

    monkeypatch.setattr(translate, "_build_model", _build_model_field_by_field)
    monkeypatch.setattr(Translation, "_cgroup", every_cgroup)
    monkeypatch.setattr(Translation, "_scalar", every_scalar)
    plain, plain_notes = _translated(name, factions)
    _same(plain, fast, {})
    assert plain_notes == fast_notes
    if name == "wh40k-10e":  # (the shortcuts were taken: the data repeats both)
        assert counts["cgroup"] > 5000 and counts["scalar"] > 5000


def test_a_condition_group_key_tells_apart_what_translates_differently() -> None:
    from armybuilder.interop.battlescribe import model as bs

    def group(kind: str, value: float, child: str = "x") -> bs.ConditionGroup:
        return bs.ConditionGroup(
            type=kind, conditions=[bs.Condition(type="atLeast", value=value, childId=child)]
        )

    key = translate._cgroup_key
    assert key(group("and", 1)) == key(group("and", 1))
    assert key(group("and", 1)) != key(group("or", 1))
    assert key(group("and", 1)) != key(group("and", 2))
    assert key(group("and", 1)) != key(group("and", 1, "y"))
    nested = bs.ConditionGroup(condition_groups=[group("or", 1)])
    assert key(nested) != key(bs.ConditionGroup(condition_groups=[group("and", 1)]))
