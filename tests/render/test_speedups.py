"""What makes printing faster must not change what is printed (benchmarks/README.md, issue 13):
the fonts WeasyPrint sets up once per thread (pdf.font_config) and the shrink-to-fit width
that skips the min-content width when it cannot matter (wpatch.py)."""

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

    monkeypatch.setattr(pdf, "font_config", lambda *texts: FontConfiguration())
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
