"""Page checks: problems the text shows although no single glyph or operator is wrong.

Findings of the page product (`PageAnalysis.findings`, core/analysis.py) like
any other: the window's Diagnostics, `glyphscope diagnostics` and triage list
them. They live beside triage, whose score they were first written for.

A space character painted inside a word: the PDF paints "inv", a space glyph
and "oice", then kerns back, so the page shows "invoice" while every text
mode (and every other extractor) reads "inv oice" and a search for the word
fails. The glyphs say it: between two letters, a painted space, and from the
end of the first letter to the start of the next less than the word-gap
threshold — without the painted space no space would have been inserted.
"""

from __future__ import annotations

import math
from bisect import bisect_right
from collections.abc import Sequence

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.glyph import Glyph
from glyphscope.core.glyph_table import GlyphTable, GlyphView
from glyphscope.core.page import InterpretedPage
from glyphscope.core.params import Parameters
from glyphscope.core.passes import ClassifiedGlyphs
from glyphscope.core.visibility import ClippedDecision, HiddenRecord, why_hidden
from glyphscope.core.visibility_class import VisibilityClass

SPACES = frozenset(" \u00a0\u2002\u2003\u2009\u202f")
CONTEXT_LETTERS = 8  # letters quoted either side of a painted space
SAMPLES = 3


def _letters(text: str) -> bool:
    return len(text) >= 1 and all(ch.isalnum() for ch in text)


def _letter(g: Glyph) -> bool:
    return _letters(g.unicode)


def _gap_along(a: Glyph, b: Glyph) -> tuple[float, float]:
    """(distance from a's glyph end to b's origin along a's writing direction, offset across it)."""
    dx, dy = b.origin[0] - a.glyph_end[0], b.origin[1] - a.glyph_end[1]
    ux, uy = a.direction
    return dx * ux + dy * uy, -dx * uy + dy * ux


def _texts(glyphs: Sequence[Glyph]) -> Sequence[str]:
    """Each glyph's text, off the table's column when the glyphs are a table or a view of one."""
    if isinstance(glyphs, GlyphView):
        column = glyphs.table.unicode
        return [column[i] for i in glyphs.indices]
    if isinstance(glyphs, GlyphTable):
        return glyphs.unicode
    return [g.unicode for g in glyphs]


def painted_spaces_inside_words(visible: Sequence[Glyph], word_gap: float) -> list[tuple[int, float, float]]:
    """(paint index of the space, gap between the letters either side, the threshold) for every painted
    space between two letters on one line whose letters are closer than `word_gap` × their height."""
    found: list[tuple[int, float, float]] = []
    texts = _texts(visible)
    for i in range(1, len(visible) - 1):
        text = texts[i]
        if (
            not text
            or any(ch not in SPACES for ch in text)
            or not (_letters(texts[i - 1]) and _letters(texts[i + 1]))
        ):
            continue  # decided on the text column: glyph records are made for candidates only
        s, a, b = visible[i], visible[i - 1], visible[i + 1]
        if a.form_path != b.form_path:
            continue
        em = max(a.height, b.height) or abs(a.font_size) or 1.0
        along, across = _gap_along(a, b)
        threshold = word_gap * em
        if abs(across) < 0.5 * em and -0.5 * em < along < threshold and math.isfinite(along):
            found.append((s.paint_index, round(along, 3), round(threshold, 3)))
    return found


def outside_spans(
    found: list[tuple[int, float, float]], spans: Sequence[ActualTextSpan]
) -> list[tuple[int, float, float]]:
    """The painted spaces not inside an /ActualText span: the span's text replaces them in every mode."""
    if not spans or not found:
        return found
    ranges = sorted((s.first, s.last) for s in spans)
    firsts = [r[0] for r in ranges]
    kept = []
    for item in found:
        i = bisect_right(firsts, item[0]) - 1
        if i < 0 or item[0] > ranges[i][1]:
            kept.append(item)
    return kept


def sample(visible: Sequence[Glyph], paint_index: int) -> str:
    """The letters around a painted space as the text reads them, e.g. “Inv oice”."""
    pos = next((i for i, g in enumerate(visible) if g.paint_index == paint_index), None)
    if pos is None:
        return ""
    left: list[str] = []
    for g in reversed(visible[max(0, pos - CONTEXT_LETTERS) : pos]):
        if not _letter(g):
            break
        left.append(g.unicode)
    right: list[str] = []
    for g in visible[pos + 1 : pos + 1 + CONTEXT_LETTERS]:
        if not _letter(g):
            break
        right.append(g.unicode)
    return "".join(reversed(left)) + " " + "".join(right)


