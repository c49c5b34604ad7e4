"""The glyph table: every glyph of the page as a row, sortable and filterable, synced with the canvas.

The model wraps the engine's tuples: its rows are indices into them, so a
20,000-glyph page costs one list of ints, and sorting/filtering are Python
list operations instead of thousands of `data()` calls through a proxy.

Filters are page-scoped: on a new page a filter that would hide every row is
cleared (and the panel says so); one that still matches says how many rows it
hides. "Rows: runs" lists the filtered glyphs as runs of text (the engine's
plain lines of those glyphs), so culled slugs or duplicates read as strings.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, TypeVar, cast

from PySide6.QtCore import (
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QPushButton,
    QStackedWidget,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.glyph import Glyph, GlyphStatus
from glyphscope.core.glyph_table import GlyphRun
from glyphscope.core.passes import ClassifiedGlyphs
from glyphscope.inspector.gui.overlays import status_colour
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.table_model import RowsModel
from glyphscope.inspector.views import page_facts as engine
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session

ALL = "(all)"
T = TypeVar("T")


def _origin(g: Glyph | GlyphRun) -> str:
    return " › ".join(g.form_path) if g.form_path else "page"


Column = tuple[
    str,
    Callable[[Glyph, ClassifiedGlyphs, int], object],  # the cell
    Callable[[Glyph, ClassifiedGlyphs, int], object],  # its sort key (mixed kinds: see _sort_rows)
]


def _status(g: Glyph, c: ClassifiedGlyphs, i: int) -> str:
    return c.status[i].value


def _dup(g: Glyph, c: ClassifiedGlyphs, i: int) -> int | None:
    return c.duplicate_of[i]


COLUMNS: tuple[Column, ...] = (
    ("#", lambda g, c, i: i, lambda g, c, i: i),
    ("char", lambda g, c, i: g.unicode if g.unicode else "∅", lambda g, c, i: g.unicode),
    ("U+", lambda g, c, i: " ".join(f"{ord(ch):04X}" for ch in g.unicode), lambda g, c, i: g.unicode),
    ("status", _status, _status),
    (
        "dup of",
        lambda g, c, i: "" if _dup(g, c, i) is None else _dup(g, c, i),
        lambda g, c, i: _dup(g, c, i) if _dup(g, c, i) is not None else -1,
    ),
    ("font", lambda g, c, i: g.font_key, lambda g, c, i: g.font_key),
    ("size", lambda g, c, i: f"{g.font_size:g}", lambda g, c, i: g.font_size),
    ("height", lambda g, c, i: f"{g.height:.2f}", lambda g, c, i: g.height),
    ("x", lambda g, c, i: f"{g.origin[0]:.2f}", lambda g, c, i: g.origin[0]),
    ("y", lambda g, c, i: f"{g.origin[1]:.2f}", lambda g, c, i: g.origin[1]),
    ("origin", lambda g, c, i: _origin(g), lambda g, c, i: _origin(g)),
    ("decode", lambda g, c, i: g.decode_source.value, lambda g, c, i: g.decode_source.value),
    ("code", lambda g, c, i: f"{g.code:#x}", lambda g, c, i: g.code),
    (
        "MCID",
        lambda g, c, i: "" if g.mcid is None else g.mcid,
        lambda g, c, i: -1 if g.mcid is None else g.mcid,
    ),
    ("token", lambda g, c, i: g.token_index, lambda g, c, i: g.token_index),
)
COLUMN_NAMES = tuple(c[0] for c in COLUMNS)

SETS = ("visible", "raw", "all")
GROUPINGS = ("glyphs", "runs")
# Shown by default: what answers "what is this glyph and what happened to it" without
# horizontal scrolling in a 330 px side column (x and y are in Glyph details); the
# Columns button and the header's context menu show the others.
HIDDEN_BY_DEFAULT = ("U+", "dup of", "size", "height", "x", "y", "code", "MCID", "token")
COLUMN_WIDTHS = {"#": 38, "char": 30, "status": 64, "font": 42, "x": 54, "y": 54, "origin": 50, "decode": 80}
STRETCH_COLUMN = "decode"  # takes what the others leave; long cells elide in the middle (tooltip: whole)
PAGES_CACHED = 8  # pages whose rows and filter choices are kept: a revisit costs no refiltering


class RecordCache:
    """Values computed from one page's records, kept for the last few pages (keyed by the record
    object itself, which the window's page cache hands back unchanged on a revisit)."""

    def __init__(self, size: int = PAGES_CACHED) -> None:
        self.size = size
        self.entries: dict[tuple[int, Hashable], tuple[object, object]] = {}
        self.computed = 0  # values computed because none was kept (a revisit computes none)

    def get(self, owner: object, key: Hashable, compute: Callable[[], T]) -> T:
        hit = self.entries.get((id(owner), key))
        if hit is not None and hit[0] is owner:
            return cast(T, hit[1])  # stored by compute() under this key
        value = compute()
        self.computed += 1
        if len(self.entries) >= self.size * 4:
            self.entries.pop(next(iter(self.entries)))
        self.entries[(id(owner), key)] = (owner, value)
        return value


