"""Units defined by the player: a draft of an entry for a roster's ``custom:`` list, checked
as it is typed by the same code that checks a catalog (the system's own profile parser
included), and added as one undoable edit.

The builder's form (:mod:`armybuilder.tui.screens.unitform`) is a thin view of this module; a
script can use it the same way. Nothing here imports Textual.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .model.catalog import ProfileType
    from .session import EditSession


@dataclass
class Draft:
    """What the form holds: every field as typed (text), turned into an entry by
    :meth:`entry`."""

    name: str = ""
    type: str = "model"
    categories: str = ""
    profile_type: str = ""
    #: Whether each selection of it records an experience level.
    experience: bool = False
    characteristics: dict[str, str] = field(default_factory=dict)
    costs: dict[str, str] = field(default_factory=dict)

    def entry(self, entry_id: str) -> dict[str, Any]:
        """The entry as the roster's ``custom: entries:`` list will hold it."""
        out: dict[str, Any] = {"id": entry_id, "name": self.name.strip(), "type": self.type}
        cats = [c.strip() for c in self.categories.split(",") if c.strip()]
        if cats:
            out["categories"] = cats
        if self.experience:
            out["experience"] = True
        costs: dict[str, Any] = {}
        for ct, text in self.costs.items():
            if text.strip():
                costs[ct] = _number(text.strip())
        if costs:
            out["costs"] = costs
        chars = {k: _scalar(v.strip()) for k, v in self.characteristics.items() if v.strip()}
        if self.profile_type:
            out["profiles"] = [{"type": self.profile_type, "characteristics": chars}]
        return out


def _number(text: str) -> Any:
    try:
        value = float(text)
    except ValueError:
        return text  # kept as typed: the check says what is wrong with it
    return int(value) if value.is_integer() else value


def _scalar(text: str) -> Any:
    """A characteristic as a catalog file would hold it: whole numbers as numbers, the rest
    as text (``+1`` stays text: the system's parser reads signs)."""
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    return text


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "unit"


def new_id(session: EditSession, name: str) -> str:
    """An id for a new entry named ``name`` that no entry of the catalog or roster has."""
    index = session.index
    base = f"my-{slug(name)}"
    taken = set(index.entries) | set(index.shared) | set(_custom_ids(session))
    entry_id, n = base, 2
    while entry_id in taken:
        entry_id, n = f"{base}-{n}", n + 1
    return entry_id


def _custom(session: EditSession) -> dict[str, Any]:
    from .yamlio import to_plain

    raw = to_plain(session.node(()).get("custom"))
    return dict(raw) if isinstance(raw, dict) else {}


def _custom_ids(session: EditSession) -> list[str]:
    custom = _custom(session)
    return [
        str(item.get("id"))
        for key in ("entries", "shared_entries")
        for item in custom.get(key) or []
        if isinstance(item, dict) and item.get("id")
    ]


def profile_types(session: EditSession) -> dict[str, ProfileType]:
    """The stat lines this system knows (soldier, vehicle, weapon...), by id."""
    return dict(session.index.profile_types)


def with_draft(session: EditSession, entry: dict[str, Any]) -> dict[str, Any]:
    """The roster's ``custom:`` with ``entry`` added at the end of its ``entries``."""
    custom = _custom(session)
    entries = list(custom.get("entries") or [])
    entries.append(entry)
    custom["entries"] = entries
    return custom


def check(session: EditSession, draft: Draft) -> list[tuple[str, str]]:
    """What is wrong with the draft, as (field, message): ``field`` is ``name``, ``type``,
    ``categories``, ``cost:<id>``, a characteristic's id, or ``""`` for the entry as a whole.
    The checks are those a catalog file gets, the game system's own included."""
    from .catalog import custom_catalog

    problems: list[tuple[str, str]] = []
    if not draft.name.strip():
        problems.append(("name", "a unit needs a name"))
    for ct, text in draft.costs.items():
        if text.strip() and not isinstance(_number(text.strip()), int | float):
            problems.append((f"cost:{ct}", f"{text.strip()!r} is not a number"))
    entry = draft.entry(new_id(session, draft.name or "unit"))
    custom = with_draft(session, entry)
    position = len(custom["entries"]) - 1
    here = session.path or Path("roster.yaml")
    _, found = custom_catalog(custom, here, session.system, session.roster.faction)
    for loc, message in found:
        if loc[:2] != ["entries", position]:
            continue  # about the roster's other custom entries, not this one
        message = _plain(message, entry["name"])
        where = _field_of(loc[2:], draft)
        first = message.split(" ", 1)[0]
        if not where and first in draft.characteristics:
            where = first  # "morale should be a whole number"
        if where.startswith("cost:") and any(w == where for w, _ in problems):
            continue  # said above, in the form's own words
        problems.append((where, message))
    return problems


def _field_of(loc: list[str | int], draft: Draft) -> str:
    if not loc:
        return ""
    head = loc[0]
    if head == "profiles":
        for part in reversed(loc):
            if isinstance(part, str) and part in draft.characteristics:
                return part
        return ""
    if head == "costs" and len(loc) > 1:
        return f"cost:{loc[1]}"
    return str(head) if head in {"name", "type", "categories"} else ""


def _plain(message: str, name: str) -> str:
    """A check's message without the entry's name in front (the form is about it)."""
    prefix = f"{name}: "
    return message[len(prefix) :] if name and message.startswith(prefix) else message


def add(session: EditSession, draft: Draft) -> str:
    """Add the draft to the roster's ``custom:`` entries (one undoable step); returns its id.
    Refused (:class:`~armybuilder.session.EditError`) while the draft has problems."""
    from .session import EditError, SetKey

    problems = check(session, draft)
    if problems:
        where, message = problems[0]
        raise EditError(f"{where + ': ' if where else ''}{message}")
    entry_id = new_id(session, draft.name)
    custom = with_draft(session, draft.entry(entry_id))
    session.apply(f"Define {draft.name.strip()}", [SetKey((), "custom", custom)], (), ())
    return entry_id
