"""A repair writes a code only on evidence: the Polish glyph-id file (offset +29 measured on ASCII
letters) gets its ASCII letters right and its Polish letters' codes left out as doubtful — every
reader shows "�" there, never a wrong letter — and OCR votes read from the renderer's substitute
drawing never override the offset."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from glyphscope.core.document import open_document
from glyphscope.inspector.repair import document_evidence, repair
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.check import GlyphCheck, GlyphVerdict, PageCheck, VerifyResult, check_fonts
from glyphscope.inspector.verify.evidence import UNKNOWN, Source, Status, block_of, measure_offset
from tests.cli_run import run_cli
from tests.polish_pdf import LINES, POLISH_GIDS, SHIFT, gid, polish_glyph_ids, wrong_letters


@pytest.fixture
def polish(tmp_path: Path) -> Path:
    path = tmp_path / "polish.pdf"
    path.write_bytes(polish_glyph_ids())
    return path


def _reader(*command: str) -> str | None:
    if shutil.which(command[0]) is None:
        return None
    return subprocess.run(list(command), capture_output=True, check=True).stdout.decode("utf-8")


def test_the_offset_is_measured_on_basic_latin_letters_and_holds_only_there(polish: Path) -> None:
    (ev,) = document_evidence(polish).values()
    assert ev.offset is not None and ev.offset.k == SHIFT
    assert ev.offset.blocks == ("Basic Latin",)
    assert ev.offset.codes == (ord("B") - SHIFT, ord("z") - SHIFT)  # 0x25 … 0x5D: the letters measured
    assert ev.offset.words == 42 and ev.ink_is_substitute and not ev.embedded
    a = ev.row(ord("a") - SHIFT)
    assert a is not None and (a.current, a.proposed, a.status) == ("D", "a", Status.SUPPORTED)
    space = ev.row(ord(" ") - SHIFT)
    assert space is not None and space.proposed == " " and space.status is Status.SUPPORTED
    # every Polish letter: doubtful, with the offset's guess and why
    doubtful = {r.code: r for r in ev.doubtful()}
    assert set(doubtful) == {POLISH_GIDS[c] for c in "łąśężćź"}
    l_row = doubtful[POLISH_GIDS["ł"]]
    assert (l_row.current, l_row.proposed) == ("ã", "Ā")
    assert l_row.reason == "the offset was measured on Basic Latin letters; Ā lies in Latin Extended-A"
    assert [(e.source, e.counts) for e in l_row.evidence] == [(Source.OFFSET, False)]
    assert l_row.painted == sum(line.count("ł") for line in LINES)
    written = ev.written()
    assert written[POLISH_GIDS["ł"]] == UNKNOWN and written[ord("R") - SHIFT] == "R"


def test_measure_counts_words_and_keeps_blocks_with_a_quarter_of_the_letters() -> None:
    words = [[(gid(c), chr(gid(c))) for c in w] for w in ("Rozkład", "jazdy", "obowiązuje", "od")]
    measure, attested = measure_offset(SHIFT, words)
    # "RozkĀad", "jazdy" and "obowiĥzuje" read as words; "od" is too short to judge
    assert (measure.words, measure.letters) == (3, 22) and measure.blocks == ("Basic Latin",)
    assert attested[gid("o")] == 2 and attested[POLISH_GIDS["ł"]] == 1
    assert block_of("ł") == "Latin Extended-A" and block_of("a") == "Basic Latin"


def test_repair_leaves_the_polish_letters_out_and_readers_show_no_wrong_letter(
    polish: Path, tmp_path: Path
) -> None:
    out = tmp_path / "fixed.pdf"
    code, stdout, err = run_cli("repair", str(polish), "-o", str(out))
    assert code == 0, err
    lines = stdout.decode().splitlines()
    assert lines[0] == "5 0 R (/F1): /ToUnicode with 33 codes, 7 doubtful left out"
    assert lines[1] == (
        "  evidence: offset +29 measured on 42 words (304 letters, letters at codes 0x25–0x5D; Basic Latin)"
    )
    assert (
        "  left out: <00E3> 'ã' (guess Ā: the offset was measured on Basic Latin letters; Ā lies in "
        "Latin Extended-A)"
    ) in lines
    assert sum(1 for line in lines if line.startswith("  left out: ")) == 7
    assert "  garbled score: 1.00 over 386 glyphs → 0.04 over 341 glyphs" in lines
    before = _reader("pdftotext", "-enc", "UTF-8", str(polish), "-")
    after = _reader("pdftotext", "-enc", "UTF-8", str(out), "-")
    if after is not None and before is not None:
        assert len(wrong_letters(before)) > 300  # every letter shifted
        assert wrong_letters(after) == []
        assert after.splitlines()[0] == "Rozk\ufffdad jazdy obowi\ufffdzuje od poniedzia\ufffdku"
    drawn = _reader("mutool", "draw", "-q", "-F", "txt", str(out))
    if drawn is not None:
        assert wrong_letters(drawn) == []


def test_the_users_characters_are_written_for_the_doubtful_codes(polish: Path, tmp_path: Path) -> None:
    out = tmp_path / "typed.pdf"
    typed = {POLISH_GIDS[c]: c for c in POLISH_GIDS}
    report = repair(polish, out, proposals={"F1": typed})
    (font_id,) = report.mappings
    assert report.left_out[font_id] == []
    with open_document(out) as doc:
        from glyphscope.core.analysis import analyze_page

        assert analyze_page(doc, 1).texts["plain"].text.split("\n") == list(LINES)
    after = _reader("pdftotext", "-enc", "UTF-8", str(out), "-")
    if after is not None:
        assert [line for line in after.splitlines() if line.strip()] == list(LINES)
    # a code the user leaves out reads U+FFFD, though the evidence supports it
    out2 = tmp_path / "left.pdf"
    repair(polish, out2, proposals={"F1": {ord("R") - SHIFT: None}})
    with open_document(out2) as doc:
        assert "".join(g.unicode for g in doc.interpret(1).glyphs).startswith("\ufffdozk\ufffdad")


def _votes(path: Path, ink_of: dict[str, str], conf: float = 96.0) -> VerifyResult:
    """An OCR cross-check whose ink reads `ink_of[c]` for every glyph of `c` (else the right letter)."""
    with open_document(path) as doc:
        glyphs = list(doc.interpret(1).glyphs)
    truth = "".join(LINES)
    checks = []
    for g, c in zip(glyphs, truth, strict=True):
        if c == " ":
            continue
        ink = ink_of.get(c, c)
        verdict = GlyphVerdict.AGREES if ink == g.unicode else GlyphVerdict.INK_READS_OTHER
        checks.append(
            GlyphCheck(
                1, g.paint_index, g.font_id, g.font_key, g.code, g.unicode, verdict, ink, conf, (0, 0, 1, 1)
            )
        )
    page = PageCheck(1, 300.0, glyphs=checks)
    return VerifyResult([page], check_fonts([page], {}, "eng"), "eng", 300.0)


def test_ocr_votes_from_the_substitute_ink_never_override_the_offset(polish: Path, tmp_path: Path) -> None:
    result = _votes(polish, {"a": "5", "ł": "t"})  # the renderer's substitute draws other glyphs
    assert result.fonts[0].verdict.value == "mapping_wrong"
    (ev,) = document_evidence(polish, verification=result).values()
    a = ev.row(gid("a"))
    assert a is not None and (a.proposed, a.status) == ("a", Status.SUPPORTED)
    ocr = next(e for e in a.evidence if e.source is Source.OCR)
    assert not ocr.counts and ocr.text == "5"
    assert (
        ocr.detail.startswith("OCR: ") and "not counted: the ink is the renderer's substitute" in ocr.detail
    )
    l_row = ev.row(gid("ł"))
    assert l_row is not None and l_row.status is Status.DOUBTFUL  # a vote on substitute ink supports nothing
    out = tmp_path / "ocr.pdf"
    report = repair(polish, out, verification=result)
    assert report.mappings[ev.font_id][gid("a")] == "a" and report.mappings[ev.font_id][gid("ł")] == UNKNOWN


def test_on_the_fonts_own_ink_confident_votes_support_a_code_and_one_weak_vote_does_not(
    tmp_path: Path,
) -> None:
    """A Type3 font draws its own glyphs: its ink is evidence. Two votes at 96 support a code, one
    vote at 99 (a letter shown once) too; one vote at 70, or votes split, leave it doubtful."""
    from tests.ocr_pdfs import type3_without_mapping

    data, truth = type3_without_mapping()
    path = tmp_path / "type3.pdf"
    path.write_bytes(data)
    with open_document(path) as doc:
        glyphs = [g for g in doc.interpret(1).glyphs if truth.get(g.code, " ").strip()]
    counts: dict[int, int] = {}
    for g in glyphs:
        counts[g.code] = counts.get(g.code, 0) + 1
    many = next(c for c, n in counts.items() if n >= 3)
    once = [c for c, n in counts.items() if n == 1][:2]
    weak, strong_once = once
    checks = []
    for g in glyphs:
        conf = 70.0 if g.code == weak else 99.0 if g.code == strong_once else 96.0
        checks.append(
            GlyphCheck(
                1,
                g.paint_index,
                g.font_id,
                g.font_key,
                g.code,
                g.unicode,
                GlyphVerdict.INK_READS_OTHER,
                truth[g.code],
                conf,
                (0, 0, 1, 1),
            )
        )
    page = PageCheck(1, 300.0, glyphs=checks)
    result = VerifyResult([page], check_fonts([page], {}, "eng"), "eng", 300.0)
    (ev,) = document_evidence(path, verification=result).values()
    assert not ev.ink_is_substitute and ev.offset is None
    row = ev.row(many)
    assert row is not None and (row.proposed, row.status) == (truth[many], Status.SUPPORTED)
    assert row.evidence[0].detail == (
        f"OCR: {counts[many]} of {counts[many]} votes read “{truth[many]}”, mean confidence 96"
    )
    row = ev.row(strong_once)
    assert row is not None and row.status is Status.SUPPORTED
    row = ev.row(weak)
    assert row is not None and (row.proposed, row.status) == (truth[weak], Status.DOUBTFUL)
    assert row.reason == "too few or weak votes" and not row.evidence[0].counts


FRENCH = (
    "Le café de la gare est fermé le dimanche matin",
    "Les élèves préfèrent étudier à la bibliothèque",
    "Une journée très agréable pour une promenade",
    "Nous avons mangé une crème brûlée délicieuse",
)


def _french_off_by_one(path: Path) -> None:
    """Helvetica (WinAnsi) whose /ToUnicode maps every code, accented ones too, one character up."""
    import pikepdf

    from tests.pdfbuild import helvetica, make_pdf

    codes = [*range(0x20, 0x7F), *range(0xC0, 0x100)]
    cmap = (
        b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n/CMapName /Up def /CMapType 2 def\n"
        b"1 begincodespacerange <00> <FF> endcodespacerange\n%d beginbfchar\n"
        % len(codes)
        + b"".join(b"<%02X> <%04X>\n" % (c, c + 1) for c in codes)
        + b"endbfchar\nendcmap CMapName currentdict /CMap defineresource pop end end\n"
    )

    def font(pdf: pikepdf.Pdf) -> pikepdf.Object:
        f = helvetica(pdf)
        f.ToUnicode = pdf.make_stream(cmap)
        return f

    ops = [b"BT /F1 11 Tf 72 720 Td 15 TL", *(b"(" + s.encode("cp1252") + b") Tj T*" for s in FRENCH), b"ET"]
    make_pdf([b"\n".join(ops)], {"/F1": font}).save(path)


def test_an_accented_letter_outside_the_measured_block_is_written_when_the_encoding_agrees(
    tmp_path: Path,
) -> None:
    src = tmp_path / "french.pdf"
    _french_off_by_one(src)
    (ev,) = document_evidence(src).values()
    assert ev.offset is not None and ev.offset.k == -1 and ev.offset.blocks == ("Basic Latin",)
    e_acute = ev.row(0xE9)
    assert e_acute is not None and (e_acute.current, e_acute.proposed) == ("ê", "é")
    assert e_acute.status is Status.SUPPORTED and e_acute.reason == "the offset and the font's encoding agree"
    assert [(e.source, e.text, e.counts) for e in e_acute.evidence] == [
        (Source.OFFSET, "é", False),
        (Source.CODE_PAGE, "é", True),
    ]
    assert e_acute.evidence[1].detail == "the font's encoding (WinAnsiEncoding) names é at 0xE9"
    assert ev.doubtful() == []
    out = tmp_path / "fixed.pdf"
    repair(src, out)
    after = _reader("pdftotext", "-enc", "UTF-8", str(out), "-")
    if after is not None:
        assert [line for line in after.splitlines() if line.strip()] == list(FRENCH)
    drawn = _reader("mutool", "draw", "-q", "-F", "txt", str(out))
    if drawn is not None:
        assert [line for line in drawn.splitlines() if line.strip()] == list(FRENCH)


def test_an_embedded_programs_glyph_names_support_the_letters_the_offset_cannot(tmp_path: Path) -> None:
    """The same Polish text through an embedded TrueType (DejaVu Sans, codes = glyph ids): its post
    table names glyph 260 `lslash`, so ł is written though the offset does not reach it."""
    from tests.ocr_pdfs import gid_shift

    built = gid_shift(LINES)
    if built is None:
        pytest.skip("DejaVu Sans is not installed")
    data, truth = built
    src = tmp_path / "dejavu.pdf"
    src.write_bytes(data)
    (ev,) = document_evidence(src).values()
    assert ev.embedded and not ev.ink_is_substitute and ev.offset is not None and ev.offset.k == SHIFT
    assert ev.doubtful() == [] and all(r.proposed == truth[r.code] for r in ev.rows if r.code in truth)
    code = next(c for c, t in truth.items() if t == "ł")
    row = ev.row(code)
    assert row is not None and row.reason == "the font program names the glyph"
    assert row.evidence[0].detail == f"TrueType glyph {code} “lslash” → ł" and row.evidence[0].counts
    assert row.evidence[1].source is Source.OFFSET and not row.evidence[1].counts
    out = tmp_path / "fixed.pdf"
    report = repair(src, out)
    assert report.left_out[ev.font_id] == []
    with open_document(out) as doc:
        glyphs = [g for g in doc.interpret(1).glyphs if g.code in truth]
    assert glyphs and all(g.unicode == truth[g.code] for g in glyphs)


def test_repair_reads_the_same_rule_as_the_verdict(polish: Path) -> None:
    """Repair's evidence asks core.fonts.common's rule (FontInfo.substitute), as the verdict does:
    the Polish font is Type0 and not embedded, so its ink is a substitute's drawing of other glyphs."""
    from glyphscope.core.fonts.common import SUBSTITUTE_CID

    with open_document(polish) as doc:
        (pf,) = doc.interpret(1).fonts
    assert pf.info.substitute == SUBSTITUTE_CID
    (ev,) = document_evidence(polish).values()
    assert ev.ink_is_substitute


