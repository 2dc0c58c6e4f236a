"""The recovery journal: every edit appended to a file in the user data folder, found again
after a crash (:func:`find_recovery`) and replayed by the session."""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..paths import user_state_dir
from .operations import Op, op_from_json, op_to_json

# The roster machinery (ruamel.yaml, pydantic models) is imported where it is used, so that
# the TUI's home screen (recent files, recovery journals) shows before it is loaded.
if TYPE_CHECKING:
    from ..rosters import Roster


# =========================================================================== recovery


#: The journal version from which the first operation of each edit is marked ``"edit": 1``.
_MARKED_EDITS = 3


def _recovery_dir() -> Path:
    return user_state_dir() / "recovery"


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


def _lock_held(journal: Path) -> bool:
    """Whether a process holds the lock its session takes on its journal while it runs
    (:meth:`Journal.start`): a process of the journal's pid that does not is another program
    that got the pid of the one that wrote it, which has ended. ``True`` where locks cannot be
    tested (the pid alone then says)."""
    try:
        import fcntl
    except ImportError:  # (not a POSIX system)
        return True
    try:
        with journal.open("rb") as fh:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
            return False
    except OSError:
        return True


def _lock(fh: Any) -> bool:
    """Hold a lock on the journal open in ``fh`` while this process runs (see
    :func:`_lock_held`), released when the file is closed or the process ends; ``False``
    where it cannot be taken."""
    try:
        import fcntl
    except ImportError:
        return False
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
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
    #: How many edits the operations make (one undo step, however many operations, is one
    #: edit); ``None`` for a journal of an earlier version, which did not mark them.
    steps: int | None = None
    #: The file of another format (a BattleScribe ``.ros``) the roster was converted from,
    #: and the fingerprint of its bytes then; :attr:`path` is the YAML it saves as.
    converted_from: Path | None = None
    converted_digest: str | None = None
    #: The session that wrote it held a lock on it while it ran (:func:`_lock_held`).
    locked: bool = False

    @property
    def converted(self) -> bool:
        """The edits began on a roster converted from :attr:`converted_from` and never
        saved as YAML since: reopening that file offers them."""
        return self.converted_from is not None and self.disk_digest is None

    @property
    def file(self) -> Path | None:
        """The file the player reopens to get these edits back (``None``: a roster never
        saved): the ``.ros`` a roster not saved since its conversion came from, else the
        roster's own file."""
        return self.converted_from if self.converted else self.path

    @property
    def worth_recovering(self) -> bool:
        return bool(self.ops) or self.unsaved_base

    @property
    def edits(self) -> int:
        """The unsaved edits the journal holds: an edit splitting a selection into a hundred
        is one (journals of earlier versions, which did not mark edits, count operations)."""
        return self.steps if self.steps is not None else len(self.ops)

    @property
    def other_process_alive(self) -> bool:
        """The process that wrote the journal still runs (the roster is open elsewhere)."""
        return _pid_alive(self.pid) and (not self.locked or _lock_held(self.journal))

    def discard(self) -> None:
        """Delete the journal."""
        self.journal.unlink(missing_ok=True)


def _disk_changed(path: Path, base: str, disk_digest: str | None, bom: bool) -> bool:
    """Whether the file at ``path`` is no longer what the journal's edits started from."""
    from ..fileio import digest

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


def _source_changed(source: Path, converted_digest: str | None) -> bool:
    """Whether the file a roster was converted from is no longer the one converted."""
    from ..fileio import file_digest

    return converted_digest is None or file_digest(source) != converted_digest


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
    marked = isinstance(head.get("version"), int) and head["version"] >= _MARKED_EDITS
    steps = 0
    for line in lines[1:]:
        if not line:
            continue
        try:
            data = json.loads(line)
            ops.append(op_from_json(data))
        except (ValueError, KeyError, TypeError, AttributeError):
            break  # a torn last line (the process died while writing it)
        steps += 1 if data.get("edit") else 0
    path = Path(head["path"]) if head.get("path") else None
    base = str(head.get("base", ""))
    digest = head.get("disk_digest")
    digest = digest if isinstance(digest, str) else None
    bom = bool(head.get("bom"))
    source = Path(head["converted_from"]) if head.get("converted_from") else None
    source_digest = head.get("converted_digest")
    source_digest = source_digest if isinstance(source_digest, str) else None
    if source is not None and digest is None:
        # Not saved since it was converted: the file the edits began on is the .ros.
        changed = _source_changed(source, source_digest)
    else:
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
        steps=steps if marked else None,
        converted_from=source,
        converted_digest=source_digest,
        locked=bool(head.get("locked")),
    )


