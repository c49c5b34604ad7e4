"""The Structure panel (gui/panels/structure_tree.py) on tagged and untagged pages and on corpus files
(pytest-qt)."""

from __future__ import annotations

import html

import pytest

from tests.conftest import corpus_file
from tests.gui_helpers import go_to, open_file


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
