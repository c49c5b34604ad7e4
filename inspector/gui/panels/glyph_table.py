"""The glyph table: every glyph of the page as a row, sortable and filterable, synced with the canvas.

The model wraps the engine's tuples: its rows are indices into them, so a
20,000-glyph page costs one list of ints, and sorting/filtering are Python
list operations instead of thousands of `data()` calls through a proxy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.glyph import Glyph, GlyphStatus
from glyphscope.inspector.gui.overlays import status_colour
from glyphscope.inspector.session import Session

ALL = "(all)"


def _origin(g: Glyph) -> str:
    return " › ".join(g.form_path) if g.form_path else "page"


Column = tuple[str, Callable[[Glyph, Any, int], Any], Callable[[Glyph, Any, int], Any]]


def _status(g: Glyph, c: Any, i: int) -> str:
    return c.status[i].value


def _dup(g: Glyph, c: Any, i: int) -> Any:
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


class GlyphTableModel(QAbstractTableModel):
    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.classified: Any = None
        self.glyphs: tuple[Glyph, ...] = ()
        self.rows: list[int] = []  # paint indices shown, in display order
        self.row_of: dict[int, int] = {}
        self.glyph_set = "all"
        self.filters: dict[str, str] = {}
        self.sort_column = 0
        self.sort_order = Qt.SortOrder.AscendingOrder

    # -- content ------------------------------------------------------------------------------
    def set_classified(self, classified: Any) -> None:
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
        self.endResetModel()

    def _sort_rows(self) -> None:
        key_fn = COLUMNS[self.sort_column][2]
        glyphs, c = self.glyphs, self.classified

        def key(i: int) -> Any:
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
            self.changePersistentIndex(QModelIndex(persistent), new)
        self.layoutChanged.emit()

    # -- Qt model API -------------------------------------------------------------------------
    def rowCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.rows)

    def columnCount(self, parent: Any = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section][0]
        return None

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        i = self.rows[index.row()]
        g = self.glyphs[i]
        if role == Qt.ItemDataRole.DisplayRole:
            return str(COLUMNS[index.column()][1](g, self.classified, i))
        if role == Qt.ItemDataRole.ForegroundRole and COLUMNS[index.column()][0] == "status":
            return QColor(status_colour(self.classified.status[i]))
        if role == Qt.ItemDataRole.UserRole:
            return i
        return None

    def paint_index(self, row: int) -> int:
        return self.rows[row]


def _matches(g: Glyph, text: str) -> bool:
    if text.lower().startswith("u+"):
        return any(f"{ord(ch):04X}".startswith(text[2:].upper()) for ch in g.unicode)
    return text in g.unicode or text == g.font_key


class GlyphTablePanel(QWidget):
    def __init__(self, session: Session, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self._updating = False
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        bar = QHBoxLayout()
        self.set_combo = self._combo("glyph_table.set", SETS, "all")
        self.font_combo = self._combo("glyph_table.font", (ALL,), ALL)
        self.origin_combo = self._combo("glyph_table.origin", (ALL,), ALL)
        self.status_combo = self._combo("glyph_table.status", (ALL, *[s.value for s in GlyphStatus]), ALL)
        self.text_filter = QLineEdit()
        self.text_filter.setObjectName("glyph_table.text")
        self.text_filter.setPlaceholderText("unicode: a, U+0041, or a font key")
        self.text_filter.setClearButtonEnabled(True)
        self.count_label = QLabel()
        for label, widget in (
            ("Glyphs", self.set_combo),
            ("Font", self.font_combo),
            ("Origin", self.origin_combo),
            ("Status", self.status_combo),
            ("Find", self.text_filter),
        ):
            bar.addWidget(QLabel(label))
            bar.addWidget(widget)
        bar.addWidget(self.count_label, 1)
        layout.addLayout(bar)
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
        layout.addWidget(self.table)

        self.set_combo.currentTextChanged.connect(self._on_set)
        self.font_combo.currentTextChanged.connect(lambda v: self._filter("font", v))
        self.origin_combo.currentTextChanged.connect(lambda v: self._filter("origin", v))
        self.status_combo.currentTextChanged.connect(lambda v: self._filter("status", v))
        self.text_filter.textChanged.connect(lambda v: self._filter("text", v))
        self.table.selectionModel().selectionChanged.connect(self._on_rows_selected)
        session.events.selection.connect(self._on_selection)
        session.events.view.connect(lambda view: self.set_facts(session.facts))

    @staticmethod
    def _combo(name: str, values: Any, current: str) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        combo.addItems(list(values))
        combo.setCurrentText(current)
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        return combo

    def set_facts(self, facts: Any) -> None:
        classified = facts.classified if facts is not None else None
        self._updating = True
        try:
            for combo, values in (
                (self.font_combo, sorted({g.font_key for g in classified.glyphs}) if classified else []),
                (self.origin_combo, sorted({_origin(g) for g in classified.glyphs}) if classified else []),
            ):
                current = combo.currentText()
                combo.blockSignals(True)
                combo.clear()
                combo.addItems([ALL, *values])
                combo.setCurrentText(current if current in values else ALL)
                combo.blockSignals(False)
                key = "font" if combo is self.font_combo else "origin"
                self.model.filters.pop(key, None) if combo.currentText() == ALL else None
            self.model.set_classified(classified)
        finally:
            self._updating = False
        self._update_count()
        self._on_selection(self.session.selection, "")

    def _on_set(self, name: str) -> None:
        self._updating = True
        self.model.set_glyph_set(name)
        self._updating = False
        self._update_count()
        self._on_selection(self.session.selection, "")

    def _filter(self, key: str, value: str) -> None:
        self._updating = True
        self.model.set_filter(key, value)
        self._updating = False
        self._update_count()
        self._on_selection(self.session.selection, "")

    def _update_count(self) -> None:
        total = len(self.model.glyphs)
        self.count_label.setText(f"{len(self.model.rows)} of {total} glyphs")

    def _on_rows_selected(self, *_: Any) -> None:
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
        start = prev = None
        for r in rows + [None]:
            if start is not None and (r is None or r != prev + 1):
                qsel.select(self.model.index(start, 0), self.model.index(prev, last))
                start = None
            if r is not None and start is None:
                start = r
            prev = r
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
