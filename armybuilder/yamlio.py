"""Safe YAML reading for untrusted files, and positions for error messages.

Two loaders are used:

* the *safe* loader (C-accelerated when ``ruamel.yaml.clib`` is installed) for catalogs and
  for read-only validation: plain dicts, lists and scalars, no object construction;
* the *round-trip* loader for a roster being edited: it keeps comments, key order and
  formatting so that saving gives back the same bytes. A file without comments below its
  opening lines (what this tool writes) has that document built from libyaml's events,
  exactly as ruamel would build it, about ten times faster (see "the fast round-trip loader").

Both go through the same limits: a maximum file size, strict UTF-8, no tags other than the
standard ones, and a bounded number of nodes after alias expansion (an "alias bomb" is refused
instead of eating memory). :func:`locate` turns a path of keys and indexes into a line and
column using the round-trip document.
"""

from __future__ import annotations

import datetime as _dt
import io
import re
import stat
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq, LineCol, TaggedScalar
from ruamel.yaml.composer import Composer, ComposerError
from ruamel.yaml.constructor import RoundTripConstructor, SafeConstructor
from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent
from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode
from ruamel.yaml.reader import ReaderError
from ruamel.yaml.representer import RoundTripRepresenter
from ruamel.yaml.scalarbool import ScalarBoolean
from ruamel.yaml.scalarfloat import ScalarFloat
from ruamel.yaml.scalarstring import DoubleQuotedScalarString, SingleQuotedScalarString

from .errors import InputError, Problem

#: Largest file accepted, in bytes (catalogs).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Largest roster accepted, in bytes: a regiment of 75 platoons is 0.15 MiB, and ruamel's
#: round-trip parser (a file with comments in its body) needs about 10 s and 80 MiB of memory
#: per MiB of roster.
MAX_ROSTER_BYTES = 2 * 1024 * 1024
#: Largest number of nodes a document may expand to (aliases counted each time they are used).
MAX_NODES = 500_000
#: Deepest nesting accepted.
MAX_DEPTH = 64

_STANDARD_TAG_PREFIX = "tag:yaml.org,2002:"
_STANDARD_TAGS = {
    "str",
    "int",
    "float",
    "bool",
    "null",
    "map",
    "seq",
    "timestamp",
    "binary",
    "omap",
    "set",
}

Loc = Sequence[str | int]


def read_text(path: Path, max_bytes: int | None = None) -> str:
    """Read a file as UTF-8 text, refusing huge files (over :data:`MAX_FILE_BYTES` unless
    ``max_bytes`` says otherwise) and invalid encodings."""
    return decode(read_bytes(path, max_bytes), str(path))


def read_bytes(path: Path, max_bytes: int | None = None) -> bytes:
    """A file's bytes, refusing folders and files over ``max_bytes`` (before reading them)."""
    if max_bytes is None:
        max_bytes = MAX_FILE_BYTES
    try:
        st = path.stat()
    except FileNotFoundError:
        said = "no such file"
        if str(path) == "-":  # (the usual way to say "standard input", which is not read)
            said += "; a roster is read from a file, not from standard input: save it to a file"
        raise InputError.single(path, said, code="file-not-found") from None
    except OSError as exc:
        raise InputError.single(path, f"cannot read: {exc.strerror}", code="unreadable") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError.single(path, "is a folder, not a file", code="unreadable")
    if not stat.S_ISREG(st.st_mode):
        raise InputError.single(
            path, "is not a regular file (a pipe or a device); refused", code="unreadable"
        )
    size = st.st_size
    if size > max_bytes:
        raise InputError.single(
            path,
            f"file is {size / 1048576:.1f} MiB; the limit is {max_bytes / 1048576:.0f} MiB "
            "(refused before reading it: no roster or catalog this tool writes is this large)",
            code="file-too-large",
        )
    try:
        with path.open("rb") as fh:
            data = fh.read(max_bytes + 1)  # the file may have grown since
        if len(data) > max_bytes:
            raise InputError.single(
                path,
                f"file is over the limit of {max_bytes / 1048576:.0f} MiB; refused",
                code="file-too-large",
            )
        return data
    except OSError as exc:
        raise InputError.single(path, f"cannot read: {exc.strerror}", code="unreadable") from None


