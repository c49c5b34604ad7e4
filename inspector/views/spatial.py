"""A uniform grid over user space for hit-testing glyph quads and markers (Qt-free)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from glyphscope.core.geometry import Point, Quad
from glyphscope.core.glyph_table import GEOM_STRIDE
from glyphscope.inspector.views.ink import font_ascents, ink_quads

if TYPE_CHECKING:
    from glyphscope.core.glyph import Glyph
    from glyphscope.core.page import PageFont


def point_in_quad(p: Point, q: Quad) -> bool:
    """Inside a convex quad (either winding); degenerate quads never contain anything."""
    x, y = p
    sign = 0
    for i in range(4):
        ax, ay = q[i]
        bx, by = q[(i + 1) % 4]
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if cross != 0:
            s = 1 if cross > 0 else -1
            if sign == 0:
                sign = s
            elif s != sign:
                return False
    return sign != 0


class GridIndex:
    """Buckets of item ids by grid cell; items are boxes (x0, y0, x1, y1)."""

    def __init__(self, boxes: Sequence[tuple[float, float, float, float]], cell: float | None = None) -> None:
        self.boxes = boxes
        if cell is None:
            sizes = sorted(max(b[2] - b[0], b[3] - b[1]) for b in boxes) if boxes else [10.0]
            cell = max(4.0, 2.0 * sizes[len(sizes) // 2]) if sizes else 10.0
        self.cell = cell
        self.cells: dict[tuple[int, int], list[int]] = {}
        c = self.cell
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            if not all(math.isfinite(v) for v in (x0, y0, x1, y1)):
                continue
            cx0, cy0, cx1, cy1 = int(x0 // c), int(y0 // c), int(x1 // c), int(y1 // c)
            if (cx1 - cx0 + 1) * (cy1 - cy0 + 1) > 4096:  # absurdly large item: clamp its footprint
                cx1, cy1 = cx0 + 63, cy0 + 63
            for gx in range(cx0, cx1 + 1):
                for gy in range(cy0, cy1 + 1):
                    self.cells.setdefault((gx, gy), []).append(i)

    def meets(self, rect: tuple[float, float, float, float]) -> bool:
        """Whether any box overlaps `rect` (x0, y0, x1, y1) by more than touching."""
        c = self.cell
        x0, y0, x1, y1 = rect
        if not all(math.isfinite(v) for v in rect):
            return False
        if (x1 - x0) * (y1 - y0) > 4096 * c * c:  # wider than most of the grid: every box, once
            return any(b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3] for b in self.boxes)
        for gx in range(int(x0 // c), int(x1 // c) + 1):
            for gy in range(int(y0 // c), int(y1 // c) + 1):
                for i in self.cells.get((gx, gy), ()):
                    b = self.boxes[i]
                    if b[0] < x1 and x0 < b[2] and b[1] < y1 and y0 < b[3]:
                        return True
        return False

    def near(self, p: Point, radius: float = 0.0) -> Iterable[int]:
        c = self.cell
        x, y = p
        seen: set[int] = set()
        for gx in range(int((x - radius) // c), int((x + radius) // c) + 1):
            for gy in range(int((y - radius) // c), int((y + radius) // c) + 1):
                for i in self.cells.get((gx, gy), ()):
                    if i not in seen:
                        seen.add(i)
                        yield i


def quad_box(q: Quad) -> tuple[float, float, float, float]:
    xs = (q[0][0], q[1][0], q[2][0], q[3][0])
    ys = (q[0][1], q[1][1], q[2][1], q[3][1])
    return (min(xs), min(ys), max(xs), max(ys))


def boxes_bounds(
    boxes: Iterable[tuple[float, float, float, float]],
) -> tuple[float, float, float, float] | None:
    """The union of the finite boxes (x0, y0, x1, y1), or None when there is none."""
    finite = [b for b in boxes if all(math.isfinite(v) for v in b)]
    if not finite:
        return None
    return (
        min(b[0] for b in finite),
        min(b[1] for b in finite),
        max(b[2] for b in finite),
        max(b[3] for b in finite),
    )


def glyph_bounds(glyphs: Sequence[Glyph]) -> tuple[float, float, float, float] | None:
    """The union of the glyphs' finite quad boxes (`GlyphHitIndex.bounds`), read off the page's
    geometry column when it has one: no record, no index, for a canvas that must size itself now."""
    geom = getattr(glyphs, "geom", None)
    if geom is None:
        return boxes_bounds(quad_box(g.quad) for g in glyphs)
    if not len(glyphs):
        return None
    xs = [geom[k::GEOM_STRIDE] for k in (6, 8, 10, 12)]  # the quad's corners, x then y
    ys = [geom[k::GEOM_STRIDE] for k in (7, 9, 11, 13)]
    if all(math.isfinite(sum(c)) for c in (*xs, *ys)):  # the common case: every glyph placed
        return (min(map(min, xs)), min(map(min, ys)), max(map(max, xs)), max(map(max, ys)))
    return boxes_bounds(quad_box(g.quad) for g in glyphs)


NO_BOX = (math.nan, math.nan, math.nan, math.nan)
"""The box of a glyph without ink (the grid leaves it out)."""

SAME_LINE = 0.25
"""Two glyphs under the pointer are on one line when their baselines lie within this fraction of the
nearer one's height of each other: then the smaller box wins (a glyph nested in a drop cap)."""


