"""Layout mode (spec §8, §9): baselines on a monospaced character grid."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from glyphscope.core.assembly.actual_text import ActualTextSpans
from glyphscope.core.assembly.baselines import cluster_baselines, dominant_frame, mean_advance, median
from glyphscope.core.assembly.chars import SPACE_LIKE, text_info
from glyphscope.core.assembly.decisions import Baseline, CoveredSpace, GridPlacement, LayoutGrid
from glyphscope.core.assembly.flow import sideways_as_horizontal
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.assembly.tracking import track
from glyphscope.core.assembly.verdicts import WG_SPACE
from glyphscope.core.assembly.words import word_gap_measure
from glyphscope.core.geometry import Point, Rect
from glyphscope.core.glyph import Glyph
from glyphscope.core.params import Parameters

PITCH_FALLBACK = 1.2
"""Row pitch when the page has a single baseline: 1.2 × median height (spec §9), the usual leading."""

MAX_COLUMN = 2_000
"""The furthest grid column a word is padded to. A Letter page is ~120 columns of a 5 pt cell;
a hostile page (a 1e-9 text matrix, a 1e15 pt media box) puts a word billions of cells out,
and its line would be billions of spaces: such a word is placed at this column."""

MAX_BLANK_ROWS = 500
"""The most blank rows written between two baselines, for the same reason (a Letter page at a
12 pt pitch has 66 rows)."""


def _grid_steps(distance: float, unit: float, fallback: int, most: int) -> int:
    """round(distance / unit), at most `most`; `fallback` when it is not a number."""
    if not unit > 0:
        return fallback
    ratio = distance / unit
    if ratio != ratio:
        return fallback
    return round(max(min(ratio, most), -most))


def layout_text(
    visible: Sequence[Glyph], params: Parameters, visible_box: Rect, spans: ActualTextSpans | None = None
) -> PageText:
    """Rows from clustered baselines, columns = round((along − left) / cell).

    Everything is measured in the dominant writing frame, so a page whose text
    is all rotated 90° lays out like an upright one. Words (split by the
    word-gap rule) are placed on the grid; glyphs inside a word stay together,
    and two words the grid would glue still get one space.
    """
    out = TextBuilder(params, actual_text=spans)
    if not visible:
        return out.build("layout")
    visible = sideways_as_horizontal(visible)
    frame = dominant_frame(visible)
    lines = cluster_baselines(visible, frame, params)
    heights = [g.height for g in visible if not SPACE_LIKE[g.unicode] and g.height > 0] or [1.0]
    cell = mean_advance(visible) or 0.5 * median(heights)
    distances = [lines[i - 1].y - lines[i].y for i in range(1, len(lines))]
    pitch = median(distances)
    source: Literal["median", "fallback"] = "median"
    if pitch <= 0:
        pitch, source = PITCH_FALLBACK * median(heights), "fallback"
    x0, y0, x1, y1 = visible_box
    left = min(frame.along(p) for p in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)))
    out.decide(LayoutGrid(frame.direction, cell, pitch, source, left))

    row = 0
    for li, line in enumerate(lines):
        distance = lines[li - 1].y - line.y if li else 0.0
        steps = _grid_steps(distance, pitch, 1, MAX_BLANK_ROWS + 1) if li else 0
        blank = max(0, steps - 1)
        row = row + max(1, steps) if li else 0
        glyphs, covered = _covered_spaces(line.glyphs, frame.along, left)
        a0, c0, a1, c1 = frame.extent(glyphs)
        b = Baseline(
            li,
            line.y,
            frame.quad(a0, c0, a1, c1),
            tuple(g.paint_index for g in glyphs),
            row,
            distance,
            blank,
        )
        bi = out.decide(b)
        for record in covered:
            out.decide(record)
        out.newline(bi, 1 + blank)
        _emit_line(glyphs, li, out, params, frame.along, left, cell)
    return out.build("layout")


def _covered_spaces(
    glyphs: Sequence[Glyph], along: Callable[[Point], float], left: float
) -> tuple[Sequence[Glyph], list[CoveredSpace]]:
    """The line's glyphs (sorted along it) without the space glyphs that lie strictly inside the
    advance of a letter before them on the line, and a record for each one left out. A space
    under a letter is painted over and separates nothing; kept, it would start a word in the
    middle of one and the grid would pad it (a horizontal font's space standing in a sideways
    vertical column: `縦書きのテ  スト`). A space painted right after that letter is its own word
    space and stays (a vertical-form bracket turned into a line: its advance along the line is a
    full em, wider than its ink, and the space the producer wrote after it falls inside it). Extents are measured from the grid's left edge `left`."""
    spaces = [SPACE_LIKE[g.unicode] for g in glyphs]  # g.is_space
    if not any(spaces):
        return glyphs, []
    kept: list[Glyph] = []
    covered: list[CoveredSpace] = []
    reach: tuple[Glyph, float, float] | None = None  # the letter so far that reaches furthest
    for g, space in zip(glyphs, spaces):
        a, b = along(g.origin) - left, along(g.glyph_end) - left
        lo, hi = (a, b) if a <= b else (b, a)
        if not space:
            if reach is None or hi > reach[2]:
                reach = (g, lo, hi)
        elif (
            reach is not None
            and reach[1] < lo
            and hi < reach[2]
            and g.paint_index != reach[0].paint_index + 1
        ):
            covered.append(CoveredSpace(g.paint_index, reach[0].paint_index, (lo, hi), (reach[1], reach[2])))
            continue
        kept.append(g)
    return (kept, covered) if covered else (glyphs, [])


