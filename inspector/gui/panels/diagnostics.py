"""Diagnostics: the engine's findings for the page, and a document summary computed in a worker.

Once the page is verified (the Verify panel), the OCR cross-check's findings join the page's:
a wrong invisible OCR layer is an error.

Clicking a finding selects the glyphs it concerns (through the session) and
asks for its instruction in the content-stream panel; clicking a summary row
opens that page.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QIcon
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.diagnostics import Diagnostic, Severity
from glyphscope.core.visibility import ClippedDecision
from glyphscope.inspector.gui.panels import detail_label
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.jobs import BackgroundJobPanel
from glyphscope.inspector.gui.table_model import wrap_rows
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.jobs import CancelToken, Partial, Progress
from glyphscope.inspector.verify.check import verify_findings
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

if TYPE_CHECKING:
    from glyphscope.core.analysis import PageAnalysis
    from glyphscope.core.document import Document
    from glyphscope.core.params import Parameters
    from glyphscope.inspector.views.page_facts import PageFacts

SEVERITY_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
SEVERITY_COLOURS = {Severity.ERROR: "#c62828", Severity.WARNING: "#b25e00", Severity.INFO: "#1565c0"}
ROLE = Qt.ItemDataRole.UserRole


def page_diagnostics(analysis: PageAnalysis) -> list[Diagnostic]:
    """The page product's findings (`PageAnalysis.findings`, under its own thresholds: the same set
    `glyphscope diagnostics` and triage list), worst first."""
    return sorted(analysis.findings, key=lambda d: SEVERITY_ORDER.get(d.severity, 9))


@dataclass(frozen=True, slots=True)
class PageSummary:
    page: int
    counts: dict[str, int]  # severity value -> number of findings
    kinds: tuple[str, ...]  # distinct kinds, worst first
    error: str | None = None


def document_findings_job(
    document: Document, params: Parameters, *, token: CancelToken
) -> Generator[Progress | Partial, None, list[PageSummary]]:
    """Findings by severity for every page; one PageSummary per page as a Partial, as it is done."""
    from glyphscope.core.analysis import analyze_page

    out: list[PageSummary] = []
    total = document.page_count
    for n in range(1, total + 1):
        token.check()
        yield Progress(n - 1, total, f"page {n} of {total}")
        try:
            found = page_diagnostics(analyze_page(document, n, params))
            counts = {s.value: sum(1 for d in found if d.severity is s) for s in Severity}
            summary = PageSummary(n, counts, tuple(dict.fromkeys(d.kind.value for d in found)))
        except Exception as exc:  # a page that fails is a row with its error
            summary = PageSummary(
                n, {Severity.ERROR.value: 1}, ("page_failed",), f"{type(exc).__name__}: {exc}"
            )
        out.append(summary)
        yield Partial(summary)
    yield Progress(total, total, "done")
    return out


class DiagnosticsPanel(BackgroundJobPanel, PagePanel):
    instruction_requested = Signal(int)  # page-stream token index of a finding
    wants_room = Signal()  # a finding is shown in full below the list: the window gives it room
    summary_finished = Signal()

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.findings: list[Diagnostic] = []
        self.summaries: dict[int, PageSummary] = {}
        self.worker: Worker | None = None
        self._summary_params: Parameters | None = None
        self.icons = {
            Severity.ERROR: self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical),
            Severity.WARNING: self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
            Severity.INFO: self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxInformation),
        }

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        splitter = QSplitter(Qt.Orientation.Vertical)
        layout.addWidget(splitter)

        page_box = QWidget()
        page_layout = QVBoxLayout(page_box)
        page_layout.setContentsMargins(0, 0, 0, 0)
        self.page_label = QLabel("No page loaded.")
        self.state_label = self.page_label
        self.page_label.setObjectName("diagnostics.page_label")
        self.page_label.setWordWrap(True)
        page_layout.addWidget(self.page_label)
        self.tree = QTreeWidget()
        self.tree.setObjectName("diagnostics.page")
        self.tree.setHeaderLabels(["Severity", "Glyphs", "Finding"])
        self.tree.setRootIsDecorated(False)
        self.tree.setColumnWidth(0, 92)
        self.tree.setColumnWidth(1, 52)
        wrap_rows(self.tree)  # a finding's message is read whole (and its tooltip says where)
        self.tree.setMinimumHeight(110)  # three findings at least: the panel takes room to show them
        self.tree.itemSelectionChanged.connect(self._on_finding_selected)
        page_layout.addWidget(self.tree, 3)
        self.detail = detail_label("diagnostics.detail")
        page_layout.addWidget(self.detail, 1)
        splitter.addWidget(page_box)

        doc_box = QWidget()
        doc_layout = QVBoxLayout(doc_box)
        doc_layout.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        title = QLabel("<b>Document</b>")
        self.scan_button = QPushButton("Scan all pages")
        self.scan_button.setObjectName("diagnostics.scan")
        self.scan_button.setToolTip("Count the findings of every page (in the background)")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("diagnostics.cancel")
        self.cancel_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setObjectName("diagnostics.progress")
        self.progress.setMaximumHeight(16)
        self.progress.setMinimumWidth(40)
        self.progress.setTextVisible(False)  # the label below says how far the scan is
        for w in (title, self.scan_button, self.cancel_button):
            bar.addWidget(w)
        bar.addWidget(self.progress, 1)
        doc_layout.addLayout(bar)
        self.doc_label = QLabel("")
        self.doc_label.setObjectName("diagnostics.doc_label")
        self.doc_label.setWordWrap(True)
        doc_layout.addWidget(self.doc_label)
        self.summary = QTreeWidget()
        self.summary.setObjectName("diagnostics.summary")
        self.summary.setHeaderLabels(["Page", "Errors", "Warnings", "Info", "Kinds"])
        self.summary.setRootIsDecorated(False)
        wrap_rows(self.summary)  # the kinds of a page and the file's messages, whole
        self.summary.setMinimumHeight(90)
        for col, width in enumerate((76, 46, 64, 36)):  # the kinds keep the rest
            self.summary.setColumnWidth(col, width)
        self.summary.itemClicked.connect(self._on_summary_clicked)
        self.summary.itemActivated.connect(self._on_summary_clicked)
        doc_layout.addWidget(self.summary)
        notes_label = QLabel("<b>Notes</b> for the HTML report (File › Export › Triage report)")
        notes_label.setWordWrap(True)
        doc_layout.addWidget(notes_label)
        self.notes = QPlainTextEdit()
        self.notes.setObjectName("diagnostics.notes")
        self.notes.setPlaceholderText("What you found, what the customer reported, what to try next…")
        self.notes.setMaximumHeight(90)
        self.notes.textChanged.connect(lambda: session.set_notes(self.notes.toPlainText()))
        doc_layout.addWidget(self.notes)
        splitter.addWidget(doc_box)
        splitter.setStretchFactor(0, 3)  # the page's findings first; the document's summary below
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([260, 200])

        self.scan_button.clicked.connect(self.scan_document)
        self.cancel_button.clicked.connect(self.cancel)
        session.events.document.connect(lambda doc: self.reset_summary())
        session.events.params.connect(self._on_params)
        session.events.notes.connect(self._on_notes)
        session.events.verified.connect(self._on_verified)
        self.reset_summary()

    def _on_verified(self, page: int) -> None:
        """A verified page's findings (a wrong OCR layer) join its list."""
        facts = self.facts
        if facts is not None and facts.page.page_number == page:
            self._show_facts(facts)

    def _on_notes(self, text: str) -> None:
        if text != self.notes.toPlainText():  # set elsewhere (cleared with a new document)
            self.notes.setPlainText(text)

    # -- page findings ------------------------------------------------------------------------
    def show_page(self, state: PageState) -> None:
        self._show_facts(state.facts)

    def show_no_page(self, state: PageState) -> None:
        self._show_facts(None)

    def _show_facts(self, facts: PageFacts | None) -> None:
        self.tree.blockSignals(True)
        self.tree.clear()
        self.tree.blockSignals(False)
        self.detail.setText("")
        if facts is None:
            self.findings = []  # the page label says why (PagePanel.state_label)
            return
        n = facts.page.page_number
        try:
            # The heading and the list from one page: a finding of another page is never listed under it.
            self.findings = [d for d in page_diagnostics(facts.analysis) if d.page in (None, n)]
            if facts.verification is not None:  # the OCR cross-check's findings, once the page is verified
                self.findings = sorted(
                    verify_findings(facts.verification) + self.findings,
                    key=lambda d: SEVERITY_ORDER.get(d.severity, 9),
                )
        except Exception as exc:  # a broken finding must not take the panel down
            self.findings = []
            self.page_label.setText(f"<span style='color:#b71c1c'>findings failed: {exc}</span>")
            return
        counts = {s: sum(1 for d in self.findings if d.severity is s) for s in Severity}
        if not self.findings:
            self.page_label.setText(f"<b>Page {n}</b>: no findings — nothing unusual on this page.")
        else:
            parts = [
                f"{c} {s.value}{'s' if c != 1 and s is not Severity.INFO else ''}"
                for s, c in counts.items()
                if c
            ]
            self.page_label.setText(
                f"<b>Page {n}</b>: {', '.join(parts)}. Click a finding to select its glyphs."
            )
        items = []
        for d in self.findings:
            item = QTreeWidgetItem(["", str(len(d.glyphs)) if d.glyphs else "", d.message])
            item.setTextAlignment(1, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            item.setIcon(0, self.icons.get(d.severity, QIcon()))
            item.setText(0, d.severity.value)
            item.setForeground(0, QBrush(QColor(SEVERITY_COLOURS.get(d.severity, "#000"))))
            where = []
            if d.font_key:
                where.append(f"font {d.font_key}")
            if d.form_path:
                where.append("form " + " › ".join(d.form_path))
            if d.token_index is not None:
                where.append(f"instruction #{d.token_index}")
            tip = f"{d.kind.value}: {d.message}" + (f"\n({', '.join(where)})" if where else "")
            for col in range(3):
                item.setToolTip(col, tip)
            item.setData(0, ROLE, d)
            items.append(item)
        self.tree.addTopLevelItems(items)

    def _on_finding_selected(self) -> None:
        items = self.tree.selectedItems()
        if not items:
            return
        d: Diagnostic = items[0].data(0, ROLE)
        self.activate(d)

    def missing_height(self) -> int:
        """The finding's text below the list wraps in the panel's own minimum (Docks measures it)."""
        return 0

    def activate(self, d: Diagnostic) -> None:
        self.detail.setText(self._detail_html(d) + self._runs_html(d))
        self.wants_room.emit()
        if d.glyphs:
            self.session.select(d.glyphs, "diagnostics")
        what = f"{d.kind.value}: {len(d.glyphs)} glyph(s) selected" if d.glyphs else d.kind.value
        self.session.report(what)
        if d.token_index is not None and d.token_index >= 0:
            self.instruction_requested.emit(d.token_index)

    def _runs_html(self, d: Diagnostic) -> str:
        """The finding's glyphs as the lines of text they make (a culled slug reads as its string)."""
        facts = self.facts
        if facts is None or not d.glyphs:
            return ""
        runs = facts.fates.runs_of(d.glyphs[:5000])
        if not runs:
            return ""
        shown = "".join(
            f"<li>“{html.escape(r.text)}” <small>({len(r.glyphs)} glyphs){self._clip_of(r.glyphs)}</small></li>"
            for r in runs[:12]
        )
        more = f"<li>… and {len(runs) - 12} more</li>" if len(runs) > 12 else ""
        return f"<br><b>As text</b>:<ul style='margin:0'>{shown}{more}</ul>"

    def _clip_of(self, glyphs: Sequence[int]) -> str:
        """Which clip hides a run of clipped glyphs (each run its own: one page's runs are often
        clipped by different instructions), "" for glyphs that are not clipped."""
        facts = self.facts
        if facts is None or not glyphs:
            return ""
        wheres = []
        for i in glyphs:
            record = facts.fates.visibility_record(i)
            if isinstance(record, ClippedDecision) and record.where() not in wheres:
                wheres.append(record.where())
        return (" — clipped by " + "; ".join(html.escape(w) for w in wheres[:3])) if wheres else ""

    @staticmethod
    def _detail_html(d: Diagnostic) -> str:
        where = []
        if d.font_key:
            where.append(f"font {html.escape(d.font_key)}")
        if d.form_path:
            where.append("form " + html.escape(" › ".join(d.form_path)))
        if d.token_index is not None:
            where.append(f"page instruction #{d.token_index}")
        if d.glyphs:
            where.append(f"{len(d.glyphs)} glyph(s), selected on the page")
        colour = SEVERITY_COLOURS.get(d.severity, "#000")
        return (
            f"<span style='color:{colour}'><b>{d.severity.value}</b></span> <code>{d.kind.value}</code>: "
            f"{html.escape(d.message)}"
            + (f"<br><span style='color:#616161'>{'; '.join(where)}</span>" if where else "")
        )

    def select_finding(self, kind: str) -> Diagnostic | None:
        """Select the first finding of `kind` as a user's click would."""
        for row in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(row)
            d = item.data(0, ROLE) if item is not None else None
            if item is not None and d is not None and d.kind.value == kind:
                self.tree.setCurrentItem(item)
                return d
        return None

    # -- document summary ---------------------------------------------------------------------
    def reset_summary(self) -> None:
        """Document-scoped: a scan still running is cancelled and what it still sends is dropped."""
        self.cancel()
        self.worker = None
        self.cancel_button.setEnabled(False)
        self.summaries = {}
        self.summary.clear()
        self.progress.reset()
        self._summary_params = None
        has = self.session.document is not None
        self.scan_button.setEnabled(has)
        if not has:
            self.doc_label.setText("")
            return
        self._add_document_rows()
        self.doc_label.setText(
            f"{self.session.page_count} pages. <i>Scan all pages</i> counts every page's findings by severity."
        )

    def _add_document_rows(self) -> None:
        document = self.session.document
        try:
            document_level = tuple(document.diagnostics) if document is not None else ()
        except Exception:
            document_level = ()
        for d in document_level:
            item = QTreeWidgetItem(["file", "", "", "", d.message])
            item.setIcon(0, self.icons.get(d.severity, QIcon()))
            item.setForeground(4, QBrush(QColor(SEVERITY_COLOURS.get(d.severity, "#000"))))
            item.setToolTip(4, d.message)
            self.summary.addTopLevelItem(item)

    def scan_document(self) -> Worker | None:
        if self.session.document is None:
            return None
        self.cancel()
        self.summaries = {}
        self.summary.clear()
        self._add_document_rows()
        params = self.session.params
        self._summary_params = params
        worker = Worker(document_findings_job, self.session.document, params)

        def current(slot: Callable[..., None]) -> Callable[..., None]:
            """Only the scan of the open document reaches the panel (a cancelled one may still send)."""
            return alive(self, lambda *args: slot(*args) if self.worker is worker else None)

        worker.signals.partial.connect(current(self._on_scanned_page))
        worker.signals.progress.connect(current(self._on_progress))
        worker.signals.result.connect(current(self._on_done))
        worker.signals.error.connect(
            current(lambda message, exc: self.doc_label.setText(f"Failed: {message}"))
        )
        worker.signals.cancelled.connect(current(lambda: self.doc_label.setText("Scan cancelled.")))
        worker.signals.finished.connect(alive(self, lambda w=worker: self._on_finished(w)))
        self.worker = worker
        self.scan_button.setEnabled(False)
        self.cancel_button.setEnabled(True)
        self.doc_label.setText("Scanning…")
        self.pool.start(worker, priority=-2)
        return worker

    def _on_scanned_page(self, s: PageSummary) -> None:
        self._on_page_summary(s)
        self.doc_label.setText(
            f"Scanning: {len(self.summaries)} of {self.session.page_count} pages scanned "
            f"(last: page {s.page}). The findings above are those of page {self.session.page_number}."
        )

    def _on_page_summary(self, s: PageSummary) -> None:
        self.summaries[s.page] = s
        errors, warnings, infos = (
            s.counts.get(v.value, 0) for v in (Severity.ERROR, Severity.WARNING, Severity.INFO)
        )
        kinds = s.error or ", ".join(s.kinds) or "clean"
        item = QTreeWidgetItem(
            [f"Page {s.page}", str(errors or ""), str(warnings or ""), str(infos or ""), kinds]
        )
        item.setData(0, ROLE, s.page)
        worst = (
            Severity.ERROR if errors else Severity.WARNING if warnings else Severity.INFO if infos else None
        )
        if worst is not None:
            item.setIcon(0, self.icons[worst])
            item.setForeground(4, QBrush(QColor(SEVERITY_COLOURS[worst])))
        else:
            item.setForeground(4, QBrush(QColor("#757575")))
        item.setToolTip(4, kinds)
        self.summary.addTopLevelItem(item)

    def _on_done(self, summaries: list[PageSummary]) -> None:
        self.summary.clear()
        self._add_document_rows()
        for s in sorted(
            summaries, key=lambda s: (-s.counts.get("error", 0), -s.counts.get("warning", 0), s.page)
        ):
            self._on_page_summary(s)
        for s in summaries:
            self.summaries[s.page] = s
        totals = {v.value: sum(s.counts.get(v.value, 0) for s in summaries) for v in Severity}
        affected = sum(1 for s in summaries if any(s.counts.values()))
        self.doc_label.setText(
            f"{len(summaries)} pages scanned, {affected} with findings: {totals['error']} errors, "
            f"{totals['warning']} warnings, {totals['info']} info (worst pages first; click a row to open the page)."
        )

    def _on_finished(self, worker: Worker) -> None:
        if self.worker is worker:
            self.worker = None
            self.scan_button.setEnabled(self.session.document is not None)
            self.cancel_button.setEnabled(False)
            self.summary_finished.emit()

    def _on_params(self, params: Parameters) -> None:
        if self.summaries and self._summary_params is not None and params != self._summary_params:
            self.doc_label.setText(
                "The thresholds changed since this scan: culled/duplicate counts may differ. Scan again to update."
            )

    def _on_summary_clicked(self, item: QTreeWidgetItem, column: int = 0) -> None:
        page = item.data(0, ROLE)
        if isinstance(page, int):
            self.session.set_page(page)

    def summary_rows(self) -> list[PageSummary]:
        return [self.summaries[n] for n in sorted(self.summaries)]
