"""The region probe: every glyph in a rectangle of the page with its fate, in words (Qt-free).

A glyph is "in" the rectangle when its box meets it. Every glyph of the page
counts (kept, culled and duplicates alike): the probe exists to show what
the text modes left out and why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from glyphscope.core.annotations import Annotation
from glyphscope.core.geometry import Rect
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.core.params import AnnotationText
from glyphscope.core.render_modes import INVISIBLE_RENDER_MODES
from glyphscope.core.visibility_class import DROPPABLE_HIDDEN, VisibilityClass
from glyphscope.inspector.views.spatial import quad_box

NO_GLYPHS = "no glyphs here: the text is an image or vector outlines"


class Fate(StrEnum):
    """What became of a glyph, or what else is true of it, as the probe lists it."""

    KEPT = "kept"
    CULLED = "culled"
    CLIPPED = "clipped"
    DUPLICATE = "duplicate"
    HIDDEN = "hidden"
    UNRESOLVED = "unresolved"
    FALLBACK_DECODED = "fallback-decoded"
    INVISIBLE = "invisible"
    FORM = "form"
    OUTSIDE_FORM_BBOX = "outside"
    EXCLUDED = "excluded"  # left out by the annotations switch
    ANNOTATION = "annotation"  # painted by an annotation's appearance


SUMMARY_FATES = (
    Fate.KEPT,
    Fate.CULLED,
    Fate.CLIPPED,
    Fate.DUPLICATE,
    Fate.HIDDEN,
    Fate.EXCLUDED,
    Fate.UNRESOLVED,
    Fate.FALLBACK_DECODED,
    Fate.INVISIBLE,
    Fate.FORM,
    Fate.ANNOTATION,
)
"""The fates a probe's summary counts, in its order."""


@dataclass(frozen=True, slots=True)
class GlyphFate:
    kind: Fate
    text: str  # for people: "kept", "duplicate of #12", "clipped (…)", "hidden (…)", "form /Fm1"

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class ProbeEntry:
    paint_index: int
    char: str
    status: str  # kept / culled / duplicate / clipped / hidden
    fates: tuple[GlyphFate, ...]  # the first is what became of the glyph; then what else holds
    details: tuple[str, ...]  # sentences: the engine's decisions around the glyph

    @property
    def fate_texts(self) -> tuple[str, ...]:
        return tuple(f.text for f in self.fates)


@dataclass(slots=True)
class ProbeResult:
    page: int
    rect: Rect  # user space, normalised
    entries: list[ProbeEntry] = field(default_factory=list)

    @property
    def message(self) -> str:
        return NO_GLYPHS if not self.entries else ""

    def counts(self) -> dict[Fate, int]:
        out: dict[Fate, int] = {}
        for e in self.entries:
            for fate in e.fates:
                out[fate.kind] = out.get(fate.kind, 0) + 1
        return out

    def summary(self) -> str:
        if not self.entries:
            return NO_GLYPHS
        c = self.counts()
        parts = [f"{len(self.entries)} glyph{'s' if len(self.entries) != 1 else ''}"]
        for kind in SUMMARY_FATES:
            if c.get(kind):
                parts.append(_SUMMARY_WORDS.get(kind, "{n} " + kind.value).format(n=c[kind]))
        return ", ".join(parts)


_SUMMARY_WORDS = {Fate.FORM: "{n} from forms", Fate.ANNOTATION: "{n} from annotations"}


def normalised_rect(rect: Rect) -> Rect:
    x0, y0, x1, y1 = rect
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def glyphs_in(glyphs: Any, rect: Rect) -> list[int]:
    x0, y0, x1, y1 = normalised_rect(rect)
    out = []
    for g in glyphs:
        a0, b0, a1, b1 = quad_box(g.quad)
        if a0 <= x1 and a1 >= x0 and b0 <= y1 and b1 >= y0:
            out.append(g.paint_index)
    return out


