"""The page as displayed: PDF user space mapped to a top-left origin, y down, /Rotate applied.

PDF user space has its origin at the bottom-left and y up (ISO 32000-1 §8.3.2.3); viewers,
pdfplumber and images put the origin at the displayed page's top-left corner with y down,
after turning the page clockwise by /Rotate. `display_matrix` is that mapping for any box
of the page: the visible box in points gives the object model's `x0, top, x1, bottom`, the
MediaBox at a scale gives the pixels of a page image (the window's frame).
"""

from __future__ import annotations

from glyphscope.core.geometry import Matrix, Quad, Rect, apply, invert, multiply, normalize_rect


def display_size(box: Rect, rotate: int, scale: float = 1.0) -> tuple[float, float]:
    """Width and height of `box` as displayed (turned by `rotate`) at `scale` units per point."""
    w, h = (box[2] - box[0]) * scale, (box[3] - box[1]) * scale
    return (h, w) if rotate % 180 == 90 else (w, h)


def display_matrix(box: Rect, rotate: int, scale: float = 1.0) -> Matrix:
    """User space → `box` as displayed: origin at its top-left corner, y down, turned clockwise
    by `rotate` (0, 90, 180, 270), `scale` units per point."""
    x0, y0, x1, y1 = box
    w, h = (x1 - x0) * scale, (y1 - y0) * scale
    unrotated: Matrix = (scale, 0.0, 0.0, -scale, -scale * x0, scale * y1)
    rotate %= 360
    if rotate == 90:
        rotation: Matrix = (0.0, 1.0, -1.0, 0.0, h, 0.0)
    elif rotate == 180:
        rotation = (-1.0, 0.0, 0.0, -1.0, w, h)
    elif rotate == 270:
        rotation = (0.0, -1.0, 1.0, 0.0, 0.0, w)
    else:
        return unrotated
    return multiply(unrotated, rotation)


def quad_bbox(quad: Quad, matrix: Matrix) -> Rect:
    """The upright box (x0, top, x1, bottom) around `quad` mapped through `matrix`."""
    xs, ys = zip(*(apply(matrix, x, y) for x, y in quad), strict=True)
    return (min(xs), min(ys), max(xs), max(ys))


def user_rect(bbox: Rect, matrix: Matrix) -> Rect:
    """A displayed box (x0, top, x1, bottom) back in user space (x0, y0, x1, y1): `matrix`
    turns by multiples of 90°, so an upright box stays upright."""
    inverse = invert(matrix)
    if inverse is None:
        raise ValueError("the page's box is empty: no displayed coordinates map back to user space")
    ax, ay = apply(inverse, bbox[0], bbox[1])
    bx, by = apply(inverse, bbox[2], bbox[3])
    return normalize_rect(ax, ay, bx, by)
