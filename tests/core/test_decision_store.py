"""A page text's decisions held as columns, each record made on demand.

The records a `DecisionList` makes must be the records the rules make (equal field by
field, same JSON and sentence, same order), and what it holds must stay compact: typed
arrays, not one object per decision.
"""

from __future__ import annotations

import gc
import json
import tracemalloc
from array import array
from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import assemble
from glyphscope.core.assembly.decision_store import DecisionColumns, DecisionList
from glyphscope.core.assembly.decisions import (
    LigatureDecision,
    LineBreakDecision,
    WordGapDecision,
    line_break_decision,
    word_gap_decision,
)
from glyphscope.core.assembly.lines import line_break_measure
from glyphscope.core.assembly.verdicts import LINE_BREAK_VERDICTS, WORD_GAP_VERDICTS
from glyphscope.core.assembly.words import word_gap_measure
from glyphscope.core.document import open_document
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from tests.glyph_factory import GlyphFactory
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

BOX = (0.0, 0.0, 612.0, 792.0)

_LIGATURE_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CMapName /Lig-UCS def /CMapType 2 def\n"
    b"1 begincodespacerange <00> <FF> endcodespacerange\n"
    b"1 beginbfrange <20> <7E> <0020> endbfrange\n"
    b"1 beginbfchar <01> <FB01> endbfchar\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def _ligature_font(pdf: pikepdf.Pdf) -> Any:
    font = helvetica(pdf)
    font.ToUnicode = pdf.make_stream(_LIGATURE_TOUNICODE)
    return font


# Helvetica 12 pt: glyph boxes 11.10 pt high, word-gap threshold 0.15 × 11.10 = 1.665 pt.
# Line 1: a ligature (U+FB01) and a space glyph; line 2: a TJ word gap (4.8 pt), a small
# overlap (negative gap) and a jump back of 48 pt (> 3 × 11.10: a new line on the baseline);
# line 3: a heading letter-spaced with 3 Tc (a tracking stretch).
CONTENT = (
    b"BT /F1 12 Tf 72 700 Td (Pro\x01le office) Tj "
    b"0 -20 Td [(word) -400 (gap) 100 (x) 4000 (y)] TJ "
    b"0 -20 Td 3 Tc (ANEXO) Tj ET"
)
CJK = b"BT /F1 12 Tf 72 700 Td <4E004E01> Tj 60 0 Td <4E02> Tj ET"  # a cjk_pair, then a cjk_gap


def _page(content: bytes, fonts: dict[str, Any], params: Parameters = DEFAULT_PARAMETERS) -> Any:
    return analyze_page(open_document(to_bytes(make_pdf([content], fonts))), 1, params)


def _pair_rows(decisions: Any) -> list[tuple[str, int, int, str]]:
    return [(d.kind, d.before, d.after, d.verdict) for d in decisions if d.kind in ("line_break", "word_gap")]


def _assert_same_records(a: list[Any], b: list[Any]) -> None:
    assert len(a) == len(b)
    for x, y in zip(a, b):
        assert type(x) is type(y) and x == y
        assert x.to_json() == y.to_json() and x.describe() == y.describe()
        assert (x.value, x.threshold) == (y.value, y.threshold)


