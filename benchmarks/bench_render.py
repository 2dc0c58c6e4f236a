"""How fast armybuilder prints: a full Earther regiment (Starship Marine) with record sheets.

Figures: CPU time of this process (``time.process_time``, user + system: what the work costs,
much less swayed by other processes on a shared machine than the wall clock) beside the
wall-clock time (``time.perf_counter``), each the median of ``--repeat`` runs:

* the roster's HTML (view + Jinja2 templates), in milliseconds;
* the PDF in one process: seconds, pages, pages per second, and the split between WeasyPrint's
  layout and its PDF writing;
* the same number of pages of plain text laid out by WeasyPrint with the same page setup: the
  floor a printout cannot beat, and our overhead as a ratio to it;
* growth: rosters of 1 to 11 Earther regiments (18 to 198 units), each printed by a fresh
  process as ``armybuilder render`` would: seconds, pages, peak memory (the process's maximum
  resident set) and the ratio to WeasyPrint's plain pages of the same count, measured in the
  same process right after;
* with ``--calls``, the Python function calls WeasyPrint makes for one render of the roster
  (``cProfile``): a count of work that does not depend on the machine's load at all.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
DEFAULT_ROSTER = REPO / "examples" / "starship-marine" / "earther-regiment.yaml"

PLAIN_PAGE = "<p>" + "Plain text for a page of the same size. " * 12 + "</p>"


@dataclass
class Timing:
    """Median CPU seconds (this process, user + system) and median wall seconds."""

    cpu: float
    wall: float

    def __str__(self) -> str:
        return f"{self.cpu:.2f} s CPU ({self.wall:.2f} s wall)"


def median_time(fn: Callable[[], Any], repeat: int) -> tuple[Timing, Any]:
    """Median CPU and wall seconds of ``repeat`` calls, and the last call's result."""
    cpu: list[float] = []
    wall: list[float] = []
    result: Any = None
    for _ in range(repeat):
        start_cpu, start = time.process_time(), time.perf_counter()
        result = fn()
        cpu.append(time.process_time() - start_cpu)
        wall.append(time.perf_counter() - start)
    return Timing(statistics.median(cpu), statistics.median(wall)), result


