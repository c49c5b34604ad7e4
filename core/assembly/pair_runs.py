"""The pair rules (spec §3, §4) over a whole run of glyphs, in one pass over its columns.

`line_break_measure` and `word_gap_measure` (core/assembly/lines.py, words.py) are the rules;
a flow takes both for every pair of consecutive glyphs, two calls and two tuples per glyph.
`measure_run` takes them in one loop over the run's values instead, the common case written
inline with the very expressions of the rules (same operands, same order: the same doubles),
and keeps what it found as columns the decision store takes in bulk (`TextBuilder.emit_run`):

* `codes[j]`  — pair j's (glyphs j, j + 1) decision row code in the store
  (core/assembly/decision_store.py): a line break (LINE_BREAK + 4 × verdict) or a line-break
  and word-gap pair on one line (PAIR + 4 × SAME_LINE + 16 × word-gap verdict);
  SPECIAL for the few pairs the store keeps otherwise (below);
* `gaps`, `displacements`, `line_heights`, `word_heights` — the numbers the rules measured
  (word_heights 0.0 after a break);
* `seps[j]`   — what the pair writes: "\\n" (a break), " " (an inserted space) or "";
* `infos[k]`  — glyph k's text facts (core/assembly/chars.py).

Whatever the inline code does not decide alone goes to the rules themselves, on a `FlowGlyph`
made for the pair: a break or a backward jump (stacked CJK columns, right-to-left lines
stepping leftwards: `line_break_measure`), and a negative gap beside a right-to-left letter
(`word_gap_measure`). A pair whose two decisions do not share one row (a stacked pair, a
right-to-left gap measured on its reading side) is SPECIAL: `special[j]` holds its measures
and the builder records them with `add_pair`, as a flow of records does.
"""

from __future__ import annotations

from collections.abc import Iterable

from glyphscope.core.assembly.chars import TextInfo, info_lookup
from glyphscope.core.assembly.decision_store import LINE_BREAK, PAIR
from glyphscope.core.assembly.lines import BACKWARD_JUMP, LineBreakMeasure, line_break_measure
from glyphscope.core.assembly.verdicts import (
    LB_JOINED,
    LB_SAME_LINE,
    WG_BELOW_THRESHOLD,
    WG_CJK_GAP,
    WG_CJK_PAIR,
    WG_EXISTING_SPACE,
    WG_INSERTED,
    WG_NEGATIVE_GAP,
    WG_SPACE,
)
from glyphscope.core.assembly.words import WordGapMeasure, rtl_sides, word_gap_measure
from glyphscope.core.geometry import Point
from glyphscope.core.glyph import FlowGlyph
from glyphscope.core.params import Parameters

FlowRow = tuple[int, str, Point, Point, float, Point]
"""What the rules read of a glyph: paint_index, unicode, origin, glyph_end, height, direction
(a FlowGlyph's first six fields)."""

SPECIAL = 255
"""`RunMeasures.codes` of a pair the store keeps in rows of its own (`RunMeasures.special`);
above every row code (they fit a byte: `may_track` reads them as bytes)."""

_SAME = PAIR + 4 * LB_SAME_LINE  # + 16 × the word-gap verdict: a pair read on along one line
_EXISTING = _SAME + 16 * WG_EXISTING_SPACE
_CJK_GAP = _SAME + 16 * WG_CJK_GAP
_CJK_PAIR = _SAME + 16 * WG_CJK_PAIR
_INSERTED = _SAME + 16 * WG_INSERTED
_NEGATIVE = _SAME + 16 * WG_NEGATIVE_GAP
_BELOW = _SAME + 16 * WG_BELOW_THRESHOLD
_THREE_INSERTED = bytes((_INSERTED,)) * 3


def one_row(lb: LineBreakMeasure, wg: WordGapMeasure) -> bool:
    """Whether a pair's two decisions share one row of the store (`DecisionColumns.add_pair`):
    read on along one line, with one gap (the same float: of the same sign when zero)."""
    gap, word_gap = lb[3], wg[1]
    return lb[0] == LB_SAME_LINE and word_gap == gap and (gap != 0.0 or str(gap) == str(word_gap))


class RunMeasures:
    """The measures of every pair of one run (see the module docstring)."""

    __slots__ = ("codes", "gaps", "displacements", "line_heights", "word_heights", "seps", "infos", "special")

    def __init__(self) -> None:
        self.codes: list[int] = []
        self.gaps: list[float] = []
        self.displacements: list[float] = []
        self.line_heights: list[float] = []
        self.word_heights: list[float] = []
        self.seps: list[str] = []
        self.infos: list[TextInfo] = []
        self.special: dict[int, tuple[LineBreakMeasure, WordGapMeasure | None]] = {}

    def word_gaps(self) -> list[WordGapMeasure | None]:
        """Each pair's word-gap measure, None after a break (what `letter_spacing` reads)."""
        out: list[WordGapMeasure | None] = []
        for j, code in enumerate(self.codes):
            if code == SPECIAL:
                out.append(self.special[j][1])
            elif code & 3 == PAIR:
                out.append((code >> 4, self.gaps[j], self.word_heights[j], 0.0))
            else:
                out.append(None)
        return out

    def may_track(self) -> bool:
        """Whether a letter-spaced stretch can be there: it needs three inserted spaces in a row
        (core/assembly/tracking.py); ordinary text has a word between two."""
        if bytes(self.codes).find(_THREE_INSERTED) >= 0:
            return True
        return any(wg is not None and wg[0] == WG_INSERTED for _, wg in self.special.values())

    def set_pair(self, j: int, lb: LineBreakMeasure, wg: WordGapMeasure | None) -> None:
        """Pair j measured by the rules themselves (a tracked word gap): kept as they found it."""
        self.codes[j] = SPECIAL
        self.special[j] = (lb, wg)
        self.seps[j] = "\n" if wg is None else (" " if wg[0] in WG_SPACE else "")

    def line_break(self, j: int) -> LineBreakMeasure:
        """Pair j's line-break measure."""
        if self.codes[j] == SPECIAL:
            return self.special[j][0]
        code = (self.codes[j] >> 2) & 3
        return (code, self.displacements[j], self.line_heights[j], self.gaps[j])


