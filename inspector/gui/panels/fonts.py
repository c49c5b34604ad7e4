"""Fonts: every font the page uses, how its glyphs were decoded, and its problems.

Selecting a font selects (highlights) its glyphs; selecting glyphs of a
single font selects its row.
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QItemSelectionModel, Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.glyph import DecodeSource
from glyphscope.inspector.session import Session

SOURCE_SHORT = {
    DecodeSource.TOUNICODE: "ToUnicode",
    DecodeSource.ENCODING_CMAP: "encoding CMap",
    DecodeSource.CID_COLLECTION: "CID collection",
    DecodeSource.DIFFERENCES: "Differences",
    DecodeSource.BASE_ENCODING: "base encoding",
    DecodeSource.FONT_PROGRAM: "font program",
    DecodeSource.FALLBACK: "FALLBACK",
    DecodeSource.UNRESOLVED: "UNRESOLVED",
}

HEADERS = (  # what triage needs first, then the font's identity
    "Key",
    "Form",
    "Glyphs",
    "Unresolved",
    "Decoded by",
    "ToUnicode",
    "Problems",
    "Type",
    "Base font",
    "Encoding",
    "Widths",
    "Embedded",
)


def font_glyphs(page: Any) -> list[list[int]]:
    """Paint indices per entry of `page.fonts`: same key and form path, else the same key elsewhere."""
    rows: list[list[int]] = [[] for _ in page.fonts]
    exact = {(f.font_key, tuple(f.form_path)): r for r, f in enumerate(page.fonts)}
    by_key: dict[str, int] = {}
    for r, f in enumerate(page.fonts):
        by_key.setdefault(f.font_key, r)
    for g in page.glyphs:
        r = exact.get((g.font_key, g.form_path))
        if r is None:
            r = by_key.get(g.font_key)
        if r is not None:
            rows[r].append(g.paint_index)
    return rows


class FontTableModel(QAbstractTableModel):
    """Rows are the page's PageFont records (not copied); glyph statistics computed once per page."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.fonts: tuple[Any, ...] = ()
        self.glyphs_of: list[list[int]] = []
        self.sources: list[Counter[DecodeSource]] = []

    def set_page(self, page: Any) -> None:
        self.beginResetModel()
        if page is None:
            self.fonts, self.glyphs_of, self.sources = (), [], []
        else:
            self.fonts = tuple(page.fonts)
            self.glyphs_of = font_glyphs(page)
            glyphs = page.glyphs
            self.sources = [Counter(glyphs[i].decode_source for i in idx) for idx in self.glyphs_of]
        self.endResetModel()

    def rowCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.fonts)

    def columnCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def unresolved(self, row: int) -> int:
        return self.sources[row].get(DecodeSource.UNRESOLVED, 0)

    def cell(self, row: int, column: int) -> str:
        f = self.fonts[row]
        info = f.info
        sources = self.sources[row]
        name = HEADERS[column]
        if name == "Key":
            return f.font_key
        if name == "Form":
            return " › ".join(f.form_path) if f.form_path else "page"
        if name == "Type":
            return info.subtype + (f" / {info.descendant_subtype}" if info.descendant_subtype else "")
        if name == "Base font":
            return info.base_font
        if name == "Encoding":
            return info.encoding + (f" ({info.cid_collection})" if info.cid_collection else "")
        if name == "ToUnicode":
            return f"yes ({info.tounicode_entries})" if info.has_tounicode else "no"
        if name == "Widths":
            return info.widths_source
        if name == "Embedded":
            return "yes" if info.embedded else "no"
        if name == "Glyphs":
            return str(len(self.glyphs_of[row]))
        if name == "Decoded by":
            return ", ".join(f"{SOURCE_SHORT.get(s, s.value)} {n}" for s, n in sources.most_common())
        if name == "Unresolved":
            n = self.unresolved(row)
            return str(n) if n else ""
        if name == "Problems":
            return "; ".join(p.message for p in info.problems)
        return ""

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, column = index.row(), index.column()
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            text = self.cell(row, column)
            if role == Qt.ItemDataRole.ToolTipRole:
                info = self.fonts[row].info
                return f"{text}\n\nobject {info.font_id}" if HEADERS[column] != "Problems" else text or None
            return text
        if role == Qt.ItemDataRole.ForegroundRole:
            name = HEADERS[column]
            if name == "Unresolved" and self.unresolved(row):
                return QColor("#c62828")
            if name == "Problems" and self.fonts[row].info.problems:
                return QColor("#b25e00")
            if name == "Decoded by" and self.sources[row].get(DecodeSource.FALLBACK):
                return QColor("#b25e00")
            if name == "ToUnicode" and not self.fonts[row].info.has_tounicode:
                return QColor("#757575")
        return None


