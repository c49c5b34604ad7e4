"""Affine matrices, points and boxes in PDF user space.

Matrices are plain 6-tuples ``(a, b, c, d, e, f)`` as written in PDF
(ISO 32000-1 §8.3.4): a point ``(x, y)`` maps to ``(a x + c y + e, b x + d y + f)``.
Tuples keep the interpreter's hot loop free of object overhead.
"""

from __future__ import annotations

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


def transform_rect(m: Matrix, r: Rect) -> Quad:
    """The four corners of ``r`` mapped through ``m`` (counter-clockwise from x0,y0)."""
    return (apply(m, r[0], r[1]), apply(m, r[2], r[1]), apply(m, r[2], r[3]), apply(m, r[0], r[3]))
