#!/usr/bin/env python3
"""TUI benchmark for armybuilder: start-up time and the latency of an edit.

a. **Launch to first screen**: a fresh ``python`` process runs the TUI headless; the time from
   just before the process is started until the first frame of the first screen is handed to
   the terminal (home screen without a file; the editor with a roster, and until the roster is
   shown in it).
b. **Edit latency on the largest roster**: the key press that adds a unit (``a`` with the unit
   highlighted in the catalog) to a full regiment, until the validation panel and the totals
   have been updated and the screen repainted; median and 95th percentile over many edits,
   split into the model part (the edit, validation and totals: ``EditSession``) and the UI
   part, with how many widgets were touched per edit. Each addition is undone again (untimed
   for the figure, timed separately), so the roster keeps its size.

f. **The details pane** (``--details-only`` for this part alone): on the Earther regiment and,
   where ``../shared/bsdata`` holds it, a 40k Space Marines roster (``bench_bsdata.py``'s), the
   CPU time from a key (or a change) to the last frame showing its result: the cursor to a unit
   of the same kind (the baseline) and of other option groups, count +1, a drop-down choice,
   and the quick fix of a misspelt unit; the catalog's search as you type at the top of the
   roster: each key of a unit's name, three Backspaces and the Esc that clears it.

The roster is the largest landed: the Starship Marine regiment of the examples when that
system is installed, else a 75-platoon Infantry Operations regiment generated like
``bench_validate.py``'s (``--stress`` measures that one as well).

Run from the repository root::

    python benchmarks/bench_tui.py [--edits N] [--launches N] [--stress] [--json FILE]

Only the standard library, Textual and armybuilder are used. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))
BENCHMARKS = Path(__file__).resolve().parent
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(1, str(BENCHMARKS))

FRAME_MS = 16.0
MODEL_MS = 2.0
LAUNCH_MS = 500.0
REGIMENT = REPO / "examples" / "starship-marine" / "earther-regiment.yaml"
SMALL = REPO / "examples" / "infantry-ops" / "rifle-platoon.yaml"

_ENV_OVERRIDES = ("ARMYBUILDER_CATALOGS", "ARMYBUILDER_CACHE_DIR", "ARMYBUILDER_NO_CACHE")

# --------------------------------------------------------------------------- statistics


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def p95(xs: Sequence[float]) -> float:
    """95th percentile, nearest rank."""
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[max(0, min(len(s) - 1, round(0.95 * len(s) + 0.5) - 1))]


# --------------------------------------------------------------------------- a. launch

_CHILD = r"""
import json, os, sys, time
T0 = float(os.environ["BENCH_T0"])
sys.path.insert(0, os.environ["BENCH_REPO"])
import armybuilder.launch  # what the `armybuilder` command imports before the TUI
from armybuilder.tui.app import ArmyBuilderApp
path = sys.argv[1] if len(sys.argv) > 1 else None
marks = {}

class Bench(ArmyBuilderApp):
    def on_mount(self) -> None:  # Textual calls ArmyBuilderApp.on_mount as well
        self.set_interval(0.002, self._poll)

    def _display(self, screen, renderable) -> None:
        # The first frame of the home screen or the editor handed to the terminal.
        super()._display(screen, renderable)
        if "first" not in marks and renderable is not None and screen.children \
                and type(screen).__name__ in {"HomeScreen", "EditorScreen"}:
            marks["first"] = time.time() - T0
            marks["first_cpu"] = time.process_time()

    def _poll(self) -> None:
        screen = self.screen
        kind = type(screen).__name__
        if path is None and marks.get("first", -1) > 0:
            self.exit()
        if path is not None and kind == "EditorScreen" and screen.last_painted:
            marks.setdefault("roster", time.time() - T0)
            marks.setdefault("roster_cpu", time.process_time())
            if marks.get("first", -1) > 0:
                self.exit()

Bench(path).run(headless=True, size=(120, 40))
print(json.dumps(marks))
"""


def _children_cpu() -> float:
    """CPU seconds (user + system) of the children this process has waited for."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def launch(path: Path | None, home: Path) -> dict[str, float]:
    env = {k: v for k, v in os.environ.items() if k not in _ENV_OVERRIDES}
    env.update(
        ARMYBUILDER_HOME=str(home),
        ARMYBUILDER_STATE_DIR=str(home / "state"),
        BENCH_REPO=str(REPO),
    )
    child = home / "launch_child.py"  # a file: Textual finds the app's styles from it
    if not child.exists():
        child.write_text(_CHILD, encoding="utf-8")
    args = [sys.executable, str(child)] + ([str(path)] if path else [])
    env["BENCH_T0"] = repr(time.time())
    out = subprocess.run(args, env=env, capture_output=True, text=True, check=True, cwd=home)
    marks = json.loads(out.stdout.strip().splitlines()[-1])
    return {k: 1000 * v for k, v in marks.items()}


# Issue 17: the editor opened on a roster, until the roster is shown, at most 500 ms on the idle
# machine, where `python -c pass` took 9 ms; as a ratio to the same run's `python -c pass`
# (CPU time), the target holds on a busy machine too.
TARGET_ROSTER_SHOWN_MS = 500.0
IDLE_PYTHON_MS = 9.0


def targets_line(launch: dict[str, Any]) -> str:
    r = launch["small roster"]
    cpu, bare = r["roster_shown_cpu_ms"], launch["python_pass_cpu_ms"]
    goal = TARGET_ROSTER_SHOWN_MS / IDLE_PYTHON_MS
    met = "met" if cpu / bare <= goal else "NOT met"
    return (
        f"issue 17: builder, editor with a roster to the roster shown: {cpu:.0f} ms CPU "
        f"(wall {r['roster_shown_ms']:.0f} ms), target <= {TARGET_ROSTER_SHOWN_MS:.0f} ms; "
        f"python -c pass {bare:.0f} ms CPU; ratio {cpu / bare:.1f}, target ratio {goal:.1f} "
        f"({met})"
    )


