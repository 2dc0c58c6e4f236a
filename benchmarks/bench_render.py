"""How fast armybuilder prints: a full Earther regiment (Starship Marine) with record sheets.

Figures (wall-clock, ``time.perf_counter``, median of ``--repeat`` runs):

* the roster's HTML (view + Jinja2 templates), in milliseconds;
* the PDF in one process: seconds, pages, pages per second, and the split between WeasyPrint's
  layout and its PDF writing;
* the same number of pages of plain text laid out by WeasyPrint with the same page setup: the
  floor a printout cannot beat, and our overhead as a ratio to it;
* growth: rosters of 1 to 11 Earther regiments (18 to 198 units), each printed by a fresh
  process as ``armybuilder render`` would: seconds, pages, peak memory (the process's maximum
  resident set) and the ratio to WeasyPrint's plain pages of the same count, measured in the
  same process right after.

Usage (from the repository root)::

    python benchmarks/bench_render.py              # the Earther regiment, 3 repeats
    python benchmarks/bench_render.py --quick      # 1 repeat
    python benchmarks/bench_render.py --roster examples/infantry-ops/rifle-platoon.yaml
    python benchmarks/bench_render.py --sizes 1,11 --json figures.json

The script benchmarks the source tree it sits in and points ``ARMYBUILDER_HOME`` at a
temporary folder, so the user's own catalogs and templates are neither used nor touched.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import resource
import statistics
import subprocess
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


def many_regiments(n: int) -> str:
    """A roster of ``n`` copies of the example Earther regiment (18 units each)."""
    text = DEFAULT_ROSTER.read_text(encoding="utf-8")
    head, body = text.split("\nselections:\n", 1)
    head = re.sub(r"(?m)^name: .*$", f"name: {n} Earther regiments", head)
    copies = [
        body.replace("name: 291st Marine Regiment", f"name: Regiment {i + 1}", 1) for i in range(n)
    ]
    return head + "\nselections:\n" + "".join(copies)


def child(regiments: int, paper: str) -> int:
    """Print ``regiments`` regiments in this (fresh) process; print one JSON line."""
    from armybuilder.render import load, render_pdf

    folder = Path(tempfile.mkdtemp(prefix="armybuilder-bench-"))
    path = folder / f"regiments-{regiments}.yaml"
    path.write_text(many_regiments(regiments), encoding="utf-8")
    _, _, ev = load(path)
    units = sum(1 for n in ev.nodes() if n.entry is not None and n.entry.type == "unit")
    start = time.perf_counter()
    result = render_pdf(ev, paper=paper, jobs=1)
    seconds = time.perf_counter() - start
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    import weasyprint

    from armybuilder.render.html import paper_css

    plain = plain_text_html(result.pages)
    start = time.perf_counter()
    weasyprint.HTML(string=plain).render(
        stylesheets=[weasyprint.CSS(string=paper_css(paper) + "@page { margin: 15mm 12mm }")]
    ).write_pdf()
    plain_s = time.perf_counter() - start
    print(
        json.dumps(
            {
                "regiments": regiments,
                "units": units,
                "pages": result.pages,
                "seconds": seconds,
                "peak_mb": peak_mb,
                "plain_s": plain_s,
            }
        )
    )
    return 0


def growth(sizes: list[int], paper: str) -> list[dict[str, Any]]:
    """Run :func:`child` in a fresh process per size."""
    rows = []
    for n in sizes:
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(n), "--paper", paper],
            capture_output=True,
            text=True,
            check=True,
            env=os.environ.copy(),
        ).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--roster", type=Path, default=DEFAULT_ROSTER, help="roster to print")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--quick", action="store_true", help="one run per figure")
    parser.add_argument("--paper", choices=["a4", "letter"], default="a4")
    parser.add_argument("--json", type=Path, help="also write every figure as JSON")
    parser.add_argument(
        "--sizes",
        default="1,3,6,11",
        help="regiments per roster for the growth figures (comma-separated; empty: none)",
    )
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    repeat = 1 if args.quick else max(1, args.repeat)
    if args.child is not None:
        return child(args.child, args.paper)

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
            "plain text, WeasyPrint alone",
            f"{plain_s:.2f} s for {plain_pages} pages = {plain_pages / plain_s:.2f} pages/s",
        ),
        ("overhead, one process", f"{one_s / plain_s:.2f} × plain text"),
    ]
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    grown = growth(sizes, args.paper) if sizes else []
    figures["growth"] = grown
    for r in grown:
        rows.append(
            (
                f"{r['regiments']} regiment(s), {r['units']} units",
                f"{r['seconds']:.2f} s, {r['pages']} pages, peak {r['peak_mb']:.0f} MB"
                f" ({r['seconds'] / r['units'] * 1000:.0f} ms, {r['peak_mb'] / r['units']:.1f} MB"
                f" a unit); plain pages {r['plain_s']:.2f} s,"
                f" ratio {r['seconds'] / r['plain_s']:.1f}",
            )
        )
    width = max(len(k) for k, _ in rows)
    for k, v in rows:
        print(f"{k:<{width}}  {v}")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2, default=str) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
