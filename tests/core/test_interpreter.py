"""The interpreter, page boxes and glyph passes, one small built PDF per rule."""

from __future__ import annotations

import math

import pikepdf
import pytest

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.core.font_stats import font_statistics
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.core.passes import classify
from glyphscope.core.postprocess import glyph_findings
from tests.pdfbuild import helvetica, identity_h_font, make_pdf, to_bytes


def interpret(pdf: pikepdf.Pdf, page: int = 1):
    doc = open_document(to_bytes(pdf))
    return doc.interpret(page)


def text_of(glyphs) -> str:
    return "".join(g.unicode for g in glyphs)


def kinds(page) -> set[DiagnosticKind]:
    """The kinds of the interpretation's findings: the interpreter's and the glyphs' (per font, form, page)."""
    return {d.kind for d in (*page.diagnostics, *glyph_findings(page, font_statistics(page)))}


def test_simple_glyph_geometry_helvetica():
    page = interpret(make_pdf([b"BT /F1 12 Tf 100 700 Td (AV) Tj ET"]))
    a, v = page.glyphs
    assert text_of(page.glyphs) == "AV"
    assert a.origin == pytest.approx((100, 700))
    # Helvetica A = 667/1000 em; ascent 718, descent -207 (spec §9: 12 pt glyph is 11.1 pt high)
    assert a.glyph_end == pytest.approx((100 + 0.667 * 12, 700))
    assert a.height == pytest.approx(12 * (0.718 + 0.207), abs=1e-6)
    assert a.quad[0] == pytest.approx((100, 700 - 0.207 * 12))
    assert a.quad[2] == pytest.approx((100 + 0.667 * 12, 700 + 0.718 * 12))
    assert v.origin == pytest.approx(a.pen_end)
    assert a.direction == pytest.approx((1, 0))
    assert a.token_index == 3 and a.form_path == () and a.font_key == "/F1"
    assert a.decode_source is DecodeSource.BASE_ENCODING
    assert [g.paint_index for g in page.glyphs] == [0, 1]


def test_pen_end_includes_tc_tw_but_glyph_end_does_not():
    page = interpret(make_pdf([b"BT /F1 10 Tf 2 Tc 5 Tw 50 Tz 0 0 Td (a b) Tj ET"]))
    a, space, b = page.glyphs
    w_a = 0.556 * 10
    assert a.glyph_end[0] == pytest.approx(w_a * 0.5)
    assert a.pen_end[0] == pytest.approx((w_a + 2) * 0.5)
    # Tw applies to the single-byte code 32 only
    assert space.pen_end[0] - space.origin[0] == pytest.approx((0.278 * 10 + 2 + 5) * 0.5)
    assert b.origin == pytest.approx(space.pen_end)


def test_tw_does_not_apply_to_two_byte_code_32():
    pdf = make_pdf([b"BT /F2 10 Tf 7 Tw <00200020> Tj ET"], fonts={"/F2": identity_h_font})
    g1, g2 = interpret(pdf).glyphs
    assert g1.code == 32 and g1.code_bytes == 2
    assert g2.origin[0] - g1.origin[0] == pytest.approx(10.0)  # DW 1000, no Tw


def test_tj_offsets_move_the_pen():
    page = interpret(make_pdf([b"BT /F1 10 Tf [(A) -1000 (B)] TJ ET"]))
    a, b = page.glyphs
    assert b.origin[0] == pytest.approx(a.pen_end[0] + 10)


def test_text_rise_raises_origin():
    page = interpret(make_pdf([b"BT /F1 10 Tf 0 700 Td (x) Tj 4 Ts (2) Tj ET"]))
    x, two = page.glyphs
    assert two.origin[1] == pytest.approx(704) and two.rise == 4


def test_q_Q_restores_whole_text_state_font_included():
    # Identity-H chosen inside q…Q must not keep decoding one-byte text after Q (spec §2).
    content = b"BT /F1 10 Tf q /F2 10 Tf <00480069> Tj Q (Hi) Tj ET"
    pdf = make_pdf([content], fonts={"/F1": helvetica, "/F2": identity_h_font})
    glyphs = interpret(pdf).glyphs
    assert text_of(glyphs) == "HiHi"
    assert [g.code_bytes for g in glyphs] == [2, 2, 1, 1]
    assert [g.font_key for g in glyphs] == ["/F2", "/F2", "/F1", "/F1"]


