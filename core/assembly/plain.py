"""Plain mode (spec §8): content-stream order = the visible list's paint order, with each
annotation's text where a reader meets it (core/assembly/annotation_order.py) and a deduped
run's survivors with their originals (core/assembly/survivors.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.annotation_order import annotations_in_place
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import flow_glyphs
from glyphscope.core.params import Parameters


def plain_text(
    visible: Sequence[Glyph],
    params: Parameters,
    mode: str = "plain",
    spans: ActualTextSpans | None = None,
    survivors: Mapping[int, int] | None = None,
) -> PageText:
    """`survivors`: survivor → the glyph it is written after (core/assembly/survivors.py)."""
    out = TextBuilder(params, actual_text=spans)
    visible = annotations_in_place(visible)  # a field's value where a reader meets it
    if survivors:
        from glyphscope.core.assembly.decisions import SurvivorPlacement
        from glyphscope.core.assembly.survivors import survivors_in_place

        visible, moved = survivors_in_place(visible, survivors)
        for survivor, after in sorted(moved.items()):
            out.decide(SurvivorPlacement(survivor, after))
    join_flow(flow_glyphs(visible), out, params)  # the page's own order: light records do
    return out.build(mode)
