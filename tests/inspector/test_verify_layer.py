"""The OCR cross-check of an invisible OCR layer against the scan under it, the count of every glyph
the check does not judge, and the fonts whose ink is the renderer's substitute.

The scans are generated (tests/ocr_pdfs.scan_with_layer): a page of text drawn into an image with
DejaVu Sans, and an invisible (Tr 3) layer over it, right, with every letter shifted by one, or with
its words dealt to the wrong places."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.diagnostics import DiagnosticKind, Severity
from glyphscope.core.document import open_document
from glyphscope.core.fonts.base import FontInfo
from glyphscope.core.fonts.common import SUBSTITUTE_SYMBOLIC, substitute_reason
from glyphscope.core.triage.scoring import W_ERROR, score_with_findings
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.check import (
    SUBSTITUTE_REASON,
    FontVerdict,
    VerifyResult,
    check_fonts,
    check_page,
    ink_is_substitute,
    propose_mappings,
    settle_pages,
    verify_document,
    verify_findings,
)
from glyphscope.inspector.verify.layer import (
    LAYER_RIGHT_MIN_AGREEMENT,
    LAYER_WRONG_BELOW,
    LayerVerdict,
    letters,
)
from glyphscope.inspector.verify.ocr import OcrPage
from tests import ocr_pdfs
from tests.cli_run import run_cli
from tests.pdfbuild import helvetica, make_pdf, to_bytes

requires_ocr = pytest.mark.skipif(
    not ocr.ocr_status().available, reason=f"Tesseract is not installed here: {ocr.ocr_status().message}"
)
requires_font = pytest.mark.skipif(not ocr_pdfs.DEJAVU_SANS.is_file(), reason="DejaVu Sans is not installed")

WORDS = sum(len(line.split()) for line in ocr_pdfs.SCAN_TEXT)
LETTERS = sum(len(word) for line in ocr_pdfs.SCAN_TEXT for word in line.split())


def verify_bytes(data: bytes) -> VerifyResult:
    doc = open_document(data)
    try:
        return verify_document(doc, data, [1])
    finally:
        doc.close()


@pytest.fixture(scope="module")
def scans() -> dict[str, VerifyResult]:
    if not ocr.ocr_status().available or not ocr_pdfs.DEJAVU_SANS.is_file():
        pytest.skip("needs Tesseract and DejaVu Sans")
    out = {}
    for layer in ("right", "shifted", "shuffled"):
        data = ocr_pdfs.scan_with_layer(layer)
        assert data is not None
        out[layer] = verify_bytes(data)
    return out


def test_words_are_compared_by_their_letters_and_digits_case_left_aside() -> None:
    assert letters("Desiring,") == letters("desiring") == "desiring"
    assert letters("Calif&rr-.la.") == "califrrla"
    assert letters("ﬁle 2024") == "file2024"
    assert letters("adopté") == letters("ADOPTE") == "adopte" and letters("Łódź") == "łodz"


@requires_ocr
@requires_font
def test_a_right_layer_agrees_with_the_scan(scans: dict[str, VerifyResult]) -> None:
    page = scans["right"].pages[0]
    layer = page.ocr_layer
    assert layer is not None and page.error is None
    assert layer.glyphs == LETTERS and layer.checked == LETTERS  # every letter of the layer compared
    assert len(layer.words) >= 0.9 * WORDS
    assert layer.agreement is not None and layer.agreement >= LAYER_RIGHT_MIN_AGREEMENT
    assert layer.verdict is LayerVerdict.RIGHT and layer.examples() == []
    assert page.judged == page.glyphs_total == LETTERS and page.not_judged() == {}
    assert page.glyphs == []  # no visible glyph: the old check had nothing to say about this page
    assert verify_findings(scans["right"]) == []


@requires_ocr
@requires_font
@pytest.mark.parametrize("kind", ["shifted", "shuffled"])
def test_a_garbage_layer_is_wrong_and_an_error(scans: dict[str, VerifyResult], kind: str) -> None:
    result = scans[kind]
    layer = result.pages[0].ocr_layer
    assert layer is not None
    assert layer.agreement is not None and layer.agreement < LAYER_WRONG_BELOW
    assert layer.verdict is LayerVerdict.WRONG
    assert layer.reason == f"{100 * layer.agreement:.1f} % of {len(layer.words)} words agree < 75 %"
    (finding,) = verify_findings(result)
    assert finding.kind is DiagnosticKind.OCR_LAYER_WRONG and finding.severity is Severity.ERROR
    assert finding.measured == round(layer.agreement, 4) and finding.threshold == LAYER_WRONG_BELOW
    assert finding.count == LETTERS and len(finding.glyphs) == LETTERS
    if kind == "shifted":
        assert layer.examples()[0] == "layer reads 'Eftjsjoh', the scan reads 'Desiring'"
        assert "layer reads 'Eftjsjoh', the scan reads 'Desiring'" in finding.message


def _page_with(content: bytes, fonts: dict | None = None, xobjects: dict | None = None) -> bytes:
    return to_bytes(make_pdf([content], fonts, xobjects=xobjects))


def _settled(data: bytes) -> tuple[int, int, dict[str, int]]:
    """(glyphs, judged, not judged by reason) of page 1 checked against an OCR that read nothing."""
    doc = open_document(data)
    try:
        analysis = analyze_page(doc, 1)
        page = check_page(analysis, OcrPage(2550, 3300, "eng", (), ()), 300.0)
        fonts = check_fonts([page], {}, "eng")
        settle_pages([page], fonts)
        return page.glyphs_total, page.judged, page.not_judged()
    finally:
        doc.close()


def test_every_glyph_not_judged_is_counted_by_reason() -> None:
    data = _page_with(
        b"BT /F1 20 Tf 72 700 Td (Seen text) Tj ET\n"  # 8 letters, 1 space: no ink read (OCR read nothing)
        b"q BT 3 Tr /F1 20 Tf 72 600 Td (Hidden words) Tj ET Q\n"  # invisible, no image under it: 11 + 1 space
        b"BT /F1 1 Tf 72 500 Td (tiny) Tj ET\n"  # 1 pt: 4 px tall at 300 dpi, too small
        b"q 0 0 10 10 re W n BT /F1 20 Tf 300 300 Td (cut) Tj ET Q\n"  # clipped away: 3
        b"BT /F1 20 Tf 0 1 -1 0 72 400 Tm (up) Tj ET\n"  # turned: 2
    )
    total, judged, reasons = _settled(data)
    assert reasons == {
        "invisible_without_image": 11,
        "no_ink_read": 8,
        "too_small": 4,
        "clipped": 3,
        "space": 2,
        "not_upright": 2,
    }
    assert judged == 0 and total == sum(reasons.values()) == 30


def test_invisible_glyphs_on_an_image_are_the_layer_others_are_not() -> None:
    import pikepdf

    pdf = pikepdf.new()
    image = pdf.make_stream(
        b"\xff" * 16,
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=4,
        Height=4,
        ColorSpace=pikepdf.Name.DeviceGray,
        BitsPerComponent=8,
    )
    data = to_bytes(
        make_pdf(
            [
                b"q 300 0 0 300 50 400 cm /Im1 Do Q\n"
                b"BT 3 Tr /F1 20 Tf 72 600 Td (On scan) Tj ET\n"  # on the image: the layer (6 letters)
                b"BT 3 Tr /F1 20 Tf 72 100 Td (Off) Tj ET\n"  # below it: 3, nothing to read there
                b"q BT 7 Tr /F1 20 Tf 72 500 Td (Clip) Tj ET Q\n"  # render mode 7 on the image: 4 more
            ],
            {"/F1": helvetica},
            xobjects={"/Im1": image},
            pdf=pdf,
        )
    )
    doc = open_document(data)
    try:
        page = check_page(analyze_page(doc, 1), OcrPage(2550, 3300, "eng", (), ()), 300.0)
    finally:
        doc.close()
    layer = page.ocr_layer
    assert layer is not None and layer.glyphs == 10 and layer.checked == 0
    assert layer.not_checked == {"no_ink_read": 10}  # no OCR word on its glyphs
    assert layer.verdict is LayerVerdict.CANNOT_TELL and layer.reason_key == "too_few_words"
    settle_pages([page], [])
    assert page.not_judged() == {"no_ink_read": 10, "invisible_without_image": 3, "space": 1}


def _info(subtype: str, base: str, embedded: bool, **facts: Any) -> FontInfo:
    reason = substitute_reason(subtype, base, embedded, **facts)
    return FontInfo(
        "1 0 R", subtype, base, "WinAnsiEncoding", False, 0, "Widths", 0, embedded=embedded, substitute=reason
    )


def test_the_verdict_reads_the_one_rule_of_substitute_ink() -> None:
    """check.ink_is_substitute is core.fonts.common's rule (FontInfo.substitute), nothing of its own."""
    assert not ink_is_substitute(_info("TrueType", "ArialMT", False, base_encoding="WinAnsiEncoding"))
    assert ink_is_substitute(_info("TrueType", "ArialMT", False, symbolic=True))
    assert ink_is_substitute(_info("TrueType", "ArialMT", False, glyph_names=["g1"]))
    assert ink_is_substitute(_info("Type0", "ABCDEF+SimSun", False))  # glyph ids of a font not there
    assert not ink_is_substitute(_info("TrueType", "ArialMT", True, symbolic=True))
    assert not ink_is_substitute(_info("Type1", "Helvetica", False))  # every reader carries the 14
    assert not ink_is_substitute(_info("Type1", "ABCDEF+Times-Roman", False))
    assert not ink_is_substitute(_info("Type3", "", False))  # its glyph procedures are in the file


