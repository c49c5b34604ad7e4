"""How many glyphs of a page met each fate: the numbers triage, reports and panels show."""

from __future__ import annotations

from dataclasses import dataclass

from glyphscope.core.font_stats import PageFontStats
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

    def to_json(self) -> dict[str, int | list[str]]:
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


def count_page(page: InterpretedPage, classified: ClassifiedGlyphs, fonts: PageFontStats) -> PageCounts:
    """The page's counts; `fonts` is the page product's per-font statistics (`font_statistics(page)`)."""
    from_forms = sum(len(painted) for _, run, painted in page.glyphs.run_ranges() if run.form_path)
    per_font = fonts.by_font_id.values()
    return PageCounts(
        glyphs=len(page.glyphs),
        visible=len(classified.visible),
        culled=len(classified.culls),
        duplicates=len(classified.duplicates),
        from_forms=from_forms,
        unresolved=sum(len(f.unresolved) for f in per_font),
        fallback=sum(len(f.fallback) for f in per_font),
        fonts_used=fonts.fonts_used,
        fonts_lost=fonts.fonts_lost,
    )
