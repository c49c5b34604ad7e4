"""Structure tree: the tagged elements of the page (tags, MCIDs), linked to glyphs and text both ways.

Selecting an element selects the glyphs of every MCID under it, so the canvas
and the text panels show them; selecting glyphs (canvas, text, table) selects
the element that holds the first one's MCID. The tree is read in a worker when
the panel is shown (inspector/views/structure.py).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.in_front import InFrontPanel
from glyphscope.inspector.gui.table_model import wrap_rows
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session
from glyphscope.inspector.views.structure import (
    PageStructureTree,
    StructElement,
    glyphs_of_mcid,
    page_structure_tree,
)

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.core.glyph import Glyph

TEXT_PREVIEW = 120  # characters of an element's text in its row (the tooltip has more)


def structure_job(document: Document, page_number: int, *, token: CancelToken) -> PageStructureTree:
    token.check()
    return page_structure_tree(document, page_number)


class StructureTreePanel(InFrontPanel, PagePanel):
    source = "structure_tree"

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.tree_data: PageStructureTree | None = None
        self.page_number = 0
        self._wanted = 0
        self._pending = 0
        self._updating = False
        self.items: dict[int, QTreeWidgetItem] = {}  # id(element) → item
        self.glyphs_of_mcid: dict[int, list[int]] = {}

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("No page loaded.")
        self.label.setObjectName("structure_tree.label")
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        self.tree = QTreeWidget()
        self.tree.setObjectName("structure_tree.view")
        self.tree.setHeaderLabels(["Element", "Glyphs", "Text"])
        self.tree.setColumnWidth(0, 150)
        self.tree.setColumnWidth(1, 56)
        wrap_rows(self.tree)  # an element's text and a deep element's name wrap, never cut short
        layout.addWidget(self.tree, 1)
        self.tree.itemSelectionChanged.connect(self._on_items_selected)
        session.events.selection.connect(self._on_selection)
        session.events.document.connect(lambda doc: self._show(0, None))

    # -- loading -------------------------------------------------------------------------------
    def show_page(self, state: PageState) -> None:
        assert state.facts is not None  # READY
        n = state.page_number
        self.glyphs_of_mcid = glyphs_of_mcid(state.facts.page.glyphs)
        if n == self.page_number and self.tree_data is not None:
            self._fill()
            return
        self._wanted = n
        if self.in_front():
            self.start()
        else:
            self.label.setText(f"Page {n}: the structure tree is read when this panel is shown.")

    def came_to_front(self) -> None:
        if self._wanted and self._wanted != self.page_number:
            self.start()

    def start(self) -> None:
        n = self._wanted or self.session.page_number
        if self.session.document is None or n <= 0 or self._pending == n:
            return
        self._pending = n
        self.label.setText(f"Page {n}: reading the structure tree…")
        worker = Worker(structure_job, self.session.document, n)
        worker.signals.result.connect(alive(self, lambda tree, k=n: self._loaded(k, tree)))
        worker.signals.error.connect(
            alive(self, lambda message, exc, k=n: self.label.setText(f"Page {k}: {html.escape(message)}"))
        )
        self.pool.start(worker, priority=3)

    def _loaded(self, page_number: int, tree: PageStructureTree) -> None:
        if self._pending == page_number:
            self._pending = 0
        if page_number == self.session.page_number:
            self._show(page_number, tree)

    def _show(self, page_number: int, tree: PageStructureTree | None) -> None:
        self.page_number = page_number
        self.tree_data = tree
        self._fill()

    def _fill(self) -> None:
        self._updating = True
        try:
            self.tree.clear()
            self.items.clear()
            tree = self.tree_data
            if tree is None:
                self.label.setText("No page loaded." if not self.page_number else "")
                return
            glyphs = self.facts.page.glyphs if self.facts is not None else ()
            for root in tree.roots:
                self.tree.addTopLevelItem(self._item(root, glyphs))
            self.tree.expandToDepth(2)
            self._summary(tree, glyphs)
        finally:
            self._updating = False
        self._on_selection(self.session.selection, "")

    def _item(self, element: StructElement, glyphs: Sequence[Glyph]) -> QTreeWidgetItem:
        indices = self.glyphs_of(element)
        text = "".join(glyphs[i].text for i in indices[:2000] if i < len(glyphs))
        item = QTreeWidgetItem([element.label, str(len(indices)), text[:TEXT_PREVIEW]])
        tip = [f"{element.tag} {element.ref}".strip()]
        for name, value in (
            ("MCIDs held", ", ".join(map(str, element.mcids))),
            ("Title", element.title),
            ("Alt", element.alt),
            ("ActualText", element.actual_text),
            ("Lang", element.lang),
        ):
            if value:
                tip.append(f"{name}: {value}")
        if text:
            tip.append(f"Text: {text[:600]}")
        item.setToolTip(0, "\n".join(tip))
        item.setToolTip(2, text[:600])
        if not indices:
            item.setForeground(0, QColor("#9e9e9e"))
        item.setData(0, Qt.ItemDataRole.UserRole, element)
        self.items[id(element)] = item
        for kid in element.kids:
            item.addChild(self._item(kid, glyphs))
        return item

    def _summary(self, tree: PageStructureTree, glyphs: Sequence[Glyph]) -> None:
        n = self.page_number
        if not tree.has_tree:
            self.label.setText(f"<b>Page {n}</b>: the document has no structure tree (not tagged).")
            return
        elements = tree.elements()
        tagged = sum(len(v) for k, v in self.glyphs_of_mcid.items() if k in tree.owner)
        untagged = len(glyphs) - tagged
        parts = [f"<b>Page {n}</b>: {len(elements)} elements with content here, {len(tree.owner)} MCIDs"]
        if untagged:
            parts.append(f"<span style='color:#b25e00'>{untagged} glyphs in no element</span>")
        if tree.problems:
            parts.append(f"<span style='color:#b71c1c'>{html.escape('; '.join(tree.problems[:3]))}</span>")
        self.label.setText(" · ".join(parts) + ". Select an element to select its glyphs and text.")

    # -- linking -------------------------------------------------------------------------------
    def glyphs_of(self, element: StructElement) -> list[int]:
        out: list[int] = []
        for mcid in element.all_mcids():
            out.extend(self.glyphs_of_mcid.get(mcid, ()))
        return sorted(set(out))

    def _on_items_selected(self) -> None:
        if self._updating:
            return
        items = self.tree.selectedItems()
        if not items:
            return
        element = items[0].data(0, Qt.ItemDataRole.UserRole)
        self.session.select(self.glyphs_of(element), self.source)

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if source == self.source or self.tree_data is None:
            return
        element = None
        glyphs = self.facts.page.glyphs if self.facts is not None else ()
        for i in sorted(selection):
            mcid = glyphs[i].mcid if 0 <= i < len(glyphs) else None
            if mcid is not None:
                element = self.tree_data.owner.get(mcid)
                if element is not None:
                    break
        self._updating = True
        try:
            self.tree.clearSelection()
            item = self.items.get(id(element)) if element is not None else None
            if item is not None:
                item.setSelected(True)
                self.tree.setCurrentItem(item)
                self.tree.scrollToItem(item)
        finally:
            self._updating = False

    def selected_element(self) -> StructElement | None:
        items = self.tree.selectedItems()
        return items[0].data(0, Qt.ItemDataRole.UserRole) if items else None

    def item_of(self, element: StructElement) -> QTreeWidgetItem | None:
        return self.items.get(id(element))
