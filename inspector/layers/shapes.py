"""What a layer draws, in page space and without Qt: outlines, hatched regions, lines, marks, labels.

A layer's builder (inspector/layers/builders.py) turns a page's facts into a `LayerShapes`;
the window (gui/overlays.py) turns its parts into QPainterPaths, the headless image
(inspector/layers/painter.py) draws them with PIL. The vocabulary is small on purpose, so
nothing drawn can hide the letters it is about:

* closed shapes (glyph quads, boxes, regions) are outlined, or hatched with sparse thin
  lines (HATCH_SPACING_PX apart, HATCH_WIDTH_PX wide): never filled;
* lines are underlines, ticks, arrows and links;
* marks are small rings beside the text (a disc is allowed only where it covers no glyph);
* labels are placed beside the box they name (above it, or left of it), never on it.

Coordinates are PDF user space (y up); pen widths and label offsets are screen pixels.
"""

from __future__ import annotations

import math
from array import array
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import Any

from glyphscope.core.decision_protocol import Describable, describe
from glyphscope.core.geometry import Point, Quad, Rect
from glyphscope.core.glyph_table import GEOM_STRIDE
from glyphscope.inspector.views.spatial import GridIndex, PointIndex, quad_box

TILES = 8  # the page is split into TILES × TILES buckets per style: painting touches the exposed ones
LABEL_SPAN_SHARE = 0.5  # see Label.fit
LABEL_GAP_PX = 2.0  # between a label's box and the box it names
LABEL_PAD_PX = (2.0, 1.0)  # a label's background box around its text (x, y)
LABEL_BACKGROUND_ALPHA = 200
HATCH_SPACING_PX = 8.0  # hatching: one diagonal line every 8 screen pixels (Qt's BDiagPattern)
HATCH_WIDTH_PX = 1.0
UNDERLINE_DROP = 0.12  # an underline runs this share of the glyph's height under its box
HATCH_MAX_ALPHA = 140  # a hatch line at most this opaque: the letters under it stay readable
FADE_FROM_PX, FADE_TO_PX = 10.0, 30.0  # fading parts: faint below 10 px tall glyphs, full from 30 px
FADE_FLOOR = 0.25  # glyph outlines at Fit page
GAP_FADE_FLOOR = 0.35  # "no space" marks: fainter than a space inserted, yet seen at Fit page


@dataclass(frozen=True, slots=True)
class Style:
    """How a part is drawn: its pen, and for closed shapes an optional sparse hatching.

    There is no solid fill for shapes: `disc` fills a mark (a small circle) and is only used
    for marks that sit beside the text."""

    colour: str  # "#rrggbb"
    width: float = 1.0  # screen pixels
    line_alpha: int = 230
    dash: bool = False
    dot: bool = False
    hatch: bool = False  # closed shapes: diagonal lines inside, HATCH_SPACING_PX apart
    hatch_alpha: int = 110
    disc: bool = False  # marks: filled (else a ring)
    fades: float = 0.0  # > 0: drawn fainter, down to this opacity, while the layer's fade_height is small


class Place(Enum):
    """Where a label goes, relative to the box it names (on screen, whatever the page rotation)."""

    ABOVE = "above"  # its box's bottom LABEL_GAP_PX above the named box, left edges aligned
    LEFT = "left"  # its box's right edge LABEL_GAP_PX left of the named box, centred on it


@dataclass(slots=True)
class Label:
    of: Rect  # the box it names (user space); the label is drawn beside it, never on it
    text: str
    colour: str
    background: str | None = None  # a light box behind the text, so it reads over the page
    place: Place = Place.ABOVE
    # Drawn only when the named box is at least LABEL_SPAN_SHARE of the text's width on screen,
    # so labels of small things do not cover the page at Fit page (zoom in, or hover, to read them).
    fit: bool = False
    target: Marker | None = None  # what a click on the label selects (an annotation's decision)


