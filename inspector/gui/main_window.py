"""The main window: the canvas in the middle, panels in docks, everything driven by the Session.

The window builds widgets and actions from tables (`ACTIONS` below, `registry.PANELS` for the
docks) and wires them to the Session and the `PageController`, which opens documents and
loads pages; it shows what the controller says (status bar, canvas, dialogs) and nothing more.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, QSize, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QDockWidget,
    QFileDialog,
    QMainWindow,
    QMessageBox,
    QWidget,
)

from glyphscope.core.geometry import Point, Rect
from glyphscope.core.params import Parameters
from glyphscope.inspector.gui import dialogs
from glyphscope.inspector.gui.actions import build_chrome
from glyphscope.inspector.gui.canvas import PageView
from glyphscope.inspector.gui.controller import PageController, opened_message
from glyphscope.inspector.gui.dialogs import make_settings
from glyphscope.inspector.gui.docks import Docks
from glyphscope.inspector.gui.export import Exporter
from glyphscope.inspector.gui.panels.jobs import BackgroundJobPanel
from glyphscope.inspector.gui.panels.registry import WindowPanels
from glyphscope.inspector.gui.panels.text import TextPanel
from glyphscope.inspector.gui.repair_copy import RepairSaver
from glyphscope.inspector.gui.screen_fit import place_window
from glyphscope.inspector.gui.workers import PageLoader, WorkerPool, alive
from glyphscope.inspector.layers.registry import LAYER_KEYS
from glyphscope.inspector.views.page_facts import PageBundle
from glyphscope.inspector.views.session import MODES, Session

MAX_RECENT = 10
DEFAULT_SIZE = (1500, 950)
ABOUT = "glyphscope inspector: the engine's glyphs and decisions drawn on the page, beside the text of every mode."


class MainWindow(WindowPanels, QMainWindow):
    document_opened = Signal(str)  # path
    open_failed = Signal(str)  # message
    page_shown = Signal(int)  # a page with its glyphs, their classes and overlays is on screen
    page_complete = Signal(int)  # … and the text of every mode too (they follow the page)
    page_painted = Signal(int)  # the rendered page is on screen (its analysis may still be running)
    # Selections made here bring Glyph details to the front (the probe lists its own rows).
    DETAIL_SOURCES = ("canvas", "table", "diagnostics", "find", "text:")
    session: Session  # declared: the action table (actions.py) reads them before they are inferred
    canvas: PageView
    repair_saver: RepairSaver
    act_probe: QAction

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle("glyphscope inspector")
        self.setAcceptDrops(True)
        self.settings = settings or make_settings()
        self.session = s = Session()
        self.pool = WorkerPool(self)
        self.controller = c = PageController(
            s,
            self.pool,
            ask_password=lambda name, wrong: dialogs.ask_password(self, name, wrong),
            show_error=self._show_error,
            parent=self,
        )
        self.last_error: tuple[str, str] | None = None  # dialogs.show_error keeps the last one here
        self.exporter = Exporter(self)
        self.repair_saver = RepairSaver(self)
        self._sized = False  # side columns get their default widths when first shown
        self.canvas = PageView(s, self)
        self.setCentralWidget(self.canvas)
        ui = build_chrome(self)
        a = ui.actions
        self.act_open, self.act_close, self.act_save_repaired = a["open"], a["close"], a["save_repaired"]
        self.act_prev, self.act_next, self.act_first, self.act_last = (
            a["prev_page"], a["next_page"], a["first_page"], a["last_page"]
        )  # fmt: skip
        self.act_zoom_in, self.act_fit_page, self.act_fit_width = a["zoom_in"], a["fit_page"], a["fit_width"]
        self.act_probe = a["probe"]
        self.page_spin, self.page_count_label, self.mode_combo = (
            ui.page_spin,
            ui.page_count_label,
            ui.mode_combo,
        )
        self.recent_menu, self.panels_menu = ui.recent_menu, ui.panels_menu
        self.mode_group, self.annotation_group = ui.mode_group, ui.annotation_group
        self.timing_label, self.warning_label, self.zoom_label, self.cursor_label = (
            ui.timing_label, ui.warning_label, ui.zoom_label, ui.cursor_label
        )  # fmt: skip
        self.docks = Docks(self, self.panels_menu, ui.tools_menu)
        self.docks.build(s, self.pool)
        self.panels: dict[str, QDockWidget] = self.docks.docks  # name -> dock
        self.panel_widgets: dict[str, QWidget] = self.docks.widgets  # name -> the panel inside
        self.text_panels: dict[str, TextPanel] = dict(self.text_tabs.panels)
        self.compare_panel.their_changed.connect(self.exporter.update_ticket_action)
        self._restore_settings()
        c.attach()  # after every panel: page_shown means they all show the page
        c.document_opened.connect(self._on_opened)
        for mine, theirs in (
            (self.document_opened, c.document_opened),
            (self.open_failed, c.open_failed),
            (self.page_shown, c.page_shown),
            (self.page_complete, c.page_complete),
            (self.page_painted, c.page_painted),
        ):
            theirs.connect(mine)
        c.loading.connect(self.canvas.show_loading)
        c.timing.connect(self.timing_label.setText)
        c.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        c.sharper.connect(self.canvas.set_image)
        s.events.page.connect(lambda page: self._update_page())
        s.events.document.connect(self._on_document)
        s.events.mode.connect(self._on_mode)
        s.events.params.connect(self._on_params)
        s.events.status.connect(lambda message: self.statusBar().showMessage(message, 8000))
        s.events.layers.connect(lambda key, on: self.settings.setValue(f"layers/{key}", on))
        s.events.proposals.connect(lambda font_id: self._update_page())
        s.events.selection.connect(self._raise_details)
        s.events.decision.connect(lambda record: self.reveal("details") if record is not None else None)
        self.diagnostics.instruction_requested.connect(self._show_instruction)
        self.canvas.region_probed.connect(self._on_region_probed)
        self.canvas.cursor_moved.connect(self._on_cursor)
        self.canvas.zoom_changed.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f} %"))
        self.canvas.wants_resolution.connect(c.render_sharper)
        self._update_page()

    # -- what the controller holds ------------------------------------------------------------------
    @property
    def loader(self) -> PageLoader:
        return self.controller.loader

    @property
    def bundle(self) -> PageBundle | None:
        """The analysed page on screen (None while it loads: its preview does not count)."""
        return self.controller.bundle

    @property
    def complete_view(self) -> PageBundle | None:
        return self.controller.complete_view

    # -- docks and settings -------------------------------------------------------------------------
    def reveal(self, name: str) -> None:
        """Show a dock and bring its tab to the front."""
        self.docks.reveal(name)

    def reset_layout(self) -> None:
        self.docks.reset()

    def _raise_details(self, selection: frozenset[int], source: str) -> None:
        dock = self.panels["details"]
        if selection and source.startswith(self.DETAIL_SOURCES) and not dock.isHidden():
            dock.raise_()

    def _restore_settings(self) -> None:
        st = self.settings
        place_window(self, st, QSize(*DEFAULT_SIZE))
        self.docks.restore(st)
        for key in LAYER_KEYS:
            value = st.value(f"layers/{key}")
            if value is not None:
                self.session.set_layer_visible(key, str(value).lower() in ("true", "1"))
        mode = st.value("view/mode")
        if mode in MODES:
            self.session.set_mode(str(mode))
            self.mode_combo.setCurrentIndex(MODES.index(str(mode)))
        self._rebuild_recent()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 -- Qt's name
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            if not self.docks.restored:
                self.docks.default_sizes()
                QTimer.singleShot(0, alive(self, self.docks.default_sizes))  # once laid out at its size
            self.docks.tidy_tab_bars()

    def save_settings(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.docks.save(self.settings)
        self.settings.setValue("view/mode", self.session.mode)
        self.settings.sync()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent/files", [])
        values = [value] if isinstance(value, str) else list(value or []) if isinstance(value, list) else []
        return [str(v) for v in values if v]

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for f in files:
            act = self.recent_menu.addAction(Path(f).name)
            act.setToolTip(f)
            act.setStatusTip(f)
            act.triggered.connect(lambda checked=False, f=f: self.open_path(f))
        self.recent_menu.setEnabled(bool(files))

    # -- documents and pages ------------------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(Path(self.session.source).parent) if self.session.source else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open PDF", start, "PDF files (*.pdf);;All files (*)")
        if name:
            self.open_path(name)

    def open_path(self, path: str | Path, password: str | None = None, page: int | None = None) -> object:
        """Open a file in a worker (the controller's); returns the worker."""
        return self.controller.open_path(path, password, page)

    def close_document(self) -> None:
        self.controller.close_document()

    def _on_document(self, document: object) -> None:
        if document is None:  # closed (or another is opening): nothing of it stays on screen
            self.canvas.clear()
            self.warning_label.setText("")
        self._update_page()

    def _on_opened(self, path: str) -> None:
        files = [str(Path(path).resolve())] + [
            f for f in self.recent_files() if f != str(Path(path).resolve())
        ]
        self.settings.setValue("recent/files", files[:MAX_RECENT])
        self.settings.sync()
        self._rebuild_recent()
        document = self.session.document
        warnings = tuple(document.warnings) if document is not None else ()
        s = "s" if len(warnings) > 1 else ""
        self.warning_label.setText(f"⚠ {len(warnings)} repair warning{s}" if warnings else "")
        self.warning_label.setToolTip("\n".join(warnings))
        if warnings:
            self.statusBar().showMessage(f"Opened with warnings: {warnings[0]}", 15000)
        else:
            self.statusBar().showMessage(opened_message(path, self.session.page_count), 5000)
        if self.session.page_count == 0:
            self.canvas.clear("This document has no pages.")

    def prev_page(self) -> None:
        if self.session.page_number > 1:
            self.session.set_page(self.session.page_number - 1)

    def next_page(self) -> None:
        if self.session.page_number < self.session.page_count:
            self.session.set_page(self.session.page_number + 1)

    def _update_page(self) -> None:
        """The toolbar, the title and the actions follow the document and its page."""
        s = self.session
        has, n, count = s.document is not None, s.page_number, s.page_count
        self.page_spin.blockSignals(True)
        self.page_spin.setRange(1 if count else 0, count)
        self.page_spin.setValue(n)
        self.page_spin.blockSignals(False)
        self.page_count_label.setText(f" of {count} ")
        where = f"{s.source.name} ({s.source.parent})" if s.source else ""
        self.setWindowTitle(
            f"{where} — page {n} of {count} — glyphscope inspector" if n else "glyphscope inspector"
        )
        for act, on in ((self.act_close, has), (self.act_prev, n > 1), (self.act_first, n > 1)):
            act.setEnabled(has and on)
        for act in (self.act_next, self.act_last):
            act.setEnabled(has and n < count)
        self.page_spin.setEnabled(has)
        self.act_save_repaired.setEnabled(bool(s.accepted))  # once a proposed mapping is accepted

    def _on_mode(self, mode: str) -> None:
        index = MODES.index(mode)
        if self.mode_combo.currentIndex() != index:
            self.mode_combo.setCurrentIndex(index)
        self.mode_group.actions()[index].setChecked(True)
        self.settings.setValue("view/mode", mode)

    def set_annotation_text(self, choice: str) -> None:
        """View › Annotation text: the text of form fields and comments in the page text, out, or alone."""
        self.session.set_params(self.session.params.with_changes(annotations=choice))

    def _on_params(self, params: Parameters) -> None:
        for act in self.annotation_group.actions():
            act.setChecked(act.objectName() == f"annotations.{params.annotations}")

    def edit_limits(self) -> None:
        from glyphscope.inspector.gui.limits_dialog import edit_session_limits

        edit_session_limits(self.session, self)

    # -- links between panels that are actions, not page data ------------------------------------------
    def _show_instruction(self, token_index: int) -> None:
        self.reveal("content_stream")
        self.content_stream.show_instruction(token_index)

    def _on_region_probed(self, rect: Rect) -> None:
        self.reveal("probe")
        self.probe_panel.probe(rect)

    def toggle_probe(self, on: bool) -> None:
        self.canvas.set_probe_mode(on)
        if on:
            self.statusBar().showMessage(
                "Probe: drag a rectangle on the page (Shift+drag works without the tool)", 6000
            )

    def show_find(self) -> None:
        self.reveal("find")
        self.find_panel.focus()

    def find_step(self, forward: bool) -> None:
        self.find_panel.next() if forward else self.find_panel.previous()

    def _on_cursor(self, point: Point | None) -> None:
        self.cursor_label.setText(
            "" if point is None else f"x {point[0]:8.2f}  y {point[1]:8.2f}  pt (user space)"
        )

    # -- misc ---------------------------------------------------------------------------------------
    def about(self) -> None:
        QMessageBox.about(self, "About glyphscope", ABOUT)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 -- Qt's name
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 -- Qt's name
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def _show_error(self, title: str, message: str) -> None:
        """The controller's errors in the one error box (looked up when shown: tests replace it)."""
        dialogs.show_error(self, title, message)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 -- Qt's name
        self.save_settings()
        for panel in self.panel_widgets.values():
            if isinstance(panel, BackgroundJobPanel):
                panel.cancel()
        self.exporter.cancel()
        self.controller.shut_down(3000)
        super().closeEvent(event)
