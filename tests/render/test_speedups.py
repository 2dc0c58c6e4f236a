"""What makes printing faster must not change what is printed (benchmarks/README.md, issue 13):
the fonts WeasyPrint sets up once per thread (pdf.font_config), the shrink-to-fit width
that skips the min-content width when it cannot matter, and the font subsetter that drops
the tables WeasyPrint drops before fontTools reads them (wpatch.py)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from raster_helpers import rasterise
from render_helpers import EXAMPLES

from armybuilder.paths import bundled_dir
from armybuilder.render import pdf, render_pdf, wpatch
from armybuilder.render.pdf import Stylesheet, render_document
from armybuilder.rules.engine import Evaluation

pytest.importorskip("pypdfium2", reason="rasterising PDFs needs pypdfium2 (the test extra)")

SMALL = EXAMPLES / "starship-marine" / "sirian-platoon.yaml"


def test_the_fonts_are_set_up_once_per_thread() -> None:
    one = pdf.font_config("<p>a</p>")
    assert pdf.font_config("<p>b</p>", "p { color: red }") is one
    other: list[Any] = []
    worker = threading.Thread(target=lambda: other.append(pdf.font_config()))
    worker.start()
    worker.join()
    assert other[0] is not one  # Pango's font map is not shared between threads
    # a document that brings its own fonts gets its own set-up, which dies with it
    own = pdf.font_config("<style>@font-face { font-family: X; src: url(x.ttf) }</style>")
    assert own is not one
    assert pdf.font_config() is one


def test_fonts_kept_from_earlier_documents_print_the_same_pixels(
    evaluate_file: Callable[[Path], Evaluation], monkeypatch: pytest.MonkeyPatch
) -> None:
    ev = evaluate_file(SMALL)
    render_pdf(ev, date="2026-01-01")  # the process's fonts are warm after this
    shared = render_pdf(ev, date="2026-01-01")
    from weasyprint.text.fonts import FontConfiguration

    monkeypatch.setattr(pdf, "font_config", lambda *texts, **sheets: FontConfiguration())
    fresh = render_pdf(ev, date="2026-01-01")
    assert shared.pages == fresh.pages > 1
    for i, (a, b) in enumerate(zip(rasterise(shared.pdf), rasterise(fresh.pdf), strict=True)):
        assert a.tobytes() == b.tobytes(), f"page {i + 1} differs"


def test_the_weasyprint_patch_was_checked_for_the_installed_version() -> None:
    import weasyprint
    from weasyprint.layout import float as wp_float
    from weasyprint.layout import inline as wp_inline

    if weasyprint.__version__ not in wpatch.CHECKED:
        # Printing is right without the patch (only slower): a new WeasyPrint must not fail
        # the suite, but it must be said. Then the patch is not installed at all:
        assert not wpatch.install()
        assert wp_float.shrink_to_fit is not wpatch.shrink_to_fit
        pytest.skip(
            f"WeasyPrint {weasyprint.__version__} is not one wpatch.py was checked on, so "
            "printing runs without it: read its layout/preferred.py shrink_to_fit again, "
            "compare the pages, then add the version to wpatch.CHECKED (or drop wpatch)"
        )
    assert wpatch.install()
    assert wp_float.shrink_to_fit is wpatch.shrink_to_fit
    assert wp_inline.shrink_to_fit is wpatch.shrink_to_fit


def test_the_shrink_to_fit_width_is_weasyprints(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every float of a document gets the width WeasyPrint's formula gives, whether its note
    fits its line (no min-content width needed) or not (a long note, a long word)."""
    from weasyprint.layout import float as wp_float
    from weasyprint.layout import inline as wp_inline
    from weasyprint.layout import preferred

    seen: list[tuple[float, float, bool]] = []

    def checked(context: Any, box: Any, available: float) -> float:
        width = wpatch.shrink_to_fit(context, box, available)
        weasyprints = min(
            max(preferred.min_content_width(context, box, outer=False), available),
            preferred.max_content_width(context, box, outer=False),
        )
        seen.append((width, weasyprints, weasyprints < available))
        return width

    for module in (wp_float, wp_inline):
        monkeypatch.setattr(module, "shrink_to_fit", checked)
    notes = [
        "short",
        "Marine Squad · 1st Marine Group · marines: 1 officer, 8 other ranks",
        "a note far too long for its line: " + "word " * 60,
        "Averyveryveryverylongwordwithoutanyspacesthatcannotbreak" * 4,
    ]
    cards = "".join(
        f'<div class="card"><header><h3>Squad {i}</h3><span class="cost">{note}</span>'
        "</header><p>body</p></div>"
        for i, note in enumerate(notes)
    )
    html = f"<!DOCTYPE html><html><head></head><body>{cards}</body></html>"
    base = bundled_dir("templates").resolve().as_uri() + "/"
    css = (bundled_dir("templates") / "base.css").read_text(encoding="utf-8")
    render_document(html, [Stylesheet(css, base)], base, [bundled_dir("templates")])
    assert seen and all(width == theirs for width, theirs, _fits in seen)
    assert {fits for _w, _t, fits in seen} == {True, False}  # both paths taken


# --------------------------------------------------------------------------- own fonts

_OWN_FONT = '"Leak"'
_RULE = f"{{ font-family: {_OWN_FONT}; src: url(own.ttf) }}"
_OTHER_DOCUMENT = "<p style=\"font-family: Leak, 'DejaVu Sans'\">a document without fonts</p>"


def _pdf_fonts(data: bytes) -> set[str]:
    """The names of the fonts a PDF embeds (``Leak-Italic``, ``DejaVu-Sans``)."""
    import io

    from pypdf import PdfReader

    names = set()
    for page in PdfReader(io.BytesIO(data)).pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            names.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    return names


