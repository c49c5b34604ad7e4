"""The verdicts of the pair rules (spec §3, §4) and their codes: what the rules return.

The pair rules (core/assembly/words.py, lines.py) return a code (a small int) and their
numbers; the page's decision list stores them in columns (core/assembly/decision_store.py)
and the record's verdict is the name at that index (core/assembly/decisions.py). Kept apart
from the record classes so assembling text imports no record class (start-up time, issue 29).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

WordGapVerdict: TypeAlias = Literal[
    "inserted",
    "below_threshold",
    "existing_space",
    "cjk_pair",
    "cjk_gap",
    "negative_gap",
    "tracking",
    "rtl_gap",
]
LineBreakVerdict: TypeAlias = Literal["break", "same_line", "backward_jump", "stacked"]
ColumnChangeVerdict: TypeAlias = Literal["column_change", "same_column"]

LINE_BREAK_VERDICTS: tuple[LineBreakVerdict, ...] = ("same_line", "break", "backward_jump", "stacked")
LB_SAME_LINE, LB_BREAK, LB_BACKWARD_JUMP, LB_STACKED = 0, 1, 2, 3
LB_JOINED = frozenset((LB_SAME_LINE, LB_STACKED))
"""The line-break verdicts that write no line break (the pair is read on, word gap decided)."""
WORD_GAP_VERDICTS: tuple[WordGapVerdict, ...] = (
    "below_threshold",
    "inserted",
    "existing_space",
    "cjk_pair",
    "cjk_gap",
    "negative_gap",
    "tracking",
    "rtl_gap",
)
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
