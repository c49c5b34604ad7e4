"""Type0 fonts: encoding CMaps, character collections, /W and /W2 metrics."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.fonts import load_font
from glyphscope.core.glyph import DecodeSource

Name = pikepdf.Name


@pytest.fixture()
def pdf() -> pikepdf.Pdf:
    return pikepdf.new()


def type0(
    pdf: pikepdf.Pdf, encoding: object, ordering: str = "Identity", **descendant: object
) -> pikepdf.Object:
    cid_font = pikepdf.Dictionary(
        Type=Name.Font,
        Subtype=Name.CIDFontType0,
        BaseFont=Name.Test,
        CIDSystemInfo=pikepdf.Dictionary(
            Registry=pikepdf.String("Adobe"), Ordering=pikepdf.String(ordering), Supplement=0
        ),
        FontDescriptor=pikepdf.Dictionary(Type=Name.FontDescriptor, Ascent=880, Descent=-120, Flags=4),
        **descendant,
    )
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=Name.Font,
            Subtype=Name.Type0,
            BaseFont=Name.Test,
            Encoding=encoding,
            DescendantFonts=[cid_font],
        )
    )


def kinds(f) -> set[DiagnosticKind]:
    return {p.kind for p in f.info.problems}


def test_identity_h_with_tounicode(pdf: pikepdf.Pdf) -> None:
    obj = type0(pdf, Name("/Identity-H"))
    obj.ToUnicode = pdf.make_stream(b"1 beginbfrange <0003> <0004> <0041> endbfrange")
    f = load_font(obj, "/F1")
    assert f.split(b"\x00\x03\x00\x04") == [(3, 2), (4, 2)]
    assert f.unicode(3) == ("A", DecodeSource.TOUNICODE)
    assert f.unicode(9) == ("", DecodeSource.UNRESOLVED)
    assert f.wmode == 0 and f.info.encoding == "Identity-H"


def test_identity_h_with_japan1_ordering_uses_the_collection(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Identity-V"), "Japan1"), "/F1")
    assert f.unicode(843) == ("\u3042", DecodeSource.CID_COLLECTION)  # あ
    assert f.wmode == 1 and f.info.cid_collection == "Adobe-Japan1"
    assert DiagnosticKind.FONT_WITHOUT_TOUNICODE in kinds(f)


def test_identity_without_tounicode_or_collection_is_unresolved(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Identity-H")), "/F1")
    assert f.unicode(36) == ("", DecodeSource.UNRESOLVED)
    assert DiagnosticKind.FONT_WITHOUT_TOUNICODE in kinds(f)


def test_predefined_90ms_rksj_h(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/90ms-RKSJ-H"), "Japan1"), "/F1")
    codes = f.split(b"\x82\xa0A")
    assert codes == [(0x82A0, 2), (0x41, 1)]
    assert f.unicode(0x82A0) == ("\u3042", DecodeSource.CID_COLLECTION)
    assert f.unicode(0x41) == ("A", DecodeSource.CID_COLLECTION)
    assert f.info.encoding == "90ms-RKSJ-H" and f.wmode == 0


def test_predefined_unicode_cmap_decodes_codes_directly(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/UniGB-UTF16-H"), "GB1"), "/F1")
    codes = f.split("中\U00020000".encode("utf-16-be"))
    assert [w for _, w in codes] == [2, 4]
    assert [f.unicode(c) for c, _ in codes] == [
        ("中", DecodeSource.ENCODING_CMAP),
        ("\U00020000", DecodeSource.ENCODING_CMAP),
    ]


def test_embedded_encoding_cmap_stream(pdf: pikepdf.Pdf) -> None:
    stream = pdf.make_stream(
        b"/WMode 1 def 1 begincodespacerange <0000> <FFFF> endcodespacerange "
        b"1 begincidrange <0100> <01FF> 843 endcidrange",
        Type=Name.CMap,
        CMapName=Name.Custom,
    )
    f = load_font(type0(pdf, stream, "Japan1"), "/F1")
    assert f.wmode == 1
    assert f.unicode(0x0100) == ("\u3042", DecodeSource.CID_COLLECTION)


def test_unknown_predefined_cmap_is_reported(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Made-Up-H")), "/F1")
    assert DiagnosticKind.FALLBACK_DECODING in kinds(f)
    assert f.split(b"\x00\x41") == [(0x41, 2)]


def test_w_both_forms_and_dw(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Identity-H"), W=[1, [500, 600], 10, 20, 300], DW=900), "/F1")
    assert f.width(1) == pytest.approx(0.5) and f.width(2) == pytest.approx(0.6)
    assert f.width(15) == pytest.approx(0.3) and f.width(5) == pytest.approx(0.9)
    assert f.info.widths_source == "W" and not kinds(f) & {
        DiagnosticKind.UNSORTED_W,
        DiagnosticKind.OVERLAPPING_W,
    }


def test_w_unsorted_and_overlapping_first_written_wins(pdf: pikepdf.Pdf) -> None:
    # Latin text written after a broad CJK range: binary search on the raw array would miss it.
    f = load_font(
        type0(pdf, Name("/Identity-H"), W=[100, 200, 1000, 3, [250, 260], 150, [555], 0, 2, 400]), "/F1"
    )
    assert f.width(3) == pytest.approx(0.25) and f.width(4) == pytest.approx(0.26)
    assert f.width(150) == pytest.approx(1.0)  # covered by [100..200] written first, not by 150 [555]
    assert f.width(1) == pytest.approx(0.4)
    assert f.width(99) == pytest.approx(1.0)  # DW default
    assert {DiagnosticKind.UNSORTED_W, DiagnosticKind.OVERLAPPING_W} <= kinds(f)


def test_wide_w_range_kept_as_range(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Identity-H"), W=[0, 65535, 500, 7, [250]]), "/F1")
    assert f.width(40000) == pytest.approx(0.5)
    assert f.width(7) == pytest.approx(0.5)  # the wide range was written first


def test_vertical_metrics_w2_and_dw2(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Identity-V"), W=[1, [800]], W2=[1, [-900, 400, 850]]), "/F1")
    assert f.vertical(1) == (pytest.approx(-0.9), pytest.approx(0.4), pytest.approx(0.85))
    # default: w1y = DW2[1], vx = w0 / 2, vy = DW2[0]
    assert f.vertical(2) == (pytest.approx(-1.0), pytest.approx(0.5), pytest.approx(0.88))
    g = load_font(type0(pdf, Name("/Identity-V"), DW2=[800, -900]), "/F2")
    assert g.vertical(5) == (pytest.approx(-0.9), pytest.approx(0.5), pytest.approx(0.8))


def test_composite_ascent_from_descendant_descriptor(pdf: pikepdf.Pdf) -> None:
    f = load_font(type0(pdf, Name("/Identity-H")), "/F1")
    assert (f.ascent, f.descent) == (pytest.approx(0.88), pytest.approx(-0.12))
    assert f.info.subtype == "Type0" and f.info.descendant_subtype == "CIDFontType0"


def test_identity_named_tounicode(pdf: pikepdf.Pdf) -> None:
    obj = type0(pdf, Name("/Identity-H"))
    obj.ToUnicode = Name("/Identity-H")  # not a CMap, but producers mean code = Unicode
    f = load_font(obj, "/F1")
    assert f.unicode(0x4E2D) == ("中", DecodeSource.TOUNICODE)


def test_identity_encoding_cmap_as_tounicode_is_only_a_last_guess(pdf: pikepdf.Pdf) -> None:
    obj = type0(pdf, Name("/Identity-H"))
    obj.ToUnicode = pdf.make_stream(
        b"/CMapName /Identity-H def 1 begincodespacerange <0000> <FFFF> endcodespacerange "
        b"1 begincidrange <0000> <FFFF> 0 endcidrange"
    )
    f = load_font(obj, "/F1")
    assert f.info.tounicode_entries == 0
    assert f.unicode(0x41) == ("A", DecodeSource.FALLBACK)