def decode(data: bytes, file: str) -> str:
    """Decode UTF-8 (a BOM is allowed), naming the line and column of a bad byte."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        line_start = before[before.rfind(b"\n") + 1 :]
        column = len(line_start.decode("utf-8", errors="replace")) + 1
        raise InputError.single(
            file,
            f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded "
            "(save the file as UTF-8)",
            line,
            column,
            code="not-utf8",
        ) from None


def _yaml_problem(exc: YAMLError, file: str, text: str | None = None) -> Problem:
    """Turn a ruamel error into a problem with a position and a readable message."""
    line = column = None
    message = str(exc).split("\n")[0]
    if isinstance(exc, ReaderError) and text is not None:
        # A character YAML does not allow (NUL, BEL...): its index in the text gives the place.
        before = text[: exc.position]
        line = before.count("\n") + 1
        column = exc.position - (before.rfind("\n") + 1) + 1
        char = text[exc.position] if exc.position < len(text) else ""
        return Problem(
            file,
            f"the character U+{ord(char or chr(0)):04X} ({exc.reason}) may not appear in "
            "YAML; remove it",
            line,
            column,
            code="yaml-syntax",
        )
    if isinstance(exc, MarkedYAMLError):
        mark = exc.problem_mark or exc.context_mark
        if mark is not None:
            line, column = mark.line + 1, mark.column + 1
        parts = [p for p in (exc.context, exc.problem) if p]
        if parts:
            message = "; ".join(parts)
        if "duplicate key" in (exc.problem or ""):
            message = exc.problem or message
            message = message.split(" with value")[0]
    tag_hint = "could not determine a constructor for the tag"
    if tag_hint in message:
        message = message.replace(tag_hint, "tags are not allowed; found the tag")
        return Problem(file, message, line, column, code="yaml-tag")
    return Problem(file, f"YAML syntax error: {message}", line, column, code="yaml-syntax")


def _check_tag(node: Any, file: str, where: tuple[int, int] | None) -> None:
    tag = getattr(node, "tag", None)
    value = getattr(tag, "value", tag) if tag is not None else None
    if not value or not isinstance(value, str):
        return
    if (
        value.startswith(_STANDARD_TAG_PREFIX)
        and value[len(_STANDARD_TAG_PREFIX) :] in _STANDARD_TAGS
    ):
        return
    line, col = where if where else (None, None)
    raise InputError.single(
        file, f"tags are not allowed; found the tag {value!r}", line, col, code="yaml-tag"
    )


def _joined(text: str) -> str:
    """``text`` with each pair of surrogate escapes (``"\\ud83d\\ude00"``, as JSON writes a
    character beyond U+FFFF) read as the one character it encodes (😀); a lone half is left
    as it is (:func:`_check_text` refuses it)."""
    return re.sub(
        "[\ud800-\udbff][\udc00-\udfff]",
        lambda m: m.group().encode("utf-16-le", "surrogatepass").decode("utf-16-le"),
        text,
    )


def _check_text(text: str, file: str, where: tuple[int, int] | None) -> str:
    """``text`` with its surrogate pairs joined (:func:`_joined`); refuse text that cannot be
    written back as UTF-8 even so (a lone ``"\\ud83d"`` escape: half of a character), as the
    safe loader does."""
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    text = _joined(text)
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError as exc:
        line, col = where if where else (None, None)
        code = ord(text[exc.start])
        if code < 0xDC00:
            why = (
                "the first half of a character (a surrogate) without its second half: "
                "a \\udc00 to \\udfff escape right after it"
            )
        else:
            why = (
                "the second half of a character (a surrogate) without its first half: "
                "a \\ud800 to \\udbff escape right before it"
            )
        raise InputError.single(
            file,
            f"YAML syntax error: the escape \\u{code:04x} is {why}, and half a character "
            "is no text a file can hold; write the character itself (or both halves)",
            line,
            col,
            code="yaml-syntax",
        ) from None


def _rename_key(node: Any, old: Any, new: Any) -> None:
    """Key ``old`` of mapping ``node`` renamed ``new`` in its place (with its position and
    comments in a round-trip mapping)."""
    items = list(node.items())
    node.clear()
    for k, v in items:
        node[new if k == old else k] = v
    for attr in ("lc", "ca"):
        data = getattr(getattr(node, attr, None), "data" if attr == "lc" else "items", None)
        if isinstance(data, dict) and old in data:
            data[new] = data.pop(old)


def check_limits(doc: Any, file: str, max_nodes: int = MAX_NODES) -> None:
    """Refuse documents that expand to too many nodes, nest too deep or carry custom tags.

    Aliases are followed every time they are used, so a document built to explode
    ("billion laughs") is caught after ``max_nodes`` steps rather than after filling memory.
    """
    budget = max_nodes
    stack: list[tuple[Any, int, tuple[int, int] | None]] = [(doc, 0, None)]
    seen: set[int] = set()
    shared = False
    top: dict[int, tuple[int, int] | None] = {}  # depth-1 value -> its position
    while stack:
        node, depth, where = stack.pop()
        budget -= 1
        if depth == 1:
            top[0] = where
        if budget < 0:
            if shared:
                message = (
                    f"document expands to more than {max_nodes:,} values through its aliases "
                    "(`*name` used many times); refused"
                )
            else:
                message = f"document holds more than {max_nodes:,} values; refused as too large"
            line, col = top.get(0) or (None, None)
            raise InputError.single(file, message, line, col, code="yaml-too-large")
        if depth > MAX_DEPTH:
            line, col = where if where else (None, None)
            raise InputError.single(
                file,
                f"nested more than {MAX_DEPTH} levels deep; refused",
                line,
                col,
                code="yaml-too-deep",
            )
        _check_tag(node, file, where)
        if isinstance(node, str) and not node.isascii():
            _check_text(node, file, where)  # (the root: a text alone, no roster)
        if isinstance(node, dict | list):
            if id(node) in seen:
                shared = True
            seen.add(id(node))
        if isinstance(node, dict):
            for key in list(node):
                if isinstance(key, str) and not key.isascii():
                    whole = _check_text(key, file, _pos_key(node, key) or where)
                    if whole != key:
                        if whole in node:
                            line, col = _pos_key(node, key) or where or (None, None)
                            raise InputError.single(
                                file,
                                f"YAML syntax error: duplicate key {whole!r}",
                                line,
                                col,
                                code="yaml-syntax",
                            )
                        _rename_key(node, key, whole)
                        key = whole
                value = node[key]
                pos = _pos_value(node, key)
                if isinstance(value, str) and not value.isascii():
                    whole = _check_text(value, file, pos or where)
                    if whole != value:
                        node[key] = value = type(value)(whole)
                stack.append((value, depth + 1, pos or where))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                pos = _pos_item(node, i)
                if isinstance(value, str) and not value.isascii():
                    whole = _check_text(value, file, pos or where)
                    if whole != value:
                        node[i] = value = type(value)(whole)
                stack.append((value, depth + 1, pos or where))


def _pos_value(node: Any, key: Any) -> tuple[int, int] | None:
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        line, col = lc.value(key)
    except (KeyError, TypeError, AttributeError):
        return None
    return int(line) + 1, int(col) + 1


def _pos_key(node: Any, key: Any) -> tuple[int, int] | None:
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        line, col = lc.key(key)
    except (KeyError, TypeError, AttributeError):
        return None
    return int(line) + 1, int(col) + 1


def _pos_item(node: Any, index: int) -> tuple[int, int] | None:
    lc = getattr(node, "lc", None)
    if lc is None:
        return None
    try:
        line, col = lc.item(index)
    except (KeyError, TypeError, AttributeError, IndexError):
        return None
    return int(line) + 1, int(col) + 1


_INT_TAG = "tag:yaml.org,2002:int"


def _bounded_int(constructor: Any, node: Any, base: Any) -> Any:
    """Read an int; a value Python cannot read (``!!int abc``, a number thousands of digits
    long) raises ValueError, which the loaders report at its line and column."""
    return base(constructor, node)


class _SafeConstructor(SafeConstructor):
    def construct_yaml_int(self, node: Any) -> Any:
        return _bounded_int(self, node, SafeConstructor.construct_yaml_int)


class _RoundTripConstructor(RoundTripConstructor):
    def construct_yaml_int(self, node: Any) -> Any:
        return _bounded_int(self, node, RoundTripConstructor.construct_yaml_int)


_SafeConstructor.add_constructor(_INT_TAG, _SafeConstructor.construct_yaml_int)
_RoundTripConstructor.add_constructor(_INT_TAG, _RoundTripConstructor.construct_yaml_int)


def _safe_yaml() -> YAML:
    yaml = YAML(typ="safe")
    yaml.Constructor = _SafeConstructor
    yaml.allow_duplicate_keys = False
    return yaml


class _Representer(RoundTripRepresenter):
    """Writes a date used in two places (a duplicated selection) twice, not as an alias."""

    def ignore_aliases(self, data: Any) -> bool:
        if isinstance(data, _dt.date) and getattr(getattr(data, "anchor", None), "value", None):
            return False
        if isinstance(data, _dt.date):
            return True
        return bool(super().ignore_aliases(data))

    def represent_scalar(
        self, tag: Any, value: Any, style: Any = None, anchor: Any = None
    ) -> ScalarNode:
        """Text holding a next-line character (U+0085) is written between double quotes,
        where it is escaped (``\\N``): ruamel writes it as it is in the other styles, and
        reads it back as a line break, so "a\\x85b" came back as "a b"."""
        if isinstance(value, str) and "\x85" in value:
            style = '"'
        return super().represent_scalar(tag, value, style, anchor)

    def represent_scalar_float(self, data: Any) -> Any:
        """A float read from a file keeps its written form, unless ruamel's re-formatting of
        that form would change its value (it does for some exponents: 6.307285941258735e+27
        came back as ...734e+27); then the shortest exact form is written instead. So is a
        float whose written form ruamel cannot re-format at all (``-1e-400``, ``0.e+308``: it
        raises on them)."""
        try:
            node = super().represent_scalar_float(data)
        except (ValueError, IndexError):
            return self.represent_float(float(data))
        try:
            exact = float(str(node.value).replace("_", "")) == float(data)
        except ValueError:  # .inf, .nan and other special forms are written exactly
            exact = True
        return node if exact else self.represent_float(float(data))


_Representer.add_representer(ScalarFloat, _Representer.represent_scalar_float)


class _Composer(Composer):
    """Refuses an anchor name defined twice, as the safe loader does (one loader verdict:
    what ``validate`` refuses, the builder refuses too)."""

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        anchor = getattr(event, "anchor", None)
        if anchor is not None and not isinstance(event, AliasEvent) and anchor in self.anchors:
            first = self.anchors[anchor].start_mark
            raise ComposerError(
                None,
                None,
                f"found duplicate anchor &{anchor} (first defined at line {first.line + 1}); "
                "an anchor name may be defined only once",
                event.start_mark,
            )
        return super().compose_node(parent, index)


def round_trip_yaml() -> YAML:
    """A round-trip YAML instance configured the way roster files are written."""
    yaml = YAML(typ="rt")
    yaml.Constructor = _RoundTripConstructor
    yaml.Representer = _Representer
    yaml.Composer = _Composer
    yaml.allow_duplicate_keys = False
    yaml.preserve_quotes = True
    yaml.indent(mapping=2, sequence=4, offset=2)
    yaml.width = 4096  # never re-wrap a user's long lines
    # Keep `[{entry: a}, {entry: b}]` as written (ruamel would drop the braces).
    yaml.brace_single_entry_mapping_in_flow_sequence = True
    return yaml


def _too_deep(text: str, file: str) -> InputError:
    """Nesting deeper than :data:`MAX_DEPTH`, at its place (see :func:`_depth_problem`)."""
    found = _depth_problem(text, file)
    if found is not None:
        return found
    return InputError.single(file, "nested too deeply; refused", code="yaml-too-deep")


def _depth_problem(text: str, file: str) -> InputError | None:
    """Where the nesting passes :data:`MAX_DEPTH`, read from the parser's events (no
    recursion, unlike the loaders, which take many seconds to fail on 5,000 levels)."""
    depth = 0
    try:
        for event in _safe_yaml().parse(text):
            if isinstance(event, CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    mark = event.start_mark
                    return InputError.single(
                        file,
                        f"nested more than {MAX_DEPTH} levels deep; refused",
                        mark.line + 1,
                        mark.column + 1,
                        code="yaml-too-deep",
                    )
            elif isinstance(event, CollectionEndEvent):
                depth -= 1
    except Exception:
        return None
    return None


def _may_be_deep(text: str) -> bool:
    """A cheap upper bound: could ``text`` nest deeper than :data:`MAX_DEPTH`?"""
    if text.count("[") + text.count("{") > MAX_DEPTH:
        return True
    return any(len(line) - len(line.lstrip(" -")) > MAX_DEPTH for line in text.splitlines())


def _value_problem(text: str, file: str, exc: Exception) -> Problem:
    """A scalar the loader could not turn into a value (``!!int abc``, an integer of 5,000
    digits): find it in the node graph so the message has its line and column."""
    try:
        root = _safe_yaml().compose(text)
    except Exception:
        root = None
    stack = [root] if root is not None else []
    constructor = _safe_yaml().constructor
    while stack:
        node = stack.pop()
        if isinstance(node, ScalarNode):
            try:
                constructor.construct_object(node)
            except Exception:
                kind = str(node.tag).rsplit(":", 1)[-1]
                value = str(node.value)
                shown = value if len(value) <= 40 else f"{value[:20]}… ({len(value)} characters)"
                return Problem(
                    file,
                    f"{shown!r} is not a valid {kind} value",
                    node.start_mark.line + 1,
                    node.start_mark.column + 1,
                    code="yaml-syntax",
                )
        elif isinstance(node, MappingNode):
            for k, v in reversed(node.value):
                stack.extend((v, k))
        elif isinstance(node, SequenceNode):
            stack.extend(reversed(node.value))
    return Problem(file, f"a value could not be read: {exc}", code="yaml-syntax")


# --------------------------------------------------------------------------- the fast loader
#
# `load_safe` first tries a loader of its own: libyaml's parser events (through PyYAML's C
# binding, or ruamel.yaml.clib's where PyYAML is missing) turned into plain data by a short
# loop with YAML 1.2 core-schema resolution written to give exactly what ruamel's safe loader
# gives. It declines (returns ``_DECLINED``) on anything it does not handle exactly the same
# way: a parse error, a directive, tags, anchors and aliases, merge keys, several documents, a
# byte order mark, a collection or duplicate as a mapping key, a timestamp, a scalar Python
# cannot read, deep nesting, too many values. The ruamel path then reads the file and gives
# every verdict and message, line and column as before.

#: The YAML 1.2 resolvers of ruamel.yaml (``ruamel/yaml/resolver.py``, version (1, 2)), copied
#: so that the fast path does not import the resolver; a test checks they are still ruamel's.
_FLOAT_PATTERN = """^(?:
         [-+]?(?:[0-9][0-9_]*)\\.[0-9_]*(?:[eE][-+]?[0-9]+)?
        |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
        |[-+]?\\.[0-9_]+(?:[eE][-+][0-9]+)?
        |[-+]?\\.(?:inf|Inf|INF)
        |\\.(?:nan|NaN|NAN))$"""
_INT_PATTERN = """^(?:[-+]?0b[0-1_]+
        |[-+]?0o?[0-7_]+
        |[-+]?[0-9_]+
        |[-+]?0x[0-9a-fA-F_]+)$"""
_TIMESTAMP_PATTERN = """^(?:[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]
        |[0-9][0-9][0-9][0-9] -[0-9][0-9]? -[0-9][0-9]?
        (?:[Tt]|[ \\t]+)[0-9][0-9]?
        :[0-9][0-9] :[0-9][0-9] (?:\\.[0-9]*)?
        (?:[ \\t]*(?:Z|[-+][0-9][0-9]?(?::[0-9][0-9])?))?)$"""
_is_float = re.compile(_FLOAT_PATTERN, re.X).match
_is_int = re.compile(_INT_PATTERN, re.X).match
_is_timestamp = re.compile(_TIMESTAMP_PATTERN, re.X).match

#: Plain scalars with a fixed value (bool and null of the 1.2 core schema, as ruamel reads them).
_CONSTANTS: dict[str, Any] = {
    "true": True,
    "True": True,
    "TRUE": True,
    "false": False,
    "False": False,
    "FALSE": False,
    "~": None,
    "null": None,
    "Null": None,
    "NULL": None,
    "": None,
}
#: First characters of a plain scalar that may resolve to something other than a string.
_NUMBER_START = frozenset("-+0123456789.")
_SPECIAL_START = frozenset("-+0123456789.tTfFnN~<=!&*")
#: Plain scalars ruamel gives a tag of its own (merge key, `=`, the documentation-only one).
_DECLINED_PLAIN = frozenset(("<<", "=", "!", "&", "*"))
_INF = float("inf")
_NAN = -_INF / _INF
#: Collections open at once beyond which the fast path leaves the file to ruamel (and to
#: :func:`check_limits`, which refuses more than :data:`MAX_DEPTH`).
_FAST_MAX_OPEN = MAX_DEPTH - 4
#: Whether :func:`load_round_trip` tries the fast round-trip loader first (tests turn it off
#: to compare with ruamel's own reading).
ROUND_TRIP_FAST = True


class _Declined(Exception):
    """The fast loader leaves this text to the ruamel path."""


_DECLINED: Any = object()
_SEQ: Any = object()  # the "key" of a sequence being filled


def _number(value: str) -> Any:
    """A plain scalar starting like a number, as ruamel's YAML 1.2 safe loader reads it
    (``SafeConstructor.construct_yaml_float`` / ``construct_yaml_int``)."""
    if _is_float(value):
        s = value.replace("_", "").lower()
        sign = -1 if s[0] == "-" else 1
        if s[0] in "+-":
            s = s[1:]
        if s == ".inf":
            return sign * _INF
        if s == ".nan":
            return _NAN
        return sign * float(s)
    if _is_int(value):
        s = value.replace("_", "")
        sign = -1 if s[0] == "-" else 1
        if s[0] in "+-":
            s = s[1:]
        if s == "0":
            return 0
        if s.startswith("0b"):
            return sign * int(s[2:], 2)
        if s.startswith("0x"):
            return sign * int(s[2:], 16)
        if s.startswith("0o"):
            return sign * int(s[2:], 8)
        return sign * int(s)  # "0777" is 777 in YAML 1.2
    if _is_timestamp(value):
        raise _Declined
    return value


def _plain(value: str) -> Any:
    if value in _CONSTANTS:
        return _CONSTANTS[value]
    if value[0] in _NUMBER_START:
        return _number(value)
    if value in _DECLINED_PLAIN:
        raise _Declined
    return value


class _Parser:
    """One C binding of libyaml's parser: its class and its event classes."""

    def __init__(self, source: str, parser: Any, events: Any) -> None:
        self.source = source  # "PyYAML" or "ruamel.yaml.clib"
        self.parser = parser
        self.events = events