@dataclass(slots=True)
class Marker:
    """Something with a tooltip at a point: a decision record (described on demand) or a sentence."""

    point: Point
    source: str | Describable
    glyphs: tuple[int, ...]

    @property
    def text(self) -> str:
        if isinstance(self.source, str):
            return self.source
        return describe(self.source)


@dataclass(slots=True)
class Part:
    """One style's primitives in one tile of the page."""

    style: Style
    quads: array[float] = field(default_factory=lambda: array("d"))  # 8 a closed quadrilateral
    polygons: list[tuple[Point, ...]] = field(default_factory=list)  # closed, any number of corners
    segments: array[float] = field(default_factory=lambda: array("d"))  # 4 a line segment
    polylines: list[tuple[Point, ...]] = field(default_factory=list)  # open
    marks: array[float] = field(default_factory=lambda: array("d"))  # x, y, radius (user space)
    bounds: Rect = (0.0, 0.0, 0.0, 0.0)

    def closed_shapes(self) -> Iterable[tuple[Point, ...]]:
        """The quads and polygons as corner tuples."""
        q = self.quads
        for k in range(0, len(q), 8):
            yield ((q[k], q[k + 1]), (q[k + 2], q[k + 3]), (q[k + 4], q[k + 5]), (q[k + 6], q[k + 7]))
        yield from self.polygons

    def measure(self) -> None:
        xs: list[float] = []
        ys: list[float] = []
        for values in (self.quads, self.segments):
            xs.extend(values[0::2])
            ys.extend(values[1::2])
        for shape in (*self.polygons, *self.polylines):
            xs.extend(p[0] for p in shape)
            ys.extend(p[1] for p in shape)
        m = self.marks
        for k in range(0, len(m), 3):
            xs += (m[k] - m[k + 2], m[k] + m[k + 2])
            ys += (m[k + 1] - m[k + 2], m[k + 1] + m[k + 2])
        self.bounds = (min(xs), min(ys), max(xs), max(ys)) if xs else (0.0, 0.0, 0.0, 0.0)


@dataclass(slots=True)
class LayerMarks:
    """What a layer shows besides its outlines, declared once for its Qt-free shapes
    (`LayerShapes`) and the window's drawing of them (gui.overlays.LayerDrawing): labels, markers
    (decision marks; the one nearest a point found through an index made on first use), the
    reading-order arrows and the height below which its faint parts fade."""

    key: str
    labels: list[Label] = field(default_factory=list)
    markers: list[Marker] = field(default_factory=list)
    arrows: int = 0  # reading-order layers: one numbered arrow per line
    # Parts with a `fades` style (glyph outlines, "no space" marks) fade out while this height
    # (user space, the page's typical glyph) is small on screen: at Fit page they would tint
    # small body text; what a user looks for (spaces inserted, near misses) stays full strength.
    fade_height: float = 0.0
    # Boxes a click anywhere inside selects (an annotation's /Rect: its decision), smallest first.
    areas: list[tuple[Rect, Marker]] = field(default_factory=list)
    _marker_index: PointIndex | None = None

    def marks(self) -> dict[str, Any]:
        """The fields declared here (but the index), to make another drawing of the same layer."""
        return {f.name: getattr(self, f.name) for f in fields(LayerMarks) if not f.name.startswith("_")}

    def marker_near(self, p: Point, radius: float) -> Marker | None:
        if not self.markers:
            return None
        if self._marker_index is None:
            self._marker_index = PointIndex([m.point for m in self.markers])
        i = self._marker_index.nearest(p, radius)
        return None if i is None else self.markers[i]

    def area_at(self, p: Point) -> Marker | None:
        """The marker of the smallest area containing `p` (a field inside a larger annotation)."""
        x, y = p
        inside = [
            ((r[2] - r[0]) * (r[3] - r[1]), k)
            for k, (r, _) in enumerate(self.areas)
            if r[0] <= x <= r[2] and r[1] <= y <= r[3]
        ]
        return self.areas[min(inside)[1]][1] if inside else None


@dataclass(slots=True)
class LayerShapes(LayerMarks):
    """A layer as Qt-free shapes: its outlines (`parts`) and its marks."""

    parts: list[Part] = field(default_factory=list)


