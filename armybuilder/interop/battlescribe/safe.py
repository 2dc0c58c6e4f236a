"""Reading BattleScribe files from the internet safely.

Data and roster files are downloaded from anywhere, so they are read under these rules, each
refusal a :class:`UnsafeFileError` naming the file and saying why:

- no document type declaration: BattleScribe files never have one, and refusing it refuses
  external entities and entity expansion ("billion laughs") before the parser sees them;
- a zipped file (``.catz``, ``.gstz``, ``.rosz``) holds exactly one member, is read in memory
  only (no path inside the archive is ever used) and unzips to at most :data:`MAX_BYTES`;
  a plain file is bounded the same way;
- elements nest at most :data:`MAX_DEPTH` deep (real data nests about 30).
"""

from __future__ import annotations

import io
import re
import stat
import xml.etree.ElementTree as ET
import zipfile
import zlib
from pathlib import Path

try:  # (zipfile's LZMA members: Python may be built without lzma)
    from lzma import LZMAError

    _LZMA_ERRORS: tuple[type[Exception], ...] = (LZMAError,)
except ImportError:  # pragma: no cover
    _LZMA_ERRORS = ()
#: What unzipping damaged compressed data raises.
_DAMAGED: tuple[type[Exception], ...] = (zlib.error, EOFError, *_LZMA_ERRORS)

#: The most a data or roster file may hold once unzipped (the largest real catalogue is 4 MB).
MAX_BYTES = 64 * 1024 * 1024
#: The deepest element nesting accepted.
MAX_DEPTH = 256
#: Suffixes of zipped files.
ZIPPED = (".catz", ".gstz", ".rosz")

