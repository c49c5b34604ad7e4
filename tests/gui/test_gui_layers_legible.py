"""The window's side of "nothing drawn hides the letters": brushes, painted labels, the Layers counts.

The shapes themselves are checked Qt-free in test_layer_registry.py; here the Qt code
that paints them: no brush but a sparse hatch, labels painted beside (never on) the glyph
they name, and every count of the Layers panel shown in full at 1280×800 and 1600×1000.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QTransform

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES
from glyphscope.core.document import open_document
from glyphscope.inspector.gui import overlays as O
from glyphscope.inspector.gui.visibility_layers import CLIP_STYLE
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.layers.shapes import quad_rect
from glyphscope.inspector.views.page_facts import PageFacts
from tests.conftest import DEMO, corpus_file
from tests.gui_helpers import open_file

REPO = Path(__file__).resolve().parents[2]


def _facts(path: Path, page: int) -> PageFacts:
    facts = PageFacts(analyze_page(open_document(path), page))
    for mode in MODES:
        facts.modes.view(mode)
    return facts


@pytest.mark.parametrize(
    "path, page",
    [
        (DEMO, 2),
        (DEMO, 11),
        ("pdfplumber__nics-background-checks-2015-11.pdf", 1),
        ("pdfjs__issue6127.pdf", 1),
    ],
)
def test_no_layer_paints_with_a_solid_brush(qapp: Any, path: Any, page: int) -> None:
    """Every style a layer uses paints with no brush or Qt's sparse hatch pattern; so do the
    selection (find hits are selections), the hover and the clip path of a selected glyph."""
    facts = _facts(path if isinstance(path, Path) else corpus_file(path), page)
    styles = {O.SELECTION_STYLE, O.HOVER_STYLE, CLIP_STYLE}
    overlays = O.build_overlays(facts, "plain")
    for key in L.LAYER_KEYS:
        drawing = overlays.layer(key, "plain")
        if drawing is not None:
            styles.update(part.style for part in drawing.parts)
    brushes = {style: O.pen_brush(style)[1].style() for style in styles}
    assert len(brushes) > 10
    allowed = {Qt.BrushStyle.NoBrush, Qt.BrushStyle.BDiagPattern}
    assert {s.colour: b for s, b in brushes.items() if b not in allowed} == {}
    for style, brush in brushes.items():
        if brush is Qt.BrushStyle.BDiagPattern:
            assert style.hatch and O.pen_brush(style)[1].color().alpha() <= 140


def _paint(facts: PageFacts, key: str, zoom: float) -> tuple[QImage, QTransform]:
    x0, y0, x1, y1 = facts.page.boxes.media_box
    transform = QTransform(zoom, 0, 0, -zoom, -x0 * zoom, y1 * zoom)  # user space (y up) → pixels
    image = QImage(int((x1 - x0) * zoom), int((y1 - y0) * zoom), QImage.Format.Format_ARGB32)
    image.fill(QColor("white"))
    drawing = O.build_overlays(facts, "plain").layer(key, "plain")
    assert drawing is not None
    painter = QPainter(image)
    O.paint_labels(painter, drawing.labels, transform, QRectF(image.rect()))
    painter.end()
    return image, transform


def _ink_inside(image: QImage, box: QRectF) -> int:
    inside = box.adjusted(1, 1, -1, -1).toAlignedRect().intersected(image.rect())
    white = QColor("white").rgb()
    return sum(
        image.pixel(x, y) != white
        for x in range(inside.left(), inside.right() + 1)
        for y in range(inside.top(), inside.bottom() + 1)
    )


@pytest.mark.parametrize("zoom", [1.0, 2.0])
def test_reading_order_numbers_are_painted_left_of_their_line(qapp: Any, zoom: float) -> None:
    """The numbers (on their white boxes) leave the first glyph of every line untouched."""
    facts = _facts(DEMO, 1)
    image, transform = _paint(facts, "reading_order", zoom)
    glyphs = facts.page.glyphs
    lines = [line for line in facts.modes.view("plain").lines() if line]
    assert len(lines) > 5
    drawn = 0
    for line in lines:
        x0, y0, x1, y1 = quad_rect(glyphs[line[0]].quad)
        box = transform.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
        assert _ink_inside(image, box) == 0, "".join(glyphs[i].text for i in line[:20])
        left = QRectF(box.left() - 40, box.top(), 40, box.height())
        drawn += _ink_inside(image, left) > 0
    assert drawn >= len(lines) // 2  # and the numbers are there, beside


def test_mcid_labels_are_painted_above_their_glyph(qapp: Any) -> None:
    facts = _facts(DEMO, 11)
    image, transform = _paint(facts, "structure_order", 2.0)
    glyphs = facts.page.glyphs
    firsts: dict[int, int] = {}
    for g in facts.classified.visible:
        if g.mcid is not None:
            firsts.setdefault(g.mcid, g.paint_index)
    assert len(firsts) >= 3
    for i in firsts.values():
        x0, y0, x1, y1 = quad_rect(glyphs[i].quad)
        box = transform.mapRect(QRectF(QPointF(x0, y0), QPointF(x1, y1)))
        assert _ink_inside(image, box) == 0
        assert _ink_inside(image, QRectF(box.left(), box.top() - 14, box.width(), 12)) > 0


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_every_layer_count_shows_in_full(
    qtbot: Any, window: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    """A 20,000-glyph page after the demo (whose counts have 3 digits at most) at 1280×800 and
    1600×1000: each count label is wide enough for its text (font metrics), and shown in full."""
    sys.path.insert(0, str(REPO))
    from benchmarks.bench_page_switch import dense_pdf
    from glyphscope.inspector.gui.legend import COUNT_MIN_WIDTH

    path = tmp_path / "dense.pdf"
    dense_pdf(path, 20000, pages=1)
    w = window
    w.resize(*size)
    w.docks.default_sizes()
    open_file(qtbot, w, DEMO)  # the column is sized for the demo's counts (3 digits at most)
    open_file(qtbot, w, path)
    qtbot.wait(50)
    legend = w.legend
    assert legend.count("glyphs") == 20000 and legend.count("word_gaps") > 10000
    for key, label in legend.counts.items():
        text = label.text()
        room = label.contentsRect().width()
        assert label.fontMetrics().horizontalAdvance(text) <= room, (key, text, room)
        assert label.visibleRegion().boundingRect().width() >= label.fontMetrics().horizontalAdvance(text), (
            key
        )
    widths = {key: label.minimumWidth() for key, label in legend.counts.items()}
    assert widths["glyphs"] > COUNT_MIN_WIDTH and widths["page_boxes"] == COUNT_MIN_WIDTH  # "20000", "1"
