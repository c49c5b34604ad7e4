"""The Fonts panel's per-font code table (Qt-free): code → glyph name → CID/GID → Unicode, width.

One row per distinct code the font painted on the page, with how many glyphs,
what the engine decoded (from the glyph records) and why (core.fonts.explain:
every step of the chain with its outcome). The glyphs are the ones the page
product's per-font statistics give the font's resource entry (the Fonts
panel's row). The font is loaded afresh from its resource entry, so the
explanation never touches the document's font cache.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pikepdf

from glyphscope.core.font_stats import FontStats, PageFontStats
from glyphscope.core.fonts.explain import (
    NOT_REACHED,
    ChainStep,
    CodeExplanation,
    code_hex,
    describe_unicode,
    explain_code,
)
from glyphscope.core.fonts.loader import load_font
from glyphscope.core.glyph import DecodeSource, Glyph
from glyphscope.core.resources import form_target

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document
    from glyphscope.core.page import InterpretedPage

HEADERS = ("Code", "Glyphs", "Glyph name", "CID", "GID", "Unicode", "Decoded by", "Width")
FOLDED = ("Glyph name", "CID", "GID")
"""Columns hidden when no row has a value (a simple font has no CIDs, a Type0 font no glyph
names); "Decoded by" is hidden when every row has the same, said once above the table
(`uniform_columns`)."""

SOURCE_WORDS = {
    DecodeSource.TOUNICODE: "ToUnicode",
    DecodeSource.ENCODING_CMAP: "encoding CMap",
    DecodeSource.CID_COLLECTION: "CID collection",
    DecodeSource.DIFFERENCES: "Differences",
    DecodeSource.BASE_ENCODING: "base encoding",
    DecodeSource.FONT_PROGRAM: "font program",
    DecodeSource.FALLBACK: "FALLBACK",
    DecodeSource.UNRESOLVED: "UNRESOLVED",
}
"""A decoding step in words (the Fonts tables' "Decoded by"): the alarming two in capitals."""


@dataclass(frozen=True, slots=True)
class FontCodeRow:
    explanation: CodeExplanation
    count: int  # glyphs of the page painted with this code
    paint_indices: tuple[int, ...]
    engine_unicode: str  # what the page's glyph records say (should equal explanation.unicode)
    engine_source: DecodeSource

    @property
    def code(self) -> str:
        e = self.explanation
        return code_hex(e.code, e.code_bytes)

    def cells(self) -> tuple[str, ...]:
        """The row's values, short enough for a narrow dock: where each came from is in `sources`."""
        e = self.explanation
        name = f"/{e.glyph_name}" if e.glyph_name else "—"
        cid = str(e.cid) if e.cid is not None else "—"
        gid = str(e.gid) if e.gid is not None else "—"
        uni = describe_unicode(self.engine_unicode) if self.engine_unicode else "UNRESOLVED"
        source = SOURCE_WORDS.get(self.engine_source, self.engine_source.value)
        return (self.code, str(self.count), name, cid, gid, uni, source, f"{e.width * 1000:g}")

    def sources(self) -> tuple[str, ...]:
        """Where each of `cells` came from ("" where the value says it all), column by column."""
        e = self.explanation
        return (
            "",
            "",
            e.glyph_name_source if e.glyph_name else "",
            e.cid_source if e.cid is not None else "",
            e.gid_source if e.gid is not None else "",
            "",
            "",
            e.width_source,
        )

    def chain_text(self) -> list[str]:
        """Every step of the chain with what it gave (the answering one marked)."""
        return chain_lines(self.explanation)


def uniform_columns(rows: list[FontCodeRow]) -> dict[str, str]:
    """The columns the panel hides, with the one value they would show in every row: `FOLDED`
    columns that are "—" in every row, and "Decoded by" when every code was decoded the same way
    (said once instead)."""
    if not rows:
        return {}
    cells = [r.cells() for r in rows]
    uniform = {}
    for name in (*FOLDED, "Decoded by"):
        c = HEADERS.index(name)
        value = cells[0][c]
        if all(row[c] == value for row in cells) and (name == "Decoded by" or value == "—"):
            uniform[name] = value
    return uniform


def _mark(step: ChainStep) -> str:
    if step.answered:
        return "✔"
    return "·" if step.outcome == NOT_REACHED else "✗"


def font_object(
    document: Document, page_number: int, font_key: str, form_path: tuple[str, ...] = ()
) -> pikepdf.Dictionary | None:
    """The /Font resource entry a page (or a form on it) selects by `font_key`; None when absent."""
    with document.locked():
        page_obj = document.page_object(page_number)
        target = form_target(page_obj, tuple(form_path))
        resources = target.resources if target is not None else None
        fonts = resources.get("/Font") if resources is not None else None
        found = fonts.get(font_key) if isinstance(fonts, pikepdf.Dictionary) else None
        return found if isinstance(found, pikepdf.Dictionary) else None


def font_code_rows(
    document: Document, analysis: PageAnalysis, font: FontStats
) -> tuple[list[FontCodeRow], str | None]:
    """The code rows of one font entry of the page product (`analysis.fonts.entries[i]`: the glyphs
    selected through that resource entry), and a problem to show (or None)."""
    page_font = font.page_font
    key, form_path = page_font.font_key, tuple(page_font.form_path)
    page_glyphs = analysis.page.glyphs
    glyphs = [page_glyphs[i] for i in font.selected.glyphs]
    obj = font_object(document, analysis.page_number, key, form_path)
    if obj is None:
        return [], f"font {key} is not in the resources of {' › '.join(form_path) or 'the page'}"
    with document.locked():
        font_program = load_font(obj, key)
        codes: Counter[tuple[int, int]] = Counter((g.code, g.code_bytes) for g in glyphs)
        first: dict[tuple[int, int], Glyph] = {}
        members: dict[tuple[int, int], list[int]] = {}
        for g in glyphs:
            k = (g.code, g.code_bytes)
            first.setdefault(k, g)
            members.setdefault(k, []).append(g.paint_index)
        rows = [
            FontCodeRow(
                explain_code(font_program, code, nbytes),
                n,
                tuple(members[(code, nbytes)]),
                first[(code, nbytes)].unicode,
                first[(code, nbytes)].decode_source,
            )
            for (code, nbytes), n in sorted(codes.items())
        ]
    return rows, None


def glyph_chain(
    document: Document, page: InterpretedPage, glyph: Glyph
) -> tuple[CodeExplanation | None, str | None]:
    """Every step of the decoding chain for one glyph's code (the Fonts › Codes explanation), or
    (None, why not). The font is loaded afresh, as for the code table."""
    obj = font_object(document, page.page_number, glyph.font_key, tuple(glyph.form_path))
    if obj is None:
        where = " › ".join(glyph.form_path) or "the page"
        return None, f"font {glyph.font_key} is not in the resources of {where}"
    with document.locked():
        font = load_font(obj, glyph.font_key)
        return explain_code(font, glyph.code, glyph.code_bytes), None


def chain_lines(explanation: CodeExplanation) -> list[str]:
    """The chain as lines: ✔ the step that answered, ✗ one that gave nothing, · one not reached."""
    return [f"{_mark(s)} {s.name}: {s.outcome}" for s in explanation.steps]


def text_verdict(stats: PageFontStats, font_id: str) -> str:
    """The Fonts table's "Text" cell: `plausible`, `garbled: <reason>` (core/garbled.py), or "" when
    the font painted too few glyphs on the page to judge (or is a symbol font)."""
    verdict = stats.verdicts.get(font_id)
    return verdict.summary() if verdict is not None else ""
