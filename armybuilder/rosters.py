"""Roster files: tolerant loading, round-trip saving, atomic writes.

A roster is untrusted, hand-edited input. Loading follows three rules:

* the *header* (format, system, faction, name, limits) must make sense, or the file is
  unreadable (:class:`~armybuilder.errors.RosterError`, exit code 2 on the command line);
* everything below is loaded *tolerantly*: a selection with a bad value is still a selection,
  its problem is reported as a validation issue, and the file is saved back unchanged;
* nothing is lost: unknown keys and unknown entries stay in the document and are written back.

Saving an unchanged roster writes the original bytes; an edited roster is written by
ruamel.yaml's round-trip dumper, which keeps comments and key order. Writes are atomic (a
temporary file in the same folder, fsync, rename) and keep the previous file as ``<name>.bak``.
"""

from __future__ import annotations

import contextlib
import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruamel.yaml.comments import CommentedMap, CommentedSeq

from .errors import ChangedOnDiskError, InputError, Problem, RosterError
from .fileio import atomic_write as _atomic_write
from .fileio import digest, file_digest, same_file
from .formats import roster_reader
from .model.bounds import MAX_COUNT
from .model.header import FORCES_FORMAT, FORMAT_VERSION, fast_header
from .yamlio import (
    MAX_ROSTER_BYTES,
    compose,
    decode,
    dump_round_trip,
    iter_paths,
    load_round_trip,
    load_safe,
    locate,
    locate_node,
    read_bytes,
    to_plain,
)

if TYPE_CHECKING:
    from .model.roster import RosterHeader

Loc = tuple[str | int, ...]

#: Keys starting with this hold another program's data (e.g. what a converted file keeps for
#: writing it back): kept when saved, never reported as unknown.
EXTENSION_PREFIX = "x-"

__all__ = [
    "ChangedOnDiskError",
    "Finding",
    "ForceData",
    "Roster",
    "SelectionData",
    "atomic_write",
    "parse_selection",
]

#: Values :func:`parse_selection` takes as they are (exactly these classes, not subclasses).
_PLAIN_SCALARS = frozenset((str, int, float, bool, type(None)))
KNOWN_SELECTION_KEYS = ("entry", "count", "name", "experience", "notes", "state", "selections")
KNOWN_ROSTER_KEYS = (
    "custom",
    "format",
    "system",
    "faction",
    "name",
    "limits",
    "force",
    "notes",
    "selections",
    "forces",
)
KNOWN_FORCE_KEYS = ("force", "faction", "name", "notes", "selections", "forces")


@dataclass(frozen=True)
class Finding:
    """Something wrong with a value inside a roster (reported as a validation issue)."""

    loc: Loc
    code: str
    message: str
    severity: str = "error"


@dataclass
class SelectionData:
    """One selection as read from the file, with its location in the document."""

    loc: Loc
    entry: str | None
    count: int = 1
    name: str | None = None
    experience: str | None = None
    notes: str | None = None
    state: dict[str, Any] = field(default_factory=dict)
    children: list[SelectionData] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: The selection this one is a copy of, moved to another place (:func:`relocated`): the
    #: same content at another ``loc``, so that an evaluation can replay what it found in
    #: that one with its places rewritten. Not an argument of the constructor, so that
    #: ``dataclasses.replace`` (a selection whose content changed) never carries it over.
    origin: SelectionData | None = field(default=None, init=False, compare=False, repr=False)

    def walk(self) -> Iterator[SelectionData]:
        """This selection and all its descendants, depth first."""
        yield self
        for c in self.children:
            yield from c.walk()


#: How many moves a copy remembers back (:attr:`SelectionData.origin`): an evaluation's
#: memo knows the selections of the roster it evaluated, at most a few edits ago; a longer
#: chain of copies would only keep old ones alive (a selection moved at each of a thousand
#: edits would hold a thousand copies).
ORIGIN_DEPTH = 4


def relocated(sel: SelectionData, loc: Loc) -> SelectionData:
    """A copy of ``sel`` and everything under it standing at ``loc``: every ``loc`` in it
    (its descendants', its findings') with ``sel.loc`` at its start rewritten to ``loc``,
    each copy's :attr:`~SelectionData.origin` the selection it was copied from. What a
    removal, an insertion or a move leaves shifted is this, not read from the document
    again: the same content, and an evaluation replays what it found in it. (``sel`` and
    what is under it are left as they are, but for the end of their chain of origins: a
    snapshot being evaluated may hold them.)"""
    cut = len(sel.loc)
    new = SelectionData(
        loc,
        sel.entry,
        sel.count,
        sel.name,
        sel.experience,
        sel.notes,
        sel.state,  # (never changed in place: shared)
        # (where parse_selection puts each child)
        [relocated(c, (*loc, "selections", i)) for i, c in enumerate(sel.children)],
        [
            Finding((*loc, *f.loc[cut:]), f.code, f.message, f.severity)
            if f.loc[:cut] == sel.loc
            else f
            for f in sel.findings
        ],
    )
    new.origin = sel
    # The chain ends a few copies back: the older ones are let go. (Only ``origin`` of a
    # copy no roster holds any longer is cleared: it is a hint, and an evaluation that finds
    # none computes what it would have replayed.)
    o = sel
    for _ in range(ORIGIN_DEPTH - 1):
        if o.origin is None:
            break
        o = o.origin
    else:
        o.origin = None
    return new


