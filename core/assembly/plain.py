"""Plain mode (spec §8): content-stream order = the visible list's paint order, with each
annotation's text where a reader meets it (core/assembly/annotation_order.py)."""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.annotation_order import annotations_in_place
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import flow_glyphs
from glyphscope.core.params import Parameters


def plain_text(
    visible: Sequence[Glyph], params: Parameters, mode: str = "plain", spans: ActualTextSpans | None = None
) -> PageText:
    out = TextBuilder(params, actual_text=spans)
    visible = annotations_in_place(visible)  # a field's value where a reader meets it
    join_flow(flow_glyphs(visible), out, params)  # the page's own order: light records do
    return out.build(mode)
