"""Visibility classes: one tiny PDF per class, asserting the numbers each rule compared."""

from __future__ import annotations

import json
import math

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.document import open_document
from glyphscope.core.glyph import GlyphStatus
from glyphscope.core.params import Parameters
from glyphscope.core.render_modes import INVISIBLE_RENDER_MODES, TextRenderMode
from glyphscope.core.visibility import (
    ClippedDecision,
    CoveredDecision,
    InvisibleModeDecision,
    SameAsBackgroundDecision,
    TransparentDecision,
    why_hidden,
)
from glyphscope.core.visibility_class import VisibilityClass
from tests.cli_run import run_cli
from tests.pdfbuild import make_pdf, to_bytes

HELLO = b"BT /F1 12 Tf 100 100 Td (Hi) Tj ET"


def analysis(content: bytes, params: Parameters | None = None, **kw):
    doc = open_document(to_bytes(make_pdf([content], **kw)))
    return analyze_page(doc, 1, params or Parameters())


def classes(a) -> list[str]:
    return list(a.classified.visibility.classes)


def records(a, cls=None):
    out = list(a.classified.visibility.records)
    return [r for r in out if cls is None or isinstance(r, cls)]


def image(pdf: pikepdf.Pdf, **extra) -> pikepdf.Stream:
    s = pikepdf.Stream(pdf, b"\x00")
    s.Type = pikepdf.Name.XObject
    s.Subtype = pikepdf.Name.Image
    s.Width, s.Height, s.BitsPerComponent = 1, 1, 8
    s.ColorSpace = pikepdf.Name.DeviceGray
    for k, v in extra.items():
        s[f"/{k}"] = v
    return s


# ---------------------------------------------------------------- clipped


def test_text_under_a_small_clip_rectangle_is_clipped_with_the_clip_bbox_and_the_w_index():
    a = analysis(b"q 0 0 10 10 re W n " + HELLO + b" Q BT /F1 12 Tf 100 200 Td (Ok) Tj ET")
    assert classes(a) == ["clipped", "clipped", "visible", "visible"]
    (first, _) = records(a, ClippedDecision)
    assert first.threshold == (0.0, 0.0, 10.0, 10.0)
    assert first.token_index == 2 and first.source == "W" and first.test == "bbox"
    assert first.verdict == "dropped"
    assert first.value == pytest.approx(a.page.glyphs[0].center)
    # dropped from text like culled glyphs, with their own status
    assert a.texts["plain"].text == "Ok"
    assert a.classified.status[:2] == (GlyphStatus.CLIPPED, GlyphStatus.CLIPPED)
    assert why_hidden(first) == "clipped by the path set at instruction 2 (W)"
    assert "clipped by the path set at instruction 2" in first.describe()
    d = first.to_json()
    assert d["kind"] == "clipped" and d["threshold"] == [0.0, 0.0, 10.0, 10.0] and d["token_index"] == 2


def test_a_glyph_a_clip_band_cuts_through_is_visible_wholly_outside_is_clipped():
    # a table cell's clip band 4.4 pt tall across the foot of "1.9": every box centre (y 103.07) lies
    # above the band (98..102.4), but the lower part of each box (97.5..108.6) meets it, and a
    # viewer draws that part: no glyph is clipped, the dot stays and the number reads "1.9"
    a = analysis(b"q 100 98 40 4.4 re W n BT /F1 12 Tf 100 100 Td (1.9) Tj ET Q")
    assert a.page.glyphs[1].center[1] == pytest.approx(103.066) and a.page.glyphs[1].unicode == "."
    assert classes(a) == ["visible"] * 3 and records(a, ClippedDecision) == []
    assert a.texts["plain"].text == "1.9"
    # the same band 40 pt lower meets no part of the boxes: all three wholly outside, clipped
    low = analysis(b"q 100 60 40 4.4 re W n BT /F1 12 Tf 100 100 Td (1.9) Tj ET Q")
    assert classes(low) == ["clipped"] * 3 and low.texts["plain"].text == ""
    # a band that only touches the box's edge (its top at the box's bottom, 97.516) shows nothing
    edge = analysis(b"q 100 90 40 7.516 re W n BT /F1 12 Tf 100 100 Td (1.9) Tj ET Q")
    assert classes(edge) == ["clipped"] * 3