def measure_launch(runs: int, regiment: Path, scratch: Path) -> dict[str, Any]:
    home = scratch / "launch-home"
    home.mkdir()
    launch(None, home)  # fills the catalog cache and the OS file cache
    res: dict[str, Any] = {}
    cases = [("home", None), ("small roster", SMALL), ("regiment", regiment)]
    for label, path in cases:
        firsts, rosters, cpus = [], [], []
        for _ in range(runs):
            m = launch(path, home)
            firsts.append(m["first"])
            if "roster" in m:
                rosters.append(m["roster"])
                cpus.append(m["roster_cpu"])
        res[label] = {"first_screen_ms": median(firsts), "first_screen_max_ms": max(firsts)}
        if rosters:
            res[label]["roster_shown_ms"] = median(rosters)
            # CPU time of the process until then (all its threads): what holds on a busy machine
            res[label]["roster_shown_cpu_ms"] = median(cpus)
    env = {k: v for k, v in os.environ.items() if k not in _ENV_OVERRIDES}
    env["PYTHONPATH"] = str(REPO)
    imports, entry = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import armybuilder.cli"], env=env, check=True)
        imports.append(1000 * (time.perf_counter() - t0))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import armybuilder.launch"], env=env, check=True)
        entry.append(1000 * (time.perf_counter() - t0))
    bare, bare_cpu = [], []
    for _ in range(runs):
        t0 = time.perf_counter()
        c0 = _children_cpu()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        bare_cpu.append(1000 * (_children_cpu() - c0))
        bare.append(1000 * (time.perf_counter() - t0))
    res["python_pass_ms"] = median(bare)
    res["python_pass_cpu_ms"] = median(bare_cpu)
    res["cli_import_ms"] = median(imports)
    res["entry_import_ms"] = median(entry)
    return res


# --------------------------------------------------------------------------- b. edits


def send_key(app: Any, name: str, char: str | None) -> None:
    """A key as a terminal's driver hands it to the app (no Pilot in between)."""
    from textual import events

    event = events.Key(name, char)
    event.set_sender(app)
    app._driver.send_message(event)


async def loaded_editor(app: Any, pilot: Any, step: float = 0.02) -> tuple[Any, Any]:
    """The editor screen and its session, once the roster is loaded (checked every ``step``
    seconds)."""
    from armybuilder.tui.screens.editor import EditorScreen

    while not (isinstance(app.screen, EditorScreen) and app.screen.session is not None):
        await pilot.pause(step)
    editor = app.screen
    session = editor.session
    assert isinstance(editor, EditorScreen) and session is not None
    return editor, session


async def editor_for_actions(app: Any, pilot: Any) -> tuple[Any, Any, dict[str, Any]]:
    """The editor, its session and the plan of actions (:func:`_plan`), as the action
    benchmarks start: the roster shown, the tree focused, and the roster renamed (unsaved
    from then on, as while a person edits), once the app is quiet again."""
    from bench_key_frame import _quiet

    editor, session = await loaded_editor(app, pilot, 0.05)
    while editor.shown_generation != session.generation:
        await pilot.pause(0.05)
    plan = _plan(session)
    editor.roster_tree.focus()
    session.rename((), f"{session.name} (benchmark)")  # unsaved from here on
    editor.after_edit()
    await _quiet(editor)
    return editor, session, plan


def pick_target(session: Any) -> tuple[tuple[str | int, ...], str]:
    """A selection and an entry to add to it: the model it already holds most of (one more
    marine for a squad of marines), in the first such selection."""
    ev = session.evaluate()
    best: tuple[int, tuple[str | int, ...], str] | None = None
    for node in ev.nodes():
        options = {c.entry.id: c.entry for c in session.options(node.loc)}
        counts: dict[str, int] = {}
        for child in node.children:
            entry = options.get(child.entry_id or "")
            if entry is not None and entry.type == "model":
                counts[entry.id] = counts.get(entry.id, 0) + child.count
        for entry_id, n in counts.items():
            if best is None or n > best[0]:
                best = (n, node.loc, entry_id)
    if best is None:
        raise SystemExit("no selection in the roster takes another model")
    return best[1], best[2]


