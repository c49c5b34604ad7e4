"""The window shows the visibility classes: a layer per class with its count, the clip path
of a selected clipped glyph."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pikepdf
import pytest

pytest.importorskip("pytestqt")

from tests.gui_helpers import open_file  # noqa: E402
from tests.pdfbuild import make_pdf, to_bytes  # noqa: E402

CONTENT = (
    b"BT /F1 18 Tf 72 720 Td (Visible heading) Tj ET "
    b"q 72 640 60 40 re W n BT /F1 18 Tf 72 650 Td (Clipped away text) Tj ET Q "
    b"q 1 g BT /F1 18 Tf 72 600 Td (White on white) Tj ET Q "
    b"q /G0 gs BT /F1 18 Tf 72 560 Td (Transparent) Tj ET Q "
    b"q BT /F1 18 Tf 3 Tr 72 520 Td (OCR layer) Tj ET Q "
    b"BT /F1 18 Tf 72 480 Td (Covered) Tj ET q 0.2 0.4 0.8 rg 70 470 120 30 re f Q"
)


@pytest.fixture
def hidden_pdf(tmp_path: Path) -> Path:
    pdf = make_pdf([CONTENT])
    pdf.pages[0].Resources.ExtGState = pikepdf.Dictionary(G0=pikepdf.Dictionary(ca=0))
    path = tmp_path / "hidden.pdf"
    path.write_bytes(to_bytes(pdf))
    return path


def test_visibility_layers_counted_and_the_clip_of_a_selected_glyph_drawn(
    qtbot: Any, window: Any, hidden_pdf: Path
):
    w = window
    w.resize(1280, 800)
    open_file(qtbot, w, hidden_pdf)
    facts = w.bundle.facts
    counts = facts.counts.layers(w.session.mode)
    assert {
        k: counts[k] for k in ("invisible_mode", "clipped", "transparent", "same_as_background", "covered")
    } == {
        "invisible_mode": 9,
        "clipped": 10,  # " away text"
        "transparent": 11,
        "same_as_background": 14,  # spaces inside the white run included
        "covered": 7,
    }
    canvas = w.canvas
    for key in ("clipped", "same_as_background", "covered", "transparent"):
        assert w.session.layers.get(key)  # on by default
        drawing = canvas.layer_items[key].drawing
        assert drawing is not None and drawing.parts and drawing.markers
    marker = canvas.layer_items["clipped"].drawing.markers[0]
    assert "clipped by the path set at instruction 7 (W)" in marker.text
    # selecting a clipped glyph draws its clip path; a visible one draws none
    clipped = next(i for i in range(len(facts.page.glyphs)) if facts.fates.visibility_of(i) == "clipped")
    w.session.select({clipped}, "test")
    qtbot.wait(50)
    box = canvas.selection_item.clip.boundingRect()
    assert (box.left(), box.top(), box.right(), box.bottom()) == (72.0, 640.0, 132.0, 680.0)  # user space
    if os.environ.get("GLYPHSCOPE_SCREENSHOTS"):
        w.grab().save(os.environ["GLYPHSCOPE_SCREENSHOTS"])
    w.session.select({0}, "test")
    qtbot.wait(20)
    assert canvas.selection_item.clip.isEmpty()
