"""Run the BattleScribe roster conformance specs against armybuilder, in process.

``python -m armybuilder.interop.battlescribe.conformance DIR`` runs every ``*.yaml`` spec
under DIR (e.g. ``../shared/battlescribe-spec/specs/roster``) through the adapter
(:class:`~.adapter.AdapterSession`, the same one ``armybuilder bs-adapter`` serves) and prints
the pass rate per category and the reason each failing spec fails. ``--json`` prints the same
as JSON. Exit status: 0 when every spec passes, 1 otherwise, 2 when DIR holds no spec.

Each spec's assertions are checked as the suite's own runner checks them: lists (forces,
selections, children, profiles, rules, categories) compare in order and must have the same
length; costs are an exact set keyed by cost type; characteristics are matched by name; errors
match by owner (``on``) and origin (``from``), as an exact set (``errors``), a subset
(``errorsContain``) or a count (``errorCount``), and a step that asserts none expects none.
Where a spec expects something different per engine, the base expectation (BattleScribe's)
is the one checked.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import InputError
from ...yamlio import load_safe, read_text
from .adapter import AdapterSession
from .files import data_folder_files

_EXPR = re.compile(r"\$\{\{\s*steps\.([^.\s}]+)\.([^\s}]+)\s*\}\}")


@dataclass
class SpecResult:
    id: str
    category: str
    path: str
    passed: bool
    reason: str = ""


class Mismatch(Exception):
    """An assertion that does not hold (the message says where and how)."""


def load_spec(path: Path) -> dict[str, Any]:
    data = load_safe(read_text(path), str(path))
    if not isinstance(data, dict):
        raise ValueError(f"{path}: not a spec (a mapping with setup and steps)")
    return data


def find_specs(folder: Path) -> list[Path]:
    return sorted(folder.rglob("*.yaml")) if folder.is_dir() else [folder]


# --------------------------------------------------------------------------- steps


def _substitute(value: Any, outputs: dict[str, dict[str, Any]]) -> Any:
    if isinstance(value, str):

        def repl(m: re.Match[str]) -> str:
            found: Any = outputs.get(m.group(1), {})
            for part in m.group(2).split("."):
                if not isinstance(found, dict) or part not in found:
                    raise Mismatch(f"no output {m.group(0)}")
                found = found[part]
            return str(found)

        return _EXPR.sub(repl, value)
    if isinstance(value, dict):
        return {k: _substitute(v, outputs) for k, v in value.items()}
    if isinstance(value, list):
        return [_substitute(v, outputs) for v in value]
    return value


def _data_source(spec: dict[str, Any], data: Path | None) -> dict[str, Any]:
    """The ``setupFromFiles`` command for a spec on real data (``github:Owner/repo@version``):
    the files of ``data/<repo>/`` the spec's forces need."""
    source = str((spec.get("setup") or {}).get("dataSource"))
    repo = source.split("/", 1)[-1].split("@", 1)[0]
    if data is None:
        raise Mismatch(f"setup: real data ({source}) not run; pass --data DIR to run it")
    folder = data / repo
    if not folder.is_dir():
        raise Mismatch(f"setup: no local copy of {source} (looked for {folder})")
    wanted = {str(s["catalogueId"]) for s in spec.get("steps") or [] if "catalogueId" in s}
    files = data_folder_files(folder, wanted)
    return {
        "type": "setupFromFiles",
        "specId": spec.get("id"),
        "files": [{"fileName": n, "content": c} for n, c in files],
    }


