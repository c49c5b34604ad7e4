"""One small built PDF per finding kind: kind, severity and the glyphs (or instruction) it points at."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.analysis import page_findings
from glyphscope.core.diagnostics import Diagnostic, DiagnosticKind, Severity
from glyphscope.core.document import open_document
from glyphscope.core.glyph import DecodeSource
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes

K = DiagnosticKind


def findings_of(pdf: pikepdf.Pdf | bytes, page: int = 1) -> list[Diagnostic]:
    doc = open_document(pdf if isinstance(pdf, bytes) else to_bytes(pdf))
    return page_findings(doc, page)


def only(findings: list[Diagnostic], kind: DiagnosticKind) -> Diagnostic:
    hits = [d for d in findings if d.kind is kind]
    assert len(hits) == 1, f"expected one {kind.value}, got {[d.kind.value for d in findings]}"
    return hits[0]


def kinds(findings: list[Diagnostic]) -> set[DiagnosticKind]:
    return {d.kind for d in findings}


# ---------------------------------------------------------------- builders of our own


def form_xobject(pdf: pikepdf.Pdf, content: bytes, *, bbox=(0, 0, 500, 500), xobjects=None) -> pikepdf.Object:
    form = pdf.make_stream(content)
    form.Type = pikepdf.Name.XObject
    form.Subtype = pikepdf.Name.Form
    form.BBox = list(bbox)
    form.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F9=helvetica(pdf)))
    if xobjects:
        form.Resources.XObject = pikepdf.Dictionary(xobjects)
    return pdf.make_indirect(form)


def tagged(pdf: pikepdf.Pdf, mcids: list[int]) -> pikepdf.Pdf:
    """Give page 1 a structure tree whose /P elements reference `mcids`."""
    page = pdf.pages[0].obj
    page.StructParents = 0
    root = pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.StructTreeRoot))
    doc_elem = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.Document, P=root, Pg=page)
    )
    doc_elem.K = pikepdf.Array(
        [
            pdf.make_indirect(
                pikepdf.Dictionary(Type=pikepdf.Name.StructElem, S=pikepdf.Name.P, P=doc_elem, K=m)
            )
            for m in mcids
        ]
    )
    root.K = doc_elem
    pdf.Root.StructTreeRoot = root
    pdf.Root.MarkInfo = pikepdf.Dictionary(Marked=True)
    return pdf


def simple_font_with_odd_differences(pdf: pikepdf.Pdf) -> pikepdf.Object:
    """Helvetica whose /Differences names codes 65, 66 with names outside the glyph list (/g65, /g66)."""
    encoding = pikepdf.Dictionary(
        Type=pikepdf.Name.Encoding, Differences=[65, pikepdf.Name("/g65"), pikepdf.Name("/g66")]
    )
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name.Helvetica,
            Encoding=encoding,
        )
    )


CODESPACE_ONLY = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


# ---------------------------------------------------------------- passes: cull, dedupe


def test_culled_slug_text_outside_the_cropbox():
    pdf = make_pdf(
        [b"BT /F1 10 Tf 100 700 Td (in) Tj ET BT /F1 6 Tf 100 20 Td (slug) Tj ET"],
        crop_box=[50, 50, 562, 742],
    )
    d = only(findings_of(pdf), K.CULLED_GLYPHS)
    assert d.severity is Severity.WARNING
    assert d.glyphs == (2, 3, 4, 5) and d.count == 4
    assert "slug" in d.message


def test_culled_text_is_quoted_as_plain_text_reads_it_lines_apart():
    pdf = make_pdf(
        [
            b"BT /F1 10 Tf 100 700 Td (in) Tj ET BT /F1 6 Tf 100 20 Td (Job 4711) Tj ET "
            b"BT /F1 6 Tf 100 10 Td (Slug line) Tj ET"
        ],
        crop_box=[50, 50, 562, 742],
    )
    d = only(findings_of(pdf), K.CULLED_GLYPHS)
    assert "left out of the text: “Job 4711 / Slug line” — printer slug lines" in d.message


def test_duplicates_fake_bold():
    pdf = make_pdf([b"BT /F1 10 Tf 100 100 Td (Bold) Tj ET BT /F1 10 Tf 100.3 100 Td (Bold) Tj ET"])
    d = only(findings_of(pdf), K.DUPLICATE_GLYPHS)
    assert d.severity is Severity.WARNING
    assert d.glyphs == (4, 5, 6, 7) and d.count == 4


def test_no_pass_findings_on_a_clean_page():
    found = findings_of(make_pdf([b"BT /F1 10 Tf 100 700 Td (fill committee) Tj ET"]))
    assert not kinds(found) & {K.CULLED_GLYPHS, K.DUPLICATE_GLYPHS, K.UNRESOLVED_GLYPHS, K.TEXT_FROM_FORMS}
    assert all(d.severity is Severity.INFO for d in found)


# ---------------------------------------------------------------- forms


def test_text_from_forms_share():
    pdf = pikepdf.new()
    form = form_xobject(pdf, b"BT /F9 10 Tf 10 10 Td (ab) Tj ET")
    make_pdf(
        [b"BT /F1 10 Tf 100 700 Td (p) Tj ET /Fm Do BT /F1 10 Tf 100 600 Td (q) Tj ET"],
        xobjects={"/Fm": form},
        pdf=pdf,
    )
    d = only(findings_of(pdf), K.TEXT_FROM_FORMS)
    assert d.severity is Severity.INFO
    assert d.glyphs == (1, 2) and d.count == 2
    assert "50%" in d.message


def test_form_cycle():
    pdf = pikepdf.new()
    form = form_xobject(pdf, b"BT /F9 10 Tf (loop) Tj ET /Me Do")
    form.Resources.XObject = pikepdf.Dictionary(Me=form)
    make_pdf([b"/Me Do"], xobjects={"/Me": form}, pdf=pdf)
    found = findings_of(pdf)
    d = only(found, K.FORM_CYCLE)
    assert d.severity is Severity.WARNING
    assert d.token_index == 0  # the page's Do that started the chain
    assert d.form_path == ("/Me",)
    # the form's text was painted once, and the share finding points at exactly those glyphs
    assert only(found, K.TEXT_FROM_FORMS).glyphs == (0, 1, 2, 3)


def test_form_depth_cap():
    pdf = pikepdf.new()
    forms = [form_xobject(pdf, b"BT /F9 10 Tf (x) Tj ET")]
    for _ in range(40):
        f = form_xobject(pdf, b"BT /F9 10 Tf (x) Tj ET /N Do")
        f.Resources.XObject = pikepdf.Dictionary(N=forms[-1])
        forms.append(f)
    make_pdf([b"/N Do"], xobjects={"/N": forms[-1]}, pdf=pdf)
    found = findings_of(pdf)
    d = only(found, K.FORM_DEPTH_CAP)
    assert d.severity is Severity.WARNING
    assert d.token_index == 0
    assert len(d.form_path) >= 12  # raised deep inside the chain


def test_glyphs_outside_the_form_bbox():
    pdf = pikepdf.new()
    form = form_xobject(pdf, b"BT /F9 10 Tf 5 5 Td (in) Tj 200 0 Td (out) Tj ET", bbox=(0, 0, 100, 100))
    make_pdf([b"BT /F1 10 Tf 300 700 Td (p) Tj ET /Fm Do"], xobjects={"/Fm": form}, pdf=pdf)
    d = only(findings_of(pdf), K.GLYPHS_OUTSIDE_FORM_BBOX)
    assert d.severity is Severity.WARNING
    assert d.glyphs == (3, 4, 5) and d.count == 3
    assert d.form_path == ("/Fm",) and d.token_index == 5  # BT Tf Td Tj ET Do


# ---------------------------------------------------------------- fonts and decoding


def test_unresolved_glyphs_per_font_error_when_most_are_lost():
    pdf = make_pdf(
        [b"BT /F1 10 Tf 100 700 Td (ok) Tj /F2 10 Tf <000100020003> Tj ET"],
        fonts={"/F1": helvetica, "/F2": lambda p: identity_h_font(p, tounicode=CODESPACE_ONLY)},
    )
    found = findings_of(pdf)
    d = only(found, K.UNRESOLVED_GLYPHS)
    assert d.severity is Severity.ERROR
    assert d.font_key == "/F2"
    assert d.glyphs == (2, 3, 4) and d.count == 3


def test_unresolved_glyphs_warning_when_few_are_lost():
    # nine mapped codes and one the ToUnicode CMap does not cover: 10 % lost
    pdf = make_pdf(
        [b"BT /F2 10 Tf 100 700 Td <0041004200430044004500460047004800490001> Tj ET"],
        fonts={"/F2": identity_h_font},
    )
    d = only(findings_of(pdf), K.UNRESOLVED_GLYPHS)
    assert d.severity is Severity.WARNING
    assert d.glyphs == (9,) and d.count == 1


def test_fallback_decoded_glyphs():
    pdf = make_pdf([b"BT /F3 10 Tf 100 700 Td (ABC) Tj ET"], fonts={"/F3": simple_font_with_odd_differences})
    doc = open_document(to_bytes(pdf))
    page = doc.interpret(1)
    assert [g.decode_source for g in page.glyphs] == [DecodeSource.FALLBACK] * 2 + [
        DecodeSource.BASE_ENCODING
    ]
    found = page_findings(doc, 1)
    d = only(found, K.FALLBACK_DECODING)
    assert d.severity is Severity.WARNING
    assert d.font_key == "/F3"
    assert d.glyphs == (0, 1) and d.count == 2
    # ... and the font is reported as lacking ToUnicode with names outside the glyph list
    assert only(found, K.FONT_WITHOUT_TOUNICODE).glyphs == (0, 1, 2)


def test_unsorted_w():
    widths = [0x61, [500], 0x41, [600, 700], 0x30, 0x50, 1000]
    pdf = make_pdf(
        [b"BT /F1 10 Tf 100 700 Td (x) Tj /F2 10 Tf <00410042> Tj ET"],
        fonts={"/F1": helvetica, "/F2": lambda p: identity_h_font(p, widths)},
    )
    d = only(findings_of(pdf), K.UNSORTED_W)
    assert d.severity is Severity.WARNING
    assert d.font_key == "/F2"
    assert d.glyphs == (1, 2)  # the glyphs painted with the font


def test_missing_font():
    pdf = make_pdf([b"BT /Nope 10 Tf 100 700 Td (x) Tj /F1 10 Tf (y) Tj ET"])
    found = findings_of(pdf)
    d = only(found, K.MISSING_FONT)
    assert d.severity is Severity.ERROR
    assert d.font_key == "/Nope" and d.token_index == 1  # the Tf that named it
    assert d.glyphs == ()  # its text is lost: there are no glyphs to point at


def test_one_tf_with_the_size_in_tm():
    pdf = make_pdf([b"BT /F1 1 Tf 12 0 0 12 100 700 Tm (Hello) Tj ET"])
    d = only(findings_of(pdf), K.TF_ONE_SCALED_TM)
    assert d.severity is Severity.INFO
    assert d.token_index == 3 and d.font_key == "/F1"  # the Tj that showed the text
    assert d.glyphs == (0, 1, 2, 3, 4)  # clicking the finding selects what was set that way


def test_one_tf_without_scaling_is_not_reported():
    pdf = make_pdf([b"BT /F1 1 Tf 100 700 Td (tiny) Tj ET"])
    assert K.TF_ONE_SCALED_TM not in kinds(findings_of(pdf))


# ---------------------------------------------------------------- content stream


def test_invisible_text_render_mode_3():
    pdf = make_pdf([b"BT /F1 10 Tf 100 700 Td (seen) Tj 3 Tr (hid) Tj 0 Tr (x) Tj ET"])
    d = only(findings_of(pdf), K.INVISIBLE_TEXT)
    assert d.severity is Severity.INFO
    assert d.glyphs == (4, 5, 6) and d.count == 3


def test_malformed_operator_skipped():
    pdf = make_pdf([b"BT /F1 Tf /F1 10 Tf 100 700 Td (ok) Tj (bad) 12 Tm ET"])
    found = findings_of(pdf)
    malformed = [d for d in found if d.kind is K.MALFORMED_OPERATOR]
    assert {d.token_index for d in malformed} == {1, 5}  # BT [Tf] Tf Td Tj [Tm] ET
    assert all(d.severity is Severity.WARNING for d in malformed)
    doc = open_document(to_bytes(pdf))
    assert "".join(g.unicode for g in doc.interpret(1).glyphs) == "ok"


# ---------------------------------------------------------------- structure


def test_tagged_page_with_a_large_untagged_share():
    content = (
        b"/P <</MCID 0>> BDC BT /F1 10 Tf 100 700 Td (ab) Tj ET EMC BT /F1 10 Tf 100 600 Td (untagged) Tj ET"
    )
    pdf = tagged(make_pdf([content]), [0])
    d = only(findings_of(pdf), K.UNTAGGED_SHARE)
    assert d.severity is Severity.WARNING
    assert d.glyphs == tuple(range(2, 10)) and d.count == 8
    assert "80%" in d.message


def test_mostly_tagged_page_is_not_reported():
    content = (
        b"/P <</MCID 0>> BDC BT /F1 10 Tf 100 700 Td (tagged text) Tj ET EMC "
        b"BT /F1 10 Tf 100 600 Td (x) Tj ET"
    )
    found = findings_of(tagged(make_pdf([content]), [0]))
    assert not kinds(found) & {K.UNTAGGED_SHARE, K.STRUCTURE_UNUSABLE}


def test_structure_unusable_when_the_tree_misses_the_page_text():
    content = b"/P <</MCID 3>> BDC BT /F1 10 Tf 100 700 Td (abc) Tj ET EMC"
    pdf = tagged(make_pdf([content]), [7])  # the tree references an MCID the page never marks
    d = only(findings_of(pdf), K.STRUCTURE_UNUSABLE)
    assert d.severity is Severity.INFO
    assert d.glyphs == (0, 1, 2)


# ---------------------------------------------------------------- damaged files


def damaged_bytes() -> bytes:
    """A two-page file whose xref table and trailer are cut off: qpdf rebuilds them by scanning."""
    data = to_bytes(
        make_pdf([b"BT /F1 10 Tf 100 700 Td (one) Tj ET", b"BT /F1 10 Tf 100 700 Td (two) Tj ET"])
    )
    return data[: data.rindex(b"xref")]


def test_damaged_file_repaired():
    doc = open_document(damaged_bytes())
    assert doc.page_count == 2
    assert "".join(g.unicode for g in doc.interpret(2).glyphs) == "two"
    repaired = [d for d in doc.diagnostics if d.kind is K.DAMAGED_FILE_REPAIRED]
    assert repaired and all(d.severity is Severity.WARNING for d in repaired)
    assert all(d.page is None and d.glyphs == () for d in repaired)
    assert doc.warnings


@pytest.mark.parametrize(
    "kind",
    [K.CULLED_GLYPHS, K.DUPLICATE_GLYPHS, K.TEXT_FROM_FORMS, K.UNRESOLVED_GLYPHS, K.INVISIBLE_TEXT],
)
def test_finding_glyphs_are_paint_indices_of_the_page(kind):
    """Whatever the kind, `glyphs` indexes page.glyphs (paint order over page stream and forms)."""
    pdf = pikepdf.new()
    form = form_xobject(pdf, b"BT /F9 10 Tf 10 300 Td (fm) Tj ET")
    content = (
        b"BT /F1 10 Tf 100 700 Td (a) Tj ET /Fm Do BT /F1 10 Tf 100 5 Td (s) Tj ET "
        b"BT /F1 10 Tf 200 700 Td (d) Tj ET BT /F1 10 Tf 200.2 700 Td (d) Tj ET "
        b"BT 3 Tr /F2 10 Tf 300 300 Td <0001> Tj ET"
    )
    make_pdf(
        [content],
        fonts={"/F1": helvetica, "/F2": lambda p: identity_h_font(p, tounicode=CODESPACE_ONLY)},
        xobjects={"/Fm": form},
        crop_box=[0, 50, 612, 792],
        pdf=pdf,
    )
    doc = open_document(to_bytes(pdf))
    page = doc.interpret(1)
    expected = {
        K.TEXT_FROM_FORMS: (1, 2),
        K.CULLED_GLYPHS: (3,),
        K.DUPLICATE_GLYPHS: (5,),
        K.UNRESOLVED_GLYPHS: (6,),
        K.INVISIBLE_TEXT: (6,),
    }
    d = only(page_findings(doc, 1), kind)
    assert d.glyphs == expected[kind]
    assert all(0 <= i < len(page.glyphs) and page.glyphs[i].paint_index == i for i in d.glyphs)
