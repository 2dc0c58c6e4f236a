"""Memory of a process that prints the same roster again and again (as the builder does).

Prints the Earther regiment ``N`` times (argument, default 25) with ``render_pdf`` in one
process and shows the resident memory (VmRSS, Linux) after every fifth print, the CPU time
a print (``time.process_time``), and the CPU time of the full collections
(``gc.collect``, timed) that ``pdf.fewer_collections`` runs before freezing the heap.

    PYTHONPATH=$PWD python benchmarks/bench_reprint.py 25
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from armybuilder import render

ROSTER = Path(__file__).resolve().parent.parent / "examples/starship-marine/earther-regiment.yaml"


def rss_mb() -> int:
    """This process's resident memory in MB (0 where /proc is absent)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS"):
                    return int(line.split()[1]) // 1024
    except OSError:
        pass
    return 0


def main() -> None:
    prints = int(sys.argv[1]) if len(sys.argv) > 1 else 25
    collect = gc.collect
    spent = [0.0, 0.0]

    def timed(generation: int = 2) -> int:
        start = time.process_time()
        found = collect(generation)
        spent[0] += time.process_time() - start
        spent[1] += 1
        return found

    gc.collect = timed
    _, _, ev = render.load(ROSTER)
    sizes = []
    start = time.process_time()
    for i in range(prints):
        render.render_pdf(ev, date="2026-01-01")
        if i % 5 == 4:
            sizes.append(rss_mb())
    cpu = time.process_time() - start
    print(f"RSS MB after 5, 10 ... {prints} prints: {sizes}")
    print(f"CPU {cpu:.1f} s = {cpu / prints:.2f} s a print")
    print(f"gc.collect: {spent[1]:.0f} calls, {spent[0] * 1000 / max(spent[1], 1):.0f} ms CPU each")


if __name__ == "__main__":
    main()
