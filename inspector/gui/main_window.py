"""The main window: the canvas in the middle, panels in docks, everything driven by the Session."""

from __future__ import annotations

import sys
import time
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QByteArray, QSettings, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QCloseEvent,
    QDragEnterEvent,
    QDropEvent,
    QKeySequence,
    QShowEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QDockWidget,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QScrollArea,
    QSpinBox,
    QTabBar,
    QToolBar,
    QWidget,
)

from glyphscope.core.errors import PasswordRequired, WrongPassword
from glyphscope.core.geometry import Point, Rect
from glyphscope.core.limits import DEFAULT_LIMITS, Limits
from glyphscope.core.params import Parameters
from glyphscope.inspector.engine import PageBundle
from glyphscope.inspector.gui import dialogs
from glyphscope.inspector.gui.canvas import PageView
from glyphscope.inspector.gui.export import Exporter
from glyphscope.inspector.gui.panels import add_panel, registry
from glyphscope.inspector.gui.panels.help import show_guide
from glyphscope.inspector.gui.panels.jobs import BackgroundJobPanel
from glyphscope.inspector.gui.panels.text import TextPanel, mode_title
from glyphscope.inspector.gui.repair_copy import RepairSaver
from glyphscope.inspector.gui.workers import (
    PageLoader,
    Worker,
    WorkerPool,
    alive,
    reassemble_bundle,
    render_job,
)
from glyphscope.inspector.jobs import CancelToken
from glyphscope.inspector.layers import LAYER_BY_KEY, LAYER_KEYS
from glyphscope.inspector.session import MODES, Session

if TYPE_CHECKING:
    from glyphscope.core.document import Document
    from glyphscope.inspector.gui.panels.content_stream import ContentStreamPanel
    from glyphscope.inspector.gui.panels.diagnostics import DiagnosticsPanel
    from glyphscope.inspector.gui.panels.find import FindPanel
    from glyphscope.inspector.gui.panels.probe import ProbePanel
    from glyphscope.inspector.gui.panels.text import TextTabs
    from glyphscope.inspector.gui.rendering import PageRenderer

MAX_RECENT = 10


class _Closable(Protocol):
    def close(self) -> None: ...


def _close_quietly(*things: _Closable | None) -> None:
    """Close documents and renderers; a file that is already broken must not stop the window."""
    for thing in things:
        if thing is None:
            continue
        try:
            thing.close()
        except (OSError, RuntimeError, ValueError) as exc:  # pikepdf/QtPdf on a damaged file
            print(f"glyphscope: closing {thing!r} failed: {exc}", file=sys.stderr)


LIVE_REASSEMBLY_GLYPHS = 4000  # pages up to this size re-assemble on the GUI thread (well under 100 ms)
SETTINGS_ORG, SETTINGS_APP = "glyphscope", "inspector"


def make_settings() -> QSettings:
    """Ini settings in the user scope (tests redirect that scope to a temporary folder)."""
    return QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, SETTINGS_ORG, SETTINGS_APP)


def open_job(
    source: str, password: str | None, limits: Limits = DEFAULT_LIMITS, *, token: CancelToken
) -> Document:
    from glyphscope.core.document import open_document

    return open_document(source, password, limits=limits)


class ColumnScroll(QScrollArea):
    """A panel's dock content: scrolls when the panel needs more room than its dock has, so
    that one wide or tall panel never widens a side column or grows the window."""

    MIN_HEIGHT = 120
    keep_width = False  # the narrow left column (Layers): never narrower than its panel needs

    def minimumSizeHint(self) -> QSize:
        widget = self.widget()
        hint = widget.minimumSizeHint() if widget is not None else QSize(0, 0)
        width = 60
        if self.keep_width:  # the legend grows rows as a page loads: the column follows, no sideways bar
            width = max(width, hint.width() + self.verticalScrollBar().sizeHint().width())
        return QSize(width, min(hint.height(), self.MIN_HEIGHT))

    def sizeHint(self) -> QSize:
        widget = self.widget()
        return widget.sizeHint() if widget is not None else super().sizeHint()


ANNOTATION_TITLES = {
    "include": "&With the page text (as a viewer shows it)",
    "exclude": "&Left out (the page's content only)",
    "only": "&Only annotations and form fields",
}
"""View › Annotation text: the choices of Parameters.annotations, as the menu words them."""


