"""The page list: every page by number, filled instantly however long the document is; a page
seen once says what it holds (glyphs, or none: an image only; its findings by severity)."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QListView, QVBoxLayout, QWidget

from glyphscope.core.diagnostics import Severity
from glyphscope.inspector.views.page_facts import PageBundle
from glyphscope.inspector.views.session import Session

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis


class PageListModel(QAbstractListModel):
    """Rows are computed on demand: a 1,000-page file costs nothing to list."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0
        self.notes: dict[int, str] = {}

    def set_count(self, count: int) -> None:
        self.beginResetModel()
        self.count = count
        self.notes = {}
        self.endResetModel()

    def set_note(self, page: int, note: str) -> None:
        if self.notes.get(page) == note or not 1 <= page <= self.count:
            return
        self.notes[page] = note
        index = self.index(page - 1)
        self.dataChanged.emit(index, index)

    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else self.count

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if not index.isValid():
            return None
        page = index.row() + 1
        if role == Qt.ItemDataRole.DisplayRole:
            note = self.notes.get(page)
            return f"Page {page}" + (f" — {note}" if note else "")
        if role == Qt.ItemDataRole.UserRole:
            return page
        return None


def page_note(analysis: PageAnalysis) -> str:
    """What a page holds, in a few words: "964 glyphs · 2 warnings", "no text (image only?)"."""
    glyphs = len(analysis.page.glyphs)
    parts = [f"{glyphs} glyphs" if glyphs else "no text"]
    severities = Counter(d.severity for d in analysis.findings)
    for severity, word in ((Severity.ERROR, "error"), (Severity.WARNING, "warning")):
        n = severities.get(severity, 0)
        if n:
            parts.append(f"{n} {word}{'s' if n > 1 else ''}")
    return " · ".join(parts)


class PageListPanel(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.model = PageListModel()
        self.view = QListView()
        self.view.setObjectName("pages.view")
        self.view.setModel(self.model)
        self.view.setUniformItemSizes(True)
        layout.addWidget(self.view)
        self.view.selectionModel().currentChanged.connect(self._on_current)
        session.events.document.connect(lambda doc: self.model.set_count(session.page_count))
        session.events.page.connect(self._on_page)
        session.events.view.connect(self._on_view)

    def _on_current(self, current: QModelIndex, previous: QModelIndex) -> None:
        if current.isValid():
            self.session.set_page(current.row() + 1)

    def _on_view(self, view: PageBundle | None) -> None:
        if view is None:
            return
        if view.error:
            self.model.set_note(view.page_number, "error: " + view.error.splitlines()[0][:60])
        elif view.analysis is not None:
            self.model.set_note(view.page_number, page_note(view.analysis))

    def _on_page(self, page: int) -> None:
        index = self.model.index(page - 1)
        if self.view.currentIndex() != index:
            self.view.setCurrentIndex(index)
        self.view.scrollTo(index)
