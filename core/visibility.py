"""Visibility classes: is a painted glyph something a reader can see?

The interpreter records data only (core/page.py: the clip records, fill states and
paint objects of a page; Glyph.clip_id / fill_id). This pass decides, per glyph, one
VisibilityClass (core/visibility_class.py), first match wins:

* invisible_mode: text render mode 3 or 7 (INVISIBLE_RENDER_MODES: neither fill nor
  stroke), e.g. an OCR layer;
* clipped: no part of the glyph's box meets the clipping path in force — its centre and a
  3 × 3 grid of points across the box all lie outside (the clip's common bbox first, then
  the even-odd or nonzero test on each flattened path as its W/W* said): "wholly outside"
  (spec §5), so a glyph a clip cuts through is drawn and read;
* transparent: a fill-only render mode (0, 4) with fill alpha /ca 0, or a soft mask
  known to be empty (its group paints nothing);
* covered: the box centre lies under a LATER opaque image or filled path (paint order
  is shared: a paint object after glyph i has glyphs_before > i);
* same_as_background: a fill-only glyph whose colour equals what lies under it — white
  when nothing was painted under it before, or the colour of the latest opaque fill under it;
* visible: everything else.

A whitespace glyph has no ink: it is invisible_mode or clipped on its own, and transparent,
same_as_background or covered only between two glyphs of one string hidden for that reason
(so drop_hidden leaves no stray blanks).

Each non-visible glyph gets a decision record with the numbers compared. What text modes
do with them (Parameters.keep_clipped, drop_hidden): clipped glyphs are dropped like culled
ones; invisible_mode, transparent, same_as_background and covered are kept and flagged,
and `drop_hidden` drops transparent, same_as_background and covered (never invisible_mode:
OCR layers depend on it).
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from glyphscope.core.colours import WHITE, rgb, same_colour
from glyphscope.core.geometry import Rect
from glyphscope.core.glyph_table import GEOM_STRIDE, PassColumns
from glyphscope.core.lazy import lazy_names
from glyphscope.core.page import (
    ClipPath,
    ClipRecord,
    FillState,
    InterpretedPage,
    PaintKind,
    Polygon,
    clip_paths,
)
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.render_modes import FILL_ONLY_RENDER_MODES, INVISIBLE_RENDER_MODES
from glyphscope.core.visibility_class import DROPPABLE_HIDDEN, VisibilityClass

if TYPE_CHECKING:
    # The records are made on the first hidden glyph (core/visibility_records.py); these names
    # are still read from here, on first use (`__getattr__` at the end).
    from glyphscope.core.visibility_records import VISIBILITY_RECORDS as VISIBILITY_RECORDS
    from glyphscope.core.visibility_records import ClippedDecision as ClippedDecision
    from glyphscope.core.visibility_records import CoveredDecision as CoveredDecision
    from glyphscope.core.visibility_records import HiddenRecord as HiddenRecord
    from glyphscope.core.visibility_records import InvisibleModeDecision as InvisibleModeDecision
    from glyphscope.core.visibility_records import SameAsBackgroundDecision as SameAsBackgroundDecision
    from glyphscope.core.visibility_records import TransparentDecision as TransparentDecision
    from glyphscope.core.visibility_records import why_hidden as why_hidden

_GRID = 36.0  # cell of the glyph-centre grid paint objects are matched against (half an inch)


def _inside_polygons(polygons: Sequence[Polygon], even_odd: bool, x: float, y: float) -> bool:
    """Even-odd or nonzero winding test of a point against closed polygons."""
    winding = 0
    crossings = 0
    for poly in polygons:
        n = len(poly)
        if n < 3:
            continue
        x0, y0 = poly[-1]
        for x1, y1 in poly:
            if (y0 <= y) != (y1 <= y):
                t = (y - y0) / (y1 - y0)
                if x < x0 + t * (x1 - x0):
                    crossings += 1
                    winding += 1 if y1 > y0 else -1
            x0, y0 = x1, y1
    return (crossings & 1) == 1 if even_odd else winding != 0


def upright_rect(polygons: Sequence[Polygon]) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) when `polygons` are one upright rectangle (a repeated point aside) with
    corners of ordinary size: a point is then inside it, as _inside_polygons counts under either
    rule, exactly when x0 <= x < x1 and y0 <= y < y1 (its two vertical edges cross the rows
    [y0, y1) at x0 and x1; the horizontal ones cross nothing). None for any other shape."""
    if len(polygons) != 1:
        return None
    poly = polygons[0]
    pts = [p for k, p in enumerate(poly) if p != poly[k - 1]]
    if len(pts) != 4:
        return None
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = pts
    if not (ay == by and bx == cx and cy == dy and dx == ax) and not (
        ax == bx and by == cy and cx == dx and dy == ay
    ):
        return None
    if not (abs(ax) < 1e300 and abs(ay) < 1e300 and abs(cx) < 1e300 and abs(cy) < 1e300):
        return None  # (and not NaN) so that no step of the crossing test overflows
    return (min(ax, cx), min(ay, cy), max(ax, cx), max(ay, cy))


