"""Other programs' files: importing this registers their readers (see ``armybuilder.formats``).

The readers' modules are imported when a reader is first called, not here.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .. import formats

if TYPE_CHECKING:
    from ..catalog import GameSystem
    from ..errors import Problem


def _battlescribe_folder(folder: Path, use_cache: bool) -> tuple[list[GameSystem], list[Problem]]:
    from .battlescribe.library import read_folder

    return read_folder(folder, use_cache)


def _battlescribe_roster(path: Path, library: Any) -> str:
    from .battlescribe.rosfile import read_roster

    return read_roster(path, library)


def _battlescribe_ros(roster: Any, library: Any, name: str) -> bytes:
    from .battlescribe.rosfile import to_ros

    return to_ros(roster, library).encode("utf-8")


def _battlescribe_rosz(roster: Any, library: Any, name: str) -> bytes:
    from .battlescribe.rosfile import to_rosz

    return to_rosz(roster, library, name)


formats.register("BattleScribe", (".gst", ".gstz", ".cat", ".catz"), _battlescribe_folder)
formats.register_roster("BattleScribe roster", (".ros", ".rosz"), _battlescribe_roster)
formats.register_roster_writer("ros", ".ros", _battlescribe_ros)
formats.register_roster_writer("rosz", ".rosz", _battlescribe_rosz)
