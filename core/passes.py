"""Passes over the glyph list (spec §5, §7): cull by the visible box, dedupe.

Pure functions: they re-run with other parameters without re-interpreting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from itertools import compress
from operator import attrgetter
from typing import Any, ClassVar, Protocol

from glyphscope.core.decision_protocol import DecisionKind, fmt, glyph_json, pair_json, rounded
from glyphscope.core.gcpause import gc_paused
from glyphscope.core.geometry import Point, Rect
from glyphscope.core.glyph import Glyph, GlyphStatus
from glyphscope.core.glyph_table import GlyphTable, PassColumns, as_table, subset
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import DEFAULT_PARAMETERS, AnnotationText, Parameters
from glyphscope.core.visibility import Visibility, classify_visibility
from glyphscope.core.visibility_class import VisibilityClass


@dataclass(frozen=True, slots=True)
class CullDecision:
    """Spec §5: the glyph's box centre lies outside the visible box.

    glyph = the culled glyph; value = the box centre [x, y]; threshold = the visible
    box [x0, y0, x1, y1] it lies outside of; verdict "culled".
    """

    kind: ClassVar[str] = DecisionKind.CULL

    paint_index: int
    center: Point  # the box centre that lies outside
    visible_box: Rect

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "culled"

    @property
    def value(self) -> Point:
        return self.center

    @property
    def threshold(self) -> Rect:
        return self.visible_box

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.paint_index)

    def describe(self) -> str:
        x, y = self.center
        box = ", ".join(fmt(v) for v in self.visible_box)
        return (
            f"culled: box centre ({fmt(x)}, {fmt(y)}) lies outside the visible box [{box}], "
            "so no text mode reads it"
        )


@dataclass(frozen=True, slots=True)
class DuplicateDecision:
    """Spec §7: a later glyph that repeats an earlier one within the tolerances is dropped.

    A pair record: before = `duplicate_of` (the kept glyph, painted first), after =
    `glyph` (the dropped one). value = [|along|, |across|], the offsets the rule
    compared (signed in `along`/`across`, in the kept glyph's frame);
    threshold = [along_max, across_max] = [dedupe_along, dedupe_across] × the larger
    box height of the two; verdict "duplicate". The frame's along axis is `direction`:
    the kept glyph's writing direction (`frame` "font"), or the direction its run
    actually advances (`frame` "run": origin to next origin) where that runs across the
    font's direction, e.g. a vertical font painted sideways.
    """

    kind: ClassVar[str] = DecisionKind.DUPLICATE

    paint_index: int  # the dropped glyph
    duplicate_of: int  # paint index of the kept glyph (chains followed)
    along: float  # offset along the kept glyph's baseline, in user space
    across: float  # offset across it
    size: float  # the kept glyph's box height
    along_max: float  # dedupe_along × max(heights): the tolerance `along` was compared with
    across_max: float  # dedupe_across × max(heights)
    direction: Point = (1.0, 0.0)  # unit vector of the along axis
    frame: str = "font"  # "font": the writing direction; "run": the run's progression
    size_basis: str = "box"  # "box": box heights; "em": em sizes of two Type3 glyphs (TYPE3_EM)
    kept_whole: bool = False
    """The kept glyph was painted after the dropped one: the dropped (first) copy shows only in
    part — its box centre lies outside the clip in force — and the kept copy shows whole
    (prefer_whole_copies: a visible glyph is never dropped as a duplicate of a clipped one)."""

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def before(self) -> int:
        return self.duplicate_of

    @property
    def after(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "duplicate"

    @property
    def value(self) -> tuple[float, float]:
        return (abs(self.along), abs(self.across))

    @property
    def threshold(self) -> tuple[float, float]:
        return (self.along_max, self.across_max)

    def to_json(self) -> dict[str, Any]:
        return pair_json(
            self,
            self.duplicate_of,
            self.paint_index,
            glyph=self.paint_index,
            duplicate_of=self.duplicate_of,
            along=rounded(self.along),
            across=rounded(self.across),
            size=rounded(self.size),
            direction=[rounded(self.direction[0]), rounded(self.direction[1])],
            frame=self.frame,
            size_basis=self.size_basis,
            **({"kept_whole": True} if self.kept_whole else {}),
        )

    def describe(self) -> str:
        axis = ""
        if self.frame == "run":
            dx, dy = self.direction
            axis = f" (measured along the run's advance ({fmt(dx)}, {fmt(dy)}), not the font's direction)"
        if self.size_basis == "em":
            axis += "; sizes compared as Type3 em sizes, not their /FontBBox heights"
        if self.kept_whole:
            axis += (
                f"; the later copy #{self.duplicate_of} is kept: #{self.paint_index}, painted first, shows only in "
                "part (its box centre lies outside its clip), and a visible glyph is never dropped for a clipped one"
            )
        return (
            f"glyph #{self.paint_index} dropped as a duplicate of glyph #{self.duplicate_of}: offset {fmt(abs(self.along))} pt along "
            f"≤ {fmt(self.along_max)} pt and {fmt(abs(self.across))} pt across ≤ {fmt(self.across_max)} pt{axis}"
        )


@dataclass(frozen=True, slots=True)
class ClassifiedGlyphs:
    """Every glyph of a page with its status (kept, culled, duplicate, …) and the decisions why."""

    # The page's GlyphTable and views on it (records on demand).
    glyphs: GlyphTable  # the "all" set, paint order
    status: tuple[GlyphStatus, ...]  # parallel to glyphs
    duplicate_of: tuple[int | None, ...]  # parallel to glyphs
    raw: Sequence[Glyph]  # page-stream glyphs of every status (no form glyphs)
    visible: Sequence[Glyph]  # kept glyphs in paint order: what every text mode reads
    culls: tuple[CullDecision, ...]
    duplicates: tuple[DuplicateDecision, ...]
    visibility: Visibility | None = None  # per glyph its class and the hidden glyphs' records

    @property
    def survivors(self) -> dict[int, int]:
        """A deduped run's survivors → the glyph each is written after (core/assembly/survivors.py)."""
        from glyphscope.core.assembly.survivors import survivor_places

        return survivor_places(self.glyphs, self.status, self.duplicate_of)


def cull(glyphs: Sequence[Glyph], visible_box: Rect) -> list[CullDecision]:
    """Glyphs whose box centre lies outside the visible box (a box test, not visibility)."""
    xs, ys = as_table(glyphs).centres()
    return _cull_centres(xs, ys, visible_box)


def _cull_centres(xs: Sequence[float], ys: Sequence[float], visible_box: Rect) -> list[CullDecision]:
    """`cull` over the box centres of a page's glyphs (paint order)."""
    x0, y0, x1, y1 = visible_box
    if xs and ys:
        sx, sy = sum(xs), sum(ys)  # finite sums: no NaN or infinity, so min and max are the extremes
        if (
            sx - sx == 0.0
            and sy - sy == 0.0
            and x0 <= min(xs)
            and max(xs) <= x1
            and y0 <= min(ys)
            and max(ys) <= y1
        ):
            return []  # every centre inside (most pages): four passes in C, none in Python
    return [
        CullDecision(i, (cx, cy), visible_box)
        for i, (cx, cy) in enumerate(zip(xs, ys))
        if not (x0 <= cx <= x1 and y0 <= cy <= y1)
    ]


RUN_STEP_MAX = 3.0
"""A step from one origin to the next longer than this many box heights is a jump (next
line, next cell), not the run's progression."""

RUN_ACROSS_MIN = 0.2
"""The run's progression replaces the font's direction as the dedupe frame only when it
leaves it by more than this sine (about 12°): ordinary text keeps its font frame."""

RUN_AGREE_MIN = 0.9
"""The steps into and out of a glyph must agree to this cosine to define its run
direction (a lone cell above another is no sideways run)."""


class RunFacts(Protocol):
    """What dedupe reads of a glyph's text state: its run (`GlyphRun`, shared by the glyphs of
    one string) or the glyph's own record (`Glyph` has the same fields)."""

    @property
    def font_key(self) -> str: ...
    @property
    def height(self) -> float: ...
    @property
    def direction(self) -> Point: ...
    @property
    def form_path(self) -> tuple[str, ...]: ...
    @property
    def font_id(self) -> str: ...


_HEIGHT = attrgetter("height")


class Candidates:
    """The facts dedupe and run_directions compare, as parallel lists over a sequence of glyphs
    (paint order): built from the page's columns (`of_table`) or from records (`of_records`).
    Per glyph its paint index, text and origin; what its string's state fixes (height,
    direction, font, form) is read off `run`, one object per string, not copied per glyph."""

    __slots__ = ("paint_index", "unicode", "ox", "oy", "run")

    def __init__(
        self,
        paint_index: Sequence[int],
        unicode: Sequence[str],
        ox: Sequence[float],
        oy: Sequence[float],
        run: Sequence[RunFacts],
    ) -> None:
        self.paint_index = paint_index
        self.unicode = unicode
        self.ox = ox
        self.oy = oy
        self.run = run

    def __len__(self) -> int:
        return len(self.paint_index)

    @classmethod
    def of_records(cls, glyphs: Sequence[Glyph]) -> Candidates:
        return cls(
            [g.paint_index for g in glyphs],
            [g.unicode for g in glyphs],
            [g.origin[0] for g in glyphs],
            [g.origin[1] for g in glyphs],
            list(glyphs),
        )

    @classmethod
    def of_table(cls, table: GlyphTable, run_of: list[int], indices: list[int]) -> Candidates:
        """The glyphs `indices` (increasing paint indices) of the table."""
        runs = table.runs
        ox, oy = table.column(0), table.column(1)
        if len(indices) == len(table):  # every glyph: the columns as they are
            return cls(indices, table.unicode, ox.tolist(), oy.tolist(), list(map(runs.__getitem__, run_of)))
        uni = table.unicode
        return cls(
            indices,
            [uni[i] for i in indices],
            [ox[i] for i in indices],
            [oy[i] for i in indices],
            [runs[run_of[i]] for i in indices],
        )


def _candidates(glyphs: Sequence[Glyph] | Candidates) -> Candidates:
    return glyphs if isinstance(glyphs, Candidates) else Candidates.of_records(glyphs)


def _step(c: Candidates, a: int, b: int, params: Parameters) -> Point | None:
    """Unit vector from a's origin to b's when b continues a's run (same font and form,
    a step longer than the along tolerance — a copy is no progression — and no jump)."""
    ra, rb = c.run[a], c.run[b]
    if ra.font_key != rb.font_key or ra.form_path != rb.form_path:
        return None
    dx = c.ox[b] - c.ox[a]
    dy = c.oy[b] - c.oy[a]
    length = math.hypot(dx, dy)
    h = max(ra.height, rb.height)
    if not math.isfinite(length) or h <= 0 or not (params.dedupe_along * h < length <= RUN_STEP_MAX * h):
        return None
    return (dx / length, dy / length)


_ACROSS_MIN2 = RUN_ACROSS_MIN * RUN_ACROSS_MIN


class _RunFrames:
    """`run_directions`, one position of the candidates at a time (each answer depends only on
    the steps around it): dedupe asks only about the glyphs it compares, a few in a hundred."""

    __slots__ = ("c", "params", "n", "steps", "frames")

    def __init__(self, c: Candidates, params: Parameters) -> None:
        self.c = c
        self.params = params
        self.n = len(c)
        self.steps: dict[int, Point | None] = {}
        self.frames: dict[int, Point | None] = {}

    def across(self, i: int) -> bool:
        """Whether pair i → i+1 steps across glyph i's direction (by more than RUN_ACROSS_MIN)."""
        c = self.c
        ax, ay, bx, by = c.ox[i], c.oy[i], c.ox[i + 1], c.oy[i + 1]
        ux, uy = c.run[i].direction
        cross = (bx - ax) * uy - (by - ay) * ux
        return cross * cross > _ACROSS_MIN2 * ((bx - ax) ** 2 + (by - ay) ** 2)

    def step(self, i: int) -> Point | None:  # pair i → i+1, validated once
        if i < 0 or i >= self.n - 1:
            return None
        steps = self.steps
        if i not in steps:
            steps[i] = _step(self.c, i, i + 1, self.params)
        return steps[i]

    def at(self, i: int) -> Point | None:
        """The direction glyph i's run advances in, when it runs across the font's direction."""
        frames = self.frames
        if i in frames:
            return frames[i]
        n = self.n
        frame = None
        if (i < n - 1 and self.across(i)) or (i > 0 and self.across(i - 1)):
            frame = self._measured(i)
        frames[i] = frame
        return frame

    def _measured(self, i: int) -> Point | None:
        before, after = self.step(i - 1), self.step(i)
        chosen = after or before
        if chosen is None:
            return None
        if before is not None and after is not None:
            if before[0] * after[0] + before[1] * after[1] < RUN_AGREE_MIN:
                return None
        else:
            # an end of a run: the neighbour's own next (or previous) step must agree
            other = self.step(i + 1) if after is not None else self.step(i - 2)
            if other is None or chosen[0] * other[0] + chosen[1] * other[1] < RUN_AGREE_MIN:
                return None
        ux, uy = self.c.run[i].direction
        if abs(chosen[0] * uy - chosen[1] * ux) > RUN_ACROSS_MIN:
            return chosen
        return None


def run_directions(
    glyphs: Sequence[Glyph] | Candidates, params: Parameters = DEFAULT_PARAMETERS
) -> dict[int, Point]:
    """Glyphs whose run advances across their font's writing direction → the run's direction.

    The direction is origin to next origin in paint order (dedupe measures along the
    direction the glyphs actually follow). Only glyphs whose steps in and out agree
    and leave the font's direction by more than RUN_ACROSS_MIN are listed. Ordinary text
    costs one cross product per pair: only pairs that step across are looked at closely.
    """
    c = _candidates(glyphs)
    frames = _RunFrames(c, params)
    out: dict[int, Point] = {}
    n = len(c)
    if n < 2:
        return out
    across = [frames.across(i) for i in range(n - 1)]  # pair i → i+1 steps across glyph i's direction
    for i in range(n):
        if (i < n - 1 and across[i]) or (i > 0 and across[i - 1]):
            frame = frames._measured(i)
            if frame is not None:
                out[c.paint_index[i]] = frame
    return out


def type3_em_factors(page: InterpretedPage) -> dict[str, float]:
    """font_id → 1 / (ascent − descent) for the page's Type3 fonts (see TYPE3_EM)."""
    out: dict[str, float] = {}
    for pf in page.fonts:
        info = pf.info
        if info.subtype == "Type3" and info.ascent > info.descent:
            out[info.font_id] = 1.0 / (info.ascent - info.descent)
    return out


TYPE3_EM = "em"
"""Type3 boxes come from each font's /FontBBox, which a producer often writes as the union of
the glyphs it happens to hold: two subsets of one font, at one size, get boxes of different
heights, and fake bold painted through both survived the 5 % size test (`guestguest`). Two
Type3 glyphs are therefore compared by their em size (box height ÷ (ascent − descent): the
Tf size in user space), which does not depend on the box."""


def _same_glyph(
    c: Candidates,
    a: int,
    b: int,
    p: Parameters,
    frame: Point | None = None,
    em: dict[str, float] | None = None,
) -> tuple[float, float, float] | None:
    """(along, across) offset of b from a in a's frame (its writing direction, or `frame`:
    the direction a's run advances), and the size the tolerances were scaled by, if they
    are one glyph. Two Type3 glyphs (`em`: type3_em_factors) compare em sizes."""
    ra, rb = c.run[a], c.run[b]
    aux, auy = ra.direction
    bux, buy = rb.direction
    if aux != bux or auy != buy:
        dx_dir = aux - bux
        dy_dir = auy - buy
        if dx_dir * dx_dir + dy_dir * dy_dir > 1e-6:
            return None
    ha, hb = ra.height, rb.height
    if em:
        fa, fb = em.get(ra.font_id), em.get(rb.font_id)
        if fa is not None and fb is not None:
            ha, hb = ha * fa, hb * fb
    size = max(ha, hb)
    if abs(ha - hb) > p.dedupe_size * size:
        return None
    dx = c.ox[b] - c.ox[a]
    dy = c.oy[b] - c.oy[a]
    ux, uy = (aux, auy) if frame is None else frame
    along = dx * ux + dy * uy
    across = -dx * uy + dy * ux
    if abs(along) > p.dedupe_along * size or abs(across) > p.dedupe_across * size:
        return None
    return along, across, size


_ROW = 1 << 15
"""Cell key = column × _ROW + row: one machine-size integer for cells within ±16,384 columns
(any page at any ordinary size); farther cells share keys with cells _ROW rows away, which
only costs a comparison (a glyph that far is no copy: tolerances scale with the glyph, the
cells with the page's typical glyph, and a glyph that large searches cells of its own reach)."""


def _block_offsets(reach: int) -> tuple[int, ...]:
    """Key offsets of the (2·reach + 1)² cells around a cell, column by column, rows upward."""
    return tuple(ix * _ROW + iy for ix in range(-reach, reach + 1) for iy in range(-reach, reach + 1))


def dedupe(
    glyphs: Sequence[Glyph] | Candidates,
    params: Parameters = DEFAULT_PARAMETERS,
    em: dict[str, float] | None = None,
) -> list[DuplicateDecision]:
    """Overprint / fake-bold removal (spec §7) in expected O(n).

    The reference sorts by (unicode, x) and scans a window; that degrades on
    real pages where one letter recurs at the same x on every line (left
    margins, table columns). We bucket glyphs in a grid keyed by (unicode,
    cell) instead and visit them in paint order: a glyph that matches any
    earlier glyph within the tolerances is a copy of that glyph's root, so
    the first painted is kept and every copy of a triple strike points at it.
    Unresolved glyphs are never candidates; a space only ever matches an
    earlier space (we go further than the reference: a duplicate space
    separates nothing). `em` (type3_em_factors) makes Type3 sizes comparable (TYPE3_EM).
    """
    c = _candidates(glyphs)
    unicode, runs, paint_index = c.unicode, c.run, c.paint_index
    # compress: the runs of glyphs with a text (unresolved glyphs are never candidates)
    heights = sorted([h for h in map(_HEIGHT, compress(runs, unicode)) if h > 0])
    if not heights:
        return []
    # Cells twice the search radius of a typical glyph: its neighbourhood then lies in a
    # 2×2 block of cells, so most glyphs cost 4 dictionary lookups (all of them empty for
    # most glyphs: nothing of the same text that near).
    typical = heights[len(heights) // 2]
    frames = _RunFrames(c, params)  # asked only about the glyphs compared
    cell = max(2.0 * params.dedupe_scan * typical, 1e-6)
    grid: dict[str, dict[int, list[int]]] = {}
    root: dict[int, int] = {}
    out: list[DuplicateDecision] = []
    scan = params.dedupe_scan
    half = cell / 2
    floor = math.floor
    row = _ROW
    last: RunFacts | None = None
    radius = 0.0
    offsets: dict[int, tuple[int, ...]] = {}
    for a, (u, ax, ay) in enumerate(zip(unicode, c.ox, c.oy)):
        if not u:
            continue
        if ax - ax or ay - ay:
            continue  # not finite (inf - inf is NaN): hostile matrices can overflow; such a glyph is nowhere to compare
        fx, fy = ax / cell, ay / cell
        cx, cy = floor(fx), floor(fy)
        # Integer cell keys (no tuple per lookup); a collision only costs an extra comparison.
        column = cx * row
        key = column + cy
        cells = grid.get(u)
        if cells is None:
            grid[u] = {key: [a]}
            continue
        run = runs[a]
        if run is not last:  # the search radius is the string's: worked out once per string
            last = run
            ha = run.height
            h = ha if ha > 0 else typical
            if em and run.font_id in em:
                h = max(h, h * em[run.font_id])  # the em may exceed the box: search its reach too
            radius = scan * h
        keys: Sequence[int]
        if radius <= half:
            kx = column - row if fx - cx < 0.5 else column + row
            ky = cy - 1 if fy - cy < 0.5 else cy + 1
            if (
                key not in cells
                and kx + cy not in cells
                and column + ky not in cells
                and kx + ky not in cells
            ):
                cells[key] = [a]  # nothing of this text in the block: no comparison
                continue
            keys = (key, kx + cy, column + ky, kx + ky)
        else:
            reach = int(radius / cell) + 1
            block = offsets.get(reach)
            if block is None:
                block = offsets[reach] = _block_offsets(reach)
            keys = [key + k for k in block]
            if cells.keys().isdisjoint(keys):
                cells[key] = [a]  # (its own cell is one of them)
                continue
        hit: DuplicateDecision | None = None
        for k in keys:
            bucket = cells.get(k)
            if bucket is None:
                continue
            for b in bucket:
                frame = frames.at(b)
                off = _same_glyph(c, b, a, params, frame, em)
                if off is not None:
                    pb = paint_index[b]
                    first = root.get(pb, pb)
                    along, across, size = off
                    kept = runs[b]
                    hit = DuplicateDecision(
                        paint_index[a],
                        first,
                        along,
                        across,
                        kept.height,
                        params.dedupe_along * size,
                        params.dedupe_across * size,
                        kept.direction if frame is None else frame,
                        "font" if frame is None else "run",
                        TYPE3_EM if em and run.font_id in em and kept.font_id in em else "box",
                    )
                    break
            if hit is not None:
                break
        if hit is not None:
            root[paint_index[a]] = hit.duplicate_of
            out.append(hit)
        bucket = cells.get(key)
        if bucket is None:
            cells[key] = [a]
        else:
            bucket.append(a)
    return out


def prefer_whole_copies(dups: list[DuplicateDecision], partly: frozenset[int]) -> list[DuplicateDecision]:
    """Spec §7 with §5: among the copies of one glyph, the first painted is kept — unless it shows
    only in part (`partly`: its box centre lies outside the clip in force) and a later copy shows
    whole; then the first whole copy is kept and every other copy, the first included, is its
    duplicate (`kept_whole`). A row painted first in a tight cell clip and again over it keeps the
    copy a reader sees, with its stream position. Offsets stay in the same frame (copies share
    their direction within the tolerance), re-measured from the kept copy."""
    if not partly or not dups:
        return dups
    copies: dict[int, list[DuplicateDecision]] = {}
    for d in dups:
        copies.setdefault(d.duplicate_of, []).append(d)
    if not any(root in partly for root in copies):
        return dups
    out: list[DuplicateDecision] = []
    for root, members in copies.items():
        whole = next((d for d in members if root in partly and d.paint_index not in partly), None)
        if whole is None:
            out.extend(members)
            continue
        keep = whole.paint_index
        out.append(
            replace(
                whole,
                paint_index=root,
                duplicate_of=keep,
                along=-whole.along,
                across=-whole.across,
                kept_whole=True,
            )
        )
        for d in members:
            if d is not whole:
                out.append(
                    replace(
                        d,
                        duplicate_of=keep,
                        along=d.along - whole.along,
                        across=d.across - whole.across,
                        kept_whole=True,
                    )
                )
    out.sort(key=lambda d: d.paint_index)
    return out


def _excluded_by_annotation_switch(table: GlyphTable, choice: str) -> frozenset[int]:
    """The glyphs `Parameters.annotations` leaves out: an annotation's with "exclude", the page
    content's with "only" (one test per run: a run is painted by one stream)."""
    if choice == AnnotationText.INCLUDE:
        return frozenset()
    want_annotations = choice == AnnotationText.ONLY
    out: set[int] = set()
    for _, run, painted in table.run_ranges():
        if (run.annotation >= 0) != want_annotations:
            out.update(painted)
    return frozenset(out)


def classify(page: InterpretedPage, params: Parameters = DEFAULT_PARAMETERS) -> ClassifiedGlyphs:
    """Cull, then dedupe what survived; every glyph of the page gets its status."""
    with gc_paused():
        return _classify(page, params)


def _classify(page: InterpretedPage, params: Parameters) -> ClassifiedGlyphs:
    glyphs = page.glyphs
    cols = PassColumns(glyphs)
    table, run_of = cols.table, cols.run_of
    n = len(table)
    culls = _cull_centres(cols.xs, cols.ys, page.boxes.visible_box)
    culled = {c.paint_index for c in culls}
    # clipped (and with drop_hidden, hidden) drop out
    vis = classify_visibility(page, params, culled, cols)
    dropped = vis.dropped
    excluded = _excluded_by_annotation_switch(table, params.annotations)
    if excluded:
        dropped = dropped | excluded
    survivors = (
        [i for i in range(n) if i not in culled and i not in dropped] if culled or dropped else list(range(n))
    )
    dups = dedupe(Candidates.of_table(table, run_of, survivors), params, type3_em_factors(page))
    dups = prefer_whole_copies(dups, vis.partly_clipped)
    status = [GlyphStatus.KEPT] * n
    duplicate_of: list[int | None] = [None] * n
    for c in culls:
        status[c.paint_index] = GlyphStatus.CULLED
    for i in dropped:
        if i in excluded:
            status[i] = GlyphStatus.EXCLUDED
        else:
            status[i] = (
                GlyphStatus.CLIPPED if vis.classes[i] == VisibilityClass.CLIPPED else GlyphStatus.HIDDEN
            )
    for d in dups:
        status[d.paint_index] = GlyphStatus.DUPLICATE
        duplicate_of[d.paint_index] = d.duplicate_of
    # kept: the survivors dedupe left (what has another status was set above, from these lists)
    if dups:
        copies = {d.paint_index for d in dups}
        survivors = [i for i in survivors if i not in copies]
    raw: Sequence[int] = range(n)  # the page stream's glyphs: all but the forms'
    if any(run.form_path for run in table.runs):
        raw = [i for _, run, painted in table.run_ranges() if not run.form_path for i in painted]
    return ClassifiedGlyphs(
        glyphs=glyphs,
        status=tuple(status),
        duplicate_of=tuple(duplicate_of),
        raw=subset(glyphs, raw),
        visible=subset(glyphs, survivors),
        culls=tuple(culls),
        duplicates=tuple(dups),
        visibility=vis,
    )