async def _edits(path: Path, edits: int, size: tuple[int, int]) -> dict[str, Any]:
    from textual import events

    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.settings import Settings
    from armybuilder.tui.widgets.roster_tree import node_at

    key_times: list[float] = []

    def hook(message: Any) -> None:
        if isinstance(message, events.Key) and message.key in {"a", "ctrl+z"}:
            key_times.append(time.perf_counter())

    app = ArmyBuilderApp(path, cwd=path.parent, settings=Settings())
    res: dict[str, Any] = {}
    async with app.run_test(size=size, message_hook=hook) as pilot:
        editor, session = await loaded_editor(app, pilot, 0.02)
        ev = session.evaluate()
        res["selections"] = sum(1 for _ in session.roster.walk())
        res["models"] = sum(
            n.multiplicity() for n in ev.nodes() if n.entry is not None and n.entry.type == "model"
        )
        res["issues"] = len(ev.issues)
        target, entry_id = pick_target(session)
        node = node_at(ev, target)
        res["target"] = ev.where(node) if node is not None else str(target)
        res["entry"] = session.index.name_of(entry_id)
        editor.jump_to(target)
        editor.roster_tree.focus()
        await pilot.pause(0.1)
        leaf = next(
            n for s in editor.catalog.catalog_tree.root.children for n in s.children
            if n.data == entry_id
        )  # fmt: skip
        editor.catalog.catalog_tree.move_cursor(leaf)
        await pilot.pause(0.05)
        assert editor.catalog.highlighted() == entry_id

        async def one(key: str) -> dict[str, float]:
            painted = editor.last_painted
            before_rebuilds = editor.catalog.rebuilds
            key_times.clear()
            await pilot.press(key)
            deadline = time.perf_counter() + 60
            while editor.last_painted == painted or not session.evaluation_is_current:
                if time.perf_counter() > deadline or app._exception is not None:
                    raise RuntimeError(f"the editor did not update: {app._exception!r}")
                await asyncio.sleep(0.0005)
            await pilot.pause()
            t_key = key_times[0]
            total = 1000 * (editor.last_painted - t_key)
            model = session.last_edit_ms + session.last_eval_ms
            return {
                "total": total,
                "model": model,
                "edit": session.last_edit_ms,
                "eval": session.last_eval_ms,
                "ui": total - model,
                "dispatch": 1000 * (editor.edit_started - t_key),
                "widgets": editor.last_show_ms,
                "paint": 1000 * (editor.last_painted - editor.edit_started)
                - model
                - editor.last_show_ms,
                "labels": editor.roster_tree.labels_set,
                "issues": float(editor.issues.changed),
                "totals": float(editor.totals.changed),
                "details": editor.details.updates,
                "catalog": editor.catalog.rebuilds - before_rebuilds,
            }

        # One edit that stays, so that the additions and undos below do not return to the
        # saved state: the title keeps its "*" and the recovery journal keeps going, as in a
        # working session (the first edit after a save also writes the journal's header).
        session.rename((), f"{session.name} (benchmark)")
        editor.after_edit()
        for _ in range(3):  # warm up
            await one("a")
            await one("ctrl+z")
        adds, undos = [], []
        gc.collect()
        for _ in range(edits):
            adds.append(await one("a"))
            undos.append(await one("ctrl+z"))
        # Every addition was undone: the roster is as it was after the first, untimed edit.
        assert len(session.history) == 1
    for name, rows in (("add", adds), ("undo", undos)):
        res[name] = {
            key: {"median": median([r[key] for r in rows]), "p95": p95([r[key] for r in rows])}
            for key in rows[0]
        }
    res["edits"] = edits
    res["async"] = app.sync_budget_ms < median([r["eval"] for r in adds])
    return res


def measure_edits(path: Path, edits: int, size: tuple[int, int]) -> dict[str, Any]:
    return asyncio.run(_edits(path, edits, size))


#: The builder flows timed by key count: (system, faction, entry added at standard strength).
FLOWS = (
    ("starship-marine", "earther", "earther-group"),
    ("space-hulk", "terminators", "terminator-squad"),
    ("infantry-ops", "inner-sphere", "platoon"),
)
FLOW_KEYS = 5
#: Times each key of e. is pressed (median reported; the first, with its warm-up, beside it).
REPEATS = 5


async def _flow(folder: Path, system: str, faction: str, entry_id: str) -> dict[str, Any]:
    """From an empty roster: F4, Down to the entry, ``s`` (add standard); the keys pressed,
    CPU time from the first key until the roster is shown, and whether the result is legal."""
    from armybuilder.catalog import default_library
    from armybuilder.session import EditSession
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.settings import Settings

    path = folder / f"flow-{faction}.yaml"
    EditSession.new(default_library(), system, faction, f"Flow {faction}", autosave=False).save(
        path
    )
    app = ArmyBuilderApp(path, cwd=folder, settings=Settings())
    async with app.run_test(size=(160, 48)) as pilot:
        editor, session = await loaded_editor(app, pilot, 0.02)
        await pilot.pause(0.05)
        keys: list[str] = []
        cpu0 = time.process_time()
        keys.append("f4")
        await pilot.press("f4")
        while editor.catalog.highlighted() != entry_id and len(keys) < 20:
            keys.append("down")
            await pilot.press("down")
        keys.append("s")
        await pilot.press("s")
        while editor.shown_generation != session.generation or editor._eval_running:
            await pilot.pause(0.01)
        cpu = 1000 * (time.process_time() - cpu0)
        ev = session.evaluation
        assert ev is not None
        return {
            "what": f"{session.index.name_of(entry_id)} ({faction})",
            "keys": keys,
            "cpu_ms": cpu,
            "errors": sum(1 for i in ev.issues if i.is_error),
            "warnings": sum(1 for i in ev.issues if not i.is_error),
            "selections": sum(1 for _ in session.roster.walk()),
        }


def measure_flows(folder: Path) -> list[dict[str, Any]]:
    return [asyncio.run(_flow(folder, *flow)) for flow in FLOWS]


# --------------------------------------------------------------------------- e. the builder's keys


async def _painted_after(pilot: Any, editor: Any, keys: Sequence[str]) -> float:
    """Press ``keys``; CPU milliseconds from the first key until the editor has repainted
    the result of the edit (its painted hook ran for the session's current generation)."""
    session = editor.session
    done: list[float] = []

    def hook(screen: Any) -> None:
        if screen.shown_generation == session.generation and not screen._eval_running:
            done.append(time.process_time())

    editor.painted_hooks.append(hook)
    try:
        cpu0 = time.process_time()
        await pilot.press(*keys)
        for _ in range(500):  # about 1 s: a key that changed nothing is reported, not waited on
            if done:
                return 1000 * (done[-1] - cpu0)
            await pilot.pause(0.002)
        print(f"  {' '.join(keys)}: nothing was repainted", file=sys.stderr)
        return float("nan")
    finally:
        editor.painted_hooks.remove(hook)


