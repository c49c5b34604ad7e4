"""`glyphscope verify`: the ink (Tesseract's reading of the rendered page) as ground truth for the
glyphs' text. One small PDF per rule (tests/ocr_pdfs.py): a right mapping, a ToUnicode off by one,
a Type3 font without mapping, a scan, glyphs that draw nothing; and the command without OCR."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from glyphscope.core.document import open_document
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.check import (
    MIN_GLYPHS_READ,
    NOISY_CODE_MIN_READS,
    RIGHT_MIN_AGREEMENT,
    THRESHOLDS,
    WRONG_MAX_AGREEMENT,
    FontVerdict,
    GlyphCheck,
    GlyphVerdict,
    PageCheck,
    VerifyResult,
    check_fonts,
    equivalent_text,
    propose_for,
    propose_mappings,
    verify_document,
)
from tests import ocr_pdfs
from tests.cli_run import run_cli

requires_ocr = pytest.mark.skipif(
    not ocr.ocr_status().available,
    reason=f"Tesseract is not installed here: {ocr.ocr_status().message}",
)


def verify_bytes(data: bytes, pages: tuple[int, ...] = (1,)) -> VerifyResult:
    doc = open_document(data)
    try:
        return verify_document(doc, data, pages)
    finally:
        doc.close()


def recovered(result: VerifyResult, font_id: str, truth: dict[int, str]) -> float:
    """Share of the font's glyphs (spaces left out) whose code the proposed mapping maps to its letter."""
    proposed = propose_mappings(result)[font_id]
    glyphs = [g for p in result.pages for g in p.glyphs if g.font_id == font_id and g.code in truth]
    return sum(1 for g in glyphs if proposed.get(g.code) == truth[g.code]) / len(glyphs)


@pytest.fixture(scope="module")
def right() -> VerifyResult:
    return verify_bytes(ocr_pdfs.right_mapping())


@pytest.fixture(scope="module")
def off_by_one() -> VerifyResult:
    return verify_bytes(ocr_pdfs.off_by_one())


def test_equivalent_text_folds_ligatures_quotes_and_dashes_but_not_case() -> None:
    assert equivalent_text("\ufb01") == "fi" == equivalent_text("fi")
    assert equivalent_text("\u201cx\u201d") == '"x"'
    assert equivalent_text("\u2013") == equivalent_text("-")
    assert equivalent_text("a") != equivalent_text("A")


@requires_ocr
def test_a_right_mapping_agrees(right: VerifyResult) -> None:
    (font,) = right.fonts
    assert font.base_font == "Helvetica"
    assert font.verdict is FontVerdict.MAPPING_RIGHT
    assert font.confident_reads >= MIN_GLYPHS_READ
    assert font.agreement is not None and font.agreement >= 0.97 >= RIGHT_MIN_AGREEMENT
    assert font.proposed is None and propose_mappings(right) == {}
    (page,) = right.pages
    assert page.error is None
    assert page.counts()[GlyphVerdict.AGREES] >= 0.97 * len(page.glyphs)
    assert page.ink_without_glyphs == [] and page.glyphs_without_ink == []
    # the glyph count is the pangrams' letters and punctuation: spaces paint no ink and are left out
    assert len(page.glyphs) == sum(len(line.replace(" ", "")) for line in ocr_pdfs.PANGRAMS)


@requires_ocr
def test_a_tounicode_off_by_one_is_flagged_and_the_ink_proposes_the_mapping(off_by_one: VerifyResult) -> None:
    (font,) = off_by_one.fonts
    assert font.verdict is FontVerdict.MAPPING_WRONG
    assert font.agreement is not None and font.agreement <= 0.05 <= WRONG_MAX_AGREEMENT
    confusion = {(c.code, c.decoded, c.ink): c for c in font.confusion}
    d = confusion[(ord("d"), "e", "d")]  # code 100 decodes to 'e', the ink reads 'd'
    assert d.count >= 3 and d.mean_conf >= 90
    truth = {g.code: chr(g.code) for p in off_by_one.pages for g in p.glyphs}
    assert recovered(off_by_one, font.font_id, truth) >= 0.95
    assert propose_mappings(off_by_one)[font.font_id][ord("q")] == "q"


@requires_ocr
def test_a_type3_font_without_mapping_is_flagged_and_recovered() -> None:
    data, truth = ocr_pdfs.type3_without_mapping()
    result = verify_bytes(data)
    (font,) = result.fonts
    assert font.verdict is FontVerdict.MAPPING_WRONG
    assert recovered(result, font.font_id, truth) >= 0.95


