"""Plain mode (spec §8): content-stream order = the visible list's paint order, with each
annotation's text where a reader meets it (core/assembly/annotation_order.py) and a deduped
run's survivors with their originals (core/assembly/survivors.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.annotation_order import annotation_places
from glyphscope.core.assembly.flow import join_flow
from glyphscope.core.assembly.modes import Mode
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.glyph import FlowFields, Glyph
from glyphscope.core.glyph_table import flow_glyphs
from glyphscope.core.params import Parameters


def plain_text(
    visible: Sequence[Glyph],
    params: Parameters,
    mode: str = Mode.PLAIN,
    spans: ActualTextSpans | None = None,
    survivors: Mapping[int, int] | None = None,
    combs: Mapping[int, tuple[int, float]] | None = None,
) -> PageText:
    """`survivors`: survivor → the glyph it is written after (core/assembly/survivors.py);
    `combs`: annotation index of a comb text field → (cells, cell width) (read as one word)."""
    out = TextBuilder(params, actual_text=spans)
    visible, moved_annotations = annotation_places(visible, params)  # a field's value where a reader meets it
    if survivors:
        from glyphscope.core.assembly.decisions import SurvivorPlacement
        from glyphscope.core.assembly.survivors import survivors_in_place

        visible, moved = survivors_in_place(visible, survivors)
        for survivor, after in sorted(moved.items()):
            out.decide(SurvivorPlacement(survivor, after))
    from glyphscope.core.assembly.rtl_runs import rtl_runs_in_visual_order

    visible, rtl_runs = rtl_runs_in_visual_order(visible, params.line_break)
    if rtl_runs:
        from glyphscope.core.assembly.decisions import RtlRunOrder

        for first, count, back in rtl_runs:
            out.decide(RtlRunOrder(first, count, back))
    if moved_annotations or combs:
        join_with_annotations(visible, moved_annotations, combs or {}, out, params)
    else:
        join_flow(flow_glyphs(visible), out, params)  # the page's own order: light records do
    return out.build(mode)


def join_with_annotations(
    visible: Sequence[Glyph],
    moved: list[tuple[int, int, int]],
    combs: Mapping[int, tuple[int, float]],
    out: TextBuilder,
    params: Parameters,
) -> None:
    """The flow, with two rules of annotation text: a word boundary before each annotation block
    placed after a page word's end (its decision generates the space: the block overlaps the
    word, whose gap glues), and a comb field's cells glued into one word (`comb_field`)."""
    from glyphscope.core.assembly.decisions import AnnotationPlacement, CombFieldDecision
    from glyphscope.core.assembly.lines import line_break_measure
    from glyphscope.core.assembly.verdicts import LB_SAME_LINE

    starts = {}
    for first, found, end in moved:
        starts[first] = out.decide(AnnotationPlacement(first, found, end))
    prev: FlowFields | None = None
    part: list[Glyph] = []
    for g in visible:
        i = starts.get(g.paint_index)
        if i is not None and part:
            prev = join_flow(part, out, params, prev)
            part = []
            if prev is not None and line_break_measure(prev, g, params.line_break)[0] == LB_SAME_LINE:
                out.generated(" ", i)
                prev = None  # the boundary is decided: the next part starts afresh
        comb = combs.get(g.annotation) if g.annotation >= 0 else None
        last = part[-1] if part else prev
        if comb is not None and isinstance(last, Glyph) and last.annotation == g.annotation and i is None:
            cells, cell = comb
            ux, uy = last.direction
            gap = (g.origin[0] - last.glyph_end[0]) * ux + (g.origin[1] - last.glyph_end[1]) * uy
            same_line = line_break_measure(last, g, params.line_break)[0] == LB_SAME_LINE
            if same_line and not (g.is_space or last.is_space) and gap <= cell:
                if part:
                    prev = join_flow(part, out, params, prev)
                    part = []
                out.decide(CombFieldDecision(last.paint_index, g.paint_index, gap, cell, cells))
                out.glyph(g)
                prev = g
                continue
        part.append(g)
    join_flow(part, out, params, prev)
