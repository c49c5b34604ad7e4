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
from glyphscope.core.geometry import Point
from glyphscope.core.glyph_table import GEOM_STRIDE, PassColumns
from glyphscope.core.lazy import lazy_names
from glyphscope.core.page import (
    ClipPath,
    ClipRecord,
    InterpretedPage,
    PaintKind,
    PaintObject,
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


MAX_CLIP_CHAIN = 64
"""Paths of a clip's chain looked at for one point (innermost first): a hostile stream that
intersects 100,000 paths must not cost 100,000 tests per glyph. Beyond them the common bbox
still answers, and a point outside it is attributed to the innermost path."""


def outside_clip(clips: Sequence[ClipRecord], index: int, x: float, y: float) -> tuple[ClipPath, str] | None:
    """The clip path of clip `index` the point (x, y) lies outside of, innermost first, and the
    test that said so ("bbox" or "polygon"); None when it lies inside every path of the clip."""
    record = clips[index]
    x0, y0, x1, y1 = record.bbox
    if record.empty or not (x0 <= x <= x1 and y0 <= y <= y1):
        for path in clip_paths(clips, index, MAX_CLIP_CHAIN):
            bx0, by0, bx1, by1 = path.bbox
            if not (bx0 <= x <= bx1 and by0 <= y <= by1):
                return path, "bbox"
        return record.path, "bbox"  # the boxes do not meet: the empty intersection
    if record.rect_only:
        return None
    for path in clip_paths(clips, index, MAX_CLIP_CHAIN):
        if not path.rect and not _inside_polygons(path.polygons, path.even_odd, x, y):
            return path, "polygon"
    return None


BOX_SAMPLES = (0.1, 0.5, 0.9)
"""Where a glyph's box is tested against the clip when its centre lies outside: at these fractions
along its advance and its height (a 3 × 3 grid, just inside the edges so that a box that only
touches the clip's edge does not count). A glyph is clipped only when no point of the grid is
inside: a clip band narrower than the glyph (a table cell's 4.4 pt band across a "." of 1.9) shows
the part of the glyph it covers, and a viewer draws it."""


def _box_meets_clip(clips: Sequence[ClipRecord], index: int, geom: Sequence[float], i: int) -> bool:
    """Whether any point of glyph i's sample grid lies inside clip `index` (the quad's corners 0, 1, 3
    span it: descent-origin, descent-advance, ascent-origin)."""
    k = i * GEOM_STRIDE + 6
    x0, y0, x1, y1, x3, y3 = geom[k], geom[k + 1], geom[k + 2], geom[k + 3], geom[k + 6], geom[k + 7]
    ax, ay, hx, hy = x1 - x0, y1 - y0, x3 - x0, y3 - y0
    for u in BOX_SAMPLES:
        for v in BOX_SAMPLES:
            if u == v == 0.5:
                continue  # the centre: already outside
            if outside_clip(clips, index, x0 + u * ax + v * hx, y0 + u * ay + v * hy) is None:
                return True
    return False


def _in_paint(p: PaintObject, clips: Sequence[ClipRecord], x: float, y: float) -> bool:
    x0, y0, x1, y1 = p.bbox
    if not (x0 <= x <= x1 and y0 <= y <= y1):
        return False
    if p.polygons and not _inside_polygons(p.polygons, p.even_odd, x, y):
        return False
    return p.clip < 0 or outside_clip(clips, p.clip, x, y) is None


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
    when the caller has them already)."""
    cols = columns if columns is not None else PassColumns(page.glyphs)
    n = len(cols.xs)
    classes: list[str] = [VisibilityClass.VISIBLE] * n
    found: dict[int, HiddenRecord] = {}
    clips, fills = page.clips, page.fills
    drop_clipped = not params.keep_clipped
    drop_hidden = params.drop_hidden
    plain_fills = len(fills) <= 1
    pending: list[int] = []  # still visible, candidates for covered / same_as_background
    partly: list[int] = []  # centre outside the clip, a part of the box inside
    simple = [r.bbox if not r.empty and r.rect_only else None for r in clips]  # the bbox fast path
    runs, run_of, unicode, xs, ys = cols.table.runs, cols.run_of, cols.table.unicode, cols.xs, cols.ys
    geom = cols.table.geom
    for i in range(n):
        if i in skip:
            continue
        run = runs[run_of[i]]
        mode = run.render_mode
        if mode in INVISIBLE_RENDER_MODES:
            classes[i] = VisibilityClass.INVISIBLE_MODE
            from glyphscope.core.visibility_records import InvisibleModeDecision

            found[i] = InvisibleModeDecision(i, False, mode)
            continue
        clip_id = run.clip_id
        if clip_id >= 0:
            x = xs[i]
            y = ys[i]
            fast = simple[clip_id]
            if fast is not None and fast[0] <= x <= fast[2] and fast[1] <= y <= fast[3]:
                out = None  # inside a clip made of upright rectangles only: its box answers
            else:
                out = outside_clip(clips, clip_id, x, y)
                if out is not None and _box_meets_clip(clips, clip_id, geom, i):
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
            fs = fills[run.fill_id]
            if fs.alpha <= 0.0 or fs.soft_mask == "empty":
                classes[i] = VisibilityClass.TRANSPARENT
                from glyphscope.core.visibility_records import TransparentDecision

                found[i] = TransparentDecision(i, drop_hidden, fs.alpha, fs.soft_mask)
                continue
        pending.append(i)
    if pending:
        _paint_order(page, cols, pending, classes, found, drop_hidden)
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


def _spaces_inside_runs(
    cols: PassColumns, classes: list[str], found: dict[int, HiddenRecord], skip: Collection[int]
) -> None:
    """A space between two glyphs hidden for one reason (same class, same string) shares their
    class and record: "White on white" dropped by drop_hidden leaves no stray blanks."""
    unicode, run_of, token = cols.table.unicode, cols.run_of, cols.table.run_token
    n = len(unicode)
    visible = VisibilityClass.VISIBLE  # a local: looking an enum member up costs more than this test
    for i in range(1, n - 1):
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
    classes: list[str],
    found: dict[int, HiddenRecord],
    drop_hidden: bool,
) -> None:
    """covered and same_as_background: glyph centres against the paint objects, in paint order."""
    clips, fills, paints = page.clips, page.fills, page.paints
    runs, run_of, xs, ys = cols.table.runs, cols.run_of, cols.xs, cols.ys
    # Which glyphs can be same_as_background at all: fill-only, in a colour some background
    # has (white, or an opaque fill's). Colours are converted once per fill state.
    colours = [rgb(fs) for fs in fills]
    backgrounds = [WHITE] + [colours[p.fill] for p in paints if p.kind == PaintKind.FILL and p.opaque]
    known = {c for c in backgrounds if c is not None}
    matches = [c is not None and any(same_colour(c, bg) for bg in known) for c in colours]
    last_cover = max((p.glyphs_before for p in paints if p.opaque), default=0)
    colour: dict[int, tuple[float, float, float]] = {}
    relevant: list[int] = []
    for i in pending:
        run = runs[run_of[i]]
        fill_id = run.fill_id
        if matches[fill_id] and run.render_mode in FILL_ONLY_RENDER_MODES:
            colour[i] = colours[fill_id]  # type: ignore[assignment]
            relevant.append(i)
        elif i < last_cover:
            relevant.append(i)
    pending = relevant
    covered_by: dict[int, int] = {}
    under: dict[int, int] = {}
    if paints and pending:
        grid: dict[tuple[int, int], list[int]] = {}
        centres: dict[int, Point] = {}
        for i in pending:
            x, y = xs[i], ys[i]
            if not (math.isfinite(x) and math.isfinite(y)):
                continue
            centres[i] = (x, y)
            grid.setdefault((math.floor(x / _GRID), math.floor(y / _GRID)), []).append(i)
        if grid:
            gx0 = min(k[0] for k in grid)
            gx1 = max(k[0] for k in grid)
            gy0 = min(k[1] for k in grid)
            gy1 = max(k[1] for k in grid)
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
                for cx in range(cx0, cx1 + 1):
                    for cy in range(cy0, cy1 + 1):
                        cell = grid.get((cx, cy))
                        if cell is None:
                            continue
                        for i in cell:
                            if i < before:
                                if not p.opaque or i in covered_by:
                                    continue
                            elif i not in colour:
                                continue  # only a glyph whose colour could match needs what lies under it
                            x, y = centres[i]
                            if not _in_paint(p, clips, x, y):
                                continue
                            if i < before:
                                covered_by[i] = j  # the first opaque object painted over it
                            else:
                                under[i] = j  # the latest painted under it wins
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
        if same_colour(c, bg):
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
