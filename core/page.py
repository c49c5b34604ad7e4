"""What interpreting one page yields: glyphs, boxes, fonts, forms and findings."""

from __future__ import annotations

from dataclasses import dataclass, field

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.diagnostics import Diagnostic
from glyphscope.core.fonts.base import FontInfo
from glyphscope.core.geometry import Matrix, Quad, Rect
from glyphscope.core.glyph import Glyph


@dataclass(frozen=True, slots=True)
class PageBoxes:
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


@dataclass(frozen=True, slots=True)
class InterpretedPage:
    """The interpreter's output for one page. Decides nothing about words or lines."""

    page_number: int  # 1-based
    boxes: PageBoxes
    glyphs: tuple[Glyph, ...]  # every painted glyph, paint order; glyphs[i].paint_index == i
    fonts: tuple[PageFont, ...]
    forms: tuple[FormUse, ...]
    diagnostics: tuple[Diagnostic, ...]
    instruction_count: int = 0  # instructions in the page stream
    has_struct_parents: bool = False
    errors: tuple[str, ...] = field(default=())  # fatal problems that emptied the page
    # Marked content with a replacement text (/ActualText, /E): outermost spans, paint order.
    actual_text: tuple[ActualTextSpan, ...] = field(default=())
