"""What each font painted on a page: glyphs and how they were decoded, counted once per page product.

Two groupings answer two questions, both made in one pass over the glyph runs:

* per resource entry (`page.fonts[i]`: a key in the resources of the page or a
  form): the glyphs selected through that entry — same key and form path, else
  the same key elsewhere (a form borrowing the caller's font). The Fonts panel
  lists these rows and its code table explains their codes.
* per font object (`font_id`): every glyph of the object, whichever entry
  selected it. Findings, `glyphscope fonts`, the HTML report and triage count
  lost text per font object: one font under two keys is one font.

`PageAnalysis.fonts` (core/analysis.py) holds the result; nothing else counts
glyphs per font.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from glyphscope.core.glyph import DecodeSource
from glyphscope.core.glyph_table import GlyphTable
from glyphscope.core.page import InterpretedPage, PageFont

if TYPE_CHECKING:
    from glyphscope.core.garbled import Verdict


@dataclass(frozen=True, slots=True)
class FontGlyphs:
    """Glyphs of one font (paint indices, paint order) and their decode sources."""

    glyphs: tuple[int, ...]
    # Counted in paint order, so equal counts list in the order the page first used them.
    sources: Mapping[DecodeSource, int]
    unresolved: tuple[int, ...]  # no step of the decoding chain answered
    fallback: tuple[int, ...]  # decoded by a guess

    @property
    def count(self) -> int:
        return len(self.glyphs)

    @property
    def lost(self) -> bool:
        """Whether any glyph's text is missing or guessed."""
        return bool(self.unresolved or self.fallback)

    def sources_json(self) -> dict[str, int]:
        """{decode source value: glyphs}, sorted by the value (stable JSON)."""
        return dict(sorted((s.value, n) for s, n in self.sources.items()))


@dataclass(frozen=True, slots=True)
class FontStats:
    """One entry of `page.fonts` with what it painted and what its font object painted."""

    page_font: PageFont
    selected: FontGlyphs  # glyphs selected through this resource entry
    font: FontGlyphs  # every glyph of the font object (`page_font.info.font_id`) on the page


@dataclass(frozen=True, slots=True)
class PageFontStats:
    """Per-font statistics of one page (or of the glyphs a budgeted product kept)."""

    entries: tuple[FontStats, ...]  # one per `page.fonts` entry, same order
    by_font_id: Mapping[str, FontGlyphs]  # every font object that painted a glyph, first use first
    # The page's glyphs, for the text verdicts (core/garbled.py), computed on first use.
    glyph_table: GlyphTable | None = field(default=None, compare=False, repr=False)
    _verdicts: dict[str, Verdict] = field(default_factory=dict, compare=False, repr=False)

    @property
    def fonts_used(self) -> frozenset[str]:
        return frozenset(self.by_font_id)

    @property
    def fonts_lost(self) -> frozenset[str]:
        """Font objects with unresolved or fallback glyphs."""
        return frozenset(f for f, g in self.by_font_id.items() if g.lost)

    def of_font(self, font_id: str) -> FontGlyphs:
        return self.by_font_id.get(font_id, NO_GLYPHS)

    @property
    def verdicts(self) -> Mapping[str, Verdict]:
        """Is each font object's text plausible? {font id: verdict} (core/garbled.py), once per page."""
        if not self._verdicts and self.glyph_table is not None and self.by_font_id:
            from glyphscope.core.garbled import page_verdicts

            base_fonts = {e.page_font.info.font_id: e.page_font.info.base_font for e in self.entries}
            fonts = {fid: g.glyphs for fid, g in self.by_font_id.items()}
            pair_fonts = {
                e.page_font.info.font_id for e in self.entries if e.page_font.info.subtype == "TrueType"
            }
            self._verdicts.update(page_verdicts(self.glyph_table, fonts, base_fonts, pair_fonts))
        return self._verdicts


NO_GLYPHS = FontGlyphs((), {}, (), ())


def _tally(indices: Sequence[int], source: Sequence[DecodeSource]) -> FontGlyphs:
    sources: Counter[DecodeSource] = Counter(source[i] for i in indices)
    unresolved = (
        tuple(i for i in indices if source[i] is DecodeSource.UNRESOLVED)
        if sources.get(DecodeSource.UNRESOLVED)
        else ()
    )
    fallback = (
        tuple(i for i in indices if source[i] is DecodeSource.FALLBACK)
        if sources.get(DecodeSource.FALLBACK)
        else ()
    )
    return FontGlyphs(tuple(indices), sources, unresolved, fallback)


def _runs(glyphs: GlyphTable) -> Iterable[tuple[str, str, tuple[str, ...], Iterable[int]]]:
    """(font id, font key, form path, paint indices) of each stretch painted in one state: one
    look per text-showing operator."""
    for _, run, painted in glyphs.run_ranges():
        yield run.font_id, run.font_key, run.form_path, painted


def font_statistics(page: InterpretedPage) -> PageFontStats:
    """Every font's glyphs and decode sources, per resource entry and per font object, in one pass."""
    fonts = page.fonts
    exact = {(f.font_key, tuple(f.form_path)): r for r, f in enumerate(fonts)}
    by_key: dict[str, int] = {}
    for r, f in enumerate(fonts):
        by_key.setdefault(f.font_key, r)
    rows: list[list[int]] = [[] for _ in fonts]
    objects: dict[str, list[int]] = {}
    for font_id, font_key, form_path, painted in _runs(page.glyphs):
        objects.setdefault(font_id, []).extend(painted)
        row = exact.get((font_key, form_path), by_key.get(font_key))
        if row is not None:
            rows[row].extend(painted)
    source: Sequence[DecodeSource] = page.glyphs.source
    by_font_id = {font_id: _tally(indices, source) for font_id, indices in objects.items()}
    entries = tuple(
        FontStats(f, _tally(rows[r], source), by_font_id.get(f.info.font_id, NO_GLYPHS))
        for r, f in enumerate(fonts)
    )
    return PageFontStats(entries, by_font_id, page.glyphs)
