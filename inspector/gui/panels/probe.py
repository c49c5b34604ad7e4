"""The region probe's panel: the glyphs of a dragged rectangle with their fate, linked with the canvas."""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QCheckBox,
    QLabel,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.geometry import Rect
from glyphscope.core.glyph import GlyphStatus
from glyphscope.inspector.gui.overlays import status_colour
from glyphscope.inspector.gui.panels import detail_label
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.probe import Fate, ProbeEntry, ProbeResult, probe_region
from glyphscope.inspector.views.session import Session

MAX_ROWS = 3000
ROLE = Qt.ItemDataRole.UserRole
FATE_COLOURS = {
    Fate.KEPT: "#2e7d32",
    Fate.CULLED: "#d32f2f",
    Fate.DUPLICATE: "#e91e63",
    Fate.CLIPPED: status_colour(GlyphStatus.CLIPPED),
    Fate.HIDDEN: status_colour(GlyphStatus.HIDDEN),
    Fate.UNRESOLVED: "#b71c1c",
    Fate.FALLBACK_DECODED: "#b25e00",
    Fate.INVISIBLE: "#6d4c41",
    Fate.FORM: "#8e24aa",
}


INSTRUCTIONS = (
    "Drag a rectangle on the page with <b>Shift</b> held (or with the <b>Probe</b> tool of the "
    "toolbar) to list every glyph in it with its fate."
)


