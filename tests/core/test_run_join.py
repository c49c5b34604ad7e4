"""A run joined in one pass (TextBuilder.join_run) writes what the rules write pair by pair.

`join_run` measures the common pair inline and hands the store a run's rows in bulk; the long
way (`_join_measured`: `line_break_measure`, `word_gap_measure`, tracking, then the builder's
methods one call at a time) is the reference. Both must give the same text, the same character
map (all four arrays) and the same decisions, number for number, on runs that take every
branch: breaks, backward jumps, stacked CJK columns, right-to-left pairs stepping leftwards,
existing spaces, CJK gaps, ligatures, several characters per glyph, letter-spaced stretches.
"""

from __future__ import annotations

import json
import math
import random
from array import array
from dataclasses import replace

import pytest

from glyphscope.core.assembly.baselines import DirectionFrame, mean_advance
from glyphscope.core.assembly.chars import SPACE_LIKE
from glyphscope.core.assembly.decision_store import INSERTED, PAIR, SPECIAL, DecisionColumns, one_row
from glyphscope.core.assembly.flow import _join_horizontal, _join_measured
from glyphscope.core.assembly.lines import line_break_measure
from glyphscope.core.assembly.page_text import PageText, TextBuilder
from glyphscope.core.assembly.tracking import letter_spaced, letter_spacing
from glyphscope.core.assembly.verdicts import LB_JOINED, LB_SAME_LINE, WG_EXISTING_SPACE, WG_INSERTED
from glyphscope.core.assembly.words import word_gap_measure
from glyphscope.core.glyph import FlowGlyph, is_space_like
from glyphscope.core.glyph_table import FlowColumns, GlyphTable
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from tests.glyph_factory import GlyphFactory

TEXTS = [
    "a", "b", "e", "l", "o", "1", "7", " ", "\u00a0", "", "\x01", "\n", ".", ",",
    "中", "文", "字", "\u3000", "ש", "ל", "ם", "ب", "\ufb01", "\ufb02", "fi", "ffl", "\ufb01x", "ab",
]  # fmt: skip


def _run(rng: random.Random, n: int) -> list[FlowGlyph]:
    """n glyphs along lines with every kind of step: on along the line (with or without a word gap,
    overlapping), down a line, back along the baseline, down one CJK cell, a letter-spaced stretch,
    and now and then a NaN or an infinity (a damaged file's numbers)."""
    out: list[FlowGlyph] = []
    x, y = 72.0, 700.0
    direction = (1.0, 0.0)
    for i in range(n):
        text = rng.choice(TEXTS)
        height = rng.choice([10.0, 11.1, 12.0, 0.0, 24.0])
        step = rng.random()
        if step < 0.45:
            x += rng.choice([0.0, 0.5, 1.0, 2.5, 3.0, 3.0, 3.0, 6.0])  # gaps: none, small, word, tracked
        elif step < 0.55:
            x -= rng.choice([0.3, 2.0, 5.0])  # overlapping, leftwards
        elif step < 0.65:
            x, y = 72.0, y - rng.choice([12.0, 14.0, 30.0])  # the next line
        elif step < 0.72:
            x -= rng.choice([40.0, 60.0])  # back along the baseline
        elif step < 0.80:
            y -= rng.choice([9.0, 11.0, 13.0])  # one CJK cell down the column
        elif step < 0.85:
            direction = rng.choice([(1.0, 0.0), (0.0, 1.0), (math.cos(0.3), math.sin(0.3))])
        elif step < 0.88:
            x += -0.0
        elif step < 0.90:  # hostile numbers: NaN and infinite positions, a negative zero height
            x = rng.choice([math.nan, math.inf, -math.inf, x])
            height = rng.choice([-0.0, math.nan, height])
        width = 6.0 if len(text) <= 1 else 6.0 * len(text)
        end = (x + width * direction[0], y + width * direction[1])
        out.append(FlowGlyph(i * 2 + rng.choice([0, 1]) * 0, text, (x, y), end, height, direction, 0))
        x, y = end
    return out


def _joined(glyphs: list[FlowGlyph], params: Parameters, *, fast: bool, prev: FlowGlyph | None) -> PageText:
    out = TextBuilder(params)
    if prev is not None:
        out.glyph(prev)
    if fast:
        _join_horizontal(glyphs, prev, out, params)
    else:
        _join_measured(glyphs, prev, out, params)
    return out.build("plain")


def _same(a: PageText, b: PageText) -> None:
    assert a.text == b.text
    for name in ("glyph", "decision", "glyph_start", "glyph_length"):
        assert getattr(a.char_map, name) == getattr(b.char_map, name), name
    assert json.dumps([d.to_json() for d in a.decisions]) == json.dumps([d.to_json() for d in b.decisions])
    assert [repr(d) for d in a.decisions] == [repr(d) for d in b.decisions]  # NaN: by what it shows


