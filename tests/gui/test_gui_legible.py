"""A page a person can read — default view, one mode control, page-scoped state, decisions
reachable from the canvas, culled text as strings, reading order as numbered arrows (pytest-qt)."""

from __future__ import annotations

import html

import pikepdf
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QLabel

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import MODES, WordGapDecision
from glyphscope.inspector.gui import dialogs
from glyphscope.inspector.gui.canvas import FitMode
from glyphscope.inspector.gui.main_window import MainWindow, make_settings
from glyphscope.inspector.gui.panels.probe import INSTRUCTIONS
from glyphscope.inspector.layers.shapes import Place
from tests.gui_helpers import TIMEOUT, go_to, open_file, still_at

SLUGS = ["Job 4711 — Plate K — 2026-12-02", "Slug: demo.pdf p7 K 100% C 100% M 100% Y 100%"]


def in_front(w: MainWindow, name: str) -> bool:
    """Whether the dock's tab is the one shown in its group (a hidden tab has no visible region)."""
    dock = w.panels[name]
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def two_page_pdf(path) -> None:
    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    for text in ("first page", "second page"):
        page = pikepdf.Dictionary(
            Type=pikepdf.Name.Page,
            MediaBox=[0, 0, 300, 200],
            Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
            Contents=pdf.make_stream(f"BT /F1 12 Tf 20 150 Td ({text}) Tj ET".encode()),
        )
        pdf.pages.append(pikepdf.Page(page))
    pdf.save(path)


def window_at(qtbot, size: tuple[int, int], path, page: int) -> MainWindow:
    """A window of `size` (not the fixture's) showing `page` of `path`."""
    w = MainWindow(settings=make_settings())
    qtbot.addWidget(w)
    w.resize(*size)
    w.show()
    open_file(qtbot, w, path, page=page)
    return w


# -- 1. legible by default ---------------------------------------------------------------------


def test_pages_open_at_fit_and_a_new_file_at_the_default_zoom(qtbot, window, demo_pdf, tmp_path) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=3)
    canvas = w.canvas
    assert canvas.fit_mode == FitMode.PAGE
    assert canvas.zoom == pytest.approx(canvas.fit_zoom(FitMode.PAGE), rel=1e-3)
    canvas.set_zoom(5.0)  # the user zooms in, then opens another file
    other = tmp_path / "small.pdf"
    two_page_pdf(other)
    open_file(qtbot, w, other)
    assert canvas.fit_mode == FitMode.PAGE
    assert canvas.zoom == pytest.approx(canvas.fit_zoom(FitMode.PAGE), rel=1e-3)
    visible = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    assert visible.contains(canvas.page_rect)  # the whole new page, not a blank corner of it


def test_a_page_far_taller_than_the_view_opens_at_fit_width_from_its_top(qtbot, window, tmp_path) -> None:
    from glyphscope.inspector.gui.canvas import TALL_PAGE
    from tests.pdfbuild import make_pdf

    path = tmp_path / "receipt.pdf"  # a till receipt: 3 inches wide, 40 inches long
    make_pdf([b"BT /F1 9 Tf 12 2860 Td (TOTAL 12.40) Tj ET"], media_box=[0, 0, 216, 2880]).save(path)
    w = window
    open_file(qtbot, w, path)
    canvas = w.canvas
    assert canvas.fit_mode == FitMode.PAGE  # the default fit, which for this page means its width
    assert canvas.zoom == pytest.approx(canvas.fit_zoom(FitMode.WIDTH), rel=1e-3)
    vp = canvas.maximumViewportSize()
    assert TALL_PAGE * vp.height() / vp.width() < 2880 / 216
    visible = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    assert visible.top() <= canvas.page_rect.top() + 1  # the top of the receipt, where its text starts
    other = tmp_path / "small.pdf"
    two_page_pdf(other)  # an ordinary page after it: the whole page again
    open_file(qtbot, w, other)
    assert canvas.zoom == pytest.approx(canvas.fit_zoom(FitMode.PAGE), rel=1e-3)
    assert canvas.mapToScene(canvas.viewport().rect()).boundingRect().contains(canvas.page_rect)


