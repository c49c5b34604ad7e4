"""No text a user needs whole is cut short with "…" at 1280 × 800: findings and find results wrap
(their rows are as tall as the wrapped text), content-stream operands are in their tooltip."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QRect, Qt

from tests.gui_helpers import TIMEOUT, open_file
from tests.pdfbuild import make_pdf, to_bytes

LONG_TJ = b"[" + b" ".join(b"(word%d) -250" % i for i in range(40)) + b"]"


def slug_pdf(tmp_path: Path) -> Path:
    """A page whose slug line lies outside the crop box (a culled-glyphs finding with a long message)."""
    page = (
        b"BT /F1 12 Tf 72 700 Td " + LONG_TJ + b" TJ ET\n"
        b"BT /F1 9 Tf 700 10 Td (printer slug outside the crop box) Tj ET"
    )
    path = tmp_path / "slug.pdf"
    path.write_bytes(to_bytes(make_pdf([page], media_box=[0, 0, 900, 800], crop_box=[0, 0, 612, 800])))
    return path


def wrapped_height(tree: Any, item: Any, column: int) -> int:
    """The height the cell's text needs, wrapped at its column's width."""
    width = tree.header().sectionSize(column) - 8  # the style's text margins
    metrics = tree.fontMetrics()
    flags = int(Qt.TextFlag.TextWordWrap)
    return metrics.boundingRect(QRect(0, 0, width, 100_000), flags, item.text(column)).height()


def test_findings_and_find_results_wrap_instead_of_eliding(qtbot: Any, window: Any, tmp_path: Path) -> None:
    w = window
    w.resize(1280, 800)
    open_file(qtbot, w, slug_pdf(tmp_path))
    w.reveal("diagnostics")
    tree = w.diagnostics.tree
    assert tree.textElideMode() == Qt.TextElideMode.ElideNone
    item = next(
        tree.topLevelItem(r)
        for r in range(tree.topLevelItemCount())
        if tree.topLevelItem(r).data(0, Qt.ItemDataRole.UserRole).kind.value == "culled_glyphs"
    )
    message = item.data(0, Qt.ItemDataRole.UserRole).message
    assert item.text(2) == message and tree.fontMetrics().horizontalAdvance(
        message
    ) > tree.header().sectionSize(2)
    qtbot.waitUntil(
        lambda: tree.visualItemRect(item).height() >= wrapped_height(tree, item, 2), timeout=TIMEOUT
    )

    w.reveal("find")
    find = w.find_panel
    find.edit.setText("word")
    find.search("word")
    results = find.results
    qtbot.waitUntil(lambda: results.topLevelItemCount() > 0, timeout=TIMEOUT)
    first = results.topLevelItem(0)
    assert results.textElideMode() == Qt.TextElideMode.ElideNone
    qtbot.waitUntil(
        lambda: results.visualItemRect(first).height() >= wrapped_height(results, first, 1), timeout=TIMEOUT
    )


def test_operands_of_a_long_tj_are_in_the_tooltip(qtbot: Any, window: Any, tmp_path: Path) -> None:
    w = window
    w.resize(1280, 800)
    open_file(qtbot, w, slug_pdf(tmp_path))
    w.reveal("content_stream")
    view = w.content_stream.page_view
    model = view.model()
    qtbot.waitUntil(lambda: model.rowCount() > 0, timeout=TIMEOUT)  # read once it is in front
    row = next(r for r in range(model.rowCount()) if model.index(r, 1).data() == "TJ")
    operands = model.index(row, 2).data()
    # The listing cuts an operand at 80 characters (core/document.py); the tooltip has all it has.
    assert operands.startswith("[(word0) -250 (word1) -250")
    assert model.index(row, 2).data(Qt.ItemDataRole.ToolTipRole) == operands
    assert view.columnWidth(0) == 56 and view.columnWidth(1) == 64  # the operands get the rest
