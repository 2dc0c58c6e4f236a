"""The editing session: one roster being edited, as the TUI (or any other front end) drives it.

An :class:`EditSession` holds a :class:`~armybuilder.rosters.Roster` loaded for editing and the
:class:`~armybuilder.catalogs.GameSystem` it belongs to, and offers the edits a player makes
(add an entry with its default choices, remove, duplicate, move, rename, set a count, an
experience level or notes, swap the choice of a group, set the roster's name and cost limits).
It keeps what a front end needs around those edits:

* **validation**: :meth:`EditSession.evaluate` re-validates the roster after an edit and caches
  the :class:`~armybuilder.rules.Evaluation` until the next one; :meth:`EditSession.snapshot`
  and :meth:`EditSession.evaluate_snapshot` let a front end validate a large roster off its
  event loop while the user keeps editing;
* **undo and redo**, many steps: every edit is a list of primitive operations on the roster
  document (:class:`Insert`, :class:`Delete`, :class:`SetKey`, :class:`Move`), each of which
  returns its inverse when applied. Undo re-inserts the very objects it removed, so comments
  and formatting come back too;
* **unsaved changes**: :attr:`EditSession.dirty` is true when the roster differs from the last
  save (undoing back to the saved state clears it);
* **a recovery journal**: from the first edit on, every operation is appended to a journal in
  the user data folder (``<user data>/recovery/``), next to the text the edits started from.
  After a crash or a killed terminal, :func:`find_recovery` finds it when the roster is opened
  again and :meth:`EditSession.recover` replays it. Appending one line per edit costs the same
  for a regiment as for a squad, where rewriting the whole roster would take half a second;
* **recent files** (:class:`RecentFiles`) and **exports** (:func:`export_pdf`,
  :func:`export_text`), the latter through :mod:`armybuilder.render` when it is installed.

Nothing here imports Textual. Locations (``Loc``) are the roster's own: tuples such as
``("selections", 0, "selections", 2)``; ``()`` is the roster itself.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import inspect
import itertools
import json
import os
import re
import threading
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import ArmybuilderError
from .paths import user_data_dir

# The roster machinery (ruamel.yaml, pydantic models) is imported where it is used, so that
# the TUI's home screen (recent files, recovery journals) shows before it is loaded.
if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

    from .catalogs import CatalogIndex, Child, GameSystem, Library
    from .model.catalog import Constraint, Entry, ForceEntry, Group
    from .rosters import ForceData, Roster
    from .rules.engine import Evaluation, Node, SubtreeMemo
    from .rules.state import StateKey

__all__ = [
    "Delete",
    "Edit",
    "EditError",
    "EditSession",
    "ExportUnavailableError",
    "Insert",
    "Limit",
    "Move",
    "OptionInfo",
    "RecentEntry",
    "RecentFiles",
    "RecoveryInfo",
    "SetKey",
    "Slot",
    "UnitSummary",
    "clean_recovery",
    "costs_text",
    "export_pdf",
    "export_text",
    "find_recoveries",
    "find_recovery",
    "limit_text",
    "list_recoveries",
    "new_roster",
    "plain_text",
    "sniff_roster",
    "state_warnings",
    "unit_summary",
]


class EditError(ArmybuilderError):
    """An edit cannot be made (no such selection, not an option there, a bad value)."""


class ExportUnavailableError(ArmybuilderError):
    """The export asked for is not installed in this version."""


# =========================================================================== operations
#
# Primitive, invertible operations on a round-trip roster document. ``parent`` is the location
# of the mapping that owns a ``selections`` list (``()`` for the roster), ``index`` a position
# in that list. Applying an operation returns the operation that undoes it.


@dataclass(frozen=True)
class Insert:
    """Insert ``node`` into ``parent``'s selections at ``index`` (creating the list).
    ``key``: the list (``selections``, or ``forces`` for a force of a roster of several)."""

    parent: Loc
    index: int
    node: Any
    comment: Any = None
    key: str = "selections"


@dataclass(frozen=True)
class Delete:
    """Remove the selection at ``index`` of ``parent``'s selections.

    ``drop``: remove the ``selections`` key when the list is left empty (undoes an insert that
    created it).
    """

    parent: Loc
    index: int
    drop: bool = False
    key: str = "selections"


@dataclass(frozen=True)
class SetKey:
    """Set ``key`` of the mapping at ``loc`` to ``value``; ``None`` deletes the key.

    ``position``: where a key that is added goes (``None``: the usual place, before
    ``selections``). ``comment``: ruamel's comment tokens of the key, restored on undo.
    """

    loc: Loc
    key: str
    value: Any
    position: int | None = None
    comment: Any = None


@dataclass(frozen=True)
class Move:
    """Move the selection at ``index`` of ``parent``'s selections to position ``to``."""

    parent: Loc
    index: int
    to: int
    key: str = "selections"


Op = Insert | Delete | SetKey | Move
Loc = tuple[str | int, ...]

#: Where keys go in a new selection (armybuilder.rosters.KNOWN_SELECTION_KEYS).
_KEY_ORDER = {
    k: i
    for i, k in enumerate(("entry", "count", "name", "experience", "notes", "state", "selections"))
}
_ROSTER_KEY_ORDER = {
    k: i for i, k in enumerate(("format", "system", "faction", "name", "limits", "force", "notes"))
}


def _node_at(doc: Any, loc: Sequence[str | int]) -> Any:
    node = doc
    for step in loc:
        node = node[step]
    return node


def _owner(doc: Any, parent: Loc) -> Any:
    try:
        owner = _node_at(doc, parent)
    except (KeyError, IndexError, TypeError):
        raise EditError(f"no selection at {_fmt(parent)}") from None
    if not isinstance(owner, dict):
        raise EditError(f"the selection at {_fmt(parent)} is not a mapping; it cannot be edited")
    return owner


def _fmt(loc: Sequence[str | int]) -> str:
    out = ""
    for step in loc:
        out += f"[{step}]" if isinstance(step, int) else ("." if out else "") + step
    return out or "the roster"


def _key_position(mapping: Any, key: str, order: dict[str, int]) -> int:
    """Where a new key goes: after the keys that usually come before it."""
    rank = order.get(key, len(order))
    keys = list(mapping.keys())
    for i, k in enumerate(keys):
        if order.get(str(k), len(order) - 1 if k != "selections" else len(order) + 1) > rank:
            return i
    return len(keys)


def _commented(value: Any) -> Any:
    """Plain data as round-trip nodes (so that it dumps in block style, in order)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    if isinstance(value, CommentedMap | CommentedSeq):
        return value
    if isinstance(value, dict):
        m = CommentedMap()
        for k, v in value.items():
            m[k] = _commented(v)
        return m
    if isinstance(value, list):
        return CommentedSeq(_commented(v) for v in value)
    return value


def _normalised(op: Op) -> Op:
    """``op`` with plain dicts and lists in its value turned into round-trip nodes (so that
    the document and its recovered copy hold the same kinds of objects)."""
    if isinstance(op, SetKey) and isinstance(op.value, dict | list):
        return dataclasses.replace(op, value=_commented(op.value))
    if isinstance(op, Insert) and isinstance(op.node, dict | list):
        return dataclasses.replace(op, node=_commented(op.node))
    return op


def apply_op(doc: Any, op: Op) -> Op:
    """Apply ``op`` to a round-trip roster document; returns its inverse."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    where = op.loc if isinstance(op, SetKey) else (*op.parent, op.key)
    unshare(doc, where)
    if isinstance(op, Insert):
        owner = _owner(doc, op.parent)
        seq = owner.get(op.key)
        created = False
        if seq is None:
            seq = CommentedSeq()
            order = _ROSTER_KEY_ORDER if not op.parent else _KEY_ORDER
            owner.insert(_key_position(owner, op.key, order), op.key, seq)
            created = True
        if not isinstance(seq, list):
            raise EditError(f"`{op.key}` of {_fmt(op.parent)} is not a list; fix it in the file")
        if not 0 <= op.index <= len(seq):
            raise EditError(f"no position {op.index} in {_fmt((*op.parent, op.key))}")
        _take_trailing(op.node)  # a copy's comments about what followed the original
        moved = _take_trailing(seq[op.index - 1]) if op.index > 0 else None
        seq.insert(op.index, op.node)
        _give_trailing(op.node, moved)
        if op.comment is not None and isinstance(seq, CommentedSeq):
            seq.ca.items[op.index] = op.comment
        return Delete(op.parent, op.index, drop=created, key=op.key)
    if isinstance(op, Delete):
        owner = _owner(doc, op.parent)
        seq = owner.get(op.key)
        if not isinstance(seq, list) or not 0 <= op.index < len(seq):
            raise EditError(f"no selection at {_fmt((*op.parent, op.key, op.index))}")
        node = seq[op.index]
        comment = seq.ca.items.get(op.index) if isinstance(seq, CommentedSeq) else None
        _detach(owner, seq, op.index, op.key)
        if op.drop and not seq:
            del owner[op.key]
        return Insert(op.parent, op.index, node, comment, op.key)
    if isinstance(op, Move):
        owner = _owner(doc, op.parent)
        seq = owner.get(op.key)
        n = len(seq) if isinstance(seq, list) else 0
        if not (0 <= op.index < n and 0 <= op.to < n):
            raise EditError(f"cannot move {_fmt((*op.parent, op.key, op.index))}")
        node = seq[op.index]
        comment = seq.ca.items.get(op.index) if isinstance(seq, CommentedSeq) else None
        _detach(owner, seq, op.index, op.key)
        moved = _take_trailing(seq[op.to - 1]) if op.to > 0 else None
        seq.insert(op.to, node)
        _give_trailing(node, moved)
        if comment is not None:
            seq.ca.items[op.to] = comment
        return Move(op.parent, op.to, op.index, op.key)
    # SetKey
    mapping = doc if not op.loc else _owner(doc, op.loc)
    own_keys = [k for k in mapping if _own(mapping, k)]
    own = op.key in own_keys
    merged = op.key in mapping and not own
    old = mapping[op.key] if own else None
    pos = own_keys.index(op.key) if own else None
    comment = mapping.ca.items.get(op.key) if isinstance(mapping, CommentedMap) else None
    if op.value is None:
        if merged:
            raise EditError(
                f"`{op.key}` of {_fmt(op.loc)} comes from a `<<:` merge key in the file; "
                "set another value instead, or edit the merged mapping in the file"
            )
        if own:
            last = own_keys[-1] == op.key
            moved = _take_trailing(mapping) if last else None
            del mapping[op.key]
            _restore_merged(mapping, op.key)
            _give_trailing(mapping, moved)
    elif own:
        mapping[op.key] = op.value
    else:
        order = _ROSTER_KEY_ORDER if not op.loc else _KEY_ORDER
        at = op.position if op.position is not None else _key_position(mapping, op.key, order)
        at = min(at, len(own_keys))
        # Comments after the last key are about what follows the mapping: they stay last.
        moved = _take_trailing(mapping) if at == len(own_keys) else None
        if isinstance(mapping, CommentedMap):
            mapping.insert(at, op.key, op.value)
        else:
            mapping[op.key] = op.value
        if op.comment is not None:
            mapping.ca.items[op.key] = op.comment
        _give_trailing(mapping, moved)
    return SetKey(op.loc, op.key, old, pos, comment)


