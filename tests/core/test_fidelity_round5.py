"""Fidelity, round 5: the rules behind the misreads found on real files and reproduced here,
each with a small generated PDF and the numbers its decision compared."""

from __future__ import annotations

from typing import Any

import pikepdf

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly.baselines import BELOW_REACH
from glyphscope.core.assembly.decisions import Baseline, CoveredSpace
from glyphscope.core.document import open_document
from tests import corpus
from tests.pdfbuild import make_pdf, to_bytes


def _doc(pdf: pikepdf.Pdf) -> Any:
    return open_document(to_bytes(pdf))


# ------------------------------------------------------------------ a visible copy is never dropped for a clipped one

# Helvetica 12 at y 700: box 697.516 … 708.616 (centre 703.07), the sample grid's lowest row at
# 697.516 + 0.1 × 11.1 = 698.626. A 1.5 pt clip band 698 … 699.5 meets that row, not the centre:
# the first copies show only in part.
_CLIPPED_CAPITALS = (
    b"BT /F1 12 Tf 72 750 Td (Crop report) Tj ET\n"
    b"q 60 698 200 1.5 re W n BT /F1 12 Tf 72 700 Td (C) Tj 29.34 0 Td (S) Tj ET Q\n"
    b"BT /F1 12 Tf 72 650 Td (Stine 19RA02) Tj ET\n"
    b"BT /F1 12 Tf 72 700 Td (Corn Surpass) Tj ET"
)


def test_a_visible_copy_is_kept_over_a_partly_clipped_first_copy() -> None:
    page = analyze_page(_doc(make_pdf([_CLIPPED_CAPITALS])), 1)
    # before: the clipped C and S were kept and the prose's dropped ("Corn S" … "urpass")
    assert page.texts["plain"].text == "Crop report\nStine 19RA02\nCorn Surpass"
    assert page.texts["auto"].text == "Crop report\nStine 19RA02\nCorn Surpass"
    vis = page.classified.visibility
    assert vis is not None and vis.partly_clipped == frozenset({11, 12})  # the two clipped capitals
    first_c, first_s = page.classified.duplicates
    # "Crop report" = 11 glyphs (0-10), clipped C 11, S 12, "Stine 19RA02" 13-24, "Corn Surpass" 25-36
    assert (first_c.paint_index, first_c.duplicate_of, first_c.kept_whole) == (11, 25, True)
    assert (first_s.paint_index, first_s.duplicate_of, first_s.kept_whole) == (12, 30, True)
    assert first_c.value == (0.0, 0.0) and first_c.threshold == (1.11, 2.22)  # 0.1 / 0.2 × 11.1 pt
    assert first_c.to_json()["before"] == 25 and first_c.to_json()["kept_whole"] is True
    assert "the later copy #25 is kept: #11, painted first, shows only in part" in first_c.describe()
    assert page.classified.status[11].value == "duplicate" and page.classified.status[25].value == "kept"


def test_a_row_painted_in_a_tight_clip_then_over_it_reads_the_second_copy() -> None:
    content = (
        b"q 60 698 200 1.5 re W n BT /F1 12 Tf 72 700 Td [(1) -278 (9)] TJ ET Q\n"  # 9 where 1.9's 9 stands
        b"BT /F1 12 Tf 72 700 Td (1.9) Tj ET"
    )
    page = analyze_page(_doc(make_pdf([content])), 1)
    assert page.texts["plain"].text == "1.9"
    assert [(d.paint_index, d.duplicate_of) for d in page.classified.duplicates] == [(0, 2), (1, 4)]


def test_two_whole_copies_keep_the_first_painted() -> None:
    content = b"BT /F1 12 Tf 72 700 Td (C) Tj ET\nBT /F1 12 Tf 72 700 Td (C) Tj ET"
    page = analyze_page(_doc(make_pdf([content])), 1)
    (d,) = page.classified.duplicates
    assert (d.paint_index, d.duplicate_of, d.kept_whole) == (1, 0, False)
    assert "kept_whole" not in d.to_json()


# ------------------------------------------------------------------ a tall glyph does not pull the next line in

_DROP_CAP = (
    b"BT /F1 36 Tf 72 672 Td (W) Tj ET\n"  # a 36 pt initial on the third line's baseline
    b"BT /F1 12 Tf 110 700 Td (hen in the course) Tj ET\n"
    b"BT /F1 12 Tf 110 686 Td (of human events it) Tj ET\n"
    b"BT /F1 12 Tf 110 672 Td (becomes necessary) Tj ET\n"
)


