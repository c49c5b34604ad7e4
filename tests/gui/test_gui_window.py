"""The real main window on the demo PDF and corpus files (offscreen, pytest-qt): navigation and counts,
layers, selection across panels, modes, rotated pages, settings, page errors, a thousand pages, the
entry point."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QPointF, Qt

from glyphscope.core import analysis
from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import (
    ColumnChangeDecision,
    LineBreakDecision,
    TextColumn,
    VerticalColumn,
    WordGapDecision,
)
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from glyphscope.inspector.layers.registry import LAYER_KEYS
from tests.conftest import corpus_file
from tests.gui_helpers import TIMEOUT, go_to, open_file


def click_glyph(qtbot, w: MainWindow, paint_index: int) -> None:
    g = w.bundle.analysis.page.glyphs[paint_index]
    canvas = w.canvas
    scene = canvas.page_to_scene.map(QPointF(*g.center))
    canvas.set_zoom(3.0)
    canvas.centerOn(scene)
    pos = canvas.mapFromScene(scene)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_open_demo_navigate_and_counts_match_the_engine(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf)
    assert w.session.page_number == 1
    assert w.page_spin.value() == 1 and w.page_count_label.text().strip() == f"of {w.session.page_count}"
    assert not w.canvas.page_item.pixmap().isNull()
    # Keys, actions and the spin box all navigate.
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        qtbot.keyClick(w, Qt.Key.Key_PageDown)
    assert w.session.page_number == 2
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.page_spin.setValue(8)
    assert w.session.page_number == 8
    doc = w.session.document
    for page in (6, 7, 8, 10, 13):
        go_to(qtbot, w, page)
        analysis = analyze_page(doc, page)
        mode = w.session.mode
        decisions = analysis.texts[mode].decisions
        glyphs = analysis.page.glyphs
        expected = {
            "glyphs": len(glyphs),
            "form_bboxes": len(analysis.page.forms),
            "culled": sum(1 for s in analysis.classified.status if s is GlyphStatus.CULLED),
            "duplicates": sum(1 for s in analysis.classified.status if s is GlyphStatus.DUPLICATE),
            "unresolved": sum(1 for g in glyphs if g.decode_source is DecodeSource.UNRESOLVED),
            "fallback": sum(1 for g in glyphs if g.decode_source is DecodeSource.FALLBACK),
            "word_gaps": sum(1 for d in decisions if isinstance(d, WordGapDecision)),
            "line_breaks": sum(
                1
                for d in decisions
                if isinstance(d, (LineBreakDecision, ColumnChangeDecision)) and d.is_break
            ),
            "columns": sum(
                1 for d in analysis.texts["columns"].decisions if isinstance(d, (TextColumn, VerticalColumn))
            ),
        }
        for key, value in expected.items():
            assert w.legend.count(key) == value, (page, key)
    # The demo shows what it is about: slugs culled on page 7, duplicates on page 8, forms on page 6.
    go_to(qtbot, w, 7)
    assert w.legend.count("culled") > 0
    go_to(qtbot, w, 8)
    assert w.legend.count("duplicates") > 0
    go_to(qtbot, w, 6)
    assert w.legend.count("form_bboxes") > 0
    assert len(w.bundle.overlays.form_colours) >= 2  # forms are distinguishable from each other


def test_toggle_every_layer(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=8)
    for key in LAYER_KEYS:
        check = w.legend.checks[key]
        before = check.isChecked()
        check.click()
        assert w.session.layers[key] is (not before)
        assert w.canvas.layer_items[key].isVisible() is (not before)
        w.canvas.viewport().repaint()  # painting every layer must not raise
        check.click()
        assert w.canvas.layer_items[key].isVisible() is before
    assert w.settings.value(f"layers/{LAYER_KEYS[0]}") is not None


def test_click_glyph_shows_details_and_selects_text_everywhere(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    analysis = w.bundle.analysis
    plain = analysis.texts["plain"]
    # A letter that is followed by an inserted space: its details must explain that decision.
    gap = next(d for d in plain.decisions if isinstance(d, WordGapDecision) and d.inserted)
    target = gap.before
    click_glyph(qtbot, w, target)
    assert w.session.selection == frozenset({target})
    details = w.details.text()
    assert f"Glyph #{target}" in details
    assert "space inserted: gap" in details and "pt >" in details
    assert "font_key" in details and "decode_source" in details
    g = analysis.page.glyphs[target]
    for mode, panel in w.text_panels.items():
        chars = list(analysis.texts[mode].chars_of_glyph(target))
        if chars:
            assert panel.selected_text() == (analysis.texts[mode].text or "")[chars[0] : chars[-1] + 1], mode
    assert w.text_panels["plain"].selected_text() == g.unicode
    assert w.glyph_table.selected_paint_indices() == [target]


def test_select_text_highlights_its_glyphs(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    plain = w.bundle.analysis.texts["plain"]
    text = plain.text
    start = text.index("Reference")
    w.text_panels["plain"].select_chars(start, start + len("Reference"))
    expected = {plain.glyph_of_char(i) for i in range(start, start + len("Reference"))} - {-1}
    assert w.session.selection == frozenset(expected)
    assert not w.canvas.selection_item.selection.isEmpty()
    assert set(w.glyph_table.selected_paint_indices()) == expected
    # The other panels highlight the same glyphs' characters.
    layout = w.bundle.analysis.texts["layout"]
    highlighted = w.text_panels["layout"].highlighted_chars()
    assert {layout.glyph_of_char(i) for i in highlighted} == expected
    # Table → canvas: picking a row selects that glyph.
    w.glyph_table.table.selectRow(0)
    assert w.session.selection == frozenset({w.glyph_table.model.paint_index(0)})


def test_mode_switch_redraws_mode_layers(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=13)
    w.legend.checks["reading_order"].click()
    plain_drawing = w.canvas.layer_items["reading_order"].drawing
    w.mode_combo.setCurrentIndex(2)  # columns
    assert w.session.mode == "columns"
    assert w.canvas.layer_items["reading_order"].drawing is not plain_drawing
    columns = w.bundle.analysis.texts["columns"]
    assert w.legend.count("word_gaps") == sum(1 for d in columns.decisions if isinstance(d, WordGapDecision))


def test_rotated_corpus_pages_keep_overlays_aligned(qtbot, window) -> None:
    w = window
    path = corpus_file("pdfbox__PDFBOX-2984-rotations.pdf")
    open_file(qtbot, w, path)
    for page in range(1, w.session.page_count + 1):
        go_to(qtbot, w, page)
        b = w.bundle
        pix = w.canvas.page_item.pixmap()
        # The pixmap, scaled back to points, covers exactly the displayed page rectangle.
        assert abs(pix.width() / b.render_scale - w.canvas.page_rect.width()) < 1
        assert abs(pix.height() / b.render_scale - w.canvas.page_rect.height()) < 1
        for g in b.analysis.classified.visible[:50]:
            p = w.canvas.page_to_scene.map(QPointF(*g.center))
            assert w.canvas.page_rect.adjusted(-1, -1, 1, 1).contains(p), (page, g.paint_index)


def test_settings_persist_recent_files_and_layout(qtbot, demo_pdf) -> None:
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.show()
    open_file(qtbot, w, demo_pdf)
    w.panels["glyph_table"].hide()
    w.close()
    w2 = MainWindow(settings=make_settings())
    qtbot.addWidget(w2)
    w2.show()
    assert w2.recent_files()[0] == str(Path(demo_pdf).resolve())
    assert w2.recent_menu.actions()[0].text() == Path(demo_pdf).name
    assert not w2.panels["glyph_table"].isVisible()
    for name, dock in w2.panels.items():
        assert dock.objectName() == f"dock.{name}"
    w2.close()


def test_page_errors_show_in_the_page_area(qtbot, window, demo_pdf, monkeypatch) -> None:

    real = analysis.analyze_page

    def failing(doc, n, params=None, **budgets):  # the window passes its glyph budget
        if n == 3:
            raise ValueError("synthetic failure on page 3")
        return real(doc, n, params, **budgets) if params is not None else real(doc, n, **budgets)

    monkeypatch.setattr(analysis, "analyze_page", failing)
    w = window
    open_file(qtbot, w, demo_pdf, page=3)
    assert "synthetic failure on page 3" in w.canvas.message_item.toPlainText()
    assert w.canvas.message_item.isVisible()
    assert not w.canvas.page_item.pixmap().isNull()  # the rendering is still there
    assert "synthetic failure" in w.text_panels["plain"].header.text()
    go_to(qtbot, w, 4)  # and the next page works
    assert w.bundle.analysis is not None and not w.canvas.message_item.isVisible()


def test_thousand_page_file_opens_at_once_and_loads_pages_on_demand(qtbot, window, tmp_path) -> None:
    import pikepdf

    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    for n in range(1000):
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=[0, 0, 300, 200],
            Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
            Contents=pdf.make_stream(f"BT /F1 12 Tf 20 100 Td (Page {n + 1}) Tj ET".encode()),
        )
        pdf.pages.append(pikepdf.Page(page))
    path = tmp_path / "long.pdf"
    pdf.save(path)
    w = window
    open_file(qtbot, w, path)
    assert w.session.page_count == 1000
    assert w.page_list.model.rowCount() == 1000
    assert len(w.loader.cache) <= 3  # the page shown and its prefetched neighbours, nothing else
    go_to(qtbot, w, 1000)
    assert w.bundle.analysis.texts["plain"].text == "Page 1000"
    qtbot.keyClick(w, Qt.Key.Key_PageUp)
    qtbot.waitUntil(lambda: w.bundle is not None and w.bundle.page_number == 999, timeout=TIMEOUT)


def test_run_gui_opens_the_demo(qtbot, demo_pdf, monkeypatch) -> None:
    """`glyphscope` without a file: the window opens the bundled demo (here the built copy)."""
    from PySide6.QtCore import QCoreApplication, QEvent, QTimer
    from PySide6.QtWidgets import QApplication

    from glyphscope.inspector.gui import app

    monkeypatch.setattr(app, "demo_pdf", lambda: demo_pdf)
    seen: list[int] = []

    def poll() -> None:
        windows = [x for x in QApplication.topLevelWidgets() if isinstance(x, MainWindow) and x.isVisible()]
        shown = [x for x in windows if x.bundle is not None]
        if shown:
            seen.append(shown[0].session.page_count)
            shown[0].close()
            QApplication.instance().quit()
        else:
            QTimer.singleShot(50, poll)

    QTimer.singleShot(50, poll)
    guard = QTimer()
    guard.setSingleShot(True)
    guard.timeout.connect(QApplication.instance().quit)  # never hang the suite
    guard.start(30_000)
    try:
        assert app.run_gui(None, None, None) == 0
    finally:
        guard.stop()
        # Closing the last window posts one more Quit; left queued it would end the event
        # loop of whichever test waits next.
        QCoreApplication.removePostedEvents(None, QEvent.Type.Quit)
    assert seen and seen[0] > 1
