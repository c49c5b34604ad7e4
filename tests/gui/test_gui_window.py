"""The real main window on the demo PDF and corpus files (offscreen, pytest-qt)."""

from __future__ import annotations

import html
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLabel

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
from glyphscope.inspector.gui.panels import registry
from glyphscope.inspector.gui.panels.registry import PanelSpec
from glyphscope.inspector.layers.registry import LAYER_KEYS
from tests.conftest import corpus_file
from tests.gui_helpers import TIMEOUT, go_to, open_file, still_at


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


def test_structure_panel_on_tagged_and_untagged_pages(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=11)
    structure = w.bundle.analysis.texts["structure"]
    header = w.text_panels["structure"].header.text()
    assert structure.text is not None
    assert f"<b>{structure.untagged}</b>" in header and "untagged" in header
    assert w.text_panels["structure"].editor.toPlainText() == structure.text
    assert w.legend.count("structure_order") > 0
    go_to(qtbot, w, 2)
    header = w.text_panels["structure"].header.text()
    assert "No usable structure" in header
    reason = w.bundle.analysis.texts["structure"].reason
    assert html.escape(reason.removeprefix("no structure: ")) in header and "no structure:" not in header


@pytest.mark.parametrize(
    "name, tagged", [("pdfjs__structure_simple.pdf", True), ("pdfjs__issue16316.pdf", False)]
)
def test_structure_panel_on_corpus_files(qtbot, window, name, tagged) -> None:
    w = window
    open_file(qtbot, w, corpus_file(name))
    header = w.text_panels["structure"].header.text()
    assert ("No usable structure" not in header) is tagged, header


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


def test_whole_document_text_in_a_worker(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf)
    panel = w.document_text
    # Wait on the panel's state, not on the worker's signal: a signal emitted from the worker
    # thread before the test connects to it would never arrive.
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=60_000)
    assert len(panel.pages) == w.session.page_count
    assert panel.text().count("\f") == w.session.page_count - 1
    assert panel.progress.value() == w.session.page_count
    doc = w.session.document
    pages = range(1, doc.page_count + 1)
    assert panel.text() == "\f".join(analyze_page(doc, n).texts["plain"].text or "" for n in pages)
    # Cancel a second run at once: it stops without a result and without an error.
    worker = panel.extract()
    worker.cancel()
    qtbot.waitUntil(panel.extract_button.isEnabled, timeout=60_000)


def test_whole_document_text_saves_from_a_writable_folder(
    qtbot, window, demo_pdf, tmp_path, monkeypatch
) -> None:
    from PySide6.QtWidgets import QFileDialog

    from glyphscope.inspector.gui.dialogs import default_save_dir

    w = window
    open_file(qtbot, w, demo_pdf)
    panel = w.document_text
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=60_000)
    asked: list[str] = []
    target = tmp_path / "out.txt"
    monkeypatch.setattr(
        QFileDialog, "getSaveFileName", lambda *a, **k: (asked.append(a[2]) or str(target), "")
    )
    assert panel.save() == str(target)
    assert asked == [str(default_save_dir() / "demo-plain.txt")]  # like the other save dialogs
    assert Path(asked[0]).parent != demo_pdf.parent
    assert target.read_text(encoding="utf-8") == panel.text() and "Saved 15 pages" in panel.status.text()
    # A folder that cannot be written: said in the panel, no exception.
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(tmp_path / "no" / "x.txt"), ""))
    assert panel.save() is None and "Not saved" in panel.status.text()