class _FastParser:
    """Which binding of libyaml's parser the fast loader uses.

    PyYAML's reads a roster in about two thirds of the time of ruamel.yaml.clib's (whose events
    carry more), but importing PyYAML costs about as much CPU as that saves on ~100 rosters. So
    a process reads its first :attr:`pyyaml_after` texts with ruamel.yaml.clib's parser (already
    imported with ruamel.yaml: `validate` of one roster starts no slower) and the rest with
    PyYAML's; each stands in for the other where it is not installed.
    """

    def __init__(self, pyyaml_after: int = 64) -> None:
        self.pyyaml_after = pyyaml_after
        self.reads = 0
        self._found: dict[str, _Parser | None] = {}

    def binding(self, name: str) -> _Parser | None:
        """The binding ``name`` ("PyYAML" or "ruamel.yaml.clib"), ``None`` if not installed."""
        if name not in self._found:
            try:
                if name == "PyYAML":
                    import yaml.events as pyyaml_events
                    from yaml._yaml import CParser as PyYAMLParser

                    self._found[name] = _Parser(name, PyYAMLParser, pyyaml_events)
                else:
                    import ruamel.yaml.events as ruamel_events
                    from _ruamel_yaml import CParser as RuamelParser

                    self._found[name] = _Parser(name, RuamelParser, ruamel_events)
            except ImportError:
                self._found[name] = None
        return self._found[name]

    def pick(self) -> _Parser | None:
        """The binding for the next text: none where ruamel.yaml.clib is missing, since then
        ruamel reads with its own Python parser, whose verdicts are not libyaml's."""
        self.reads += 1
        ruamel = self.binding("ruamel.yaml.clib")
        if ruamel is None:
            return None
        if self.reads > self.pyyaml_after:
            return self.binding("PyYAML") or ruamel
        return ruamel