def weasyprint_calls(fn: Callable[[], Any]) -> int:
    """Python function calls made in WeasyPrint's modules (and the libraries it drives:
    cssselect2, tinycss2, tinyhtml5, pydyf, fontTools) while ``fn()`` runs."""
    import cProfile
    import pstats

    prof = cProfile.Profile()
    prof.runcall(fn)
    stats = pstats.Stats(prof)
    libs = ("weasyprint", "cssselect2", "tinycss2", "tinyhtml5", "pydyf", "fontTools")
    return sum(
        ncalls
        for (filename, _, _), (_, ncalls, *_rest) in stats.stats.items()  # type: ignore[attr-defined]
        if any(f"/{lib}/" in filename for lib in libs)
    )


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
    start_cpu, start = time.process_time(), time.perf_counter()
    result = render_pdf(ev, paper=paper, jobs=1)
    seconds = time.perf_counter() - start
    cpu_s = time.process_time() - start_cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    import weasyprint

    from armybuilder.render.html import paper_css

    plain = plain_text_html(result.pages)
    start_cpu, start = time.process_time(), time.perf_counter()
    weasyprint.HTML(string=plain).render(
        stylesheets=[weasyprint.CSS(string=paper_css(paper) + "@page { margin: 15mm 12mm }")]
    ).write_pdf()
    plain_s = time.perf_counter() - start
    plain_cpu_s = time.process_time() - start_cpu
    print(
        json.dumps(
            {
                "regiments": regiments,
                "units": units,
                "pages": result.pages,
                "seconds": seconds,
                "cpu_s": cpu_s,
                "peak_mb": peak_mb,
                "plain_s": plain_s,
                "plain_cpu_s": plain_cpu_s,
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
    parser.add_argument(
        "--calls", action="store_true", help="also count WeasyPrint's function calls (cProfile)"
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

    html_t, html = median_time(
        lambda: render_html(build_view(ev), paper=args.paper, inline_css=False), repeat
    )
    figures["html_cpu_s"], figures["html_s"] = html_t.cpu, html_t.wall
    figures["html_chars"] = len(html)

    one_t, one = median_time(lambda: render_pdf(ev, paper=args.paper, jobs=1), repeat)
    pages = one.pages
    figures.update(
        pages=pages,
        one_process_cpu_s=one_t.cpu,
        one_process_s=one_t.wall,
        one_process_pages_per_cpu_s=pages / one_t.cpu,
    )

    # Where one process spends its time: layout versus writing the PDF.
    stylesheets = [pdfmod._css(pdfmod.Stylesheet(paper_css(args.paper), "file:///"), [])]
    from armybuilder.render.html import environment, stylesheet_names, template_source

    env = environment()
    base_url = (REPO / "templates").as_uri() + "/"
    for name in stylesheet_names(env, gs.id):
        sheet = pdfmod.Stylesheet(template_source(env, name)[0], base_url)
        stylesheets.append(pdfmod._css(sheet, []))
    layout_t, doc = median_time(
        lambda: weasyprint.HTML(string=html, base_url=base_url).render(stylesheets=stylesheets),
        repeat,
    )
    write_t, _ = median_time(doc.write_pdf, repeat)
    figures.update(
        layout_cpu_s=layout_t.cpu,
        layout_s=layout_t.wall,
        write_cpu_s=write_t.cpu,
        write_s=write_t.wall,
    )

    # The floor: WeasyPrint alone, the same number of pages of plain text, same page setup.
    plain = plain_text_html(pages)

    def plain_pdf() -> bytes:
        return bytes(
            weasyprint.HTML(string=plain, base_url=base_url)
            .render(stylesheets=stylesheets)
            .write_pdf()
        )

    plain_t, _ = median_time(plain_pdf, repeat)
    plain_pages = len(
        weasyprint.HTML(string=plain, base_url=base_url).render(stylesheets=stylesheets).pages
    )
    figures.update(
        plain_cpu_s=plain_t.cpu,
        plain_s=plain_t.wall,
        plain_pages=plain_pages,
        overhead_one_process_cpu=one_t.cpu / plain_t.cpu,
        overhead_one_process=one_t.wall / plain_t.wall,
    )
    if args.calls:
        figures["weasyprint_calls"] = weasyprint_calls(
            lambda: render_pdf(ev, paper=args.paper, jobs=1)
        )
        figures["plain_weasyprint_calls"] = weasyprint_calls(plain_pdf)
    figures["machine"] = {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "weasyprint": weasyprint.__version__,
        "load_average": os.getloadavg() if hasattr(os, "getloadavg") else None,
    }

    rows = [
        ("roster", f"{figures['roster']} ({figures['selections']} selections)"),
        ("load average (1, 5, 15 min)", " ".join(f"{x:.2f}" for x in os.getloadavg())),
        ("import weasyprint", f"{import_s:.2f} s wall"),
        (
            "HTML (view + templates)",
            f"{html_t.cpu * 1000:.0f} ms CPU ({html_t.wall * 1000:.0f} ms wall),"
            f" {len(html) // 1024} KiB",
        ),
        (
            "PDF, one process",
            f"{one_t} for {pages} pages = {one_t.cpu / pages:.2f} s CPU a page",
        ),
        ("  of which WeasyPrint layout", str(layout_t)),
        ("  of which writing the PDF", str(write_t)),
        ("plain text, WeasyPrint alone", f"{plain_t} for {plain_pages} pages"),
        (
            "overhead, one process",
            f"{one_t.cpu / plain_t.cpu:.2f} × plain text in CPU time"
            f" ({one_t.wall / plain_t.wall:.2f} × in wall time)",
        ),
    ]
    if args.calls:
        rows.append(
            (
                "WeasyPrint function calls",
                f"{figures['weasyprint_calls'] / 1e6:.2f} M for the roster,"
                f" {figures['plain_weasyprint_calls'] / 1e6:.2f} M for the plain pages",
            )
        )
    sizes = [int(x) for x in args.sizes.split(",") if x.strip()]
    grown = growth(sizes, args.paper) if sizes else []
    figures["growth"] = grown
    for r in grown:
        rows.append(
            (
                f"{r['regiments']} regiment(s), {r['units']} units",
                f"{r['cpu_s']:.2f} s CPU ({r['seconds']:.2f} s wall), {r['pages']} pages,"
                f" peak {r['peak_mb']:.0f} MB ({r['cpu_s'] / r['units'] * 1000:.0f} ms CPU,"
                f" {r['peak_mb'] / r['units']:.1f} MB a unit); plain pages"
                f" {r['plain_cpu_s']:.2f} s CPU, ratio {r['cpu_s'] / r['plain_cpu_s']:.1f}",
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