def _font_file() -> Path:
    for pattern in ("liberation/LiberationSerif-Italic.ttf", "dejavu/DejaVuSerif.ttf"):
        found = sorted(Path("/usr/share/fonts/truetype").glob(pattern))
        if found:
            return found[0]
    pytest.skip("no TrueType font besides DejaVu Sans to give a document its own font")


@pytest.mark.parametrize(
    ("kind", "head"),
    [
        ("upper-case rule", f"<style>@FONT-FACE {_RULE}</style>"),
        ("escaped rule", f"<style>@\\66 ont-face {_RULE}</style>"),
        ("linked sheet", '<link rel="stylesheet" href="fonts.css">'),
        ("imported sheet", '<style>@import "fonts.css";</style>'),
    ],
)
def test_a_documents_own_font_does_not_print_in_the_next_document(
    tmp_path: Path, kind: str, head: str
) -> None:
    """The fonts a document brings (however its @font-face is spelt or pulled in) stay with
    that document: the next document printed on the same thread, which names the same family
    first but brings no font, prints in the installed DejaVu Sans (pdf.font_config)."""
    (tmp_path / "own.ttf").write_bytes(_font_file().read_bytes())
    (tmp_path / "fonts.css").write_text(f"@font-face {_RULE}", encoding="utf-8")
    base = tmp_path.as_uri() + "/"
    own = render_document(head + '<p style="font-family: Leak">own</p>', [], base, [tmp_path])
    assert own.refused == []
    assert any(name.startswith("Leak") for name in _pdf_fonts(own.pdf)), kind
    after = render_document(_OTHER_DOCUMENT, [], base, [tmp_path])
    assert _pdf_fonts(after.pdf) == {"DejaVu-Sans"}, kind


def test_a_stylesheet_of_the_users_templates_gets_a_fresh_font_set_up(tmp_path: Path) -> None:
    """Only the bundled stylesheets, which bring no fonts, share the thread's fonts."""
    bundled = bundled_dir("templates").resolve()
    text = (bundled / "base.css").read_text(encoding="utf-8")
    shared = pdf.font_config("<p>a</p>")
    theirs = Stylesheet(text, (bundled / "starship-marine").as_uri() + "/")
    assert pdf.font_config("<p>a</p>", sheets=[theirs]) is shared
    users = Stylesheet(text, tmp_path.as_uri() + "/")
    assert pdf.font_config("<p>a</p>", sheets=[users]) is not shared


# --------------------------------------------------------------------------- font subsets


def _subsetter_checked() -> None:
    import fontTools
    import weasyprint

    if (
        weasyprint.__version__ not in wpatch.CHECKED
        or fontTools.version not in wpatch.CHECKED_FONTTOOLS
    ):
        from weasyprint.pdf import fonts

        assert not wpatch.install_subsetter()
        assert fonts.subset.Subsetter.__module__ == "fontTools.subset"
        pytest.skip(
            f"WeasyPrint {weasyprint.__version__} / fontTools {fontTools.version}: not checked "
            "for wpatch.Subsetter, so fonts are subset by fontTools' own: read fontTools' "
            "Subsetter._prune_pre_subset again, compare the PDFs' bytes, then add the version "
            "to wpatch.CHECKED_FONTTOOLS (or drop the subsetter)"
        )


def test_fonts_subset_without_reading_the_tables_dropped_print_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A document in DejaVu Sans (GSUB and GPOS tables: ligatures, kerning) and in bold and
    italic, with hinting off (WeasyPrint's default) and on: the PDF is byte for byte the one
    fontTools' own subsetter writes, and the dropped tables are never read."""
    _subsetter_checked()
    from fontTools import subset as ft_subset
    from fontTools.ttLib.tables import otBase
    from weasyprint.pdf import fonts

    assert wpatch.install_subsetter()
    assert issubclass(fonts.subset.Subsetter, ft_subset.Subsetter)
    assert fonts.subset.Subsetter is not ft_subset.Subsetter
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # fontTools stamps the time of day
    html = (
        "<!DOCTYPE html><html><head><title>t</title></head><body>"
        "<p>office fi fl AV To Wa — Zoë 1,234 · ½</p><p><b>Bold AV</b> <i>italic ffi</i></p>"
        "</body></html>"
    )
    base = bundled_dir("templates").resolve().as_uri() + "/"
    css = (bundled_dir("templates") / "base.css").read_text(encoding="utf-8")
    sheets = [Stylesheet(css, base)]
    read: list[str] = []
    decompile = otBase.BaseTTXConverter.decompile

    def counted(self: Any, data: bytes, font: Any) -> None:
        read.append(self.tableTag)
        decompile(self, data, font)

    monkeypatch.setattr(otBase.BaseTTXConverter, "decompile", counted)
    import weasyprint

    sizes = []
    for hinting in (False, True):
        monkeypatch.setitem(weasyprint.DEFAULT_OPTIONS, "hinting", hinting)
        ours = render_document(html, sheets, base, [bundled_dir("templates")]).pdf
        assert read and not {"GSUB", "GPOS"} & set(read), read  # (GDEF is read)
        with monkeypatch.context() as m:
            m.setattr(fonts, "subset", ft_subset)
            read.clear()
            theirs = render_document(html, sheets, base, [bundled_dir("templates")]).pdf
            assert {"GSUB", "GPOS"} <= set(read)  # what the subsetter saves
        read.clear()
        assert ours == theirs
        sizes.append(len(ours))
    assert sizes[0] < sizes[1]  # the hinted fonts were written: the other options' subset