_FAST_PARSER = _FastParser()


def _fast_parser() -> _Parser | None:
    """The binding the fast loader uses for the next text (``None``: no fast path)."""
    return _FAST_PARSER.pick()


#: How many texts the fast loader read and how many it left to ruamel (for tests and tools).
fast_stats = {"loaded": 0, "declined": 0, "round_trip_loaded": 0, "round_trip_declined": 0}


def load_fast(text: str) -> Any:
    """``text`` read as :func:`load_safe` reads it, or ``_DECLINED`` where the fast path
    leaves it to the ruamel path (see above). Never raises."""
    try:
        fp = _fast_parser()
        if fp is None or "\ufeff" in text:
            fast_stats["declined"] += 1
            return _DECLINED
        doc = _load_events(fp.parser(text).get_event, fp.events)
    except Exception:  # a parse error, _Declined, an int Python cannot read...
        fast_stats["declined"] += 1
        return _DECLINED
    fast_stats["loaded"] += 1
    return doc


def _load_events(get: Any, events: Any) -> Any:
    scalar_event = events.ScalarEvent
    mapping_start = events.MappingStartEvent
    sequence_start = events.SequenceStartEvent
    collection_end = (events.MappingEndEvent, events.SequenceEndEvent)
    get()  # StreamStartEvent
    ev = get()
    if ev.__class__ is events.StreamEndEvent:
        return None  # no document: as ruamel, None
    if ev.__class__ is not events.DocumentStartEvent or ev.version or ev.tags:
        raise _Declined  # a %YAML or %TAG directive
    stack: list[tuple[Any, Any, int]] = []
    cur: Any = None  # the collection being filled
    key: Any = None  # its pending key, or _SEQ
    want_key = False
    flow = 0  # flow collections (`[...]`, `{...}`) open around the current node
    budget = MAX_NODES
    special = _SPECIAL_START
    constants = _CONSTANTS
    while True:
        ev = get()
        cls = ev.__class__
        budget -= 1
        if cls is scalar_event:
            if ev.anchor is not None or ev.tag is not None:
                raise _Declined
            value = ev.value
            if ev.implicit[0]:
                if flow and (not value or ":" in value or "?" in value):
                    # libyaml 0.2.5 (PyYAML's) reads `[1:30]`, `[a?b]` and `[?]` (an empty key
                    # and value); the older libyaml of ruamel.yaml.clib refuses them:
                    # ruamel's verdict stands.
                    raise _Declined
                if value in constants or value[0] in special:
                    value = _plain(value)
            if cur is None:
                root = value
                break
            if want_key:
                key = value
                want_key = False
            elif key is _SEQ:
                cur.append(value)
            else:
                if key in cur:
                    raise _Declined  # a duplicate key (ruamel words it)
                cur[key] = value
                want_key = True
        elif cls is mapping_start or cls is sequence_start:
            if ev.anchor is not None or ev.tag is not None or want_key:
                raise _Declined  # a collection as a key, an anchor, a tag
            new: Any = {} if cls is mapping_start else []
            if cur is not None:
                if key is _SEQ:
                    cur.append(new)
                else:
                    if key in cur:
                        raise _Declined
                    cur[key] = new
            stack.append((cur, key, flow))
            if ev.flow_style:
                flow += 1
            if len(stack) > _FAST_MAX_OPEN or budget < 0:
                raise _Declined
            cur = new
            if cls is mapping_start:
                key, want_key = None, True
            else:
                key, want_key = _SEQ, False
        elif cls in collection_end:
            done = cur
            cur, key, flow = stack.pop()
            if cur is None:
                root = done
                break
            want_key = key is not _SEQ
        else:
            raise _Declined  # an alias
    if budget < 0:
        raise _Declined
    if get().__class__ is not events.DocumentEndEvent:
        raise _Declined
    if get().__class__ is not events.StreamEndEvent:
        raise _Declined  # several documents
    return root


