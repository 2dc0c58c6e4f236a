"""Edit operations on a roster document: the primitive, invertible operations every edit is
made of (:class:`Insert`, :class:`Delete`, :class:`SetKey`, :class:`Move`), their JSON form for
the recovery journal, refreshing the parsed roster after them, and new rosters."""

from __future__ import annotations

import copy
import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..errors import ArmybuilderError

# The roster machinery (ruamel.yaml, pydantic models) is imported where it is used, so that
# the TUI's home screen (recent files, recovery journals) shows before it is loaded.
if TYPE_CHECKING:
    from ruamel.yaml.comments import CommentedMap

    from ..catalog import CatalogIndex, GameSystem
    from ..catalog.index import Child
    from ..model.catalog import Entry
    from ..rosters import Roster


class EditError(ArmybuilderError):
    """An edit cannot be made (no such selection, not an option there, a bad value)."""


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


def is_force_loc(loc: Sequence[str | int]) -> bool:
    """Whether ``loc`` names a force of a roster of several (``("forces", 0)``, or a child
    force ``("forces", 0, "forces", 1)``)."""
    return len(loc) >= 2 and loc[-2] == "forces" and isinstance(loc[-1], int)


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


def _insert_key(mapping: Any, at: int, key: str, value: Any) -> None:
    """Put the new ``key`` at position ``at`` of ``mapping``: a round-trip mapping or a plain
    dict alike (the same order either way, so that the saved file does not depend on which)."""
    from ruamel.yaml.comments import CommentedMap

    if isinstance(mapping, CommentedMap):
        mapping.insert(at, key, value)
        return
    after = [(k, mapping.pop(k)) for k in list(mapping)[at:]]
    mapping[key] = value
    mapping.update(after)


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


