"""The OCR cross-check and the repair in the window: the Verify panel, its canvas layers, Glyph
details, the Fonts panel's proposed mappings with Accept / Reject, File › Save repaired copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPointF, QRect, Qt

from glyphscope.core.document import open_document
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.check import GlyphVerdict, verify_document
from glyphscope.inspector.verify.view import ProposalSource, VerifyCounts, repaired_name
from tests.core.test_garbled import PANGRAM, shifted_font, shown
from tests.gui_helpers import TIMEOUT, open_file
from tests.ocr_pdfs import PANGRAMS, image_only, off_by_one
from tests.pdfbuild import make_pdf, to_bytes

requires_ocr = pytest.mark.skipif(
    not ocr.ocr_status().available, reason=f"Tesseract is not installed here: {ocr.ocr_status().message}"
)


def _write(tmp_path: Path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _verify(qtbot: Any, window: Any) -> Any:
    """Press Verify this page and wait for the page's result."""
    panel = window.verify_panel
    assert panel.verify() is not None
    qtbot.waitUntil(lambda: window.session.verification is not None, timeout=TIMEOUT * 4)
    return panel


def _fonts_in_front(qtbot: Any, window: Any) -> Any:
    """Bring the Fonts panel forward, as a user clicks its tab: its proposals are made then (not
    while it sits behind Glyph details). Returns its Proposed pane."""
    fonts = window.fonts
    window.reveal("fonts")
    qtbot.waitUntil(lambda: fonts.in_front() and fonts.proposals_made, timeout=TIMEOUT)
    return fonts.proposal


@requires_ocr
def test_verify_in_the_panel_counts_as_verify_document(qtbot, window, tmp_path):
    path = _write(tmp_path, "off.pdf", off_by_one())
    open_file(qtbot, window, path)
    panel = _verify(qtbot, window)
    counts = panel.page_counts()
    with open_document(path) as doc:
        expected = verify_document(doc, str(path), [1]).pages[0]
    want = VerifyCounts.of(expected)
    assert (counts.agrees, counts.ink_reads_other, counts.no_ink_read) == (
        want.agrees,
        want.ink_reads_other,
        want.no_ink_read,
    )
    assert (counts.ink_without_glyphs, counts.glyphs_without_ink) == (0, want.glyphs_without_ink)
    assert counts.ink_reads_other > 100 and counts.seconds > 0
    text = panel.counts.text()
    assert f"<b>{want.ink_reads_other}</b> ink reads other" in text
    font = window.session.verification.fonts[0]
    assert font.verdict.value == "mapping_wrong"
    top = panel.tree.topLevelItem(0)
    assert font.reason == f"agreement {100 * font.agreement:.1f} % ≤ 50 %"
    assert (
        top.text(0) == f"/F1 Helvetica ({font.font_id}): mapping_wrong — {font.reason} · {font.glyphs} glyphs"
    )
    assert top.child(0).text(1) == f"“{font.confusion[0].decoded}” → “{font.confusion[0].ink}”"
    # The sentence spans every column and is read whole: its row is as tall as the text wrapped there.
    tree = panel.tree
    metrics = tree.fontMetrics()
    span = tree.viewport().width() - tree.indentation() - 8
    need = metrics.boundingRect(
        QRect(0, 0, span, 100_000), int(Qt.TextFlag.TextWordWrap), top.text(0)
    ).height()
    qtbot.waitUntil(lambda: tree.visualItemRect(top).height() >= need, timeout=30_000)
    assert tree.textElideMode() == Qt.TextElideMode.ElideNone
    # the layers are on, with counts, once the page is verified
    assert window.session.layers[L.INK_DISAGREES] and window.session.layers[L.INK_WITHOUT_GLYPHS]
    assert window.legend.count(L.INK_DISAGREES) == counts.ink_reads_other
    assert window.legend.count(L.INK_WITHOUT_GLYPHS) == 0
    drawing = window.bundle.overlays.layer(L.INK_DISAGREES, window.session.mode)
    assert len(drawing.markers) == counts.ink_reads_other
    assert {lab.text for lab in drawing.labels} >= {"d", "T"}  # what the ink reads: 'e' drawn as 'd'

    # a confusion row selects its glyphs on the canvas
    row = top.child(0)
    panel.tree.setCurrentItem(row)
    confusion = font.confusion[0]
    selected = window.session.selection
    assert len(selected) == confusion.count
    checks = {g.paint_index: g for g in window.session.verification.pages[0].glyphs}
    assert {(checks[i].code, checks[i].decoded, checks[i].ink) for i in selected} == {
        (confusion.code, confusion.decoded, confusion.ink)
    }


