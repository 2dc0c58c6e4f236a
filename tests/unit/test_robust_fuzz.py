"""Fuzzing the command line with rosters and catalogs (hypothesis).

Every example is run in process through ``armybuilder.cli.main`` (``validate``, ``show``,
``check-catalog``, ``export --to json``, and the JSON forms), with its output captured. For
any input, valid, odd or garbage:

* the exit code is 0, 1 or 2 and no Python traceback is printed (an exception escaping
  ``main`` fails the test with the input that caused it);
* every command finishes within a deadline (hypothesis' own, and a hard alarm for hangs);
* the JSON printed is JSON (no ``NaN`` or ``Infinity``).

Inputs: rosters generated as YAML (valid structures with random entry ids, counts, names,
experience, campaign state and nesting), random bytes, examples with random edits; catalogs:
the bundled ones with random structural changes, and small random catalogs with random
costs, constraints, modifiers, conditions and repeats. The examples are derandomized (the same
in every run, so CI is reproducible); ``max_examples`` keeps the whole file to about a minute
and a half on a shared 2-CPU machine.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import shutil
import signal
import tempfile
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from armybuilder.cli import main

REPO = Path(__file__).resolve().parents[2]
CATALOGS = REPO / "catalogs"
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))
SYSTEMS = sorted(p.name for p in CATALOGS.iterdir() if (p / "system.yaml").is_file())

#: A hard stop for one command (a hang fails the test instead of stalling CI).
HARD_SECONDS = 60

#: ``ARMYBUILDER_FUZZ_EXAMPLES=500`` explores further with fresh random examples (not in CI).
_EXPLORE = int(os.environ.get("ARMYBUILDER_FUZZ_EXAMPLES", "0"))
#: The derandomized examples CI runs: 10 per test reach every (command, exit code) pair the
#: 25 of before reached (``ARMYBUILDER_FUZZ_STATS=1``); ``ARMYBUILDER_SLOW_ALL=1`` runs the 25.
_FIXED = 25 if os.environ.get("ARMYBUILDER_SLOW_ALL") else 10
FUZZ = settings(
    max_examples=_EXPLORE or _FIXED,
    deadline=timedelta(seconds=60),  # a hard alarm catches hangs; a busy CI machine is slow
    derandomize=not _EXPLORE,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
#: Exit codes seen per test and command (``ARMYBUILDER_FUZZ_STATS=1`` prints them).
STATS: Counter[tuple[str, str, int]] = Counter()


# --------------------------------------------------------------------------- running


@contextlib.contextmanager
def hard_limit(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: Any) -> None:
        raise TimeoutError(f"a command ran for more than {seconds} s")

    if not hasattr(signal, "SIGALRM"):  # not on Windows: hypothesis' deadline still applies
        yield
        return
    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise AssertionError(f"{constant} in the JSON output")

    return json.loads(text, parse_constant=refuse)


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with hard_limit(HARD_SECONDS), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse
            code = int(exc.code or 0)
    o, e = out.getvalue(), err.getvalue()
    test = os.environ.get("PYTEST_CURRENT_TEST", "?").split("::")[-1].split(" ")[0]
    STATS[
        (test, " ".join(a for a in argv if a.startswith(("-", "v", "s", "e", "c")))[:40], code)
    ] += 1
    assert code in (0, 1, 2), (argv, code, o[-2000:], e[-2000:])
    assert "Traceback" not in o + e, e[-3000:]
    return code, o, e


def check_roster(path: Path, extra: tuple[str, ...] = ()) -> None:
    """Every command a roster goes through, with the promises above."""
    cli("validate", *extra, str(path))
    code, out, _ = cli("validate", "--format", "json", *extra, str(path))
    data = strict_json(out)
    assert data["summary"]["files"] == 1
    code, out, _ = cli("show", *extra, str(path))
    code, out, _ = cli("show", "--format", "json", *extra, str(path))
    if code != 2:
        strict_json(out)
    code, out, _ = cli("export", str(path), "--to", "json", *extra)
    if code != 2:
        strict_json(out)


# --------------------------------------------------------------------------- YAML text


def _scalar(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return ".nan"
        if math.isinf(v):
            return ".inf" if v > 0 else "-.inf"
        return repr(v)
    # A JSON string (control characters escaped, the rest as is) is a YAML double-quoted one.
    return json.dumps(str(v), ensure_ascii=False)


def to_yaml(v: Any, indent: int = 0) -> str:
    """Block YAML for mappings and lists of mappings (so that positions are lines), flow
    for the rest."""
    pad = " " * indent
    if isinstance(v, dict) and v:
        lines = []
        for k, x in v.items():
            key = _scalar(k) if not isinstance(k, str) or not k.isidentifier() else k
            if isinstance(x, dict | list) and x:
                lines.append(f"{pad}{key}:\n{to_yaml(x, indent + 2)}")
            else:
                lines.append(f"{pad}{key}: {flow(x)}")
        return "\n".join(lines)
    if isinstance(v, list) and v:
        out = []
        for x in v:
            if isinstance(x, dict) and x:
                inner = to_yaml(x, indent + 2)
                out.append(f"{pad}- {inner.lstrip()}")
            else:
                out.append(f"{pad}- {flow(x)}")
        return "\n".join(out)
    return pad + flow(v)


def flow(v: Any) -> str:
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_scalar(k)}: {flow(x)}" for k, x in v.items()) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    return _scalar(v)


# --------------------------------------------------------------------------- catalogs' ids


def _load(path: Path) -> Any:
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


def _ids(data: Any, key: str) -> set[str]:
    found: set[str] = set()
    stack = [data]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for k, v in node.items():
                if k == key and isinstance(v, str):
                    found.add(v)
                stack.append(v)
        elif isinstance(node, list):
            stack.extend(node)
    return found


CATALOG_DATA: dict[str, dict[str, Any]] = {
    s: {p.name: _load(p) for p in sorted((CATALOGS / s).glob("*.yaml"))} for s in SYSTEMS
}
FACTIONS = {
    s: sorted(d["id"] for d in files.values() if d.get("kind") == "catalog")
    for s, files in CATALOG_DATA.items()
}
ENTRY_IDS = {
    s: sorted(_ids(files, "id") | _ids(files, "link")) for s, files in CATALOG_DATA.items()
}
STATE_KEYS = ["actions", "wounds", "psi_spent", "ammo_used", "hits", "experience", "kills", "x"]

#: Unicode categories left out of text (surrogates cannot be written as UTF-8; the others
#: are for text that reads as one YAML scalar).
NO_SURROGATES: Any = ("Cs",)
PLAIN: Any = ("Cs", "Cc", "Cf", "Zl", "Zp")
ids = st.from_regex(r"[a-z][a-z0-9]{0,6}(-[a-z0-9]{1,5}){0,2}", fullmatch=True)
odd_text = st.one_of(
    st.text(st.characters(blacklist_categories=PLAIN), max_size=12),
    st.text(st.characters(blacklist_categories=NO_SURROGATES), max_size=6),
)
numbers = st.one_of(
    st.integers(-3, 12),
    st.integers(10**4 - 2, 10**4 + 2),
    st.sampled_from([10**6, 10**9 + 1, 10**100, -(10**30), 2**63]),
    st.floats(allow_nan=True, allow_infinity=True),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, odd_text, ids)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.one_of(ids, odd_text), inner, max_size=3)
    ),
    max_leaves=6,
)


@st.composite
def selection(draw: st.DrawFn, system: str, depth: int) -> Any:
    if draw(st.integers(0, 20)) == 0:
        return draw(values)  # not a mapping at all
    sel: dict[str, Any] = {
        "entry": draw(
            st.one_of(st.sampled_from(ENTRY_IDS[system]), ids, scalars)
            if draw(st.integers(0, 4)) == 0
            else st.sampled_from(ENTRY_IDS[system])
        )
    }
    if draw(st.booleans()):
        sel["count"] = draw(st.one_of(st.integers(1, 8), numbers, scalars))
    if draw(st.integers(0, 3)) == 0:
        sel["name"] = draw(st.one_of(odd_text, values))
    if draw(st.integers(0, 3)) == 0:
        sel["experience"] = draw(
            st.one_of(st.sampled_from(["green", "regular", "veteran", "elite"]), scalars)
        )
    if draw(st.integers(0, 3)) == 0:
        sel["state"] = draw(
            st.one_of(
                st.dictionaries(st.one_of(st.sampled_from(STATE_KEYS), ids), values, max_size=3),
                values,
            )
        )
    if draw(st.integers(0, 8)) == 0:
        sel[draw(ids)] = draw(values)
    if depth > 0 and draw(st.integers(0, 2)) > 0:
        sel["selections"] = draw(st.lists(selection(system, depth - 1), max_size=4))
    return sel


@st.composite
def roster(draw: st.DrawFn) -> str:
    system = draw(st.sampled_from(SYSTEMS))
    doc: dict[str, Any] = {
        "format": 1 if draw(st.integers(0, 20)) else draw(scalars),
        "system": system if draw(st.integers(0, 15)) else draw(st.one_of(ids, scalars)),
        "faction": draw(st.sampled_from(FACTIONS[system]))
        if draw(st.integers(0, 15))
        else draw(values),
        "name": draw(odd_text) if draw(st.integers(0, 20)) else draw(values),
    }
    if draw(st.booleans()):
        doc["limits"] = draw(
            st.dictionaries(
                st.sampled_from(["kg", "bp", "pts", "value", "x"]),
                st.integers(0, 5000) if draw(st.integers(0, 5)) else numbers,
                max_size=2,
            )
        )
    doc["selections"] = draw(st.lists(selection(system, 3), max_size=5))
    return to_yaml(doc) + "\n"


# --------------------------------------------------------------------------- text edits

SNIPPETS = [
    ": ",
    "- ",
    "[",
    "]",
    "{",
    "}",
    "&a ",
    "*a",
    "!!int ",
    "!!float ",
    "\t",
    "\x00",
    "\n  ",
    "\n- ",
    "'",
    '"',
    "#",
    "? ",
    "|",
    ">",
    "\ufeff",
    "9" * 400,
    ".nan",
    "~",
]


@st.composite
def edited(draw: st.DrawFn, text: str) -> str:
    for _ in range(draw(st.integers(1, 4))):
        lines = text.split("\n")
        op = draw(st.integers(0, 4))
        at = draw(st.integers(0, max(len(text) - 1, 0)))
        if op == 0:
            text = text[:at] + text[at + draw(st.integers(1, 12)) :]
        elif op == 1:
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
        elif op == 2:
            text = (
                text[:at]
                + draw(st.text(st.characters(blacklist_categories=NO_SURROGATES), max_size=6))
                + text[at:]
            )
        elif op == 3 and len(lines) > 1:
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i] = lines[j]
            text = "\n".join(lines)
        else:
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            text = "\n".join(lines)
    return text


# --------------------------------------------------------------------------- catalog changes


def _nearby(value: Any, data: Any) -> Any:
    """A value like ``value`` (mostly of its kind, so the catalog often stays valid)."""
    draw_odd = st.integers(0, 9).map(lambda n: n == 0)
    if isinstance(value, bool):
        kind: Any = st.just(not value)
    elif isinstance(value, int | float):
        kind = st.one_of(st.integers(-2, 60), st.just(value * 2), st.just(-value))
    elif isinstance(value, str):
        kind = st.sampled_from(sorted(_ids(data, "id") | {value}))
    else:
        kind = values
    return draw_odd.flatmap(lambda odd: values if odd else kind)


@st.composite
def mutated(draw: st.DrawFn, data: Any) -> Any:
    """``data`` (a catalog document) with one value somewhere replaced, removed or copied."""
    data = json.loads(json.dumps(data))  # a deep copy
    node = data
    for _ in range(12):
        if isinstance(node, dict) and node and draw(st.integers(0, 3)):
            key = draw(st.sampled_from(sorted(node, key=str)))
            child = node[key]
            if isinstance(child, dict | list) and child and draw(st.integers(0, 2)):
                node = child
                continue
            if draw(st.integers(0, 5)) == 0:
                del node[key]
            else:
                node[key] = draw(_nearby(child, data))
            return data
        if isinstance(node, list) and node:
            i = draw(st.integers(0, len(node) - 1))
            child = node[i]
            if isinstance(child, dict | list) and child and draw(st.integers(0, 3)):
                node = child
                continue
            op = draw(st.integers(0, 2))
            if op == 0:
                node.append(json.loads(json.dumps(child)))
            elif op == 1:
                del node[i]
            else:
                node[i] = draw(_nearby(child, data))
            return data
        break
    if isinstance(node, dict):
        node[draw(ids)] = draw(values)
    return data


# --------------------------------------------------------------------------- random catalogs

COST_TYPES = ["pts", "kg"]
REFS = ["e1", "e2", "e3", "e4", "c1", "c2", "g1"]


@st.composite
def query(draw: st.DrawFn) -> dict[str, Any]:
    q: dict[str, Any] = {
        "field": draw(st.sampled_from(["selections", "selections", "pts", "kg"])),
        "scope": draw(st.sampled_from(["self", "parent", "roster", "force", "e1", "e2"])),
    }
    if draw(st.booleans()):
        q["child"] = draw(st.sampled_from(REFS))
    if draw(st.integers(0, 3)) == 0:
        q["deep"] = draw(st.booleans())
    return q


@st.composite
def modifier(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(st.sampled_from(["set", "increment", "decrement", "append"]))
    field = draw(
        st.sampled_from(
            [
                "cost:pts",
                "cost:pts",
                "cost:kg",
                "name",
                "hidden",
                "constraint:k1",
                "characteristic:move",
                "characteristic:save",
            ]
        )
    )
    fitting: st.SearchStrategy[Any]
    if field == "hidden":
        kind, fitting = "set", st.booleans()
    elif field == "name":
        kind, fitting = draw(st.sampled_from(["set", "append"])), odd_text
    elif field == "characteristic:save":
        kind, fitting = draw(st.sampled_from(["set", "append"])), st.sampled_from(["3+", "5+"])
    else:
        kind = kind if kind != "append" else "increment"
        fitting = st.integers(-5, 50)
    odd = draw(st.integers(0, 9)) == 0  # now and then a value that does not fit
    mod: dict[str, Any] = {
        "type": draw(st.sampled_from(["set", "increment", "decrement", "append"])) if odd else kind,
        "field": field,
        "value": draw(st.one_of(st.booleans(), odd_text, numbers) if odd else fitting),
    }
    if draw(st.booleans()):
        cond = draw(query())
        cond["type"] = draw(
            st.sampled_from(
                [
                    "less-than",
                    "greater-than",
                    "equal-to",
                    "not-equal-to",
                    "at-least",
                    "at-most",
                    "instance-of",
                    "not-instance-of",
                ]
            )
        )
        cond["value"] = draw(st.integers(0, 100) if draw(st.integers(0, 9)) else numbers)
        mod["conditions"] = [cond]
    if draw(st.integers(0, 2)) == 0:
        rep = draw(query())
        rep["value"] = draw(st.integers(1, 20) if draw(st.integers(0, 9)) else numbers)
        rep["repeats"] = draw(
            st.integers(0, 3) if draw(st.integers(0, 9)) else st.integers(-2, 2000)
        )
        rep["round_up"] = draw(st.booleans())
        mod["repeat"] = rep
    return mod


@st.composite
def entry(draw: st.DrawFn, eid: str, depth: int) -> dict[str, Any]:
    e: dict[str, Any] = {
        "id": eid,
        "name": eid.upper(),
        "type": draw(st.sampled_from(["unit", "model", "upgrade"])),
        "categories": draw(st.lists(st.sampled_from(["c1", "c2"]), max_size=2, unique=True)),
        "costs": draw(
            st.dictionaries(
                st.sampled_from(COST_TYPES),
                st.integers(0, 100) if draw(st.integers(0, 9)) else numbers,
                max_size=2,
            )
        ),
        "profiles": [
            {"type": "model", "characteristics": {"move": draw(st.integers(0, 9)), "save": "4+"}}
        ],
    }
    cons = []
    for _ in range(draw(st.integers(0, 2))):
        c = draw(query())
        c["type"] = draw(st.sampled_from(["min", "max"]))
        c["value"] = draw(st.integers(-1, 10) if draw(st.integers(0, 9)) else numbers)
        if draw(st.booleans()):
            c["id"] = "k1"
        cons.append(c)
    if cons:
        e["constraints"] = cons
    mods = draw(st.lists(modifier(), max_size=3))
    if mods:
        e["modifiers"] = mods
    if depth > 0 and draw(st.booleans()):
        e["entries"] = [{"link": draw(st.sampled_from(["e3", "e4"]))}]
        if draw(st.booleans()):
            e["groups"] = [
                {
                    "id": "g1" if depth == 2 else f"g{depth}x",
                    "name": "G",
                    "min": draw(st.integers(0, 2)),
                    "max": draw(st.one_of(st.none(), st.integers(0, 3))),
                    "entries": [{"link": "e4"}],
                }
            ]
    return e


@st.composite
def small_catalog(draw: st.DrawFn) -> tuple[str, str, str]:
    system = {
        "kind": "system",
        "id": "fuzz",
        "name": "Fuzz",
        "cost_types": [{"id": c, "name": c.upper()} for c in COST_TYPES],
        "profile_types": [
            {
                "id": "model",
                "name": "Model",
                "characteristics": [{"id": "move", "name": "Move"}, {"id": "save", "name": "Save"}],
            }
        ],
        "categories": [{"id": "c1", "name": "C1"}, {"id": "c2", "name": "C2"}],
        "forces": [
            {
                "id": "band",
                "name": "Band",
                "slots": [
                    {
                        "category": "c1",
                        "min": draw(st.integers(0, 1)),
                        "max": draw(st.one_of(st.none(), st.integers(0, 3))),
                    }
                ],
            }
        ],
        "shared_entries": [draw(entry("e3", 0)), draw(entry("e4", 0))],
    }
    faction = {
        "kind": "catalog",
        "id": "band",
        "system": "fuzz",
        "name": "Band",
        "entries": [draw(entry("e1", 2)), draw(entry("e2", 1))],
    }
    doc = {"format": 1, "system": "fuzz", "faction": "band", "name": "R"}
    if draw(st.booleans()):
        doc["limits"] = {"pts": draw(st.one_of(st.integers(0, 500), numbers))}

    def sels(depth: int) -> Any:
        return st.lists(
            st.fixed_dictionaries(
                {"entry": st.sampled_from(["e1", "e2", "e3", "e4", "zz"])},
                optional={
                    "count": st.one_of(st.integers(1, 5), numbers),
                    **({"selections": sels(depth - 1)} if depth else {}),
                },
            ),
            max_size=3,
        )

    doc["selections"] = draw(sels(2))
    return to_yaml(system) + "\n", to_yaml(faction) + "\n", to_yaml(doc) + "\n"


# --------------------------------------------------------------------------- the tests


@contextlib.contextmanager
def folder() -> Iterator[Path]:
    path = Path(tempfile.mkdtemp(prefix="armybuilder-fuzz-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


@FUZZ
@given(text=roster())
def test_generated_rosters(text: str) -> None:
    with folder() as tmp:
        p = tmp / "roster.yaml"
        p.write_text(text, encoding="utf-8")
        check_roster(p)


@FUZZ
@given(data=st.data())
def test_garbage_rosters(data: st.DataObject) -> None:
    with folder() as tmp:
        p = tmp / "roster.yaml"
        if data.draw(st.integers(0, 3)) == 0:
            p.write_bytes(data.draw(st.binary(max_size=400)))
        else:
            example = data.draw(st.sampled_from(EXAMPLES))
            p.write_text(data.draw(edited(example.read_text(encoding="utf-8"))), "utf-8")
        check_roster(p)


@FUZZ
@given(data=st.data())
def test_mutated_bundled_catalogs(data: st.DataObject) -> None:
    system = data.draw(st.sampled_from(SYSTEMS))
    files = CATALOG_DATA[system]
    name = data.draw(st.sampled_from(sorted(files)))
    with folder() as tmp:
        root = tmp / "catalogs"
        (root / system).mkdir(parents=True)
        for _ in range(data.draw(st.integers(1, 3))):
            files = {**files, name: data.draw(mutated(files[name]))}
        target = root / system / name
        if data.draw(st.integers(0, 4)) == 0:
            target.write_text(data.draw(edited(to_yaml(files[name]) + "\n")), "utf-8")
        else:
            target.write_text(to_yaml(files[name]) + "\n", "utf-8")
        _, out, _ = cli("check-catalog", "--format", "json", str(target))
        strict_json(out)
        cli("check-catalog", str(root / system))
        examples = [p for p in EXAMPLES if p.parent.name == system]
        check_roster(data.draw(st.sampled_from(examples)), ("--catalogs", str(root)))


@FUZZ
@given(parts=small_catalog())
def test_random_small_catalogs(parts: tuple[str, str, str]) -> None:
    system, faction, roster_text = parts
    with folder() as tmp:
        root = tmp / "catalogs"
        (root / "fuzz").mkdir(parents=True)
        (root / "fuzz" / "system.yaml").write_text(system, "utf-8")
        (root / "fuzz" / "band.yaml").write_text(faction, "utf-8")
        cli("check-catalog", str(root / "fuzz"))
        p = tmp / "roster.yaml"
        p.write_text(roster_text, "utf-8")
        check_roster(p, ("--catalogs", str(root)))


def test_zz_stats() -> None:
    """Prints what the examples exercised (``ARMYBUILDER_FUZZ_STATS=1 pytest -s``)."""
    if os.environ.get("ARMYBUILDER_FUZZ_STATS"):
        for key, n in sorted(STATS.items()):
            print(key, n)