MAX_CLIP_CHAIN = 64
"""Paths of a clip's chain looked at for one point (innermost first): a hostile stream that
intersects 100,000 paths must not cost 100,000 tests per glyph. Beyond them the common bbox
still answers, and a point outside it is attributed to the innermost path."""


def outside_clip(
    clips: Sequence[ClipRecord],
    index: int,
    x: float,
    y: float,
    chains: dict[int, list[ClipPath]] | None = None,
) -> tuple[ClipPath, str] | None:
    """The clip path of clip `index` the point (x, y) lies outside of, innermost first, and the
    test that said so ("bbox" or "polygon"); None when it lies inside every path of the clip.
    `chains`: the paths of each clip already looked up (one pass keeps them for all its points)."""
    record = clips[index]
    x0, y0, x1, y1 = record.bbox
    if record.empty or not (x0 <= x <= x1 and y0 <= y <= y1):
        for path in _chain(clips, index, chains):
            bx0, by0, bx1, by1 = path.bbox
            if not (bx0 <= x <= bx1 and by0 <= y <= by1):
                return path, "bbox"
        return record.path, "bbox"  # the boxes do not meet: the empty intersection
    if record.rect_only:
        return None
    for path in _chain(clips, index, chains):
        if not path.rect and not _inside_polygons(path.polygons, path.even_odd, x, y):
            return path, "polygon"
    return None


def _chain(
    clips: Sequence[ClipRecord], index: int, chains: dict[int, list[ClipPath]] | None
) -> list[ClipPath]:
    """clip_paths(clips, index, MAX_CLIP_CHAIN), looked up once per clip when `chains` keeps them."""
    if chains is None:
        return clip_paths(clips, index, MAX_CLIP_CHAIN)
    chain = chains.get(index)
    if chain is None:
        chain = chains[index] = clip_paths(clips, index, MAX_CLIP_CHAIN)
    return chain


BOX_SAMPLES = (0.1, 0.5, 0.9)
"""Where a glyph's box is tested against the clip when its centre lies outside: at these fractions
along its advance and its height (a 3 × 3 grid, just inside the edges so that a box that only
touches the clip's edge does not count). A glyph is clipped only when no point of the grid is
inside: a clip band narrower than the glyph (a table cell's 4.4 pt band across a "." of 1.9) shows
the part of the glyph it covers, and a viewer draws it."""


