"""The codes a run's pairs are written with when both pair rules (spec §3, §4) are taken in one pass.

`line_break_measure` and `word_gap_measure` (core/assembly/lines.py, words.py) are the rules;
a flow takes both for every pair of consecutive glyphs. `TextBuilder.join_run`
(core/assembly/page_text.py) takes them in one loop over a run's values instead — the common
pair written inline with the very expressions of the rules (same operands, same order: the same
doubles), anything else handed to the rules themselves on a `FlowGlyph` made for the pair — and
keeps each pair as the row the decision store holds for it (core/assembly/decision_store.py):

* a line break: LINE_BREAK + 4 × its verdict (one decision);
* read on along one line: PAIR + 4 × SAME_LINE + 16 × the word gap's verdict (two decisions,
  one gap);
* SPECIAL: a pair whose two decisions the store keeps in two rows (a stacked CJK pair, a
  right-to-left gap measured on its reading side: `one_row` is false), recorded by `add_pair`.
"""

from __future__ import annotations

from glyphscope.core.assembly.decision_store import PAIR
from glyphscope.core.assembly.lines import LineBreakMeasure
from glyphscope.core.assembly.verdicts import (
    LB_SAME_LINE,
    WG_BELOW_THRESHOLD,
    WG_CJK_GAP,
    WG_CJK_PAIR,
    WG_EXISTING_SPACE,
    WG_INSERTED,
    WG_NEGATIVE_GAP,
    WG_SPACE,
)
from glyphscope.core.assembly.words import WordGapMeasure
from glyphscope.core.geometry import Point

FlowRow = tuple[int, str, Point, Point, float, Point]
"""What the rules read of a glyph: paint_index, unicode, origin, glyph_end, height, direction
(a FlowGlyph's first six fields)."""

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

SPACES = frozenset(SAME + 16 * verdict for verdict in WG_SPACE)
"""The codes of pairs whose word gap writes a space (WordGapDecision.inserted)."""

THREE_INSERTED = bytes((INSERTED,)) * 3
"""A letter-spaced stretch needs three inserted spaces in a row (core/assembly/tracking.py: a run
of at least TRACKING_MIN_GAPS equal gaps, each above the word-gap threshold); ordinary text has a
word between two."""


__all__ = [
    "BELOW",
    "CJK_GAP",
    "CJK_PAIR",
    "EXISTING",
    "INSERTED",
    "NEGATIVE",
    "PAIR",
    "SAME",
    "SPACES",
    "SPECIAL",
    "THREE_INSERTED",
    "FlowRow",
    "one_row",
]


def one_row(lb: LineBreakMeasure, wg: WordGapMeasure) -> bool:
    """Whether a pair's two decisions share one row of the store (`DecisionColumns.add_pair`):
    read on along one line, with one gap (the same float: of the same sign when zero)."""
    gap, word_gap = lb[3], wg[1]
    return lb[0] == LB_SAME_LINE and word_gap == gap and (gap != 0.0 or str(gap) == str(word_gap))
