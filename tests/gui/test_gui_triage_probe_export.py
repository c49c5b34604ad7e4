"""Region probe on culled, duplicate and empty areas; File › Export; render output vs the canvas."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageFilter
from PySide6.QtCore import QBuffer, QIODevice, QPointF, Qt
from PySide6.QtGui import QColor, QImage

from glyphscope.inspector.gui.export import canvas_image
from glyphscope.inspector.gui.main_window import MainWindow
from glyphscope.inspector.views.probe import NO_GLYPHS, Fate, GlyphFate, glyphs_in
from tests.gui_helpers import TIMEOUT, go_to, open_file
from tests.pdfbuild import make_pdf, to_bytes


def drag(qtbot, w: MainWindow, rect, modifier=Qt.KeyboardModifier.ShiftModifier) -> None:
    """Drag a rectangle given in user space on the canvas, as a user does."""
    canvas = w.canvas
    canvas.fit_page()
    a = canvas.mapFromScene(canvas.page_to_scene.map(QPointF(rect[0], rect[3])))
    b = canvas.mapFromScene(canvas.page_to_scene.map(QPointF(rect[2], rect[1])))
    with qtbot.waitSignal(canvas.region_probed, timeout=TIMEOUT):
        qtbot.mousePress(canvas.viewport(), Qt.MouseButton.LeftButton, modifier, a)
        qtbot.mouseMove(canvas.viewport(), b)
        qtbot.mouseRelease(canvas.viewport(), Qt.MouseButton.LeftButton, modifier, b)
    if modifier & Qt.KeyboardModifier.ShiftModifier:
        # and the user lets go of Shift: Qt keeps the last modifiers it saw for the whole
        # application, and a Shift left "held" turns later selectRow calls into extensions
        qtbot.keyRelease(canvas.viewport(), Qt.Key.Key_Shift)


def bounds(glyphs, indices, pad: float = 1.0):
    xs = [p[0] for i in indices for p in glyphs[i].quad]
    ys = [p[1] for i in indices for p in glyphs[i].quad]
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


def test_probe_culled_duplicate_and_empty_areas(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    probe = w.probe_panel
    glyphs = w.bundle.analysis.page.glyphs
    classified = w.bundle.analysis.classified
    slug = [
        c.paint_index for c in classified.culls if glyphs[c.paint_index].origin[1] < 40
    ]  # the bottom slug
    assert slug
    drag(qtbot, w, bounds(glyphs, slug))  # Shift+drag
    assert w.panels["probe"].isVisible()
    result = probe.result
    found = {e.paint_index for e in result.entries}
    assert set(slug) <= found
    for e in result.entries:
        assert e.fates[0].kind is Fate.CULLED, e
        assert any("outside the visible box" in d for d in e.details)
    assert w.session.selection == found and w.session.selection_source == "probe"
    assert "culled" in probe.label.text()
    assert w.canvas.probe_item.isVisible()

    # Page 8 with the probe tool of the toolbar (plain drag): duplicates name the glyph they repeat.
    go_to(qtbot, w, 8)
    assert not w.canvas.probe_item.isVisible()
    w.act_probe.trigger()
    assert w.canvas.probe_mode
    glyphs = w.bundle.analysis.page.glyphs
    classified = w.bundle.analysis.classified
    first = classified.duplicates[0]
    line = [i for i, g in enumerate(glyphs) if abs(g.origin[1] - glyphs[first.paint_index].origin[1]) < 0.5]
    drag(qtbot, w, bounds(glyphs, line, pad=0.5), Qt.KeyboardModifier.NoModifier)
    entries = {e.paint_index: e for e in probe.result.entries}
    assert first.paint_index in entries
    assert entries[first.paint_index].fates[0] == GlyphFate(
        Fate.DUPLICATE, f"duplicate of #{first.duplicate_of}"
    )
    assert entries[first.duplicate_of].fates[0] == GlyphFate(Fate.KEPT, "kept")
    assert any("dropped as a duplicate" in d for d in entries[first.paint_index].details)
    kept = [e for e in probe.result.entries if e.status == "kept"]
    assert any(any(d.startswith("plain,") for d in e.details) for e in kept)  # word/line decisions listed
    w.act_probe.trigger()
    assert not w.canvas.probe_mode

    # An area without glyphs (page 7's crop marks are vector lines): the message says so.
    go_to(qtbot, w, 7)
    corner = (2.0, 2.0, 45.0, 45.0)
    assert not glyphs_in(w.bundle.analysis.page.glyphs, corner)
    drag(qtbot, w, corner)
    assert probe.result is not None and not probe.result.entries
    assert NO_GLYPHS in probe.label.text()
    assert w.session.selection == frozenset()


def test_probe_lists_invisible_and_form_glyphs(qtbot, window, demo_pdf) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=14)
    glyphs = w.bundle.analysis.page.glyphs
    invisible = [g.paint_index for g in glyphs if g.render_mode == 3]
    result = w.probe_panel.probe(bounds(glyphs, invisible[:5]))
    assert any(
        f.kind is Fate.INVISIBLE and "render mode 3" in f.text for e in result.entries for f in e.fates
    )
    go_to(qtbot, w, 6)
    glyphs = w.bundle.analysis.page.glyphs
    form = [g.paint_index for g in glyphs if g.form_path == ("/Fm2", "/Fm3")]
    result = w.probe_panel.probe(bounds(glyphs, form[:3]))
    assert any(GlyphFate(Fate.FORM, "form /Fm2 › /Fm3") in e.fates for e in result.entries)


def test_export_text_glyphs_png_and_triage_report(qtbot, window, demo_pdf, tmp_path, monkeypatch) -> None:
    w = window
    open_file(qtbot, w, demo_pdf, page=8)
    ex = w.exporter
    facts = w.bundle.facts
    glyphs = facts.page.glyphs

    path = ex.page_text(str(tmp_path / "p8.txt"), mode="layout")
    assert path.read_text(encoding="utf-8") == facts.modes.view("layout").text

    path = ex.glyphs_json(str(tmp_path / "p8.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["page"] == 8 and len(data["glyphs"]) == len(glyphs)
    statuses = {g["status"] for g in data["glyphs"]}
    assert {"kept", "duplicate"} <= statuses
    dup = next(g for g in data["glyphs"] if g["status"] == "duplicate")
    assert dup["duplicate_of"] == facts.classified.duplicate_of[dup["paint_index"]]

    # Through the menu side: the save dialog is patched.
    monkeypatch.setattr(ex, "ask_path", lambda kind, suggestion: str(tmp_path / suggestion))
    path = ex.glyphs_csv()
    with path.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == len(glyphs)
    assert rows[0]["paint_index"] == "0" and "status" in rows[0] and "origin_x" in rows[0]

    path = ex.canvas_png()
    image = QImage(str(path))
    assert not image.isNull()
    assert (image.width(), image.height()) == (
        round(w.canvas.page_rect.width() * 2),
        round(w.canvas.page_rect.height() * 2),
    )

    with qtbot.waitSignal(
        ex.exported, timeout=TIMEOUT, check_params_cb=lambda kind, p: kind == "document text"
    ) as blocker:
        ex.document_text(mode="plain")
    text = Path(blocker.args[1]).read_text(encoding="utf-8")
    pages = text.split("\f")
    assert len(pages) == 15 and pages[7] == facts.modes.view("plain").text

    with qtbot.waitSignal(
        ex.exported, timeout=60_000, check_params_cb=lambda kind, p: kind == "triage report"
    ) as blocker:
        ex.triage_report()
    html = Path(blocker.args[1]).read_text(encoding="utf-8")
    assert "demo.pdf" in html and "<html" in html and "data:image/png;base64" in html

    # A failure becomes one error box, never a crash.
    assert ex.glyphs_json(str(tmp_path / "missing-dir" / "x.json")) is None
    assert w.last_error is not None and w.last_error[0] == "Export failed"


# Qt antialiases every stroke, Pillow draws them hard: a stroke's edge may fall one pixel over.
MAX_SHARE = 0.001


def _pil(image: QImage) -> Image.Image:
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return Image.open(io.BytesIO(bytes(buffer.data().data()))).convert("RGB")


def _off_by_more_than_a_pixel(a: Image.Image, b: Image.Image) -> float:
    """Share of the pixels of `b` whose colour differs by more than 64 (a channel) from every
    pixel of `a` around it (3 × 3): the same drawing with strokes off by at most one pixel is 0."""
    high, low = a.filter(ImageFilter.MaxFilter(3)), a.filter(ImageFilter.MinFilter(3))
    off = ImageChops.lighter(ImageChops.subtract(b, high), ImageChops.subtract(low, b))
    return off.convert("L").point(lambda v: 255 if v > 64 else 0).histogram()[255] / (b.width * b.height)


def test_render_image_matches_the_windows_own_drawing(qtbot, window, demo_pdf) -> None:
    """`render`'s image (PDFium's page, the layers painted by Pillow) and the window's canvas agree:
    the same shapes at the same places; what differs is antialiasing along the strokes."""
    from glyphscope.core.document import open_document
    from glyphscope.inspector.render.layered import draw_page

    w = window
    open_file(qtbot, w, demo_pdf, page=7)
    layers = {"page_boxes", "glyphs", "culled", "duplicates", "unresolved", "fallback", "word_gaps"}
    for key in w.session.layers:
        w.session.set_layer_visible(key, key in layers)
    w.session.clear_selection("test")
    drawn = canvas_image(w.canvas, 2.0, with_selection=False)
    doc = open_document(demo_pdf)
    try:
        png = draw_page(doc, 7, layers, scale=2.0, mode=w.session.mode, palette=False).png
    finally:
        doc.close()
    rendered = Image.open(io.BytesIO(png)).convert("RGB")
    assert (drawn.width(), drawn.height()) == rendered.size
    share = _off_by_more_than_a_pixel(_pil(drawn), rendered)
    assert share < MAX_SHARE, share
    # The comparison does see overlays: without them the images differ clearly.
    for key in layers:
        w.session.set_layer_visible(key, False)
    bare = canvas_image(w.canvas, 2.0, with_selection=False)
    share_bare = _off_by_more_than_a_pixel(_pil(bare), rendered)
    assert share_bare > 10 * share, (share_bare, share)
    assert QColor(bare.pixel(1, 1)).isValid()


def test_canvas_export_of_a_huge_page_is_scaled_to_the_page_image_cap(qtbot, window, tmp_path):
    from glyphscope.inspector.gui.rendering import MAX_RENDER_PIXELS

    path = tmp_path / "huge.pdf"
    path.write_bytes(
        to_bytes(make_pdf([b"BT /F1 400 Tf 72 7000 Td (Huge) Tj ET"], media_box=[0, 0, 14400, 7200]))
    )
    open_file(qtbot, window, path)
    image = canvas_image(window.canvas, 2.0)  # 28,800 × 14,400 px uncapped: 1.6 GB
    assert image.width() * image.height() <= MAX_RENDER_PIXELS
    assert image.width() == pytest.approx(2 * image.height(), abs=2)  # the page's proportions kept
    assert image.width() == round(14400 * 2.0 * (MAX_RENDER_PIXELS / (28800 * 14400)) ** 0.5)
