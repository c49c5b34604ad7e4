"""The layers' shapes (inspector/layers/shapes.py) as QPainterPaths, and the code that paints them.

What a layer draws is declared in the registry (inspector/layers/registry.py) and built Qt-free;
here each part becomes one QPainterPath, once per page (in a worker thread: QPainterPath is
not a QObject). Parts are split into tiles, so painting a zoomed-in view touches only the
tiles the exposed rectangle meets. The canvas items and the headless renderer call the same
`paint_layer`, under the painter transform of `rendering.page_transform`. Pens are cosmetic:
widths are screen pixels; hatching is Qt's BDiagPattern (1 px lines, 8 px apart).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from glyphscope.core.geometry import Point, Quad
from glyphscope.core.glyph import GlyphStatus
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.layers.shapes import (
    FADE_FLOOR,
    LABEL_BACKGROUND_ALPHA,
    Label,
    LabelSpace,
    LayerMarks,
    LayerShapes,
    Marker,
    Part,
    Style,
    fits,
    ink_test,
    outline_opacity,
    screen_bounds,
    text_origin,
)
from glyphscope.inspector.views.page_facts import PageFacts
from glyphscope.inspector.views.spatial import GlyphHitIndex, GridIndex, glyph_bounds

__all__ = ["FADE_FLOOR", "Marker", "Style", "outline_opacity"]  # named through this module


@dataclass(slots=True)
class QtPart:
    style: Style
    path: QPainterPath
    bounds: QRectF  # in user space


@dataclass(slots=True)
class LayerDrawing(LayerMarks):
    """One layer's shapes as QPainterPaths; labels and markers are the shapes' own."""

    parts: list[QtPart] = field(default_factory=list)


def add_quad(
    path: QPainterPath, x0: float, y0: float, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float
) -> None:
    """One quad into `path`: an upright one as a rectangle (one Qt call), else four sides."""
    if y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0:
        path.addRect(x0, y0, x1 - x0, y2 - y0)
        return
    path.moveTo(x0, y0)
    path.lineTo(x1, y1)
    path.lineTo(x2, y2)
    path.lineTo(x3, y3)
    path.closeSubpath()


def qt_path(part: Part) -> QPainterPath:
    """A part's primitives as one QPainterPath (user space); an upright quad as one rectangle."""
    path = QPainterPath()
    q = part.quads
    move, line, close = path.moveTo, path.lineTo, path.closeSubpath
    for k in range(0, len(q), 8):
        add_quad(path, *q[k : k + 8])
    for polygon in part.polygons:
        path.addPolygon(QPolygonF([QPointF(x, y) for x, y in polygon]))
        close()
    s = part.segments
    for k in range(0, len(s), 4):
        move(s[k], s[k + 1])
        line(s[k + 2], s[k + 3])
    for polyline in part.polylines:
        move(*polyline[0])
        for x, y in polyline[1:]:
            line(x, y)
    m = part.marks
    for k in range(0, len(m), 3):
        path.addEllipse(QPointF(m[k], m[k + 1]), m[k + 2], m[k + 2])
    return path


def to_drawing(shapes: LayerShapes) -> LayerDrawing:
    parts = [
        QtPart(
            p.style, qt_path(p), QRectF(QPointF(p.bounds[0], p.bounds[1]), QPointF(p.bounds[2], p.bounds[3]))
        )
        for p in shapes.parts
    ]
    return LayerDrawing(**shapes.marks(), parts=parts)


# ---------------------------------------------------------------------------------------------
# Building


class PageOverlays:
    """The layer drawings of one page, each built on first use (mode layers once per mode)."""

    def __init__(self, facts: PageFacts) -> None:
        self.facts = facts
        self.form_colours = facts.forms.colours
        self.static: dict[str, LayerDrawing] = {}
        self.by_mode: dict[str, dict[str, LayerDrawing]] = {}
        self.bounds = glyph_bounds(facts.page.glyphs)  # where glyphs were painted, off the page too
        self._hit_index: GlyphHitIndex | None = None

    @property
    def hit_index(self) -> GlyphHitIndex:
        """Which glyph is under the pointer: built on first use (the page worker builds it after
        the page is shown, so the first hover does not wait)."""
        index = self._hit_index
        if index is None:
            index = self._hit_index = GlyphHitIndex.of_glyphs(self.facts.page.glyphs, self.facts.page.fonts)
        return index

    def ready(self, key: str, mode: str) -> bool:
        """Whether the text a layer is drawn from is assembled (LayerSpec.texts): the page is shown
        before its texts, and a layer drawn now would assemble them on the GUI thread."""
        spec = L.LAYER_BY_KEY.get(key)
        return spec is not None and L.texts_ready(self.facts, spec.texts, mode)

    def layer(self, key: str, mode: str) -> LayerDrawing | None:
        spec = L.LAYER_BY_KEY.get(key)
        if spec is None:
            return None
        cache = self.by_mode.setdefault(mode, {}) if spec.texts == L.SHOWN else self.static
        drawing = cache.get(key)
        if drawing is None:
            shapes = spec.shapes(self.facts, mode)
            if shapes is None:
                return None  # not there yet (not compared, not verified): asked again later
            drawing = cache[key] = to_drawing(shapes)
        return drawing

    def forget(self, keys: Iterable[str]) -> None:
        """Drop the drawings of `keys`: what they are drawn from changed (a page verified again)."""
        for key in keys:
            self.static.pop(key, None)


