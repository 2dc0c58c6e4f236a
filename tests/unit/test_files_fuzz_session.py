"""Odd roster files through the edit session: opened, edited and saved, nothing is lost.

For a roster text with odd bytes in it (a byte order mark, Windows line ends, tabs, deep
nesting, huge numbers, duplicate keys, anchors and aliases, any unicode in names, very long
lines, a cut-off end, a value of the wrong type at any key), generated with hypothesis from
the bundled examples:

* opening either works or raises :class:`RosterError` whose every problem names the file and
  a line (or :class:`UnknownSystemError` / :class:`UnknownFactionError`, which name the id);
  nothing else escapes, and nothing hangs (a hard alarm);
* a roster that opens, renamed and saved, reads back with every other key and value as it
  was (unknown keys and selections of unknown entries included), keeps its byte order mark
  and line ends, and its unchanged lines byte for byte;
* the edit is in the recovery journal before the save, and recovering it gives the same text.

The examples are derandomized, so every run checks the same files (``docs/files.md``)."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from armybuilder.catalog import Library, default_roots
from armybuilder.errors import RosterError, UnknownFactionError, UnknownSystemError
from armybuilder.session import EditSession, find_recovery

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((REPO / "examples").glob("*/*.yaml"))

FUZZ = settings(
    max_examples=40,
    deadline=timedelta(seconds=30),
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def lib() -> Library:
    return Library(default_roots()).scan()


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


#: Values of the wrong type (or of no sensible size) for any key.
ODD_VALUES = [
    "~",
    "[]",
    "{}",
    "[1, [2, [3]]]",
    "{a: {b: {c: 1}}}",
    "-1",
    "0",
    "1e400",
    "-.inf",
    ".nan",
    "9" * 60,
    "0x7fffffffffffffffffff",
    "true",
    "2024-02-30",
    '"\\u0000"',
    "'  '",
    "!!binary aGVsbG8=",
    "&a x",
    "*nowhere",
    "|\n  two\n  lines",
    "\U0001f47e \u202e\u0301 Ærø",
    "x" * 5000,
]


@st.composite
def odd_roster(draw: st.DrawFn) -> tuple[str, bytes]:
    example = draw(st.sampled_from(EXAMPLES))
    lines = example.read_text(encoding="utf-8").split("\n")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        op = draw(st.integers(0, 7))
        if op == 0 and ":" in line:  # a value of the wrong type
            key, _, _ = line.partition(":")
            lines[i] = f"{key}: {draw(st.sampled_from(ODD_VALUES))}"
        elif op == 1 and ":" in line:  # a duplicate key
            lines.insert(i + 1, line)
        elif op == 2:  # tabs
            lines[i] = line.replace("  ", "\t", 1)
        elif op == 3 and line.strip().startswith("- entry:"):  # an anchor and its alias
            pad = line[: len(line) - len(line.lstrip())]
            lines[i] = line.replace("- entry:", "- &sel\n" + pad + "  entry:", 1)
            lines.append("  - *sel")
        elif op == 4 and ":" in line:  # unicode and a long line
            key, _, _ = line.partition(":")
            text = draw(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20))
            lines[i] = f"{key}: {text!r}" if draw(st.booleans()) else f"{key}: {'é' * 3000}"
        elif op == 5:  # deep nesting
            depth = draw(st.sampled_from([10, 60, 200]))
            lines.append("extra: " + "[" * depth + "]" * depth)
        elif op == 6:  # a comment with odd characters
            lines.insert(i, "# " + draw(st.text(max_size=30)).replace("\n", " "))
        else:  # an unknown key (it is kept)
            lines.append(f"x-note-{i}: kept")
    text = "\n".join(lines)
    if draw(st.integers(0, 5)) == 5:
        text = text[: draw(st.integers(len(text) // 2, len(text)))]  # cut off
    if draw(st.booleans()):
        text = text.replace("\n", "\r\n")
    data = text.encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        data = b"\xef\xbb\xbf" + data
    if draw(st.integers(0, 9)) == 9:
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=4)) + data[at:]
    return example.name, data


def _plain(data: bytes) -> Any:
    text = data.decode("utf-8-sig").replace("\r\n", "\n")
    return YAML(typ="safe", pure=True).load(text)


@FUZZ
@given(case=odd_roster())
def test_open_edit_save_loses_nothing(
    case: tuple[str, bytes], lib: Library, tmp_path_factory: pytest.TempPathFactory
) -> None:
    example, data = case
    tmp = tmp_path_factory.mktemp("fuzz")
    path = tmp / "roster.yaml"
    path.write_bytes(data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_STATE_DIR", str(tmp / "state"))
        mp.setenv("ARMYBUILDER_HOME", str(tmp / "home"))
        with hard_limit(60):
            try:
                session = EditSession.open(path, lib)
            except RosterError as exc:
                for p in exc.problems:
                    assert p.file.endswith("roster.yaml"), str(p)
                    assert p.line is not None or p.code == "file-too-large", str(p)
                    assert p.message.strip(), str(p)
                assert path.read_bytes() == data  # a file that cannot be read is left alone
                return
            except (UnknownSystemError, UnknownFactionError) as exc:
                assert str(exc).strip()
                return
            before = _plain(data)
            session.rename((), "Renamed ✓")
            # The edit is journaled before it is saved: recovery gives it back.
            info = find_recovery(path)
            assert info is not None, f"the edit was not journaled ({example})"
            recovered = EditSession.recover(info, lib, autosave=False)
            assert recovered.roster.dumps() == session.roster.dumps()
            assert recovered.roster.bom == session.roster.bom
            recovered.close(keep_recovery=True)
            saved = session.save()
            session.close()
    after = saved.read_bytes()
    assert saved == path
    assert after.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
    if b"\r\n" in data and b"\n" not in data.replace(b"\r\n", b""):
        assert b"\n" not in after.replace(b"\r\n", b""), "line ends changed"
    got = _plain(after)
    assert got["name"] == "Renamed ✓"
    assert {k: v for k, v in got.items() if k != "name"} == {
        k: v for k, v in before.items() if k != "name"
    }
    # The backup is the file as it was.
    assert (tmp / "roster.yaml.bak").read_bytes() == data or any(
        p.read_bytes() == data for p in tmp.glob("roster.yaml*.bak")
    )


def test_a_key_left_empty_is_said_so(lib: Library, tmp_path: Path) -> None:
    path = tmp_path / "roster.yaml"
    path.write_text(
        "format: 1\nsystem: starship-troopers\nfaction: arachnids\nname: Swarm\nlimits: ~\n"
        "selections: []\n"
    )
    with pytest.raises(RosterError) as got:
        EditSession.open(path, lib)
    assert str(got.value) == f"{path}:5:9: limits: left empty; it should be a mapping (key: value)"


# --------------------------------------------------------------------------- the commands


def cli(*argv: str) -> tuple[int, str]:
    import io

    from armybuilder.cli import main

    out, err = io.StringIO(), io.StringIO()
    with (
        hard_limit(120),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        try:
            code = main(list(argv))
        except SystemExit as exc:
            code = int(exc.code or 0)
    text = out.getvalue() + err.getvalue()
    assert code in (0, 1, 2), (argv, code, text[-2000:])
    assert "Traceback" not in text, text[-3000:]
    return code, text


@settings(FUZZ, max_examples=6)
@given(case=odd_roster())
def test_odd_rosters_render_or_say_why(
    case: tuple[str, bytes], tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``render`` (the roster pages only: the sheets are the printing tests' business)."""
    _, data = case
    tmp = tmp_path_factory.mktemp("render")
    path = tmp / "roster.yaml"
    path.write_bytes(data)
    out = tmp / "roster.pdf"
    code, text = cli("render", str(path), "--no-sheets", "-o", str(out))
    if code == 2:
        assert str(path) in text and not out.exists(), text
    else:
        assert out.read_bytes().startswith(b"%PDF")
    assert path.read_bytes() == data