def _box_meets_clip(
    clips: Sequence[ClipRecord],
    index: int,
    geom: Sequence[float],
    i: int,
    chains: dict[int, list[ClipPath]] | None = None,
) -> bool:
    """Whether any point of glyph i's sample grid lies inside clip `index` (the quad's corners 0, 1, 3
    span it: descent-origin, descent-advance, ascent-origin)."""
    k = i * GEOM_STRIDE + 6
    x0, y0, x1, y1, x3, y3 = geom[k], geom[k + 1], geom[k + 2], geom[k + 3], geom[k + 6], geom[k + 7]
    ax, ay, hx, hy = x1 - x0, y1 - y0, x3 - x0, y3 - y0
    for u in BOX_SAMPLES:
        for v in BOX_SAMPLES:
            if u == v == 0.5:
                continue  # the centre: already outside
            if outside_clip(clips, index, x0 + u * ax + v * hx, y0 + u * ay + v * hy, chains) is None:
                return True
    return False


# ------------------------------------------------------------------ the pass


@dataclass(frozen=True, slots=True)
class Visibility:
    """Per glyph its class (parallel to page.glyphs), and a record per non-visible glyph."""

    classes: tuple[str, ...]
    records: tuple[HiddenRecord, ...]  # paint order
    dropped: frozenset[int]  # paint indices the text modes drop
    partly_clipped: frozenset[int] = frozenset()
    """Visible glyphs whose box centre lies outside the clip in force while a part of the box
    meets it: drawn, but only in part. Dedupe keeps a later copy over such a glyph when that copy
    shows whole (core/passes.py: a visible glyph is never dropped for a clipped one)."""


