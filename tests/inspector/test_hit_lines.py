"""Hit testing: a click selects the glyph of the line under the pointer, never a tall box of another line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from glyphscope.core.document import open_document
from glyphscope.inspector.views.spatial import GlyphHitIndex
from tests.pdfbuild import make_pdf, to_bytes

# An 80 pt "l" squeezed narrow (Tz 10) whose box reaches 16 pt below its baseline, over a 12 pt line
# of wide glyphs (Tz 200) 14 pt lower. Below, an 80 pt "Wg" over a 12 pt line whose TJ leaves a
# gap of 4.8 pt between "c" and "d" (no space glyph).
PAGE = (
    b"BT /F1 80 Tf 10 Tz 100 700 Td (l) Tj ET\n"
    b"BT /F1 12 Tf 200 Tz 90 686 Td (W) Tj ET\n"
    b"BT /F1 80 Tf 100 Tz 72 640 Td (Wg) Tj ET\n"
    b"BT /F1 12 Tf 72 626 Td [(abc) -400 (def)] TJ ET\n"
)
SMALL_W = (100.9, 689.0)  # inside the small W and inside the tall l above it
GAP = (93.744, 629.0)  # between "c" and "d", inside the tall "W" above


def hit_pdf() -> bytes:
    return to_bytes(make_pdf([PAGE]))


@pytest.fixture(scope="module")
def glyphs() -> Any:
    return open_document(hit_pdf()).interpret(1).glyphs


def test_the_line_under_the_pointer_wins_over_a_smaller_tall_box(glyphs: Any) -> None:
    texts = [(g.text, g.font_size) for g in glyphs]
    assert texts[:2] == [("l", 80.0), ("W", 12.0)]
    tall = glyphs[0].quad
    assert tall[0][1] < SMALL_W[1] < tall[3][1]  # the tall box covers the small line
    for index in (GlyphHitIndex.of_glyphs(glyphs), GlyphHitIndex([g.quad for g in glyphs])):
        assert index.hit(SMALL_W) == 1
        assert index.hit(SMALL_W, radius=3.0) == 1
        assert index.hit((100.9, 740.0)) == 0  # on the tall glyph's own line: the tall glyph


def test_a_word_gap_under_a_tall_box_selects_the_nearest_glyph_of_its_line(glyphs: Any) -> None:
    c = next(i for i, g in enumerate(glyphs) if g.text == "c")
    assert glyphs[c + 1].text == "d" and glyphs[c + 1].quad[0][0] - glyphs[c].quad[1][0] == pytest.approx(4.8)
    index = GlyphHitIndex.of_glyphs(glyphs)
    assert index.hit(GAP) == 2  # no radius: only the tall box contains it
    found = index.hit(GAP, radius=3.0)
    assert found == c  # the two neighbours lie on one line: the smaller box ("c")


def test_a_click_on_the_canvas_selects_the_small_glyph(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import QPointF, Qt

    from tests.gui_helpers import open_file

    path = tmp_path / "hit.pdf"
    path.write_bytes(hit_pdf())
    open_file(qtbot, window, path)
    canvas = window.canvas
    canvas.set_zoom(4.0)
    scene = canvas.page_to_scene.map(QPointF(*SMALL_W))
    canvas.centerOn(scene)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(scene))
    assert window.session.selection == {1}
    glyph = window.bundle.analysis.page.glyphs[1]
    assert (glyph.text, glyph.font_size) == ("W", 12.0)
