"""The side columns (gui/docks.py): wide enough for their legends and tables, a panel brought to the
front gets its room, a saved or rearranged layout is the user's (pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from tests.gui_helpers import TIMEOUT, go_to, in_front, window_at

# -- 10. panels readable without horizontal scrolling -------------------------------------------


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_the_layers_column_is_never_narrower_than_its_legend(qtbot, demo_pdf, size) -> None:
    """A layout restored from the settings (or a dragged splitter) may ask for a narrower left
    column than the legend needs: the column keeps the legend's width instead of scrolling sideways."""
    w = window_at(qtbot, size, demo_pdf, 7)
    w.resizeDocks([w.panels["legend"]], [120], Qt.Orientation.Horizontal)
    qtbot.wait(100)
    scroll = w.panels["legend"].widget()
    assert scroll.viewport().width() >= w.panel_widgets["legend"].minimumSizeHint().width()
    assert scroll.horizontalScrollBar().maximum() == 0


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_side_panels_need_no_horizontal_scrolling(qtbot, demo_pdf, size) -> None:
    from PySide6.QtWidgets import QAbstractScrollArea

    w = window_at(qtbot, size, demo_pdf, 7)
    w.probe_panel.probe((40, 0, 700, 60))
    w.diagnostics.select_finding("culled_glyphs")
    for name in w.panels:
        w.reveal(name)
        qtbot.wait(30)
        scrolling = [
            area.objectName()
            for area in w.panels[name].findChildren(QAbstractScrollArea)
            if area.horizontalScrollBar().isVisible()
        ]
        assert not scrolling, (name, scrolling)
    go_to(qtbot, w, 6)  # form paths in the font table
    w.reveal("fonts")
    qtbot.wait(30)
    assert not w.fonts.table.horizontalScrollBar().isVisible()
    if size == (1600, 1000):  # the Fonts panel of a page with an unresolved font, its codes listed
        go_to(qtbot, w, 10)
        w.reveal("fonts")
        qtbot.waitUntil(lambda: w.fonts.model.rowCount() > 0, timeout=TIMEOUT)
        w.fonts.select_font("/FN")
        qtbot.wait(30)
        for view in (w.fonts.table, w.fonts.codes):
            assert not view.horizontalScrollBar().isVisible(), view.objectName()
    table = w.glyph_table.table  # every shown column whole in the view; long cells elide with a tooltip
    shown = [c for c in range(table.model().columnCount()) if not table.isColumnHidden(c)]
    assert sum(table.columnWidth(c) for c in shown) <= table.viewport().width()
    index = table.model().index(0, shown[-1])
    assert table.model().data(index, Qt.ItemDataRole.ToolTipRole) == table.model().data(index)
    w.close()


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_the_font_codes_table_fits_its_tab_without_scrolling_sideways(qtbot, demo_pdf, size) -> None:
    from PySide6.QtWidgets import QTableView, QTabWidget

    w = window_at(qtbot, size, demo_pdf, 10)
    w.reveal("fonts")
    w.findChild(QTableView, "fonts.view").selectRow(0)
    tabs = w.findChild(QTabWidget, "fonts.tabs")
    tabs.setCurrentIndex(1)  # the codes were listed while their tab was hidden
    codes = w.findChild(QTableView, "fonts.codes")
    qtbot.waitUntil(lambda: codes.viewport().width() > 0 and codes.model().rowCount() > 0, timeout=TIMEOUT)
    shown = [c for c in range(codes.model().columnCount()) if not codes.isColumnHidden(c)]
    assert sum(codes.columnWidth(c) for c in shown) <= codes.viewport().width()
    assert codes.horizontalScrollBar().maximum() == 0


