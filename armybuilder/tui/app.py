"""The armybuilder TUI application.

``armybuilder`` (no arguments) opens the home screen; ``armybuilder FILE`` opens that roster.
Both call :func:`run`. The catalogs are read in a worker thread right after the first screen
is shown, so starting is quick and the first "new roster" finds them ready.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import work
from textual.app import App, ScreenStackError, SystemCommand
from textual.binding import BindingType
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen

from ..words import plural
from . import safe_output
from .bindings import APP_ACTIONS, EDITOR_ACTIONS, HOME_ACTIONS, bindings
from .keys import InOrderKeysApp
from .screens.base import Dialog
from .settings import Settings, load_settings

if TYPE_CHECKING:
    from ..catalog import Library
    from ..catalog.watch import Reloaded, Stamp
    from ..session import EditSession, RecoveryInfo
    from .screens.dialogs import NewRoster
    from .screens.editor import EditorScreen

#: Seconds between two looks at the user's catalog files (a reload follows a change).
CATALOG_POLL_SECONDS = 2.0

#: Validate on the event loop when the last validation took at most this long (ms of CPU
#: time in its thread, :attr:`EditSession.last_eval_cpu_ms`: a validation run in a worker
#: takes about twice its CPU time on the clock, as the event loop paints meanwhile, and so
#: would never come back to the event loop by the clock).
SYNC_BUDGET_MS = 12.0


class ArmyBuilderApp(InOrderKeysApp[int]):
    """Build, edit and validate rosters. Keys typed ahead go, in order, to where the focus
    is once the keys before them are handled (:mod:`armybuilder.tui.keys`)."""

    CSS_PATH = Path(__file__).resolve().parent / "app.tcss"
    TITLE = "armybuilder"
    BINDINGS: ClassVar[list[BindingType]] = bindings(APP_ACTIONS)
    #: Classes each screen takes by the terminal's size (the style sheet reads them): a
    #: narrow or short terminal (80x24) gets narrower side panes and shorter dialogs.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012 (as App types it)
    VERTICAL_BREAKPOINTS = [(0, "-short"), (32, "-tall")]  # noqa: RUF012

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        library: Library | Callable[[], Library] | None = None,
        cwd: Path | None = None,
        settings: Settings | None = None,
        sync_budget_ms: float = SYNC_BUDGET_MS,
        catalog_poll_seconds: float | None = CATALOG_POLL_SECONDS,
    ) -> None:
        super().__init__()
        # A control character in a roster's or a catalog's text is never sent to the
        # terminal as such (it could retitle or clear it): see safe_output.
        safe_output.install()
        self.start_path = Path(path) if path is not None else None
        self._library: Library | None = None
        self._library_factory: Callable[[], Library] | None = None
        if callable(library):
            self._library_factory = library
        elif library is not None:
            self._library = library
        self._library_lock = threading.Lock()
        self.cwd = cwd or Path.cwd()
        self.settings = settings if settings is not None else load_settings()
        self.sync_budget_ms = sync_budget_ms
        #: How often the user's catalog folders are checked for changed files (None: never).
        self.catalog_poll_seconds = catalog_poll_seconds
        self._catalog_stamp: Stamp | None = None
        self._catalog_checking = False
        #: The group of each notification posted and not yet shown, and of each shown one.
        self._notice_groups: dict[str, str] = {}
        #: The last notice of each group: its text, how many times in a row, when.
        self._notice_last: dict[str, tuple[str, int, float]] = {}

    # ----------------------------------------------------------------- notices

    def _check_resize(self) -> None:
        # The screens take the size classes of the new size before they are laid out for it
        # (Textual sets them after that layout, which is painted: a frame of narrow panes at
        # 160 columns, or wide ones at 80, and until the next key on a busy machine).
        if getattr(self, "_resize_event", None) is not None:
            for screen in self.screen_stack:
                fit_breakpoints(self, screen)
        super()._check_resize()

    def push_screen(self, screen: Any, *args: Any, **kwargs: Any) -> Any:
        """Push a screen (as Textual does) that has its size classes from its first frame."""
        if isinstance(screen, Screen):
            fit_breakpoints(self, screen)
        return super().push_screen(screen, *args, **kwargs)

    def click_refused(self) -> None:
        """A click while a large roster is written (:meth:`hold_input`): say why nothing
        happened."""
        self.notify("Saving the roster: click again once it is written", timeout=3)

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
        group: str | None = None,
    ) -> None:
        """Show a notice. One that repeats a notice still shown (the same text, or the same
        ``group``: "undo") replaces it, counted: twenty undos leave one notice, not twenty.
        Thread-safe, as Textual's."""
        if timeout is None:
            timeout = self.NOTIFICATION_TIMEOUT
        notification = Notification(message, title, severity, timeout, markup=markup)
        self._notice_groups[notification.identity] = group or f"{severity}|{title}|{message}"
        if threading.get_ident() == self._thread_id:
            # (on the app's own thread, as an edit's notice: shown now, so that it reaches
            # the screen in the edit's frame, not in one of its own after it)
            self._on_notify(Notify(notification))
        else:
            self.post_message(Notify(notification))

    def _refresh_notifications(self) -> None:
        """Show the notices: in the editor's rack, in place (see
        :class:`~armybuilder.tui.widgets.notices.NoticeRack`), in the frame of what raised
        them; elsewhere as Textual's toasts."""
        try:
            screen: Screen[Any] | None = self.screen
        except ScreenStackError:  # (no screen yet: Textual's own handling)
            screen = None
        rack = getattr(screen, "notice_rack", None)
        if rack is not None and rack.is_mounted:
            rack.show(self._notifications)
            return
        if isinstance(screen, Dialog):
            screen.place_notices(list(self._notifications))
        super()._refresh_notifications()

    def _on_notify(self, event: Notify) -> None:
        event.prevent_default()  # instead of App's handler, which would add it as it came
        new = event.notification
        group = self._notice_groups.pop(new.identity, f"{new.severity}|{new.title}|{new.message}")
        for old in list(self._notifications):
            if self._notice_groups.get(old.identity) == group:
                self._unnotify(old, refresh=False)
                self._notice_groups.pop(old.identity, None)
        # The same text again soon after (the earlier one may have timed out meanwhile):
        # counted.
        text, repeats, when = self._notice_last.get(group, ("", 0, 0.0))
        repeats = repeats + 1 if text == new.message and new.raised_at - when < 10 else 1
        self._notice_last[group] = (new.message, repeats, new.raised_at)
        shown = new
        if repeats > 1:
            shown = Notification(
                f"{new.message} (×{repeats})",
                new.title,
                new.severity,
                new.timeout,
                markup=new.markup,
                identity=new.identity,
            )
        self._notice_groups[shown.identity] = group
        if len(self._notice_groups) > 256:  # forget the expired
            live = {n.identity for n in self._notifications}
            for key in [k for k in self._notice_groups if k not in live]:
                del self._notice_groups[key]
        self._notifications.add(shown)
        self._refresh_notifications()

    # ----------------------------------------------------------------- start

    def on_mount(self) -> None:
        if self.settings.keymap:
            self.set_keymap(self.settings.keymap)
        if self.settings.theme:
            try:
                self.theme = self.settings.theme
            except Exception:  # an unknown theme name: say so, keep the default
                self.settings.problems.append(f"unknown theme {self.settings.theme!r}")
        for problem in self.settings.problems:
            self.notify(problem, title="Settings", severity="warning", timeout=8)
        if self.start_path is not None:
            # Straight to the roster; the home screen comes when it is closed.
            self.open_roster(self.start_path)
        else:
            self.show_home()
        # Read the catalogs once the first screen is up, so it shows without waiting.
        self.call_after_refresh(self._warm_up)
        if self.catalog_poll_seconds:
            self.set_interval(self.catalog_poll_seconds, self.check_catalogs)

    @work(thread=True, group="warm-up")
    def _warm_up(self) -> None:
        with contextlib.suppress(Exception):  # reported when a roster needs the catalogs
            self.get_library()

    def get_library(self) -> Library:
        """The catalogs (read once; safe to call from a worker thread)."""
        with self._library_lock:
            if self._library is None:
                if self._library_factory is not None:
                    self._library = self._library_factory()
                else:
                    from ..catalog import default_library

                    self._library = default_library()
            return self._library

    # ----------------------------------------------------------------- catalog changes

    def check_catalogs(self) -> None:
        """Look (in a worker) whether a catalog file in the user's folders was added, changed
        or removed; if so, read the catalogs again and re-check every open roster."""
        if self._library is None or self._catalog_checking:
            return
        self._catalog_checking = True
        self._check_catalogs()

    def catalogs_changed(self) -> None:
        """This app wrote a catalog file: read the catalogs again now."""
        self._catalog_checking = True
        self._check_catalogs(force=True)

    @work(thread=True, group="catalog-watch")
    def _check_catalogs(self, force: bool = False) -> None:
        from ..catalog.watch import reload, stamp, watched_roots

        try:
            library = self._library
            if library is None:
                return
            now = stamp(watched_roots(library))
            before = self._catalog_stamp
            if not force and (before is None or now == before):
                self._catalog_stamp = now
                return
            if before is None:
                before = now
            self._catalog_stamp = now
            try:
                result = reload(library, before, now)
            except Exception as exc:  # a rules module failing on the new files, ...
                self.call_from_thread(
                    self.notify,
                    f"The catalogs could not be read again ({exc}); the previous ones stay in use",
                    title="Catalogs",
                    severity="error",
                    timeout=10,
                    markup=False,
                )
                return
            self.call_from_thread(self._catalogs_reloaded, result)
        finally:
            self._catalog_checking = False

    def _catalogs_reloaded(self, result: Reloaded) -> None:
        names = ", ".join(result.changed) or "a catalog file"
        if result.kept_previous:
            shown = [str(p) for p in result.problems[:3]]
            if len(result.problems) > 3:
                shown.append(f"… and {len(result.problems) - 3} more")
            self.notify(
                f"{names} changed but has problems; the previous catalogs stay in use:\n"
                + "\n".join(shown),
                title="Catalogs",
                severity="error",
                timeout=12,
                markup=False,
            )
            return
        with self._library_lock:
            self._library = result.library
        for editor in self.editors():
            editor.catalogs_reloaded(result.library)
        self.notify(
            f"Catalogs read again ({names} changed); open rosters checked against them",
            title="Catalogs",
            timeout=5,
            markup=False,
        )

    # ----------------------------------------------------------------- rosters

    def show_home(self) -> None:
        """Show the home screen (it stays under the editor)."""
        from .screens.home import HomeScreen

        if not any(isinstance(s, HomeScreen) for s in self.screen_stack):
            self.push_screen(HomeScreen(self.cwd))

    def _editor_closed(self, _: object = None) -> None:
        if self.is_running and not self._exit:
            self.show_home()

    def open_roster(self, path: Path) -> None:
        """Open a roster file in the editor (offering recovery if a journal is left)."""
        from .screens.editor import EditorScreen

        self.push_screen(EditorScreen(path=path), self._editor_closed)

    def open_session(self, session: EditSession) -> None:
        from .screens.editor import EditorScreen

        self.push_screen(EditorScreen(session=session), self._editor_closed)

    def open_file_dialog(self) -> None:
        from .screens.dialogs import PathScreen

        def chosen(path: Path | None) -> None:
            if path is not None:
                self.open_roster(path)

        self.push_screen(
            PathScreen("Open roster", "", "Open", browse=self.cwd, must_exist=True, id="open"),
            chosen,
        )

    def new_roster_dialog(self) -> None:
        from .screens.dialogs import NewRosterScreen

        try:
            library = self.get_library()
        except Exception as exc:
            self.notify(f"Cannot load the catalogs: {exc}", severity="error")
            return
        if not library.systems:
            self.notify("No game system is installed", severity="error")
            return
        self.push_screen(NewRosterScreen(library, id="new-roster-dialog"), self._create_roster)

    def _create_roster(self, answer: NewRoster | None) -> None:
        if answer is None:
            return
        from ..errors import ArmybuilderError
        from ..session import EditSession

        try:
            session = EditSession.new(
                self.get_library(), answer.system, answer.faction, answer.name, answer.limits
            )
        except ArmybuilderError as exc:
            self.notify(str(exc), severity="error")
            return
        self.open_session(session)

    def recover_untitled(self, info: RecoveryInfo) -> None:
        """Reopen a roster that was never saved, from its recovery journal."""
        from ..errors import ArmybuilderError
        from ..session import EditSession

        try:
            session = EditSession.recover(info, self.get_library())
        except (ArmybuilderError, ValueError, KeyError) as exc:
            self.notify(f"Cannot recover {info.name}: {exc}", severity="error")
            return
        self.open_session(session)
        self.notify(f"Recovered {plural(info.edits, 'edit')}; save to keep them.")

    # ----------------------------------------------------------------- actions

    def editors(self) -> list[EditorScreen]:
        from .screens.editor import EditorScreen

        return [s for s in self.screen_stack if isinstance(s, EditorScreen)]

    async def action_quit(self) -> None:
        """Quit, asking first about unsaved changes."""
        for e in self.editors():
            if e.session is not None and not e.closed:
                # Ctrl+Q in a field: what was typed there is an unsaved change to ask about
                # (a name typed into a saved roster quit without a word, the name lost).
                e.commit_field()
        editors = [
            e for e in self.editors() if e.session is not None and e.session.dirty and not e.closed
        ]
        if not editors:
            for e in self.editors():
                if e.session is not None:
                    e.session.close()
            self.exit(0)
            return
        editor = editors[-1]
        while self.screen is not editor and len(self.screen_stack) > 1:
            self.pop_screen()
        editor.confirm_close(self.action_quit_checked)

    def action_quit_checked(self) -> None:
        self.call_later(self.action_quit)

    def action_help(self) -> None:
        from .screens.help import HelpScreen

        if self.screen.id != "help":
            self.push_screen(HelpScreen(self.settings.keymap))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The command palette: Textual's commands and every armybuilder action."""
        yield from super().get_system_commands(screen)
        from .screens.editor import EditorScreen
        from .screens.home import HomeScreen

        specs = [a for a in APP_ACTIONS if a.action != "quit"]
        if isinstance(screen, EditorScreen):
            specs += EDITOR_ACTIONS
        elif isinstance(screen, HomeScreen):
            specs += HOME_ACTIONS
        from .screens.help import display_keys

        for spec in specs:
            if not spec.palette:
                continue
            keys = display_keys(self.settings.keymap.get(spec.id, spec.keys))
            target = self if spec.id.startswith("app.") else screen
            yield SystemCommand(
                spec.label, f"{spec.help} ({keys})", partial(target.run_action, spec.action)
            )


