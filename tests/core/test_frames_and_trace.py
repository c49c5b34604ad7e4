"""Forms run as child frames, and the stepper's trace follows the paint state by the interpreter's events."""

from __future__ import annotations

from typing import Any

import pikepdf

from glyphscope.core.document import open_document
from glyphscope.core.recorders import Recorder, VisibilityRecorder
from glyphscope.core.recorders.base import InterpreterView
from glyphscope.core.trace import BLACK, TraceColour, trace_page
from tests.pdfbuild import helvetica, make_pdf, to_bytes


def _nested_forms() -> bytes:
    """The page shows "P", draws /Outer (its own /F2 font, shows "O", draws /Inner showing "I")."""
    pdf = pikepdf.new()
    f2 = helvetica(pdf, "/Courier")
    inner = pdf.make_stream(b"BT /F1 10 Tf 1 1 Td (I) Tj ET")
    inner.Type, inner.Subtype, inner.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 50, 50]
    inner.Matrix = [1, 0, 0, 1, 5, 0]
    inner.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=helvetica(pdf)))
    outer = pdf.make_stream(b"BT /F2 10 Tf 0 0 Td (O) Tj ET /Inner Do")
    outer.Type, outer.Subtype, outer.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 100, 100]
    outer.Matrix = [2, 0, 0, 2, 100, 200]
    outer.Resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F2=f2), XObject=pikepdf.Dictionary(Inner=inner)
    )
    content = b"BT /F1 12 Tf 10 10 Td (P) Tj ET /Outer Do"
    return to_bytes(make_pdf([content], xobjects={"/Outer": outer}, pdf=pdf))


def test_a_glyph_from_a_form_names_its_frame() -> None:
    doc = open_document(_nested_forms())
    interp = doc.record_page(1, [])
    table = interp.glyph_table
    assert "".join(table.unicode) == "POI"
    runs = [table.runs[table.run_of()[i]] for i in range(3)]
    assert [r.form_use for r in runs] == [-1, 0, 1]
    outer, inner = interp.frames
    assert [interp.frames[r.form_use].form_path for r in runs[1:]] == [("/Outer",), ("/Outer", "/Inner")]
    # the child frames: parent, depth, own resources, the matrix form space → user space
    assert outer.parent is not None and outer.parent.parent is None and inner.parent is outer
    assert (outer.depth, inner.depth) == (1, 2)
    assert outer.matrix == (2.0, 0.0, 0.0, 2.0, 100.0, 200.0)
    assert inner.matrix == (2.0, 0.0, 0.0, 2.0, 110.0, 200.0)  # its /Matrix, then the outer form's
    assert outer.resources is not None and "/F2" in outer.resources.Font
    assert inner.resources is not None and "/F2" not in inner.resources.Font
    assert table[2].origin == (112.0, 202.0)  # 1 1 Td in the inner form's space
    # the page product says the same: each use's glyph count
    assert [(f.form_path, f.glyph_count) for f in doc.interpret(1).forms] == [
        (("/Outer",), 1),
        (("/Outer", "/Inner"), 1),
    ]


def test_the_trace_names_the_frame_of_each_step() -> None:
    doc = open_document(_nested_forms())
    trace = trace_page(doc, 1)
    by_glyph = [trace.steps[trace.glyph_step[i]] for i in range(trace.glyph_count)]
    assert [(s.form_path, s.form_use, s.depth) for s in by_glyph] == [
        ((), -1, 0),
        (("/Outer",), 0, 1),
        (("/Outer", "/Inner"), 1, 2),
    ]


class Colours(Recorder):
    """The colour events as heard, with the step the trace was at."""

    def __init__(self) -> None:
        self.heard: list[tuple[Any, ...]] = []

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp

    def colour_set(
        self, stroke: bool, space: str | None, family: str | None, components: tuple[float, ...], pattern: str
    ) -> None:
        self.heard.append((self.interp.stream_index, stroke, space, family, components, pattern))


