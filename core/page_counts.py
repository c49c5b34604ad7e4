"""How many glyphs of a page met each fate: the numbers triage, reports and panels show."""

from __future__ import annotations

from dataclasses import dataclass

from glyphscope.core.glyph import DecodeSource
from glyphscope.core.page import InterpretedPage
from glyphscope.core.passes import ClassifiedGlyphs


@dataclass(frozen=True, slots=True)
class PageCounts:
    """Counts over every painted glyph of the page (page stream and forms, culled and duplicates included)."""

    glyphs: int
    visible: int  # kept: what every text mode reads
    culled: int
    duplicates: int
    from_forms: int
    unresolved: int
    fallback: int  # decoded by a guess (DecodeSource.FALLBACK)
    fonts_used: frozenset[str]  # font ids that painted glyphs
    fonts_lost: frozenset[str]  # ... of which painted unresolved or fallback glyphs

    def to_json(self) -> dict[str, object]:
        return {
            "glyphs": self.glyphs,
            "visible": self.visible,
            "culled": self.culled,
            "duplicates": self.duplicates,
            "from_forms": self.from_forms,
            "unresolved": self.unresolved,
            "fallback": self.fallback,
            "fonts_used": sorted(self.fonts_used),
            "fonts_lost": sorted(self.fonts_lost),
        }


def count_page(page: InterpretedPage, classified: ClassifiedGlyphs) -> PageCounts:
    from_forms = unresolved = fallback = 0
    used: set[str] = set()
    lost: set[str] = set()
    for g in page.glyphs:
        used.add(g.font_id)
        if g.form_path:
            from_forms += 1
        if g.decode_source is DecodeSource.UNRESOLVED:
            unresolved += 1
            lost.add(g.font_id)
        elif g.decode_source is DecodeSource.FALLBACK:
            fallback += 1
            lost.add(g.font_id)
    return PageCounts(
        glyphs=len(page.glyphs),
        visible=len(classified.visible),
        culled=len(classified.culls),
        duplicates=len(classified.duplicates),
        from_forms=from_forms,
        unresolved=unresolved,
        fallback=fallback,
        fonts_used=frozenset(used),
        fonts_lost=frozenset(lost),
    )
