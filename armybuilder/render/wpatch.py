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
"""

from __future__ import annotations

from typing import Any

#: WeasyPrint versions whose ``layout/preferred.py`` was read for this patch.
CHECKED = ("70.0",)
#: The modules that import ``shrink_to_fit`` by name (WeasyPrint 70).
_CALLERS = ("preferred", "inline", "float", "absolute")

_installed = False


def shrink_to_fit(context: Any, box: Any, available_content_width: float) -> float:
    """WeasyPrint's shrink-to-fit width of ``box`` (content area), computing the min-content
    width only when the max-content width does not fit."""
    from weasyprint.layout import preferred

    most: float = preferred.max_content_width(context, box, outer=False)
    if most <= available_content_width:
        return most
    least: float = preferred.min_content_width(context, box, outer=False)
    return min(max(least, available_content_width), most)


def install() -> bool:
    """Install the patch if the running WeasyPrint is one of :data:`CHECKED`; whether it is
    installed."""
    global _installed
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
