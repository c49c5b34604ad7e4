"""Right-to-left runs painted piece by piece leftwards, put in visual order (plain order; spec §3).

Some producers paint an Arabic or Hebrew line in reading order piece by piece — a word or a
joined group per instruction, each piece itself in visual order (left to right): the pieces
step LEFTWARDS, their glyphs rightwards. Read in paint order the pieces glue (`vis(w1)vis(w2)`)
and the bidi pass, turning the line round as one visual string, writes the words in the wrong
order. Such a run is put in visual order (its glyphs left to right by position) before the
pair rules: word gaps are then measured between neighbours, and the bidi pass turns the line
into reading order as for any visually painted line.

A run: successive glyphs of the flow on one baseline (§4 displacement within line_break × the
larger height) with no strong left-to-right character (bidi class L) and at least one step back
of more than BACKWARD_JUMP box heights (pieces, not glyph-by-glyph painting, which the word-gap
rule already reads). A run with a Latin word keeps its order: its direction is the bidi pass's.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from glyphscope.core.assembly.chars import RTL_CANDIDATE
from glyphscope.core.assembly.lines import BACKWARD_JUMP
from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import GlyphTable, GlyphView


def has_rtl(glyphs: Sequence[Glyph]) -> bool:
    """Whether any glyph's text holds a right-to-left character (off the table's text column
    when there is one: no record is made for a page without any)."""
    if isinstance(glyphs, GlyphView):
        return RTL_CANDIDATE.search("".join(glyphs.table.unicode)) is not None and any(
            RTL_CANDIDATE.search(g.unicode) for g in glyphs
        )
    if isinstance(glyphs, GlyphTable):
        return RTL_CANDIDATE.search("".join(glyphs.unicode)) is not None
    return any(RTL_CANDIDATE.search(g.unicode) for g in glyphs)


def _strong_ltr(text: str) -> bool:
    return any(unicodedata.bidirectional(ch) == "L" for ch in text)


def _along(g: Glyph) -> float:
    ux, uy = g.direction
    return g.origin[0] * ux + g.origin[1] * uy


def rtl_runs_in_visual_order(
    glyphs: Sequence[Glyph], line_break: float
) -> tuple[Sequence[Glyph], list[tuple[int, int, int]]]:
    """`glyphs` with every such run sorted left to right, and per run (first glyph in the new
    order, glyphs, steps back); `glyphs` itself when no run qualifies."""
    if not has_rtl(glyphs):
        return glyphs, []
    original, glyphs = glyphs, tuple(glyphs)
    out: list[Glyph] = []
    runs: list[tuple[int, int, int]] = []
    start = 0
    n = len(glyphs)
    while start < n:
        end = start + 1
        rtl = RTL_CANDIDATE.search(glyphs[start].unicode) is not None
        ltr = _strong_ltr(glyphs[start].unicode)
        back = 0
        while end < n:
            a, b = glyphs[end - 1], glyphs[end]
            ux, uy = a.direction
            displacement = (b.origin[1] - a.origin[1]) * ux - (b.origin[0] - a.origin[0]) * uy
            height = max(a.height, b.height)
            if abs(displacement) > line_break * height or b.direction != a.direction:
                break
            gap = (b.origin[0] - a.glyph_end[0]) * ux + (b.origin[1] - a.glyph_end[1]) * uy
            if height > 0.0 and gap < -BACKWARD_JUMP * height:
                back += 1
            rtl = rtl or RTL_CANDIDATE.search(b.unicode) is not None
            ltr = ltr or _strong_ltr(b.unicode)
            end += 1
        run = glyphs[start:end]
        if rtl and not ltr and back:
            ordered = sorted(run, key=lambda g: (round(_along(g) * 100.0), g.paint_index))
            runs.append((ordered[0].paint_index, len(ordered), back))
            out.extend(ordered)
        else:
            out.extend(run)
        start = end
    return (out, runs) if runs else (original, [])