NAMES = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=30),
    st.sampled_from(["", " ", "-", "--force", "é" * 3000, "a\nb", "\x00", "null", "~", "[x]"]),
)


PAIRS = [
    ("space-hulk", "terminators"),
    ("starship-troopers", "arachnids"),
    ("infantry-ops", "clan"),
    ("starmarines", "norx"),
    ("starship-marine", "martian"),
]
LIMITS = ["pts=1e400", "pts=nan", "pts=-5", "x=1", "pts=" + "9" * 50, "=", "pts=", "value=300"]


@st.composite
def new_arguments(draw: st.DrawFn) -> tuple[str, str, str, str | None]:
    system, faction = draw(st.sampled_from(PAIRS))
    if draw(st.integers(0, 4)) == 4:
        system = draw(NAMES)
    if draw(st.integers(0, 4)) == 4:
        faction = draw(NAMES)
    limit = draw(st.one_of(st.none(), st.sampled_from(LIMITS), NAMES))
    return system, faction, draw(NAMES), limit


@settings(FUZZ, max_examples=25)
@given(args=new_arguments())
def test_new_with_odd_arguments(
    args: tuple[str, str, str, str | None], lib: Library, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """``new`` writes a roster that opens again with the name given, or says why not (exit
    2) and writes nothing."""
    system, faction, name, limit = args
    tmp = tmp_path_factory.mktemp("new")
    out = tmp / "new.yaml"
    argv = ["new", system, faction, "-o", str(out), f"--name={name}"]
    if limit is not None:
        argv.append(f"--limit={limit}")
    code, text = cli(*argv)
    if code != 0:
        assert code == 2 and not out.exists() and text.strip(), text
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("ARMYBUILDER_HOME", str(tmp / "home"))
        session = EditSession.open(out, lib)
        assert session.roster.name == (name.strip() or session.roster.name)
        session.close()
