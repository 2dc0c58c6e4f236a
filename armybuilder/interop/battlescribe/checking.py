"""A data file's values checked as it is read into :mod:`.model`: a value the model refuses
(a cost of ``nan``, a count of ``2e6``, ``hidden="maybe"``, an entry of an unknown type, a cost
without its type) is a data problem naming the element and saying what is wrong, in our words;
the element is left out and the rest of the file loads.

Which element is left out: the nearest one holding the value that stands on its own in the
data (a selection entry, group or link, a force entry, a category, a cost or profile type, a
publication, a catalogue link, a rule, a profile, an info group or link). A bad cost or
constraint leaves out the entry it belongs to, not only the cost or the limit: an entry that is
missing is reported when a roster uses it, where an entry costing nothing or allowed without
its limit would validate a roster wrongly. A bad attribute of the file's own root element is
left at its default.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

#: Elements that stand on their own: where a bad value is found, the nearest of these is
#: left out (see the module's text).
STANDALONE = frozenset(
    {
        "selectionEntry",
        "selectionEntryGroup",
        "entryLink",
        "forceEntry",
        "categoryEntry",
        "costType",
        "profileType",
        "publication",
        "catalogueLink",
        "rule",
        "profile",
        "infoGroup",
        "infoLink",
    }
)

_M = TypeVar("_M", bound=BaseModel)


@dataclass(frozen=True)
class ValueProblem:
    """A value a data file's element holds that the model refuses."""

    #: ``<tag id='..' name='..'>`` of the element left out (or of the file's root).
    element: str
    #: Its ``id`` attribute (to find its line), ``""`` where it has none.
    element_id: str
    #: What is wrong and what was done, in our words.
    message: str

    def __str__(self) -> str:
        return f"{self.element} {self.message}"


def tag_of(key: str) -> str:
    """The tag of the elements a list key holds (``sharedSelectionEntries`` ->
    ``selectionEntry``, ``costs`` -> ``cost``)."""
    if key.startswith("shared") and len(key) > 6:
        key = key[6].lower() + key[7:]
    if key.endswith("ies"):
        return key[:-3] + "y"
    return key[:-1] if key.endswith("s") else key


def _shown(value: Any) -> str:
    if isinstance(value, dict):
        return "an element"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "…'"


def _words(error: Any) -> str:
    """What is wrong with one refused value, as a phrase after its name."""
    kind = error["type"]
    value = _shown(error.get("input"))
    ctx = error.get("ctx") or {}
    if kind in ("bool_parsing", "bool_type"):
        return f"is {value}, not true or false"
    if kind in ("float_parsing", "float_type", "value_error", "int_type"):
        return f"is {value}, not a number"
    if kind in ("int_parsing", "int_from_float"):
        return f"is {value}, not a whole number"
    if kind == "finite_number":
        return f"is {value}, not a finite number"
    bounds = {
        "less_than_equal": "at most",
        "greater_than_equal": "at least",
        "less_than": "less than",
        "greater_than": "more than",
    }
    if kind in bounds:
        limit = next(iter(ctx.values()), "")
        if isinstance(limit, float) and limit.is_integer():
            limit = int(limit)
        shown = f"{limit:,}" if isinstance(limit, int | float) else str(limit)
        return f"is {value}, out of range (it must be {bounds[kind]} {shown})"
    if kind == "literal_error":
        return f"is {value}, not one of {ctx.get('expected', 'the known values')}"
    if kind in ("list_type", "model_type", "dict_type", "model_attributes_type"):
        return f"is {value}, not the elements it should hold"
    if kind in ("string_type",):
        return f"is {value}, not text"
    return f"is {value}, which is not valid here"


def label(item: dict[str, Any], tag: str) -> str:
    parts = [tag]
    for key in ("id", "name"):
        value = item.get(key)
        if isinstance(value, str) and value:
            parts.append(f"{key}={value!r}")
    return "<" + " ".join(parts) + ">"