def test_a_large_initial_stays_on_its_baseline_and_the_line_above_stays_apart() -> None:
    page = analyze_page(_doc(make_pdf([_DROP_CAP])), 1)
    layout = page.texts["layout"]
    # before: 686 and 672 were one line (14 pt ≤ 0.5 × 33.3 pt), read "obfe hcoummeasn …"
    assert layout.text.splitlines() == [
        "                hen in the course",
        "                of human events it",
        "           W    becomes necessary",
    ]
    assert page.texts["columns"].text == "hen in the course\nof human events it\nW becomes necessary"
    baselines = layout.decisions_of(Baseline)
    assert [round(b.y, 2) for b in baselines] == [700.0, 686.0, 672.0]
    # the initial (box 33.3 pt) lies 14 pt below the 686 line: within 0.5 × 33.3 = 16.65 by its own
    # height only (> 0.5 × 11.1 = 5.55), and the glyph after it ("b" at 672) stands on its
    # baseline and would not join the 686 line by itself (14 > 5.55): the initial starts the 672 line
    assert 5.55 < 14 <= 16.65


def test_a_tall_bracket_on_the_first_line_does_not_take_the_second() -> None:
    content = (
        b"BT /F1 32 Tf 72 700 Td ([) Tj /F1 12 Tf 12 0 Td (first line of text) Tj ET\n"
        b"BT /F1 12 Tf 84 686 Td (second line here) Tj ET\n"
    )
    page = analyze_page(_doc(make_pdf([content])), 1)
    lines = page.texts["layout"].text.splitlines()
    # before: one line, "[ fsirescto linnde  loinfe t ehxetre"; the second line lies 14 pt below the
    # bracket's baseline: ≤ 0.5 × 29.6 = 14.8 but > BELOW_REACH × 11.1 = 8.88
    assert BELOW_REACH == 0.8
    assert [line.split() for line in lines] == [
        ["[", "first", "line", "of", "text"],
        ["second", "line", "here"],
    ]
    assert page.texts["columns"].text == "[ first line of text\nsecond line here"


def test_a_superscript_and_a_subscript_stay_on_their_line() -> None:
    content = (
        b"BT /F1 12 Tf 72 700 Td (E = mc) Tj /F1 8 Tf 4 Ts (2) Tj /F1 12 Tf 0 Ts ( and H) Tj"
        b" /F1 8 Tf -2 Ts (2) Tj /F1 12 Tf 0 Ts (O) Tj ET\n"
        b"BT /F1 12 Tf 72 686 Td (next line) Tj ET\n"
    )
    page = analyze_page(_doc(make_pdf([content])), 1)
    assert [line.strip() for line in page.texts["layout"].text.splitlines()] == [
        "E = mc2 and H2O",
        "next line",
    ]


# ------------------------------------------------------------------ a space painted inside a letter separates nothing (layout)


def test_a_space_glyph_inside_a_letters_advance_is_left_out_of_the_layout_line() -> None:
    # "AWord": A 72-80.00, W 80.00-91.33 (944 × 0.012); a space painted later at 82-85.34
    content = b"BT /F1 12 Tf 72 700 Td (AWord) Tj ET\nBT /F1 12 Tf 82 700 Td ( ) Tj ET"
    page = analyze_page(_doc(make_pdf([content])), 1)
    layout = page.texts["layout"]
    assert layout.text.strip() == "AWord"  # before: "AW  ord" (the space started a word, the grid padded it)
    (covered,) = layout.decisions_of(CoveredSpace)
    assert (covered.space, covered.letter, covered.verdict) == (5, 1, "left_out")
    (s0, s1), (l0, l1) = covered.value, covered.threshold
    assert (round(s0, 2), round(s1, 2)) == (82.0, 85.34)  # the grid's left edge is the page's: 0
    assert (round(l0, 2), round(l1, 2)) == (80.0, 91.33)
    assert l0 < s0 and s1 < l1
    assert covered.to_json()["before"] == 1 and covered.to_json()["after"] == 5
    (base,) = layout.decisions_of(Baseline)
    assert base.glyphs == (0, 1, 2, 3, 4)  # the space is not on the line


