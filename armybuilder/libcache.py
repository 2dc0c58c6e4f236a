"""A snapshot of a scanned catalog library, so that a command starts without checking it again.

Scanning the library reads every catalog file (from the per-file cache when unchanged), checks
the references between them and runs every rules module's own catalog checks, which imports
every rules module: most of a short command's start-up, though the answer is the same until a
catalog or armybuilder's code changes. The scan's outcome (the systems, their factions and
extensions, and every problem found) is therefore kept as one pickle in the cache folder, the
catalogs in the engine's form (:mod:`armybuilder.model.plain`: the values pydantic checked, as
plain objects), each system packed on its own (:func:`pack`) and unpacked by the library when
first asked for (a command on one roster unpacks only its system), keyed by:

* the search path (each root, in order) and the name and :func:`stamp` (size, modification
  and change times, inode) of every file in its system folders, and the content of every
  catalog file (``*.yaml``) there (a system of another format, read lazily by its own
  reader, is kept as its reader's scan left it, :meth:`GameSystem.kept_form`: a BattleScribe
  folder's file heads, not its translation, which has a cache of its own keyed on the same
  stamps; a file touched, replaced, added, removed, or rewritten with its size and time
  kept, there is a new key);
* the name and :func:`stamp` of every module of armybuilder (the models, the checks
  and the rules modules are all code);
* the versions of Python and armybuilder, the size and modification time of pydantic's
  version file (pydantic is not imported to read its version), ``ARMYBUILDER_RULES_MODULES``,
  and the modification times of the package folders on ``sys.path`` (``site-packages``:
  installing a package with a rules entry point changes one);
* and, checked when it is loaded, the size and modification time of every module the scan
  imported from outside Python's and the environment's own folders (a user's rules module).

The file starts with its format, armybuilder's version and the key it was written for, all
checked before the snapshot is trusted: a file that is damaged, cut short, of another version
or not the one asked for is ignored and written again (the scan runs as if there were none).
Loading it imports neither pydantic nor any rules module until a roster of that system is
evaluated. The cache folder is the user's own (``ARMYBUILDER_HOME``,
``ARMYBUILDER_CACHE_DIR``); ``ARMYBUILDER_NO_CACHE`` turns it off.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .paths import user_cache_dir

try:  # the C unpickler alone: reading a snapshot needs none of pickle.py (writing does)
    from _pickle import loads as _loads
except ImportError:  # pragma: no cover - another Python
    from pickle import loads as _loads

_FORMAT = "library-7"  # 7: a faction keeps whether it is a library file
#: Snapshots kept (one per search path in use: with and without ``--catalogs DIR``, ...).
KEEP = 8
_PACKAGE = Path(__file__).resolve().parent


def stamp(st: os.stat_result) -> list[int]:
    """What tells a file changed without reading it: its size, its modification time, its
    inode's change time and its inode. The change time is set by every write and by setting
    the times back (``os.utime``, ``cp -p``, ``touch -d``), so an edit that keeps a file's
    size and modification time still makes a new stamp (size and time alone kept a stale
    catalogue); a file replaced by another (a rename over it) has another inode. Free: the
    ``stat`` was made anyway; reading the 12.8 MB of ``../shared/bsdata`` to hash it would
    cost about 12 ms a command, more with more game systems."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def _stats(paths: Sequence[Path | str], digest: Any) -> None:
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            digest.update(f"{path}|gone\n".encode())
            continue
        digest.update(f"{path}|{'|'.join(map(str, stamp(st)))}\n".encode())


