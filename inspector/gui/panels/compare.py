"""Compare: what other extractors make of the current page, aligned to our glyphs and explained.

One column per engine (glyphscope's own text first), differences highlighted in
the colours of the canvas layer "Other engines differ"; clicking a difference —
in a column or in the list below — selects its glyphs on the canvas and shows
the glyphscope decision that explains it. Engines run in the worker pool, each
in its own process with a time limit (inspector/compare/engines.py); their texts
are kept per page, so new thresholds or another mode only re-align.
"""

from __future__ import annotations

import html
from bisect import bisect_left
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QShowEvent, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSplitter,
    QTextEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.inspector.compare.causes import CAUSE_COLOURS, CAUSE_TITLES, RunKind
from glyphscope.inspector.compare.compared_page import (
    KIND_TITLES,
    Difference,
    PageComparison,
    attach_comparison,
    compare_page_job,
)
from glyphscope.inspector.compare.engines import EngineText, detect_engines
from glyphscope.inspector.compare.theirs import (
    THEIRS_KEY,
    TheirText,
    form_feed_pages,
    pasted_text,
    read_text_file,
)
from glyphscope.inspector.gui.panels import detail_label
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.views.page_facts import PageFacts
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

ROLE = Qt.ItemDataRole.UserRole
LAYER = "compare"
OURS = "glyphscope"


def diff_colour(diff: Difference) -> str:
    """The customer's text is drawn by cause, the built-in engines by kind (as the canvas layer)."""
    if getattr(diff, "engine", None) == THEIRS_KEY:
        return CAUSE_COLOURS[diff.cause]
    return L.COMPARE_COLOURS[diff.kind]


