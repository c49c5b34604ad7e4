"""One flat table model base for the panels' tables: Qt's row/column/header boilerplate once.

A subclass names its columns in `HEADERS`, says how many rows it has (`row_count`) and
answers one cell for one role (`cell_data`); the rows stay the engine's own records
(style: item models wrap core records, they do not copy them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QAbstractTableModel,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtWidgets import QHeaderView, QStyledItemDelegate, QStyleOptionViewItem

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTableView, QTreeView


class RowsModel(QAbstractTableModel):
    HEADERS: tuple[str, ...] = ()

    def row_count(self) -> int:
        raise NotImplementedError

    def cell_data(self, row: int, column: int, role: int) -> object:
        """What the cell shows for `role` (Qt.ItemDataRole), or None."""
        return None

    def rows_changed(self, first: int, last: int) -> None:
        """Rows first..last (inclusive) show something else: repaint every column of them."""
        if first <= last:
            self.dataChanged.emit(self.index(first, 0), self.index(last, len(self.HEADERS) - 1))

    # -- Qt model API -------------------------------------------------------------------------
    def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else self.row_count()

    def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return self.HEADERS[section]
        return None

    def data(
        self, index: QModelIndex | QPersistentModelIndex, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if not index.isValid():
            return None
        return self.cell_data(index.row(), index.column(), role)


def fit_columns(view: QTableView, minimum: int = 40) -> None:
    """Shrink the widest columns of a table view (as sized to their contents) until the shown
    ones fit its viewport: one cap for all, the largest that fits, so narrow columns keep their
    size and long cells elide (in the middle, with the whole value as tooltip) instead of making
    the panel scroll sideways. A stretching column counts with what its cells need, so it is
    capped like the others and never starved by them; it takes what is left."""
    header = view.horizontalHeader()
    shown = [c for c in range(header.count()) if not view.isColumnHidden(c)]
    stretch = [c for c in shown if header.sectionResizeMode(c) == QHeaderView.ResizeMode.Stretch]
    width = view.viewport().width()
    bar = view.verticalScrollBar()
    if not bar.isVisible() and view.verticalHeader().length() > view.viewport().height():
        width -= bar.sizeHint().width()  # the rows will need a vertical scroll bar: fit beside it
    needs = {
        c: max(view.sizeHintForColumn(c), header.sectionSizeHint(c), minimum)
        if c in stretch
        else view.columnWidth(c)
        for c in shown
    }
    if not needs or sum(needs.values()) <= width:
        return
    low, high = minimum, max(needs.values())
    while low < high:  # the largest cap whose capped widths still fit
        cap = (low + high + 1) // 2
        if sum(min(w, cap) for w in needs.values()) <= width:
            low = cap
        else:
            high = cap - 1
    for c, w in needs.items():
        if w > low and c not in stretch:
            view.setColumnWidth(c, low)


class _Relayout(QObject):
    """Lays a tree's rows out again (once per burst of resizes) when its viewport or a column
    changes width: wrapped rows get their height from the column width, which Qt measures when
    the rows are added."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self.view = view
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(0)
        self.timer.timeout.connect(view.doItemsLayout)
        view.header().sectionResized.connect(lambda *_: self.timer.start())
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 -- Qt's name
        if event.type() == QEvent.Type.Resize:
            self.timer.start()
        return False


class _WrapDelegate(QStyledItemDelegate):
    """Measures a cell at its column's width, so wrapped text gets the lines it needs (Qt's tree
    measures a cell without a width, as one line)."""

    def __init__(self, view: QTreeView) -> None:
        super().__init__(view)
        self.view = view

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        header = self.view.header()
        spanned = index.column() == 0 and self.view.isFirstColumnSpanned(index.row(), index.parent())
        if (
            not spanned
            and header.sectionResizeMode(index.column()) == QHeaderView.ResizeMode.ResizeToContents
        ):
            return super().sizeHint(option, index)  # sized to its one line: measured without a width
        width = self.view.viewport().width() if spanned else header.sectionSize(index.column())
        if index.column() == 0:
            width -= self.view.indentation() * (_depth(index) + int(self.view.rootIsDecorated()))
        measured = QStyleOptionViewItem(option)
        measured.rect = QRect(0, 0, max(width, 20), 1)  # a valid rect: Qt wraps only within one
        return super().sizeHint(measured, index)


def _depth(index: QModelIndex | QPersistentModelIndex) -> int:
    depth, parent = 0, index.parent()
    while parent.isValid():
        depth, parent = depth + 1, parent.parent()
    return depth


def wrap_rows(view: QTreeView) -> None:
    """Rows of a tree wrap their long cells over several lines instead of cutting them with "…"
    (messages, paths, context): rows of their own height, laid out again when a column or the
    panel changes width. The last column takes the room the others leave."""
    view.setWordWrap(True)
    view.setTextElideMode(Qt.TextElideMode.ElideNone)
    view.setUniformRowHeights(False)
    view.header().setStretchLastSection(True)
    view.setItemDelegate(_WrapDelegate(view))
    _Relayout(view)
