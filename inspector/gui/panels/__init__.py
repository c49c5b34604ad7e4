"""Dockable panels, all added through one factory so every dock has an objectName.

`saveState`/`restoreState`, the View menu and the tests find docks by that name.
Which panels the window has, and where, is one table: `registry.PANELS`.
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QLabel, QMainWindow, QMenu, QWidget


class DockArea(StrEnum):
    """Where a panel's dock sits: a side of the window (the registry's rows, saved layouts)."""

    LEFT = "left"
    RIGHT = "right"
    TOP = "top"
    BOTTOM = "bottom"


AREAS: dict[str, Qt.DockWidgetArea] = {
    DockArea.LEFT: Qt.DockWidgetArea.LeftDockWidgetArea,
    DockArea.RIGHT: Qt.DockWidgetArea.RightDockWidgetArea,
    DockArea.TOP: Qt.DockWidgetArea.TopDockWidgetArea,
    DockArea.BOTTOM: Qt.DockWidgetArea.BottomDockWidgetArea,
}


def add_panel(
    window: QMainWindow,
    widget: QWidget,
    name: str,
    area: str = DockArea.RIGHT,
    *,
    title: str | None = None,
    tabify_with: QDockWidget | None = None,
    below: QDockWidget | None = None,
    menu: QMenu | None = None,
) -> QDockWidget:
    """Wrap `widget` in a dock named `name` (objectName "dock.<name>"), add it and list it in `menu`
    (View › Panels).

    `below` splits that dock's place and puts this one under it; `tabify_with` makes it a tab
    of that dock's group (split first, then tabify: otherwise Qt puts a split dock into the tabs).
    """
    dock = QDockWidget(title or name.replace("_", " ").capitalize(), window)
    dock.setObjectName(f"dock.{name}")
    widget.setObjectName(widget.objectName() or f"panel.{name}")
    dock.setWidget(widget)
    dock.setFeatures(
        QDockWidget.DockWidgetFeature.DockWidgetClosable
        | QDockWidget.DockWidgetFeature.DockWidgetMovable
        | QDockWidget.DockWidgetFeature.DockWidgetFloatable
    )
    window.addDockWidget(AREAS[area], dock)
    if below is not None:
        window.splitDockWidget(below, dock, Qt.Orientation.Vertical)
    if tabify_with is not None:
        window.tabifyDockWidget(tabify_with, dock)
    if menu is not None:
        menu.addAction(dock.toggleViewAction())
    return dock


def detail_label(object_name: str) -> QLabel:
    """The selectable, wrapping rich-text label under a panel's list that shows the selected row in full."""
    label = QLabel("")
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    return label
