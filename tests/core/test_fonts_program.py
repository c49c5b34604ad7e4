"""Decoding by the font program (spec §6): a symbolic TrueType's own cmap and a CFF's glyph names
before the guess, private-use code points a finding, a broken program falls through."""

from __future__ import annotations

from typing import Any

import pikepdf

from glyphscope.core.analysis import analyze_page
from glyphscope.core.glyph import DecodeSource
from tests.pdfbuild import (
    helvetica,
    make_pdf,
    pdf_document,
    truetype_program,
)


def _symbol_truetype(codes: dict[int, str]) -> bytes:
    """A TrueType program whose only cmap is (3,0): 0xF000 + code → glyph (post names kept)."""
    return truetype_program(
        {0xF000 + c: n for c, n in codes.items()},
        0,
        advance=500,
        ink_width=400,
        family="Sym",
        keep_glyph_names=True,
    )


TIBET_CODES = {0x4C: "parenleft", 0x4D: "parenright", 0x54: "T", 0x69: "i", 0x62: "b", 0x65: "e", 0x74: "t"}


def _symbolic_truetype_font(pdf: pikepdf.Pdf, codes: dict[int, str], program: bytes | None = None) -> Any:
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/ABCDEF+Sym"),
        Flags=4,  # symbolic
        FontBBox=[0, -200, 1000, 800],
        ItalicAngle=0,
        Ascent=800,
        Descent=-200,
        CapHeight=700,
        StemV=80,
        FontFile2=pdf.make_stream(_symbol_truetype(codes) if program is None else program),
    )
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.TrueType,
            BaseFont=pikepdf.Name("/ABCDEF+Sym"),
            FirstChar=32,
            LastChar=126,
            Widths=[500] * 95,
            FontDescriptor=pdf.make_indirect(descriptor),
        )
    )


def test_symbolic_truetype_reads_its_own_cmap_before_the_windows_1252_guess() -> None:
    # The font draws "(" at code 0x4C and ")" at 0x4D: the Windows-1252 guess read "LTibetM".
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"],
        {"/F1": lambda pdf: _symbolic_truetype_font(pdf, TIBET_CODES)},
    )
    page = analyze_page(pdf_document(pdf), 1)
    assert page.texts["plain"].text == "(Tibet)"
    assert {g.decode_source for g in page.page.glyphs} == {DecodeSource.FONT_PROGRAM}
    assert "font program (TrueType cmap)" in page.page.fonts[0].info.encoding
    assert not [d for d in page.decisions("plain") if d.kind == "decode_fallback"]


def test_the_font_table_says_the_embedded_program_answered() -> None:
    from glyphscope.core.fonts.explain import NOT_REACHED, explain_code
    from glyphscope.core.fonts.loader import load_font

    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"],
        {"/F1": lambda pdf: _symbolic_truetype_font(pdf, TIBET_CODES)},
    )
    font = load_font(pdf.pages[0].Resources.Font.F1, "/F1")
    explained = explain_code(font, 0x4C)
    assert (explained.unicode, explained.source) == ("(", DecodeSource.FONT_PROGRAM)
    steps = {s.name: s for s in explained.steps}
    assert [s.name for s in explained.steps] == [
        "ToUnicode",
        "Differences",
        "base encoding",
        "font program",
        "guess",
    ]
    assert steps["font program"].answered
    assert steps["font program"].outcome == "the embedded program's cmap / glyph names → U+0028 “(”"
    assert steps["guess"].outcome == NOT_REACHED
    assert steps["ToUnicode"].outcome == "the font has no /ToUnicode"


def test_private_use_code_points_are_a_finding_with_the_glyph_name_tried() -> None:
    codes = {**TIBET_CODES, 0x41: "g99"}  # a glyph with no standard name and no Unicode cmap
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (TibetA) Tj ET"], {"/F1": lambda pdf: _symbolic_truetype_font(pdf, codes)}
    )
    page = analyze_page(pdf_document(pdf), 1)
    messages = [f.message for f in page.findings if "private-use" in f.message]
    assert messages and "<41> → U+F041 (glyph g99 tried: not in the Adobe Glyph List)" in messages[0]
    assert page.texts["plain"].text == "TibetA"  # the code itself stays a guess, decode_source says so
    assert page.page.glyphs[-1].decode_source is DecodeSource.FALLBACK


def test_private_use_from_tounicode_is_a_finding_too() -> None:
    def font(pdf: pikepdf.Pdf) -> Any:
        f = helvetica(pdf)
        f.ToUnicode = pdf.make_stream(
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfchar <41> <F041> endbfchar\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
        )
        return f

    page = analyze_page(pdf_document(make_pdf([b"BT /F1 12 Tf 72 700 Td (A) Tj ET"], {"/F1": font})), 1)
    assert any("<41> → U+F041" in f.message for f in page.findings)


def test_a_broken_font_program_falls_through_to_the_guess_with_a_problem() -> None:
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"],
        {"/F1": lambda pdf: _symbolic_truetype_font(pdf, {}, program=b"not a font")},
    )
    page = analyze_page(pdf_document(pdf), 1)
    assert page.texts["plain"].text == "LTibetM"
    assert any("font program not usable" in p.message for p in page.page.fonts[0].info.problems)


def _cff_program(encoding: dict[int, str]) -> bytes:
    """A bare CFF (Type1C) program whose built-in encoding puts the given glyphs at the codes."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    names = [".notdef", *sorted(set(encoding.values()))]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(500, None)
        pen.moveTo((0, 0))
        pen.lineTo((0, 700))
        pen.lineTo((400, 700))
        pen.closePath()
        charstrings[name] = pen.getCharString()
    fb.setupCFF("Sym", {"FullName": "Sym"}, charstrings, {})
    table = [".notdef"] * 256
    for code, name in encoding.items():
        table[code] = name
    fb.font["CFF "].cff.topDictIndex[0].Encoding = table
    return bytes(fb.font["CFF "].compile(fb.font))


def test_symbolic_cff_font_reads_its_glyph_names_before_the_guess() -> None:
    def font(pdf: pikepdf.Pdf) -> Any:
        descriptor = pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor,
            FontName=pikepdf.Name("/ABCDEF+Sym"),
            Flags=4,
            FontBBox=[0, -200, 1000, 800],
            ItalicAngle=0,
            Ascent=800,
            Descent=-200,
            CapHeight=700,
            StemV=80,
            FontFile3=pdf.make_stream(_cff_program(TIBET_CODES), Subtype=pikepdf.Name.Type1C),
        )
        return pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.Type1,
                BaseFont=pikepdf.Name("/ABCDEF+Sym"),
                FirstChar=32,
                LastChar=126,
                Widths=[500] * 95,
                FontDescriptor=pdf.make_indirect(descriptor),
            )
        )

    page = analyze_page(pdf_document(make_pdf([b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"], {"/F1": font})), 1)
    assert page.texts["plain"].text == "(Tibet)"
    assert {g.decode_source for g in page.page.glyphs} == {DecodeSource.FONT_PROGRAM}
    assert "font program (CFF encoding)" in page.page.fonts[0].info.encoding
