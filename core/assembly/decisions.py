"""Decision records: every choice assembly takes, with its numbers, for the inspector to draw.

Each record is frozen and slotted, has `to_json()` (plain JSON types) and
`describe()` (one English sentence with the numbers, 2 decimals).
Glyphs are referred to by `paint_index`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from glyphscope.core.geometry import Point, Quad
from glyphscope.core.records import fast_init

WordGapVerdict: TypeAlias = Literal[
    "inserted", "below_threshold", "existing_space", "cjk_pair", "negative_gap"
]
LineBreakVerdict: TypeAlias = Literal["break", "same_line", "backward_jump"]
ColumnChangeVerdict: TypeAlias = Literal["column_change", "same_column"]


def _f(x: float) -> str:
    return f"{x:.2f}"


def _r(x: float) -> float:
    return round(x, 4)


def _quad_json(q: Quad) -> list[list[float]]:
    return [[_r(p[0]), _r(p[1])] for p in q]


@fast_init  # one per glyph pair: see core/records.py
@dataclass(frozen=True, slots=True)
class WordGapDecision:
    """Spec §3 for one same-line pair: gap = (cur.origin − prev.glyph_end) · prev.direction."""

    before: int
    after: int
    verdict: WordGapVerdict
    gap: float
    threshold: float  # factor × height
    factor: float  # Parameters.word_gap
    height: float  # the box height of `after`

    @property
    def inserted(self) -> bool:
        return self.verdict == "inserted"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "word_gap",
            "before": self.before,
            "after": self.after,
            "verdict": self.verdict,
            "gap": _r(self.gap),
            "threshold": _r(self.threshold),
            "factor": self.factor,
            "height": _r(self.height),
        }

    def describe(self) -> str:
        rule = f"{_f(self.factor)} × {_f(self.height)} pt = {_f(self.threshold)} pt"
        if self.verdict == "inserted":
            return f"space inserted: gap {_f(self.gap)} pt > {rule}"
        if self.verdict == "below_threshold":
            return f"no space: gap {_f(self.gap)} pt ≤ {rule}"
        if self.verdict == "negative_gap":
            return f"no space: negative gap {_f(self.gap)} pt (overlapping or reversed glyphs are glued)"
        if self.verdict == "existing_space":
            return f"no space: one side already is a space (gap {_f(self.gap)} pt)"
        return f"no space: both glyphs are CJK (gap {_f(self.gap)} pt, threshold {_f(self.threshold)} pt)"


@fast_init  # one per glyph pair: see core/records.py
@dataclass(frozen=True, slots=True)
class LineBreakDecision:
    """Spec §4 for one pair: d = (cur.origin − prev.origin) · normal(prev.direction).

    `backward_jump` is our addition: on the same baseline the next glyph starts
    more than `backward_factor` × height BEHIND the previous glyph's end
    (a new line that happens to share the baseline, e.g. table cells painted
    right to left); small negative gaps stay glued (spec §3).
    """

    before: int
    after: int
    verdict: LineBreakVerdict
    displacement: float  # d, signed
    threshold: float  # factor × height
    factor: float  # Parameters.line_break
    height: float  # max(prev.height, cur.height)
    gap: float  # along the direction, for the backward-jump test
    backward_threshold: float  # −backward_factor × height

    @property
    def is_break(self) -> bool:
        return self.verdict != "same_line"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "line_break",
            "before": self.before,
            "after": self.after,
            "verdict": self.verdict,
            "displacement": _r(self.displacement),
            "threshold": _r(self.threshold),
            "factor": self.factor,
            "height": _r(self.height),
            "gap": _r(self.gap),
            "backward_threshold": _r(self.backward_threshold),
        }

    def describe(self) -> str:
        rule = f"{_f(self.factor)} × {_f(self.height)} pt = {_f(self.threshold)} pt"
        d = abs(self.displacement)
        if self.verdict == "break":
            return f"line break: displacement {_f(d)} pt > {rule}"
        if self.verdict == "backward_jump":
            return (
                f"line break: jump back {_f(self.gap)} pt < {_f(self.backward_threshold)} pt "
                f"on the same baseline (displacement {_f(d)} pt ≤ {rule})"
            )
        return f"same line: displacement {_f(d)} pt ≤ {rule}"


@fast_init  # one per glyph pair: see core/records.py
@dataclass(frozen=True, slots=True)
class ColumnChangeDecision:
    """Vertical writing (spec §4, §9): a glyph stays in the column when its box centre lies in it."""

    before: int
    after: int
    verdict: ColumnChangeVerdict
    column: int  # column index of `after` within its vertical run (0 = rightmost)
    center_x: float  # box centre x of `after`
    column_x0: float  # horizontal extent of the column of `before`
    column_x1: float

    @property
    def is_break(self) -> bool:
        return self.verdict == "column_change"

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "column_change",
            "before": self.before,
            "after": self.after,
            "verdict": self.verdict,
            "column": self.column,
            "center_x": _r(self.center_x),
            "column_x0": _r(self.column_x0),
            "column_x1": _r(self.column_x1),
        }

    def describe(self) -> str:
        span = f"[{_f(self.column_x0)}, {_f(self.column_x1)}]"
        if self.verdict == "column_change":
            return f"line break (vertical column change): centre x {_f(self.center_x)} outside column {span}"
        return f"same vertical column: centre x {_f(self.center_x)} inside {span}"


@dataclass(frozen=True, slots=True)
class VerticalColumn:
    """One column of a vertical-writing run; columns are numbered right to left."""

    column: int
    quad: Quad
    glyphs: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "vertical_column",
            "column": self.column,
            "quad": _quad_json(self.quad),
            "glyphs": list(self.glyphs),
        }

    def describe(self) -> str:
        return f"vertical column {self.column + 1}: {len(self.glyphs)} glyphs, read top to bottom"


@dataclass(frozen=True, slots=True)
class LayoutGrid:
    """The character grid of layout mode (spec §9) in the dominant writing frame."""

    direction: Point  # dominant writing direction (unit vector)
    cell: float  # mean advance of non-space glyphs
    pitch: float  # row pitch
    pitch_source: Literal["median", "fallback"]
    left: float  # visible box's left edge along the direction

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "layout_grid",
            "direction": [_r(self.direction[0]), _r(self.direction[1])],
            "cell": _r(self.cell),
            "pitch": _r(self.pitch),
            "pitch_source": self.pitch_source,
            "left": _r(self.left),
        }

    def describe(self) -> str:
        how = "median baseline distance" if self.pitch_source == "median" else "1.2 × median height"
        return f"layout grid: cell {_f(self.cell)} pt (mean advance), row pitch {_f(self.pitch)} pt ({how})"


@dataclass(frozen=True, slots=True)
class Baseline:
    """One clustered baseline (layout, columns and geometric tails).

    `y` is the baseline position across the dominant direction (user space y for
    upright text); rows are counted in layout pitches, `blank_lines` precede it.
    """

    line: int
    y: float
    quad: Quad
    glyphs: tuple[int, ...]  # paint indices, in reading order along the line
    row: int = -1  # layout only
    distance: float = 0.0  # to the previous baseline
    blank_lines: int = 0  # layout only

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "baseline",
            "line": self.line,
            "y": _r(self.y),
            "row": self.row,
            "distance": _r(self.distance),
            "blank_lines": self.blank_lines,
            "quad": _quad_json(self.quad),
            "glyphs": list(self.glyphs),
        }

    def describe(self) -> str:
        text = f"baseline {self.line + 1} at {_f(self.y)} pt: {len(self.glyphs)} glyphs"
        if self.row >= 0:
            text += f", row {self.row}"
            if self.blank_lines:
                text += f", {_f(self.distance)} pt below the previous: {self.blank_lines} blank line(s)"
        return text


@fast_init  # one per glyph pair: see core/records.py
@dataclass(frozen=True, slots=True)
class GridPlacement:
    """Layout mode: a word placed at a grid column, padded with spaces from the cursor."""

    line: int
    first: int  # paint index of the word's first glyph
    position: float  # along the direction, from the grid's left
    column: int  # round(position / cell)
    cursor: int  # column the line had reached
    pad: int  # spaces emitted

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "grid_placement",
            "line": self.line,
            "first": self.first,
            "position": _r(self.position),
            "column": self.column,
            "cursor": self.cursor,
            "pad": self.pad,
        }

    def describe(self) -> str:
        return (
            f"word at {_f(self.position)} pt → grid column {self.column} (cursor {self.cursor}): "
            f"{self.pad} space(s) of padding"
        )


@dataclass(frozen=True, slots=True)
class ColumnSplit:
    """Columns mode: a baseline split where the gap exceeds factor × mean advance (spec §8, §9)."""

    before: int
    after: int
    gap: float
    threshold: float
    factor: float  # Parameters.columns_gap
    mean_advance: float
    left_quad: Quad  # the segment ending at `before`
    right_quad: Quad  # the segment starting at `after`

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "column_split",
            "before": self.before,
            "after": self.after,
            "gap": _r(self.gap),
            "threshold": _r(self.threshold),
            "factor": self.factor,
            "mean_advance": _r(self.mean_advance),
            "left_quad": _quad_json(self.left_quad),
            "right_quad": _quad_json(self.right_quad),
        }

    def describe(self) -> str:
        return (
            f"column split: gap {_f(self.gap)} pt > {_f(self.factor)} × {_f(self.mean_advance)} pt "
            f"= {_f(self.threshold)} pt"
        )


@dataclass(frozen=True, slots=True)
class TextColumn:
    """Columns mode: one column box and its segment count, emitted left to right."""

    column: int
    quad: Quad
    segments: int
    glyphs: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "text_column",
            "column": self.column,
            "quad": _quad_json(self.quad),
            "segments": self.segments,
            "glyphs": list(self.glyphs),
        }

    def describe(self) -> str:
        return f"column {self.column + 1}: {self.segments} segment(s), {len(self.glyphs)} glyphs"


@dataclass(frozen=True, slots=True)
class StructureOrder:
    """Structure mode: how the page was ordered (MCID buckets, then the untagged tail)."""

    mcid_order: tuple[int, ...]  # buckets emitted, tree order
    tagged: int
    untagged: int
    total: int
    first_untagged: int  # paint index of the tail's first glyph, −1 when none

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "structure_order",
            "mcid_order": list(self.mcid_order),
            "tagged": self.tagged,
            "untagged": self.untagged,
            "total": self.total,
            "first_untagged": self.first_untagged,
        }

    def describe(self) -> str:
        return (
            f"structure order: {len(self.mcid_order)} MCID bucket(s), {self.tagged} tagged glyphs, "
            f"{self.untagged} of {self.total} untagged (appended in geometric order)"
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
)