def test_on_demand_records_equal_the_rules_records() -> None:
    page = _page(CONTENT, {"/F1": _ligature_font})
    text = page.texts["plain"]
    assert text.text == "Profile office\nword gapx\ny\nANEXO"
    decisions = list(text.decisions)
    glyphs = {g.paint_index: g for g in page.classified.visible}
    p = page.params
    tracked = [d for d in decisions if isinstance(d, WordGapDecision) and d.tracking > 0.0]
    assert [d.verdict for d in tracked] == ["tracking"] * 4
    assert tracked[0].tracking == pytest.approx(3.0)
    eager: list[Any] = []
    for d in decisions:
        if isinstance(d, LineBreakDecision):
            eager.append(line_break_decision(glyphs[d.before], glyphs[d.after], p))
        elif isinstance(d, WordGapDecision):
            # the stretch's tracking is the letter-spacing pass's (pinned above); the rule is the rule's
            t = tracked[0].tracking if d in tracked else 0.0
            eager.append(word_gap_decision(glyphs[d.before], glyphs[d.after], p, tracking=t))
        else:
            eager.append(d)
    _assert_same_records(decisions, eager)
    # every verdict the page shows, in order (a pair's word gap right after its line break)
    verdicts = [(k, v) for k, _, _, v in _pair_rows(decisions)]
    assert ("line_break", "break") in verdicts and ("line_break", "backward_jump") in verdicts
    assert {v for k, v in verdicts if k == "word_gap"} == {
        "below_threshold",
        "existing_space",
        "inserted",
        "negative_gap",
        "tracking",
    }
    lig = text.decisions_of(LigatureDecision)
    assert [(d.raw, d.letters) for d in lig] == [("\ufb01", "fi")]
    # the generated characters point at the decisions that made them
    cm = text.char_map
    for i, ch in enumerate(text.text):
        made_by = text.decision_of_char(i)
        if ch == "\n":
            assert isinstance(made_by, LineBreakDecision) and made_by.is_break
        elif cm.glyph[i] < 0:
            assert isinstance(made_by, WordGapDecision) and made_by.inserted
        else:
            assert made_by is None


def test_cjk_verdicts_are_made_as_the_rule_made_them() -> None:
    page = _page(CJK, {"/F1": lambda pdf: identity_h_font(pdf)})
    text = page.texts["plain"]
    gaps = text.decisions_of(WordGapDecision)
    assert [d.verdict for d in gaps] == ["cjk_pair", "cjk_gap"]
    glyphs = {g.paint_index: g for g in page.classified.visible}
    _assert_same_records(
        gaps, [word_gap_decision(glyphs[d.before], glyphs[d.after], page.params) for d in gaps]
    )
    assert gaps[1].threshold == pytest.approx(DEFAULT_PARAMETERS.cjk_gap * gaps[1].height)


def test_the_list_is_a_sequence_in_decision_order() -> None:
    page = _page(CONTENT, {"/F1": _ligature_font})
    decisions = page.texts["plain"].decisions
    records = list(decisions)
    n = len(decisions)
    assert n == len(records) > 20
    _assert_same_records([decisions[i] for i in range(n)], records)  # random access = iteration
    # once read, a record is kept: every reader gets the same object (the canvas's decision
    # marks and the session's selected decision compare with `is`)
    assert all(decisions[i] is records[i] for i in range(n)) and all(
        a is b for a, b in zip(decisions, records)
    )
    fresh = _page(CONTENT, {"/F1": _ligature_font}).texts["plain"].decisions
    last = fresh[-2]  # read by index before any iteration
    assert list(fresh)[-2] is last and fresh.of_kind(type(last))[-1] is last
    _assert_same_records([decisions[i] for i in range(-n, 0)], records)
    assert decisions[3:9] == tuple(records[3:9]) and decisions[::-5] == tuple(records[::-5])
    with pytest.raises(IndexError):
        decisions[n]
    with pytest.raises(IndexError):
        decisions[-n - 1]
    assert decisions == tuple(records) and decisions == DecisionList.of(records)
    assert decisions != tuple(records[:-1])
    # records held as they are make the same list
    _assert_same_records(list(DecisionList.of(records)), records)
    for kind in (WordGapDecision, LineBreakDecision, LigatureDecision, (WordGapDecision, LigatureDecision)):
        _assert_same_records(decisions.of_kind(kind), [d for d in records if isinstance(d, kind)])
    # appended records come after, the first indices stay valid (bidi appends its lines)
    more = decisions.extended(records[:2])
    assert len(more) == n + 2 and more[:n] == tuple(records) and more[n:] == tuple(records[:2])
    assert more[7] is records[7]
    assert len(decisions) == n  # the original is unchanged
    json.dumps([d.to_json() for d in decisions])


