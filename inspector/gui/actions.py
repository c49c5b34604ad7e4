"""The window's chrome from tables: its actions and menus, the toolbar and the status bar.

`ACTIONS` is every action of the window, one line each, in menu order; `TOOLBAR` the toolbar
left to right; `EXPORTS` File › Export. `build_chrome(window)` turns them into Qt objects and
returns them (`Chrome`); the window keeps them, typed.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeAlias

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QComboBox, QLabel, QMenu, QSpinBox, QToolBar, QToolButton

from glyphscope.core.params import AnnotationText
from glyphscope.inspector.gui.panels.help import show_guide
from glyphscope.inspector.gui.panels.text import mode_title
from glyphscope.inspector.layers.registry import LAYER_BY_KEY, LAYER_KEYS
from glyphscope.inspector.views.session import MODES

if TYPE_CHECKING:
    from glyphscope.inspector.gui.export import Exporter
    from glyphscope.inspector.gui.main_window import MainWindow

ANNOTATION_TITLES: dict[str, str] = {
    AnnotationText.INCLUDE: "&With the page text (as a viewer shows it)",
    AnnotationText.EXCLUDE: "&Left out (the page's content only)",
    AnnotationText.ONLY: "&Only annotations and form fields",
}
"""View › Annotation text: the choices of Parameters.annotations, as the menu words them."""

Shortcut: TypeAlias = QKeySequence.StandardKey | str | list[Qt.Key | str] | None
Std = QKeySequence.StandardKey


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action of the window: its objectName, text, what it does, its keys and its menu."""

    name: str
    text: str
    slot: Callable[[MainWindow], object]
    keys: Shortcut = None
    menu: str = ""  # the menu's title ("" — the window's own, e.g. a toolbar-only action)
    separator: bool = False  # a separator before it in its menu


# One line per action, in menu order (kept unwrapped on purpose).
# fmt: off
ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("open", "&Open…", lambda w: w.open_dialog(), Std.Open, "&File"),
    ActionSpec("close", "&Close", lambda w: w.close_document(), Std.Close, "&File"),
    ActionSpec("save_repaired", "Save &repaired copy…", lambda w: w.repair_saver.save(), None, "&File", separator=True),
    ActionSpec("quit", "&Quit", lambda w: w.close(), Std.Quit, "&File", separator=True),
    ActionSpec("find", "&Find…", lambda w: w.show_find(), Std.Find, "&Edit"),
    ActionSpec("find_next", "Find &next", lambda w: w.find_step(forward=True), "F3", "&Edit"),
    ActionSpec("find_previous", "Find &previous", lambda w: w.find_step(forward=False), "Shift+F3", "&Edit"),
    ActionSpec("probe", "&Probe region (drag a rectangle)", lambda w: w.toggle_probe(w.act_probe.isChecked()), "Ctrl+R", "&Edit", separator=True),
    ActionSpec("limits", "Engine &budgets…", lambda w: w.edit_limits(), None, "&Edit", separator=True),
    ActionSpec("zoom_in", "Zoom &in", lambda w: w.canvas.zoom_by(1.25), Std.ZoomIn, "&View"),
    ActionSpec("zoom_out", "Zoom &out", lambda w: w.canvas.zoom_by(0.8), Std.ZoomOut, "&View"),
    ActionSpec("fit_page", "Fit &page", lambda w: w.canvas.fit_page(), "Ctrl+0", "&View"),
    ActionSpec("fit_width", "Fit &width", lambda w: w.canvas.fit_width(), "Ctrl+2", "&View"),
    ActionSpec("actual_size", "&Actual size", lambda w: w.canvas.actual_size(), "Ctrl+1", "&View"),
    ActionSpec("first_page", "&First page", lambda w: w.session.set_page(1), "Ctrl+Home", "&Go"),
    ActionSpec("prev_page", "&Previous page", lambda w: w.prev_page(), [Qt.Key.Key_PageUp, "Alt+Left"], "&Go"),
    ActionSpec("next_page", "&Next page", lambda w: w.next_page(), [Qt.Key.Key_PageDown, "Alt+Right"], "&Go"),
    ActionSpec("last_page", "&Last page", lambda w: w.session.set_page(w.session.page_count), "Ctrl+End", "&Go"),
    ActionSpec("help_guide", "&How to read the page", lambda w: show_guide(w), "F1", "&Help"),
    ActionSpec("about", "&About glyphscope", lambda w: w.about(), None, "&Help"),
    ActionSpec("clear_selection", "Clear selection", lambda w: w.session.clear_selection("window"), "Esc"),
    ActionSpec("reset_layout", "&Reset window layout", lambda w: w.reset_layout(), None),
)
# fmt: on
MENUS = ("&File", "&Edit", "&View", "&Go", "&Help")
TOOLBAR = (
    "open",
    "",
    "prev_page",
    "page_spin",
    "next_page",
    "",
    "zoom_out",
    "zoom_in",
    "fit_width",
    "fit_page",
    "",
    "probe",
    "find",
    "tools",
    "",
    "mode",
)
"""The toolbar, left to right ("" a separator; page_spin, tools and mode are the window's widgets)."""
EXPORTS: tuple[tuple[str, Callable[[Exporter], object]], ...] = (
    ("Glyph records as &JSON…", lambda ex: ex.glyphs_json()),
    ("Glyph records as &CSV…", lambda ex: ex.glyphs_csv()),
    ("Canvas with overlays as &PNG…", lambda ex: ex.canvas_png()),
    ("T&riage report (HTML)…", lambda ex: ex.triage_report()),
    ("Triage report, &anonymised (HTML)…", lambda ex: ex.triage_report(anonymise=True)),
)


