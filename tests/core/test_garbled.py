"""Garbled text (core/garbled.py) and CJK byte pairs in simple TrueType fonts (core/fonts/cjk.py):
one built PDF per rule, the numbers the rule compared checked."""

from __future__ import annotations

from typing import Any

import pikepdf

from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.document import open_document
from glyphscope.core.garbled import GARBLED_SCORE, MIN_GLYPHS, OFFSET_MAX_ODD, _odd_share, judge
from glyphscope.core.glyph import DecodeSource
from tests.core.test_findings import findings_of, kinds, only
from tests.pdfbuild import helvetica, make_pdf, to_bytes, truetype_program

K = DiagnosticKind
PANGRAM = "The quick brown fox jumps over the lazy dog and the cat"


def off_by_one_tounicode(shift: int = 1) -> bytes:
    """A ToUnicode CMap mapping every printable ASCII code to code + shift (a producer's bug)."""
    lines = b"".join(b"<%02X> <%04X>\n" % (c, c + shift) for c in range(0x20, 0x7F))
    return (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
        b"/CMapName /Shifted def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n"
        + b"%d beginbfchar\n" % (0x7F - 0x20)
        + lines
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n"
    )


def shifted_font(pdf: pikepdf.Pdf, shift: int = 1) -> Any:
    font = helvetica(pdf)
    font.ToUnicode = pdf.make_stream(off_by_one_tounicode(shift))
    return font


def shown(text: str) -> bytes:
    return b"BT /F1 12 Tf 72 700 Td (" + text.encode("latin-1") + b") Tj ET"


def test_off_by_one_tounicode_is_garbled_with_offset_minus_one_and_the_right_text() -> None:
    pdf = make_pdf([shown(PANGRAM)], {"/F1": shifted_font})
    d = only(findings_of(pdf), K.GARBLED_TEXT)
    assert d.severity is Severity.ERROR
    assert d.font_key == "/F1"
    assert d.data is not None
    assert d.data["offset"] == -1
    assert d.data["offset_sample"] == PANGRAM
    assert d.data["glyphs"] == len(PANGRAM.replace(" ", "")) + PANGRAM.count(" ")  # spaces read as "!"
    assert d.measured is not None and d.measured >= GARBLED_SCORE
    assert d.threshold == GARBLED_SCORE
    assert "shifted by -1" in d.message


def test_clean_text_and_short_runs_are_not_flagged() -> None:
    assert K.GARBLED_TEXT not in kinds(findings_of(make_pdf([shown(PANGRAM)]))), "clean English"
    french = "Le procès-verbal de la réunion du conseil municipal est approuvé à l’unanimité"
    german = "Die Größe der Straße wurde überprüft und vom Ausschuss genehmigt"
    for text in (french, german):
        v = judge(text, list(text.encode("cp1252")), set())
        assert not v.garbled and v.score < GARBLED_SCORE, (text, v)
    short = "Uif!rvjdl"  # garbled, but under MIN_GLYPHS
    assert len(short) < MIN_GLYPHS
    pdf = make_pdf([shown(short)], {"/F1": shifted_font})
    assert K.GARBLED_TEXT not in kinds(findings_of(pdf))


def test_polish_glyph_ids_shifted_by_29_are_recognised() -> None:
    polish = "Grupa Rozkład jazdy obowiązuje od czwartek piątek sobota niedziela przystanek"
    garbled = "".join(c if c == " " else chr(ord(c) - 29) for c in polish)
    v = judge(garbled, [], set())
    assert v.garbled
    assert v.offset == 29
    assert v.offset_sample.startswith("Grupa Rozkład jazdy")


def test_symbol_fonts_are_not_judged() -> None:
    pdf = make_pdf([shown(PANGRAM)], {"/F1": lambda p: shifted_font(p)})
    pdf.pages[0].Resources.Font.F1.BaseFont = pikepdf.Name("/Symbol")
    assert K.GARBLED_TEXT not in kinds(findings_of(pdf))


# ---------------------------------------------------------------- CJK byte pairs

GBK_TEXT = "目录关于红军作战的原则"


def _gbk_truetype(text: str) -> bytes:
    """A TrueType program with a (3,3) PRC cmap subtable: GBK code → glyph."""
    codes = {int.from_bytes(c.encode("gbk"), "big"): f"g{i}" for i, c in enumerate(text)}
    return truetype_program(codes, 3, family="Song")


def gbk_font(pdf: pikepdf.Pdf, program: bytes | None = None, name: bytes = b"/ABCDEF+Song") -> Any:
    descriptor = pikepdf.Dictionary(
        Type=pikepdf.Name.FontDescriptor,
        FontName=pikepdf.Name("/ABCDEF+Song"),
        Flags=4,
        FontBBox=[0, -200, 1000, 800],
        ItalicAngle=0,
        Ascent=800,
        Descent=-200,
        CapHeight=700,
        StemV=80,
    )
    if program is not None:
        descriptor.FontFile2 = pdf.make_stream(program)
    return pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font,
            Subtype=pikepdf.Name.TrueType,
            BaseFont=pikepdf.Object.parse(name),
            Encoding=pikepdf.Name.WinAnsiEncoding,
            FirstChar=0,
            LastChar=255,
            Widths=[500] * 256,
            FontDescriptor=pdf.make_indirect(descriptor),
        )
    )


