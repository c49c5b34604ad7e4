"""Right-to-left lines in logical order, by the Unicode bidirectional algorithm.

PDF producers paint Hebrew and Arabic in visual order: the glyphs of a line arrive left
to right as a reader sees them, so every mode's text holds the line reversed (mutool
and pdfminer.six write it so). For a line whose strong characters (bidi classes L, R,
AL) are mostly right to left (share of R + AL > RTL_SHARE), this pass rewrites the
line in logical order: it resolves the embedding levels of the visual string with a
right-to-left paragraph level (UAX #9 rules X1–I2: python-bidi's `bidi.algorithm`) and
applies rule L2 (reverse every run at level ≥ k, from the highest level down to the
lowest odd one). For the common cases, visual → logical is
exactly that reordering of the visual string: right-to-left runs turn round, numbers
and Latin runs inside them (even levels) keep reading left to right.

Why L2 is ours: python-bidi's `get_display` hands back only the reordered string, no
permutation, and reordering character by character would also reverse the letters
inside one glyph (a lam-alef ligature mapped to "لا", a replacement span). So the
levels come from python-bidi's public step-by-step API (`bidi.algorithm`: explicit
levels, weak and neutral types, implicit levels — the pure-Python implementation, which
predates the bracket-pair rule N0 of Unicode 6.3: on random strings with brackets 65 of
3,000 lines resolve a bracket differently from the Rust binding's `get_display`, none
without brackets) and the reversal runs over *clusters*: the characters one glyph, one replacement span
or one generated decision wrote. The permutation is applied to the line's characters
and to their character-map entries together, so the map stays exact both ways; glyph
records keep paint order. Characters are not mirrored: a bracket keeps the code point
its font maps it to. Leading and trailing white space of a line (layout padding) stays
in place.

A line whose first and last strong characters (as painted) are both R or AL is right to
left whatever its share: a Latin word between Arabic words (`قال habibi لي`, 5 of 11
strong characters right to left) is a Latin word inside a right-to-left line.

Each line holding a strong R/AL character gets a `BidiDecision`: `reordered`, or
`visual` when its right-to-left share is at most RTL_SHARE and a left-to-right character
begins or ends it (a Hebrew word in an English sentence).
"""

from __future__ import annotations

import unicodedata
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from glyphscope.core.assembly.chars import RTL_CANDIDATE as _RTL_CANDIDATE
from glyphscope.core.assembly.verdicts import BidiVerdict
from glyphscope.core.decision_protocol import DecisionKind, fmt, glyph_json, rounded

if TYPE_CHECKING:
    from glyphscope.core.assembly.page_text import PageText
    from glyphscope.core.glyph import FlowFields

RTL_SHARE = 0.5
"""A line is right to left when more than this share of its strong characters (bidi
classes L, R, AL; digits and punctuation are weak or neutral and have no direction
of their own) are R or AL."""


@dataclass(frozen=True, slots=True)
class BidiDecision:
    """One line holding right-to-left characters: written in logical order, or not.

    glyph = the glyph written first in logical order (None when the line starts with
    generated characters only); value = share of strong R/AL characters among the
    strong characters (`rtl` / `strong`), threshold = RTL_SHARE; verdict `reordered`
    (value > threshold: the line was turned to logical order), `visual` (value ≤ threshold:
    kept as painted), `painted_logical` (its right-to-left glyphs follow each other leftwards
    in the text — `steps_back` of `steps` — so the producer painted them in reading order and
    the text already reads right: kept) or `no_levels` (value > threshold, but python-bidi
    could not resolve the line — a python-bidi without its `bidi.algorithm` steps: kept).
    `line` counts the text's lines from 0; `start` and `length` are its characters.
    """

    kind: ClassVar[str] = DecisionKind.BIDI

    line: int
    start: int
    length: int
    first_glyph: int  # paint index, −1 when none
    rtl: int  # characters of bidi class R or AL
    strong: int  # characters of bidi class L, R or AL
    share_threshold: float  # RTL_SHARE
    resolved: bool = True  # the bidirectional algorithm gave the line's levels
    rtl_ends: bool = False  # its first and last strong characters are R/AL: right to left whatever the share
    steps: int = 0  # pairs of successive right-to-left glyphs in the text (their own glyphs)
    steps_back: int = 0  # … of which the second stands before the first in the writing direction

    @property
    def glyph(self) -> int | None:
        return self.first_glyph if self.first_glyph >= 0 else None

    @property
    def share(self) -> float:
        return self.rtl / self.strong if self.strong else 0.0

    @property
    def verdict(self) -> BidiVerdict:
        if self.share <= self.share_threshold and not self.rtl_ends:
            return BidiVerdict.VISUAL
        if self.steps_back * 2 > self.steps:
            return BidiVerdict.PAINTED_LOGICAL
        return BidiVerdict.REORDERED if self.resolved else BidiVerdict.NO_LEVELS

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
            rtl_ends=self.rtl_ends,
            steps=self.steps,
            steps_back=self.steps_back,
        )

    def describe(self) -> str:
        counts = (
            f"{self.rtl} of its {self.strong} strong characters are right to left (share {fmt(self.share)}"
        )
        why = (
            f"{counts} > {fmt(self.share_threshold)})"
            if self.share > self.share_threshold
            else f"its first and last strong characters are right to left ({counts} ≤ {fmt(self.share_threshold)}))"
        )
        if self.verdict == BidiVerdict.PAINTED_LOGICAL:
            return (
                f"line {self.line + 1} kept as painted: {why}, but {self.steps_back} of the {self.steps} steps "
                "between its right-to-left glyphs go right to left — painted in reading order, it already reads right"
            )
        if self.verdict == BidiVerdict.REORDERED:
            return (
                f"line {self.line + 1} written in logical order: {why}; "
                "Unicode bidirectional algorithm, numbers and Latin runs kept left to right"
            )
        if self.verdict == BidiVerdict.NO_LEVELS:
            return (
                f"line {self.line + 1} kept in visual order: {why}, "
                "but the bidirectional algorithm could not resolve it (python-bidi gave no levels)"
            )
        return f"line {self.line + 1} kept in visual order: {counts} ≤ {fmt(self.share_threshold)})"


