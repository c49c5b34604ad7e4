"""The canvas's default view (gui/canvas.py): pages open fitted, tall pages at their width, glyphs
painted off the page kept in view, outlines for hover and selection, most of the window for the page
(pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF, Qt

from glyphscope.core.assembly import (
    WordGapDecision,
)
from glyphscope.inspector.gui.canvas import FitMode
from tests.gui_helpers import TIMEOUT, open_file, still_at, two_page_pdf, window_at

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
