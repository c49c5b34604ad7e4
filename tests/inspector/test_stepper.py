"""The content-stream stepper: core/trace.py, inspector/views/stepper.py and the Stepper panel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.core.trace import trace_page
from glyphscope.inspector.views.stepper import Stepper, format_value
from tests.pdfbuild import helvetica, make_pdf, to_bytes

PAGE = (
    b"q 1 0 0 1 20 30 cm\n"
    b"10 10 200 100 re W n\n"
    b"/P <</MCID 3>> BDC\n"
    b"BT /F1 12 Tf 0.5 Tc 90 Tz 2 Ts 100 700 Td (Hi) Tj 14 TL T* /F2 9 Tf (yo) Tj ET\n"
    b"EMC\n"
    b"Q\n"
    b"/Fm1 Do\n"
    b"BT /F1 10 Tf 50 50 Td [(A) -500 (B)] TJ ET\n"
)
FORM = b"BT /F1 8 Tf 1 0 0 1 5 5 Tm (form) Tj ET"


def stepper_pdf() -> bytes:
    pdf = pikepdf.new()

    def form(p: pikepdf.Pdf) -> Any:
        stream = p.make_stream(FORM)
        stream.Type = pikepdf.Name.XObject
        stream.Subtype = pikepdf.Name.Form
        stream.BBox = [0, 0, 200, 200]
        stream.Matrix = [2, 0, 0, 2, 300, 300]
        return stream

    make_pdf(
        [PAGE],
        {"/F1": helvetica, "/F2": lambda p: helvetica(p, "/Courier")},
        xobjects={"/Fm1": form},
        pdf=pdf,
    )
    return to_bytes(pdf)


@pytest.fixture(scope="module")
def traced() -> tuple[Any, Any]:
    doc = open_document(stepper_pdf())
    return doc.interpret(1), trace_page(doc, 1)


def test_trace_covers_page_and_form_in_execution_order(traced: tuple[Any, Any]) -> None:
    page, trace = traced
    assert trace.glyph_count == len(page.glyphs) == len("Hiyo") + len("form") + len("AB")
    ops = [s.operator for s in trace.steps]
    do = ops.index("Do")
    # The form's own instructions follow its Do, one level deeper, with the form path.
    inner = trace.steps[do + 1 : do + 6]
    assert [s.operator for s in inner] == ["BT", "Tf", "Tm", "Tj", "ET"]
    assert all(s.form_path == ("/Fm1",) and s.depth == 1 for s in inner)
    assert all(s.page_token == trace.steps[do].stream_index for s in inner)
    assert trace.steps[do + 6].form_path == () and trace.steps[do + 6].operator == "BT"
    assert trace.steps[do].painted == range(4, 8)


def test_the_stepper_names_the_frame_that_painted_a_glyph(traced: tuple[Any, Any]) -> None:
    page, trace = traced
    stepper = Stepper()
    stepper.load(trace)
    frames = {g.unicode: stepper.frame_of(g.paint_index) for g in page.glyphs}
    assert frames["H"] == frames["B"] == "page"
    assert frames["f"] == "form /Fm1, use 0"  # the form's child frame, by its path and use
    assert stepper.frame_of(len(page.glyphs)) == ""


def test_state_at_the_painting_step_equals_the_glyph_record(traced: tuple[Any, Any]) -> None:
    page, trace = traced
    for g in page.glyphs:
        step = trace.steps[trace.glyph_step[g.paint_index]]
        assert step.operator in ("Tj", "TJ", "'", '"')
        assert g.paint_index in step.painted
        s = step.before
        assert (s.font_key, s.font_size) == (g.font_key, g.font_size)
        assert (s.char_spacing, s.word_spacing, s.horizontal_scaling, s.rise, s.render_mode) == (
            g.char_spacing,
            g.word_spacing,
            g.horizontal_scaling,
            g.rise,
            g.render_mode,
        )
        if g.paint_index == step.glyphs_before:  # the first glyph of a string starts at Tm × CTM
            assert s.text_rendering_origin == pytest.approx(g.origin)
    first = page.glyphs[0]
    s = trace.steps[trace.glyph_step[0]].before
    assert s.ctm == (1.0, 0.0, 0.0, 1.0, 20.0, 30.0)
    assert s.tm == (1.0, 0.0, 0.0, 1.0, 100.0, 700.0)
    assert first.origin == pytest.approx((120.0, 732.0))  # Ts 2 raises it
    form_glyph = page.glyphs[4]
    fs = trace.steps[trace.glyph_step[4]].before
    assert fs.ctm == (2.0, 0.0, 0.0, 2.0, 300.0, 300.0) and fs.font_size == 8.0
    assert form_glyph.origin == pytest.approx((310.0, 310.0))


def test_clip_marked_content_and_stack(traced: tuple[Any, Any]) -> None:
    _, trace = traced
    tj = trace.steps[trace.glyph_step[0]].before
    assert tj.clip == pytest.approx((30.0, 40.0, 230.0, 140.0))  # re through the cm, W n
    w_index = next(s.stream_index for s in trace.steps if s.operator == "W")
    assert tj.clip_source == f"W at instruction {w_index}"
    assert format_value(tj, "clip") == f"[30 40 230 140] (bounding box), set by W at instruction {w_index}"
    assert tj.marked == (("/P", 3),)
    assert tj.stack_depth == 1 and tj.in_text
    assert tj.leading == 0.0
    yo = trace.steps[trace.glyph_step[2]].before
    assert (yo.font_key, yo.font_size, yo.leading) == ("/F2", 9.0, 14.0)
    # T* moved the line by -TL: Tlm's translation went down 14.
    assert yo.tlm[5] == pytest.approx(686.0)
    last = trace.steps[trace.glyph_step[-1]].before
    assert last.clip is None and last.marked == () and last.stack_depth == 0  # Q restored the clip


def test_state_after_is_what_the_operator_changed(traced: tuple[Any, Any]) -> None:
    _, trace = traced
    k = next(s.index for s in trace.steps if s.operator == "Tf")
    assert trace.steps[k].before.font_key == ""
    assert trace.after(k).font_key == "/F1" and trace.after(k).font_size == 12.0
    do = next(s.index for s in trace.steps if s.operator == "Do")
    assert trace.after(do).ctm == trace.steps[do].before.ctm  # the form's cm does not leak


def test_stepping_back_restores_the_previous_state(traced: tuple[Any, Any]) -> None:
    _, trace = traced
    stepper = Stepper()
    seen: list[int] = []
    stepper.changed.connect(lambda s: seen.append(s.current))
    stepper.load(trace)
    assert stepper.current == -1 and stepper.painted == 0
    states = []
    for _ in range(len(trace.steps)):
        stepper.forward()
        states.append((stepper.current, stepper.painted, stepper.state_rows()))
    assert stepper.painted == trace.glyph_count
    for k in range(len(trace.steps) - 1, 0, -1):
        stepper.back()
        assert (stepper.current, stepper.painted, stepper.state_rows()) == states[k - 1]
    stepper.back()
    assert stepper.current == -1 and stepper.painted == 0 and stepper.state_rows() == []
    assert seen[0] == -1 and len(seen) == 1 + 2 * len(trace.steps)


def test_breakpoints_on_an_operator_a_step_and_a_glyph(traced: tuple[Any, Any]) -> None:
    page, trace = traced
    stepper = Stepper()
    stepper.load(trace)
    stepper.set_operator_breaks(["Tf"])
    tfs = [s.index for s in trace.steps if s.operator == "Tf"]
    assert stepper.run_forward() and stepper.current == tfs[0]
    assert stepper.breaks_at(tfs[0]) == ["breakpoint on every Tf"]
    assert stepper.run_forward() and stepper.current == tfs[1]
    stepper.set_operator_breaks([])
    # A glyph breakpoint stops at the instruction that paints it: "B" of the last TJ.
    b = next(g.paint_index for g in page.glyphs if g.unicode == "B")
    stepper.toggle_glyph_break(b)
    assert stepper.run_forward()
    assert stepper.step is not None and stepper.step.operator == "TJ" and b in stepper.current_glyphs
    assert stepper.breaks_at(stepper.current) == [f"breakpoint on glyph #{b}"]
    # A breakpoint on one instruction, reached backwards.
    stepper.toggle_step_break(2)
    assert stepper.run_back() and stepper.current == 2
    assert not stepper.run_back() and stepper.current == -1
    stepper.to_end()
    assert not stepper.run_forward() and stepper.current == len(trace.steps) - 1


def test_a_broken_page_traces_what_ran() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 10 10 Td (ok) Tj /F9 12 Tf (lost) Tj 1 2 Td Tj ET"])
    doc = open_document(to_bytes(pdf))
    trace = trace_page(doc, 1)
    assert trace.glyph_count == len(doc.interpret(1).glyphs) == 2
    assert [s.operator for s in trace.steps][-2:] == ["Tj", "ET"]
    assert trace.steps[-2].glyphs_after == trace.steps[-2].glyphs_before  # malformed Tj: nothing


# -- the panel --------------------------------------------------------------------------------


def _open(qtbot: Any, window: Any, tmp_path: Path, data: bytes) -> Any:
    from tests.gui_helpers import open_file

    path = tmp_path / "stepper.pdf"
    path.write_bytes(data)
    open_file(qtbot, window, path)
    dock = window.panels["stepper"]
    dock.show()
    dock.raise_()
    panel = window.stepper_panel
    qtbot.waitUntil(lambda: panel.stepper.trace is not None, timeout=30_000)
    return panel


def test_panel_steps_with_keys_and_draws_on_the_canvas(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    panel = _open(qtbot, window, tmp_path, stepper_pdf())
    stepper = panel.stepper
    assert stepper.page_number == 1 and panel.model.rowCount() == len(stepper.trace.steps)
    qtbot.keyClick(window, Qt.Key.Key_F10)
    assert stepper.current == 0
    qtbot.keyClick(window, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    assert stepper.current == -1
    # Go to the instruction that painted a selected glyph: the state table shows its state.
    window.session.select([5], "test")
    panel.go_to_selected_glyph()
    assert stepper.step is not None and stepper.step.operator == "Tj" and stepper.step.form_path == ("/Fm1",)
    html = panel.state.toPlainText()
    assert "[2 0 0 2 300 300]" in html and "/F1" in html and "8" in html
    assert "form" in html  # the glyphs it paints, as text
    assert panel.table.currentIndex().row() == stepper.current
    # The canvas layer follows the stepper and paints without error.
    item = window.canvas.step_item
    assert item.shown_glyphs() is not None
    window.canvas.viewport().grab()
    # A breakpoint on an operator typed in the field stops there with F5.
    panel.operator_edit.setText("TJ")
    panel.operator_edit.editingFinished.emit()  # as Enter or leaving the field does
    stepper.to_start()
    qtbot.keyClick(window, Qt.Key.Key_F5)
    assert stepper.step is not None and stepper.step.operator == "TJ"
    assert "Stopped: breakpoint on every TJ" in panel.state.toPlainText()


def dense_page(lines: int = 250, per_line: int = 80) -> bytes:
    """`lines` Tj of `per_line` glyphs each: lines × per_line glyphs."""
    body = [b"BT /F1 6 Tf 8 TL 10 780 Td"]
    text = (b"abcdefghij" * (per_line // 10 + 1))[:per_line]
    for _ in range(lines):
        body.append(b"(" + text + b") Tj T*")
    body.append(b"ET")
    return to_bytes(make_pdf([b"\n".join(body)], media_box=[0, 0, 612, 2100]))


def test_one_step_repaints_one_line_of_a_dense_page(qtbot: Any, window: Any, tmp_path: Path) -> None:
    from PySide6.QtWidgets import QApplication

    panel = _open(qtbot, window, tmp_path, dense_page())
    stepper = panel.stepper
    assert stepper.trace.glyph_count == 20_000
    stepper.go(len(stepper.trace.steps) // 2)
    window.canvas.viewport().repaint()
    for _ in range(20):
        stepper.forward()  # the panel updates synchronously
        QApplication.processEvents()  # the canvas repaints what the step changed
    # A step repaints the glyphs it changed, not the page: one line of a 250-line page. (Its
    # time, ≤ 50 ms, is measured by benchmarks/bench_page_switch.py, not asserted here.)
    item = window.canvas.step_item
    marks = item.marks()
    assert marks is not None and marks[0] == stepper.painted and len(marks[1]) == 80