class ShapeBuilder:
    """Collects a layer's primitives per (style, tile) and turns them into Parts."""

    def __init__(self, key: str, page_rect: Rect) -> None:
        x0, y0, x1, y1 = page_rect
        self.x0, self.y0 = x0, y0
        self.tw = max((x1 - x0) / TILES, 1e-6)
        self.th = max((y1 - y0) / TILES, 1e-6)
        self.tiles: dict[tuple[Style, int, int], Part] = {}
        self.whole: list[Part] = []  # parts of their own (boxes, polygons, polylines)
        self.shapes = LayerShapes(key)

    @property
    def labels(self) -> list[Label]:
        return self.shapes.labels

    @property
    def markers(self) -> list[Marker]:
        return self.shapes.markers

    def _part(self, style: Style, x: float, y: float) -> Part:
        key = (
            style,
            min(max(int((x - self.x0) // self.tw), -1), TILES),
            min(max(int((y - self.y0) // self.th), -1), TILES),
        )
        part = self.tiles.get(key)
        if part is None:
            part = self.tiles[key] = Part(style)
        return part

    def quad(self, style: Style, q: Quad) -> None:
        cx = (q[0][0] + q[2][0]) * 0.5
        cy = (q[0][1] + q[2][1]) * 0.5
        if not (math.isfinite(cx) and math.isfinite(cy)):
            return
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
        self._part(style, cx, cy).quads.extend((x0, y0, x1, y1, x2, y2, x3, y3))

    def quad_rows(self, style: Style, geom: Sequence[float], indices: Iterable[int]) -> None:
        """`quad` for the glyphs `indices`, read off the page's geometry column (GEOM_STRIDE doubles
        a glyph, the quad's corners from the 7th): one loop, the tile's part looked up again only
        when a glyph leaves the previous one's tile (neighbours in paint order mostly share it)."""
        ox, oy, tw, th, tiles = self.x0, self.y0, self.tw, self.th, self.tiles
        isfinite = math.isfinite
        last: tuple[Style, int, int] | None = None
        quads = array("d")
        for i in indices:
            k = i * GEOM_STRIDE + 6
            corners = geom[k : k + 8]
            cx = (corners[0] + corners[4]) * 0.5
            cy = (corners[1] + corners[5]) * 0.5
            if not (isfinite(cx) and isfinite(cy)):
                continue
            tx = int((cx - ox) // tw)
            ty = int((cy - oy) // th)
            if not (0 <= tx < TILES and 0 <= ty < TILES):  # off the page: the border tiles, as _part
                tx, ty = min(max(tx, -1), TILES), min(max(ty, -1), TILES)
            key = (style, tx, ty)
            if key != last:  # as _part
                last = key
                part = tiles.get(key)
                if part is None:
                    part = tiles[key] = Part(style)
                quads = part.quads
            quads.extend(corners)

    def underline(self, style: Style, q: Quad) -> None:
        """A line UNDERLINE_DROP of the glyph's height under its box, along its bottom edge (any
        rotation): the class of a glyph marked where it never covers a letter, at any zoom."""
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = q
        d = UNDERLINE_DROP
        self.segment(
            style, (x0 + (x0 - x3) * d, y0 + (y0 - y3) * d), (x1 + (x1 - x2) * d, y1 + (y1 - y2) * d)
        )

    def underline_rows(self, style: Style, geom: Sequence[float], indices: Iterable[int]) -> None:
        """`underline` for the glyphs `indices`, read off the page's geometry column."""
        d = UNDERLINE_DROP
        segment = self.segment
        for i in indices:
            k = i * GEOM_STRIDE + 6
            x0, y0, x1, y1, x2, y2, x3, y3 = geom[k : k + 8]
            segment(style, (x0 + (x0 - x3) * d, y0 + (y0 - y3) * d), (x1 + (x1 - x2) * d, y1 + (y1 - y2) * d))

    def rect(self, style: Style, r: Rect) -> None:
        x0, x1 = sorted((r[0], r[2]))
        y0, y1 = sorted((r[1], r[3]))
        part = Part(style)
        part.quads.extend((x0, y0, x1, y0, x1, y1, x0, y1))
        self.whole.append(part)

    def polygon(self, style: Style, points: Sequence[Point]) -> None:
        pts = tuple(p for p in points if math.isfinite(p[0]) and math.isfinite(p[1]))
        if len(pts) >= 2:
            self.whole.append(Part(style, polygons=[pts]))

    def segment(self, style: Style, a: Point, b: Point) -> None:
        isfinite = math.isfinite
        if not (isfinite(a[0]) and isfinite(a[1]) and isfinite(b[0]) and isfinite(b[1])):
            return
        self._part(style, (a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5).segments.extend((a[0], a[1], b[0], b[1]))

    def mark(self, style: Style, p: Point, radius: float) -> None:
        if not (math.isfinite(p[0]) and math.isfinite(p[1]) and math.isfinite(radius)):
            return
        self._part(style, p[0], p[1]).marks.extend((p[0], p[1], radius))

    def polyline(self, style: Style, points: Sequence[Point], chunk: int = 400) -> None:
        pts = [p for p in points if math.isfinite(p[0]) and math.isfinite(p[1])]
        for start in range(0, max(len(pts) - 1, 0), chunk):
            self.whole.append(Part(style, polylines=[tuple(pts[start : start + chunk + 1])]))

    def finish(self) -> LayerShapes:
        parts = self.shapes.parts
        parts.extend(self.whole)
        parts.extend(self.tiles.values())
        for part in parts:
            part.measure()
        self.tiles, self.whole = {}, []
        return self.shapes


def outline_opacity(height_px: float, floor: float = FADE_FLOOR) -> float:
    """How opaque fading parts (glyph outlines) are drawn for glyphs `height_px` tall on screen:
    faint (down to `floor`) while the letters are small (outlines of neighbouring glyphs would
    merge into a tint), full from FADE_TO_PX."""
    share = (height_px - FADE_FROM_PX) / (FADE_TO_PX - FADE_FROM_PX)
    return min(1.0, max(floor, floor + (1.0 - floor) * share))


# -- placing labels (shared by the window and the headless image) --------------------------------

ScreenRect = tuple[float, float, float, float]  # x0, y0, x1, y1 in screen pixels, y down


def screen_bounds(points: Iterable[tuple[float, float]]) -> ScreenRect:
    pts = list(points)
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    return (min(xs), min(ys), max(xs), max(ys))


def label_boxes(
    label: Label, named: ScreenRect, width: float, ascent: float, descent: float
) -> list[ScreenRect]:
    """Where a label may go, best first: beside its box on the side it names (`label_box`), then
    on the opposite side (below, or right), each LABEL_GAP_PX outside the box."""
    first = label_box(label, named, width, ascent, descent)
    if label.place is Place.LEFT:
        shift = (named[2] + LABEL_GAP_PX) - first[0]
        return [first, (first[0] + shift, first[1], first[2] + shift, first[3])]
    shift = (named[3] + LABEL_GAP_PX) - first[1]
    return [first, (first[0], first[1] + shift, first[2], first[3] + shift)]


def label_box(label: Label, named: ScreenRect, width: float, ascent: float, descent: float) -> ScreenRect:
    """The screen box of a label's text (its background box grown by LABEL_PAD_PX), beside `named`
    (the screen bounds of `label.of`): outside it by LABEL_GAP_PX, whatever the text's size."""
    px, py = LABEL_PAD_PX
    height = ascent + descent
    if label.place is Place.LEFT:
        right = named[0] - LABEL_GAP_PX - px
        middle = (named[1] + named[3]) * 0.5
        return (right - width - px, middle - height * 0.5 - py, right + px, middle + height * 0.5 + py)
    bottom = named[1] - LABEL_GAP_PX - py
    return (named[0] - px, bottom - height - py, named[0] + width + px, bottom + py)


class LabelSpace:
    """Where the labels of one drawing of the page (every layer) go: beside the box each names,
    on the side it prefers or else the opposite one, never over a label drawn before nor (given
    `ink`) over the page's letters. A label with no such place is left out; a closer zoom makes room for it. Boxes are
    kept in buckets of BUCKET_PX, so a page of thousands of labels checks only its neighbours."""

    BUCKET_PX = 64.0

    def __init__(self) -> None:
        self.buckets: dict[tuple[int, int], list[ScreenRect]] = {}
        self.taken: list[ScreenRect] = []  # in the order drawn
        self.targets: list[tuple[ScreenRect, Marker]] = []  # the drawn labels a click selects through

    def _cells(self, box: ScreenRect) -> Iterable[tuple[int, int]]:
        b = self.BUCKET_PX
        for i in range(math.floor(box[0] / b), math.floor(box[2] / b) + 1):
            for j in range(math.floor(box[1] / b), math.floor(box[3] / b) + 1):
                yield (i, j)

    def free(self, box: ScreenRect) -> bool:
        """No label taken overlaps `box` (touching edges do not)."""
        for cell in self._cells(box):
            for o in self.buckets.get(cell, ()):
                if box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]:
                    return False
        return True

    def claim(self, box: ScreenRect) -> bool:
        """Take `box` if it overlaps no box taken before; whether it was free."""
        if not self.free(box):
            return False
        for cell in self._cells(box):
            self.buckets.setdefault(cell, []).append(box)
        self.taken.append(box)
        return True

    def place(
        self,
        label: Label,
        named: ScreenRect,
        width: float,
        ascent: float,
        descent: float,
        ink: Callable[[ScreenRect], bool] | None = None,
    ) -> ScreenRect | None:
        """The first of `label_boxes` free of labels and (`ink`: whether a screen box covers a
        glyph of the page) of letters, taken; None when none is."""
        for box in label_boxes(label, named, width, ascent, descent):
            if self.free(box) and (ink is None or not ink(box)):
                self.claim(box)
                return box
        return None


def ink_test(
    glyphs: GridIndex | None, to_page: Callable[[float, float], Point] | None
) -> Callable[[ScreenRect], bool] | None:
    """Whether a screen box covers a glyph box of `glyphs` (user space), its corners taken back to
    the page by `to_page`: the `ink` of `LabelSpace.place` (None: no glyphs to keep off)."""
    if glyphs is None or to_page is None:
        return None
    meets, back = glyphs.meets, to_page

    def covers(box: ScreenRect) -> bool:
        return meets(screen_bounds(back(x, y) for x in (box[0], box[2]) for y in (box[1], box[3])))

    return covers


def text_origin(box: ScreenRect, ascent: float) -> tuple[float, float]:
    """Where a label's text starts (its baseline's left end) inside `label_box`'s box."""
    return (box[0] + LABEL_PAD_PX[0], box[1] + LABEL_PAD_PX[1] + ascent)


def fits(label: Label, named: ScreenRect, width: float) -> bool:
    """Whether a `fit` label is drawn at this zoom (what it names is wide enough on screen)."""
    return not label.fit or (named[2] - named[0]) >= LABEL_SPAN_SHARE * width


quad_rect = quad_box
"""The user-space bounds of a quad (inspector.views.spatial.quad_box, under the name the builders use)."""


def centre(q: Quad) -> Point:
    return ((q[0][0] + q[2][0]) * 0.5, (q[0][1] + q[2][1]) * 0.5)


def normal_point(p: Point, direction: Point, length: float) -> Point:
    return (p[0] - direction[1] * length, p[1] + direction[0] * length)


def hsv_to_hex(h: float, s: float, v: float) -> str:
    i = int(h * 6.0) % 6
    f = h * 6.0 - int(h * 6.0)
    p, q, t = v * (1 - s), v * (1 - f * s), v * (1 - (1 - f) * s)
    r, g, b = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
    return f"#{int(r * 255):02x}{int(g * 255):02x}{int(b * 255):02x}"
