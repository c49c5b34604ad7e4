"""The interpreter as a dispatcher: the events a recorder hears, with their values, and registration."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest

from glyphscope.core.document import open_document
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.interpreter import PageInterpreter
from glyphscope.core.page import FormUse, Polygon
from glyphscope.core.recorders import EVENTS, PageRecorders, Recorder
from glyphscope.core.recorders.base import InterpreterView
from glyphscope.core.state import MarkedContent
from tests.pdfbuild import make_pdf, to_bytes


class Heard(Recorder):
    """Writes down every event it hears, with the values a recorder would use."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def start(self, interp: InterpreterView) -> None:
        self.interp = interp

    def font_selected(self, key: str, font: Any) -> None:
        self.events.append(("font_selected", key, self.interp.frame.form_path))

    def text_shown(self, first: int, end: int) -> None:
        text = "".join(self.interp.glyph_table.unicode[first:end])
        self.events.append(("text_shown", first, end, text, self.interp.tm[4:]))

    def colour_set(
        self, stroke: bool, space: str | None, family: str | None, components: tuple[float, ...], pattern: str
    ) -> None:
        self.events.append(("colour_set", stroke, space, family, components, pattern))

    def ext_gstate_applied(self, name: str, state: pikepdf.Dictionary | None) -> None:
        self.events.append(("ext_gstate_applied", name, state is not None))

    def state_saved(self) -> None:
        self.events.append(("state_saved", self.interp.stack_depth))

    def state_restored(self) -> None:
        self.events.append(("state_restored", self.interp.stack_depth))

    def path_filled(self, even_odd: bool, polygons: tuple[Polygon, ...]) -> None:
        self.events.append(("path_filled", even_odd, polygons))

    def clip_set(self, polygons: tuple[Polygon, ...], even_odd: bool, stream_index: int) -> None:
        self.events.append(("clip_set", even_odd, stream_index, polygons))

    def fill_colour_set(self, family: str | None, components: tuple[float, ...]) -> None:
        self.events.append(("fill_colour_set", family, components))

    def ext_gstate_set(self, alpha: float | None, soft_mask: str | None) -> None:
        self.events.append(("ext_gstate_set", alpha, soft_mask))

    def image_drawn(self, kind: str, info: pikepdf.Object | None) -> None:
        self.events.append(("image_drawn", kind, self.interp.gs.ctm))

    def shading_painted(self) -> None:
        self.events.append(("shading_painted",))

    def marked_begun(self, section: MarkedContent) -> None:
        self.events.append(("marked_begun", section.tag, section.mcid, self.interp.glyph_count))

    def marked_ended(self, section: MarkedContent) -> None:
        self.events.append(("marked_ended", section.tag, self.interp.glyph_count))

    def form_begun(self, use: FormUse, bbox: Rect | None, inverse: Matrix | None) -> None:
        self.events.append(("form_begun", use.form_path, bbox, use.matrix))

    def form_ended(self, use_index: int) -> None:
        self.events.append(("form_ended", use_index, self.interp.glyph_count))

    def page_ended(self) -> None:
        self.events.append(("page_ended", self.interp.glyph_count))