def test_every_verdict_code_round_trips_through_the_columns() -> None:
    f = GlyphFactory()
    a, b = f.glyph("a", 72, 700), f.glyph("b", 80, 700)
    p = Parameters(word_gap=0.2, line_break=0.6, cjk_gap=0.9)
    columns = DecisionColumns(p.line_break, p.word_gap, p.cjk_gap)
    expected: list[Any] = []
    for code, verdict in enumerate(LINE_BREAK_VERDICTS):
        lb = (code, -1.25, 11.5, 0.0)
        columns.add_line_break(a.paint_index, b.paint_index, lb)
        expected.append(LineBreakDecision(0, 1, verdict, -1.25, 0.6 * 11.5, 0.6, 11.5, 0.0, -3.0 * 11.5))
    for code, verdict in enumerate(WORD_GAP_VERDICTS):
        tracking = 2.5 if verdict in ("inserted", "tracking") else 0.0
        columns.add_pair(0, 1, (0, 0.5, 11.5, -0.0), (code, -0.0, 12.0, tracking))  # one row, one −0.0 gap
        expected.append(LineBreakDecision(0, 1, "same_line", 0.5, 0.6 * 11.5, 0.6, 11.5, -0.0, -3.0 * 11.5))
        expected.append(WordGapDecision(0, 1, verdict, -0.0, 0.2 * 12.0, 0.2, 12.0, 0.9, tracking))
    columns.add_pair(0, 1, (0, 0.5, 11.5, 0.0), (1, -0.0, 12.0, 0.0))  # gaps differ in sign: two rows
    expected.append(LineBreakDecision(0, 1, "same_line", 0.5, 0.6 * 11.5, 0.6, 11.5, 0.0, -3.0 * 11.5))
    expected.append(WordGapDecision(0, 1, "inserted", -0.0, 0.2 * 12.0, 0.2, 12.0, 0.9, 0.0))
    decisions = DecisionList(columns)
    _assert_same_records(list(decisions), expected)
    assert json.dumps(decisions[-1].to_json()["gap"]) == "-0.0"
    assert len(columns.code) == len(LINE_BREAK_VERDICTS) + len(WORD_GAP_VERDICTS) + 2
    # the measures are the rules': the records the rules make come from them
    lbm, wgm = line_break_measure(a, b, p.line_break), word_gap_measure(a, b, p)
    columns.add_pair(0, 1, lbm, wgm)
    _assert_same_records(
        list(DecisionList(columns))[-2:], [line_break_decision(a, b, p), word_gap_decision(a, b, p)]
    )


def _reachable(root: object) -> list[object]:
    """Every object the list holds, its arrays and records included (not classes or functions)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, type) or callable(o):
            continue
        seen[id(o)] = o
        todo.extend(gc.get_referents(o))
    return list(seen.values())


def _lines_page(lines: int, words: int) -> list[Any]:
    f = GlyphFactory()
    for li in range(lines):
        x = 72.0
        for _ in range(words):
            x = 72.0 + f.run("word", x, 700.0 - 14.0 * li) + 4.0  # 4 pt word gaps
    return f.glyphs


def test_decisions_are_held_as_arrays_not_records() -> None:
    small = assemble(_lines_page(2, 5), "plain", visible_box=BOX)
    large = assemble(_lines_page(40, 12), "plain", visible_box=BOX)
    assert len(large.decisions) > 3000
    held_small, held_large = _reachable(small.decisions), _reachable(large.decisions)
    # the same few objects whatever the page's size: columns, not one object per decision
    assert len(held_large) == len(held_small) < 40
    assert not any(isinstance(o, (WordGapDecision, LineBreakDecision)) for o in held_large)
    arrays = [o for o in held_large if isinstance(o, array)]
    assert sum(len(a) for a in arrays) >= 8 * (len(large.decisions) // 2)  # one row per glyph pair


def test_plain_text_holds_under_100_bytes_per_glyph() -> None:
    glyphs = _lines_page(60, 12)  # 2,880 glyphs, ~2 decisions each
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        text = assemble(glyphs, "plain", visible_box=BOX)
        gc.collect()
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(text.decisions) > 1.9 * len(glyphs)
    assert held / len(glyphs) <= 100, held / len(glyphs)  # was ~380 with a record per decision