class GlyphHitIndex:
    """Which glyph is under a point: the one whose ink is under it, else the one whose line is
    nearest, the smallest box on that line.

    With ink quads (views/ink.py), the glyphs whose ink contains the point come first: the
    one whose baseline is nearest wins, then (on one line) the one whose ink centre is nearest.
    A tall box ("“", a drop cap "F") then never takes a click on the letters of the next line.
    When no ink is under the point, candidates are the quads containing the point and, with a radius, those within it (the pointer
    in a word gap). The candidate whose baseline is nearest the point wins; among candidates on
    that line (SAME_LINE) a containing quad beats a near one, then the smaller box, then the later
    painted. So a tall glyph of the line above whose box reaches over this line is never chosen
    over this line's glyphs. Baselines are (origin, glyph end) pairs; without them the quad's
    middle line stands in for the baseline.
    """

    def __init__(
        self,
        quads: Sequence[Quad],
        baselines: Sequence[tuple[Point, Point]] | None = None,
        inks: Sequence[Quad | None] | None = None,
    ) -> None:
        self.quads = quads
        self.baselines = baselines
        self.boxes = [quad_box(q) for q in quads]
        self.grid = GridIndex(self.boxes)
        self.bounds = boxes_bounds(self.boxes)
        self.inks = inks
        self.ink_grid = (
            GridIndex([quad_box(q) if q is not None else NO_BOX for q in inks], cell=self.grid.cell)
            if inks is not None
            else None
        )

    @classmethod
    def of_glyphs(cls, glyphs: Sequence[Glyph], fonts: Iterable[PageFont] = ()) -> GlyphHitIndex:
        """The index of a page's glyphs, with their baselines and their ink (`fonts`: the page's
        fonts, whose ascents give the em of each glyph)."""
        return cls(
            [g.quad for g in glyphs],
            [(g.origin, g.glyph_end) for g in glyphs],
            ink_quads(glyphs, font_ascents(fonts)),
        )

    def line_distance(self, i: int, p: Point) -> float:
        """How far the point lies from glyph i's baseline, across the writing direction."""
        q = self.quads[i]
        (x0, y0), (x1, y1), _, (x3, y3) = q
        if self.baselines is not None:
            (ax, ay), (ex, ey) = self.baselines[i]
        else:
            ax, ay = (x0 + x3) * 0.5, (y0 + y3) * 0.5
            ex, ey = ax + x1 - x0, ay + y1 - y0
        ux, uy = ex - ax, ey - ay
        length = math.hypot(ux, uy)
        if length == 0.0:  # a zero-advance glyph: the quad's bottom edge gives the direction
            ux, uy = x1 - x0, y1 - y0
            length = math.hypot(ux, uy)
        if length == 0.0:
            return math.hypot(p[0] - ax, p[1] - ay)
        return abs(ux * (p[1] - ay) - uy * (p[0] - ax)) / length

    def _height(self, i: int) -> float:
        q = self.quads[i]
        return math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1])

    def ink_hit(self, p: Point) -> int | None:
        """The glyph whose ink contains the point: nearest baseline, then nearest ink centre."""
        if self.inks is None or self.ink_grid is None:
            return None
        inks = self.inks
        inked = []
        for i in self.ink_grid.near(p):
            q = inks[i]
            if q is not None and point_in_quad(p, q):
                inked.append((self.line_distance(i, p), i))
        if not inked:
            return None
        nearest = min(inked)
        tolerance = SAME_LINE * self._height(nearest[1])
        line = [i for d, i in inked if d <= nearest[0] + tolerance]

        def off_centre(i: int) -> tuple[float, int]:
            q = inks[i]
            assert q is not None
            cx, cy = (q[0][0] + q[2][0]) * 0.5, (q[0][1] + q[2][1]) * 0.5
            return (math.hypot(p[0] - cx, p[1] - cy), -i)

        return min(line, key=off_centre)

    def hit(self, p: Point, radius: float = 0.0) -> int | None:
        inked = self.ink_hit(p)
        if inked is not None:
            return inked
        candidates: list[tuple[float, bool, float, int]] = []  # (line distance, contains, area, i)
        for i in self.grid.near(p, radius):
            x0, y0, x1, y1 = self.boxes[i]
            contains = point_in_quad(p, self.quads[i])
            if not contains:
                if radius <= 0:
                    continue
                dx = max(x0 - p[0], 0.0, p[0] - x1)
                dy = max(y0 - p[1], 0.0, p[1] - y1)
                if math.hypot(dx, dy) > radius:
                    continue
            candidates.append((self.line_distance(i, p), contains, (x1 - x0) * (y1 - y0), i))
        if not candidates:
            return None
        nearest = min(candidates)
        tolerance = SAME_LINE * self._height(nearest[3])
        line = [c for c in candidates if c[0] <= nearest[0] + tolerance]
        # containing first, then the smaller box, then the later painted (it is on top)
        return min(line, key=lambda c: (not c[1], c[2], -c[3]))[3]


