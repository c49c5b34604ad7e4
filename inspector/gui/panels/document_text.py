"""Whole-document text in any mode, extracted by a cancellable worker with progress."""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase, QMouseEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.analysis import document_texts
from glyphscope.core.assembly.document_join import FORM_FEED, join_page_texts, write_page_texts
from glyphscope.inspector.gui.panels.jobs import BackgroundJobPanel
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.jobs import CancelToken, Progress
from glyphscope.inspector.views.session import MODES, Session

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters

SEPARATOR = FORM_FEED  # between pages, as `glyphscope text` writes it


def document_text_job(
    document: Document, mode: str, params: Parameters, *, token: CancelToken
) -> Generator[Progress, None, list[tuple[int, str]]]:
    """Text of every page in `mode` (core's document loop); a page that fails has its error as its text."""
    pages: list[tuple[int, str]] = []
    total = document.page_count

    def failed(n: int, exc: Exception) -> None:  # one bad page must not end the document
        pages.append((n, f"[page {n} failed: {type(exc).__name__}: {exc}]"))

    yield Progress(0, total, f"page 1 of {total}")
    texts = document_texts(
        document, range(1, total + 1), mode, params, should_stop=lambda: token.cancelled, on_error=failed
    )
    for n, page_text in texts:
        pages.append((n, page_text.text or ""))
        yield Progress(n, total, f"page {min(n + 1, total)} of {total}")
    token.check()
    yield Progress(total, total, "done")
    return pages


class DocumentTextPanel(BackgroundJobPanel, QWidget):
    page_requested = Signal(int)  # a double-clicked line's page (the panel opens it through the session)

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.pool = pool
        self.worker: Worker | None = None
        self.pages: list[tuple[int, str]] = []
        self.offsets: list[tuple[int, int]] = []  # (start offset in the editor, page number)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        bar = QHBoxLayout()
        self.mode_combo = QComboBox()
        self.mode_combo.setObjectName("document_text.mode")
        self.mode_combo.addItems(list(MODES))
        self.mode_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.mode_combo.setMinimumContentsLength(6)
        self.extract_button = QPushButton("Extract all")
        self.extract_button.setToolTip("Extract the text of every page in the chosen mode")
        self.extract_button.setObjectName("document_text.extract")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("document_text.cancel")
        self.cancel_button.setEnabled(False)
        self.save_button = QPushButton("Save…")
        self.save_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("document_text.progress")
        self.progress.setTextVisible(True)
        self.mode_combo.setToolTip("Text mode of the extraction")
        for button in (self.extract_button, self.cancel_button, self.save_button):
            # the style's 80 px minimum would push the row past a side column
            button.setMinimumWidth(button.fontMetrics().horizontalAdvance(button.text()) + 18)
        for w in (self.mode_combo, self.extract_button, self.cancel_button, self.save_button):
            bar.addWidget(w)
        bar.addStretch(1)
        layout.addLayout(bar)
        layout.addWidget(self.progress)  # its own row: the buttons fit a side column
        self.status = QLabel("Pages are separated by a form feed; double-click a line to open its page.")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("document_text.editor")
        self.editor.setReadOnly(True)
        self.editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.mouseDoubleClickEvent = self._double_click  # type: ignore[method-assign]
        layout.addWidget(self.editor)
        self.extract_button.clicked.connect(self.extract)
        self.cancel_button.clicked.connect(self.cancel)
        self.save_button.clicked.connect(self.save)
        session.events.document.connect(lambda doc: self.reset())
        session.events.mode.connect(self.mode_combo.setCurrentText)

    def reset(self) -> None:
        self.cancel()
        self.pages = []
        self.offsets = []
        self.editor.setPlainText("")
        self.progress.reset()
        self.save_button.setEnabled(False)
        self.extract_button.setEnabled(self.session.document is not None)

    def extract(self) -> Worker | None:
        if self.session.document is None:
            return None
        self.cancel()
        self.editor.setPlainText("")
        self.progress.setRange(0, max(1, self.session.page_count))
        self.progress.setValue(0)
        worker = Worker(
            document_text_job, self.session.document, self.mode_combo.currentText(), self.session.params
        )
        worker.signals.progress.connect(self._on_progress)
        worker.signals.result.connect(self._on_result)
        worker.signals.error.connect(
            alive(self, lambda message, exc: self.status.setText(f"Failed: {message}"))
        )
        worker.signals.cancelled.connect(alive(self, lambda: self.status.setText("Cancelled.")))
        worker.signals.finished.connect(self._on_finished)
        self.worker = worker
        self.extract_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.status.setText("Extracting…")
        self.pool.start(worker, priority=-1)
        return worker

    def _on_result(self, pages: list[tuple[int, str]]) -> None:
        self.pages = pages
        chunks: list[str] = []
        self.offsets = []
        offset = 0
        for n, text in pages:
            header = f"──────── page {n} ────────\n"
            self.offsets.append((offset, n))
            chunk = header + text + "\n"
            chunks.append(chunk)
            offset += len(chunk)
        self.editor.setPlainText("".join(chunks))
        self.status.setText(f"{len(pages)} pages, {sum(len(t) for _, t in pages)} characters.")
        self.save_button.setEnabled(True)

    def _on_finished(self) -> None:
        self.worker = None
        self.extract_button.setEnabled(self.session.document is not None)
        self.cancel_button.setEnabled(False)

    def text(self) -> str:
        """The document text exactly as extracted (pages joined by form feeds)."""
        return join_page_texts((t for _, t in self.pages), SEPARATOR)

    def page_at(self, position: int) -> int | None:
        page = None
        for start, n in self.offsets:
            if start <= position:
                page = n
            else:
                break
        return page

    def _double_click(self, event: QMouseEvent) -> None:
        QPlainTextEdit.mouseDoubleClickEvent(self.editor, event)
        cursor = self.editor.cursorForPosition(event.position().toPoint())
        page = self.page_at(cursor.position())
        if page is not None:
            self.page_requested.emit(page)
            self.session.set_page(page)

    def suggested_name(self) -> str:
        """The file name the save dialog suggests: the PDF's and the mode's."""
        source = self.session.source
        stem = Path(source).stem if source else "document"
        return f"{stem}-{self.mode_combo.currentText()}.txt"

    def save(self) -> str | None:
        """Save through the window's save dialog (it starts in the folder used last, or Documents)."""
        from glyphscope.inspector.gui.dialogs import ask_save_path, make_settings

        name = ask_save_path(
            self, make_settings(), "Save document text", self.suggested_name(), "Text (*.txt)"
        )
        if not name:
            return None
        try:
            with open(name, "w", encoding="utf-8", newline="") as fh:
                write_page_texts(fh, (t for _, t in self.pages), SEPARATOR)
        except OSError as exc:  # a read-only folder, a full disk: said here, never a crash
            self.status.setText(f"Not saved: {exc.strerror or exc} ({name})")
            return None
        self.status.setText(f"Saved {len(self.pages)} pages to {name}")
        return name
