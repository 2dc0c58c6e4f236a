#!/usr/bin/env python3
"""Validation benchmark for armybuilder (Infantry Operations rosters).

Generates a seeded corpus of varied rosters (plus one regiment-sized roster) and measures:

a. in-process validation throughput (fast loader + ``evaluate``), and the one-off catalog
   library scan with a cold and a warm cache;
b. ``armybuilder validate --quiet`` over the whole corpus in one process, and the command's
   start-up time for one small roster;
c. re-validating the regiment roster (the interactive builder's per-edit cost), against a
   16 ms frame budget, and one edit + re-validation;
d. loading the regiment roster with the round-trip loader vs the fast loader.

Run from the repository root::

    python benchmarks/bench_validate.py [--rosters N] [--out DIR] [--quick] [--json FILE]
    python benchmarks/bench_validate.py --counts   # the regiment's counted figures alone

Only the standard library and armybuilder are used. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import gc
import hashlib
import importlib.util
import json
import math
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    # Benchmark the source tree this file belongs to, installed or not.
    sys.path.insert(0, str(REPO))

import armybuilder  # noqa: E402
from armybuilder.catalog import Library  # noqa: E402
from armybuilder.rosters import Roster  # noqa: E402
from armybuilder.rules.engine import Evaluation, evaluate  # noqa: E402

FRAME_BUDGET_MS = 16.0

#: Every figure is CPU time of this process (``time.process_time``: all its threads), or of a
#: subprocess and the children it waited for (``getrusage(RUSAGE_CHILDREN)``, user + system):
#: the machine is shared, so wall-clock time measures the neighbours as much as armybuilder.
clock = time.process_time
SYSTEM = "infantry-ops"

# Environment variables that would change what is measured (extra catalogs, another cache,
# no cache); the benchmark runs without them, in-process and in the CLI subprocesses.
_ENV_OVERRIDES = ("ARMYBUILDER_CATALOGS", "ARMYBUILDER_CACHE_DIR", "ARMYBUILDER_NO_CACHE")

# --------------------------------------------------------------------------- catalog facts
# Standard platoon structure, (troopers per squad, squads per platoon), from the faction
# catalogs' `squads` / `troopers` constraints and their motive modifiers. The corpus checks
# itself: every roster records whether it is meant to be legal, and the benchmark reports how
# many verdicts differ (0 expected), so a catalog change that breaks these numbers shows up.
STRUCTURE: dict[str, tuple[int, int]] = {"inner-sphere": (7, 4), "clan": (5, 5), "comstar": (6, 6)}
STRUCTURE_BY_MOTIVE: dict[str, dict[str, tuple[int, int]]] = {
    "inner-sphere": {
        "jump": (7, 3),
        "mechanised-hover": (5, 4),
        "mechanised-vtol": (5, 4),
        "mechanised-wheeled": (6, 4),
        "mechanised-naval": (6, 4),
    },
    "clan": {"jump": (5, 4)},
    "comstar": {"jump": (6, 4), "mechanised-hover": (5, 6), "mechanised-vtol": (5, 6)},
}
MOTIVES = [
    "foot",
    "foot",
    "foot",
    "jump",
    "motorised-wheeled",
    "motorised-hover",
    "motorised-tracked",
    "mechanised-wheeled",
    "mechanised-tracked",
    "mechanised-hover",
    "mechanised-vtol",
    "mechanised-naval",
]
EXPERIENCE = ["elite", "veteran", "regular", "regular", "regular", "green", "very-green", None]

# Trooper kits: (name, items). Bulk kits fill a squad, support kits are 0-2 per squad. Support
# weapons used here have crew-to-carry <= 2, so a squad of 5+ can always carry two of them.
BULK_KITS: list[tuple[str, list[str]]] = [
    ("Riflemen", ["auto-rifle", "thrown-grenade", "kevlar-vest"]),
    ("Riflemen", ["auto-rifle", "kevlar-vest"]),
    ("Marksmen", ["rifle", "autopistol", "flak-vest"]),
    ("Laser riflemen", ["laser-rifle", "laser-pistol", "flak-vest"]),
    ("Breachers", ["smg", "knife-bayonet", "full-body-armour"]),
    ("Shotgunners", ["assault-shotgun", "thrown-grenade", "kevlar-vest"]),
    ("Anti-armour riflemen", ["auto-rifle", "laaw", "kevlar-vest"]),
    ("SRM ammunition bearers", ["auto-rifle", "srm1-ammo", "kevlar-vest"]),
]
SUPPORT_KITS: list[tuple[str, list[str]]] = [
    ("LMG gunners", ["light-mg", "kevlar-vest"]),
    ("SRM1 gunners", ["srm1", "kevlar-vest"]),
    ("SAW gunners", ["squad-assault-weapon", "kevlar-vest"]),
    ("Laser support", ["support-small-laser", "flak-vest"]),
    ("LRM1 gunners", ["lrm1", "kevlar-vest"]),
    ("Snipers", ["sniper-rifle", "ghillie-suit", "kevlar-vest"]),
]
# Ways to make a roster unusual: each gives at least one error, except those in WARNED_ONLY.
FLAWS = [
    "extra-squad",
    "extra-trooper",
    "no-motive",
    "two-motives",
    "two-main-weapons",
    "no-armour",
    "unknown-entry",
    "unknown-experience",
    "over-cost-limit",
    "crew-to-fire",
    "gun-crew-short",
]
ILLEGAL_SHARE = 0.2
# Flaws the rules only warn about: the roster stays legal. Troopers without armour are
# civilians in the rules' eyes (Infantry Operations, Weapons and Equipment (Armour); Advanced
# Damage System): the catalog warns (`io-no-armour`). Kept in FLAWS, so that a seed gives the
# same corpus as before, and reckoned legal.
WARNED_ONLY = frozenset({"no-armour"})


def structure(faction: str, motive: str | None) -> tuple[int, int]:
    """Standard (troopers per squad, squads per platoon) for a faction and motive."""
    return STRUCTURE_BY_MOTIVE[faction].get(motive or "foot", STRUCTURE[faction])


# --------------------------------------------------------------------------- roster writing

Sel = dict[str, Any]


def sel(entry: str, count: int = 1, name: str | None = None, **extra: Any) -> Sel:
    """One selection as written in a roster file."""
    out: Sel = {"entry": entry}
    if count != 1:
        out["count"] = count
    if name:
        out["name"] = name
    out.update({k: v for k, v in extra.items() if v is not None})
    return out


def _scalar(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    text = str(value)
    if text.replace("-", "").isalnum() and text[:1].isalpha() and text not in {"yes", "no"}:
        return text
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


def _emit(value: Any, indent: int, out: list[str]) -> None:
    pad = " " * indent
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, dict | list) and v:
                out.append(f"{pad}{k}:")
                _emit(v, indent + 2, out)
            else:
                out.append(f"{pad}{k}: {_scalar(v) if not isinstance(v, dict | list) else v}")
    else:
        for item in value:
            sub: list[str] = []
            _emit(item, indent + 2, sub)
            first = sub[0]
            out.append(f"{pad}- {first[indent + 2 :]}")
            out.extend(sub[1:])


def roster_yaml(header: dict[str, Any], selections: list[Sel], comment: str) -> str:
    """A roster file's text: a comment, the header keys and the selections, block style."""
    lines = [f"# {line}" for line in comment.splitlines()]
    doc = {"format": 1, "system": SYSTEM, **header, "selections": selections}
    _emit(doc, 0, lines)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- corpus


@dataclass
class Corpus:
    """The generated files, with the verdict each roster was built to get."""

    folder: Path
    files: list[Path] = field(default_factory=list)
    expected_legal: dict[Path, bool] = field(default_factory=dict)
    regiment: Path | None = None
    small: Path | None = None


