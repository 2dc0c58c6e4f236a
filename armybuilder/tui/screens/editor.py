"""The roster editor: catalog | roster tree over issues | details, totals at the bottom.

Every edit goes through the :class:`~armybuilder.session.EditSession`, then the roster is
validated again and the areas are told about the new evaluation; each area changes only what
differs. A roster whose validation takes longer than the frame budget is validated in a
worker thread instead (the bar says "validating…" meanwhile), so typing never waits for it.
"""

from __future__ import annotations

import gc
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.reactive import Reactive
from textual.widget import Widget
from textual.widgets import Input, OptionList, Select

from ...errors import (
    ArmybuilderError,
    ChangedOnDiskError,
    RosterError,
    UnknownFactionError,
    UnknownSystemError,
)
from ...fileio import atomic_write, keep_aside, same_file
from ...session import (
    EditError,
    EditSession,
    ExportUnavailableError,
    Loc,
    RecentFiles,
    RecoveryInfo,
    change_faction,
    default_export_path,
    export_pdf,
    export_text,
    filed_as,
    find_recoveries,
    is_force_loc,
    plan_faction_change,
    roster_file_suffixes,
)
from ...session.export import RosterFileExport, start_roster_file_export
from ...words import plural
from ..bindings import EDITOR_ACTIONS, bindings
from ..widgets.catalog import CatalogBrowser, entry_cost
from ..widgets.details import DetailsPane
from ..widgets.issues import IssuesPanel
from ..widgets.notices import NoticeRack
from ..widgets.roster_tree import RosterTree, node_at
from ..widgets.stable import (
    ChangedRegionsCompositor,
    LiveStatic,
    StableFooter,
    StableHeader,
    find,
)
from ..widgets.totals import TotalsBar
from .base import ArmyScreen
from .dialogs import (
    AddForceScreen,
    ConfirmScreen,
    FactionScreen,
    NewForce,
    PathScreen,
    RenameScreen,
)
from .export import ExportScreen, PdfPathScreen

if TYPE_CHECKING:
    from ...building import Place
    from ...catalog import Child, Library
    from ...model.catalog import Group
    from ...rules.engine import Evaluation
    from ...session.editor import SaveJob
    from .summary import SummaryScreen

#: Actions that need a roster loaded.
_EDIT_ACTIONS = {a.action.split("(")[0] for a in EDITOR_ACTIONS} - {"close"}
#: The actions of :data:`_EDIT_ACTIONS` a key still runs while a drop-down's list is open:
#: those that change neither the roster nor the selection (moving the focus away closes the
#: list). Any other (Insert, Delete, Ctrl+Z, F8...) would edit or move the selection behind
#: the open list, which then stays open over the next unit's drop-down.
_WHILE_LIST_OPEN = {
    "save",
    "save_as",
    "export_text",
    "export_pdf",
    "export_roster",
    "summary",
    "search",
    "focus_area",
}


class CatalogCommands(Provider):
    """Command palette: "Add <entry>" for every entry that can be added to the selection."""

    def _entries(self) -> list[tuple[str, str, str, Loc]]:
        screen = self.screen
        if not isinstance(screen, EditorScreen) or screen.session is None:
            return []
        session = screen.session
        target = screen.catalog_target()
        index = session.index
        out = []
        for child in session.options(target, session.evaluation):
            cost = entry_cost(index, child.entry)
            # Added by the id that names this option (an entry offered twice there, plainly
            # and through a group's link, is two commands, each adding what it says).
            out.append((f"Add {child.entry.name}", session.option_id(target, child), cost, target))
        return out

    async def discover(self) -> Hits:
        for title, entry_id, cost, target in self._entries():
            yield DiscoveryHit(title, self._adder(entry_id, target), help=cost or None)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for title, entry_id, cost, target in self._entries():
            score = matcher.match(title)
            if score > 0:
                yield Hit(
                    score,
                    matcher.highlight(title),
                    self._adder(entry_id, target),
                    help=cost or None,
                )

    def _adder(self, entry_id: str, target: Loc) -> Callable[[], None]:
        screen = self.screen

        def add() -> None:
            if isinstance(screen, EditorScreen):
                screen.add_entry(entry_id, target)

        return add


class EverywhereCommands(Provider):
    """Find an entry by name anywhere the roster can take it (``f``); choosing a hit adds the
    entry there. Hits come from :func:`armybuilder.building.find_everywhere`."""

    async def search(self, query: str) -> Hits:
        screen = self.screen
        if not isinstance(screen, EditorScreen) or screen.session is None:
            return
        matcher = self.matcher(query)
        from ...building import find_everywhere

        for place in find_everywhere(screen.session, query, limit=100):
            title = f"{place.name} → {place.where}"
            score = matcher.match(place.name) or 0.1
            if place.parent is None:
                yield Hit(score * 0.5, title, self._cannot(place.name, place.where), help=None)
            else:
                yield Hit(score, matcher.highlight(title), self._adder(place), help=None)

    def _adder(self, place: Place) -> Callable[[], None]:
        screen = self.screen

        def add() -> None:
            if isinstance(screen, EditorScreen) and place.parent is not None:
                screen.add_entry(place.entry_id, place.parent)

        return add

    def _cannot(self, name: str, where: str) -> Callable[[], None]:
        def say() -> None:
            self.app.notify(f"{name}: {where}", severity="warning")

        return say


def _building() -> Any:
    """:mod:`armybuilder.building`, imported when first used: it loads the catalog models,
    which the screens leave to the loading worker (the first screen paints before them)."""
    from ... import building

    return building


#: Whether a roster was settled in this process before (see :func:`settle_heap`).
_settled_before = False


def settle_heap() -> None:
    """Once a roster is loaded: collect, then exempt what is alive now (the catalogs, the
    widgets) from the garbage collector's full passes. Those passes walk every object; with the
    catalogs in memory one took 30 to 100 ms, an edit now and then that missed its frame.

    The first roster of the process collects only what is not frozen yet: the catalogs a
    BattleScribe library reads are frozen as they are read (``interop/battlescribe/library.py``,
    ``_no_gc``), and walking them again held the app for 0.4 - 0.8 s after a 40k roster's first
    frame, against about 0.12 s for the rest (benchmarks/README.md, "The heap settled after the
    first frame"). A roster opened later thaws everything first: the one shown before may be
    garbage now, and what is frozen is never collected."""
    global _settled_before
    if _settled_before:
        gc.unfreeze()
    _settled_before = True
    gc.collect()
    gc.freeze()


