"""The answer in view at 1280×800: the record of a selection (Glyph details, the stepper's state, a
finding in Diagnostics) shows whole, without scrolling; a click on the tab in front gives its
panel the room; opening every tool leaves every tab bar without scroll arrows."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtWidgets import QScrollArea, QTabBar

from glyphscope.inspector.gui.docks import ROOM_SHARE
from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from glyphscope.inspector.gui.panels import registry
from tests.gui_helpers import TIMEOUT, open_file


def window_at(qtbot: Any, size: tuple[int, int], path: Any, page: int = 1) -> MainWindow:
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    qtbot.waitExposed(w)
    open_file(qtbot, w, path, page=page)
    return w


def _no_scroll(widget: Any) -> bool:
    return widget.verticalScrollBar().maximum() == 0


def _column_heights(w: MainWindow) -> list[int]:
    return [w.docks.group_height(n) for n in w.docks.column()]


def test_glyph_details_show_the_whole_record_with_find_and_diagnostics_in_front(
    qtbot: Any, demo_pdf: Any
) -> None:
    w = window_at(qtbot, (1280, 800), demo_pdf)
    w.reveal("find")
    w.reveal("diagnostics")
    qtbot.wait(100)
    browser = w.details.browser
    assert not _no_scroll(browser) or browser.height() < 120  # 3–5 lines: the complaint
    for glyph in (41, 200):
        w.session.select({glyph}, "canvas")
        qtbot.waitUntil(lambda: _no_scroll(browser), timeout=TIMEOUT)
        text = w.details.text()
        assert f"Glyph #{glyph}" in text and "Font" in text and "as usual" in text  # the record, whole
        assert "decode_source" in text and "font_id" in text
        scroll = w.findChild(QScrollArea, "scroll.details")
        assert _no_scroll(scroll)
    # the group that gave the room still shows its tab bar and a line or two
    assert all(h >= 60 for h in _column_heights(w))


def test_a_click_on_the_tab_in_front_gives_its_panel_the_room(qtbot: Any, demo_pdf: Any) -> None:
    w = window_at(qtbot, (1280, 800), demo_pdf)
    qtbot.wait(100)
    column = w.docks.column()
    before = _column_heights(w)
    bar = next(
        b
        for b in w.findChildren(QTabBar)
        if b.parent() is w and b.isVisible() and b.tabText(b.currentIndex()) == "Glyph table"
    )
    bar.tabBarClicked.emit(bar.currentIndex())  # the tab already in front, clicked
    table = column.index("glyph_table")
    qtbot.waitUntil(lambda: _column_heights(w)[table] >= ROOM_SHARE * sum(before) - 4, timeout=TIMEOUT)
    assert _column_heights(w)[table] > before[table] + 100


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_opening_every_tool_leaves_every_tab_bar_whole(
    qtbot: Any, demo_pdf: Any, size: tuple[int, int]
) -> None:
    w = window_at(qtbot, size, demo_pdf)
    tools = [spec.name for spec in registry.PANELS if spec.hidden]
    for name in tools:
        w.panels[name].toggleViewAction().trigger()  # Tools › name
        qtbot.wait(60)
    qtbot.wait(100)
    assert all(not w.panels[n].isHidden() for n in tools)
    bars = [b for b in w.findChildren(QTabBar) if b.parent() is w and b.isVisible() and b.count() > 1]
    titles = {b.tabText(i) for b in bars for i in range(b.count())}
    assert {w.panels[n].windowTitle() for n in tools if n != "compare"} <= titles
    for b in bars:
        needed = sum(b.tabRect(i).width() for i in range(b.count()))
        assert needed <= b.width(), ([b.tabText(i) for i in range(b.count())], needed, b.width(), size)


def test_the_steppers_state_shows_whole(qtbot: Any, demo_pdf: Any) -> None:
    w = window_at(qtbot, (1280, 800), demo_pdf)
    w.reveal("stepper")
    panel = w.stepper_panel
    panel.start_trace()
    qtbot.waitUntil(lambda: panel.stepper.trace is not None, timeout=TIMEOUT)
    for _ in range(12):  # into the first text object: font, matrix, a string shown
        panel.stepper.forward()
    qtbot.waitUntil(lambda: _no_scroll(panel.state), timeout=TIMEOUT)
    assert "State in which the instruction runs" in panel.state.toPlainText()


def test_a_finding_shows_whole_in_diagnostics(qtbot: Any, demo_pdf: Any) -> None:
    w = window_at(qtbot, (1280, 800), demo_pdf, page=7)  # a printer slug outside the CropBox
    w.reveal("diagnostics")
    tree = w.diagnostics.tree
    qtbot.waitUntil(lambda: tree.topLevelItemCount() > 0, timeout=TIMEOUT)
    tree.setCurrentItem(tree.topLevelItem(0))
    scroll = w.findChild(QScrollArea, "scroll.diagnostics")
    qtbot.waitUntil(lambda: _no_scroll(scroll), timeout=TIMEOUT)
    detail = w.diagnostics.detail
    assert detail.text() and detail.visibleRegion().boundingRect().height() >= detail.height() - 1
