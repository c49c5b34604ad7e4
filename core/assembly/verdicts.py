"""The verdicts of the pair rules (spec §3, §4) and their codes: what the rules return.

The pair rules (core/assembly/words.py, lines.py) return a code (a small int) and their
numbers; the page's decision list stores them in columns (core/assembly/decision_store.py)
and the record's verdict is the name at that index (core/assembly/decisions.py). Kept apart
from the record classes so assembling text imports no record class (start-up time, issue 29).
"""

from __future__ import annotations

from enum import StrEnum


class WordGapVerdict(StrEnum):
    """The word-gap rule's verdicts (spec §3), in code order (WG_*)."""

    BELOW_THRESHOLD = "below_threshold"
    INSERTED = "inserted"
    EXISTING_SPACE = "existing_space"
    CJK_PAIR = "cjk_pair"
    CJK_GAP = "cjk_gap"
    NEGATIVE_GAP = "negative_gap"
    TRACKING = "tracking"
    RTL_GAP = "rtl_gap"


class LineBreakVerdict(StrEnum):
    """The line-break rule's verdicts (spec §4), in code order (LB_*)."""

    SAME_LINE = "same_line"
    BREAK = "break"
    BACKWARD_JUMP = "backward_jump"
    STACKED = "stacked"


class ColumnChangeVerdict(StrEnum):
    """Whether a line pair crosses into another column (flow order)."""

    COLUMN_CHANGE = "column_change"
    SAME_COLUMN = "same_column"


class ReadingVerdict(StrEnum):
    """The scramble measure's verdict (ReadingOrderDecision): read geometrically or keep the stream."""

    GEOMETRIC = "geometric"
    STREAM = "stream"


class BidiVerdict(StrEnum):
    """What the right-to-left pass did with a line (BidiDecision, spec §10)."""

    REORDERED = "reordered"  # written in logical order
    VISUAL = "visual"  # kept in visual order: not right to left
    NO_LEVELS = "no_levels"  # kept: its embedding levels could not be resolved
    PAINTED_LOGICAL = "painted_logical"  # already painted in logical order


LINE_BREAK_VERDICTS: tuple[LineBreakVerdict, ...] = tuple(LineBreakVerdict)
LB_SAME_LINE, LB_BREAK, LB_BACKWARD_JUMP, LB_STACKED = 0, 1, 2, 3
LB_JOINED = frozenset((LB_SAME_LINE, LB_STACKED))
"""The line-break verdicts that write no line break (the pair is read on, word gap decided)."""
WORD_GAP_VERDICTS: tuple[WordGapVerdict, ...] = tuple(WordGapVerdict)
(
    WG_BELOW_THRESHOLD,
    WG_INSERTED,
    WG_EXISTING_SPACE,
    WG_CJK_PAIR,
    WG_CJK_GAP,
    WG_NEGATIVE_GAP,
    WG_TRACKING,
    WG_RTL_GAP,
) = range(8)
WG_SPACE = frozenset((WG_INSERTED, WG_CJK_GAP, WG_RTL_GAP))
"""The word-gap verdicts that generate a space (WordGapDecision.inserted)."""