requires_ocr = pytest.mark.skipif(not ocr.ocr_status().available, reason="Tesseract is not installed here")


@requires_ocr
@pytest.mark.parametrize("symbolic", [False, True])
def test_repair_counts_votes_only_where_the_rule_says_the_ink_is_evidence(
    symbolic: bool, tmp_path: Path
) -> None:
    """ArialMT not embedded, WinAnsi, its ToUnicode off by one, verified with Tesseract. Plain text
    font: the substitute draws the encoded letters, so the votes count (the verdict's rule). Symbolic:
    the votes are shown but never counted; what is written rests on the offset alone, and no code
    is written whose only support is the substitute's drawing."""
    from glyphscope.inspector.verify.check import verify_document
    from tests.ocr_pdfs import arial_off_by_one

    path = tmp_path / "arial.pdf"
    path.write_bytes(arial_off_by_one(symbolic))
    with open_document(path) as doc:
        result = verify_document(doc, str(path), [1])
    (font,) = result.fonts
    assert font.ink_is_substitute is symbolic
    (ev,) = document_evidence(path, verification=result).values()
    assert ev.ink_is_substitute is symbolic  # the same rule, read in the same place
    votes = [e for r in ev.rows for e in r.evidence if e.source is Source.OCR]
    assert len(votes) >= 35
    counted = [e for e in votes if e.counts]
    if symbolic:
        assert counted == []
        assert all(
            "not counted: the ink is the renderer's substitute drawing other letters" in e.detail
            for e in votes
        )
        supported = {r.reason for r in ev.rows if r.status is Status.SUPPORTED}
        assert supported == {"the offset holds in this block"}  # never "… and the ink agrees"
    else:
        assert len(counted) >= 0.9 * len(votes)
        agreeing = [r for r in ev.rows if r.reason == "the offset holds in this block and the ink agrees"]
        assert len(agreeing) >= 35
    # either way the written letters are the true ones: the offset (and, for the plain font, the ink) say so
    a = ev.row(ord("a"))
    assert a is not None and (a.current, a.proposed, a.status) == ("b", "a", Status.SUPPORTED)