def apply_op(doc: Any, op: Op, may_share: bool = False) -> Op:
    """Apply ``op`` to a round-trip roster document; returns its inverse. ``may_share``:
    places of the document may hold one node through an alias whose anchor ruamel does not
    keep (:attr:`Roster.may_share`; :func:`unshare`)."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    where = op.loc if isinstance(op, SetKey) else (*op.parent, op.key)
    unshare(doc, where, may_share)
    if isinstance(op, Insert):
        owner = _owner(doc, op.parent)
        seq = owner.get(op.key)
        created = False
        if seq is None:
            seq = CommentedSeq()
            order = _ROSTER_KEY_ORDER if not op.parent else _KEY_ORDER
            _insert_key(owner, _key_position(owner, op.key, order), op.key, seq)
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
        _insert_key(mapping, at, op.key, op.value)
        if op.comment is not None and isinstance(mapping, CommentedMap):
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


def detached_copy(node: Any) -> Any:
    """A deep copy of a selection that shares nothing with the original: no anchor an alias
    refers to, nothing brought by a `<<:` merge key (it holds its own)."""
    new = copy.deepcopy(node)
    _clear_anchors(new)
    _unmerge(new)
    return new


def unshare(doc: Any, loc: Sequence[str | int], may_share: bool = False) -> None:
    """Make the nodes on the way to ``loc`` the selection's own before it is edited.

    In a file with anchors and aliases (``&a`` ... ``*a``) or merge keys (``<<: *a``), two
    selections can share one mapping; editing one must not change its twin. A shared node on
    the path is replaced, at this place only, by a copy (without anchors): the other places
    keep the original. An anchor of ruamel's own form (``&id001``) is not kept on the node
    it names, so with ``may_share`` (the document holds aliases: :attr:`Roster.may_share`)
    every node on the path is checked, anchored or not.
    """
    node = doc
    for step in loc:
        try:
            child = node[step]
        except (KeyError, IndexError, TypeError):
            return
        if isinstance(child, dict | list):
            shared = (isinstance(node, dict) and not _own(node, step)) or (
                (may_share or _anchored(child)) and _occurrences(doc, child) > 1
            )
            if shared:
                child = copy.deepcopy(child)
                _clear_anchors(child)
                node[step] = child
        node = child


def _force_part(loc: Loc) -> int:
    """How long the force path at the start of ``loc`` is (``("forces", i)`` steps)."""
    k = 0
    while len(loc) >= k + 2 and loc[k] == "forces":
        k += 2
    return k


def _changed_at(op: Op) -> tuple[str, Loc, int]:
    """What an operation changes: ``("header", (), 0)``; ``("list", parent, first index that
    shifts)`` for a selection added, removed or moved in ``parent``'s list (``()``: the top
    level; a force's ``loc``: its top level); or ``("subtree", loc, 0)`` for a key set in the
    selection at ``loc``. A change to the forces themselves (added, removed, moved, or a key
    of one set) counts as ``header``: the roster is read again whole."""
    if isinstance(op, SetKey):
        k = _force_part(op.loc)
        if len(op.loc) == k or op.loc[k] != "selections":
            return "header", (), 0
        return "subtree", op.loc, 0
    k = _force_part(op.parent)
    if op.key != "selections" or (len(op.parent) > k and op.parent[k] != "selections"):
        return "header", (), 0
    return "list", op.parent, min(op.index, op.to) if isinstance(op, Move) else op.index


def encode_value(value: Any) -> str:
    """A value of a roster document as YAML text, for the recovery journal.

    YAML records everything a roster can hold (dates, binary values, sets, keys that are not
    text, comments and styles), which JSON cannot. Raises :class:`EditError` for a value that
    cannot be written.
    """
    from ruamel.yaml.comments import CommentedMap

    from ..yamlio import dump_round_trip

    box = CommentedMap()
    box["v"] = value
    try:
        return dump_round_trip(box)
    except Exception as exc:  # ruamel raises several kinds for values it cannot represent
        raise EditError(f"this value cannot be saved in a roster file: {exc}") from None


def decode_value(text: str) -> Any:
    """The inverse of :func:`encode_value` (raises ``ValueError`` for anything else)."""
    from ..errors import InputError
    from ..yamlio import load_round_trip

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
    from ..model.roster import read_header
    from ..yamlio import to_plain

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
    # One selection renamed: its children are what they were, so only the selection itself
    # is read again (see _reparse). (A name is read below it only as part of the names above
    # a selection, which key every replay of what lies under it; a count or an experience
    # level may be read by its children's costs, so those still read the subtree again.)
    shallow = len(ops) == 1 and isinstance(ops[0], SetKey) and ops[0].key == "name" and bool(roots)
    # One selection removed, inserted or moved (an edit, or its undo): the selections after
    # it in its list are the ones that were there, shifted; they are copied to their new
    # places rather than read again (see _shifted).
    shift = (
        ops[0] if len(ops) == 1 and lists and isinstance(ops[0], Insert | Delete | Move) else None
    )
    if header:
        data = {k: v for k, v in roster.doc.items() if k not in ("selections", "custom", "forces")}
        roster.header = read_header(to_plain(data))
    if header:
        roster.refresh()
        return
    try:
        if roster.forces is None:
            if any(_force_part(loc) for loc in [*lists, *roots]):
                raise KeyError("forces")  # (the document has become one of several forces)
            roster.selections = _reparse(
                roster.doc, roster.selections, (), lists, roots, shallow, shift
            )
        else:
            _reparse_forces(roster, lists, roots, shallow, shift)
    except (IndexError, KeyError, TypeError, ValueError):
        roster.refresh()  # the parsed view did not match the document: read it all again


def _reparse_forces(
    roster: Roster,
    lists: dict[Loc, int],
    roots: list[Loc],
    shallow: bool = False,
    shift: Insert | Delete | Move | None = None,
) -> None:
    """:func:`_reparse` in each force of a roster of several that ``lists`` and ``roots`` touch:
    the force (and the forces above it) are replaced, the others kept as they are."""
    by_force: dict[Loc, tuple[dict[Loc, int], list[Loc]]] = {}
    for loc, start in lists.items():
        by_force.setdefault(loc[: _force_part(loc)], ({}, []))[0][loc] = start
    for loc in roots:
        by_force.setdefault(loc[: _force_part(loc)], ({}, []))[1].append(loc)
    for where, (in_lists, in_roots) in by_force.items():
        if not where:
            raise KeyError("selections")  # (a roster of several forces has no top level)
        force = _force_at(roster.forces or [], where)
        sels = _reparse(roster.doc, force.selections, where, in_lists, in_roots, shallow, shift)
        roster.forces = _splice_force(roster.forces or [], where, sels)


def _force_at(forces: list[Any], where: Loc) -> Any:
    """The parsed force at ``where`` (``("forces", i, "forces", j...)``)."""
    force: Any = None
    for i in range(1, len(where), 2):
        force = forces[int(where[i])]
        forces = force.forces
    if force is None:
        raise KeyError(where)
    return force


def _splice_force(forces: list[Any], where: Loc, sels: list[Any]) -> list[Any]:
    """``forces`` with the force at ``where`` given ``sels`` as its selections; the forces on
    the way are copied, not changed."""
    i = int(where[1])
    out = list(forces)
    if len(where) == 2:
        out[i] = dataclasses.replace(out[i], selections=sels)
    else:
        out[i] = dataclasses.replace(out[i], forces=_splice_force(out[i].forces, where[2:], sels))
    return out


def _reparse(
    doc: Any,
    sels: list[Any],
    base: Loc,
    lists: dict[Loc, int],
    roots: list[Loc],
    shallow: bool = False,
    shift: Insert | Delete | Move | None = None,
) -> list[Any]:
    """``sels`` (the selections at ``base``: the top level, or a force's) with the selections
    at ``roots`` read again (their subtrees) and, for each ``parent`` in ``lists``, its
    selections from the given index on (those whose place changed). ``shallow``: the one
    root was renamed: its children are kept (the same objects, so that an evaluation replays
    what it found in them). ``shift``: the one operation, which added, removed or moved a
    selection of its parent's list: the others from the index on are copied to their new
    places (:func:`_shifted`)."""
    from ..rosters import parse_selection, relocated

    def covered(loc: Loc, inclusive: bool) -> bool:
        """Is ``loc`` inside something read again anyway (``inclusive``: or that itself)?"""
        for parent, start in lists.items():
            n = len(parent)
            if len(loc) > n + 1 and loc[:n] == parent and int(loc[n + 1]) >= start:
                return True
        return any(
            (len(loc) > len(r) or (inclusive and loc == r)) and loc[: len(r)] == r for r in roots
        )

    b = len(base)
    work: list[tuple[Loc, int | None]] = [
        (loc, None) for loc in set(roots) if not covered(loc, False)
    ]
    work += [(parent, start) for parent, start in lists.items() if not covered(parent, True)]
    for loc, start in sorted(work, key=lambda w: len(w[0])):  # outer changes first
        rel = loc[b:]
        node = _node_at(doc, loc)
        if start is None:
            kept = _selection_at(sels, rel).children if shallow else None
            sels = _splice(sels, rel, parse_selection(node, loc, kept))
            continue
        seq = node.get("selections") if isinstance(node, dict) else None
        if seq is None:
            seq = []
        if not isinstance(seq, list):
            raise TypeError(f"selections at {_fmt(loc)} is not a list")
        old = sels if not rel else _selection_at(sels, rel).children
        if len(old) < start:
            raise IndexError(start)
        was = (
            _shifted(shift, len(old), len(seq))
            if shift is not None and shift.parent == loc
            else None
        )
        kids = old[:start]
        for i in range(start, len(seq)):
            j = was[i] if was is not None else None
            if j is None:
                kids.append(parse_selection(seq[i], (*loc, "selections", i)))
            elif j == i:
                kids.append(old[j])  # (one a move left in its place: the same selection)
            else:
                kids.append(relocated(old[j], (*loc, "selections", i)))
        if rel:
            parent = dataclasses.replace(_selection_at(sels, rel), children=kids)
            sels = _splice(sels, rel, parent)
        else:
            sels = kids
    return sels


def _shifted(op: Insert | Delete | Move, before: int, after: int) -> list[int | None] | None:
    """Where each selection of a list stood before ``op`` (a list of ``after`` selections,
    of ``before`` before it) changed it: its index then, ``None`` for the one inserted;
    ``None`` where the lengths do not match the operation (the list is read again)."""
    order: list[int | None] = list(range(before))
    if isinstance(op, Insert):
        if not 0 <= op.index <= before:
            return None
        order.insert(op.index, None)
    elif isinstance(op, Delete):
        if not 0 <= op.index < before:
            return None
        del order[op.index]
    else:
        if not (0 <= op.index < before and 0 <= op.to < before):
            return None
        order.insert(op.to, order.pop(op.index))
    return order if len(order) == after else None


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


def check_count(count: int) -> None:
    """Refuse (:class:`EditError`) a count a roster file cannot hold: a whole number from 1
    to :data:`~armybuilder.model.bounds.MAX_COUNT` (above it, the file reads back as 1)."""
    from ..model.bounds import MAX_COUNT

    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise EditError(f"count must be a whole number of at least 1, not {count!r}")
    if count > MAX_COUNT:
        raise EditError(f"count must be at most {MAX_COUNT:,}, not {count:,}")


def build_selection(
    index: CatalogIndex,
    entry: Entry,
    count: int = 1,
    name: str | None = None,
    recorded: str | None = None,
    required: bool = False,
    _above: frozenset[str] = frozenset(),
) -> CommentedMap:
    """A new selection of ``entry`` with its groups' default choices, recursively.

    The same result as :func:`armybuilder.editing.add_entry`, built in memory so that it goes
    into the roster in one step. A count a roster file cannot hold is refused
    (:func:`check_count`). ``recorded``: the id the file names it by, where that is not the
    entry's (:meth:`CatalogIndex.recorded_id`).

    With ``required``, the selection also comes with what its catalog requires inside it, as
    BattleScribe adds an entry: each option with a minimum in its parent (``min`` of
    ``selections``, scope ``parent``; :func:`required_count`) in that number (a model or an
    upgrade as one counted selection, a unit as that many selections), and a group's
    default raised to the group's minimum where the other choices do not reach it;
    recursively. (The minimums as written: one a modifier changes with the roster is
    reported by the check as usual.)
    """
    check_count(count)
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from ..catalog import walk_groups
    from ..model.bounds import MAX_COUNT

    node = CommentedMap()
    node["entry"] = recorded or entry.id
    if count != 1:
        node["count"] = count
    if name:
        node["name"] = name
    above = _above | {entry.id}  # (an entry that requires itself is not added again)
    children = CommentedSeq()
    needs: dict[int, int] = {}  # option (by id of its Child) -> how many it requires
    if required:
        for c in index.children(entry):
            n = required_count(c.entry)
            if n and not c.entry.hidden and c.entry.id not in above:
                needs[id(c)] = min(n, MAX_COUNT)
    done: set[int] = set()
    for group in walk_groups(entry.groups):
        if group.default:
            child = index.default_child(entry, group)
            if child is not None:
                n = group.default_count
                if required:
                    inside = {id(g) for g in walk_groups([group])}
                    others = sum(
                        k
                        for c in index.children(entry)
                        if (k := needs.get(id(c), 0))
                        and c is not child
                        and c.group is not None
                        and id(c.group) in inside
                    )
                    own = needs.get(id(child), 0)
                    if not own and group.max is not None and others >= group.max:
                        continue  # what the catalog requires fills the group already
                    n = max(n, own, min(group.min - others, MAX_COUNT))
                    done.add(id(child))
                children.append(
                    build_selection(
                        index,
                        child.entry,
                        n,
                        recorded=index.recorded_id(entry, child),
                        required=required,
                        _above=above,
                    )
                )
            else:
                sub = CommentedMap()
                sub["entry"] = group.default
                if group.default_count != 1:
                    sub["count"] = group.default_count
                children.append(sub)
    for c in index.children(entry):
        n = needs.get(id(c), 0)
        if n and id(c) not in done:
            # Units each their own selection (squads that then differ), as the standard
            # make-up adds them; models and upgrades one counted selection (Intercessor ×4).
            each = [1] * n if c.entry.type == "unit" else [n]
            for k in each:
                children.append(
                    build_selection(
                        index,
                        c.entry,
                        k,
                        recorded=index.recorded_id(entry, c),
                        required=True,
                        _above=above,
                    )
                )
    if children:
        node["selections"] = children
    return node


def required_count(entry: Entry) -> int:
    """How many selections of ``entry`` (an option, its link's constraints merged) its
    parent requires: the largest minimum on its own count among its siblings (``min`` of
    ``selections`` in scope ``parent``, as written), 0 for none."""
    need = 0
    for con in entry.constraints:
        if (
            con.type == "min"
            and con.scope == "parent"
            and con.field == "selections"
            and con.child is None
            and not con.percent
        ):
            need = max(need, math.ceil(con.value))
    return need


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
    from .. import __version__
    from ..paths import schema_path
    from ..rosters import Roster
    from ..yamlio import dump_round_trip

    index = system.index(faction_id)
    name = name or f"New {index.faction.name} roster"
    schema = schema_url or schema_path("roster").as_uri()
    start = system.starting_selections(faction_id)

    def made(comment: str) -> Roster:
        roster = Roster.new(
            system.id, index.faction.id, name, limits, schema=schema, comment=comment
        )
        if start:  # what the catalog requires, chosen as a player would
            # (as round-trip nodes, like those of the file once saved and opened again)
            roster.doc["selections"].extend(_commented(sel) for sel in start)
            roster.refresh()
            # Its text is the document, starting selections included, as for any roster
            # read from a file: what the recovery journal starts from (the first edit's
            # positions are in it) and what is written. The document's marks are of the
            # text without them: positions are read from this text when asked for.
            roster.retext(dump_round_trip(roster.doc))
        return roster

    def described(roots: Sequence[Child]) -> str:
        options = ", ".join(f"{c.entry.id} ({c.entry.name})" for c in roots[:20]) + (
            f" and {len(roots) - 20} more" if len(roots) > 20 else ""
        ) or (
            "nothing yet: this faction's catalog has no units; add your own (README, 'Writing "
            "your own catalog') or define them in this roster under `custom:`"
        )
        return (
            f"{system.name} roster ({index.faction.name}), made by armybuilder {__version__}.\n"
            f"Add selections below; at the top level you can select: {options}.\n"
            f"`armybuilder catalogs {system.id} {index.faction.id}` lists every entry; "
            "`armybuilder validate FILE` checks the list."
        )

    # what a player can pick: an entry the data hides (Gaslands' Helicopter and Tank, shown
    # only once their sponsor is chosen) is not offered, as BattleScribe and the builder do not
    roots = [c for c in index.roots if not c.entry.hidden]
    fields = index.modified_fields
    if not any(c.entry.modifiers and "hidden" in fields(c.entry) for c in roots):
        return made(described(roots))
    # nor one its modifiers hide in this roster (40k's Legends units without "Show Legends"):
    # what the builder's catalog offers at the top of it. The roster is made once, without
    # the comment, for the session to evaluate; the comment then goes above its first key.
    from .editor import EditSession

    roster = made("")
    session = EditSession(roster, system, autosave=False)
    try:
        offered = {id(c) for c in session.options(())}
    finally:
        session.close()
    comment = described([c for c in roots if id(c) in offered])
    return roster if _add_head_comment(roster, comment) else made(comment)


def _add_head_comment(roster: Roster, comment: str) -> bool:
    """Put ``comment`` under the first line of the comment above a new roster's first key
    (its schema line), in the document and in its text, as :meth:`Roster.new` writes it;
    ``False`` (nothing changed) for a roster not as ``Roster.new`` makes it."""
    head = roster.doc.ca.comment[1] if roster.doc.ca.comment else None
    text = roster.text
    if not head or len(head) != 1 or text is None or not text.startswith(head[0].value):
        return False
    first = head[0].value  # "# yaml-language-server: $schema=...\n"
    if not (first.startswith("# ") and first.endswith("\n")):
        return False
    lines = comment.splitlines()
    # ruamel writes each line of a start comment as "# <line>" (kept as it is if it is blank
    # or starts with "#"), after the schema line
    roster.doc.yaml_set_start_comment("\n".join([first[2:-1], *lines]))
    written = "".join(
        f"# {line}\n" if line.strip() and not line.strip().startswith("#") else f"{line}\n"
        for line in lines
    )
    # (the document was read from the text without the comment: its marks are not those of
    # the text now)
    roster.retext(first + written + text[len(first) :])
    return True
