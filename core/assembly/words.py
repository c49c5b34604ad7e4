"""Word spaces from geometry (spec §3, §9; letter-spaced runs: core/assembly/tracking.py)."""

from __future__ import annotations

from typing import TypeAlias

from glyphscope.core.assembly.chars import RTL_CANDIDATE, TextInfo, text_info
from glyphscope.core.assembly.lines import BACKWARD_JUMP
from glyphscope.core.assembly.verdicts import (
    WG_BELOW_THRESHOLD,
    WG_CJK_GAP,
    WG_CJK_PAIR,
    WG_EXISTING_SPACE,
    WG_INSERTED,
    WG_NEGATIVE_GAP,
    WG_RTL_GAP,
    WG_TRACKING,
)
from glyphscope.core.glyph import FlowFields
from glyphscope.core.params import Parameters

WordGapMeasure: TypeAlias = tuple[int, float, float, float]
"""What the rule found for one pair: (verdict code (WORD_GAP_VERDICTS), gap, height, tracking);
tracking is kept only where the verdict compared it (`inserted`, `tracking`), else 0.0."""


def word_gap_measure(
    prev: FlowFields,
    cur: FlowFields,
    params: Parameters,
    before: TextInfo | None = None,
    after: TextInfo | None = None,
    tracking: float = 0.0,
) -> WordGapMeasure:
    """Space between two glyphs on the same line? (The rule; `word_gap_decision` is its record.)

    gap = (cur.origin − prev.glyph_end) · prev.direction, measured from the
    glyph's OWN advance so Tc/Tw given back by TJ creates no false space;
    threshold = word_gap × cur.height, never Tfs (producers write `1 Tf`).
    Inside a letter-spaced stretch (`tracking` > 0, core/assembly/tracking.py) the
    threshold is tracking + word_gap × cur.height and a gap at or below it is
    verdict `tracking`.
    """
    ux, uy = prev.direction
    origin, end = cur.origin, prev.glyph_end
    gap = (origin[0] - end[0]) * ux + (origin[1] - end[1]) * uy
    height = cur.height
    if before is None:
        before = text_info(prev)
    if after is None:
        after = text_info(cur)
    if before.last_space or after.first_space:
        return WG_EXISTING_SPACE, gap, height, 0.0
    if before.last_cjk and after.first_cjk:
        # spec §9: justification spreads ideographs, but a full ideograph of empty space
        # (cjk_gap × height) separates cells or fields
        return (WG_CJK_GAP if gap > params.cjk_gap * height else WG_CJK_PAIR), gap, height, 0.0
    if gap > params.word_gap * height + tracking:
        return WG_INSERTED, gap, height, tracking
    if tracking > 0.0:
        return WG_TRACKING, gap, height, tracking
    if gap < 0.0:
        rtl = rtl_sides(before.text, after.text)
        leftward = rtl_leftward_gap(prev, cur) if rtl else None
        # two right-to-left letters far apart: pieces of a word painted out of order are glued
        if leftward is not None and (rtl == 1 or leftward <= BACKWARD_JUMP * height):
            if leftward > params.word_gap * height:
                return WG_RTL_GAP, leftward, height, 0.0
            return WG_BELOW_THRESHOLD, leftward, height, 0.0
    return (WG_NEGATIVE_GAP if gap < 0.0 else WG_BELOW_THRESHOLD), gap, height, 0.0


def rtl_sides(before: str, after: str) -> int:
    """How many of the pair's facing characters are right-to-left letters (Hebrew, Arabic and
    their presentation forms, … : chars.RTL_CANDIDATE): 0, 1 or 2."""
    return (1 if before and RTL_CANDIDATE.match(before[-1]) else 0) + (
        1 if after and RTL_CANDIDATE.match(after[0]) else 0
    )


def rtl_leftward_gap(prev: FlowFields, cur: FlowFields) -> float | None:
    """A right-to-left pair painted leftwards (cur starts left of prev): the gap on its reading
    side, from cur's end to prev's start, along prev's direction; None when cur is not left of prev."""
    ux, uy = prev.direction
    start, end = prev.origin, cur.glyph_end
    if (cur.origin[0] - start[0]) * ux + (cur.origin[1] - start[1]) * uy >= 0.0:
        return None
    return (start[0] - end[0]) * ux + (start[1] - end[1]) * uy
