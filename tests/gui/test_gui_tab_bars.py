"""Every panel readable without hunting (issue 27, point 2): at 1280×800 and 1600×1000 no dock
tab bar needs scroll arrows — each shows every tab's whole title — and the tools that start
closed are one click away in the toolbar's Tools menu."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QMenu, QTabBar

from glyphscope.inspector.gui.panels import registry
from tests.gui_helpers import open_file


def _dock_tab_bars(window: Any) -> list[QTabBar]:
    return [
        b for b in window.findChildren(QTabBar) if b.parent() is window and b.isVisible() and b.count() > 1
    ]


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_no_dock_tab_bar_needs_scroll_arrows(
    qtbot: Any, window: Any, demo_pdf: Any, size: tuple[int, int]
) -> None:
    window.resize(*size)
    window.docks.default_sizes()
    open_file(qtbot, window, demo_pdf)
    qtbot.wait(50)
    bars = _dock_tab_bars(window)
    assert len(bars) >= 3  # Layers | Pages, Text | Document text | Find, the details and the table groups
    for bar in bars:
        titles = [bar.tabText(i) for i in range(bar.count())]
        needed = sum(bar.tabRect(i).width() for i in range(bar.count()))
        assert needed <= bar.width(), f"{titles}: {needed} px of tabs in a {bar.width()} px bar at {size}"


def test_the_closed_tools_are_in_the_toolbar_menu_and_open_as_a_tab(
    qtbot: Any, window: Any, demo_pdf: Any
) -> None:
    open_file(qtbot, window, demo_pdf)
    closed = [spec for spec in registry.PANELS if spec.hidden]
    menu = window.findChild(QMenu, "tools_menu")
    titles = [a.text() for a in menu.actions()]
    assert titles == [spec.title for spec in closed]
    assert {spec.name for spec in closed} >= {"content_stream", "stepper", "tuning", "verify", "compare"}
    stepper = next(a for a in menu.actions() if a.text() == "Stepper")
    stepper.trigger()  # a click in Tools
    qtbot.waitUntil(lambda: window.stepper_panel.isVisible())
    assert window.panels["stepper"].isVisible() and stepper.isChecked()
