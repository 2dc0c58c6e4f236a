"""Every key binding of the TUI, with a stable id a user can remap in the settings file.

Each action is described once here: its binding id (``editor.add``), default keys, the
action it runs, a short label for the footer and a sentence for the help screen and the
command palette. Screens build their ``BINDINGS`` from these lists, the help screen lists
them, and :mod:`armybuilder.tui.settings` checks a user's keymap against the ids.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding, BindingType


@dataclass(frozen=True)
class ActionSpec:
    """One user action and its default keys."""

    id: str
    keys: str
    action: str
    label: str
    help: str
    show: bool = True
    priority: bool = False
    #: Offered in the command palette.
    palette: bool = True

    @property
    def ctrl_only(self) -> bool:
        """Every key of it is a Ctrl combination: such keys act as the app's binding even in
        a text field (Ctrl+W closes the roster; it does not delete a word), and a field's
        text is applied first. Printable keys and keys that edit text (Delete, the arrows)
        belong to the field while one has the focus."""
        return all(k.strip().startswith("ctrl+") for k in self.keys.split(","))

    def binding(self) -> Binding:
        return Binding(
            self.keys,
            self.action,
            self.label,
            show=self.show,
            priority=self.priority or self.ctrl_only,
            id=self.id,
            tooltip=self.help,
        )


APP_ACTIONS: list[ActionSpec] = [
    ActionSpec(
        "app.quit",
        "ctrl+q",
        "quit",
        "Quit",
        "Quit (asks first if there are unsaved changes)",
        priority=True,
    ),
    ActionSpec("app.help", "f1,question_mark", "help", "Help", "Show the key bindings"),
]

HOME_ACTIONS: list[ActionSpec] = [
    ActionSpec(
        "home.new",
        "n,ctrl+n",
        "new_roster",
        "New roster",
        "Start a new roster: game system, faction, name, cost limit",
    ),
    ActionSpec("home.open", "o,ctrl+o", "open_file", "Open file", "Open any roster file"),
    ActionSpec(
        "home.forget",
        "delete",
        "forget",
        "Forget",
        "Remove the highlighted roster from the recent list (the file stays)",
    ),
    ActionSpec(
        "home.refresh", "f5", "refresh", "Refresh", "Read the recent list again", show=False
    ),
]

EDITOR_ACTIONS: list[ActionSpec] = [
    ActionSpec(
        "editor.add",
        "a,insert",
        "add",
        "Add",
        "Add the highlighted catalog entry to the selected unit, with its default choices "
        "and what its catalog requires inside it (a squad's sergeant and its minimum of "
        "troopers)",
    ),
    ActionSpec(
        "editor.add_standard",
        "s",
        "add_standard",
        "Standard",
        "Add the highlighted catalog entry at its standard strength and loadout (a whole "
        "squad or formation, as the catalog declares it)",
    ),
    ActionSpec("editor.remove", "delete", "remove", "Remove", "Remove the selected unit"),
    # Save, undo, redo and close come before the other shown keys: the footer of an 80-column
    # terminal has room for about seven keys, and these must never be cut off.
    ActionSpec("editor.save", "ctrl+s", "save", "Save", "Save the roster"),
    ActionSpec("editor.undo", "ctrl+z", "undo", "Undo", "Undo the last edit"),
    ActionSpec("editor.redo", "ctrl+y", "redo", "Redo", "Redo the last undone edit"),
    ActionSpec(
        "editor.close",
        "ctrl+w",
        "close",
        "Close",
        "Close the roster and go back to the home screen",
    ),
    ActionSpec(
        "editor.add_bare",
        "A",
        "add_bare",
        "Add bare",
        "Add the highlighted catalog entry with its default choices only, none of what its "
        "catalog requires inside it (a squad without its models, to build it up yourself)",
    ),
    ActionSpec(
        "editor.duplicate",
        "d",
        "duplicate",
        "Duplicate",
        "Put a copy of the selected unit right after it (a unit gets the next name in its "
        "series: 2nd Marine Squad)",
    ),
    ActionSpec(
        "editor.split",
        "x",
        "split",
        "Split",
        "Split a counted selection (Marine ×6) into separate selections that can differ",
        show=False,
    ),
    ActionSpec(
        "editor.merge",
        "m",
        "merge",
        "Merge",
        "Merge the selected unit with its identical siblings into one counted selection",
        show=False,
    ),
    ActionSpec(
        "editor.move_up",
        "ctrl+up,alt+up",
        "move(-1)",
        "Move up",
        "Move the selected unit up among its siblings",
        show=False,
    ),
    ActionSpec(
        "editor.move_down",
        "ctrl+down,alt+down",
        "move(1)",
        "Move down",
        "Move the selected unit down among its siblings",
        show=False,
    ),
    ActionSpec(
        "editor.count_up",
        "plus,equals_sign",
        "count(1)",
        "Count +1",
        "One more copy of the selected unit (up to its maximum)",
        show=False,
    ),
    ActionSpec(
        "editor.count_down",
        "minus",
        "count(-1)",
        "Count -1",
        "One copy fewer of the selected unit (at least 1)",
        show=False,
    ),
    ActionSpec(
        "editor.rename",
        "r,f2",
        "rename",
        "Rename",
        "Give the selected unit (or the roster) a name",
        show=False,
    ),
    ActionSpec(
        "editor.add_force",
        "t",
        "add_force",
        "Add force",
        "Add a force to the roster (a force entry of the game system, for a faction); the "
        "roster then lists its forces, and its units go into them",
        show=False,
    ),
    ActionSpec(
        "editor.remove_force",
        "T",
        "remove_force",
        "Remove force",
        "Remove the force the selection is in, with everything in it (Delete on a force's line "
        "does it too)",
        show=False,
    ),
    ActionSpec(
        "editor.change_faction",
        # Ctrl+T types nothing, so it works from every pane, the catalog's search box and
        # the text fields included; Shift+F there types a capital F (search as you type).
        "F,ctrl+t",
        "change_faction",
        "Faction",
        "Change the faction of the roster (or of the force the selection is in), keeping each "
        "unit that its catalog still has, by id or else by name; units it lacks stay as unknown "
        "entries to fix or delete (shown before anything changes; Ctrl+Z undoes it). Ctrl+T "
        "works from every pane, in the search box and text fields too, where Shift+F types an F",
        show=False,
    ),
    ActionSpec(
        "editor.save_as", "f12", "save_as", "Save as", "Save the roster to a new file", show=False
    ),
    ActionSpec(
        "editor.export_text",
        "ctrl+e",
        "export_text",
        "Export text",
        "Export the roster as text for a forum post (file and clipboard)",
        show=False,
    ),
    ActionSpec(
        "editor.export_pdf",
        "ctrl+r",
        "export_pdf",
        "PDF",
        "Render the roster as a printable PDF",
        show=False,
    ),
    ActionSpec(
        "editor.export_roster",
        "ctrl+g",
        "export_roster",
        "Export roster file",
        "Write the roster as another program's roster file: BattleScribe's .ros, or the zipped "
        ".rosz, for a roster of BattleScribe data (as `armybuilder export --to ros`); offered "
        "for such rosters only. Save as with a name ending .ros or .rosz does the same",
        show=False,
    ),
    ActionSpec(
        "editor.search", "slash,ctrl+f", "search", "Search", "Search the catalog", show=False
    ),
    ActionSpec(
        "editor.expand_all",
        "e",
        "expand_all",
        "Expand all",
        "Expand every unit of the roster tree",
        show=False,
    ),
    ActionSpec(
        "editor.collapse_all",
        "c",
        "collapse_all",
        "Collapse all",
        "Collapse the roster tree to its top level",
        show=False,
    ),
    ActionSpec(
        "editor.sort_catalog",
        "o",
        "sort('catalog')",
        "Sort by catalog",
        "Sort the selected unit's contents (or the top level) in the catalog's order",
        show=False,
    ),
    ActionSpec(
        "editor.sort_name",
        "n",
        "sort('name')",
        "Sort by name",
        "Sort the selected unit's contents (or the top level) by name",
        show=False,
    ),
    ActionSpec(
        "editor.summary",
        "g,f9",
        "summary",
        "Summary",
        "The list at a glance: categories against their limits, what is still required, "
        "cost per category, what cannot be added now and why",
    ),
    ActionSpec(
        "editor.find_everywhere",
        "f",
        "find_everywhere",
        "Find anywhere",
        "Find an entry by name anywhere the roster can take it; choosing one adds it there",
    ),
    ActionSpec(
        "editor.define_unit",
        "u",
        "define_unit",
        "Define unit",
        "Define a unit of your own for this roster (its custom: list) or for a user catalog file: "
        "name, stat line checked by the system's rules as you type, costs, its own options "
        "(weapons, kit); it then shows in the catalog",
        show=False,
    ),
    ActionSpec(
        "editor.quick_fix",
        "full_stop",
        "quick_fix",
        "Fix",
        "Apply the known fix of the issue highlighted in the issues list, or of the selected "
        "unit's first fixable issue (a misspelt entry, a surplus, a missing required entry); "
        "Ctrl+Z undoes it",
        show=False,
    ),
    ActionSpec(
        "editor.next_issue",
        "f8",
        "next_issue(1)",
        "Next issue",
        "Jump to the next error or warning",
        show=False,
    ),
    ActionSpec(
        "editor.previous_issue",
        "shift+f8",
        "next_issue(-1)",
        "Previous issue",
        "Jump to the previous error or warning",
        show=False,
    ),
    ActionSpec(
        "editor.focus_roster",
        "f3",
        "focus_area('roster-tree')",
        "Roster",
        "Move the focus to the roster tree",
        show=False,
    ),
    ActionSpec(
        "editor.focus_catalog",
        "f4",
        "focus_area('catalog-tree')",
        "Catalog",
        "Move the focus to the catalog",
        show=False,
    ),
    ActionSpec(
        "editor.focus_details",
        "f6",
        "focus_area('details')",
        "Details",
        "Move the focus to the details of the selected unit",
        show=False,
    ),
    ActionSpec(
        "editor.focus_issues",
        "f7",
        "focus_area('issues-list')",
        "Issues",
        "Move the focus to the list of errors and warnings",
        show=False,
    ),
]

ALL_ACTIONS: list[ActionSpec] = [*APP_ACTIONS, *HOME_ACTIONS, *EDITOR_ACTIONS]
ACTIONS_BY_ID: dict[str, ActionSpec] = {a.id: a for a in ALL_ACTIONS}


def bindings(actions: list[ActionSpec]) -> list[BindingType]:
    """Textual bindings for a list of actions."""
    return [a.binding() for a in actions]


def keys_for(spec: ActionSpec, keymap: dict[str, str]) -> str:
    """The keys an action is bound to, after the user's keymap."""
    return keymap.get(spec.id, spec.keys)


def types_nothing(key: str) -> bool:
    """A key that neither types nor edits text in a field: a Ctrl or Alt combination or a
    function key (what an action that works in text fields may be mapped to)."""
    key = key.strip()
    return key.startswith(("ctrl+", "alt+")) or (key[:1] == "f" and key[1:].isdigit())