def test_a_clip_band_through_part_of_a_polygon_clip_counts_too():
    # a triangle whose corner reaches into the box's right half: the centre is outside the triangle,
    # a sample point near the box's lower right corner inside it
    tri = b"95 90 m 140 90 l 140 135 l h "  # y <= x - 5: the centre (104, 103.07) is above it
    a = analysis(b"q " + tri + b"W n BT /F1 12 Tf 100 100 Td (X) Tj ET Q")
    x0, y0 = a.page.glyphs[0].quad[0]
    x1 = a.page.glyphs[0].quad[1][0]
    assert (x0, x1) == pytest.approx((100.0, 108.004))
    assert classes(a) == ["visible"]


def test_glyph_details_and_the_stepper_name_the_same_instruction_for_a_clip():
    from glyphscope.core.trace import trace_page

    pdf = make_pdf([b"q 0 0 10 10 re W n BT /F1 12 Tf 100 100 Td (Hi) Tj ET Q"])
    doc = open_document(to_bytes(pdf))
    (first, _) = records(analyze_page(doc, 1, Parameters()), ClippedDecision)
    steps = trace_page(doc, 1).steps
    assert first.token_index == 2
    assert steps[first.token_index].operator == "W" and steps[first.token_index].stream_index == 2


def test_nested_q_Q_restores_the_clip():
    a = analysis(
        b"q 90 90 100 30 re W n q 0 0 10 10 re W n BT /F1 12 Tf 100 100 Td (A) Tj ET Q "
        b"BT /F1 12 Tf 100 100 Td (B) Tj ET Q BT /F1 12 Tf 300 300 Td (C) Tj ET"
    )
    assert classes(a) == ["clipped", "visible", "visible"]
    page = a.page
    assert [g.clip_id for g in page.glyphs] == [1, 0, -1]
    inner = page.clips[1]
    assert (inner.depth, inner.parent) == (2, 0) and inner.empty  # [0,10]² and [90,190]×[90,120] do not meet
    (r,) = records(a, ClippedDecision)
    assert r.token_index == 6  # the second W


def test_polygon_test_after_the_bbox_fast_path_even_odd_and_nonzero():
    # a triangle whose bbox holds the glyph centre, but the triangle does not
    tri = b"100 100 m 300 100 l 100 300 l h "
    a = analysis(b"q " + tri + b"W n BT /F1 12 Tf 250 250 Td (X) Tj ET Q")
    (r,) = records(a, ClippedDecision)
    assert r.test == "polygon" and r.threshold == (100.0, 100.0, 300.0, 300.0)
    # two nested squares: W* leaves a hole in the middle, W (nonzero, same winding) does not
    squares = b"0 0 m 400 0 l 400 400 l 0 400 l h 100 100 m 300 100 l 300 300 l 100 300 l h "
    show = b" BT /F1 12 Tf 195 195 Td (O) Tj ET Q"
    assert classes(analysis(b"q " + squares + b"W* n" + show)) == ["clipped"]
    assert classes(analysis(b"q " + squares + b"W n" + show)) == ["visible"]