@dataclass(slots=True)
class Chrome:
    """What `build_chrome` made: the actions by name and the widgets the window updates."""

    actions: dict[str, QAction]
    recent_menu: QMenu
    panels_menu: QMenu
    tools_menu: QMenu  # the panels that start closed (registry `hidden`), one click from the toolbar
    mode_group: QActionGroup
    annotation_group: QActionGroup
    page_spin: QSpinBox
    page_count_label: QLabel
    mode_combo: QComboBox
    timing_label: QLabel
    warning_label: QLabel
    zoom_label: QLabel
    cursor_label: QLabel


def _action(window: MainWindow, spec: ActionSpec) -> QAction:
    action = QAction(spec.text, window)
    if isinstance(spec.keys, list):
        action.setShortcuts([QKeySequence(k) for k in spec.keys])
    elif spec.keys is not None:
        action.setShortcut(QKeySequence(spec.keys))
    action.triggered.connect(lambda checked=False, f=spec.slot: f(window))
    action.setObjectName(spec.name)
    window.addAction(action)
    return action


def _choice_menu(
    window: MainWindow,
    menu: QMenu,
    titles: dict[str, str],
    current: str,
    choose: Callable[[str], None],
    prefix: str = "",
) -> QActionGroup:
    """One checkable action per choice, exclusive (Text mode, Annotation text)."""
    group = QActionGroup(window)
    for key, title in titles.items():
        act = QAction(title, window, checkable=True)
        act.setObjectName(prefix + key if prefix else "")
        act.setChecked(key == current)
        act.triggered.connect(lambda checked=False, k=key: choose(k))
        group.addAction(act)
        menu.addAction(act)
    return group