def test_fit_includes_glyphs_painted_off_the_page(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    canvas = w.canvas
    culled = [w.bundle.analysis.page.glyphs[c.paint_index] for c in w.bundle.analysis.classified.culls]
    visible = canvas.mapToScene(canvas.viewport().rect()).boundingRect()
    for g in culled:
        assert visible.contains(canvas.page_to_scene.map(QPointF(*g.center)))


def test_glyph_quads_hover_and_selection_are_outlines(qtbot, window, demo_pdf) -> None:
    from glyphscope.inspector.gui import overlays

    w = window
    open_file(qtbot, w, demo_pdf, page=2)  # word gaps of both kinds
    item = w.canvas.layer_items["glyphs"]
    qtbot.waitUntil(lambda: item.drawing is not None, timeout=TIMEOUT)  # drawn after the page image
    drawing = item.drawing
    assert drawing.parts and not any(part.style.hatch or part.style.disc for part in drawing.parts)
    for style in (overlays.HOVER_STYLE, overlays.SELECTION_STYLE):  # the letters stay readable
        assert not style.hatch and not style.disc and style.width >= 1.5
    assert overlays.SELECTION_STYLE.width > overlays.HOVER_STYLE.width  # the selection stands out
    # Body text at Fit page is ~8 px tall: its outlines are faint, so they do not tint the letters;
    # zoomed in (200 %, 400 %) they come up to full strength.
    heights = sorted(g.height for g in w.bundle.analysis.page.glyphs)
    assert drawing.fade_height == pytest.approx(heights[len(heights) // 2], rel=0.2)
    scale = w.canvas.transform().m11() * w.canvas.page_to_scene.m11()
    at_fit = overlays.outline_opacity(drawing.fade_height * scale)
    assert at_fit <= 0.3
    assert overlays.outline_opacity(drawing.fade_height * scale * 4 / w.canvas.zoom) == 1.0
    assert at_fit < overlays.outline_opacity(drawing.fade_height * scale * 2 / w.canvas.zoom) < 1.0
    assert all(part.style.fades for part in drawing.parts)
    # Word-gap marks: "no space" fades with the outlines, a space inserted stays at full strength.
    from glyphscope.inspector.layers import registry as L

    gaps = w.bundle.overlays.layer("word_gaps", w.session.mode)
    fades = {part.style.colour: part.style.fades for part in gaps.parts}
    assert gaps.fade_height == drawing.fade_height
    assert fades[L.GAP_NOT_INSERTED_COLOUR] and not fades.get(L.GAP_INSERTED_COLOUR, False)
    floor = fades[L.GAP_NOT_INSERTED_COLOUR]  # seen at Fit page, fainter than a space, not a tint
    assert overlays.FADE_FLOOR < floor < 1.0 and overlays.outline_opacity(0.0, floor) == floor


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_the_canvas_gets_most_of_the_window(qtbot, demo_pdf, size) -> None:
    w = window_at(qtbot, size, demo_pdf, 7)
    qtbot.wait(50)
    canvas = w.canvas.width() * w.canvas.height()
    share = canvas / (w.width() * w.height())
    assert share >= 0.48, share
    for name in ("legend", "text", "details", "glyph_table"):
        dock = w.panels[name]
        assert dock.width() * dock.height() < canvas / 2, name
    w.close()


def test_resizing_a_side_column_settles_the_fitted_canvas(qtbot, demo_pdf) -> None:
    """Fit's zoom ignores whether scroll bars are shown: one that did not showed a bar, shrank,
    hid it, grew... (a text column dragged to 560 px at 1600x1000 hung the window)."""
    from PySide6.QtCore import QEvent, QObject

    class CountResizes(QObject):
        count = 0

        def eventFilter(self, obj, event) -> bool:  # noqa: N802 -- Qt's name
            if event.type() == QEvent.Type.Resize:
                self.count += 1
            return False

    w = window_at(qtbot, (1600, 1000), demo_pdf, 6)
    counter = CountResizes()
    w.canvas.viewport().installEventFilter(counter)
    for width in (560, 540, 580, 500, 470):
        counter.count = 0
        w.resizeDocks([w.panels["text"]], [width], Qt.Orientation.Horizontal)
        qtbot.wait(150)
        assert counter.count <= 4, (width, counter.count)
        assert w.canvas.zoom == pytest.approx(w.canvas.fit_zoom(FitMode.PAGE), rel=1e-3)
    w.canvas.viewport().removeEventFilter(counter)
    w.close()


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
    calls = {"rows": 0, "fonts": 0}
    rows_of = model._filtered_sorted
    stats_of = font_stats_module.font_statistics

    def counted_rows():
        calls["rows"] += 1
        return rows_of()

    def counted_stats(page):
        calls["fonts"] += 1
        return stats_of(page)

    monkeypatch.setattr(model, "_filtered_sorted", counted_rows)
    monkeypatch.setattr(font_stats_module, "font_statistics", counted_stats)
    go_to(qtbot, w, 8)
    assert calls == {"rows": 0, "fonts": 0}
    assert model.rows == list(range(len(w.bundle.analysis.page.glyphs)))
    w.glyph_table.status_combo.setCurrentText("duplicate")  # a new filter is computed once, then kept
    assert calls["rows"] == 1
    duplicates = sorted(d.paint_index for d in w.bundle.analysis.classified.duplicates)
    assert model.rows == duplicates
    go_to(qtbot, w, 9)  # no duplicate on page 9? then the filter is cleared there; either way:
    go_to(qtbot, w, 8)
    if w.glyph_table.status_combo.currentText() == "duplicate":
        assert model.rows == duplicates


# -- 4. selections raise Glyph details; decision marks are clickable ----------------------------


def test_selecting_anywhere_raises_glyph_details(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    w.reveal("fonts")  # Fonts is the front tab of the details group
    assert not in_front(w, "details")
    w.text_panels["plain"].select_chars(0, 4)
    assert in_front(w, "details") and "glyphs selected" in w.details.text()

    w.reveal("fonts")
    w.glyph_table.table.selectRow(5)
    assert in_front(w, "details") and "Glyph #5" in w.details.text()
    assert in_front(w, "glyph_table")  # the table that was clicked stays in view

    w.reveal("fonts")
    w.reveal("diagnostics")
    assert w.diagnostics.select_finding("culled_glyphs") is not None
    assert in_front(w, "details") and in_front(w, "diagnostics")
    assert w.session.selection == {c.paint_index for c in w.bundle.analysis.classified.culls}

    w.reveal("fonts")
    g = w.bundle.analysis.classified.visible[10]
    canvas = w.canvas
    canvas.set_zoom(4.0)
    scene = canvas.page_to_scene.map(QPointF(*g.center))
    canvas.centerOn(scene)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(scene))
    assert w.session.selection == {g.paint_index} and in_front(w, "details")


def test_a_decision_mark_click_selects_its_record_with_its_numbers(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=2)
    w.session.set_layer_visible("word_gaps", True)
    w.session.set_layer_visible("reading_order", True)  # another layer on: marks still answer
    plain = w.bundle.analysis.texts["plain"]
    gap = next(d for d in plain.decisions if isinstance(d, WordGapDecision) and d.inserted)
    marker = next(m for m in w.canvas.layer_items["word_gaps"].drawing.markers if m.source is gap)
    canvas = w.canvas
    canvas.set_zoom(6.0)
    scene = canvas.page_to_scene.map(QPointF(*marker.point))
    canvas.centerOn(scene)
    pos = still_at(qtbot, canvas, scene)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert w.session.decision is gap
    assert w.session.selection == {gap.before, gap.after}  # the click did not clear the selection
    text = w.details.text()
    assert "Decision: " + gap.describe() in text

    def num(v: float) -> str:
        return f"{v:.3f}".rstrip("0").rstrip(".")

    assert f"value\n{num(gap.value)}\n" in text and f"threshold\n{num(gap.threshold)}\n" in text
    assert "verdict\ninserted\n" in text
    assert gap.value > gap.threshold  # inserted: the numbers say why
    assert in_front(w, "details")
    # Where the mark is now: Glyph details coming forward may re-lay the docks out (later, on a
    # loaded machine), which moves the canvas under a fixed position.
    tip = canvas.tooltip_at(still_at(qtbot, canvas, scene))
    assert tip.startswith(gap.describe()) and f"threshold {gap.threshold:g}" in tip

    # With the Word gaps layer off, hovering the gap still explains it; a click selects the glyph.
    w.session.set_layer_visible("word_gaps", False)
    assert canvas.glyph_at(pos) is None  # in the gap between the two glyphs
    assert canvas.tooltip_at(pos).startswith(gap.describe())
    w.session.clear_selection("test")
    assert w.session.decision is None


def test_near_misses_stand_out(qtbot, window, tmp_path) -> None:
    from glyphscope.core.assembly.decision_geometry import is_near_miss
    from glyphscope.inspector.layers.registry import GAP_NEAR_MISS_COLOUR, LAYER_BY_KEY

    pdf = pikepdf.new()
    font = pdf.make_indirect(
        pikepdf.Dictionary(
            Type=pikepdf.Name.Font, Subtype=pikepdf.Name.Type1, BaseFont=pikepdf.Name.Helvetica
        )
    )
    # A TJ gap of 158/1000 em at 12 pt = 1.9 pt against 0.15 × 12 = 1.8 pt: inserted, within 20 %.
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, 300, 200],
        Resources=pikepdf.Dictionary(Font=pikepdf.Dictionary(F1=font)),
        Contents=pdf.make_stream(b"BT /F1 12 Tf 20 150 Td [(near) -158 (miss) -600 (far)] TJ ET"),
    )
    pdf.pages.append(pikepdf.Page(page))
    path = tmp_path / "near.pdf"
    pdf.save(path)
    w = window
    open_file(qtbot, w, path)
    near = [d for d in w.bundle.facts.modes.view("plain").word_gaps if is_near_miss(d)]
    assert len(near) == 1 and near[0].value == pytest.approx(1.896, abs=0.01) and near[0].inserted
    w.session.set_layer_visible("word_gaps", True)
    drawing = w.canvas.layer_items["word_gaps"].drawing
    near_width = max(p.style.width for p in drawing.parts if p.style.colour == GAP_NEAR_MISS_COLOUR)
    other_width = max(p.style.width for p in drawing.parts if p.style.colour != GAP_NEAR_MISS_COLOUR)
    assert near_width >= 2 * other_width
    # and a ring on top (a ring, not a disc: it may touch the letters beside the gap)
    shapes = LAYER_BY_KEY["word_gaps"].shapes(w.bundle.facts, "plain")
    rings = [p for p in shapes.parts if p.style.colour == GAP_NEAR_MISS_COLOUR and len(p.marks)]
    assert [len(p.marks) for p in rings] == [3] and not rings[0].style.disc


def test_a_cjk_gap_space_shows_as_inserted(qtbot, window, tmp_path) -> None:
    """Views ask WordGapDecision.inserted, not verdict == "inserted": a cjk_gap space is a space."""
    from glyphscope.inspector.layers import registry as L
    from tests.pdfbuild import identity_h_font, identity_tounicode, make_pdf

    content = b"BT /F1 10 Tf 72 700 Td <65E5672C> Tj 40 0 Td <8A9E> Tj ET"  # 日本 語
    path = tmp_path / "cjk.pdf"
    make_pdf([content], {"/F1": lambda pdf: identity_h_font(pdf, tounicode=identity_tounicode())}).save(path)
    w = window
    open_file(qtbot, w, path)
    facts = w.bundle.facts
    gaps = facts.modes.view("plain").word_gaps
    assert [d.verdict for d in gaps] == ["cjk_pair", "cjk_gap"]
    assert facts.marks.word_gap_summary("plain")[:2] == (2, 1)
    assert "space inserted (1)" in w.legend.keys.text()
    drawing = w.bundle.overlays.layer("word_gaps", "plain")
    colours = [part.style.colour for part in drawing.parts if part.style.width == 1.5]
    assert sorted(colours) == sorted([L.GAP_INSERTED_COLOUR, L.GAP_NOT_INSERTED_COLOUR])


# -- 5. culled text as strings ------------------------------------------------------------------


def test_culled_runs_are_labelled_with_their_text(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    drawing = w.canvas.layer_items["culled"].drawing
    assert sorted(label.text for label in drawing.labels) == sorted(SLUGS)
    boxes = w.bundle.analysis.page.boxes.visible_box
    for label in drawing.labels:  # each label names its run's first glyph, outside the visible box
        x0, y0, x1, y1 = label.of
        x, y = (x0 + x1) / 2, (y0 + y1) / 2
        assert not (boxes[0] <= x <= boxes[2] and boxes[1] <= y <= boxes[3])
    table = w.glyph_table
    table.group_combo.setCurrentText("runs")
    table.status_combo.setCurrentText("culled")
    assert table.run_texts() == SLUGS
    table.run_table.selectRow(0)
    assert len(w.session.selection) == len(SLUGS[0])
    assert f"“{SLUGS[0]}”" in w.details.text().replace("\u2029", "\n")  # Glyph details reads them as text
    w.reveal("diagnostics")
    w.diagnostics.select_finding("culled_glyphs")
    detail = w.diagnostics.detail.text()
    assert all(f"“{slug}” <small>({len(slug)} glyphs)</small>" in detail for slug in SLUGS)


# -- 6. reading order as numbered arrows --------------------------------------------------------


@pytest.mark.parametrize("page, mode", [(1, "plain"), (13, "columns"), (11, "structure"), (7, "plain")])
def test_reading_order_is_one_numbered_arrow_per_line(qtbot, window, demo_pdf, page, mode) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=page)
    w.session.set_mode(mode)
    key = "structure_order" if mode == "structure" else "reading_order"
    w.session.set_layer_visible(key, True)
    drawing = w.canvas.layer_items[key].drawing
    text = analyze_page(w.session.document, page).texts[mode].text
    lines = [line for line in text.split("\n") if line.strip()]
    assert drawing.arrows == len(lines) > 0
    numbers = [label.text for label in drawing.labels if label.text.isdigit()]
    assert numbers == [str(n) for n in range(1, len(lines) + 1)]
    assert not any(label.text.startswith("start (") for label in drawing.labels)
    if key == "reading_order":
        assert w.legend.count("reading_order") == len(lines)


def test_mcid_labels_do_not_sit_on_the_reading_order_numbers(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=11)
    w.session.set_layer_visible("reading_order", True)
    w.session.set_layer_visible("structure_order", True)
    mcid = [x for x in w.canvas.layer_items["structure_order"].drawing.labels if x.text.startswith("MCID")]
    numbers = [x for x in w.canvas.layer_items["reading_order"].drawing.labels if x.text.isdigit()]
    assert mcid and numbers
    # Numbers are drawn left of their line's first glyph, MCID labels above their first glyph.
    assert all(n.place is Place.LEFT for n in numbers) and all(m.place is Place.ABOVE for m in mcid)


# -- 9. an unresolved glyph lists its decoding chain ------------------------------------------


def test_glyph_details_of_an_unresolved_glyph_list_every_step_of_the_chain(
    qtbot, window, tmp_path, monkeypatch
) -> None:
    from tests.inspector.test_font_table import simple_pdf

    path = tmp_path / "codes.pdf"
    path.write_bytes(simple_pdf())
    open_file(qtbot, window, path)
    window.session.select([0], "canvas")  # code <01>: /Differences names /g1, which maps nowhere
    text = window.details.text()
    assert "Decoding chain for code <01> of /F1" in text
    steps = [
        "✗ ToUnicode: the font has no /ToUnicode",
        "✗ Differences: /g1 is not in the Adobe Glyph List (nor uniXXXX/uXXXX)",
        "✗ base encoding: skipped: /Differences gave this code another glyph",
        "✗ font program: not tried: the font is not symbolic and has an encoding table",
        "✗ guess: no guess applies (the font's tables are trusted for this code)",
    ]
    positions = [text.index(step) for step in steps]
    assert positions == sorted(positions)  # in the order the decoder runs them
    window.session.select([1], "canvas")  # a resolved glyph: no chain (Fonts › Codes has it)
    assert "Decoding chain" not in window.details.text()
    from glyphscope.inspector.views import fonts as font_table

    def broken(*args):
        raise RuntimeError("damaged /Font dictionary")

    monkeypatch.setattr(font_table, "glyph_chain", broken)  # a font object that cannot be read again
    window.session.select([0], "canvas")
    assert "the font could not be read again: RuntimeError: damaged /Font dictionary" in window.details.text()


# -- also: a truncated PDF ----------------------------------------------------------------------


def test_a_truncated_pdf_is_a_damaged_pdf_named_once(qtbot, window, demo_pdf, tmp_path) -> None:
    w = window
    broken = tmp_path / "truncated.pdf"
    broken.write_bytes(demo_pdf.read_bytes()[:300])
    with qtbot.waitSignal(w.open_failed, timeout=TIMEOUT) as blocker:
        w.open_path(broken)
    title, message = w.last_error
    assert title == "Damaged PDF"
    assert message.count(str(broken)) == 1 and blocker.args[0] == message
    not_pdf = tmp_path / "notes.pdf"
    not_pdf.write_text("hello")
    with qtbot.waitSignal(w.open_failed, timeout=TIMEOUT):
        w.open_path(not_pdf)
    assert w.last_error[0] == "Not a PDF"
    assert dialogs.error_title(ValueError("x")) == "Unexpected error"


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
        fronts = [w.panels[n] for n in w.docks._fronts.values()]
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


def test_labels_never_cover_letters_or_each_other_on_a_real_form(qtbot) -> None:
    """pdf.js issue 6127 (49 widgets, their labels named above each field) at Fit page and 200 %:
    every label drawn lies clear of every glyph and of every other label; at 200 % more fit."""
    from tests.conftest import corpus_file

    w = window_at(qtbot, (1280, 800), corpus_file("pdfjs__issue6127.pdf"), 1)
    canvas = w.canvas
    glyphs = w.bundle.overlays.hit_index.grid

    def drawn() -> list[tuple[float, float, float, float]]:
        canvas.viewport().repaint()
        return canvas.drawn_labels()

    def check(boxes: list[tuple[float, float, float, float]]) -> None:
        to_page, _ = (canvas.page_to_scene * canvas.viewportTransform()).inverted()
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            corners = [to_page.map(QPointF(x, y)) for x in (x0, x1) for y in (y0, y1)]
            xs, ys = [p.x() for p in corners], [p.y() for p in corners]
            assert not glyphs.meets((min(xs), min(ys), max(xs), max(ys))), (i, boxes[i])
            for o in boxes[:i]:
                assert not (x0 < o[2] and o[0] < x1 and y0 < o[3] and o[1] < y1), (boxes[i], o)

    at_fit = drawn()
    check(at_fit)
    assert len(at_fit) >= 1
    labels = canvas.layer_items["annotations"].drawing.labels
    shown = {tuple(round(v) for v in box) for box in at_fit}
    canvas.set_zoom(2.0)  # at 200 %, around the form's first field: its label finds room
    x0, y0, x1, y1 = labels[0].of
    canvas.centerOn(canvas.page_to_scene.map(QPointF((x0 + x1) / 2, (y0 + y1) / 2)))
    qtbot.waitUntil(lambda: len(drawn()) > 0, timeout=TIMEOUT)
    closer = drawn()
    check(closer)
    assert len(labels) == 49 and len(shown) < len(labels)  # at Fit page most wait for a closer look
    w.close()


def test_the_opened_file_is_named_whole_in_the_status_bar_and_its_folder_in_the_title(
    qtbot, demo_pdf
) -> None:
    from pathlib import Path

    w = window_at(qtbot, (1280, 800), demo_pdf, 1)
    message = w.statusBar().currentMessage()
    assert message == f"Opened {Path(demo_pdf).name} (15 pages)"
    room = w.statusBar().width() - sum(c.width() for c in w.statusBar().findChildren(QLabel) if c.isVisible())
    assert w.statusBar().fontMetrics().horizontalAdvance(message) < room  # not cut off at 1280 px
    assert (
        w.windowTitle()
        == f"{Path(demo_pdf).name} ({Path(demo_pdf).parent}) — page 1 of 15 — glyphscope inspector"
    )
    w.close()


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