class GlyphTableModel(RowsModel):
    HEADERS = COLUMN_NAMES

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.classified: Any = None  # ClassifiedGlyphs | None; rows exist only while it is set
        self.glyphs: Sequence[Glyph] = ()
        self.rows: list[int] = []  # paint indices shown, in display order
        self.row_of: dict[int, int] = {}
        self.glyph_set = "all"
        self.filters: dict[str, str] = {}
        self.sort_column = 0
        self.sort_order = Qt.SortOrder.AscendingOrder
        self.cache = RecordCache()  # rows filtered and sorted, per page and filter

    # -- content ------------------------------------------------------------------------------
    def set_classified(self, classified: ClassifiedGlyphs | None) -> None:
        self.classified = classified
        self.glyphs = classified.glyphs if classified is not None else ()
        self.refilter()

    def set_glyph_set(self, name: str) -> None:
        if name not in SETS:
            raise ValueError(name)
        self.glyph_set = name
        self.refilter()

    def set_filter(self, key: str, value: str) -> None:
        if value in ("", ALL):
            self.filters.pop(key, None)
        else:
            self.filters[key] = value
        self.refilter()

    def _base(self) -> list[int]:
        c = self.classified
        if c is None:
            return []
        if self.glyph_set == "visible":
            return [g.paint_index for g in c.visible]
        if self.glyph_set == "raw":
            return [g.paint_index for g in c.raw]
        return list(range(len(c.glyphs)))

    def refilter(self) -> None:
        self.beginResetModel()
        key = (self.glyph_set, tuple(sorted(self.filters.items())), self.sort_column, self.sort_order)
        rows, self.row_of = self.cache.get(self.classified, key, self._filtered_sorted)
        self.rows = list(rows)
        self.endResetModel()

    def _filtered_sorted(self) -> tuple[tuple[int, ...], dict[int, int]]:
        rows = self._base()
        glyphs, c = self.glyphs, self.classified
        font = self.filters.get("font")
        origin = self.filters.get("origin")
        status = self.filters.get("status")
        text = self.filters.get("text", "").strip()
        if font:
            rows = [i for i in rows if glyphs[i].font_key == font]
        if origin:
            rows = [i for i in rows if _origin(glyphs[i]) == origin]
        if status:
            rows = [i for i in rows if c.status[i].value == status]
        if text:
            rows = [i for i in rows if _matches(glyphs[i], text)]
        self.rows = rows
        self._sort_rows()
        return tuple(self.rows), self.row_of

    def _sort_rows(self) -> None:
        descending = self.sort_order == Qt.SortOrder.DescendingOrder
        if self.sort_column == 0:  # paint order: the glyph sets and filters keep it already
            self.rows.sort(reverse=descending)
            self.row_of = {p: r for r, p in enumerate(self.rows)}
            return
        key_fn = COLUMNS[self.sort_column][2]
        glyphs, c = self.glyphs, self.classified

        def key(i: int) -> Any:  # a number or a string; a TypeError falls back to str below
            return key_fn(glyphs[i], c, i)

        try:
            self.rows.sort(key=key, reverse=self.sort_order == Qt.SortOrder.DescendingOrder)
        except TypeError:
            self.rows.sort(key=lambda i: str(key(i)), reverse=self.sort_order == Qt.SortOrder.DescendingOrder)
        self.row_of = {p: r for r, p in enumerate(self.rows)}

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        self.layoutAboutToBeChanged.emit()
        old = [QPersistentModelIndex(i) for i in self.persistentIndexList()]
        old_paint = [self.rows[i.row()] if i.isValid() and i.row() < len(self.rows) else -1 for i in old]
        self.sort_column, self.sort_order = column, order
        self._sort_rows()
        for persistent, paint in zip(old, old_paint):
            row = self.row_of.get(paint)
            new = self.index(row, persistent.column()) if row is not None else QModelIndex()
            self.changePersistentIndex(persistent, new)
        self.layoutChanged.emit()

    # -- Qt model API -------------------------------------------------------------------------
    def row_count(self) -> int:
        return len(self.rows)

    def cell_data(self, row: int, column: int, role: int) -> object:
        i = self.rows[row]
        g = self.glyphs[i]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            return str(COLUMNS[column][1](g, self.classified, i))  # the tooltip: the cell unelided
        if role == Qt.ItemDataRole.ForegroundRole and COLUMNS[column][0] == "status":
            return QColor(status_colour(self.classified.status[i]))
        if role == Qt.ItemDataRole.UserRole:
            return i
        return None

    def paint_index(self, row: int) -> int:
        return self.rows[row]