PARAMS = [
    DEFAULT_PARAMETERS,
    replace(DEFAULT_PARAMETERS, keep_ligatures=True),
    replace(DEFAULT_PARAMETERS, tracking=False),
]


@pytest.mark.parametrize("seed", range(40))
def test_a_run_joined_in_one_pass_writes_what_the_rules_write(seed: int) -> None:
    rng = random.Random(seed)
    glyphs = _run(rng, rng.choice([1, 2, 5, 40, 200]))
    glyphs = [g._replace(paint_index=i) for i, g in enumerate(glyphs)]
    for params in PARAMS:
        _same(_joined(glyphs, params, fast=True, prev=None), _joined(glyphs, params, fast=False, prev=None))
        if len(glyphs) > 1:  # continuing from a glyph already written (a page's parts, annotations)
            prev, rest = glyphs[0], glyphs[1:]
            _same(_joined(rest, params, fast=True, prev=prev), _joined(rest, params, fast=False, prev=prev))


def _flow(text: str, x: float, y: float, height: float = 10.0, i: int = 0) -> FlowGlyph:
    return FlowGlyph(i, text, (x, y), (x + 6.0, y), height, (1.0, 0.0), 0)


def test_each_branch_is_taken_and_agrees() -> None:
    """Hand-made pairs for the branches the rules decide themselves: a stacked CJK column (two rows,
    SPECIAL), Hebrew stepping leftwards (the gap on its reading side), a ligature's record between
    two pairs, a glyph of three characters, a letter-spaced heading (the long way)."""
    runs = {
        "stacked": [_flow("中", 100, 700), _flow("文", 100, 690), _flow("字", 100, 680)],
        "rtl": [_flow("ש", 200, 700), _flow("ל", 190, 700), _flow("ם", 150, 700)],
        "ligature": [_flow("o", 100, 700), _flow("\ufb01", 106, 700), _flow("x", 112, 700)],
        "three": [_flow("ffl", 100, 700), _flow("a", 106, 700)],
        "tracked": [_flow(c, 100 + 9.0 * k, 700) for k, c in enumerate("ANEXO")],
    }
    for name, glyphs in runs.items():
        glyphs = [g._replace(paint_index=i) for i, g in enumerate(glyphs)]
        fast, slow = (_joined(glyphs, DEFAULT_PARAMETERS, fast=f, prev=None) for f in (True, False))
        _same(fast, slow)
        if name == "stacked":
            a, b = glyphs[0], glyphs[1]
            lb = line_break_measure(a, b, DEFAULT_PARAMETERS.line_break)
            assert lb[0] not in (LB_SAME_LINE,) and lb[0] in LB_JOINED  # stacked: read on, two rows
            assert not one_row(lb, word_gap_measure(a, b, DEFAULT_PARAMETERS))
            assert fast.text == "中文字"
        if name == "ligature":
            assert fast.text == "ofix" and [d.to_json()["kind"] for d in fast.decisions][2] == "ligature"
        if name == "three":
            assert fast.text == "ffla" and fast.chars_of_glyph(0) == range(0, 3)
        if name == "tracked":
            assert fast.text == "ANEXO"


def test_the_store_takes_a_run_in_bulk_as_pair_by_pair() -> None:
    g = [
        _flow("a", 100, 700, i=0),
        _flow("b", 110, 700, i=1),
        _flow("c", 72, 680, i=2),
        _flow("d", 80, 680, i=3),
    ]
    params = DEFAULT_PARAMETERS
    one, bulk = (DecisionColumns(params.line_break, params.word_gap, params.cjk_gap) for _ in range(2))
    firsts, codes, gaps, displacements, lheights, wheights = [], [], [], [], [], []
    for a, b in zip(g, g[1:]):
        lb = line_break_measure(a, b, params.line_break)
        wg = word_gap_measure(a, b, params) if lb[0] in LB_JOINED else None
        firsts.append(one.count)
        one.add_pair(a.paint_index, b.paint_index, lb, wg)
        codes.append(4 * lb[0] if wg is None else PAIR + 16 * wg[0])
        gaps.append(lb[3])
        displacements.append(lb[1])
        lheights.append(lb[2])
        wheights.append(0.0 if wg is None else wg[2])
    bulk.extend_pairs(firsts, codes, [0, 1, 2], [1, 2, 3], gaps, displacements, lheights, wheights)
    assert bulk.count == one.count == 5  # gap + break + gap: 2 + 1 + 2 decisions
    for name in ("first", "code", "before", "after", "gap", "displacement", "line_height", "word_height"):
        assert getattr(bulk, name) == getattr(one, name), name
    assert bulk.make_all(3, 5) == one.make_all(3, 5)


