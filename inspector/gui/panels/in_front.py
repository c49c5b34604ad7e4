"""Panels that work only while on screen: is the panel in front, and when does it come to the front.

Qt reports a dock whose tab sits behind another tab of its group as visible (`isVisible()` is
True, only its visible region is empty), so "work when visible" panels read the page's object
tree or traced its content stream on every page change while nobody saw them. A panel here
asks `in_front()` instead and gets `came_to_front()` when its tab is clicked or its dock raised.
"""

from __future__ import annotations

from typing import Any

import shiboken6
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QDockWidget, QWidget

CHECK_DELAYS_MS = (0, 120)


class InFrontPanel:
    """Mixin for QWidget panels (listed before QWidget in the bases); override `came_to_front`."""

    _dock_hooked = False

    def in_front(self) -> bool:
        widget: Any = self
        return bool(widget.isVisible() and not widget.visibleRegion().isEmpty())

    def came_to_front(self) -> None:
        """The panel is on screen now: do what was put off while it was behind another tab."""

    def went_behind(self) -> None:
        """The panel's dock went behind another tab of its group, or closed."""

    def showEvent(self, event: Any) -> None:  # noqa: N802 -- Qt's name
        super().showEvent(event)  # type: ignore[misc]
        self._hook_dock()
        self._check_soon()

    def _hook_dock(self) -> None:
        if self._dock_hooked:
            return
        parent = QWidget.parentWidget(self)  # type: ignore[arg-type]
        while parent is not None and not isinstance(parent, QDockWidget):
            parent = parent.parentWidget()
        if parent is not None:
            parent.visibilityChanged.connect(self._dock_visibility)
            self._dock_hooked = True

    def _dock_visibility(self, visible: bool) -> None:
        if visible:
            self._check_soon()
        elif shiboken6.isValid(self):
            self.went_behind()

    def _check_soon(self) -> None:
        """Once the tab switch is laid out (and once more: a window manager may map it later)."""
        for delay in CHECK_DELAYS_MS:
            QTimer.singleShot(delay, self._check_front)

    def _check_front(self) -> None:
        if shiboken6.isValid(self) and self.in_front():
            self.came_to_front()