async def _screen_after(pilot: Any, app: Any, keys: Sequence[str], screen_id: str) -> float:
    """Press ``keys``; CPU milliseconds until the screen ``screen_id`` is up and painted."""
    cpu0 = time.process_time()
    await pilot.press(*keys)
    while app.screen.id != screen_id:
        await pilot.pause(0.002)
    await pilot.pause()  # its first frame
    return 1000 * (time.process_time() - cpu0)


async def _key_flows(folder: Path) -> list[dict[str, Any]]:
    """The issue-19 flows on a Starship Marine roster (a quick fix on a Space Hulk squad with a
    misspelt entry), each with its keys and its CPU time from key to painted; ``a`` (add one
    entry from the catalog) timed in the same run is the baseline."""
    from textual.command import CommandPalette
    from textual.widgets import OptionList

    from armybuilder.catalog import default_library
    from armybuilder.session import EditSession
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.settings import Settings

    out: list[dict[str, Any]] = []

    def row(what: str, keys: Sequence[str], times: list[float], target: str) -> None:
        print(f"  {what}: {times}", file=sys.stderr, flush=True)
        cpu_ms = median(times)
        out.append({"what": what, "keys": list(keys), "cpu_ms": cpu_ms, "first_ms": times[0],
                    "target": target})  # fmt: skip

    async def editor_of(app: Any, pilot: Any) -> Any:
        editor, _ = await loaded_editor(app, pilot)
        await pilot.pause(0.05)
        return editor

    path = folder / "keys-earther.yaml"
    EditSession.new(default_library(), "starship-marine", "earther", "Keys", autosave=False).save(
        path
    )
    app = ArmyBuilderApp(path, cwd=folder, settings=Settings(), catalog_poll_seconds=None)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await editor_of(app, pilot)

        async def to_entry(entry_id: str) -> list[str]:
            keys = ["f4"]
            await pilot.press("f4")
            while editor.catalog.highlighted() != entry_id and len(keys) < 30:
                await pilot.press("down")
                keys.append("down")
            return keys

        keys = await to_entry("earther-group")
        times = []
        for _ in range(REPEATS):
            times.append(await _painted_after(pilot, editor, ["s"]))
            await _painted_after(pilot, editor, ["ctrl+z"])
        row("s: Marine Group at standard strength", [*keys, "s"], times, f"≤ {FLOW_KEYS} keys")
        await to_entry("earther-squad")
        times = []
        for _ in range(REPEATS):
            times.append(await _painted_after(pilot, editor, ["a"]))
            await _painted_after(pilot, editor, ["ctrl+z"])
        row("a: add one Marine Squad (baseline)", ["a"], times, f"≤ {FRAME_MS:.0f} ms")
        await _painted_after(pilot, editor, ["s"])
        await pilot.press("f3")
        marines = ("selections", 0, "selections", 3)
        split, merge = [], []
        for _ in range(REPEATS):
            editor.jump_to(marines)
            await pilot.pause()
            split.append(await _painted_after(pilot, editor, ["x"]))
            merge.append(await _painted_after(pilot, editor, ["m"]))
        row("x: split Marine ×6 into six", ["x"], split, f"≤ {FRAME_MS:.0f} ms")
        row("m: merge them back", ["m"], merge, f"≤ {FRAME_MS:.0f} ms")
        times = []
        for _ in range(REPEATS):
            times.append(await _screen_after(pilot, app, ["g"], "summary"))
            await pilot.press("escape")
            while app.screen is not editor:
                await pilot.pause(0.01)
        row("g: the list at a glance", ["g"], times, f"≤ {FRAME_MS:.0f} ms")
        word = "sergeant"
        times, typing = [], []
        for _ in range(REPEATS):
            editor.jump_to(())
            await pilot.pause()
            cpu0 = time.process_time()
            await pilot.press("f", *word)
            while not isinstance(app.screen, CommandPalette):
                await pilot.pause(0.002)
            # The palette searches as it is typed, in a worker: wait for its hits (a fixed
            # pause raced on a busy machine, and Enter then chose nothing).
            hits = app.screen.query_one(OptionList)
            for _ in range(2500):  # about 5 s
                if hits.option_count and hits.highlighted is not None:
                    break
                await pilot.pause(0.002)
            typing.append(1000 * (time.process_time() - cpu0))
            # The first hit is highlighted: the squad's place for a second sergeant (the
            # next hit, the Regimental Sergeant Major, has no place in this roster).
            times.append(await _painted_after(pilot, editor, ["enter"]))
            await _painted_after(pilot, editor, ["ctrl+z"])
        row(f"f: search everywhere '{word}', Enter adds", ["f", *word, "enter"],
            times, f"≤ {FRAME_MS:.0f} ms (Enter)")  # fmt: skip
        out[-1]["typing_cpu_ms"] = median(typing)

    text = (REPO / "examples" / "space-hulk" / "standard-squad.yaml").read_text()
    squad = folder / "keys-squad.yaml"
    squad.write_text(
        text.replace(
            "entry: terminator\n        name: Brother Deino",
            "entry: termintor\n        name: Brother Deino",
        )
    )
    app = ArmyBuilderApp(squad, cwd=folder, settings=Settings(), catalog_poll_seconds=None)
    async with app.run_test(size=(160, 48)) as pilot:
        editor = await editor_of(app, pilot)
        texts = editor.issues.texts()
        await pilot.press("f7")
        editor.issues.issue_list.highlighted = next(
            i for i, t in enumerate(texts) if "termintor" in t
        )
        await pilot.pause()
        times = []
        for _ in range(REPEATS):
            times.append(await _painted_after(pilot, editor, ["full_stop"]))
            await _painted_after(pilot, editor, ["ctrl+z"])
            await pilot.pause()
        row("'.': quick fix of a misspelt entry", ["f7", "full_stop"], times,
            f"≤ {FRAME_MS:.0f} ms")  # fmt: skip
    return out


