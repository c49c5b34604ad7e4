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

from glyphscope.core.geometry import Point, Quad, Rect
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.core.glyph_table import GEOM_STRIDE, GlyphTable
from glyphscope.core.visibility_class import VisibilityClass
from glyphscope.inspector import layers as L
from glyphscope.inspector.engine import PageFacts, baseline_ends, describe, is_near_miss
from glyphscope.inspector.spatial import GlyphHitIndex, PointIndex, glyph_bounds

TILES = 8  # the page is split into TILES × TILES buckets per style
LABEL_SPAN_SHARE = 0.5  # see Label.span


@dataclass(frozen=True, slots=True)
class Style:
    colour: str
    width: float = 1.0
    fill: str | None = None
    fill_alpha: int = 60
    line_alpha: int = 230
    dash: bool = False
    dot: bool = False
    hatch: bool = False  # the fill as diagonal lines (the letters under it stay readable)
    fades: float = 0.0  # > 0: drawn fainter, down to this opacity, while the layer's fade_height is small


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
    background: str | None = None  # a filled box behind the text, so it reads over the page
    offset: tuple[float, float] = (2.0, -3.0)  # screen pixels from the anchor to the text's baseline start
    # > 0: the width (user space) of what the label names; it is drawn only when that is at least
    # LABEL_SPAN_SHARE of the text's width on screen, so labels of small things do not cover the
    # page at Fit page (zoom in, or hover the mark, to read them)
    span: float = 0.0


@dataclass(slots=True)
class Marker:
    """Something with a tooltip at a point: a decision record (described on demand) or a sentence."""

    point: Point
    source: Any  # str, or an engine record with describe()
    glyphs: tuple[int, ...]

    @property
    def text(self) -> str:
        return self.source if isinstance(self.source, str) else describe(self.source)


@dataclass(slots=True)
class LayerDrawing:
    key: str
    parts: list[Part] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    arrows: int = 0  # reading-order layers: one numbered arrow per line
    # Parts with a `fades` style (glyph outlines, "no space" marks) fade out while this height
    # (user space, the page's typical glyph) is small on screen: at Fit page they would tint
    # small body text; what a user looks for (spaces inserted, near misses) stays full strength.
    fade_height: float = 0.0
    _marker_index: PointIndex | None = None

    def marker_near(self, p: Point, radius: float) -> Marker | None:
        if not self.markers:
            return None
        if self._marker_index is None:
            self._marker_index = PointIndex([m.point for m in self.markers])
        i = self._marker_index.nearest(p, radius)
        return None if i is None else self.markers[i]