def classify_visibility(
    page: InterpretedPage,
    params: Parameters = DEFAULT_PARAMETERS,
    skip: Collection[int] = (),
    columns: PassColumns | None = None,
) -> Visibility:
    """Every glyph's visibility class; `skip` (culled paint indices) stay "visible" with no record:
    the cull already explains them. Reads the page's glyph columns (`table`, `run_of`: pass them
    when the caller has them already).

    Run by run: what a string's state decides (its render mode, clip, fill) is looked at once
    per string; a glyph is looked at alone only under a clip, and only the glyphs that could be
    covered or match their background go on to the paint objects."""
    cols = columns if columns is not None else PassColumns(page.glyphs)
    n = len(cols.xs)
    classes: list[str] = [VisibilityClass.VISIBLE] * n
    found: dict[int, HiddenRecord] = {}
    clips, fills = page.clips, page.fills
    drop_clipped = not params.keep_clipped
    drop_hidden = params.drop_hidden
    plain_fills = len(fills) <= 1
    shades = _Shades(page)
    matching, last_cover = shades.matching, shades.last_cover
    nfills = len(fills)  # = len(matches)
    pending: list[int] = []  # still visible and candidates for covered / same_as_background
    colour: dict[int, tuple[float, float, float]] = {}  # of those, the ones whose colour a background has
    partly: list[int] = []  # centre outside the clip, a part of the box inside
    simple = [r.bbox if not r.empty and r.rect_only else None for r in clips]  # the bbox fast path
    chains: dict[int, list[ClipPath]] = {}  # each clip's paths, looked up once
    unicode, xs, ys = cols.table.unicode, cols.xs, cols.ys
    geom = cols.table.geom
    for _, run, painted in cols.table.run_ranges():
        mode = run.render_mode
        if mode in INVISIBLE_RENDER_MODES:
            from glyphscope.core.visibility_records import InvisibleModeDecision

            for i in painted:
                if i not in skip:
                    classes[i] = VisibilityClass.INVISIBLE_MODE
                    found[i] = InvisibleModeDecision(i, False, mode)
            continue
        clip_id = run.clip_id
        fill_id = run.fill_id
        if (
            clip_id < 0 and -nfills <= fill_id < nfills
        ):  # (an index out of range fails below, as glyph by glyph)
            # Nothing to decide glyph by glyph: the string's state says it all.
            fill_only = mode in FILL_ONLY_RENDER_MODES
            if not plain_fills and fill_only:
                fs = fills[fill_id]
                if fs.alpha <= 0.0 or fs.soft_mask == "empty":
                    _transparent(painted, unicode, skip, fs, drop_hidden, classes, found)
                    continue
            shade = matching[fill_id]
            if shade is not None and fill_only:
                inked = [i for i in painted if not unicode[i].isspace() and i not in skip]
                pending += inked
                colour.update(dict.fromkeys(inked, shade))
            elif painted.start < last_cover:
                pending += [
                    i for i in painted if i < last_cover and not unicode[i].isspace() and i not in skip
                ]
            continue
        for i in painted:
            if i in skip:
                continue
            if clip_id >= 0:
                x = xs[i]
                y = ys[i]
                fast = simple[clip_id]
                if fast is not None and fast[0] <= x <= fast[2] and fast[1] <= y <= fast[3]:
                    out = None  # inside a clip made of upright rectangles only: its box answers
                else:
                    out = outside_clip(clips, clip_id, x, y, chains)
                    if out is not None and _box_meets_clip(clips, clip_id, geom, i, chains):
                        out = None  # the centre is outside, but a part of the box shows: a viewer draws it
                        partly.append(i)
                if out is not None:
                    path, test = out
                    classes[i] = VisibilityClass.CLIPPED
                    from glyphscope.core.visibility_records import ClippedDecision

                    found[i] = ClippedDecision(
                        i,
                        drop_clipped,
                        (x, y),
                        path.bbox,
                        path.source,
                        path.token_index,
                        path.stream_index,
                        path.form_path,
                        test,
                        clip_id,
                    )
                    continue
            if unicode[i].isspace():
                continue  # a space has no ink: only its mode and the clip can hide it
            if not plain_fills and mode in FILL_ONLY_RENDER_MODES:
                fs = fills[fill_id]
                if fs.alpha <= 0.0 or fs.soft_mask == "empty":
                    classes[i] = VisibilityClass.TRANSPARENT
                    from glyphscope.core.visibility_records import TransparentDecision

                    found[i] = TransparentDecision(i, drop_hidden, fs.alpha, fs.soft_mask)
                    continue
            shade = matching[fill_id]
            if shade is not None and mode in FILL_ONLY_RENDER_MODES:
                colour[i] = shade
                pending.append(i)
            elif i < last_cover:
                pending.append(i)
    if pending:
        _paint_order(page, cols, pending, colour, classes, found, drop_hidden, simple, chains)
    if found:
        _spaces_inside_runs(cols, classes, found, skip)
    records = tuple(found[i] for i in sorted(found))
    dropped = frozenset(
        r.paint_index
        for r in records
        if (r.kind == VisibilityClass.CLIPPED and drop_clipped)
        or (drop_hidden and r.kind in DROPPABLE_HIDDEN)
    )
    return Visibility(tuple(classes), records, dropped, frozenset(partly))


def _transparent(
    painted: range,
    unicode: Sequence[str],
    skip: Collection[int],
    fs: FillState,
    drop_hidden: bool,
    classes: list[str],
    found: dict[int, HiddenRecord],
) -> None:
    """The inked glyphs of a string painted with nothing to show (fill alpha 0, an empty soft mask)."""
    from glyphscope.core.visibility_records import TransparentDecision

    for i in painted:
        if i not in skip and not unicode[i].isspace():
            classes[i] = VisibilityClass.TRANSPARENT
            found[i] = TransparentDecision(i, drop_hidden, fs.alpha, fs.soft_mask)


class _Shades:
    """What the background under a glyph can be: per fill state its colour (converted once) when
    a background has it (white, or an opaque fill's), None otherwise; and how many glyphs an
    opaque object was painted after at most (a glyph from there on is covered by none)."""

    __slots__ = ("matching", "last_cover")

    def __init__(self, page: InterpretedPage) -> None:
        paints = page.paints
        colours = [rgb(fs) for fs in page.fills]
        backgrounds = [WHITE] + [colours[p.fill] for p in paints if p.kind == PaintKind.FILL and p.opaque]
        known = {c for c in backgrounds if c is not None}
        self.matching = [
            c if c is not None and any(same_colour(c, bg) for bg in known) else None for c in colours
        ]
        self.last_cover = max((p.glyphs_before for p in paints if p.opaque), default=0)