def measure_key_flows(folder: Path) -> list[dict[str, Any]]:
    return asyncio.run(_key_flows(folder))


# --------------------------------------------------------------------------- f. the details pane

#: Times each action of f. is repeated (median reported, the first beside it).
DETAIL_REPEATS = 7
BSDATA = REPO.parent / "shared" / "bsdata"
SM40K = "imperium-adeptus-astartes-space-marines"


class _Frames:
    """CPU time stamps: the key (or change) that starts an action, and the last frame the app
    handed to the terminal after it (the person sees the result then)."""

    def __init__(self) -> None:
        self.start: float | None = None
        self.last = 0.0
        self.armed = False

    def attach(self, app: Any) -> None:
        display = app._display

        def timed(screen: Any, renderable: Any) -> None:
            display(screen, renderable)
            if renderable is not None:
                self.last = time.process_time()

        app._display = timed

    def hook(self, message: Any) -> None:
        from textual import events

        if self.armed and self.start is None and isinstance(message, events.Key):
            self.start = time.process_time()

    def arm(self, start: float | None = None) -> None:
        self.armed, self.start, self.last = True, start, 0.0


async def _settled(pilot: Any, editor: Any, frames: _Frames) -> float:
    """Wait until the editor shows the session's latest edit and the details pane has built
    what it builds; CPU ms from the action's start to the last frame painted."""
    session = editor.session
    for _ in range(500):
        await pilot.pause()
        if (
            editor.shown_generation == session.generation
            and not editor._eval_running
            and not _pane_busy(editor.details)
        ):
            break
    await pilot.pause()
    await pilot.pause()
    frames.armed = False
    if frames.start is None or frames.last < frames.start:
        return float("nan")
    return 1000 * (frames.last - frames.start)


def _pane_busy(details: Any) -> bool:
    busy = getattr(details, "busy", None)  # (older trees: what it was building)
    return bool(getattr(details, "_building", ())) if busy is None else bool(busy)


def _shape(node: Any) -> tuple[str, ...]:
    from armybuilder.tui.widgets.details import one_of_groups

    return tuple(g.id for g in one_of_groups(node.entry)) if node.entry is not None else ()


def _plan(session: Any) -> dict[str, Any]:
    """Units to move between and edit: two of the same kind with option groups, two of
    different option groups, and a group with two options or more (drop-down) to toggle."""
    from armybuilder.tui.widgets.details import one_of_groups

    ev = session.evaluate()
    units = [
        n for n in ev.nodes()
        if not n.is_root and n.entry is not None and n.force is None and _shape(n)
        and any(g.max == 1 for g in one_of_groups(n.entry))
    ]  # fmt: skip
    by_entry: dict[str, list[Any]] = {}
    for n in units:
        by_entry.setdefault(n.entry.id, []).append(n)
    same = next((v[:2] for v in by_entry.values() if len(v) > 1), None)
    a = same[0] if same else units[0]
    other = next((n for n in units if _shape(n) != _shape(a)), None)
    toggle = None
    for n in [a, *units]:
        # What the session offers there (an option the data hides at that place, e.g. a
        # detachment of another chapter, would time a rare edit that ends with no choice).
        offered = session.options(n.loc, ev)
        for g in one_of_groups(n.entry):
            opts = [
                c.entry.id for c in offered
                if c.group is not None and c.group.id == g.id and not c.entry.hidden
            ]  # fmt: skip
            chosen = [c.entry_id for c in n.children if c.group is not None and c.group.id == g.id]
            if g.max == 1 and len(opts) > 1 and len(chosen) == 1:
                toggle = (n.loc, g.id, next(o for o in opts if o != chosen[0]))
                break
        if toggle:
            break
    return {
        "same": (same[0].loc, same[1].loc) if same else None,
        "other": (a.loc, other.loc) if other else None,
        "count": a.loc,
        "toggle": toggle,
        "fix": next(
            (
                n.loc
                for n in units
                if n.parent is not None and not n.parent.is_root and n.parent.entry is not None
            ),
            a.loc,
        ),
        "names": {n.loc: ev.where(n) for n in units},
    }


