"""The catalog models in the engine's form (armybuilder/model/plain.py) hold what pydantic
checked, field for field.

A warm start reads the catalogs from the library snapshot as plain objects and never imports
pydantic, so the plain classes must have exactly the pydantic models' fields, in order, with
the same defaults, and a catalog converted either way must give back the same values.
"""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from armybuilder.catalog import Library
from armybuilder.catalog.library import plain_systems
from armybuilder.model import catalog, plain


def _pydantic_models() -> dict[str, type[BaseModel]]:
    return {
        name: value
        for name, value in vars(catalog).items()
        if isinstance(value, type)
        and issubclass(value, BaseModel)
        and value.__module__ == catalog.__name__
        and not name.startswith("_")
    }


def test_every_catalog_model_has_a_plain_twin_with_its_fields() -> None:
    models = _pydantic_models()
    assert set(models) == set(plain.CLASSES)
    for name, model in models.items():
        expected: list[tuple[str, Any]] = []
        for field, info in model.model_fields.items():
            if info.default_factory is list:
                default: Any = plain.NEW_LIST
            elif info.default_factory is dict:
                default = plain.NEW_DICT
            elif info.default_factory is not None:
                raise AssertionError(f"{name}.{field}: a default factory plain.py cannot make")
            elif info.default is PydanticUndefined:
                default = plain.REQUIRED
            else:
                default = info.default
            expected.append((field, default))
        assert list(plain.CLASSES[name]._fields) == expected, name


def test_a_plain_record_is_built_and_frozen_like_the_model() -> None:
    entry = plain.CLASSES["Entry"](id="squad", name="Squad")
    model = catalog.Entry(id="squad", name="Squad")
    assert entry.model_dump() == model.model_dump()
    assert (
        entry.categories == []
        and entry.categories is not plain.CLASSES["Entry"](id="x", name="X").categories
    )  # each its own new list
    with pytest.raises(AttributeError):
        entry.name = "Other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        plain.CLASSES["Entry"](id="squad")  # name is required
    with pytest.raises(TypeError):
        plain.CLASSES["Entry"](id="squad", name="Squad", colour="red")
    copy = entry.model_copy(update={"name": "Renamed"})
    assert (copy.name, entry.name) == ("Renamed", "Squad")


def test_the_bundled_catalogs_convert_both_ways_without_a_change(library: Library) -> None:
    systems = plain_systems(library.systems)
    for system_id, gs in library.systems.items():
        twin = systems[system_id]
        assert plain.is_plain(twin.model) and not plain.is_plain(gs.model)
        assert twin.model.model_dump() == gs.model.model_dump()
        back = plain.to_pydantic(twin.model)
        assert type(back) is type(gs.model)
        assert back == gs.model  # the same pydantic model again, field for field
        for fid, faction in gs.factions.items():
            assert twin.factions[fid].model.model_dump() == faction.model.model_dump()
    # and through pickle, as the snapshot keeps them
    again = pickle.loads(pickle.dumps(systems))
    for system_id, gs in library.systems.items():
        assert again[system_id].model.model_dump() == gs.model.model_dump()


def test_a_model_of_another_class_has_no_plain_form() -> None:
    class Other(BaseModel):
        id: str

    with pytest.raises(TypeError):
        plain.to_plain(Other(id="x"))