def _spaces_inside_runs(
    cols: PassColumns, classes: list[str], found: dict[int, HiddenRecord], skip: Collection[int]
) -> None:
    """A space between two glyphs hidden for one reason (same class, same string) shares their
    class and record: "White on white" dropped by drop_hidden leaves no stray blanks."""
    unicode, run_of, token = cols.table.unicode, cols.run_of, cols.table.run_token
    n = len(unicode)
    visible = VisibilityClass.VISIBLE  # a local: looking an enum member up costs more than this test
    # Only a glyph just after a hidden one can start such spaces (the records added below are
    # spaces followed by no visible space: they start none).
    starts = sorted(k + 1 for k, r in found.items() if r.kind in DROPPABLE_HIDDEN and k + 1 < n - 1)
    for i in starts:
        if classes[i] != visible or i in skip or not unicode[i].isspace():
            continue
        before = found.get(i - 1)
        if before is None or before.kind not in DROPPABLE_HIDDEN:
            continue
        j = i + 1
        while j < n and unicode[j].isspace() and classes[j] == visible:
            j += 1
        after = found.get(j) if j < n else None
        if after is None or after.kind != before.kind or token[run_of[j]] != token[run_of[i - 1]]:
            continue
        for k in range(i, j):
            if k not in skip:
                classes[k] = before.kind
                found[k] = replace(before, paint_index=k)


