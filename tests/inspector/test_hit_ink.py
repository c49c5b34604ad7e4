"""Hit testing by ink: a click at the ink of a glyph selects that glyph, on display type whose boxes
(the font's whole ascent and descent) reach far over the lines around them."""

from __future__ import annotations

import ctypes
from typing import Any

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.inspector.views.ink import ink_band, ink_quad
from glyphscope.inspector.views.spatial import GlyphHitIndex
from tests.pdfbuild import make_pdf, to_bytes

pdfium = pytest.importorskip("pypdfium2")


def display_font(pdf: pikepdf.Pdf) -> Any:
    """Helvetica-Bold as a display face states itself: room for swashes above and below (Ascent
    1200, Descent -500), so a glyph's box is 1.7 em tall."""
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/Helvetica-Bold"),
        Flags=32,
        FontBBox=[-170, -500, 1100, 1200],
        ItalicAngle=0,
        Ascent=1200,
        Descent=-500,
        CapHeight=718,
        StemV=140,
    )
    font = pikepdf.Dictionary(
        Type=pikepdf.Name.Font,
        Subtype=pikepdf.Name.Type1,
        BaseFont=pikepdf.Name("/Helvetica-Bold"),
        Encoding=pikepdf.Name("/WinAnsiEncoding"),
        FontDescriptor=pdf.make_indirect(descriptor),
    )
    return pdf.make_indirect(font)


# A poster: 64 pt lines set tight (44 pt apart, 0.69 em), quotes, capitals and descenders; a
# 200 pt hanging quote beside them, a 10 pt caption under it, and a 48 pt title on an arc below.
POSTER = (
    b"BT /F1 64 Tf 44 TL 150 700 Td (\x93Fame is a) Tj T* (formula, \x93mad) Tj T* (magic\x94 of FM) Tj"
    b" T* (jumpy gray Qs;) Tj ET\n"
    b"BT /F1 200 Tf 10 560 Td (\x93) Tj ET\n"
    b"BT /F1 10 Tf 12 545 Td (a caption, \x93quoted\x94 small) Tj ET\n"
    # a title set on an arc, one Tm per glyph: each baseline is its own glyph's tangent
    b"BT /F1 48 Tf 0.1564 0.9877 -0.9877 0.1564 151.85 273.46 Tm (\x93) Tj "
    b"0.3118 0.9502 -0.9502 0.3118 157.48 296.76 Tm (F) Tj "
    b"0.4904 0.8715 -0.8715 0.4904 169.28 323.56 Tm (a) Tj "
    b"0.6369 0.7709 -0.7709 0.6369 184.36 345.54 Tm (m) Tj "
    b"0.8277 0.5612 -0.5612 0.8277 215.82 374.15 Tm (e) Tj "
    b"0.9139 0.4059 -0.4059 0.9139 239.12 387.09 Tm ( ) Tj "
    b"0.9464 0.3231 -0.3231 0.9464 251.54 391.96 Tm (a) Tj "
    b"0.9886 0.1505 -0.1505 0.9886 277.43 398.29 Tm (n) Tj "
    b"0.9990 -0.0445 0.0445 0.9990 306.67 399.85 Tm (d) Tj "
    b"0.9713 -0.2377 0.2377 0.9713 335.66 395.70 Tm ( ) Tj "
    b"0.9464 -0.3231 0.3231 0.9464 348.46 391.96 Tm (m) Tj "
    b"0.8177 -0.5757 0.5757 0.8177 386.35 372.65 Tm (a) Tj "
    b"0.7029 -0.7113 0.7113 0.7029 406.70 355.43 Tm (g) Tj "
    b"0.5513 -0.8343 0.8343 0.5513 425.15 332.69 Tm (i) Tj "
    b"0.4750 -0.8800 0.8800 0.4750 432.00 321.25 Tm (c) Tj "
    b"0.3118 -0.9502 0.9502 0.3118 442.52 296.76 Tm (\x94) Tj ET\n"
)


@pytest.fixture(scope="module")
def poster() -> bytes:
    return to_bytes(make_pdf([POSTER], {"/F1": display_font}))


