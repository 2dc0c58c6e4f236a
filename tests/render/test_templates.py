"""Users override any template, stylesheet or image by putting a file of the same name in their
templates folder; broken templates fail loudly (StrictUndefined) and are reported by file."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

import pytest
from render_helpers import EXAMPLES, Rendered

from armybuilder.cli.printing import add_parsers
from armybuilder.paths import user_data_dir
from armybuilder.render import export, render_pdf, template_dirs, user_template_dir
from armybuilder.rules.engine import Evaluation

RIFLE = EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"

MY_SHEET = """\
{#- my own record sheet -#}
<section class="sheet"><h2 class="bm2" data-bookmark="My sheet for {{ roster.name }}">
My own sheet: {{ roster.units | length }} unit(s), {{ roster.units[0].text("troopers") }} troopers
</h2></section>
"""


def _cli() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--catalogs", action="append")
    parser = argparse.ArgumentParser(prog="armybuilder", parents=[common])
    add_parsers(parser.add_subparsers(dest="command"), common)
    return parser


def run(*argv: str) -> int:
    args = _cli().parse_args(list(argv))
    return int(args.func(args))


def test_user_folder_comes_first() -> None:
    dirs = template_dirs()
    assert dirs[0] == user_template_dir() == user_data_dir() / "templates"
    assert (dirs[-1] / "roster.html").is_file()


def test_user_template_overrides_the_bundled_one(
    user_templates: Path, evaluate_file: Callable[[Path], Evaluation]
) -> None:
    from io import BytesIO

    from pypdf import PdfReader

    ev = evaluate_file(RIFLE)
    before = export(ev, "html")
    assert "My own sheet" not in before
    (user_templates / "infantry-ops").mkdir()
    (user_templates / "infantry-ops" / "sheet.html").write_text(MY_SHEET, encoding="utf-8")
    (user_templates / "base.css").write_text(
        (template_dirs()[-1] / "base.css").read_text(encoding="utf-8")
        + "\n.stamp { letter-spacing: 2pt; }\n",
        encoding="utf-8",
    )
    html = export(ev, "html")
    assert "My own sheet: 1 unit(s), 28 troopers" in html
    assert ".stamp { letter-spacing: 2pt; }" in html  # the user's stylesheet is used
    result = render_pdf(ev, jobs=1)
    reader = PdfReader(BytesIO(result.pdf))
    assert "My own sheet: 1 unit(s), 28 troopers" in reader.pages[1].extract_text()
    assert (1, 2, "My sheet for Rifle platoon") in result.outline


def test_templates_option_comes_before_the_user_folder(
    tmp_path: Path, user_templates: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "infantry-ops").mkdir()
    (tmp_path / "infantry-ops" / "sheet.html").write_text(
        MY_SHEET.replace("My own", "Option"), encoding="utf-8"
    )
    (user_templates / "infantry-ops").mkdir()
    (user_templates / "infantry-ops" / "sheet.html").write_text(MY_SHEET, encoding="utf-8")
    assert run("export", str(RIFLE), "--to", "html", "--templates", str(tmp_path)) == 0
    out = capsys.readouterr().out
    assert "Option sheet" in out and "My own sheet" not in out


def test_a_template_error_names_the_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "infantry-ops").mkdir()
    (tmp_path / "infantry-ops" / "sheet.html").write_text(
        "<p>{{ roster.no_such_thing }}</p>", encoding="utf-8"
    )
    assert run("export", str(RIFLE), "--to", "html", "--templates", str(tmp_path)) == 2
    err = capsys.readouterr().err
    assert "template error" in err and "no_such_thing" in err
    out = tmp_path / "out.pdf"
    assert run("render", str(RIFLE), "-o", str(out), "--templates", str(tmp_path)) == 2
    assert not out.exists()
    assert "sheet.html" in capsys.readouterr().err


def test_bundled_templates_exist_for_every_system(
    render: Callable[..., Rendered],
) -> None:
    bundled = template_dirs()[-1]
    for name in (
        "roster.html",
        "base.css",
        "macros.html",
        "generic/sheet.html",
        "generic/cards.html",
    ):
        assert (bundled / name).is_file(), name
    for system in sorted(p.name for p in EXAMPLES.iterdir() if p.is_dir()):
        assert (bundled / system / "sheet.html").is_file(), f"no record sheet for {system}"


def test_a_template_changing_a_computed_value_in_place_is_told_to_copy_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A weapon's values are shared between the troopers of one kit (read-only: docs/
    printing.md): a user's sheet that sets a default in one in place gets a message naming
    the template and line and how to copy it, exit 2 and no file, not a traceback; the same
    template working on a copy prints."""
    bundled = (template_dirs()[-1] / "infantry-ops" / "sheet.html").read_text(encoding="utf-8")
    loop = '{% for w in t.value("weapons", []) %}'
    assert bundled.count(loop) == 1
    lineno = bundled[: bundled.index(loop)].count("\n") + 1
    (tmp_path / "infantry-ops").mkdir()
    sheet = tmp_path / "infantry-ops" / "sheet.html"
    sheet.write_text(bundled.replace(loop, loop + '{% do w.setdefault("note", "") %}'))
    out = tmp_path / "out.html"
    for command in (
        ["export", str(RIFLE), "--to", "html", "-o", str(out)],
        ["render", str(RIFLE), "-o", str(tmp_path / "out.pdf")],
    ):
        assert run(*command, "--templates", str(tmp_path)) == 2
        err = capsys.readouterr().err
        assert err.strip() == (
            f"armybuilder {command[0]}: template {sheet}:{lineno} changes a computed value in "
            "place (dict.setdefault); copy it first with `dict(value)`"
        )
    assert not out.exists() and not (tmp_path / "out.pdf").exists()
    copied = loop + '{% set w = dict(w) %}{% do w.setdefault("note", "") %}'
    sheet.write_text(bundled.replace(loop, copied))
    assert (
        run("export", str(RIFLE), "--to", "html", "-o", str(out), "--templates", str(tmp_path)) == 0
    )
    assert "<html" in out.read_text(encoding="utf-8").lower()