class FontsPanel(QWidget):
    source = "fonts"

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("No page loaded.")
        self.label.setObjectName("fonts.label")
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        self.model = FontTableModel(self)
        self.table = QTableView()
        self.table.setObjectName("fonts.view")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.setWordWrap(False)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.card = QTextBrowser()
        self.card.setObjectName("fonts.card")
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.table)
        splitter.addWidget(self.card)
        splitter.setSizes([240, 150])
        layout.addWidget(splitter)
        self.table.selectionModel().selectionChanged.connect(self._on_rows_selected)
        session.events.selection.connect(self._on_selection)
        session.events.view.connect(lambda view: self.set_facts(session.facts))

    def set_facts(self, facts: Any) -> None:
        self._updating = True
        try:
            self.model.set_page(facts.page if facts is not None else None)
            self.table.resizeColumnsToContents()
            for col in range(self.model.columnCount()):
                if self.table.columnWidth(col) > 260:
                    self.table.setColumnWidth(col, 260)
        finally:
            self._updating = False
        if facts is None:
            self.label.setText("No page loaded.")
            return
        n = len(self.model.fonts)
        unresolved = sum(self.model.unresolved(r) for r in range(n))
        missing = sum(1 for f in self.model.fonts if not f.info.has_tounicode)
        problems = sum(1 for f in self.model.fonts if f.info.problems)
        parts = [f"<b>{n} font{'s' if n != 1 else ''}</b> on page {facts.page.page_number}"]
        if missing:
            parts.append(f"{missing} without ToUnicode")
        if problems:
            parts.append(f"<span style='color:#b25e00'>{problems} with problems</span>")
        if unresolved:
            parts.append(f"<span style='color:#c62828'>{unresolved} unresolved glyphs</span>")
        self.label.setText(" · ".join(parts) + ". Select a font to highlight its glyphs.")
        self._on_selection(self.session.selection, "")

    def _show_card(self, rows: list[int]) -> None:
        """Every fact of the (first) selected font, readable however narrow the dock is."""
        if not rows:
            self.card.setHtml("")
            return
        m = self.model
        r = rows[0]
        info = m.fonts[r].info
        facts = [(HEADERS[c], m.cell(r, c)) for c in range(len(HEADERS))]
        facts.insert(2, ("Object", info.font_id))
        if info.cid_collection:
            facts.append(("Collection", info.cid_collection))
        facts.append(("Writing mode", "vertical" if info.wmode else "horizontal"))
        body = "".join(
            f"<tr><td style='color:#616161; padding-right:8px'>{html.escape(k)}</td><td>{html.escape(v) or '—'}</td></tr>"
            for k, v in facts
        )
        more = f" (+{len(rows) - 1} more selected)" if len(rows) > 1 else ""
        self.card.setHtml(f"<b>{html.escape(m.fonts[r].font_key)}</b>{more}<table>{body}</table>")

    def _on_rows_selected(self, *_: Any) -> None:
        rows = sorted({i.row() for i in self.table.selectionModel().selectedRows()})
        self._show_card(rows)
        if self._updating:
            return
        glyphs = [i for r in rows for i in self.model.glyphs_of[r]]
        self.session.select(glyphs, self.source)

    def select_font(self, font_key: str, form_path: tuple[str, ...] = ()) -> int | None:
        """Select a font's row as a user's click would; returns the row."""
        for row, f in enumerate(self.model.fonts):
            if f.font_key == font_key and tuple(f.form_path) == tuple(form_path):
                _select_row(self.table, row)
                return row
        return None

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if source == self.source:
            return
        rows = {
            r for r, idx in enumerate(self.model.glyphs_of) if selection and not selection.isdisjoint(idx)
        }
        self._updating = True
        try:
            sm = self.table.selectionModel()
            sm.clearSelection()
            for r in sorted(rows):
                sm.select(
                    self.model.index(r, 0),
                    QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
                )
            if rows:
                self.table.scrollTo(self.model.index(min(rows), 0))
        finally:
            self._updating = False

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.table.selectionModel().selectedRows()})

    def row_glyphs(self, row: int) -> list[int]:
        return list(self.model.glyphs_of[row])


def _select_row(view: QTableView, row: int) -> None:
    """Select one row as a click would, independent of the keyboard modifiers held (unlike selectRow)."""
    index = view.model().index(row, 0)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().setCurrentIndex(index, flags)
    view.scrollTo(index)
