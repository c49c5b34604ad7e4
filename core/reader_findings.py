"""Findings about text a reader sees that the page's glyphs do not hold (or hold invisibly).

* a form field whose value a viewer draws itself (/NeedAppearances, or a /V with no
  appearance): the file has no glyphs for it, so no extractor can read it;
* the glyphs annotation appearances add to the page text (form fields, comments, stamps);
* an image-only page (a scan without text): its text needs OCR;
* a page whose only text is invisible (render mode 3) over an image: an OCR layer, the
  text a reader copies but does not see.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.annotations import AnnotationSkip
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.geometry import Rect, intersect
from glyphscope.core.page import InterpretedPage, PaintKind

IMAGE_ONLY_COVERAGE = 0.5
"""A page whose images cover at least this share of its visible box, with no visible glyph, is
image-only (a scan): a full-page scan covers ~100 %, a photo page with a caption has glyphs."""
MAX_UNION_RECTS = 200  # images whose covered area is computed exactly; more: their areas are summed

_MAX_VALUE_SHOWN = 80  # characters of a field value quoted in a finding


def annotation_findings(page: InterpretedPage, from_annotations: tuple[int, ...]) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    n = page.page_number
    if from_annotations:
        subtypes = sorted({a.subtype or "Annot" for a in page.annotations if a.skip is None})
        out.append(
            Diagnostic(
                DiagnosticKind.TEXT_FROM_ANNOTATIONS,
                Severity.INFO,
                f"{len(from_annotations)} glyph{'s' if len(from_annotations) != 1 else ''} come from annotation "
                f"appearances ({', '.join(subtypes)}): text a viewer draws over the page's content, in the "
                "text by default (--annotations exclude leaves it out)",
                page=n,
                glyphs=from_annotations,
                count=len(from_annotations),
            )
        )
    for a in page.annotations:
        if a.subtype != "Widget" or not a.value or a.skip in (AnnotationSkip.HIDDEN, AnnotationSkip.NO_VIEW):
            continue
        value = a.value if len(a.value) <= _MAX_VALUE_SHOWN else a.value[: _MAX_VALUE_SHOWN - 1] + "…"
        name = a.field_name or a.object_id
        if a.skip is AnnotationSkip.NO_APPEARANCE:
            message = (
                f"field {name}: a viewer draws its value “{value}” itself; the file has no glyphs for it, "
                "so no extractor reads it"
            )
        elif page.need_appearances:
            message = (
                f"field {name}: the form asks viewers to redraw its value “{value}” (/NeedAppearances); "
                "the glyphs of its stored appearance may say something else"
            )
        else:
            continue
        out.append(Diagnostic(DiagnosticKind.FIELD_VALUE_NOT_DRAWN, Severity.WARNING, message, page=n))
    return out


def image_page_findings(page: InterpretedPage, invisible: int) -> list[Diagnostic]:
    """Image-only page, or an OCR layer over one. `invisible`: the page's glyphs in render modes 3/7."""
    glyphs = len(page.glyphs)
    if glyphs and invisible < glyphs:
        return []  # some text is painted visibly
    box = page.boxes.visible_box
    area = (box[2] - box[0]) * (box[3] - box[1])
    images = [p.bbox for p in page.paints if p.kind in (PaintKind.IMAGE, PaintKind.INLINE_IMAGE)]
    if not images or area <= 0:
        return []
    coverage = min(1.0, covered_area(images, box) / area)
    if coverage < IMAGE_ONLY_COVERAGE:
        return []
    n = page.page_number
    share = f"{coverage:.0%}"
    if not glyphs:
        return [
            Diagnostic(
                DiagnosticKind.IMAGE_ONLY_PAGE,
                Severity.WARNING,
                f"image-only page: images cover {share} of it and no text is painted — its text needs OCR",
                page=n,
                measured=round(coverage, 4),
                threshold=IMAGE_ONLY_COVERAGE,
            )
        ]
    return [
        Diagnostic(
            DiagnosticKind.OCR_LAYER_ONLY,
            Severity.INFO,
            f"the page's only text is an invisible OCR layer ({glyphs} glyph{'s' if glyphs != 1 else ''}, "
            f"render mode 3) over images covering {share} of it: what is copied is the OCR's reading",
            page=n,
            glyphs=tuple(range(glyphs)),
            count=glyphs,
            measured=round(coverage, 4),
            threshold=IMAGE_ONLY_COVERAGE,
        )
    ]


def covered_area(rects: Sequence[Rect], within: Rect) -> float:
    """The area of the union of `rects` inside `within` (exact for up to MAX_UNION_RECTS: coordinate
    compression; beyond, the clipped areas summed, an upper bound)."""
    clipped = [
        r for r in (intersect(r, within) for r in rects) if r is not None and r[2] > r[0] and r[3] > r[1]
    ]
    if len(clipped) > MAX_UNION_RECTS:
        return sum((r[2] - r[0]) * (r[3] - r[1]) for r in clipped)
    xs = sorted({v for r in clipped for v in (r[0], r[2])})
    total = 0.0
    for x0, x1 in zip(xs, xs[1:]):
        spans = sorted((r[1], r[3]) for r in clipped if r[0] <= x0 and r[2] >= x1)
        covered, top = 0.0, float("-inf")
        for y0, y1 in spans:
            if y1 <= top:
                continue
            covered += y1 - max(y0, top)
            top = y1
        total += covered * (x1 - x0)
    return total