def _last_slot(node: Any) -> tuple[Any, Any, int] | None:
    """Where ruamel keeps the comment lines written after ``node`` (block style): the comment
    token list of its last scalar, as (``ca.items``, key, index in the list)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    while True:
        if isinstance(node, CommentedMap):
            keys = [k for k in node if _own(node, k)]
            if not keys:
                return None
            key: Any = keys[-1]
            index = 2
        elif isinstance(node, CommentedSeq):
            if not len(node):
                return None
            key, index = len(node) - 1, 0
        else:
            return None
        value = node[key]
        if (
            isinstance(value, CommentedMap | CommentedSeq)
            and len(value)
            and not value.fa.flow_style()
        ):
            node = value
            continue
        return node.ca.items, key, index


def _take_trailing(node: Any) -> str | None:
    """Remove and return the whole comment lines after ``node`` (not its end-of-line
    comment): they are about what follows it."""
    slot = _last_slot(node)
    if slot is None:
        return None
    items, key, index = slot
    tokens = items.get(key)
    token: Any = tokens[index] if tokens is not None and len(tokens) > index else None
    value = getattr(token, "value", None)
    if not isinstance(value, str) or "\n" not in value:
        return None
    cut = value.index("\n") + 1
    head, rest = value[:cut], value[cut:]
    if not rest.strip():
        return None
    # Comment lines indented like the node's own keys are about the node: they stay.
    col = getattr(getattr(node, "lc", None), "col", None)
    lines = rest.splitlines(keepends=True)
    first = 0
    if isinstance(col, int):
        first = next(
            (
                i
                for i, line in enumerate(lines)
                if line.strip() and len(line) - len(line.lstrip(" ")) < col
            ),
            len(lines),
        )
        while first > 0 and not lines[first - 1].strip():
            first -= 1
    keep, move = "".join(lines[:first]), "".join(lines[first:])
    if not move.strip():
        return None
    if (head + keep).strip():
        token.value = head + keep
    else:
        tokens[index] = None
    return move


def _give_trailing(node: Any, lines: str | None) -> None:
    """Put comment lines (from :func:`_take_trailing`) after ``node``."""
    if not lines:
        return
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    slot = _last_slot(node)
    if slot is None:
        return
    items, key, index = slot
    tokens = items.get(key)
    if tokens is None:
        tokens = items[key] = [None] * (4 if index == 2 else 2)
    while len(tokens) <= index:
        tokens.append(None)
    token = tokens[index]
    if token is not None and isinstance(getattr(token, "value", None), str):
        token.value = (token.value if token.value.endswith("\n") else token.value + "\n") + lines
    else:
        tokens[index] = CommentToken("\n" + lines, CommentMark(0), None)


def _detach(owner: Any, seq: Any, index: int, key: str = "selections") -> None:
    """Remove item ``index`` of ``seq`` (``owner[key]``), keeping the comment lines
    above the next item."""
    moved = _take_trailing(seq[index])
    del seq[index]
    if moved is None:
        return
    if index > 0:
        _give_trailing(seq[index - 1], moved)
    elif len(seq):
        _give_after_key(owner, key, moved)


def _give_after_key(owner: Any, key: str, lines: str) -> None:
    """Put comment lines right after the line of ``key:`` (above its list's first item)."""
    from ruamel.yaml.error import CommentMark
    from ruamel.yaml.tokens import CommentToken

    items = getattr(getattr(owner, "ca", None), "items", None)
    if items is None:
        return
    tokens = items.get(key)
    if tokens is None:
        tokens = items[key] = [None, None, None, None]
    while len(tokens) < 3:
        tokens.append(None)
    token = tokens[2]
    if token is not None and isinstance(getattr(token, "value", None), str):
        token.value = (token.value if token.value.endswith("\n") else token.value + "\n") + lines
    else:
        tokens[2] = CommentToken("\n" + lines, CommentMark(0), None)


def _own(mapping: Any, key: Any) -> bool:
    """Whether ``key`` is written in ``mapping`` itself (not brought in by a ``<<:`` merge)."""
    ok = getattr(mapping, "_ok", None)
    if ok is None or not getattr(mapping, "merge", None):
        return key in mapping
    return key in ok


def _restore_merged(mapping: Any, key: Any) -> None:
    """After an own key was deleted, show the value a ``<<:`` merge gives it again."""
    for _, source in getattr(mapping, "merge", None) or ():
        if key in source:
            mapping.update_key_value(key)
            return


def _anchored(node: Any) -> bool:
    anchor = getattr(node, "anchor", None)
    return getattr(anchor, "value", None) is not None


def _occurrences(doc: Any, target: Any) -> int:
    """How many places of ``doc`` hold the very object ``target`` (aliases share objects)."""
    count = 0
    stack = [doc]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node is target:
            count += 1
            continue
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, dict):
            stack.extend(v for k, v in node.items() if _own(node, k))
            for _, source in getattr(node, "merge", None) or ():
                stack.append(source)
        elif isinstance(node, list):
            stack.extend(node)
    return count


def _clear_anchors(node: Any) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if _anchored(n):
            n.anchor.value = None
            n.anchor.always_dump = False
        if isinstance(n, dict):
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def _unmerge(node: Any) -> None:
    """Make the keys a ``<<:`` merge brings into a copied mapping its own (the copy keeps
    the same values, without referring to the original's anchors)."""
    from ruamel.yaml.comments import merge_attrib

    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, dict):
            merge = getattr(n, merge_attrib, None)
            own: Any = getattr(n, "_ok", None)
            if merge and own is not None:
                setattr(n, merge_attrib, type(merge)())
                own.update(n.keys())
            stack.extend(n.values())
        elif isinstance(n, list):
            stack.extend(n)


def unshare(doc: Any, loc: Sequence[str | int]) -> None:
    """Make the nodes on the way to ``loc`` the selection's own before it is edited.

    In a file with anchors and aliases (``&a`` ... ``*a``) or merge keys (``<<: *a``), two
    selections can share one mapping; editing one must not change its twin. A shared node on
    the path is replaced, at this place only, by a copy (without anchors): the other places
    keep the original.
    """
    node = doc
    for step in loc:
        try:
            child = node[step]
        except (KeyError, IndexError, TypeError):
            return
        if isinstance(child, dict | list):
            shared = (isinstance(node, dict) and not _own(node, step)) or (
                _anchored(child) and _occurrences(doc, child) > 1
            )
            if shared:
                child = copy.deepcopy(child)
                _clear_anchors(child)
                node[step] = child
        node = child


def _changed_at(op: Op) -> tuple[str, Loc, int]:
    """What an operation changes: ``("header", (), 0)``; ``("list", parent, first index that
    shifts)`` for a selection added, removed or moved in ``parent``'s list (``()``: the top
    level); or ``("subtree", loc, 0)`` for a key set in the selection at ``loc``."""
    if isinstance(op, SetKey):
        if not op.loc or op.loc[0] != "selections":
            return "header", (), 0
        return "subtree", op.loc, 0
    if op.key != "selections" or (op.parent and op.parent[0] != "selections"):
        return "header", (), 0  # forces (a roster of several): read again whole
    return "list", op.parent, min(op.index, op.to) if isinstance(op, Move) else op.index


def encode_value(value: Any) -> str:
    """A value of a roster document as YAML text, for the recovery journal.

    YAML records everything a roster can hold (dates, binary values, sets, keys that are not
    text, comments and styles), which JSON cannot. Raises :class:`EditError` for a value that
    cannot be written.
    """
    from ruamel.yaml.comments import CommentedMap

    from .yamlio import dump_round_trip

    box = CommentedMap()
    box["v"] = value
    try:
        return dump_round_trip(box)
    except Exception as exc:  # ruamel raises several kinds for values it cannot represent
        raise EditError(f"this value cannot be saved in a roster file: {exc}") from None


def decode_value(text: str) -> Any:
    """The inverse of :func:`encode_value` (raises ``ValueError`` for anything else)."""
    from .errors import InputError
    from .yamlio import load_round_trip

    try:
        box = load_round_trip(text, "recovery journal")
    except InputError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(box, dict) or "v" not in box:
        raise ValueError("not a journal value")
    return box["v"]


def op_to_json(op: Op) -> dict[str, Any]:
    """An operation as JSON-ready data (for the recovery journal); values are YAML text
    (:func:`encode_value`). Raises :class:`EditError` for a value that cannot be recorded."""
    listed: dict[str, Any] = (
        {} if isinstance(op, SetKey) or op.key == "selections" else {"list": op.key}
    )
    if isinstance(op, Insert):
        return {
            "op": "insert",
            "parent": list(op.parent),
            "index": op.index,
            "yaml": encode_value(op.node),
            **listed,
        }
    if isinstance(op, Delete):
        return {
            "op": "delete",
            "parent": list(op.parent),
            "index": op.index,
            "drop": op.drop,
            **listed,
        }
    if isinstance(op, Move):
        return {
            "op": "move",
            "parent": list(op.parent),
            "index": op.index,
            "to": op.to,
            **listed,
        }
    record: dict[str, Any] = {"op": "set", "loc": list(op.loc), "key": op.key}
    value = op.value
    if (
        value is None
        or type(value) in (str, int, bool)
        or (type(value) is float and value == value and abs(value) != float("inf"))
    ):
        record["value"] = value  # plain text and numbers: JSON holds them exactly, fast
    else:
        record["yaml"] = encode_value(value)
    record["position"] = op.position
    return record


def op_from_json(data: dict[str, Any]) -> Op:
    """The inverse of :func:`op_to_json` (raises ``ValueError`` for anything else). Journals
    of earlier versions (values as JSON) are read too."""
    kind = data.get("op")
    key = str(data.get("list", "selections"))
    if key not in ("selections", "forces"):
        raise ValueError(f"unknown list {key!r}")
    if kind == "insert":
        node = decode_value(data["yaml"]) if "yaml" in data else _commented(data["node"])
        return Insert(tuple(data["parent"]), int(data["index"]), node, key=key)
    if kind == "delete":
        return Delete(tuple(data["parent"]), int(data["index"]), bool(data.get("drop")), key)
    if kind == "move":
        return Move(tuple(data["parent"]), int(data["index"]), int(data["to"]), key)
    if kind == "set":
        pos = data.get("position")
        if "yaml" in data:
            value = decode_value(data["yaml"]) if data["yaml"] is not None else None
        else:
            value = _commented(data.get("value"))
        return SetKey(
            tuple(data["loc"]),
            str(data["key"]),
            value,
            int(pos) if pos is not None else None,
        )
    raise ValueError(f"unknown operation {kind!r}")


# =========================================================================== refreshing


def refresh_after(roster: Roster, ops: Sequence[Op]) -> None:
    """Bring the roster's parsed view up to date after ``ops`` changed its document.

    Only the subtrees that changed are parsed again: adding a marine to a squad re-reads that
    squad, not the regiment around it. Lists and the selections above a change are replaced,
    never changed in place, so an evaluation running on a :meth:`EditSession.snapshot` in
    another thread keeps a consistent view.
    """
    from .model.roster import RosterHeader
    from .yamlio import to_plain

    roster.dirty = True
    header = False
    lists: dict[Loc, int] = {}
    roots: list[Loc] = []
    for op in ops:
        kind, where, start = _changed_at(op)
        if kind == "header":
            header = True
        elif kind == "list":
            lists[where] = min(start, lists.get(where, start))
        else:
            roots.append(where)
    if header:
        data = {k: v for k, v in roster.doc.items() if k not in ("selections", "custom", "forces")}
        roster.header = RosterHeader.model_validate(to_plain(data))
    if header or roster.forces is not None:
        # A roster of several forces (or one becoming so) is read again whole.
        roster.refresh()
        return
    try:
        _reparse(roster, lists, roots)
    except (IndexError, KeyError, TypeError, ValueError):
        roster.refresh()  # the parsed view did not match the document: read it all again


def _reparse(roster: Roster, lists: dict[Loc, int], roots: list[Loc]) -> None:
    """Read again the selections at ``roots`` (their subtrees) and, for each ``parent`` in
    ``lists``, its selections from the given index on (those whose place changed)."""
    from .rosters import parse_selection

    def covered(loc: Loc, inclusive: bool) -> bool:
        """Is ``loc`` inside something read again anyway (``inclusive``: or that itself)?"""
        for parent, start in lists.items():
            n = len(parent)
            if len(loc) > n + 1 and loc[:n] == parent and int(loc[n + 1]) >= start:
                return True
        return any(
            (len(loc) > len(r) or (inclusive and loc == r)) and loc[: len(r)] == r for r in roots
        )

    work: list[tuple[Loc, int | None]] = [
        (loc, None) for loc in set(roots) if not covered(loc, False)
    ]
    work += [(parent, start) for parent, start in lists.items() if not covered(parent, True)]
    for loc, start in sorted(work, key=lambda w: len(w[0])):  # outer changes first
        node = _node_at(roster.doc, loc) if loc else roster.doc
        if start is None:
            roster.selections = _splice(roster.selections, loc, parse_selection(node, loc))
            continue
        seq = node.get("selections") if isinstance(node, dict) else None
        if seq is None:
            seq = []
        if not isinstance(seq, list):
            raise TypeError(f"selections at {_fmt(loc)} is not a list")
        old = roster.selections if not loc else _selection_at(roster.selections, loc).children
        if len(old) < start:
            raise IndexError(start)
        kids = old[:start] + [
            parse_selection(seq[i], (*loc, "selections", i)) for i in range(start, len(seq))
        ]
        if loc:
            parent = dataclasses.replace(_selection_at(roster.selections, loc), children=kids)
            roster.selections = _splice(roster.selections, loc, parent)
        else:
            roster.selections = kids


