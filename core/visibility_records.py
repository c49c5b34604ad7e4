"""The visibility pass's decision records (core/visibility.py): one per glyph a reader cannot see.

Apart from the pass so that a page whose glyphs are all visible (most pages) does not build
these classes (start-up time, issue 29): `classify_visibility` imports them on the first
hidden glyph. `core.visibility` still gives every name below.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from glyphscope.core.colours import COLOUR_TOLERANCE, WHITE, colour_json, same_colour
from glyphscope.core.decision_protocol import fmt, glyph_json
from glyphscope.core.geometry import Point, Rect
from glyphscope.core.page import FillState, PaintKind
from glyphscope.core.visibility_class import VisibilityClass


@dataclass(frozen=True, slots=True)
class _HiddenGlyph:
    paint_index: int
    dropped: bool  # by the text modes (keep_clipped off for clipped; drop_hidden for the others)

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "dropped" if self.dropped else "kept"


@dataclass(frozen=True, slots=True)
class InvisibleModeDecision(_HiddenGlyph):
    """Text render mode 3 or 7: painted neither filled nor stroked (an OCR layer, hidden text).

    value = the render mode; threshold = None (the mode is the whole test); verdict
    "kept": text modes read it (Parameters.drop_hidden does not drop it).
    """

    kind: ClassVar[str] = VisibilityClass.INVISIBLE_MODE

    render_mode: int = 3

    @property
    def value(self) -> float:
        return float(self.render_mode)

    @property
    def threshold(self) -> None:
        return None

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.paint_index, render_mode=self.render_mode)

    def describe(self) -> str:
        return (
            f"glyph #{self.paint_index} is drawn in text render mode {self.render_mode} (neither filled "
            "nor stroked): present but invisible, e.g. an OCR layer; kept in text and flagged"
        )


@dataclass(frozen=True, slots=True)
class ClippedDecision(_HiddenGlyph):
    """No part of the glyph's box meets the clipping path in force (spec §5: wholly outside).

    value = the box centre [x, y]; threshold = the bbox [x0, y0, x1, y1] of the clip path
    it lies outside of (the path set by the W/W* at `token_index`, or a form's /BBox);
    `test` "bbox" (outside that box) or "polygon" (inside the box, outside the
    flattened path by the even-odd or nonzero rule); verdict "dropped" (keep_clipped: "kept").
    """

    kind: ClassVar[str] = VisibilityClass.CLIPPED

    center: Point = (0.0, 0.0)
    clip_bbox: Rect = (0.0, 0.0, 0.0, 0.0)
    source: str = "W"  # "W", "W*" or "BBox"
    token_index: int = -1  # the page instruction of the W (for forms: the Do that started the chain)
    stream_index: int = -1
    form_path: tuple[str, ...] = ()
    test: str = "bbox"
    clip_id: int = -1

    @property
    def value(self) -> Point:
        return self.center

    @property
    def threshold(self) -> Rect:
        return self.clip_bbox

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.paint_index,
            source=self.source,
            token_index=self.token_index,
            stream_index=self.stream_index,
            form_path=list(self.form_path),
            test=self.test,
            clip_id=self.clip_id,
        )

    def where(self) -> str:
        """Which instruction set the clip, in words."""
        if self.source == "BBox":
            return f"the /BBox of form {' → '.join(self.form_path)} (drawn at instruction {self.token_index})"
        inside = (
            f" inside form {' → '.join(self.form_path)} (its instruction {self.stream_index})"
            if self.form_path
            else ""
        )
        return f"the path set at instruction {self.token_index}{inside} ({self.source})"

    def describe(self) -> str:
        x, y = self.center
        box = ", ".join(fmt(v) for v in self.clip_bbox)
        how = "outside its box" if self.test == "bbox" else "inside its box but outside the path itself"
        fate = "dropped from text like a culled glyph" if self.dropped else "kept in text (--keep-clipped)"
        return (
            f"glyph #{self.paint_index} clipped by {self.where()}: no part of its box meets the clip — its "
            f"centre ({fmt(x)}, {fmt(y)}) lies {how} [{box}], and so does every point across its box; {fate}"
        )


@dataclass(frozen=True, slots=True)
class TransparentDecision(_HiddenGlyph):
    """Filled with fill alpha 0 (/ca), or through a soft mask known to be empty.

    value = the fill alpha; threshold = 0 (alpha ≤ 0 shows nothing); `soft_mask`
    "empty" when the mask decided; verdict "kept" (flagged) or "dropped" (drop_hidden).
    """

    kind: ClassVar[str] = VisibilityClass.TRANSPARENT

    alpha: float = 0.0
    soft_mask: str = ""

    @property
    def value(self) -> float:
        return self.alpha

    @property
    def threshold(self) -> float:
        return 0.0

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.paint_index, soft_mask=self.soft_mask)

    def describe(self) -> str:
        why = (
            "its soft mask paints nothing (empty /SMask group)"
            if self.soft_mask == "empty"
            else f"fill alpha /ca {fmt(self.alpha)} ≤ 0.00"
        )
        fate = "dropped from text (--drop-hidden)" if self.dropped else "kept in text and flagged"
        return f"glyph #{self.paint_index} is present but fully transparent: {why}; {fate}"


@dataclass(frozen=True, slots=True)
class SameAsBackgroundDecision(_HiddenGlyph):
    """Filled in the colour of what lies under it: white on the white page, or the colour of
    the latest opaque fill under its box centre.

    value = the glyph's colour as RGB [r, g, b]; threshold = the background's RGB;
    equal when every channel differs by ≤ COLOUR_TOLERANCE. `background_token` is the
    instruction of the fill under it (-1: the page itself).
    """

    kind: ClassVar[str] = VisibilityClass.SAME_AS_BACKGROUND

    colour: tuple[float, float, float] = WHITE
    background: tuple[float, float, float] = WHITE
    fill: FillState = FillState()
    background_token: int = -1
    background_paint: int = -1  # index into InterpretedPage.paints; -1: the page

    @property
    def value(self) -> tuple[float, float, float]:
        return self.colour

    @property
    def threshold(self) -> tuple[float, float, float]:
        return self.background

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.paint_index,
            fill=colour_json(self.fill),
            background_token=self.background_token,
            background_paint=self.background_paint,
            tolerance=COLOUR_TOLERANCE,
        )

    def words(self) -> str:
        colour = (
            "white"
            if same_colour(self.colour, WHITE)
            else "rgb(" + ", ".join(fmt(v) for v in self.colour) + ")"
        )
        if self.background_paint < 0:
            return f"present but {colour} on the {colour} page (nothing painted under it)"
        return f"present but {colour} on a {colour} fill (instruction {self.background_token})"

    def describe(self) -> str:
        col = ", ".join(fmt(v) for v in self.colour)
        bg = ", ".join(fmt(v) for v in self.background)
        fate = "dropped from text (--drop-hidden)" if self.dropped else "kept in text and flagged"
        return f"glyph #{self.paint_index} is {self.words()}: colour ({col}) = background ({bg}); {fate}"


@dataclass(frozen=True, slots=True)
class CoveredDecision(_HiddenGlyph):
    """The glyph's box centre lies under an opaque image or filled path painted after it.

    value = the box centre [x, y]; threshold = the covering object's bbox; `cover_token`
    its instruction, `cover_kind` "image", "inline_image" or "fill".
    """

    kind: ClassVar[str] = VisibilityClass.COVERED

    center: Point = (0.0, 0.0)
    cover_bbox: Rect = (0.0, 0.0, 0.0, 0.0)
    cover_kind: PaintKind = PaintKind.IMAGE
    cover_token: int = -1
    cover_stream_index: int = -1
    cover_form_path: tuple[str, ...] = ()
    cover_paint: int = -1  # index into InterpretedPage.paints

    @property
    def value(self) -> Point:
        return self.center

    @property
    def threshold(self) -> Rect:
        return self.cover_bbox

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.paint_index,
            cover_kind=self.cover_kind,
            cover_token=self.cover_token,
            cover_stream_index=self.cover_stream_index,
            cover_form_path=list(self.cover_form_path),
            cover_paint=self.cover_paint,
        )

    def words(self) -> str:
        what = {PaintKind.FILL: "filled path", PaintKind.INLINE_IMAGE: "inline image"}.get(
            self.cover_kind, self.cover_kind
        )
        return f"present but covered by the opaque {what} painted later at instruction {self.cover_token}"

    def describe(self) -> str:
        x, y = self.center
        box = ", ".join(fmt(v) for v in self.cover_bbox)
        fate = "dropped from text (--drop-hidden)" if self.dropped else "kept in text and flagged"
        return f"glyph #{self.paint_index} is {self.words()}: box centre ({fmt(x)}, {fmt(y)}) inside [{box}]; {fate}"


VISIBILITY_RECORDS = (
    InvisibleModeDecision,
    ClippedDecision,
    TransparentDecision,
    SameAsBackgroundDecision,
    CoveredDecision,
)

HiddenRecord = (
    InvisibleModeDecision | ClippedDecision | TransparentDecision | SameAsBackgroundDecision | CoveredDecision
)


def why_hidden(record: HiddenRecord) -> str:
    """A short phrase for the probe and Find: why this text cannot be seen."""
    if isinstance(record, ClippedDecision):
        return f"clipped by {record.where()}"
    if isinstance(record, InvisibleModeDecision):
        return f"present but invisible (text render mode {record.render_mode})"
    if isinstance(record, TransparentDecision):
        if record.soft_mask == "empty":
            return "present but fully transparent (empty soft mask)"
        return f"present but fully transparent (fill alpha {fmt(record.alpha)})"
    return record.words()