def pdfium_ink_centres(data: bytes) -> list[tuple[str, tuple[float, float], tuple[float, float]]]:
    """(character, origin, centre of its tight box) of every painted character, as PDFium's text
    page measures them from the outlines it draws (an oracle independent of our ink bands)."""
    raw = pdfium.raw
    doc = pdfium.PdfDocument(data)
    text_page = doc[0].get_textpage()
    out = []
    for i in range(text_page.count_chars()):
        if raw.FPDFText_IsGenerated(text_page, i):
            continue
        code = raw.FPDFText_GetUnicode(text_page, i)
        if code <= 32:
            continue
        left, bottom, right, top = text_page.get_charbox(i)
        x, y = ctypes.c_double(), ctypes.c_double()
        raw.FPDFText_GetCharOrigin(text_page, i, x, y)
        out.append((chr(code), (x.value, y.value), ((left + right) / 2, (bottom + top) / 2)))
    return out


def clicks(data: bytes) -> list[tuple[int, tuple[float, float]]]:
    """(paint index, ink centre) of every inked glyph of the page."""
    glyphs = open_document(data).interpret(1).glyphs
    out = []
    for text, (x, y), centre in pdfium_ink_centres(data):
        same = [g for g in glyphs if g.unicode == text and abs(g.origin[0] - x) + abs(g.origin[1] - y) < 0.1]
        assert len(same) == 1, (text, x, y)
        out.append((same[0].paint_index, centre))
    return out


def test_every_glyph_of_a_display_page_is_selected_by_a_click_at_its_ink_centre(poster: bytes) -> None:
    page = open_document(poster).interpret(1)
    glyphs = page.glyphs
    assert glyphs[0].height == pytest.approx(64 * 1.7)  # boxes much taller than the 44 pt between lines
    targets = clicks(poster)
    assert len(targets) == sum(1 for g in glyphs if not g.unicode.isspace()) == 65 + 14
    index = GlyphHitIndex.of_glyphs(glyphs, page.fonts)
    wrong = [
        (glyphs[i].unicode, index.hit(p, radius=1.0)) for i, p in targets if index.hit(p, radius=1.0) != i
    ]
    assert wrong == []
    # by boxes alone (the line nearest the pointer among the boxes over it) clicks go astray: on
    # "a" to a space of the line below, on "m" to the "o" above, on the big quote to a space
    boxes = GlyphHitIndex([g.quad for g in glyphs], [(g.origin, g.glyph_end) for g in glyphs])
    astray = {(glyphs[i].unicode, glyphs[boxes.hit(p) or 0].unicode) for i, p in targets if boxes.hit(p) != i}
    assert {("a", " "), ("m", "o"), ("“", " ")} <= astray


def test_the_ink_band_of_a_letter_follows_its_shape() -> None:
    assert ink_band("a") == (0.0, 0.5)
    assert ink_band("F") == (0.0, 0.7)
    assert ink_band("g") == (-0.22, 0.5)
    assert ink_band("é") == pytest.approx((0.0, 0.7))  # the accent above the x-height
    low, high = ink_band("“") or (0, 0)
    assert low > 0.3 and high > 0.7
    assert ink_band(" ") is None  # a space has no ink: a click in a word gap is never on it first


def test_an_ink_quad_lies_inside_the_glyph_box_at_the_fonts_em(poster: bytes) -> None:
    page = open_document(poster).interpret(1)
    a = next(g for g in page.glyphs if g.unicode == "a" and g.font_size == 64)
    quad = ink_quad(a, 1.2)
    assert quad is not None
    bottom, top = quad[0][1], quad[3][1]
    assert (bottom, top) == pytest.approx((a.origin[1], a.origin[1] + 0.5 * 64))
    assert quad[0][0] == pytest.approx(a.quad[0][0]) and quad[1][0] == pytest.approx(a.quad[1][0])


def test_clicks_on_the_canvas_at_every_ink_centre_select_that_glyph(
    qtbot: Any, window: Any, tmp_path: Any, poster: bytes
) -> None:
    from PySide6.QtCore import QPointF, Qt

    from tests.gui_helpers import open_file

    path = tmp_path / "poster.pdf"
    path.write_bytes(poster)
    open_file(qtbot, window, path)
    canvas = window.canvas
    canvas.set_zoom(2.0)
    wrong = []
    for index, (x, y) in clicks(poster):
        scene = canvas.page_to_scene.map(QPointF(x, y))
        canvas.centerOn(scene)
        qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(scene))
        if window.session.selection != {index}:
            wrong.append((index, sorted(window.session.selection)))
    assert wrong == []
