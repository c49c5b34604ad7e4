"""Baseline clustering in the page's dominant writing frame (layout, columns, geometric tails)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

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
        a0 = c0 = math.inf
        a1 = c1 = -math.inf
        ux, uy, up = self.ux, self.uy, self.up
        for g in glyphs:
            for x, y in g.quad:
                a = x * ux + y * uy
                c = (y * ux - x * uy) * up
                a0 = min(a0, a)
                a1 = max(a1, a)
                c0 = min(c0, c)
                c1 = max(c1, c)
        return a0, c0, a1, c1


def _degrees(direction: Point) -> int:
    return round(math.degrees(math.atan2(direction[1], direction[0]))) % 360


def dominant_frame(glyphs: Sequence[Glyph]) -> DirectionFrame:
    """Most common writing direction (whole degrees) of the non-space glyphs; ties → smaller angle.

    The ascent side is voted by the same glyphs (quad[0] → quad[3] against the left normal).
    """
    counts: dict[int, int] = {}
    ink = [g for g in glyphs if not g.is_space]
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


@dataclass(frozen=True, slots=True)
class Line:
    y: float  # across-coordinate of the anchor (tallest glyph's origin)
    glyphs: tuple[Glyph, ...]  # sorted along the direction


def cluster_baselines(glyphs: Sequence[Glyph], frame: DirectionFrame, params: Parameters) -> list[Line]:
    """Top to bottom; a glyph joins the current line when within line_break × the larger height.

    The anchor is the line's tallest glyph, so superscripts and subscripts
    (smaller, raised or lowered) stay with their line. O(n log n).
    """
    keyed = sorted(((-frame.across(g.origin), frame.along(g.origin), g.paint_index), g) for g in glyphs)
    lines: list[Line] = []
    members: list[tuple[float, int, Glyph]] = []
    anchor_y = 0.0
    anchor_h = -1.0
    for (neg_y, along, p), g in keyed:
        y = -neg_y
        if members and anchor_y - y <= params.line_break * max(anchor_h, g.height):
            members.append((along, p, g))
            if g.height > anchor_h:
                anchor_y, anchor_h = y, g.height
            continue
        if members:
            lines.append(_line(anchor_y, members))
        members = [(along, p, g)]
        anchor_y, anchor_h = y, g.height
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
    for g in glyphs:
        if not g.is_space:
            a = g.advance
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
