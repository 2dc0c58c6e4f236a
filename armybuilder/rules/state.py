"""Campaign state keys: what a selection's ``state:`` may hold, as a rules module declares it.

A roster selection may carry ``state:``, a mapping of campaign state (actions fought, hits
taken, ammunition spent...). Each game system's rules module declares the keys it knows
(:meth:`armybuilder.plugin.SystemRules.state_keys`) as :class:`StateKey` objects:
name, value type, range, meaning, and whether the key is **history** (a campaign record kept
from battle to battle, such as actions fought) or **current** state (damage taken or
ammunition spent in the battle being played). The engine checks every selection's state
against those keys with :func:`check_state`: an unknown key is a warning that names the
nearest known key (a typo must not silently reset a veteran), a value of the wrong type or
out of range is an error. A system that declares no keys is not checked.

Nothing here names a game system.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

#: The value types a key may have.
KINDS = ("int", "bool", "str", "map-int", "list-str", "list-int")

#: The largest whole number accepted where a key gives no maximum (a campaign count never
#: comes near it; a value thousands of digits long is a mistake, reported, never a crash).
DEFAULT_MAXIMUM = 10**6

#: Issue codes.
UNKNOWN_KEY = "state-unknown-key"
INVALID = "state-invalid"

ERROR = "error"
WARNING = "warning"

_NUMERIC = frozenset({"int", "map-int", "list-int"})


@dataclass(frozen=True)
class StateKey:
    """One campaign state key a rules module knows.

    ``kind``: the value type, one of :data:`KINDS` (``map-int``: a mapping of ids to whole
    numbers; ``list-str`` / ``list-int``: a list of texts / whole numbers). ``history``: True
    for a campaign record kept between battles, False for the current state of the battle
    (damage, losses, expenditure). ``minimum`` / ``maximum`` bound every whole number the
    value holds (defaults: 0 and :data:`DEFAULT_MAXIMUM`). ``source``: the rules section;
    ``example``: a YAML flow value, e.g. ``"12"`` or ``"{grenades: 2}"``.
    """

    name: str
    kind: str
    meaning: str
    history: bool
    minimum: int | None = None
    maximum: int | None = None
    source: str = ""
    example: str = ""
    #: For a ``map-int`` key whose ids are fixed (``grenades``, ``door_charges``...): those
    #: ids; another id is reported like an unknown key. Empty: any id (the rules module
    #: checks them where they depend on the selection, e.g. its weapons).
    ids: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(
                f"state key {self.name!r}: kind {self.kind!r} is not one of {', '.join(KINDS)}"
            )

    @property
    def low(self) -> int:
        """The smallest whole number accepted."""
        return 0 if self.minimum is None else self.minimum

    @property
    def high(self) -> int:
        """The largest whole number accepted."""
        return DEFAULT_MAXIMUM if self.maximum is None else self.maximum

    @property
    def range_text(self) -> str:
        """The accepted whole numbers in words (``from 0 up``, ``from 0 to 6``)."""
        if self.maximum is None:
            return f"from {self.low} up"
        return f"from {self.low} to {self.high}"

    @property
    def expected(self) -> str:
        """What the value must be, in words."""
        if self.kind == "int":
            return f"a whole number {self.range_text}"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "str":
            return "a text"
        if self.kind == "map-int":
            ids = f" ({', '.join(self.ids)})" if self.ids else ""
            return (
                f"a mapping of ids{ids} to whole numbers {self.range_text} "
                f"(e.g. {self.placeholder})"
            )
        if self.kind == "list-str":
            return f"a list of texts (e.g. {self.placeholder})"
        return f"a list of whole numbers {self.range_text} (e.g. {self.placeholder})"

    @property
    def placeholder(self) -> str:
        """A YAML flow value: :attr:`example`, or one made up from the kind."""
        if self.example:
            return self.example
        n = max(self.low, min(1, self.high))
        return {
            "int": str(n),
            "bool": "false",
            "str": "text",
            "map-int": f"{{id: {n}}}",
            "list-str": "[a, b]",
            "list-int": f"[{n}]",
        }[self.kind]


@dataclass(frozen=True)
class StateProblem:
    """Something wrong with a selection's state: ``key`` None means the whole state."""

    key: str | None
    code: str
    message: str
    severity: str