def _paint_order(
    page: InterpretedPage,
    cols: PassColumns,
    pending: list[int],
    colour: dict[int, tuple[float, float, float]],
    classes: list[str],
    found: dict[int, HiddenRecord],
    drop_hidden: bool,
    simple: list[Rect | None],
    chains: dict[int, list[ClipPath]],
) -> None:
    """covered and same_as_background: glyph centres against the paint objects, in paint order.

    `pending`: the visible inked glyphs that could be either (painted before an opaque object, or
    in a colour some background has: `colour`)."""
    clips, fills, paints = page.clips, page.fills, page.paints
    runs, run_of, xs, ys = cols.table.runs, cols.run_of, cols.xs, cols.ys
    covered_by: dict[int, int] = {}
    under: dict[int, int] = {}
    if paints:
        # The glyphs by grid cell; a cell's key is its place in the rows × columns the glyphs span
        # (one integer, no two cells share it).
        floor = math.floor
        placed = [
            i for i in pending if not (xs[i] - xs[i] or ys[i] - ys[i])
        ]  # finite centres (inf - inf is NaN)
        cxs = [floor(xs[i] / _GRID) for i in placed]
        cys = [floor(ys[i] / _GRID) for i in placed]
        if placed:
            gx0, gx1, gy0, gy1 = min(cxs), max(cxs), min(cys), max(cys)
            rows = gy1 - gy0 + 1
            grid: dict[int, list[int]] = {}
            for i, cx, cy in zip(placed, cxs, cys):
                key = (cx - gx0) * rows + cy - gy0
                cell = grid.get(key)
                if cell is None:
                    grid[key] = [i]
                else:
                    cell.append(i)
            for j, p in enumerate(paints):
                if not p.opaque and p.glyphs_before >= len(xs):
                    continue  # painted after every glyph and covers nothing: lies under no glyph
                x0, y0, x1, y1 = p.bbox
                cx0 = max(gx0, math.floor(x0 / _GRID)) if math.isfinite(x0) else gx0
                cx1 = min(gx1, math.floor(x1 / _GRID)) if math.isfinite(x1) else gx1
                cy0 = max(gy0, math.floor(y0 / _GRID)) if math.isfinite(y0) else gy0
                cy1 = min(gy1, math.floor(y1 / _GRID)) if math.isfinite(y1) else gy1
                if cx0 > cx1 or cy0 > cy1:
                    continue
                before = p.glyphs_before
                opaque = p.opaque
                polygons, even_odd, clip = p.polygons, p.even_odd, p.clip
                upright = upright_rect(polygons)  # most filled paths are one rectangle
                if upright is not None:
                    polygons = ()
                    rx0, ry0, rx1, ry1 = upright
                else:
                    rx0 = ry0 = -math.inf
                    rx1 = ry1 = math.inf
                fast = simple[clip] if clip >= 0 else None
                for cx in range(cx0, cx1 + 1):
                    column = (cx - gx0) * rows - gy0
                    for cy in range(cy0, cy1 + 1):
                        cell = grid.get(column + cy)
                        if cell is None:
                            continue
                        for i in cell:
                            if i < before:
                                if not opaque or i in covered_by:
                                    continue
                            elif i not in colour:
                                continue  # only a glyph whose colour could match needs what lies under it
                            x = xs[i]
                            y = ys[i]
                            # inside the object: its box (most glyphs of a cell are not), path and clip
                            if not (x0 <= x <= x1 and y0 <= y <= y1):
                                continue
                            if upright is not None:
                                if not (rx0 <= x < rx1 and ry0 <= y < ry1):
                                    continue
                            elif polygons and not _inside_polygons(polygons, even_odd, x, y):
                                continue
                            if clip >= 0:
                                if fast is not None and fast[0] <= x <= fast[2] and fast[1] <= y <= fast[3]:
                                    pass  # inside a clip of upright rectangles only: its box answers
                                elif outside_clip(clips, clip, x, y, chains) is not None:
                                    continue
                            if i < before:
                                covered_by[i] = j  # the first opaque object painted over it
                            else:
                                under[i] = j  # the latest painted under it wins
    alike: dict[tuple[tuple[float, float, float], tuple[float, float, float]], bool] = {}
    for i in pending:
        cover = covered_by.get(i)
        if cover is not None:
            p = paints[cover]
            classes[i] = VisibilityClass.COVERED
            from glyphscope.core.visibility_records import CoveredDecision

            found[i] = CoveredDecision(
                i,
                drop_hidden,
                (xs[i], ys[i]),
                p.bbox,
                p.kind,
                p.token_index,
                p.stream_index,
                p.form_path,
                cover,
            )
            continue
        c = colour.get(i)
        if c is None:
            continue
        j = under.get(i, -1)
        if j >= 0:
            p = paints[j]
            if p.kind != PaintKind.FILL or not p.opaque:
                continue  # an image, a shading or a translucent fill: its colour is not known
            bg = rgb(fills[p.fill])
            if bg is None:
                continue
            token = p.token_index
        else:
            bg, token = WHITE, -1
        same = alike.get((c, bg))
        if same is None:
            same = alike[(c, bg)] = same_colour(c, bg)  # a page has few colours and many glyphs
        if same:
            classes[i] = VisibilityClass.SAME_AS_BACKGROUND
            from glyphscope.core.visibility_records import SameAsBackgroundDecision

            found[i] = SameAsBackgroundDecision(
                i, drop_hidden, c, bg, fills[runs[run_of[i]].fill_id], token, j
            )


_RECORD_NAMES = frozenset(
    {
        "VISIBILITY_RECORDS",
        "ClippedDecision",
        "CoveredDecision",
        "HiddenRecord",
        "InvisibleModeDecision",
        "SameAsBackgroundDecision",
        "TransparentDecision",
        "why_hidden",
    }
)
"""The names of core/visibility_records.py read from here (a test keeps them in step)."""


_find = lazy_names(__name__, dict.fromkeys(_RECORD_NAMES, "glyphscope.core.visibility_records"))


def __getattr__(name: str) -> object:
    return _find(name)
