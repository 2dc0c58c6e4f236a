"""A speed-up of WeasyPrint's own code, installed only for the versions it was checked on.

WeasyPrint gives a float (a card header's note on the right) its shrink-to-fit width,
``min(max(min-content, available), max-content)``, and computes it twice for each float in a
line (once to see whether it fits, once to lay it out). The min-content width breaks the text
at every opportunity, word by word, which is most of that work, and it cannot change the
result when the max-content width fits the available width: then the formula gives the
max-content width whatever the min-content width is. :func:`shrink_to_fit` computes the
min-content width only when it matters; every width, so every page, is the same.

The function replaces WeasyPrint's in the modules that call it, and only for the versions in
:data:`CHECKED` (its source was read and the pages compared pixel for pixel); with any other
version WeasyPrint runs unchanged (the same pages, a little slower), and
``tests/render/test_speedups.py`` is skipped saying so until the patch is checked again for the
new version (and the version added here) or removed.

Without HarfBuzz's subsetter (libharfbuzz-subset) WeasyPrint subsets each embedded font with
fontTools, asking it to drop the font's GSUB and GPOS tables. fontTools (4.68) reads those
tables whole before it drops them (its compact layout step runs before the pruning step): two
thirds of a DejaVu font's subsetting, a quarter to two fifths of a roster's printing.
:class:`Subsetter` drops what the pruning step drops (the same tables, by the same rule, in
the same order) before it starts, so they are never read; the subset font is the same bytes.
It is installed for WeasyPrint's fonts only, for the fontTools versions in
:data:`CHECKED_FONTTOOLS`.
"""

from __future__ import annotations

from typing import Any

#: WeasyPrint versions whose ``layout/preferred.py`` was read for this patch.
CHECKED = ("70.0",)
#: The modules that import ``shrink_to_fit`` by name (WeasyPrint 70).
_CALLERS = ("preferred", "inline", "float", "absolute")

#: fontTools versions whose ``subset.Subsetter`` (``subset``, ``_prune_pre_subset``) was read.
CHECKED_FONTTOOLS = ("4.68.0",)

_installed = False
_subset_installed = False


def shrink_to_fit(context: Any, box: Any, available_content_width: float) -> float:
    """WeasyPrint's shrink-to-fit width of ``box`` (content area), computing the min-content
    width only when the max-content width does not fit."""
    from weasyprint.layout import preferred

    most: float = preferred.max_content_width(context, box, outer=False)
    if most <= available_content_width:
        return most
    least: float = preferred.min_content_width(context, box, outer=False)
    return min(max(least, available_content_width), most)


def _subsetter_class() -> Any:
    from fontTools import subset

    class Subsetter(subset.Subsetter):  # type: ignore[misc]
        """fontTools' subsetter, dropping the tables it would drop before it reads any."""

        def subset(self, font: Any) -> None:
            # The first rule of ``_prune_pre_subset``, table by table in its order; that step
            # then finds nothing more of it to drop.
            options = self.options
            for tag in self._sort_tables(font):
                if (
                    tag.strip() in options.drop_tables
                    or (tag.strip() in options.hinting_tables and not options.hinting)
                    or (tag == "kern" and (not options.legacy_kern and "GPOS" in font))
                ):
                    del font[tag]
            super().subset(font)

    return Subsetter


def install_subsetter() -> bool:
    """Give WeasyPrint's font subsetting (its ``pdf.fonts`` module) :class:`Subsetter` if
    the running WeasyPrint and fontTools were checked; whether it is installed."""
    global _subset_installed
    if _subset_installed:
        return True
    import types

    import fontTools
    import weasyprint

    if weasyprint.__version__ not in CHECKED or fontTools.version not in CHECKED_FONTTOOLS:
        return False
    from weasyprint.pdf import fonts

    original: Any = getattr(fonts, "subset", None)
    if not callable(getattr(original, "Subsetter", None)):
        return False
    fonts.subset = types.SimpleNamespace(Options=original.Options, Subsetter=_subsetter_class())
    _subset_installed = True
    return True


def install() -> bool:
    """Install the patches if the running WeasyPrint is one of :data:`CHECKED`; whether the
    shrink-to-fit patch is installed (the subsetter's: :func:`install_subsetter`)."""
    global _installed
    install_subsetter()
    if _installed:
        return True
    import importlib

    import weasyprint

    if weasyprint.__version__ not in CHECKED:
        return False
    modules = [importlib.import_module(f"weasyprint.layout.{name}") for name in _CALLERS]
    if not all(callable(getattr(m, "shrink_to_fit", None)) for m in modules):
        return False
    for module in modules:
        setattr(module, "shrink_to_fit", shrink_to_fit)  # noqa: B010
    _installed = True
    return True
