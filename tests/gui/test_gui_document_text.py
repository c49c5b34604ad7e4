"""The whole document's text (gui/panels/document_text.py): made in a worker, saved from a writable
folder, past a broken page (pytest-qt)."""

from __future__ import annotations

from pathlib import Path

from glyphscope.core import analysis
from glyphscope.core.analysis import analyze_page
from tests.gui_helpers import open_file


def test_whole_document_text_in_a_worker(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf)
    panel = w.document_text
    # Wait on the panel's state, not on the worker's signal: a signal emitted from the worker
    # thread before the test connects to it would never arrive.
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=60_000)
    assert len(panel.pages) == w.session.page_count
    assert panel.text().count("\f") == w.session.page_count - 1
    assert panel.progress.value() == w.session.page_count
    doc = w.session.document
    pages = range(1, doc.page_count + 1)
    assert panel.text() == "\f".join(analyze_page(doc, n).texts["plain"].text or "" for n in pages)
    # Cancel a second run at once: it stops without a result and without an error.
    worker = panel.extract()
    worker.cancel()
    qtbot.waitUntil(panel.extract_button.isEnabled, timeout=60_000)


def test_whole_document_text_saves_from_a_writable_folder(
    qtbot, window, demo_pdf, tmp_path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    from glyphscope.inspector.gui.dialogs import default_save_dir

    w = window
    open_file(qtbot, w, demo_pdf)
    panel = w.document_text
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=60_000)
    asked: list[str] = []
    target = tmp_path / "out.txt"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (asked.append(a[2]) or str(target), "")
    )
    assert panel.save() == str(target)
    assert asked == [str(default_save_dir() / "demo-plain.txt")]  # like the other save dialogs
    assert Path(asked[0]).parent != demo_pdf.parent
    assert target.read_text(encoding="utf-8") == panel.text() and "Saved 15 pages" in panel.status.text()
    # A folder that cannot be written: said in the panel, no exception.
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "no" / "x.txt"), ""))
    assert panel.save() is None and "Not saved" in panel.status.text()


def test_whole_document_text_keeps_going_past_a_broken_page(qtbot, window, demo_pdf, monkeypatch) -> None:
    real = analysis.analyze_page

    def failing(doc, n, params=None):
        if n == 3:
            raise ValueError("synthetic failure on page 3")
        return real(doc, n, params) if params is not None else real(doc, n)

    w = window
    open_file(qtbot, w, demo_pdf)
    monkeypatch.setattr(analysis, "analyze_page", failing)
    panel = w.document_text
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=60_000)
    assert [n for n, _ in panel.pages] == list(range(1, w.session.page_count + 1))
    assert dict(panel.pages)[3] == "[page 3 failed: ValueError: synthetic failure on page 3]"
    assert dict(panel.pages)[4] == real(w.session.document, 4).texts["plain"].text
