"""The window's panels, one line each: adding a panel is its own file plus one row here.

The window iterates `PANELS` in order (which is also the order of View › Panels): it
builds each widget from the session (and the worker pool), docks it with `add_panel`
and arranges it. Panels get page data from the session (`PagePanel`); the window pushes
nothing into them. Each row is also a typed attribute of the window (`WindowPanels`, a
descriptor reading the built widget): `window.fonts` is a `FontsPanel`, declared here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, Protocol, TypeVar, cast, overload

from PySide6.QtWidgets import QWidget

from glyphscope.inspector.gui.legend import LegendPanel
from glyphscope.inspector.gui.panels import DockArea
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
from glyphscope.inspector.views.session import Session


class HasPanels(Protocol):
    """What a PanelSpec reads its widget from: the window's built panels by dock name."""

    panel_widgets: dict[str, QWidget]


W = TypeVar("W", bound=QWidget, covariant=True)


class PanelSpec(Generic[W]):
    """One dock of the window; as a class attribute of the window, its widget (typed)."""

    def __init__(
        self,
        name: str,  # dock objectName "dock.<name>"; key of MainWindow.panels (saved layouts depend on it)
        title: str,  # the dock's title and its View › Panels entry
        factory: type[W],  # factory(session), or factory(session, pool) when `pool`
        area: str = DockArea.RIGHT,  # the side of the window
        *,
        below: str | None = None,  # split under this (earlier) dock
        tab_with: str | None = None,  # a tab of this (earlier) dock's group
        pool: bool = False,  # the panel runs background jobs in the window's WorkerPool
        front: bool = False,  # its tab is the one shown at first
        width: int | None = None,  # initial dock width in pixels
        height: float | None = None,  # initial dock height: pixels, or a share of the window's (< 1)
        hidden: bool = False,  # starts closed, opened from the toolbar's Tools menu (or View › Panels, a shortcut):
        # tools a user opens for a question, so the tab bars of the side column need no scroll arrows
    ) -> None:
        self.name, self.title, self.factory, self.area = name, title, factory, area
        self.below, self.tab_with, self.pool, self.front = below, tab_with, pool, front
        self.width, self.height, self.hidden = width, height, hidden

    @overload
    def __get__(self, instance: None, owner: type) -> PanelSpec[W]: ...

    @overload
    def __get__(self, instance: HasPanels, owner: type) -> W: ...

    def __get__(self, instance: HasPanels | None, owner: type) -> PanelSpec[W] | W:
        if instance is None:
            return self
        widget = instance.panel_widgets[self.name]
        if not isinstance(widget, self.factory):
            raise TypeError(
                f"panel {self.name!r} is a {type(widget).__name__}, not a {self.factory.__name__}"
            )
        return widget

    def build(self, session: Session, pool: WorkerPool) -> W:
        make = cast(Callable[..., W], self.factory)
        return make(session, pool) if self.pool else make(session)

    def __repr__(self) -> str:
        return f"PanelSpec({self.name!r}, {self.title!r}, {self.factory.__name__}, {str(self.area)!r})"


# The text of every mode of core.assembly.MODES is one dock whose tabs are the mode selector.
FIRST_TEXT = "text"


class WindowPanels:
    """The window's panels, one line each (kept unwrapped on purpose); the window derives from it,
    so `window.<attribute>` is the panel, typed."""

    panel_widgets: dict[str, QWidget]

    # fmt: off
    # Heights below 1 are shares of the window's height (the right column's three groups).
    legend = PanelSpec("legend", "Layers", LegendPanel, DockArea.LEFT, front=True, width=200)
    page_list = PanelSpec("pages", "Pages", PageListPanel, DockArea.LEFT, tab_with="legend")
    text_tabs = PanelSpec("text", "Text", TextTabs, front=True, width=460, height=0.34)
    details = PanelSpec("details", "Glyph details", GlyphDetailsPanel, below=FIRST_TEXT, front=True, height=0.30)
    document_text = PanelSpec("document_text", "Document text", DocumentTextPanel, tab_with=FIRST_TEXT, pool=True)
    glyph_table = PanelSpec("glyph_table", "Glyph table", GlyphTablePanel, below="details", front=True, height=0.36)
    diagnostics = PanelSpec("diagnostics", "Diagnostics", DiagnosticsPanel, tab_with="glyph_table", pool=True)
    fonts = PanelSpec("fonts", "Fonts", FontsPanel, tab_with="details")
    structure_tree = PanelSpec("structure_tree", "Structure tree", StructureTreePanel, tab_with="details", pool=True)
    objects_panel = PanelSpec("objects", "Objects", ObjectsPanel, tab_with="details")
    probe_panel = PanelSpec("probe", "Region probe", ProbePanel, tab_with="glyph_table")
    content_stream = PanelSpec("content_stream", "Content stream", ContentStreamPanel, DockArea.BOTTOM, tab_with="glyph_table", pool=True, hidden=True)
    find_panel = PanelSpec("find", "Find", FindPanel, tab_with=FIRST_TEXT, pool=True)
    tuning = PanelSpec("tuning", "Tuning", TuningPanel, DockArea.BOTTOM, tab_with="glyph_table", hidden=True)
    compare_panel = PanelSpec("compare", "Compare with other engines", ComparePanel, DockArea.BOTTOM, pool=True, height=260, hidden=True)
    verify_panel = PanelSpec("verify", "Verify (OCR)", VerifyPanel, DockArea.BOTTOM, tab_with="glyph_table", pool=True, hidden=True)
    stepper_panel = PanelSpec("stepper", "Stepper", StepperPanel, DockArea.BOTTOM, tab_with="glyph_table", pool=True, hidden=True)
    # fmt: on


PANELS: tuple[PanelSpec[QWidget], ...] = tuple(
    spec for spec in vars(WindowPanels).values() if isinstance(spec, PanelSpec)
)
"""Every panel, in the order the window builds them (and of View › Panels)."""
