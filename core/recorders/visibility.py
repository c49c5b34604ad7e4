"""The visibility recorder: the clip, the fill colour and alpha, and the opaque paint objects.

Data only, in paint order; what a glyph's visibility is, core/visibility.py decides.
The graphics state carries two ids for this recorder (`GraphicsState.clip`, `.fill`:
indices into `clips` and `fills`), so q/Q save and restore them like any parameter and
a glyph run records the clip and fill it was painted under. Text render modes 4–7 (text
added to the clip) are not tracked: their glyphs are painted like 0–3, and the text
clip they add is ignored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import pikepdf

from glyphscope.core.geometry import Matrix, Rect, intersect, transform_rect
from glyphscope.core.page import ClipPath, ClipRecord, FillState, FormUse, PaintKind, PaintObject, Polygon
from glyphscope.core.recorders.base import InterpreterView, Recorder

_EVERYWHERE: Rect = (-math.inf, -math.inf, math.inf, math.inf)


class VisibilityRecorder(Recorder):
    def __init__(self) -> None:
        self.clips: list[ClipRecord] = []
        self.fills: list[FillState] = [FillState()]
        self._fill_ids: dict[FillState, int] = {FillState(): 0}
        self.paints: list[PaintObject] = []

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp

    # ------------------------------------------------------------------ paint

    def path_filled(self, even_odd: bool, polygons: tuple[Polygon, ...]) -> None:
        gs = self.interp.gs
        fs = self.fills[gs.fill]
        opaque = fs.alpha >= 1.0 and not fs.soft_mask and fs.family != "pattern"
        self._paint(PaintKind.FILL, polygons, bounding_box(polygons), even_odd, opaque, gs.fill)

    def image_drawn(self, kind: PaintKind, info: pikepdf.Object | None) -> None:
        """An image paints the CTM's unit square; opaque unless masked or painted with alpha."""
        gs = self.interp.gs
        a, b, c, d, e, f = gs.ctm
        quad = ((e, f), (a + e, b + f), (a + c + e, b + d + f), (c + e, d + f))
        masked = (
            info is None
            or any(key in info for key in ("/SMask", "/Mask", "/SMaskInData"))
            or bool(info.get("/ImageMask", False))
        )
        fs = self.fills[gs.fill]
        opaque = not masked and fs.alpha >= 1.0 and not fs.soft_mask
        self._paint(kind, (quad,), bounding_box((quad,)), False, opaque, -1)

    def shading_painted(self) -> None:
        """A shading fills the whole clip (everywhere when nothing clips): painted, colours unknown."""
        clip = self.interp.gs.clip
        box = self.clips[clip].bbox if clip >= 0 else _EVERYWHERE
        self._paint(PaintKind.SHADING, (), box, False, False, -1)

    def _paint(
        self,
        kind: PaintKind,
        polygons: tuple[Polygon, ...],
        box: Rect,
        even_odd: bool,
        opaque: bool,
        fill: int,
    ) -> None:
        interp = self.interp
        self.paints.append(
            PaintObject(
                kind,
                polygons,
                box,
                even_odd,
                opaque,
                fill,
                interp.gs.clip,
                interp.glyph_count,
                interp.token_index,
                interp.stream_index,
                interp.frame.form_path,
            )
        )

    # ------------------------------------------------------------------ clip

    def clip_set(self, polygons: tuple[Polygon, ...], even_odd: bool, stream_index: int) -> None:
        """Intersect a W / W* path into the clip; an empty path clips everything away."""
        interp = self.interp
        form_path = interp.frame.form_path
        rect = len(polygons) == 1 and axis_aligned(polygons[0])
        self._add_clip(
            ClipPath(
                polygons,
                bounding_box(polygons),
                even_odd,
                rect,
                "W*" if even_odd else "W",
                stream_index if not form_path else interp.token_index,
                stream_index,
                form_path,
            )
        )

    def form_begun(self, use: FormUse, bbox: Rect | None, inverse: Matrix | None) -> None:
        """The form's /BBox clips what it paints (the graphics state is already the form's)."""
        if bbox is None:
            return
        interp = self.interp
        quad = transform_rect(interp.gs.ctm, bbox)
        self._add_clip(
            ClipPath(
                (quad,),
                bounding_box((quad,)),
                False,
                axis_aligned(quad),
                "BBox",
                interp.token_index,
                interp.stream_index,
                use.form_path,
            )
        )

    def _add_clip(self, path: ClipPath) -> None:
        gs = self.interp.gs
        clips = self.clips
        if gs.clip >= 0:
            parent = clips[gs.clip]
            box = intersect(parent.bbox, path.bbox) if not parent.empty else None
            record = ClipRecord(
                path,
                gs.clip,
                box if box is not None else parent.bbox,
                box is None,
                parent.rect_only and path.rect,
                parent.depth + 1,
            )
        else:
            record = ClipRecord(path, -1, path.bbox, False, path.rect)
        gs.clip = len(clips)
        clips.append(record)

    # ------------------------------------------------------------------ colour

    def fill_colour_set(self, family: str | None, components: tuple[float, ...]) -> None:
        current = self.fills[self.interp.gs.fill]
        family = current.family if family is None else family
        if current.family != family or current.components != components:
            self._set_fill(FillState(family, components, current.alpha, current.soft_mask))

    def ext_gstate_set(self, alpha: float | None, soft_mask: str | None) -> None:
        current = self.fills[self.interp.gs.fill]
        alpha = current.alpha if alpha is None else alpha
        soft_mask = current.soft_mask if soft_mask is None else soft_mask
        if alpha != current.alpha or soft_mask != current.soft_mask:
            self._set_fill(FillState(current.family, current.components, alpha, soft_mask))

    def _set_fill(self, fs: FillState) -> None:
        found = self._fill_ids.get(fs)
        if found is None:
            found = self._fill_ids[fs] = len(self.fills)
            self.fills.append(fs)
        self.interp.gs.fill = found


def bounding_box(polygons: Sequence[Polygon]) -> Rect:
    xs = [p[0] for poly in polygons for p in poly]
    ys = [p[1] for poly in polygons for p in poly]
    if not xs:
        return (0.0, 0.0, 0.0, 0.0)
    return (min(xs), min(ys), max(xs), max(ys))


def axis_aligned(poly: Polygon) -> bool:
    """Four corners of an upright rectangle (its bbox answers every inside test)."""
    if len(poly) != 4:
        return False
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = poly
    return (y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0) or (
        x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0
    )
