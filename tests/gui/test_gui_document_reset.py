"""Page- and document-scoped state: opening one document after another leaves nothing of the first
in any panel (Fonts, Diagnostics, the glyph table and its scroll position, the stepper), also while
Diagnostics scans every page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pikepdf

from tests.gui_helpers import TIMEOUT, go_to, open_file
from tests.pdfbuild import helvetica, make_pdf, to_bytes


def long_page(lines: int = 120) -> bytes:
    """Many short lines in two fonts, and one line outside the crop box (a culled-glyphs finding)."""
    body = [b"BT /F1 6 Tf 8 TL 10 780 Td"]
    body += [b"(abcdef) Tj T*" if i % 2 else b"/F2 6 Tf (ghijkl) Tj /F1 6 Tf T*" for i in range(lines)]
    body.append(b"ET BT /F1 9 Tf 700 10 Td (slug outside) Tj ET")
    return b"\n".join(body)


def first_document(tmp_path: Path, more_pages: int = 0) -> Path:
    pages = [long_page(), b"BT /F1 12 Tf 72 700 Td (page two) Tj ET", b"BT /F2 12 Tf 72 700 Td (three) Tj ET"]
    pdf = make_pdf(
        pages + [long_page()] * more_pages,
        {"/F1": helvetica, "/F2": lambda p: helvetica(p, "/Courier")},
        media_box=[0, 0, 900, 800],
        crop_box=[0, 0, 612, 800],
    )
    path = tmp_path / "first.pdf"
    path.write_bytes(to_bytes(pdf))
    return path


SECOND_GLYPHS = 30 * len("Times")


def second_document(tmp_path: Path) -> Path:
    """One page of 30 lines in one font: enough rows for the glyph table to scroll."""
    lines = b" ".join([b"(Times) Tj T*"] * 30)
    pdf = make_pdf(
        [b"BT /T1 12 Tf 14 TL 72 700 Td " + lines + b" ET"], {"/T1": lambda p: helvetica(p, "/Times-Roman")}
    )
    path = tmp_path / "second.pdf"
    path.write_bytes(to_bytes(pdf))
    return path


def font_keys(w: Any) -> list[str]:
    return [f.font_key for f in w.fonts.model.fonts]


def test_a_second_document_leaves_nothing_of_the_first(qtbot: Any, window: Any, tmp_path: Path) -> None:
    w = window
    open_file(qtbot, w, first_document(tmp_path))
    assert font_keys(w) == ["/F1", "/F2"]
    # The first document's state in every panel: a font selected, a scan, a scrolled table, a trace.
    assert w.fonts.select_font("/F2") == 1
    assert "Courier" in w.fonts.card.toPlainText()
    diagnostics = w.diagnostics
    with qtbot.waitSignal(diagnostics.summary_finished, timeout=TIMEOUT):
        diagnostics.scan_document()
    assert [s.page for s in diagnostics.summary_rows()] == [1, 2, 3]
    assert any(d.kind.value == "culled_glyphs" for d in diagnostics.findings)
    table = w.glyph_table.table
    bar = table.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=TIMEOUT)
    bar.setValue(bar.maximum())
    stepper = w.stepper_panel
    stepper.with_trace(lambda: None)
    qtbot.waitUntil(lambda: stepper.stepper.trace is not None, timeout=TIMEOUT)
    assert stepper.stepper.trace.glyph_count == len(w.bundle.analysis.page.glyphs) > 700

    open_file(qtbot, w, second_document(tmp_path))
    # Fonts: the second document's one font.
    assert font_keys(w) == ["/T1"]
    assert w.fonts.label.text().startswith("<b>1 font</b> on page 1")
    assert w.fonts.codes_model.rowCount() == 0
    card = w.fonts.card.toPlainText()  # the first document's Courier card is gone: what to do instead
    assert "Courier" not in card and card.startswith("Select a font to highlight its glyphs")
    # Diagnostics: page 1 of the second file, no scan rows of the first.
    assert diagnostics.summary_rows() == [] and diagnostics.summary.topLevelItemCount() == 0
    assert diagnostics.page_label.text().startswith("<b>Page 1</b>")
    assert not any(d.kind.value == "culled_glyphs" for d in diagnostics.findings)
    # The glyph table: the new page's glyphs, from the top.
    assert w.glyph_table.model.rowCount() == SECOND_GLYPHS
    qtbot.waitUntil(lambda: bar.maximum() > 0, timeout=TIMEOUT)
    assert bar.value() == 0
    # The stepper: the first file's trace is gone; the one it shows is the second file's.
    qtbot.waitUntil(lambda: stepper.stepper.trace is not None, timeout=TIMEOUT)
    assert stepper.stepper.trace.glyph_count == SECOND_GLYPHS and stepper.stepper.current == -1


def test_a_scan_of_the_first_document_does_not_reach_the_second(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    w = window
    open_file(qtbot, w, first_document(tmp_path, more_pages=40))
    diagnostics = w.diagnostics
    worker = diagnostics.scan_document()
    assert worker is not None
    ended: list[bool] = []
    worker.signals.finished.connect(lambda: ended.append(True))
    # While it scans, another page is shown: heading and list are that page's.
    go_to(qtbot, w, 2)
    assert diagnostics.page_label.text().startswith("<b>Page 2</b>")
    assert all(d.page in (None, 2) for d in diagnostics.findings)
    open_file(qtbot, w, second_document(tmp_path))
    qtbot.waitUntil(lambda: bool(ended), timeout=TIMEOUT)
    assert diagnostics.summary_rows() == [] and diagnostics.summary.topLevelItemCount() == 0
    assert diagnostics.scan_button.isEnabled() and not diagnostics.cancel_button.isEnabled()
    assert "Scanning" not in diagnostics.doc_label.text()
    pages = pikepdf.open(second_document(tmp_path)).pages
    assert diagnostics.doc_label.text().startswith(f"{len(pages)} pages.")
