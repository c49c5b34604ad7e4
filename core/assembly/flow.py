"""Joining glyphs in a given order with the pair rules (spec §3, §4): plain, structure, columns."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from operator import attrgetter
from typing import TypeVar, cast

from glyphscope.core.assembly.chars import TextInfo, text_info
from glyphscope.core.assembly.lines import LineBreakMeasure, line_break_measure
from glyphscope.core.assembly.page_text import TextBuilder
from glyphscope.core.assembly.tracking import track
from glyphscope.core.assembly.verdicts import LB_JOINED, WG_SPACE, ColumnChangeVerdict
from glyphscope.core.assembly.words import WordGapMeasure, word_gap_measure
from glyphscope.core.glyph import FlowFields, Glyph
from glyphscope.core.glyph_table import FlowColumns
from glyphscope.core.params import Parameters

F = TypeVar("F", bound=FlowFields)


def join_pair(
    prev: FlowFields,
    cur: FlowFields,
    out: TextBuilder,
    params: Parameters,
    before: TextInfo | None = None,
    after: TextInfo | None = None,
    lb: LineBreakMeasure | None = None,
    wg: WordGapMeasure | None = None,
) -> None:
    """Line break first; the word-gap rule applies only on the same line.

    `lb` and `wg` are the pair's measures when the caller already took them (a line's
    word gaps are taken before its letter-spaced stretches are known, core/assembly/tracking.py).

    Nothing is decided between two glyphs of one replacement span (/ActualText): the
    span's text is written once, whole.
    """
    if out.actual is not None and out.same_span(prev, cur):
        return
    if lb is None:
        lb = line_break_measure(prev, cur, params.line_break)
    i = out.decide_line_break(prev.paint_index, cur.paint_index, lb)
    if lb[0] not in LB_JOINED:
        out.newline(i)
        return
    if wg is None:
        wg = word_gap_measure(prev, cur, params, before, after)
    j = out.decide_word_gap(prev.paint_index, cur.paint_index, wg)
    if wg[0] in WG_SPACE:  # WordGapDecision.inserted
        out.generated(" ", j)


def wmode_runs(glyphs: Sequence[F]) -> list[tuple[bool, Sequence[F]]]:
    runs: list[tuple[bool, Sequence[F]]] = []
    start = 0
    for i in range(1, len(glyphs) + 1):
        if i == len(glyphs) or (glyphs[i].wmode == 1) != (glyphs[start].wmode == 1):
            runs.append((glyphs[start].wmode == 1, glyphs[start:i]))
            start = i
    return runs


def laid_out_sideways(run: Sequence[Glyph]) -> bool:
    """A vertical-font run painted glyph by glyph ACROSS its writing direction.

    Seen in the wild (Identity-V fonts positioned along horizontal lines): most
    consecutive glyphs step sideways instead of down the column. Reading such a
    run as columns would reverse every line, so it takes the ordinary pair rules.
    """
    sideways = 0
    for prev, cur in zip(run, run[1:]):
        ux, uy = prev.direction
        dx = cur.origin[0] - prev.origin[0]
        dy = cur.origin[1] - prev.origin[1]
        if abs(dy * ux - dx * uy) > abs(dx * ux + dy * uy):
            sideways += 1
    return sideways * 2 > len(run) - 1 > 0


def _as_horizontal(run: Sequence[Glyph]) -> list[Glyph]:
    """A sideways vertical-font run seen as horizontal text, every glyph measured in the run's frame.

    For runs painted sideways the pair rules must measure along the line the glyphs
    actually follow, not down the (unused) vertical writing direction. The line's direction
    is the one most of the run's boxes have along their bottom edge; each glyph is then the
    box its quad spans in that frame (origin at its low corner, height across), so a glyph
    painted across the run (a bracket turned upright) keeps its place on the line.
    """
    directions: Counter[tuple[float, float]] = Counter()
    for g in run:
        q0, q1 = g.quad[0], g.quad[1]
        dx, dy = q1[0] - q0[0], q1[1] - q0[1]
        norm = (dx * dx + dy * dy) ** 0.5
        if norm > 0:
            directions[(round(dx / norm, 3), round(dy / norm, 3))] += 1
    if not directions:
        return list(run)
    ux, uy = directions.most_common(1)[0][0]
    norm = (ux * ux + uy * uy) ** 0.5
    ux, uy = ux / norm, uy / norm
    nx, ny = -uy, ux
    out: list[Glyph] = []
    for g in run:
        along = [x * ux + y * uy for x, y in g.quad]
        across = [x * nx + y * ny for x, y in g.quad]
        a0, a1, c0, c1 = min(along), max(along), min(across), max(across)
        origin = (a0 * ux + c0 * nx, a0 * uy + c0 * ny)
        end = (a1 * ux + c0 * nx, a1 * uy + c0 * ny)
        out.append(g._replace(origin=origin, glyph_end=end, pen_end=end, direction=(ux, uy), height=c1 - c0))
    return out


def sideways_as_horizontal(glyphs: Sequence[Glyph]) -> Sequence[Glyph]:
    """The glyphs with every vertical-font run painted sideways seen as horizontal text.

    Geometric modes (layout, columns) cluster baselines along each glyph's direction;
    a sideways run must be measured along the line its glyphs follow, not its font's direction.
    """
    runs = wmode_runs(glyphs)
    if not any(vertical and laid_out_sideways(run) for vertical, run in runs):
        return glyphs
    out: list[Glyph] = []
    for vertical, run in runs:
        out.extend(_as_horizontal(run) if vertical and laid_out_sideways(run) else run)
    return out


def _join_vertical(
    run: Sequence[Glyph], prev: FlowFields | None, out: TextBuilder, params: Parameters
) -> FlowFields | None:
    """Columns right to left, top to bottom; one break per column change. Inside a column the §3
    word-gap rule is applied along it: the gap from one glyph's end to the next one's origin in
    the writing direction (down), against word_gap × the glyph's size across the column (its box
    height in the writing frame); between two ideographs the CJK rule (spec §9) as on a line."""
    if laid_out_sideways(run):
        return _join_horizontal(_as_horizontal(run), prev, out, params)
    # vertical writing's records: imported by the pages that have it (start-up time, issue 29)
    from glyphscope.core.assembly.decisions import ColumnChangeDecision, VerticalColumn
    from glyphscope.core.assembly.vertical import vertical_columns

    columns = vertical_columns(run)
    for c, (box, members) in enumerate(columns):
        x0, y0, x1, y1 = box
        quad = ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
        out.decide(VerticalColumn(c, quad, tuple(g.paint_index for g in members)))
    for c, (box, members) in enumerate(columns):
        for k, g in enumerate(members):
            if prev is not None and not out.same_span(prev, g):
                if k == 0 and c == 0:
                    join_pair(prev, g, out, params)  # entering the run from other text
                else:
                    pbox = box if k else columns[c - 1][0]
                    verdict = ColumnChangeVerdict.SAME_COLUMN if k else ColumnChangeVerdict.COLUMN_CHANGE
                    i = out.decide(
                        ColumnChangeDecision(
                            prev.paint_index, g.paint_index, verdict, c, g.center[0], pbox[0], pbox[2]
                        )
                    )
                    if k == 0:
                        out.newline(i)
                    else:
                        wg = word_gap_measure(prev, g, params)
                        j = out.decide_word_gap(prev.paint_index, g.paint_index, wg)
                        if wg[0] in WG_SPACE:  # WordGapDecision.inserted
                            out.generated(" ", j)
            out.glyph(g)
            prev = g
    return prev


def join_flow(
    glyphs: Sequence[FlowFields], out: TextBuilder, params: Parameters, prev: FlowFields | None = None
) -> FlowFields | None:
    """Emit glyphs in the given order; vertical-writing runs take their own path.

    `prev` continues from text already emitted (pairs across the boundary are decided
    with the same rules). Returns the last glyph emitted. Vertical runs come as `Glyph`
    records (their path reads quads; flow_glyphs makes light records only without them).
    """
    if isinstance(glyphs, FlowColumns):  # light records: written horizontally only
        return _join_horizontal(glyphs, prev, out, params)
    for vertical, run in wmode_runs(glyphs):
        if vertical:
            if not isinstance(run[0], Glyph):
                raise TypeError("a vertical-writing run needs Glyph records")
            prev = _join_vertical(cast(Sequence[Glyph], run), prev, out, params)
        else:
            prev = _join_horizontal(run, prev, out, params)
    return prev


def _join_horizontal(
    run: Sequence[FlowFields], prev: FlowFields | None, out: TextBuilder, params: Parameters
) -> FlowFields | None:
    if out.actual is not None:
        return _join_measured(run, prev, out, params)
    if not run:
        return prev
    # One pass over the run's values: every pair measured and written (TextBuilder.join_run)
    columns = run.columns() if isinstance(run, FlowColumns) and prev is None else None
    if columns is not None:
        paints, rows = columns
    else:
        glyphs = run if prev is None else [prev, *run]
        paints = list(map(_paint_index, glyphs))
        rows = map(_flow_row, glyphs)
    if not out.join_run(paints, rows, params, 0 if prev is None else 1):
        _join_measured(run, prev, out, params)  # letter-spaced: every pair measured before any is written
    return run[-1]


_paint_index = attrgetter("paint_index")
_flow_row = attrgetter("paint_index", "unicode", "origin", "glyph_end", "height", "direction")


def _join_measured(
    run: Sequence[FlowFields], prev: FlowFields | None, out: TextBuilder, params: Parameters
) -> FlowFields | None:
    """Every pair's measures first, so letter-spaced stretches can be re-decided with their
    tracking before anything is written (the decisions are still recorded in reading order); on
    a page with replacement spans (/ActualText) nothing is decided between two glyphs of one span,
    and a glyph of a span writes the span's text (core/assembly/actual_text.py)."""
    # Each glyph's text facts are looked up once and serve both pairs it belongs to.
    info_of = text_info if out.actual is None else out.info
    if isinstance(run, FlowColumns):
        run = list(run)  # read over and over: its records made once
    glyphs = run if prev is None else [prev, *run]
    infos = [info_of(g) for g in glyphs]
    breaks: list[LineBreakMeasure | None] = []
    gaps: list[WordGapMeasure | None] = []
    line_break = params.line_break
    for k in range(1, len(glyphs)):
        a, b = glyphs[k - 1], glyphs[k]
        if out.same_span(a, b):
            breaks.append(None)
            gaps.append(None)
            continue
        lb = line_break_measure(a, b, line_break)
        breaks.append(lb)
        gaps.append(word_gap_measure(a, b, params, infos[k - 1], infos[k]) if lb[0] in LB_JOINED else None)
    track(glyphs, infos, gaps, params)
    # join_pair for every pair, with the measures already taken
    glyph, decide_pair, newline, generated = out.glyph, out.decide_pair, out.newline, out.generated
    for k in range(0 if prev is None else 1, len(glyphs)):
        g = glyphs[k]
        if k:
            measure = breaks[k - 1]
            if measure is not None:  # None: both glyphs in one replacement span, nothing is decided
                wg = gaps[k - 1]  # None exactly when the measure is a break
                i = decide_pair(glyphs[k - 1].paint_index, g.paint_index, measure, wg)
                if wg is None:
                    newline(i)
                elif wg[0] in WG_SPACE:
                    generated(" ", i + 1)
        glyph(g, infos[k].text)
    return glyphs[-1] if glyphs else prev
