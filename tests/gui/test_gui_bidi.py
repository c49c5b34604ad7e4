"""Right to left in the window: each line's bidi decision (share, ends, verdict) in Glyph details and
as a marker on the line; a click on the marker explains the order."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, Qt

from glyphscope.core.assembly.bidi import BidiDecision
from tests.core.test_bidi import ARABIC, ARABIC_PAINTED, HEBREW, LATIN_PAINTED, _content, _pdf
from tests.gui_helpers import TIMEOUT, open_file
from tests.pdfbuild import to_bytes

LINES = _content(ARABIC_PAINTED, LATIN_PAINTED)


def test_a_lines_bidi_decision_shows_in_details_and_as_a_marker_whose_click_explains_the_order(
    qtbot: Any, window: Any, tmp_path: Path
) -> None:
    w = window
    path = tmp_path / "arabic.pdf"
    path.write_bytes(to_bytes(_pdf(LINES)))
    open_file(qtbot, w, path)
    text = w.bundle.analysis.texts[w.session.mode]
    arabic, latin = text.decisions_of(BidiDecision)
    assert (arabic.verdict, latin.verdict) == ("reordered", "visual")
    assert w.session.layers["right_to_left"]  # on by default: the answer to "why is it reversed?"
    assert w.bundle.facts.counts.layers(w.session.mode)["right_to_left"] == 2

    # Glyph details of a letter of the Arabic line: the line's decision with its numbers
    first = arabic.glyph
    w.session.select({first}, "canvas")
    details = w.details.text()
    assert "Right to left (line 1): reordered" in details
    assert f"share {arabic.rtl} of {arabic.strong} strong characters = {arabic.share:.2f} vs 0.5" in details
    assert "first and last strong characters right to left: yes" in details
    assert f"“{ARABIC}”" in details and f"“{ARABIC_PAINTED}”" in details

    # the marker: at the end the text starts from (the right end of a reordered line)
    item = w.canvas.layer_items["right_to_left"]
    qtbot.waitUntil(lambda: item.drawing is not None, timeout=TIMEOUT)
    markers = {m.source.line: m for m in item.drawing.markers}
    glyphs = w.bundle.analysis.page.glyphs
    right_end = max(
        glyphs[g].quad[1][0]
        for g in range(len(glyphs))
        if text.chars_of_glyph(g) and arabic.start <= text.chars_of_glyph(g)[0] < arabic.start + arabic.length
    )
    assert abs(markers[0].point[0] - right_end) < 0.01
    assert markers[1].point[0] < markers[0].point[0]  # the Latin line's mark at its left end
    w.session.clear_selection()
    canvas = w.canvas
    canvas.set_zoom(4.0)
    scene = canvas.page_to_scene.map(QPointF(*markers[0].point))
    canvas.centerOn(scene)
    qtbot.mouseClick(canvas.viewport(), Qt.MouseButton.LeftButton, pos=canvas.mapFromScene(scene))
    assert w.session.decision is arabic
    details = w.details.text()
    assert "Decision: " + arabic.describe() in details
    assert (
        "Order" in details and f"painted\n“{ARABIC_PAINTED}”" in details and f"written\n“{ARABIC}”" in details
    )
    assert HEBREW not in details
    # the order itself: the painted line starts with the year, the written one with its first word
    assert "\u202d2 · 0 · 2 · 4 · _" in details and "\u202dع · د · د · _ · 2" in details
