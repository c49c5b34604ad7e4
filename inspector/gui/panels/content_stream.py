"""Content stream: the page's instructions with their indices, linked both ways with the glyphs.

A glyph painted by the page stream points at its operator (`token_index`);
a glyph painted inside a Form XObject points at the page's `Do` that started
its chain and, in the second list, at the operator of the form's own stream
(`stream_index`). Selecting an operator selects the glyphs it painted (for a
`Do`: every glyph of that form chain). Instructions are fetched in a worker
and cached per (page, form path); the lists are item views over them, so a
300,000-instruction stream costs one Python list.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.in_front import InFrontPanel
from glyphscope.inspector.gui.table_model import RowsModel
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

if TYPE_CHECKING:
    from glyphscope.core.document import Document, Instruction
    from glyphscope.core.page import FormUse, InterpretedPage
    from glyphscope.inspector.views.page_facts import PageFacts

TEXT_SHOWING = {"Tj", "TJ", "'", '"'}
HIGHLIGHT = QColor("#ffeb3b")
OPERATOR_COLOURS = {"Do": "#8e24aa", "BT": "#00838f", "ET": "#00838f", "Tf": "#2e7d32"}
MAX_CACHED_STREAMS = 16


def instructions_job(
    document: Document, page_number: int, form_path: tuple[str, ...], *, token: CancelToken
) -> list[Instruction]:
    token.check()
    return document.instructions(page_number, form_path)


def chain_tokens(page: InterpretedPage) -> list[int]:
    """For every glyph, the page-stream instruction that painted it: its own operator, or the `Do`
    that started its form chain (-1 when unknown)."""
    forms = page.forms
    glyphs = page.glyphs  # the page's runs: one look per text-showing operator
    return glyphs.spread(
        _chain_token(token, run.form_path, run.form_use, forms)
        for run, token in zip(glyphs.runs, glyphs.run_token)
    )


def _chain_token(token: int, form_path: tuple[str, ...], form_use: int, forms: Sequence[FormUse]) -> int:
    if not form_path:
        return token
    return forms[form_use].token_index if 0 <= form_use < len(forms) else -1


class InstructionModel(RowsModel):
    HEADERS = ("#", "Operator", "Operands")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.instructions: list[Instruction] = []
        self.highlighted: set[int] = set()

    def set_instructions(self, instructions: list[Instruction]) -> None:
        self.beginResetModel()
        self.instructions = instructions
        self.highlighted = set()
        self.endResetModel()

    def set_highlighted(self, rows: set[int]) -> None:
        if rows == self.highlighted:
            return
        self.highlighted = rows
        self.rows_changed(0, len(self.instructions) - 1)

    def row_count(self) -> int:
        return len(self.instructions)

    def cell_data(self, row: int, column: int, role: int) -> object:
        ins = self.instructions[row]
        if role == Qt.ItemDataRole.DisplayRole:
            return (str(ins.index), ins.operator, ins.operands)[column]
        if role == Qt.ItemDataRole.ToolTipRole and column == 2 and ins.operands:
            return ins.operands  # whole, however narrow the column
        if role == Qt.ItemDataRole.BackgroundRole and row in self.highlighted:
            return HIGHLIGHT
        if role == Qt.ItemDataRole.ForegroundRole and column == 1:
            if ins.operator in TEXT_SHOWING:
                return QColor("#1e63d6")
            colour = OPERATOR_COLOURS.get(ins.operator)
            return QColor(colour) if colour else None
        if role == Qt.ItemDataRole.TextAlignmentRole and column == 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def row_of(self, instruction_index: int) -> int | None:
        """Instruction indices are list positions; checked, in case a stream could not be parsed fully."""
        ins = self.instructions
        if 0 <= instruction_index < len(ins) and ins[instruction_index].index == instruction_index:
            return instruction_index
        for row, i in enumerate(ins):
            if i.index == instruction_index:
                return row
        return None


def _table(name: str, model: InstructionModel) -> QTableView:
    """A table of instructions: index and operator as narrow as they read, the operands in the rest
    (a long TJ array is whole in its tooltip)."""
    table = QTableView()
    table.setObjectName(name)
    table.setModel(model)  # before the widths: a column gets its width once it exists
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(18)
    table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    table.setWordWrap(False)
    table.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    header = table.horizontalHeader()
    header.setStretchLastSection(True)
    table.setColumnWidth(0, 56)
    table.setColumnWidth(1, 64)
    table.setTextElideMode(Qt.TextElideMode.ElideRight)  # operands read from their start
    return table


class ContentStreamPanel(InFrontPanel, PagePanel):
    source = "content_stream"
    loaded = Signal(int, object)  # page number, form path: instructions are shown

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.page: InterpretedPage | None = None
        self.tokens: list[int] = []  # chain_tokens of the page
        self.form_path: tuple[str, ...] = ()  # form shown in the second list
        self.form_token = -1  # the Do that started it
        self.cache: dict[tuple[int, tuple[str, ...]], list[Instruction]] = {}
        self._pending: set[tuple[int, tuple[str, ...]]] = set()
        self._updating = False
        self._scroll_to: dict[tuple[str, ...], int | None] = {}

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        splitter = QSplitter(Qt.Orientation.Vertical)
        layout.addWidget(splitter)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(0, 0, 0, 0)
        self.page_label = QLabel("No page loaded.")
        self.state_label = self.page_label
        self.page_label.setObjectName("content_stream.page_label")
        self.page_label.setWordWrap(True)  # a long summary wraps instead of widening the column
        top_layout.addWidget(self.page_label)
        self.page_model = InstructionModel(self)
        self.page_view = _table("content_stream.page", self.page_model)
        top_layout.addWidget(self.page_view)
        splitter.addWidget(top)
        self.form_box = bottom = QWidget()  # shown on pages that paint a Form XObject
        bottom_layout = QVBoxLayout(bottom)
        bottom_layout.setContentsMargins(0, 0, 0, 0)
        self.form_label = QLabel("Form stream: select a glyph painted by a Form XObject, or a Do.")
        self.form_label.setObjectName("content_stream.form_label")
        self.form_label.setWordWrap(True)
        bottom_layout.addWidget(self.form_label)
        self.form_model = InstructionModel(self)
        self.form_view = _table("content_stream.form", self.form_model)
        bottom_layout.addWidget(self.form_view)
        splitter.addWidget(bottom)
        splitter.setSizes([260, 200])

        self.page_view.selectionModel().selectionChanged.connect(self._on_page_rows)
        self.form_view.selectionModel().selectionChanged.connect(self._on_form_rows)
        session.events.selection.connect(self._on_selection)
        session.events.document.connect(lambda doc: self._reset())

    # -- content ------------------------------------------------------------------------------
    def _reset(self) -> None:
        self.cache.clear()
        self._pending.clear()
        self._show_facts(None)

    def show_page(self, state: PageState) -> None:
        # Closed or behind a tab: the page's stream is read when the panel comes to the front (a
        # worker reading it meanwhile would share the interpreter's time with the page being shown).
        self._show_facts(state.facts if self.in_front() else None)

    def show_no_page(self, state: PageState) -> None:
        self._show_facts(None)

    def came_to_front(self) -> None:
        if self.facts is not None and (
            self.page is None or self.page.page_number != self.facts.page.page_number
        ):
            self._show_facts(self.facts)

    def _show_facts(self, facts: PageFacts | None) -> None:
        old_number = self.page.page_number if self.page is not None else None
        self.page = facts.page if facts is not None else None
        if self.page is None:
            self.tokens = []
            self._updating = True
            self.page_model.set_instructions([])
            self.form_model.set_instructions([])
            self._updating = False
            return
        self.tokens = chain_tokens(self.page)
        # No form painted on the page: the page's stream gets the form stream's room.
        self.form_box.setVisible(bool(self.page.forms))
        n = self.page.page_number
        if old_number != n or not self.page_model.instructions:
            self._updating = True
            self.page_model.set_instructions([])
            self.form_model.set_instructions([])
            self._updating = False
            self.form_path, self.form_token = (), -1
            self.form_label.setText("Form stream: select a glyph painted by a Form XObject, or a Do.")
            self._fetch(n, ())
        self._on_selection(self.session.selection, "")

    def _fetch(self, page_number: int, form_path: tuple[str, ...]) -> None:
        key = (page_number, form_path)
        cached = self.cache.get(key)
        if cached is not None:
            self._show(key, cached)
            return
        if key in self._pending or self.session.document is None:
            return
        if form_path == ():
            self.page_label.setText(f"Page {page_number}: reading the content stream…")
        self._pending.add(key)
        worker = Worker(instructions_job, self.session.document, page_number, form_path)
        worker.signals.result.connect(alive(self, lambda result, k=key: self._loaded(k, result)))
        worker.signals.error.connect(alive(self, lambda message, exc, k=key: self._failed(k, message)))
        worker.signals.finished.connect(alive(self, lambda k=key: self._pending.discard(k)))
        self.pool.start(worker, priority=5)

    def _loaded(self, key: tuple[int, tuple[str, ...]], instructions: list[Instruction]) -> None:
        self.cache[key] = instructions
        while len(self.cache) > MAX_CACHED_STREAMS:
            self.cache.pop(next(iter(self.cache)))
        self._show(key, instructions)

    def _failed(self, key: tuple[int, tuple[str, ...]], message: str) -> None:
        label = self.page_label if key[1] == () else self.form_label
        label.setText(f"<span style='color:#b71c1c'>the stream could not be read: {message}</span>")

    def _show(self, key: tuple[int, tuple[str, ...]], instructions: list[Instruction]) -> None:
        page_number, form_path = key
        if self.page is None or self.page.page_number != page_number:
            return
        self._updating = True
        try:
            if form_path == ():
                self.page_model.set_instructions(instructions)
                text_ops = sum(1 for i in instructions if i.operator in TEXT_SHOWING)
                dos = sum(1 for i in instructions if i.operator == "Do")
                self.page_label.setText(
                    f"<b>Page {page_number}</b>: {len(instructions)} instructions, {text_ops} text-showing, "
                    f"{dos} Do. Highlighted: the operators that painted the selected glyphs."
                )
            elif form_path == self.form_path:
                self.form_model.set_instructions(instructions)
        finally:
            self._updating = False
        if form_path == () or form_path == self.form_path:
            self._on_selection(self.session.selection, "")
        self.loaded.emit(page_number, form_path)

    def _show_form(self, form_path: tuple[str, ...], token: int) -> None:
        if self.page is None or not form_path:
            return
        self.form_token = token
        form = next(
            (f for f in self.page.forms if tuple(f.form_path) == form_path and f.token_index == token), None
        )
        ident = f" ({form.object_id})" if form is not None else ""
        self.form_label.setText(
            f"<b>Form {' › '.join(form_path)}</b>{ident}, run by the Do at page instruction #{token}: its own stream"
        )
        if form_path != self.form_path:
            self.form_path = form_path
            self._updating = True
            self.form_model.set_instructions([])
            self._updating = False
            self._fetch(self.page.page_number, form_path)

    # -- glyphs -> operators ------------------------------------------------------------------
    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if self.page is None or source == self.source:
            return
        glyphs = self.page.glyphs
        selected = sorted(i for i in selection if 0 <= i < len(glyphs))
        page_rows: set[int] = set()
        first_form: int | None = None
        for i in selected:
            token = self.tokens[i]
            if token >= 0:
                row = self.page_model.row_of(token)
                if row is not None:
                    page_rows.add(row)
            if glyphs[i].form_path and first_form is None:
                first_form = i
        self.page_model.set_highlighted(page_rows)
        form_rows: set[int] = set()
        if first_form is not None:
            path = glyphs[first_form].form_path
            self._show_form(path, self.tokens[first_form])
            for i in selected:
                g = glyphs[i]
                if g.form_path == path and self.tokens[i] == self.form_token:
                    row = self.form_model.row_of(g.stream_index)
                    if row is not None:
                        form_rows.add(row)
        self.form_model.set_highlighted(form_rows)
        self._updating = True
        try:
            self._select_rows(self.page_view, self.page_model, page_rows)
            self._select_rows(self.form_view, self.form_model, form_rows)
        finally:
            self._updating = False

    def _select_rows(self, view: QTableView, model: InstructionModel, rows: set[int]) -> None:
        """Highlighted rows stay unselected, so a click on one of them still selects its glyphs."""
        sm = view.selectionModel()
        sm.clearSelection()
        if not rows:
            return
        first = min(rows)
        sm.setCurrentIndex(model.index(first, 0), QItemSelectionModel.SelectionFlag.NoUpdate)
        view.scrollTo(model.index(first, 0), QAbstractItemView.ScrollHint.PositionAtCenter)

    def show_instruction(self, token_index: int) -> None:
        """Scroll to and highlight one page instruction (e.g. the one a finding is about)."""
        row = self.page_model.row_of(token_index)
        if row is None:
            return
        self._updating = True
        try:
            self.page_model.set_highlighted(self.page_model.highlighted | {row})
            sm = self.page_view.selectionModel()
            sm.clearSelection()
            sm.setCurrentIndex(self.page_model.index(row, 0), QItemSelectionModel.SelectionFlag.NoUpdate)
            self.page_view.scrollTo(
                self.page_model.index(row, 0), QAbstractItemView.ScrollHint.PositionAtCenter
            )
        finally:
            self._updating = False

    # -- operators -> glyphs ------------------------------------------------------------------

    def _on_page_rows(self, *_: object) -> None:
        if self._updating or self.page is None:
            return
        rows = sorted({i.row() for i in self.page_view.selectionModel().selectedRows()})
        tokens = {self.page_model.instructions[r].index for r in rows}
        glyphs = [i for i, t in enumerate(self.tokens) if t in tokens]
        self.page_model.set_highlighted(set(rows))
        if len(rows) == 1 and self.page_model.instructions[rows[0]].operator == "Do":
            token = self.page_model.instructions[rows[0]].index
            form_glyph = next((i for i in glyphs if self.page.glyphs[i].form_path), None)
            if form_glyph is not None:
                self._show_form(self.page.glyphs[form_glyph].form_path, token)
        self.session.select(glyphs, self.source)

    def _on_form_rows(self, *_: object) -> None:
        if self._updating or self.page is None:
            return
        rows = sorted({i.row() for i in self.form_view.selectionModel().selectedRows()})
        indices = {self.form_model.instructions[r].index for r in rows}
        glyphs = [
            g.paint_index
            for g in self.page.glyphs
            if g.form_path == self.form_path
            and g.stream_index in indices
            and self.tokens[g.paint_index] == self.form_token
        ]
        self.form_model.set_highlighted(set(rows))
        self.session.select(glyphs, self.source)

    def select_instruction(self, token_index: int) -> None:
        """Select a page instruction as a user's click would (drives the glyph selection)."""
        row = self.page_model.row_of(token_index)
        if row is not None:
            _select_row(self.page_view, row)

    def select_form_instruction(self, stream_index: int) -> None:
        row = self.form_model.row_of(stream_index)
        if row is not None:
            _select_row(self.form_view, row)

    def current_row(self) -> int | None:
        index: QModelIndex = self.page_view.currentIndex()
        return index.row() if index.isValid() else None


def _select_row(view: QTableView, row: int) -> None:
    """Select one row as a click would, independent of the keyboard modifiers held (unlike selectRow)."""
    index = view.model().index(row, 0)
    flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().setCurrentIndex(index, flags)
    view.scrollTo(index)
