"""Diagnostics, fonts and content-stream panels on the demo PDF: each linked both ways with the canvas."""

from __future__ import annotations

from PySide6.QtCore import Qt

from glyphscope.core.analysis import analyze_page
from glyphscope.core.diagnostics import Severity
from glyphscope.core.glyph import DecodeSource, GlyphStatus
from glyphscope.inspector.gui.main_window import MainWindow
from glyphscope.inspector.gui.panels.fonts import HEADERS
from tests.gui_helpers import TIMEOUT, go_to, open_file


def col(name: str) -> int:
    return HEADERS.index(name)


def stream_loaded(qtbot, w: MainWindow, form_path: tuple[str, ...] = ()) -> None:
    panel = w.content_stream
    model = panel.page_model if not form_path else panel.form_model
    w.reveal("content_stream")  # a tool: closed until opened, and read only while in front

    qtbot.waitUntil(
        lambda: model.rowCount() > 0 and (not form_path or panel.form_path == form_path), timeout=TIMEOUT
    )


def test_diagnostics_select_glyphs_show_instruction_and_summarise_the_document(
    qtbot, window, demo_pdf
) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    classified = w.bundle.analysis.classified
    culled = {c.paint_index for c in classified.culls}
    d = w.diagnostics.select_finding("culled_glyphs")
    assert d is not None and "outside the visible page area" in d.message
    assert w.session.selection == culled and w.session.selection_source == "diagnostics"
    assert not w.canvas.selection_item.selection.isEmpty()
    assert w.glyph_table.selected_paint_indices() == sorted(culled)

    # A finding about one instruction scrolls the content stream to it (page 4: `1 Tf` scaled by Tm).
    go_to(qtbot, w, 4)
    stream_loaded(qtbot, w)
    d = w.diagnostics.select_finding("tf_one_scaled_tm")
    assert d is not None and d.token_index is not None
    assert w.session.selection == set(d.glyphs)
    assert w.content_stream.current_row() == d.token_index
    assert d.token_index in w.content_stream.page_model.highlighted

    # Page 10: unresolved glyphs of the font without ToUnicode, an error.
    go_to(qtbot, w, 10)
    d = w.diagnostics.select_finding("unresolved_glyphs")
    glyphs = w.bundle.analysis.page.glyphs
    assert d is not None and d.severity.value == "error"
    assert w.session.selection == {
        g.paint_index for g in glyphs if g.decode_source is DecodeSource.UNRESOLVED
    }

    # The document summary: one row per page from a worker; a row click opens its page.
    with qtbot.waitSignal(w.diagnostics.summary_finished, timeout=TIMEOUT):
        w.diagnostics.scan_document()
    rows = w.diagnostics.summary_rows()
    assert [r.page for r in rows] == list(range(1, 16))
    for r in rows:  # each row counts the page product's findings, by severity
        found = analyze_page(w.session.document, r.page).findings
        assert r.counts == {s.value: sum(1 for d in found if d.severity is s) for s in Severity}, r.page
    by_page = {r.page: r for r in rows}
    assert "culled_glyphs" in by_page[7].kinds and by_page[7].counts["warning"] >= 1
    assert "duplicate_glyphs" in by_page[8].kinds
    assert by_page[10].counts["error"] >= 1
    assert w.diagnostics.summary.topLevelItem(0).data(0, 256) == 10  # worst first: the page with an error
    item = next(
        w.diagnostics.summary.topLevelItem(i)
        for i in range(w.diagnostics.summary.topLevelItemCount())
        if w.diagnostics.summary.topLevelItem(i).data(0, 256) == 8
    )
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT, check_params_cb=lambda n: n == 8):
        w.diagnostics.summary.itemClicked.emit(item, 0)
    assert w.session.page_number == 8
    assert w.diagnostics.select_finding("duplicate_glyphs") is not None
    assert all(
        classified_status is GlyphStatus.DUPLICATE
        for classified_status in (w.bundle.analysis.classified.status[i] for i in w.session.selection)
    )


def test_diagnostics_scan_can_be_cancelled(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=1)
    with qtbot.waitSignal(w.diagnostics.summary_finished, timeout=TIMEOUT):
        worker = w.diagnostics.scan_document()
        worker.cancel()
    assert len(w.diagnostics.summary_rows()) < 15 or "cancelled" in w.diagnostics.doc_label.text().lower()
    assert w.diagnostics.scan_button.isEnabled()