class MainWindow(QMainWindow):
    document_opened = Signal(str)  # path
    open_failed = Signal(str)  # message
    page_shown = Signal(int)  # a page with its glyphs, their classes and overlays is on screen
    page_complete = Signal(int)  # … and the text of every mode too (they follow the page)
    page_painted = Signal(int)  # the rendered page is on screen (its analysis may still be running)
    # Panels the window talks to, set from registry.PANELS by their `attribute` (_build_panels)
    text_tabs: TextTabs
    diagnostics: DiagnosticsPanel
    probe_panel: ProbePanel
    content_stream: ContentStreamPanel
    find_panel: FindPanel

    def __init__(self, settings: QSettings | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("main_window")
        self.setWindowTitle("glyphscope inspector")
        self.setAcceptDrops(True)
        self.settings = settings or make_settings()
        self.session = Session()
        self.pool = WorkerPool(self)
        self.loader = PageLoader(self.pool, self)
        self.renderer: PageRenderer | None = None
        self.panels: dict[str, QDockWidget] = {}  # name -> dock (filled by add_panel)
        self.panel_widgets: dict[str, QWidget] = {}  # name -> the panel inside the dock
        self.last_error: tuple[str, str] | None = None
        self._open_worker: Worker | None = None
        self._pending_page: int | None = None
        self._page_requested_at = 0.0
        self._tuning_worker: Worker | None = None
        self.exporter = Exporter(self)
        self.repair_saver = RepairSaver(self)
        self._sized = False  # side columns get their default widths when first shown
        self.complete_view: PageBundle | None = None  # the last view shown with every mode's text
        self._prefetched: PageBundle | None = None  # the last view whose neighbours were prefetched
        self._restored_state = False

        self.canvas = PageView(self.session, self)
        self.setCentralWidget(self.canvas)
        self._build_actions()
        self._build_panels()
        self._build_status_bar()
        self._restore_settings()

        s = self.session
        s.events.page.connect(self._on_page)
        s.events.view.connect(self._on_view)  # after every panel's: page_shown means they all show it
        s.events.mode.connect(self._on_mode)
        s.events.params.connect(self._on_params)
        s.events.limits.connect(self._on_limits)
        s.events.status.connect(lambda message: self.statusBar().showMessage(message, 8000))
        s.events.layers.connect(lambda key, on: self.settings.setValue(f"layers/{key}", on))
        s.events.proposals.connect(lambda font_id: self._update_repair_action())
        s.events.document.connect(lambda document: self._update_repair_action())
        self._update_repair_action()
        self.loader.page_ready.connect(self._on_bundle)
        self.loader.page_preview.connect(self._on_preview)
        self.loader.texts_ready.connect(self.session.texts_ready)
        s.events.texts.connect(self._prefetch_after)
        s.events.texts.connect(lambda view: self._complete(view, late=True))
        s.events.layers.connect(lambda key, on: self._update_prebuild())
        self._update_prebuild()
        self.loader.page_progress.connect(self._on_page_progress)
        self.canvas.cursor_moved.connect(self._on_cursor)
        self.canvas.zoom_changed.connect(lambda z: self.zoom_label.setText(f"{z * 100:.0f} %"))
        self.canvas.wants_resolution.connect(self._render_sharper)
        self._update_actions()

    # -- construction -------------------------------------------------------------------------
    def _action(
        self,
        text: str,
        slot: Callable[..., object],
        shortcut: QKeySequence.StandardKey | str | list[Qt.Key | str] | None = None,
        name: str = "",
    ) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                action.setShortcuts([QKeySequence(k) for k in shortcut])
            else:
                action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        action.setObjectName(name or text)
        self.addAction(action)
        return action

    def _build_actions(self) -> None:
        a = self._action
        self.act_open = a("&Open…", self.open_dialog, QKeySequence.StandardKey.Open, "open")
        self.act_close = a("&Close", self.close_document, QKeySequence.StandardKey.Close, "close")
        self.act_quit = a("&Quit", self.close, QKeySequence.StandardKey.Quit, "quit")
        self.act_prev = a("&Previous page", self.prev_page, [Qt.Key.Key_PageUp, "Alt+Left"], "prev_page")
        self.act_next = a("&Next page", self.next_page, [Qt.Key.Key_PageDown, "Alt+Right"], "next_page")
        self.act_first = a("&First page", lambda: self.session.set_page(1), "Ctrl+Home", "first_page")
        self.act_last = a(
            "&Last page", lambda: self.session.set_page(self.session.page_count), "Ctrl+End", "last_page"
        )
        self.act_zoom_in = a(
            "Zoom &in", lambda: self.canvas.zoom_by(1.25), QKeySequence.StandardKey.ZoomIn, "zoom_in"
        )
        self.act_zoom_out = a(
            "Zoom &out", lambda: self.canvas.zoom_by(0.8), QKeySequence.StandardKey.ZoomOut, "zoom_out"
        )
        self.act_fit_page = a("Fit &page", self.canvas.fit_page, "Ctrl+0", "fit_page")
        self.act_fit_width = a("Fit &width", self.canvas.fit_width, "Ctrl+2", "fit_width")
        self.act_actual = a("&Actual size", self.canvas.actual_size, "Ctrl+1", "actual_size")
        self.act_clear = a(
            "Clear selection", lambda: self.session.clear_selection("window"), "Esc", "clear_selection"
        )

        menu = self.menuBar()
        file_menu = menu.addMenu("&File")
        file_menu.addAction(self.act_open)
        self.recent_menu = file_menu.addMenu("Open &recent")
        self.recent_menu.setObjectName("recent_menu")
        file_menu.addAction(self.act_close)
        file_menu.addSeparator()
        self._build_export_menu(file_menu.addMenu("&Export"))
        self.act_save_repaired = self._action(
            "Save &repaired copy…", lambda: self.repair_saver.save(), None, "save_repaired"
        )
        self.act_save_repaired.setToolTip(
            "A copy of the file with the mappings accepted in the Fonts panel as /ToUnicode CMaps"
        )
        file_menu.addAction(self.act_save_repaired)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        edit_menu = menu.addMenu("&Edit")
        self.act_find = a("&Find…", self.show_find, QKeySequence.StandardKey.Find, "find")
        self.act_find_next = a("Find &next", lambda: self.find_panel.next(), "F3", "find_next")
        self.act_find_prev = a(
            "Find &previous", lambda: self.find_panel.previous(), "Shift+F3", "find_previous"
        )
        for act in (self.act_find, self.act_find_next, self.act_find_prev):
            edit_menu.addAction(act)
        edit_menu.addSeparator()
        self.act_probe = a("&Probe region (drag a rectangle)", self._toggle_probe, "Ctrl+R", "probe")
        self.act_probe.setCheckable(True)
        self.act_probe.setIconText("Probe")
        self.act_probe.setToolTip(
            "Drag a rectangle on the page to list every glyph in it with its fate (or Shift+drag)"
        )
        edit_menu.addAction(self.act_probe)
        edit_menu.addSeparator()
        edit_menu.addAction(self._action("Engine &budgets…", self.edit_limits, None, "limits"))
        view_menu = menu.addMenu("&View")
        for act in (
            self.act_zoom_in,
            self.act_zoom_out,
            self.act_fit_page,
            self.act_fit_width,
            self.act_actual,
        ):
            view_menu.addAction(act)
        view_menu.addSeparator()
        mode_menu = view_menu.addMenu("Text &mode")
        self.mode_group = QActionGroup(self)
        for mode in MODES:
            act = QAction(mode_title(mode), self, checkable=True)
            act.setChecked(mode == self.session.mode)
            act.triggered.connect(lambda checked, m=mode: self.session.set_mode(m))
            self.mode_group.addAction(act)
            mode_menu.addAction(act)
        annotation_menu = view_menu.addMenu("&Annotation text")
        annotation_menu.setObjectName("annotation_menu")
        self.annotation_group = QActionGroup(self)
        for choice, title in ANNOTATION_TITLES.items():
            act = QAction(title, self, checkable=True)
            act.setObjectName(f"annotations.{choice}")
            act.setChecked(choice == self.session.params.annotations)
            act.triggered.connect(lambda checked, c=choice: self.set_annotation_text(c))
            self.annotation_group.addAction(act)
            annotation_menu.addAction(act)
        self.layers_menu = view_menu.addMenu("&Layers")
        self.panels_menu = view_menu.addMenu("&Panels")
        view_menu.addAction(self._action("&Reset window layout", self.reset_layout, None, "reset_layout"))
        go_menu = menu.addMenu("&Go")
        for act in (self.act_first, self.act_prev, self.act_next, self.act_last):
            go_menu.addAction(act)
        help_menu = menu.addMenu("&Help")
        help_menu.addAction(
            self._action("&How to read the page", lambda: show_guide(self), "F1", "help_guide")
        )
        help_menu.addAction(self._action("&About glyphscope", self.about, None, "about"))

        bar = QToolBar("Main", self)
        bar.setObjectName("toolbar.main")
        self.addToolBar(bar)
        bar.addAction(self.act_open)
        bar.addSeparator()
        bar.addAction(self.act_prev)
        self.page_spin = QSpinBox()
        self.page_spin.setObjectName("page_spin")
        self.page_spin.setRange(0, 0)
        self.page_spin.setKeyboardTracking(False)
        self.page_spin.valueChanged.connect(lambda n: self.session.set_page(n) if n else None)
        bar.addWidget(self.page_spin)
        self.page_count_label = QLabel(" of 0 ")
        bar.addWidget(self.page_count_label)
        bar.addAction(self.act_next)
        bar.addSeparator()
        for act in (self.act_zoom_out, self.act_zoom_in, self.act_fit_width, self.act_fit_page):
            bar.addAction(act)
        bar.addSeparator()
        bar.addAction(self.act_probe)
        bar.addAction(self.act_find)
        bar.addSeparator()
        bar.addWidget(QLabel(" Mode "))
        self.mode_combo = QComboBox()
        self.mode_combo.setObjectName("mode_combo")
        for mode in MODES:
            self.mode_combo.addItem(mode_title(mode), mode)
        self.mode_combo.setToolTip("The text mode: the same choice as the tabs of the Text panel")
        self.mode_combo.currentIndexChanged.connect(lambda i: self.session.set_mode(MODES[i]))
        bar.addWidget(self.mode_combo)

    def _build_panels(self) -> None:
        """Every panel of `registry.PANELS`, in order; each subscribes to the session itself."""
        s = self.session
        for spec in registry.PANELS:
            widget = spec.build(s, self.pool)
            self.panel_widgets[spec.name] = widget
            if spec.attribute:
                setattr(self, spec.attribute, widget)
            add_panel(
                self,
                widget,
                spec.name,
                spec.area,
                title=spec.title,
                tabify_with=self.panels[spec.tab_with] if spec.tab_with else None,
                below=self.panels[spec.below] if spec.below else None,
            )
        for spec in registry.PANELS:
            self._fit_column(spec.name)
        for spec in registry.PANELS:
            if spec.front:
                self.panels[spec.name].raise_()
            if spec.hidden:
                self.panels[spec.name].hide()
        # The window's minimum size was taken while panels were unwrapped: take it again.
        self.layout().invalidate()
        self.layout().activate()
        for orientation, sizes in (
            (Qt.Orientation.Horizontal, [(x.name, x.width) for x in registry.PANELS if x.width]),
            (Qt.Orientation.Vertical, [(x.name, x.height) for x in registry.PANELS if x.height]),
        ):
            self.resizeDocks([self.panels[n] for n, _ in sizes], [size for _, size in sizes], orientation)
        self.text_panels: dict[str, TextPanel] = dict(self.text_tabs.panels)
        for key in LAYER_KEYS:
            act = QAction(LAYER_BY_KEY[key].label, self, checkable=True)
            act.setChecked(s.layers[key])
            act.toggled.connect(lambda on, k=key: s.set_layer_visible(k, on))
            s.events.layers.connect(lambda k, on, key=key, act=act: act.setChecked(on) if k == key else None)
            self.layers_menu.addAction(act)
        # Links between panels that are actions, not page data.
        self.diagnostics.instruction_requested.connect(self._show_instruction)
        self.canvas.region_probed.connect(self._on_region_probed)
        s.events.selection.connect(self._raise_details)
        s.events.decision.connect(lambda record: self.reveal("details") if record is not None else None)
        self._tidy_tab_bars()

    def _fit_column(self, name: str) -> None:
        """Every panel sits in a scroll area of its dock: one that grows wider than its side
        column (a long unwrapped label) scrolls there instead of widening the column, and
        with it every panel of that side, at the canvas's expense. Panels that wrap their
        text never show a scroll bar."""
        widget, dock = self.panel_widgets[name], self.panels[name]
        scroll = ColumnScroll()
        scroll.setObjectName(f"scroll.{name}")
        scroll.keep_width = name == "legend"
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidget(widget)
        dock.setWidget(scroll)

    # Selections made here bring Glyph details to the front (the probe lists its own rows).
    DETAIL_SOURCES = ("canvas", "table", "diagnostics", "find", "text:")

    def _raise_details(self, selection: frozenset[int], source: str) -> None:
        if selection and source.startswith(self.DETAIL_SOURCES):
            dock = self.panels.get("details")
            if dock is not None and not dock.isHidden():
                dock.raise_()

    def _tidy_tab_bars(self) -> None:
        """Dock tabs show their whole title (scroll arrows when there is no room), never "Text: …"."""
        for bar in self.findChildren(QTabBar):
            if bar.parent() is self:
                bar.setElideMode(Qt.TextElideMode.ElideNone)
                bar.setUsesScrollButtons(True)

    def _min_width(self, name: str) -> int:
        widget = self.panel_widgets.get(name)
        return widget.minimumSizeHint().width() if widget is not None else 0

    def default_dock_sizes(self) -> None:
        """Side columns sized from the window so the canvas keeps most of it (1280×800 and up)."""
        width, height = max(self.width(), 800), max(self.height(), 500)
        left = int(min(max(width * 0.14, 190, self._min_width("legend") + 2), 260))
        right = int(min(max(width * 0.36 - 90, 360), 560))  # 371 px at 1280, 486 px at 1600
        docks = self.panels
        columns = [(docks[n], w) for n, w in (("legend", left), ("text", right)) if n in docks]
        self.resizeDocks([d for d, _ in columns], [w for _, w in columns], Qt.Orientation.Horizontal)
        rows = [
            (docks[n], f) for n, f in (("text", 0.34), ("details", 0.30), ("glyph_table", 0.36)) if n in docks
        ]
        self.resizeDocks([d for d, _ in rows], [int(height * f) for _, f in rows], Qt.Orientation.Vertical)

    def reveal(self, name: str) -> None:
        """Show a dock and bring its tab to the front."""
        dock = self.panels.get(name)
        if dock is not None:
            dock.show()
            dock.raise_()

    def _show_instruction(self, token_index: int) -> None:
        self.reveal("content_stream")
        self.content_stream.show_instruction(token_index)

    def _on_region_probed(self, rect: Rect) -> None:
        self.reveal("probe")
        self.probe_panel.probe(rect)

    def _toggle_probe(self, on: bool) -> None:
        self.canvas.set_probe_mode(on)
        if on:
            self.statusBar().showMessage(
                "Probe: drag a rectangle on the page (Shift+drag works without the tool)", 6000
            )

    def show_find(self) -> None:
        self.reveal("find")
        self.find_panel.focus()

    def _update_repair_action(self) -> None:
        """File › Save repaired copy is there to use once a proposed mapping is accepted."""
        self.act_save_repaired.setEnabled(bool(self.session.accepted))

    def _build_export_menu(self, menu: QMenu) -> None:
        ex = self.exporter
        page_menu = menu.addMenu("Page &text")
        doc_menu = menu.addMenu("&Document text")
        for mode in MODES:
            page_menu.addAction(mode_title(mode) + "…", lambda m=mode: ex.page_text(mode=m))
            doc_menu.addAction(mode_title(mode) + "…", lambda m=mode: ex.document_text(mode=m))
        menu.addAction("Glyph records as &JSON…", lambda: ex.glyphs_json())
        menu.addAction("Glyph records as &CSV…", lambda: ex.glyphs_csv())
        menu.addAction("Canvas with overlays as &PNG…", lambda: ex.canvas_png())
        menu.addAction("T&riage report (HTML)…", lambda: ex.triage_report())
        menu.addAction("Triage report, &anonymised (HTML)…", lambda: ex.triage_report(anonymise=True))

    # -- live tuning --------------------------------------------------------------------------
    def set_annotation_text(self, choice: str) -> None:
        """View › Annotation text: the text of form fields and comments in the page text, out, or alone."""
        self.session.set_params(self.session.params.with_changes(annotations=choice))

    def _on_params(self, params: Parameters) -> None:
        """New thresholds: re-assemble the page on screen (no re-interpretation); other pages reload."""
        for act in self.annotation_group.actions():
            act.setChecked(act.objectName() == f"annotations.{params.annotations}")
        self.loader.set_params(params)
        if self._tuning_worker is not None:
            self._tuning_worker.cancel()
            self._tuning_worker = None
        bundle = self.bundle
        page = self.session.page_number
        if bundle is None or bundle.analysis is None or bundle.page_number != page:
            cached = self.loader.request(page) if page else None
            if cached is not None:
                self.session.set_view(cached)
            return
        mode, prebuild = self.session.mode, self.loader.prebuild
        self._page_requested_at = time.perf_counter()
        if len(bundle.analysis.page.glyphs) <= LIVE_REASSEMBLY_GLYPHS:
            try:
                fresh = reassemble_bundle(bundle, params, mode, prebuild, token=CancelToken())
            except Exception as exc:  # never crash the window over a threshold
                dialogs.show_error(self, "Re-assembly failed", dialogs.error_message(exc))
                return
            self._reassembled(fresh, params)
            return
        self.timing_label.setText(f"re-assembling page {page}…")
        worker = Worker(reassemble_bundle, bundle, params, mode, prebuild)
        worker.signals.result.connect(alive(self, lambda fresh, p=params: self._reassembled(fresh, p)))
        worker.signals.error.connect(
            alive(self, lambda message, exc: dialogs.show_error(self, "Re-assembly failed", message))
        )
        self._tuning_worker = worker
        self.pool.start(worker, priority=15)

    def edit_limits(self) -> None:
        from glyphscope.inspector.gui.limits_dialog import edit_session_limits

        edit_session_limits(self.session, self)

    def _on_limits(self, limits: Limits) -> None:
        """New budgets: the document re-interprets its pages (Session.set_limits); reload this one."""
        self.loader.invalidate()
        page = self.session.page_number
        if not page:
            return
        self.session.set_view(None)
        self._request_page(page, f"re-interpreting page {page}…")

    def _reassembled(self, bundle: PageBundle, params: Parameters) -> None:
        if params != self.session.params or bundle.page_number != self.session.page_number:
            return
        self.loader.cache.put(bundle)
        self.session.set_view(bundle)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.cursor_label = QLabel("")
        self.cursor_label.setObjectName("status.cursor")
        self.cursor_label.setMinimumWidth(200)
        self.zoom_label = QLabel("")
        self.timing_label = QLabel("")
        self.timing_label.setObjectName("status.timing")
        self.warning_label = QLabel("")
        self.warning_label.setObjectName("status.warning")
        self.warning_label.setStyleSheet("color: #b26a00")
        bar.addPermanentWidget(self.warning_label)
        bar.addPermanentWidget(self.timing_label)
        bar.addPermanentWidget(self.zoom_label)
        bar.addPermanentWidget(self.cursor_label)

    # -- settings -----------------------------------------------------------------------------
    def _restore_settings(self) -> None:
        st = self.settings
        geometry = st.value("window/geometry")
        if isinstance(geometry, QByteArray) and not geometry.isEmpty():
            self.restoreGeometry(geometry)
        else:
            self.resize(1500, 950)
        # The layout as built: what "Reset window layout" returns to, and the fallback when a
        # saved state comes from a version with other panels (restoreState then refuses it).
        self._default_state = self.saveState(self._layout_version())
        state = st.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self._restored_state = self.restoreState(state, self._layout_version())
        for key in LAYER_KEYS:
            value = st.value(f"layers/{key}")
            if value is not None:
                self.session.set_layer_visible(key, str(value).lower() in ("true", "1"))
        mode = st.value("view/mode")
        if mode in MODES:
            self.session.set_mode(str(mode))
            self.mode_combo.setCurrentIndex(MODES.index(str(mode)))
        self._rebuild_recent()

    def _layout_version(self) -> int:
        """Changes whenever the set of docks and toolbars changes, so stale layouts are not restored."""
        widgets = [*self.findChildren(QDockWidget), *self.findChildren(QToolBar)]
        names = sorted(w.objectName() for w in widgets)
        return zlib.crc32("\n".join(names).encode()) & 0x7FFFFFFF

    def reset_layout(self) -> None:
        self.restoreState(self._default_state, self._layout_version())
        self.default_dock_sizes()
        self._tidy_tab_bars()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if not self._sized:
            self._sized = True
            if not self._restored_state:
                self.default_dock_sizes()
                QTimer.singleShot(0, alive(self, self.default_dock_sizes))  # once laid out at its size
            self._tidy_tab_bars()

    def save_settings(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState(self._layout_version()))
        self.settings.setValue("view/mode", self.session.mode)
        self.settings.sync()

    def recent_files(self) -> list[str]:
        value = self.settings.value("recent/files", [])
        if isinstance(value, str):
            value = [value]
        return [str(v) for v in (value or []) if v]

    def _remember(self, path: str) -> None:
        files = [path] + [f for f in self.recent_files() if f != path]
        self.settings.setValue("recent/files", files[:MAX_RECENT])
        self.settings.sync()
        self._rebuild_recent()

    def _rebuild_recent(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for f in files:
            act = self.recent_menu.addAction(Path(f).name)
            act.setToolTip(f)
            act.setStatusTip(f)
            act.triggered.connect(lambda checked=False, f=f: self.open_path(f))
        self.recent_menu.setEnabled(bool(files))

    # -- opening ------------------------------------------------------------------------------
    def open_dialog(self) -> None:
        start = str(Path(self.session.source).parent) if self.session.source else ""
        name, _ = QFileDialog.getOpenFileName(self, "Open PDF", start, "PDF files (*.pdf);;All files (*)")
        if name:
            self.open_path(name)

    def open_path(self, path: str | Path, password: str | None = None, page: int | None = None) -> Worker:
        """Open a file in a worker; the password dialog and errors follow on the GUI thread."""
        path = str(path)
        if self._open_worker is not None:
            self._open_worker.cancel()
        self._pending_page = page
        self.statusBar().showMessage(f"Opening {path}…")
        worker = Worker(open_job, path, password, self.session.limits)
        worker.signals.result.connect(alive(self, lambda doc, p=path, pw=password: self._opened(doc, p, pw)))
        worker.signals.error.connect(
            alive(self, lambda message, exc, p=path, pw=password: self._open_error(p, pw, message, exc))
        )
        worker.signals.finished.connect(alive(self, lambda w=worker: self._open_finished(w)))
        self._open_worker = worker
        self.pool.start(worker, priority=20)
        return worker

    def _open_finished(self, worker: Worker) -> None:
        if self._open_worker is worker:
            self._open_worker = None

    def _open_error(self, path: str, password: str | None, message: str, exc: BaseException) -> None:
        if isinstance(exc, (PasswordRequired, WrongPassword)):
            new_password = dialogs.ask_password(self, Path(path).name, isinstance(exc, WrongPassword))
            if new_password is not None:
                self.open_path(path, new_password, self._pending_page)
                return
            message = f"{Path(path).name} was not opened: it needs a password."
            self.statusBar().showMessage(message, 8000)
            self.open_failed.emit(message)
            return
        text = dialogs.error_message(exc, path)
        dialogs.show_error(self, dialogs.error_title(exc, path), text)
        self.statusBar().showMessage(text, 10000)
        self.open_failed.emit(text)

    def _opened(self, document: Document, path: str, password: str | None) -> None:
        from glyphscope.inspector.gui.rendering import PageRenderer

        self.close_document()
        self.renderer = PageRenderer(path, password)
        self.loader.set_document(document, self.renderer, self.session.params)
        self.loader.mode = self.session.mode
        self.session.set_document(document, Path(path), password)
        self._remember(str(Path(path).resolve()))
        count = document.page_count
        self.page_spin.blockSignals(True)
        self.page_spin.setRange(1 if count else 0, count)
        self.page_spin.blockSignals(False)
        self.page_count_label.setText(f" of {count} ")
        warnings = tuple(getattr(document, "warnings", ()))
        if warnings:
            self.warning_label.setText(f"⚠ {len(warnings)} repair warning{'s' if len(warnings) > 1 else ''}")
            self.warning_label.setToolTip("\n".join(warnings))
            self.statusBar().showMessage(f"Opened with warnings: {warnings[0]}", 15000)
        else:
            self.warning_label.setText("")
            self.warning_label.setToolTip("")
            self.statusBar().showMessage(f"Opened {path} ({count} pages)", 5000)
        self._update_actions()
        self.document_opened.emit(path)
        if count == 0:
            self.canvas.clear("This document has no pages.")
            return
        page = self._pending_page or 1
        self._pending_page = None
        self.session.set_page(max(1, min(page, count)))

    def close_document(self) -> None:
        if self.session.document is None:
            return
        old_doc, old_renderer = self.session.document, self.renderer
        self.loader.set_document(None, None, self.session.params)
        self.session.set_document(None)
        self.renderer = None
        self.canvas.clear()
        self.page_spin.setRange(0, 0)
        self.page_count_label.setText(" of 0 ")
        self.warning_label.setText("")
        self.setWindowTitle("glyphscope inspector")
        self._update_actions()
        # Workers may still hold them; close once they are done.
        QTimer.singleShot(0, lambda: self._close_later(old_doc, old_renderer))

    def _close_later(
        self, document: Document | None, renderer: PageRenderer | None, attempts: int = 0
    ) -> None:
        if self.pool.active and attempts < 50:
            QTimer.singleShot(100, lambda: self._close_later(document, renderer, attempts + 1))
            return
        _close_quietly(renderer, document)

    # -- pages --------------------------------------------------------------------------------
    def prev_page(self) -> None:
        if self.session.page_number > 1:
            self.session.set_page(self.session.page_number - 1)

    def next_page(self) -> None:
        if self.session.page_number < self.session.page_count:
            self.session.set_page(self.session.page_number + 1)

    def _on_page(self, page: int) -> None:
        self.page_spin.blockSignals(True)
        self.page_spin.setValue(page)
        self.page_spin.blockSignals(False)
        self._update_actions()
        name = self.session.source.name if self.session.source else ""
        self.setWindowTitle(f"{name} — page {page} of {self.session.page_count} — glyphscope inspector")
        self._request_page(page, f"loading page {page}…")

    def _request_page(self, page: int, waiting: str) -> None:
        """Show `page` from the loader's cache, or its loading state and `waiting` until it comes."""
        self._page_requested_at = time.perf_counter()
        cached = self.loader.request(page)
        if cached is not None:
            self.session.set_view(cached)
        else:
            self.canvas.show_loading(page)
            self.timing_label.setText(waiting)

    def _on_page_progress(self, page: int, done: int, total: int, message: str) -> None:
        if page == self.session.page_number and self.bundle is None:
            self.timing_label.setText(message + "…")

    def _update_prebuild(self) -> None:
        self.loader.prebuild = tuple(k for k, on in self.session.layers.items() if on)

    @property
    def bundle(self) -> PageBundle | None:
        """The analysed page on screen (None while it loads: its preview does not count)."""
        view = self.session.view
        return view if view is not None and not view.preview else None

    def _on_preview(self, bundle: PageBundle) -> None:
        """The rendered page arrives before its analysis: show it at once."""
        if self.session.view is None:
            self.session.set_view(bundle)

    def _on_bundle(self, bundle: PageBundle) -> None:
        self.session.set_view(bundle)

    def _on_view(self, view: PageBundle | None) -> None:
        """The window's own part of a new view: status bar, signals, prefetching (the views did theirs)."""
        self.complete_view = None
        if view is None:
            return
        if view.image is not None:
            self.page_painted.emit(view.page_number)
        if view.preview:
            return
        elapsed = (time.perf_counter() - self._page_requested_at) * 1000
        timings = view.timings
        detail = (
            f" (analyse {timings.get('analyse', 0) * 1000:.0f} ms, render {timings.get('render', 0) * 1000:.0f} ms)"
            if timings.get("total")
            else ""
        )
        self.timing_label.setText(f"page {view.page_number}: {elapsed:.0f} ms{detail}")
        if view.error:
            self.statusBar().showMessage(view.error, 10000)
        self.page_shown.emit(view.page_number)
        self._prefetch_after(view)
        self._complete(view)

    def _prefetch_after(self, view: PageBundle) -> None:
        """Prefetch the neighbours of `view` once it has every mode's text: before, they would take
        the CPU from the page on screen."""
        if view is not self.session.view or self._prefetched is view:
            return
        if view.facts is not None and not view.texts_complete:
            return  # again on `texts`
        self._prefetched = view
        n = view.page_number
        neighbours = [p for p in (n + 1, n - 1) if 1 <= p <= self.session.page_count]
        self.loader.later(lambda: self.loader.prefetch(neighbours) if self.session.page_number == n else None)

    def _complete(self, view: PageBundle, late: bool = False) -> None:
        """page_complete, once the view on screen has the text of every mode (`late`: they came
        after the page, and the status bar says when)."""
        if view.facts is not None and not view.texts_complete:
            return  # the worker's last word is still to come (its modes may be ready already)
        if view is self.session.view and self.complete_view is not view:  # once per view shown
            self.complete_view = view
            if late:
                elapsed = (time.perf_counter() - self._page_requested_at) * 1000
                self.timing_label.setText(
                    f"{self.timing_label.text()} · every mode's text at {elapsed:.0f} ms"
                )
            self.page_complete.emit(view.page_number)

    def _on_mode(self, mode: str) -> None:
        self.loader.mode = mode
        index = MODES.index(mode)
        if self.mode_combo.currentIndex() != index:
            self.mode_combo.setCurrentIndex(index)
        self.mode_group.actions()[index].setChecked(True)
        self.settings.setValue("view/mode", mode)

    def _render_sharper(self, page: int, scale: float) -> None:
        if self.renderer is None or self.bundle is None or self.bundle.page_number != page:
            return
        worker = Worker(render_job, self.renderer, page, self.bundle.boxes, scale)
        worker.signals.result.connect(alive(self, lambda result: self.canvas.set_image(*result)))
        self.pool.start(worker, priority=-5)

    def _on_cursor(self, point: Point | None) -> None:
        if point is None:
            self.cursor_label.setText("")
        else:
            self.cursor_label.setText(f"x {point[0]:8.2f}  y {point[1]:8.2f}  pt (user space)")

    def _update_actions(self) -> None:
        has = self.session.document is not None
        n, count = self.session.page_number, self.session.page_count
        self.act_close.setEnabled(has)
        self.act_prev.setEnabled(has and n > 1)
        self.act_first.setEnabled(has and n > 1)
        self.act_next.setEnabled(has and n < count)
        self.act_last.setEnabled(has and n < count)
        self.page_spin.setEnabled(has)

    # -- misc ---------------------------------------------------------------------------------
    def about(self) -> None:
        QMessageBox.about(
            self,
            "About glyphscope",
            "glyphscope inspector: the engine's glyphs and decisions drawn on the page, "
            "beside the text of every mode.",
        )

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls() and any(u.isLocalFile() for u in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile():
                self.open_path(url.toLocalFile())
                event.acceptProposedAction()
                return

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_settings()
        for panel in self.panel_widgets.values():
            if isinstance(panel, BackgroundJobPanel):
                panel.cancel()
        self.exporter.cancel()
        self.loader.close()
        self.pool.shutdown(3000)
        doc, renderer = self.session.document, self.renderer
        _close_quietly(renderer, doc)
        super().closeEvent(event)
