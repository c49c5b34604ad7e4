"""A page's annotations: which appearances a viewer draws, and where (ISO 32000-1 §12.5).

Text a reader sees in a form field, a FreeText comment or a stamp is not in the
page's content stream: it is in the annotation's appearance stream (/AP /N, or
for a dictionary of states the one /AS names), a Form XObject that a viewer
draws in the annotation's /Rect. `read_annotations` lists every entry of
/Annots with what the viewer does with it — drawn, or why not — and
`placement` gives the matrix that puts its appearance on the page (§12.5.5).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import ClassVar

import pikepdf

from glyphscope.core.decision_protocol import DecisionKind, glyph_json
from glyphscope.core.fonts.pdfobj import object_id, pdf_text
from glyphscope.core.geometry import Matrix, Rect, intersect, multiply, normalize_rect, transform_rect
from glyphscope.core.params import AnnotationText

MAX_FIELD_DEPTH = 32  # /Parent chains of form fields in hostile files can loop
MAX_ANNOTATIONS = 10_000  # entries of /Annots read per page
FLAG_HIDDEN = 1 << 1  # /F bit 2: not displayed, not printed
FLAG_NO_VIEW = 1 << 5  # /F bit 6: not displayed (printed)

_READ_ERRORS = (pikepdf.PikepdfError, ValueError, TypeError, AttributeError, KeyError, RecursionError)


FIELD_COMB = 1 << 24
"""/Ff bit 25 of a text field (ISO 32000-1 Table 228): the value is laid out in /MaxLen equal cells."""
FIELD_NOT_COMB = (1 << 12) | (1 << 13) | (1 << 20)
"""Multiline, Password, FileSelect: with any of them the Comb flag has no effect (Table 228)."""
MAX_COMB_CELLS = 10_000
"""A larger /MaxLen is not a comb a viewer draws cell by cell."""


class AnnotationSkip(StrEnum):
    """Why a viewer draws nothing of an annotation (values are stable: JSON, decisions)."""

    HIDDEN = "hidden_flag"  # /F Hidden
    NO_VIEW = "no_view_flag"  # /F NoView
    POPUP = "popup"  # a Popup shows its parent's text in a window, not on the page
    NO_APPEARANCE = "no_appearance"  # no /AP /N, or no state of it named by /AS
    EMPTY_RECT = "empty_rect"  # /Rect missing or of zero area
    EMPTY_BBOX = "empty_appearance_box"  # the appearance's /BBox has no area: it cannot be fitted


@dataclass(frozen=True, slots=True)
class Annotation:
    """One entry of a page's /Annots, and what a viewer shows of it."""

    index: int  # position in the page's /Annots (Glyph.annotation names it)
    object_id: str  # "12 0 R", or "#index" for a direct dictionary
    subtype: str  # "Widget", "FreeText", "Stamp", … ("" when missing)
    rect: Rect | None  # /Rect in user space, normalised; None when unusable
    field_name: str  # a widget's fully qualified field name (/T up the /Parent chain), else ""
    field_type: str  # /FT, inherited: "Tx", "Btn", "Ch", "Sig" ("" when not a field)
    value: str  # the field's /V as text ("" when none)
    state: str  # the /AS state whose appearance is drawn ("" when /N is a stream)
    skip: AnnotationSkip | None  # None: its appearance is drawn on the page
    comb: int = 0  # a comb text field's /MaxLen (one character per cell, /Ff bit 25); 0 otherwise

    @property
    def label(self) -> str:
        """How the annotation is named in a form path and a message: "Widget 12 0 R (name)"."""
        name = f" ({self.field_name})" if self.field_name else ""
        return f"{self.subtype or 'Annot'} {self.object_id}{name}"

    def to_json(self) -> dict[str, object]:
        return {
            "index": self.index,
            "object_id": self.object_id,
            "subtype": self.subtype,
            "rect": list(self.rect) if self.rect is not None else None,
            "field_name": self.field_name,
            "field_type": self.field_type,
            "value": self.value,
            "state": self.state,
            "drawn": self.skip is None,
            "skip": self.skip.value if self.skip is not None else None,
        }


@dataclass(frozen=True, slots=True)
class DrawnAppearance:
    """An annotation whose appearance a viewer draws: the stream and the matrix that places it."""

    annotation: Annotation
    stream: pikepdf.Stream
    matrix: Matrix  # appearance space → user space: its /Matrix, then fitted to /Rect
    bbox: Rect  # the appearance's /BBox, in its own space
    resources: pikepdf.Dictionary | None  # its own /Resources, else the form's default resources (/DR)