# ------------------------------------------------------------------ the fast round-trip loader
#
# ruamel's round-trip loader reads with its own scanner and parser, written in Python (a
# regiment of 75 platoons: about 1.5 s, nine tenths of it scanning). Most roster files are in
# a small part of YAML where libyaml's parser (ruamel.yaml.clib, in C) reads exactly the same
# nodes at the same places, and all that ruamel's scanner adds is comments and blank lines,
# which such a file has none of below its opening comment lines. `_load_round_trip_fast`
# builds the round-trip document of such a file from libyaml's events: the same objects ruamel
# builds (CommentedMap and CommentedSeq with their lines, columns and style, quoted strings as
# ruamel's quoted string classes, numbers and booleans through ruamel's own round-trip
# constructor), and the opening comment lines as ruamel reads them (by ruamel, from those
# lines alone). Anything else it declines, and ruamel reads the file as before: a comment or
# a blank line below the first key, an empty value (`key:`, placed at another column by each
# parser), a plain scalar in a flow collection that the two may read apart (with `:` or
# `?`), a mapping of one pair without braces in a flow list, a scalar over several lines or in
# block style (`|`, `>`), tags, anchors and aliases, merge keys, timestamps, directives,
# `---` or `...`, tabs and characters outside printable Unicode, duplicate keys, a collection
# as a key, a root that is not a mapping at column 1, deep nesting, too many values, any
# parse error. So a file it reads saves exactly as before, and a file it declines is read,
# refused or reported exactly as before (tests/unit/test_round_trip_fast.py compares both
# loaders' documents attribute by attribute, and the bytes saved after random edits).

#: Characters that make the fast round-trip loader leave a text to ruamel: a tab, a carriage
#: return or other control character, a line separator libyaml and ruamel may count apart,
#: a byte order mark, a surrogate, a non-character.
_RT_FAST_REFUSED = re.compile(
    r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]"
)
#: A blank line (ruamel keeps it as a comment of the node above).
_RT_BLANK_LINE = re.compile(r"\n *\n|\n +\Z")
_RT_STR = "tag:yaml.org,2002:str"
#: Tags of plain scalars the fast round-trip loader builds with ruamel's constructor.
_RT_SCALAR_TAGS = frozenset(
    ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool")
)
_RT_NULL = "tag:yaml.org,2002:null"


class _RoundTripKit:
    """What the fast round-trip loader reuses of ruamel's: a constructor and a resolver of a
    round-trip YAML instance (YAML 1.2, no directive), and the tags plain scalars resolve to."""

    def __init__(self) -> None:
        yaml = round_trip_yaml()
        self.constructor = yaml.constructor
        self.resolver = yaml.resolver
        self.tags: dict[str, str] = {}

    def tag(self, value: str) -> str:
        tag = self.tags.get(value)
        if tag is None:
            found = self.resolver.resolve(ScalarNode, value, (True, False))
            tag = str(getattr(found, "value", found))
            if len(self.tags) < 4096:
                self.tags[value] = tag
        return tag


_RT_KIT: _RoundTripKit | None = None


def _rt_kit() -> _RoundTripKit:
    global _RT_KIT
    if _RT_KIT is None:
        _RT_KIT = _RoundTripKit()
    return _RT_KIT


def _leading_comments(text: str) -> int:
    """Where the first line that is neither blank nor a comment starts."""
    pos = 0
    n = len(text)
    while pos < n:
        end = text.find("\n", pos)
        end = n if end < 0 else end + 1
        line = text[pos:end].lstrip(" ")
        if line and line[0] not in "#\n":
            break
        pos = end
    return pos


def _load_round_trip_fast(text: str, file: str) -> Any:
    """The round-trip document of ``text`` built from libyaml's events, or ``_DECLINED``
    (see above). Never raises."""
    try:
        return _build_round_trip(text, file)
    except Exception:  # a parse error, _Declined, a number Python cannot read...
        return _DECLINED


