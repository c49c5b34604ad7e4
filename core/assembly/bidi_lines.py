"""A right-to-left line as a reader checks it: its glyphs, its text as painted and as written.

Read by the page's view model (Glyph details) and by the right-to-left layer's builder, from a
mode's PageText and its `BidiDecision`s (core/assembly/bidi.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from glyphscope.core.assembly.decisions import BidiDecision
from glyphscope.core.assembly.verdicts import BidiVerdict

if TYPE_CHECKING:
    from glyphscope.core.assembly.page_text import PageText
    from glyphscope.core.glyph import Glyph


@dataclass(frozen=True, slots=True)
class BidiLine:
    """A line's right-to-left decision with what a reader checks it against: the line's glyphs,
    its text as painted (left to right on the page) and as written (the mode's text)."""

    decision: BidiDecision
    glyphs: tuple[int, ...]  # paint order
    painted: str  # its glyphs' text from left to right on the page
    written: str  # the line as the mode's text writes it

    @property
    def reads_right_to_left(self) -> bool:
        """The order written runs against the page's left-to-right order (reordered, or painted so)."""
        return self.decision.verdict in (BidiVerdict.REORDERED, BidiVerdict.PAINTED_LOGICAL)


def bidi_lines(text: PageText, glyphs: Sequence[Glyph]) -> list[BidiLine]:
    """Every line of `text` holding right-to-left characters, with its decision (core/assembly/bidi.py)."""
    return [_bidi_line(text, glyphs, d) for d in text.decisions_of(BidiDecision)]


def _bidi_line(text: PageText, glyphs: Sequence[Glyph], d: BidiDecision) -> BidiLine:
    n = len(glyphs)
    chars = range(d.start, d.start + d.length)
    line = sorted({g for c in chars if 0 <= (g := text.glyph_of_char(c)) < n})
    painted = "".join(glyphs[g].unicode for g in sorted(line, key=lambda g: glyphs[g].quad[0][0]))
    return BidiLine(d, tuple(line), painted, (text.text or "")[d.start : d.start + d.length])


def bidi_line_of(text: PageText, glyphs: Sequence[Glyph], paint_index: int) -> BidiLine | None:
    """The right-to-left line (of `bidi_lines`) that glyph `paint_index` is written in, if any."""
    chars = text.chars_of_glyph(paint_index)
    if not len(chars):
        return None
    c = chars[0]
    for d in text.decisions_of(BidiDecision):
        if d.start <= c < d.start + d.length:
            return _bidi_line(text, glyphs, d)
    return None
