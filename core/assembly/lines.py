"""Line breaks from geometry (spec §4)."""

from __future__ import annotations

from glyphscope.core.assembly.decisions import LineBreakDecision, LineBreakVerdict
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters

BACKWARD_JUMP = 3.0
"""A glyph on the same baseline that starts more than this many box heights BEHIND the
previous glyph's end begins a new line (our addition to spec §4). Kerning, overstrikes
and combining accents move back by under one em and stay glued, as spec §3 accepts for
small reversed fragments; a jump back of several em is a new line that happens to share
the baseline (table cells or form fields painted right to left, a second pass over a line)."""


def line_break_decision(prev: Glyph, cur: Glyph, params: Parameters) -> LineBreakDecision:
    """New line iff |d| > line_break × max(heights), d = Δorigin · normal(prev.direction).

    The larger height keeps a big word and its tiny caption on one line; the
    normal of the writing direction makes rotated runs behave like upright ones.
    """
    ux, uy = prev.direction
    dx = cur.origin[0] - prev.origin[0]
    dy = cur.origin[1] - prev.origin[1]
    displacement = dy * ux - dx * uy  # normal = (−uy, ux), pointing "up" from the baseline
    height = prev.height if prev.height > cur.height else cur.height
    threshold = params.line_break * height
    gap = (cur.origin[0] - prev.glyph_end[0]) * ux + (cur.origin[1] - prev.glyph_end[1]) * uy
    backward = -BACKWARD_JUMP * height
    verdict: LineBreakVerdict
    if abs(displacement) > threshold:
        verdict = "break"
    elif height > 0.0 and gap < backward:
        verdict = "backward_jump"
    else:
        verdict = "same_line"
    return LineBreakDecision(
        prev.paint_index,
        cur.paint_index,
        verdict,
        displacement,
        threshold,
        params.line_break,
        height,
        gap,
        backward,
    )
