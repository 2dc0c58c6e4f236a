"""Text, Markdown, JSON and HTML exports of an example roster, and the `export` and `render`
commands (through the parsers the renderer registers on the CLI)."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from render_helpers import EXAMPLES

from armybuilder.cli import main as cli_main
from armybuilder.cli.printing import add_parsers
from armybuilder.render import EXPORT_FORMATS, export
from armybuilder.rules.engine import Evaluation

SRM = EXAMPLES / "infantry-ops" / "rifle-srm-platoon.yaml"


def run(*argv: str) -> int:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--catalogs", action="append")
    parser = argparse.ArgumentParser(prog="armybuilder", parents=[common])
    add_parsers(parser.add_subparsers(dest="command"), common)
    args = parser.parse_args(list(argv))
    return int(args.func(args))


@pytest.fixture(scope="module")
def srm(evaluate_file: Callable[[Path], Evaluation]) -> Evaluation:
    return evaluate_file(SRM)


def test_text_export_is_compact(srm: Evaluation) -> None:
    text = export(srm, "text")
    lines = text.splitlines()
    assert lines[0] == (
        "Rifle + SRM1 platoon — Infantry Operations, Inner Sphere — Mass 2,040 kg — Legal"
    )
    assert "Foot Platoon (Rifle + SRM1) [Infantry Platoon] (Regular): Foot [Mass 2,040 kg]" in lines
    # counts as show, the builder and the PDF print them ("Squad ×4"), not "4x Squad"
    assert "  Squad ×4 [Mass 2,040 kg]" in lines
    assert (
        "    Riflemen (SRM ammunition bearers) ×4: Knife/Bayonet, AutoPistol, Auto-Rifle, "
        "SRM1 reload (2 shots), Kevlar Vest and Helmet" in lines
    )
    assert "    SRM1 gunners ×2: Knife/Bayonet, AutoPistol, SRM1, Kevlar Vest and Helmet" in lines
    shown = [line.strip() for line in lines]
    for node in srm.nodes():
        if node.count > 1:  # every counted line reads as show labels it
            assert any(line.startswith(srm.label(node)) for line in shown), srm.label(node)
    summary = next(line for line in lines if line.startswith("  Troopers 24"))
    assert "Primary AV 8 (anti-personnel only)" in summary
    assert "Support AV 16" in summary
    assert "Secondary AV" not in summary  # no secondary attack: left out
    assert "(3 warnings: armybuilder validate lists them)" in lines
    assert len(lines) < 20


def test_text_export_lists_errors(
    write_roster: Callable[[str, str], Path], evaluate_file: Callable[[Path], Evaluation]
) -> None:
    path = write_roster(
        "typo.yaml",
        "format: 1\nsystem: infantry-ops\nfaction: inner-sphere\nname: Typo\n"
        "selections:\n  - entry: platon\n",
    )
    text = export(evaluate_file(path), "text")
    assert "NOT LEGAL (" in text.splitlines()[0]
    assert "Errors:" in text
    assert "platon" in text


def test_markdown_export(srm: Evaluation) -> None:
    md = export(srm, "markdown")
    assert md.startswith("# Rifle + SRM1 platoon\n")
    assert "**Legal** (3 warnings)" in md
    assert "| Mass | 2,040 kg | none |" in md
    assert "## Foot Platoon (Rifle + SRM1) \\[Infantry Platoon\\]" in md
    assert "| Support AV | 16 |" in md
    assert "- **Squad ×4** — Mass 2,040 kg" in md
    assert "## Warnings (3)" in md


def test_json_export_is_the_show_json(srm: Evaluation, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(export(srm, "json", file=str(SRM)))
    assert cli_main(["show", "--format", "json", str(SRM)]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert data == shown
    assert data["units"][0]["values"]["av_support"]["value"]["av"] == 16


def test_html_export_is_standalone(srm: Evaluation) -> None:
    html = export(srm, "html")
    assert html.lstrip().startswith("<!DOCTYPE html>")
    assert "<style>" in html and "@page { size: A4; }" in html
    assert "string-set: roster-name" in html  # the stylesheet, inline
    assert "<link" not in html and "src=" not in html  # nothing to fetch
    assert "Record sheets" in html and "Cluster hits" in html
    letter = export(srm, "html", paper="letter", sheets=False)
    assert "@page { size: letter; }" in letter and "Record sheets" not in letter


def test_unknown_format(srm: Evaluation) -> None:
    with pytest.raises(ValueError, match="unknown export format"):
        export(srm, "pdf")
    assert set(EXPORT_FORMATS) == {"text", "markdown", "json", "html"}


@pytest.mark.parametrize("fmt", ["text", "markdown", "json", "html"])
def test_export_command(fmt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run("export", str(SRM), "--to", fmt) == 0
    out = capsys.readouterr().out
    assert "Rifle + SRM1 platoon" in out
    target = tmp_path / "sub" / f"out.{fmt}"
    assert run("export", str(SRM), "--to", fmt, "-o", str(target)) == 0
    assert target.read_text(encoding="utf-8") == out


def test_render_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "platoon.pdf"
    assert run("render", str(SRM), "-o", str(target), "--paper", "letter", "--no-sheets") == 0
    assert target.read_bytes().startswith(b"%PDF")
    out = capsys.readouterr().out
    assert f"wrote {target}: 1 page, US Letter, legal" in out


def test_render_default_output_goes_to_exports(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("render", str(SRM), "--no-sheets") == 0
    assert (tmp_path / "exports" / "rifle-srm-platoon.pdf").is_file()


def test_bad_input_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("format: 1\nsystem: [oops\n", encoding="utf-8")
    assert run("render", str(bad), "-o", str(tmp_path / "x.pdf")) == 2
    assert run("export", str(bad), "--to", "text") == 2
    assert run("export", str(tmp_path / "missing.yaml"), "--to", "json") == 2
    err = capsys.readouterr().err
    assert "bad.yaml" in err and "Traceback" not in err
    assert not (tmp_path / "x.pdf").exists()
    assert run("render", str(SRM), "--jobs", "0") == 2


def test_importing_the_commands_loads_no_pdf_stack() -> None:
    # The CLI imports the commands to register them: that must cost nothing.
    show = (
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'weasyprint', 'pypdf', 'jinja2'}))"
    )
    code = (
        "import sys\n"
        "import armybuilder.cli.printing\n"
        "from armybuilder.render import export, load, render_pdf\n"
        f"{show}\n"
        "from armybuilder.render import build_view, render_html\n"
        f"{show}\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split("\n")[:2] == ["[]", "['jinja2']"]