@requires_ocr
def test_a_symbolic_substitute_cannot_tell_and_proposes_nothing() -> None:
    """With Helvetica the ink says mapping_wrong; as a symbolic ArialMT that is not embedded, the
    renderer's substitute draws letters that are not the font's symbols: no evidence."""
    result = verify_bytes(ocr_pdfs.arial_off_by_one(symbolic=True))
    (font,) = result.fonts
    assert font.ink_is_substitute and font.verdict is FontVerdict.CANNOT_TELL
    assert font.reason == (
        "the page's ink is the renderer's substitute, not the font's own letters: "
        "a symbolic font that is not embedded (the substitute draws text letters, not its symbols)"
    )
    assert font.reason == f"{SUBSTITUTE_REASON}: {SUBSTITUTE_SYMBOLIC}"
    assert font.proposed is None and propose_mappings(result) == {}
    page = result.pages[0]
    assert page.judged == 0 and page.not_judged()["substitute_rendering"] == font.confident_reads
    assert font.to_json()["ink_is_substitute"] is True


@requires_ocr
def test_a_plain_text_font_not_embedded_keeps_its_ink_as_evidence() -> None:
    """The same file with a non-symbolic ArialMT (WinAnsi, no Differences): the substitute draws the
    encoded letters, so the off-by-one ToUnicode is seen wrong and the ink proposes the letters."""
    result = verify_bytes(ocr_pdfs.arial_off_by_one(symbolic=False))
    (font,) = result.fonts
    assert not font.ink_is_substitute and font.verdict is FontVerdict.MAPPING_WRONG
    assert font.agreement is not None and font.agreement <= 0.05 and font.confident_reads >= 150
    assert font.proposed is not None
    right = sum(1 for code, text in font.proposed.items() if text == chr(code))
    assert right >= 0.95 * len(font.proposed) and len(font.proposed) >= 35
    assert propose_mappings(result) == {font.font_id: font.proposed}
    page = result.pages[0]
    assert "substitute_rendering" not in page.not_judged() and page.judged == font.confident_reads