def build_chrome(window: MainWindow) -> Chrome:
    """The menus, toolbar and status bar of `window` from the tables above."""
    session = window.session
    menus = {title: window.menuBar().addMenu(title) for title in MENUS}
    actions: dict[str, QAction] = {}
    for spec in ACTIONS:
        actions[spec.name] = _action(window, spec)
        if spec.menu:
            if spec.separator:
                menus[spec.menu].addSeparator()
            menus[spec.menu].addAction(actions[spec.name])
    probe = actions["probe"]
    probe.setCheckable(True)
    probe.setIconText("Probe")
    probe.setToolTip("Drag a rectangle on the page to list every glyph in it with its fate (or Shift+drag)")
    actions["save_repaired"].setToolTip(
        "A copy of the file with the mappings accepted in the Fonts panel as /ToUnicode CMaps"
    )
    file_menu, view_menu = menus["&File"], menus["&View"]
    recent_menu = QMenu("Open &recent", window)
    recent_menu.setObjectName("recent_menu")
    file_menu.insertMenu(actions["close"], recent_menu)
    export_menu = QMenu("&Export", window)
    file_menu.insertMenu(actions["save_repaired"], export_menu)
    _export_menu(window.exporter, export_menu)
    view_menu.addSeparator()
    modes = {m: mode_title(m) for m in MODES}
    mode_group = _choice_menu(window, view_menu.addMenu("Text &mode"), modes, session.mode, session.set_mode)
    annotation_menu = view_menu.addMenu("&Annotation text")
    annotation_menu.setObjectName("annotation_menu")
    annotation_group = _choice_menu(
        window,
        annotation_menu,
        ANNOTATION_TITLES,
        session.params.annotations,
        window.set_annotation_text,
        "annotations.",
    )
    layers_menu = view_menu.addMenu("&Layers")
    for key in LAYER_KEYS:
        act = QAction(LAYER_BY_KEY[key].label, window, checkable=True)
        act.setChecked(session.layers[key])
        act.toggled.connect(lambda on, k=key: session.set_layer_visible(k, on))
        session.events.layers.connect(
            lambda k, on, key=key, act=act: act.setChecked(on) if k == key else None
        )
        layers_menu.addAction(act)
    panels_menu = view_menu.addMenu("&Panels")
    view_menu.addAction(actions["reset_layout"])

    page_spin = QSpinBox()
    page_spin.setObjectName("page_spin")
    page_spin.setRange(0, 0)
    page_spin.setKeyboardTracking(False)
    page_spin.valueChanged.connect(lambda n: session.set_page(n) if n else None)
    page_count_label = QLabel(" of 0 ")
    mode_combo = QComboBox()
    mode_combo.setObjectName("mode_combo")
    for mode in MODES:
        mode_combo.addItem(mode_title(mode), mode)
    mode_combo.setToolTip("The text mode: the same choice as the tabs of the Text panel")
    mode_combo.currentIndexChanged.connect(lambda i: session.set_mode(MODES[i]))
    tools_menu = QMenu("Tools", window)
    tools_menu.setObjectName("tools_menu")
    tools_button = QToolButton()
    tools_button.setObjectName("tools_button")
    tools_button.setText("Tools")
    tools_button.setToolTip("Open a tool panel: content stream, stepper, tuning, OCR verify, other engines")
    tools_button.setMenu(tools_menu)
    tools_button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
    bar = QToolBar("Main", window)
    bar.setObjectName("toolbar.main")
    window.addToolBar(bar)
    for item in TOOLBAR:
        if not item:
            bar.addSeparator()
        elif item == "page_spin":
            bar.addWidget(page_spin)
            bar.addWidget(page_count_label)
        elif item == "tools":
            bar.addWidget(tools_button)
        elif item == "mode":
            bar.addWidget(QLabel(" Mode "))
            bar.addWidget(mode_combo)
        else:
            bar.addAction(actions[item])

    status = window.statusBar()
    cursor_label, zoom_label, timing_label, warning_label = QLabel(""), QLabel(""), QLabel(""), QLabel("")
    cursor_label.setObjectName("status.cursor")
    cursor_label.setMinimumWidth(200)
    timing_label.setObjectName("status.timing")
    warning_label.setObjectName("status.warning")
    warning_label.setStyleSheet("color: #b26a00")
    for label in (warning_label, timing_label, zoom_label, cursor_label):
        status.addPermanentWidget(label)
    return Chrome(
        actions,
        recent_menu,
        panels_menu,
        tools_menu,
        mode_group,
        annotation_group,
        page_spin,
        page_count_label,
        mode_combo,
        timing_label,
        warning_label,
        zoom_label,
        cursor_label,
    )


def _export_menu(exporter: Exporter, menu: QMenu) -> None:
    page_menu, doc_menu = menu.addMenu("Page &text"), menu.addMenu("&Document text")
    for mode in MODES:
        page_menu.addAction(mode_title(mode) + "…", functools.partial(exporter.page_text, mode=mode))
        doc_menu.addAction(mode_title(mode) + "…", functools.partial(exporter.document_text, mode=mode))
    for text, export in EXPORTS:
        menu.addAction(text, functools.partial(export, exporter))
    menu.addSeparator()
    ticket = menu.addAction("&Ticket report, their text (HTML)…", exporter.their_report)
    ticket.setObjectName("export.ticket_report")
    exporter.ticket_action = ticket
    exporter.update_ticket_action(False)
    menu.setToolTipsVisible(True)  # the ticket report says why it is greyed out
