"""Vertical runs: word gaps decided along the run, a sideways run read as one line, the corpus's
vertical font."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly.decisions import (
    WordGapDecision,
)
from glyphscope.core.document import open_document
from tests import corpus
from tests.pdfbuild import (
    identity_h_font,
    identity_tounicode,
    make_pdf,
    pdf_document,
    sideways_vertical_pdf,
)


def _column_pdf(step: float) -> pikepdf.Pdf:
    """An Identity-V font painting A B C D E down one column, each glyph `step` pt below the last."""

    def font(pdf: pikepdf.Pdf) -> Any:
        f = identity_h_font(pdf, tounicode=identity_tounicode())
        f.Encoding = pikepdf.Name("/Identity-V")
        return f

    ops = ["BT /F1 12 Tf"]
    for i, code in enumerate(("0041", "0042", "0043", "0044", "0045")):
        ops.append(f"1 0 0 1 300 {700 - step * i:.2f} Tm <{code}> Tj")
    ops.append("ET")
    return make_pdf([" ".join(ops).encode()], {"/F1": font})


@pytest.mark.parametrize(("step", "expected"), [(40.0, "A B C D E"), (12.0, "ABCDE")])
def test_word_gaps_down_a_vertical_column_are_decided_along_it(
    tmp_path: Path, step: float, expected: str
) -> None:
    # spec §3 along the column: letters 40 pt apart read as separate words, as pdftotext and
    # MuPDF give them; letters one em apart (the vertical advance) touch and read as one word
    pdf = _column_pdf(step)
    doc = pdf_document(pdf)
    analysis = analyze_page(doc, 1)
    assert analysis.texts["plain"].text == expected
    gaps = analysis.texts["plain"].decisions_of(WordGapDecision)
    assert len(gaps) == 4 and all(g.direction == pytest.approx((0.0, -1.0)) for g in doc.interpret(1).glyphs)
    assert {round(g.gap, 3) for g in gaps} == {round(step - 12.0, 3)}  # the advance down is 1000/1000 em
    assert {round(g.threshold, 3) for g in gaps} == {round(0.15 * gaps[0].height, 3)}
    assert all(g.inserted == (step == 40.0) for g in gaps)


def test_corpus_vfont_reads_will() -> None:
    corpus.require()
    doc = open_document(str(corpus.CORPUS / "pdfbox__PDFBOX-3127-VFont.pdf"))
    text = analyze_page(doc, 1).texts["plain"].text or ""
    assert "Insurance will hold a public" in text
    assert not analyze_page(doc, 1).classified.duplicates


def test_corpus_vfont_brackets_turned_across_the_run_stay_on_their_line() -> None:
    # The brackets of "Section 38-3-110(5)" are painted turned by 90 degrees inside a sideways
    # Identity-V run: measured along their own box edge they left their place ("5︵  T︶hursday").
    corpus.require()
    page = analyze_page(open_document(str(corpus.CORPUS / "pdfbox__PDFBOX-3127-VFont.pdf")), 1)
    for mode in ("plain", "layout"):
        assert "110︵5︶ Thursday, April 29, 2010" in " ".join((page.texts[mode].text or "").split()), mode


def test_layout_and_columns_read_a_sideways_vertical_run_as_a_line() -> None:
    page = analyze_page(pdf_document(sideways_vertical_pdf(3.0)), 1)
    assert page.texts["plain"].text == "will"
    assert (page.texts["layout"].text or "").strip() == "will"  # was "ll\\n i\\n w": a row per letter
