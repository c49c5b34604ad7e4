"""The region probe: every glyph in a rectangle of the page with its fate, in words (Qt-free).

A glyph is "in" the rectangle when its box meets it. Every glyph of the page
counts (kept, culled and duplicates alike): the probe exists to show what
the text modes left out and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from glyphscope.core.geometry import Rect
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.inspector.spatial import quad_box

NO_GLYPHS = "no glyphs here: the text is an image or vector outlines"
INVISIBLE_RENDER_MODES = (3, 7)  # neither fill nor stroke (7 adds to the clip path)


@dataclass(frozen=True, slots=True)
class ProbeEntry:
    paint_index: int
    char: str
    status: str  # kept / culled / duplicate / clipped / hidden
    fates: tuple[str, ...]  # short tags: "kept", "duplicate of #12", "clipped (…)", "hidden (…)", "form /Fm1"
    details: tuple[str, ...]  # sentences: the engine's decisions around the glyph


@dataclass(slots=True)
class ProbeResult:
    page: int
    rect: Rect  # user space, normalised
    entries: list[ProbeEntry] = field(default_factory=list)

    @property
    def message(self) -> str:
        return NO_GLYPHS if not self.entries else ""

    def counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for e in self.entries:
            for fate in e.fates:
                key = fate.split(" ")[0]
                out[key] = out.get(key, 0) + 1
        return out

    def summary(self) -> str:
        if not self.entries:
            return NO_GLYPHS
        c = self.counts()
        parts = [f"{len(self.entries)} glyph{'s' if len(self.entries) != 1 else ''}"]
        for key in (
            "kept",
            "culled",
            "clipped",
            "duplicate",
            "hidden",
            "unresolved",
            "fallback-decoded",
            "invisible",
            "form",
        ):
            if c.get(key):
                parts.append(f"{c[key]} {key}" if key != "form" else f"{c[key]} from forms")
        return ", ".join(parts)


def normalise(rect: Rect) -> Rect:
    x0, y0, x1, y1 = rect
    return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))


def glyphs_in(glyphs: Any, rect: Rect) -> list[int]:
    x0, y0, x1, y1 = normalise(rect)
    out = []
    for g in glyphs:
        a0, b0, a1, b1 = quad_box(g.quad)
        if a0 <= x1 and a1 >= x0 and b0 <= y1 and b1 >= y0:
            out.append(g.paint_index)
    return out


def fates_of(facts: Any, i: int) -> list[str]:
    g = facts.page.glyphs[i]
    classified = facts.classified
    status = classified.status[i]
    fates: list[str] = []
    note = facts.hidden_note(i)  # why a reader cannot see it (issue 12), "" when visible
    if status is GlyphStatus.CULLED:
        fates.append("culled (box centre outside the visible box)")
    elif status is GlyphStatus.DUPLICATE:
        fates.append(f"duplicate of #{classified.duplicate_of[i]}")
    elif status is GlyphStatus.CLIPPED:
        fates.append(f"clipped ({note}: dropped from text)")
    elif status is GlyphStatus.HIDDEN:
        fates.append(f"hidden ({note}: dropped by --drop-hidden)")
    else:
        fates.append("kept")
    kind = facts.visibility_of(i)
    if status is GlyphStatus.KEPT and kind == "clipped":
        fates.append(f"clipped ({note}: kept by --keep-clipped)")
    elif status is not GlyphStatus.HIDDEN and kind in ("transparent", "same_as_background", "covered"):
        fates.append(f"hidden ({note}: still in the text)")
    if g.decode_source is DecodeSource.UNRESOLVED:
        fates.append(f"unresolved (code {g.code:#x} of {g.font_key} has no Unicode)")
    elif g.decode_source is DecodeSource.FALLBACK:
        fates.append("fallback-decoded (Unicode guessed)")
    if g.render_mode in INVISIBLE_RENDER_MODES:
        fates.append(f"invisible (render mode {g.render_mode}: not painted, still text)")
    if g.form_path:
        fates.append("form " + " › ".join(g.form_path))
        if g.outside_form_bbox:
            fates.append("outside its form BBox")
    return fates


def probe_region(facts: Any, page_number: int, rect: Rect, mode: str) -> ProbeResult:
    """Every glyph whose box meets `rect` (user space), with its fate and the decisions around it."""
    result = ProbeResult(page_number, normalise(rect))
    glyphs = facts.page.glyphs
    for i in glyphs_in(glyphs, rect):
        g = glyphs[i]
        result.entries.append(
            ProbeEntry(
                i,
                g.unicode,
                facts.status_of(i),
                tuple(fates_of(facts, i)),
                tuple(facts.explain(i, mode)),
            )
        )
    return result