_DTD = re.compile(r"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)
#: The encoding an XML declaration names.
_ENCODING = re.compile(rb"(?:\xef\xbb\xbf)?<\?xml[^>]*?encoding\s*=\s*[\"']([A-Za-z0-9._-]+)")


class UnsafeFileError(ValueError):
    """A file refused as unsafe or unreadable (the message names it and says why).

    Where the refusal has a place in the file, ``line`` and ``column`` (1-based) say it and
    ``reason`` is the message without the file's name and the place."""

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.line = line
        self.column = column
        self.reason = reason


def read_bytes(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The file's content, unzipped when its suffix says it is zipped."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise UnsafeFileError(f"{path}: no such file") from None
    except OSError as exc:
        raise UnsafeFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    # (said as a roster of ours is: a folder's "Is a directory" was the system's words, and
    # a named pipe was read, waiting for a writer that never came: the command hung)
    if stat.S_ISDIR(st.st_mode):
        raise UnsafeFileError(f"{path}: is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFileError(f"{path}: is not a regular file (a pipe or a device); refused")
    try:
        size = st.st_size
        # (A zipped file larger than what it may unzip to is refused before it is read too.)
        if size > limit:
            raise UnsafeFileError(
                f"{path}: {size / 1048576:.1f} MiB is more than the {limit // 1048576} MiB "
                "a data or roster file may hold"
            )
        if path.suffix.lower() not in ZIPPED:
            return path.read_bytes()
        data = path.read_bytes()
    except OSError as exc:
        raise UnsafeFileError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return unzip(data, str(path), limit)


def unzip(data: bytes, name: str, limit: int = MAX_BYTES) -> bytes:
    """The single member of a zip archive held in memory, at most ``limit`` bytes."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            members = [i for i in zf.infolist() if not i.is_dir()]
            if len(members) != 1:
                raise UnsafeFileError(
                    f"{name}: a zipped BattleScribe file holds exactly one file; this one holds "
                    f"{len(members)}"
                )
            info = members[0]
            if info.file_size > limit:
                raise UnsafeFileError(
                    f"{name}: unzips to {info.file_size / 1048576:.1f} MiB, more than the "
                    f"{limit // 1048576} MiB allowed"
                )
            # The declared size may lie: read one byte past the limit to know.
            with zf.open(info) as member:
                out = member.read(limit + 1)
    except UnsafeFileError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError) as exc:
        raise UnsafeFileError(f"{name}: not a readable zip archive: {exc}") from None
    except _DAMAGED as exc:  # damaged compressed data
        raise UnsafeFileError(f"{name}: the zipped file is damaged: {exc}") from None
    except RuntimeError as exc:  # encrypted members
        raise UnsafeFileError(f"{name}: cannot unzip: {exc}") from None
    if len(out) > limit:
        raise UnsafeFileError(f"{name}: unzips to more than the {limit // 1048576} MiB allowed")
    return out


def decode(data: bytes, name: str) -> str:
    """XML bytes as text (UTF-8, or UTF-16 with its byte order mark)."""
    try:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            return data.decode("utf-16")
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):
            raise UnsafeFileError(f"{name}: not UTF-16 text (byte {exc.start})") from None
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        reason = f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded"
        declared = _ENCODING.match(data)
        if declared is not None and declared.group(1).lower().replace(b"_", b"-") not in (
            b"utf-8",
            b"utf8",
        ):
            reason += (
                f" (the file says it is {declared.group(1).decode('ascii', 'replace')}; "
                "BattleScribe files are UTF-8: save it as UTF-8)"
            )
        else:
            reason += " (save the file as UTF-8)"
        raise UnsafeFileError(f"{name}:{line}:{column}: {reason}", line, column, reason) from None


def prepared(text: str, name: str) -> str:
    """XML text as the parser is given it: a document type declaration refused (raises
    :class:`UnsafeFileError`), the XML declaration left out (one naming an encoding is not
    allowed on text already decoded)."""
    found = _DTD.search(text)
    if found is not None:
        line = text.count("\n", 0, found.start()) + 1
        reason = (
            f"a document type declaration (<!{found.group(1)}) is refused: "
            "BattleScribe files have none, and one can hide external entities or entity bombs"
        )
        raise UnsafeFileError(f"{name}:{line}: {reason}", line, None, reason)
    if text.startswith("<?xml"):
        end = text.find("?>")
        if end != -1:
            text = text[end + 2 :]
    return text


def keeping_parser() -> ET.XMLParser:
    """A parser whose tree keeps comments and processing instructions (as elements whose
    ``tag`` is :func:`ET.Comment` or :func:`ET.ProcessingInstruction`, not text): for a
    roster, whose every part we do not read is written back."""
    return ET.XMLParser(target=ET.TreeBuilder(insert_comments=True, insert_pis=True))


def parse(
    text: str, name: str, check_nesting: bool = True, keep_comments: bool = False
) -> ET.Element:
    """Parse XML text under the rules above (raises :class:`UnsafeFileError`).
    ``check_nesting=False``: the caller checks the nesting itself, with :func:`check_depth`'s
    message (a reader that walks the whole tree anyway, see ``library.read_tree``);
    ``keep_comments``: comments and processing instructions kept in the tree (see
    :func:`keeping_parser`)."""
    text = prepared(text, name)
    try:
        root = ET.fromstring(text, keeping_parser() if keep_comments else None)
    except ET.ParseError as exc:
        line, column = exc.position
        what = re.sub(r": line \d+, column \d+$", "", str(exc))
        raise UnsafeFileError(
            f"{name}: not well-formed XML: {exc}", line, column + 1, f"not well-formed XML: {what}"
        ) from None
    if check_nesting:
        check_depth(root, name)
    return root


def check_depth(root: ET.Element, name: str, limit: int = MAX_DEPTH) -> None:
    """Refuse a tree nested deeper than ``limit`` (checked level by level, without
    recursion)."""
    level: list[ET.Element] = [root]
    depth = 1
    while level:
        if depth > limit:
            raise UnsafeFileError(
                f"{name}: elements nest more than {limit} deep "
                f"(<{str(level[0].tag).rpartition('}')[2]}>)"
            )
        level = [c for el in level for c in el]
        depth += 1


def read_xml(path: Path) -> ET.Element:
    """A file's XML root, read safely (zipped or not)."""
    return parse(decode(read_bytes(path), str(path)), str(path))
