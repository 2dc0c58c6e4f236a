"""Other programs' files: importing this registers their readers (see ``armybuilder.formats``)."""

from __future__ import annotations

from .. import formats


def _register() -> None:
    from .battlescribe import library, rosfile

    formats.register(
        "BattleScribe", (*library.SYSTEM_SUFFIXES, *library.CATALOGUE_SUFFIXES), library.read_folder
    )
    formats.register_roster("BattleScribe roster", (".ros", ".rosz"), rosfile.read_roster)


_register()