def test_clip_inside_a_form_and_the_form_bbox():
    def form(pdf: pikepdf.Pdf) -> pikepdf.Stream:
        s = pikepdf.Stream(
            pdf,
            b"BT /F1 12 Tf 5 5 Td (In) Tj ET BT /F1 12 Tf 80 5 Td (Out) Tj ET "
            b"q 0 0 3 3 re W n BT /F1 12 Tf 20 5 Td (Cl) Tj ET Q",
        )
        s.Type, s.Subtype = pikepdf.Name.XObject, pikepdf.Name.Form
        s.BBox = [0, 0, 50, 50]
        s.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=pdf.pages[0].Resources.Font.F1))
        return pdf.make_indirect(s)

    pdf = make_pdf([b"q 1 0 0 1 100 100 cm /Fm Do Q"])
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(Fm=form(pdf))
    a = analyze_page(open_document(to_bytes(pdf)), 1)
    text = [g.unicode for g in a.page.glyphs]
    assert text == list("InOutCl")
    assert classes(a) == ["visible"] * 2 + ["clipped"] * 3 + ["clipped"] * 2
    by_glyph = {r.paint_index: r for r in records(a, ClippedDecision)}
    bbox = by_glyph[2]
    assert bbox.source == "BBox" and bbox.threshold == (100.0, 100.0, 150.0, 150.0)
    assert bbox.token_index == 2 and bbox.form_path == ("/Fm",)  # the page's Do
    inner = by_glyph[5]
    assert inner.source == "W" and inner.threshold == (100.0, 100.0, 103.0, 103.0)
    assert inner.token_index == 2 and inner.stream_index == 12 and inner.form_path == ("/Fm",)
    assert "inside form /Fm (its instruction 12)" in why_hidden(inner)
    assert "the /BBox of form /Fm" in why_hidden(bbox)


def test_keep_clipped_keeps_the_text_and_the_decision():
    a = analysis(b"q 0 0 10 10 re W n " + HELLO + b" Q", Parameters(keep_clipped=True))
    assert a.texts["plain"].text == "Hi"
    assert classes(a) == ["clipped", "clipped"]
    assert {r.verdict for r in records(a)} == {"kept"}
    assert a.classified.status == (GlyphStatus.KEPT, GlyphStatus.KEPT)


# ---------------------------------------------------------------- invisible mode, transparent


def test_render_modes_3_and_7_are_kept_and_flagged():
    a = analysis(
        b"BT /F1 12 Tf 3 Tr 100 100 Td (A) Tj 7 Tr (B) Tj 0 Tr (C) Tj ET",
        Parameters(drop_hidden=True),  # drop_hidden never drops OCR layers
    )
    assert classes(a) == ["invisible_mode", "invisible_mode", "visible"]
    r3, r7 = records(a, InvisibleModeDecision)
    assert (r3.value, r7.value, r3.verdict) == (3.0, 7.0, "kept")
    assert a.texts["plain"].text == "ABC"


def test_only_the_render_modes_that_paint_nothing_are_invisible():
    shown = b"".join(b"%d Tr (X) Tj " % mode for mode in TextRenderMode)
    a = analysis(b"BT /F1 12 Tf 100 100 Td " + shown + b"ET")
    got = a.classified.visibility.classes
    assert all(isinstance(c, VisibilityClass) for c in got)  # the value, not a string spelt like it
    assert [c is VisibilityClass.INVISIBLE_MODE for c in got] == [
        m in INVISIBLE_RENDER_MODES for m in TextRenderMode
    ]
    assert {3, 7} == INVISIBLE_RENDER_MODES  # ISO 32000-1 Table 106: neither fill nor stroke


def test_fill_alpha_zero_is_transparent():
    gs = pikepdf.Dictionary(Type=pikepdf.Name.ExtGState, ca=0)
    pdf = make_pdf([b"q /G0 gs " + HELLO + b" Q BT /F1 12 Tf 100 200 Td (V) Tj ET"])
    pdf.pages[0].Resources.ExtGState = pikepdf.Dictionary(G0=gs)
    a = analyze_page(open_document(to_bytes(pdf)), 1)
    assert classes(a) == ["transparent", "transparent", "visible"]
    r = records(a, TransparentDecision)[0]
    assert (r.value, r.threshold, r.verdict) == (0.0, 0.0, "kept")
    assert a.page.fills[a.page.glyphs[0].fill_id].alpha == 0.0
    assert a.page.fills[a.page.glyphs[2].fill_id].alpha == 1.0  # Q restored it
    assert why_hidden(r) == "present but fully transparent (fill alpha 0.00)"