async def _details_roster(
    path: Path, library: Any, size: tuple[int, int], repeats: int, profile: Any = None
) -> dict[str, Any]:
    """f. on one roster: moving between units, +1, an option toggled, a quick fix."""
    from armybuilder.session import SetKey
    from armybuilder.tui.app import ArmyBuilderApp
    from armybuilder.tui.settings import Settings
    from armybuilder.tui.widgets.details import DetailsPane

    frames = _Frames()
    kw: dict[str, Any] = {"library": library} if library is not None else {}
    app = ArmyBuilderApp(path, cwd=path.parent, settings=Settings(), catalog_poll_seconds=None,
                         **kw)  # fmt: skip
    out: dict[str, Any] = {"roster": path.name, "rows": []}

    def row(what: str, times: list[float], pane: list[float] | None = None) -> None:
        if profile is not None:
            profile(what)
        print(f"  {path.name} {what}: {[round(t, 1) for t in times]}", file=sys.stderr, flush=True)
        out["rows"].append({"what": what, "cpu_ms": median(times), "first_ms": times[0],
                            "max_ms": max(times), "pane_ms": median(pane or [])})  # fmt: skip

    async with app.run_test(size=size, message_hook=frames.hook) as pilot:
        frames.attach(app)
        editor, session = await loaded_editor(app, pilot, 0.05)
        while editor.shown_generation != session.generation:
            await pilot.pause(0.05)
        plan = _plan(session)
        out["units"] = {k: plan["names"].get(v[0] if isinstance(v, tuple) and v and
                                              isinstance(v[0], tuple) else v)
                        for k, v in plan.items() if k in ("count", "fix")}  # fmt: skip
        editor.roster_tree.focus()
        # One edit that stays (as in b.): the undos below never return to the saved state.
        session.rename((), f"{session.name} (benchmark)")
        editor.after_edit()
        await _settled(pilot, editor, frames)

        async def timed(
            at: Any, act: Any, undo: bool, check: Any = None
        ) -> tuple[list[float], list[float]]:
            """``act()`` at the unit ``at`` (selected first, untimed), ``repeats`` times, each
            undone (untimed) when ``undo``; CPU ms to the last frame, and the pane's share."""
            times, pane = [], []
            for i in range(repeats):
                where = at(i) if callable(at) else at
                if where is not None:
                    editor.jump_to(where)
                    await _settled(pilot, editor, frames)
                await act(i)
                times.append(await _settled(pilot, editor, frames))
                pane.append(getattr(editor.details, "show_ms", float("nan")))
                if check is not None:
                    check()
                if undo:
                    await pilot.press("ctrl+z")
                    await _settled(pilot, editor, frames)
            return times, pane

        def jump(pair: tuple[Any, Any]) -> Any:
            async def act(i: int) -> None:
                frames.arm(time.process_time())
                editor.jump_to(pair[(i + 1) % 2])

            return act

        async def press(key: str) -> Any:
            frames.arm()
            await pilot.press(key)

        for key, what in (("same", "cursor to a unit of the same kind"),
                          ("other", "cursor to a unit of other option groups")):  # fmt: skip
            pair = plan[key]
            if pair is not None:
                row(what, *await timed(lambda i, p=pair: p[i % 2], jump(pair), False))
        row("count +1 (the + key)",
            *await timed(plan["count"], lambda i: press("plus"), True))  # fmt: skip
        if plan["toggle"] is not None:
            loc, gid, value = plan["toggle"]

            async def choose(i: int) -> None:
                frames.arm(time.process_time())
                editor.details.post_message(DetailsPane.Edit(loc, f"choice:{gid}", value))

            row("an option chosen in a drop-down", *await timed(loc, choose, True))
        # The quick fix: the unit's entry id misspelt (its last character changed), then '.'.
        loc = plan["fix"]
        good = session.node(loc)["entry"]
        bad = good[:-1] + ("x" if good[-1] != "x" else "y")
        session.apply("misspell", [SetKey(loc, "entry", bad)], loc, loc)
        editor.after_edit()
        await _settled(pilot, editor, frames)
        fixes = editor.issues.fixes_about(loc)
        if fixes and repr(good) in fixes[0].label:

            def fixed() -> None:
                assert session.node(loc)["entry"] == good

            row("'.' quick fix of a misspelt unit",
                *await timed(loc, lambda i: press("full_stop"), True, fixed))  # fmt: skip
        else:
            print(f"  {path.name}: no quick fix found for {bad!r}", file=sys.stderr)
        # The catalog's search as you type, at the top of the roster (what it can take: on
        # the 40k data over a thousand entries): each key of a unit's name timed, then Esc.
        editor.jump_to(())
        await _settled(pilot, editor, frames)
        catalog = editor.catalog
        word = search_word(session, plan["count"])
        out["search"] = {"word": word, "entries": len(catalog._options)}
        keys: list[float] = []
        backs: list[float] = []
        clears: list[float] = []
        # A blinking cursor paints a frame twice a second: one falling before the harness
        # stops waiting would count the idle time before it (the harness polls) as the key's.
        catalog.search.cursor_blink = False
        firsts: list[float] = []
        for _ in range(max(1, repeats // 3)):
            catalog.search.focus()
            await _settled(pilot, editor, frames)
            # A person looks at the list before typing: by then the catalog has priced the
            # options off screen (while idle; those on screen are priced as they show).
            for _ in range(200):  # (10 s at most)
                if not getattr(catalog, "unpriced", 0):
                    break
                await pilot.pause(0.05)
            await _settled(pilot, editor, frames)
            for i, ch in enumerate(word):
                frames.arm()
                await pilot.press(ch)
                keys.append(await _settled(pilot, editor, frames))
                if i < 3:
                    firsts.append(keys[-1])
            check_search(catalog, word)
            for _ in range(3):  # letters deleted one by one
                frames.arm()
                await pilot.press("backspace")
                backs.append(await _settled(pilot, editor, frames))
            check_search(catalog, word[:-3])
            frames.arm()
            await pilot.press("escape")  # clears the search: every entry again
            clears.append(await _settled(pilot, editor, frames))
            check_search(catalog, "")
            editor.roster_tree.focus()
            await _settled(pilot, editor, frames)
        row(f"catalog search, a key typed ({len(catalog._options)} entries, {word!r})", keys)
        row("catalog search, the first three keys", firsts)
        row("catalog search, Backspace", backs)
        row("catalog search, Esc clears it", clears)
    return out


def check_search(catalog: Any, typed: str) -> None:
    """The catalog's list holds exactly the entries whose name or id has ``typed``."""
    shown = {leaf.data for leaf in catalog._leaves()}
    query = fold(typed.strip())
    # (each row holds the id that adds its option: a link's own where the entry is also
    # offered plainly; the search looks in the entry's name and id, case and accents aside)
    wanted = {oid for c, oid in zip(catalog._options, catalog._ids, strict=True)
              if query in fold(c.entry.name) or query in c.entry.id}  # fmt: skip
    assert shown == wanted, f"the catalog's search for {typed!r} shows other entries"


def fold(text: str) -> str:
    """Case and accents dropped, as the catalog's search compares (``Éldar`` -> ``eldar``)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.category(ch).startswith("M"))


def search_word(session: Any, loc: Any) -> str:
    """What a player would type to find the unit at ``loc``: the first word of its name."""
    entry = session.entry_at(loc)
    words = (entry.name if entry is not None else "squad").lower().split()
    return max(words[:2], key=len)[:11] if words else "squad"


def measure_details(work: Path, size: tuple[int, int], repeats: int) -> list[dict[str, Any]]:
    """f. on the Earther regiment and, where the data is there, a 40k Space Marines roster
    (copies in a folder of their own: each is left with unsaved edits, whose recovery journal
    would greet part b. opening the same file with a dialog, and it waited for the editor)."""
    results = []
    work = work / "details"
    work.mkdir(exist_ok=True)
    regiment = work / REGIMENT.name
    shutil.copy(REGIMENT, regiment)
    results.append(asyncio.run(_details_roster(regiment, None, size, repeats)))
    if (BSDATA / "wh40k-10e").is_dir():
        from bench_bsdata import roster_text

        from armybuilder.catalog import Library

        library = Library([BSDATA]).scan()
        system = library.system("wh40k-10e")
        path = work / "space-marines-40k.yaml"
        path.write_text(roster_text(system), encoding="utf-8")  # type: ignore[arg-type]
        results.append(asyncio.run(_details_roster(path, library, size, repeats)))
    else:
        print(f"f. skipped the 40k roster: no {BSDATA / 'wh40k-10e'}", file=sys.stderr)
    return results


def infantry_regiment(folder: Path) -> Path:
    from bench_validate import regiment_roster

    path = folder / "infantry-regiment.yaml"
    path.write_text(regiment_roster(), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- report


def report(results: dict[str, Any]) -> str:
    lines = []
    launch = results.get("launch")
    if launch:
        lines.append("a. launch to first screen (median over runs, wall clock from process start)")
        for label in ("home", "small roster", "regiment"):
            r = launch[label]
            verdict = "within" if r["first_screen_ms"] <= LAUNCH_MS else "OVER"
            text = (
                f"  {label:<14} first screen {r['first_screen_ms']:6.0f} ms "
                f"({verdict} {LAUNCH_MS:.0f} ms)"
            )
            if "roster_shown_ms" in r:
                text += f", roster shown {r['roster_shown_ms']:6.0f} ms"
            lines.append(text)
        lines.append(
            f"  for comparison: python -c pass {launch['python_pass_ms']:.0f} ms, "
            f"python -c 'import armybuilder.launch' (the command's entry point) "
            f"{launch['entry_import_ms']:.0f} ms, "
            f"python -c 'import armybuilder.cli' {launch['cli_import_ms']:.0f} ms"
        )
        lines.append(targets_line(launch))
    for key, title in (("edits", "b. edit latency"), ("stress", "c. stress: 75-platoon regiment")):
        r = results.get(key)
        if not r:
            continue
        lines.append("")
        lines.append(
            f"{title}: {r['roster']} ({r['selections']} selections, {r['models']} models, "
            f"{r['issues']} issues), adding {r['entry']} to {r['target']}, {r['edits']} edits"
            + (" [validated in a worker thread]" if r["async"] else "")
        )
        for what in ("add", "undo"):
            s = r[what]
            verdict = "within" if s["total"]["median"] <= FRAME_MS else "OVER"
            mverdict = "within" if s["model"]["median"] <= MODEL_MS else "OVER"
            lines.append(
                f"  {what:<5} key -> panel and totals painted: median "
                f"{s['total']['median']:6.2f} ms, p95 {s['total']['p95']:6.2f} ms "
                f"({verdict} {FRAME_MS:.0f} ms)"
            )
            lines.append(
                f"        model (edit + validation + totals): median "
                f"{s['model']['median']:6.2f} ms, p95 {s['model']['p95']:6.2f} ms "
                f"({mverdict} {MODEL_MS:.0f} ms); edit {s['edit']['median']:.2f}, "
                f"validation {s['eval']['median']:.2f}"
            )
            lines.append(
                f"        UI: median {s['ui']['median']:6.2f} ms, p95 {s['ui']['p95']:6.2f} ms "
                f"(key dispatch {s['dispatch']['median']:.2f} ms, updating the widgets "
                f"{s['widgets']['median']:.2f} ms, then Textual {s['paint']['median']:.2f} ms "
                "until painted)"
            )
            lines.append(
                f"       "
                f"per edit: {s['labels']['median']:.0f} tree labels set, details "
                f"{s['details']['median']:.0f} updates, catalog rebuilt "
                f"{s['catalog']['median']:.0f}x, issues changed {s['issues']['median']:.0f}, "
                f"totals changed {s['totals']['median']:.0f}"
            )
    flows = results.get("flows")
    if flows:
        lines.append("")
        lines.append(
            "d. flows from an empty roster: add at standard strength (F4, Down to it, s); "
            "CPU time from the first key until shown"
        )
        for f in flows:
            verdict = "within" if len(f["keys"]) <= FLOW_KEYS else "OVER"
            lines.append(
                f"  {f['what']:<38} {len(f['keys'])} keys ({verdict} {FLOW_KEYS}): "
                f"{' '.join(f['keys'])}; {f['cpu_ms']:.0f} ms CPU; {f['selections']} "
                f"selections, {f['errors']} errors, {f['warnings']} warnings"
            )
    keys = results.get("keys")
    if keys:
        lines.append("")
        lines.append(
            "e. the builder's keys: keys pressed, CPU time from the key until its result is "
            f"painted, median of {REPEATS} (first press in brackets); 'a' is this run's "
            "baseline under the same load and the same Pilot harness"
        )
        for k in keys:
            ms = k["cpu_ms"]
            if k["target"].startswith("≤") and "keys" in k["target"]:
                ok = len(k["keys"]) <= FLOW_KEYS
            else:
                ok = ms == ms and ms <= FRAME_MS
            extra = ""
            if "typing_cpu_ms" in k:
                extra = f" (typing and the palette's search: {k['typing_cpu_ms']:.0f} ms CPU)"
            lines.append(
                f"  {k['what']:<46} {len(k['keys']):2d} keys, {ms:6.1f} ms CPU "
                f"({k['first_ms']:.0f}) "
                f"[target {k['target']}: {'within' if ok else 'OVER'}]{extra}"
            )
    details = results.get("details")
    if details:
        lines.append("")
        lines.append(
            "f. the details pane: CPU time from the key (or the change) until the last frame "
            f"that shows its result, median of the repeats (first, max); target {FRAME_MS:.0f} "
            "ms a repaint; the baseline is the first row (the cursor to a unit of the same kind); "
            "'details pane': the pane's own update (DetailsPane.show), CPU"
        )
        for r in details:
            lines.append(f"  {r['roster']}:")
            base = r["rows"][0]["cpu_ms"] if r["rows"] else float("nan")
            for k in r["rows"]:
                ms = k["cpu_ms"]
                ok = ms == ms and ms <= FRAME_MS
                lines.append(
                    f"    {k['what']:<42} {ms:7.1f} ms CPU ({k['first_ms']:.0f}, "
                    f"max {k['max_ms']:.0f}) [{'within' if ok else 'OVER'} {FRAME_MS:.0f} ms; "
                    f"{ms / base:4.1f}x baseline]; details pane {k['pane_ms']:.1f} ms"
                )
    return "\n".join(lines)


def machine() -> dict[str, Any]:
    from importlib import metadata

    return {
        "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "platform": platform.platform(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu_count": os.cpu_count(),
        "textual": metadata.version("textual"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--edits", type=int, default=200, help="timed additions (default 200)")
    parser.add_argument("--launches", type=int, default=5, help="launches per case (default 5)")
    parser.add_argument("--roster", type=Path, help="roster to edit (default: the largest)")
    parser.add_argument("--stress", action="store_true",
                        help="also the 75-platoon Infantry Operations regiment")  # fmt: skip
    parser.add_argument("--no-launch", action="store_true", help="skip the launch figures")
    parser.add_argument("--size", default="160x48", help="terminal size (default 160x48)")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--flows-only", action="store_true",
                        help="only the key-count flows (d)")  # fmt: skip
    parser.add_argument("--details-only", action="store_true",
                        help="only the details pane's figures (f)")  # fmt: skip
    parser.add_argument(
        "--repeats",
        type=int,
        default=DETAIL_REPEATS,
        help=f"times each action of f. is timed (default {DETAIL_REPEATS})",
    )
    args = parser.parse_args(argv)
    for key in _ENV_OVERRIDES:
        os.environ.pop(key, None)
    width, height = (int(x) for x in args.size.split("x"))
    info = machine()
    print(f"{info['python']} · textual {info['textual']} · {info['platform']} · "
          f"{info['cpu_count']} CPUs · {info['date']}")  # fmt: skip
    scratch = Path(tempfile.mkdtemp(prefix="armybuilder-bench-tui-"))
    results: dict[str, Any] = {"machine": info}
    try:
        os.environ["ARMYBUILDER_HOME"] = str(scratch / "home")
        # Journals and recent files of the rosters it edits stay out of the player's lists.
        os.environ["ARMYBUILDER_STATE_DIR"] = str(scratch / "home" / "state")
        work = scratch / "rosters"
        work.mkdir()
        if args.roster is not None:
            regiment = work / args.roster.name
            shutil.copy(args.roster, regiment)
        elif REGIMENT.is_file() and (REPO / "catalogs" / "starship-marine").is_dir():
            regiment = work / REGIMENT.name
            shutil.copy(REGIMENT, regiment)
        else:
            regiment = infantry_regiment(work)
        if not (args.no_launch or args.flows_only or args.details_only):
            print("launching…", flush=True)
            results["launch"] = measure_launch(args.launches, regiment, scratch)
        if args.details_only:
            print("timing the details pane…", flush=True)
            results["details"] = measure_details(work, (width, height), args.repeats)
            return _finish(results, args.json)
        print("building from empty rosters…", flush=True)
        results["flows"] = measure_flows(work)
        print("timing the builder's keys…", flush=True)
        results["keys"] = measure_key_flows(work)
        print("timing the details pane…", flush=True)
        results["details"] = measure_details(work, (width, height), args.repeats)
        if not args.flows_only:
            print(f"editing {regiment.name}…", flush=True)
            edits = measure_edits(regiment, args.edits, (width, height))
            edits["roster"] = regiment.name
            results["edits"] = edits
            if args.stress and "infantry" not in regiment.name:
                print("editing the 75-platoon regiment…", flush=True)
                stress_path = infantry_regiment(work)
                stress = measure_edits(stress_path, max(10, args.edits // 10), (width, height))
                stress["roster"] = stress_path.name
                results["stress"] = stress
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return _finish(results, args.json)


def _finish(results: dict[str, Any], json_path: str | None) -> int:
    print()
    print(report(results))
    if json_path:
        Path(json_path).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