def test_whole_document_text_keeps_going_past_a_broken_page(qtbot, window, demo_pdf, monkeypatch) -> None:
    real = analysis.analyze_page

    def failing(doc, n, params=None):
        if n == 3:
            raise ValueError("synthetic failure on page 3")
        return real(doc, n, params) if params is not None else real(doc, n)

    w = window
    open_file(qtbot, w, demo_pdf)
    monkeypatch.setattr(analysis, "analyze_page", failing)
    panel = w.document_text
    panel.extract()
    qtbot.waitUntil(lambda: panel.extract_button.isEnabled() and bool(panel.pages), timeout=60_000)
    assert [n for n, _ in panel.pages] == list(range(1, w.session.page_count + 1))
    assert dict(panel.pages)[3] == "[page 3 failed: ValueError: synthetic failure on page 3]"
    assert dict(panel.pages)[4] == real(w.session.document, 4).texts["plain"].text


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


def test_hover_shows_user_space_cursor_and_decision_tooltips(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    plain = w.bundle.analysis.texts["plain"]
    gap = next(d for d in plain.decisions if isinstance(d, WordGapDecision) and d.inserted)
    w.legend.checks["word_gaps"].click()
    drawing = w.canvas.layer_items["word_gaps"].drawing
    marker = next(m for m in drawing.markers if m.glyphs == (gap.before, gap.after))
    canvas = w.canvas
    canvas.set_zoom(4.0)
    scene = canvas.page_to_scene.map(QPointF(*marker.point))
    canvas.centerOn(scene)
    pos = still_at(qtbot, canvas, scene)
    assert canvas.tooltip_at(pos) == (
        f"{gap.describe()}\nword_gap: verdict inserted, value {gap.value:g}, threshold {gap.threshold:g}"
    )
    assert gap.describe().startswith("space inserted: gap")
    qtbot.mouseMove(canvas.viewport(), pos)
    x, y = canvas.user_point(pos)
    assert f"{x:8.2f}".strip() in w.cursor_label.text() and "user space" in w.cursor_label.text()
    assert w.session.hovered is not None or canvas.glyph_at(pos) is None


def test_zoom_actions_and_ctrl_wheel(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=3)
    canvas = w.canvas
    w.act_fit_width.trigger()
    width_zoom = canvas.zoom
    w.act_fit_page.trigger()
    assert canvas.zoom < width_zoom  # a portrait page: fitting the page is smaller than fitting its width
    before = canvas.zoom
    w.act_zoom_in.trigger()
    assert canvas.zoom > before
    from PySide6.QtCore import QPoint
    from PySide6.QtGui import QWheelEvent

    event = QWheelEvent(
        QPointF(100, 100),
        QPointF(100, 100),
        QPoint(0, 0),
        QPoint(0, 240),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.ControlModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    before = canvas.zoom
    canvas.wheelEvent(event)
    assert canvas.zoom > before


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


def _until(condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Run the event loop until `condition` holds (a panel that catches up when it comes forward)."""
    from PySide6.QtTest import QTest

    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the panel did not catch up"
        QTest.qWait(20)


def shows_page(w: MainWindow, name: str, page: int) -> None:
    """Assert that the registered panel `name` shows `page`, by values computed here from the engine."""
    panel = w.panel_widgets[name]
    analysis = analyze_page(w.session.document, page)
    glyphs = analysis.page.glyphs
    if name == "legend":
        assert panel.count("glyphs") == len(glyphs)
        assert panel.count("culled") == len(analysis.classified.culls)
    elif name == "pages":
        assert panel.view.currentIndex().row() + 1 == page
    elif name == "text":
        for mode, text_panel in panel.panels.items():  # a mode without its text shows plain's
            shown = mode if analysis.texts[mode].text is not None else "plain"
            assert text_panel.editor.toPlainText() == analysis.texts[shown].text, mode
        assert panel.current_mode == w.session.mode == w.mode_combo.currentData()
    elif name == "details":
        w.session.select({0}, "test")
        assert "Glyph #0" in panel.text() and glyphs[0].font_key in panel.text()
        w.session.clear_selection("test")
    elif name == "diagnostics":
        assert panel.tree.topLevelItemCount() == len(analysis.findings)
        assert f"Page {page}" in panel.page_label.text()
    elif name == "fonts":
        assert panel.model.rowCount() == len(analysis.page.fonts)
    elif name == "glyph_table":
        assert panel.model.rowCount() == len(glyphs)
    elif name == "content_stream":  # a tool: read only while in front (opened from Tools)
        w.reveal(name)
        _until(lambda: panel.page is not None and panel.page.page_number == page)
        assert panel.page.page_number == page and len(panel.page.glyphs) == len(glyphs)
    elif name in ("probe", "find"):
        assert panel.facts.page.page_number == page and len(panel.facts.page.glyphs) == len(glyphs)
    elif name == "tuning":
        assert panel.diff_label.text().startswith(f"<b>Page {page}, ")
        mode = w.session.mode
        assert panel.default_text(mode) == (analysis.texts[mode].text or "")
    elif name in CHECKED_ELSEWHERE:
        return
    else:
        raise AssertionError(f"panel {name!r} has no check here")


# Panels whose page checks live in their own test files (added by the issues that made them).
CHECKED_ELSEWHERE = {
    "stepper",
    "compare",
    "structure_tree",
    "objects",
    "object_browser",
    "font_table",
    "help",
    "verify",  # tests/gui/test_gui_verify.py: a page's result shown per page, reset with the document
}


# Panels that show the whole document, not the current page.
DOCUMENT_PANELS = {"document_text"}


def test_every_registered_panel_shows_the_page_the_session_emits(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    assert w.session.view is w.bundle and w.bundle.page_number == 7
    assert len(analyze_page(w.session.document, 7).findings) > 0  # slugs culled: the count means something
    page_panels = [spec.name for spec in registry.PANELS if spec.name not in DOCUMENT_PANELS]
    assert set(page_panels) | DOCUMENT_PANELS == set(w.panel_widgets)
    for name in page_panels:
        shows_page(w, name, 7)
    # One emission per real change: the page going (None), then each new model of the next page.
    views = []
    w.session.events.view.connect(views.append)
    go_to(qtbot, w, 8)
    assert views[0] is None and views[-1] is w.session.view is w.bundle
    assert all(v.page_number == 8 for v in views[1:])
    assert len({id(v) for v in views}) == len(views)  # never the same model twice
    for name in page_panels:
        shows_page(w, name, 8)
    assert w.panel_widgets["diagnostics"].tree.topLevelItemCount() == len(
        analyze_page(w.session.document, 8).findings
    )


class PageEcho(QLabel):
    """A panel as small as one can be: it follows the session's view model, nothing else."""

    def __init__(self, session) -> None:
        super().__init__()
        session.events.view.connect(lambda view: self.show_facts(session.facts))

    def show_facts(self, facts) -> None:
        page = facts.page if facts is not None else None
        self.setText(f"page {page.page_number}: {len(page.glyphs)} glyphs" if page is not None else "")


def test_a_panel_is_added_by_one_line_of_the_registry(qtbot, demo_pdf, monkeypatch) -> None:
    echo_spec = PanelSpec("echo", "Page echo", PageEcho, "bottom", tab_with="glyph_table")
    monkeypatch.setattr(registry, "PANELS", (*registry.PANELS, echo_spec))
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.show()
    dock = w.panels["echo"]
    assert dock.objectName() == "dock.echo" and dock.windowTitle() == "Page echo"
    action = next(a for a in w.panels_menu.actions() if a.text() == "Page echo")
    echo = w.panel_widgets["echo"]
    assert echo.objectName() == "panel.echo" and dock.widget().widget().panel is echo  # in its scroll area
    open_file(qtbot, w, demo_pdf, page=3)
    assert echo.text() == f"page 3: {len(analyze_page(w.session.document, 3).page.glyphs)} glyphs"
    go_to(qtbot, w, 6)
    assert echo.text() == f"page 6: {len(analyze_page(w.session.document, 6).page.glyphs)} glyphs"
    action.trigger()  # View › Panels toggles it like any other dock
    assert not dock.isVisible()
    w.close_document()
    assert echo.text() == ""
    w.close()