def _emit_line(
    glyphs: Sequence[Glyph],
    li: int,
    out: TextBuilder,
    params: Parameters,
    along: Callable[[Point], float],
    left: float,
    cell: float,
) -> None:
    cursor = 0
    prev: Glyph | None = None
    spans = out.actual is not None
    info_of = out.info if spans else text_info  # a replacement span: its text's facts
    # The line's word gaps first, re-decided in letter-spaced stretches (core/assembly/tracking.py).
    infos = [info_of(g) for g in glyphs]
    gaps = [
        None if spans and out.same_span(a, b) else word_gap_measure(a, b, params, infos[k], infos[k + 1])
        for k, (a, b) in enumerate(zip(glyphs, glyphs[1:]))
    ]
    track(glyphs, infos, gaps, params)
    decide_word_gap, generated, write = out.decide_word_gap, out.generated, out.glyph
    for k, g in enumerate(glyphs):
        if spans and prev is not None and out.same_span(prev, g):
            cursor += write(g)  # inside one /ActualText span: written once, nothing decided
            prev = g
            continue
        info = infos[k]
        starts_word = prev is None
        inserted = False
        if prev is not None:
            before = infos[k - 1]
            wg = gaps[k - 1] or word_gap_measure(prev, g, params, before, info)
            wi = decide_word_gap(prev.paint_index, g.paint_index, wg)
            inserted = wg[0] in WG_SPACE  # WordGapDecision.inserted
            starts_word = inserted or before.last_space
        if starts_word and not info.first_space:
            position = along(g.origin) - left
            column = _grid_steps(position, cell, cursor, MAX_COLUMN)
            pad = column - cursor
            if pad < 1 and inserted:
                pad = 1  # the grid is coarser than this gap: keep the words apart
            placement = GridPlacement(li, g.paint_index, position, column, cursor, max(pad, 0))
            pi = out.decide(placement)
            if pad > 0:
                generated(" " * pad, pi)
                cursor += pad
        elif inserted:
            generated(" ", wi)
            cursor += 1
        # its text: the facts' own (a glyph of a replacement span writes the span's, `glyph` knows)
        cursor += write(g) if spans else write(g, info.text)
        prev = g
