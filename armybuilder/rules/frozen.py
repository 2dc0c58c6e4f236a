"""Computed values that may be shared: dicts and lists that refuse to be changed.

A rules module may work a value out once and hand the same object to every selection (or
every roster on one catalog) that computes alike: a platoon make-up's odds tables, a kit's
weapons. A plain dict or list shared so would carry an in-place edit made for one of them
into all the others. :func:`freeze` makes a value safe to share: its dicts become
:class:`FrozenDict` and its lists :class:`FrozenList`, at every depth. They are still a
``dict`` and a ``list`` to everything that reads them (``isinstance``, ``json``, templates,
``==`` with plain ones), so what any output prints is unchanged; every method that would
change one raises :class:`FrozenValueError` (a :class:`TypeError`). A copy (``dict(v)``,
``list(v)``, ``copy.copy``, ``copy.deepcopy``) is a plain, mutable one; pickling keeps them
frozen.

Nothing here names a game system.
"""

from __future__ import annotations

from typing import Any, NoReturn


class FrozenValueError(TypeError):
    """An in-place change of a frozen value was attempted; ``what`` says which
    (``dict.setdefault``). A :class:`TypeError`, as the change of any immutable value is."""

    def __init__(self, what: str) -> None:
        super().__init__(f"a shared computed value cannot be changed ({what}): copy it first")
        self.what = what

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenValueError, (self.what,))


def _refuse(kind: str, method: str) -> Any:
    """The method ``method`` of ``kind`` (``dict``, ``list``): it refuses the change."""

    def refused(self: object, *args: Any, **kwargs: Any) -> NoReturn:
        raise FrozenValueError(f"{kind}.{method}")

    refused.__name__ = method
    return refused


class FrozenDict(dict[Any, Any]):
    """A dict that refuses every change (see the module docstring)."""

    __slots__ = ()
    __setitem__ = _refuse("dict", "__setitem__")
    __delitem__ = _refuse("dict", "__delitem__")
    __ior__ = _refuse("dict", "__ior__")
    clear = _refuse("dict", "clear")
    pop = _refuse("dict", "pop")
    popitem = _refuse("dict", "popitem")
    setdefault = _refuse("dict", "setdefault")
    update = _refuse("dict", "update")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(frozenset(self.items()))

    def __copy__(self) -> dict[Any, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[Any, Any]:
        import copy

        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenDict, (dict(self),))


class FrozenList(list[Any]):
    """A list that refuses every change (see the module docstring)."""

    __slots__ = ()
    __setitem__ = _refuse("list", "__setitem__")
    __delitem__ = _refuse("list", "__delitem__")
    __iadd__ = _refuse("list", "__iadd__")
    __imul__ = _refuse("list", "__imul__")
    append = _refuse("list", "append")
    extend = _refuse("list", "extend")
    insert = _refuse("list", "insert")
    pop = _refuse("list", "pop")
    remove = _refuse("list", "remove")
    clear = _refuse("list", "clear")
    sort = _refuse("list", "sort")
    reverse = _refuse("list", "reverse")

    def __hash__(self) -> int:  # type: ignore[override]
        return hash(tuple(self))

    def __copy__(self) -> list[Any]:
        return list(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> list[Any]:
        import copy

        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self) -> tuple[Any, ...]:
        return (FrozenList, (list(self),))


def freeze(value: Any) -> Any:
    """``value`` with every dict and list in it (tuples' items too) frozen; anything else as
    it is. A value already frozen is returned as it is."""
    if type(value) is FrozenDict or type(value) is FrozenList:
        return value
    if isinstance(value, dict):
        return FrozenDict({k: freeze(v) for k, v in value.items()})
    if isinstance(value, list):
        return FrozenList(freeze(v) for v in value)
    if type(value) is tuple:
        return tuple(freeze(v) for v in value)
    return value


def is_frozen(value: Any) -> bool:
    """Whether ``value`` holds no dict or list that could be changed (at any depth)."""
    if isinstance(value, FrozenDict):
        return all(is_frozen(v) for v in value.values())
    if isinstance(value, FrozenList) or type(value) is tuple:
        return all(is_frozen(v) for v in value)
    return not isinstance(value, dict | list | set)
