"""A page text's decisions held as columns; each record made when it is asked for (memory: most are never read).

Assembly takes a line-break decision for every glyph pair and a word-gap decision for
every pair on one line: two records per glyph, ~380 bytes per glyph held as frozen
dataclasses with their floats. `DecisionColumns` holds one ROW per glyph pair instead,
in typed arrays:

* `first`  (array 'i') — index in the list of the row's first decision
* `code`   (array 'B') — the row's shape + 4 × line-break verdict code + 16 × word-gap
  verdict code (LINE_BREAK_VERDICTS, WORD_GAP_VERDICTS in core/assembly/decisions.py)
* `before`, `after` (array 'i') — the pair's paint indices (a RECORD row: `before` is the
  record's index in `records`)
* `gap`, `displacement`, `line_height`, `word_height` (array 'd') — the numbers the rules
  measured; `tracking` ({row: tracking}) only for the few pairs of letter-spaced runs

Shapes: LINE_BREAK (a line-break decision alone: a break, after which no word gap is
decided), PAIR (the line-break then the word-gap decision of one pair: same glyphs, one
gap), WORD_GAP (a word gap alone: layout mode decides no line breaks), RECORD (any other
decision — ligature, replacement span, column, baseline … — kept as the record itself).

The numbers a record derives from them (line_break × height, −BACKWARD_JUMP × height,
word_gap × height, the factors) are made by the very functions the rules' own records
come from (`line_break_record`, `word_gap_record`) with the Parameters the assembly used,
so a record made on demand is equal, field by field, to the one the rule would have made.

`DecisionList` is the read-only `Sequence[Decision]` a `PageText` carries: len, indexing
(the character map's decision indices point into it), slicing, iteration in decision order,
`of_kind` (records of some classes only, without making the others) and `extended`.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from glyphscope.core.assembly.verdicts import (
    LB_SAME_LINE,
    WG_BELOW_THRESHOLD,
    WG_CJK_GAP,
    WG_CJK_PAIR,
    WG_EXISTING_SPACE,
    WG_INSERTED,
    WG_NEGATIVE_GAP,
)
from glyphscope.core.gcpause import gc_paused

if TYPE_CHECKING:
    # The record classes are imported when a record is first made from the columns: assembling
    # text (`glyphscope text`) makes none, so it does not build them (start-up time, issue 29).
    from glyphscope.core.assembly.decisions import Decision
    from glyphscope.core.assembly.lines import LineBreakMeasure
    from glyphscope.core.assembly.words import WordGapMeasure

LINE_BREAK, PAIR, WORD_GAP, RECORD = 0, 1, 2, 3
"""Row shapes (the low two bits of `code`)."""


# ---------------------------------------------------------------- a run's pairs, one code each
#
# `TextBuilder.join_run` (core/assembly/page_text.py) takes both pair rules (spec §3, §4) for a
# whole run in one loop — the common pair written inline with the very expressions of
# `line_break_measure` and `word_gap_measure` (same operands, same order: the same doubles),
# anything else handed to the rules themselves — and keeps each pair as the code of the row the
# store holds for it, one byte:
#
# * a line break: LINE_BREAK + 4 × its verdict (one decision);
# * read on along one line: PAIR + 4 × SAME_LINE + 16 × the word gap's verdict (two decisions,
#   one gap);
# * SPECIAL: a pair whose two decisions the store keeps in two rows (a stacked CJK pair, a
#   right-to-left gap measured on its reading side: `one_row` is false), recorded by `add_pair`.

SPECIAL = 255
"""The code of a pair kept in two rows; above every row code (they fit a byte: the codes of a
run are searched as bytes for three inserted spaces in a row, `THREE_INSERTED`)."""

SAME = PAIR + 4 * LB_SAME_LINE  # + 16 × the word gap's verdict: a pair read on along one line
EXISTING = SAME + 16 * WG_EXISTING_SPACE
CJK_GAP = SAME + 16 * WG_CJK_GAP
CJK_PAIR = SAME + 16 * WG_CJK_PAIR
INSERTED = SAME + 16 * WG_INSERTED
NEGATIVE = SAME + 16 * WG_NEGATIVE_GAP
BELOW = SAME + 16 * WG_BELOW_THRESHOLD

THREE_INSERTED = bytes((INSERTED,)) * 3
"""A letter-spaced stretch needs three inserted spaces in a row (core/assembly/tracking.py: a run
of at least TRACKING_MIN_GAPS equal gaps, each above the word-gap threshold); ordinary text has a
word between two."""


def one_row(lb: LineBreakMeasure, wg: WordGapMeasure) -> bool:
    """Whether a pair's two decisions share one row of the store (`DecisionColumns.add_pair`):
    read on along one line, with one gap (the same float: of the same sign when zero)."""
    gap, word_gap = lb[3], wg[1]
    return lb[0] == LB_SAME_LINE and word_gap == gap and (gap != 0.0 or str(gap) == str(word_gap))


class DecisionColumns:
    """The append-only columns one assembly fills (see the module docstring).

    `line_break`, `word_gap` and `cjk_gap` are the Parameters the pair rules used.
    """

    __slots__ = (
        "line_break",
        "word_gap",
        "cjk_gap",
        "first",
        "code",
        "before",
        "after",
        "gap",
        "displacement",
        "line_height",
        "word_height",
        "tracking",
        "records",
        "count",
    )

    def __init__(self, line_break: float, word_gap: float, cjk_gap: float) -> None:
        self.line_break = line_break
        self.word_gap = word_gap
        self.cjk_gap = cjk_gap
        self.first = array("i")
        self.code = array("B")
        self.before = array("i")
        self.after = array("i")
        self.gap = array("d")
        self.displacement = array("d")
        self.line_height = array("d")
        self.word_height = array("d")
        self.tracking: dict[int, float] = {}
        self.records: list[Decision] = []
        self.count = 0  # decisions held

    def __len__(self) -> int:
        return self.count

    def _row(self, shape: int, before: int, after: int, gap: float) -> None:
        self.first.append(self.count)
        self.code.append(shape)
        self.before.append(before)
        self.after.append(after)
        self.gap.append(gap)
        self.count += 1

    def add(self, record: Decision) -> int:
        """Any record, kept as it is; returns its index."""
        self._row(RECORD, len(self.records), -1, 0.0)
        self.records.append(record)
        self.displacement.append(0.0)
        self.line_height.append(0.0)
        self.word_height.append(0.0)
        return self.count - 1

    def add_line_break(self, before: int, after: int, measure: LineBreakMeasure) -> int:
        """The line-break decision of pair (before, after); returns its index."""
        code, displacement, height, gap = measure
        self._row(LINE_BREAK + 4 * code, before, after, gap)
        self.displacement.append(displacement)
        self.line_height.append(height)
        self.word_height.append(0.0)
        return self.count - 1

    def add_word_gap(self, before: int, after: int, measure: WordGapMeasure) -> int:
        """The word-gap decision of pair (before, after); returns its index.

        Right after the same pair's same-line decision, with the very same gap, it joins
        that row (the usual case); otherwise it takes a row of its own.
        """
        code, gap, height, tracking = measure
        row = len(self.code) - 1
        if (
            row >= 0
            and self.code[row] == LINE_BREAK + 4 * LB_SAME_LINE
            and self._same_pair(row, before, after, gap)
        ):
            self.code[row] = PAIR + 4 * LB_SAME_LINE + 16 * code
            self.word_height[row] = height
            self.count += 1
        else:  # a row of its own (_row, inline: layout mode takes one per pair)
            self.first.append(self.count)
            self.code.append(WORD_GAP + 16 * code)
            self.before.append(before)
            self.after.append(after)
            self.gap.append(gap)
            self.displacement.append(0.0)
            self.line_height.append(0.0)
            self.word_height.append(height)
            self.count += 1
            row += 1
        if tracking != 0.0:
            self.tracking[row] = tracking
        return self.count - 1

    def add_pair(self, before: int, after: int, lb: LineBreakMeasure, wg: WordGapMeasure | None) -> int:
        """`add_line_break`, then `add_word_gap` when `wg` is given, in one row; returns the
        line-break decision's index."""
        code, displacement, line_height, gap = lb
        index = self.count
        if wg is None:
            row_code = LINE_BREAK + 4 * code
            word_height = 0.0
            self.count = index + 1
        else:
            word, word_gap, word_height, tracking = wg
            if code != LB_SAME_LINE or word_gap != gap or (gap == 0.0 and str(gap) != str(word_gap)):
                self.add_line_break(before, after, lb)  # not one pair's two decisions with one gap
                self.add_word_gap(before, after, wg)
                return index
            row_code = PAIR + 4 * code + 16 * word
            if tracking != 0.0:
                self.tracking[len(self.code)] = tracking
            self.count = index + 2
        self.first.append(index)
        self.code.append(row_code)
        self.before.append(before)
        self.after.append(after)
        self.gap.append(gap)
        self.displacement.append(displacement)
        self.line_height.append(line_height)
        self.word_height.append(word_height)
        return index

    def extend_pairs(
        self,
        firsts: list[int],
        codes: list[int],
        before: list[int],
        after: list[int],
        gaps: list[float],
        displacements: list[float],
        line_heights: list[float],
        word_heights: list[float],
    ) -> None:
        """Rows of pairs in bulk (one C call per column), each a LINE_BREAK or PAIR row as
        `add_pair` would have made it (the pairs of a run, TextBuilder.join_run):
        `firsts` their first decisions' indices, from `count` on."""
        # fromlist: a list converted in one C loop (extend takes the iterator protocol, 4× slower)
        self.first.fromlist(firsts)
        self.code.fromlist(codes)
        self.before.fromlist(before)
        self.after.fromlist(after)
        self.gap.fromlist(gaps)
        self.displacement.fromlist(displacements)
        self.line_height.fromlist(line_heights)
        self.word_height.fromlist(word_heights)
        if codes:
            self.count = firsts[-1] + 1 + (codes[-1] & 3 == PAIR)

    def _same_pair(self, row: int, before: int, after: int, gap: float) -> bool:
        held = self.gap[row]
        # the same float: equal, and of the same sign when zero (JSON writes −0.0)
        same_gap = held == gap and (gap != 0.0 or str(held) == str(gap))
        return same_gap and self.before[row] == before and self.after[row] == after

    def get(self, index: int) -> Decision:
        """The record of decision `index` (0 ≤ index < count), made from the columns."""
        row = bisect_right(self.first, index) - 1
        return self.record(row, index - self.first[row])

    def set_record(self, index: int, record: Decision) -> None:
        """Replace the record held at `index` (added by `add`)."""
        row = bisect_right(self.first, index) - 1
        if row < 0 or self.code[row] & 3 != RECORD:
            raise IndexError(f"decision {index} is not a held record")
        self.records[self.before[row]] = record

    def record(self, row: int, part: int) -> Decision:
        """The record of decision `part` (0 or 1) of `row`, made from the columns."""
        code = self.code[row]
        shape = code & 3
        if shape == RECORD:
            return self.records[self.before[row]]
        from glyphscope.core.assembly.decisions import line_break_record, word_gap_record

        before, after, gap = self.before[row], self.after[row], self.gap[row]
        if shape == LINE_BREAK or (shape == PAIR and part == 0):
            return line_break_record(
                before,
                after,
                (code >> 2) & 3,
                self.displacement[row],
                self.line_height[row],
                gap,
                self.line_break,
            )
        tracking = self.tracking.get(row, 0.0)
        return word_gap_record(
            before, after, code >> 4, gap, self.word_height[row], tracking, self.word_gap, self.cjk_gap
        )

    def make_all(self, rows: int, count: int) -> list[Decision]:
        """The records of the first `count` decisions (in the first `rows` rows), in order:
        those of the pair rules made, the others as held."""
        from glyphscope.core.assembly.decisions import line_break_record, word_gap_record

        line_break, word_gap, cjk_gap, tracking, records = (
            self.line_break,
            self.word_gap,
            self.cjk_gap,
            self.tracking,
            self.records,
        )
        out: list[Decision] = []
        add = out.append
        columns = zip(
            self.code,
            self.before,
            self.after,
            self.gap,
            self.displacement,
            self.line_height,
            self.word_height,
        )
        for row, (code, before, after, gap, displacement, line_height, word_height) in enumerate(columns):
            if row >= rows:
                break
            shape = code & 3
            if shape == RECORD:
                add(records[before])
                continue
            if shape != WORD_GAP:
                add(
                    line_break_record(
                        before, after, (code >> 2) & 3, displacement, line_height, gap, line_break
                    )
                )
                if shape == LINE_BREAK:
                    continue
            t = tracking.get(row, 0.0) if tracking else 0.0
            add(word_gap_record(before, after, code >> 4, gap, word_height, t, word_gap, cjk_gap))
        del out[count:]
        return out

    def held(self, rows: int) -> list[Decision]:
        """The records held as they are (not the pair rules'), in order, in the first `rows` rows."""
        return [
            self.records[b] for code, b, _ in zip(self.code, self.before, range(rows)) if code & 3 == RECORD
        ]

    def copy(self) -> DecisionColumns:
        other = DecisionColumns(self.line_break, self.word_gap, self.cjk_gap)
        for name in ("first", "code", "before", "after", "gap", "displacement", "line_height", "word_height"):
            setattr(other, name, array(getattr(self, name).typecode, getattr(self, name)))
        other.tracking = dict(self.tracking)
        other.records = list(self.records)
        other.count = self.count
        return other


