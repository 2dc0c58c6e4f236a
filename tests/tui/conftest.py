"""Fixtures for the TUI tests: an isolated user folder per test, libraries, app helpers."""

from __future__ import annotations

import asyncio
import functools
import os
import shutil
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet
from textual.pilot import Pilot

from armybuilder.catalog import Library, default_roots
from armybuilder.tui.app import ArmyBuilderApp
from armybuilder.tui.screens import editor as editor_module
from armybuilder.tui.screens.editor import EditorScreen
from armybuilder.tui.settings import Settings

FIXTURES = Path(__file__).resolve().parent / "fixtures"
DEMO_CATALOGS = FIXTURES / "catalogs"
DEMO_ROSTERS = FIXTURES / "rosters"
REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"

#: CI runs each roster of a sizes x rosters test at one size (the sizes alternated, so each
#: test still runs both sizes) and some long walks shorter; ARMYBUILDER_TUI_ALL=1 runs every
#: case (as ARMYBUILDER_SCREEN_ALL=1 walks every example in test_screen_model.py).
TUI_ALL = bool(os.environ.get("ARMYBUILDER_TUI_ALL"))
SIZES = [(80, 24), (160, 48)]


def at_sizes(*cases: Any) -> list[Any]:
    """``(case, size)`` pairs: each case at one size, the sizes taken in turn (the first case
    at 80x24); every case at both sizes with ARMYBUILDER_TUI_ALL=1."""
    if TUI_ALL:
        return [(case, size) for case in cases for size in SIZES]
    return [(case, SIZES[i % len(SIZES)]) for i, case in enumerate(cases)]


def sizes(*kept: tuple[int, int]) -> list[tuple[int, int]]:
    """The sizes a one-roster test runs at: ``kept`` in CI, both with ARMYBUILDER_TUI_ALL=1."""
    return list(SIZES) if TUI_ALL else list(kept)


#: The builder's own :func:`~armybuilder.tui.screens.editor.settle_heap`, for the test about
#: the frame it holds (``test_first_frame.py``; ``test_settle_heap.py`` runs it in a child
#: process, where this fixture does not reach).
REAL_SETTLE_HEAP = editor_module.settle_heap


@pytest.fixture(autouse=True)
def _heap_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """The builder collects and freezes the heap once a roster shows (``settle_heap``): a pass
    over what the test process holds (every library its tests loaded), 1.3 s of CPU a roster
    in a CI worker, a quarter of a 40k builder test's time. It changes when the collector
    runs, never what is shown, so the builder tests leave it out; the tests named at
    :data:`REAL_SETTLE_HEAP` run it, and the tmux tests run the builder as a player does."""
    monkeypatch.setattr(editor_module, "settle_heap", lambda: None)


#: Textual CSS parsed so far in this process, by the theme's variables and the source: an App
#: parses the CSS of every widget class it mounts (its own cache dies with it), the same text
#: for every test. The rules parsed are only read afterwards (as within one App, whose cache
#: hands the same rules to every parse of its stylesheet).
_PARSED_CSS: dict[tuple[Any, ...], list[RuleSet]] = {}
_TEXTUAL_PARSE_RULES = Stylesheet._parse_rules


def _parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    key = (
        tuple(sorted(self._variables.items())),
        css,
        read_from,
        is_default_rules,
        tie_breaker,
        scope,
    )
    rules = _PARSED_CSS.get(key)
    if rules is None:
        rules = _TEXTUAL_PARSE_RULES(self, css, read_from, is_default_rules, tie_breaker, scope)
        _PARSED_CSS[key] = rules
    return rules


@pytest.fixture(autouse=True, scope="session")
def _css_parsed_once() -> Iterator[None]:
    """Each CSS text is parsed once per test process, not once per App (Textual's
    ``css.parse.parse`` ran 1,280 times for four Apps showing a roster and the help screen,
    320 now). What an App styles with is the same rules."""
    mp = pytest.MonkeyPatch()
    mp.setattr(Stylesheet, "_parse_rules", _parse_rules_once)
    yield
    mp.undo()


@pytest.fixture(scope="session")
def _catalog_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("catalog-cache")


@pytest.fixture(autouse=True)
def user_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, _catalog_cache: Path
) -> Iterator[Path]:
    """A fresh user data folder per test (recent files, recovery journals, settings)."""
    home = tmp_path / "home"
    monkeypatch.setenv("ARMYBUILDER_HOME", str(home))
    monkeypatch.setenv("ARMYBUILDER_CACHE_DIR", str(_catalog_cache))
    yield home


@pytest.fixture(scope="session")
def demo_library(_catalog_cache: Path) -> Library:
    """Only the synthetic Demo Wars system (stable screens for snapshots)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(_catalog_cache))
    lib = Library([DEMO_CATALOGS]).scan()
    mp.undo()
    assert not lib.problems, lib.problems
    return lib


@pytest.fixture(scope="session")
def full_library(_catalog_cache: Path) -> Library:
    """The bundled systems plus Demo Wars."""
    mp = pytest.MonkeyPatch()
    mp.setenv("ARMYBUILDER_CACHE_DIR", str(_catalog_cache))
    mp.delenv("ARMYBUILDER_CATALOGS", raising=False)
    lib = Library([*default_roots(), DEMO_CATALOGS]).scan()
    mp.undo()
    return lib


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    """A folder with copies of the fixture rosters and one example roster."""
    folder = tmp_path / "work"
    folder.mkdir()
    for p in DEMO_ROSTERS.glob("*.yaml"):
        shutil.copy(p, folder / p.name)
    for p in sorted((EXAMPLES).glob("*/rifle-platoon.yaml")):
        shutil.copy(p, folder / p.name)
    return folder


@pytest.fixture
def make_app(workdir: Path, full_library: Library) -> Callable[..., ArmyBuilderApp]:
    def make(path: Path | str | None = None, **kw: Any) -> ArmyBuilderApp:
        kw.setdefault("library", full_library)
        kw.setdefault("cwd", workdir)
        kw.setdefault("settings", Settings())
        return ArmyBuilderApp(path, **kw)

    return make


def run_async(fn: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """Run an async test with asyncio (no pytest async plugin is needed)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))  # type: ignore[arg-type]

    return wrapper


async def wait_for(pilot: Pilot[Any], check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the app run until ``check()`` holds."""
    waited = 0.0
    while not check():
        if waited > timeout:
            app = pilot.app
            workers = [(w.name, w.state.name, str(w.error)) for w in app.workers]
            raise AssertionError(
                f"timed out waiting for the app: screens {app.screen_stack}, workers {workers}"
            )
        await pilot.pause(0.02)
        waited += 0.02


async def wait_screen(pilot: Pilot[Any], screen_id: str) -> None:
    """Wait until the screen with this id is on top and composed."""
    app = pilot.app

    def ready() -> bool:
        screen = app.screen
        return screen.id == screen_id and screen.is_mounted and bool(screen.children)

    await wait_for(pilot, ready)
    await pilot.pause()


async def wait_editor(pilot: Pilot[Any], timeout: float = 5.0) -> EditorScreen:
    """The editor screen once its roster is loaded."""
    app = pilot.app

    def ready() -> bool:
        s = app.screen
        return isinstance(s, EditorScreen) and s.session is not None

    await wait_for(pilot, ready, timeout)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, EditorScreen)
    return screen