def test_fonts_panel_facts_and_selection_both_ways(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=10)
    model = w.fonts.model
    page = w.bundle.analysis.page
    assert model.rowCount() == len(page.fonts)
    row = w.fonts.select_font("/FN")
    assert row is not None
    assert model.cell(row, col("ToUnicode")) == "no"
    assert model.cell(row, col("Unresolved")) == "5"
    assert model.cell(row, col("Decoded by")) == "UNRESOLVED 5"  # the card and tooltip: with its count
    assert model.shown(row, col("Decoded by")) == "UNRESOLVED"  # the table: the count is in Glyphs
    assert model.shown(row, col("Glyphs")) == "5"
    assert len(model.fonts[row].info.problems) == 1 and model.shown(row, col("Problems")) == "1 problem"
    problem = model.fonts[row].info.problems[0].message
    assert model.data(model.index(row, col("Problems")), Qt.ItemDataRole.ToolTipRole) == f"• {problem}"
    assert problem in w.fonts.card.toPlainText()  # the whole message in the Font card
    fn_glyphs = {g.paint_index for g in page.glyphs if g.font_key == "/FN"}
    assert w.session.selection == fn_glyphs and w.session.selection_source == "fonts"
    assert "unresolved" in w.fonts.label.text()
    assert "/FN" in w.fonts.card.toPlainText() and "ToUnicode" in w.fonts.card.toPlainText()
    # The other way: one glyph of another font selects that font's row.
    other = next(g for g in page.glyphs if g.font_key != "/FN")
    w.session.select({other.paint_index}, "test")
    rows = w.fonts.selected_rows()
    assert len(rows) == 1 and model.fonts[rows[0]].font_key == other.font_key
    assert other.paint_index in w.fonts.row_glyphs(rows[0])

    # Page 9: the /W problems are listed with the font.
    go_to(qtbot, w, 9)
    t0 = next(r for r, f in enumerate(w.fonts.model.fonts) if f.font_key == "/T0")
    problems = w.fonts.model.cell(t0, col("Problems")).lower()
    assert "/w" in problems or "w array" in problems or "descending" in problems or "unsorted" in problems
    assert w.fonts.model.cell(t0, col("Type")).startswith("Type0")


def test_content_stream_links_glyphs_and_operators(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    stream_loaded(qtbot, w)
    panel = w.content_stream
    page = w.bundle.analysis.page
    assert panel.page_model.rowCount() == len(w.session.document.instructions(2))
    assert not page.forms and panel.form_box.isHidden()  # no form painted here: no form stream part
    g = next(g for g in page.glyphs if g.unicode == "N" and not g.form_path)
    w.session.select({g.paint_index}, "canvas")
    assert panel.page_model.highlighted == {g.token_index}
    assert panel.current_row() == g.token_index
    assert panel.page_model.instructions[g.token_index].operator in ("Tj", "TJ", "'", '"')
    # Selecting the operator selects every glyph it painted.
    w.session.clear_selection("test")
    panel.select_instruction(g.token_index)
    expected = {x.paint_index for x in page.glyphs if x.token_index == g.token_index and not x.form_path}
    assert w.session.selection == expected and g.paint_index in expected
    assert w.session.selection_source == "content_stream"

    # Forms (page 6): a glyph of the nested Fm2 › Fm3 points at the page's Do and the form's own operator.
    go_to(qtbot, w, 6)
    stream_loaded(qtbot, w)
    page = w.bundle.analysis.page
    g = next(g for g in page.glyphs if g.form_path == ("/Fm2", "/Fm3"))
    use = next(f for f in page.forms if f.form_path == ("/Fm2", "/Fm3"))
    w.session.select({g.paint_index}, "canvas")
    assert panel.page_model.highlighted == {use.token_index}
    assert panel.page_model.instructions[use.token_index].operator == "Do"
    stream_loaded(qtbot, w, ("/Fm2", "/Fm3"))
    assert not panel.form_box.isHidden()
    assert panel.form_model.highlighted == {g.stream_index}
    assert panel.form_model.instructions[g.stream_index].operator in ("Tj", "TJ", "'", '"')
    assert "/Fm3" in panel.form_label.text()
    # The form operator selects its glyphs; the Do selects the whole chain.
    panel.select_form_instruction(g.stream_index)
    assert w.session.selection == {
        x.paint_index for x in page.glyphs if x.form_path == g.form_path and x.stream_index == g.stream_index
    }
    panel.select_instruction(use.token_index)
    chain = {x.paint_index for x in page.glyphs if x.form_path and x.form_path[0] == "/Fm2"}
    assert w.session.selection == chain and g.paint_index in chain