@dataclass
class ForceData:
    """A force of a roster of several forces: its force entry id, the faction whose catalog
    it draws on (``None``: the roster's), its selections and the forces inside it. ``loc``
    is where it sits in the document (its selections' locs start with it)."""

    force: str
    selections: list[SelectionData] = field(default_factory=list)
    forces: list[ForceData] = field(default_factory=list)
    loc: Loc = ()
    faction: str | None = None
    name: str | None = None
    notes: str | None = None
    findings: list[Finding] = field(default_factory=list)

    def walk(self) -> Iterator[ForceData]:
        """This force and the forces inside it, depth first."""
        yield self
        for f in self.forces:
            yield from f.walk()

    def all_selections(self) -> Iterator[SelectionData]:
        """Every selection of this force (not of the forces inside it), depth first."""
        for s in self.selections:
            yield from s.walk()


def parse_force(node: Any, loc: Loc) -> ForceData:
    """One force of a roster document (format 2), with its selections and child forces;
    what cannot be read becomes a finding on it (the document is left as it is)."""
    if not isinstance(node, dict):
        fd = ForceData("", loc=loc)
        fd.findings.append(
            Finding(
                loc,
                "invalid-force",
                "a force must be a mapping with a `force:` key naming a force entry; kept as it is",
            )
        )
        return fd
    force = to_plain(node.get("force"))
    fd = ForceData(force if isinstance(force, str) and force else "", loc=loc)
    if not fd.force:
        fd.findings.append(
            Finding(
                loc if force is None else (*loc, "force"),
                "invalid-force",
                "a force needs `force:` naming one of the game system's force entries",
            )
        )
    for key in ("faction", "name", "notes"):
        value = to_plain(node.get(key))
        if value is None:
            continue
        if isinstance(value, str | int | float) and not isinstance(value, bool) and value != "":
            setattr(fd, key, str(value))
        else:
            fd.findings.append(
                Finding(
                    (*loc, key),
                    "invalid-value",
                    f"{key} of a force must be text, not {type(value).__name__}; ignored",
                )
            )
    for key in node:
        if key not in KNOWN_FORCE_KEYS and not str(key).startswith(EXTENSION_PREFIX):
            fd.findings.append(
                Finding(
                    (*loc, str(key)),
                    "unknown-key",
                    f"unknown key {key!r} in a force; it is kept when the roster is saved",
                    "warning",
                )
            )
    for key in ("selections", "forces"):
        items = node.get(key)
        if items is None:
            continue
        if not isinstance(items, list):
            fd.findings.append(
                Finding((*loc, key), "invalid-value", f"{key} of a force must be a list; ignored")
            )
        elif key == "selections":
            fd.selections = [
                parse_selection(c, (*loc, "selections", i)) for i, c in enumerate(items)
            ]
        else:
            fd.forces = [parse_force(c, (*loc, "forces", i)) for i, c in enumerate(items)]
    return fd


def inherit_factions(forces: list[ForceData], faction: str) -> None:
    """Fill in the faction of each force that names none: its parent force's (the roster's
    for a top-level force)."""
    for f in forces:
        if f.faction is None:
            f.faction = faction
        inherit_factions(f.forces, f.faction)


def parse_selection(node: Any, loc: Loc, kept: list[SelectionData] | None = None) -> SelectionData:
    """One selection of a roster document (a mapping, round trip or plain) as
    :class:`SelectionData`, with its children; what cannot be read becomes a finding on it.
    Each call builds new objects: an edit session re-reads only the subtree it changed.
    ``kept``: the children as read before, for a selection whose own keys changed and not
    its selections (used when the document still holds as many)."""
    if isinstance(node, dict):
        # A str, int, float, bool or None is already plain (to_plain would give it back); only
        # round-trip values (ScalarFloat, CommentedSeq...) and collections are converted.
        node = {
            k: (v if v.__class__ in _PLAIN_SCALARS or k == "selections" else to_plain(v))
            for k, v in node.items()
        }
    if not isinstance(node, dict):
        sel = SelectionData(loc, None)
        sel.findings.append(
            Finding(
                loc,
                "invalid-selection",
                "a selection must be a mapping with an `entry:` key; kept as it is",
            )
        )
        return sel
    entry = node.get("entry")
    sel = SelectionData(loc, entry if isinstance(entry, str) and entry else None)
    if sel.entry is None:
        sel.findings.append(
            Finding(loc, "invalid-selection", "selection has no `entry:` naming a catalog entry")
        )
    count = node.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_COUNT:
        shown = repr(count) if len(repr(count)) <= 40 else f"a number of {len(str(count))} digits"
        sel.findings.append(
            Finding(
                (*loc, "count"),
                "invalid-value",
                f"count must be a whole number from 1 to {MAX_COUNT:,}, not {shown}; counted as 1",
            )
        )
    else:
        sel.count = count
    for key in ("name", "experience", "notes"):
        value = node.get(key)
        if value is None:
            continue
        if isinstance(value, str | int | float) and not isinstance(value, bool):
            setattr(sel, key, str(value))
        else:
            sel.findings.append(
                Finding(
                    (*loc, key),
                    "invalid-value",
                    f"{key} must be text, not {type(value).__name__}; ignored",
                )
            )
    state = node.get("state")
    if state is not None:
        if isinstance(state, dict):
            sel.state = {str(k): v for k, v in state.items()}
        else:
            sel.findings.append(
                Finding(
                    (*loc, "state"),
                    "invalid-value",
                    "state must be a mapping (e.g. `wounds: 2`); ignored",
                )
            )
    for key in node:
        if key not in KNOWN_SELECTION_KEYS and not str(key).startswith(EXTENSION_PREFIX):
            sel.findings.append(
                Finding(
                    (*loc, str(key)),
                    "unknown-key",
                    f"unknown key {key!r} in a selection; it is kept when the roster is saved",
                    "warning",
                )
            )
    children = node.get("selections")
    if children is not None:
        if isinstance(children, list) and kept is not None and len(kept) == len(children):
            sel.children = kept
        elif isinstance(children, list):
            sel.children = [
                parse_selection(c, (*loc, "selections", i)) for i, c in enumerate(children)
            ]
        else:
            sel.findings.append(
                Finding((*loc, "selections"), "invalid-value", "selections must be a list; ignored")
            )
    return sel


