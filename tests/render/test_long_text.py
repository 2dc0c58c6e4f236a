"""Text with no break points, characters without a glyph, rosters too large to print, and
templates that are links out of their folder.

A roster is untrusted input: a 5,000-character name, a run of CJK, emoji, a count of 100,001
or a user template linked to a private file must print sensibly or be refused with a
message, never run off the page, hang, or pull another file into the PDF.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from raster_helpers import body_box, ink, rasterise, stray_margin_text, stray_text
from render_helpers import DATE

from armybuilder.cli.printing import add_parsers
from armybuilder.render import (
    MAX_PRINTED,
    TooLargeToPrintError,
    build_view,
    export,
    render_pdf,
)
from armybuilder.render.context import MAX_NAME
from armybuilder.render.fonts import missing_glyphs
from armybuilder.rules.engine import Evaluation

LONG = "Supercalifragilistic" * 250  # 5,000 characters, no space
CJK = "東京特許許可局長今日急遽休暇許可拒否" * 40  # 720 ideographs
HIEROGLYPH = "\U00013000"  # EGYPTIAN HIEROGLYPH A001: no font of a usual system has it


def squad(name: str, leader: str, notes: str = "") -> str:
    """A Starship Marine roster: one Earther squad (5.1) with custom names."""
    return f"""\
format: 1
system: starship-marine
faction: earther
name: "{name}"
notes: "{notes}"
selections:
  - entry: earther-squad
    name: "{name}"
    selections:
      - entry: lieutenant
        name: "{leader}"
        selections: [{{entry: marine-armour}}, {{entry: sca-2}}]
      - {{entry: sergeant, selections: [{{entry: marine-armour}}, {{entry: sca-3}}]}}
      - {{entry: corporal, selections: [{{entry: marine-armour}}, {{entry: sca-3}}]}}
      - {{entry: marine, count: 6, selections: [{{entry: marine-armour}}, {{entry: sca-2}}]}}
      - {{entry: combat-robot, count: 2, selections: [{{entry: sca-1}}]}}