def _add_quad(
    path: QPainterPath, x0: float, y0: float, x1: float, y1: float, x2: float, y2: float, x3: float, y3: float
) -> None:
    """A glyph quad as a closed subpath; an upright one (most text) as one rectangle: one Qt call."""
    if y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0:
        path.addRect(x0, y0, x1 - x0, y2 - y0)
        return
    path.moveTo(x0, y0)
    path.lineTo(x1, y1)
    path.lineTo(x2, y2)
    path.lineTo(x3, y3)
    path.closeSubpath()


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
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
        _add_quad(self._path(style, cx, cy), x0, y0, x1, y1, x2, y2, x3, y3)

    def quad_rows(self, style: Style, geom: Sequence[float], indices: Iterable[int]) -> None:
        """`quad` for the glyphs `indices`, read off the page's geometry column (GEOM_STRIDE doubles
        a glyph, the quad's corners from the 7th): one loop, the tile's path looked up again only
        when a glyph leaves the previous one's tile (neighbours in paint order mostly share it)."""
        ox, oy, tw, th, paths = self.x0, self.y0, self.tw, self.th, self.paths
        isfinite = math.isfinite
        last: tuple[Style, int, int] | None = None
        path = QPainterPath()
        for i in indices:
            k = i * GEOM_STRIDE + 6
            x0, y0, x1, y1, x2, y2, x3, y3 = geom[k : k + 8]
            cx = (x0 + x2) * 0.5
            cy = (y0 + y2) * 0.5
            if not (isfinite(cx) and isfinite(cy)):
                continue
            key = (
                style,
                min(max(int((cx - ox) // tw), -1), TILES),
                min(max(int((cy - oy) // th), -1), TILES),
            )
            if key != last:  # as _path
                last = key
                found = paths.get(key)
                if found is None:
                    found = paths[key] = QPainterPath()
                path = found
            _add_quad(path, x0, y0, x1, y1, x2, y2, x3, y3)

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
        isfinite = math.isfinite
        if not (isfinite(a[0]) and isfinite(a[1]) and isfinite(b[0]) and isfinite(b[1])):
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


class PageOverlays:
    """The layer drawings of one page, each built on first use (mode layers once per mode)."""

    def __init__(self, facts: PageFacts) -> None:
        self.facts = facts
        self.form_colours = {path: L.form_colour(i) for path, i in facts.form_index.items()}
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
            index = self._hit_index = GlyphHitIndex.of_glyphs(self.facts.page.glyphs)
        return index

    def ready(self, key: str, mode: str) -> bool:
        """Whether the texts a layer is drawn from are assembled (PageFacts.ready): the page is
        shown before them, and a layer drawn now would assemble them on the GUI thread."""
        if key in MODE_LAYER_BUILDERS:
            return self.facts.shown_ready(mode)
        needs = LAYER_TEXTS.get(key)
        return needs is None or self.facts.ready(needs)

    def layer(self, key: str, mode: str) -> LayerDrawing | None:
        if key in MODE_LAYER_BUILDERS:
            drawings = self.by_mode.setdefault(mode, {})
            drawing = drawings.get(key)
            if drawing is None:
                drawing = drawings[key] = MODE_LAYER_BUILDERS[key](self.facts, mode)
            return drawing
        builder = STATIC_LAYER_BUILDERS.get(key)
        if builder is None:
            return None
        drawing = self.static.get(key)
        if drawing is None:
            drawing = self.static[key] = builder(self.facts, self.form_colours)
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
    return overlays


def prebuild_ready(overlays: PageOverlays, mode: str, prebuild: Iterable[str]) -> None:
    """Draw the layers of `prebuild` that can be drawn now and are not drawn yet."""
    for key in prebuild:
        if overlays.ready(key, mode):
            overlays.layer(key, mode)


def _page_rect(facts: PageFacts) -> Rect:
    return facts.page.boxes.media_box


def _page_boxes_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    boxes = facts.page.boxes
    b = _Builder("page_boxes", _page_rect(facts))
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
    if boxes.visible_box != boxes.media_box:
        b.drawing.labels.append(Label((boxes.visible_box[0], boxes.visible_box[3]), "visible box", "#2e7d32"))
    return b.finish()


def _glyphs_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    b = _Builder("glyphs", _page_rect(facts))
    # Thin outlines without fill, so the letters stay readable; hover and selection fill.
    page_style = Style(L.PAGE_STREAM_COLOUR, 0.8, line_alpha=120, fades=FADE_FLOOR)
    form_styles = {
        path: Style(colour, 1.0, line_alpha=190, fades=FADE_FLOOR) for path, colour in form_colours.items()
    }
    glyphs = facts.page.glyphs
    if isinstance(glyphs, GlyphTable):  # the page's columns: no record made for a quad
        geom = glyphs.geom
        for _, run, painted in glyphs.run_ranges():
            style = form_styles.get(run.form_path, page_style) if run.form_path else page_style
            b.quad_rows(style, geom, painted)
    else:
        for g in glyphs:
            b.quad(form_styles.get(g.form_path, page_style) if g.form_path else page_style, g.quad)
    drawing = b.finish()
    drawing.fade_height = typical_height(_heights(glyphs))
    return drawing


def typical_height(heights: Sequence[float]) -> float:
    """The median of a page's glyph heights (a sample of at most 2,000: enough for a median)."""
    step = max(1, len(heights) // 2000)
    sample = sorted(abs(h) for h in heights[::step])
    return sample[len(sample) // 2] if sample else 0.0


FADE_FROM_PX, FADE_TO_PX, FADE_FLOOR = 10.0, 30.0, 0.25
GAP_FADE_FLOOR = 0.35  # "no space" marks: fainter than a space inserted, yet seen at Fit page


def outline_opacity(height_px: float, floor: float = FADE_FLOOR) -> float:
    """How opaque glyph outlines are drawn for glyphs `height_px` tall on screen: faint (down to
    `floor`) while the letters are small (outlines of neighbouring glyphs would merge into a tint),
    full from 30 px."""
    share = (height_px - FADE_FROM_PX) / (FADE_TO_PX - FADE_FROM_PX)
    return min(1.0, max(floor, floor + (1.0 - floor) * share))


def _form_bboxes_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    b = _Builder("form_bboxes", _page_rect(facts))
    for form in facts.page.forms:
        colour = form_colours.get(tuple(form.form_path), L.FORM_COLOURS[0])
        b.polygon(Style(colour, 1.5, dash=True), form.bbox)
        name = " › ".join(form.form_path) or form.object_id
        outside = f", {form.glyphs_outside_bbox} outside its BBox" if form.glyphs_outside_bbox else ""
        b.drawing.labels.append(
            Label(form.bbox[3], f"{name} {form.object_id} ({form.glyph_count} glyphs{outside})", colour)
        )
    return b.finish()


def _annotations_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    """Each annotation's /Rect: solid when a viewer draws it and its text is read, dashed when not;
    labelled with its subtype, field and value (or why it is left out), the label a click target."""
    b = _Builder("annotations", _page_rect(facts))
    colour = L.LAYER_BY_KEY["annotations"].colour
    for decision in facts.annotation_decisions:
        annotation = decision.annotation
        rect = annotation.rect
        if rect is None:
            continue
        included = decision.verdict == "included"
        b.rect(Style(colour, 1.5 if included else 1.0, dash=not included), rect)
        name = annotation.subtype or "Annot"
        if annotation.field_name:
            name += f" {annotation.field_name} ({annotation.field_type or '?'})"
        if annotation.value:
            name += f" “{annotation.value[:40]}”"
        if not included:
            name += f" — {decision.reason.value.replace('_', ' ')}"
        corner = (rect[0], rect[3])
        b.drawing.labels.append(Label(corner, name, colour, span=rect[2] - rect[0]))
        b.drawing.markers.append(Marker(corner, decision, tuple(decision.glyphs)))
    return b.finish()


def _culled_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    """Culled glyphs outlined (the letters stay readable), each run labelled with its text."""
    b = _Builder("culled", _page_rect(facts))
    colour = L.LAYER_BY_KEY["culled"].colour
    style = Style(colour, 1.5, fill="#ef5350", fill_alpha=25)
    glyphs = facts.page.glyphs
    for c in facts.classified.culls:
        b.quad(style, glyphs[c.paint_index].quad)
    for run in facts.culled_runs:
        first = glyphs[run.glyphs[0]]
        # Above the run's first glyph, on a light box: readable even off the rendered page.
        b.drawing.labels.append(Label(first.quad[3], run.text, colour, background="#fff3f3"))
        b.drawing.markers.append(
            Marker(
                _centre(first.quad),
                f"culled run of {len(run.glyphs)} glyphs: “{run.text}” — box centres outside the "
                "visible box, left out of every text mode",
                run.glyphs,
            )
        )
    return b.finish()


def _duplicates_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    b = _Builder("duplicates", _page_rect(facts))
    colour = L.LAYER_BY_KEY["duplicates"].colour
    dup_style = Style(colour, 1.5, fill=colour, fill_alpha=28)  # light: the letters stay readable
    link_style = Style(colour, 1.5)
    kept_style = Style(colour, 1.0, fill="#ffffff", fill_alpha=200)
    glyphs = facts.page.glyphs
    for d in facts.classified.duplicates:
        dup, kept = glyphs[d.paint_index], glyphs[d.duplicate_of]
        b.quad(dup_style, dup.quad)
        a, k = _centre(dup.quad), _centre(kept.quad)
        b.segment(link_style, a, k)
        b.dot(kept_style, k, max(kept.height * 0.08, 0.4))
        b.drawing.markers.append(
            Marker(
                a,
                d,  # the record's own sentence, with the offsets and tolerances it compared
                (d.paint_index, d.duplicate_of),
            )
        )
    return b.finish()


def _decode_layer(key: str, source: DecodeSource, style: Style) -> Any:
    def build(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
        b = _Builder(key, _page_rect(facts))
        glyphs = facts.page.glyphs
        if isinstance(glyphs, GlyphTable):  # the page's decode-source column: no record made
            b.quad_rows(style, glyphs.geom, [i for i, s in enumerate(glyphs.source) if s is source])
        else:
            for g in glyphs:
                if g.decode_source is source:
                    b.quad(style, g.quad)
        return b.finish()

    return build


def _structure_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    rect = _page_rect(facts)
    b = _Builder("structure_order", rect)
    view = facts.view("structure")
    if not view.available:
        return b.finish()
    glyphs = facts.page.glyphs
    styles: dict[int, Style] = {}
    untagged = Style("#9e9e9e", 1.0, fill="#bdbdbd", fill_alpha=60, dot=True)
    first_of: dict[int, int] = {}
    for g in facts.classified.visible:
        if g.mcid is None:
            b.quad(untagged, g.quad)
            continue
        style = styles.get(g.mcid)
        if style is None:
            colour = L.mcid_colour(g.mcid)
            style = styles[g.mcid] = Style(colour, 1.0, fill=colour, fill_alpha=45)
        b.quad(style, g.quad)
        first_of.setdefault(g.mcid, g.paint_index)
    _order_arrows(b, facts, view.lines(), L.LAYER_BY_KEY["structure_order"].colour, "structure")
    for mcid, i in first_of.items():
        # Above the glyph's top edge; the line numbers sit left of the line: they never meet.
        b.drawing.labels.append(
            Label(glyphs[i].quad[3], f"MCID {mcid}", L.mcid_colour(mcid), background="#ffffff")
        )
    return b.finish()


def _columns_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    view = facts.view("columns")
    glyphs = facts.page.glyphs
    b = _Builder("columns", _page_rect(facts))
    colour = L.LAYER_BY_KEY["columns"].colour
    for col in view.columns:
        b.polygon(Style(colour, 2.0, fill=colour, fill_alpha=18, dash=True), col.quad)
        b.drawing.labels.append(Label(col.quad[3], f"column {col.column + 1}", colour))
        b.drawing.markers.append(Marker(col.quad[3], col, ()))
    split_style = Style(colour, 2.5)
    n = len(glyphs)
    for split in view.splits:
        if not (0 <= split.before < n and 0 <= split.after < n):
            continue
        prev, cur = glyphs[split.before], glyphs[split.after]
        mid = ((prev.glyph_end[0] + cur.origin[0]) * 0.5, (prev.glyph_end[1] + cur.origin[1]) * 0.5)
        top = _normal_point(mid, prev.direction, max(cur.height, 0.5))
        b.segment(split_style, mid, top)
        b.drawing.markers.append(Marker(mid, split, (split.before, split.after)))
    return b.finish()


def _article_beads_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    """Article beads: each bead rectangle, numbered in thread order, from articles mode."""
    from glyphscope.core.assembly.decisions import ArticleBeadRecord

    b = _Builder("article_beads", _page_rect(facts))
    colour = L.LAYER_BY_KEY["article_beads"].colour
    beads = facts.analysis.texts["articles"].decisions_of(ArticleBeadRecord)
    for bead in beads:
        b.polygon(Style(colour, 2.0, fill=colour, fill_alpha=22, dash=not bead.glyphs), bead.quad)
        b.drawing.labels.append(Label(bead.quad[3], f"bead {bead.number}", colour))
        b.drawing.markers.append(Marker(bead.quad[3], bead, bead.glyphs[:1]))
    for thread in sorted({bd.thread for bd in beads}):  # each thread from bead to bead, dotted
        q = [bd.quad for bd in beads if bd.thread == thread]
        centres = [((c[0][0] + c[2][0]) * 0.5, (c[0][1] + c[2][1]) * 0.5) for c in q]
        b.polyline(Style(colour, 1.0, dot=True), centres)
    return b.finish()


def _actual_text_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    """ActualText spans: their glyphs outlined, the replacement written above the first."""
    from glyphscope.core.assembly.actual_text import SOFT_HYPHEN, ActualTextDecision, written_text

    b = _Builder("actual_text", _page_rect(facts))
    colour = L.LAYER_BY_KEY["actual_text"].colour
    style = Style(colour, 1.5, fill=colour, fill_alpha=30)
    glyphs = facts.page.glyphs
    applied = {d.span: d for d in facts.analysis.texts["plain"].decisions_of(ActualTextDecision)}
    for span in getattr(facts.page, "actual_text", ()):
        members = range(max(span.first, 0), min(span.last + 1, len(glyphs)))
        for i in members:
            b.quad(style, glyphs[i].quad)
        if not members:
            continue
        first = glyphs[members[0]]
        written = written_text(span.text)
        shown = f"“{written}”" if written else ("soft hyphen" if SOFT_HYPHEN in span.text else "nothing")
        b.drawing.labels.append(
            Label(first.quad[3], f"{span.key_name} {shown}", colour, background="#e0f2f1")
        )
        record = applied.get(span)
        note: Any = record
        if record is None:
            why = (
                "Parameters.actual_text is off"
                if not facts.analysis.params.actual_text
                else "none is visible"
            )
            note = f"the {span.key} {span.text!r} of glyphs #{span.first}–#{span.last} is not written: {why}"
        b.drawing.markers.append(Marker(_centre(first.quad), note, tuple(members)))
    return b.finish()


def _baselines_layer(facts: PageFacts, form_colours: dict[tuple[str, ...], str]) -> LayerDrawing:
    view = facts.view("layout")
    b = _Builder("baselines", _page_rect(facts))
    style = Style(L.LAYER_BY_KEY["baselines"].colour, 1.0)
    for line in view.baselines:
        start, end = baseline_ends(line)
        b.segment(style, start, end)
        b.drawing.markers.append(Marker(start, line, line.glyphs[:1]))
    return b.finish()


def _word_gaps_layer(facts: PageFacts, mode: str) -> LayerDrawing:
    view = facts.view(facts.shown_mode(mode))
    glyphs = facts.page.glyphs
    n = len(glyphs)
    b = _Builder("word_gaps", _page_rect(facts))
    inserted = Style(L.GAP_INSERTED_COLOUR, 1.5)
    not_inserted = Style(L.GAP_NOT_INSERTED_COLOUR, 1.5, fades=GAP_FADE_FLOOR)  # findable, not a tint
    near_miss = Style(L.GAP_NEAR_MISS_COLOUR, 3.0)
    near_dot = Style(L.GAP_NEAR_MISS_COLOUR, 1.0, fill=L.GAP_NEAR_MISS_COLOUR, fill_alpha=220)
    other = Style("#90a4ae", 1.0, dot=True, fades=GAP_FADE_FLOOR)
    markers = b.drawing.markers
    for d in view.word_gaps:
        before, after = d.before, d.after
        if not (0 <= before < n and 0 <= after < n):
            continue
        prev, cur = glyphs[before], glyphs[after]
        (ex, ey), (ox, oy), (dx, dy) = prev.glyph_end, cur.origin, prev.direction
        mid = ((ex + ox) * 0.5, (ey + oy) * 0.5)
        height = max(cur.height, 0.5)
        top = (mid[0] - dy * (height * 0.85), mid[1] + dx * (height * 0.85))  # _normal_point
        near = is_near_miss(d)
        if near:
            style = near_miss
        elif d.inserted:  # the §3 rule or the CJK gap rule generated a space
            style = inserted
        elif d.value is not None:  # a number was compared and no space followed (tracking, CJK pair...)
            style = not_inserted
        else:
            style = other
        b.segment(style, mid, top)
        if near:
            b.dot(near_dot, top, max(height * 0.12, 0.5))
        h = height * 0.42  # where decision_point puts a gap's mark, computed from what is at hand
        markers.append(Marker((mid[0] - dy * h, mid[1] + dx * h), d, (before, after)))
    drawing = b.finish()
    drawing.fade_height = typical_height(_heights(glyphs))
    return drawing


def _heights(glyphs: Sequence[Any]) -> list[float]:
    """Every glyph's box height (off the runs when the page has its columns)."""
    if isinstance(glyphs, GlyphTable):
        return glyphs.spread(run.height for run in glyphs.runs)
    return [g.height for g in glyphs]


def _line_breaks_layer(facts: PageFacts, mode: str) -> LayerDrawing:
    view = facts.view(facts.shown_mode(mode))
    glyphs = facts.page.glyphs
    n = len(glyphs)
    b = _Builder("line_breaks", _page_rect(facts))
    colour = L.LAYER_BY_KEY["line_breaks"].colour
    link = Style(colour, 1.5)
    dot = Style(colour, 1.0, fill=colour, fill_alpha=220)
    for d in view.line_breaks:
        if not d.is_break or not (0 <= d.before < n and 0 <= d.after < n):
            continue
        prev, cur = glyphs[d.before], glyphs[d.after]
        b.segment(link, prev.glyph_end, cur.origin)
        b.dot(dot, cur.origin, max(cur.height * 0.1, 0.5))
        b.drawing.markers.append(Marker(cur.origin, d, (d.before, d.after)))
    return b.finish()


def _reading_order_layer(facts: PageFacts, mode: str) -> LayerDrawing:
    """One numbered arrow per line of the mode's text: the order is read from the numbers."""
    shown = facts.shown_mode(mode)
    b = _Builder("reading_order", _page_rect(facts))
    _order_arrows(b, facts, facts.view(shown).lines(), L.LAYER_BY_KEY["reading_order"].colour, shown)
    return b.finish()


def _line_ends(glyphs: Any, line: list[int]) -> tuple[Point, Point, Point, float]:
    """(start, end, unit direction, height) of a line's arrow: first glyph's left to last glyph's right."""
    first, last = glyphs[line[0]], glyphs[line[-1]]
    fq, lq = first.quad, last.quad
    # Just under the baseline, like an underline: the arrow never strikes through the letters.
    below = 0.22
    start = (fq[0][0] + (fq[0][0] - fq[3][0]) * below, fq[0][1] + (fq[0][1] - fq[3][1]) * below)
    end = (lq[1][0] + (lq[1][0] - lq[2][0]) * below, lq[1][1] + (lq[1][1] - lq[2][1]) * below)
    dx, dy = end[0] - start[0], end[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1e-6:
        dx, dy = first.direction
        length = math.hypot(dx, dy) or 1.0
    height = max(max(glyphs[i].height for i in line[:50]), 0.5)
    return start, end, (dx / length, dy / length), height


def _order_arrows(b: _Builder, facts: PageFacts, lines: list[list[int]], colour: str, mode: str) -> None:
    """Numbered arrows, one per line, along the line from its first glyph to its last."""
    glyphs = facts.page.glyphs
    n = len(glyphs)
    style = Style(colour, 1.8, line_alpha=210)
    for number, line in enumerate(lines, start=1):
        line = [i for i in line if 0 <= i < n]
        if not line:
            continue
        start, end, (ux, uy), height = _line_ends(glyphs, line)
        b.segment(style, start, end)
        head = min(height * 0.45, max(math.hypot(end[0] - start[0], end[1] - start[1]) * 0.5, height * 0.2))
        for side in (1.0, -1.0):  # the two strokes of the head, ±30° off the shaft
            hx = -ux * 0.866 - side * uy * 0.5
            hy = -uy * 0.866 + side * ux * 0.5
            b.segment(style, end, (end[0] + hx * head, end[1] + hy * head))
        b.drawing.arrows += 1
        text = "".join(glyphs[i].text for i in line[:60]).strip()
        b.drawing.labels.append(Label(start, str(number), colour, background="#ffffff", offset=(-14.0, 1.0)))
        b.drawing.markers.append(
            Marker(start, f"{mode} line {number}: “{text}”" + ("…" if len(line) > 60 else ""), tuple(line))
        )


def compare_layer(
    facts: PageFacts, form_colours: dict[tuple[str, ...], str] | None = None
) -> LayerDrawing | None:
    """Glyphs where other engines disagree with us, coloured by kind (layers.COMPARE_COLOURS); a space
    difference is a tick between its two glyphs. None until the Compare panel has compared this page
    (compare_page.attach_comparison), so the canvas builds it again once the comparison is there."""
    from glyphscope.inspector.compare_page import comparison_of

    comparison = comparison_of(facts)
    if comparison is None:
        return None
    b = _Builder("compare", _page_rect(facts))
    glyphs = facts.page.glyphs
    n = len(glyphs)
    priority = ("extra", "missing", "changed", "order", "space")  # one colour per glyph: the first kind
    styles = {
        kind: Style(colour, 1.5, fill=colour, fill_alpha=70) for kind, colour in L.COMPARE_COLOURS.items()
    }
    for g, found in comparison.glyph_kinds().items():
        if not 0 <= g < n:
            continue
        kinds = {kind for kind, _ in found}
        if kinds == {"space"}:
            continue  # drawn as a tick between the pair below
        kind = next(k for k in priority if k in kinds)
        b.quad(styles[kind], glyphs[g].quad)
        diff = next(d for k, d in found if k == kind)
        b.drawing.markers.append(Marker(_centre(glyphs[g].quad), diff.sentence, diff.glyphs))
    tick = Style(L.COMPARE_COLOURS["space"], 3.0)
    for engine in comparison.engines:
        for d in engine.differences:
            pair = d.run.pair
            if d.kind != "space" or pair is None or not all(0 <= i < n for i in pair):
                continue
            prev, cur = glyphs[pair[0]], glyphs[pair[1]]
            mid = ((prev.glyph_end[0] + cur.origin[0]) * 0.5, (prev.glyph_end[1] + cur.origin[1]) * 0.5)
            top = _normal_point(mid, prev.direction, max(cur.height, 0.5))
            b.segment(tick, mid, top)
            b.drawing.markers.append(Marker(mid, d.sentence, d.glyphs))
    return b.finish()


INK_DISAGREES_STYLE = Style(L.LAYER_BY_KEY[L.INK_DISAGREES].colour, 2.0)
INK_WITHOUT_GLYPHS_STYLE = Style(
    L.LAYER_BY_KEY[L.INK_WITHOUT_GLYPHS].colour,
    1.5,
    fill=L.LAYER_BY_KEY[L.INK_WITHOUT_GLYPHS].colour,
    fill_alpha=170,
    hatch=True,
)


def ink_disagrees_layer(
    facts: PageFacts, form_colours: dict[tuple[str, ...], str] | None = None
) -> LayerDrawing | None:
    """Glyphs whose ink reads other (the OCR cross-check), outlined, with what the ink reads above
    each where it fits. None until the page is verified, so the canvas builds it again then."""
    from glyphscope.inspector.verify_view import disagreeing

    result = facts.verification
    if result is None:
        return None
    b = _Builder(L.INK_DISAGREES, _page_rect(facts))
    glyphs = facts.page.glyphs
    colour = INK_DISAGREES_STYLE.colour
    for check in disagreeing(result):
        if not 0 <= check.paint_index < len(glyphs):
            continue
        quad = glyphs[check.paint_index].quad
        b.quad(INK_DISAGREES_STYLE, quad)
        top = max(quad, key=lambda p: p[1])  # the highest corner in user space (y up)
        width = abs(quad[1][0] - quad[0][0]) or abs(quad[2][0] - quad[3][0])
        b.drawing.labels.append(
            Label((min(p[0] for p in quad), top[1]), check.ink or "", colour, "#ffffff", span=width)
        )
        b.drawing.markers.append(
            Marker(
                _centre(quad),
                f"The ink reads “{check.ink}” (confidence {check.conf or 0.0:.0f}); "
                f"the glyph decodes to “{check.decoded}” (code {check.code}, font {check.font_id})",
                (check.paint_index,),
            )
        )
    return b.finish()


def ink_without_glyphs_layer(
    facts: PageFacts, form_colours: dict[tuple[str, ...], str] | None = None
) -> LayerDrawing | None:
    """Text the ink reads where the page has no glyph (OCR regions), hatched: the letters under the
    lines stay readable. None until the page is verified."""
    result = facts.verification
    if result is None:
        return None
    b = _Builder(L.INK_WITHOUT_GLYPHS, _page_rect(facts))
    colour = INK_WITHOUT_GLYPHS_STYLE.colour
    for page in result.pages[:1]:
        for region in page.ink_without_glyphs:
            x0, y0, x1, y1 = region.bbox
            b.rect(INK_WITHOUT_GLYPHS_STYLE, region.bbox)
            text = region.text if len(region.text) <= 40 else region.text[:39] + "…"
            b.drawing.labels.append(Label((x0, y1), f"ink: {text}", colour, "#ffffff", span=x1 - x0))
            b.drawing.markers.append(
                Marker(
                    ((x0 + x1) / 2.0, (y0 + y1) / 2.0),
                    f"Ink without glyphs: the ink reads “{region.text}” ({region.words} words, mean "
                    f"confidence {region.mean_conf:.0f}) where the page has no glyph",
                    (),
                )
            )
    return b.finish()


STATIC_LAYER_BUILDERS = {
    "page_boxes": _page_boxes_layer,
    "glyphs": _glyphs_layer,
    "form_bboxes": _form_bboxes_layer,
    "annotations": _annotations_layer,
    "culled": _culled_layer,
    "duplicates": _duplicates_layer,
    "unresolved": _decode_layer(
        "unresolved",
        DecodeSource.UNRESOLVED,
        Style(L.LAYER_BY_KEY["unresolved"].colour, 2.0, fill="#b71c1c", fill_alpha=110),
    ),
    "fallback": _decode_layer(
        "fallback",
        DecodeSource.FALLBACK,
        Style("#f57f17", 1.5, fill=L.LAYER_BY_KEY["fallback"].colour, fill_alpha=110),
    ),
    "structure_order": _structure_layer,
    "columns": _columns_layer,
    "baselines": _baselines_layer,
    "compare": compare_layer,
    L.INK_DISAGREES: ink_disagrees_layer,
    L.INK_WITHOUT_GLYPHS: ink_without_glyphs_layer,
    "article_beads": _article_beads_layer,
    "actual_text": _actual_text_layer,
}


def _visibility_builders() -> dict[str, Any]:
    """The visibility layers, built on this module: imported once it is defined (they import it)."""
    from glyphscope.inspector.gui.visibility_layers import VISIBILITY_LAYER_BUILDERS

    return VISIBILITY_LAYER_BUILDERS


STATIC_LAYER_BUILDERS.update(_visibility_builders())  # one layer per visibility class

# The mode whose text a static layer is drawn from (mode layers read the mode on screen).
LAYER_TEXTS = {
    "structure_order": "structure",
    "columns": "columns",
    "baselines": "layout",
    "article_beads": "articles",
    "actual_text": "plain",
}

MODE_LAYER_BUILDERS = {
    "word_gaps": _word_gaps_layer,
    "line_breaks": _line_breaks_layer,
    "reading_order": _reading_order_layer,
}


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
            brush = QBrush(fill, Qt.BrushStyle.BDiagPattern) if style.hatch else QBrush(fill)
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
        pen, brush = _pen_brush(part.style)
        painter.setPen(pen)
        painter.setBrush(brush)
        painter.drawPath(part.path)
    painter.restore()
    if drawing.labels:
        paint_labels(painter, drawing.labels, page_to_scene, exposed)


def _meets(bounds: QRectF, rect: QRectF) -> bool:
    """Overlap test that, unlike QRectF.intersects, accepts zero-width bounds (straight lines)."""
    return (
        bounds.left() <= rect.right()
        and bounds.right() >= rect.left()
        and bounds.top() <= rect.bottom()
        and (bounds.bottom() >= rect.top())
    )


def paint_labels(
    painter: QPainter, labels: Iterable[Label], page_to_scene: QTransform, exposed: QRectF
) -> None:
    """Text at a constant screen size, upright whatever the page rotation (drawn in device pixels)."""
    world = painter.worldTransform()
    zoom = math.hypot(world.m11(), world.m12()) or 1.0
    font = QFont(painter.font())
    font.setPointSizeF(8.5)
    reach = exposed.adjusted(-600 / zoom, -50 / zoom, 50 / zoom, 50 / zoom)
    painter.save()
    painter.resetTransform()
    painter.setFont(font)
    metrics = painter.fontMetrics()
    line = metrics.height()
    taken: set[tuple[int, int]] = set()  # label cells already drawn: crowded labels are skipped
    for label in labels:
        p = page_to_scene.map(QPointF(*label.anchor))
        if not reach.contains(p):
            continue
        at = world.map(p) + QPointF(*label.offset)
        if label.span > 0.0:
            end = world.map(page_to_scene.map(QPointF(label.anchor[0] + label.span, label.anchor[1])))
            if math.hypot(end.x() - at.x() + label.offset[0], end.y() - at.y() + label.offset[1]) < (
                LABEL_SPAN_SHARE * metrics.horizontalAdvance(label.text)
            ):
                continue  # what it names is smaller than its name on screen: zoom in to read it
        cell = (int(at.x() // (line * 2)), int(at.y() // line))
        if cell in taken:
            continue  # at this zoom it would overprint the one drawn there: zoom in to read it
        taken.add(cell)
        if label.background:
            box = QRectF(metrics.boundingRect(label.text)).translated(at).adjusted(-2, -1, 2, 1)
            painter.setPen(Qt.PenStyle.NoPen)
            fill = QColor(label.background)
            fill.setAlpha(225)
            painter.setBrush(fill)
            painter.drawRect(box)
        painter.setPen(QColor(label.colour))
        painter.drawText(at, label.text)
    painter.restore()


def selection_path(glyph_quads: Sequence[Quad], indices: Iterable[int]) -> QPainterPath:
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


SELECTION_STYLE = Style("#ff6f00", 2.0, fill="#ffeb3b", fill_alpha=120, line_alpha=255)
HOVER_STYLE = Style("#000000", 1.5, fill="#42a5f5", fill_alpha=70, line_alpha=220)


def paint_path(painter: QPainter, path: QPainterPath, style: Style, page_to_scene: QTransform) -> None:
    painter.save()
    painter.setTransform(page_to_scene, True)
    pen, brush = _pen_brush(style)
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
