"""Find (Ctrl+F): search the current mode's text of every page; F3 / Shift+F3 step through the hits.

The current page is searched at once, the other pages by a cancellable worker.
When the text has no hit, the glyphs are searched too and the panel says why
the text differs (a space not inserted, glyphs culled outside the CropBox,
duplicates, unresolved glyphs...), selecting those glyphs on the canvas.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.jobs import BackgroundJobPanel
from glyphscope.inspector.gui.table_model import wrap_rows
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.search import (
    Hit,
    MissExplanation,
    SearchResult,
    explain_miss,
    find_in_text,
    hidden_note,
    query_pattern,
    search_document_job,
)
from glyphscope.inspector.views.session import Session

ROLE = Qt.ItemDataRole.UserRole
MAX_LISTED = 2000


class FindPanel(BackgroundJobPanel, PagePanel):
    source = "find"
    search_finished = Signal()  # the whole document was searched (or the search was cancelled)

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.query = ""
        self.case_sensitive = False
        self.mode = session.mode
        self.hits: list[Hit] = []
        self.current = -1
        self.explanations: list[MissExplanation] = []
        self.worker: Worker | None = None
        self.searching = False
        self._pending: Hit | MissExplanation | None = None
        self._updating = False

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        bar = QHBoxLayout()
        self.edit = QLineEdit()
        self.edit.setObjectName("find.query")
        self.edit.setPlaceholderText("Find in the text of the current mode (Enter: search, F3: next)")
        self.edit.setClearButtonEnabled(True)
        self.case_box = QCheckBox("Match case")
        self.case_box.setObjectName("find.case")
        self.prev_button = QPushButton("◀ Prev")
        self.prev_button.setToolTip("Previous match (Shift+F3)")
        self.prev_button.setObjectName("find.prev")
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip("Next match (F3)")
        self.next_button.setObjectName("find.next")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("find.cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("find.progress")
        self.progress.setMaximumHeight(16)
        for w in (self.edit, self.prev_button, self.next_button):
            bar.addWidget(w)
        bar.setStretch(0, 1)
        layout.addLayout(bar)
        second = QHBoxLayout()  # two rows: the panel fits a side column without scrolling
        second.addWidget(self.case_box)
        second.addWidget(self.progress, 1)
        second.addWidget(self.cancel_button)
        layout.addLayout(second)
        self.status = QLabel("")
        self.status.setObjectName("find.status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.status)
        self.results = QTreeWidget()
        self.results.setObjectName("find.results")
        self.results.setHeaderLabels(["Page", "Match"])
        self.results.setRootIsDecorated(False)
        self.results.setColumnWidth(0, 70)
        wrap_rows(self.results)  # wrapped, never elided: the match sits in the middle of its context
        self.results.itemClicked.connect(self._on_item)
        self.results.itemActivated.connect(self._on_item)
        layout.addWidget(self.results)

        self.edit.returnPressed.connect(self.search)
        self.next_button.clicked.connect(self.next)
        self.prev_button.clicked.connect(self.previous)
        self.cancel_button.clicked.connect(self.cancel)
        self._rerun_timer = QTimer(self)
        self._rerun_timer.setSingleShot(True)
        self._rerun_timer.setInterval(300)
        self._rerun_timer.timeout.connect(self._rerun)
        session.events.document.connect(lambda doc: self.reset())
        session.events.mode.connect(lambda mode: self._rerun_timer.start() if self.query else None)
        session.events.params.connect(lambda params: self._rerun_timer.start() if self.query else None)
        session.events.texts.connect(lambda view: self._select_pending())  # a hit waits for its text

    # -- state --------------------------------------------------------------------------------
    def reset(self) -> None:
        self.cancel()
        self.hits, self.explanations, self.current = [], [], -1
        self._pending = None
        self.results.clear()
        self.status.setText("")
        self.progress.reset()

    def show_page(self, state: PageState) -> None:
        self._select_pending()

    def _select_pending(self) -> None:
        facts = self.facts
        if facts is None or self._pending is None or not facts.modes.ready(self.mode):
            return  # a hit to select waits for its page's text (`texts` calls again)
        pending, self._pending = self._pending, None
        if pending.page == facts.page.page_number:
            self._select(pending)

    def focus(self) -> None:
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def _rerun(self) -> None:
        """Mode or thresholds changed: the hits' offsets are stale, search again once a page is shown."""
        if not self.query or self.session.document is None:
            return
        if self.facts is None:
            self._rerun_timer.start()
            return
        self.search(self.query)

    # -- searching ----------------------------------------------------------------------------
    def search(self, query: str | None = None) -> Worker | None:
        """Search the current page now and the others in a worker; returns the worker (None if none)."""
        if query is not None and query != self.edit.text():
            self.edit.setText(query)
        query = self.edit.text()
        self._rerun_timer.stop()  # this search already uses the current mode and thresholds
        self.cancel()
        self.reset()
        self.query = query
        self.case_sensitive = self.case_box.isChecked()
        self.mode = self.session.mode
        if not query.strip() or self.facts is None or self.session.document is None:
            self.status.setText(
                "Type what to find and press Enter." if self.facts is not None else "No page loaded."
            )
            return None
        page = self.facts.page.page_number
        view = self.facts.modes.view(self.mode)
        pattern = query_pattern(query, self.case_sensitive)
        here = find_in_text(page, view.text, pattern, hidden_note(self.facts.classified, view.page_text))
        self.hits = list(here)
        if here:
            self.current = 0
            self._select(here[0])
            self.status.setText(f"{len(here)} on page {page}; searching the other pages…")
        else:
            explanation = explain_miss(
                page,
                self.facts.page.glyphs,
                self.facts.classified,
                view,
                query,
                self.case_sensitive,
                self.facts.page.annotations,
            )
            if explanation is not None:
                self.explanations.append(explanation)
                self._select(explanation)
                self.status.setText(
                    self._explanation_html(explanation, here=True) + "<br>Searching the other pages…"
                )
            else:
                self.status.setText(f"Not on page {page}; searching the other pages…")
        self._list()
        worker = Worker(
            search_document_job,
            self.session.document,
            query,
            self.mode,
            self.session.params,
            self.case_sensitive,
            page,
        )
        worker.signals.progress.connect(alive(self, self._on_progress))
        worker.signals.result.connect(alive(self, self._on_result))
        worker.signals.error.connect(
            alive(self, lambda message, exc: self.status.setText(f"Search failed: {html.escape(message)}"))
        )
        worker.signals.cancelled.connect(alive(self, lambda: self._finish_status(cancelled=True)))
        worker.signals.finished.connect(alive(self, lambda w=worker: self._on_finished(w)))
        self.worker = worker
        self.searching = True
        self.cancel_button.setEnabled(True)
        self.pool.start(worker, priority=-1)
        return worker

    def _on_result(self, result: SearchResult) -> None:
        if result.query != self.query or result.mode != self.mode:
            return
        current_page = self.facts.page.page_number if self.facts is not None else 0
        all_hits = sorted([*self.hits, *result.hits], key=lambda h: (h.page, h.start))
        current_hit = self.hits[self.current] if 0 <= self.current < len(self.hits) else None
        self.hits = all_hits
        if current_hit is not None:
            self.current = all_hits.index(current_hit)
        elif all_hits:
            # The first hit at or after the current page, wrapping round.
            after = [i for i, h in enumerate(all_hits) if h.page >= current_page]
            self.current = after[0] if after else 0
            if not self.explanations or self.explanations[0].page != current_page:
                self.go(self.current)
        self.explanations.extend(result.explanations)
        self._list()
        self._finish_status()

    def _finish_status(self, cancelled: bool = False) -> None:
        pages = len({h.page for h in self.hits})
        if self.hits:
            text = f"<b>{len(self.hits)}</b> match{'es' if len(self.hits) != 1 else ''} on {pages} page{'s' if pages != 1 else ''} in the {self.mode} text. F3 / Shift+F3 step through them."
            hit = self.current_hit()
            if hit is not None:  # the one on screen: its own page, not the page the search began on
                text = f"Match <b>{self.current + 1}</b> of {len(self.hits)}: <b>page {hit.page}</b>. " + text
            if self.explanations:
                text += f" Also found only in the glyphs of {len(self.explanations)} page(s): see below."
        elif self.explanations:
            first = self.explanations[0]
            text = (
                f"<b>No match in the {self.mode} text</b> — but the words are on the page: "
                + self._explanation_html(first, here=False)
            )
            if len(self.explanations) > 1:
                text += f" ({len(self.explanations)} pages like this, listed below)"
        else:
            text = f"<b>No match</b> in the {self.mode} text or the glyphs of any page."
        if cancelled:
            text = "Search cancelled. " + text
        self.status.setText(text)

    def _on_finished(self, worker: Worker) -> None:
        if self.worker is worker:
            self.worker = None
            self.searching = False
            self.cancel_button.setEnabled(False)
            self.search_finished.emit()

    @staticmethod
    def _explanation_html(e: MissExplanation, here: bool) -> str:
        where = "on this page" if here else f"on page {e.page}"
        return f"<span style='color:#b25e00'><b>{where}</b>: {html.escape(e.message)}</span>"

    def _list(self) -> None:
        self._updating = True
        try:
            self.results.clear()
            items = []
            for i, h in enumerate(self.hits[:MAX_LISTED]):
                item = QTreeWidgetItem([f"Page {h.page}", h.context])
                item.setData(0, ROLE, ("hit", i))
                item.setToolTip(1, h.context)
                items.append(item)
            for i, e in enumerate(self.explanations):
                item = QTreeWidgetItem([f"Page {e.page}", "only in the glyphs: " + e.message])
                item.setData(0, ROLE, ("why", i))
                item.setToolTip(1, e.message)
                item.setForeground(1, QBrush(QColor("#b25e00")))
                items.append(item)
            self.results.addTopLevelItems(items)
            self._mark_current()
        finally:
            self._updating = False

    def _mark_current(self) -> None:
        if 0 <= self.current < min(len(self.hits), MAX_LISTED):
            item = self.results.topLevelItem(self.current)
            if item is not None:
                self.results.setCurrentItem(item)
                self.results.scrollToItem(item)

    def _on_item(self, item: QTreeWidgetItem, column: int = 0) -> None:
        if self._updating:
            return
        kind, i = item.data(0, ROLE)
        if kind == "hit":
            self.go(i)
        else:
            self._go_to(self.explanations[i])

    # -- stepping -----------------------------------------------------------------------------
    def next(self) -> None:
        if not self.hits:
            if self.edit.text() and self.edit.text() != self.query:
                self.search()
            return
        self.go((self.current + 1) % len(self.hits))

    def previous(self) -> None:
        if self.hits:
            self.go((self.current - 1) % len(self.hits))

    def go(self, index: int) -> None:
        if not 0 <= index < len(self.hits):
            return
        self.current = index
        self._updating = True
        try:
            self._mark_current()
        finally:
            self._updating = False
        hit = self.hits[index]
        self._go_to(hit)
        if self.hits:
            self.session.report(f"match {index + 1} of {len(self.hits)} (page {hit.page})")
            if not self.searching:
                self._finish_status()

    def _go_to(self, target: Hit | MissExplanation) -> None:
        if self.facts is not None and self.facts.page.page_number == target.page:
            self._select(target)
        else:
            self._pending = target
            self.session.set_page(target.page)

    def _select(self, target: Hit | MissExplanation) -> None:
        if isinstance(target, Hit):
            if self.facts is None:
                return
            glyphs = self.facts.modes.view(self.mode).glyphs_for(target.start, target.end)
        else:
            glyphs = list(target.glyphs)
        self.session.select(glyphs, self.source)

    def current_hit(self) -> Hit | None:
        return self.hits[self.current] if 0 <= self.current < len(self.hits) else None