def _troopers(rng: random.Random, size: int, support: int) -> list[Sel]:
    """Trooper selections, grouped by kit, adding up to ``size`` troopers.

    ``support`` (0-2) troopers carry support weapons: two of one kit or one each of two.
    """
    support = min(support, max(size - 3, 0))
    kits: list[tuple[str, list[str], int]] = []
    if support == 2 and rng.random() < 0.5:
        name, items = rng.choice(SUPPORT_KITS)
        kits.append((name, items, 2))
    else:
        kits += [(name, items, 1) for name, items in rng.sample(SUPPORT_KITS, k=support)]
    left = size - support
    bulk = rng.sample(BULK_KITS, k=rng.choice([1, 1, 2]))
    if len(bulk) == 2 and left >= 2:
        first = rng.randint(1, left - 1)
        kits[:0] = [(*bulk[0], first), (*bulk[1], left - first)]
    else:
        kits.insert(0, (*bulk[0], left))
    return [sel("trooper", n, name, selections=[sel(i) for i in items]) for name, items, n in kits]


def _platoon(rng: random.Random, faction: str, name: str, flaw: str | None) -> tuple[Sel, int]:
    """One platoon selection and its trooper count."""
    motive = rng.choice(MOTIVES)
    size, squads = structure(faction, motive)
    if flaw != "extra-trooper" and rng.random() < 0.15:
        size -= 1  # under strength: a warning, still legal
    if flaw == "extra-squad":
        squads += 1
    children: list[Sel] = []
    if flaw == "two-motives":
        children += [sel(motive), sel("jump" if motive != "jump" else "foot")]
    elif flaw != "no-motive":
        children.append(sel(motive))
    layout = rng.choice(["counted", "counted", "listed", "split"])
    squad_sels: list[Sel] = []
    if layout == "counted":
        squad_sels.append(
            sel("squad", squads, selections=_troopers(rng, size, rng.choice([0, 1, 2])))
        )
    elif layout == "split" and squads >= 2:
        a = rng.randint(1, squads - 1)
        for n in (a, squads - a):
            squad_sels.append(
                sel("squad", n, selections=_troopers(rng, size, rng.choice([0, 1, 2])))
            )
    else:
        for i in range(squads):
            squad_sels.append(
                sel(
                    "squad",
                    name=f"Squad {i + 1}",
                    selections=_troopers(rng, size, rng.choice([0, 1, 2])),
                )
            )
    first = squad_sels[0]["selections"]
    if flaw == "extra-trooper":
        first[0]["count"] = first[0].get("count", 1) + 1
    elif flaw == "two-main-weapons":
        first[0]["selections"].append(sel("light-mg"))
    elif flaw == "no-armour":
        items = first[0]["selections"]
        first[0]["selections"] = [
            s for s in items if s["entry"] not in {"kevlar-vest", "flak-vest", "full-body-armour"}
        ]
    elif flaw == "unknown-entry":
        first[0]["selections"][0]["entry"] = "auto-rilfe"
    elif flaw == "crew-to-fire":
        # three heavy mortars (crew to fire 3 each, 9 in all) in a squad of at most seven
        first[:] = [
            sel(
                "trooper", size - 3, "Riflemen", selections=[sel("auto-rifle"), sel("kevlar-vest")]
            ),
            sel("trooper", 3, "Mortar crew", selections=[sel("heavy-mortar"), sel("kevlar-vest")]),
        ]
    children += squad_sels
    troopers = sum(
        s.get("count", 1) * sum(t.get("count", 1) for t in s["selections"]) for s in squad_sels
    )
    if flaw == "gun-crew-short":
        children.append(sel("ac-5-field-gun", troopers // 8 + 1))
    elif rng.random() < 0.1 and troopers >= 8:
        children.append(sel("ac-5-field-gun"))
    experience = "legendary" if flaw == "unknown-experience" else rng.choice(EXPERIENCE)
    platoon = sel("platoon", name=name, experience=experience, selections=children)
    if rng.random() < 0.1:
        platoon["notes"] = f"{name} was raised on {rng.choice(['Tharkad', 'Strana Mechty'])}."
    return platoon, troopers


ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th"]


def random_roster(rng: random.Random, number: int) -> tuple[str, bool]:
    """The text of one varied roster and whether it is meant to be legal."""
    faction = rng.choice(["inner-sphere", "clan", "comstar"])
    platoons = rng.choice([1, 1, 1, 2, 2, 3, 4])
    flaw = rng.choice(FLAWS) if rng.random() < ILLEGAL_SHARE else None
    flawed_at = rng.randrange(platoons)
    sels: list[Sel] = []
    for i in range(platoons):
        p, _ = _platoon(rng, faction, f"{ORDINALS[i]} Platoon", flaw if i == flawed_at else None)
        sels.append(p)
    header: dict[str, Any] = {"faction": faction, "name": f"Benchmark roster {number}"}
    if flaw == "over-cost-limit":
        header["limits"] = {"kg": 1000}
    elif rng.random() < 0.3:
        header["limits"] = {"kg": 1_000_000}
    comment = f"armybuilder benchmark corpus, roster {number} ({faction}); generated, seeded."
    return roster_yaml(header, sels, comment), flaw is None or flaw in WARNED_ONLY


def regiment_roster(companies: int = 5) -> str:
    """5 battalions x 5 companies x 3 platoons, every platoon, squad and kit written out
    (``companies``: fewer per battalion, for a smaller regiment of the same kinds)."""
    rng = random.Random(75)
    battalion_motive = ["foot", "jump", "motorised-wheeled", "mechanised-tracked", "foot"]
    battalion_exp = ["veteran", "regular", "regular", "green", "elite"]
    sels: list[Sel] = []
    for b in range(5):
        motive = battalion_motive[b]
        size, squads = structure("inner-sphere", motive)
        for c in range(companies):
            for p in range(3):
                name = f"{ORDINALS[b]} Battalion, {'ABCDE'[c]} Company, {ORDINALS[p]} Platoon"
                squad_sels = [
                    sel(
                        "squad",
                        name=f"Squad {s + 1}",
                        selections=_troopers(rng, size, rng.choice([0, 1, 2, 2])),
                    )
                    for s in range(squads)
                ]
                sels.append(
                    sel(
                        "platoon",
                        name=name,
                        experience=battalion_exp[b],
                        selections=[sel(motive), *squad_sels],
                    )
                )
    header = {"faction": "inner-sphere", "name": "1st Regiment (benchmark)"}
    comment = (
        "armybuilder benchmark: a whole regiment, 5 battalions x 5 companies x 3 platoons.\n"
        "Every platoon, squad and trooper kit is its own selection."
    )
    return roster_yaml(header, sels, comment)


def generate(folder: Path, count: int, seed: int) -> Corpus:
    """Write ``count`` varied rosters and the regiment roster into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    corpus = Corpus(folder)
    for i in range(count):
        text, legal = random_roster(rng, i + 1)
        path = folder / f"roster-{i + 1:04d}.yaml"
        path.write_text(text, encoding="utf-8")
        corpus.files.append(path)
        corpus.expected_legal[path] = legal
    small = folder / "small.yaml"
    small.write_text(
        roster_yaml(
            {"faction": "inner-sphere", "name": "Small roster"},
            [
                sel(
                    "platoon",
                    name="Rifle platoon",
                    selections=[
                        sel("foot"),
                        sel(
                            "squad",
                            4,
                            selections=[
                                sel(
                                    "trooper",
                                    7,
                                    "Riflemen",
                                    selections=[sel("auto-rifle"), sel("kevlar-vest")],
                                )
                            ],
                        ),
                    ],
                )
            ],
            "armybuilder benchmark: the smallest useful roster (CLI start-up).",
        ),
        encoding="utf-8",
    )
    corpus.small = small
    regiment = folder / "regiment.yaml"
    regiment.write_text(regiment_roster(), encoding="utf-8")
    corpus.files.append(regiment)
    corpus.expected_legal[regiment] = True
    corpus.regiment = regiment
    return corpus


# --------------------------------------------------------------------------- timing helpers


def median(xs: Sequence[float]) -> float:
    return statistics.median(xs)


def p95(xs: Sequence[float]) -> float:
    """95th percentile (nearest rank)."""
    s = sorted(xs)
    return s[max(math.ceil(0.95 * len(s)) - 1, 0)]


def timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    """(seconds, result) of one call."""
    t0 = clock()
    result = fn()
    return clock() - t0, result


def repeat(fn: Callable[[], Any], times: int) -> list[float]:
    """Seconds of ``times`` calls."""
    return [timed(fn)[0] for _ in range(times)]


@contextmanager
def armybuilder_home(path: Path) -> Iterator[Path]:
    """Point ARMYBUILDER_HOME (catalog cache, user catalogs) at ``path`` for a while."""
    old = os.environ.get("ARMYBUILDER_HOME")
    os.environ["ARMYBUILDER_HOME"] = str(path)
    try:
        yield path
    finally:
        if old is None:
            os.environ.pop("ARMYBUILDER_HOME", None)
        else:
            os.environ["ARMYBUILDER_HOME"] = old


# --------------------------------------------------------------------------- measurements


@dataclass
class Settings:
    rosters: int
    passes: int  # in-process passes over the corpus
    cli_runs: int  # CLI runs over the corpus
    startup_runs: int  # CLI start-up, one small roster
    scans: int  # library scans (cold and warm)
    reval_runs: int  # regiment re-validations
    edit_runs: int  # regiment edit + re-validation
    load_runs: int  # regiment loads per loader


FULL = Settings(300, 3, 3, 5, 5, 50, 20, 5)
QUICK = Settings(30, 1, 1, 3, 2, 10, 5, 2)


def measure_scan(settings: Settings, scratch: Path) -> tuple[dict[str, float], Library]:
    """Library scan: first in process (cold), more cold scans, warm scans; a scanned Library."""
    res: dict[str, float] = {}
    cold: list[float] = []
    for i in range(settings.scans):
        with armybuilder_home(scratch / f"cold-{i}"):
            cold.append(timed(lambda: Library().scan())[0])
    res["scan_first_cold_s"] = cold[0]  # also imports the system's rules module
    res["scan_cold_s"] = median(cold[1:]) if len(cold) > 1 else cold[0]
    home = scratch / "warm"
    with armybuilder_home(home):
        Library().scan()  # fill the cache
        warm = repeat(lambda: Library().scan(), settings.scans)
        lib = Library().scan()
    res["scan_warm_s"] = median(warm)
    res["systems"] = len(lib.systems)
    res["factions"] = sum(len(gs.factions) for gs in lib.systems.values())
    res["catalog_files"] = res["systems"] + res["factions"]
    problems = [str(p) for p in lib.problems]
    if problems:
        print("warning: catalog problems:\n  " + "\n  ".join(problems), file=sys.stderr)
    return res, lib


def validate_file(
    lib: Library, path: Path, values: bool = False
) -> tuple[float, float, Evaluation]:
    """(load seconds, evaluate seconds, evaluation) for one file, as `validate` does it (it
    reads no computed value: ``values=False``); ``values=True``: with every value computed,
    as `show`, the record sheet and the builder have it."""
    t0 = clock()
    roster = Roster.from_file(path, round_trip=False)
    t1 = clock()
    gs = lib.system(roster.system)
    ev = evaluate(roster, gs.index(roster.faction), gs.rules, values=values)
    t2 = clock()
    return t1 - t0, t2 - t1, ev


def measure_throughput(
    settings: Settings, lib: Library, corpus: Corpus
) -> tuple[dict[str, float], list[Path]]:
    """In-process load + evaluate of every corpus file; returns figures and verdict misses."""
    passes: list[tuple[float, float, float]] = []
    full_evals: list[float] = []
    verdicts: dict[Path, bool] = {}
    issues = errors = 0
    # Two libraries, so that each first pass below meets its catalog indexes empty: `valid`
    # for validate's evaluations (no values), `full` for those with every value.
    valid = Library().scan()
    for p in corpus.files:  # each faction's index, built once (not timed)
        roster = Roster.from_file(p, round_trip=False)
        lib.system(roster.system).index(roster.faction)
        valid.system(roster.system).index(roster.faction)
    # The first pass sees every platoon make-up for the first time, as `validate` of a batch
    # of one-off rosters does (the later passes find them worked out in the catalog index).
    cold_load = cold_eval = full_cold_eval = 0.0
    gc.collect()
    for p in corpus.files:
        lt, et, _ = validate_file(valid, p)
        cold_load += lt
        cold_eval += et
    gc.collect()
    for p in corpus.files:
        full_cold_eval += validate_file(lib, p, values=True)[1]
    for _ in range(settings.passes):
        load = ev_time = 0.0
        issues = errors = 0
        gc.collect()
        t0 = clock()
        for p in corpus.files:
            lt, et, ev = validate_file(valid, p)
            load += lt
            ev_time += et
            verdicts[p] = ev.valid
            issues += len(ev.issues)
            errors += len(ev.errors)
        passes.append((clock() - t0, load, ev_time))
        gc.collect()
        full_evals.append(sum(validate_file(lib, p, values=True)[1] for p in corpus.files))
    wall, load, ev_time = sorted(passes)[len(passes) // 2]

    # `validate` gives the issues it reports a line and column with Roster.position() (every
    # issue with --format json or without --quiet); a fast-loaded roster has no positions of
    # its own, so they cost extra work per file. Timed here separately, for every issue.
    positioned = 0
    position_s = 0.0
    for p in corpus.files:
        _, _, ev = validate_file(lib, p)
        paths = [i.path for i in ev.issues if i.path]
        if paths:
            positioned += 1
            t0 = clock()
            for x in paths:
                ev.roster.position(x)
            position_s += clock() - t0
    n = len(corpus.files)
    misses = [p for p in corpus.files if verdicts[p] != corpus.expected_legal[p]]
    return {
        "files": n,
        "legal": sum(verdicts.values()),
        "illegal": n - sum(verdicts.values()),
        "verdict_mismatches": len(misses),
        "issues": issues,
        "errors": errors,
        "inproc_wall_s": wall,
        "inproc_rosters_per_s": n / wall,
        "inproc_load_ms_per_roster": 1000 * load / n,
        "inproc_eval_ms_per_roster": 1000 * ev_time / n,
        "inproc_cold_load_ms_per_roster": 1000 * cold_load / n,
        "inproc_cold_eval_ms_per_roster": 1000 * cold_eval / n,
        "inproc_values_eval_ms_per_roster": 1000 * median(full_evals) / n,
        "inproc_values_cold_eval_ms_per_roster": 1000 * full_cold_eval / n,
        "files_with_issues": positioned,
        "issue_positions_s": position_s,
    }, misses


def cli_env(home: Path, pycache: Path) -> dict[str, str]:
    """The CLI subprocesses' environment.

    Bytecode is cached under ``pycache`` (``PYTHONPYCACHEPREFIX``), as for an installed
    package, even where ``PYTHONDONTWRITEBYTECODE`` is set; nothing is written into the source
    tree.
    """
    env = {k: v for k, v in os.environ.items() if k not in _ENV_OVERRIDES}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    env["ARMYBUILDER_HOME"] = str(home)
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def children_cpu() -> float:
    """CPU seconds (user + system) of the children this process has waited for, and theirs."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_cmd(cmd: Sequence[str], env: dict[str, str], ok: Sequence[int] = (0,)) -> float:
    """CPU seconds of one subprocess (its pool workers included: it waits for them)."""
    before = children_cpu()
    proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    cpu = children_cpu() - before
    if proc.returncode not in ok:
        raise RuntimeError(
            f"{' '.join(cmd[:4])} exited {proc.returncode}:\n{proc.stdout[-2000:]}"
            f"{proc.stderr[-2000:]}"
        )
    return cpu


def run_cli(files: Sequence[Path], env: dict[str, str], *extra: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one `armybuilder validate --quiet` over ``files``."""
    cmd = [sys.executable, "-m", "armybuilder", "validate", "--quiet", *extra, *map(str, files)]
    t0 = time.perf_counter()
    cpu = run_cmd(cmd, env, ok=(0, 1))
    return cpu, time.perf_counter() - t0


def run_python(code: str, env: dict[str, str]) -> float:
    """CPU seconds of ``python -c code``."""
    return run_cmd([sys.executable, "-c", code], env)


def bare_parse(files: Sequence[Path]) -> float:
    """CPU seconds to read and parse ``files`` with the C YAML loader alone, in this process.

    Not the yardstick any more (see :func:`parse_yardstick`): in this process the parse pays
    full collections of whatever the benchmark's earlier sections left alive, which is about
    a third of it on some runs and none on others. Kept to show that difference."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="safe", pure=False)
    t0 = clock()
    for p in files:
        yaml.load(p.read_bytes().decode("utf-8"))
    return clock() - t0


#: The parse yardstick's own process: a fresh interpreter that imports ruamel.yaml and nothing
#: of armybuilder, parses one file untimed (ruamel's first-use costs), then ``passes`` times
#: the varied rosters and the regiment, each timed on its own, with a collection before each
#: pass (as before every timed pass of section a.) and the collector on at its default
#: thresholds, as in any program that parses. It prints its samples and what it had loaded.
_PARSE_PROBE = r"""
import gc, json, sys, time
from ruamel.yaml import YAML

clock = time.process_time
passes = int(sys.argv[1])
regiment, *rosters = sys.argv[2:]
yaml = YAML(typ="safe", pure=False)


def parse(paths):
    t0 = clock()
    for p in paths:
        with open(p, "rb") as f:
            yaml.load(f.read().decode("utf-8"))
    return clock() - t0


parse(rosters[:1])
out = {"rosters": [], "regiment": [], "full_collections": 0}
gc.callbacks.append(
    lambda phase, info: phase == "start"
    and info["generation"] == 2
    and out.__setitem__("full_collections", out["full_collections"] + 1)
)
for _ in range(passes):
    gc.collect()
    out["rosters"].append(parse(rosters))
    out["regiment"].append(parse([regiment]))
out["full_collections"] -= passes  # the gc.collect() calls above
out["parser"] = type(yaml.parser).__module__ if hasattr(yaml, "parser") else None
out["armybuilder_imported"] = any(m.split(".")[0] == "armybuilder" for m in sys.modules)
print(json.dumps(out))
"""


@dataclass
class ParseYardstick:
    """Samples of the bare C parse, from fresh processes at several points of the run.

    Each sample is one pass: the varied rosters' total seconds and the regiment's seconds.
    """

    rosters: int  # varied rosters in the corpus (the regiment besides)
    roster_s: list[float] = field(default_factory=list)
    regiment_s: list[float] = field(default_factory=list)
    full_collections: int = 0
    probes: int = 0

    def per_file_ms(self, rosters: int | None = None) -> list[float]:
        """ms per file of each pass, for a corpus of ``rosters`` varied rosters + the regiment
        (this corpus's count by default): the varied rosters' mean parse weighted as in that
        corpus, so that a figure of the regiment alone is set against the same yardstick
        whatever ``--rosters`` was."""
        n = self.rosters if rosters is None else rosters
        return [
            1000 * (n * r / self.rosters + g) / (n + 1)
            for r, g in zip(self.roster_s, self.regiment_s, strict=True)
        ]


def probe_parse(
    yard: ParseYardstick, corpus: Corpus, env: dict[str, str], passes: int
) -> ParseYardstick:
    """Add ``passes`` samples of the bare C parse, measured in a fresh interpreter."""
    assert corpus.regiment is not None
    rosters = [p for p in corpus.files if p != corpus.regiment]
    cmd = [sys.executable, "-c", _PARSE_PROBE, str(passes), str(corpus.regiment)]
    proc = subprocess.run(
        [*cmd, *map(str, rosters)], env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode:
        raise RuntimeError(f"the parse yardstick's process failed:\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout)
    if got["armybuilder_imported"]:
        raise RuntimeError("the parse yardstick's process imported armybuilder")
    if got["parser"] is not None and "clib" not in got["parser"]:
        print(f"warning: the parse yardstick ran on {got['parser']}, not the C parser")
    yard.roster_s.extend(got["rosters"])
    yard.regiment_s.extend(got["regiment"])
    yard.full_collections += got["full_collections"]
    yard.probes += 1
    return yard


#: The corpus of issue 17's idle figures (the default: 300 varied rosters and the regiment).
DEFAULT_ROSTERS = 300


def yardstick_figures(yard: ParseYardstick, corpus: Corpus) -> dict[str, Any]:
    """The parse yardstick's figures: medians of every pass, with their spread."""
    here = yard.per_file_ms()
    default = yard.per_file_ms(DEFAULT_ROSTERS)
    n = len(corpus.files)
    return {
        "parse_ms_per_file": median(here),
        "parse_ms_per_file_min": min(here),
        "parse_ms_per_file_max": max(here),
        "parse_files_per_s": 1000 / median(here),
        "parse_default_ms_per_file": median(default),
        "parse_default_ms_per_file_min": min(default),
        "parse_default_ms_per_file_max": max(default),
        "parse_rosters_ms_per_file": 1000 * median(yard.roster_s) / max(n - 1, 1),
        "parse_regiment_ms": 1000 * median(yard.regiment_s),
        "parse_regiment_ms_min": 1000 * min(yard.regiment_s),
        "parse_regiment_ms_max": 1000 * max(yard.regiment_s),
        "parse_passes": len(here),
        "parse_probes": yard.probes,
        "parse_full_collections": yard.full_collections,
        "parse_samples_ms_per_file": [round(x, 3) for x in here],
    }


def measure_baselines(
    settings: Settings, corpus: Corpus, env: dict[str, str], yard: ParseYardstick
) -> dict[str, Any]:
    """The same run's yardsticks: the bare C parse of the corpus (its last probe; the earlier
    ones were taken at the start of the run and after section a.), and, for comparison only,
    the same parse in this process as it was measured until 2026-11-27."""
    probe_parse(yard, corpus, env, yardstick_passes(settings))
    fulls = [0]

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start" and info["generation"] == 2:
            fulls[0] += 1

    gc.callbacks.append(count)
    try:
        here = [bare_parse(corpus.files) for _ in range(max(settings.passes, 2))]
    finally:
        gc.callbacks.remove(count)
    return {
        **yardstick_figures(yard, corpus),
        "parse_in_process_ms_per_file": 1000 * median(here) / len(corpus.files),
        "parse_in_process_full_collections": fulls[0],
    }


def yardstick_passes(settings: Settings) -> int:
    """Passes of the parse in each of the yardstick's three processes."""
    return max(settings.passes, 2)


def measure_cli(
    settings: Settings, corpus: Corpus, home: Path, scratch: Path, yard: ParseYardstick
) -> dict[str, Any]:
    """CLI over the whole corpus (warm catalog cache), and its start-up for one small roster;
    the run's yardsticks."""
    assert corpus.small is not None
    env = cli_env(home, scratch / "pycache")
    run_cli([corpus.small], env)  # fills the catalog cache and the bytecode cache
    has_jobs = (
        "--jobs"
        in subprocess.run(
            [sys.executable, "-m", "armybuilder", "validate", "--help"],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        ).stdout
    )
    # the pool as on an idle machine (without --jobs, a busy one is checked serially)
    pool = ("--jobs", str(os.cpu_count() or 1)) if has_jobs else ()
    whole = [run_cli(corpus.files, env, *pool) for _ in range(settings.cli_runs)]
    serial = (
        [run_cli(corpus.files, env, "--jobs", "1") for _ in range(settings.cli_runs)]
        if has_jobs
        else whole  # a version without a pool: every run is serial
    )
    # each start-up beside a `python -c pass`, so that both yardstick and figure meet the same
    # neighbours
    startup, bare = [], []
    for _ in range(settings.startup_runs):
        bare.append(run_python("pass", env))
        startup.append(run_cli([corpus.small], env)[0])
    imports = [run_python("import armybuilder.cli", env) for _ in range(settings.startup_runs)]
    n = len(corpus.files)
    cpu = median([c for c, _ in whole])
    wall = median([w for _, w in whole])
    serial_cpu = median([c for c, _ in serial])
    return {
        "cli_cpu_s": cpu,
        "cli_wall_s": wall,
        "cli_rosters_per_cpu_s": n / cpu,
        "cli_rosters_per_wall_s": n / wall,
        "cli_serial_cpu_s": serial_cpu,
        "cli_serial_wall_s": median([w for _, w in serial]),
        "cli_startup_s": median(startup),
        "cli_startup_min_s": min(startup),
        "cli_startup_max_s": max(startup),
        "cli_import_s": median(imports),
        "python_startup_s": median(bare),
        "python_startup_min_s": min(bare),
        "python_startup_max_s": max(bare),
        **measure_baselines(settings, corpus, env, yard),
    }


def evaluation_work(roster: Roster, index: Any, rules: Any) -> dict[str, float]:
    """What one evaluation of ``roster`` does, counted rather than timed (the same in any run,
    however busy the machine): the Python function calls of one ``evaluate`` (cProfile's
    ``total_calls``, built-ins included), with the rules module and without it (the generic
    engine alone), and the objects the collector tracks that one evaluation leaves alive (what
    an ``Evaluation`` keeps: its tree, issues, values and caches). Each is counted after a
    first evaluation, as the timed runs are."""
    import cProfile
    import pstats

    out: dict[str, float] = {}
    for key, mod in (("eval_calls", rules), ("eval_calls_generic", None)):
        evaluate(roster, index, mod)  # (warm: what is kept per catalog is built)
        prof = cProfile.Profile()
        prof.enable()
        evaluate(roster, index, mod)
        prof.disable()
        out[key] = pstats.Stats(prof).total_calls  # type: ignore[attr-defined]
    gc.collect()
    before = len(gc.get_objects())
    kept = evaluate(roster, index, rules)
    gc.collect()
    out["eval_objects_kept"] = len(gc.get_objects()) - before
    del kept
    return out


def measure_regiment(settings: Settings, lib: Library, corpus: Corpus) -> dict[str, float]:
    """Re-validation and edits of the regiment roster; round-trip vs fast load."""
    path = corpus.regiment
    assert path is not None
    res: dict[str, float] = {}
    # d. loading
    rt = repeat(lambda: Roster.from_file(path, lazy=False), settings.load_runs)
    fast = repeat(lambda: Roster.from_file(path, round_trip=False), settings.load_runs)
    lazy = repeat(lambda: Roster.from_file(path, lazy=True), settings.load_runs)

    from armybuilder import yamlio

    def ruamel_only() -> None:
        # the same load with ruamel's own round-trip reader (before libyaml's events were
        # built into the document): this run's baseline for regiment_load_round_trip_ms
        yamlio.ROUND_TRIP_FAST = False
        try:
            Roster.from_file(path, lazy=False)
        finally:
            yamlio.ROUND_TRIP_FAST = True

    ruamel = repeat(ruamel_only, max(settings.load_runs // 2, 1))
    res["regiment_load_round_trip_ms"] = 1000 * median(rt)
    res["regiment_load_round_trip_ruamel_ms"] = 1000 * median(ruamel)
    res["regiment_load_fast_ms"] = 1000 * median(fast)
    res["regiment_load_lazy_ms"] = 1000 * median(lazy)

    def first_edit() -> None:
        # a lazily opened roster whose document nobody built yet: the edit builds it
        later = Roster.from_file(path, lazy=True)
        t0 = clock()
        later.set(("selections", 37), "name", "Renamed first")
        built.append(clock() - t0)

    built: list[float] = []
    for _ in range(max(settings.load_runs // 2, 1)):
        first_edit()
    res["regiment_lazy_first_edit_ms"] = 1000 * median(built)
    res["regiment_bytes"] = path.stat().st_size

    # c. re-validation of a roster already loaded for editing
    roster = Roster.from_file(path)
    gs = lib.system(roster.system)
    index, rules = gs.index(roster.faction), gs.rules
    ev = evaluate(roster, index, rules)
    res["regiment_selections"] = sum(1 for _ in roster.walk())
    res["regiment_troopers"] = sum(n.multiplicity() for n in ev.nodes() if n.entry_id == "trooper")
    res["regiment_errors"] = len(ev.errors)
    res["regiment_warnings"] = len(ev.warnings)
    res.update(evaluation_work(roster, index, rules))
    gc.collect()
    runs = repeat(lambda: evaluate(roster, index, rules), settings.reval_runs)
    res["reval_median_ms"] = 1000 * median(runs)
    res["reval_p95_ms"] = 1000 * p95(runs)
    # The same on the heap as the builder's editor has it: once a roster is loaded it
    # collects and freezes what is alive (tui/screens/editor.py, settle_heap), so that the
    # collector's full passes no longer walk the catalogs. Measured after the figure above
    # (which is as a library user gets it) and thawed again after, unless something else
    # froze the heap first.
    thaw = gc.get_freeze_count() == 0
    gc.collect()
    gc.freeze()
    try:
        settled = repeat(lambda: evaluate(roster, index, rules), settings.reval_runs)
    finally:
        if thaw:
            gc.unfreeze()
    res["reval_settled_median_ms"] = 1000 * median(settled)
    res["reval_settled_p95_ms"] = 1000 * p95(settled)
    # the same without the system's rules module: the generic engine's share
    generic = repeat(lambda: evaluate(roster, index, None), max(settings.reval_runs // 2, 3))
    res["reval_generic_median_ms"] = 1000 * median(generic)

    # one edit + re-validation: rename a platoon; add (then drop) a trooper in a squad
    rename_edit, rename_total = [], []
    for i in range(settings.edit_runs):
        t0 = clock()
        roster.set(("selections", 37), "name", f"Renamed platoon {i}")
        t1 = clock()
        evaluate(roster, index, rules)
        t2 = clock()
        rename_edit.append(t1 - t0)
        rename_total.append(t2 - t0)
    add_edit, add_total = [], []
    squad: tuple[str | int, ...] = ("selections", 37, "selections", 1)
    for _ in range(settings.edit_runs):
        t0 = clock()
        loc = roster.add(squad, "trooper", name="Replacement")
        t1 = clock()
        evaluate(roster, index, rules)
        t2 = clock()
        add_edit.append(t1 - t0)
        add_total.append(t2 - t0)
        roster.remove(loc)  # untimed: back to the original roster
    res["edit_rename_ms"] = 1000 * median(rename_edit)
    res["edit_rename_reval_ms"] = 1000 * median(rename_total)
    res["edit_add_ms"] = 1000 * median(add_edit)
    res["edit_add_reval_ms"] = 1000 * median(add_total)

    # the same edits as the builder makes them: an EditSession re-reads the changed subtree
    # only, and its evaluation replays the platoons the edit did not touch
    from armybuilder.session import EditSession

    opens, shown = [], []
    # (the text as if never opened before: the record of armybuilder/ownform.py off, so that
    # the eager open dumps its merge base as it always did; the known case is timed below)
    os.environ["ARMYBUILDER_NO_CACHE"] = "1"
    for _ in range(max(settings.load_runs // 2, 1)):
        t0 = clock()
        session = EditSession.open(path, lib, autosave=False, lazy=False)
        session.evaluate()
        opens.append(clock() - t0)
        # what EditSession.open does by default, but without its worker thread (whose CPU
        # time would count here): shown from the fast parse, the document built later
        t0 = clock()
        later = Roster.from_file(path, library=lib, lazy=True)
        later.prepare_merge_base()
        EditSession(later, lib.system(later.system), autosave=False).evaluate()
        shown.append(clock() - t0)
    del os.environ["ARMYBUILDER_NO_CACHE"]
    res["session_open_ms"] = 1000 * median(opens)
    res["session_open_lazy_ms"] = 1000 * median(shown)
    s_rename, s_add = [], []
    for i in range(settings.edit_runs):
        t0 = clock()
        session.rename(("selections", 37), f"Renamed platoon {i}")
        session.evaluate()
        s_rename.append(clock() - t0)
    for _ in range(settings.edit_runs):
        t0 = clock()
        session.add(squad, "trooper", name="Replacement")
        session.evaluate()
        s_add.append(clock() - t0)
        session.undo()  # untimed: back to the original roster
        session.evaluate()
    res["session_rename_ms"] = 1000 * median(s_rename)
    res["session_add_ms"] = 1000 * median(s_add)

    # Saving after one edit (issue 17, save path): the whole document is written once by
    # ruamel's emitter; saved to a copy (the first save is a "save as" to a new file).
    saves = []
    with tempfile.TemporaryDirectory() as scratch:
        copy_path = Path(scratch) / path.name
        for i in range(max(settings.load_runs // 2, 1)):
            session.rename(("selections", 37), f"Saved platoon {i}")
            t0 = clock()
            session.save(copy_path)
            saves.append(clock() - t0)
        session.close()
    res["session_save_ms"] = 1000 * median(saves)
    # Opening the regiment again when its text was found to be as armybuilder writes it
    # (written down by a first open, untimed): no dump of the merge base.
    EditSession.open(path, lib, autosave=False, lazy=False).close()
    known = []
    for _ in range(max(settings.load_runs // 2, 1)):
        t0 = clock()
        EditSession.open(path, lib, autosave=False, lazy=False).evaluate()
        known.append(clock() - t0)
    res["session_open_known_ms"] = 1000 * median(known)
    return res


# --------------------------------------------------------------------------- report


def source_fingerprint() -> str:
    """A short hash of the armybuilder sources and catalogs measured (no git needed)."""
    digest = hashlib.sha256()
    for folder in ("armybuilder", "catalogs"):
        for path in sorted((REPO / folder).rglob("*")):
            if path.suffix in {".py", ".yaml"} and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(REPO)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def machine() -> dict[str, Any]:
    def version(dist: str) -> str | None:
        try:
            return metadata.version(dist)
        except metadata.PackageNotFoundError:
            return None

    return {
        "date": dt.datetime.now().astimezone().isoformat(timespec="seconds"),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "cpu_count": os.cpu_count(),
        "load_average_1_5_15": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "armybuilder": armybuilder.__version__,
        "armybuilder_path": str(Path(armybuilder.__file__).parent),
        "source_fingerprint": source_fingerprint(),
        "ruamel.yaml": version("ruamel.yaml"),
        "ruamel.yaml C loader": importlib.util.find_spec("_ruamel_yaml") is not None,
        "pydantic": version("pydantic"),
    }


def _spread(r: dict[str, Any], key: str, scale: float = 1.0, digits: int = 2) -> str:
    """`` (min-max)`` of a figure whose extremes were kept (``x_min_s`` / ``x_max_s`` beside
    ``x_s``, ``x_min`` / ``x_max`` beside ``x``), else nothing."""
    stem, unit = (key[:-2], "_s") if key.endswith("_s") else (key, "")
    low, high = r.get(f"{stem}_min{unit}"), r.get(f"{stem}_max{unit}")
    if low is None or high is None:
        return ""
    return f" ({scale * low:.{digits}f}-{scale * high:.{digits}f})"


def table(results: dict[str, Any], settings: Settings) -> str:
    r = results
    rows: list[tuple[str, str]] = []

    def row(label: str, value: str) -> None:
        rows.append((label, value))

    def section(title: str) -> None:
        rows.append((title, ""))

    n = r["files"]
    section("corpus")
    row(
        "rosters (varied + regiment)",
        f"{n} ({r['legal']} legal, {r['illegal']} illegal, {r['verdict_mismatches']} not as "
        f"generated; {r['issues']} issues, {r['errors']} errors)",
    )
    row(
        "regiment roster",
        f"{r['regiment_selections']} selections, {r['regiment_troopers']} troopers, "
        f"{r['regiment_bytes'] / 1024:.0f} KiB",
    )
    section(
        f"a. library scan ({r['systems']} systems, {r['factions']} factions) / in-process validate"
    )
    row("library scan, first in process (cold)", f"{1000 * r['scan_first_cold_s']:.0f} ms")
    row("library scan, cold cache", f"{1000 * r['scan_cold_s']:.0f} ms")
    row("library scan, warm cache", f"{1000 * r['scan_warm_s']:.0f} ms")
    row(
        "load + evaluate, whole corpus",
        f"{r['inproc_wall_s']:.2f} s = {r['inproc_rosters_per_s']:.0f} rosters/s",
    )
    row(
        "  per roster: load / evaluate",
        f"{r['inproc_load_ms_per_roster']:.2f} ms / {r['inproc_eval_ms_per_roster']:.2f} ms",
    )
    if "inproc_cold_eval_ms_per_roster" in r:
        row(
            "  the same, first pass (new make-ups)",
            f"{r['inproc_cold_load_ms_per_roster']:.2f} ms / "
            f"{r['inproc_cold_eval_ms_per_roster']:.2f} ms",
        )
    if "inproc_values_eval_ms_per_roster" in r:
        row(
            "  evaluate with every value (show): first pass / later",
            f"{r['inproc_values_cold_eval_ms_per_roster']:.2f} ms / "
            f"{r['inproc_values_eval_ms_per_roster']:.2f} ms",
        )
    row(
        "  + line:col of every issue",
        f"{r['issue_positions_s']:.2f} s for the {r['files_with_issues']} files with issues",
    )
    section("b. CLI (subprocess, warm cache; CPU of the command and its pool workers)")
    row(
        f"validate --quiet, {n} files",
        f"{r['cli_cpu_s']:.2f} s CPU = {r['cli_rosters_per_cpu_s']:.0f} rosters per CPU-second "
        f"(wall {r['cli_wall_s']:.2f} s = {r['cli_rosters_per_wall_s']:.0f}/s)",
    )
    row(
        "  the same with --jobs 1 (serial)",
        f"{r['cli_serial_cpu_s']:.2f} s CPU (wall {r['cli_serial_wall_s']:.2f} s)",
    )
    row(
        f"start-up, 1 small roster (median of {settings.startup_runs}; min-max)",
        f"{1000 * r['cli_startup_s']:.0f} ms CPU{_spread(r, 'cli_startup_s', 1000, 0)}",
    )
    row(
        "  cf. python -c pass (one before each)",
        f"{1000 * r['python_startup_s']:.0f} ms CPU{_spread(r, 'python_startup_s', 1000, 0)}",
    )
    row("  cf. python -c 'import armybuilder.cli'", f"{1000 * r['cli_import_s']:.0f} ms CPU")
    if "parse_default_ms_per_file" in r:
        section(
            f"yardstick: bare C YAML parse in a fresh process ({r['parse_passes']} passes in "
            f"{r['parse_probes']} processes through the run; median, min-max)"
        )
        row(
            f"per file, this corpus ({n} files)",
            f"{r['parse_ms_per_file']:.2f} ms{_spread(r, 'parse_ms_per_file')} = "
            f"{r['parse_files_per_s']:.0f} files per CPU-second",
        )
        row(
            f"per file, the default corpus ({DEFAULT_ROSTERS + 1} files)",
            f"{r['parse_default_ms_per_file']:.2f} ms{_spread(r, 'parse_default_ms_per_file')} "
            "(the regiment's figures' yardstick)",
        )
        row(
            "a varied roster / the regiment",
            f"{r['parse_rosters_ms_per_file']:.2f} ms / {r['parse_regiment_ms']:.0f} ms"
            f"{_spread(r, 'parse_regiment_ms', 1, 0)}",
        )
        row(
            "the same parse in this process, after a.-d.",
            f"{r['parse_in_process_ms_per_file']:.2f} ms per file, "
            f"{r['parse_in_process_full_collections']} full collection(s) of the benchmark's "
            "heap (not a yardstick: it was until 2026-11-27)",
        )
    else:  # a JSON file of an earlier version
        row(
            "  cf. bare C YAML parse of the corpus",
            f"{r['parse_ms_per_file']:.2f} ms per file = {r['parse_files_per_s']:.0f} files "
            "per CPU-second",
        )
    section(f"c. regiment re-validation ({settings.reval_runs} runs)")
    verdict = "within" if r["reval_median_ms"] <= FRAME_BUDGET_MS else "OVER"
    row(
        "evaluate, median / p95",
        f"{r['reval_median_ms']:.1f} ms / {r['reval_p95_ms']:.1f} ms "
        f"({verdict} the {FRAME_BUDGET_MS:.0f} ms frame budget, "
        f"{r['reval_median_ms'] / FRAME_BUDGET_MS:.1f}x)",
    )
    if "reval_settled_median_ms" in r:
        row(
            "  on a settled heap, as the builder (median / p95)",
            f"{r['reval_settled_median_ms']:.1f} ms / {r['reval_settled_p95_ms']:.1f} ms",
        )
    row(
        "  generic engine only (no rules module)",
        f"{r['reval_generic_median_ms']:.1f} ms",
    )
    if "eval_calls" in r:
        row(
            "  Python calls per evaluation (with / without rules)",
            f"{r['eval_calls']:,.0f} / {r['eval_calls_generic']:,.0f} "
            "(counted, not timed: the same in any run)",
        )
        row("  objects one evaluation keeps alive", f"{r['eval_objects_kept']:,.0f}")
    row(
        "rename a platoon + evaluate",
        f"{r['edit_rename_reval_ms']:.1f} ms (edit alone {r['edit_rename_ms']:.1f} ms)",
    )
    row(
        "add a trooper + evaluate",
        f"{r['edit_add_reval_ms']:.1f} ms (edit alone {r['edit_add_ms']:.1f} ms)",
    )
    row(
        "  the same in an edit session (incremental)",
        f"rename {r['session_rename_ms']:.1f} ms, add {r['session_add_ms']:.1f} ms",
    )
    section("d. regiment load")
    row(
        "round-trip / fast loader",
        f"{r['regiment_load_round_trip_ms']:.0f} ms / {r['regiment_load_fast_ms']:.0f} ms "
        f"({r['regiment_load_round_trip_ms'] / r['regiment_load_fast_ms']:.1f}x)",
    )
    if "regiment_load_round_trip_ruamel_ms" in r:
        row(
            "round-trip with ruamel's own reader (before)",
            f"{r['regiment_load_round_trip_ruamel_ms']:.0f} ms "
            f"({r['regiment_load_round_trip_ruamel_ms'] / r['regiment_load_round_trip_ms']:.1f}x "
            "the round-trip load)",
        )
    row(
        "lazy open (fast parse; document built later)",
        f"{r['regiment_load_lazy_ms']:.0f} ms; a first edit that must build it "
        f"{r['regiment_lazy_first_edit_ms']:.0f} ms",
    )
    row(
        "edit session open + evaluate, eager / lazy",
        f"{r['session_open_ms']:.0f} ms / {r['session_open_lazy_ms']:.0f} ms",
    )
    if "session_save_ms" in r:
        row(
            "  eager, a text known as armybuilder's own; a save after one edit",
            f"{r['session_open_known_ms']:.0f} ms; {r['session_save_ms']:.0f} ms",
        )
    width = max(len(label) for label, value in rows if value) + 2
    out = []
    for label, value in rows:
        out.append(f"{label}" if not value else f"  {label:<{width}}{value}")
    return "\n".join(out)


# Issue 17's table: (figure, its target, the yardstick of the same run it is divided by). The
# targets were set on the idle machine, where the bare C parse of the corpus took 1.6 ms a file
# (629 files/s) and `python -c pass` 9 ms: a target divided by those is a ratio that should hold
# on a busy machine too, as long as the load slows both alike.
IDLE_PARSE_MS = 1.6
IDLE_PYTHON_MS = 9.0
TARGET_CLI_ROSTERS_PER_S = 500.0  # wall clock, both CPUs of the 2-CPU machine
TARGET_ROSTER_MS = 1.5
TARGET_STARTUP_MS = 120.0
TARGET_REGIMENT_EVAL_MS = 16.0
TARGET_SESSION_EDIT_MS = 1.0
TARGET_ROUND_TRIP_MS = 300.0


def targets_table(r: dict[str, Any]) -> str:
    """Every figure of issue 17 with its target, the same run's baseline and both as ratios.

    A figure of the whole corpus is set against the parse of this corpus per file (both are
    means over the same files); a figure of the regiment alone against the parse per file of
    the default corpus (300 varied rosters and the regiment), that of issue 17's idle figures,
    so that ``--rosters`` does not move its ratio. The ratio's range is the figure over the
    yardstick's own spread in this run (the slowest and the fastest of its passes)."""
    parse = r["parse_ms_per_file"]
    # a JSON file of an earlier version has one parse yardstick, measured in process
    rparse = r.get("parse_default_ms_per_file", parse)
    spread = {
        "corpus": (r.get("parse_ms_per_file_min", parse), r.get("parse_ms_per_file_max", parse)),
        "default": (
            r.get("parse_default_ms_per_file_min", rparse),
            r.get("parse_default_ms_per_file_max", rparse),
        ),
        "python": (
            1000 * r.get("python_startup_min_s", r["python_startup_s"]),
            1000 * r.get("python_startup_max_s", r["python_startup_s"]),
        ),
    }
    python = 1000 * r["python_startup_s"]
    cpus = os.cpu_count() or 1
    # 500 rosters/s on two CPUs is 250 per CPU-second: 0.40 of the idle parse rate.
    cli_target_ratio = TARGET_CLI_ROSTERS_PER_S / 2 / (1000 / IDLE_PARSE_MS)
    rows: list[tuple[str, str, str, str, str, str]] = []

    def row(
        name: str,
        now: str,
        target: str,
        base: str,
        ratio: float,
        goal: float,
        lower_is_better: bool = True,
        over: str = "corpus",
        base_ms: float = parse,
    ) -> None:
        met = ratio <= goal if lower_is_better else ratio >= goal
        low, high = spread[over]
        # ratio = figure / yardstick (or, for a rate, figure x yardstick): its value at the
        # yardstick's extremes
        ends = (
            sorted([ratio * base_ms / low, ratio * base_ms / high])
            if lower_is_better
            else (sorted([ratio * low / base_ms, ratio * high / base_ms]))
        )
        rows.append(
            (
                name,
                now,
                target,
                base,
                f"{ratio:.2f} ({ends[0]:.2f}-{ends[1]:.2f})",
                f"{goal:.2f} {'met' if met else 'NOT met'}",
            )
        )

    rate = r["cli_rosters_per_cpu_s"]
    row(
        "validate of the corpus, CLI",
        f"{rate:.0f}/CPU-s (wall {r['cli_rosters_per_wall_s']:.0f}/s, {cpus} CPUs)",
        f">= {TARGET_CLI_ROSTERS_PER_S:.0f}/s on 2 CPUs",
        f"parse {r['parse_files_per_s']:.0f}/CPU-s",
        rate / r["parse_files_per_s"],
        cli_target_ratio,
        lower_is_better=False,
    )
    per = r["inproc_load_ms_per_roster"] + r["inproc_eval_ms_per_roster"]
    row(
        "load + evaluate per roster",
        f"{r['inproc_load_ms_per_roster']:.2f} + {r['inproc_eval_ms_per_roster']:.2f} ms",
        f"<= {TARGET_ROSTER_MS} ms",
        f"parse {parse:.2f} ms",
        per / parse,
        TARGET_ROSTER_MS / IDLE_PARSE_MS,
    )
    if "inproc_cold_eval_ms_per_roster" in r:
        cold = r["inproc_cold_load_ms_per_roster"] + r["inproc_cold_eval_ms_per_roster"]
        row(
            "  the same, each roster's first pass",
            f"{r['inproc_cold_load_ms_per_roster']:.2f} + "
            f"{r['inproc_cold_eval_ms_per_roster']:.2f} ms",
            f"<= {TARGET_ROSTER_MS} ms",
            f"parse {parse:.2f} ms",
            cold / parse,
            TARGET_ROSTER_MS / IDLE_PARSE_MS,
        )
    rows.append(
        ("bare C YAML parse per file", f"{parse:.2f} ms", "the floor", "itself", "1.00", "1.00")
    )
    row(
        "CLI start, validate 1 small roster",
        f"{1000 * r['cli_startup_s']:.0f} ms",
        f"<= {TARGET_STARTUP_MS:.0f} ms",
        f"python -c pass {python:.0f} ms",
        1000 * r["cli_startup_s"] / python,
        TARGET_STARTUP_MS / IDLE_PYTHON_MS,
        over="python",
        base_ms=python,
    )
    rbase = f"parse {rparse:.2f} ms (301 files)"
    row(
        "regiment full evaluation, median",
        f"{r['reval_median_ms']:.1f} ms (p95 {r['reval_p95_ms']:.1f})",
        f"<= {TARGET_REGIMENT_EVAL_MS:.0f} ms",
        rbase,
        r["reval_median_ms"] / rparse,
        TARGET_REGIMENT_EVAL_MS / IDLE_PARSE_MS,
        over="default",
        base_ms=rparse,
    )
    if "reval_settled_median_ms" in r:
        row(
            "  the same, heap settled as the builder's",
            f"{r['reval_settled_median_ms']:.1f} ms (p95 {r['reval_settled_p95_ms']:.1f})",
            f"<= {TARGET_REGIMENT_EVAL_MS:.0f} ms",
            rbase,
            r["reval_settled_median_ms"] / rparse,
            TARGET_REGIMENT_EVAL_MS / IDLE_PARSE_MS,
            over="default",
            base_ms=rparse,
        )
    row(
        "edit in an edit session (add + evaluate)",
        f"{r['session_add_ms']:.2f} ms (rename {r['session_rename_ms']:.2f})",
        f"<= {TARGET_SESSION_EDIT_MS:.0f} ms",
        rbase,
        r["session_add_ms"] / rparse,
        TARGET_SESSION_EDIT_MS / IDLE_PARSE_MS,
        over="default",
        base_ms=rparse,
    )
    row(
        "opening the regiment to edit (lazy)",
        f"{r['regiment_load_lazy_ms']:.0f} ms (session shown {r['session_open_lazy_ms']:.0f}; "
        f"document built in a worker, {r['regiment_lazy_first_edit_ms']:.0f} if an edit waits)",
        f"<= {TARGET_ROUND_TRIP_MS:.0f} ms",
        rbase,
        r["regiment_load_lazy_ms"] / rparse,
        TARGET_ROUND_TRIP_MS / IDLE_PARSE_MS,
        over="default",
        base_ms=rparse,
    )
    row(
        "round-trip load of the regiment (eager)",
        f"{r['regiment_load_round_trip_ms']:.0f} ms",
        f"<= {TARGET_ROUND_TRIP_MS:.0f} ms",
        rbase,
        r["regiment_load_round_trip_ms"] / rparse,
        TARGET_ROUND_TRIP_MS / IDLE_PARSE_MS,
        over="default",
        base_ms=rparse,
    )
    head = (
        "figure (CPU time)",
        "now",
        "target (idle)",
        "baseline, same run",
        "ratio (range)",
        "target ratio",
    )
    widths = [max(len(x[i]) for x in [head, *rows]) for i in range(6)]
    lines = [
        "issue 17 figures (ratio = figure / baseline; the target ratio uses the idle "
        f"baselines: parse {IDLE_PARSE_MS} ms, python {IDLE_PYTHON_MS:.0f} ms; range: the "
        "ratio over the baseline's slowest and fastest sample)"
    ]
    for x in [head, *rows]:
        lines.append("  " + "  ".join(v.ljust(w) for v, w in zip(x, widths, strict=True)).rstrip())
    lines.append(
        "  (the builder's figure, editor with a roster to the roster shown, is printed by "
        "bench_tui.py)"
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def print_counts() -> int:
    """``--counts``: what :func:`evaluation_work` counts for the regiment, alone (no timing)."""
    for key in _ENV_OVERRIDES:
        os.environ.pop(key, None)
    with tempfile.TemporaryDirectory(prefix="armybuilder-bench-") as scratch:
        path = Path(scratch) / "regiment.yaml"
        path.write_text(regiment_roster(), encoding="utf-8")
        with armybuilder_home(Path(scratch) / "home"):
            lib = Library().scan()
            roster = Roster.from_file(path)
            gs = lib.system(roster.system)
            got = evaluation_work(roster, gs.index(roster.faction), gs.rules)
    print(
        f"regiment, one evaluation: {got['eval_calls']:,.0f} Python calls "
        f"({got['eval_calls_generic']:,.0f} without the rules module), "
        f"{got['eval_objects_kept']:,.0f} objects kept alive"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rosters", type=int, metavar="N", help="varied rosters (default 300)")
    parser.add_argument("--out", metavar="DIR", help="write the corpus here (kept)")
    parser.add_argument("--quick", action="store_true", help="30 rosters, fewer repeats")
    parser.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    parser.add_argument("--seed", type=int, default=20240601, help="corpus seed")
    parser.add_argument(
        "--counts",
        action="store_true",
        help="only the regiment's counted figures (calls, objects kept): seconds, not minutes",
    )
    args = parser.parse_args(argv)
    if args.counts:
        return print_counts()
    settings = QUICK if args.quick else FULL
    if args.rosters is not None:
        if args.rosters < 1:
            parser.error("--rosters must be at least 1")
        settings = Settings(**{**settings.__dict__, "rosters": args.rosters})
    for key in _ENV_OVERRIDES:
        os.environ.pop(key, None)

    info = machine()
    print(
        f"armybuilder {info['armybuilder']} · {info['python']} · {info['platform']} · "
        f"{info['cpu_count']} CPUs · {info['date']} · sources {info['source_fingerprint']}"
    )
    started = time.perf_counter()
    scratch = Path(tempfile.mkdtemp(prefix="armybuilder-bench-"))
    try:
        out = Path(args.out) if args.out else scratch / "corpus"
        corpus = generate(out, settings.rosters, args.seed)
        print(f"corpus: {len(corpus.files)} rosters in {out}", flush=True)
        results: dict[str, Any] = {}
        # The parse yardstick is sampled in a fresh process at the start, after section a.
        # and at the end (measure_baselines), so that it meets the neighbours of the whole run.
        yard = ParseYardstick(settings.rosters)
        yard_env = cli_env(scratch / "warm", scratch / "pycache")
        probe_parse(yard, corpus, yard_env, yardstick_passes(settings))
        scan, lib = measure_scan(settings, scratch)
        results.update(scan)
        with armybuilder_home(scratch / "warm"):
            figures, misses = measure_throughput(settings, lib, corpus)
            results.update(figures)
            probe_parse(yard, corpus, yard_env, yardstick_passes(settings))
            results.update(measure_regiment(settings, lib, corpus))
        results.update(measure_cli(settings, corpus, scratch / "warm", scratch, yard))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if source_fingerprint() != info["source_fingerprint"]:
        print(
            "warning: armybuilder sources or catalogs changed during the run; "
            "these figures mix two versions",
            file=sys.stderr,
        )
        info["source_changed_during_run"] = True
    print()
    print(table(results, settings))
    print()
    print(targets_table(results))
    if misses:
        shown = ", ".join(p.name for p in misses[:10])
        print(f"\nwarning: verdicts not as generated: {shown}", file=sys.stderr)
    load = info["load_average_1_5_15"]
    busy = f"; load average at start {load[0]:.1f} on {info['cpu_count']} CPUs" if load else ""
    print(f"\n(benchmark took {time.perf_counter() - started:.1f} s{busy})")
    if args.json:
        payload = {
            "machine": info,
            "settings": {**settings.__dict__, "quick": args.quick, "seed": args.seed},
            "frame_budget_ms": FRAME_BUDGET_MS,
            "results": results,
        }
        Path(args.json).write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
