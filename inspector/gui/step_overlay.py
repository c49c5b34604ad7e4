"""The stepper's canvas layer: glyphs painted so far, the current instruction's glyphs, the pen.

Self-contained: the canvas creates it with one line and it follows the session's
`Stepper` (inspector/views/stepper.py) on its own. Paths of the painted prefix are cached
in blocks of glyphs, so one step redraws at most one partial block plus cached paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import GEOM_STRIDE, GlyphTable
from glyphscope.inspector.gui.overlays import add_quad
from glyphscope.inspector.views.stepper import Stepper, stepper_for

if TYPE_CHECKING:
    from glyphscope.inspector.gui.canvas import PageView

BLOCK = 1024  # glyphs per cached path
# Outlines, never fills: the letters painted so far, and the current ones, stay readable.
PAINTED_PEN = QColor(46, 125, 50, 170)
CURRENT_PEN = QColor("#e65100")
PEN_MARK = QColor("#d500f9")
PEN_RADIUS = 5.0  # pixels
DIRTY_LIMIT = 4000  # glyphs: a step changing more repaints the whole item

# (glyphs painted, the current glyphs, the pen, the glyphs they index)
Marks = tuple[int, range, tuple[float, float] | None, Sequence[Glyph]]


def _quads_path(glyphs: GlyphTable, start: int, end: int) -> QPainterPath:
    """The quads of glyphs `start`..`end` as one path: read off the page's geometry column when it
    has one (no glyph record made), an upright quad as one rectangle (one Qt call)."""
    path = QPainterPath()
    geom = glyphs.geom
    for i in range(start, end):
        k = i * GEOM_STRIDE + 6
        x0, y0, x1, y1, x2, y2, x3, y3 = geom[k : k + 8]
        add_quad(path, x0, y0, x1, y1, x2, y2, x3, y3)
    return path


class StepOverlayItem(QGraphicsItem):
    """Drawn only while the stepper holds a trace of the page the canvas shows."""

    def __init__(self, view: PageView) -> None:
        super().__init__()
        self.view = view
        self.stepper: Stepper = stepper_for(view.session)
        self._blocks: list[tuple[QPainterPath, QRectF]] = []
        self._blocks_of: Sequence[Glyph] | None = None  # the glyphs the cached blocks were built from
        self._drawn: Marks | None = None  # `marks()` at the last update
        self._partial: tuple[Sequence[Glyph], int, int, QPainterPath] | None = None  # the last partial block
        self.setZValue(90)  # over the layers, under the selection
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        view.scene_.addItem(self)
        self.stepper.changed.connect(self._on_step)

    def shown_glyphs(self) -> GlyphTable | None:
        """The glyphs of the page the stepper traces, when that page is the one shown (else None)."""
        bundle = self.view.bundle
        if bundle is None or bundle.analysis is None or self.stepper.trace is None:
            return None
        if bundle.page_number != self.stepper.page_number:
            return None
        return bundle.analysis.page.glyphs

    def _on_step(self, _: object = None) -> None:
        """Repaint only what the step changed (a whole-page repaint redraws every layer)."""
        marks = self.marks()
        old, self._drawn = self._drawn, marks
        glyphs = self.shown_glyphs()
        if old is None or marks is None or glyphs is None or old[3] is not glyphs:
            self.prepareGeometryChange()
            self.update()
            return
        lo, hi = min(old[0], marks[0]), max(old[0], marks[0])
        spans = [range(lo, hi), old[1], marks[1]]
        if sum(len(r) for r in spans) > DIRTY_LIMIT:
            self.update()
            return
        xs: list[float] = []
        ys: list[float] = []
        n = len(glyphs)
        for span in spans:
            for i in span:
                if 0 <= i < n:
                    for x, y in glyphs[i].quad:
                        xs.append(x)
                        ys.append(y)
        r = PEN_RADIUS / max(1e-6, self.view.zoom)
        for pen in (old[2], marks[2]):
            if pen is not None:
                xs.extend((pen[0] - r, pen[0] + r))
                ys.extend((pen[1] - r, pen[1] + r))
        if xs:
            box = QRectF(QPointF(min(xs), min(ys)), QPointF(max(xs), max(ys)))
            self.update(self.view.page_to_scene.mapRect(box).adjusted(-3, -3, 3, 3))

    def marks(self) -> Marks | None:
        """What a paint shows: glyphs painted, the current glyphs, the pen, the glyphs they index."""
        glyphs = self.shown_glyphs()
        if glyphs is None:
            return None
        stepper = self.stepper
        return (min(stepper.painted, len(glyphs)), stepper.current_glyphs, self._pen(), glyphs)

    def _pen(self) -> tuple[float, float] | None:
        step = self.stepper.step
        if step is None or not step.before.in_text:
            return None
        after = self.stepper.state_after() or step.before
        return after.text_rendering_origin

    def boundingRect(self) -> QRectF:
        rect = self.view.content_rect
        return rect.adjusted(-400, -400, 400, 400) if not rect.isNull() else QRectF()

    def _partial_block(self, glyphs: GlyphTable, start: int, end: int) -> QPainterPath:
        """The painted glyphs after the last whole block: kept while the step stays (a step's update
        paints the item once per exposed region)."""
        cached = self._partial
        if cached is None or cached[0] is not glyphs or cached[1:3] != (start, end):
            cached = self._partial = (glyphs, start, end, _quads_path(glyphs, start, end))
        return cached[3]

    def _block(self, glyphs: GlyphTable, k: int) -> tuple[QPainterPath, QRectF]:
        if self._blocks_of is not glyphs:
            self._blocks, self._blocks_of = [], glyphs
        while len(self._blocks) <= k:
            b = len(self._blocks)
            path = _quads_path(glyphs, b * BLOCK, (b + 1) * BLOCK)
            self._blocks.append((path, path.boundingRect()))
        return self._blocks[k]

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        glyphs = self.shown_glyphs()
        if glyphs is None:
            return
        stepper = self.stepper
        painted = min(stepper.painted, len(glyphs))
        painter.save()
        painter.setTransform(self.view.page_to_scene, True)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
        painted_pen = QPen(PAINTED_PEN, 1.0)
        painted_pen.setCosmetic(True)
        painter.setPen(painted_pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        full = painted // BLOCK
        exposed = option.exposedRect if not option.exposedRect.isEmpty() else self.boundingRect()
        scene_to_page, _ = self.view.page_to_scene.inverted()
        wanted = scene_to_page.mapRect(exposed)
        for k in range(full):
            path, bounds = self._block(glyphs, k)
            if bounds.intersects(wanted):
                painter.drawPath(path)
        if painted % BLOCK:
            painter.drawPath(self._partial_block(glyphs, full * BLOCK, painted))
        current = stepper.current_glyphs
        if len(current):
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            pen = QPen(CURRENT_PEN, 2.5)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.drawPath(_quads_path(glyphs, current.start, min(current.stop, len(glyphs))))
        found = self._pen()
        if found is not None:
            # The pen: where the next glyph's origin lies (Tm × CTM, with the rise).
            x, y = found
            pen = QPen(PEN_MARK, 2.0)
            pen.setCosmetic(True)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            scale = max(1e-6, self.view.zoom)
            r = PEN_RADIUS / scale
            painter.drawLine(QPointF(x - r, y), QPointF(x + r, y))
            painter.drawLine(QPointF(x, y - r), QPointF(x, y + r))
        painter.restore()
