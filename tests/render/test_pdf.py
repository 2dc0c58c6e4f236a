"""The PDF read back: page size, page count, running header and page numbers, the outline,
the legality stamp, and the Infantry Operations platoon sheet."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from render_helpers import EXAMPLES, IO_COMPANY, Rendered, count_boxes

from armybuilder.render import build_view, render_html
from armybuilder.rules.engine import Evaluation
from armybuilder.words import tally

RIFLE = EXAMPLES / "infantry-ops" / "rifle-platoon.yaml"
SRM = EXAMPLES / "infantry-ops" / "rifle-srm-platoon.yaml"

ILLEGAL = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: Two motives and a typo
limits: {kg: 1000}
selections:
  - entry: platoon
    name: Broken Platoon
    selections:
      - entry: foot
      - entry: jump
      - entry: squad
        count: 4
        selections:
          - entry: trooper
            count: 7
            selections: [{entry: auto-rifle}, {entry: kevlar-vest}]
  - entry: no-such-unit
"""

CAMPAIGN = """\
format: 1
system: infantry-ops
faction: inner-sphere
name: After the battle
selections:
  - entry: platoon
    name: Veteran Platoon
    experience: veteran
    state: {wounds: 3, ammo_spent: 5}
    selections:
      - entry: foot
      - entry: squad
        count: 4
        selections:
          - entry: trooper
            name: Riflemen
            count: 5
            state: {lost: 2}
            selections: [{entry: auto-rifle}, {entry: thrown-grenade}, {entry: flak-vest}]
          - entry: trooper
            name: Gunners
            count: 2
            selections: [{entry: light-mg}, {entry: kevlar-vest}]
"""


def test_a4_and_letter_page_sizes(render: Callable[..., Rendered]) -> None:
    a4 = render(RIFLE)
    letter = render(RIFLE, paper="letter")
    assert {a4.size(i) for i in range(a4.pages)} == {(595, 842)}
    assert {letter.size(i) for i in range(letter.pages)} == {(612, 792)}


def test_page_count_of_a_known_roster(render: Callable[..., Rendered]) -> None:
    # One page of roster, one platoon sheet, the force's odds card.
    assert render(RIFLE).pages == 3
    assert render(RIFLE).result.pages == 3
    assert render(RIFLE, sheets=False).pages == 1


def test_running_header_and_page_x_of_y(render: Callable[..., Rendered]) -> None:
    pdf = render(RIFLE)
    for i in range(pdf.pages):
        text = pdf.text(i)
        assert "Rifle platoon" in text
        assert f"page {i + 1} of {pdf.pages}" in text
        assert "Infantry Operations · Inner Sphere" in text


def test_outline_has_an_entry_per_unit(render: Callable[..., Rendered]) -> None:
    pdf = render(RIFLE)
    outline = pdf.outline()
    assert (1, "Roster: Rifle platoon", 0) in outline
    assert (2, "Foot Platoon (Rifle)", 0) in outline
    assert (1, "Record sheets", 1) in outline
    assert (2, "Foot Platoon (Rifle)", 1) in outline
    assert (2, "Odds", 2) in outline
    assert pdf.result.outline == [(p, d, t) for d, t, p in outline]


def test_roster_page_contents(render: Callable[..., Rendered]) -> None:
    text = render(SRM).text(0)
    assert "Rifle + SRM1 platoon" in text
    assert "Infantry Operations · Inner Sphere · 2026-01-31" in text
    assert "LEGAL" in text  # the stamp (upper case in print)
    assert "2,040 kg" in text  # the total
    # one line per unit: the squad's line names its models; their kit is on the sheet
    assert "6 models: Riflemen (SRM ammunition bearers) ×4, SRM1 gunners ×2" in text
    assert "Kevlar Vest" not in text
    assert "Support AV: 16" in text
    assert "Warnings (3)" in text


def test_illegal_roster_is_stamped_with_its_errors(
    render: Callable[..., Rendered],
    write_roster: Callable[[str, str], Path],
    evaluate_file: Callable[[Path], Evaluation],
) -> None:
    path = write_roster("illegal.yaml", ILLEGAL)
    ev = evaluate_file(path)
    assert not ev.valid
    n = len(ev.errors)
    pdf = render(path)
    first = pdf.text(0)
    squashed = re.sub(r"\s+", " ", first)
    assert f"NOT LEGAL: {n} ERRORS" in squashed  # the stamp
    assert f"Not legal: {n} errors" in squashed  # the heading of the list
    for issue in ev.errors:
        assert re.sub(r"\s+", " ", issue.message)[:40] in squashed
    assert "Not legal" in pdf.text(pdf.pages - 1)  # footer of every page
    assert "over by" in squashed  # the mass limit


