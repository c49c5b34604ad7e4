"""Letter-spaced runs: a heading tracked wider than the word-gap threshold.

Spec §3 inserts a space wherever the gap after a glyph's own advance exceeds
word_gap × height. A heading set with character spacing (`3 Tc`: `A N E X O`) has
such a gap between every two letters and would read letter by letter. This pass looks
at a line's word-gap measures before anything is written and finds those runs:

* a *candidate* pair is two glyphs on one line whose gap is above the word-gap
  threshold (neither side a space glyph, not a CJK pair: those have their own rules);
* a *stretch* is a maximal sequence of consecutive candidate pairs: every glyph inside
  it stands alone, so ordinary text, whose word spaces lie between multi-letter words
  (pairs below the threshold), never forms one. A space glyph between two letters
  neither ends a stretch nor counts as a candidate (`B I G ␣ W O R D`). The first and
  last gap of a stretch count only when their outer glyph stands alone too (a line's
  end, a space glyph): in justified text `jumps A B C dog` the gaps s→A and C→d touch
  multi-letter words, and the two gaps left are too few;
* only gaps between two letters or digits and at most TRACKING_MAX × height wide can
  make a run (dot leaders and table rows of one-digit cells are equally spaced too);
* inside a stretch, consecutive gaps are clustered left to right: a *run* grows while
  its gaps stay nearly equal ((max − min) / mean ≤ TRACKING_SPREAD) and a gap that
  does not fit starts the next run, so the one wider gap of `B I G  W O R D` breaks
  the runs instead of being swallowed;
* a run of at least TRACKING_MIN_GAPS gaps (≥ 4 glyphs) is letter-spaced; its median
  gap is the *tracking*. The longest such run of a stretch gives the tracking of the
  whole stretch (the short `B I G` beside `W O R D` takes it too).

Inside a tracked stretch a pair becomes a word space only when its gap exceeds
tracking + word_gap × height (core/assembly/words.py, verdict `tracking` otherwise).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from glyphscope.core.assembly.chars import TextInfo
from glyphscope.core.assembly.decision_store import EXISTING, INSERTED, PAIR, THREE_INSERTED
from glyphscope.core.assembly.verdicts import WG_EXISTING_SPACE, WG_INSERTED
from glyphscope.core.assembly.words import WordGapMeasure, word_gap_measure
from glyphscope.core.glyph import FlowFields
from glyphscope.core.params import Parameters

TRACKING_SPREAD = 0.20
"""Gaps of one letter-spaced run differ by at most this fraction of their mean
((max − min) / mean): character spacing is one number (Tc), and kerning or rounding
of TJ adjustments moves a gap by a few hundredths of an em."""

TRACKING_MIN_GAPS = 3
"""A letter-spaced run has at least this many equal gaps (4 glyphs): two equal gaps
(`A B C`) are as likely initials or a short table row."""

TRACKING_MAX = 1.0
"""A gap wider than this many box heights (about an em) is no letter spacing: headings are
tracked by a fraction of an em, while table rows of one-digit cells (the corpus has
gaps of 3.5–5.4 heights) and spaced-out form fields step by several."""


_BREAK = -1
"""Pseudo verdict code of a pair without a word-gap measure (a line break, one replacement span)."""


def _letter_or_digit(info: TextInfo) -> bool:
    """Only letters and digits are letter-spaced: dot leaders (`. . . . 3`) and TeX's
    spaced ellipsis (`1, . . . , n`) are rows of equally spaced punctuation."""
    return info.text.isalnum()


def _median(values: Sequence[float]) -> float:
    s = sorted(values)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) * 0.5


def _longest_run(gaps: Sequence[float | None]) -> list[float]:
    """The longest run of nearly equal consecutive gaps (None ends a run)."""
    best: list[float] = []
    run: list[float] = []
    lo = hi = total = 0.0
    for gap in [*gaps, None]:
        if gap is not None and run:
            nlo, nhi, ntotal = min(lo, gap), max(hi, gap), total + gap
            if (nhi - nlo) * (len(run) + 1) <= TRACKING_SPREAD * ntotal:
                run.append(gap)
                lo, hi, total = nlo, nhi, ntotal
                continue
        if len(run) > len(best):
            best = run
        run = [] if gap is None else [gap]
        lo = hi = total = gap or 0.0
    return best


def letter_spacing(
    measures: Sequence[WordGapMeasure | None], infos: Sequence[TextInfo]
) -> list[float] | None:
    """The tracking of each pair i (glyphs i and i + 1): 0.0 outside letter-spaced stretches.

    `measures[i]` is pair i's word-gap measure taken without tracking, None where no
    word-gap rule decides (a line break, two glyphs of one replacement span); `infos[i]`
    the text facts of glyph i. Returns None when no pair is tracked (the usual case).
    """
    n = len(measures)
    if n < TRACKING_MIN_GAPS:
        return None
    result: list[float] | None = None
    stretch: list[float | None] = []  # gaps of the current stretch, None where no run may pass
    start = 0  # pair index where the current stretch began
    open_left = True  # the glyph before the stretch's first gap stands alone (line start, a space)
    for i in range(n + 1):
        d = measures[i] if i < n else None
        verdict = d[0] if d is not None else _BREAK
        if verdict == WG_INSERTED and d is not None:
            gap: float | None = d[1]
            if d[1] > TRACKING_MAX * d[2] or not (
                _letter_or_digit(infos[i]) and _letter_or_digit(infos[i + 1])
            ):
                gap = None  # a word gap all the same, but it cannot be letter spacing
            if not stretch:
                start = i
            stretch.append(gap)
            continue
        if verdict == WG_EXISTING_SPACE and stretch:
            stretch.append(None)
            continue
        if len(stretch) >= TRACKING_MIN_GAPS:
            # The end glyphs of a stretch may belong to multi-letter words (`jumps A B C dog`):
            # their gaps take the tracking of the stretch but do not make a run.
            if not open_left:
                stretch[0] = None
            if verdict != _BREAK:
                stretch[-1] = None
            run = _longest_run(stretch)
            if len(run) >= TRACKING_MIN_GAPS:
                if result is None:
                    result = [0.0] * n
                tracking = _median(run)
                for k in range(start, start + len(stretch)):
                    result[k] = tracking
        if stretch:
            stretch = []
        open_left = verdict in (_BREAK, WG_EXISTING_SPACE)
    return result


_THREE_INSERTED_VERDICTS = bytes((WG_INSERTED,)) * 3

_STRETCH = re.compile(re.escape(bytes((INSERTED,))) + b"[" + re.escape(bytes((INSERTED, EXISTING))) + b"]*")
"""A stretch in a run's pair codes: an inserted space, then inserted or existing ones."""


