"""Where a decision sits on the page, and which gaps are near misses: the decisions' geometry.

Beside the decisions (core/assembly/decisions.py), not in a drawing module: the view model
(inspector/views/page_facts.py: which decision is under the pointer, the legend's counts)
and the layer builders (inspector/layers/builders.py: the ticks, rings and marks the window,
`render` and the report draw) both read this module, so a mark is where the pointer finds it.
All positions are in user space (y up); `glyphs` are the page's glyphs (rows with `origin`,
`glyph_end`, `direction` and `height`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, TypeAlias

from glyphscope.core.assembly.decisions import WordGapDecision

if TYPE_CHECKING:
    from glyphscope.core.assembly.decisions import Baseline, ColumnChangeDecision, LineBreakDecision
    from glyphscope.core.geometry import Point

    MarkedDecision: TypeAlias = WordGapDecision | LineBreakDecision | ColumnChangeDecision


class Placed(Protocol):
    """What the marks need of a glyph (a Glyph, or a row of the page's glyph table)."""

    @property
    def origin(self) -> Point: ...

    @property
    def glyph_end(self) -> Point: ...

    @property
    def direction(self) -> tuple[float, float]: ...

    @property
    def height(self) -> float: ...


NEAR_MISS = 0.2
"""A gap within ±20 % of its threshold is a near miss."""

GAP_MARK_LIFT = 0.42
"""A word gap's mark: this many glyph heights above the middle of the gap, along the normal."""

MIN_HEIGHT = 0.5
"""A glyph of no height is taken as this tall (points), so its marks do not collapse."""


def is_near_miss(d: WordGapDecision) -> bool:
    """A gap within ±NEAR_MISS of its threshold, decided either way: the decisions worth a look."""
    value, threshold = d.value, d.threshold
    if (
        value is None  # nothing was compared (a space glyph already there)
        or threshold is None
        or threshold <= 0
    ):
        return False
    return abs(value - threshold) <= NEAR_MISS * threshold


def gap_middle(prev: Placed, cur: Placed) -> Point:
    """The middle of the gap between `prev`'s end and `cur`'s origin."""
    return ((prev.glyph_end[0] + cur.origin[0]) * 0.5, (prev.glyph_end[1] + cur.origin[1]) * 0.5)


def gap_mark(prev: Placed, cur: Placed) -> Point:
    """Where a word gap between `prev` and `cur` is marked: GAP_MARK_LIFT heights of `cur` above
    the middle of the gap, along `prev`'s normal."""
    mid = gap_middle(prev, cur)
    h = max(cur.height, MIN_HEIGHT) * GAP_MARK_LIFT
    return (mid[0] - prev.direction[1] * h, mid[1] + prev.direction[0] * h)


def decision_point(glyphs: Sequence[Placed], d: MarkedDecision) -> Point | None:
    """Where a word-gap or line-break decision is marked (None for a line break that is none)."""
    prev, cur = glyphs[d.before], glyphs[d.after]
    if isinstance(d, WordGapDecision):
        return gap_mark(prev, cur)
    if getattr(d, "is_break", False):
        return (cur.origin[0], cur.origin[1])
    return None


def baseline_ends(b: Baseline) -> tuple[Point, Point]:
    """The baseline as a segment: the line's box quad runs along the frame; `y` is its across position."""
    q = b.quad
    ux, uy = q[1][0] - q[0][0], q[1][1] - q[0][1]
    n = (ux * ux + uy * uy) ** 0.5
    if n == 0:
        return (q[0], q[1])
    ux, uy = ux / n, uy / n
    a0 = q[0][0] * ux + q[0][1] * uy
    a1 = q[1][0] * ux + q[1][1] * uy
    y = b.y
    return ((a0 * ux - y * uy, a0 * uy + y * ux), (a1 * ux - y * uy, a1 * uy + y * ux))
