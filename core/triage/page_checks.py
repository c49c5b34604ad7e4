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
from collections.abc import Sequence

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