def test_a_space_between_two_words_stays() -> None:
    content = b"BT /F1 12 Tf 72 700 Td (A) Tj ET\nBT /F1 12 Tf 92 700 Td (Word) Tj ET\nBT /F1 12 Tf 82 700 Td ( ) Tj ET"
    layout = analyze_page(_doc(make_pdf([content])), 1).texts["layout"]
    assert layout.text.split() == ["A", "Word"] and layout.decisions_of(CoveredSpace) == []


def test_the_vertical_text_sample_reads_whole_columns_in_layout() -> None:
    path = corpus.require() / "pdfdiff__VerticalText.pdf"
    page = analyze_page(open_document(path.read_bytes()), 1)
    lines = [line.strip() for line in page.texts["layout"].text.splitlines() if line.strip()]
    # MuPDF reads the same columns; pdftotext drops the CJK (non-embedded font, Identity-V, no ToUnicode)
    assert lines[:3] == ["Vertical writing mode", "縦書きのテスト", "「括弧も縦書き。」"]
    assert lines[-1] == "句読点、棒ですー。"
    assert len(page.texts["layout"].decisions_of(CoveredSpace)) == 6


# ------------------------------------------------------------------ extract_text() reads in auto mode


def test_extract_text_defaults_to_auto_and_plain_stays_paint_order() -> None:
    import glyphscope

    words = ["one", "two", "three", "four", "five", "six"]
    rows = [(72, 700 - 20 * k, words[k]) for k in (5, 0, 4, 1, 3, 2)]  # bottom, top, …: scrambled
    content = b"\n".join(f"BT /F1 12 Tf {x} {y} Td ({t}) Tj ET".encode() for x, y, t in rows)
    with glyphscope.open(to_bytes(make_pdf([content]))) as pdf:
        page = pdf.pages[0]
        assert page.extract_text() == "\n".join(words) == page.extract_text("auto")
        assert page.extract_text("plain") == "six\none\nfive\ntwo\nfour\nthree"
        assert pdf.extract_text() == "\n".join(words) and list(pdf.texts()) == ["\n".join(words)]


def test_a_tiny_raised_mark_stays_with_its_line() -> None:
    # a 5 pt "#" raised 4.6 pt before 10 pt text (TeX's \#20 in cweb): the mark anchors the line
    # first, the text lies 4.6 pt below it, within 0.5 × 9.25 and 0.8 × 9.25 of its own height
    content = (
        b"BT /F1 10 Tf 72 700 Td (prints it as ) Tj /F1 5 Tf 4.6 Ts (#) Tj /F1 10 Tf 0 Ts (20. The use) Tj ET\n"
        b"BT /F1 10 Tf 72 688 Td (next line) Tj ET\n"
    )
    page = analyze_page(_doc(make_pdf([content])), 1)
    assert [line.strip() for line in page.texts["layout"].text.splitlines()] == [
        "prints it as #20. The use",
        "next line",
    ]
    assert page.texts["columns"].text == "prints it as #20. The use\nnext line"


def test_a_space_painted_right_after_the_letter_it_lies_in_stays() -> None:
    # the space follows W in the stream but was moved back into W's advance: W's own word space
    content = b"BT /F1 12 Tf 72 700 Td [(AW) 700 ( ) -700 (ord)] TJ ET"
    layout = analyze_page(_doc(make_pdf([content])), 1).texts["layout"]
    assert layout.decisions_of(CoveredSpace) == []


def test_three_copies_after_a_partly_clipped_first_keep_the_first_whole_one() -> None:
    content = (
        b"q 60 698 200 1.5 re W n BT /F1 12 Tf 72 700 Td (C) Tj ET Q\n"  # 0: shows only in part
        b"BT /F1 12 Tf 72.5 700 Td (C) Tj ET\n"  # 1: whole, 0.5 pt to the right
        b"BT /F1 12 Tf 72 700 Td (C) Tj ET\n"  # 2: whole
    )
    page = analyze_page(_doc(make_pdf([content])), 1)
    assert page.texts["plain"].text == "C"
    first, third = page.classified.duplicates
    assert (first.paint_index, first.duplicate_of, first.kept_whole) == (0, 1, True)
    assert (third.paint_index, third.duplicate_of, third.kept_whole) == (2, 1, True)
    # offsets re-measured from the kept copy #1: #0 and #2 both lie 0.5 pt before it
    assert (round(first.along, 6), round(third.along, 6)) == (-0.5, -0.5)
    assert [s.value for s in page.classified.status] == ["duplicate", "kept", "duplicate"]
