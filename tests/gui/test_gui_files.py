"""Opening files that fight back: encrypted, damaged, not a PDF. The window never crashes."""

from __future__ import annotations

import pikepdf
import pytest

from glyphscope.inspector.gui import dialogs
from tests.conftest import corpus_file
from tests.gui_helpers import TIMEOUT


@pytest.fixture
def errors(monkeypatch):
    """Capture error boxes instead of showing them."""
    shown: list[tuple[str, str]] = []

    def fake_show_error(parent, title, message, details=None):
        shown.append((title, message))

    monkeypatch.setattr(dialogs, "show_error", fake_show_error)
    return shown


def test_password_dialog_retries_after_a_wrong_password(qtbot, window, monkeypatch, errors) -> None:
    path = corpus_file("samplefiles__libreoffice-writer-password.pdf")
    answers = iter(["not-it", "openpassword"])
    asked: list[bool] = []

    def fake_ask(parent, name, wrong):
        asked.append(wrong)
        return next(answers)

    monkeypatch.setattr(dialogs, "ask_password", fake_ask)
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT):
        window.open_path(path)
    assert asked == [False, True]  # first asked, then told it was wrong
    assert window.session.password == "openpassword"
    assert window.bundle.analysis.page.glyphs  # decrypted text is there
    assert not window.canvas.page_item.pixmap().isNull()  # and rendered
    assert errors == []


def test_cancelled_password_dialog_leaves_nothing_open(qtbot, window, monkeypatch, errors) -> None:
    path = corpus_file("samplefiles__libreoffice-writer-password.pdf")
    monkeypatch.setattr(dialogs, "ask_password", lambda parent, name, wrong: None)
    with qtbot.waitSignal(window.open_failed, timeout=TIMEOUT) as blocker:
        window.open_path(path)
    assert "password" in blocker.args[0]
    assert window.session.document is None


def test_password_on_the_command_line(qtbot, window, errors) -> None:
    path = corpus_file("samplefiles__libreoffice-writer-password.pdf")
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT):
        window.open_path(path, password="openpassword")


def test_damaged_file_opens(qtbot, window, errors) -> None:
    path = corpus_file("pdfminer__zen_of_python_corrupted.pdf")
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT):
        window.open_path(path)
    assert errors == []
    assert window.session.document is not None
    # Whatever was recovered is shown; a problem, if any, is said in the page area, not by a crash.
    assert window.bundle is not None


def test_repaired_file_opens_with_a_warning(qtbot, window, errors) -> None:
    path = corpus_file("pdfplumber__issue-848.pdf")
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT):
        window.open_path(path)
    assert "repair" in window.warning_label.text()
    assert "damaged file repaired" in window.warning_label.toolTip()


def test_not_a_pdf_gives_a_clear_message(qtbot, window, tmp_path, errors) -> None:
    path = tmp_path / "notes.pdf"
    path.write_text("these are not the bytes you are looking for\n")
    with qtbot.waitSignal(window.open_failed, timeout=TIMEOUT) as blocker:
        window.open_path(path)
    assert errors and errors[0][0] == "Not a PDF"
    assert "not a PDF" in blocker.args[0]
    assert window.session.document is None
    with qtbot.waitSignal(window.open_failed, timeout=TIMEOUT):
        window.open_path(tmp_path / "missing.pdf")
    assert errors[-1][0] == "File not found"


def test_real_error_box_does_not_block(qtbot, window, tmp_path) -> None:
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with qtbot.waitSignal(window.open_failed, timeout=TIMEOUT):
        window.open_path(path)
    assert window.last_error is not None and window.last_error[0] == "Not a PDF"


def test_broken_page_shows_its_error_in_the_page_area(qtbot, window, tmp_path, errors) -> None:
    pdf = pikepdf.new()
    pdf.add_blank_page(page_size=(300, 200))
    pdf.add_blank_page(page_size=(300, 200))
    pdf.pages[1].obj["/Contents"] = pdf.make_stream(b"BT /NoSuchFont 12 Tf 10 10 Td (x) Tj ET q q Q Q Q")
    path = tmp_path / "odd.pdf"
    pdf.save(path)
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT):
        window.open_path(path, page=2)
    assert window.session.page_number == 2
    assert errors == []


def test_drop_a_file_opens_it(qtbot, window, demo_pdf) -> None:
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(demo_pdf))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
    )
    with qtbot.waitSignal(window.page_complete, timeout=TIMEOUT):
        window.dropEvent(event)
    assert window.session.source.name == demo_pdf.name