def test_q_Q_restores_tc_and_size():
    page = interpret(make_pdf([b"BT /F1 10 Tf q 20 Tf 3 Tc Q (ab) Tj ET"]))
    a, b = page.glyphs
    assert a.font_size == 10 and a.char_spacing == 0
    assert b.origin[0] == pytest.approx(a.glyph_end[0])


def test_q_underflow_is_a_diagnostic_not_an_error():
    page = interpret(make_pdf([b"Q Q BT /F1 10 Tf (ok) Tj ET"]))
    assert text_of(page.glyphs) == "ok"
    assert DiagnosticKind.Q_UNDERFLOW in kinds(page)


def test_malformed_and_unknown_operators_are_skipped_with_diagnostics():
    page = interpret(make_pdf([b"BT /F1 Tf /F1 10 Tf 5 Td (x) Tj (y) 12 Tm foo (ok) Tj ET"]))
    assert text_of(page.glyphs) == "xok"  # "5 Td" lacks an operand and is skipped; Tj still shows
    assert DiagnosticKind.MALFORMED_OPERATOR in kinds(page)
    assert DiagnosticKind.UNKNOWN_OPERATOR in kinds(page)


def test_one_tf_with_scaled_tm_gives_the_same_heights_as_12_tf():
    scaled = interpret(make_pdf([b"BT /F1 1 Tf 12 0 0 12 100 700 Tm (Hello) Tj ET"]))
    plain = interpret(make_pdf([b"BT /F1 12 Tf 100 700 Td (Hello) Tj ET"]))
    for g1, g2 in zip(scaled.glyphs, plain.glyphs):
        assert g1.height == pytest.approx(g2.height)
        assert g1.origin == pytest.approx(g2.origin)
        assert g1.glyph_end == pytest.approx(g2.glyph_end)
    assert DiagnosticKind.TF_ONE_SCALED_TM in kinds(scaled)


def test_rotated_text_direction_and_height():
    page = interpret(make_pdf([b"BT /F1 10 Tf 0 1 -1 0 300 300 Tm (ab) Tj ET"]))
    a, b = page.glyphs
    assert a.direction == pytest.approx((0, 1))
    assert b.origin == pytest.approx((300, 300 + 5.56))
    assert a.height == pytest.approx(9.25)


def test_cm_and_ctm_apply():
    page = interpret(make_pdf([b"2 0 0 2 10 20 cm BT /F1 10 Tf 5 5 Td (a) Tj ET"]))
    (a,) = page.glyphs
    assert a.origin == pytest.approx((20, 30))
    assert a.height == pytest.approx(2 * 9.25)


def _form(pdf, content: bytes, *, matrix=None, bbox=(0, 0, 500, 500), resources=True, xobjects=None):
    form = pdf.make_stream(content)
    form.Type = pikepdf.Name.XObject
    form.Subtype = pikepdf.Name.Form
    form.BBox = list(bbox)
    if matrix:
        form.Matrix = list(matrix)
    if resources:
        form.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F9=helvetica(pdf, "/Courier")))
        if xobjects:
            form.Resources.XObject = pikepdf.Dictionary(xobjects)
    return form


