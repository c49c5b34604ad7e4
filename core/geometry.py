"""Affine matrices, points and boxes in PDF user space.

Matrices are plain 6-tuples ``(a, b, c, d, e, f)`` as written in PDF
(ISO 32000-1 §8.3.4): a point ``(x, y)`` maps to ``(a x + c y + e, b x + d y + f)``.
Tuples keep the interpreter's hot loop free of object overhead.
"""

from __future__ import annotations

import math
from typing import TypeAlias

Point: TypeAlias = tuple[float, float]
Matrix: TypeAlias = tuple[float, float, float, float, float, float]
Rect: TypeAlias = tuple[float, float, float, float]  # x0, y0, x1, y1 with x0 <= x1, y0 <= y1
Quad: TypeAlias = tuple[Point, Point, Point, Point]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def multiply(m1: Matrix, m2: Matrix) -> Matrix:
    """``m1 × m2``: apply m1 first, then m2 (PDF's row-vector convention)."""
    a1, b1, c1, d1, e1, f1 = m1
    a2, b2, c2, d2, e2, f2 = m2
    return (
        a1 * a2 + b1 * c2,
        a1 * b2 + b1 * d2,
        c1 * a2 + d1 * c2,
        c1 * b2 + d1 * d2,
        e1 * a2 + f1 * c2 + e2,
        e1 * b2 + f1 * d2 + f2,
    )


def apply(m: Matrix, x: float, y: float) -> Point:
    a, b, c, d, e, f = m
    return (a * x + c * y + e, b * x + d * y + f)


def invert(m: Matrix) -> Matrix | None:
    a, b, c, d, e, f = m
    det = a * d - b * c
    if det == 0:
        return None
    ia, ib, ic, id_ = d / det, -b / det, -c / det, a / det
    return (ia, ib, ic, id_, -(e * ia + f * ic), -(e * ib + f * id_))


def normalize_rect(x0: float, y0: float, x1: float, y1: float) -> Rect:
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def intersect(r1: Rect, r2: Rect) -> Rect | None:
    x0, y0 = max(r1[0], r2[0]), max(r1[1], r2[1])
    x1, y1 = min(r1[2], r2[2]), min(r1[3], r2[3])
    if x0 > x1 or y0 > y1:
        return None
    return (x0, y0, x1, y1)


def contains(r: Rect, p: Point) -> bool:
    return r[0] <= p[0] <= r[2] and r[1] <= p[1] <= r[3]


def quad_center(q: Quad) -> Point:
    return ((q[0][0] + q[2][0]) / 2.0, (q[0][1] + q[2][1]) / 2.0)


def quad_bounds(q: Quad) -> Rect:
    xs = (q[0][0], q[1][0], q[2][0], q[3][0])
    ys = (q[0][1], q[1][1], q[2][1], q[3][1])
    return (min(xs), min(ys), max(xs), max(ys))


def transform_rect(m: Matrix, r: Rect) -> Quad:
    """The four corners of ``r`` mapped through ``m`` (counter-clockwise from x0,y0)."""
    return (apply(m, r[0], r[1]), apply(m, r[2], r[1]), apply(m, r[2], r[3]), apply(m, r[0], r[3]))


def distance(p: Point, q: Point) -> float:
    return math.hypot(q[0] - p[0], q[1] - p[1])


def unit(dx: float, dy: float) -> Point:
    n = math.hypot(dx, dy)
    if n == 0:
        return (1.0, 0.0)
    return (dx / n, dy / n)
