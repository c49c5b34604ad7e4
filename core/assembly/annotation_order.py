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

Annotations that land at the same place keep reading order among themselves (top to bottom,
then left to right). The line-break and word-gap rules then decide between the page's
glyphs and the annotation's as between any two glyphs.
"""

from __future__ import annotations

from collections.abc import Sequence

from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import GlyphView

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


def annotations_in_place(visible: Sequence[Glyph]) -> Sequence[Glyph]:
    """`visible` (paint order) with each annotation's glyphs moved to where a reader meets them;
    `visible` itself when no glyph is an annotation's."""
    if not _has_annotation_glyphs(visible):
        return visible
    glyphs = tuple(visible)
    page = [g for g in glyphs if g.annotation < 0]
    blocks: dict[int, list[Glyph]] = {}
    for g in glyphs:
        if g.annotation >= 0:
            blocks.setdefault(g.annotation, []).append(g)
    after: dict[int, list[list[Glyph]]] = {}
    for block in blocks.values():
        after.setdefault(_predecessor(page, block[0]), []).append(block)
    out: list[Glyph] = []

    def place(k: int) -> None:
        for block in sorted(after.get(k, ()), key=lambda b: (-b[0].center[1], b[0].center[0])):
            out.extend(block)

    place(-1)
    for k, g in enumerate(page):
        out.append(g)
        place(k)
    return tuple(out)