def read_annotations(
    page_obj: pikepdf.Dictionary, default_resources: pikepdf.Dictionary | None = None
) -> tuple[list[Annotation], list[DrawnAppearance]]:
    """Every annotation of the page (in /Annots order) and the appearances a viewer draws.

    `default_resources` is the AcroForm's /DR: what a field's appearance without resources
    of its own is drawn with (viewers do). A damaged entry is skipped, never an exception."""
    try:
        annots = page_obj.get("/Annots")
    except _READ_ERRORS:
        return [], []
    if not isinstance(annots, pikepdf.Array):
        return [], []
    found: list[Annotation] = []
    drawn: list[DrawnAppearance] = []
    for index, annot in enumerate(list(annots)[:MAX_ANNOTATIONS]):
        if not isinstance(annot, pikepdf.Dictionary):
            continue
        try:
            annotation, appearance = _read_one(index, annot, default_resources)
        except _READ_ERRORS:
            continue
        found.append(annotation)
        if appearance is not None:
            drawn.append(appearance)
    return found, drawn


def _read_one(
    index: int, annot: pikepdf.Dictionary, default_resources: pikepdf.Dictionary | None
) -> tuple[Annotation, DrawnAppearance | None]:
    subtype = pdf_text(annot.get("/Subtype", "")).lstrip("/")
    rect = _rect(annot.get("/Rect"))
    name, field_type, value, comb = _field(annot)
    stream, state = normal_appearance(annot)
    flags = annot.get("/F", 0)
    flags = int(flags) if isinstance(flags, int) and not isinstance(flags, bool) else 0
    bbox = _rect(stream.get("/BBox")) if stream is not None else None
    matrix = _matrix(stream.get("/Matrix")) if stream is not None else None
    skip: AnnotationSkip | None = None
    if flags & FLAG_HIDDEN:
        skip = AnnotationSkip.HIDDEN
    elif flags & FLAG_NO_VIEW:
        skip = AnnotationSkip.NO_VIEW
    elif subtype == "Popup":
        skip = AnnotationSkip.POPUP
    elif stream is None:
        skip = AnnotationSkip.NO_APPEARANCE
    elif rect is None:
        skip = AnnotationSkip.EMPTY_RECT
    placed = placement(bbox, matrix, rect) if bbox is not None and rect is not None else None
    if skip is None and placed is None:
        skip = AnnotationSkip.EMPTY_BBOX
    annotation = Annotation(
        index, object_id(annot, f"#{index}"), subtype, rect, name, field_type, value, state, skip, comb
    )
    if skip is not None or stream is None or placed is None or bbox is None:
        return annotation, None
    own = stream.get("/Resources")
    resources = own if isinstance(own, pikepdf.Dictionary) else default_resources
    return annotation, DrawnAppearance(annotation, stream, placed, bbox, resources)