def _glyphs(pdf: pikepdf.Pdf) -> list[Any]:
    doc = open_document(to_bytes(pdf))
    return list(doc.interpret(1).glyphs)


def _gbk_page(text: str) -> bytes:
    return b"BT /F1 10 Tf 72 700 Td <" + text.encode("gbk").hex().encode() + b"> Tj ET"


def test_gbk_pairs_in_a_winansi_truetype_font_decode_through_its_3_3_cmap() -> None:
    pdf = make_pdf([_gbk_page(GBK_TEXT)], {"/F1": lambda p: gbk_font(p, _gbk_truetype(GBK_TEXT))})
    glyphs = _glyphs(pdf)
    assert "".join(g.unicode for g in glyphs) == GBK_TEXT
    assert {g.decode_source for g in glyphs} == {DecodeSource.CODE_PAGE}
    assert [g.code_bytes for g in glyphs] == [2] * len(GBK_TEXT)
    assert glyphs[0].code == int.from_bytes("目".encode("gbk"), "big")
    # each pair advances by its two bytes' /Widths (500 + 500) at 10 pt: 10 pt per character
    assert round(glyphs[1].origin[0] - glyphs[0].origin[0], 6) == 10.0
    assert K.GARBLED_TEXT not in kinds(findings_of(pdf))


def test_the_ideographic_space_pair_reads_u3000_in_every_code_page() -> None:
    """GBK A1A1 (and Big5 A140, Shift-JIS 8140, EUC-KR A1A1, Johab D931) is the full-width space
    U+3000: one pair, not the two Latin-1 bytes `¡¡` (Python does not count U+3000 printable)."""
    from glyphscope.core.fonts.cjk import CodePage

    for codec, pair in (("gbk", 0xA1A1), ("big5", 0xA140), ("shift_jis", 0x8140), ("euc_kr", 0xA1A1)):
        assert CodePage(codec, None, "test").text(pair) == "\u3000", codec
    text = "目录\u3000关于"
    pdf = make_pdf([_gbk_page(text)], {"/F1": lambda p: gbk_font(p, _gbk_truetype(text))})
    glyphs = _glyphs(pdf)
    assert "".join(g.unicode for g in glyphs) == text
    assert [g.code for g in glyphs][2] == 0xA1A1 and glyphs[2].code_bytes == 2


def test_the_code_table_explains_a_pair_by_its_code_page() -> None:
    from glyphscope.core.analysis import analyze_page
    from glyphscope.inspector.views.fonts import font_code_rows

    pdf = make_pdf([_gbk_page(GBK_TEXT)], {"/F1": lambda p: gbk_font(p, _gbk_truetype(GBK_TEXT))})
    doc = open_document(to_bytes(pdf))
    analysis = analyze_page(doc, 1)
    rows, problem = font_code_rows(doc, analysis, analysis.fonts.entries[0])
    assert problem is None and len(rows) == len(GBK_TEXT)
    first = next(r for r in rows if r.engine_unicode == "目")
    assert first.code == "<C4BF>"
    assert first.explanation.width == 1.0  # 500 + 500 thousandths
    assert first.chain_text() == ["✔ code page: <C4BF> as gbk (font program cmap (3,3)) → U+76EE “目”"]
    assert "gbk byte pairs (font program cmap (3,3))" in analysis.fonts.entries[0].page_font.info.encoding


def test_a_gbk_font_name_marks_the_code_page_without_a_program() -> None:
    name = b"/" + b"".join(b"#%02X" % b for b in "宋体".encode("gbk"))
    pdf = make_pdf([_gbk_page(GBK_TEXT)], {"/F1": lambda p: gbk_font(p, None, name)})
    assert "".join(g.unicode for g in _glyphs(pdf)) == GBK_TEXT


def test_without_a_cjk_cmap_or_name_the_bytes_stay_latin_and_are_flagged_garbled() -> None:
    text = GBK_TEXT * 3
    pdf = make_pdf([_gbk_page(text)], {"/F1": lambda p: gbk_font(p, None)})
    glyphs = _glyphs(pdf)
    assert {g.decode_source for g in glyphs} == {DecodeSource.BASE_ENCODING}
    assert len(glyphs) == 2 * len(text)
    d = only(findings_of(pdf), K.GARBLED_TEXT)
    assert d.data is not None
    assert d.data["code_page"] == "gbk"
    assert str(d.data["code_page_sample"]).startswith(GBK_TEXT)
    assert float(d.data["suspicious_share"]) >= GARBLED_SCORE  # type: ignore[arg-type]


