"""Hangul and CJK gaps (spec §3, §9): Hangul pairs take the word-gap rule, far ideographs get a space
of their own verdict."""

from __future__ import annotations

import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import assemble
from glyphscope.core.assembly.decisions import (
    WordGapDecision,
)
from glyphscope.core.params import Parameters
from tests.glyph_factory import GlyphFactory
from tests.pdfbuild import (
    identity_h_font,
    identity_tounicode,
    make_pdf,
    pdf_document,
)

BOX = (0.0, 0.0, 612.0, 792.0)


def test_hangul_pairs_take_the_word_gap_rule() -> None:
    f = GlyphFactory()
    f.glyph("한", 72, 700)
    f.glyph("국", 78, 700)  # touching: 0 gap
    f.glyph("어", 90, 700)  # 6 pt gap > 0.15 × 12 = 1.8
    text = assemble(f.glyphs, "plain", visible_box=BOX)
    assert text.text == "한국 어"
    gaps = text.decisions_of(WordGapDecision)
    assert [d.verdict for d in gaps] == ["below_threshold", "inserted"]
    assert gaps[1].value == pytest.approx(6.0) and gaps[1].threshold == pytest.approx(1.8)


def test_cjk_gap_inserts_a_space_between_far_ideographs_as_its_own_verdict() -> None:
    f = GlyphFactory()
    f.glyph("日", 72, 700)
    f.glyph("本", 84, 700)  # 6 pt gap ≤ 1.0 × 12: justification, glued
    f.glyph("語", 105, 700)  # 15 pt gap > 12: separate cells
    text = assemble(f.glyphs, "plain", visible_box=BOX)
    assert text.text == "日本 語"
    gaps = text.decisions_of(WordGapDecision)
    assert [d.verdict for d in gaps] == ["cjk_pair", "cjk_gap"]
    assert (gaps[0].value, gaps[0].threshold) == (pytest.approx(6.0), pytest.approx(12.0))
    assert (gaps[1].value, gaps[1].threshold) == (pytest.approx(15.0), pytest.approx(12.0))
    assert gaps[1].inserted and gaps[1].to_json()["cjk_factor"] == 1.0
    assert "cjk_gap" in gaps[1].describe()
    wider = assemble(f.glyphs, "plain", Parameters(cjk_gap=1.5), visible_box=BOX)
    assert wider.text == "日本語"  # 15 ≤ 18


def test_cjk_gap_on_a_pikepdf_page() -> None:
    content = b"BT /F1 10 Tf 72 700 Td <65E5672C> Tj 40 0 Td <8A9E> Tj ET"
    pdf = make_pdf([content], {"/F1": lambda pdf: identity_h_font(pdf, tounicode=identity_tounicode())})
    page = analyze_page(pdf_document(pdf), 1)
    assert page.texts["plain"].text == "日本 語"
    assert analyze_page(pdf_document(pdf), 1, Parameters(cjk_gap=3.0)).texts["plain"].text == "日本語"


def test_cli_takes_cjk_gap_and_keep_ligatures() -> None:
    from glyphscope.inspector.cli.parser import build_parser
    from glyphscope.inspector.cli.shared import parameters

    args = build_parser().parse_args(
        ["text", "x.pdf", "--cjk-gap", "2", "--keep-ligatures", "--mode", "articles"]
    )
    params = parameters(args)
    assert params.cjk_gap == 2.0 and params.keep_ligatures is True
    defaults = parameters(build_parser().parse_args(["text", "x.pdf"]))
    assert defaults.cjk_gap == 1.0 and defaults.keep_ligatures is False
