"""Right-to-left lines in logical order, by the Unicode bidirectional algorithm.

PDF producers paint Hebrew and Arabic in visual order: the glyphs of a line arrive left
to right as a reader sees them, so every mode's text holds the line reversed (mutool
and pdfminer.six write it so). For a line whose strong characters (bidi classes L, R,
AL) are mostly right to left (share of R + AL > RTL_SHARE), this pass rewrites the
line in logical order: it resolves the embedding levels of the visual string with a
right-to-left paragraph level (UAX #9 rules W1–I2: python-bidi, a binding of the Rust
crate unicode-bidi) and applies rule L2 (reverse every run at level ≥ k, from the
highest level down to the lowest odd one). For the common cases, visual → logical is
exactly that reordering of the visual string: right-to-left runs turn round, numbers
and Latin runs inside them (even levels) keep reading left to right.

Why L2 is ours: python-bidi's Rust binding hands back only the reordered string, no
permutation, and reordering character by character would also reverse the letters
inside one glyph (a lam-alef ligature mapped to "لا", a replacement span). So the
levels come from python-bidi (its documented `debug` output of the resolved levels)
and the reversal runs over *clusters*: the characters one glyph, one replacement span
or one generated decision wrote. The permutation is applied to the line's characters
and to their character-map entries together, so the map stays exact both ways; glyph
records keep paint order. Characters are not mirrored: a bracket keeps the code point
its font maps it to. Leading and trailing white space of a line (layout padding) stays
in place.

Each line holding a strong R/AL character gets a `BidiDecision`: `reordered`, or
`visual` when its right-to-left share is at most RTL_SHARE (a Hebrew word in an
English sentence).
"""

from __future__ import annotations

import re
import unicodedata
from array import array
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar, Literal

from glyphscope.core.decision_protocol import fmt, glyph_json, rounded

if TYPE_CHECKING:
    from glyphscope.core.assembly.page_text import PageText

RTL_SHARE = 0.5
"""A line is right to left when more than this share of its strong characters (bidi
classes L, R, AL; digits and punctuation are weak or neutral and have no direction
of their own) are R or AL."""

_RTL_CANDIDATE = re.compile(
    "[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe\U00010800-\U00010fff\U0001e800-\U0001efff]"
)
"""Blocks holding the R/AL characters (Hebrew, Arabic, Syriac, Thaana, N'Ko, … and their
presentation forms): a page without any is left alone without a per-character test."""

BidiVerdict = Literal["reordered", "visual", "no_levels"]


@dataclass(frozen=True, slots=True)
class BidiDecision:
    """One line holding right-to-left characters: written in logical order, or not.

    glyph = the glyph written first in logical order (None when the line starts with
    generated characters only); value = share of strong R/AL characters among the
    strong characters (`rtl` / `strong`), threshold = RTL_SHARE; verdict `reordered`
    (value > threshold: the line was turned to logical order), `visual` (value ≤ threshold:
    kept as painted) or `no_levels` (value > threshold, but python-bidi could not resolve
    the line, e.g. a lone surrogate from a broken ToUnicode: kept as painted).
    `line` counts the text's lines from 0; `start` and `length` are its characters.
    """

    kind: ClassVar[str] = "bidi"

    line: int
    start: int
    length: int
    first_glyph: int  # paint index, −1 when none
    rtl: int  # characters of bidi class R or AL
    strong: int  # characters of bidi class L, R or AL
    share_threshold: float  # RTL_SHARE
    resolved: bool = True  # the bidirectional algorithm gave the line's levels

    @property
    def glyph(self) -> int | None:
        return self.first_glyph if self.first_glyph >= 0 else None

    @property
    def share(self) -> float:
        return self.rtl / self.strong if self.strong else 0.0

    @property
    def verdict(self) -> BidiVerdict:
        if self.share <= self.share_threshold:
            return "visual"
        return "reordered" if self.resolved else "no_levels"

    @property
    def value(self) -> float:
        return self.share

    @property
    def threshold(self) -> float:
        return self.share_threshold

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.glyph,
            line=self.line,
            start=self.start,
            length=self.length,
            rtl=self.rtl,
            strong=self.strong,
            share=rounded(self.share),
        )

    def describe(self) -> str:
        counts = (
            f"{self.rtl} of its {self.strong} strong characters are right to left (share {fmt(self.share)}"
        )
        if self.verdict == "reordered":
            return (
                f"line {self.line + 1} written in logical order: {counts} > {fmt(self.share_threshold)}); "
                "Unicode bidirectional algorithm, numbers and Latin runs kept left to right"
            )
        if self.verdict == "no_levels":
            return (
                f"line {self.line + 1} kept in visual order: {counts} > {fmt(self.share_threshold)}), "
                "but the bidirectional algorithm could not resolve it (a character it cannot encode)"
            )
        return f"line {self.line + 1} kept in visual order: {counts} ≤ {fmt(self.share_threshold)})"


def _strong_counts(line: str) -> tuple[int, int]:
    rtl = strong = 0
    for ch in line:
        c = unicodedata.bidirectional(ch)
        if c == "R" or c == "AL":
            rtl += 1
            strong += 1
        elif c == "L":
            strong += 1
    return rtl, strong


