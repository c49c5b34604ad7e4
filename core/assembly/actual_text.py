"""Marked-content replacement text in assembly (/ActualText, /E).

The interpreter records each outermost span with a replacement text
(core/actual_text.py). With `Parameters.actual_text` on, every text mode writes
the span's text ONCE, where the span's first emitted glyph stands; the span's
other glyphs write nothing, and no word-gap or line-break decision is taken
between two glyphs of one span (a word hyphenated across two lines under one
ActualText reads as one word). Pairs across the span's edges are decided with
the replacement's first and last characters. The glyph records keep their own
Unicode.

Character map: every replacement character is linked to the span's first
emitted glyph (`CharMap.glyph`), and `chars_of_glyph(p)` gives the replacement's
character range for EVERY visible glyph p of the span, so selecting any of its
glyphs selects the whole replacement, and selecting a replacement character
selects the glyph it stands for. A replacement that writes nothing (a soft
hyphen) gives its glyphs an empty range at that place.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from glyphscope.core.actual_text import ActualTextSpan
from glyphscope.core.assembly.chars import expand_ligatures
from glyphscope.core.decision_protocol import DecisionKind, NothingCompared, glyph_json

SOFT_HYPHEN = "\u00ad"
"""A discretionary hyphen marks where a word may be broken; in running text it is
invisible. Producers wrap a hyphenation point in an ActualText of U+00AD (the glyph
painted is a space or a hyphen): the written text leaves it out, so the word reads and
is found whole ("Mitarbeiterinnen", not "Mit arbei terinnen"). The decision keeps it."""

_LINE_CONTROLS = {c: " " for c in (0x2028, 0x2029)}


def written_text(replacement: str, *, expand: bool = True) -> str:
    """What the text holds for a replacement: soft hyphens left out, control characters
    (a line break is only assembly's to decide, spec §9) as spaces, ligature code points as
    letters unless Parameters.keep_ligatures."""
    text = replacement.replace(SOFT_HYPHEN, "")
    if not text.isprintable():
        text = "".join(" " if (ch < " " or "\x7f" <= ch <= "\x9f") else ch for ch in text)
        text = text.translate(_LINE_CONTROLS)
    if expand:
        text = expand_ligatures(text) or text
    return text


class ActualTextSpans:
    """A page's spans, found by paint index in O(log n) (spans never overlap: outermost only)."""

    __slots__ = ("spans", "_starts")

    def __init__(self, spans: Sequence[ActualTextSpan]) -> None:
        self.spans: tuple[ActualTextSpan, ...] = tuple(sorted(spans, key=lambda s: s.first))
        self._starts = [s.first for s in self.spans]

    def __len__(self) -> int:
        return len(self.spans)

    def span_of(self, paint_index: int) -> int:
        """Index of the span holding the glyph, -1 when it is in none."""
        i = bisect_right(self._starts, paint_index) - 1
        if i >= 0 and paint_index <= self.spans[i].last:
            return i
        return -1


def span_index(spans: Sequence[ActualTextSpan], enabled: bool) -> ActualTextSpans | None:
    """The lookup assembly uses, or None when the switch is off or the page has no span."""
    if not enabled or not spans:
        return None
    return ActualTextSpans(spans)


@dataclass(frozen=True, slots=True)
class ActualTextDecision(NothingCompared):
    """The glyphs of one marked-content span written as the span's replacement text.

    glyph = the span's first emitted glyph (where the text stands); `first`/`last` = the
    span's paint-index range; `replacement` = the declared /ActualText or /E; `replaced`
    = what its visible glyphs would have written (in emission order); `written` = what
    the text holds (`replacement` without soft hyphens, controls as spaces). Verdict
    "replaced"; no number is compared: value and threshold are None.
    """

    kind: ClassVar[str] = DecisionKind.ACTUAL_TEXT

    emitted_at: int
    span: ActualTextSpan
    written: str
    replaced: str
    glyphs: tuple[int, ...]  # the span's visible glyphs, in emission order

    @property
    def glyph(self) -> int:
        return self.emitted_at

    @property
    def first(self) -> int:
        return self.span.first

    @property
    def last(self) -> int:
        return self.span.last

    @property
    def replacement(self) -> str:
        return self.span.text

    @property
    def key(self) -> str:
        return self.span.key_name

    @property
    def verdict(self) -> str:
        return "replaced"

    def to_json(self) -> dict[str, Any]:
        s = self.span
        return glyph_json(
            self,
            self.emitted_at,
            first=s.first,
            last=s.last,
            key=self.key,
            replacement=s.text,
            replaced=self.replaced,
            written=self.written,
            glyphs=list(self.glyphs),
            tag=s.tag,
            token_index=s.token_index,
            stream_index=s.stream_index,
            form_path=list(s.form_path),
        )

    def describe(self) -> str:
        s = self.span
        n = len(self.glyphs)
        where = f"instruction {s.token_index}" if s.token_index >= 0 else f"form {' → '.join(s.form_path)}"
        what = "expansion /E" if s.key == "/E" else "/ActualText"
        glyphs = f"glyph #{s.first}" if s.first == s.last else f"glyphs #{s.first}–#{s.last}"
        text = (
            f"the {what} {s.text!r} of marked content {s.tag} (BDC at {where}, {glyphs}) "
            f"replaces the text {self.replaced!r} of its {n} visible glyph{'s' if n != 1 else ''}"
        )
        if self.written != s.text:
            why = "; soft hyphens are not written" if SOFT_HYPHEN in s.text else ""
            text += f", written as {self.written!r}{why}"
        return text
