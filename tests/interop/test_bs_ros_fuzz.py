"""Odd BattleScribe roster files (``.ros``, zipped ``.rosz``) through every command and the
edit session (hypothesis).

A roster of the Gaslands data (``../shared/bsdata``; these tests skip with a message where it
is absent) is built through the adapter, then changed: attribute values of the wrong type or
size (a number that is no number, ``1e400``, an id nothing has, unicode and very long
names), markup cut or broken (``<``, ``&``, a declaration of entities, a NUL), an element
copied, deep nesting, a byte order mark, Windows line ends, a cut-off end; zipped, or a zip
that is broken. For each:

* ``validate`` (text and JSON), ``show``, ``export --to json`` and ``export --to ros`` exit 0,
  1 or 2, print no traceback and finish (a hard alarm); an unreadable file is named, and its
  problem has a line wherever the XML itself is broken;
* the edit session opens it or raises :class:`RosterError` naming the file; one that opens
  saves as YAML beside it and never writes over the ``.ros``.

The examples are derandomized (the same in every run)."""

from __future__ import annotations

import contextlib
import io
import json
import signal
import zipfile
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.catalog import Library
from armybuilder.cli import main
from armybuilder.errors import RosterError
from armybuilder.interop.battlescribe import ros
from armybuilder.interop.battlescribe.adapter import AdapterSession
from armybuilder.interop.battlescribe.library import BattleScribeSystem
from armybuilder.interop.battlescribe.rosfile import add_force, select
from armybuilder.session import EditSession

ROOT = Path(__file__).resolve().parents[2]
BSDATA = ROOT.parent / "shared" / "bsdata"
TEAM, BIKE, CAR = "60bf-0f00-db63-fb4e", "dcb1-8c0e-c647-a042", "ebb5-bde6-e221-9acc"

pytestmark = pytest.mark.skipif(
    not (BSDATA / "gaslands").is_dir(), reason=f"the BattleScribe test data is not at {BSDATA}"
)