def _strong_counts(line: str) -> tuple[int, int, bool]:
    """(R + AL characters, strong characters, whether the first and the last strong character
    are both R or AL)."""
    rtl = strong = 0
    first = last = ""
    for ch in line:
        c = unicodedata.bidirectional(ch)
        if c == "R" or c == "AL" or c == "L":
            rtl += c != "L"
            strong += 1
            first = first or c
            last = c
    return rtl, strong, first != "L" and last != "L" and strong > 0


def embedding_levels(text: str) -> list[int] | None:
    """Resolved embedding level of each character of `text` in a right-to-left paragraph
    (UAX #9 X1–I2), from python-bidi's public `bidi.algorithm` steps; None when it could not
    tell them (python-bidi without that module, or a character it fails on)."""
    try:
        from bidi import algorithm  # imported on the first right-to-left line

        storage = algorithm.get_empty_storage()
        storage["base_level"], storage["base_dir"] = 1, "R"
        algorithm.get_embedding_levels(text, storage)
        algorithm.explicit_embed_and_overrides(storage)
        algorithm.resolve_weak_types(storage)
        algorithm.resolve_neutral_types(storage, False)
        algorithm.resolve_implicit_levels(storage, False)
        levels = [int(c["level"]) for c in storage["chars"]]
    except Exception:  # noqa: BLE001 — an unexpected python-bidi: the line stays as painted
        return None
    return levels if len(levels) == len(text) else None


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


def _steps(
    text: str, glyph: array, start: int, stop: int, where: Mapping[int, tuple[float, ...]]
) -> tuple[int, int]:
    """(steps, steps back): successive R/AL characters of [start, stop) from two different glyphs,
    and how many of them go against the first glyph's writing direction (the second glyph's
    origin before the first's): visual order steps forwards, reading order backwards."""
    steps = back = 0
    for i in range(start, stop - 1):
        a, b = glyph[i], glyph[i + 1]
        if a < 0 or b < 0 or a == b or a not in where or b not in where:
            continue
        if unicodedata.bidirectional(text[i]) not in ("R", "AL"):
            continue
        if unicodedata.bidirectional(text[i + 1]) not in ("R", "AL"):
            continue
        ax, ay, dx, dy = where[a]
        bx, by = where[b][:2]
        along = (bx - ax) * dx + (by - ay) * dy
        if along:
            steps += 1
            back += along < 0
    return steps, back


def logical_order(page: PageText, glyphs: Iterable[FlowFields] = ()) -> PageText:
    """`page` with each right-to-left line in logical order and a BidiDecision per line
    holding right-to-left characters (appended to the decisions: indices stay valid).
    `glyphs`: the glyphs the text was assembled from (their origins tell a line painted in
    reading order, whose text is kept); read only when a line holds right-to-left letters."""
    text = page.text
    if not text or _RTL_CANDIDATE.search(text) is None:
        return page
    where = {g.paint_index: (*g.origin, *g.direction) for g in glyphs}
    cm = page.char_map
    lines: list[tuple[int, int, int, int, int, bool, bool, int, int]] = []  # see BidiDecision
    moves: list[tuple[int, list[int]]] = []
    start = 0
    for number, line in enumerate(text.split("\n")):
        stop = start + len(line)
        if _RTL_CANDIDATE.search(line) is not None:
            rtl, strong, rtl_ends = _strong_counts(line)
            if rtl:
                resolved = True
                steps, back = _steps(text, cm.glyph, start, stop, where)
                if (rtl > RTL_SHARE * strong or rtl_ends) and back * 2 <= steps:
                    move = _line_permutation(text, cm.glyph, cm.decision, start, stop)
                    if move is not None:
                        moves.append(move)
                    resolved = move is not None
                lines.append((number, start, stop, rtl, strong, rtl_ends, resolved, steps, back))
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
            rtl_ends,
            steps,
            back,
        )
        for number, begin, stop, rtl, strong, rtl_ends, resolved, steps, back in lines
    ]
    return replace(page, decisions=page.decisions.extended(records))