def painted_space_findings(
    page: InterpretedPage, classified: ClassifiedGlyphs, params: Parameters
) -> list[Diagnostic]:
    """One warning for the space characters painted inside words, with the first one's numbers."""
    visible = classified.visible
    found = painted_spaces_inside_words(visible, params.word_gap)
    if params.actual_text:  # a space under /ActualText is not in the text: nothing to report
        found = outside_spans(found, page.actual_text)
    if not found:
        return []
    _, gap, threshold = found[0]
    quoted = "; ".join(f"“{sample(visible, i)}”" for i, _, _ in found[:SAMPLES])
    return [
        Diagnostic(
            DiagnosticKind.PAINTED_SPACE_IN_WORD,
            Severity.WARNING,
            f"{len(found)} space character(s) painted inside words: the page shows no gap "
            f"(e.g. {gap:g} < {threshold:g} = word gap × height) but every text reads a space: {quoted}",
            page=page.page_number,
            glyphs=tuple(i for i, _, _ in found),
            count=len(found),
            measured=gap,
            threshold=threshold,
        )
    ]


HIDDEN_TEXT_KINDS: dict[str, DiagnosticKind] = {
    VisibilityClass.INVISIBLE_MODE: DiagnosticKind.HIDDEN_TEXT_INVISIBLE_MODE,
    VisibilityClass.CLIPPED: DiagnosticKind.HIDDEN_TEXT_CLIPPED,
    VisibilityClass.TRANSPARENT: DiagnosticKind.HIDDEN_TEXT_TRANSPARENT,
    VisibilityClass.SAME_AS_BACKGROUND: DiagnosticKind.HIDDEN_TEXT_SAME_AS_BACKGROUND,
    VisibilityClass.COVERED: DiagnosticKind.HIDDEN_TEXT_COVERED,
}
"""The finding kind of each visibility class (core/visibility.py)."""

# an OCR layer is there on purpose; the others warn
_HIDDEN_SEVERITY: dict[str, Severity] = {VisibilityClass.INVISIBLE_MODE: Severity.INFO}
HIDDEN_TEXT_QUOTED = 40  # glyphs of a class quoted in its finding


def _other_clips(records: list[HiddenRecord]) -> str:
    """When the clipped glyphs of a page are clipped by several paths, each path with its glyphs:
    the first glyph's explanation names only its own."""
    counts: dict[str, int] = {}
    for r in records:
        if isinstance(r, ClippedDecision):
            counts[r.where()] = counts.get(r.where(), 0) + 1
    if len(counts) < 2:
        return ""
    return " (clipped by " + "; ".join(f"{where}: {n} glyph(s)" for where, n in counts.items()) + ")"


def hidden_text_findings(page: InterpretedPage, classified: ClassifiedGlyphs) -> list[Diagnostic]:
    """Text a reader cannot see, one finding per visibility class on the page: how many glyphs,
    what they read, and why (the first glyph's decision in words)."""
    vis = classified.visibility
    if vis is None or not vis.records:
        return []
    glyphs = page.glyphs
    by_class: dict[str, list[HiddenRecord]] = {}
    for r in vis.records:
        by_class.setdefault(r.kind, []).append(r)
    out = []
    for cls, records in by_class.items():
        text = "".join(glyphs[r.paint_index].unicode for r in records[:HIDDEN_TEXT_QUOTED]).strip()
        fate = "dropped from text" if records[0].dropped else "in every text, though a reader cannot see it"
        indices = tuple(r.paint_index for r in records)
        out.append(
            Diagnostic(
                HIDDEN_TEXT_KINDS[cls],
                _HIDDEN_SEVERITY.get(cls, Severity.WARNING),
                f"{len(records)} glyph(s) {cls.replace('_', ' ')}: “{text}” — {why_hidden(records[0])}; {fate}"
                + _other_clips(records),
                page=page.page_number,
                glyphs=indices,
                count=len(indices),
            )
        )
    return out
