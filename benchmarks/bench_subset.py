"""CPU seconds of printing a roster on A4, laid out whole and in pieces, and of the font
subsetting inside it (WeasyPrint's ``Font.subset``; benchmarks/README.md, "CI time
(2026-11-28, second session): printing and files").

    PYTHONPATH=$PWD python benchmarks/bench_subset.py examples/starship-marine/earther-regiment.yaml
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from armybuilder.catalog import Library, default_roots
from armybuilder.render import load, render_pdf


def main(names: list[str]) -> None:
    from weasyprint.pdf import fonts

    spent = {"seconds": 0.0, "fonts": 0}
    original = fonts.Font.subset

    def timed(self: Any, *args: Any) -> None:
        start = time.process_time()
        original(self, *args)
        spent["seconds"] += time.process_time() - start
        spent["fonts"] += 1

    fonts.Font.subset = timed
    library = Library(default_roots()).scan()
    for name in names:
        ev = load(Path(name), library)[2]
        for pieces in (False, True):
            spent.update(seconds=0.0, fonts=0)
            start = time.process_time()
            result = render_pdf(ev, paper="a4", pieces=pieces, date="2026-01-01")
            total = time.process_time() - start
            print(
                f"{Path(name).name} pieces={pieces} pages={result.pages} total {total:.2f} s,"
                f" subsetting {spent['seconds']:.2f} s ({spent['fonts']} fonts)"
            )


if __name__ == "__main__":
    main(sys.argv[1:] or ["examples/starship-marine/earther-regiment.yaml"])
