"""The one renderer's page images (inspector.render.page_images, PDFium in its own process), headless."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pikepdf
import pytest
from PIL import ImageOps

from glyphscope.inspector.render.page_images import PageImageError, render_page_image


def form_pdf(need_appearances: bool = True) -> bytes:
    """A 300×200 pt page with one text field whose value "HELLO" has no appearance stream:
    only a renderer that runs the form machinery draws it (as viewers do)."""
    pdf = pikepdf.new()
    helv = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type1,
            BaseFont=pikepdf.Name.Helvetica,
            Encoding=pikepdf.Name.WinAnsiEncoding,
        )
    )
    page = pdf.add_blank_page(page_size=(300, 200))
    field = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Widget,
            FT=pikepdf.Name.Tx,
            T=pikepdf.String("name"),
            V=pikepdf.String("HELLO"),
            Rect=[50, 80, 250, 120],
            DA=pikepdf.String("/Helv 24 Tf 0 g"),
            F=4,
            P=page.obj,
        )
    )
    page.obj["/Annots"] = pikepdf.Array([field])
    pdf.Root["/AcroForm"] = pikepdf.Dictionary(
        Fields=[field],
        NeedAppearances=need_appearances,
        DA=pikepdf.String("/Helv 0 Tf 0 g"),
        DR=pikepdf.Dictionary(Font=pikepdf.Dictionary(Helv=helv)),
    )
    buffer = io.BytesIO()
    pdf.save(buffer)
    return buffer.getvalue()


def ink_box(image) -> tuple[int, int, int, int] | None:
    """The bounding box of the non-white pixels."""
    return ImageOps.invert(image.convert("L")).point(lambda v: 255 if v > 64 else 0).getbbox()


def test_a_form_fields_value_is_drawn_inside_its_widget() -> None:
    image = render_page_image(form_pdf(), 1, scale=2.0)
    assert image.size == (600, 400) and image.mode == "RGBA"
    box = ink_box(image)
    assert box is not None, "the field's value was not drawn"
    # the widget's /Rect [50 80 250 120] pt is x 100–500, y 160–240 px from the top at 2 px/pt
    x0, y0, x1, y1 = box
    assert 100 <= x0 < 140 and x1 <= 500 and y0 >= 160 and y1 <= 240
    assert x1 - x0 > 5 * 24 * 2 * 0.5  # five 24 pt capitals, about 0.7 em each, drawn at 2 px/pt


def test_without_the_form_machinery_the_value_would_be_missing() -> None:
    """What the test above rules out: PDFium's page rendering alone (no form environment, as a
    renderer without init_forms/FPDF_FFLDraw does) leaves the field blank."""
    import pypdfium2

    document = pypdfium2.PdfDocument(form_pdf())
    try:
        page = document[0]
        bare = page.render(scale=2.0, may_draw_forms=False).to_pil()
        page.close()
    finally:
        document.close()
    assert ink_box(bare) is None


def test_rotation_follows_the_page(tmp_path: Path) -> None:
    pdf = pikepdf.open(io.BytesIO(form_pdf()))
    pdf.pages[0].obj["/Rotate"] = 90
    buffer = io.BytesIO()
    pdf.save(buffer)
    image = render_page_image(buffer.getvalue(), 1, scale=1.0)
    assert image.size == (200, 300)  # turned a quarter clockwise
    x0, y0, x1, y1 = ink_box(image) or (0, 0, 0, 0)
    assert y1 - y0 > x1 - x0  # the line of text now runs down the page


@pytest.mark.parametrize(
    "source, page, message",
    [
        (b"not a pdf at all", 1, "the PDF could not be opened for rendering"),
        (None, 3, "page 3 is out of range: the document has 1 page(s)"),
    ],
)
def test_bad_input_is_a_page_image_error(source, page, message) -> None:
    with pytest.raises(PageImageError, match=re.escape(message)):
        render_page_image(form_pdf() if source is None else source, page)
