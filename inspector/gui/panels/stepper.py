"""Stepper: run the page's content stream one instruction at a time, with the full state.

The page and every form it draws are traced once (core/trace.py, in a worker, when
the panel is shown); the list shows every instruction in execution order, form
instructions indented under their `Do`. The state table shows the graphics and
text state in which the current instruction runs, and what it changed; the canvas
shows the glyphs painted so far with the current instruction's glyphs highlighted
(inspector/gui/step_overlay.py). Breakpoints: on an operator name, on one
instruction, or on a glyph.

Keys (while the window has focus): F10 step, Shift+F10 step back, F5 run to the
next breakpoint, Shift+F5 run back, F9 toggle a breakpoint on the current
instruction, Ctrl+F10 go to the instruction that painted the selected glyph. A key
pressed before the panel was ever shown brings it to the front, traces the page and
then does what it says.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QObject, Qt, Signal
from PySide6.QtGui import QColor, QFontDatabase, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QSplitter,
    QTableView,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from glyphscope.core.trace import TEXT_SHOWING, PageTrace, TraceColour, TraceStep, trace_page
from glyphscope.inspector.gui.panels.base import PagePanel
from glyphscope.inspector.gui.panels.in_front import InFrontPanel
from glyphscope.inspector.gui.panels.shared import STEPPER_KEYS
from glyphscope.inspector.gui.table_model import RowsModel
from glyphscope.inspector.gui.workers import Worker, WorkerPool, alive
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.views.page_view import PageState
from glyphscope.inspector.views.session import Session
from glyphscope.inspector.views.stepper import StateRow, Stepper, colour_rgb, stepper_for

if TYPE_CHECKING:
    from glyphscope.core.document import Document

CURRENT = QColor("#ffcc80")
BREAK = QColor("#c62828")
DEFAULT_OPERATOR_BREAKS = ""
MIN_STEP_ROWS = 3  # the list keeps this many rows; the state, what a step is read for, gets the rest first
STATE_SHARE = 2 / 3  # of the list + state height, on the first layout


def trace_job(document: Document, page_number: int, *, token: CancelToken) -> PageTrace:
    token.check()
    return trace_page(document, page_number)


class StepModel(RowsModel):
    HEADERS = ("", "#", "Stream", "Operator", "Operands", "Glyphs")

    def __init__(self, stepper: Stepper, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.stepper = stepper
        self.steps: tuple[TraceStep, ...] = ()

    def reload(self) -> None:
        self.beginResetModel()
        trace = self.stepper.trace
        self.steps = trace.steps if trace is not None else ()
        self.endResetModel()

    def row_count(self) -> int:
        return len(self.steps)

    def row_changed(self, row: int) -> None:
        if 0 <= row < len(self.steps):
            self.rows_changed(row, row)

    def cell_data(self, row: int, column: int, role: int) -> object:
        step = self.steps[row]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == 0:
                return "●" if self.stepper.breaks_at(row) else ""
            if column == 1:
                return str(step.index)
            if column == 2:
                where = " › ".join(step.form_path) if step.form_path else "page"
                return f"{where} #{step.stream_index}"
            if column == 3:
                return "    " * step.depth + step.operator
            if column == 4:
                return step.operands
            if column == 5:
                n = step.glyphs_after - step.glyphs_before
                return str(n) if n else ""
        if role == Qt.ItemDataRole.ToolTipRole:
            why = self.stepper.breaks_at(row)
            return "; ".join(why) if why and column == 0 else (step.operands if column == 4 else None)
        if role == Qt.ItemDataRole.BackgroundRole and row == self.stepper.current:
            return CURRENT
        if role == Qt.ItemDataRole.ForegroundRole:
            if column == 0:
                return BREAK
            if column == 3 and step.operator in TEXT_SHOWING:
                return QColor("#1e63d6")
            if column == 3 and step.operator == "Do":
                return QColor("#8e24aa")
        return None


class StepperPanel(InFrontPanel, PagePanel):
    wants_room = Signal()  # a step's state is shown: the window gives it the room it needs
    source = "stepper"

    def __init__(self, session: Session, pool: WorkerPool, parent: QWidget | None = None) -> None:
        super().__init__(session, parent)
        self.pool = pool
        self.stepper = stepper_for(session)
        self._wanted: int | None = None  # page whose trace should be shown
        self._pending: int | None = None
        self._after_trace: Callable[[], object] | None = None  # a key pressed before the trace was there

        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        self.label = QLabel("No page loaded.")
        self.label.setObjectName("stepper.label")
        self.label.setWordWrap(True)
        layout.addWidget(self.label)

        self.buttons: dict[str, QToolButton] = {}
        rows = (
            (
                ("start", "|◀", "Back to the start: nothing painted", self.stepper.to_start),
                ("run_back", "◀◀", "Run back to the previous breakpoint (Shift+F5)", self.stepper.run_back),
                ("back", "◀", "Step back (Shift+F10)", self.stepper.back),
                ("forward", "▶", "Step (F10)", self.stepper.forward),
                ("run", "▶▶", "Run to the next breakpoint (F5)", self.stepper.run_forward),
                ("end", "▶|", "To the end: everything painted", self.stepper.to_end),
            ),
            (
                ("break", "● Here", "Toggle a breakpoint on the current instruction (F9)", self.toggle_break),
                ("glyph_break", "● Glyph", "Toggle a breakpoint on the selected glyph", self.break_at_glyph),
                (
                    "to_glyph",
                    "Go to glyph",
                    "Go to the instruction that painted the selected glyph (Ctrl+F10)",
                    self.go_to_selected_glyph,
                ),
            ),
        )
        bars = []
        for buttons in rows:  # a row each: both fit a 350 px side column
            bar = QHBoxLayout()
            bars.append(bar)
            bar.setSpacing(2)
            for name, text, tip, slot in buttons:
                button = QToolButton()
                button.setText(text)
                button.setObjectName(f"stepper.{name}")
                button.setToolTip(tip)
                button.clicked.connect(lambda _=False, s=slot: s())
                bar.addWidget(button)
                self.buttons[name] = button
            layout.addLayout(bar)
        bars[0].addStretch(1)
        # The operator breakpoints share the second row: the height goes to the state.
        self.operator_edit = QLineEdit(DEFAULT_OPERATOR_BREAKS)
        self.operator_edit.setObjectName("stepper.operators")
        self.operator_edit.setPlaceholderText("Break on: Tf, Do, TJ…")
        self.operator_edit.setToolTip("Break on every instruction of these operators (comma separated)")
        self.operator_edit.setMinimumWidth(90)
        self.operator_edit.editingFinished.connect(self._on_operators)
        bars[1].addWidget(self.operator_edit, 1)

        self.model = StepModel(self.stepper, self)
        self.table = QTableView()
        self.table.setObjectName("stepper.steps")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(18)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.setWordWrap(False)
        self.table.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # long form paths: tooltip below
        for column, width in ((0, 22), (1, 44), (2, 84), (3, 76), (5, 44)):
            self.table.setColumnWidth(column, width)
        self.table.clicked.connect(self._on_clicked)
        self.state = QTextBrowser()
        self.state.setObjectName("stepper.state")
        # The state first, right under the keys: it is what a step is read for (in a short dock the
        # instruction list is the part that scrolls away); the label above names the step.
        self.splitter = splitter = QSplitter(Qt.Orientation.Vertical)
        splitter.addWidget(self.state)
        splitter.addWidget(self.table)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 1)
        self.table.setMinimumHeight(MIN_STEP_ROWS * 18 + 24)
        self._split = False  # the first real height is shared out once (then the user's drag rules)
        splitter.splitterMoved.connect(self._on_split)
        layout.addWidget(splitter, 1)

        self._last_row = -1
        self.stepper.changed.connect(self._on_step)
        session.events.document.connect(lambda doc: self._clear())

    def window_shortcuts(self) -> list[tuple[str, Callable[[], object]]]:
        """The stepper's keys (STEPPER_KEYS), bound by the window (docks.Docks): they work, and
        open the panel, even while it is closed or behind another tab."""
        slots: tuple[Callable[[], object], ...] = (  # in the order of STEPPER_KEYS
            self.stepper.forward,
            self.stepper.back,
            self.stepper.run_forward,
            self.stepper.run_back,
            self.toggle_break,
            self.go_to_selected_glyph,
        )
        return [
            (key, functools.partial(self.with_trace, action))
            for (key, _what), action in zip(STEPPER_KEYS, slots, strict=True)
        ]

    def _on_split(self, position: int, index: int) -> None:
        self._split = True  # the user moved the divider: resizing keeps their split

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 -- Qt's name
        super().resizeEvent(event)
        self._share_split()

    def _share_split(self) -> None:
        """The state gets what it needs to show whole (the list at least its minimum), or
        STATE_SHARE when it needs less; a divider the user moved stays where they put it."""
        total = self.splitter.height()
        if self._split or total <= self.table.minimumHeight():
            return
        document = self.state.document()
        document.setTextWidth(self.state.viewport().width())
        frame = self.state.height() - self.state.viewport().height()
        needed = int(document.size().height()) + frame + 4
        steps = max(self.table.minimumHeight(), min(int(total * (1 - STATE_SHARE)), total - needed))
        self.splitter.setSizes([total - steps, steps])

    # -- trace ---------------------------------------------------------------------------------
    def _clear(self) -> None:
        self._wanted = None
        self._pending = None
        self._after_trace = None
        self.stepper.load(None)

    def show_page(self, state: PageState) -> None:
        n = state.page_number
        if self.stepper.page_number == n:
            return
        self._wanted = n
        self._after_trace = None
        if self.stepper.trace is not None:
            self.stepper.load(None)
        if self.in_front():
            self.start_trace()
        else:
            self.label.setText(f"Page {n}: the trace is made when this panel is shown.")

    def with_trace(self, action: Callable[[], object]) -> None:
        """Do `action` on the current page's trace: at once when it is there, else once it is made
        (the panel is brought to the front, so the keys work before its tab was ever opened)."""
        n = self.session.page_number
        if self.session.document is None or n <= 0:
            return
        if self.stepper.trace is not None and self.stepper.page_number == n:
            action()
            return
        self._after_trace = action
        self.bring_to_front()
        self.start_trace()

    def bring_to_front(self) -> None:
        parent = self.parentWidget()
        while parent is not None and not isinstance(parent, QDockWidget):
            parent = parent.parentWidget()
        if parent is not None:
            parent.show()
            parent.raise_()

    def came_to_front(self) -> None:
        if self._wanted is not None and self.stepper.page_number != self._wanted:
            self.start_trace()

    def start_trace(self) -> None:
        """Trace the current page in a worker (the panel does it by itself when shown)."""
        n = self.session.page_number
        if self.session.document is None or n <= 0 or self._pending == n:
            return
        self._wanted = n
        self._pending = n
        self.label.setText(f"Page {n}: tracing the content stream…")
        document = self.session.document
        worker = Worker(trace_job, document, n)
        worker.signals.result.connect(
            alive(
                self, lambda trace, k=n: self._traced(k, trace) if self.session.document is document else None
            )
        )
        worker.signals.error.connect(alive(self, lambda message, exc, k=n: self._failed(k, message)))
        self.pool.start(worker, priority=4)

    def _traced(self, page_number: int, trace: PageTrace) -> None:
        if self._pending == page_number:
            self._pending = None
        if page_number != self.session.page_number:
            return
        self.stepper.load(trace)
        action, self._after_trace = self._after_trace, None
        if action is not None:
            action()

    def _failed(self, page_number: int, message: str) -> None:
        if self._pending == page_number:
            self._pending = None
        self.label.setText(
            f"<span style='color:#b71c1c'>Page {page_number} could not be traced: {html.escape(message)}</span>"
        )

    # -- actions -------------------------------------------------------------------------------
    def toggle_break(self) -> None:
        self.stepper.toggle_step_break()

    def _selected_glyph(self) -> int | None:
        selection = self.session.selection
        return min(selection) if selection else None

    def break_at_glyph(self) -> None:
        g = self._selected_glyph()
        if g is None:
            self.session.report("Select a glyph first (click it on the canvas).")
            return
        self.stepper.toggle_glyph_break(g)

    def go_to_selected_glyph(self) -> None:
        g = self._selected_glyph()
        if g is None:
            self.session.report("Select a glyph first (click it on the canvas).")
            return
        self.with_trace(lambda: self._go_to_glyph(g))

    def _go_to_glyph(self, g: int) -> None:
        if not self.stepper.go_to_glyph(g):
            self.session.report(f"Glyph #{g} is not in the trace.")

    def _on_operators(self) -> None:
        self.stepper.set_operator_breaks(self.operator_edit.text().replace(";", ",").split(","))
        self.model.reload()
        self._on_step(self.stepper)

    def _on_clicked(self, index: QModelIndex) -> None:
        if index.isValid():
            if index.column() == 0:
                self.stepper.toggle_step_break(index.row())
            else:
                self.stepper.go(index.row())

    # -- display -------------------------------------------------------------------------------
    def _on_step(self, stepper: Stepper) -> None:
        if stepper.trace is None:
            if self.model.steps:
                self.model.reload()
            self._last_row = -1
            self.state.setHtml("")
            if self._pending is None and self._wanted is None:
                self.label.setText("No page loaded.")
            return
        if self.model.steps is not stepper.trace.steps:
            self.model.reload()
            self._last_row = -1
        row = stepper.current
        self.model.row_changed(self._last_row)
        self.model.row_changed(row)
        self._last_row = row
        if row >= 0:
            index = self.model.index(row, 1)
            self.table.setCurrentIndex(index)
            self.table.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
        else:
            self.table.clearSelection()
            self.table.scrollToTop()
        self._show_state()

    def _show_state(self) -> None:
        stepper = self.stepper
        trace = stepper.trace
        assert trace is not None
        total = len(trace.steps)
        more = " (stopped recording: too many instructions)" if trace.truncated else ""
        facts = self.facts
        shown = len(facts.page.glyphs) if facts is not None else trace.glyph_count
        if shown != trace.glyph_count:  # e.g. a glyph budget of the window: say which count is which
            more += f" <span style='color:#b25e00'>(the page view has {shown} glyphs)</span>"
        step = stepper.step
        if step is None:
            self.label.setText(
                f"<b>Page {trace.page_number}</b>: {total} instructions (page and forms), "
                f"{trace.glyph_count} glyphs{more}. Before the first instruction: nothing painted. F10 steps."
            )
            self.state.setHtml("")
            return
        where = " › ".join(step.form_path) if step.form_path else "page stream"
        self.label.setText(
            f"<b>Step {step.index + 1} of {total}</b>: <code>{html.escape(step.operator)}</code> at {html.escape(where)} "
            f"#{step.stream_index} · {stepper.painted} of {trace.glyph_count} glyphs painted{more}"
        )
        body = _state_html(list(stepper.state_rows()))
        painted = step.painted
        glyphs_line = ""
        if len(painted):
            glyphs = self.facts.page.glyphs if self.facts is not None else ()
            text = "".join(glyphs[i].text for i in painted[:200] if i < len(glyphs))
            glyphs_line = (
                f"<p>Paints glyphs #{painted.start}–#{painted.stop - 1}"
                + (f": “{html.escape(text)}”" if text else "")
                + "</p>"
            )
        why = stepper.breaks_at(step.index)
        why_line = f"<p style='color:#c62828'>Stopped: {html.escape('; '.join(why))}</p>" if why else ""
        self.state.setHtml(
            f"<p><b>{html.escape(step.operator)}</b> {html.escape(step.operands)}</p>{why_line}{glyphs_line}"
            "<p style='color:#616161'>State in which the instruction runs; → what it changed.</p>"
            f"{body}"
        )
        self._share_split()
        self.wants_room.emit()

    def missing_height(self) -> int:
        """How many pixels the step's state lacks to show whole (0: it fits)."""
        state = self.state
        document = state.document()
        document.setTextWidth(state.viewport().width())
        return max(int(document.size().height()) - state.viewport().height(), 0)


