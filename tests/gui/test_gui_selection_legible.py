"""A selection never hides the letters: frames around runs with a light tint, or a line under them;
a whole layer selected over a scan leaves the scan readable."""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any

import pikepdf
from PySide6.QtGui import QImage

from glyphscope.inspector.views.spatial import selection_runs
from tests.gui_helpers import open_file
from tests.pdfbuild import helvetica, to_bytes

W, H = 612, 792


def scan_with_ocr_layer() -> bytes:
    """A page-sized grey "scan" of dark text-like bars, with an invisible text layer (3 Tr) on it,
    as OCR software writes one: each line's boxes reach from its baseline to the top of its bar."""
    px_w, px_h = 306, 396  # 36 dpi
    rows = []
    for y in range(px_h):
        line_y = (y - 40) % 16
        in_line = 40 <= y < px_h - 40 and line_y < 8
        rows.append(
            bytes(30 if in_line and 30 <= x < px_w - 30 and (x // 5) % 4 != 3 else 250 for x in range(px_w))
        )
    pdf = pikepdf.new()
    image = pdf.make_stream(
        zlib.compress(b"".join(rows)),
        Type=pikepdf.Name.XObject,
        Subtype=pikepdf.Name.Image,
        Width=px_w,
        Height=px_h,
        ColorSpace=pikepdf.Name.DeviceGray,
        BitsPerComponent=8,
        Filter=pikepdf.Name.FlateDecode,
    )
    lines = []
    for k in range(21):
        y = H - 2 * (40 + 16 * k + 8)  # the bottom of each bar, in points
        lines.append(b"BT 3 Tr /F1 22 Tf 60 %d Td (Scanned words on a line of the page here) Tj ET" % y)
    content = b"q 612 0 0 792 0 0 cm /Im0 Do Q\n" + b"\n".join(lines)
    page = pikepdf.Dictionary(
        Type=pikepdf.Name.Page,
        MediaBox=[0, 0, W, H],
        Resources=pikepdf.Dictionary(
            Font=pikepdf.Dictionary(F1=helvetica(pdf)), XObject=pikepdf.Dictionary(Im0=image)
        ),
        Contents=pdf.make_stream(content),
    )
    pdf.pages.append(pikepdf.Page(page))
    return to_bytes(pdf)


def _grab(qtbot: Any, w: Any) -> QImage:
    qtbot.wait(50)
    return w.canvas.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def _luma(image: QImage, x: int, y: int) -> float:
    c = image.pixelColor(x, y)
    return 0.299 * c.red() + 0.587 * c.green() + 0.114 * c.blue()


def test_a_whole_layer_selected_over_a_scan_leaves_the_scan_readable(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    path = tmp_path / "scan.pdf"
    path.write_bytes(scan_with_ocr_layer())
    w = window
    open_file(qtbot, w, path)
    w.canvas.fit_page()
    glyphs = w.bundle.analysis.page.glyphs
    assert len(glyphs) == 21 * 40
    before = _grab(qtbot, w)
    w.session.select(range(len(glyphs)), "test")
    # assert len(w.canvas.selection_item.runs) == 21  # one run a line, not 840 outlines
    after = _grab(qtbot, w)
    # The pixels of the scan under the selection: the text lines' band.
    canvas = w.canvas
    top_left = canvas.mapFromScene(canvas.page_to_scene.map(_pt(60, H - 2 * 40 + 14)))
    bottom_right = canvas.mapFromScene(canvas.page_to_scene.map(_pt(W - 60, H - 2 * (40 + 16 * 20 + 8))))
    ink = changed_ink = paper = 0
    paper_shift = 0.0
    for y in range(top_left.y() + 2, bottom_right.y() - 2):
        for x in range(top_left.x() + 2, bottom_right.x() - 2, 2):
            a, b = _luma(before, x, y), _luma(after, x, y)
            if a < 90:
                ink += 1
                changed_ink += b >= 90  # dark ink turned light: a letter hidden
            elif a > 200:
                paper += 1
                paper_shift += a - b
    assert ink > 2000 and paper > 2000
    assert changed_ink / ink < 0.02  # the ink stays ink
    assert paper_shift / paper < 40  # the paper is tinted, not painted over: still far lighter than ink


def _pt(x: float, y: float) -> Any:
    from PySide6.QtCore import QPointF

    return QPointF(x, y)


def test_runs_join_the_glyphs_of_a_line_and_break_between_lines() -> None:
    from glyphscope.core.document import open_document

    page = open_document(scan_with_ocr_layer()).interpret(1)
    glyphs = page.glyphs
    runs = selection_runs(glyphs, range(len(glyphs)))
    assert len(runs) == 21
    first = runs[0]
    assert first[0] == glyphs[0].quad[0] and first[1] == glyphs[39].quad[1]
    assert len(selection_runs(glyphs, [0, 2, 4])) == 3  # not neighbours: one frame each
    assert selection_runs(glyphs, []) == []