def test_triage_scores_the_garbled_share_and_fonts_show_a_verdict(tmp_path: Any) -> None:
    from glyphscope.core.analysis import analyze_page
    from glyphscope.core.triage.collect import triage_file
    from glyphscope.core.triage.scoring import W_GARBLED
    from glyphscope.inspector.views.fonts import text_verdict

    garbled, clean = tmp_path / "garbled.pdf", tmp_path / "clean.pdf"
    make_pdf([shown(PANGRAM)], {"/F1": shifted_font}).save(garbled)
    make_pdf([shown(PANGRAM)]).save(clean)
    bad, good = triage_file(garbled), triage_file(clean)
    assert bad.pct_garbled == 100.0 and good.pct_garbled == 0.0
    assert bad.score - good.score >= W_GARBLED  # √1 × 30, plus the error finding
    with open_document(garbled) as doc:
        stats = analyze_page(doc, 1).fonts
        font_id = stats.entries[0].page_font.info.font_id
        assert text_verdict(stats, font_id) == "garbled: offset -1"
    with open_document(clean) as doc:
        stats = analyze_page(doc, 1).fonts
        assert text_verdict(stats, stats.entries[0].page_font.info.font_id) == "plausible"


def test_a_page_summary_counts_the_share_of_glyphs_in_garbled_fonts() -> None:
    """Two fonts on the page, one garbled: the summary names it and counts its glyphs against all."""
    clean = "Pack my box with five dozen liquor jugs now"
    content = shown(PANGRAM) + b"\nBT /F2 12 Tf 72 600 Td (" + clean.encode() + b") Tj ET"
    pdf = make_pdf([content], {"/F1": shifted_font, "/F2": helvetica})
    d = only(findings_of(pdf), K.GARBLED_PAGE)
    assert d.severity is Severity.ERROR and d.page == 1
    assert d.count == len(PANGRAM) and d.data is not None
    assert d.data["glyphs_total"] == len(PANGRAM) + len(clean)
    assert d.data["share"] == round(len(PANGRAM) / (len(PANGRAM) + len(clean)), 4)
    assert d.data["fonts"] == ["/F1 (Helvetica)"]
    assert d.message.startswith(f"56% of the page's glyphs ({len(PANGRAM)} of {len(PANGRAM) + len(clean)})")
    assert "offset -1" in d.message
    assert K.GARBLED_PAGE not in kinds(findings_of(make_pdf([content], {"/F1": helvetica, "/F2": helvetica})))


def test_the_diagnostics_command_sums_garbled_pages_for_the_document(tmp_path: Any) -> None:
    import json

    from tests.cli_run import run_cli

    path = tmp_path / "two.pdf"
    pdf = make_pdf([shown(PANGRAM), shown(PANGRAM), shown(PANGRAM)], {"/F1": shifted_font})
    pdf.pages[0].Resources = pikepdf.Dictionary(
        Font=pikepdf.Dictionary(F1=helvetica(pdf))
    )  # page 1 reads right
    pdf.save(path)
    code, out, _ = run_cli("diagnostics", str(path), "--json")
    assert code == 0
    doc = json.loads(out)
    (summary,) = [d for d in doc["document"] if d["kind"] == "garbled_document"]
    assert summary["count"] == 2 * len(PANGRAM) and summary["page"] is None
    assert summary["data"]["pages"] == [2, 3] and summary["data"]["pages_read"] == 3
    assert summary["message"].startswith("garbled text on 2 of the 3 pages read (2-3)")
    code, out, _ = run_cli("diagnostics", str(path), "--pages", "1", "--json")
    assert not [d for d in json.loads(out)["document"] if d["kind"] == "garbled_document"]


def test_only_truetype_fonts_are_read_as_cjk_byte_pairs() -> None:
    """A Type3 font whose codes happen to read as Shift-JIS pairs is garbled, but no code page is
    named as its cause: producers write byte pairs in simple TrueType fonts only."""
    from tests import ocr_pdfs

    data, _ = ocr_pdfs.type3_without_mapping()
    with open_document(data) as doc:
        from glyphscope.core.analysis import analyze_page

        analysis = analyze_page(doc, 1)
        (entry,) = analysis.fonts.entries
        verdict = analysis.fonts.verdicts[entry.page_font.info.font_id]
        table = analysis.fonts.glyph_table
        assert table is not None
        from glyphscope.core.garbled import page_verdicts

        fid = entry.page_font.info.font_id
        every = page_verdicts(table, {fid: entry.font.glyphs}, {fid: ""})[fid]
    assert entry.page_font.info.subtype == "Type3"
    assert every.code_page == "shift_jis"  # what reading its codes as pairs would claim
    assert verdict.garbled and verdict.code_page is None
    # its codes are shuffled: no k explains them (k = −84 reads `fT\\ So]j` Q^Yl_`, 31 % odd characters)
    assert verdict.offset is None
    assert _odd_share("fT\\ So]j` Q^Yl_") == 4 / 13 > OFFSET_MAX_ODD == 0.05
    assert _odd_share("The quick, brown (fox) — 12 %!") == 0.0
