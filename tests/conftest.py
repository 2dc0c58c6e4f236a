"""Shared fixtures: an isolated user folder, the bundled library, helpers to evaluate rosters."""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from armybuilder.catalog import Library, default_roots
from armybuilder.rosters import Roster
from armybuilder.rules import Evaluation, evaluate

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
SEEDS = REPO.parent / "shared" / "seeds"

# Hypothesis's default deadline (200 ms an example) fails a correct test when the CI machine is
# busy; the tests that guard against hangs set a deadline of their own (30-60 s).
settings.register_profile("armybuilder", deadline=None)
settings.load_profile("armybuilder")

# The collector's passes, tuned for a test process rather than a player's: a CI worker holds
# every library its tests loaded (1.6 million objects frozen by the BattleScribe reader, a few
# hundred thousand more), and with Python's thresholds (700, 10, 10) two 40k builder files
# spent 19 s of 138 in the collector, 13 s of it in 73 full passes; with these, 9 s
# (benchmarks/README.md, "CI time (2026-11-28, second session)"). Garbage is still
# collected (the peak memory of that run: 421 MB, against 406).
gc.set_threshold(10_000, 10, 5)


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """How many workers ``-n auto`` (the README's test command) starts: half as many again as
    the CPUs (3 on 2). A builder test spends about a quarter of its time waiting on the event
    loop (benchmarks/README.md, "CI time (2026-11-28)"), time a worker more fills; as many
    workers as CPUs left it idle. ``PYTEST_XDIST_AUTO_NUM_WORKERS`` still says otherwise."""
    import os

    given = os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS")
    if given and given.isdigit() and int(given) > 0:
        return int(given)
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(1, (cpus or 1) * 3 // 2)


#: The files that take longest (CPU seconds of one worker, 2026-11-28: the raster tests about
#: 100, the screen model about 50-110, ...), handed to the workers first: a worker that took
#: one of them last kept the others idle at the end of the run (the last tenth of the tests
#: took half of a 20-minute CI). The rest keep their order.
HEAVY_FIRST = (
    "render/test_raster.py",
    "tui/test_screen_model.py",
    "tui/test_repaint_40k.py",
    "tui/test_catalog_search.py",
    "tui/test_panes_say.py",
    "render/test_printed_odd_rosters.py",
    "tui/test_catalog_units.py",
    "tui/test_save_worker.py",
    "tui/test_flows.py",
    "render/test_pdf.py",
    "tui/test_layout.py",
    "tui/test_focus.py",
    "tui/test_details_reuse.py",
    "unit/test_files_ownform.py",
    "unit/test_files_fuzz_session.py",
    "render/test_systems.py",
    "unit/test_recover5_journal_base.py",
    "tui/test_recover6_reopen.py",
    "tui/test_roster_tree_fit.py",
    "tui/test_first_frame.py",
    "tui/test_unit_form.py",
    "tui/test_catalog_add_required.py",
    "render/test_sheets_odds.py",
    "unit/test_round_trip_fast.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run :data:`HEAVY_FIRST` first, in that order (``--dist loadfile`` hands files to the
    workers in the order collected); every other test keeps its place among the rest."""
    here = Path(__file__).resolve().parent
    rank = {here / name: i for i, name in enumerate(HEAVY_FIRST)}
    last = len(rank)
    items.sort(key=lambda item: rank.get(item.path, last))


@pytest.fixture(autouse=True, scope="session")
def _isolated_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Keep the user's real catalog folder and cache out of the tests."""
    mp = pytest.MonkeyPatch()
    home = tmp_path_factory.mktemp("armybuilder-home")
    mp.setenv("ARMYBUILDER_HOME", str(home))
    mp.delenv("ARMYBUILDER_CATALOGS", raising=False)
    mp.delenv("ARMYBUILDER_CACHE_DIR", raising=False)
    yield
    mp.undo()


@pytest.fixture(autouse=True)
def _isolated_state(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Recovery journals and recent files of each test in a folder of its own, never the
    user's: a test that edits a roster and ends without saving leaves nothing in a player's
    "Unsaved work to recover" (docs/tui.md, "Recovery")."""
    monkeypatch.setenv("ARMYBUILDER_STATE_DIR", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(scope="session")
def library(_isolated_home: None) -> Library:
    """The bundled catalogs, loaded once, as pydantic models (not from the library snapshot,
    whose plain objects the rules modules' own catalog checks, called directly by tests, do
    not read: see armybuilder/model/plain.py)."""
    lib = Library(default_roots(), use_cache=False).scan()
    assert not lib.problems, "\n".join(str(p) for p in lib.problems)
    return lib


@pytest.fixture
def evaluate_roster(library: Library) -> Callable[[Roster], Evaluation]:
    """Evaluate a roster against the bundled catalog of its system and faction."""

    def run(roster: Roster) -> Evaluation:
        gs = library.system(roster.system)
        return evaluate(roster, gs.index(roster.faction), gs.rules)

    return run


@pytest.fixture
def evaluate_text(evaluate_roster: Callable[[Roster], Evaluation]) -> Callable[[str], Evaluation]:
    """Evaluate roster YAML text."""

    def run(text: str) -> Evaluation:
        return evaluate_roster(Roster.from_text(text, "<test>"))

    return run
