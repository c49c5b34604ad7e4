"""A uniform grid over user space for hit-testing glyph quads and markers (Qt-free)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from glyphscope.core.geometry import Point, Quad
from glyphscope.core.glyph_table import GEOM_STRIDE


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


def glyph_bounds(glyphs: Sequence[Any]) -> tuple[float, float, float, float] | None:
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


class GlyphHitIndex:
    """Which glyph is under a point: smallest containing quad, else the nearest within a radius."""

    def __init__(self, quads: Sequence[Quad]) -> None:
        self.quads = quads
        self.boxes = [quad_box(q) for q in quads]
        self.grid = GridIndex(self.boxes)
        self.bounds = boxes_bounds(self.boxes)

    def hit(self, p: Point, radius: float = 0.0) -> int | None:
        best: int | None = None
        best_area = math.inf
        for i in self.grid.near(p, radius):
            q = self.quads[i]
            if point_in_quad(p, q):
                x0, y0, x1, y1 = self.boxes[i]
                area = (x1 - x0) * (y1 - y0)
                if area <= best_area:  # later-painted wins a tie: it is on top
                    best, best_area = i, area
        if best is not None or radius <= 0:
            return best
        best_d = radius
        for i in self.grid.near(p, radius):
            x0, y0, x1, y1 = self.boxes[i]
            dx = max(x0 - p[0], 0.0, p[0] - x1)
            dy = max(y0 - p[1], 0.0, p[1] - y1)
            d = math.hypot(dx, dy)
            if d <= best_d:
                best, best_d = i, d
        return best


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