def test_io_platoon_sheet(render: Callable[..., Rendered]) -> None:
    sheet = render(SRM).text(1)
    squashed = re.sub(r"\s+", " ", sheet)
    for word in ("Attack values and weapons", "Damage track", "Cluster hits", "Ammunition"):
        assert word in sheet
    # attack values, range brackets with modifiers, movement and morale
    # Counted as the roster tree counts them (words.tally: "Auto-Rifle ×16"), weapons and
    # the troopers of each squad alike.
    for name, n in [("Auto-Rifle", 16), ("SRM1", 8)]:
        assert tally([(name, n)])[0] in squashed
        assert f"{n} × {name}" not in squashed
    assert tally([("Riflemen (SRM ammunition bearers)", 4)])[0] + ": Knife/Bayonet" in squashed
    assert tally([("SRM1 gunners", 2)])[0] + ": Knife/Bayonet" in squashed
    assert "PB S M L EX" in squashed
    assert "3 (+0) 6 (+2) 9 (+4) 12 (+6)" in squashed  # SRM1 brackets
    assert "0 (-1) 1 (+0) 2 (+2) 3 (+4) 4 (+6)" in squashed  # Auto-Rifle brackets
    assert "MORALE TN 4" in squashed
    assert "0*" in squashed  # encumbered movement
    assert "Primary AV 8" in squashed and "Support AV 16" in squashed


def _cluster_column(html: str, column: int) -> list[int]:
    table = html.split('class="io-cluster"', 1)[1].split("</table>", 1)[0]
    rows = re.findall(r"<tr><th class=\"c\">(\d+)</th>(.*?)</tr>", table, re.S)
    return [int(re.findall(r">(\d+)<", cells)[column]) for _, cells in rows]


def test_io_cluster_hits_columns(evaluate_file: Callable[[Path], Evaluation]) -> None:
    html = render_html(build_view(evaluate_file(SRM)))
    # AV 8 and AV 16, as in the cluster hits table (rolls 2 to 12)
    assert _cluster_column(html, 0) == [2, 3, 3, 4, 4, 5, 5, 6, 7, 8, 8]
    assert _cluster_column(html, 1) == [5, 5, 7, 10, 10, 10, 10, 13, 13, 16, 16]


def test_cluster_columns_beyond_the_table() -> None:
    from armybuilder.render.html import _split_columns

    columns = [*range(1, 31), 40]
    assert _split_columns(35, columns) == [30, 5]
    assert _split_columns(40, columns) == [40]
    assert _split_columns(75, columns) == [40, 30, 5]
    assert _split_columns(12, columns) == [12]


def _track(html: str) -> str:
    return html.split('io-track"', 1)[1].split("</table>", 1)[0]


def _trooper_cells(track: str) -> list[str]:
    """The classes of the track's trooper cells (the cells holding boxes), in order."""
    return re.findall(r'<td class="([^"]*)"><span class="boxes', track)


def _boxes(html: str) -> int:
    return count_boxes(html)[0]


def test_io_damage_track_boxes(evaluate_file: Callable[[Path], Evaluation]) -> None:
    html = render_html(build_view(evaluate_file(SRM)))
    track = _track(html)
    # 24 troopers, none armoured: one box each; the 8 SRM gunners (support) come last
    assert _boxes(track) == 24
    troopers = _trooper_cells(track)
    assert len(troopers) == 24
    assert ["support" in t.split() for t in troopers] == [False] * 16 + [True] * 8


def test_campaign_state_prints_boxes_already_ticked(
    write_roster: Callable[[str, str], Path],
    evaluate_file: Callable[[Path], Evaluation],
    render: Callable[..., Rendered],
) -> None:
    path = write_roster("campaign.yaml", CAMPAIGN)
    html = render_html(build_view(evaluate_file(path)))
    track = _track(html)
    # 20 riflemen in flak vests (armour 1: two boxes), 8 gunners: 48 boxes
    assert _boxes(track) == 48
    # lost: 2 riflemen of each squad's selection... counted over the selection: 2 troopers
    # lost (4 boxes), then the platoon's 3 wounds on the next boxes in damage order.
    assert count_boxes(track)[1] == 4 + 3
    assert sum("lost" in t.split() for t in _trooper_cells(track)) == 2
    # 5 shots spent of the thrown grenades (the platoon's only ammunition), kept in volleys
    # of one grenade per carrier: the first volley is crossed, the shots are named
    ammo = html.split('class="io-ammo"', 1)[1].split("</table>", 1)[0]
    assert count_boxes(ammo)[1] == 1 and "5 already used" in ammo
    assert "Veteran" in render(path).text(1)


