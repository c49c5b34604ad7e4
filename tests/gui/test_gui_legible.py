"""A file a person can read when it opens: a damaged file named once, the opened file's name whole
(pytest-qt)."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel

from glyphscope.inspector.gui import dialogs
from tests.gui_helpers import TIMEOUT, window_at

# -- also: a truncated PDF ----------------------------------------------------------------------


def test_a_truncated_pdf_is_a_damaged_pdf_named_once(qtbot, window, demo_pdf, tmp_path) -> None:
    w = window
    broken = tmp_path / "truncated.pdf"
    broken.write_bytes(demo_pdf.read_bytes()[:300])
    with qtbot.waitSignal(w.open_failed, timeout=TIMEOUT) as blocker:
        w.open_path(broken)
    title, message = w.last_error
    assert title == "Damaged PDF"
    assert message.count(str(broken)) == 1 and blocker.args[0] == message
    not_pdf = tmp_path / "notes.pdf"
    not_pdf.write_text("hello")
    with qtbot.waitSignal(w.open_failed, timeout=TIMEOUT):
        w.open_path(not_pdf)
    assert w.last_error[0] == "Not a PDF"
    assert dialogs.error_title(ValueError("x")) == "Unexpected error"


def test_the_opened_file_is_named_whole_in_the_status_bar_and_its_folder_in_the_title(
    qtbot, demo_pdf
) -> None:
    from pathlib import Path

    w = window_at(qtbot, (1280, 800), demo_pdf, 1)
    message = w.statusBar().currentMessage()
    assert message == f"Opened {Path(demo_pdf).name} (15 pages)"
    room = w.statusBar().width() - sum(c.width() for c in w.statusBar().findChildren(QLabel) if c.isVisible())
    assert w.statusBar().fontMetrics().horizontalAdvance(message) < room  # not cut off at 1280 px
    assert (
        w.windowTitle()
        == f"{Path(demo_pdf).name} ({Path(demo_pdf).parent}) — page 1 of 15 — glyphscope inspector"
    )
    w.close()
