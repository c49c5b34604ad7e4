"""File › Save repaired copy…: the fonts whose proposed mapping was accepted (Fonts panel) get a
/ToUnicode CMap (or, for byte-pair fonts of a code page, ActualText spans) in a copy of the file,
with the user's decisions on single codes, written in a worker by `inspector.repair.repair`.

The default name is `<stem>-repaired.pdf`, in the folder the window saved to last (else Documents),
not beside the input; the input itself is refused before
anything runs, and a RepairError (nothing to write, unreadable input) is shown as a message.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from glyphscope.inspector.gui import dialogs
from glyphscope.inspector.gui.workers import Worker, alive
from glyphscope.inspector.repair import RepairReport, same_file
from glyphscope.inspector.verify.view import repair_copy_job, repaired_name, repaired_summary

if TYPE_CHECKING:
    from glyphscope.inspector.gui.main_window import MainWindow

TITLE = "Save repaired copy"


class RepairSaver(QObject):
    """The window's File › Save repaired copy action."""

    saved = Signal(str, object)  # path, inspector.repair.RepairReport
    failed = Signal(str)  # the message shown

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.worker: Worker | None = None

    def ask_path(self, suggestion: Path) -> str | None:
        """The save dialog, started where every save dialog of the window starts (the folder saved
        to last, else Documents: never the customer's folder of the input); tests patch it."""
        return dialogs.ask_save_path(
            self.window, self.window.settings, TITLE, suggestion.name, "PDF files (*.pdf)"
        )

    def save(self, path: str | Path | None = None) -> Worker | None:
        """Ask where (unless `path`), refuse the input, and write the copy in a worker; returns it."""
        session = self.window.session
        source = session.source
        if source is None or not session.accepted:
            self._fail("Accept a proposed mapping in the Fonts panel first: nothing is accepted.")
            return None
        chosen = path or self.ask_path(repaired_name(source))
        if not chosen:
            return None
        if same_file(Path(source), Path(chosen)):
            self._fail(f"{chosen} is the open file: glyphscope never writes the input. Choose another name.")
            return None
        accepted = list(session.accepted.values())
        decisions = {
            fid: dict(codes) for fid, codes in session.code_decisions.items() if fid in session.accepted
        }
        worker = Worker(repair_copy_job, str(source), str(chosen), accepted, session.password, decisions)
        worker.signals.result.connect(alive(self, lambda report: self._done(str(chosen), report)))
        worker.signals.error.connect(alive(self, lambda message, exc: self._fail(message)))
        worker.signals.finished.connect(alive(self, lambda: self._finished(worker)))
        self.worker = worker
        self.window.statusBar().showMessage(f"Writing a repaired copy to {chosen}…")
        self.window.pool.start(worker, priority=-3)
        return worker

    def _done(self, path: str, report: RepairReport) -> None:
        self.window.statusBar().showMessage(repaired_summary(report, path), 15000)
        self.saved.emit(path, report)

    def _fail(self, message: str) -> None:
        dialogs.show_error(self.window, TITLE, message)
        self.window.statusBar().showMessage(f"Not saved: {message}", 15000)
        self.failed.emit(message)

    def _finished(self, worker: Worker) -> None:
        if self.worker is worker:
            self.worker = None