class RunTableModel(RowsModel):
    """The table's rows as runs of text: one row per `engine.TextRun` of the filtered glyphs."""

    HEADERS = ("first #", "text", "glyphs", "status", "font", "origin")

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.runs: list[engine.TextRun] = []
        self.classified: Any = None  # ClassifiedGlyphs | None; rows exist only while it is set
        self.glyphs: Sequence[Glyph] = ()

    def set_runs(self, runs: list[engine.TextRun], classified: ClassifiedGlyphs | None) -> None:
        self.beginResetModel()
        self.runs = runs
        self.classified = classified
        self.glyphs = classified.glyphs if classified is not None else ()
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.runs)

    def _statuses(self, run: engine.TextRun) -> str:
        return ", ".join(dict.fromkeys(self.classified.status[i].value for i in run.glyphs))

    def cell_data(self, row: int, column_index: int, role: int) -> object:
        run = self.runs[row]
        first = self.glyphs[run.glyphs[0]]
        column = self.HEADERS[column_index]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
            if column == "first #":
                return str(run.glyphs[0])
            if column == "text":
                return run.text
            if column == "glyphs":
                return str(len(run.glyphs))
            if column == "status":
                return self._statuses(run)
            if column == "font":
                return ", ".join(dict.fromkeys(self.glyphs[i].font_key for i in run.glyphs))
            return _origin(first)
        if role == Qt.ItemDataRole.ForegroundRole and column == "status":
            return QColor(status_colour(self.classified.status[run.glyphs[0]]))
        return None

    def glyphs_of(self, row: int) -> tuple[int, ...]:
        return tuple(self.runs[row].glyphs)


def filter_choices(classified: ClassifiedGlyphs | None) -> tuple[list[str], list[str]]:
    """The Font and Origin filter choices of a page: its font keys and glyph origins."""
    if classified is None:
        return [], []
    runs = classified.glyphs.runs  # the page's runs: one look per text-showing operator
    return sorted({r.font_key for r in runs}), sorted({_origin(r) for r in runs})


def _matches(g: Glyph, text: str) -> bool:
    if text.lower().startswith("u+"):
        return any(f"{ord(ch):04X}".startswith(text[2:].upper()) for ch in g.unicode)
    return text in g.unicode or text == g.font_key


