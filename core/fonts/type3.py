"""Type3 fonts: a simple font whose glyph space is mapped to text space by /FontMatrix.

Widths: w0 = w × FontMatrix[0] (ISO 32000-1 §9.4.4 uses the horizontal displacement).
A matrix with rotation or skew (b ≠ 0) is approximated by the length of its x axis,
keeping the sign of a, so advances stay meaningful. Ascent/descent: the y extent of
/FontBBox mapped through the full FontMatrix, so a y scale different from x (or a
flip) is honoured exactly for the box; then /Ascent & /Descent of a descriptor
scaled by the matrix's y axis; then 0.8 / -0.2.
"""

from __future__ import annotations

import math

from glyphscope.core.fonts.metrics import (
    DEFAULT_ASCENT,
    DEFAULT_DESCENT,
    bbox_of,
    descriptor_ascent_descent,
    sane_ascent_descent,
)
from glyphscope.core.fonts.pdfobj import as_numbers, dget
from glyphscope.core.fonts.simple import SimpleFont

DEFAULT_FONT_MATRIX = (0.001, 0.0, 0.0, 0.001, 0.0, 0.0)


class Type3Font(SimpleFont):
    is_type3 = True

    def __init__(self, font: object, font_id: str, subtype: str = "Type3") -> None:
        numbers = as_numbers(dget(font, "/FontMatrix"))
        matrix = tuple(numbers) if numbers is not None and len(numbers) == 6 else DEFAULT_FONT_MATRIX
        if matrix[0] == 0 and matrix[1] == 0:
            matrix = DEFAULT_FONT_MATRIX  # a singular x axis would make every advance 0
        self.font_matrix: tuple[float, ...] = matrix
        super().__init__(font, font_id, subtype)

    def _glyph_to_text_scale(self) -> float:
        a, b = self.font_matrix[0], self.font_matrix[1]
        return a if b == 0 else math.copysign(math.hypot(a, b), a or 1.0)

    def _ascent_descent(self) -> tuple[float, float]:
        a, b, c, d, e, f = self.font_matrix
        bbox = bbox_of(dget(self._font, "/FontBBox"))
        if bbox is not None:
            x0, y0, x1, y1 = bbox
            ys = [b * x + d * y + f for x in (x0, x1) for y in (y0, y1)]
            ascent, descent = max(ys), min(min(ys), 0.0)
            if sane_ascent_descent(ascent, descent, em=1.0):
                return ascent, descent
        y_scale = math.hypot(c, d)
        found = descriptor_ascent_descent(self._descriptor)
        if found is not None and y_scale > 0:
            ascent, descent = found[0] * y_scale, found[1] * y_scale
            if sane_ascent_descent(ascent, descent, em=1.0):
                return ascent, descent
        return DEFAULT_ASCENT, DEFAULT_DESCENT