"""


def run(*argv: str) -> int:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--catalogs", action="append")
    parser = argparse.ArgumentParser(prog="armybuilder", parents=[common])
    add_parsers(parser.add_subparsers(dest="command"), common)
    args = parser.parse_args(list(argv))
    return int(args.func(args))


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_long_names_and_cjk_stay_on_the_page(
    paper: str,
    write_roster: Callable[[str, str], Path],
    evaluate_file: Callable[[Path], Evaluation],
) -> None:
    path = write_roster("long.yaml", squad(LONG, CJK[:300], notes=CJK))
    result = render_pdf(evaluate_file(path), paper=paper, date=DATE, keep_layout=True)
    assert not stray_text(result.document)
    # the running header (the roster's name, the sheet's title) stays one line in its margin
    assert not stray_margin_text(result.document)
    images = rasterise(result.pdf)
    assert all(ink(im, body_box(im)) > 40 for im in images)
    # names are cut with an ellipsis: the heading holds the first MAX_NAME characters
    view = build_view(evaluate_file(path))
    assert len(view.name) == MAX_NAME and view.name.endswith("…")
    assert view.units[0].name == LONG[: MAX_NAME - 1] + "…"
    assert view.units[0].children[0].name == CJK[: MAX_NAME - 1] + "…"


def test_header_of_a_long_name_is_one_line(
    write_roster: Callable[[str, str], Path], evaluate_file: Callable[[Path], Evaluation]
) -> None:
    # A name of ordinary words, too long for the header: cut there with an ellipsis.
    words = "The Very Long Name Of A Regiment That Fought In Every War " * 3
    path = write_roster("words.yaml", squad(words.strip(), "Lt Smith"))
    result = render_pdf(evaluate_file(path), date=DATE, keep_layout=True)
    assert not stray_margin_text(result.document)
    header = [b.text for b in _margin_text(result.document.pages[0], "@top-left") if b.text.strip()]
    # one line (WeasyPrint draws the ellipsis where the clipped line ends)
    assert len(header) == 1


def _margin_text(page: object, keyword: str) -> list[object]:
    from weasyprint.formatting_structure import boxes

    out: list[object] = []

    def walk(box: object) -> None:
        if isinstance(box, boxes.TextBox):
            out.append(box)
        for c in getattr(box, "children", ()):
            walk(c)

    for child in page._page_box.children:  # type: ignore[attr-defined]
        if isinstance(child, boxes.MarginBox) and child.at_keyword == keyword:
            walk(child)
    return out


@pytest.mark.skipif(shutil.which("fc-list") is None, reason="needs fontconfig's fc-list")
def test_characters_without_a_glyph_are_reported_once(
    write_roster: Callable[[str, str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert missing_glyphs(f"abc é · ✓ {HIEROGLYPH}{HIEROGLYPH}") == [HIEROGLYPH]
    path = write_roster("glyphs.yaml", squad(f"Squad {HIEROGLYPH}", f"Lt {HIEROGLYPH}"))
    out = path.with_suffix(".pdf")
    assert run("render", str(path), "-o", str(out), "-v") == 0
    err = capsys.readouterr().err
    assert err.count("no installed font has 1 character of this roster") == 1
    assert "U+13000" in err
    assert run("render", str(path), "-o", str(out)) == 0
    assert "U+13000" not in capsys.readouterr().err


def _has_cjk_font() -> bool:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    out = subprocess.run([fc_list, ":lang=ja", "family"], capture_output=True, text=True)
    return bool(out.stdout.strip())


@pytest.mark.skipif(not _has_cjk_font(), reason="no CJK font installed (fonts-noto-cjk)")
def test_cjk_falls_back_to_an_installed_font(
    write_roster: Callable[[str, str], Path], evaluate_file: Callable[[Path], Evaluation]
) -> None:
    path = write_roster("cjk.yaml", squad("東京分隊", "山田中尉"))
    result = render_pdf(evaluate_file(path), date=DATE, sheets=False)
    assert result.missing_glyphs == []
    from io import BytesIO

    from pypdf import PdfReader

    page = PdfReader(BytesIO(result.pdf)).pages[0]
    assert "東京分隊" in page.extract_text()
    # printed with a CJK font: the page uses one besides DejaVu
    fonts = [str(f.get_object()["/BaseFont"]) for f in page["/Resources"]["/Font"].values()]
    assert any("CJK" in f for f in fonts), fonts


def test_a_count_too_large_to_print_is_refused_with_a_message(
    write_roster: Callable[[str, str], Path],
    evaluate_file: Callable[[Path], Evaluation],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 10,000 is the largest count a roster may hold (larger ones are invalid at load, counted
    # as 1); 10,000 models is still more than a PDF prints.
    text = squad("Big squad", "Lt Big").replace(
        "entry: marine, count: 6", "entry: marine, count: 10000"
    )
    path = write_roster("huge.yaml", text)
    out = path.with_suffix(".pdf")
    assert run("render", str(path), "-o", str(out)) == 2
    err = capsys.readouterr().err
    assert f"{path}: too large to print: more than {MAX_PRINTED} models and units" in err
    assert "Traceback" not in err and not out.exists()
    assert run("export", str(path), "--to", "html") == 2
    assert "too large to print" in capsys.readouterr().err
    with pytest.raises(TooLargeToPrintError):
        render_pdf(evaluate_file(path))
    # the plain text export is not bounded by print limits
    assert "Marine ×10000" in export(evaluate_file(path), "text")


def test_a_template_linked_out_of_its_folder_is_refused(
    tmp_path: Path, user_templates: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from render_helpers import EXAMPLES

    secret = tmp_path / "private.txt"
    secret.write_text("PRIVATE-KEY-MATERIAL", encoding="utf-8")
    (user_templates / "infantry-ops").mkdir()
    (user_templates / "infantry-ops" / "sheet.html").symlink_to(secret)
    rifle = EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"
    out = tmp_path / "out.pdf"
    assert run("render", str(rifle), "-o", str(out)) == 2
    err = capsys.readouterr().err
    assert "sheet.html is a link to" in err and "outside the template folder" in err
    assert not out.exists()
    assert run("export", str(rifle), "--to", "html") == 2
    captured = capsys.readouterr()
    assert "PRIVATE-KEY-MATERIAL" not in captured.out + captured.err
    # a link that stays inside the folder is fine
    (user_templates / "infantry-ops" / "sheet.html").unlink()
    (user_templates / "infantry-ops" / "mine.html").write_text("<p>Mine</p>", encoding="utf-8")
    (user_templates / "infantry-ops" / "sheet.html").symlink_to("mine.html")
    assert run("export", str(rifle), "--to", "html") == 0
    assert "<p>Mine</p>" in capsys.readouterr().out
