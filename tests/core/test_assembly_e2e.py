"""End to end: content streams built with pikepdf → interpret → classify → assemble."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.core.assembly import PageText, assemble
from glyphscope.core.document import open_document
from glyphscope.core.passes import classify
from tests.pdfbuild import identity_h_font, make_pdf, to_bytes


def page_text(pdf: pikepdf.Pdf, mode: str = "plain", page_number: int = 1) -> PageText:
    doc = open_document(to_bytes(pdf))
    page = doc.interpret(page_number)
    visible = classify(page).visible
    return assemble(visible, mode, visible_box=page.boxes.visible_box, structure=doc.structure(page_number))


def test_tj_offsets_give_pdf_reference() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td [(PDF) -250 (Reference) -250 (Manual)] TJ ET"])
    assert page_text(pdf).text == "PDF Reference Manual"


def test_kerning_sized_tj_offsets_are_glued() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td [(W) 80 (ord) -60 (s)] TJ ET"])
    assert page_text(pdf).text == "Words"


def test_negative_tc_given_back_by_tj_keeps_95hou() -> None:
    # Tc −3 tightens every glyph; TJ −250 (= 3 pt at 12 Tf) gives it back.
    content = b"BT /F2 12 Tf -3 Tc 72 700 Td [<0039> -250 <0035> -250 <540E>] TJ ET"
    pdf = make_pdf([content], {"/F2": identity_h_font})
    assert page_text(pdf).text == "95后"


def test_one_tf_with_scaled_tm_equals_twelve_tf() -> None:
    scaled = b"BT /F1 1 Tf 12 0 0 12 72 700 Tm [(Word) -100 (Sized) -250 (Spaced)] TJ ET"
    plain = b"BT /F1 12 Tf 72 700 Td [(Word) -100 (Sized) -250 (Spaced)] TJ ET"
    a = page_text(make_pdf([scaled])).text
    b = page_text(make_pdf([plain])).text
    assert a == b == "WordSized Spaced"


def test_td_moves_within_a_line_give_spaces_and_new_lines_breaks() -> None:
    content = b"BT /F1 12 Tf 72 700 Td (Hello) Tj 40 0 Td (World) Tj -40 -14 Td (Next) Tj ET"
    assert page_text(make_pdf([content])).text == "Hello World\nNext"


def test_superscript_by_text_rise_stays_on_the_line() -> None:
    content = b"BT /F1 12 Tf 72 700 Td (E = mc) Tj 5 Ts /F1 8 Tf (2) Tj 0 Ts /F1 12 Tf ( is it.) Tj ET"
    assert page_text(make_pdf([content])).text == "E = mc2 is it."


def test_rotated_runs_are_one_line_each() -> None:
    content = (
        b"BT /F1 12 Tf 0.7071 0.7071 -0.7071 0.7071 100 100 Tm (Diagonal text) Tj ET "
        b"BT /F1 12 Tf 0 1 -1 0 400 100 Tm (Upwards text) Tj ET"
    )
    assert page_text(make_pdf([content])).text == "Diagonal text\nUpwards text"


def _tagged_pdf() -> pikepdf.Pdf:
    content = (
        b"/P <</MCID 0>> BDC BT /F1 12 Tf 72 680 Td (second) Tj ET EMC "
        b"/P <</MCID 1>> BDC BT /F1 12 Tf 72 700 Td (first) Tj ET EMC "
        b"BT /F1 12 Tf 72 40 Td (untagged footer) Tj ET"
    )
    pdf = make_pdf([content])
    page = pdf.pages[0]
    page.obj.StructParents = 0
    Name = pikepdf.Name
    kids = pikepdf.Array(
        [
            pdf.make_indirect(pikepdf.Dictionary(Type=Name.StructElem, S=Name.P, K=1)),
            pdf.make_indirect(pikepdf.Dictionary(Type=Name.StructElem, S=Name.P, K=0)),
        ]
    )
    doc_elem = pdf.make_indirect(
        pikepdf.Dictionary(Type=Name.StructElem, S=Name.Document, Pg=page.obj, K=kids)
    )
    pdf.Root.StructTreeRoot = pdf.make_indirect(pikepdf.Dictionary(Type=Name.StructTreeRoot, K=doc_elem))
    return pdf


def test_structure_order_differs_from_stream_order() -> None:
    pdf = _tagged_pdf()
    assert page_text(pdf, "plain").text == "second\nfirst\nuntagged footer"
    structured = page_text(pdf, "structure")
    assert structured.text == "first\nsecond\nuntagged footer"
    assert structured.untagged == len("untagged footer")
    auto = page_text(pdf, "auto")  # 15 × 4 > 26: too much untagged text
    assert auto.structured is False and auto.text == "second\nfirst\nuntagged footer"


def test_untagged_pdf_has_no_structure() -> None:
    text = page_text(make_pdf([b"BT /F1 12 Tf 72 700 Td (x) Tj ET"]), "structure")
    assert text.text is None and text.reason is not None


@pytest.mark.parametrize("mode", ["plain", "layout", "columns", "auto"])
def test_empty_page_is_empty_text(mode: str) -> None:
    assert page_text(make_pdf([b""]), mode).text == ""
