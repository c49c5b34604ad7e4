"""Fill colours as the visibility pass compares them: RGB 0–1, one tolerance, their JSON.

Below both the pass (core/visibility.py) and its records (core/visibility_records.py), so
neither imports the other for them.
"""

from __future__ import annotations

from typing import Any

from glyphscope.core.decision_protocol import number_json
from glyphscope.core.page import FillState

COLOUR_TOLERANCE = 0.01
"""Two colours are one when every RGB channel (0–1) differs by at most this (about 2/255)."""

WHITE: tuple[float, float, float] = (1.0, 1.0, 1.0)


def rgb(fs: FillState) -> tuple[float, float, float] | None:
    """A fill colour as RGB 0–1 (naive conversion; None when the colour space is not a device one)."""
    c = fs.components
    if fs.family == "gray" and len(c) == 1:
        return (c[0], c[0], c[0])
    if fs.family == "rgb" and len(c) == 3:
        return (c[0], c[1], c[2])
    if fs.family == "cmyk" and len(c) == 4:
        k = c[3]
        return (1.0 - min(1.0, c[0] + k), 1.0 - min(1.0, c[1] + k), 1.0 - min(1.0, c[2] + k))
    if fs.family in ("separation", "devicen") and c and all(v == 0.0 for v in c):
        return WHITE  # no colorant at all: the paper
    return None


def colour_json(fs: FillState) -> dict[str, Any]:
    return {"family": fs.family, "components": [number_json(v) for v in fs.components]}


def same_colour(a: tuple[float, float, float], b: tuple[float, float, float]) -> bool:
    """Two RGB colours are one: every channel differs by at most COLOUR_TOLERANCE."""
    return all(abs(x - y) <= COLOUR_TOLERANCE for x, y in zip(a, b))