@requires_ocr
@pytest.mark.parametrize("symbolic", [False, True])
def test_the_encoding_never_stands_on_a_substitutes_drawing(symbolic: bool, tmp_path: Path) -> None:
    """ArialMT not embedded, WinAnsi, its ToUnicode a shuffle of the letters (no offset to measure),
    repaired by name with the OCR as evidence. The substitute draws the WinAnsi letters, so the ink
    and the encoding always agree: for the plain font that is evidence (the ink is the encoded
    letters); for the symbolic font it is the substitute's drawing of something else, and the
    encoding never counts alone — no letter is written on it, the codes stay doubtful."""
    from glyphscope.inspector.verify.check import verify_document
    from tests.ocr_pdfs import arial_off_by_one

    path = tmp_path / "arial.pdf"
    path.write_bytes(arial_off_by_one(symbolic, shuffled=True))
    with open_document(path) as doc:
        result = verify_document(doc, str(path), [1])
    (ev,) = document_evidence(path, verification=result, fonts=["F1"]).values()
    assert ev.ink_is_substitute is symbolic and ev.offset is None
    letters = [r for r in ev.rows if r.painted and r.code < 128 and chr(r.code).isalpha()]
    assert len(letters) >= 30  # the pangrams: a–z and a few capitals
    supported = [r for r in letters if r.status is Status.SUPPORTED]
    if symbolic:
        assert supported == []
        for r in letters:
            assert all(not e.counts for e in r.evidence if e.source in (Source.OCR, Source.CODE_PAGE)), r
        written = ev.written()
        assert all(written.get(r.code) == UNKNOWN for r in letters if r.proposed)  # "�", never a letter
    else:
        assert len(supported) >= 0.9 * len(letters)
        assert all(r.proposed == chr(r.code) for r in supported)  # the encoded letters: the true text
