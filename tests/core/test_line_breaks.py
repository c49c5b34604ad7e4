"""The line-break rule on hard cases (spec §4): a backward jump on Latin text, upright CJK columns,
single letters one per line, a column of one-character table cells."""

from __future__ import annotations

from glyphscope.core.analysis import analyze_page
from tests.pdfbuild import make_pdf, pdf_document


def test_latin_text_still_breaks_at_a_backward_jump() -> None:
    content = "BT /F1 10 Tf 1 0 0 1 300 700 Tm (cell two) Tj 1 0 0 1 100 700 Tm (cell one) Tj ET"
    page = analyze_page(pdf_document(make_pdf([content.encode()])), 1)
    assert page.texts["plain"].text == "cell two\ncell one"


# ------------------------------------------------------------------ vertical runs in plain mode


def test_a_vertical_run_of_upright_cjk_glyphs_reads_whole_columns_as_lines() -> None:
    from glyphscope.core.assembly.decisions import LineBreakDecision
    from tests.pdfbuild import identity_h_font

    # two columns, right to left, each character placed 12 pt below the previous one (a
    # horizontal font drawing vertical text one glyph at a time)
    parts = []
    for x, column in ((300, "一二三四"), (280, "五六七八")):
        for k, ch in enumerate(column):
            parts.append(f"1 0 0 1 {x} {700 - 12 * k} Tm <{ord(ch):04X}> Tj")
    pdf = make_pdf(
        [("BT /F1 12 Tf " + " ".join(parts) + " ET").encode()], {"/F1": lambda p: identity_h_font(p)}
    )
    plain = analyze_page(pdf_document(pdf), 1).texts["plain"]
    assert plain.text == "一二三四\n五六七八"  # was one character per line
    verdicts = [d.verdict for d in plain.decisions_of(LineBreakDecision)]
    assert verdicts == ["stacked"] * 3 + ["break"] + ["stacked"] * 3
    stacked = plain.decisions_of(LineBreakDecision)[0]
    assert not stacked.is_break and stacked.value == 12.0 and "vertical run" in stacked.describe()


def test_single_latin_letters_one_per_line_still_break() -> None:
    parts = " ".join(f"1 0 0 1 300 {700 - 12 * k} Tm ({c}) Tj" for k, c in enumerate("abc"))
    page = analyze_page(pdf_document(make_pdf([f"BT /F1 12 Tf {parts} ET".encode()])), 1)
    assert page.texts["plain"].text == "a\nb\nc"


def test_a_column_of_one_character_table_cells_still_breaks() -> None:
    from tests.pdfbuild import identity_h_font

    # rows 20 pt apart for a 13.4 pt box: 1.49 box heights, a table's pitch, not a vertical run
    parts = [f"1 0 0 1 300 {700 - 20 * k} Tm <{ord(ch):04X}> Tj" for k, ch in enumerate("甲乙丙")]
    pdf = make_pdf(
        [("BT /F1 12 Tf " + " ".join(parts) + " ET").encode()], {"/F1": lambda p: identity_h_font(p)}
    )
    assert analyze_page(pdf_document(pdf), 1).texts["plain"].text == "甲\n乙\n丙"
