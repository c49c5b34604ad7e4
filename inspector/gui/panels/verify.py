"""Verify: the OCR cross-check of the current page, on demand — what the ink reads against what
the glyphs decode to.

"Verify this page" renders the page at 300 dpi with the headless renderer and reads it with
Tesseract in the worker pool (inspector/verify_view.verify_page_job, the steps of
`glyphscope verify`), with progress and Cancel. The result is kept per document and page in
the session: the canvas layers "Ink disagrees" and "Ink without glyphs", Glyph details and
the Fonts panel read it from there. An invisible OCR layer over a scan is one row (its verdict,
the words where it reads other than the scan); the glyphs not judged are listed by reason.
Clicking a font, a confusion row, a layer word or a glyph selects those glyphs on the canvas.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.shared import VERDICT_COLOURS
from glyphscope.inspector.gui.table_model import wrap_rows
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.layers import registry as L
from glyphscope.inspector.verify import ocr
from glyphscope.inspector.verify.check import NOT_JUDGED, FontVerdict, GlyphVerdict, VerifyResult
from glyphscope.inspector.verify.layer import LayerVerdict
from glyphscope.inspector.verify.view import VerifyCounts, layer_summary, verify_page_job
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

ROLE = Qt.ItemDataRole.UserRole  # an item's glyphs (paint indices) to select
HEADERS = ("Code", "Decoded → ink reads", "Glyphs", "Confidence")
"""Under each font (one row: agreement, verdict, reason) its confusion rows; then the glyphs."""
COLUMN_MODES = (
    QHeaderView.ResizeMode.ResizeToContents,
    QHeaderView.ResizeMode.Stretch,
    QHeaderView.ResizeMode.ResizeToContents,
    QHeaderView.ResizeMode.ResizeToContents,
)
"""The tree's columns share the panel's width: no sideways scrolling in a narrow dock."""
COUNT_TITLES = (
    ("agrees", "agree"),
    ("ink_reads_other", "ink reads other"),
    ("no_ink_read", "no ink read"),
    ("ink_without_glyphs", "ink without glyphs"),
    ("glyphs_without_ink", "glyphs without ink"),
)
"""The counts line, in order: VerifyCounts field → its words."""
LAYER_COLOURS = {  # the OCR layer's verdict, as a font's
    LayerVerdict.RIGHT: VERDICT_COLOURS[FontVerdict.MAPPING_RIGHT],
    LayerVerdict.WRONG: VERDICT_COLOURS[FontVerdict.MAPPING_WRONG],
    LayerVerdict.CANNOT_TELL: VERDICT_COLOURS[FontVerdict.CANNOT_TELL],
}


class VerifyPanel(PagePanel):
    source = "verify"

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.worker: Worker | None = None
        self.running_page = 0  # the page the worker reads (0: none)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        row = QHBoxLayout()
        row.addWidget(QLabel("Language"))
        self.lang = QComboBox()
        self.lang.setObjectName("verify.lang")
        self.lang.setEditable(True)  # "eng+deu" reads with both
        self.lang.setToolTip("Tesseract's language(s), e.g. eng or eng+deu: the installed ones are listed")
        row.addWidget(self.lang)
        self.run_button = QPushButton("Verify this page")
        self.run_button.setObjectName("verify.run")
        self.run_button.setToolTip("Render this page at 300 dpi, read its ink with Tesseract and compare")
        self.run_button.clicked.connect(lambda: self.verify())
        row.addWidget(self.run_button)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setObjectName("verify.cancel")
        self.cancel_button.setEnabled(False)
        self.cancel_button.clicked.connect(lambda: self.cancel())
        row.addWidget(self.cancel_button)
        row.addStretch(1)
        layout.addLayout(row)
        self.status = QLabel("")
        self.status.setObjectName("verify.status")
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.RichText)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        layout.addWidget(self.status)
        self.counts = QLabel("")
        self.counts.setObjectName("verify.counts")
        self.counts.setWordWrap(True)
        self.counts.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.counts)
        self.tree = QTreeWidget()
        self.tree.setObjectName("verify.tree")
        self.tree.setHeaderLabels(list(HEADERS))
        wrap_rows(self.tree)  # a font's verdict and reason read whole, over the lines they need
        header = self.tree.header()  # every column in view
        header.setStretchLastSection(False)
        for column, mode in enumerate(COLUMN_MODES):
            header.setSectionResizeMode(column, mode)
        self.tree.currentItemChanged.connect(lambda item, _prev: self._on_item(item))
        layout.addWidget(self.tree, 1)

        # why OCR cannot run here (the one-line install hint), "" when it can; None: not looked yet
        # (looked when the panel is first shown: loading Tesseract's binding costs the window's start)
        self.unavailable: str | None = None
        session.events.document.connect(lambda doc: self._on_document())
        session.events.verified.connect(lambda page: self.refresh())
        self.refresh()

    # -- OCR here? -----------------------------------------------------------------------------
    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 -- Qt's name
        super().showEvent(event)
        if self.unavailable is None:
            self.check_ocr()
            self.refresh()

    def check_ocr(self) -> str:
        """Whether OCR runs here (Tesseract, the language data): the install line, "" when it does."""
        if self.unavailable is not None:
            return self.unavailable
        self.unavailable = ""
        status = ocr.ocr_status()
        self.lang.clear()
        self.lang.addItems(list(status.languages))
        default = ocr.DEFAULT_LANG if ocr.DEFAULT_LANG in status.languages or not status.languages else ""
        self.lang.setCurrentText(default or status.languages[0])
        try:
            ocr.check_languages(self.lang.currentText())
        except ocr.OcrUnavailable as exc:
            self.unavailable = str(exc)
        return self.unavailable

    # -- page and document ---------------------------------------------------------------------
    def _on_document(self) -> None:
        self.cancel(quiet=True)
        self.refresh()

    def refresh(self) -> None:
        """The current page's result if it was verified, else what can be done."""
        busy = self.worker is not None
        self.run_button.setEnabled(not self.unavailable and not busy and self.facts is not None)
        self.cancel_button.setEnabled(busy)
        result = self.session.verification
        self._show(result)
        if self.unavailable:
            self.status.setText(f"<span style='color:#b71c1c'>{html.escape(self.unavailable)}</span>")
        elif busy and self.running_page != self.session.page_number:
            self.status.setText(f"Verifying page {self.running_page}…")
        elif busy:
            return  # the worker's progress is on show
        elif self.facts is None:
            self.status.setText("No page loaded.")
        elif result is None:
            self.status.setText(
                f"Page {self.session.page_number} is not verified. <b>Verify this page</b> reads its ink "
                "with Tesseract (about a second) and compares it with what every glyph decodes to."
            )
        elif result.pages[0].error:
            self.status.setText(
                f"<span style='color:#b71c1c'>Page {result.pages[0].page} could not be verified: "
                f"{html.escape(result.pages[0].error)}</span>"
            )
        else:
            self.status.setText(
                f"Page {result.pages[0].page} verified ({html.escape(result.lang)}, {result.dpi:g} dpi). "
                "Click a font, a confusion row, a layer word or a glyph to select its glyphs on the page."
            )

    def show_page(self, state: PageState) -> None:
        self.refresh()

    def show_no_page(self, state: PageState) -> None:
        self.refresh()

    # -- running -------------------------------------------------------------------------------
    def verify(self) -> Worker | None:
        """Verify the current page in a worker; returns it, None when nothing runs."""
        facts, source = self.facts, self.session.source
        if self.check_ocr() or facts is None or self.worker is not None:
            return None
        if source is None:
            self.status.setText("The document has no file on disk to render.")
            return None
        lang = self.lang.currentText().strip()
        try:
            ocr.check_languages(lang)
        except ocr.OcrUnavailable as exc:
            self.status.setText(f"<span style='color:#b71c1c'>{html.escape(str(exc))}</span>")
            return None
        page, document = facts.page.page_number, self.session.document
        worker = Worker(verify_page_job, facts.analysis, str(source), self.session.password, lang)
        worker.signals.progress.connect(
            alive(self, lambda done, total, message: self._progress(worker, done, total, message))
        )
        worker.signals.result.connect(
            alive(self, lambda result: self._on_result(worker, document, page, result))
        )
        worker.signals.error.connect(alive(self, lambda message, exc: self._failed(worker, message)))
        worker.signals.finished.connect(alive(self, lambda: self._finished(worker)))
        self.worker, self.running_page = worker, page
        self.status.setText(f"Page {page}: starting…")
        self.pool.start(worker, priority=-1)
        self.refresh()
        return worker

    def cancel(self, quiet: bool = False) -> None:
        """Stop the running check: its result, should Tesseract still finish the page, is dropped."""
        worker = self.worker
        if worker is None:
            return
        worker.cancel()
        page, self.worker, self.running_page = self.running_page, None, 0
        self.refresh()
        if not quiet:
            self.status.setText(f"Verifying page {page} was cancelled.")

    def _progress(self, worker: Worker, done: int, total: int, message: str) -> None:
        if worker is self.worker:
            self.status.setText(f"Step {done + 1} of {total}: {html.escape(message)}…")

    def _on_result(self, worker: Worker, document: object, page: int, result: VerifyResult) -> None:
        if worker is not self.worker or document is not self.session.document:
            return  # cancelled, or another document opened meanwhile
        self.worker, self.running_page = None, 0
        self.session.set_verification(page, result)
        for key in L.VERIFY_LAYERS:  # what a user verified for is the ink's verdict: on the page
            self.session.set_layer_visible(key, True)
        self.refresh()

    def _failed(self, worker: Worker, message: str) -> None:
        if worker is not self.worker:
            return
        self.worker, self.running_page = None, 0
        self.refresh()
        self.status.setText(f"<span style='color:#b71c1c'>Verify failed: {html.escape(message)}</span>")

    def _finished(self, worker: Worker) -> None:
        if worker is self.worker:  # ended without a result (cancelled inside the job)
            self.worker, self.running_page = None, 0
            self.refresh()

    # -- showing -------------------------------------------------------------------------------
    def page_counts(self) -> VerifyCounts | None:
        result = self.session.verification
        return VerifyCounts.of(result.pages[0]) if result is not None and result.pages else None

    def _show(self, result: VerifyResult | None) -> None:
        self.tree.clear()
        counts = self.page_counts()
        if result is None or counts is None:
            self.counts.setText("")
            return
        parts = [f"<b>{getattr(counts, field)}</b> {words}" for field, words in COUNT_TITLES]
        judged = f"<br><b>{counts.judged}</b> glyphs judged"
        if counts.not_judged:
            judged += f" · <b>{counts.not_judged}</b> not judged (listed below)"
        self.counts.setText(" · ".join(parts) + f" · <b>{counts.seconds:.2f}</b> s" + judged)
        page = result.pages[0]
        layer = page.ocr_layer
        if layer is not None:  # the scan's own text first: a wrong layer is what a user verifies for
            item = self._group(layer_summary(layer), list(layer.glyph_indices), LAYER_COLOURS[layer.verdict])
            for w in layer.disagreeing:
                row = self._item(
                    item,
                    ("word", f"layer “{w.layer}” → scan “{w.ink}”", str(len(w.glyphs)), _conf(w.conf)),
                    list(w.glyphs),
                )
                row.setToolTip(1, w.example())
            item.setExpanded(layer.verdict is LayerVerdict.WRONG)
        keys = {
            pf.info.font_id: pf.font_key for pf in (self.facts.page.fonts if self.facts is not None else ())
        }
        for font in sorted(
            result.fonts, key=lambda f: (f.verdict is not FontVerdict.MAPPING_WRONG, f.font_id)
        ):
            wrong = [
                g
                for g in page.glyphs
                if g.font_id == font.font_id and g.verdict is GlyphVerdict.INK_READS_OTHER
            ]
            name = " ".join(x for x in (keys.get(font.font_id, ""), font.base_font) if x)
            agreement = (  # the reason of a right or wrong verdict says the agreement itself
                ""
                if font.agreement is None or font.reason.startswith("agreement")
                else f" · agreement {100 * font.agreement:.1f} %"
            )
            item = self._group(
                f"{name} ({font.font_id}): {font.verdict.value} — {font.reason}{agreement} · "
                f"{font.glyphs} glyphs",
                [g.paint_index for g in wrong],
                VERDICT_COLOURS[font.verdict],
            )
            for c in font.confusion:
                glyphs = [
                    g.paint_index
                    for g in wrong
                    if g.code == c.code and g.decoded == c.decoded and g.ink == c.ink
                ]
                self._item(
                    item,
                    (
                        f"{c.code} (0x{c.code:02X})",
                        f"“{c.decoded}” → “{c.ink}”",
                        str(c.count),
                        _conf(c.mean_conf),
                    ),
                    glyphs,
                )
            item.setExpanded(font.verdict is FontVerdict.MAPPING_WRONG or len(result.fonts) == 1)
        others = [g for g in page.glyphs if g.verdict is GlyphVerdict.INK_READS_OTHER]
        if others:
            group = self._group(
                f"Glyphs where the ink reads other ({len(others)})", [g.paint_index for g in others]
            )
            for g in others:
                glyph = self._item(
                    group,
                    (f"#{g.paint_index}", f"“{g.decoded}” → “{g.ink}”", "1", _conf(g.conf)),
                    [g.paint_index],
                )
                glyph.setToolTip(0, f"glyph #{g.paint_index}, code {g.code} of font {g.font_id}")
        if page.ink_without_glyphs:
            group = self._group(f"Ink without glyphs ({len(page.ink_without_glyphs)})", [])
            group.setExpanded(True)
            for r in page.ink_without_glyphs:
                self._item(group, ("region", f"“{r.text}”", str(r.words), _conf(r.mean_conf)), [])
        if counts.not_judged:  # nothing left out without a word: every glyph not judged, by reason
            group = self._group(f"Not judged ({counts.not_judged} of {page.glyphs_total} glyphs)", [])
            for key, n in counts.reasons:
                self._item(group, (key.replace("_", " "), NOT_JUDGED.get(key, key), str(n)), [])

    def _group(self, text: str, glyphs: list[int], colour: str | None = None) -> QTreeWidgetItem:
        """A top-level row (a font, a list) whose one sentence spans every column."""
        item = self._item(None, (text,), glyphs)
        item.setFirstColumnSpanned(True)
        if colour is not None:
            item.setForeground(0, QColor(colour))
        return item

    def _item(
        self, parent: QTreeWidgetItem | None, cells: Sequence[str], glyphs: list[int]
    ) -> QTreeWidgetItem:
        item = QTreeWidgetItem(list(cells) + [""] * (len(HEADERS) - len(cells)))
        item.setData(0, ROLE, glyphs)
        for column, text in enumerate(cells):
            if text:
                item.setToolTip(column, text)
        if parent is None:
            self.tree.addTopLevelItem(item)
        else:
            parent.addChild(item)
        return item

    # -- clicking ------------------------------------------------------------------------------
    def _on_item(self, item: QTreeWidgetItem | None) -> None:
        if item is None:
            return
        glyphs = item.data(0, ROLE)
        if glyphs:
            self.session.select(glyphs, self.source)

    def items(self) -> list[QTreeWidgetItem]:
        """Every row of the tree, depth first (for tests and the screenshots)."""
        out: list[QTreeWidgetItem] = []
        stack = [self.tree.topLevelItem(i) for i in reversed(range(self.tree.topLevelItemCount()))]
        while stack:
            item = stack.pop()
            if item is None:
                continue
            out.append(item)
            stack.extend(item.child(i) for i in reversed(range(item.childCount())))
        return out


def _conf(value: float | None) -> str:
    return "–" if value is None else f"{value:.0f}"
