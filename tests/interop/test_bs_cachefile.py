"""The BattleScribe cache file (:mod:`armybuilder.interop.battlescribe.cachefile`): a warm load
reads back exactly the catalog a cold load translated, on each of the three real data sets
(every entry, cost, constraint, modifier and profile equal; the same fields set; objects
shared in the translation shared again), and a library reading its own cache file gives the
same catalog as one that translates."""

from __future__ import annotations

import pickle
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from armybuilder.catalog import Library
from armybuilder.interop.battlescribe import cachefile
from armybuilder.interop.battlescribe import library as bs_library
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.model import catalog as ab
from armybuilder.paths import user_cache_dir

BSDATA = Path(__file__).resolve().parents[2].parent / "shared" / "bsdata"
#: Each data set, with the catalogues loaded together (40k: Space Marines and its links).
SETS = [
    ("wh40k-10e", ["imperium-adeptus-astartes-space-marines"]),
    ("gaslands", None),
    ("space-station-zero", None),
]


def _same(a: Any, b: Any, pairs: dict[int, int], path: str = "") -> None:
    """``a`` and ``b`` equal all the way down (models: class, fields and fields set), and
    shared alike: an object met again in ``a`` is the object met there in ``b``."""
    if isinstance(a, (BaseModel, list, dict)):
        seen = pairs.get(id(a))
        if seen is not None:
            assert seen == id(b), f"{path}: shared in the translation, not in the cache"
            return
        pairs[id(a)] = id(b)
    assert type(a) is type(b), f"{path}: {type(a).__name__} read back as {type(b).__name__}"
    if isinstance(a, BaseModel):
        assert a.__pydantic_fields_set__ == b.__pydantic_fields_set__, path
        assert a.__pydantic_extra__ == b.__pydantic_extra__, path
        assert list(a.__dict__) == list(b.__dict__), path
        for name, value in a.__dict__.items():
            _same(value, b.__dict__[name], pairs, f"{path}.{name}")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), path
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same(x, y, pairs, f"{path}[{i}]")
    elif isinstance(a, dict):
        assert list(a) == list(b), path
        for k, v in a.items():
            _same(v, b[k], pairs, f"{path}[{k!r}]")
    else:
        assert a == b, f"{path}: {a!r} read back as {b!r}"


def _system(folder: Path, use_cache: bool) -> BattleScribeSystem:
    bs_library._RECENT.clear()  # (what this process loaded before is forgotten)
    lib = Library([folder.parent], use_cache=use_cache).scan()
    gs = lib.system(folder.name)
    assert isinstance(gs, BattleScribeSystem)
    return gs


@pytest.mark.parametrize(("name", "factions"), SETS)
def test_the_cache_file_reads_back_the_translated_catalog(
    name: str, factions: list[str] | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = BSDATA / name
    if not folder.is_dir():
        pytest.skip(f"no BattleScribe data at {folder} (../shared/bsdata is not here)")
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path))
    monkeypatch.delenv("ARMYBUILDER_CACHE_DIR", raising=False)
    gs = _system(folder, use_cache=True)  # (translates, and writes its cache file)
    wanted = factions or sorted(gs._bs_ids)
    gs.load({gs._bs_ids[f] for f in wanted})
    made = (gs.model, [f.model for f in gs.factions.values()], gs.problems)
    assert sum(len(f.entries) + len(f.shared_entries) for f in made[1]) > 10

    data = cachefile.dumps(made)
    _same(made, cachefile.loads(data), {})
    assert len(data) < len(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))

    # A library that reads the cache file: the same catalog.
    warm = _system(folder, use_cache=True)
    warm.load({warm._bs_ids[f] for f in wanted})
    assert warm.translation is None  # (read from the file, not translated)
    assert list(user_cache_dir().glob("battlescribe/*.pickle"))
    _same(_catalog(gs), _catalog(warm), {})
    for f in wanted:
        assert warm.index(f).entries.keys() == gs.index(f).entries.keys()


def _catalog(gs: BattleScribeSystem) -> tuple[Any, ...]:
    return gs.model, {k: f.model for k, f in gs.factions.items()}, gs.problems


class Loose(BaseModel, extra="allow"):
    a: int = 0


class Holder(BaseModel):
    items: list[Any]


def test_an_object_with_extra_fields_is_pickled_as_usual() -> None:
    shared = ab.Condition(type="at-least", value=1, field="selections", scope="parent")
    value = Holder(items=[Loose(a=1, b="x"), shared, shared, ["p", "p"], {"k": "p"}])
    back = cachefile.loads(cachefile.dumps(value))
    assert back == value
    assert back.items[1] is back.items[2]
    assert back.items[0].model_extra == {"b": "x"}
    assert back.items[1].__pydantic_fields_set__ == {"type", "value", "field", "scope"}


def test_a_cache_file_of_another_format_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A translation cached by an older armybuilder (before cost types got their name as their
    # unit: "pts 80" where a player now reads "80 pts") is translated again, not served.
    folder = BSDATA / "gaslands"
    if not folder.is_dir():
        pytest.skip(f"no BattleScribe data at {folder} (../shared/bsdata is not here)")
    monkeypatch.setenv("ARMYBUILDER_HOME", str(tmp_path))
    monkeypatch.delenv("ARMYBUILDER_CACHE_DIR", raising=False)
    now = cachefile.FORMAT
    monkeypatch.setattr(cachefile, "FORMAT", "models-3")
    old = _system(folder, use_cache=True)
    old.load(set(old.files))
    assert list(user_cache_dir().glob("battlescribe/*.pickle"))
    monkeypatch.setattr(cachefile, "FORMAT", now)
    gs = _system(folder, use_cache=True)
    gs.load(set(gs.files))
    assert gs.translation is not None  # translated again: the old file is not this format's
    assert {ct.unit for ct in gs.model.cost_types} == {"Cans", "Build Slots"}
    again = _system(folder, use_cache=True)
    again.load(set(again.files))
    assert again.translation is None  # (and this format's file is read from now on)