def run_spec(
    spec: dict[str, Any],
    session: AdapterSession | None = None,
    data: Path | None = None,
    path: Path | None = None,
) -> None:
    """Run one spec; raises :class:`Mismatch` at the first assertion that fails. ``data``:
    where real data files live (``<data>/<repo>/``), for specs with a ``dataSource``."""
    session = session or AdapterSession()
    setup = spec.get("setup") or {}
    real = "dataSource" in setup
    if real:
        command = _data_source(spec, data)
    else:
        command = {
            "type": "setup",
            "specId": spec.get("id"),
            "gameSystem": setup.get("gameSystem") or {},
            "catalogues": setup.get("catalogues") or [],
        }
    reply = session.handle(command)
    if reply.get("type") != "setupResult" or reply.get("errors"):
        raise Mismatch(f"setup: {reply.get('message') or reply.get('errors')}")
    outputs: dict[str, dict[str, Any]] = {}
    for n, step in enumerate(spec.get("steps") or [], 1):
        where = f"step {n}" + (f" ({step['id']})" if "id" in step else "")
        if "action" in step:
            cmd = {
                k: v
                for k, v in step.items()
                if k not in ("id", "skipEngines", "engines", "expectedState", "expectedFile")
            }
            cmd = _substitute(cmd, outputs)
            cmd["type"] = "action"
            reply = session.handle(cmd)
            if not reply.get("ok"):
                why = reply.get("error") or reply.get("message")
                raise Mismatch(f"{where}: {step['action']} failed: {why}")
            if "id" in step:
                outputs[step["id"]] = dict(reply.get("outputs") or {})
        elif "expectedState" in step:
            state = session.handle({"type": "getState"})
            if state.get("type") != "state":
                raise Mismatch(f"{where}: getState: {state.get('message')}")
            expected = _substitute(step["expectedState"], outputs)
            try:
                check_state(expected, state, implicit_errors=not real)
            except Mismatch as exc:
                raise Mismatch(f"{where}: {exc}") from None
        elif "expectedFile" in step:
            want = _expected_file(spec, step, path)
            reply = session.handle({"type": "exportRosterXml"})
            if reply.get("type") != "rosterXmlResult":
                raise Mismatch(f"{where}: exportRosterXml: {reply.get('message')}")
            _check_file(want, str(reply.get("xml", "")), outputs, where)
    session.handle({"type": "teardown"})


_TEMPLATE = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
_MATCH = re.compile(r"""match\((['"])(.*)\1\)""")


def _expected_file(spec: dict[str, Any], step: dict[str, Any], path: Path | None) -> str:
    """The file a step expects: inline, or beside the spec (BattleScribe's own, where the
    suite keeps one, before the base file)."""
    expected = step.get("expectedFile") or {}
    if "content" in expected:
        return str(expected["content"])
    if path is None:
        raise Mismatch("expectedFile: no spec folder to find the expected file in")
    for name in (
        f"{spec.get('id')}.{step.get('id')}.battlescribe.ros",
        f"{spec.get('id')}.{step.get('id')}.ros",
    ):
        candidate = path.parent / name
        if candidate.is_file():
            return candidate.read_text(encoding="utf-8")
    raise Mismatch(f"expectedFile: no {spec.get('id')}.{step.get('id')}.ros beside the spec")


def _check_file(want: str, got: str, outputs: dict[str, dict[str, Any]], where: str) -> None:
    """Byte for byte (line ends aside), where ``${{ match('re') }}`` matches a pattern and
    ``${{ steps.x.y }}`` an output of a step."""
    pattern = ""
    last = 0
    want = want.replace("\r\n", "\n")
    for m in _TEMPLATE.finditer(want):
        pattern += re.escape(want[last : m.start()])
        inner = _MATCH.fullmatch(m.group(1))
        if inner is not None:
            pattern += f"(?:{inner.group(2)})"
        else:
            pattern += re.escape(_substitute(m.group(0), outputs))
        last = m.end()
    pattern += re.escape(want[last:])
    got = got.replace("\r\n", "\n")
    if re.fullmatch(pattern, got) is None:
        lines_w, lines_g = want.splitlines(), got.splitlines()
        for i, (a, b) in enumerate(zip(lines_w, lines_g, strict=False), 1):
            if re.fullmatch(_line_pattern(a, outputs), b) is None:
                raise Mismatch(f"{where}: exported file differs at line {i}: {b.strip()!r}")
        raise Mismatch(f"{where}: exported file has {len(lines_g)} lines, expected {len(lines_w)}")


def _line_pattern(line: str, outputs: dict[str, dict[str, Any]]) -> str:
    out, last = "", 0
    for m in _TEMPLATE.finditer(line):
        out += re.escape(line[last : m.start()])
        inner = _MATCH.fullmatch(m.group(1))
        out += f"(?:{inner.group(2)})" if inner else re.escape(_substitute(m.group(0), outputs))
        last = m.end()
    return out + re.escape(line[last:])


# --------------------------------------------------------------------------- assertions

_LIST_KEYS = {"forces", "childForces", "selections", "children", "profiles", "rules", "categories"}
_COUNTS = {
    "forceCount": "forces",
    "childForceCount": "childForces",
    "childCount": "children",
    "costCount": "costs",
    "costLimitCount": "costLimits",
    "categoryCount": "categories",
}