def filed_as(roster: Roster) -> Path | None:
    """The file a roster's journal is filed under, which :func:`find_recoveries` is asked
    about when the player opens it again: the roster's own file, or for a roster converted
    from another format and not saved as YAML since, the file it was converted from (its
    YAML does not exist yet, or is another roster)."""
    if roster.converted_from is not None and roster.disk_digest is None:
        return roster.converted_from
    return roster.path


def _journals_of(path: Path) -> list[Path]:
    folder = _recovery_dir()
    if not folder.is_dir():
        return []
    key = _recovery_key(path)
    return [j for j in folder.glob(f"{key}*.jsonl") if j.name[len(key)] in ".-"]


def _converted_from(journal: Path, source: str) -> bool:
    """Whether the journal's header names ``source`` as the file its roster was converted
    from (read without replaying the journal)."""
    try:
        with journal.open("r", encoding="utf-8") as fh:
            head = json.loads(fh.readline())
    except (OSError, UnicodeDecodeError, ValueError):
        return False
    return isinstance(head, dict) and head.get("converted_from") == source


def find_recoveries(path: Path | str) -> list[RecoveryInfo]:
    """Every recovery journal of the roster at ``path`` that holds unsaved edits (one per
    window that did not close normally), those of processes that no longer run first, then
    newest first.

    For a file of another format (a BattleScribe ``.ros``), also the journals of rosters
    converted from it and saved as YAML since (the player opens the ``.ros`` again)."""
    p = Path(path)
    own = _journals_of(p)
    found = []
    for journal in own:
        info = _read_journal(journal)
        if info is not None and info.worth_recovering:
            found.append(info)
    folder = _recovery_dir()
    if p.suffix.lower() not in (".yaml", ".yml") and folder.is_dir():
        target = str(p.resolve())
        for journal in folder.glob("*.jsonl"):
            if journal in own or not _converted_from(journal, target):
                continue
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
        """The journal of a session on the roster filed under ``path`` (see :func:`filed_as`)."""
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
        from ..fileio import atomic_write

        head = {
            "kind": "armybuilder-recovery",
            "version": _MARKED_EDITS,
            "path": str(roster.path.resolve()) if roster.path else None,
            "name": roster.name,
            "system": roster.system,
            "faction": roster.faction,
            "started": time.time(),
            "pid": os.getpid(),
            "locked": True,
            "unsaved": unsaved,
            "bom": roster.bom,
            "newline": roster.newline,
            "disk_digest": roster.disk_digest,
            "converted_from": (
                str(roster.converted_from.resolve()) if roster.converted_from else None
            ),
            "converted_digest": roster.converted_digest,
            "base": base,
        }
        atomic_write(self.path, json.dumps(head) + "\n")
        self._fh = self.path.open("a", encoding="utf-8", newline="\n")
        if not _lock(self._fh):  # (a file system without locks: the pid alone says)
            self._fh.close()
            head["locked"] = False
            atomic_write(self.path, json.dumps(head) + "\n")
            self._fh = self.path.open("a", encoding="utf-8", newline="\n")

    def append(self, ops: Sequence[Op]) -> None:
        self.append_lines([json.dumps(op_to_json(op)) for op in ops])

    def append_lines(self, lines: Sequence[str]) -> None:
        """Append the encoded operations of one edit (see :func:`op_to_json`), the first
        marked ``"edit": 1`` so the journal counts edits, not operations; on a failed write
        the journal is closed, so that the next edit starts a new one from the whole
        document."""
        if self._fh is None or not lines:
            return
        lines = ['{"edit": 1, ' + lines[0][1:], *lines[1:]]
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