def test_an_empty_soft_mask_is_transparent_a_half_alpha_is_not():
    pdf = make_pdf([b"q /G0 gs " + HELLO + b" Q q /G1 gs BT /F1 12 Tf 100 200 Td (V) Tj ET Q"])
    group = pikepdf.Stream(pdf, b"")
    group.Type, group.Subtype, group.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 1, 1]
    mask = pikepdf.Dictionary(Type=pikepdf.Name.Mask, S=pikepdf.Name.Luminosity, G=group)
    pdf.pages[0].Resources.ExtGState = pikepdf.Dictionary(
        G0=pikepdf.Dictionary(SMask=mask), G1=pikepdf.Dictionary(ca=0.5)
    )
    a = analyze_page(open_document(to_bytes(pdf)), 1)
    assert classes(a) == ["transparent", "transparent", "visible"]
    assert records(a, TransparentDecision)[0].soft_mask == "empty"


# ---------------------------------------------------------------- same as background


def test_white_text_on_a_white_page_vs_over_a_black_rectangle():
    a = analysis(
        b"q 1 g BT /F1 12 Tf 100 100 Td (W) Tj ET Q "
        b"q 0 g 90 190 50 30 re f 1 1 1 rg BT /F1 12 Tf 100 200 Td (B) Tj ET Q "
        b"q 0 0 0 0 k BT /F1 12 Tf 100 300 Td (K) Tj ET Q"
    )
    assert classes(a) == ["same_as_background", "visible", "same_as_background"]
    w, k = records(a, SameAsBackgroundDecision)
    assert (w.value, w.threshold, w.background_paint) == ((1.0, 1.0, 1.0), (1.0, 1.0, 1.0), -1)
    assert w.fill.family == "gray" and k.fill.family == "cmyk"
    assert why_hidden(w) == "present but white on the white page (nothing painted under it)"


def test_black_text_on_a_black_full_page_fill_is_same_as_background():
    a = analysis(b"0 0 612 792 re f BT /F1 12 Tf 100 100 Td (D) Tj ET")
    (r,) = records(a, SameAsBackgroundDecision)
    assert (r.value, r.threshold, r.background_token) == ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0), 1)


def test_named_colour_spaces_resolve_to_their_family():
    pdf = make_pdf([b"/CS0 cs 1 sc BT /F1 12 Tf 100 100 Td (A) Tj ET"])
    icc = pikepdf.Stream(pdf, b"")
    icc.N = 1
    pdf.pages[0].Resources.ColorSpace = pikepdf.Dictionary(CS0=pikepdf.Array([pikepdf.Name.ICCBased, icc]))
    a = analyze_page(open_document(to_bytes(pdf)), 1)
    fs = a.page.fills[a.page.glyphs[0].fill_id]
    assert (fs.family, fs.components) == ("gray", (1.0,))
    assert classes(a) == ["same_as_background"]


# ---------------------------------------------------------------- covered


def test_covered_by_a_later_image_and_a_later_fill_but_not_an_earlier_one():
    pdf = make_pdf(
        [
            b"q 50 0 0 50 90 90 cm /Im Do Q "  # earlier image: under A, covers nothing
            b"BT /F1 12 Tf 100 100 Td (A) Tj ET "
            b"BT /F1 12 Tf 100 300 Td (B) Tj ET "
            b"BT /F1 12 Tf 100 500 Td (C) Tj ET "
            b"q 50 0 0 50 90 290 cm /Im Do Q "  # later image over B
            b"q 0 0 1 rg 90 490 50 30 re f Q "  # later filled rectangle over C
            b"q 1 0 0 rg /GA gs 90 90 50 30 re f Q"  # later but translucent: covers nothing
        ]
    )
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(Im=image(pdf))
    pdf.pages[0].Resources.ExtGState = pikepdf.Dictionary(GA=pikepdf.Dictionary(ca=0.5))
    a = analyze_page(open_document(to_bytes(pdf)), 1)
    assert classes(a) == ["visible", "covered", "covered"]
    b, c = records(a, CoveredDecision)
    assert (b.cover_kind, b.cover_token, b.threshold) == ("image", 21, (90.0, 290.0, 140.0, 340.0))
    assert (c.cover_kind, c.cover_token, c.threshold) == ("fill", 26, (90.0, 490.0, 140.0, 520.0))
    assert why_hidden(b) == "present but covered by the opaque image painted later at instruction 21"
    assert [p.glyphs_before for p in a.page.paints] == [0, 3, 3, 3]
    assert [p.opaque for p in a.page.paints] == [True, True, True, False]


