"""How fast armybuilder prints: a full Earther regiment (Starship Marine) with record sheets.

Figures (wall-clock, ``time.perf_counter``, median of ``--repeat`` runs):

* the roster's HTML (view + Jinja2 templates), in milliseconds;
* the PDF in one process: seconds, pages, pages per second, and the split between WeasyPrint's
  layout and its PDF writing;
* the PDF as ``armybuilder render`` makes it by default (split across processes and merged,
  when the document is long), with the processes used;
* the same number of pages of plain text laid out by WeasyPrint with the same page setup: the
  floor a printout cannot beat in one process, and our overhead as a ratio to it.

Usage (from the repository root)::

    python benchmarks/bench_render.py              # the Earther regiment, 3 repeats
    python benchmarks/bench_render.py --quick      # 1 repeat
    python benchmarks/bench_render.py --roster examples/infantry-ops/rifle-platoon.yaml
    python benchmarks/bench_render.py --jobs 2 --json figures.json

The script benchmarks the source tree it sits in and points ``ARMYBUILDER_HOME`` at a
temporary folder, so the user's own catalogs and templates are neither used nor touched.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_ROSTER = REPO / "examples" / "starship-marine" / "earther-regiment.yaml"

PLAIN_PAGE = "<p>" + "Plain text for a page of the same size. " * 12 + "</p>"


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[float, Any]:
    """Median seconds of ``repeat`` calls, and the last call's result."""
    times: list[float] = []
    result: Any = None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def plain_text_html(pages: int) -> str:
    """``pages`` pages of plain paragraphs, each page forced to end with a break."""
    body = "".join(
        f'<div style="break-after: page">{PLAIN_PAGE * 9}</div>' for _ in range(pages - 1)
    )
    return f"<!DOCTYPE html><html><body>{body}<div>{PLAIN_PAGE * 9}</div></body></html>"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--roster", type=Path, default=DEFAULT_ROSTER, help="roster to print")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="one run per figure")
    parser.add_argument("--jobs", type=int, default=None, help="processes for the split render")
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
    parser.add_argument("--json", type=Path, help="also write every figure as JSON")
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else max(1, args.repeat)

    home = tempfile.mkdtemp(prefix="armybuilder-bench-")
    os.environ["ARMYBUILDER_HOME"] = home
    for var in ("ARMYBUILDER_CATALOGS", "ARMYBUILDER_CACHE_DIR", "ARMYBUILDER_NO_CACHE"):
        os.environ.pop(var, None)

    from armybuilder.render import build_view, load, render_html, render_pdf
    from armybuilder.render.html import paper_css

    _, gs, ev = load(args.roster)

    start = time.perf_counter()
    import weasyprint

    import_s = time.perf_counter() - start
    from armybuilder.render import pdf as pdfmod

    figures: dict[str, Any] = {
        "roster": str(
            args.roster.resolve().relative_to(REPO)
            if args.roster.resolve().is_relative_to(REPO)
            else args.roster
        ),
        "system": gs.id,
        "selections": sum(1 for _ in ev.nodes()),
        "repeat": repeat,
        "paper": args.paper,
        "weasyprint_import_s": import_s,
    }

    # Warm up: templates compiled, fonts found, stylesheets parsed (once per process anyway).
    render_pdf(ev, paper=args.paper, jobs=1)

    html_s, html = median_time(
        lambda: render_html(build_view(ev), paper=args.paper, inline_css=False), repeat
    )
    figures["html_s"] = html_s
    figures["html_chars"] = len(html)

    one_s, one = median_time(lambda: render_pdf(ev, paper=args.paper, jobs=1), repeat)
    pages = one.pages
    figures.update(pages=pages, one_process_s=one_s, one_process_pages_per_s=pages / one_s)

    # Where one process spends its time: layout versus writing the PDF.
    stylesheets = [pdfmod._css(pdfmod.Stylesheet(paper_css(args.paper), "file:///"), [])]
    from armybuilder.render.html import environment, stylesheet_names, template_source

    env = environment()
    base_url = (REPO / "templates").as_uri() + "/"
    for name in stylesheet_names(env, gs.id):
        sheet = pdfmod.Stylesheet(template_source(env, name)[0], base_url)
        stylesheets.append(pdfmod._css(sheet, []))
    layout_s, doc = median_time(
        lambda: weasyprint.HTML(string=html, base_url=base_url).render(stylesheets=stylesheets),
        repeat,
    )
    write_s, _ = median_time(doc.write_pdf, repeat)
    figures.update(layout_s=layout_s, write_s=write_s)

    split_s, split = median_time(lambda: render_pdf(ev, paper=args.paper, jobs=args.jobs), repeat)
    figures.update(
        split_s=split_s,
        split_jobs=split.jobs,
        split_pages=split.pages,
        split_pages_per_s=split.pages / split_s,
    )

    # The floor: WeasyPrint alone, the same number of pages of plain text, same page setup.
    plain = plain_text_html(pages)
    plain_s, _ = median_time(
        lambda: (
            weasyprint.HTML(string=plain, base_url=base_url)
            .render(stylesheets=stylesheets)
            .write_pdf()
        ),
        repeat,
    )
    plain_pages = len(
        weasyprint.HTML(string=plain, base_url=base_url).render(stylesheets=stylesheets).pages
    )
    figures.update(
        plain_s=plain_s,
        plain_pages=plain_pages,
        plain_pages_per_s=plain_pages / plain_s,
        overhead_one_process=one_s / plain_s,
        overhead_split=split_s / plain_s,
    )
    figures["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "weasyprint": weasyprint.__version__,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }

    rows = [
        ("roster", f"{figures['roster']} ({figures['selections']} selections)"),
        ("import weasyprint", f"{import_s:.2f} s"),
        ("HTML (view + templates)", f"{html_s * 1000:.0f} ms, {len(html) // 1024} KiB"),
        (
            "PDF, one process",
            f"{one_s:.2f} s for {pages} pages = {pages / one_s:.2f} pages/s"
            f" ({one_s / pages:.2f} s a page)",
        ),
        ("  of which WeasyPrint layout", f"{layout_s:.2f} s"),
        ("  of which writing the PDF", f"{write_s:.2f} s"),
        (
            f"PDF, split ({split.jobs} processes)",
            f"{split_s:.2f} s for {split.pages} pages = "
            f"{split.pages / split_s:.2f} pages/s ({split_s / split.pages:.2f} s a page)",
        ),
        (
            "plain text, WeasyPrint alone",
            f"{plain_s:.2f} s for {plain_pages} pages = {plain_pages / plain_s:.2f} pages/s",
        ),
        ("overhead, one process", f"{one_s / plain_s:.2f} × plain text"),
        ("overhead, split", f"{split_s / plain_s:.2f} × plain text"),
    ]
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
