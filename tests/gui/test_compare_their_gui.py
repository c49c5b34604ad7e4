"""Compare › Their text…: the customer's text in the window, drawn and listed by cause (offscreen)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings  # noqa: F401 — Qt loaded first: conftest redirects the settings

from glyphscope.inspector.compare.causes import CAUSE_COLOURS, CAUSE_TITLES, KIND_NAMES
from glyphscope.inspector.compare.theirs import pasted_text
from glyphscope.inspector.gui.overlays import compare_layer
from glyphscope.inspector.gui.panels.compare import TheirTextDialog
from tests.gui_helpers import TIMEOUT, go_to, open_file
from tests.pdfbuild import make_pdf

GAP = b"BT /F1 20 Tf 72 700 Td [(Hello) -120 (World)] TJ ET"
PLAIN = b"BT /F1 12 Tf 72 700 Td (Second page text) Tj ET"


@pytest.fixture
def two_pages(tmp_path: Path) -> Path:
    path = tmp_path / "two.pdf"
    make_pdf([GAP, PLAIN]).save(path)
    return path


def _compared(qtbot: Any, w: Any) -> Any:
    panel = w.compare_panel
    qtbot.waitUntil(lambda: panel.comparison is not None and panel.worker is None, timeout=TIMEOUT)
    return panel


def test_their_text_is_one_more_column_listed_and_drawn_by_cause(qtbot, window, two_pages, tmp_path) -> None:
    w = window
    for check in w.compare_panel.checks.values():
        check.setChecked(False)  # their text alone
    w.session.set_layer_visible("compare", True)
    open_file(qtbot, w, two_pages, page=1)
    panel = w.compare_panel
    panel.set_their_text(pasted_text("Hello World\fSecond page text, page 2 of 2"))
    panel = _compared(qtbot, w)
    assert list(panel.columns) == ["glyphscope", "theirs"]
    assert panel.columns["theirs"].text.toPlainText() == "Hello World"
    (diff,) = panel.differences()
    assert (diff.public_kind, diff.cause) == ("split", "word_gap")
    item = panel.tree.topLevelItem(0)
    assert (
        item.text(2) == CAUSE_TITLES["word_gap"]
        and item.foreground(2).color().name() == CAUSE_COLOURS["word_gap"]
    )

    # A click on the row selects the two glyphs around the gap and shows the cause with its numbers.
    panel.tree.setCurrentItem(item)
    assert w.session.selection == frozenset(diff.run.pair) and w.session.selection_source == "compare"
    detail = panel.detail.text()
    assert "their text inserts a space here: gap 2.40 pt" in detail
    assert CAUSE_TITLES["word_gap"] in detail and "gap 2.4" in detail and "what to change" in detail
    assert "glyphscope decision" in detail and "word_gap" in detail

    # The canvas layer draws their differences in the cause's colour.
    drawing = compare_layer(w.bundle.facts)
    assert drawing is not None and [p.style.colour for p in drawing.parts] == [CAUSE_COLOURS["word_gap"]]

    # Page 2: their page after the form feed; the extra words are not on the page.
    go_to(qtbot, w, 2)
    panel = _compared(qtbot, w)
    (extra,) = panel.differences()
    assert extra.cause == "not_on_page" and "page 2 of 2" in extra.sentence

    # Export: the ticket report of this page.
    out = tmp_path / "ticket.html"
    panel.export_report(str(out))
    page = out.read_text(encoding="utf-8")
    assert CAUSE_TITLES["not_on_page"] in page and "Report written to" in panel.status.text()


def test_the_dialog_loads_a_file_and_says_when_it_is_not_utf8(qtbot, tmp_path) -> None:
    dialog = TheirTextDialog()
    qtbot.addWidget(dialog)
    (good := tmp_path / "t.txt").write_text("Hello World\f", encoding="utf-8")
    assert dialog.load(str(good))
    their = dialog.their_text()
    assert their.text == "Hello World\f" and their.source == "file t.txt"
    (bad := tmp_path / "b.txt").write_bytes("Caf\u00e9".encode("latin-1"))
    assert dialog.load(str(bad))
    assert "not UTF-8" in dialog.note.text() and dialog.their_text().warnings
    assert not dialog.load(str(tmp_path / "missing.txt"))
    assert dialog.note.text().startswith("Cannot read")


ROW = re.compile(
    r"<tr><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)</td><td><span class='cause'[^>]*>([^<]*)</span></td>"
    r"<td class='text'>([^<]*)</td><td class='text'>([^<]*)</td><td>(.*?)</td></tr>"
)


def test_file_export_writes_the_ticket_report_of_their_text(qtbot, window, two_pages, tmp_path) -> None:
    """File › Export › Ticket report: greyed out (saying why) until their text is loaded, then the
    report `compare --text … --report` writes, byte for byte, with each difference and its cause."""
    from PySide6.QtGui import QAction

    from glyphscope.__main__ import main

    w = window
    for check in w.compare_panel.checks.values():
        check.setChecked(False)  # their text alone
    open_file(qtbot, w, two_pages, page=1)
    action = w.findChild(QAction, "export.ticket_report")
    assert action is not None and not action.isEnabled()
    assert "load or paste it first with Their text…" in action.toolTip()
    text = "Hello World\fSecond page text, page 2 of 2"
    w.compare_panel.set_their_text(pasted_text(text))
    assert action.isEnabled() and "as glyphscope compare --text --report" in action.toolTip()

    out = tmp_path / "ticket.html"
    w.exporter.ask_path = lambda kind, suggestion: str(out)
    with qtbot.waitSignal(w.exporter.exported, timeout=TIMEOUT) as done:
        action.trigger()
    assert done.args == ["ticket report", str(out)]
    page = out.read_text(encoding="utf-8")
    rows = ROW.findall(page)
    assert [(r[0], r[1], r[2], r[3], r[4], r[5]) for r in rows] == [
        ("1", "their text", KIND_NAMES["split"], CAUSE_TITLES["word_gap"], " ", ""),
        ("1", "their text", KIND_NAMES["extra"], CAUSE_TITLES["not_on_page"], ", page 2 of 2", ""),
    ]
    assert "gap 2.40 pt" in rows[0][6] and "What to change" in rows[0][6]
    assert "<h2>Page 1</h2>" in page and "<h2>Page 2</h2>" in page and page.count("<img ") == 2
    assert w.statusBar().currentMessage() == f"Exported ticket report to {out}"

    # The command line's report of the same file and text is the same page.
    (their_file := tmp_path / "their.txt").write_text(text, encoding="utf-8")
    cli = tmp_path / "cli.html"
    assert (
        main(["compare", str(w.session.source), "--text", str(their_file), "--report", str(cli), "-q"]) == 0
    )
    assert cli.read_text(encoding="utf-8") == page

    w.compare_panel.set_their_text(None)  # dropped: greyed out again
    assert not action.isEnabled()
