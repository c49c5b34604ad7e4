"""Fidelity, round 4: auto's reading order for a scrambled stream, and the misreads of real files
(each rule with a small generated PDF)."""

from __future__ import annotations

from typing import Any

import pikepdf

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly.auto import auto_order
from glyphscope.core.assembly.decisions import ReadingOrderDecision
from glyphscope.core.assembly.reading_order import SCRAMBLED_MIN_JUMPS, SCRAMBLED_SHARE
from glyphscope.core.document import open_document
from tests.pdfbuild import make_pdf, to_bytes


def _doc(pdf: pikepdf.Pdf) -> Any:
    return open_document(to_bytes(pdf))


def _lines(rows: list[tuple[float, float, str]], size: float = 12) -> bytes:
    """One BT…ET per (x, y, text), in the order given: the content stream's order."""
    return b"\n".join(f"BT /F1 {size:g} Tf {x:g} {y:g} Td ({t}) Tj ET".encode("latin-1") for x, y, t in rows)


# ------------------------------------------------------------------ auto reads a scrambled stream (h)

# eight lines 20 pt apart, painted bottom, top, second from bottom, second from top…
_WORDS = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
_SCRAMBLED = [(72, 700 - 20 * k, _WORDS[k]) for k in (7, 0, 6, 1, 5, 2, 4, 3)]


def test_auto_reads_a_scrambled_stream_top_to_bottom_with_the_measure() -> None:
    page = analyze_page(_doc(make_pdf([_lines(_SCRAMBLED)])), 1)
    assert page.texts["plain"].text == "eight\none\nseven\ntwo\nsix\nthree\nfive\nfour"  # the stream's order
    auto = page.texts["auto"]
    assert auto.text == "\n".join(_WORDS) and auto.order == "geometric" and auto.structured is False
    (reading,) = auto.decisions_of(ReadingOrderDecision)
    # 8 lines, 7 pairs: 560→700, 580→680, 600→660, 620→640 go up: 4 backward, none interleaved
    assert (reading.lines, reading.backward, reading.interleaved) == (8, 4, 0)
    assert reading.value == 4 / 7 and reading.threshold == SCRAMBLED_SHARE == 0.25
    assert reading.verdict == "geometric" and reading.min_jumps == SCRAMBLED_MIN_JUMPS == 3
    assert (
        "scrambled (4 backward jump(s) + 0 interleaved line(s) in 7 line pairs = 0.57" in reading.describe()
    )
    assert auto.reason is not None and "columns, then lines top to bottom" in auto.reason
    assert page.texts["plain"].decisions_of(ReadingOrderDecision) == []  # plain stays stream order


def test_three_lines_with_one_jump_are_not_scrambled() -> None:
    rows = [(72, 660, "three"), (72, 700, "one"), (72, 680, "two")]  # a page number painted first
    page = analyze_page(_doc(make_pdf([_lines(rows)])), 1)
    assert page.texts["auto"].text == "three\none\ntwo" and page.texts["auto"].order == "plain"


def test_scrambled_two_column_prose_reads_column_by_column() -> None:
    left = [
        "Alpha beta gamma delta epsilon",
        "zeta eta theta iota kappa",
        "lambda mu nu xi omicron",
        "pi rho sigma tau upsilon",
        "phi chi psi omega alpha",
        "bravo charlie delta echo",
    ]
    right = [
        "one two three four five six",
        "seven eight nine ten eleven",
        "twelve thirteen fourteen",
        "fifteen sixteen seventeen",
        "eighteen nineteen twenty",
        "twentyone twentytwo three",
    ]
    rows: list[tuple[float, float, str]] = []
    for k in (5, 0, 4, 1, 3, 2):  # each row's two halves, rows out of order
        rows += [(300, 700 - 14 * k, right[k]), (72, 700 - 14 * k, left[k])]
    page = analyze_page(_doc(make_pdf([_lines(rows, 10)])), 1)
    auto = page.texts["auto"]
    assert auto.order == "geometric"
    assert auto.text == "\n".join(left + right)


