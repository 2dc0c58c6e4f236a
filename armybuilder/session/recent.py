"""Recent files: the rosters a user opened or saved, and the ones found in the current folder."""

from __future__ import annotations

import contextlib
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..paths import user_state_dir

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
        self.file = file or user_state_dir() / "recent.json"
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
        from ..fileio import atomic_write

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
