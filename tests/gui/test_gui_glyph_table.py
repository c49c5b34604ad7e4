"""The glyph table's page-scoped state (gui/panels/glyph_table.py): filters reset when they would empty
a new page, a revisited page reuses its rows (pytest-qt)."""

from __future__ import annotations

from PySide6.QtCore import Qt

from glyphscope.core.glyph import GlyphStatus
from glyphscope.inspector.gui.panels.probe import INSTRUCTIONS
from tests.gui_helpers import SLUGS, go_to, open_file

# -- 3. page-scoped state -----------------------------------------------------------------------


def test_page_change_resets_probe_and_filters_that_would_empty_the_table(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    probe = w.probe_panel
    glyphs = w.bundle.analysis.page.glyphs
    slug = glyphs[w.bundle.analysis.classified.culls[0].paint_index]
    x0, y0, x1, y1 = slug.quad[0][0] - 2, slug.quad[0][1] - 2, slug.quad[0][0] + 400, slug.quad[2][1] + 2
    probe.probe((x0, y0, x1, y1))
    assert probe.result is not None and "Region" in probe.label.text()
    assert SLUGS[0] in probe.run_texts()  # the probe reads culled glyphs as their string

    table = w.glyph_table
    table.status_combo.setCurrentText("culled")
    assert len(table.model.rows) == len(w.bundle.analysis.classified.culls) == 76
    go_to(qtbot, w, 8)  # no culled glyph on page 8: the filter is cleared, and the panel says so
    assert probe.result is None and probe.label.text() == INSTRUCTIONS
    assert w.session.selection == frozenset()
    assert table.status_combo.currentText() == "(all)" and not table.model.filters
    assert len(table.model.rows) == len(w.bundle.analysis.page.glyphs)
    assert "matched nothing on page 8: cleared" in table.count_label.text()

    table.status_combo.setCurrentText("duplicate")  # page 8 has duplicates (fake bold)
    duplicates = len(w.bundle.analysis.classified.duplicates)
    hidden = len(w.bundle.analysis.page.glyphs) - duplicates
    assert duplicates > 0 and f"filter active</b>: {hidden} rows hidden" in table.count_label.text()
    assert table.clear_button.isVisible()
    table.clear_button.click()
    assert not table.model.filters and "filter active" not in table.count_label.text()


def test_a_revisited_page_reuses_its_table_rows_and_font_statistics(
    qtbot, window, demo_pdf, monkeypatch
) -> None:
    """Speed to keep (revisit < 100 ms): the glyph table and the Fonts panel keep what they computed
    for the last pages; the rows are the same as computed afresh."""
    import glyphscope.core.font_stats as font_stats_module

    w = window
    open_file(qtbot, w, demo_pdf, page=8)
    go_to(qtbot, w, 9)
    model = w.glyph_table.model
    calls = {"fonts": 0}
    stats_of = font_stats_module.font_statistics
    computed = model.cache.computed

    def counted_stats(page):
        calls["fonts"] += 1
        return stats_of(page)

    monkeypatch.setattr(font_stats_module, "font_statistics", counted_stats)
    go_to(qtbot, w, 8)
    assert calls == {"fonts": 0} and model.cache.computed == computed
    assert model.rows == list(range(len(w.bundle.analysis.page.glyphs)))
    w.glyph_table.status_combo.setCurrentText("duplicate")  # a new filter is computed once, then kept
    assert model.cache.computed == computed + 1
    duplicates = sorted(d.paint_index for d in w.bundle.analysis.classified.duplicates)
    assert model.rows == duplicates
    go_to(qtbot, w, 9)  # no duplicate on page 9? then the filter is cleared there; either way:
    go_to(qtbot, w, 8)
    if w.glyph_table.status_combo.currentText() == "duplicate":
        assert model.rows == duplicates


def test_glyph_table_filters_and_sorts_without_copying(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=8)
    panel = w.glyph_table
    classified = w.bundle.analysis.classified
    assert panel.model.glyphs is classified.glyphs  # wraps the engine's tuple
    assert panel.model.rowCount() == len(classified.glyphs)
    panel.status_combo.setCurrentText("duplicate")
    assert panel.model.rowCount() == sum(1 for s in classified.status if s is GlyphStatus.DUPLICATE) > 0
    panel.status_combo.setCurrentText("(all)")
    panel.set_combo.setCurrentText("visible")
    assert panel.model.rowCount() == len(classified.visible)
    panel.table.sortByColumn(8, Qt.SortOrder.DescendingOrder)  # x
    xs = [classified.glyphs[panel.model.paint_index(r)].origin[0] for r in range(panel.model.rowCount())]
    assert xs == sorted(xs, reverse=True)
    panel.text_filter.setText("U+0046")  # "F"
    assert all(classified.glyphs[i].unicode == "F" for i in panel.model.rows) and panel.model.rows