FUZZ = settings(
    max_examples=20,
    deadline=timedelta(seconds=60),
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def lib(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    cache = tmp_path_factory.mktemp("cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_CACHE_DIR", str(cache))
        yield Library([BSDATA / "gaslands"]).scan()


@pytest.fixture(scope="module")
def base(lib: Library) -> str:
    gs = lib.system("gaslands")
    assert isinstance(gs, BattleScribeSystem)
    s = AdapterSession()
    s.t = gs.translation_of(["gaslands"])
    s.name = "Team"
    force = add_force(s, gs, "gaslands", TEAM)
    select(s, BIKE, force=force)
    select(s, CAR, force=force)
    text = ros.dumps(s)
    # What another tool wrote that armybuilder does not read.
    return text.replace("  <forces>", '  <tags><tag name="league">Autumn</tag></tags>\n  <forces>')


@contextlib.contextmanager
def hard_limit(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: Any) -> None:
        raise TimeoutError(f"more than {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with hard_limit(60), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    o, e = out.getvalue(), err.getvalue()
    assert code in (0, 1, 2), (argv, code, o[-2000:], e[-2000:])
    assert "Traceback" not in o + e, e[-3000:]
    return code, o, e


ODD_VALUES = [
    "",
    "x1",
    "-3",
    "0",
    "1e400",
    "nan",
    "99999999999999999999999",
    "zz-nothing",
    "\U0001f47e Ærø \u202e",
    "é" * 4000,
    "&amp;&lt;",
    "&#1;",
]
ATTRIBUTES = [
    "number",
    "entryId",
    "value",
    "name",
    "customName",
    "typeId",
    "catalogueId",
    "gameSystemId",
    "primary",
    "type",
    "id",
]
SNIPPETS = ["<", ">", "&", "&bogus;", '"', "</selection>", "<!--", "\x00", "\t", "\ufeff", "]]>"]


@st.composite
def odd_ros(draw: st.DrawFn, base: str) -> tuple[str, bytes, bool]:
    """(suffix, bytes, broken markup?)"""
    text = base
    broken = False
    for _ in range(draw(st.integers(1, 3))):
        op = draw(st.integers(0, 9))
        if op <= 4:  # an attribute's value
            key = draw(st.sampled_from(ATTRIBUTES))
            spots = [i for i in range(len(text)) if text.startswith(f' {key}="', i)]
            if not spots:
                continue
            at = draw(st.sampled_from(spots)) + len(key) + 3
            end = text.index('"', at)
            text = text[:at] + draw(st.sampled_from(ODD_VALUES)) + text[end:]
        elif op == 5:  # an element copied
            lines = text.split("\n")
            i = draw(st.integers(2, len(lines) - 3))
            if lines[i].rstrip().endswith("/>"):
                lines.insert(i, lines[i])
            text = "\n".join(lines)
        elif op == 6:  # deep nesting
            depth = draw(st.sampled_from([20, 300]))
            text = text.replace("<selections>", "<selections>" + "<x>" * depth + "</x>" * depth, 1)
        elif op == 7:  # broken markup
            at = draw(st.integers(0, len(text)))
            text = text[:at] + draw(st.sampled_from(SNIPPETS)) + text[at:]
            broken = True
        elif op == 8:  # a declaration of entities
            text = text.replace("?>", '?>\n<!DOCTYPE roster [<!ENTITY a "aaaaaaaaaa">]>', 1)
            broken = True
        else:  # cut off
            text = text[: draw(st.integers(len(text) // 2, len(text) - 1))]
            broken = True
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 3)) == 3:
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr("team.ros", data)
        data = buf.getvalue()
        if draw(st.integers(0, 3)) == 3:
            data = data[: draw(st.integers(0, len(data) - 1))]
            broken = True
        return ".rosz", data, broken
    return ".ros", data, broken


def test_broken_markup_is_reported_at_its_line_and_column(
    base: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "team.ros"
    lines = base.split("\n")
    i = next(i for i, line in enumerate(lines) if "<selection " in line)
    lines[i] = lines[i].replace("<selection ", "<selection <", 1)
    path.write_text("\n".join(lines), encoding="utf-8")
    code = main(["validate", "--catalogs", str(BSDATA), str(path)])
    got = capsys.readouterr()
    err = got.err + got.out
    assert code == 2
    assert err.startswith(f"{path}:{i + 1}:"), err
    assert "not well-formed XML" in err
    main(["validate", "--format", "json", "--catalogs", str(BSDATA), str(path)])
    issue = json.loads(capsys.readouterr().out)["rosters"][0]["issues"][0]
    assert issue["line"] == i + 1 and issue["column"] is not None, issue


@FUZZ
@given(data=st.data())
def test_odd_ros_files_through_every_command(
    data: st.DataObject, base: str, lib: Library, tmp_path_factory: pytest.TempPathFactory
) -> None:
    suffix, raw, broken = data.draw(odd_ros(base))
    tmp = tmp_path_factory.mktemp("ros")
    path = tmp / f"team{suffix}"
    path.write_bytes(raw)
    cats = ("--catalogs", str(BSDATA / "gaslands"))
    code, out, err = cli("validate", *cats, str(path))
    if code == 2:
        assert f"{path}: unreadable" in out + err, out + err
    _, out, _ = cli("validate", "--format", "json", *cats, str(path))
    report = json.loads(out)["rosters"][0]
    if not report["readable"]:
        for issue in report["issues"]:
            assert issue["file"] == str(path)
            assert issue["message"].strip()
            if broken and suffix == ".ros" and "well-formed" in issue["message"]:
                assert issue["line"] is not None, issue
    cli("show", *cats, str(path))
    code, out, _ = cli("export", str(path), "--to", "json", *cats)
    if code != 2:
        json.loads(out)
    cli("export", str(path), "--to", "ros", "-o", str(tmp / "out.ros"), *cats)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_HOME", str(tmp / "home"))
        with hard_limit(60):
            try:
                session = EditSession.open(path, lib)
            except RosterError as exc:
                assert all(p.file == str(path) for p in exc.problems), exc.problems
            else:
                saved = session.save()
                session.close()
                assert saved != path and saved.suffix == ".yaml"
    assert path.read_bytes() == raw  # never written over


@pytest.mark.parametrize(
    ("number", "shown"),
    [
        ("0", "0"),
        ("-3", "-3"),
        ("2.5", "2.5"),
        ("99999999999999999999999", "99999999999999999999999"),
    ],
)
def test_a_number_that_is_no_count_is_reported_at_its_selection(
    base: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], number: str, shown: str
) -> None:
    """As a count of 0 in a YAML roster: an error at its place, counted as 1 (never a count
    changed without a word)."""
    path = tmp_path / "team.ros"
    lines = base.split("\n")
    i = next(i for i, line in enumerate(lines) if 'name="Bike"' in line)
    lines[i] = lines[i].replace('number="1"', f'number="{number}"')
    path.write_text("\n".join(lines), encoding="utf-8")
    code = main(["validate", "--format", "json", "--catalogs", str(BSDATA), str(path)])
    report = json.loads(capsys.readouterr().out)["rosters"][0]
    assert code == 1
    assert [(x["code"], x["line"]) for x in report["issues"]] == [("invalid-value", i + 1)]
    assert f"not {shown}; counted as 1" in report["issues"][0]["message"]