def _shares_nodes(doc: Any) -> bool:
    """Whether one mapping or list is found at two places of ``doc`` (through an alias)."""
    seen: set[int] = set()
    stack = [doc]
    while stack:
        node = stack.pop()
        if isinstance(node, dict | list):
            if id(node) in seen:
                return True
            seen.add(id(node))
            if isinstance(node, dict):
                stack.extend(node.values())
                stack.extend(source for _, source in getattr(node, "merge", None) or ())
            else:
                stack.extend(node)
    return False


class _LazyDoc:
    """The round-trip document of a roster opened from the fast parse (see
    :meth:`Roster.from_text`, ``lazy``), built once: by :meth:`start` in a worker thread, or
    when an edit first needs it. Shared by a roster and its copies (snapshots)."""

    __slots__ = ("_doc", "_error", "_lock", "base", "file", "plain", "same", "source", "want_base")

    def __init__(self, source: str, file: str, plain: Any) -> None:
        self.source = source
        self.file = file
        self.plain = plain
        self._doc: Any = None
        self._error: InputError | None = None
        self._lock = threading.Lock()
        #: Set by :meth:`Roster.prepare_merge_base`: also write down ruamel's text of it.
        self.want_base = False
        self.base: str | None = None
        #: Whether the round-trip document reads as the fast parse did (it does, but if a
        #: loader ever disagreed the roster reads its view again from the document).
        self.same = True

    @property
    def built(self) -> bool:
        return self._doc is not None or self._error is not None

    def get(self) -> Any:
        """The document (built now if it is not yet; waits for a worker building it)."""
        if self._doc is None:
            with self._lock:
                if self._doc is None and self._error is None:
                    try:
                        doc = load_round_trip(self.source, self.file)
                    except InputError as exc:
                        self._error = exc
                    else:
                        if self.want_base:
                            self.base = dump_round_trip(doc)
                            _remember_own(self.source, self.base)
                        self.same = to_plain(doc) == self.plain
                        self._doc = doc
        if self._error is not None:
            raise RosterError(self._error.problems)
        return self._doc

    def start(self) -> None:
        """Build the document in a daemon thread (an error waits for :meth:`get`)."""

        def run() -> None:
            with contextlib.suppress(RosterError):
                self.get()

        threading.Thread(target=run, name="roster-round-trip", daemon=True).start()


def _at_source_lines(
    exc: RosterError, text: str, file: str, lines: dict[tuple[str | int, ...], int]
) -> RosterError:
    """``exc``, found in the YAML ``text`` a reader converted ``file`` to, with each problem
    at the line of ``file`` its part came from (``lines``, see :attr:`Roster.source_lines`),
    without a column; or at no line where that is not known: the converted text's own lines
    (which the player never sees) would point into the wrong file."""
    import dataclasses

    by_line: dict[int, tuple[str | int, ...]] = {}
    try:
        doc = load_round_trip(text, file)
    except InputError:
        doc = None
    if doc is not None:
        for path in iter_paths(to_plain(doc)):
            line = locate(doc, path)[0]
            if line is not None and len(path) >= len(by_line.get(line, ())):
                by_line[line] = path
    problems = []
    for problem in exc.problems:
        if problem.file == file and problem.line is not None:
            found = by_line.get(problem.line)
            source = None
            if found is not None:  # the line of the innermost part the file gave a line
                source = next(
                    (lines[found[:n]] for n in range(len(found), -1, -1) if found[:n] in lines),
                    None,
                )
            problem = dataclasses.replace(problem, line=source, column=None)
        problems.append(problem)
    return RosterError(problems)