def measure_run(rows: Iterable[FlowRow], params: Parameters) -> RunMeasures:
    """Both pair rules for every pair of consecutive `rows` (see the module docstring)."""
    out = RunMeasures()
    codes, gaps, displacements = out.codes, out.gaps, out.displacements
    line_heights, word_heights, seps, infos, special = (
        out.line_heights,
        out.word_heights,
        out.seps,
        out.infos,
        out.special,
    )
    code_add, gap_add, displacement_add = codes.append, gaps.append, displacements.append
    line_height_add, word_height_add, sep_add, info_add = (
        line_heights.append,
        word_heights.append,
        seps.append,
        infos.append,
    )
    get, info_of = info_lookup()
    line_break, word_gap, cjk_gap = params.line_break, params.word_gap, params.cjk_gap
    back = -BACKWARD_JUMP
    it = iter(rows)
    for row in it:
        p0, u0, (ox0, oy0), (ex0, ey0), h0, (ux0, uy0) = row
        break
    else:
        return out
    info0 = get(u0) or info_of(u0)
    info_add(info0)
    ls0, lc0 = info0[2], info0[4]
    j = 0
    for p1, u1, (ox1, oy1), (ex1, ey1), h1, (ux1, uy1) in it:
        info1 = get(u1) or info_of(u1)
        info_add(info1)
        # line_break_measure, inline
        displacement = (oy1 - oy0) * ux0 - (ox1 - ox0) * uy0
        height = h0 if h0 > h1 else h1
        gap = (ox1 - ex0) * ux0 + (oy1 - ey0) * uy0
        if abs(displacement) > line_break * height or (height > 0.0 and gap < back * height):
            # a break or a backward jump, unless the rule's exceptions hold: the rule decides
            a = FlowGlyph(p0, u0, (ox0, oy0), (ex0, ey0), h0, (ux0, uy0), 0)
            b = FlowGlyph(p1, u1, (ox1, oy1), (ex1, ey1), h1, (ux1, uy1), 0)
            lb = line_break_measure(a, b, line_break)
            if lb[0] in LB_JOINED:
                wg = word_gap_measure(a, b, params, info0, info1)
                if one_row(lb, wg):
                    code_add(_SAME + 16 * wg[0])
                    sep_add(" " if wg[0] in WG_SPACE else "")
                    word_height_add(h1)
                else:
                    special[j] = (lb, wg)
                    code_add(SPECIAL)
                    sep_add(" " if wg[0] in WG_SPACE else "")
                    word_height_add(0.0)
            else:
                code_add(LINE_BREAK + 4 * lb[0])
                sep_add("\n")
                word_height_add(0.0)
        else:
            # word_gap_measure, inline (the same line: its gap and the current glyph's height)
            if ls0 or info1[1]:
                code_add(_EXISTING)
                sep_add("")
            elif lc0 and info1[3]:
                if gap > cjk_gap * h1:
                    code_add(_CJK_GAP)
                    sep_add(" ")
                else:
                    code_add(_CJK_PAIR)
                    sep_add("")
            elif gap > word_gap * h1:
                code_add(_INSERTED)
                sep_add(" ")
            elif gap < 0.0:
                if rtl_sides(info0[0], info1[0]):  # right to left: the rule measures its reading side
                    a = FlowGlyph(p0, u0, (ox0, oy0), (ex0, ey0), h0, (ux0, uy0), 0)
                    b = FlowGlyph(p1, u1, (ox1, oy1), (ex1, ey1), h1, (ux1, uy1), 0)
                    wg = word_gap_measure(a, b, params, info0, info1)
                    lb = (LB_SAME_LINE, displacement, height, gap)
                    if one_row(lb, wg):
                        code_add(_SAME + 16 * wg[0])
                    else:
                        special[j] = (lb, wg)
                        code_add(SPECIAL)
                    sep_add(" " if wg[0] in WG_SPACE else "")
                else:
                    code_add(_NEGATIVE)
                    sep_add("")
            else:
                code_add(_BELOW)
                sep_add("")
            word_height_add(h1)
        gap_add(gap)
        displacement_add(displacement)
        line_height_add(height)
        p0, u0, ox0, oy0, ex0, ey0, h0, ux0, uy0 = p1, u1, ox1, oy1, ex1, ey1, h1, ux1, uy1
        ls0, lc0, info0 = info1[2], info1[4], info1
        j += 1
    return out