def _build_round_trip(text: str, file: str) -> Any:
    fp = _FAST_PARSER.binding("ruamel.yaml.clib")
    if fp is None or _RT_FAST_REFUSED.search(text):
        return _DECLINED
    start = _leading_comments(text)
    if start >= len(text) or _RT_BLANK_LINE.search(text, start):
        return _DECLINED
    hashes = text.count("#", start)  # each must be inside a scalar (else: a comment)
    events = fp.events
    scalar_event = events.ScalarEvent
    mapping_start = events.MappingStartEvent
    sequence_start = events.SequenceStartEvent
    collection_end = (events.MappingEndEvent, events.SequenceEndEvent)
    get = fp.parser(text).get_event
    kit = _rt_kit()
    tag_of = kit.tag
    tags = kit.tags
    constructor = kit.constructor
    constructors = constructor.yaml_constructors
    get()  # StreamStartEvent
    ev = get()
    if ev.__class__ is not events.DocumentStartEvent or ev.explicit or ev.version or ev.tags:
        return _DECLINED
    ev = get()
    if ev.__class__ is not mapping_start or ev.start_mark.column != 0:
        return _DECLINED
    stack: list[tuple[Any, Any, Any, Any, int]] = []
    cur: Any = None  # the collection being filled
    lines: Any = None  # its lines and columns (its LineCol's data), by key or index
    key: Any = None  # its pending key, or _SEQ
    key_mark: Any = None
    want_key = False
    flow = 0  # flow collections (`[...]`, `{...}`) open around the current node
    budget = MAX_NODES
    str_tag = _RT_STR
    null_tag = _RT_NULL
    scalar_tags = _RT_SCALAR_TAGS
    single = SingleQuotedScalarString
    double = DoubleQuotedScalarString
    line_col = LineCol
    lc_attrib = LineCol.attrib
    while True:
        cls = ev.__class__
        budget -= 1
        if cls is scalar_event:
            mark = ev.start_mark
            value = ev.value
            if ev.anchor is not None or ev.tag is not None or mark.line != ev.end_mark.line:
                return _DECLINED
            style = ev.style
            if not style:
                if not value or (flow and (":" in value or "?" in value)):
                    # libyaml and ruamel may read these apart; an empty value (`key:`) is
                    # placed at another column by each
                    return _DECLINED
                tag = tags.get(value) or tag_of(value)
                if tag != str_tag:
                    if tag == null_tag:
                        value = None
                    elif tag in scalar_tags:
                        node = ScalarNode(tag, value, mark, ev.end_mark)
                        value = constructors[tag](constructor, node)
                    else:
                        return _DECLINED  # a timestamp, merge key, `=`...
            elif style == '"':
                value = double(value)
            elif style == "'":
                value = single(value)
            else:
                return _DECLINED  # a block scalar
            if "#" in ev.value:
                hashes -= text.count("#", mark.index, ev.end_mark.index)
            if isinstance(value, str) and not value.isascii():
                value.encode("utf-8")  # a lone surrogate from an escape: ruamel says it
            if want_key:
                key = value
                key_mark = mark
                want_key = False
            elif key is _SEQ:
                lines[len(cur)] = [mark.line, mark.column]
                cur.append(value)
            else:
                if key in lines:
                    return _DECLINED  # a duplicate key (ruamel words it)
                lines[key] = [key_mark.line, key_mark.column, mark.line, mark.column]
                cur[key] = value
                want_key = True
        elif cls is mapping_start or cls is sequence_start:
            if ev.anchor is not None or ev.tag is not None or want_key:
                return _DECLINED  # a collection as a key, an anchor, a tag
            mark = ev.start_mark
            if ev.flow_style and text[mark.index] not in "[{":
                return _DECLINED  # `[a: 1]`, a mapping of one pair without braces
            new: Any = CommentedMap() if cls is mapping_start else CommentedSeq()
            lc = line_col()  # what ruamel's _yaml_set_line_col and its kin fill in
            lc.line = mark.line
            lc.col = mark.column
            lc.data = {}
            setattr(new, lc_attrib, lc)
            if cur is not None:
                if key is _SEQ:
                    lines[len(cur)] = [mark.line, mark.column]
                    cur.append(new)
                else:
                    if key in lines:
                        return _DECLINED
                    lines[key] = [key_mark.line, key_mark.column, mark.line, mark.column]
                    cur[key] = new
            stack.append((cur, lines, key, key_mark, flow))
            lines = lc.data
            if ev.flow_style:
                flow += 1
            if len(stack) > _FAST_MAX_OPEN or budget < 0:
                return _DECLINED
            cur = new
            if cls is mapping_start:
                key, want_key = None, True
            else:
                key, want_key = _SEQ, False
        elif cls in collection_end:
            done = cur
            inner = flow
            if not lines:
                done.lc.data = None  # (ruamel makes it on the first key or item)
            cur, lines, key, key_mark, flow = stack.pop()
            if done:  # ruamel's set_collection_style: an empty collection is left alone
                if inner > flow:
                    done.fa.set_flow_style()
                else:
                    done.fa.set_block_style()
            if cur is None:
                root = done
                break
            want_key = key is not _SEQ
        else:
            return _DECLINED  # an alias
        ev = get()
    if budget < 0 or hashes:
        return _DECLINED  # too many values; a comment
    end = get()
    if end.__class__ is not events.DocumentEndEvent or end.explicit:
        return _DECLINED
    if get().__class__ is not events.StreamEndEvent:
        return _DECLINED  # several documents
    if start:
        # The opening comment lines, as ruamel reads them (alone: they are all it reads).
        probe = _load_round_trip_ruamel(text[:start] + "x: 0\n", file)
        if probe.ca.items or probe.ca.end:
            return _DECLINED
        root.ca.comment = probe.ca.comment
    return root


def load_safe(text: str, file: str) -> Any:
    """Parse untrusted YAML into plain Python data (dict, list, str, int, float, bool, None)."""
    doc = load_fast(text)
    if doc is not _DECLINED:
        return doc
    return _load_safe_ruamel(text, file)