def build_overlays(facts: PageFacts, mode: str, prebuild: Iterable[str] = ()) -> PageOverlays:
    """Overlays of a page; the layers in `prebuild` whose texts are assembled are drawn now (in the
    worker), the rest on demand (`prebuild_ready` once the texts are in)."""
    overlays = PageOverlays(facts)
    prebuild_ready(overlays, mode, prebuild)
    if any(d.labels for d in (*overlays.static.values(), *overlays.by_mode.get(mode, {}).values())):
        _ = overlays.hit_index  # labels are kept off the glyphs (LabelSpace): not on the first paint
    return overlays


def prebuild_ready(overlays: PageOverlays, mode: str, prebuild: Iterable[str]) -> None:
    """Draw the layers of `prebuild` that can be drawn now and are not drawn yet."""
    for key in prebuild:
        if overlays.ready(key, mode):
            overlays.layer(key, mode)


def compare_layer(facts: PageFacts | None) -> LayerDrawing | None:
    """The Compare layer drawn afresh (the Compare panel refills the canvas's drawing in place once
    it has compared the page); None until it has (or without a page)."""
    if facts is None:
        return None
    spec = L.LAYER_BY_KEY["compare"]
    shapes = spec.shapes(facts, "plain")
    return None if shapes is None else to_drawing(shapes)


# ---------------------------------------------------------------------------------------------
# Painting

_PENS: dict[Style, tuple[QPen, QBrush]] = {}


def pen_brush(style: Style) -> tuple[QPen, QBrush]:
    """The Qt pen and brush a layer style paints with (made once per style)."""
    cached = _PENS.get(style)
    if cached is None:
        colour = QColor(style.colour)
        colour.setAlpha(style.line_alpha)
        pen = QPen(colour, style.width)
        pen.setCosmetic(True)
        if style.dash:
            pen.setStyle(Qt.PenStyle.DashLine)
        elif style.dot:
            pen.setStyle(Qt.PenStyle.DotLine)
        if style.hatch:  # Qt's pattern brushes are cosmetic: 1 px lines 8 px apart at every zoom
            fill = QColor(style.colour)
            fill.setAlpha(style.hatch_alpha)
            brush = QBrush(fill, Qt.BrushStyle.BDiagPattern)
        elif style.disc:
            brush = QBrush(colour)
        else:
            brush = QBrush(Qt.BrushStyle.NoBrush)
        cached = _PENS[style] = (pen, brush)
    return cached


def visible_user_rect(transform: QTransform, exposed: QRectF) -> QRectF:
    """The user-space rectangle behind an exposed scene (or image) rectangle."""
    inverse, ok = transform.inverted()
    if not ok:
        return QRectF(-1e9, -1e9, 2e9, 2e9)
    return inverse.mapRect(exposed)


def paint_layer(
    painter: QPainter,
    drawing: LayerDrawing,
    page_to_scene: QTransform,
    exposed: QRectF,
    ink: GridIndex | None = None,
    space: LabelSpace | None = None,
) -> None:
    """Paint one layer; `painter` draws in scene coordinates, `exposed` is in scene coordinates;
    labels are kept off the boxes of `ink` (the page's glyphs) and the labels of `space` (those
    the other layers drew in this paint)."""
    user_rect = visible_user_rect(page_to_scene, exposed)
    painter.save()
    painter.setTransform(page_to_scene, True)
    full = painter.opacity()
    height_px = 1e9  # no fade_height: nothing fades
    if drawing.fade_height:
        t = painter.worldTransform()
        height_px = drawing.fade_height * abs(t.m11() * t.m22() - t.m12() * t.m21()) ** 0.5
    for part in drawing.parts:
        if not _meets(part.bounds, user_rect):
            continue
        floor = part.style.fades
        painter.setOpacity(full * outline_opacity(height_px, floor) if floor else full)
        pen, brush = pen_brush(part.style)
        painter.setPen(pen)
        painter.setBrush(brush)
        painter.drawPath(part.path)
    painter.restore()
    if drawing.labels:
        paint_labels(painter, drawing.labels, page_to_scene, exposed, ink, space)


