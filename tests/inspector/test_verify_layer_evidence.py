"""What makes hidden glyphs an OCR layer: evidence, not only "a reader cannot see them and they lie
on an image". Invisible by render mode or alpha over an image: a layer. Hidden under an image that
holds the page (≥ LAYER_IMAGE_MIN_SHARE of it, more text under it than visible on the page): a
layer. Hidden under a small image over visible text (a stamp): covered text, never compared with
the stamp's OCR. One of the two: mixed evidence, the layer's verdict is cannot tell.

The pages are generated (tests/ocr_pdfs): a born-digital page with a stamp over a paragraph, a scan
with a Tr 3 layer, a scan painted over its own (Tr 0) text, a clipping pasted on an empty page."""

from __future__ import annotations

from pathlib import Path

import pikepdf
import pytest

from glyphscope.core.analysis import analyze_page
from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.check import (
    LAYER_IMAGE_MIN_SHARE,
    NOT_JUDGED,
    FontVerdict,
    PageCheck,
    VerifyResult,
    check_fonts,
    check_page,
    settle_pages,
    verify_document,
    verify_findings,
)
from glyphscope.inspector.verify.layer import LayerVerdict
from glyphscope.inspector.verify.ocr import OcrPage
from tests import ocr_pdfs
from tests.pdfbuild import helvetica, make_pdf, to_bytes

requires_ocr = pytest.mark.skipif(
    not ocr.ocr_status().available, reason=f"Tesseract is not installed here: {ocr.ocr_status().message}"
)
requires_font = pytest.mark.skipif(not ocr_pdfs.DEJAVU_SANS.is_file(), reason="DejaVu Sans is not installed")

LETTERS = sum(len(word) for line in ocr_pdfs.SCAN_TEXT for word in line.split())  # 335
STAMP_LINES = (ocr_pdfs.SCAN_TEXT + ocr_pdfs.PANGRAMS) * 2
STAMP_PAGE_LETTERS = sum(len(line.replace(" ", "")) for line in STAMP_LINES)


def verify_bytes(data: bytes) -> VerifyResult:
    doc = open_document(data)
    try:
        return verify_document(doc, data, [1])
    finally:
        doc.close()


def _without_ocr(data: bytes) -> PageCheck:
    """Page 1 checked against an OCR that read nothing, settled."""
    doc = open_document(data)
    try:
        page = check_page(analyze_page(doc, 1), OcrPage(2550, 3300, "eng", (), ()), 300.0)
    finally:
        doc.close()
    settle_pages([page], check_fonts([page], {}, "eng"))
    return page


def _grey_image(pdf: pikepdf.Pdf) -> pikepdf.Stream:
    return pdf.make_stream(
        b"\xc0" * 16,
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=4,
        Height=4,
        ColorSpace=pikepdf.Name.DeviceGray,
        BitsPerComponent=8,
    )


def _lines(y0: float, n: int, text: str = "Plain words here") -> bytes:
    """`n` lines of `text` (Helvetica 12 pt), the first baseline at `y0`, 20 pt apart."""
    return (
        b"BT /F1 12 Tf "
        + f"72 {y0:g} Td ".encode()
        + b" 0 -20 Td ".join([b"(" + text.encode() + b") Tj"] * n)
        + b" ET\n"
    )


def _page(content: bytes) -> bytes:
    pdf = pikepdf.new()
    return to_bytes(make_pdf([content], {"/F1": helvetica}, xobjects={"/Im1": _grey_image(pdf)}, pdf=pdf))


# ------------------------------------------------------------------ the decision, without OCR


def test_text_under_a_small_image_beside_visible_text_is_covered_text_not_a_layer() -> None:
    # 20 lines of 14 letters visible; a 200 × 50 pt image painted over 2 more lines: a stamp
    data = _page(_lines(700, 20) + _lines(240, 2) + b"q 200 0 0 50 60 210 cm /Im1 Do Q\n")
    page = _without_ocr(data)
    assert page.ocr_layer is None
    covered = page.covered_text
    assert covered is not None
    assert covered.glyphs == 2 * 14 and covered.visible == 20 * 14
    assert covered.image_share == pytest.approx(200 * 50 / (612 * 792))
    assert covered.images == ((60.0, 210.0, 260.0, 260.0),)
    assert covered.reason == (
        "28 glyphs covered by 1 image over at most 2 % of the page (< 50 %), beside 280 visible glyphs: "
        "text under a stamp, a logo or a signature, not an OCR layer"
    )
    assert page.not_judged()["covered_text"] == 28
    assert page.glyphs_total == page.judged + sum(page.not_judged().values())
    assert "covered_text" in NOT_JUDGED


def test_text_under_a_page_sized_image_holding_the_page_is_a_layer() -> None:
    # 10 lines hidden under an image of the whole page, 1 visible line (a page number) painted after it
    data = _page(_lines(700, 10) + b"q 612 0 0 792 0 0 cm /Im1 Do Q\n" + _lines(40, 1, "Page one"))
    page = _without_ocr(data)
    layer = page.ocr_layer
    assert layer is not None and page.covered_text is None
    assert layer.glyphs == 140
    assert (
        layer.evidence == "140 glyphs hidden under an image over 100 % of the page, beside 7 visible glyphs"
    )
    assert (
        layer.verdict is LayerVerdict.CANNOT_TELL and layer.reason_key == "too_few_words"
    )  # the OCR read nothing