def pikepdf_name(name: str):  # type: ignore[no-untyped-def]
    import pikepdf

    return pikepdf.Name(name)


@requires_ocr
@requires_font
def test_the_command_reports_the_layer_in_json_and_text(tmp_path: Path) -> None:
    from tests.inspector.test_schemas import assert_valid

    path = tmp_path / "scan.pdf"
    data = ocr_pdfs.scan_with_layer("shifted")
    assert data is not None
    path.write_bytes(data)
    code, out, err = run_cli("verify", str(path), "--pages", "1", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert_valid("verify", obj)
    layer = obj["pages"][0]["ocr_layer"]
    assert layer["glyphs"] == LETTERS and layer["checked"] == LETTERS
    assert layer["verdict"] == "wrong" and layer["agreement"] < LAYER_WRONG_BELOW
    assert layer["examples"][0] == "layer reads 'Eftjsjoh', the scan reads 'Desiring'"
    assert obj["pages"][0]["judged"] == LETTERS and obj["pages"][0]["not_judged"] == {}
    assert [f["kind"] for f in obj["findings"]] == ["ocr_layer_wrong"]
    assert obj["findings"][0]["severity"] == "error"
    code, out, err = run_cli("verify", str(path), "--pages", "1")
    text = out.decode()
    assert code == 0, err
    assert f"  ocr layer\twrong\t{LETTERS} glyphs, {LETTERS} checked in" in text
    assert "    layer reads 'Eftjsjoh', the scan reads 'Desiring'\n" in text
    assert f"page 1\tjudged {LETTERS} of {LETTERS} glyphs\n" in text
    assert "error\tpage 1\tocr_layer_wrong\tthe invisible OCR layer does not read" in text


@requires_ocr
@requires_font
def test_triage_verify_ranks_a_wrong_layer_as_an_error(tmp_path: Path) -> None:
    from tests.inspector.test_schemas import assert_valid

    for kind in ("right", "shuffled"):
        data = ocr_pdfs.scan_with_layer(kind)
        assert data is not None
        (tmp_path / f"{kind}.pdf").write_bytes(data)
    report = tmp_path / "t.json"
    code, _, err = run_cli("triage", str(tmp_path), "--json", str(report), "--quiet")
    assert code == 0, err
    before = {Path(r["file"]).name: r for r in json.loads(report.read_text("utf-8"))["rows"]}
    assert before["right.pdf"]["score"] == before["shuffled.pdf"]["score"]  # the same glyphs, hidden alike
    code, _, err = run_cli("triage", str(tmp_path), "--verify", "--json", str(report), "--quiet")
    assert code == 0, err
    obj = json.loads(report.read_text("utf-8"))
    assert_valid("triage", obj)
    rows = obj["rows"]
    assert [Path(r["file"]).name for r in rows] == ["shuffled.pdf", "right.pdf"]  # worst first
    wrong = rows[0]
    errors = before["shuffled.pdf"]["findings_by_severity"]["error"]
    assert wrong["findings_by_severity"]["error"] == errors + 1
    assert wrong["findings"][0]["kind"] == "ocr_layer_wrong" and wrong["findings"][0]["severity"] == "error"
    assert wrong["score"] == round(
        before["shuffled.pdf"]["score"] + W_ERROR * (math.log2(2 + errors) - math.log2(1 + errors)), 2
    )
    by_file = {Path(r["file"]).name: r for r in obj["verify"]["rows"]}
    assert by_file["shuffled.pdf"]["layers_wrong"] == 1 and by_file["right.pdf"]["layers_wrong"] == 0
    assert by_file["right.pdf"]["layer_agreement"] >= LAYER_RIGHT_MIN_AGREEMENT
    assert by_file["shuffled.pdf"]["layer_agreement"] < LAYER_WRONG_BELOW


def test_a_finding_found_later_changes_only_the_severity_terms() -> None:
    assert score_with_findings(10.0, {"error": 0}, {"error": 1}) == 16.0  # 6 · log2(2)
    assert score_with_findings(10.0, {"error": 1, "warning": 2}, {"error": 3, "warning": 2}) == 16.0
