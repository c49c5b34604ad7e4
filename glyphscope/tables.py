"""Tables found on a page from its ruling lines or its text, as pdfplumber's table finder finds them.

`page.find_tables(table_settings)` and its kin (glyphscope/model.py) are thin: the work is
here, in pure functions over boxes, with no page and no Qt:

1. **Edges.** Horizontal and vertical segments, from the page's drawing (`page.lines`, the four
   sides of each `page.rects`, the axis-aligned segments between consecutive points of
   `page.curves`), from its words (the "text" strategy) or from the caller
   (`explicit_vertical_lines`, `explicit_horizontal_lines`).
2. **Snapped and joined.** Parallel edges whose positions are within `snap_x_tolerance`
   (vertical) or `snap_y_tolerance` (horizontal) of each other, chained, move to their mean
   position; collinear edges whose ends are within `join_*_tolerance` become one; edges
   shorter than `edge_min_length` are dropped.
3. **Intersections.** Where a vertical edge meets a horizontal one, within
   `intersection_x_tolerance` / `intersection_y_tolerance`.
4. **Cells.** For each intersection (by x, then y), the smallest rectangle whose four corners
   are intersections joined by edges along its sides.
5. **Tables.** Cells that share a corner, transitively; a group of one cell is no table.

A cell's text is made of the chars whose box centre lies in the cell (left and top sides
included, right and bottom excluded), written as pdfplumber's `extract_text` writes chars
(glyphscope/words.py: pdfplumber's words, in lines by `top` within `y_tolerance`, joined by a
space, the lines by a line break). The "text" strategy's words are `page.extract_words` with
the `text_*` settings, made by the same word rule.

The settings have pdfplumber's names and meanings (`TableSettings`); the numbers this module
compares are those settings, nothing else. Coordinates are the page's frame (x0, top, x1,
bottom; points, y down), as every record's.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any, TypeVar

from glyphscope.records import BBox, Record, Shape, _keys_of
from glyphscope.words import DEFAULT_TEXT_TOLERANCE, cluster, text_of

if TYPE_CHECKING:
    from glyphscope.model import Page

Point = tuple[float, float]
T = TypeVar("T")

STRATEGIES = ("lines", "lines_strict", "text", "explicit")
WORD_SETTINGS = ("x_tolerance", "y_tolerance", "keep_blank_chars", "use_text_flow", "extra_attrs")
"""The `text_*` settings (without the prefix) that `page.extract_words` takes for the "text" strategy."""
TEXT_SETTINGS = (*WORD_SETTINGS, "expand_ligatures")
"""The `text_*` settings cell texts take; `text_tolerance` sets both tolerances."""


# ---------------------------------------------------------------------------------------- edges


@dataclass(frozen=True, slots=True, eq=False)
class Edge(Record):
    """A horizontal (`orientation` "h": `top == bottom`) or vertical ("v": `x0 == x1`) segment
    the finder works with, in the page's frame. `object_type` says where it came from: "line",
    "rect_edge", "curve_edge" (pdfplumber's names), "text" (the text strategy) or "explicit"."""

    orientation: str
    x0: float
    top: float
    x1: float
    bottom: float
    width: float
    height: float
    object_type: str

    @property
    def position(self) -> float:
        """Where the edge lies across its direction: `top` for "h", `x0` for "v"."""
        return self.top if self.orientation == "h" else self.x0

    @property
    def length(self) -> float:
        return self.width if self.orientation == "h" else self.height

    @property
    def pts(self) -> tuple[Point, Point]:
        """Its two ends, (x, top) each (what `PageImage.draw_lines` draws)."""
        if self.orientation == "h":
            return ((self.x0, self.top), (self.x1, self.top))
        return ((self.x0, self.top), (self.x0, self.bottom))


_keys_of(Edge)


def edge(orientation: str, x0: float, top: float, x1: float, bottom: float, object_type: str) -> Edge:
    """An Edge with its width and height."""
    return Edge(orientation, x0, top, x1, bottom, x1 - x0, bottom - top, object_type)


def _h(x0: float, x1: float, y: float, kind: str) -> Edge:
    return edge("h", x0, y, x1, y, kind)


def _v(x: float, top: float, bottom: float, kind: str) -> Edge:
    return edge("v", x, top, x, bottom, kind)


def object_edges(obj: Mapping[str, Any]) -> list[Edge]:
    """The edges of one drawn object (a `page.rects` / `lines` / `curves` record, or a mapping
    with the same keys): a line is one edge (horizontal when its top is its bottom, vertical
    otherwise, at its left end, as pdfplumber has it), a rect its four sides, a curve each horizontal or vertical segment between two consecutive
    points. An Edge (or a mapping with an `orientation`) is itself."""
    if isinstance(obj, Edge):
        return [obj]
    if isinstance(obj, Shape):  # the page's own records: their fields, not their mapping (faster)
        kind: Any = obj.object_type
        x0, top, x1, bottom = obj.x0, obj.top, obj.x1, obj.bottom
    elif "orientation" in obj:
        x0, top, x1, bottom = (float(obj[k]) for k in ("x0", "top", "x1", "bottom"))
        return [edge(str(obj["orientation"]), x0, top, x1, bottom, str(obj.get("object_type", "explicit")))]
    else:
        kind = obj.get("object_type")
        x0, top, x1, bottom = (float(obj[k]) for k in ("x0", "top", "x1", "bottom"))
    if kind == "rect":
        return [
            _h(x0, x1, top, "rect_edge"),
            _h(x0, x1, bottom, "rect_edge"),
            _v(x0, top, bottom, "rect_edge"),
            _v(x1, top, bottom, "rect_edge"),
        ]
    if kind == "line":
        # As pdfplumber: a line that is not exactly horizontal is vertical, at its left end and
        # across its height; so a line slanted by float noise still counts (and a slanted one does
        # too: leaving those out found other tables than pdfplumber on 2 corpus pages, none real)
        if top == bottom:
            return [_h(x0, x1, top, "line")]
        return [_v(x0, top, bottom, "line")]
    if kind == "curve":
        out = []
        pts = obj.pts if isinstance(obj, Shape) else [(float(x), float(y)) for x, y in obj.get("pts", ())]
        for (ax, ay), (bx, by) in zip(pts, pts[1:], strict=False):
            if ax == bx:
                out.append(_v(ax, min(ay, by), max(ay, by), "curve_edge"))
            elif ay == by:
                out.append(_h(min(ax, bx), max(ax, bx), ay, "curve_edge"))
        return out
    raise ValueError(f"no edges in a {kind!r} object: a line, rect, curve or edge is expected")


def drawn_edges(
    lines: Iterable[Mapping[str, Any]],
    rects: Iterable[Mapping[str, Any]],
    curves: Iterable[Mapping[str, Any]],
    *,
    strict: bool = False,
    min_length: float = 1.0,
    bbox: BBox | None = None,
) -> list[Edge]:
    """The page's edges at least `min_length` long: those of its lines,
    then its rects, then its curves; `strict` ("lines_strict"): its lines only. With `bbox` (a
    crop's), rects and lines are cut to it first, so a rect that crosses the crop's side has
    a side there, and every edge is cut to it."""
    sources: list[Iterable[Mapping[str, Any]]] = [lines] if strict else [lines, rects, curves]
    out: list[Edge] = []
    for objects in sources:
        for obj in objects:
            shape: Mapping[str, Any] | None = obj
            if bbox is not None and obj.get("object_type") in ("rect", "line"):
                shape = _clipped(obj, bbox)  # a crop's part of it, as pdfplumber crops objects
            if shape is None:
                continue
            found = object_edges(shape)
            if bbox is not None:
                found = clip_edges(found, bbox)
            out.extend(e for e in found if e.length >= min_length)
    return out


def _clipped(obj: Mapping[str, Any], bbox: BBox) -> dict[str, Any] | None:
    """A rect's or line's box cut to `bbox`; None when they do not meet."""
    x0, top = max(float(obj["x0"]), bbox[0]), max(float(obj["top"]), bbox[1])
    x1, bottom = min(float(obj["x1"]), bbox[2]), min(float(obj["bottom"]), bbox[3])
    if x0 > x1 or top > bottom:
        return None
    return {"object_type": obj["object_type"], "x0": x0, "top": top, "x1": x1, "bottom": bottom}


def explicit_edges(
    descs: Iterable[float | Mapping[str, Any]], orientation: str, page_bbox: BBox
) -> list[Edge]:
    """The caller's edges: a number is a line across the whole page at that x ("v") or top
    ("h"); an object (a record or mapping) gives its edges of that orientation."""
    x0, top, x1, bottom = page_bbox
    out: list[Edge] = []
    for desc in descs:
        if isinstance(desc, Mapping):
            out.extend(e for e in object_edges(desc) if e.orientation == orientation)
        elif orientation == "v":
            out.append(_v(float(desc), top, bottom, "explicit"))
        else:
            out.append(_h(x0, x1, float(desc), "explicit"))
    return out


def clip_edges(edges: Iterable[Edge], bbox: BBox) -> list[Edge]:
    """The edges cut to `bbox` (a crop's), those wholly outside it dropped."""
    bx0, btop, bx1, bbottom = bbox
    out = []
    for e in edges:
        x0, top, x1, bottom = max(e.x0, bx0), max(e.top, btop), min(e.x1, bx1), min(e.bottom, bbottom)
        if x0 > x1 or top > bottom:
            continue
        if e.orientation == "h":
            out.append(_h(x0, x1, e.top, e.object_type))
        else:
            out.append(_v(e.x0, top, bottom, e.object_type))
    return out


# ---------------------------------------------------------------------------------------- clusters


def _union(boxes: Iterable[Mapping[str, Any]]) -> BBox:
    listed = list(boxes)
    return (
        min(float(b["x0"]) for b in listed),
        min(float(b["top"]) for b in listed),
        max(float(b["x1"]) for b in listed),
        max(float(b["bottom"]) for b in listed),
    )


# ---------------------------------------------------------------------------------------- text edges


def text_edges_h(words: Sequence[Mapping[str, Any]], min_words: int) -> list[Edge]:
    """The "text" strategy's horizontal edges: for each line of at least `min_words` words
    (words whose tops are within 1 pt, chained), one edge along its top and one along its
    bottom, each as wide as all such lines together."""
    boxes = [
        _union(group) for group in cluster(words, lambda w: float(w["top"]), 1.0) if len(group) >= min_words
    ]
    if not boxes:
        return []
    left, right = min(b[0] for b in boxes), max(b[2] for b in boxes)
    return [e for b in boxes for e in (_h(left, right, b[1], "text"), _h(left, right, b[3], "text"))]


def _overlap(a: BBox, b: BBox) -> bool:
    """pdfplumber's overlap: boxes that share an area, or a side of some length."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    return width >= 0 and height >= 0 and width + height > 0


def text_edges_v(words: Sequence[Mapping[str, Any]], min_words: int) -> list[Edge]:
    """The "text" strategy's vertical edges: words whose left ends, right ends or centres are
    within 1 pt (chained) form a column when there are at least `min_words` of them; columns
    are taken largest first (left ends before right ends before centres among equals), each
    dropped when it overlaps one taken; an edge at each kept column's left side and one at the
    right of the rightmost, all from the highest top to the lowest bottom of the columns."""

    def centre(w: Mapping[str, Any]) -> float:
        return (float(w["x0"]) + float(w["x1"])) / 2

    groups = [
        *cluster(words, lambda w: float(w["x0"]), 1.0),
        *cluster(words, lambda w: float(w["x1"]), 1.0),
        *cluster(words, centre, 1.0),
    ]
    groups.sort(key=lambda g: -len(g))
    kept: list[BBox] = []
    for group in groups:
        if len(group) < min_words:
            break
        box = _union(group)
        if not any(_overlap(box, k) for k in kept):
            kept.append(box)
    if not kept:
        return []
    kept.sort(key=lambda b: b[0])
    top, bottom = min(b[1] for b in kept), max(b[3] for b in kept)
    right = max(b[2] for b in kept)
    return [*(_v(b[0], top, bottom, "text") for b in kept), _v(right, top, bottom, "text")]


# ---------------------------------------------------------------------------------------- snap and join


def snap_edges(edges: Sequence[Edge], x_tolerance: float, y_tolerance: float) -> list[Edge]:
    """Vertical edges whose x are within `x_tolerance` (chained) move to their mean x;
    horizontal ones whose tops are within `y_tolerance` to their mean top."""
    out: list[Edge] = []
    for orientation, tolerance in (("v", x_tolerance), ("h", y_tolerance)):
        group = [e for e in edges if e.orientation == orientation]
        for members in cluster(group, lambda e: e.position, tolerance):
            mean = sum(e.position for e in members) / len(members)
            for e in members:
                shift = mean - e.position
                if orientation == "v":
                    out.append(_v(e.x0 + shift, e.top, e.bottom, e.object_type))
                else:
                    out.append(_h(e.x0, e.x1, e.top + shift, e.object_type))
    return out


def join_edges(edges: Sequence[Edge], tolerance: float) -> list[Edge]:
    """Collinear edges (one orientation, one position) joined where one starts no more than
    `tolerance` after the last one ends (each run keeps its first edge's source)."""
    if not edges:
        return []
    horizontal = edges[0].orientation == "h"

    def start(e: Edge) -> float:
        return e.x0 if horizontal else e.top

    def end(e: Edge) -> float:
        return e.x1 if horizontal else e.bottom

    ordered = sorted(edges, key=start)
    joined = [ordered[0]]
    for e in ordered[1:]:
        last = joined[-1]
        if start(e) <= end(last) + tolerance:
            if end(e) > end(last):
                if horizontal:
                    joined[-1] = _h(last.x0, e.x1, last.top, last.object_type)
                else:
                    joined[-1] = _v(last.x0, last.top, e.bottom, last.object_type)
        else:
            joined.append(e)
    return joined


def merge_edges(
    edges: Sequence[Edge],
    snap_x_tolerance: float,
    snap_y_tolerance: float,
    join_x_tolerance: float,
    join_y_tolerance: float,
) -> list[Edge]:
    """Snapped (`snap_edges`, when either tolerance is above 0), then joined per line
    (`join_edges`: horizontal ones by `join_x_tolerance`, vertical by `join_y_tolerance`):
    horizontal edges by top, then vertical ones by x."""
    if snap_x_tolerance > 0 or snap_y_tolerance > 0:
        edges = snap_edges(edges, snap_x_tolerance, snap_y_tolerance)
    lines: dict[tuple[str, float], list[Edge]] = {}
    for e in edges:
        lines.setdefault((e.orientation, e.position), []).append(e)
    out: list[Edge] = []
    for key in sorted(lines):
        out.extend(join_edges(lines[key], join_x_tolerance if key[0] == "h" else join_y_tolerance))
    return out


# ---------------------------------------------------------------------------------------- cells


@dataclass(frozen=True, slots=True)
class Intersection:
    """Where edges cross: the indices (into the finder's `edges`) of the vertical and the
    horizontal edges that meet at this point."""

    vertical: frozenset[int]
    horizontal: frozenset[int]


def intersections(edges: Sequence[Edge], x_tolerance: float, y_tolerance: float) -> dict[Point, Intersection]:
    """Each point (x of a vertical edge, top of a horizontal one) where the vertical edge spans
    the top within `y_tolerance` and the horizontal edge spans the x within `x_tolerance`."""
    horizontal = sorted((e.top, e.x0, i) for i, e in enumerate(edges) if e.orientation == "h")
    tops = [h[0] for h in horizontal]
    found: dict[Point, tuple[set[int], set[int]]] = {}
    for i, v in enumerate(edges):
        if v.orientation != "v":
            continue
        x = v.x0
        first = bisect.bisect_left(tops, v.top - y_tolerance)
        last = bisect.bisect_right(tops, v.bottom + y_tolerance)
        for top, _, j in horizontal[first:last]:
            h = edges[j]
            if h.x0 - x_tolerance <= x <= h.x1 + x_tolerance:
                verticals, horizontals = found.setdefault((x, top), (set(), set()))
                verticals.add(i)
                horizontals.add(j)
    return {p: Intersection(frozenset(v), frozenset(h)) for p, (v, h) in found.items()}


def cells(points: Mapping[Point, Intersection]) -> list[BBox]:
    """For each intersection in (x, top) order, the smallest cell it is the top-left corner of:
    the first point below it (nearest first) joined to it by a vertical edge, and the first
    point right of it (nearest first) joined by a horizontal edge, whose opposite corner is an
    intersection joined to both by edges."""

    def joined(a: Point, b: Point) -> bool:
        pa, pb = points[a], points[b]
        if a[0] == b[0] and not pa.vertical.isdisjoint(pb.vertical):
            return True
        return a[1] == b[1] and not pa.horizontal.isdisjoint(pb.horizontal)

    ordered = sorted(points)
    columns: dict[float, list[float]] = {}
    rows: dict[float, list[float]] = {}
    for x, y in ordered:
        columns.setdefault(x, []).append(y)  # ascending y: the points are sorted by (x, y)
        rows.setdefault(y, []).append(x)
    for xs in rows.values():
        xs.sort()
    out: list[BBox] = []
    for pt in ordered:
        x, y = pt
        ys, xs = columns[x], rows[y]
        below = [(x, by) for by in ys[bisect.bisect_right(ys, y) :]]
        right = [(rx, y) for rx in xs[bisect.bisect_right(xs, x) :]]
        right = [r for r in right if joined(pt, r)]
        if not right:
            continue
        found = None
        for b in below:
            if not joined(pt, b):
                continue
            for r in right:
                corner = (r[0], b[1])
                if corner in points and joined(corner, r) and joined(corner, b):
                    found = (x, y, r[0], b[1])
                    break
            if found is not None:
                break
        if found is not None:
            out.append(found)
    return out


def group_cells(found: Sequence[BBox]) -> list[list[BBox]]:
    """Cells that share a corner, transitively, as tables (each in the cells' own order), by
    their top-most then left-most corner; a single cell is no table."""
    parent = list(range(len(found)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    owner: dict[Point, int] = {}
    for i, (x0, top, x1, bottom) in enumerate(found):
        for corner in ((x0, top), (x0, bottom), (x1, top), (x1, bottom)):
            j = owner.setdefault(corner, i)
            if j != i:
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    groups: dict[int, list[BBox]] = {}
    for i, c in enumerate(found):
        groups.setdefault(root(i), []).append(c)
    tables = [g for g in groups.values() if len(g) > 1]
    tables.sort(key=lambda g: min((c[1], c[0]) for c in g))
    return tables


# ---------------------------------------------------------------------------------------- cell text


def _within(placed: Sequence[tuple[float, float, T]], box: BBox) -> list[tuple[float, float, T]]:
    """The (centre x, centre y, char) whose centre lies in `box` (left and top sides in, right
    and bottom out)."""
    x0, top, x1, bottom = box
    return [p for p in placed if x0 <= p[0] < x1 and top <= p[1] < bottom]


# ---------------------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class TableSettings:
    """pdfplumber's table settings, with its names, defaults and meanings.

    `vertical_strategy` / `horizontal_strategy`: "lines" (the page's lines, rect sides and
    curve segments), "lines_strict" (its lines only), "text" (edges along aligned words:
    `min_words_vertical` words sharing a left end, right end or centre make a column;
    `min_words_horizontal` words on a line make a row) or "explicit" (only
    `explicit_vertical_lines` / `explicit_horizontal_lines`, at least two; under any strategy
    these are added: numbers are lines across the page, records give their edges).
    `snap_tolerance` (or `snap_x_tolerance`, `snap_y_tolerance`), `join_tolerance` (x, y),
    `edge_min_length`, `edge_min_length_prefilter` (drawn edges shorter are ignored before
    snapping), `intersection_tolerance` (x, y): points, see glyphscope/tables.py.
    `text_settings`: the `text_*` settings without the prefix — `x_tolerance`, `y_tolerance`
    (3; `tolerance` sets both), `keep_blank_chars`, `use_text_flow`, `extra_attrs` — for the
    words of the "text" strategy and for the cells' text — and `expand_ligatures` (cells' text).
    """

    vertical_strategy: str = "lines"
    horizontal_strategy: str = "lines"
    explicit_vertical_lines: Sequence[float | Mapping[str, Any]] = ()
    explicit_horizontal_lines: Sequence[float | Mapping[str, Any]] = ()
    snap_tolerance: float = 3.0
    snap_x_tolerance: float | None = None
    snap_y_tolerance: float | None = None
    join_tolerance: float = 3.0
    join_x_tolerance: float | None = None
    join_y_tolerance: float | None = None
    edge_min_length: float = 3.0
    edge_min_length_prefilter: float = 1.0
    min_words_vertical: int = 3
    min_words_horizontal: int = 1
    intersection_tolerance: float = 3.0
    intersection_x_tolerance: float | None = None
    intersection_y_tolerance: float | None = None
    text_settings: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for orientation in ("vertical", "horizontal"):
            strategy = getattr(self, f"{orientation}_strategy")
            if strategy not in STRATEGIES:
                raise ValueError(
                    f"{orientation}_strategy must be one of {', '.join(STRATEGIES)}, not {strategy!r}"
                )
            lines = getattr(self, f"explicit_{orientation}_lines") or ()
            if isinstance(lines, (str, bytes)) or not isinstance(lines, Iterable):
                raise ValueError(
                    f"explicit_{orientation}_lines must be a list of numbers or objects, not {lines!r}"
                )
            object.__setattr__(self, f"explicit_{orientation}_lines", tuple(lines))
            if strategy == "explicit" and len(getattr(self, f"explicit_{orientation}_lines")) < 2:
                raise ValueError(
                    f"{orientation}_strategy 'explicit' needs explicit_{orientation}_lines: two or more "
                    "numbers or objects"
                )
        for name in ("snap", "join", "intersection"):
            for axis in ("x", "y"):
                if getattr(self, f"{name}_{axis}_tolerance") is None:
                    object.__setattr__(self, f"{name}_{axis}_tolerance", getattr(self, f"{name}_tolerance"))
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name.endswith(("tolerance", "length", "prefilter")) or f.name.startswith("min_words"):
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise ValueError(f"table setting {f.name!r} must be a number, not {value!r}")
                if value < 0:
                    raise ValueError(f"table setting {f.name!r} cannot be negative ({value!r})")
        text = dict(self.text_settings)
        unknown = set(text) - {*TEXT_SETTINGS, "tolerance"}
        if unknown:
            names = ", ".join(f"text_{k}" for k in sorted(unknown))
            known = ", ".join(f"text_{k}" for k in ("tolerance", *TEXT_SETTINGS))
            raise ValueError(f"unsupported text setting(s) {names}; glyphscope takes {known}")
        both = text.pop("tolerance", DEFAULT_TEXT_TOLERANCE)
        text.setdefault("x_tolerance", both)
        text.setdefault("y_tolerance", both)
        object.__setattr__(self, "text_settings", text)

    @classmethod
    def resolve(cls, settings: TableSettings | Mapping[str, object] | None) -> TableSettings:
        """Settings from pdfplumber's dict (`text_*` keys go to `text_settings`), or as given."""
        if settings is None:
            return cls()
        if isinstance(settings, cls):
            return settings
        if not isinstance(settings, Mapping):
            raise ValueError(f"table_settings must be a dict of settings, not {type(settings).__name__}")
        names = {f.name for f in fields(cls)}
        core: dict[str, Any] = {}
        text: dict[str, Any] = {}
        for key, value in settings.items():
            if key.startswith("text_") and key != "text_settings":
                text[key[5:]] = value
            elif key in names:
                core[key] = value
            else:
                raise ValueError(
                    f"unknown table setting {key!r}; the settings are {', '.join(sorted(names))}"
                )
        core["text_settings"] = {**dict(core.get("text_settings") or {}), **text}
        return cls(**core)


# ---------------------------------------------------------------------------------------- tables


class CellGroup:
    """A row or a column of a table: `cells` in order, None where the table has no cell that
    starts at that column (row), and `bbox` around the cells it has."""

    def __init__(self, cells: Sequence[BBox | None]) -> None:
        self.cells: list[BBox | None] = list(cells)
        present = [c for c in self.cells if c is not None]
        self.bbox: BBox = (
            min(c[0] for c in present),
            min(c[1] for c in present),
            max(c[2] for c in present),
            max(c[3] for c in present),
        )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {len(self.cells)} cells {tuple(round(v, 2) for v in self.bbox)}>"


class Row(CellGroup):
    pass


class Column(CellGroup):
    pass


def _groups(found: Sequence[BBox], kind: type[CellGroup]) -> list[CellGroup]:
    """Rows (cells by top, placed at every distinct x0) or columns (by x0, at every top)."""
    axis = 0 if kind is Row else 1
    across = 1 - axis
    slots = sorted({c[axis] for c in found})
    by_line: dict[float, dict[float, BBox]] = {}
    for c in sorted(found, key=lambda c: (c[across], c[axis])):
        by_line.setdefault(c[across], {})[c[axis]] = c
    return [kind([line.get(s) for s in slots]) for _, line in sorted(by_line.items())]


class Table:
    """A table: its `cells` (x0, top, x1, bottom), `bbox`, `rows` and `columns`, and
    `extract()`, its text by row and cell."""

    def __init__(self, page: Page, cells: Sequence[BBox]) -> None:
        self.page = page
        self.cells: list[BBox] = list(cells)

    @property
    def bbox(self) -> BBox:
        return (
            min(c[0] for c in self.cells),
            min(c[1] for c in self.cells),
            max(c[2] for c in self.cells),
            max(c[3] for c in self.cells),
        )

    @property
    def rows(self) -> list[CellGroup]:
        """The rows, top to bottom; each has a place for every distinct left edge of the table's
        cells (None where no cell of that row starts there)."""
        return _groups(self.cells, Row)

    @property
    def columns(self) -> list[CellGroup]:
        """The columns, left to right; each has a place for every distinct top."""
        return _groups(self.cells, Column)

    def extract(self, **text_settings: Any) -> list[list[str | None]]:
        """The text of each cell, row by row: None where a row has no cell at that place, ""
        for an empty cell. A cell holds the page's chars (`page.chars`) whose box centre lies
        in it; `text_settings` (`x_tolerance`, `y_tolerance`, `keep_blank_chars`,
        `use_text_flow`, `extra_attrs`) write them as `text_of` says."""
        settings = TableSettings.resolve({f"text_{k}": v for k, v in text_settings.items()}).text_settings
        placed = [((c.x0 + c.x1) / 2, (c.top + c.bottom) / 2, c) for c in self.page.chars]
        out: list[list[str | None]] = []
        for row in self.rows:
            in_row = _within(placed, row.bbox)
            texts: list[str | None] = []
            for cell in row.cells:
                if cell is None:
                    texts.append(None)
                    continue
                inside = [c for _, _, c in _within(in_row, cell)]
                texts.append(text_of(inside, **settings) if inside else "")
            out.append(texts)
        return out

    def __repr__(self) -> str:
        return f"<glyphscope.Table {len(self.cells)} cells {tuple(round(v, 2) for v in self.bbox)}>"


class TableFinder:
    """The table finder's working for a page (`page.debug_tablefinder(settings)`): `settings`,
    `edges` (snapped, joined, long enough), `intersections` ({(x, top): Intersection}),
    `cells` and `tables`, each step as glyphscope/tables.py describes it."""

    def __init__(self, page: Page, settings: TableSettings | Mapping[str, object] | None = None) -> None:
        self.page = page
        self.settings = s = TableSettings.resolve(settings)
        self.edges: list[Edge] = self._edges()
        self.intersections: dict[Point, Intersection] = intersections(
            self.edges, float(s.intersection_x_tolerance or 0), float(s.intersection_y_tolerance or 0)
        )
        self.cells: list[BBox] = cells(self.intersections)
        self.tables: list[Table] = [Table(page, group) for group in group_cells(self.cells)]

    def _edges(self) -> list[Edge]:
        s, page = self.settings, self.page
        words: Sequence[Mapping[str, Any]] = ()
        if "text" in (s.vertical_strategy, s.horizontal_strategy):
            words = page.extract_words(**{k: v for k, v in s.text_settings.items() if k in WORD_SETTINGS})
        out: list[Edge] = []
        drawn: dict[bool, list[Edge]] = {}  # strict → the drawn edges, made once for both orientations
        for orientation, strategy, explicit, min_words in (
            ("v", s.vertical_strategy, s.explicit_vertical_lines, s.min_words_vertical),
            ("h", s.horizontal_strategy, s.explicit_horizontal_lines, s.min_words_horizontal),
        ):
            if strategy in ("lines", "lines_strict"):
                strict = strategy == "lines_strict"
                if strict not in drawn:
                    drawn[strict] = drawn_edges(
                        page.lines,
                        page.rects,
                        page.curves,
                        strict=strict,
                        min_length=s.edge_min_length_prefilter,
                        bbox=page.region,
                    )
                out.extend(e for e in drawn[strict] if e.orientation == orientation)
            elif strategy == "text":
                out.extend((text_edges_v if orientation == "v" else text_edges_h)(words, min_words))
            out.extend(explicit_edges(explicit, orientation, page.bbox))
        merged = merge_edges(
            out,
            float(s.snap_x_tolerance or 0),
            float(s.snap_y_tolerance or 0),
            float(s.join_x_tolerance or 0),
            float(s.join_y_tolerance or 0),
        )
        return [e for e in merged if e.length >= s.edge_min_length]


def find_tables(page: Page, settings: TableSettings | Mapping[str, object] | None = None) -> list[Table]:
    """The page's tables, top to bottom (by each one's top-most, then left-most cell corner)."""
    return TableFinder(page, settings).tables


def largest(tables: Sequence[Table]) -> Table | None:
    """The table with the most cells (the first of those with as many), None without tables."""
    best: Table | None = None
    for t in tables:
        if best is None or len(t.cells) > len(best.cells):
            best = t
    return best


__all__ = [
    "STRATEGIES",
    "CellGroup",
    "Column",
    "Edge",
    "Intersection",
    "Row",
    "Table",
    "TableFinder",
    "TableSettings",
    "cells",
    "drawn_edges",
    "explicit_edges",
    "find_tables",
    "group_cells",
    "intersections",
    "merge_edges",
    "object_edges",
    "text_edges_h",
    "text_edges_v",
]