def _same(want: Any, got: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return want is got or want == got
    if isinstance(want, int | float) and isinstance(got, int | float):
        return float(want) == float(got)  # exactly, as the suite compares decimals
    return bool(want == got)


def _check_obj(want: dict[str, Any], got: dict[str, Any], path: str) -> None:
    for key, value in want.items():
        here = f"{path}.{key}" if path else key
        if key in ("engines", "errors", "errorsContain", "errorCount"):
            continue
        if key in _COUNTS and _COUNTS[key] not in got and key not in got:
            raise Mismatch(f"{here}: not reported")
        if key in _COUNTS and key not in got:
            actual: Any = len(got[_COUNTS[key]])
            if actual != value:
                raise Mismatch(f"{here}: expected {value}, got {actual}")
            continue
        if key not in got:
            raise Mismatch(f"{here}: expected {value!r}, not reported")
        actual = got[key]
        if key in ("costs", "costLimits"):
            _check_costs(value, actual, here)
        elif key == "characteristics":
            for c in value:
                match = [a for a in actual if a.get("name") == c.get("name")]
                if not match:
                    raise Mismatch(f"{here}: no characteristic {c.get('name')!r}")
                _check_obj(c, match[0], f"{here}[{c.get('name')}]")
        elif key in _LIST_KEYS or isinstance(value, list):
            if len(value) != len(actual):
                names = [a.get("name") for a in actual if isinstance(a, dict)]
                raise Mismatch(f"{here}: expected {len(value)} items, got {len(actual)} {names}")
            for i, (w, a) in enumerate(zip(value, actual, strict=True)):
                if isinstance(w, dict):
                    _check_obj(w, a, f"{here}[{i}]")
                elif not _same(w, a):
                    raise Mismatch(f"{here}[{i}]: expected {w!r}, got {a!r}")
        elif key == "selectionCount" and path == "":
            total = sum(f.get("selectionCount", 0) for f in got.get("forces", []))
            if total != value:
                raise Mismatch(f"{here}: expected {value}, got {total}")
        elif not _same(value, actual):
            raise Mismatch(f"{here}: expected {value!r}, got {actual!r}")


def _check_costs(want: list[dict[str, Any]], got: list[dict[str, Any]], path: str) -> None:
    if len(want) != len(got):
        listed = [(c.get("typeId"), c.get("value")) for c in got]
        raise Mismatch(f"{path}: expected {len(want)} cost types, got {listed}")
    for w in want:
        key = "typeId" if "typeId" in w else "name"
        match = [c for c in got if c.get(key) == w.get(key)]
        if not match:
            raise Mismatch(f"{path}: no cost {w.get(key)!r}")
        _check_obj(w, match[0], f"{path}[{w.get(key)}]")


def _error_matches(want: dict[str, Any], err: dict[str, Any]) -> bool:
    on = str(want.get("on", "")).split()
    if on and err.get("ownerType") != on[0]:
        return False
    if len(on) > 1 and err.get("ownerEntryId") != on[1]:
        return False
    entry, _, constraint = str(want.get("from", "")).rpartition("/")
    if err.get("entryId") != entry or err.get("constraintId") != constraint:
        return False
    text = want.get("messageContains")
    return not text or str(text).lower() in str(err.get("message", "")).lower()


def _describe(err: dict[str, Any]) -> str:
    return (
        f"{err.get('ownerType')} {err.get('ownerEntryId', '')} "
        f"from {err.get('entryId')}/{err.get('constraintId')}: {err.get('message')}"
    )


def check_errors(expected: dict[str, Any], errors: list[dict[str, Any]]) -> None:
    if "errorCount" in expected:
        if len(errors) != expected["errorCount"]:
            raise Mismatch(
                f"errorCount: expected {expected['errorCount']}, got {len(errors)}: "
                + "; ".join(_describe(e) for e in errors)
            )
        return
    exact = "errors" in expected
    wanted = expected.get("errors") if exact else expected.get("errorsContain", [])
    unused = list(errors)
    for w in wanted or []:
        hit = next((e for e in unused if _error_matches(w, e)), None)
        if hit is None and not exact:
            hit = next((e for e in errors if _error_matches(w, e)), None)
        if hit is None:
            raise Mismatch(
                f"error on {w.get('on')} from {w.get('from')} not reported (got: "
                + ("; ".join(_describe(e) for e in errors) or "none")
                + ")"
            )
        if hit in unused:
            unused.remove(hit)
    if (exact or "errorsContain" not in expected) and unused:
        raise Mismatch("unexpected errors: " + "; ".join(_describe(e) for e in unused))


def check_state(
    expected: dict[str, Any], state: dict[str, Any], implicit_errors: bool = True
) -> None:
    """Check one ``expectedState`` against the adapter's ``state`` reply. Without an error
    assertion, no errors are expected (``implicit_errors``; not on real data)."""
    _check_obj(expected, state, "")
    asserted = any(k in expected for k in ("errors", "errorsContain", "errorCount"))
    if asserted or implicit_errors:
        check_errors(expected, state.get("validationErrors") or [])


# --------------------------------------------------------------------------- suite


def run_folder(folder: Path, data: Path | None = None) -> list[SpecResult]:
    """Run every spec under ``folder``; one result per spec. ``data``: real data files
    (one folder per repository); without it, specs on real data fail unrun (each takes
    seconds: they stay out of the in-process run the tests time)."""
    results = []
    session = AdapterSession()
    for path in find_specs(folder):
        category = path.parent.name
        try:
            spec = load_spec(path)
        except (OSError, ValueError, InputError) as exc:
            results.append(SpecResult(path.stem, category, str(path), False, f"unreadable: {exc}"))
            continue
        sid = str(spec.get("id") or path.stem)
        category = str(spec.get("category") or category)
        try:
            run_spec(spec, session, data, path)
        except Mismatch as exc:
            results.append(SpecResult(sid, category, str(path), False, str(exc)))
        except Exception as exc:
            results.append(
                SpecResult(sid, category, str(path), False, f"crash: {type(exc).__name__}: {exc}")
            )
        else:
            results.append(SpecResult(sid, category, str(path), True))
        session.reset()
    return results


def summary(results: list[SpecResult]) -> dict[str, tuple[int, int]]:
    """Passed and total per category."""
    out: dict[str, list[int]] = {}
    for r in results:
        row = out.setdefault(r.category, [0, 0])
        row[0] += r.passed
        row[1] += 1
    return {k: (v[0], v[1]) for k, v in sorted(out.items())}


def _reason_kind(reason: str) -> str:
    """A failure reason without its specifics, to count failures by kind."""
    text = re.sub(r"^step \d+( \([^)]*\))?: ", "", reason)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|\[[^\]]*\]|\d+", "_", text)
    return text[:90]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m armybuilder.interop.battlescribe.conformance",
        description="Run BattleScribe roster conformance specs; print pass rates and reasons.",
    )
    parser.add_argument(
        "folder", metavar="DIR", help="a folder of spec YAML files (searched deeply)"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument(
        "--data",
        metavar="DIR",
        help="real BattleScribe data, one folder per repository (e.g. ../shared/bsdata): "
        "runs the specs on real data too (slow)",
    )
    parser.add_argument("--kinds", action="store_true", help="also count failures by kind")
    parser.add_argument(
        "--write-ratchet",
        metavar="FILE",
        help="record the passing specs in FILE (the figure the ratchet test holds)",
    )
    args = parser.parse_args(argv)
    folder = Path(args.folder)
    if not folder.exists():
        print(f"conformance: {folder}: no such folder", file=sys.stderr)
        return 2
    results = run_folder(folder, Path(args.data) if args.data else None)
    if not results:
        print(f"conformance: {folder}: no *.yaml specs found", file=sys.stderr)
        return 2
    passed = sum(r.passed for r in results)
    if args.write_ratchet:
        record = {"passing": passed, "total": len(results)}
        record["specs"] = sorted(f"{r.category}/{r.id}" for r in results if r.passed)  # type: ignore[assignment]
        Path(args.write_ratchet).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    if args.json:
        print(
            json.dumps(
                {
                    "passed": passed,
                    "total": len(results),
                    "categories": {
                        k: {"passed": p, "total": t} for k, (p, t) in summary(results).items()
                    },
                    "specs": [r.__dict__ for r in results],
                },
                indent=2,
            )
        )
    else:
        for cat, (p, t) in summary(results).items():
            print(f"{cat:16} {p:4}/{t:<4} {100 * p / t:5.1f}%")
        print(f"{'total':16} {passed:4}/{len(results):<4} {100 * passed / len(results):5.1f}%")
        print()
        for r in results:
            if not r.passed:
                print(f"FAIL {r.category}/{r.id}: {r.reason}")
        if args.kinds:
            print()
            kinds = Counter(_reason_kind(r.reason) for r in results if not r.passed)
            for kind, n in kinds.most_common():
                print(f"{n:4}  {kind}")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