def test_auto_order_reads_geometric_only_after_structure_and_articles() -> None:
    from types import SimpleNamespace

    scrambled = ReadingOrderDecision(8, 4, 0, SCRAMBLED_SHARE, SCRAMBLED_MIN_JUMPS)
    kept = ReadingOrderDecision(8, 1, 0, SCRAMBLED_SHARE, SCRAMBLED_MIN_JUMPS)
    trusted = SimpleNamespace(usable=True, trusted=True)
    none = SimpleNamespace(usable=False, trusted=False)
    beads = SimpleNamespace(usable=True)
    no_beads = SimpleNamespace(usable=False)
    assert auto_order(trusted, no_beads, scrambled) == "structure"  # type: ignore[arg-type]
    assert auto_order(none, beads, scrambled) == "articles"  # type: ignore[arg-type]
    assert auto_order(none, no_beads, scrambled) == "geometric"  # type: ignore[arg-type]
    assert auto_order(none, no_beads, kept) == "plain"  # type: ignore[arg-type]


def test_a_stream_in_reading_order_keeps_plain_order() -> None:
    rows = [(72, 700 - 20 * k, f"line{k}") for k in range(8)]
    page = analyze_page(_doc(make_pdf([_lines(rows)])), 1)
    assert page.texts["auto"].text == page.texts["plain"].text and page.texts["auto"].order == "plain"
    assert page.texts["auto"].decisions_of(ReadingOrderDecision) == []


# ------------------------------------------------------------------ a deduped run's survivor (a)


def test_a_deduped_runs_survivor_is_written_with_its_originals() -> None:
    from glyphscope.core.assembly.decisions import SurvivorPlacement

    # a row painted twice: `19`, a line below, then `1.9` over the first (TJ moves back the
    # `.`'s advance so the second `9` lands on the first): 1 and 9 are duplicates, `.` survives
    stream = (
        b"BT /F1 12 Tf 72 700 Td (19) Tj ET\n"
        b"BT /F1 12 Tf 72 680 Td (Corn) Tj ET\n"
        b"BT /F1 12 Tf 72 700 Td [(1.) 278 (9)] TJ ET"
    )
    page = analyze_page(_doc(make_pdf([stream])), 1)
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
    page = analyze_page(_doc(make_pdf([stream])), 1)
    assert page.classified.survivors == {}


# ------------------------------------------------------------------ annotation text between words (b)


def _widget_page(content: bytes, rect: list[float], appearance: bytes, font: Any = None) -> bytes:
    """A page with `content` and one widget whose /AP /N draws `appearance` in `rect`."""
    from tests.pdfbuild import helvetica

    pdf = make_pdf([content])
    w, h = rect[2] - rect[0], rect[3] - rect[1]
    ap = pdf.make_stream(appearance)
    ap.Type, ap.Subtype, ap.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, w, h]
    ap.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font(pdf) if font else helvetica(pdf)))
    widget = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Annot,
            Subtype=pikepdf.Name.Widget,
            Rect=rect,
            FT=pikepdf.Name.Btn,
            T=pikepdf.String("box"),
            AP=pikepdf.Dictionary(N=ap),
        )
    )
    pdf.pages[0].obj.Annots = pikepdf.Array([widget])
    pdf.Root.AcroForm = pikepdf.Dictionary(Fields=pikepdf.Array([widget]))
    return to_bytes(pdf)


def test_annotation_text_is_placed_between_page_words_never_inside_one() -> None:
    from glyphscope.core.assembly.decisions import AnnotationPlacement

    # "Check" spans x 72–106; the widget's X is centred at x ≈ 101, over the "k"
    data = _widget_page(
        b"BT /F1 12 Tf 72 700 Td (Check Box) Tj ET", [95, 695, 115, 715], b"BT /F1 12 Tf 2 5 Td (X) Tj ET"
    )
    page = analyze_page(open_document(data), 1)
    plain = page.texts["plain"]
    assert plain.text == "Check X Box"  # was "ChecXk Box"
    (placed,) = plain.decisions_of(AnnotationPlacement)
    glyphs = page.page.glyphs
    c = [g.paint_index for g in glyphs if g.unicode == "c" and g.annotation < 0][0]
    k = [g.paint_index for g in glyphs if g.unicode == "k"][0]
    x = [g.paint_index for g in glyphs if g.annotation >= 0][0]
    assert (placed.glyph, placed.found, placed.word_end, placed.before) == (x, c, k, k)
    assert placed.verdict == "after_word" and "between page words" in placed.describe()


