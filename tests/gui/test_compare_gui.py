"""The Compare panel and the canvas layer "Other engines differ" in the real window (offscreen)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings  # noqa: F401 — Qt loaded first: conftest redirects the settings

from glyphscope.inspector.compare.compared_page import comparison_of
from glyphscope.inspector.gui.overlays import compare_layer
from glyphscope.inspector.layers import registry as L
from tests.gui_helpers import TIMEOUT, go_to, open_file
from tests.pdfbuild import make_pdf

SLUG_PAGE = (
    b"BT /F1 12 Tf 72 700 Td (Body text inside the box) Tj ET BT /F1 9 Tf 72 20 Td (Job 4711 slug line) Tj ET"
)
TJ_GAP_PAGE = b"BT /F1 20 Tf 72 700 Td [(Hello) -120 (World)] TJ ET"


@pytest.fixture
def two_pages(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdf"
    make_pdf([SLUG_PAGE, TJ_GAP_PAGE], crop_box=[50, 50, 562, 742]).save(path)
    return path


def _compared(qtbot: Any, w: Any) -> Any:
    panel = w.compare_panel
    qtbot.waitUntil(lambda: panel.comparison is not None and panel.worker is None, timeout=TIMEOUT)
    return panel


def test_compare_panel_explains_and_selects_and_the_layer_marks_the_glyphs(qtbot, window, two_pages) -> None:
    w = window
    for key, check in w.compare_panel.checks.items():
        check.setChecked(key == "pdfminer")  # the one engine every machine has
    w.session.set_layer_visible("compare", True)
    open_file(qtbot, w, two_pages, page=1)
    panel = _compared(qtbot, w)
    assert panel.engine_keys() == ["pdfminer"]
    assert list(panel.columns) == ["glyphscope", "pdfminer"]
    assert "Job 4711 slug line" in panel.columns["pdfminer"].text.toPlainText()
    assert "agree" in panel.columns["pdfminer"].header.text()
    (diff,) = panel.differences()
    assert diff.kind == "extra" and diff.decision.kind == "cull"

    # Clicking the highlighted slug in pdfminer's column selects the culled glyphs and explains them.
    column = panel.columns["pdfminer"]
    cursor = column.text.textCursor()
    cursor.setPosition(diff.run.their_start + 2)
    column.text.setTextCursor(cursor)
    assert w.session.selection == frozenset(diff.glyphs) and w.session.selection_source == "compare"
    detail = panel.detail.text()
    assert "which glyphscope culled" in detail and "outside the visible box" in detail
    assert "glyphscope decision" in detail and "cull" in detail

    # The layer: the culled glyphs the engine keeps, in the "extra in theirs" colour.
    facts = w.bundle.facts
    assert comparison_of(facts) is panel.comparison
    drawing = w.bundle.overlays.layer("compare", w.session.mode)
    assert drawing is not None and w.canvas.layer_items["compare"].drawing is drawing
    colours = {part.style.colour for part in drawing.parts}
    assert colours == {L.COMPARE_COLOURS["extra"]}
    assert {g for m in drawing.markers for g in m.glyphs} == set(diff.glyphs)

    # Page 2: pdfminer's space in the TJ gap, a tick between the two glyphs; the list selects it.
    go_to(qtbot, w, 2)
    panel = _compared(qtbot, w)
    (diff,) = panel.differences()
    assert diff.kind == "space" and diff.decision.kind == "word_gap"
    panel.tree.setCurrentItem(panel.tree.topLevelItem(0))
    assert w.session.selection == frozenset(diff.run.pair)
    assert "inserts a space here: gap 2.40 pt, our threshold" in panel.detail.text()
    drawing = compare_layer(w.bundle.facts)
    assert drawing is not None and [p.style.colour for p in drawing.parts] == [L.COMPARE_COLOURS["space"]]


def test_absent_engines_are_greyed_with_how_to_install_them(qtbot, window, monkeypatch) -> None:
    from glyphscope.inspector.compare import engines as E
    from glyphscope.inspector.gui.panels.compare import ComparePanel

    monkeypatch.setattr(E.shutil, "which", lambda name: None)
    E.detect_engines(refresh=True)
    try:
        panel = ComparePanel(window.session, window.pool)
        qtbot.addWidget(panel)
        for key in ("pdftotext", "pdftotext-layout", "mutool"):
            check = panel.checks[key]
            assert not check.isEnabled() and not check.isChecked()
            assert "not installed" in check.text() and "To install:" in check.toolTip()
        assert panel.checks["pdfminer"].isEnabled() and panel.checks["pdfminer"].isChecked()
    finally:
        monkeypatch.undo()
        E.detect_engines(refresh=True)


@pytest.mark.parametrize("size", [(1600, 1000), (1280, 800)])
def test_compared_texts_wrap_instead_of_scrolling_sideways(qtbot, demo_pdf, size) -> None:
    from PySide6.QtWidgets import QAbstractScrollArea

    from tests.gui_helpers import window_at

    w = window_at(qtbot, size, demo_pdf, 7)
    for key, check in w.compare_panel.checks.items():
        check.setChecked(key == "pdfminer")
    w.reveal("compare")
    panel = _compared(qtbot, w)
    assert "Job 4711" in panel.columns["pdfminer"].text.toPlainText()
    qtbot.wait(50)
    areas = w.panels["compare"].findChildren(QAbstractScrollArea)
    assert areas and not [a.objectName() for a in areas if a.horizontalScrollBar().isVisible()]


def test_a_column_marks_differences_at_their_text_indices_past_cr_lf_and_astral_characters(qtbot):
    from types import SimpleNamespace

    from PySide6.QtCore import qInstallMessageHandler

    from glyphscope.inspector.gui.panels.compare import _Column

    clicked: list[int] = []
    column = _Column("pdfminer", "pdfminer.six", lambda _, index: clicked.append(index))
    qtbot.addWidget(column)
    kind = next(iter(L.COMPARE_COLOURS))
    text = "a\r\nb😀c\r\nlast"  # Qt makes CR LF one line break and counts 😀 twice
    start = text.index("last")
    messages: list[str] = []
    previous = qInstallMessageHandler(lambda _type, _context, message: messages.append(message))
    try:
        column.show_text("header", text, [(start, start + 4, SimpleNamespace(kind=kind))])
    finally:
        qInstallMessageHandler(previous)
    assert messages == []  # no "QTextCursor::setPosition: Position out of range"
    (selection,) = column.text.extraSelections()
    assert selection.cursor.selectedText() == "last"
    cursor = column.text.textCursor()
    cursor.setPosition(selection.cursor.selectionStart() + 1)  # a click inside the mark
    column.text.setTextCursor(cursor)
    assert clicked[-1] == start + 1  # the text index, not Qt's position