def test_a_large_image_over_a_page_of_mostly_visible_text_is_mixed_evidence() -> None:
    # an image over 60 % of the page hides 5 lines; 12 lines below it stay visible: more visible than hidden
    data = _page(_lines(740, 5) + b"q 612 0 0 480 0 312 cm /Im1 Do Q\n" + _lines(290, 12))
    page = _without_ocr(data)
    layer = page.ocr_layer
    assert layer is not None and page.covered_text is None
    assert layer.glyphs == 70
    assert layer.verdict is LayerVerdict.CANNOT_TELL and layer.reason_key == "mixed_evidence"
    assert layer.reason.startswith(
        "mixed evidence that this is an OCR layer: 70 glyphs hidden under an image over 61 % of the page, "
        "beside 168 visible glyphs: the image covers ≥ 50 % of the page, but more text is visible than "
        "lies under it (the words: too few words read: 0 < 8)"
    )
    assert layer.evidence.startswith("70 glyphs hidden under an image over 61 % of the page")
    assert LAYER_IMAGE_MIN_SHARE == 0.5


def test_invisible_text_is_a_layer_by_intent_and_mixed_glyphs_beside_it_are_not_compared() -> None:
    # Tr 3 text on a small image is a layer whatever the image's size; the covered text under a large
    # image with more visible text beside it is counted as mixed evidence, not added to the layer
    data = _page(
        _lines(740, 5)
        + b"q 612 0 0 480 0 312 cm /Im1 Do Q\n"
        + _lines(290, 12)
        + b"q 3 Tr "
        + _lines(500, 1, "Invisible")
        + b"Q\n"
    )
    page = _without_ocr(data)
    layer = page.ocr_layer
    assert layer is not None
    assert (
        layer.glyphs == 9 and layer.evidence == "9 glyphs invisible by render mode (Tr 3 or 7) over an image"
    )
    assert page.not_judged()["mixed_evidence"] == 70


# ------------------------------------------------------------------ with Tesseract


@requires_ocr
@requires_font
def test_a_stamp_over_a_born_digital_paragraph_is_covered_text_and_no_error() -> None:
    """The false alarm: the 358 letters under the stamp were taken for an OCR layer and compared
    with the stamp's words: `ocr_layer_wrong`, 0.0 % of 49 words, on a page whose text is right."""
    built = ocr_pdfs.stamp_over_text()
    assert built is not None
    data, under = built
    result = verify_bytes(data)
    page = result.pages[0]
    assert page.error is None and page.ocr_layer is None
    covered = page.covered_text
    assert covered is not None
    assert covered.glyphs == under == 358 and covered.visible == STAMP_PAGE_LETTERS - under == 650
    assert covered.image_share == pytest.approx(360 * 260 / (612 * 792))
    assert verify_findings(result) == []
    (font,) = result.fonts
    assert font.verdict is FontVerdict.MAPPING_RIGHT and font.agreement is not None and font.agreement >= 0.99
    assert page.not_judged()["covered_text"] == 358
    assert page.judged + sum(page.not_judged().values()) == page.glyphs_total
    # what the reader sees there instead — the stamp's words — is ink without glyphs, all 62 of them
    assert sum(r.words for r in page.ink_without_glyphs) == 62
    assert " ".join(r.text for r in page.ink_without_glyphs) == " ".join(ocr_pdfs.STAMP_TEXT)


@requires_ocr
@requires_font
def test_a_scan_with_a_tr3_layer_is_a_layer_by_its_render_mode() -> None:
    data = ocr_pdfs.scan_with_layer("right")
    assert data is not None
    layer = verify_bytes(data).pages[0].ocr_layer
    assert layer is not None and layer.verdict is LayerVerdict.RIGHT
    assert layer.evidence == f"{LETTERS} glyphs invisible by render mode (Tr 3 or 7) over an image"
    assert layer.glyphs == LETTERS == 335 and layer.agreement == 1.0


@requires_ocr
@requires_font
@pytest.mark.parametrize(
    ("kind", "verdict"), [("right", LayerVerdict.RIGHT), ("shifted", LayerVerdict.WRONG)]
)
def test_a_layer_under_a_full_page_image_without_tr3_is_checked(kind: str, verdict: LayerVerdict) -> None:
    data = ocr_pdfs.scan_with_layer(kind, under=True)
    assert data is not None
    result = verify_bytes(data)
    layer = result.pages[0].ocr_layer
    assert layer is not None and layer.verdict is verdict
    assert (
        layer.evidence
        == f"{LETTERS} glyphs hidden under an image over 100 % of the page, beside 0 visible glyphs"
    )
    assert layer.agreement == (1.0 if kind == "right" else 0.0) and len(layer.words) == 73
    kinds = [d.kind for d in verify_findings(result)]
    assert kinds == ([] if kind == "right" else [DiagnosticKind.OCR_LAYER_WRONG])


