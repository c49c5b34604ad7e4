"""Objects: a PDF object browser for the page, linked to the other panels through the selection.

The tree (inspector/object_tree.py) lists the page dictionary, fonts, XObjects,
annotations, structure elements and content streams; every node opens into its
raw entries, built when expanded. The selected object is shown pretty-printed.
Selecting a font, a form or a structure element selects its glyphs; glyphs of
one font selected anywhere (a row of the Fonts panel, a glyph on the canvas)
select that font's object here.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QLabel,
    QPlainTextEdit,
    QSplitter,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.annotations import AnnotationDecision
from glyphscope.inspector.gui.panels.in_front import InFrontPanel
from glyphscope.inspector.object_tree import (
    FONTS_GROUP,
    ObjectNode,
    find_annotation,
    find_font,
    page_object_tree,
)
from glyphscope.inspector.session import Session

ROLE_COLOURS = {"font": "#2e7d32", "form": "#8e24aa", "struct": "#1565c0", "annotation": "#b25e00"}
_PLACEHOLDER = "…"


class ObjectsPanel(InFrontPanel, QWidget):
    source = "objects"

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.root: ObjectNode | None = None
        self.page_number = 0
        self._wanted = 0
        self._updating = False
        self.items: dict[int, QTreeWidgetItem] = {}  # id(node) → item, for nodes already shown

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("No page loaded.")
        self.label.setObjectName("objects.label")
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        self.tree = QTreeWidget()
        self.tree.setObjectName("objects.tree")
        self.tree.setHeaderLabels(["Object", "Value"])
        self.tree.setColumnWidth(0, 200)
        self.tree.setUniformRowHeights(True)
        self.raw = QPlainTextEdit()
        self.raw.setObjectName("objects.raw")
        self.raw.setReadOnly(True)
        self.raw.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.raw.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.tree)
        splitter.addWidget(self.raw)
        splitter.setSizes([300, 220])
        layout.addWidget(splitter, 1)
        self.tree.itemExpanded.connect(self._on_expanded)
        self.tree.itemSelectionChanged.connect(self._on_items_selected)
        session.events.selection.connect(self._on_selection)
        session.events.view.connect(lambda view: self._on_view())
        session.events.document.connect(lambda doc: self._show(0))
        session.events.decision.connect(self._on_decision)

    # -- content -------------------------------------------------------------------------------
    def _on_view(self) -> None:
        view = self.session.view
        if view is None or view.analysis is None or view.page_number == self.page_number:
            return
        self._wanted = view.page_number
        if self.in_front():
            self._show(self._wanted)
        else:
            self.label.setText(f"Page {self._wanted}: its objects are read when this panel is shown.")

    def came_to_front(self) -> None:
        if self._wanted and self._wanted != self.page_number:
            self._show(self._wanted)

    def _show(self, page_number: int) -> None:
        self._updating = True
        try:
            self.tree.clear()
            self.items.clear()
            self.raw.setPlainText("")
            self.root = None
            self.page_number = page_number
            document = self.session.document
            if not page_number or document is None:
                self.label.setText("No page loaded.")
                return
            try:
                self.root = page_object_tree(document, page_number)
            except Exception as exc:  # noqa: BLE001 -- a damaged page must not break the panel
                self.label.setText(
                    f"<span style='color:#b71c1c'>Page {page_number}: {type(exc).__name__}: {exc}</span>"
                )
                return
            for node in self.root.children(document):
                item = self._item(node)
                self.tree.addTopLevelItem(item)
                if node.group == FONTS_GROUP:
                    item.setExpanded(True)
            self.label.setText(
                f"<b>Page {page_number}</b>: its objects. Select one to see it in full; fonts, forms and "
                "structure elements select their glyphs."
            )
        finally:
            self._updating = False
        self._on_selection(self.session.selection, "")

    def _item(self, node: ObjectNode) -> QTreeWidgetItem:
        document = self.session.document
        item = QTreeWidgetItem([node.label, node.summary(document) if node.role != "group" else ""])
        item.setData(0, Qt.ItemDataRole.UserRole, node)
        item.setToolTip(0, node.label)
        item.setToolTip(1, item.text(1))
        colour = ROLE_COLOURS.get(node.role)
        if colour:
            item.setForeground(0, QColor(colour))
        if node.has_children():
            item.addChild(QTreeWidgetItem([_PLACEHOLDER]))  # filled when expanded
        self.items[id(node)] = item
        return item

    def _on_expanded(self, item: QTreeWidgetItem) -> None:
        if item.childCount() != 1 or item.child(0).text(0) != _PLACEHOLDER:
            return
        node: ObjectNode = item.data(0, Qt.ItemDataRole.UserRole)
        item.takeChild(0)
        try:
            children = node.children(self.session.document)
        except Exception as exc:  # noqa: BLE001 -- a damaged object: say so in the tree
            item.addChild(QTreeWidgetItem([f"(cannot be read: {type(exc).__name__}: {exc})"]))
            return
        for child in children:
            item.addChild(self._item(child))

    # -- linking -------------------------------------------------------------------------------
    def glyphs_of(self, node: ObjectNode) -> list[int]:
        analysis = self.session.analysis
        if analysis is None:
            return []
        glyphs = analysis.page.glyphs
        if node.role == "font":
            exact = [
                g.paint_index for g in glyphs if g.font_id == node.font_id and g.form_path == node.form_path
            ]
            return exact or [g.paint_index for g in glyphs if g.font_id == node.font_id]
        if node.role == "form":
            n = len(node.form_path)
            return [g.paint_index for g in glyphs if g.form_path[:n] == node.form_path]
        if node.role == "struct":
            wanted = set(node.mcids)
            return [g.paint_index for g in glyphs if g.mcid in wanted]
        return []

    def _on_items_selected(self) -> None:
        items = self.tree.selectedItems()
        node: ObjectNode | None = items[0].data(0, Qt.ItemDataRole.UserRole) if items else None
        if node is None:
            return
        try:
            self.raw.setPlainText(node.raw(self.session.document) or node.label)
        except Exception as exc:  # noqa: BLE001 -- a damaged object
            self.raw.setPlainText(f"(cannot be read: {type(exc).__name__}: {exc})")
        if self._updating:
            return
        glyphs = self.glyphs_of(node)
        if glyphs:
            self.session.select(glyphs, self.source)

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        """Glyphs of one font selected elsewhere: select that font's object."""
        if source == self.source or self.root is None or not selection:
            return
        analysis = self.session.analysis
        if analysis is None:
            return
        glyphs = analysis.page.glyphs
        fonts = {
            (glyphs[i].font_id, glyphs[i].font_key, glyphs[i].form_path)
            for i in selection
            if 0 <= i < len(glyphs)
        }
        if len({f[0] for f in fonts}) != 1:
            return
        font_id, key, form_path = next(iter(fonts))
        node = find_font(self.root, font_id, key, form_path)
        item = self.items.get(id(node)) if node is not None else None
        if item is None:
            return
        self._updating = True
        try:
            parent = item.parent()
            if parent is not None:
                parent.setExpanded(True)
            self.tree.setCurrentItem(item)
            self.tree.scrollToItem(item)
        finally:
            self._updating = False

    def _on_decision(self, record: object) -> None:
        """An annotation's decision selected elsewhere (its label on the page): select its object."""
        if not isinstance(record, AnnotationDecision) or self.root is None:
            return
        node = find_annotation(self.root, record.annotation.index)
        if node is None:
            return
        self._updating = True
        try:
            self.select_node(node)
        finally:
            self._updating = False

    def selected_node(self) -> ObjectNode | None:
        items = self.tree.selectedItems()
        return items[0].data(0, Qt.ItemDataRole.UserRole) if items else None

    def select_node(self, node: ObjectNode) -> None:
        """Select a node as a click would, opening its ancestors first."""
        chain: list[ObjectNode] = []
        shown: ObjectNode | None = node
        while shown is not None and id(shown) not in self.items:
            chain.append(shown)
            shown = shown.parent
        if shown is None:
            return
        for missing in reversed(chain):
            self.items[id(shown)].setExpanded(True)  # builds the items of its children
            shown = missing
        item = self.items.get(id(node))
        if item is not None:
            self.tree.setCurrentItem(item)