@pytest.mark.parametrize("seed", range(60))
def test_letter_spacing_asked_stretch_by_stretch_finds_what_the_whole_run_finds(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([3, 8, 30, 120])
    codes = bytes(
        rng.choice([INSERTED, INSERTED, INSERTED, PAIR + 16 * WG_EXISTING_SPACE, PAIR, 4]) for _ in range(n)
    )
    gaps = [rng.choice([2.0, 3.0, 3.0, 3.1, 9.0, 20.0]) for _ in range(n)]
    heights = [10.0] * n
    infos = [_info(rng.choice(["A", "b", "7", ".", " "])) for _ in range(n + 1)]
    whole = [(c >> 4, gp, h, 0.0) if c & 3 == PAIR else None for c, gp, h in zip(codes, gaps, heights)]
    assert letter_spaced(codes, gaps, heights, infos) == (letter_spacing(whole, infos) is not None)
    assert SPECIAL not in codes


def _info(text: str):  # type: ignore[no-untyped-def]
    from glyphscope.core.assembly.chars import text_info_of

    return text_info_of(text)


def test_three_inserted_spaces_in_a_row_are_needed_for_letter_spacing() -> None:
    # two inserted spaces, a word, two more: no stretch can hold a run of three equal gaps
    codes = bytes([INSERTED, INSERTED, PAIR, INSERTED, INSERTED])
    whole = [(c >> 4, 3.0, 10.0, 0.0) for c in codes]
    infos = [_info("A")] * 6
    assert letter_spacing(whole, infos) is None and not letter_spaced(codes, [3.0] * 5, [10.0] * 5, infos)
    codes = bytes([PAIR, INSERTED, INSERTED, INSERTED, PAIR])
    whole = [(c >> 4, 3.0, 10.0, 0.0) for c in codes]
    assert letter_spaced(codes, [3.0] * 5, [10.0] * 5, infos) == (letter_spacing(whole, infos) is not None)
    assert WG_INSERTED == INSERTED >> 4


def test_flow_columns_read_what_the_records_hold() -> None:
    f = GlyphFactory()
    records = [
        f.glyph("a", 10.0, 700.0, height=11.0),
        f.glyph("b", 16.0, 700.0, height=11.0),
        f.glyph(" ", 22.0, 700.0, height=9.0),
        f.glyph("c", 28.0, 680.0, height=12.0),
    ]
    table = GlyphTable.of(records)
    for indices in ([0, 1, 2, 3], [1, 3], [3, 0, 2], [2], []):
        flows = FlowColumns(table, array("q", indices))
        paints, rows = flows.columns()
        assert paints == indices
        expected = [tuple(table.flow_glyphs([i])[0])[:6] for i in indices]
        assert list(rows) == expected
        assert list(flows) == table.flow_glyphs(indices)
        if indices:
            assert flows[-1] == table.flow_glyphs([indices[-1]])[0]


def test_extent_and_space_lookups_answer_as_before() -> None:
    f = GlyphFactory()
    glyphs = [f.glyph("a", 10.0, 700.0), f.glyph(" ", 20.0, 650.0), f.glyph("b", -5.0, 720.0, angle=30.0)]
    frame = DirectionFrame(math.cos(0.2), math.sin(0.2), -1.0)
    a0 = c0 = math.inf
    a1 = c1 = -math.inf
    for g in glyphs:  # the running min and max the extent was written with
        for x, y in g.quad:
            a, c = x * frame.ux + y * frame.uy, (y * frame.ux - x * frame.uy) * frame.up
            a0, a1, c0, c1 = min(a0, a), max(a1, a), min(c0, c), max(c1, c)
    assert frame.extent(glyphs) == (a0, c0, a1, c1)
    assert frame.extent([]) == (math.inf, math.inf, -math.inf, -math.inf)
    nan = glyphs[0]._replace(quad=((math.nan, math.nan),) * 4)
    assert frame.extent([nan, *glyphs[1:]]) == frame.extent(glyphs[1:])  # NaN never replaces a bound
    for text in ["", " ", "\u00a0", "\x01", "a", "  ", "a ", "\u3000"]:
        assert SPACE_LIKE[text] == is_space_like(text)
    assert mean_advance(glyphs) == sum(g.advance for g in glyphs if not g.is_space) / 2


def test_right_to_left_ends_answer_as_the_rule_asks() -> None:
    from glyphscope.core.assembly.chars import RTL_ENDS
    from glyphscope.core.assembly.words import rtl_sides

    texts = ["", "a", "ש", "aש", "שa", "ب", "\ufb01", "1", " "]
    for before in texts:
        for after in texts:
            assert bool(rtl_sides(before, after)) == (RTL_ENDS[before][1] or RTL_ENDS[after][0])
