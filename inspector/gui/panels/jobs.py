"""What every panel running one cancellable background job shares: cancel and a progress bar."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PySide6.QtWidgets import QProgressBar

    from glyphscope.inspector.gui.workers import Worker


class BackgroundJobPanel:
    """Mixin for QWidget panels with `self.worker` (a workers.Worker or None) and `self.progress`."""

    worker: Worker | None
    progress: QProgressBar

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()

    def _on_progress(self, done: int, total: int, message: str) -> None:
        self.progress.setRange(0, max(1, total))
        self.progress.setValue(done)
        self.progress.setFormat(message)