class DecisionList(Sequence["Decision"]):  # the records are imported on first use
    """The decisions of a page text, in the order assembly took them (read-only).

    Records are made from `DecisionColumns` when first read and then kept, so every
    reader sees the same record objects (a decision mark on the canvas and the session's
    selected decision compare with `is`); a list nobody reads holds only the columns.
    The columns are complete when the list is made (TextBuilder.build): nothing is
    added to them afterwards.
    """

    __slots__ = ("_columns", "_len", "_rows", "_made", "_complete", "_pair_rows")

    def __init__(self, columns: DecisionColumns) -> None:
        self._columns = columns
        self._len = columns.count
        self._rows = len(columns.code)
        self._made: list[Decision | None] | None = None  # by index, once read
        self._complete = False  # every record made
        self._pair_rows: tuple[dict[tuple[int, int], int], dict[int, int]] | None = None  # pairs_of's index

    @classmethod
    def of(cls, records: Iterable[Decision] = ()) -> DecisionList:
        """A list holding these records as they are."""
        columns = DecisionColumns(0.0, 0.0, 0.0)
        for r in records:
            columns.add(r)
        return cls(columns)

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> Decision: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Decision, ...]: ...

    def __getitem__(self, index: int | slice) -> Decision | tuple[Decision, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(self._len)))
        n = self._len
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("decision index out of range")
        made = self._made
        if made is None:
            made = self._made = [None] * n
        found = made[i]
        if found is None:
            c = self._columns
            row = bisect_right(c.first, i, 0, self._rows) - 1
            found = made[i] = c.record(row, i - c.first[row])
        return found

    def __iter__(self) -> Iterator[Decision]:
        if not self._complete:
            self._make_all()
        return iter(self._made)  # type: ignore[arg-type]  # complete: no None left

    def _make_all(self) -> None:
        """Every record, made in one go (a reader iterating wants them all; the cyclic
        collector is paused as during assembly, core/gcpause.py)."""
        made = self._made
        with gc_paused():
            records = self._columns.make_all(self._rows, self._len)
            if made is not None:  # the records read before stay the same objects
                records = [r if kept is None else kept for r, kept in zip(records, made)]
        self._made = records  # type: ignore[assignment]
        self._complete = True

    def of_kind(self, kind: type | tuple[type, ...]) -> list[Any]:
        """The records that are instances of `kind`, in order; the pair rules' rows are made
        into records only when `kind` can match them."""
        from glyphscope.core.assembly.decisions import LineBreakDecision, WordGapDecision

        try:
            pairs = issubclass(LineBreakDecision, kind) or issubclass(WordGapDecision, kind)
        except TypeError:  # a protocol with data members: test every record
            pairs = True
        if pairs or self._complete:
            return [d for d in self if isinstance(d, kind)]
        return [d for d in self._columns.held(self._rows) if isinstance(d, kind)]  # the very objects

    def pairs_of(self, before: int | None, after: int) -> list[Decision]:
        """The pair rules' decisions (line break, word gap) of glyph pair (before, after), or with
        `before` None of the pairs ending at `after`: made on demand, the same objects as `self[i]`.
        The first call indexes the columns (C-speed dicts of each pair's and each after-glyph's
        first row); a reader wanting a few pairs of a page — Compare explaining its differences —
        makes only those records."""
        if self._pair_rows is None:
            c, n = self._columns, self._rows
            rows = range(n - 1, -1, -1)  # reversed: the dicts keep each key's first row
            after_r = c.after[:n][::-1]
            self._pair_rows = (dict(zip(zip(c.before[:n][::-1], after_r), rows)), dict(zip(after_r, rows)))
        by_pair, by_after = self._pair_rows
        row = by_after.get(after) if before is None else by_pair.get((before, after))
        out: list[Decision] = []
        c = self._columns
        while row is not None and row < self._rows and c.after[row] == after:
            if before is not None and c.before[row] != before:
                break
            shape = c.code[row] & 3
            if shape != RECORD:
                first = c.first[row]
                out.extend(
                    self[i] for i in ((first, first + 1) if shape == PAIR else (first,)) if i < self._len
                )
            row += 1
        return out

    def held_records(self) -> list[Decision]:
        """The records held as they are (not the pair rules'), in order: the very objects."""
        return self._columns.held(self._rows)

    def extended(self, records: Iterable[Decision]) -> DecisionList:
        """A new list: these decisions, then `records` (indices of the first ones stay valid)."""
        columns = self._columns.copy()
        for r in records:
            columns.add(r)
        out = DecisionList(columns)
        if self._made is not None:  # the records already read stay the same objects
            out._made = [*self._made, *([None] * (out._len - self._len))]
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (DecisionList, tuple, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<DecisionList of {self._len} decisions>"


EMPTY_DECISIONS = DecisionList.of()
