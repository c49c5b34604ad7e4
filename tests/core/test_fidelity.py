"""Fidelity: ligatures, article threads, dedupe along the run, Hangul and cjk_gap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES, assemble
from glyphscope.core.assembly.articles import ARTICLE_SHARE, article_use
from glyphscope.core.assembly.auto import auto_order
from glyphscope.core.assembly.decisions import (
    ArticleBeadRecord,
    ArticleOrderDecision,
    LigatureDecision,
    WordGapDecision,
)
from glyphscope.core.document import open_document
from glyphscope.core.glyph import DecodeSource
from glyphscope.core.params import DEFAULT_PARAMETERS, Parameters
from glyphscope.core.passes import classify, dedupe, run_directions
from glyphscope.core.structure_use import structure_use
from tests import corpus
from tests.glyph_factory import GlyphFactory
from tests.pdfbuild import (
    helvetica,
    identity_h_font,
    identity_tounicode,
    make_pdf,
    to_bytes,
    truetype_program,
)

BOX = (0.0, 0.0, 612.0, 792.0)
SCHEMAS = Path(__file__).resolve().parents[2] / "inspector" / "schemas"


def _doc(pdf: pikepdf.Pdf) -> Any:
    return open_document(to_bytes(pdf))


# ------------------------------------------------------------------ ligatures (point 2)

_LIGATURE_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
    b"/CMapName /Lig-UCS def /CMapType 2 def\n"
    b"1 begincodespacerange <00> <FF> endcodespacerange\n"
    b"1 beginbfrange <20> <7E> <0020> endbfrange\n"
    b"2 beginbfchar <01> <FB01> <02> <FB03> endbfchar\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)


def _ligature_font(pdf: pikepdf.Pdf) -> Any:
    font = helvetica(pdf)
    font.ToUnicode = pdf.make_stream(_LIGATURE_TOUNICODE)
    return font


def _ligature_page(params: Parameters = DEFAULT_PARAMETERS) -> Any:
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Pro\x01le o\x02ce) Tj ET"], {"/F1": _ligature_font})
    return analyze_page(_doc(pdf), 1, params)


def test_ligatures_are_written_as_letters_with_a_decision_per_glyph() -> None:
    page = _ligature_page()
    fi = next(g for g in page.classified.visible if g.unicode == "\ufb01")  # the record keeps U+FB01
    for mode in MODES:
        if mode != "structure":  # no structure tree: structure mode has no text
            assert "Profile office" in (page.texts[mode].text or ""), mode
    text = page.texts["plain"]
    ligatures = text.decisions_of(LigatureDecision)
    assert [(d.raw, d.letters, d.verdict) for d in ligatures] == [
        ("\ufb01", "fi", "expanded"),
        ("\ufb03", "ffi", "expanded"),
    ]
    assert (
        ligatures[0].glyph == fi.paint_index and ligatures[0].value is None and ligatures[0].threshold is None
    )
    # several characters, one glyph: the character map links both letters to it
    chars = text.chars_of_glyph(fi.paint_index)
    assert text.text is not None and text.text[chars.start : chars.stop] == "fi"
    assert [text.glyph_of_char(i) for i in chars] == [fi.paint_index, fi.paint_index]
    assert ligatures[0].to_json()["code_points"] == ["U+FB01"]
    assert any(d.kind == "ligature" for d in page.decisions("plain"))


def test_keep_ligatures_keeps_the_code_points() -> None:
    page = _ligature_page(Parameters(keep_ligatures=True))
    text = page.texts["plain"]
    assert text.text == "Pro\ufb01le o\ufb03ce"
    assert not text.decisions_of(LigatureDecision)
    assert Parameters(keep_ligatures=1.0).keep_ligatures is True  # a Tuning control hands 0.0 / 1.0
    with pytest.raises(ValueError):
        Parameters(keep_ligatures=0.5)  # type: ignore[arg-type]


# ------------------------------------------------------------------ Hangul and cjk_gap (point 6)


def test_hangul_pairs_take_the_word_gap_rule() -> None:
    f = GlyphFactory()
    f.glyph("한", 72, 700)
    f.glyph("국", 78, 700)  # touching: 0 gap
    f.glyph("어", 90, 700)  # 6 pt gap > 0.15 × 12 = 1.8
    text = assemble(f.glyphs, "plain", visible_box=BOX)
    assert text.text == "한국 어"
    gaps = text.decisions_of(WordGapDecision)
    assert [d.verdict for d in gaps] == ["below_threshold", "inserted"]
    assert gaps[1].value == pytest.approx(6.0) and gaps[1].threshold == pytest.approx(1.8)


def test_cjk_gap_inserts_a_space_between_far_ideographs_as_its_own_verdict() -> None:
    f = GlyphFactory()
    f.glyph("日", 72, 700)
    f.glyph("本", 84, 700)  # 6 pt gap ≤ 1.0 × 12: justification, glued
    f.glyph("語", 105, 700)  # 15 pt gap > 12: separate cells
    text = assemble(f.glyphs, "plain", visible_box=BOX)
    assert text.text == "日本 語"
    gaps = text.decisions_of(WordGapDecision)
    assert [d.verdict for d in gaps] == ["cjk_pair", "cjk_gap"]
    assert (gaps[0].value, gaps[0].threshold) == (pytest.approx(6.0), pytest.approx(12.0))
    assert (gaps[1].value, gaps[1].threshold) == (pytest.approx(15.0), pytest.approx(12.0))
    assert gaps[1].inserted and gaps[1].to_json()["cjk_factor"] == 1.0
    assert "cjk_gap" in gaps[1].describe()
    wider = assemble(f.glyphs, "plain", Parameters(cjk_gap=1.5), visible_box=BOX)
    assert wider.text == "日本語"  # 15 ≤ 18


def test_cjk_gap_on_a_pikepdf_page() -> None:
    content = b"BT /F1 10 Tf 72 700 Td <65E5672C> Tj 40 0 Td <8A9E> Tj ET"
    pdf = make_pdf([content], {"/F1": lambda pdf: identity_h_font(pdf, tounicode=identity_tounicode())})
    page = analyze_page(_doc(pdf), 1)
    assert page.texts["plain"].text == "日本 語"
    assert analyze_page(_doc(pdf), 1, Parameters(cjk_gap=3.0)).texts["plain"].text == "日本語"


def test_cli_takes_cjk_gap_and_keep_ligatures() -> None:
    from glyphscope.inspector.cli.parser import build_parser
    from glyphscope.inspector.cli.shared import parameters

    args = build_parser().parse_args(
        ["text", "x.pdf", "--cjk-gap", "2", "--keep-ligatures", "--mode", "articles"]
    )
    params = parameters(args)
    assert params.cjk_gap == 2.0 and params.keep_ligatures is True
    defaults = parameters(build_parser().parse_args(["text", "x.pdf"]))
    assert defaults.cjk_gap == 1.0 and defaults.keep_ligatures is False


# ------------------------------------------------------------------ dedupe along the run (point 5)


def _sideways_vertical_pdf(step: float) -> pikepdf.Pdf:
    """An Identity-V font whose glyphs are placed one by one along a horizontal line."""

    def font(pdf: pikepdf.Pdf) -> Any:
        f = identity_h_font(pdf, tounicode=identity_tounicode())
        f.Encoding = pikepdf.Name("/Identity-V")
        return f

    x = 100.0
    ops = ["BT /F1 12 Tf"]
    for code in ("0077", "0069", "006C", "006C"):  # w i l l
        ops.append(f"1 0 0 1 {x:.2f} 700 Tm <{code}> Tj")
        x += step if code == "006C" else 7.0
    ops.append("ET")
    return make_pdf([" ".join(ops).encode()], {"/F1": font})


def _column_pdf(step: float) -> pikepdf.Pdf:
    """An Identity-V font painting A B C D E down one column, each glyph `step` pt below the last."""

    def font(pdf: pikepdf.Pdf) -> Any:
        f = identity_h_font(pdf, tounicode=identity_tounicode())
        f.Encoding = pikepdf.Name("/Identity-V")
        return f

    ops = ["BT /F1 12 Tf"]
    for i, code in enumerate(("0041", "0042", "0043", "0044", "0045")):
        ops.append(f"1 0 0 1 300 {700 - step * i:.2f} Tm <{code}> Tj")
    ops.append("ET")
    return make_pdf([" ".join(ops).encode()], {"/F1": font})


@pytest.mark.parametrize(("step", "expected"), [(40.0, "A B C D E"), (12.0, "ABCDE")])
def test_word_gaps_down_a_vertical_column_are_decided_along_it(
    tmp_path: Path, step: float, expected: str
) -> None:
    # spec §3 along the column: letters 40 pt apart read as separate words, as pdftotext and
    # MuPDF give them; letters one em apart (the vertical advance) touch and read as one word
    pdf = _column_pdf(step)
    doc = _doc(pdf)
    analysis = analyze_page(doc, 1)
    assert analysis.texts["plain"].text == expected
    gaps = analysis.texts["plain"].decisions_of(WordGapDecision)
    assert len(gaps) == 4 and all(g.direction == pytest.approx((0.0, -1.0)) for g in doc.interpret(1).glyphs)
    assert {round(g.gap, 3) for g in gaps} == {round(step - 12.0, 3)}  # the advance down is 1000/1000 em
    assert {round(g.threshold, 3) for g in gaps} == {round(0.15 * gaps[0].height, 3)}
    assert all(g.inserted == (step == 40.0) for g in gaps)


def test_dedupe_measures_along_the_run_a_vertical_font_follows() -> None:
    doc = _doc(_sideways_vertical_pdf(2.0))
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


def test_corpus_vfont_reads_will() -> None:
    corpus.require()
    doc = open_document(str(corpus.CORPUS / "pdfbox__PDFBOX-3127-VFont.pdf"))
    text = analyze_page(doc, 1).texts["plain"].text or ""
    assert "Insurance will hold a public" in text
    assert not analyze_page(doc, 1).classified.duplicates


def test_corpus_vfont_brackets_turned_across_the_run_stay_on_their_line() -> None:
    # The brackets of "Section 38-3-110(5)" are painted turned by 90 degrees inside a sideways
    # Identity-V run: measured along their own box edge they left their place ("5︵  T︶hursday").
    corpus.require()
    page = analyze_page(open_document(str(corpus.CORPUS / "pdfbox__PDFBOX-3127-VFont.pdf")), 1)
    for mode in ("plain", "layout"):
        assert "110︵5︶ Thursday, April 29, 2010" in " ".join((page.texts[mode].text or "").split()), mode


# ------------------------------------------------------------------ article threads (point 3)


def _articles_pdf(bead_rects: list[list[float]]) -> pikepdf.Pdf:
    content = (
        b"BT /F1 12 Tf 72 700 Td (Alpha) Tj ET "
        b"BT /F1 12 Tf 300 700 Td (Beta) Tj ET "
        b"BT /F1 12 Tf 72 500 Td (Gamma) Tj ET"
    )
    pdf = make_pdf([content])
    page = pdf.pages[0].obj
    thread = pdf.make_indirect(
        pikepdf.Dictionary(Type=pikepdf.Name.Thread, I=pikepdf.Dictionary(Title="Story"))
    )
    beads = [
        pdf.make_indirect(pikepdf.Dictionary(Type=pikepdf.Name.Bead, T=thread, P=page, R=rect))
        for rect in bead_rects
    ]
    for i, bead in enumerate(beads):
        bead.N = beads[(i + 1) % len(beads)]
        bead.V = beads[i - 1]
    thread.F = beads[0]
    pdf.Root.Threads = pikepdf.Array([thread])
    page.B = pikepdf.Array(beads)
    return pdf


def test_articles_mode_reads_beads_in_thread_order_then_the_rest() -> None:
    doc = _doc(_articles_pdf([[60, 480, 200, 530], [60, 680, 200, 730]]))  # Gamma first, then Alpha
    page = analyze_page(doc, 1)
    assert page.texts["plain"].text == "Alpha Beta\nGamma"
    text = page.texts["articles"]
    assert text.text == "Gamma\nAlpha\nBeta"
    beads = text.decisions_of(ArticleBeadRecord)
    assert [(b.number, b.thread, b.index, len(b.glyphs)) for b in beads] == [(1, 0, 0, 5), (2, 0, 1, 5)]
    assert beads[0].quad == ((60.0, 480.0), (200.0, 480.0), (200.0, 530.0), (60.0, 530.0))
    order = text.decisions_of(ArticleOrderDecision)[0]
    assert (order.value, order.threshold, order.verdict) == (10.0, ARTICLE_SHARE * 14, "articles")
    # auto: no structure tree, beads hold 10 of 14 glyphs ≥ 7 → article order
    auto = page.texts["auto"]
    assert auto.text == "Gamma\nAlpha\nBeta" and auto.structured is False and auto.order == "articles"
    assert auto.reason is not None and "article order" in auto.reason
    assert page.structure.beads[0].title == "Story"


def test_auto_keeps_plain_when_beads_hold_less_than_half() -> None:
    doc = _doc(_articles_pdf([[60, 480, 200, 530]]))  # only Gamma: 5 of 14 < 7
    page = analyze_page(doc, 1)
    assert page.texts["articles"].text == "Gamma\nAlpha Beta"
    order = page.texts["articles"].decisions_of(ArticleOrderDecision)[0]
    assert (order.value, order.threshold, order.verdict) == (5.0, 7.0, "too_few")
    assert page.texts["auto"].text == "Alpha Beta\nGamma" and page.texts["auto"].order == "plain"
    use = structure_use(page.structure, page.classified.visible)
    assert auto_order(use, article_use(page.structure, page.classified.visible)) == "plain"


def test_articles_without_threads_is_plain_order_with_a_reason() -> None:
    pdf = make_pdf([b"BT /F1 12 Tf 72 700 Td (Alpha) Tj ET"])
    text = analyze_page(_doc(pdf), 1).texts["articles"]
    assert text.text == "Alpha" and text.reason == "no article beads on this page"


def test_a_looping_bead_chain_ends() -> None:
    pdf = _articles_pdf([[60, 480, 200, 530], [60, 680, 200, 730]])
    bead = pdf.Root.Threads[0].F
    bead.N.N = bead.N  # the second bead points at itself: the walk stops there
    page = analyze_page(_doc(pdf), 1)
    assert len(page.structure.beads) == 2


def test_corpus_poems_read_german_first() -> None:
    corpus.require()
    doc = open_document(str(corpus.CORPUS / "pdfbox__PDFBOX-3110-poems-beads-cropbox.pdf"))
    page = analyze_page(doc, 1)
    assert (page.texts["plain"].text or "").startswith("ARGAN")
    for mode in ("articles", "auto"):
        assert (page.texts[mode].text or "").startswith("Wer reitet so spät durch Nacht und Wind?"), mode


def test_modes_in_the_schemas_follow_core_modes() -> None:
    for name in ("text", "decisions"):
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
        assert schema["properties"]["mode"]["enum"] == list(MODES)
    assert "articles" in MODES


def test_classify_unchanged_for_upright_fake_bold() -> None:
    f = GlyphFactory()
    for i, ch in enumerate("guest"):
        f.glyph(ch, 100 + 6 * i, 700)
    for i, ch in enumerate("guest"):
        f.glyph(ch, 100.4 + 6 * i, 700)
    assert len(dedupe(list(f.glyphs))) == 5
    assert classify  # the pass the page product runs


# ------------------------------------------------------------------ Type3 fake bold (point 7)


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
    page = analyze_page(_doc(make_pdf([content], fonts)), 1)
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
    page = analyze_page(_doc(make_pdf([content], fonts)), 1)
    assert not page.classified.duplicates  # 12 pt vs 10 pt: a shadow of another size is no copy


# ------------------------------------------------------------------ decoding by the font program (point 8)


def _symbol_truetype(codes: dict[int, str]) -> bytes:
    """A TrueType program whose only cmap is (3,0): 0xF000 + code → glyph (post names kept)."""
    return truetype_program(
        {0xF000 + c: n for c, n in codes.items()},
        0,
        advance=500,
        ink_width=400,
        family="Sym",
        keep_glyph_names=True,
    )


TIBET_CODES = {0x4C: "parenleft", 0x4D: "parenright", 0x54: "T", 0x69: "i", 0x62: "b", 0x65: "e", 0x74: "t"}


def _symbolic_truetype_font(pdf: pikepdf.Pdf, codes: dict[int, str], program: bytes | None = None) -> Any:
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/ABCDEF+Sym"),
        Flags=4,  # symbolic
        FontBBox=[0, -200, 1000, 800],
        ItalicAngle=0,
        Ascent=800,
        Descent=-200,
        CapHeight=700,
        StemV=80,
        FontFile2=pdf.make_stream(_symbol_truetype(codes) if program is None else program),
    )
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.TrueType,
            BaseFont=pikepdf.Name("/ABCDEF+Sym"),
            FirstChar=32,
            LastChar=126,
            Widths=[500] * 95,
            FontDescriptor=pdf.make_indirect(descriptor),
        )
    )


def test_symbolic_truetype_reads_its_own_cmap_before_the_windows_1252_guess() -> None:
    # The font draws "(" at code 0x4C and ")" at 0x4D: the Windows-1252 guess read "LTibetM".
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"],
        {"/F1": lambda pdf: _symbolic_truetype_font(pdf, TIBET_CODES)},
    )
    page = analyze_page(_doc(pdf), 1)
    assert page.texts["plain"].text == "(Tibet)"
    assert {g.decode_source for g in page.page.glyphs} == {DecodeSource.FONT_PROGRAM}
    assert "font program (TrueType cmap)" in page.page.fonts[0].info.encoding
    assert not [d for d in page.decisions("plain") if d.kind == "decode_fallback"]


def test_the_font_table_says_the_embedded_program_answered() -> None:
    from glyphscope.core.fonts.explain import NOT_REACHED, explain_code
    from glyphscope.core.fonts.loader import load_font

    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"],
        {"/F1": lambda pdf: _symbolic_truetype_font(pdf, TIBET_CODES)},
    )
    font = load_font(pdf.pages[0].Resources.Font.F1, "/F1")
    explained = explain_code(font, 0x4C)
    assert (explained.unicode, explained.source) == ("(", DecodeSource.FONT_PROGRAM)
    steps = {s.name: s for s in explained.steps}
    assert [s.name for s in explained.steps] == [
        "ToUnicode",
        "Differences",
        "base encoding",
        "font program",
        "guess",
    ]
    assert steps["font program"].answered
    assert steps["font program"].outcome == "the embedded program's cmap / glyph names → U+0028 “(”"
    assert steps["guess"].outcome == NOT_REACHED
    assert steps["ToUnicode"].outcome == "the font has no /ToUnicode"


def test_private_use_code_points_are_a_finding_with_the_glyph_name_tried() -> None:
    codes = {**TIBET_CODES, 0x41: "g99"}  # a glyph with no standard name and no Unicode cmap
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (TibetA) Tj ET"], {"/F1": lambda pdf: _symbolic_truetype_font(pdf, codes)}
    )
    page = analyze_page(_doc(pdf), 1)
    messages = [f.message for f in page.findings if "private-use" in f.message]
    assert messages and "<41> → U+F041 (glyph g99 tried: not in the Adobe Glyph List)" in messages[0]
    assert page.texts["plain"].text == "TibetA"  # the code itself stays a guess, decode_source says so
    assert page.page.glyphs[-1].decode_source is DecodeSource.FALLBACK


def test_private_use_from_tounicode_is_a_finding_too() -> None:
    def font(pdf: pikepdf.Pdf) -> Any:
        f = helvetica(pdf)
        f.ToUnicode = pdf.make_stream(
            b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            b"1 begincodespacerange <00> <FF> endcodespacerange\n"
            b"1 beginbfchar <41> <F041> endbfchar\n"
            b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
        )
        return f

    page = analyze_page(_doc(make_pdf([b"BT /F1 12 Tf 72 700 Td (A) Tj ET"], {"/F1": font})), 1)
    assert any("<41> → U+F041" in f.message for f in page.findings)


def test_a_broken_font_program_falls_through_to_the_guess_with_a_problem() -> None:
    pdf = make_pdf(
        [b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"],
        {"/F1": lambda pdf: _symbolic_truetype_font(pdf, {}, program=b"not a font")},
    )
    page = analyze_page(_doc(pdf), 1)
    assert page.texts["plain"].text == "LTibetM"
    assert any("font program not usable" in p.message for p in page.page.fonts[0].info.problems)


def test_beads_without_page_or_rect_are_skipped_with_a_problem() -> None:
    pdf = _articles_pdf([[60, 480, 200, 530], [60, 680, 200, 730]])
    del pdf.Root.Threads[0].F.N.R  # the second bead loses its rectangle
    page = analyze_page(_doc(pdf), 1)
    assert len(page.structure.beads) == 1
    assert page.structure.bead_problems == ("thread 1, bead 2: no page or no rectangle (skipped)",)
    assert page.texts["articles"].text == "Gamma\nAlpha Beta"


def _cff_program(encoding: dict[int, str]) -> bytes:
    """A bare CFF (Type1C) program whose built-in encoding puts the given glyphs at the codes."""
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    names = [".notdef", *sorted(set(encoding.values()))]
    fb = FontBuilder(1000, isTTF=False)
    fb.setupGlyphOrder(names)
    fb.setupCharacterMap({})
    charstrings = {}
    for name in names:
        pen = T2CharStringPen(500, None)
        pen.moveTo((0, 0))
        pen.lineTo((0, 700))
        pen.lineTo((400, 700))
        pen.closePath()
        charstrings[name] = pen.getCharString()
    fb.setupCFF("Sym", {"FullName": "Sym"}, charstrings, {})
    table = [".notdef"] * 256
    for code, name in encoding.items():
        table[code] = name
    fb.font["CFF "].cff.topDictIndex[0].Encoding = table
    return bytes(fb.font["CFF "].compile(fb.font))


def test_symbolic_cff_font_reads_its_glyph_names_before_the_guess() -> None:
    def font(pdf: pikepdf.Pdf) -> Any:
        descriptor = pikepdf.Dictionary(
            Type=pikepdf.Name.FontDescriptor,
            FontName=pikepdf.Name("/ABCDEF+Sym"),
            Flags=4,
            FontBBox=[0, -200, 1000, 800],
            ItalicAngle=0,
            Ascent=800,
            Descent=-200,
            CapHeight=700,
            StemV=80,
            FontFile3=pdf.make_stream(_cff_program(TIBET_CODES), Subtype=pikepdf.Name.Type1C),
        )
        return pdf.make_indirect(
            pikepdf.Dictionary(
                Type=pikepdf.Name.Font,
                Subtype=pikepdf.Name.Type1,
                BaseFont=pikepdf.Name("/ABCDEF+Sym"),
                FirstChar=32,
                LastChar=126,
                Widths=[500] * 95,
                FontDescriptor=pdf.make_indirect(descriptor),
            )
        )

    page = analyze_page(_doc(make_pdf([b"BT /F1 12 Tf 72 700 Td (LTibetM) Tj ET"], {"/F1": font})), 1)
    assert page.texts["plain"].text == "(Tibet)"
    assert {g.decode_source for g in page.page.glyphs} == {DecodeSource.FONT_PROGRAM}
    assert "font program (CFF encoding)" in page.page.fonts[0].info.encoding


@pytest.mark.parametrize(
    ("usable", "trusted", "beads_usable", "expected"),
    [
        (True, True, True, "structure"),  # trusted structure wins over beads
        (True, False, True, "articles"),  # usable but untrusted: beads
        (False, False, True, "articles"),
        (True, False, False, "plain"),
        (False, False, False, "plain"),
    ],
)
def test_auto_order_is_one_rule(usable: bool, trusted: bool, beads_usable: bool, expected: str) -> None:
    from types import SimpleNamespace

    structure = SimpleNamespace(usable=usable, trusted=trusted)
    articles = SimpleNamespace(usable=beads_usable)
    assert auto_order(structure, articles) == expected  # type: ignore[arg-type]


def test_layout_and_columns_read_a_sideways_vertical_run_as_a_line() -> None:
    page = analyze_page(_doc(_sideways_vertical_pdf(3.0)), 1)
    assert page.texts["plain"].text == "will"
    assert (page.texts["layout"].text or "").strip() == "will"  # was "ll\\n i\\n w": a row per letter
