"""Vertical writing mode 1 (spec §4, §9): columns right to left, each top to bottom."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from glyphscope.core.glyph import Glyph


@dataclass(slots=True)
class _Column:
    x0: float
    x1: float
    y0: float
    y1: float
    glyphs: list[Glyph] = field(default_factory=list)


def _bounds(g: Glyph) -> tuple[float, float, float, float]:
    q = g.quad
    xs = (q[0][0], q[1][0], q[2][0], q[3][0])
    ys = (q[0][1], q[1][1], q[2][1], q[3][1])
    return min(xs), min(ys), max(xs), max(ys)


def vertical_columns(run: Sequence[Glyph]) -> list[tuple[tuple[float, float, float, float], list[Glyph]]]:
    """Group by box-centre horizontal overlap; returns (box, glyphs top→bottom) right to left.

    Glyphs are swept by centre x from the right: a glyph joins the current
    column when its centre lies within the column's horizontal extent (which
    grows with each member's box), else it opens the next column. O(n log n).
    """
    items = sorted(run, key=lambda g: (-g.center[0], -g.center[1], g.paint_index))
    columns: list[_Column] = []
    for g in items:
        x0, y0, x1, y1 = _bounds(g)
        cx = (x0 + x1) * 0.5
        col = columns[-1] if columns else None
        if col is not None and col.x0 <= cx <= col.x1:
            col.x0 = min(col.x0, x0)
            col.y0 = min(col.y0, y0)
            col.y1 = max(col.y1, y1)
            col.glyphs.append(g)
        else:
            columns.append(_Column(x0, x1, y0, y1, [g]))
    out = []
    for col in columns:
        col.glyphs.sort(key=lambda g: (-g.center[1], g.paint_index))
        out.append(((col.x0, col.y0, col.x1, col.y1), col.glyphs))
    return out
