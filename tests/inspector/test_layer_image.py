"""The layers drawn without Qt (inspector/layers/painter.py): the registry's shapes on a Pillow image."""

from __future__ import annotations

from PIL import Image, ImageChops

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.document import open_document
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.layers.painter import draw_layers, draw_shapes
from glyphscope.inspector.layers.shapes import HATCH_SPACING_PX, ShapeBuilder, Style, quad_rect
from glyphscope.inspector.render.renderer import frame_boxes, media_display_size, page_matrix
from glyphscope.inspector.views.page_facts import PageFacts
from tests.conftest import DEMO

SCALE = 2.0


def _page(page: int) -> tuple[PageFacts, Image.Image, tuple[float, ...]]:
    facts = PageFacts(analyze_page(open_document(DEMO), page))
    for mode in MODES:
        facts.modes.view(mode)
    frame = frame_boxes(facts.page.boxes)
    w, h = media_display_size(frame, SCALE)
    return facts, Image.new("RGB", (round(w), round(h)), "white"), page_matrix(frame, SCALE)


def _box(matrix: tuple[float, ...], r: tuple[float, float, float, float]) -> tuple[int, int, int, int]:
    a, b, c, d, e, f = matrix
    xs = [a * x + c * y + e for x, y in ((r[0], r[1]), (r[2], r[3]))]
    ys = [b * x + d * y + f for x, y in ((r[0], r[1]), (r[2], r[3]))]
    return (round(min(xs)), round(min(ys)), round(max(xs)), round(max(ys)))