# ------------------------------------------------------------------ ZapfDingbats (c)


def _zapf(pdf: pikepdf.Pdf) -> Any:
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.ZapfDingbats
        )
    )


def test_zapf_dingbats_without_tounicode_reads_its_glyph_list() -> None:
    from glyphscope.core.glyph import DecodeSource

    # codes 4 and 8 are a20 and a24 in the font's AFM: ✔ U+2714 and ✘ U+2718 (pdftotext reads the same)
    page = analyze_page(_doc(make_pdf([b"BT /F1 12 Tf 72 700 Td (48) Tj ET"], {"/F1": _zapf})), 1)
    glyphs = page.page.glyphs
    assert [g.unicode for g in glyphs] == ["\u2714", "\u2718"]
    assert {g.decode_source for g in glyphs} == {DecodeSource.BASE_ENCODING}  # not a guess any more
    assert page.texts["plain"].text == "\u2714\u2718"
    # the AFM widths: a20 846, a24 ... the pen moves by the glyph's own advance
    assert round(glyphs[0].glyph_end[0] - glyphs[0].origin[0], 3) == round(0.846 * 12, 3)
    (font,) = page.page.fonts
    assert "Zapf Dingbats glyph list" in font.info.encoding


def test_zapf_dingbats_differences_names_read_the_glyph_list() -> None:
    def font(pdf: pikepdf.Pdf) -> Any:
        f = _zapf(pdf)
        f.Encoding = pikepdf.Dictionary(Differences=[65, pikepdf.Name("/a20"), pikepdf.Name("/a12")])
        return f

    page = analyze_page(_doc(make_pdf([b"BT /F1 12 Tf 72 700 Td (AB) Tj ET"], {"/F1": font})), 1)
    assert page.texts["plain"].text == "\u2714\u261e"


# ------------------------------------------------------------------ comb fields (f)


def _comb_page(ff: int, max_len: int | None) -> bytes:
    cells = b" ".join(f"({d}) Tj 20 0 Td".encode() for d in "12345")
    data = _widget_page(
        b"BT /F1 12 Tf 72 700 Td (Code:) Tj ET",
        [120, 695, 220, 715],
        b"BT /F1 12 Tf 6 5 Td " + cells + b" ET",
    )
    pdf = pikepdf.open(__import__("io").BytesIO(data))
    widget = pdf.pages[0].obj.Annots[0]
    widget.FT, widget.Ff = pikepdf.Name.Tx, ff
    if max_len is not None:
        widget.MaxLen = max_len
    return to_bytes(pdf)


def test_a_comb_field_reads_as_one_word_with_a_decision_saying_why() -> None:
    from glyphscope.core.assembly.decisions import CombFieldDecision

    page = analyze_page(open_document(_comb_page(1 << 24, 5)), 1)
    assert page.page.annotations[0].comb == 5
    plain = page.texts["plain"]
    assert plain.text == "Code: 12345"  # was "Code: 1 2 3 4 5"
    combs = plain.decisions_of(CombFieldDecision)
    assert len(combs) == 4 and {d.verdict for d in combs} == {"comb"}
    first = combs[0]
    # cells 100 / 5 = 20 pt apart; a 12 pt digit is 6.672 pt wide: the gap is 13.328 pt
    assert (first.threshold, first.cells, round(first.value, 3)) == (20.0, 5, 13.328)
    assert "comb field (5 cells of 20.00 pt" in first.describe()
    assert page.texts["auto"].text == "Code: 12345"


