"""The details pane: the selected unit (or the roster), edited in place.

For a selection: its name, count (within its minimum and maximum), experience, notes, its
campaign state (one line of YAML, e.g. ``{actions: 3, wounds: 1}``), the choice of each one-of
group (weapon, armour, motive...) as a drop-down, its stat lines and
those of its loadout, the values its game system computes for it, and the issues about it.
For the roster itself: its name and cost limits, and the values computed for the whole
roster.

The widgets are built once and then only updated, value by value, when something they show
changed; a field being typed in is never overwritten. The choice groups take slots (a
heading, a drop-down and a list of choices, one of the last two shown): a unit's groups fill
the first slots in order, each slot told which group it shows, its options and its choice,
and the slots left over are hidden. Closed, a drop-down shows only its choice, so only the
chosen options are priced when the unit is shown or edited; the others are priced (by the
session, for the evaluation shown) when a drop-down is opened. Moving between units, an edit, a
quick fix or an undo therefore mounts nothing, unless the unit has more groups than any unit
shown before.

Widgets are built (mounted) asynchronously, so an evaluation can arrive while they are
half-built: the box being built (more slots, or the roster's limits) is hidden until it is
built, nothing is filled into it meanwhile, and a finished build is filled only from the
latest evaluation shown and only if that is still of the node it was built for. The pane
therefore never shows another node's widgets nor touches a widget not yet mounted.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.console import Group as RichGroup
from rich.console import RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select
from textual.widgets._select import SelectCurrent

from ...session import (
    Limit,
    Loc,
    cost_text,
    costs_text,
    limit_text,
    state_text,
    state_warnings,
)
from ...words import tally, unit_is_name
from .catalog import profile_tables, selection_stat_lines
from .fitting import WhereRoom
from .roster_tree import issue_mark, node_at, owner_loc
from .stable import (
    Box,
    LiveStatic,
    Row,
    SizedByLayout,
    SteadyButton,
    SteadyInput,
    SteadySelect,
    find,
)

if TYPE_CHECKING:
    from ...catalog import CatalogIndex
    from ...model.catalog import Entry, Group
    from ...rules.engine import Evaluation, Node
    from ...rules.state import StateKey
    from ...session import EditSession


def group_label(group: Group, limit: Limit | None) -> str:
    """A choice group's heading: ``Ranged weapon (0-1): 1/1``, ``Sergeant (exactly 1): 1/1``."""
    if limit is None:
        return f"{group.name} ({limit_text(group.min, group.max)})"
    text = f"{group.name} ({limit.range_text})"
    return f"{text}: {limit.count_text}" if limit.count_text else text


def warnings_text(warnings: list[str]) -> str:
    """The campaign state's warnings under its field, one a line: each is a sentence of its
    own ("... It is kept in the file but not used."), so run together with "; " they read
    "...not used.; unknown campaign state key ..." and the second one's start is lost."""
    return "\n".join(warnings)


def option_label(name: str, cost: str) -> str:
    """A drop-down option: the name with what choosing it costs there (``Veteran · 2 bp``:
    what the roster's total rises by)."""
    return f"{name} · {cost}" if cost else name


def one_of_groups(entry: Entry) -> list[Group]:
    """Groups of an entry (and their subgroups) from which at most one is chosen."""
    from ...catalog import walk_groups  # here: the editor paints before the catalogs load

    return list(walk_groups(entry.groups))


def _same_text(a: Text, b: Text) -> bool:
    """Whether two texts draw alike: the same characters, styles and ways of wrapping."""
    return (
        a.plain == b.plain
        and a.spans == b.spans
        and a.style == b.style
        and (a.justify, a.overflow, a.no_wrap, a.end) == (b.justify, b.overflow, b.no_wrap, b.end)
    )


#: A drop-down option: (label, entry id).
Option = tuple[str, str]
#: An option of a group before it is priced: (name, entry id, the id the session prices it by).
_Row = tuple[str, str, str]


class StateField(SteadyInput):
    """The campaign state field: its example (placeholder) fitted to its width whenever that
    changes (:func:`~armybuilder.rules.state.state_example`), never cut mid-key."""

    #: The game system's campaign state keys the example shows.
    keys: tuple[StateKey, ...] = ()

    def fit(self) -> None:
        from ...rules.state import state_example

        width = self.scrollable_content_region.width
        if self.keys:
            example = state_example(self.keys, width or None)
        else:
            example = next((e for e in _NO_KEYS if not width or len(e) <= width), "")
        if self.placeholder != example:
            self.placeholder = example

    def on_resize(self) -> None:
        self.fit()


#: The campaign state field's example in a game system that names no keys, the first that
#: fits the field.
_NO_KEYS = ("e.g. {actions: 3, wounds: 1}", "e.g. {wounds: 1}", "")


class NameField(SteadyInput):
    """The name field: its placeholder, the entry's name (what the selection is called while
    it has no name of its own), ends in "…" where the field is too narrow for it, instead of
    being cut at the field's edge into another name (a Bladeguard Veteran Squad read
    "Bladeguard Veteran" at 80x24); fitted again when the field's width changes."""

    #: The whole placeholder, before it is fitted.
    whole: str = ""

    def show_name(self, name: str) -> None:
        self.whole = name
        self.fit()

    def fit(self) -> None:
        width = self.scrollable_content_region.width
        text = self.whole
        if width and cell_len(text) > width:
            text = set_cell_size(text, max(width - 1, 0)).rstrip() + "…"
        if self.placeholder != text:
            self.placeholder = text

    def on_resize(self) -> None:
        self.fit()