@requires_ocr
def test_glyph_details_says_what_the_ink_reads(qtbot, window, tmp_path):
    path = _write(tmp_path, "off.pdf", off_by_one())
    open_file(qtbot, window, path)
    _verify(qtbot, window)
    page = window.session.verification.pages[0]
    check = next(g for g in page.glyphs if g.verdict is GlyphVerdict.INK_READS_OTHER and g.decoded == "U")
    canvas = window.canvas
    glyph = window.bundle.facts.page.glyphs[check.paint_index]
    pos = canvas.mapFromScene(canvas.page_to_scene.map(QPointF(*glyph.center)))
    assert canvas.tooltip_at(pos).startswith(
        f"The ink reads “T” (confidence {check.conf:.0f}); the glyph decodes to “U”"
    )
    window.session.select({check.paint_index}, "test")
    text = window.details.text()
    assert f"ink (OCR): ink reads “T”, confidence {check.conf:.0f} (decoded “U”)" in text


@requires_ocr
def test_ink_without_glyphs_layer_on_an_image_only_page(qtbot, window, tmp_path):
    path = _write(tmp_path, "scan.pdf", image_only())
    open_file(qtbot, window, path)
    assert window.legend.counts[L.INK_WITHOUT_GLYPHS].text() == "–"  # not verified yet
    _verify(qtbot, window)
    regions = window.session.verification.pages[0].ink_without_glyphs
    assert regions and window.legend.count(L.INK_WITHOUT_GLYPHS) == len(regions)
    drawing = window.bundle.overlays.layer(L.INK_WITHOUT_GLYPHS, window.session.mode)
    assert len(drawing.parts) == len(regions)
    assert all(p.style.hatch and not p.style.disc for p in drawing.parts)  # hatched, never filled
    assert "quick" in " ".join(r.text for r in regions)


@requires_ocr
def test_cancel_stops_the_check(qtbot, window, tmp_path, monkeypatch):
    """Cancel between two steps: the steps are held at the first one until the panel has
    cancelled, so the check cannot finish first and no real OCR time is waited for."""
    import threading

    from glyphscope.inspector.jobs import Progress
    from glyphscope.inspector.verify import view as verify_view

    entered, released = threading.Event(), threading.Event()

    def held_steps(analysis, source, **kwargs):
        yield Progress(0, 3, "rendering")
        entered.set()
        released.wait(60)
        yield Progress(1, 3, "reading the ink")
        raise AssertionError("a cancelled check went on to the OCR step")

    monkeypatch.setattr(verify_view, "verify_page_steps", held_steps)
    path = _write(tmp_path, "off.pdf", off_by_one())
    open_file(qtbot, window, path)
    panel = window.verify_panel
    worker = panel.verify()
    assert worker is not None and panel.cancel_button.isEnabled()
    assert entered.wait(30)
    with qtbot.waitSignal(worker.signals.finished, timeout=TIMEOUT):
        panel.cancel()
        released.set()
    assert worker.is_cancelled
    assert window.session.verification is None and window.session.verified == {}
    assert "cancelled" in panel.status.text()
    assert panel.run_button.isEnabled() and not panel.cancel_button.isEnabled()
    assert window.legend.counts[L.INK_DISAGREES].text() == "–"


