"""What interpreting one page yields: glyphs, boxes, fonts, forms and findings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.diagnostics import Diagnostic
from glyphscope.core.fonts.base import FontInfo
from glyphscope.core.geometry import Matrix, Point, Quad, Rect
from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import GlyphTable

if TYPE_CHECKING:  # read from /Annots by the pages that have it (core/document.py)
    from glyphscope.core.annotations import Annotation


class PaintKind(StrEnum):
    """What a paint object is (`PaintObject.kind`); its word is what JSON and the sentences say."""

    IMAGE = "image"  # an image XObject
    INLINE_IMAGE = "inline_image"  # BI … ID … EI
    FILL = "fill"  # a filled path (f/F/f*/B/b…)
    SHADING = "shading"  # sh: fills the clip


@dataclass(frozen=True, slots=True)
class PageBoxes:
    """The page's boxes and rotation, and the box its glyphs are culled to."""

    media_box: Rect
    crop_box: Rect  # as inherited / defaulted to the MediaBox
    visible_box: Rect  # CropBox ∩ MediaBox (spec §5)
    rotate: int  # 0, 90, 180 or 270
    bleed_box: Rect | None = None
    trim_box: Rect | None = None
    art_box: Rect | None = None


@dataclass(frozen=True, slots=True)
class FormUse:
    """One execution of a Form XObject (a `Do`) on the page."""

    form_path: tuple[str, ...]  # names of the Do chain, outer first
    object_id: str  # "7 0 R"
    bbox: Quad  # the form /BBox mapped to user space
    matrix: Matrix  # /Matrix × CTM at the Do
    token_index: int  # the page-stream instruction that started the chain
    glyph_count: int
    glyphs_outside_bbox: int


@dataclass(frozen=True, slots=True)
class PageFont:
    """A font used on the page, under the resource name it was selected by."""

    font_key: str
    form_path: tuple[str, ...]  # where the key was resolved (forms have their own resources)
    info: FontInfo


Polygon = tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class ClipPath:
    """One path intersected into the clip: `W n` / `W* n`, or a Form XObject's /BBox.

    Polygons are the path's subpaths in user space (curves flattened to a few
    segments); `even_odd` is the rule the W* (True) or W (False) named; `rect`
    says the path is one axis-aligned rectangle, so its bbox answers the inside test.
    """

    polygons: tuple[Polygon, ...]
    bbox: Rect
    even_odd: bool
    rect: bool
    source: str  # "W", "W*" or "BBox"
    token_index: int  # page instruction of the W (for a form: the Do that started the chain)
    stream_index: int  # the W's (or the Do's) index in its own stream
    form_path: tuple[str, ...]  # the stream it was set in ((): the page; for a BBox: that form)


@dataclass(frozen=True, slots=True)
class ClipRecord:
    """The clipping path in force: `path` intersected with the clip it was set in (`parent`).

    Records are linked by index (InterpretedPage.clips[parent], -1: nothing clipped before),
    so a new clip costs O(1) however deep the nesting; `bbox` is the common box of every
    path of the chain, `empty` when those boxes do not meet (nothing inside is visible),
    `rect_only` when every path of the chain is an upright rectangle (the bbox answers).
    """

    path: ClipPath
    parent: int
    bbox: Rect
    empty: bool = False
    rect_only: bool = True
    depth: int = 1  # paths in the chain


def clip_paths(clips: Sequence[ClipRecord], index: int, limit: int | None = None) -> list[ClipPath]:
    """The paths intersected into clip `index`, innermost first (at most `limit` of them)."""
    out: list[ClipPath] = []
    while 0 <= index < len(clips) and (limit is None or len(out) < limit):
        record = clips[index]
        out.append(record.path)
        if record.parent >= index:
            break  # never loops: a parent is always recorded before its child
        index = record.parent
    return out


@dataclass(frozen=True, slots=True)
class FillState:
    """The fill colour and fill alpha in force when something was painted.

    family: "gray", "rgb", "cmyk", or the colour space family when components are not
    a device colour ("separation", "devicen", "indexed", "pattern", "lab"); alpha: the
    ExtGState /ca; soft_mask: "" (none), "empty" (an /SMask group that paints nothing:
    nothing shows through it) or "present" (a mask whose effect is unknown).
    """

    family: str = "gray"
    components: tuple[float, ...] = (0.0,)
    alpha: float = 1.0
    soft_mask: str = ""


@dataclass(frozen=True, slots=True)
class PaintObject:
    """An image or filled path, in paint order with the glyphs (`glyphs_before` glyphs were painted first).

    kind: a PaintKind (image, inline_image, fill, shading).
    polygons in user space (an image: the CTM's unit square); `opaque` when nothing
    painted under it shows through (fill alpha 1, no soft mask; an image without
    /SMask, /Mask nor /ImageMask).
    """

    kind: PaintKind
    polygons: tuple[Polygon, ...]
    bbox: Rect
    even_odd: bool
    opaque: bool
    fill: int  # index into InterpretedPage.fills (-1 for images)
    clip: int  # the clip it was painted under (-1: none)
    glyphs_before: int  # glyphs painted before it: glyph i is under it when i < glyphs_before
    token_index: int
    stream_index: int
    form_path: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class InterpretedPage:
    """The interpreter's output for one page. Decides nothing about words or lines.

    `glyphs` is always a GlyphTable (one representation at the boundary): a page built by hand
    from records (a tuple, a list) gets them as a table here, so no reader branches on which.
    """

    page_number: int  # 1-based
    boxes: PageBoxes
    glyphs: GlyphTable  # every painted glyph, paint order, column-wise; glyphs[i].paint_index == i
    fonts: tuple[PageFont, ...]
    forms: tuple[FormUse, ...]
    diagnostics: tuple[Diagnostic, ...]
    instruction_count: int = 0  # instructions in the page stream
    has_struct_parents: bool = False
    errors: tuple[str, ...] = field(default=())  # fatal problems that emptied the page
    # Shared by index (Glyph.clip_id, Glyph.fill_id): one record per state, not one per glyph.
    clips: tuple[ClipRecord, ...] = field(default=())
    fills: tuple[FillState, ...] = field(default=(FillState(),))
    paints: tuple[PaintObject, ...] = field(default=())  # images and filled paths, paint order
    # Marked content with a replacement text (/ActualText, /E): outermost spans, paint order.
    actual_text: tuple[ActualTextSpan, ...] = field(default=())
    annotations: tuple[Annotation, ...] = field(default=())  # every entry of /Annots, drawn or not
    need_appearances: bool = False  # the AcroForm's /NeedAppearances: a viewer draws field values itself

    def __post_init__(self) -> None:
        glyphs: Sequence[Glyph] = self.glyphs
        if not isinstance(glyphs, GlyphTable):  # the one conversion: records given by hand
            object.__setattr__(self, "glyphs", GlyphTable.of(tuple(glyphs)))
