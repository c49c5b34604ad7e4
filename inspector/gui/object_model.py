"""The Objects panel's tree model: Qt's view of inspector/views/objects.py's nodes, without copies.

Each index points at its ObjectNode; a node's rows appear when a view asks to open it
(`canFetchMore` / `fetchMore`), so a 352-page book or a file whose objects refer to each
other in circles shows only what the user opened. The Value column is each node's one-line
summary, read from the file when first painted and kept.
"""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QColor, QFont

from glyphscope.inspector.views.objects import ObjectNode

if TYPE_CHECKING:
    from glyphscope.core.document import Document

ROLE_COLOURS = {
    "font": "#2e7d32",
    "form": "#8e24aa",
    "struct": "#1565c0",
    "annotation": "#b25e00",
    "field": "#b25e00",
    "page": "#0d47a1",
    "outline": "#00695c",
    "named": "#00695c",
    "content": "#4e342e",
}
NOTE_COLOUR = "#8a8a8a"
HEADERS = ("Object", "Value")
TOOLTIP_CHARS = 2000  # of a label or a summary, in its tooltip (wrapped)

Index = QModelIndex | QPersistentModelIndex


def _tooltip(text: str) -> str:
    """Rich text, so Qt wraps it at the tooltip's width instead of one line across the screen."""
    return f"<p style='white-space:pre-wrap'>{html.escape(text[:TOOLTIP_CHARS])}</p>" if text else ""


class ObjectTreeModel(QAbstractItemModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.root = ObjectNode("", None, "group")
        self.root._children = []
        self.document: Document | None = None
        self._open: set[int] = {id(self.root)}  # nodes whose rows the views were told about
        self._summaries: dict[int, str] = {}

    def set_tree(self, root: ObjectNode | None, document: Document | None) -> None:
        """Show another tree (None: nothing); the views forget everything of the previous one."""
        self.beginResetModel()
        if root is None:
            root = ObjectNode("", None, "group")
            root._children = []
        root.children(document)  # the top level is on screen from the start
        self.root, self.document = root, document
        self._open = {id(root)}
        self._summaries = {}
        self.endResetModel()

    # -- nodes and indexes ---------------------------------------------------------------------
    def node(self, index: Index) -> ObjectNode:
        if not index.isValid():
            return self.root
        node = index.internalPointer()
        assert isinstance(node, ObjectNode)
        return node

    def index_of(self, node: ObjectNode, column: int = 0) -> QModelIndex:
        """The index of a node, the rows of its ancestors made known on the way (no view expands)."""
        chain: list[ObjectNode] = []
        at: ObjectNode | None = node
        while at is not None and at is not self.root:
            chain.append(at)
            at = at.parent
        if at is None:
            return QModelIndex()  # not in this tree
        parent = QModelIndex()
        for step in reversed(chain):
            self._open_rows(step.parent or self.root, parent)
            parent = self.createIndex(step.row, 0, step)
        return parent if column == 0 else self.createIndex(node.row, column, node)

    def _open_rows(self, node: ObjectNode, index: Index) -> None:
        if id(node) in self._open:
            return
        rows = node.children(self.document)
        if rows:
            self.beginInsertRows(index, 0, len(rows) - 1)
            self._open.add(id(node))
            self.endInsertRows()
        else:
            self._open.add(id(node))

    def append(self, parent: ObjectNode, child: ObjectNode) -> QModelIndex:
        """Add a node under `parent` (an object gone to by number) and return its index."""
        if id(parent) in self._open:
            index = self.index_of(parent)
            row = len(parent.children(self.document))
            self.beginInsertRows(index, row, row)
            parent.add(child)
            self.endInsertRows()
        else:
            parent.children(self.document)
            parent.add(child)
        return self.index_of(child)

    # -- Qt model API --------------------------------------------------------------------------
    def index(self, row: int, column: int, parent: Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        node = self.node(parent)
        if id(node) not in self._open or node._children is None:
            return QModelIndex()
        if not (0 <= row < len(node._children)) or not (0 <= column < len(HEADERS)):
            return QModelIndex()
        return self.createIndex(row, column, node._children[row])

    def parent(self, child: Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not child.isValid():
            return QModelIndex()
        up = self.node(child).parent
        if up is None or up is self.root:
            return QModelIndex()
        return self.createIndex(up.row, 0, up)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() and parent.column() > 0:
            return 0
        node = self.node(parent)
        return len(node._children or ()) if id(node) in self._open else 0

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return len(HEADERS)

    def hasChildren(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        if parent.isValid() and parent.column() > 0:
            return False
        return self.node(parent).has_children()

    def canFetchMore(self, parent: Index) -> bool:
        node = self.node(parent)
        return id(node) not in self._open and node.has_children()

    def fetchMore(self, parent: Index) -> None:
        self._open_rows(self.node(parent), parent)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return HEADERS[section]
        return None

    def summary(self, node: ObjectNode) -> str:
        key = id(node)
        text = self._summaries.get(key)
        if text is None:
            text = self._summaries[key] = node.summary(self.document)
        return text

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        node = self.node(index)
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return node.label if column == 0 else self.summary(node)
        if role == Qt.ItemDataRole.ToolTipRole:
            return _tooltip(node.label if column == 0 else self.summary(node))
        if role == Qt.ItemDataRole.ForegroundRole:
            colour = NOTE_COLOUR if node.note else ROLE_COLOURS.get(node.role) if column == 0 else None
            return QColor(colour) if colour else None
        if role == Qt.ItemDataRole.FontRole and node.note:
            font = QFont()
            font.setItalic(True)
            return font
        return None