def letter_spaced(
    codes: bytes, gaps: Sequence[float], heights: Sequence[float], infos: Sequence[TextInfo]
) -> bool:
    """Whether `letter_spacing` finds a letter-spaced stretch among a run's pairs, given as the
    row codes `TextBuilder.join_run` writes them with (the codes in core/assembly/decision_store.py; none SPECIAL),
    their gaps and word-gap heights, and the glyphs' text facts.

    Each stretch is decided by its own pairs, the pair before it (does its first glyph stand
    alone?) and the pair that ends it (does its last?): `letter_spacing` is asked about each
    stretch that holds three inserted spaces in a row, with those two pairs around it, and
    never about the rest of the run (most pages have no such stretch at all)."""
    for found in _STRETCH.finditer(codes):
        start, end = found.span()
        if codes.find(THREE_INSERTED, start, end) < 0:
            continue
        lo, hi = max(start - 1, 0), min(end + 1, len(codes))
        window: list[WordGapMeasure | None] = [
            (code >> 4, gaps[j], heights[j], 0.0) if code & 3 == PAIR else None
            for j, code in zip(range(lo, hi), codes[lo:hi])
        ]
        if letter_spacing(window, infos[lo : hi + 1]) is not None:
            return True
    return False


def track(
    glyphs: Sequence[FlowFields],
    infos: Sequence[TextInfo],
    measures: list[WordGapMeasure | None],
    params: Parameters,
) -> None:
    """Re-decide, in place, the word gaps of `glyphs` (pair i: glyphs i, i + 1) that lie in
    letter-spaced stretches, with their tracking (Parameters.tracking off: nothing changes)."""
    if not params.tracking:
        return
    # three inserted spaces in a row or no stretch (`letter_spaced`): one C search over the verdicts
    verdicts = bytes([255 if m is None else m[0] for m in measures])
    if verdicts.find(_THREE_INSERTED_VERDICTS) < 0:
        return
    tracking = letter_spacing(measures, infos)
    if tracking is None:
        return
    for i, t in enumerate(tracking):
        if t > 0.0 and measures[i] is not None:
            measures[i] = word_gap_measure(glyphs[i], glyphs[i + 1], params, infos[i], infos[i + 1], t)