class EditorScreen(ArmyScreen):
    """One roster being edited."""

    #: The screen's title and subtitle (the roster's name, "*" when it has unsaved changes,
    #: its file), shown by the header, which repaints its title when they change. Textual's
    #: screen repainted itself whole at each change as well: the first edit after a save
    #: painted every pane again.
    title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)
    sub_title: Reactive[str | None] = Reactive(None, compute=False, repaint=False)

    BINDINGS: ClassVar[list[BindingType]] = bindings(EDITOR_ACTIONS)
    COMMANDS: ClassVar[set[type[Provider] | Callable[[], type[Provider]]]] = {CatalogCommands}

    def __init__(
        self,
        *,
        session: EditSession | None = None,
        path: Path | None = None,
    ) -> None:
        super().__init__()
        # A frame of a few changed rows asks only the widgets there for their lines.
        self._compositor = ChangedRegionsCompositor()
        self.session = session
        self.path = path
        self.selected: Loc = ()
        self._eval_running = False
        #: Undos (or redos) in a row since the last other edit: ("Undone" | "Redone", count).
        self._history_run: tuple[str, int] = ("", 0)
        #: A value typed in a field was just refused (or brought within bounds): its field
        #: shows what the roster holds once Enter has left it.
        self._refused = False
        #: perf_counter() when the last edit started and when its result was painted.
        self.edit_started = 0.0
        self.last_painted = 0.0
        #: Milliseconds the last update of the areas took (before Textual paints them).
        self.last_show_ms = 0.0
        #: Called with this screen after each repaint that follows an update (benchmarks).
        self.painted_hooks: list[Callable[[EditorScreen], None]] = []
        #: Generation of the evaluation shown.
        self.shown_generation = -1
        #: Where the app shows its notices on this screen, in place (none where notices are
        #: off, as in most tests: see App.run_test).
        self.notice_rack: NoticeRack | None = None
        #: The user chose to close (or quit) without saving; nothing more to ask.
        self.closed = False
        #: (file, error) of the last PDF export.
        self.last_export: tuple[Path | None, str | None] | None = None
        #: The paper size of PDF exports (A4 until the player picks another).
        self.paper = "a4"
        #: The list at a glance (g), built once and shown again with new figures.
        self._summary_screen: SummaryScreen | None = None

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        yield StableHeader()
        with Horizontal(id="editor-body"):
            yield CatalogBrowser(id="catalog")
            with Vertical(id="center"):
                with Vertical(id="roster-pane"):
                    yield LiveStatic("Roster", id="roster-title", classes="pane-title")
                    yield RosterTree(id="roster-tree")
                yield IssuesPanel(id="issues")
            yield DetailsPane(id="details")
        yield TotalsBar(id="totals")
        yield StableFooter()
        if not self.app._disable_notifications:
            self.notice_rack = NoticeRack(id="notices")
            yield self.notice_rack

    def watch_focused(self, focused: Widget | None) -> None:
        """Mark the details pane while the focus is inside it (its edge in the accent colour,
        app.tcss ``#details.-focus-in``). The class changes only when the focus enters or
        leaves the pane, and restyles the pane alone: the pane's widgets do not depend on it,
        so a Tab from field to field restyles nothing (``:focus-within`` would restyle the
        pane's every widget at each one). A field or drop-down focused under the notices has
        them move to the other side (where they stay while they show, rather than move back
        and forth as the focus moves)."""
        rack = self.notice_rack
        right = rack is not None and rack.display and not rack.has_class("-left")
        if right and rack is not None and rack.clear_of_focus():
            self.refresh(layout=True)
        try:
            pane = self.details
        except NoMatches:
            return
        inside = focused is not None and pane in focused.ancestors_with_self
        if inside != pane.has_class("-focus-in"):
            pane.set_class(inside, "-focus-in", update=False)
            self.app.stylesheet.update_nodes([pane], animate=True)

    @property
    def roster_tree(self) -> RosterTree:
        return find(self, RosterTree.__name__, RosterTree)

    @property
    def catalog(self) -> CatalogBrowser:
        return find(self, CatalogBrowser.__name__, CatalogBrowser)

    @property
    def details(self) -> DetailsPane:
        return find(self, DetailsPane.__name__, DetailsPane)

    @property
    def issues(self) -> IssuesPanel:
        return find(self, IssuesPanel.__name__, IssuesPanel)

    @property
    def totals(self) -> TotalsBar:
        return find(self, TotalsBar.__name__, TotalsBar)

    def on_mount(self) -> None:
        if self.session is not None:
            self._start(self.session)
        elif self.path is not None:
            self.title = self.path.name
            self.sub_title = "loading…"
            self.query_one("#editor-body").loading = True
            # Paint the screen first, then load (in a thread) while it shows "loading".
            self.call_after_refresh(self._load, self.path)

    # ----------------------------------------------------------------- loading

    @work(thread=True, exclusive=True, group="load")
    def _load(self, path: Path) -> None:
        app = self.army_app
        try:
            library = app.get_library()
            infos = find_recoveries(path)
        except Exception as exc:  # a broken catalog folder: say so, do not crash
            app.call_from_thread(self._failed, f"Cannot load the catalogs: {exc}", None)
            return
        try:
            session = EditSession.open(path, library)
        except RosterError as exc:
            message = "\n".join(str(p) for p in exc.problems[:5])
            app.call_from_thread(self._failed, message, infos)
            return
        except (UnknownSystemError, UnknownFactionError) as exc:
            app.call_from_thread(self._failed, str(exc), [])
            return
        session.evaluate()
        app.call_from_thread(self._loaded, session, infos)

    def _failed(self, message: str, infos: list[RecoveryInfo] | None) -> None:
        if infos:
            # The file cannot be read, but the journals hold the roster: offer them.
            self._offer_recovery(None, infos, problem=message)
            return
        self.app.notify(message, title="Cannot open the roster", severity="error", timeout=10)
        self.dismiss(None)

    def _loaded(self, session: EditSession, infos: list[RecoveryInfo]) -> None:
        if infos:
            self._offer_recovery(session, infos)
            return
        self._start(session)

    def _offer_recovery(
        self,
        session: EditSession | None,
        infos: list[RecoveryInfo],
        problem: str | None = None,
    ) -> None:
        """Offer every journal of unsaved edits this roster has (one per window that did not
        close normally): a button to recover each, or discard them (a journal whose window
        still runs is that window's and is kept), or open the file as saved."""
        several = len(infos) > 1
        first = infos[0]
        if several:
            lines = [
                f"{first.name or 'This roster'} has unsaved edits from {len(infos)} windows "
                "that did not close normally:"
            ]
        else:
            lines = []
        for n, info in enumerate(infos, 1):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(info.updated))
            if several:
                line = f"{n}. {plural(info.edits, 'edit')} from {when}"
            else:
                name = info.name or "This roster"
                line = f"{name} has {plural(info.edits, 'unsaved edit')} from {when}:"
            lines.append(line)
            if info.other_process_alive:
                lines.append(
                    f"   (process {info.pid} that wrote them still runs; the roster may be "
                    "open in another window)"
                )
        if not several:
            lines.insert(1, "armybuilder did not close normally while it was being edited.")
        changed = sorted({i.file.name for i in infos if i.file_changed and i.file is not None})
        if changed and problem is None:
            lines.append(
                f"\n{' and '.join(changed)} {'has' if len(changed) == 1 else 'have'} changed "
                "on disk since (saved by another program or window); recovering restores "
                "those edits on the roster as it was then, and saving asks before replacing "
                "a file."
            )
        if problem is not None:
            lines.append(f"\nThe file itself cannot be read:\n{problem}")
        by_button: dict[str, RecoveryInfo] = {}
        buttons: list[tuple[str, str, str]] = []
        for n, info in enumerate(infos, 1):
            bid = "recover" if n == 1 else f"recover-{n}"
            by_button[bid] = info
            buttons.append((bid, f"Recover {n}" if several else "Recover", "primary"))
        if session is None:
            buttons.append(("cancel", "Cancel", "default"))
        else:
            buttons.append(("discard", "Discard them", "error"))

        def answered(answer: str | None) -> None:
            info = by_button.get(answer or "")
            if info is not None:
                try:
                    recovered = EditSession.recover(info, self.army_app.get_library())
                except Exception as exc:
                    self.app.notify(f"Recovery failed: {exc}", severity="error")
                    if session is not None:
                        self._start(session)
                    else:
                        self.dismiss(None)
                    return
                if session is not None:
                    mine = session.roster
                    if (
                        mine.converted_from is not None
                        and mine.converted_from == recovered.roster.converted_from
                        and mine.text == info.base
                    ):
                        # The .ros converted again as it was: its lines for the issues.
                        recovered.roster.source_lines = mine.source_lines
                    session.close()
                self._start(recovered)
                self.app.notify(f"Recovered {plural(info.edits, 'edit')}; save to keep them.")
            elif answer == "discard" and session is not None:
                for other in infos:
                    if not other.other_process_alive:
                        other.discard()
                self._start(session)
            elif session is not None:
                self._start(session)
            else:
                self.dismiss(None)

        self.app.push_screen(
            ConfirmScreen(
                "Recover unsaved changes?",
                "\n".join(lines),
                buttons,
                id="recover",
                wide=several,
            ),
            answered,
        )

    def _start(self, session: EditSession) -> None:
        self.session = session
        self.details.session = session
        # The focus moves at once, not after a message (as ``focus()`` does), so that the
        # first layout with the roster has the roster tree focused: on a narrow terminal the
        # catalog kept the width it takes with the focus in its search box (focused while
        # loading) for that frame. The keys of the footer are those of a loaded roster now.
        self.set_focus(self.roster_tree, scroll_visible=False)
        self.refresh_bindings()
        self.query_one("#editor-body").loading = False
        opened = filed_as(session.roster)  # (a .ros not saved as YAML yet: the .ros)
        if opened is not None:
            RecentFiles().add(opened, session.name, session.roster.system, session.roster.faction)
        self.selected = ()
        self._update_title()
        self._show(session.evaluate())
        self.roster_tree.root.expand()
        self.roster_tree.select_loc(())
        # The heap is collected (it holds the app for a moment, seconds on a busy machine)
        # once the screen shows the roster and the footer its keys: what is on screen
        # meanwhile is the settled editor, not a frame from before the layout.
        find(self, StableFooter.__name__, StableFooter).after_keys(
            settle_heap, lambda: bool(self.roster_tree.region)
        )

    # ----------------------------------------------------------------- showing

    def _update_title(self) -> None:
        s = self.session
        if s is None:
            return
        mark = " *" if s.dirty else ""
        self.title = f"{s.name}{mark}"
        where = s.path.name if s.path is not None else "not saved yet"
        source = s.roster.converted_from
        if source is not None and s.path is not None and not s.roster.disk_digest:
            # A converted roster (BattleScribe's .ros) not saved yet: the file opened, and
            # the YAML beside it that Ctrl+S writes (never the .ros itself).
            where = f"{source.name} → saves as {s.path.name}"
        if s.saving:
            self.sub_title = f"{where} — saving…"
        else:
            self.sub_title = f"{where} — unsaved changes" if s.dirty else where

    def _show(self, ev: Evaluation, pending: bool = False, generation: int | None = None) -> None:
        """Show ``ev`` (of ``generation``, by default the session's latest) in every area."""
        t0 = time.perf_counter()
        s = self.session
        assert s is not None
        self.shown_generation = s.evaluation_generation if generation is None else generation
        tree = self.roster_tree
        tree.sync(ev)
        if node_at(ev, self.selected) is None:
            loc = self.selected
            while loc and node_at(ev, loc) is None:
                loc = loc[:-2]
            self.selected = loc
        tree.select_loc(self.selected)
        self.issues.show(ev)
        self.totals.show(ev, pending)
        self.details.show(ev, self.selected)
        self._update_catalog()
        self.last_show_ms = 1000 * (time.perf_counter() - t0)
        self.call_after_refresh(self._painted)

    def _painted(self) -> None:
        self.last_painted = time.perf_counter()
        for hook in list(self.painted_hooks):
            hook(self)

    def catalog_target(self) -> Loc:
        """Where the catalog adds: the selection, or the nearest one above that has options."""
        return self._catalog_target()[0]

    def _catalog_target(self) -> tuple[Loc, list[Child] | None]:
        """:meth:`catalog_target`, and its options as the latest evaluation shown finds them
        where they were found on the way (``None``: not looked up)."""
        s = self.session
        if s is None:
            return (), None
        loc = self.selected
        # (as the latest evaluation shown finds them: a newer one may still be running)
        ev = s.evaluation
        while loc:
            if s.exists(loc):
                options = s.options(loc, ev)
                if options:
                    return loc, options
            loc = loc[:-2]
        if s.roster.forces:  # a roster of several forces: into its first force
            return ("forces", 0), None
        return loc, None

    def _update_catalog(self) -> None:
        s = self.session
        if s is None:
            return
        target, found = self._catalog_target()
        entry = None
        if is_force_loc(target):
            name = s.force_label(target)
        elif target:
            entry = s.entry_at(target)
            name = s.node(target).get("name") or (entry.name if entry else "?")
        else:
            name = s.name
        counts: Counter[str] = Counter()
        seq = s.node(target).get("selections")
        if isinstance(seq, list):
            for item in seq:
                if isinstance(item, dict):
                    n = item.get("count", 1)
                    counts[str(item.get("entry"))] += n if isinstance(n, int) else 1
        ev = s.evaluation or s.evaluate()
        # (the options the target was found by, if of this evaluation: it was the latest)
        options = found if found is not None and ev is s.evaluation else s.options(target, ev)
        recorded = s.index.recorded_id
        self.catalog.show_options(
            s.index,
            target,
            str(name),
            options,
            dict(counts),
            # Only the rows that come into view are priced (the catalog asks for them).
            price=lambda ids: s.option_infos(target, ev, ids=ids),
            group_limits=s.group_limits(target, ev),
            slot_limits=s.category_limits(target, ev),
            # What ``s.option_id(target, c)`` names, with the target's entry found once
            # rather than once per option (a large squad of BattleScribe data has 241).
            ids=[recorded(entry, c) for c in options],
        )

    def after_edit(self) -> None:
        """Validate again and update the areas (in a worker if validation is slow)."""
        s = self.session
        if s is None:
            return
        self._update_title()
        if s.last_eval_cpu_ms <= self.army_app.sync_budget_ms:
            self._show(s.evaluate())
        else:
            ev = s.evaluation
            if ev is not None:
                self.totals.show(ev, pending=True)
            self._request_evaluation()

    def _request_evaluation(self) -> None:
        if not self._eval_running:
            self._eval_running = True
            self._evaluate_in_background()

    @work(thread=True, group="evaluate")
    def _evaluate_in_background(self) -> None:
        s = self.session
        assert s is not None
        generation, snapshot = s.snapshot()
        ev = s.evaluate_snapshot(snapshot, generation)
        s.offer(generation, ev)
        self.app.call_from_thread(self._evaluated, generation, ev)

    def _evaluated(self, generation: int, ev: Evaluation) -> None:
        """A worker's evaluation: shown only if the editor is still there and nothing newer
        has been shown meanwhile (an edit validated at once can overtake a worker's result;
        showing the older one would put the panes back in time)."""
        self._eval_running = False
        s = self.session
        if s is None or not self.is_attached or not self.is_mounted:
            return
        current = generation == s.generation
        if generation >= self.shown_generation:
            self._show(ev, pending=not current, generation=generation)
        if current:
            self._refresh_summary()
        if not current and self.shown_generation != s.generation:
            self._request_evaluation()

    def catalogs_reloaded(self, library: Library) -> None:
        """The catalogs were read again (a file changed): check the roster against them."""
        s = self.session
        if s is None:
            return
        try:
            system = library.system(s.roster.system)
            system.faction(s.roster.faction)
        except (UnknownSystemError, UnknownFactionError) as exc:
            self.app.notify(
                f"{s.name}: {exc}; it stays checked against the catalogs it was opened with",
                severity="warning",
                timeout=8,
                markup=False,
            )
            return
        s.rebind(system)
        self.after_edit()

    # ----------------------------------------------------------------- edits

    def _edit(self, fn: Callable[[EditSession], Loc | None]) -> bool:
        s = self.session
        if s is None:
            return False
        self._history_run = ("", 0)  # another edit ends a run of undos
        self._refused = False
        self.edit_started = time.perf_counter()
        try:
            loc = fn(s)
        except EditError as exc:
            self.app.notify(str(exc), severity="warning")
            # The field it was typed in shows what the roster holds again, not the refused
            # value: now if the focus has left it (Tab, a click), else once Enter has moved
            # the focus on (see _details_left).
            self._refused = True
            self.after_edit()
            return False
        if loc is not None:
            self.selected = loc
        self.after_edit()
        return True

    def add_entry(
        self,
        entry_id: str,
        target: Loc | None = None,
        standard: bool = False,
        bare: bool = False,
    ) -> None:
        """Add a catalog entry where it can go, at or above ``target`` (default: selection),
        with its default choices and what its catalog requires inside it (a squad's sergeant
        and its minimum of troopers, as BattleScribe adds it); with ``standard``, at its
        standard strength and loadout (:mod:`armybuilder.building`); with ``bare``, with
        its default choices only."""
        s = self.session
        if s is None:
            return
        target = self.catalog_target() if target is None else target
        parent = s.where_to_add(target, entry_id)
        if parent is None:
            self.app.notify(f"{s.index.name_of(entry_id)} cannot be added here", severity="warning")
            return

        def add(session: EditSession) -> None:
            if standard:
                from ...building import add_standard

                add_standard(session, parent, entry_id)
            else:
                session.add(parent, entry_id, required=not bare)

        if self._edit(add):
            self.roster_tree.expand_loc(parent)

    @on(CatalogBrowser.AddRequested)
    def _add_requested(self, event: CatalogBrowser.AddRequested) -> None:
        event.stop()
        self.add_entry(event.entry_id, event.target)

    @on(RosterTree.Chosen)
    def _chosen(self, event: RosterTree.Chosen) -> None:
        event.stop()
        if event.loc == self.selected or self.session is None:
            return
        self.selected = event.loc
        ev = self.session.evaluation
        if ev is not None:
            self.details.show(ev, event.loc)
        self._update_catalog()

    @on(IssuesPanel.JumpTo)
    def _jump(self, event: IssuesPanel.JumpTo) -> None:
        event.stop()
        self.jump_to(event.loc)
        self.roster_tree.focus()

    def jump_to(self, loc: Loc) -> None:
        """Select the unit at ``loc`` in the roster tree."""
        s = self.session
        if s is None:
            return
        while loc and not s.exists(loc):
            loc = loc[:-2]
        self.selected = loc
        self.roster_tree.select_loc(loc)
        ev = s.evaluation
        if ev is not None:
            self.details.show(ev, loc)
        self._update_catalog()

    @on(DetailsPane.Edit)
    def _details_edit(self, event: DetailsPane.Edit) -> None:
        event.stop()
        self.apply_edit(event.loc, event.field, event.value)

    @on(DetailsPane.Leave)
    def _details_left(self, event: DetailsPane.Leave) -> None:
        event.stop()
        if event.entered and self.details.keeps_focus():
            return  # refused campaign state: corrected where it was typed
        if self._refused:
            # Enter with a refused value: the focus leaves the field now, then the field is
            # filled with what the roster holds (a focused field is never overwritten).
            self._refused = False
            self.set_focus(self.roster_tree)
            self.call_after_refresh(self.after_edit)
            return
        self.roster_tree.focus()

    @on(CatalogBrowser.Leave)
    def _search_left(self, event: CatalogBrowser.Leave) -> None:
        event.stop()
        self.roster_tree.focus()

    def commit_field(self) -> None:
        """Apply the text of the field being typed in, if it changed: a key that acts on
        the roster (save, undo, close...) was pressed there, and acts on it with that text."""
        edit = self.details.take_pending()
        if edit is not None:
            self.apply_edit(edit.loc, edit.field, edit.value)

    def apply_edit(self, loc: Loc, field: str, value: Any) -> None:
        """Apply a change made in the details pane (see :class:`DetailsPane.Edit`)."""
        s = self.session
        if s is None or not s.exists(loc):
            return
        if field == "name":
            self._edit(lambda s: s.rename(loc, value))
        elif field == "notes":
            self._edit(lambda s: s.set_notes(loc, value))
        elif field == "state":
            self._set_state(loc, str(value))
        elif field == "experience":
            self._edit(lambda s: s.set_experience(loc, value))
        elif field == "count":
            self._set_count(loc, int(value))
        elif field == "count-step":
            self._set_count(loc, s.count_of(loc) + int(value))
        elif field == "roster-name":
            if not str(value).strip():
                self.app.notify("A roster needs a name", severity="warning")
                self.after_edit()
                return
            self._edit(lambda s: s.rename((), value))
        elif field.startswith("limit:"):
            cost_type = field[len("limit:") :]
            self._edit(lambda s: s.set_limit(cost_type, value))
        elif field.startswith("choice:"):
            group = field[len("choice:") :]

            def choose(s: EditSession) -> Loc:
                s.choose(loc, group, value)
                return loc

            self._edit(choose)

    def _set_state(self, loc: Loc, text: str) -> None:
        """Store typed campaign state; refused text stays in the field with the reason."""
        warnings: list[str] = []

        def store(s: EditSession) -> None:
            warnings.extend(s.set_state(loc, text))

        s = self.session
        if s is None:
            return
        try:
            # Checked first, so that a refusal keeps the text as typed (not a notice alone).
            from ...session import parse_state

            parse_state(text, s.state_keys)
        except EditError as exc:
            self.details.state_refused(loc, text, str(exc))
            self.app.notify(str(exc), title="Campaign state not saved", severity="warning")
            return
        self.details.state_accepted()
        if self._edit(store):
            for w in warnings:
                self.app.notify(w, title="Campaign state", severity="warning")

    def _set_count(self, loc: Loc, count: int) -> None:
        s = self.session
        if s is None or not loc:
            return
        from ...model.bounds import MAX_COUNT

        entry = s.entry_at(loc)
        maximum = entry.max_count if entry is not None else None
        # No more than a roster file can hold, whatever the catalog allows.
        maximum = MAX_COUNT if maximum is None else min(maximum, MAX_COUNT)
        wanted = count
        count = min(max(1, count), maximum)
        if count != wanted:
            bound = "at least 1" if wanted < 1 else f"at most {maximum:,}"
            self.app.notify(f"Count must be {bound}", severity="warning", timeout=2)
        if count == s.count_of(loc):
            self.after_edit()  # put the field back
        else:
            self._edit(lambda s: s.set_count(loc, count))
        if count != wanted:
            self._refused = True  # the field shows the count taken once Enter has left it

    # ----------------------------------------------------------------- actions

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in _EDIT_ACTIONS:
            return True
        if self.session is None:
            return False
        if action == "export_roster" and not roster_file_suffixes(self.session):
            return False  # (no other program's roster file for this game system)
        return action in _WHILE_LIST_OPEN or not self.list_open()

    def list_open(self) -> bool:
        """Whether a drop-down's list is open (it has the focus while it is): the keys go
        to the list, not to the roster behind it."""
        focused = self.focused
        return isinstance(focused, OptionList) and isinstance(focused.parent, Select)

    def action_add(self, standard: bool = False, bare: bool = False) -> None:
        entry_id = self.catalog.highlighted()
        if entry_id is None:
            section = self.catalog.highlighted_section()
            group = section[1].group if section is not None else None
            if section is not None and group is not None and group.default:
                # A group's line: add its usual choice (a pick-one group swaps to it), by the
                # id that names the group's own option (not a plain option of that entry).
                self.add_entry(self._default_id(group), self.catalog.target, bare=bare)
                return
            if section is not None:
                self.app.notify(
                    f"{section[0]} is a heading: highlight one of its entries (Down) and "
                    "press a to add it",
                    severity="warning",
                )
                return
            self.app.notify(
                "Highlight an entry in the catalog first (F4, or / to search)", severity="warning"
            )
            return
        self.add_entry(entry_id, self.catalog.target, standard=standard, bare=bare)

    def action_add_bare(self) -> None:
        """Add the highlighted entry with its default choices only, not what its catalog
        requires inside it (to build a unit up from nothing)."""
        self.action_add(bare=True)

    def _default_id(self, group: Group) -> str:
        """The id that adds ``group``'s usual choice under the catalog's target."""
        s = self.session
        target = self.catalog.target
        if s is None or not target or is_force_loc(target):
            return group.default or ""
        entry = s.entry_at(target)
        child = s.index.default_child(entry, group) if entry is not None else None
        return s.option_id(target, child) if child is not None else group.default or ""

    def action_add_standard(self) -> None:
        s = self.session
        entry_id = self.catalog.highlighted()
        if s is not None and entry_id is not None:
            option = self.catalog.option(entry_id)
            entry = option.entry if option is not None else s.index.entries.get(entry_id)
            if entry is not None and not _building().has_standard(entry):
                self.app.notify(
                    f"The catalog declares no standard make-up for {entry.name}: added with "
                    "its usual choices",
                    timeout=3,
                )
        self.action_add(standard=True)

    def action_split(self) -> None:
        loc = self.selected
        if not loc:
            self.app.notify("Select a counted unit in the roster to split it", severity="warning")
            return
        self._edit(lambda s: _building().split(s, loc))

    def action_merge(self) -> None:
        loc = self.selected
        if not loc:
            self.app.notify("Select a unit in the roster to merge it", severity="warning")
            return
        self._edit(lambda s: _building().merge(s, loc))

    def action_remove(self) -> None:
        if not self.selected:
            self.app.notify("Select a unit in the roster to remove it", severity="warning")
            return
        loc = self.selected
        if is_force_loc(loc):
            self._edit(lambda s: s.remove_force(loc))
            return
        self._edit(lambda s: s.remove(loc))

    # ----------------------------------------------------------------- forces

    def _selected_force(self) -> Loc | None:
        """The force the selection is in (``None``: the roster is one force)."""
        loc = self.selected
        while loc and not is_force_loc(loc):
            loc = loc[:-2]
        return loc or None

    def action_add_force(self) -> None:
        s = self.session
        if s is None:
            return
        entries = s.force_entries()
        if not entries:
            self.app.notify(
                f"{s.system.name} has no force entries: its rosters are one force",
                severity="warning",
            )
            return
        here = self._selected_force()
        force = s.force_at(here) if here is not None else None
        faction = force.faction if force is not None and force.faction else s.roster.faction
        factions = s.system.offered_factions(keep=faction)
        dialog = AddForceScreen(
            [(f.name, f.id) for f in entries], [(f.name, f.id) for f in factions], faction
        )

        def done(result: NewForce | None) -> None:
            if result is not None:
                self._edit(lambda s: s.add_force(result.force, result.faction, result.name))

        self.app.push_screen(dialog, done)

    def action_change_faction(self) -> None:
        """Change the faction of the force the selection is in (of the roster when it is
        one force, or when the roster's own line is selected), keeping its selections where
        they still fit: a dialog shows what becomes of them before anything changes."""
        self.commit_field()  # Ctrl+T in a field: what was typed there is applied first
        s = self.session
        if s is None:
            return
        where: Loc = self._selected_force() or ()
        force = s.force_at(where) if where else None
        current = force.faction if force is not None and force.faction else s.roster.faction
        factions = s.system.offered_factions(keep=current)
        if len(factions) < 2:
            self.app.notify(f"{s.system.name} has only one faction", severity="warning")
            return
        what = s.force_label(where) if where else "the roster"
        names = {f.id: f.name for f in factions}

        def preview(faction: str) -> str:
            try:
                return plan_faction_change(s, faction, where).summary(names.get(faction))
            except EditError as exc:
                return str(exc)

        def done(faction: str | None) -> None:
            if faction is None:
                return
            report: list[str] = []

            def change(session: EditSession) -> Loc:
                plan = change_faction(session, faction, where)
                report.append(plan.summary(names.get(faction)))
                return where

            if self._edit(change) and report:
                self.app.notify(f"{report[0]} Ctrl+Z undoes it.", timeout=8, markup=False)

        self.app.push_screen(
            FactionScreen(
                f"Change the faction of {what}",
                [(f.name, f.id) for f in factions],
                current,
                preview,
            ),
            done,
        )

    def action_remove_force(self) -> None:
        here = self._selected_force()
        if here is None:
            self.app.notify("Select a force (or a unit in it) to remove it", severity="warning")
            return
        self._edit(lambda s: s.remove_force(here))

    def action_duplicate(self) -> None:
        if not self.selected:
            self.app.notify("Select a unit in the roster to duplicate it", severity="warning")
            return
        loc = self.selected
        self._edit(lambda s: _building().duplicate(s, loc))

    def action_move(self, delta: int) -> None:
        if not self.selected:
            self.app.notify("Select a unit in the roster to move it", severity="warning")
            return
        loc = self.selected
        if is_force_loc(loc):
            self._edit(lambda s: s.move_force(loc, delta))
            return
        self._edit(lambda s: s.move(loc, delta))

    def action_count(self, delta: int) -> None:
        s = self.session
        if s is None:
            return
        if not self.selected:
            self.app.notify("Select a unit in the roster to change its count", severity="warning")
            return
        self._set_count(self.selected, s.count_of(self.selected) + delta)

    def action_rename(self) -> None:
        s = self.session
        loc = self.selected
        if s is not None and is_force_loc(loc):
            force = s.force_at(loc)

            def done(name: str | None) -> None:
                if name is not None:
                    self._edit(lambda s: s.rename_force(loc, name))

            self.app.push_screen(
                RenameScreen(
                    "Rename force", (force.name or "") if force else "", "(its force entry's name)"
                ),
                done,
            )
            return
        self.details.focus_name()

    def action_undo(self) -> None:
        self.commit_field()
        self._step_history(back=True)

    def action_redo(self) -> None:
        self.commit_field()
        self._step_history(back=False)

    def _step_history(self, back: bool) -> None:
        s = self.session
        if s is None:
            return
        if not (s.can_undo if back else s.can_redo):
            self.army_app.notify(
                "Nothing to undo" if back else "Nothing to redo", timeout=2, group="history"
            )
            return
        label = s.undo_label if back else s.redo_label
        kind = "Undone" if back else "Redone"
        run_kind, run = self._history_run
        self._edit(lambda s: s.undo() if back else s.redo())
        # Twenty undos leave one notice that counts them (each names a different edit, so the
        # app's coalescing of identical texts cannot count them).
        run = run + 1 if run_kind == kind else 1
        self._history_run = (kind, run)
        text = f"{kind}: {label}" if run == 1 else f"{kind} {run} edits in a row, the last: {label}"
        self.army_app.notify(text, timeout=2, group="history")

    def action_expand_all(self) -> None:
        self.roster_tree.expand_all()

    def action_collapse_all(self) -> None:
        self.roster_tree.collapse_all()
        if len(self.selected) > 2:
            self.jump_to(self.selected[:2])
        else:
            self.roster_tree.select_loc(self.selected)

    def action_sort(self, by: str) -> None:
        s = self.session
        if s is None:
            return
        loc = self.selected
        # The selected unit's contents; a unit with none: it among its siblings.
        parent = loc if (not loc or s.children_locs(loc)) else loc[:-2]
        how = "the catalog's order" if by == "catalog" else "name"

        def sort(session: EditSession) -> Loc:
            if not _building().sort(session, parent, by):
                raise EditError(f"Already in {how}")
            return parent

        self._edit(sort)

    def action_summary(self) -> None:
        from ...overview import overview
        from .summary import SummaryScreen

        s = self.session
        if s is None:
            return
        self.commit_field()
        ev = s.evaluation
        view = overview(s, ev) if ev is not None and s.evaluation_is_current else None
        if view is None and s.last_eval_cpu_ms <= self.army_app.sync_budget_ms:
            view = overview(s, s.evaluate())  # fast enough to wait for
        screen = self._summary_screen
        if screen is None:
            screen = self._summary_screen = SummaryScreen(s.name, view)
            # Installed, so that closing it keeps it for the next time.
            self.app.install_screen(screen, f"summary-{id(self)}")
        else:
            screen.show(s.name, view)
        self.app.push_screen(screen)
        if view is None:  # "working" until the worker's evaluation of this state comes in
            self._request_evaluation()

    def _refresh_summary(self) -> None:
        """The summary on screen, waiting ("working"): give it the figures of the current
        evaluation once there is one."""
        from ...overview import overview

        s, screen = self.session, self._summary_screen
        if s is None or screen is None or screen.view is not None:
            return
        ev = s.evaluation
        if screen.is_attached and ev is not None and s.evaluation_is_current:
            screen.show(s.name, overview(s, ev))

    def action_find_everywhere(self) -> None:
        from textual.command import CommandPalette

        if self.session is None:
            return
        self.commit_field()
        self.app.push_screen(
            CommandPalette(
                providers=[EverywhereCommands],
                placeholder="Find an entry anywhere in the roster (Esc clears, again closes)…",
                id="find-everywhere",
            )
        )

    def action_search(self) -> None:
        self.catalog.search.focus()

    def action_define_unit(self) -> None:
        """Open the form that writes a unit into the roster's ``custom:`` list."""
        s = self.session
        if s is None:
            return
        from .unitform import UnitFormScreen

        def done(draft: Any) -> None:
            if draft is None:
                return
            from ...unitdef import add

            if draft.target is not None:
                self._write_unit_to_file(draft, draft.target)
                return
            added: list[str] = []
            if self._edit(lambda session: added.append(add(session, draft))):
                self.app.notify(
                    f"{draft.name.strip()} is in the catalog now ({added[0]}); Ctrl+Z undoes it",
                    timeout=4,
                )

        self.app.push_screen(UnitFormScreen(s), done)

    def _write_unit_to_file(self, draft: Any, path: Path) -> None:
        """The unit form's "every roster of the faction": append it to a user catalog file,
        then read the catalogs again."""
        from ...fileio import OutputError
        from ...unitdef import write_to_file

        s = self.session
        assert s is not None
        try:
            entry_id = write_to_file(s, draft, path)
        except (EditError, OutputError) as exc:
            self.app.notify(str(exc), severity="error", timeout=8, markup=False)
            return
        self.app.notify(
            f"{draft.name.strip()} ({entry_id}) is written to {path}; every "
            f"{s.roster.faction} roster has it once the catalogs are read again",
            timeout=5,
            markup=False,
        )
        self.army_app.catalogs_changed()

    def action_quick_fix(self) -> None:
        """Apply the known fix of the issue highlighted in the issues list (when it has the
        focus), else of the selected unit's first fixable issue: one undoable step."""
        issues = self.issues
        if issues.issue_list.has_focus:
            fixes = issues.fixes_at(issues.issue_list.highlighted)
        else:
            fixes = issues.fixes_about(self.selected)
            if not fixes and self.selected == self.details.loc:
                # (else of a choice the unit keeps in a group the data hides: its details
                # list it with this fix)
                for loc in self.details.kept_locs():
                    fixes = issues.fixes_about(loc)
                    if fixes:
                        break
        if not fixes:
            self.app.notify("No quick fix for this issue", severity="warning", timeout=3)
            return
        fix = fixes[0]
        if self._edit(fix.apply):
            self.app.notify(f"{fix.label} (Ctrl+Z undoes it)", timeout=3)

    def action_next_issue(self, delta: int) -> None:
        loc = self.issues.step(delta)
        if loc is None:
            self.app.notify("No errors or warnings", timeout=2)
            return
        self.jump_to(loc)

    def action_focus_area(self, area: str) -> None:
        if area == "details":
            details = self.details
            fields = [
                w
                for w in details.query(Input)
                if w.focusable and all(a.display for a in w.ancestors_with_self if a is not details)
            ]
            if fields:
                fields[0].focus()
                details.scroll_to_widget(fields[0], animate=False)
            return
        self.query_one(f"#{area}").focus()

    @property
    def focus_chain(self) -> list[Widget]:
        """Tab's order: the panes and the fields, not the catalog's search box (``/`` goes
        there), so that Tab never lands in a field where typed keys become text unasked."""
        chain = super().focus_chain
        search = self.catalog.search
        if search.has_focus:
            return chain
        return [w for w in chain if w is not search]

    # ----------------------------------------------------------------- saving

    def action_save(self) -> None:
        self.save()

    def save(self, then: Callable[[], None] | None = None) -> None:
        """Save (asking for a file name if the roster has none), then call ``then``."""
        s = self.session
        if s is None:
            return
        self.commit_field()
        if s.is_new:
            self.save_as(then)
            return
        self._save_to(None, then)

    def action_save_as(self) -> None:
        self.save_as()

    def save_as(self, then: Callable[[], None] | None = None) -> None:
        s = self.session
        if s is None:
            return
        self.commit_field()
        default = default_export_path(s, ".yaml", self.army_app.cwd)

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            if path.suffix.lower() in roster_file_suffixes(s):
                # Another program's roster file (BattleScribe's .ros): written as the export
                # writes it; the roster itself stays armybuilder's YAML (it says so).
                self._export_roster_to(path)
                return
            if path.suffix not in {".yaml", ".yml"}:
                path = path.with_name(path.name + ".yaml")
            same = s.path is not None and path.resolve() == s.path.resolve()
            if path.exists() and not same:
                self._ask_replace(path, then)
                return
            self._save_to(path, then)

        self.app.push_screen(
            PathScreen("Save roster as", str(default), "Save", id="save-as"), chosen
        )

    def _ask_replace(self, path: Path, then: Callable[[], None] | None) -> None:
        """Save as over another file that exists: only once the user says so."""
        self._confirm_replace(
            path,
            "which later saves leave alone",
            lambda: self._save_to(path, then, overwrite=True, keep=True),
        )

    def _confirm_replace(self, path: Path, kept: str, replace: Callable[[], object]) -> None:
        """Ask before a file that exists is replaced (Cancel focused); ``replace`` runs once
        the user says so, and keeps the old file aside (``kept`` says how it is left)."""

        def confirmed(answer: str | None) -> None:
            if answer == "overwrite":
                replace()

        self.app.push_screen(
            ConfirmScreen(
                "Replace the file?",
                f"{path} already exists. Replace it? (The old file is kept as "
                f"{path.name}.replaced-<date>-<time> beside it, {kept}.)",
                [("overwrite", "Replace", "error"), ("cancel", "Cancel", "default")],
                id="confirm-overwrite",
                focus="cancel",
            ),
            confirmed,
        )

    #: A roster whose file is at least this long (characters) is written in a worker thread,
    #: the screen painting meanwhile (ruamel writes about 150 KB a second here: a 75-platoon
    #: regiment of 150 KB takes about a second); a smaller one (every bundled example: under
    #: 10 KB, 2-55 ms) is written at once, as before.
    BACKGROUND_SAVE_CHARS: ClassVar[int] = 16_384

    def _save_to(
        self,
        path: Path | None,
        then: Callable[[], None] | None,
        overwrite: bool = False,
        keep: bool = False,
    ) -> None:
        """Save to ``path`` (the roster's own file if ``None``). ``keep``: the file replaced is
        not a version of this roster (another roster, another window's save), so it is kept
        aside under a name of its own (see :func:`keep_aside`), not only as the ``.bak`` the
        next save overwrites.

        A large roster is written in a worker thread (:attr:`BACKGROUND_SAVE_CHARS`): the
        screen keeps painting, its title says "saving…", the keys typed meanwhile wait and
        go on, in order, once the file is written (clicks are refused), and ``then`` runs
        only after the save succeeded."""
        s = self.session
        if s is None:
            return
        if s.saving:
            self.app.notify("The roster is being saved already", timeout=3)
            return
        kept: Path | None = None
        try:
            target = path if path is not None else s.path
            if keep and target is not None and target.is_file():
                kept = keep_aside(target)
            job = s.start_save(path, overwrite=overwrite)
        except (OSError, EditError) as exc:
            self._save_failed(exc, path, then, kept)
            return
        if len(s.roster.text or "") < self.BACKGROUND_SAVE_CHARS:
            job.run()
            self._save_done(job, path, then, kept)
            return
        self.army_app.hold_input()
        self._update_title()
        self._save_in_thread(job, path, then, kept)

    @work(thread=True, group="save")
    def _save_in_thread(
        self, job: SaveJob, path: Path | None, then: Callable[[], None] | None, kept: Path | None
    ) -> None:
        job.run()  # (keeps what it met for _save_done)
        self.app.call_from_thread(self._save_done, job, path, then, kept, True)

    def _save_done(
        self,
        job: SaveJob,
        path: Path | None,
        then: Callable[[], None] | None,
        kept: Path | None,
        held: bool = False,
    ) -> None:
        """The file is written (or not): the session takes it, keys go on, ``then`` runs."""
        s = self.session
        assert s is not None
        try:
            saved = s.end_save(job)
        except (ChangedOnDiskError, OSError, EditError) as exc:
            if held:
                self.army_app.release_input()
            self._update_title()
            self._save_failed(exc, path, then, kept)
            return
        if held:
            self.army_app.release_input()
        RecentFiles().add(saved, s.name, s.roster.system, s.roster.faction)
        self._update_title()
        if kept is not None:
            self.app.notify(f"Saved {saved}; the file it replaced is kept as {kept}", timeout=10)
        else:
            self.app.notify(f"Saved {saved}", timeout=3)
        if then is not None:
            then()

    def _save_failed(
        self,
        exc: Exception,
        path: Path | None,
        then: Callable[[], None] | None,
        kept: Path | None,
    ) -> None:
        s = self.session
        assert s is not None
        if isinstance(exc, ChangedOnDiskError):
            own = s.path
            if s.roster.converted_from is not None and not s.roster.disk_digest:
                # Converted from another format and never saved: whatever file is there (the
                # name proposed beside the original, by Save or Save as) is not this
                # roster's, so "reload" it would drop this roster: ask to replace it instead.
                self._ask_replace(exc.path, then)
            elif path is not None and (own is None or not same_file(exc.path, own)):
                self._ask_replace(path, then)  # another file appeared there meanwhile
            else:
                self._ask_changed_on_disk(exc.path, path, then)
            return
        if kept is not None:
            kept.unlink(missing_ok=True)  # (nothing was replaced)
        self.app.notify(f"Could not save: {exc}", severity="error", timeout=8)

    def _ask_changed_on_disk(
        self, changed: Path, path: Path | None, then: Callable[[], None] | None
    ) -> None:
        """The file was saved by someone else since it was opened here: reload it, overwrite
        it, save this roster under another name, or cancel."""
        s = self.session
        assert s is not None

        def answered(answer: str | None) -> None:
            if answer == "overwrite":
                self._save_to(path, then, overwrite=True, keep=True)
            elif answer == "save-as":
                self.save_as(then)
            elif answer == "reload":
                self.reload()

        edits = len(s.history)
        self.app.push_screen(
            ConfirmScreen(
                "Changed on disk",
                f"{changed.name} was changed on disk (in another window or program) since "
                "it was opened here.\n"
                f"Reload: show the file as it is now; this window's {plural(edits, 'edit')} "
                f"{'is' if edits == 1 else 'are'} dropped.\nOverwrite: replace it with this "
                "window's roster (the other "
                f"version is kept as {changed.name}.replaced-<date>-<time>, which later saves "
                "leave alone).\nSave as: keep both, this roster "
                "under another name.",
                [
                    ("reload", "Reload", "warning"),
                    ("overwrite", "Overwrite", "error"),
                    ("save-as", "Save as…", "primary"),
                    ("cancel", "Cancel", "default"),
                ],
                id="changed-on-disk",
                wide=True,
                focus="cancel",  # (Reload drops this window's edits, Overwrite the others')
            ),
            answered,
        )

    def reload(self) -> None:
        """Drop this window's edits and read the roster's file again."""
        s = self.session
        if s is None or s.path is None:
            return
        try:
            fresh = EditSession.open(s.path, self.army_app.get_library())
        except Exception as exc:  # the file is broken now: say so, keep editing
            self.app.notify(f"Cannot reload {s.path}: {exc}", severity="error", timeout=8)
            return
        s.close()
        selected = self.selected
        self._start(fresh)
        if fresh.exists(selected):
            self.jump_to(selected)
        self.app.notify(f"Reloaded {fresh.path}", timeout=3)

    # ----------------------------------------------------------------- exports

    def action_export_text(self) -> None:
        s = self.session
        if s is None:
            return
        self.commit_field()

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            try:
                text = export_text(s)
                path.parent.mkdir(parents=True, exist_ok=True)
                atomic_write(path, text)
            except OSError as exc:
                self.app.notify(f"Could not write {path}: {exc}", severity="error")
                return
            self.app.copy_to_clipboard(text)
            self.app.notify(
                f"Wrote {path} and copied the text to the clipboard (where the terminal allows it)",
                title="Export text",
            )

        default = default_export_path(s, ".txt", self.army_app.cwd)
        self.app.push_screen(
            PathScreen("Export text to", str(default), "Export", id="export-text"), chosen
        )

    def action_export_pdf(self) -> None:
        s = self.session
        if s is None:
            return
        self.commit_field()

        default = default_export_path(s, ".pdf", self.army_app.cwd)
        dialog = PdfPathScreen(str(default), self.paper, id="export-pdf")

        def chosen(path: Path | None) -> None:
            if path is None:
                return
            self.paper = dialog.paper
            screen = ExportScreen(path)
            self.app.push_screen(screen)
            self._render_pdf(path, screen, dialog.paper)

        self.app.push_screen(dialog, chosen)

    @work(thread=True, exclusive=True, group="export")
    def _render_pdf(self, out: Path, screen: ExportScreen, paper: str | None = None) -> None:
        s = self.session
        assert s is not None
        app = self.app

        def progress(fraction: float) -> None:
            app.call_from_thread(screen.set_progress, fraction)

        try:
            path = export_pdf(s, out, progress, paper)
        except ExportUnavailableError as exc:
            app.call_from_thread(self._export_done, screen, None, str(exc))
            return
        except Exception as exc:  # the renderer's errors: report them, keep editing
            app.call_from_thread(self._export_done, screen, None, f"PDF export failed: {exc}")
            return
        app.call_from_thread(self._export_done, screen, path, None)

    def _export_done(self, screen: ExportScreen, path: Path | None, error: str | None) -> None:
        screen.finish()
        self.last_export = (path, error)
        if error is not None:
            self.app.notify(error, title="Export PDF", severity="error", timeout=8)
        else:
            self.app.notify(f"PDF written to {path}", title="Export PDF")

    def action_export_roster(self) -> None:
        s = self.session
        if s is None:
            return
        self.commit_field()
        suffixes = roster_file_suffixes(s)
        if not suffixes:
            self.app.notify(
                f"No other program's roster file is known for {s.system.name}",
                title="Export roster file",
                severity="warning",
            )
            return
        default = default_export_path(s, suffixes[0], self.army_app.cwd)
        self.app.push_screen(
            PathScreen(
                f"Export roster file ({' or '.join(suffixes)}) to",
                str(default),
                "Export",
                id="export-roster",
            ),
            self._export_roster_to,
        )

    def _export_roster_to(self, path: Path | None) -> None:
        """Write the roster as it is now as another program's roster file at ``path``; a
        file there (the .ros the roster came from, say) is replaced only once the player
        says so, and kept aside under a name of its own."""
        s = self.session
        if path is None or s is None:
            return
        try:
            job = start_roster_file_export(s, path)
        except (ArmybuilderError, OSError) as exc:
            self.app.notify(str(exc), title="Export roster file", severity="error", timeout=8)
            return
        library = self.army_app.get_library()
        if not path.exists():
            self._write_roster_file(job, library)
            return
        self._confirm_replace(
            path,
            "which later exports leave alone",
            lambda: self._write_roster_file(job, library, keep=True),
        )

    @work(thread=True, exclusive=True, group="export-roster")
    def _write_roster_file(self, job: RosterFileExport, library: Any, keep: bool = False) -> None:
        # (a worker: the first export of a session reads the data's own model, a second or
        # two for a large game system; what it writes is the roster as it was when asked)
        app = self.app
        try:
            if keep and job.out.exists():
                keep_aside(job.out)
            path = job.run(library)
        except Exception as exc:  # the writer's and the disk's errors: say so, keep editing
            app.call_from_thread(self._roster_file_done, job.out, str(exc))
            return
        app.call_from_thread(self._roster_file_done, path, None)

    def _roster_file_done(self, path: Path, error: str | None) -> None:
        self.last_export = (None if error else path, error)
        if error is not None:
            self.app.notify(error, title="Export roster file", severity="error", timeout=8)
            return
        self.app.notify(
            f"Wrote {path} (the roster itself is saved as armybuilder's YAML: Ctrl+S)",
            title="Export roster file",
        )

    # ----------------------------------------------------------------- closing

    def action_close(self) -> None:
        self.confirm_close(lambda: self.dismiss(None))

    def confirm_close(self, then: Callable[[], Any]) -> None:
        """Ask what to do with unsaved changes, then close the session and call ``then``."""
        if self.session is not None and not self.closed:
            self.commit_field()
        s = self.session
        if s is None or not s.dirty or self.closed:
            if s is not None:
                s.close()
            self.closed = True
            then()
            return

        def answered(answer: str | None) -> None:
            if answer == "save":

                def saved() -> None:
                    s.close()
                    self.closed = True
                    then()

                self.save(saved)
            elif answer == "discard":
                s.close()
                self.closed = True
                then()

        count = s.unsaved_edits
        since = "" if s.is_new else " since it was saved"
        edits = f" ({plural(count, 'edit')}{since})" if count else ""
        self.app.push_screen(
            ConfirmScreen(
                "Unsaved changes",
                Text.assemble(
                    (s.name, "bold"),
                    f" has unsaved changes{edits}. Save them first?",
                ).plain,
                [
                    ("save", "Save", "primary"),
                    ("discard", "Discard changes", "error"),
                    ("cancel", "Cancel", "default"),
                ],
                id="confirm-close",
            ),
            answered,
        )

    def on_unmount(self) -> None:
        summary = self._summary_screen
        if summary is not None and summary not in self.app.screen_stack:
            self.app.uninstall_screen(summary)  # (on the stack: the app is ending)
        self._summary_screen = None
        s = self.session
        if s is not None and (not s.dirty or self.closed):
            s.close()
