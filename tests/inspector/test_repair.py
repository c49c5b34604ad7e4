"""`glyphscope repair`: an off-by-one ToUnicode file repaired into a copy whose text reads right
for glyphscope and for pdftotext; the input's bytes never change."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
from pathlib import Path

import pytest

from glyphscope.core.diagnostics import DiagnosticKind
from glyphscope.core.document import open_document
from glyphscope.inspector.repair import RepairError, repair, tounicode_cmap
from tests import ocr_pdfs
from tests.cli_run import run_cli
from tests.core.test_findings import findings_of, kinds
from tests.core.test_garbled import PANGRAM, shifted_font, shown
from tests.inspector.test_verify import requires_ocr
from tests.pdfbuild import make_pdf


def _shifted_file(tmp_path: Path) -> Path:
    path = tmp_path / "shifted.pdf"
    make_pdf([shown(PANGRAM)], {"/F1": shifted_font}).save(path)
    return path


def _glyphscope_text(path: Path) -> str:
    with open_document(path) as doc:
        return "".join(g.unicode for g in doc.interpret(1).glyphs)


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_repair_writes_a_copy_whose_text_is_right_and_leaves_the_input_alone(tmp_path: Path) -> None:
    src = _shifted_file(tmp_path)
    before = _sha(src)
    assert _glyphscope_text(src) == "".join(chr(ord(c) + 1) for c in PANGRAM)  # `Uif!rvjdl…`
    out = tmp_path / "repaired.pdf"
    code, stdout, err = run_cli("repair", str(src), "-o", str(out))
    assert code == 0, err
    assert b"/ToUnicode with" in stdout
    assert _sha(src) == before
    assert _glyphscope_text(out) == PANGRAM
    assert K_GARBLED not in kinds(findings_of(out.read_bytes()))
    if shutil.which("pdftotext"):
        text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, check=True).stdout.decode()
        assert text.strip() == PANGRAM


K_GARBLED = DiagnosticKind.GARBLED_TEXT


def test_repair_refuses_to_write_the_input(tmp_path: Path) -> None:
    src = _shifted_file(tmp_path)
    before = _sha(src)
    with pytest.raises(RepairError):
        repair(src, src)
    code, _, err = run_cli("repair", str(src), "-o", str(tmp_path / "." / src.name))
    assert code == 1 and "is the input file" in err
    assert _sha(src) == before


def test_fonts_option_and_caller_proposals(tmp_path: Path) -> None:
    src = _shifted_file(tmp_path)
    with pytest.raises(RepairError):
        repair(src, tmp_path / "none.pdf", fonts=["F9"])  # no such font: nothing to write
    out = tmp_path / "proposed.pdf"
    report = repair(src, out, fonts=["F1"], proposals={"F1": {ord("T"): "X"}})
    assert report.mappings and list(report.keys.values())[0] == {"/F1"}
    assert _glyphscope_text(out).startswith("Xhe quick")


def test_from_ocr_without_tesseract_says_how_to_install_it_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from glyphscope.inspector.verify import ocr

    def missing(lang: str) -> ocr.OcrStatus:
        raise ocr.OcrUnavailable("OCR is not installed: " + ocr.INSTALL_HINT)

    monkeypatch.setattr(ocr, "check_languages", missing)
    src = _shifted_file(tmp_path)
    code, _, err = run_cli("repair", str(src), "-o", str(tmp_path / "o.pdf"), "--from-ocr")
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("glyphscope: --from-ocr: OCR is not installed") and "glyphscope[ocr]" in err
    assert not (tmp_path / "o.pdf").exists()


def test_pages_without_from_ocr_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run_cli(
        "repair", str(_shifted_file(tmp_path)), "-o", str(tmp_path / "o.pdf"), "--pages", "1"
    )
    assert code == 2 and "needs --from-ocr" in err


@requires_ocr
def test_from_ocr_repairs_a_type3_font_that_has_no_mapping(tmp_path: Path) -> None:
    """No offset signature to go on (the codes map to nothing): only the ink's votes repair it."""
    data, truth = ocr_pdfs.type3_without_mapping()
    src = tmp_path / "type3.pdf"
    src.write_bytes(data)
    before = _sha(src)
    out = tmp_path / "fixed.pdf"
    code, stdout, err = run_cli("repair", str(src), "-o", str(out), "--from-ocr")
    assert code == 0, err
    assert "mapping_wrong" in err and b"/ToUnicode with" in stdout
    assert _sha(src) == before
    with open_document(out) as doc:
        glyphs = [g for g in doc.interpret(1).glyphs if g.code in truth and truth[g.code].strip()]
    right = sum(g.unicode == truth[g.code] for g in glyphs)
    assert len(glyphs) > 100 and right / len(glyphs) >= 0.95
    with open_document(src) as doc:  # before: not one glyph read right
        assert sum(g.unicode == truth.get(g.code) for g in doc.interpret(1).glyphs if g.code in truth) == 0


