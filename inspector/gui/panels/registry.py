"""The window's panels, one line each: adding a panel is its own file plus one row here.

The window iterates `PANELS` in order (which is also the order of View › Panels): it
builds each widget from the session (and the worker pool), docks it with `add_panel`
and arranges it. Panels get page data by subscribing to `session.events.view` in
their constructor; the window pushes nothing into them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtWidgets import QWidget

from glyphscope.inspector.gui.legend import LegendPanel
from glyphscope.inspector.gui.panels.compare import ComparePanel
from glyphscope.inspector.gui.panels.content_stream import ContentStreamPanel
from glyphscope.inspector.gui.panels.details import GlyphDetailsPanel
from glyphscope.inspector.gui.panels.diagnostics import DiagnosticsPanel
from glyphscope.inspector.gui.panels.document_text import DocumentTextPanel
from glyphscope.inspector.gui.panels.find import FindPanel
from glyphscope.inspector.gui.panels.fonts import FontsPanel
from glyphscope.inspector.gui.panels.glyph_table import GlyphTablePanel
from glyphscope.inspector.gui.panels.objects import ObjectsPanel
from glyphscope.inspector.gui.panels.pages import PageListPanel
from glyphscope.inspector.gui.panels.probe import ProbePanel
from glyphscope.inspector.gui.panels.stepper import StepperPanel
from glyphscope.inspector.gui.panels.structure_tree import StructureTreePanel
from glyphscope.inspector.gui.panels.text import TextTabs
from glyphscope.inspector.gui.panels.tuning import TuningPanel
from glyphscope.inspector.gui.panels.verify import VerifyPanel
from glyphscope.inspector.gui.workers import WorkerPool
from glyphscope.inspector.session import Session


@dataclass(frozen=True, slots=True)
class PanelSpec:
    """One dock of the window."""

    name: str  # dock objectName "dock.<name>"; key of MainWindow.panels (saved layouts depend on it)
    title: str  # the dock's title and its View › Panels entry
    factory: Callable[..., QWidget]  # factory(session), or factory(session, pool) when `pool`
    area: str = "right"  # left / right / top / bottom
    below: str | None = None  # split under this (earlier) dock
    tab_with: str | None = None  # a tab of this (earlier) dock's group
    attribute: str | None = None  # MainWindow attribute holding the widget (window.legend, ...)
    pool: bool = False  # the panel runs background jobs in the window's WorkerPool
    front: bool = False  # its tab is the one shown at first
    width: int | None = None  # initial dock width in pixels
    height: int | None = None  # initial dock height in pixels
    hidden: bool = False  # starts closed (View › Panels opens it): tools that would take the canvas's room

    def build(self, session: Session, pool: WorkerPool) -> QWidget:
        return self.factory(session, pool) if self.pool else self.factory(session)


# The text of every mode of core.assembly.MODES is one dock whose tabs are the mode selector.
FIRST_TEXT = "text"


# One line per panel (kept unwrapped on purpose).
# fmt: off
PANELS: tuple[PanelSpec, ...] = (
    PanelSpec("legend", "Layers", LegendPanel, "left", attribute="legend", front=True, width=200),
    PanelSpec("pages", "Pages", PageListPanel, "left", tab_with="legend", attribute="page_list"),
    PanelSpec("text", "Text", TextTabs, attribute="text_tabs", front=True, width=460, height=380),
    PanelSpec("details", "Glyph details", GlyphDetailsPanel, below=FIRST_TEXT, attribute="details", front=True, height=300),
    PanelSpec("document_text", "Document text", DocumentTextPanel, tab_with=FIRST_TEXT, attribute="document_text", pool=True),
    PanelSpec("glyph_table", "Glyph table", GlyphTablePanel, below="details", attribute="glyph_table", front=True),
    PanelSpec("diagnostics", "Diagnostics", DiagnosticsPanel, tab_with="glyph_table", attribute="diagnostics", pool=True),
    PanelSpec("fonts", "Fonts", FontsPanel, tab_with="details", attribute="fonts"),
    PanelSpec("structure_tree", "Structure tree", StructureTreePanel, tab_with="details", attribute="structure_tree", pool=True),
    PanelSpec("objects", "Objects", ObjectsPanel, tab_with="details", attribute="objects_panel"),
    PanelSpec("probe", "Region probe", ProbePanel, tab_with="glyph_table", attribute="probe_panel"),
    PanelSpec("content_stream", "Content stream", ContentStreamPanel, "bottom", tab_with="glyph_table", attribute="content_stream", pool=True),
    PanelSpec("find", "Find", FindPanel, "bottom", tab_with="glyph_table", attribute="find_panel", pool=True),
    PanelSpec("tuning", "Tuning", TuningPanel, "bottom", tab_with="glyph_table", attribute="tuning"),
    PanelSpec("compare", "Compare with other engines", ComparePanel, "bottom", attribute="compare_panel", pool=True, height=260, hidden=True),
    PanelSpec("verify", "Verify (OCR)", VerifyPanel, "bottom", tab_with="glyph_table", attribute="verify_panel", pool=True),
    PanelSpec("stepper", "Stepper", StepperPanel, "bottom", tab_with="glyph_table", attribute="stepper_panel", pool=True),
)
# fmt: on