@requires_ocr
def test_a_scan_is_ink_without_glyphs() -> None:
    result = verify_bytes(ocr_pdfs.image_only())
    (page,) = result.pages
    assert page.glyphs == [] and result.fonts == []
    (region,) = page.ink_without_glyphs
    assert region.words >= 15 and region.mean_conf >= 80
    assert "quick brown fox" in region.text
    x0, y0, x1, y1 = region.bbox  # user space: the three lines drawn from (72, 700) down
    assert 60 <= x0 <= 80 and 690 <= y1 <= 730 and y0 < 650 and x1 > 400


@requires_ocr
def test_glyphs_that_draw_nothing_are_visible_glyphs_without_ink() -> None:
    result = verify_bytes(ocr_pdfs.type3_empty("Nothing drawn here"))
    (page,) = result.pages
    assert page.error is None and page.ink_without_glyphs == []
    assert [g.decoded for g in page.glyphs_without_ink] == list("Nothingdrawnhere")
    assert {g.verdict for g in page.glyphs} == {GlyphVerdict.NO_INK_READ}
    (font,) = result.fonts
    assert font.verdict is FontVerdict.CANNOT_TELL and font.confident_reads == 0


@requires_ocr
def test_one_failing_page_does_not_take_down_the_others(monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.pdfbuild import helvetica, make_pdf, to_bytes

    content = ocr_pdfs.lines_content(ocr_pdfs.PANGRAMS[:2])
    data = to_bytes(make_pdf([content, content], {"/F1": helvetica}))
    real = ocr.run_ocr
    calls: list[int] = []

    def flaky(image, lang="eng", timeout=1.0):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 1:
            raise ocr.OcrFailed("Tesseract gave up")
        return real(image, lang, timeout)

    monkeypatch.setattr(ocr, "run_ocr", flaky)
    result = verify_bytes(data, (1, 2))
    assert [p.error for p in result.pages] == ["Tesseract gave up", None]
    assert result.pages[1].counts()[GlyphVerdict.AGREES] >= 40


@pytest.fixture
def no_ocr(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    absent = ocr.OcrStatus(False, "tesserocr", "", "", (), ocr.INSTALL_HINT)
    monkeypatch.setattr(ocr, "ocr_status", lambda: absent)
    yield


def test_without_ocr_the_command_says_how_to_install_it(no_ocr: None, tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(ocr_pdfs.right_mapping(("Hello",)))
    code, out, err = run_cli("verify", str(path))
    assert code == 1 and out == b""
    assert err.splitlines() == [
        "glyphscope: OCR needs the ocr extra and Tesseract's language data: "
        "pip install 'glyphscope[ocr]' and apt install tesseract-ocr-eng"
    ]


@requires_ocr
def test_a_language_that_is_not_installed_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "a.pdf"
    path.write_bytes(ocr_pdfs.right_mapping(("Hello",)))
    code, _, err = run_cli("verify", str(path), "--lang", "eng+xyz")
    assert code == 1
    assert len(err.splitlines()) == 1 and err.startswith("glyphscope: OCR language xyz is not installed")


@requires_ocr
def test_json_follows_the_schema_and_carries_the_proposal(tmp_path: Path) -> None:
    from tests.inspector.test_schemas import assert_valid

    path = tmp_path / "obo.pdf"
    path.write_bytes(ocr_pdfs.off_by_one(ocr_pdfs.PANGRAMS[:4]))
    code, out, err = run_cli("verify", str(path), "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert_valid("verify", obj)
    (font,) = obj["fonts"]
    assert font["verdict"] == "mapping_wrong"
    assert obj["proposed_mappings"][font["font_id"]] == font["proposed_mapping"]
    assert {"code": ord("d"), "unicode": "d"} in font["proposed_mapping"]
    assert obj["thresholds"]["right_min_agreement"] == RIGHT_MIN_AGREEMENT
    assert obj["ocr"]["engine"] == "tesserocr" and "eng" in obj["ocr"]["languages"]
    page = obj["pages"][0]
    assert page["counts"]["ink_reads_other"] == sum(g["verdict"] == "ink_reads_other" for g in page["glyphs"])
    code, text, _ = run_cli("verify", str(path))
    assert code == 0
    assert b"mapping_wrong" in text and b"decoded 'e'\tink reads 'd'" in text and b"proposed mapping" in text


def test_a_page_check_without_glyphs_serialises() -> None:
    page = PageCheck(3, 300.0, error="boom")
    assert page.to_json()["counts"] == {"agrees": 0, "ink_reads_other": 0, "no_ink_read": 0}


@requires_ocr
def test_triage_verify_adds_agreement_and_fonts_wrong(tmp_path: Path) -> None:
    from tests.inspector.test_schemas import assert_valid

    (tmp_path / "right.pdf").write_bytes(ocr_pdfs.right_mapping(ocr_pdfs.PANGRAMS[:3]))
    (tmp_path / "wrong.pdf").write_bytes(ocr_pdfs.off_by_one(ocr_pdfs.PANGRAMS[:3]))
    report = tmp_path / "t.json"
    code, out, err = run_cli("triage", str(tmp_path), "--verify", "--json", str(report), "--quiet")
    assert code == 0, err
    lines = out.decode().splitlines()
    header = lines[0].split()
    assert header[-4:] == ["%ocr", "wrong", "%layer", "file"]
    cells = {line.split()[-1]: line.split()[-4:-1] for line in lines[1:]}
    assert float(cells[str(tmp_path / "right.pdf")][0]) >= 97.0
    assert cells[str(tmp_path / "right.pdf")][1] == "0" and cells[str(tmp_path / "wrong.pdf")][1] == "1"
    assert cells[str(tmp_path / "right.pdf")][2] == "-"  # no OCR layer in either file
    obj = json.loads(report.read_text("utf-8"))
    assert_valid("triage", obj)
    by_file = {r["file"]: r for r in obj["verify"]["rows"]}
    assert by_file[str(tmp_path / "wrong.pdf")]["fonts_wrong"] == 1
    assert by_file[str(tmp_path / "wrong.pdf")]["agreement"] <= WRONG_MAX_AGREEMENT
    # off by default: the plain table has no OCR columns
    code, out, _ = run_cli("triage", str(tmp_path / "right.pdf"), "--quiet")
    assert code == 0 and b"%ocr" not in out


def test_triage_verify_without_ocr_is_one_line(no_ocr: None, tmp_path: Path) -> None:
    (tmp_path / "a.pdf").write_bytes(ocr_pdfs.right_mapping(("Hello",)))
    code, out, err = run_cli("triage", str(tmp_path / "a.pdf"), "--verify")
    assert code == 1 and out == b""
    assert err.splitlines() == [f"glyphscope: {ocr.INSTALL_HINT}"]


def _glyph(decoded: str, ink: str, conf: float = 90.0, code: int = 1) -> GlyphCheck:
    verdict = GlyphVerdict.AGREES if decoded == ink else GlyphVerdict.INK_READS_OTHER
    return GlyphCheck(1, 0, "7 0 R", "/F1", code, decoded, verdict, ink, conf, (0.0, 0.0, 1.0, 1.0))


def test_font_verdicts_compare_the_declared_thresholds() -> None:
    right = [_glyph("a", "a")] * 19 + [_glyph("a", "o")]  # 19 of 20: 95 %
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=right)])
    assert (font.verdict, font.agreement, font.confident_reads) == (FontVerdict.MAPPING_RIGHT, 0.95, 20)
    few = [_glyph("a", "a")] * (MIN_GLYPHS_READ - 1)
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=few)])
    assert font.verdict is FontVerdict.CANNOT_TELL and font.reason == "too few glyphs read: 9 < 10"
    unsure = [_glyph("a", "o", conf=50.0)] * 20  # below CONFIDENT_READ: no read counts
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=unsure)])
    assert font.verdict is FontVerdict.CANNOT_TELL and font.confident_reads == 0
    symbols = [_glyph("\u2713", "/")] * 20
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=symbols)])
    assert font.verdict is FontVerdict.CANNOT_TELL and font.reason.startswith("symbols: 0.0 %")


