"""The selection on the canvas: frames around the selected runs with a light tint, or a line under
runs too small on screen for a frame, so the letters of a selection (a word, a line, a whole
layer over a scan) stay as readable as the rest of the page; and the hovered glyph's outline."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPainter, QPainterPath, QPen, QPolygonF, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from glyphscope.core.geometry import Quad
from glyphscope.inspector.gui import overlays as O
from glyphscope.inspector.gui.visibility_layers import CLIP_STYLE

UNDERLINE_PX = 1.5
TINT_ALPHA = 36
"""The selection's tint inside a frame: white paper turns a pale orange, black ink stays black."""
FRAME_MIN_PX = 9.0
"""A run shorter than this on screen is underlined: its frame would be a solid bar at that size."""
FRAMED_RUNS = 12
"""A selection of more runs than this (a whole layer, every line of a page) is underlined: frames
around every line of a page would fence the letters in."""


def _quad_polygon(q: Quad) -> QPolygonF:
    return QPolygonF([QPointF(*q[0]), QPointF(*q[1]), QPointF(*q[2]), QPointF(*q[3]), QPointF(*q[0])])


def _height(q: Quad) -> float:
    return math.hypot(q[3][0] - q[0][0], q[3][1] - q[0][1])


def outset(q: Quad, d: float) -> Quad:
    """The quad grown by `d` on every side (along its own edges): a frame drawn there runs beside
    the glyph boxes, not through the letters' ascenders and descenders."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
    along, up = math.hypot(x1 - x0, y1 - y0), math.hypot(x3 - x0, y3 - y0)
    if along == 0.0 or up == 0.0:
        return q
    ux, uy = (x1 - x0) / along * d, (y1 - y0) / along * d
    vx, vy = (x3 - x0) / up * d, (y3 - y0) / up * d
    return (
        (x0 - ux - vx, y0 - uy - vy),
        (x1 + ux - vx, y1 + uy - vy),
        (x2 + ux + vx, y2 + uy + vy),
        (x3 - ux + vx, y3 - uy + vy),
    )


class SelectionItem(QGraphicsItem):
    """The selected runs (`set_runs`), the hovered glyph, and each selected duplicate's link."""

    def __init__(self) -> None:
        super().__init__()
        self.page_to_scene = QTransform()
        self.rect = QRectF()
        self.runs: Sequence[Quad] = ()
        self.links = QPainterPath()  # a selected duplicate to the glyph it duplicates
        self.hover = QPainterPath()
        self.clip = QPainterPath()  # the clip paths of the selected clipped glyphs
        self._paths: tuple[float, QPainterPath, QPainterPath] | None = None  # at a scale: frames, underlines
        self.setZValue(100)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        colour = QColor(O.SELECTION_STYLE.colour)
        self.pen = QPen(colour, O.SELECTION_STYLE.width)
        self.pen.setCosmetic(True)
        self.line_pen = QPen(colour, UNDERLINE_PX)  # under many lines: thinner than a frame
        self.line_pen.setCosmetic(True)
        colour.setAlpha(TINT_ALPHA)
        self.tint = QBrush(colour)

    def set_frame(self, page_to_scene: QTransform, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self.page_to_scene = page_to_scene
        self.rect = rect.adjusted(-400, -400, 400, 400)
        self._paths = None

    def set_runs(self, runs: Sequence[Quad], links: QPainterPath | None = None) -> None:
        self.runs = runs
        self.links = links if links is not None else QPainterPath()
        self._paths = None
        self.update()

    def set_hover(self, hover: QPainterPath) -> None:
        self.hover = hover
        self.update()

    @property
    def selection(self) -> QPainterPath:
        """Every selected run's outline (whatever the scale)."""
        path = QPainterPath()
        for q in self.runs:
            path.addPolygon(_quad_polygon(q))
            path.closeSubpath()
        return path

    def boundingRect(self) -> QRectF:  # noqa: N802 -- Qt's name
        return self.rect

    def paths(self, scale: float) -> tuple[QPainterPath, QPainterPath]:
        """(frames, underlines) of the runs at `scale` screen pixels per user-space unit."""
        if self._paths is None or abs(self._paths[0] - scale) > 1e-6 * max(scale, 1.0):
            frames, lines = QPainterPath(), QPainterPath()
            gap = (O.SELECTION_STYLE.width * 0.5 + 1.0) / scale  # the pen beside the box, not on it
            framed = len(self.runs) <= FRAMED_RUNS
            for q in self.runs:
                if framed and _height(q) * scale >= FRAME_MIN_PX:
                    frames.addPolygon(_quad_polygon(outset(q, gap)))
                    frames.closeSubpath()
                else:
                    low = outset(q, gap)
                    lines.moveTo(*low[0])
                    lines.lineTo(*low[1])
            self._paths = (scale, frames, lines)
        return self._paths[1], self._paths[2]

    def paint(  # noqa: D102
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if not self.clip.isEmpty():
            O.paint_path(painter, self.clip, CLIP_STYLE, self.page_to_scene)
        if self.runs or not self.links.isEmpty():
            painter.save()
            painter.setTransform(self.page_to_scene, True)
            t = painter.worldTransform()
            scale = math.sqrt(abs(t.determinant())) or 1.0
            frames, lines = self.paths(scale)
            painter.setPen(self.pen)
            painter.setBrush(self.tint)
            painter.drawPath(frames)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(self.links)
            painter.setPen(self.line_pen)
            painter.drawPath(lines)
            painter.restore()
        if not self.hover.isEmpty():
            O.paint_path(painter, self.hover, O.HOVER_STYLE, self.page_to_scene)