def test_form_xobject_matrix_times_ctm_and_nesting():
    pdf = pikepdf.new()
    inner = _form(pdf, b"BT /F9 10 Tf 1 1 Td (in) Tj ET", matrix=(1, 0, 0, 1, 100, 0))
    outer = _form(
        pdf,
        b"BT /F9 10 Tf 0 0 Td (out) Tj ET /Inner Do",
        matrix=(2, 0, 0, 2, 0, 0),
        xobjects={"/Inner": inner},
    )
    make_pdf(
        [b"BT /F1 10 Tf (p) Tj ET 1 0 0 1 10 10 cm /Outer Do BT /F1 10 Tf (q) Tj ET"],
        xobjects={"/Outer": outer},
        pdf=pdf,
    )
    page = interpret(pdf)
    assert text_of(page.glyphs) == "poutinq"  # paint order, form glyphs at their Do
    out_o = page.glyphs[1]
    assert out_o.form_path == ("/Outer",) and out_o.token_index == -1
    assert out_o.origin == pytest.approx((10, 10))
    assert out_o.height == pytest.approx(2 * 10 * (0.629 + 0.157), rel=0.2)  # Courier, scaled ×2
    in_i = page.glyphs[4]
    assert in_i.form_path == ("/Outer", "/Inner")
    # inner: (1,1) → ×Matrix(+100,0) → ×outer(×2) → ×cm(+10,+10)
    assert in_i.origin == pytest.approx(((1 + 100) * 2 + 10, 1 * 2 + 10))
    assert page.glyphs[-1].token_index >= 0 and page.glyphs[-1].form_path == ()
    assert {f.form_path for f in page.forms} == {("/Outer",), ("/Outer", "/Inner")}


def test_form_without_resources_borrows_the_callers():
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F1 10 Tf (borrowed) Tj ET", resources=False)
    make_pdf([b"/Fm0 Do"], xobjects={"/Fm0": form}, pdf=pdf)
    page = interpret(pdf)
    assert text_of(page.glyphs) == "borrowed"
    assert DiagnosticKind.MISSING_FONT not in kinds(page)


def test_self_drawing_form_is_drawn_once_with_a_diagnostic():
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F9 10 Tf (loop) Tj ET /Me Do")
    form_ind = pdf.make_indirect(form)
    form_ind.Resources.XObject = pikepdf.Dictionary(Me=form_ind)
    make_pdf([b"/Me Do"], xobjects={"/Me": form_ind}, pdf=pdf)
    page = interpret(pdf)
    assert text_of(page.glyphs) == "loop"
    assert DiagnosticKind.FORM_CYCLE in kinds(page)


def test_form_depth_cap():
    pdf = pikepdf.new()
    forms = [pdf.make_indirect(_form(pdf, b"BT /F9 10 Tf (x) Tj ET"))]
    for _ in range(40):
        f = pdf.make_indirect(_form(pdf, b"BT /F9 10 Tf (x) Tj ET /N Do"))
        f.Resources.XObject = pikepdf.Dictionary(N=forms[-1])
        forms.append(f)
    make_pdf([b"/N Do"], xobjects={"/N": forms[-1]}, pdf=pdf)
    page = interpret(pdf)
    assert 0 < len(page.glyphs) <= 33
    assert DiagnosticKind.FORM_DEPTH_CAP in kinds(page)


def test_glyphs_outside_form_bbox_are_flagged_not_dropped():
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F9 10 Tf 5 5 Td (in) Tj 200 0 Td (out) Tj ET", bbox=(0, 0, 100, 100))
    make_pdf([b"/Fm Do"], xobjects={"/Fm": form}, pdf=pdf)
    page = interpret(pdf)
    assert text_of(page.glyphs) == "inout"
    assert [g.outside_form_bbox for g in page.glyphs] == [False, False, True, True, True]
    assert DiagnosticKind.GLYPHS_OUTSIDE_FORM_BBOX in kinds(page)
    assert page.forms[0].glyphs_outside_bbox == 3


def test_marked_content_mcid_inline_and_properties_innermost_active():
    pdf = make_pdf(
        [
            b"/P <</MCID 5>> BDC BT /F1 10 Tf (a) Tj /Span BMC (b) Tj EMC ET EMC /P /MC0 BDC BT (c) Tj ET EMC (d) Tj"
        ]
    )
    pdf.pages[0].Resources.Properties = pikepdf.Dictionary(MC0=pikepdf.Dictionary(MCID=7))
    page = interpret(pdf)
    assert [g.mcid for g in page.glyphs] == [5, 5, 7, None]


