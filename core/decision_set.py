"""The decisions of one page in one mode, as records (see core/analysis.py).

`page_decisions` is the one place that lists them: the passes' culls and
duplicates, then one record per glyph painted through a Form XObject and per
glyph whose decoding fell back or failed (made here, on demand, from the
glyphs), then assembly's. Every record follows `DecisionRecord`
(core/decision_protocol.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from glyphscope.core.annotations import AnnotationDecision, annotation_decisions
from glyphscope.core.assembly import PageText
from glyphscope.core.assembly.actual_text import ActualTextDecision
from glyphscope.core.assembly.bidi import BidiDecision
from glyphscope.core.assembly.decisions import ASSEMBLY_RECORDS
from glyphscope.core.decision_protocol import DecisionKind, DecisionRecord, NothingCompared, fmt, glyph_json
from glyphscope.core.geometry import Point, Quad
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.glyph_table import GlyphTable
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import Parameters
from glyphscope.core.passes import ClassifiedGlyphs, CullDecision, DuplicateDecision
from glyphscope.core.visibility import VISIBILITY_RECORDS

DECODING_CHAIN = (
    "ToUnicode, /Encoding (CMap or /Differences), character collection, base encoding, font program"
)
"""The declared steps of the decoding chain (spec §6), as a sentence names them."""


@dataclass(frozen=True, slots=True)
class FormMembershipDecision:
    """A glyph painted through a Form XObject, tested against the form's /BBox (spec §2).

    glyph = the glyph; value = its box centre [x, y]; threshold = the form's /BBox
    in user space as a quad [[x, y] × 4] (None when the form has no /BBox);
    verdict "in_form", or "outside_bbox" when the centre lies outside (viewers clip
    the glyph, extraction keeps it).
    """

    kind: ClassVar[str] = DecisionKind.FORM_MEMBERSHIP

    paint_index: int
    form_path: tuple[str, ...]
    object_id: str  # of the innermost form, "" when unknown
    center: Point
    bbox: Quad | None
    outside: bool  # the interpreter's test (Glyph.outside_form_bbox)

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "outside_bbox" if self.outside else "in_form"

    @property
    def value(self) -> Point:
        return self.center

    @property
    def threshold(self) -> Quad | None:
        return self.bbox

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.paint_index, form_path=list(self.form_path), object_id=self.object_id)

    def describe(self) -> str:
        where = f"form {' → '.join(self.form_path)}" + (f" ({self.object_id})" if self.object_id else "")
        centre = f"box centre ({fmt(self.center[0])}, {fmt(self.center[1])})"
        if self.bbox is None:
            return f"painted through {where}, which has no /BBox: {centre}"
        box = " ".join(f"({fmt(x)}, {fmt(y)})" for x, y in self.bbox)
        if self.outside:
            return f"painted through {where}: {centre} lies outside its /BBox {box} (viewers clip it; still extracted)"
        return f"painted through {where}: {centre} lies inside its /BBox {box}"


@dataclass(frozen=True, slots=True)
class DecodeFallbackDecision(NothingCompared):
    """A glyph whose Unicode no declared step of the decoding chain gave (spec §6).

    glyph = the glyph; verdict = its decode source, "fallback" (a guess answered)
    or "unresolved" (every step failed); value and threshold are None: no number
    is compared.
    """

    kind: ClassVar[str] = DecisionKind.DECODE_FALLBACK

    paint_index: int
    decode_source: DecodeSource
    font_key: str
    code: int
    code_bytes: int
    unicode: str

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return str(self.decode_source.value)

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.paint_index,
            font_key=self.font_key,
            code=self.code,
            code_bytes=self.code_bytes,
            unicode=self.unicode,
        )

    def describe(self) -> str:
        code = f"code <{self.code:0{2 * max(self.code_bytes, 1)}X}> of font {self.font_key}"
        if self.decode_source is DecodeSource.UNRESOLVED:
            return (
                f"{code}: every step of the decoding chain failed ({DECODING_CHAIN}, fallback guess); "
                "no Unicode, it reads as a space"
            )
        return f"{code}: no declared mapping answered ({DECODING_CHAIN}); the fallback guess read it as {self.unicode!r}"


_FALLBACK_SOURCES = (DecodeSource.FALLBACK, DecodeSource.UNRESOLVED)


def form_membership_decisions(page: InterpretedPage) -> list[FormMembershipDecision]:
    """One record per glyph painted through a form, in paint order."""
    out = []
    forms = page.forms
    table = page.glyphs
    painted = [i for _, run, glyphs in table.run_ranges() if run.form_path for i in glyphs]
    for g in table.records_at(painted):
        use = forms[g.form_use] if 0 <= g.form_use < len(forms) else None
        bbox = use.bbox if use is not None else None
        if bbox is not None and not g.outside_form_bbox and _degenerate(bbox):
            bbox = None  # the form had no usable /BBox: nothing was compared
        out.append(
            FormMembershipDecision(
                g.paint_index,
                g.form_path,
                use.object_id if use is not None else "",
                g.center,
                bbox,
                g.outside_form_bbox,
            )
        )
    return out


def decode_fallback_decisions(table: GlyphTable) -> list[DecodeFallbackDecision]:
    """One record per glyph decoded by the fallback guess or not at all, in paint order."""
    guessed = [i for i, source in enumerate(table.source) if source in _FALLBACK_SOURCES]
    return [
        DecodeFallbackDecision(g.paint_index, g.decode_source, g.font_key, g.code, g.code_bytes, g.unicode)
        for g in table.records_at(guessed)
    ]


def _degenerate(q: Quad) -> bool:
    return q[0] == q[1] == q[2] == q[3]


DECISION_RECORDS: tuple[type[DecisionRecord], ...] = (
    CullDecision,
    AnnotationDecision,
    DuplicateDecision,
    FormMembershipDecision,
    DecodeFallbackDecision,
    *VISIBILITY_RECORDS,
    *ASSEMBLY_RECORDS,
    ActualTextDecision,
    BidiDecision,
)
"""Every class a page's decision list may hold."""


def page_annotation_decisions(page: InterpretedPage, params: Parameters) -> list[AnnotationDecision]:
    """One decision per annotation of the page: whether its text is in the page text, and why."""
    return annotation_decisions(
        page.annotations, page.glyphs.annotation_of(), page.boxes.visible_box, params.annotations
    )


def page_decisions(
    page: InterpretedPage, classified: ClassifiedGlyphs, text: PageText, params: Parameters
) -> list[DecisionRecord]:
    """Culls and duplicates of the passes, form membership and decode fallbacks of the
    glyphs, then the decisions that made `text`. `params` made `classified` and `text`."""
    return [
        *classified.culls,
        *page_annotation_decisions(page, params),
        *(classified.visibility.records if classified.visibility is not None else ()),
        *classified.duplicates,
        *form_membership_decisions(page),
        *decode_fallback_decisions(page.glyphs),
        *text.decisions,
    ]
