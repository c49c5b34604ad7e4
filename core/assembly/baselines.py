"""Baseline clustering in the page's dominant writing frame (layout, columns, geometric tails)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter

from glyphscope.core.assembly.chars import SPACE_LIKE
from glyphscope.core.geometry import Point, Quad
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters


@dataclass(frozen=True, slots=True)
class DirectionFrame:
    """Coordinates along the dominant direction (`along`) and across it towards the glyphs'
    ascent (`across`, "up"). `up` is +1 when ascent lies on the left normal of the direction
    (ordinary text), −1 for mirrored text, so mirrored pages still read top to bottom."""

    ux: float
    uy: float
    up: float = 1.0

    @property
    def direction(self) -> Point:
        return (self.ux, self.uy)

    def along(self, p: Point) -> float:
        return p[0] * self.ux + p[1] * self.uy

    def across(self, p: Point) -> float:
        return (p[1] * self.ux - p[0] * self.uy) * self.up

    def to_user(self, a: float, c: float) -> Point:
        c *= self.up
        return (a * self.ux - c * self.uy, a * self.uy + c * self.ux)

    def quad(self, a0: float, c0: float, a1: float, c1: float) -> Quad:
        return (self.to_user(a0, c0), self.to_user(a1, c0), self.to_user(a1, c1), self.to_user(a0, c1))

    def extent(self, glyphs: Sequence[Glyph]) -> tuple[float, float, float, float]:
        """(along min, across min, along max, across max) over the glyphs' quads."""
        ux, uy, up = self.ux, self.uy, self.up
        corners = [point for g in glyphs for point in g.quad]
        along = [x * ux + y * uy for x, y in corners]
        across = [(y * ux - x * uy) * up for x, y in corners]
        # min and max from ±inf on, as a running min(a0, a) keeps them (NaN never replaces a bound)
        return (
            min(chain((math.inf,), along)),
            min(chain((math.inf,), across)),
            max(chain((-math.inf,), along)),
            max(chain((-math.inf,), across)),
        )


def _degrees(direction: Point) -> int:
    return round(math.degrees(math.atan2(direction[1], direction[0]))) % 360


def dominant_frame(glyphs: Sequence[Glyph]) -> DirectionFrame:
    """Most common writing direction (whole degrees) of the non-space glyphs; ties → smaller angle.

    The ascent side is voted by the same glyphs (quad[0] → quad[3] against the left normal).
    """
    counts: dict[int, int] = {}
    ink = [g for g in glyphs if not SPACE_LIKE[g.unicode]]  # not g.is_space
    degrees: dict[tuple[float, float], int] = {}  # few distinct directions per page
    for g in ink:
        deg = degrees.get(g.direction)
        if deg is None:
            deg = degrees[g.direction] = _degrees(g.direction)
        counts[deg] = counts.get(deg, 0) + 1
    if not counts:
        return DirectionFrame(1.0, 0.0)
    best = min(counts, key=lambda d: (-counts[d], d))
    exact = {0: (1.0, 0.0), 90: (0.0, 1.0), 180: (-1.0, 0.0), 270: (0.0, -1.0)}
    ux, uy = exact.get(best) or (math.cos(math.radians(best)), math.sin(math.radians(best)))
    vote = 0
    for g in ink:
        if degrees[g.direction] == best:
            q = g.quad
            side = (q[3][1] - q[0][1]) * ux - (q[3][0] - q[0][0]) * uy
            vote += 1 if side >= 0 else -1
    return DirectionFrame(ux, uy, 1.0 if vote >= 0 else -1.0)


_origin = attrgetter("origin")
_glyph_end = attrgetter("glyph_end")
_unicode = attrgetter("unicode")


BELOW_REACH = 0.8
"""A glyph whose baseline lies below the line's anchor joins it only within this × its own
height (as well as line_break × the larger of the two). line_break × the larger height alone
lets a tall glyph at the head of a line (a bracket or brace two lines tall) reach the next line
of ordinary text: two 12 pt lines 14 pt apart under a 32 pt bracket are 14 pt ≤ 0.5 × 29.6 pt
apart, but 14 pt > 0.8 × 11.1 pt. A subscript is lowered by less than half its own height
(TeX: 0.15–0.25 em of the text for a 0.5–0.7 em script), the next line of text lies at least
its own height below (solid leading: 1.08 × the box): 0.8 sits between."""


