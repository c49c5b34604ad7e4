"""Simple and Type3 fonts: each step of the decoding chain, widths, ascent/descent."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.fonts import FontCache, load_font
from glyphscope.core.glyph import DecodeSource
from tests.pdfbuild import make_pdf, pdf_document, to_bytes

Name = pikepdf.Name


@pytest.fixture()
def pdf() -> pikepdf.Pdf:
    return pikepdf.new()


def font(pdf: pikepdf.Pdf, **entries: object) -> pikepdf.Object:
    entries.setdefault("Subtype", Name.Type1)
    return pdf.make_indirect(pikepdf.Dictionary(Type=Name.Font, **entries))


def tounicode(pdf: pikepdf.Pdf, body: bytes) -> pikepdf.Object:
    return pdf.make_stream(b"begincmap " + body + b" endcmap")


def kinds(f) -> set[DiagnosticKind]:
    return {p.kind for p in f.info.problems}


def test_tounicode_wins_over_encoding(pdf: pikepdf.Pdf) -> None:
    f = load_font(
        font(
            pdf,
            BaseFont=Name.Helvetica,
            Encoding=Name.WinAnsiEncoding,
            ToUnicode=tounicode(pdf, b"1 beginbfchar <41> <0042> endbfchar"),
        ),
        "/F1",
    )
    assert f.unicode(0x41) == ("B", DecodeSource.TOUNICODE)
    assert f.unicode(0x43) == ("C", DecodeSource.BASE_ENCODING)
    assert f.info.has_tounicode and f.info.tounicode_entries == 1


def test_empty_tounicode_falls_through(pdf: pikepdf.Pdf) -> None:
    empty = tounicode(pdf, b"1 begincodespacerange <00> <FF> endcodespacerange")
    f = load_font(font(pdf, BaseFont=Name.Helvetica, Encoding=Name.WinAnsiEncoding, ToUnicode=empty), "/F1")
    assert f.unicode(0x41) == ("A", DecodeSource.BASE_ENCODING)
    assert f.info.has_tounicode and f.info.tounicode_entries == 0


def test_broken_tounicode_is_recorded_and_falls_through(pdf: pikepdf.Pdf) -> None:
    bad = pdf.make_stream(b"x\x9c garbage", Filter=Name.FlateDecode)  # not Flate data at all
    f = load_font(font(pdf, BaseFont=Name.Helvetica, Encoding=Name.WinAnsiEncoding, ToUnicode=bad), "/F1")
    assert f.unicode(0x41) == ("A", DecodeSource.BASE_ENCODING)
    assert DiagnosticKind.TOUNICODE_BROKEN in kinds(f)


def test_differences_glyph_names(pdf: pikepdf.Pdf) -> None:
    diffs = pikepdf.Array(
        [65, Name("/uni00E9"), Name("/u1F600"), Name("/f_f_i"), Name("/a.sc"), Name("/g12")]
    )
    f = load_font(
        font(pdf, BaseFont=Name("/XYZ+Custom"), Encoding=pikepdf.Dictionary(Differences=diffs)), "/F1"
    )
    assert f.unicode(65) == ("\u00e9", DecodeSource.DIFFERENCES)
    assert f.unicode(66) == ("\U0001f600", DecodeSource.DIFFERENCES)
    assert f.unicode(67) == ("ffi", DecodeSource.DIFFERENCES)
    assert f.unicode(68) == ("a", DecodeSource.DIFFERENCES)
    # g12 is outside the glyph list: the code's old meaning is only a guess now
    assert f.unicode(69) == ("E", DecodeSource.FALLBACK)
    assert f.unicode(70) == ("F", DecodeSource.BASE_ENCODING)  # untouched code: StandardEncoding default
    assert DiagnosticKind.FONT_WITHOUT_TOUNICODE in kinds(f)
    assert f.info.encoding == "StandardEncoding (default) + Differences"


def test_base_encodings(pdf: pikepdf.Pdf) -> None:
    win = load_font(font(pdf, BaseFont=Name.Helvetica, Encoding=Name.WinAnsiEncoding), "/F1")
    mac = load_font(font(pdf, BaseFont=Name.Helvetica, Encoding=Name.MacRomanEncoding), "/F2")
    std = load_font(font(pdf, BaseFont=Name.Helvetica), "/F3")
    assert win.unicode(0x80) == ("\u20ac", DecodeSource.BASE_ENCODING)
    assert mac.unicode(0x80) == ("\u00c4", DecodeSource.BASE_ENCODING)
    assert std.unicode(0x27) == ("\u2019", DecodeSource.BASE_ENCODING)  # quoteright in Standard
    assert std.unicode(0x01) == ("", DecodeSource.UNRESOLVED)


def test_symbolic_truetype_without_encoding_is_a_cp1252_guess(pdf: pikepdf.Pdf) -> None:
    desc = pikepdf.Dictionary(Type=Name.FontDescriptor, Flags=4, Ascent=900, Descent=-200)
    f = load_font(font(pdf, Subtype=Name.TrueType, BaseFont=Name("/ABCDEF+Foo"), FontDescriptor=desc), "/F1")
    assert f.unicode(0x41) == ("A", DecodeSource.FALLBACK)
    assert f.unicode(0x92) == ("\u2019", DecodeSource.FALLBACK)
    assert f.unicode(0x05) == ("", DecodeSource.UNRESOLVED)


def test_type1_builtin_encoding_from_font_program(pdf: pikepdf.Pdf) -> None:
    program = b"%!PS-AdobeFont-1.0\n/Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\ndup 65 /alpha put\nreadonly def\ncurrentfile eexec\n\x00\x01"
    desc = pikepdf.Dictionary(Type=Name.FontDescriptor, Flags=4, FontFile=pdf.make_stream(program))
    f = load_font(font(pdf, BaseFont=Name("/ABCDEF+CMMI10"), FontDescriptor=desc), "/F1")
    assert f.unicode(65) == ("\u03b1", DecodeSource.BASE_ENCODING)
    assert f.info.embedded and "built-in" in f.info.encoding


def test_widths_firstchar_and_missing_width(pdf: pikepdf.Pdf) -> None:
    desc = pikepdf.Dictionary(Type=Name.FontDescriptor, MissingWidth=250, Ascent=700, Descent=-300)
    f = load_font(font(pdf, BaseFont=Name.Foo, FirstChar=65, Widths=[600, 700], FontDescriptor=desc), "/F1")
    assert f.width(65) == pytest.approx(0.6) and f.width(66) == pytest.approx(0.7)
    assert f.width(67) == pytest.approx(0.25) and f.width(10) == pytest.approx(0.25)
    assert (f.ascent, f.descent) == (pytest.approx(0.7), pytest.approx(-0.3))
    assert f.info.widths_source == "Widths"


def test_standard14_metrics_without_widths(pdf: pikepdf.Pdf) -> None:
    f = load_font(font(pdf, BaseFont=Name.Helvetica, Encoding=Name.WinAnsiEncoding), "/F1")
    assert f.width(ord("a")) == pytest.approx(0.556) and f.width(ord(" ")) == pytest.approx(0.278)
    assert f.ascent == pytest.approx(0.718) and f.descent == pytest.approx(-0.207)
    assert 12 * (f.ascent - f.descent) == pytest.approx(11.1)
    assert f.info.widths_source == "standard-14 metrics"
    alias = load_font(font(pdf, Subtype=Name.TrueType, BaseFont=Name("/Arial-BoldMT")), "/F2")
    assert alias.info.widths_source == "standard-14 metrics" and alias.width(ord("A")) == pytest.approx(0.722)


def test_missing_widths_reported(pdf: pikepdf.Pdf) -> None:
    f = load_font(font(pdf, BaseFont=Name("/NotStandard")), "/F1")
    assert DiagnosticKind.MISSING_WIDTHS in kinds(f)
    assert f.width(65) > 0  # a default keeps glyphs apart


def test_ascent_sources_bbox_and_nonsense(pdf: pikepdf.Pdf) -> None:
    bbox_only = pikepdf.Dictionary(
        Type=Name.FontDescriptor, Ascent=0, Descent=0, FontBBox=[-100, -250, 1000, 950]
    )
    f = load_font(font(pdf, BaseFont=Name.Foo, Widths=[500], FontDescriptor=bbox_only), "/F1")
    assert (f.ascent, f.descent) == (pytest.approx(0.95), pytest.approx(-0.25))
    nothing = load_font(font(pdf, BaseFont=Name.Foo, Widths=[500]), "/F2")
    assert (nothing.ascent, nothing.descent) == (pytest.approx(0.8), pytest.approx(-0.2))


def test_type3_widths_and_extent_through_font_matrix(pdf: pikepdf.Pdf) -> None:
    f = load_font(
        font(
            pdf,
            Subtype=Name.Type3,
            FontMatrix=[0.01, 0, 0, 0.02, 0, 0],
            FontBBox=[0, -20, 100, 40],
            FirstChar=97,
            Widths=[50, 60],
            Encoding=pikepdf.Dictionary(Differences=[97, Name.a, Name("/g7")]),
            CharProcs=pikepdf.Dictionary(),
        ),
        "/T3",
    )
    assert f.is_type3
    assert f.width(97) == pytest.approx(0.5) and f.width(98) == pytest.approx(0.6)
    assert (f.ascent, f.descent) == (pytest.approx(0.8), pytest.approx(-0.4))  # y scale 0.02
    assert f.unicode(97) == ("a", DecodeSource.DIFFERENCES)
    assert f.unicode(98) == ("b", DecodeSource.FALLBACK)


def test_split_is_one_byte(pdf: pikepdf.Pdf) -> None:
    f = load_font(font(pdf, BaseFont=Name.Helvetica), "/F1")
    assert f.split(b"Ab") == [(65, 1), (98, 1)]


@pytest.mark.parametrize(
    "obj",
    [
        pikepdf.Dictionary(),
        pikepdf.Dictionary(Type=Name.Font, Subtype=Name.Bogus),
        pikepdf.Dictionary(Type=Name.Font, Subtype=Name.Type1, Widths=Name.Foo, FirstChar=(1, 2), Encoding=5),
        pikepdf.Dictionary(
            Type=Name.Font, Subtype=Name.Type1, FontDescriptor=pikepdf.Array([1]), ToUnicode=3
        ),
        pikepdf.Dictionary(Type=Name.Font, Subtype=Name.Type3, FontMatrix=[0, 0, 0, 0, 0, 0], Widths=[None]),
        pikepdf.Dictionary(Type=Name.Font, Subtype=Name.Type0, DescendantFonts=[5], Encoding=Name("/Nope-H")),
        pikepdf.Array([1, 2]),
        Name.Helvetica,
    ],
)
def test_broken_font_does_not_raise(obj: object) -> None:
    f = load_font(obj, "/Fx")  # type: ignore[arg-type]
    assert f.unicode(65)[1] in DecodeSource
    assert f.width(65) >= 0 and f.descent < f.ascent
    assert isinstance(f.split(b"\x00\x41\x42"), list)
    assert f.info.problems or f.info.subtype in ("Type1", "Type3")


def test_font_cache_parses_indirect_fonts_once(pdf: pikepdf.Pdf) -> None:
    obj = font(pdf, BaseFont=Name.Helvetica)
    cache = FontCache()
    first = cache.get(obj, "/F1")
    assert cache.get(pdf.get_object(obj.objgen), "/F9") is first
    assert first.info.font_id == f"{obj.objgen[0]} 0 R"
    direct = pikepdf.Dictionary(Type=Name.Font, Subtype=Name.Type1, BaseFont=Name.Courier)
    assert cache.get(direct, "/F2").info.font_id == "/F2"


def test_standard14_widths_follow_the_glyph_not_a_wrong_tounicode() -> None:
    """Helvetica without /Widths whose ToUnicode is off by one ('d' decodes to 'e'): the advances
    are the AFM widths of the glyphs the codes select (by the encoding), so the glyphs stand where
    a viewer draws them — not the widths of the characters the wrong ToUnicode names."""
    from tests.ocr_pdfs import off_by_one_tounicode
    from tests.pdfbuild import helvetica, make_pdf

    def shifted(pdf: Any) -> Any:
        f = helvetica(pdf)
        f.ToUnicode = pdf.make_stream(off_by_one_tounicode())
        return f

    content = b"BT /F1 10 Tf 72 700 Td (Will it fill?) Tj ET"
    right = open_document(to_bytes(make_pdf([content]))).interpret(1).glyphs
    wrong = open_document(to_bytes(make_pdf([content], {"/F1": shifted}))).interpret(1).glyphs
    assert "".join(g.unicode for g in wrong) == "Xjmm ju gjmm@"  # the space stays a space
    assert [g.origin for g in wrong] == [g.origin for g in right]
    # 'W' advances 9.44 pt at 10 pt (AFM 944), not as 'X' (667)
    assert round(wrong[1].origin[0] - wrong[0].origin[0], 2) == 9.44
    assert round(wrong[3].origin[0] - wrong[2].origin[0], 2) == 2.22  # 'l' 222, not 'm' (833)


# ------------------------------------------------------------------ ZapfDingbats


def _zapf(pdf: pikepdf.Pdf) -> Any:
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.ZapfDingbats
        )
    )


def test_zapf_dingbats_without_tounicode_reads_its_glyph_list() -> None:
    from glyphscope.core.glyph import DecodeSource

    # codes 4 and 8 are a20 and a24 in the font's AFM: ✔ U+2714 and ✘ U+2718 (pdftotext reads the same)
    page = analyze_page(pdf_document(make_pdf([b"BT /F1 12 Tf 72 700 Td (48) Tj ET"], {"/F1": _zapf})), 1)
    glyphs = page.page.glyphs
    assert [g.unicode for g in glyphs] == ["\u2714", "\u2718"]
    assert {g.decode_source for g in glyphs} == {DecodeSource.BASE_ENCODING}  # not a guess any more
    assert page.texts["plain"].text == "\u2714\u2718"
    # the AFM widths: a20 846, a24 ... the pen moves by the glyph's own advance
    assert round(glyphs[0].glyph_end[0] - glyphs[0].origin[0], 3) == round(0.846 * 12, 3)
    (font,) = page.page.fonts
    assert "Zapf Dingbats glyph list" in font.info.encoding


def test_zapf_dingbats_differences_names_read_the_glyph_list() -> None:
    def font(pdf: pikepdf.Pdf) -> Any:
        f = _zapf(pdf)
        f.Encoding = pikepdf.Dictionary(Differences=[65, pikepdf.Name("/a20"), pikepdf.Name("/a12")])
        return f

    page = analyze_page(pdf_document(make_pdf([b"BT /F1 12 Tf 72 700 Td (AB) Tj ET"], {"/F1": font})), 1)
    assert page.texts["plain"].text == "\u2714\u261e"