def build_app(
    path: str | Path | None = None, catalogs: Sequence[Path] = (), **kw: Any
) -> ArmyBuilderApp:
    """The app ``armybuilder [FILE] [--catalogs DIR]...`` runs: the catalogs of the search
    path plus the folders ``catalogs``, read in a worker once the first screen is up."""
    folders = [Path(c) for c in catalogs]

    def with_folders() -> Library:
        from ..catalog import Library, default_roots

        return Library(default_roots(folders)).scan()

    return ArmyBuilderApp(path, library=with_folders if folders else None, **kw)


def run(path: str | None = None, catalogs: Sequence[Path] = ()) -> int:
    """Run the TUI (on a roster file if given), with the catalogs of the search path plus
    the folders ``catalogs`` (``--catalogs DIR``: read like the user's folder, and watched
    for changed files like it); returns the exit code."""
    app = build_app(path, catalogs)
    result = app.run()
    return int(result or app.return_code or 0)


def fit_breakpoints(app: App[Any], screen: Screen[Any]) -> None:
    """Give ``screen`` the size classes (``-narrow``, ``-short``, ...) of the terminal now.

    Textual sets them when the screen handles its first resize event, which comes after its
    first layout: a roster made with the New roster dialog at 80x24 was painted with the
    side panes of a wide terminal (and the issues cut at the pane's edge) until that event,
    and on a busy machine until the next key press. So they are set before the screen is
    shown (Textual's own handler sets the same ones again)."""
    width, height = app.size
    for dimension, own, default in (
        (width, screen.HORIZONTAL_BREAKPOINTS, app.HORIZONTAL_BREAKPOINTS),
        (height, screen.VERTICAL_BREAKPOINTS, app.VERTICAL_BREAKPOINTS),
    ):
        breakpoints = (default if own is None else own) or []
        chosen = next(
            (name for at, name in sorted(breakpoints, reverse=True) if dimension >= at), None
        )
        for _, name in breakpoints:
            screen.set_class(name == chosen, name)
