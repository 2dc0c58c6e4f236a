"""The editing session: one roster being edited, as the TUI (or any other front end) drives it.

An :class:`EditSession` holds a :class:`~armybuilder.rosters.Roster` loaded for editing and the
:class:`~armybuilder.catalog.GameSystem` it belongs to, and offers the edits a player makes
(add an entry with its default choices, remove, duplicate, move, rename, set a count, an
experience level or notes, swap the choice of a group, set the roster's name and cost limits).
It keeps what a front end needs around those edits:

* **validation**: :meth:`EditSession.evaluate` re-validates the roster after an edit and caches
  the :class:`~armybuilder.rules.Evaluation` until the next one; :meth:`EditSession.snapshot`
  and :meth:`EditSession.evaluate_snapshot` let a front end validate a large roster off its
  event loop while the user keeps editing;
* **undo and redo**, many steps: every edit is a list of primitive operations on the roster
  document (:class:`Insert`, :class:`Delete`, :class:`SetKey`, :class:`Move`), each of which
  returns its inverse when applied. Undo re-inserts the very objects it removed, so comments
  and formatting come back too;
* **unsaved changes**: :attr:`EditSession.dirty` is true when the roster differs from the last
  save (undoing back to the saved state clears it);
* **a recovery journal**: from the first edit on, every operation is appended to a journal in
  the user data folder (``<user data>/recovery/``), next to the text the edits started from.
  After a crash or a killed terminal, :func:`find_recovery` finds it when the roster is opened
  again and :meth:`EditSession.recover` replays it. Appending one line per edit costs the same
  for a regiment as for a squad, where rewriting the whole roster would take half a second;
* **recent files** (:class:`RecentFiles`) and **exports** (:func:`export_pdf`,
  :func:`export_text`, the latter through :mod:`armybuilder.render` when it is installed;
  :func:`export_roster_file`, another program's roster file such as BattleScribe's ``.ros``).

Nothing here imports Textual. Locations (``Loc``) are the roster's own: tuples such as
``("selections", 0, "selections", 2)``; ``()`` is the roster itself.

The rooms of this package (each imports only the ones listed before it):

* :mod:`.operations`: the invertible operations edits are made of, and new rosters;
* :mod:`.journal`: the recovery journal;
* :mod:`.text`: text for the panes (costs, limits, campaign state, the plain-text roster);
* :mod:`.editor`: :class:`EditSession`;
* :mod:`.faction`: changing a roster's (or a force's) faction, keeping what still fits;
* :mod:`.recent`: recent files;
* :mod:`.export`: PDF and text exports.
"""

from .editor import (
    Edit,
    EditSession,
    Limit,
    OptionInfo,
    Slot,
    UnitSummary,
    unit_summary,
)
from .export import (
    ExportUnavailableError,
    default_export_path,
    export_pdf,
    export_roster_file,
    export_text,
    roster_file_suffixes,
    slug,
)
from .faction import FactionChange, Refit, change_faction, plan_faction_change
from .journal import (
    Journal,
    RecoveryInfo,
    clean_recovery,
    filed_as,
    find_recoveries,
    find_recovery,
    list_recoveries,
)
from .operations import (
    Delete,
    EditError,
    Insert,
    Loc,
    Move,
    Op,
    SetKey,
    apply_op,
    build_selection,
    decode_value,
    detached_copy,
    encode_value,
    is_force_loc,
    new_roster,
    op_from_json,
    op_to_json,
    refresh_after,
    unshare,
)
from .recent import (
    RecentEntry,
    RecentFiles,
    sniff_roster,
)
from .text import (
    cost_text,
    costs_text,
    format_number,
    limit_text,
    parse_state,
    plain_text,
    state_text,
    state_warnings,
)

__all__ = [
    "Delete",
    "Edit",
    "EditError",
    "EditSession",
    "ExportUnavailableError",
    "FactionChange",
    "Insert",
    "Journal",
    "Limit",
    "Loc",
    "Move",
    "Op",
    "OptionInfo",
    "RecentEntry",
    "RecentFiles",
    "RecoveryInfo",
    "Refit",
    "SetKey",
    "Slot",
    "UnitSummary",
    "apply_op",
    "build_selection",
    "change_faction",
    "clean_recovery",
    "cost_text",
    "costs_text",
    "decode_value",
    "default_export_path",
    "detached_copy",
    "encode_value",
    "export_pdf",
    "export_roster_file",
    "export_text",
    "filed_as",
    "find_recoveries",
    "find_recovery",
    "format_number",
    "is_force_loc",
    "limit_text",
    "list_recoveries",
    "new_roster",
    "op_from_json",
    "op_to_json",
    "parse_state",
    "plain_text",
    "plan_faction_change",
    "refresh_after",
    "roster_file_suffixes",
    "slug",
    "sniff_roster",
    "state_text",
    "state_warnings",
    "unit_summary",
    "unshare",
]