def _load_safe_ruamel(text: str, file: str) -> Any:
    """:func:`load_safe` through ruamel.yaml: every verdict, message and position."""
    try:
        doc = _safe_yaml().load(text)
    except YAMLError as exc:
        if "Unicode character escape" in str(exc):
            # ruamel's safe loader refuses a surrogate escape, even one of a pair
            # (``"\\ud83d\\ude00"``: one character, as JSON writes it); the round-trip
            # loader reads the pair as its character and refuses a lone half, said precisely.
            return to_plain(load_round_trip(text, file))
        if "duplicate anchor" in str(exc):
            load_round_trip(text, file)  # the same verdict, said the same way (it raises)
        raise InputError(_yaml_problem(exc, file, text)) from None
    except RecursionError:
        raise _too_deep(text, file) from None
    except Exception as exc:  # a scalar the constructor rejects (`!!int abc`)
        raise InputError(_value_problem(text, file, exc)) from None
    try:
        check_limits(doc, file)
    except InputError as exc:
        # Plain data has no positions: find the place with the round-trip loader.
        if exc.problems[0].line is None and exc.problems[0].code == "yaml-too-deep":
            raise _too_deep(text, file) from None
        if exc.problems[0].line is None and exc.problems[0].code == "yaml-too-large":
            load_round_trip(text, file)
        raise
    return doc


def load_round_trip(text: str, file: str, fast: bool = True) -> Any:
    """Parse YAML keeping comments, order and positions (for editing and for error positions).

    ``fast``: build the document from libyaml's events where that gives exactly ruamel's
    document (see :func:`_load_round_trip_fast`); ``False``: always ruamel's own reading."""
    if fast and ROUND_TRIP_FAST:
        doc = _load_round_trip_fast(text, file)
        if doc is not _DECLINED:
            fast_stats["round_trip_loaded"] += 1
            return doc
        fast_stats["round_trip_declined"] += 1
    return _load_round_trip_ruamel(text, file)


def _load_round_trip_ruamel(text: str, file: str) -> Any:
    """:func:`load_round_trip` through ruamel.yaml's round-trip loader."""
    if _may_be_deep(text):
        deep = _depth_problem(text, file)
        if deep is not None:
            raise deep
    try:
        doc = round_trip_yaml().load(text)
    except YAMLError as exc:
        raise InputError(_yaml_problem(exc, file, text)) from None
    except RecursionError:
        raise _too_deep(text, file) from None
    except Exception as exc:  # a scalar the constructor rejects (`!!int abc`)
        raise InputError(_value_problem(text, file, exc)) from None
    check_limits(doc, file)
    return doc


def dump_round_trip(doc: Any) -> str:
    """Serialise a round-trip document: ruamel.yaml's text of it, byte for byte (a plain
    document is written by :func:`_dump_plain`, which gives the same text in a tenth of the
    time, or declines)."""
    if DUMP_FAST:
        text = _dump_plain(doc)
        if text is not None:
            return text
    return _dump_round_trip_ruamel(doc)


def _dump_round_trip_ruamel(doc: Any) -> str:
    """:func:`dump_round_trip` through ruamel.yaml's representer, serializer and emitter."""
    buf = io.StringIO()
    round_trip_yaml().dump(doc, buf)
    return buf.getvalue()


#: Whether :func:`dump_round_trip` writes plain documents itself (tests and benchmarks turn it
#: off to compare with ruamel's own writer).
DUMP_FAST = True


class _NotPlain(Exception):
    """The document holds something :func:`_dump_plain` leaves to ruamel."""


#: A string ruamel writes as it is (plain) or between quotes with nothing escaped: ASCII
#: letters, digits and a few marks, starting with a letter or digit, not ending with a space;
#: no ``:``, ``#``, quotes or backslash, no line break (each of those changes how ruamel writes
#: it), at most 200 characters (a simple key must stay under 128; width is 4096).
_PLAIN_TEXT = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 _.,()/&+'-]{0,198}[A-Za-z0-9_.,()/&+'-])?")
_QUOTED_TEXT = re.compile(r"[A-Za-z0-9 _.,()/&+-]{0,200}")
#: Strings checked (ruamel's resolver reads them as strings, not as numbers, dates,
#: booleans or null): computed once each.
_PLAIN_OK: dict[str, bool] = {}
_STR_TAG = "tag:yaml.org,2002:str"


_odict_items = OrderedDict.items
_list_iter = list.__iter__


def _marked(node: Any) -> bool:
    """An anchor, a tag or merge keys (ruamel leaves empty ones behind after a dump)."""
    for attrib in ("_yaml_anchor", "_yaml_tag"):
        mark = getattr(node, attrib, None)
        if mark is not None and mark.value is not None:
            return True
    return bool(getattr(node, "_yaml_merge", None))


def _plain_ok(value: str) -> bool:
    ok = _PLAIN_OK.get(value)
    if ok is None:
        ok = False
        if _PLAIN_TEXT.fullmatch(value):
            ok = _rt_kit().tag(value) == _STR_TAG
        if len(_PLAIN_OK) > 100_000:
            _PLAIN_OK.clear()
        _PLAIN_OK[value] = ok
    return ok


def _scalar_text(value: Any) -> str | None:
    """How ruamel writes a scalar value of a block collection; ``None``: not a scalar;
    raises :class:`_NotPlain` for a scalar left to ruamel."""
    cls = value.__class__
    if cls is str:
        if _plain_ok(value):
            return str(value)
        raise _NotPlain
    if cls is int:
        return str(value)
    if cls is bool:
        return "true" if value else "false"
    if cls is DoubleQuotedScalarString or cls is SingleQuotedScalarString:
        if not _QUOTED_TEXT.fullmatch(value) or _marked(value):
            raise _NotPlain
        quote = '"' if cls is DoubleQuotedScalarString else "'"
        return f"{quote}{value}{quote}"
    if cls is CommentedMap or cls is CommentedSeq:
        return None
    raise _NotPlain  # None, floats, dates, block scalars, other types


def _block(node: Any, seen: set[int]) -> None:
    """Decline a collection ruamel writes otherwise than as a plain block (or as an alias:
    one met before, which ruamel writes with an anchor, ``&id001``, and ``*id001``)."""
    if id(node) in seen:
        raise _NotPlain
    seen.add(id(node))
    if not node:
        raise _NotPlain  # empty: `{}`, `[]`
    ca = getattr(node, "_yaml_comment", None)
    if ca is not None and (ca.comment is not None or ca._items or ca._post or ca._pre):
        raise _NotPlain  # a comment
    fa = getattr(node, "_yaml_format", None)
    if fa is not None and fa._flow_style:
        raise _NotPlain
    if _marked(node):
        raise _NotPlain


