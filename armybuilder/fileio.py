"""Writing files safely: one atomic write used by every writer of the package.

Rosters, exports, JSON Schemas, PDFs, the recent-files list, settings and recovery journals are
all written by :func:`atomic_write`:

* the new content goes to a temporary file created with ``O_EXCL`` (:func:`tempfile.mkstemp`,
  an unpredictable name) in the target's own folder, is flushed and synced, then renamed over
  the target: a reader (or a crash) sees the old file or the new one, never a torn one;
* the previous version is kept as ``<name>.bak`` when asked, made as atomically as the file
  itself (a hard link to the old file renamed over the ``.bak``; where hard links are not
  available, a complete copy in a temporary file renamed over it). A ``.bak`` that is a
  symbolic link is replaced, never written through;
* a target that is a symbolic link is written through deliberately: the link is resolved, the
  file it points to is replaced, and the link stays as it was;
* temporary files left behind by a process that was killed while saving are removed by the
  next write to the same file;
* a target that is a folder, a pipe or a device, or whose folder is a file, is refused with
  :class:`OutputError` (a sentence naming the file), never a traceback.

This module imports nothing heavy: the TUI's home screen and the journal use it early.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from .errors import ArmybuilderError, ChangedOnDiskError

__all__ = [
    "ChangedOnDiskError",
    "OutputError",
    "atomic_write",
    "check_output",
    "clean_stray_temporaries",
    "describe_os_error",
    "digest",
    "file_digest",
    "keep_aside",
    "real_path",
    "refuse_input_as_output",
    "same_file",
]


class OutputError(ArmybuilderError, OSError):
    """A file cannot be written where it was asked to go (a folder, a pipe, an input...).

    Also an :class:`OSError`, so that callers that report failed writes report this too.
    """

    def __init__(self, path: Path | str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = Path(path)
        self.reason = message


def digest(data: bytes) -> str:
    """The fingerprint of a file's bytes (to notice that it changed on disk)."""
    return hashlib.sha256(data).hexdigest()


def file_digest(path: Path) -> str | None:
    """The fingerprint of the file at ``path`` now, ``None`` when it cannot be read."""
    try:
        return digest(Path(path).read_bytes())
    except OSError:
        return None


def real_path(path: Path | str) -> Path:
    """``path`` with symbolic links resolved (the file a write actually replaces)."""
    return Path(os.path.realpath(os.fspath(path)))


