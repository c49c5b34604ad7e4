"""Word spaces from geometry (spec §3, §9; letter-spaced runs: core/assembly/tracking.py)."""

from __future__ import annotations

from glyphscope.core.assembly.chars import TextInfo, text_info
from glyphscope.core.assembly.decisions import WordGapDecision, WordGapVerdict
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters


def word_gap_decision(
    prev: Glyph,
    cur: Glyph,
    params: Parameters,
    before: TextInfo | None = None,
    after: TextInfo | None = None,
    tracking: float = 0.0,
) -> WordGapDecision:
    """Space between two glyphs on the same line?

    gap = (cur.origin − prev.glyph_end) · prev.direction, measured from the
    glyph's OWN advance so Tc/Tw given back by TJ creates no false space;
    threshold = word_gap × cur.height, never Tfs (producers write `1 Tf`).
    Inside a letter-spaced stretch (`tracking` > 0, core/assembly/tracking.py) the
    threshold is tracking + word_gap × cur.height and a gap at or below it is
    verdict `tracking`.
    """
    ux, uy = prev.direction
    gap = (cur.origin[0] - prev.glyph_end[0]) * ux + (cur.origin[1] - prev.glyph_end[1]) * uy
    height = cur.height
    threshold = params.word_gap * height
    if before is None:
        before = text_info(prev)
    if after is None:
        after = text_info(cur)
    verdict: WordGapVerdict
    if before.last_space or after.first_space:
        verdict = "existing_space"
    elif before.last_cjk and after.first_cjk:
        # spec §9: justification spreads ideographs, but a full ideograph of empty space
        # (cjk_gap × height) separates cells or fields
        verdict = "cjk_gap" if gap > params.cjk_gap * height else "cjk_pair"
    elif gap > threshold + tracking:
        verdict = "inserted"
    elif tracking > 0.0:
        verdict = "tracking"
    elif gap < 0.0:
        verdict = "negative_gap"
    else:
        verdict = "below_threshold"
    return WordGapDecision(
        prev.paint_index,
        cur.paint_index,
        verdict,
        gap,
        threshold,
        params.word_gap,
        height,
        params.cjk_gap,
        tracking if verdict == "inserted" or verdict == "tracking" else 0.0,
    )