class Roster:
    """A roster file in memory: its document (as written) and a parsed view of it."""

    def __init__(
        self,
        doc: Any,
        text: str | None,
        file: str,
        path: Path | None,
        round_trip: bool,
        lazy: _LazyDoc | None = None,
    ) -> None:
        #: The round-trip document (``None`` while a lazily opened roster has not built it).
        self._doc: Any = None if lazy is not None else doc
        self._lazy = lazy
        self.text = text
        self.file = file
        self.path = path
        self.round_trip = round_trip
        self.dirty = False
        #: The file of another format this roster was converted from (it is never written).
        self.converted_from: Path | None = None
        #: Fingerprint of that file's bytes when it was converted (``None``: unknown).
        self.converted_digest: str | None = None
        #: Lines in that file, by location in this roster (from its reader, when it knows).
        self.source_lines: dict[tuple[str | int, ...], int] = {}
        #: Written back as found: a UTF-8 byte order mark, and Windows line endings.
        self.bom = False
        #: Fingerprint of the file's bytes when read or last saved (``None``: not from a file).
        self.disk_digest: str | None = None
        self.newline = "\r\n" if text is not None and "\r\n" in text else "\n"
        self._positions: Any = doc if round_trip and lazy is None else None
        #: (text, ruamel's text of that text unedited): the base of the merge in dumps().
        self._base_dump: tuple[str, str] | None = None
        self._last_dump: str | None = None
        self._nodes: Any = None
        #: The round-trip document's own marks (lines and columns) are of the text it was
        #: read from, not of :attr:`text`: it was edited and saved since (see :meth:`position`).
        self._marks_stale = False
        self._may_share: bool | None = None
        self.header: RosterHeader = self._parse_header()
        self.selections: list[SelectionData] = []
        #: The forces of a roster of several forces (format 2); ``None`` for a roster of one
        #: force (format 1), whose selections are :attr:`selections`.
        self.forces: list[ForceData] | None = None
        self.findings: list[Finding] = []
        self.refresh()

    # ----------------------------------------------------------------- construction

    @classmethod
    def from_text(
        cls,
        text: str,
        file: str = "<roster>",
        path: Path | None = None,
        round_trip: bool = True,
        lazy: bool = False,
    ) -> Roster:
        """Parse roster text. ``round_trip=False`` is faster but cannot be saved after edits.

        ``lazy`` (with ``round_trip``): read the roster with the fast loader, so that it can be
        shown and validated at once, and build the round-trip document (comments, key order,
        positions, needed to edit and save) only when first needed, or in a worker
        (:meth:`prepare_round_trip`). The roster edits and saves exactly as an eager one.
        """
        if len(text) > MAX_ROSTER_BYTES:
            raise RosterError.single(
                file,
                f"a roster of {len(text) / 1048576:.1f} MiB is refused: the limit is "
                f"{MAX_ROSTER_BYTES / 1048576:.0f} MiB (a regiment of 75 platoons is 0.15 MiB)",
                code="file-too-large",
            )
        # Windows line ends are parsed as "\n" (ruamel would keep the "\r" in comments and
        # write "\r\r\n") and written back as "\r\n" (see dumps).
        source = text.replace("\r\n", "\n") if "\r\n" in text else text
        try:
            if round_trip and lazy:
                try:
                    doc = load_safe(source, file)
                except InputError:
                    # A file opened to edit is judged as the round-trip loader says it (its
                    # messages, which the eager path gives); it raises here, or (no loader
                    # should disagree) reads the file after all, eagerly.
                    doc = load_round_trip(source, file)
                    lazy = False
            else:
                doc = load_round_trip(source, file) if round_trip else load_safe(source, file)
        except InputError as exc:
            raise RosterError(exc.problems) from None
        if doc is None:
            raise RosterError.single(
                file,
                "the file is empty; a roster needs at least `system`, `faction` and `name`",
                1,
                1,
                "roster-invalid",
            )
        if not isinstance(doc, dict):
            raise RosterError.single(
                file,
                "a roster must be a mapping (keys such as `system:`, "
                "`faction:`, `name:`, `selections:`)",
                1,
                1,
                "roster-invalid",
            )
        if round_trip and lazy:
            return cls(doc, text, file, path, True, _LazyDoc(source, file, doc))
        return cls(doc, text, file, path, round_trip)

    @classmethod
    def from_file(
        cls, path: Path | str, round_trip: bool = True, library: Any = None, lazy: bool = False
    ) -> Roster:
        """Read a roster file (raises :class:`RosterError` when it cannot be understood).

        A file of another format with a registered reader (see ``formats.py``) is converted:
        the roster is marked :attr:`converted_from` and saves as YAML beside it (never over it).
        """
        p = Path(path)
        other = roster_reader(p)
        if other is not None:
            text = other[1](p, library)
            # (After the reader, which refuses a file too large to read before reading it.)
            converted_digest = file_digest(p)
            found = getattr(text, "positions", None)
            source_lines = dict(found) if isinstance(found, dict) else {}
            try:
                roster = cls.from_text(str(text), str(p), None, round_trip)
            except RosterError as exc:
                raise _at_source_lines(exc, str(text), str(p), source_lines) from None
            roster.converted_from = p
            roster.converted_digest = converted_digest
            roster.source_lines = source_lines
            roster.path = p.with_suffix(".yaml")
            roster.dirty = True
            return roster
        try:
            data = read_bytes(p, MAX_ROSTER_BYTES)
            text = decode(data, str(p))
        except InputError as exc:
            raise RosterError(exc.problems) from None
        roster = cls.from_text(text, str(p), p, round_trip, lazy)
        roster.bom = data.startswith(b"\xef\xbb\xbf")
        roster.disk_digest = digest(data)
        return roster

    @classmethod
    def new(
        cls,
        system: str,
        faction: str,
        name: str,
        limits: dict[str, float] | None = None,
        schema: str | None = None,
        comment: str | None = None,
    ) -> Roster:
        """A fresh, empty roster (not yet saved)."""
        doc = CommentedMap()
        doc["format"] = FORMAT_VERSION
        doc["system"] = system
        doc["faction"] = faction
        doc["name"] = name
        if limits:
            lm = CommentedMap()
            for k, v in limits.items():
                lm[k] = int(v) if float(v).is_integer() else v
            doc["limits"] = lm
        doc["selections"] = CommentedSeq()
        lines = []
        if schema:
            lines.append(f"yaml-language-server: $schema={schema}")
        if comment:
            lines.extend(comment.splitlines())
        if lines:
            doc.yaml_set_start_comment("\n".join(lines))
        text = dump_round_trip(doc)
        return cls.from_text(text, "<new roster>")

    # ----------------------------------------------------------------- the document

    @property
    def doc(self) -> Any:
        """The round-trip document (of a lazily opened roster: built now if it is not yet)."""
        if self._doc is None:
            self._adopt()
        return self._doc

    @doc.setter
    def doc(self, value: Any) -> None:
        self._doc = value
        self._lazy = None
        self._may_share = None

    @property
    def may_share(self) -> bool:
        """Whether two places of the round-trip document may hold one node (a file's
        anchors and aliases: ``&a`` ... ``*a``, also the ``&id001`` kind that ruamel does not
        keep the name of), so that an edit must first give the place it changes a copy of
        its own (:func:`armybuilder.session.operations.unshare`). Worked out once, by one walk
        of the document, and only for a text with a ``*`` in it (no alias without one): an
        edit never makes two places share a node."""
        found = self._may_share
        if found is None:
            text = self.text
            found = self._may_share = (text is None or "*" in text) and _shares_nodes(self.doc)
        return found

    @property
    def doc_ready(self) -> bool:
        """Whether the round-trip document is built (a lazily opened roster's may not be)."""
        return self._doc is not None or self._lazy is None or self._lazy.built

    def prepare_round_trip(self) -> None:
        """Start building the round-trip document of a lazily opened roster in a worker
        thread, so that the first edit finds it ready (nothing to do for any other roster)."""
        if self._doc is None and self._lazy is not None and not self._lazy.built:
            self._lazy.start()

    def _adopt(self) -> None:
        lazy = self._lazy
        assert lazy is not None
        doc = lazy.get()
        self._doc = doc
        self._positions = doc
        if lazy.base is not None and self._base_dump is None and self.text is not None:
            self._base_dump = (self.text.replace("\r\n", "\n"), lazy.base)
        if not lazy.same:
            self.refresh()

    @property
    def view(self) -> Any:
        """The document, to read only: the round-trip one, or (a lazily opened roster's,
        until that is built) the fast parse of the same text, as plain data."""
        return self._read

    @property
    def _read(self) -> Any:
        """The document to read: the round-trip one, or the fast parse until it is built."""
        if self._doc is not None:
            return self._doc
        lazy = self._lazy
        if lazy is None:
            return None
        if lazy.built and lazy.same:
            with contextlib.suppress(RosterError):
                self._adopt()
                return self._doc
        return lazy.plain

    # ----------------------------------------------------------------- parsing

    def _parse_header(self) -> RosterHeader:
        data = {k: v for k, v in self._read.items() if k not in ("selections", "custom", "forces")}
        plain = to_plain(data)
        fast = fast_header(plain)
        if fast is not None:  # an ordinary header: checked without pydantic
            self._check_form(fast)
            return fast
        from pydantic import ValidationError

        from .model.messages import describe_errors
        from .model.roster import RosterHeader

        try:
            header = RosterHeader.model_validate(plain)
        except ValidationError as exc:
            problems = []
            for loc, msg in describe_errors(exc, plain):
                line, col = self.position(tuple(loc))
                key = loc[0] if loc else "roster"
                if key not in data:
                    msg = f"missing `{key}:`; a roster must say its system, faction and name"
                elif key == "format":
                    msg = (
                        f"unsupported roster format {data.get('format')!r}; this version "
                        f"reads format {FORMAT_VERSION} (one force) and format {FORCES_FORMAT} "
                        "(several forces)"
                    )
                problems.append(Problem(self.file, msg, line, col, "roster-invalid"))
            raise RosterError(problems) from None
        self._check_form(header)
        return header

    def _check_form(self, header: RosterHeader) -> None:
        """A roster is of one force (format 1, top-level ``selections:``) or of several
        (format 2, top-level ``forces:``): anything in between is refused, with the line."""
        doc = self._read
        several = header.format == FORCES_FORMAT

        def refuse(key: str, msg: str) -> None:
            line, col = self.position((key,))
            raise RosterError([Problem(self.file, msg, line, col, "roster-invalid")])

        if several and "selections" in doc:
            refuse(
                "selections",
                "top-level `selections:` in a roster with `format: 2`: every selection of a "
                "roster of several forces belongs to a force; move these into the "
                "`selections:` of a force under `forces:`"
                + ("" if "forces" in doc else " (and add the `forces:` list)"),
            )
        if several and "forces" not in doc:
            refuse(
                "format",
                "a roster with `format: 2` lists its forces under `forces:` (each with "
                "`force:`, `faction:` and `selections:`); add it, or write `format: 1` for a "
                "roster of one force",
            )
        if several and not isinstance(doc.get("forces"), list):
            refuse("forces", "`forces:` must be a list of forces (each with `force:`)")
        if not several and "forces" in doc:
            both = "selections" in doc
            refuse(
                "forces",
                (
                    "this roster has both `selections:` and `forces:`; a roster has one or the "
                    "other: "
                    if both
                    else "`forces:` (a roster of several forces) "
                )
                + "write `format: 2` and keep every selection inside a force, or remove "
                "`forces:` for a roster of one force (format 1)",
            )

    def retext(self, text: str) -> None:
        """The roster's text is now ``text``, which its document equals (a new roster's text
        made again after its document changed). The document's marks are of the text it was
        read from: positions are read from ``text`` when first asked for."""
        self.text = text
        self._marks_stale = True

    def refresh(self) -> None:
        """Re-read the parsed view after the document changed."""
        self.findings = []
        self.forces = None
        doc = self._read
        if self.header.format == FORCES_FORMAT and isinstance(doc.get("forces"), list):
            self.selections = []
            self.forces = [parse_force(f, ("forces", i)) for i, f in enumerate(doc["forces"])]
            inherit_factions(self.forces, self.faction)
            if doc.get("force") is not None:
                self.findings.append(
                    Finding(
                        ("force",),
                        "unknown-key",
                        "a top-level `force:` is not read in a roster of several forces (each "
                        "force names its own); it is kept when the roster is saved",
                        "warning",
                    )
                )
            self._unknown_keys()
            return
        sels = doc.get("selections")
        if sels is None:
            self.selections = []
        elif isinstance(sels, list):
            self.selections = [parse_selection(s, ("selections", i)) for i, s in enumerate(sels)]
        else:
            self.selections = []
            self.findings.append(
                Finding(("selections",), "invalid-value", "selections must be a list")
            )
        self._unknown_keys()

    def _unknown_keys(self) -> None:
        for key in self._read:
            if key not in KNOWN_ROSTER_KEYS and not str(key).startswith(EXTENSION_PREFIX):
                self.findings.append(
                    Finding(
                        (str(key),),
                        "unknown-key",
                        f"unknown key {key!r}; it is kept when the roster is saved",
                        "warning",
                    )
                )

    # ----------------------------------------------------------------- accessors

    @property
    def custom(self) -> Any:
        """The roster's own entries (its ``custom:`` key) as plain data, or ``None``."""
        raw = self._read.get("custom")
        return to_plain(raw) if raw is not None else None

    @property
    def system(self) -> str:
        return self.header.system

    @property
    def faction(self) -> str:
        """The (first) faction id."""
        f = self.header.faction
        return f[0] if isinstance(f, list) else f

    @property
    def name(self) -> str:
        return self.header.name

    @property
    def several(self) -> bool:
        """Whether the roster is written as several forces (format 2, ``forces:``)."""
        return self.forces is not None

    def all_forces(self) -> Iterator[ForceData]:
        """Every force (child forces after their parent), none for a roster of one force."""
        for f in self.forces or ():
            yield from f.walk()

    def factions(self) -> list[str]:
        """The faction ids the roster draws on, the roster's own first, each once."""
        out = [self.faction]
        for f in self.all_forces():
            if f.faction and f.faction not in out:
                out.append(f.faction)
        return out

    def walk(self) -> Iterator[SelectionData]:
        """Every selection (of every force), depth first."""
        for s in self.selections:
            yield from s.walk()
        for f in self.all_forces():
            yield from f.all_selections()

    def position(self, loc: Sequence[str | int]) -> tuple[int | None, int | None]:
        """Line and column of a location (1-based).

        An editable roster knows its positions; a read-only one composes its text once (fast)
        the first time a position is asked for. A roster with edits not saved has no position
        to give (``None, None``): its file does not hold them yet, and what was added or moved
        has no line there; once saved, positions are those of the text saved. A roster
        converted from another format has only the line its reader gave (:attr:`source_lines`)
        of the innermost part holding the location, and no column (lines of the converted text
        would point into the wrong file).
        """
        if self.converted_from is not None:
            for n in range(len(loc), -1, -1):
                line = self.source_lines.get(tuple(loc[:n]))
                if line is not None:
                    return line, None
            return None, None
        if self.dirty:
            return None, None
        if self._marks_stale:
            self._positions = None
        elif self._positions is None and self._lazy is not None and self._lazy.built:
            with contextlib.suppress(RosterError):
                self._adopt()  # (a worker built the document: it knows its positions)
        if self._positions is None:
            if self.text is None:
                return None, None
            try:
                self._nodes = (
                    self._nodes if self._nodes is not None else compose(self.text, self.file)
                )
            except InputError:
                return None, None
            return locate_node(self._nodes, loc)
        return locate(self._positions, loc)

    def follow_save(self, saved: Roster) -> None:
        """Take over what saving ``saved`` changed in it (its text, file, and so where things
        are): this roster is a snapshot of ``saved`` (:meth:`copy.copy`) with no edit since."""
        for name in ("text", "dirty", "path", "file", "disk_digest", "_marks_stale"):
            setattr(self, name, getattr(saved, name))
        self._positions = saved._positions
        self._nodes = saved._nodes

    def node(self, loc: Sequence[str | int]) -> Any:
        """The document node at a location."""
        node = self.doc
        for step in loc:
            node = node[step]
        return node

    # ----------------------------------------------------------------- editing

    def _require_round_trip(self) -> None:
        if not self.round_trip:
            raise RuntimeError("this roster was loaded read-only (round_trip=False)")

    def _touch(self) -> None:
        self.dirty = True
        self.refresh()

    def add(
        self, parent: Loc, entry: str, count: int = 1, name: str | None = None, **extra: Any
    ) -> Loc:
        """Append a selection under ``parent`` (``()`` for the top level); returns its loc."""
        self._require_round_trip()
        owner = self.node(parent) if parent else self.doc
        seq = owner.get("selections")
        if seq is None:
            seq = CommentedSeq()
            owner["selections"] = seq
        item = CommentedMap()
        item["entry"] = entry
        if count != 1:
            item["count"] = count
        if name:
            item["name"] = name
        for k, v in extra.items():
            if v is not None:
                item[k] = v
        seq.append(item)
        self._touch()
        return (*parent, "selections", len(seq) - 1)

    def remove(self, loc: Loc) -> Any:
        """Remove the selection at ``loc``; returns it (for undo)."""
        self._require_round_trip()
        parent = self.node(loc[:-1])
        removed = parent.pop(loc[-1])
        self._touch()
        return removed

    def set(self, loc: Loc, key: str, value: Any) -> None:
        """Set (or, with ``None``, delete) a key of the mapping at ``loc``."""
        self._require_round_trip()
        node = self.node(loc) if loc else self.doc
        if value is None:
            node.pop(key, None)
        else:
            node[key] = value
        if not loc and key not in ("selections", "custom"):
            # A header key (name, limits...): read the header again; an invalid value keeps
            # the previous header (the file still holds what was set, and validation says so).
            with contextlib.suppress(RosterError):
                self.header = self._parse_header()
        self._touch()

    # ----------------------------------------------------------------- saving

    def dumps(self) -> str:
        """The file's text: the original text if nothing changed."""
        if not self.dirty and self.text is not None:
            return self.text
        self._require_round_trip()
        text = self._last_dump = dump_round_trip(self.doc)
        if self.text is not None:
            text = self._keep_user_text(text)
        if self.newline != "\n":
            text = text.replace("\n", self.newline)
        return text

    def prepare_merge_base(self) -> None:
        """Write down, while nothing is edited yet, how ruamel writes this roster: saving
        an edit then keeps the user's own text without parsing the file again. Costs one
        dump (a regiment: under a second); the edit session does it when it opens a file."""
        if self.dirty or self.text is None or not self.round_trip:
            return
        ours = self.text.replace("\r\n", "\n")
        if self._base_dump is not None and self._base_dump[0] == ours:
            return
        from . import ownform

        if ownform.known(ours):  # computed before: the text is its own base
            self._base_dump = (ours, ours)
            return
        if self._doc is None and self._lazy is not None:
            self._lazy.want_base = True  # written down when the document is built
            return
        self._base_dump = (ours, dump_round_trip(self.doc))
        _remember_own(ours, self._base_dump[1])

    def _keep_user_text(self, edited: str) -> str:
        """``edited`` (ruamel's text of the edited roster) with the user's own lines kept
        wherever nothing was edited: comments ruamel drops (above ``---``, inside flow lists
        over several lines), the ``---`` and ``...`` markers, spacing (see
        :mod:`armybuilder.textmerge`). The merge is used only if it reads back as the edited
        roster; otherwise ruamel's text is written."""
        from .textmerge import merge3

        assert self.text is not None
        ours = self.text.replace("\r\n", "\n")
        if self._base_dump is None or self._base_dump[0] != ours:
            from . import ownform

            if ownform.known(ours):  # computed before: the text is its own base
                self._base_dump = (ours, ours)
                return edited
            try:
                base = dump_round_trip(load_round_trip(ours, self.file))
            except InputError:
                return edited
            self._base_dump = (ours, base)
            _remember_own(ours, base)
        base = self._base_dump[1]
        if base == ours:
            return edited  # the file is exactly as ruamel writes it
        # What ruamel never writes (comments and directives above `---`, the `---` itself,
        # and `...` with what follows) is the user's, whatever the edit.
        lines = ours.splitlines(keepends=True)
        head, body, tail = _markers(lines)
        merged = "".join(
            head
            + merge3(base.splitlines(keepends=True), body, edited.splitlines(keepends=True))
            + tail
        )
        if merged == edited:
            return edited
        try:  # the merge must read back as the edited roster (the fast loader is enough)
            again = load_safe(merged, self.file)
        except InputError:
            return edited
        if not _same_data(again, to_plain(self.doc)):
            return edited
        return merged

    def save(
        self,
        path: Path | str | None = None,
        backup: bool = True,
        *,
        overwrite: bool = False,
    ) -> Path:
        """Write the roster atomically; the previous file is kept as ``<name>.bak``.

        Raises :class:`ChangedOnDiskError` (and writes nothing) when the file changed on disk
        since this roster read or last saved it, or when ``path`` is another file that exists;
        ``overwrite=True`` replaces it anyway (the replaced file is still kept as ``.bak``).
        A path that is a symbolic link is written through: the file it points to is replaced
        and the link kept.
        """
        return self.commit_save(self.write_save(path, backup, overwrite=overwrite))

    def write_save(
        self,
        path: Path | str | None = None,
        backup: bool = True,
        *,
        overwrite: bool = False,
    ) -> WrittenSave:
        """The slow half of :meth:`save` (the dump, the conflict check, the atomic write),
        which may run in a worker thread while nothing edits the roster: it changes nothing
        a reader of the roster sees (only what the next save's merge reuses). The roster
        takes the file as saved in :meth:`commit_save`, called next, on the caller's thread."""
        target = Path(path) if path is not None else self.path
        if target is None:
            raise ValueError("no path to save to")
        if not overwrite:
            self.check_conflict(target)
        text = self.dumps()
        data = (("\ufeff" if self.bom else "") + text).encode("utf-8")
        atomic_write(target, data, backup=backup)
        return WrittenSave(target, text, data, self._last_dump if self.dirty else None)

    def commit_save(self, written: WrittenSave) -> Path:
        """The roster's own file is now ``written`` (see :meth:`write_save`)."""
        target, text, data = written.target, written.text, written.data
        if self.dirty and self.round_trip:
            # What was written reads back as the document: ruamel's text of it is the base
            # of the next save's merge (no need to parse the file again).
            self._base_dump = (text.replace("\r\n", "\n"), written.dump or "")
            if not written.dump:
                self._base_dump = None
        if self.dirty:
            # The document's marks are of the text first read: positions come from the text
            # written now (composed when first asked for).
            self._marks_stale = True
            self._positions = None
            self._nodes = None
        self.text = text
        self.dirty = False
        self.path = target
        self.file = str(target)
        self.disk_digest = digest(data)
        return target

    def changed_on_disk(self) -> bool:
        """Whether this roster's own file now holds other bytes than were last read or
        written here (another window or program saved it)."""
        if self.path is None or self.disk_digest is None:
            return False
        return file_digest(self.path) != self.disk_digest

    def check_conflict(self, target: Path) -> None:
        """Raise :class:`ChangedOnDiskError` if saving to ``target`` would replace a file
        this roster did not read (or that changed on disk since it was read or saved)."""
        if not target.exists():
            return
        same = self.path is not None and same_file(target, self.path)
        if not same:
            raise ChangedOnDiskError(
                target, "already exists and is not the file this roster was opened from"
            )
        if self.disk_digest is None:
            if self.converted_from is not None:
                # Converted from another format: the file beside it was never read here
                # (another roster, or this one saved earlier from another window).
                raise ChangedOnDiskError(
                    target,
                    f"already exists and is not the file this roster was converted from "
                    f"({self.converted_from.name})",
                )
            return  # read from text, not from this file: nothing to compare with
        if file_digest(target) != self.disk_digest:
            raise ChangedOnDiskError(
                target,
                "changed on disk since it was opened (saved from another window or edited "
                "in another program)",
            )


