"""Columns mode (spec §8, §9): split baselines at wide gaps, group segments into columns."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.baselines import (
    DirectionFrame,
    Line,
    cluster_baselines,
    dominant_frame,
    mean_advance,
    median,
)
from glyphscope.core.assembly.chars import SPACE_LIKE
from glyphscope.core.assembly.decisions import ColumnSplit, TextColumn
from glyphscope.core.assembly.flow import join_flow, laid_out_sideways, wmode_runs
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters


@dataclass(slots=True)
class _Segment:
    line: int
    glyphs: list[Glyph]
    a0: float = 0.0
    a1: float = 0.0
    c0: float = 0.0
    c1: float = 0.0


_Split = tuple[Glyph, Glyph, float, int, int]  # before, after, gap, left segment, right segment


def _split_lines(
    lines: list[Line], frame: DirectionFrame, threshold: float
) -> tuple[list[_Segment], list[_Split], list[bool]]:
    """Segments per baseline and the (before, after, gap, left segment, right segment) splits."""
    segments: list[_Segment] = []
    splits: list[_Split] = []
    line_splits: list[bool] = []
    ux, uy = frame.ux, frame.uy  # frame.along, inline
    for li, line in enumerate(lines):
        current: list[Glyph] = []
        last_ink: Glyph | None = None  # spaces never bridge nor open a column gap
        split = False
        for g in line.glyphs:
            if not SPACE_LIKE[g.unicode]:  # not g.is_space
                if last_ink is not None:
                    (x, y), (ex, ey) = g.origin, last_ink.glyph_end
                    gap = (x * ux + y * uy) - (ex * ux + ey * uy)
                    if gap > threshold:
                        segments.append(_Segment(li, current))
                        splits.append((last_ink, g, gap, len(segments) - 1, len(segments)))
                        current = []
                        split = True
                last_ink = g
            current.append(g)
        segments.append(_Segment(li, current))
        line_splits.append(split)
    for s in segments:
        s.a0, s.c0, s.a1, s.c1 = frame.extent(s.glyphs)
    return segments, splits, line_splits


def _column_intervals(segments: list[_Segment], line_splits: list[bool]) -> list[tuple[float, float]]:
    """Union of the along-extents of segments from split baselines: the columns."""
    spans = sorted((s.a0, s.a1) for s in segments if line_splits[s.line])
    merged: list[list[float]] = []
    for a0, a1 in spans:
        if merged and a0 <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], a1)
        else:
            merged.append([a0, a1])
    return [(a, b) for a, b in merged]


def _assign(seg: _Segment, intervals: list[tuple[float, float]], starts: list[float]) -> int:
    """Column with the largest overlap (leftmost on ties), else the nearest one."""
    best, best_overlap = -1, 0.0
    i = bisect_right(starts, seg.a1) - 1
    while i >= 0 and intervals[i][1] >= seg.a0:
        overlap = min(seg.a1, intervals[i][1]) - max(seg.a0, intervals[i][0])
        if overlap >= best_overlap:
            best, best_overlap = i, overlap
        i -= 1
    if best >= 0:
        return best
    centre = (seg.a0 + seg.a1) * 0.5
    return min(
        range(len(intervals)), key=lambda k: (abs((intervals[k][0] + intervals[k][1]) * 0.5 - centre), k)
    )


def _split_vertical(visible: Sequence[Glyph]) -> tuple[list[Glyph], list[Glyph]]:
    """Horizontal glyphs, and the glyphs of vertical-writing runs that really run in columns.

    Vertical writing has its own column logic (right to left, spec §4), so it is
    kept out of the baseline clustering and emitted as one block after the
    horizontal columns.
    """
    horizontal: list[Glyph] = []
    vertical: list[Glyph] = []
    for is_vertical, run in wmode_runs(visible):
        if is_vertical and not laid_out_sideways(run):
            vertical.extend(run)
        else:
            horizontal.extend(run)
    return horizontal, vertical


def columns_text(
    visible: Sequence[Glyph], params: Parameters, spans: ActualTextSpans | None = None
) -> PageText:
    out = TextBuilder(params, actual_text=spans)
    if not visible:
        return out.build("columns")
    visible, vertical = _split_vertical(visible)
    if not visible:
        join_flow(vertical, out, params)
        return out.build("columns")
    frame = dominant_frame(visible)
    lines = cluster_baselines(visible, frame, params)
    heights = [g.height for g in visible if not g.is_space and g.height > 0] or [1.0]
    advance = mean_advance(visible) or 0.5 * median(heights)
    threshold = params.columns_gap * advance
    segments, splits, line_splits = _split_lines(lines, frame, threshold)
    for before, after, gap, left, right in splits:
        ls, rs = segments[left], segments[right]
        out.decide(
            ColumnSplit(
                before.paint_index,
                after.paint_index,
                gap,
                threshold,
                params.columns_gap,
                advance,
                frame.quad(ls.a0, ls.c0, ls.a1, ls.c1),
                frame.quad(rs.a0, rs.c0, rs.a1, rs.c1),
            )
        )
    intervals = _column_intervals(segments, line_splits)
    members: list[list[_Segment]]
    if not intervals:
        members = [segments]
    else:
        starts = [a for a, _ in intervals]
        members = [[] for _ in intervals]
        for seg in segments:
            members[_assign(seg, intervals, starts)].append(seg)
    members = [m for m in members if m]
    for c, segs in enumerate(members):
        segs.sort(key=lambda s: (s.line, s.a0))
        glyphs = [g for s in segs for g in s.glyphs]
        a0 = min(s.a0 for s in segs)
        a1 = max(s.a1 for s in segs)
        c0 = min(s.c0 for s in segs)
        c1 = max(s.c1 for s in segs)
        ci = out.decide(
            TextColumn(c, frame.quad(a0, c0, a1, c1), len(segs), tuple(g.paint_index for g in glyphs))
        )
        out.newline(ci, 2)  # one blank line between columns
        join_flow(glyphs, out, params)
    if vertical:
        xs = [p[0] for g in vertical for p in g.quad]
        ys = [p[1] for g in vertical for p in g.quad]
        box = ((min(xs), min(ys)), (max(xs), min(ys)), (max(xs), max(ys)), (min(xs), max(ys)))
        ci = out.decide(TextColumn(len(members), box, 1, tuple(g.paint_index for g in vertical)))
        out.newline(ci, 2)
        join_flow(vertical, out, params)
    return out.build("columns")