def test_masked_and_inline_images():
    pdf = make_pdf(
        [
            b"BT /F1 12 Tf 100 100 Td (A) Tj ET BT /F1 12 Tf 100 300 Td (B) Tj ET "
            b"q 50 0 0 50 90 90 cm /Im Do Q "
            b"q 50 0 0 50 90 290 cm BI /W 1 /H 1 /BPC 8 /CS /G ID \x00 EI Q"
        ]
    )
    pdf.pages[0].Resources.XObject = pikepdf.Dictionary(Im=image(pdf, ImageMask=True))
    a = analyze_page(open_document(to_bytes(pdf)), 1)
    assert classes(a) == ["visible", "covered"]  # a stencil mask is not opaque
    (r,) = records(a, CoveredDecision)
    assert r.cover_kind == "inline_image" and r.threshold == (90.0, 290.0, 140.0, 340.0)


def test_drop_hidden_drops_transparent_white_and_covered_text():
    content = (
        b"q 1 g BT /F1 12 Tf 100 100 Td (W) Tj ET Q BT /F1 12 Tf 100 300 Td (C) Tj ET "
        b"q 90 290 50 30 re f Q BT /F1 12 Tf 100 500 Td (V) Tj ET"
    )
    kept = analysis(content)
    assert kept.texts["plain"].text == "W\nC\nV"
    dropped = analysis(content, Parameters(drop_hidden=True))
    assert dropped.texts["plain"].text == "V"
    assert dropped.classified.status[:2] == (GlyphStatus.HIDDEN, GlyphStatus.HIDDEN)
    assert {r.verdict for r in records(dropped)} == {"dropped"}


# ---------------------------------------------------------------- decisions, command line


def test_decisions_list_the_visibility_records_with_their_numbers():
    a = analysis(b"q 0 0 10 10 re W n " + HELLO + b" Q")
    kinds = [d.kind for d in a.decisions("plain")]
    assert kinds.count("clipped") == 2


@pytest.fixture()
def clipped_pdf(tmp_path):
    path = tmp_path / "clip.pdf"
    path.write_bytes(
        to_bytes(
            make_pdf(
                [
                    b"q 0 0 10 10 re W n " + HELLO + b" Q "
                    b"q 1 g BT /F1 12 Tf 100 300 Td (Wh) Tj ET Q BT /F1 12 Tf 100 500 Td (Ok) Tj ET"
                ]
            )
        )
    )
    return str(path)


def test_cli_keep_clipped_and_drop_hidden(clipped_pdf):
    code, out, _ = run_cli("text", clipped_pdf, "-o", "-")
    assert code == 0 and out.decode().split() == ["Wh", "Ok"]
    code, out, _ = run_cli("text", clipped_pdf, "--keep-clipped", "-o", "-")
    assert out.decode().split() == ["Hi", "Wh", "Ok"]
    code, out, _ = run_cli("text", clipped_pdf, "--drop-hidden", "-o", "-")
    assert out.decode().split() == ["Ok"]