def fingerprint(roots: Sequence[Path]) -> str | None:
    """The key of a library on these roots, as the files are now (``None``: no cache)."""
    if os.environ.get("ARMYBUILDER_NO_CACHE"):
        return None
    digest = hashlib.sha256()
    digest.update(f"{_FORMAT}|{__version__}|{sys.version}|{_PACKAGE}\n".encode())
    digest.update(f"rules modules {os.environ.get('ARMYBUILDER_RULES_MODULES', '')}\n".encode())
    _stats([_pydantic_version_file()], digest)
    _stats([Path(p) for p in sys.path if p.endswith(("site-packages", "dist-packages"))], digest)
    for root in roots:
        digest.update(f"root {root}\n".encode())
        try:
            entries = sorted(root.iterdir())
        except OSError:
            continue
        _stats([p for p in entries if not p.is_dir()], digest)  # a zipped data set, ...
        folders = [p for p in entries if p.is_dir()]
        for folder in folders:
            files = sorted(p for p in folder.iterdir() if p.is_file())
            _stats(files, digest)
            for path in files:
                if path.suffix == ".yaml":  # the content too: an edit that kept size and time
                    try:
                        digest.update(hashlib.sha256(path.read_bytes()).digest())
                    except OSError:
                        digest.update(b"unreadable")
    _stats(sorted(_modules(str(_PACKAGE))), digest)
    return digest.hexdigest()[:32]


def _modules(folder: str) -> list[str]:
    """Every ``*.py`` file under ``folder`` (``Path.rglob("*.py")``, a third of the time)."""
    out: list[str] = []
    for here, _dirs, files in os.walk(folder):
        out.extend(os.path.join(here, f) for f in files if f.endswith(".py"))
    return out


def _pydantic_version_file() -> Path:
    """pydantic's ``version.py``, found without importing pydantic (an upgrade changes it)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("pydantic")
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return Path("(no pydantic)")
    return Path(spec.origin).parent / "version.py"


def _file(key: str) -> Path:
    return user_cache_dir() / "library" / f"{key}.pickle"


def _own_modules() -> list[tuple[str, int, int]]:
    """(file, size, mtime) of the imported modules that are neither Python's nor installed
    in the environment (armybuilder from a source tree, a user's rules module)."""
    prefixes = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix})
    out = []
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file or file.startswith(prefixes) or file.startswith(str(_PACKAGE)):
            continue
        try:
            st = os.stat(file)
        except OSError:
            continue
        out.append((file, st.st_size, st.st_mtime_ns))
    return sorted(out)


def _unchanged(files: list[tuple[str, int, int]]) -> bool:
    for file, size, mtime in files:
        try:
            st = os.stat(file)
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns) != (size, mtime):
            return False
    return True


def load(key: str) -> Any:
    """The snapshot stored under ``key``, or ``None``."""
    try:
        data = _file(key).read_bytes()
    except OSError:
        return None
    try:
        head, snapshot, files = _loads(data)
    except Exception:
        return None  # damaged, cut short, or of another format: scan again
    if head != (_FORMAT, __version__, key):
        return None  # another version's, or not the snapshot asked for
    return snapshot if _unchanged(files) else None


def pack(value: Any) -> bytes:
    """``value`` as bytes to keep in a snapshot and :func:`unpack` when first needed."""
    import pickle

    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def unpack(data: bytes) -> Any:
    """What :func:`pack` made ``data`` of."""
    collecting = gc.isenabled()
    gc.disable()  # tens of thousands of objects made, none freed: nothing to collect meanwhile
    try:
        return _loads(data)
    finally:
        if collecting:
            gc.enable()


def store(key: str, snapshot: Any) -> None:
    """Keep ``snapshot`` under ``key`` (atomically; a read-only cache only costs speed)."""
    import pickle

    target = _file(key)
    try:
        head = (_FORMAT, __version__, key)
        data = pickle.dumps((head, snapshot, _own_modules()), protocol=pickle.HIGHEST_PROTOCOL)
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        os.replace(tmp, target)
        # keep the few most recent (code and catalogs change; each change is a new key)
        old = sorted(target.parent.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
        for path in old[:-KEEP]:
            path.unlink(missing_ok=True)
    except (OSError, pickle.PicklingError, TypeError, AttributeError):
        pass