def test_jobs_option_prints_the_same_document(
    render: Callable[..., Rendered], write_roster: Callable[[str, str], Path]
) -> None:
    # A document is always laid out in one process (pixels compared in test_raster.py).
    # (`jobs` is ignored: a second print with jobs=1 would be the same print again, and
    # was 6 s of CPU; the document a user gets with --jobs 2 is checked whole here.)
    path = write_roster("company.yaml", IO_COMPANY)
    two = render(path, jobs=2)
    assert two.result.jobs == 1
    # a page of roster, a sheet per platoon, the force's odds card
    assert two.pages == 6
    outline = two.outline()
    assert outline and all(0 <= page < 6 for _, _, page in outline), outline
    for i in range(two.pages):
        assert f"page {i + 1} of 6" in two.text(i)
        assert "Rifle company" in two.text(i)
    assert sum("Platoon 3" in two.text(i) for i in range(two.pages)) >= 1


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_sheet_fits_one_page_on_both_papers(render: Callable[..., Rendered], paper: str) -> None:
    pdf = render(EXAMPLES / "infantry-ops" / "rifle-lmg-platoon.yaml", paper=paper)
    # the roster, the platoon's one sheet, the force's odds card on a page of its own
    assert pdf.pages == 3
    assert "Damage track" in pdf.text(1) and "Odds (exact)" not in pdf.text(1)
    assert "Odds (exact)" in pdf.text(2) and "Damage track" not in pdf.text(2)


def test_fewer_collections_restores_the_collector() -> None:
    """While WeasyPrint works the collector runs less often (pdf.fewer_collections: the
    heap frozen, a higher threshold); afterwards, also after an error and when nested, the
    process collects exactly as before and nothing stays frozen."""
    import gc

    from armybuilder.render import pdf

    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    with pdf.fewer_collections():
        assert gc.get_threshold()[0] >= pdf.GC_THRESHOLD
        assert gc.get_freeze_count() > frozen or frozen > 0
        with pdf.fewer_collections():
            assert gc.get_threshold()[0] >= pdf.GC_THRESHOLD
        assert gc.get_threshold()[0] >= pdf.GC_THRESHOLD  # the outer use still holds
    assert gc.get_threshold() == before and as_before(frozen)
    with pytest.raises(RuntimeError), pdf.fewer_collections():
        raise RuntimeError("layout failed")
    assert gc.get_threshold() == before and as_before(frozen)


def as_before(frozen: int) -> bool:
    """Whether the frozen heap is as it was before ``frozen`` objects were counted in it:
    none if there were none; else still frozen (not thawed) and no more of it, where some
    of what was frozen may have been freed since (by this process's other threads, or the
    test's own objects: a CI worker had 2 fewer, and the test failed on an exact count)."""
    import gc

    now = gc.get_freeze_count()
    return now == 0 if frozen == 0 else 0 < now <= frozen


#: Prints the Sirian platoon six times in a fresh process; the objects tracked after each.
PRINT_AGAIN = """\
import gc, json, sys
from pathlib import Path
from armybuilder.catalog import Library, default_roots
from armybuilder.render import load, render_pdf
ev = load(Path(sys.argv[1]), Library(default_roots(), use_cache=False).scan())[2]
counts = []
for _ in range(6):
    render_pdf(ev, sheets=False, date="2026-01-01")
    counts.append(len(gc.get_objects()))
print(json.dumps(counts))
"""


def test_printing_again_and_again_does_not_keep_memory() -> None:
    """A process that prints many rosters (the builder) stays the same size: what a document
    leaves for the collector is collected before the next one freezes the heap. Before, it was
    frozen with the heap, thawed into the oldest generation, seldom collected there, and piled
    up (about 17 MB per print of the Earther regiment). Counted as the objects the collector
    tracks after each print, which a busy machine does not change. In a process of its own,
    started for it: the prints and the collections before each cost the same whatever else
    the tests' process holds (its heap, after hundreds of tests, made each collection and
    count several times dearer), and no heap an earlier test froze is in the way."""
    import json
    import subprocess
    import sys

    path = EXAMPLES / "starship-marine" / "sirian-platoon.yaml"
    out = subprocess.run(
        [sys.executable, "-c", PRINT_AGAIN, str(path)], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    counts = json.loads(out.stdout.splitlines()[-1])
    # The first prints fill caches (stylesheets, fonts); from the third on, no growth (each
    # print left ~1,500 objects behind before, ~4,500 over these three; 8 prints re-tested
    # the same growth for a third more CPU).
    assert len(counts) == 6 and counts[-1] - counts[2] < 1_000, counts