def _selection_at(sels: list[Any], loc: Loc) -> Any:
    """The parsed selection at ``loc`` (raises when there is none)."""
    node: Any = None
    for i in range(1, len(loc), 2):
        if loc[i - 1] != "selections":
            raise KeyError(loc)
        node = sels[int(loc[i])]
        sels = node.children
    if node is None:
        raise KeyError(loc)
    return node


def _splice(sels: list[Any], rel: Loc, new: Any) -> list[Any]:
    """``sels`` with the selection at ``rel`` (``("selections", i, ...)``) replaced by ``new``;
    the selections on the way are copied, not changed."""
    i = int(rel[1])
    out = list(sels)
    if len(rel) == 2:
        out[i] = new
    else:
        out[i] = dataclasses.replace(out[i], children=_splice(out[i].children, rel[2:], new))
    return out


# =========================================================================== entries


def build_selection(
    index: CatalogIndex, entry: Entry, count: int = 1, name: str | None = None
) -> CommentedMap:
    """A new selection of ``entry`` with its groups' default choices, recursively.

    The same result as :func:`armybuilder.editing.add_entry`, built in memory so that it goes
    into the roster in one step.
    """
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from .catalogs import walk_groups

    node = CommentedMap()
    node["entry"] = entry.id
    if count != 1:
        node["count"] = count
    if name:
        node["name"] = name
    children = CommentedSeq()
    for group in walk_groups(entry.groups):
        if group.default:
            child = index.child(entry, group.default)
            if child is not None:
                children.append(build_selection(index, child.entry))
            else:
                sub = CommentedMap()
                sub["entry"] = group.default
                children.append(sub)
    if children:
        node["selections"] = children
    return node


# =========================================================================== new rosters


def new_roster(
    system: GameSystem,
    faction_id: str,
    name: str | None = None,
    limits: dict[str, float] | None = None,
    schema_url: str | None = None,
) -> Roster:
    """A fresh roster as ``armybuilder new`` writes it and the builder creates it (one code
    path for both): the ``yaml-language-server`` schema line first, so that editors complete
    and check the file, then a comment saying what can be selected at the top level.

    ``name``: default ``New <faction> roster``; ``schema_url``: default the bundled roster
    schema. Raises ``UnknownFactionError`` for a faction the system does not have.
    """
    from . import __version__
    from .paths import schema_path
    from .rosters import Roster

    index = system.index(faction_id)
    name = name or f"New {index.faction.name} roster"
    options = ", ".join(f"{c.entry.id} ({c.entry.name})" for c in index.roots) or (
        "nothing yet: this faction's catalog has no units; add your own (README, 'Writing your "
        "own catalog') or define them in this roster under `custom:`"
    )
    comment = (
        f"{system.name} roster ({index.faction.name}), made by armybuilder {__version__}.\n"
        f"Add selections below; at the top level you can select: {options}.\n"
        f"`armybuilder catalogs {system.id} {index.faction.id}` lists every entry; "
        "`armybuilder validate FILE` checks the list."
    )
    schema = schema_url or schema_path("roster").as_uri()
    return Roster.new(system.id, index.faction.id, name, limits, schema=schema, comment=comment)


# =========================================================================== recovery


def _recovery_dir() -> Path:
    return user_data_dir() / "recovery"


def _recovery_key(path: Path) -> str:
    return hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:24]


def _pid_alive(pid: int) -> bool:
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


@dataclass
class RecoveryInfo:
    """A recovery journal left behind by a session that did not end normally.

    Each session (each window) keeps its own journal, so one roster can have several.
    """

    journal: Path
    path: Path | None
    name: str
    system: str
    faction: str
    base: str
    ops: list[Op]
    started: float
    updated: float
    pid: int
    #: The file on disk is no longer the text the edits started from.
    file_changed: bool = False
    #: The base text itself holds unsaved changes.
    unsaved_base: bool = False
    #: How the file was written: with a UTF-8 byte order mark, and its line ends.
    bom: bool = False
    newline: str | None = None
    #: Fingerprint of the file's bytes the base text was read from (``None``: unknown).
    disk_digest: str | None = None

    @property
    def worth_recovering(self) -> bool:
        return bool(self.ops) or self.unsaved_base

    @property
    def edits(self) -> int:
        return len(self.ops)

    @property
    def other_process_alive(self) -> bool:
        """The process that wrote the journal still runs (the roster is open elsewhere)."""
        return _pid_alive(self.pid)

    def discard(self) -> None:
        """Delete the journal."""
        self.journal.unlink(missing_ok=True)


def _disk_changed(path: Path, base: str, disk_digest: str | None, bom: bool) -> bool:
    """Whether the file at ``path`` is no longer what the journal's edits started from."""
    from .fileio import digest

    try:
        data = path.read_bytes()
    except OSError:
        return True
    if disk_digest is not None:
        return digest(data) != disk_digest
    # Journals of earlier versions: compare the text exactly (line ends included).
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8") != base
    except UnicodeDecodeError:
        return True