def _swatch(colour: TraceColour | None) -> str:
    """A filled square in the colour (none when it has no device conversion, e.g. a pattern)."""
    found = colour_rgb(colour) if colour is not None else None
    if found is None:
        return ""
    hex_colour = QColor.fromRgbF(*found).name()
    return (
        f"<span style='background-color:{hex_colour}; color:{hex_colour}; border:1px solid #616161'>"
        "&nbsp;&nbsp;&nbsp;&nbsp;</span>&nbsp;"
    )


def _state_html(rows: list[StateRow]) -> str:
    """The state as a table: what the step changed first, a row each; the rest two to a row, small,
    so the whole state of a step reads in the room of a side column."""
    changed = "".join(_state_row_html(r) for r in rows if r.changed)
    cells = [
        f"<td style='color:#616161'>{html.escape(r.label)}</td><td>{_swatch(r.colour)}{html.escape(r.value)}</td>"
        for r in rows
        if not r.changed
    ]
    pairs = "".join(f"<tr>{''.join(cells[k : k + 2])}</tr>" for k in range(0, len(cells), 2))
    return (
        f"<table>{changed}</table>"
        f"<table width='100%' style='font-size:small' cellspacing=0 cellpadding=1>{pairs}</table>"
    )


def _state_row_html(row: StateRow) -> str:
    changed = (
        f"<td style='color:#e65100'>→ {_swatch(row.changed_colour)}{html.escape(row.changed)}</td>"
        if row.changed
        else "<td></td>"
    )
    return (
        f"<tr><td style='color:#616161; padding-right:8px'>{html.escape(row.label)}</td>"
        f"<td>{_swatch(row.colour)}{html.escape(row.value)}</td>{changed}</tr>"
    )
