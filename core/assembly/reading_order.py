"""Auto mode's geometric reading order for a scrambled content stream (spec §9, auto mode).

Plain mode reads the content-stream order. Most producers write it in reading order; some
do not: an OCR layer written field by field, a tax form whose boxes are filled in the order
they were designed, a page assembled from pieces. On such a page plain mode jumps up and
down the page. Auto mode measures that on plain mode's own line sequence and, past a
threshold, reads in a geometric order instead:

* the measure: the lines of the stream order (the §4 line-break rule between successive
  non-space glyphs), and among successive line pairs the BACKWARD jumps (the next line starts
  above the previous one by more than the §4 line-break distance, or on the same baseline to
  its left) and the INTERLEAVED triples (line k and k+2 stand in one column, line k+1 wholly
  beside them: the stream reads across two columns row by row). scrambled iff
  (backward + interleaved) ≥ SCRAMBLED_SHARE × pairs and ≥ SCRAMBLED_MIN_JUMPS;
* the order: baselines top to bottom (the layout clustering, spec §9), each left to right
  (right to left where the bidi pass says so); where a gutter runs down at least
  COLUMN_MIN_LINES consecutive baselines between two stretches of prose (segments at least
  COLUMN_MIN_ADVANCES mean advances long on average), those baselines are read column by
  column. Tables and forms, whose cells are short, stay row by row.

Vertical-writing runs keep their own column path, and text in another direction than the
page's dominant one (rotated more than 5°) its stream order; both follow the page's lines.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from glyphscope.core.assembly.baselines import (
    DirectionFrame,
    Line,
    cluster_baselines,
    dominant_frame,
    mean_advance,
)
from glyphscope.core.assembly.chars import SPACE_LIKE
from glyphscope.core.assembly.decisions import ReadingOrderDecision
from glyphscope.core.assembly.flow import laid_out_sideways, sideways_as_horizontal, wmode_runs
from glyphscope.core.assembly.lines import line_break_measure
from glyphscope.core.assembly.verdicts import LB_JOINED
from glyphscope.core.glyph import FlowFields, Glyph
from glyphscope.core.params import Parameters

SCRAMBLED_SHARE = 0.25
"""Auto reads geometrically when backward jumps plus interleaved lines reach this share of the
stream's successive line pairs. Text in reading order has none but one per column or page
region (a two-column article: 1 in ~100 pairs); the scrambled pages of the corpus have 0.3–1.0."""

SCRAMBLED_MIN_JUMPS = 3
"""…and at least this many of them: on a page of three lines one jump is a third of the pairs
(a page number painted first), not a scrambled stream."""

SAME_DIRECTION = 0.996
"""cos 5°: glyphs whose writing direction is within 5° of the page's dominant one are on its
baselines; the others (rotated text) are read after them in stream order."""

COLUMN_MIN_LINES = 5
"""A gutter splits baselines into columns only when it runs down this many consecutive baselines."""

COLUMN_MIN_ADVANCES = 12.0
"""…and the segments beside it are prose: on average at least this many mean glyph advances
long. A table's or a form's cells are shorter, and those are read row by row."""


_LineBox = tuple[float, float, float, float]  # across (mean baseline), along min, along max, height


def _stream_lines(glyphs: Sequence[Glyph], frame: DirectionFrame, line_break: float) -> list[_LineBox]:
    boxes: list[_LineBox] = []
    prev: FlowFields | None = None
    ys: list[float] = []
    a0 = a1 = h = 0.0

    def close() -> None:
        if ys:
            boxes.append((sum(ys) / len(ys), a0, a1, h))

    ux, uy, up = frame.ux, frame.uy, frame.up  # frame.along and frame.across, inline
    for g in glyphs:
        if g.wmode or SPACE_LIKE[g.unicode]:  # g.is_space
            continue
        (x, y), (ex, ey) = g.origin, g.glyph_end
        start = x * ux + y * uy
        if prev is None or line_break_measure(prev, g, line_break)[0] not in LB_JOINED:
            close()
            ys = []
            a0 = a1 = start
            h = 0.0
        ys.append((y * ux - x * uy) * up)
        end = ex * ux + ey * uy
        a0 = min(a0, start, end)
        a1 = max(a1, start, end)
        h = max(h, g.height)
        prev = g
    close()
    return boxes


def scramble_measure(
    glyphs: Sequence[Glyph], frame: DirectionFrame, line_break: float
) -> ReadingOrderDecision:
    """Backward jumps and interleaved lines of `glyphs` read in the order given (plain's order)."""
    boxes = _stream_lines(glyphs, frame, line_break)
    backward = 0
    for (y0, a0, _, h0), (y1, a1, _, h1) in zip(boxes, boxes[1:]):
        h = line_break * max(h0, h1)
        if y1 > y0 + h or (abs(y1 - y0) <= h and a1 < a0):
            backward += 1
    interleaved = 0
    for k in range(len(boxes) - 2):
        (y0, s0, e0, _), (_, s1, e1, _), (y2, s2, e2, _) = boxes[k : k + 3]
        same_column = min(e0, e2) > max(s0, s2)
        beside = e1 < min(s0, s2) or s1 > max(e0, e2)
        if same_column and beside and y2 < y0:
            interleaved += 1
    return ReadingOrderDecision(len(boxes), backward, interleaved, SCRAMBLED_SHARE, SCRAMBLED_MIN_JUMPS)


def _segments(line: Line, frame: DirectionFrame, gap: float) -> list[tuple[float, float, list[Glyph]]]:
    """The line cut at gaps wider than `gap`: (start, end, glyphs) along the frame, measured on
    the ink only (spaces neither bridge nor open a gap; they ride with the segment before them,
    or the first one). A line of spaces only is one segment with start > end: no extent."""
    out: list[tuple[float, float, list[Glyph]]] = []
    current: list[Glyph] = []
    start, end = float("inf"), float("-inf")
    for g in line.glyphs:
        if not g.is_space:
            a, b = frame.along(g.origin), frame.along(g.glyph_end)
            lo, hi = min(a, b), max(a, b)
            if current and start <= end and lo - end > gap:
                out.append((start, end, current))
                current, start, end = [], float("inf"), float("-inf")
            start, end = min(start, lo), max(end, hi)
        current.append(g)
    if current:
        out.append((start, end, current))
    return out


def _ink(row: list[tuple[float, float, list[Glyph]]]) -> list[tuple[float, float]]:
    return [(s, e) for s, e, _ in row if s <= e]


def _spaces_in_place(glyphs: Sequence[Glyph], frame: DirectionFrame) -> tuple[Glyph, ...]:
    """A baseline's glyphs left to right (its letters), each space glyph right after the letter
    painted just before it when that one is on this baseline (the space a producer wrote after a
    word); another space only before the first letter or after the last one: a space of another
    line clustered into this one must not fall inside a word (`prestati on s`)."""
    ink = [g for g in glyphs if not g.is_space]
    if len(ink) == len(glyphs):
        return tuple(glyphs)
    here = {g.paint_index for g in ink}
    after: dict[int, list[Glyph]] = {}
    anchor_of: dict[int, int] = {}  # a placed space → the letter it follows (runs of spaces)
    lead: list[Glyph] = []
    tail: list[Glyph] = []
    first = frame.along(ink[0].origin) if ink else 0.0
    last = frame.along(ink[-1].glyph_end) if ink else 0.0
    for g in sorted((g for g in glyphs if g.is_space), key=lambda g: g.paint_index):
        before = g.paint_index - 1
        anchor = before if before in here else anchor_of.get(before)
        if anchor is not None:
            anchor_of[g.paint_index] = anchor
            after.setdefault(anchor, []).append(g)
        elif ink and frame.along(g.glyph_end) <= first:
            lead.append(g)
        elif not ink or frame.along(g.origin) >= last:
            tail.append(g)
        # else: a space of no word of this line, inside it: left out of the order
    out: list[Glyph] = [*lead]
    for g in ink:
        out.append(g)
        out.extend(after.get(g.paint_index, ()))
    return (*out, *tail)


def _space_line(
    g: Glyph, pred: int | None, lines: list[Line], ys: list[float], frame: DirectionFrame, line_break: float
) -> int | None:
    """The baseline a space glyph belongs to: that of the glyph painted before it when the space
    stands on it, else the nearest one within the §4 distance; None (left out) when none is."""
    y = frame.across(g.origin)
    limit = line_break * g.height
    if pred is not None and abs(lines[pred].y - y) <= limit:
        return pred
    i = bisect_left(ys, -y)
    best = min(
        (k for k in (i - 1, i) if 0 <= k < len(lines)), key=lambda k: abs(lines[k].y - y), default=None
    )
    return best if best is not None and abs(lines[best].y - y) <= limit else None


def _merge(
    covered: list[tuple[float, float]], row: list[tuple[float, float, list[Glyph]]]
) -> list[tuple[float, float]]:
    """`covered` (sorted, disjoint along-intervals) with the row's segments added."""
    spans = sorted([*covered, *_ink(row)])
    merged: list[tuple[float, float]] = []
    for s, e in spans:
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], e))
        else:
            merged.append((s, e))
    return merged