class PointIndex:
    """Nearest marker (a point with an id) within a radius."""

    def __init__(self, points: Sequence[Point], cell: float = 8.0) -> None:
        self.points = points
        self.grid = GridIndex([(x, y, x, y) for x, y in points], cell=cell)

    def nearest(self, p: Point, radius: float) -> int | None:
        best, best_d = None, radius
        for i in self.grid.near(p, radius):
            x, y = self.points[i]
            d = math.hypot(x - p[0], y - p[1])
            if d <= best_d:
                best, best_d = i, d
        return best


RUN_GAP = 1.5
"""Two selected glyphs painted one after the other join one run when the second starts within this
many of the first's heights of where the first ended, on its line (SAME_LINE): the words of a
line (an OCR layer places each word on its own) make one run."""


def selection_runs(glyphs: Sequence[Glyph], indices: Iterable[int]) -> list[Quad]:
    """The selected glyphs as runs along their lines, one quad each: a run is outlined once, so
    a selected line (or a whole layer of them) is a few frames around the words, never a fence of
    per-glyph outlines over the letters. Spaces join a run but never start or end one."""
    n = len(glyphs)
    runs: list[Quad] = []
    first = last = None
    for i in sorted(i for i in indices if 0 <= i < n):
        g = glyphs[i]
        if last is not None and first is not None and _continues(glyphs[last], g, i - last):
            last = i
            continue
        if first is not None and last is not None:
            runs.append(_run_quad(glyphs[first], glyphs[last]))
        first = last = i
    if first is not None and last is not None:
        runs.append(_run_quad(glyphs[first], glyphs[last]))
    return runs


def _continues(prev: Glyph, g: Glyph, step: int) -> bool:
    if step != 1 or prev.direction != g.direction or prev.wmode or g.wmode:
        return False
    height = max(prev.height, g.height, 1e-6)
    ex, ey = prev.pen_end
    ox, oy = g.origin
    if math.hypot(ox - ex, oy - ey) > RUN_GAP * height:
        return False
    return abs(prev.height - g.height) <= SAME_LINE * height


def _run_quad(a: Glyph, b: Glyph) -> Quad:
    """From the start edge of glyph `a` to the end edge of glyph `b` (one line)."""
    qa, qb = a.quad, b.quad
    return (qa[0], qb[1], qb[2], qa[3])