def placement(bbox: Rect, matrix: Matrix | None, rect: Rect) -> Matrix | None:
    """The appearance's matrix on the page (§12.5.5): its /BBox mapped by its /Matrix gives a box,
    which A maps onto /Rect (scale and translate); the appearance is drawn with /Matrix × A.
    None when the transformed box has no area (nothing can be fitted)."""
    form_matrix = matrix or (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
    corners = transform_rect(form_matrix, bbox)
    xs = [p[0] for p in corners]
    ys = [p[1] for p in corners]
    x0, y0, x1, y1 = min(xs), min(ys), max(xs), max(ys)
    if not (x1 - x0 > 0 and y1 - y0 > 0):
        return None
    sx = (rect[2] - rect[0]) / (x1 - x0)
    sy = (rect[3] - rect[1]) / (y1 - y0)
    fit: Matrix = (sx, 0.0, 0.0, sy, rect[0] - x0 * sx, rect[1] - y0 * sy)
    return multiply(form_matrix, fit)


def normal_appearance(annot: pikepdf.Dictionary) -> tuple[pikepdf.Stream | None, str]:
    """The normal appearance a viewer draws: /AP /N, or the state of it /AS names."""
    ap = annot.get("/AP")
    normal = ap.get("/N") if isinstance(ap, pikepdf.Dictionary) else None
    if isinstance(normal, pikepdf.Stream):
        return normal, ""
    if isinstance(normal, pikepdf.Dictionary):
        state = annot.get("/AS")
        if isinstance(state, pikepdf.Name):
            chosen = normal.get(state)
            if isinstance(chosen, pikepdf.Stream):
                return chosen, pdf_text(state).lstrip("/")
        return None, pdf_text(state).lstrip("/") if isinstance(state, pikepdf.Name) else ""
    return None, ""


def _field(annot: pikepdf.Dictionary) -> tuple[str, str, str, int]:
    """(fully qualified name, field type, value, comb cells) of the field a widget belongs to
    (§12.7.3.2): the /T of each ancestor joined by periods, /FT, /V, /Ff and /MaxLen inherited
    from the nearest that has them. comb cells = /MaxLen of a text field whose /Ff sets Comb
    (bit 25) and none of Multiline, Password, FileSelect (§12.7.4.3), else 0."""
    names: list[str] = []
    field_type = value = ""
    ff: int | None = None
    max_len: int | None = None
    node: pikepdf.Object | None = annot
    seen: set[tuple[int, int]] = set()
    for _ in range(MAX_FIELD_DEPTH):
        if not isinstance(node, pikepdf.Dictionary):
            break
        objgen = node.objgen
        if objgen != (0, 0):
            if objgen in seen:
                break
            seen.add(objgen)
        partial = node.get("/T")
        if isinstance(partial, pikepdf.String):
            names.append(str(partial))
        if not field_type and isinstance(node.get("/FT"), pikepdf.Name):
            field_type = pdf_text(node.get("/FT")).lstrip("/")
        if not value and "/V" in node:
            value = _text(node.get("/V"))
        if ff is None:
            ff = _integer(node.get("/Ff"))
        if max_len is None:
            max_len = _integer(node.get("/MaxLen"))
        node = node.get("/Parent")
    comb = 0
    if field_type == "Tx" and ff is not None and ff & FIELD_COMB and not ff & FIELD_NOT_COMB:
        comb = max_len if max_len is not None and 0 < max_len <= MAX_COMB_CELLS else 0
    return ".".join(reversed(names)), field_type, value, comb


def _integer(value: object) -> int | None:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value: object) -> str:
    if isinstance(value, pikepdf.String):
        return str(value)
    if isinstance(value, pikepdf.Name):
        return pdf_text(value).lstrip("/")
    if isinstance(value, pikepdf.Array):
        return ", ".join(_text(v) for v in list(value)[:50])
    return ""


def _numbers(value: object, count: int) -> list[float] | None:
    if not isinstance(value, pikepdf.Array) or len(value) != count:
        return None
    out: list[float] = []
    for v in value:
        if isinstance(v, bool) or not isinstance(v, (int, float, Decimal)):
            return None
        f = float(v)
        if f != f or f in (float("inf"), float("-inf")):
            return None
        out.append(f)
    return out


def _rect(value: object) -> Rect | None:
    nums = _numbers(value, 4)
    if nums is None:
        return None
    r = normalize_rect(*nums)
    return r if r[2] - r[0] > 0 and r[3] - r[1] > 0 else None


def _matrix(value: object) -> Matrix | None:
    nums = _numbers(value, 6)
    return (nums[0], nums[1], nums[2], nums[3], nums[4], nums[5]) if nums is not None else None


class AnnotationReason(StrEnum):
    """Why an annotation's text is in the page text or not (`AnnotationDecision.reason`)."""

    DRAWN = "drawn"  # its appearance is on the page and in the text
    HIDDEN = AnnotationSkip.HIDDEN.value
    NO_VIEW = AnnotationSkip.NO_VIEW.value
    POPUP = AnnotationSkip.POPUP.value
    NO_APPEARANCE = AnnotationSkip.NO_APPEARANCE.value
    EMPTY_RECT = AnnotationSkip.EMPTY_RECT.value
    EMPTY_BBOX = AnnotationSkip.EMPTY_BBOX.value
    OUTSIDE_VISIBLE_BOX = "outside_visible_box"  # drawn, but wholly off the visible page: culled
    EXCLUDED_BY_SWITCH = "excluded_by_switch"  # drawn, left out by Parameters.annotations "exclude"


