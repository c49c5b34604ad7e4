"""Line breaks from geometry (spec §4)."""

from __future__ import annotations

from typing import TypeAlias

from glyphscope.core.assembly.verdicts import LB_BACKWARD_JUMP, LB_BREAK, LB_SAME_LINE, LB_STACKED
from glyphscope.core.glyph import FlowFields

BACKWARD_JUMP = 3.0
"""A glyph on the same baseline that starts more than this many box heights BEHIND the
previous glyph's end begins a new line (our addition to spec §4). Kerning, overstrikes
and combining accents move back by under one em and stay glued, as spec §3 accepts for
small reversed fragments; a jump back of several em is a new line that happens to share
the baseline (table cells or form fields painted right to left, a second pass over a line)."""


STACK_STEP = (0.6, 1.25)
"""A vertical run drawn with an upright horizontal font: the next CJK character stands one
step below the previous one — between these many box heights down (an em is about 0.75–0.9
of a CJK box; a table's rows of one-character cells stand further apart) — …"""
STACK_ALONG = 0.5
"""… and starts within this many box heights of it along the line (the same column)."""


def _stacked(
    prev: FlowFields, cur: FlowFields, displacement: float, height: float, ux: float, uy: float
) -> bool:
    """Two upright CJK glyphs, the second one character below the first in the same column: a
    vertical run painted with a horizontal font, read down the column as one line (pdftotext reads
    such columns as lines), not one character per line."""
    if not (-STACK_STEP[1] * height <= displacement <= -STACK_STEP[0] * height):
        return False
    along = (cur.origin[0] - prev.origin[0]) * ux + (cur.origin[1] - prev.origin[1]) * uy
    if abs(along) > STACK_ALONG * height:
        return False
    from glyphscope.core.assembly.chars import is_cjk

    a, b = prev.unicode, cur.unicode
    return bool(a and b and is_cjk(a[-1]) and is_cjk(b[0]))


def _leftward_rtl(prev: FlowFields, cur: FlowFields, ux: float, uy: float) -> bool:
    """A right-to-left letter on either side, and `cur` wholly before `prev`'s start: Arabic and
    Hebrew lines painted in reading order step leftwards, word by word or glyph by glyph (a Latin
    word in them too), so a step back along the baseline is the reading direction, not a new line."""
    from glyphscope.core.assembly.chars import RTL_CANDIDATE

    before, after = prev.unicode, cur.unicode
    if not ((before and RTL_CANDIDATE.match(before[-1])) or (after and RTL_CANDIDATE.match(after[0]))):
        return False
    end, start = cur.glyph_end, prev.origin
    return (end[0] - start[0]) * ux + (end[1] - start[1]) * uy <= 0.0


LineBreakMeasure: TypeAlias = tuple[int, float, float, float]
"""What the rule found for one pair: (verdict code (LINE_BREAK_VERDICTS), displacement d, height, gap)."""


def line_break_measure(prev: FlowFields, cur: FlowFields, line_break: float) -> LineBreakMeasure:
    """New line iff |d| > line_break × max(heights), d = Δorigin · normal(prev.direction).

    The larger height keeps a big word and its tiny caption on one line; the
    normal of the writing direction makes rotated runs behave like upright ones.
    (The rule; `line_break_decision` is its record.)
    """
    ux, uy = prev.direction
    origin, prev_origin, end = cur.origin, prev.origin, prev.glyph_end
    displacement = (origin[1] - prev_origin[1]) * ux - (origin[0] - prev_origin[0]) * uy  # normal = (−uy, ux)
    h0, h1 = prev.height, cur.height
    height = h0 if h0 > h1 else h1
    gap = (origin[0] - end[0]) * ux + (origin[1] - end[1]) * uy
    if abs(displacement) > line_break * height:
        if _stacked(prev, cur, displacement, height, ux, uy):
            return LB_STACKED, displacement, height, gap
        return LB_BREAK, displacement, height, gap
    if height > 0.0 and gap < -BACKWARD_JUMP * height and not _leftward_rtl(prev, cur, ux, uy):
        return LB_BACKWARD_JUMP, displacement, height, gap
    return LB_SAME_LINE, displacement, height, gap
