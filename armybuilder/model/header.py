"""A roster's header (what it is: format, system, faction, name, limits), read without pydantic
when it is plain.

:class:`armybuilder.model.roster.RosterHeader` (pydantic) defines the header and words every
refusal. Most rosters' headers are plain ids, text and numbers, so :func:`read_header` checks
those by hand into a :class:`PlainHeader` with the same values, and leaves anything else (an
extra key, a value to convert or to refuse) to pydantic: ``armybuilder validate`` of ordinary
rosters neither imports pydantic nor builds its validators.
``tests/unit/test_header_fast_path.py`` compares the two on generated headers.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, cast

from .bounds import MAX_LIMIT

if TYPE_CHECKING:
    from .roster import RosterHeader

FORMAT_VERSION = 1
#: The format of a roster with a top-level ``forces:`` list (format 1 files have one force).
FORCES_FORMAT = 2

_ID = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_HEADER_KEYS = ("format", "system", "faction", "name", "limits", "force", "notes")
_DEFAULTS: dict[str, Any] = {"format": 1, "force": None, "notes": None}


class PlainHeader:
    """A roster header as :meth:`RosterHeader.model_validate` gives it for a plain one (the
    same attributes, ``model_fields_set`` and ``model_dump()``)."""

    __slots__ = (*_HEADER_KEYS, "model_fields_set")

    def __init__(self, fields: dict[str, Any]) -> None:
        for key in _HEADER_KEYS:
            if key in fields:
                value = fields[key]
            elif key == "limits":
                value = {}
            else:
                value = _DEFAULTS[key]
            object.__setattr__(self, key, value)
        object.__setattr__(self, "model_fields_set", set(fields))

    def model_dump(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in _HEADER_KEYS}

    def __eq__(self, other: object) -> bool:
        # equal to the pydantic header of the same values too (what it stands for)
        if isinstance(other, PlainHeader) or type(other).__name__ == "RosterHeader":
            return bool(self.model_dump() == other.model_dump())  # type: ignore[attr-defined]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        inner = ", ".join(f"{k}={v!r}" for k, v in self.model_dump().items())
        return f"PlainHeader({inner})"


def _is_id(value: Any) -> bool:
    return type(value) is str and value.isascii() and _ID.fullmatch(value) is not None


def fast_header(data: dict[str, Any]) -> RosterHeader | None:
    """The header of an ordinary roster, checked by hand: what
    ``RosterHeader.model_validate(data)`` gives, without pydantic (a command checking one
    roster starts faster). ``None`` for anything less plain (an extra key, a value to convert
    or to refuse): pydantic then reads it, and words any message."""
    if not data.keys() <= set(_HEADER_KEYS):
        return None
    fields: dict[str, Any] = {}
    fmt = data.get("format", 1)
    if type(fmt) is not int or fmt not in (1, 2):
        return None
    if "format" in data:
        fields["format"] = fmt
    system, faction, name = data.get("system"), data.get("faction"), data.get("name")
    if not _is_id(system) or type(name) is not str:
        return None
    if type(faction) is list:
        if not faction or not all(_is_id(f) for f in faction):
            return None
        faction = list(faction)
    elif not _is_id(faction):
        return None
    fields.update(system=system, faction=faction, name=name)
    if "limits" in data:
        limits = data["limits"]
        if type(limits) is not dict:
            return None
        out: dict[str, float] = {}
        for k, v in limits.items():
            if type(k) is not str or type(v) not in (int, float):
                return None
            if not (0 <= v <= MAX_LIMIT) or v != v:  # (NaN and infinities are refused)
                return None
            out[k] = float(v)
        fields["limits"] = out
    for key in ("force", "notes"):
        if key in data:
            value = data[key]
            if value is not None and not (_is_id(value) if key == "force" else type(value) is str):
                return None
            fields[key] = value
    # the same attributes: typed as the model it stands for
    return cast("RosterHeader", PlainHeader(fields))


_fast_header = fast_header  # (its earlier name)


def read_header(data: dict[str, Any]) -> RosterHeader:
    """A roster's header from its plain top-level keys (``selections``, ``custom`` and
    ``forces`` left out); raises pydantic's ``ValidationError`` as
    ``RosterHeader.model_validate`` does."""
    fast = fast_header(data)
    if fast is not None:
        return fast
    from .roster import RosterHeader

    return RosterHeader.model_validate(data)