@requires_ocr
def test_results_are_per_page_and_reset_with_the_document(qtbot, window, tmp_path):
    from tests.gui_helpers import go_to
    from tests.ocr_pdfs import lines_content
    from tests.pdfbuild import helvetica

    two = to_bytes(make_pdf([lines_content(PANGRAMS[:2]), lines_content(PANGRAMS[2:4])], {"/F1": helvetica}))
    path = _write(tmp_path, "two.pdf", two)
    open_file(qtbot, window, path)
    _verify(qtbot, window)
    assert set(window.session.verified) == {1}
    go_to(qtbot, window, 2)
    assert window.verify_panel.page_counts() is None and "not verified" in window.verify_panel.status.text()
    go_to(qtbot, window, 1)
    assert window.verify_panel.page_counts() is not None
    assert window.session.facts.verification is window.session.verified[1]
    open_file(qtbot, window, _write(tmp_path, "off.pdf", off_by_one()))
    assert window.session.verified == {} and window.verify_panel.page_counts() is None


def test_without_ocr_the_panel_says_how_to_install_it(qtbot, monkeypatch):
    from glyphscope.inspector.gui.panels.verify import VerifyPanel
    from glyphscope.inspector.gui.workers import WorkerPool
    from glyphscope.inspector.views.session import Session

    absent = ocr.OcrStatus(False, "tesserocr", "", "", (), ocr.INSTALL_HINT)
    monkeypatch.setattr(ocr, "ocr_status", lambda: absent)

    def check(lang: str) -> ocr.OcrStatus:
        raise ocr.OcrUnavailable(ocr.INSTALL_HINT)

    monkeypatch.setattr(ocr, "check_languages", check)
    pool = WorkerPool()
    panel = VerifyPanel(Session(), pool)
    qtbot.addWidget(panel)
    assert panel.unavailable is None  # not looked until shown: the window starts without loading Tesseract
    panel.show()
    assert ocr.INSTALL_HINT in panel.status.text().replace("&#x27;", "'")
    assert not panel.run_button.isEnabled()
    assert panel.verify() is None


@requires_ocr
def test_accept_the_ocr_proposal_and_save_a_repaired_copy(qtbot, window, tmp_path):
    path = _write(tmp_path, "off.pdf", off_by_one())
    open_file(qtbot, window, path)
    assert not window.act_save_repaired.isEnabled()
    _verify(qtbot, window)
    pane = _fonts_in_front(qtbot, window)
    proposal = pane.proposal
    assert proposal is not None and ProposalSource.OCR in proposal.sources
    row = next(r for r in proposal.rows if r.code == ord("d"))
    assert (row.current, row.proposed) == ("e", "d")
    pane.accept_button.click()
    assert window.session.accepted == {proposal.font_id: proposal} and pane.state() == "accepted"
    assert window.act_save_repaired.isEnabled()
    out = tmp_path / "fixed.pdf"
    saver = window.repair_saver
    with qtbot.waitSignal(saver.saved, timeout=TIMEOUT):
        saver.save(out)
    message = window.statusBar().currentMessage()
    assert message.startswith("Repaired 1 font: F1 (") and message.endswith(f"→ {out}")
    with open_document(out) as doc:
        from glyphscope.core.analysis import analyze_page

        text = analyze_page(doc, 1).texts["plain"].text
    assert text.split("\n")[:2] == list(PANGRAMS[:2])
    pane.reject_button.click()
    assert window.session.accepted == {} and not window.act_save_repaired.isEnabled()


def test_the_offset_proposal_shows_without_ocr_and_saving_over_the_input_is_refused(
    qtbot, window, tmp_path, monkeypatch
):
    path = _write(tmp_path, "shifted.pdf", to_bytes(make_pdf([shown(PANGRAM)], {"/F1": shifted_font})))
    original = path.read_bytes()
    open_file(qtbot, window, path)
    pane = _fonts_in_front(qtbot, window)
    proposal = pane.proposal
    assert proposal is not None and proposal.sources == (ProposalSource.OFFSET,) and proposal.offset == -1
    row = next(r for r in proposal.rows if r.code == ord("T"))
    assert (row.current, row.proposed) == ("U", "T")
    pane.accept_button.click()
    saver = window.repair_saver
    asked: list[Path] = []

    def ask(suggestion: Path) -> str:
        asked.append(suggestion)
        return str(path)  # the user picks the open file itself

    monkeypatch.setattr(saver, "ask_path", ask)
    with qtbot.waitSignal(saver.failed, timeout=TIMEOUT) as blocker:
        assert saver.save() is None
    assert asked == [repaired_name(path)] and asked[0].name == "shifted-repaired.pdf"
    assert "is the open file: glyphscope never writes the input" in blocker.args[0]
    assert window.last_error[0] == "Save repaired copy"
    assert path.read_bytes() == original
    out = tmp_path / "ok.pdf"
    with qtbot.waitSignal(saver.saved, timeout=TIMEOUT):
        saver.save(out)
    with open_document(out) as doc:
        from glyphscope.core.analysis import analyze_page

        assert analyze_page(doc, 1).texts["plain"].text.strip() == PANGRAM


