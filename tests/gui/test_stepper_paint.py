"""The stepper's paint state (colours, alpha, blend mode, overprint, ExtGState) and its keys before
its tab was ever opened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.core.trace import PageTrace, TraceColour, trace_page
from glyphscope.inspector.views.stepper import colour_rgb, format_value
from tests.pdfbuild import make_pdf, to_bytes

PAGE = (
    b"1 0 0 rg 0 0 1 RG\n"
    b"q /GS1 gs /CS0 cs 0.2 0.4 0.6 sc\n"
    b"BT /F1 12 Tf 72 700 Td (Hi) Tj ET\n"
    b"Q\n"
    b"0 0 0 1 k /Fm1 Do\n"
    b"BT /F1 12 Tf 72 600 Td (z) Tj ET\n"
)
FORM = b"0.5 g /GS2 gs BT /F1 10 Tf 5 5 Td (f) Tj ET"


def paint_pdf() -> bytes:
    pdf = make_pdf([PAGE])
    res = pdf.pages[0].Resources
    res.ExtGState = pikepdf.Dictionary(
        GS1=pikepdf.Dictionary(ca=0.5, CA=0.25, BM=pikepdf.Name.Multiply, OP=True, OPM=1),
        GS2=pikepdf.Dictionary(BM=pikepdf.Array([pikepdf.Name.Screen, pikepdf.Name.Normal]), op=False),
    )
    res.ColorSpace = pikepdf.Dictionary(CS0=pikepdf.Array([pikepdf.Name.CalRGB, pikepdf.Dictionary()]))
    form = pdf.make_stream(FORM)
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 100, 100]
    form.Resources = res
    res.XObject = pikepdf.Dictionary(Fm1=form)
    return to_bytes(pdf)


@pytest.fixture(scope="module")
def trace() -> PageTrace:
    return trace_page(open_document(paint_pdf()), 1)


def painting(trace: PageTrace, paint_index: int) -> Any:
    return trace.steps[trace.glyph_step[paint_index]].before


def test_colours_and_ext_gstate_at_each_painting_step(trace: PageTrace) -> None:
    hi = painting(trace, 0)
    assert hi.paint.fill == TraceColour("CS0", "rgb", (0.2, 0.4, 0.6))
    assert hi.paint.stroke == TraceColour("DeviceRGB", "rgb", (0.0, 0.0, 1.0))
    assert (hi.paint.fill_alpha, hi.paint.stroke_alpha, hi.paint.blend_mode) == (0.5, 0.25, "Multiply")
    assert (hi.paint.overprint_fill, hi.paint.overprint_stroke, hi.paint.overprint_mode) == (True, True, 1)
    assert hi.paint.ext_gstates == ("GS1",)
    assert format_value(hi, "paint.fill") == "CS0 (rgb) 0.2 0.4 0.6"
    assert format_value(hi, "paint.stroke") == "DeviceRGB 0 0 1"
    assert colour_rgb(hi.paint.fill) == (0.2, 0.4, 0.6)
    # Inside the form: the caller's state (cmyk fill, blue stroke), then its own g and gs.
    form = painting(trace, 2)
    assert form.paint.fill == TraceColour("DeviceGray", "gray", (0.5,))
    assert form.paint.stroke.components == (0.0, 0.0, 1.0)
    assert (form.paint.blend_mode, form.paint.overprint_fill, form.paint.ext_gstates) == (
        "Screen",
        False,
        ("GS2",),
    )
    # Q restored what q saved; the form's gs and g did not leak out of it.
    z = painting(trace, 3)
    assert z.paint.fill == TraceColour("DeviceCMYK", "cmyk", (0.0, 0.0, 0.0, 1.0))
    assert colour_rgb(z.paint.fill) == (0.0, 0.0, 0.0)
    assert (z.paint.fill_alpha, z.paint.blend_mode, z.paint.overprint_stroke, z.paint.ext_gstates) == (
        1.0,
        "Normal",
        False,
        (),
    )


def test_ctrl_f10_works_before_the_tab_was_opened(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from tests.gui_helpers import open_file

    path = tmp_path / "paint.pdf"
    path.write_bytes(paint_pdf())
    open_file(qtbot, window, path)
    panel = window.stepper_panel
    assert panel.stepper.trace is None and not panel.isVisible()  # closed (Tools): never traced
    window.session.select([1], "test")
    messages: list[str] = []
    window.session.events.status.connect(messages.append)
    qtbot.keyClick(window, Qt.Key.Key_F10, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: panel.stepper.step is not None, timeout=30_000)
    step = panel.stepper.step
    assert step.operator == "Tj" and 1 in step.painted
    assert panel.in_front()
    text = panel.state.toPlainText()
    assert "CS0 (rgb) 0.2 0.4 0.6" in text and "DeviceRGB 0 0 1" in text and "Multiply" in text
    assert "GS1" in text and not any("not in the trace" in m for m in messages)
