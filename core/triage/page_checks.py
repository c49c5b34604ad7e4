"""Page checks that only triage and its report make: problems the text shows but no engine finding names.

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
from dataclasses import dataclass
from typing import Any

from glyphscope.core.diagnostics import Severity
from glyphscope.core.glyph import Glyph

PAINTED_SPACE_KIND = "painted_space_in_word"
SPACES = frozenset(" \u00a0\u2002\u2003\u2009\u202f")
CONTEXT_LETTERS = 8  # letters quoted either side of a painted space
SAMPLES = 3


def _letter(g: Glyph) -> bool:
    return len(g.unicode) >= 1 and all(ch.isalnum() for ch in g.unicode)


def _gap_along(a: Glyph, b: Glyph) -> tuple[float, float]:
    """(distance from a's glyph end to b's origin along a's writing direction, offset across it)."""
    dx, dy = b.origin[0] - a.glyph_end[0], b.origin[1] - a.glyph_end[1]
    ux, uy = a.direction
    return dx * ux + dy * uy, -dx * uy + dy * ux


def painted_spaces_inside_words(visible: Sequence[Glyph], word_gap: float) -> list[tuple[int, float, float]]:
    """(paint index of the space, gap between the letters either side, the threshold) for every painted
    space between two letters on one line whose letters are closer than `word_gap` × their height."""
    found: list[tuple[int, float, float]] = []
    for i in range(1, len(visible) - 1):
        s = visible[i]
        if not s.unicode or any(ch not in SPACES for ch in s.unicode):
            continue
        a, b = visible[i - 1], visible[i + 1]
        if not (_letter(a) and _letter(b)) or a.form_path != b.form_path:
            continue
        em = max(a.height, b.height) or abs(a.font_size) or 1.0
        along, across = _gap_along(a, b)
        threshold = word_gap * em
        if abs(across) < 0.5 * em and -0.5 * em < along < threshold and math.isfinite(along):
            found.append((s.paint_index, round(along, 3), round(threshold, 3)))
    return found


def outside_spans(
    found: list[tuple[int, float, float]], spans: Sequence[Any]
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


HIDDEN_TEXT_KINDS = {
    "invisible_mode": "hidden_text_invisible_mode",
    "clipped": "hidden_text_clipped",
    "transparent": "hidden_text_transparent",
    "same_as_background": "hidden_text_same_as_background",
    "covered": "hidden_text_covered",
}
"""Triage finding kind per visibility class (issue 12)."""

_HIDDEN_SEVERITY = {"invisible_mode": Severity.INFO}  # an OCR layer is there on purpose; others warn


@dataclass(frozen=True, slots=True)
class HiddenTextCheck:
    kind: str
    severity: Severity
    message: str
    glyphs: tuple[int, ...]


def hidden_text(analysis: Any) -> list[HiddenTextCheck]:
    """Text a reader cannot see, one finding per visibility class on the page: how many glyphs,
    what they read, and why (the first glyph's decision in words)."""
    from glyphscope.core.visibility import explain

    vis = analysis.classified.visibility
    if vis is None or not vis.records:
        return []
    glyphs = analysis.page.glyphs
    by_class: dict[str, list[Any]] = {}
    for r in vis.records:
        by_class.setdefault(r.kind, []).append(r)
    out = []
    for cls, records in by_class.items():
        text = "".join(glyphs[r.paint_index].unicode for r in records[:40]).strip()
        fate = (
            "dropped from text"
            if records[0].verdict == "dropped"
            else "in every text, though a reader cannot see it"
        )
        message = f"{len(records)} glyph(s) {cls.replace('_', ' ')}: “{text}” — {explain(records[0])}; {fate}"
        out.append(
            HiddenTextCheck(
                HIDDEN_TEXT_KINDS[cls],
                _HIDDEN_SEVERITY.get(cls, Severity.WARNING),
                message,
                tuple(r.paint_index for r in records),
            )
        )
    return out