def test_inline_images_are_skipped():
    content = b"BT /F1 10 Tf (a) Tj ET BI /W 2 /H 1 /BPC 8 /CS /G ID \x00\xff EI BT /F1 10 Tf (b) Tj ET"
    page = interpret(make_pdf([content]))
    assert text_of(page.glyphs) == "ab"


def test_type3_widths_through_font_matrix():
    pdf = pikepdf.new()
    proc = pdf.make_stream(b"500 0 0 0 400 700 d1 0 0 400 700 re f")
    t3 = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontBBox=[0, 0, 400, 700],
            FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
            CharProcs=pikepdf.Dictionary(a=proc),
            Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=[97, pikepdf.Name.a]),
            FirstChar=97,
            LastChar=97,
            Widths=[500],
        )
    )
    page = interpret(make_pdf([b"BT /T3 10 Tf (aa) Tj ET"], fonts={"/T3": t3}, pdf=pdf))
    a1, a2 = page.glyphs
    assert a1.unicode == "a"
    assert a2.origin[0] - a1.origin[0] == pytest.approx(5.0)
    assert a1.height == pytest.approx(7.0)


def test_unsorted_w_first_entry_wins_and_is_reported():
    # 0x41 'A' width is 600 via the FIRST entry; a later overlapping range says 1000.
    widths = [0x61, [500], 0x41, [600, 700], 0x30, 0x50, 1000]
    pdf = make_pdf([b"BT /F2 10 Tf <00410042> Tj ET"], fonts={"/F2": lambda p: identity_h_font(p, widths)})
    page = interpret(pdf)
    a, b = page.glyphs
    assert b.origin[0] - a.origin[0] == pytest.approx(6.0)
    assert b.glyph_end[0] - b.origin[0] == pytest.approx(7.0)
    assert DiagnosticKind.UNSORTED_W in kinds(page)


# ---------------------------------------------------------------- boxes and culling


def test_visible_box_is_inherited_cropbox_intersected_with_mediabox():
    pdf = make_pdf([b"BT /F1 10 Tf 100 100 Td (in) Tj 0 -90 Td (slug) Tj ET"])
    pdf.Root.Pages.CropBox = [50, 50, 700, 700]  # inherited from the page tree, and wider than the MediaBox
    pdf.Root.Pages.MediaBox = [0, 0, 612, 792]
    del pdf.pages[0].obj["/MediaBox"]
    doc = open_document(to_bytes(pdf))
    page = doc.interpret(1)
    assert page.boxes.visible_box == (50, 50, 612, 700)
    c = classify(page)
    assert text_of(c.visible) == "in"
    assert [s for s in c.status] == [GlyphStatus.KEPT] * 2 + [GlyphStatus.CULLED] * 4
    assert len(c.raw) == 6


def test_rotate_is_inherited_and_normalised():
    pdf = make_pdf([b""])
    pdf.Root.Pages.Rotate = -90
    assert open_document(to_bytes(pdf)).page_boxes(1).rotate == 270


# ---------------------------------------------------------------- dedupe (spec §7)


def _dedupe(content: bytes, font: str = "/F1"):
    c = classify(interpret(make_pdf([content])))
    return c, text_of(c.visible)


def test_fake_bold_is_dropped_and_points_at_the_first():
    c, text = _dedupe(b"BT /F1 10 Tf 100 100 Td (Bold) Tj ET BT /F1 10 Tf 100.3 100 Td (Bold) Tj ET")
    assert text == "Bold"
    assert c.duplicate_of[4:] == (0, 1, 2, 3)
    assert c.status[4] is GlyphStatus.DUPLICATE


def test_fill_keeps_its_double_l():
    _, text = _dedupe(b"BT /F1 10 Tf 100 100 Td (fill committee) Tj ET")
    assert text == "fill committee"


def test_triple_strike_keeps_the_first():
    content = b"".join(b"BT /F1 10 Tf %.2f 100 Td (X) Tj ET " % x for x in (100, 100.2, 100.4))
    c, text = _dedupe(content)
    assert text == "X"
    assert c.duplicate_of == (None, 0, 0)