class GlyphTablePanel(PagePanel):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self._updating = False
        self.page_number = 0
        self.filter_note = ""  # what a page change did to the filters, said in the banner
        self._choices = RecordCache()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        bar = QGridLayout()
        bar.setHorizontalSpacing(4)
        bar.setVerticalSpacing(2)
        self.group_combo = self._combo("glyph_table.group", GROUPINGS, "glyphs")
        self.group_combo.setToolTip(
            "List glyphs one per row, or as runs of text (lines of the engine's plain text)"
        )
        self.set_combo = self._combo("glyph_table.set", SETS, "all")
        self.font_combo = self._combo("glyph_table.font", (ALL,), ALL)
        self.origin_combo = self._combo("glyph_table.origin", (ALL,), ALL)
        self.status_combo = self._combo("glyph_table.status", (ALL, *[s.value for s in GlyphStatus]), ALL)
        self.text_filter = QLineEdit()
        self.text_filter.setObjectName("glyph_table.text")
        self.text_filter.setPlaceholderText("unicode: a, U+0041, or a font key")
        self.text_filter.setClearButtonEnabled(True)
        self.text_filter.setToolTip(self.text_filter.placeholderText())  # the hint whole in a narrow column
        self.count_label = QLabel()
        self.count_label.setObjectName("glyph_table.count")
        self.count_label.setWordWrap(True)
        self.count_label.setTextFormat(Qt.TextFormat.RichText)
        self.clear_button = QPushButton("Clear filters")
        self.clear_button.setObjectName("glyph_table.clear")
        self.clear_button.clicked.connect(self.clear_filters)
        for n, (label, widget) in enumerate(
            (
                ("Rows", self.group_combo),
                ("Glyphs", self.set_combo),
                ("Status", self.status_combo),
                ("Font", self.font_combo),
                ("Origin", self.origin_combo),
                ("Find", self.text_filter),
            )
        ):
            row, col = divmod(n, 3)
            bar.addWidget(QLabel(label), row, col * 2)
            bar.addWidget(widget, row, col * 2 + 1)
        for col in (1, 3, 5):
            bar.setColumnStretch(col, 1)
        layout.addLayout(bar)
        counts = QHBoxLayout()
        counts.addWidget(self.count_label, 1)
        counts.addWidget(self.clear_button)
        layout.addLayout(counts)
        self.model = GlyphTableModel(self)
        self.table = QTableView()
        self.table.setObjectName("glyph_table.view")
        self.table.setModel(self.model)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(20)
        self.table.horizontalHeader().setDefaultSectionSize(62)
        self.table.setWordWrap(False)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        header = self.table.horizontalHeader()
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        header.setMinimumSectionSize(24)
        self.columns_button = QToolButton()
        self.columns_button.setObjectName("glyph_table.columns")
        self.columns_button.setText("Columns")
        self.columns_button.setToolTip("Show or hide columns (also: right-click the header)")
        self.columns_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        columns_menu = QMenu(self.columns_button)
        self.columns_button.setMenu(columns_menu)
        self.column_actions: dict[str, QAction] = {}
        for column, name in enumerate(COLUMN_NAMES):
            self.table.setColumnHidden(column, name in HIDDEN_BY_DEFAULT)
            self.table.setColumnWidth(column, COLUMN_WIDTHS.get(name, 62))
            if name == STRETCH_COLUMN:
                header.setSectionResizeMode(column, QHeaderView.ResizeMode.Stretch)
            action = QAction(name, header, checkable=True)
            action.setChecked(name not in HIDDEN_BY_DEFAULT)
            action.toggled.connect(lambda on, c=column: self.table.setColumnHidden(c, not on))
            header.addAction(action)
            columns_menu.addAction(action)
            self.column_actions[name] = action
        header.setToolTip("Right-click to show or hide columns")
        counts.addWidget(self.columns_button)
        self.run_model = RunTableModel(self)
        self.run_table = QTableView()
        self.run_table.setObjectName("glyph_table.runs")
        self.run_table.setModel(self.run_model)
        self.run_table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.run_table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.run_table.verticalHeader().setVisible(False)
        self.run_table.verticalHeader().setDefaultSectionSize(20)
        run_header = self.run_table.horizontalHeader()
        run_header.setDefaultSectionSize(62)
        run_header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        for column, width in enumerate((52, 0, 50, 64, 44, 52)):
            if width:
                self.run_table.setColumnWidth(column, width)
        self.run_table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.views = QStackedWidget()
        self.views.addWidget(self.table)
        self.views.addWidget(self.run_table)
        layout.addWidget(self.views)

        self.group_combo.currentTextChanged.connect(self._on_group)
        self.run_table.selectionModel().selectionChanged.connect(self._on_runs_selected)
        self.set_combo.currentTextChanged.connect(self._on_set)
        self.font_combo.currentTextChanged.connect(lambda v: self._filter("font", v))
        self.origin_combo.currentTextChanged.connect(lambda v: self._filter("origin", v))
        self.status_combo.currentTextChanged.connect(lambda v: self._filter("status", v))
        self.text_filter.textChanged.connect(lambda v: self._filter("text", v))
        self.table.selectionModel().selectionChanged.connect(self._on_rows_selected)
        session.events.selection.connect(self._on_selection)

    @staticmethod
    def _combo(name: str, values: Iterable[str], current: str) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        combo.addItems(list(values))
        combo.setCurrentText(current)
        # Narrow however long the page's font keys or form paths are (the popup shows them whole).
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(2)
        return combo

    def show_page(self, state: PageState) -> None:
        self._show_facts(state.facts)

    def show_no_page(self, state: PageState) -> None:
        self._show_facts(None)

    def _show_facts(self, facts: engine.PageFacts | None) -> None:
        classified = facts.classified if facts is not None else None
        page = facts.page.page_number if facts is not None else 0
        new_page, self.page_number = page != self.page_number, page
        self._updating = True
        try:
            fonts, origins = self._choices.get(classified, "choices", lambda: filter_choices(classified))
            for combo, values in ((self.font_combo, fonts), (self.origin_combo, origins)):
                current = combo.currentText()
                combo.blockSignals(True)
                combo.clear()
                combo.addItems([ALL, *values])
                combo.setCurrentText(current if current in values else ALL)
                combo.blockSignals(False)
                key = "font" if combo is self.font_combo else "origin"
                self.model.filters.pop(key, None) if combo.currentText() == ALL else None
            self.model.set_classified(classified)
            self.filter_note = ""
            if new_page and classified is not None and not self.model.rows and self.model.filters:
                # Page-scoped: a filter that hides every glyph of the new page is cleared, and said.
                cleared = ", ".join(f"{k} = {v!r}" for k, v in sorted(self.model.filters.items()))
                self._reset_filter_widgets()
                self.model.filters.clear()
                self.model.refilter()
                self.filter_note = f"filter {cleared} matched nothing on page {page}: cleared"
        finally:
            self._updating = False
        self._refresh_runs()
        self._update_count()
        if new_page:  # page-scoped: another page (or document) starts at its first row
            for view in (self.table, self.run_table):
                view.scrollToTop()
                view.horizontalScrollBar().setValue(0)
        self._on_selection(self.session.selection, "")

    def _reset_filter_widgets(self) -> None:
        for combo in (self.font_combo, self.origin_combo, self.status_combo):
            combo.blockSignals(True)
            combo.setCurrentText(ALL)
            combo.blockSignals(False)
        self.text_filter.blockSignals(True)
        self.text_filter.setText("")
        self.text_filter.blockSignals(False)

    def clear_filters(self) -> None:
        """Show every glyph of the chosen set again."""
        self._reset_filter_widgets()
        self._updating = True
        self.model.filters.clear()
        self.model.refilter()
        self._updating = False
        self.filter_note = ""
        self._refresh_runs()
        self._update_count()
        self._on_selection(self.session.selection, "")

    def hidden_rows(self) -> int:
        """Rows of the chosen glyph set that the filters hide."""
        return len(self.model._base()) - len(self.model.rows)

    # -- runs ---------------------------------------------------------------------------------
    def _on_group(self, name: str) -> None:
        self.views.setCurrentIndex(GROUPINGS.index(name))
        self._refresh_runs()
        self._update_count()

    def _refresh_runs(self) -> None:
        if self.group_combo.currentText() != "runs" or self.facts is None:
            self.run_model.set_runs([], None)
            return
        runs = self.facts.fates.runs_of(self.model.rows)
        self.run_model.set_runs(runs, self.model.classified)

    def _on_runs_selected(self, *_: object) -> None:
        if self._updating:
            return
        rows = sorted({index.row() for index in self.run_table.selectionModel().selectedRows()})
        glyphs = [i for r in rows for i in self.run_model.glyphs_of(r)]
        self.session.select(glyphs, "table")

    def run_texts(self) -> list[str]:
        return [run.text for run in self.run_model.runs]

    def _on_set(self, name: str) -> None:
        self._updating = True
        self.model.set_glyph_set(name)
        self._updating = False
        self._refresh_runs()
        self._update_count()
        self._on_selection(self.session.selection, "")

    def _filter(self, key: str, value: str) -> None:
        self._updating = True
        self.model.set_filter(key, value)
        self._updating = False
        self.filter_note = ""
        self._refresh_runs()
        self._update_count()
        self._on_selection(self.session.selection, "")

    def _update_count(self) -> None:
        total = len(self.model.glyphs)
        text = f"{len(self.model.rows)} of {total} glyphs"
        if self.group_combo.currentText() == "runs":
            text += f" in {len(self.run_model.runs)} runs"
        hidden = self.hidden_rows() if self.model.filters else 0
        if hidden:
            text += f" · <span style='color:#b25e00'><b>filter active</b>: {hidden} rows hidden</span>"
        if self.filter_note:
            text += f" · <span style='color:#b25e00'>{self.filter_note}</span>"
        self.count_label.setText(text)
        self.clear_button.setVisible(bool(self.model.filters))

    def _on_rows_selected(self, *_: object) -> None:
        if self._updating:
            return
        rows = {index.row() for index in self.table.selectionModel().selectedRows()}
        self.session.select([self.model.paint_index(r) for r in sorted(rows)], "table")

    def _on_selection(self, selection: frozenset[int], source: str) -> None:
        if source == "table":
            return
        rows = sorted(self.model.row_of[i] for i in selection if i in self.model.row_of)
        qsel = QItemSelection()
        last = self.model.columnCount() - 1
        for start, end in _ranges(rows):
            qsel.select(self.model.index(start, 0), self.model.index(end, last))
        self._updating = True
        try:
            self.table.selectionModel().select(qsel, QItemSelectionModel.SelectionFlag.ClearAndSelect)
            if rows:
                index = self.model.index(rows[0], 0)
                self.table.scrollTo(index)
                # After a model reset the view lays itself out later; scroll again once it has.
                persistent = QPersistentModelIndex(index)
                QTimer.singleShot(0, lambda: self._scroll_to(persistent))
        finally:
            self._updating = False

    def _scroll_to(self, persistent: QPersistentModelIndex) -> None:
        if persistent.isValid():
            self.table.scrollTo(self.model.index(persistent.row(), persistent.column()))

    def selected_paint_indices(self) -> list[int]:
        return sorted(self.model.paint_index(i.row()) for i in self.table.selectionModel().selectedRows())


def _ranges(rows: list[int]) -> list[tuple[int, int]]:
    """Sorted rows as (first, last) runs of consecutive rows: [1, 2, 3, 7] → [(1, 3), (7, 7)]."""
    runs: list[tuple[int, int]] = []
    for r in rows:
        if runs and r == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], r)
        else:
            runs.append((r, r))
    return runs
