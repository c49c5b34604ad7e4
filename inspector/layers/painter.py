"""The layers' shapes drawn with Pillow: a page image with overlays and no Qt.

The same shapes the window paints (inspector/layers/shapes.py, built by the registry's
builders), in the same styles: outlines, sparse hatching (HATCH_SPACING_PX apart), rings,
lines and labels beside the box they name, off the page's letters (`LabelSpace`, as the window
places them).
`matrix` maps user space to image pixels (inspector.render.renderer.page_matrix).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from glyphscope.core.geometry import apply, invert
from glyphscope.inspector.layers.shapes import (
    HATCH_SPACING_PX,
    HATCH_WIDTH_PX,
    LABEL_BACKGROUND_ALPHA,
    LabelSpace,
    LayerShapes,
    Part,
    Style,
    fits,
    ink_test,
    outline_opacity,
    screen_bounds,
    text_origin,
)
from glyphscope.inspector.views.spatial import GlyphHitIndex, GridIndex

if TYPE_CHECKING:
    from PIL import Image, ImageDraw, ImageFont

    from glyphscope.core.geometry import Matrix
    from glyphscope.inspector.views.page_facts import PageFacts

LABEL_PIXELS = 11  # the window's 8.5 pt labels at 96 dpi
DASH_PX = (4.0, 3.0)  # on, off
DOT_PX = (1.5, 2.5)

Pixel = tuple[float, float]


def _rgba(colour: str, alpha: int) -> tuple[int, int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16), max(0, min(255, alpha)))


def _dashed(
    draw: ImageDraw.ImageDraw, a: Pixel, b: Pixel, fill: tuple[int, ...], width: int, pattern: Pixel
) -> None:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length == 0:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    on, off = pattern
    t = 0.0
    while t < length:
        end = min(t + on, length)
        draw.line(
            [(a[0] + ux * t, a[1] + uy * t), (a[0] + ux * end, a[1] + uy * end)], fill=fill, width=width
        )
        t = end + off


def _line(draw: ImageDraw.ImageDraw, points: Sequence[Pixel], style: Style, fill: tuple[int, ...]) -> None:
    width = max(1, round(style.width))
    if not (style.dash or style.dot):
        draw.line(list(points), fill=fill, width=width)
        return
    pattern = DASH_PX if style.dash else DOT_PX
    for a, b in zip(points, points[1:], strict=False):
        _dashed(draw, a, b, fill, width, pattern)


def _hatch(image: Image.Image, polygon: Sequence[Pixel], style: Style) -> None:
    """Diagonal lines HATCH_SPACING_PX apart inside `polygon` (as Qt's BDiagPattern)."""
    from PIL import Image, ImageDraw

    x0, y0, x1, y1 = screen_bounds(polygon)
    box = (math.floor(x0), math.floor(y0), math.ceil(x1) + 1, math.ceil(y1) + 1)
    w, h = box[2] - box[0], box[3] - box[1]
    if w <= 0 or h <= 0:
        return
    lines = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(lines)
    fill = _rgba(style.colour, style.hatch_alpha)
    step = int(HATCH_SPACING_PX)
    for k in range(-h - (box[0] + box[1]) % step, w + h, step):  # lines x + y = const, on the page's grid
        draw.line([(k, h), (k + h, 0)], fill=fill, width=int(HATCH_WIDTH_PX))
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).polygon([(x - box[0], y - box[1]) for x, y in polygon], fill=255)
    region = image.crop(box).convert("RGBA")
    region.alpha_composite(Image.composite(lines, Image.new("RGBA", (w, h), (0, 0, 0, 0)), mask))
    image.paste(region.convert(image.mode), box[:2])


