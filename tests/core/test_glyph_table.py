"""The page's glyphs held column-wise (core/glyph_table.py): records on demand, equal to the
records the interpreter used to build, and the passes reading columns give the same answers."""

from __future__ import annotations

from typing import NamedTuple

import pikepdf
import pytest

from glyphscope.core.assembly import assemble
from glyphscope.core.document import open_document
from glyphscope.core.glyph import DecodeSource, FlowGlyph, Glyph
from glyphscope.core.glyph_table import (
    GEOM_STRIDE,
    GlyphRun,
    GlyphTable,
    GlyphView,
    _record_walker,
    flow_glyphs,
)
from glyphscope.core.passes import classify, cull, dedupe
from tests.pdfbuild import helvetica, identity_h_font, identity_tounicode, make_pdf, to_bytes

# Two strings (two runs), the second in a 2× text matrix with Tc/Tw/Tz/Ts set, and the word "Bold" painted
# twice 0.3 pt apart (fake bold: the second copy is a duplicate).
CONTENT = (
    b"BT /F1 10 Tf 100 700 Td (Hi you) Tj ET "
    b"BT /F1 5 Tf 2 0 0 2 50 600 Tm 1 Tc 2 Tw 80 Tz 3 Ts (a b) Tj ET "
    b"BT /F1 10 Tf 100 500 Td (Bold) Tj ET BT /F1 10 Tf 100.3 500 Td (Bold) Tj ET "
    b"BT /F1 10 Tf 900 900 Td (X) Tj ET"  # outside the media box: culled
)


@pytest.fixture()
def page():
    return open_document(to_bytes(make_pdf([CONTENT]))).interpret(1)


def test_the_page_holds_columns_not_records(page):
    table = page.glyphs
    assert isinstance(table, GlyphTable)
    n = len(table)
    assert n == 6 + 3 + 4 + 4 + 1
    assert len(table.geom) == n * GEOM_STRIDE  # 14 doubles a glyph, no per-glyph objects
    assert len(table.runs) == 5  # one per Tj
    assert list(table.run_start) == [0, 6, 9, 13, 17]
    assert table.runs[2] is table.runs[3]  # both "Bold": one state, one shared object
    assert len(set(table.run_token)) == 5  # each run keeps its own operator
    assert not table.records_kept  # nothing built by interpreting or classifying
    classify(page)
    assert not table.records_kept


def test_records_carry_the_values_the_interpreter_computed(page):
    g = page.glyphs[1]  # "i" of "Hi": Helvetica H is 722/1000 wide at 10 pt
    assert isinstance(g, Glyph)
    assert g.paint_index == 1 and g.unicode == "i" and g.code == ord("i") and g.code_bytes == 1
    assert g.origin == pytest.approx((107.22, 700.0))
    assert g.glyph_end == pytest.approx((107.22 + 2.22, 700.0))  # i is 222 wide
    assert g.pen_end == g.glyph_end  # no Tc, Tw
    assert g.decode_source is DecodeSource.BASE_ENCODING
    assert g.font_key == "/F1" and g.font_size == 10.0 and g.token_index >= 0
    a = page.glyphs[7]  # the space of "a b": 2x matrix, Tc 1, Tw 2, Tz 80, Ts 3
    assert a.unicode == " " and a.char_spacing == 1.0 and a.word_spacing == 2.0
    assert a.horizontal_scaling == 80.0 and a.rise == 3.0
    # pen advance = (w0·Tfs + Tc + Tw)·Th in text space, ×2 by the matrix: (0.278·5 + 1 + 2)·0.8·2
    assert a.pen_end[0] - a.origin[0] == pytest.approx((0.278 * 5 + 3) * 0.8 * 2)
    assert a.origin[1] == pytest.approx(600 + 3 * 2)  # the rise, scaled by the matrix


def test_records_equal_a_copy_made_from_records(page):
    records = list(page.glyphs)
    copy = GlyphTable.of(records)
    assert list(copy) == records
    assert copy == page.glyphs and page.glyphs == tuple(records)
    assert [copy[i] for i in range(len(copy))] == records
    assert page.glyphs[-1] == records[-1]
    with pytest.raises(IndexError):
        page.glyphs[len(records)]


def test_a_slice_from_the_start_is_a_shorter_table(page):
    first = page.glyphs[:7]
    assert isinstance(first, GlyphTable)
    assert len(first) == 7 and len(first.runs) == 2 and list(first) == list(page.glyphs)[:7]
    assert page.glyphs[2:4] == tuple(list(page.glyphs)[2:4])  # any other slice: records


def test_views_and_kept_records(page):
    c = classify(page)
    assert isinstance(c.visible, GlyphView)
    # "Bold" twice: the second copy is dropped; the X outside the media box is culled
    text = "".join(g.unicode for g in c.visible)
    assert text == "Hi youa bBold"
    assert [d.paint_index for d in c.duplicates] == [13, 14, 15, 16]
    assert [d.duplicate_of for d in c.duplicates] == [9, 10, 11, 12]
    assert c.duplicates[0].along == pytest.approx(0.3)
    assert [x.paint_index for x in c.culls] == [17]
    assert c.culls[0].center[0] == pytest.approx(900 + 6.67 * 0.8 / 2, abs=0.01)  # Tz 80 is still set
    page.glyphs.keep_records()
    assert page.glyphs[3] is page.glyphs[3]  # built once when a holder asks to keep them
    assert next(iter(c.visible)) is page.glyphs[0]