def test_a_repair_error_is_a_message(qtbot, window, tmp_path, monkeypatch):
    from glyphscope.inspector.repair import RepairError
    from glyphscope.inspector.verify import view as verify_view

    path = _write(tmp_path, "shifted.pdf", to_bytes(make_pdf([shown(PANGRAM)], {"/F1": shifted_font})))
    open_file(qtbot, window, path)
    _fonts_in_front(qtbot, window).accept_button.click()

    def refuse(*args: object, **kwargs: object) -> None:
        raise RepairError("no font to repair: glyphscope found no better decoding for the fonts chosen")

    monkeypatch.setattr(verify_view, "repair", refuse)
    with qtbot.waitSignal(window.repair_saver.failed, timeout=TIMEOUT) as blocker:
        window.repair_saver.save(tmp_path / "out.pdf")
    assert (
        blocker.args[0]
        == "RepairError: no font to repair: glyphscope found no better decoding for the fonts chosen"
    )
    assert not (tmp_path / "out.pdf").exists()


@requires_ocr
def test_a_type3_font_without_mapping_is_repaired_from_the_ink(qtbot, window, tmp_path):
    """No offset explains a Type3 font's codes: only the ink proposes, and its table is what is written."""
    from tests.ocr_pdfs import type3_without_mapping

    data, truth = type3_without_mapping()
    path = _write(tmp_path, "type3.pdf", data)
    open_file(qtbot, window, path)
    assert _fonts_in_front(qtbot, window).proposal is None  # nothing proposed before the ink is read
    _verify(qtbot, window)
    proposal = window.fonts.proposal.proposal
    assert proposal is not None and proposal.sources == (ProposalSource.OCR,) and proposal.offset is None
    right = sum(proposal.ocr.get(code) == text for code, text in truth.items() if text.strip())
    assert right / sum(1 for t in truth.values() if t.strip()) >= 0.95
    window.fonts.proposal.accept_button.click()
    out = tmp_path / "type3-fixed.pdf"
    with qtbot.waitSignal(window.repair_saver.saved, timeout=TIMEOUT):
        window.repair_saver.save(out)
    with open_document(out) as doc:
        glyphs = [g for g in doc.interpret(1).glyphs if g.code in truth and truth[g.code].strip()]
    assert len(glyphs) > 100 and sum(g.unicode == truth[g.code] for g in glyphs) / len(glyphs) >= 0.95


@requires_ocr
def test_a_proposal_accepted_before_verifying_is_not_the_one_shown_after(qtbot, window, tmp_path):
    path = _write(tmp_path, "off.pdf", off_by_one())
    open_file(qtbot, window, path)
    pane = _fonts_in_front(qtbot, window)
    offset_only = pane.proposal
    assert offset_only is not None and offset_only.sources == (ProposalSource.OFFSET,)
    pane.accept_button.click()
    assert pane.state() == "accepted"
    _verify(qtbot, window)
    assert pane.proposal.sources == (ProposalSource.OFFSET, ProposalSource.OCR)
    assert pane.state() == "not decided (an earlier proposal is accepted)"
    assert window.session.accepted[offset_only.font_id] is offset_only
    pane.accept_button.click()
    assert pane.state() == "accepted" and window.session.accepted[offset_only.font_id] is pane.proposal