class ChoiceSelect(SteadySelect[str]):
    """A group's drop-down whose list of options is built when it is opened, not each time its
    options change: a unit can have dozens of groups (a large squad of BattleScribe data has
    39), their options are priced for the unit, so moving to another unit or an edit that
    changes a price would otherwise rebuild every closed list. What it shows closed (the choice,
    or the prompt) and its options (``_options``, its legal values) always follow at once, as in
    a ``Select``."""

    #: The open list does not hold the current options yet.
    _list_stale = True
    #: Prices every option as the pane's latest evaluation does (given at each fill), called
    #: when the list opens: closed, a drop-down shows only its choice, whose label carries
    #: its price already, so the other options are priced only when a person looks at them.
    #: ``None`` once the options held are those it gives.
    _pricer: Callable[[], list[Option]] | None = None

    def __init__(self, *, classes: str | None = None) -> None:
        super().__init__([], allow_blank=True, prompt="(none)", classes=classes)

    def _setup_options_renderables(self) -> None:
        if self.expanded:
            super()._setup_options_renderables()
            self._list_stale = False
        else:
            self._list_stale = True

    @property
    def held(self) -> tuple[Option, ...]:
        """The options it holds now (labels and values, the blank one left out)."""
        return tuple((str(label), str(v)) for label, v in self._options if v != self.NULL)

    def arm(self, pricer: Callable[[], list[Option]]) -> None:
        """The pricer of the evaluation shown now (see ``_pricer``); an open list is priced
        again at once."""
        self._pricer = pricer
        if self.expanded and self.is_mounted:
            self._price_now()

    def offered(self) -> list[Option]:
        """The options as the open list shows them: every one priced (what opening it gives)."""
        return self._pricer() if self._pricer is not None else list(self.held)

    def _price_now(self) -> None:
        pricer, self._pricer = self._pricer, None
        if pricer is None:
            return
        options = pricer()
        if tuple(options) == self.held:
            return
        value = self.value
        self._setup_variables_for_options(options)
        self._list_stale = True
        if self.expanded:
            super()._setup_options_renderables()
            self._list_stale = False
        if value != self.NULL and value in self._legal_values:
            with self.prevent(Select.Changed):
                self._watch_value(value)  # its label as priced (the same, but never stale)

    def _watch_expanded(self, expanded: bool) -> None:
        if expanded and self._pricer is not None and self.is_mounted:
            self._price_now()
        if expanded and self._list_stale and self.is_mounted:
            super()._setup_options_renderables()
            self._list_stale = False
        super()._watch_expanded(expanded)

    def refill(self, options: list[Option], value: str | None) -> bool:
        """New options (their labels carry prices, which an edit changes) and the choice,
        touching what the drop-down shows closed only where it changes: ``set_options``
        clears the value and sets it again, which lays the whole screen out twice even when
        the choice and its label are the same. Whether what it shows closed changed."""
        target: Any = value if value is not None else self.NULL
        if self.expanded:  # open: rebuilt as Select does, its highlight on the choice
            with self.prevent(Select.Changed):
                self.set_options(options)
                self.value = target
            return True
        before = self.value
        shown_before = self._label_of(before)
        self._setup_variables_for_options(options)
        self._setup_options_renderables()  # (only marked stale while closed)
        if before != target:
            with self.prevent(Select.Changed):
                self.value = target  # its watcher shows the new choice's label
            return True
        if target != self.NULL and self._label_of(target) != shown_before and self.is_mounted:
            # The same choice at another price: its label again (the watcher does not run).
            with self.prevent(Select.Changed):
                self._watch_value(target)
            return True
        return False

    def _label_of(self, value: object) -> object:
        return next((label for label, v in self._options if v == value), None)

    def _watch_prompt(self, prompt: str) -> None:
        if not self._list_stale:
            super()._watch_prompt(prompt)
        elif self.is_mounted:  # the list takes the prompt when it is built
            current = self.query_one(SelectCurrent)
            current.placeholder = prompt
            if self.value == self.NULL:
                current.update(self.NULL)


class _GroupSlot:
    """The widgets one choice group takes in the pane: its heading, and its drop-down (a
    group of at most one) or the list of what is chosen (a group of several); which group
    it shows is decided at each fill. What each widget was last given is kept beside it."""

    def __init__(self) -> None:
        self.label = LiveStatic("", classes="field-label")
        self.select: Select[str] = ChoiceSelect(classes="choice")
        self.listing = LiveStatic("", classes="choice-list")
        self.widgets: list[Widget] = [self.label, self.select, self.listing]
        for widget in self.widgets:
            widget.display = False
        self.label_text: str | None = ""
        self.listing_text: str | None = ""
        self.options: tuple[Option, ...] = ()


