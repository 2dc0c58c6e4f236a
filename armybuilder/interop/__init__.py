"""Other programs' files: importing this registers their readers (see ``armybuilder.formats``).

The readers' modules are imported when a reader is first called, not here.
"""

from __future__ import annotations

import sys
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


def _battlescribe_data(system: Any) -> bool:
    """Whether a game system is BattleScribe data (only its rosters can be written as .ros).
    Such a system's class is in its module, imported by then: a system read before it was
    imported cannot be one, and asking imports nothing."""
    module = sys.modules.get(f"{__name__}.battlescribe.library")
    return module is not None and isinstance(system, module.BattleScribeSystem)


formats.register_roster_writer("ros", ".ros", _battlescribe_ros, _battlescribe_data)
formats.register_roster_writer("rosz", ".rosz", _battlescribe_rosz, _battlescribe_data)