def test_glyphs_json_has_the_visibility_of_every_glyph(clipped_pdf):
    code, out, _ = run_cli("glyphs", clipped_pdf, "--page", "1", "--set", "all", "--json")
    assert code == 0
    rows = json.loads(out)["glyphs"]
    assert [(r["visibility"], r["status"]) for r in rows] == [
        ("clipped", "clipped"),
        ("clipped", "clipped"),
        ("same_as_background", "kept"),
        ("same_as_background", "kept"),
        ("visible", "kept"),
        ("visible", "kept"),
    ]


def test_decisions_json_carries_the_clip_numbers(clipped_pdf):
    code, out, _ = run_cli("decisions", clipped_pdf, "--page", "1", "--json")
    assert code == 0
    found = [d for d in json.loads(out)["decisions"] if d["kind"] == "clipped"]
    assert found[0]["threshold"] == [0.0, 0.0, 10.0, 10.0] and found[0]["token_index"] == 2
    assert "clipped by the path set at instruction 2" in found[0]["description"]


def test_spaces_inside_a_hidden_run_share_its_class_so_drop_hidden_leaves_no_blanks():
    a = analysis(b"q 1 g BT /F1 12 Tf 100 100 Td (a b) Tj ET Q BT /F1 12 Tf 100 300 Td (c d) Tj ET")
    assert classes(a) == ["same_as_background"] * 3 + ["visible"] * 3
    dropped = analysis(
        b"q 1 g BT /F1 12 Tf 100 100 Td (a b) Tj ET Q BT /F1 12 Tf 100 300 Td (c d) Tj ET",
        Parameters(drop_hidden=True),
    )
    assert dropped.texts["plain"].text == "c d"


# ---------------------------------------------------------------- triage, probe, Find, layers


WHITE_AND_CLIPPED = (
    b"q 1 g BT /F1 12 Tf 100 100 Td (ABCD) Tj ET Q "  # 4 white on white
    b"q 0 0 10 10 re W n BT /F1 12 Tf 100 300 Td (EF) Tj ET Q "  # 2 clipped
    b"BT /F1 12 Tf 100 500 Td (GHIJ) Tj ET"  # 4 visible
)


def test_triage_percent_hidden_per_class_and_the_score_counts_it(tmp_path):
    from glyphscope.core.triage import triage_file
    from glyphscope.core.triage.scoring import W_CLIPPED, W_HIDDEN

    clean_path = tmp_path / "clean.pdf"
    clean_path.write_bytes(to_bytes(make_pdf([b"BT /F1 12 Tf 100 500 Td (GHIJ) Tj ET"])))
    path = tmp_path / "hidden.pdf"
    path.write_bytes(to_bytes(make_pdf([WHITE_AND_CLIPPED])))
    clean, row = triage_file(clean_path), triage_file(path)
    assert row.glyphs == 10
    assert row.pct_hidden == {
        "invisible_mode": 0.0,
        "clipped": 20.0,
        "transparent": 0.0,
        "same_as_background": 40.0,
        "covered": 0.0,
    }
    # √0.2 × 25 + √0.4 × 25 plus two warning findings (2 · log2 3)
    expected = W_CLIPPED * 0.2**0.5 + W_HIDDEN * 0.4**0.5 + 2 * math.log2(3)
    assert row.score == pytest.approx(expected, abs=0.02) and row.score > clean.score + 20
    kinds = dict(row.finding_kinds)
    assert kinds["hidden_text_same_as_background"] == 1 and kinds["hidden_text_clipped"] == 1
    f = next(f for f in row.findings if f.kind == "hidden_text_same_as_background")
    assert f.glyphs == (0, 1, 2, 3) and "present but white on the white page" in f.message
    assert row.to_json()["pct_hidden"]["clipped"] == 20.0
    assert type(row).from_json(row.to_json()).pct_hidden == row.pct_hidden