def _coloured(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    region = image.crop(box).convert("RGB")
    diff = ImageChops.difference(region, Image.new("RGB", region.size, "white")).convert("L")
    return diff.point(lambda v: 255 if v else 0).histogram()[255]


def test_every_layer_the_page_has_is_drawn_and_glyph_outlines_leave_the_letters_white() -> None:
    facts, image, matrix = _page(1)
    drawn = draw_layers(
        image, facts, ["glyphs", "reading_order", "compare", L.INK_DISAGREES], "plain", matrix
    )
    assert drawn == ["glyphs", "reading_order"]  # not compared, not verified: nothing to draw
    glyphs = facts.page.glyphs
    outlined = 0
    for line in facts.modes.view("plain").lines()[:20]:
        x0, y0, x1, y1 = _box(matrix, quad_rect(glyphs[line[0]].quad))
        if x1 - x0 < 6 or y1 - y0 < 6:
            continue
        assert _coloured(image, (x0 + 2, y0 + 2, x1 - 2, y1 - 2)) == 0  # inside the outline: untouched
        assert _coloured(image, (x0 - 1, y0 - 1, x1 + 2, y1 + 2)) > 0  # the outline itself
        assert _coloured(image, (x0 - 30, y0, x0 - 2, y1)) > 0  # the line's number, left of it
        outlined += 1
    assert outlined >= 5


def test_hatching_is_sparse_diagonal_lines() -> None:
    image = Image.new("RGB", (200, 200), "white")
    b = ShapeBuilder("test", (0.0, 0.0, 100.0, 100.0))
    b.rect(Style("#0277bd", 1.0, hatch=True, line_alpha=0), (10.0, 10.0, 90.0, 90.0))
    draw_shapes(image, b.finish(), (2.0, 0.0, 0.0, -2.0, 0.0, 200.0))
    inside = (30, 30, 170, 170)
    share = _coloured(image, inside) / (140 * 140)
    assert 0.5 / HATCH_SPACING_PX < share < 2.0 / HATCH_SPACING_PX  # one pixel in eight, about
    assert _coloured(image, (0, 0, 18, 200)) == 0  # nothing outside the region


def test_a_label_that_would_overprint_one_drawn_is_left_out() -> None:
    from glyphscope.inspector.layers.shapes import LabelSpace

    space = LabelSpace()
    assert space.claim((10.0, 10.0, 110.0, 24.0))
    # Overlapping by 1 px in x and in y (the form widgets' labels at Fit page overlapped so): refused.
    assert not space.claim((109.0, 23.0, 200.0, 37.0))
    # Touching edges share no pixel: drawn, as is a box on the far side of a bucket line.
    assert space.claim((110.0, 10.0, 200.0, 24.0))
    assert space.claim((10.0, 24.0, 110.0, 38.0))
    assert space.claim((500.0, 500.0, 640.0, 514.0))
    # A box spanning several buckets still finds the one it overlaps (bucket 64 px).
    assert not space.claim((0.0, 0.0, 700.0, 11.0))
    refused = [space.claim((60.0 + k, 30.0, 70.0 + k, 31.0)) for k in range(3)]
    assert refused == [False, False, False]  # inside the second box drawn


def test_a_label_goes_beside_its_box_where_it_covers_no_letters() -> None:
    from glyphscope.inspector.layers.shapes import Label, LabelSpace, Place, label_boxes
    from glyphscope.inspector.views.spatial import GridIndex

    named = (100.0, 100.0, 200.0, 120.0)  # screen pixels; the text 50 px wide, ascent 9, descent 3
    above = Label((0.0, 0.0, 1.0, 1.0), "Widget", "#000")
    # Above, 2 px off the box with 2×1 px of padding; else below, 2 px under it.
    assert label_boxes(above, named, 50.0, 9.0, 3.0) == [
        (98.0, 84.0, 152.0, 98.0),
        (98.0, 122.0, 152.0, 136.0),
    ]
    left = Label((0.0, 0.0, 1.0, 1.0), "12", "#000", place=Place.LEFT)
    assert label_boxes(left, named, 50.0, 9.0, 3.0) == [
        (44.0, 103.0, 98.0, 117.0),
        (202.0, 103.0, 256.0, 117.0),
    ]

    letters = GridIndex([(90.0, 80.0, 160.0, 99.0)])  # a line of text right above the box
    space = LabelSpace()
    assert space.place(above, named, 50.0, 9.0, 3.0, letters.meets) == (98.0, 122.0, 152.0, 136.0)
    # A second label of the same box: above covers the letters, below the first label.
    assert space.place(above, named, 50.0, 9.0, 3.0, letters.meets) is None
    assert space.taken == [(98.0, 122.0, 152.0, 136.0)]
    # Without letters to avoid, the preferred side.
    assert LabelSpace().place(above, named, 50.0, 9.0, 3.0) == (98.0, 84.0, 152.0, 98.0)


def test_the_glyph_grid_says_whether_a_rectangle_meets_a_box() -> None:
    from glyphscope.inspector.views.spatial import GridIndex

    grid = GridIndex([(0.0, 0.0, 10.0, 10.0), (100.0, 100.0, 110.0, 104.0)], cell=8.0)
    assert grid.meets((9.0, 9.0, 20.0, 20.0))
    assert not grid.meets((10.0, 0.0, 20.0, 10.0))  # touching an edge is not covering
    assert not grid.meets((20.0, 20.0, 99.0, 99.0))
    assert grid.meets((105.0, 103.0, 106.0, 200.0))
    assert grid.meets((-1e6, -1e6, 1e6, 1e6))  # wider than the grid: every box checked once
    assert not grid.meets((float("nan"), 0.0, 1.0, 1.0))


def test_the_ink_test_takes_a_screen_box_back_to_the_page() -> None:
    from glyphscope.inspector.layers.shapes import ink_test
    from glyphscope.inspector.views.spatial import GridIndex

    glyphs = GridIndex([(10.0, 10.0, 12.0, 14.0)])  # one glyph box, user space
    covers = ink_test(glyphs, lambda x, y: (x / 4, y / 4))  # 400 %: 4 screen px a point
    assert covers is not None
    assert covers((44.0, 44.0, 60.0, 60.0))  # page (11, 11)-(15, 15): on the glyph
    assert not covers((48.0, 0.0, 80.0, 40.0))  # page (12, 0)-(20, 10): touches its corner only
    assert ink_test(None, lambda x, y: (x, y)) is None