def test_without_the_comb_flag_the_cells_stay_apart() -> None:
    page = analyze_page(open_document(_comb_page(0, 5)), 1)
    assert page.page.annotations[0].comb == 0
    assert page.texts["plain"].text == "Code: 1 2 3 4 5"
    multiline = analyze_page(open_document(_comb_page((1 << 24) | (1 << 12), 5)), 1)
    assert multiline.page.annotations[0].comb == 0  # Multiline cancels Comb (Table 228)


# ------------------------------------------------------------------ object scan when /Root is not found (g)


def _sparse_pdf(numbers: list[int], size: int) -> bytes:
    """A consistent but sparse xref (one subsection per object) keeping high object numbers."""
    cat, pages, page, content, font = numbers
    text = b"BT /F1 12 Tf 72 700 Td (Hello sparse) Tj ET"
    objs = {
        cat: b"<< /Type /Catalog /Pages %d 0 R >>" % pages,
        pages: b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % page,
        page: b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> "
        b"/Contents %d 0 R >>" % (pages, font, content),
        content: b"<< /Length %d >>\nstream\n%s\nendstream" % (len(text), text),
        font: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    }
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for n in sorted(objs):
        offsets[n] = len(out)
        out += b"%d 0 obj\n%s\nendobj\n" % (n, objs[n])
    xref = len(out)
    out += b"xref\n0 1\n0000000000 65535 f \n" + b"".join(
        b"%d 1\n%010d 00000 n \n" % (n, offsets[n]) for n in sorted(objs)
    )
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, cat, xref)
    return bytes(out)


def test_a_sparse_xref_that_hides_the_catalog_from_qpdf_is_read_by_renumbering_the_objects() -> None:
    from glyphscope.core.diagnostics import DiagnosticKind
    from glyphscope.core.page_tree_repair import renumbered_copy

    data = _sparse_pdf([10960, 10961, 10962, 10963, 10964], 10965)
    try:
        pikepdf.open(__import__("io").BytesIO(data))
        qpdf_refuses = False
    except pikepdf.PdfError as exc:
        qpdf_refuses = "unable to find /Root dictionary" in str(exc)
    doc = open_document(data)
    assert doc.page_count == 1
    assert analyze_page(doc, 1).texts["plain"].text == "Hello sparse"
    if qpdf_refuses:  # libqpdf 12; qpdf 11 reads the file as it is
        (warning,) = doc.warnings
        assert "unable to find /Root dictionary" in warning and "objects renumbered 1…n" in warning
        assert DiagnosticKind.PAGE_TREE_REPAIRED in {d.kind for d in doc.diagnostics}
    copy = renumbered_copy(data)
    assert copy is not None and b"/Root 1 0 R" in copy and b"10962 0 R" not in copy


def test_a_densely_numbered_or_encrypted_file_is_not_renumbered() -> None:
    from glyphscope.core.page_tree_repair import renumbered_copy

    assert renumbered_copy(_sparse_pdf([1, 2, 3, 4, 5], 6)) is None
    encrypted = _sparse_pdf([10960, 10961, 10962, 10963, 10964], 10965).replace(
        b"/Size", b"/Encrypt 9 0 R /Size"
    )
    assert renumbered_copy(encrypted) is None


# ------------------------------------------------------------------ Arabic: word gaps, backward jumps, ActualText (d)

_ARABIC_TOUNICODE = (
    b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Ar def /CMapType 2 def\n"
    b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
    b"3 beginbfrange <0020> <00FF> <0020> <0600> <06FF> <0600> <FE70> <FEFF> <FE70> endbfrange\n"
    b"endcmap CMapName currentdict /CMap defineresource pop end end\n"
)
_MARHABA = "\ufee3\u0631\ufea3\ufe91\ufe8e"  # ﻣرﺣﺑﺎ, presentation forms, logical order
_BILALAM = "\ufe91\ufe8e\ufedf\ufecc\ufe8e\ufedf\u0645"  # ﺑﺎﻟﻌﺎﻟم


def _hex(text: str) -> str:
    return "<" + "".join(f"{ord(c):04X}" for c in text) + ">"


def _arabic_page(content: str) -> Any:
    from tests.pdfbuild import identity_h_font

    pdf = make_pdf([content.encode()], {"/F1": lambda p: identity_h_font(p, tounicode=_ARABIC_TOUNICODE)})
    return analyze_page(_doc(pdf), 1)


