"""Decisions reachable from the canvas (layers drawn by gui/canvas.py): a click selects a glyph or a
decision with its numbers, near misses stand out, culled text as strings, reading order as numbered
arrows, labels clear of letters (pytest-qt)."""

from __future__ import annotations

import pikepdf
import pytest
from PySide6.QtCore import QPointF, Qt

from glyphscope.core.analysis import analyze_page
from glyphscope.core.assembly import WordGapDecision
from glyphscope.inspector.layers.shapes import Place
from tests.gui_helpers import SLUGS, TIMEOUT, in_front, open_file, still_at, window_at

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