def test_a_script_the_ocr_language_does_not_read_cannot_tell() -> None:
    chinese = [_glyph("\u4e2d", "x")] * 20  # Chinese read with eng: Latin junk, confidently
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=chinese)], lang="eng")
    assert font.verdict is FontVerdict.CANNOT_TELL and font.reason.startswith("script not read: 100.0 %")
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=chinese)], lang="eng+chi_sim")
    assert font.verdict is FontVerdict.MAPPING_WRONG and font.proposed == {1: "x"}
    assert ocr.foreign_script("\u044f", "eng") and not ocr.foreign_script("\u044f", "eng+rus")


def test_the_proposal_is_a_majority_of_confident_votes() -> None:
    votes = (
        [_glyph("b", "a", code=5)] * 3 + [_glyph("b", "o", code=5)] * 2 + [_glyph("b", "e", 40.0, code=5)] * 9
    )
    assert propose_for(votes) == {5: "a"}  # 3 of 5 confident votes; the 9 unsure ones do not vote
    tie = [_glyph("b", "a", code=6)] * 2 + [_glyph("b", "o", code=6)] * 2
    assert propose_for(tie) == {}  # no majority: left out


@requires_ocr
def test_bad_input_is_one_line_with_the_documented_exit_code(tmp_path: Path) -> None:
    bad = tmp_path / "x.pdf"
    bad.write_bytes(b"hello")
    good = tmp_path / "a.pdf"
    good.write_bytes(ocr_pdfs.right_mapping(ocr_pdfs.PANGRAMS[:2]))
    for argv, code in (
        ((str(bad),), 4),
        ((str(good), "--pages", "5"), 2),
        ((str(good), "--dpi", "5"), 2),
        ((str(good), "--timeout", "0"), 2),
    ):
        got, out, err = run_cli("verify", *argv)
        assert (got, out) == (code, b""), argv
        assert len(err.splitlines()) == 1 and err.startswith("glyphscope: "), err


