"""The overlay layers as QPainterPaths in user space, and the code that paints them.

Everything is built once per page (in a worker thread: QPainterPath is not a
QObject) and split into tiles, so painting a zoomed-in view touches only the
tiles the exposed rectangle meets. The canvas items and the headless
renderer call the same `paint_layer`, under the painter transform of
`rendering.page_transform`. Pens are cosmetic: widths are screen pixels.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF, QTransform

from core.geometry import Point, Quad, Rect
from core.glyph import DecodeSource, GlyphStatus
from inspector import layers as L
from inspector.engine import PageFacts, TextView
from inspector.spatial import GlyphHitIndex, PointIndex

TILES = 8  # the page is split into TILES × TILES buckets per style


@dataclass(frozen=True, slots=True)
class Style:
    colour: str
    width: float = 1.0
    fill: str | None = None
    fill_alpha: int = 60
    line_alpha: int = 230
    dash: bool = False
    dot: bool = False


@dataclass(slots=True)
class Part:
    style: Style
    path: QPainterPath
    bounds: QRectF  # in user space


@dataclass(slots=True)
class Label:
    anchor: Point  # user space
    text: str
    colour: str


@dataclass(slots=True)
class Marker:
    """Something with a tooltip at a point (a decision): the canvas shows `text` on hover."""

    point: Point
    text: str
    glyphs: tuple[int, ...]


@dataclass(slots=True)
class LayerDrawing:
    key: str
    parts: list[Part] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    _marker_index: PointIndex | None = None

    def marker_near(self, p: Point, radius: float) -> Marker | None:
        if not self.markers:
            return None
        if self._marker_index is None:
            self._marker_index = PointIndex([m.point for m in self.markers])
        i = self._marker_index.nearest(p, radius)
        return None if i is None else self.markers[i]


class _Builder:
    """Collects subpaths per (style, tile) and turns them into Parts."""

    def __init__(self, key: str, page_rect: Rect) -> None:
        self.key = key
        x0, y0, x1, y1 = page_rect
        self.x0, self.y0 = x0, y0
        self.tw = max((x1 - x0) / TILES, 1e-6)
        self.th = max((y1 - y0) / TILES, 1e-6)
        self.paths: dict[tuple[Style, int, int], QPainterPath] = {}
        self.drawing = LayerDrawing(key)

    def _path(self, style: Style, x: float, y: float) -> QPainterPath:
        tx = min(max(int((x - self.x0) // self.tw), -1), TILES)
        ty = min(max(int((y - self.y0) // self.th), -1), TILES)
        key = (style, tx, ty)
        path = self.paths.get(key)
        if path is None:
            path = self.paths[key] = QPainterPath()
        return path

    def quad(self, style: Style, q: Quad) -> None:
        cx = (q[0][0] + q[2][0]) * 0.5
        cy = (q[0][1] + q[2][1]) * 0.5
        if not (math.isfinite(cx) and math.isfinite(cy)):
            return
        path = self._path(style, cx, cy)
        path.addPolygon(QPolygonF([QPointF(*q[0]), QPointF(*q[1]), QPointF(*q[2]), QPointF(*q[3]), QPointF(*q[0])]))
        path.closeSubpath()

    def rect(self, style: Style, r: Rect) -> None:
        path = QPainterPath()
        path.addRect(QRectF(QPointF(r[0], r[1]), QPointF(r[2], r[3])).normalized())
        self.drawing.parts.append(Part(style, path, path.boundingRect()))

    def polygon(self, style: Style, points: Sequence[Point]) -> None:
        path = QPainterPath()
        path.addPolygon(QPolygonF([QPointF(*p) for p in points]))
        path.closeSubpath()
        self.drawing.parts.append(Part(style, path, path.boundingRect()))

    def segment(self, style: Style, a: Point, b: Point) -> None:
        if not all(math.isfinite(v) for v in (*a, *b)):
            return
        path = self._path(style, (a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5)
        path.moveTo(a[0], a[1])
        path.lineTo(b[0], b[1])

    def dot(self, style: Style, p: Point, radius: float) -> None:
        if not all(math.isfinite(v) for v in p):
            return
        self._path(style, p[0], p[1]).addEllipse(QPointF(p[0], p[1]), radius, radius)

    def polyline(self, style: Style, points: Sequence[Point], chunk: int = 400) -> None:
        pts = [p for p in points if math.isfinite(p[0]) and math.isfinite(p[1])]
        for start in range(0, max(len(pts) - 1, 0), chunk):
            piece = pts[start : start + chunk + 1]
            path = QPainterPath(QPointF(*piece[0]))
            for p in piece[1:]:
                path.lineTo(p[0], p[1])
            self.drawing.parts.append(Part(style, path, path.boundingRect()))

    def finish(self) -> LayerDrawing:
        for (style, _tx, _ty), path in self.paths.items():
            self.drawing.parts.append(Part(style, path, path.boundingRect()))
        self.paths = {}
        return self.drawing


def _grow(r: Rect, pad: float) -> Rect:
    return (r[0] - pad, r[1] - pad, r[2] + pad, r[3] + pad)


def _centre(q: Quad) -> Point:
    return ((q[0][0] + q[2][0]) * 0.5, (q[0][1] + q[2][1]) * 0.5)


def _normal_point(p: Point, direction: Point, length: float) -> Point:
    return (p[0] - direction[1] * length, p[1] + direction[0] * length)


# ---------------------------------------------------------------------------------------------
# Building


@dataclass(slots=True)
class PageOverlays:
    """All layer drawings of one page; mode layers are built on first use per mode."""

    facts: PageFacts
    static: dict[str, LayerDrawing]
    by_mode: dict[str, dict[str, LayerDrawing]]
    hit_index: GlyphHitIndex
    form_colours: dict[tuple[str, ...], str]

    def layer(self, key: str, mode: str) -> LayerDrawing | None:
        if key in self.static:
            return self.static[key]
        drawings = self.by_mode.get(mode)
        if drawings is None:
            drawings = self.by_mode[mode] = build_mode_layers(self.facts, mode)
        return drawings.get(key)


def build_overlays(facts: PageFacts, mode: str) -> PageOverlays:
    page = facts.page
    form_colours = {path: L.form_colour(i) for path, i in facts.form_index.items()}
    static = build_static_layers(facts, form_colours)
    return PageOverlays(
        facts=facts,
        static=static,
        by_mode={mode: build_mode_layers(facts, mode)},
        hit_index=GlyphHitIndex([g.quad for g in page.glyphs]),
        form_colours=form_colours,
    )


def _page_rect(facts: PageFacts) -> Rect:
    return facts.page.boxes.media_box


def build_static_layers(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> dict[str, LayerDrawing]:
    page, classified = facts.page, facts.classified
    glyphs = page.glyphs
    boxes = page.boxes
    rect = _page_rect(facts)
    out: dict[str, LayerDrawing] = {}

    b = _Builder("page_boxes", rect)
    b.rect(Style("#757575", 1.0, line_alpha=200), boxes.media_box)
    extra = (
        (boxes.bleed_box, "#1565c0", "BleedBox"),
        (boxes.trim_box, "#c62828", "TrimBox"),
        (boxes.art_box, "#6a1b9a", "ArtBox"),
    )
    for box, colour, name in extra:
        if box is not None:
            b.rect(Style(colour, 1.0, dash=True), box)
            b.drawing.labels.append(Label((box[0], box[1]), name, colour))
    b.rect(Style(L.LAYER_BY_KEY["page_boxes"].colour, 2.0), boxes.visible_box)
    b.drawing.labels.append(Label((boxes.visible_box[0], boxes.visible_box[3]), "visible box", "#2e7d32"))
    out["page_boxes"] = b.finish()

    b = _Builder("glyphs", rect)
    page_style = Style(L.PAGE_STREAM_COLOUR, 1.0, fill=L.PAGE_STREAM_COLOUR, fill_alpha=40, line_alpha=170)
    form_styles = {
        path: Style(colour, 1.0, fill=colour, fill_alpha=50, line_alpha=190) for path, colour in form_colours.items()
    }
    for g in glyphs:
        b.quad(form_styles.get(g.form_path, page_style) if g.form_path else page_style, g.quad)
    out["glyphs"] = b.finish()

    b = _Builder("form_bboxes", rect)
    for form in page.forms:
        colour = form_colours.get(tuple(form.form_path), L.FORM_COLOURS[0])
        b.polygon(Style(colour, 1.5, dash=True), form.bbox)
        name = " › ".join(form.form_path) or form.object_id
        b.drawing.labels.append(Label(form.bbox[3], f"{name} ({form.glyph_count} glyphs)", colour))
    out["form_bboxes"] = b.finish()

    b = _Builder("culled", rect)
    culled_style = Style(L.LAYER_BY_KEY["culled"].colour, 1.5, fill="#ef5350", fill_alpha=90)
    for c in classified.culls:
        b.quad(culled_style, glyphs[c.paint_index].quad)
    out["culled"] = b.finish()

    b = _Builder("duplicates", rect)
    dup_colour = L.LAYER_BY_KEY["duplicates"].colour
    dup_style = Style(dup_colour, 1.5, fill=dup_colour, fill_alpha=80)
    link_style = Style(dup_colour, 1.5)
    kept_style = Style(dup_colour, 1.0, fill="#ffffff", fill_alpha=200)
    for d in classified.duplicates:
        dup, kept = glyphs[d.paint_index], glyphs[d.duplicate_of]
        b.quad(dup_style, dup.quad)
        a, k = _centre(dup.quad), _centre(kept.quad)
        b.segment(link_style, a, k)
        b.dot(kept_style, k, max(kept.height * 0.08, 0.4))
        b.drawing.markers.append(
            Marker(
                a,
                f"glyph #{d.paint_index} dropped as a duplicate of #{d.duplicate_of}: offset {d.along:.2f} pt "
                f"along, {d.across:.2f} pt across (size {d.size:.2f} pt)",
                (d.paint_index, d.duplicate_of),
            )
        )
    out["duplicates"] = b.finish()

    b = _Builder("unresolved", rect)
    unresolved_style = Style(L.LAYER_BY_KEY["unresolved"].colour, 2.0, fill="#b71c1c", fill_alpha=110)
    b2 = _Builder("fallback", rect)
    fallback_style = Style("#f57f17", 1.5, fill=L.LAYER_BY_KEY["fallback"].colour, fill_alpha=110)
    for g in glyphs:
        if g.decode_source is DecodeSource.UNRESOLVED:
            b.quad(unresolved_style, g.quad)
        elif g.decode_source is DecodeSource.FALLBACK:
            b2.quad(fallback_style, g.quad)
    out["unresolved"] = b.finish()
    out["fallback"] = b2.finish()

    out["structure_order"] = _structure_layer(facts, rect)
    out["columns"] = _columns_layer(facts.view("columns"), glyphs, rect)
    out["baselines"] = _baselines_layer(facts.view("layout"), rect)
    return out


def _structure_layer(facts: PageFacts, rect: Rect) -> LayerDrawing:
    b = _Builder("structure_order", rect)
    view = facts.view("structure")
    if not view.available:
        return b.finish()
    glyphs = facts.page.glyphs
    styles: dict[int, Style] = {}
    untagged = Style("#9e9e9e", 1.0, fill="#bdbdbd", fill_alpha=90, dot=True)
    first_of: dict[int, int] = {}
    for g in facts.classified.visible:
        if g.mcid is None:
            b.quad(untagged, g.quad)
            continue
        style = styles.get(g.mcid)
        if style is None:
            colour = L.mcid_colour(g.mcid)
            style = styles[g.mcid] = Style(colour, 1.0, fill=colour, fill_alpha=90)
        b.quad(style, g.quad)
        first_of.setdefault(g.mcid, g.paint_index)
    b.polyline(Style(L.LAYER_BY_KEY["structure_order"].colour, 1.2, line_alpha=170), [_centre(glyphs[i].quad) for i in view.order])
    for mcid, i in first_of.items():
        q = glyphs[i].quad
        b.drawing.labels.append(Label(q[3], f"MCID {mcid}", L.mcid_colour(mcid)))
    return b.finish()


def _columns_layer(view: TextView, glyphs: Sequence[Any], rect: Rect) -> LayerDrawing:
    b = _Builder("columns", rect)
    colour = L.LAYER_BY_KEY["columns"].colour
    for col in view.columns:
        b.polygon(Style(colour, 2.0, fill=colour, fill_alpha=18, dash=True), col.quad)
        b.drawing.labels.append(Label(col.quad[3], f"column {col.index + 1}", colour))
        b.drawing.markers.append(Marker(col.quad[3], col.text, ()))
    split_style = Style(colour, 2.5)
    n = len(glyphs)
    for split in view.splits:
        if not (0 <= split.before < n and 0 <= split.after < n):
            continue
        prev, cur = glyphs[split.before], glyphs[split.after]
        mid = ((prev.glyph_end[0] + cur.origin[0]) * 0.5, (prev.glyph_end[1] + cur.origin[1]) * 0.5)
        top = _normal_point(mid, prev.direction, max(cur.height, 0.5))
        b.segment(split_style, mid, top)
        b.drawing.markers.append(Marker(mid, split.text, (split.before, split.after)))
    return b.finish()


def _baselines_layer(view: TextView, rect: Rect) -> LayerDrawing:
    b = _Builder("baselines", rect)
    style = Style(L.LAYER_BY_KEY["baselines"].colour, 1.0)
    for line in view.baselines:
        b.segment(style, line.start, line.end)
        b.drawing.markers.append(Marker(line.start, line.text, ()))
    return b.finish()


def build_mode_layers(facts: PageFacts, mode: str) -> dict[str, LayerDrawing]:
    view = facts.view(mode)
    glyphs = facts.page.glyphs
    rect = _page_rect(facts)
    n = len(glyphs)

    b = _Builder("word_gaps", rect)
    inserted = Style(L.GAP_INSERTED_COLOUR, 1.5)
    not_inserted = Style(L.GAP_NOT_INSERTED_COLOUR, 1.0)
    near_miss = Style(L.GAP_NEAR_MISS_COLOUR, 3.0)
    near_dot = Style(L.GAP_NEAR_MISS_COLOUR, 1.0, fill=L.GAP_NEAR_MISS_COLOUR, fill_alpha=220)
    other = Style("#90a4ae", 1.0, dot=True)
    for d in view.word_gaps:
        if not (0 <= d.before < n and 0 <= d.after < n):
            continue
        prev, cur = glyphs[d.before], glyphs[d.after]
        mid = ((prev.glyph_end[0] + cur.origin[0]) * 0.5, (prev.glyph_end[1] + cur.origin[1]) * 0.5)
        height = max(cur.height, 0.5)
        top = _normal_point(mid, prev.direction, height * 0.85)
        if d.near_miss:
            style = near_miss
        elif d.inserted:
            style = inserted
        elif d.verdict == "below_threshold":
            style = not_inserted
        else:
            style = other
        b.segment(style, mid, top)
        if d.near_miss:
            b.dot(near_dot, top, max(height * 0.12, 0.5))
        b.drawing.markers.append(Marker(((mid[0] + top[0]) / 2, (mid[1] + top[1]) / 2), d.text, (d.before, d.after)))
    word_gaps = b.finish()

    b = _Builder("line_breaks", rect)
    colour = L.LAYER_BY_KEY["line_breaks"].colour
    link = Style(colour, 1.5)
    dot = Style(colour, 1.0, fill=colour, fill_alpha=220)
    for d in view.line_breaks:
        if not d.new_line or not (0 <= d.before < n and 0 <= d.after < n):
            continue
        prev, cur = glyphs[d.before], glyphs[d.after]
        b.segment(link, prev.glyph_end, cur.origin)
        b.dot(dot, cur.origin, max(cur.height * 0.1, 0.5))
        b.drawing.markers.append(Marker(cur.origin, d.text, (d.before, d.after)))
    line_breaks = b.finish()

    b = _Builder("reading_order", rect)
    colour = L.LAYER_BY_KEY["reading_order"].colour
    order = [i for i in view.order if 0 <= i < n]
    b.polyline(Style(colour, 1.2, line_alpha=200), [_centre(glyphs[i].quad) for i in order])
    if order:
        first, last = glyphs[order[0]], glyphs[order[-1]]
        b.dot(Style("#2e7d32", 1.0, fill="#43a047", fill_alpha=230), _centre(first.quad), max(first.height * 0.3, 1.0))
        b.dot(Style("#c62828", 1.0, fill="#e53935", fill_alpha=230), _centre(last.quad), max(last.height * 0.3, 1.0))
        b.drawing.labels.append(Label(_centre(first.quad), f"start ({mode})", "#2e7d32"))
    reading = b.finish()
    return {"word_gaps": word_gaps, "line_breaks": line_breaks, "reading_order": reading}


# ---------------------------------------------------------------------------------------------
# Painting

_PENS: dict[Style, tuple[QPen, QBrush]] = {}


def _pen_brush(style: Style) -> tuple[QPen, QBrush]:
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
        if style.fill:
            fill = QColor(style.fill)
            fill.setAlpha(style.fill_alpha)
            brush = QBrush(fill)
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


def paint_layer(painter: QPainter, drawing: LayerDrawing, page_to_scene: QTransform, exposed: QRectF) -> None:
    """Paint one layer; `painter` draws in scene coordinates, `exposed` is in scene coordinates."""
    user_rect = visible_user_rect(page_to_scene, exposed)
    painter.save()
    painter.setTransform(page_to_scene, True)
    for part in drawing.parts:
        if not _meets(part.bounds, user_rect):
            continue
        pen, brush = _pen_brush(part.style)
        painter.setPen(pen)
        painter.setBrush(brush)
        painter.drawPath(part.path)
    painter.restore()
    if drawing.labels:
        paint_labels(painter, drawing.labels, page_to_scene, exposed)


def _meets(bounds: QRectF, rect: QRectF) -> bool:
    """Overlap test that, unlike QRectF.intersects, accepts zero-width bounds (straight lines)."""
    return bounds.left() <= rect.right() and bounds.right() >= rect.left() and bounds.top() <= rect.bottom() and (
        bounds.bottom() >= rect.top()
    )


def paint_labels(painter: QPainter, labels: Iterable[Label], page_to_scene: QTransform, exposed: QRectF) -> None:
    """Text at a constant screen size, upright whatever the page rotation."""
    world = painter.worldTransform()
    zoom = math.hypot(world.m11(), world.m12()) or 1.0
    font = QFont(painter.font())
    font.setPointSizeF(max(8.5 / zoom, 0.5))
    painter.save()
    painter.setFont(font)
    for label in labels:
        p = page_to_scene.map(QPointF(*label.anchor))
        if not exposed.adjusted(-200 / zoom, -50 / zoom, 50 / zoom, 50 / zoom).contains(p):
            continue
        painter.setPen(QColor(label.colour))
        painter.drawText(p + QPointF(2 / zoom, -3 / zoom), label.text)
    painter.restore()


def selection_path(glyph_quads: Sequence[Quad], indices: Iterable[int]) -> QPainterPath:
    path = QPainterPath()
    n = len(glyph_quads)
    for i in indices:
        if 0 <= i < n:
            q = glyph_quads[i]
            path.addPolygon(QPolygonF([QPointF(*q[0]), QPointF(*q[1]), QPointF(*q[2]), QPointF(*q[3]), QPointF(*q[0])]))
            path.closeSubpath()
    return path


SELECTION_STYLE = Style("#ff6f00", 2.0, fill="#ffeb3b", fill_alpha=120, line_alpha=255)
HOVER_STYLE = Style("#000000", 1.5, fill="#ffffff", fill_alpha=0, line_alpha=220)


def paint_path(painter: QPainter, path: QPainterPath, style: Style, page_to_scene: QTransform) -> None:
    painter.save()
    painter.setTransform(page_to_scene, True)
    pen, brush = _pen_brush(style)
    painter.setPen(pen)
    painter.setBrush(brush)
    painter.drawPath(path)
    painter.restore()


def status_colour(status: GlyphStatus) -> str:
    return {GlyphStatus.KEPT: "#2e7d32", GlyphStatus.CULLED: "#d32f2f", GlyphStatus.DUPLICATE: "#e91e63"}.get(
        status, "#000000"
    )