def test_two_point_offset_is_kept():
    _, text = _dedupe(b"BT /F1 10 Tf 100 100 Td (X) Tj ET BT /F1 10 Tf 102 100 Td (X) Tj ET")
    assert text == "XX"


def test_different_size_is_kept():
    _, text = _dedupe(b"BT /F1 10 Tf 100 100 Td (X) Tj ET BT /F1 11 Tf 100 100 Td (X) Tj ET")
    assert text == "XX"


def test_rotated_fake_bold_is_dropped():
    r = math.radians(30)
    cos, sin = math.cos(r), math.sin(r)
    m1 = b"%.4f %.4f %.4f %.4f 200 200 Tm" % (10 * cos, 10 * sin, -10 * sin, 10 * cos)
    # the second copy is offset 0.3 pt along its own (rotated) baseline
    m2 = b"%.4f %.4f %.4f %.4f %.4f %.4f Tm" % (
        10 * cos,
        10 * sin,
        -10 * sin,
        10 * cos,
        200 + 0.3 * cos,
        200 + 0.3 * sin,
    )
    c, text = _dedupe(b"BT /F1 1 Tf " + m1 + b" (Ro) Tj " + m2 + b" (Ro) Tj ET")
    assert text == "Ro"


def test_exact_duplicate_footer_is_read_once_and_spaces_too():
    footer = b"BT /F1 8 Tf 100 30 Td (Page 1) Tj ET "
    c, text = _dedupe(footer * 2)
    assert text == "Page 1"


def test_unresolved_glyphs_are_never_duplicates():
    tu = b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    pdf = make_pdf(
        [b"BT /F2 10 Tf <0001> Tj ET BT /F2 10 Tf <0001> Tj ET"],
        fonts={"/F2": lambda p: identity_h_font(p, tounicode=tu)},
    )
    c = classify(interpret(pdf))
    assert len(c.visible) == 2
    assert all(g.decode_source is DecodeSource.UNRESOLVED for g in c.visible)


def test_dedupe_of_100k_glyphs_is_fast():
    import time

    from glyphscope.core.glyph import Glyph
    from glyphscope.core.passes import dedupe

    glyphs = []
    for i in range(100_000):
        x, y = (i % 100) * 6.0, (i // 100) * 12.0
        quad = ((x, y - 2), (x + 5, y - 2), (x + 5, y + 8), (x, y + 8))
        glyphs.append(
            Glyph(
                i,
                chr(97 + i % 26),
                97,
                1,
                "/F1",
                10,
                (x, y),
                (x + 5, y),
                (x + 5, y),
                quad,
                10.0,
                (1.0, 0.0),
                0,
                i,
                (),
                None,
                DecodeSource.BASE_ENCODING,
                0,
                0.0,
                "1 0 R",
            )
        )
    start = time.process_time()  # this process's CPU time: other work on the machine does not count
    dedupe(glyphs)
    assert time.process_time() - start < 5  # an O(n²) dedupe takes minutes; the benchmark measures < 1 s


# ---------------------------------------------------------------- robustness


def test_page_without_content_is_empty_not_an_error():
    pdf = pikepdf.new()
    pdf.add_blank_page()
    page = interpret(pdf)
    assert page.glyphs == () and not page.errors


def test_missing_font_loses_text_with_a_diagnostic():
    page = interpret(make_pdf([b"BT /Nope 10 Tf (x) Tj /F1 10 Tf (y) Tj ET"]))
    assert text_of(page.glyphs) == "y"
    assert DiagnosticKind.MISSING_FONT in kinds(page)


def test_each_glyph_knows_which_do_ran_its_form():
    pdf = pikepdf.new()
    form = _form(pdf, b"BT /F9 10 Tf (w) Tj ET")
    make_pdf([b"/Fm Do 1 0 0 1 0 100 cm /Fm Do"], xobjects={"/Fm": form}, pdf=pdf)
    page = interpret(pdf)
    first, second = page.glyphs
    assert (first.form_use, second.form_use) == (0, 1)
    assert [page.forms[g.form_use].token_index for g in page.glyphs] == [0, 2]
    assert page.forms[0].glyph_count == page.forms[1].glyph_count == 1