def show(value: Any, limit: int = 40) -> str:
    """A short, safe rendering of a value for a message (never the 4,300-digit repr of a huge
    number, which Python refuses to make, nor a page of text)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        sign = "-" if value < 0 else ""
        if value.bit_length() < 13_000:  # under Python's 4,300-digit limit for str()
            return f"a {sign}number {len(str(abs(value)))} digits long"
        digits = int(value.bit_length() * math.log10(2)) + 1
        return f"a {sign}number about {digits} digits long"
    try:
        text = repr(value)
    except ValueError:  # pragma: no cover - a huge int nested in a container
        return f"a {type(value).__name__} too large to show"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_number(key: StateKey, where: str, value: Any) -> StateProblem | None:
    if _is_int(value) and key.low <= value <= key.high:
        return None
    if _is_int(value):
        expected = f"a whole number from {key.low} to {key.high}"
    else:
        expected = f"a whole number {key.range_text}"
    return StateProblem(key.name, INVALID, f"{where} must be {expected}; got {show(value)}", ERROR)


def _check_value(key: StateKey, value: Any) -> list[StateProblem]:
    where = f"state.{key.name}"

    def bad(expected: str | None = None) -> list[StateProblem]:
        msg = f"{where} must be {expected or key.expected}; got {show(value)}"
        return [StateProblem(key.name, INVALID, msg, ERROR)]

    kind = key.kind
    if kind == "int":
        found = _check_number(key, where, value)
        return [found] if found else []
    if kind == "bool":
        return [] if isinstance(value, bool) else bad()
    if kind == "str":
        return [] if isinstance(value, str) else bad()
    if kind == "map-int":
        if not isinstance(value, Mapping):
            return bad()
        out: list[StateProblem] = []
        for k, v in value.items():
            if not isinstance(k, str | int) or isinstance(k, bool):
                out.append(
                    StateProblem(
                        key.name,
                        INVALID,
                        f"{where} must map ids (names) to whole numbers; {show(k)} is not an id",
                        ERROR,
                    )
                )
                continue
            found = _check_number(key, f"{where}.{k}", v)
            if found:
                out.append(found)
            if key.ids and str(k) not in key.ids:
                out.append(_unknown(key.name, str(k), f"id {show(str(k))} in {where}", key.ids))
        return out
    # the lists
    if not isinstance(value, list):
        return bad()
    out = []
    for i, item in enumerate(value):
        if kind == "list-str":
            if not isinstance(item, str):
                msg = f"{where}[{i}] must be a text; got {show(item)}"
                out.append(StateProblem(key.name, INVALID, msg, ERROR))
        else:
            found = _check_number(key, f"{where}[{i}]", item)
            if found:
                out.append(found)
    return out


def _unknown(key: str, name: str, what: str, known: Sequence[str]) -> StateProblem:
    """An unknown key or id (``name``, described as ``what``), with the nearest known one or
    the list of them."""
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.6)
    if close:
        msg = f"unknown {what}; did you mean {close[0]!r}?"
    else:
        noun = "keys" if what.startswith("campaign") else "ids"
        msg = f"unknown {what} (known {noun}: {', '.join(known)})."
    return StateProblem(key, UNKNOWN_KEY, msg + " It is kept in the file but not used.", WARNING)


def check_state(keys: Sequence[StateKey], state: Any) -> list[StateProblem]:
    """The problems with one selection's ``state`` against the declared ``keys`` (none when
    no keys are declared, or the state is empty): unknown keys (warnings naming the nearest
    known key), values of the wrong type or out of range, a state that is not a mapping."""
    if not keys or state is None:
        return []
    if not isinstance(state, Mapping):
        return [
            StateProblem(
                None,
                INVALID,
                f"state must be a mapping of campaign state keys, e.g. {state_placeholder(keys)}; "
                f"got {show(state)}",
                ERROR,
            )
        ]
    by_name = {k.name: k for k in keys}
    out: list[StateProblem] = []
    for raw, value in state.items():
        name = str(raw)
        key = by_name.get(name)
        if key is None:
            out.append(_unknown(name, name, f"campaign state key {show(name)}", list(by_name)))
            continue
        out.extend(_check_value(key, value))
    return out


def state_placeholder(keys: Sequence[StateKey]) -> str:
    """A one-line YAML flow example of the keys, e.g. ``{actions: 12, wounds: 1}`` (empty
    when there are none)."""
    if not keys:
        return ""
    return "{" + ", ".join(f"{k.name}: {k.placeholder}" for k in keys) + "}"


def state_example(keys: Sequence[StateKey], width: int | None = None) -> str:
    """The campaign state field's example ("e.g. " and :func:`state_placeholder`) in at most
    ``width`` cells: whole where it fits, else as many of the keys as fit, in their order,
    with "…" for the others (``e.g. {lost: 1, …}``), so that the field never shows an example
    cut mid-key ("e.g. {ammo_used:"); the tooltip lists every key. Empty when not even
    ``e.g. {…}`` fits, or there are no keys."""
    if not keys:
        return ""
    whole = f"e.g. {state_placeholder(keys)}"
    if width is None or len(whole) <= width:
        return whole
    chosen: list[str] = []
    for key in keys:
        item = f"{key.name}: {key.placeholder}"
        if len("e.g. {" + ", ".join([*chosen, item]) + ", …}") <= width:
            chosen.append(item)
    shown = "e.g. {" + ", ".join([*chosen, "…"]) + "}"
    return shown if len(shown) <= width else ""


def _kind_text(key: StateKey) -> str:
    if key.kind == "int":
        return f"whole number {key.range_text}"
    if key.kind == "bool":
        return "true/false"
    if key.kind == "str":
        return "text"
    if key.kind == "map-int":
        ids = "/".join(key.ids) if key.ids else "id"
        return f"mapping {ids} -> whole number {key.range_text}"
    if key.kind == "list-str":
        return "list of texts"
    return f"list of whole numbers {key.range_text}"


def state_help(keys: Sequence[StateKey]) -> list[str]:
    """One line per key: name, history or current, value type and range, meaning, source."""
    lines = []
    for k in keys:
        when = "history" if k.history else "current"
        src = f" ({k.source})" if k.source else ""
        lines.append(f"{k.name} ({when}; {_kind_text(k)}, e.g. {k.placeholder}): {k.meaning}{src}")
    return lines