_REASON_TEXT = {
    AnnotationReason.DRAWN: "a viewer draws its appearance: its text is part of the page text",
    AnnotationReason.HIDDEN: "its /F Hidden flag is set: a viewer shows nothing of it",
    AnnotationReason.NO_VIEW: "its /F NoView flag is set: a viewer does not display it (it may print)",
    AnnotationReason.POPUP: "a Popup shows its parent's text in a window, not on the page",
    AnnotationReason.NO_APPEARANCE: "it has no normal appearance (/AP /N, or the /AS state of it)",
    AnnotationReason.EMPTY_RECT: "its /Rect is missing or has no area",
    AnnotationReason.EMPTY_BBOX: "its appearance's /BBox has no area: nothing can be fitted into /Rect",
    AnnotationReason.OUTSIDE_VISIBLE_BOX: "its /Rect lies wholly outside the visible page: its glyphs are culled",
    AnnotationReason.EXCLUDED_BY_SWITCH: "drawn, but left out of the text by --annotations exclude",
}


@dataclass(frozen=True, slots=True)
class AnnotationDecision:
    """Whether an annotation's text is part of the page text, and why (one per annotation).

    glyph = its first glyph (None when it painted none); value = its /Rect [x0, y0, x1, y1]
    (None when unusable); threshold = the visible box when the rect lies outside it, else
    None; verdict "included" or "excluded"."""

    kind: ClassVar[str] = DecisionKind.ANNOTATION

    annotation: Annotation
    reason: AnnotationReason
    first_glyph: int | None
    glyph_count: int
    visible_box: Rect | None = None  # set when the reason is OUTSIDE_VISIBLE_BOX

    @property
    def glyph(self) -> int | None:
        return self.first_glyph

    @property
    def glyphs(self) -> range:
        """Its glyphs' paint indices: an appearance paints in one stretch, after the page's content."""
        first = self.first_glyph
        return range(first, first + self.glyph_count) if first is not None else range(0)

    @property
    def included(self) -> bool:
        """Whether its text is in the page text (its appearance is drawn and the switch keeps it)."""
        return self.reason is AnnotationReason.DRAWN

    @property
    def verdict(self) -> str:
        return "included" if self.included else "excluded"

    @property
    def value(self) -> Rect | None:
        return self.annotation.rect

    @property
    def threshold(self) -> Rect | None:
        return self.visible_box

    def to_json(self) -> dict[str, object]:
        return glyph_json(
            self,
            self.first_glyph,
            annotation=self.annotation.index,
            subtype=self.annotation.subtype,
            object_id=self.annotation.object_id,
            field_name=self.annotation.field_name,
            reason=self.reason.value,
            glyph_count=self.glyph_count,
        )

    def describe(self) -> str:
        glyphs = f"{self.glyph_count} glyph" + ("" if self.glyph_count == 1 else "s")
        return f"{self.annotation.label}: {_REASON_TEXT[self.reason]} ({glyphs})"


def annotation_decisions(
    annotations: Sequence[Annotation],
    glyph_annotations: Sequence[int],
    visible_box: Rect,
    choice: str,
) -> list[AnnotationDecision]:
    """One decision per annotation. `glyph_annotations[i]` is glyph i's `annotation` (-1: none);
    `choice` is Parameters.annotations."""
    first: dict[int, int] = {}
    counts: dict[int, int] = {}
    for i, a in enumerate(glyph_annotations):
        if a >= 0:
            first.setdefault(a, i)
            counts[a] = counts.get(a, 0) + 1
    out: list[AnnotationDecision] = []
    for annotation in annotations:
        box: Rect | None = None
        if annotation.skip is not None:
            reason = AnnotationReason(annotation.skip.value)
        elif annotation.rect is not None and intersect(annotation.rect, visible_box) is None:
            reason, box = AnnotationReason.OUTSIDE_VISIBLE_BOX, visible_box
        elif choice == AnnotationText.EXCLUDE:
            reason = AnnotationReason.EXCLUDED_BY_SWITCH
        else:
            reason = AnnotationReason.DRAWN
        out.append(
            AnnotationDecision(
                annotation, reason, first.get(annotation.index), counts.get(annotation.index, 0), box
            )
        )
    return out


def comb_fields(annotations: Sequence[Annotation]) -> dict[int, tuple[int, float]]:
    """Annotation index → (cells, cell width in user space) of every drawn comb text field."""
    out: dict[int, tuple[int, float]] = {}
    for a in annotations:
        if a.comb and a.rect is not None and a.skip is None:
            width = a.rect[2] - a.rect[0]
            if width > 0:
                out[a.index] = (a.comb, width / a.comb)
    return out