def _page_with_everything() -> bytes:
    pdf = pikepdf.new()
    form = pdf.make_stream(b"BT /F1 10 Tf 5 5 Td (in) Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 50, 20]
    form.Matrix = [1, 0, 0, 1, 100, 200]
    image = pdf.make_stream(b"\x00")
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width, image.Height, image.BitsPerComponent = 1, 1, 8
    image.ColorSpace = pikepdf.Name.DeviceGray
    content = (
        b"0.5 g 10 20 30 40 re f "  # a filled rectangle in grey
        b"0 0 100 100 re W* n "  # an even-odd clip
        b"/P <</MCID 3>> BDC BT /F1 12 Tf 20 30 Td (ab) Tj ET EMC "
        b"/Fm Do "
        b"q 2 0 0 3 7 8 cm /Im Do Q"
    )
    page = make_pdf([content], xobjects={"/Fm": form, "/Im": image}, pdf=pdf)
    return to_bytes(page)


def test_a_recorder_hears_each_event_with_its_values() -> None:
    doc = open_document(_page_with_everything())
    heard = Heard()
    doc.record_page(1, [heard])
    kinds = [e[0] for e in heard.events]
    assert kinds == [
        "fill_colour_set",
        "colour_set",
        "path_filled",
        "clip_set",
        "marked_begun",
        "font_selected",
        "text_shown",
        "marked_ended",
        "form_begun",
        "font_selected",
        "text_shown",
        "form_ended",
        "state_saved",
        "image_drawn",
        "state_restored",
        "page_ended",
    ]
    events = dict((e[0], e[1:]) for e in heard.events)
    assert events["fill_colour_set"] == ("gray", (0.5,))
    assert events["colour_set"] == (False, "DeviceGray", "gray", (0.5,), "")
    shown = [e[1:] for e in heard.events if e[0] == "text_shown"]
    # glyphs 0-1 "ab" at 20 30 Td, then 2-3 "in" in the form; the pen has already moved past them
    assert [s[:3] for s in shown] == [(0, 2, "ab"), (2, 4, "in")]
    assert shown[0][3][1] == 30.0 and shown[0][3][0] > 20.0
    assert events["state_saved"] == (1,) and events["state_restored"] == (0,)
    assert events["path_filled"] == (False, (((10.0, 20.0), (40.0, 20.0), (40.0, 60.0), (10.0, 60.0)),))
    assert events["clip_set"][:2] == (True, 4)  # g re f re W* n: the W* is instruction 4
    assert events["marked_begun"] == ("/P", 3, 0)  # no glyph painted yet
    assert events["marked_ended"] == ("/P", 2)  # "ab"
    assert events["form_begun"] == (("/Fm",), (0.0, 0.0, 50.0, 20.0), (1.0, 0.0, 0.0, 1.0, 100.0, 200.0))
    assert events["form_ended"] == (0, 4)  # the form's use 0, "in" painted
    assert events["image_drawn"] == ("image", (2.0, 0.0, 0.0, 3.0, 7.0, 8.0))
    assert events["page_ended"] == (4,)


def test_the_page_recorders_and_an_extra_one_see_the_same_page() -> None:
    doc = open_document(_page_with_everything())
    page = doc.interpret(1)
    heard = Heard()
    interp = doc.record_page(1, [heard])
    assert "".join(g.unicode for g in page.glyphs) == "abin"
    assert interp.glyph_count == len(page.glyphs) == heard.events[-1][1]
    assert [(f.form_path, f.glyph_count) for f in page.forms] == [(("/Fm",), 2)]
    assert len(page.paints) == 2 and {p.kind for p in page.paints} == {"fill", "image"}


def test_operators_nobody_listens_to_are_not_run() -> None:
    fonts = FontCache()
    only_glyphs = PageInterpreter(1, fonts, [])
    everything = PageInterpreter(1, fonts, PageRecorders.new().all())
    for op in ("f", "W", "rg", "gs", "sh", "INLINE IMAGE"):
        assert op not in only_glyphs.operators and op in everything.operators
    for op in ("Tj", "q", "cm", "BDC", "Do"):  # the state every recorder relies on is always kept
        assert op in only_glyphs.operators
    for op in ("G", "RG", "K", "CS", "SC", "SCN"):  # the stroke colour: only for who hears colour_set
        assert op not in everything.operators
        assert op in PageInterpreter(1, fonts, [Heard()]).operators


def test_every_event_has_its_subscription_list() -> None:
    interp = PageInterpreter(1, FontCache(), [Heard()])  # the only recorder: the layout is none
    assert interp.recorders == (interp.recorders[0],)
    for event in EVENTS:
        if event == "start":
            continue
        expected = event != "observe"  # Heard overrides every event but `observe`
        assert len(getattr(interp, f"on_{event}")) == expected, event


class Meddler(Heard):
    """Hears everything, and tries to move the pen as the old glyph recorder did."""

    def text_shown(self, first: int, end: int) -> None:
        super().text_shown(first, end)
        try:
            self.interp.tm = (1.0, 0.0, 0.0, 1.0, 999.0, 999.0)  # type: ignore[misc]
        except AttributeError as exc:
            self.refused = str(exc)


def test_a_recorder_cannot_change_the_interpreters_state() -> None:
    """Recorders get a read-only view: the text matrix, the frame, the glyphs are the interpreter's."""
    meddler = Meddler()
    interp = PageInterpreter(1, FontCache(), [meddler])
    view = interp.recorders[0].interp  # type: ignore[attr-defined]
    assert view is not interp
    for name, value in (("tm", (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)), ("frame", None), ("gs", None)):
        with pytest.raises(AttributeError):
            setattr(view, name, value)
    doc = open_document(to_bytes(make_pdf([b"BT /F1 10 Tf 20 30 Td (ab) Tj (cd) Tj ET"])))
    interp.run_page(doc.page_object(1), doc.page_object(1).get("/Resources"))
    assert "tm" in meddler.refused
    xs = [g.origin[0] for g in interp.glyph_table]
    assert "".join(interp.glyph_table.unicode) == "abcd"
    assert xs[0] == 20.0 and xs == sorted(xs) and len(set(xs)) == 4  # the layout moved the pen
    shown = [e for e in meddler.events if e[0] == "text_shown"]
    assert [e[1:4] for e in shown] == [(0, 2, "ab"), (2, 4, "cd")]
    assert shown[0][4][0] == xs[2]  # heard after the pen moved: "cd" starts there


def test_the_text_layout_needs_no_recorder() -> None:
    """With no recorder at all the interpreter's own layout places the glyphs, as with all of them."""
    doc = open_document(_page_with_everything())
    bare = PageInterpreter(1, FontCache(), [])
    bare.run_page(doc.page_object(1), doc.page_object(1).get("/Resources"))
    page = doc.interpret(1)
    assert bare.recorders == ()

    def placed(glyphs: Any) -> list[tuple[Any, ...]]:  # not the clip and fill ids: visibility's
        return [
            (g.unicode, g.origin, g.pen_end, g.quad, g.token_index, g.form_path, g.form_use) for g in glyphs
        ]

    assert placed(bare.glyph_table) == placed(page.glyphs)
    assert [g.unicode for g in bare.glyph_table] == ["a", "b", "i", "n"]