def _read_journal(journal: Path) -> RecoveryInfo | None:
    try:
        text = journal.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.split("\n")
    if not lines or not lines[0]:
        return None
    try:
        head = json.loads(lines[0])
    except ValueError:
        return None
    if not isinstance(head, dict) or head.get("kind") != "armybuilder-recovery":
        return None
    ops: list[Op] = []
    for line in lines[1:]:
        if not line:
            continue
        try:
            ops.append(op_from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            break  # a torn last line (the process died while writing it)
    path = Path(head["path"]) if head.get("path") else None
    base = str(head.get("base", ""))
    digest = head.get("disk_digest")
    digest = digest if isinstance(digest, str) else None
    bom = bool(head.get("bom"))
    changed = _disk_changed(path, base, digest, bom) if path is not None else False
    newline = head.get("newline")
    try:
        updated = journal.stat().st_mtime
    except OSError:
        updated = 0.0
    return RecoveryInfo(
        journal=journal,
        path=path,
        name=str(head.get("name", "")),
        system=str(head.get("system", "")),
        faction=str(head.get("faction", "")),
        base=base,
        ops=ops,
        started=float(head.get("started", 0.0)),
        updated=updated,
        pid=int(head.get("pid", 0)),
        file_changed=changed,
        unsaved_base=bool(head.get("unsaved")),
        bom=bom,
        newline=newline if newline in ("\n", "\r\n") else None,
        disk_digest=digest,
    )


def _journals_of(path: Path) -> list[Path]:
    folder = _recovery_dir()
    if not folder.is_dir():
        return []
    key = _recovery_key(path)
    return [j for j in folder.glob(f"{key}*.jsonl") if j.name[len(key)] in ".-"]


def find_recoveries(path: Path | str) -> list[RecoveryInfo]:
    """Every recovery journal of the roster at ``path`` that holds unsaved edits (one per
    window that did not close normally), those of processes that no longer run first, then
    newest first."""
    found = []
    for journal in _journals_of(Path(path)):
        info = _read_journal(journal)
        if info is not None and info.worth_recovering:
            found.append(info)
    return sorted(found, key=lambda i: (i.other_process_alive, -i.updated))


def find_recovery(path: Path | str) -> RecoveryInfo | None:
    """The recovery journal of the roster at ``path`` to offer first (see
    :func:`find_recoveries`), if one holds unsaved edits."""
    found = find_recoveries(path)
    return found[0] if found else None


def list_recoveries() -> list[RecoveryInfo]:
    """Every journal with unsaved edits, newest first (rosters never saved included)."""
    folder = _recovery_dir()
    if not folder.is_dir():
        return []
    found = []
    for journal in folder.glob("*.jsonl"):
        info = _read_journal(journal)
        if info is not None and info.worth_recovering:
            found.append(info)
    return sorted(found, key=lambda i: i.updated, reverse=True)


def clean_recovery(path: Path | str) -> None:
    """Delete every recovery journal of the roster at ``path``."""
    for journal in _journals_of(Path(path)):
        journal.unlink(missing_ok=True)


class Journal:
    """The recovery journal of one session: a header line, then one line per operation.

    The header (written atomically) carries the roster text the edits start from; each
    operation is appended as one JSON line and flushed before the edit returns, so a killed
    process or terminal loses nothing. The sync to the disk itself (against a power cut) is
    left to a background thread, a moment later, so that an edit does not wait for the disk;
    closing the journal syncs it before returning. A line torn by a crash is ignored when the
    journal is read back. Each session has its own journal (two windows on one roster never
    write to the same one).
    """

    def __init__(self, key: str) -> None:
        self.path = _recovery_dir() / f"{key}.jsonl"
        self._fh: Any = None
        self.sync = True
        self._wake = threading.Event()
        self._syncer: threading.Thread | None = None

    @classmethod
    def for_roster(cls, path: Path | None, session_id: str) -> Journal:
        if path is None:
            return cls(f"untitled-{session_id}")
        return cls(f"{_recovery_key(path)}-{session_id}")

    @property
    def started(self) -> bool:
        return self._fh is not None

    def start(self, roster: Roster, base: str, unsaved: bool = False) -> None:
        """(Re)start the journal from ``base``, the text the next edits apply to.

        ``unsaved``: ``base`` itself holds unsaved changes (worth recovering without any
        operation after it).
        """
        self.close()
        from .fileio import atomic_write

        head = {
            "kind": "armybuilder-recovery",
            "version": 2,
            "path": str(roster.path.resolve()) if roster.path else None,
            "name": roster.name,
            "system": roster.system,
            "faction": roster.faction,
            "started": time.time(),
            "pid": os.getpid(),
            "unsaved": unsaved,
            "bom": roster.bom,
            "newline": roster.newline,
            "disk_digest": roster.disk_digest,
            "base": base,
        }
        atomic_write(self.path, json.dumps(head) + "\n")
        self._fh = self.path.open("a", encoding="utf-8", newline="\n")

    def append(self, ops: Sequence[Op]) -> None:
        self.append_lines([json.dumps(op_to_json(op)) for op in ops])

    def append_lines(self, lines: Sequence[str]) -> None:
        """Append encoded operations (see :func:`op_to_json`); on a failed write the journal
        is closed, so that the next edit starts a new one from the whole document."""
        if self._fh is None:
            return
        try:
            self._fh.write("".join(line + "\n" for line in lines))
            self._fh.flush()
        except (OSError, ValueError):
            self.close_quietly()
            raise
        if self.sync:
            if self._syncer is None or not self._syncer.is_alive():
                self._syncer = threading.Thread(
                    target=self._sync_loop, args=(self._fh,), name="journal-sync", daemon=True
                )
                self._syncer.start()
            self._wake.set()

    @property
    def orphaned(self) -> bool:
        """The journal file was removed under this session (another window recovered it):
        what is appended would be lost."""
        if self._fh is None:
            return False
        try:
            return os.fstat(self._fh.fileno()).st_nlink == 0
        except (OSError, ValueError):
            return True

    def close_quietly(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self.close()
        self._fh = None

    def _sync_loop(self, fh: Any) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()
            if fh.closed:
                return
            try:
                os.fsync(fh.fileno())
            except (OSError, ValueError):  # closed meanwhile: close() synced it
                return

    def close(self) -> None:
        fh = self._fh
        if fh is not None:
            self._fh = None
            if self.sync:
                with contextlib.suppress(OSError, ValueError):
                    os.fsync(fh.fileno())
            fh.close()
            self._wake.set()  # lets the sync thread end
            if self._syncer is not None:
                self._syncer.join(timeout=1)
                self._syncer = None

    def discard(self) -> None:
        self.close_quietly()
        self.path.unlink(missing_ok=True)


# =========================================================================== the session


@dataclass
class Edit:
    """One undoable step: the operations applied, in order, and their inverses."""

    label: str
    ops: list[Op]
    inverses: list[Op]
    #: The selection to show after undoing / redoing this edit.
    focus_before: Loc | None = None
    focus_after: Loc | None = None


#: Tokens that mark states of a document (the edit on top of the undo stack); 0 is "no edit".
_TOKENS = itertools.count(1)


def _token() -> int:
    return next(_TOKENS)


def _count_of(node: Any) -> int:
    n = node.get("count", 1) if isinstance(node, dict) else 1
    return n if isinstance(n, int) and not isinstance(n, bool) and n >= 1 else 1


@dataclass(frozen=True)
class Slot:
    """Where an entry added under a selection goes, as its choice groups see it
    (:meth:`EditSession.slot_for`)."""

    #: The group that decides (``None``: no group limit is reached).
    group: Group | None
    #: Positions of the choices the new one replaces (a pick-one group).
    replaces: list[int]
    #: Why it cannot be added (a group already full), else ``None``.
    full: str | None

    @property
    def swaps(self) -> bool:
        return bool(self.replaces)


def limit_text(minimum: int, maximum: int | None) -> str:
    """A range as a player reads it: ``exactly 1``, ``0-2``, ``at least 3``, ``any number``."""
    if maximum is None:
        return f"at least {minimum}" if minimum else "any number"
    if minimum == maximum:
        return f"exactly {maximum}"
    return f"{minimum}-{maximum}"


@dataclass(frozen=True)
class Limit:
    """How many of something are chosen where the player chooses, and how many the rules
    allow there (the catalog's constraints and group limits, modifiers applied)."""

    selected: int
    minimum: int = 0
    maximum: int | None = None

    @property
    def range_text(self) -> str:
        return limit_text(self.minimum, self.maximum)

    @property
    def count_text(self) -> str:
        """``6/7`` against a maximum, ``2, at least 3`` against a minimum alone, else
        ``3 chosen`` (``""`` for none chosen and no limit)."""
        if self.maximum is not None:
            return f"{self.selected}/{self.maximum}"
        if self.minimum:
            return f"{self.selected}, at least {self.minimum}"
        return f"{self.selected} chosen" if self.selected else ""

    @property
    def bounded(self) -> bool:
        return self.maximum is not None or self.minimum > 0


@dataclass(frozen=True)
class OptionInfo:
    """One catalog option under a selection, as the engine sees it there."""

    entry_id: str
    limit: Limit
    #: The cost of one added here with its default choices (modifiers and the rules
    #: module's extra costs applied), per cost type.
    costs: dict[str, float]


@dataclass(frozen=True)
class UnitSummary:
    """What a roster line says about a selection: its name, what it is, how many, its
    experience, its loadout (chosen weapons and upgrades) and its cost."""

    name: str
    #: The entry's name when a custom name stands in its place ("Pte Vasquez" is a Marine).
    entry_name: str
    count: int
    #: The experience level or class that applies ("" when it records none).
    experience: str
    loadout: tuple[str, ...]
    cost: str


def unit_summary(ev: Evaluation, node: Node) -> UnitSummary:
    """The facts a roster line shows about ``node``, as ``ev`` computes them.

    Experience: the class the rules module computes for it (a value keyed ``experience``:
    a text, or a mapping with a ``class``), else the level that applies to an entry that
    records experience (its own, or inherited). Loadout: its chosen upgrades (weapons,
    armour, kit), with counts.
    """
    name = ev.name(node)
    entry = node.entry
    entry_name = ""
    if entry is not None and node.data is not None and node.data.name:
        modified = str(ev.apply_modifiers(entry, "name", entry.name, node))
        entry_name = modified if modified != name else ""
    experience = ""
    computed = ev.value(node, "experience") if not node.is_root else None
    if isinstance(computed, dict) and computed.get("class"):
        experience = str(computed["class"])
    elif isinstance(computed, str):
        experience = computed
    elif entry is not None and ev.index.experience:
        own = node.data.experience if node.data is not None else None
        if entry.experience or own:
            level = ev.experience(node)
            experience = level.name if level is not None else ""
    loadout = tuple(
        ev.label(c)
        for c in node.children
        if c.entry is not None and c.entry.type == "upgrade" and not c.children
    )
    costs = ev.total_cost(node) if not node.is_root else ev.totals
    return UnitSummary(
        name, entry_name, node.count, experience, loadout, costs_text(ev.index, costs)
    )


def is_force_loc(loc: Sequence[str | int]) -> bool:
    """Whether ``loc`` names a force of a roster of several (``("forces", 0)``, or a child
    force ``("forces", 0, "forces", 1)``)."""
    return len(loc) >= 2 and loc[-2] == "forces" and isinstance(loc[-1], int)


def _ev_node(ev: Evaluation, loc: Loc) -> Node | None:
    node = ev.root
    for i in range(1, len(loc), 2):
        step = loc[i]
        kids = node.children
        if loc[i - 1] == "forces":
            kids = [c for c in kids if c.force is not None]
        if not isinstance(step, int) or step >= len(kids):
            return None
        node = kids[step]
    return node


def _parse_new(node: Any, loc: Loc) -> Any:
    from .rosters import parse_selection

    return parse_selection(node, loc)


def _scratch_node(
    index: CatalogIndex, data: Any, entry: Entry, group: Group | None, parent: Node
) -> Node:
    """An evaluated node for a selection not (yet) in the roster, under ``parent`` (which does
    not list it among its children): what-if costs."""
    from .rules.engine import Node

    node = Node(data, entry, group, parent, len(parent.children))
    for c in data.children:
        child = index.child(entry, c.entry) if c.entry else None
        if child is not None:
            node.children.append(_scratch_node(index, c, child.entry, child.group, node))
    return node


def _what_if(ev: Evaluation) -> Evaluation:
    """An evaluation sharing ``ev``'s tree with caches of its own, for what-if nodes (whose
    ids must not reach ``ev``'s caches)."""
    from .rules.engine import Evaluation

    return Evaluation(ev.roster, ev.index, ev.root, rules=ev.rules)


class EditSession:
    """A roster being edited. See the module docstring."""

    def __init__(
        self,
        roster: Roster,
        system: GameSystem,
        *,
        history_limit: int = 1000,
        autosave: bool = True,
    ) -> None:
        if not roster.round_trip:
            raise ValueError("an edit session needs a roster loaded with round_trip=True")
        self.roster = roster
        self.system = system
        self.history_limit = history_limit
        self.autosave = autosave
        self.session_id = uuid.uuid4().hex[:12]
        self.generation = 0
        self._undo: list[tuple[Edit, int]] = []
        self._redo: list[tuple[Edit, int]] = []
        self._saved_token = 0
        self._evaluation: Evaluation | None = None
        self._evaluation_generation = -1
        self._eval_lock = threading.Lock()
        # One evaluation at a time: each takes over parts of the previous one's tree.
        self._run_lock = threading.Lock()
        self._basis: tuple[int, SubtreeMemo] | None = None  # the latest generation evaluated
        #: Milliseconds the last evaluation took.
        self.last_eval_ms = 0.0
        #: Milliseconds the last edit took (document change and re-parse, not validation).
        self.last_edit_ms = 0.0
        self.journal = Journal.for_roster(roster.path, self.session_id)
        #: Figures the panes show (limits, what-if costs), per evaluation.
        self._figures: dict[Any, Any] = {}
        self._fresh_data: dict[int, tuple[Entry, Any]] = {}

    # ----------------------------------------------------------------- construction

    @classmethod
    def open(cls, path: Path | str, library: Library, **kw: Any) -> EditSession:
        """Open a roster file for editing.

        Raises :class:`~armybuilder.errors.RosterError` when the file cannot be read and
        ``UnknownSystemError`` / ``UnknownFactionError`` when its catalog is not installed.
        """
        from .rosters import Roster

        roster = Roster.from_file(path)
        system = library.system(roster.system)
        system.faction(roster.faction)
        roster.prepare_merge_base()  # so that a save keeps the user's own text, fast
        return cls(roster, system, **kw)

    @classmethod
    def new(
        cls,
        library: Library,
        system_id: str,
        faction_id: str,
        name: str,
        limits: dict[str, float] | None = None,
        **kw: Any,
    ) -> EditSession:
        """A fresh roster (not saved anywhere yet), made as ``armybuilder new`` makes it
        (:func:`new_roster`: the schema line and the comment on what can be selected)."""
        system = library.system(system_id)
        system.faction(faction_id)
        roster = new_roster(system, faction_id, name, limits or None)
        return cls(roster, system, **kw)

    @classmethod
    def recover(cls, info: RecoveryInfo, library: Library, **kw: Any) -> EditSession:
        """A session on the roster a recovery journal describes, its edits unsaved.

        The recovered edits form one undoable step, so undo gives back the file as saved.
        """
        from .rosters import Roster

        base = Roster.from_text(
            info.base, str(info.path) if info.path else "<recovered roster>", info.path
        )
        base.bom = info.bom
        if info.newline is not None:
            base.newline = info.newline
        # Saving checks the file is still the one the edits started from (not overwritten).
        base.disk_digest = info.disk_digest
        system = library.system(base.system)
        session = cls(base, system, **kw)
        if info.file_changed or info.unsaved_base or info.path is None:
            # What is on disk (if anything) is not where the edits started: unsaved even
            # once the recovered edits are undone.
            session._saved_token = -1
        if info.ops:
            session._apply("Recovered changes", list(info.ops), None, None)
        elif session.dirty:
            session._changed([], False)
        # Only now, with the edits safe in this session's own journal, the old one goes.
        info.discard()
        return session

    # ----------------------------------------------------------------- state

    @property
    def index(self) -> CatalogIndex:
        """The catalog the roster is validated against (with its own custom entries)."""
        ev = self._evaluation
        factions = self.roster.factions()
        if ev is not None and set(factions) <= {ev.index.faction.id, *ev.index.also}:
            return ev.index
        if len(factions) > 1:  # a force of another faction was just added
            return self.evaluate().index
        return ev.index if ev is not None else self.system.index(self.roster.faction)

    @property
    def path(self) -> Path | None:
        return self.roster.path

    @property
    def name(self) -> str:
        return self.roster.name

    @property
    def dirty(self) -> bool:
        """Unsaved changes?"""
        return self._state_token() != self._saved_token

    @property
    def is_new(self) -> bool:
        """Never saved to a file."""
        return self.roster.path is None

    def _state_token(self) -> int:
        return self._undo[-1][1] if self._undo else 0

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def undo_label(self) -> str | None:
        return self._undo[-1][0].label if self._undo else None

    @property
    def redo_label(self) -> str | None:
        return self._redo[-1][0].label if self._redo else None

    @property
    def history(self) -> list[str]:
        """Labels of the undoable edits, oldest first."""
        return [e.label for e, _ in self._undo]

    # ----------------------------------------------------------------- validation

    def evaluate(self) -> Evaluation:
        """The evaluation of the roster as it is now (computed once per edit)."""
        with self._eval_lock:
            if self._evaluation is not None and self._evaluation_generation == self.generation:
                return self._evaluation
            generation = self.generation
            roster = copy.copy(self.roster)
        ev = self.evaluate_snapshot(roster, generation)
        self.offer(generation, ev)
        return ev

    @property
    def evaluation(self) -> Evaluation | None:
        """The latest evaluation computed (it may be of an earlier generation)."""
        return self._evaluation

    @property
    def evaluation_is_current(self) -> bool:
        return self._evaluation is not None and self._evaluation_generation == self.generation

    @property
    def evaluation_generation(self) -> int:
        return self._evaluation_generation

    def snapshot(self) -> tuple[int, Roster]:
        """The current generation and a roster view that later edits do not change.

        Edits replace the roster's parsed lists rather than changing them, so a shallow copy
        is a consistent view for an evaluation in another thread.
        """
        return self.generation, copy.copy(self.roster)

    def evaluate_snapshot(self, roster: Roster, generation: int | None = None) -> Evaluation:
        """Evaluate a snapshot (safe to call from a worker thread; evaluations run one at a
        time). ``generation``: the one :meth:`snapshot` gave with it.

        What the latest evaluation found in the parts no edit has touched since is replayed.
        An evaluation of a newer generation also takes over the tree nodes of those parts (the
        previous evaluation is then superseded); without a generation, or for an older one,
        it builds its own.
        """
        from .rules.engine import SubtreeMemo, evaluate_roster

        with self._run_lock:
            t0 = time.perf_counter()
            basis = self._basis
            newer = generation is not None and (basis is None or generation > basis[0])
            memo = basis[1] if basis is not None else SubtreeMemo()
            ev = evaluate_roster(roster, self.system, memo, take_nodes=newer)
            if newer and generation is not None and ev.memo_out is not None:
                self._basis = (generation, ev.memo_out)
            self.last_eval_ms = 1000 * (time.perf_counter() - t0)
        return ev

    def offer(self, generation: int, ev: Evaluation) -> bool:
        """Keep an evaluation computed on a snapshot; ``True`` if it is of the current state."""
        with self._eval_lock:
            if generation >= self._evaluation_generation:
                self._evaluation = ev
                self._evaluation_generation = generation
            return generation == self.generation

    # ----------------------------------------------------------------- lookups

    def exists(self, loc: Loc) -> bool:
        """Is there a selection at ``loc``?"""
        if not loc:
            return True
        try:
            return isinstance(_node_at(self.roster.doc, loc), dict)
        except (KeyError, IndexError, TypeError):
            return False

    def node(self, loc: Loc) -> Any:
        """The document mapping at ``loc``."""
        return self.roster.doc if not loc else _owner(self.roster.doc, loc)

    def entry_at(self, loc: Loc) -> Entry | None:
        """The catalog entry of the selection at ``loc`` (``None``: the roster, or unknown)."""
        index = self.index
        entry: Entry | None = None
        for i in range(2, len(loc) + 1, 2):
            if loc[i - 2] == "forces":  # a force: what it holds is chosen as at the top
                entry = None
                continue
            try:
                node = _node_at(self.roster.doc, loc[:i])
            except (KeyError, IndexError, TypeError):
                return None
            child = index.child(entry, str(node.get("entry"))) if isinstance(node, dict) else None
            if child is None:
                return None
            entry = child.entry
        return entry

    def is_known(self, loc: Loc) -> bool:
        """The selection at ``loc`` (and every one above it) is in the catalog."""
        return not loc or self.entry_at(loc) is not None

    def options(self, loc: Loc) -> list[Child]:
        """What may be added under the selection at ``loc`` (the roster's top level for
        ``()``; a force's top level for a force's loc)."""
        if is_force_loc(loc):
            ids = self.force_entry_ids(loc)
            return [
                c for c in self.index.children(None) if not c.entry.hidden and c.entry.id in ids
            ]
        if loc and not self.is_known(loc):
            return []
        entry = self.entry_at(loc) if loc else None
        return [c for c in self.index.children(entry) if not c.entry.hidden]

    def children_locs(self, loc: Loc) -> list[Loc]:
        seq = self.node(loc).get("selections") if self.exists(loc) else None
        if not isinstance(seq, list):
            return []
        return [(*loc, "selections", i) for i in range(len(seq))]

    @staticmethod
    def parent_of(loc: Loc) -> Loc:
        return loc[:-2]

    # ----------------------------------------------------------------- applying

    def _apply(
        self,
        label: str,
        ops: list[Op],
        focus_before: Loc | None,
        focus_after: Loc | None,
    ) -> Edit:
        t0 = time.perf_counter()
        ops = [_normalised(op) for op in ops]
        # Before anything changes: a value that cannot be recorded is refused, and what is
        # applied is what the journal gives back (so recovery replays exactly these values).
        lines: list[str] = []
        if self.autosave:
            records = [op_to_json(op) for op in ops]
            lines = [json.dumps(r) for r in records]
            ops = [
                op_from_json(r) if r["op"] in ("insert", "set") else op
                for r, op in zip(records, ops, strict=True)
            ]
        applied: list[Op] = []
        inverses: list[Op] = []
        try:
            for op in ops:
                inverses.append(apply_op(self.roster.doc, op))
                applied.append(op)
        except Exception:
            for inv in reversed(inverses):  # leave the document as it was
                apply_op(self.roster.doc, inv)
            raise
        finally:
            if applied:
                refresh_after(self.roster, applied)
        edit = Edit(label, applied, inverses, focus_before, focus_after)
        was_dirty = self.dirty
        undo_before, redo_before = list(self._undo), list(self._redo)
        self._undo.append((edit, _token()))
        if len(self._undo) > self.history_limit:
            del self._undo[0]
        self._redo.clear()
        try:
            self._record(applied, was_dirty, lines)
        except OSError as exc:
            self._undo, self._redo = undo_before, redo_before
            self._revert(list(reversed(inverses)))
            raise self._journal_error(exc) from None
        self.generation += 1
        self.last_edit_ms = 1000 * (time.perf_counter() - t0)
        return edit

    def _encode(self, ops: Sequence[Op]) -> list[str]:
        """The journal lines of ``ops`` (none without autosave)."""
        if not self.autosave:
            return []
        return [json.dumps(op_to_json(op)) for op in ops]

    def _revert(self, ops: Sequence[Op]) -> None:
        for op in ops:
            apply_op(self.roster.doc, op)
        refresh_after(self.roster, ops)

    @staticmethod
    def _journal_error(exc: OSError) -> EditError:
        return EditError(
            "the edit was not made: the recovery journal cannot be written "
            f"({exc.strerror or exc}); free some disk space, or save the roster"
        )

    def _record(self, ops: Sequence[Op], was_dirty: bool, lines: Sequence[str]) -> None:
        """Write the operations just applied to the recovery journal (raises ``OSError``)."""
        if not self.autosave:
            return
        if not self.dirty:
            # Back at the saved state (undo): nothing to recover.
            self.journal.discard()
        elif self.journal.started and not self.journal.orphaned:
            self.journal.append_lines(lines)
        elif not was_dirty and self.roster.text is not None and not self.journal.started:
            # The state before these operations is the saved one: its text is at hand.
            self.journal.start(self.roster, self.roster.text)
            self.journal.append_lines(lines)
        else:
            # Unsaved already (the journal could not be written before): start from now.
            from .yamlio import dump_round_trip

            self.journal.start(self.roster, dump_round_trip(self.roster.doc), unsaved=True)

    def _changed(self, ops: Sequence[Op], was_dirty: bool) -> None:
        self.generation += 1
        self._record(ops, was_dirty, self._encode(ops))

    def undo(self) -> Loc | None:
        """Undo the last edit; returns the selection it was about (``None``: nothing to undo)."""
        if not self._undo:
            return None
        edit, token = self._undo[-1]
        ops = list(reversed(edit.inverses))
        lines = self._encode(ops)
        was_dirty = self.dirty
        self._undo.pop()
        self._revert(ops)
        self._redo.append((edit, token))
        try:
            self._record(ops, was_dirty, lines)
        except OSError as exc:
            self._redo.pop()
            self._revert(edit.ops)
            self._undo.append((edit, token))
            raise self._journal_error(exc) from None
        self.generation += 1
        return edit.focus_before if edit.focus_before is not None else ()

    def redo(self) -> Loc | None:
        """Redo the last undone edit; returns the selection it was about."""
        if not self._redo:
            return None
        edit, token = self._redo[-1]
        lines = self._encode(edit.ops)
        was_dirty = self.dirty
        self._redo.pop()
        self._revert(edit.ops)
        self._undo.append((edit, token))
        try:
            self._record(edit.ops, was_dirty, lines)
        except OSError as exc:
            self._undo.pop()
            self._revert(list(reversed(edit.inverses)))
            self._redo.append((edit, token))
            raise self._journal_error(exc) from None
        self.generation += 1
        return edit.focus_after if edit.focus_after is not None else ()

    # ----------------------------------------------------------------- edits

    def _seq_len(self, parent: Loc) -> int:
        seq = self.node(parent).get("selections")
        return len(seq) if isinstance(seq, list) else 0

    def _check_selection(self, loc: Loc) -> None:
        if len(loc) < 2 or loc[-2] != "selections" or not isinstance(loc[-1], int):
            raise EditError("select a unit first")
        if not self.exists(loc):
            raise EditError(f"no selection at {_fmt(loc)}")

    def add(self, parent: Loc, entry_id: str, count: int = 1, name: str | None = None) -> Loc:
        """Add ``entry_id`` under ``parent`` with its groups' defaults; returns its loc."""
        if is_force_loc(parent):
            self._check_force(parent)
            if entry_id not in self.force_entry_ids(parent):
                raise EditError(
                    f"{self.index.name_of(entry_id)} is not in the catalog this force draws on"
                )
        elif parent:
            self._check_selection(parent)
        parent_entry = self.entry_at(parent) if parent else None
        if parent and parent_entry is None and not is_force_loc(parent):
            raise EditError("this selection is not in the catalog; nothing can be added to it")
        if not parent and self.roster.forces is not None:
            raise EditError("this roster has several forces: choose the force to add to")
        child = self.index.child(parent_entry, entry_id)
        if child is None:
            where = "at the top level" if parent_entry is None else f"in {parent_entry.name}"
            raise EditError(f"{self.index.name_of(entry_id)} cannot be selected {where}")
        node = build_selection(self.index, child.entry, count, name)
        slot = self.slot_for(parent, entry_id, count)
        if slot.full is not None:
            raise EditError(slot.full)
        if slot.replaces:
            # A pick-one group (at most 1): the new choice takes the old one's place, in one
            # undoable step (radio buttons, as BattleScribe and New Recruit do).
            olds = [self._label((*parent, "selections", i)) for i in slot.replaces]
            ops: list[Op] = [Delete(parent, i) for i in reversed(slot.replaces)]
            at = slot.replaces[0]
            ops.append(Insert(parent, at, node))
            label = f"Swap {', '.join(olds)} for {child.entry.name}"
            self._apply(label, ops, parent, parent)
            return (*parent, "selections", at)
        index = self._seq_len(parent)
        loc = (*parent, "selections", index)
        self._apply(f"Add {child.entry.name}", [Insert(parent, index, node)], parent, parent)
        return loc

    def group_chain(self, parent: Loc, entry_id: str) -> list[Group]:
        """The groups ``entry_id`` is chosen in under ``parent``, outermost first (``[]``:
        it is not in a group there)."""
        parent_entry = self.entry_at(parent) if parent else None
        child = self.index.child(parent_entry, entry_id)
        if parent_entry is None or child is None or child.group is None:
            return []
        target = child.group

        def path(groups: Sequence[Group]) -> list[Group] | None:
            for g in groups:
                if g is target or g.id == target.id:
                    return [g]
                inner = path(g.groups)
                if inner is not None:
                    return [g, *inner]
            return None

        return path(parent_entry.groups) or [target]

    def group_members(self, parent: Loc, group: Group) -> list[int]:
        """Positions, in ``parent``'s selections, of the choices made in ``group`` (or in its
        subgroups)."""
        parent_entry = self.entry_at(parent) if parent else None
        if parent_entry is None:
            return []
        from .catalogs import walk_groups

        inside = {id(g) for g in walk_groups([group])}
        ids = {
            c.entry.id
            for c in self.index.children(parent_entry)
            if c.group is not None and id(c.group) in inside
        }
        seq = self.node(parent).get("selections")
        items = list(seq) if isinstance(seq, list) else []
        return [i for i, s in enumerate(items) if isinstance(s, dict) and s.get("entry") in ids]

    def slot_for(self, parent: Loc, entry_id: str, count: int = 1) -> Slot:
        """What adding ``count`` × ``entry_id`` under ``parent`` does to the groups it is
        chosen in: fits, replaces the choice of a pick-one group, or finds a group full."""
        for group in reversed(self.group_chain(parent, entry_id)):  # innermost first
            if group.max is None:
                continue
            members = self.group_members(parent, group)
            seq = self.node(parent).get("selections")
            chosen = sum(_count_of(seq[i]) for i in members)
            if chosen + count <= group.max:
                continue
            if group.max == 1 and count == 1 and members:
                same = [i for i in members if seq[i].get("entry") == entry_id]
                if same and len(members) == 1:
                    name = self.index.name_of(entry_id)
                    return Slot(
                        group,
                        [],
                        f"{name} is already the choice of {group.name} (at most 1)",
                    )
                return Slot(group, members, None)
            name = self.index.name_of(entry_id)
            return Slot(
                group,
                [],
                f"{group.name} is full: {chosen} chosen, at most {group.max} allowed; "
                f"remove one before adding {name}",
            )
        return Slot(None, [], None)

    def where_to_add(self, target: Loc, entry_id: str) -> Loc | None:
        """The selection at or above ``target`` where ``entry_id`` can be added, if any."""
        loc = target
        while True:
            if is_force_loc(loc):  # a force takes its faction's top-level entries
                if entry_id in self.force_entry_ids(loc):
                    return loc
                loc = loc[:-2]
                continue
            entry = self.entry_at(loc) if loc else None
            if (not loc or entry is not None) and self.index.child(entry, entry_id) is not None:
                if not loc and self.roster.forces is not None:
                    return None  # (a roster of several forces: into a force only)
                return loc
            if not loc:
                return None
            loc = loc[:-2]

    # ----------------------------------------------------------------- limits and costs

    def _cached(self, ev: Evaluation, key: tuple[Any, ...], compute: Callable[[], Any]) -> Any:
        """What ``compute`` gives for ``key`` under evaluation ``ev``, computed once per
        evaluation (the catalog and the details ask for the same figures after an edit)."""
        cache = self._figures
        if cache.get("ev") is not ev:
            cache.clear()
            cache["ev"] = ev
        if key not in cache:
            cache[key] = compute()
        return cache[key]

    def _fresh(self, entry: Entry) -> Any:
        """A new selection of ``entry`` with its defaults, parsed (the same each time: it is
        read only)."""
        found = self._fresh_data.get(id(entry))
        if found is None or found[0] is not entry:
            data = _parse_new(build_selection(self.index, entry), ("selections", 0))
            found = self._fresh_data[id(entry)] = (entry, data)
        return found[1]

    def option_infos(self, parent: Loc, ev: Evaluation | None = None) -> list[OptionInfo]:
        """Limits and costs of what may be added under ``parent`` (:meth:`options`), as
        ``ev`` (default: the current evaluation) computes them."""
        ev = ev or self.evaluate()
        found: list[OptionInfo] = self._cached(
            ev, ("options", parent), lambda: self._option_infos(parent, ev)
        )
        return found

    def _option_infos(self, parent: Loc, ev: Evaluation) -> list[OptionInfo]:
        node = _ev_node(ev, parent)
        options = self.options(parent)
        if node is None:
            return [OptionInfo(c.entry.id, Limit(0), {}) for c in options]
        what_if = _what_if(ev)
        keep: list[Node] = []  # what-if nodes live until the end (ids key the caches)
        out = []
        for c in options:
            data = self._fresh(c.entry)
            scratch = _scratch_node(self.index, data, c.entry, c.group, node)
            keep.append(scratch)
            costs = dict(what_if.total_cost(scratch))
            out.append(OptionInfo(c.entry.id, self._entry_limit(ev, node, c), costs))
        return out

    def _entry_limit(self, ev: Evaluation, node: Node, child: Child) -> Limit:
        """How many of ``child`` are under ``node`` and the tightest limits on it there."""
        entry = child.entry
        here = sum(n.count for n in node.children if n.entry_id == entry.id)
        lows: list[int] = []
        highs: list[tuple[int, int]] = []  # (room left, limit) with the count it is against

        def note(con: Constraint, owner: Entry, got: float) -> None:
            value = ev.constraint_value(owner, con, node)
            if value < 0 or not float(value).is_integer():
                return
            if con.type == "max":
                highs.append((int(value) - int(got), int(value)))
            else:
                lows.append(int(value))

        for con in entry.constraints:
            if con.field != "selections" or con.child not in (None, entry.id):
                continue
            if con.scope == "parent":
                note(con, entry, here)
        if node.entry is not None:
            for con in node.entry.constraints:
                if con.scope == "self" and con.field == "selections" and con.child == entry.id:
                    note(con, node.entry, here)
        maximum = min(highs)[1] if highs else None
        return Limit(here, max(lows) if lows else 0, maximum)

    def group_limits(self, parent: Loc, ev: Evaluation | None = None) -> dict[str, Limit]:
        """For each choice group of the selection at ``parent`` (subgroups too): how many are
        chosen in it and how many are allowed. A group without limits of its own takes them
        from its entries' limits (a Sergeant group of one entry that must be taken once
        reads "exactly 1")."""
        ev = ev or self.evaluate()
        found: dict[str, Limit] = self._cached(
            ev, ("groups", parent), lambda: self._group_limits(parent, ev)
        )
        return found

    def _group_limits(self, parent: Loc, ev: Evaluation) -> dict[str, Limit]:
        from .catalogs import walk_groups

        node = _ev_node(ev, parent)
        entry = node.entry if node is not None else None
        if node is None or entry is None:
            return {}
        children = self.index.children(entry)
        out: dict[str, Limit] = {}
        for g in walk_groups(entry.groups):
            inside = {id(x) for x in walk_groups([g])}
            members = [c for c in children if c.group is not None and id(c.group) in inside]
            chosen = sum(
                n.count for n in node.children if n.group is not None and id(n.group) in inside
            )
            lo, hi = g.min, g.max
            limits = [self._entry_limit(ev, node, c) for c in members]
            if hi is None and limits and all(lim.maximum is not None for lim in limits):
                hi = sum(lim.maximum or 0 for lim in limits)
            lo = max(lo, sum(lim.minimum for lim in limits))
            if hi is not None:
                lo = min(lo, hi)
            out[g.id] = Limit(chosen, lo, hi)
        return out

    def slot_limits(self, ev: Evaluation | None = None, loc: Loc = ()) -> dict[str, Limit]:
        """The force's category slots at the top of the roster (or of the force at ``loc``
        in a roster of several): category id -> limit."""
        ev = ev or self.evaluate()
        index = self.index
        top = _ev_node(ev, loc) if loc else ev.root
        if top is None:
            return {}
        if loc:
            force = top.force
        else:
            force_id = self.roster.header.force
            force = index.forces.get(force_id) if force_id else index.default_force()
        if force is None:
            return {}
        out = {}
        for slot in force.slots:
            got = sum(n.count for n in top.children if n.has_category(slot.category))
            out[slot.category] = Limit(got, slot.min, slot.max)
        return out

    def category_limits(self, parent: Loc, ev: Evaluation | None = None) -> dict[str, Limit]:
        """Limits on categories of what is selected under ``parent``: the force's slots at
        the top of the roster (:meth:`slot_limits`), else the selection's own constraints on
        a category of its children (a squad of exactly six models). Category id -> limit."""
        ev = ev or self.evaluate()
        if not parent or is_force_loc(parent):
            return self.slot_limits(ev, parent)
        node = _ev_node(ev, parent)
        entry = node.entry if node is not None else None
        if node is None or entry is None:
            return {}
        categories = self.index.categories
        lows: dict[str, int] = {}
        highs: dict[str, int] = {}
        for con in entry.constraints:
            if con.scope != "self" or con.field != "selections" or con.child not in categories:
                continue
            value = ev.constraint_value(entry, con, node)
            if value < 0 or not float(value).is_integer():
                continue
            cat = str(con.child)
            if con.type == "max":
                highs[cat] = min(int(value), highs.get(cat, int(value)))
            else:
                lows[cat] = max(int(value), lows.get(cat, 0))
        out = {}
        for cat in lows.keys() | highs.keys():
            got = sum(n.count for n in node.children if n.has_category(cat))
            hi = highs.get(cat)
            lo = min(lows.get(cat, 0), hi) if hi is not None else lows.get(cat, 0)
            out[cat] = Limit(got, lo, hi)
        return out

    def experience_costs(
        self, loc: Loc, ev: Evaluation | None = None
    ) -> dict[str | None, dict[str, float]]:
        """What the selection at ``loc`` costs (with everything under it) at each experience
        level the system has, and with none of its own (key ``None``: inherited), as the
        engine computes it."""
        ev = ev or self.evaluate()
        found: dict[str | None, dict[str, float]] = self._cached(
            ev, ("experience", loc), lambda: self._experience_costs(loc, ev)
        )
        return found

    def _experience_costs(self, loc: Loc, ev: Evaluation) -> dict[str | None, dict[str, float]]:
        node = _ev_node(ev, loc)
        if node is None or node.entry is None or node.data is None or node.parent is None:
            return {}
        what_if = _what_if(ev)
        keep: list[Node] = []
        out: dict[str | None, dict[str, float]] = {}
        for level in [None, *self.index.experience]:
            data = dataclasses.replace(node.data, experience=level)
            scratch = _scratch_node(self.index, data, node.entry, node.group, node.parent)
            keep.append(scratch)
            out[level] = dict(what_if.total_cost(scratch))
        return out

    def remove(self, loc: Loc) -> Loc:
        """Remove the selection at ``loc``; returns the selection to show next."""
        self._check_selection(loc)
        parent, index = loc[:-2], int(loc[-1])
        label = self._label(loc)
        n = self._seq_len(parent)
        after: Loc = (*parent, "selections", min(index, n - 2)) if n > 1 else parent
        self._apply(f"Remove {label}", [Delete(parent, index)], loc, after)
        return after

    def duplicate(self, loc: Loc) -> Loc:
        """Put a copy of the selection at ``loc`` right after it; returns the copy's loc."""
        self._check_selection(loc)
        parent, index = loc[:-2], int(loc[-1])
        node = copy.deepcopy(self.node(loc))
        _clear_anchors(node)  # the copy is not the original an alias refers to
        _unmerge(node)  # nor does it share what a `<<:` merge key brings: it holds its own
        new = (*parent, "selections", index + 1)
        self._apply(f"Duplicate {self._label(loc)}", [Insert(parent, index + 1, node)], loc, new)
        return new

    def move(self, loc: Loc, delta: int) -> Loc:
        """Move the selection ``delta`` places among its siblings; returns its new loc."""
        self._check_selection(loc)
        parent, index = loc[:-2], int(loc[-1])
        to = max(0, min(self._seq_len(parent) - 1, index + delta))
        if to == index:
            return loc
        new = (*parent, "selections", to)
        word = "up" if delta < 0 else "down"
        self._apply(f"Move {self._label(loc)} {word}", [Move(parent, index, to)], loc, new)
        return new

    def set(self, loc: Loc, key: str, value: Any, label: str | None = None) -> None:
        """Set (``None``: remove) a key of the selection at ``loc`` (``()``: the roster)."""
        if loc:
            self._check_selection(loc)
        from .yamlio import to_plain

        current = self.node(loc).get(key)
        if to_plain(current) == to_plain(value):
            return
        text = label or (f"Set {key}" if value is not None else f"Clear {key}")
        self._apply(text, [SetKey(loc, key, value)], loc, loc)

    def rename(self, loc: Loc, name: str | None) -> None:
        """Give a selection a custom name (empty: back to the entry's name), or rename the
        roster (``loc == ()``; a roster always has a name)."""
        name = (name or "").strip() or None
        if not loc:
            if name is None:
                raise EditError("a roster needs a name")
            self.set((), "name", name, f"Rename roster to {name}")
            return
        self.set(loc, "name", name, f"Rename to {name}" if name else "Clear custom name")

    def set_count(self, loc: Loc, count: int) -> None:
        """Set how many copies a selection stands for (at least 1)."""
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise EditError(f"count must be a whole number of at least 1, not {count!r}")
        node = self.node(loc)
        # A count brought in by a `<<:` merge key cannot be removed: write 1 over it.
        keep = count == 1 and "count" in node and not _own(node, "count")
        self.set(loc, "count", count if count != 1 or keep else None, f"Count {count}")

    def count_of(self, loc: Loc) -> int:
        value = self.node(loc).get("count", 1)
        return value if isinstance(value, int) and not isinstance(value, bool) else 1

    def set_experience(self, loc: Loc, level: str | None) -> None:
        if level is not None and level not in self.index.experience:
            raise EditError(f"unknown experience level {level!r}")
        name = self.index.experience[level].name if level else None
        self.set(loc, "experience", level, f"Experience {name}" if name else "Clear experience")

    def set_notes(self, loc: Loc, notes: str | None) -> None:
        self.set(loc, "notes", (notes or "").strip() or None, "Edit notes")

    @property
    def state_keys(self) -> tuple[StateKey, ...]:
        """The campaign state keys this roster's game system declares (its rules module)."""
        rules = self.system.rules
        return tuple(rules.state_keys()) if rules is not None else ()

    def set_state(self, loc: Loc, text: str) -> list[str]:
        """Set a selection's campaign ``state:`` from its one-line form (see
        :func:`parse_state`, checked against the system's :attr:`state_keys`); blank clears
        it. Raises :class:`EditError` (nothing changes) for text that is not ``key: value``
        pairs or a value of the wrong type or out of range. Returns the warnings about what
        was stored (an unknown key, with the nearest known one)."""
        if not loc:
            raise EditError("campaign state belongs to a selection, not to the roster")
        keys = self.state_keys
        state = parse_state(text, keys)
        self.set(loc, "state", state, "Edit campaign state")
        return state_warnings(state, keys)

    def set_limit(self, cost_type: str, value: float | None) -> None:
        """Set (``None``: remove) the roster's limit on a cost type."""
        from ruamel.yaml.comments import CommentedMap

        from .yamlio import to_plain

        if cost_type not in self.index.cost_types:
            raise EditError(f"unknown cost type {cost_type!r}")
        if value is not None and value < 0:
            raise EditError("a limit cannot be negative")
        stored: float | int | None = value
        if value is not None and float(value).is_integer():
            stored = int(value)
        limits = self.roster.doc.get("limits")
        name = self.index.cost_types[cost_type].name
        label = f"{name} limit {stored}" if stored is not None else f"Clear {name} limit"
        if isinstance(limits, dict):
            if to_plain(limits.get(cost_type)) == stored:
                return
            ops: list[Op] = [SetKey(("limits",), cost_type, stored)]
            if stored is None and set(limits) <= {cost_type}:
                ops = [SetKey((), "limits", None)]
            self._apply(label, ops, (), ())
            return
        if stored is None:
            return
        lm = CommentedMap()
        lm[cost_type] = stored
        self._apply(label, [SetKey((), "limits", lm)], (), ())

    def choose(self, parent: Loc, group_id: str, entry_id: str | None) -> Loc | None:
        """Make ``entry_id`` the only choice of group ``group_id`` under ``parent``
        (``None``: no choice); returns the new choice's loc."""
        entry = self.entry_at(parent) if parent else None
        if parent and entry is None:
            raise EditError("this selection is not in the catalog")
        from .catalogs import walk_groups

        groups = entry.groups if entry is not None else []
        group = next((g for g in walk_groups(groups) if g.id == group_id), None)
        if entry is None or group is None:
            raise EditError(f"{self.index.name_of(group_id)} is not a choice here")
        inside = {id(g) for g in walk_groups([group])}
        in_group = {
            c.entry.id
            for c in self.index.children(entry)
            if c.group is not None and id(c.group) in inside
        }
        if entry_id is not None and entry_id not in in_group:
            raise EditError(f"{self.index.name_of(entry_id)} is not a choice of that group")
        seq = self.node(parent).get("selections")
        items = list(seq) if isinstance(seq, list) else []
        current = self.group_members(parent, group)
        if (
            entry_id is not None
            and len(current) == 1
            and items[current[0]].get("entry") == entry_id
        ):
            return (*parent, "selections", current[0])
        ops: list[Op] = [Delete(parent, i) for i in reversed(current)]
        at = current[0] if current else len(items)
        new: Loc | None = None
        if entry_id is not None:
            child = self.index.child(entry, entry_id)
            assert child is not None
            ops.append(Insert(parent, at, build_selection(self.index, child.entry)))
            new = (*parent, "selections", at)
            label = f"Choose {child.entry.name}"
        else:
            label = f"Clear {self.index.name_of(group_id)}"
        if not ops:
            return None
        self._apply(label, ops, parent, parent)
        return new

    # ----------------------------------------------------------------- forces

    def force_entries(self) -> list[ForceEntry]:
        """The game system's force entries (what a force may be)."""
        return list(self.system.model.forces)

    def force_at(self, loc: Loc) -> ForceData | None:
        """The parsed force at ``loc`` (``None``: not a force of this roster)."""
        for f in self.roster.all_forces():
            if f.loc == tuple(loc):
                return f
        return None

    def force_locs(self) -> list[Loc]:
        """Every force's loc, child forces after their parent (none for a roster of one)."""
        return [f.loc for f in self.roster.all_forces()]

    def force_entry_ids(self, loc: Loc) -> frozenset[str]:
        """The entries the force at ``loc`` may take at its top: its faction's, and the
        roster's own (``custom:``)."""
        force = self.force_at(loc)
        faction = force.faction if force is not None and force.faction else self.roster.faction
        try:
            own = self.system.index(faction)
        except ArmybuilderError:
            return frozenset()
        mine = {c.entry.id for c in own.roots}
        everyone = {c.entry.id for f in self.roster.factions() for c in self._roots_of(f)}
        custom = {c.entry.id for c in self.index.roots} - everyone
        return frozenset(mine | custom)

    def _roots_of(self, faction: str) -> list[Child]:
        try:
            return self.system.index(faction).roots
        except ArmybuilderError:
            return []

    def _check_force(self, loc: Loc) -> None:
        if not is_force_loc(loc) or self.force_at(loc) is None:
            raise EditError("select a force first")

    def add_force(
        self,
        force: str,
        faction: str | None = None,
        name: str | None = None,
        parent: Loc = (),
    ) -> Loc:
        """Add a force of force entry ``force`` drawing on ``faction`` (default: the
        parent force's, or the roster's), at the end of the roster's forces or inside the
        force at ``parent``; returns its loc. A roster of one force becomes a roster of
        several (format 2): its selections become its first force, in the same undoable
        step."""
        from ruamel.yaml.comments import CommentedMap

        from .model.roster import FORCES_FORMAT

        entries = {f.id: f for f in self.system.model.forces}
        if not entries:
            raise EditError(f"{self.system.name} has no force entries: its rosters are one force")
        if force not in entries:
            raise EditError(f"unknown force entry {force!r} (force entries: {', '.join(entries)})")
        above = self.force_at(parent) if parent else None
        faction = faction or (above.faction if above is not None else None) or self.roster.faction
        if faction not in self.system.factions:
            raise EditError(f"{self.system.name} has no faction {faction!r}")
        node = CommentedMap()
        node["force"] = force
        node["faction"] = faction
        name = (name or "").strip() or None
        if name:
            node["name"] = name
        label = f"Add force {name or entries[force].name}"
        doc = self.roster.doc
        if self.roster.forces is None:
            if parent:
                raise EditError("a roster of one force has no force to add into")
            first = CommentedMap()
            first["force"] = self.roster.header.force or next(iter(entries))
            first["faction"] = self.roster.faction
            sels = doc.get("selections")
            if sels is not None:
                first["selections"] = sels
            keys = list(doc.keys())
            at = keys.index("selections") if "selections" in keys else None
            ops: list[Op] = [SetKey((), "forces", [first, node], at)]
            if sels is not None:
                ops.append(SetKey((), "selections", None))
            if "force" in doc:
                ops.append(SetKey((), "force", None))
            ops.append(SetKey((), "format", FORCES_FORMAT))
            loc: Loc = ("forces", 1)
            self._apply(label, ops, (), loc)
            return loc
        if parent:
            self._check_force(parent)
        seq = (self.node(parent) if parent else doc).get("forces")
        index = len(seq) if isinstance(seq, list) else 0
        loc = (*parent, "forces", index)
        self._apply(label, [Insert(parent, index, node, key="forces")], parent or (), loc)
        return loc

    def remove_force(self, loc: Loc) -> Loc:
        """Remove the force at ``loc`` with everything in it; returns the loc to show next
        (the roster stays a roster of several forces, however many are left)."""
        self._check_force(loc)
        parent, index = loc[:-2], int(loc[-1])
        seq = (self.node(parent) if parent else self.roster.doc).get("forces")
        n = len(seq) if isinstance(seq, list) else 0
        after: Loc = (*parent, "forces", min(index, n - 2)) if n > 1 else parent
        label = f"Remove force {self.force_label(loc)}"
        self._apply(label, [Delete(parent, index, key="forces")], loc, after)
        return after

    def move_force(self, loc: Loc, delta: int) -> Loc:
        """Move the force at ``loc`` ``delta`` places among its siblings; returns its loc."""
        self._check_force(loc)
        parent, index = loc[:-2], int(loc[-1])
        seq = (self.node(parent) if parent else self.roster.doc).get("forces")
        n = len(seq) if isinstance(seq, list) else 0
        to = max(0, min(n - 1, index + delta))
        if to == index:
            return loc
        word = "up" if delta < 0 else "down"
        new = (*parent, "forces", to)
        label = f"Move force {self.force_label(loc)} {word}"
        self._apply(label, [Move(parent, index, to, key="forces")], loc, new)
        return new

    def rename_force(self, loc: Loc, name: str | None) -> Loc:
        """Give the force at ``loc`` a name (empty: back to its force entry's name);
        returns its loc."""
        self._check_force(loc)
        name = (name or "").strip() or None
        if self.node(loc).get("name") == name:
            return loc
        label = f"Rename force to {name}" if name else "Clear force name"
        self._apply(label, [SetKey(loc, "name", name)], loc, loc)
        return loc

    def force_label(self, loc: Loc) -> str:
        force = self.force_at(loc)
        if force is None:
            return "?"
        if force.name:
            return force.name
        entry = next((f for f in self.system.model.forces if f.id == force.force), None)
        return entry.name if entry is not None else force.force

    def _label(self, loc: Loc) -> str:
        if is_force_loc(loc):
            return self.force_label(loc)
        node = self.node(loc)
        name = node.get("name")
        if name:
            return str(name)
        entry = self.entry_at(loc)
        return entry.name if entry is not None else str(node.get("entry", "selection"))

    # ----------------------------------------------------------------- saving

    def save(self, path: Path | str | None = None, *, overwrite: bool = False) -> Path:
        """Save the roster (atomically; the previous file kept as ``.bak``).

        Raises :class:`~armybuilder.rosters.ChangedOnDiskError` (nothing written, nothing
        lost) when the file changed on disk since it was opened or last saved here (another
        window, a text editor), or when ``path`` is another file that exists: ask the user,
        then save again with ``overwrite=True`` (or to another path).
        """
        target = Path(path) if path is not None else self.roster.path
        if target is None:
            raise EditError("this roster has no file yet; save it as a new file")
        old_journal = self.journal
        saved = self.roster.save(target, overwrite=overwrite)
        self._saved_token = self._state_token()
        old_journal.discard()
        self.journal = Journal.for_roster(saved, self.session_id)
        self.journal.discard()
        return saved

    def close(self, keep_recovery: bool = False) -> None:
        """End the session. Without unsaved changes (or unless asked), the journal goes."""
        if keep_recovery and self.dirty:
            self.journal.close()
        else:
            self.journal.discard()


# =========================================================================== recent files


@dataclass
class RecentEntry:
    """A roster the user opened or saved, or one found in the current folder."""

    path: Path
    name: str = ""
    system: str = ""
    faction: str = ""
    opened: float = 0.0


_HEADER_RE = re.compile(r"^(system|faction|name):[ \t]*(.*?)[ \t]*$", re.MULTILINE)


def sniff_roster(path: Path) -> RecentEntry | None:
    """Read a file's first lines; a :class:`RecentEntry` if it looks like a roster."""
    try:
        with path.open("r", encoding="utf-8-sig", errors="replace") as fh:
            head = fh.read(4096)
    except OSError:
        return None
    found: dict[str, str] = {}
    for key, value in _HEADER_RE.findall(head):
        if key not in found:
            found[key] = value.strip().strip("'\"")
    if "system" not in found or "faction" not in found:
        return None
    try:
        opened = path.stat().st_mtime
    except OSError:
        opened = 0.0
    return RecentEntry(
        path, found.get("name", path.stem), found["system"], found["faction"], opened
    )


class RecentFiles:
    """The list of recently used rosters, kept in ``<user data>/recent.json``."""

    def __init__(self, file: Path | None = None, limit: int = 30) -> None:
        self.file = file or user_data_dir() / "recent.json"
        self.limit = limit

    def _load(self) -> list[dict[str, Any]]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return []
        return (
            [d for d in data if isinstance(d, dict) and "path" in d]
            if isinstance(data, list)
            else []
        )

    def entries(self) -> list[RecentEntry]:
        """Recent rosters that still exist, most recent first."""
        out = []
        for d in self._load():
            p = Path(str(d["path"]))
            if p.is_file():
                out.append(
                    RecentEntry(
                        p,
                        str(d.get("name", "")),
                        str(d.get("system", "")),
                        str(d.get("faction", "")),
                        float(d.get("opened", 0.0)),
                    )
                )
        return out

    def add(self, path: Path, name: str, system: str, faction: str) -> None:
        p = str(path.resolve())
        items = [d for d in self._load() if d.get("path") != p]
        items.insert(
            0,
            {"path": p, "name": name, "system": system, "faction": faction, "opened": time.time()},
        )
        self._write(items[: self.limit])

    def remove(self, path: Path) -> None:
        p = str(path.resolve())
        items = [d for d in self._load() if d.get("path") != p]
        self._write(items)

    def _write(self, items: list[dict[str, Any]]) -> None:
        from .fileio import atomic_write

        with contextlib.suppress(OSError):
            atomic_write(self.file, json.dumps(items, indent=1) + "\n")

    @staticmethod
    def scan_folder(folder: Path, limit: int = 50) -> list[RecentEntry]:
        """Rosters in ``folder`` (not its subfolders), by file name."""
        found = []
        try:
            files = sorted(
                (p for p in folder.iterdir() if p.suffix in {".yaml", ".yml"} and p.is_file()),
                key=lambda p: p.name,
            )
        except OSError:
            return []
        for p in files[: limit * 4]:
            entry = sniff_roster(p)
            if entry is not None:
                found.append(entry)
            if len(found) >= limit:
                break
        return found


# =========================================================================== exports


_PLAIN_WORD = re.compile(r"[A-Za-z_][\w-]*\Z")
_YAML_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "y", "n", "~"}


def state_text(state: Any) -> str:
    """Campaign state on one line, as YAML flow: ``{actions: 31, wounds: 2}`` ("" if none)."""
    if not state:
        return ""

    def flow(value: Any) -> str:
        if isinstance(value, dict):
            return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
        if isinstance(value, list):
            return "[" + ", ".join(flow(v) for v in value) + "]"
        if value is None:
            return "null"
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return str(value)
        text = str(value)
        if _PLAIN_WORD.match(text) and text.lower() not in _YAML_WORDS:
            return text
        return json.dumps(text, ensure_ascii=False)

    return flow(state)


_STATE_EXAMPLE = "{actions: 31, wounds: 2}"


def parse_state(text: str, keys: Sequence[StateKey] = ()) -> dict[str, Any] | None:
    """Campaign state typed on one line: a YAML mapping, braces optional (``actions: 3,
    wounds: 1`` or ``{actions: 3, wounds: 1}``); blank: no state. Raises :class:`EditError`
    for text that is not ``key: value`` pairs (``wounds 2``, where the colon is missing, is
    refused rather than stored as a key ``"wounds 2"`` without a value) and, when the game
    system declares its state ``keys``, for values of the wrong type or out of range.
    Unknown keys pass here: :func:`state_warnings` names them (the engine warns too)."""
    from .errors import InputError
    from .rules.state import ERROR, check_state, state_placeholder
    from .yamlio import load_safe

    example = state_placeholder(keys) or _STATE_EXAMPLE
    text = text.strip()
    if not text:
        return None
    source = text if text.startswith("{") else "{" + text + "}"
    try:
        value = load_safe(source, "campaign state")
    except InputError as exc:
        raise EditError(
            f"campaign state must read key: value, e.g. {example} ({exc.problems[0].message})"
        ) from None
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise EditError(f"campaign state is not a mapping: write key: value, e.g. {example}")
    bare = [k for k, v in value.items() if v is None]
    if bare:
        raise EditError(
            f"campaign state {bare[0]!r} has no value: write key: value, e.g. {example}"
        )
    errors = [p for p in check_state(keys, value) if p.severity == ERROR]
    if errors:
        raise EditError("campaign state: " + "; ".join(p.message for p in errors))
    return dict(value) or None


def state_warnings(state: dict[str, Any] | None, keys: Sequence[StateKey]) -> list[str]:
    """What is legal but suspect in a campaign state: unknown keys, each naming the nearest
    known one (``acitons`` -> did you mean 'actions'?)."""
    from .rules.state import ERROR, check_state

    return [p.message for p in check_state(keys, state) if p.severity != ERROR]


def costs_text(index: CatalogIndex, costs: dict[str, float]) -> str:
    """Costs as a player reads them (``85 kg``, ``4 bp``), hidden and zero costs left out."""
    parts = []
    for ct in index.cost_types.values():
        value = costs.get(ct.id, 0.0)
        if ct.hidden or not value:
            continue
        parts.append(f"{format_number(value)}{' ' + ct.unit if ct.unit else ''}")
    return ", ".join(parts)


def format_number(x: float) -> str:
    if float(x).is_integer():
        return f"{int(x):,}"
    return f"{x:,.2f}".rstrip("0").rstrip(".")


def cost_text(ev: Evaluation, costs: dict[str, float], limits: bool = False) -> str:
    """Costs as text, e.g. ``2,380 kg``; with ``limits``, against the roster's limits."""
    parts = []
    roster_limits = dict(ev.roster.header.limits)
    for ct in ev.index.cost_types.values():
        if ct.hidden:
            continue
        limit = roster_limits.get(ct.id, ct.default_limit)
        value = costs.get(ct.id, 0.0)
        unit = f" {ct.unit}" if ct.unit else ""
        text = f"{format_number(value)}{unit}"
        if limits and limit is not None:
            text = f"{format_number(value)} / {format_number(limit)}{unit}"
        parts.append(text)
    return ", ".join(parts)


def plain_text(ev: Evaluation) -> str:
    """A plain-text roster for a forum post: the tree with counts and costs, totals, issues."""
    roster = ev.roster
    system = ev.index.system.name
    lines = [roster.name, f"{system}, {ev.index.faction.name}"]
    totals = cost_text(ev, ev.totals, limits=True)
    if totals:
        lines.append(f"Total: {totals}")
    for v in ev.values_of(ev.root):
        lines.append(f"{v.label}: {v.display()}")
    lines.append("")

    def walk(node: Node, depth: int) -> None:
        for child in node.children:
            costs = cost_text(ev, ev.total_cost(child))
            text = f"{'  ' * depth}- {ev.label(child)}"
            if child.entry is not None and child.data is not None and child.data.name:
                text += f" ({child.entry.name})"
            if child.entry is None:
                text += " [unknown entry]"
            if costs and any(ev.total_cost(child).values()):
                text += f"  [{costs}]"
            lines.append(text)
            walk(child, depth + 1)

    walk(ev.root, 0)
    if ev.issues:
        lines.append("")
        errors, warnings = len(ev.errors), len(ev.warnings)
        lines.append(f"Validation: {errors} error(s), {warnings} warning(s)")
        for issue in ev.issues:
            mark = "ERROR" if issue.is_error else "warning"
            lines.append(f"  {mark}: {issue.message}")
    else:
        lines.append("")
        lines.append("Validation: legal")
    return "\n".join(lines) + "\n"


def _render_module() -> Any:
    try:
        import importlib

        return importlib.import_module(".render", __package__)
    except ImportError:
        return None


def _accepts(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    try:
        inspect.signature(fn).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return False
    return True


def _subject(fn: Callable[..., Any], session: EditSession) -> Any:
    """What a renderer function takes first: the evaluation, or the roster."""
    try:
        first = next(iter(inspect.signature(fn).parameters))
    except (StopIteration, TypeError, ValueError):
        return session.evaluate()
    return session.roster if first in {"roster", "roster_or_path", "path"} else session.evaluate()


def export_text(session: EditSession) -> str:
    """The roster as text for a forum post.

    Uses the renderer's text export (``armybuilder.render.export(evaluation, "text")``)
    when it is installed, else a plain layout (:func:`plain_text`).
    """
    render = _render_module()
    fn = getattr(render, "export", None) if render is not None else None
    if callable(fn):
        subject = _subject(fn, session)
        if _accepts(fn, subject, "text"):
            result = fn(subject, "text")
            if isinstance(result, str):
                return result
    return plain_text(session.evaluate())


def export_pdf(
    session: EditSession,
    out: Path,
    progress: Callable[[float], None] | None = None,
    paper: str | None = None,
) -> Path:
    """Render the roster to a PDF at ``out`` with ``armybuilder.render.render_pdf``.

    Slow (WeasyPrint): call it from a worker. ``progress`` receives fractions from 0 to 1
    as the renderer reports its parts done. ``paper``: the renderer's paper size (``a4``
    or ``letter``; default: the renderer's). Raises :class:`ExportUnavailableError` when the
    renderer is not installed (or not one this version knows how to call).
    """
    from .fileio import atomic_write, check_output

    render = _render_module()
    fn = getattr(render, "render_pdf", None) if render is not None else None
    if not callable(fn):
        raise ExportUnavailableError("PDF export is not installed in this version")
    # Never over the roster itself; a folder or a pipe is refused before the slow part.
    check_output(out, [session.path] if session.path is not None else [])
    subject = _subject(fn, session)

    def report(*args: float) -> None:
        if progress is None or not args:
            return
        done, total = (args[0], args[1]) if len(args) >= 2 else (args[0], 1.0)
        progress(done / total if total else 1.0)

    extra: dict[str, Any] = {"paper": paper} if paper else {}
    if extra and not _accepts(fn, subject, out, **extra):
        if paper != "a4":  # a renderer without the choice prints on its own paper (A4)
            raise ExportUnavailableError(
                f"this version's PDF export cannot choose the paper size ({paper})"
            )
        extra = {}
    # The renderer writes to a private temporary file (an unpredictable name, in a private
    # folder); the result reaches ``out`` through the one atomic write.
    import shutil
    import tempfile

    scratch = Path(tempfile.mkdtemp(prefix="armybuilder-pdf-"))
    try:
        part = scratch / out.name
        if progress is not None and _accepts(fn, subject, part, progress=report, **extra):
            result = fn(subject, part, progress=report, **extra)
        elif _accepts(fn, subject, part, **extra):
            result = fn(subject, part, **extra)
        else:
            raise ExportUnavailableError(
                "PDF export is not installed in this version (the renderer's interface differs)"
            )
        data = getattr(result, "pdf", None)
        if not isinstance(data, bytes):
            data = part.read_bytes() if part.is_file() else None
        if data is None:
            raise ExportUnavailableError("the PDF renderer wrote nothing")
        atomic_write(out, data)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if progress is not None:
        progress(1.0)
    return out


def default_export_path(session: EditSession, suffix: str, folder: Path | None = None) -> Path:
    """Where a file goes by default: beside the roster, or in ``folder`` (default: the
    current one) for a roster never saved, named after the roster."""
    stem = slug(session.name) or "roster"
    if session.path is not None:
        return session.path.with_suffix(suffix)
    return (folder or Path()) / f"{stem}{suffix}"


def slug(text: str) -> str:
    """A file-name friendly version of a roster name."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
