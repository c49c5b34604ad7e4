"""The interpreter as a dispatcher: the events a recorder hears, with their values, and registration."""

from __future__ import annotations

from typing import Any

import pikepdf

from glyphscope.core.document import open_document
from glyphscope.core.fonts.loader import FontCache
from glyphscope.core.geometry import Matrix, Rect
from glyphscope.core.interpreter import PageInterpreter
from glyphscope.core.page import FormUse, Polygon
from glyphscope.core.recorders import EVENTS, GlyphRecorder, PageRecorders, Recorder
from glyphscope.core.state import MarkedContent
from tests.pdfbuild import make_pdf, to_bytes


class Heard(Recorder):
    """Writes down every event it hears, with the values a recorder would use."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []

    def start(self, interp: PageInterpreter) -> None:
        self.interp = interp

    def font_selected(self, key: str, font: Any) -> None:
        self.events.append(("font_selected", key, self.interp.frame.form_path))

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
        "path_filled",
        "clip_set",
        "marked_begun",
        "font_selected",
        "marked_ended",
        "form_begun",
        "font_selected",
        "form_ended",
        "image_drawn",
        "page_ended",
    ]
    events = dict((e[0], e[1:]) for e in heard.events)
    assert events["fill_colour_set"] == ("gray", (0.5,))
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
    only_glyphs = PageInterpreter(1, fonts, [GlyphRecorder()])
    everything = PageInterpreter(1, fonts, PageRecorders.new().all())
    for op in ("f", "W", "rg", "gs", "sh", "INLINE IMAGE"):
        assert op not in only_glyphs.operators and op in everything.operators
    for op in ("Tj", "q", "cm", "BDC", "Do"):  # the state every recorder relies on is always kept
        assert op in only_glyphs.operators


def test_every_event_has_its_subscription_list() -> None:
    interp = PageInterpreter(1, FontCache(), [Heard()])  # and the glyph recorder, added first
    for event in EVENTS:
        if event == "start":
            continue
        by_glyphs = getattr(GlyphRecorder, event) is not getattr(Recorder, event)
        expected = (event != "observe") + by_glyphs  # Heard overrides every event but `observe`
        assert len(getattr(interp, f"on_{event}")) == expected, event


def test_without_a_glyph_recorder_one_is_added_for_the_text_layout() -> None:
    heard = Heard()
    interp = PageInterpreter(1, FontCache(), [heard])
    assert isinstance(interp.recorders[0], GlyphRecorder) and interp.recorders[1] is heard
