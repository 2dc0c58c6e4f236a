"""``armybuilder validate`` of one roster starts light (issue 17: CLI start-up).

A plain ``validate`` command line is read without argparse (:func:`plain_validate_args`); it
must mean exactly what argparse makes of it, and anything less plain must still reach argparse,
which words its refusals as before. The command's warm start must not import what it does not
need (argparse, json, pickle.py, pydantic...), and the entry point leaves the modules it loaded
out of the garbage collector's passes.
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from armybuilder.cli import build_parser, main, plain_validate_args
from armybuilder.paths import bundled_dir

EXAMPLE = bundled_dir("examples") / "infantry-ops" / "rifle-platoon.yaml"


def _argparse(words: Sequence[str]) -> dict[str, Any] | None:
    """What argparse makes of ``words`` (``None``: it refused them, or printed help)."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            return vars(build_parser().parse_args(list(words)))
    except SystemExit:
        return None


PLAIN = [
    ["validate", "a.yaml"],
    ["validate", "--quiet", "a.yaml"],
    ["validate", "-q", "a.yaml", "b.yaml", "--strict"],
    ["validate", "--format", "json", "-j", "1", "a.yaml", "b.yaml"],
    ["validate", "--jobs", "007", "--format", "text", "a.yaml", "--format", "json"],
    ["validate", "--catalogs", "one", "a.yaml", "--catalogs", "two"],
    ["validate", "--strict", "--quiet", "", "x y.yaml"],
]


@pytest.mark.parametrize("words", PLAIN, ids=" ".join)
def test_a_plain_command_line_means_what_argparse_makes_of_it(words: list[str]) -> None:
    plain = plain_validate_args(words)
    assert plain is not None, "this line should not need argparse"
    assert vars(plain) == _argparse(words)


LESS_PLAIN = [
    ["validate"],  # no file: argparse says so
    ["validate", "a.yaml", "-q", "b.yaml"],  # argparse refuses the second run of files
    ["validate", "--quie", "a.yaml"],  # an abbreviation
    ["validate", "--format=json", "a.yaml"],
    ["validate", "--format", "yaml", "a.yaml"],
    ["validate", "-j", "two", "a.yaml"],
    ["validate", "-j", "-1", "a.yaml"],
    ["validate", "-qj1", "a.yaml"],
    ["validate", "--", "a.yaml"],
    ["validate", "-h"],
    ["validate", "a.yaml", "--jobs"],
    ["validate", "-", "a.yaml"],
    ["--catalogs", "dir", "validate", "a.yaml"],
    ["show", "a.yaml"],
    ["validate", "-j", "9" * 4301, "a.yaml"],  # more digits than int() converts
]


@pytest.mark.parametrize("words", LESS_PLAIN, ids=" ".join)
def test_anything_less_plain_goes_to_argparse(words: list[str]) -> None:
    assert plain_validate_args(words) is None


WORDS = st.sampled_from(
    [
        "validate", "-q", "--quiet", "--strict", "--format", "json", "text", "yaml", "-j",
        "--jobs", "2", "007", "-1", "٣", "a.yaml", "b", "", "--catalogs", "dir", "--", "-",
        "--quie", "--format=json", "-qj1", "-h", "show",
    ]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.lists(WORDS, max_size=8).map(lambda w: ["validate", *w]))
def test_the_plain_reading_never_differs_from_argparse(words: list[str]) -> None:
    # Whatever the plain reading accepts, argparse accepts too, and makes the same of it.
    plain = plain_validate_args(words)
    if plain is not None:
        assert vars(plain) == _argparse(words), words


def test_a_jobs_count_too_long_to_read_is_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 4,301 digits: int() refuses them; argparse says "invalid int value", never a traceback.
    with pytest.raises(SystemExit) as exit_:
        main(["validate", str(EXAMPLE), "-j", "9" * 4301])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument -j/--jobs: invalid int value" in err
    assert "Traceback" not in err


def test_plain_and_argparse_lines_print_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    outs = []
    for words in (
        ["validate", "--format", "json", str(EXAMPLE)],  # plain
        ["validate", "--format=json", str(EXAMPLE)],  # through argparse
    ):
        code = main(words)
        outs.append((code, *capsys.readouterr()))
    assert outs[0] == outs[1]
    assert outs[0][0] == 0 and '"valid": true' in outs[0][1]


#: Not needed to validate an ordinary roster with a warm cache: each was imported before and
#: cost start-up time (issue 17).
NOT_NEEDED = (
    "argparse",  # a plain command line is read without it
    "shutil",  # argparse's help formatter
    "locale",  # argparse's messages (gettext)
    "json",  # only for --format json
    "pickle",  # the snapshot is read with the C unpickler alone
    "signal",  # only for a pool of workers
    "multiprocessing",
    "pydantic",
    "pydantic_core",
    "armybuilder.model.catalog",
    "armybuilder.model.roster",
    "textual",
    "weasyprint",
)


def test_a_warm_validate_through_the_entry_point_loads_only_what_it_needs() -> None:
    code = (
        "import gc, runpy, sys\n"
        f"sys.argv = ['armybuilder', 'validate', '--quiet', {str(EXAMPLE)!r}]\n"
        "try:\n"
        "    runpy.run_module('armybuilder', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    rc = exc.code\n"
        f"unneeded = {NOT_NEEDED!r}\n"
        "print('LOADED', sorted(m for m in unneeded if m in sys.modules))\n"
        "print('FROZEN', gc.get_freeze_count())\n"
        "raise SystemExit(rc)\n"
    )
    run = [sys.executable, "-c", code]
    subprocess.run(run, capture_output=True, check=False)  # writes the library snapshot
    out = subprocess.run(run, capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert f"{Path(EXAMPLE)}: legal" in out.stdout
    assert "LOADED []" in out.stdout, out.stdout
    # the modules the command line loaded are left out of the collector's passes
    frozen = int(out.stdout.split("FROZEN ")[1].split()[0])
    assert frozen > 5000, frozen