class DetailsPane(SizedByLayout, VerticalScroll):
    """Profile, options, loadout and computed values of the selected unit."""

    class Edit(Message):
        """The user changed a field: ``field`` is ``name``, ``count``, ``count-step``,
        ``experience``, ``notes``, ``roster-name``, ``limit:<cost type>`` or
        ``choice:<group id>``."""

        def __init__(self, loc: Loc, field: str, value: Any) -> None:
            super().__init__()
            self.loc = loc
            self.field = field
            self.value = value

    class Leave(Message):
        """The user is done with a field (Enter or Escape): focus goes back to the tree
        (``entered``: by Enter, after its text was applied; a refused campaign state keeps
        the focus, see :meth:`DetailsPane.keeps_focus`)."""

        def __init__(self, entered: bool = False) -> None:
            super().__init__()
            self.entered = entered

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "leave_field", "Leave the field", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The text each field was last filled with or committed (by field): a field is
        #: committed only when its text differs, however many ways it is left.
        self._committed: dict[int, str] = {}
        self.loc: Loc | None = None
        self._sigs: dict[str, object] = {}
        self._limits_key: object = None
        #: The group slots (heading, drop-down, list of choices) built so far, in order: a
        #: unit's groups fill the first ones, the others are hidden.
        self._slots: list[_GroupSlot] = []
        #: Rebuilds of a box ("groups", "limits") scheduled so far, by box: a rebuild that
        #: is not the latest one of its box is dropped.
        self._builds: dict[str, int] = {}
        #: Boxes whose rebuild is under way (mounting): not filled until it is done.
        self._building: set[str] = set()
        self._latest: tuple[Evaluation, Node] | None = None
        #: The groups last worked out (:meth:`_groups_of`): for the entry, in the catalog,
        #: with its groups and their options (unpriced).
        self._groups_memo: (
            tuple[Entry, CatalogIndex, tuple[int, ...], list[tuple[Group, list[_Row]]]] | None
        ) = None
        #: The session whose limits and what-if costs the pane shows (set by the editor).
        self.session: EditSession | None = None
        #: (loc, text) of campaign state typed but refused: kept in the field as typed.
        self._refused: tuple[Loc, str] | None = None
        #: Widgets updated by the last :meth:`show`, and its CPU milliseconds, the pane's own
        #: share of an edit (a benchmark reads them).
        self.updates = 0
        self.show_ms = 0.0

    def compose(self) -> ComposeResult:
        yield LiveStatic("", id="d-head")
        with Box(id="d-roster"):
            yield Label("Roster name", classes="field-label")
            yield SteadyInput(id="d-roster-name", classes="field")
            yield Box(id="d-limits")
        with Box(id="d-unit"):
            yield Label("Name", classes="field-label")
            yield NameField(id="d-name", classes="field", placeholder="(the entry's name)")
            yield LiveStatic("Count", classes="field-label", id="d-count-label")
            with Row(id="d-count-row"):
                yield SteadyButton("−", id="d-minus", classes="step")
                yield SteadyInput(id="d-count", type="integer", classes="field")
                yield SteadyButton("+", id="d-plus", classes="step")
            with Box(id="d-exp-row"):
                yield Label("Experience", classes="field-label")
                yield SteadySelect[str]([], id="d-exp", allow_blank=True, prompt="(inherited)")
            yield Label("Notes", classes="field-label")
            yield SteadyInput(id="d-notes", classes="field")
            yield Label("Campaign state", classes="field-label")
            yield StateField(
                id="d-state",
                classes="field",
                placeholder=_NO_KEYS[0],
                tooltip="What happened to it in a campaign (actions fought, wounds, ammunition "
                "spent...): the keys its game system reads; printed sheets tick them off.",
            )
            yield LiveStatic("", id="d-state-why")
            yield Box(id="d-groups")
        yield LiveStatic("", id="d-loadout")
        yield LiveStatic("", id="d-values")
        yield LiveStatic("", id="d-issues")

    @property
    def busy(self) -> bool:
        """Whether widgets are being built (mounted) for what the pane shows."""
        return bool(self._building)

    # ----------------------------------------------------------------- helpers

    def _update(self, key: str, sig: object, fn: Any) -> None:
        if self._sigs.get(key) != sig:
            self._sigs[key] = sig
            fn()
            self.updates += 1

    def _set_static(self, wid: str, renderable: RenderableType, sig: object) -> None:
        static = find(self, f"#{wid}", LiveStatic)
        self._update(wid, sig, lambda: static.set_content(renderable))

    def _set_input(self, wid: str, value: str, placeholder: str | None = None) -> None:
        field = find(self, f"#{wid}", Input)
        if placeholder is not None and field.placeholder != placeholder:
            field.placeholder = placeholder
        self._fill_input(field, wid, value)

    def _fill_input(self, field: Input, key: str, value: str) -> None:
        if field.has_focus:
            typing = field.value != self._committed.get(id(field), field.value)
            if self._sigs.get(f"{key}:loc") == self.loc:
                if typing or self._committed.get(id(field)) == value:
                    return  # what is being typed stays (it is applied when the field is left)
                # Nothing typed since the field was filled or applied, and the roster's value
                # changed under it (an undo or redo pressed in the field): the field shows
                # the roster's value, or it would show text the roster no longer has, and
                # leaving the field would not bring it back (nothing changed, to its mind).
                self._committed[id(field)] = value
                with field.prevent(Input.Changed):
                    field.value = value
                field.cursor_position = len(value)
                self.updates += 1
                return
            if typing:
                # Typed into after the tree moved on, before the pane caught up with the
                # selection now shown (a duplicate still being checked): the typing is kept,
                # never replaced, and applies to the selection shown now.
                self._sigs[f"{key}:loc"] = self.loc
                self._committed[id(field)] = value
                return
        self._sigs[f"{key}:loc"] = self.loc
        self._committed[id(field)] = value
        if field.value != value:
            with field.prevent(Input.Changed):
                field.value = value
            self.updates += 1

    def _set_select(self, select: Select[str], value: str | None) -> None:
        if not select.is_mounted:
            return  # being built: it is filled when its box is done (see _replace_limits)
        target: Any = value if value is not None else Select.NULL
        if select.value != target:
            with select.prevent(Select.Changed):
                select.value = target
            self.updates += 1

    # ----------------------------------------------------------------- showing

    def show(self, ev: Evaluation, loc: Loc) -> None:
        """Show the selection at ``loc`` as ``ev`` sees it."""
        node = node_at(ev, loc)
        if node is None:
            return
        t0 = time.process_time()
        try:
            self._show_node(ev, loc, node)
        finally:
            self.show_ms = 1000 * (time.process_time() - t0)

    def _show_node(self, ev: Evaluation, loc: Loc, node: Node) -> None:
        self.updates = 0
        self.loc = loc
        self._latest = (ev, node)
        root = node.is_root
        force = node.force is not None  # a force of a roster of several: no fields of its own
        roster_box = find(self, "#d-roster", Widget)
        unit_box = find(self, "#d-unit", Widget)
        if roster_box.display != root:
            roster_box.display = root
        if unit_box.display != (not root and not force):
            unit_box.display = not root and not force
        self._show_head(ev, node)
        if force:
            self._show_values(ev, node)
            self._show_issues(ev, loc)
            return
        if root:
            self._show_roster(ev)
        else:
            self._show_unit(ev, node)
        self._show_loadout(ev, node)
        self._show_values(ev, node)
        self._show_issues(ev, loc)

    def _show_head(self, ev: Evaluation, node: Node) -> None:
        name = ev.name(node)
        text = Text(name, "bold")
        # The cost after its cost types' names, as show and the cards say it ("Mass 2,380
        # kg"), where the pane has the room; else as the tree says it ("2,380 kg").
        price: WhereRoom | None = None
        after: Text | None = None
        if node.is_root:
            system = ev.index.system.name
            text.append(f"\n{system} · {ev.index.faction.name}", "dim")
            price = WhereRoom(
                Text(cost_text(ev, ev.totals, limits=True, named=True), "cyan"),
                Text(cost_text(ev, ev.totals, limits=True), "cyan"),
            )
        elif node.force is not None:
            from ...report import force_title

            text = Text(force_title(ev, node), "bold")
            text.append(f"\nforce · {node.force.name}", "dim")
            costs = ev.total_cost(node)
            price = WhereRoom(
                Text(cost_text(ev, costs, named=True), "cyan"), Text(cost_text(ev, costs), "cyan")
            )
            after = Text("r: rename · t: add a force · T: remove this force", "dim")
        elif node.entry is None:
            text.append(f"\n? unknown entry {node.entry_id!r}", "red")
            text.append(
                "\nIt is not in this faction's catalog. Fix it (. where a close id is known, "
                "see its issue), remove it (Delete), or fix its id in the file; it is saved "
                "back unchanged.",
                "dim",
            )
        else:
            entry = node.entry
            sub = entry.name if node.data is not None and node.data.name else ""
            text.append(f"\n{sub + ' · ' if sub else ''}{entry.type}", "dim")
            if node.count != 1:
                text.append(f" ×{node.count}", "cyan")
            cats = ", ".join(ev.index.name_of(c) for c in entry.categories)
            if cats:
                text.append(f" · {cats}", "dim")
            costs = ev.total_cost(node)
            short = costs_text(ev.index, costs)
            if short:
                wide = Text(costs_text(ev.index, costs, named=True), "cyan")
                narrow = Text(short, "cyan")
                if node.count != 1:
                    each = {k: v / node.count for k, v in costs.items()}
                    for line in (wide, narrow):
                        line.append(f" ({costs_text(ev.index, each)} each)", "dim")
                price = WhereRoom(wide, narrow)
        if price is None:
            self._set_static("d-head", text, text.plain)
            return
        sig = (text.plain, price.wide.plain, price.narrow.plain, after.plain if after else "")
        if after is None and _same_text(price.wide, price.narrow):
            # Nothing to choose at drawing (40k's "80 pts" says its cost type's name either
            # way): one text, whose lines the pane draws one by one and keeps (by what each
            # says, with its styles, and the width), so that a count +1 draws only the lines
            # that changed, and its undo none.
            whole = Text()
            whole.append_text(text)
            whole.append("\n")
            whole.append_text(price.wide)
            self._set_static("d-head", whole, sig)
            return
        parts: list[RenderableType] = [text, price, *([after] if after is not None else [])]
        self._set_static("d-head", RichGroup(*parts), sig)

    def _show_roster(self, ev: Evaluation) -> None:
        self._set_input("d-roster-name", ev.roster.name)
        cost_types = [ct for ct in ev.index.cost_types.values() if not ct.hidden]
        key = tuple(ct.id for ct in cost_types)
        box = find(self, "#d-limits", Vertical)
        if key != self._limits_key:
            self._limits_key = key
            widgets: list[Widget] = []
            for ct in cost_types:
                unit = f" ({ct.unit})" if ct.unit and not unit_is_name(ct.name, ct.unit) else ""
                widgets.append(Label(f"{ct.name} limit{unit}", classes="field-label"))
                widgets.append(
                    SteadyInput(
                        name=f"limit:{ct.id}",
                        type="number",
                        classes="field limit",
                        placeholder="no limit",
                    )
                )
            self._rebuild_limits(box, widgets, key)
            return
        if "limits" not in self._building:
            self._fill_limits(ev)

    def _fill_limits(self, ev: Evaluation) -> None:
        box = find(self, "#d-limits", Vertical)
        limits = ev.roster.header.limits
        for field in box.query(Input):
            ct_id = (field.name or "")[len("limit:") :]
            value = limits.get(ct_id)
            text = "" if value is None else (str(int(value)) if value.is_integer() else str(value))
            self._fill_input(field, f"limit:{ct_id}", text)

    def _show_unit(self, ev: Evaluation, node: Node) -> None:
        entry = node.entry
        data = node.data
        # (the name the roster shows without a name of its own: the entry's, as its modifiers
        # leave it, as the tree shows it)
        placeholder = (
            str(ev.apply_modifiers(entry, "name", entry.name, node))
            if entry is not None
            else "(name)"
        )
        find(self, "#d-name", NameField).show_name(placeholder)
        self._set_input("d-name", data.name or "" if data is not None else "")
        self._set_input("d-count", str(node.count))
        maximum = entry.max_count if entry is not None else None
        hint = f"Count (1 to {maximum})" if maximum is not None else "Count"
        label = find(self, "#d-count-label", LiveStatic)
        self._update("d-count-label", hint, lambda: label.set_content(hint))
        find(self, "#d-minus", Button).disabled = node.count <= 1
        find(self, "#d-plus", Button).disabled = maximum is not None and node.count >= maximum
        self._set_input("d-notes", (data.notes or "") if data is not None else "")
        self._show_state(ev, node)
        # experience
        exp_row = find(self, "#d-exp-row", Widget)
        levels = ev.index.experience
        wants_exp = bool(levels) and (
            (entry is not None and entry.experience) or bool(data and data.experience)
        )
        exp_row.display = wants_exp
        if wants_exp:
            select = find(self, "#d-exp", Select)
            costs = self._experience_costs(ev, node)
            options = [
                (option_label(lv.name, costs.get(lv.id, "")), lv.id) for lv in levels.values()
            ]
            options_key = tuple(options)
            if self._sigs.get("d-exp:options") != options_key:
                self._sigs["d-exp:options"] = options_key
                own_before = select.value
                with select.prevent(Select.Changed):
                    select.set_options(options)
                    if own_before is not Select.NULL and own_before in levels:
                        select.value = own_before
                self.updates += 1
            inherited = ev.experience(node.parent) if node.parent is not None else None
            prompt = f"(inherited: {inherited.name})" if inherited else "(none)"
            prompt = option_label(prompt, costs.get(None, ""))
            if select.prompt != prompt:
                select.prompt = prompt
            own = data.experience if data is not None else None
            self._set_select(select, own if own in levels else None)
        self._show_groups(ev, node)

    def _groups_of(self, ev: Evaluation, node: Node) -> list[tuple[Group, list[_Row]]]:
        """The unit's one-of groups that offer something, each with its options (name, entry
        id, the id the session prices it by); their prices are asked for where they show
        (:meth:`_fill_slots`, :meth:`_pricer`). The options are those the session offers
        there (:meth:`EditSession.options`: what the data's modifiers hide for this roster
        left out, as the catalog leaves it out: a 40k character's enhancements of the
        detachments not taken). Kept while the unit's entry and those options are the same."""
        entry = node.entry
        if entry is None:
            return []
        if self.session is not None:
            children = self.session.options(node.loc, ev)
        else:
            children = [c for c in ev.index.children(entry) if not c.entry.hidden]
        offered = tuple(map(id, children))
        last = self._groups_memo
        if last is not None and last[0] is entry and last[1] is ev.index and last[2] == offered:
            return last[3]
        # The options of each group, in the catalog's order, in one pass over the entry's
        # children (a large squad of BattleScribe data has 48 groups and 241 options).
        by_group: dict[str, list[_Row]] = {}
        recorded = ev.index.recorded_id
        for c in children:
            if c.group is not None:
                # Priced by the id that names this option (the session's figures are keyed
                # so): an entry also offered plainly is priced as the group's link says.
                row = (c.entry.name, c.entry.id, recorded(entry, c))
                by_group.setdefault(c.group.id, []).append(row)
        shown = [(g, by_group[g.id]) for g in one_of_groups(entry) if by_group.get(g.id)]
        self._groups_memo = (entry, ev.index, offered, shown)
        return shown

    def _prices(self, ev: Evaluation, node: Node, ids: set[str]) -> dict[str, str]:
        """What adding each option named in ``ids`` costs under ``node`` (the session's
        figures for ``ev``), as text, by option id."""
        if self.session is None or node.entry is None or not ids:
            return {}
        return {
            info.entry_id: costs_text(ev.index, info.costs)
            for info in self.session.option_infos(node.loc, ev, ids=ids)
        }

    def _pricer(self, ev: Evaluation, node: Node, rows: list[_Row]) -> Callable[[], list[Option]]:
        """Every option of a group priced under ``ev`` (what its drop-down shows open)."""

        def price() -> list[Option]:
            costs = self._prices(ev, node, {oid for _, _, oid in rows})
            return [(option_label(name, costs.get(oid, "")), eid) for name, eid, oid in rows]

        return price

    def _show_groups(self, ev: Evaluation, node: Node) -> None:
        """The unit's groups in the slots there are: more slots are built (mounted) only when
        this unit has more groups than any unit shown before; the rest are filled in place."""
        shown = self._with_kept(node, self._groups_of(ev, node))
        missing = len(shown) - len(self._slots)
        if missing > 0:
            new = [_GroupSlot() for _ in range(missing)]
            self._slots.extend(new)
            self._grow(find(self, "#d-groups", Vertical), [w for s in new for w in s.widgets])
            return
        if "groups" not in self._building:
            self._fill_slots(ev, node, shown)

    def _with_kept(
        self, node: Node, shown: list[tuple[Group, list[_Row]]]
    ) -> list[tuple[Group, list[_Row]]]:
        """``shown`` with the groups that offer nothing but hold a choice of the unit (a 40k
        Captain's Gladius Task Force enhancement kept after the detachment changed: the data
        hides the group), each with no options, in the catalog's order: the pane lists what
        the unit holds there, with its warning, instead of leaving it out."""
        ids = {g.id for g, _ in shown}
        if node.entry is None or all(c.group is None or c.group.id in ids for c in node.children):
            return shown
        held = {c.group.id for c in node.children if c.group is not None}
        rows = {g.id: r for g, r in shown}
        return [
            (g, rows.get(g.id, []))
            for g in one_of_groups(node.entry)
            if g.id in rows or g.id in held
        ]

    def _kept_text(self, ev: Evaluation, chosen: list[Node]) -> Text:
        """What a group that offers nothing lists: each choice kept in it, with the warning
        about it and its quick fix (``.`` applies it from the unit's details)."""
        from ...fixes import fixes_for

        text = Text()
        for n, c in enumerate(chosen):
            if n:
                text.append("\n")
            about = [i for i in ev.issues if tuple(i.path) == c.loc]
            about.sort(key=lambda i: i.code != "hidden-group-choice")
            issue = about[0] if about else None
            name = tally([(ev.name(c), c.count)])[0]
            if issue is None:
                text.append(f"{name}  (not offered for this roster)")
                continue
            mark, style = issue_mark(issue, "red")
            why = ", the data hides this group" if issue.code == "hidden-group-choice" else ""
            text.append(f"{mark} {name}: no longer offered{why}", style)
            fixes = fixes_for(ev, issue)
            if fixes:
                text.append(f"  [.] {fixes[0].label}", "bold cyan")
        return text

    def kept_locs(self) -> list[Loc]:
        """The choices the unit shown keeps in groups that offer nothing (listed by the pane
        with their fix), in the order listed."""
        if self._latest is None:
            return []
        ev, node = self._latest
        if node.is_root or node.force is not None or node.loc != self.loc:
            return []
        shown = self._with_kept(node, self._groups_of(ev, node))
        empty = {g.id for g, rows in shown if not rows}
        return [c.loc for c in node.children if c.group is not None and c.group.id in empty]

    def _grow(self, box: Vertical, widgets: list[Widget]) -> None:
        """Mount more slots once the current message is handled; the box is hidden until they
        are mounted and filled, so a half-built box never shows."""
        serial = self._builds["groups"] = self._builds.get("groups", 0) + 1
        self._building.add("groups")
        if box.display:
            box.display = False
        self.call_later(self._mount_slots, serial, box, widgets)

    async def _mount_slots(self, serial: int, box: Vertical, widgets: list[Widget]) -> None:
        if not self.is_attached:
            return
        await box.mount_all(widgets)  # always: every slot of self._slots is mounted
        if serial != self._builds.get("groups") or not self.is_attached:
            return  # more slots are on their way: the last of them fills the box
        self._building.discard("groups")
        if self._latest is not None:
            ev, node = self._latest
            if not node.is_root and node.force is None and node.loc == self.loc:
                self._fill_slots(ev, node, self._with_kept(node, self._groups_of(ev, node)))
        box.display = True

    def _fill_slots(
        self, ev: Evaluation, node: Node, shown: list[tuple[Group, list[_Row]]]
    ) -> None:
        """Fill slot n with group n of the unit (its heading, its drop-down or its list of
        choices), hide the slots left over; a widget is touched only where what it shows
        differs."""
        if len(shown) > len(self._slots):
            return  # more slots are being mounted: they are filled then
        limits = self._group_limits(ev, node) if shown else {}
        # Closed, a drop-down shows its choice: only the chosen options are priced now.
        chosen_of: dict[str, list[Node]] = {}
        for c in node.children:
            if c.group is not None:
                chosen_of.setdefault(c.group.id, []).append(c)
        picked = {
            oid
            for g, rows in shown
            if g.max == 1 and len(chosen_of.get(g.id, ())) == 1
            for _, eid, oid in rows
            if eid == chosen_of[g.id][0].entry_id
        }
        prices = self._prices(ev, node, picked)
        for n, slot in enumerate(self._slots):
            if n >= len(shown):
                self._hide_slot(slot)
                continue
            g, rows = shown[n]
            chosen = chosen_of.get(g.id, [])
            self._display(slot.label, True, f"grplabel:{g.id}")
            text = group_label(g, limits.get(g.id))
            if slot.label_text != text:
                slot.label_text = text
                slot.label.set_content(text)
                self.updates += 1
            if g.max == 1 and rows:
                self._display(slot.listing, False, None)
                self._display(slot.select, True, f"grp:{g.id}")
                value = chosen[0].entry_id if len(chosen) == 1 else None
                options = [
                    (option_label(name, prices.get(oid, "") if eid == value else ""), eid)
                    for name, eid, oid in rows
                ]
                self._fill_select(slot, options, value, self._pricer(ev, node, rows))
            else:
                self._display(slot.select, False, None)
                self._disarm(slot)
                self._display(slot.listing, True, f"grp:{g.id}")
                if not rows:  # offers nothing (hidden by the data): what is kept there
                    kept = self._kept_text(ev, chosen)
                    if slot.listing_text != kept.markup:
                        slot.listing_text = kept.markup
                        slot.listing.set_content(kept)
                        self.updates += 1
                    continue
                # (what the heading counts: the choices in its subgroups too, as BattleScribe
                # counts them; an Ork Warboss's Wargear holds its Big Choppa group's choice)
                inside = self._subgroup_ids(g)
                if inside:
                    chosen = [
                        c for c in node.children if c.group is not None and c.group.id in inside
                    ]
                listed = ", ".join(tally((ev.name(c), c.count) for c in chosen)) or "none"
                if slot.listing_text != listed:
                    slot.listing_text = listed
                    slot.listing.set_content(Text(listed + "  (add from the catalog)"))
                    self.updates += 1

    def _subgroup_ids(self, group: Group) -> frozenset[str]:
        """The ids of ``group`` and its subgroups when it has any (empty when it has none)."""
        if not group.groups:
            return frozenset()
        from ...catalog import walk_groups

        return frozenset(g.id for g in walk_groups([group]))

    def _fill_select(
        self,
        slot: _GroupSlot,
        options: list[Option],
        value: str | None,
        pricer: Callable[[], list[Option]] | None = None,
    ) -> None:
        """A group's drop-down: its options (the choice's label with what it costs, the
        others priced by ``pricer`` when the list opens) and the entry chosen."""
        select = slot.select
        if value is not None and all(value != v for _, v in options):
            value = None  # chosen but not offered (hidden): shown as no choice, never a crash
        if isinstance(select, ChoiceSelect) and select.is_mounted:
            if select.held != tuple(options):
                select.refill(options, value)
                self.updates += 1
            else:
                self._set_select(select, value)
            if pricer is not None:
                select.arm(pricer)
            return
        key = tuple(options)
        if slot.options != key:
            slot.options = key
            with select.prevent(Select.Changed):
                select.set_options(options)  # resets the value: set again below
                if value is not None:
                    select.value = value
            self.updates += 1
            return
        self._set_select(select, value)

    def _display(self, widget: Widget, shown: bool, name: str | None) -> None:
        """Show or hide a slot's widget; its name says which group it is for (``None``
        while hidden, so that nothing finds a hidden widget by a group's name)."""
        widget._name = name  # Textual gives no setter; only this pane reads these names
        if widget.display != shown:
            widget.display = shown

    def _hide_slot(self, slot: _GroupSlot) -> None:
        for widget in slot.widgets:
            self._display(widget, False, None)
        self._disarm(slot)

    def _disarm(self, slot: _GroupSlot) -> None:
        """A hidden drop-down keeps no pricer (nor the evaluation it holds); it is given one
        again when it shows."""
        if isinstance(slot.select, ChoiceSelect):
            slot.select._pricer = None

    def _rebuild_limits(self, box: Vertical, widgets: list[Widget], key: object) -> None:
        """Replace the roster's limit fields (built for ``key``) once the current message is
        handled; the box is hidden meanwhile, so the widgets of the node shown before never
        show beside this one's heading. (The group slots only grow: :meth:`_grow`.)"""
        serial = self._builds["limits"] = self._builds.get("limits", 0) + 1
        self._building.add("limits")
        if box.display:
            box.display = False
        self.call_later(self._replace_limits, serial, box, widgets, key)

    async def _replace_limits(
        self, serial: int, box: Vertical, widgets: list[Widget], key: object
    ) -> None:
        """Swap the limit fields, then fill them from the latest evaluation shown (if it is
        still of the roster)."""
        kind = "limits"
        if serial != self._builds.get(kind) or not self.is_attached:
            return  # a later rebuild replaces this one: its widgets are never mounted
        await box.remove_children()
        if serial != self._builds.get(kind) or not self.is_attached:
            return
        if widgets:
            await box.mount_all(widgets)
        if serial != self._builds.get(kind) or not self.is_attached:
            return  # superseded while mounting: the later rebuild removes these
        self._building.discard(kind)
        # The new widgets show nothing yet: forget what the old ones were last given.
        for sig in [k for k in self._sigs if k.startswith("limit:")]:
            del self._sigs[sig]
        if self._latest is not None and key == self._limits_key:
            ev, node = self._latest
            if node.is_root:
                self._fill_limits(ev)
        box.display = True

    def _experience_costs(self, ev: Evaluation, node: Node) -> dict[str | None, str]:
        """What the roster's total rises by with the unit at each experience level (``None``:
        its inherited one), as an option's price says; nothing for the level it has now."""
        if self.session is None or node.is_root:
            return {}
        found = self.session.experience_rises(node.loc, ev)
        return {level: costs_text(ev.index, costs) for level, costs in found.items()}

    def _group_limits(self, ev: Evaluation, node: Node) -> Mapping[str, Limit]:
        if self.session is None or node.entry is None:
            return {}
        return self.session.group_limits(node.loc, ev)

    def _show_loadout(self, ev: Evaluation, node: Node) -> None:
        if node.is_root:
            self._set_static("d-loadout", "", "")
            return
        # The selection's own stat lines (one copy of it), then its loadout: upgrades
        # (weapons, armour, kit), not the units and models inside. Each as the roster has
        # it: hidden profiles left out, characteristics after their modifiers.
        lines = [(t, n, chars, 1) for t, n, chars, _ in selection_stat_lines(ev, [node])]
        lines += selection_stat_lines(
            ev,
            [
                c
                for c in node.children
                if c.entry is not None and c.entry.profiles and c.entry.type == "upgrade"
            ],
        )
        sig = tuple((t, n, tuple(chars.items()), k) for t, n, chars, k in lines)
        if self._sigs.get("d-loadout") == sig:
            return  # the same loadout: its tables are not built again
        tables = profile_tables(ev.index, lines)
        self._set_static("d-loadout", Text("\n").join(tables), sig)

    def _show_values(self, ev: Evaluation, node: Node) -> None:
        values = ev.values_of(node)
        sig = tuple((v.label, v.display()) for v in values)
        if not values:
            self._set_static("d-values", "", sig)
            return
        text = Text("Computed", "bold underline")
        for label, shown in sig:
            text.append(f"\n{label}: ", "dim")
            text.append(shown)
        self._set_static("d-values", text, sig)

    def _show_issues(self, ev: Evaluation, loc: Loc) -> None:
        from ...fixes import fixes_for

        mine = [i for i in ev.issues if owner_loc(i.path) == loc]
        fixes = [fixes_for(ev, i) for i in mine]
        sig = tuple(
            (i.severity, i.message, f[0].label if f else "")
            for i, f in zip(mine, fixes, strict=True)
        )
        text = Text()
        for n, (_severity, message, fix) in enumerate(sig):
            if n:
                text.append("\n")
            i = mine[n]
            mark, style = issue_mark(i, "red")
            text.append(f"{mark} {message}", style)
            if i.source:
                text.append(f" ({i.source})", "dim")
            if fix:
                text.append(f"  [.] {fix}", "bold cyan")
        self._set_static("d-issues", text, sig)

    # ----------------------------------------------------------------- editing

    def _edit_for(self, field: Input) -> DetailsPane.Edit | None:
        """The edit a field's text asks for (``None``: nothing changed, or not readable)."""
        loc = self.loc
        if loc is None or self._committed.get(id(field)) == field.value:
            return None
        wid = field.id or field.name or ""
        value = field.value
        edit: DetailsPane.Edit | None = None
        if wid == "d-name":
            edit = self.Edit(loc, "name", value)
        elif wid == "d-notes":
            edit = self.Edit(loc, "notes", value)
        elif wid == "d-state":
            edit = self.Edit(loc, "state", value)
        elif wid == "d-count":
            try:
                edit = self.Edit(loc, "count", int(value))
            except ValueError:
                return None
        elif wid == "d-roster-name":
            edit = self.Edit((), "roster-name", value)
        elif wid.startswith("limit:"):
            text = value.strip()
            try:
                edit = self.Edit((), wid, float(text) if text else None)
            except ValueError:
                return None
        if edit is not None:
            self._committed[id(field)] = value
        return edit

    def _commit(self, field: Input) -> None:
        edit = self._edit_for(field)
        if edit is not None:
            self.post_message(edit)
            return
        shown = self._committed.get(id(field))
        if shown is not None and field.value != shown:
            # Text that is no value (a count left empty): the field shows the roster's value
            # again, not a blank the roster does not have.
            with field.prevent(Input.Changed):
                field.value = shown

    def take_pending(self) -> DetailsPane.Edit | None:
        """The edit of the focused field's text, now (a key that acts on the roster, such as
        save or undo, was pressed while it was being typed); the caller applies it."""
        focused = self.screen.focused
        if isinstance(focused, Input) and focused in self.query(Input):
            return self._edit_for(focused)
        return None

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._commit(event.input)
        self.post_message(self.Leave(entered=True))

    def action_leave_field(self) -> None:
        """Escape: put back the field's text as the roster has it, and leave the field."""
        focused = self.screen.focused
        if isinstance(focused, Input) and focused.id == "d-state" and self._refused is not None:
            self._refused = None  # the refused text goes: the roster's state shows again
            self.show_state_again()
        elif isinstance(focused, Input) and focused in self.query(Input):
            shown = self._committed.get(id(focused))
            if shown is not None and focused.value != shown:
                with focused.prevent(Input.Changed):
                    focused.value = shown
        self.post_message(self.Leave())

    @on(Input.Blurred)
    def _blurred(self, event: Input.Blurred) -> None:
        event.stop()
        self._commit(event.input)

    @on(Button.Pressed, "#d-minus")
    def _minus(self, event: Button.Pressed) -> None:
        event.stop()
        if self.loc is not None:
            self.post_message(self.Edit(self.loc, "count-step", -1))

    @on(Button.Pressed, "#d-plus")
    def _plus(self, event: Button.Pressed) -> None:
        event.stop()
        if self.loc is not None:
            self.post_message(self.Edit(self.loc, "count-step", 1))

    @on(Select.Changed)
    def _select_changed(self, event: Select.Changed) -> None:
        event.stop()
        loc = self.loc
        if loc is None or event.value != event.select.value:
            return  # the drop-down was filled for another unit since: the choice is stale
        wid = event.select.id or event.select.name or ""
        value = None if event.value is Select.NULL else str(event.value)
        if wid == "d-exp":
            self.post_message(self.Edit(loc, "experience", value))
        elif wid.startswith("grp:"):
            self.post_message(self.Edit(loc, f"choice:{wid[4:]}", value))

    def _show_state(self, ev: Evaluation, node: Node) -> None:
        """The campaign state field: this system's keys as its placeholder and tooltip; text
        that was refused stays as typed (with the reason under it) until it is changed."""
        from ...rules.state import state_help

        keys = self.session.state_keys if self.session is not None else ()
        field = find(self, "#d-state", StateField)
        if field.keys != keys:
            field.keys = keys
            field.fit()
        if keys and self._sigs.get("d-state:keys") != keys:
            self._sigs["d-state:keys"] = keys
            field.tooltip = "Campaign state, the keys of this game system:\n" + "\n".join(
                state_help(keys)
            )
        refused = self._refused
        if refused is not None and refused[0] == node.loc:
            return  # what was typed stays, with the reason shown under it
        self._refused = None
        state = node.data.state if node.data is not None else None
        self._set_why(warnings_text(state_warnings(state or None, keys)), "yellow")
        self._set_input("d-state", state_text(node.data.state) if node.data is not None else "")

    def _set_why(self, text: str, style: str = "red") -> None:
        why = find(self, "#d-state-why", LiveStatic)
        self._update("d-state-why", (text, style), lambda: why.set_content(Text(text, style)))
        if why.display != bool(text):
            why.display = bool(text)

    def state_accepted(self) -> None:
        """The text typed is being stored: the field shows the roster's state again."""
        self._refused = None

    def state_refused(self, loc: Loc, typed: str, reason: str) -> None:
        """The state typed could not be stored: keep it in the field as typed, the cursor at
        its end, and say why under it."""
        self._refused = (loc, typed)
        field = find(self, "#d-state", Input)
        if self.loc == loc:
            if field.value != typed:
                with field.prevent(Input.Changed):
                    field.value = typed
            field.cursor_position = len(field.value)
            self._set_why(f"Not saved: {reason}")

    def keeps_focus(self) -> bool:
        """Whether the field typed in keeps the focus after Enter: campaign state that was
        refused stays, as typed, to be corrected where the cursor is."""
        focused = self.screen.focused
        return (
            isinstance(focused, Input)
            and focused.id == "d-state"
            and self._refused is not None
            and self._refused[0] == self.loc
        )

    def show_state_again(self) -> None:
        """Put back the state as the roster has it (refused text dropped)."""
        if self._latest is not None:
            _, node = self._latest
            keys = self.session.state_keys if self.session is not None else ()
            state = node.data.state if node.data is not None else None
            self._set_why(warnings_text(state_warnings(state or None, keys)), "yellow")
            field = find(self, "#d-state", Input)
            text = state_text(node.data.state) if node.data is not None else ""
            self._committed[id(field)] = text
            with field.prevent(Input.Changed):
                field.value = text

    def focus_name(self) -> None:
        target = "#d-roster-name" if self.loc == () else "#d-name"
        self.query_one(target, Input).focus()
