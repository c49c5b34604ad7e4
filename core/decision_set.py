"""The decisions of one page in one mode, passes first, as records (see core/analysis.py)."""

from __future__ import annotations

from typing import Any

from glyphscope.core.assembly import PageText
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import Parameters
from glyphscope.core.passes import ClassifiedGlyphs


def page_decisions(
    page: InterpretedPage, classified: ClassifiedGlyphs, text: PageText, params: Parameters
) -> list[Any]:
    """Culls and duplicates of the passes, then the decisions that made `text`."""
    return [*classified.culls, *classified.duplicates, *text.decisions]