def same_file(a: Path | str, b: Path | str) -> bool:
    """Whether ``a`` and ``b`` name the same file (through links, ``..`` and hard links)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return real_path(a) == real_path(b)


def refuse_input_as_output(output: Path | str, inputs: Iterable[Path | str]) -> None:
    """Raise :class:`OutputError` when ``output`` is one of the ``inputs``."""
    for item in inputs:
        if Path(output).exists() and same_file(output, item):
            raise OutputError(
                output,
                f"is the input file {item}; refusing to write the output over it "
                "(choose another file name)",
            )


def check_output(target: Path | str, inputs: Iterable[Path | str] = ()) -> Path:
    """Refuse (with :class:`OutputError`) an output path that cannot be written before any
    work is done: one of the ``inputs``, a folder, a pipe or device, a path through a file.
    Returns the file a write would replace (symbolic links resolved)."""
    refuse_input_as_output(target, inputs)
    real = real_path(target)
    _check_target(real)
    for parent in real.parents:
        if parent.exists():
            if not parent.is_dir():
                raise OutputError(
                    target, "cannot be created: a part of its folder path is a file, not a folder"
                )
            break
    return real


def describe_os_error(exc: OSError) -> str:
    """An operating-system error as the end of a sentence ("is a folder", ...)."""
    code = exc.errno
    if isinstance(exc, (OutputError, ChangedOnDiskError)):
        return exc.reason
    if code == errno.EISDIR:
        return "is a folder, not a file"
    if code in (errno.ENOTDIR, errno.EEXIST):
        return "cannot be created: a part of its folder path is a file, not a folder"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if code == errno.ENOSPC:
        return "the disk is full"
    if code == errno.EROFS:
        return "the disk is read-only"
    if code == errno.ENAMETOOLONG:
        return "the file name is too long"
    if code == errno.ENOENT:
        return "its folder does not exist"
    return exc.strerror or str(exc)


def _temp_prefix(name: str) -> str:
    return f".{name}.{os.getpid()}."


def _pid_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_stray_temporaries(target: Path) -> list[Path]:
    """Remove temporary files of ``target`` left by processes that no longer run (killed while
    saving); returns what was removed. Temporaries of a process still running are kept."""
    target = Path(target)
    folder = target.parent
    removed = []
    prefixes = (f".{target.name}.", f".{target.name}.bak.")
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    for name in names:
        if not name.endswith(".tmp") or not name.startswith(prefixes[0]):
            continue
        rest = name[len(prefixes[0]) :]
        if rest.startswith("bak."):
            rest = rest[4:]
        pid_text = rest.split(".", 1)[0]
        if not pid_text.isdigit() or _pid_alive(int(pid_text)):
            continue
        path = folder / name
        with contextlib.suppress(OSError):
            if path.is_file() and not path.is_symlink():
                path.unlink()
                removed.append(path)
    return removed


def _check_target(target: Path) -> None:
    """Refuse targets that are not (or cannot become) regular files."""
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except NotADirectoryError:
        raise OutputError(
            target, "cannot be created: a part of its folder path is a file, not a folder"
        ) from None
    except OSError as exc:
        raise OutputError(target, describe_os_error(exc)) from None
    if st is None:
        return
    if stat.S_ISDIR(st.st_mode):
        raise OutputError(target, "is a folder, not a file; give a file name")
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(
            target, "is not a regular file (a pipe, socket or device); refusing to replace it"
        )


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _copy_whole(real: Path, fd: int, dest: Path) -> None:
    """Copy ``real`` into the new file ``dest`` open as ``fd``, on disk (fsync) with its
    times and mode; ``dest`` removed when the copy fails. Where hard links are not to be had."""
    import shutil

    try:
        with os.fdopen(fd, "wb") as out, real.open("rb") as src:
            shutil.copyfileobj(src, out)
            out.flush()
            os.fsync(out.fileno())
        shutil.copystat(real, dest)
    except BaseException:
        dest.unlink(missing_ok=True)
        raise


def _backup(real: Path) -> None:
    """Keep the current ``real`` as ``real.bak``, atomically (never a torn ``.bak``)."""
    import secrets
    import tempfile

    bak = real.with_name(real.name + ".bak")
    folder = real.parent
    tmp = folder / f".{real.name}.bak.{os.getpid()}.{secrets.token_hex(6)}.tmp"
    try:
        os.link(real, tmp)
    except OSError:
        # No hard links here (some network and FAT disks): a complete copy, then a rename.
        fd, name = tempfile.mkstemp(
            prefix=f".{real.name}.bak.{os.getpid()}.", suffix=".tmp", dir=folder
        )
        tmp = Path(name)
        _copy_whole(real, fd, tmp)
    try:
        os.replace(tmp, bak)  # replaces a symbolic link itself, never its target
    finally:
        # Also when the .bak already was this very file (a save cut short after making
        # it): renaming a hard link over its twin does nothing and leaves the name.
        tmp.unlink(missing_ok=True)


def keep_aside(path: Path | str, when: float | None = None) -> Path:
    """Keep the file ``path`` (through a link: the file it points to) under a name of its own
    that no save replaces: ``<name>.replaced-<YYYYMMDD-HHMMSS>`` next to it (``-2``, ``-3``...
    when taken). For a file about to be replaced that is not a version of the roster saved
    over it (another roster of that name, another window's save): its ``.bak`` would be
    overwritten by the next save. A hard link where the disk allows, else a complete copy.
    Returns the new name; never replaces an existing file."""
    import time

    real = real_path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
    for n in range(1, 1000):
        dest = real.with_name(f"{real.name}.replaced-{stamp}" + (f"-{n}" if n > 1 else ""))
        try:
            os.link(real, dest)  # (fails, never replaces, when dest exists)
        except FileExistsError:
            continue
        except OSError:
            try:
                fd = os.open(dest, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:
                continue
            _copy_whole(real, fd, dest)
        _fsync_dir(real.parent)
        return dest
    raise OutputError(real, "cannot be kept aside: too many .replaced- copies of it here")


def atomic_write(
    target: Path | str, data: str | bytes, backup: bool = False, *, mode: int | None = None
) -> Path:
    """Write ``data`` (text is written as UTF-8, newlines as given) to ``target`` atomically.

    With ``backup``, the file being replaced is kept as ``<name>.bak`` next to it. A target that
    is a symbolic link is resolved: the file it points to is replaced and the link kept.
    Returns the path of the file actually written. Raises :class:`OutputError` (an
    :class:`OSError` whose message is a sentence naming the file) when it cannot be written: a
    folder, a pipe, a full disk, no permission; in every case the old file is left as it was.
    """
    target = Path(target)
    try:
        return _atomic_write(target, data, backup, mode)
    except OutputError:
        raise
    except OSError as exc:
        raise OutputError(target, describe_os_error(exc)) from exc


def _atomic_write(target: Path, data: str | bytes, backup: bool, mode: int | None) -> Path:
    real = real_path(target)
    _check_target(real)
    folder = real.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise OutputError(
            target, "cannot be created: a part of its folder path is a file, not a folder"
        ) from None
    clean_stray_temporaries(real)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    import tempfile  # (here: reading rosters, as `validate` does, needs none of it)

    fd, tmp_name = tempfile.mkstemp(prefix=_temp_prefix(real.name), suffix=".tmp", dir=folder)
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        exists = real.exists()
        if mode is not None:
            os.chmod(tmp, mode)
        elif exists:
            os.chmod(tmp, real.stat().st_mode & 0o777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        if backup and exists:
            _backup(real)
        os.replace(tmp, real)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(folder)
    return real