def _meets(bounds: QRectF, rect: QRectF) -> bool:
    """Overlap test that, unlike QRectF.intersects, accepts zero-width bounds (straight lines)."""
    return (
        bounds.left() <= rect.right()
        and bounds.right() >= rect.left()
        and bounds.top() <= rect.bottom()
        and (bounds.bottom() >= rect.top())
    )


def paint_labels(
    painter: QPainter,
    labels: Iterable[Label],
    page_to_scene: QTransform,
    exposed: QRectF,
    ink: GridIndex | None = None,
    space: LabelSpace | None = None,
) -> None:
    """Text at a constant screen size, upright whatever the page rotation (drawn in device pixels),
    each beside the box it names (layer_shapes.LabelSpace): never on it, on another label or on
    a glyph of `ink`."""
    world = painter.worldTransform()
    zoom = math.hypot(world.m11(), world.m12()) or 1.0
    font = QFont(painter.font())
    font.setPointSizeF(8.5)
    reach = exposed.adjusted(-600 / zoom, -50 / zoom, 50 / zoom, 50 / zoom)
    to_device = page_to_scene * world
    painter.save()
    painter.resetTransform()
    painter.setFont(font)
    metrics = painter.fontMetrics()
    ascent, descent = metrics.ascent(), metrics.descent()
    from_device, _ = to_device.inverted()

    def to_page(x: float, y: float) -> Point:
        p = from_device.map(QPointF(x, y))
        return (p.x(), p.y())

    covers = ink_test(ink, to_page)
    space = space if space is not None else LabelSpace()
    for label in labels:
        x0, y0, x1, y1 = label.of
        if not reach.intersects(page_to_scene.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))):
            continue
        corners = [to_device.map(QPointF(x, y)) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        named = screen_bounds((p.x(), p.y()) for p in corners)
        width = metrics.horizontalAdvance(label.text)
        if not fits(label, named, width):
            continue  # what it names is smaller than its name on screen: zoom in to read it
        box = space.place(label, named, width, ascent, descent, covers)
        if box is None:
            continue  # at this zoom it would cover letters or a label: zoom in to read it
        if label.background:
            painter.setPen(Qt.PenStyle.NoPen)
            fill = QColor(label.background)
            fill.setAlpha(LABEL_BACKGROUND_ALPHA)
            painter.setBrush(fill)
            painter.drawRect(QRectF(QPointF(box[0], box[1]), QPointF(box[2], box[3])))
        painter.setPen(QColor(label.colour))
        painter.drawText(QPointF(*text_origin(box, ascent)), label.text)
        if label.target is not None:
            space.targets.append((box, label.target))
    painter.restore()


class Quads(Protocol):
    """The glyph quads of a page, by paint index (a list, or a view over the glyphs)."""

    def __len__(self) -> int: ...

    def __getitem__(self, i: int) -> Quad: ...


def selection_path(glyph_quads: Quads, indices: Iterable[int]) -> QPainterPath:
    path = QPainterPath()
    n = len(glyph_quads)
    for i in indices:
        if 0 <= i < n:
            q = glyph_quads[i]
            path.addPolygon(
                QPolygonF([QPointF(*q[0]), QPointF(*q[1]), QPointF(*q[2]), QPointF(*q[3]), QPointF(*q[0])])
            )
            path.closeSubpath()
    return path


# Outlines only: the selected and hovered letters stay readable (a find hit is a selection).
SELECTION_STYLE = Style("#ff6f00", 2.5, line_alpha=255)
HOVER_STYLE = Style("#1565c0", 1.5, line_alpha=230)


def paint_path(painter: QPainter, path: QPainterPath, style: Style, page_to_scene: QTransform) -> None:
    painter.save()
    painter.setTransform(page_to_scene, True)
    pen, brush = pen_brush(style)
    painter.setPen(pen)
    painter.setBrush(brush)
    painter.drawPath(path)
    painter.restore()


STATUS_COLOURS = {
    GlyphStatus.KEPT: "#2e7d32",
    GlyphStatus.CULLED: L.LAYER_BY_KEY["culled"].colour,
    GlyphStatus.DUPLICATE: "#e91e63",
    GlyphStatus.CLIPPED: L.LAYER_BY_KEY[VisibilityClass.CLIPPED].colour,
    GlyphStatus.HIDDEN: L.LAYER_BY_KEY[VisibilityClass.TRANSPARENT].colour,  # dropped by --drop-hidden
}
"""Each glyph status in the tables and the probe, in its layer's colour where it has one."""


def status_colour(status: GlyphStatus) -> str:
    return STATUS_COLOURS.get(status, "#000000")