_LEVELS = re.compile(r"Level\(\s*(\d+)")


def embedding_levels(text: str) -> list[int] | None:
    """Resolved embedding level of each character of `text` in a right-to-left paragraph
    (UAX #9 up to rule I2), from python-bidi; None when it could not tell them."""
    from bidi import get_display  # the Rust binding; imported on the first right-to-left line

    try:
        info = get_display(text, base_dir="R", debug=True)  # debug: the resolved BidiInfo, not the string
    except ValueError:  # UnicodeEncodeError: a lone surrogate from a broken ToUnicode
        return None
    if not isinstance(info, str) or "levels: [" not in info:
        return None
    begin = info.rindex("levels: [")  # after the echoed text, which may hold anything
    per_byte = [int(m) for m in _LEVELS.findall(info, begin, info.index("]", begin))]
    levels: list[int] = []
    b = 0
    for ch in text:  # python-bidi reports one level per UTF-8 byte
        if b >= len(per_byte):
            return None
        levels.append(per_byte[b])
        b += len(ch.encode("utf-8", "surrogatepass"))
    return levels if b == len(per_byte) else None


def l2_order(levels: list[int]) -> list[int]:
    """Rule L2: the order in which to read units with these levels (indices into `levels`)."""
    order = list(range(len(levels)))
    if not levels:
        return order
    highest = max(levels)
    lowest_odd = min((v for v in levels if v % 2), default=highest + 1)
    for level in range(highest, lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = order[i:j][::-1]
            i = j
    return order


def _clusters(glyph: array, decision: array, start: int, stop: int) -> list[tuple[int, int]]:
    """[start, stop) split into the characters one glyph, span or decision wrote (kept whole)."""
    out: list[tuple[int, int]] = []
    i = start
    while i < stop:
        key = (glyph[i], decision[i])
        j = i + 1
        if key[0] >= 0 or key[1] >= 0:
            while j < stop and glyph[j] == key[0] and decision[j] == key[1]:
                j += 1
        out.append((i, j))
        i = j
    return out


def _line_permutation(
    text: str, glyph: array, decision: array, start: int, stop: int
) -> tuple[int, list[int]] | None:
    """New order of the characters of one right-to-left line [start, stop): (first index,
    the old indices in their new order), leading and trailing white space left out."""
    while start < stop and text[start].isspace():
        start += 1
    while stop > start and text[stop - 1].isspace():
        stop -= 1
    if stop - start < 2:
        return start, list(range(start, stop))
    levels = embedding_levels(text[start:stop])
    if levels is None:
        return None
    clusters = _clusters(glyph, decision, start, stop)
    order = l2_order([levels[a - start] for a, _ in clusters])
    return start, [i for k in order for i in range(*clusters[k])]


def logical_order(page: PageText) -> PageText:
    """`page` with each right-to-left line in logical order and a BidiDecision per line
    holding right-to-left characters (appended to the decisions: indices stay valid)."""
    text = page.text
    if not text or _RTL_CANDIDATE.search(text) is None:
        return page
    cm = page.char_map
    lines: list[tuple[int, int, int, int, int, bool]] = []  # number, start, stop, rtl, strong, resolved
    moves: list[tuple[int, list[int]]] = []
    start = 0
    for number, line in enumerate(text.split("\n")):
        stop = start + len(line)
        if _RTL_CANDIDATE.search(line) is not None:
            rtl, strong = _strong_counts(line)
            if rtl:
                resolved = True
                if rtl > RTL_SHARE * strong:
                    move = _line_permutation(text, cm.glyph, cm.decision, start, stop)
                    if move is not None:
                        moves.append(move)
                    resolved = move is not None
                lines.append((number, start, stop, rtl, strong, resolved))
        start = stop + 1
    if not lines:
        return page
    glyph = cm.glyph
    if moves:
        chars = list(text)
        glyph, decision = array("i", cm.glyph), array("i", cm.decision)
        position = array("i", range(len(text)))  # old character index → new
        for begin, order in moves:
            for k, i in enumerate(order):
                chars[begin + k] = text[i]
                glyph[begin + k] = cm.glyph[i]
                decision[begin + k] = cm.decision[i]
                position[i] = begin + k
        # a glyph's characters move as one cluster, in their own order: its first character
        # stays its first (the glyphs of one replacement span share the span's range)
        starts = array("i", cm.glyph_start)
        for p, s in enumerate(starts):
            if 0 <= s < len(position):
                starts[p] = position[s]
        char_map = replace(cm, glyph=glyph, decision=decision, glyph_start=starts)
        page = replace(page, text="".join(chars), char_map=char_map)
    records = [
        BidiDecision(
            number,
            begin,
            stop - begin,
            next((glyph[i] for i in range(begin, stop) if glyph[i] >= 0), -1),
            rtl,
            strong,
            RTL_SHARE,
            resolved,
        )
        for number, begin, stop, rtl, strong, resolved in lines
    ]
    return replace(page, decisions=page.decisions.extended(records))
