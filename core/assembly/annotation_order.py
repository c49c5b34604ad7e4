"""Annotation text where a reader meets it (issue: text a viewer draws from annotations).

An annotation's appearance is painted after the page's content, so in paint order — plain
mode's order — a form's field values would all come after the page's last line
(`Name:` / `Agree:` / `Jane Doe` / `X`). MuPDF and pdftotext read them where they stand:
`Name: Jane Doe`. Each annotation's glyphs are moved, as one block, to after the page glyph
that comes just before its first glyph in reading order:

1. the page glyph on the same line (box centres less than half the taller box height apart
   across the line) that lies furthest right while still left of it;
2. else the last glyph, in that sense, of the nearest line above it;
3. else before every page glyph (the annotation is at the top of the page).

Never inside a page word: a widget painted over its label (`Check Box` under a check box's
appearance) has its first glyph's centre inside the word, and rule 1 finds a letter in the
middle of it (`Chec` … `k Box`). The place then moves on, in the page's order, to the end
of that word: past every following page glyph on the line that the word-gap rule (spec §3)
glues to the one before it. An `annotation_placed` decision names the glyph the rule found
and the word end the text was written after.

Annotations that land at the same place keep reading order among themselves (top to bottom,
then left to right). The line-break and word-gap rules then decide between the page's
glyphs and the annotation's as between any two glyphs.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.assembly.lines import line_break_measure
from glyphscope.core.assembly.verdicts import LB_SAME_LINE, WG_BELOW_THRESHOLD, WG_NEGATIVE_GAP, WG_TRACKING
from glyphscope.core.assembly.words import word_gap_measure
from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import GlyphView
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters

_GLUED = (WG_BELOW_THRESHOLD, WG_NEGATIVE_GAP, WG_TRACKING)

SAME_LINE = 0.5
"""Two box centres whose distance across the line is under this share of the taller box's
height are on one line."""


def _has_annotation_glyphs(visible: Sequence[Glyph]) -> bool:
    if isinstance(visible, GlyphView):
        runs = visible.table.runs
        return any(run.annotation >= 0 for run in runs)
    return any(g.annotation >= 0 for g in visible)


def _predecessor(page: Sequence[Glyph], first: Glyph) -> int:
    """The index in `page` of the glyph read just before `first` (rules 1 and 2), or -1."""
    fx, fy = first.center
    same_line, best_x = -1, float("-inf")
    nearest_above = float("inf")  # the centre of the nearest glyph above, across the line
    for k, g in enumerate(page):
        gx, gy = g.center
        if abs(gy - fy) < SAME_LINE * max(g.height, first.height):
            if best_x <= gx < fx:
                same_line, best_x = k, gx
        elif fy < gy < nearest_above:
            nearest_above = gy
    if same_line >= 0 or nearest_above == float("inf"):
        return same_line
    above, best_x = -1, float("-inf")
    for k, g in enumerate(page):  # that line's rightmost glyph
        gx, gy = g.center
        if abs(gy - nearest_above) < SAME_LINE * g.height and gx >= best_x:
            above, best_x = k, gx
    return above


def _word_end(page: Sequence[Glyph], k: int, params: Parameters) -> int:
    """The last glyph of the page word glyph `k` belongs to (spec §3 glues it to the one before)."""
    while 0 <= k < len(page) - 1:
        a, b = page[k], page[k + 1]
        if a.is_space or b.is_space or line_break_measure(a, b, params.line_break)[0] != LB_SAME_LINE:
            break
        if word_gap_measure(a, b, params)[0] not in _GLUED:
            break
        k += 1
    return k


def annotation_places(
    visible: Sequence[Glyph], params: Parameters = DEFAULT_PARAMETERS
) -> tuple[Sequence[Glyph], list[tuple[int, int, int]]]:
    """annotations_in_place, and for every annotation placed after a word end rather than the
    letter rule 1 or 2 found: (annotation's first glyph, letter found, word end), paint indices."""
    if not _has_annotation_glyphs(visible):
        return visible, []
    moved: list[tuple[int, int, int]] = []
    out = _in_place(visible, params, moved)
    return out, moved


def annotations_in_place(
    visible: Sequence[Glyph], params: Parameters = DEFAULT_PARAMETERS
) -> Sequence[Glyph]:
    """`visible` (paint order) with each annotation's glyphs moved to where a reader meets them;
    `visible` itself when no glyph is an annotation's."""
    if not _has_annotation_glyphs(visible):
        return visible
    return _in_place(visible, params, [])


def _in_place(
    visible: Sequence[Glyph], params: Parameters, moved: list[tuple[int, int, int]]
) -> Sequence[Glyph]:
    glyphs = tuple(visible)
    page = [g for g in glyphs if g.annotation < 0]
    blocks: dict[int, list[Glyph]] = {}
    for g in glyphs:
        if g.annotation >= 0:
            blocks.setdefault(g.annotation, []).append(g)
    after: dict[int, list[list[Glyph]]] = {}
    for block in blocks.values():
        found = _predecessor(page, block[0])
        end = _word_end(page, found, params)
        if end != found:
            moved.append((block[0].paint_index, page[found].paint_index, page[end].paint_index))
        after.setdefault(end, []).append(block)
    out: list[Glyph] = []

    def place(k: int) -> None:
        for block in sorted(after.get(k, ()), key=lambda b: (-b[0].center[1], b[0].center[0])):
            out.extend(block)

    place(-1)
    for k, g in enumerate(page):
        out.append(g)
        place(k)
    return tuple(out)
