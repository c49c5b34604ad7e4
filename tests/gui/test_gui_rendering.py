"""The user-space → pixel mapping shared by the canvas and the headless renderer."""

from __future__ import annotations

import io

import pytest

from glyphscope.core.page import PageBoxes
from glyphscope.inspector.gui.rendering import media_display_size, page_matrix
from tests.conftest import corpus_file

BOX = (0.0, 0.0, 200.0, 100.0)


def boxes(rotate: int, media=BOX) -> PageBoxes:
    return PageBoxes(media, media, media, rotate)


def apply(m, x, y):
    a, b, c, d, e, f = m
    return (round(a * x + c * y + e, 6), round(b * x + d * y + f, 6))


@pytest.mark.parametrize(
    "rotate, size, top_left_user",
    [
        (0, (200, 100), (0, 100)),
        (90, (100, 200), (0, 0)),
        (180, (200, 100), (200, 0)),
        (270, (100, 200), (200, 100)),
    ],
)
def test_page_matrix_rotates_clockwise_like_viewers(rotate, size, top_left_user) -> None:
    b = boxes(rotate)
    assert media_display_size(b) == size
    m = page_matrix(b, 1.0)
    # The user-space corner that ends up at the displayed top-left pixel:
    assert apply(m, *top_left_user) == (0.0, 0.0)
    # Every MediaBox corner lands on a corner of the displayed image.
    corners = {apply(m, x, y) for x in (0, 200) for y in (0, 100)}
    w, h = size
    assert corners == {(0, 0), (w, 0), (0, h), (w, h)}


def test_page_matrix_scales_and_honours_an_offset_mediabox() -> None:
    b = boxes(0, (50.0, 60.0, 250.0, 160.0))
    m = page_matrix(b, 2.0)
    assert apply(m, 50, 160) == (0.0, 0.0)
    assert apply(m, 250, 60) == (400.0, 200.0)


def test_headless_render_draws_the_whole_mediabox_with_layers(demo_pdf) -> None:
    from PIL import Image

    from glyphscope.core.document import open_document
    from glyphscope.inspector.layers.registry import LAYER_KEYS
    from glyphscope.inspector.render.layered import draw_page
    from glyphscope.inspector.report_html import resolve_layers

    doc = open_document(demo_pdf)
    try:
        drawn = draw_page(doc, 7, LAYER_KEYS, scale=1.0, palette=False)
        b = doc.page_boxes(7)
        w, h = media_display_size(b)
        assert (drawn.width, drawn.height) == (round(w), round(h))
        assert b.media_box != b.visible_box  # page 7 has a CropBox smaller than its MediaBox
        # Pixels outside the visible box were rendered (the slug line is there, not blank)
        image = Image.open(io.BytesIO(drawn.png)).convert("RGB")
        assert image.size == (drawn.width, drawn.height)
        assert image.getbbox() is not None
    finally:
        doc.close()
    assert resolve_layers(["glyphs", "bogus"], LAYER_KEYS) == ({"glyphs"}, ["bogus"])


def test_rotated_corpus_page_renders_in_display_orientation() -> None:
    path = corpus_file("pdfbox__PDFBOX-2984-rotations.pdf")
    from glyphscope.core.document import open_document
    from glyphscope.inspector.gui.rendering import QtPageRenderer

    doc = open_document(path)
    renderer = QtPageRenderer(path)
    try:
        for n in range(1, doc.page_count + 1):
            b = doc.page_boxes(n)
            image = renderer.render(n, b, 0.5)
            w, h = media_display_size(b, 0.5)
            assert abs(image.width() - w) <= 1 and abs(image.height() - h) <= 1, (n, b.rotate)
    finally:
        renderer.close()
        doc.close()