@dataclass(frozen=True)
class WrittenSave:
    """A roster's text written to ``target`` by :meth:`Roster.write_save`: ``data`` the
    bytes, ``dump`` ruamel's text of the edited document (``None``: nothing was edited)."""

    target: Path
    text: str
    data: bytes
    dump: str | None


def _same_data(a: Any, b: Any) -> bool:
    """Whether two plain documents hold the same data: as ``==`` says, except that a boolean
    is never equal to a number nor an integer to a float (``==`` says ``True == 1 == 1.0``),
    ``0.0`` is not ``-0.0``, and a NaN equals a NaN (``==`` says never, which made every save
    of a roster holding ``.nan`` drop the player's own lines)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if isinstance(x, dict) or isinstance(y, dict):
            if not (isinstance(x, dict) and isinstance(y, dict)) or x.keys() != y.keys():
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif isinstance(x, list) or isinstance(y, list):
            if not (isinstance(x, list) and isinstance(y, list)) or len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif _kind(x) is not _kind(y):
            return False
        elif isinstance(x, float):
            if math.isnan(x) or math.isnan(y):
                if not (math.isnan(x) and math.isnan(y)):
                    return False
            elif x != y or math.copysign(1.0, x) != math.copysign(1.0, y):
                return False
        elif x != y:
            return False
    return True


def _kind(value: Any) -> type:
    """bool, int, float, or (anything else) object."""
    for kind in (bool, int, float):
        if isinstance(value, kind):
            return kind
    return object


def _remember_own(text: str, base: str) -> None:
    """Write down (:mod:`armybuilder.ownform`) that ``text`` is its own merge base, when the
    dump ``base`` of it just computed says so."""
    if base == text:
        from . import ownform

        ownform.remember(text)


def _markers(lines: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Split a document's lines into (up to its ``---`` line, its body, from its ``...``
    line): the parts ruamel drops."""
    start = 0
    for i, line in enumerate(lines):
        text = line.strip()
        if not text or text.startswith(("#", "%")):
            continue
        if text == "---" or text.startswith("--- #"):
            start = i + 1
        break
    end = len(lines)
    for i in range(len(lines) - 1, start - 1, -1):
        text = lines[i].strip()
        if not text or text.startswith("#"):
            continue
        if text == "...":
            end = i
        break
    return lines[:start], lines[start:end], lines[end:]


def atomic_write(target: Path | str, data: str | bytes, backup: bool = True) -> Path:
    """Write ``data`` to ``target`` atomically, keeping the old file as ``target.bak``
    (see :func:`armybuilder.fileio.atomic_write`)."""
    return _atomic_write(target, data, backup=backup)
