"""ActualText in the window: its layer, Glyph details and the Tuning switch."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QTextBrowser

from glyphscope.inspector.layers.registry import LAYER_BY_KEY
from tests.core.test_actual_text import TOTAL, _page
from tests.gui_helpers import TIMEOUT, open_file
from tests.pdfbuild import to_bytes


def test_actual_text_layer_details_and_switch(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "total.pdf"
    path.write_bytes(to_bytes(_page(TOTAL)))
    w = window
    open_file(qtbot, w, path)
    assert w.text_panels["plain"].editor.toPlainText() == "Total 42 EUR"
    assert LAYER_BY_KEY["actual_text"].label == "ActualText"
    assert w.bundle.facts.counts.layers("plain")["actual_text"] == 1

    # the layer: the span's two glyphs outlined, the replacement above them, a marker explaining it
    w.session.set_layer_visible("actual_text", True)
    drawing = w.bundle.overlays.layer("actual_text", "plain")
    assert [label.text for label in drawing.labels] == ["ActualText “42”"]
    (marker,) = drawing.markers
    assert marker.glyphs == (6, 7)
    assert "replaces the text '  ' of its 2 visible glyphs" in marker.text
    assert sum(part.path.elementCount() for part in drawing.parts) == 2 * 5  # two closed quads

    # Glyph details of the span's second glyph: the replacement, the glyphs' own text, the key
    w.session.select({7}, "test")
    browser = w.findChild(QTextBrowser, "details.browser")
    text = browser.toPlainText()
    assert "ActualText: plain text writes the replacement once" in text
    assert "'42'" in text and "/ActualText" in text and "#6–#7" in text

    # the Tuning switch (a row built from the Parameters field) off: the glyphs' own text
    assert "actual_text" in w.tuning.rows
    with qtbot.waitSignal(w.page_complete, timeout=TIMEOUT):
        w.session.set_params(w.session.params.with_changes(actual_text=False))
    assert w.session.params.actual_text is False
    assert w.text_panels["plain"].editor.toPlainText() == "Total    EUR"  # unresolved: a space each
    w.session.select({7}, "test")
    assert "the ActualText switch is off" in browser.toPlainText()