def draw_part(
    image: Image.Image, draw: ImageDraw.ImageDraw, part: Part, matrix: Matrix, opacity: float
) -> None:
    style = part.style
    fill = _rgba(style.colour, round(style.line_alpha * opacity))
    for shape in part.closed_shapes():
        corners = [apply(matrix, x, y) for x, y in shape]
        if style.hatch:
            _hatch(image, corners, style)
        _line(draw, [*corners, corners[0]], style, fill)
    s = part.segments
    for k in range(0, len(s), 4):
        _line(draw, [apply(matrix, s[k], s[k + 1]), apply(matrix, s[k + 2], s[k + 3])], style, fill)
    for polyline in part.polylines:
        _line(draw, [apply(matrix, x, y) for x, y in polyline], style, fill)
    m = part.marks
    scale = math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
    for k in range(0, len(m), 3):
        x, y = apply(matrix, m[k], m[k + 1])
        r = max(m[k + 2] * scale, 1.0)
        draw.ellipse(
            (x - r, y - r, x + r, y + r),
            outline=fill,
            fill=fill if style.disc else None,
            width=max(1, round(style.width)),
        )


def draw_labels(
    image: Image.Image,
    shapes: LayerShapes,
    matrix: Matrix,
    font: ImageFont.ImageFont | ImageFont.FreeTypeFont,
    ink: GridIndex | None = None,
    space: LabelSpace | None = None,
) -> None:
    """The layer's labels, each beside its box where it covers no label of `space` (those drawn
    so far) and no box of `ink` (the page's glyphs, in user space)."""
    from PIL import ImageDraw, ImageFont

    draw = ImageDraw.Draw(image, "RGBA")
    if isinstance(font, ImageFont.FreeTypeFont):
        ascent, descent = font.getmetrics()
    else:  # Pillow's bitmap font (built without FreeType): four fifths of its box above the baseline
        height = font.getbbox("Ag")[3]
        ascent, descent = round(height * 0.8), round(height * 0.2)
    from_pixels = invert(matrix)
    covers = ink_test(ink, functools.partial(apply, from_pixels) if from_pixels is not None else None)
    space = space if space is not None else LabelSpace()  # as the window
    for label in shapes.labels:
        x0, y0, x1, y1 = label.of
        named = screen_bounds(apply(matrix, x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
        width = draw.textlength(label.text, font=font)
        if not fits(label, named, width):
            continue
        box = space.place(label, named, width, ascent, descent, covers)
        if box is None:
            continue
        if label.background:
            draw.rectangle(box, fill=_rgba(label.background, LABEL_BACKGROUND_ALPHA))
        x, y = text_origin(box, ascent)
        draw.text((x, y - ascent), label.text, fill=_rgba(label.colour, 255), font=font)


def draw_shapes(
    image: Image.Image,
    shapes: LayerShapes,
    matrix: Matrix,
    ink: GridIndex | None = None,
    space: LabelSpace | None = None,
) -> None:
    """One layer over `image` (RGB: translucent strokes are blended into it), in place; its labels kept off the boxes of `ink` and
    the labels of `space`."""
    from PIL import ImageDraw, ImageFont

    draw = ImageDraw.Draw(image, "RGBA")
    scale = math.sqrt(abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]))
    for part in shapes.parts:
        fade = part.style.fades
        opacity = outline_opacity(shapes.fade_height * scale, fade) if fade and shapes.fade_height else 1.0
        draw_part(image, draw, part, matrix, opacity)
    if shapes.labels:
        draw_labels(image, shapes, matrix, ImageFont.load_default(LABEL_PIXELS), ink, space)


def draw_layers(
    image: Image.Image, facts: PageFacts, keys: Iterable[str], mode: str, matrix: Matrix
) -> list[str]:
    """The layers `keys` (in the registry's order) over `image`; returns the keys drawn (a layer
    whose source is not there, such as the comparison, is left out)."""
    from glyphscope.inspector.layers import registry as L

    drawn = []
    ink: GridIndex | None = None  # the page's glyph boxes, made for the first layer with labels
    space = LabelSpace()  # one for every layer: no label over another layer's
    for key in L.keys_in_order(keys):
        shapes = L.LAYER_BY_KEY[key].shapes(facts, mode)
        if shapes is not None:
            if shapes.labels and ink is None:
                ink = GlyphHitIndex.of_glyphs(facts.page.glyphs).grid
            draw_shapes(image, shapes, matrix, ink, space)
            drawn.append(key)
    return drawn