@requires_ocr
def test_stdin_is_read_once_for_the_engine_and_the_renderer() -> None:
    code, out, err = run_cli(
        "verify", "-", "--json", "--no-glyphs", stdin=ocr_pdfs.right_mapping(ocr_pdfs.PANGRAMS[:2])
    )
    assert code == 0, err
    obj = json.loads(out)
    assert obj["file"] == "-" and "glyphs" not in obj["pages"][0]
    assert obj["pages"][0]["counts"]["agrees"] >= 0.97 * sum(
        len(x.replace(" ", "")) for x in ocr_pdfs.PANGRAMS[:2]
    )
    assert obj["fonts"][0]["verdict"] == "mapping_right"


def test_a_font_whose_glyphs_do_not_sit_on_the_ink_cannot_tell() -> None:
    glyphs = [
        GlyphCheck(
            1, i, "7 0 R", "/F1", 10, "d", GlyphVerdict.INK_READS_OTHER, "e", 90.0, (0.0, 0.0, 1.0, 1.0)
        )
        for i in range(20)
    ]
    page = PageCheck(1, 300.0, glyphs=glyphs, glyphs_without_ink=glyphs[:11])  # 11 of 20 in no OCR word
    (font,) = check_fonts([page])
    assert font.verdict is FontVerdict.CANNOT_TELL
    assert font.reason == "glyphs off the ink: 55.0 % lie in no OCR word > 50 %"
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=glyphs, glyphs_without_ink=glyphs[:10])])
    assert font.verdict is FontVerdict.MAPPING_WRONG


def _read(i: int, code: int, decoded: str, ink: str) -> GlyphCheck:
    verdict = GlyphVerdict.AGREES if decoded == ink else GlyphVerdict.INK_READS_OTHER
    return GlyphCheck(1, i, "7 0 R", "/F1", code, decoded, verdict, ink, 90.0, (0.0, 0.0, 1.0, 1.0))


def test_dot_leaders_read_as_anything_are_noise_not_a_wrong_mapping() -> None:
    """A table of contents: 20 letters read right, and a leader of 12 dots (code 10) that Tesseract
    reads `e`, `s`, `c` by turns — no reading is most of them, so the code is noise and left out:
    mapping right at 20/20. Without that, 20 of 32 agree (62.5 %): cannot tell. A code read as one
    other thing every time (code 11 → `x`) is kept as evidence against the mapping."""
    letters = [_read(i, 97 + i % 5, "abcde"[i % 5], "abcde"[i % 5]) for i in range(20)]
    dots = [_read(20 + i, 10, ".", "esc"[i % 3]) for i in range(12)]
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=letters + dots)])
    assert (font.verdict, font.agreement) == (FontVerdict.MAPPING_RIGHT, 1.0)
    assert NOISY_CODE_MIN_READS == 3 and THRESHOLDS["noisy_code_min_reads"] == 3
    wrong = [_read(40 + i, 11, ".", "x") for i in range(12)]
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=letters + wrong)])
    assert font.agreement == 20 / 32 and font.verdict is FontVerdict.CANNOT_TELL
    # dots are no word Tesseract reads: they never count as glyphs without ink
    (font,) = check_fonts([PageCheck(1, 300.0, glyphs=letters + dots, glyphs_without_ink=dots)])
    assert font.verdict is FontVerdict.MAPPING_RIGHT


@requires_ocr
def test_codes_that_are_glyph_ids_are_flagged_and_recovered() -> None:
    built = ocr_pdfs.gid_shift()
    if built is None:
        pytest.skip("DejaVu Sans is not installed (fonts-dejavu-core)")
    data, truth = built
    result = verify_bytes(data)
    (font,) = result.fonts
    assert font.verdict is FontVerdict.MAPPING_WRONG
    a = next(c for c in font.confusion if c.ink == "a")  # glyph 68 is 'a'; the identity ToUnicode says 'D'
    assert (a.code, a.decoded) == (68, "D")
    assert recovered(result, font.font_id, truth) >= 0.95