def test_presentation_form_arabic_painted_leftwards_keeps_its_word_gap() -> None:
    from glyphscope.core.assembly.decisions import WordGapDecision

    # reading order, glyph by glyph leftwards (each 10 pt wide), 4 pt between the words, no space glyph
    parts, x = [], 400
    for word in (_MARHABA, _BILALAM):
        for ch in word:
            x -= 10
            parts.append(f"1 0 0 1 {x} 700 Tm {_hex(ch)} Tj")
        x -= 4
    plain = _arabic_page("BT /F1 10 Tf " + " ".join(parts) + " ET").texts["plain"]
    assert plain.text == f"{_MARHABA} {_BILALAM}"  # was the two words glued
    (gap,) = [d for d in plain.decisions_of(WordGapDecision) if d.inserted]
    assert (gap.verdict, gap.value, round(gap.threshold, 2)) == ("rtl_gap", 4.0, 1.68)
    assert "right-to-left letters painted leftwards" in gap.describe()


def test_an_arabic_line_with_a_latin_word_under_actual_text_is_one_line_in_reading_order() -> None:
    from glyphscope.core.assembly.decisions import LineBreakDecision

    logical = "\u062d\u064e\u0628\u064a\u0628\u064a"  # حَبيبي
    forms = "\ufea3\u064e\ufe92\ufef4\ufe92\ufef2"
    actual = "<FEFF" + "".join(f"{ord(c):04X}" for c in logical) + ">"
    # an RTL line painted in reading order: the Arabic word (ActualText) at the right, then the
    # Latin word to its left — 130 pt back, past the backward-jump distance of 3 heights
    content = (
        f"BT /F1 10 Tf 1 0 0 1 300 700 Tm /Span <</ActualText {actual}>> BDC {_hex(forms[::-1])} Tj EMC "
        f"1 0 0 1 230 700 Tm {_hex('habibi')} Tj ET"
    )
    plain = _arabic_page(content).texts["plain"]
    assert plain.text == f"{logical} habibi"  # was "حَبيبي\nhabibi": split by the backward-jump rule
    assert [d.verdict for d in plain.decisions_of(LineBreakDecision)] == ["same_line"] * 6


def test_latin_text_still_breaks_at_a_backward_jump() -> None:
    content = "BT /F1 10 Tf 1 0 0 1 300 700 Tm (cell two) Tj 1 0 0 1 100 700 Tm (cell one) Tj ET"
    page = analyze_page(_doc(make_pdf([content.encode()])), 1)
    assert page.texts["plain"].text == "cell two\ncell one"


# ------------------------------------------------------------------ vertical runs in plain mode (e)


def test_a_vertical_run_of_upright_cjk_glyphs_reads_whole_columns_as_lines() -> None:
    from glyphscope.core.assembly.decisions import LineBreakDecision
    from tests.pdfbuild import identity_h_font

    # two columns, right to left, each character placed 12 pt below the previous one (a
    # horizontal font drawing vertical text one glyph at a time)
    parts = []
    for x, column in ((300, "一二三四"), (280, "五六七八")):
        for k, ch in enumerate(column):
            parts.append(f"1 0 0 1 {x} {700 - 12 * k} Tm <{ord(ch):04X}> Tj")
    pdf = make_pdf(
        [("BT /F1 12 Tf " + " ".join(parts) + " ET").encode()], {"/F1": lambda p: identity_h_font(p)}
    )
    plain = analyze_page(_doc(pdf), 1).texts["plain"]
    assert plain.text == "一二三四\n五六七八"  # was one character per line
    verdicts = [d.verdict for d in plain.decisions_of(LineBreakDecision)]
    assert verdicts == ["stacked"] * 3 + ["break"] + ["stacked"] * 3
    stacked = plain.decisions_of(LineBreakDecision)[0]
    assert not stacked.is_break and stacked.value == 12.0 and "vertical run" in stacked.describe()


