"""Ligatures (spec §9): written as their letters with a decision per glyph, or kept as code points."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.assembly.decisions import (
    LigatureDecision,
)
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from tests.pdfbuild import (
    helvetica,
    make_pdf,
    pdf_document,
)

_LIGATURE_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CMapName /Lig-UCS def /CMapType 2 def\n"
    b"1 begincodespacerange <00> <FF> endcodespacerange\n"
    b"1 beginbfrange <20> <7E> <0020> endbfrange\n"
    b"2 beginbfchar <01> <FB01> <02> <FB03> endbfchar\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def _ligature_font(pdf: pikepdf.Pdf) -> Any:
    font = helvetica(pdf)
    font.ToUnicode = pdf.make_stream(_LIGATURE_TOUNICODE)
    return font


def _ligature_page(params: Parameters = DEFAULT_PARAMETERS) -> Any:
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Pro\x01le o\x02ce) Tj ET"], {"/F1": _ligature_font})
    return analyze_page(pdf_document(pdf), 1, params)


def test_ligatures_are_written_as_letters_with_a_decision_per_glyph() -> None:
    page = _ligature_page()
    fi = next(g for g in page.classified.visible if g.unicode == "\ufb01")  # the record keeps U+FB01
    for mode in MODES:
        if mode != "structure":  # no structure tree: structure mode has no text
            assert "Profile office" in (page.texts[mode].text or ""), mode
    text = page.texts["plain"]
    ligatures = text.decisions_of(LigatureDecision)
    assert [(d.raw, d.letters, d.verdict) for d in ligatures] == [
        ("\ufb01", "fi", "expanded"),
        ("\ufb03", "ffi", "expanded"),
    ]
    assert (
        ligatures[0].glyph == fi.paint_index and ligatures[0].value is None and ligatures[0].threshold is None
    )
    # several characters, one glyph: the character map links both letters to it
    chars = text.chars_of_glyph(fi.paint_index)
    assert text.text is not None and text.text[chars.start : chars.stop] == "fi"
    assert [text.glyph_of_char(i) for i in chars] == [fi.paint_index, fi.paint_index]
    assert ligatures[0].to_json()["code_points"] == ["U+FB01"]
    assert any(d.kind == "ligature" for d in page.decisions("plain"))


def test_keep_ligatures_keeps_the_code_points() -> None:
    page = _ligature_page(Parameters(keep_ligatures=True))
    text = page.texts["plain"]
    assert text.text == "Pro\ufb01le o\ufb03ce"
    assert not text.decisions_of(LigatureDecision)
    assert Parameters(keep_ligatures=1.0).keep_ligatures is True  # a Tuning control hands 0.0 / 1.0
    with pytest.raises(ValueError):
        Parameters(keep_ligatures=0.5)  # type: ignore[arg-type]
