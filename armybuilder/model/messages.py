"""Pydantic's validation errors in words a player or a catalog author understands.

Pydantic says ``faction.list[constrained-str]: Input should be a valid list``; a player needs
``faction: 5 should be an id or a list of ids``. :func:`describe_errors` turns a
:class:`pydantic.ValidationError` into ``(location, message)`` pairs: the location is the path
of keys and indexes in the file (pydantic's own tags for union members and tagged unions are
dropped, so that it finds a line and column), one message per place, naming what was found
and what is expected. Catalogs, a roster's header and a roster's ``custom:`` entries all go
through it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic import ValidationError

Loc = list[str | int]

#: What each kind of error expects, as words to join with "or" (a union of several).
_EXPECTED = {
    "string_type": "text",
    "string_pattern_mismatch": "an id (lowercase letters, digits and hyphens, e.g. 'auto-rifle')",
    "list_type": "a list",
    "tuple_type": "a list",
    "set_type": "a list",
    "dict_type": "a mapping (key: value)",
    "model_type": "a mapping (key: value)",
    "model_attributes_type": "a mapping (key: value)",
    "int_type": "a whole number",
    "int_parsing": "a whole number",
    "int_from_float": "a whole number",
    "float_type": "a number",
    "float_parsing": "a number",
    "bool_type": "true or false",
    "bool_parsing": "true or false",
    "none_required": "empty",
}


#: Tags pydantic puts in a location for our tagged unions (entry or link, system or catalog).
_TAGS = frozenset({"entry", "link", "system", "catalog"})


def clean_loc(data: Any, loc: Sequence[str | int], missing: bool = True) -> Loc:
    """The part of pydantic's error location that is a path in ``data``: its tags for union
    members (``list[constrained-str]``, ``int``) and tagged unions are dropped."""
    out: Loc = []
    node = data
    steps = list(loc)
    for i, step in enumerate(steps):
        nxt = steps[i + 1] if i + 1 < len(steps) else None
        if isinstance(node, dict):
            if step in node and not (step in _TAGS and nxt is not None and nxt in node):
                out.append(step)
                node = node[step]
            elif nxt is None and missing:
                out.append(step)  # a missing key: say which
                node = None
            # else: a tag, not a key of the file
        elif isinstance(node, list):
            if isinstance(step, int) and 0 <= step < len(node):
                out.append(step)
                node = node[step]
            elif isinstance(step, int):
                out.append(step)
                node = None
        elif isinstance(step, int) or (node is None and not out):
            out.append(step)
            node = None
        # a tag after a scalar: the union member that rejected it
    return out


def where(loc: Sequence[str | int]) -> str:
    """``['entries', 0, 'costs', 'kg']`` -> ``entries.0.costs.kg``."""
    return ".".join(str(s) for s in loc) or "the file"


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "nothing"
    text = repr(value)
    if len(text) > 40:
        digits = str(value) if isinstance(value, int) and not isinstance(value, bool) else ""
        text = f"a number of {len(digits)} digits" if digits.isdigit() else text[:37] + "…"
    return text


def _should_be(here: str, value: Any, expected: str) -> str:
    """``limits: 'x' should be a mapping``; a key left empty says so."""
    if value is None:
        return f"{here}: left empty; it should be {expected}"
    return f"{here}: {_shown(value)} should be {expected}"


def describe(error: Any, loc: Sequence[str | int]) -> str:
    """One pydantic error (an item of ``ValidationError.errors()``) as a sentence."""
    kind = error["type"]
    here = where(loc)
    last = loc[-1] if loc else None
    value = error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        return f"unknown key {last!r} (check its spelling; see docs/catalog-format.md)"
    if kind == "missing":
        inside = f"{where(loc[:-1])}: " if len(loc) > 1 else ""
        return f"{inside}missing required key {last!r}"
    if kind in {"union_tag_invalid", "union_tag_not_found"}:
        return "kind must be 'system' (a game system file) or 'catalog' (a faction file)"
    if kind == "string_pattern_mismatch":
        return (
            f"{here}: {_shown(value)} is not an id (ids are lowercase letters, digits and "
            "hyphens, e.g. 'auto-rifle')"
        )
    if kind == "finite_number":
        return f"{here}: must be a finite number, not {_shown(value)}"
    bounds = {
        "less_than_equal": ("at most", "le"),
        "less_than": ("less than", "lt"),
        "greater_than_equal": ("at least", "ge"),
        "greater_than": ("more than", "gt"),
    }
    if kind in bounds:
        words, key = bounds[kind]
        limit = ctx.get(key)
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        shown = f"{limit:,}" if isinstance(limit, int | float) else str(limit)
        return f"{here}: {_shown(value)} is out of range; it must be {words} {shown}"
    if kind == "literal_error":
        return f"{here}: {_shown(value)} is not one of {ctx.get('expected', 'the choices')}"
    if kind == "too_short":
        least, got = ctx.get("min_length", 1), ctx.get("actual_length", 0)
        return f"{here}: needs at least {least} item(s), not {got}"
    if kind == "too_long":
        return (
            f"{here}: holds at most {ctx.get('max_length')} item(s), not {ctx.get('actual_length')}"
        )
    if kind in _EXPECTED:
        return _should_be(here, value, _EXPECTED[kind])
    msg = str(error.get("msg", "is not valid"))
    msg = msg.replace("Input should be", "should be").replace("Value error, ", "")
    return f"{here}: {msg[0].lower() + msg[1:]}" + (
        "" if isinstance(value, dict | list) else f" (got {_shown(value)})"
    )


def describe_errors(exc: ValidationError, data: Any) -> list[tuple[Loc, str]]:
    """Every error of ``exc`` (raised validating ``data``) as (location, sentence), one per
    place: the members of a union that all failed are said together ("should be an id or a
    list")."""
    grouped: dict[tuple[str | int, ...], list[Any]] = {}
    for err in exc.errors():
        loc = clean_loc(data, err["loc"], err["type"] == "missing")
        grouped.setdefault(tuple(loc), []).append(err)
    out: list[tuple[Loc, str]] = []
    for key, errs in grouped.items():
        deeper = any(len(k) > len(key) and k[: len(key)] == key for k in grouped)
        if deeper and all(e["type"] in _EXPECTED for e in errs):
            continue  # a union member got further inside: its error says more
        loc = list(key)
        expected = [_EXPECTED[e["type"]] for e in errs if e["type"] in _EXPECTED]
        if len(errs) > 1 and len(expected) == len(errs):
            words = list(dict.fromkeys(expected))
            joined = ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1]
            out.append((loc, _should_be(where(loc), errs[0].get("input"), joined)))
            continue
        if len(errs) > 1:
            # a union where some member got further: its error says the most
            errs = [e for e in errs if e["type"] not in _EXPECTED] or errs
        for e in errs:
            out.append((loc, describe(e, loc)))
    return out