def test_probe_and_find_explain_hidden_text_in_words():
    from glyphscope.inspector.views.page_facts import PageFacts
    from glyphscope.inspector.views.probe import Fate, GlyphFate, probe_region
    from glyphscope.inspector.views.search import (
        MissKind,
        explain_miss,
        find_in_text,
        hidden_note,
        query_pattern,
    )

    a = analysis(WHITE_AND_CLIPPED)
    facts = PageFacts(a)
    probe = probe_region(facts, 1, (90, 90, 200, 120), "plain")
    assert [e.char for e in probe.entries] == list("ABCD")
    assert probe.entries[0].fates[:2] == (
        GlyphFate(Fate.KEPT, "kept"),
        GlyphFate(
            Fate.HIDDEN,
            "hidden (present but white on the white page (nothing painted under it): still in the text)",
        ),
    )
    assert "4 hidden" in probe.summary()
    assert probe.counts() == {Fate.KEPT: 4, Fate.HIDDEN: 4}  # counted by kind, never by the text's first word
    clipped = probe_region(facts, 1, (90, 290, 200, 320), "plain")
    assert clipped.entries[0].fates[0] == GlyphFate(
        Fate.CLIPPED, "clipped (clipped by the path set at instruction 10 (W): dropped from text)"
    )
    assert "2 clipped" in clipped.summary()
    # Find: a hit on white text says so; a clipped word is explained
    view = facts.modes.view("plain")
    (hit,) = find_in_text(1, view.text, query_pattern("ABCD"), hidden_note(a.classified, view.page_text))
    assert hit.note == "hidden text: present but white on the white page (nothing painted under it)"
    assert hit.context.endswith(" — " + hit.note)
    (plain,) = find_in_text(1, view.text, query_pattern("GHIJ"), hidden_note(a.classified, view.page_text))
    assert plain.note == ""
    miss = explain_miss(1, a.page.glyphs, a.classified, view, "EF")
    assert miss is not None and miss.glyphs == (4, 5) and miss.kind is MissKind.HIDDEN
    assert "clipped by the path set at instruction 10 (W)" in miss.message
    assert "--keep-clipped" in miss.message
    # details: the glyph's decisions say its visibility
    assert facts.fates.explain(0, "plain")[0].startswith(
        "visibility same_as_background: glyph #0 is present but white"
    )
    assert facts.fates.visibility_of(4) == "clipped" and facts.fates.clip_of(4).bbox == (0.0, 0.0, 10.0, 10.0)
    counts = facts.counts.layers("plain")
    assert {
        k: counts[k] for k in ("invisible_mode", "clipped", "transparent", "same_as_background", "covered")
    } == {
        "invisible_mode": 0,
        "clipped": 2,
        "transparent": 0,
        "same_as_background": 4,
        "covered": 0,
    }


def test_every_visibility_class_has_a_layer():
    from glyphscope.core.visibility_class import HIDDEN_CLASSES
    from glyphscope.inspector.layers.registry import LAYER_BY_KEY, VISIBILITY_LAYERS

    assert set(VISIBILITY_LAYERS) == set(HIDDEN_CLASSES)
    assert all(k in LAYER_BY_KEY for k in VISIBILITY_LAYERS)


def test_hostile_paths_and_colours_never_crash():
    a = analysis(
        b"q W n f h c v y 1 2 l re W* f* /Nope cs /X scn 1 2 3 4 5 sc /GX gs /Sh sh "
        b"1e308 1e308 m 1e308 0 l 0 1e308 l h W n " + HELLO + b" Q 1 2 re f 0 0 m B* b b*"
    )
    assert len(a.page.glyphs) == 2
    assert len(classes(a)) == 2


def test_deeply_nested_clips_stay_linear():
    import time

    content = b"q " + b"0 0 600 800 re W n " * 20000 + HELLO + b" Q"
    start = time.process_time()  # CPU time: other work on the machine does not count
    a = analysis(content)
    assert time.process_time() - start < 20
    assert len(a.page.clips) == 20000 and a.page.clips[-1].depth == 20000
    assert classes(a) == ["visible", "visible"]
