"""The notes written in the window go into the HTML report (escaped); save dialogs start in the folder
used last (or Documents), never in the inspected file's folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.gui_helpers import TIMEOUT, open_file
from tests.pdfbuild import make_pdf, to_bytes

NOTES = "<b>Customer</b> says page 1 & the table read as garbage"


def customer_pdf(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "customer" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(to_bytes(make_pdf([b"BT /F1 12 Tf 72 700 Td (Invoice total) Tj ET"])))
    return path


def test_notes_go_into_the_report_escaped(qtbot: Any, window: Any, tmp_path: Path, monkeypatch: Any) -> None:
    w = window
    open_file(qtbot, w, customer_pdf(tmp_path, "a.pdf"))
    w.diagnostics.notes.setPlainText(NOTES)  # typed in Diagnostics › Notes
    assert w.session.notes == NOTES
    monkeypatch.setattr(w.exporter, "ask_path", lambda kind, suggestion: str(tmp_path / suggestion))
    with qtbot.waitSignal(w.exporter.exported, timeout=TIMEOUT) as blocker:
        w.exporter.triage_report()
    html = Path(blocker.args[1]).read_text(encoding="utf-8")
    assert "&lt;b&gt;Customer&lt;/b&gt; says page 1 &amp; the table read as garbage" in html
    assert "<b>Customer</b>" not in html
    # Notes are about one document: another file starts with none.
    open_file(qtbot, w, customer_pdf(tmp_path, "b.pdf"))
    assert w.session.notes == "" and w.diagnostics.notes.toPlainText() == ""


def test_save_dialogs_start_in_the_folder_used_last(
    qtbot: Any, window: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    from PySide6.QtWidgets import QFileDialog

    from glyphscope.inspector.gui.dialogs import default_save_dir

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    documents = tmp_path / "home" / "Documents"
    documents.mkdir(parents=True)
    w = window
    source = customer_pdf(tmp_path, "ledger.pdf")
    open_file(qtbot, w, source)
    exports = tmp_path / "exports"
    exports.mkdir()
    started: list[Path] = []
    chosen = iter([str(exports / "first.json"), str(exports / "second.csv"), str(tmp_path / "third.txt"), ""])

    def dialog(parent: Any, title: str, start: str, filters: str) -> tuple[str, str]:
        started.append(Path(start))
        return next(chosen), filters

    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    assert w.exporter.glyphs_json() == exports / "first.json"
    assert started[0] == documents / "ledger-p1-glyphs.json" and started[0].parent == default_save_dir()
    assert started[0].parent != source.parent
    assert w.exporter.glyphs_csv() == exports / "second.csv"
    assert started[1] == exports / "ledger-p1-glyphs.csv"  # the folder used last
    # The document text panel's save dialog remembers it too, in the same setting.
    panel = w.document_text
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=TIMEOUT)
    assert panel.save() == str(tmp_path / "third.txt")
    assert started[2] == exports / "ledger-plain.txt"
    assert w.exporter.glyphs_json() is None  # cancelled: nothing written, the folder kept
    assert started[3].parent == tmp_path