@requires_ocr
@requires_font
def test_a_clipping_with_its_text_under_it_is_mixed_evidence_cannot_tell() -> None:
    """The image covers the top 300 pt (38 % of the page): more text under it than visible (none),
    but not half the page. The words agree, yet the verdict says what the evidence allows."""
    data = ocr_pdfs.scan_with_layer("shifted", under=True, height=300.0)
    assert data is not None
    result = verify_bytes(data)
    page = result.pages[0]
    layer = page.ocr_layer
    assert layer is not None and layer.verdict is LayerVerdict.CANNOT_TELL
    assert layer.reason_key == "mixed_evidence" and layer.agreement == 0.0
    assert layer.reason == (
        "mixed evidence that this is an OCR layer: 335 glyphs hidden under an image over 38 % of the page, "
        "beside 0 visible glyphs: more text lies under it than is visible, but the image covers < 50 % of "
        "the page (the words: 0.0 % of 73 words agree < 75 %)"
    )
    assert verify_findings(result) == []  # a wrong reading of what may not be a layer is no error
    assert page.not_judged() == {"layer_mixed_evidence": 335}


def test_triage_columns_count_only_what_the_ink_is_evidence_for() -> None:
    """%ocr leaves out fonts drawn by a substitute of other letters; %layer leaves out layers taken on
    mixed evidence (their words may be no layer at all)."""
    from glyphscope.inspector.verify.check import FontCheck
    from glyphscope.inspector.verify.layer import LayerWord, OcrLayerCheck
    from glyphscope.inspector.verify.triage import summarise

    def font(fid: str, agreement: float, reads: int, substitute: bool) -> FontCheck:
        verdict = FontVerdict.CANNOT_TELL if substitute else FontVerdict.MAPPING_RIGHT
        return FontCheck(
            fid, ("/F1",), "X", reads, 0, 0, 0, reads, agreement, 90.0, 1.0, verdict, "", (), None,
            ink_is_substitute=substitute,
        )  # fmt: skip

    def layer(agree: int, disagree: int, key: str) -> OcrLayerCheck:
        words = tuple(
            LayerWord("a", "a" if i < agree else "b", 90.0, i < agree, (i,), (0, 0, 1, 1))
            for i in range(agree + disagree)
        )
        verdict = LayerVerdict.RIGHT if key == "right" else LayerVerdict.CANNOT_TELL
        return OcrLayerCheck(len(words), len(words), words, agree / len(words), 90.0, verdict, "", key)

    pages = [
        PageCheck(1, 300.0, ocr_layer=layer(9, 1, "right")),
        PageCheck(2, 300.0, ocr_layer=layer(0, 10, "mixed_evidence")),
    ]
    result = VerifyResult(
        pages, [font("1 0 R", 1.0, 100, False), font("2 0 R", 0.0, 300, True)], "eng", 300.0
    )
    summary = summarise(result)
    assert summary.agreement == 1.0  # 100 of 100 reads of the one font whose ink is evidence (not 100 of 400)
    assert summary.layer_agreement == 0.9  # 9 of the 10 words of the clear layer (not 9 of 20)
    assert summary.layers_wrong == 0 and summary.fonts_wrong == 0 and summary.pages == 2


@requires_ocr
@requires_font
def test_the_command_reports_covered_text_and_the_layers_evidence(tmp_path: Path) -> None:
    import json

    from tests.cli_run import run_cli
    from tests.inspector.test_schemas import assert_valid

    built = ocr_pdfs.stamp_over_text()
    assert built is not None
    path = tmp_path / "stamp.pdf"
    path.write_bytes(built[0])
    code, out, err = run_cli("verify", str(path), "--pages", "1", "--json")
    assert code == 0, err
    obj = json.loads(out)
    assert_valid("verify", obj)
    page = obj["pages"][0]
    assert page["ocr_layer"] is None and obj["findings"] == []
    assert page["covered_text"] == {
        "glyphs": 358,
        "images": [[60.0, 282.0, 420.0, 542.0]],
        "image_share": 0.1931,
        "visible": 650,
        "reason": "358 glyphs covered by 1 image over at most 19 % of the page (< 50 %), beside 650 visible "
        "glyphs: text under a stamp, a logo or a signature, not an OCR layer",
    }
    assert obj["thresholds"]["layer_image_min_share"] == LAYER_IMAGE_MIN_SHARE
    code, out, err = run_cli("verify", str(path), "--pages", "1")
    text = out.decode()
    assert code == 0, err
    assert "  covered text\t358 glyphs covered by 1 image over at most 19 % of the page" in text
    assert "ocr layer" not in text and "error\t" not in text
    scan = tmp_path / "scan.pdf"
    data = ocr_pdfs.scan_with_layer("right", under=True)
    assert data is not None
    scan.write_bytes(data)
    code, out, err = run_cli("verify", str(scan), "--pages", "1", "--json")
    obj = json.loads(out)
    assert_valid("verify", obj)
    assert obj["pages"][0]["ocr_layer"]["evidence"] == (
        "335 glyphs hidden under an image over 100 % of the page, beside 0 visible glyphs"
    )