def test_single_latin_letters_one_per_line_still_break() -> None:
    parts = " ".join(f"1 0 0 1 300 {700 - 12 * k} Tm ({c}) Tj" for k, c in enumerate("abc"))
    page = analyze_page(_doc(make_pdf([f"BT /F1 12 Tf {parts} ET".encode()])), 1)
    assert page.texts["plain"].text == "a\nb\nc"


# ------------------------------------------------------------------ the corpus


def test_corpus_matplotlib_axis_labels_read_top_to_bottom_in_auto() -> None:
    from tests import corpus

    corpus.require()
    page = analyze_page(open_document(str(corpus.CORPUS / "pdfminer__matplotlib.pdf")), 1)
    # the y-axis labels are painted bottom up: plain keeps that, auto reads them as pdftotext does
    assert page.texts["plain"].text == "0 2 4 6 8\n0\n2\n4\n6\n8"
    auto = page.texts["auto"]
    assert auto.text == "8\n6\n4\n2\n0\n0 2 4 6 8" and auto.order == "geometric"
    (reading,) = auto.decisions_of(ReadingOrderDecision)
    assert (reading.lines, reading.backward, reading.interleaved, reading.value) == (6, 5, 0, 1.0)


def test_corpus_pages_in_reading_order_keep_plain_order_in_auto() -> None:
    from tests import corpus

    corpus.require()
    for name, pages in (("samplefiles__latex-multicolumn.pdf", 3), ("pdfbox__cweb.pdf", 3)):
        doc = open_document(str(corpus.CORPUS / name))
        for n in range(1, pages + 1):
            page = analyze_page(doc, n)
            assert page.texts["auto"].order == "plain", (name, n)
            assert page.texts["auto"].text == page.texts["plain"].text


def test_geometric_order_places_annotation_text_between_words_too() -> None:
    from glyphscope.core.assembly.decisions import AnnotationPlacement

    rows = [(72, 700 - 20 * k, _WORDS[k]) for k in (7, 0, 6, 1, 5, 2, 4, 3)]
    stream = _lines(rows) + b"\nBT /F1 12 Tf 72 540 Td (Check Box) Tj ET"
    data = _widget_page(stream, [95, 535, 115, 555], b"BT /F1 12 Tf 2 5 Td (X) Tj ET")
    auto = analyze_page(open_document(data), 1).texts["auto"]
    assert auto.order == "geometric"
    assert auto.text == "\n".join(_WORDS) + "\nCheck X Box"
    assert len(auto.decisions_of(AnnotationPlacement)) == 1


def test_arabic_words_painted_leftwards_each_in_visual_order_read_in_reading_order() -> None:
    from glyphscope.core.assembly.decisions import RtlRunOrder

    # each word one instruction, its glyphs left to right (visual order); the words step
    # leftwards (reading order), 5 pt apart: in paint order they would glue and turn round
    parts, x = [], 400
    for word in (_MARHABA, _BILALAM):
        x -= 10 * len(word)
        parts.append(f"1 0 0 1 {x} 700 Tm {_hex(word[::-1])} Tj")
        x -= 5
    plain = _arabic_page("BT /F1 10 Tf " + " ".join(parts) + " ET").texts["plain"]
    assert plain.text == f"{_MARHABA} {_BILALAM}"  # was the two words glued, second first
    (run,) = plain.decisions_of(RtlRunOrder)
    assert (run.count, run.steps_back, run.verdict) == (12, 1, "visual_order")


def test_a_column_of_one_character_table_cells_still_breaks() -> None:
    from tests.pdfbuild import identity_h_font

    # rows 20 pt apart for a 13.4 pt box: 1.49 box heights, a table's pitch, not a vertical run
    parts = [f"1 0 0 1 300 {700 - 20 * k} Tm <{ord(ch):04X}> Tj" for k, ch in enumerate("甲乙丙")]
    pdf = make_pdf(
        [("BT /F1 12 Tf " + " ".join(parts) + " ET").encode()], {"/F1": lambda p: identity_h_font(p)}
    )
    assert analyze_page(_doc(pdf), 1).texts["plain"].text == "甲\n乙\n丙"
