"""The Text panel's one mode control (gui/panels/text.py): tabs and combo agree, a fallback is visible,
the tabs fit the dock (pytest-qt)."""

from __future__ import annotations

import html

import pytest

from glyphscope.core.assembly import MODES
from tests.gui_helpers import go_to, open_file, two_page_pdf, window_at

# -- 2. one mode control ------------------------------------------------------------------------


def test_mode_combo_and_text_tabs_are_one_control_with_a_visible_fallback(
    qtbot, window, demo_pdf, tmp_path
) -> None:
    w = window
    tabs = w.text_tabs
    assert [tabs.tabs.tabText(i) for i in range(tabs.tabs.count())] == [
        w.mode_combo.itemText(i) for i in range(w.mode_combo.count())
    ]
    assert tabs.modes == MODES  # follows core: a mode added there gets its tab and its combo entry

    def in_sync(mode: str) -> None:
        assert w.session.mode == mode == tabs.current_mode == w.mode_combo.currentData()
        assert tabs.stack.currentWidget() is w.text_panels[mode]

    open_file(qtbot, w, demo_pdf, page=11)
    tabs.tabs.setCurrentIndex(MODES.index("structure"))  # a click on the tab
    in_sync("structure")
    structure = w.bundle.analysis.texts["structure"]
    panel = w.text_panels["structure"]
    assert structure.text is not None and panel.editor.toPlainText() == structure.text
    assert panel.fallback is None

    go_to(qtbot, w, 2)  # no structure here: plain text with the reason, on this page only
    in_sync("structure")
    analysis = w.bundle.analysis
    reason = analysis.texts["structure"].reason
    assert analysis.texts["structure"].text is None and reason
    assert panel.editor.toPlainText() == analysis.texts["plain"].text
    header = panel.header.text()
    assert "No usable structure" in header and "no structure:" not in header  # said once
    assert html.escape(reason.removeprefix("no structure: ")) in header
    assert "Showing <b>Plain</b> text instead" in panel.header.text()
    assert panel.fallback == reason
    index = MODES.index("structure")
    assert tabs.tabs.tabText(index) == "Structure" and tabs.tab_falls_back("structure")
    assert reason in tabs.tabs.tabToolTip(index) and "showing Plain text instead" in tabs.tabs.tabToolTip(
        index
    )

    go_to(qtbot, w, 11)  # never sticks: structure again where there is structure
    in_sync("structure")
    assert panel.fallback is None and not tabs.tab_falls_back("structure")
    assert panel.editor.toPlainText() == w.bundle.analysis.texts["structure"].text

    w.mode_combo.setCurrentIndex(MODES.index("columns"))  # the toolbar moves the tab
    in_sync("columns")
    other = tmp_path / "small.pdf"
    two_page_pdf(other)
    open_file(qtbot, w, other)
    in_sync("columns")
    assert w.text_panels["columns"].editor.toPlainText() == w.bundle.analysis.texts["columns"].text
    auto = MODES.index("auto")
    assert tabs.tabs.tabText(auto) == "Auto" and "On this page: Plain order" in tabs.tabs.tabToolTip(auto)
    w.mode_combo.setCurrentIndex(auto)
    header = w.text_panels["auto"].header.text()
    assert "Auto used <b>plain reading flow</b>" in header  # Auto says what it used: not a second Plain


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_mode_tabs_fit_the_text_dock_without_scroll_arrows(qtbot, demo_pdf, size) -> None:
    w = window_at(qtbot, size, demo_pdf, 2)  # structure falls back here: the titles stay short
    qtbot.wait(50)
    bar = w.text_tabs.tabs
    right = max(bar.tabRect(i).right() for i in range(bar.count()))
    assert right <= bar.width(), (right, bar.width())
    assert all(len(bar.tabText(i)) <= 9 for i in range(bar.count()))
    w.close()
