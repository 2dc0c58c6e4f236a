"""Texts known to be exactly as armybuilder's round-trip writer writes them.

Saving an edited roster merges ruamel.yaml's text of the edited roster with the user's file,
against a *base*: ruamel's text of the file as it was read (``dump(load(text))``, see
:meth:`armybuilder.rosters.Roster.prepare_merge_base`). For a file ruamel wrote itself that
base is the file's own text, and finding that out costs one whole dump (the benchmark's
75-platoon regiment: most of a second of CPU) each time the roster is opened.

This module writes down, in the user's cache folder, the fingerprints (SHA-256) of texts whose
base was computed and found equal to the text itself, so that opening the same text again
takes the text as its base without dumping it. Only a computed equality is ever written down
(never a text assumed to be ruamel's), so the base taken from here is the very text the dump
would give, and a save writes the same bytes either way
(``tests/unit/test_files_ownform.py``). The record is kept apart per version of ruamel.yaml,
of Python and of armybuilder's reader and writer (``yamlio.py``): a new writer starts a new
record, and so does another build of libyaml's parser (ruamel.yaml.clib), which reads plain
rosters. A missing, unreadable or damaged record only costs the dump again;
``ARMYBUILDER_NO_CACHE`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import sys
from pathlib import Path

__all__ = ["known", "remember"]

#: At most this many fingerprints are kept (the oldest dropped first).
KEEP = 2000

_key: str | None = None


def _record() -> Path | None:
    global _key
    if os.environ.get("ARMYBUILDER_NO_CACHE"):
        return None
    if _key is None:
        import ruamel.yaml

        from . import yamlio

        h = hashlib.sha256()
        h.update(f"{ruamel.yaml.__version__} {sys.version} {_libyaml()}\n".encode())
        try:
            h.update(Path(yamlio.__file__).read_bytes())
        except OSError:
            return None
        _key = h.hexdigest()[:16]
    from .paths import user_cache_dir

    return user_cache_dir() / "round-trip" / f"own-{_key}.txt"


def _libyaml() -> str:
    """Which build of libyaml's parser (ruamel.yaml.clib) reads plain rosters (yamlio's fast
    round-trip loader): its libyaml version and the binding's file (size, time), so that an
    upgrade of either starts a new record."""
    try:
        import _ruamel_yaml
    except ImportError:
        return "no-clib"
    try:
        st = os.stat(str(_ruamel_yaml.__file__))
        where = f"{st.st_size}:{st.st_mtime_ns}"
    except (OSError, TypeError):
        where = "?"
    return f"libyaml {_ruamel_yaml.get_version_string()} {where}"


def _fingerprint(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _read(path: Path) -> list[str]:
    try:
        lines = path.read_text(encoding="ascii", errors="replace").splitlines()
    except OSError:
        return []
    return [line for line in lines if len(line) == 64]


def known(text: str) -> bool:
    """Whether ``text`` was found to be its own round-trip base (``dump(load(text))``)."""
    path = _record()
    if path is None:
        return False
    return _fingerprint(text) in set(_read(path))


def remember(text: str) -> None:
    """Write down that ``dump(load(text)) == text`` was computed (call it only then)."""
    path = _record()
    if path is None:
        return
    fp = _fingerprint(text)
    with contextlib.suppress(OSError):
        lines = _read(path)
        if fp in lines:
            return
        if len(lines) >= KEEP:
            from .fileio import atomic_write

            atomic_write(path, "".join(f"{x}\n" for x in [*lines[-(KEEP // 2) :], fp]))
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        # One short line appended: a torn line (two processes at once, a crash) is not 64
        # hex digits and is ignored when read.
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, f"{fp}\n".encode("ascii"))
        finally:
            os.close(fd)