def _dump_plain(doc: Any) -> str | None:
    """ruamel.yaml's text of ``doc`` (as :func:`round_trip_yaml` writes it: mappings indented
    by 2, sequences by 4 with the dash at 2) when ``doc`` is a plain document: a mapping of
    block mappings and sequences (none empty, none in a sequence directly) of strings that
    need no quoting (:data:`_PLAIN_TEXT`) or keep simple quotes, integers and booleans,
    with no comments except whole lines above the first key, no anchors, tags or merge
    keys. Anything else: ``None`` (ruamel writes it)."""
    if doc.__class__ is not CommentedMap:
        return None
    out: list[str] = []
    seen: set[int] = set()
    ca = getattr(doc, "_yaml_comment", None)
    try:
        if ca is not None:
            out.extend(_head_comments(ca))
            seen.add(id(doc))
            fa = getattr(doc, "_yaml_format", None)
            if (fa is not None and fa._flow_style) or not doc:
                raise _NotPlain
            if _marked(doc):
                raise _NotPlain
        else:
            _block(doc, seen)
        _plain_mapping(doc, 0, out, False, seen)
    except _NotPlain:
        return None
    return "".join(out)


def _head_comments(ca: Any) -> list[str]:
    """The comment lines above a document's first key, as ruamel writes them (each token's
    text as read: whole lines from the first column); declines any other comment."""
    if ca._items or ca._post or ca._pre:
        raise _NotPlain
    comment = ca.comment
    if comment is None:
        return []
    # [post, pre]; a dump by ruamel appends two empty lists (and writes the same)
    if (
        len(comment) < 2
        or comment[0] is not None
        or not isinstance(comment[1], list)
        or any(comment[2:])
    ):
        raise _NotPlain
    lines: list[str] = []
    for token in comment[1]:
        value = getattr(token, "value", None)
        if (
            token.__class__.__name__ != "CommentToken"
            or not isinstance(value, str)
            or token.start_mark.column != 0
            or not value.endswith("\n")
            or "\n" in value[:-1]
            or not (value.startswith("#") or value == "\n")
        ):
            raise _NotPlain
        lines.append(value)
    return lines


def _plain_mapping(node: Any, indent: int, out: list[str], inline: bool, seen: set[int]) -> None:
    pad = " " * indent
    child = indent + 2
    # (OrderedDict's own order and values: CommentedMap's views add what merge keys bring,
    # declined here, at a Python call per key)
    for key, value in _odict_items(node):
        if key.__class__ is not str or not _plain_ok(key) or len(key) > 100:
            raise _NotPlain
        text = _scalar_text(value)
        lead = "" if inline else pad
        inline = False
        if text is not None:
            out.append(f"{lead}{key}: {text}\n")
            continue
        _block(value, seen)
        out.append(f"{lead}{key}:\n")
        if value.__class__ is CommentedMap:
            _plain_mapping(value, child, out, False, seen)
        else:
            _plain_sequence(value, child, out, seen)


def _plain_sequence(node: Any, dash: int, out: list[str], seen: set[int]) -> None:
    lead = " " * dash + "- "
    for item in _list_iter(node):  # (not MutableSequence's, an index at a time)
        text = _scalar_text(item)
        if text is not None:
            out.append(f"{lead}{text}\n")
            continue
        if item.__class__ is not CommentedMap:
            raise _NotPlain  # a sequence in a sequence
        _block(item, seen)
        out.append(lead)
        _plain_mapping(item, dash + 2, out, True, seen)


def to_plain(node: Any) -> Any:
    """Convert a round-trip document into plain dicts, lists and builtin scalars."""
    if isinstance(node, TaggedScalar):
        # Only standard tags get this far (check_limits refuses the rest); `!!str 12` is "12".
        return str(node.value) if node.value is not None else None
    if isinstance(node, dict):
        return {to_plain(k): to_plain(v) for k, v in node.items()}
    if isinstance(node, list):
        return [to_plain(v) for v in node]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, ScalarBoolean):  # a boolean with an anchor (`&t true`): an int to ruamel
        return bool(node)
    if isinstance(node, int):
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    return node


def locate(doc: Any, loc: Loc) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the value at ``loc`` in a round-trip document.

    When ``loc`` goes past what exists (a missing key), the position of the deepest existing
    parent is returned, which is where the author has to add the key.
    """
    node = doc
    best: tuple[int, int] | None = (1, 1)
    for step in loc:
        if isinstance(node, CommentedMap | dict) and not isinstance(step, int):
            if step not in node:
                break
            pos = _pos_value(node, step)
            if pos is not None and isinstance(node[step], CommentedMap | CommentedSeq):
                # For a nested block, point at its key: that line names what is wrong.
                pos = _pos_key(node, step) or pos
            elif pos is not None and node[step] is None:
                # So for an empty value (`notes:` at the end of its line), which ruamel marks
                # where the next token starts: the next line's key.
                key = _pos_key(node, step)
                if key is not None and key[0] != pos[0]:
                    pos = key
            best = pos or best
            node = node[step]
        elif isinstance(node, CommentedSeq | list) and isinstance(step, int):
            if not 0 <= step < len(node):
                break
            best = _pos_item(node, step) or best
            node = node[step]
        else:
            break
    if best is None:
        return None, None
    return best


def compose(text: str, file: str) -> Any:
    """The YAML node graph of ``text`` (C-accelerated when available): positions, no values.

    Cheaper than a round-trip load when all that is wanted is where things are.
    """
    try:
        return _safe_yaml().compose(text)
    except YAMLError as exc:
        raise InputError(_yaml_problem(exc, file, text)) from None


def _is_empty(node: Any) -> bool:
    """Whether a scalar node of :func:`compose` is an empty value (`key:`, no `~`), which
    libyaml marks right after the colon: :func:`locate` gives its key (see there)."""
    return isinstance(node, ScalarNode) and node.value == "" and not node.style


def locate_node(root: Any, loc: Loc) -> tuple[int | None, int | None]:
    """Like :func:`locate`, on a node graph from :func:`compose`."""
    node = root
    best: tuple[int, int] | None = (1, 1)
    for step in loc:
        if isinstance(node, MappingNode) and not isinstance(step, int):
            pair = next((kv for kv in node.value if getattr(kv[0], "value", None) == step), None)
            if pair is None:
                break
            key, value = pair
            mark = (
                key.start_mark
                if isinstance(value, MappingNode | SequenceNode)
                or (_is_empty(value) and not node.flow_style)
                else (value.start_mark)
            )
            best = (mark.line + 1, mark.column + 1)
            node = value
        elif isinstance(node, SequenceNode) and isinstance(step, int):
            if not 0 <= step < len(node.value):
                break
            node = node.value[step]
            best = (node.start_mark.line + 1, node.start_mark.column + 1)
        else:
            break
    if best is None:
        return None, None
    return best


def iter_paths(node: Any, prefix: tuple[str | int, ...] = ()) -> Iterator[tuple[str | int, ...]]:
    """Every path in a plain document (used by tests and tools)."""
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from iter_paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from iter_paths(v, (*prefix, i))