def _colour_page() -> bytes:
    pdf = pikepdf.new()
    form = pdf.make_stream(b"0.25 g 1 0 0 RG BT /F1 9 Tf (f) Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 500, 500]
    content = (
        b"0 0 1 RG "  # 0: stroke blue
        b"q "  # 1
        b"/CS0 cs 0.2 0.4 0.6 sc "  # 2, 3: fill in a resource space
        b"0.5 G "  # 4: stroke grey
        b"BT /F1 12 Tf 10 10 Td (a) Tj ET "  # 5-9
        b"Q "  # 10: both colours back
        b"BT /F1 12 Tf 10 30 Td (b) Tj ET "  # 11-15
        b"/Fm Do "  # 16: the form's colours stay in the form
        b"0 0 0 1 K "  # 17
        b"BT /F1 12 Tf 10 50 Td (c) Tj ET"  # 18-22
    )
    doc = make_pdf([content], xobjects={"/Fm": form}, pdf=pdf)
    doc.pages[0].Resources.ColorSpace = pikepdf.Dictionary(CS0=pikepdf.Name.DeviceRGB)
    return to_bytes(doc)


def test_the_traces_colours_come_from_the_interpreters_events() -> None:
    doc = open_document(_colour_page())
    trace = trace_page(doc, 1)
    colours = Colours()
    doc.record_page(1, [colours])
    # what the interpreter emitted, fill and stroke, with the stream each came from
    assert [h[1:] for h in colours.heard] == [
        (True, "DeviceRGB", "rgb", (0.0, 0.0, 1.0), ""),
        (False, "CS0", "rgb", (0.0, 0.0, 0.0), ""),
        (False, None, None, (0.2, 0.4, 0.6), ""),
        (True, "DeviceGray", "gray", (0.5,), ""),
        (False, "DeviceGray", "gray", (0.25,), ""),  # in the form
        (True, "DeviceRGB", "rgb", (1.0, 0.0, 0.0), ""),
        (True, "DeviceCMYK", "cmyk", (0.0, 0.0, 0.0, 1.0), ""),
    ]
    paint = {g: trace.steps[trace.glyph_step[i]].before.paint for i, g in enumerate("abfc")}
    blue = TraceColour("DeviceRGB", "rgb", (0.0, 0.0, 1.0))
    assert (paint["a"].fill, paint["a"].stroke) == (
        TraceColour("CS0", "rgb", (0.2, 0.4, 0.6)),
        TraceColour("DeviceGray", "gray", (0.5,)),
    )
    assert (paint["b"].fill, paint["b"].stroke) == (BLACK, blue)  # Q restored both
    assert (paint["f"].fill, paint["f"].stroke) == (
        TraceColour("DeviceGray", "gray", (0.25,)),
        TraceColour("DeviceRGB", "rgb", (1.0, 0.0, 0.0)),
    )
    assert (paint["c"].fill, paint["c"].stroke) == (
        BLACK,
        TraceColour("DeviceCMYK", "cmyk", (0.0, 0.0, 0.0, 1.0)),
    )


def test_stroke_colour_operators_do_not_change_the_clip_the_page_reads() -> None:
    """The stroke operators run only in the traced run: a W before one still clips at its n."""
    content = b"0 0 100 100 re W 1 0 0 RG n BT /F1 12 Tf 200 200 Td (x) Tj ET"
    doc = open_document(to_bytes(make_pdf([content])))
    page = doc.interpret(1)
    traced = doc.record_page(1, [Colours()])
    visibility = next(r for r in traced.recorders if isinstance(r, VisibilityRecorder))
    assert "RG" in traced.operators and "RG" not in doc.record_page(1, []).operators
    assert len(page.clips) == 1 and page.clips[0].path.stream_index == 1  # the W
    assert tuple(visibility.clips) == page.clips
    assert traced.glyph_table[0].clip_id == page.glyphs[0].clip_id == 0
