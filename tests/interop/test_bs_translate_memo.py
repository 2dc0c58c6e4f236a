"""The translation's shortcuts (condition groups and modifiers translated once per different
one, a characteristic's number worked out once per different text, catalog objects made from a
template of their defaults, entries, links and groups made without pydantic's validation
where their values are already what it keeps): on each of
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
    counts = {"cgroup": 0, "scalar": 0, "modifier": 0, "validated": 0}
    plain_cgroup = Translation._translate_cgroup
    plain_modifier = Translation._translate_modifier

    def every_cgroup(self: Translation, g: Any) -> Any:
        counts["cgroup"] += 1
        return plain_cgroup(self, g)

    def every_scalar(self: Translation, value: str) -> Any:
        counts["scalar"] += 1
        return translate.scalar(value)

    def every_modifier(self: Translation, *args: Any) -> Any:
        counts["modifier"] += 1
        return plain_modifier(self, *args)

    def validated(cls: type[Any], **values: Any) -> Any:
        counts["validated"] += 1
        return cls(**values)

    monkeypatch.setattr(translate, "_build_model", _build_model_field_by_field)
    monkeypatch.setattr(Translation, "_modifier", every_modifier)
    monkeypatch.setattr(translate, "_checked", validated)
    monkeypatch.setattr(Translation, "_cgroup", every_cgroup)
    monkeypatch.setattr(Translation, "_scalar", every_scalar)
    plain, plain_notes = _translated(name, factions)
    _same(plain, fast, {})
    assert plain_notes == fast_notes
    if name == "wh40k-10e":  # (the shortcuts were taken: the data repeats both)
        assert counts["cgroup"] > 5000 and counts["scalar"] > 5000
        assert counts["modifier"] > 5000 and counts["validated"] > 5000


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


def test_a_modifier_key_tells_apart_what_translates_differently() -> None:
    from armybuilder.interop.battlescribe import model as bs

    def key(m: bs.Modifier, conds: list[bs.Condition] | None = None, **kw: Any) -> Any:
        return translate._modifier_key(
            m, conds or [], [], [], kw.get("rule"), kw.get("profile", False)
        )

    base = bs.Modifier(type="set", field="hidden", value="true")
    cond = bs.Condition(type="atLeast", value=1, childId="x")
    assert key(base) == key(bs.Modifier(type="set", field="hidden", value="true"))
    assert key(base) != key(bs.Modifier(type="set", field="hidden", value="false"))
    assert key(base) != key(bs.Modifier(type="set", field="name", value="true"))
    # `True` equals 1: a value is keyed with its class.
    assert key(bs.Modifier(field="a", value=True)) != key(bs.Modifier(field="a", value=1))
    assert key(base) != key(base, [cond])  # a modifier group's condition
    assert key(base) != key(
        bs.Modifier(type="set", field="hidden", value="true", conditions=[cond])
    )
    assert key(base) != key(base, rule="r") != key(base, profile=True)
    # Its own keys that no field names (`scope`, `affects`, `join`...).
    assert key(base) != key(bs.Modifier(type="set", field="hidden", value="true", scope="force"))
    # A value that cannot be a key: translated on its own.
    assert key(bs.Modifier(field="a", value=["x"])) is None


def test_an_entry_out_of_bounds_is_refused_by_pydantic_as_before() -> None:
    from pydantic import ValidationError

    from armybuilder.model import catalog as ab

    fine = translate._checked(ab.Entry, id="e", name="E", costs={"pts": 5.0})
    assert fine == ab.Entry(id="e", name="E", costs={"pts": 5.0})
    assert fine.model_fields_set == {"id", "name", "costs"}
    for bad in (
        {"costs": {"pts": float("nan")}},
        {"costs": {"pts": 2e6}},
        {"id": "Not An Id"},
        {"id": "e\n"},
        {"categories": ["ok", "Bad"]},
        {"type": "vehicle"},
    ):
        with pytest.raises(ValidationError):
            translate._checked(ab.Entry, **{"id": "e", "name": "E", **bad})
    with pytest.raises(ValidationError):
        translate._checked(ab.Group, id="g", name="G", min=-1)
    with pytest.raises(ValidationError):
        translate._checked(ab.Group, id="g", name="G", max=20_000)
    # A value pydantic converts (an int cost) is converted as before.
    assert translate._checked(ab.Entry, id="e", name="E", costs={"pts": 5}).costs == {"pts": 5.0}


def _generic_ok(cls: type[Any], values: dict[str, Any]) -> bool:
    """``translate._CHECKS`` read field by field (the way a call with other fields goes)."""
    checks = translate._CHECKS[cls]
    for name, value in values.items():
        check = checks.get(name)
        if check is None:
            if name not in translate._LISTS or value.__class__ is not list:
                return False
        elif not check(value):
            return False
    return True


_GOOD: dict[str, dict[str, Any]] = {
    "Entry": {
        "id": "e",
        "name": "E",
        "type": "unit",
        "hidden": False,
        "categories": ["c"],
        "primary_category": "c",
        "costs": {"pts": 5.0},
        "profiles": [],
        "rules": ["r"],
        "constraints": [],
        "modifiers": [],
        "entries": [],
        "groups": [],
    },
    "EntryLink": {
        "link": "e",
        "id": "l",
        "hidden": None,
        "categories": None,
        "constraints": [],
        "modifiers": [],
    },
    "Group": {
        "id": "g",
        "name": "G",
        "min": 0,
        "max": None,
        "default": None,
        "entries": [],
        "groups": [],
        "hidden": False,
        "modifiers": [],
        "constraints": [],
    },
}
_ODD = [
    None,
    True,
    0,
    1,
    -1,
    20_000,
    2.5,
    float("nan"),
    2e6,
    "",
    "ok",
    "Not An Id",
    "e\n",
    "unit",
    "vehicle",
    [],
    ["ok"],
    ["ok", "Bad"],
    {},
    {"pts": 5},
    {"pts": float("inf")},
    {"pts": 1e7},
    (),
]


@pytest.mark.parametrize("cls_name", sorted(_GOOD))
def test_the_checks_written_out_agree_with_the_checks_field_by_field(cls_name: str) -> None:
    from pydantic import ValidationError

    from armybuilder.model import catalog as ab

    cls = getattr(ab, cls_name)
    names, written_out = translate._WRITTEN_OUT[cls]
    good = _GOOD[cls_name]
    assert tuple(good) == names  # (the fields the translation gives, in its order)
    assert written_out(good) and _generic_ok(cls, good)
    refused = 0
    for name in names:
        for odd in _ODD:
            values = {**good, name: odd}
            assert written_out(values) == _generic_ok(cls, values), (name, odd)
            if name in translate._LISTS:
                continue  # (lists of the catalog objects the translation made: taken as lists)
            if not written_out(values):
                try:
                    made = translate._checked(cls, **values)
                except ValidationError:
                    refused += 1
                    continue
                # pydantic took it: what it keeps is what it makes of the value
                assert made == cls(**values)
            else:
                assert translate._checked(cls, **values) == cls(**values)
    assert refused > 10