class ProbePanel(PagePanel):
    source = "probe"

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.result: ProbeResult | None = None
        self.region: Rect | None = None
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel(INSTRUCTIONS)
        self.label.setObjectName("probe.label")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.label)
        self.by_run = QCheckBox("Group by run of text")
        self.by_run.setObjectName("probe.by_run")
        self.by_run.setToolTip(
            "One row per run (a line of the engine's plain text of the probed glyphs), its glyphs below"
        )
        self.by_run.setChecked(True)
        self.by_run.toggled.connect(lambda on: self._fill(self.result) if self.result is not None else None)
        layout.addWidget(self.by_run)
        self.tree = QTreeWidget()
        self.tree.setObjectName("probe.tree")
        self.tree.setHeaderLabels(["#", "Char", "Fate"])
        self.tree.setColumnWidth(0, 78)
        self.tree.setColumnWidth(1, 44)
        self.tree.setUniformRowHeights(False)
        self.tree.setWordWrap(True)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.ExtendedSelection)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # each row's tooltip has it in full
        self.tree.itemSelectionChanged.connect(self._on_rows)
        self.detail = detail_label("probe.detail")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.detail)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 1)
        layout.addWidget(splitter, 1)
        session.events.page.connect(lambda page: self.clear())
        session.events.document.connect(lambda doc: self.clear())
        session.events.mode.connect(lambda mode: self._rerun())
        session.events.selection.connect(self._on_selection)

    def clear(self) -> None:
        """Page-scoped: a new page or file starts without a probe (and says how to make one)."""
        self.result = None
        self.region = None
        self.tree.clear()
        self.detail.setText("")
        self.label.setText(INSTRUCTIONS)

    def show_page(self, state: PageState) -> None:
        self._rerun()

    def _rerun(self) -> None:
        """Same rectangle, new decisions (thresholds or mode changed)."""
        if self.region is not None and self.facts is not None:
            self.probe(self.region, select=False)

    def probe(self, rect: Rect, select: bool = True) -> ProbeResult | None:
        """List the glyphs of `rect` (user space); with `select`, they become the selection."""
        if self.facts is None:
            self.label.setText("No page loaded.")
            return None
        self.region = rect
        result = probe_region(self.facts, self.facts.page.page_number, rect, self.session.mode)
        self.result = result
        self._fill(result)
        if select:
            if result.entries:
                self.session.select([e.paint_index for e in result.entries], self.source)
            else:
                self.session.clear_selection(self.source)
        return result

    def _fill(self, result: ProbeResult) -> None:
        x0, y0, x1, y1 = result.rect
        where = f"[{x0:.1f} {y0:.1f} {x1:.1f} {y1:.1f}]"
        self._updating = True
        try:
            self.tree.clear()
            self.detail.setText("")
            if not result.entries:
                self.label.setText(
                    f"<b>Region {where}</b> on page {result.page}:<br>"
                    f"<span style='color:#b71c1c; font-size:large'>{html.escape(result.message)}</span>"
                )
                return
            more = f" (first {MAX_ROWS} listed)" if len(result.entries) > MAX_ROWS else ""
            self.label.setText(
                f"<b>Region {where}</b> on page {result.page}: {html.escape(result.summary())}{more}. "
                "Expand a glyph for the decisions around it."
            )
            if self.by_run.isChecked() and self.facts is not None:
                runs = self._run_items(result)
                self.tree.addTopLevelItems(runs)
                for item in runs:
                    item.setFirstColumnSpanned(True)
                return
            items = []
            for e in result.entries[:MAX_ROWS]:
                item = self._entry_item(e)
                for line in e.details:
                    child = QTreeWidgetItem(["", "", line])
                    child.setData(0, ROLE, e.paint_index)
                    child.setToolTip(2, line)
                    child.setForeground(2, QBrush(QColor("#424242")))
                    item.addChild(child)
                items.append(item)
            self.tree.addTopLevelItems(items)
        finally:
            self._updating = False

    def _entry_item(self, e: ProbeEntry) -> QTreeWidgetItem:
        char = e.char if e.char else "∅"
        item = QTreeWidgetItem([f"#{e.paint_index}", char, " · ".join(e.fate_texts)])
        item.setData(0, ROLE, e.paint_index)
        item.setForeground(2, QBrush(QColor(FATE_COLOURS.get(e.fates[0].kind, "#000"))))
        item.setForeground(0, QBrush(QColor(status_colour(GlyphStatus(e.status)))))
        item.setToolTip(2, "\n".join((*e.fate_texts, *e.details)))
        return item

    def _run_items(self, result: ProbeResult) -> list[QTreeWidgetItem]:
        """One item per run of text with the run's string; its glyphs (and their fates) below."""
        entries = {e.paint_index: e for e in result.entries}
        items: list[QTreeWidgetItem] = []
        if self.facts is None:
            return items
        for run in self.facts.fates.runs_of(list(entries)[: MAX_ROWS * 4]):
            members = [entries[i] for i in run.glyphs if i in entries]
            fates: dict[Fate, int] = {}
            for e in members:
                kind = e.fates[0].kind
                fates[kind] = fates.get(kind, 0) + 1
            summary = ", ".join(f"{n} {k}" for k, n in fates.items())
            # One spanned line: the run's string is the point, not squeezed into a "Char" column.
            item = QTreeWidgetItem([f"#{run.glyphs[0]}  “{run.text}”  — {summary}"])
            item.setData(0, ROLE, ("run", run.glyphs))
            item.setData(1, ROLE, run.text)
            item.setToolTip(0, f"{run.text}\n{len(members)} glyphs: {summary}")
            worst = next(
                (k for k in (Fate.CULLED, Fate.CLIPPED, Fate.HIDDEN, Fate.DUPLICATE) if k in fates), Fate.KEPT
            )
            item.setForeground(0, QBrush(QColor(FATE_COLOURS.get(worst, "#000"))))
            item.addChildren([self._entry_item(e) for e in members])
            items.append(item)
        return items

    def run_texts(self) -> list[str]:
        """The strings of the run rows (grouped view), top to bottom."""
        out = []
        for row in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(row)
            if item is not None and isinstance(item.data(0, ROLE), tuple):
                out.append(item.data(1, ROLE))
        return out

    def _show_detail(self, paint_index: int | None) -> None:
        entry = None
        if self.result is not None and paint_index is not None:
            entry = next((e for e in self.result.entries if e.paint_index == paint_index), None)
        if entry is None:
            self.detail.setText("")
            return
        char = html.escape(repr(entry.char)) if entry.char else "<i>unresolved</i>"
        lines = "".join(f"<li>{html.escape(d)}</li>" for d in entry.details)
        self.detail.setText(
            f"<b>#{entry.paint_index}</b> {char}: {html.escape(' · '.join(entry.fate_texts))}"
            + (f"<ul style='margin:0'>{lines}</ul>" if lines else "")
        )

    def _on_rows(self) -> None:
        current = self.tree.currentItem()
        data = current.data(0, ROLE) if current is not None else None
        self._show_detail(data if isinstance(data, int) else None)
        if self._updating:
            return
        indices: set[int] = set()
        for item in self.tree.selectedItems():
            data = item.data(0, ROLE)
            if isinstance(data, tuple):  # a run row: all its glyphs
                indices.update(data[1])
            elif isinstance(data, int):
                indices.add(data)
        if indices:
            self.session.select(indices, self.source)

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if source == self.source or self.result is None:
            return
        self._updating = True
        try:
            self.tree.clearSelection()
            first = None
            for row in range(self.tree.topLevelItemCount()):
                item = self.tree.topLevelItem(row)
                if item is None:
                    continue
                data = item.data(0, ROLE)
                if isinstance(data, tuple):
                    if selection and selection.issuperset(data[1]):
                        item.setSelected(True)
                        first = first or item
                elif data in selection:
                    item.setSelected(True)
                    first = first or item
            if first is not None:
                self.tree.scrollToItem(first)
        finally:
            self._updating = False