@pytest.mark.parametrize("size", [(1280, 800), (1600, 1000)])
def test_the_font_codes_take_the_column_while_shown_and_every_cell_is_whole(qtbot, demo_pdf, size) -> None:
    """Fonts › Codes → Unicode shows at least 12 codes with the font and the chain, nothing cut
    short and nothing to scroll to, and gives the column back when another tab is shown."""
    from PySide6.QtWidgets import QScrollArea

    w = window_at(qtbot, size, demo_pdf, 10)
    groups = [w.panels[n] for n in ("text", "details", "glyph_table")]
    fonts = w.fonts
    qtbot.waitUntil(lambda: fonts.model.rowCount() == 4, timeout=TIMEOUT)
    qtbot.wait(50)
    before = [d.height() for d in groups]  # Glyph details in front
    w.reveal("fonts")
    qtbot.waitUntil(lambda: w.panels["fonts"].height() > before[1] + 100, timeout=TIMEOUT)
    fonts.select_font("/FB")
    fonts.tabs.setCurrentWidget(fonts.codes_split)  # a click on the tab
    codes = fonts.codes
    row = codes.verticalHeader().defaultSectionSize()
    qtbot.waitUntil(lambda: codes.viewport().height() >= 12 * row, timeout=TIMEOUT)
    assert row <= fonts.table.viewport().height() < 2 * row  # the font list folded to its selected row
    assert fonts.codes_model.rowCount() == 21
    panel_scroll = w.findChild(QScrollArea, "scroll.fonts")
    assert panel_scroll.verticalScrollBar().maximum() == 0  # the panel fits its dock: nothing below
    # /FB is a simple font decoded by its base encoding alone: no CID/GID columns, the step said once.
    shown = [c for c in range(codes.model().columnCount()) if not codes.isColumnHidden(c)]
    assert [codes.model().headerData(c, Qt.Orientation.Horizontal) for c in shown] == [
        "Code",
        "Glyphs",
        "Glyph name",
        "Unicode",
        "Width",
    ]
    assert "all decoded by base encoding" in fonts.chain.toPlainText()
    for view in (codes, fonts.table):  # every shown cell whole: no "U…D", no "/g1 (…nces)"
        for c in (c for c in range(view.model().columnCount()) if not view.isColumnHidden(c)):
            assert view.columnWidth(c) >= view.sizeHintForColumn(c), (view.objectName(), c)
        assert view.horizontalScrollBar().maximum() == 0
    space = codes.model().index(0, 0)
    assert codes.model().data(space.siblingAtColumn(2)) == "/space"
    tip = codes.model().data(space.siblingAtColumn(7), Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Width: 278, from ") and "✔ base encoding" in tip
    w.reveal("details")  # another tab of the group: the column as it was
    qtbot.waitUntil(
        lambda: all(
            abs(d.height() - h) <= 4
            for d, h in zip(groups, before, strict=True)  # the group's front dock
        ),
        timeout=TIMEOUT,
    )
    w.close()


def test_a_panel_brought_to_the_front_that_does_not_fit_its_dock_takes_the_room_it_needs(
    qtbot, demo_pdf
) -> None:
    """At 1280×800 a panel whose minimum is taller than its third of the column (Diagnostics, Fonts)
    gets most of the column while in front, so nothing of it hides below a scroll bar; the column
    goes back when a panel that fits is shown in that group, or in a group the room squeezed."""
    from PySide6.QtWidgets import QScrollArea

    from glyphscope.inspector.gui.docks import ROOM_SHARE

    w = window_at(qtbot, (1280, 800), demo_pdf, 10)
    column = [w.panels[n] for n in ("text", "details", "glyph_table")]
    qtbot.wait(50)
    laid_out = [d.height() for d in column]
    assert w.docks.room is None  # as built: the three front panels fit

    def heights_back() -> bool:
        fronts = [w.panels[f] for a in w.docks.column() if (f := w.docks.front(a)) is not None]
        return w.docks.room is None and all(
            abs(d.height() - h) <= 4 for d, h in zip(fronts, laid_out, strict=True)
        )

    def fits(name: str) -> bool:
        return w.findChild(QScrollArea, f"scroll.{name}").verticalScrollBar().maximum() == 0

    w.reveal("diagnostics")
    qtbot.waitUntil(lambda: w.docks.room is not None and fits("diagnostics"), timeout=TIMEOUT)
    assert w.docks.room[0] == "glyph_table"
    total = sum(laid_out)
    assert abs(w.panels["diagnostics"].height() - ROOM_SHARE * total) <= 0.03 * total
    assert w.diagnostics.tree.height() >= 110  # three findings at least

    w.reveal("find")  # fits the text group as laid out, not the sliver the room left it
    qtbot.waitUntil(heights_back, timeout=TIMEOUT)
    assert fits("find")

    w.reveal("fonts")  # the room moves to the middle group
    qtbot.waitUntil(lambda: w.docks.room is not None and w.docks.room[0] == "details", timeout=TIMEOUT)
    qtbot.waitUntil(lambda: fits("fonts"), timeout=TIMEOUT)
    w.reveal("structure_tree")  # another tab of that group, which fits: the column goes back
    qtbot.waitUntil(heights_back, timeout=TIMEOUT)
    w.close()


def test_a_layout_saved_while_a_panel_has_room_opens_as_the_user_made_it(qtbot, demo_pdf) -> None:
    w = window_at(qtbot, (1280, 800), demo_pdf, 10)
    column = [w.panels[n] for n in ("text", "details", "glyph_table")]
    qtbot.wait(50)
    laid_out = [d.height() for d in column]
    w.reveal("diagnostics")
    qtbot.waitUntil(lambda: w.docks.room is not None, timeout=TIMEOUT)
    w.reveal("glyph_table")  # the room is kept while Diagnostics is in front; here it is given back
    qtbot.waitUntil(lambda: w.docks.room is None, timeout=TIMEOUT)
    w.reveal("diagnostics")
    qtbot.waitUntil(lambda: w.docks.room is not None, timeout=TIMEOUT)
    w.close()  # saved with Diagnostics in front and its room given back first
    w2 = MainWindow(settings=make_settings())
    qtbot.addWidget(w2)
    w2.resize(1280, 800)
    w2.show()
    qtbot.wait(100)
    assert w2.docks.room is None and in_front(w2, "diagnostics")
    heights = [w2.panels[n].height() for n in ("text", "details", "diagnostics")]
    assert all(abs(h - was) <= 4 for h, was in zip(heights, laid_out, strict=True)), (heights, laid_out)
    w2.close()


def test_a_column_the_user_rearranged_is_left_to_them(qtbot, demo_pdf) -> None:
    w = window_at(qtbot, (1280, 800), demo_pdf, 10)
    w.panels["details"].setFloating(True)  # the middle group's first dock floated out
    w.reveal("diagnostics")
    qtbot.wait(100)
    assert w.docks.room is None
    w.panels["details"].setFloating(False)
    w.panels["text"].close()
    w.reveal("fonts")
    qtbot.wait(100)
    assert w.docks.room is None
    w.close()