class TheirTextDialog(QDialog):
    """Compare › Their text…: paste the customer's text, or load it from a file (UTF-8, pages separated
    by form feeds)."""

    def __init__(self, parent: QWidget | None = None, text: str = "") -> None:
        super().__init__(parent)
        self.setWindowTitle("Their text")
        self.setObjectName("compare.their.dialog")
        self.source = "pasted"
        self.warnings: list[str] = []
        layout = QVBoxLayout(self)
        intro = QLabel(
            "Paste the text the customer's extractor gave for this PDF, or load it from a file. "
            "Pages are separated by form feeds, as pdftotext and pdfminer.six write them."
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        self.edit = QPlainTextEdit(text)
        self.edit.setObjectName("compare.their.text")
        layout.addWidget(self.edit, 1)
        self.note = QLabel("")
        self.note.setObjectName("compare.their.note")
        self.note.setWordWrap(True)
        layout.addWidget(self.note)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        load = buttons.addButton("Load file…", QDialogButtonBox.ButtonRole.ActionRole)
        load.setObjectName("compare.their.load")
        load.clicked.connect(self._load)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.resize(640, 420)

    def _load(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Their text", "", "Text (*.txt);;All files (*)")
        if path:
            self.load(path)

    def load(self, path: str) -> bool:
        """Read `path` into the editor; False (and a line saying why) when it cannot be read."""
        try:
            their = read_text_file(path)
        except OSError as exc:
            self.note.setText(f"Cannot read {path}: {exc.strerror or exc}")
            return False
        self.edit.setPlainText(their.text or "")
        self.source, self.warnings = their.source, list(their.warnings)
        self.note.setText("; ".join(self.warnings) or f"Read {len(their.text or '')} characters from {path}.")
        return True

    def their_text(self) -> TheirText:
        text = self.edit.toPlainText()
        if self.source == "pasted":
            return pasted_text(text)
        return TheirText(text, self.source, "their text", warnings=list(self.warnings))


def _tint(colour: str, alpha: int = 70) -> QColor:
    c = QColor(colour)
    c.setAlpha(alpha)
    return c


class _Column(QWidget):
    """One engine's text with its differences highlighted."""

    def __init__(self, key: str, title: str, on_click: Callable[[_Column, int], None]) -> None:
        super().__init__()
        self.key = key
        self.spans: list[tuple[int, int, Difference]] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.header = QLabel(f"<b>{html.escape(title)}</b>")
        self.header.setObjectName(f"compare.header.{key}")
        self.header.setTextFormat(Qt.TextFormat.RichText)
        self.header.setWordWrap(True)
        layout.addWidget(self.header)
        self.text = QPlainTextEdit()
        self.text.setObjectName(f"compare.text.{key}")
        self.text.setReadOnly(True)
        # wrapped like the Text panel: a page's lines are wider than a column, and no panel scrolls sideways
        self.text.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.text.cursorPositionChanged.connect(
            lambda: on_click(self, self._index(self.text.textCursor().position()))
        )
        layout.addWidget(self.text, 1)
        # Characters beyond the BMP, which Qt counts twice (UTF-16): their text indices, and
        # their document positions
        self._astral: list[int] = []
        self._astral_at: list[int] = []

    def _position(self, index: int) -> int:
        """The document position of text index `index`."""
        return index + bisect_left(self._astral, index)

    def _index(self, position: int) -> int:
        """The text index at document position `position` (inside a pair: its character)."""
        return position - bisect_left(self._astral_at, position)

    def show_text(self, header: str, text: str, spans: list[tuple[int, int, Difference]]) -> None:
        """`text` with its differences marked; `spans` are indices into `text` (code points)."""
        self.header.setText(header)
        self.spans = spans
        # An engine's raw text may have CR LF, which Qt makes one line break: the CR is shown as
        # a space, so marks stay where the text's indices put them.
        text = text.replace("\r", " ")
        self._astral = [i for i, ch in enumerate(text) if ord(ch) > 0xFFFF]
        self._astral_at = [i + k for k, i in enumerate(self._astral)]
        self.text.blockSignals(True)
        self.text.setPlainText(text)
        self.text.blockSignals(False)
        selections = []
        for start, end, diff in spans:
            sel = QTextEdit.ExtraSelection()
            fmt = QTextCharFormat()
            fmt.setBackground(_tint(diff_colour(diff)))
            if end <= start:  # nothing on this side: mark the place with an underline
                end = min(start + 1, len(text))
                fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SingleUnderline)
                fmt.setUnderlineColor(QColor(diff_colour(diff)))
            cursor = QTextCursor(self.text.document())
            last = self._position(len(text))
            cursor.setPosition(min(self._position(max(0, start)), last))
            cursor.setPosition(min(self._position(max(0, end)), last), QTextCursor.MoveMode.KeepAnchor)
            sel.cursor = cursor  # type: ignore[attr-defined]
            sel.format = fmt  # type: ignore[attr-defined]
            selections.append(sel)
        self.text.setExtraSelections(selections)

    def difference_at(self, pos: int) -> Difference | None:
        best = None
        for start, end, diff in self.spans:
            inside = start <= pos < end or (end <= start and abs(pos - start) <= 1)
            if inside and (best is None or end - start < best[1] - best[0]):
                best = (start, end, diff)
        return best[2] if best else None

    def reveal(self, start: int) -> None:
        cursor = self.text.textCursor()
        self.text.blockSignals(True)
        cursor.setPosition(max(0, min(start, len(self.text.toPlainText()))))
        self.text.setTextCursor(cursor)
        self.text.blockSignals(False)
        self.text.ensureCursorVisible()


class ComparePanel(PagePanel):
    source = "compare"
    their_changed = Signal(bool)  # their text loaded (True) or dropped: File › Export's ticket report follows

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.compared: PageFacts | None = None  # the page compared (or to compare when shown)
        self.comparison: PageComparison | None = None
        self.worker: Worker | None = None
        self.pending = False  # the page changed while nobody looked: compare when shown
        self.texts: dict[tuple[str, int, str], EngineText] = {}  # (file, page, engine) → its text
        self.columns: dict[str, _Column] = {}
        self.their: TheirText | None = None  # the customer's text of the document (Their text…)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        row = QHBoxLayout()
        row.setSpacing(10)
        self.checks: dict[str, QCheckBox] = {}
        for status in detect_engines():
            version = f" {status.version}" if status.version else ""
            check = QCheckBox(status.label + (version if status.available else " (not installed)"))
            check.setObjectName(f"compare.engine.{status.key}")
            check.setEnabled(status.available)
            check.setChecked(status.available)
            check.setToolTip(
                f"{status.spec.options}{version}"
                if status.available
                else f"Not installed. To install: {status.spec.install}"
            )
            check.toggled.connect(lambda on: self.compare())
            row.addWidget(check)
            self.checks[status.key] = check
        row.addStretch(1)
        self.their_button = QPushButton("Their text…")
        self.their_button.setObjectName("compare.their")
        self.their_button.setToolTip(
            "Compare the customer's own extraction (a text file or pasted text) with this page, "
            "each difference with its cause"
        )
        self.their_button.clicked.connect(self.ask_their_text)
        row.addWidget(self.their_button)
        self.report_button = QPushButton("Export report…")
        self.report_button.setObjectName("compare.report")
        self.report_button.setToolTip("Write this page's comparison as one HTML page to attach to a ticket")
        self.report_button.clicked.connect(self._export_report)
        row.addWidget(self.report_button)
        self.run_button = QPushButton("Compare again")
        self.run_button.setObjectName("compare.run")
        self.run_button.setToolTip("Run the checked engines on this page again")
        self.run_button.clicked.connect(lambda: self.compare(rerun=True))
        row.addWidget(self.run_button)
        layout.addLayout(row)
        self.status = QLabel("")
        self.state_label = self.status
        self.status.setObjectName("compare.status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.status)

        # Columns on the left, the list of differences and the explanation on the right: the
        # panel is a wide, low strip under the page.
        split = QSplitter(Qt.Orientation.Horizontal)
        self.column_split = QSplitter(Qt.Orientation.Horizontal)
        self.column_split.setObjectName("compare.columns")
        split.addWidget(self.column_split)
        # The explanation over the list, in a splitter: a long one (numbers, what to change, the
        # decision, the glyphs) scrolls in its own area instead of being cut off by the list
        # under it when the panel is low (1280×800), and the user can give either more room.
        bottom = QSplitter(Qt.Orientation.Vertical)
        bottom.setObjectName("compare.detail_split")
        bottom.setChildrenCollapsible(False)
        self.tree = QTreeWidget()
        self.tree.setObjectName("compare.differences")
        self.tree.setHeaderLabels(["Engine", "Difference", "Cause", "Why (glyphscope's decision)"])
        self.tree.setColumnWidth(0, 110)
        self.tree.setColumnWidth(1, 100)
        self.tree.setColumnWidth(2, 120)
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.currentItemChanged.connect(lambda item, _prev: self._on_item(item))
        self.detail = detail_label("compare.detail")
        self.detail.setText("Click a difference to see the decision that explains it.")
        self.detail_scroll = QScrollArea()
        self.detail_scroll.setObjectName("compare.detail_scroll")
        self.detail_scroll.setWidgetResizable(True)
        self.detail_scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        self.detail_scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.detail_scroll.setWidget(self.detail)
        self.detail_scroll.setMinimumHeight(self.detail.fontMetrics().lineSpacing() * 2 + 4)
        bottom.addWidget(self.detail_scroll)
        bottom.addWidget(self.tree)
        bottom.setStretchFactor(0, 1)
        bottom.setStretchFactor(1, 1)
        bottom.setSizes([200, 200])  # shares: half each, whatever the panel's height
        split.addWidget(bottom)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([700, 480])
        layout.addWidget(split, 1)
        self._build_columns([])

        session.events.document.connect(lambda doc: self._on_document())
        session.events.mode.connect(lambda mode: self.compare())
        session.events.layers.connect(self._on_layer)
        self.refresh_page()

    # -- page and document -----------------------------------------------------------------
    def _on_document(self) -> None:
        self.texts.clear()
        if self.their is not None:  # the customer's text was of the document before
            self.their = None
            self.their_button.setText("Their text…")
            self.their_changed.emit(False)
        self._set_page(None)

    def show_page(self, state: PageState) -> None:
        self._set_page(state.facts)

    def show_no_page(self, state: PageState) -> None:
        self._set_page(None)

    def _set_page(self, facts: PageFacts | None) -> None:
        if facts is self.compared:
            return
        self.cancel()
        self.compared = facts
        self.comparison = None
        self._show(None)
        if facts is None:
            return
        if self.isVisible() or self.session.layers.get(LAYER):
            self.compare()
        else:
            self.pending = True
            self.status.setText("Shown when this panel or the layer “Other engines differ” is open.")

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.pending:
            self.compare()

    def _on_layer(self, key: str, visible: bool) -> None:
        if key == LAYER and visible and self.pending:
            self.compare()

    # -- running -----------------------------------------------------------------------------
    def engine_keys(self) -> list[str]:
        return [k for k, c in self.checks.items() if c.isEnabled() and c.isChecked()]

    def cancel(self) -> None:
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None

    def compare(self, rerun: bool = False) -> Worker | None:
        """Compare the current page with the checked engines (in a worker); returns it, None when nothing runs."""
        self.pending = False
        self.cancel()
        facts = self.compared
        if facts is None:
            return None
        source = self.session.source
        keys = self.engine_keys()
        if source is None or not Path(source).is_file():
            self.status.setText("The document has no file on disk to give the other engines.")
            return None
        path, page = str(source), facts.page.page_number
        theirs = self.their_page(page)
        if not keys and theirs is None:
            self.status.setText("Check at least one engine, or give their text (Their text…).")
            self._show(None)
            return None
        if rerun:
            for k in keys:
                self.texts.pop((path, page, k), None)
        known = {k: self.texts[(path, page, k)] for k in keys if (path, page, k) in self.texts}
        if theirs is not None:
            keys = [*keys, THEIRS_KEY]
            known[THEIRS_KEY] = theirs
        mode = self.session.mode
        worker = Worker(compare_page_job, path, self.session.password, facts.analysis, keys, mode, known)
        worker.signals.progress.connect(
            alive(
                self,
                lambda done, total, message: self.status.setText(f"Page {page}: {html.escape(message)}…"),
            )
        )
        worker.signals.result.connect(alive(self, lambda result, f=facts: self._on_result(f, result)))
        worker.signals.error.connect(
            alive(self, lambda message, exc: self.status.setText(f"Compare failed: {html.escape(message)}"))
        )
        self.worker = worker
        self.status.setText(f"Page {page}: running {', '.join(keys)}…")
        self.pool.start(worker, priority=-1)
        return worker

    def _on_result(self, facts: PageFacts, comparison: PageComparison) -> None:
        if facts is not self.compared:
            return  # a late result for a page no longer shown
        self.worker = None
        path = str(self.session.source)
        for e in comparison.engines:
            if e.result.error is None and e.key != THEIRS_KEY:
                self.texts[(path, comparison.page_number, e.key)] = e.result
        self.comparison = comparison
        attach_comparison(facts, comparison)
        self._refresh_layer(facts)
        self._show(comparison)

    def _refresh_layer(self, facts: PageFacts) -> None:
        """Redraw the canvas layer from the new comparison (the window's overlays are built per page)."""
        from glyphscope.inspector.gui.overlays import PageOverlays, compare_layer

        view = self.session.view
        overlays = view.overlays if view is not None else None
        if isinstance(overlays, PageOverlays) and overlays.facts is facts:
            drawing = overlays.static.get(LAYER)
            if drawing is not None:  # the canvas holds this object: refill it in place
                new = compare_layer(facts)
                if new is not None:
                    drawing.parts[:] = new.parts
                    drawing.labels[:] = new.labels
                    drawing.markers[:] = new.markers
                    drawing._marker_index = None
        if self.session.layers.get(LAYER):
            self.session.set_layer_visible(LAYER, False)  # hide + show: the canvas draws it again
            self.session.set_layer_visible(LAYER, True)

    # -- showing -----------------------------------------------------------------------------
    def _build_columns(self, keys: list[tuple[str, str]]) -> None:
        if [k for k, _ in keys] == list(self.columns):
            return
        for col in self.columns.values():
            col.setParent(None)
            col.deleteLater()
        self.columns = {}
        for key, title in keys:
            col = _Column(key, title, self._on_click)
            self.column_split.addWidget(col)
            self.columns[key] = col

    def _show(self, comparison: PageComparison | None) -> None:
        self.tree.clear()
        self.detail.setText("Click a difference to see the decision that explains it.")
        if comparison is None:
            for col in self.columns.values():
                col.show_text(col.header.text(), "", [])
            return
        self._build_columns([(OURS, "glyphscope"), *((e.key, e.label) for e in comparison.engines)])
        missing: list[tuple[int, int, Difference]] = []
        rows = []
        for e in comparison.engines:
            col = self.columns[e.key]
            version = f" {e.result.status.version}" if e.result.status.version else ""
            if e.alignment is None:
                col.show_text(
                    f"<b>{html.escape(e.label)}</b>{html.escape(version)}<br>"
                    f"<span style='color:#b71c1c'>{html.escape(e.result.error or 'no text')}</span>",
                    "",
                    [],
                )
                continue
            summary = e.summary() or {}
            col.show_text(
                f"<b>{html.escape(e.label)}</b> <small>{html.escape(version)}</small><br>"
                f"<b>{100 * summary.get('agreement', 0):.1f} %</b> agree · {len(e.differences)} diff.",
                e.result.text or "",
                [(d.run.their_start, d.run.their_end, d) for d in e.differences if d.kind != RunKind.MISSING],
            )
            for d in e.differences:
                if d.kind in (RunKind.MISSING, RunKind.SPACE, RunKind.ORDER, RunKind.CHANGED):
                    missing.append((d.run.our_start, d.run.our_end, d))
                rows.append((e, d))
        agree = [e for e in comparison.engines if e.alignment is not None]
        self.columns[OURS].show_text(
            f"<b>glyphscope</b><br>{html.escape(comparison.mode)} text",
            comparison.text,
            missing,
        )
        for e, d in rows:
            item = QTreeWidgetItem([e.label, KIND_TITLES[d.kind], CAUSE_TITLES[d.cause], d.sentence])
            item.setForeground(1, QColor(L.COMPARE_COLOURS[d.kind]))
            item.setForeground(2, QColor(CAUSE_COLOURS[d.cause]))
            item.setToolTip(3, d.sentence)
            item.setToolTip(2, d.sentence)
            item.setData(0, ROLE, d)
            self.tree.addTopLevelItem(item)
        failed = [e.label for e in comparison.engines if e.alignment is None]
        text = f"Page {comparison.page_number}: {self.tree.topLevelItemCount()} differences with {len(agree)} engine(s)"
        if failed:
            text += f"; no text from {html.escape(', '.join(failed))}"
        text += ". Click a difference to select its glyphs and see the decision that explains it."
        if self.their is not None and self.their.warnings:
            text += (
                "<br><span style='color:#b26a00'>" + html.escape("; ".join(self.their.warnings)) + "</span>"
            )
        theirs = comparison.engine(THEIRS_KEY)
        if theirs is not None and theirs.alignment is not None and self.their is not None:
            text += "<br>" + html.escape(self._their_note(comparison, theirs))
        self.status.setText(text)

    # -- clicking ----------------------------------------------------------------------------
    def _on_click(self, column: _Column, pos: int) -> None:
        diff = column.difference_at(pos)
        if diff is not None:
            self.select(diff, reveal=False)

    def _on_item(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        diff = item.data(0, ROLE)
        if isinstance(diff, Difference):
            self.select(diff, reveal=True)

    def differences(self) -> list[Difference]:
        return [d for e in (self.comparison.engines if self.comparison else []) for d in e.differences]

    def select(self, diff: Difference, reveal: bool = True) -> None:
        """Select the difference's glyphs on the canvas and explain it."""
        if diff.glyphs:
            self.session.select(diff.glyphs, self.source)
        self.detail.setText(self.explanation_html(diff))
        if reveal:
            col = self.columns.get(diff.engine)
            if col is not None:
                col.reveal(diff.run.their_start)
            ours = self.columns.get(OURS)
            if ours is not None and diff.kind != RunKind.EXTRA:
                ours.reveal(diff.run.our_start)

    def explanation_html(self, diff: Difference) -> str:
        colour = L.COMPARE_COLOURS[diff.kind]
        parts = [
            f"<b style='color:{colour}'>{html.escape(KIND_TITLES[diff.kind])}</b> — {html.escape(diff.sentence)}",
            f"<i>cause</i> <b style='color:{CAUSE_COLOURS[diff.cause]}'>{html.escape(CAUSE_TITLES[diff.cause])}</b>"
            + (
                " (" + ", ".join(f"{k} {v:g}" for k, v in diff.explanation.numbers.items()) + ")"
                if diff.explanation.numbers
                else ""
            ),
        ]
        if diff.explanation.fix:
            parts.append(f"<i>what to change</i>: {html.escape(diff.explanation.fix)}")
        d = diff.decision
        if d is not None:
            parts.append(
                f"<i>glyphscope decision</i> <code>{html.escape(d.kind)}</code> "
                f"({html.escape(d.verdict)}): {html.escape(d.describe())}"
            )
        else:
            parts.append("<i>No glyphscope decision concerns these characters.</i>")
        if diff.glyphs:
            shown = ", ".join(f"#{g}" for g in diff.glyphs[:12]) + (" …" if len(diff.glyphs) > 12 else "")
            parts.append(f"Glyphs {shown}")
        return "<br>".join(parts)

    # -- their text ----------------------------------------------------------------------------
    def ask_their_text(self) -> None:
        dialog = TheirTextDialog(self, self.their.text or "" if self.their is not None else "")
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.set_their_text(dialog.their_text())

    def set_their_text(self, their: TheirText | None) -> None:
        """Compare the pages with `their` text from now on (None: no longer); compares the page again."""
        self.their = their if their is not None and their.text is not None else None
        self.their_button.setText("Their text ✓…" if self.their is not None else "Their text…")
        self.their_changed.emit(self.their is not None)
        self.compare()

    def their_page(self, page: int) -> EngineText | None:
        """Their text of `page` as an engine result: the page's part between form feeds, or the whole
        text when it has none (the status line says so on a document of several pages)."""
        their = self.their
        if their is None or their.text is None:
            return None
        pages = form_feed_pages(their.text)
        if pages is None:
            text: str | None = their.text
        else:
            text = pages[page - 1] if page - 1 < len(pages) else None
        error = None if text is not None else f"their text has no page {page} (it has {len(pages or [])})"
        return EngineText(their.status, text, error, 0.0)

    def _their_note(self, comparison: PageComparison, theirs: object) -> str:
        doc = self.session.document
        count = getattr(doc, "page_count", 1) if doc is not None else 1
        text = self.their.text if self.their is not None else ""
        pages = form_feed_pages(text or "")
        if pages is None and count > 1:
            return "Their text has no form feeds: all of it is compared with this page."
        if pages is not None and len(pages) != count:
            return f"Their text has {len(pages)} page(s), the PDF {count}: page n is compared with page n."
        return ""

    def _export_report(self) -> None:
        if self.comparison is None or self.session.document is None:
            self.status.setText("Compare a page first, then export its report.")
            return
        path, _ = QFileDialog.getSaveFileName(self, "Compare report", "compare.html", "HTML (*.html)")
        if path:
            self.export_report(path)

    def export_report(self, path: str) -> None:
        """Write the current comparison as the ticket report (compare/report.py) to `path`."""
        from glyphscope.inspector.compare.report import comparison_report

        comparison, doc = self.comparison, self.session.document
        if comparison is None or doc is None:
            return
        facts = self.compared
        glyphs = facts.page.glyphs if facts is not None else None
        html_text = comparison_report(doc, comparison, str(self.session.source or ""), glyphs)
        try:
            Path(path).write_text(html_text, encoding="utf-8")
        except OSError as exc:
            self.status.setText(f"Cannot write {html.escape(path)}: {html.escape(exc.strerror or str(exc))}")
            return
        self.status.setText(f"Report written to {html.escape(path)}.")
