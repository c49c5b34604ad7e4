"""Objects: a browser of the whole PDF's objects, linked to the page view.

The tree (inspector/object_tree.DocumentTree, shown through gui/object_model.py) lists the
trailer, the catalog, every page (each opening into its fonts, XObjects, annotations,
structure elements and content streams), the AcroForm's fields, the outlines and the name
trees; every node opens into the objects it refers to, read when opened. The selected object
is shown pretty-printed below (a stream with its filters, length and the start of its data;
"Show more" reads further). The search box goes to an object by number ("12 0 R") or lists
the entries whose key or value contains a text.

Linked to the page view: selecting a page (or an outline item, a destination) goes to it; a
font, a form, a structure element or a content stream of the current page selects its glyphs,
an annotation (or a field's widget) selects its decision on the page; one of another page goes
there first. The other way: glyphs of one font selected anywhere select that font, an
annotation's decision selects its annotation, and a page change reveals the page's node
without closing what the user opened elsewhere.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QAbstractListModel, QItemSelectionModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QFontDatabase, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListView,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.annotations import AnnotationDecision
from glyphscope.inspector.gui.object_model import ObjectTreeModel
from glyphscope.inspector.gui.panels.in_front import InFrontPanel
from glyphscope.inspector.views.objects import (
    FONTS_GROUP,
    STREAM_PREVIEW,
    DocumentTree,
    ObjectNode,
    SearchHit,
    find_annotation,
    find_font,
    parse_ref,
)
from glyphscope.inspector.views.session import Session

OBJECT_SHARE = 0.58  # of the tree's width for the Object column (labels are longer than values)
MIN_OBJECT_COLUMN = 160  # px
PREVIEW_GROWTH = 8  # "Show more" reads this many times as much of a stream
MAX_PREVIEW = 4_000_000  # bytes of decoded stream data the raw view shows at most
LINKED_ROLES = frozenset({"font", "form", "struct", "content", "annotation", "field", "xobject"})

Index = QModelIndex | QPersistentModelIndex


class HitsModel(QAbstractListModel):
    """The search results (SearchHit records), one line each."""

    def __init__(self) -> None:
        super().__init__()
        self.hits: list[SearchHit] = []

    def set_hits(self, hits: list[SearchHit]) -> None:
        self.beginResetModel()
        self.hits = hits
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.hits)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or not 0 <= index.row() < len(self.hits):
            return None
        hit = self.hits[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            inner = " ".join(hit.path[:-1])
            return f"{hit.ref}{' ' + inner if inner else ''} › {hit.text}"
        return None


class ObjectsPanel(InFrontPanel, QWidget):
    source = "objects"

    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.document_tree: DocumentTree | None = None
        self.page_number = 0  # the page whose node was last revealed
        self._wanted = 0
        self._updating = False
        self._linking = False
        self._auto_opened: ObjectNode | None = None  # a page node opened by following the page view
        self._pending: ObjectNode | None = None  # selected on another page: linked once it is shown
        self.preview = STREAM_PREVIEW

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("No document open.")
        self.label.setObjectName("objects.label")
        self.label.setWordWrap(True)
        layout.addWidget(self.label)
        self.search = QLineEdit()
        self.search.setObjectName("objects.search")
        self.search.setPlaceholderText("Go to an object (12 0 R), or find keys and values (Enter)")
        self.search.setClearButtonEnabled(True)
        self.search.returnPressed.connect(lambda: self.find_text(self.search.text()))
        layout.addWidget(self.search)
        self.hits = HitsModel()
        self.hit_list = QListView()
        self.hit_list.setObjectName("objects.hits")
        self.hit_list.setModel(self.hits)
        self.hit_list.setUniformItemSizes(True)
        self.hit_list.setTextElideMode(Qt.TextElideMode.ElideRight)  # the whole line is the tooltip
        self.hit_list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.hit_list.setVisible(False)
        self.hit_list.clicked.connect(lambda index: self.go_to_hit(index.row()))
        self.hit_list.activated.connect(lambda index: self.go_to_hit(index.row()))

        self.model = ObjectTreeModel(self)
        self.tree = QTreeView()
        self.tree.setObjectName("objects.tree")
        self.tree.setModel(self.model)
        self.tree.setUniformRowHeights(True)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)  # names and numbers come first
        header = self.tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self._fitting = False
        self._user_sized = False  # the user dragged the column border: the width is theirs from then on
        header.sectionResized.connect(self._on_section_resized)
        self._fit_columns()
        self.tree.selectionModel().currentChanged.connect(lambda current, _: self._on_current(current))
        self.tree.activated.connect(self._on_activated)

        self.raw = QPlainTextEdit()
        self.raw.setObjectName("objects.raw")
        self.raw.setReadOnly(True)
        self.raw.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.raw.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.more = QPushButton("Show more of the stream")
        self.more.setObjectName("objects.more")
        self.more.setVisible(False)
        self.more.clicked.connect(self.show_more)
        below = QWidget()
        below_layout = QVBoxLayout(below)
        below_layout.setContentsMargins(0, 0, 0, 0)
        below_layout.addWidget(self.raw, 1)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.more)
        below_layout.addLayout(row)

        splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.hit_list)
        splitter.addWidget(self.tree)
        splitter.addWidget(below)
        splitter.setSizes([80, 260, 260])
        for i, stretch in enumerate((1, 3, 2)):
            splitter.setStretchFactor(i, stretch)
        splitter.setChildrenCollapsible(False)
        layout.addWidget(splitter, 1)

        session.events.selection.connect(self._on_selection)
        session.events.view.connect(lambda view: self._on_view())
        session.events.document.connect(lambda doc: self._open_document())
        session.events.decision.connect(self._on_decision)
        self._open_document()

    # -- layout --------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 -- Qt's name
        super().resizeEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Share the tree's width between its columns (labels get more) until the user drags the border."""
        if self._user_sized:
            return
        self._fitting = True
        try:
            width = self.tree.width()  # not the viewport: a scroll bar coming and going would move the border
            self.tree.setColumnWidth(0, max(MIN_OBJECT_COLUMN, int(width * OBJECT_SHARE)))
        finally:
            self._fitting = False

    def _on_section_resized(self, section: int, old: int, new: int) -> None:
        if section == 0 and not self._fitting and self.tree.header().isVisible():
            self._user_sized = True

    @property
    def root(self) -> ObjectNode | None:
        """The document's tree (None when nothing is open)."""
        return self.document_tree.root if self.document_tree is not None else None

    # -- the document --------------------------------------------------------------------------
    def _open_document(self) -> None:
        """Everything of the previous document goes: its tree, results, preview and pending links."""
        self.document_tree = None
        self.page_number = self._wanted = 0
        self._auto_opened = self._pending = None
        self.preview = STREAM_PREVIEW
        self.hits.set_hits([])
        self.hit_list.setVisible(False)
        self.search.clear()
        self.raw.setPlainText("")
        self.more.setVisible(False)
        document = self.session.document
        if document is not None:
            try:
                self.document_tree = DocumentTree(document)
            except Exception as exc:  # noqa: BLE001 -- a damaged catalog must not break the panel
                self.label.setText(
                    f"<span style='color:#b71c1c'>{html.escape(type(exc).__name__)}: {exc}</span>"
                )
        self._updating = True
        try:
            self.model.set_tree(self.root, document)
        finally:
            self._updating = False
        if self.document_tree is not None:
            self.tree.expand(self.model.index_of(self.document_tree.pages))
            self.label.setText(
                "The whole document: open any node to read the objects it refers to. Selecting a page, "
                "or a font, form, annotation or content stream of one, shows it on the page."
            )
        elif document is None:
            self.label.setText("No document open.")

    # -- following the page view ---------------------------------------------------------------
    def _on_view(self) -> None:
        view = self.session.view
        if view is None or view.analysis is None:
            return
        pending, self._pending = self._pending, None
        if pending is not None and pending.page_of() == view.page_number:
            self._link(pending)
        if view.page_number == self.page_number:
            return
        self._wanted = view.page_number
        if self.in_front():
            self.reveal_page(self._wanted)
        else:
            self.label.setText(f"Page {self._wanted}: its node is opened when this panel is shown.")

    def came_to_front(self) -> None:
        if self._wanted and self._wanted != self.page_number:
            self.reveal_page(self._wanted)

    def page_node(self, page_number: int | None = None) -> ObjectNode | None:
        """The node of a page (default: the current one)."""
        tree = self.document_tree
        number = self.session.page_number if page_number is None else page_number
        if tree is None or number <= 0:
            return None
        pages = tree.pages.children(tree.document)
        return pages[number - 1] if number <= len(pages) and pages[number - 1].page == number else None

    def reveal_page(self, page_number: int) -> None:
        """Open the page's node (its fonts too) and show it; what the user opened stays open. The
        node this did open for the previous page closes again unless something in it is selected."""
        node = self.page_node(page_number)
        self.page_number = page_number
        if node is None:
            return
        current = self.selected_node()
        self._updating = True
        try:
            previous = self._auto_opened
            kept = (
                previous is not None
                and current is not None
                and current is not previous
                and _inside(current, previous)
            )
            if previous is not None and previous is not node and not kept:
                self.tree.collapse(self.model.index_of(previous))
            index = self.model.index_of(node)
            if not self.tree.isExpanded(index):
                self.tree.expand(index)
                self._auto_opened = node
            fonts = next((c for c in node.children(self.session.document) if c.group == FONTS_GROUP), None)
            if fonts is not None:
                self.tree.expand(self.model.index_of(fonts))
            if not _inside(current, node):
                self.tree.selectionModel().setCurrentIndex(
                    index,
                    QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
                )
            if current is not None and current is not node and _inside(current, node):
                self.tree.scrollTo(self.model.index_of(current))
            else:  # the page's groups below it in view
                self.tree.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtTop)
        finally:
            self._updating = False
        self.label.setText(
            f"<b>Page {page_number}</b> is open below: select its objects to see them on the page."
        )

    # -- the selected node ---------------------------------------------------------------------
    def selected_node(self) -> ObjectNode | None:
        index = self.tree.currentIndex()
        return self.model.node(index) if index.isValid() else None

    def select_node(self, node: ObjectNode) -> None:
        """Select a node as a click would, opening its ancestors first."""
        index = self.model.index_of(node)
        if not index.isValid():
            return
        parent = index.parent()
        while parent.isValid():
            self.tree.expand(parent)
            parent = parent.parent()
        self.tree.selectionModel().setCurrentIndex(
            index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        )
        self.tree.scrollTo(index)

    def _on_current(self, index: QModelIndex) -> None:
        if not index.isValid():
            return
        node = self.model.node(index)
        self.preview = STREAM_PREVIEW
        self._show_raw(node)
        if not self._updating:
            self._link(node)

    def _show_raw(self, node: ObjectNode) -> None:
        text = node.raw(self.session.document, self.preview)
        self.raw.setPlainText(text)
        self.more.setVisible("bytes decoded in all)" in text and self.preview < MAX_PREVIEW)

    def show_more(self) -> None:
        """Read further into the selected stream."""
        node = self.selected_node()
        if node is None:
            return
        self.preview = min(self.preview * PREVIEW_GROWTH, MAX_PREVIEW)
        self._show_raw(node)

    def _on_activated(self, index: QModelIndex) -> None:
        """A double click or Enter on an outline item, a destination or a page: go to its page."""
        node = self.model.node(index)
        target = node.target or (node.page if node.role == "page" else 0)
        if target:
            self.session.set_page(target)

    # -- linking to the page -------------------------------------------------------------------
    def _link(self, node: ObjectNode) -> None:
        """Show a node on the page: a page is gone to; an object of a page selects its glyphs or its
        annotation's decision there (going to its page first)."""
        page = node.page_of()
        if node.role == "page" and page:
            self.session.set_page(page)
            return
        if node.role not in LINKED_ROLES or not page:
            return
        if page != self.session.page_number or self.session.analysis is None:
            self._pending = node
            self.session.set_page(page)
            return
        if node.annotation >= 0 and node.role in ("annotation", "field"):
            facts = self.session.facts
            decisions = facts.fates.annotation_decisions if facts is not None else []
            if node.annotation < len(decisions):
                self._linking = True  # its decision coming back must not move the selection here
                try:
                    self.session.select_decision(decisions[node.annotation], self.source)
                finally:
                    self._linking = False
                self._stay_in_front()
            return
        glyphs = self.glyphs_of(node)
        if glyphs:
            self.session.select(glyphs, self.source)

    def _stay_in_front(self) -> None:
        """The window brings Glyph details forward for a selected decision; when the user picked it
        here, the browser they are reading stays in front (details shows it when they switch)."""
        dock = self.parentWidget()
        while dock is not None and not isinstance(dock, QDockWidget):
            dock = dock.parentWidget()
        if dock is not None:
            dock.raise_()

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
        if node.role == "content":  # the page's own content (the streams of /Contents are one stream)
            return [g.paint_index for g in glyphs if not g.form_path and g.annotation < 0]
        return []

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        """Glyphs of one font selected elsewhere: select that font's object."""
        if source == self.source or not selection:
            return
        analysis = self.session.analysis
        page = self.page_node()
        if analysis is None or page is None or not (page.built() or self.in_front()):
            return
        page.children(self.session.document)
        glyphs = analysis.page.glyphs
        fonts = {
            (glyphs[i].font_id, glyphs[i].font_key, glyphs[i].form_path)
            for i in selection
            if 0 <= i < len(glyphs)
        }
        if len({f[0] for f in fonts}) != 1:
            return
        font_id, key, form_path = next(iter(fonts))
        node = find_font(page, font_id, key, form_path)
        if node is not None:
            self._select_quietly(node)

    def _on_decision(self, record: object) -> None:
        """An annotation's decision selected elsewhere (its label on the page): select its object."""
        if not isinstance(record, AnnotationDecision) or self._linking:
            return
        page = self.page_node()
        if page is None:
            return
        page.children(self.session.document)  # read now if the page was not opened: it was asked for
        node = find_annotation(page, record.annotation.index)
        if node is not None:
            self._select_quietly(node)

    def _select_quietly(self, node: ObjectNode) -> None:
        self._updating = True
        try:
            self.select_node(node)
        finally:
            self._updating = False

    # -- going to an object, searching ---------------------------------------------------------
    def find_text(self, text: str) -> None:
        """ "12 0 R" (or "12"): go to that object; any other text: list the entries that contain it."""
        tree = self.document_tree
        if tree is None or not text.strip():
            return
        ref = parse_ref(text)
        if ref is not None:
            self.hits.set_hits([])
            self.hit_list.setVisible(False)
            self.go_to_object(ref)
            return
        hits = tree.search(text)
        self.hits.set_hits(hits)
        self.hit_list.setVisible(bool(hits))
        more = " (the first ones)" if len(hits) >= 500 else ""
        self.label.setText(
            f"{len(hits)} entries{more} contain “{html.escape(text.strip())}”: click one to open it."
            if hits
            else f"No key or value contains “{html.escape(text.strip())}” (stream data is not searched)."
        )

    def go_to_object(self, ref: tuple[int, int]) -> ObjectNode | None:
        tree = self.document_tree
        if tree is None:
            return None
        try:
            node = tree.locate(ref)
        except Exception as exc:  # noqa: BLE001 -- a damaged file
            self.label.setText(f"{ref[0]} {ref[1]} R cannot be read: {html.escape(str(exc))}")
            return None
        if node is None:
            self.label.setText(f"There is no object {ref[0]} {ref[1]} R in this file.")
            return None
        self._attach(node)
        self.select_node(node)
        self.label.setText(f"{ref[0]} {ref[1]} R: {html.escape(' › '.join(node.path()))}")
        return node

    def go_to_hit(self, row: int) -> None:
        tree = self.document_tree
        if tree is None or not 0 <= row < len(self.hits.hits):
            return
        hit = self.hits.hits[row]
        node = tree.locate_hit(hit)
        if node is None:
            return
        self._attach(node)
        self.select_node(node)

    def _attach(self, node: ObjectNode) -> None:
        """An object nothing reachable refers to: into the tree's "gone to" group."""
        tree = self.document_tree
        top = node
        while top.parent is not None:
            top = top.parent
        if tree is not None and top is not tree.root:
            self.model.append(tree.found, top)


def _inside(node: ObjectNode | None, ancestor: ObjectNode) -> bool:
    while node is not None:
        if node is ancestor:
            return True
        node = node.parent
    return False
