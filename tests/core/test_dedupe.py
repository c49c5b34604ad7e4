"""Dedupe (spec §7): measured along the run, real copies dropped, fake bold (upright and Type3)
deduplicated, sizes kept apart."""

from __future__ import annotations

from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.passes import classify, dedupe, run_directions
from tests.glyph_factory import GlyphFactory
from tests.pdfbuild import (
    make_pdf,
    pdf_document,
    sideways_vertical_pdf,
)


def test_dedupe_measures_along_the_run_a_vertical_font_follows() -> None:
    doc = pdf_document(sideways_vertical_pdf(2.0))
    page = doc.interpret(1)
    glyphs = list(page.glyphs)
    assert all(g.wmode == 1 and g.direction == pytest.approx((0.0, -1.0)) for g in glyphs)
    l1, l2 = glyphs[2], glyphs[3]
    across_font = abs(l2.origin[0] - l1.origin[0])
    assert across_font <= 0.2 * l1.height  # in the font's frame the second l WOULD be a copy
    frames = run_directions(glyphs)
    assert frames[l1.paint_index] == pytest.approx((1.0, 0.0))
    assert dedupe(glyphs) == []
    assert "will" in (analyze_page(doc, 1).texts["plain"].text or "")


def test_dedupe_in_the_run_frame_still_drops_a_real_copy_and_reports_the_axis() -> None:
    f = GlyphFactory()
    for i, ch in enumerate("will"):
        f.glyph(ch, 100 + 6 * i, 700, angle=-90)  # font direction down, run to the right
    g = f.glyph("l", 118.3, 700.2, angle=-90)  # fake-bold copy of the last l
    found = dedupe(list(f.glyphs))
    assert [d.paint_index for d in found] == [g.paint_index]
    d = found[0]
    assert d.frame == "run" and d.direction == pytest.approx((1.0, 0.0))
    assert d.value == (pytest.approx(0.3), pytest.approx(0.2))
    assert d.to_json()["frame"] == "run" and "run's advance" in d.describe()


def test_ordinary_text_keeps_the_font_frame() -> None:
    f = GlyphFactory()
    for i, ch in enumerate("hello"):
        f.glyph(ch, 100 + 6 * i, 700)
    f.glyph("5", 100, 680)  # a cell below: no sideways run
    assert run_directions(list(f.glyphs)) == {}


def test_classify_unchanged_for_upright_fake_bold() -> None:
    f = GlyphFactory()
    for i, ch in enumerate("guest"):
        f.glyph(ch, 100 + 6 * i, 700)
    for i, ch in enumerate("guest"):
        f.glyph(ch, 100.4 + 6 * i, 700)
    assert len(dedupe(list(f.glyphs))) == 5
    assert classify  # the pass the page product runs


def _type3_font(pdf: pikepdf.Pdf, bbox: list[float]) -> Any:
    names = {103: "g", 117: "u", 101: "e", 115: "s", 116: "t"}
    procs = pikepdf.Dictionary(
        {f"/{n}": pdf.make_stream(b"500 0 0 0 450 600 d1 0 0 450 600 re f") for n in names.values()}
    )
    differences: list[Any] = []
    for code, name in sorted(names.items()):
        differences += [code, pikepdf.Name(f"/{name}")]
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.Type3,
            FontBBox=bbox,
            FontMatrix=[0.001, 0, 0, 0.001, 0, 0],
            CharProcs=procs,
            Encoding=pikepdf.Dictionary(Type=pikepdf.Name.Encoding, Differences=differences),
            FirstChar=101,
            LastChar=117,
            Widths=[500] * 17,
            Resources=pikepdf.Dictionary(),
        )
    )


def test_type3_fake_bold_through_two_fonts_of_different_fontbbox_is_deduplicated() -> None:
    content = b"BT /T1 12 Tf 72 700 Td (guest) Tj ET BT /T2 12 Tf 72.4 700 Td (guest) Tj ET"
    fonts = {
        "/T1": lambda pdf: _type3_font(pdf, [0, -200, 600, 800]),  # a full em tall
        "/T2": lambda pdf: _type3_font(pdf, [0, 0, 450, 600]),  # the subset's own glyph boxes: 0.6 em
    }
    page = analyze_page(pdf_document(make_pdf([content], fonts)), 1)
    glyphs = page.page.glyphs
    assert glyphs[0].height == pytest.approx(12.0) and glyphs[5].height == pytest.approx(7.2)
    assert abs(glyphs[0].height - glyphs[5].height) > 0.05 * 12.0  # boxes alone fail the size test
    dups = page.classified.duplicates
    assert [(d.paint_index, d.duplicate_of) for d in dups] == [(5 + i, i) for i in range(5)]
    assert all(d.size_basis == "em" for d in dups)
    assert dups[0].value == (pytest.approx(0.4), pytest.approx(0.0))
    assert dups[0].threshold == (pytest.approx(1.2), pytest.approx(2.4))  # 0.1 / 0.2 × the 12 pt em
    assert page.texts["plain"].text == "guest"


def test_type3_em_sizes_still_tell_different_sizes_apart() -> None:
    content = b"BT /T1 12 Tf 72 700 Td (guest) Tj ET BT /T2 10 Tf 72.4 700 Td (guest) Tj ET"
    fonts = {
        "/T1": lambda pdf: _type3_font(pdf, [0, -200, 600, 800]),
        "/T2": lambda pdf: _type3_font(pdf, [0, 0, 450, 600]),
    }
    page = analyze_page(pdf_document(make_pdf([content], fonts)), 1)
    assert not page.classified.duplicates  # 12 pt vs 10 pt: a shadow of another size is no copy


# ------------------------------------------------------------------ a deduped run's survivor


def test_a_deduped_runs_survivor_is_written_with_its_originals() -> None:
    from glyphscope.core.assembly.decisions import SurvivorPlacement

    # a row painted twice: `19`, a line below, then `1.9` over the first (TJ moves back the
    # `.`'s advance so the second `9` lands on the first): 1 and 9 are duplicates, `.` survives
    stream = (
        b"BT /F1 12 Tf 72 700 Td (19) Tj ET\n"
        b"BT /F1 12 Tf 72 680 Td (Corn) Tj ET\n"
        b"BT /F1 12 Tf 72 700 Td [(1.) 278 (9)] TJ ET"
    )
    page = analyze_page(pdf_document(make_pdf([stream])), 1)
    dups = {d.paint_index: d.duplicate_of for d in page.classified.duplicates}
    assert dups == {6: 0, 8: 1}  # the copy's 1 and 9; its '.' (#7) is kept
    plain = page.texts["plain"]
    assert plain.text == "1.9\nCorn"  # was "19\nCorn\n."
    (placed,) = plain.decisions_of(SurvivorPlacement)
    assert (placed.glyph, placed.before, placed.verdict) == (7, 0, "with_originals")
    assert "spec §7" in placed.describe()
    assert page.texts["auto"].text == "1.9\nCorn"


def test_a_copy_that_adds_glyphs_at_its_end_stays_where_it_was_painted() -> None:
    stream = b"BT /F1 12 Tf 72 700 Td (19) Tj ET\nBT /F1 12 Tf 72 680 Td (Corn) Tj ET\nBT /F1 12 Tf 72 700 Td (19 more) Tj ET"
    page = analyze_page(pdf_document(make_pdf([stream])), 1)
    assert page.classified.survivors == {}