def _locate(data: dict[str, Any], loc: tuple[Any, ...]) -> tuple[list[Any], str, str, str] | None:
    """For an error at ``loc``: (the path to the element to leave out, its tag, the tag of the
    element holding the value, the value's name); ``None`` where the path is not in ``data``.
    The path is ``loc``'s prefix up to that element (empty: the root)."""
    node: Any = data
    holders: list[tuple[int, str]] = []  # (length of the path to a list item, its tag)
    steps: list[Any] = []
    last_key = ""
    for step in loc:
        if isinstance(node, dict) and isinstance(step, str) and step in node:
            last_key = step
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
            node = node[step]
            holders.append((len(steps) + 1, tag_of(last_key)))
        elif isinstance(step, str) and isinstance(node, dict):
            steps.append(step)  # a missing key: its name
            break
        else:
            return None
        steps.append(step)
    name = next((s for s in reversed(steps) if isinstance(s, str)), "")
    holder_tag = holders[-1][1] if holders else ""
    for depth, tag in reversed(holders):
        if tag in STANDALONE:
            return steps[:depth], tag, holder_tag, name
    if holders:
        depth, tag = holders[0]
        return steps[:depth], tag, holder_tag, name
    return [], "", "", name


def validate(
    cls: type[_M], data: dict[str, Any], root_tag: str, limit: int = 10_000
) -> tuple[_M, list[ValueProblem]]:
    """``cls.model_validate(data)``, leaving out (from ``data`` itself) every element holding
    a value the model refuses, with a :class:`ValueProblem` for each."""
    problems: list[ValueProblem] = []
    for _ in range(limit):
        try:
            return cls.model_validate(data), problems
        except ValidationError as exc:
            errors = exc.errors()
        done: set[tuple[Any, ...]] = set()
        # (An element left out is marked, and removed once every error of the pass is read:
        # the paths of the others stay as they are.)
        for err in errors:
            found = _locate(data, tuple(err["loc"]))
            if found is None:
                continue
            path, tag, holder, name = found
            key = tuple(path)
            if any(key[: len(d)] == d for d in done):
                continue  # inside an element already left out
            if err["type"] == "missing":
                what = (
                    f"has no {name}"
                    if not holder or holder == tag
                    else (f"has a <{holder}> without its {name}")
                )
            elif not holder or holder == tag:
                what = f"{name} {_words(err)}"
            else:
                what = f"has a <{holder}> whose {name} {_words(err)}"
            if not path:  # an attribute of the root: its default
                data.pop(name, None)
                problems.append(
                    ValueProblem(
                        label(data, root_tag), data.get("id", ""), f"{what}; the default is used"
                    )
                )
                done.add((name,))
                continue
            parent: Any = data
            for step in path[:-1]:
                parent = parent[step]
            item = parent[path[-1]]
            problems.append(
                ValueProblem(
                    label(item, tag),
                    str(item.get("id", "")) if isinstance(item, dict) else "",
                    f"{what}; it is left out",
                )
            )
            parent[path[-1]] = None  # left out below, once every path of this pass is read
            done.add(key)
        if not done:
            break
        _drop_marked(data)
    # What could not be placed (no path in the data): the file is refused as a whole.
    try:
        return cls.model_validate(data), problems
    except ValidationError as exc:
        err = exc.errors()[0]
        raise ValueError(
            f"<{root_tag}> holds a value that cannot be read: "
            f"{'.'.join(map(str, err['loc']))} {_words(err)}"
        ) from None


def _drop_marked(node: Any) -> None:
    """Remove the list items set to ``None`` (the elements left out)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            stack.extend(v for v in n.values() if isinstance(v, dict | list))
        elif isinstance(n, list):
            if any(v is None for v in n):
                n[:] = [v for v in n if v is not None]
            stack.extend(v for v in n if isinstance(v, dict | list))