@dataclass(frozen=True, slots=True)
class Line:
    y: float  # across-coordinate of the anchor (tallest glyph's origin)
    glyphs: tuple[Glyph, ...]  # sorted along the direction


def cluster_baselines(glyphs: Sequence[Glyph], frame: DirectionFrame, params: Parameters) -> list[Line]:
    """Top to bottom; a glyph joins the current line when its baseline lies within line_break ×
    the larger height of it and the line's anchor, with two exceptions that keep a tall glyph
    from merging two lines of ordinary text:

    * below the anchor, a glyph must also lie within BELOW_REACH × its own height (a tall
      bracket heading a line does not take the next line);
    * a glyph taller than the anchor that reaches the line only by its own height (it lies below
      the anchor by more than line_break × the anchor's height) starts a line of its own when the
      glyph after it stands on its baseline and would not join by itself (a large initial sits on
      the third line, not on the second one it reaches up to).

    The anchor is the line's tallest glyph, so superscripts and subscripts (smaller, raised or
    lowered) stay with their line. O(n log n).
    """
    ux, uy, up = frame.ux, frame.uy, frame.up  # frame.across and frame.along, inline
    keyed = sorted(
        ((-((y * ux - x * uy) * up), x * ux + y * uy, g.paint_index), g)
        for g, (x, y) in zip(glyphs, map(_origin, glyphs))
    )
    lines: list[Line] = []
    members: list[tuple[float, int, Glyph]] = []
    anchor_y = 0.0
    anchor_h = -1.0
    reach = params.line_break
    below_reach = max(BELOW_REACH, reach)  # never tighter than line_break itself
    count = len(keyed)
    for i, ((neg_y, along, p), g) in enumerate(keyed):
        y = -neg_y
        h = g.height
        if members:
            d = anchor_y - y
            joins = d <= reach * max(anchor_h, h)
            if joins and d > 0 and h > 0 and d > below_reach * h:
                joins = False  # below the anchor, farther than its own reach
            if joins and h > anchor_h and d > reach * anchor_h and i + 1 < count:
                (next_neg_y, _, _), n = keyed[i + 1]
                ny = -next_neg_y
                if abs(ny - y) <= reach * max(h, n.height) and anchor_y - ny > reach * max(
                    anchor_h, n.height
                ):
                    joins = False  # a tall glyph on the next line's baseline: it starts that line
            if joins:
                members.append((along, p, g))
                if h > anchor_h:
                    anchor_y, anchor_h = y, h
                continue
            lines.append(_line(anchor_y, members))
        members = [(along, p, g)]
        anchor_y, anchor_h = y, h
    if members:
        lines.append(_line(anchor_y, members))
    return lines


def _line(y: float, members: list[tuple[float, int, Glyph]]) -> Line:
    # Positions are compared at 1/100 pt so float noise cannot reorder glyphs painted at the
    # same place (a leading space under its first letter); ties keep paint order.
    members.sort(key=lambda m: (round(m[0] * 100.0), m[1]))
    return Line(y, tuple(m[2] for m in members))


def mean_advance(glyphs: Sequence[Glyph]) -> float:
    """Mean own advance of the non-space glyphs; 0 when there is none."""
    total = 0.0
    n = 0
    for u, (ox, oy), (ex, ey) in zip(map(_unicode, glyphs), map(_origin, glyphs), map(_glyph_end, glyphs)):
        if not SPACE_LIKE[u]:
            dx = ex - ox  # Glyph.advance, inline
            dy = ey - oy
            a = (dx * dx + dy * dy) ** 0.5
            if a > 0:
                total += a
                n += 1
    return total / n if n else 0.0


def median(values: Sequence[float]) -> float:
    s = sorted(values)
    n = len(s)
    if not n:
        return 0.0
    mid = n // 2
    return s[mid] if n % 2 else (s[mid - 1] + s[mid]) * 0.5


def baseline_order(glyphs: Sequence[Glyph], params: Parameters) -> list[Glyph]:
    """Top to bottom, then left to right, in the dominant frame of these glyphs."""
    frame = dominant_frame(glyphs)
    return [g for line in cluster_baselines(glyphs, frame, params) for g in line.glyphs]
