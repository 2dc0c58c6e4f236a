"""Opening the regiment for editing, again, and saving it after one edit (issue 17, save path).

Run it in fresh processes alternating two trees, pinned to one CPU, e.g.::

    B=/work/wt-savefast/benchmarks/bench_save_open.py
    for i in 1 2 3; do for t in /work/main /work/wt-savefast; do
      (cd $t && PYTHONPATH=$t taskset -c 0 python $B $t); done; done

(the armybuilder measured is the one on ``PYTHONPATH``, imported before ``bench_validate``,
which would put its own tree first).

CPU time (``process_time``, all threads) of: the first eager open of the 75-platoon regiment of
``bench_validate.py``; a second eager open of the same file (its merge base can come from the
record of ``armybuilder/ownform.py``); a save after one rename; a lazy open of the text just
saved, until its worker has built the document (and its merge base). The cache folder is a
fresh temporary one (the library is scanned first, with the usual cache).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from armybuilder.catalog import Library
from armybuilder.session.editor import EditSession

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_validate as bv


def main() -> None:
    folder = Path(tempfile.mkdtemp())
    path = folder / "regiment.yaml"
    path.write_text(bv.regiment_roster(), encoding="utf-8")
    lib = Library().scan()
    import armybuilder

    print(f"armybuilder from {Path(armybuilder.__file__).parent.parent}", file=sys.stderr)
    os.environ["ARMYBUILDER_CACHE_DIR"] = str(folder / "cache")
    clock = time.process_time
    t = clock()
    session = EditSession.open(path, lib, lazy=False, autosave=False)
    first = clock() - t
    session.close()
    t = clock()
    session = EditSession.open(path, lib, lazy=False, autosave=False)
    again = clock() - t
    session.rename(("selections", 37), "Renamed")
    t = clock()
    session.save()
    save = clock() - t
    session.close()
    t = clock()
    session = EditSession.open(path, lib, autosave=False)
    while not session.roster.doc_ready:
        time.sleep(0.02)
    time.sleep(0.05)
    lazy = clock() - t
    label = sys.argv[1] if len(sys.argv) > 1 else ""
    print(
        f"{label} open1 {first * 1000:.0f} open2 {again * 1000:.0f} save {save * 1000:.0f} "
        f"lazy_saved_total {lazy * 1000:.0f}"
    )


if __name__ == "__main__":
    main()