def test_plain_mode_reads_light_records_with_the_records_values(page):
    visible = classify(page).visible
    light = flow_glyphs(visible)
    assert all(type(f) is FlowGlyph for f in light)
    assert not page.glyphs.records_kept  # made from the columns, not from records
    records = tuple(visible)
    assert [f.paint_index for f in light] == [g.paint_index for g in records] == [*range(13)]
    for f, g in zip(light, records):
        assert tuple(f) == (g.paint_index, g.unicode, g.origin, g.glyph_end, g.height, g.direction, g.wmode)
    assert light[7].origin == pytest.approx(records[7].origin) and light[7].unicode == " "
    # the text and every decision the same as from whole records (a tuple takes that path)
    box = page.boxes.visible_box
    from_columns = assemble(visible, "plain", visible_box=box)
    from_records = assemble(records, "plain", visible_box=box)
    assert not page.glyphs.records_kept
    assert from_columns.text == from_records.text == "Hi you\na b\nBold"
    assert list(from_columns.decisions) == list(from_records.decisions)
    assert len(from_columns.decisions) == 10 * 2 + 2  # 12 pairs: 10 on a line (break + gap), 2 breaks


def test_flows_get_whole_records_when_kept_or_written_vertically(page):
    page.glyphs.keep_records()
    visible = classify(page).visible
    kept = flow_glyphs(visible)
    assert kept[0] is page.glyphs[0]  # the window keeps records: the flow reads them

    def vertical_font(pdf: pikepdf.Pdf) -> pikepdf.Dictionary:
        f = identity_h_font(pdf, tounicode=identity_tounicode())
        f.Encoding = pikepdf.Name("/Identity-V")
        return f

    content = b"BT /F1 12 Tf 100 700 Td (ab) Tj ET BT /F2 12 Tf 300 700 Td <00410042> Tj ET"
    pdf = make_pdf([content], {"/F1": helvetica, "/F2": vertical_font})
    mixed = open_document(to_bytes(pdf)).interpret(1)
    visible = classify(mixed).visible
    records = flow_glyphs(visible)  # the vertical path reads quads: whole records for all
    assert [type(g) for g in records] == [Glyph] * 4
    assert [g.wmode for g in records] == [0, 0, 1, 1]
    assert assemble(visible, "plain", visible_box=mixed.boxes.visible_box).text == "ab AB"


def test_column_passes_answer_like_the_record_passes(page):
    records = list(page.glyphs)
    assert cull(records, (0, 0, 612, 792)) == cull(page.glyphs, (0, 0, 612, 792))
    assert dedupe(records) == list(classify(page).duplicates)  # the culled X repeats nothing


def test_a_page_built_by_hand_from_records_is_classified_the_same(page):
    from dataclasses import replace

    by_hand = replace(page, glyphs=tuple(page.glyphs))
    a, b = classify(page), classify(by_hand)
    assert a.status == b.status and a.duplicates == b.duplicates and a.culls == b.culls
    assert tuple(a.visible) == b.visible


def test_outside_form_bbox_is_kept_per_glyph():
    pdf = pikepdf.new()
    form = pdf.make_stream(b"BT /F1 10 Tf 0 0 Td (AB) Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 8, 20]
    pdf = make_pdf([b"q 1 0 0 1 100 100 cm /Fm1 Do Q"], xobjects={"/Fm1": form}, pdf=pdf)
    form.Resources = pdf.pages[0].Resources
    page = open_document(to_bytes(pdf)).interpret(1)
    assert [g.outside_form_bbox for g in page.glyphs] == [False, True]  # B's centre lies past x = 8
    assert page.glyphs[1].form_path == ("/Fm1",)


def test_equal_states_share_a_run_but_signed_zeros_do_not():
    # "-0.0 Tc" equals 0 but a record must say -0.0 (JSON writes it): the two strings keep their own state.
    page = open_document(
        to_bytes(make_pdf([b"BT /F1 10 Tf 0 Tc 9 9 Td (a) Tj -0.0 Tc (b) Tj 0 Tc (c) Tj ET"]))
    ).interpret(1)
    t = page.glyphs
    assert [str(g.char_spacing) for g in t] == ["0.0", "-0.0", "0.0"]
    assert t.runs[0] is t.runs[2] and t.runs[1] is not t.runs[0]


def test_records_are_built_by_field_name():
    # Every field distinct: a record that took a field from another's place would differ.
    g = Glyph(
        paint_index=0, unicode="x", code=120, code_bytes=1, font_key="/F1", font_size=9.0,
        origin=(1.0, 2.0), glyph_end=(3.0, 4.0), pen_end=(5.0, 6.0),
        quad=((7.0, 8.0), (9.0, 10.0), (11.0, 12.0), (13.0, 14.0)), height=15.0, direction=(0.6, 0.8),
        wmode=1, token_index=16, form_path=("/Fm1",), mcid=17, decode_source=DecodeSource.DIFFERENCES,
        render_mode=2, rise=18.0, font_id="19 0 R", stream_index=20, char_spacing=21.0, word_spacing=22.0,
        horizontal_scaling=23.0, outside_form_bbox=True, marked_tags=("/Span",), form_use=24, clip_id=25,
        fill_id=26,
    )  # fmt: skip
    table = GlyphTable.of([g])
    assert table[0] == g
    run = table.runs[0]._asdict()
    # text_matrix is the run's own (Tm × CTM, for the Python API's records), not a Glyph field:
    # a table built from records has none
    assert run.pop("text_matrix") is None
    assert run == {name: getattr(g, name) for name in GlyphRun._fields if name != "text_matrix"}
    assert table.flow_glyphs([0]) == [FlowGlyph(*(getattr(g, name) for name in FlowGlyph._fields))]


def test_a_record_field_without_a_source_fails_when_the_walk_is_made():
    class Wider(NamedTuple):
        paint_index: int
        sparkle: float

    with pytest.raises(TypeError, match="sparkle"):
        _record_walker(Wider, "", {}, as_list=True)