def fates_of(facts: Any, i: int) -> list[GlyphFate]:
    g = facts.page.glyphs[i]
    classified = facts.classified
    status = classified.status[i]
    fates: list[GlyphFate] = []
    note = facts.fates.hidden_note(i)  # why a reader cannot see it, "" when visible
    if status is GlyphStatus.CULLED:
        fates.append(GlyphFate(Fate.CULLED, "culled (box centre outside the visible box)"))
    elif status is GlyphStatus.DUPLICATE:
        fates.append(GlyphFate(Fate.DUPLICATE, f"duplicate of #{classified.duplicate_of[i]}"))
    elif status is GlyphStatus.CLIPPED:
        fates.append(GlyphFate(Fate.CLIPPED, f"clipped ({note}: dropped from text)"))
    elif status is GlyphStatus.HIDDEN:
        fates.append(GlyphFate(Fate.HIDDEN, f"hidden ({note}: dropped by --drop-hidden)"))
    elif status is GlyphStatus.EXCLUDED:
        switch = AnnotationText.EXCLUDE if g.annotation >= 0 else AnnotationText.ONLY
        fates.append(GlyphFate(Fate.EXCLUDED, f"excluded by --annotations {switch}"))
    else:
        fates.append(GlyphFate(Fate.KEPT, "kept"))
    kind = facts.fates.visibility_of(i)
    if status is GlyphStatus.KEPT and kind == VisibilityClass.CLIPPED:
        fates.append(GlyphFate(Fate.CLIPPED, f"clipped ({note}: kept by --keep-clipped)"))
    elif status is not GlyphStatus.HIDDEN and kind in DROPPABLE_HIDDEN:
        fates.append(GlyphFate(Fate.HIDDEN, f"hidden ({note}: still in the text)"))
    if g.decode_source is DecodeSource.UNRESOLVED:
        fates.append(
            GlyphFate(Fate.UNRESOLVED, f"unresolved (code {g.code:#x} of {g.font_key} has no Unicode)")
        )
    elif g.decode_source is DecodeSource.FALLBACK:
        fates.append(GlyphFate(Fate.FALLBACK_DECODED, "fallback-decoded (Unicode guessed)"))
    if g.render_mode in INVISIBLE_RENDER_MODES:
        fates.append(
            GlyphFate(Fate.INVISIBLE, f"invisible (render mode {g.render_mode}: not painted, still text)")
        )
    if g.annotation >= 0:
        fates.append(GlyphFate(Fate.ANNOTATION, annotation_origin(facts.page.annotations, g.annotation)))
    elif g.form_path:
        fates.append(GlyphFate(Fate.FORM, "form " + " › ".join(g.form_path)))
        if g.outside_form_bbox:
            fates.append(GlyphFate(Fate.OUTSIDE_FORM_BBOX, "outside its form BBox"))
    return fates


def annotation_origin(annotations: Sequence[Annotation], index: int) -> str:
    """ "in a Widget annotation's appearance (field `name`, Tx), 12 0 R", for a glyph of annotation `index`."""
    found = next((a for a in annotations if a.index == index), None)
    if found is None:
        return "in an annotation's appearance"
    field = f" (field `{found.field_name}`, {found.field_type or 'no type'})" if found.field_name else ""
    return f"in a {found.subtype or 'an'} annotation's appearance{field}, {found.object_id}"


def probe_region(facts: Any, page_number: int, rect: Rect, mode: str) -> ProbeResult:
    """Every glyph whose box meets `rect` (user space), with its fate and the decisions around it."""
    result = ProbeResult(page_number, normalised_rect(rect))
    glyphs = facts.page.glyphs
    for i in glyphs_in(glyphs, rect):
        g = glyphs[i]
        result.entries.append(
            ProbeEntry(
                i,
                g.unicode,
                facts.fates.status_of(i),
                tuple(fates_of(facts, i)),
                tuple(facts.fates.explain(i, mode)),
            )
        )
    return result