def test_tounicode_cmap_is_utf16be_bfchar() -> None:
    cmap = tounicode_cmap({0x41: "A", 0x42: "ﬁ", 0x43: "\U0001d400"})
    assert b"<41> <0041>" in cmap and b"<42> <FB01>" in cmap and b"<43> <D835DC00>" in cmap
    assert b"3 beginbfchar" in cmap
    two = tounicode_cmap({0x4E00: "一"}, 2)
    assert b"<0000> <FFFF>" in two and b"<4E00> <4E00>" in two


def test_byte_pair_fonts_get_their_text_as_actualtext_on_pages_and_in_forms(tmp_path: Path) -> None:
    """A WinAnsi TrueType font whose codes are GBK pairs (read as `Ä¿Â¼…`): a simple font's
    ToUnicode cannot map pairs, so each text-showing operator with it becomes an ActualText span —
    on the page (inside q/Q, after a font switch) and in a form — and the copy reads right for
    glyphscope and pdftotext. Text in another font is left as it is."""
    import pikepdf

    from tests.core.test_garbled import GBK_TEXT, gbk_font, helvetica

    pdf = pikepdf.new()
    font = pdf.make_indirect(gbk_font(pdf, None))
    pairs = GBK_TEXT.encode("gbk").hex().encode()
    form = pdf.make_stream(b"BT /F1 10 Tf 72 600 Td <" + pairs + b"> Tj ET")
    form.Type, form.Subtype, form.BBox = pikepdf.Name.XObject, pikepdf.Name.Form, [0, 0, 612, 792]
    form.Resources = pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font))
    content = (
        b"q BT /F2 10 Tf 72 720 Td (Latin) Tj /F1 10 Tf 0 -20 Td [<"
        + pairs
        + b"> -100 <"
        + pairs
        + b">] TJ ET Q"
        b" BT /F2 10 Tf 72 650 Td (after) Tj ET /Fm Do"
    )
    make_pdf([content], {"/F1": lambda p: font, "/F2": helvetica}, xobjects={"/Fm": form}, pdf=pdf).save(
        src := tmp_path / "gbk.pdf"
    )
    before = _sha(src)
    out = tmp_path / "fixed.pdf"
    code, stdout, err = run_cli("repair", str(src), "-o", str(out))
    assert code == 0, err
    assert (
        stdout.decode().splitlines()[0]
        == f"{font.objgen[0]} {font.objgen[1]} R (/F1): ActualText on 2 text runs (gbk byte pairs)"
    )
    assert _sha(src) == before
    with open_document(out) as doc:
        from glyphscope.core.textops import document_pages_text

        text = document_pages_text(doc, [1], "plain")[0][1].text
    assert text.split("\n") == ["Latin", GBK_TEXT * 2, "after", GBK_TEXT], text
    if shutil.which("pdftotext"):
        read = subprocess.run(["pdftotext", "-enc", "UTF-8", str(out), "-"], capture_output=True, check=True)
        assert GBK_TEXT * 2 in read.stdout.decode() and "Latin" in read.stdout.decode()
    with pikepdf.open(out) as copy:  # the spans, and nothing else changed in the page's operators
        ops = [str(i.operator) for i in pikepdf.parse_content_stream(copy.pages[0])]
        assert ops.count("BDC") == 1 and ops.count("EMC") == 1 and ops[ops.index("BDC") + 1] == "TJ"
