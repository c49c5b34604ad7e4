"""The page canvas: the rendered MediaBox with one custom-painted item per overlay layer."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QPoint, QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QImage,
    QMouseEvent,
    QPainter,
    QPainterPath,
    QPaintEvent,
    QPen,
    QPixmap,
    QPolygonF,
    QResizeEvent,
    QTransform,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPixmapItem,
    QGraphicsScene,
    QGraphicsView,
    QRubberBand,
    QStyle,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from glyphscope.core.decision_protocol import describe
from glyphscope.inspector.gui import overlays as O
from glyphscope.inspector.gui.page_banner import BANNER_TEXT, PageBanner, banner_text
from glyphscope.inspector.gui.rendering import media_display_size, page_transform
from glyphscope.inspector.gui.selection_item import SelectionItem
from glyphscope.inspector.gui.step_overlay import StepOverlayItem
from glyphscope.inspector.gui.visibility_layers import clip_path
from glyphscope.inspector.layers.registry import LAYERS, VERIFY_LAYERS, VISIBILITY_LAYERS
from glyphscope.inspector.layers.shapes import LabelSpace, Marker, ScreenRect
from glyphscope.inspector.views.session import Session
from glyphscope.inspector.views.spatial import GridIndex, selection_runs

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.geometry import Quad
    from glyphscope.core.glyph import Glyph
    from glyphscope.core.page import PageBoxes
    from glyphscope.inspector.views.page_facts import PageBundle

MODE_LAYERS = ("word_gaps", "line_breaks", "right_to_left", "reading_order")
TALL_PAGE = 2.5  # Fit page fits the width instead when the whole page would be this much narrower
# Layers whose marks answer hover and click, the most specific first.
TOOLTIP_LAYERS = (
    "word_gaps",
    "line_breaks",
    "right_to_left",
    "duplicates",
    "culled",
    *VISIBILITY_LAYERS,
    "columns",
    "baselines",
    "reading_order",
    "structure_order",
    "annotations",
    *VERIFY_LAYERS,  # last: what the ink reads, where no decision mark is nearer
)
SCENE_MARGIN_PX = 12.0  # room around the page on screen; Fit leaves 24 px across for it
MARKER_PIXELS = 7.0  # how near (screen pixels) the cursor must come to a decision mark
MIN_ZOOM, MAX_ZOOM = 0.05, 64.0


class FitMode(StrEnum):
    """What the canvas keeps fitted when the view is resized."""

    PAGE = "page"  # the whole page in view
    WIDTH = "width"  # the page's width
    FREE = ""  # free zoom: nothing refitted


class LayerItem(QGraphicsItem):
    """One overlay layer: paints its tiled paths under the page transform, only where exposed."""

    def __init__(self, key: str, z: float) -> None:
        super().__init__()
        self.key = key
        self.drawing: O.LayerDrawing | None = None
        self.page_to_scene = QTransform()
        self.rect = QRectF()
        self.setZValue(z)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.ink: Callable[[], GridIndex | None] = lambda: None  # the page's glyph boxes: labels avoid them
        self.labels: Callable[[], LabelSpace | None] = lambda: None  # the labels of this paint, all layers

    def set_drawing(self, drawing: O.LayerDrawing | None, page_to_scene: QTransform, rect: QRectF) -> None:
        self.prepareGeometryChange()
        self.drawing = drawing
        self.page_to_scene = page_to_scene
        self.rect = rect.adjusted(-400, -400, 400, 400)  # labels and slug text may lie outside
        self.update()

    def boundingRect(self) -> QRectF:
        return self.rect

    def paint(
        self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None
    ) -> None:
        if self.drawing is None:
            return
        exposed = option.exposedRect if not option.exposedRect.isEmpty() else self.rect
        if self.drawing.labels:
            O.paint_layer(painter, self.drawing, self.page_to_scene, exposed, self.ink(), self.labels())
        else:
            O.paint_layer(painter, self.drawing, self.page_to_scene, exposed)


class PageView(QGraphicsView):
    """Shows one PageBundle; talks to the Session, never to other panels."""

    cursor_moved = Signal(object)  # (x, y) in user space, or None when outside the page
    zoom_changed = Signal(float)
    wants_resolution = Signal(int, float)  # page, pixels per point
    region_probed = Signal(object)  # (x0, y0, x1, y1) in user space: a rectangle dragged for the probe

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("canvas")
        self.session = session
        self.scene_ = QGraphicsScene(self)
        self.setScene(self.scene_)
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.SmoothPixmapTransform)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, False)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.viewport().setCursor(Qt.CursorShape.CrossCursor)
        self.setBackgroundBrush(QBrush(QColor("#5f6368")))
        self.setMouseTracking(True)
        self.viewport().setMouseTracking(True)
        self.setAcceptDrops(False)  # the main window takes dropped files

        self.bundle: PageBundle | None = None
        self.page_to_scene = QTransform()
        self.page_rect = QRectF()
        self.content_rect = QRectF()  # the page plus any glyphs painted off it
        self._scene_base = QRectF()  # what the scene holds before its margin (_apply_scene_rect)
        self.fit_mode = FitMode.PAGE
        self._press: QPoint | None = None
        self._pending_scale = 0.0
        self.probe_mode = False  # left-drag draws a probe rectangle (Shift+drag always does)
        self._band: QRubberBand | None = None
        self._band_origin: QPoint | None = None

        self.page_item = QGraphicsPixmapItem()
        self.page_item.setTransformationMode(Qt.TransformationMode.SmoothTransformation)
        self.page_item.setZValue(0)
        self.scene_.addItem(self.page_item)
        self.paper = self.scene_.addRect(QRectF(), Qt.PenStyle.NoPen, QBrush(QColor("white")))
        self.paper.setZValue(-1)
        self.layer_items: dict[str, LayerItem] = {}
        self._space = LabelSpace()  # the labels of the paint under way (or the last one)
        for z, spec in enumerate(LAYERS):
            item = LayerItem(spec.key, 10 + z)
            item.ink = self._glyph_boxes
            item.labels = self._label_space
            item.setVisible(session.layers.get(spec.key, spec.default_visible))
            self.scene_.addItem(item)
            self.layer_items[spec.key] = item
        self.selection_item = SelectionItem()
        self.scene_.addItem(self.selection_item)
        self.step_item = StepOverlayItem(self)  # the stepper's painted-so-far layer (adds itself)
        self.message_item = PageBanner()  # transient messages, and the page's problems framed as a banner
        self.message_item.setZValue(200)
        self.message_item.setDefaultTextColor(QColor("#b71c1c"))
        font = QFont()
        font.setPointSize(11)
        self.message_item.setFont(font)
        self.message_item.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
        self.scene_.addItem(self.message_item)
        pen = QPen(QColor("#00838f"), 1.5, Qt.PenStyle.DashLine)
        pen.setCosmetic(True)
        self.probe_item = self.scene_.addRect(QRectF(), pen, QBrush(QColor(0, 131, 143, 28)))
        self.probe_item.setZValue(150)
        self.probe_item.setVisible(False)
        self._probe_page = 0

        self._resolution_timer = QTimer(self)
        self._resolution_timer.setSingleShot(True)
        self._resolution_timer.setInterval(200)
        self._resolution_timer.timeout.connect(self._check_resolution)

        session.events.layers.connect(self._on_layer)
        session.events.mode.connect(self._on_mode)
        session.events.texts.connect(self._on_texts)
        session.events.verified.connect(self._on_verified)
        session.events.selection.connect(self._on_selection)
        session.events.hovered.connect(self._on_hovered)
        session.events.view.connect(self._on_view)
        session.events.document.connect(self._on_document)

    # -- content ------------------------------------------------------------------------------
    def _on_document(self, document: Document | None) -> None:
        """A new (or no) file opens at the default zoom, never at the last file's."""
        self.fit_mode = FitMode.PAGE
        self.page_rect = QRectF()
        self.content_rect = QRectF()

    def _on_view(self, view: PageBundle | None) -> None:
        """A new view model: draw it. None means a page is on its way (keep the old one visible,
        the window says it is loading) or that nothing is open."""
        if view is None:
            if self.session.document is None:
                self.clear()
            return
        self.set_bundle(view)
        if view.preview and not view.render_error:
            self.show_message(f"Interpreting page {view.page_number}…", "#1565c0")

    def clear(self, message: str = "") -> None:
        self.bundle = None
        self.page_item.setPixmap(QPixmap())
        for item in self.layer_items.values():
            item.set_drawing(None, QTransform(), QRectF())
        self.selection_item.clip = QPainterPath()
        self.selection_item.set_runs(())
        self.selection_item.set_hover(QPainterPath())
        self.paper.setRect(QRectF())
        self.probe_item.setVisible(False)
        self.show_message(message)

    def show_banner(self, text: str) -> None:
        """The page's problems (not rendered, over the glyph budget, not analysed) as a framed banner."""
        self.show_message(text, BANNER_TEXT.name())
        self.message_item.framed = bool(text)
        self.message_item.setTextWidth(max(160, min(420, self.viewport().width() - 48)))
        if text and not self.page_rect.isEmpty():  # in view even when the page is larger than the view
            shown = self.mapToScene(self.viewport().rect()).boundingRect().intersected(self.page_rect)
            if not shown.isEmpty():
                self.message_item.setPos(shown.topLeft() + QPointF(12, 12) / max(self.zoom, 1e-3))

    def show_message(self, message: str, colour: str = "#b71c1c") -> None:
        self.message_item.framed = False
        self.message_item.setDefaultTextColor(QColor(colour))
        self.message_item.setPlainText(message)
        self.message_item.setTextWidth(420)
        self.message_item.setVisible(bool(message))
        self.message_item.setPos(
            self.page_rect.topLeft() + QPointF(12, 12) if not self.page_rect.isEmpty() else QPointF()
        )

    def show_loading(self, page_number: int, boxes: PageBoxes | None = None) -> None:
        """Keep the old page visible but say the new one is on its way; lay out the page frame if known."""
        if boxes is not None and self.bundle is None:
            self._set_frame(boxes)
        self.show_message(f"Loading page {page_number}…", "#e0e0e0" if self.bundle is None else "#1565c0")

    def _set_frame(self, boxes: PageBoxes) -> None:
        w, h = media_display_size(boxes)
        new_rect = QRectF(0, 0, w, h)
        changed = new_rect != self.page_rect
        self.page_rect = new_rect
        self.page_to_scene = page_transform(boxes, 1.0)
        self.paper.setRect(self.page_rect)
        self._scene_base = QRectF(self.page_rect)
        self._apply_scene_rect()
        if changed:
            self.content_rect = QRectF(self.page_rect)
            self.apply_fit()

    def set_bundle(self, bundle: PageBundle) -> None:
        if bundle.page_number != self._probe_page:
            self.probe_item.setVisible(False)
        self.bundle = bundle
        self._set_frame(bundle.boxes)
        content = self.page_rect
        overlays = _overlays(bundle)
        bounds = overlays.bounds if overlays is not None else None
        if bounds is not None:
            # Glyphs painted off the MediaBox (culled, far away) stay reachable by scrolling.
            glyph_rect = self.page_to_scene.mapRect(
                QRectF(QPointF(bounds[0], bounds[1]), QPointF(bounds[2], bounds[3]))
            )
            limit = max(self.page_rect.width(), self.page_rect.height())
            content = content.united(glyph_rect).intersected(
                self.page_rect.adjusted(-limit, -limit, limit, limit)
            )
        self._scene_base = QRectF(content)
        self._apply_scene_rect()
        refit = content != self.content_rect
        self.content_rect = content
        if refit:
            self.apply_fit()  # the scene grew: the page centred again at its fit
        if isinstance(bundle.image, QImage) and not bundle.image.isNull():
            self.page_item.setPixmap(QPixmap.fromImage(bundle.image))
            self.page_item.setScale(1.0 / bundle.render_scale)
        else:
            self.page_item.setPixmap(QPixmap())
        for key, item in self.layer_items.items():
            item.set_drawing(self._drawing(key), self.page_to_scene, content)
        self.selection_item.set_frame(self.page_to_scene, content)
        self._on_selection(self.session.selection, "")
        self.show_banner(banner_text(bundle))
        self._resolution_timer.start()

    def set_image(self, page_number: int, scale: float, image: QImage | None) -> None:
        if self.bundle is None or self.bundle.page_number != page_number or image is None or image.isNull():
            return
        if scale <= self.bundle.render_scale:
            return
        self.bundle.image = image
        self.bundle.render_scale = image.width() / max(1e-6, self.page_rect.width())
        self.page_item.setPixmap(QPixmap.fromImage(image))
        self.page_item.setScale(1.0 / self.bundle.render_scale)

    # -- session events -----------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 -- Qt's name
        self._space = LabelSpace()  # a new paint: the layers' labels share a fresh one
        super().paintEvent(event)

    def drawn_labels(self) -> list[tuple[float, float, float, float]]:
        """The viewport boxes of the labels the last paint drew (every layer's)."""
        return list(self._space.taken)

    def label_targets(self) -> list[tuple[ScreenRect, Marker]]:
        """The labels the last paint drew that name a record: (viewport box, its marker), a click on
        the box selects it."""
        return list(self._space.targets)

    def _label_space(self) -> LabelSpace:
        """The labels drawn so far in this paint of the view, by every layer (a label of one layer
        never covers another's)."""
        return self._space

    def _glyph_boxes(self) -> GridIndex | None:
        """The shown page's glyph boxes (the hit index's grid), which labels are kept off."""
        overlays = _overlays(self.bundle)
        return overlays.hit_index.grid if overlays is not None else None

    def _drawing(self, key: str) -> O.LayerDrawing | None:
        """A layer's drawing, built now only if the layer is shown (hidden ones wait until toggled on)."""
        overlays = _overlays(self.bundle)
        if overlays is None or not self.session.layers.get(key) or not overlays.ready(key, self.session.mode):
            return None  # hidden, or its text still being assembled (drawn on `texts`)
        return overlays.layer(key, self.session.mode)

    def _on_texts(self, view: PageBundle) -> None:
        """The page's texts are in: draw the shown layers that waited for them."""
        if view is not self.bundle:
            return
        for key, item in self.layer_items.items():
            if item.drawing is None and self.session.layers.get(key):
                item.set_drawing(self._drawing(key), self.page_to_scene, self.content_rect)

    def _on_verified(self, page_number: int) -> None:
        """The page's OCR cross-check is in (or was dropped): draw its layers again."""
        bundle = self.bundle
        overlays = _overlays(bundle)
        if bundle is None or bundle.page_number != page_number or overlays is None:
            return
        overlays.forget(VERIFY_LAYERS)
        for key in VERIFY_LAYERS:
            self.layer_items[key].set_drawing(self._drawing(key), self.page_to_scene, self.content_rect)

    def _on_layer(self, key: str, visible: bool) -> None:
        item = self.layer_items.get(key)
        if item is None:
            return
        if visible and item.drawing is None:
            item.set_drawing(self._drawing(key), self.page_to_scene, self.content_rect)
        item.setVisible(visible)

    def _on_mode(self, mode: str) -> None:
        for key in MODE_LAYERS:
            self.layer_items[key].set_drawing(self._drawing(key), self.page_to_scene, self.content_rect)

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if self.bundle is None or self.bundle.analysis is None:
            self.selection_item.clip = QPainterPath()
            self.selection_item.set_runs(())
            return
        glyphs = self.bundle.analysis.page.glyphs
        links = QPainterPath()
        classified = self.bundle.analysis.classified
        for i in selection:
            if 0 <= i < len(glyphs):
                target = classified.duplicate_of[i]
                if target is not None:
                    a, b = glyphs[i].center, glyphs[target].center
                    links.moveTo(*a)
                    links.lineTo(*b)
        self.selection_item.clip = clip_path(self.bundle.facts, selection)
        self.selection_item.set_runs(selection_runs(glyphs, selection), links)
        if selection and source != "canvas":
            self.ensure_visible(selection)

    def _on_hovered(self, paint_index: int | None) -> None:
        if self.bundle is None or self.bundle.analysis is None or paint_index is None:
            self.selection_item.set_hover(QPainterPath())
            return
        self.selection_item.set_hover(
            O.selection_path(_QuadList(self.bundle.analysis.page.glyphs), [paint_index])
        )

    def ensure_visible(self, selection: frozenset[int]) -> None:
        if self.bundle is None or self.bundle.analysis is None:
            return
        glyphs = self.bundle.analysis.page.glyphs
        rect = QRectF()
        for i in sorted(selection)[:2000]:
            if 0 <= i < len(glyphs):
                q = glyphs[i].quad
                r = self.page_to_scene.map(QPolygonF([QPointF(*p) for p in q])).boundingRect()
                rect = r if rect.isNull() else rect.united(r)
        if not rect.isNull():
            visible = self.mapToScene(self.viewport().rect()).boundingRect()
            if not visible.contains(rect):
                self.centerOn(rect.center())

    # -- zoom ---------------------------------------------------------------------------------
    @property
    def zoom(self) -> float:
        t = self.transform()
        return math.hypot(t.m11(), t.m12())

    def _apply_scene_rect(self, zoom: float | None = None) -> None:
        """The scene: what Fit shows and SCENE_MARGIN_PX of room around it at the zoom, so the page
        at Fit page sits in the view with no scroll bar (a margin in points outgrew the view)."""
        margin = SCENE_MARGIN_PX / max(zoom if zoom is not None else self.zoom, 1e-3)
        self.scene_.setSceneRect(self._scene_base.adjusted(-margin, -margin, margin, margin))

    def set_zoom(self, zoom: float, fit_mode: FitMode = FitMode.FREE) -> None:
        zoom = max(MIN_ZOOM, min(MAX_ZOOM, zoom))
        self.fit_mode = fit_mode
        self._apply_scene_rect(zoom)
        self.setTransform(QTransform.fromScale(zoom, zoom))
        self.zoom_changed.emit(zoom)
        self._resolution_timer.start()

    def zoom_by(self, factor: float) -> None:
        self.set_zoom(self.zoom * factor)

    def _fit_rect(self) -> QRectF:
        """What Fit shows: the page as drawn (its displayed box). Glyphs painted off it (a form's
        culled slug, printer's marks far outside) stay in the scene, reachable by scrolling, but
        do not make the page small: a page fits the same with or without them."""
        return self.page_rect

    def fit_zoom(self, mode: FitMode = FitMode.PAGE) -> float:
        """The zoom of Fit page (whole page in view) or Fit width, for the current viewport."""
        rect = self._fit_rect()
        if rect.isEmpty():
            return self.zoom
        # From the viewport's size with both scroll bars shown, whether they are or not: a zoom
        # that depended on them would show a bar, shrink, hide it, grow... (a resize loop that
        # hung the window when a side column was dragged to some widths).
        bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        vp = self.maximumViewportSize()
        width_zoom = (vp.width() - bar - 24) / rect.width()
        height_zoom = (vp.height() - bar - 24) / rect.height()
        if mode == FitMode.WIDTH or height_zoom * TALL_PAGE < width_zoom:
            return width_zoom  # a page far taller than the view: Fit page would be a thin strip
        return min(width_zoom, height_zoom)

    def fit_page(self) -> None:
        if self.page_rect.isEmpty():
            self.fit_mode = FitMode.PAGE
            return
        zoom = self.fit_zoom(FitMode.PAGE)
        self.set_zoom(zoom, FitMode.PAGE)
        rect = self._fit_rect()
        if zoom >= self.fit_zoom(FitMode.WIDTH) - 1e-9 and rect.height() * zoom > self.viewport().height():
            self.centerOn(QPointF(rect.center().x(), rect.top() + self.viewport().height() / 2 / zoom))
        else:
            self.centerOn(rect.center())

    def fit_width(self) -> None:
        if self.page_rect.isEmpty():
            self.fit_mode = FitMode.WIDTH
            return
        rect = self._fit_rect()
        self.set_zoom(self.fit_zoom(FitMode.WIDTH), FitMode.WIDTH)
        self.centerOn(QPointF(rect.center().x(), rect.top() + self.viewport().height() / 2 / self.zoom))

    def actual_size(self) -> None:
        self.set_zoom(self.logicalDpiX() / 72.0)

    def apply_fit(self) -> None:
        if self.fit_mode == FitMode.PAGE:
            self.fit_page()
        elif self.fit_mode == FitMode.WIDTH:
            self.fit_width()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.apply_fit()

    def _check_resolution(self) -> None:
        if self.bundle is None or self.bundle.image is None:
            return
        wanted = self.zoom * self.devicePixelRatioF()
        if wanted > self.bundle.render_scale * 1.3:
            self.wants_resolution.emit(self.bundle.page_number, min(wanted * 1.25, 12.0))

    # -- mouse --------------------------------------------------------------------------------
    def user_point(self, view_pos: QPoint) -> tuple[float, float] | None:
        if self.page_rect.isEmpty():
            return None
        scene = self.mapToScene(view_pos)
        inverse, ok = self.page_to_scene.inverted()
        if not ok:
            return None
        p = inverse.map(scene)
        return (p.x(), p.y())

    def glyph_at(self, view_pos: QPoint) -> int | None:
        overlays = _overlays(self.bundle)
        if overlays is None:
            return None
        p = self.user_point(view_pos)
        if p is None:
            return None
        return overlays.hit_index.hit(p, radius=3.0 / max(self.zoom, 1e-3))

    def wheelEvent(self, event: QWheelEvent) -> None:
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            delta = event.angleDelta().y()
            if delta:
                self.zoom_by(1.0015**delta)
            event.accept()
            return
        super().wheelEvent(event)

    def set_probe_mode(self, on: bool) -> None:
        self.probe_mode = bool(on)
        self.setDragMode(
            QGraphicsView.DragMode.NoDrag if self.probe_mode else QGraphicsView.DragMode.ScrollHandDrag
        )

    def probe(self, a: QPoint, b: QPoint) -> tuple[float, float, float, float] | None:
        """Probe the rectangle between two view points: outline it and emit `region_probed`."""
        pa, pb = self.user_point(a), self.user_point(b)
        if pa is None or pb is None or self.bundle is None:
            return None
        rect = (min(pa[0], pb[0]), min(pa[1], pb[1]), max(pa[0], pb[0]), max(pa[1], pb[1]))
        self.show_probe(rect)
        self.region_probed.emit(rect)
        return rect

    def show_probe(self, rect: tuple[float, float, float, float]) -> None:
        scene = self.page_to_scene.mapRect(QRectF(QPointF(rect[0], rect[1]), QPointF(rect[2], rect[3])))
        self.probe_item.setRect(scene.normalized())
        self.probe_item.setVisible(True)
        self._probe_page = self.bundle.page_number if self.bundle is not None else 0

    def mousePressEvent(self, event: QMouseEvent) -> None:
        shift = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        if event.button() == Qt.MouseButton.LeftButton and (self.probe_mode or shift):
            self._band_origin = event.position().toPoint()
            if self._band is None:
                self._band = QRubberBand(QRubberBand.Shape.Rectangle, self.viewport())
            self._band.setGeometry(QRect(self._band_origin, QSize()))
            self._band.show()
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position().toPoint()
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._band_origin is not None and event.button() == Qt.MouseButton.LeftButton:
            origin, self._band_origin = self._band_origin, None
            if self._band is not None:
                self._band.hide()
            pos = event.position().toPoint()
            if (pos - origin).manhattanLength() > 4:
                self.probe(origin, pos)
            else:
                self.click(pos, event.modifiers())
            event.accept()
            return
        super().mouseReleaseEvent(event)
        self.viewport().setCursor(Qt.CursorShape.CrossCursor)
        press, self._press = self._press, None
        if press is None or event.button() != Qt.MouseButton.LeftButton:
            return
        pos = event.position().toPoint()
        if (pos - press).manhattanLength() > 4:
            return  # that was a pan
        self.click(pos, event.modifiers())

    def marker_at(self, pos: QPoint) -> O.Marker | None:
        """The mark of a shown layer under `pos` (view coordinates), the most specific layer first;
        else the record of a label under it; else the record of an area it is in (a form field)."""
        if self.bundle is None or self.bundle.overlays is None:
            return None
        p = self.user_point(pos)
        if p is None:
            return None
        radius = MARKER_PIXELS / max(self.zoom, 1e-3)
        for key in TOOLTIP_LAYERS:
            if not self.session.layers.get(key):
                continue
            drawing = self.layer_items[key].drawing
            marker = drawing.marker_near(p, radius) if drawing is not None else None
            if marker is not None:
                return marker
        # then a label that names a record (drawn this paint, in viewport pixels), then an area
        for (x0, y0, x1, y1), target in reversed(self._space.targets):
            if x0 <= pos.x() <= x1 and y0 <= pos.y() <= y1:
                return target
        for key in TOOLTIP_LAYERS:
            drawing = self.layer_items[key].drawing if self.session.layers.get(key) else None
            marker = drawing.area_at(p) if drawing is not None and drawing.areas else None
            if marker is not None:
                return marker
        return None

    def click(
        self, pos: QPoint, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
    ) -> int | None:
        """Select what is under `pos` (view coordinates): a decision mark selects its record and
        glyphs, else the glyph; Ctrl/Shift toggles a glyph in the selection."""
        additive = bool(modifiers & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier))
        marker = None if additive else self.marker_at(pos)
        if marker is not None:
            if isinstance(marker.source, str):
                self.session.select(marker.glyphs, "canvas")
            else:
                self.session.select_decision(marker.source, "canvas")
            return marker.glyphs[0] if marker.glyphs else None
        index = self.glyph_at(pos)
        if index is None:
            if not additive:
                self.session.clear_selection("canvas")
            return None
        if additive:
            self.session.select(self.session.selection ^ {index}, "canvas")
        else:
            self.session.select({index}, "canvas")
        return index

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._band_origin is not None and self._band is not None:
            pos = event.position().toPoint()
            self._band.setGeometry(QRect(self._band_origin, pos).normalized())
            self.cursor_moved.emit(self.user_point(pos))
            return
        super().mouseMoveEvent(event)
        pos = event.position().toPoint()
        p = self.user_point(pos)
        self.cursor_moved.emit(p)
        if self._press is not None:
            return
        index = self.glyph_at(pos)
        self.session.set_hovered(index)
        tip = self.tooltip_at(pos)
        if tip:
            QToolTip.showText(event.globalPosition().toPoint(), tip, self.viewport())
        else:
            QToolTip.hideText()

    def leaveEvent(self, event: QEvent) -> None:
        super().leaveEvent(event)
        self.cursor_moved.emit(None)
        self.session.set_hovered(None)

    def tooltip_at(self, pos: QPoint) -> str:
        """The decision under the cursor in words, else a one-line glyph summary."""
        if self.bundle is None or self.bundle.overlays is None:
            return ""
        p = self.user_point(pos)
        if p is None:
            return ""
        marker = self.marker_at(pos)
        if marker is not None:
            return marker.text + _numbers(marker.source)
        index = self.glyph_at(pos)
        facts = self.bundle.facts
        if index is None:
            # Between glyphs: the word-gap or line-break decision there, whatever layers are on.
            radius = MARKER_PIXELS / max(self.zoom, 1e-3)
            mode = self.session.mode
            d = (
                facts.marks.near(p, mode, radius)
                if facts is not None and facts.modes.shown_ready(mode)
                else None
            )
            return (describe(d) + _numbers(d)) if d is not None else ""
        analysis = self.bundle.analysis
        if analysis is None:
            return ""
        g = analysis.page.glyphs[index]
        status = analysis.classified.status[index].value
        origin = " › ".join(g.form_path) if g.form_path else "page stream"
        char = g.unicode if g.unicode else "(unresolved)"
        return (
            f"#{index} {char!r} {g.font_key} {g.font_size:g} · {status} · {origin} · {g.decode_source.value}"
        )


def _numbers(record: object) -> str:
    """The verdict, value and threshold of a decision record, on a line of their own."""
    if isinstance(record, str) or record is None:
        return ""
    from glyphscope.inspector.views.page_facts import decision_numbers

    return "\n" + decision_numbers(record)


class _QuadList:
    """A sequence view of the glyph quads (no copy)."""

    def __init__(self, glyphs: Sequence[Glyph]) -> None:
        self.glyphs = glyphs

    def __len__(self) -> int:
        return len(self.glyphs)

    def __getitem__(self, i: int) -> Quad:
        return self.glyphs[i].quad


def _overlays(bundle: PageBundle | None) -> O.PageOverlays | None:
    """The bundle's layer drawings as this window built them (the view model holds them untyped)."""
    overlays = bundle.overlays if bundle is not None else None
    return overlays if isinstance(overlays, O.PageOverlays) else None
