"""The mapping editor (Fonts › Proposed): every code with its evidence, doubtful codes in their
own colour, confirm / leave out / type per code, the page's text previewed live as the repaired
copy reads it, and Save repaired copy for byte-pair fonts of a code page (ActualText)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from glyphscope.core.document import open_document
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.evidence import Source, Status
from tests.gui_helpers import TIMEOUT, open_file
from tests.polish_pdf import LINES, POLISH_GIDS, SHIFT, gid, polish_glyph_ids


def _fonts_in_front(qtbot: Any, window: Any) -> Any:
    fonts = window.fonts
    window.reveal("fonts")
    qtbot.waitUntil(lambda: fonts.in_front() and fonts.proposals_made, timeout=TIMEOUT)
    fonts.tabs.setCurrentWidget(fonts.proposal)
    return fonts.proposal


def _row_of(pane: Any, code: int) -> int:
    return next(r for r, row in enumerate(pane.proposal.rows) if row.code == code)


def _select(pane: Any, code: int) -> None:
    pane.table.clearSelection()
    pane.table.selectRow(_row_of(pane, code))


def _polish(qtbot: Any, window: Any, tmp_path: Path) -> tuple[Path, Any]:
    path = tmp_path / "polish.pdf"
    path.write_bytes(polish_glyph_ids())
    open_file(qtbot, window, path)
    return path, _fonts_in_front(qtbot, window)


def test_every_code_is_listed_with_its_evidence_and_the_doubtful_ones_in_their_colour(
    qtbot, window, tmp_path
):
    _, pane = _polish(qtbot, window, tmp_path)
    p = pane.proposal
    assert p is not None and p.offset == SHIFT and p.sources == (Source.OFFSET,)
    assert pane.table.rowCount() == len(p.rows) == 33 + 7
    r = _row_of(pane, gid("a"))
    cells = [pane.table.item(r, c).text() for c in range(5)]
    assert cells[:4] == ["<0044>", "D", "a", "supported"]
    assert cells[4] == "offset “a”"
    tip = pane.table.item(r, 4).toolTip()
    assert tip.endswith(
        "offset +29 (42 words, codes 0x25–0x5D, Basic Latin): D → a (in 23 of them; Basic Latin)"
    )
    r = _row_of(pane, POLISH_GIDS["ł"])
    cells = [pane.table.item(r, c).text() for c in range(5)]
    assert cells == ["<00E3>", "ã", "Ā", "doubtful", "offset “Ā” (not counted)"]
    assert pane.table.item(r, 3).background().color().name() == "#fff3e0"
    assert pane.table.item(r, 3).foreground().color().name() == "#b25e00"
    assert pane.table.item(_row_of(pane, gid("a")), 3).background().style() == Qt.BrushStyle.NoBrush
    _select(pane, POLISH_GIDS["ł"])  # the selected code's evidence in whole sentences
    said = pane.selected.text()
    assert "<b>&lt;00E3&gt;</b> ã → <b>Ā</b>" in said and ">doubtful</span>" in said
    assert "the offset was measured on Basic Latin letters; Ā lies in Latin Extended-A" in said
    assert pane.selected.toolTip() == (
        "offset +29 (42 words, codes 0x25–0x5D, Basic Latin): ã → Ā lands in Latin Extended-A, outside the "
        "blocks it was measured on — a guess (not counted)"
    )
    label = pane.label.text()
    assert "40 codes from glyphscope's offset (garbled text)" in label
    assert "33 supported</span>" in label and "7 doubtful</span>" in label
    # the preview: the page as the copy reads — ASCII right, Polish letters left out
    lines = pane.preview_text().split("\n")
    assert lines[1] == "Rozk\ufffdad jazdy obowi\ufffdzuje od poniedzia\ufffdku"
    assert lines[2] == LINES[1]


def test_type_confirm_leave_out_and_reset_preview_live_and_the_copy_reads_them(qtbot, window, tmp_path):
    path, pane = _polish(qtbot, window, tmp_path)
    session = window.session
    font_id = pane.proposal.font_id
    pane.type_code(POLISH_GIDS["ł"], "ł")  # as a user types in the Proposed cell
    assert session.code_decisions == {font_id: {POLISH_GIDS["ł"]: "ł"}}
    r = _row_of(pane, POLISH_GIDS["ł"])
    assert pane.table.item(r, 3).text() == "typed" and pane.table.item(r, 2).text() == "ł"
    assert pane.table.item(r, 3).background().color().name() == "#e3f2fd"
    assert pane.preview_text().split("\n")[1] == "Rozkład jazdy obowi\ufffdzuje od poniedziałku"
    _select(pane, POLISH_GIDS["ą"])
    pane.confirm_button.click()  # the offset's guess, confirmed: wrong, and the preview shows it
    assert session.code_decisions[font_id][POLISH_GIDS["ą"]] == "ĥ"
    assert pane.preview_text().split("\n")[1] == "Rozkład jazdy obowiĥzuje od poniedziałku"
    pane.reset_selected()
    assert POLISH_GIDS["ą"] not in session.code_decisions[font_id]
    pane.type_code(POLISH_GIDS["ą"], "ą")
    _select(pane, gid("R"))
    pane.leave_out_button.click()
    assert session.code_decisions[font_id][gid("R")] is None
    assert pane.table.item(_row_of(pane, gid("R")), 3).text() == "left out"
    assert pane.preview_text().split("\n")[1] == "\ufffdozkład jazdy obowiązuje od poniedziałku"
    pane.reset_selected()
    assert pane.preview_text().split("\n")[1] == LINES[0]
    assert "2 typed</span>" in pane.label.text()
    pane.accept_button.click()
    assert window.act_save_repaired.isEnabled()
    out = tmp_path / "fixed.pdf"
    with qtbot.waitSignal(window.repair_saver.saved, timeout=TIMEOUT):
        window.repair_saver.save(out)
    message = window.statusBar().currentMessage()
    assert message.startswith("Repaired 1 font: F1 (5 0 R, 35 codes, 5 doubtful left out) → ")
    with open_document(out) as doc:
        from glyphscope.core.analysis import analyze_page

        text = analyze_page(doc, 1).texts["plain"].text.split("\n")
    assert text[0] == LINES[0] and text[2] == "poniedziałek wtorek \ufffdroda czwartek piątek sobota"
    if shutil.which("pdftotext"):
        read = subprocess.run(["pdftotext", "-enc", "UTF-8", str(out), "-"], capture_output=True, check=True)
        assert read.stdout.decode().splitlines()[0] == LINES[0]


def test_a_gbk_font_gets_a_proposal_and_save_writes_actualtext(qtbot, window, tmp_path):
    """The window reads the pairs right; the copy gives other readers the same text (ActualText),
    the ideographic space A1A1 included (U+3000, not `¡¡`)."""
    from tests.core.test_garbled import _gbk_page, _gbk_truetype, gbk_font
    from tests.pdfbuild import make_pdf

    text = "目录\u3000关于红军作战的原则"
    path = tmp_path / "gbk.pdf"
    make_pdf([_gbk_page(text)], {"/F1": lambda p: gbk_font(p, _gbk_truetype(text))}).save(path)
    open_file(qtbot, window, path)
    assert window.bundle.analysis.texts["plain"].text.strip() == text
    pane = _fonts_in_front(qtbot, window)
    p = pane.proposal
    assert p is not None and p.code_page == "gbk" and p.sources == (Source.CODE_PAGE,)
    space = p.row(0xA1A1)
    assert space is not None and space.proposed == "\u3000" and space.status is Status.SUPPORTED
    assert space.evidence[0].detail == "code page gbk: pair A1A1 → \u3000 (written as ActualText)"
    assert "byte pairs of the <b>gbk</b> code page" in pane.label.text()
    assert not pane.confirm_button.isEnabled() and pane.accept_button.isEnabled()
    assert pane.preview_text().split("\n")[1] == text
    assert not window.act_save_repaired.isEnabled()
    pane.accept_button.click()
    assert window.act_save_repaired.isEnabled()
    out = tmp_path / "gbk-fixed.pdf"
    with qtbot.waitSignal(window.repair_saver.saved, timeout=TIMEOUT):
        window.repair_saver.save(out)
    assert "ActualText on 1 text runs" in window.statusBar().currentMessage()
    if shutil.which("pdftotext"):
        before = subprocess.run(
            ["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True, check=True
        )
        read = subprocess.run(["pdftotext", "-enc", "UTF-8", str(out), "-"], capture_output=True, check=True)
        assert text not in before.stdout.decode() and read.stdout.decode().strip() == text


requires_ocr = pytest.mark.skipif(
    not ocr.ocr_status().available, reason=f"Tesseract is not installed here: {ocr.ocr_status().message}"
)


@requires_ocr
def test_after_verify_the_substitutes_ink_never_overrides_the_offset(qtbot, window, tmp_path):
    """The font is not embedded: the renderer draws its substitute, whose ink Tesseract reads. Its
    votes are listed, not counted: the offset's rows stay as they were."""
    _, pane = _polish(qtbot, window, tmp_path)
    before = {r.code: (r.proposed, r.status) for r in pane.proposal.rows}
    assert window.verify_panel.verify() is not None
    qtbot.waitUntil(lambda: window.session.verification is not None, timeout=TIMEOUT * 4)
    qtbot.waitUntil(lambda: pane.proposal is not None and bool(pane.proposal.ocr), timeout=TIMEOUT)
    p = pane.proposal
    assert p.evidence is not None and p.evidence.ink_is_substitute
    assert {r.code: (r.proposed, r.status) for r in p.rows} == before
    a = p.row(gid("a"))
    ocr_says = next(e for e in a.evidence if e.source is Source.OCR)
    assert not ocr_says.counts and "the ink is the renderer's substitute" in ocr_says.detail
    assert "its OCR votes do not count" in pane.label.text()
