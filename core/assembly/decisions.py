"""Decision records: every choice assembly takes, with its numbers, for the inspector to draw.

Each record is frozen and slotted and follows `DecisionRecord`
(core/decision_protocol.py): `kind`, `before`/`after` or `glyph`, `verdict`, the
`value` and `threshold` the rule compared, `to_json()` (plain JSON types) and
`describe()` (one English sentence with the numbers, 2 decimals).
Glyphs are referred to by `paint_index`. Records made per glyph pair stay plain
data with a fast constructor: the protocol's fields are properties over them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeAlias

from glyphscope.core.assembly.actual_text import ActualTextDecision
from glyphscope.core.assembly.bidi import BidiDecision
from glyphscope.core.assembly.chars import TextInfo
from glyphscope.core.assembly.lines import BACKWARD_JUMP, line_break_measure
from glyphscope.core.assembly.verdicts import (
    LINE_BREAK_VERDICTS,
    WORD_GAP_VERDICTS,
    ColumnChangeVerdict,
    LineBreakVerdict,
    ReadingVerdict,
    WordGapVerdict,
)
from glyphscope.core.assembly.words import word_gap_measure
from glyphscope.core.decision_protocol import (
    DecisionKind,
    DecisionRecord,
    NothingCompared,
    fmt,
    glyph_json,
    pair_json,
    rounded,
)
from glyphscope.core.fast_init import fast_init
from glyphscope.core.geometry import Point, Quad
from glyphscope.core.glyph import FlowFields
from glyphscope.core.params import Parameters

_f = fmt
_r = rounded


def _quad_json(q: Quad) -> list[list[float]]:
    return [[_r(p[0]), _r(p[1])] for p in q]


_WORD_GAP_MEASURED = frozenset(
    {
        WordGapVerdict.INSERTED,
        WordGapVerdict.BELOW_THRESHOLD,
        WordGapVerdict.NEGATIVE_GAP,
        WordGapVerdict.TRACKING,
        WordGapVerdict.RTL_GAP,
    }
)
"""Word-gap verdicts reached by comparing the gap with the threshold; the others compare no number."""

_WORD_GAP_CJK = frozenset({WordGapVerdict.CJK_PAIR, WordGapVerdict.CJK_GAP})
"""Verdicts of the CJK rule (spec §9): the gap compared with cjk_gap × height."""


@fast_init  # one per glyph pair: see core/fast_init.py
@dataclass(frozen=True, slots=True)
class WordGapDecision:
    """Spec §3 for one same-line pair: gap = (cur.origin − prev.glyph_end) · prev.direction.

    value = gap, threshold = factor × height (space iff value > threshold). Next to a space
    glyph (`existing_space`) no number is compared: value and threshold are None (`gap`
    and `space_threshold` are still kept). Between two CJK characters the CJK rule
    (spec §9) compares the gap with `cjk_factor` × height instead: `cjk_gap` (a space
    is inserted: separate cells or fields) or `cjk_pair` (no space: justification).

    Inside a letter-spaced stretch (core/assembly/tracking.py) `tracking` is the run's
    common gap and threshold = tracking + factor × height: `inserted` above it, else
    `tracking` (no space: the gap is the heading's letter spacing). Elsewhere tracking is 0.
    """

    kind: ClassVar[str] = DecisionKind.WORD_GAP

    before: int
    after: int
    verdict: WordGapVerdict
    gap: float
    space_threshold: float  # factor × height
    factor: float  # Parameters.word_gap
    height: float  # the box height of `after`
    cjk_factor: float = 0.0  # Parameters.cjk_gap (CJK pairs only)
    tracking: float = 0.0  # common gap of the letter-spaced stretch, 0 outside one

    @property
    def inserted(self) -> bool:
        """A space was generated (by the §3 rule or the CJK gap rule)."""
        return (
            self.verdict == WordGapVerdict.INSERTED
            or self.verdict == WordGapVerdict.CJK_GAP
            or self.verdict == WordGapVerdict.RTL_GAP
        )

    @property
    def cjk_threshold(self) -> float:
        return self.cjk_factor * self.height

    @property
    def value(self) -> float | None:
        return self.gap if self.verdict in _WORD_GAP_MEASURED or self.verdict in _WORD_GAP_CJK else None

    @property
    def threshold(self) -> float | None:
        if self.verdict in _WORD_GAP_CJK:
            return self.cjk_threshold
        return self.space_threshold + self.tracking if self.verdict in _WORD_GAP_MEASURED else None

    def to_json(self) -> dict[str, Any]:
        return pair_json(
            self,
            self.before,
            self.after,
            gap=_r(self.gap),
            space_threshold=_r(self.space_threshold),
            factor=self.factor,
            height=_r(self.height),
            cjk_factor=self.cjk_factor,
            tracking=_r(self.tracking),
        )

    def describe(self) -> str:
        rule = f"{_f(self.factor)} × {_f(self.height)} pt = {_f(self.space_threshold)} pt"
        if self.tracking > 0.0 and self.verdict in _WORD_GAP_MEASURED:
            rule = (
                f"tracking {_f(self.tracking)} pt + {_f(self.factor)} × {_f(self.height)} pt "
                f"= {_f(self.space_threshold + self.tracking)} pt"
            )
            if self.verdict == WordGapVerdict.TRACKING:
                return (
                    f"no space: letter-spaced run, gap {_f(self.gap)} pt ≤ {rule} "
                    "(the run's common gap is its letter spacing, not a word space)"
                )
            if self.verdict == WordGapVerdict.INSERTED:
                return f"space inserted in a letter-spaced run: gap {_f(self.gap)} pt > {rule}"
        cjk_rule = f"{_f(self.cjk_factor)} × {_f(self.height)} pt = {_f(self.cjk_threshold)} pt"
        if self.verdict == WordGapVerdict.CJK_GAP:
            return f"space inserted between CJK characters: gap {_f(self.gap)} pt > {cjk_rule} (cjk_gap)"
        if self.verdict == WordGapVerdict.CJK_PAIR:
            return f"no space: both glyphs are CJK and gap {_f(self.gap)} pt ≤ {cjk_rule} (cjk_gap)"
        if self.verdict == WordGapVerdict.INSERTED:
            return f"space inserted: gap {_f(self.gap)} pt > {rule}"
        if self.verdict == WordGapVerdict.RTL_GAP:
            return (
                f"space inserted between right-to-left letters painted leftwards: gap {_f(self.gap)} pt "
                f"(from this glyph's end to the previous one's start) > {rule}"
            )
        if self.verdict == WordGapVerdict.BELOW_THRESHOLD:
            return f"no space: gap {_f(self.gap)} pt ≤ {rule}"
        if self.verdict == WordGapVerdict.NEGATIVE_GAP:
            return f"no space: negative gap {_f(self.gap)} pt ≤ {rule} (overlapping or reversed glyphs are glued)"
        return f"no space: one side already is a space, no threshold applies (gap {_f(self.gap)} pt)"


@fast_init  # one per glyph pair: see core/fast_init.py
@dataclass(frozen=True, slots=True)
class LineBreakDecision:
    """Spec §4 for one pair: d = (cur.origin − prev.origin) · normal(prev.direction).

    `backward_jump` is our addition: on the same baseline the next glyph starts
    more than `backward_factor` × height BEHIND the previous glyph's end
    (a new line that happens to share the baseline, e.g. table cells painted
    right to left); small negative gaps stay glued (spec §3).

    value/threshold are the pair that decided the verdict: |d| and factor × height
    for `break` and `same_line` (value is the absolute displacement, ≥ 0; the signed
    d, positive when the next glyph lies above the previous baseline, is
    `displacement`); the along-line gap and −backward_factor × height for
    `backward_jump`.
    """

    kind: ClassVar[str] = DecisionKind.LINE_BREAK

    before: int
    after: int
    verdict: LineBreakVerdict
    displacement: float  # d, signed
    break_threshold: float  # factor × height
    factor: float  # Parameters.line_break
    height: float  # max(prev.height, cur.height)
    gap: float  # along the direction, for the backward-jump test
    backward_threshold: float  # −backward_factor × height

    @property
    def is_break(self) -> bool:
        return self.verdict != LineBreakVerdict.SAME_LINE and self.verdict != LineBreakVerdict.STACKED

    @property
    def value(self) -> float:
        return self.gap if self.verdict == LineBreakVerdict.BACKWARD_JUMP else abs(self.displacement)

    @property
    def threshold(self) -> float:
        return (
            self.backward_threshold
            if self.verdict == LineBreakVerdict.BACKWARD_JUMP
            else self.break_threshold
        )

    def to_json(self) -> dict[str, Any]:
        return pair_json(
            self,
            self.before,
            self.after,
            displacement=_r(self.displacement),
            break_threshold=_r(self.break_threshold),
            factor=self.factor,
            height=_r(self.height),
            gap=_r(self.gap),
            backward_threshold=_r(self.backward_threshold),
        )

    def describe(self) -> str:
        rule = f"{_f(self.factor)} × {_f(self.height)} pt = {_f(self.break_threshold)} pt"
        d = abs(self.displacement)
        if self.verdict == LineBreakVerdict.BREAK:
            return f"line break: displacement {_f(d)} pt > {rule}"
        if self.verdict == LineBreakVerdict.BACKWARD_JUMP:
            return (
                f"line break: jump back {_f(self.gap)} pt < {_f(self.backward_threshold)} pt "
                f"on the same baseline (displacement {_f(d)} pt ≤ {rule})"
            )
        if self.verdict == LineBreakVerdict.STACKED:
            return (
                f"same column: an upright CJK character one step below the previous one (displacement "
                f"{_f(d)} pt > {rule}, starting where it starts): a vertical run, read as one line"
            )
        return f"same line: displacement {_f(d)} pt ≤ {rule}"


@fast_init  # one per glyph pair: see core/fast_init.py
@dataclass(frozen=True, slots=True)
class ColumnChangeDecision:
    """Vertical writing (spec §4, §9): a glyph stays in the column when its box centre lies in it.

    value = the box centre x of `after`, threshold = [x0, x1] of the column of `before`.
    """

    kind: ClassVar[str] = DecisionKind.COLUMN_CHANGE

    before: int
    after: int
    verdict: ColumnChangeVerdict
    column: int  # column index of `after` within its vertical run (0 = rightmost)
    center_x: float  # box centre x of `after`
    column_x0: float  # horizontal extent of the column of `before`
    column_x1: float

    @property
    def is_break(self) -> bool:
        return self.verdict == ColumnChangeVerdict.COLUMN_CHANGE

    @property
    def value(self) -> float:
        return self.center_x

    @property
    def threshold(self) -> tuple[float, float]:
        return (self.column_x0, self.column_x1)

    def to_json(self) -> dict[str, Any]:
        return pair_json(
            self,
            self.before,
            self.after,
            column=self.column,
            center_x=_r(self.center_x),
            column_x0=_r(self.column_x0),
            column_x1=_r(self.column_x1),
        )

    def describe(self) -> str:
        span = f"[{_f(self.column_x0)}, {_f(self.column_x1)}]"
        if self.verdict == ColumnChangeVerdict.COLUMN_CHANGE:
            return f"line break (vertical column change): centre x {_f(self.center_x)} outside column {span}"
        return f"same vertical column: centre x {_f(self.center_x)} inside {span}"


@dataclass(frozen=True, slots=True)
class LigatureDecision(NothingCompared):
    """A ligature glyph (U+FB00–FB06) written as its letters (Parameters.keep_ligatures off).

    glyph = the glyph, whose record keeps the raw code point; `raw` → `letters`, every
    letter linked to the glyph in the character map. Verdict "expanded"; no number is
    compared: value and threshold are None.
    """

    kind: ClassVar[str] = DecisionKind.LIGATURE

    paint_index: int
    raw: str
    letters: str

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "expanded"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.paint_index,
            raw=self.raw,
            letters=self.letters,
            code_points=[f"U+{ord(c):04X}" for c in self.raw],
        )

    def describe(self) -> str:
        points = " ".join(f"U+{ord(c):04X}" for c in self.raw)
        return f"ligature {self.raw!r} ({points}) written as {len(self.letters)} letters {self.letters!r}"


@dataclass(frozen=True, slots=True)
class SurvivorPlacement(NothingCompared):
    """A deduped run's survivor written with its originals (core/assembly/survivors.py).

    glyph = the survivor, a kept glyph whose neighbours in its own text-showing instruction
    were both dropped as duplicates (spec §7); before = the glyph it is written after (the
    original of its dropped neighbour). Verdict "with_originals"; no number is compared.
    """

    kind: ClassVar[str] = "survivor_placed"

    paint_index: int
    after_glyph: int

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def before(self) -> int:
        return self.after_glyph

    @property
    def after(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "with_originals"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.paint_index, after_glyph=self.after_glyph)

    def describe(self) -> str:
        return (
            f"glyph #{self.paint_index} survived dedupe between copies of earlier glyphs (spec §7): "
            f"written after glyph #{self.after_glyph}, with the originals, not where its copy was painted"
        )


@dataclass(frozen=True, slots=True)
class AnnotationPlacement(NothingCompared):
    """An annotation's text written after a page word, not inside it (core/assembly/annotation_order.py).

    glyph = the annotation's first glyph; `found` = the page letter the place rules found
    (inside a word, under the widget); before = `word_end`, the last letter of that word, which
    the annotation's text follows. Verdict "after_word"; no number is compared.
    """

    kind: ClassVar[str] = "annotation_placed"

    paint_index: int
    found: int
    word_end: int

    @property
    def glyph(self) -> int:
        return self.paint_index

    @property
    def before(self) -> int:
        return self.word_end

    @property
    def after(self) -> int:
        return self.paint_index

    @property
    def verdict(self) -> str:
        return "after_word"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.paint_index, found=self.found, word_end=self.word_end)

    def describe(self) -> str:
        return (
            f"annotation text (glyph #{self.paint_index}) placed between page words: the glyph before it "
            f"in reading order, #{self.found}, is inside a word, so it follows the word's end #{self.word_end}"
        )


@dataclass(frozen=True, slots=True)
class CombFieldDecision:
    """Two cells of a comb text field read as one word (core/assembly/plain.py).

    A text field with the Comb flag (/Ff bit 25) and /MaxLen N is drawn one character per
    cell, the cells /Rect width ÷ N apart: the §3 word-gap rule would space every letter.
    value = the gap between the two glyphs; threshold = the cell width; verdict "comb" (no
    space): the letters of one field value are one word, as a viewer's field shows them.
    """

    kind: ClassVar[str] = "comb_field"

    before: int
    after: int
    gap: float
    cell: float
    cells: int

    @property
    def glyph(self) -> None:
        return None

    @property
    def verdict(self) -> str:
        return "comb"

    @property
    def value(self) -> float:
        return self.gap

    @property
    def threshold(self) -> float:
        return self.cell

    def to_json(self) -> dict[str, Any]:
        return pair_json(self, self.before, self.after, cells=self.cells)

    def describe(self) -> str:
        return (
            f"comb field ({self.cells} cells of {_f(self.cell)} pt, one character each): no word space "
            f"between its cells (gap {_f(self.gap)} pt ≤ the cell width {_f(self.cell)} pt)"
        )


@dataclass(frozen=True, slots=True)
class CoveredSpace:
    """A space glyph lying wholly inside a letter's advance on its baseline, left out of a
    geometric line (core/assembly/layout.py): painted over by the letter, it separates nothing.

    A pair record: before = the letter, after = the space. value = the space's extent along
    the line [start, end]; threshold = the letter's [start, end] (pt along the dominant frame
    from the layout grid's left edge, as GridPlacement.position), the space's strictly inside. Verdict "left_out". Typical source: a horizontal font's space
    painted after a vertical run laid on its side, standing in the middle of a column
    (`縦書きのテ  スト`).
    """

    kind: ClassVar[str] = "covered_space"

    space: int
    letter: int
    space_extent: tuple[float, float]
    letter_extent: tuple[float, float]

    @property
    def glyph(self) -> int:
        return self.space

    @property
    def before(self) -> int:
        return self.letter

    @property
    def after(self) -> int:
        return self.space

    @property
    def verdict(self) -> str:
        return "left_out"

    @property
    def value(self) -> tuple[float, float]:
        return self.space_extent

    @property
    def threshold(self) -> tuple[float, float]:
        return self.letter_extent

    def to_json(self) -> dict[str, Any]:
        return pair_json(self, self.letter, self.space, glyph=self.space)

    def describe(self) -> str:
        (s0, s1), (l0, l1) = self.space_extent, self.letter_extent
        return (
            f"space glyph #{self.space} left out of its line: it lies {_f(s0)}–{_f(s1)} pt along the line, "
            f"wholly inside glyph #{self.letter}'s advance {_f(l0)}–{_f(l1)} pt (painted over, it separates nothing)"
        )


@dataclass(frozen=True, slots=True)
class RtlRunOrder(NothingCompared):
    """A right-to-left run painted piece by piece leftwards, put in visual order before the pair
    rules (core/assembly/rtl_runs.py): glyph = its first glyph from the left; `count` glyphs,
    `steps_back` of its steps went back more than 3 box heights. Verdict "visual_order"."""

    kind: ClassVar[str] = "rtl_run_order"

    first: int
    count: int
    steps_back: int

    @property
    def glyph(self) -> int:
        return self.first

    @property
    def verdict(self) -> str:
        return "visual_order"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(self, self.first, count=self.count, steps_back=self.steps_back)

    def describe(self) -> str:
        return (
            f"right-to-left run of {self.count} glyphs painted in pieces leftwards ({self.steps_back} step(s) "
            "back): read left to right by position, then turned to reading order by the bidi pass"
        )


class _Information(NothingCompared):
    """Mixin of the information records (layout, columns, structure): they describe how a
    mode arranged the page; their numbers are extra fields, value and threshold are None."""

    __slots__ = ()


class _Column(_Information):
    """A column record (vertical run or columns mode): glyph = its first glyph; verdict "column"."""

    __slots__ = ()
    glyphs: tuple[int, ...]

    @property
    def glyph(self) -> int | None:
        return self.glyphs[0] if self.glyphs else None

    @property
    def verdict(self) -> str:
        return "column"


@dataclass(frozen=True, slots=True)
class VerticalColumn(_Column):
    """One column of a vertical-writing run; columns are numbered right to left."""

    kind: ClassVar[str] = DecisionKind.VERTICAL_COLUMN

    column: int
    quad: Quad
    glyphs: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self, self.glyph, column=self.column, quad=_quad_json(self.quad), glyphs=list(self.glyphs)
        )

    def describe(self) -> str:
        return f"vertical column {self.column + 1}: {len(self.glyphs)} glyphs, read top to bottom"


@dataclass(frozen=True, slots=True)
class LayoutGrid(_Information):
    """The character grid of layout mode (spec §9) in the dominant writing frame.

    A page-level record (glyph None); verdict = where the row pitch came from
    ("median" baseline distance or the "fallback" 1.2 × median height).
    """

    kind: ClassVar[str] = DecisionKind.LAYOUT_GRID

    direction: Point  # dominant writing direction (unit vector)
    cell: float  # mean advance of non-space glyphs
    pitch: float  # row pitch
    pitch_source: Literal["median", "fallback"]
    left: float  # visible box's left edge along the direction

    @property
    def glyph(self) -> None:
        return None

    @property
    def verdict(self) -> str:
        return self.pitch_source

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            None,
            direction=[_r(self.direction[0]), _r(self.direction[1])],
            cell=_r(self.cell),
            pitch=_r(self.pitch),
            pitch_source=self.pitch_source,
            left=_r(self.left),
        )

    def describe(self) -> str:
        how = "median baseline distance" if self.pitch_source == "median" else "1.2 × median height"
        return f"layout grid: cell {_f(self.cell)} pt (mean advance), row pitch {_f(self.pitch)} pt ({how})"


@dataclass(frozen=True, slots=True)
class Baseline(_Information):
    """One clustered baseline (layout, columns and geometric tails).

    `y` is the baseline position across the dominant direction (user space y for
    upright text); rows are counted in layout pitches, `blank_lines` precede it.
    glyph = the line's first glyph; verdict "blank_lines" when blank lines precede it,
    else "baseline".
    """

    kind: ClassVar[str] = DecisionKind.BASELINE

    line: int
    y: float
    quad: Quad
    glyphs: tuple[int, ...]  # paint indices, in reading order along the line
    row: int = -1  # layout only
    distance: float = 0.0  # to the previous baseline
    blank_lines: int = 0  # layout only

    @property
    def glyph(self) -> int | None:
        return self.glyphs[0] if self.glyphs else None

    @property
    def verdict(self) -> str:
        return "blank_lines" if self.blank_lines else "baseline"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.glyph,
            line=self.line,
            y=_r(self.y),
            row=self.row,
            distance=_r(self.distance),
            blank_lines=self.blank_lines,
            quad=_quad_json(self.quad),
            glyphs=list(self.glyphs),
        )

    def describe(self) -> str:
        text = f"baseline {self.line + 1} at {_f(self.y)} pt: {len(self.glyphs)} glyphs"
        if self.row >= 0:
            text += f", row {self.row}"
            if self.blank_lines:
                text += f", {_f(self.distance)} pt below the previous: {self.blank_lines} blank line(s)"
        return text


@fast_init  # one per glyph pair: see core/fast_init.py
@dataclass(frozen=True, slots=True)
class GridPlacement(_Information):
    """Layout mode: a word placed at a grid column, padded with spaces from the cursor.

    glyph = the word's first glyph; verdict "padded" when spaces were emitted, else "adjacent".
    """

    kind: ClassVar[str] = DecisionKind.GRID_PLACEMENT

    line: int
    first: int  # paint index of the word's first glyph
    position: float  # along the direction, from the grid's left
    column: int  # round(position / cell), at most layout.MAX_COLUMN
    cursor: int  # column the line had reached
    pad: int  # spaces emitted

    @property
    def glyph(self) -> int:
        return self.first

    @property
    def verdict(self) -> str:
        return "padded" if self.pad else "adjacent"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.first,
            line=self.line,
            first=self.first,
            position=_r(self.position),
            column=self.column,
            cursor=self.cursor,
            pad=self.pad,
        )

    def describe(self) -> str:
        return (
            f"word at {_f(self.position)} pt → grid column {self.column} (cursor {self.cursor}): "
            f"{self.pad} space(s) of padding"
        )


@dataclass(frozen=True, slots=True)
class ColumnSplit:
    """Columns mode: a baseline split where the gap exceeds factor × mean advance (spec §8, §9).

    value = gap, threshold = factor × mean advance; verdict "split" (only splits are recorded).
    """

    kind: ClassVar[str] = DecisionKind.COLUMN_SPLIT

    before: int
    after: int
    gap: float
    threshold: float
    factor: float  # Parameters.columns_gap
    mean_advance: float
    left_quad: Quad  # the segment ending at `before`
    right_quad: Quad  # the segment starting at `after`

    @property
    def verdict(self) -> str:
        return "split"

    @property
    def value(self) -> float:
        return self.gap

    def to_json(self) -> dict[str, Any]:
        return pair_json(
            self,
            self.before,
            self.after,
            gap=_r(self.gap),
            factor=self.factor,
            mean_advance=_r(self.mean_advance),
            left_quad=_quad_json(self.left_quad),
            right_quad=_quad_json(self.right_quad),
        )

    def describe(self) -> str:
        return (
            f"column split: gap {_f(self.gap)} pt > {_f(self.factor)} × {_f(self.mean_advance)} pt "
            f"= {_f(self.threshold)} pt"
        )


@dataclass(frozen=True, slots=True)
class TextColumn(_Column):
    """Columns mode: one column box and its segment count, emitted left to right."""

    kind: ClassVar[str] = DecisionKind.TEXT_COLUMN

    column: int
    quad: Quad
    segments: int
    glyphs: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.glyph,
            column=self.column,
            quad=_quad_json(self.quad),
            segments=self.segments,
            glyphs=list(self.glyphs),
        )

    def describe(self) -> str:
        return f"column {self.column + 1}: {self.segments} segment(s), {len(self.glyphs)} glyphs"


@dataclass(frozen=True, slots=True)
class StructureOrder(_Information):
    """Structure mode: how the page was ordered (MCID buckets, then the untagged tail).

    A page-level record (glyph None); verdict "tagged_only" or "untagged_tail".
    """

    kind: ClassVar[str] = DecisionKind.STRUCTURE_ORDER

    mcid_order: tuple[int, ...]  # buckets emitted, tree order
    tagged: int
    untagged: int
    total: int
    first_untagged: int  # paint index of the tail's first glyph, −1 when none

    @property
    def glyph(self) -> None:
        return None

    @property
    def verdict(self) -> str:
        return "untagged_tail" if self.untagged else "tagged_only"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            None,
            mcid_order=list(self.mcid_order),
            tagged=self.tagged,
            untagged=self.untagged,
            total=self.total,
            first_untagged=self.first_untagged,
        )

    def describe(self) -> str:
        return (
            f"structure order: {len(self.mcid_order)} MCID bucket(s), {self.tagged} tagged glyphs, "
            f"{self.untagged} of {self.total} untagged (appended in geometric order)"
        )


@dataclass(frozen=True, slots=True)
class ArticleBeadRecord(_Information):
    """Articles order: one bead of an article thread on the page, read in thread order.

    `number` counts the page's beads in reading order (1-based, as the overlay shows it);
    glyphs = the visible glyphs whose box centre lies in it (a glyph in several beads goes
    to the first). glyph = the bead's first glyph; verdict "bead", or "empty".
    """

    kind: ClassVar[str] = DecisionKind.ARTICLE_BEAD

    number: int
    thread: int  # 0-based thread index in /Threads
    index: int  # 0-based position in its thread
    quad: Quad  # the bead rectangle
    glyphs: tuple[int, ...]

    @property
    def glyph(self) -> int | None:
        return self.glyphs[0] if self.glyphs else None

    @property
    def verdict(self) -> str:
        return "bead" if self.glyphs else "empty"

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            self.glyph,
            number=self.number,
            thread=self.thread,
            index=self.index,
            quad=_quad_json(self.quad),
            glyphs=list(self.glyphs),
        )

    def describe(self) -> str:
        return (
            f"article bead {self.number} (thread {self.thread + 1}, bead {self.index + 1}): "
            f"{len(self.glyphs)} glyphs whose box centre lies in it"
        )


@dataclass(frozen=True, slots=True)
class ArticleOrderDecision:
    """Articles order of a page: how many visible glyphs the beads hold.

    A page-level record (glyph None). value = glyphs in beads; threshold = the share of
    the visible glyphs (ARTICLE_SHARE × total) auto mode requires to read in bead order.
    verdict "articles" (value ≥ threshold: auto uses bead order), "too_few" or "no_beads".
    """

    kind: ClassVar[str] = DecisionKind.ARTICLE_ORDER

    beads: int
    in_beads: int
    total: int
    share: float  # the factor of `total` compared

    @property
    def glyph(self) -> None:
        return None

    @property
    def usable(self) -> bool:
        return self.beads > 0 and self.in_beads > 0 and self.in_beads >= self.share * self.total

    @property
    def verdict(self) -> str:
        if not self.beads:
            return "no_beads"
        return "articles" if self.usable else "too_few"

    @property
    def value(self) -> float:
        return float(self.in_beads)

    @property
    def threshold(self) -> float:
        return self.share * self.total

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self, None, beads=self.beads, in_beads=self.in_beads, total=self.total, share=self.share
        )

    def describe(self) -> str:
        if not self.beads:
            return "no article beads on this page"
        rule = f"{_f(self.share)} × {self.total} = {_f(self.threshold)}"
        if self.usable:
            return f"article order: {self.in_beads} glyphs in {self.beads} bead(s) ≥ {rule}; the rest follow in plain order"
        return f"article order not used by auto: {self.in_beads} glyphs in {self.beads} bead(s) < {rule}"


@dataclass(frozen=True, slots=True)
class ReadingOrderDecision:
    """Auto mode's reading order of an untagged page (spec §9): is the stream scrambled?

    A page-level record (glyph None), core/assembly/reading_order.py. value = share of the
    stream's successive line pairs that jump backward or interleave two columns; threshold =
    SCRAMBLED_SHARE (and at least `min_jumps` of them). verdict "geometric" (auto reads
    columns, then baselines top to bottom) or "stream" (auto keeps plain's order).
    """

    kind: ClassVar[str] = "reading_order"

    lines: int
    backward: int
    interleaved: int
    share_threshold: float
    min_jumps: int

    @property
    def glyph(self) -> None:
        return None

    @property
    def jumps(self) -> int:
        return self.backward + self.interleaved

    @property
    def pairs(self) -> int:
        return max(self.lines - 1, 0)

    @property
    def value(self) -> float:
        return self.jumps / self.pairs if self.pairs else 0.0

    @property
    def threshold(self) -> float:
        return self.share_threshold

    @property
    def verdict(self) -> str:
        scrambled = self.jumps >= self.min_jumps and self.value >= self.threshold
        return ReadingVerdict.GEOMETRIC if scrambled else ReadingVerdict.STREAM

    def to_json(self) -> dict[str, Any]:
        return glyph_json(
            self,
            None,
            lines=self.lines,
            backward=self.backward,
            interleaved=self.interleaved,
            min_jumps=self.min_jumps,
        )

    def describe(self) -> str:
        counted = (
            f"{self.backward} backward jump(s) + {self.interleaved} interleaved line(s) "
            f"in {self.pairs} line pairs = {_f(self.value)}"
        )
        if self.verdict == ReadingVerdict.GEOMETRIC:
            return (
                f"reading order: the content stream is scrambled ({counted} ≥ {_f(self.threshold)}, "
                f"at least {self.min_jumps}): columns, then lines top to bottom"
            )
        return (
            f"reading order: content-stream order kept ({counted}; geometric order from "
            f"{_f(self.threshold)} with at least {self.min_jumps})"
        )


Decision: TypeAlias = (
    WordGapDecision
    | LineBreakDecision
    | ColumnChangeDecision
    | VerticalColumn
    | LayoutGrid
    | Baseline
    | GridPlacement
    | ColumnSplit
    | TextColumn
    | StructureOrder
    | LigatureDecision
    | ArticleBeadRecord
    | ArticleOrderDecision
    | ReadingOrderDecision
    | SurvivorPlacement
    | AnnotationPlacement
    | CombFieldDecision
    | RtlRunOrder
    | CoveredSpace
    | ActualTextDecision
    | BidiDecision
)
"""An assembly decision; every one is a `DecisionRecord`."""

ASSEMBLY_RECORDS: tuple[type[DecisionRecord], ...] = (
    WordGapDecision,
    LineBreakDecision,
    ColumnChangeDecision,
    VerticalColumn,
    LayoutGrid,
    Baseline,
    GridPlacement,
    ColumnSplit,
    TextColumn,
    StructureOrder,
    LigatureDecision,
    ArticleBeadRecord,
    ArticleOrderDecision,
    ReadingOrderDecision,
    SurvivorPlacement,
    AnnotationPlacement,
    CombFieldDecision,
    RtlRunOrder,
    CoveredSpace,
)


# ---------------------------------------------------------------- records from the rules' measures


def line_break_record(
    before: int, after: int, code: int, displacement: float, height: float, gap: float, line_break: float
) -> LineBreakDecision:
    """The record of a pair's line-break measure (`line_break`: Parameters.line_break).

    The one place the record's derived numbers are made, as the rule compared them:
    line_break × height and −BACKWARD_JUMP × height. The page's decision list rebuilds
    its records here too.
    """
    return LineBreakDecision(
        before,
        after,
        LINE_BREAK_VERDICTS[code],
        displacement,
        line_break * height,
        line_break,
        height,
        gap,
        -BACKWARD_JUMP * height,
    )


def line_break_decision(prev: FlowFields, cur: FlowFields, params: Parameters) -> LineBreakDecision:
    """The line-break rule's record for one pair (see `line_break_measure`)."""
    code, displacement, height, gap = line_break_measure(prev, cur, params.line_break)
    return line_break_record(
        prev.paint_index, cur.paint_index, code, displacement, height, gap, params.line_break
    )


def word_gap_record(
    before: int,
    after: int,
    code: int,
    gap: float,
    height: float,
    tracking: float,
    word_gap: float,
    cjk_gap: float,
) -> WordGapDecision:
    """The record of a pair's word-gap measure (`word_gap`, `cjk_gap`: the Parameters it used).

    The one place the record's derived numbers are made: threshold = word_gap × height, as
    the rule compared it. The page's decision list rebuilds its records here too.
    """
    return WordGapDecision(
        before, after, WORD_GAP_VERDICTS[code], gap, word_gap * height, word_gap, height, cjk_gap, tracking
    )


def word_gap_decision(
    prev: FlowFields,
    cur: FlowFields,
    params: Parameters,
    before: TextInfo | None = None,
    after: TextInfo | None = None,
    tracking: float = 0.0,
) -> WordGapDecision:
    """The word-gap rule's record for one pair (see `word_gap_measure`)."""
    code, gap, height, kept = word_gap_measure(prev, cur, params, before, after, tracking)
    return word_gap_record(
        prev.paint_index, cur.paint_index, code, gap, height, kept, params.word_gap, params.cjk_gap
    )