def _gutters(covered: list[tuple[float, float]], min_width: float) -> list[float]:
    """The middle of every uncovered interior interval at least `min_width` wide."""
    return [(a[1] + b[0]) * 0.5 for a, b in zip(covered, covered[1:]) if b[0] - a[1] >= min_width]


def _prose(rows: list[list[tuple[float, float, list[Glyph]]]], gutters: list[float], advance: float) -> bool:
    """Every column the gutters make holds segments COLUMN_MIN_ADVANCES long on average."""
    edges = [float("-inf"), *gutters, float("inf")]
    for lo, hi in zip(edges, edges[1:]):
        widths = [e - s for row in rows for s, e in _ink(row) if lo <= s and e <= hi]
        if not widths or sum(widths) / len(widths) < COLUMN_MIN_ADVANCES * advance:
            return False
    return True


def geometric_order(glyphs: Sequence[Glyph], params: Parameters) -> list[Glyph]:
    """The glyphs in reading order: column blocks where prose runs beside prose, else baselines
    top to bottom, each left to right; vertical-writing runs after, in their own order."""
    horizontal: list[Glyph] = []
    vertical: list[Glyph] = []
    for is_vertical, run in wmode_runs(glyphs):
        (vertical if is_vertical and not laid_out_sideways(run) else horizontal).extend(run)
    if not horizontal:
        return list(glyphs)
    horizontal = list(sideways_as_horizontal(horizontal))
    frame = dominant_frame(horizontal)
    # text in another direction (a notice turned along the margin, a diagonal stamp) keeps its
    # own order after the page's lines: clustered on the page's baselines it would be cut
    # into one letter per line
    upright = [
        g for g in horizontal if g.direction[0] * frame.ux + g.direction[1] * frame.uy >= SAME_DIRECTION
    ]
    if len(upright) < len(horizontal):
        kept = {g.paint_index for g in upright}
        vertical = [g for g in horizontal if g.paint_index not in kept] + vertical
        horizontal = upright
    # baselines from the ink: a tall space glyph would anchor two lines into one (they would
    # interleave letter by letter); each space then follows the letter painted before it
    lines = cluster_baselines([g for g in horizontal if not g.is_space], frame, params)
    advance = mean_advance(horizontal) or 1.0
    gap = params.columns_gap * advance
    line_of = {g.paint_index: k for k, line in enumerate(lines) for g in line.glyphs}
    spaces: list[list[Glyph]] = [[] for _ in lines]
    ys = [-line.y for line in lines]  # increasing: lines run top to bottom
    for g in horizontal:
        if g.is_space:
            k = _space_line(g, line_of.get(g.paint_index - 1), lines, ys, frame, params.line_break)
            if k is not None:
                line_of[g.paint_index] = k
                spaces[k].append(g)
    rows = [
        _segments(Line(line.y, _spaces_in_place((*line.glyphs, *spaces[k]), frame)), frame, gap)
        for k, line in enumerate(lines)
    ]
    out: list[Glyph] = []
    i = 0
    while i < len(rows):
        j, gutters = _column_block(rows, i, gap)
        if gutters and j - i >= COLUMN_MIN_LINES and _prose(rows[i:j], gutters, advance):
            edges = [float("-inf"), *gutters, float("inf")]
            for lo, hi in zip(edges, edges[1:]):
                for row in rows[i:j]:
                    for s, e, members in row:
                        if lo <= (s + e) * 0.5 < hi:
                            out.extend(members)
        else:  # no block, or a table's: row by row (a block inside it would be a table's too)
            j = max(j, i + 1)
            for row in rows[i:j]:
                out.extend(g for _, _, members in row for g in members)
        i = j
    return out + vertical


def _column_block(
    rows: list[list[tuple[float, float, list[Glyph]]]], i: int, gap: float
) -> tuple[int, list[float]]:
    """The longest run of baselines from `i` that one set of gutters divides: (end, gutters);
    (i, []) when the baseline at `i` has a single segment."""
    if len(_ink(rows[i])) < 2:
        return i, []
    covered: list[tuple[float, float]] = []
    end, found = i, []
    for j in range(i, len(rows)):
        covered = _merge(covered, rows[j])
        gutters = _gutters(covered, gap)
        if not gutters:
            break
        end, found = j + 1, gutters
    return end, found
